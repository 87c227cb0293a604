"""Time internal_validation against R pminternal::boot_optimism on the same task.

    python benchmarks/bench_internal_validation.py [--n 10000] [--B 200]
        [--smooth lowess gam] [--pminternal-src /tmp/pminternal]

The task of issue 27: bootstrap optimism of a logistic-regression pipeline
(``StandardScaler`` + ``LogisticRegression(C=inf)``, the ``glm`` of R) with
``B`` refits on ``n`` rows, scoring C, Brier, calibration intercept and slope
and the calibration curve's Eavg (skbrier adds the Brier Index and the
calibration in the large).  The same simulated data go to R through a CSV;
R's time is measured inside R (``system.time`` around ``boot_optimism``, R
start-up, CSV reading and sourcing excluded), its elapsed and CPU (user +
system) seconds; Python's the same, with ``n_jobs=None`` and ``n_jobs=-1``.

pminternal's calibration curve is a GAM on the logit scale by default
(``--smooth gam``, much the slower); ``--smooth lowess`` asks for the lowess
on the probability scale that skbrier's ``ici`` is (the same numbers).
pminternal is sourced from its R files (``git archive f56dc51 R``, see
tests/fixtures/make_pminternal_fixtures.R); R is skipped when ``Rscript``,
pmcalibration or the sources are missing.  On a machine shared with other
jobs compare the CPU seconds.
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

from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from skbrier.model_selection import internal_validation  # noqa: E402

R_CODE = r"""
args <- commandArgs(TRUE)
suppressPackageStartupMessages(library(pmcalibration))
for (f in c("boot_optimism.R", "score_binary.R", "util.R")) source(file.path(args[2], "R", f))
d <- read.csv(args[1])
B <- as.integer(args[3])
calib <- if (args[4] == "lowess") list(smooth = "lowess", transf = "none", eval = 0) else cal_defaults()
mf <- function(data, ...) glm(y ~ ., data = data, family = binomial)
pf <- function(model, data, ...) predict(model, newdata = data, type = "response")
pbapply::pboptions(type = "none")
set.seed(1)
t <- system.time(r <- suppressMessages(boot_optimism(
  d, "y", mf, pf, method = "boot", B = B, calib_args = calib)))
cat(sprintf("%.3f %.3f %.10f %.10f\n", t[["elapsed"]], t[["user.self"]] + t[["sys.self"]],
            r$corrected[["C"]], r$corrected[["Slope"]]))
"""


def simulate(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 5))
    lp = -1.0 + X @ np.array([0.8, -0.5, 0.3, 0.0, 0.2])
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-lp))).astype(int)
    return X, y


def time_python(X, y, B: int, n_jobs):
    pipe = make_pipeline(
        StandardScaler(), LogisticRegression(C=np.inf, solver="newton-cholesky")
    )
    w0, c0 = time.perf_counter(), time.process_time()
    res = internal_validation(pipe, X, y, n_bootstrap=B, random_state=1, n_jobs=n_jobs)
    return time.perf_counter() - w0, time.process_time() - c0, res


def time_r(X, y, B: int, smooth: str, src: str):
    rscript = shutil.which("Rscript")
    if rscript is None or not Path(src, "R", "boot_optimism.R").exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp, "d.csv")
        header = ",".join([f"x{j + 1}" for j in range(X.shape[1])] + ["y"])
        np.savetxt(csv, np.column_stack([X, y]), delimiter=",", header=header,
                   comments="", fmt="%.17g")  # fmt: skip
        script = Path(tmp, "bench.R")
        script.write_text(R_CODE)
        out = subprocess.run(
            [rscript, str(script), str(csv), src, str(B), smooth],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    if out.returncode != 0:
        print(f"R failed: {out.stderr.strip()[-300:]}")
        return None
    wall, cpu, c, slope = map(float, out.stdout.split())
    return wall, cpu, c, slope


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--B", type=int, default=200)
    ap.add_argument("--smooth", nargs="*", default=["lowess", "gam"])
    ap.add_argument(
        "--pminternal-src", default=os.environ.get("PMINTERNAL_SRC", "/tmp/pminternal")
    )
    a = ap.parse_args()
    X, y = simulate(a.n)
    print(f"n = {a.n}, B = {a.B}, load average {os.getloadavg()}")
    print(
        f"{'program':<36} {'elapsed s':>10} {'CPU s':>8} {'corrected C':>12} {'slope':>8}"
    )
    for n_jobs in (None, -1):
        wall, cpu, res = time_python(X, y, a.B, n_jobs)
        print(
            f"{f'skbrier internal_validation n_jobs={n_jobs}':<36} {wall:>10.2f} {cpu:>8.2f} "
            f"{res.corrected['c_statistic']:>12.4f} {res.corrected['calibration_slope']:>8.4f}"
        )
    for smooth in a.smooth:
        r = time_r(X, y, a.B, smooth, a.pminternal_src)
        if r is None:
            print(f"pminternal ({smooth}): skipped (no Rscript, pmcalibration or sources)")
            continue
        wall, cpu, c, slope = r
        print(
            f"{f'pminternal boot_optimism ({smooth})':<36} {wall:>10.2f} {cpu:>8.2f} "
            f"{c:>12.4f} {slope:>8.4f}"
        )


if __name__ == "__main__":
    main()
