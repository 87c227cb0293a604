"""Prediction-powered accuracy and Brier score: equal to ppi_py (fixture made by
tests/fixtures/make_ppi_fixtures.py), frequency weights equal repeated rows,
clear errors for the usual mistakes."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skbrier.stats import prediction_powered_accuracy, prediction_powered_brier_score

FIXTURE = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "ppi_reference.json").read_text()
)


@pytest.mark.parametrize("case", range(len(FIXTURE["cases"])))
def test_equals_ppi_py(case):
    data = FIXTURE["cases"][case]
    human = np.array([np.nan if v is None else v for v in data["human"]])
    for ref in data["results"]:
        kw = {"lam": ref["lam"], "confidence_level": ref["confidence_level"]}
        if ref["metric"] == "accuracy":
            res = prediction_powered_accuracy(human, data["judge"], **kw)
        else:
            res = prediction_powered_brier_score(
                human, data["confidence"], judge_correct=data["judge"], **kw
            )
        assert res.estimate == pytest.approx(ref["estimate"], rel=1e-12, abs=1e-14)
        lo, hi = res.confidence_interval(ref["confidence_level"])
        assert lo == pytest.approx(ref["low"], rel=1e-12, abs=1e-14)
        assert hi == pytest.approx(ref["high"], rel=1e-12, abs=1e-14)


def test_lam_zero_is_the_classical_mean_and_lam_one_plain_ppi():
    human = [1, 0, 1, 1, None, None, None, None]
    judge = [1, 1, 1, 1, 1, 0, 1, 1]
    r0 = prediction_powered_accuracy(human, judge, lam=0.0)
    assert r0.estimate == r0.classical_estimate == 0.75
    assert r0.standard_error == pytest.approx(r0.classical_standard_error)
    r1 = prediction_powered_accuracy(human, judge, lam=1.0)
    # judge mean on the unlabelled items (0.75) plus the mean correction (-0.25)
    assert r1.estimate == pytest.approx(0.5)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_integer_weights_equal_repeated_rows(seed):
    rng = np.random.default_rng(seed)
    n = 30
    truth = rng.integers(0, 2, n).astype(float)
    judge = np.where(rng.uniform(size=n) < 0.2, 1 - truth, truth)
    conf = rng.uniform(0.05, 0.95, n)
    human = np.where(np.arange(n) % 3 == 0, truth, np.nan)
    w = rng.integers(1, 4, n)
    rep = np.repeat(np.arange(n), w)
    a = prediction_powered_brier_score(human, conf, judge_correct=judge, sample_weight=w)
    b = prediction_powered_brier_score(human[rep], conf[rep], judge_correct=judge[rep])
    for field in ("estimate", "standard_error", "lam", "classical_estimate", "judge_only"):
        assert getattr(a, field) == pytest.approx(getattr(b, field), rel=1e-10, abs=1e-12)
    # with lam fixed the estimate does not depend on the scale of the weights
    scaled = prediction_powered_accuracy(human, judge, sample_weight=w * 0.25, lam=1.0)
    same = prediction_powered_accuracy(human, judge, sample_weight=w, lam=1.0)
    assert scaled.estimate == pytest.approx(same.estimate, rel=1e-12)


def test_order_of_items_does_not_matter():
    rng = np.random.default_rng(3)
    n = 50
    truth = rng.integers(0, 2, n).astype(float)
    judge = rng.uniform(size=n)
    human = np.where(rng.uniform(size=n) < 0.3, truth, np.nan)
    perm = rng.permutation(n)
    a = prediction_powered_accuracy(human, judge)
    b = prediction_powered_accuracy(human[perm], judge[perm])
    assert a.estimate == pytest.approx(b.estimate, rel=1e-12)
    assert a.standard_error == pytest.approx(b.standard_error, rel=1e-12)


def test_constant_judge_falls_back_to_the_human_labels():
    res = prediction_powered_accuracy([1, 0, 1, None, None, None], [1, 1, 1, 1, 1, 1])
    assert res.lam == 0.0 and res.estimate == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("human", "judge", "exc", "match"),
    [
        ([1, 0, 1, 1], [1, 0, 1, 1], ValueError, "NaN or None"),
        ([1, None, None, None], [1, 0, 1, 1], ValueError, "at least 2 items"),
        ([1, 2, None, None], [1, 0, 1, 1], ValueError, "0 or 1"),
        ([1, 0, None, None], [1, 0, 1], ValueError, "one\\s+judge verdict per item"),
        ([1, 0, None, None], [1, 0, 1, 7], ValueError, "judge_correct"),
        (["yes", "no", None, None], [1, 0, 1, 1], TypeError, "human_correct"),
        ([[1, 0], [None, None]], [1, 0, 1, 1], ValueError, "1-D"),
    ],
)
def test_bad_input_names_the_parameter(human, judge, exc, match):
    with pytest.raises(exc, match=match):
        prediction_powered_accuracy(human, judge)


@pytest.mark.parametrize("lam", [-0.1, 1.5, "tuned", True])
def test_bad_lam(lam):
    with pytest.raises((TypeError, ValueError), match="lam"):
        prediction_powered_accuracy([1, 0, None, None], [1, 0, 1, 1], lam=lam)


def test_interval_metric_and_method_are_checked():
    res = prediction_powered_accuracy([1, 0, 1, None, None], [1, 1, 1, 0, 1])
    assert res.confidence_interval(metric="accuracy") == res.confidence_interval()
    with pytest.raises(ValueError, match="metric"):
        res.confidence_interval(metric="brier_score")
    with pytest.raises(ValueError, match="method"):
        res.confidence_interval(method="bootstrap")


@pytest.mark.parametrize("dtype", ["boolean", "object", "Int64", "Float64"])
def test_pandas_missing_values_mark_unlabelled_items(dtype):
    # pandas writes NA where no human labelled: the same as NaN or None
    pd = pytest.importorskip("pandas")
    human = [True, False, True, True, None, None, None, None]
    judge = [1, 1, 1, 0, 1, 0, 1, 1]
    ref = prediction_powered_accuracy([1, 0, 1, 1, None, None, None, None], judge)
    values = [pd.NA if v is None else v for v in human]
    if dtype in ("Int64", "Float64"):
        values = [pd.NA if v is None else int(v) for v in human]
    res = prediction_powered_accuracy(pd.Series(values, dtype=dtype), judge)
    assert res.estimate == ref.estimate and res.n_labeled == 4


@pytest.mark.parametrize("scale", [5e-324, 1e-320, 1e300])
def test_classical_estimate_at_odd_weight_scales(scale):
    # the classical (labelled-only) Brier score is a weighted mean: weights of
    # 5e-324 gave 0.1087 against 0.1212.  As frequency weights those are fewer
    # than two observations, refused as brier_inference refuses them; weights
    # of 1e300 give the estimate of unit weights
    rng = np.random.default_rng(71)
    p = np.round(rng.uniform(size=40), 2)
    y = (rng.uniform(size=40) < p).astype(float)
    human = np.where(np.arange(40) % 3 == 0, y, np.nan)
    w = rng.integers(1, 5, 40).astype(float)
    judge = (p >= 0.5).astype(float)
    ref = prediction_powered_brier_score(human, p, judge_correct=judge, sample_weight=w)
    if scale < 1:
        with pytest.raises(ValueError, match="at least 2 items with a human label"):
            prediction_powered_brier_score(
                human, p, judge_correct=judge, sample_weight=w * scale
            )
        return
    got = prediction_powered_brier_score(
        human, p, judge_correct=judge, sample_weight=w * scale
    )
    assert got.classical_estimate == pytest.approx(ref.classical_estimate, rel=1e-12)


def test_frequency_weights_summing_below_two_are_refused():
    # 20 labelled items of weight 1e-3 are 0.02 observations: the standard
    # error was about 1e1 (1e99 at weights of 1e-200); repeated rows refuse it
    human = np.r_[np.tile([1.0, 0.0], 10), np.full(20, np.nan)]
    judge = np.tile([1.0, 0.0, 1.0, 1.0], 10)
    w = np.full(40, 1e-3)
    with pytest.raises(ValueError, match=r"at least 2 items .*got 0\.02 and 0\.02"):
        prediction_powered_accuracy(human, judge, sample_weight=w)
    res = prediction_powered_accuracy(human, judge, sample_weight=w * 1000)
    assert np.isfinite(res.standard_error) and res.n_labeled == pytest.approx(20)
