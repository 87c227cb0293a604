"""One ``confidence_interval`` (issue 25, item 6): every result that computes an
interval takes it from the one mixin of :mod:`skbrier._core.results`, keeping
its metrics, its default metric and method by meaning, and its numbers.
"""

import pathlib
import re
import sys
import warnings

import numpy as np
import pytest

import skbrier
import skbrier.results
from skbrier._core.results import _Intervals, _ModelIntervalResult

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_result_protocol import RESULT_NAMES, _build  # noqa: E402

INTERVAL_NAMES = [n for n in RESULT_NAMES if getattr(skbrier.results, n)._interval_metrics]
MODEL_RESULTS = {
    "DecisionCurveResult",
    "HistoryLeaderboardResult",
    "LeaderboardResult",
    "NetBenefitComparisonResult",
}


@pytest.fixture(scope="module")
def instances():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: _build(name) for name in INTERVAL_NAMES}


def test_one_definition_of_confidence_interval_in_the_package():
    root = pathlib.Path(skbrier.__file__).parent
    defining = sorted(
        str(f.relative_to(root))
        for f in root.rglob("*.py")
        if re.search(r"def confidence_interval\(", f.read_text(encoding="utf-8"))
    )
    assert defining == ["_core/results.py"]


@pytest.mark.parametrize("name", INTERVAL_NAMES)
def test_every_interval_comes_from_the_mixin(name):
    cls = getattr(skbrier.results, name)
    assert issubclass(cls, _Intervals), name
    owner = _ModelIntervalResult if name in MODEL_RESULTS else _Intervals
    assert cls.confidence_interval is owner.confidence_interval, name


@pytest.mark.parametrize("name", INTERVAL_NAMES)
def test_the_class_docstring_names_its_metrics(name):
    cls = getattr(skbrier.results, name)
    doc = cls.__doc__ or ""
    assert "confidence_interval" in doc, name
    for metric in cls._interval_metrics:
        assert metric in doc, (name, metric)


def test_inference_results_default_to_wald_or_to_their_bootstrap():
    from skbrier.stats import brier_inference, compare_brier

    y, p = [0, 1, 0, 1, 1, 0, 1, 0] * 5, [0.2, 0.8, 0.3, 0.6, 0.9, 0.4, 0.7, 0.1] * 5
    q = np.clip(np.array(p) + 0.1, 0, 1)
    for res in (brier_inference(y, p), compare_brier(y, p, q)):
        assert res.confidence_interval(method="wald") == res.confidence_interval()
        with pytest.raises(ValueError, match=r"^method must be one of \('wald',\)"):
            res.confidence_interval(method="percentile")
    kw = {"cov_type": "bootstrap", "n_resamples": 50, "random_state": 0}
    for res in (
        brier_inference(y, p, method="basic", **kw),
        compare_brier(y, p, q, method="basic", **kw),
    ):
        assert res.confidence_interval() == res.confidence_interval(method="basic")
        assert res.confidence_interval() != res.confidence_interval(method="percentile")
        with pytest.raises(ValueError, match="^method must be one of"):
            res.confidence_interval(method="wald")


def test_cross_validation_defaults_to_the_brier_index(instances):
    cv = instances["CrossValBrierResult"]
    assert cv.confidence_interval() == cv.confidence_interval(metric="brier_index")
    assert cv.confidence_interval(method="wald") == cv.confidence_interval()


def test_generic_bootstrap_defaults_to_its_method():
    from skbrier.stats import block_bootstrap

    x = np.random.default_rng(0).normal(size=40)
    res = block_bootstrap((x,), np.mean, n_resamples=99, method="basic", random_state=0)
    assert res.confidence_interval() == res.confidence_interval(method="basic")
    block = block_bootstrap((x,), np.mean, bootstrap="moving_block", n_resamples=30)
    with pytest.raises(ValueError, match="only available with the iid bootstrap"):
        block.confidence_interval(method="bca")


def test_flexible_curve_names_its_analytic_band_wald():
    from skbrier.metrics import flexible_calibration_curve

    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, 300)
    y = rng.uniform(size=300) < p
    curve = flexible_calibration_curve(y, p, smoother="rcs", n_resamples=20, random_state=0)
    assert curve.band == "analytic"
    band = curve.confidence_interval(metric="calibration_curve")
    wald = curve.confidence_interval(metric="calibration_curve", method="wald")
    np.testing.assert_array_equal(band.low, wald.low)
    with pytest.raises(ValueError, match=r"^method must be one of \('wald',\)"):
        curve.confidence_interval(metric="calibration_curve", method="percentile")
    with pytest.raises(
        ValueError, match=r"^method must be one of \('percentile', 'basic', 'simulation'\)"
    ):
        curve.confidence_interval(metric="ici", method="wald")


def test_achieved_precision_defaults_by_measure(instances):
    res = instances["AchievedPrecisionResult"]
    assert res.confidence_interval() == res.confidence_interval(
        metric="calibration_slope", method="wald"
    )
    nb = "standardized_net_benefit"
    assert res.confidence_interval(metric=nb) == res.confidence_interval(
        metric=nb, method="percentile"
    )


def test_model_results_keep_their_model_keyword(instances):
    board = instances["LeaderboardResult"]
    low, high = board.confidence_interval(metric="rank", model="coin")
    assert float(low) == int(low) and float(high) == int(high)
    history = instances["HistoryLeaderboardResult"]
    i = history.forecasters.tolist().index("a")
    assert history.confidence_interval(model="a") == (
        history.score_low[i],
        history.score_high[i],
    )
    with pytest.raises(ValueError, match="^model: unknown forecaster"):
        history.confidence_interval(model="nobody")
    curve = instances["DecisionCurveResult"]
    with pytest.raises(ValueError, match="^model must be one of"):
        curve.confidence_interval(model="nobody")
    comparison = instances["NetBenefitComparisonResult"]
    with pytest.raises(ValueError, match="^model must be one of"):
        comparison.confidence_interval(model="nobody")


def test_survival_intervals_keep_their_horizons(instances):
    res = instances["SurvivalIPAResult"]
    ci = res.confidence_interval(0.9)
    assert ci.metric == "ipa" and ci.method == "wald"
    np.testing.assert_array_equal(ci.times, res.times)
    with pytest.raises(ValueError, match="no bootstrap replicates"):
        res.confidence_interval(method="percentile")


def test_the_report_keeps_its_intervals_and_methods(instances):
    report = instances["CalibrationReport"]
    assert report.confidence_interval() == report.intervals["brier_score"]
    assert report.confidence_interval(metric="calibration_slope") is not None


@pytest.mark.parametrize("name", RESULT_NAMES)
def test_private_fields_stay_out_of_dicts_and_reprs(name):
    # one home for "the public fields": Result._fields (a clustered curve's
    # to_dict held its raw data under "_data")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = _build(name)
    assert not [k for k in res.to_dict() if k.startswith("_")], name
    assert "=_" not in repr(res) and ", _" not in repr(res), name
