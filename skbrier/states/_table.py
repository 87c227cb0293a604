"""Per-distinct-forecast tables: the CORP decomposition and the C statistic, exactly."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core import binning as _binning
from .._core.binning import round_to_resolution
from .._core.kernels.decomposition import corp_from_groups
from .._core.params import check_resolution
from ..metrics._decomposition_results import CORPDecomposition
from ._base import BinaryState

__all__ = ["ForecastTable"]


def _group(x: np.ndarray, w: np.ndarray, c: np.ndarray):
    """Sum ``w`` and ``c`` over equal ``x``: ``(distinct x sorted, sum w, sum c)``."""
    ux, inv = np.unique(x, return_inverse=True)
    k = ux.shape[0]
    return (
        ux,
        np.bincount(inv, weights=w, minlength=k),
        np.bincount(inv, weights=c, minlength=k).astype(np.int64),
    )


def _group_grid(x: np.ndarray, w: np.ndarray, c: np.ndarray):
    """:func:`_group` of ``x`` rounded to the ``resolution="auto"`` grid, by
    bincount over the grid index (O(n + grid), no sort); the values are those
    of :func:`~skbrier._core.binning.round_to_resolution`."""
    step = _binning.AUTO_RESOLUTION
    k = np.round(x / step)
    idx = k.astype(np.int64)
    size = int(idx.max()) + 1 if idx.shape[0] else 0
    sw = np.bincount(idx, weights=w, minlength=size)
    sc = np.bincount(idx, weights=c, minlength=size)
    sn = np.bincount(idx, minlength=size)
    keep = np.flatnonzero(sn)
    return (
        np.clip(keep * step, 0.0, 1.0) + 0.0,
        sw[keep],
        sc[keep].astype(np.int64),
    )


class _Table:
    """The table of one label; ``auto`` (a count, 0: never): round to
    :data:`AUTO_RESOLUTION` once it holds more than ``auto`` values
    (``rounded``).  The state's :data:`AUTO_MAX_DISTINCT`, taken when the
    state is made, travels with it (to the workers of a cluster).

    Never changed once built (states share tables after a merge)."""

    __slots__ = ("auto", "count", "rounded", "w", "x")

    def __init__(self, x, w, count, *, auto=0, rounded=False):
        if auto and not rounded and x.shape[0] > auto:
            x, w, count = _group_grid(x, w, count)
            rounded = True
        self.x, self.w, self.count = x, w, count
        self.auto, self.rounded = auto, rounded

    def on_grid(self) -> _Table:
        """The table with the forecasts rounded to :data:`AUTO_RESOLUTION` (a
        function of the values: the same as rounding the rows first)."""
        if self.rounded:
            return self
        return _Table(
            *_group_grid(self.x, self.w, self.count), auto=self.auto, rounded=True
        )

    def __add__(self, other: _Table) -> _Table:
        a, b = (
            (self.on_grid(), other.on_grid())
            if self.rounded != other.rounded
            else (self, other)
        )
        x, w = np.concatenate([a.x, b.x]), np.concatenate([a.w, b.w])
        count = np.concatenate([a.count, b.count])
        if a.rounded:  # on the grid: sums by grid index, no sort
            return _Table(*_group_grid(x, w, count), auto=a.auto, rounded=True)
        return _Table(*_group(x, w, count), auto=a.auto or b.auto)


class ForecastTable(BinaryState):
    r"""Mergeable table of the distinct forecasts: per label of ``y_true`` and
    distinct value of ``p``, the number of rows and :math:`\sum w`.

    Everything that depends on the forecasts only through their order and
    ties -- the CORP (isotonic) decomposition and the C statistic -- is a
    function of this table, so merged tables give the in-memory results
    exactly (ties and weights included).  Rows of zero weight are left out
    (they are removed rows).  The table has one row per distinct forecast
    and label; ``resolution`` rounds the forecasts to multiples of it first,
    which bounds the table (``1 / resolution + 1`` values) for continuous
    forecasts, at the price of the rounding; ``resolution="auto"`` keeps the
    forecasts exact while each label has at most ``2**20`` distinct
    forecasts and rounds them all to multiples of ``1e-6`` beyond (whatever
    the partitioning: the rule depends on the whole data only).
    :attr:`rounded_to` tells which.

    Rounding is non-decreasing, so it never reverses two forecasts; it only
    ties those closer than the step: C changes by at most half the weighted
    share of event/non-event pairs closer than ``resolution``, the Brier
    score by at most ``resolution``, and the CORP discrimination can only
    decrease (the isotonic fit is constrained to the coarser ties).

    .. math::

        C = \frac{\sum_{i: y_i = 1} \sum_{j: y_j = 0} w_i w_j
            \big(1[p_i > p_j] + \tfrac12 1[p_i = p_j]\big)}{W_1 W_0}

    Parameters
    ----------
    resolution : float, "auto" or None, default=None
        Round the forecasts to multiples of ``resolution`` (None: exact;
        "auto": exact up to ``2**20`` distinct forecasts per label).
    pos_label : int, float, bool or str, default=None
        The positive class.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118, e2016191118, 2021.
    .. [2] J. A. Hanley and B. J. McNeil, "The meaning and use of the area
       under a receiver operating characteristic (ROC) curve", Radiology 143,
       29-36, 1982.

    Examples
    --------
    >>> from skbrier.states import ForecastTable
    >>> t = ForecastTable().update([0, 0], [0.1, 0.4])
    >>> t = t.merge(ForecastTable().update([1, 1], [0.35, 0.8]))
    >>> t.c_statistic()
    0.75
    >>> t.corp().uncertainty
    0.25
    """

    def __init__(
        self, *, resolution: float | str | None = None, pos_label: Any = None
    ) -> None:
        super().__init__(pos_label=pos_label)
        self.resolution = check_resolution(resolution)
        #: the cap of ``resolution="auto"`` (read now: the state carries it)
        self._max_distinct = _binning.AUTO_MAX_DISTINCT

    def _chunk(self, p, w, extra):
        step = self.resolution
        p = round_to_resolution(p, step) if isinstance(step, float) else p + 0.0
        auto = self._max_distinct if step == "auto" else 0
        ones = np.ones(p.shape[0], dtype=np.int64)
        if w is None:
            return _Table(*_group(p, ones.astype(np.float64), ones), auto=auto)
        keep = w > 0
        return _Table(*_group(p[keep], w[keep], ones[keep]), auto=auto)

    def _parts(self) -> list[tuple[float, _Table]]:
        """The encoded tables, all rounded when one is (``resolution="auto"``)."""
        parts = self.encoded()
        if any(t.rounded for _, t in parts):
            return [(v, t.on_grid()) for v, t in parts]
        return parts

    @property
    def rounded_to(self) -> float | None:
        """The step the forecasts were rounded to (None: exact)."""
        if isinstance(self.resolution, float):
            return self.resolution
        if any(t.rounded for t in self._sums.values()):
            return _binning.AUTO_RESOLUTION
        return None

    def _weight_of(self, sums: Any) -> float:
        return float(sums.w.sum())

    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(x, w, ysum, count)``: distinct forecasts (increasing) with their total
        weight, weighted number of events and number of rows."""
        parts = self._parts()
        x = np.concatenate([t.x for _, t in parts])
        w = np.concatenate([t.w for _, t in parts])
        y = np.concatenate([t.w * v for v, t in parts])
        c = np.concatenate([t.count for _, t in parts])
        ux, inv = np.unique(x, return_inverse=True)
        k = ux.shape[0]
        return (
            ux,
            np.bincount(inv, weights=w, minlength=k),
            np.bincount(inv, weights=y, minlength=k),
            np.bincount(inv, weights=c, minlength=k).astype(np.int64),
        )

    def corp(self) -> CORPDecomposition:
        """The CORP decomposition (``corp_decomposition`` without resampling)."""
        x, w, ysum, count = self.table()
        bs, mcb, dsc, unc, c = corp_from_groups(x, w, ysum)
        return CORPDecomposition(
            brier_score=bs,
            miscalibration=mcb,
            discrimination=dsc,
            uncertainty=unc,
            base_rate=float(ysum.sum() / w.sum()),
            n_samples=int(self.n_samples),
            forecast_values=x,
            recalibrated_values=c,
            value_weights=w,
            value_counts=count,
            n_resamples=0,
            confidence_level=0.95,
        )

    def c_statistic(self) -> float:
        """The C statistic (``c_statistic``; scikit-learn's ``roc_auc_score`` on the table)."""
        from sklearn.metrics import roc_auc_score

        parts = self._parts()
        # a label whose rows all weigh 0 keeps an empty table: not a class here
        if len({v for v, t in parts if t.w.shape[0]}) < 2:
            raise ValueError(
                "y_true contains a single class (among the rows of positive weight): "
                "the C statistic is undefined."
            )
        x = np.concatenate([t.x for _, t in parts])
        w = np.concatenate([t.w for _, t in parts])
        y = np.concatenate([np.full(t.x.shape[0], v) for v, t in parts])
        return float(roc_auc_score(y, x, sample_weight=w / w.max()))

    def finalize(self) -> CORPDecomposition:
        """Same as :meth:`corp`."""
        return self.corp()
