"""calibration_at_horizon (Kaplan--Meier and pseudo-observations) against R prodlim
``jackknife`` and survival ``survfit``; fixtures made by
tests/fixtures/survival/make_calibration_fixtures.R."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from skbrier._core.binning import assign_bins
from skbrier.survival import calibration_at_horizon
from skbrier.survival._pseudo_math import km_pseudo_values

FIX = Path(__file__).parent / "fixtures" / "survival"
CASES = json.loads((FIX / "calibration_fixtures.json").read_text())
IDS = [c["name"] for c in CASES]


def _case(c):
    return (
        np.array(c["status"], dtype=float),
        np.array(c["time"], dtype=float),
        np.array(c["x"], dtype=float),
        np.array(c["pseudo"], dtype=float),
    )


def _surv(x, h):
    # predicted survival, increasing risk in x: quantile thirds of risk = thirds of x
    return np.exp(-0.5 * h * np.exp(0.8 * x))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pseudo_values_match_prodlim_jackknife(case):
    event, time, _, pseudo = _case(case)
    for j, h in enumerate(case["times"]):
        ours = km_pseudo_values(time, event, np.ones_like(time), h)
        np.testing.assert_allclose(ours, pseudo[:, j], rtol=0, atol=1e-10)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pseudo_calibration_is_bin_mean_of_prodlim_pseudo_values(case):
    event, time, x, pseudo = _case(case)
    for j, h in enumerate(case["times"]):
        s = _surv(x, h)
        res = calibration_at_horizon(event, time, s, h, n_bins=4, censoring_method="pseudo")
        bins = assign_bins(1.0 - s, res.edges)
        expected = [1.0 - pseudo[bins == b, j].mean() for b in np.unique(bins)]
        np.testing.assert_allclose(res.observed, expected, rtol=0, atol=1e-10)
        sd = [
            pseudo[bins == b, j].std(ddof=1) / np.sqrt((bins == b).sum())
            for b in np.unique(bins)
        ]
        half = 1.959963984540054 * np.array(sd)
        np.testing.assert_allclose(res.observed_high - res.observed, half, atol=1e-10)
        np.testing.assert_allclose(res.observed - res.observed_low, half, atol=1e-10)
        assert res.censoring_method == "pseudo"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_km_calibration_and_intervals_match_survfit(case):
    event, time, x, _ = _case(case)
    group = np.array(case["group"])
    for j, h in enumerate(case["times"]):
        s = _surv(x, h)
        # R's groups are tertiles of predicted risk (riskRegression's quantile groups)
        res = calibration_at_horizon(event, time, s, h, n_bins=3, strategy="quantile")
        assert (assign_bins(1.0 - s, res.edges) == group).all()
        km = case["km_group"]
        np.testing.assert_allclose(res.observed, [1 - g["surv"][j] for g in km], atol=1e-10)
        np.testing.assert_allclose(
            res.observed_low, [1 - g["upper"][j] for g in km], atol=1e-10
        )
        np.testing.assert_allclose(
            res.observed_high, [1 - g["lower"][j] for g in km], atol=1e-10
        )
        one = calibration_at_horizon(event, time, s, h, n_bins=1, confidence_level=0.95)
        allk = case["km_all"]
        np.testing.assert_allclose(one.observed, [1 - allk["surv"][j]], atol=1e-10)
        np.testing.assert_allclose(one.observed_low, [1 - allk["upper"][j]], atol=1e-10)


def test_pseudo_values_frequency_weights_equal_repeated_rows():
    rng = np.random.default_rng(3)
    n = 60
    time = np.round(rng.exponential(2.0, n), 1) + 0.1
    event = (rng.random(n) < 0.7).astype(float)
    w = rng.integers(0, 4, n).astype(float)
    rep = np.repeat(np.arange(n), w.astype(int))
    for h in (0.5, 1.5, 3.0):
        weighted = km_pseudo_values(time, event, w, h)
        repeated = km_pseudo_values(time[rep], event[rep], np.ones(rep.size), h)
        np.testing.assert_allclose(weighted[rep], repeated, atol=1e-10)
    s = np.exp(-0.3 * time.mean() * np.exp(rng.normal(size=n) * 0.1))
    a = calibration_at_horizon(
        event, time, s, 1.5, n_bins=3, censoring_method="pseudo", sample_weight=w
    )
    b = calibration_at_horizon(
        event[rep], time[rep], s[rep], 1.5, n_bins=3, censoring_method="pseudo"
    )
    np.testing.assert_allclose(a.observed, b.observed, atol=1e-10)
    np.testing.assert_allclose(a.observed_low, b.observed_low, atol=1e-10)


def test_pseudo_values_mean_is_kaplan_meier():
    # the mean pseudo-value is close to (not exactly) the Kaplan--Meier estimate
    rng = np.random.default_rng(0)
    time = rng.exponential(1.0, 200)
    event = (rng.random(200) < 0.6).astype(float)
    res1 = calibration_at_horizon(event, time, np.full(200, 0.5), 1.0, n_bins=1)
    resp = calibration_at_horizon(
        event, time, np.full(200, 0.5), 1.0, n_bins=1, censoring_method="pseudo"
    )
    assert abs(res1.observed[0] - resp.observed[0]) < 0.05


def test_result_fields_and_histogram():
    rng = np.random.default_rng(1)
    time = rng.exponential(1.0, 100)
    event = (rng.random(100) < 0.6).astype(float)
    s = rng.uniform(0.2, 0.9, 100)
    res = calibration_at_horizon(event, time, s, 0.8, n_bins=5)
    assert res.hist_edges.shape == (21,)
    assert res.hist_weight.sum() == 100
    assert np.all(res.observed_low <= res.observed + 1e-12)
    assert np.all(res.observed <= res.observed_high + 1e-12)
    assert list(res.to_frame().columns) == [
        "predicted",
        "observed",
        "observed_low",
        "observed_high",
        "bin_weight",
    ]


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"censoring_method": "loess"}, "censoring_method"),
        ({"confidence_level": 1.5}, "confidence_level"),
    ],
)
def test_bad_options(kw, match):
    with pytest.raises(ValueError, match=match):
        calibration_at_horizon([1, 0, 1], [1.0, 2.0, 3.0], [0.5, 0.4, 0.3], 2.0, **kw)


@pytest.mark.parametrize("method", ["km", "pseudo"])
def test_calibration_refuses_weights_too_small_to_count(method):
    # weights summing to 1 gave pseudo-values of W - 1 < 0 (NaN) and
    # Greenwood intervals of [0, 1] silently
    rng = np.random.default_rng(2)
    time = rng.exponential(1.0, 40)
    event = (rng.random(40) < 0.6).astype(float)
    s = rng.uniform(0.2, 0.9, 40)
    for w in (np.full(40, 1 / 40), np.full(40, 1e-200)):
        with pytest.raises(ValueError, match="sample_weight sums to"):
            calibration_at_horizon(
                event, time, s, 0.8, censoring_method=method, sample_weight=w
            )
    with pytest.raises(ValueError, match="y_time has 2 samples; at least 3 observations"):
        calibration_at_horizon([1, 0], [1.0, 2.0], [0.5, 0.6], 1.5, censoring_method=method)


def test_greenwood_limits_of_large_weights_do_not_overflow():
    # D / (Y (Y - D)) overflowed with weights x1e200 (a RuntimeWarning, and a
    # variance of 0); frequency weights x c divide the variance by c
    rng = np.random.default_rng(3)
    time = rng.exponential(1.0, 60)
    event = (rng.random(60) < 0.6).astype(float)
    s = rng.uniform(0.2, 0.9, 60)
    w = rng.integers(1, 4, 60).astype(float)
    ref = calibration_at_horizon(event, time, s, 0.8, n_bins=3, sample_weight=w)
    for scale in (1e6, 1e200):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = calibration_at_horizon(
                event, time, s, 0.8, n_bins=3, sample_weight=w * scale
            )
        np.testing.assert_allclose(got.observed, ref.observed, rtol=1e-10)
        # z se = log(S / S_low), S_low = 1 - observed_high (log intervals)
        zse_ref = np.log((1.0 - ref.observed) / (1.0 - ref.observed_high))
        zse = np.log((1.0 - got.observed) / (1.0 - got.observed_high))
        if scale < 1e100:
            np.testing.assert_allclose(zse, zse_ref / np.sqrt(scale), rtol=1e-6)
        else:  # a sample of 1e200: the limits meet the estimate
            np.testing.assert_allclose(got.observed_low, got.observed, atol=1e-12)
            np.testing.assert_allclose(got.observed_high, got.observed, atol=1e-12)
