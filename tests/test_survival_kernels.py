"""Kernels of skbrier.survival against their definitions (brute force on small data)."""

import warnings

import numpy as np
import pytest

from skbrier.survival._pseudo_math import km_pseudo_values
from skbrier.survival._survival_math import kaplan_meier, search_sorted, step_at


@pytest.mark.parametrize("kind", ["uniform", "skewed", "clustered", "grid", "cauchy"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_search_sorted_equals_numpy(kind, side):
    rng = np.random.default_rng(len(kind))
    n_u = 500
    table = {
        "uniform": rng.random(n_u),
        "skewed": np.round(rng.exponential(1.0, n_u) ** 4, 3),
        "clustered": np.concatenate([rng.random(n_u) * 1e-9, [1e6]]),
        "grid": np.arange(n_u, dtype=float),
        "cauchy": rng.standard_cauchy(n_u),
    }[kind]
    table = np.unique(table)
    x = np.concatenate(
        [
            rng.choice(table, 5000),
            rng.uniform(table[0] - 1.0, table[-1] + 1.0, 5000),
            [table[0], table[-1], -np.inf, np.inf],
        ]
    )
    np.testing.assert_array_equal(
        search_sorted(table, x, side), np.searchsorted(table, x, side)
    )


def test_pseudo_values_equal_leave_one_out_refits():
    rng = np.random.default_rng(2)
    n = 40
    time = np.round(rng.exponential(1.0, n), 1) + 0.1  # ties
    event = (rng.random(n) < 0.7).astype(float)
    w = np.ones(n)
    for h in (0.3, 0.8, 1.5, float(time.max())):
        s_all = step_at(kaplan_meier(time, event, w), np.array([h]))[0]
        brute = np.empty(n)
        for i in range(n):
            keep = np.arange(n) != i
            km = kaplan_meier(time[keep], event[keep], w[keep])
            brute[i] = n * s_all - (n - 1) * step_at(km, np.array([h]))[0]
        np.testing.assert_allclose(km_pseudo_values(time, event, w, h), brute, atol=1e-12)


def test_pseudo_values_of_large_frequency_weights_are_accurate():
    # W S - (W - 1) S_loo cancelled catastrophically: weights x1e200 gave 1.0
    # for every subject; the values converge to the infinitesimal jackknife
    rng = np.random.default_rng(5)
    time, event = rng.gamma(2.0, 0.5, 50).round(1) + 0.1, rng.binomial(1, 0.7, 50) * 1.0
    w = rng.choice([1.0, 2.0, 3.0], 50)
    for h in (0.4, 1.0, 2.0):
        ref = km_pseudo_values(time, event, w * 1e7, h)
        for scale in (1e12, 1e200):
            got = km_pseudo_values(time, event, w * scale, h)
            np.testing.assert_allclose(got, ref, atol=1e-6)
        # the mean pseudo-value is the Kaplan--Meier estimate in the limit
        s = step_at(kaplan_meier(time, event, w), np.array([h]))[0]
        assert w @ ref / w.sum() == pytest.approx(s, abs=1e-6)


@pytest.mark.parametrize("unit", [1e-310, 1e-300, 1e300])
def test_riskregression_scores_do_not_depend_on_the_time_unit(unit):
    from skbrier.survival import index_of_prediction_accuracy

    rng = np.random.default_rng(4)
    time = rng.integers(1, 6, 200).astype(float)
    event = rng.integers(0, 2, 200)
    times = np.array([1.5, 2.0, 3.5])
    surv = np.exp(-0.2 * np.outer(rng.uniform(0.5, 1.5, 200), times))
    ref = index_of_prediction_accuracy(event, time, surv, times)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = index_of_prediction_accuracy(event, time * unit, surv, times * unit)
    np.testing.assert_allclose(got.brier, ref.brier, rtol=1e-12)
    np.testing.assert_allclose(got.se_ipa, ref.se_ipa, rtol=1e-10)
    assert got.integrated_ipa == pytest.approx(ref.integrated_ipa, rel=1e-10)


def test_search_sorted_of_subnormal_times():
    # a range of subnormal times overflowed the bucket scale: NaN buckets gave
    # an IndexError and numpy warnings (reached by convention="sksurv", whose
    # censoring model is read at every scored time)
    table = np.array([0.0, 1e-311, 3e-311, 1e-310, 5e-310])
    x = np.r_[np.repeat(table, 20), 2e-311, 1.0, -1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for side in ("left", "right"):
            np.testing.assert_array_equal(
                search_sorted(table, x, side), np.searchsorted(table, x, side)
            )
