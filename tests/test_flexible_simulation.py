"""Simulation intervals of flexible calibration curves (pmcalibration's ``ci = "sim"``).

``band="simulation"`` and ``confidence_interval(method="simulation")``: the
coefficients of the logistic (spline or gam) fit drawn from their normal law
(as ``MASS::mvrnorm``), the curve recomputed at the rows and at the grid for
each draw, percentile intervals.  R's draws cannot be reproduced bit for bit,
so the fixtures of tests/fixtures/make_flexible_simulation_fixtures.R
(pmcalibration 0.2.0 itself, 1000 and 20000 draws) are compared in
distribution: each interval endpoint within four standard errors of the
difference of two independent Monte Carlo estimates (the standard error of
R's endpoint from the order statistics of its 20000 draws, times sqrt(2) for
the difference with ours), and the mean and sd of the simulated metrics to
2 %.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import special
from sklearn.exceptions import ConvergenceWarning

from skbrier.metrics import flexible_calibration_curve
from skbrier.metrics._calibration_curve_result import CURVE_METRICS
from skbrier.metrics.calibration_curves import _mvrnorm

HERE = Path(__file__).parent / "fixtures" / "flexible_curves"
FIX = json.loads((HERE / "simulation_fixtures.json").read_text())
R_NAMES = {"ici": "Eavg", "e50": "E50", "e90": "E90", "emax": "Emax", "eci": "ECI"}
CASES = [(name, case) for name in FIX if name != "versions" for case in FIX[name]]
N_KNOTS = {"rcs": 5, "ns": 5, "gam": None}


def _data(name):
    raw = np.genfromtxt(HERE / f"{name}.csv", delimiter=",", names=True)
    w = raw["w"] if name == "weighted" else None
    return raw["y"], raw["p"], w


def _simulated(name, case, n_draws, seed=0):
    ref = FIX[name][case]
    y, p, w = _data(name)
    curve = flexible_calibration_curve(
        y, p, sample_weight=w, smoother=ref["smooth"], n_knots=N_KNOTS[ref["smooth"]],
        transform=None if ref["transf"] == "none" else "logit", band="simulation",
        n_resamples=n_draws, random_state=seed,
    )  # fmt: skip
    np.testing.assert_allclose(curve.grid, ref["grid"], rtol=0, atol=1e-15)
    return curve, ref


#: R's inverse logit (``binomial()$linkinv``) gives ``eps / (1 + eps)`` for
#: ``eta < -30`` and ``1 / (1 + eps)`` for ``eta > 30``; ours does not
EPS = float(np.finfo(np.float64).eps)


def _r_linkinv(prob):
    """Probabilities as R's inverse logit gives them (see :data:`EPS`); the
    fixture's are rounded to 15 digits."""
    lo, hi = special.expit(-30.0), special.expit(30.0)
    out = np.where(prob < lo * (1 - 1e-12), EPS / (1.0 + EPS), prob)
    return np.where(prob > hi, 1.0 / (1.0 + EPS), out)


def _check_endpoints(draws, theirs, q, k=4.0, clip=False):
    """R's quantiles ``theirs`` (at level ``q``) of ``R`` draws against our
    draws (rows): our empirical distribution function at R's endpoint is
    ``q`` up to the Monte Carlo error of two independent samples, ``k``
    times ``sqrt(2 q (1 - q) / R)``.  In the probability of the draws, not in
    their values: exact where the law of a summary has a spike (tied rows).
    ``clip``: probabilities, as R's inverse logit gives them."""
    draws = np.atleast_2d(draws.T).T
    theirs = np.atleast_1d(np.asarray(theirs, dtype=np.float64))
    if clip:
        draws, theirs = _r_linkinv(draws), _r_linkinv(theirs)
    n = draws.shape[0]
    below = (draws < theirs).mean(axis=0)  # F(x-) and F(x): an atom spans both
    upto = (draws <= theirs).mean(axis=0)
    tol = k * math.sqrt(2.0 * q * (1.0 - q) / n) + 1.0 / n
    bad = (upto < q - tol) | (below > q + tol)
    assert not bad.any(), (
        f"{int(bad.sum())} endpoints at q={q} outside the Monte Carlo error: our "
        f"distribution function there {upto[bad][:5]}, tolerance {tol:.4g}"
    )


def _check_moments(draws, mean, sd, k=4.0):
    """Mean and sd of our draws against R's, within ``k`` standard errors of
    the difference of two independent Monte Carlo estimates."""
    n = draws.shape[0]
    ours_sd = draws.std(ddof=1)
    assert abs(draws.mean() - mean) <= k * math.sqrt(2.0 / n) * ours_sd
    dev2 = (draws - draws.mean()) ** 2
    se_sd = dev2.std(ddof=1) / (2.0 * ours_sd * math.sqrt(n))
    assert abs(ours_sd - sd) <= k * math.sqrt(2.0) * se_sd
    assert abs(ours_sd / sd - 1.0) < 0.05


# --------------------------------------------------------------------------
# against pmcalibration (ci = "sim")
# --------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "case"), CASES)
def test_simulation_intervals_equal_pmcalibration_in_distribution(name, case):
    curve, ref = _simulated(name, case, 20_000)
    r = ref["R20000"]
    # the fit itself (the centre of the draws) equals pmcalibration's
    np.testing.assert_allclose(curve.estimate, ref["estimate"], rtol=0, atol=1e-4)
    sims = curve._sim["metrics"]
    for j, metric in enumerate(CURVE_METRICS):
        rn = R_NAMES[metric]
        low, high = curve.confidence_interval(metric=metric, method="simulation")
        np.testing.assert_allclose(
            [low, high], np.quantile(sims[:, j], [0.025, 0.975]), rtol=1e-14
        )
        _check_endpoints(sims[:, j], r["metric_lower"][rn], 0.025)
        _check_endpoints(sims[:, j], r["metric_upper"][rn], 0.975)
        _check_moments(sims[:, j], r["metric_mean"][rn], r["metric_sd"][rn])
    # the band: percentiles of the simulated curves on the probability scale
    band = curve._sim["curve"]
    np.testing.assert_allclose(curve.lower, np.quantile(band, 0.025, axis=0), rtol=1e-12)
    _check_endpoints(band, r["band_lower"], 0.025, clip=True)
    _check_endpoints(band, r["band_upper"], 0.975, clip=True)


@pytest.mark.parametrize(
    ("name", "case"), [("sim400", "rcs_logit"), ("weighted", "gam_logit")]
)
def test_1000_draws_agree_with_pmcalibration_1000_draws(name, case):
    curve, ref = _simulated(name, case, 20_000, seed=5)
    r1 = ref["R1000"]
    # R's 1000 draws: its endpoints within their (larger) Monte Carlo error
    band = curve._sim["curve"]
    sub = band[:1000]
    k = 4.0 * math.sqrt(10.5)  # (1/1000 + 1/20000) / (2/20000)
    _check_endpoints(band, r1["band_lower"], 0.025, k=k, clip=True)
    _check_endpoints(band, r1["band_upper"], 0.975, k=k, clip=True)
    # our 1000 draws against theirs
    _check_endpoints(sub, r1["band_lower"], 0.025, clip=True)
    for j, metric in enumerate(CURVE_METRICS):
        rn = R_NAMES[metric]
        sims = curve._sim["metrics"][:, j]
        _check_endpoints(sims[:1000], r1["metric_lower"][rn], 0.025)
        _check_endpoints(sims[:1000], r1["metric_upper"][rn], 0.975)


# --------------------------------------------------------------------------
# the draws
# --------------------------------------------------------------------------
def test_mvrnorm_has_the_mean_and_covariance_and_takes_a_singular_covariance():
    rng = np.random.default_rng(0)
    a = np.array([[2.0, 0.6, 0.0], [0.6, 1.0, 0.3], [0.0, 0.3, 0.5]])
    draws = _mvrnorm(rng, np.array([1.0, -2.0, 0.5]), a, 200_000)
    np.testing.assert_allclose(draws.mean(axis=0), [1.0, -2.0, 0.5], atol=0.01)
    np.testing.assert_allclose(np.cov(draws.T), a, atol=0.02)
    # rank 1 (an eigenvalue rounded below 0 is clipped, as MASS::mvrnorm)
    v = np.array([1.0, 2.0, -1.0])
    d1 = _mvrnorm(rng, np.zeros(3), np.outer(v, v) - 1e-17 * np.eye(3), 1000)
    assert np.all(np.isfinite(d1))
    np.testing.assert_allclose(d1 - np.outer(d1[:, 0], v), 0.0, atol=1e-6)


@pytest.mark.parametrize("smoother", ["rcs", "ns", "gam"])
def test_integer_weights_equal_repeated_rows(smoother):
    y, p, w = _data("weighted")
    rep = np.repeat(np.arange(y.shape[0]), w.astype(int))
    kw = {"smoother": smoother, "band": "simulation", "n_resamples": 600, "random_state": 3}
    a = flexible_calibration_curve(y, p, sample_weight=w, **kw)
    b = flexible_calibration_curve(y[rep], p[rep], **kw)
    # the gam's smoothing parameter is found by a search (to about 1e-6)
    tol = {"rtol": 1e-3, "atol": 1e-4} if smoother == "gam" else {"rtol": 0, "atol": 1e-9}
    np.testing.assert_allclose(a.lower, b.lower, **tol)
    np.testing.assert_allclose(a.upper, b.upper, **tol)
    np.testing.assert_allclose(a._sim["metrics"], b._sim["metrics"], **tol)


def test_reproducible_and_independent_of_n_jobs():
    y, p, _ = _data("sim400")
    kw = {"smoother": "rcs", "band": "simulation", "n_resamples": 3000}
    a = flexible_calibration_curve(y, p, random_state=7, **kw)
    b = flexible_calibration_curve(y, p, random_state=7, n_jobs=2, **kw)
    c = flexible_calibration_curve(y, p, random_state=8, **kw)
    np.testing.assert_array_equal(a._sim["metrics"], b._sim["metrics"])
    np.testing.assert_array_equal(a.lower, b.lower)
    assert not np.array_equal(a.lower, c.lower)
    assert a.n_simulations == 3000 and a.n_resamples == 0


def test_band_and_later_intervals_share_the_draws():
    y, p, _ = _data("over1500")
    kw = {"smoother": "ns", "n_resamples": 500, "random_state": 11}
    sim = flexible_calibration_curve(y, p, band="simulation", **kw)
    wald = flexible_calibration_curve(y, p, band="analytic", **kw)
    assert wald.n_simulations == 0
    for metric in CURVE_METRICS:
        # drawn once on the first call (the fit repeated), then kept
        assert wald.confidence_interval(metric=metric, method="simulation") == (
            sim.confidence_interval(metric=metric, method="simulation")
        )
    assert wald.n_simulations == 500 and wald.n_resamples == 0
    kept = wald._sim
    wald.confidence_interval(metric="e90", method="simulation")
    assert wald._sim is kept
    # the band at another level: the same draws
    lo, hi = sim.confidence_interval(0.8, metric="calibration_curve")
    assert np.all(lo >= sim.lower) and np.all(hi <= sim.upper)
    lo95, hi95 = sim.confidence_interval(metric="calibration_curve", method="simulation")
    np.testing.assert_array_equal(lo95, sim.lower)
    np.testing.assert_array_equal(hi95, sim.upper)


def test_default_method_stays_the_bootstrap():
    y, p, _ = _data("sim400")
    curve = flexible_calibration_curve(
        y, p, smoother="rcs", band="simulation", n_resamples=200, random_state=0
    )
    default = curve.confidence_interval(metric="ici")
    assert curve.n_resamples == 200  # the bootstrap ran
    assert default == curve.confidence_interval(metric="ici", method="percentile")
    assert default != curve.confidence_interval(metric="ici", method="simulation")


def test_simulation_band_is_the_only_method_of_its_curve():
    y, p, _ = _data("small80")
    curve = flexible_calibration_curve(
        y, p, smoother="gam", band="simulation", n_resamples=300, random_state=0
    )
    assert curve.band == "simulation" and curve.band_scale is None
    assert np.all((curve.lower <= curve.estimate) & (curve.estimate <= curve.upper))
    assert np.all((curve.lower >= 0.0) & (curve.upper <= 1.0))
    with pytest.raises(ValueError, match="method"):
        curve.confidence_interval(metric="calibration_curve", method="percentile")
    frame = curve.to_frame()
    np.testing.assert_array_equal(frame["lower"], curve.lower)


@pytest.mark.parametrize("smoother", ["loess", "lowess"])
def test_local_smoothers_have_no_coefficients_to_draw(smoother):
    y, p, _ = _data("sim400")
    with pytest.raises(ValueError, match="band='simulation'.*'rcs', 'ns', 'gam'"):
        flexible_calibration_curve(y, p, smoother=smoother, band="simulation")
    curve = flexible_calibration_curve(y, p, smoother=smoother, band=None)
    with pytest.raises(ValueError, match="method='simulation'.*smoother="):
        curve.confidence_interval(metric="ici", method="simulation")


def test_fit_without_maximum_gives_nan_draws():
    # a threshold on the forecast separates the outcomes: no finite maximum
    p = np.linspace(0.05, 0.95, 60)
    y = (p > 0.5).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(ConvergenceWarning):
            curve = flexible_calibration_curve(
                y, p, smoother="rcs", n_knots=3, band="simulation", n_resamples=50,
                random_state=0,
            )  # fmt: skip
        assert np.all(np.isnan(curve.lower)) and np.all(np.isnan(curve.upper))
        low, high = curve.confidence_interval(metric="ici", method="simulation")
        assert math.isnan(low) and math.isnan(high)
