"""Trust sweep of skbrier.survival (held-out reproducers): inputs that gave a silent
wrong number, a stray exception or an unclear message."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from skbrier._core.binning import assign_bins, uniform_edges
from skbrier.survival import (
    brier_score_survival,
    calibration_at_horizon,
    decision_curve_survival,
    index_of_prediction_accuracy,
    integrated_brier_score,
    make_survival_scorer,
)

RNG = np.random.default_rng(11)
N = 20
TIME = RNG.integers(1, 9, N).astype(float)
EVENT = (RNG.random(N) < 0.6).astype(int)
EVENT[:2] = (1, 0)
TIMES = np.array([2.0, 4.0])
SURV = np.sort(RNG.random((N, 2)), axis=1)[:, ::-1].copy()


def _structured(event, time):
    y = np.empty(len(event), dtype=[("event", bool), ("time", float)])
    y["event"], y["time"] = np.asarray(event, bool), time
    return y


# -- integration rule: a span of subnormal times ------------------------------------
def test_trapezoid_integral_over_a_subnormal_span_is_the_mean_score():
    # np.diff(times) / 2 underflowed to 0 before the division by the span: IBS 0.0
    surv = np.full((3, 2), 0.5)
    got = integrated_brier_score(
        [1, 0, 1], [0.0, 5e-324, 1e-323], surv, [0.0, 5e-324], integration="trapezoid"
    )
    assert got == pytest.approx(0.25, rel=1e-12)


# -- the scorer reads survival functions as the functions do ---------------------------
class _ArraySurvival(BaseEstimator):
    """predict_survival_function returns numbers on its own grid, not functions."""

    def fit(self, X, y):
        return self

    def predict_survival_function(self, X):
        return np.tile(np.linspace(0.9, 0.5, 2), (len(X), 1))


def test_scorer_refuses_an_array_of_survival_as_the_functions_do():
    X, y = np.zeros((N, 1)), _structured(EVENT, TIME)
    with pytest.raises(TypeError, match="must return survival functions"):
        brier_score_survival(_ArraySurvival(), X, y, TIMES)
    # the scorer read the (n, 2) array as if it were at TIMES: a silent number
    with pytest.raises(TypeError, match="must return survival functions"):
        make_survival_scorer(TIMES)(_ArraySurvival(), X, y)


class _Exponential(BaseEstimator):
    def fit(self, X, y):
        return self

    def predict_survival_function(self, X):
        def fn(t, r):
            t = np.asarray(t, dtype=float)
            if (t > 8.0).any():
                raise ValueError("x must be within [0; 8]")
            return np.exp(-r * t)

        return [lambda t, r=r: fn(t, r) for r in X[:, 0]]


def test_scorer_checks_the_follow_up_before_evaluating_the_functions():
    X, y = RNG.random((N, 1)), _structured(EVENT, TIME)
    with pytest.raises(ValueError, match="times must lie within follow-up: 20 is beyond"):
        make_survival_scorer([1.0, 20.0])(_Exponential(), X, y)


def test_scorer_times_none_is_explained():
    with pytest.raises(TypeError, match="times must be given"):
        make_survival_scorer(None)


# -- the structured outcome with keywords --------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda y: brier_score_survival(y, surv_proba=SURV, times=TIMES),
        lambda y: integrated_brier_score(y, surv_proba=SURV, times=TIMES),
        lambda y: index_of_prediction_accuracy(y, surv_proba=SURV, times=TIMES).brier,
        lambda y: calibration_at_horizon(y, surv_proba=SURV[:, 0], horizon=2.0).observed,
        lambda y: (
            decision_curve_survival(
                y, surv_proba=SURV[:, 0], horizon=2.0, thresholds=[0.3]
            ).net_benefit
        ),
    ],
)
def test_structured_outcome_with_every_other_argument_by_keyword(call):
    # Python's "missing 1 required positional argument: 'y_time'"
    got = np.asarray(call(_structured(EVENT, TIME)), dtype=float)
    assert got.size > 0


def test_structured_outcome_by_keyword_equals_the_arrays():
    y = _structured(EVENT, TIME)
    np.testing.assert_array_equal(
        brier_score_survival(y, surv_proba=SURV, times=TIMES),
        brier_score_survival(EVENT, TIME, SURV, TIMES),
    )


# -- event indicators as text --------------------------------------------------------------
@pytest.mark.parametrize(
    "labels",
    [
        np.where(EVENT == 1, "dead", "alive"),
        np.where(EVENT == 1, "dead", "alive").astype(object),
    ],
)
def test_text_event_labels_are_listed_with_the_remedy(labels):
    with pytest.raises(
        TypeError, match=r"text labels \['alive', 'dead'\].*y_event == 'dead'"
    ):
        brier_score_survival(labels, TIME, SURV, TIMES)


@pytest.mark.parametrize("dtype", [str, object])
def test_text_digits_as_events_are_read_the_same_whatever_the_dtype(dtype):
    # object "0"/"1" were read as numbers, the same strings as str refused
    with pytest.raises(TypeError, match=r"text labels \['0', '1'\]"):
        brier_score_survival(EVENT.astype(str).astype(dtype), TIME, SURV, TIMES)


# -- durations and dates as times ----------------------------------------------------------
def test_timedelta_times_say_how_to_convert():
    pd = pytest.importorskip("pandas")
    with pytest.raises(TypeError, match=r"y_time holds durations.*pandas.Timedelta"):
        brier_score_survival(EVENT, pd.to_timedelta(TIME, unit="D"), SURV, TIMES)
    with pytest.raises(TypeError, match=r"times holds durations"):
        brier_score_survival(EVENT, TIME, SURV, pd.to_timedelta(TIMES, unit="D"))
    with pytest.raises(TypeError, match=r"y_time holds dates"):
        brier_score_survival(
            EVENT, pd.Timestamp("2020-01-01") + pd.to_timedelta(TIME, unit="D"), SURV, TIMES
        )


def test_times_as_an_object_array_are_numbers_as_the_outcome_is():
    got = brier_score_survival(EVENT, TIME, SURV, TIMES.astype(object))
    np.testing.assert_array_equal(got, brier_score_survival(EVENT, TIME, SURV, TIMES))


# -- NaN and percentages in the predictions --------------------------------------------------
def test_nan_predictions_are_counted_and_located():
    surv = SURV.copy()
    surv[3, 1] = surv[7, 0] = np.nan
    # "found values in [nan, nan]"
    with pytest.raises(
        ValueError, match=r"2 of 40 values \(the first at row 3, column 1\)"
    ):
        brier_score_survival(EVENT, TIME, surv, TIMES)


def test_percent_predictions_say_divide_by_100():
    with pytest.raises(ValueError, match=r"percentages\? Divide by 100.*found values in"):
        brier_score_survival(EVENT, TIME, SURV * 100, TIMES)


# -- decision curve thresholds: the rule of decision_curve and dcurves ----------------------
def test_decision_curve_accepts_threshold_zero_as_decision_curve_does():
    res = decision_curve_survival(EVENT, TIME, SURV[:, 0], 2.0, thresholds=[0.0, 0.5])
    # at threshold 0 everyone is treated: net benefit is the Kaplan--Meier risk
    assert res.net_benefit[0] == pytest.approx(res.prevalence, abs=1e-15)
    with pytest.raises(ValueError, match=r"thresholds must lie in \[0, 1\)"):
        decision_curve_survival(EVENT, TIME, SURV[:, 0], 2.0, thresholds=[0.5, 1.0])


# -- a labelled matrix that does not hold the horizons as columns --------------------------
def test_a_frame_with_the_horizons_as_rows_is_refused_even_when_square():
    pd = pytest.importorskip("pandas")
    event, time = EVENT[:2], np.array([3.0, 5.0])
    surv = np.array([[0.9, 0.6], [0.7, 0.5]])
    # lifelines' survival_function_at_times: the horizons as the index, one column
    # per subject; square, and non-increasing along the rows, so nothing else catches it
    frame = pd.DataFrame(surv.T, index=[2.0, 3.0], columns=["a", "b"])
    with pytest.raises(ValueError, match=r"surv_proba\.T"):
        brier_score_survival(event, time, frame, [2.0, 3.0])


def test_a_frame_whose_columns_are_other_times_is_refused():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(SURV, columns=[365.0, 730.0])
    with pytest.raises(
        ValueError, match=r"columns are the times \[365, 730\].*times \[2, 4\]"
    ):
        brier_score_survival(EVENT, TIME, frame, TIMES)
    # the horizons as the columns, or unlabelled columns, are read as they are
    ok = pd.DataFrame(SURV, columns=TIMES, index=np.arange(100, 100 + N))
    np.testing.assert_array_equal(
        brier_score_survival(EVENT, TIME, ok, TIMES),
        brier_score_survival(EVENT, TIME, pd.DataFrame(SURV), TIMES),
    )


# -- no numpy warning leaks ----------------------------------------------------------------
def test_edge_inputs_leak_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        brier_score_survival([1], [2.0], [[0.4]], 2.0)
        brier_score_survival([1, 0, 1], [0.0, 0.0, 0.0], np.full((3, 1), 0.5), 0.0)
        integrated_brier_score(
            [1, 0, 1],
            [1e307, 1.5e308, 1.7e308],
            np.full((3, 2), 0.5),
            [1e307, 1.7e308],
            integration="trapezoid",
        )


# -- the Display's arguments ------------------------------------------------------------
def test_display_refuses_an_axes_that_is_not_one():
    pytest.importorskip("matplotlib")
    from skbrier.survival import SurvivalCalibrationDisplay

    # AttributeError: 'int' object has no attribute 'plot'
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes.*got int"):
        SurvivalCalibrationDisplay.from_predictions(EVENT, TIME, SURV[:, 0], 2.0, ax=3)


def test_display_names_an_unknown_option_and_the_known_ones():
    pytest.importorskip("matplotlib")
    from skbrier.survival import SurvivalCalibrationDisplay

    # "calibration_at_horizon() got an unexpected keyword argument 'colour'"
    with pytest.raises(
        TypeError,
        match=r"from_predictions got an unexpected keyword argument 'colour'.*n_bins",
    ):
        SurvivalCalibrationDisplay.from_predictions(
            EVENT, TIME, SURV[:, 0], 2.0, colour="r"
        )


# -- scikit-survival's refusals: documented, and the score is its score ----------------------
def test_scored_times_beyond_the_training_follow_up_score_as_scikit_survival_would():
    sksurv_metrics = pytest.importorskip("sksurv.metrics")
    rng = np.random.default_rng(4)
    train_time = rng.integers(1, 7, 30).astype(float)
    train_event = rng.random(30) < 0.6
    train_event[train_time == train_time.max()] = True  # the censoring curve stays > 0
    time = rng.integers(1, 10, 25).astype(float)  # some after the training follow-up
    event = rng.random(25) < 0.6
    times = np.array([2.0, 3.0, 5.0])
    surv = np.sort(rng.random((25, 3)), axis=1)[:, ::-1]
    y_train, y = _structured(train_event, train_time), _structured(event, time)
    with pytest.raises(ValueError, match="largest observed time"):
        sksurv_metrics.brier_score(y_train, y, surv, times)
    got = brier_score_survival(y, surv, times, convention="sksurv", train_event=y_train)
    # those subjects are controls at every horizon: scikit-survival's score with
    # their times moved back to the end of the training follow-up
    y_in = _structured(event, np.minimum(time, train_time.max()))
    _, ref = sksurv_metrics.brier_score(y_train, y_in, surv, times)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    assert "after the last training time" in " ".join(brier_score_survival.__doc__.split())


# -- survival forecasts on the edges of risk bins and thresholds ----------------------------
def test_survival_on_an_edge_is_read_as_the_risk_it_stands_for():
    # 1 - 0.7 = 0.30000000000000004 fell in the risk bin (0.3, 0.4], and
    # 1 - 0.9 = 0.09999999999999998 was below the threshold 0.1
    import skbrier

    time = np.arange(1.0, 13.0)
    event = np.ones(12, dtype=int)  # no censoring: the binary outcome T <= 6.5
    surv = np.array([0.9, 0.7, 0.9, 0.7, 0.2, 0.6, 0.9, 0.7, 0.3, 0.9, 0.8, 0.1])
    risk = np.array([0.1, 0.3, 0.1, 0.3, 0.8, 0.4, 0.1, 0.3, 0.7, 0.1, 0.2, 0.9])
    res = calibration_at_horizon(event, time, surv, 6.5, n_bins=10)
    # skbrier's binning rule on the risks themselves: e_k < r <= e_(k+1)
    bins = assign_bins(risk, uniform_edges(10))
    y = (time <= 6.5).astype(float)
    used = np.unique(bins)
    np.testing.assert_allclose(res.bin_weight, [np.sum(bins == b) for b in used])
    np.testing.assert_allclose(res.predicted, [risk[bins == b].mean() for b in used])
    np.testing.assert_allclose(res.observed, [y[bins == b].mean() for b in used])
    thr = [0.1, 0.3, 0.7]
    dc = decision_curve_survival(event, time, surv, 6.5, thresholds=thr)
    binary = skbrier.decision_curve((time <= 6.5).astype(int), risk, thresholds=thr)
    np.testing.assert_allclose(dc.net_benefit, binary.net_benefit, rtol=0, atol=1e-15)
