"""Tests for skbrier.plotting.decision_curve.DecisionCurveDisplay."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from skbrier.metrics.net_benefit import decision_curve
from skbrier.plotting.decision_curve import (
    DecisionCurveDisplay,
    cost_benefit_label,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    z = rng.standard_normal(500)
    y = (rng.random(500) < 1 / (1 + np.exp(1.65 - z))).astype(int)
    return y, 1 / (1 + np.exp(1.65 - z)), 1 / (1 + np.exp(0.65 - z))


def test_from_predictions_lines_match_decision_curve(data):
    y, p0, p1 = data
    thr = np.linspace(0.02, 0.5, 25)
    disp = DecisionCurveDisplay.from_predictions(y, {"cal": p0, "over": p1}, thresholds=thr)
    res = decision_curve(y, {"cal": p0, "over": p1}, thresholds=thr)
    assert set(disp.lines_) == {"cal", "over"}
    for name in ("cal", "over"):
        xd, yd = disp.lines_[name].get_data()
        np.testing.assert_array_equal(xd, thr)
        np.testing.assert_array_equal(yd, res.net_benefit[name])
    np.testing.assert_array_equal(disp.treat_all_line_.get_data()[1], res.treat_all)
    np.testing.assert_array_equal(disp.treat_none_line_.get_data()[1], 0.0)
    assert disp.ax_.get_xlabel() == "Threshold probability"
    assert disp.ax_.get_ylabel() == "Net benefit"
    labels = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert labels == ["cal", "over", "Treat all", "Treat none"]
    assert disp.figure_ is disp.ax_.figure
    # auto y-limits: just below zero, above the prevalence
    lo, hi = disp.ax_.get_ylim()
    assert lo < 0 < y.mean() < hi


def test_single_array_name_and_unsorted_thresholds(data):
    y, p0, _ = data
    thr = np.array([0.3, 0.1, 0.2])
    disp = DecisionCurveDisplay.from_predictions(y, p0, thresholds=thr, name="logit")
    xd, yd = disp.lines_["logit"].get_data()
    np.testing.assert_array_equal(xd, [0.1, 0.2, 0.3])
    ref = decision_curve(y, p0, thresholds=[0.1, 0.2, 0.3]).net_benefit
    np.testing.assert_array_equal(yd, ref)
    default = DecisionCurveDisplay.from_predictions(y, p0, thresholds=thr)
    assert list(default.lines_) == ["model"]


def test_cost_benefit_axis(data):
    y, p0, _ = data
    disp = DecisionCurveDisplay.from_predictions(y, p0)
    sec = disp.secondary_ax_
    assert sec is not None
    assert sec.get_xlabel() == "Cost:benefit ratio"
    fmt = sec.xaxis.get_major_formatter()
    assert fmt(0.05, 0) == "1:19"
    assert fmt(0.25, 0) == "1:3"
    assert fmt(0.0, 0) == ""
    off = DecisionCurveDisplay.from_predictions(y, p0, cost_benefit_axis=False)
    assert off.secondary_ax_ is None


@pytest.mark.parametrize(
    "t, label", [(0.05, "1:19"), (0.1, "1:9"), (0.5, "1:1"), (0.75, "3:1"), (1.0, "")]
)
def test_cost_benefit_label(t, label):
    assert cost_benefit_label(t) == label


def test_bands_drawn(data):
    y, p0, _ = data
    disp = DecisionCurveDisplay.from_predictions(
        y, p0, thresholds=[0.1, 0.2, 0.3], n_resamples=50, random_state=0
    )
    assert set(disp.bands_) == {"model"}
    assert "model" in disp.bands


def test_plot_on_given_ax_and_options(data):
    y, p0, _ = data
    _, ax = plt.subplots()
    res = decision_curve(y, {"m": p0})
    disp = DecisionCurveDisplay.from_result(
        res,
        ax=ax,
        show_treat_all=False,
        show_treat_none=False,
        ylim=(-0.1, 0.5),
        line_kwargs={"m": {"color": "red"}},
    )
    assert disp.ax_ is ax
    assert disp.treat_all_line_ is None and disp.treat_none_line_ is None
    assert ax.get_ylim() == (-0.1, 0.5)
    assert disp.lines_["m"].get_color() == "red"
    # redraw on other axes
    _, ax2 = plt.subplots()
    disp.plot(ax=ax2, ylim=None)
    assert disp.ax_ is ax2
    with pytest.raises(ValueError, match="ylim"):
        disp.plot(ylim="tight")
    with pytest.raises(TypeError, match="result"):
        DecisionCurveDisplay.from_result({"m": p0})


def test_from_estimator():
    X, y = make_classification(n_samples=300, weights=[0.8], random_state=0)
    clf = LogisticRegression().fit(X, y)
    disp = DecisionCurveDisplay.from_estimator(clf, X, y, thresholds=[0.1, 0.2])
    assert list(disp.lines_) == ["LogisticRegression"]
    ref = decision_curve(y, clf.predict_proba(X)[:, 1], thresholds=[0.1, 0.2]).net_benefit
    np.testing.assert_array_equal(disp.lines_["LogisticRegression"].get_data()[1], ref)
    # several estimators, string labels with pos_label
    ys = np.where(y == 1, "sick", "well")
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, ys)
    lr = LogisticRegression().fit(X, ys)
    disp = DecisionCurveDisplay.from_estimator(
        {"tree": tree, "lr": lr}, X, ys, pos_label="sick", thresholds=[0.1, 0.2]
    )
    ref = decision_curve(
        ys, lr.predict_proba(X)[:, 0], thresholds=[0.1, 0.2], pos_label="sick"
    ).net_benefit
    np.testing.assert_array_equal(disp.lines_["lr"].get_data()[1], ref)


def test_from_estimator_errors():
    X, y = make_classification(n_samples=100, random_state=0)
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        DecisionCurveDisplay.from_estimator(LogisticRegression(), X, y)
    X3, y3 = make_classification(
        n_samples=150, n_classes=3, n_informative=4, random_state=0
    )
    with pytest.raises(ValueError, match="binary"):
        DecisionCurveDisplay.from_estimator(LogisticRegression().fit(X3, y3), X3, y3)
    clf = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="pos_label"):
        DecisionCurveDisplay.from_estimator(clf, X, y, pos_label=7)

    class NoProba:
        classes_ = np.array([0, 1])

    with pytest.raises(ValueError, match="predict_proba"):
        DecisionCurveDisplay.from_estimator(NoProba(), X, y)


def test_bad_inputs_propagate(data):
    y, p0, _ = data
    with pytest.raises(ValueError, match="thresholds"):
        DecisionCurveDisplay.from_predictions(y, p0, thresholds=[0.5, 1.0])
    with pytest.raises(ValueError, match="y_proba"):
        DecisionCurveDisplay.from_predictions(y, p0 + 1)


def test_harm_is_passed_through(data):
    y, p0, _ = data
    thr = [0.1, 0.2]
    disp = DecisionCurveDisplay.from_predictions(y, p0, thresholds=thr, harm=0.01)
    ref = decision_curve(y, p0, thresholds=thr).net_benefit - 0.01
    np.testing.assert_allclose(disp.lines_["model"].get_data()[1], ref, atol=1e-15)


def test_display_calls_decision_curve_once_and_keeps_the_result(data, monkeypatch):
    import skbrier.plotting.decision_curve as mod

    calls = []
    real = mod.decision_curve

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(mod, "decision_curve", counting)
    y, p0, _ = data
    disp = DecisionCurveDisplay.from_predictions(y, p0, thresholds=[0.1, 0.2])
    assert len(calls) == 1
    ref = decision_curve(y, p0, thresholds=[0.1, 0.2])
    np.testing.assert_array_equal(disp.result.net_benefit, ref.net_benefit)
    X, yy = make_classification(n_samples=120, random_state=0)
    DecisionCurveDisplay.from_estimator(
        LogisticRegression().fit(X, yy), X, yy, thresholds=[0.3]
    )
    assert len(calls) == 2
    res = decision_curve(
        y, p0, thresholds=[0.1, 0.2], n_resamples=30, random_state=0, confidence_level=0.8
    )
    shown = DecisionCurveDisplay.from_result(res)
    assert shown.result is res
    np.testing.assert_array_equal(
        shown.bands["model"].low, res.confidence_interval(0.8).low
    )


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"thresholds": [[0.1, 0.2]]}, ValueError, "thresholds must be a scalar or 1-D"),
        ({"n_resamples": 1}, ValueError, "n_resamples"),
        ({"band_alpha": 2.0}, ValueError, "band_alpha"),
        ({"show_treat_all": "yes"}, TypeError, "show_treat_all"),
        ({"cost_benefit_axis": 1}, TypeError, "cost_benefit_axis"),
        ({"ylim": (0.0, np.nan)}, ValueError, r"ylim\[1\]"),
        ({"ylim": 3.0}, TypeError, "ylim"),
        ({"line_kwargs": [1]}, TypeError, "line_kwargs"),
        ({"name": 3}, TypeError, "name"),
    ],
)
def test_display_options_refused_with_their_name(data, kwargs, exc, match):
    y, p0, _ = data
    with pytest.raises(exc, match=match):
        DecisionCurveDisplay.from_predictions(y, p0, **kwargs)


# ---------------------------------------------------------------- x axis, smoothing
def test_x_axis_follows_the_thresholds_and_marks_those_of_interest(data):
    y, p0, _ = data
    thr = np.linspace(0.05, 0.5, 46)
    disp = DecisionCurveDisplay.from_predictions(
        y, {"m": p0}, thresholds=thr, thresholds_of_interest=[0.1, 0.2, 0.3]
    )
    np.testing.assert_allclose(disp.ax_.get_xlim(), (0.05, 0.5))
    np.testing.assert_allclose(disp.ax_.get_xticks(), [0.1, 0.2, 0.3])
    assert [g.get_xdata()[0] for g in disp.guides_] == [0.1, 0.2, 0.3]
    disp.figure_.canvas.draw()
    labels = [t.get_text() for t in disp.secondary_ax_.xaxis.get_ticklabels()]
    assert labels == ["1:9", "1:4", "1:2.33"]
    with pytest.raises(ValueError, match="thresholds_of_interest"):
        disp.plot(thresholds_of_interest=[0.0, 0.2])
    # no marks: no guides, the axis still spans the thresholds asked for
    disp.plot()
    assert disp.guides_ == []


def _dcurves_smooth():
    import pathlib

    pd = pytest.importorskip("pandas")
    path = pathlib.Path(__file__).parent / "fixtures" / "decision_curve"
    return pd.read_csv(path / "dcurves_smooth.csv")


@pytest.mark.parametrize("curve", ["net_benefit", "net_intervention_avoided"])
@pytest.mark.parametrize("frac", [0.2, 0.5])
def test_smoothed_curves_equal_dcurves(curve, frac):
    """dcurves.plot_graphs(smooth_frac=) on the bundled forecasts
    (tests/fixtures/decision_curve/make_dcurves_smooth_fixture.py)."""
    pytest.importorskip("statsmodels")
    from skbrier.datasets import load_forecasts

    ref = _dcurves_smooth()
    ref = ref[(ref.graph_type == curve) & np.isclose(ref.smooth_frac, frac)]
    d = load_forecasts()
    models = {"a": d["model_a"], "b": d["model_b"]}
    # the thresholds dcurves used, read back bit for bit
    thr = ref.loc[ref.model == "a", "threshold"].to_numpy()
    disp = DecisionCurveDisplay.from_predictions(d["y"], models, thresholds=thr)
    disp.plot(curve=curve, per=1, smooth_frac=frac)
    for name in models:
        r = ref[ref.model == name]
        x, s = disp.smoothed_[name]
        np.testing.assert_array_equal(x, r.threshold.to_numpy())
        np.testing.assert_allclose(s, r.smoothed.to_numpy(), rtol=1e-12, atol=1e-14)
        np.testing.assert_array_equal(disp.lines_[name].get_ydata(), s)
    assert disp.treat_all_line_ is None or len(disp.smoothed_) == 2


@pytest.mark.parametrize(
    "thresholds, curve",
    [([0.3], "net_benefit"), ([0.0, 0.3], "net_intervention_avoided")],
)
def test_smoothing_a_single_point_is_that_point_without_warnings(data, thresholds, curve):
    """statsmodels' lowess of one point (one threshold, or one finite net
    interventions avoided next to the NaN of threshold 0) returns the point
    with four 'invalid value encountered in divide' RuntimeWarnings, which
    leaked out of plot(smooth_frac=...); the point is drawn as it is."""
    pytest.importorskip("statsmodels")
    import warnings

    y, p0, _ = data
    res = decision_curve(y, p0, thresholds=thresholds)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        disp = DecisionCurveDisplay.from_result(res, curve=curve, per=1, smooth_frac=0.5)
    x, s = disp.smoothed_["model"]
    raw = res.net_benefit if curve == "net_benefit" else res.net_interventions_avoided / 100
    keep = np.isfinite(raw)
    np.testing.assert_array_equal(x, res.thresholds[keep])
    np.testing.assert_allclose(s, raw[keep], rtol=1e-15)


def test_smooth_frac_is_checked(data):
    y, p0, _ = data
    disp = DecisionCurveDisplay.from_predictions(y, p0)
    with pytest.raises(ValueError, match="smooth_frac"):
        disp.plot(smooth_frac=1.5)
    assert disp.plot(smooth_frac=0).smoothed_ == {}


def test_line_kwargs_of_an_unknown_model_are_refused(data):
    """line_kwargs={'ovr': ...} (a typo of 'over') was silently ignored: the
    curve kept its default style; the unknown name is now refused."""
    y, p0, p1 = data
    disp = DecisionCurveDisplay.from_predictions(y, {"cal": p0, "over": p1})
    with pytest.raises(ValueError, match=r"line_kwargs names unknown models \['ovr'\]"):
        disp.plot(line_kwargs={"ovr": {"color": "red"}})
    disp.plot(line_kwargs={"over": {"color": "red"}})
    assert disp.lines_["over"].get_color() == "red"
