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


def test_brier_index_one_hot_warns():
    # a one-hot y_true of 3 classes is read as 3 labels (documented): its
    # Index differed from the class labels' without a word
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 50)
    p = rng.dirichlet(np.ones(3), 50)
    with pytest.warns(UserWarning, match=r"y_true is a one-hot.*argmax") as rec:
        bi = skbrier.brier_index(np.eye(3)[y], p)
    assert len(rec) == 1
    assert bi != pytest.approx(skbrier.brier_index(y, p))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        skbrier.brier_index(np.eye(3)[y], p * 0.9)  # rows not summing to 1: multilabel
        skbrier.brier_index(np.eye(3)[y] + np.eye(3)[(y + 1) % 3], p)  # not one-hot
        assert skbrier.brier_score(np.eye(3)[y], p) == pytest.approx(
            skbrier.brier_score(y, p)
        )


def test_dask_subnormal_weights_refusal_says_what_to_do():
    da = pytest.importorskip("dask.array")
    # the in-memory functions shift such weights by a power of two; Dask
    # refuses them (its states keep sums of the weights), saying what to do
    y, p = _data(n=100)
    y, p, w = (da.from_array(a, chunks=25) for a in (y, p, np.full(100, 5e-311)))
    with pytest.raises(ValueError, match="sample_weight.*Multiply sample_weight"):
        skbrier.brier_score(y, p, sample_weight=w)


def test_bootstrap_band_without_curves_warns():
    # non-events of weight 1e-17: no resample draws one, so no resample has a
    # curve; the band was NaN without a word
    y, p = _data(n=300)
    w = np.where(y == 0, 1e-17, 1.0)
    with pytest.warns(RuntimeWarning, match="20 of 20 bootstrap replicates are NaN"):
        r = skbrier.flexible_calibration_curve(
            y,
            p,
            smoother="rcs",
            sample_weight=w,
            band="bootstrap",
            n_resamples=20,
            random_state=0,
        )
    assert np.isnan(r.lower).all()


@pytest.mark.parametrize("smoother", ["gam", "rcs", "ns", "loess"])
def test_huge_weights_no_overflow(smoother):
    # one class of weight 1e305 beside 1: numpy's overflow warning leaked
    # (all smoothers but rcs) and the gam curve was NaN with a ConvergenceWarning
    y, p = _data(n=400)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = skbrier.flexible_calibration_curve(
            y, p, smoother=smoother, sample_weight=np.where(y == 0, 1e305, 1.0)
        )
        # the same curve as weights of 1e200 (the same sample to the fits)
        s = skbrier.flexible_calibration_curve(
            y, p, smoother=smoother, sample_weight=np.where(y == 0, 1e200, 1e-105)
        )
    assert np.isfinite(r.ici) and r.n == pytest.approx(np.sum(np.where(y == 0, 1e305, 1.0)))
    assert r.ici == pytest.approx(s.ici, rel=1e-9)
