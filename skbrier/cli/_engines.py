"""``skbrier report --engine polars|duckdb|spark``: read the file the way that
engine reads it and call the engine's ``calibration_report``.

* polars: ``polars.scan_parquet`` / ``polars.scan_csv`` (lazy; only the
  needed columns are selected, so a Parquet file's other columns are not
  read), then :func:`skbrier.engines.polars.calibration_report`;
* duckdb: ``read_parquet`` / ``read_csv_auto`` in an in-memory DuckDB
  connection, one ``SELECT`` of the needed columns, then
  :func:`skbrier.engines.duckdb.calibration_report`;
* spark: ``spark.read.parquet`` / ``spark.read.csv`` (header, types
  inferred) in a local session, then
  :func:`skbrier.engines.spark.calibration_report` (one Spark job; the
  sections that need the rows in memory come from a uniform subsample, as
  the report's notes say).

Missing values (null, and NaN in a number column; in CSV the spellings of
:data:`._table.NA_VALUES` for Polars and DuckDB, the empty field for Spark)
are dropped as ``--na`` says (``drop``: a row missing any model's forecast
for every model; ``per-model``: per model; ``error``: stop, naming the
column).  ``--group-col``, ``--sep``, ``--comment``, ``--decimal ,`` and
``--encoding`` are not available; ``--subgroup-col`` adds a note (the
engines' reports have no subgroup section).
"""

from __future__ import annotations

import os
from typing import Any

from ._common import CLIError
from ._table import NA_VALUES

__all__ = ["ENGINES", "engine_reports"]

#: the engines of this module (``--engine``), with what each reads through
ENGINES = {
    "polars": "polars.scan_parquet / polars.scan_csv",
    "duckdb": "DuckDB read_parquet / read_csv_auto",
    "spark": "spark.read.parquet / spark.read.csv (local session)",
}


def _is_parquet(path: str) -> bool:
    return os.path.isdir(path) or path.lower().endswith((".parquet", ".parq", ".pq"))


def _check_args(args: Any, engine: str) -> None:
    for key, opt in (
        ("group_col", "--group-col"),
        ("sep", "--sep"),
        ("comment", "--comment"),
    ):
        if getattr(args, key, None) is not None:
            raise CLIError(f"{opt} is not available with --engine {engine}.")
    if args.decimal != "." or args.encoding != "auto":
        raise CLIError(
            f"--decimal and --encoding are not available with --engine {engine}."
        )
    if args.file == "-":
        raise CLIError(
            f"--engine {engine} reads a file: standard input ('-') is not available."
        )
    if not os.path.exists(args.file):
        raise CLIError(f"{args.file}: no such file or directory.")


def _check_columns(args: Any, names: list[str]) -> None:
    for c in _needed(args):
        if c not in names:
            raise CLIError(f"{args.file}: no column named {c!r}.")


def _needed(args: Any) -> list[str]:
    cols = [args.y_col, *args.p_col] + ([args.weight_col] if args.weight_col else [])
    return list(dict.fromkeys(cols))


def _models(args: Any) -> list[tuple[str, list[str]]]:
    """``[(model, columns whose missing values drop its rows)]`` (``--na``)."""
    every = _needed(args)
    base = [args.y_col] + ([args.weight_col] if args.weight_col else [])
    return [
        (c, every if args.na != "per-model" else list(dict.fromkeys([*base, c])))
        for c in args.p_col
    ]


def _pos_label(args: Any, numeric: bool) -> Any:
    """``--pos-label`` as a number for a numeric outcome column (as in memory)."""
    pos = args.pos_label
    if pos is None or not numeric:
        return pos
    try:
        return float(pos)
    except ValueError:
        raise CLIError(f"--pos-label {pos!r} is not a label of '{args.y_col}'.") from None


# --------------------------------------------------------------------------- polars
def _polars(args: Any, options: dict) -> dict:
    import polars as pl

    from ..engines import polars as sbp

    path = args.file
    lf = (
        pl.scan_parquet(path)
        if _is_parquet(path)
        else pl.scan_csv(path, null_values=list(NA_VALUES), infer_schema_length=100_000)
    )
    try:
        schema = lf.collect_schema()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise CLIError(f"{path}: cannot read: {exc}") from None
    _check_columns(args, schema.names())
    lf = lf.select(_needed(args))

    def missing(c: str) -> Any:
        e = pl.col(c).is_null()
        return e | pl.col(c).is_nan() if schema[c].is_float() else e

    def count_missing(c: str) -> int:
        return int(lf.select(missing(c).sum()).collect().item())

    _refuse_missing(args, count_missing)
    kw = dict(options, pos_label=_pos_label(args, schema[args.y_col].is_numeric()))
    reports = {}
    for name, need in _models(args):
        sub = lf.filter(~pl.any_horizontal(*(missing(c) for c in need)))
        p = pl.col(name).cast(pl.Float64)
        reports[name] = sbp.calibration_report(
            sub,
            y=args.y_col,
            p=p / 100.0 if args.percent else p,
            weight=args.weight_col,
            name=name,
            **kw,
        )
    return reports


# --------------------------------------------------------------------------- duckdb
def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _is_text(args: Any) -> bool:
    """Whether --pos-label is a text label (not a number)."""
    try:
        float(args.pos_label)
    except (TypeError, ValueError):
        return args.pos_label is not None
    return False


def _duckdb(args: Any, options: dict) -> dict:
    import duckdb

    from ..engines import duckdb as sbd

    nulls = ", ".join(_literal(v) for v in NA_VALUES)
    # a text label (--pos-label yes) stays text: DuckDB would read yes/no as booleans
    text_y = f", types = {{{_literal(args.y_col)}: 'VARCHAR'}}" if _is_text(args) else ""
    source = (
        f"read_parquet({_literal(args.file)})"
        if _is_parquet(args.file)
        else f"read_csv_auto({_literal(args.file)}, nullstr = [{nulls}]{text_y})"
    )
    con = duckdb.connect()
    try:
        try:
            rel = con.sql(f"SELECT * FROM {source}")
            types = dict(zip(rel.columns, (str(t) for t in rel.types)))
        except duckdb.Error as exc:
            raise CLIError(f"{args.file}: cannot read: {exc}") from None
        _check_columns(args, list(types))

        def missing(c: str) -> str:
            q = _quote(c)
            floats = types[c] in ("DOUBLE", "FLOAT", "REAL")
            return f"({q} IS NULL OR isnan({q}))" if floats else f"{q} IS NULL"

        def count_missing(c: str) -> int:
            row = con.execute(
                f"SELECT count(*) FROM {source} WHERE {missing(c)}"
            ).fetchone()
            return int(row[0]) if row else 0

        _refuse_missing(args, count_missing)
        numeric = types[args.y_col] not in ("VARCHAR", "BOOLEAN")
        kw = dict(options, pos_label=_pos_label(args, numeric))
        reports = {}
        for name, need in _models(args):
            p = f"CAST({_quote(name)} AS DOUBLE)" + (" / 100.0" if args.percent else "")
            w = (
                ""
                if args.weight_col is None
                else f", CAST({_quote(args.weight_col)} AS DOUBLE) AS w"
            )
            where = " OR ".join(missing(c) for c in need)
            sub = con.sql(
                f"SELECT {_quote(args.y_col)} AS y, {p} AS p{w} FROM {source} "
                f"WHERE NOT ({where})"
            )
            reports[name] = sbd.calibration_report(
                sub, "y", "p", None if args.weight_col is None else "w", name=name, **kw
            )
        return reports
    finally:
        con.close()


# --------------------------------------------------------------------------- spark
def _spark_session() -> Any:
    """The active session, or a local two-core one whose Python workers run
    this interpreter."""
    import sys

    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return (
        SparkSession.builder.master("local[2]")
        .appName("skbrier report")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )


def _spark(args: Any, options: dict) -> dict:
    from pyspark.sql import functions as F
    from pyspark.sql.types import NumericType

    from ..engines import spark as sbs

    spark = _spark_session()
    path = args.file
    try:
        df = (
            spark.read.parquet(path)
            if _is_parquet(path)
            else spark.read.csv(path, header=True, inferSchema=True)
        )
    except Exception as exc:  # Spark's AnalysisException and the JVM's errors
        raise CLIError(f"{path}: cannot read: {exc}") from None
    _check_columns(args, df.columns)
    df = df.select(*[F.col(f"`{c}`") for c in _needed(args)])
    fields = {f.name: f.dataType for f in df.schema.fields}

    def missing(c: str) -> Any:
        col = F.col(f"`{c}`")
        floats = fields[c].typeName() in ("double", "float")
        return col.isNull() | F.isnan(col) if floats else col.isNull()

    def count_missing(c: str) -> int:
        return int(df.filter(missing(c)).count())

    _refuse_missing(args, count_missing)
    kw = dict(
        options, pos_label=_pos_label(args, isinstance(fields[args.y_col], NumericType))
    )
    reports = {}
    for name, need in _models(args):
        cond = missing(need[0])
        for c in need[1:]:
            cond = cond | missing(c)
        p = F.col(f"`{name}`").cast("double")
        sub = df.filter(~cond).select(
            F.col(f"`{args.y_col}`").alias("y"),
            (p / 100.0 if args.percent else p).alias("p"),
            *(
                []
                if args.weight_col is None
                else [F.col(f"`{args.weight_col}`").cast("double").alias("w")]
            ),
        )
        reports[name] = sbs.calibration_report(
            sub, "y", "p", None if args.weight_col is None else "w", name=name, **kw
        )
    return reports


def _refuse_missing(args: Any, count_missing: Any) -> None:
    """``--na error``: stop at the first needed column with a missing value."""
    if args.na != "error":
        return
    for c in _needed(args):
        n = count_missing(c)
        if n:
            raise CLIError(
                f"{args.file}: column '{c}' has {n} missing values (--na error; the "
                "default --na drop leaves such rows out)."
            )


_READERS = {"polars": _polars, "duckdb": _duckdb, "spark": _spark}


def engine_reports(args: Any, engine: str, options: dict) -> dict:
    """``{model: CalibrationReport}`` of ``--engine engine`` (``options``: the
    keywords of the report besides the columns, ``pos_label`` and ``name``)."""
    _check_args(args, engine)
    package = "pyspark" if engine == "spark" else engine
    try:
        __import__(package)
    except ImportError:
        raise CLIError(
            f"--engine {engine} needs {package} (pip install {package})."
        ) from None
    return _READERS[engine](args, options)
