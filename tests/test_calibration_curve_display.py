"""CalibrationCurveDisplay: the calibration figure of a clinical report.

Image-free checks of the artists (as scikit-learn's display tests): the smooth
curve and band of flexible_calibration_curve, the deciles of scikit-learn's
calibration_curve with statsmodels' Wilson / Clopper-Pearson intervals, the
spike histograms, the statistics of the public functions, several models and
small multiples.
"""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from skbrier import brier_score  # noqa: E402
from skbrier.datasets import load_forecasts  # noqa: E402
from skbrier.metrics import flexible_calibration_curve  # noqa: E402
from skbrier.metrics.calibration import (  # noqa: E402
    c_statistic,
    calibration_intercept_slope,
)
from skbrier.plotting import CalibrationCurveDisplay  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data():
    d = load_forecasts()
    return np.asarray(d["y"]), np.asarray(d["model_a"]), np.asarray(d["model_b"])


def test_one_model_curve_band_points_and_statistics(data):
    y, _, p = data
    disp = CalibrationCurveDisplay.from_predictions(y, p, name="b")
    ref = flexible_calibration_curve(y, p, transform=None)  # val.prob.ci.2's loess
    line = disp.lines_[None, "b"]
    np.testing.assert_allclose(line.get_xdata(), ref.grid)
    np.testing.assert_allclose(line.get_ydata(), ref.estimate)
    assert (None, "b") in disp.bands_
    stats = disp.parts[None]["b"].statistics
    res = calibration_intercept_slope(y, p)
    assert stats["intercept"] == res.calibration_in_the_large
    assert stats["slope"] == res.slope
    assert stats["c"] == c_statistic(y, p) and stats["brier"] == brier_score(y, p)
    assert stats["ici"] == ref.ici and stats["e90"] == ref.e90
    text = disp.statistics_text_[None, "b"]
    assert f"Slope {res.slope:.3f}" in text and f"ICI {ref.ici:.3f}" in text
    assert disp.ax_.get_xlabel() == "Predicted probability"
    assert disp.ax_.get_ylim()[0] < -0.1  # the spike histogram under the square


def test_points_are_sklearn_deciles_with_statsmodels_intervals(data):
    calibration = pytest.importorskip("sklearn.calibration")
    sm = pytest.importorskip("statsmodels.stats.proportion")
    y, _, p = data
    for interval, method in (("wilson", "wilson"), ("clopper_pearson", "beta")):
        disp = CalibrationCurveDisplay.from_predictions(y, p, interval=interval)
        x, obs, lo, hi = next(iter(disp.parts[None].values())).points
        prob_true, prob_pred = calibration.calibration_curve(
            y, p, n_bins=10, strategy="quantile"
        )
        np.testing.assert_array_equal(x, prob_pred)
        np.testing.assert_array_equal(obs, prob_true)
        # the bins' counts, from the same quantile edges
        edges = np.percentile(p, np.linspace(0, 100, 11))
        idx = np.searchsorted(edges[1:-1], p)
        n = np.bincount(idx, minlength=10)
        k = np.bincount(idx, weights=y, minlength=10)
        ref_lo, ref_hi = sm.proportion_confint(k, n, alpha=0.05, method=method)
        np.testing.assert_allclose(lo, ref_lo, rtol=1e-10)
        np.testing.assert_allclose(hi, ref_hi, rtol=1e-10)
        bars = disp.points_[next(iter(disp.points_))]
        assert len(bars.lines[0].get_xdata()) == 10


def test_statistics_box_in_an_empty_corner(data):
    y, _, p = data
    disp = CalibrationCurveDisplay.from_predictions(y, p)
    box = disp.statistics_[None]
    fig = disp.figure_
    fig.canvas.draw()
    extent = box.get_window_extent(fig.canvas.get_renderer())
    line = next(iter(disp.lines_.values()))
    pix = disp.ax_.transData.transform(line.get_xydata())
    assert not np.any(
        (pix[:, 0] >= extent.x0)
        & (pix[:, 0] <= extent.x1)
        & (pix[:, 1] >= extent.y0)
        & (pix[:, 1] <= extent.y1)
    )
    # no inset axes over the data: one axes only
    assert fig.axes == [disp.ax_] and not disp.ax_.child_axes


def test_several_models_do_not_overlap(data):
    y, a, b = data
    disp = CalibrationCurveDisplay.from_predictions(y, {"a": a, "b": b})
    la, lb = disp.lines_[None, "a"], disp.lines_[None, "b"]
    assert la.get_linestyle() != lb.get_linestyle()
    assert la.get_color() != lb.get_color()
    xa = disp.points_[None, "a"].lines[0].get_xdata()
    xb = disp.points_[None, "b"].lines[0].get_xdata()
    xa0, _, _, _ = disp.parts[None]["a"].points
    assert np.all(xa < xa0) and np.all(xb > disp.parts[None]["b"].points[0])
    # one spike baseline per model, stacked
    bases = {round(disp.spikes_[None, k][2].get_ydata()[0], 6) for k in ("a", "b")}
    assert len(bases) == 2
    assert disp.statistics_text_[None, "a"] != disp.statistics_text_[None, "b"]
    # more models than histograms: left out, with a note
    many = {f"m{k}": np.clip(a + 0.01 * k, 0, 1) for k in range(4)}
    disp = CalibrationCurveDisplay.from_predictions(y, many, band=None)
    assert not disp.spikes_ and disp.notes_
    assert any("histograms left out" in t.get_text() for t in disp.ax_.texts)


def test_groups_give_small_multiples(data):
    y, a, b = data
    centre = np.where(np.arange(y.shape[0]) % 3 == 0, "north", "south")
    disp = CalibrationCurveDisplay.from_predictions(y, {"a": a, "b": b}, groups=centre)
    assert len(disp.axes_) == 2
    for ax, g in zip(disp.axes_, ("north", "south")):
        rows = centre == g
        title = ax.get_title()
        assert title == f"{g} (n = {rows.sum()}, events = {y[rows].sum():g})"
    assert disp.axes_[0].get_shared_x_axes().joined(disp.axes_[0], disp.axes_[1])
    assert set(disp.statistics_) == {"north", "south"}
    assert disp.figure_.legends  # one legend under the panels
    ref = flexible_calibration_curve(y[centre == "south"], b[centre == "south"],
                                     transform=None)  # fmt: skip
    np.testing.assert_allclose(disp.lines_["south", "b"].get_ydata(), ref.estimate)


def test_group_errors_name_the_group(data):
    y, a, _ = data
    g = np.where(y == 1, 1, 0)  # each group a single class
    with pytest.raises(ValueError, match="group 0, model"):
        CalibrationCurveDisplay.from_predictions(y, a, groups=g)
    with pytest.raises(ValueError, match="one label per sample"):
        CalibrationCurveDisplay.from_predictions(y, a, groups=g[:10])
    _, ax = plt.subplots()
    halves = np.arange(y.shape[0]) % 2
    with pytest.raises(ValueError, match="one Axes per group"):
        CalibrationCurveDisplay.from_predictions(y, a, groups=halves, ax=ax)
    with pytest.raises(ValueError, match="interval"):
        CalibrationCurveDisplay.from_predictions(y, a, interval="exact")


def test_from_estimator_and_plot_again(data):
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    X, yy = make_classification(n_samples=800, random_state=0)
    clf = LogisticRegression().fit(X[:400], yy[:400])
    disp = CalibrationCurveDisplay.from_estimator(clf, X[400:], yy[400:], smoother="rcs")
    assert disp.line_.get_label() == "LogisticRegression"
    assert disp.parts[None]["LogisticRegression"].curve.smoother == "rcs"
    _, ax = plt.subplots()
    disp.plot(ax=ax, histogram=False, statistics=False, points=False)
    assert disp.ax_ is ax and not disp.points_ and not disp.spikes_
    assert not disp.statistics_


def test_line_kwargs_of_an_unknown_model_are_refused(data):
    """A misspelt model name in line_kwargs was silently ignored."""
    y, pa, pb = data
    disp = CalibrationCurveDisplay.from_predictions(y, {"a": pa, "b": pb}, band=None)
    with pytest.raises(ValueError, match=r"line_kwargs names unknown models \['c'\]"):
        disp.plot(line_kwargs={"c": {"color": "red"}})
    disp.plot(line_kwargs={"b": {"color": "red"}})


@pytest.mark.parametrize("parts", [{}, {None: {}}])
def test_display_of_no_curve_is_a_value_error(parts):
    # was ZeroDivisionError in plot()
    from skbrier.plotting import CalibrationCurveDisplay

    with pytest.raises(ValueError, match="^parts is empty"):
        CalibrationCurveDisplay(parts)
