"""Benchmark: skbrier.engines.spark against hand-written Spark (issue 31).

    python benchmarks/bench_engines_spark.py               # 5e6 rows, local[2]
    python benchmarks/bench_engines_spark.py --rows 5e7    # the issue's size
    python benchmarks/bench_engines_spark.py --quick       # 5e5 rows
    python benchmarks/bench_engines_spark.py --rows 5e7 --report-only --driver-memory ""
        # only the report of continuous forecasts, Spark's default driver heap

Writes a Parquet dataset (y, p, w) to a temporary directory and, on a local
two-core Spark session, times (best of a few rounds, interleaved) on the
same DataFrame -- read from Parquet, and cached in memory:

* the hand-written ``df.select(F.avg(F.pow(F.col("p") - F.col("y"), 2)))``,
* ``skbrier.engines.spark.brier_score`` (Spark's own sums, with the checks
  of every row in the same aggregation),

and prints the ratios (target: within 1.5x); then ``calibration_report``
on continuous forecasts and on forecasts with 4 decimals (its exact
sections in one pass: the number of Spark jobs it ran, counted with the
status tracker; one job while the table of distinct forecasts holds them
all, up to 2**20 per class, plus one per step of the logistic fit beyond)
and the numbers against the numpy path on the same rows.  Prints the peak
resident memory of the driver: its JVM (in ``local`` mode the executors
run in it too) and its Python process.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import tempfile
import time
import warnings

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

_GROUPS = itertools.count()


def jobs(spark, func):
    """``(seconds, result, Spark jobs)`` of one call."""
    sc = spark.sparkContext
    group = f"bench-{next(_GROUPS)}"
    sc.setJobGroup(group, group)
    try:
        t0 = time.perf_counter()
        out = func()
        t = time.perf_counter() - t0
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)
    return t, out, len(sc.statusTracker().getJobIdsForGroup(group))


def peak_rss_mib() -> dict[str, float]:
    """Peak resident memory (MiB, Linux ``VmHWM``) of this process and of its
    child JVM (the Spark driver)."""
    out = {}
    me = os.getpid()
    for pid in [me, *_children(me)]:
        try:
            with open(f"/proc/{pid}/status") as fh:
                status = dict(line.split(":", 1) for line in fh if ":" in line)
            with open(f"/proc/{pid}/comm") as fh:
                name = "python" if pid == me else fh.read().strip()
        except OSError:
            continue
        kib = float(status.get("VmHWM", "0 kB").split()[0])
        out[name] = max(out.get(name, 0.0), kib / 1024.0)
    return out


def _children(pid: int) -> list[int]:
    kids = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                kids += [int(k) for k in fh.read().split()]
        except OSError:
            pass
    return kids


def interleaved(funcs, repeat):
    """Best time of each function, the rounds interleaved (same conditions)."""
    best = {name: (np.inf, None) for name in funcs}
    for _ in range(repeat):
        for name, f in funcs.items():
            t0 = time.perf_counter()
            v = f()
            t = time.perf_counter() - t0
            if t < best[name][0]:
                best[name] = (t, v)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=5e6)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument(
        "--report-only",
        action="store_true",
        help="only calibration_report of continuous forecasts (on the Parquet data)",
    )
    ap.add_argument(
        "--driver-memory",
        default="4g",
        help='spark.driver.memory ("": Spark\'s default, 1g)',
    )
    args = ap.parse_args()
    n = int(5e5 if args.quick else args.rows)

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join([ROOT, path]) if path else ROOT
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    from skbrier.engines import spark as sbs

    builder = (
        SparkSession.builder.master("local[2]")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    if args.driver_memory:
        builder = builder.config("spark.driver.memory", args.driver_memory)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "forecasts.parquet")
        gen = spark.range(n, numPartitions=8).select(F.rand(1).alias("p"))
        gen = gen.withColumn("y", (F.rand(2) < F.col("p")).cast("double"))
        gen = gen.withColumn("w", F.floor(F.rand(3) * 4).cast("double"))
        gen.write.parquet(data)
        parquet = spark.read.parquet(data)
        print(f"rows: {n:.3g}, partitions: {parquet.rdd.getNumPartitions()}, local[2]")
        if args.report_only:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t, rep, k = jobs(
                    spark, lambda: sbs.calibration_report(parquet, "y", "p", "w")
                )
            print(
                f"[Parquet, p continuous] calibration_report {t:.2f} s, {k} Spark "
                f"job(s), C {rep.c_statistic:.6f}, slope {rep.calibration_slope:.6f}; "
                f"peak RSS (MiB): {peak_rss_mib()}"
            )
            spark.stop()
            return
        cached = spark.read.parquet(data).cache()
        cached.count()
        for label, df in (("Parquet", parquet), ("cached", cached)):
            funcs = {
                "hand-written avg(pow(p - y, 2))": lambda df=df: df.select(
                    F.avg(F.pow(F.col("p") - F.col("y"), 2))
                ).collect()[0][0],
                "engines.spark.brier_score": lambda df=df: sbs.brier_score(df, "y", "p"),
            }
            best = interleaved(funcs, args.repeat)
            (t_hand, v_hand), (t_sk, v_sk) = best.values()
            print(
                f"[{label}] hand-written {t_hand:.3f} s, brier_score {t_sk:.3f} s: "
                f"ratio {t_sk / t_hand:.2f} (target <= 1.5); "
                f"|difference| {abs(v_hand - v_sk):.2g}"
            )
        rounded = cached.withColumn("p", F.round("p", 4))
        for label, df in (("continuous", cached), ("4 decimals", rounded)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t, rep, k = jobs(
                    spark,
                    lambda df=df: sbs.calibration_report(
                        df, "y", "p", "w", thresholds=[0.1, 0.3]
                    ),
                )
            why = (
                " (1 pass for every state; > 2**20 distinct forecasts per class, so "
                "the logistic fit reads the cached columns once per solver step)"
                if any("rounded to multiples" in note for note in rep.notes)
                else ""
            )
            print(
                f"[cached, p {label}] calibration_report {t:.2f} s, {k} Spark job(s){why}"
            )
        print(f"peak RSS (MiB): {peak_rss_mib()}")
        sub = cached.limit(200_000).toPandas()
        small = spark.createDataFrame(sub).repartition(4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from skbrier.report import calibration_report

            got = sbs.calibration_report(small, "y", "p", "w", random_state=0)
            exp = calibration_report(sub.y, sub.p, sample_weight=sub.w, random_state=0)
        worst = max(
            abs(getattr(got, f) - getattr(exp, f)) / max(abs(getattr(exp, f)), 1e-300)
            for f in (
                "brier_score",
                "c_statistic",
                "ece",
                "spiegelhalter_z",
                "calibration_slope",
            )
        )
        print(f"report of 2e5 rows vs numpy: largest relative difference {worst:.2g}")
    spark.stop()


if __name__ == "__main__":
    main()
