"""Random-effects meta-analysis equal to R metafor (fixture made by
tests/fixtures/make_meta_fixtures.R) and validation measures per centre."""

from __future__ import annotations

import json
import pathlib
import warnings

import numpy as np
import pytest

from skbrier import c_statistic, calibration_intercept_slope
from skbrier.stats import clustered_validation, random_effects_meta

METAFOR = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "meta_metafor_reference.json").read_text()
)
_back = {"identity": lambda x: x, "logit": lambda x: 1 / (1 + np.exp(-x)), "log": np.exp}


@pytest.mark.parametrize("case", range(len(METAFOR["cases"])))
def test_equals_metafor(case):
    c = METAFOR["cases"][case]
    r = random_effects_meta(
        c["estimates"], c["variances"], tau2_method=c["method"], transform=c["transform"],
        test=c["test"],
    )  # fmt: skip
    # metafor iterates to threshold 1e-12 on tau^2; we solve the equation exactly
    tol = {"rel": 1e-7, "abs": 1e-10}
    assert r.pooled_scale == pytest.approx(c["beta"], **tol)
    assert r.standard_error == pytest.approx(c["se"], **tol)
    assert r.tau2 == pytest.approx(c["tau2"], **tol)
    assert r.i2 == pytest.approx(c["I2"], **tol)
    assert r.h2 == pytest.approx(c["H2"], **tol)
    assert r.q == pytest.approx(c["QE"], rel=1e-12)
    assert r.q_pvalue == pytest.approx(c["QEp"], rel=1e-10)
    back = _back[c["transform"]]
    assert r.confidence_interval() == pytest.approx(tuple(back(np.array(c["ci"]))), **tol)
    assert r.prediction_interval() == pytest.approx(tuple(back(np.array(c["pi"]))), **tol)
    assert r.prediction_interval(distribution="t") == pytest.approx(
        tuple(back(np.array(c["pi_t"]))), **tol
    )


def test_dl_is_closed_form_and_homogeneous_studies_have_no_tau():
    r = random_effects_meta([0.5, 0.5, 0.5], [0.01, 0.02, 0.03], tau2_method="DL")
    assert r.tau2 == 0.0 and r.i2 == 0.0 and r.estimate == pytest.approx(0.5)
    r = random_effects_meta([0.5, 0.52, 0.49], [0.01, 0.02, 0.03])
    assert r.tau2 == 0.0


@pytest.mark.parametrize(
    ("q", "v", "kw", "match"),
    [
        ([0.7], [0.01], {}, "at least 2"),
        ([0.7, 0.8], [0.01, 0.0], {}, "positive"),
        ([0.7, np.nan], [0.01, 0.01], {}, "finite"),
        ([0.7, 1.2], [0.01, 0.01], {"transform": "logit"}, "between 0 and 1"),
        ([0.7, 0.8], [0.01, 0.01], {"tau2_method": "SJ"}, "tau2_method"),
        ([0.7, 0.8], [0.01, 0.01], {"test": "t"}, "test"),
    ],
)
def test_bad_input(q, v, kw, match):
    with pytest.raises(ValueError, match=match):
        random_effects_meta(q, v, **kw)


@pytest.mark.parametrize("scale", [1e-150, 1e-20, 1e20, 1e150])
@pytest.mark.parametrize("method", ["REML", "ML", "DL"])
def test_scale_equivariance(scale, method):
    # audit: squared weights overflowed for tiny variances (tau2 silently 0);
    # metafor's own iteration (absolute threshold) drifts at these scales
    q, v = np.array([1.0, 2.0, 3.5, 1.7]), np.array([1.0, 2.0, 1.0, 0.5])
    ref = random_effects_meta(q, v, tau2_method=method, test="knha")
    r = random_effects_meta(q * scale, v * scale**2, tau2_method=method, test="knha")
    assert r.pooled_scale == pytest.approx(ref.pooled_scale * scale, rel=1e-12)
    assert r.standard_error == pytest.approx(ref.standard_error * scale, rel=1e-12)
    assert r.tau2 == pytest.approx(ref.tau2 * scale**2, rel=1e-12)
    assert (r.i2, r.q) == pytest.approx((ref.i2, ref.q), rel=1e-12)


def test_t_prediction_interval_needs_three_studies():
    r = random_effects_meta([0.7, 0.8], [0.01, 0.01])
    with pytest.raises(ValueError, match="at least 3"):
        r.prediction_interval(distribution="t")


def _centres(seed=0, k=5, n=200):
    rng = np.random.default_rng(seed)
    centre = np.repeat([f"c{i}" for i in range(k)], n)
    shift = np.repeat(rng.normal(0, 0.3, k), n)
    p = rng.uniform(0.05, 0.9, k * n)
    lp = np.log(p / (1 - p)) + shift
    y = (rng.uniform(size=k * n) < 1 / (1 + np.exp(-lp))).astype(int)
    return y, p, centre


def test_clustered_validation_meta_analyses_each_centres_measures():
    y, p, centre = _centres()
    res = clustered_validation(y, p, groups=centre)
    assert res.clusters.tolist() == [f"c{i}" for i in range(5)]
    for j, c in enumerate(res.clusters):
        rows = centre == c
        assert res.per_cluster["c_statistic"][j] == pytest.approx(
            c_statistic(y[rows], p[rows]), rel=1e-12
        )
        fit = calibration_intercept_slope(y[rows], p[rows])
        assert res.per_cluster["calibration_slope"][j] == pytest.approx(
            fit.slope, rel=1e-12
        )
        assert res.per_cluster_variance["calibration_slope"][j] == pytest.approx(
            fit.slope_stderr**2, rel=1e-12
        )
    ref = random_effects_meta(
        res.per_cluster["observed_expected"],
        res.per_cluster_variance["observed_expected"],
        transform="log",
    )
    assert res.pooled["observed_expected"].estimate == pytest.approx(
        ref.estimate, rel=1e-12
    )
    assert res.pooled["c_statistic"].transform == "logit"
    frame = res.to_frame()
    assert frame["cluster"].tolist()[-1] == "pooled" and len(frame) == 6


def test_single_class_centre_is_left_out_of_c_and_slope():
    y, p, centre = _centres(1, k=4, n=150)
    y = y.copy()
    y[centre == "c3"] = 0
    res = clustered_validation(y, p, groups=centre)
    assert np.isnan(res.per_cluster["c_statistic"][3])
    assert res.pooled["c_statistic"].k == 3


def test_groups_errors_and_weights():
    y, p, centre = _centres(2, k=3, n=100)
    with pytest.raises(ValueError, match="one per sample"):
        clustered_validation(y, p, groups=centre[:-1])
    g = centre.astype(object)
    g[5] = None
    with pytest.raises(ValueError, match="missing"):
        clustered_validation(y, p, groups=g)
    with pytest.raises(ValueError, match="single centre"):
        clustered_validation(y, p, groups=np.zeros(300))
    w = np.random.default_rng(0).integers(1, 4, 300)
    rep = np.repeat(np.arange(300), w)
    a = clustered_validation(y, p, groups=centre, sample_weight=w)
    b = clustered_validation(y[rep], p[rep], groups=centre[rep])
    for name in a.pooled:
        assert a.pooled[name].estimate == pytest.approx(b.pooled[name].estimate, rel=1e-9)


def test_huge_frequency_weights_and_too_few_centres_for_a_measure():
    # audit: weights x1e200 made the within-centre variances ~1e-200 and the
    # pooling overflowed (numpy warnings, tau2 of 0); a single usable centre
    # said "pooling needs at least 2 studies" without naming the measure
    y, p, centre = _centres(3, k=4, n=120)
    w = np.random.default_rng(1).integers(1, 4, y.shape[0]) * 1e200
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = clustered_validation(y, p, groups=centre, sample_weight=w)
    for meta in res.pooled.values():
        assert meta.k == 4
        assert np.isfinite([meta.estimate, meta.standard_error, meta.tau2]).all()
    # the variances are 1e-200 those of the unit weights: tau2 dominates
    unit = clustered_validation(y, p, groups=centre, sample_weight=w / 1e200)
    assert res.pooled["brier_score"].tau2 == pytest.approx(
        random_effects_meta(
            unit.per_cluster["brier_score"],
            unit.per_cluster_variance["brier_score"] / 1e200,
        ).tau2,
        rel=1e-9,
    )
    y1 = np.where(centre == "c0", y, 0)
    with pytest.raises(ValueError, match="groups: 1 of 4 centres give a c_statistic"):
        clustered_validation(y1, p, groups=centre)


def test_a_separated_centre_is_left_out_with_a_warning_naming_it():
    """Centre 0's forecasts separate its outcomes (C = 1 with variance 0, an
    infinite slope): its C and slope are left out of their pooled estimates
    with one warning naming the centre (was silent); the other measures
    keep it."""
    rng = np.random.default_rng(5)
    n = 60
    g = np.arange(n) % 3
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    y[g == 0] = (p[g == 0] > 0.5).astype(int)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = clustered_validation(y, p, groups=g)
    left = [str(w.message) for w in caught if "left out of those pooled" in str(w.message)]
    assert len(left) == 1, left
    assert left[0].startswith("groups: the forecasts of the centres [0] separate")
    assert "c_statistic, calibration_intercept, calibration_slope are left" in left[0]
    others = [res.per_cluster["c_statistic"][j] for j in (1, 2)]
    variances = [res.per_cluster_variance["c_statistic"][j] for j in (1, 2)]
    assert res.pooled["c_statistic"].estimate == pytest.approx(
        random_effects_meta(others, variances, transform="logit").estimate
    )


def test_repr_shows_the_pooled_estimates():
    """The repr was ``ClusteredValidationResult()``: no field is a scalar."""
    rng = np.random.default_rng(5)
    p = rng.uniform(0.05, 0.95, 90)
    y = (rng.uniform(size=90) < p).astype(int)
    res = clustered_validation(y, p, groups=np.arange(90) % 3)
    text = repr(res)
    assert text.startswith("ClusteredValidationResult(c_statistic=")
    for name in res.pooled:
        assert f"{name}=" in text


def test_estimates_too_wide_for_float64_are_refused_not_overflowed():
    """Estimates spread over 1e160 standard errors: the between-study
    variance would overflow (numpy's RuntimeWarning and inf before); now
    one ValueError naming ``estimates`` and what to do.  1e140 still pools."""
    import warnings

    from skbrier.stats import random_effects_meta

    est = np.array([0.1, 0.2, 0.15, 0.3])
    var = np.array([0.01, 0.02, 0.015, 0.01])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = random_effects_meta(est * 1e140, var)
        assert np.isfinite(res.estimate) and np.isfinite(res.tau2)
        for scale in (1e160, -1e300):
            with pytest.raises(ValueError, match=r"^estimates range over .*Rescale"):
                random_effects_meta(est * scale, var)
