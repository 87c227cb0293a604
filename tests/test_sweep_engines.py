"""Held-out reproducers of the table engines (Polars, DuckDB) and the
``--engine`` options of the command line: inputs the engines' own tests do
not show, each with the in-memory function on the same rows as the
reference (equal to 1e-12, the same warnings, the same errors)."""

import warnings

import numpy as np
import pytest

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")

import skbrier
from skbrier.engines import duckdb as sbd
from skbrier.engines import polars as sbp
from skbrier.exceptions import HardForecastWarning


def _frame(n=40, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.0, 1.0, n)
    return pl.DataFrame(
        {
            "g": rng.integers(0, 2, n),
            "y": (rng.uniform(size=n) < p).astype(np.int64),
            "p": p,
            "w": rng.exponential(size=n),
        }
    )


def _engines(df):
    """``{engine: function of (name, **kwargs)}`` over the same rows."""
    con = duckdb.connect()
    con.register("src", df.to_arrow())
    return {
        "polars": lambda name, **kw: getattr(sbp, name)(df, **kw),
        "duckdb": lambda name, **kw: getattr(sbd, name)(con.table("src"), **kw),
    }


def _hard_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = call()
    return out, [w for w in caught if issubclass(w.category, HardForecastWarning)]


# the in-memory functions that warn of hard 0/1 forecasts, and those that do not
_WARNING = {
    "brier_score": lambda y, p: skbrier.brier_score(y, p),
    "brier_index": lambda y, p: skbrier.brier_index(y, p),
    "brier_skill_score": lambda y, p: skbrier.brier_skill_score(y, p),
    "calibration_error": lambda y, p: skbrier.calibration_error(y, p, kind="binary"),
    "murphy_decomposition": lambda y, p: skbrier.murphy_decomposition(y, p),
    "brier_inference": lambda y, p: skbrier.brier_inference(y, p),
}
_SILENT = {
    "net_benefit": (
        {"threshold": 0.2},
        lambda y, p: skbrier.net_benefit(y, p, threshold=0.2),
    ),
    "decision_curve": ({}, lambda y, p: skbrier.decision_curve(y, p)),
}


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize("name", sorted(_WARNING))
def test_hard_forecasts_warn_as_in_memory(engine, name):
    """Every forecast exactly 0 or 1 (predict() instead of predict_proba()):
    the in-memory HardForecastWarning, once, on the fast path of 0/1
    outcomes, on text labels and per group."""
    df = _frame().with_columns(p=(pl.col("p") > 0.5).cast(pl.Float64))
    _, ref = _hard_warnings(lambda: _WARNING[name](df["y"].to_numpy(), df["p"].to_numpy()))
    assert len(ref) == 1
    run = _engines(df)[engine]
    _, got = _hard_warnings(lambda: run(name))
    assert len(got) == 1 and "predict_proba" in str(got[0].message)
    _, got = _hard_warnings(lambda: run(name, group_by="g"))
    assert len(got) == 1
    text = df.with_columns(
        y=pl.when(pl.col("y") == 1).then(pl.lit("yes")).otherwise(pl.lit("no"))
    )
    _, got = _hard_warnings(lambda: _engines(text)[engine](name, pos_label="yes"))
    assert len(got) == 1
    # probabilities: no warning
    _, got = _hard_warnings(lambda: _engines(_frame())[engine](name))
    assert not got


@pytest.mark.parametrize(
    "name", ["brier_score", "brier_index", "brier_skill_score", "calibration_error"]
)
def test_polars_expressions_warn_of_hard_forecasts(name):
    """The ``*_expr`` functions warn as the frame functions do: once, when a
    group of at least two rows holds only 0/1 forecasts (select, group_by,
    over); probabilities and a one-row group do not warn."""
    df = _frame().with_columns(p=(pl.col("p") > 0.5).cast(pl.Float64))
    expr = getattr(sbp, f"{name}_expr")
    _, got = _hard_warnings(lambda: df.select(expr()))
    assert len(got) == 1 and "predict_proba" in str(got[0].message)
    _, got = _hard_warnings(lambda: df.group_by("g").agg(expr()))
    assert len(got) == 1
    _, got = _hard_warnings(lambda: _frame().select(expr()))
    assert not got
    one = _frame(n=1).with_columns(p=pl.lit(1.0))
    _, got = _hard_warnings(lambda: one.select(expr()))
    assert not got


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize("name", sorted(_SILENT))
def test_hard_forecasts_silent_where_in_memory_is(engine, name):
    df = _frame().with_columns(p=(pl.col("p") > 0.5).cast(pl.Float64))
    options, memory = _SILENT[name]
    _, ref = _hard_warnings(lambda: memory(df["y"].to_numpy(), df["p"].to_numpy()))
    _, got = _hard_warnings(lambda: _engines(df)[engine](name, **options))
    assert len(got) == len(ref) == 0


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_one_hard_row_does_not_warn(engine):
    """One row (in memory: at least two forecasts to call them hard), and
    one group of two hard rows among probabilities warns (as one call per
    group would)."""
    df = _frame(n=1).with_columns(p=pl.lit(1.0))
    _, got = _hard_warnings(lambda: _engines(df)[engine]("brier_score"))
    assert not got
    df = _frame().with_columns(
        g=pl.int_range(pl.len()) < 2,
        p=pl.when(pl.int_range(pl.len()) < 2).then(pl.lit(0.0)).otherwise(pl.col("p")),
    )
    _, got = _hard_warnings(lambda: _engines(df)[engine]("brier_score", group_by="g"))
    assert len(got) == 1


# ----------------------------------------------------------------- the command line
def _cli_file(tmp_path, fmt, change):
    import pandas as pd

    rng = np.random.default_rng(5)
    n = 60
    p = rng.uniform(0.02, 0.98, n)
    frame = pd.DataFrame(
        {"y": (rng.uniform(size=n) < p).astype(int), "p": p, "w": rng.exponential(size=n)}
    )
    frame = change(frame)
    path = tmp_path / f"f.{fmt}"
    frame.to_csv(path, index=False) if fmt == "csv" else frame.to_parquet(path)
    return str(path)


def _error(capsys, args):
    from skbrier.cli import main

    assert main(args) == 2
    return capsys.readouterr().err.strip()


def _set(column, row, value):
    def change(frame):
        frame.loc[row, column] = value
        return frame

    return change


_BAD_FILES = {
    "probability": (_set("p", 5, 1.5), []),
    "percent": (lambda f: f.assign(p=f["p"] * 100), []),
    "weight": (_set("w", 3, -1.0), ["--weight-col", "w"]),
    "infinite weight": (_set("w", 8, np.inf), ["--weight-col", "w"]),
    "label": (_set("y", 5, 7), []),
    "empty": (lambda f: f.iloc[:0], []),
}


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
@pytest.mark.parametrize("bad", sorted(_BAD_FILES))
def test_cli_engine_errors_are_the_memory_errors(tmp_path, capsys, engine, fmt, bad):
    """A bad value in the file: --engine polars/duckdb print the message of
    --engine memory (the column, its option and the file's row; --percent),
    not the Python API's (y_proba, an index among the rows kept)."""
    change, extra = _BAD_FILES[bad]
    path = _cli_file(tmp_path, fmt, change)
    args = ["report", path, "--y-col", "y", "--p-col", "p", *extra]
    want = _error(capsys, [*args, "--engine", "memory"])
    got = _error(capsys, [*args, "--engine", engine])
    assert got == want


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_cli_engine_single_class_names_the_column(tmp_path, capsys, engine):
    path = _cli_file(tmp_path, "csv", lambda f: f.assign(y=1))
    args = ["report", path, "--y-col", "y", "--p-col", "p", "--engine", engine]
    got = _error(capsys, args)
    assert "column 'y' (--y-col) contains a single class" in got
    assert "y_true" not in got


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_cli_engine_error_of_a_parquet_directory(tmp_path, capsys, engine):
    """A directory of Parquet files (which --engine memory does not read):
    the engine's error in the command line's words, not a reading error."""
    _cli_file(tmp_path, "parquet", _set("p", 5, 1.5))
    (tmp_path / "ds").mkdir()
    (tmp_path / "f.parquet").rename(tmp_path / "ds" / "part-0.parquet")
    args = ["report", str(tmp_path / "ds"), "--y-col", "y", "--p-col", "p"]
    got = _error(capsys, [*args, "--engine", engine])
    assert "column 'p' (--p-col) must contain probabilities in [0, 1]" in got
    assert "directory" not in got


# ----------------------------------------------------------------- group columns
@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_group_column_with_a_reserved_name_is_refused(engine):
    """A group column named like skbrier's own columns (``__skbrier_y``):
    DuckDB grouped by the outcome instead (a silent wrong number), Polars
    raised its DuplicateError; now a ValueError saying what to do."""
    df = _frame().with_columns(__skbrier_y=pl.col("g"))
    with pytest.raises(ValueError, match="reserves for its own columns: rename"):
        _engines(df)[engine]("brier_score", group_by="__skbrier_y")
    with pytest.raises(ValueError, match="reserves for its own columns: rename"):
        _engines(df)[engine]("calibration_report", groups="__skbrier_y")


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_group_by_naming_a_column_twice_is_refused(engine):
    """``group_by=["g", "g"]``: Polars raised its DuplicateError, DuckDB
    keyed the groups by pairs; now the ValueError naming the column."""
    with pytest.raises(ValueError, match="group_by names the column 'g' twice"):
        _engines(_frame())[engine]("brier_score", group_by=["g", "g"])


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_group_by_the_outcome_or_weight_column(engine):
    """Grouping by a column that is also ``y`` or ``weight``: each group's
    number is the in-memory function's on its rows."""
    df = _frame()
    run = _engines(df)[engine]
    for key in ("y", "w"):
        got = run("brier_score", weight="w", group_by=key)
        for value, score in got.items():
            rows = df.filter(pl.col(key) == value)
            want = skbrier.brier_score(
                rows["y"].to_numpy(),
                rows["p"].to_numpy(),
                sample_weight=rows["w"].to_numpy(),
            )
            assert score == pytest.approx(want, rel=1e-12, abs=1e-15)


# ----------------------------------------------------------------- Spark (one session)
@pytest.fixture(scope="module")
def spark():
    from spark_session import session

    yield from session()


@pytest.mark.slow
def test_spark_columns_differing_only_in_case(spark):
    """Columns ``y`` and ``Y``: Spark's AnalysisException (an ambiguous
    reference) leaked; now the ValueError naming both columns, and the
    number with a case-sensitive session."""
    import pandas as pd

    from skbrier.engines import spark as sbs

    rng = np.random.default_rng(1)
    p = rng.uniform(size=30)
    y = (rng.uniform(size=30) < p).astype(int)
    df = spark.createDataFrame(pd.DataFrame({"y": y, "Y": 1 - y, "p": p}))
    df = df.toDF("y", "Y", "p")
    with pytest.raises(ValueError, match="'Y' and 'y' differ only in case"):
        sbs.brier_score(df, "Y", "p")
    with pytest.raises(ValueError, match="differ only in case"):
        four = spark.createDataFrame(pd.DataFrame({"a": y, "b": y, "y": y, "p": p}))
        sbs.brier_score(four.toDF("g", "G", "y", "p"), "y", "p", group_by="g")
    spark.conf.set("spark.sql.caseSensitive", "true")
    try:
        assert sbs.brier_score(df, "Y", "p") == pytest.approx(
            skbrier.brier_score(1 - y, p), rel=1e-12
        )
    finally:
        spark.conf.set("spark.sql.caseSensitive", "false")


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_float32_forecasts_are_scored_in_float64(engine):
    """A float32 forecast column: the engines read it as float64 (documented;
    in memory brier_score scores float32 in float32, as scikit-learn)."""
    df = _frame(n=200).with_columns(p=pl.col("p").cast(pl.Float32))
    got = _engines(df)[engine]("brier_score", weight="w")
    p64 = df["p"].to_numpy().astype(np.float64)
    want = skbrier.brier_score(df["y"].to_numpy(), p64, sample_weight=df["w"].to_numpy())
    assert got == pytest.approx(want, rel=1e-13)
    assert "float32" in sbp.brier_score.__doc__ and "float32" in sbd.brier_score.__doc__


def test_nan_group_key():
    """A NaN in a Polars group column (a value, not a null): the decision
    curve of two models raised KeyError (nan,) joining the models' sums;
    the groups' dict had NaN first and one NaN key per query.  Now one NaN
    key, after the numbers and before None, each group equal to memory."""
    import math

    df = _frame(n=90, seed=3).with_columns(
        g=pl.when(pl.int_range(pl.len()) < 30)
        .then(float("nan"))
        .when(pl.int_range(pl.len()) < 40)
        .then(None)
        .otherwise(pl.col("g").cast(pl.Float64)),
        r=pl.col("p").sqrt(),
    )
    got = sbp.decision_curve(df, p=["p", "r"], thresholds=[0.1, 0.3], group_by="g")
    keys = list(got)
    assert keys[:2] == [0.0, 1.0] and math.isnan(keys[2]) and keys[3] is None
    rows = df.head(30)
    want = skbrier.decision_curve(
        rows["y"].to_numpy(),
        {"p": rows["p"].to_numpy(), "r": rows["r"].to_numpy()},
        thresholds=[0.1, 0.3],
    )
    for model in ("p", "r"):
        np.testing.assert_allclose(
            got[keys[2]].net_benefit[model], want.net_benefit[model], rtol=1e-12
        )
    scores = sbp.brier_score(df, group_by="g")
    assert list(scores)[:2] == [0.0, 1.0] and math.isnan(list(scores)[2])
    assert scores[keys[2]] == pytest.approx(
        skbrier.brier_score(rows["y"].to_numpy(), rows["p"].to_numpy()), rel=1e-12
    )


def _report_json(capsys, args):
    import json

    from skbrier.cli import main

    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize("pos", [None, "true", "FALSE", "1"])
def test_cli_engine_truth_text_labels(tmp_path, capsys, engine, pos):
    """A Parquet outcome column of the text TRUE/FALSE: --engine memory
    reads it as truth values (the event "true", or --pos-label true/false
    in any case, 1/0); the engines refused it ("pos_label must be given")."""
    path = _cli_file(
        tmp_path, "parquet", lambda f: f.assign(y=np.where(f["y"] == 1, "TRUE", "FALSE"))
    )
    args = ["report", path, "--y-col", "y", "--p-col", "p"]
    args += [] if pos is None else ["--pos-label", pos]
    want = _report_json(capsys, [*args, "--engine", "memory"])
    got = _report_json(capsys, [*args, "--engine", engine])
    assert got["brier_score"]["estimate"] == pytest.approx(
        want["brier_score"]["estimate"], rel=1e-12
    )
    assert got["n_events"] == want["n_events"]


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_cli_engine_yes_no_labels_need_pos_label(tmp_path, capsys, engine):
    """A CSV outcome column of yes/no without --pos-label: --engine memory
    asks for --pos-label; DuckDB read yes/no as booleans and reported with
    "yes" as the event, silently."""
    path = _cli_file(
        tmp_path, "csv", lambda f: f.assign(y=np.where(f["y"] == 1, "yes", "no"))
    )
    args = ["report", path, "--y-col", "y", "--p-col", "p"]
    want = _error(capsys, [*args, "--engine", "memory"])
    assert "--pos-label" in want
    assert _error(capsys, [*args, "--engine", engine]) == want


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_cli_engine_column_names_with_quotes_and_keywords(tmp_path, capsys, engine):
    """Columns named with a double quote, an apostrophe, a space and an SQL
    keyword (CSV quotes the first: Polars kept its doubled quote, so the
    column was "not found"): the numbers of --engine memory."""
    names = {"y": 'out"come', "p": "it's p", "w": "select"}
    path = _cli_file(
        tmp_path,
        "csv",
        lambda f: f.assign(g=np.arange(len(f)) % 2).rename(columns={**names, "g": "Group"}),
    )
    args = ["report", path, "--y-col", names["y"], "--p-col", names["p"]]
    args += ["--weight-col", names["w"], "--subgroup-col", "Group"]
    want = _report_json(capsys, [*args, "--engine", "memory"])
    got = _report_json(capsys, [*args, "--engine", engine])
    assert got["brier_score"]["estimate"] == pytest.approx(
        want["brier_score"]["estimate"], rel=1e-12
    )
    assert got["ece"]["value"] == pytest.approx(want["ece"]["value"], rel=1e-12)


@pytest.mark.slow
def test_spark_cli_truth_text_labels(spark, tmp_path, capsys):
    """--engine spark on a Parquet outcome column of the text TRUE/FALSE:
    the truth values of --engine memory (refused before: pos_label needed)."""
    path = _cli_file(
        tmp_path, "parquet", lambda f: f.assign(y=np.where(f["y"] == 1, "TRUE", "FALSE"))
    )
    args = ["report", path, "--y-col", "y", "--p-col", "p"]
    want = _report_json(capsys, [*args, "--engine", "memory"])
    got = _report_json(capsys, [*args, "--engine", "spark"])
    assert got["brier_score"]["estimate"] == pytest.approx(
        want["brier_score"]["estimate"], rel=1e-12
    )
    with_pos = _report_json(capsys, [*args, "--pos-label", "false", "--engine", "spark"])
    assert with_pos["n_events"] == want["n_samples"] - want["n_events"]
