"""Benchmark: validation_sample_size against the Python port of pmvalsampsize.

Riley et al.'s heart-valve example and the port's README example, each with
and without a net-benefit threshold.  Prints, per case, the best of
``--repeat`` wall-clock times of skbrier's quadrature (no simulation), of
skbrier's ``method="simulation"`` (pmvalsampsize's procedure, 10**6 simulated
patients) and of ``pmvalsampsize`` itself (10**6 simulated patients), with
the sample sizes each gives.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_sample_size.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import time

import numpy as np

from skbrier.validation import validation_sample_size

CASES = [
    (
        "heart valve, normal LP",
        {"prevalence": 0.018, "cstatistic": 0.8, "oeciwidth": 1, "lpnormal": (-5, 2.5)},
    ),
    (
        "heart valve, NB at 8 %",
        {
            "prevalence": 0.018,
            "cstatistic": 0.8,
            "oeciwidth": 1,
            "lpnormal": (-5, 2.5),
            "threshold": 0.08,
        },
    ),
    ("README, beta risks", {"prevalence": 0.43, "cstatistic": 0.8, "lpbeta": (1.33, 1.75)}),
    (
        "README, NB at 30 %",
        {"prevalence": 0.43, "cstatistic": 0.8, "lpbeta": (1.33, 1.75), "threshold": 0.3},
    ),
]


def ours(case: dict) -> dict:
    kw = {"prevalence": case["prevalence"], "c_statistic": case["cstatistic"]}
    kw["lp_distribution"] = (
        ("normal", *case["lpnormal"]) if "lpnormal" in case else ("beta", *case["lpbeta"])
    )
    if "oeciwidth" in case:
        kw["oe_ci_width"] = case["oeciwidth"]
    if "threshold" in case:
        kw["threshold"] = case["threshold"]
    return kw


def best_time(fn, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    try:
        load = os.getloadavg()
    except OSError:  # pragma: no cover
        load = (float("nan"),) * 3
    print(f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    try:
        from pmvalsampsize.pmvalsampsize import pmvalsampsize
    except ImportError:  # pragma: no cover
        pmvalsampsize = None
        print("pmvalsampsize is not installed (pip install pmvalsampsize): ours only")
    for name, case in CASES:
        kw = ours(case)
        t_q, q = best_time(lambda kw=kw: validation_sample_size(**kw), args.repeat)
        t_s, s = best_time(
            lambda kw=kw: validation_sample_size(method="simulation", **kw), args.repeat
        )
        print(f"\n{name}")
        print(
            f"  skbrier quadrature      : {t_q:8.4f} s  n = {list(q.sample_sizes.values())}"
        )
        print(
            f"  skbrier simulation (1e6): {t_s:8.4f} s  n = {list(s.sample_sizes.values())}"
        )
        if pmvalsampsize is not None:

            def peer(case=case):
                with contextlib.redirect_stdout(io.StringIO()):
                    return pmvalsampsize(type="b", noprint=True, **case)

            t_p, p = best_time(peer, args.repeat)
            sizes = [int(r[1]) for r in p["results_table"] if isinstance(r, list)][:-1]
            print(f"  pmvalsampsize (1e6)     : {t_p:8.4f} s  n = {sizes}")
            print(f"  speed-up of the quadrature: {t_p / t_q:,.0f}x")


if __name__ == "__main__":
    main()
