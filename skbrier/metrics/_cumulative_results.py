"""The results of :func:`~skbrier.metrics.cumulative.cumulative_calibration` and
:func:`~skbrier.metrics.cumulative.multicalibration_error`.

Public as ``skbrier.results.CumulativeCalibrationResult`` and
``skbrier.results.MulticalibrationResult``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from .._core.docstrings import shared_doc
from .._core.format import format_number
from .._core.optional import import_optional
from .._core.results import Result, to_builtin

__all__ = ["CumulativeCalibrationResult", "MulticalibrationResult"]

#: the per-group (per-segment) statistics, in the order of the tables
_STATISTICS = (
    "ks",
    "kuiper",
    "sigma",
    "ks_statistic",
    "kuiper_statistic",
    "ks_pvalue",
    "kuiper_pvalue",
)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class CumulativeCalibrationResult(Result):
    r"""The cumulative calibration tests of Arrieta-Ibarra et al. (2022).

    Returned by :func:`~skbrier.metrics.cumulative.cumulative_calibration`;
    not meant to be built by hand.

    Attributes
    ----------
    ks : float
        :math:`\max_k |C_k|`, the largest absolute cumulative difference
        (ECCE-MAD).
    kuiper : float
        :math:`\max_k C_k - \min_k C_k`, the range of the curve (ECCE-R,
        MCGrad's ``ecce``).
    sigma : float
        The standard deviation of the curve's endpoint under calibration.
    ks_statistic, kuiper_statistic : float
        ``ks / sigma`` and ``kuiper / sigma`` (MAPIE's
        ``kolmogorov_smirnov_statistic`` and ``kuiper_statistic``; the
        second is MCGrad's ``ecce_sigma``).  Infinite when ``sigma`` is 0
        (forecasts all 0 or 1) and the curve is not flat.
    ks_pvalue, kuiper_pvalue : float
        Their asymptotic p-values: the upper tails of the maximum of
        :math:`|B|` and of the range of :math:`B`, a standard Brownian
        motion on [0, 1].
    n : int
        The number of rows (with positive weight).
    total_weight : float
        :math:`W`, the sum of the weights (``n`` without weights).
    convention : str
        ``"paper"``, ``"mcgrad"`` or ``"mapie"``.
    forecast : ndarray of shape (n_points,)
        The distinct forecasts, increasing.
    share : ndarray of shape (n_points,)
        The share of the total weight at or below each forecast (the
        abscissa :math:`A_k` of the paper's plot).
    cumulative_difference : ndarray of shape (n_points,)
        :math:`C` after each distinct forecast (the curve starts at the
        origin, which is not stored).
    groups : ndarray or None
        The groups (sorted) when ``groups=`` was given.
    by_group : dict of str to ndarray or None
        Per group: ``n``, ``weight`` and every statistic above, with
        ``ks_pvalue_holm`` and ``kuiper_pvalue_holm`` (Holm-adjusted
        across the groups).  NaN p-values for a group with fewer than 3
        observations.
    worst_group : object or None
        The group with the largest ``kuiper_statistic`` among those with a
        p-value.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics import cumulative_calibration
    >>> res = cumulative_calibration([0, 1, 0, 1, 1], [0.1, 0.4, 0.5, 0.8, 0.9])
    >>> round(res.kuiper, 4), res.cumulative_difference.round(2)
    (0.12, array([-0.02,  0.1 ,  0.  ,  0.04,  0.06]))
    """

    ks: float
    kuiper: float
    sigma: float
    ks_statistic: float
    kuiper_statistic: float
    ks_pvalue: float
    kuiper_pvalue: float
    n: int
    total_weight: float
    convention: str
    forecast: np.ndarray
    share: np.ndarray
    cumulative_difference: np.ndarray
    groups: np.ndarray | None = None
    by_group: dict[str, np.ndarray] | None = None
    worst_group: Any = None

    _summary_fields: ClassVar[tuple[str, ...]] = (*_STATISTICS, "n", "convention")

    def _summary_rows(self) -> list[tuple[str, str]]:
        rows = super()._summary_rows()
        if self.by_group is not None and self.groups is not None:
            i = self._group_index(self.worst_group)
            rows += [
                ("n_groups", str(len(self.groups))),
                ("worst_group", str(self.worst_group)),
                (
                    "worst_group_kuiper_pvalue_holm",
                    format_number(self.by_group["kuiper_pvalue_holm"][i])
                    if i is not None
                    else "nan",
                ),
            ]
        return rows

    def _group_index(self, group: Any) -> int | None:
        if self.groups is None or group is None:
            return None
        hits = np.flatnonzero(self.groups == group)
        return int(hits[0]) if hits.size else None

    def to_frame(self, *, curve: bool = False) -> Any:
        """The statistics as a :class:`pandas.DataFrame`, or the curve (needs pandas).

        Parameters
        ----------
        curve : bool, default=False
            False: one row ``"overall"`` and one per group with ``n``,
            ``weight``, the statistics and (groups) the Holm-adjusted
            p-values.  True: one row per distinct forecast, the origin
            first: ``forecast`` (NaN at the origin), ``share`` and
            ``cumulative_difference``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> from skbrier.metrics import cumulative_calibration
        >>> res = cumulative_calibration([0, 1, 1, 0], [0.2, 0.4, 0.6, 0.7])
        >>> res.to_frame(curve=True).round(3)
           forecast  share  cumulative_difference
        0       NaN   0.00                  0.000
        1       0.2   0.25                 -0.050
        2       0.4   0.50                  0.100
        3       0.6   0.75                  0.200
        4       0.7   1.00                  0.025
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        if curve:
            return pd.DataFrame(
                {
                    "forecast": np.r_[np.nan, self.forecast],
                    "share": np.r_[0.0, self.share],
                    "cumulative_difference": np.r_[0.0, self.cumulative_difference],
                }
            )
        row: dict[str, Any] = {"group": "overall", "n": self.n, "weight": self.total_weight}
        row.update({k: getattr(self, k) for k in _STATISTICS})
        frame = pd.DataFrame([row])
        if self.by_group is None:
            return frame
        groups = pd.DataFrame({"group": to_builtin(self.groups), **self.by_group})
        return pd.concat([frame, groups], ignore_index=True)

    @shared_doc
    def plot(self, ax: Any = None) -> Any:
        r"""Draw the cumulative difference against the share of the weight.

        The curve starts at the origin; under calibration it wanders like a
        random walk whose endpoint has standard deviation ``sigma``, drawn as
        a triangle of height :math:`\pm\sigma` at the origin (as in the
        paper).  A slope of the curve is the miscalibration at those
        forecasts: rising where the outcomes exceed the forecasts.  The top
        axis labels shares with their forecasts.

        Parameters
        ----------
        {{ax}}

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skbrier.metrics import cumulative_calibration
        >>> res = cumulative_calibration([0, 1, 1, 0, 1], [0.2, 0.4, 0.6, 0.7, 0.9])
        >>> ax = res.plot()
        >>> ax.get_ylabel()
        'cumulative difference (observed - forecast)'
        """
        from ..plotting._common import new_axes

        ax = new_axes(ax, "CumulativeCalibrationResult.plot")
        x = np.r_[0.0, self.share]
        y = np.r_[0.0, self.cumulative_difference]
        ax.plot(x, y, color="k", linewidth=1.2, label="cumulative difference")
        s = self.sigma
        if np.isfinite(s) and s > 0:
            ax.fill([0.0, 0.03, 0.0], [-s, 0.0, s], color="0.6", label=r"$\pm\sigma$")
        ax.axhline(0.0, color="0.8", linewidth=0.8, zorder=0)
        ax.set_xlim(0.0, 1.0)
        ax.set_xlabel("share of the weight, forecasts in increasing order")
        ax.set_ylabel("cumulative difference (observed - forecast)")
        top = ax.twiny()
        top.set_xlim(ax.get_xlim())
        ticks = np.linspace(0.0, 1.0, 6)
        top.set_xticks(ticks)
        labels = np.interp(ticks, x[1:], self.forecast) if self.forecast.size else ticks
        top.set_xticklabels([f"{v:.2f}" for v in labels])
        top.set_xlabel("forecast")
        ax.set_title(
            f"Kuiper {format_number(self.kuiper_statistic, 3)} sigma "
            f"(p = {format_number(self.kuiper_pvalue, 2)})",
            fontsize="medium",
        )
        ax.legend(loc="best", fontsize="small")
        return ax


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class MulticalibrationResult(Result):
    r"""The multicalibration error: the worst normalised ECCE over segments.

    Returned by :func:`~skbrier.metrics.cumulative.multicalibration_error`;
    not meant to be built by hand.

    Attributes
    ----------
    mce_sigma : float
        The largest normalised ECCE (Kuiper statistic) over the segments,
        the whole sample included (MCGrad's ``mce_sigma``).
    pvalue : float
        Its p-value, the smallest over the segments (not adjusted for
        multiplicity, as MCGrad's ``mce_pvalue``; ``by_segment`` has the
        Holm-adjusted ones).
    mce : float
        ``mce_sigma`` times the whole sample's ``sigma`` (MCGrad's ``mce``).
    mce_relative : float
        ``mce`` in percent of the smaller of the base rate and its
        complement (MCGrad's ``mce_relative``).
    mde : float
        Five times the whole sample's ``sigma``: the smallest ECCE detected
        at about 5 sigma (MCGrad's ``mde``).
    global_ecce, global_ecce_sigma, global_pvalue : float
        The ECCE of the whole sample, normalised, and its p-value.
    worst_segment : dict
        The segment of ``mce_sigma``: its column names and values (empty:
        the whole sample).
    n_segments : int
        The number of segments tested (the whole sample included).
    segments : list of dict
        Each segment's column names and values, in the order of the rows of
        ``by_segment``.
    by_segment : dict of str to ndarray
        Per segment: ``n`` (rows), ``weight``, ``ecce`` (Kuiper's range of
        its own curve), ``sigma``, ``ecce_sigma``, ``pvalue`` and
        ``pvalue_holm``.
    max_depth, min_samples : int
        The options the segments were made with.
    convention : str
        ``"paper"`` or ``"mcgrad"``.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics import multicalibration_error
    >>> rng = np.random.default_rng(0)
    >>> g = rng.integers(0, 2, 2000)
    >>> p = rng.uniform(0.1, 0.9, 2000)
    >>> y = rng.uniform(size=2000) < np.where(g == 1, p**2, p)
    >>> res = multicalibration_error(y, p, segments=g)
    >>> res.worst_segment
    {'x0': 1}
    """

    mce_sigma: float
    pvalue: float
    mce: float
    mce_relative: float
    mde: float
    global_ecce: float
    global_ecce_sigma: float
    global_pvalue: float
    worst_segment: dict
    n_segments: int
    segments: list
    by_segment: dict
    max_depth: int
    min_samples: float
    convention: str

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "mce_sigma",
        "pvalue",
        "mce",
        "mce_relative",
        "mde",
        "global_ecce",
        "global_ecce_sigma",
        "global_pvalue",
        "n_segments",
    )

    def _summary_rows(self) -> list[tuple[str, str]]:
        return [*super()._summary_rows(), ("worst_segment", _describe(self.worst_segment))]

    def to_frame(self) -> Any:
        """One row per segment (the whole sample first), needs pandas.

        Returns
        -------
        pandas.DataFrame
            ``segment`` (e.g. ``"sex=F & age=old"``; ``"all"`` for the whole
            sample) and the columns of ``by_segment``.

        Examples
        --------
        >>> from skbrier.metrics import multicalibration_error
        >>> res = multicalibration_error([0, 1] * 20, [0.3, 0.6] * 20,
        ...                              segments=[0, 0, 1, 1] * 10)
        >>> list(res.to_frame()["segment"])
        ['all', 'x0=0', 'x0=1']
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        return pd.DataFrame(
            {"segment": [_describe(s) for s in self.segments], **self.by_segment}
        )


def _describe(segment: dict) -> str:
    return " & ".join(f"{k}={v}" for k, v in segment.items()) or "all"
