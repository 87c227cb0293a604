"""Benchmark: skbrier.survival against scikit-survival and R riskRegression.

1. n = 10**6 subjects, 10 horizons: ``brier_score_survival`` in scikit-survival's
   convention against ``sksurv.metrics.brier_score``, with the censoring model
   fitted on the test data itself and on a separate training sample of the same
   size; rounds of the two are interleaved (the machine may be shared).
2. n = 10**5 subjects, 10 horizons: ``index_of_prediction_accuracy`` (Brier, IPA
   and influence-function standard errors) against riskRegression's
   ``Score(list(model = 1 - S), Hist(time, status) ~ 1, ..., metrics = "brier",
   summary = "ipa", se.fit = TRUE)``, timed inside R (``system.time``), data passed
   through a temporary CSV file.

Prints the best of ``--repeat`` wall-clock times (R: best of ``--r-repeat``
inside one R session, skbrier timed before and after it), the ratios and the
largest differences.  A peer that is absent is skipped.  Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_survival.py [--n 1000000] [--n-r 100000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time

import numpy as np

from skbrier.survival import brier_score_survival, index_of_prediction_accuracy


def best_time(fn, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def simulate(n, k, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    ev = rng.exponential(1.0 / (0.5 * np.exp(0.8 * x)))
    ce = rng.exponential(3.0, n)
    time_ = np.round(np.minimum(ev, ce), 3) + 0.001  # ties, as in real data
    event = (ev <= ce).astype(np.int64)
    times = np.quantile(time_, np.linspace(0.05, 0.8, k))
    surv = np.exp(-0.45 * np.exp(0.7 * x)[:, None] * times[None, :])
    return event, time_, times, surv


R_SCRIPT = r"""
suppressPackageStartupMessages({library(riskRegression); library(prodlim); library(survival)})
d <- read.csv("%(data)s"); S <- as.matrix(read.csv("%(surv)s")); times <- scan("%(times)s", quiet = TRUE)
d <- d[order(d$time), ]; S <- S[as.integer(rownames(d)), , drop = FALSE]
best <- Inf
for (i in 1:%(repeat)d) {
  tm <- system.time(sc <- Score(list(model = 1 - S), Hist(time, status) ~ 1, data = d,
        times = times, metrics = "brier", summary = "ipa", se.fit = TRUE,
        cens.model = "km", contrasts = FALSE))[["elapsed"]]
  best <- min(best, tm)
}
b <- as.data.frame(sc$Brier$score)
cat(best, "\n"); cat(sprintf("%%.17g", b$Brier[b$model == "model"]), "\n"); cat(sprintf("%%.17g", b$se[b$model == "model"]), "\n")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--n-r", type=int, default=10**5)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--r-repeat", type=int, default=2)
    args = parser.parse_args()

    print(f"== scikit-survival convention, n={args.n}, {args.k} horizons")
    event, t, times, surv = simulate(args.n, args.k)
    # a separate training sample (sksurv's usual brier_score(y_train, y_test, ...))
    train_event, train_t, _, _ = simulate(args.n, args.k, seed=7)
    try:
        from sksurv.metrics import brier_score
        from sksurv.util import Surv
    except ImportError:
        brier_score = None
        print("scikit-survival not installed: skipped")
    for label, (tr_e, tr_t) in [
        ("training data = test data", (event, t)),
        ("separate training data", (train_event, train_t)),
    ]:
        kw = dict(convention="sksurv", train_event=tr_e, train_time=tr_t)

        def ours_fn(kw=kw):
            return brier_score_survival(event, t, surv, times, **kw)

        if brier_score is None:
            ours, _ = best_time(ours_fn, args.repeat)
            print(f"{label}: skbrier {ours:.3f} s")
            continue
        y = Surv.from_arrays(event.astype(bool), t)
        y_train = Surv.from_arrays(tr_e.astype(bool), tr_t)

        def peer_fn(y_train=y_train, y=y):
            return brier_score(y_train, y, surv, times)[1]

        # interleaved rounds (the machine is shared): best of each
        ours, peer = np.inf, np.inf
        for _ in range(args.repeat):
            o, bs = best_time(ours_fn, 1)
            p, ref = best_time(peer_fn, 1)
            ours, peer = min(ours, o), min(peer, p)
        print(
            f"{label}: skbrier {ours:.3f} s, sksurv {peer:.3f} s, "
            f"ratio (sksurv / skbrier) {peer / ours:.1f}x; max |diff| {np.abs(bs - ref).max():.2e}"
        )

    print(f"== riskRegression convention with SEs, n={args.n_r}, {args.k} horizons")
    event, t, times, surv = simulate(args.n_r, args.k, seed=1)

    def ipa_fn():
        return index_of_prediction_accuracy(event, t, surv, times)

    ours, res = best_time(ipa_fn, args.repeat)
    print(f"skbrier  index_of_prediction_accuracy: {ours:.3f} s")
    if shutil.which("Rscript") is None:
        print("Rscript not found: skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        paths = {k: os.path.join(tmp, f"{k}.csv") for k in ("data", "surv", "times")}
        np.savetxt(
            paths["data"],
            np.c_[t, event],
            delimiter=",",
            header="time,status",
            comments="",
            fmt="%.17g",
        )
        np.savetxt(
            paths["surv"],
            surv,
            delimiter=",",
            fmt="%.17g",
            header=",".join(f"t{j}" for j in range(args.k)),
            comments="",
        )
        np.savetxt(paths["times"], times, fmt="%.17g")
        script = os.path.join(tmp, "bench.R")
        with open(script, "w") as fh:
            fh.write(R_SCRIPT % dict(paths, repeat=args.r_repeat))
        proc = subprocess.run(["Rscript", script], capture_output=True, text=True)
    if proc.returncode != 0:
        print("riskRegression failed or is not installed: skipped\n", proc.stderr[-500:])
        return
    after, _ = best_time(ipa_fn, args.repeat)  # again after R: interleaved with the peer
    ours = min(ours, after)
    lines = proc.stdout.split("\n")
    peer = float(lines[0])
    rb = np.array(lines[1].split(), float)
    rse = np.array(lines[2].split(), float)
    print(f"skbrier  (best, before and after R):    {ours:.3f} s")
    print(f"R        Score(se.fit = TRUE):          {peer:.3f} s")
    print(
        f"ratio (riskRegression / skbrier): {peer / ours:.1f}x; max |diff| Brier "
        f"{np.abs(res.brier - rb).max():.2e}, se {np.abs(res.se_brier - rse).max():.2e}"
    )


if __name__ == "__main__":
    main()
