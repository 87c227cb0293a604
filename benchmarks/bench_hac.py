"""Benchmark: skbrier.stats.long_run_covariance vs R sandwich::lrvar.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_hac.py [--repeat 5] [--no-r]

Data: the seed-004 Brier gradient pairs ((Z - P)^2, (Z - Zbar)^2) (T x 2) of an
AR(1) design with rho = 0.5, pi = 0.1, mu = 1.  For T = 1e5 the same data are
written to a temporary CSV, R reads it, and ``system.time`` around ``lrvar``
alone is reported (R start-up and file reading excluded).  R is skipped when
``Rscript`` or the sandwich package is missing.  Reports best-of-``repeat`` wall
times, the ratio R / skbrier, and the largest relative difference of the results.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.signal import lfilter
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from skbrier.stats.long_run_covariance import long_run_covariance

CONFIGS = {
    "andrews-qs-prewhite": {"kernel": "quadratic_spectral", "bandwidth": "andrews"},
    "newey-west-bartlett": {"kernel": "bartlett", "bandwidth": "newey-west"},
    "andrews-qs-noprewhite": {"kernel": "quadratic_spectral", "prewhite": False},
}
R_CALLS = {
    "andrews-qs-prewhite": 'lrvar(x, type = "Andrews", prewhite = TRUE, adjust = TRUE)',
    "newey-west-bartlett": 'lrvar(x, type = "Newey-West", prewhite = TRUE, adjust = TRUE)',
    "andrews-qs-noprewhite": 'lrvar(x, type = "Andrews", prewhite = FALSE, adjust = TRUE)',
}


def brier_pairs(T: int, rho: float = 0.5, pi1: float = 0.1, mu: float = 1.0, seed: int = 0):
    """Seed-004 design: Z*_t = tau + rho Z*_{t-1} + e, Y*_t AR(1) with Var 1."""
    rng = np.random.default_rng(seed)
    sdz = 1.0 / np.sqrt(1.0 - rho**2)
    tau = norm.ppf(pi1) * sdz * (1.0 - rho)
    ez = rng.standard_normal(T)
    ey = rng.standard_normal(T) * np.sqrt(1.0 - rho**2)
    ez[0] = tau / (1 - rho) + sdz * ez[0] - tau  # stationary start
    ey[0] = rng.standard_normal()
    zs = lfilter([1.0], [1.0, -rho], ez + tau)
    ys = lfilter([1.0], [1.0, -rho], ey)
    z = (zs > 0).astype(float)
    p = norm.cdf(np.where(z == 1, mu, -mu) + ys)
    return np.column_stack([(z - p) ** 2, (z - z.mean()) ** 2])


def time_python(x, kwargs, repeat):
    long_run_covariance(x, **kwargs)  # warm-up (imports, caches)
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = long_run_covariance(x, **kwargs)
        best = min(best, time.perf_counter() - t0)
    return best, out


def time_r(x, repeat):
    """Best-of-``repeat`` elapsed seconds of each R call, and R's results."""
    if shutil.which("Rscript") is None:
        return None
    ok = subprocess.run(
        ["Rscript", "-e", "quit(status = !requireNamespace('sandwich', quietly = TRUE))"],
        capture_output=True,
        check=False,
    )
    if ok.returncode != 0:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "x.csv")
        np.savetxt(data, x, delimiter=",", fmt="%.17g")
        lines = [
            "suppressPackageStartupMessages(library(sandwich))",
            f'x <- as.matrix(read.csv("{data}", header = FALSE))',
            "colnames(x) <- NULL",
        ]
        for name, call in R_CALLS.items():
            lines += [
                f"best <- Inf; for (i in 1:{repeat}) {{",
                f"  tt <- system.time(v <- {call})[['elapsed']]; best <- min(best, tt) }}",
                f'cat("{name}", best, sprintf("%.17g", v), "\\n")',
            ]
        script = os.path.join(tmp, "bench.R")
        Path(script).write_text("\n".join(lines) + "\n")
        res = subprocess.run(
            ["Rscript", script], capture_output=True, text=True, check=False
        )
        if res.returncode != 0:
            print("R failed:", res.stderr[-500:])
            return None
    out = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] in R_CALLS:
            out[parts[0]] = (
                float(parts[1]),
                np.array(parts[2:], dtype=float).reshape(2, 2),
            )
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-r", action="store_true", help="skip the R comparison")
    args = parser.parse_args(argv)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"cores: {os.cpu_count()}, load average (1 min): {load:.2f}")

    x5 = brier_pairs(10**5)
    r_res = None if args.no_r else time_r(x5, min(args.repeat, 3))
    if r_res is None:
        print("R / sandwich not available (or --no-r): R timings skipped")
    print("\nT = 100000, k = 2 (R: system.time around lrvar only, best of runs)")
    print(
        f"{'config':24s} {'skbrier [s]':>12s} {'R [s]':>8s} {'R/skbrier':>10s} {'max rel diff':>13s}"
    )
    for name, kwargs in CONFIGS.items():
        t_py, v = time_python(x5, kwargs, args.repeat)
        if r_res and name in r_res:
            t_r, v_r = r_res[name]
            diff = np.max(np.abs(v - v_r) / np.abs(v_r))
            ratio = t_r / t_py
            print(f"{name:24s} {t_py:12.4f} {t_r:8.3f} {ratio:10.1f} {diff:13.2e}")
        else:
            print(f"{name:24s} {t_py:12.4f} {'-':>8s} {'-':>10s} {'-':>13s}")

    x6 = brier_pairs(10**6, seed=1)
    print("\nT = 1000000, k = 2 (target: well under 1 s)")
    for name, kwargs in CONFIGS.items():
        t_py, _ = time_python(x6, kwargs, max(1, args.repeat // 2))
        print(f"{name:24s} {t_py:12.4f}")


if __name__ == "__main__":
    main()
