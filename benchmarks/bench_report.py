"""Time ``calibration_report`` against R's ``rms::val.prob`` on the same data.

    python benchmarks/bench_report.py [--n N ...] [--cov iid|hac|bootstrap]
                                      [--n-resamples B] [--n-jobs J] [--repeat K]
                                      [--weights none|integer|fractional]

For each n, simulates miscalibrated forecasts, times the full
``calibration_report`` (every val.prob number plus intervals, decompositions,
the O/E ratio, DeLong's interval of C and the lowess curve) and, in the same
run, ``rms::val.prob(p, y, pl = FALSE)`` inside R (``system.time``; R start-up
and CSV reading excluded), and prints the ratio R / skbrier (above 1: skbrier
is faster).  Also times the lowess step alone against R's ``lowess``.  R is
skipped when ``Rscript`` or rms is missing.  With ``--cov bootstrap`` the
report uses the adaptive number of resamples unless ``--n-resamples`` is
given, and the iid report is timed in the same run: the ratio
bootstrap / iid is printed (issue 25: at most 10 at 2e6 rows, where the
adaptive default is 200 resamples).  ``--no-r`` skips R.  Timings are the
best of ``--repeat`` runs (one bootstrap run).  ``--weights``: frequency
weights on the rows, integers 1-2 or uniform on [0.5, 2] (R is then skipped:
``val.prob`` takes none).
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skbrier._core.kernels.calibration import lowess_calibration
from skbrier.report import calibration_report

R_CODE = r"""
suppressPackageStartupMessages(library(rms))
d <- read.csv(commandArgs(TRUE)[1])
k <- as.integer(commandArgs(TRUE)[2])
best <- Inf; best_l <- Inf
for (i in 1:k) {
  t <- system.time(v <- suppressWarnings(val.prob(d$p, d$y, pl = FALSE)))[["elapsed"]]
  best <- min(best, t)
  t <- system.time(sm <- lowess(d$p, d$y, iter = 0))[["elapsed"]]
  best_l <- min(best_l, t)
}
cat(sprintf("%.6f %.6f %.12f\n", best, best_l, v[["Eavg"]]))
"""


def best_of(f, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def run_r(y, p, repeat):
    rscript = shutil.which("Rscript")
    if not rscript:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "d.csv"
        np.savetxt(
            csv,
            np.column_stack([y, p]),
            delimiter=",",
            header="y,p",
            comments="",
            fmt=["%d", "%.17g"],
        )
        script = Path(tmp) / "b.R"
        script.write_text(R_CODE)
        res = subprocess.run(
            [rscript, str(script), str(csv), str(repeat)],
            capture_output=True,
            text=True,
            check=False,
        )
    if res.returncode != 0:
        print("R failed:", res.stderr.strip().splitlines()[-1:])
        return None
    t, t_l, eavg = map(float, res.stdout.split())
    return t, t_l, eavg


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="*", default=[100_000, 2_000_000])
    ap.add_argument("--cov", default="iid", choices=["iid", "hac", "bootstrap"])
    ap.add_argument("--n-resamples", type=int, default=None)
    ap.add_argument("--n-jobs", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--no-r", action="store_true", help="do not time R")
    ap.add_argument("--weights", default="none", choices=["none", "integer", "fractional"])
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()}; cov_type={args.cov}")
    print(
        f"{'n':>9} {'report':>9} {'R val.prob':>11} {'R/report':>9} "
        f"{'lowess':>8} {'R lowess':>9} {'R/ours':>7} {'Eavg diff':>10}"
    )
    rng = np.random.default_rng(0)
    for n in args.n:
        x = rng.standard_normal(n)
        y = (rng.random(n) < 1 / (1 + np.exp(-(-1 + x)))).astype(int)
        p = 1 / (1 + np.exp(-(0.3 + 1.5 * (-1 + x))))
        w = {
            "none": None,
            "integer": rng.integers(1, 3, n).astype(float),
            "fractional": rng.uniform(0.5, 2.0, n),
        }[args.weights]
        kw = {"cov_type": args.cov, "random_state": 0, "sample_weight": w}
        if args.cov == "bootstrap":
            kw.update(n_resamples=args.n_resamples, n_jobs=args.n_jobs)
        repeat = 1 if args.cov == "bootstrap" else args.repeat
        t_rep, rep = best_of(lambda y=y, p=p, kw=kw: calibration_report(y, p, **kw), repeat)
        t_low, _ = best_of(lambda y=y, p=p: lowess_calibration(y.astype(float), p), repeat)
        r = None if args.no_r or w is not None else run_r(y, p, args.repeat)
        if r is None:
            r_txt = f"{'n/a':>11} {'n/a':>9}"
            l_txt = f"{'n/a':>9} {'n/a':>7} {'n/a':>10}"
        else:
            t_r, t_rl, eavg = r
            r_txt = f"{t_r:10.3f}s {t_r / t_rep:9.2f}"
            l_txt = f"{t_rl:8.3f}s {t_rl / t_low:7.2f} {abs(rep.eavg - eavg):10.1e}"
        print(f"{n:>9} {t_rep:8.3f}s {r_txt} {t_low:7.3f}s {l_txt}")
        if args.cov == "bootstrap":
            t_iid, _ = best_of(
                lambda y=y, p=p, w=w: calibration_report(
                    y, p, sample_weight=w, random_state=0
                ),
                args.repeat,
            )
            print(
                f"          ({rep.n_resamples} resamples) iid report {t_iid:.3f}s, "
                f"bootstrap / iid = {t_rep / t_iid:.2f} (target 10)"
            )


if __name__ == "__main__":
    main()
