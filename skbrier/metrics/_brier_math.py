"""Brier score arithmetic on validated arrays (no validation here).

The public functions in :mod:`skbrier.metrics.brier` validate their input
once and call these kernels; other modules (scorers, inference,
decomposition) call them on arrays they have validated themselves.
"""

from __future__ import annotations

import numpy as np


def weighted_mean(x: np.ndarray, w: np.ndarray | None) -> float:
    """Mean of ``x`` with optional weights ``w`` (``sum(w*x)/sum(w)``)."""
    if w is None:
        return float(np.mean(x))
    return float(np.dot(w, x) / w.sum())


def binary_squared_errors(y01: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Per-sample squared error ``(p - y)**2`` of binary forecasts."""
    d = p - y01
    d *= d
    return d


# Block length of the chunked binary kernel: three float64 buffers of this
# length stay in the L2 cache, so the seven elementwise passes cost little
# more than one pass over memory.
_BLOCK = 1 << 16


def binary_two_column_errors(y01: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Per-sample ``((1 - y) - (1 - p))**2 + (y - p)**2``, twice the squared error.

    This is, operation for operation, what scikit-learn's ``brier_score_loss``
    sums for 1-D binary input (it stacks ``[1 - p, p]`` against the one-hot
    target), so that halving its mean reproduces scikit-learn to the last
    bit.  ``y01`` may be float or integer 0/1.  Computed in cache-sized blocks.
    """
    n = p.shape[0]
    out = np.empty(n, dtype=np.float64)
    m = min(n, _BLOCK)
    q = np.empty(m)
    b = np.empty(m)
    for i in range(0, n, _BLOCK):
        j = min(i + _BLOCK, n)
        k = j - i
        pc, yc, qq, bb, oo = p[i:j], y01[i:j], q[:k], b[:k], out[i:j]
        np.subtract(1.0, pc, out=qq)
        np.subtract(1.0, yc, out=oo, casting="unsafe")
        np.subtract(oo, qq, out=oo)
        np.multiply(oo, oo, out=oo)
        np.subtract(yc, pc, out=bb, casting="unsafe")
        np.multiply(bb, bb, out=bb)
        np.add(oo, bb, out=oo)
    return out


def _halved_mean(s: np.ndarray, w: np.ndarray | None) -> float:
    # scikit-learn: mean (or sum(s * w) / sum(w)) first, then * 0.5
    if w is None:
        return float(np.mean(s) * 0.5)
    np.multiply(s, w, out=s)
    return float(np.sum(s) / np.sum(w) * 0.5)


def binary_brier(y01: np.ndarray, p: np.ndarray, w: np.ndarray | None = None) -> float:
    """Binary Brier score ``sum(w (p - y)^2) / sum(w)`` of 0/1 outcomes ``y01``.

    Bit for bit equal to ``sklearn.metrics.brier_score_loss`` on 1-D input.
    """
    return _halved_mean(binary_two_column_errors(y01, p), w)


def multiclass_squared_errors(codes: np.ndarray, proba: np.ndarray) -> np.ndarray:
    """Per-sample ``sum_k (p_ik - 1[y_i = k])^2`` for integer class codes.

    Squares the same differences and reduces the rows with the same
    ``np.sum(axis=1)`` as scikit-learn, so results agree to the last bit.
    Works in cache-sized blocks of rows.
    """
    n, k = proba.shape
    out = np.empty(n, dtype=np.float64)
    rows = max(1, (1 << 15) // k)
    buf = np.empty((min(rows, n), k))
    flat_row_start = np.arange(min(rows, n)) * k
    for i in range(0, n, rows):
        j = min(i + rows, n)
        m = j - i
        pc = proba[i:j]
        d = buf[:m]
        np.multiply(pc, pc, out=d)  # (0 - p)^2 for the other classes
        idx = flat_row_start[:m] + codes[i:j]
        q = pc.reshape(-1)[idx] - 1.0
        d.reshape(-1)[idx] = q * q  # (1 - p)^2 for the observed class
        np.sum(d, axis=1, out=out[i:j])
    return out


def multiclass_brier(
    codes: np.ndarray, proba: np.ndarray, w: np.ndarray | None = None
) -> float:
    """Multiclass Brier score on the [0, 2] scale (mean over samples of the summed score)."""
    s = multiclass_squared_errors(codes, proba)
    if w is None:
        return float(np.mean(s))
    return float(np.sum(s * w) / np.sum(w))


def forecast_brier(fc, *, scale_by_half="auto") -> float:
    """Brier score of a validated :class:`skbrier._validation.Forecast`.

    ``scale_by_half="auto"`` follows scikit-learn: 1-D and two-column input are
    on the [0, 1] scale, three or more columns on the [0, 2] scale.
    """
    if fc.binary_1d:
        bs = binary_brier(fc.y, fc.proba, fc.sample_weight)
        # 1-D binary input is on the [0, 1] scale; unhalved it is the
        # two-column sum (1 - y - (1 - p))^2 + (y - p)^2 = 2 (y - p)^2
        return bs if (scale_by_half == "auto" or scale_by_half) else 2.0 * bs
    bs2 = multiclass_brier(fc.y, fc.proba, fc.sample_weight)
    if scale_by_half == "auto":
        half = fc.proba.shape[1] < 3
    else:
        half = bool(scale_by_half)
    return 0.5 * bs2 if half else bs2


def unit_scale_brier(fc) -> float:
    """Brier score on the [0, 1] scale (binary BS; multiclass summed BS / 2)."""
    if fc.binary_1d:
        return binary_brier(fc.y, fc.proba, fc.sample_weight)
    return 0.5 * multiclass_brier(fc.y, fc.proba, fc.sample_weight)


def brier_index_from_score(bs01: float) -> float:
    """Brier Index ``100 (1 - sqrt(BS))`` from a Brier score on the [0, 1] scale."""
    return float(100.0 * (1.0 - np.sqrt(bs01)))


def climatology_brier(fc) -> float:
    """Brier score of the constant forecast equal to the (weighted) class
    frequencies of the outcomes (climatology).

    1-D binary input: ``o(1 - o)`` on the [0, 1] scale.  K columns (K >= 2):
    ``sum_k o_k (1 - o_k)`` on the unhalved [0, 2] scale, the scale of
    :func:`multiclass_brier`.
    """
    w = fc.sample_weight
    if fc.binary_1d:
        o = weighted_mean(fc.y, w)
        return o * (1.0 - o)
    k = fc.proba.shape[1]
    counts = np.bincount(fc.y, weights=w, minlength=k)
    freq = counts / counts.sum()
    return float(np.sum(freq * (1.0 - freq)))
