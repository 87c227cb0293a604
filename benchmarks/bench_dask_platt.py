"""Benchmark: ``platt_calibration_error`` on dask arrays against numpy.

    python benchmarks/bench_dask_platt.py            # n = 10**6 rows in 10 chunks
    python benchmarks/bench_dask_platt.py --n 10000000 --chunks 20

The dask path (local threaded scheduler, persisted chunks) is the in-memory
composition as map-reduces: HELM's equal-mass bins of the confidences before
and after scaling by an exact selection (a few passes of range counts each),
the maximum-likelihood fit (one map-reduce per Newton step) and the bins'
sums.  Prints both times, their ratio, the passes and map-reduces, and the
largest difference of the results (they are the in-memory ones).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def best(func, repeat):
    t, value = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = func()
        t = min(t, time.perf_counter() - t0)
    return t, value


def main() -> None:
    import dask
    import dask.array as da

    from skbrier._backends._dask._graph import stats
    from skbrier.metrics import platt_calibration_error

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10**6)
    ap.add_argument("--chunks", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    p = rng.beta(4, 2, args.n)  # LLM-like confidences, mostly high
    y = (rng.random(args.n) < p**1.5).astype(np.int8)  # over-confident
    w = rng.integers(1, 4, args.n).astype(np.float64)
    size = -(-args.n // args.chunks)
    dy, dp, dw = (da.from_array(a, chunks=size).persist() for a in (y, p, w))
    print(f"n = {args.n:,} rows, {args.chunks} chunks, best of {args.repeat}")
    with dask.config.set(scheduler="threads"):
        for weighted in (False, True):
            sw, dsw = (w, dw) if weighted else (None, None)
            t_np, exp = best(
                lambda sw=sw: platt_calibration_error(y, p, sample_weight=sw), args.repeat
            )
            before = dict(stats)
            t_da, got = best(
                lambda dsw=dsw: platt_calibration_error(dy, dp, sample_weight=dsw),
                args.repeat,
            )
            passes = (stats["passes"] - before["passes"]) / args.repeat
            reductions = (stats["reductions"] - before["reductions"]) / args.repeat
            diff = max(
                abs(getattr(got, f) - getattr(exp, f))
                for f in (
                    "coef",
                    "intercept",
                    "calibration_error",
                    "calibration_error_before",
                )
            )
            print(
                f"{'weighted' if weighted else 'unweighted':>10}: numpy {t_np:.3f} s, "
                f"dask {t_da:.3f} s ({t_da / t_np:.1f}x), {passes:.0f} passes + "
                f"{reductions:.0f} map-reduces, largest difference {diff:.2g}"
            )


if __name__ == "__main__":
    main()
