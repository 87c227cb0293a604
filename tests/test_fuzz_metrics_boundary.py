"""Boundary inputs of the public functions of ``skbrier.metrics`` found by fuzzing.

Each test is the regression test of one fault: a stray exception, a leaked
numpy warning, an error naming the wrong parameter or a silent wrong number.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skbrier import metrics


# --------------------------------------------------------------------------
# platt_calibration_error: a steep fit overflowed exp() with a RuntimeWarning
# --------------------------------------------------------------------------
@pytest.mark.parametrize("solver", ["helm", "mle"])
def test_platt_steep_fit_leaks_no_runtime_warning(solver):
    y = np.array([1, 0, 0])
    p = np.array([0.197, 0.505, 0.2])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        res = metrics.platt_calibration_error(y, p, solver=solver, n_bins=4)
    assert 0.0 <= res.calibration_error <= 1.0
    assert 0.0 <= res.calibration_error_1_bin <= 1.0


# --------------------------------------------------------------------------
# temperature_scaling: a mistake in fit_on was reported as one in y_true/y_score
# --------------------------------------------------------------------------
_LOGP = np.log([[0.7, 0.2, 0.1], [0.6, 0.3, 0.1], [0.2, 0.5, 0.3]])


@pytest.mark.parametrize(
    "fit_on",
    [
        ([0, 1, 2], _LOGP[:2]),  # lengths differ
        ([0, 5], _LOGP[:2]),  # a gold index out of range
        ([0, 1], np.full((2, 3), np.nan)),  # NaN scores
        (["a", "b"], _LOGP[:2]),  # not indices
    ],
)
def test_temperature_scaling_fit_on_errors_name_fit_on(fit_on):
    with pytest.raises((ValueError, TypeError), match="fit_on"):
        metrics.temperature_scaling([0, 1, 1], _LOGP, fit_on=fit_on)


def test_temperature_scaling_scored_split_errors_do_not_name_fit_on():
    with pytest.raises(ValueError, match="y_true") as info:
        metrics.temperature_scaling([0, 1], _LOGP, fit_on=([0, 1, 1], _LOGP))
    assert "fit_on" not in str(info.value)


# --------------------------------------------------------------------------
# flexible_calibration_curve: knots that are not numbers gave numpy's bare
# "could not convert string to float"
# --------------------------------------------------------------------------
@pytest.mark.parametrize("knots", [["x", "y", "z"], [None, 0.0, 1.0], [1 + 2j, 0, 1]])
def test_flexible_curve_knots_not_numbers_name_knots(knots):
    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, 60)
    y = (rng.uniform(size=60) < p).astype(int)
    with pytest.raises(ValueError, match="knots"):
        metrics.flexible_calibration_curve(y, p, smoother="rcs", knots=knots)


# --------------------------------------------------------------------------
# weights whose classes are more than ~1e308 apart: c_statistic was NaN with a
# numpy RuntimeWarning, the logistic fits raised a bare "math domain error",
# and a subnormal information leaked numpy's overflow warning
# --------------------------------------------------------------------------
#: the public functions of the logistic recalibration fits
_LOGISTIC_FITS = [
    metrics.calibration_in_the_large,
    metrics.calibration_intercept_slope,
    metrics.platt_calibration_error,
]


def _binary_data(n=30, seed=15):
    rng = np.random.default_rng(seed)
    p = np.round(rng.uniform(0.02, 0.98, n), 2)
    y = (rng.uniform(size=n) < p).astype(int)
    y[:2] = [0, 1]
    return y, p


@pytest.mark.parametrize(
    "w_event, w_none", [(1e-200, 1e200), (1e200, 1e-200), (1e300, 1e-300)]
)
def test_c_statistic_classes_weighted_far_apart(w_event, w_none):
    from sklearn.metrics import roc_auc_score

    y, p = _binary_data()
    w = np.where(y == 1, w_event, w_none)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = metrics.c_statistic(y, p, sample_weight=w)
    # each class's weights are equal, so C is the unweighted one
    assert got == pytest.approx(roc_auc_score(y, p), rel=1e-12)


@pytest.mark.parametrize("func", _LOGISTIC_FITS)
def test_logistic_fits_refuse_a_class_below_float_range(func):
    y, p = _binary_data()
    w = np.where(y == 1, 1e-200, 1e200)
    with pytest.raises(ValueError, match="sample_weight"):
        func(y, p, sample_weight=w)


@pytest.mark.parametrize("func", _LOGISTIC_FITS)
def test_logistic_fits_subnormal_information_leaks_no_runtime_warning(func):
    y, p = _binary_data()
    w = np.full(y.shape[0], 1e-310)
    w[0] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)  # the fit's ConvergenceWarning
        res = func(y, p, sample_weight=w)
    assert res is not None


# --------------------------------------------------------------------------
# one weight near the float maximum beside weights of 1: the multiclass sums
# (Brier, RPS) and CORP's pooled event weights overflowed to inf/NaN with a
# numpy RuntimeWarning
# --------------------------------------------------------------------------
_BIG = float(np.finfo(np.float64).max)


def _multiclass_data(n=30, seed=16):
    rng = np.random.default_rng(seed)
    P = rng.dirichlet([1, 1, 1], n)
    y = rng.integers(0, 3, n)
    y[:3] = [2, 1, 0]
    P[0] = [0.9, 0.05, 0.05]  # row 0 scores above 1 (its weighted term overflowed)
    return y, P


@pytest.mark.parametrize(
    "func, key",
    [
        (metrics.brier_score, None),
        (metrics.brier_index, None),
        (metrics.ranked_probability_score, None),
        (metrics.corp_decomposition, "brier_score"),
        (metrics.ranked_probability_decomposition, "ranked_probability_score"),
    ],
)
def test_multiclass_weight_near_float_max_does_not_overflow(func, key):
    y, P = _multiclass_data()
    w = np.ones(y.shape[0])
    w[0] = _BIG
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = func(y, P, sample_weight=w)
    got = got if key is None else getattr(got, key)
    # the other rows weigh 1/1.8e308: the score is row 0's
    want = func(y[:1], P[:1], labels=[0, 1, 2])
    want = want if key is None else getattr(want, key)
    assert np.isfinite(got)
    assert got == pytest.approx(want, rel=1e-12)


def test_binary_corp_weight_near_float_max_does_not_overflow():
    y, p = _binary_data()
    w = np.ones(y.shape[0])
    w[1] = _BIG  # an event: its pooled event weight overflowed
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        d = metrics.corp_decomposition(y, p, sample_weight=w)
    assert d.brier_score == pytest.approx((p[1] - y[1]) ** 2, rel=1e-12)


# --------------------------------------------------------------------------
# properties (small budgets): the invariances the faults above broke
# --------------------------------------------------------------------------


@st.composite
def _weighted_binary(draw):
    n = draw(st.integers(3, 12))
    p = np.array(
        draw(
            st.lists(
                st.sampled_from([0.05, 0.2, 0.5, 0.7, 0.95, 0.33]), min_size=n, max_size=n
            )
        )
    )
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[:2] = [0, 1]
    w = np.array(draw(st.lists(st.integers(1, 5), min_size=n, max_size=n)), dtype=float)
    return y, p, w


@settings(max_examples=40, deadline=None)
@given(
    data=_weighted_binary(),
    e1=st.integers(-200, 200),
    e0=st.integers(-200, 200),
)
def test_c_statistic_scale_of_each_class_property(data, e1, e0):
    y, p, w = data
    ref = metrics.c_statistic(y, p, sample_weight=w)
    scaled = w * np.where(y == 1, 10.0**e1, 10.0**e0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = metrics.c_statistic(y, p, sample_weight=scaled)
    assert got == pytest.approx(ref, rel=1e-12, abs=1e-12)


_SCALE_FREE = [
    metrics.brier_score,
    metrics.c_statistic,
    metrics.calibration_in_the_large,
    lambda y, p, **kw: metrics.corp_decomposition(y, p, **kw).miscalibration,
    lambda y, p, **kw: metrics.calibration_error(y, p, n_bins=4, **kw),
]


@settings(max_examples=40, deadline=None)
@given(data=_weighted_binary(), e=st.integers(-200, 200), which=st.integers(0, 4))
def test_scale_free_metrics_weight_scale_property(data, e, which):
    y, p, w = data
    func = _SCALE_FREE[which]
    ref = func(y, p, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = func(y, p, sample_weight=w * 10.0**e)
    assert got == pytest.approx(ref, rel=1e-9, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    k=st.integers(0, 29),
    big=st.sampled_from([1e200, 1e300, _BIG]),
    which=st.sampled_from(["brier", "rps", "corp"]),
)
def test_one_huge_weight_scores_that_row_property(k, big, which):
    y, P = _multiclass_data()
    w = np.ones(y.shape[0])
    w[k] = big
    func = {
        "brier": metrics.brier_score,
        "rps": metrics.ranked_probability_score,
        "corp": lambda *a, **kw: metrics.corp_decomposition(*a, **kw).brier_score,
    }[which]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = func(y, P, sample_weight=w)
    want = func(y[k : k + 1], P[k : k + 1], labels=[0, 1, 2])
    # the 29 other rows weigh at most 29/1e200 of row k
    assert got == pytest.approx(want, rel=1e-9, abs=1e-12)


# --------------------------------------------------------------------------
# abstention_scores: a bad `attempted` was explained as correctness
# ("1: a right answer", "attempted == 'correct'")
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "attempted",
    [np.array(["yes", "no", "yes"]), np.array([0, 2, 2]), np.array([0.5, 1, 0])],
)
def test_abstention_scores_bad_attempted_is_explained_as_attempted(attempted):
    with pytest.raises((ValueError, TypeError), match="attempted") as info:
        metrics.abstention_scores([1, 0, 1], attempted)
    assert "right answer" not in str(info.value)
    assert "'correct'" not in str(info.value)


def test_selective_bad_y_correct_still_explained_as_correctness():
    with pytest.raises(ValueError, match="1: a right answer"):
        metrics.aurc([0, 2, 2], [0.2, 0.5, 0.9])


# --------------------------------------------------------------------------
# ranked probability scores of text categories without labels= were silently
# scored in alphabetical order ("high" < "low" < "mid"): a wrong RPS for
# ordinal names, without a word (an unordered categorical already warned)
# --------------------------------------------------------------------------
_NAMES = np.array(["low", "mid", "high"])
_P3 = np.array([[0.7, 0.2, 0.1], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7], [0.6, 0.3, 0.1]])
_Y3 = np.array([0, 1, 2, 0])


@pytest.mark.parametrize(
    "func",
    [
        metrics.ranked_probability_score,
        metrics.ranked_probability_skill_score,
        metrics.ranked_probability_decomposition,
    ],
)
def test_ranked_text_categories_without_labels_warn(func):
    with pytest.warns(UserWarning, match="alphabetical"):
        func(_NAMES[_Y3], _P3)


@pytest.mark.parametrize(
    "y",
    [
        _NAMES[_Y3],  # with labels= in their order: no warning
        _Y3,  # numbers: their sorted order is their order
    ],
)
def test_ranked_ordered_categories_do_not_warn(y):
    kw = {"labels": list(_NAMES)} if y.dtype.kind == "U" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = metrics.ranked_probability_score(y, _P3, **kw)
    assert got == pytest.approx(metrics.ranked_probability_score(_Y3, _P3))


# --------------------------------------------------------------------------
# calibration_error_interval refused calibration_error's own squared= option
# ("unexpected options for calibration_error: ['squared']")
# --------------------------------------------------------------------------
def test_calibration_error_interval_takes_squared():
    y, p = _binary_data(40, seed=20)
    kw = {"n_resamples": 50, "random_state": 0, "norm": "l2"}
    sq = metrics.calibration_error_interval(y, p, squared=True, **kw)
    rms = metrics.calibration_error_interval(y, p, **kw)
    assert sq.estimate == pytest.approx(
        metrics.calibration_error(y, p, norm="l2", squared=True), rel=1e-12
    )
    # the percentile interval of a monotone transform: the squared bounds (to
    # the interpolation between order statistics)
    assert sq.low <= sq.estimate <= sq.high
    assert sq.low == pytest.approx(rms.low**2, rel=1e-2)
    assert sq.high == pytest.approx(rms.high**2, rel=1e-2)


# --------------------------------------------------------------------------
# non-events weighing below ~1e-16 of the total: the event rate rounded to 1
# and the logistic fits raised a bare "math domain error" (log1p(-1)); near
# it (1e-15) the joint fit lost its digits and stopped "not converged"
# --------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(e=st.integers(10, 150), which=st.sampled_from([0, 1]))
def test_logistic_fits_mirror_with_a_negligible_class_property(e, which):
    y, p = _binary_data()
    w = np.where(y == which, 10.0**-e, 1.0)
    # recoding the outcome (y -> 1 - y, p -> 1 - p) negates the intercepts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        a = metrics.calibration_in_the_large(y, p, sample_weight=w)
        a2 = metrics.calibration_in_the_large(1 - y, 1 - p, sample_weight=w)
        r = metrics.calibration_intercept_slope(y, p, sample_weight=w)
        r2 = metrics.calibration_intercept_slope(1 - y, 1 - p, sample_weight=w)
    assert np.isfinite(a) and a == pytest.approx(-a2, rel=1e-9)
    assert r.intercept == pytest.approx(-r2.intercept, rel=1e-7)
    assert r.slope == pytest.approx(r2.slope, rel=1e-7)


@pytest.mark.parametrize("func", _LOGISTIC_FITS)
def test_logistic_fits_negligible_non_events_give_a_number(func):
    y, p = _binary_data()
    w = np.where(y == 0, 1e-20, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        res = func(y, p, sample_weight=w)
    value = res if isinstance(res, float) else res.intercept
    assert np.isfinite(value) and value > 40.0  # logit of a rate of 1 - 1e-20


def test_gam_curve_negligible_non_events_no_math_domain_error():
    # the start of the penalised fit took log1p(-ybar) of a rate rounded to 1
    rng = np.random.default_rng(15)
    p = np.round(rng.uniform(0.02, 0.98, 60), 2)
    y = (rng.uniform(size=60) < p).astype(int)
    y[:2] = [0, 1]
    w = np.where(y == 0, 1e-20, 1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = metrics.flexible_calibration_curve(y, p, smoother="gam", sample_weight=w)
    # a number, or NaN with the fit's ConvergenceWarning
    assert np.isfinite(res.ici) or any("converge" in str(c.message) for c in caught)


# --------------------------------------------------------------------------
# calibration_by_group with one group weighing 1e100 or more: the pooling's
# typical variance took (sum w)^2 - sum w^2, which cancelled to 0 (h2 NaN) or
# overflowed with a RuntimeWarning
# --------------------------------------------------------------------------
def _grouped_data():
    """60 binary rows and three groups."""
    y, p = _binary_data(60, seed=25)
    g = np.array(list("abc"))[np.random.default_rng(26).integers(0, 3, 60)]
    return y, p, g


@pytest.mark.parametrize("scale", [1e100, 1e200])
def test_calibration_by_group_one_heavy_group(scale):
    y, p, g = _grouped_data()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)  # small groups' separation
        het = metrics.calibration_by_group(
            y, p, groups=g, sample_weight=np.where(g == "a", scale, 1.0)
        ).heterogeneity
    assert np.isfinite(het.h2) and het.h2 >= 1.0
    assert np.isfinite(het.i2) and 0.0 <= het.i2 < 100.0


# --------------------------------------------------------------------------
# multicalibration_error's mce_relative was NaN (without a word) when the
# non-events weigh below 1e-16 of the total: 1 - base_rate rounded to 0
# --------------------------------------------------------------------------
@pytest.mark.parametrize("which", [0, 1])
def test_mce_relative_with_a_negligible_class(which):
    import pandas as pd

    y, p, g = _grouped_data()
    segments = pd.DataFrame({"g": g})
    w = np.where(y == which, 1e-20, 1.0)
    res = metrics.multicalibration_error(y, p, segments=segments, sample_weight=w)
    rare = float(np.dot(w, y == which)) / float(w.sum())
    assert res.mce_relative == pytest.approx(100.0 * res.mce / rare, rel=1e-9)
