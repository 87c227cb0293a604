"""Per-bin sufficient statistics of the binned decomposition.

:class:`BinStatistics` holds the per-bin sums that add exactly across chunks
of data (the mergeable state of the binned decomposition);
:func:`check_edges` validates explicit bin edges.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike

from ..binning import check_edges
from ..optional import import_optional
from ..results import Result

__all__ = ["BinStatistics", "check_edges", "frame"]


def frame(columns: dict[str, Any], owner: Any):
    """``columns`` as a pandas DataFrame, for ``owner.to_frame()``."""
    pd = import_optional("pandas", needed_for=f"{type(owner).__name__}.to_frame()")
    return pd.DataFrame(columns)


@dataclass(frozen=True, eq=False, repr=False)
class BinStatistics(Result):
    r"""Per-bin sufficient statistics of the binned decomposition.

    Everything the binned decomposition needs is a sum over the samples of
    each bin, so statistics computed on chunks of data add up *exactly* (up to
    floating-point summation order) to the statistics of the whole data:
    ``binned_statistics(chunk1) + binned_statistics(chunk2)`` equals
    ``binned_statistics(chunk1 ++ chunk2)``.

    Attributes
    ----------
    edges : ndarray of shape (n_bins + 1,)
        Bin edges.
    count : ndarray of int64, shape (n_bins,)
        Number of samples in each bin.
    sum_w, sum_wp, sum_wy, sum_wpp, sum_wpy, sum_ww : ndarray of shape (n_bins,)
        Per-bin sums of :math:`w`, :math:`w p`, :math:`w y`, :math:`w p^2`,
        :math:`w p y` and :math:`w^2` (:math:`w = 1` without weights).
    right : bool, default=True
        The binning rule: True, bins ``(e_k, e_{k+1}]`` (the first closed; a
        forecast on an inner edge is in the lower bin, as scikit-learn's
        ``calibration_curve`` and R SpecsVerification); False, bins
        ``[e_k, e_{k+1})`` (the last closed; the upper bin).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics.decomposition import binned_statistics
    >>> y = np.array([0., 1., 1., 0.])
    >>> p = np.array([0.1, 0.8, 0.6, 0.3])
    >>> s = binned_statistics(y[:2], p[:2], None, 2) + binned_statistics(
    ...     y[2:], p[2:], None, 2)
    >>> s.count
    array([2, 2])
    >>> s.sum_wy
    array([0., 2.])
    """

    edges: np.ndarray
    count: np.ndarray
    sum_w: np.ndarray
    sum_wp: np.ndarray
    sum_wy: np.ndarray
    sum_wpp: np.ndarray
    sum_wpy: np.ndarray
    sum_ww: np.ndarray
    right: bool = True

    _SUMS: ClassVar[tuple[str, ...]] = (
        "count",
        "sum_w",
        "sum_wp",
        "sum_wy",
        "sum_wpp",
        "sum_wpy",
        "sum_ww",
    )

    @property
    def n_bins(self) -> int:
        """Number of bins."""
        return int(self.count.shape[0])

    @property
    def n_samples(self) -> int:
        """Total number of samples."""
        return int(self.count.sum())

    def _headline(self) -> dict[str, Any]:
        return {
            "n_bins": self.n_bins,
            "n_samples": self.n_samples,
            "total_weight": float(self.sum_w.sum()),
        }

    def merge(self, other: BinStatistics) -> BinStatistics:
        """Statistics of the union of the two samples (same edges and rule).

        Parameters
        ----------
        other : BinStatistics
            Statistics computed with the same bin edges and ``right``.

        Returns
        -------
        BinStatistics
            The element-wise sums.

        Raises
        ------
        TypeError
            If ``other`` is not a :class:`BinStatistics`.
        ValueError
            If the bin edges or the binning rule differ.
        """
        if not isinstance(other, BinStatistics):
            raise TypeError(f"other must be BinStatistics, got {type(other).__name__}.")
        if not np.array_equal(self.edges, other.edges):
            raise ValueError(
                "other has different bin edges; only statistics computed with the "
                "same edges can be merged (use fixed edges, e.g. strategy='uniform' "
                "or an explicit array, for chunked data)."
            )
        if bool(self.right) != bool(other.right):
            raise ValueError(
                "other puts forecasts on an edge in the other bin (right="
                f"{other.right} vs {self.right}); it cannot be merged."
            )
        with np.errstate(over="ignore"):  # beyond the largest float: inf (refused)
            return self._plus(other)

    def _plus(self, other: BinStatistics) -> BinStatistics:
        return BinStatistics(
            edges=self.edges,
            count=self.count + other.count,
            sum_w=self.sum_w + other.sum_w,
            sum_wp=self.sum_wp + other.sum_wp,
            sum_wy=self.sum_wy + other.sum_wy,
            sum_wpp=self.sum_wpp + other.sum_wpp,
            sum_wpy=self.sum_wpy + other.sum_wpy,
            sum_ww=self.sum_ww + other.sum_ww,
            right=self.right,
        )

    def scaled(self, exponent: int) -> BinStatistics:
        """The statistics of the weights times ``2**exponent`` (exact).

        Parameters
        ----------
        exponent : int
            Power of two the weights are multiplied by (a scale-free change:
            the decomposition does not depend on it).

        Returns
        -------
        BinStatistics
            The scaled sums (``self`` for ``exponent=0``).
        """
        if exponent == 0:
            return self
        with np.errstate(over="ignore", under="ignore"):
            return BinStatistics(
                edges=self.edges,
                count=self.count,
                sum_w=np.ldexp(self.sum_w, exponent),
                sum_wp=np.ldexp(self.sum_wp, exponent),
                sum_wy=np.ldexp(self.sum_wy, exponent),
                sum_wpp=np.ldexp(self.sum_wpp, exponent),
                sum_wpy=np.ldexp(self.sum_wpy, exponent),
                sum_ww=np.ldexp(self.sum_ww, 2 * exponent),
                right=self.right,
            )

    def __add__(self, other: Any) -> BinStatistics:
        if not isinstance(other, BinStatistics):
            return NotImplemented
        return self.merge(other)

    def __radd__(self, other: Any) -> BinStatistics:
        # lets ``sum(list_of_statistics)`` work (it starts from 0)
        if isinstance(other, numbers.Number) and other == 0:
            return self
        return NotImplemented

    @classmethod
    def empty(cls, edges: ArrayLike, *, right: bool = True) -> BinStatistics:
        """Statistics of no data for the given edges (the neutral element of ``+``).

        Parameters
        ----------
        edges : array-like of shape (n_bins + 1,)
            Strictly increasing bin edges.
        right : bool, default=True
            The binning rule (see the class).

        Returns
        -------
        BinStatistics
        """
        e = check_edges(edges)
        k = e.shape[0] - 1
        return cls(
            edges=e,
            count=np.zeros(k, dtype=np.int64),
            sum_w=np.zeros(k),
            sum_wp=np.zeros(k),
            sum_wy=np.zeros(k),
            sum_wpp=np.zeros(k),
            sum_wpy=np.zeros(k),
            sum_ww=np.zeros(k),
            right=bool(right),
        )

    def to_frame(self):
        """Per-bin sums as a pandas DataFrame (pandas imported lazily)."""
        cols = {"lower": self.edges[:-1], "upper": self.edges[1:]}
        cols.update({s: getattr(self, s) for s in self._SUMS})
        return frame(cols, self)
