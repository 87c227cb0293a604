"""Tests of skbrier.plotting.reliability.ReliabilityDisplay (matplotlib Agg)."""

from __future__ import annotations

import numpy as np
import pytest

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.collections import PolyCollection
from matplotlib.container import BarContainer
from matplotlib.lines import Line2D

from skbrier.decomposition import BrierDecomposition
from skbrier.plotting.reliability import ReliabilityDisplay

Y6 = np.array([0, 0, 0, 1, 1, 1])
P6 = np.array([0.4, 0.3, 0.2, 0.1, 0.5, 0.9])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _synthetic(**extra):
    x = np.linspace(0.05, 0.95, 10)
    y = np.clip(x**1.2, 0, 1)
    kwargs = {
        "band_lower": np.clip(x - 0.1, 0, 1),
        "band_upper": np.clip(x + 0.1, 0, 1),
        "hist_edges": np.linspace(0, 1, 21),
        "hist_weights": np.arange(20.0),
        "components": {
            "brier_score": 0.2,
            "miscalibration": 0.03,
            "discrimination": 0.08,
            "uncertainty": 0.25,
        },
        "estimator_name": "model",
        "pos_label": 1,
    }
    kwargs.update(extra)
    return ReliabilityDisplay(x, y, **kwargs)


def test_constructor_only_stores():
    disp = _synthetic()
    assert not hasattr(disp, "ax_")
    assert disp.estimator_name == "model"


def test_plot_new_figure_artists():
    disp = _synthetic().plot()
    assert isinstance(disp.line_, Line2D) and disp.lines_ == [disp.line_]
    np.testing.assert_allclose(disp.line_.get_xdata(), np.linspace(0.05, 0.95, 10))
    assert disp.line_.get_label() == "model"
    assert isinstance(disp.ref_line_, Line2D)
    np.testing.assert_array_equal(disp.ref_line_.get_xydata(), [[0, 0], [1, 1]])
    assert len(disp.bands_) == 1 and isinstance(disp.bands_[0], PolyCollection)
    assert disp.bands_[0].get_label() == "95% consistency band"
    # histogram in a panel under the diagram, 20 bars with the given heights
    assert disp.ax_.child_axes == [disp.hist_ax_]
    assert disp.hist_ax_.get_shared_x_axes().joined(disp.ax_, disp.hist_ax_)
    assert isinstance(disp.hist_[0], BarContainer) and len(disp.hist_[0]) == 20
    heights = [r.get_height() for r in disp.hist_[0]]
    np.testing.assert_allclose(heights, np.arange(20.0))
    disp.figure_.canvas.draw()
    assert disp.hist_ax_.get_window_extent().y1 <= disp.ax_.get_window_extent().y0
    # component bar in its own axes of the same figure
    assert disp.components_ax_ is not None and disp.components_ax_.figure is disp.figure_
    labels = [t.get_text() for t in disp.components_ax_.get_yticklabels()]
    assert labels == ["MCB", "DSC", "UNC"]
    widths = [r.get_width() for r in disp.components_[0]]
    np.testing.assert_allclose(widths, [0.03, 0.08, 0.25])
    assert "BS = 0.2000" in disp.components_ax_.get_title()
    assert disp.ax_.get_xlabel().startswith("Forecast probability")
    assert "1" in disp.ax_.get_xlabel()
    legend_texts = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert "perfectly calibrated" in legend_texts and "model" in legend_texts


def test_plot_on_given_axes_draws_nothing_over_the_data():
    fig, ax = plt.subplots()
    disp = _synthetic().plot(ax=ax, name="other", color="tab:red")
    assert disp.ax_ is ax and disp.figure_ is fig
    # no component inset: the only child axes is the histogram panel
    assert disp.components_ax_ is None and disp.components_ == []
    assert ax.child_axes == [disp.hist_ax_]
    assert disp.line_.get_label() == "other"
    assert mpl.colors.same_color(disp.line_.get_color(), "tab:red")


def test_plot_on_given_components_axes():
    _fig, (ax, cax) = plt.subplots(1, 2)
    disp = _synthetic().plot(ax=ax, components_ax=cax)
    assert disp.components_ax_ is cax


def test_plot_switches():
    disp = _synthetic().plot(ref_line=False, band=False, hist=False, components=False)
    assert disp.ref_line_ is None
    assert disp.bands_ == [] and disp.hist_ == [] and disp.components_ == []
    assert disp.hist_ax_ is None and disp.components_ax_ is None
    # nothing optional given: still a diagram
    bare = ReliabilityDisplay([0.1, 0.5, 0.9], [0.2, 0.5, 0.7]).plot()
    assert bare.bands_ == [] and bare.hist_ax_ is None and bare.components_ax_ is None


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"observed": [0.1, 0.2]}, "same shapes"),
        ({"band_lower": [0.1, 0.2, 0.3]}, "band_lower and band_upper"),
        ({"band_lower": [0.1, 0.2, 0.3], "band_upper": [0.2, 0.3]}, "shape"),
        ({"decomposition_method": "lowess"}, "decomposition_method"),
        ({"band_kind": "credible"}, "band_kind"),
        ({"curve_labels": ["a", "b"]}, "curve_labels"),
    ],
)
def test_bad_display_data(kwargs, match):
    base = {"forecast": [0.1, 0.5, 0.9], "observed": [0.2, 0.5, 0.7]}
    base.update(kwargs)
    with pytest.raises(ValueError, match=match):
        ReliabilityDisplay(**base).plot()


def test_binned_from_predictions():
    rng = np.random.default_rng(0)
    p = rng.uniform(size=400)
    y = (rng.uniform(size=400) < p).astype(int)
    disp = ReliabilityDisplay.from_predictions(
        y, p, decomposition_method="murphy", n_bins=8, strategy="uniform"
    )
    dec = BrierDecomposition("murphy", n_bins=8).fit(y, p)
    assert disp.decomposition_method == "murphy"
    np.testing.assert_allclose(disp.line_.get_xdata(), dec.table_["mean_forecast"])
    np.testing.assert_allclose(disp.line_.get_ydata(), dec.table_["observed_frequency"])
    assert disp.line_.get_marker() == "o"
    labels = [t.get_text() for t in disp.components_ax_.get_yticklabels()]
    assert labels == ["REL", "RES", "UNC", "WBV", "WBC"]
    assert "WBV" in disp.components_ax_.get_title()
    # one Wilson interval bar per bin
    assert len(disp.bands_) == 1
    assert len(disp.bands_[0].get_segments()) == 8
    assert disp.bands_[0].get_label() == "95% Wilson intervals"
    assert sum(r.get_height() for r in disp.hist_[0]) == pytest.approx(400)
    assert disp.ax_.get_ylabel() == "Observed frequency in bin"


def test_binned_skips_empty_bins():
    disp = ReliabilityDisplay.from_predictions(
        Y6, P6, decomposition_method="murphy", n_bins=5, strategy="uniform"
    )
    # bin [0.6, 0.8) is empty
    assert disp.line_.get_xdata().shape == (4,)


def test_multiclass_one_curve_per_class():
    rng = np.random.default_rng(1)
    proba = rng.dirichlet([2, 2, 2], size=600)
    y = np.array([rng.choice(3, p=r) for r in proba])
    labels = np.array(["a", "b", "c"])[y]
    disp = ReliabilityDisplay.from_predictions(
        labels, proba, decomposition_method="murphy", n_bins=5, multiclass="one_vs_rest"
    )
    assert len(disp.lines_) == 3
    assert [ln.get_label() for ln in disp.lines_] == ["a", "b", "c"]
    assert len(disp.hist_) == 3 and len(disp.components_) == 3
    colors = [ln.get_color() for ln in disp.lines_]
    assert len(set(colors)) == 3


def test_decomposition_plot_returns_display():
    dec = BrierDecomposition("murphy", n_bins=5).fit(Y6, P6)
    _fig, ax = plt.subplots()
    disp = dec.plot(ax=ax, name="forecaster")
    assert isinstance(disp, ReliabilityDisplay)
    assert disp.ax_ is ax and disp.line_.get_label() == "forecaster"
    assert disp.components["miscalibration"] == pytest.approx(dec.miscalibration_)


def test_from_estimator_binned_name():
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    X, y = make_classification(n_samples=400, n_features=5, random_state=0)
    clf = LogisticRegression().fit(X, y)
    disp = ReliabilityDisplay.from_estimator(clf, X, y, decomposition_method="murphy")
    assert disp.line_.get_label() == "LogisticRegression"
    assert "positive class: 1" in disp.ax_.get_xlabel()


def test_save_png(tmp_path):
    disp = _synthetic().plot()
    out = tmp_path / "reliability.png"
    disp.figure_.savefig(out, dpi=60)
    assert out.stat().st_size > 5000


# --------------------------------------------------------------------------
# CORP: step function and consistency band
# --------------------------------------------------------------------------


def test_corp_fixture_curve_is_the_pav_fit():
    disp = ReliabilityDisplay.from_predictions(Y6, P6, n_resamples=0)
    assert disp.decomposition_method == "corp"
    np.testing.assert_allclose(disp.line_.get_xdata(), [0.1, 0.2, 0.3, 0.4, 0.5, 0.9])
    np.testing.assert_allclose(disp.line_.get_ydata(), [0.25, 0.25, 0.25, 0.25, 1, 1])
    assert disp.bands_ == []
    widths = [r.get_width() for r in disp.components_[0]]
    np.testing.assert_allclose(widths, [0.1016667, 0.125, 0.25], atol=1e-7)
    assert "MCB − DSC + UNC" in disp.components_ax_.get_title()
    assert disp.ax_.get_ylabel().startswith("Conditional event probability")


def test_corp_consistency_band():
    rng = np.random.default_rng(3)
    p = np.round(rng.uniform(size=1500), 2)
    y = (rng.uniform(size=1500) < p).astype(int)
    dec = BrierDecomposition(n_resamples=40, random_state=0).fit(y, p)
    disp = dec.plot(name="calibrated")
    assert len(disp.bands_) == 1
    res = dec.result_
    # the band polygon spans the stored band forecasts and its limits
    verts = disp.bands_[0].get_paths()[0].vertices
    assert verts[:, 0].min() == pytest.approx(res.band_forecast.min())
    assert verts[:, 0].max() == pytest.approx(res.band_forecast.max())
    assert verts[:, 1].min() == pytest.approx(res.band_lower.min())
    assert verts[:, 1].max() == pytest.approx(res.band_upper.max())
    assert disp.bands_[0].get_label() == "95% consistency band"


def test_corp_from_estimator_with_band(tmp_path):
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    X, y = make_classification(n_samples=600, n_features=5, random_state=1)
    clf = LogisticRegression().fit(X[:300], y[:300])
    disp = ReliabilityDisplay.from_estimator(
        clf, X[300:], y[300:], n_resamples=30, random_state=0, confidence_level=0.9
    )
    assert disp.line_.get_label() == "LogisticRegression"
    assert disp.bands_[0].get_label() == "90% consistency band"
    disp.figure_.savefig(tmp_path / "corp.png", dpi=50)


def test_corp_multiclass_bands_per_class():
    rng = np.random.default_rng(4)
    proba = rng.dirichlet([2, 2, 2], size=500)
    y = np.array([rng.choice(3, p=r) for r in proba])
    disp = ReliabilityDisplay.from_predictions(
        y, proba, n_resamples=20, random_state=0, multiclass="one_vs_rest"
    )
    assert len(disp.lines_) == 3 and len(disp.bands_) == 3
    # one legend entry for the band, not three
    texts = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert texts.count("95% consistency band") == 1


def test_corp_curve_reduced_to_block_ends_without_loss():
    from skbrier.plotting._reliability_data import step_vertices as _step_vertices

    rng = np.random.default_rng(5)
    p = rng.uniform(size=20000)
    y = (rng.uniform(size=20000) < p).astype(int)
    dec = BrierDecomposition().fit(y, p)
    disp = dec.plot()
    x_full = dec.result_.forecast_values
    c_full = dec.result_.recalibrated_values
    x, c = disp.line_.get_xdata(), disp.line_.get_ydata()
    assert x.shape[0] < x_full.shape[0] / 10
    # the drawn polyline passes through every (forecast, recalibrated) point
    np.testing.assert_allclose(np.interp(x_full, x, c), c_full, atol=1e-15)
    # few distinct values: every one is kept
    x6, _c6 = _step_vertices(np.array([0.1, 0.2, 0.3]), np.array([0.2, 0.2, 0.5]))
    np.testing.assert_array_equal(x6, [0.1, 0.2, 0.3])


def test_binned_wilson_intervals_match_statsmodels():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    rng = np.random.default_rng(7)
    p = rng.uniform(size=300)
    y = (rng.uniform(size=300) < p).astype(int)
    dec = BrierDecomposition("murphy", n_bins=6, confidence_level=0.9).fit(y, p)
    disp = dec.plot()
    counts = dec.table_["count"]
    events = np.round(dec.table_["observed_frequency"] * counts).astype(int)
    lo, hi = proportion.proportion_confint(events, counts, alpha=0.1, method="wilson")
    segs = disp.bands_[0].get_segments()
    np.testing.assert_allclose([s[0][1] for s in segs], lo, atol=1e-12)
    np.testing.assert_allclose([s[1][1] for s in segs], hi, atol=1e-12)
    np.testing.assert_allclose([s[0][0] for s in segs], dec.table_["mean_forecast"])
    # frequency weights: a bin's sample size is its weight, so integer
    # weights give the intervals of the repeated rows
    dec_w = BrierDecomposition("murphy", n_bins=6, confidence_level=0.9).fit(
        y, p, sample_weight=np.full(300, 2)
    )
    lo2, _ = proportion.proportion_confint(
        2 * events, 2 * counts, alpha=0.1, method="wilson"
    )
    segs_w = dec_w.plot().bands_[0].get_segments()
    np.testing.assert_allclose([s[0][1] for s in segs_w], lo2, atol=1e-12)


def test_auto_resamples():
    from skbrier.plotting.reliability import _auto_resamples  # noqa: PLC2701

    assert _auto_resamples("auto", np.zeros(100)) == 200
    assert _auto_resamples("auto", [0.1] * 20_001) == 0
    assert _auto_resamples(7, np.zeros(10**6)) == 7
    with pytest.raises(ValueError, match="n_resamples"):
        ReliabilityDisplay.from_predictions(Y6, P6, n_resamples="many")


def test_overlay_two_forecasters_on_one_axes():
    rng = np.random.default_rng(8)
    p = rng.uniform(size=300)
    y = (rng.uniform(size=300) < p).astype(int)
    fig, ax = plt.subplots()
    first = ReliabilityDisplay.from_predictions(y, p, ax=ax, name="A", n_resamples=0)
    second = ReliabilityDisplay.from_predictions(
        y,
        np.clip(p * 1.3, 0, 1),
        ax=ax,
        name="B",
        n_resamples=0,
        hist=False,
        components=False,
        ref_line=False,
    )
    assert second.ax_ is first.ax_ and second.figure_ is fig
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts.count("perfectly calibrated") == 1 and "A" in texts and "B" in texts
    assert len(ax.child_axes) == 1  # the first display's histogram panel


# ---------------------------------------------------------------- several models
def _two_models(n=400, seed=3):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, size=n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p, np.clip(p * 0.7 + 0.1, 0, 1)


def _diagonals(ax):
    return [ln for ln in ax.get_lines() if ln.get_label() == "perfectly calibrated"]


def _legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_models_dict_one_diagram():
    from skbrier.metrics.decomposition import corp_decomposition

    y, p, q = _two_models()
    disp = ReliabilityDisplay.from_predictions(y, {"logreg": p, "gbm": q}, n_resamples=0)
    ax = disp.ax_
    assert [ln.get_label() for ln in disp.lines_] == ["logreg", "gbm"]
    assert len(_diagonals(ax)) == 1
    texts = _legend_texts(ax)
    assert texts.count("perfectly calibrated") == 1
    assert "logreg" in texts and "gbm" in texts
    # each curve is that model's own CORP (PAV) curve
    for line, f in zip(disp.lines_, (p, q)):
        r = corp_decomposition(y, f)
        np.testing.assert_allclose(line.get_ydata(), r.recalibrated_values)
    np.testing.assert_allclose(
        disp.components["miscalibration"],
        [corp_decomposition(y, f).miscalibration for f in (p, q)],
    )
    # one histogram strip per model in the panel under the diagram, the
    # first model on top (the order of the legend)
    assert len(disp.hist_) == 2
    bottoms = [disp.hist_[k][0].get_y() for k in range(2)]
    assert bottoms == [1.0, 0.0]
    # the component bars in their own panel, one bar group per model
    cax = disp.components_ax_
    assert cax is not None and cax.get_legend().get_title().get_text() == "model"
    assert len(disp.components_) == 2
    assert cax.get_title() == "BS = MCB − DSC + UNC"  # no sum of two models' scores
    assert disp.lines_[0].get_color() != disp.lines_[1].get_color()


def test_models_shared_histogram_option():
    y, p, q = _two_models()
    disp = ReliabilityDisplay.from_predictions(
        y, {"a": p, "b": q}, n_resamples=0, hist="shared"
    )
    assert [c[0].get_y() for c in disp.hist_] == [0.0, 0.0]
    with pytest.raises(ValueError, match="hist"):
        ReliabilityDisplay.from_predictions(y, {"a": p}, n_resamples=0, hist="x")


def test_models_from_dataframe_and_bands():
    pd = pytest.importorskip("pandas")
    y, p, q = _two_models()
    frame = pd.DataFrame({"m1": p, "m2": q})
    disp = ReliabilityDisplay.from_predictions(y, frame, n_resamples=30, random_state=0)
    assert [ln.get_label() for ln in disp.lines_] == ["m1", "m2"]
    assert len(disp.bands_) == 2
    # one legend entry for the bands
    assert _legend_texts(disp.ax_).count("95% consistency band") == 1
    # reproducible: the same seed gives the same bands
    again = ReliabilityDisplay.from_predictions(y, frame, n_resamples=30, random_state=0)
    for a, b in zip(disp.bands_, again.bands_):
        np.testing.assert_array_equal(a.get_paths()[0].vertices, b.get_paths()[0].vertices)


def test_list_of_arrays_is_refused():
    y, p, q = _two_models()
    with pytest.raises(TypeError, match="dict"):
        ReliabilityDisplay.from_predictions(y, [p, q], n_resamples=0)
    # a nested list of rows is still a probability matrix
    disp = ReliabilityDisplay.from_predictions(
        y[:4], [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.1, 0.9]], n_resamples=0
    )
    assert len(disp.lines_) >= 1


def test_models_from_estimators_names_deduplicated():
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB

    X, y = make_classification(n_samples=400, random_state=0)
    a = LogisticRegression().fit(X[:200], y[:200])
    b = LogisticRegression(C=0.01).fit(X[:200], y[:200])
    c = GaussianNB().fit(X[:200], y[:200])
    disp = ReliabilityDisplay.from_estimator([a, b, c], X[200:], y[200:], n_resamples=0)
    assert [ln.get_label() for ln in disp.lines_] == [
        "LogisticRegression",
        "LogisticRegression (2)",
        "GaussianNB",
    ]
    np.testing.assert_allclose(
        sorted(disp.lines_[2].get_xdata()),
        sorted(np.unique(c.predict_proba(X[200:])[:, 1]))[
            : len(disp.lines_[2].get_xdata())
        ],
    )
    named = ReliabilityDisplay.from_estimator(
        {"lr": a, "nb": c}, X[200:], y[200:], n_resamples=0
    )
    assert [ln.get_label() for ln in named.lines_] == ["lr", "nb"]


def test_overlay_never_duplicates_parts():
    y, p, q = _two_models()
    fig, ax = plt.subplots()
    n_axes = len(fig.axes)
    ReliabilityDisplay.from_predictions(
        y, p, ax=ax, name="A", n_resamples=20, random_state=1
    )
    after_first = len(fig.axes)
    second = ReliabilityDisplay.from_predictions(
        y, q, ax=ax, name="B", n_resamples=20, random_state=1
    )
    assert len(_diagonals(ax)) == 1
    assert len(ax.child_axes) == 1  # one histogram panel
    assert len(fig.axes) == after_first == n_axes  # nothing beside the diagram
    texts = _legend_texts(ax)
    assert len(texts) == len(set(texts))
    assert {"A", "B", "perfectly calibrated", "95% consistency band"} <= set(texts)
    assert second.ref_line_ is None and second.components_ax_ is None
    assert second.hist_ax_ is None


def test_multiclass_behaviour_kept():
    rng = np.random.default_rng(0)
    proba = rng.dirichlet([1, 1, 1], size=90)
    y = np.array([rng.choice(3, p=row) for row in proba])
    disp = ReliabilityDisplay.from_predictions(
        y, proba, n_resamples=0, multiclass="one_vs_rest"
    )
    assert [ln.get_label() for ln in disp.lines_] == ["0", "1", "2"]
    assert disp.curve_kind == "class"
    assert [c[0].get_y() for c in disp.hist_] == [0.0, 0.0, 0.0]
