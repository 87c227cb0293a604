"""Calibration statistics against R's rms::val.prob (fixtures made by
tests/fixtures/make_valprob_fixtures.R), glm, Hmisc::somers2 and scikit-learn."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import roc_auc_score

from skbrier.metrics.brier import brier_score
from skbrier.metrics.calibration import (
    c_statistic,
    calibration_in_the_large,
    calibration_intercept_slope,
    lowess_calibration_error,
    spiegelhalter_z,
)
from skbrier.metrics.calibration_error import calibration_error

_JSON = json.loads(
    (Path(__file__).parent / "fixtures" / "valprob_fixtures.json").read_text()
)
# the constant-forecast cases (val.prob's special branch: U on 1 df) are kept
# apart in the JSON; the tests below run on both
FIXTURES = _JSON["cases"] + _JSON["constant_cases"]
IDS = [c["name"] for c in FIXTURES]
TOL = 1e-6


def _data(case):
    return (
        np.asarray(case["y"], dtype=float),
        np.asarray(case["p"], dtype=float),
        None if case.get("w") is None else np.asarray(case["w"], dtype=float),
    )


def _fit(y, p, w=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return calibration_intercept_slope(y, p, sample_weight=w)


@pytest.mark.parametrize("case", FIXTURES, ids=IDS)
def test_matches_val_prob(case):
    """Intercept, slope, Spiegelhalter z/p, Brier and the LR indexes of val.prob
    (weighted case: val.prob on rows repeated w times)."""
    y, p, w = _data(case)
    v = case["valprob"]
    res = _fit(y, p, w)
    assert res.converged
    assert res.intercept == pytest.approx(v["Intercept"], abs=TOL)
    assert res.slope == pytest.approx(v["Slope"], abs=TOL)
    z, pval = spiegelhalter_z(y, p, sample_weight=w)
    # val.prob's constant-forecast branch shifts its S:z and S:p (rms 6.5-0):
    # the script records Spiegelhalter's z computed by val.prob's formula
    spi = case.get("spiegelhalter", {"z": v["S:z"], "p": v["S:p"]})
    assert z == pytest.approx(spi["z"], abs=TOL)
    assert pval == pytest.approx(spi["p"], abs=TOL)
    assert brier_score(y, p, sample_weight=w) == pytest.approx(v["Brier"], abs=TOL)
    assert res.lr_chi2 == pytest.approx(v["D:Chi-sq"], abs=TOL)
    assert res.unreliability_chi2 == pytest.approx(v["U:Chi-sq"], abs=TOL)
    assert res.unreliability_pvalue == pytest.approx(v["U:p"], abs=TOL)
    assert res.r2 == pytest.approx(v["R2"], abs=TOL)
    assert res.discrimination_index == pytest.approx(v["D"], abs=TOL)
    assert res.unreliability_index == pytest.approx(v["U"], abs=TOL)
    assert res.quality_index == pytest.approx(v["Q"], abs=TOL)


LOWESS = [c for c in FIXTURES if "lowess_at_p" in c]


@pytest.mark.parametrize("case", [c for c in LOWESS if c.get("w") is None], ids=str)
def test_lowess_errors_match_val_prob(case):
    y, p, _ = _data(case)
    v = case["valprob"]
    err = lowess_calibration_error(y, p)
    assert err.emax == pytest.approx(v["Emax"], abs=TOL)
    assert err.e90 == pytest.approx(v["E90"], abs=TOL)
    assert err.eavg == pytest.approx(v["Eavg"], abs=TOL)


@pytest.mark.parametrize("case", LOWESS, ids=[c["name"] for c in LOWESS])
def test_lowess_curve_matches_r(case):
    from skbrier._core.kernels.calibration import lowess_calibration_curve

    y, p, _ = _data(case)
    np.testing.assert_allclose(
        lowess_calibration_curve(y, p), case["lowess_at_p"], rtol=0, atol=1e-10
    )


@pytest.mark.parametrize("case", FIXTURES, ids=IDS)
def test_matches_glm(case):
    """Coefficients, standard errors and calibration in the large against R's glm
    (weighted glm for the weighted case)."""
    y, p, w = _data(case)
    g = case["glm"]
    res = _fit(y, p, w)
    assert res.intercept == pytest.approx(g["intercept"], abs=TOL)
    assert res.intercept_stderr == pytest.approx(g["intercept_se"], abs=TOL)
    if g["slope"] is None:  # constant forecast: glm's slope is NA, val.prob's 0
        assert res.slope == 0.0 and math.isnan(res.slope_stderr)
    else:
        assert res.slope == pytest.approx(g["slope"], abs=TOL)
        assert res.slope_stderr == pytest.approx(g["slope_se"], abs=TOL)
    assert res.calibration_in_the_large == pytest.approx(g["citl"], abs=TOL)
    assert res.calibration_in_the_large_stderr == pytest.approx(g["citl_se"], abs=TOL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert calibration_in_the_large(y, p, sample_weight=w) == pytest.approx(
            g["citl"], abs=TOL
        )


@pytest.mark.parametrize("case", FIXTURES, ids=IDS)
def test_c_statistic_matches_somers2(case):
    y, p, _ = _data(case)
    assert c_statistic(y, p) == pytest.approx(case["somers2_C"], abs=1e-12)


def test_extremes_excluded_with_warning():
    case = next(c for c in FIXTURES if c["name"] == "extremes")
    y, p, _ = _data(case)
    with pytest.warns(UserWarning, match="5 samples with y_proba exactly 0 or 1"):
        res = calibration_intercept_slope(y, p)
    assert res.n_excluded == 5
    assert res.n_used == len(y) - 5


def test_weights_equal_repeated_rows():
    case = next(c for c in FIXTURES if c["name"] == "weighted")
    y, p, w = _data(case)
    rep = w.astype(int)
    yr, pr = np.repeat(y, rep), np.repeat(p, rep)
    a, b = _fit(y, p, w), _fit(yr, pr)
    for name in (
        "intercept",
        "slope",
        "intercept_stderr",
        "slope_stderr",
        "calibration_in_the_large",
        "lr_chi2",
        "unreliability_chi2",
        "r2",
    ):
        assert getattr(a, name) == pytest.approx(getattr(b, name), abs=1e-9), name
    assert spiegelhalter_z(y, p, sample_weight=w).statistic == pytest.approx(
        spiegelhalter_z(yr, pr).statistic
    )
    for strategy in ("uniform",):
        assert calibration_error(
            y, p, sample_weight=w, strategy=strategy, kind="binary", n_bins=10
        ) == pytest.approx(
            calibration_error(yr, pr, strategy=strategy, kind="binary", n_bins=10)
        )
    assert c_statistic(y, p, sample_weight=w) == pytest.approx(c_statistic(yr, pr))


def test_zero_weight_rows_are_ignored():
    y, p, _ = _data(FIXTURES[0])
    w = np.ones_like(p)
    w[:50] = 0.0
    a = _fit(y, p, w)
    b = _fit(y[50:], p[50:])
    assert a.intercept == pytest.approx(b.intercept, abs=1e-9)
    assert a.slope == pytest.approx(b.slope, abs=1e-9)
    assert a.r2 == pytest.approx(b.r2, abs=1e-9)


def test_constant_forecast_follows_val_prob():
    # val.prob's special case: intercept qlogis(mean(y)), slope 0
    y = np.array([0, 1, 1, 0, 1, 0, 0, 0])
    res = calibration_intercept_slope(y, np.full(8, 0.3))
    assert res.intercept == pytest.approx(math.log(3 / 5))
    assert res.slope == 0.0
    assert res.calibration_in_the_large == pytest.approx(
        math.log(3 / 5) - math.log(0.3 / 0.7)
    )


def test_sample_order_and_labels_invariance():
    y, p, _ = _data(FIXTURES[1])
    rng = np.random.default_rng(3)
    o = rng.permutation(len(y))
    a, b = _fit(y, p), _fit(y[o], p[o])
    assert a.intercept == pytest.approx(b.intercept, abs=1e-10)
    assert a.slope == pytest.approx(b.slope, abs=1e-10)
    e1, e2 = lowess_calibration_error(y, p), lowess_calibration_error(y[o], p[o])
    assert e1.eavg == pytest.approx(e2.eavg, abs=1e-12)
    labels = np.where(y == 1, "yes", "no")
    c = calibration_intercept_slope(labels, p, pos_label="yes")
    assert c.slope == pytest.approx(a.slope)
    assert spiegelhalter_z(labels, p, pos_label="yes") == spiegelhalter_z(y, p)


def test_confidence_interval():
    y, p, _ = _data(FIXTURES[0])
    res = _fit(y, p)
    lo, hi = res.confidence_interval(0.95, metric="calibration_slope")
    assert lo == pytest.approx(res.slope - 1.959963984540054 * res.slope_stderr)
    assert hi == pytest.approx(res.slope + 1.959963984540054 * res.slope_stderr)
    lo90, hi90 = res.confidence_interval(0.9, metric="calibration_in_the_large")
    assert lo90 < res.calibration_in_the_large < hi90
    with pytest.raises(ValueError, match="^metric.*calibration_intercept"):
        res.confidence_interval(metric="bogus")
    with pytest.raises(ValueError, match="confidence_level"):
        res.confidence_interval(1.5)
    with pytest.raises(TypeError, match="confidence_level"):
        res.confidence_interval("high")
    with pytest.raises(TypeError):
        res.confidence_interval(0.95, "calibration_slope")
    # the confidence level first, the metric keyword-only
    assert res.confidence_interval(metric="calibration_slope") == (lo, hi)
    assert res.confidence_interval() == (lo, hi)
    assert res.confidence_interval(
        confidence_level=0.9, metric="calibration_in_the_large"
    ) == (lo90, hi90)
    with pytest.raises(TypeError):
        res.confidence_interval(0.95, parameter="slope")
    with pytest.raises(TypeError):
        res.confidence_interval(0.9, confidence_level=0.8)
    with pytest.raises(ValueError, match="^method"):
        res.confidence_interval(0.9, method="profile")
    assert res.confidence_interval(method="wald") == (lo, hi)
    intercept, slope = res
    assert (intercept, slope) == (res.intercept, res.slope)


def test_separation_warns():
    y = np.array([0, 0, 0, 1, 1, 1])
    p = np.array([0.1, 0.2, 0.3, 0.6, 0.7, 0.8])
    with pytest.warns(ConvergenceWarning, match="separated"):
        res = calibration_intercept_slope(y, p)
    assert res.slope == math.inf and math.isnan(res.intercept)
    assert not res.converged
    assert math.isnan(res.unreliability_pvalue)
    # reversed: events get the lower forecasts
    with pytest.warns(ConvergenceWarning):
        res = calibration_intercept_slope(1 - y, p)
    assert res.slope == -math.inf
    # quasi-complete separation (a tie at the boundary) too
    with pytest.warns(ConvergenceWarning):
        res = calibration_intercept_slope(
            [0, 0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.3, 0.7, 0.8]
        )
    assert res.slope == math.inf
    # calibration in the large is still finite
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert math.isfinite(calibration_in_the_large(y, p))


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 5, 10, 17])
def test_ece_matches_sklearn_calibration_curve(strategy, n_bins):
    y, p, _ = _data(FIXTURES[3])
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    # counts of the non-empty bins, with calibration_curve's own edges
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 100, n_bins + 1))
    else:
        edges = np.linspace(0, 1, n_bins + 1)
    counts = np.bincount(np.searchsorted(edges[1:-1], p), minlength=n_bins)
    counts = counts[counts > 0]
    gaps = np.abs(prob_true - prob_pred)
    frac = counts / counts.sum()
    assert calibration_error(
        y, p, n_bins=n_bins, strategy=strategy, kind="binary"
    ) == pytest.approx(np.dot(frac, gaps), abs=1e-12)
    assert calibration_error(
        y, p, n_bins=n_bins, strategy=strategy, norm="max", kind="binary"
    ) == pytest.approx(gaps.max(), abs=1e-12)
    assert calibration_error(
        y, p, n_bins=n_bins, strategy=strategy, norm="l2", kind="binary"
    ) == pytest.approx(np.sqrt(np.dot(frac, gaps**2)), abs=1e-12)


def test_ece_by_hand_and_weighted_quantile():
    y = [0, 0, 1, 1]
    p = [0.1, 0.3, 0.6, 0.8]
    # bins [0, .5): mean p .2, freq 0; [.5, 1]: mean p .7, freq 1
    assert calibration_error(y, p, n_bins=2, kind="binary") == pytest.approx(0.25)
    # perfectly calibrated bins
    assert calibration_error([0, 1, 0, 1], [0.5] * 4, kind="binary", n_bins=10) == 0.0
    w = [1, 2, 3, 4]
    val = calibration_error(
        y, p, n_bins=2, strategy="quantile", sample_weight=w, kind="binary"
    )
    assert 0.0 <= val <= 1.0


def test_c_statistic_matches_sklearn_weighted():
    y, p, w = _data(next(c for c in FIXTURES if c["name"] == "weighted"))
    assert c_statistic(y, p, sample_weight=w) == pytest.approx(
        roc_auc_score(y, p, sample_weight=w)
    )


def binary_calibration_error(y_true, y_proba, **kwargs):
    """The binary ECE (10 bins), named for the test ids."""
    return calibration_error(y_true, y_proba, kind="binary", n_bins=10, **kwargs)


FUNCS = [
    calibration_intercept_slope,
    calibration_in_the_large,
    spiegelhalter_z,
    lowess_calibration_error,
    binary_calibration_error,
    c_statistic,
]


@pytest.mark.parametrize("func", FUNCS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "y, p, match",
    [
        ([0, 1, 1], [0.2, np.nan, 0.3], "y_proba contains NaN"),
        ([0, 1, 1], [0.2, 1.2, 0.3], r"y_proba must contain probabilities in \[0, 1\]"),
        ([0, 1, 1], [0.2, np.inf, 0.3], "y_proba contains infinity"),
        ([0, 1], [0.2, 0.4, 0.3], "y_true has 2 samples"),
        ([], [], "y_proba is empty"),
        ([0, 1, 2], [0.2, 0.4, 0.3], "more than two classes"),
        ([0, 1, 2], [[0.2, 0.7, 0.1], [0.4, 0.5, 0.1], [0.3, 0.6, 0.1]], "two columns"),
    ],
)
def test_bad_input(func, y, p, match):
    with pytest.raises(ValueError, match=match):
        func(y, p)


@pytest.mark.parametrize(
    "func",
    [calibration_intercept_slope, calibration_in_the_large, c_statistic],
    ids=lambda f: f.__name__,
)
def test_single_class_raises(func):
    with pytest.raises(ValueError, match="single class"):
        func([1, 1, 1], [0.2, 0.4, 0.3])


def test_only_zero_one_probabilities_raise():
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        calibration_intercept_slope([0, 1, 1], [0.0, 1.0, 1.0])


def test_bad_weights():
    with pytest.raises(ValueError, match="sample_weight"):
        calibration_intercept_slope([0, 1, 1], [0.2, 0.4, 0.3], sample_weight=[1, -1, 1])
    with pytest.raises(ValueError, match="sample_weight"):
        spiegelhalter_z([0, 1, 1], [0.2, 0.4, 0.3], sample_weight=[1, 1])


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"n_bins": 0}, ValueError, "n_bins"),
        ({"n_bins": 2.5}, TypeError, "n_bins"),
        ({"strategy": "kmeans"}, ValueError, "strategy"),
        ({"norm": "l3"}, ValueError, "norm"),
    ],
)
def test_ece_bad_options(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        calibration_error([0, 1, 1], [0.2, 0.4, 0.3], kind="binary", **kwargs)


def test_spiegelhalter_zero_variance_is_nan():
    z, pval = spiegelhalter_z([0, 1], [0.5, 0.5])
    assert math.isnan(z) and math.isnan(pval)


def test_results_are_python_floats():
    y, p, _ = _data(FIXTURES[0])
    res = _fit(y, p)
    assert type(res.intercept) is float and type(res.slope) is float
    assert all(type(v) is float for v in spiegelhalter_z(y, p))
    assert all(type(v) is float for v in lowess_calibration_error(y, p))
    assert type(calibration_error(y, p, kind="binary", n_bins=10)) is float
    assert type(c_statistic(y, p)) is float


@pytest.mark.parametrize("func", FUNCS, ids=lambda f: f.__name__)
def test_two_column_predict_proba(func):
    y, p, _ = _data(FIXTURES[2])
    two = np.column_stack([1 - p, p])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert func(y, two) == func(y, p)
        # the column of pos_label: 0 is the event, its probability is 1 - p
        assert func(y, two, pos_label=0) == func(1 - y, 1 - p)
    with pytest.raises(ValueError, match="pos_label"):
        func(y, two, pos_label=5)


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 1),
            st.floats(0.01, 0.99),
            st.integers(1, 3),
        ),
        min_size=6,
        max_size=40,
    ),
    st.randoms(use_true_random=False),
)
def test_property_weights_and_order(rows, rnd):
    y = np.array([r[0] for r in rows], dtype=float)
    p = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows], dtype=float)
    if y.min() == y.max():
        return
    perm = list(range(len(y)))
    rnd.shuffle(perm)
    z1 = spiegelhalter_z(y, p, sample_weight=w).statistic
    z2 = spiegelhalter_z(np.repeat(y, w.astype(int)), np.repeat(p, w.astype(int))).statistic
    z3 = spiegelhalter_z(y[perm], p[perm], sample_weight=w[perm]).statistic
    if np.isfinite(z1):
        assert z1 == pytest.approx(z2, rel=1e-9, abs=1e-9)
        assert z1 == pytest.approx(z3, rel=1e-9, abs=1e-9)
    e1 = calibration_error(y, p, sample_weight=w, kind="binary", n_bins=10)
    wi = w.astype(int)
    e2 = calibration_error(np.repeat(y, wi), np.repeat(p, wi), kind="binary", n_bins=10)
    assert e1 == pytest.approx(e2, abs=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = calibration_intercept_slope(y, p, sample_weight=w)
        b = calibration_intercept_slope(y[perm], p[perm], sample_weight=w[perm])
    if a.converged and b.converged:
        assert a.intercept == pytest.approx(b.intercept, rel=1e-6, abs=1e-6)
        assert a.slope == pytest.approx(b.slope, rel=1e-6, abs=1e-6)


@pytest.mark.parametrize("case", _JSON["constant_cases"], ids=lambda c: c["name"])
def test_constant_forecast_indexes_use_one_degree_of_freedom(case):
    """Issue item 11: val.prob's constant-forecast branch tests U on 1 degree
    of freedom (skbrier used 2: off by 1/n); the report reads the same
    numbers."""
    from skbrier.report import calibration_report

    y, p, w = _data(case)
    v = case["valprob"]
    res = _fit(y, p, w)
    assert res.unreliability_df == 1
    assert res.unreliability_index == pytest.approx(v["U"], abs=1e-12)
    assert res.discrimination_index == pytest.approx(v["D"], abs=1e-12)
    assert res.quality_index == pytest.approx(v["Q"], abs=1e-12)
    assert (res.lr_chi2, res.r2) == (0.0, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = calibration_report(y, p, sample_weight=w)
    assert rep.logistic.unreliability_index == pytest.approx(v["U"], abs=1e-12)
