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


def binary_brier(y01: np.ndarray, p: np.ndarray, w: np.ndarray | None = None) -> float:
    """Binary Brier score ``sum(w (p - y)^2) / sum(w)`` of 0/1 outcomes ``y01``."""
    d = p - y01
    if w is None:
        return float(np.dot(d, d) / d.shape[0])
    return float(np.dot(w * d, d) / w.sum())


def multiclass_squared_errors(codes: np.ndarray, proba: np.ndarray) -> np.ndarray:
    """Per-sample ``sum_k (p_ik - 1[y_i = k])^2`` for integer class codes."""
    d = proba.copy()
    d[np.arange(d.shape[0]), codes] -= 1.0
    return np.einsum("ij,ij->i", d, d)


def multiclass_brier(
    codes: np.ndarray, proba: np.ndarray, w: np.ndarray | None = None
) -> float:
    """Multiclass Brier score on the [0, 2] scale (mean over samples of the summed score)."""
    return weighted_mean(multiclass_squared_errors(codes, proba), w)


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
