"""The bootstrap counts shared by the internal validation and its intervals."""

import numpy as np

from skbrier.model_selection._optimism_core import resample_counter


def test_counts_of_drawn_rows():
    counts = resample_counter(None, 4)(np.array([0, 0, 3, 1]), np.random.default_rng(0))
    assert counts.tolist() == [2.0, 1.0, 0.0, 1.0]
    assert counts.dtype == np.float64


def test_counts_drawn_from_frequency_weights():
    w = np.array([1.0, 2.0, 0.0, 3.0])
    counts = resample_counter(w, 4)(None, np.random.default_rng(0))
    assert counts.sum() == 6.0 and counts[2] == 0.0
