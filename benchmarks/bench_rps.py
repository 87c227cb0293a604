"""Benchmark: skbrier's ranked probability score vs bare numpy and scoringrules.

    python benchmarks/bench_rps.py            # n = 10**7, K = 5
    python benchmarks/bench_rps.py --quick    # n = 10**6

Prints the best of several interleaved rounds for each implementation and the
ratio.  Target (issue 30): ``ranked_probability_score`` at n = 1e7, K = 5
(validation included) within 1.5x of bare numpy with the one-hot outcomes
given, ``np.sum((np.cumsum(p, 1) - np.cumsum(onehot, 1)) ** 2, 1).mean()``.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from bench_brier import best_times, report  # noqa: E402

from skbrier import ranked_probability_score  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 1e6")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    n, k = (10**6 if args.quick else 10**7), 5
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(k), n)
    y = rng.integers(0, k, n)
    onehot = np.zeros((n, k))
    onehot[np.arange(n), y] = 1.0
    funcs = {
        "numpy (one-hot given)": lambda: float(
            np.sum((np.cumsum(p, 1) - np.cumsum(onehot, 1)) ** 2, 1).mean()
        ),
        "ranked_probability_score": lambda: ranked_probability_score(y, p),
    }
    slow = ()
    try:
        import scoringrules as sr

        funcs["scoringrules.rps_score"] = lambda: float(sr.rps_score(y + 1, p).mean())
        slow = ("scoringrules.rps_score",)
    except ImportError:  # pragma: no cover - optional peer
        pass
    t, v = best_times(funcs, args.repeat, slow=slow)
    report(f"ranked probability score, n = {n:.0e}, K = {k}", list(t.items()))
    ratio = t["ranked_probability_score"] / t["numpy (one-hot given)"]
    print(f"  ratio skbrier / numpy: {ratio:.2f} (target <= 1.5)")
    values = np.array(list(v.values()))
    print(f"  largest relative difference of the values: {np.ptp(values) / values[0]:.1e}")


if __name__ == "__main__":
    main()
