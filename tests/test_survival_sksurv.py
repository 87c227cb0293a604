"""skbrier.survival with convention="sksurv" against scikit-survival, fixtures made by
tests/fixtures/survival/make_sksurv_fixtures.py (scikit-survival 0.28.0): simulated
data with ties and Cox models on gbsg2, whas500 and veterans_lung_cancer."""

import json
from pathlib import Path

import numpy as np
import pytest

from skbrier.survival import (
    brier_score_survival,
    index_of_prediction_accuracy,
    integrated_brier_score,
)

FIX = json.loads(
    (Path(__file__).parent / "fixtures" / "survival" / "sksurv_fixtures.json").read_text()
)
CASES = FIX["cases"]


def _structured(event, time):
    y = np.empty(len(event), dtype=[("event", bool), ("time", float)])
    y["event"], y["time"] = np.asarray(event, bool), time
    return y


def _case(name):
    return next(c for c in CASES if c["name"] == name)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_scikit_survival(case):
    y_tr = _structured(case["train_event"], case["train_time"])
    y_te = _structured(case["event"], case["time"])
    surv, times = np.array(case["surv"]), np.array(case["times"])
    # scikit-survival: brier_score(y_train, y_test, surv, times)
    bs = brier_score_survival(y_te, surv, times, convention="sksurv", train_event=y_tr)
    np.testing.assert_allclose(bs, case["brier"], rtol=0, atol=1e-12)
    ibs = integrated_brier_score(y_te, surv, times, convention="sksurv", train_event=y_tr)
    assert ibs == pytest.approx(case["ibs"], rel=0, abs=1e-12)
    # event and time arrays
    kw = dict(
        convention="sksurv",
        train_event=np.array(case["train_event"]),
        train_time=np.array(case["train_time"]),
    )
    event, time = np.array(case["event"]), np.array(case["time"])
    bs2 = brier_score_survival(event, time, surv, times, **kw)
    np.testing.assert_allclose(bs2, case["brier"], rtol=0, atol=1e-12)
    res = index_of_prediction_accuracy(event, time, surv, times, **kw)
    np.testing.assert_allclose(res.brier, case["brier"], rtol=0, atol=1e-12)
    assert res.ibs == pytest.approx(case["ibs"], rel=0, abs=1e-12)
    assert res.time_range == (times[0], times[-1])


def test_default_convention_differs_from_scikit_survival():
    # what a scikit-survival user gets without convention="sksurv"
    case = _case("gbsg2_coxph")
    y_te = _structured(case["event"], case["time"])
    surv, times = np.array(case["surv"]), np.array(case["times"])
    assert abs(integrated_brier_score(y_te, surv, times) - case["ibs"]) > 1e-3


def test_scikit_survival_argument_order_is_refused_with_the_translation():
    case = _case("ties")
    y_tr = _structured(case["train_event"], case["train_time"])
    y_te = _structured(case["event"], case["time"])
    surv, times = np.array(case["surv"]), np.array(case["times"])
    with pytest.raises(ValueError, match="convention='sksurv', train_event=y_train"):
        integrated_brier_score(y_tr, y_te, surv, times)


def test_conventions_differ_only_with_ties():
    # with the training data equal to the scored data, G(T_i-) and G(T_i) differ
    # only where a censoring shares an event's time
    for name, differ in (("light", False), ("many_ties", True)):
        case = _case(name)
        event, time = np.array(case["event"]), np.array(case["time"])
        surv, times = np.array(case["surv"]), np.array(case["times"])
        a = brier_score_survival(event, time, surv, times)
        b = brier_score_survival(
            event,
            time,
            surv,
            times,
            convention="sksurv",
            train_event=event,
            train_time=time,
        )
        assert bool(np.abs(a - b).max() > 1e-4) == differ


def test_training_data_equal_to_test_data_takes_the_same_values():
    # equal training times reuse the censoring model's row index; a permuted copy
    # of the training data goes through the generic lookup: same numbers
    rng = np.random.default_rng(5)
    n = 300
    time = np.round(rng.exponential(2.0, n), 1) + 0.1
    event = (rng.random(n) < 0.6).astype(int)
    times = np.array([0.5, 1.0, 2.0])
    surv = np.exp(-np.outer(rng.uniform(0.2, 0.6, n), times))
    perm = rng.permutation(n)
    kw = dict(convention="sksurv")
    same = brier_score_survival(
        event, time, surv, times, train_event=event, train_time=time, **kw
    )
    generic = brier_score_survival(
        event, time, surv, times, train_event=event[perm], train_time=time[perm], **kw
    )
    np.testing.assert_allclose(same, generic, rtol=0, atol=1e-14)


def test_live_scikit_survival_if_installed():
    sk = pytest.importorskip("sksurv.metrics")
    rng = np.random.default_rng(0)
    n = 300
    t = np.round(rng.exponential(2.0, n), 1) + 0.1
    e = rng.random(n) < 0.6
    tt = np.round(rng.exponential(2.0, 2 * n), 1) + 0.1
    et = rng.random(2 * n) < 0.6
    times = np.array([0.5, 1.0, 2.0])
    times = times[times < min(t.max(), tt.max())]
    surv = np.sort(rng.random((n, times.size)), axis=1)[:, ::-1]
    y_tr, y_te = _structured(et, tt), _structured(e, t)
    _, ref = sk.brier_score(y_tr, y_te, surv, times)
    got = brier_score_survival(y_te, surv, times, convention="sksurv", train_event=y_tr)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    ref_ibs = sk.integrated_brier_score(y_tr, y_te, surv, times)
    got_ibs = integrated_brier_score(
        y_te, surv, times, convention="sksurv", train_event=y_tr
    )
    assert got_ibs == pytest.approx(ref_ibs, rel=0, abs=1e-12)


@pytest.mark.parametrize("dataset", ["gbsg2", "whas500"])
def test_live_user_guide_example_with_the_estimator(dataset):
    # scikit-survival's user guide: a Cox model, IBS on a daily grid between the
    # 10th and 90th percentiles of the times
    pytest.importorskip("sksurv")
    from sklearn.model_selection import train_test_split
    from sksurv import datasets
    from sksurv.linear_model import CoxPHSurvivalAnalysis
    from sksurv.metrics import integrated_brier_score as sk_ibs
    from sksurv.preprocessing import OneHotEncoder

    X, y = getattr(datasets, f"load_{dataset}")()
    X = OneHotEncoder().fit_transform(X).astype(float)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=1)
    est = CoxPHSurvivalAnalysis(alpha=1e-4).fit(X_tr, y_tr)
    t_name = y.dtype.names[1]
    lower, upper = np.percentile(y[t_name], [10, 90])
    times = np.arange(lower, upper + 1)
    times = times[times < y_te[t_name].max()]
    preds = np.vstack([fn(times) for fn in est.predict_survival_function(X_te)])
    ref = sk_ibs(y_tr, y_te, preds, times)
    # the fitted estimator directly: f(estimator, X, y, times)
    got = integrated_brier_score(
        est, X_te, y_te, times, convention="sksurv", train_event=y_tr
    )
    assert got == pytest.approx(ref, rel=0, abs=1e-12)
    # its survival functions as surv_proba
    fns = est.predict_survival_function(X_te)
    got2 = integrated_brier_score(y_te, fns, times, convention="sksurv", train_event=y_tr)
    assert got2 == pytest.approx(ref, rel=0, abs=1e-12)
    res = index_of_prediction_accuracy(
        est, X_te, y_te, times, convention="sksurv", train_event=y_tr
    )
    assert res.ibs == pytest.approx(ref, rel=0, abs=1e-12)


def test_a_time_of_the_censoring_model_is_read_at_itself_not_at_a_near_one():
    # scikit-survival reads a time within machine epsilon below a censoring
    # time at that time, but a time that is itself a censoring time at itself:
    # with both 0.3 and 0.1 + 0.2 among the training times, 0.3 was read at
    # 0.1 + 0.2
    sksurv_metrics = pytest.importorskip("sksurv.metrics")
    rng = np.random.default_rng(12)
    near = 0.1 + 0.2
    train_time = np.r_[0.3, near, 0.3, near, rng.uniform(0.05, 2.0, 40)]
    train_event = np.r_[0, 0, 1, 0, rng.integers(0, 2, 40)]
    time = np.r_[0.3, near, 0.3, rng.uniform(0.05, 1.9, 30)]
    event = np.r_[1, 1, 0, rng.integers(0, 2, 30)]
    times = np.array([0.3, 0.8, 1.5])
    surv = np.exp(-np.outer(rng.uniform(0.3, 1.0, len(time)), times))
    y_tr, y_te = _structured(train_event, train_time), _structured(event, time)
    _, expected = sksurv_metrics.brier_score(y_tr, y_te, surv, times)
    got = brier_score_survival(y_te, surv, times, convention="sksurv", train_event=y_tr)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-14)
    # the censoring model fitted on the scored data itself (a scorer's case)
    _, expected = sksurv_metrics.brier_score(y_te, y_te, surv, times)
    got = brier_score_survival(y_te, surv, times, convention="sksurv", train_event=y_te)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-14)
