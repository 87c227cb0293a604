"""Benchmark: the whole ``skbrier llm`` run on a 100,000-sample lm-eval log.

    python benchmarks/bench_cli_llm.py               # n = 100,000, default options
    python benchmarks/bench_cli_llm.py --n 20000 --html

Target (issue 28): under 10 s for n = 100,000 (reading, every measure with its
bootstrap interval at the command's default ``--n-resamples``, the text
table and JSON; ``--html`` adds the page with its figures).  The log is
written to a temporary directory first (not timed); the reading and the
analysis are timed apart and together.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from skbrier.cli import main as cli_main  # noqa: E402
from skbrier.io import read_lm_eval_samples  # noqa: E402


def write_log(path: str, n: int, seed: int = 0) -> None:
    """An lm-eval ``samples_*.jsonl`` of ``n`` questions with 4 choices."""
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(n, 4)) * 2.0
    gold = rng.integers(0, 4, size=n)
    logits[np.arange(n), gold] += 1.5
    # the choices' log-likelihoods (an informative, overconfident model)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            resps = [[f"{v:.6f}", "False"] for v in logp[i]]
            rec = {
                "doc_id": i,
                "target": str(int(gold[i])),
                "filtered_resps": resps,
                "acc": 0.0,
            }
            fh.write(json.dumps(rec) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--html", action="store_true", help="also write the HTML page")
    ap.add_argument("--n-resamples", type=int, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "samples_bench_2024-01-01T00-00-00.jsonl")
        write_log(log, args.n)
        t0 = time.perf_counter()
        read_lm_eval_samples(log)
        t_read = time.perf_counter() - t0
        argv = ["llm", log, "--json", os.path.join(tmp, "out.json")]
        if args.html:
            argv += ["--html", os.path.join(tmp, "out.html")]
        if args.n_resamples is not None:
            argv += ["--n-resamples", str(args.n_resamples)]
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = cli_main(argv)
        total = time.perf_counter() - t0
    print(
        f"n = {args.n:,}: reading {t_read:.2f} s; whole `skbrier llm` run {total:.2f} s "
        f"(exit {code}; target < 10 s)"
    )


if __name__ == "__main__":
    main()
