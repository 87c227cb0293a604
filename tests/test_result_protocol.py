"""One result protocol: every result class, one ``confidence_interval`` signature.

Introspects every subclass of :class:`skbrier._core.results.Result` in the package
(all of them exported by :mod:`skbrier.results`, none at the top level) and
builds one instance of each to check the shared metric vocabulary.
"""

import ast
import dataclasses
import importlib
import inspect
import json
import pickle
import pkgutil
import re
import warnings

import numpy as np
import pytest

import skbrier
import skbrier.results
from skbrier._core.results import INTERVAL_METRICS, ConfidenceInterval, Result

RESULT_NAMES = [n for n in skbrier.results.__all__ if n != "ConfidenceInterval"]


def _all_result_subclasses() -> set[type]:
    for info in pkgutil.walk_packages(skbrier.__path__, "skbrier."):
        if ".cli" in info.name or info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    out, todo = set(), [Result]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("skbrier") and sub not in out:
                out.add(sub)
                todo.append(sub)
    return out


def test_every_result_class_is_in_skbrier_results_and_not_at_the_top_level():
    exported = {getattr(skbrier.results, n) for n in RESULT_NAMES}
    public = {c for c in _all_result_subclasses() if not c.__name__.startswith("_")}
    assert public == exported
    assert skbrier.results.ConfidenceInterval is ConfidenceInterval
    for cls in exported:
        assert dataclasses.is_dataclass(cls) and issubclass(cls, Result), cls
        assert not issubclass(cls, dict), cls  # a result, not also a mapping
    for name in skbrier.__all__:
        obj = getattr(skbrier, name)
        assert obj is not ConfidenceInterval and not (
            inspect.isclass(obj) and issubclass(obj, Result)
        ), name
    assert sorted(skbrier.results.__all__) == skbrier.results.__all__


def test_the_base_class_has_no_confidence_interval():
    assert not hasattr(Result, "confidence_interval")


@pytest.mark.parametrize("name", RESULT_NAMES)
def test_one_signature_and_one_vocabulary(name):
    cls = getattr(skbrier.results, name)
    metrics = cls._interval_metrics
    if not metrics:
        assert not hasattr(cls, "confidence_interval"), name
        return
    assert set(metrics) <= set(INTERVAL_METRICS), set(metrics) - set(INTERVAL_METRICS)
    params = list(inspect.signature(cls.confidence_interval).parameters.values())
    names = [p.name for p in params]
    assert names in (
        ["self", "confidence_level", "metric", "method"],
        ["self", "confidence_level", "metric", "method", "model"],
    ), names
    level, metric, method = params[1:4]
    assert level.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert level.default == 0.95
    assert metric.kind is method.kind is inspect.Parameter.KEYWORD_ONLY
    assert metric.default is None or metric.default in metrics
    assert method.default is None
    if len(params) == 5:
        assert params[4].kind is inspect.Parameter.KEYWORD_ONLY
        assert params[4].default is None


# --------------------------------------------------------------------------
# one instance of every result class
# --------------------------------------------------------------------------
def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p, np.clip(p + rng.normal(0, 0.2, n), 0.01, 0.99)


def _build(name):  # noqa: C901 (one branch per class)
    from skbrier import (
        block_bootstrap,
        brier_inference,
        calibration_error_interval,
        calibration_intercept_slope,
        calibration_report,
        compare_brier,
        compare_forecasts,
        corp_decomposition,
        cross_val_brier,
        decision_curve,
        difficulty_adjusted_brier,
        leaderboard,
        lowess_calibration_error,
        murphy_decomposition,
        parity_date,
        pooled_cv_scores,
        spiegelhalter_z,
    )

    y, p, q = _data()
    boot = {"n_resamples": 20, "random_state": 0}
    if name == "BrierInferenceResult":
        return brier_inference(y, p)
    if name == "BrierComparisonResult":
        return compare_brier(y, p, q)
    if name == "ForecastComparisonResult":
        return compare_forecasts(y, {"a": p, "b": q})
    if name == "BootstrapResult":
        return block_bootstrap((p,), np.mean, bootstrap="iid", **boot)
    if name == "DecisionCurveResult":
        return decision_curve(y, p, thresholds=[0.2, 0.5], **boot)
    if name in ("MurphyDecomposition", "BinStatistics"):
        d = murphy_decomposition(y, p, n_bins=4, **boot)
        return d if name == "MurphyDecomposition" else d.statistics
    if name == "CORPDecomposition":
        return corp_decomposition(y, p, **boot)
    if name == "MulticlassDecomposition":
        rng = np.random.default_rng(1)
        P = rng.dirichlet([1, 1, 1], 60)
        return corp_decomposition(rng.integers(0, 3, 60), P, **boot)
    if name == "RankedDecomposition":
        from skbrier import ranked_probability_decomposition

        rng = np.random.default_rng(1)
        return ranked_probability_decomposition(
            rng.integers(0, 3, 60), rng.dirichlet([1, 1, 1], 60), **boot
        )
    if name == "CalibrationReport":
        return calibration_report(y, p)
    if name == "TripodReport":
        return calibration_report(y, p).tripod()
    if name == "LogisticCalibrationResult":
        return calibration_intercept_slope(y, p)
    if name == "SpiegelhalterResult":
        return spiegelhalter_z(y, p)
    if name == "LowessCalibrationError":
        return lowess_calibration_error(y, p)
    if name == "FlexibleCalibrationCurve":
        return skbrier.flexible_calibration_curve(y, p, smoother="rcs", **boot)
    if name == "CalibrationErrorInterval":
        return calibration_error_interval(y, p, **boot)
    if name == "CrossValBrierResult":
        from sklearn.linear_model import LogisticRegression

        X = np.column_stack([p, q])
        return cross_val_brier(LogisticRegression(), X, y, cv=3, decompose=False)
    if name == "PooledCVResult":
        return pooled_cv_scores(
            {
                "split0_test_brier_sum": [2.0, 1.0],
                "split0_test_weight_sum": [10, 10],
                "split1_test_brier_sum": [1.0, 1.5],
                "split1_test_weight_sum": [10, 10],
            }
        )
    if name in ("DifficultyAdjustedResult", "LeaderboardResult", "ParityDateResult"):
        rng = np.random.default_rng(2)
        n_q = 30
        outcome = rng.uniform(size=n_q) < 0.5
        forecasts = {
            "sharp": np.where(outcome, 0.8, 0.2),
            "coin": np.full(n_q, 0.5),
            "noisy": np.clip(np.where(outcome, 0.7, 0.3) + rng.normal(0, 0.1, n_q), 0, 1),
        }
        names = np.repeat(list(forecasts), n_q)
        panel = (
            np.tile(outcome, 3),
            np.concatenate(list(forecasts.values())),
        )
        kw = {"forecaster": names, "question": np.tile(np.arange(n_q), 3)}
        if name == "DifficultyAdjustedResult":
            return difficulty_adjusted_brier(*panel, **kw)
        board = leaderboard(*panel, **kw, **boot)
        if name == "LeaderboardResult":
            return board
        dates = {"coin": 0.0, "noisy": 100.0, "sharp": 200.0}
        target = float(np.nanmax(board.brier_index)) + 5.0
        return parity_date(dates, board, target, replicates=board)
    if name.startswith("Survival"):
        from skbrier.survival import (
            calibration_at_horizon,
            compare_brier_survival,
            index_of_prediction_accuracy,
        )

        rng = np.random.default_rng(3)
        time = rng.exponential(5.0, 80)
        event = rng.uniform(size=80) < 0.7
        surv = np.exp(-np.outer(rng.uniform(0.05, 0.3, 80), [2.0, 4.0]))
        if name == "SurvivalIPAResult":
            return index_of_prediction_accuracy(event, time, surv, [2.0, 4.0])
        if name == "SurvivalInterval":
            res = index_of_prediction_accuracy(event, time, surv, [2.0, 4.0])
            return res.confidence_interval(metric="integrated_ipa")
        if name == "SurvivalComparisonResult":
            return compare_brier_survival(
                event, time, surv, np.full_like(surv, 0.6), [2.0, 4.0]
            )
        return calibration_at_horizon(event, time, surv[:, 0], 2.0, n_bins=3)
    if name == "HistoryScoreResult":
        from skbrier import daily_brier, forecast_history

        history = forecast_history(
            {"forecaster": ["a", "b", "a", "b"], "question": [1, 1, 2, 3],
             "timestamp": [0.0, 1.0, 0.5, 0.2], "probability": [0.7, 0.4, 0.2, 0.6]},
            {"question": [1, 2, 3], "open_time": [0.0, 0.0, 0.0],
             "close_time": [4.0, 3.0, 2.0], "outcome": [1, 0, 1]},
            resolve_time=None,
        )  # fmt: skip
        return daily_brier(history)
    if name == "HistoryLeaderboardResult":
        from skbrier import history_leaderboard

        return history_leaderboard(
            _build("HistoryScoreResult"), n_resamples=9, random_state=0
        )
    if name == "RiskCoverageResult":
        from skbrier import risk_coverage_curve

        return risk_coverage_curve(y, p, **boot)
    if name in (
        "AbstentionResult",
        "AbstentionUtilityResult",
        "AbstentionUtilityComparison",
    ):
        from skbrier import (
            abstention_scores,
            abstention_utility,
            compare_abstention_utility,
        )

        if name == "AbstentionResult":
            return abstention_scores(y, p > 0.3)
        if name == "AbstentionUtilityResult":
            return abstention_utility(y, p, thresholds=[0.2, 0.5], **boot)
        return compare_abstention_utility(y, p, y, q, thresholds=[0.2, 0.5], **boot)
    if name == "EvalRecords":
        from skbrier.io import EvalRecords

        return EvalRecords(
            "judged",
            "x.json",
            None,
            np.array(["a", "b"]),
            np.array([True, False]),
            np.array([0.9, 0.4]),
            None,
            None,
            None,
            0,
        )
    if name == "PlattCalibrationResult":
        from skbrier.metrics import platt_calibration_error

        return platt_calibration_error(y, p)
    if name == "TemperatureScalingResult":
        from skbrier.metrics import temperature_scaling

        return temperature_scaling(y, np.log(np.c_[1 - p, p]))
    if name == "CumulativeCalibrationResult":
        from skbrier import cumulative_calibration

        return cumulative_calibration(y, p, groups=np.arange(60) % 3)
    if name == "MulticalibrationResult":
        from skbrier import multicalibration_error

        return multicalibration_error(y, p, segments=np.c_[np.arange(60) % 2, p > 0.5])
    if name == "GroupCalibrationResult":
        from skbrier import calibration_by_group

        return calibration_by_group(y, p, groups=np.arange(60) % 3)
    if name in ("MetaAnalysisResult", "ClusteredValidationResult"):
        from skbrier.stats import clustered_validation

        res = clustered_validation(y, p, groups=np.arange(60) % 3)
        return res if name == "ClusteredValidationResult" else res.pooled["c_statistic"]
    if name == "ClusteredCalibrationCurve":
        from skbrier.stats import clustered_calibration_curve

        return clustered_calibration_curve(y, p, groups=np.arange(60) % 3, grid=5)
    if name in ("RubinPooledResult", "PooledValidationResult"):
        from skbrier.stats import pooled_validation

        res = pooled_validation(y, [p, q, np.clip(p * 0.9, 0.01, 0.99)])
        return res if name == "PooledValidationResult" else res.pooled["c_statistic"]
    if name in ("ValidationSampleSizeResult", "AchievedPrecisionResult"):
        from skbrier.validation import validation_sample_size

        plan = validation_sample_size(
            prevalence=0.5,
            c_statistic=0.75,
            lp_distribution=("normal", 0, 1),
            threshold=0.4,
        )
        if name == "ValidationSampleSizeResult":
            return plan
        return plan.achieved_precision(y, p, n_resamples=20, random_state=0)
    if name == "NetBenefitComparisonResult":
        from skbrier.validation import compare_net_benefit

        return compare_net_benefit(y, {"p": p, "q": q}, thresholds=[0.3, 0.5], **boot)
    if name == "PredictionPoweredResult":
        from skbrier.stats import prediction_powered_accuracy

        human = np.where(np.arange(60) % 4 == 0, y, np.nan)
        return prediction_powered_accuracy(human, (p > 0.5).astype(float))
    if name in ("InternalValidationResult", "StabilityResult"):
        from sklearn.linear_model import LogisticRegression

        from skbrier.model_selection import internal_validation

        res = internal_validation(
            LogisticRegression(), np.column_stack([p, q]), y, n_bootstrap=20,
            correction="both", random_state=0, n_resamples=20,
        )  # fmt: skip
        return res if name == "InternalValidationResult" else res.stability
    raise AssertionError(f"no instance of {name}: add one to _build")


@pytest.fixture(scope="module")
def instances():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: _build(name) for name in RESULT_NAMES}


@pytest.mark.parametrize("name", RESULT_NAMES)
def test_summary_dict_and_frame_do_not_need_an_interval(instances, name):
    pytest.importorskip("pandas")
    res = instances[name]
    assert isinstance(res, getattr(skbrier.results, name))
    assert isinstance(res.summary(), str) and res.summary()
    json.dumps(res.to_dict(), default=str)
    assert res.to_frame() is not None
    assert repr(res).startswith(name)


@pytest.mark.parametrize("name", RESULT_NAMES)
def test_equality_compares_values_and_never_raises(instances, name):
    """``res == again``: equal by value (arrays elementwise, NaN equal to
    NaN), as a seeded computation repeats; never numpy's "truth value of an
    array is ambiguous"; a pickled copy is equal; results are not hashable."""
    res = instances[name]
    again = pickle.loads(pickle.dumps(res))
    assert res == again and not (res != again)
    assert res != object() and res != 0.5
    with pytest.raises(TypeError, match="unhashable"):
        hash(res)
    fields = [f.name for f in dataclasses.fields(res) if f.compare]
    for k in fields:
        v = getattr(res, k)
        if isinstance(v, float) and np.isfinite(v):
            changed = dataclasses.replace(res, **{k: v + 1.0})
            assert res != changed, k
            break


def _is_interval(ci) -> bool:
    """A ConfidenceInterval, or an interval result that unpacks as one (survival)."""
    if isinstance(ci, ConfidenceInterval):
        return True
    low, high = ci
    return low is ci.low and high is ci.high


def _listed(message: str) -> list[str]:
    return list(ast.literal_eval(re.search(r"one of (\(.*?\)), got", message)[1]))


@pytest.mark.parametrize(
    "name", [n for n in RESULT_NAMES if getattr(skbrier.results, n)._interval_metrics]
)
def test_unknown_metric_lists_the_valid_names_and_each_of_them_works(instances, name):
    res = instances[name]
    with pytest.raises(ValueError, match="^metric must be one of") as err:
        res.confidence_interval(metric="no_such_metric")
    valid = _listed(str(err.value))
    assert valid and set(valid) <= set(type(res)._interval_metrics)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        default = res.confidence_interval()
        assert default is None or _is_interval(default)
        for metric in valid:
            ci = res.confidence_interval(0.9, metric=metric)
            assert ci is None or _is_interval(ci), metric
    with pytest.raises(TypeError):
        res.confidence_interval(0.9, valid[0])  # options are keyword-only
    with pytest.raises(ValueError, match="confidence_level"):
        res.confidence_interval(1.5)


def test_brier_index_means_the_index_or_its_difference(instances):
    one = instances["BrierInferenceResult"]
    lo, hi = one.confidence_interval(metric="brier_index")
    assert (lo + hi) / 2 == pytest.approx(one.brier_index, rel=1e-12)
    two = instances["BrierComparisonResult"]
    lo, hi = two.confidence_interval(metric="brier_index")
    assert (lo + hi) / 2 == pytest.approx(two.brier_index_difference, rel=1e-12)
    lo, hi = two.confidence_interval(metric="brier_score")
    assert (lo + hi) / 2 == pytest.approx(two.difference, rel=1e-12)
    cv = instances["CrossValBrierResult"]
    assert cv.confidence_interval(metric="brier_index") == pytest.approx(
        cv.inference.confidence_interval(metric="brier_index"), rel=1e-12
    )


def test_one_selection_keyword(instances):
    board = instances["LeaderboardResult"]
    low, high = board.confidence_interval(model="sharp")
    i = list(board.forecasters).index("sharp")
    all_low, all_high = board.confidence_interval()
    assert (low, high) == (all_low[i], all_high[i])
    with pytest.raises(ValueError, match="^model"):
        board.confidence_interval(model="nobody")
    curve = instances["DecisionCurveResult"]
    np.testing.assert_array_equal(
        curve.confidence_interval(model="model").low, curve.confidence_interval().low
    )
