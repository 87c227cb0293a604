"""Per-bin sums: the binned (Murphy) decomposition and the binned calibration error."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.binning import assign_bins, check_edges, check_edges_cover
from .._core.kernels.bin_statistics import BinStatistics
from .._core.kernels.calibration_error import BinSums, calibration_finish
from .._core.kernels.decomposition import binned_sums, pow2_exponent
from .._core.params import check_bool, check_option
from ..metrics._calibration_error_core import _NORMS
from ..metrics._decomposition_core import murphy_result
from ..metrics._decomposition_results import MurphyDecomposition
from ._base import BinaryState

__all__ = ["BinnedState"]


class BinnedState(BinaryState):
    r"""Mergeable per-bin sums of a binary forecast, per label of ``y_true``.

    Each label keeps the :class:`~skbrier.metrics.decomposition.BinStatistics` of its rows
    (count and the sums of :math:`w`, :math:`wp`, :math:`wp^2`, :math:`w^2`
    per bin); in :meth:`statistics` the outcome sums :math:`\sum w y` and
    :math:`\sum w p y` of a label are its :math:`\sum w` and :math:`\sum wp`
    when it is the positive class and 0 otherwise.  The bins are fixed
    (``edges``): equal-mass bins need the quantiles of all forecasts and are
    not mergeable.

    .. math::

        \mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC}
            + \mathrm{WBV} - \mathrm{WBC},\qquad
        \mathrm{ECE} = \sum_k \frac{W_k}{W} |\bar p_k - \bar y_k|

    Parameters
    ----------
    edges : ndarray of shape (n_bins + 1,)
        Bin edges, increasing, covering the forecasts.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin (True) or the upper one.
    pos_label : int, float, bool or str, default=None
        The positive class.

    References
    ----------
    .. [1] A. H. Murphy, "A new vector partition of the probability score",
       Journal of Applied Meteorology 12, 595-600, 1973.
    .. [2] D. B. Stephenson, C. A. S. Coelho and I. T. Jolliffe, "Two extra
       components in the Brier score decomposition", Weather and Forecasting
       23, 752-757, 2008.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.states import BinnedState
    >>> edges = np.linspace(0.0, 1.0, 3)
    >>> s = BinnedState(edges).update([0, 1, 1], [0.1, 0.8, 0.6])
    >>> s = s.merge(BinnedState(edges).update([0], [0.3]))
    >>> round(s.murphy().brier_score, 4)
    0.075
    >>> round(s.calibration_error("l1"), 4)
    0.25
    """

    def __init__(self, edges: np.ndarray, *, right: bool = True, pos_label: Any = None):
        super().__init__(pos_label=pos_label)
        self.edges = check_edges(edges, "edges")
        self.right = check_bool(right, "right")

    def _check_rows(self, p):
        check_edges_cover(p, self.edges)

    def _chunk(self, p, w, extra):
        e = self.edges  # covering the chunk's forecasts: _check_rows
        idx = assign_bins(p, e, right=self.right)
        # the sums of the weights times a power of two (exact), as in memory,
        # so that the squares of tiny or huge weights neither under- nor overflow
        exponent = 0 if w is None else pow2_exponent(w)
        sums = binned_sums(idx, e.shape[0] - 1, np.zeros_like(p), p, w, exponent=exponent)
        return BinStatistics(e, *sums, right=self.right).scaled(-exponent)

    def _weight_of(self, sums: Any) -> float:
        return float(sums.sum_w.sum())

    def statistics(self) -> BinStatistics:
        """The merged :class:`~skbrier.metrics.decomposition.BinStatistics` with the 0/1 outcomes."""
        total = None
        for y01, s in self.encoded():
            if y01 == 1.0:
                s = dataclasses.replace(s, sum_wy=s.sum_w.copy(), sum_wpy=s.sum_wp.copy())
            total = s if total is None else total + s
        assert total is not None
        return total

    def murphy(self, *, bias_correction: bool = False) -> MurphyDecomposition:
        """The binned decomposition (``murphy_decomposition`` with these bins)."""
        return murphy_result(self.statistics(), bias_correction)

    def calibration_error(self, norm: str = "l1") -> float:
        """The binned calibration error (``calibration_error(kind="binary")``)."""
        norm = check_option(norm, "norm", _NORMS)  # as calibration_error checks it
        s = self.statistics()
        return calibration_finish([BinSums(s.sum_w, s.sum_wp, s.sum_wy)], norm)

    def finalize(self) -> MurphyDecomposition:
        """Same as :meth:`murphy`."""
        return self.murphy()
