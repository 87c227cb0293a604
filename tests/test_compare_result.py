"""compare_brier as people read it: names, the Brier Index difference, the verdict."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

from skbrier.metrics.brier import brier_index
from skbrier.stats import compare_brier

FIX = json.loads(
    (
        pathlib.Path(__file__).parent / "fixtures" / "compare" / "compare_fixtures.json"
    ).read_text()
)["cases"]
IDS = [c["name"] for c in FIX]


@pytest.mark.parametrize("case", FIX, ids=IDS)
def test_brier_index_difference_matches_r_delta_method(case):
    y, pa, pb = case["y_true"], case["y_proba_a"], case["y_proba_b"]
    iid = compare_brier(y, pa, pb, cov_type="iid")
    assert iid.brier_index_a == pytest.approx(case["brier_index_a"], rel=1e-12)
    assert iid.brier_index_b == pytest.approx(case["brier_index_b"], rel=1e-12)
    assert iid.brier_index_difference == pytest.approx(
        case["brier_index_difference"], rel=1e-10
    )
    # car::deltaMethod with cov(cbind(la, lb)) / T
    assert iid.standard_error(metric="brier_index") == pytest.approx(
        case["se_iid"], rel=1e-7
    )
    # sandwich::lrvar of the linearised series (numDeriv gradients in R)
    hac = compare_brier(y, pa, pb, cov_type="hac")
    assert hac.brier_index_difference_standard_error == pytest.approx(
        case["se_hac"], rel=1e-5
    )
    lo, hi = iid.confidence_interval(0.9, metric="brier_index")
    half = 1.6448536269514722 * case["se_iid"]
    assert (lo, hi) == pytest.approx(
        (case["brier_index_difference"] - half, case["brier_index_difference"] + half),
        rel=1e-6,
    )
    # against skbrier's own (sklearn-checked) brier_index
    assert iid.brier_index_a == pytest.approx(brier_index(y, pa), rel=1e-12)


def test_names_from_dict_dataframe_and_names():
    pd = pytest.importorskip("pandas")
    c = FIX[2]
    y, pa, pb = c["y_true"], c["y_proba_a"], c["y_proba_b"]
    plain = compare_brier(y, pa, pb)
    assert plain.names == ("a", "b")
    d = compare_brier(y, {"logreg": pa, "gbm": pb})
    assert d.names == ("logreg", "gbm")
    assert d.difference == plain.difference
    f = compare_brier(y, pd.DataFrame({"logreg": pa, "gbm": pb}))
    assert f.names == ("logreg", "gbm")
    n = compare_brier(y, pa, pb, names=["x", "z"])
    assert n.names == ("x", "z")
    assert n.better in ("x", "z")
    assert (n.better == "x") == (n.difference < 0)
    with pytest.raises(ValueError, match="names"):
        compare_brier(y, pa, pb, names=["x"])
    with pytest.raises(ValueError, match="names"):
        compare_brier(y, pa, pb, names=["x", "x"])
    with pytest.raises(TypeError, match="y_proba_b"):
        compare_brier(y, pa)
    with pytest.raises(TypeError, match="y_proba_b"):
        compare_brier(y, {"a": pa, "b": pb}, pb)
    with pytest.raises(ValueError, match="two"):
        compare_brier(y, {"a": pa, "b": pb, "c": pb})


def test_verdict_summary_and_frame():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    p = rng.uniform(size=400)
    y = (rng.uniform(size=400) < p).astype(int)
    res = compare_brier(y, {"model": p, "coin": np.full(400, 0.5)})
    assert res.better == "model"
    assert res.verdict.startswith("model is better than coin")
    assert "is significant at the 5% level" in res.verdict
    text = res.summary()
    assert "brier_index_difference 95% CI" in text and res.verdict in text
    frame = res.to_frame()
    assert list(frame.index) == ["brier_score", "brier_index"]
    assert list(frame.columns) == [
        "model",
        "coin",
        "difference",
        "standard_error",
        "ci_low",
        "ci_high",
        "pvalue",
    ]
    assert frame.loc["brier_index", "difference"] == pytest.approx(
        res.brier_index_difference
    )
    assert (
        frame.loc["brier_index", "difference"] > 0 > frame.loc["brier_score", "difference"]
    )
    d = res.to_dict()
    assert d["names"] == ["model", "coin"] and d["better"] == "model"
    assert isinstance(d["verdict"], str)
    json.dumps(d)
    # not significant
    q = np.clip(p + rng.normal(0, 0.01, 400), 0, 1)
    close = compare_brier(y, p, q)
    assert "not significant" in close.verdict
    assert isinstance(pd.DataFrame, type)


def test_bootstrap_gives_both_differences_from_the_same_replicates():
    c = FIX[2]
    y, pa, pb = c["y_true"], c["y_proba_a"], c["y_proba_b"]
    res = compare_brier(y, pa, pb, cov_type="bootstrap", n_resamples=2000, random_state=0)
    iid = compare_brier(y, pa, pb, cov_type="iid")
    assert res.bootstrap_distribution.shape == (2000,)
    se = res.standard_error(metric="brier_index")
    assert se == pytest.approx(iid.brier_index_difference_standard_error, rel=0.1)
    lo, hi = res.confidence_interval(metric="brier_index")
    assert lo < res.brier_index_difference < hi
    lo2, hi2 = res.confidence_interval(metric="brier_index", method="bca")
    assert lo2 < hi2
    # same rows: replicates of the two differences have opposite sign tendencies
    reps = res._boot["index_replicates"]
    assert np.corrcoef(reps, res.bootstrap_distribution)[0, 1] < -0.9


def test_default_cov_type_is_iid_as_brier_inference():
    import inspect

    from skbrier.stats import brier_inference

    d1 = inspect.signature(compare_brier).parameters["cov_type"].default
    d2 = inspect.signature(brier_inference).parameters["cov_type"].default
    assert d1 == d2 == "iid"
    c = FIX[0]
    y, pa, pb = c["y_true"], c["y_proba_a"], c["y_proba_b"]
    # the iid result does not depend on the row order (HAC does)
    order = np.random.default_rng(0).permutation(len(y))
    a = compare_brier(y, pa, pb)
    b = compare_brier(*(np.asarray(v)[order] for v in (y, pa, pb)))
    assert a.pvalue == pytest.approx(b.pvalue, rel=1e-10)


@pytest.mark.parametrize("weights", [None, "integer", "fractional"])
def test_bootstrap_results_pickle_and_keep_their_intervals(weights):
    """brier_inference and compare_brier with cov_type='bootstrap' kept local
    closures for their intervals: pickle raised AttributeError ("Can't pickle
    local object"); the unpickled results give the same intervals."""
    import pickle

    from skbrier.stats import brier_inference, compare_brier

    rng = np.random.default_rng(41)
    p = rng.uniform(0.05, 0.95, 80)
    y = (rng.uniform(size=80) < p).astype(int)
    q = np.clip(p + rng.normal(0, 0.1, 80), 0.01, 0.99)
    w = {None: None, "integer": rng.integers(1, 3, 80).astype(float),
         "fractional": rng.uniform(0.5, 2.0, 80)}[weights]  # fmt: skip
    kw = {"cov_type": "bootstrap", "n_resamples": 60, "random_state": 0, "sample_weight": w}
    for res, metrics in (
        (brier_inference(y, p, **kw), ("brier_score", "brier_skill_score", "brier_index")),
        (compare_brier(y, p, q, **kw), ("brier_score", "brier_index")),
    ):
        back = pickle.loads(pickle.dumps(res))
        for metric in metrics:
            for method in ("percentile", "basic"):
                assert tuple(
                    back.confidence_interval(metric=metric, method=method)
                ) == tuple(res.confidence_interval(metric=metric, method=method)), (
                    type(res).__name__,
                    metric,
                    method,
                )
