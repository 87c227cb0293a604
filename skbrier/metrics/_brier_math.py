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


# Leaf length of the chunked binary kernel: two float64 buffers of this length
# stay in the L2 cache, so the seven elementwise passes of a leaf cost little
# more than one pass over memory, and no array of length n is allocated.
_LEAF = 1 << 15


def _two_column_errors_into(out, tmp, y01, p):
    """``out = ((1 - y) - (1 - p))**2 + (y - p)**2`` elementwise (``tmp`` is scratch)."""
    np.subtract(1.0, p, out=tmp)
    np.subtract(1.0, y01, out=out, casting="unsafe")
    np.subtract(out, tmp, out=out)
    np.multiply(out, out, out=out)
    np.subtract(y01, p, out=tmp, casting="unsafe")
    np.multiply(tmp, tmp, out=tmp)
    np.add(out, tmp, out=out)
    return out


def binary_two_column_errors(y01: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Per-sample ``((1 - y) - (1 - p))**2 + (y - p)**2``, twice the squared error.

    This is, operation for operation, what scikit-learn's ``brier_score_loss``
    sums for 1-D binary input (it stacks ``[1 - p, p]`` against the one-hot
    target).  ``y01`` may be float or integer 0/1.
    """
    return _two_column_errors_into(np.empty(p.shape[0]), np.empty(p.shape[0]), y01, p)


def _pairwise_sum(y01, p, w, start, n, out, tmp) -> float:
    # numpy's add.reduce of a contiguous float64 array is a pairwise sum that
    # splits n into n2 = n // 2 - (n // 2) % 8 and n - n2 until the pieces are
    # small; following the same splits down to cache-sized leaves and reducing
    # each leaf with add.reduce gives the very same float as reducing the
    # whole array, without ever materialising it.
    if n <= _LEAF:
        o = _two_column_errors_into(out[:n], tmp[:n], y01[start:start + n],
                                    p[start:start + n])
        if w is not None:
            np.multiply(o, w[start:start + n], out=o)
        return float(np.add.reduce(o))
    n2 = n // 2
    n2 -= n2 % 8
    left = _pairwise_sum(y01, p, w, start, n2, out, tmp)
    return left + _pairwise_sum(y01, p, w, start + n2, n - n2, out, tmp)


def binary_brier(y01: np.ndarray, p: np.ndarray, w: np.ndarray | None = None) -> float:
    """Binary Brier score ``sum(w (p - y)^2) / sum(w)`` of 0/1 outcomes ``y01``.

    Bit for bit equal to ``sklearn.metrics.brier_score_loss`` on 1-D input,
    which computes ``mean(s) * 0.5`` (or ``sum(s * w) / sum(w) * 0.5``) with
    ``s`` from :func:`binary_two_column_errors`; here in cache-sized leaves.
    """
    n = p.shape[0]
    m = min(n, _LEAF)
    total = _pairwise_sum(y01, p, w, 0, n, np.empty(m), np.empty(m))
    if w is None:
        return float(np.float64(total) / n * 0.5)
    return float(np.float64(total) / np.sum(w) * 0.5)


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
