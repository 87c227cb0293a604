"""skbrier.survival: conventions, fitted estimators, integrated IPA and intervals
that state their horizons (numbers against the peers are in test_survival_reference.py
and test_survival_sksurv.py)."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from skbrier.survival import (
    SurvivalInterval,
    brier_score_survival,
    calibration_at_horizon,
    compare_brier_survival,
    decision_curve_survival,
    index_of_prediction_accuracy,
    integrated_brier_score,
)

CASES = json.loads(
    (
        Path(__file__).parent / "fixtures" / "survival" / "riskregression_fixtures.json"
    ).read_text()
)
CASE = CASES[0]  # light censoring, no ties
EVENT = np.array(CASE["status"])
TIME = np.array(CASE["time"], float)
TIMES = np.array(CASE["times"], float)
SURV = np.array(CASE["surv_A"])
Y = np.empty(len(EVENT), dtype=[("event", bool), ("time", float)])
Y["event"], Y["time"] = EVENT.astype(bool), TIME
RATE = -np.log(SURV[:, 0]) / TIMES[0]  # the fixture's predictions are exponential


class _Exponential(BaseEstimator):
    """A survival estimator in scikit-survival's API (step functions of time)."""

    def __init__(self, as_array=False):
        self.as_array = as_array

    def predict_survival_function(self, X):
        if self.as_array:
            return np.exp(-np.outer(X[:, 0], TIMES))
        return np.array(
            [lambda t, r=r: np.exp(-r * np.asarray(t, dtype=float)) for r in X[:, 0]],
            dtype=object,
        )


def test_fitted_estimator_equals_its_predictions():
    X = RATE[:, None]
    expected = brier_score_survival(Y, SURV, TIMES)
    np.testing.assert_allclose(
        brier_score_survival(_Exponential(), X, Y, TIMES), expected, rtol=1e-12
    )
    assert integrated_brier_score(_Exponential(), X, Y, times=TIMES) == pytest.approx(
        integrated_brier_score(Y, SURV, TIMES), rel=1e-12
    )
    res = index_of_prediction_accuracy(_Exponential(), X, Y, TIMES)
    np.testing.assert_allclose(res.ipa, index_of_prediction_accuracy(Y, SURV, TIMES).ipa)
    # the survival functions themselves, as a list or an object array
    fns = _Exponential().predict_survival_function(X)
    np.testing.assert_allclose(brier_score_survival(Y, list(fns), TIMES), expected)
    cmp = compare_brier_survival(Y, fns, SURV, TIMES)
    np.testing.assert_allclose(cmp.difference, 0.0, atol=1e-12)
    # nested lists of numbers are numbers, not functions
    np.testing.assert_allclose(brier_score_survival(Y, SURV.tolist(), TIMES), expected)


def test_estimator_misuse_is_explained():
    X = RATE[:, None]
    with pytest.raises(TypeError, match="structured array"):
        brier_score_survival(_Exponential(), X, EVENT, TIMES)
    with pytest.raises(TypeError, match="must return survival functions"):
        brier_score_survival(_Exponential(as_array=True), X, Y, TIMES)
    with pytest.raises(TypeError, match="not an estimator"):
        compare_brier_survival(_Exponential(), X, Y, SURV, TIMES)
    fns = _Exponential().predict_survival_function(X)
    with pytest.raises(TypeError, match="mixes survival functions"):
        brier_score_survival(Y, [*fns[:-1], 0.5], TIMES)

    def bad(t):
        raise ValueError("x must be within [0; 1]")

    with pytest.raises(ValueError, match="surv_proba: a survival function could not"):
        brier_score_survival(Y, [bad] * len(Y), TIMES)


def test_intervals_state_their_horizons():
    pd = pytest.importorskip("pandas")
    res = index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES)
    ci = res.confidence_interval(0.9, metric="ipa")
    assert isinstance(ci, SurvivalInterval)
    lo, hi = ci
    np.testing.assert_array_equal(lo, ci.low)
    np.testing.assert_array_equal(ci.times, TIMES)
    assert ci.time_range is None and ci.metric == "ipa" and ci.confidence_level == 0.9
    frame = ci.to_frame()
    assert isinstance(frame, pd.DataFrame)
    np.testing.assert_array_equal(frame["times"], TIMES)
    np.testing.assert_allclose(frame["low"], lo)
    assert "t=0.5: [" in repr(ci) and "'ipa', 90%" in repr(ci)
    assert "t=3" in ci.summary()
    # integrated: the time range it averages over (riskRegression: from 0)
    ci = res.confidence_interval(metric="integrated_ipa")
    assert ci.time_range == (0.0, 3.0)
    assert isinstance(ci.low, float) and ci.low < res.integrated_ipa < ci.high
    row = ci.to_frame().iloc[0]
    assert (row["time_from"], row["time_to"]) == (0.0, 3.0)
    assert "[0, 3]: [" in repr(ci)
    json.dumps(ci.to_dict())
    # the Brier bounds are cut to [0, 1], as riskRegression's
    b = res.confidence_interval(0.95, metric="integrated_brier_score")
    assert 0.0 <= b.low < res.ibs < b.high <= 1.0
    # the comparison's intervals too
    cmp = compare_brier_survival(EVENT, TIME, SURV, np.array(CASE["surv_B"]), TIMES)
    c = cmp.confidence_interval()
    assert c.metric == "brier_score" and np.array_equal(c.times, TIMES)
    assert "convention='riskRegression'" in repr(cmp)


def test_result_repr_and_summary_carry_horizons_and_range():
    res = index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES)
    r = repr(res)
    assert "times=[0.5, 1, 2, 3]" in r and "integrated over [0, 3]" in r
    assert "integrated over [0, 3] (step)" in res.summary()
    json.dumps(res.to_dict())
    sk = index_of_prediction_accuracy(
        EVENT, TIME, SURV, TIMES, convention="sksurv", train_event=EVENT, train_time=TIME
    )
    assert sk.time_range == (0.5, 3.0) and sk.integration == "trapezoid"
    assert "integrated over [0.5, 3]" in repr(sk)


def test_one_horizon_has_no_integrated_scores():
    res = index_of_prediction_accuracy(EVENT, TIME, SURV[:, 1], TIMES[1])
    assert res.time_range is None and np.isnan(res.integrated_ipa)
    assert "integrated" not in repr(res)
    with pytest.raises(ValueError, match="at least two horizons"):
        res.confidence_interval(metric="integrated_ipa")
    boot = index_of_prediction_accuracy(
        EVENT, TIME, SURV[:, 1], TIMES[1], n_resamples=20, random_state=0
    )
    assert np.isnan(boot.bootstrap[:, :, -1]).all()


def test_integration_rule_and_its_range():
    res = index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES, integration="trapezoid")
    assert res.time_range == (0.5, 3.0)
    assert res.ibs == pytest.approx(
        integrated_brier_score(EVENT, TIME, SURV, TIMES, integration="trapezoid"),
        rel=1e-13,
    )
    assert res.ibs == pytest.approx(
        np.trapezoid(res.brier, TIMES) / (TIMES[-1] - TIMES[0]), rel=1e-13
    )


def test_integrated_bootstrap_agrees_with_influence_function():
    res = index_of_prediction_accuracy(
        EVENT, TIME, SURV, TIMES, n_resamples=300, random_state=4
    )
    sd = np.nanstd(res.bootstrap[:, :, -1], axis=0, ddof=1)
    assert sd[0] == pytest.approx(res.se_ibs, rel=0.25)
    assert sd[1] == pytest.approx(res.se_integrated_ipa, rel=0.25)
    lo, hi = res.confidence_interval(0.9, metric="integrated_ipa", method="percentile")
    assert lo < res.integrated_ipa < hi
    basic = res.confidence_interval(0.9, metric="integrated_brier_score", method="basic")
    assert basic.time_range == (0.0, 3.0) and basic.method == "basic"


def test_sksurv_standard_errors_hold_the_training_censoring_model_fixed():
    # no ties: with the training data equal to the scored data the Brier scores
    # are riskRegression's, and the SEs its conservative ones
    kw = dict(convention="sksurv", train_event=EVENT, train_time=TIME)
    sk = index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES, **kw)
    rr = index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES, conservative=True)
    np.testing.assert_allclose(sk.brier, rr.brier, rtol=1e-13)
    np.testing.assert_allclose(sk.se_brier, rr.se_brier, rtol=1e-12)
    np.testing.assert_allclose(sk.se_ipa, rr.se_ipa, rtol=1e-12)
    cmp = compare_brier_survival(EVENT, TIME, SURV, np.array(CASE["surv_B"]), TIMES, **kw)
    assert cmp.convention == "sksurv"
    boot = index_of_prediction_accuracy(
        EVENT, TIME, SURV, TIMES, n_resamples=30, random_state=0, **kw
    )
    assert np.isfinite(boot.bootstrap[:, :, :-1]).all()


def test_structured_outcome_with_keyword_horizons():
    # f(y, surv, times=...) lost the keyword: "times must be given" (and
    # "horizon must be numbers, got dtype object" for one horizon)
    event = np.array([1, 0, 1, 1, 0, 1, 0, 1])
    time = np.array([1.0, 2, 3, 4, 5, 6, 7, 8])
    surv = np.linspace(0.9, 0.2, 8)[:, None]
    y = np.array(list(zip(event.astype(bool), time)), dtype=[("e", bool), ("t", float)])
    ref = brier_score_survival(event, time, surv, 3.5)
    assert brier_score_survival(y, surv, times=3.5) == ref
    assert brier_score_survival(y, surv, 3.5) == ref
    got = compare_brier_survival(y, surv, surv * 0.9, times=[3.5])
    np.testing.assert_array_equal(
        got.difference,
        compare_brier_survival(event, time, surv, surv * 0.9, [3.5]).difference,
    )
    got = compare_brier_survival(y, surv, surv_proba_b=surv * 0.9, times=[3.5])
    np.testing.assert_array_equal(
        got.difference,
        compare_brier_survival(event, time, surv, surv * 0.9, [3.5]).difference,
    )
    np.testing.assert_array_equal(
        index_of_prediction_accuracy(y, surv, times=[3.5]).ipa,
        index_of_prediction_accuracy(event, time, surv, [3.5]).ipa,
    )
    np.testing.assert_array_equal(
        calibration_at_horizon(y, surv[:, 0], horizon=3.5, n_bins=2).observed,
        calibration_at_horizon(event, time, surv[:, 0], 3.5, n_bins=2).observed,
    )
    np.testing.assert_array_equal(
        decision_curve_survival(y, surv[:, 0], horizon=3.5, thresholds=[0.3]).net_benefit,
        decision_curve_survival(event, time, surv[:, 0], 3.5, thresholds=[0.3]).net_benefit,
    )
