"""skbrier.engines.duckdb: the sufficient statistics computed by SQL inside
DuckDB equal the numpy path on the same rows (1e-12), per group too (one-row
and single-class groups), bad input in one group raises the in-memory error,
and the standard-SQL query finishes the same numbers."""

import math
import warnings

import numpy as np
import pytest

duckdb = pytest.importorskip("duckdb")
pd = pytest.importorskip("pandas")

import skbrier
from skbrier.engines import duckdb as sbd
from skbrier.metrics.decomposition import binned_statistics

RTOL, ATOL = 1e-12, 1e-13
EDGES = np.array([0.0, 0.15, 0.3, 0.5, 0.8, 1.0])


def _data(n=600, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.0, 1.0, n)
    p[:5] = [0.0, 1.0, 0.3, 0.7, 0.1]  # edge values of the uniform bins
    return pd.DataFrame(
        {
            "g": rng.integers(0, 3, n),
            "y": (rng.uniform(size=n) < p).astype(np.int64),
            "p": p,
            "w": rng.exponential(size=n),
            "r": rng.uniform(0.1, 0.9, n),
            "q": np.clip(p + rng.normal(0, 0.1, n), 0, 1),
        }
    )


def _table(df, name="t"):
    con = duckdb.connect()
    con.register("src", df)
    con.execute(f"CREATE TABLE {name} AS SELECT * FROM src")
    con.unregister("src")
    return con


def _close(a, b, path="result"):
    """Numbers, arrays and nested dicts/lists equal to 1e-12 (NaN equals NaN)."""
    if hasattr(a, "to_dict") and not isinstance(a, dict):
        a, b = a.to_dict(), b.to_dict()
    if isinstance(a, dict):
        assert set(a) == set(b), path
        for k in a:
            _close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (float, int, np.ndarray, list, np.floating)) and not isinstance(
        a, bool
    ):
        x, z = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        np.testing.assert_allclose(x, z, rtol=RTOL, atol=ATOL, err_msg=path)
    else:
        assert a == b, path


def _murphy(y, p, w, c, o):
    return skbrier.murphy_decomposition(y, p, sample_weight=w, **o)


def _ece(y, p, w, c, o):
    return skbrier.calibration_error(y, p, kind="binary", sample_weight=w, **o)


# case: (function, options, numpy reference of (y, p, w, columns, options))
CASES = {
    "brier_score": (
        "brier_score",
        {},
        lambda y, p, w, c, o: skbrier.brier_score(y, p, sample_weight=w),
    ),
    "brier_index": (
        "brier_index",
        {},
        lambda y, p, w, c, o: skbrier.brier_index(y, p, sample_weight=w),
    ),
    "skill": (
        "brier_skill_score",
        {},
        lambda y, p, w, c, o: skbrier.brier_skill_score(y, p, sample_weight=w),
    ),
    "skill_rate": (
        "brier_skill_score",
        {"reference": 0.3},
        lambda y, p, w, c, o: skbrier.brier_skill_score(
            y, p, sample_weight=w, reference=0.3
        ),
    ),
    "skill_column": (
        "brier_skill_score",
        {"reference": "r"},
        lambda y, p, w, c, o: skbrier.brier_skill_score(
            y, p, sample_weight=w, reference=c["r"]
        ),
    ),
    "ece_l2_left": (
        "calibration_error",
        {"n_bins": 10, "norm": "l2", "right": False},
        _ece,
    ),
    "ece_max": ("calibration_error", {"n_bins": 7, "norm": "max"}, _ece),
    "ece_15": ("calibration_error", {}, _ece),
    "bins": (
        "calibration_bins",
        {"strategy": EDGES},
        lambda y, p, w, c, o: binned_statistics(y.astype(float), p, w, EDGES),
    ),
    "murphy": ("murphy_decomposition", {"n_bins": 10, "bias_correction": True}, _murphy),
    "murphy_edges": ("murphy_decomposition", {"strategy": EDGES, "right": False}, _murphy),
    "net_benefit": (
        "net_benefit",
        {"threshold": 0.2},
        lambda y, p, w, c, o: skbrier.net_benefit(y, p, sample_weight=w, threshold=0.2),
    ),
    "net_benefit_prevalence": (
        "net_benefit",
        {"threshold": 0.3, "prevalence": 0.2},
        lambda y, p, w, c, o: skbrier.net_benefit(y, p, sample_weight=w, **o),
    ),
    "decision_curve": (
        "decision_curve",
        {"thresholds": [0.5, 0.05, 0.2, 0.5, 0.9]},
        lambda y, p, w, c, o: skbrier.decision_curve(y, p, sample_weight=w, **o),
    ),
    "inference": (
        "brier_inference",
        {},
        lambda y, p, w, c, o: skbrier.brier_inference(y, p, sample_weight=w),
    ),
    "inference_column": (
        "brier_inference",
        {"reference": "r"},
        lambda y, p, w, c, o: skbrier.brier_inference(
            y, p, sample_weight=w, reference=c["r"]
        ),
    ),
    "inference_rate": (
        "brier_inference",
        {"reference": 0.4},
        lambda y, p, w, c, o: skbrier.brier_inference(y, p, sample_weight=w, reference=0.4),
    ),
}


def _numpy(df, case, weighted):
    _, opts, ref = CASES[case]
    cols = {c: df[c].to_numpy() for c in df.columns}
    return ref(cols["y"], cols["p"], cols["w"] if weighted else None, cols, opts)


def _engine(case):
    name, opts, _ = CASES[case]
    return getattr(sbd, name), opts


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_equals_numpy(case, weighted):
    df = _data()
    con = _table(df)
    f, opts = _engine(case)
    w = "w" if weighted else None
    expected = _numpy(df, case, weighted)
    _close(f(con, "y", "p", w, table="t", **opts), expected)
    _close(f(con.table("t"), weight=w, **opts), expected)  # a relation


@pytest.mark.parametrize("case", sorted(CASES))
def test_standard_sql_finishes_the_same(case):
    # the query for other engines, run here, finished by StatisticsQuery.finish
    df = _data(seed=1)
    con = _table(df)
    name, opts, _ = CASES[case]
    q = sbd.statistics_query(name, "t", weight="w", group_by="g", **opts)
    rel = con.sql(q.sql)
    rows = [dict(zip(rel.columns, r)) for r in rel.fetchall()]
    got = q.finish(rows)
    f, _ = _engine(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = f(con, weight="w", table="t", group_by="g", **opts)
    assert set(got) == set(expected)
    for g in got:
        _close(got[g], expected[g], f"group {g}")
    assert "DOUBLE PRECISION" in q.sql and "GROUP BY" in q.sql


def _per_group(df, case, weighted):
    out = {}
    for g, part in df.groupby("g"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out[g] = _numpy(part, case, weighted)
        except ValueError as exc:
            out[g] = exc
    return out


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_groups_equal_numpy(case, weighted):
    # groups: two ordinary ones, a single row, one class only
    df = _data(n=400, seed=2)
    df["g"] %= 2
    extra = pd.DataFrame(
        {
            "g": [7, 8, 8, 8, 8],
            "y": [1, 0, 0, 0, 0],
            "p": [0.4, 0.1, 0.6, 0.3, 0.25],
            "w": [2.0, 1.0, 0.5, 1.5, 1.0],
            "r": [0.5, 0.4, 0.3, 0.2, 0.6],
            "q": [0.5, 0.2, 0.3, 0.4, 0.1],
        }
    )
    df = pd.concat([df, extra], ignore_index=True)
    expected = _per_group(df, case, weighted)
    errors = [e for e in expected.values() if isinstance(e, Exception)]
    f, opts = _engine(case)
    w = "w" if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if errors:
            with pytest.raises(ValueError) as info:
                f(_table(df), weight=w, table="t", group_by="g", **opts)
            # the in-memory message of a failing group, naming the group
            named = {
                f"{e} (In the group ['g']={g!r} of the DuckDB input.)"
                for g, e in expected.items()
                if isinstance(e, Exception)
            }
            assert str(info.value) in named
            expected = {g: v for g, v in expected.items() if not isinstance(v, Exception)}
            df = df[df["g"].isin(list(expected))]
        got = f(_table(df), weight=w, table="t", group_by="g", **opts)
    assert set(got) == set(expected)
    for g in expected:
        _close(got[g], expected[g], f"group {g}")


@pytest.mark.parametrize(
    "labels, pos_label, sql_type",
    [
        (["no", "yes"], "yes", "VARCHAR"),
        ([False, True], None, "BOOLEAN"),
        ([-1, 1], None, "INTEGER"),
        ([1, 2], 1, "INTEGER"),
        ([0, 1], 0, "INTEGER"),
        ([0.0, 1.0], 1.0, "DOUBLE"),
    ],
)
@pytest.mark.parametrize("case", ["brier_score", "skill_column", "murphy", "inference"])
def test_labels_as_in_memory(labels, pos_label, sql_type, case):
    df = _data(seed=4)
    y = np.array([labels[1] if v else labels[0] for v in df["y"]], dtype=object)
    df["y"] = y
    con = _table(df.drop(columns="y"))
    con.execute(f"ALTER TABLE t ADD COLUMN y {sql_type}")
    con.register("labels", pd.DataFrame({"i": np.arange(len(y)), "y": y.astype(str)}))
    con.execute(
        "CREATE TABLE t2 AS SELECT t.* EXCLUDE (y), CAST(l.y AS "
        f"{sql_type}) AS y FROM (SELECT *, row_number() OVER () - 1 AS i FROM t) AS t "
        "JOIN labels AS l USING (i) ORDER BY i"
    )
    name, opts, ref = CASES[case]
    got = getattr(sbd, name)(con, weight="w", table="t2", pos_label=pos_label, **opts)
    back = con.sql("SELECT y FROM t2").fetchnumpy()["y"]
    cols = {c: df[c].to_numpy() for c in df.columns}
    name_mem = {"brier_inference": "brier_inference"}.get(name, name)
    kw = {"reference": cols["r"]} if opts.get("reference") == "r" else opts
    expected = getattr(skbrier, name_mem)(
        np.asarray(back), cols["p"], sample_weight=cols["w"], pos_label=pos_label, **kw
    )
    _close(got, expected)


@pytest.mark.parametrize("case", ["ece_max", "murphy", "decision_curve", "inference"])
def test_decimal_outcomes_are_numbers(case):
    # a DECIMAL column of 0/1 outcomes: the labels came back as Decimal
    # objects, taken for text ("pos_label must be given ... string labels"),
    # by the DuckDB functions and by StatisticsQuery.finish of another engine
    df = _data(n=120, seed=6)
    con = _table(df)
    con.execute("CREATE TABLE d AS SELECT * REPLACE (CAST(y AS DECIMAL(4, 1)) AS y) FROM t")
    f, opts = _engine(case)
    _close(f(con, weight="w", table="d", **opts), _numpy(df, case, True))
    got = f(con, table="d", group_by="g", **opts)
    _close(got, _per_group(df, case, False))
    q = sbd.statistics_query(f.__name__, "d", weight="w", **opts)
    rel = con.sql(q.sql)
    _close(q.finish([dict(zip(rel.columns, r)) for r in rel.fetchall()]),
           _numpy(df, case, True))  # fmt: skip


def test_error_of_a_group_result_names_the_group():
    # a single-class group's skill interval: the in-memory error, naming the
    # group (DuckDB and the query finished elsewhere; it did not say which)
    df = _data(n=60, seed=9)
    df.loc[df.g == 2, "y"] = 1
    con = _table(df)
    part = df[df.g == 2]
    with pytest.raises(ValueError) as memory:
        skbrier.brier_inference(part.y, part.p)
    with pytest.raises(ValueError) as got:
        sbd.brier_inference(con, table="t", group_by="g")
    assert str(got.value) == f"{memory.value} (In the group ['g']=2 of the DuckDB input.)"
    q = sbd.statistics_query("brier_inference", "t", group_by="g")
    rel = con.sql(q.sql)
    with pytest.raises(ValueError) as got:
        q.finish([dict(zip(rel.columns, r)) for r in rel.fetchall()])
    assert str(got.value) == f"{memory.value} (In the group ['g']=2 of the query's rows.)"


# ----------------------------------------------------------------- bad input
BAD = {
    "p above 1": ("p", "1.5"),
    "p NaN": ("p", "'nan'::DOUBLE"),
    "p null": ("p", "NULL"),
    "y null": ("y", "NULL"),
    "weight negative": ("w", "-1.0"),
    "weight infinite": ("w", "'inf'::DOUBLE"),
}


def _spoiled(df, column, value, row):
    con = _table(df)
    con.execute(
        f"CREATE TABLE s AS SELECT * REPLACE (CASE WHEN i = {row} THEN {value} "
        f"ELSE {column} END AS {column}) FROM (SELECT *, row_number() OVER () - 1 AS i "
        "FROM t) ORDER BY i"
    )
    return con, con.sql("SELECT * FROM s ORDER BY i").fetchnumpy()


def _arrays(cols):
    out = {}
    for k, v in cols.items():
        if isinstance(v, np.ma.MaskedArray):
            v = np.ma.filled(v.astype(float), np.nan)
        out[k] = np.asarray(v)
    return out


@pytest.mark.parametrize("bad", sorted(BAD))
@pytest.mark.parametrize("case", ["brier_score", "ece_15", "inference", "decision_curve"])
def test_bad_input_raises_the_in_memory_error(bad, case):
    column, value = BAD[bad]
    df = _data(n=200, seed=5)
    con, cols = _spoiled(df, column, value, 17)
    cols = _arrays(cols)
    name, opts, ref = CASES[case]
    with pytest.raises((ValueError, TypeError)) as mem:
        ref(cols["y"], cols["p"], cols["w"], cols, opts)
    with pytest.raises(type(mem.value)) as eng:
        getattr(sbd, name)(con, weight="w", table="s", **opts)
    assert str(eng.value) == str(mem.value)
    # within one group of two: positions within the group, and a note
    df["g"] = (np.arange(200) >= 100).astype(int)
    con, cols = _spoiled(df, column, value, 117)
    cols = {k: v[100:] for k, v in _arrays(cols).items()}
    with pytest.raises(type(mem.value)) as mem1:
        ref(cols["y"], cols["p"], cols["w"], cols, opts)
    with pytest.raises(type(mem.value)) as eng1:
        getattr(sbd, name)(con, weight="w", table="s", group_by="g", **opts)
    assert str(eng1.value).startswith(str(mem1.value))
    assert "within the group ['g']=1 of the DuckDB input" in str(eng1.value)


def test_statistics_query_of_invalid_rows_says_so():
    df = _data(n=50)
    df.loc[3, "p"] = 1.5
    con = _table(df)
    q = sbd.statistics_query("brier_score", "t")
    rel = con.sql(q.sql)
    with pytest.raises(ValueError, match="are not valid input"):
        q.finish([dict(zip(rel.columns, r)) for r in rel.fetchall()])


def test_empty_input():
    df = _data().head(0)
    con = _table(df)
    with pytest.raises(ValueError) as mem:
        skbrier.brier_score(df["y"].to_numpy(), df["p"].to_numpy())
    for f in (sbd.brier_score, sbd.murphy_decomposition, sbd.brier_inference):
        with pytest.raises(ValueError) as eng:
            f(con, table="t")
        assert str(eng.value) == str(mem.value)
        assert f(con, table="t", group_by="g") == {}


def test_parquet_and_table_functions(tmp_path):
    df = _data(seed=6)
    path = tmp_path / "scores.parquet"
    df.to_parquet(path)
    con = duckdb.connect()
    got = sbd.murphy_decomposition(con, table=f"read_parquet('{path}')", weight="w")
    expected = skbrier.murphy_decomposition(df["y"], df["p"], sample_weight=df["w"])
    _close(got, expected)
    rep = sbd.calibration_report(con, table=f"read_parquet('{path}')", weight="w", n_bins=5)
    mem = skbrier.calibration_report(
        df["y"].to_numpy(), df["p"].to_numpy(), sample_weight=df["w"].to_numpy(), n_bins=5
    )
    assert rep.to_dict() == mem.to_dict()


def test_report_subgroups_equal_memory(tmp_path):
    """groups= and segments= name columns, fetched in the one query with y,
    p and w: the subgroup section is the in-memory report's, digit for digit."""
    from engine_subgroups import memory_report

    df = _data(n=900, seed=9)
    df["site"] = np.array(["A", "B", "C"])[np.arange(900) % 3]
    path = tmp_path / "s.parquet"
    df.to_parquet(path)
    con = duckdb.connect()
    got = sbd.calibration_report(
        con,
        table=f"read_parquet('{path}')",
        weight="w",
        groups="site",
        segments=["site", "g"],
        n_bins=5,
    )
    expected = memory_report(lambda c: df[c].to_numpy())
    assert got.subgroups is not None
    assert got.to_dict() == expected.to_dict()
    seg = sbd.calibration_report(_table(df), table="t", segments="g").to_dict()
    seg = seg["subgroups"]
    assert [r["group"] for r in seg["groups"]] == [0, 1, 2]


def test_report_subgroups_errors():
    df = _data(n=200)
    df["site"] = ["a", None] * 100
    con = _table(df)
    with pytest.raises(ValueError, match="groups='nope' is not a column"):
        sbd.calibration_report(con, table="t", groups="nope")
    with pytest.raises(ValueError, match="segments='nope' is not a column"):
        sbd.calibration_report(con, table="t", segments=["g", "nope"])
    with pytest.raises(ValueError) as eng:  # a NULL group: the in-memory error
        sbd.calibration_report(con, table="t", groups="site")
    with pytest.raises(ValueError) as mem:
        skbrier.calibration_report(df["y"], df["p"], groups=df["site"].to_numpy())
    assert str(eng.value) == str(mem.value)


@pytest.mark.parametrize(
    "option, instead",
    [("sample_weight", "weight="), ("y_true", "y="), ("y_proba", "p=")],
)
def test_report_refuses_the_in_memory_inputs(option, instead):
    con = _table(_data(n=50))
    with pytest.raises(TypeError, match=f"{option} is not an option.*pass {instead}"):
        sbd.calibration_report(con, table="t", **{option: "w"})


@pytest.mark.parametrize("key", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_group_key_with_a_bad_row(key):
    # the group's rows are fetched by their key for the in-memory error: a
    # NaN or infinite key is a literal too (was "cannot be written in SQL")
    rel = duckdb.sql(
        "SELECT * FROM (VALUES (0, 0.2, 1.0), (1, 1.7, 1.0), (1, 0.9, 2.0), "
        "(0, 0.4, 2.0)) t(y, p, g)"
    )
    rel = rel.project(
        f"y, p, CASE WHEN g = 1.0 THEN CAST('{key}' AS DOUBLE) ELSE g END AS g"
    )
    with pytest.raises(ValueError) as mem:
        skbrier.brier_score(np.array([0, 1]), np.array([0.2, 1.7]))
    with pytest.raises(ValueError, match=f"within the group \\['g'\\]={key!r}") as eng:
        sbd.brier_score(rel, group_by="g")
    assert str(eng.value).startswith(str(mem.value))


def test_null_text_label_is_missing():
    """A NULL text label is None (the in-memory error), not numpy's fill "?"."""
    rel = duckdb.sql("SELECT * FROM (VALUES ('a', 0.2), (NULL, 0.3), ('b', 0.5)) t(y, p)")
    with pytest.raises(ValueError, match="y_true contains missing values"):
        sbd.brier_score(rel, pos_label="a")


def test_options_and_inputs_are_checked():
    con = _table(_data())
    with pytest.raises(ValueError, match="p='prob' is not a column"):
        sbd.brier_score(con, p="prob", table="t")
    with pytest.raises(TypeError, match="table must name the rows"):
        sbd.brier_score(con)
    with pytest.raises(TypeError, match="table must be None"):
        sbd.brier_score(con.table("t"), table="t")
    with pytest.raises(TypeError, match="data must be a DuckDB relation"):
        sbd.brier_score("t")
    with pytest.raises(ValueError, match="strategy='quantile' is not available for DuckDB"):
        sbd.calibration_bins(con, table="t", strategy="quantile")
    with pytest.raises(ValueError, match="statistic must be one of"):
        sbd.statistics_query("auc", "t")
    with pytest.raises(TypeError, match="takes no option 'n_bins'"):
        sbd.statistics_query("brier_score", "t", n_bins=3)


def test_decision_curve_models_and_quoted_names():
    df = _data(seed=7).rename(columns={"q": 'other "model"'})
    con = _table(df)
    got = sbd.decision_curve(con, table="t", p={"a": "p", "b": 'other "model"'}, weight="w")
    expected = skbrier.decision_curve(
        df["y"], {"a": df["p"], "b": df['other "model"']}, sample_weight=df["w"]
    )
    _close(got, expected)
    # the standard SQL of several models: one query each, in a UNION ALL
    q = sbd.statistics_query(
        "decision_curve", "t", p={"a": "p", "b": 'other "model"'}, weight="w", group_by="g"
    )
    assert q.sql.count("UNION ALL") == 1
    rel = con.sql(q.sql)
    got = q.finish([dict(zip(rel.columns, r)) for r in rel.fetchall()])
    for g, part in df.groupby("g"):
        expected = skbrier.decision_curve(
            part["y"], {"a": part["p"], "b": part['other "model"']}, sample_weight=part["w"]
        )
        _close(got[g], expected, f"group {g}")


def test_fast_path_sql_is_one_pass_without_label_groups():
    q = sbd.statistics_query("brier_score", "t", group_by="g")
    assert '"__skbrier_label"' in q.sql  # the general (by label) query for other engines
    con = _table(_data())
    from skbrier.engines import duckdb as _duckdb

    src = _duckdb._Source(con, "t", "y", "p", None, "g")
    from skbrier.engines import _statistics

    planned = _statistics.plan(
        "brier_score", "p", weighted=False, pos_label=None, engine="DuckDB"
    )
    sql = src.sql(planned.given.aggs, by_label=False, bins=None)
    assert "__skbrier_label" not in sql and "OVER" not in sql
    assert sql.count("SUM(") == 1  # the squared errors; the rows and weight are counts
    got = sbd.brier_score(con, table="t", group_by="g")
    assert all(math.isfinite(v) for v in got.values())


@pytest.mark.parametrize("name", sbd.__all__)
def test_numpydoc(name):
    validate = pytest.importorskip("numpydoc.validate").validate
    errors = [
        e
        for e in validate(f"skbrier.engines.duckdb.{name}")["errors"]
        if e[0] in {"GL08", "PR01", "PR02", "EX01"}
    ]
    assert not errors, errors


def test_columns_differing_only_in_case():
    # DuckDB's identifiers ignore case, quoted or not: y="Y" read the column
    # "y" (and group_by="G" the column "g"), silently
    con = duckdb.connect()
    rel = con.sql(
        'SELECT a AS y, b AS "Y", c AS p, d AS "P", e AS g, f AS "G" FROM (VALUES '
        "(0, 1, 0.2, 0.5, 1, 2), (1, 0, 0.7, 0.5, 1, 2), (1, 0, 0.9, 0.6, 2, 2), "
        "(0, 1, 0.4, 0.3, 2, 1), (1, 1, 0.8, 0.5, 1, 1)) AS t(a, b, c, d, e, f)"
    )
    assert rel.columns == ["y", "Y", "p", "P", "g", "G"]
    df = pd.DataFrame(np.array(rel.fetchall(), dtype=float), columns=rel.columns)
    for y, p in (("y", "p"), ("Y", "p"), ("y", "P"), ("Y", "P")):
        got = sbd.brier_score(rel, y=y, p=p)
        assert got == pytest.approx(skbrier.brier_score(df[y], df[p]), rel=1e-12), (y, p)
    for g in ("g", "G"):
        got = sbd.brier_score(rel, y="Y", group_by=g)
        expected = {k: skbrier.brier_score(d["Y"], d["p"]) for k, d in df.groupby(g)}
        _close(got, expected, g)
    report = sbd.calibration_report(rel, y="Y", p="P", groups="G")
    assert report.n_samples == 5
    np.testing.assert_allclose(report.brier_score, skbrier.brier_score(df["Y"], df["P"]))
    # both spellings in one call: refused (DuckDB cannot tell them apart)
    with pytest.raises(ValueError, match="'y' and 'Y' differ only in case"):
        sbd.brier_score(rel, y="y", group_by="Y")
    with pytest.raises(ValueError, match="'p' and 'P' differ only in case"):
        sbd.brier_skill_score(rel, p="p", reference="P")
