"""Ideas of skbrier.survival and of skbrier._core.validation said once: the
length check of the weights, the reading of a fitted estimator at one
horizon, and the shared docstring pieces of the survival functions."""

import inspect

import numpy as np
import pytest

from skbrier._core.validation import check_consistent_length, check_sample_weight
from skbrier.survival import (
    calibration_at_horizon,
    compare_brier_survival,
    decision_curve_survival,
    index_of_prediction_accuracy,
)
from skbrier.survival._prepare import SURVIVAL_PIECES

EVENT = np.array([1, 0, 1, 1, 0, 1, 0, 1])
TIME = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
RATE = np.array([0.9, 0.2, 0.6, 0.4, 0.2, 0.3, 0.1, 0.4])
#: the per-horizon numbers of a comparison, in the order of its table and constructor
COMPARISON_NUMBERS = ["times", "brier_a", "brier_b", "difference", "se", "p_value"]


class _Exponential:
    """A fitted survival model: ``predict_survival_function`` as scikit-survival's."""

    def predict_survival_function(self, X):
        return [lambda t, r=r: np.exp(-r * np.asarray(t, dtype=float)) for r in X]


def _structured():
    y = np.empty(EVENT.shape[0], dtype=[("event", "?"), ("time", "f8")])
    y["event"], y["time"] = EVENT.astype(bool), TIME
    return y


# -- the length check: one home, naming the reference array --------------------------


def test_consistent_length_names_the_reference():
    with pytest.raises(ValueError, match="^w has 3 samples but y_true has 4; all inputs"):
        check_consistent_length(4, ref_name="y_true", w=np.ones(3))
    with pytest.raises(ValueError, match="^w has 3 samples but y_proba has 4;"):
        check_consistent_length(4, w=np.ones(3))
    check_consistent_length(4, w=np.ones(4), v=None)


def test_sample_weight_length_message_is_unchanged():
    msg = (
        "sample_weight has 3 samples but y_time has 4; all inputs must have the same "
        "number of samples."
    )
    with pytest.raises(ValueError) as err:
        check_sample_weight([1.0, 1.0, 1.0], 4, ref_name="y_time")
    assert str(err.value) == msg


# -- a fitted estimator first, at one horizon -------------------------------------------


def test_calibration_at_horizon_reads_a_fitted_estimator():
    surv = np.exp(-RATE * 3.5)
    want = calibration_at_horizon(EVENT, TIME, surv, 3.5, n_bins=2)
    got = calibration_at_horizon(_Exponential(), RATE, _structured(), 3.5, n_bins=2)
    np.testing.assert_allclose(got.predicted, want.predicted)
    np.testing.assert_allclose(got.observed, want.observed)


def test_decision_curve_survival_reads_a_fitted_estimator():
    surv = np.exp(-RATE * 3.5)
    want = decision_curve_survival(EVENT, TIME, surv, 3.5, thresholds=[0.2, 0.5])
    got = decision_curve_survival(
        _Exponential(), RATE, _structured(), 3.5, thresholds=[0.2, 0.5]
    )
    np.testing.assert_allclose(got.net_benefit, want.net_benefit)


def test_display_from_predictions_reads_a_fitted_estimator():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from skbrier.survival import SurvivalCalibrationDisplay

    try:
        disp = SurvivalCalibrationDisplay.from_predictions(
            _Exponential(), RATE, _structured(), 3.5, n_bins=2
        )
        want = calibration_at_horizon(EVENT, TIME, np.exp(-RATE * 3.5), 3.5, n_bins=2)
        np.testing.assert_allclose(disp.results["model"].observed, want.observed)
        by_struct = SurvivalCalibrationDisplay.from_predictions(
            _structured(), {"a": np.exp(-RATE * 3.5)}, 3.5, n_bins=2
        )
        np.testing.assert_allclose(by_struct.results["a"].observed, want.observed)
    finally:
        plt.close("all")


# -- docstring pieces: each description written once -----------------------------------


@pytest.mark.parametrize(
    ("piece", "functions"),
    [
        (
            "gerds_kattan_reference",
            [index_of_prediction_accuracy, compare_brier_survival],
        ),
        ("horizon_outcome", [calibration_at_horizon, decision_curve_survival]),
    ],
)
def test_survival_docstrings_share_a_piece(piece, functions):
    text = SURVIVAL_PIECES[piece]
    for func in functions:
        assert text in inspect.getdoc(func), func.__name__


# -- the Kaplan--Meier rule of a group: NaN when its follow-up ends early --------------


def test_a_bin_whose_follow_up_ends_before_the_horizon_is_nan():
    event, time = [1, 1, 1, 0, 0, 0], [1.0, 2.0, 4.0, 1.5, 2.5, 3.0]
    surv = [0.9, 0.8, 0.7, 0.6, 0.2, 0.1]
    res = calibration_at_horizon(event, time, surv, 3.5, n_bins=2, strategy="quantile")
    np.testing.assert_allclose(res.observed, [2.0 / 3.0, np.nan])
    np.testing.assert_allclose(res.observed_low, [0.0, np.nan])
    np.testing.assert_allclose(res.observed_high, [0.9327216, np.nan], rtol=1e-6)
    curve = decision_curve_survival(event, time, surv, 3.5, thresholds=[0.2, 0.5])
    # the survival 0.8 is the risk 0.2, positive at the threshold 0.2 (was -1/6:
    # 1 - 0.8 = 0.19999999999999996 fell below it; tests/test_sweep_survival.py)
    np.testing.assert_allclose(curve.net_benefit, [5.0 / 96.0, np.nan])


# -- the per-horizon results: the shared fields declared once ---------------------------


def test_per_horizon_results_declare_their_shared_fields_once():
    import dataclasses

    from skbrier.survival import SurvivalComparisonResult, SurvivalIPAResult
    from skbrier.survival._results import _PerHorizon

    shared = ["times", "n", "convention", "bootstrap"]
    assert [f.name for f in dataclasses.fields(_PerHorizon)] == shared
    for cls in (SurvivalIPAResult, SurvivalComparisonResult):
        assert not set(cls.__annotations__) & set(shared), cls.__name__
    # the results' own numbers keep their places; the shared ones are by keyword
    params = inspect.signature(SurvivalComparisonResult).parameters
    assert list(params) == [*COMPARISON_NUMBERS, "n", "convention", "bootstrap"]
    assert [p.kind for p in params.values()][-3:] == [inspect.Parameter.KEYWORD_ONLY] * 3


def test_per_horizon_results_share_one_example_and_attribute_docs():
    from skbrier.survival import (
        SurvivalComparisonResult,
        SurvivalInterval,
        SurvivalIPAResult,
    )
    from skbrier.survival._results import RESULT_PIECES

    for cls in (SurvivalInterval, SurvivalIPAResult, SurvivalComparisonResult):
        assert RESULT_PIECES["six_subjects"] in inspect.getdoc(cls), cls.__name__
    for cls in (SurvivalIPAResult, SurvivalComparisonResult):
        assert RESULT_PIECES["sample_and_convention"] in inspect.getdoc(cls), cls.__name__


# -- the times of an outcome and the horizons: one finite, non-negative check -----------


def test_times_and_horizons_share_one_range_check():
    from skbrier.survival._checks import check_nonnegative

    t = check_nonnegative([0.0, 2.5], "times", "finite.")
    assert t.dtype == np.float64
    with pytest.raises(ValueError, match=r"^w must be non-negative, found -1\.$"):
        check_nonnegative([0.0, -1.0], "w", "finite.")
    with pytest.raises(
        ValueError,
        match=r"^w must be finite \(no NaN or infinity\): 1 of 1 values are not "
        r"\(the first, inf, at index 0\)\.$",
    ):
        check_nonnegative([np.inf], "w", "finite (no NaN or infinity).")


@pytest.mark.parametrize(
    ("time", "times", "message"),
    [
        (
            [1.0, np.nan, 3.0],
            2.0,
            r"^y_time must be finite \(no NaN or infinity\): 1 of 3 values are not "
            r"\(the first, nan, at index 1\)\.$",
        ),
        ([1.0, -2.0, 3.0], 2.0, r"^y_time must be non-negative, found -2\.$"),
        ([1.0, 2.0, 3.0], [1.0, np.inf], r"^times must be finite: 1 of 2 values are not"),
        ([1.0, 2.0, 3.0], [-0.5, 1.0], r"^times must be non-negative, found -0\.5\.$"),
    ],
)
def test_range_messages(time, times, message):
    from skbrier.survival import brier_score_survival

    with pytest.raises(ValueError, match=message):
        brier_score_survival([1, 0, 1], time, np.full((3, np.size(times)), 0.5), times)


def test_per_horizon_tables_start_with_the_horizons_of_the_base():
    from skbrier.survival import SurvivalComparisonResult, SurvivalIPAResult

    pd = pytest.importorskip("pandas")
    for cls in (SurvivalIPAResult, SurvivalComparisonResult):
        assert "times" not in cls._columns, cls.__name__
    surv = np.exp(-np.outer(RATE, [2.0, 4.0]))
    ipa = index_of_prediction_accuracy(EVENT, TIME, surv, [2.0, 4.0])
    cmp = compare_brier_survival(EVENT, TIME, surv, np.full_like(surv, 0.6), [2.0, 4.0])
    assert isinstance(ipa.to_frame(), pd.DataFrame)
    assert list(ipa.to_frame().columns) == [
        "times",
        "brier",
        "se_brier",
        "brier_null",
        "ipa",
        "se_ipa",
    ]
    assert list(cmp.to_frame().columns) == COMPARISON_NUMBERS
    assert ipa.summary().splitlines()[3].startswith("t=2  ")


# -- the examples of the scores: one cohort ---------------------------------------------


def test_survival_scores_share_one_example_cohort():
    from skbrier.survival import brier_score_survival, integrated_brier_score

    for func in (brier_score_survival, integrated_brier_score, compare_brier_survival):
        assert SURVIVAL_PIECES["eight_subjects"] in inspect.getdoc(func), func.__name__


# -- the positional forms (structured outcome, fitted estimator) read in one place ------


def test_prepare_reads_the_positional_forms_itself():
    from skbrier.survival._prepare import prepare

    surv = np.exp(-np.outer(RATE, [2.0, 4.0]))
    # f(y_struct, surv, times): the arguments after the outcome move left
    prep = prepare(_structured(), surv, [[2.0, 4.0]], None)
    np.testing.assert_array_equal(prep.data.time, TIME)
    np.testing.assert_array_equal(prep.times, [2.0, 4.0])
    # f(estimator, X, y, times): the estimator's survival functions at the times
    prep = prepare(_Exponential(), RATE, [_structured()], [2.0, 4.0])
    np.testing.assert_allclose(prep.surv[0], surv)
    with pytest.raises(TypeError, match="not an estimator"):
        prepare(_Exponential(), RATE, [_structured(), None], [2.0], estimator=False)


# -- the survival decision curve: the net benefit formulas of the binary kernel ---------


def test_decision_curve_survival_finishes_with_the_binary_kernel():
    from skbrier._core.kernels import net_benefit as kernel
    from skbrier.metrics.net_benefit import decision_curve
    from skbrier.survival import horizon

    assert horizon.decision_finish is kernel.decision_finish
    # no censoring before the horizon: the Kaplan--Meier shares are the binary ones
    e = np.array([1, 0, 1, 0, 1, 0, 0, 1])
    t = np.array([1.0, 5, 2, 5, 3, 5, 5, 4])
    risk = np.array([0.8, 0.3, 0.6, 0.2, 0.4, 0.5, 0.1, 0.7])
    thr = [0.15, 0.25, 0.55, 0.85]
    got = decision_curve_survival(e, t, 1 - risk, 4.0, thresholds=thr)
    want = decision_curve(e, risk, thresholds=thr)
    np.testing.assert_allclose(got.net_benefit, want.net_benefit, atol=1e-12)
    np.testing.assert_allclose(
        got.net_interventions_avoided, want.net_interventions_avoided, atol=1e-10
    )
