"""Weighted-sum states: the Brier score (and its skill score) and Spiegelhalter's z."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.docstrings import with_pieces
from .._core.kernels.brier import (
    BrierSums,
    brier_finish,
    brier_index_from_score,
    brier_reduce,
    reference_finish,
    skill_finish,
    warn_undefined_skill,
)
from .._core.kernels.calibration import spiegelhalter_from_sums, spiegelhalter_reduce
from .._core.labels import _is_one, _only_zeros_and_ones
from .._core.params import check_bool
from .._core.validation import Forecast, _probabilities_shown_valid, check_reference
from ._base import STATE_PIECES, BinaryState
from ._chunks import forecast_columns

__all__ = ["BrierState", "SpiegelhalterState"]


def _wsum(x: np.ndarray, w: np.ndarray | None) -> float:
    return float(x.sum() if w is None else np.dot(w, x))


#: rows per leaf of :func:`sums_01` (its scratch stays in the L2 cache)
_LEAF = 1 << 15
#: the bits of the float64 1.0: a 0/1 int64 times this, viewed as float64, is
#: 0.0/1.0 (an integer multiply, several times faster than numpy's cast)
_ONE_BITS = np.int64(0x3FF0000000000000)


def sums_01(y: np.ndarray, p: np.ndarray, w: np.ndarray | None):
    """``((W0, W1), sum w (p - y)^2, (n0, n1))`` of 0/1 labels ``y`` in one
    pass over cache-sized leaves, each shown valid while in cache (``p`` in
    [0, 1], ``y`` 0/1, ``w`` finite and non-negative); None when a leaf is
    not shown valid (the caller then validates in full)."""
    n = p.shape[0]
    m = min(n, _LEAF)
    d, t = np.empty(m), np.empty(m)
    loss = w0 = w1 = 0.0
    n1 = 0
    as_int = y.dtype == np.int64
    # sums beyond the largest float are inf (refused by the state), unwarned
    with np.errstate(over="ignore"):
        for s in range(0, n, _LEAF):
            pb, yb = p[s : s + _LEAF], y[s : s + _LEAF]
            k = pb.shape[0]
            db, tb = d[:k], t[:k]
            if not (_probabilities_shown_valid(pb) and _only_zeros_and_ones(yb, tb)):
                return None
            if as_int:
                np.multiply(yb, _ONE_BITS, out=tb.view(np.int64))
                yf = tb
                c1 = int(np.add.reduce(yb))
            else:
                yf = yb
                c1 = int(np.count_nonzero(yb))
            n1 += c1
            np.subtract(pb, yf, out=db)
            np.multiply(db, db, out=db)
            if w is None:
                loss += float(np.add.reduce(db))
                continue
            wb = w[s : s + _LEAF]
            if not _weights_shown_valid(wb):
                return None
            np.multiply(db, wb, out=db)
            loss += float(np.add.reduce(db))
            np.multiply(wb, yf, out=db)
            w1 += float(np.add.reduce(db))
            np.subtract(wb, db, out=db)  # exactly w where y is 0, else 0
            w0 += float(np.add.reduce(db))
    if w is None:
        w0, w1 = float(n - n1), float(n1)
    return (w0, w1), loss, (n - n1, n1)


def _weights_shown_valid(w: np.ndarray) -> bool:
    """Whether every float64 weight is finite and at least +0 (one integer
    maximum: -0.0, negative numbers, infinity and NaN lie above the largest
    finite pattern)."""
    return bool(w.view(np.uint64).max() < np.uint64(0x7FF0000000000000))


class BrierSkill:
    """The skill score of a state whose ``sums()`` are the Brier kernel's
    (:class:`BrierState`, :class:`~skbrier.states.MulticlassBrierState`)."""

    sums: Callable[[], BrierSums]
    n_columns: int | None = None  # 2-D forecasts: their columns

    def _constant(self, reference: Any) -> float | None:
        """The constant reference (a base rate) of :meth:`skill` and
        ``reference_score``, checked as ``brier_skill_score`` checks it;
        reference forecasts are a column given to ``update``."""
        if reference is not None and (
            np.ndim(reference) != 0 or isinstance(reference, (str, bytes))
        ):
            raise TypeError(
                f"reference must be None (climatology) or a base rate in [0, 1], got "
                f"{reference!r}; reference forecasts are a column given to update("
                "..., reference=...) by a state made with with_reference=True."
            )
        k = self.n_columns
        shape = np.empty(0) if k is None else np.empty((0, k))
        ref = check_reference(reference, Forecast(None, shape, None, None, k is None))
        assert ref is None or isinstance(ref, float)
        return ref

    def skill(self, reference: float | None = None) -> float:
        """The skill score ``1 - BS / BS_ref`` (NaN, with the in-memory
        ``UndefinedMetricWarning``, when ``BS_ref`` is 0)."""
        score, bs_ref = skill_finish(self.sums(), self._constant(reference))
        if bs_ref == 0.0:
            warn_undefined_skill()
        return score


class WithReference:
    """A state built with ``with_reference=True`` takes a ``reference`` column
    of reference forecasts in ``update`` (:class:`BrierState`, the multiclass
    and ranked states)."""

    with_reference: bool
    columns_option = "with_reference"

    def _column_names(self) -> tuple[str, ...]:
        return ("reference",) if self.with_reference else ()


@with_pieces(STATE_PIECES)
class BrierState(BrierSkill, WithReference, BinaryState):
    r"""Mergeable state of the binary Brier score and skill score.

    Keeps, per label of ``y_true``, the sufficient statistics of the one
    Brier kernel (:func:`~skbrier._core.kernels.brier.brier_reduce` in its
    hypotheses form: :math:`\sum w`, :math:`\sum w p^2` and
    :math:`\sum w (1 - p)^2`, and the same for reference forecasts ``r``
    when given); :meth:`finalize` gives each label its 0/1 outcome, adds the
    sums and finishes with :func:`~skbrier._core.kernels.brier.brier_finish`:

    .. math::

        \mathrm{BS} = \frac{1}{W}\Big(\sum_{y = 1} w (1 - p)^2
                      + \sum_{y = 0} w p^2\Big)

    with no cancellation, whichever label turns out to be positive.

    Parameters
    ----------
    pos_label : int, float, bool or str, default=None
        The positive class (scikit-learn's rule over all labels when None).
    {{with_reference}}

    {{brier_reference}}

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.states import BrierState
    >>> a = BrierState().update([0, 1], [0.2, 0.7])
    >>> b = BrierState().update([1, 1], [0.9, 0.6])
    >>> round(a.merge(b).finalize(), 6)
    0.075
    """

    def __init__(self, *, pos_label: Any = None, with_reference: bool = False) -> None:
        super().__init__(pos_label=pos_label)
        self.with_reference = check_bool(with_reference, "with_reference")

    def _extra(self, n: int, **columns: Any) -> dict:
        return forecast_columns(columns, self._column_names(), n)

    def _reduce_01(self, y, p, w):
        # one fused pass (sums_01) giving the kernel's hypotheses form
        # (BrierSums on the unhalved scale: 2 (p - y)^2 for 1-D forecasts); a
        # chunk holding both labels whose positive class is 1 keeps its whole
        # loss under label 1 (label 0's loss of outcome 0 is then 0, and the
        # outcomes that cannot happen are NaN, never read by given())
        if self.with_reference:
            return None
        got = sums_01(y, p, w)
        if got is None:
            return None
        (w0, w1), loss, (n0, n1) = got
        zero, one = (y.dtype.type(v).item() for v in (0, 1))
        if n1 == 0:  # one label: both of its outcomes, as the general path
            both = np.array([2.0 * loss, 2.0 * _wsum((1.0 - p) ** 2, w)])
            return [(zero, BrierSums(w0, both), n0)]
        if n0 == 0:
            return [(one, BrierSums(w1, np.array([2.0 * _wsum(p * p, w), 2.0 * loss])), n1)]
        if not (self.pos_label is None or _is_one(self.pos_label)):
            return None
        nan = np.nan
        return [
            (zero, BrierSums(w0, np.array([0.0, nan])), n0),
            (one, BrierSums(w1, np.array([nan, 2.0 * loss])), n1),
        ]

    def _chunk(self, p, w, extra):
        # the kernel's hypotheses form: the sums for an outcome of 0 and of 1
        return brier_reduce(np, None, p, w, reference=extra.get("reference"))

    def _weight_of(self, sums: Any) -> float:
        return float(sums.weight)

    def sums(self) -> BrierSums:
        """The merged :class:`~skbrier._core.kernels.brier.BrierSums` of the
        rows, each label's with its 0/1 outcome."""
        total = None
        for y01, s in self.encoded():
            part = s.given(int(y01))
            total = part if total is None else total + part
        assert total is not None  # encoded() raises when there are no rows
        return total

    def finalize(self) -> float:
        """The Brier score on the [0, 1] scale."""
        return brier_finish(self.sums())

    def brier_index(self) -> float:
        """The Brier Index ``100 (1 - sqrt(BS))``."""
        return brier_index_from_score(self.finalize())

    def reference_score(self, reference: float | None = None) -> float:
        """Brier score of the reference (on the [0, 1] scale): climatology
        (None), a constant rate, or the ``reference`` column given to
        :meth:`update`."""
        return reference_finish(self.sums(), self._constant(reference)) / 2.0


class SpiegelhalterState(BinaryState):
    r"""Mergeable state of Spiegelhalter's z.

    Per label, the hypotheses form of the in-memory kernel's sums
    (:func:`~skbrier._core.kernels.calibration.spiegelhalter_reduce`):
    :math:`\sum w`, the numerators for an outcome of 0 and of 1 and
    :math:`\sum w (1 - 2p)^2 p (1 - p)`; ``finalize`` calls its finish,
    :func:`~skbrier._core.kernels.calibration.spiegelhalter_from_sums`.

    .. math::

        z = \frac{\sum_i w_i (y_i - p_i)(1 - 2 p_i)}
                 {\sqrt{\sum_i w_i (1 - 2 p_i)^2 p_i (1 - p_i)}}

    See Also
    --------
    skbrier.metrics.calibration.spiegelhalter_z : The test on arrays, with
        its reference (Spiegelhalter 1986).

    Examples
    --------
    >>> from skbrier.states import SpiegelhalterState
    >>> s = SpiegelhalterState().update([0, 1, 1], [0.2, 0.7, 0.6])
    >>> s = s.merge(SpiegelhalterState().update([0, 1], [0.3, 0.9]))
    >>> z, pvalue = s.finalize()
    >>> round(z, 4)
    -1.1867
    """

    def _chunk(self, p, w, extra):
        return spiegelhalter_reduce(np, None, p, w)

    def finalize(self) -> tuple[float, float]:
        """``(z, two-sided p-value)``."""
        num = 0.0
        den = 0.0
        total = 0.0
        for y01, s in self.encoded():
            num += s[2] if y01 == 1.0 else s[1]
            den += s[3]
            total += s[0]
        return spiegelhalter_from_sums(num, den, 1.0, total)
