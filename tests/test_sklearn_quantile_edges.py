"""scikit-learn's equal-mass edges with weights: one function for the
calibration error and the reliability diagram (the levels of np.percentile)."""

import numpy as np
import pytest

from skbrier import calibration_error
from skbrier._core.kernels.calibration_error import sklearn_quantile_edges


def test_weighted_quantile_bins_equal_repeated_rows_in_tied_cases():
    # a tied case where the levels of np.linspace differ from those np.percentile
    # uses (levels * 100 / 100) in the last bit
    p = np.array([0.25, 0.95, 0.3, 0.3, 0.7, 1.0, 0.9, 0.6, 0.1, 0.9, 0.9, 0.3])
    y = np.array([1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1])
    w = np.array([2, 1, 4, 1, 2, 1, 4, 3, 1, 1, 1, 1])
    rep = np.repeat(np.arange(p.shape[0]), w)
    kw = {"binning": "sklearn", "strategy": "quantile", "n_bins": 9, "kind": "binary"}
    weighted = calibration_error(y, p, sample_weight=w.astype(float), **kw)
    repeated = calibration_error(y[rep], p[rep], **kw)
    assert weighted == pytest.approx(repeated, rel=1e-14)


@pytest.mark.parametrize("n_bins", [3, 9, 10, 15, 27])
def test_edges_are_np_percentile_of_the_repeated_rows(n_bins):
    rng = np.random.default_rng(n_bins)
    p = rng.choice([0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0], 40)
    w = rng.integers(1, 5, 40)
    want = np.percentile(np.repeat(p, w), np.linspace(0, 1, n_bins + 1) * 100)
    np.testing.assert_array_equal(sklearn_quantile_edges(p, w.astype(float), n_bins), want)
    np.testing.assert_array_equal(
        sklearn_quantile_edges(p, None, n_bins),
        np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100),
    )


def test_the_reliability_diagram_uses_the_same_edges():
    from skbrier.plotting._reliability_bins import calibration_edges

    rng = np.random.default_rng(0)
    p = rng.random(50)
    w = rng.integers(1, 4, 50).astype(float)
    np.testing.assert_array_equal(
        calibration_edges(p, w, 9, "quantile"), sklearn_quantile_edges(p, w, 9)
    )
