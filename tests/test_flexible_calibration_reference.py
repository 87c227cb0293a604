"""flexible_calibration_curve against R (fixtures made by the references themselves).

tests/fixtures/make_flexible_curve_fixtures.R writes, for five data sets (one
with integer frequency weights, whose references are computed on the repeated
rows), the curves of pmcalibration 0.2.0 (rcs, ns, loess, lowess; logit and
identity transforms; ci = "pw"), R's loess(y ~ p) on both surfaces with
predict(se = TRUE) (CalibrationCurves' val.prob.ci.2), and the spline fits'
logit-scale Wald bands (glm with its default and with a tight convergence).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats

from skbrier._core.kernels.loess import loess_fit, loess_predict
from skbrier._core.kernels.splines import ns_knots, rcs_knots
from skbrier.metrics import flexible_calibration_curve

HERE = Path(__file__).parent / "fixtures" / "flexible_curves"
FIX = json.loads((HERE / "flexible_curve_fixtures.json").read_text())
SETS = ["sim400", "over1500", "small80", "ties600", "weighted"]
Z = float(stats.norm.ppf(0.975))


def _data(name):
    raw = np.genfromtxt(HERE / f"{name}.csv", delimiter=",", names=True)
    w = raw["w"] if name == "weighted" else None
    return raw["y"], raw["p"], w


def _metrics(ref):
    m = ref["metrics"]
    return np.array([m["Eavg"], m["E50"], m["E90"], m["Emax"], m["ECI"]])


def _ours(curve):
    return np.array([curve.ici, curve.e50, curve.e90, curve.emax, curve.eci])


def _curve(name, **kw):
    y, p, w = _data(name)
    ref_grid = np.array(FIX[name]["rcs_logit"]["grid"])
    curve = flexible_calibration_curve(y, p, sample_weight=w, **kw)
    np.testing.assert_allclose(curve.grid, ref_grid, rtol=0, atol=1e-15)
    return curve


# --------------------------------------------------------------------------
# splines: knots, curve, bands, summaries
# --------------------------------------------------------------------------
@pytest.mark.parametrize("transform", ["logit", None])
@pytest.mark.parametrize("smoother", ["rcs", "ns"])
@pytest.mark.parametrize("name", SETS)
def test_spline_curves_equal_pmcalibration(name, smoother, transform):
    ref = FIX[name][f"{smoother}_{transform or 'none'}"]
    curve = _curve(name, smoother=smoother, transform=transform, band_scale="probability")
    knots = ref["knots"]
    if smoother == "ns":
        knots = [ref["boundary_knots"][0], *knots, ref["boundary_knots"][1]]
    np.testing.assert_allclose(curve.knots, knots, rtol=1e-13, atol=1e-14)
    # R's glm stops when the deviance changes by less than 1e-8 (relative):
    # pmcalibration's fit is that close to the maximum, this one is at it
    np.testing.assert_allclose(curve.estimate, ref["estimate"], rtol=0, atol=1e-7)
    np.testing.assert_allclose(_ours(curve), _metrics(ref), rtol=0, atol=2e-7)
    # pmcalibration's "pw" band: fit -+ z se on the probability scale, with
    # the covariance of glm's last iteration
    np.testing.assert_allclose(curve.lower, ref["lower"], rtol=0, atol=1e-4)
    np.testing.assert_allclose(curve.upper, ref["upper"], rtol=0, atol=1e-4)


@pytest.mark.parametrize("transform", ["logit", None])
@pytest.mark.parametrize("smoother", ["rcs", "ns"])
@pytest.mark.parametrize("name", SETS)
def test_spline_curves_equal_converged_glm(name, smoother, transform):
    ref = FIX[name][f"{smoother}_{transform or 'none'}"]["converged"]
    curve = _curve(name, smoother=smoother, transform=transform)
    eta = np.array(ref["eta"])
    se = np.array(ref["se_eta"])
    np.testing.assert_allclose(special.logit(curve.estimate), eta, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(curve.standard_error, se, rtol=1e-6)
    assert curve.band_scale == "logit"
    np.testing.assert_allclose(
        curve.lower, special.expit(eta - Z * se), rtol=1e-6, atol=1e-12
    )
    np.testing.assert_allclose(
        curve.upper, special.expit(eta + Z * se), rtol=1e-6, atol=1e-12
    )
    np.testing.assert_allclose(_ours(curve), _metrics(ref), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", SETS)
def test_knots_equal_hmisc_and_splines(name):
    y, p, w = _data(name)
    for transform, x in (("logit", special.logit(p)), ("none", p)):
        ref = FIX[name][f"rcs_{transform}"]
        np.testing.assert_allclose(rcs_knots(x, w, 5), ref["knots"], rtol=1e-13, atol=1e-15)
        ref = FIX[name][f"ns_{transform}"]
        want = [ref["boundary_knots"][0], *ref["knots"], ref["boundary_knots"][1]]
        np.testing.assert_allclose(ns_knots(x, w, 5), want, rtol=1e-13, atol=1e-15)


# --------------------------------------------------------------------------
# loess: R's loess on both surfaces, val.prob.ci.2 and pmcalibration
# --------------------------------------------------------------------------
@pytest.mark.parametrize("surface", ["interpolate", "direct"])
@pytest.mark.parametrize("name", SETS)
def test_loess_kernel_equals_r(name, surface):
    ref = FIX[name]["valprob_loess" if surface == "interpolate" else "valprob_loess_direct"]
    y, p, w = _data(name)
    fit = loess_fit(p, y, w, surface=surface)
    assert fit.trace_hat == pytest.approx(ref["trace_hat"], rel=1e-12)
    assert fit.one_delta == pytest.approx(ref["one_delta"], rel=1e-12)
    assert fit.two_delta == pytest.approx(ref["two_delta"], rel=1e-12)
    assert fit.s == pytest.approx(ref["s"], rel=1e-12)
    assert fit.enp == pytest.approx(ref["enp"], rel=1e-10)
    if surface == "interpolate":
        np.testing.assert_allclose(fit.vertices, ref["vertices"], rtol=1e-14)
    rows = p if w is None else np.repeat(p, w.astype(int))  # R's rows
    rows = rows[np.array(ref["rows"]) - 1]  # those kept in the fixture
    value, se = loess_predict(fit, rows, se=True)
    np.testing.assert_allclose(value, ref["fitted"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(se, ref["se_data"], rtol=1e-11)
    value, se = loess_predict(fit, np.array(ref["grid"]), se=True)
    np.testing.assert_allclose(value, ref["estimate"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(se, ref["se_grid"], rtol=1e-11)


@pytest.mark.parametrize("surface", ["interpolate", "direct"])
@pytest.mark.parametrize("name", SETS)
def test_loess_curve_equals_valprob_ci_2(name, surface):
    ref = FIX[name]["valprob_loess" if surface == "interpolate" else "valprob_loess_direct"]
    curve = _curve(name, smoother="loess", transform=None, surface=surface)
    assert curve.band_scale == "probability"
    np.testing.assert_allclose(curve.estimate, ref["estimate"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(curve.standard_error, ref["se_grid"], rtol=1e-11)
    est, se = np.array(ref["estimate"]), np.array(ref["se_grid"])
    np.testing.assert_allclose(curve.lower, est - Z * se, rtol=0, atol=1e-12)
    np.testing.assert_allclose(curve.upper, est + Z * se, rtol=0, atol=1e-12)
    assert curve.ici == pytest.approx(ref["eavg"], rel=1e-11)
    assert curve.eci == pytest.approx(ref["eci"], rel=1e-11)


@pytest.mark.parametrize("transform", ["logit", None])
@pytest.mark.parametrize("name", SETS)
def test_loess_curve_equals_pmcalibration(name, transform):
    ref = FIX[name][f"loess_{transform or 'none'}"]
    curve = _curve(name, smoother="loess", transform=transform)
    np.testing.assert_allclose(curve.estimate, ref["estimate"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(curve.lower, ref["lower"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(curve.upper, ref["upper"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(_ours(curve), _metrics(ref), rtol=1e-11, atol=1e-14)


@pytest.mark.parametrize("transform", ["logit", None])
@pytest.mark.parametrize("name", SETS)
def test_lowess_curve_equals_pmcalibration(name, transform):
    ref = FIX[name][f"lowess_{transform or 'none'}"]
    curve = _curve(name, smoother="lowess", transform=transform, band=None)
    np.testing.assert_allclose(curve.estimate, ref["estimate"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(_ours(curve), _metrics(ref), rtol=1e-11, atol=1e-14)
    assert curve.lower is None and curve.band is None


def test_row_curves_equal_pmcalibration():
    # the curve at the observations (pmcalibration's p_c)
    for name in SETS:
        y, p, w = _data(name)
        rows = (
            np.arange(p.shape[0])
            if w is None
            else np.repeat(np.arange(p.shape[0]), w.astype(int))
        )
        for smoother, key, transform in (
            ("rcs", "rcs_logit", "logit"),
            ("loess", "loess_logit", "logit"),
            ("lowess", "lowess_none", None),
        ):
            ref = FIX[name][key]
            kept = rows[np.array(ref["rows"]) - 1]
            curve = flexible_calibration_curve(
                y, p, sample_weight=w, smoother=smoother, transform=transform, band=None
            )
            # the curve at the observations, through its summaries' definition
            at_rows = p[kept] + 0.0
            tol = 1e-7 if smoother == "rcs" else 1e-12
            got = flexible_calibration_curve(
                y, p, sample_weight=w, smoother=smoother, transform=transform,
                band=None, grid=at_rows,
            ).estimate  # fmt: skip
            np.testing.assert_allclose(got, ref["p_c"], rtol=0, atol=tol)
            assert curve.ici == pytest.approx(_metrics(ref)[0], rel=100 * tol)


# --------------------------------------------------------------------------
# CalibrationCurves::val.prob.ci.2 itself (sourced from its repository)
# --------------------------------------------------------------------------
@pytest.mark.parametrize("name", SETS)
def test_loess_equals_val_prob_ci_2(name):
    ref = FIX[name]["val_prob_ci_2"]["loess"]
    y, p, w = _data(name)
    x = np.array(ref["x"])
    curve = flexible_calibration_curve(y, p, sample_weight=w, transform=None, grid=x)
    np.testing.assert_allclose(curve.estimate, ref["y"], rtol=0, atol=1e-12)
    # val.prob.ci.2 clips its band to [0, 1]
    np.testing.assert_allclose(np.clip(curve.lower, 0, 1), ref["ymin"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.clip(curve.upper, 0, 1), ref["ymax"], rtol=0, atol=1e-12)
    assert curve.ici == pytest.approx(ref["Eavg"], rel=1e-11)
    assert curve.eci == pytest.approx(ref["ECI"], rel=1e-11)


@pytest.mark.parametrize("name", SETS)
def test_rcs_equals_val_prob_ci_2(name):
    # val.prob.ci.2(smooth = "rcs"): rms::lrm.fit on rcspline.eval(p, nk = 5),
    # the band xbeta -+ 1.96 se mapped back by the inverse logit
    ref = FIX[name]["val_prob_ci_2"]["rcs"]
    y, p, w = _data(name)
    level = 2 * stats.norm.cdf(1.96) - 1
    curve = flexible_calibration_curve(
        y, p, sample_weight=w, smoother="rcs", transform=None, grid=np.array(ref["x"]),
        confidence_level=level,
    )  # fmt: skip
    np.testing.assert_allclose(curve.knots, ref["knots"], rtol=1e-13)
    # lrm.fit's own convergence criterion: about 1e-7
    np.testing.assert_allclose(curve.estimate, ref["y"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(curve.lower, ref["lower"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(curve.upper, ref["upper"], rtol=0, atol=1e-6)
