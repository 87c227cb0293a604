"""Benchmark: skbrier.engines.polars and skbrier.engines.duckdb (issue 31).

    python benchmarks/bench_engines_polars_duckdb.py               # n = 5e6 rows
    python benchmarks/bench_engines_polars_duckdb.py --n 50000000  # the issue's 5e7
    python benchmarks/bench_engines_polars_duckdb.py --quick       # n = 1e6

Times, median of a few interleaved rounds, on the same rows (0/1 outcomes,
uniform probabilities, 1,000 groups):

* Polars: ``sbp.brier_score(df)`` against the hand-written
  ``df.select(((pl.col("p") - pl.col("y")) ** 2).mean())`` (target 1.5x);
  the per-group Brier score over 1,000 groups, as the function
  (``group_by="g"``) and as the expression in ``group_by("g").agg(...)``,
  against the hand-written ``group_by("g").agg(...)`` (target 2x);
* DuckDB: ``sbd.brier_score(con, table="t")`` against the hand-written
  ``SELECT avg(pow(p - y, 2)) FROM t`` (target 1.5x), and per group;
* a few other statistics (ECE, Murphy, decision curve, iid inference) for
  reference, and the numpy path on the same arrays.

Prints the ratios to the hand-written queries and checks that every engine
number equals the numpy one (1e-12).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

TARGETS = {
    "polars brier_score": 1.5,
    "polars per-group (function)": 2.0,
    "polars per-group (expression)": 2.0,
    "duckdb brier_score": 1.5,
}


def interleaved(funcs: dict, rounds: int) -> dict:
    """Median seconds of each function, the rounds interleaved (a busy
    machine slows every function alike)."""
    times: dict = {k: [] for k in funcs}
    for _ in range(rounds):
        for k, f in funcs.items():
            t0 = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t0)
    return {k: float(np.median(v)) for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=5e6)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n = int(1e6 if args.quick else args.n)

    import duckdb
    import polars as pl

    import skbrier
    from skbrier.engines import duckdb as sbd
    from skbrier.engines import polars as sbp

    rng = np.random.default_rng(0)
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p).astype(np.int64)
    g = rng.integers(0, args.groups, n)
    df = pl.DataFrame({"g": g, "y": y, "p": p})
    con = duckdb.connect()
    con.register("frame", df.to_arrow())
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    con.unregister("frame")
    print(
        f"n = {n:.3g} rows, {args.groups} groups, polars {pl.__version__}, duckdb {duckdb.__version__}"
    )

    P, Y = pl.col("p"), pl.col("y")
    expr = sbp.brier_score_expr()
    funcs = {
        "polars hand-written": lambda: df.select(((P - Y) ** 2).mean()).item(),
        "polars brier_score": lambda: sbp.brier_score(df),
        "polars hand-written per group": lambda: df.group_by("g").agg(
            ((P - Y) ** 2).mean()
        ),
        "polars per-group (function)": lambda: sbp.brier_score(df, group_by="g"),
        "polars per-group (expression)": lambda: df.group_by("g").agg(expr),
        "duckdb hand-written": lambda: con.execute(
            "SELECT avg(pow(p - y, 2)) FROM t"
        ).fetchall(),
        "duckdb brier_score": lambda: sbd.brier_score(con, table="t"),
        "duckdb hand-written per group": lambda: con.execute(
            "SELECT g, avg(pow(p - y, 2)) FROM t GROUP BY g"
        ).fetchall(),
        "duckdb per group": lambda: sbd.brier_score(con, table="t", group_by="g"),
        "numpy brier_score": lambda: skbrier.brier_score(y, p),
    }
    times = interleaved(funcs, args.rounds)
    base = {
        "polars brier_score": "polars hand-written",
        "polars per-group (function)": "polars hand-written per group",
        "polars per-group (expression)": "polars hand-written per group",
        "duckdb brier_score": "duckdb hand-written",
        "duckdb per group": "duckdb hand-written per group",
        "numpy brier_score": "polars hand-written",
    }
    print(f"{'':34s} {'seconds':>9s} {'ratio':>7s} {'target':>7s}")
    for k, t in times.items():
        ref = base.get(k)
        ratio = f"{t / times[ref]:7.2f}" if ref else ""
        target = f"{TARGETS[k]:7.1f}" if k in TARGETS else ""
        verdict = ""
        if k in TARGETS:
            verdict = "  ok" if t / times[ref] <= TARGETS[k] else "  MISSED"
        print(f"{k:34s} {t:9.4f} {ratio:>7s} {target:>7s}{verdict}")

    # other statistics, once each (seconds), and the check against numpy
    others = {
        "calibration_error (15 bins)": (
            lambda: sbp.calibration_error(df),
            lambda: sbd.calibration_error(con, table="t"),
            lambda: skbrier.calibration_error(y, p, kind="binary"),
        ),
        "murphy_decomposition": (
            lambda: sbp.murphy_decomposition(df).brier_score,
            lambda: sbd.murphy_decomposition(con, table="t").brier_score,
            lambda: skbrier.murphy_decomposition(y, p).brier_score,
        ),
        "decision_curve (99 thresholds)": (
            lambda: sbp.decision_curve(df).net_benefit,
            lambda: sbd.decision_curve(con, table="t").net_benefit,
            lambda: skbrier.decision_curve(y, p).net_benefit,
        ),
        "brier_inference (iid)": (
            lambda: sbp.brier_inference(df).standard_error(),
            lambda: sbd.brier_inference(con, table="t").standard_error(),
            lambda: skbrier.brier_inference(y, p).standard_error(),
        ),
        "brier_score": (
            lambda: sbp.brier_score(df),
            lambda: sbd.brier_score(con, table="t"),
            lambda: skbrier.brier_score(y, p),
        ),
    }
    print(f"\n{'':34s} {'polars':>9s} {'duckdb':>9s} {'numpy':>9s}  equal to numpy")
    for k, (fp, fd, fn) in others.items():
        row, values = [], []
        for f in (fp, fd, fn):
            t0 = time.perf_counter()
            values.append(np.asarray(f(), dtype=float))
            row.append(time.perf_counter() - t0)
        same = all(np.allclose(v, values[2], rtol=1e-12, atol=1e-13) for v in values[:2])
        print(f"{k:34s} {row[0]:9.3f} {row[1]:9.3f} {row[2]:9.3f}  {same}")


if __name__ == "__main__":
    main()
