"""``brier_score`` on persisted dask chunks: one fused pass per chunk (issue
25: it took 4.7 times the hand-written ``((p - y) ** 2).mean()``).

Each partition's task validates and reduces its rows in one pass over
cache-sized leaves (:func:`skbrier.states._sums.sums_01`): no separate
validation pass, no split of the rows by label, no BLAS call.  The fused
path must give the state of the general path (to rounding) and fall back to
it, with its errors, whenever a leaf is not shown valid."""

from __future__ import annotations

import math

import numpy as np
import pytest

import skbrier
from skbrier.states import BrierState, _sums
from skbrier.states import _base as states_base

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")


def _data(n=20_000, seed=0, dtype=np.int64):
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    y = (rng.random(n) < p).astype(dtype)
    w = rng.uniform(0.0, 3.0, n)
    return y, p, w


def _general(monkeypatch):
    """Turn the fused path off (the general path: validate, split by label)."""
    monkeypatch.setattr(BrierState, "_reduce_01", lambda self, y, p, w: None)


def _states(y, p, w, cuts, **options):
    s = BrierState(**options)
    for lo, hi in zip((0, *cuts), (*cuts, y.shape[0])):
        s.update(y[lo:hi], p[lo:hi], None if w is None else w[lo:hi])
    return s


def _numbers(s):
    return [s.finalize(), s.skill(), s.reference_score(0.3), *s.class_weights()]


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint8, bool, np.float64])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(
    "cuts",
    [(), (7_000, 13_000), (50_000,)],  # one chunk; three; the last one empty
)
def test_fused_path_equals_the_general_path(dtype, weighted, cuts, monkeypatch):
    y, p, w = _data(dtype=dtype)
    w = w if weighted else None
    cuts = tuple(c for c in cuts if c < y.shape[0])
    fused = _numbers(_states(y, p, w, cuts))
    _general(monkeypatch)
    general = _numbers(_states(y, p, w, cuts))
    np.testing.assert_allclose(fused, general, rtol=1e-13)
    exact = skbrier.brier_score(y, p, sample_weight=w)
    assert fused[0] == pytest.approx(exact, rel=1e-13)


@pytest.mark.parametrize("pos_label", [None, 1, 0, True])
def test_single_label_chunks_keep_both_outcomes(pos_label, monkeypatch):
    """Chunks of one label (sorted data) merge with mixed chunks into the
    in-memory numbers, whichever class turns out to be positive."""
    y, p, w = _data(dtype=np.int64)
    order = np.argsort(y, kind="stable")
    y, p, w = y[order], p[order], w[order]
    n0 = int(np.count_nonzero(y == 0))
    cuts = (n0 // 2, n0, n0 + 500)  # all 0, all 0, all 1, the rest of the 1s
    cuts2 = (n0 - 300, n0 + 300)  # a mixed chunk in the middle
    kw = {} if pos_label is None else {"pos_label": pos_label}
    exact = skbrier.brier_score(y, p, sample_weight=w, **kw)
    for c in (cuts, cuts2):
        assert _states(y, p, w, c, **kw).finalize() == pytest.approx(exact, rel=1e-13)


def test_a_chunk_not_shown_valid_takes_the_general_path_and_its_errors():
    y, p, _ = _data(dtype=np.int64)
    bad = p.copy()
    bad[12_345] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        BrierState().update(y, bad)
    bad[12_345] = 1.5
    with pytest.raises(ValueError, match="probabilities"):
        BrierState().update(y, bad)
    w = np.ones(y.shape[0])
    w[3] = -1.0
    with pytest.raises(ValueError, match="sample_weight"):
        BrierState().update(y, p, w)
    # a third label: the in-memory message, with the counts over all chunks
    s = BrierState().update(y, p).update(np.full(2, 2), p[:2])
    with pytest.raises(ValueError, match="2 \\(2 rows\\)"):
        s.finalize()
    # -0.0 is not shown in [+0, 1] by the bit pattern: the general path takes it
    z = p.copy()
    z[0] = -0.0
    assert BrierState().update(y, z).finalize() == pytest.approx(
        skbrier.brier_score(y, z), rel=1e-13
    )


def test_hard_forecasts_still_warn():
    from skbrier.exceptions import HardForecastWarning

    y = np.array([0, 1, 1, 0])
    # judged on all the rows, so given when the state is finished (a chunk of
    # 0/1 forecasts beside soft ones is no sign of class predictions)
    with pytest.warns(HardForecastWarning):
        BrierState().update(y, y.astype(np.float64)).finalize()


def test_one_fused_pass_per_chunk_and_no_general_validation(monkeypatch):
    """The work of each partition: one call of the fused reduction, no call of
    the general validation (check_probabilities) or of the label split."""
    y, p, w = _data(60_000, seed=3)
    calls = {"fused": 0, "general": 0}
    real = _sums.sums_01

    def fused(*args):
        calls["fused"] += 1
        return real(*args)

    def general(*args, **kwargs):
        calls["general"] += 1
        raise AssertionError("the general path ran")

    monkeypatch.setattr(_sums, "sums_01", fused)
    monkeypatch.setattr(states_base, "_chunk_labels", general)
    with dask.config.set(scheduler="sync"):
        yd, pd_, wd = (da.from_array(a, chunks=10_000).persist() for a in (y, p, w))
        for weights in (None, wd):
            calls["fused"] = 0
            got = skbrier.brier_score(yd, pd_, sample_weight=weights)
            assert calls == {"fused": 6, "general": 0}
            exp = skbrier.brier_score(y, p, sample_weight=None if weights is None else w)
            assert got == pytest.approx(exp, rel=1e-13)


def test_the_graph_is_one_task_per_chunk_and_a_tree():
    from skbrier._backends._dask._graph import SPLIT_EVERY, build_graph

    y, p, _ = _data(60_000)
    yd, pd_ = (da.from_array(a, chunks=6_000).persist() for a in (y, p))
    root, n_parts = build_graph(BrierState(), yd, pd_, None)
    tasks = dict(root.__dask_graph__())
    merges = math.ceil(n_parts / SPLIT_EVERY) + 1  # 10 chunks: 2 merges, then the root
    chunks = 2 * n_parts  # the persisted chunks of y and p
    # one task per partition, the tree of merges and the shared update function
    assert len(tasks) == chunks + n_parts + merges + 1
