"""Calibration per group: against R (glm, metafor, p.adjust) and the package's own homes.

The R numbers come from ``tests/fixtures/subgroups_fixtures.json``, made by
``tests/fixtures/make_subgroups_fixtures.R``.
"""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

import skbrier
from skbrier.metrics import (
    calibration_by_group,
    cumulative_calibration,
    flexible_calibration_curve,
)
from skbrier.stats import clustered_validation, random_effects_meta

R = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "subgroups_fixtures.json").read_text()
)


@pytest.fixture(scope="module")
def r_result():
    d = R["data"]
    return calibration_by_group(d["y"], d["p"], groups=d["g"])


def test_equals_r(r_result):
    res = r_result
    assert list(res.groups) == R["groups"]
    for i, ref in enumerate(R["per_group"]):
        assert res.n[i] == ref["n"] and res.events[i] == ref["events"]
        est, var = res.estimates, res.variances
        assert est["observed_expected"][i] == pytest.approx(ref["oe"], rel=1e-12)
        assert est["calibration_slope"][i] == pytest.approx(ref["slope"], rel=1e-10)
        assert math.sqrt(var["calibration_slope"][i]) == pytest.approx(
            ref["slope_se"], rel=1e-9
        )
        assert est["calibration_in_the_large"][i] == pytest.approx(ref["citl"], rel=1e-10)
        assert math.sqrt(var["calibration_in_the_large"][i]) == pytest.approx(
            ref["citl_se"], rel=1e-9
        )
        lo, hi = res.confidence_interval(metric="observed_expected")
        assert (lo[i], hi[i]) == pytest.approx((ref["oe_low"], ref["oe_high"]), rel=1e-12)
        assert res.pvalues["observed_expected"][i] == pytest.approx(ref["p_oe"], rel=1e-9)
        assert res.pvalues["calibration_slope"][i] == pytest.approx(
            ref["p_slope"], rel=1e-5
        )
        slo, shi = res.confidence_interval(0.9, metric="calibration_slope")
        half = 1.6448536269514722 * ref["slope_se"]
        assert (slo[i], shi[i]) == pytest.approx(
            (ref["slope"] - half, ref["slope"] + half), rel=1e-9
        )
    np.testing.assert_allclose(
        res.pvalues_holm["observed_expected"], R["holm_oe"], rtol=1e-9
    )
    np.testing.assert_allclose(
        res.pvalues_holm["calibration_slope"], R["holm_slope"], rtol=1e-8
    )
    assert res.heterogeneity.q == pytest.approx(R["QE"], rel=1e-10)
    assert res.heterogeneity.q_pvalue == pytest.approx(R["QEp"], rel=1e-8)
    assert res.worst_group == "C"


def test_reuses_the_package_homes(r_result):
    d = R["data"]
    y, p, g = np.asarray(d["y"]), np.asarray(d["p"]), np.asarray(d["g"])
    res = r_result
    clustered = clustered_validation(y, p, groups=g)
    for name, per in clustered.per_cluster.items():
        np.testing.assert_allclose(res.estimates[name], per, rtol=1e-12)
        np.testing.assert_allclose(
            res.variances[name], clustered.per_cluster_variance[name], rtol=1e-12
        )
    # Cochran's Q of log O/E: the Q of the meta-analysis, by hand too
    oe, v = res.estimates["observed_expected"], res.variances["observed_expected"]
    meta = random_effects_meta(oe, v, transform="log")
    assert res.heterogeneity.q == meta.q
    lv = v / oe**2
    mean = np.sum(np.log(oe) / lv) / np.sum(1 / lv)
    assert res.heterogeneity.q == pytest.approx(
        np.sum((np.log(oe) - mean) ** 2 / lv), rel=1e-12
    )
    cum = cumulative_calibration(y, p, groups=g)
    np.testing.assert_array_equal(res.pvalues["cumulative"], cum.by_group["kuiper_pvalue"])
    for i, label in enumerate(res.groups):
        m = g == label
        assert res.estimates["ici"][i] == pytest.approx(
            skbrier.lowess_calibration_error(y[m], p[m]).eavg, rel=1e-12
        )
        assert res.estimates["gap"][i] == pytest.approx(
            y[m].mean() - p[m].mean(), rel=1e-12
        )


def test_holm_equals_statsmodels(r_result):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    for test, pv in r_result.pvalues.items():
        expected = multitest.multipletests(pv, method="holm")[1]
        np.testing.assert_allclose(r_result.pvalues_holm[test], expected, rtol=1e-12)


def test_integer_weights_equal_repeated_rows():
    rng = np.random.default_rng(1)
    n = 600
    g = rng.choice(["a", "b", "c"], n)
    p = np.round(rng.uniform(0.05, 0.9, n), 3)
    y = (rng.uniform(size=n) < p).astype(int)
    w = rng.integers(0, 4, n).astype(float)
    rep = np.repeat(np.arange(n), w.astype(int))
    a = calibration_by_group(y, p, groups=g, sample_weight=w)
    b = calibration_by_group(y[rep], p[rep], groups=g[rep])
    np.testing.assert_allclose(a.weight, b.n)
    np.testing.assert_allclose(a.events, b.events)
    for name in a.variances:
        np.testing.assert_allclose(a.estimates[name], b.estimates[name], rtol=1e-7)
        np.testing.assert_allclose(a.variances[name], b.variances[name], rtol=1e-6)
    for test in a.pvalues:
        np.testing.assert_allclose(a.pvalues[test], b.pvalues[test], rtol=1e-5)
    # the lowess curve of frequency weights is that of the repeated rows
    assert np.isfinite(a.estimates["ici"]).all()
    np.testing.assert_allclose(a.estimates["ici"], b.estimates["ici"], rtol=1e-10)
    assert a.heterogeneity.q == pytest.approx(b.heterogeneity.q, rel=1e-6)


def test_ici_of_integer_weights_is_that_of_flexible_lowess_curve():
    # one weighted lowess: flexible_calibration_curve(smoother="lowess")'s ICI
    rng = np.random.default_rng(3)
    n = 400
    p = np.round(rng.uniform(0.05, 0.9, n), 3)
    y = (rng.uniform(size=n) < p).astype(int)
    w = rng.integers(0, 4, n).astype(float)
    res = calibration_by_group(y, p, groups=np.zeros(n), sample_weight=w)
    curve = flexible_calibration_curve(
        y, p, smoother="lowess", transform=None, band=None, sample_weight=w
    )
    assert res.estimates["ici"][0] == pytest.approx(curve.ici, rel=1e-12)


def test_ici_of_non_integer_weights_is_nan():
    # lowess has no weights: frequency weights repeat rows, others give no ICI
    rng = np.random.default_rng(4)
    n = 400
    p = rng.uniform(0.05, 0.9, n)
    y = (rng.uniform(size=n) < p).astype(int)
    res = calibration_by_group(
        y, p, groups=np.arange(n) % 2, sample_weight=rng.uniform(0.5, 2.0, n)
    )
    assert np.isnan(res.estimates["ici"]).all()
    assert np.isfinite(res.estimates["calibration_slope"]).all()


def test_single_class_group_is_left_out_of_the_fits():
    rng = np.random.default_rng(2)
    p = rng.uniform(0.05, 0.9, 500)
    y = (rng.uniform(size=500) < p).astype(int)
    g = np.where(np.arange(500) < 450, np.arange(500) % 3, 9)
    y[g == 9] = 0
    res = calibration_by_group(y, p, groups=g)
    assert np.isnan(res.estimates["calibration_slope"][-1])
    assert np.isnan(res.pvalues["observed_expected"][-1])
    assert np.isnan(res.pvalues_holm["calibration_slope"][-1])
    assert res.heterogeneity.k == 3
    assert res.worst_group == 9 and res.worst_group_gap == pytest.approx(-p[g == 9].mean())
    assert np.isfinite(res.pvalues["cumulative"][-1])  # the cumulative test still runs


def test_frame_summary_and_errors(r_result):
    pytest.importorskip("pandas")
    frame = r_result.to_frame()
    assert list(frame["group"]) == R["groups"]
    assert {"observed_expected_low", "pvalue_holm_cumulative", "ici"} <= set(frame.columns)
    assert "heterogeneity_q" in r_result.summary()
    d = R["data"]
    with pytest.raises(ValueError, match="groups"):
        calibration_by_group(d["y"], d["p"], groups=d["g"][:10])
    with pytest.raises(TypeError):
        calibration_by_group(d["y"], d["p"])  # groups is required
    with pytest.raises(ValueError, match="metric"):
        r_result.confidence_interval(metric="ici")
    with pytest.raises(ValueError, match="confidence_level"):
        calibration_by_group(d["y"], d["p"], groups=d["g"], confidence_level=95)
