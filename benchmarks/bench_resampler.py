"""Time one resample of non-integer frequency weights: numpy's multinomial
against the alias sampler (``skbrier._core.alias``).

    python benchmarks/bench_resampler.py [--n N ...] [--repeat K] [--per-row R]

For each n, weights uniform on [0.5, 2] (the default ``--per-row`` 1.25;
another value scales them to that many draws per row on average), one resample draws ``round(W)`` observations
with probabilities ``w / W``.  Times, in the same run and interleaved,
``rng.multinomial(draws, w / W)`` (the sampler before), the sampler of
:func:`skbrier._core.resampling.frequency_resampler` (the alias method, or
numpy's multinomial beyond ``ALIAS_DRAWS_PER_ROW`` draws per row) and, for
scale, the unweighted resample of n rows (``integers`` + ``bincount``).
Prints the best of ``--repeat`` (per resample, table built once, its build
time printed apart) and the ratio multinomial / new (above 1: faster).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skbrier._core.resampling import frequency_resampler, resample_counts


def bench(n: int, per_row: float, repeat: int) -> None:
    """Print the timings at ``n`` rows."""
    rng = np.random.default_rng(0)
    w = rng.uniform(0.5, 2.0, n) * (per_row / 1.25)
    draws = round(float(w.sum()))
    t0 = time.perf_counter()
    new = frequency_resampler(w, n)
    build = time.perf_counter() - t0
    prob = w / w.sum()
    runs = {
        "multinomial (before)": lambda: rng.multinomial(draws, prob).astype(np.float64),
        "frequency_resampler (new)": lambda: new(rng),
        "unweighted (integers+bincount)": lambda: resample_counts(rng, n),
    }
    best = dict.fromkeys(runs, np.inf)
    for _ in range(repeat):
        for name, f in runs.items():
            t0 = time.perf_counter()
            f()
            best[name] = min(best[name], time.perf_counter() - t0)
    print(f"n={n:,} draws={draws:,} (table build {build * 1e3:.1f} ms, once per call)")
    for name, t in best.items():
        print(f"  {name:32s} {t * 1e3:9.2f} ms per resample")
    ratio = best["multinomial (before)"] / best["frequency_resampler (new)"]
    print(f"  ratio multinomial / new: {ratio:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="*", default=[20_000, 2_000_000])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--per-row", type=float, default=1.25)
    args = ap.parse_args()
    for n in args.n:
        bench(n, args.per_row, args.repeat)


if __name__ == "__main__":
    main()
