"""A mergeable uniform subsample (bottom-k of random keys) with exact sums.

Each row gets a uniform random key; a state keeps the ``size`` rows with the
smallest keys and the merge of two states keeps the smallest of both, so the
merged state holds a uniform sample without replacement of ``min(n, size)``
rows whatever the partitioning.  The keys of a chunk come from a generator
seeded by ``seed`` and the chunk's content (its length and a CRC-32 of its
probabilities): the sample is reproducible for the same data, seed and
partitioning.  The exact sums ``[rows, sum w, sum w p]`` and the range of the
forecasts in (0, 1) with positive weight are kept beside it.
"""

from __future__ import annotations

import math
import zlib
from typing import Any

import numpy as np

from .._core.params import check_int
from ._base import BinaryState

__all__ = ["SampleState"]


class _Part:
    __slots__ = ("keys", "p", "w", "sums")

    def __init__(self, keys, p, w, sums) -> None:
        self.keys, self.p, self.w, self.sums = keys, p, w, sums


def _bottom(keys, p, w, size):
    if keys.shape[0] <= size:
        return keys, p, w
    idx = np.argpartition(keys, size - 1)[:size]
    return keys[idx], p[idx], None if w is None else w[idx]


class SampleState(BinaryState):
    """Uniform subsample of at most ``size`` rows, with exact weighted sums.

    Parameters
    ----------
    size : int
        The most rows kept.
    seed : int
        Seed of the random keys (with each chunk's content).
    pos_label : int, float, bool or str, default=None
        The positive class.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.states import SampleState
    >>> a = SampleState(3, seed=0).update(np.array([0, 1, 1, 0]), np.array([.1, .8, .6, .3]))
    >>> b = SampleState(3, seed=0).update(np.array([1, 0]), np.array([.9, .2]))
    >>> y, p, w = a.merge(b).sample()
    >>> y.shape, w is None
    ((3,), True)
    """

    def __init__(self, size: int, *, seed: int, pos_label: Any = None) -> None:
        super().__init__(pos_label=pos_label)
        self.size = check_int(size, "size", minimum=1)
        self.seed = check_int(seed, "seed", minimum=0)

    def _chunk(self, p, w, extra):
        crc = zlib.crc32(np.ascontiguousarray(p).tobytes())
        rng = np.random.default_rng([self.seed, p.shape[0], crc])
        keys = rng.random(p.shape[0])
        used = (p > 0.0) & (p < 1.0)
        if w is None:
            sums = np.array([p.shape[0], p.shape[0], p.sum()], dtype=np.float64)
        else:
            sums = np.array([p.shape[0], w.sum(), np.dot(w, p)], dtype=np.float64)
            used &= w > 0
        lo = float(p[used].min()) if used.any() else math.inf
        hi = float(p[used].max()) if used.any() else -math.inf
        k, pp, ww = _bottom(keys, p, w, self.size)
        return _Part(k, pp.copy(), None if ww is None else ww.copy(), (sums, lo, hi))

    def _add(self, a, b):
        ws = (
            None
            if a.w is None and b.w is None
            else (
                np.concatenate(
                    [
                        np.ones_like(a.p) if a.w is None else a.w,
                        np.ones_like(b.p) if b.w is None else b.w,
                    ]
                )
            )
        )
        k, p, w = _bottom(
            np.concatenate([a.keys, b.keys]), np.concatenate([a.p, b.p]), ws, self.size
        )
        sums = (a.sums[0] + b.sums[0], min(a.sums[1], b.sums[1]), max(a.sums[2], b.sums[2]))
        return _Part(k, p, w, sums)

    def _weight_of(self, sums: Any) -> float:
        return float(sums.sums[0][1])

    def totals(self) -> tuple[float, float, float, float, float]:
        """``(n, W, sum w y, sum w p, ptp)``: rows, total weight, weighted events,
        weighted forecasts and the range of the forecasts in (0, 1) with
        positive weight (0 for a constant forecast)."""
        n = wt = wy = wp = 0.0
        lo, hi = math.inf, -math.inf
        for v, part in self.encoded():
            s, a, b = part.sums
            n += s[0]
            wt += s[1]
            wy += v * s[1]
            wp += s[2]
            lo, hi = min(lo, a), max(hi, b)
        return n, wt, wy, wp, (hi - lo if hi >= lo else 0.0)

    def sample(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``(y01, p, w)`` of the sample (w None for unweighted rows), in the
        order of the random keys (ties by the values): the same arrays
        whatever the order in which the states were merged."""
        parts = self.encoded()
        weighted = self.weighted
        keys = np.concatenate([t.keys for _, t in parts])
        y = np.concatenate([np.full(t.p.shape[0], v) for v, t in parts])
        p = np.concatenate([t.p for _, t in parts])
        w = (
            np.concatenate([np.ones_like(t.p) if t.w is None else t.w for _, t in parts])
            if weighted
            else None
        )
        o = np.lexsort((p, y, keys) if w is None else (w, p, y, keys))[: self.size]
        return y[o], p[o], None if w is None else w[o]

    def finalize(self):
        """Same as :meth:`sample`."""
        return self.sample()
