"""Every val.prob number of the report against R, and the interval methods.

References (tests/fixtures/make_valprob_fixtures.R and make_report_fixtures.R):
``rms::val.prob`` (rms 6.5-0), ``Hmisc::somers2``, ``pROC`` (DeLong),
``sandwich::kernHAC`` / ``lrvar`` (HAC), ``stats::lowess``, and metamisc's
formula of the O/E interval.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import skbrier
from skbrier._core.kernels.lowess import r_lowess
from skbrier.metrics.calibration import c_statistic
from skbrier.report import calibration_report
from skbrier.report._text import summary_header, summary_rows
from skbrier.report._valprob import adaptive_n_resamples

FIX = Path(__file__).parent / "fixtures"
VP = json.loads((FIX / "valprob_fixtures.json").read_text())
REP = json.loads((FIX / "report_fixtures.json").read_text())
EXTRAS = {e["name"]: e for e in REP["valprob_extras"]}
CASES = {c["name"]: c for c in VP["cases"] + VP["constant_cases"]}
Z = stats.norm.ppf(0.975)


def _report(case, **kw):
    w = None if "w" not in case else np.asarray(case["w"], dtype=float)
    return calibration_report(
        np.asarray(case["y"]), np.asarray(case["p"]), sample_weight=w, **kw
    )


@pytest.fixture(scope="module", params=sorted(CASES))
def case_and_report(request):
    case = CASES[request.param]
    return case, _report(case)


def test_every_val_prob_number(case_and_report):
    case, rep = case_and_report
    if case["name"].startswith("constant"):
        pytest.skip("val.prob's constant branch: tests/test_report_reference.py")
    v = case["valprob"]
    lg = rep.logistic
    assert rep.brier_score == pytest.approx(v["Brier"], rel=1e-10)
    assert rep.calibration_intercept == pytest.approx(v["Intercept"], rel=1e-6, abs=1e-8)
    assert rep.calibration_slope == pytest.approx(v["Slope"], rel=1e-6)
    assert rep.spiegelhalter_z == pytest.approx(v["S:z"], rel=1e-9)
    assert rep.spiegelhalter_p == pytest.approx(v["S:p"], rel=1e-6, abs=1e-14)
    assert lg.lr_chi2 == pytest.approx(v["D:Chi-sq"], rel=1e-6)
    assert lg.discrimination_index == pytest.approx(v["D"], rel=1e-6, abs=1e-9)
    assert lg.unreliability_chi2 == pytest.approx(v["U:Chi-sq"], rel=1e-6, abs=1e-8)
    assert lg.unreliability_index == pytest.approx(v["U"], rel=1e-5, abs=1e-9)
    assert lg.unreliability_pvalue == pytest.approx(v["U:p"], rel=1e-5, abs=1e-12)
    assert lg.quality_index == pytest.approx(v["Q"], rel=1e-5, abs=1e-9)
    assert lg.r2 == pytest.approx(v["R2"], rel=1e-6)
    if "w" not in case:
        assert rep.emax == pytest.approx(v["Emax"], rel=1e-9)
        assert rep.e90 == pytest.approx(v["E90"], rel=1e-9)
        assert rep.eavg == pytest.approx(v["Eavg"], rel=1e-9)
    # C and Dxy: exact (Hmisc::somers2); val.prob's come from lrm.fit, which
    # bins the forecasts before ranking (documented difference)
    exact_c = EXTRAS[case["name"]]["auc"] if "w" in case else case["somers2_C"]
    assert rep.c_statistic == pytest.approx(exact_c, rel=1e-12)
    assert rep.dxy == pytest.approx(2 * exact_c - 1, rel=1e-12)
    c = rep.c_statistic
    if lg.n_excluded:  # val.prob ranks only the forecasts strictly in (0, 1)
        pp, yy = np.asarray(case["p"]), np.asarray(case["y"])
        keep = (pp > 0) & (pp < 1)
        c = c_statistic(yy[keep], pp[keep])
    # lrm.fit's binning merges forecasts within about 1e-3 of each other
    tol = 5e-3 if lg.n_excluded else 1e-3
    assert c == pytest.approx(v["C (ROC)"], abs=tol)
    assert 2 * c - 1 == pytest.approx(v["Dxy"], abs=2 * tol)


def test_extras_against_r(case_and_report):
    case, rep = case_and_report
    ex = EXTRAS[case["name"]]
    # D:p = 1 - pchisq(D:Chi-sq, 1)
    assert rep.discrimination_pvalue == pytest.approx(ex["d_p"], rel=1e-6, abs=1e-15)
    # O/E and its log-scale interval (metamisc::oecalc's variance)
    assert rep.observed_expected == pytest.approx(ex["oe"], rel=1e-12)
    ci = rep.confidence_interval(metric="observed_expected")
    assert tuple(ci) == pytest.approx(ex["oe_ci"], rel=1e-10)
    assert rep.interval_methods["observed_expected"] == "iid log Wald"
    if "delong_var" in ex:
        assert rep.c_statistic == pytest.approx(ex["auc"], rel=1e-12)
        ci = rep.confidence_interval(metric="c_statistic")
        assert tuple(ci) == pytest.approx(ex["delong_ci"], rel=1e-10)
        assert rep.interval_methods["c_statistic"] == "DeLong (iid)"


def test_hac_sandwich_of_the_logistic_fits(case_and_report):
    case, _ = case_and_report
    ex = EXTRAS[case["name"]]
    rep = _report(case, cov_type="hac")
    lo, hi = rep.confidence_interval(metric="calibration_in_the_large")
    assert (hi - lo) / (2 * Z) == pytest.approx(ex["hac_citl_se"], rel=1e-6)
    assert rep.interval_methods["calibration_in_the_large"] == "HAC sandwich"
    if "hac_se" in ex:
        for metric, se in zip(("calibration_intercept", "calibration_slope"), ex["hac_se"]):
            lo, hi = rep.confidence_interval(metric=metric)
            assert (hi - lo) / (2 * Z) == pytest.approx(se, rel=1e-6), metric
            assert rep.interval_methods[metric] == "HAC sandwich"
    lo, hi = rep.confidence_interval(metric="observed_expected")
    assert math.log(hi / lo) / (2 * Z) == pytest.approx(ex["oe_hac_se_log"], rel=1e-8)
    assert rep.interval_methods["observed_expected"] == "HAC log Wald"


def _lowess_data(c):
    i = np.arange(1, c["n"] + 1, dtype=np.int64)
    x = (((i * 7919) % c["modulus"]) + 0.5) / c["modulus"]
    u = (((i * 104729) % 997) + 0.5) / 997
    return x, (u < 0.8 * x + 0.05).astype(float)


@pytest.mark.parametrize("c", REP["lowess_cases"], ids=lambda c: c["name"])
def test_lowess_against_r(c):
    x, y = _lowess_data(c)
    xs, fit = r_lowess(x, y)
    at = np.asarray(c["at"])
    np.testing.assert_allclose(xs[at], c["x_at"], rtol=1e-14)  # JSON: 15 digits
    np.testing.assert_allclose(fit[at], c["fit_at"], rtol=1e-11, atol=1e-14)
    rep = calibration_report(y, x)
    v = c["valprob"]
    for key, name in (("emax", "Emax"), ("e90", "E90"), ("eavg", "Eavg")):
        assert getattr(rep, key) == pytest.approx(v[name], rel=1e-10), key
    assert rep.calibration_slope == pytest.approx(v["Slope"], rel=1e-6)


# The line-by-line port of clowess that skbrier used before the block-moment
# version (tested against R then); the reference of the fast path.


def _ref_lowest(
    x: np.ndarray, y: np.ndarray, xs: float, nleft: int, nright: int, rng: float
) -> tuple[float, bool]:
    """One local linear fit of R's ``clowess`` (``lowest`` in lowess.c), 0-based
    indices, no robustness weights."""
    n = x.shape[0]
    h = max(xs - x[nleft], x[nright] - xs)
    h9 = 0.999 * h
    h1 = 0.001 * h
    # the C loop stops at the first point to the right farther than h9;
    # x - xs is non-decreasing, so look just past searchsorted first
    end = min(n, int(np.searchsorted(x, xs + h9, side="right")) + 3)
    d = x[nleft:end] - xs
    stop = np.flatnonzero(d > h9)
    if not stop.size and end < n:
        d = x[nleft:] - xs
        stop = np.flatnonzero(d > h9)
    nrt = nleft + (stop[0] if stop.size else d.shape[0]) - 1
    d = d[: nrt - nleft + 1]
    r = np.abs(d)
    # tricube weights, fcube(x) = x * x * x as in lowess.c
    with np.errstate(divide="ignore", invalid="ignore"):  # h = 0: all weights 1
        q = r / h
    q *= q * q
    np.subtract(1.0, q, out=q)
    wts = q * q * q
    wts[r <= h1] = 1.0
    wts[r > h9] = 0.0
    a = wts.sum()
    if a <= 0.0:
        return 0.0, False
    wts = wts / a
    xx = x[nleft : nrt + 1]
    if h > 0.0:
        a = np.sum(wts * xx)
        b = xs - a
        c = np.sum(wts * (xx - a) * (xx - a))
        if np.sqrt(c) > 0.001 * rng:
            b /= c
            wts = wts * (b * (xx - a) + 1.0)
    return float(np.sum(wts * y[nleft : nrt + 1])), True


def _direct_lowess(
    x: np.ndarray, y: np.ndarray, f: float = 2.0 / 3.0, delta: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Port of R's ``stats::lowess(x, y, f, iter = 0)`` (Cleveland's clowess).

    Returns the sorted ``x`` (stable order, as R's ``order``) and the fitted
    values.  Only ``iter = 0`` (no robustness iterations) is ported: it is what
    ``rms::val.prob`` uses.
    """
    o = np.argsort(x, kind="stable")
    xs_all = np.ascontiguousarray(x[o], dtype=np.float64)
    ys_all = np.ascontiguousarray(y[o], dtype=np.float64)
    n = xs_all.shape[0]
    if delta is None:
        delta = 0.01 * (xs_all[-1] - xs_all[0])
    fit = np.empty(n)
    if n < 2:
        fit[:] = ys_all
        return xs_all, fit
    rng = xs_all[-1] - xs_all[0]
    ns = max(2, min(n, int(f * n + 1e-7)))
    # 0-based translation of the C code (which is 1-based)
    nleft = 0
    nright = ns - 1
    last = -1
    i = 0
    while True:
        if nright < n - 1:
            # the C code moves the window right one point at a time while
            # x[i] - x[nleft] > x[nright + 1] - x[i]; that condition is
            # monotone in nleft, so bisect for the same stopping point
            xi = xs_all[i]
            lo, hi = nleft, n - ns
            while lo < hi:
                mid = (lo + hi) // 2
                if xi - xs_all[mid] > xs_all[mid + ns] - xi:
                    lo = mid + 1
                else:
                    hi = mid
            nleft = lo
            nright = lo + ns - 1
        val, ok = _ref_lowest(xs_all, ys_all, xs_all[i], nleft, nright, rng)
        fit[i] = val if ok else ys_all[i]
        if last < i - 1:
            denom = xs_all[i] - xs_all[last]
            j = np.arange(last + 1, i)
            alpha = (xs_all[j] - xs_all[last]) / denom
            fit[j] = alpha * fit[i] + (1.0 - alpha) * fit[last]
        last = i
        # points within delta of the last fit are skipped (interpolated
        # later); ties of the last point get its value
        cut = xs_all[last] + delta
        i_break = max(int(np.searchsorted(xs_all, cut, side="right")), last + 1)
        tie_end = int(np.searchsorted(xs_all, xs_all[last], side="right")) - 1
        if tie_end > last:
            fit[last + 1 : tie_end + 1] = fit[last]
            last = tie_end
        i = max(last + 1, i_break - 1)
        if last >= n - 1:
            break
    return xs_all, fit


@pytest.mark.parametrize("kind", ["uniform", "skewed", "clustered_ties"])
def test_fast_lowess_equals_the_direct_c_loop(kind):
    rng = np.random.default_rng(7)
    n = 30_000  # above the size where block moments are used
    if kind == "uniform":
        x = rng.random(n)
    elif kind == "skewed":
        x = rng.random(n) ** 6
    else:
        x = np.where(rng.random(n) < 0.5, 0.3, np.round(rng.random(n), 3))
    y = (rng.random(n) < x).astype(float)
    xs, fit = r_lowess(x, y)
    xr, ref = _direct_lowess(x, y)
    np.testing.assert_array_equal(xs, xr)
    np.testing.assert_allclose(fit, ref, rtol=1e-11, atol=1e-13 * np.abs(ref).max())


def test_lowess_curve_is_the_curve_of_emax_e90_eavg():
    case = CASES["calibrated"]
    rep = _report(case)
    p = np.asarray(case["p"])
    curve = rep.lowess_curve
    assert 2 <= len(curve["x"]) <= 512
    e = np.abs(p - np.interp(p, curve["x"], curve["y"]))
    assert float(e.mean()) == pytest.approx(rep.eavg, rel=1e-12)
    assert float(e.max()) == pytest.approx(rep.emax, rel=1e-12)
    assert rep.to_dict()["lowess_curve"]["x"] == list(curve["x"])


def test_summary_columns():
    rep = _report(CASES["calibrated"], cov_type="hac")
    head = summary_header(rep)
    rows = summary_rows(rep)
    assert head[2] == "95% CI" and len(head) == 5
    for row in rows:
        assert len(row) == len(head)
        # the interval column holds intervals only, each with its method
        assert row[2] == "" or re.fullmatch(r"\[-?[\d.]+, -?[\d.]+\]", row[2]), row
        assert bool(row[2]) == bool(row[3]), row
    labels = [r[0].strip() for r in rows]
    for label in (
        "E90, lowess (0)",
        "Eavg, lowess (ICI) (0)",
        "Nagelkerke R2",
        "Somers' Dxy",
    ):
        assert label in labels
    assert any("log-odds" in lab for lab in labels)
    d = rep.to_dict()
    assert d["calibration_slope"]["ci_method"] == "HAC sandwich"
    assert d["brier_score"]["ci_method"] == "HAC Wald (delta method)"
    assert d["c_statistic"]["ci_method"] == "DeLong (iid)"


def test_bootstrap_is_reproducible_and_labelled():
    case = CASES["calibrated"]
    kw = {"cov_type": "bootstrap", "random_state": 3, "n_resamples": 60}
    a = _report(case, **kw)
    b = _report(case, n_jobs=2, **kw)
    assert a.n_resamples == 60
    for m, label in a.interval_methods.items():
        assert a.confidence_interval(metric=m) == b.confidence_interval(metric=m), m
        if m != "c_statistic":
            assert label.startswith("bootstrap"), (m, label)
    assert "Bootstrap: 60 resamples." in a.summary()
    # the bootstrap intervals cover the estimates here
    for m in ("calibration_in_the_large", "calibration_slope", "observed_expected"):
        lo, hi = a.confidence_interval(metric=m)
        assert lo < getattr(a, m) < hi
    lo90 = a.confidence_interval(0.8, metric="calibration_slope")
    assert lo90.low > a.confidence_interval(metric="calibration_slope").low


def test_adaptive_n_resamples():
    assert adaptive_n_resamples(1_000) == 9999
    assert adaptive_n_resamples(100_000) == 2000
    assert adaptive_n_resamples(2_000_000) == 200
    case = CASES["small_ties"]
    rep = _report(case, cov_type="bootstrap", random_state=0)
    assert rep.n_resamples == 9999


def test_n_resamples_given_twice_is_an_error():
    case = CASES["small_ties"]
    with pytest.raises(ValueError, match="n_resamples"):
        _report(
            case,
            cov_type="bootstrap",
            n_resamples=50,
            inference_kwds={"n_resamples": 50},
        )
    with pytest.raises(ValueError, match="n_resamples"):
        _report(case, n_resamples=1)
    with pytest.raises(TypeError, match="n_jobs"):
        _report(case, n_jobs=1.5)


@pytest.mark.parametrize("scale", [5e-324, 1e-320, 1e300])
def test_report_mean_forecast_and_c_of_odd_weight_scales(scale):
    # weights of 5e-324 rounded every product: mean forecast 0.4598 vs
    # 0.4571 and C 0.75 vs 0.7594 (the halves of tied pairs were lost)
    rng = np.random.default_rng(3)
    p = np.round(rng.uniform(size=30), 1)
    y = (rng.uniform(size=30) < p).astype(int)
    w = rng.integers(1, 5, 30).astype(float)
    ref = skbrier.calibration_report(y, p, sample_weight=w)
    got = skbrier.calibration_report(y, p, sample_weight=w * scale)
    assert got.mean_forecast == pytest.approx(ref.mean_forecast, rel=1e-12)
    assert got.c_statistic == pytest.approx(ref.c_statistic, rel=1e-12)
