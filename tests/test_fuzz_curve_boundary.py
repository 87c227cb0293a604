"""Boundary fuzz of the flexible calibration curves (one class of tiny weight)."""

import warnings

import numpy as np
import pytest

import skbrier


def _data(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p


@pytest.mark.parametrize("smoother", ["gam", "rcs", "ns", "loess"])
@pytest.mark.parametrize("tiny", [1e-17, 1e-300])
@pytest.mark.parametrize("cls", [0, 1])
def test_tiny_class_weight_mirrors(smoother, tiny, cls):
    # non-events (or events) of weight 1e-17 beside 1: the gam returned NaN
    # with a ConvergenceWarning (mu (1 - mu) rounds to 0 at the events)
    y, p = _data()
    w = np.where(y == cls, tiny, 1.0)
    g = np.linspace(0.1, 0.9, 9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = skbrier.flexible_calibration_curve(
            y, p, smoother=smoother, sample_weight=w, grid=g
        )
        m = skbrier.flexible_calibration_curve(
            1 - y, 1 - p, smoother=smoother, sample_weight=w, grid=1 - g
        )
    assert r.converged and np.isfinite(r.ici)
    assert r.ici == pytest.approx(m.ici, rel=1e-9)
    np.testing.assert_allclose(r.estimate, 1.0 - m.estimate, rtol=0, atol=1e-12)
