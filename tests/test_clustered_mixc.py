"""clustered_calibration_curve(approach="MIXC") against CalibrationCurves'
valProbCluster(approach = "MIXC") and its lme4::glmer fit (R).

Fixtures: tests/fixtures/make_mixc_fixtures.R (mixc_reference.json), on the
centres of the MAC2 fixtures.  Both slope fits are singular (boundary) and
glmer's Nelder-Mead stops a little short of the optimum (our -2 logLik is
lower by about 1e-5), so the slope model's estimates agree to about 1e-4;
the random-intercept fits agree to 1e-5 and better.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from skbrier._core.kernels.splines import rcs_basis, rcs_knots
from skbrier.stats import clustered_calibration_curve
from skbrier.stats._glmm import fit_logistic_glmm

FIX = pathlib.Path(__file__).parent / "fixtures" / "clustered_calibration"
REF = json.loads((FIX / "mixc_reference.json").read_text())["cases"]
IDS = [f"{c['name']}-{c['method']}-{c['cl_level']}" for c in REF]


def _data(name: str) -> pd.DataFrame:
    return pd.read_csv(FIX / f"{name}.csv")


def _tol(case: dict) -> float:
    return 2e-4 if case["method"] == "slope" else 3e-5


@pytest.mark.parametrize("case", REF[:1] + REF[3:], ids=IDS[:1] + IDS[3:])
def test_laplace_fit_equals_glmer(case):
    d = _data(case["name"])
    x = special.logit(d["p"].to_numpy())
    labels, codes = np.unique(d["cluster"].astype(str).to_numpy(), return_inverse=True)
    X = np.column_stack([np.ones_like(x), rcs_basis(x, rcs_knots(x, None, 3))])
    nz = 3 if case["method"] == "slope" else 1
    fit = fit_logistic_glmm(d["y"].to_numpy(float), X, X[:, :nz], codes, len(labels))
    assert fit.converged
    # at least as good an optimum as glmer's, and the same one
    assert fit.deviance <= case["minus2loglik"] + 1e-9
    assert fit.deviance == pytest.approx(case["minus2loglik"], abs=1e-4)
    tol = _tol(case)
    np.testing.assert_allclose(fit.beta, case["fixef"], atol=tol)
    np.testing.assert_allclose(fit.varcorr, np.reshape(case["varcorr"], (nz, nz)), atol=tol)
    np.testing.assert_allclose(fit.vcov, case["vcov"], rtol=1e-3, atol=tol)
    order = [labels.tolist().index(c) for c in case["ranef"]["cluster"]]
    np.testing.assert_allclose(
        fit.b[order], np.reshape(case["ranef"]["values"], (len(labels), nz)), atol=10 * tol
    )


@pytest.mark.parametrize("case", REF, ids=IDS)
def test_equals_valprobcluster_mixc(case):
    d = _data(case["name"])
    method = "slope" if case["method"] == "slope" else "intercept"
    res = clustered_calibration_curve(
        d["y"], d["p"], groups=d["cluster"].astype(str), grid=len(case["grid"]),
        confidence_level=case["cl_level"], approach="MIXC", random_effects=method,
    )  # fmt: skip
    tol = _tol(case)
    cur = case["curve"]
    np.testing.assert_allclose(res.grid, case["grid"], rtol=1e-14)
    np.testing.assert_allclose(res.estimate, cur["obs_prob"], atol=tol)
    k, g = res.cluster_estimate.shape
    cl = case["clusters"]
    order = [res.clusters.tolist().index(cl["cluster"][i * g]) for i in range(k)]
    np.testing.assert_allclose(
        res.cluster_estimate[order].ravel(), cl["obs_prob"], atol=10 * tol
    )
    if not case["band"]:
        return
    np.testing.assert_allclose(res.lower, cur["p_lower_ci"], atol=tol)
    np.testing.assert_allclose(res.upper, cur["p_upper_ci"], atol=tol)
    # merTools' 10000 draws: its quantiles against their limit, on the logit
    # scale, within 5 Monte Carlo standard errors of a normal quantile
    z = stats.norm.ppf(0.5 + case["cl_level"] / 2)
    half = special.logit(res.prediction_upper) - special.logit(res.estimate)
    se_q = np.sqrt((1 - 0.5 - case["cl_level"] / 2) * (0.5 + case["cl_level"] / 2) / 1e4)
    mc = 5 * se_q / stats.norm.pdf(z) * half / z
    np.testing.assert_array_less(
        np.abs(special.logit(cur["upr"]) - special.logit(res.prediction_upper)), mc
    )
    np.testing.assert_array_less(
        np.abs(special.logit(cur["lwr"]) - special.logit(res.prediction_lower)), mc
    )
    mc_median = 5 * np.sqrt(0.25 / 1e4) / stats.norm.pdf(0) * half / z
    np.testing.assert_array_less(
        np.abs(special.logit(cur["fit"]) - special.logit(res.estimate)), mc_median
    )


def test_mixc_errors_and_result():
    d = _data("simulated")
    kw = {"groups": d["cluster"].astype(str), "approach": "MIXC"}
    with pytest.raises(ValueError, match="sample_weight"):
        clustered_calibration_curve(d["y"], d["p"], sample_weight=np.ones(len(d)), **kw)
    with pytest.raises(ValueError, match="6 distinct grid points"):
        clustered_calibration_curve(d["y"], d["p"], grid=[0.2, 0.4, 0.6], **kw)
    # the grid's own count, not the spline kernel's advice about y_proba and
    # knots= (neither is a parameter of this function); ties count once
    with pytest.raises(ValueError, match=r"got 4\. Pass grid=6") as err:
        clustered_calibration_curve(d["y"], d["p"], grid=[0.1, 0.2, 0.2, 0.4, 0.6], **kw)
    assert "y_proba" not in str(err.value) and "knots=" not in str(err.value)
    with pytest.raises(ValueError, match="approach"):
        clustered_calibration_curve(d["y"], d["p"], groups=kw["groups"], approach="loess")
    with pytest.raises(ValueError, match="random_effects"):
        clustered_calibration_curve(d["y"], d["p"], random_effects="both", **kw)
    res = clustered_calibration_curve(
        d["y"], d["p"], grid=8, random_effects="intercept", **kw
    )
    assert res.approach == "MIXC" and np.isnan(res.cluster_standard_error).all()
    assert np.all(res.prediction_lower < res.estimate) and np.all(res.tau2 > 0)
    assert np.ptp(res.tau2) == pytest.approx(0.0, abs=1e-12)  # intercept only
