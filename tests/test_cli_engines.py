"""``skbrier report --engine polars|duckdb|spark``: each engine reads the CSV
or Parquet file its own way and gives the numbers of ``--engine memory``
(--weight-col, --pos-label, --na drop and per-model, --percent), in text,
JSON and HTML; Polars and DuckDB the subgroup section of --subgroup-col,
Spark the audits per group of --group-col."""

from __future__ import annotations

import json

import numpy as np
import pytest

from skbrier.cli import main

#: Spark's exact sections (the others come from a subsample of the rows)
SPARK_EXACT = (
    *("n_samples", "n_events", "brier_score", "brier_index", "observed_expected"),
    *("calibration_slope", "spiegelhalter", "ece", "decomposition", "net_benefit"),
)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    import pandas as pd

    rng = np.random.default_rng(3)
    n = 1500
    p = rng.uniform(0.02, 0.98, n)
    frame = pd.DataFrame(
        {
            "outcome": np.where(rng.uniform(size=n) < p**1.1, "yes", "no"),
            "risk a": 100 * p,  # a name with a space; percentages (--percent)
            "b": 100 * np.clip(0.8 * p + 0.1, 0, 1),
            "w": rng.integers(1, 4, n).astype(float),
            "other": rng.normal(size=n),
            # subgroups: text (blanks stripped, as in memory; missing values),
            # integers, tiny numbers (numpy prints 1e-05, Polars 0.00001) and
            # booleans (CSV: their text; Parquet: true/false)
            "site": rng.choice([" north", "south ", "east"], n).astype(object),
            "arm": rng.integers(1, 4, n),
            "dose": rng.choice([0.5, 1e-05], n),
            "flag": rng.uniform(size=n) < 0.4,
        }
    )
    frame.loc[[3, 50], "risk a"] = np.nan
    frame.loc[[7], "b"] = np.nan
    frame.loc[[11, 12], "site"] = None
    d = tmp_path_factory.mktemp("engines")
    frame.to_csv(d / "f.csv", index=False)
    frame.to_parquet(d / "f.parquet")
    return d


def _run(capsys, path, engine, *extra):
    args = ["report", str(path), "--y-col", "outcome", "--pos-label", "yes"]
    args += ["--p-col", "risk a", "--p-col", "b", "--percent", "--json"]
    assert main([*args, "--engine", engine, "--threshold", "0.2", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _same(got, want, keys):
    for key in keys:
        a, b = got[key], want[key]
        if isinstance(b, float):
            assert a == pytest.approx(b, rel=1e-10, abs=1e-13), key
        elif isinstance(b, dict) and "estimate" in b:
            assert a["estimate"] == pytest.approx(b["estimate"], rel=1e-10), key
            if b["ci_low"] is not None:
                assert a["ci_low"] == pytest.approx(b["ci_low"], rel=1e-9), key
        else:
            np.testing.assert_allclose(
                _numbers(a), _numbers(b), rtol=1e-9, atol=1e-12, err_msg=key
            )


def _numbers(obj):
    if isinstance(obj, dict):
        return [x for k in sorted(obj) for x in _numbers(obj[k])]
    if isinstance(obj, list):
        return [x for v in obj for x in _numbers(v)]
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return []
    return [float(obj)]


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
@pytest.mark.parametrize("extra", [(), ("--weight-col", "w"), ("--na", "per-model")])
def test_equal_to_memory(files, engine, fmt, extra, capsys):
    pytest.importorskip(engine)
    path = files / f"f.{fmt}"
    want = _run(capsys, path, "memory", *extra)
    got = _run(capsys, path, engine, *extra)
    assert [r["name"] for r in got["reports"]] == ["risk a", "b"]
    keys = set(want["reports"][0]) - {"notes"}  # every number
    rows = [1498, 1499] if "per-model" in extra else [1497, 1497]
    for g, w, n in zip(got["reports"], want["reports"], rows):
        assert g["n_samples"] == w["n_samples"] == n
        _same(g, w, keys)
    # the paired comparison of the models scored on the same rows
    if "per-model" not in extra:
        a, b = got["comparison"]["pairs"][0], want["comparison"]["pairs"][0]
        assert a["pvalue"] == pytest.approx(b["pvalue"], rel=1e-9)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_subgroup_col_equal_to_memory(files, engine, fmt, capsys):
    """The subgroup section of each model, its labels and its notes are
    those of --engine memory, digit for digit (a subgroup column may be the
    outcome column too)."""
    pytest.importorskip(engine)
    path = files / f"f.{fmt}"
    extra = ["--weight-col", "w", "--subgroup-col", "site"]
    for col in ("arm", "dose", "flag", "outcome"):
        extra += ["--subgroup-col", col]
    want = _run(capsys, path, "memory", *extra)
    got = _run(capsys, path, engine, *extra)
    for g, w in zip(got["reports"], want["reports"]):
        assert g["subgroups"] is not None
        assert g["subgroups"] == w["subgroups"]
        assert [n for n in g["notes"] if n.startswith("Subgroups")] == [
            n for n in w["notes"] if n.startswith("Subgroups")
        ]
    sub = got["reports"][0]["subgroups"]
    assert [r["group"] for r in sub["groups"]] == ["(missing)", "east", "north", "south"]
    assert any(
        "2 rows with no value in column 'site'" in n for n in got["reports"][0]["notes"]
    )


def test_text_html_and_errors(files, tmp_path, capsys):
    pytest.importorskip("polars")
    html = tmp_path / "r.html"
    args = ["report", str(files / "f.parquet"), "--y-col", "outcome", "--pos-label", "yes"]
    args += ["--percent", "--p-col", "risk a"]
    assert main([*args, "--engine", "polars", "--html", str(html)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Calibration report: risk a") and "Brier score" in out
    assert "<h2>risk a</h2>" in html.read_text(encoding="utf-8")
    # --na error names the column; unknown columns and options are refused
    assert main([*args, "--engine", "duckdb", "--na", "error"]) == 2
    assert "column 'risk a' has 2 missing values" in capsys.readouterr().err
    assert main([*args[:-1], "nope", "--engine", "polars"]) == 2
    assert "no column 'nope' (columns: " in capsys.readouterr().err
    assert main([*args, "--engine", "duckdb", "--group-col", "outcome"]) == 2
    assert "--group-col is not available with --engine duckdb" in capsys.readouterr().err
    assert main([*args, "--engine", "polars", "--subgroup-col", "nope"]) == 2
    assert "no column 'nope' (columns: " in capsys.readouterr().err
    # --na error: a subgroup column with missing values stops, as in memory
    na = [*args[:-1], "other", "--subgroup-col", "site", "--na", "error"]
    for engine in ("polars", "duckdb"):
        assert main([*na, "--engine", engine]) == 2
        assert "column 'site' has 2 missing values" in capsys.readouterr().err
    # --subgroup-col: the section, in the text too
    assert main([*args, "--engine", "duckdb", "--subgroup-col", "site"]) == 0
    assert "Subgroups (4 groups" in capsys.readouterr().out


@pytest.fixture(scope="module")
def spark():
    from spark_session import session

    yield from session()


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_spark_equal_to_memory(spark, files, capsys):
    """One session (the tests' own, which the command reuses) for CSV and
    Parquet: a session costs ~20 s here.  With --group-col: one audit per
    group and model, named as in memory, from the one Spark job of
    ``group_by=`` per model; rows with no group are left out with memory's
    warning; --subgroup-col has no section on Spark (a note says why)."""
    for fmt, extra in (("csv", ("--weight-col", "w")), ("parquet", ())):
        path = files / f"f.{fmt}"
        want = _run(capsys, path, "memory", *extra)
        got = _run(capsys, path, "spark", *extra)
        for g, w in zip(got["reports"], want["reports"]):
            _same(g, w, SPARK_EXACT)
    args = ["report", str(files / "f.parquet"), "--y-col", "outcome", "--pos-label"]
    args += ["yes", "--p-col", "risk a", "--p-col", "b", "--percent", "--json"]
    args += ["--group-col", "site", "--subgroup-col", "arm"]
    out = {}
    for engine in ("memory", "spark"):
        assert main([*args, "--engine", engine]) == 0
        res = capsys.readouterr()
        assert "2 rows with a missing value in column 'site' are left out" in res.err
        out[engine] = {r["name"]: r for r in json.loads(res.out)["reports"]}
    want, got = out["memory"], out["spark"]
    assert sorted(got) == sorted(want) and "north / risk a" in got
    for name, w in want.items():
        _same(got[name], w, SPARK_EXACT)
        assert got[name]["subgroups"] is None
        assert any("not computed for --engine spark" in n for n in got[name]["notes"])
    # --percent over probabilities: memory's refusal (Spark divided them by 100)
    probs = files / "probabilities.csv"
    probs.write_text("y,p\n1,0.8\n0,0.3\n1,0.6\n0,0.1\n1,0.45\n0,0.5\n")
    args = ["report", str(probs), "--y-col", "y", "--p-col", "p", "--percent"]
    assert main([*args, "--engine", "spark"]) == 2
    assert "every value lies in [0, 1] (e.g. " in capsys.readouterr().err


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize("column", ["p", "w"])
def test_text_in_a_number_column_is_the_memory_error(tmp_path, engine, column, capsys):
    # the engine's failed cast (a Polars/DuckDB exception) was raised instead
    pytest.importorskip(engine)
    import pandas as pd

    frame = pd.DataFrame(
        {"y": [0, 1, 1, 0, 1], "p": ["0.2", "0.7", "0.9", "0.4", "0.6"], "w": ["1"] * 5}
    )
    frame.loc[3, column] = "n/a?"
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    args = ["report", str(path), "--y-col", "y", "--p-col", "p", "--weight-col", "w"]
    errors = []
    for eng in ("memory", engine):
        assert main([*args, "--engine", eng]) != 0
        errors.append(capsys.readouterr().err.strip().splitlines()[-1])
    assert errors[1] == errors[0]
    assert f"column '{column}' row 5: 'n/a?' is not a number" in errors[0]


@pytest.mark.parametrize("engine", ["memory", "polars", "duckdb", "dask"])
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_percent_on_probabilities_is_refused_by_every_engine(tmp_path, engine, fmt, capsys):
    # the engines divided a column of probabilities by 100 without a word
    # (forecasts of 0.001-0.01 audited); memory refused it: one message now
    pd = pytest.importorskip("pandas")
    if engine in ("polars", "duckdb", "dask"):
        pytest.importorskip(engine)
    rng = np.random.default_rng(17)
    frame = pd.DataFrame(
        {"y": rng.integers(0, 2, 40), "p": np.round(rng.uniform(size=40), 2)}
    )
    frame.loc[5, "p"] = np.nan
    path = tmp_path / f"p.{fmt}"
    frame.to_csv(path, index=False) if fmt == "csv" else frame.to_parquet(path)
    args = ["report", str(path), "--y-col", "y", "--p-col", "p", "--percent"]
    args += ["--engine", engine, "--na", "drop"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "column 'p': every value lies in [0, 1]" in err and "drop --percent" in err, err
    # percentages pass, and give the numbers of memory
    frame["p"] = np.round(frame["p"] * 100)
    frame.to_csv(path, index=False) if fmt == "csv" else frame.to_parquet(path)
    assert main([*args, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert main([*args[:-4], "--engine", "memory", "--na", "drop", "--json"]) == 0
    want = json.loads(capsys.readouterr().out)
    assert got["brier_score"]["estimate"] == pytest.approx(
        want["brier_score"]["estimate"], rel=1e-12
    )


@pytest.mark.parametrize("engine", ["polars", "duckdb", "dask"])
def test_pos_label_of_a_boolean_outcome_column(tmp_path, engine, capsys):
    # --pos-label True (or true, 1) was refused for a boolean column by the
    # engines (memory reads it in any case, or as 1/0)
    pd = pytest.importorskip("pandas")
    pytest.importorskip(engine)
    rng = np.random.default_rng(23)
    p = np.round(rng.uniform(size=50), 3)
    frame = pd.DataFrame({"y": rng.uniform(size=50) < p, "p": p})
    path = tmp_path / "b.parquet"
    frame.to_parquet(path)
    base = ["report", str(path), "--y-col", "y", "--p-col", "p", "--json"]
    out = {}
    for pos in ("True", "true", "1", "FALSE", "0"):
        for eng in ("memory", engine):
            assert main([*base, "--pos-label", pos, "--engine", eng]) == 0, (pos, eng)
            out[pos, eng] = json.loads(capsys.readouterr().out)["brier_score"]["estimate"]
        assert out[pos, engine] == pytest.approx(out[pos, "memory"], rel=1e-12)
    assert out["True", engine] == out["1", engine] != out["0", engine]
    assert main([*base, "--pos-label", "yes", "--engine", engine]) == 2
    assert "--pos-label 'yes' is not a label of 'y'" in capsys.readouterr().err


@pytest.mark.slow  # a Spark session (in CI's slow step)
def test_spark_leaves_single_class_groups_out_as_memory(spark, tmp_path, capsys):
    # a group without events (or of zero weight) stopped the whole Spark run,
    # and the error named the internal group column; memory leaves it out
    rng = np.random.default_rng(5)
    pa = rng.uniform(0.05, 0.95, 60)
    ya = (rng.uniform(size=60) < pa).astype(int)
    rows = [f"a,{y},{p!r},1" for y, p in zip(ya.tolist(), pa.tolist())]
    rows += ["b,1,0.3,1", "b,1,0.9,1", "c,0,0.1,1", "d,0,0.2,0", "d,1,0.7,0"]
    f = tmp_path / "g.csv"
    f.write_text("g,y,p,w\n" + "\n".join(rows) + "\n")
    args = ["report", str(f), "--y-col", "y", "--p-col", "p", "--group-col", "g"]
    args += ["--weight-col", "w", "--json"]
    out = {}
    for engine in ("memory", "spark"):
        assert main([*args, "--engine", engine]) == 0
        res = capsys.readouterr()
        assert "3 audit(s) of column 'g' (--group-col) left out" in res.err
        assert "(b, c, d)" in res.err
        out[engine] = json.loads(res.out)
    assert out["spark"]["n_samples"] == out["memory"]["n_samples"] == 60
    _same(out["spark"], out["memory"], SPARK_EXACT)
    f.write_text("g,y,p,w\nb,1,0.3,1\nb,1,0.9,1\nc,0,0.1,1\nc,0,0.4,1\n")
    assert main([*args, "--engine", "spark"]) == 2
    err = capsys.readouterr().err
    assert "every group of column 'g'" in err and "__skbrier" not in err
