"""Benchmark: scoring a forecast history against one sort of its rows.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_history.py [--updates 1000000]
        [--forecasters 2000] [--questions 5000] [--rounds 3] [--all]
        [--resamples 20]

A history of ``--updates`` updates by ``--forecasters`` forecasters on
``--questions`` questions: each question is open 30 to 180 days; each
(forecaster, question) pair makes 1 to 7 updates (4 on average) at random
times while the question is open (integer forecaster and question ids,
numeric times in days).  Timed, in ``--rounds`` interleaved rounds (the
machine is shared and its load drifts):

* ``sort``: ``np.lexsort((timestamp, question, forecaster))`` of the raw rows,
  the reference;
* ``daily_brier``: :func:`skbrier.daily_brier` (Good Judgment Open's rules:
  carry-forward days and the crowd's daily medians) on the built history;
* with ``--all`` also :func:`skbrier.peer_score`,
  :func:`skbrier.baseline_score` and :func:`skbrier.brier_at`.

Then the ranked leaderboard of the daily scores is timed once:
:func:`skbrier.history_leaderboard` (two-way fixed effects, ``--resamples``
question-bootstrap replicates, paired intervals and tie groups), printed
with its seconds per replicate.

Building the history (:func:`skbrier.forecast_history`: validation and one
stable sort) is timed once.  Prints the median seconds and the ratio of each
to the sort; the target is ``daily_brier <= 3 x sort`` at 1e7 updates.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from skbrier import (  # noqa: E402
    baseline_score,
    brier_at,
    daily_brier,
    forecast_history,
    history_leaderboard,
    peer_score,
)


def make(n_updates: int, n_f: int, n_q: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    n_pairs = n_updates // 4
    key = rng.choice(n_f * n_q, size=n_pairs, replace=False)
    f, q = key // n_q, key % n_q
    ups = rng.integers(1, 8, n_pairs)
    f, q = np.repeat(f, ups), np.repeat(q, ups)
    length = rng.uniform(30, 180, n_q)
    t = rng.uniform(0, 1, f.size) * length[q]
    p = np.clip(np.round(rng.beta(2, 2, f.size), 2), 0.01, 0.99)
    questions = {
        "question": np.arange(n_q),
        "open_time": np.zeros(n_q),
        "close_time": length,
        "resolve_time": length,
        "outcome": (rng.random(n_q) < 0.4).astype(np.int64),
    }
    forecasts = {"forecaster": f, "question": q, "timestamp": t, "probability": p}
    return forecasts, questions


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--updates", type=int, default=1_000_000)
    ap.add_argument("--forecasters", type=int, default=2000)
    ap.add_argument("--questions", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--resamples", type=int, default=20)
    args = ap.parse_args()
    fc, qs = make(args.updates, args.forecasters, args.questions)
    # times within a pair must be increasing in the table: sort once, untimed
    order = np.lexsort((fc["timestamp"], fc["question"], fc["forecaster"]))
    fc = {k: v[order] for k, v in fc.items()}
    t0 = time.perf_counter()
    h = forecast_history(fc, qs)
    build = time.perf_counter() - t0
    print(
        f"{h.time.shape[0]:,} updates, {h.forecasters.shape[0]:,} forecasters, "
        f"{h.questions.shape[0]:,} questions; forecast_history: {build:.2f} s"
    )
    tasks = {
        "sort": lambda: np.lexsort((fc["timestamp"], fc["question"], fc["forecaster"])),
        "daily_brier": lambda: daily_brier(h),
    }
    if args.all:
        tasks |= {
            "peer_score": lambda: peer_score(h),
            "baseline_score": lambda: baseline_score(h),
            "brier_at": lambda: brier_at(h, 7.0),
        }
    times: dict[str, list[float]] = {k: [] for k in tasks}
    for _ in range(args.rounds):
        for name, fn in tasks.items():
            times[name].append(timed(fn))
    ref = float(np.median(times["sort"]))
    print(f"build / sort: {build / ref:.2f}")
    for name, ts in times.items():
        med = float(np.median(ts))
        rounds = ", ".join(f"{t / s:.2f}" for t, s in zip(ts, times["sort"]))
        print(
            f"{name:>15}: {med:7.2f} s  ratio to sort {med / ref:5.2f}  (rounds: {rounds})"
        )
    scores = daily_brier(h)
    t0 = time.perf_counter()
    board = history_leaderboard(scores, n_resamples=args.resamples, random_state=0)
    sec = time.perf_counter() - t0
    print(
        f"history_leaderboard: {sec:.2f} s for {board.n_resamples} replicates "
        f"({sec / max(board.n_resamples, 1):.3f} s per replicate), "
        f"{board.forecasters.shape[0]:,} forecasters, top set of {len(board.top_set)}"
    )


if __name__ == "__main__":
    main()
