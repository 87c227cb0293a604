"""The sampler of non-integer frequency weights (skbrier._core.alias).

The law of one resample is Multinomial(draws, w / W); references: the
multinomial's moments (mean draws p_i, covariance -draws p_i p_j) and
scipy.stats.binom for the count of one row (a chi-square goodness-of-fit
test); the table's exact integer law is checked against the units it was
given, by summing what every bucket gives to every item.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
import scipy.stats

import skbrier
from skbrier._core.alias import (
    UNIT_BITS,
    alias_counts,
    alias_table,
    multinomial_sampler,
)
from skbrier._core.resampling import frequency_resampler


def _implied_units(table):
    """Units each item receives from the buckets (exact Python integers)."""
    size = 1 << (UNIT_BITS - table.k)
    threshold = (table.packed >> table.k).tolist()
    alias = (table.packed & ((1 << table.k) - 1)).tolist()
    got = [0] * (1 << table.k)
    for b, (t, a) in enumerate(zip(threshold, alias)):
        got[b] += t
        got[a] += size - t
    return got


WEIGHTS = [
    np.array([0.5, 1.5, 2.25]),
    np.array([0.0, 0.3, 0.0, 7.7, 1.0]),
    np.array([1e-300, 2.5, 1e-12, 0.0, 3.25, 1e10]),
    np.full(8, 0.375),  # equal buckets: no light item but the rejection one
    np.random.default_rng(3).uniform(0.0, 2.0, 1000) ** 4,
]


@pytest.mark.parametrize("w", WEIGHTS)
@pytest.mark.parametrize("slack", [2.0**-40, 0.3, 0.95])
def test_table_gives_every_row_its_units_exactly(w, slack):
    table = alias_table(w, slack=slack)
    units = table.units.tolist()
    assert sum(units) == 1 << UNIT_BITS
    got = _implied_units(table)
    assert got[: table.n + 1] == units
    assert not any(got[table.n + 1 :])  # padding buckets: no item
    # each row's units are its share w / W to within one unit (rounded down)
    share = w / w.sum() * 2.0**UNIT_BITS * (1 - slack)
    assert np.all(np.abs(np.array(units[:-1], dtype=float) - share) <= 1 + share * 1e-15)
    assert all(u == 0 for u, wi in zip(units, w) if wi == 0.0)
    assert not table.packed.flags.writeable and not table.units.flags.writeable


def test_counts_mean_and_covariance_are_multinomial():
    w = np.array([0.25, 1.0, 0.0, 2.5, 0.75, 1e-300])
    p = w / w.sum()
    draws, reps = 37, 20000
    draw = multinomial_sampler(w, draws)
    rng = np.random.default_rng(12345)
    c = np.stack([draw(rng) for _ in range(reps)])
    assert c.dtype == np.float64
    np.testing.assert_array_equal(c.sum(axis=1), draws)
    assert not c[:, 2].any() and not c[:, 5].any()  # zero (and 2**-62-small) weights
    mean_se = np.sqrt(draws * p * (1 - p) / reps)
    assert np.all(np.abs(c.mean(axis=0) - draws * p) <= 4 * mean_se + 1e-12)
    cov = np.cov(c, rowvar=False)
    expected = draws * (np.diag(p) - np.outer(p, p))
    # the covariances' standard errors, from the sample itself
    cc = c - c.mean(axis=0)
    se = np.sqrt(np.var(cc[:, :, None] * cc[:, None, :], axis=0) / reps)
    assert np.all(np.abs(cov - expected) <= 5 * se + 1e-12)
    assert cov[0, 3] < 0 and cov[1, 4] < 0


def test_one_row_count_fits_the_binomial():
    w = np.array([0.4, 1.1, 2.9, 0.6])
    draws, reps = 12, 20000
    draw = multinomial_sampler(w, draws)
    rng = np.random.default_rng(2024)
    x = np.array([draw(rng)[1] for _ in range(reps)]).astype(int)
    law = scipy.stats.binom(draws, w[1] / w.sum())
    # cells 0..6 and the tail >= 7 (expected counts above 5)
    observed = np.bincount(np.minimum(x, 7), minlength=8)
    expected = reps * np.r_[law.pmf(np.arange(7)), law.sf(6)]
    assert expected.min() > 5
    stat, pvalue = scipy.stats.chisquare(observed, expected)
    assert pvalue > 0.001, (stat, pvalue)


def test_redraws_of_the_rejection_item_keep_the_law():
    # a slack of 0.9: nine observations in ten fall on the rejection item
    # and are drawn again; the counts still sum to draws with the rows' law
    w = np.array([1.0, 3.0, 0.0, 4.0])
    table = alias_table(w, slack=0.9)
    rng = np.random.default_rng(7)
    c = np.stack([alias_counts(table, rng, 25) for _ in range(4000)])
    np.testing.assert_array_equal(c.sum(axis=1), 25)
    assert not c[:, 2].any()
    p = np.array(table.units[:-1], dtype=float)
    p /= p.sum()
    se = np.sqrt(25 * p * (1 - p) / 4000)
    assert np.all(np.abs(c.mean(axis=0) - 25 * p) <= 4 * se + 1e-12)


def test_large_resample_total_and_zero_rows():
    rng = np.random.default_rng(0)
    w = rng.uniform(0.5, 2.0, 200_001)  # more observations than one block
    w[::7] = 0.0
    draw = frequency_resampler(w, w.shape[0])
    c = draw(np.random.default_rng(1))
    assert c.sum() == round(w.sum())
    assert not c[::7].any()
    # a row of half the weight gets half the draws, within a few standard errors
    w2 = np.r_[w, w.sum()]
    c2 = frequency_resampler(w2, w2.shape[0])(np.random.default_rng(2))
    draws = round(w2.sum())
    assert abs(c2[-1] - draws / 2) < 5 * np.sqrt(draws / 4)


def test_weights_over_a_wide_range():
    w = np.array([1e-300, 1e-150, 2.0**61, 1.0, 5e-324, 3.5])
    draw = frequency_resampler(w, w.shape[0])
    c = np.stack([draw(np.random.default_rng(s)) for s in range(20)])
    assert np.all(np.isfinite(c)) and np.all(c >= 0)
    assert np.all(c.sum(axis=1) == round(w.sum()))
    assert not c[:, [0, 1, 4]].any()  # probabilities below 2**-62 are not drawn
    # beyond 2**62 observations the resampler refuses, naming sample_weight
    with pytest.raises(ValueError, match="sample_weight"):
        frequency_resampler(np.array([1e300, 1.0, 1e-300]), 3)
    with pytest.raises(ValueError, match="sample_weight"):
        frequency_resampler(np.array([0.5, 0.25, 1e-300]), 3)


def test_deterministic_and_integer_and_unweighted_streams_unchanged():
    w = np.array([0.5, 1.25, 0.0, 3.0, 2.75])
    a = frequency_resampler(w, 5)(np.random.default_rng(9))
    b = frequency_resampler(w, 5)(np.random.default_rng(9))
    np.testing.assert_array_equal(a, b)
    # integer weights: the expanded rows' draws, as before
    wi = np.array([2.0, 0.0, 1.0, 3.0])
    expanded = np.repeat(np.arange(4), [2, 0, 1, 3])
    got = frequency_resampler(wi, 4)(np.random.default_rng(4))
    want = np.bincount(expanded[np.random.default_rng(4).integers(0, 6, 6)], minlength=4)
    np.testing.assert_array_equal(got, want)
    # unweighted: the iid resample of the rows, as before
    got = frequency_resampler(None, 5)(np.random.default_rng(4))
    want = np.bincount(np.random.default_rng(4).integers(0, 5, 5), minlength=5)
    np.testing.assert_array_equal(got, want)


def test_one_resampler_in_threads():
    w = np.random.default_rng(5).uniform(0.5, 2.0, 5000)
    draw = frequency_resampler(w, w.shape[0])
    seeds = list(range(16))
    serial = [draw(np.random.default_rng(s)) for s in seeds]
    out: dict[int, np.ndarray] = {}

    def work(s):
        out[s] = draw(np.random.default_rng(s))

    threads = [threading.Thread(target=work, args=(s,)) for s in seeds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in seeds:
        np.testing.assert_array_equal(out[s], serial[s])


def test_public_bootstrap_same_for_n_jobs():
    rng = np.random.default_rng(0)
    n = 300
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.random(n) < p).astype(int)
    w = rng.uniform(0.5, 2.0, n)
    kw = dict(cov_type="bootstrap", sample_weight=w, random_state=0, n_resamples=99)
    one = skbrier.stats.brier_inference(y, p, n_jobs=1, **kw)
    two = skbrier.stats.brier_inference(y, p, n_jobs=2, **kw)
    for m in one.bootstrap_distribution:
        np.testing.assert_array_equal(
            one.bootstrap_distribution[m], two.bootstrap_distribution[m]
        )
    # the weighted bootstrap's standard error agrees with the iid one
    iid = skbrier.stats.brier_inference(y, p, sample_weight=w)
    assert one.standard_error("brier_score") == pytest.approx(
        iid.standard_error("brier_score"), rel=0.25
    )
