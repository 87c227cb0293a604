"""Boundary inputs of the stats, decomposition, model-selection, validation,
comparison and scorer packages found by fuzzing: each gives a correct number
or a ValueError/TypeError naming its parameter."""

from __future__ import annotations

import numpy as np
import pytest

from skbrier.stats import default_block_length


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (-5, ValueError),
        (0, ValueError),
        (10.5, TypeError),
        (True, TypeError),
        ("10", TypeError),
    ],
)
def test_default_block_length_checks_n_samples(value, error):
    # -5 raised "type complex doesn't define __round__"; 10.5 and True passed
    with pytest.raises(error, match="n_samples"):
        default_block_length(value)


def test_default_block_length_values():
    assert default_block_length(1) == 1
    assert default_block_length(np.int64(200)) == 6
    assert default_block_length(1000) == 10


# ------------------------------------------------------------------ pooling
@pytest.mark.parametrize(
    ("estimates", "variances"),
    [
        ([1e200, 2e200], [1.0, 1.0]),  # the between-imputation variance overflows
        ([1e200, 2e200], [0.0, 0.0]),
        ([1.7e308, 1.7e308], [1.0, 1.0]),  # the mean overflows
        ([1.0, 2.0], [1.7e308, 1.7e308]),  # the total variance overflows
    ],
)
def test_pool_rubin_overflow_is_a_value_error(estimates, variances):
    # numpy's "overflow encountered in square" leaked (an inf total variance)
    from skbrier.stats import pool_rubin

    with np.errstate(all="raise"), pytest.raises(ValueError, match="too wide to pool"):
        pool_rubin(estimates, variances)


def test_random_effects_meta_tau2_overflow_on_the_scale_of_the_estimates():
    # tau2 was finite on the rescaled problem but inf back on the estimates'
    # scale: i2 = inf / inf leaked numpy's "invalid value" warning and was NaN
    from skbrier.stats import random_effects_meta

    with np.errstate(all="raise"), pytest.raises(ValueError, match="too wide to pool"):
        random_effects_meta([1e200, 2e200, 3e200], [1e300] * 3)


def test_pooling_of_large_but_representable_values_still_works():
    from skbrier.stats import pool_rubin, random_effects_meta

    res = pool_rubin([1e150, 2e150], [1e300, 1e300])
    assert res.between_variance == pytest.approx(5e299)
    meta = random_effects_meta([1e10, 2e10, 3e10], [1e18] * 3)
    assert np.isfinite(meta.i2) and meta.tau2 > 0
