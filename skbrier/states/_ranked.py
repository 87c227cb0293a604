r"""The mergeable state of the ranked probability score (ordinal outcomes).

The category of a label of ``y_true`` -- its position in the order -- is
known only once *all* labels are known (the sorted labels, or ``labels=``),
so the state keeps the sums of the one ranked kernel per distinct label in
the hypotheses form (:func:`~skbrier._core.kernels.ranked.ranked_reduce`
with ``y=None``) and gives each label its category in ``finalize`` with the
in-memory checks (:class:`~skbrier.states._multiclass._KernelColumns`, the
base it shares with the multiclass Brier state).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.docstrings import with_pieces
from .._core.kernels.brier import warn_undefined_skill
from .._core.kernels.ranked import (
    ranked_finish,
    ranked_reduce,
    ranked_reference_finish,
    ranked_skill_finish,
)
from ..metrics.ranked import check_ranked_reference, ranked_order
from ._base import STATE_PIECES
from ._multiclass import _KernelColumns

__all__ = ["RankedProbabilityState"]


@with_pieces(STATE_PIECES)
class RankedProbabilityState(_KernelColumns):
    r"""Mergeable state of the ranked probability score and its skill score.

    For each label :math:`L` of ``y_true`` it keeps :math:`W_L = \sum w` and,
    from the column sums :math:`A_{Lk} = \sum w F_k^2` and
    :math:`B_{Lk} = \sum w (1 - F_k)^2` of the cumulative forecasts of the
    rows of that label, the loss of each possible category; with
    :math:`c(L)` the category of :math:`L` (known in :meth:`finalize`),

    .. math::

        \mathrm{RPS} = \frac{1}{W} \sum_L \Big(\sum_{k < c(L)} A_{Lk}
            + \sum_{k \ge c(L)} B_{Lk}\Big).

    Parameters
    ----------
    labels : array-like, default=None
        The categories in their order (the columns of ``y_proba``); None:
        the sorted labels of all of ``y_true``, as in memory.
    {{with_reference}}

    References
    ----------
    .. [1] E. S. Epstein, "A scoring system for probability forecasts of
       ranked categories", Journal of Applied Meteorology 8, 985-987, 1969.

    Examples
    --------
    >>> from skbrier.states import RankedProbabilityState
    >>> a = RankedProbabilityState().update([0, 1], [[0.6, 0.3, 0.1], [0.2, 0.6, 0.2]])
    >>> b = RankedProbabilityState().update([2, 2], [[0.1, 0.2, 0.7], [0.1, 0.4, 0.5]])
    >>> round(a.merge(b).finalize(), 6)
    0.1525
    """

    _reduce = staticmethod(ranked_reduce)
    # ranked_probability_skill_score takes a 0/1 reference (observed categories)
    quiet_hard = ("reference",)

    def _sorted_labels(self) -> Any:
        _, order, perm = ranked_order(None, self.labels)
        return order if perm is None else order[perm]

    def _column(self, code: int) -> int:
        """The category (position in the order) of the sorted column ``code``."""
        perm = ranked_order(None, self.labels)[2]
        return code if perm is None else int(perm[code])

    def finalize(self, normalize: bool = False) -> float:
        """The ranked probability score (divided by ``K - 1`` with ``normalize``)."""
        return ranked_finish(self.sums(), normalize)

    def _constant(self, constant: Any) -> np.ndarray | None:
        """``constant`` checked as the ``reference`` of
        ``ranked_probability_skill_score`` (one probability per category)."""
        if constant is None:
            return None
        ref, const = check_ranked_reference(constant, (0, self.n_columns or 2))
        if ref is not None:
            raise TypeError(
                "constant must be one probability per category (a constant "
                "forecast); reference forecasts are a column given to update(..., "
                "reference=...) by a state made with with_reference=True."
            )
        return const

    def reference_score(self, constant: np.ndarray | None = None) -> float:
        """The (unnormalised) score of the reference: climatology (None), the
        constant forecast ``constant`` or the ``reference`` column."""
        return ranked_reference_finish(self.sums(), self._constant(constant))

    def skill(self, constant: np.ndarray | None = None) -> float:
        """The skill score ``1 - RPS / RPS_ref`` (NaN, with a warning, when
        the reference scores 0)."""
        score, ref = ranked_skill_finish(self.sums(), self._constant(constant))
        if ref == 0.0:
            warn_undefined_skill("ranked_probability_skill_score")
        return score
