"""The binned decomposition reads its input once (issue 25, "the kernels read
their input once"): the bins and the per-bin sums are computed block by block
(:func:`skbrier._core.binning.block_binner`,
:func:`skbrier._core.kernels.decomposition.binned_sums`), so no temporary as long
as the data is made, and the bins follow the one binning rule exactly."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from skbrier._core.binning import BLOCK_ROWS, assign_bins, uniform_edges
from skbrier._core.kernels.decomposition import binned_sums
from skbrier.metrics.decomposition import binned_statistics, murphy_decomposition


def _by_definition(p, edges, right):
    """The rule of assign_bins by a search of the inner edges (no shortcut)."""
    side = "left" if right else "right"
    return np.searchsorted(edges[1:-1], p, side=side)


@pytest.mark.parametrize("k", [2, 3, 7, 10, 13, 49, 100, 997, 1000, 99_999, 100_000])
@pytest.mark.parametrize("right", [True, False])
def test_uniform_bins_follow_the_rule_on_and_next_to_every_edge(k, right):
    e = uniform_edges(k)
    rng = np.random.default_rng(k)
    near = [e, rng.uniform(size=3 * BLOCK_ROWS), [0.0, 1.0, 5e-324, 1e-320]]
    for steps in (1, 2, 3):
        up, down = e.copy(), e.copy()
        for _ in range(steps):
            up, down = np.nextafter(up, 2.0), np.nextafter(down, -1.0)
        near += [up, down]
    p = np.concatenate(near)
    p = p[(p >= 0.0) & (p <= 1.0)]
    np.testing.assert_array_equal(
        assign_bins(p, e, right=right), _by_definition(p, e, right)
    )


@pytest.mark.parametrize("right", [True, False])
def test_uniform_bins_clip_outside_values_and_nan_to_the_end_bins(right):
    e = uniform_edges(10)
    out = assign_bins(np.array([-0.5, 1.5, np.nan, -0.0]), e, right=right)
    assert out.tolist() == [0, 9, 0, 0]


def _naive_sums(idx, k, y, p, w):
    w1 = np.ones_like(p) if w is None else w
    b = lambda v: np.bincount(idx, weights=v, minlength=k)  # noqa: E731
    return (
        np.bincount(idx, minlength=k),
        b(w1),
        b(w1 * p),
        b(w1 * y),
        b(w1 * p * p),
        b(w1 * p * y),
        b(w1 * w1),
    )


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(
    "edges", [uniform_edges(10), uniform_edges(1), np.array([0.0, 0.05, 0.3, 0.31, 1.0])]
)
@pytest.mark.parametrize("right", [True, False])
def test_one_pass_sums_equal_the_sums_of_each_bin(weighted, edges, right):
    rng = np.random.default_rng(1)
    n = 2 * BLOCK_ROWS + 123  # several blocks and a partial one
    p = np.round(rng.beta(2.0, 3.0, n), 2)  # forecasts on the edges too
    y = (rng.uniform(size=n) < p).astype(np.float64)
    w = rng.gamma(2.0, 1.0, n) if weighted else None
    k = edges.shape[0] - 1
    idx = _by_definition(p, edges, right)
    want = _naive_sums(idx, k, y, p, w)
    from skbrier._core.binning import block_binner

    for got in (
        binned_sums(None, k, y, p, w, bin_into=block_binner(edges, right=right)),
        binned_sums(idx, k, y, p, w),
        binned_statistics(y, p, w, edges, right=right).__dict__.values(),
    ):
        got = [g for g in got if isinstance(g, np.ndarray) and g.shape == (k,)]
        assert got[0].dtype == np.int64
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-13, atol=0)


def test_scaled_weights_give_the_sums_of_the_weights_times_a_power_of_two():
    rng = np.random.default_rng(2)
    p, y = rng.uniform(size=1000), (rng.uniform(size=1000) < 0.3).astype(float)
    w = rng.uniform(size=1000) * 1e-200
    e = uniform_edges(5)
    from skbrier._core.binning import block_binner

    got = binned_sums(None, 5, y, p, w, bin_into=block_binner(e), exponent=700)
    want = _naive_sums(assign_bins(p, e), 5, y, p, np.ldexp(w, 700))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-13)


@pytest.mark.parametrize("weighted", [False, True])
def test_murphy_decomposition_makes_no_temporary_as_long_as_the_data(weighted):
    """Before: the bin index, ``p * k``, ``w * p``, ``w * p * p`` ... were each
    as long as the data (24 bytes per row unweighted, 40 weighted)."""
    n = 1_000_000
    rng = np.random.default_rng(0)
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p).astype(np.float64)
    w = rng.gamma(2.0, 1.0, n) if weighted else None
    murphy_decomposition(y, p, sample_weight=w)  # warm-up (imports)
    tracemalloc.start()
    try:
        d = murphy_decomposition(y, p, sample_weight=w)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * n, peak  # less than two bytes per row (one float64 is 8)
    assert d.n_samples == n


def test_multiclass_murphy_makes_the_classes_one_at_a_time():
    """Before: every class's 0/1 outcomes and a copy of its column were made
    at once (16 bytes per row and class, 184 bytes per row for 10 classes)."""
    n, k = 200_000, 10
    rng = np.random.default_rng(0)
    P = rng.dirichlet(np.ones(k), n)
    y = rng.integers(0, k, n)
    murphy_decomposition(y, P)  # warm-up
    tracemalloc.start()
    try:
        d = murphy_decomposition(y, P)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 24 * n, peak / n  # the codes and one class's outcomes
    assert len(d.per_class) == k
