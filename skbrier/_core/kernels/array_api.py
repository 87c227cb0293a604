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

from ..array_api import XPForecast, to_numpy, wide_float
from .brier import class_weights as _class_weights


def class_totals(fc: XPForecast) -> np.ndarray:
    """Host array of the weight of each class (two for 1-D binary input)."""
    return _class_weights(fc.xp, fc.y, fc.proba, fc.sample_weight)


__all__ = [
    "class_totals",
    "class_weights",
    "decision_curves",
    "net_benefit",
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


def class_weights(
    fc: XPForecast, y01: Any, p: Any, thresholds: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Host ``(fn, tp, tn, fp)``: weight of events / non-events below and at or
    above each threshold (a sort and running sums on the device)."""
    xp = fc.xp
    dt = _wide(fc)
    p = xp.astype(p, dt)
    y = xp.astype(y01, dt)
    if fc.sample_weight is None:
        w = xp.ones(p.shape[0], dtype=dt, device=fc.device)
    else:
        w = xp.astype(fc.sample_weight, dt)
    t = xp.asarray(thresholds, dtype=dt, device=fc.device)
    order = xp.argsort(p, stable=True)
    ps = xp.take(p, order)
    pos = xp.searchsorted(ps, t, side="left")
    zero = xp.zeros(1, dtype=dt, device=fc.device)
    out = []
    for cls in (y, 1 - y):
        ws = xp.take(w * cls, order)
        # running sums from each end, so that a zero share is exactly zero
        below = xp.concat([zero, xp.cumulative_sum(ws)])
        above = xp.concat([xp.flip(xp.cumulative_sum(xp.flip(ws))), zero])
        out.append(np.asarray(to_numpy(xp.take(below, pos)), dtype=np.float64))
        out.append(np.asarray(to_numpy(xp.take(above, pos)), dtype=np.float64))
    fn, tp, tn, fp = out
    return fn, tp, tn, fp


def weights_at(fc: XPForecast, threshold: float) -> tuple[float, float]:
    """Weight of events and of non-events with ``p >= threshold`` (1-D binary)."""
    xp = fc.xp
    dt = _wide(fc)
    pos = xp.astype(xp.astype(fc.proba, dt) >= threshold, dt)
    y = xp.astype(fc.y, dt)
    if fc.sample_weight is not None:
        pos = pos * xp.astype(fc.sample_weight, dt)
    return float(xp.sum(pos * y)), float(xp.sum(pos * (1 - y)))


def net_benefit(fc: XPForecast, threshold: float, prevalence: float | None) -> float | None:
    """Net benefit at one threshold, or None when the host must raise (no
    events, or no non-events with a prevalence)."""
    from .net_benefit import net_benefit_from_weights

    w0, w1 = class_totals(fc)
    if not w1 > 0.0 or (prevalence is not None and not w0 > 0.0):
        return None
    tp, fp = weights_at(fc, threshold)
    return net_benefit_from_weights(tp, fp, w1, w0, threshold, prevalence)


def decision_curves(
    y_true: Any,
    models: dict[str, Any],
    sample_weight: Any,
    pos_label: Any,
    thresholds: np.ndarray,
    prevalence: float | None,
    harms: dict[str, float],
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], float] | None:
    """``(net_benefit, interventions_avoided, prevalence used)`` per model, or
    None when the host path must run (numpy input, dispatch off, any doubt)."""
    from ..array_api import array_api_forecast
    from .net_benefit import (
        interventions_avoided,
        shares_from_weights,
        threshold_odds,
    )

    odds = threshold_odds(thresholds)
    nb: dict[str, np.ndarray] = {}
    nia: dict[str, np.ndarray] = {}
    prev_used = None
    for name, proba in models.items():
        fc = array_api_forecast(
            y_true, proba, sample_weight=sample_weight, pos_label=pos_label
        )
        if fc is None or not fc.binary_1d:
            return None
        if prev_used is None:
            w0, w1 = class_totals(fc)
            if not w1 > 0.0 or (prevalence is not None and not w0 > 0.0):
                return None
            prev_used = float(w1 / (w0 + w1)) if prevalence is None else prevalence
        fn, tp, tn, fp = class_weights(fc, fc.y, fc.proba, thresholds)
        s = shares_from_weights(fn, tp, tn, fp, prevalence)
        nb[name] = s.tp - s.fp * odds - harms[name]
        nia[name] = interventions_avoided(s.fn, s.tn, odds, harms[name])
    if prev_used is None:
        return None
    return nb, nia, prev_used


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
