"""SurvivalCalibrationDisplay: the artists drawn, the values behind them, errors."""

import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from skbrier.survival import (  # noqa: E402
    SurvivalCalibrationDisplay,
    calibration_at_horizon,
    decision_curve_survival,
)


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    t_event = rng.exponential(1.0 / np.exp(0.7 * x))
    t_cens = rng.exponential(2.0, n)
    time = np.minimum(t_event, t_cens)
    event = (t_event <= t_cens).astype(int)
    good = np.exp(-np.exp(0.7 * x) * 0.5)
    flat = np.exp(-np.exp(0.2 * x) * 0.4)
    return event, time, good, flat


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_artists_match_result():
    event, time, good, _ = _data()
    res = calibration_at_horizon(event, time, good, 0.5, n_bins=5)
    disp = SurvivalCalibrationDisplay.from_result(res)
    line = disp.lines_["model"]
    np.testing.assert_allclose(line.get_xdata(), res.predicted)
    np.testing.assert_allclose(line.get_ydata(), res.observed)
    # error bars: one vertical segment per bin from the lower to the upper limit
    segs = disp.errorbars_["model"].lines[2][0].get_segments()
    assert len(segs) == res.predicted.shape[0]
    lows = np.array([s[0][1] for s in segs])
    highs = np.array([s[1][1] for s in segs])
    np.testing.assert_allclose(lows, res.observed_low)
    np.testing.assert_allclose(highs, res.observed_high)
    np.testing.assert_allclose(disp.diagonal_line_.get_xdata(), [0, 1])
    np.testing.assert_allclose(disp.diagonal_line_.get_ydata(), [0, 1])
    bars = disp.hist_["model"]
    assert len(bars) == 20
    heights = np.array([b.get_height() for b in bars])
    np.testing.assert_allclose(heights, res.hist_weight / res.hist_weight.sum())
    assert disp.hist_ax_ is not None and disp.hist_ax_ is not disp.ax_
    assert disp.ax_.get_xlabel() == "Predicted risk by t = 0.5"
    assert disp.ax_.get_ylabel() == "Observed risk by t = 0.5"
    assert disp.figure_ is disp.ax_.figure


def test_from_predictions_several_models_and_pseudo():
    event, time, good, flat = _data()
    fig, ax = plt.subplots()
    disp = SurvivalCalibrationDisplay.from_predictions(
        event,
        time,
        {"cox": good, "flat": flat},
        0.5,
        n_bins=4,
        censoring_method="pseudo",
        ax=ax,
    )
    assert disp.ax_ is ax
    assert sorted(disp.lines_) == ["cox", "flat"]
    ref = calibration_at_horizon(
        event, time, flat, 0.5, n_bins=4, censoring_method="pseudo"
    )
    np.testing.assert_allclose(disp.lines_["flat"].get_ydata(), ref.observed)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["Perfectly calibrated", "cox", "flat"]


def test_structured_array_input():
    event, time, good, _ = _data()
    y = np.empty(event.shape[0], dtype=[("event", bool), ("time", float)])
    y["event"], y["time"] = event.astype(bool), time
    disp = SurvivalCalibrationDisplay.from_predictions(y, good, 0.5, n_bins=3)
    ref = calibration_at_horizon(event, time, good, 0.5, n_bins=3)
    np.testing.assert_allclose(disp.lines_["model"].get_ydata(), ref.observed)


def test_switches_off():
    event, time, good, _ = _data()
    res = calibration_at_horizon(event, time, good, 0.5, n_bins=5)
    disp = SurvivalCalibrationDisplay.from_result(
        res, error_bars=False, diagonal=False, hist=False, name="m"
    )
    assert disp.errorbars_ == {} and disp.hist_ == {}
    assert disp.diagonal_line_ is None and disp.hist_ax_ is None
    assert list(disp.lines_) == ["m"]


def test_bad_input():
    event, time, good, _ = _data()
    res = calibration_at_horizon(event, time, good, 0.5, n_bins=5)
    with pytest.raises(TypeError, match="SurvivalCalibrationResult"):
        SurvivalCalibrationDisplay.from_result({"a": 1})
    with pytest.raises(TypeError, match="error_bars"):
        SurvivalCalibrationDisplay.from_result(res, error_bars="yes")
    with pytest.raises(TypeError, match="line_kwargs"):
        SurvivalCalibrationDisplay.from_result(res, line_kwargs=[1])
    # a model name that is not drawn (a typo) is refused, as by the other Displays
    with pytest.raises(ValueError, match=r"line_kwargs names unknown models \['mdoel'\]"):
        SurvivalCalibrationDisplay.from_result(
            res, name="model", line_kwargs={"mdoel": {"color": "red"}}
        )
    with pytest.raises(ValueError, match="censoring_method"):
        SurvivalCalibrationDisplay.from_predictions(
            event, time, good, 0.5, censoring_method="x"
        )


def test_clear_error_without_matplotlib(monkeypatch):
    event, time, good, _ = _data()
    res = calibration_at_horizon(event, time, good, 0.5, n_bins=5)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="pip install matplotlib"):
        SurvivalCalibrationDisplay.from_result(res)


def test_decision_curve_survival_plots_with_decision_curve_display():
    from skbrier.plotting.decision_curve import DecisionCurveDisplay

    event, time, good, flat = _data()
    res = decision_curve_survival(event, time, {"cox": good, "flat": flat}, 0.5)
    disp = DecisionCurveDisplay.from_result(res)
    assert sorted(disp.lines_) == ["cox", "flat"]


def test_from_predictions_forwards_the_options_of_the_statistic_and_the_drawing():
    """The options are listed once, by calibration_at_horizon and plot:
    from_predictions forwards its other keyword arguments to them."""
    import inspect

    params = inspect.signature(SurvivalCalibrationDisplay.from_predictions).parameters
    assert list(params) == [
        "y_event",
        "y_time",
        "surv_proba",
        "horizon",
        "name",
        "ax",
        "kwargs",
    ]
    assert params["name"].default == "model"
    event, time, good, _ = _data()
    w = np.where(np.arange(event.shape[0]) % 3 == 0, 2.0, 1.0)
    options = dict(n_bins=3, strategy="quantile", confidence_level=0.9, sample_weight=w)
    disp = SurvivalCalibrationDisplay.from_predictions(
        event, time, good, 0.5, hist=False, error_bars=False, **options
    )
    ref = calibration_at_horizon(event, time, good, 0.5, **options)
    np.testing.assert_allclose(disp.results["model"].observed_low, ref.observed_low)
    assert disp.hist_ == {} and disp.errorbars_ == {}
    with pytest.raises(TypeError, match="bins"):
        SurvivalCalibrationDisplay.from_predictions(event, time, good, 0.5, bins=3)


def test_results_at_different_horizons_are_refused():
    # the axes are labelled with one horizon: a second result at another
    # horizon was drawn under the first one's label
    event, time, good, flat = _data(n=200)
    early = calibration_at_horizon(event, time, good, 0.5, n_bins=4)
    late = calibration_at_horizon(event, time, flat, 1.0, n_bins=4)
    with pytest.raises(ValueError, match=r"one horizon.*0\.5.*1"):
        SurvivalCalibrationDisplay.from_result({"early": early, "late": late})
    same = calibration_at_horizon(event, time, flat, 0.5, n_bins=4)
    disp = SurvivalCalibrationDisplay.from_result({"good": early, "flat": same})
    assert disp.ax_.get_xlabel() == "Predicted risk by t = 0.5"
