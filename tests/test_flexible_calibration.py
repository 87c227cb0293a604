"""flexible_calibration_curve: frequency weights, bootstrap, options, errors, drawing.

The numbers themselves are checked against R in
tests/test_flexible_calibration_reference.py.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from scipy import special, stats

from skbrier.metrics import flexible_calibration_curve
from skbrier.results import ConfidenceInterval, FlexibleCalibrationCurve


def _data(n=300, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    z = rng.normal(-0.3, 1.2, n)
    y = (rng.uniform(size=n) < special.expit(z)).astype(int)
    p = special.expit(0.2 + 1.4 * z)
    if ties:
        p = np.clip(np.round(p, 2), 0.01, 0.99)
    w = rng.integers(1, 4, n).astype(float)
    return y, p, w


SMOOTHERS = [
    ("loess", {}),
    ("loess", {"surface": "direct"}),
    ("loess", {"transform": None, "degree": 1, "span": 0.5}),
    ("rcs", {}),
    ("rcs", {"n_knots": 3, "transform": None}),
    ("ns", {}),
    ("lowess", {"band": None}),
]


def _values(c: FlexibleCalibrationCurve) -> np.ndarray:
    parts = [c.estimate, [c.ici, c.e50, c.e90, c.emax, c.eci]]
    if c.lower is not None:
        parts += [c.lower, c.upper]
    return np.concatenate(parts)


# --------------------------------------------------------------------------
# frequency weights: integer weights are repeated rows
# --------------------------------------------------------------------------
@pytest.mark.parametrize("smoother,kw", SMOOTHERS)
@pytest.mark.parametrize("ties", [False, True])
def test_integer_weights_equal_repeated_rows(smoother, kw, ties):
    y, p, w = _data(120, ties=ties)
    rep = np.repeat(np.arange(y.shape[0]), w.astype(int))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = flexible_calibration_curve(y, p, smoother=smoother, sample_weight=w, **kw)
        b = flexible_calibration_curve(y[rep], p[rep], smoother=smoother, **kw)
    np.testing.assert_allclose(_values(a), _values(b), rtol=1e-9, atol=1e-12)
    assert a.n == b.n == w.sum()
    if a.knots is not None:
        np.testing.assert_allclose(a.knots, b.knots, rtol=1e-13)


@pytest.mark.parametrize("smoother,kw", SMOOTHERS)
def test_unit_weights_and_zero_weight_rows(smoother, kw):
    y, p, w = _data(100)
    base = flexible_calibration_curve(y, p, smoother=smoother, **kw)
    unit = flexible_calibration_curve(
        y, p, smoother=smoother, sample_weight=np.ones(100), **kw
    )
    np.testing.assert_allclose(_values(base), _values(unit), rtol=1e-10, atol=1e-13)
    w0 = w.copy()
    w0[:10] = 0.0
    a = flexible_calibration_curve(
        y, p, smoother=smoother, sample_weight=w0, grid=base.grid, **kw
    )
    b = flexible_calibration_curve(
        y[10:], p[10:], smoother=smoother, sample_weight=w[10:], grid=base.grid, **kw
    )
    np.testing.assert_allclose(_values(a), _values(b), rtol=1e-10, atol=1e-13)


def test_bootstrap_with_integer_weights_equals_repeated_rows():
    y, p, w = _data(80)
    rep = np.repeat(np.arange(80), w.astype(int))
    kw = {"smoother": "rcs", "band": "bootstrap", "n_resamples": 40, "random_state": 3}
    a = flexible_calibration_curve(y, p, sample_weight=w, **kw)
    b = flexible_calibration_curve(y[rep], p[rep], **kw)
    np.testing.assert_allclose(a.lower, b.lower, rtol=1e-8)
    np.testing.assert_allclose(a.upper, b.upper, rtol=1e-8)
    for metric in ("ici", "e90", "emax"):
        np.testing.assert_allclose(
            a.confidence_interval(metric=metric),
            b.confidence_interval(metric=metric),
            rtol=1e-8,
        )


@pytest.mark.parametrize("smoother", ["rcs", "loess"])
def test_weights_too_large_to_resample_refuse_only_the_bootstrap(smoother):
    # audit: a total weight beyond 2**62 (x1e150) refused the curve itself and
    # its analytic band, which need no resampling; the logistic fit of the
    # splines does not depend on the scale of the weights
    y, p, w = _data(150)
    big = flexible_calibration_curve(y, p, smoother=smoother, sample_weight=w * 1e150)
    assert np.all(np.isfinite(big.estimate)) and np.all(np.isfinite(big.lower))
    if smoother == "rcs":
        unit = flexible_calibration_curve(
            y, p, smoother=smoother, sample_weight=w, knots=big.knots
        )
        np.testing.assert_allclose(big.estimate, unit.estimate, rtol=1e-7)
    with pytest.raises(ValueError, match="Rescale sample_weight"):
        big.confidence_interval(metric="ici")
    with pytest.raises(ValueError, match="Rescale sample_weight"):
        flexible_calibration_curve(
            y, p, smoother=smoother, sample_weight=w * 1e150, band="bootstrap"
        )


def test_grid_outside_the_forecasts_is_nan_for_the_local_smoothers():
    # audit: lowess extended its end values flat beyond the data, where loess
    # (R's predict.loess) and R's approx(lowess(...), xout) give NA
    y, p, _ = _data(200)
    grid = [p.min() / 2, float(np.median(p)), (1 + p.max()) / 2]
    for smoother, band in (("loess", "analytic"), ("lowess", None)):
        c = flexible_calibration_curve(y, p, smoother=smoother, grid=grid, band=band)
        assert np.isnan(c.estimate[[0, 2]]).all() and np.isfinite(c.estimate[1])
    inside = flexible_calibration_curve(y, p, smoother="lowess", band=None)
    assert np.isfinite(inside.estimate).all()


def test_gam_with_too_few_distinct_forecasts_says_so():
    # audit: 3 or 4 separated rows gave a NaN curve and "did not converge",
    # 5 to 9 rows the clear error about k; now the clear error for all
    for n in (3, 4, 6):
        y = np.arange(n) % 2
        p = np.linspace(0.1, 0.9, n)
        with pytest.raises(ValueError, match=f"y_proba has {n} distinct values"):
            flexible_calibration_curve(y[np.argsort(y)], p, smoother="gam")


def test_lowess_refuses_non_integer_weights():
    y, p, w = _data(50)
    with pytest.raises(ValueError, match="sample_weight must hold integers"):
        flexible_calibration_curve(
            y, p, smoother="lowess", band=None, sample_weight=w + 0.5
        )
    # audit: integer weights too many to repeat tried to allocate the rows
    # (1e12: a MemoryError; 1e200: an overflowing cast)
    for scale in (1e12, 1e200):
        with pytest.raises(ValueError, match="Rescale sample_weight"):
            flexible_calibration_curve(
                y, p, smoother="lowess", band=None, sample_weight=w * scale
            )


# --------------------------------------------------------------------------
# bands and intervals
# --------------------------------------------------------------------------
@pytest.mark.parametrize("smoother", ["loess", "rcs", "ns", "gam"])
def test_weights_too_large_to_draw_are_refused_only_by_a_bootstrap(smoother):
    # weights x 1e200 were refused ("resampled as that many observations")
    # with the analytic band, which draws nothing
    y, p, w = _data(120)
    big = flexible_calibration_curve(y, p, smoother=smoother, sample_weight=w * 1e200)
    assert np.isfinite(big.estimate).all() and np.isfinite(big.lower).all()
    with pytest.raises(ValueError, match="sample_weight sums to .*more than can be drawn"):
        big.confidence_interval(metric="ici")
    with pytest.raises(ValueError, match="sample_weight sums to .*more than can be drawn"):
        flexible_calibration_curve(
            y,
            p,
            smoother=smoother,
            band="bootstrap",
            n_resamples=5,
            sample_weight=w * 1e200,
        )


def test_lowess_refuses_more_rows_than_it_can_repeat():
    # integer weights summing to 2e14 tried to allocate 1.4 PiB (MemoryError)
    y, p, w = _data(100)
    with pytest.raises(ValueError, match="sample_weight sums to 2.*at most 2\\*\\*24"):
        flexible_calibration_curve(
            y, p, smoother="lowess", band=None, sample_weight=w * 1e12
        )


def test_analytic_band_at_other_levels():
    y, p, _ = _data()
    c = flexible_calibration_curve(y, p, smoother="rcs", confidence_level=0.9)
    lo, hi = c.confidence_interval(0.9, metric="calibration_curve")
    np.testing.assert_array_equal(lo, c.lower)
    np.testing.assert_array_equal(hi, c.upper)
    z = stats.norm.ppf(0.995)
    eta = special.logit(c.estimate)
    lo99, hi99 = c.confidence_interval(0.99, metric="calibration_curve")
    np.testing.assert_allclose(lo99, special.expit(eta - z * c.standard_error), rtol=1e-9)
    np.testing.assert_allclose(hi99, special.expit(eta + z * c.standard_error), rtol=1e-9)
    assert np.all((lo99 <= c.lower) & (c.upper <= hi99))
    with pytest.raises(ValueError, match="method"):
        c.confidence_interval(metric="calibration_curve", method="basic")


def test_probability_scale_band_is_the_delta_method():
    y, p, _ = _data()
    lg = flexible_calibration_curve(y, p, smoother="ns")
    pr = flexible_calibration_curve(y, p, smoother="ns", band_scale="probability")
    np.testing.assert_allclose(pr.estimate, lg.estimate, rtol=1e-12)
    z = stats.norm.ppf(0.975)
    se = lg.estimate * (1 - lg.estimate) * lg.standard_error
    np.testing.assert_allclose(pr.lower, lg.estimate - z * se, rtol=1e-9, atol=1e-14)
    assert pr.band_scale == "probability" and lg.band_scale == "logit"


def test_bootstrap_is_reproducible_and_independent_of_n_jobs():
    y, p, _ = _data(150)
    kw = {"band": "bootstrap", "n_resamples": 48, "random_state": 7}
    a = flexible_calibration_curve(y, p, **kw)
    b = flexible_calibration_curve(y, p, n_jobs=2, **kw)
    np.testing.assert_array_equal(a.lower, b.lower)
    assert a.confidence_interval(metric="ici") == b.confidence_interval(metric="ici")
    assert a.n_resamples == 48 and a.band == "bootstrap"
    assert np.all(a.lower <= a.upper)


def test_summary_intervals_run_the_bootstrap_once():
    y, p, _ = _data(150)
    c = flexible_calibration_curve(y, p, smoother="rcs", n_resamples=30, random_state=0)
    assert c.n_resamples == 0
    first = c.confidence_interval(metric="ici")
    assert c.n_resamples == 30
    assert c.confidence_interval(metric="ici") == first
    lo, hi = first
    assert lo < c.ici < hi
    basic = c.confidence_interval(metric="ici", method="basic")
    assert basic.low == pytest.approx(2 * c.ici - hi)
    e = [c.confidence_interval(0.8, metric=m) for m in ("e50", "e90", "emax", "eci")]
    assert all(isinstance(ci, ConfidenceInterval) and ci.low <= ci.high for ci in e)
    # the band of an analytic curve stays the Wald band
    np.testing.assert_array_equal(
        c.confidence_interval(metric="calibration_curve").low, c.lower
    )


def test_no_band():
    y, p, _ = _data()
    c = flexible_calibration_curve(y, p, band=None)
    assert c.lower is None and c.upper is None and c.standard_error is None
    with pytest.raises(ValueError, match="band"):
        c.confidence_interval(metric="calibration_curve")


def test_loess_bootstrap_outside_the_range_of_a_resample_is_left_out():
    y, p, _ = _data(60)
    c = flexible_calibration_curve(
        y, p, transform=None, band="bootstrap", n_resamples=30, random_state=1
    )
    assert np.all(np.isfinite(c.lower)) and np.all(np.isfinite(c.upper))


# --------------------------------------------------------------------------
# options
# --------------------------------------------------------------------------
def test_grid_given_and_knots_given():
    y, p, _ = _data()
    g = np.array([0.1, 0.2, 0.5, 0.8])
    c = flexible_calibration_curve(y, p, smoother="rcs", grid=g, knots=[-2, -1, 0, 1, 2])
    np.testing.assert_array_equal(c.grid, g)
    np.testing.assert_array_equal(c.knots, [-2, -1, 0, 1, 2])
    assert c.to_frame().shape == (4, 4)


def test_exact_zero_and_one_forecasts_are_left_out_of_the_logit():
    y, p, _ = _data(200)
    p = p.copy()
    p[:3] = [0.0, 1.0, 0.0]
    c = flexible_calibration_curve(y, p, smoother="rcs")
    assert c.n_excluded == 3 and c.n == 197
    d = flexible_calibration_curve(y[3:], p[3:], smoother="rcs", grid=c.grid)
    np.testing.assert_allclose(c.estimate, d.estimate, rtol=1e-12)
    e = flexible_calibration_curve(y, p, smoother="rcs", transform=None)
    assert e.n_excluded == 0 and e.n == 200


def test_result_protocol():
    y, p, _ = _data()
    c = flexible_calibration_curve(y, p)
    assert "ici" in c.summary() and "FlexibleCalibrationCurve(ici=" in repr(c)
    json.dumps(c.to_dict())
    assert "_boot" not in c.to_dict() and "grid" in c.to_dict()
    assert list(c.to_frame().columns) == ["grid", "estimate", "lower", "upper"]
    assert "<table>" in c._repr_html_()


# --------------------------------------------------------------------------
# errors name the parameter
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kw,match",
    [
        ({"smoother": "glm"}, "smoother must be one of"),
        ({"transform": "probit"}, "transform must be 'logit' or None"),
        ({"band": "sim"}, "band must be one of"),
        ({"band_scale": "log"}, "band_scale must be one of"),
        ({"surface": "kd"}, "surface must be one of"),
        ({"smoother": "lowess"}, "band='analytic' is not available"),
        ({"smoother": "loess", "knots": [0, 1, 2]}, "knots applies to the splines"),
        ({"smoother": "rcs", "knots": [0, 1]}, "knots must be finite"),
        ({"smoother": "rcs", "n_knots": 2}, "n_knots must be at least 3"),
        ({"degree": 3}, "degree must be at most 2"),
        ({"span": 0}, "span must be >"),
        ({"span": 0.001}, "increase span"),
        ({"grid": [0.0, 0.5]}, "grid must lie strictly between 0 and 1"),
        ({"grid": 1}, "grid must be at least 2"),
        ({"confidence_level": 95}, "confidence_level"),
        ({"n_resamples": 1}, "n_resamples"),
    ],
)
def test_option_errors(kw, match):
    y, p, _ = _data(100)
    with pytest.raises((ValueError, TypeError), match=match):
        flexible_calibration_curve(y, p, **kw)


def test_data_errors():
    y, p, _ = _data(50)
    with pytest.raises(ValueError, match="y_true contains a single class"):
        flexible_calibration_curve(np.ones(50), p)
    with pytest.raises(ValueError, match="y_proba is constant"):
        flexible_calibration_curve(y, np.full(50, 0.3))
    with pytest.raises(ValueError, match="transform=None"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # HardForecastWarning
        flexible_calibration_curve(y, (p > 0.5).astype(float))
    with pytest.raises(ValueError, match="y_true has 2 samples"):
        flexible_calibration_curve([0, 1], [0.2, 0.7])
    with pytest.raises(ValueError, match="sample_weight sums to"):
        flexible_calibration_curve(y, p, sample_weight=np.full(50, 1e-3))


# --------------------------------------------------------------------------
# drawing
# --------------------------------------------------------------------------
def test_plot_draws_curve_band_histogram_and_statistics():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, p, w = _data()
    c = flexible_calibration_curve(y, p, sample_weight=w)
    ax = c.plot()
    labels = [line.get_label() for line in ax.get_lines()]
    assert "ideal" in labels and "loess" in labels
    assert ax.collections  # the band and the spikes
    assert any("ICI" in t.get_text() for t in ax.texts)
    assert ax.get_ylim()[0] < 0  # room for the histogram below the curve
    # a second curve on the same axes: one diagonal, one histogram
    n_coll = len(ax.collections)
    flexible_calibration_curve(y, p, smoother="rcs").plot(ax=ax, label="rcs", color="C1")
    assert [line.get_label() for line in ax.get_lines()].count("ideal") == 1
    assert len(ax.collections) == n_coll + 1  # only the second band
    plt.close("all")


@pytest.mark.parametrize(
    "smoother, band",
    [("loess", "analytic"), ("loess", "bootstrap"), ("rcs", None), ("ns", "simulation"),
     ("gam", "analytic"), ("lowess", None)],
)  # fmt: skip
def test_curves_pickle_and_keep_their_intervals(smoother, band):
    """Every curve kept local closures for its later intervals (bootstrap and
    simulation): pickle raised AttributeError ("Can't pickle local object
    '_bootstrap.<locals>.run'"), even for the default analytic band.  The
    unpickled curve gives the same band and the same (lazily drawn) intervals."""
    import pickle

    y, p, w = _data(120, seed=5)
    c = flexible_calibration_curve(
        y, p, smoother=smoother, band=band, sample_weight=None if smoother == "lowess" else w,
        n_resamples=20, random_state=3,
    )  # fmt: skip
    back = pickle.loads(pickle.dumps(c))
    np.testing.assert_array_equal(_values(back), _values(c))
    assert back.confidence_interval(metric="ici") == c.confidence_interval(metric="ici")
    if smoother in ("rcs", "ns", "gam"):
        sim = {"metric": "e90", "method": "simulation"}
        assert back.confidence_interval(**sim) == c.confidence_interval(**sim)


@pytest.mark.parametrize("grid", [0.5, 2.5, np.float64(50.0), True])
def test_a_scalar_grid_that_is_not_a_count_says_what_grid_takes(grid):
    """grid=0.5 (one probability) or 2.5 was refused with 'grid must be a 1-D or
    2-D array, got a scalar' (neither says that an integer count is taken, and a
    2-D grid is not); the message names both forms, also for the clustered curve."""
    from skbrier.stats import clustered_calibration_curve

    y, p, _ = _data(120, seed=2)
    match = r"grid must be a number of points \(an integer, at least 2\) or an array"
    with pytest.raises(ValueError, match=match):
        flexible_calibration_curve(y, p, grid=grid)
    with pytest.raises(ValueError, match=match):
        clustered_calibration_curve(y, p, groups=np.arange(120) % 3, grid=grid)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"smoother": "loess", "n_knots": 4}, "n_knots applies to"),
        ({"smoother": "lowess", "n_knots": 4, "band": None}, "n_knots applies to"),
        ({"smoother": "rcs", "knots": [[-1.0, 0.0, 1.0]]}, "knots must be 1-D"),
        ({"smoother": "ns", "knots": np.zeros((2, 2))}, "knots must be 1-D"),
    ],
)
def test_spline_options_of_the_wrong_smoother_or_shape_are_refused(kw, match):
    """n_knots with loess or lowess was silently ignored (a curve of span 0.75
    that the caller believed had 4 knots), as knots are refused there; 2-D knots
    were silently flattened."""
    y, p, _ = _data(100, seed=4)
    with pytest.raises(ValueError, match=match):
        flexible_calibration_curve(y, p, **kw)
