"""Counted bootstraps of long columns run in chunks of several resamples.

From about 1.3e5 rows a chunk of the (unweighted) bootstrap that counts its
draws holds up to :data:`~skbrier._core.resampling.COUNTED_BATCH` resamples,
drawn one resample at a time, into a buffer reused by every chunk of the run
(:class:`~skbrier._core.resampling.Scratch`); the calibration report's refits
reuse theirs.  These tests check that nothing of a chunk leaks into the next
(the last chunk is shorter than the others), that the draws are those of
:func:`~skbrier._core.resampling.resample_indices` with the children of the
seed that :func:`~skbrier._core.resampling.run_replicates` hands each chunk,
that threads give the same numbers, and that the report still refits its
logistic calibration on the Brier score's resamples.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from scipy import special

from skbrier._core.resampling import (
    COUNTED_BATCH,
    COUNTED_ELEMENTS,
    Scratch,
    chunk_size_for,
    counted_batch,
    resample_indices,
)
from skbrier.stats.bootstrap import bootstrap_distribution

N = 200_003  # odd, and long enough for chunks of COUNTED_BATCH resamples
B = 2 * COUNTED_BATCH + 3  # the last chunk is shorter


def _counted(n, b, seed, n_jobs=None, scheme="iid"):
    loss = np.random.default_rng(1).random(n)

    def total(*cols, axis=-1):
        return np.sum(cols[0] * cols[-1], axis=axis)[None]

    dist = bootstrap_distribution(
        [loss],
        total,
        scheme=scheme,
        block_length=3.0,
        n_resamples=b,
        random_state=seed,
        n_jobs=n_jobs,
        counts_statistic=total,
        companion=lambda counts: counts.copy(),
    )
    return loss, dist[0], dist[1:].T


def test_chunk_sizes():
    assert chunk_size_for(N) < COUNTED_BATCH == counted_batch(N)
    assert counted_batch(COUNTED_ELEMENTS // 3) == 3
    assert counted_batch(10**8) == 0  # then chunk_size_for's 2 holds


def test_counted_draws_are_the_seeds_children():
    loss, stat, counts = _counted(N, B, seed=11)
    children = np.random.default_rng(11).spawn(3)
    want = []
    for child, size in zip(children, (COUNTED_BATCH, COUNTED_BATCH, 3)):
        idx = resample_indices(child, N, size)
        want += [np.bincount(i, minlength=N) for i in idx]
    np.testing.assert_array_equal(counts, np.array(want, dtype=float))
    # each replicate is the statistic of its own counts (no stale rows)
    np.testing.assert_allclose(stat, counts @ loss, rtol=1e-12)
    assert (counts.sum(axis=1) == N).all()


@pytest.mark.parametrize("scheme", ["iid", "moving_block"])
def test_threads_give_the_same_replicates(scheme):
    _, one, c1 = _counted(N, B, seed=3, scheme=scheme)
    _, two, c2 = _counted(N, B, seed=3, n_jobs=2, scheme=scheme)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(c1, c2)


def test_scratch_is_per_thread_and_grows():
    s = Scratch()
    a = s.rows(2, 5)
    assert a.shape == (2, 5)
    assert s.rows(1, 5).base is a.base  # reused
    assert s.rows(3, 5).shape == (3, 5)  # grown
    assert s.rows(2, 6).shape == (2, 6)  # another length
    other = []
    t = threading.Thread(target=lambda: other.append(s.rows(2, 6)))
    t.start()
    t.join()
    assert other[0].base is not s.rows(2, 6).base


@pytest.mark.filterwarnings("ignore:.*left out of the logistic calibration")
def test_report_refits_on_the_brier_resamples_of_long_columns():
    from skbrier._core.resampling import interval_from_replicates
    from skbrier.metrics import calibration_intercept_slope
    from skbrier.report import calibration_report
    from skbrier.stats import brier_inference

    rng = np.random.default_rng(8)
    x = rng.standard_normal(N)
    y = (rng.random(N) < special.expit(-1.0 + x)).astype(np.float64)
    p = special.expit(0.3 + 1.5 * (-1.0 + x))
    kw = {"cov_type": "bootstrap", "random_state": 7, "n_resamples": B}
    rep = calibration_report(y, p, **kw)
    inf = brier_inference(y, p, **kw)
    assert rep.confidence_interval(metric="brier_index") == pytest.approx(
        tuple(inf.confidence_interval(metric="brier_index"))
    )
    children = np.random.default_rng(7).spawn(3)
    counts = [
        np.bincount(i, minlength=N)
        for child, size in zip(children, (COUNTED_BATCH, COUNTED_BATCH, 3))
        for i in resample_indices(child, N, size)
    ]
    fits = [calibration_intercept_slope(y, p, sample_weight=c) for c in counts]
    want = interval_from_replicates(np.array([f.slope for f in fits]), 0.95)
    got = rep.confidence_interval(metric="calibration_slope")
    assert got == pytest.approx(tuple(want), rel=1e-9)


def test_fractional_weights_chunks():
    """The multinomial draws of fractional weights fill the same reused buffer."""
    rng = np.random.default_rng(4)
    loss, w = rng.random(N), rng.uniform(0.5, 2.0, N)
    draws = round(float(w.sum()))

    def total(*cols, axis=-1):
        return np.sum(cols[0] * cols[-1], axis=axis)[None]

    def run(n_jobs):
        return bootstrap_distribution(
            [loss, w],
            total,
            scheme="iid",
            block_length=1.0,
            n_resamples=B,
            random_state=5,
            n_jobs=n_jobs,
            draws=draws,
            companion=lambda counts: counts.copy(),
        )

    one, two = run(None), run(2)
    np.testing.assert_array_equal(one, two)
    counts = one[1:].T
    assert (counts.sum(axis=1) == draws).all()
    np.testing.assert_allclose(one[0], counts @ loss, rtol=1e-12)
    assert len({c.tobytes() for c in counts}) == B  # no chunk repeats a buffer
