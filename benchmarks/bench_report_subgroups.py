"""Benchmark: the calibration report with its subgroup section against the
report without it (issue 26: "a subgroup report over 50 groups at n = 1e6 in
one pass over the data, no slower than 2x the ungrouped report").

    python benchmarks/bench_report_subgroups.py             # n = 1e6, 50 groups
    python benchmarks/bench_report_subgroups.py --n 200000 --groups 20
    python benchmarks/bench_report_subgroups.py --cpu --repeat 3  # a busy machine

Prints the best of ``--repeat`` rounds of ``calibration_report(y, p)`` and of
``calibration_report(y, p, groups=g, segments={...})`` (two segmenting
columns: the groups and a three-level column), and their ratio; ``--cpu``
times the process's CPU time instead of the wall clock (steadier on a
machine shared with other work; the rounds alternate).  BLAS is
pinned to one thread (with several, the many small dot products of the
per-group lowess fits spend their time waiting for threads on a busy
machine).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skbrier.report import calibration_report  # noqa: E402


def _best(funcs, repeat: int, clock) -> list[float]:
    """The best time of each function over ``repeat`` alternating rounds."""
    best = [float("inf")] * len(funcs)
    for _ in range(repeat):
        for j, func in enumerate(funcs):
            t = clock()
            func()
            best[j] = min(best[j], clock() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--cpu", action="store_true", help="time CPU, not the wall clock")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    g = rng.integers(0, args.groups, args.n)
    p = rng.uniform(0.02, 0.98, args.n)
    y = (rng.uniform(size=args.n) < np.clip(p * (1 + 0.2 * (g % 3 == 0)), 0, 1)).astype(
        float
    )
    segments = {"group": g, "band": g % 3}
    clock = time.process_time if args.cpu else time.perf_counter
    plain, grouped = _best(
        [
            lambda: calibration_report(y, p),
            lambda: calibration_report(y, p, groups=g, segments=segments),
        ],
        args.repeat,
        clock,
    )
    what = "CPU" if args.cpu else "wall"
    print(f"n = {args.n:,}, {args.groups} groups, best of {args.repeat} ({what} time)")
    print(f"  report without groups      {plain:8.3f} s")
    print(f"  report with the subgroups  {grouped:8.3f} s")
    print(f"  ratio                      {grouped / plain:8.2f}  (target <= 2)")


if __name__ == "__main__":
    main()
