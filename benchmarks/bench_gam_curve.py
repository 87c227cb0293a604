"""Benchmark: the ``smoother="gam"`` flexible calibration curve against
pmcalibration's default (``mgcv::gam(y ~ s(x), family = binomial, method =
"GCV.Cp")``), same data, R time measured inside R.

    python benchmarks/bench_gam_curve.py            # n = 1e5
    python benchmarks/bench_gam_curve.py --n 1000000

Needs R with mgcv for the comparison (else prints skbrier's time only).
Prints CPU seconds of each (the machine may be shared) and their ratio.
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

from skbrier.metrics import flexible_calibration_curve  # noqa: E402

R_CODE = """
d <- read.csv("{path}")
x <- qlogis(d$p)
t0 <- proc.time()
g <- mgcv::gam(y ~ s(x, k = -1, bs = "tp"), data = data.frame(y = d$y, x = x),
               family = binomial(link = "logit"), method = "GCV.Cp")
xp <- seq(min(x), max(x), length.out = 100)
pr <- predict(g, newdata = data.frame(x = xp), type = "response", se.fit = TRUE)
t1 <- proc.time() - t0
cat(t1[["user.self"]] + t1[["sys.self"]], sum(g$edf), "\\n")
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    z = rng.normal(-0.5, 1.3, args.n)
    y = (
        rng.random(args.n) < 1 / (1 + np.exp(-(0.2 + 0.9 * z + 0.25 * np.sin(2 * z))))
    ).astype(float)
    p = 1 / (1 + np.exp(-z))
    t = time.process_time()
    curve = flexible_calibration_curve(y, p, smoother="gam")
    ours = time.process_time() - t
    print(
        f"n = {args.n:,}: skbrier gam curve + band  {ours:8.2f} s CPU (ICI {curve.ici:.5f})"
    )
    if shutil.which("Rscript") is None:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "d.csv")
        np.savetxt(path, np.column_stack([y, p]), delimiter=",", header="y,p",
                   comments="", fmt="%.17g")  # fmt: skip
        out = subprocess.run(
            ["Rscript", "-e", R_CODE.format(path=path)], capture_output=True, text=True
        )
    if out.returncode != 0:
        print("R/mgcv not available:", out.stderr.strip()[-200:])
        return
    r_time, r_edf = map(float, out.stdout.split())
    print(f"          mgcv::gam + predict (in R)   {r_time:8.2f} s CPU (edf {r_edf:.3f})")
    print(f"          ratio R / skbrier            {r_time / ours:8.2f}")


if __name__ == "__main__":
    main()
