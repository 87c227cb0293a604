"""Boundary inputs of the stats, decomposition, model-selection, validation,
comparison and scorer packages found by fuzzing: each gives a correct number
or a ValueError/TypeError naming its parameter."""

from __future__ import annotations

import numpy as np
import pytest

from skbrier.stats import default_block_length


@pytest.mark.parametrize(
    ("value", "error"),
    [(-5, ValueError), (0, ValueError), (10.5, TypeError), (True, TypeError), ("10", TypeError)],
)
def test_default_block_length_checks_n_samples(value, error):
    # -5 raised "type complex doesn't define __round__"; 10.5 and True passed
    with pytest.raises(error, match="n_samples"):
        default_block_length(value)


def test_default_block_length_values():
    assert default_block_length(1) == 1
    assert default_block_length(np.int64(200)) == 6
    assert default_block_length(1000) == 10
