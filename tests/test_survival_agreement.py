"""skbrier.survival: the functions, the scorer and the results give the same
numbers on the same data, in both conventions (riskRegression's and
scikit-survival's), and a check has one home."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator

import skbrier.survival
from skbrier.survival import (
    brier_score_survival,
    compare_brier_survival,
    index_of_prediction_accuracy,
    integrated_brier_score,
    make_survival_scorer,
)

CASES = json.loads(
    (
        Path(__file__).parent / "fixtures" / "survival" / "riskregression_fixtures.json"
    ).read_text()
)
CASE = next(c for c in CASES if c["name"] == "ties")  # the conventions differ with ties
EVENT = np.array(CASE["status"])
TIME = np.array(CASE["time"], float)
TIMES = np.array(CASE["times"], float)
SURV = np.array(CASE["surv_A"])
SURV_B = np.array(CASE["surv_B"])
Y = np.empty(len(EVENT), dtype=[("event", bool), ("time", float)])
Y["event"], Y["time"] = EVENT.astype(bool), TIME
X = np.arange(len(EVENT), dtype=float)[:, None]  # the row of SURV


class _Lookup(BaseEstimator):
    """Survival functions in scikit-survival's API, read from the fixture at TIMES."""

    def fit(self, X, y):
        return self

    def predict_survival_function(self, X):
        def fn(t, row):
            return row[np.searchsorted(TIMES, np.asarray(t, dtype=float))]

        return [lambda t, row=SURV[int(i)]: fn(t, row) for i in X[:, 0]]


def _kwargs(convention):
    return {"train_event": Y} if convention == "sksurv" else {}


@pytest.mark.parametrize("convention", ["riskRegression", "sksurv"])
def test_scorer_equals_the_function_in_each_convention(convention):
    scorer = make_survival_scorer(TIMES, convention=convention)
    ibs = integrated_brier_score(
        Y, SURV, TIMES, convention=convention, **_kwargs(convention)
    )
    assert scorer(_Lookup(), X, Y) == pytest.approx(-ibs, rel=1e-13, abs=0)
    s_bs = make_survival_scorer(TIMES, metric="brier_score", convention=convention)
    bs = brier_score_survival(Y, SURV, TIMES, convention=convention, **_kwargs(convention))
    assert s_bs(_Lookup(), X, Y) == pytest.approx(-bs.mean(), rel=1e-13, abs=0)
    # an explicit rule is the function's too
    for rule in ("step", "trapezoid"):
        s = make_survival_scorer(TIMES, convention=convention, integration=rule)
        ibs = integrated_brier_score(
            Y, SURV, TIMES, convention=convention, integration=rule, **_kwargs(convention)
        )
        assert s(_Lookup(), X, Y) == pytest.approx(-ibs, rel=1e-13, abs=0)


@pytest.mark.parametrize("convention", ["riskRegression", "sksurv"])
@pytest.mark.parametrize("metric", ["integrated_brier_score", "brier_score"])
def test_weighted_scorer_is_the_scorer_of_repeated_rows(convention, metric):
    # with convention="sksurv" the scorer fits the censoring model on the
    # validation fold: it ignored the fold's sample_weight there, so integer
    # weights did not score as the repeated rows
    w = np.arange(len(EVENT)) % 4
    rep = np.repeat(np.arange(len(EVENT)), w)
    scorer = make_survival_scorer(TIMES, convention=convention, metric=metric)
    weighted = scorer(_Lookup(), X, Y, sample_weight=w)
    repeated = scorer(_Lookup(), X[rep], Y[rep])
    assert weighted == pytest.approx(repeated, rel=1e-12, abs=0)


def test_default_scorer_is_the_default_function():
    scorer = make_survival_scorer(TIMES)
    assert scorer(_Lookup(), X, Y) == pytest.approx(
        -integrated_brier_score(Y, SURV, TIMES), rel=1e-13, abs=0
    )
    # the conventions (and their rules) do differ on these data
    assert scorer(_Lookup(), X, Y) != pytest.approx(
        make_survival_scorer(TIMES, convention="sksurv")(_Lookup(), X, Y), rel=1e-6
    )


def test_sksurv_scorer_equals_scikit_survival():
    sm = pytest.importorskip("sksurv.metrics")
    scorer = make_survival_scorer(TIMES, convention="sksurv")
    # a scorer sees only the validation fold: the censoring model is fitted on it
    expected = sm.integrated_brier_score(Y, Y, SURV, TIMES)
    assert scorer(_Lookup(), X, Y) == pytest.approx(-expected, rel=1e-12, abs=0)


def test_scorer_refuses_bad_convention_and_training_outcome():
    with pytest.raises(ValueError, match="convention"):
        make_survival_scorer(TIMES, convention="pec")
    with pytest.raises(ValueError, match="integration"):
        make_survival_scorer(TIMES, integration="simpson")


@pytest.mark.parametrize("convention", ["riskRegression", "sksurv"])
def test_results_equal_the_functions(convention):
    kw = _kwargs(convention)
    res = index_of_prediction_accuracy(Y, SURV, TIMES, convention=convention, **kw)
    np.testing.assert_allclose(
        res.brier,
        brier_score_survival(Y, SURV, TIMES, convention=convention, **kw),
        rtol=1e-13,
    )
    assert res.ibs == pytest.approx(
        integrated_brier_score(Y, SURV, TIMES, convention=convention, **kw), rel=1e-13
    )
    assert res.confidence_interval(metric="integrated_brier_score").estimate == res.ibs
    np.testing.assert_array_equal(
        res.confidence_interval(metric="brier_score").estimate, res.brier
    )
    cmp = compare_brier_survival(Y, SURV, SURV_B, TIMES, convention=convention, **kw)
    np.testing.assert_allclose(cmp.brier_a, res.brier, rtol=1e-13)
    np.testing.assert_allclose(
        cmp.brier_b,
        brier_score_survival(Y, SURV_B, TIMES, convention=convention, **kw),
        rtol=1e-13,
    )
    ci = cmp.confidence_interval(metric="brier_score")
    np.testing.assert_array_equal(ci.estimate, cmp.difference)


@pytest.mark.parametrize("times", [TIMES[1], [TIMES[1]]])
def test_integrated_score_needs_two_horizons_one_message(times):
    msg = "times must hold at least two horizons for an integrated score"
    with pytest.raises(ValueError, match=msg):
        integrated_brier_score(Y, SURV[:, 1], times)
    with pytest.raises(ValueError, match=msg):
        make_survival_scorer(times)


def test_the_two_horizons_check_has_one_home():
    root = Path(skbrier.survival.__file__).parent
    homes = [p.name for p in root.glob("*.py") if "must hold at least two" in p.read_text()]
    assert homes == ["_checks.py"], homes  # check_horizon_values(integrated=True)
