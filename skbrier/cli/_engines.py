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
column).

``--subgroup-col`` (Polars and DuckDB): the subgroup section, as with
``--engine memory``.  The labels are made in the engine's query by
:func:`._subgroups.labels` (a Polars ``map_batches``, a DuckDB Python
function), from the columns as ``--engine memory`` reads them (a CSV
column as its text, a Parquet column as its numbers or text), and go to
the engine's ``calibration_report(groups=, segments=)`` with the other
columns.  Spark's report has no subgroup section (a note says why: its
sections come from merged states, and the section needs each group's rows
in the driver's memory, which a Spark input is meant not to need).

Text outcomes follow ``--engine memory``'s rule (:func:`text_pos_label`:
TRUE/FALSE in any case are truth values, other text needs ``--pos-label``;
DuckDB reads a CSV's yes/no as text, not as booleans).  When a Polars or
DuckDB report fails, the file's columns are read and checked as
``--engine memory`` does first, so that a bad value is reported with its
column, option and file row (:func:`_diagnose`).

``--group-col`` (Spark): one audit per group, all in the one Spark job of
``calibration_report(group_by=)``; rows with no group are left out with a
warning, as in memory.  ``--group-col`` with Polars or DuckDB, ``--sep``,
``--comment``, ``--decimal ,`` and ``--encoding`` are not available.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np

from ._common import CLIError, groups_left_out, import_for_cli, warn_rows_without_group
from ._subgroups import MISSING, labels, missing_note
from ._table import NA_VALUES, check_columns

__all__ = ["ENGINES", "engine_reports"]

#: the engines of this module (``--engine``), with what each reads through
ENGINES = {
    "polars": "polars.scan_parquet / polars.scan_csv",
    "duckdb": "DuckDB read_parquet / read_csv_auto",
    "spark": "spark.read.parquet / spark.read.csv (local session)",
}


def _is_parquet(path: str) -> bool:
    return os.path.isdir(path) or path.lower().endswith((".parquet", ".parq", ".pq"))


#: the names of the outcome, forecast and weight in the engines' frames (a
#: subgroup column keeps its own name: it may be one of these columns too)
_Y, _P, _W = "__skbrier_cli_y", "__skbrier_cli_p", "__skbrier_cli_w"
#: the ``--group-col`` labels in Spark's frame
#: the column of the --group-col labels in Spark (named as the user's column in messages)
_G = GROUP_COLUMN = "__skbrier_cli_group"


def refuse_unavailable_options(args: Any, engine: str) -> None:
    """A CLIError naming the first option that ``engine`` (one of the engines
    that read the file themselves, dask included) does not take: the text
    reader's --sep, --comment, --decimal and --encoding, and --group-col
    (spark takes it)."""
    options = [("sep", "--sep"), ("comment", "--comment")]
    if engine != "spark":
        options.append(("group_col", "--group-col"))
    for key, opt in options:
        if getattr(args, key, None) is not None:
            raise CLIError(f"{opt} is not available with --engine {engine}.")
    if args.decimal != "." or args.encoding != "auto":
        raise CLIError(
            f"--decimal and --encoding are not available with --engine {engine}."
        )


def _check_args(args: Any, engine: str) -> None:
    refuse_unavailable_options(args, engine)
    if args.file == "-":
        raise CLIError(
            f"--engine {engine} reads a file: standard input ('-') is not available."
        )
    if not os.path.exists(args.file):
        raise CLIError(f"{args.file}: no such file or directory.")


def _check_columns(args: Any, names: list[str], engine: str) -> None:
    check_columns(args.file, names, [*_needed(args), *_roles(args)], engine)


def _subgroups(args: Any) -> list[str]:
    """The ``--subgroup-col`` columns, each once."""
    return list(dict.fromkeys(getattr(args, "subgroup_col", None) or []))


def _roles(args: Any) -> list[str]:
    """The ``--group-col`` and ``--subgroup-col`` columns."""
    group = getattr(args, "group_col", None)
    return list(dict.fromkeys([*([group] if group else []), *_subgroups(args)]))


def _subgroup_kwds(args: Any) -> dict:
    """``groups=`` and ``segments=`` of the engines' reports (the label
    columns keep the names of the subgroup columns)."""
    subs = _subgroups(args)
    return {"groups": subs[0], "segments": subs} if subs else {}


def _as_text(args: Any) -> list[str]:
    """The subgroup columns a CSV file gives as their text (as in memory;
    the outcome, forecast and weight columns keep their types)."""
    if _is_parquet(args.file):
        return []
    needed = _needed(args)
    return [c for c in _subgroups(args) if c not in needed]


def _label_notes(reports: dict, args: Any, count: Any) -> None:
    """The note of each subgroup column with rows labelled :data:`MISSING`
    (``count(c)``: how many rows of the file)."""
    notes = [missing_note(c, n) for c in _subgroups(args) for n in [count(c)] if n]
    for rep in reports.values():
        rep.notes.extend(notes)


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


def _pos_label(
    args: Any, numeric: bool, boolean: bool = False, text: list[str] | None = None
) -> Any:
    """``--pos-label`` as a number for a numeric outcome column, as True or
    False for a boolean one, as the event's spelling for a text one (``text``:
    its distinct values, at most three; :func:`text_pos_label`), as in memory."""
    pos = args.pos_label
    if pos is not None and boolean:
        return boolean_pos_label(args)
    if text is not None:
        return text_pos_label(args, text)
    if pos is None or not numeric:
        return pos
    try:
        return float(pos)
    except ValueError:
        raise CLIError(f"--pos-label {pos!r} is not a label of '{args.y_col}'.") from None


def text_pos_label(args: Any, distinct: list[str]) -> Any:
    """The event of a text outcome column by ``--engine memory``'s rule
    (:func:`~skbrier.cli._read.outcomes`, its errors: TRUE/FALSE in any case
    are truth values, the event "true" or ``--pos-label`` true/false or 1/0;
    other text needs ``--pos-label``), as the spelling the engine's labels
    have.  No values or more than two: ``--pos-label`` as given (the
    report's error, diagnosed as in memory)."""
    if not distinct or len(distinct) > 2:
        return args.pos_label
    from ._read import outcomes
    from ._table import Codes

    levels = sorted(distinct)
    codes = np.arange(len(levels))
    y01 = outcomes(Codes(codes, levels), args.y_col, args.file, args.pos_label)
    events = [lv for lv, v in zip(levels, y01.tolist()) if v == 1.0]
    return events[0] if events else args.pos_label


def boolean_pos_label(args: Any) -> bool:
    """``--pos-label`` of a boolean outcome column: true/false in any case, or
    1/0 (:func:`~skbrier.cli._read.truth_word`, as in memory)."""
    from ._read import truth_word

    wanted = truth_word(args.pos_label)
    if wanted is None:
        raise CLIError(
            f"--pos-label {args.pos_label!r} is not a label of '{args.y_col}', a column "
            "of true/false: give --pos-label true (or false)."
        )
    return wanted == "true"


# --------------------------------------------------------------------------- polars
def _report(report: Any, frame: Any, args: Any, name: str, **kw: Any) -> Any:
    """``report`` (an engine's ``calibration_report``) of the columns
    :data:`_Y`, :data:`_P` (and :data:`_W` with ``--weight-col``) of ``frame``;
    its warning of hard 0/1 forecasts names the column, as in memory."""
    from .._core.hard import HardForecastWarning, hard_forecast_message

    w = None if args.weight_col is None else _W
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = report(frame, _Y, _P, w, name=name, **kw)
    for wr in caught:
        if issubclass(wr.category, HardForecastWarning):
            msg = hard_forecast_message(f"'{name}'", "export the predicted probabilities")
            warnings.warn(msg, HardForecastWarning, stacklevel=2)
        else:
            warnings.warn(wr.message, wr.category, stacklevel=2)
    return out


def _polars_labels(c: str, numeric: bool) -> Any:
    """The subgroup labels of column ``c`` (:func:`._subgroups.labels` of its
    numbers as float64, or of its text)."""
    import polars as pl

    col = pl.col(c).cast(pl.Float64 if numeric else pl.String)
    return col.map_batches(
        lambda s: pl.Series(labels(s.to_numpy()), dtype=pl.String), return_dtype=pl.String
    )


def _polars(args: Any, options: dict) -> dict:
    import polars as pl

    from ..engines import polars as sbp

    path = args.file
    try:
        if _is_parquet(path):
            lf = pl.scan_parquet(path)
        else:
            # Polars keeps a quoted header's doubled quotes ("a""b" reads as
            # a""b): the names as --engine memory reads them (a"b)
            raw = pl.scan_csv(path, infer_schema_length=0).collect_schema().names()
            names = {n.replace('""', '"'): n for n in raw}
            lf = pl.scan_csv(
                path,
                null_values=list(NA_VALUES),
                infer_schema_length=100_000,
                schema_overrides={names.get(c, c): pl.String for c in _as_text(args)},
            ).rename({n: c for c, n in names.items() if n != c})
        schema = lf.collect_schema()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise CLIError(f"{path}: cannot read: {exc}") from None
    _check_columns(args, schema.names(), "polars")
    parquet = _is_parquet(path)  # a CSV column: its text, as in memory
    subs = {
        c: _polars_labels(c, parquet and schema[c].is_numeric()) for c in _subgroups(args)
    }
    lf = lf.select(list(dict.fromkeys([*_needed(args), *subs])))

    def missing(c: str) -> Any:
        e = pl.col(c).is_null()
        return e | pl.col(c).is_nan() if schema[c].is_float() else e

    def count_missing(c: str) -> int:
        return int(lf.select(missing(c).sum()).collect().item())

    _refuse_missing(args, count_missing)

    def first_text(c: str) -> tuple[int, str] | None:
        if schema[c] != pl.String:
            return None
        bad = pl.col(c).is_not_null() & pl.col(c).cast(pl.Float64, strict=False).is_null()
        rows = lf.select(pl.col(c)).with_row_index().filter(bad).head(1).collect()
        return (int(rows["index"][0]), rows[c][0]) if rows.height else None

    _refuse_text(args, first_text)

    def summary(c: str) -> tuple[Any, Any, Any]:
        x = pl.col(c).cast(pl.Float64, strict=False)
        x = x.filter(x.is_finite())
        row = lf.select(
            x.min(), x.max().alias("hi"), x.filter(x != x.round()).first().alias("f")
        )
        return tuple(row.collect().row(0))

    refuse_percent_of_probabilities(args, summary)
    y_type = schema[args.y_col]
    text = None
    if y_type in (pl.String, pl.Categorical) or isinstance(y_type, pl.Enum):
        y = pl.col(args.y_col).drop_nulls().unique().head(3).cast(pl.String)
        text = lf.select(y).collect().to_series().to_list()
    kw = dict(
        options,
        pos_label=_pos_label(args, y_type.is_numeric(), y_type == pl.Boolean, text),
    )
    reports = {}
    for name, need in _models(args):
        sub = lf.filter(~pl.any_horizontal(*(missing(c) for c in need)))
        p = pl.col(name).cast(pl.Float64)
        if args.percent:  # numpy's division, as in memory (Polars multiplies by 0.01)
            p = p.map_batches(lambda s: pl.Series(s.to_numpy() / 100.0), pl.Float64)
        w = [] if args.weight_col is None else [pl.col(args.weight_col).alias(_W)]
        frame = sub.select(
            pl.col(args.y_col).alias(_Y),
            p.alias(_P),
            *w,
            *(e.alias(c) for c, e in subs.items()),
        )
        reports[name] = _report(
            sbp.calibration_report, frame, args, name, **_subgroup_kwds(args), **kw
        )

    def count_labels(c: str) -> int:
        return int(lf.select((subs[c] == MISSING).sum()).collect().item())

    _label_notes(reports, args, count_labels)
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


#: the DuckDB Python functions of the subgroup labels, by the SQL type they take
_LABELS = {"DOUBLE": "__skbrier_number_labels", "VARCHAR": "__skbrier_text_labels"}


def _duckdb_labels(con: Any, types: dict[str, str], numbers: bool) -> dict[str, str]:
    """``{column: SQL of its subgroup labels}``: :func:`._subgroups.labels`
    as DuckDB Python functions (Arrow batches) of the numbers as doubles
    (``numbers``: a Parquet file), or of the text (booleans as
    ``true``/``false``, as pyarrow writes them)."""
    if not types:
        return {}
    # DuckDB's Arrow functions need pyarrow, which DuckDB itself does not
    pa = import_for_cli("pyarrow", needed_for="--engine duckdb with --subgroup-col")

    from ..engines.duckdb import _NUMERIC

    def label(arr: Any) -> Any:
        return pa.array(labels(arr.to_numpy(zero_copy_only=False)).tolist(), pa.string())

    for sql_type, fn in _LABELS.items():
        con.create_function(
            fn, label, [sql_type], "VARCHAR", type="arrow", null_handling="special"
        )
    out = {}
    for c, t in types.items():
        number = t != "BOOLEAN" and (t in _NUMERIC or t.startswith("DECIMAL"))
        sql_type = "DOUBLE" if numbers and number else "VARCHAR"
        out[c] = f"{_LABELS[sql_type]}(CAST({_quote(c)} AS {sql_type}))"
    return out


def _duckdb(args: Any, options: dict) -> dict:
    import duckdb

    from ..engines import duckdb as sbd

    nulls = ", ".join(_literal(v) for v in NA_VALUES)
    # a text label (--pos-label yes) stays text: DuckDB would read yes/no as booleans;
    # a subgroup column of a CSV file is its text, as in memory
    text = [args.y_col] if _is_text(args) else []
    text = list(dict.fromkeys([*text, *_as_text(args)]))

    def read(text: list[str]) -> str:
        as_text = ", ".join(f"{_literal(c)}: 'VARCHAR'" for c in text)
        return (
            f"read_parquet({_literal(args.file)})"
            if _is_parquet(args.file)
            else f"read_csv_auto({_literal(args.file)}, nullstr = [{nulls}]"
            + (f", types = {{{as_text}}}" if text else "")
            + ")"
        )

    def column_types(source: str) -> dict[str, str]:
        try:
            rel = con.sql(f"SELECT * FROM {source}")
            return dict(zip(rel.columns, (str(t) for t in rel.types)))
        except duckdb.Error as exc:
            raise CLIError(f"{args.file}: cannot read: {exc}") from None

    con = duckdb.connect()
    try:
        source = read(text)
        types = column_types(source)
        if types.get(args.y_col) == "BOOLEAN" and not _is_parquet(args.file):
            # DuckDB reads yes/no, t/f as booleans too: the outcomes' text, as in memory
            source = read([*text, args.y_col])
            types = column_types(source)
        _check_columns(args, list(types), "duckdb")
        subs = _duckdb_labels(
            con, {c: types[c] for c in _subgroups(args)}, _is_parquet(args.file)
        )

        def missing(c: str) -> str:
            q = _quote(c)
            floats = types[c] in ("DOUBLE", "FLOAT", "REAL")
            return f"({q} IS NULL OR isnan({q}))" if floats else f"{q} IS NULL"

        def count(where: str) -> int:
            row = con.execute(f"SELECT count(*) FROM {source} WHERE {where}").fetchone()
            return int(row[0]) if row else 0

        _refuse_missing(args, lambda c: count(missing(c)))

        def first_text(c: str) -> tuple[int, str] | None:
            if types[c] != "VARCHAR":
                return None
            q = _quote(c)
            row = con.execute(
                f"SELECT i, v FROM (SELECT row_number() OVER () - 1 AS i, {q} AS v "
                f"FROM {source}) WHERE v IS NOT NULL AND TRY_CAST(v AS DOUBLE) IS NULL "
                "ORDER BY i LIMIT 1"
            ).fetchone()
            return (int(row[0]), str(row[1])) if row else None

        _refuse_text(args, first_text)

        def summary(c: str) -> tuple[Any, Any, Any]:
            row = con.execute(
                "SELECT min(v), max(v), first(v) FILTER (WHERE v <> round(v)) FROM "
                f"(SELECT TRY_CAST({_quote(c)} AS DOUBLE) AS v FROM {source}) "
                "WHERE isfinite(v)"
            ).fetchall()[0]
            return row[0], row[1], row[2]

        refuse_percent_of_probabilities(args, summary)
        numeric = types[args.y_col] not in ("VARCHAR", "BOOLEAN")
        boolean = types[args.y_col] == "BOOLEAN"
        labels = None
        if types[args.y_col] == "VARCHAR":
            q = _quote(args.y_col)
            rows = con.execute(
                f"SELECT DISTINCT {q} FROM {source} WHERE {q} IS NOT NULL LIMIT 3"
            ).fetchall()
            labels = [str(r[0]) for r in rows]
        kw = dict(options, pos_label=_pos_label(args, numeric, boolean, labels))
        reports = {}
        for name, need in _models(args):
            p = f"CAST({_quote(name)} AS DOUBLE)" + (" / 100.0" if args.percent else "")
            cols = [f"{_quote(args.y_col)} AS {_quote(_Y)}", f"{p} AS {_quote(_P)}"]
            if args.weight_col is not None:
                cols.append(f"CAST({_quote(args.weight_col)} AS DOUBLE) AS {_quote(_W)}")
            cols += [f"{e} AS {_quote(c)}" for c, e in subs.items()]
            where = " OR ".join(missing(c) for c in need)
            sub = con.sql(f"SELECT {', '.join(cols)} FROM {source} WHERE NOT ({where})")
            reports[name] = _report(
                sbd.calibration_report, sub, args, name, **_subgroup_kwds(args), **kw
            )
        _label_notes(reports, args, lambda c: count(f"{subs[c]} = {_literal(MISSING)}"))
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


def _spark_groups(args: Any, df: Any) -> Any:
    """``df`` with the ``--group-col`` labels as the column :data:`_G` (the
    text, stripped; an NA spelling is missing), the rows with no group left
    out with a warning, as in memory."""
    from pyspark.sql import functions as F

    text = F.trim(F.col(f"`{args.group_col}`").cast("string"))
    df = df.withColumn(_G, F.when(text.isin(list(NA_VALUES)), None).otherwise(text))
    n_missing = df.filter(F.col(_G).isNull()).count()
    warn_rows_without_group(n_missing, args.group_col, stacklevel=4)
    df = df.filter(F.col(_G).isNotNull())
    # groups whose rows of positive weight hold one class (or none) are left
    # out with a warning, as in memory (one aggregation)
    y = F.col(f"`{args.y_col}`")
    held = y.isNotNull()
    if args.weight_col is not None:
        held = held & (F.col(f"`{args.weight_col}`") > 0)
    classes = df.groupBy(_G).agg(F.countDistinct(F.when(held, y)).alias("k")).collect()
    kept = [row[0] for row in classes if row[1] >= 2]
    skipped = sorted(str(row[0]) for row in classes if row[1] < 2)
    groups_left_out(skipped, len(kept), args.group_col, stacklevel=4)
    return df.filter(F.col(_G).isin(kept)) if skipped else df


def _spark(args: Any, options: dict) -> dict:
    from pyspark.sql import functions as F
    from pyspark.sql.types import BooleanType, NumericType, StringType

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
    _check_columns(args, df.columns, "spark")
    df = df.select(
        *[F.col(f"`{c}`") for c in dict.fromkeys([*_needed(args), *_roles(args)])]
    )
    fields = {f.name: f.dataType for f in df.schema.fields}

    def missing(c: str) -> Any:
        col = F.col(f"`{c}`")
        floats = fields[c].typeName() in ("double", "float")
        return col.isNull() | F.isnan(col) if floats else col.isNull()

    def count_missing(c: str) -> int:
        return int(df.filter(missing(c)).count())

    _refuse_missing(args, count_missing)

    def summary(c: str) -> tuple[Any, Any, Any]:
        x = F.col(f"`{c}`").cast("double")
        finite = x.isNotNull() & ~F.isnan(x) & (F.abs(x) != float("inf"))
        row = (
            df.filter(finite)
            .agg(F.min(x), F.max(x), F.first(F.when(x != F.round(x), x), ignorenulls=True))
            .collect()[0]
        )
        return row[0], row[1], row[2]

    refuse_percent_of_probabilities(args, summary)
    grouped = args.group_col is not None
    if grouped:
        df = _spark_groups(args, df)
    text = None
    if isinstance(fields[args.y_col], StringType):
        y = F.col(f"`{args.y_col}`")
        text = [r[0] for r in df.select(y).where(y.isNotNull()).distinct().take(3)]
    kw = dict(
        options,
        pos_label=_pos_label(
            args,
            isinstance(fields[args.y_col], NumericType),
            isinstance(fields[args.y_col], BooleanType),
            text,
        ),
    )
    reports = {}
    for name, need in _models(args):
        cond = missing(need[0])
        for c in need[1:]:
            cond = cond | missing(c)
        p = F.col(f"`{name}`").cast("double")
        sub = df.filter(~cond).select(
            F.col(f"`{args.y_col}`").alias(_Y),
            (p / 100.0 if args.percent else p).alias(_P),
            *([] if args.weight_col is None else [F.col(f"`{args.weight_col}`").alias(_W)]),
            *([F.col(_G)] if grouped else []),
        )
        group_by = _G if grouped else None
        reports[name] = _report(
            sbs.calibration_report, sub, args, name, group_by=group_by, **kw
        )
    return _by_group(reports, len(args.p_col)) if grouped else reports


def _by_group(reports: dict, n_models: int) -> dict:
    """``{model: {group: report}}`` as the reports of ``--group-col`` in
    memory: one per group (and model), named by the group (``group /
    model`` with several models), the models of a group together."""
    out = {}
    for group in dict.fromkeys(g for per_group in reports.values() for g in per_group):
        for model, per_group in reports.items():
            if group in per_group:
                name = group if n_models == 1 else f"{group} / {model}"
                rep = per_group[group]
                object.__setattr__(rep, "name", name)  # a fresh report of this call
                out[name] = rep
    return out


def _refuse_missing(args: Any, count_missing: Any) -> None:
    """``--na error``: stop at the first needed column with a missing value
    (the group and subgroup columns too, as in memory)."""
    if args.na != "error":
        return
    for c in dict.fromkeys([*_needed(args), *_roles(args)]):
        n = count_missing(c)
        if n:
            raise CLIError(
                f"{args.file}: column '{c}' has {n} missing values (--na error; the "
                "default --na drop leaves such rows out)."
            )


def _refuse_text(args: Any, first_text: Any) -> None:
    """The forecast and weight columns hold numbers: the in-memory error at
    the first text that is not one (``first_text(c)``: its data row and
    value, or None), not the engine's failed cast."""
    from ._read import not_a_number

    numbers = [*args.p_col] + ([args.weight_col] if args.weight_col else [])
    for c in dict.fromkeys(numbers):
        bad = first_text(c)
        if bad is not None:
            raise not_a_number(args.file, c, *bad)


def refuse_percent_of_probabilities(args: Any, summary: Any) -> None:
    """``--percent`` over a forecast column of probabilities: the in-memory
    refusal (:func:`~skbrier.cli._read.percent_refusal`, by the rule of
    :func:`~skbrier._core.diagnose.percent_of_probabilities` applied to the
    column's summary).  ``summary(c)``: the smallest and largest finite value
    of column ``c`` and a fraction among them (None where there is none)."""
    if not args.percent:
        return
    from .._core.diagnose import percent_of_probabilities
    from ._read import percent_refusal

    for c in dict.fromkeys(args.p_col):
        lo, hi, fraction = summary(c)
        example = percent_of_probabilities([v for v in (fraction, lo, hi) if v is not None])
        if example is not None:
            raise percent_refusal(args.file, c, example, float(hi))


_READERS = {"polars": _polars, "duckdb": _duckdb, "spark": _spark}


def engine_reports(args: Any, engine: str, options: dict) -> dict:
    """``{model: CalibrationReport}`` of ``--engine engine`` (``options``: the
    keywords of the report besides the columns, ``pos_label`` and ``name``).

    An error of the report (the Python API's message) is first checked
    against the file's columns (:func:`_diagnose`, Polars and DuckDB)."""
    _check_args(args, engine)
    package = "pyspark" if engine == "spark" else engine
    import_for_cli(package, needed_for=f"--engine {engine}")
    try:
        return _READERS[engine](args, options)
    except (ValueError, TypeError):
        # Polars and DuckDB hold the columns in memory for the report anyway;
        # --engine memory reads files, not a directory of Parquet files
        if engine != "spark" and os.path.isfile(args.file):
            _diagnose(args)
        raise


def _diagnose(args: Any) -> None:
    """The error of ``--engine memory`` where the file's columns show one
    (a value out of range, a stray label, no rows: the column, its option
    and the file's row), read and checked as ``--engine memory`` does; called
    when an engine's report raises, whose message is the Python API's (its
    positions count the rows the engine kept)."""
    from ._report_input import _load

    _load(args)
