"""ReliabilityDisplay against scikit-learn's calibration curve, to the last bit.

The binned diagram (``decomposition_method="murphy"``) must show the points of
``sklearn.calibration.calibration_curve`` / ``CalibrationDisplay`` under
scikit-learn's defaults up to 1.11 (5 uniform bins) and under those of 1.12
(``n_bins="cube_root"``, ``strategy="quantile"``; a fixture made by
``tests/fixtures/make_sklearn_calibration_curve_fixture.py``), and add what
``CalibrationDisplay`` lacks: frequency weights (scikit-learn issue 11352),
per-bin Wilson or Clopper-Pearson intervals (issue 30664), several models on
one diagram.
"""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg")
import matplotlib.pyplot as plt
from sklearn.calibration import CalibrationDisplay, calibration_curve
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB

from skbrier.plotting.reliability import ReliabilityDisplay

FIXTURE = (
    pathlib.Path(__file__).parent / "fixtures" / "sklearn_calibration_curve_fixture.json"
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _data(kind: str, n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        p = rng.uniform(size=n)
    elif kind == "rounded":  # ties; the smallest forecast repeated
        p = np.round(rng.uniform(size=n), 1)
    elif kind == "tenths":  # k * 0.1 sits on scikit-learn's uniform edges
        p = rng.integers(0, 11, size=n) * 0.1
    elif kind == "skewed":
        p = rng.beta(0.4, 4.0, size=n)
    else:  # constant
        p = np.full(n, 0.3)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p


def _assert_same_points(disp, prob_true, prob_pred):
    # to the last bit: array_equal, not allclose
    np.testing.assert_array_equal(disp.forecast, prob_pred)
    np.testing.assert_array_equal(disp.observed, prob_true)
    np.testing.assert_array_equal(
        disp.line_.get_xydata(), np.column_stack([prob_pred, prob_true])
    )


DATASETS = [
    ("uniform", 3),
    ("uniform", 400),
    ("rounded", 250),
    ("tenths", 300),
    ("skewed", 600),
    ("constant", 40),
]
BINNINGS = [
    (5, "uniform"),
    (10, "uniform"),
    (37, "uniform"),
    (1, "uniform"),
    (5, "quantile"),
    (13, "quantile"),
]


@pytest.mark.parametrize("kind, n", DATASETS)
@pytest.mark.parametrize("n_bins, strategy", BINNINGS)
def test_from_predictions_points_are_calibration_curve(kind, n, n_bins, strategy):
    y, p = _data(kind, n, seed=n_bins)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    disp = ReliabilityDisplay.from_predictions(
        y, p, decomposition_method="murphy", n_bins=n_bins, strategy=strategy
    )
    _assert_same_points(disp, prob_true, prob_pred)
    # and the points scikit-learn's own display draws
    sk = CalibrationDisplay.from_predictions(y, p, n_bins=n_bins, strategy=strategy)
    np.testing.assert_array_equal(disp.line_.get_xydata(), sk.line_.get_xydata())


def test_scikit_learns_defaults_up_to_1_11():
    y, p = _data("tenths", 500, seed=4)
    sk = CalibrationDisplay.from_predictions(y, p, n_bins=5, strategy="uniform")
    disp = ReliabilityDisplay.from_predictions(
        y, p, decomposition_method="murphy", n_bins=5, strategy="uniform"
    )
    np.testing.assert_array_equal(disp.line_.get_xydata(), sk.line_.get_xydata())


@pytest.mark.parametrize("pos_label", [None, 0])
@pytest.mark.parametrize("model", [LogisticRegression(C=0.05), GaussianNB()])
@pytest.mark.parametrize("n_bins, strategy", [(5, "uniform"), (8, "quantile")])
def test_from_estimator_points_are_calibration_display(model, pos_label, n_bins, strategy):
    X, y = make_classification(n_samples=700, n_features=6, random_state=3)
    clf = model.fit(X[:300], y[:300])
    sk = CalibrationDisplay.from_estimator(
        clf, X[300:], y[300:], n_bins=n_bins, strategy=strategy, pos_label=pos_label
    )
    disp = ReliabilityDisplay.from_estimator(
        clf, X[300:], y[300:], decomposition_method="murphy", n_bins=n_bins, strategy=strategy,
        pos_label=pos_label,
    )  # fmt: skip
    np.testing.assert_array_equal(disp.line_.get_xydata(), sk.line_.get_xydata())
    assert disp.line_.get_label() == type(model).__name__


def test_string_labels_and_pos_label():
    y, p = _data("uniform", 300, seed=5)
    ys = np.where(y == 1, "sick", "well")
    prob_true, prob_pred = calibration_curve(ys, p, n_bins=6, pos_label="sick")
    disp = ReliabilityDisplay.from_predictions(
        ys, p, decomposition_method="murphy", n_bins=6, strategy="uniform", pos_label="sick"
    )
    _assert_same_points(disp, prob_true, prob_pred)
    assert "positive class: sick" in disp.ax_.get_xlabel()


# ----------------------------------------------------------------- 1.12's defaults
def _fixture():
    return json.loads(FIXTURE.read_text())


def _sklearn_has_cube_root() -> bool:
    try:
        calibration_curve([0, 1], [0.2, 0.8], n_bins="cube_root")
    except (ValueError, TypeError):
        return False
    return True


@pytest.mark.parametrize("case", _fixture()["cases"], ids=lambda c: c["name"])
def test_defaults_are_scikit_learn_1_12(case):
    y, p = np.array(case["y"]), np.array(case["p"])
    # the defaults here are n_bins="cube_root", strategy="quantile"
    disp = ReliabilityDisplay.from_predictions(y, p, decomposition_method="murphy")
    _assert_same_points(disp, np.array(case["prob_true"]), np.array(case["prob_pred"]))
    assert case["n_bins"] == math.ceil(len(y) ** (1 / 3))
    # the installed scikit-learn with the number of bins resolved
    prob_true, prob_pred = calibration_curve(
        y, p, n_bins=case["n_bins"], strategy="quantile"
    )
    _assert_same_points(disp, prob_true, prob_pred)
    if _sklearn_has_cube_root():  # fails loudly the day a release disagrees
        prob_true, prob_pred = calibration_curve(
            y, p, n_bins="cube_root", strategy="quantile"
        )
        _assert_same_points(disp, prob_true, prob_pred)


def test_cube_root_counts_the_total_weight():
    y, p = _data("uniform", 64, seed=6)
    w = np.full(64, 2.0)  # 128 rows: 6 bins, not 4
    disp = ReliabilityDisplay.from_predictions(
        y, p, decomposition_method="murphy", strategy="uniform", sample_weight=w
    )
    reps = ReliabilityDisplay.from_predictions(
        np.repeat(y, 2), np.repeat(p, 2), decomposition_method="murphy", strategy="uniform"
    )
    assert disp.forecast.shape == reps.forecast.shape
    assert len(calibration_curve(y, p, n_bins=6)[0]) == disp.forecast.shape[0]


@pytest.mark.parametrize("n_bins", ["sqrt", 0, 1.5])
def test_bad_n_bins(n_bins):
    y, p = _data("uniform", 30)
    with pytest.raises((ValueError, TypeError), match="n_bins"):
        ReliabilityDisplay.from_predictions(
            y, p, decomposition_method="murphy", n_bins=n_bins
        )


# ------------------------------------------------------------------------ weights
@pytest.mark.parametrize(
    "n_bins, strategy", [("cube_root", "quantile"), (7, "quantile"), (5, "uniform")]
)
@pytest.mark.parametrize("interval", ["wilson", "clopper_pearson"])
def test_integer_weights_are_repeated_rows(n_bins, strategy, interval):
    y, p = _data("rounded", 300, seed=7)
    w = np.random.default_rng(8).integers(0, 4, size=300)
    kw = {
        "decomposition_method": "murphy",
        "n_bins": n_bins,
        "strategy": strategy,
        "interval": interval,
    }
    a = ReliabilityDisplay.from_predictions(y, p, sample_weight=w, **kw)
    b = ReliabilityDisplay.from_predictions(np.repeat(y, w), np.repeat(p, w), **kw)
    np.testing.assert_allclose(a.forecast, b.forecast, rtol=1e-13)
    np.testing.assert_allclose(a.observed, b.observed, rtol=1e-13)
    np.testing.assert_allclose(a.band_lower, b.band_lower, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(a.band_upper, b.band_upper, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(a.hist_weights, b.hist_weights)
    for key in ("miscalibration", "discrimination", "uncertainty", "brier_score"):
        assert a.components[key] == pytest.approx(b.components[key], rel=1e-12)


def test_zero_weights_drop_rows_and_scale_is_free():
    y, p = _data("uniform", 200, seed=9)
    w = np.random.default_rng(10).uniform(0.5, 2.0, size=200)
    w[::7] = 0.0
    kw = {"decomposition_method": "murphy", "n_bins": 6, "strategy": "quantile"}
    a = ReliabilityDisplay.from_predictions(y, p, sample_weight=w, **kw)
    keep = w > 0
    b = ReliabilityDisplay.from_predictions(y[keep], p[keep], sample_weight=w[keep], **kw)
    np.testing.assert_array_equal(a.forecast, b.forecast)
    np.testing.assert_array_equal(a.observed, b.observed)
    # uniform bins do not depend on the scale of the weights (quantile bins
    # of frequency weights do: they are those of the repeated rows)
    kw["strategy"] = "uniform"
    a = ReliabilityDisplay.from_predictions(y, p, sample_weight=w, **kw)
    c = ReliabilityDisplay.from_predictions(y, p, sample_weight=w * 1024.0, **kw)
    np.testing.assert_array_equal(a.forecast, c.forecast)
    np.testing.assert_array_equal(a.observed, c.observed)


def test_weighted_corp_equals_repeated_rows():
    y, p = _data("rounded", 150, seed=11)
    w = np.random.default_rng(12).integers(1, 4, size=150)
    a = ReliabilityDisplay.from_predictions(y, p, sample_weight=w, n_resamples=0)
    b = ReliabilityDisplay.from_predictions(np.repeat(y, w), np.repeat(p, w), n_resamples=0)
    np.testing.assert_allclose(a.observed, b.observed, rtol=1e-12)
    np.testing.assert_allclose(a.hist_weights, b.hist_weights)


# ---------------------------------------------------------------------- intervals
def _reference_interval(events, total, level, method):
    """statsmodels' proportion_confint, or scipy's binomtest for whole counts."""
    try:
        from statsmodels.stats.proportion import proportion_confint
    except ImportError:
        from scipy.stats import binomtest

        if not np.allclose(events, np.round(events)) or not np.allclose(
            total, np.round(total)
        ):
            pytest.skip("statsmodels is needed for weighted counts")
        how = {"wilson": "wilson", "beta": "exact"}[method]
        cis = [
            binomtest(int(round(k)), int(round(n))).proportion_ci(level, method=how)
            for k, n in zip(events, total)
        ]
        return np.array([c.low for c in cis]), np.array([c.high for c in cis])
    return proportion_confint(events, total, alpha=1 - level, method=method)


@pytest.mark.parametrize(
    "interval, method", [("wilson", "wilson"), ("clopper_pearson", "beta")]
)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("level", [0.95, 0.8])
def test_intervals_equal_proportion_confint(interval, method, weighted, level):
    y, p = _data("skewed", 800, seed=13)
    w = np.random.default_rng(14).uniform(0.2, 3.0, size=800) if weighted else np.ones(800)
    strategy = "uniform" if weighted else "quantile"
    disp = ReliabilityDisplay.from_predictions(
        y, p, decomposition_method="murphy", n_bins=8, strategy=strategy, interval=interval,
        confidence_level=level, sample_weight=w if weighted else None,
    )  # fmt: skip
    # each bin's weighted count of events and total weight, by hand in
    # scikit-learn's bins
    levels = np.linspace(0, 1, 9)
    edges = levels if weighted else np.percentile(p, levels * 100)
    ids = np.searchsorted(edges[1:-1], p)
    total = np.bincount(ids, weights=w, minlength=8)
    events = np.bincount(ids, weights=w * y, minlength=8)
    keep = total > 0
    events, total = events[keep], total[keep]
    np.testing.assert_allclose(disp.observed, events / total, rtol=1e-14)
    lo, hi = _reference_interval(events, total, level, method)
    np.testing.assert_allclose(disp.band_lower, lo, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(disp.band_upper, hi, rtol=1e-12, atol=1e-15)
    # drawn as one bar per bin at the bin's mean forecast
    segs = disp.bands_[0].get_segments()
    np.testing.assert_allclose([s[0][0] for s in segs], disp.forecast)
    np.testing.assert_allclose([s[0][1] for s in segs], lo, rtol=1e-12, atol=1e-15)
    name = "Wilson" if interval == "wilson" else "Clopper–Pearson"
    assert disp.bands_[0].get_label() == f"{level:.0%} {name} intervals"


def test_clopper_pearson_ends_and_no_intervals():
    y = np.array([0, 0, 0, 1, 1, 1])
    p = np.array([0.1, 0.15, 0.2, 0.8, 0.85, 0.9])
    disp = ReliabilityDisplay.from_predictions(
        y,
        p,
        decomposition_method="murphy",
        n_bins=2,
        strategy="uniform",
        interval="clopper_pearson",
    )
    # no event: the lower limit is 0; all events: the upper limit is 1
    assert disp.band_lower[0] == 0.0 and disp.band_upper[1] == 1.0
    np.testing.assert_allclose(disp.band_upper[0], 1 - 0.025 ** (1 / 3), rtol=1e-12)
    bare = ReliabilityDisplay.from_predictions(
        y, p, decomposition_method="murphy", n_bins=2, strategy="uniform", interval=None
    )
    assert bare.bands_ == [] and bare.band_lower is None
    with pytest.raises(ValueError, match="interval"):
        ReliabilityDisplay.from_predictions(
            y, p, decomposition_method="murphy", interval="agresti"
        )


# ----------------------------------------------------------------- several models
def test_several_models_each_its_calibration_curve():
    y, p = _data("uniform", 900, seed=15)
    models = {
        "logreg": p,
        "overconfident": np.clip(1.4 * p - 0.2, 0, 1),
        "flat": 0.3 + 0.4 * p,
    }
    disp = ReliabilityDisplay.from_predictions(
        y, models, decomposition_method="murphy", n_bins=7, strategy="quantile"
    )
    assert [ln.get_label() for ln in disp.lines_] == list(models)
    for line, q in zip(disp.lines_, models.values()):
        prob_true, prob_pred = calibration_curve(y, q, n_bins=7, strategy="quantile")
        np.testing.assert_array_equal(
            line.get_xydata(), np.column_stack([prob_pred, prob_true])
        )
    texts = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert texts == ["perfectly calibrated", *models, "95% Wilson intervals"]
    assert len(disp.bands_) == 3


def test_several_estimators_each_its_calibration_display():
    X, y = make_classification(n_samples=600, random_state=16)
    a = LogisticRegression().fit(X[:300], y[:300])
    b = GaussianNB().fit(X[:300], y[:300])
    disp = ReliabilityDisplay.from_estimator(
        {"lr": a, "nb": b},
        X[300:],
        y[300:],
        decomposition_method="murphy",
        n_bins=5,
        strategy="uniform",
    )
    for line, est in zip(disp.lines_, (a, b)):
        sk = CalibrationDisplay.from_estimator(est, X[300:], y[300:], n_bins=5)
        np.testing.assert_array_equal(line.get_xydata(), sk.line_.get_xydata())


# ------------------------------------------------------------------------ layout
def _bbox(ax):
    ax.figure.canvas.draw()
    return ax.get_window_extent()


def test_nothing_is_drawn_over_the_data():
    y, p = _data("uniform", 500, seed=17)
    models = {"a": p, "b": np.clip(p + 0.1, 0, 1), "c": p**1.5}
    disp = ReliabilityDisplay.from_predictions(y, models, decomposition_method="murphy")
    ax, hax, cax = disp.ax_, disp.hist_ax_, disp.components_ax_
    main = _bbox(ax)
    # the histogram strips: one panel under the diagram, sharing its x axis
    assert ax.child_axes == [hax]
    assert _bbox(hax).y1 <= main.y0 + 1e-6
    assert hax.get_shared_x_axes().joined(ax, hax)
    assert [t.get_text() for t in hax.get_yticklabels()] == ["c", "b", "a"]
    # the components: a panel of their own, beside the diagram
    assert cax is not None and cax not in ax.child_axes
    assert _bbox(cax).x0 >= main.x1 - 1e-6
    # on a given ax: no component inset at all
    fig, ax2 = plt.subplots()
    d2 = ReliabilityDisplay.from_predictions(y, p, decomposition_method="murphy", ax=ax2)
    assert d2.components_ax_ is None and ax2.child_axes == [d2.hist_ax_]
    assert _bbox(d2.hist_ax_).y1 <= _bbox(ax2).y0 + 1e-6
    # the x label is the diagram's, shown under the histogram
    assert d2.ax_.get_xlabel() == d2.hist_ax_.get_xlabel() == "Forecast probability"
