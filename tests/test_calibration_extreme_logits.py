"""Logistic calibration fits with forecasts whose log-odds reach about +-300.

Reference: tests/fixtures/extreme_logit_fixtures.json, made by
tests/fixtures/make_extreme_logit_fixtures.R (R's glm for the joint fit;
the calibration-in-the-large root in 3000-bit arithmetic with Rmpfr, since
glm's own offset fit cancels 1 - 1 there and returns 1e15).
"""

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from skbrier.metrics.calibration import (
    calibration_in_the_large,
    calibration_intercept_slope,
)

CASES = json.loads(
    (Path(__file__).parent / "fixtures" / "extreme_logit_fixtures.json").read_text()
)
IDS = [c["name"] for c in CASES]


def _data(case):
    y = np.asarray(case["y"], dtype=float)
    p = np.array([float(v) for v in case["p"]])
    w = np.asarray(case["w"], dtype=float)
    return y, p, w


def _fit(y, p, w=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return calibration_intercept_slope(y, p, sample_weight=w)


def _citl(y, p, w=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return calibration_in_the_large(y, p, sample_weight=w)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_joint_fit_matches_glm(case):
    y, p, w = _data(case)
    res = _fit(y, p, w)
    assert res.converged
    assert res.intercept == pytest.approx(case["intercept"], rel=1e-7, abs=1e-9)
    assert res.slope == pytest.approx(case["slope"], rel=1e-7, abs=1e-11)
    assert res.intercept_stderr == pytest.approx(case["intercept_se"], rel=1e-6)
    assert res.slope_stderr == pytest.approx(case["slope_se"], rel=1e-6)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_citl_matches_exact_root(case):
    y, p, w = _data(case)
    res = _fit(y, p, w)
    assert res.calibration_in_the_large == pytest.approx(case["citl"], rel=1e-10)
    assert res.calibration_in_the_large_stderr == pytest.approx(case["citl_se"], rel=1e-6)
    assert _citl(y, p, w) == pytest.approx(case["citl"], rel=1e-10)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_integer_weights_equal_repeated_rows(case):
    y, p, w = _data(case)
    k = w.astype(int)
    a = _fit(y, p, w)
    b = _fit(np.repeat(y, k), np.repeat(p, k))
    for name in (
        "intercept",
        "slope",
        "calibration_in_the_large",
        "intercept_stderr",
        "slope_stderr",
        "calibration_in_the_large_stderr",
    ):
        assert getattr(a, name) == pytest.approx(getattr(b, name), rel=1e-8), name
    assert a.converged and b.converged
    assert _citl(y, p, w) == pytest.approx(
        _citl(np.repeat(y, k), np.repeat(p, k)), rel=1e-10
    )


@pytest.mark.parametrize("factor", [1e-200, 1e200])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_weight_scale_invariance(case, factor):
    y, p, w = _data(case)
    a = _fit(y, p, w)
    b = _fit(y, p, w * factor)
    assert b.converged
    for name in ("intercept", "slope", "calibration_in_the_large"):
        assert getattr(b, name) == pytest.approx(getattr(a, name), rel=1e-9), name
    root = math.sqrt(factor)
    for name in ("intercept_stderr", "slope_stderr", "calibration_in_the_large_stderr"):
        assert getattr(b, name) * root == pytest.approx(getattr(a, name), rel=1e-8), name


def test_never_converged_with_a_nan_stderr():
    """Random forecasts with log-odds down to about -450: every fit that says
    converged has finite standard errors and agrees with repeated rows."""
    rng = np.random.default_rng(3)
    y = np.array([1, 1, 1, 1, 0, 1.0])
    p0 = np.array([5.9e-145, 0.0142, 0, 0, 5.2e-68, 0.354])
    w = np.full(6, 4.0)
    for _ in range(60):
        p = p0.copy()
        m = p > 0
        p[m] = np.exp(np.log(p[m]) * rng.uniform(0.3, 1.5, m.sum()))
        a = _fit(y, p, w)
        b = _fit(np.repeat(y, 4), np.repeat(p, 4))
        for res in (a, b):
            if res.converged:
                assert math.isfinite(res.intercept_stderr)
                assert math.isfinite(res.slope_stderr)
        assert a.converged == b.converged
        assert a.intercept == pytest.approx(b.intercept, rel=1e-8, nan_ok=True)
        assert a.slope == pytest.approx(b.slope, rel=1e-8, abs=1e-12, nan_ok=True)
        assert a.calibration_in_the_large == pytest.approx(
            b.calibration_in_the_large, rel=1e-10
        )


def test_dask_matches_in_memory():
    da = pytest.importorskip("dask.array")
    case = CASES[0]
    y, p, w = _data(case)
    res = _fit(*(da.from_array(a, chunks=2) for a in (y, p, w)))
    assert res.intercept == pytest.approx(case["intercept"], rel=1e-7)
    assert res.slope == pytest.approx(case["slope"], rel=1e-7)
    assert res.converged
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        citl = calibration_in_the_large(
            *(da.from_array(a, chunks=2) for a in (y, p)),
            sample_weight=da.from_array(w, chunks=2),
        )
    assert citl == pytest.approx(case["citl"], rel=1e-10)
