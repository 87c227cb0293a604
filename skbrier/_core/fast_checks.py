"""One-pass range checks of probabilities (kernels of :mod:`skbrier._core.validation`).

``False`` from these means "not shown valid", not "invalid": the caller then
takes the exact path, which finds and describes the problem.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "_FUSED_BLOCK",
    "_MINMAX_CHUNK",
    "_fused_range_and_row_sums",
    "_min_max",
    "_probabilities_shown_valid",
    "_row_sum_rtol",
    "_rows_sum_to_one",
]

_MINMAX_CHUNK = 1 << 16
# Largest bit pattern of a probability, as an unsigned integer, per float
# dtype: the patterns of +0.0 .. 1.0 are exactly those at most that of 1.0
# (NaN, infinities and negative numbers, -0.0 included, lie above it).
_MAX_PROBABILITY_BITS = {
    np.dtype(np.float64): (np.uint64, np.uint64(0x3FF0000000000000)),
    np.dtype(np.float32): (np.uint32, np.uint32(0x3F800000)),
}


def _probabilities_shown_valid(p: np.ndarray) -> bool:
    """Whether every value of the native float64/float32 ``p`` is in [+0, 1].

    One integer maximum over the bit patterns (see ``_MAX_PROBABILITY_BITS``).
    ``False`` means "not shown" (NaN, infinity, out of range, or -0.0): the
    caller then takes the exact path.
    """
    uint, max_bits = _MAX_PROBABILITY_BITS[p.dtype]
    return bool(p.view(uint).max() <= max_bits)


def _min_max(arr: np.ndarray):
    """``(arr.min(), arr.max())`` in one pass over memory (chunks stay in cache)."""
    if arr.size <= 2 * _MINMAX_CHUNK or not arr.flags.c_contiguous:
        return arr.min(), arr.max()
    flat = arr.reshape(-1)
    lo = hi = flat[0]
    for i in range(0, flat.shape[0], _MINMAX_CHUNK):
        c = flat[i : i + _MINMAX_CHUNK]
        a, b = c.min(), c.max()
        # NaN propagates as in arr.min(): any comparison with NaN is False
        if a < lo or a != a:
            lo = a
        if b > hi or b != b:
            hi = b
        if lo != lo:
            break
    return lo, hi


# rows of a 2-D probability array summing to 1 within sqrt(eps) (relative, as
# ``np.allclose(s, 1, rtol=sqrt(eps), atol=0)``): 1 -+ 2**-26 are exact floats
# and ``s - 1`` is exact near 1, so the bounds test is the same comparison
_ROW_SUM_RTOL = float(np.sqrt(np.finfo(np.float64).eps))
_ROW_SUM_LO = 1.0 - _ROW_SUM_RTOL
_ROW_SUM_HI = 1.0 + _ROW_SUM_RTOL
# elements of a row block walked by the fused pass (256 KiB of float64: L2)
_FUSED_BLOCK = 1 << 15


def _row_sum_rtol(eps: float) -> float:
    """The tolerance of row sums of probabilities given in a precision of
    machine epsilon ``eps``: its square root, as scikit-learn's check (a
    float32 ``predict_proba`` sums to one only to about 1e-7), and never
    tighter than float64's."""
    return max(_ROW_SUM_RTOL, float(np.sqrt(eps)))


def _rows_sum_to_one(row_sums: np.ndarray, dtype: Any = np.float64) -> bool:
    """Whether every row sum is within the tolerance of 1 (False on NaN);
    ``dtype``: the probabilities' precision as given (:func:`_row_sum_rtol`)."""
    if row_sums.size == 0:
        return True
    dt = np.dtype(dtype)
    rtol = _row_sum_rtol(float(np.finfo(dt).eps)) if dt.kind == "f" else _ROW_SUM_RTOL
    return bool(row_sums.min() >= 1.0 - rtol and row_sums.max() <= 1.0 + rtol)


def _fused_range_and_row_sums(
    p: np.ndarray, visit: Callable[[int, int, np.ndarray], None] | None = None
) -> tuple[bool, bool]:
    """``(shown in [+0, 1], rows sum to one)`` of a C-contiguous 2-D float64 ``p``.

    One pass over memory: each cache-sized block of rows gets the integer
    maximum of its bit patterns (as :func:`_probabilities_shown_valid`) and
    its row sums (a matrix-vector product) while it is in cache; the row
    sums are reduced to their minimum and maximum per block.  Stops at the
    first block not shown in range (the caller then takes the exact path).
    ``visit(start, stop, block)``: a kernel's work on each block shown in
    range, while it is in cache (so that the matrix is read once).
    """
    n, k = p.shape
    rows = max(1, _FUSED_BLOCK // k)
    bits = p.reshape(-1).view(np.uint64)
    max_bits = _MAX_PROBABILITY_BITS[np.dtype(np.float64)][1]
    ones = np.ones(k)
    sums = np.empty(min(rows, n))
    lo, hi = np.inf, -np.inf
    for i in range(0, n, rows):
        j = min(i + rows, n)
        if bits[i * k : j * k].max() > max_bits:
            return False, False
        s = sums[: j - i]
        np.matmul(p[i:j], ones, out=s)
        if visit is not None:
            visit(i, j, p[i:j])
        lo = min(lo, float(s.min()))
        hi = max(hi, float(s.max()))
    return True, bool(lo >= _ROW_SUM_LO and hi <= _ROW_SUM_HI)
