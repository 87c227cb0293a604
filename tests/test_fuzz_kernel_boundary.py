"""Boundary fuzzing of the private engine's kernels (second round).

Each test is the regression test of a fault found by fuzzing the kernels
(weights near the float limits, one class by weight, constant forecasts,
ties, float32 input) and fixed at its root in ``skbrier/_core``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import special

import skbrier
from skbrier import metrics


def _binary_data(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(float)
    return y, p


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


# --------------------------------------------------------------------------
# 1. the event rate rounding to 1 (non-events weighing 1e-17 beside 1): only
# the in-memory fits used the fit of the non-events; the Dask (rows) path and
# the report's bootstrap refit took log1p(-1), "math domain error"
# --------------------------------------------------------------------------
def _negligible_non_events():
    y, p = _binary_data()
    return y, p, np.where(y == 0, 1e-17, 1.0)


def _dask_negligible_non_events():
    """The data of :func:`_negligible_non_events` and as dask arrays."""
    da = pytest.importorskip("dask.array")
    y, p, w = _negligible_non_events()
    return (y, p, w), tuple(da.from_array(a, chunks=100) for a in (y, p, w))


def test_dask_logistic_fits_negligible_non_events_match_memory():
    (y, p, w), (dy, dp, dw) = _dask_negligible_non_events()
    ref = _quiet(metrics.calibration_intercept_slope, y, p, sample_weight=w)
    got = _quiet(metrics.calibration_intercept_slope, dy, dp, sample_weight=dw)
    assert np.isfinite(ref.intercept) and ref.intercept > 30.0
    for name in ("intercept", "slope", "calibration_in_the_large"):
        assert getattr(got, name) == pytest.approx(getattr(ref, name), rel=1e-9), name
    a = _quiet(metrics.calibration_in_the_large, y, p, sample_weight=w)
    ad = _quiet(metrics.calibration_in_the_large, dy, dp, sample_weight=dw)
    assert ad == pytest.approx(a, rel=1e-9)


def test_rows_fit_negligible_non_events_matches_arrays():
    # the solver on a distributed-like rows object (neither ArrayRows nor flipped)
    from skbrier._core.kernels.logistic import (
        ArrayRows,
        logistic_calibration,
        logistic_calibration_rows,
    )

    class Rows:
        def __init__(self, rows):
            self.rows = rows

        def reduce(self, fn, *args):
            return self.rows.reduce(fn, *args)

    y, p, w = _negligible_non_events()
    ref = logistic_calibration(y, p, w)
    rows = Rows(ArrayRows(y, special.logit(p), w))
    # without and with the hint of a nearby fit (Spark's rounded forecasts)
    for hint in (None, (ref.citl + 0.1, ref.intercept - 0.1, ref.slope * 1.05)):
        got = logistic_calibration_rows(rows, 1.0, hint=hint)
        assert got.intercept == pytest.approx(ref.intercept, rel=1e-9)
        assert got.citl == pytest.approx(ref.citl, rel=1e-9)
        assert got.slope == pytest.approx(ref.slope, rel=1e-8)


def test_bootstrap_refit_negligible_non_events():
    from skbrier._core.kernels.calibration import refit_calibration

    y, p, w = _negligible_non_events()
    ref = _quiet(metrics.calibration_intercept_slope, y, p, sample_weight=w)
    start = (ref.calibration_in_the_large, ref.intercept, ref.slope)
    a, b0, b1 = refit_calibration(y, special.logit(p), w, start)
    assert a == pytest.approx(ref.calibration_in_the_large, rel=1e-9)
    assert b0 == pytest.approx(ref.intercept, rel=1e-7)
    assert b1 == pytest.approx(ref.slope, rel=1e-7)


def test_report_block_bootstrap_negligible_non_events():
    y, p, w = _negligible_non_events()
    rep = _quiet(
        skbrier.calibration_report,
        y,
        p,
        sample_weight=w,
        cov_type="bootstrap",
        n_resamples=20,
        random_state=0,
        inference_kwds={"bootstrap": "moving_block", "block_length": 5},
    )
    text = str(rep)
    assert "Calibration intercept" in text and "moving_block bootstrap" in text


# --------------------------------------------------------------------------
# 2. interval_from_replicates with infinite replicates: numpy's quantile
# interpolates inf - inf (and inf * 0 at a finite replicate beside an
# infinite one) to NaN, so the bounds were NaN without a word
# --------------------------------------------------------------------------
_INF = np.inf


@pytest.mark.parametrize(
    ("reps", "low", "high"),
    [
        ([1.0, 2.0, _INF], 1.1, _INF),
        ([_INF] * 5, _INF, _INF),
        ([_INF, _INF, 1.0], _INF, _INF),
        ([-_INF, -_INF, 3.0, _INF, _INF], -_INF, _INF),
        ([-_INF, _INF], -_INF, _INF),
        ([-_INF, -_INF, -_INF, 0.0], -_INF, -_INF),
    ],
)
def test_interval_from_replicates_infinite_percentile(reps, low, high):
    from skbrier._core.resampling import interval_from_replicates

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = interval_from_replicates(np.array(reps), 0.9)
    assert ci.low == pytest.approx(low) and ci.high == pytest.approx(high)
    # the basic interval reflects them around a finite estimate
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b = interval_from_replicates(np.array(reps), 0.9, method="basic", estimate=2.0)
    assert b.low == pytest.approx(4.0 - high) and b.high == pytest.approx(4.0 - low)


def test_interval_from_replicates_infinite_along_an_axis():
    from skbrier._core.resampling import interval_from_replicates

    r = np.array([[1.0, _INF, 3.0], [_INF, _INF, 1.0]])
    ci = interval_from_replicates(r, 0.5, axis=1)
    assert not np.isnan(ci.low).any() and not np.isnan(ci.high).any()
    np.testing.assert_array_equal(ci.high, [_INF, _INF])
    ci0 = interval_from_replicates(r.T, 0.5, axis=0)
    np.testing.assert_array_equal(ci0.low, ci.low)


def test_interval_from_replicates_basic_infinite_estimate_warns():
    from skbrier._core.resampling import interval_from_replicates

    with pytest.warns(RuntimeWarning, match="inf - inf"):
        interval_from_replicates(
            np.array([1.0, _INF, _INF]), 0.9, method="basic", estimate=_INF
        )


# --------------------------------------------------------------------------
# 3. float32 weights far from 1: scikit-learn's float32 expression, repeated
# for float32 input, lost the digits of products of subnormal weights
# (1e-44: 1% off) and overflowed at 1e38 (then float64 with a warning)
# --------------------------------------------------------------------------
def _float32_data(n: int = 1000):
    rng = np.random.default_rng(3)
    p = rng.uniform(size=n).astype(np.float32)
    y = (rng.uniform(size=n) < p).astype(int)
    w = rng.uniform(0.5, 2.0, n).astype(np.float32)
    return y, p, w


@pytest.mark.parametrize("scale", [1e-44, 1e-40, 1e-30, 1.0, 1e30, 1e38])
def test_float32_weights_any_scale(scale):
    y, p, w = _float32_data()
    ws = w * np.float32(scale)
    # the weighted mean of the float32 losses, in float64, with the weights given
    ref = np.average((p.astype(np.float64) - y) ** 2, weights=ws.astype(np.float64))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = skbrier.brier_score(y, p, sample_weight=ws)
        murphy = skbrier.murphy_decomposition(y, p, sample_weight=ws)
    assert got == pytest.approx(ref, rel=1e-6)
    assert murphy.brier_score == pytest.approx(ref, rel=1e-6)


def test_float32_weights_power_of_two_scale_is_exact():
    y, p, w = _float32_data()
    base = skbrier.brier_score(y, p, sample_weight=w)
    for e in (-140, -120, -80, 80, 100):
        ws = np.ldexp(w, e).astype(np.float32)  # exact: normal or subnormal float32
        if np.all(ws > 0) and np.all(np.ldexp(ws, -e).astype(np.float32) == w):
            assert skbrier.brier_score(y, p, sample_weight=ws) == base


def test_torch_float32_weights_subnormal():
    torch = pytest.importorskip("torch")
    y, p, w = _float32_data()
    ws = w * np.float32(1e-44)
    ref = np.average((p.astype(np.float64) - y) ** 2, weights=ws.astype(np.float64))
    got = skbrier.brier_score(
        torch.tensor(y), torch.tensor(p), sample_weight=torch.tensor(ws)
    )
    assert got == pytest.approx(ref, rel=1e-6)


# --------------------------------------------------------------------------
# 4. bootstraps of one or two unweighted rows drew intervals of zero width
# where a total weight below 3 is refused (frequency_draws: one check)
# --------------------------------------------------------------------------
@pytest.mark.parametrize("func", [metrics.corp_decomposition, metrics.murphy_decomposition])
@pytest.mark.parametrize(
    ("y", "p", "w"),
    [([0, 1], [0.3, 0.6], None), ([1], [0.3], None), ([0, 1], [0.3, 0.6], [1.0, 1.0])],
)
def test_decomposition_bootstrap_needs_three_observations(func, y, p, w):
    with pytest.raises(ValueError, match="at least 3 observations"):
        _quiet(func, y, p, sample_weight=w, n_resamples=20, random_state=0)
    _quiet(func, y, p, sample_weight=w)  # the point estimates stay


def test_dask_report_negligible_non_events_matches_memory():
    # the merged report refused them as one class (the rounded rate wy / W was 1)
    (y, p, w), (dy, dp, dw) = _dask_negligible_non_events()
    ref = _quiet(skbrier.calibration_report, y, p, sample_weight=w)
    got = _quiet(skbrier.calibration_report, dy, dp, sample_weight=dw)

    def lines(rep):
        # the names and estimates of calibration in the large, intercept and slope
        rows = str(rep).splitlines()
        return [x[:56] for x in rows if x.startswith("  Calibration ") and "(" in x[:40]]

    assert lines(got) == lines(ref) and len(lines(ref)) == 3


# --------------------------------------------------------------------------
# the HAC kernel's unit-root errors began "prewhitening failed", which the
# inference layer read as a bad hac_kwds value ("hac_kwds: ...") though no
# hac_kwds were given (non-events of weight 1e-17: a degenerate skill series)
# --------------------------------------------------------------------------
def test_hac_unit_root_error_does_not_blame_hac_kwds():
    from skbrier import stats

    y, p, w = _negligible_non_events()
    with pytest.raises(ValueError, match="prewhite=0") as info:
        _quiet(stats.brier_inference, y, p, sample_weight=w, cov_type="hac")
    assert not str(info.value).startswith("hac_kwds")
    res = _quiet(
        stats.brier_inference,
        y,
        p,
        sample_weight=w,
        cov_type="hac",
        hac_kwds={"prewhite": 0},
    )
    assert np.isfinite(res.brier_score)


def _inverse_min(a, axis=-1):
    with np.errstate(divide="ignore"):
        return 1.0 / np.min(a, axis=axis)


def test_block_bootstrap_infinite_replicates_every_method():
    # 1 / min(x) is infinite on every resample that draws x = 0
    from skbrier import stats

    def interval(method):
        return stats.block_bootstrap(
            (np.arange(20.0),),
            _inverse_min,
            bootstrap="iid",
            method=method,
            n_resamples=200,
            random_state=0,
        ).confidence_interval()

    ci = interval("percentile")
    assert ci.high == np.inf and np.isfinite(ci.low)
    with pytest.warns(RuntimeWarning, match="inf - inf"):
        interval("basic")
    with pytest.raises(ValueError, match="infinite"):
        interval("bca")


# --------------------------------------------------------------------------
# the O/E kernel summed w p as given: weights of 5e-324 lost every product
# (E = 0: a NaN ratio), weights of 1e307 overflowed with numpy's warning
# --------------------------------------------------------------------------
@pytest.mark.parametrize("scale", [1e-310, 1e-300, 1e300, 1e307])
def test_observed_expected_weight_scale(scale):
    from skbrier._core.kernels.calibration import observed_expected

    rng = np.random.default_rng(11)
    p = rng.uniform(0.001, 0.02, 200)
    y = (rng.uniform(size=200) < 0.3).astype(float)
    w = rng.uniform(0.5, 2.0, 200)
    ref = observed_expected(y, p, w, 0.95)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = observed_expected(y, p, w * scale, 0.95)
    assert got[0] == pytest.approx(ref[0], rel=1e-12)
    # the interval counts observations: unbounded for a tiny total weight,
    # a single point for a huge one
    assert got[1] <= got[0] <= got[2] and not np.isnan(got).any()


def test_observed_expected_subnormal_weights():
    from skbrier._core.kernels.calibration import observed_expected

    rng = np.random.default_rng(12)
    p = rng.uniform(0.001, 0.02, 200)
    y = (rng.uniform(size=200) < 0.3).astype(float)
    k = rng.integers(1, 3, 200).astype(float)
    got = observed_expected(y, p, k * 5e-324, 0.95)[0]
    assert got == pytest.approx(np.dot(k, y) / np.dot(k, p), rel=1e-12)
