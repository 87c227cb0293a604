"""Benchmark: skbrier's Brier score vs scikit-learn and bare numpy, in one run.

    python benchmarks/bench_brier.py            # n = 10**7 binary, 10**6 x 10 multiclass
    python benchmarks/bench_brier.py --quick    # smaller sizes

Prints the best of several repeats for each implementation and the ratios.
Targets (issue 2): binary n = 1e7 at least 20x faster than
``sklearn.metrics.brier_score_loss`` and within 2.5x of bare numpy with
validation on; multiclass n = 1e6, K = 10 within 2x of bare numpy.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from sklearn.metrics import brier_score_loss

from skbrier import brier_index, brier_score


def best_time(func, repeat):
    best = np.inf
    value = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = func()
        best = min(best, time.perf_counter() - t0)
    return best, value


def report(title, rows):
    print(f"\n{title}")
    base = dict(rows)
    for name, t in rows:
        print(f"  {name:<34}{t * 1e3:>10.1f} ms")
    return base


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    n_bin = 10**6 if args.quick else 10**7
    n_mc, k = (10**5 if args.quick else 10**6), 10
    rng = np.random.default_rng(0)

    # ------------------------------------------------------------- binary
    p = rng.random(n_bin)
    y = (rng.random(n_bin) < p).astype(np.int64)
    t_np, v_np = best_time(lambda: float(np.mean((y - p) ** 2)), args.repeat)
    t_us, v_us = best_time(lambda: brier_score(y, p), args.repeat)
    t_bi, _ = best_time(lambda: brier_index(y, p), args.repeat)
    t_sk, v_sk = best_time(lambda: brier_score_loss(y, p), max(1, args.repeat // 3))
    report(
        f"binary, n = {n_bin:.0e}",
        [
            ("bare numpy mean((y - p)**2)", t_np),
            ("skbrier.brier_score", t_us),
            ("skbrier.brier_index", t_bi),
            ("sklearn brier_score_loss", t_sk),
        ],
    )
    print(f"  speed-up vs sklearn: {t_sk / t_us:.1f}x  (target >= 20x)")
    print(f"  cost vs bare numpy:  {t_us / t_np:.2f}x  (target <= 2.5x)")
    print(f"  equal to sklearn bit for bit: {v_us == v_sk}")

    # --------------------------------------------------------- multiclass
    P = rng.dirichlet(np.ones(k), size=n_mc)
    yk = rng.integers(0, k, n_mc)
    Y = np.eye(k)[yk]

    def bare_mc():
        return float(np.mean(np.sum((P - Y) ** 2, axis=1)))

    def bare_mc_with_onehot():
        return float(np.mean(np.sum((P - np.eye(k)[yk]) ** 2, axis=1)))

    t_np, _ = best_time(bare_mc, args.repeat)
    t_np2, _ = best_time(bare_mc_with_onehot, args.repeat)
    t_us, v_us = best_time(lambda: brier_score(yk, P), args.repeat)
    t_sk, v_sk = best_time(lambda: brier_score_loss(yk, P), max(1, args.repeat // 3))
    report(
        f"multiclass, n = {n_mc:.0e}, K = {k}",
        [
            ("bare numpy (one-hot given)", t_np),
            ("bare numpy (one-hot built)", t_np2),
            ("skbrier.brier_score", t_us),
            ("sklearn brier_score_loss", t_sk),
        ],
    )
    print(f"  speed-up vs sklearn: {t_sk / t_us:.1f}x")
    print(f"  cost vs bare numpy (one-hot given): {t_us / t_np:.2f}x  (target <= 2x)")
    print(f"  cost vs bare numpy (one-hot built): {t_us / t_np2:.2f}x")
    print(f"  equal to sklearn bit for bit: {v_us == v_sk}")


if __name__ == "__main__":
    main()
