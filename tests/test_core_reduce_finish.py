"""One reduce and one finish per statistic, shared by the in-memory path,
the mergeable states and the Dask adapter (issue 25, items of _core/states).

* the centred moments of ``brier_inference``: ``moment_reduce`` /
  ``merge_moments`` / ``mean_covariance`` behind ``iid_mean_covariance`` and
  :class:`~skbrier.states.MomentState` (huge frequency weights no longer
  overflow in the merge or the finish);
* Spiegelhalter's z: ``spiegelhalter_reduce`` / ``spiegelhalter_from_sums``
  behind ``spiegelhalter_z`` and :class:`~skbrier.states.SpiegelhalterState`;
* the binned decomposition's per-bin sums: ``binned_sums`` in any namespace.
"""

from __future__ import annotations

import numpy as np
import pytest

from skbrier._core.kernels.calibration import spiegelhalter, spiegelhalter_reduce
from skbrier._core.kernels.moments import (
    iid_mean_covariance,
    mean_covariance,
    merge_moments,
    moment_reduce,
)
from skbrier.states import MomentState, SpiegelhalterState


def _data(n=300, seed=0, scale=1.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(np.float64)
    p = rng.random(n)
    w = rng.random(n) * scale
    return y, p, w


@pytest.mark.parametrize("weighted", [False, True])
def test_moments_state_and_numpy_path_share_the_reduce(weighted):
    y, p, w = _data()
    w = w if weighted else None
    g = np.column_stack([(p - y) ** 2, (0.3 - y) ** 2])
    state = MomentState().update(y, p, w)
    m = state.class_moments((0.09, 0.49))
    np.testing.assert_allclose(mean_covariance(m), iid_mean_covariance(g, w), rtol=1e-12)


def test_merge_moments_equals_one_reduce():
    y, p, w = _data()
    h = np.column_stack([p, (p - y) ** 2])
    whole = moment_reduce(np, h, w)
    parts = merge_moments(
        moment_reduce(np, h[:100], w[:100]), moment_reduce(np, h[100:], w[100:])
    )
    for a, b in zip(whole, parts):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("scale", [1e300, 1.0])
def test_dask_inference_with_extreme_weights_equals_numpy(scale):
    """The merge took ``W_a W_b / W`` and the finish ``(W - 1) W``: NaN for
    frequency weights of 1e300 (the in-memory result is finite)."""
    da = pytest.importorskip("dask.array")
    import dask

    from skbrier.stats import brier_inference, compare_brier

    y, p, w = _data(scale=scale)
    q = np.clip(p + 0.1, 0.0, 1.0)
    chunks = 70
    dy, dp, dq, dw = (da.from_array(a, chunks=chunks) for a in (y, p, q, w))
    with dask.config.set(scheduler="synchronous"):
        got = brier_inference(dy, dp, sample_weight=dw)
        cmp_got = compare_brier(dy, dp, dq, sample_weight=dw, cov_type="iid")
    want = brier_inference(y, p, sample_weight=w)
    cmp_want = compare_brier(y, p, q, sample_weight=w, cov_type="iid")
    assert np.isfinite(got.covariance).all()
    np.testing.assert_allclose(got.covariance, want.covariance, rtol=1e-9)
    assert cmp_got.standard_error() == pytest.approx(cmp_want.standard_error(), rel=1e-9)


@pytest.mark.parametrize("weighted", [False, True])
def test_spiegelhalter_state_uses_the_function_sums(weighted):
    y, p, w = _data()
    w = w if weighted else None
    state = SpiegelhalterState()
    for lo in range(0, 300, 70):
        state.update(
            y[lo : lo + 70], p[lo : lo + 70], None if w is None else w[lo : lo + 70]
        )
    z, pv = state.finalize()
    z0, p0 = spiegelhalter(y, p, w)
    assert z == pytest.approx(z0, rel=1e-12)
    assert pv == pytest.approx(p0, rel=1e-10)
    # the hypotheses form holds the numerator of each outcome
    w_all, num0, num1, den = spiegelhalter_reduce(np, None, p, w)
    _, num_y, den_y = spiegelhalter_reduce(np, y, p, w)
    assert den == den_y
    sel = y == 1
    _, a0, _, _ = spiegelhalter_reduce(np, None, p[~sel], None if w is None else w[~sel])
    _, _, b1, _ = spiegelhalter_reduce(np, None, p[sel], None if w is None else w[sel])
    assert a0 + b1 == pytest.approx(num_y, rel=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_binned_sums_in_another_namespace_equal_numpy(weighted):
    """One form of the per-bin sums: the device path sums the same per-code
    columns as numpy's bincounts (the weights scaled by the same exponent)."""
    xp = pytest.importorskip("array_api_strict")
    from skbrier._core.binning import assign_bins, uniform_edges
    from skbrier._core.kernels.decomposition import binned_sums, pow2_exponent

    y, p, w = _data(scale=1e-200)
    w = w if weighted else None
    e = 0 if w is None else pow2_exponent(w)
    idx = assign_bins(p, uniform_edges(7))
    want = binned_sums(idx, 7, y, p, w, exponent=e)
    got = binned_sums(
        xp.asarray(idx),
        7,
        xp.asarray(y),
        xp.asarray(p),
        None if w is None else xp.asarray(w),
        exponent=e,
        xp=xp,
    )
    assert got[0].dtype == np.int64
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)


@pytest.mark.parametrize("chunks", [1, 2, 4])
def test_dask_one_hot_multiple_choice_warns_as_numpy(chunks):
    """numpy and Array API input warn of one-hot ``y_score``; Dask did not."""
    da = pytest.importorskip("dask.array")
    import dask

    from skbrier import multiple_choice_brier_score
    from skbrier.exceptions import HardForecastWarning

    s = np.eye(3)[[0, 1, 2, 0]]
    y = np.array([0, 1, 1, 0])
    with pytest.warns(HardForecastWarning, match="one-hot answers") as want:
        v0 = multiple_choice_brier_score(y, s)
    dy, ds = da.from_array(y, chunks=chunks), da.from_array(s, chunks=(chunks, 3))
    with dask.config.set(scheduler="synchronous"):
        with pytest.warns(HardForecastWarning, match="one-hot answers") as got:
            v1 = multiple_choice_brier_score(dy, ds)
    assert v1 == pytest.approx(v0)
    assert [str(r.message) for r in got if r.category is HardForecastWarning] == [
        str(r.message) for r in want if r.category is HardForecastWarning
    ]


def test_dask_multiple_choice_does_not_warn_when_not_one_hot():
    da = pytest.importorskip("dask.array")
    import warnings

    import dask

    from skbrier import multiple_choice_brier_score

    # one chunk one-hot, the other soft; log-probabilities never warn
    s = np.r_[np.eye(3)[[0, 1]], [[0.5, 0.25, 0.25], [0.2, 0.3, 0.5]]]
    y = np.array([0, 1, 1, 0])
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("error")
        multiple_choice_brier_score(
            da.from_array(y, chunks=2), da.from_array(s, chunks=(2, 3))
        )
        multiple_choice_brier_score(
            da.from_array(y, chunks=2),
            da.from_array(np.log(np.eye(3)[[0, 1, 2, 0]] * 0.9 + 0.05), chunks=(2, 3)),
            from_logprobs=True,
        )


def test_sums_add_field_by_field():
    # one rule for every kernel's sums: add each field, None where a side lacks it
    from skbrier._core.kernels.brier import BrierSums
    from skbrier._core.kernels.net_benefit import ThresholdSums

    a = BrierSums(2.0, 0.5, np.array([1.0, 1.0]), 0.3, 2, True, False)
    b = BrierSums(1.0, 0.25, np.array([0.0, 1.0]), None, 2, False, False)
    s = a + b
    assert (s.weight, s.loss, s.reference_loss, s.n_columns, s.exact32) == (
        3.0, 0.75, None, 2, False
    )  # fmt: skip
    np.testing.assert_array_equal(s.class_weight, [1.0, 2.0])
    assert (a + a).exact32 and (a + a).reference_loss == 0.6
    one, two = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    t = ThresholdSums(one, two, one, two) + ThresholdSums(two, one, None, one)
    np.testing.assert_array_equal(t.fn, [4.0, 6.0])
    np.testing.assert_array_equal(t.fp, [4.0, 6.0])
    assert t.tn is None
