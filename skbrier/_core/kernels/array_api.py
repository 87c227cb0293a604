"""The core metrics on Array API arrays (PyTorch, CuPy, JAX, array-api-strict).

Each function here takes an :class:`skbrier._core.array_api.XPForecast` (validated
in the input's namespace, on its device) and computes the sums a metric
needs with that namespace's own operations; only those sums (scalars, or one
value per bin or threshold) come to the host, where the same host formulas
as for numpy input finish (:func:`~skbrier._core.kernels.brier.skill_score`,
:func:`~skbrier._core.kernels.brier.brier_index_from_score`,
:func:`~skbrier.metrics.decomposition.murphy_from_statistics`,
:func:`~skbrier._core.kernels.net_benefit.shares_from_weights` ...).

The public functions call these after
:func:`skbrier._core.array_api.array_api_forecast` returned a forecast, i.e. only
when scikit-learn's ``array_api_dispatch`` is on and ``y_proba`` is not a
numpy array.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..array_api import XPForecast, wide_float
from .brier import class_weights as _class_weights


def class_totals(fc: XPForecast) -> np.ndarray:
    """Host array of the weight of each class (two for 1-D binary input)."""
    return _class_weights(fc.xp, fc.y, fc.proba, fc.sample_weight)


__all__ = [
    "class_totals",
]

# rows per block of the one-hot products (bounded device memory)
_BLOCK_ELEMENTS = 1 << 24


def _wide(fc: XPForecast) -> Any:
    """float64 where the device has it (sums of float32 data are accumulated there)."""
    return wide_float(fc.xp, fc.device)


def _onehot(fc: XPForecast, codes: Any, k: int, dtype: Any) -> Any:
    xp = fc.xp
    cols = xp.arange(k, device=fc.device)
    return xp.astype(codes[:, None] == cols[None, :], dtype)


def multiple_choice(
    y_true: Any,
    y_score: Any,
    convention: str,
    from_logprobs: bool,
    sample_weight: Any,
) -> float | None:
    """Multiple-choice Brier score of rectangular ``(n, K)`` scores in their
    namespace, or None (numpy input, dispatch off, or any doubt: the host
    path validates and raises)."""
    import warnings

    from ..array_api import _float_dtype, _move, dispatch_namespace

    ns = dispatch_namespace(y_score)
    if ns is None:
        return None
    xp, device = ns
    s = y_score
    if s.ndim != 2 or s.shape[0] == 0 or s.shape[1] == 0:
        return None
    if not xp.isdtype(s.dtype, ("real floating", "integral")):
        return None
    dt = _float_dtype(xp, s, device)
    s = xp.astype(s, dt)
    n, k = int(s.shape[0]), int(s.shape[1])
    if from_logprobs:
        row_max = xp.max(s, axis=1)
        ok = ~xp.any(xp.isnan(s)) & ~xp.any(s == xp.inf) & xp.all(row_max > -xp.inf)
        if not bool(ok):
            return None
        e = xp.exp(s - row_max[:, None])
        proba = e / xp.sum(e, axis=1)[:, None]
    else:
        if not bool(xp.all((s >= 0) & (s <= 1))):
            return None
        wide = wide_float(xp, device)
        rows = xp.sum(xp.astype(s, wide), axis=1)
        if not bool(xp.all(xp.abs(rows - 1) <= float(np.sqrt(np.finfo(np.float64).eps)))):
            warnings.warn(
                "Some rows of y_score do not sum to one. Make sure to pass probabilities "
                "(or from_logprobs=True).",
                UserWarning,
                stacklevel=3,
            )
        proba = s
    y = _move(y_true, xp, device)
    if y.ndim == 1:
        if int(y.shape[0]) != n or not xp.isdtype(y.dtype, "integral"):
            return None
        if not bool(xp.all((y >= 0) & (y < k))):
            return None
        t = xp.astype(y[:, None] == xp.arange(k, device=device)[None, :], dt)
    elif y.ndim == 2 and tuple(y.shape) == (n, k):
        if not xp.isdtype(y.dtype, ("real floating", "integral", "bool")):
            return None
        t = xp.astype(y, dt)
        t_max = xp.max(t, axis=1)
        if not bool(xp.all(xp.isfinite(t)) & xp.all(t >= 0) & xp.all(t_max > 0)):
            return None
        t = t / t_max[:, None]
        t = t / xp.sum(t, axis=1)[:, None]
    else:
        return None
    if convention == "per_example":
        d = proba - t
        num = xp.sum(d * d, axis=1)
        den = xp.ones(n, dtype=dt, device=device)
    else:
        num = xp.sum(t * (proba - 1) ** 2 + (1 - t) * proba**2, axis=1)
        den = xp.full(n, float(k), dtype=dt, device=device)
    if sample_weight is None:
        return float(xp.sum(num) / xp.sum(den))
    w = _move(sample_weight, xp, device)
    if w.ndim != 1 or int(w.shape[0]) != n:
        return None
    w = xp.astype(w, dt)
    if not bool(xp.all(xp.isfinite(w)) & xp.all(w >= 0) & (xp.sum(w) > 0)):
        return None
    ws = w / xp.max(w)  # scale-free, as the host's weighted_mean
    return float(xp.sum(ws * num) / xp.sum(ws * den))
