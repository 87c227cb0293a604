"""Rubin's rules (equal to R mice::pool.scalar, fixture made by
tests/fixtures/make_rubin_fixtures.R) and validation measures pooled over
imputed data sets."""

from __future__ import annotations

import json
import math
import pathlib
import warnings

import numpy as np
import pytest

from skbrier import c_statistic, calibration_intercept_slope
from skbrier.stats import brier_inference, pool_rubin, pooled_validation

MICE = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "rubin_mice_reference.json").read_text()
)


@pytest.mark.parametrize("case", range(len(MICE["cases"])))
def test_equals_mice_pool_scalar(case):
    c = MICE["cases"][case]
    res = pool_rubin(
        c["estimates"], c["variances"], transform=c["transform"], dfcom=c["dfcom"]
    )
    assert res.pooled_scale == pytest.approx(c["qbar"], rel=1e-12, abs=1e-15)
    assert res.within_variance == pytest.approx(c["ubar"], rel=1e-12)
    assert res.between_variance == pytest.approx(c["b"], rel=1e-10, abs=1e-18)
    assert res.total_variance == pytest.approx(c["t"], rel=1e-12)
    assert res.df == pytest.approx(c["df"], rel=1e-10)
    assert res.relative_increase == pytest.approx(c["r"], rel=1e-10, abs=1e-15)
    assert res.fraction_missing_information == pytest.approx(c["fmi"], rel=1e-10)
    assert res.estimate == pytest.approx(c["estimate"], rel=1e-12)
    assert res.confidence_interval() == pytest.approx(tuple(c["ci95"]), rel=1e-10)
    assert res.confidence_interval(0.9) == pytest.approx(tuple(c["ci90"]), rel=1e-10)


def test_order_of_imputations_does_not_matter():
    q, u = [0.7, 0.75, 0.72, 0.69], [0.001, 0.0012, 0.0011, 0.001]
    a = pool_rubin(q, u, transform="logit")
    b = pool_rubin(q[::-1], u[::-1], transform="logit")
    assert a.estimate == pytest.approx(b.estimate, rel=1e-14)
    assert a.df == pytest.approx(b.df, rel=1e-12)


@pytest.mark.parametrize(
    ("q", "u", "kw", "match"),
    [
        ([0.7], [0.01], {}, "at least 2"),
        ([0.7, 0.8], [0.01], {}, "variances has 1"),
        ([0.7, np.nan], [0.01, 0.01], {}, "finite"),
        ([0.7, 0.8], [0.01, -0.01], {}, "non-negative"),
        ([0.7, 1.2], [0.01, 0.01], {"transform": "logit"}, "between 0 and 1"),
        ([0.7, -1.0], [0.01, 0.01], {"transform": "log"}, "positive"),
        ([0.7, 0.8], [0.01, 0.01], {"transform": "probit"}, "transform"),
        ([0.7, 0.8], [0.01, 0.01], {"dfcom": 0}, "dfcom"),
    ],
)
def test_bad_input(q, u, kw, match):
    with pytest.raises(ValueError, match=match):
        pool_rubin(q, u, **kw)


def _imputed(seed=0, n=300, m=4):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, [np.clip(p + rng.normal(0, 0.05, n), 0.01, 0.99) for _ in range(m)]


def test_pooled_validation_pools_the_measures_of_each_imputation():
    y, imputed = _imputed()
    res = pooled_validation(y, imputed)
    assert res.m == 4
    fits = [calibration_intercept_slope(y, p) for p in imputed]
    np.testing.assert_allclose(
        res.per_imputation["c_statistic"], [c_statistic(y, p) for p in imputed], rtol=1e-12
    )
    np.testing.assert_allclose(
        res.per_imputation["calibration_slope"], [f.slope for f in fits], rtol=1e-12
    )
    bs = [brier_inference(y, p) for p in imputed]
    np.testing.assert_allclose(
        res.per_imputation["brier_score"], [b.brier_score for b in bs], rtol=1e-12
    )
    ref = pool_rubin([f.slope for f in fits], [f.slope_stderr**2 for f in fits])
    assert res.pooled["calibration_slope"].estimate == pytest.approx(
        ref.estimate, rel=1e-12
    )
    assert res.confidence_interval(metric="calibration_slope") == pytest.approx(
        tuple(ref.confidence_interval()), rel=1e-12
    )
    oe = res.per_imputation["observed_expected"]
    np.testing.assert_allclose(oe, [y.sum() / p.sum() for p in imputed], rtol=1e-12)
    assert res.pooled["c_statistic"].transform == "logit"
    assert res.pooled["observed_expected"].transform == "log"
    frame = res.to_frame()
    assert list(frame["measure"]) == list(res.pooled)
    assert (frame["low"] < frame["estimate"]).all() and (
        frame["estimate"] < frame["high"]
    ).all()


def test_pooled_validation_weights_equal_repeated_rows():
    y, imputed = _imputed(1, n=120, m=3)
    w = np.random.default_rng(2).integers(1, 4, 120)
    rep = np.repeat(np.arange(120), w)
    a = pooled_validation(y, imputed, sample_weight=w)
    b = pooled_validation(y[rep], [p[rep] for p in imputed])
    for name in a.pooled:
        assert a.pooled[name].estimate == pytest.approx(b.pooled[name].estimate, rel=1e-9)
        assert a.pooled[name].total_variance == pytest.approx(
            b.pooled[name].total_variance, rel=1e-7
        )


def test_pooled_validation_with_imputed_outcomes_and_errors():
    y, imputed = _imputed(3, m=3)
    ys = [y, y, np.where(np.arange(y.size) < 5, 1 - y, y)]
    res = pooled_validation(ys, imputed)
    assert not math.isclose(
        res.per_imputation["c_statistic"][2], res.per_imputation["c_statistic"][0]
    )
    with pytest.raises(ValueError, match="at least 2"):
        pooled_validation(y, imputed[:1])
    with pytest.raises(TypeError, match="2-D array"):
        pooled_validation(y, np.array(imputed))
    with pytest.raises(ValueError, match="metric"):
        res.confidence_interval(metric="accuracy")


def test_interval_of_a_log_scale_with_few_df_reaches_infinity_without_a_numpy_warning():
    """Nearly all information missing (tiny within variances, dfcom=3): the
    Barnard-Rubin df is ~2e-5, t's quantile ~1e300 and the upper bound on the
    log scale exp(1e300): +inf (mice's df, the same), not numpy's overflow
    warning."""
    q = [1.0669, 1.1295, 1.1213, 1.1394, 1.1282]
    u = [1.09e-08, 9.05e-09, 1.03e-08, 1.90e-08, 1.07e-08]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = pool_rubin(q, u, transform="log", dfcom=3)
        low, high = res.confidence_interval()
    assert res.df < 1e-3
    assert low == 0.0 and high == np.inf


def test_an_imputed_set_whose_forecasts_separate_the_outcomes_is_named():
    """C = 1 (variance 0) and an infinite slope in one imputed data set: a
    ValueError naming the measure, the set and why (was: "transform='logit'
    needs estimates strictly between 0 and 1")."""
    rng = np.random.default_rng(5)
    p = rng.uniform(0.05, 0.95, 60)
    y = (p > 0.5).astype(int)
    other = np.clip(p + rng.normal(0, 0.2, 60), 0.01, 0.99)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the calibration fit's separation warning
        with pytest.raises(
            ValueError, match=r"c_statistic of imputed data set 0 .*separate"
        ):
            pooled_validation(y, [p, other])


def test_pooled_validation_repr_shows_the_pooled_estimates():
    rng = np.random.default_rng(5)
    p = rng.uniform(0.05, 0.95, 90)
    y = (rng.uniform(size=90) < p).astype(int)
    res = pooled_validation(y, [p, np.clip(p + 0.02, 0.01, 0.99)])
    assert repr(res).startswith("PooledValidationResult(m=2, c_statistic=")
