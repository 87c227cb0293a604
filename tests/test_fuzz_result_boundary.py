"""Boundary cases of the result protocol found by fuzzing every result class.

Each test failed before its fix: a bad argument gave a bare exception or a
wrong number instead of a clear error naming the parameter.
"""

import warnings

import numpy as np
import pytest
from test_result_protocol import _build

from skbrier import brier_inference, calibration_report
from skbrier._core.params import check_confidence_level


@pytest.fixture(scope="module")
def multiclass():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _build("MulticlassDecomposition")


def test_the_largest_level_below_one_is_refused_not_an_infinite_interval():
    """``0.5 + level / 2`` rounds to 1 there: every Wald interval was (-inf, inf)."""
    level = float(np.nextafter(1.0, 0.0))
    with pytest.raises(ValueError, match="^confidence_level .* 100% interval"):
        check_confidence_level(level)
    res = brier_inference([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4])
    with pytest.raises(ValueError, match="^confidence_level"):
        res.confidence_interval(level)
    assert check_confidence_level(1.0 - 1e-15) == 1.0 - 1e-15  # still finite
    assert np.isfinite(res.confidence_interval(1.0 - 1e-15)).all()


def test_basic_interval_of_a_non_negative_component_never_has_low_above_high(multiclass):
    """The reflected upper bound below 0 was left there while low was clipped to 0."""
    per_class = multiclass.per_class[1]  # discrimination -1e-16 (rounding)
    low, high = per_class.confidence_interval(0.5, metric="discrimination", method="basic")
    assert 0.0 == low <= high
    for level in (0.5, 0.1, 1e-9):
        low, high = multiclass.confidence_interval(
            level, metric="discrimination", method="basic"
        )
        assert np.all(low <= high) and np.all(low >= 0.0)


def test_leaderboard_html_title_must_be_a_string():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = _build("LeaderboardResult")
    with pytest.raises(TypeError, match="^title must be a string"):
        board.to_html(title=3)
    assert "<title>Mine</title>" in board.to_html(title="Mine")


def test_report_json_indent_and_checklist_only_are_checked():
    report = calibration_report([0, 1, 1, 0, 1, 0], [0.2, 0.7, 0.3, 0.4, 0.6, 0.5])
    with pytest.raises(TypeError, match="^indent must be an integer"):
        report.to_json(indent=1.5)
    with pytest.raises(ValueError, match="^indent must be at least 0"):
        report.to_json(indent=-1)
    assert report.to_json(indent=None).startswith("{")
    tripod = report.tripod()
    with pytest.raises(TypeError, match="^indent"):
        tripod.to_json(indent="x")
    with pytest.raises(TypeError, match="^checklist_only must be True or False"):
        tripod.to_json(checklist_only="x")
    assert tripod.to_json(checklist_only=True, indent=0)


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("CumulativeCalibrationResult", "plot"),
        ("ClusteredCalibrationCurve", "plot"),
        ("StabilityResult", "plot_calibration"),
        ("StabilityResult", "plot_mape"),
        ("StabilityResult", "plot_predictions"),
        ("StabilityResult", "plot_decision_curve"),
    ],
)
def test_plot_ax_that_is_not_an_axes_is_a_type_error(name, method):
    """``ax=3`` was an AttributeError ('int' object has no attribute 'plot')."""
    pytest.importorskip("matplotlib")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = _build(name)
    with pytest.raises(TypeError, match="^ax must be a matplotlib Axes"):
        getattr(res, method)(ax=3)


def test_clustered_curve_plot_cluster_curves_must_be_a_bool():
    pytest.importorskip("matplotlib")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = _build("ClusteredCalibrationCurve")
    with pytest.raises(TypeError, match="^cluster_curves must be True or False"):
        res.plot(cluster_curves="x")
