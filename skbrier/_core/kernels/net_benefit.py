"""Validation-free kernels for net benefit, decision curves and their bootstrap.

The one kernel: :func:`threshold_reduce` reduces a chunk of rows of any
array namespace to its :class:`ThresholdSums` (the weight of events and of
non-events below and at or above each threshold: a few host arrays, merged
with ``+``); :func:`net_benefit_finish` and :func:`decision_finish` turn them
into the net benefit and the net interventions avoided.  The numpy path, the
Array API adapter and :class:`skbrier.states.ThresholdState` call them.

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

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from ..array_api import is_numpy
from ..resampling import stratified_indices
from . import add_fields

__all__ = [
    "ClassShares",
    "ThresholdSums",
    "bootstrap_counts",
    "bootstrap_net_benefit",
    "class_shares",
    "decision_finish",
    "interventions_avoided",
    "net_benefit_finish",
    "shares_from_weights",
    "threshold_odds",
    "threshold_reduce",
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


@dataclasses.dataclass
class ThresholdSums:
    """Sufficient statistics of net benefit at a grid of thresholds (merged with ``+``).

    ``fn`` and ``tp``: the weight (or count) of events below and at or above
    each threshold; ``tn`` and ``fp``: the same of non-events.  In the
    *hypotheses* form (rows whose outcome is not known yet: the label-keyed
    states) ``tn`` and ``fp`` are None and ``fn``/``tp`` hold the weight below
    and at or above; :meth:`given` places them.
    """

    fn: np.ndarray
    tp: np.ndarray
    tn: np.ndarray | None = None
    fp: np.ndarray | None = None

    def __add__(self, other: ThresholdSums) -> ThresholdSums:
        return add_fields(self, other)

    def given(self, outcome: float) -> ThresholdSums:
        """The sums of the hypotheses form when every row has ``outcome`` (0/1)."""
        zero = np.zeros_like(self.fn)
        if outcome == 1.0:
            return ThresholdSums(self.fn, self.tp, zero, zero.copy())
        return ThresholdSums(zero, zero.copy(), self.fn, self.tp)

    @property
    def events(self) -> float:
        """The total weight of events."""
        return float(self.fn[0] + self.tp[0])

    @property
    def nonevents(self) -> float:
        """The total weight of non-events."""
        assert self.tn is not None and self.fp is not None
        return float(self.tn[0] + self.fp[0])


def _numpy_cells(
    p: np.ndarray, w: np.ndarray | None, t: float
) -> tuple[np.ndarray, np.ndarray]:
    """Weight below and at or above one threshold in O(n) (no sort)."""
    pos = p >= t
    if w is None:
        above = float(np.count_nonzero(pos))
        return np.array([p.shape[0] - above]), np.array([above])
    return np.array([float(w[~pos].sum())]), np.array([float(w[pos].sum())])


def _xp_below_and_above(xp: Any, p: Any, w: Any, thresholds: np.ndarray):
    """Host weight below and at or above each threshold, in ``p``'s namespace:
    masks for a few thresholds, a sort and running sums from each end (a zero
    share is exactly zero) for many."""
    from ..array_api import exact_cuts, to_numpy

    # p >= t exactly as in float64, also on a device without float64
    t = exact_cuts(xp, thresholds, p.device, up=True)
    dt = t.dtype
    p = xp.astype(p, dt)
    ww = xp.ones(p.shape[0], dtype=dt, device=p.device) if w is None else xp.astype(w, dt)
    if thresholds.shape[0] <= 4:
        below, above = [], []
        for j in range(thresholds.shape[0]):
            pos = p >= t[j]
            above.append(float(xp.sum(xp.where(pos, ww, xp.zeros_like(ww)))))
            below.append(float(xp.sum(xp.where(pos, xp.zeros_like(ww), ww))))
        return np.array(below), np.array(above)
    order = xp.argsort(p, stable=True)
    idx = xp.searchsorted(xp.take(p, order), t, side="left")
    ws = xp.take(ww, order)
    zero = xp.zeros(1, dtype=dt, device=p.device)
    below_sum = xp.concat([zero, xp.cumulative_sum(ws)])
    above_sum = xp.concat([xp.flip(xp.cumulative_sum(xp.flip(ws))), zero])
    return (
        np.asarray(to_numpy(xp.take(below_sum, idx)), dtype=np.float64),
        np.asarray(to_numpy(xp.take(above_sum, idx)), dtype=np.float64),
    )


def _below_above(xp: Any, p: Any, w: Any, thresholds: np.ndarray):
    if is_numpy(xp):
        if thresholds.shape[0] == 1:
            return _numpy_cells(p, w, float(thresholds[0]))
        return _below_and_above(p, w, thresholds)
    return _xp_below_and_above(xp, p, w, thresholds)


def threshold_reduce(
    xp: Any, y: Any, p: Any, w: Any, thresholds: np.ndarray
) -> ThresholdSums:
    """Reduce a chunk of rows to its :class:`ThresholdSums` (host arrays).

    ``y``: 0/1 outcomes, or None for the hypotheses form.  One threshold is
    counted in O(n) (no sort); a grid sorts the forecasts of each class once
    (numpy) or once in all (other namespaces, on their device).
    """
    if y is None:
        below, above = _below_above(xp, p, w, thresholds)
        return ThresholdSums(below, above)
    if is_numpy(xp):
        event = y == 1.0
        we = None if w is None else w[event]
        wn = None if w is None else w[~event]
        fn, tp = _below_above(xp, p[event], we, thresholds)
        tn, fp = _below_above(xp, p[~event], wn, thresholds)
        return ThresholdSums(fn, tp, tn, fp)
    y01 = xp.astype(y, p.dtype)
    w1 = y01 if w is None else w * y01
    w0 = (1 - y01) if w is None else w * (1 - y01)
    fn, tp = _xp_below_and_above(xp, p, w1, thresholds)
    tn, fp = _xp_below_and_above(xp, p, w0, thresholds)
    return ThresholdSums(fn, tp, tn, fp)


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
    # the class rates first (at most 1): prevalence / w1 overflowed for
    # subnormal weights
    a, b = prevalence, 1.0 - prevalence
    return ClassShares(tp / w1 * a, fp / w0 * b, fn / w1 * a, tn / w0 * b)


def threshold_shares(s: ThresholdSums, prevalence: float | None = None) -> ClassShares:
    """:class:`ClassShares` of :class:`ThresholdSums`: shares of the target
    population (with a case-control ``prevalence``: the class rates times
    ``pi`` and ``1 - pi``; both classes must then be present)."""
    assert s.tn is not None and s.fp is not None
    return shares_from_weights(s.fn, s.tp, s.tn, s.fp, prevalence)


def net_benefit_finish(
    s: ThresholdSums,
    thresholds: np.ndarray,
    prevalence: float | None = None,
    harm: float = 0.0,
) -> np.ndarray:
    r"""Net benefit at every threshold: :math:`TP/W - FP/W \cdot p_t / (1 - p_t)`
    minus ``harm``; with a (case-control) ``prevalence`` :math:`\pi`:
    :math:`\pi \, TP / W_1 - (1 - \pi) \, FP / W_0 \cdot p_t / (1 - p_t)`."""
    return decision_finish(threshold_shares(s, prevalence), thresholds, harm)[0]


def decision_finish(
    shares: ClassShares, thresholds: np.ndarray, harm: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """``(net benefit, net interventions avoided per 100)`` of a model's
    :class:`ClassShares` at every threshold, less its ``harm``."""
    odds = threshold_odds(thresholds)
    nb = shares.tp - shares.fp * odds - harm
    return nb, interventions_avoided(shares.fn, shares.tn, odds, harm)


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
    return threshold_shares(threshold_reduce(np, y, p, w, thresholds), prevalence)


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


# --------------------------------------------------------------------------- bootstrap
def bootstrap_counts(
    rng: np.random.Generator,
    n: int,
    size: int,
    strata: list[np.ndarray],
    draws: list[Callable[[np.random.Generator], np.ndarray]] | None,
) -> np.ndarray:
    """``(size, n)`` float multiplicities of ``size`` resamples.

    Unweighted (``draws`` None): iid draws of rows within each stratum
    (:func:`stratified_indices`), counted.  Frequency weights (``draws``: per
    stratum, its :func:`~skbrier._core.resampling.frequency_resampler`):
    each stratum's multiplicities drawn resample after resample, in the order
    of :func:`stratified_indices`, so integer weights give the resamples of
    the repeated rows exactly.
    """
    if draws is None:
        idx = stratified_indices(rng, strata, size)
        flat = (idx + n * np.arange(size)[:, None]).ravel()
        return np.bincount(flat, minlength=size * n).reshape(size, n).astype(np.float64)
    counts = np.zeros((size, n))
    for s, draw in zip(strata, draws):
        for k in range(size):
            counts[k, s] = draw(rng)
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
