"""Benchmark: ``aurc`` and ``risk_coverage_curve`` against one ``np.argsort`` of the
confidences, in one run.

    python benchmarks/bench_selective.py              # n = 10**7
    python benchmarks/bench_selective.py --n 1000000 --repeat 5

Target (issue 28): at n = 1e7 both within 2x of one ``np.argsort`` of the
confidences (validation of the inputs included).  Rounds are interleaved
and the best of each is kept; the ratios are printed.  Also times the
unweighted HELM area and the answer-or-abstain utility curve.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from skbrier import (  # noqa: E402
    abstention_utility,
    aurc,
    risk_coverage_curve,
    selective_coverage_accuracy_area,
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    conf = rng.uniform(size=args.n)
    right = rng.uniform(size=args.n) < conf
    tasks = {
        "np.argsort(confidence)": lambda: np.argsort(conf),
        "aurc": lambda: aurc(right, conf),
        "risk_coverage_curve": lambda: risk_coverage_curve(right, conf),
        "selective_coverage_accuracy_area": lambda: selective_coverage_accuracy_area(
            right, conf
        ),
        "abstention_utility": lambda: abstention_utility(right, conf),
    }
    best = dict.fromkeys(tasks, np.inf)
    for _ in range(args.repeat):
        for name, func in tasks.items():
            t0 = time.perf_counter()
            func()
            best[name] = min(best[name], time.perf_counter() - t0)
    base = best["np.argsort(confidence)"]
    print(f"n = {args.n:,}, best of {args.repeat} interleaved rounds")
    for name, t in best.items():
        print(f"  {name:<34s} {t:8.3f} s   {t / base:5.2f}x argsort")
    worst = max(best["aurc"], best["risk_coverage_curve"]) / base
    print(f"target: aurc and the curve within 2x of argsort -> {worst:.2f}x")


if __name__ == "__main__":
    main()
