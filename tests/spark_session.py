"""The local Spark session of the tests of :mod:`skbrier.engines.spark`.

One small session per test module (``local[2]``, two shuffle partitions, no
UI), stopped at the module's end.  Without pyspark or a Java runtime the
tests are skipped, except with ``CI=true``: CI installs both (``.ci/run``),
so there a missing Spark is a failure.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _missing(what: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {what}: .ci/run installs pyspark and a Java runtime.")
    pytest.skip(f"{what} (the Spark tests need pyspark and Java; with CI=true this fails)")


def require_spark() -> Any:
    """pyspark, or a skip (a failure with ``CI=true``)."""
    try:
        import pyspark
    except ImportError:
        _missing("pyspark is not installed")
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        _missing("no Java runtime was found")
    return pyspark


def session() -> Iterator[Any]:
    """A local two-core session whose Python workers import this checkout."""
    require_spark()
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    path = os.environ.get("PYTHONPATH", "")
    if str(ROOT) not in path.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), path]) if path else str(ROOT)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("skbrier-tests")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "1g")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        yield spark
    finally:
        spark.stop()


def frame(spark: Any, pdf: Any, sizes: tuple[int, ...]) -> Any:
    """A DataFrame of the rows of ``pdf`` in partitions of these sizes (in
    order; 0: an empty partition)."""
    assert sum(sizes) == len(pdf)
    rows = [
        tuple(v.item() if hasattr(v, "item") else v for v in r)
        for r in pdf.itertuples(index=False, name=None)
    ]
    chunks, start = [], 0
    for k in sizes:
        chunks.append(rows[start : start + k])
        start += k
    rdd = spark.sparkContext.parallelize(chunks, len(chunks)).flatMap(lambda c: c)
    from pyspark.sql import types as T

    kinds = {
        "i": T.LongType(),
        "f": T.DoubleType(),
        "b": T.BooleanType(),
        "O": T.StringType(),
    }
    schema = T.StructType(
        [T.StructField(str(c), kinds[pdf[c].dtype.kind], True) for c in pdf.columns]
    )
    return spark.createDataFrame(rdd, schema)
