"""skbrier.engines.polars: every statistic equals the numpy path on the same
rows (1e-12), per group too (one-row and single-class groups), bad input in
one group raises the in-memory error, expressions work in select, group_by
and over, and the report of a LazyFrame reads only its columns."""

import math
import warnings

import numpy as np
import pytest

pl = pytest.importorskip("polars")

import skbrier
from skbrier.engines import polars as sbp
from skbrier.metrics.decomposition import binned_statistics
from skbrier.states import BrierState

RTOL, ATOL = 1e-12, 1e-13
EDGES = np.array([0.0, 0.15, 0.3, 0.5, 0.8, 1.0])


def _frame(n=600, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.0, 1.0, n)
    p[:5] = [0.0, 1.0, 0.3, 0.7, 0.1]  # edge values of the uniform bins
    y = (rng.uniform(size=n) < p).astype(np.int64)
    return pl.DataFrame(
        {
            "g": rng.integers(0, 3, n),
            "y": y,
            "p": p,
            "w": rng.exponential(size=n),
            "r": rng.uniform(0.1, 0.9, n),
            "q": np.clip(p + rng.normal(0, 0.1, n), 0, 1),
        }
    )


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


# (engine function, options, numpy reference of (y, p, w, columns, options))
def _murphy(y, p, w, c, o):
    return skbrier.murphy_decomposition(y, p, sample_weight=w, **o)


CASES = {
    "brier_score": ({}, lambda y, p, w, c, o: skbrier.brier_score(y, p, sample_weight=w)),
    "brier_index": ({}, lambda y, p, w, c, o: skbrier.brier_index(y, p, sample_weight=w)),
    "skill_climatology": (
        {},
        lambda y, p, w, c, o: skbrier.brier_skill_score(y, p, sample_weight=w),
    ),
    "skill_rate": (
        {"reference": 0.3},
        lambda y, p, w, c, o: skbrier.brier_skill_score(
            y, p, sample_weight=w, reference=0.3
        ),
    ),
    "skill_column": (
        {"reference": "r"},
        lambda y, p, w, c, o: skbrier.brier_skill_score(
            y, p, sample_weight=w, reference=c["r"]
        ),
    ),
    "calibration_error": (
        {"n_bins": 10, "norm": "l2", "right": False},
        lambda y, p, w, c, o: skbrier.calibration_error(
            y, p, kind="binary", sample_weight=w, **o
        ),
    ),
    "calibration_error_max": (
        {"n_bins": 7, "norm": "max"},
        lambda y, p, w, c, o: skbrier.calibration_error(
            y, p, kind="binary", sample_weight=w, **o
        ),
    ),
    "calibration_bins": (
        {"strategy": EDGES},
        lambda y, p, w, c, o: binned_statistics(y.astype(float), p, w, EDGES),
    ),
    "murphy_decomposition": ({"n_bins": 10, "bias_correction": True}, _murphy),
    "murphy_edges": ({"strategy": EDGES, "right": False}, _murphy),
    "net_benefit": (
        {"threshold": 0.2},
        lambda y, p, w, c, o: skbrier.net_benefit(y, p, sample_weight=w, threshold=0.2),
    ),
    "net_benefit_prevalence": (
        {"threshold": 0.3, "prevalence": 0.2},
        lambda y, p, w, c, o: skbrier.net_benefit(y, p, sample_weight=w, **o),
    ),
    "decision_curve": (
        {"thresholds": [0.5, 0.05, 0.2, 0.5, 0.9]},
        lambda y, p, w, c, o: skbrier.decision_curve(y, p, sample_weight=w, **o),
    ),
    "brier_inference": (
        {},
        lambda y, p, w, c, o: skbrier.brier_inference(y, p, sample_weight=w),
    ),
    "brier_inference_column": (
        {"reference": "r"},
        lambda y, p, w, c, o: skbrier.brier_inference(
            y, p, sample_weight=w, reference=c["r"]
        ),
    ),
    "brier_inference_rate": (
        {"reference": 0.4},
        lambda y, p, w, c, o: skbrier.brier_inference(y, p, sample_weight=w, reference=0.4),
    ),
}


def _function(case):
    name = case.split("_")[0] if case.startswith("skill") else case
    name = {
        "skill": "brier_skill_score",
        "calibration_error_max": "calibration_error",
        "murphy_edges": "murphy_decomposition",
        "net_benefit_prevalence": "net_benefit",
        "brier_inference_column": "brier_inference",
        "brier_inference_rate": "brier_inference",
    }.get(name, name)
    return getattr(sbp, name)


def _numpy(df, case, weighted):
    opts, ref = CASES[case]
    cols = {c: df[c].to_numpy() for c in df.columns}
    w = cols["w"] if weighted else None
    return ref(cols["y"], cols["p"], w, cols, opts)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_equals_numpy(case, weighted):
    df = _frame()
    res = _function(case)(df, "y", "p", "w" if weighted else None, **CASES[case][0])
    _close(res, _numpy(df, case, weighted))


@pytest.mark.parametrize("case", sorted(CASES))
def test_lazyframe_and_series(case):
    df = _frame(seed=1)
    f, opts = _function(case), CASES[case][0]
    expected = _numpy(df, case, True)
    _close(f(df.lazy(), weight="w", **opts), expected)
    if opts.get("reference") != "r":
        _close(f(None, df["y"], df["p"], df["w"], **opts), expected)


def _per_group(df, case, weighted):
    out = {}
    for (g,), part in df.partition_by("g", as_dict=True).items():
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
    df = _frame(n=400, seed=2).with_columns(pl.col("g") % 2)
    extra = pl.DataFrame(
        {
            "g": [7, 8, 8, 8, 8],
            "y": [1, 0, 0, 0, 0],
            "p": [0.4, 0.1, 0.6, 0.3, 0.25],
            "w": [2.0, 1.0, 0.5, 1.5, 1.0],
            "r": [0.5, 0.4, 0.3, 0.2, 0.6],
            "q": [0.5, 0.2, 0.3, 0.4, 0.1],
        }
    )
    df = pl.concat([df, extra.cast(df.schema)])
    expected = _per_group(df, case, weighted)
    f, opts = _function(case), CASES[case][0]
    errors = [e for e in expected.values() if isinstance(e, Exception)]
    call = lambda: f(df, weight="w" if weighted else None, group_by="g", **opts)  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if errors:
            with pytest.raises(ValueError) as info:
                call()
            # the in-memory message of a failing group, naming the group
            named = {
                f"{e} (In the group ['g']={g!r} of the Polars input.)"
                for g, e in expected.items()
                if isinstance(e, Exception)
            }
            assert str(info.value) in named
            ok = {g: v for g, v in expected.items() if not isinstance(v, Exception)}
            df = df.filter(pl.col("g").is_in(list(ok)))
            expected = ok
        got = call()
    assert set(got) == set(expected)
    for g in expected:
        _close(got[g], expected[g], f"group {g}")


def test_several_group_columns_and_null_keys():
    df = _frame(seed=3).with_columns(
        h=pl.when(pl.col("p") > 0.5).then(pl.lit("hi")).otherwise(None)
    )
    got = sbp.brier_score(df, group_by=["g", "h"])
    for (g, h), part in df.partition_by(["g", "h"], as_dict=True).items():
        y, p = part["y"].to_numpy(), part["p"].to_numpy()
        assert math.isclose(got[(g, h)], skbrier.brier_score(y, p), rel_tol=RTOL)


# ----------------------------------------------------------------- labels
@pytest.mark.parametrize(
    "labels, pos_label",
    [
        (["no", "yes"], "yes"),
        (["yes", "zz"], "yes"),
        ([False, True], None),
        ([-1, 1], None),
        ([1, 2], 1),
        ([0, 1], 0),
        ([0.0, 1.0], 1.0),
    ],
)
@pytest.mark.parametrize("case", ["brier_score", "skill_column", "murphy_decomposition"])
def test_labels_as_in_memory(labels, pos_label, case):
    df = _frame(seed=4)
    y = np.where(df["y"].to_numpy() == 1, labels[1], labels[0])
    df = df.with_columns(y=pl.Series(list(y)))
    opts = CASES[case][0]
    got = _function(case)(df, weight="w", pos_label=pos_label, **opts)
    cols = {c: df[c].to_numpy() for c in df.columns}
    name = {"skill_column": "brier_skill_score"}.get(case, case)
    kw = {"reference": cols["r"]} if case == "skill_column" else opts
    expected = getattr(skbrier, name)(
        y, cols["p"], sample_weight=cols["w"], pos_label=pos_label, **kw
    )
    _close(got, expected)


def test_label_errors_are_the_states():
    # the labels are counted over the rows, as by merged states (no positions)
    df = pl.DataFrame({"y": [0, 1, 2, 1], "p": [0.1, 0.5, 0.6, 0.9]})
    y, p = df["y"].to_numpy(), df["p"].to_numpy()
    with pytest.raises(ValueError) as mem:
        BrierState().update(y[:2], p[:2]).merge(
            BrierState().update(y[2:], p[2:])
        ).finalize()
    with pytest.raises(ValueError) as eng:
        sbp.brier_score(df)
    assert str(eng.value) == str(mem.value)
    strings = df.with_columns(pl.col("y").cast(pl.String).replace({"2": "1"}))
    with pytest.raises(ValueError, match="pos_label must be given"):
        sbp.brier_score(strings)
    with pytest.raises(ValueError, match="pos_label=5"):
        sbp.brier_score(df.filter(pl.col("y") < 2), pos_label=5)


# ----------------------------------------------------------------- bad input
BAD = {
    "p above 1": ("p", 1.5),
    "p NaN": ("p", float("nan")),
    "p null": ("p", None),
    "y NaN": ("y", float("nan")),
    "y null": ("y", None),
    "weight negative": ("w", -1.0),
    "weight infinite": ("w", float("inf")),
}


def _spoiled(df, column, value, row):
    values = df[column].cast(pl.Float64).to_list()
    values[row] = value
    return df.with_columns(pl.Series(column, values, dtype=pl.Float64))


@pytest.mark.parametrize("bad", sorted(BAD))
@pytest.mark.parametrize("case", ["brier_score", "calibration_error", "brier_inference"])
def test_bad_input_raises_the_in_memory_error(bad, case):
    column, value = BAD[bad]
    df = _spoiled(_frame(n=200, seed=5), column, value, 17)
    cols = {c: df[c].to_numpy() for c in df.columns}
    opts, ref = CASES[case]
    with pytest.raises((ValueError, TypeError)) as mem:
        ref(cols["y"], cols["p"], cols["w"], cols, opts)
    with pytest.raises(type(mem.value)) as eng:
        _function(case)(df, weight="w", **opts)
    assert str(eng.value) == str(mem.value)
    # within one group: the same message, positions within the group, and a note
    grouped = df.with_columns(g=(pl.int_range(pl.len()) >= 100).cast(pl.Int64))
    grouped = _spoiled(_frame(n=200, seed=5).with_columns(grouped["g"]), column, value, 117)
    part = grouped.filter(pl.col("g") == 1)
    pc = {c: part[c].to_numpy() for c in part.columns}
    with pytest.raises(type(mem.value)) as mem1:
        ref(pc["y"], pc["p"], pc["w"], pc, opts)
    with pytest.raises(type(mem.value)) as eng1:
        _function(case)(grouped, weight="w", group_by="g", **opts)
    assert str(eng1.value).startswith(str(mem1.value))
    assert "within the group ['g']=1 of the Polars input" in str(eng1.value)


def test_empty_input():
    df = _frame().head(0)
    with pytest.raises(ValueError) as mem:
        skbrier.brier_score(df["y"].to_numpy(), df["p"].to_numpy())
    for f in (sbp.brier_score, sbp.murphy_decomposition, sbp.brier_inference):
        with pytest.raises(ValueError) as eng:
            f(df)
        assert str(eng.value) == str(mem.value)
        assert f(df, group_by="g") == {}


def test_zero_weights():
    df = _frame(n=50).with_columns(w=pl.lit(0.0))
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        sbp.brier_score(df, weight="w")
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        df.select(sbp.brier_score_expr(weight="w"))
    # a group of zero weights next to a weighted one: that group raises
    mixed = _frame(n=50).with_columns(w=pl.when(pl.col("g") == 0).then(0.0).otherwise(1.0))
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        sbp.net_benefit(mixed, weight="w", threshold=0.2, group_by="g")


def test_options_and_columns_are_checked():
    df = _frame()
    with pytest.raises(ValueError, match="p='prob' is not a column"):
        sbp.brier_score(df, p="prob")
    with pytest.raises(ValueError, match="group_by='nope' is not a column"):
        sbp.brier_score(df, group_by="nope")
    with pytest.raises(TypeError, match="data must be a polars DataFrame"):
        sbp.brier_score({"y": [1], "p": [0.5]})
    with pytest.raises(TypeError, match="data is None"):
        sbp.brier_score(None, "y", df["p"])
    with pytest.raises(ValueError, match="strategy='quantile' is not available for Polars"):
        sbp.murphy_decomposition(df, strategy="quantile")
    with pytest.raises(ValueError, match="norm"):
        sbp.calibration_error(df, norm="l3")
    with pytest.raises(ValueError, match="threshold"):
        sbp.net_benefit(df, threshold=1.0)
    with pytest.raises(ValueError, match="strategy .bin edges. must cover"):
        sbp.murphy_decomposition(df, strategy=[0.2, 0.5, 0.9])


def test_decision_curve_models():
    df = _frame(seed=6)
    cols = {c: df[c].to_numpy() for c in df.columns}
    got = sbp.decision_curve(
        df, p={"main": "p", "other": "q"}, weight="w", harm={"other": 0.01}
    )
    expected = skbrier.decision_curve(
        cols["y"],
        {"main": cols["p"], "other": cols["q"]},
        sample_weight=cols["w"],
        harm={"other": 0.01},
    )
    _close(got, expected)
    _close(
        sbp.decision_curve(df, p=["p", "q"]),
        skbrier.decision_curve(cols["y"], {"p": cols["p"], "q": cols["q"]}),
    )


def test_fast_path_of_binary_outcomes_is_one_query(monkeypatch):
    from skbrier.engines import polars as _polars

    calls = []
    run = _polars._Source.run
    monkeypatch.setattr(
        _polars._Source, "run", lambda self, a, **k: calls.append(k) or run(self, a, **k)
    )
    df = _frame()
    sbp.brier_score(df, group_by="g")
    assert calls == [{"by_label": False, "bins": None}]
    calls.clear()
    sbp.brier_score(df.with_columns(pl.col("y") + 1))  # labels {1, 2}: by label
    assert [c["by_label"] for c in calls] == [False, True]


# ----------------------------------------------------------------- expressions
EXPRS = {
    "brier_score_expr": ({}, "brier_score", {}),
    "brier_index_expr": ({}, "brier_index", {}),
    "brier_skill_score_expr": ({"reference": "r"}, "brier_skill_score", {"reference": "r"}),
    "calibration_error_expr": (
        {"n_bins": 5, "norm": "l1"},
        "calibration_error",
        {"n_bins": 5, "norm": "l1"},
    ),
    "net_benefit_expr": ({"threshold": 0.25}, "net_benefit", {"threshold": 0.25}),
}


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", sorted(EXPRS))
def test_expressions_in_select_group_by_and_over(name, weighted):
    df = _frame(seed=7).with_columns(pl.col("y").cast(pl.Boolean))
    expr_opts, func, func_opts = EXPRS[name]
    w = "w" if weighted else None
    e = getattr(sbp, name)("y", "p", w, **expr_opts)
    whole = getattr(sbp, func)(df, weight=w, **func_opts)
    assert math.isclose(df.select(e).item(), whole, rel_tol=RTOL)
    grouped = getattr(sbp, func)(df, weight=w, group_by="g", **func_opts)
    agg = df.group_by("g").agg(e)
    for g, v in zip(agg["g"].to_list(), agg[e.meta.output_name()].to_list()):
        assert math.isclose(v, grouped[g], rel_tol=RTOL, abs_tol=ATOL)
    over = df.with_columns(e.over("g").alias("v"))
    for g, v in zip(over["g"].to_list(), over["v"].to_list()):
        assert math.isclose(v, grouped[g], rel_tol=RTOL, abs_tol=ATOL)


def test_expression_of_a_bad_group_raises():
    df = _spoiled(_frame(n=100), "p", 1.5, 3)
    with pytest.raises(ValueError, match="a group holds invalid rows"):
        df.group_by("g").agg(sbp.brier_score_expr())
    labels = _frame(n=100).with_columns(pl.col("y") * 2)
    with pytest.raises(ValueError, match="0/1 outcomes"):
        labels.select(sbp.brier_score_expr())
    with pytest.raises(ValueError, match="y_proba is empty"):
        _frame().head(0).select(sbp.brier_score_expr())
    with pytest.raises(ValueError, match="y_true contains no events"):
        _frame().filter(pl.col("y") == 0).select(sbp.net_benefit_expr(threshold=0.2))


@pytest.mark.parametrize(
    "text",
    [
        pl.Series(["no", "yes"] * 10),
        pl.Series(["0", "1"] * 10),  # numbers written as text: were parsed silently
        pl.Series(["no", "yes"] * 10, dtype=pl.Categorical),
        pl.Series(["no", "yes"] * 10, dtype=pl.Enum(["no", "yes"])),
    ],
    ids=["words", "digits", "categorical", "enum"],
)
@pytest.mark.parametrize("name", sorted(EXPRS))
def test_expression_of_text_outcomes_names_the_column_and_pos_label(name, text):
    # a column of labels in an expression: Polars' failed cast escaped (or
    # "0"/"1" text was read as numbers, where memory asks for pos_label);
    # the event as a boolean expression is the way, equal to pos_label=
    df = _frame(n=20).with_columns(label=text)
    expr_opts, func, func_opts = EXPRS[name]
    with pytest.raises(ValueError, match=r"y='label' holds text .*pos_label"):
        df.select(getattr(sbp, name)("label", **expr_opts))
    with pytest.raises(ValueError, match=r"y='label' holds text"):
        df.group_by("g").agg(getattr(sbp, name)(pl.col("label"), **expr_opts))
    event = text.cast(pl.String)[1]
    got = df.select(getattr(sbp, name)(pl.col("label") == event, **expr_opts)).item()
    want = getattr(sbp, func)(df, y="label", pos_label=event, **func_opts)
    assert math.isclose(got, want, rel_tol=RTOL, abs_tol=ATOL)


@pytest.mark.parametrize("column", ["p", "w", "r"])
def test_expression_of_a_text_number_column_is_refused(column):
    # numbers only, as the frame functions say (Polars' failed cast escaped)
    df = _frame(n=20).with_columns(pl.col(column).cast(pl.String))
    option = {"p": "p", "w": "weight", "r": "reference"}[column]
    with pytest.raises(TypeError, match=f"{option}='{column}' holds text"):
        df.select(sbp.brier_skill_score_expr(weight="w", reference="r"))


@pytest.mark.parametrize(
    "case", ["brier_score", "calibration_error", "brier_inference", "decision_curve"]
)
def test_decimal_outcomes_are_numbers(case):
    # a Decimal column of 0/1 outcomes: the labels came back as Decimal
    # objects, taken for text ("pos_label must be given ... string labels")
    df = _frame(n=90, seed=21)
    dec = df.with_columns(pl.col("y").cast(pl.Decimal(5, 2)))
    for weighted in (False, True):
        _close(_function(case)(dec, weight="w" if weighted else None, **CASES[case][0]),
               _numpy(df, case, weighted))  # fmt: skip
        got = _function(case)(dec, group_by="g", **CASES[case][0])
        _close(got, _per_group(df, case, False))


# ----------------------------------------------------------------- the report
def test_report_of_a_lazyframe_reads_only_its_columns(tmp_path):
    df = _frame(n=800, seed=8)

    def boom(s):
        raise AssertionError("a column the report does not need was computed")

    lf = df.lazy().with_columns(
        unused=pl.col("q").map_batches(boom, return_dtype=pl.Float64)
    )
    got = sbp.calibration_report(lf, "y", "p", "w", n_bins=5, thresholds=[0.2])
    expected = skbrier.calibration_report(
        df["y"].to_numpy(),
        df["p"].to_numpy(),
        sample_weight=df["w"].to_numpy(),
        n_bins=5,
        thresholds=[0.2],
    )
    assert got.to_dict() == expected.to_dict()
    path = tmp_path / "scores.parquet"
    df.write_parquet(path)
    from skbrier.engines import polars as _polars

    scan = _polars._Source(pl.scan_parquet(path), "y", "p", None, None).lf.explain()
    assert "PROJECT 2/6 COLUMNS" in scan  # the scan reads y and p only
    rep = sbp.calibration_report(pl.scan_parquet(path), n_bins=5)
    assert math.isclose(
        rep.brier_score, skbrier.brier_score(df["y"], df["p"]), rel_tol=RTOL
    )


def test_report_subgroups_equal_memory(tmp_path):
    """groups= and segments= name columns, fetched in the one collect with
    y, p and w: the subgroup section is the in-memory report's, digit for digit."""
    from engine_subgroups import memory_report

    df = _frame(n=900, seed=9).with_columns(
        site=pl.Series(np.array(["A", "B", "C"])[np.arange(900) % 3]),
    )
    got = sbp.calibration_report(
        df.lazy(), "y", "p", "w", groups="site", segments=["site", "g"], n_bins=5
    )
    expected = memory_report(lambda c: df[c].to_numpy())
    assert got.subgroups is not None
    assert got.to_dict() == expected.to_dict()
    # segments only: the first one groups the table
    seg = sbp.calibration_report(df, segments="g").to_dict()["subgroups"]
    assert [r["group"] for r in seg["groups"]] == [0, 1, 2]
    # only the needed columns are read
    path = tmp_path / "s.parquet"
    df.write_parquet(path)
    src = sbp._Source(pl.scan_parquet(path), "y", "p", None, ["site", "g"])
    assert "PROJECT 4/7 COLUMNS" in src.lf.explain()


def test_report_subgroups_errors():
    df = _frame(n=200).with_columns(site=pl.Series(["a", None] * 100))
    with pytest.raises(ValueError, match="groups='nope' is not a column"):
        sbp.calibration_report(df, groups="nope")
    with pytest.raises(ValueError, match="segments='nope' is not a column"):
        sbp.calibration_report(df, segments=["g", "nope"])
    with pytest.raises(TypeError, match="segments must be a column name"):
        sbp.calibration_report(df, segments=3)
    with pytest.raises(TypeError, match="groups and segments name columns of data"):
        sbp.calibration_report(None, df["y"], df["p"], groups="g")
    # a null group: the in-memory report's own error
    with pytest.raises(ValueError) as eng:
        sbp.calibration_report(df, groups="site")
    with pytest.raises(ValueError) as mem:
        skbrier.calibration_report(df["y"], df["p"], groups=df["site"].to_numpy())
    assert str(eng.value) == str(mem.value)


@pytest.mark.parametrize(
    "option, instead",
    [("sample_weight", "weight="), ("y_true", "y="), ("y_proba", "p=")],
)
def test_report_refuses_the_in_memory_inputs(option, instead):
    # the in-memory report's names of its inputs: a TypeError saying which
    # parameter names the column (not "got multiple values" from inside)
    df = _frame(n=50)
    with pytest.raises(TypeError, match=f"{option} is not an option.*pass {instead}"):
        sbp.calibration_report(df, **{option: "w"})


# ----------------------------------------------------------------- docs
@pytest.mark.parametrize("name", sbp.__all__)
def test_numpydoc(name):
    validate = pytest.importorskip("numpydoc.validate").validate
    errors = [
        e
        for e in validate(f"skbrier.engines.polars.{name}")["errors"]
        if e[0] in {"GL08", "PR01", "PR02", "EX01"}
    ]
    assert not errors, errors


def test_models_of_a_list_are_named_by_their_columns():
    # Series and expressions are named by their names (were their reprs), and
    # a name given twice is refused (one model was silently dropped)
    df = _frame(n=80)
    cols = {c: df[c].to_numpy() for c in df.columns}
    want = skbrier.decision_curve(cols["y"], {"p": cols["p"], "q": cols["q"]})
    _close(sbp.decision_curve(None, df["y"], [df["p"], df["q"]]), want)
    _close(sbp.decision_curve(df, p=[pl.col("p"), pl.col("q")]), want)
    with pytest.raises(ValueError, match="names the model 'p' twice"):
        sbp.decision_curve(df, p=["p", "p"])
    with pytest.raises(ValueError, match="names the model 'p' twice"):
        sbp.decision_curve(df, p=[pl.col("p"), pl.col("p") * 0.9])


def test_group_by_of_series_is_refused():
    df = _frame(n=20)
    with pytest.raises(TypeError, match="group_by names columns of data"):
        sbp.brier_score(None, df["y"], df["p"], group_by="g")
