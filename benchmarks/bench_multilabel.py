"""Benchmark: skbrier's Brier score of a multilabel indicator vs scikit-learn.

    python benchmarks/bench_multilabel.py            # n = 10**6 rows, 20 labels
    python benchmarks/bench_multilabel.py --quick    # n = 10**5

Target (issue 30): ``brier_score`` on a multilabel indicator ``y_true`` at
least 10x faster than ``sklearn.metrics.brier_score_loss`` on the same input
(the same number, to the last bit).  Bare numpy ``np.mean(np.sum((y - p) ** 2,
1))`` is printed for scale.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from bench_brier import best_times, report  # noqa: E402
from sklearn.metrics import brier_score_loss  # noqa: E402

from skbrier import brier_score  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 1e5")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    n, k = (10**5 if args.quick else 10**6), 20
    rng = np.random.default_rng(0)
    p = rng.random((n, k))
    y = (rng.random((n, k)) < p).astype(np.int64)
    warnings.simplefilter("ignore", UserWarning)  # scikit-learn: rows do not sum to one
    t, v = best_times(
        {
            "numpy": lambda: float(np.mean(np.sum((y - p) ** 2, 1))),
            "brier_score": lambda: brier_score(y, p),
            "sklearn brier_score_loss": lambda: brier_score_loss(y, p),
        },
        args.repeat,
        slow=("sklearn brier_score_loss",),
    )
    report(f"multilabel Brier score, n = {n:.0e}, {k} labels", list(t.items()))
    speedup = t["sklearn brier_score_loss"] / t["brier_score"]
    print(f"  speed-up over scikit-learn: {speedup:.1f}x (target >= 10)")
    print(
        f"  same float as scikit-learn: {v['brier_score'] == v['sklearn brier_score_loss']}"
    )


if __name__ == "__main__":
    main()
