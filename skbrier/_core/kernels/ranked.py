r"""The ranked probability score's one kernel (ordinal outcomes), on validated
arrays (no validation here).

For :math:`K` ordered categories, forecast probabilities :math:`p_{ik}` and
the category :math:`y_i` of each row, the cumulative forecast is
:math:`F_{ik} = \sum_{j \le k} p_{ij}` and the cumulative outcome
:math:`O_{ik} = 1[y_i \le k]`; the score of a row is

.. math::

    \mathrm{RPS}_i = \sum_{k=1}^{K} (F_{ik} - O_{ik})^2,

the sum over the thresholds of the Brier scores of the cumulative forecasts
(the last term is 0 when the row sums to one; it is kept, as scoringrules,
R scoringRules and verification keep it).

:func:`ranked_reduce` reduces a chunk of rows of any array namespace to the
sufficient statistics of the Brier family,
:class:`~skbrier._core.kernels.brier.BrierSums` (the total weight, the summed
loss, the weight of each category, a reference's loss), merged with ``+``;
:func:`ranked_finish` and :func:`ranked_skill_finish` turn them into the
numbers.  The numpy path reduces its arrays in one chunk (cache-sized blocks
of rows), the Array API adapter reduces them in their namespace on their
device, and :class:`skbrier.states.RankedProbabilityState` reduces each
chunk per label in the hypotheses form (``y=None``) and finishes once the
labels are known.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..array_api import is_numpy
from .brier import BrierSums, _squares_sums, reduce_losses, skill_score

__all__ = [
    "ranked_finish",
    "ranked_reduce",
    "ranked_reference_finish",
    "ranked_skill_finish",
]

# rows x categories of one block of the numpy kernel (stays in the L2 cache)
_BLOCK = 1 << 14


def _numpy_loss(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> float:
    """``sum_i w_i sum_k (F_ik - O_ik)^2`` in cache-sized blocks of rows.

    Each row is summed over the categories with ``np.sum(axis=1)`` of the
    literal differences ``cumsum(p) - (y <= k)``, the very floats of
    scoringrules' ``rps_score``; no array of the size of ``p`` is made.
    """
    n, k = p.shape
    rows = max(1, _BLOCK // k)
    m0 = min(rows, n)
    f = np.empty((m0, k))
    per_row = np.empty(m0)
    cats = np.arange(k)
    total = 0.0
    for i in range(0, n, rows):
        j = min(i + rows, n)
        m = j - i
        fb, r = f[:m], per_row[:m]
        np.cumsum(p[i:j], axis=1, out=fb)
        np.subtract(fb, y[i:j, None] <= cats, out=fb)
        np.multiply(fb, fb, out=fb)
        np.sum(fb, axis=1, out=r)
        total += float(np.add.reduce(r)) if w is None else float(np.dot(w[i:j], r))
    return total


def _xp_cumsum(xp: Any, p: Any) -> Any:
    if hasattr(xp, "cumulative_sum"):
        return xp.cumulative_sum(p, axis=1)
    cols = [p[:, 0]]
    for c in range(1, int(p.shape[1])):
        cols.append(cols[-1] + p[:, c])
    return xp.stack(cols, axis=1)


def _xp_loss(xp: Any, y: Any, p: Any, w: Any) -> float:
    k = int(p.shape[1])
    cats = xp.arange(k, device=y.device)
    o = xp.astype(y[:, None] <= cats[None, :], p.dtype)
    d = _xp_cumsum(xp, p) - o
    per_row = xp.sum(d * d, axis=1)
    return float(xp.sum(per_row if w is None else w * per_row))


def _hypotheses(xp: Any, p: Any, w: Any, reference: Any) -> BrierSums:
    r"""The hypotheses form: with :math:`A_k = \sum w F_k^2` and
    :math:`B_k = \sum w (1 - F_k)^2`, the loss of outcome ``c`` is
    :math:`\sum_{k < c} A_k + \sum_{k \ge c} B_k`, a sum of non-negative
    terms (no cancellation)."""

    def losses(q: Any) -> np.ndarray:
        f = np.cumsum(q, axis=1) if is_numpy(xp) else _xp_cumsum(xp, q)
        sa, sb = _squares_sums(xp, w, f), _squares_sums(xp, w, 1.0 - f)
        before = np.concatenate([[0.0], np.cumsum(sa)[:-1]])
        after = np.cumsum(sb[::-1])[::-1]
        return before + after

    k = int(p.shape[1])
    weight = float(p.shape[0]) if w is None else float(xp.sum(w))
    ref = None if reference is None else losses(reference)
    return BrierSums(weight, losses(p), None, ref, k)


def ranked_reduce(
    xp: Any,
    y: Any,
    proba: Any,
    w: Any = None,
    *,
    reference: Any = None,
    class_weight: bool = False,
) -> BrierSums:
    """Reduce a chunk of validated rows to its :class:`BrierSums` (host floats).

    The reduce of :func:`~skbrier._core.kernels.brier.brier_reduce` with the
    ranked probability loss; ``xp``, ``w``, ``reference`` and
    ``class_weight`` (here the weight of each category) are its.  The
    outcomes and forecasts are those of ordered categories:

    Parameters
    ----------
    y : array or None
        The category of each row: its column (0 .. K - 1) in the order of
        the categories; None for the hypotheses form (``loss[c]`` is the
        loss if every row were in category ``c``).
    proba : array of shape (n, K)
        Probabilities, one column per category in their order.

    Returns
    -------
    BrierSums
        ``loss`` is :math:`\\sum_i w_i \\mathrm{RPS}_i` (unnormalised).
    """
    if y is None:
        return _hypotheses(xp, proba, w, reference)
    return reduce_losses(xp, y, proba, w, reference, class_weight, _numpy_loss, _xp_loss)


def _scale(s: BrierSums, normalize: bool) -> float:
    return 1.0 / (s.n_columns - 1) if normalize else 1.0


def ranked_finish(s: BrierSums, normalize: bool = False) -> float:
    """The ranked probability score of :class:`BrierSums`: ``loss / W``, divided
    by ``K - 1`` with ``normalize`` (verification, yardstick)."""
    return float(np.float64(s.loss) / np.float64(s.weight)) * _scale(s, normalize)


def ranked_reference_finish(
    s: BrierSums, constant: np.ndarray | None = None, normalize: bool = False
) -> float:
    r"""The reference's ranked probability score.

    Reference forecasts (``s.reference_loss``); else the constant forecast
    ``constant`` (the probability of each category), or climatology when
    None (the category frequencies), from the category weights: with
    :math:`\bar O_k` the frequency of ``y <= k`` and :math:`G_k` the
    cumulative constant forecast,

    .. math::

        \mathrm{RPS}_\mathrm{ref} = \sum_k \bar O_k (1 - G_k)^2
            + (1 - \bar O_k) G_k^2,

    :math:`\sum_k \bar O_k (1 - \bar O_k)` for climatology, exactly 0 when a
    single category has positive weight.
    """
    if s.reference_loss is not None:
        return ranked_finish(
            BrierSums(s.weight, s.reference_loss, None, None, s.n_columns), normalize
        )
    assert s.class_weight is not None
    cw = np.asarray(s.class_weight, dtype=np.float64)[: s.n_columns]
    obar = np.cumsum(cw / cw.sum())[:-1]
    g = obar if constant is None else np.cumsum(constant)[:-1]
    terms = obar * (1.0 - g) ** 2 + (1.0 - obar) * g * g
    return float(terms.sum()) * _scale(s, normalize)


def ranked_skill_finish(
    s: BrierSums, constant: np.ndarray | None = None
) -> tuple[float, float]:
    """``(skill score, reference score)`` of :class:`BrierSums` (the skill NaN
    when the reference scores 0; the caller warns).  The reference score is
    unnormalised (the skill does not depend on the normalisation)."""
    ref = ranked_reference_finish(s, constant)
    return skill_score(ranked_finish(s), ref), ref
