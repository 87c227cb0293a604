"""What the table engines (Polars, DuckDB) share through their sources: the
group columns under reserved names and numbers-only forecast, weight and
reference columns, each checked on both engines against memory."""

import numpy as np
import pytest

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")

import skbrier  # noqa: E402
from skbrier.engines import duckdb as sbd  # noqa: E402
from skbrier.engines import polars as sbp  # noqa: E402

ENGINES = {
    "polars": (sbp, pl.DataFrame),
    "duckdb": (
        sbd,
        lambda cols: duckdb.connect().from_arrow(pl.DataFrame(cols).to_arrow()),
    ),
}


def _close(a, b):
    if hasattr(a, "to_dict"):
        a, b = a.to_dict(), b.to_dict()
    if isinstance(a, dict):
        assert set(a) == set(b)
        for k in a:
            _close(a[k], b[k])
    elif isinstance(a, (str, type(None))):
        assert a == b
    else:
        np.testing.assert_allclose(
            np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-12, atol=1e-13
        )


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("name", ["w", "rows", "ok", "n", "s_0", "fn_0"])
@pytest.mark.parametrize(
    "function, options",
    [
        ("brier_score", {}),
        ("calibration_error", {"n_bins": 4}),
        ("brier_inference", {}),
        ("net_benefit", {"threshold": 0.3}),
    ],
)
def test_group_column_named_as_an_aggregate(engine, name, function, options):
    # a group column whose name is one of the aggregates' (the total weight
    # "w", "rows", "ok", the moments' "n", "s_0", ...): the keys and sums were
    # mixed up (DuckDB: wrong keys and numbers, silently; Polars: an error)
    module, frame = ENGINES[engine]
    rng = np.random.default_rng(11)
    n = 120
    p = np.round(rng.uniform(0, 1, n), 1)
    y = (rng.uniform(size=n) < p).astype(np.int64)
    g = rng.integers(1, 3, n).astype(float)
    data = frame({"y": y, "p": p, name: g, "wt": g + 0.5})
    got = getattr(module, function)(data, weight="wt", group_by=name, **options)
    memory = getattr(skbrier, function)
    assert sorted(got) == [1.0, 2.0]
    for k in (1.0, 2.0):
        m = g == k
        _close(got[k], memory(y[m], p[m], sample_weight=g[m] + 0.5, **options))


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize(
    "column, option", [("p", "p"), ("w", "weight"), ("r", "reference")]
)
def test_text_in_a_number_column_is_refused(engine, column, option):
    # numbers only, as in memory and on Spark (text was parsed as numbers,
    # or the engine's failed cast escaped)
    module, frame = ENGINES[engine]
    rng = np.random.default_rng(12)
    cols = {"y": rng.integers(0, 2, 20), "p": rng.uniform(size=20)}
    cols |= {"w": rng.uniform(size=20), "r": rng.uniform(size=20)}
    kw = {"reference": "r"} if option == "reference" else {"weight": "w"}
    f = module.brier_skill_score if option == "reference" else module.brier_score
    for text in (cols[column].astype(str), np.array(["x"] * 20)):
        with pytest.raises(TypeError, match=f"{option}='{column}' holds text"):
            f(frame({**cols, column: text}), **kw)


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize(
    "group_by, kind", [(pl.col("g"), "Expr"), (3, "int"), ({"g"}, "set")]
)
def test_group_by_of_another_type_is_refused(engine, group_by, kind):
    # a Polars expression or a number as group_by: "'Expr' object is not
    # iterable" (a set's order is arbitrary: refused too)
    module, frame = ENGINES[engine]
    data = frame({"y": [0, 1, 1], "p": [0.2, 0.6, 0.7], "g": [1, 1, 2]})
    with pytest.raises(TypeError, match=f"group_by must be a column name .* got {kind}"):
        module.brier_score(data, group_by=group_by)


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_groups_in_order_of_their_keys(engine):
    # the groups of a result in the order of their keys, missing last (as on
    # Spark); they came in the engine's hash order, another on every run
    module, frame = ENGINES[engine]
    rng = np.random.default_rng(13)
    g = rng.permutation(np.repeat(np.arange(40.0), 3))
    g[:3] = np.nan  # None in the frame
    cols = {"y": rng.integers(0, 2, 120), "p": rng.uniform(size=120)}
    data = frame({**cols, "g": pl.Series(g, nan_to_null=True)})
    for f in (module.brier_score, module.calibration_error):
        got = list(f(data, group_by="g"))
        assert got == [*sorted(set(g[3:])), None]


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_model_names_and_reference_rates_as_in_memory(engine):
    # the table engines took a model named "all" (the treat-all strategy's
    # name: refused in memory and on Spark) and refused a numpy rate
    # (np.float32) as reference, which memory and Spark take
    module, frame = ENGINES[engine]
    cols = {
        "y": [0, 1, 1, 0, 1],
        "p": [0.2, 0.7, 0.9, 0.4, 0.6],
        "q": [0.3, 0.5, 0.5, 0.5, 0.5],
    }
    data = frame(cols)
    with pytest.raises(ValueError, match="'all' is reserved for the treat-all strategy"):
        module.decision_curve(data, p={"all": "p", "b": "q"})
    with pytest.raises(ValueError, match="'none' is reserved for the treat-none strategy"):
        module.decision_curve(data, p={"a": "p", "none": "q"})
    rate = np.float32(0.5)
    expected = skbrier.brier_skill_score(cols["y"], cols["p"], reference=rate)
    assert module.brier_skill_score(data, reference=rate) == pytest.approx(
        expected, rel=1e-12
    )
    got = module.brier_inference(data, reference=np.int64(1)).brier_skill_score
    expected = skbrier.brier_inference(cols["y"], cols["p"], reference=1).brier_skill_score
    assert got == pytest.approx(expected, rel=1e-12)
