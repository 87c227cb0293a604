"""skbrier.survival: bad input, weights, bootstrap, scorers, protocol."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from skbrier.survival import (
    brier_score_survival,
    calibration_at_horizon,
    compare_brier_survival,
    decision_curve_survival,
    index_of_prediction_accuracy,
    integrated_brier_score,
    make_survival_scorer,
)

CASE = json.loads(
    (
        Path(__file__).parent / "fixtures" / "survival" / "riskregression_fixtures.json"
    ).read_text()
)[2]  # the case with tied event and censoring times
EVENT = np.array(CASE["status"])
TIME = np.array(CASE["time"], float)
TIMES = np.array(CASE["times"], float)
SURV = np.array(CASE["surv_A"])
SURV_B = np.array(CASE["surv_B"])


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(y_time=-TIME), ValueError, "y_time must be non-negative"),
        (dict(y_event=EVENT * 2), ValueError, "y_event must be 0/1"),
        (dict(y_event=EVENT + 1), ValueError, r"found 2\. R's Surv coding .* y_event - 1"),
        (dict(y_event=EVENT - 0.5), ValueError, r"found -?0\.5\.$"),
        (dict(y_event=EVENT.astype(str)), TypeError, "y_event"),
        (
            dict(y_time=np.where(np.arange(len(TIME)) == 3, np.nan, TIME)),
            ValueError,
            "finite",
        ),
        (
            dict(surv=SURV * 1.5),
            ValueError,
            r"surv_proba must be survival probabilities in \[0, 1\]",
        ),
        (dict(surv=np.where(np.isnan(SURV), 0, -SURV)), ValueError, r"\[0, 1\]"),
        (dict(surv=SURV[:, ::-1]), ValueError, "non-increasing"),
        (dict(surv=SURV[:, :2]), ValueError, "shape"),
        (dict(times=TIMES[::-1]), ValueError, "strictly increasing"),
        (dict(times=np.r_[TIMES[:2], TIMES[1:]]), ValueError, "strictly increasing"),
        (dict(times=np.r_[TIMES[:-1], TIME.max() + 1]), ValueError, "within follow-up"),
        (dict(times=np.r_[-1.0, TIMES[1:]]), ValueError, "times must be non-negative"),
        (dict(y_time=TIME[:-1]), ValueError, "samples"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, exc, match):
    args = dict(y_event=EVENT, y_time=TIME, surv=SURV, times=TIMES)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        brier_score_survival(args["y_event"], args["y_time"], args["surv"], args["times"])


def test_bad_options():
    with pytest.raises(ValueError, match="convention must be one of"):
        brier_score_survival(EVENT, TIME, SURV, TIMES, convention="pec")
    with pytest.raises(ValueError, match="convention='sksurv' needs the training"):
        brier_score_survival(EVENT, TIME, SURV, TIMES, convention="sksurv")
    with pytest.raises(ValueError, match="only with convention='sksurv'"):
        brier_score_survival(EVENT, TIME, SURV, TIMES, train_event=EVENT, train_time=TIME)
    with pytest.raises(ValueError, match="integration"):
        integrated_brier_score(EVENT, TIME, SURV, TIMES, integration="simpson")
    with pytest.raises(ValueError, match="at least two"):
        integrated_brier_score(EVENT, TIME, SURV[:, 0], TIMES[0])
    with pytest.raises(ValueError, match="n_resamples"):
        index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES, n_resamples=1)
    # horizons beyond the training follow-up (scikit-survival's convention)
    with pytest.raises(ValueError, match="follow-up of the training data"):
        brier_score_survival(
            EVENT,
            TIME,
            SURV,
            TIMES,
            convention="sksurv",
            train_event=EVENT[TIME < 2],
            train_time=TIME[TIME < 2],
        )


def test_censoring_survivor_zero_raises_instead_of_silent_weight():
    # the training censoring model drops to 0 at 2.0 (everyone left is censored there);
    # a case at 2.0 would need 1 / G(2.0) (scikit-survival sets that weight to 0)
    tr_e, tr_t = np.array([1, 0, 0]), np.array([1.0, 2.0, 2.0])
    e, t = np.array([1, 1, 0]), np.array([0.5, 2.0, 2.0])
    s = np.array([[0.5], [0.4], [0.9]])
    with pytest.raises(ValueError, match="censoring survivor function is 0"):
        brier_score_survival(
            e, t, s, [2.0], convention="sksurv", train_event=tr_e, train_time=tr_t
        )
    # riskRegression's convention (G(T-) of the scored data) is defined there
    assert np.isfinite(brier_score_survival(e, t, s, [2.0])).all()


def test_scalar_horizon_gives_float_and_bool_events():
    bs = brier_score_survival(EVENT.astype(bool), TIME, SURV[:, 1], TIMES[1])
    assert isinstance(bs, float)
    assert bs == pytest.approx(brier_score_survival(EVENT, TIME, SURV, TIMES)[1], abs=1e-15)


@pytest.mark.parametrize("seed", [0, 1])
def test_frequency_weights_equal_repeated_rows(seed):
    w = np.random.default_rng(seed).integers(0, 4, len(EVENT))
    r = np.repeat(np.arange(len(EVENT)), w)
    a = index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES, sample_weight=w)
    b = index_of_prediction_accuracy(EVENT[r], TIME[r], SURV[r], TIMES)
    for f in ("brier", "brier_null", "ipa", "se_brier", "se_ipa"):
        np.testing.assert_allclose(getattr(a, f), getattr(b, f), rtol=1e-10, atol=1e-13)
    ones = index_of_prediction_accuracy(
        EVENT, TIME, SURV, TIMES, sample_weight=np.ones(len(EVENT))
    )
    plain = index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES)
    np.testing.assert_allclose(ones.se_ipa, plain.se_ipa, rtol=1e-13)


def test_bootstrap_reproducible_and_close_to_wald():
    a = index_of_prediction_accuracy(
        EVENT, TIME, SURV, TIMES, n_resamples=200, random_state=3
    )
    b = index_of_prediction_accuracy(
        EVENT, TIME, SURV, TIMES, n_resamples=200, random_state=3, n_jobs=2
    )
    np.testing.assert_array_equal(a.bootstrap, b.bootstrap)
    assert a.bootstrap.shape == (200, 2, len(TIMES) + 1)  # + the integrated scores
    sd = np.nanstd(a.bootstrap[:, 1, :-1], axis=0, ddof=1)
    np.testing.assert_allclose(sd[:-1], a.se_ipa[:-1], rtol=0.35)  # last: end of follow-up
    lo, hi = a.confidence_interval(0.9, metric="ipa", method="percentile")
    assert (lo < a.ipa).all() and (a.ipa < hi).all()
    with pytest.raises(ValueError, match="no bootstrap"):
        index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES).confidence_interval(
            method="basic"
        )
    c = compare_brier_survival(
        EVENT, TIME, SURV, SURV_B, TIMES, n_resamples=100, random_state=0
    )
    assert c.bootstrap.shape == (100, len(TIMES))
    lo, hi = c.confidence_interval(0.95, method="basic")
    assert lo.shape == (len(TIMES),)


def test_result_protocol():
    res = index_of_prediction_accuracy(EVENT, TIME, SURV, TIMES)
    d = res.to_dict()
    assert set(d) >= {"brier", "ipa", "se_ipa", "times"}
    assert "t=" in res.summary()
    pd = pytest.importorskip("pandas")
    assert isinstance(res.to_frame(), pd.DataFrame) and len(res.to_frame()) == len(TIMES)
    assert "<table>" in res._repr_html_()
    cal = calibration_at_horizon(EVENT, TIME, SURV[:, 1], TIMES[1], n_bins=4)
    assert len(cal.to_frame()) == len(cal.predicted)


class _Exp(BaseEstimator):
    def fit(self, X, y):
        return self

    def predict_survival_function(self, X):
        return [lambda t, r=r: np.exp(-0.3 * r * np.asarray(t)) for r in np.exp(X[:, 0])]


def test_scorer_equals_metric_and_works_in_grid_search():
    from sklearn.model_selection import KFold, cross_val_score

    y = np.empty(len(EVENT), dtype=[("event", bool), ("time", float)])
    y["event"], y["time"] = EVENT.astype(bool), TIME
    X = np.random.default_rng(0).normal(size=(len(EVENT), 1))
    times = TIMES[:3]
    scorer = make_survival_scorer(times)
    est = _Exp()
    surv = np.exp(-0.3 * np.exp(X[:, 0])[:, None] * times[None, :])
    assert scorer(est, X, y) == pytest.approx(
        -integrated_brier_score(y, surv, times), abs=1e-14
    )
    s2 = make_survival_scorer(times, metric="brier_score")
    assert s2(est, X, y) == pytest.approx(
        -brier_score_survival(y, surv, times).mean(), abs=1e-14
    )
    scores = cross_val_score(
        est, X, y, scoring=scorer, cv=KFold(3, shuffle=True, random_state=0)
    )
    assert scores.shape == (3,) and (scores < 0).all()
    with pytest.raises(ValueError, match="metric"):
        make_survival_scorer(times, metric="auc")


def test_scorer_with_scikit_survival_grid_search():
    pytest.importorskip("sksurv")
    from sklearn.model_selection import GridSearchCV
    from sksurv.linear_model import CoxPHSurvivalAnalysis

    rng = np.random.default_rng(1)
    X = rng.normal(size=(150, 2))
    t = rng.exponential(1 / np.exp(0.8 * X[:, 0])) + 0.01
    c = rng.exponential(3.0, 150)
    y = np.empty(150, dtype=[("event", bool), ("time", float)])
    y["event"], y["time"] = t <= c, np.minimum(t, c)
    times = np.quantile(y["time"], [0.2, 0.4, 0.6])
    gs = GridSearchCV(
        CoxPHSurvivalAnalysis(),
        {"alpha": [0.01, 10.0]},
        cv=3,
        scoring=make_survival_scorer(times),
    ).fit(X, y)
    assert np.isfinite(gs.best_score_)


def test_decision_curve_dict_and_identity_with_binary_case():
    # no censoring before the horizon: KM risk = event fraction, NB = binary NB
    e = np.array([1, 0, 1, 0, 1, 0, 0, 1])
    t = np.array([1.0, 5, 2, 5, 3, 5, 5, 4])
    risk = np.array([0.8, 0.3, 0.6, 0.2, 0.4, 0.5, 0.1, 0.7])
    res = decision_curve_survival(e, t, {"m": 1 - risk}, 4.0, thresholds=[0.25, 0.55])
    from skbrier.metrics.net_benefit import net_benefit

    expected = [net_benefit(e, risk, threshold=p) for p in (0.25, 0.55)]
    np.testing.assert_allclose(res.net_benefit["m"], expected, atol=1e-12)


# --------------------------------------------------------------------------- audit
def _weighted_data(seed=4, n=80):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    time = np.round(rng.exponential(1.0 / (0.5 * np.exp(0.8 * x))), 1) + 0.1
    cens = np.round(rng.exponential(2.0, n), 1) + 0.1
    event = (time <= cens).astype(int)
    time = np.minimum(time, cens)
    times = np.array([0.5, 1.0, 2.0])
    surv = np.exp(-0.45 * np.outer(np.exp(0.7 * x), times))
    w = rng.integers(1, 4, n).astype(float)
    return event, time, surv, times, w


@pytest.mark.parametrize("scale", [1.0, 1e-200])
def test_weights_too_small_to_count_are_refused_for_standard_errors(scale):
    # weights summing to 1 (or x1e-200) gave NaN standard errors silently;
    # frequency weights make the total weight the sample size
    event, time, surv, times, w = _weighted_data()
    small = w / w.sum() * scale
    with pytest.raises(ValueError, match="sample_weight sums to"):
        index_of_prediction_accuracy(event, time, surv, times, sample_weight=small)
    with pytest.raises(ValueError, match="sample_weight sums to"):
        compare_brier_survival(event, time, surv, surv**2, times, sample_weight=small)
    with pytest.raises(ValueError, match="y_time has 2 samples; at least 3 observations"):
        index_of_prediction_accuracy([1, 0], [1.0, 2.0], [[0.5], [0.6]], [1.5])


@pytest.mark.parametrize("scale", [7.0, 1e200])
def test_large_weights_keep_the_standard_errors_of_frequency_weights(scale):
    # weights x1e200 overflowed (W C(u) / Y(u)^2) into NaN and a RuntimeWarning;
    # with frequency weights var scales as (W - 1) / (c W - 1)
    event, time, surv, times, w = _weighted_data()
    total = w.sum()
    ratio = np.sqrt((total - 1.0) / (scale * total - 1.0))
    ref = index_of_prediction_accuracy(event, time, surv, times, sample_weight=w)
    cmp_ref = compare_brier_survival(event, time, surv, surv**2, times, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = index_of_prediction_accuracy(
            event, time, surv, times, sample_weight=w * scale
        )
        cmp_got = compare_brier_survival(
            event, time, surv, surv**2, times, sample_weight=w * scale
        )
    np.testing.assert_allclose(got.ipa, ref.ipa, rtol=1e-10)
    np.testing.assert_allclose(got.se_brier, ref.se_brier * ratio, rtol=1e-8)
    np.testing.assert_allclose(got.se_ipa, ref.se_ipa * ratio, rtol=1e-8)
    assert got.se_integrated_ipa == pytest.approx(ref.se_integrated_ipa * ratio, rel=1e-8)
    np.testing.assert_allclose(cmp_got.se, cmp_ref.se * ratio, rtol=1e-8)


def test_undefined_bootstrap_ipa_is_reported_not_a_nan_bound():
    # a resample with no event before the horizon has a null Brier score of 0:
    # its IPA (-inf) made numpy's interpolated percentile NaN silently
    event, time, surv, times, _ = _weighted_data(seed=6, n=40)
    times = np.array([time[event == 1].min(), 1.0, 2.0])
    surv = np.exp(-0.3 * np.outer(np.ones(40), times)) * np.linspace(1.0, 0.9, 40)[:, None]
    res = index_of_prediction_accuracy(
        event, time, surv, times, n_resamples=200, random_state=0
    )
    with pytest.warns(RuntimeWarning, match="NaN"):
        low, high = res.confidence_interval(0.9, method="percentile")
    assert np.isfinite(low).all() and np.isfinite(high).all()


def test_structured_outcome_with_time_first_is_explained():
    y = np.array(
        list(zip(TIME, EVENT.astype(bool))), dtype=[("time", float), ("event", bool)]
    )
    with pytest.raises(ValueError, match=r"first field.*event indicator"):
        brier_score_survival(y, SURV, TIMES)


def test_nullable_pandas_predictions_are_numbers():
    # a DataFrame of pandas' nullable Float64 was "dtype object" (the outcome
    # columns of the same dtype were read)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(SURV, dtype="Float64")
    np.testing.assert_array_equal(
        brier_score_survival(EVENT, TIME, frame, TIMES),
        brier_score_survival(EVENT, TIME, SURV, TIMES),
    )
    with pytest.raises(TypeError, match="surv_proba must be .* without missing values"):
        brier_score_survival(EVENT, TIME, frame.mask(frame > 0.9), TIMES)
    res = calibration_at_horizon(
        EVENT, TIME, pd.Series(SURV[:, 1], dtype="Float64"), TIMES[1], n_bins=3
    )
    ref = calibration_at_horizon(EVENT, TIME, SURV[:, 1], TIMES[1], n_bins=3)
    np.testing.assert_array_equal(res.observed, ref.observed)


def test_bootstrap_of_integer_weights_is_the_bootstrap_of_repeated_rows():
    # a weighted row was drawn with all its copies at once (w * counts): a
    # cluster bootstrap, with wider intervals than the repeated rows'
    event, time, surv, times, w = _weighted_data(seed=8, n=50)
    rep = np.repeat(np.arange(50), w.astype(int))
    kw = dict(n_resamples=60, random_state=3)
    a = index_of_prediction_accuracy(event, time, surv, times, sample_weight=w, **kw)
    b = index_of_prediction_accuracy(event[rep], time[rep], surv[rep], times, **kw)
    np.testing.assert_allclose(a.bootstrap, b.bootstrap, rtol=1e-12, atol=1e-12)
    c = compare_brier_survival(event, time, surv, surv**2, times, sample_weight=w, **kw)
    d = compare_brier_survival(
        event[rep], time[rep], surv[rep], surv[rep] ** 2, times, **kw
    )
    np.testing.assert_allclose(c.bootstrap, d.bootstrap, rtol=1e-12, atol=1e-12)


def test_ipa_before_the_first_event_is_undefined_not_minus_infinity():
    # a horizon before the first event: the null model's Brier score is 0 and
    # the IPA was -inf silently (the bootstrap replicates gave NaN); a skill
    # relative to a perfect reference is undefined (brier_skill_score's rule)
    from sklearn.exceptions import UndefinedMetricWarning

    event = np.array([0, 1, 0, 1, 1, 0, 1, 0, 1, 1])
    time = np.array([0.5, 2.0, 1.5, 3.0, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0])
    times = np.array([1.0, 3.5, 6.5])
    surv = np.exp(-0.2 * np.outer(np.linspace(0.5, 1.5, 10), times))
    with pytest.warns(
        UndefinedMetricWarning, match=r"undefined \(nan\) at times \[1\]: the null model"
    ):
        res = index_of_prediction_accuracy(
            event, time, surv, times, n_resamples=20, random_state=0
        )
    assert res.brier[0] > 0 and res.brier_null[0] == 0
    assert np.isnan(res.ipa[0]) and np.isnan(res.se_ipa[0])
    assert np.isfinite(res.ipa[1:]).all() and np.isfinite(res.integrated_ipa)
    assert np.isnan(res.bootstrap[:, 1, 0]).all()
    # its bootstrap bounds are NaN with skbrier's count of NaN replicates, not
    # numpy's "All-NaN slice encountered" as well
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        low, high = res.confidence_interval(method="percentile")
    assert np.isnan(low[0]) and np.isnan(high[0]) and np.isfinite(low[1:]).all()
    messages = [str(w.message) for w in caught]
    assert any("bootstrap replicates are NaN" in m for m in messages)
    assert not any("All-NaN" in m for m in messages), messages
    # no event at all before the last horizon: every IPA, the integrated one too
    with pytest.warns(UndefinedMetricWarning, match="integrated"):
        none = index_of_prediction_accuracy(np.zeros(10), time, surv, times)
    assert np.isnan(none.ipa).all() and np.isnan(none.integrated_ipa)
    # the last horizon where the Kaplan--Meier curve reaches 0: undefined too
    with pytest.warns(UndefinedMetricWarning, match=r"at times \[8\]: .* survival of 0"):
        last = index_of_prediction_accuracy(np.ones(10), time, surv[:, 1:], [3.5, 8.0])
    assert np.isnan(last.ipa[1]) and np.isfinite(last.ipa[0])


def test_common_outcome_mistakes_are_explained():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"event": EVENT.astype(bool), "time": TIME})
    # an (event, time) table or tuple in place of y: "times must be given"
    with pytest.raises(ValueError, match=r"y_event must be 1-D.*y_event=.*y_time="):
        brier_score_survival(frame, SURV, TIMES)
    with pytest.raises(ValueError, match=r"y_event must be 1-D.*structured array"):
        brier_score_survival((EVENT, TIME), SURV, TIMES)
    # a structured outcome with the time first and an integer status: "found 0.763"
    y = np.array(list(zip(TIME, EVENT)), dtype=[("time", float), ("status", int)])
    with pytest.raises(ValueError, match=r"first field.*\[\['status', 'time'\]\]"):
        brier_score_survival(y, SURV, TIMES)
    # a missing event indicator was "must be 0/1 ..., found nan"
    pd_event = pd.array(np.where(np.arange(len(EVENT)) == 4, None, EVENT), dtype="Int64")
    with pytest.raises(ValueError, match="y_event has missing values.*1 of 250.*index 4"):
        brier_score_survival(pd_event, TIME, SURV, TIMES)
    # competing risks (cause codes 0/1/2) are not supported: say so
    causes = np.where(EVENT == 1, 1 + (np.arange(len(EVENT)) % 2), 0)
    with pytest.raises(ValueError, match="found 2.*competing risks"):
        brier_score_survival(causes, TIME, SURV, TIMES)


@pytest.mark.parametrize("func", [calibration_at_horizon, decision_curve_survival])
def test_a_matrix_for_one_horizon_is_explained(func):
    # "surv_proba must have shape (n_samples, n_times) = (n, 1)": a function
    # of one horizon takes one column
    with pytest.raises(ValueError, match=r"one horizon.*surv_proba\[:, k\]"):
        func(EVENT, TIME, SURV, TIMES[1])


def test_transposed_predictions_and_a_missing_horizon_are_explained():
    pd = pytest.importorskip("pandas")
    # lifelines and pycox return survival with the times as rows
    frame = pd.DataFrame(SURV.T, index=TIMES)
    with pytest.raises(ValueError, match=r"got \(5, 250\).*times as rows.*\.T"):
        brier_score_survival(EVENT, TIME, frame, TIMES)
    for func in (calibration_at_horizon, decision_curve_survival):
        with pytest.raises(TypeError, match="horizon must be given"):
            func(EVENT, TIME, SURV[:, 1])


def test_comparing_a_model_with_itself_is_refused():
    # the same predictions twice gave a difference of 0 with se 0 and NaN
    # p-values silently (compare_brier refuses a constant loss differential)
    with pytest.raises(ValueError, match="surv_proba_b is identical to surv_proba_a"):
        compare_brier_survival(EVENT, TIME, SURV, SURV.copy(), TIMES)
    # equal at one horizon only: that horizon's test is undefined (NaN), the
    # others are computed
    other = SURV.copy()
    other[:, 1:] = SURV[:, 1:] ** 1.1
    res = compare_brier_survival(EVENT, TIME, SURV, other, TIMES)
    assert res.difference[0] == 0 and np.isnan(res.p_value[0])
    assert np.isfinite(res.p_value[1:]).all()


def test_survival_functions_in_a_pandas_series_are_evaluated():
    # a Series of step functions was "dtype object (pandas.NA, None or non-numbers)"
    pd = pytest.importorskip("pandas")

    def step(row):
        return lambda t: np.interp(t, TIMES, row)

    funcs = [step(row) for row in SURV]
    ref = brier_score_survival(EVENT, TIME, SURV, TIMES)
    got = brier_score_survival(EVENT, TIME, pd.Series(funcs), TIMES)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-15)


def test_numbers_in_messages_have_four_significant_digits():
    # the range of bad predictions was written with 17 digits
    with pytest.raises(ValueError, match=r"found values in \[0\.01784, 3\.677\]\.$"):
        brier_score_survival(
            [1, 0, 1],
            [1.0, 2.0, 3.0],
            [[0.01783960353019378], [3.677100249084637], [1.0]],
            1.0,
        )
    # ... with as many more as show a value just above 1
    with pytest.raises(ValueError, match=r"found values in \[0\.5, 1\.000000000001\]"):
        brier_score_survival([1, 0, 1], [1.0, 2.0, 3.0], [[0.5], [1 + 1e-12], [1.0]], 1.0)


def test_decision_curve_without_an_event_by_the_horizon_is_refused():
    # the Kaplan--Meier prevalence was 0: the standardized net benefit of
    # to_frame() divided by it (numpy warnings, inf); decision_curve refuses
    # data without events the same way
    event = np.array([0, 0, 1, 0, 1, 1, 0, 1])
    time = np.arange(1.0, 9.0)
    with pytest.raises(ValueError, match=r"no event up to the horizon 2\.5.*undefined"):
        decision_curve_survival(event, time, np.linspace(0.9, 0.2, 8), 2.5)
    res = decision_curve_survival(event, time, np.linspace(0.9, 0.2, 8), 3.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert res.to_frame().shape[0] > 0


def test_an_estimator_without_survival_functions_is_explained():
    # e.g. scikit-survival's FastSurvivalSVM predicts risk scores only: it was
    # "y_event must be numbers without missing values, got dtype object"
    class RiskScores(BaseEstimator):
        def fit(self, X, y):
            return self

        def predict(self, X):
            return X[:, 0]

    y = np.empty(len(EVENT), dtype=[("event", bool), ("time", float)])
    y["event"], y["time"] = EVENT.astype(bool), TIME
    X = np.zeros((len(EVENT), 1))
    with pytest.raises(TypeError, match="RiskScores has no predict_survival_function"):
        brier_score_survival(RiskScores(), X, y, TIMES)
    with pytest.raises(TypeError, match="RiskScores has no predict_survival_function"):
        calibration_at_horizon(RiskScores(), X, y, TIMES[1])
