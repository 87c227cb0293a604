"""Validation-free kernels of the multiple-choice Brier score (ragged choice sets).

The one kernel: :func:`choice_reduce` reduces validated examples of any array
namespace to their :class:`ChoiceSums` (two floats and a weight scale,
merged with ``+``) and :func:`choice_finish` divides them.  The numpy path,
the Array API adapter and :class:`skbrier.states.MultipleChoiceState` call
them.

The choices of all examples are concatenated into one flat array; example
``i`` owns ``values[starts[i]:starts[i] + lengths[i]]`` (every length >= 1).
Inputs are already validated: finite probabilities or log-probabilities
(``-inf`` allowed, at least one finite per example), non-negative targets
with a positive sum per example, non-negative weights with a positive sum.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import numpy as np

from ..array_api import is_numpy

__all__ = [
    "CONVENTIONS",
    "ChoiceSums",
    "bigbench_per_example",
    "choice_finish",
    "choice_reduce",
    "normalise_targets",
    "per_example_squared_error",
    "segment_starts",
    "segment_sum",
    "softmax_segments",
    "weighted_mean",
]

#: the conventions of the multiple-choice Brier score (``convention=``)
CONVENTIONS: tuple[Literal["per_example", "bigbench"], ...] = ("per_example", "bigbench")


def segment_starts(lengths: np.ndarray) -> np.ndarray:
    """First flat position of each example."""
    starts = np.zeros(lengths.shape[0], dtype=np.intp)
    np.cumsum(lengths[:-1], out=starts[1:])
    return starts


def segment_sum(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sum of each example's entries.

    With equal choice counts, numpy's row sums (pairwise summation, as
    ``row.sum()`` in a per-example loop); ragged rows use ``np.add.reduceat``.
    """
    n = starts.shape[0]
    if x.shape[0] % n == 0 and np.array_equal(starts, np.arange(n) * (x.shape[0] // n)):
        return x.reshape(n, -1).sum(axis=1)
    return np.add.reduceat(x, starts)


def softmax_segments(
    logp: np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> np.ndarray:
    """Softmax within each example (max subtracted first; ``-inf`` gives 0)."""
    row_max = np.maximum.reduceat(logp, starts)
    with np.errstate(over="ignore"):  # finite - finite beyond 1.8e308: -inf, exp -> 0
        e = np.exp(logp - np.repeat(row_max, lengths))
    return e / np.repeat(segment_sum(e, starts), lengths)


def normalise_targets(t: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Targets divided by their example's sum (scaled by the example's maximum
    first, so that huge scores such as 1e308 do not overflow the sum)."""
    scaled = t / np.repeat(np.maximum.reduceat(t, starts), lengths)
    return scaled / np.repeat(segment_sum(scaled, starts), lengths)


def per_example_squared_error(
    proba: np.ndarray, targets: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """``sum_c (p_ic - t_ic)^2`` per example (lm-evaluation-harness)."""
    d = proba - targets
    return segment_sum(d * d, starts)


def bigbench_per_example(
    proba: np.ndarray, targets: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """``sum_c t (p - 1)^2 + (1 - t) p^2`` per example (BIG-bench)."""
    per_choice = targets * (proba - 1.0) ** 2 + (1.0 - targets) * proba**2
    return segment_sum(per_choice, starts)


@dataclasses.dataclass
class ChoiceSums:
    r"""Sufficient statistics of the multiple-choice Brier score (merged with ``+``).

    :math:`\sum_i w_i s_i` (``num``) and :math:`\sum_i w_i d_i` (``den``) with
    :math:`s_i` the per-example score and :math:`d_i` its denominator (1 for
    ``"per_example"``, the number of choices for ``"bigbench"``), the weights
    divided by ``scale``, the largest weight of the rows (None: unweighted
    rows, of weight 1), so that weights of any scale neither overflow nor
    underflow; ``+`` rescales to the larger scale.
    """

    num: Any
    den: Any
    scale: float | None = None

    def __add__(self, other: ChoiceSums) -> ChoiceSums:
        if self.scale is None and other.scale is None:
            return ChoiceSums(self.num + other.num, self.den + other.den)
        if self.scale is None and self.den == 0.0:  # nothing yet: keep their scale
            return ChoiceSums(other.num, other.den, other.scale)
        mine_s = 1.0 if self.scale is None else self.scale
        their_s = 1.0 if other.scale is None else other.scale
        top = max(mine_s, their_s)
        if top == 0.0:
            return ChoiceSums(self.num, self.den, self.scale)
        mine, theirs = mine_s / top, their_s / top
        return ChoiceSums(
            self.num * mine + other.num * theirs, self.den * mine + other.den * theirs, top
        )


def choice_reduce(
    xp: Any,
    proba: Any,
    targets: Any,
    w: Any,
    *,
    convention: str,
    lengths: np.ndarray | None = None,
) -> ChoiceSums:
    """Reduce validated examples to their :class:`ChoiceSums`.

    Numpy: the flat probabilities and (normalised) targets of ragged choice
    sets, example ``i`` owning ``lengths[i]`` consecutive entries.  Other
    namespaces: rectangular ``(n, K)`` arrays on their device.  Zero-weight
    examples are dropped first (the same sums, in the same order, as without
    them), and unit weights give exactly the unweighted sums.
    """
    if is_numpy(xp):
        assert lengths is not None
        starts = segment_starts(lengths)
        if convention == "per_example":
            num, den = (
                per_example_squared_error(proba, targets, starts),
                np.ones(starts.shape[0]),
            )
        else:
            num = bigbench_per_example(proba, targets, starts)
            den = lengths.astype(np.float64)
        return _weighted_sums(num, den, w)
    n, k = int(proba.shape[0]), int(proba.shape[1])
    if convention == "per_example":
        d = proba - targets
        num = xp.sum(d * d, axis=1)
        den = xp.ones(n, dtype=proba.dtype, device=proba.device)
    else:
        num = xp.sum(targets * (proba - 1) ** 2 + (1 - targets) * proba**2, axis=1)
        den = xp.full(n, float(k), dtype=proba.dtype, device=proba.device)
    if w is None:
        return ChoiceSums(float(xp.sum(num)), float(xp.sum(den)))
    top = float(xp.max(w))
    if not top > 0.0:
        return ChoiceSums(0.0, 0.0, 0.0)
    ws = w / top
    return ChoiceSums(float(xp.sum(ws * num)), float(xp.sum(ws * den)), top)


def choice_finish(s: ChoiceSums) -> float:
    """The multiple-choice Brier score ``sum w s / sum w d`` of :class:`ChoiceSums`."""
    return float(s.num / s.den)


def _weighted_sums(num: np.ndarray, den: np.ndarray, w: np.ndarray | None) -> ChoiceSums:
    """:class:`ChoiceSums` of per-example numerators and denominators (numpy)."""
    if w is None:
        return ChoiceSums(num.sum(), den.sum())
    top = float(w.max())
    if not top > 0.0:
        return ChoiceSums(0.0, 0.0, 0.0)
    keep = w > 0.0
    ws = w[keep] / top
    return ChoiceSums((ws * num[keep]).sum(), (ws * den[keep]).sum(), top)


def weighted_mean(
    numerators: np.ndarray, denominators: np.ndarray, w: np.ndarray | None
) -> float:
    """``sum w num / sum w den`` over examples with frequency weights ``w``
    (:func:`choice_finish` of the sums :func:`choice_reduce` makes).

    Zero-weight examples are dropped first (the same sums, in the same order,
    as without them); the weights are divided by their maximum, so that
    weights of any scale (1e-200 or 1e300) neither overflow nor underflow
    and unit weights give exactly the unweighted value.
    """
    return choice_finish(_weighted_sums(numerators, denominators, w))
