"""internal_validation: Harrell's optimism, .632 / .632+ and the stability checks.

The agreement with R pminternal is in tests/test_internal_validation_reference.py;
here: the formulas of .632+ and of the no-information values, the one
resampling engine (seeds, n_jobs, rows against weights, frequency weights),
failed refits, errors and the plots.
"""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from skbrier import brier_score, c_statistic, lowess_calibration_error
from skbrier._core.progress import force_progress
from skbrier.model_selection import internal_validation
from skbrier.model_selection._optimism_measures import (
    MeasureSet,
    combine_632,
    harrell_632_weights,
)


def _data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    lp = -0.5 + X @ np.array([1.0, -0.6, 0.3])
    y = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-lp))).astype(int)
    return X, y


def _lr():
    return LogisticRegression(C=np.inf, solver="newton-cholesky", tol=1e-12)


FAST = {"n_bootstrap": 8, "random_state": 0, "measures": ["brier_score", "c_statistic"]}


# --------------------------------------------------------------------------- .632+
def test_632plus_follows_efron_tibshirani_for_a_loss():
    # err = 0.1, Err1 = 0.2, gamma = 0.5: R = 0.25, w = .632 / (1 - .368 R)
    r, c632, plus = combine_632(
        np.array([0.1]), np.array([0.2]), np.array([0.5]), np.array([-1])
    )
    w = 0.632 / (1 - 0.368 * 0.25)
    assert r[0] == pytest.approx(0.25)
    assert c632[0] == pytest.approx(0.368 * 0.1 + 0.632 * 0.2)
    assert plus[0] == pytest.approx((1 - w) * 0.1 + w * 0.2)


def test_632plus_for_a_gain_clips_and_falls_back():
    app = np.array([0.8, 0.8, 0.8, 0.0])
    oob = np.array([0.7, 0.4, 0.9, 0.3])  # overfit, beyond gamma, better, no gamma
    gamma = np.array([0.5, 0.5, 0.5, np.nan])
    r, c632, plus = combine_632(app, oob, gamma, np.array([1, 1, 1, 0]))
    w = 0.632 / (1 - 0.368 * (0.1 / 0.3))
    assert r == pytest.approx([0.1 / 0.3, 1.0, 0.0, 0.0])
    assert plus[0] == pytest.approx((1 - w) * 0.8 + w * 0.7)
    # R = 1 (Err1 beyond gamma): Efron & Tibshirani's (32)-(33) add
    # (min(Err1, gamma) - err) .368 to the .632 estimate: .632 Err1 + .368 gamma
    assert plus[1] == pytest.approx(0.632 * 0.4 + 0.368 * 0.5)
    assert plus[2:] == pytest.approx(c632[2:])


def test_harrell_632_weights_match_the_definition():
    rng = np.random.default_rng(1)
    B, n = 30, 12
    omitted = rng.uniform(size=(B, n)) < 0.37
    omitted[0] = True
    nomit = omitted.sum(axis=0)
    expected = [
        1 - (1 / B - sum(omitted[b, j] / nomit[j] for j in range(n)) / n) for b in range(B)
    ]
    np.testing.assert_allclose(harrell_632_weights(omitted), expected, rtol=1e-14)
    omitted[:, 3] = False
    with pytest.raises(ValueError, match="increase n_bootstrap"):
        harrell_632_weights(omitted)


def test_no_information_values_are_the_measures_on_all_pairs():
    rng = np.random.default_rng(2)
    n = 30
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(float)
    spec = MeasureSet(None, [0.3])
    gamma = dict(zip(spec.names, spec.no_information(y, p, None)))
    yy, pp = np.repeat(y, n), np.tile(p, n)  # every outcome with every prediction
    assert gamma["brier_score"] == pytest.approx(brier_score(yy, pp), rel=1e-12)
    assert gamma["c_statistic"] == pytest.approx(0.5, abs=1e-12)
    assert gamma["c_statistic"] == pytest.approx(c_statistic(yy, pp), abs=1e-12)
    assert gamma["calibration_slope"] == pytest.approx(0.0, abs=1e-9)
    assert gamma["ici"] == pytest.approx(lowess_calibration_error(yy, pp).eavg, rel=1e-9)
    assert np.isnan(gamma["calibration_intercept"])
    assert np.isnan(gamma["calibration_in_the_large"])
    ybar = y.mean()
    share = np.mean(p >= 0.3)
    assert gamma["net_benefit@0.3"] == pytest.approx(
        ybar * share - (1 - ybar) * share * 0.3 / 0.7, rel=1e-12
    )


# --------------------------------------------------------------------------- engine
def test_same_seed_same_result_for_every_n_jobs():
    X, y = _data()
    a = internal_validation(_lr(), X, y, **FAST)
    b = internal_validation(_lr(), X, y, **FAST, n_jobs=2)
    np.testing.assert_array_equal(a.replicates["optimism"], b.replicates["optimism"])
    np.testing.assert_array_equal(a.stability.bootstrap, b.stability.bootstrap)
    c = internal_validation(_lr(), X, y, **{**FAST, "random_state": 1})
    assert not np.array_equal(a.replicates["optimism"], c.replicates["optimism"])


def test_given_indices_are_the_resamples():
    X, y = _data()
    rng = np.random.default_rng(5)
    idx = rng.integers(0, y.size, (9, y.size))  # not a multiple of the chunk size
    res = internal_validation(
        _lr(), X, y, n_bootstrap=9, indices=idx, measures=["brier_score"]
    )
    for b in (0, 4, 8):
        model = _lr().fit(X[idx[b]], y[idx[b]])
        p = model.predict_proba(X)[:, 1]
        np.testing.assert_allclose(res.stability.bootstrap[b], p, rtol=1e-9)
        opt = brier_score(y[idx[b]], p[idx[b]]) - brier_score(y, p)
        assert res.replicates["optimism"][b, 0] == pytest.approx(opt, rel=1e-9)


def test_weights_resampling_draws_the_same_rows():
    X, y = _data()
    rows = internal_validation(_lr(), X, y, **FAST, correction="both")
    weights = internal_validation(
        _lr(), X, y, **FAST, correction="both", resample="weights"
    )
    for key in ("optimism", "out_of_bag"):
        np.testing.assert_allclose(
            rows.replicates[key], weights.replicates[key], rtol=1e-7, atol=1e-10
        )


def test_integer_weights_equal_repeated_rows():
    X, y = _data(n=60)
    w = np.random.default_rng(3).integers(0, 4, y.size).astype(float)
    w[:2] = 1.0
    rep = np.repeat(np.arange(y.size), w.astype(int))
    kw = {"n_bootstrap": 6, "random_state": 4}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small resamples may separate the outcomes
        weighted = internal_validation(_lr(), X, y, sample_weight=w, **kw)
        repeated = internal_validation(_lr(), X[rep], y[rep], resample="weights", **kw)
    for field in ("apparent", "optimism", "corrected"):
        a, b = getattr(weighted, field), getattr(repeated, field)
        for name in weighted.measures:
            assert a[name] == pytest.approx(b[name], rel=1e-7, abs=1e-9), (field, name)


def test_pipeline_gets_the_weights_at_its_final_step():
    X, y = _data()
    w = np.random.default_rng(6).integers(1, 3, y.size).astype(float)
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    res = internal_validation(pipe, X, y, sample_weight=w, **FAST)
    assert res.n_valid == {"brier_score": 8, "c_statistic": 8}


def test_progress_is_one_labelled_line(capsys):
    X, y = _data()
    with force_progress():
        internal_validation(_lr(), X, y, **FAST)
    assert "internal validation" in capsys.readouterr().err


# --------------------------------------------------------------------------- failures
class _FailsOnSmallSamples(ClassifierMixin, BaseEstimator):
    """Refuses to fit when fewer than ``k`` distinct rows are drawn."""

    def __init__(self, k=0):
        self.k = k

    def fit(self, X, y):
        if len(np.unique(X[:, 0])) < self.k:
            raise RuntimeError("too few distinct rows")
        self.model_ = LogisticRegression().fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict_proba(self, X):
        return self.model_.predict_proba(X)


def test_failed_refits_are_left_out_with_a_warning():
    X, y = _data(n=40)
    with pytest.warns(RuntimeWarning, match=r"of 12 bootstrap refits failed .*too few"):
        res = internal_validation(
            _FailsOnSmallSamples(k=26), X, y, n_bootstrap=12, random_state=0,
            measures=["brier_score"],
        )  # fmt: skip
    n_ok = res.n_valid["brier_score"]
    assert 0 < n_ok < 12
    assert res.stability.n_models == n_ok
    with pytest.raises(ValueError, match="every one of the 4 bootstrap refits failed"):
        internal_validation(_FailsOnSmallSamples(k=35), X, y, n_bootstrap=4)


def test_undefined_measures_are_nan_on_their_resample():
    # resample 0 draws every event: its out-of-bag rows hold none (C undefined)
    X, y = _data(n=30)
    y = np.zeros(30, dtype=int)
    events = [0, 5, 9, 14, 20]
    y[events] = 1
    idx = np.random.default_rng(0).integers(0, 30, (30, 30))
    idx[0, :5] = events
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a resample without events cannot be fitted
        res = internal_validation(
            _lr(), X, y, n_bootstrap=30, indices=idx, correction="632plus",
            measures=["c_statistic"],
        )  # fmt: skip
    oob = res.replicates["out_of_bag"][:, 0]
    assert np.isnan(oob[0])
    assert res.n_valid["c_statistic"] == int(np.sum(~np.isnan(oob))) < 30
    assert np.isfinite(res.corrected_632plus["c_statistic"])


def test_632_needs_every_row_left_out_once():
    X, y = _data()
    with pytest.raises(ValueError, match="in every one of the 2 resamples"):
        internal_validation(
            _lr(), X, y, n_bootstrap=2, correction="632plus", random_state=0
        )


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"n_bootstrap": 1}, ValueError, "n_bootstrap must be at least 2"),
        ({"correction": "boot"}, ValueError, "correction"),
        ({"measures": ["auc"]}, ValueError, "measures must be distinct names"),
        ({"thresholds": [0.0]}, ValueError, "thresholds must lie strictly"),
        ({"resample": "blocks"}, ValueError, "resample"),
        ({"indices": np.zeros((3, 120), dtype=int)}, ValueError, r"shape \(n_bootstrap"),
        ({"indices": np.full((200, 120), 120)}, ValueError, r"row numbers in \[0, 119\]"),
        ({"indices": np.zeros((200, 120))}, TypeError, "integer row numbers"),
        (
            {"sample_weight": np.ones(120), "resample": "rows"},
            ValueError,
            "resample='rows'",
        ),
        ({"sample_weight": np.full(120, 0.5)}, ValueError, "integer sample_weight"),
        # audit: weights x1e200 overflowed the repeated rows of the ICI's lowess
        # (a numpy cast warning, then a silently NaN ICI)
        ({"sample_weight": np.full(120, 1e200)}, ValueError, "sums to 1.2e.202.*'ici'"),
        ({"sample_weight": np.ones(5)}, ValueError, "sample_weight has 5 samples"),
    ],
)
def test_errors_name_the_parameter(kwargs, error, match):
    X, y = _data()
    with pytest.raises(error, match=match):
        internal_validation(_lr(), X, y, **kwargs)


def test_estimator_errors():
    X, y = _data()
    with pytest.raises(TypeError, match="predict_proba"):
        internal_validation(StandardScaler(), X, y)
    with pytest.raises(TypeError, match="KNeighborsClassifier.fit does not"):
        internal_validation(KNeighborsClassifier(), X, y, sample_weight=np.ones(120))
    with pytest.raises(ValueError, match="y must be 1-D"):
        internal_validation(_lr(), X, y[:10])
    res = internal_validation(KNeighborsClassifier(), X, y, **FAST)  # rows: any estimator
    assert res.n_bootstrap == 8


def test_string_labels_with_pos_label():
    X, y = _data()
    labels = np.where(y == 1, "yes", "no")
    a = internal_validation(_lr(), X, labels, pos_label="yes", **FAST)
    b = internal_validation(_lr(), X, y, **FAST)
    assert a.corrected == pytest.approx(b.corrected, rel=1e-9)


# --------------------------------------------------------------------------- result
def test_result_table_and_methods():
    X, y = _data()
    harrell = internal_validation(_lr(), X, y, **FAST)
    assert harrell.corrected_632plus is None and harrell.out_of_bag is None
    frame = harrell.to_frame()
    assert list(frame.columns) == [
        "measure", "apparent", "optimism", "corrected", "simple_bootstrap", "n_valid"
    ]  # fmt: skip
    plus = internal_validation(
        _lr(), X, y, **{**FAST, "n_bootstrap": 30}, correction="632plus"
    )
    assert plus.corrected is None and plus.optimism is None
    assert "corrected_632plus" in plus.to_frame().columns
    with pytest.raises(ValueError, match="n_resamples > 0"):
        plus.confidence_interval()
    assert plus.apparent == harrell.apparent
    assert "corrected_632plus" in plus.summary()
    assert harrell.corrected["brier_score"] == pytest.approx(
        harrell.apparent["brier_score"] - harrell.optimism["brier_score"]
    )


def test_stability_numbers_and_plots():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = _data()
    s = internal_validation(_lr(), X, y, **FAST).stability
    lo, hi = s.prediction_bounds(0.9)
    assert np.all(lo <= hi)
    assert s.individual_mape == pytest.approx(np.abs(s.bootstrap - s.original).mean(axis=0))
    cii = s.classification_instability(0.4)
    assert cii == pytest.approx(((s.bootstrap >= 0.4) != (s.original >= 0.4)).mean(axis=0))
    dc = s.decision_curves([0.1, 0.3])
    assert dc.model_names == ["original"] + [str(b) for b in range(1, 9)]
    xs, ys = s.calibration_curves(20)
    assert xs.shape == ys.shape == (9, 20)
    for draw in (
        s.plot_predictions,
        s.plot_mape,
        s.plot_calibration,
        lambda: s.plot_classification(0.4),
        lambda: s.plot_decision_curve(thresholds=[0.1, 0.2, 0.3]),
    ):
        ax = draw()
        assert ax.get_xlabel()
        plt.close("all")
    _, ax = plt.subplots()
    assert s.plot_mape(ax=ax) is ax
    plt.close("all")
    with pytest.raises(ValueError, match="coverage"):
        s.prediction_bounds(95)
    with pytest.raises(ValueError, match="threshold"):
        s.classification_instability(1.0)


def test_stability_plots_draw_the_same_elements():
    """The individual plots and the curve plots keep their labels, points and legends."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = _data()
    s = internal_validation(_lr(), X, y, **FAST).stability
    for ax, ylabel, values in (
        (s.plot_mape(), "MAPE", s.individual_mape),
        (s.plot_classification(0.4), "Classification instability index",
         s.classification_instability(0.4)),
    ):  # fmt: skip
        assert ax.get_xlabel() == "Estimated risk from development model"
        assert ax.get_ylabel() == ylabel
        points = ax.lines[0]
        assert points.get_marker() == "." and points.get_color() == (0.5, 0.5, 0.5, 0.5)
        np.testing.assert_array_equal(points.get_ydata(), values)
    assert list(ax.lines[-1].get_xdata()) == [0.4, 0.4]  # the threshold line
    plt.close("all")
    for ax in (
        s.plot_calibration(n_points=20),
        s.plot_decision_curve(thresholds=[0.1, 0.3]),
    ):
        grey = [ln for ln in ax.lines if ln.get_color() == (0.5, 0.5, 0.5, 0.3)]
        assert len(grey) == s.n_models + 1  # the curves and the legend's entry
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [
            "Original", f"Bootstrap (n = {s.n_models})"]  # fmt: skip
        original = [ln for ln in ax.lines if ln.get_label() == "Original"]
        assert len(original) == 1 and original[0].get_linestyle() == "--"
    plt.close("all")


# --------------------------------------------------------------------------- separation
@pytest.mark.parametrize("correction", ["both", "cv_optimism"])
def test_separated_resamples_leave_the_calibration_estimates_nan_with_one_warning(
    correction,
):
    """Tiny samples (20 rows, 3 events, 4 predictors): many bootstrap models
    separate their resample, where the calibration slope has no finite
    estimate.  The slope and intercept estimates are NaN (were: optimism
    +inf, corrected -inf, the intercept averaged over the resamples that did
    not separate) with one warning saying why and what to do; the other
    measures are unaffected."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 4))
    y = (rng.uniform(size=20) < 0.2).astype(int)
    measures = ["calibration_slope", "calibration_intercept", "c_statistic"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = internal_validation(
            _lr(), X, y, n_bootstrap=30 if correction == "both" else 4,
            correction=correction, measures=measures, random_state=0,
        )  # fmt: skip
    kinds = [(w.category, str(w.message)) for w in caught]
    separation = [m for c, m in kinds if "separate the outcomes" in m]
    assert len(separation) == 1, kinds
    assert separation[0].startswith("calibration_slope, calibration_intercept:")
    assert "more rows or events" in separation[0]
    assert not [m for c, m in kinds if "invalid value" in m or "perfectly separated" in m]
    fields = ["optimism", "corrected"] + (
        ["out_of_bag", "corrected_632", "corrected_632plus"] if correction == "both" else []
    )
    for field in fields:
        for name in measures[:2]:
            assert np.isnan(getattr(res, field)[name]), (field, name)
        assert np.isfinite(getattr(res, field)["c_statistic"]), field
    assert np.isfinite(res.apparent["calibration_slope"])


def test_a_resample_that_leaves_no_row_out():
    """On six rows a bootstrap resample may draw every row: its out-of-bag set
    is empty (the C statistic raised IndexError there); .632+ uses the
    resamples that left rows out."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(6, 2))
    y = np.array([0, 1, 0, 1, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = internal_validation(
            LogisticRegression(), X, y, n_bootstrap=10, random_state=0, correction="both"
        )
    assert np.isfinite(res.corrected["brier_score"])
    assert np.isfinite(res.corrected_632plus["brier_score"])
