"""Exact order statistics of dask forecasts, for HELM's equal-mass bins.

The equal-mass edges of ``binning="helm"``
(:func:`~skbrier._core.kernels.calibration_error.equal_mass_edges`) need the
forecasts at a few positions of the sorted sample.  One pass sorts each
partition's forecasts (as ``uint64`` keys in the order of the values) with
their weights, persisted when they fit in memory
(:func:`~._graph.persist_limit`); a radix selection then narrows every
position to its forecast: each pass sends the partitions a few key ranges
and gets back, per range, the counts and weights of its 256 sub-ranges (a
range of at most :data:`COLLECT` rows: its distinct keys and their
weights), merged in a tree.  At most 8 passes of 64-bit keys, typically 3
or 4; the client only ever holds sums and a few thousand keys, and the
forecasts found are the in-memory ones, ties and frequency weights included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..._core.kernels.calibration_error import equal_mass_edges
from ..._core.progress import dask_tasks
from ._graph import map_rows, persist_limit, tree_reduce, unwrap, validated_rows

__all__ = ["COLLECT", "equal_mass_edges_of", "float_keys", "key_values"]

#: the most rows of a key range whose keys a pass sends back themselves
COLLECT = 4096
_SPLIT = 256
_TOP = 1 << 64
_SIGN = np.uint64(1 << 63)
#: bytes of one sorted row: its key, weight and cumulative weight
_ROW_BYTES = 24


def float_keys(x: np.ndarray) -> np.ndarray:
    """``uint64`` keys in the order of the float64 values ``x`` (-0.0 as 0.0).

    Examples
    --------
    >>> x = np.array([0.5, -1.0, 0.0, 1e-300])
    >>> np.argsort(float_keys(x)).tolist()
    [1, 2, 3, 0]
    """
    b = np.ascontiguousarray(x + 0.0, dtype=np.float64).view(np.uint64)
    return np.where(b >= _SIGN, ~b, b | _SIGN)


def key_values(k: np.ndarray) -> np.ndarray:
    """The float64 values of :func:`float_keys` keys.

    Examples
    --------
    >>> key_values(float_keys(np.array([0.25, -2.0]))).tolist()
    [0.25, -2.0]
    """
    k = np.asarray(k, dtype=np.uint64)
    return np.where(k >= _SIGN, k & ~_SIGN, ~k).view(np.float64)


class _Sort:
    """``func(y, p, w, cols)`` of :func:`map_rows`: one partition's forecasts
    (validated; ``transform(y, p, w)`` of them when given) as sorted keys with
    their weights ``(keys, w, cumulative w)`` over the rows of positive weight
    (``w`` None: unit weights, every row)."""

    def __init__(self, transform: Callable | None) -> None:
        self.transform = transform

    def __call__(self, y: Any, p: Any, w: Any, cols: dict) -> tuple:
        rows = validated_rows(p, w)
        if rows is None:
            return np.empty(0, np.uint64), None, None
        pv, wv = rows
        if self.transform is not None:
            pv = self.transform(y, pv, wv)
        if wv is not None:
            keep = wv > 0
            pv, wv = pv[keep], wv[keep]
        keys = float_keys(pv)
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        if wv is None:
            return keys, None, None
        ws = wv[order]
        return keys, ws, np.concatenate(([0.0], np.cumsum(ws)))


def _bounds(lo: int, hi: int) -> list[int]:
    """The 257 bounds of the 256 sub-ranges of ``[lo, hi)`` (fewer when narrower)."""
    m = min(_SPLIT, hi - lo)
    return [lo + (hi - lo) * i // m for i in range(m + 1)]


def _index(keys: np.ndarray, bounds: list[int]) -> np.ndarray:
    """The positions of ``bounds`` in the sorted ``keys`` (``2**64``: the end)."""
    inner = np.array([min(b, _TOP - 1) for b in bounds], dtype=np.uint64)
    idx = np.searchsorted(keys, inner, side="left")
    idx[np.array(bounds) >= _TOP] = keys.shape[0]
    return idx


def _answer(keys: np.ndarray, ws: Any, cw: Any, requests: tuple) -> list:
    """Per request ``(lo, hi, collect)``: the counts and weights of its
    sub-ranges, or (``collect``) the keys of ``[lo, hi)`` and their weights."""
    out: list = []
    for lo, hi, collect in requests:
        idx = _index(keys, [lo, hi] if collect else _bounds(lo, hi))
        if collect:
            a, b = int(idx[0]), int(idx[1])
            w = np.ones(b - a) if ws is None else ws[a:b]
            out.append((keys[a:b], w))
            continue
        counts = np.diff(idx).astype(np.float64)
        out.append((counts, counts if cw is None else np.diff(cw[idx])))
    return out


def _ask(part: Any, requests: tuple) -> list:
    keys, ws, cw = unwrap(part)
    return _answer(keys, ws, cw, requests)


def _merge_answers(a: list, b: list) -> list:
    out = []
    for (x1, y1), (x2, y2) in zip(a, b):
        if x1.dtype == np.uint64:  # collected keys
            out.append((np.concatenate((x1, x2)), np.concatenate((y1, y2))))
        else:
            out.append((x1 + x2, y1 + y2))
    return out


class _Target:
    """One position ``j`` being narrowed: the key range ``[lo, hi)`` that holds
    its forecast, the weight below it and the rows in it."""

    def __init__(self, j: float, rows: float) -> None:
        self.j, self.lo, self.hi, self.below, self.rows = j, 0, _TOP, 0.0, rows
        self.value: float | None = None

    def request(self) -> tuple:
        return (self.lo, self.hi, self.rows <= COLLECT)

    def narrow(self, answer: tuple) -> None:
        x, w = answer
        if x.dtype == np.uint64:  # the keys of the range: the forecast itself
            keys, inv = np.unique(x, return_inverse=True)
            cum = self.below + np.cumsum(np.bincount(inv, weights=w))
            i = min(int(np.searchsorted(cum, self.j, side="right")), keys.shape[0] - 1)
            self.value = float(key_values(keys[i : i + 1])[0])
            return
        cum = self.below + np.cumsum(w)
        d = int(np.searchsorted(cum, self.j, side="right"))
        if d == w.shape[0]:  # beyond the total weight: the largest forecast
            d = int(np.flatnonzero(x)[-1])
        bounds = _bounds(self.lo, self.hi)
        self.below = float(cum[d - 1]) if d else self.below
        self.lo, self.hi, self.rows = bounds[d], bounds[d + 1], float(x[d])
        if self.hi - self.lo == 1:  # one key: every row of the range has it
            self.value = float(key_values(np.array([self.lo], dtype=np.uint64))[0])


class _Selection:
    """The sorted partitions and the passes that narrow positions to forecasts."""

    def __init__(self, parts: list) -> None:
        self.parts = parts

    def ask(self, requests: tuple) -> list:
        from dask import delayed

        ask = delayed(_ask, pure=True)
        return tree_reduce([ask(part, requests) for part in self.parts], _merge_answers)

    def values(self, positions: np.ndarray, first: tuple) -> np.ndarray:
        """The forecasts at ``positions``; ``first``: the answer of the whole
        key range (the first pass, shared by every position)."""
        counts = first[0]
        targets = [_Target(float(j), float(counts.sum())) for j in positions]
        for t in targets:
            t.narrow(first)
        while any(t.value is None for t in targets):
            todo = [t for t in targets if t.value is None]
            requests = tuple(dict.fromkeys(t.request() for t in todo))
            answers = dict(zip(requests, self.ask(requests)))
            for t in todo:
                t.narrow(answers[t.request()])
        return np.array([t.value for t in targets], dtype=np.float64)


def equal_mass_edges_of(
    y_true: Any,
    y_proba: Any,
    sample_weight: Any,
    n_bins: int,
    *,
    transform: Callable | None = None,
    check_total: Callable[[float], None] | None = None,
) -> np.ndarray:
    """HELM's equal-mass edges of dask forecasts (``transform(y, p, w)`` of
    them), equal to the in-memory
    :func:`~skbrier._core.kernels.calibration_error.kumar_equal_mass_edges`;
    ``check_total(total weight)``: the caller's check of the weights."""
    import dask

    parts = map_rows(_Sort(transform), y_true, y_proba, sample_weight)
    known = getattr(y_proba, "shape", (None,))[0]
    kept = isinstance(known, int) and known * _ROW_BYTES <= persist_limit()
    if kept:
        with dask_tasks("keeping the sorted forecasts in memory"):
            parts = list(dask.persist(*parts))
    sel = _Selection(parts)
    first = sel.ask(((0, _TOP, False),))[0]
    rows, total = float(first[0].sum()), float(first[1].sum())
    if sample_weight is not None and check_total is not None:
        check_total(total)
    if not kept and rows * _ROW_BYTES <= persist_limit():
        with dask_tasks("keeping the sorted forecasts in memory"):
            sel.parts = list(dask.persist(*parts))
    weighted = sample_weight is not None
    n = int(round(total)) if weighted else int(rows)
    return equal_mass_edges(lambda j: sel.values(j, first), n, n_bins, weighted=weighted)
