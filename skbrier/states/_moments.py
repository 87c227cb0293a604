"""Centred moments of per-row quantities: the iid variance of Brier scores."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.kernels.moments import Moments, merge_moments, moment_reduce
from ._base import BinaryState
from ._chunks import check_names, forecast_columns

__all__ = ["MomentState", "merge_moments"]


class MomentState(BinaryState):
    r"""Mergeable centred moments of the squared errors of forecasts.

    For each label of ``y_true`` and each forecast column :math:`q` (``y_proba``
    and the keyword columns named in ``columns``) keeps, over the rows of
    positive weight, the weighted mean and centred cross-products
    :math:`M_2 = \sum w (h - \bar h)(h - \bar h)'` of
    :math:`h = (q^2, (1 - q)^2, \ldots)` (the squared error for an outcome of
    0 and of 1) and of the differences of the first column's squared errors
    and the others', merged by Chan et al.'s update.  :meth:`class_moments`
    picks each label's columns once the positive class is known, and
    :func:`merge_moments` pools the classes, so that the iid covariance of
    the mean losses is :math:`M_2 / ((W - 1) W)` as in memory.

    Parameters
    ----------
    columns : sequence of str, default=()
        Names of further forecast columns given to :meth:`update`.
    pos_label : int, float, bool or str, default=None
        The positive class.

    References
    ----------
    .. [1] T. F. Chan, G. H. Golub and R. J. LeVeque, "Algorithms for
       computing the sample variance", The American Statistician 37,
       242-247, 1983.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.states import MomentState
    >>> a = MomentState().update([0, 1, 1], [0.2, 0.7, 0.4])
    >>> b = MomentState().update([0, 1], [0.5, 0.9])
    >>> n, w, mean, m2, lo, hi = a.merge(b).class_moments()
    >>> round(float(mean[0]), 4)  # the Brier score
    0.15
    """

    def __init__(self, columns: tuple[str, ...] | list[str] = (), *, pos_label: Any = None):
        super().__init__(pos_label=pos_label)
        self.columns = check_names(columns, "columns")

    columns_option = "columns"

    def _column_names(self) -> tuple[str, ...]:
        return self.columns

    def _extra(self, n: int, **columns: Any) -> dict:
        return forecast_columns(columns, self.columns, n)

    def _chunk(self, p, w, extra):
        sq = [p * p, (p - 1.0) * (p - 1.0)]
        for name in self.columns:
            q = extra[name]
            sq += [q * q, (q - 1.0) * (q - 1.0)]
        for j in range(1, len(self.columns) + 1):
            sq += [sq[0] - sq[2 * j], sq[1] - sq[2 * j + 1]]
        return moment_reduce(np, np.column_stack(sq), w)

    def _add(self, a, b):
        return merge_moments(a, b)

    def _weight_of(self, sums: Any) -> float:
        return float(sums[1])

    def class_moments(self, constant: tuple[float, float] | None = None) -> Moments:
        """Pooled ``(n, W, mean, M2, min, max)`` of the losses: the columns
        ``[loss of y_proba, loss of each column, each difference]``.

        ``constant``: a last column equal to ``constant[y01]`` on every row of
        the class (climatology or a constant reference forecast)."""
        k = len(self.columns)
        pooled = None
        for y01, (n, w, mean, m2, lo, hi) in self.encoded():
            cols = [int(y01) + 2 * j for j in range(k + 1)] + [
                2 * (k + 1) + 2 * j + int(y01) for j in range(k)
            ]
            part = Moments(n, w, mean[cols], m2[np.ix_(cols, cols)], lo[cols], hi[cols])
            if constant is not None:
                v = constant[int(y01)]
                m = len(cols)
                m2c = np.zeros((m + 1, m + 1))
                m2c[:m, :m] = part[3]
                part = Moments(
                    n,
                    w,
                    np.append(part[2], v),
                    m2c,
                    np.append(part[4], v),
                    np.append(part[5], v),
                )
            pooled = part if pooled is None else Moments(*merge_moments(pooled, part))
        assert pooled is not None  # encoded() raises when there are no rows
        return pooled
