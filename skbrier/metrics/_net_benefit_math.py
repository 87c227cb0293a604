"""Validation-free kernels for net benefit and decision curves.

Inputs are already validated float64 arrays: ``y`` holds 0/1 outcomes,
``p`` probabilities in [0, 1], ``w`` non-negative weights or None, and
``thresholds`` values in (0, 1).  "Positive" means ``p >= threshold``.

All thresholds are handled at once: the probabilities of each class are
sorted once, and ``np.searchsorted`` gives, for every threshold, how many
(or, with weights, how much weight) lie at or above it.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "class_weights_above",
    "net_benefit_at",
    "net_benefit_curve",
    "threshold_odds",
    "treat_all_curve",
]


def threshold_odds(thresholds: np.ndarray) -> np.ndarray:
    """Harm-to-benefit exchange rate pt / (1 - pt)."""
    return thresholds / (1.0 - thresholds)


def _weight_at_or_above(
    p: np.ndarray, w: np.ndarray | None, thresholds: np.ndarray
) -> np.ndarray:
    """Total weight (or count) of the entries of ``p`` that are >= each threshold."""
    if p.shape[0] == 0:
        return np.zeros(thresholds.shape[0], dtype=np.float64)
    if w is None:
        ps = np.sort(p)
        below = np.searchsorted(ps, thresholds, side="left")
        return (p.shape[0] - below).astype(np.float64)
    order = np.argsort(p, kind="stable")
    ps = p[order]
    # weight at or above position k, summed from the top (no cancellation)
    above = np.empty(p.shape[0] + 1, dtype=np.float64)
    above[:-1] = np.cumsum(w[order][::-1])[::-1]
    above[-1] = 0.0
    below = np.searchsorted(ps, thresholds, side="left")
    return above[below]


def class_weights_above(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, thresholds: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Weighted true and false positives at every threshold.

    Returns ``(tp, fp, w1, w0)``: the weight of events and of non-events with
    ``p >= threshold``, and the total weight of events and of non-events.
    """
    event = y == 1.0
    p1 = p[event]
    p0 = p[~event]
    if w is None:
        w1_arr = w0_arr = None
        w1 = float(p1.shape[0])
        w0 = float(p0.shape[0])
    else:
        w1_arr = w[event]
        w0_arr = w[~event]
        w1 = float(w1_arr.sum())
        w0 = float(w0_arr.sum())
    tp = _weight_at_or_above(p1, w1_arr, thresholds)
    fp = _weight_at_or_above(p0, w0_arr, thresholds)
    return tp, fp, w1, w0


def net_benefit_curve(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    thresholds: np.ndarray,
    prevalence: float | None = None,
) -> np.ndarray:
    r"""Net benefit at every threshold.

    Without ``prevalence``: :math:`(TP - FP \cdot o) / W` with
    :math:`o = p_t / (1 - p_t)` and :math:`W` the total weight.  With a
    (case-control) ``prevalence`` :math:`\pi`:
    :math:`\pi \, TP / W_1 - (1 - \pi) \, FP / W_0 \cdot o`; this is NaN where a
    class is absent.
    """
    tp, fp, w1, w0 = class_weights_above(y, p, w, thresholds)
    odds = threshold_odds(thresholds)
    if prevalence is None:
        return (tp - fp * odds) / (w1 + w0)
    with np.errstate(divide="ignore", invalid="ignore"):
        tpr = tp / w1 if w1 > 0 else np.full_like(tp, np.nan)
        fpr = fp / w0 if w0 > 0 else np.full_like(fp, np.nan)
    return prevalence * tpr - (1.0 - prevalence) * fpr * odds


def treat_all_curve(prevalence: float, thresholds: np.ndarray) -> np.ndarray:
    """Net benefit of treating everyone: prevalence - (1 - prevalence) pt / (1 - pt)."""
    return prevalence - (1.0 - prevalence) * threshold_odds(thresholds)


def net_benefit_at(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    threshold: float,
    prevalence: float | None = None,
) -> float:
    """Net benefit at one threshold in O(n) (no sort); same formula as
    :func:`net_benefit_curve`."""
    pos = p >= threshold
    if w is None:
        tp = float(np.count_nonzero(pos & (y == 1.0)))
        n_pos = float(np.count_nonzero(pos))
        fp = n_pos - tp
        w1 = float(np.count_nonzero(y == 1.0))
        total = float(y.shape[0])
    else:
        wy = w * y
        wn = w - wy
        tp = float(wy[pos].sum())
        fp = float(wn[pos].sum())
        w1 = float(wy.sum())
        total = float(w.sum())
    w0 = total - w1
    odds = threshold / (1.0 - threshold)
    if prevalence is None:
        return (tp - fp * odds) / total
    tpr = tp / w1 if w1 > 0 else float("nan")
    fpr = fp / w0 if w0 > 0 else float("nan")
    return prevalence * tpr - (1.0 - prevalence) * fpr * odds
