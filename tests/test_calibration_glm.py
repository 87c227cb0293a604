"""Logistic recalibration on hard problems against R's glm (fixtures made by
tests/fixtures/make_glm_fixtures.R with glm.control(epsilon = 1e-14)):
one event, near separation, forecasts within 1e-15 of 0 and 1 or of about
1e-201, fractional and extreme frequency weights.  Where glm converges,
skbrier equals it; where glm reports trouble (non-convergence, fitted
probabilities numerically 0 or 1), skbrier warns with a ConvergenceWarning
and never returns a silently huge number."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import special
from sklearn.exceptions import ConvergenceWarning

from skbrier._core.kernels import calibration as _calibration_math
from skbrier.metrics.calibration import (
    calibration_in_the_large,
    calibration_intercept_slope,
)

CASES = json.loads((Path(__file__).parent / "fixtures" / "glm_fixtures.json").read_text())[
    "cases"
]
BY_NAME = {c["name"]: c for c in CASES}

#: R's IRLS runs away on this case (intercept about 1e14) while reporting
#: convergence: it is checked against the same data with unscaled weights
R_FAILS = {"weights_times_1e6"}
SEPARATED = {"separated", "quasi_separated", "separated_by_zero_weights"}


def _data(case):
    w = case.get("w")
    return (
        np.asarray(case["y"], dtype=float),
        np.asarray(case["p"], dtype=float),
        None if w is None else np.asarray(w, dtype=float),
    )


def _fit(case):
    y, p, w = _data(case)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        res = calibration_intercept_slope(y, p, sample_weight=w)
    conv = [r for r in rec if issubclass(r.category, ConvergenceWarning)]
    return res, conv


def _glm_trouble(joint):
    return (not joint["converged"]) or any(
        "numerically 0 or 1" in m for m in joint["warnings"]
    )


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_calibration_in_the_large_matches_glm(case):
    """The offset model has a finite MLE whenever both classes occur; R's glm
    converges on every case and skbrier equals it."""
    y, p, w = _data(case)
    g = case["citl"]
    assert g["converged"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        citl = calibration_in_the_large(y, p, sample_weight=w)
        res, _ = _fit(case)
    assert citl == pytest.approx(g["citl"], rel=1e-10, abs=1e-10)
    assert res.calibration_in_the_large == citl
    assert res.calibration_in_the_large_stderr == pytest.approx(g["citl_se"], rel=1e-7)


SOUND = [
    c
    for c in CASES
    if c.get("joint") and not _glm_trouble(c["joint"]) and c["name"] not in R_FAILS
]


@pytest.mark.parametrize("case", SOUND, ids=[c["name"] for c in SOUND])
def test_joint_fit_matches_glm_without_warning(case):
    """Where glm converges without complaint, skbrier equals it (to glm's own
    convergence error) and does not warn."""
    j = case["joint"]
    res, conv = _fit(case)
    assert not conv
    assert res.converged
    tol = {"rel": 1e-7, "abs": 1e-7}
    assert res.intercept == pytest.approx(j["intercept"], **tol)
    assert res.slope == pytest.approx(j["slope"], **tol)
    assert res.intercept_stderr == pytest.approx(j["intercept_se"], rel=1e-6)
    assert res.slope_stderr == pytest.approx(j["slope_se"], rel=1e-6)
    assert res.lr_chi2 == pytest.approx(case["L0"] - case["L01"], rel=1e-9, abs=1e-9)
    assert res.unreliability_chi2 == pytest.approx(
        case["L01"] - j["deviance"], rel=1e-6, abs=1e-6
    )


NEAR = [
    c
    for c in CASES
    if c.get("joint") and _glm_trouble(c["joint"]) and c["name"] not in SEPARATED | R_FAILS
]


@pytest.mark.parametrize("case", NEAR, ids=[c["name"] for c in NEAR])
def test_near_separation_matches_glm_and_warns(case):
    """glm warns "fitted probabilities numerically 0 or 1" but its estimate is
    finite and right: skbrier equals it and warns too."""
    j = case["joint"]
    assert j["converged"]
    res, conv = _fit(case)
    assert conv and "nearly separate" in str(conv[0].message)
    assert res.converged
    assert res.intercept == pytest.approx(j["intercept"], rel=1e-7, abs=1e-7)
    assert res.slope == pytest.approx(j["slope"], rel=1e-7)
    assert res.slope_stderr == pytest.approx(j["slope_se"], rel=1e-5)
    assert res.unreliability_chi2 == pytest.approx(
        case["L01"] - j["deviance"], rel=1e-6, abs=1e-6
    )


@pytest.mark.parametrize("name", sorted(SEPARATED))
def test_separation_warns_and_reports_infinite_slope(name):
    """glm's fit runs away (huge coefficients and standard errors, with a
    warning); skbrier warns and reports slope +-inf, intercept NaN."""
    case = BY_NAME[name]
    assert _glm_trouble(case["joint"])
    assert case["joint"]["slope_se"] > 1e6  # R's estimate is meaningless
    res, conv = _fit(case)
    assert conv and "separated" in str(conv[0].message)
    assert not res.converged
    assert res.slope == math.inf and math.isnan(res.intercept)
    assert math.isnan(res.slope_stderr) and math.isnan(res.unreliability_pvalue)
    lo, hi = res.confidence_interval(metric="calibration_slope")
    assert math.isnan(lo) and math.isnan(hi)


def test_weights_scaled_by_1e6_where_glm_runs_away():
    """Frequency weights times s: the same coefficients, standard errors over
    sqrt(s), chi-squares times s.  R's glm fails here (intercept ~1e14)."""
    big, ref = BY_NAME["weights_times_1e6"], BY_NAME["weights_times_1"]
    assert abs(big["joint"]["intercept"]) > 1e10  # R's runaway fit
    a, conv = _fit(big)
    b, _ = _fit(ref)
    assert not conv and a.converged
    j = ref["joint"]
    assert a.intercept == pytest.approx(j["intercept"], rel=1e-9)
    assert a.slope == pytest.approx(j["slope"], rel=1e-9)
    assert a.intercept_stderr == pytest.approx(j["intercept_se"] * 1e-3, rel=1e-7)
    assert a.slope_stderr == pytest.approx(j["slope_se"] * 1e-3, rel=1e-7)
    assert a.unreliability_chi2 == pytest.approx(b.unreliability_chi2 * 1e6, rel=1e-7)
    assert a.r2 == pytest.approx(b.r2, rel=1e-9)


# --- the reproducers of the issue --------------------------------------------


def test_one_event_in_fifteen():
    """Issue reproducer 1: was 7009772.4; R's glm (offset model) gives -7.2342."""
    y = np.r_[1, np.zeros(14, int)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        citl = calibration_in_the_large(y, np.full(15, 0.99))
    assert citl == pytest.approx(BY_NAME["one_event_constant"]["citl"]["citl"], abs=1e-12)
    assert citl == pytest.approx(special.logit(1 / 15) - special.logit(0.99), abs=1e-12)


def test_high_forecasts_rare_events_numpy_reproducer():
    """Issue reproducer 2 (was 6.8e9): the estimate solves the score equation
    and maximises the likelihood; R's glm on the same kind of data agrees."""
    rng = np.random.default_rng(1)
    p = rng.uniform(0.97, 0.995, 500)
    y = (rng.uniform(size=500) < 0.07).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = calibration_in_the_large(y, p)
        res = calibration_intercept_slope(y, p)
    assert a == pytest.approx(-7.01, abs=0.01)
    lg = special.logit(p)
    score = np.sum(y - special.expit(a + lg))
    assert abs(score) < 1e-10
    ll = [
        _calibration_math.log_likelihood(y.astype(float), d + a + lg, None)
        for d in (-1e-4, 0.0, 1e-4)
    ]
    assert ll[1] >= ll[0] and ll[1] >= ll[2]
    assert res.calibration_in_the_large == a and res.converged
    assert math.isfinite(res.calibration_in_the_large_stderr)


def test_calibration_report_shows_the_right_intercept():
    from skbrier.report import calibration_report

    y = np.r_[1, np.zeros(14, int), 0, 1]
    p = np.r_[np.full(15, 0.99), 0.98, 0.985]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = calibration_report(y, p)
        expected = calibration_in_the_large(y, p)
    assert abs(expected) < 10
    assert rep.logistic.calibration_in_the_large == pytest.approx(expected, abs=1e-12)


def test_convergence_warning_is_not_swallowed(monkeypatch):
    """A joint fit that stops early warns the caller (it used to be silenced
    with every other UserWarning) and says so in ``converged``."""
    from skbrier._core.kernels import logistic as _logistic_math

    real = _logistic_math.newton_fit

    def one_step(*args, **kwargs):
        kwargs["max_iter"] = 1
        return real(*args, **kwargs)

    monkeypatch.setattr(_logistic_math, "newton_fit", one_step)
    case = BY_NAME["near_separated"]
    y, p, _ = _data(case)
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        res = calibration_intercept_slope(y, p)
    assert not res.converged


def test_newton_never_accepts_a_worse_step():
    """The kernel stops and reports failure rather than accepting a step that
    lowers the likelihood (the old code took it after 1e-10 step halving)."""
    y = np.array([1.0, 0.0, 1.0, 1.0, 1.0])
    lg = special.logit(np.array([7e-202, 8e-202, 9e-202, 1e-201, 2e-201]))
    X = np.column_stack([np.ones(5), lg])
    ll_start = _calibration_math.log_likelihood(y, lg, None)
    beta, _, ll, ok = _calibration_math.logistic_fit(y, X, None, None, np.array([0.0, 1.0]))
    assert ll >= ll_start
    assert np.all(np.isfinite(beta))
    if ok:
        j = BY_NAME["tiny_forecasts_overlap"]["joint"]
        assert beta[1] == pytest.approx(j["slope"], rel=1e-6)


def test_tiny_forecasts_constant_matches_glm():
    """Issue item 14: forecasts of 7e-202 gave OverflowError."""
    case = BY_NAME["tiny_forecasts_constant"]
    y, p, _ = _data(case)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = calibration_intercept_slope(y, p)
    assert res.calibration_in_the_large == pytest.approx(case["citl"]["citl"], rel=1e-12)
    assert res.intercept == pytest.approx(math.log(4.0)) and res.slope == 0.0
    assert res.r2 == 0.0 and res.unreliability_df == 1
    assert math.isfinite(res.unreliability_chi2)


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PROBS = st.one_of(
    st.floats(1e-300, 1e-10),
    st.floats(0.001, 0.999),
    st.floats(1 - 1e-12, 1 - 2**-53),
    st.sampled_from([0.0, 1.0, 0.5, 7e-202]),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1), _PROBS, st.integers(0, 4)), min_size=2, max_size=30
    )
)
def test_property_no_silent_wrong_numbers(rows):
    """On arbitrary forecasts (down to 1e-300, within 1e-16 of 1, exact 0/1,
    zero weights): either a ValueError, or calibration in the large solves its
    score equation and the joint fit solves its own or warns."""
    y = np.array([r[0] for r in rows], dtype=float)
    p = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows], dtype=float)
    if w.sum() == 0:
        return
    try:
        res, conv = _fit({"y": y, "p": p, "w": w})
    except ValueError as exc:
        assert "single class" in str(exc) or "strictly between" in str(exc)
        return
    keep = (p > 0) & (p < 1) & (w > 0)
    yk, wk, lg = y[keep], w[keep], special.logit(p[keep])
    a = res.calibration_in_the_large
    assert math.isfinite(a)
    r = yk - special.expit(a + lg)
    assert abs(np.sum(wk * r)) <= 1e-9 * np.sum(wk)
    if conv or not math.isfinite(res.slope):
        assert conv  # anything not finite comes with a warning
        return
    assert res.converged
    eta = res.intercept + res.slope * lg
    r = wk * (yk - special.expit(eta))
    scale = np.sum(wk) * (1.0 + np.max(np.abs(lg)))
    assert abs(np.sum(r)) <= 1e-8 * scale
    assert abs(np.sum(r * lg)) <= 1e-8 * scale * (1.0 + np.max(np.abs(lg)))
