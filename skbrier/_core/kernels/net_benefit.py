"""Validation-free kernels for net benefit, decision curves and their bootstrap.

Inputs are already validated float64 arrays: ``y`` holds 0/1 outcomes,
``p`` probabilities in [0, 1], ``w`` non-negative weights or None, and
``thresholds`` values in (0, 1).  "Positive" means ``p >= threshold``.

All thresholds are handled at once: the probabilities of each class are
sorted once, and ``np.searchsorted`` gives, for every threshold, how many
(or, with weights, how much weight) lie below and at or above it.

Net benefit is computed from *shares* (weight per patient of the target
population), never from raw weighted counts, so that weights of any scale
(1e-200 or 1e300) and thresholds next to 0 or 1 give no overflow:
``NB = tp_share - fp_share * odds``.  Net interventions avoided is computed
as ``100 (tn_share - (fn_share + harm) / odds)``, which is algebraically
``100 (NB - NB_all) / odds`` but does not lose every digit to cancellation
when the threshold (hence ``odds``) is tiny.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..resampling import stratified_indices

__all__ = [
    "ClassShares",
    "bootstrap_counts",
    "bootstrap_net_benefit",
    "class_shares",
    "class_weights_above",
    "interventions_avoided",
    "net_benefit_at",
    "net_benefit_curve",
    "threshold_odds",
    "treat_all_curve",
]


def threshold_odds(thresholds: np.ndarray) -> np.ndarray:
    """Harm-to-benefit exchange rate pt / (1 - pt) (exact 1 - pt for pt >= 1/2)."""
    return thresholds / (1.0 - thresholds)


def _below_and_above(
    p: np.ndarray, w: np.ndarray | None, thresholds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Weight (or count) of the entries of ``p`` below and at or above each threshold.

    Both come from running sums over the sorted values, never from a
    difference with the total, so a zero share is exactly zero.
    """
    k = thresholds.shape[0]
    if p.shape[0] == 0:
        return np.zeros(k), np.zeros(k)
    if w is None:
        below = np.searchsorted(np.sort(p), thresholds, side="left")
        return below.astype(np.float64), (p.shape[0] - below).astype(np.float64)
    order = np.argsort(p, kind="stable")
    ws = w[order]
    below_sum = np.zeros(p.shape[0] + 1)
    np.cumsum(ws, out=below_sum[1:])
    above_sum = np.zeros(p.shape[0] + 1)
    np.cumsum(ws[::-1], out=above_sum[-2::-1])
    pos = np.searchsorted(p[order], thresholds, side="left")
    return below_sum[pos], above_sum[pos]


class ClassShares:
    """True/false positives and negatives per patient at every threshold.

    ``tp``, ``fp``, ``fn``, ``tn`` are shares of the target population (they
    add up to one at every threshold): without a prevalence, weights divided
    by the total weight; with a (case-control) prevalence ``pi``, the class
    rates times ``pi`` and ``1 - pi``.
    """

    __slots__ = ("fn", "fp", "tn", "tp")

    def __init__(self, tp: Any, fp: Any, fn: Any, tn: Any) -> None:
        self.tp, self.fp, self.fn, self.tn = tp, fp, fn, tn


def class_shares(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    thresholds: np.ndarray,
    prevalence: float | None = None,
) -> ClassShares:
    """:class:`ClassShares` of one model at every threshold (O(n log n + T log n)).

    With ``prevalence`` both classes must be present (the caller checks).
    """
    event = y == 1.0
    fn, tp = _below_and_above(p[event], None if w is None else w[event], thresholds)
    tn, fp = _below_and_above(p[~event], None if w is None else w[~event], thresholds)
    return shares_from_weights(fn, tp, tn, fp, prevalence)


def shares_from_weights(
    fn: np.ndarray,
    tp: np.ndarray,
    tn: np.ndarray,
    fp: np.ndarray,
    prevalence: float | None = None,
) -> ClassShares:
    """:class:`ClassShares` from the weights of events (``fn`` below, ``tp`` at
    or above each threshold) and of non-events (``tn``, ``fp``)."""
    w1 = fn[0] + tp[0]
    w0 = tn[0] + fp[0]
    if prevalence is None:
        total = w1 + w0
        return ClassShares(tp / total, fp / total, fn / total, tn / total)
    a, b = prevalence / w1, (1.0 - prevalence) / w0
    return ClassShares(tp * a, fp * b, fn * a, tn * b)


def class_weights_above(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, thresholds: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Weighted true and false positives at every threshold.

    Returns ``(tp, fp, w1, w0)``: the weight of events and of non-events with
    ``p >= threshold``, and the total weight of events and of non-events.
    """
    event = y == 1.0
    fn, tp = _below_and_above(p[event], None if w is None else w[event], thresholds)
    tn, fp = _below_and_above(p[~event], None if w is None else w[~event], thresholds)
    return tp, fp, float(fn[0] + tp[0]), float(tn[0] + fp[0])


def net_benefit_curve(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    thresholds: np.ndarray,
    prevalence: float | None = None,
) -> np.ndarray:
    r"""Net benefit at every threshold: :math:`TP/W - FP/W \cdot p_t / (1 - p_t)`.

    With a (case-control) ``prevalence`` :math:`\pi`:
    :math:`\pi \, TP / W_1 - (1 - \pi) \, FP / W_0 \cdot o`.
    """
    s = class_shares(y, p, w, thresholds, prevalence)
    return s.tp - s.fp * threshold_odds(thresholds)


def interventions_avoided(
    fn: np.ndarray, tn: np.ndarray | float, odds: np.ndarray, harm: float = 0.0
) -> np.ndarray:
    """Net interventions avoided per 100 patients, ``100 (tn - (fn + harm) / odds)``.

    Equal to ``100 (NB - NB_all) / odds``; ``-inf`` where the true value is
    beyond the float range (a threshold within ~1e-308 of zero).
    """
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        return 100.0 * (tn - (fn + harm) / odds)


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
    event = y == 1.0
    if w is None:
        tp = float(np.count_nonzero(pos & event))
        fp = float(np.count_nonzero(pos)) - tp
        w1 = float(np.count_nonzero(event))
        w0 = float(y.shape[0]) - w1
    else:
        tp = float(w[pos & event].sum())
        fp = float(w[pos & ~event].sum())
        w1 = float(w[event].sum())
        w0 = float(w[~event].sum())
    return net_benefit_from_weights(tp, fp, w1, w0, threshold, prevalence)


def net_benefit_from_weights(
    tp: float, fp: float, w1: float, w0: float, threshold: float, prevalence: float | None
) -> float:
    """Net benefit from the weight of true and false positives and of the two
    classes: ``TP/W - FP/W * pt/(1-pt)`` (or with a case-control prevalence)."""
    odds = threshold / (1.0 - threshold)
    if prevalence is None:
        total = w1 + w0
        return tp / total - fp / total * odds
    return prevalence / w1 * tp - (1.0 - prevalence) / w0 * fp * odds


# --------------------------------------------------------------------------- bootstrap
def bootstrap_counts(
    rng: np.random.Generator,
    n: int,
    size: int,
    strata: list[np.ndarray],
    units: list[tuple[int, np.ndarray]] | None,
) -> np.ndarray:
    """``(size, n)`` float multiplicities of ``size`` resamples.

    Unweighted (``units`` None): iid draws of rows within each stratum
    (:func:`stratified_indices`), counted.  Frequency weights (``units``: per
    stratum, the number ``m`` of observations and the probabilities
    ``w / W``): ``m`` observations drawn from the weighted rows of each
    stratum, a multinomial, which is the bootstrap distribution of the
    repeated rows when the weights are integers.
    """
    if units is None:
        idx = stratified_indices(rng, strata, size)
        flat = (idx + n * np.arange(size)[:, None]).ravel()
        return np.bincount(flat, minlength=size * n).reshape(size, n).astype(np.float64)
    counts = np.zeros((size, n))
    for s, (m, probs) in zip(strata, units):
        counts[:, s] = rng.multinomial(m, probs, size=size)
    return counts


def _sorted_class(p: np.ndarray, rows: np.ndarray, thresholds: np.ndarray):
    """Rows of one class in increasing ``p`` and each threshold's first position."""
    order = np.argsort(p[rows], kind="stable")
    pos = np.searchsorted(p[rows][order], thresholds, side="left")
    return rows[order], pos


def _above(counts: np.ndarray, rows: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Total count at or above each threshold, per resample: (size, T)."""
    c = counts[:, rows]
    suffix = np.zeros((c.shape[0], c.shape[1] + 1))
    np.cumsum(c[:, ::-1], axis=1, out=suffix[:, -2::-1])
    return suffix[:, pos]


def bootstrap_net_benefit(
    y: np.ndarray,
    probas: dict[str, np.ndarray],
    thresholds: np.ndarray,
    prevalence: float | None,
    harm: dict[str, float],
):
    """Task factory: ``counts (size, n) -> (size, n_models + 1, T)`` replicates.

    The last model is the treat-all strategy.  The probabilities are sorted
    once; each resample costs O(n + T) per model.
    """
    ev = np.flatnonzero(y == 1.0)
    ne = np.flatnonzero(y != 1.0)
    odds = threshold_odds(thresholds)
    sorted_ = {
        m: (_sorted_class(p, ev, thresholds), _sorted_class(p, ne, thresholds))
        for m, p in probas.items()
    }

    def statistic(counts: np.ndarray) -> np.ndarray:
        w1 = counts[:, ev].sum(axis=1, keepdims=True)
        w0 = counts[:, ne].sum(axis=1, keepdims=True)
        if prevalence is None:
            a = b = 1.0 / (w1 + w0)
            prev = w1 * a
        else:
            a, b, prev = prevalence / w1, (1.0 - prevalence) / w0, prevalence
        out = np.empty((counts.shape[0], len(probas) + 1, thresholds.shape[0]))
        for j, (m, ((r1, pos1), (r0, pos0))) in enumerate(sorted_.items()):
            tp = _above(counts, r1, pos1) * a
            fp = _above(counts, r0, pos0) * b
            out[:, j] = tp - fp * odds - harm[m]
        out[:, -1] = prev - (1.0 - prev) * odds
        return out

    return statistic
