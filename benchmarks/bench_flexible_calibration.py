"""Benchmark: flexible calibration curves with their band against R, in one run.

    python benchmarks/bench_flexible_calibration.py                 # n = 10**6
    python benchmarks/bench_flexible_calibration.py --n 200000 --n-loess 5000

The same data (written as raw doubles) are fitted here and by ``Rscript``
(the R time is measured inside R with ``system.time``):

* the restricted cubic spline curve with its pointwise band at 100 points
  and the ICI family, at ``--n``: ``flexible_calibration_curve(smoother="rcs")``
  against ``pmcalibration(smooth = "rcs", nk = 5, ci = "pw")``;
* the loess curve with R's standard errors at 100 points, at ``--n-loess``
  and at ``--n``: ``flexible_calibration_curve(smoother="loess")`` against
  ``loess(y ~ logit(p))`` + ``predict(se = TRUE)`` (R's default exact trace
  of the operator costs O(n^2): R is timed at ``--n-loess`` only);
* ``CalibrationCurves::val.prob.ci.2`` (its default loess curve at
  ``--n-loess``; ``smooth = "rcs"`` at ``--n``, what it falls back to for
  large data) when that package is installed, or sourced from a checkout of
  github.com/BavoDC/CalibrationCurves given as ``--calibration-curves-src
  PATH/R`` (the package needs rms >= 7; its functions run with older rms).

Target (issue 26): the curve with its band at n = 1e6 at least 5x faster
than ``val.prob.ci.2``.  R parts are skipped when ``Rscript`` or a package is
missing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from skbrier import flexible_calibration_curve

R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
n <- as.integer(args[2]); n_loess <- as.integer(args[3])
con <- file(args[1], "rb"); y <- readBin(con, "double", n); p <- readBin(con, "double", n)
close(con)
say <- function(what, secs) cat(sprintf("R %-44s %8.2f s\n", what, secs))
timed <- function(what, expr) {
  t0 <- proc.time()[["elapsed"]]
  ok <- tryCatch({ force(expr); TRUE }, error = function(e) conditionMessage(e))
  if (isTRUE(ok)) say(what, proc.time()[["elapsed"]] - t0)
  else cat(sprintf("R %-44s failed after %.1f s: %s\n", what,
                   proc.time()[["elapsed"]] - t0, ok))
}
if (requireNamespace("pmcalibration", quietly = TRUE)) {
  t <- system.time(suppressMessages(pmcalibration::pmcalibration(
    y, p, smooth = "rcs", nk = 5, transf = "logit", ci = "pw", eval = 100, plot = FALSE)))
  say(sprintf("pmcalibration rcs + pw band, n = %d", n), t[["elapsed"]])
} else cat("R pmcalibration not installed: skipped\n")
yl <- y[seq_len(n_loess)]; pl <- p[seq_len(n_loess)]
x <- qlogis(pl); g <- qlogis(seq(min(pl), max(pl), length.out = 100))
t <- system.time({
  fit <- loess(yl ~ x)
  pr <- predict(fit, newdata = data.frame(x = g), se = TRUE)
  pc <- predict(fit, newdata = data.frame(x = x))
  d <- abs(pl - pc); m <- c(mean(d), median(d), quantile(d, 0.9), max(d))
})
say(sprintf("loess + se at 100 points, n = %d", n_loess), t[["elapsed"]])
vp <- NULL
if (nzchar(args[4])) {
  suppressMessages(library(rms))
  for (f in c("val.prob.ci.2.R", "helperFunctions.R", "ci.auc.R", "auc.nonpara.mw.R",
              "rcspline.plot.noprint.R", "BT.samples.R")) source(file.path(args[4], f))
  vp <- val.prob.ci.2
} else if (requireNamespace("CalibrationCurves", quietly = TRUE)) {
  vp <- CalibrationCurves::val.prob.ci.2
}
if (!is.null(vp)) {
  pdf(NULL)
  timed(sprintf("val.prob.ci.2 (loess), n = %d", n_loess), suppressWarnings(vp(pl, yl)))
  timed(sprintf("val.prob.ci.2 (rcs), n = %d", n), suppressWarnings(vp(p, y, smooth = "rcs")))
} else cat("R CalibrationCurves not available: val.prob.ci.2 skipped\n")
"""


def best(func, repeat: int) -> float:
    t = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        t = min(t, time.perf_counter() - t0)
    return t


def data(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    z = rng.normal(-1.0, 1.2, n)
    y = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-z))).astype(np.float64)
    p = 1.0 / (1.0 + np.exp(-(-0.6 + 1.6 * z + 0.1 * z * z)))
    return y, p


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10**6)
    ap.add_argument("--n-loess", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--calibration-curves-src", default="")
    args = ap.parse_args()
    y, p = data(args.n)
    yl, pl = y[: args.n_loess], p[: args.n_loess]

    def py(what: str, func) -> float:
        t = best(func, args.repeat)
        print(f"skbrier {what:<38} {t:8.2f} s")
        return t

    print(f"best of {args.repeat}; the band at 100 points and ICI, E50, E90, Emax")
    py(
        f"rcs + band, n = {args.n}",
        lambda: flexible_calibration_curve(y, p, smoother="rcs"),
    )
    py(f"loess + band, n = {args.n_loess}", lambda: flexible_calibration_curve(yl, pl))
    py(f"loess + band, n = {args.n}", lambda: flexible_calibration_curve(y, p))
    if shutil.which("Rscript") is None:
        print("Rscript not found: R skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        raw, script = os.path.join(tmp, "yp.bin"), os.path.join(tmp, "bench.R")
        np.concatenate([y, p]).tofile(raw)
        with open(script, "w") as fh:
            fh.write(R_SCRIPT)
        out = subprocess.run(
            [
                "Rscript",
                script,
                raw,
                str(args.n),
                str(args.n_loess),
                args.calibration_curves_src,
            ],  # fmt: skip
            capture_output=True,
            text=True,
            check=False,
        )
        print(out.stdout.rstrip())
        if out.returncode:
            print(out.stderr.rstrip())


if __name__ == "__main__":
    main()
