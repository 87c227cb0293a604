"""The parity date: when the state-of-the-art frontier reaches a target score."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import numbers
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike

from .._core.dispatch import HOST, Refused, backends
from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    check_confidence_level,
    check_real,
)
from .._core.resampling import interval_from_replicates
from .._core.results import (
    ConfidenceInterval,
    Result,
    _IntervalResult,
    format_number,
    to_builtin,
)
from ._boot import brier_index_of
from ._docs import leaderboard_doc
from ._history import utc_naive
from ._panel import check_name
from ._result import DifficultyAdjustedResult, LeaderboardResult

__all__ = ["ParityDateResult", "parity_date"]

_EPOCH_ORDINAL = _dt.date(1970, 1, 1).toordinal()


@dataclasses.dataclass(frozen=True, repr=False)
class ParityDateResult(_IntervalResult):
    """When the frontier's linear trend reaches the target (see :func:`skbrier.parity_date`).

    ``confidence_interval()`` is the ``method="percentile"`` interval (its
    only one) of the valid replicate crossings, ``metric="parity_date"`` (the
    crossing :attr:`date`), at any level: dates (or numbers), NaT / NaN
    without valid replicates.  It is conditional, as ``low`` and ``high``.

    Attributes
    ----------
    date : numpy.datetime64 or float
        The crossing (a day, or a number when the release dates are numbers);
        NaT / NaN when there is none (see ``reason``).
    crossed : bool
        Whether the trend line reaches the target at a finite date.
    reason : str
        Why there is no crossing ("" when there is one).
    slope, intercept : float
        The least-squares line of score on date (per day for dates; the
        intercept at day 0 = 1970-01-01).
    target : float
        The target score.
    frontier : ndarray
        The record-setting forecasters (names, or positions), by release date.
    frontier_dates, frontier_scores : ndarray
    last_frontier_date : numpy.datetime64 or float
    replicate_crossings : ndarray
        Per replicate, the crossing when it is finite and later than the last
        frontier release, else NaN (empty without replicates).
    n_valid : int
        Replicates with such a crossing.
    confidence_level : float
    low, high : numpy.datetime64 or float
        Percentile interval of the valid replicate crossings.  It is
        *conditional* on a crossing after the last frontier release: the
        other replicates (``n_replicates - n_valid``) are left out.
    n_replicates : int
    already_reached : bool
        Whether parity is already reached: a frontier forecaster scores at
        least the target, or the trend line crosses it no later than the last
        frontier release.  Then ``date`` is in the past and the interval
        (of crossings *after* the last release) is not an interval for it;
        the summary says so instead of showing a future date.

    Examples
    --------
    >>> from skbrier import parity_date
    >>> res = parity_date([0.0, 100.0, 200.0], [60.0, 62.0, 64.0], 70.0)
    >>> res.crossed, round(res.date, 6), res.reason
    (True, 500.0, '')
    """

    date: Any
    crossed: bool
    reason: str
    slope: float
    intercept: float
    target: float
    frontier: np.ndarray
    frontier_dates: np.ndarray
    frontier_scores: np.ndarray
    last_frontier_date: Any
    replicate_crossings: np.ndarray
    n_valid: int
    confidence_level: float
    low: Any
    high: Any
    n_replicates: int
    _is_date: bool = True
    already_reached: bool = False

    def _headline(self) -> dict[str, Any]:
        return {
            "date": str(self.date),
            "crossed": self.crossed,
            "slope": self.slope,
            "n_frontier": int(self.frontier.shape[0]),
            "low": str(self.low),
            "high": str(self.high),
            "n_valid": self.n_valid,
            "n_replicates": self.n_replicates,
        }

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values (dates as ISO strings)."""
        out = {}
        for f in dataclasses.fields(self):
            if f.name.startswith("_"):
                continue
            v = getattr(self, f.name)
            if isinstance(v, np.datetime64):
                v = str(v)
            elif isinstance(v, np.ndarray) and v.dtype.kind == "M":
                v = [str(x) for x in v]
            out[f.name] = to_builtin(v)
        return out

    def summary(self) -> str:
        """A plain-text summary."""
        lines = ["ParityDateResult", "----------------"]
        if self.already_reached:
            lines.append(
                f"parity date   already reached (trend crosses the target on {self.date}; "
                f"last frontier release {self.last_frontier_date})"
            )
        else:
            lines.append(
                f"parity date   {self.date}"
                + ("" if self.crossed else f"  ({self.reason})")
            )
        lines.append(f"target        {format_number(self.target)}")
        lines.append(f"slope         {format_number(self.slope)} per day")
        lines.append(f"frontier      {', '.join(map(str, self.frontier.tolist()))}")
        if self.n_replicates and self.already_reached:
            lines.append(
                f"replicates    {self.n_valid} of {self.n_replicates} cross only after the "
                "last frontier release (no interval: parity is already reached)"
            )
        elif self.n_replicates:
            lines.append(
                f"{self.confidence_level:.0%} interval  [{self.low}, {self.high}] "
                f"(conditional: {self.n_valid} of {self.n_replicates} replicates cross "
                "after the last frontier release)"
            )
        return "\n".join(lines)

    _interval_metrics: ClassVar[tuple[str, ...]] = ("parity_date",)
    _interval_methods: ClassVar[tuple[str, ...]] = ("percentile",)

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        if not np.isfinite(self.replicate_crossings).any():
            return ConfidenceInterval(self._out(np.nan), self._out(np.nan))
        # replicates without a crossing are NaN, counted in n_valid
        ci = interval_from_replicates(self.replicate_crossings, level, nan_policy="omit")
        return ConfidenceInterval(self._out(ci.low), self._out(ci.high))

    def _out(self, x: float) -> Any:
        return _to_date(x) if self._is_date else float(x)


def _to_date(x: float) -> np.datetime64:
    if not np.isfinite(x):
        return np.datetime64("NaT", "D")
    return np.datetime64(int(round(float(x))), "D")


def _is_missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and v != v:
        return True
    if isinstance(v, np.datetime64) and np.isnat(v):
        return True
    return bool(type(v).__name__ in ("NaTType",))


def _dates(values: list[Any], name: str = "release_dates") -> tuple[np.ndarray, bool]:
    """Days since 1970-01-01 (NaN: missing) and whether the inputs are dates."""
    present = [v for v in values if not _is_missing(v)]
    numeric = all(
        isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in present
    )
    if not numeric:
        odd = [v for v in present if isinstance(v, (numbers.Number, np.bool_))]
        if odd:  # numpy would read 19000 or True as a count of days since 1970
            raise TypeError(
                f"{name} mixes dates and numbers (e.g. {odd[0]!r}); give every date "
                "in one kind."
            )
    out = np.full(len(values), np.nan)
    for k, v in enumerate(values):
        if _is_missing(v):
            continue
        if numeric:
            out[k] = float(v)
            continue
        v = utc_naive(v)  # an offset is kept: the day in UTC
        try:
            if isinstance(v, _dt.date) and not isinstance(v, _dt.datetime):
                out[k] = float(v.toordinal() - _EPOCH_ORDINAL)
            else:
                out[k] = float(np.datetime64(v, "D").astype(np.int64))
        except (TypeError, ValueError):
            raise TypeError(
                f"{name}: {v!r} is not a date (use dates, ISO strings or numbers)."
            ) from None
    if present and not np.isfinite(out[~np.isnan(out)]).all():
        raise ValueError(f"{name} must be finite.")
    return out, not numeric


def frontier(x: np.ndarray, s: np.ndarray, tol: float = 1e-10) -> np.ndarray:
    """Positions of the record setters: by date, the day's best if it beats the record by > tol.

    Ties within a day go to the first position (ForecastBench: the first name).
    """
    ok = np.isfinite(x) & np.isfinite(s)
    idx = np.flatnonzero(ok)
    # by date, then best score first, then position
    idx = idx[np.lexsort((idx, -s[idx], x[idx]))]
    chosen = []
    best = -np.inf
    k = 0
    while k < idx.shape[0]:
        day = x[idx[k]]
        top = idx[k]
        while k < idx.shape[0] and x[idx[k]] == day:
            k += 1
        if s[top] > best + tol:
            chosen.append(top)
            best = s[top]
    return np.asarray(chosen, dtype=np.intp)


def crossing(
    x: np.ndarray, s: np.ndarray, target: float, tol: float = 1e-10
) -> tuple[float, float, float, np.ndarray, str]:
    """OLS of score on date over the frontier; the date the line reaches ``target``."""
    fr = frontier(x, s, tol)
    if fr.shape[0] < 3:
        return np.nan, np.nan, np.nan, fr, f"fewer than 3 frontier points ({fr.shape[0]})"
    xf, yf = x[fr], s[fr]
    xc, yc = xf - xf.mean(), yf - yf.mean()
    slope = float(np.dot(xc, yc) / np.dot(xc, xc))
    intercept = float(yf.mean() - slope * xf.mean())
    if not np.isfinite(slope) or slope <= 0:
        return np.nan, slope, intercept, fr, "the frontier does not improve (slope <= 0)"
    if not np.isfinite(target):
        return np.nan, slope, intercept, fr, "the target is not finite"
    cross = (target - intercept) / slope
    if not np.isfinite(cross):
        return np.nan, slope, intercept, fr, "no finite crossing"
    return float(cross), slope, intercept, fr, ""


def _not_a_result(value: Any, name: str, what: str) -> None:
    """TypeError for text or a result other than a leaderboard's (e.g. a history
    leaderboard, whose scores are not a Brier Index)."""
    if isinstance(value, (str, bytes, Result)):
        got = type(value).__name__ if isinstance(value, Result) else repr(value)
        raise TypeError(
            f"{name} must be a LeaderboardResult or an array of {what}, got {got}."
        )


#: the arrays of parity_date and its refusal of Dask input (one score a forecaster)
_ARRAYS = ("release_dates", "scores", "replicates")
_FRONTIER = Refused(
    "the frontier orders every forecaster's score by release date; pass the "
    "scores as numpy arrays (e.g. .compute())"
)


@backends(arrays=_ARRAYS, namespace_of="scores", dask=_FRONTIER, array_api=HOST)
@leaderboard_doc
def parity_date(
    release_dates: ArrayLike | Mapping[Any, Any],
    scores: ArrayLike | DifficultyAdjustedResult,
    target: Any,
    *,
    replicates: ArrayLike | DifficultyAdjustedResult | None = None,
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
) -> ParityDateResult:
    r"""The date the state-of-the-art trend reaches a target score (e.g. superforecasters').

    The frontier is the sequence of record-setting forecasters ordered by
    release date: on each date the best score of that date, kept when it
    beats the previous record by more than 1e-10 (ForecastBench's rule).
    With at least 3 frontier points, the least-squares line
    :math:`s = a + m\,t` of score on date gives the parity date
    :math:`t^* = (s_{target} - a) / m` when :math:`m > 0`.  No crossing
    (fewer than 3 points, :math:`m \le 0`) is a result with ``crossed=False``
    and a ``reason``, not an error.

    With bootstrap ``replicates`` the same is done on every replicate (with
    the replicate's target when ``target`` names a forecaster) and the
    interval is the percentile interval of the crossings that are finite and
    later than the last release of the point frontier: it is *conditional*
    on such a crossing, and ``n_valid`` says how many replicates had one.

    Parameters
    ----------
    release_dates : sequence or dict
        One release date per forecaster (dates, ``numpy.datetime64``, ISO
        strings or plain numbers; timezone-aware ones are taken as their
        day in UTC; None/NaT/NaN for forecasters without one,
        who never enter the frontier), aligned with ``scores``; a dict
        ``{name: date}`` when ``scores`` is a leaderboard result.
    scores : array-like or LeaderboardResult
        Brier Index of each forecaster (higher is better; NaN for one without
        an index, who never enters the frontier), or a leaderboard result
        (its ``brier_index``).
    target : float or name
        The target index, or the forecaster whose index is the target.
    replicates : LeaderboardResult or array of shape (n_resamples, n_forecasters), optional
        Bootstrap replicates of the Brier Index (a result: its replicates).
    confidence_level : float, default=0.95

    Returns
    -------
    ParityDateResult

    {{references_forecastbench}}

    Examples
    --------
    >>> from skbrier import parity_date
    >>> res = parity_date(["2024-01-01", "2024-07-01", "2025-01-01", None],
    ...                   [60.0, 63.0, 66.0, 70.0], 70.0)
    >>> res.date, res.crossed
    (np.datetime64('2025-09-02'), True)
    """
    level = check_confidence_level(confidence_level)
    names = None
    board = scores if isinstance(scores, LeaderboardResult) else None
    if board is not None:
        names = board.forecasters
        s = np.asarray(board.brier_index, dtype=np.float64)
    else:
        _not_a_result(scores, "scores", "Brier Index values")
        s = np.asarray(scores, dtype=np.float64)
        if s.ndim != 1 or s.shape[0] == 0:
            raise ValueError(f"scores must be a non-empty 1-D array, got shape {s.shape}.")
        if np.isinf(s).any():  # NaN is a forecaster without a score; inf no index
            k = int(np.flatnonzero(np.isinf(s))[0])
            raise ValueError(
                f"scores must be Brier Index values (NaN for a forecaster without "
                f"one), got {s[k]} at position {k}."
            )
    n = s.shape[0]
    if isinstance(release_dates, dict):
        if names is None:
            raise TypeError(
                "release_dates as a dict needs scores to be a leaderboard result."
            )
        for k in release_dates:
            check_name(k, names, "release_dates")
        values = [release_dates.get(v, None) for v in names.tolist()]
    else:
        if isinstance(release_dates, (str, bytes)):
            raise TypeError("release_dates must be a sequence of dates.")
        values = list(np.asarray(release_dates, dtype=object).ravel())
        if len(values) != n:
            raise ValueError(f"release_dates has {len(values)} entries but scores has {n}.")
    x, is_date = _dates(values)
    tpos = None
    if isinstance(target, str) or (
        names is not None and not isinstance(target, numbers.Real)
    ):
        if names is None:
            raise TypeError("target as a name needs scores to be a leaderboard result.")
        tpos = check_name(target, names, "target")
        t = float(s[tpos])
    else:
        t = check_real(target, "target")
    cross, slope, icpt, fr, reason = crossing(x, s, t)
    reps = None
    if replicates is not None:
        if isinstance(replicates, LeaderboardResult):
            reps = brier_index_of(replicates.replicates)
        else:
            _not_a_result(replicates, "replicates", "replicate Brier Index values")
            reps = np.asarray(replicates, dtype=np.float64)
        if reps.ndim != 2 or reps.shape[1] != n:
            raise ValueError(
                f"replicates must have shape (n_resamples, {n}), got {reps.shape}."
            )
    last = float(np.max(x[fr])) if fr.shape[0] else np.nan
    rc = np.empty(0)
    if reps is not None:
        rc = np.full(reps.shape[0], np.nan)
        for r in range(reps.shape[0]):
            tr = float(reps[r, tpos]) if tpos is not None else t
            c, *_ = crossing(x, reps[r], tr)
            if np.isfinite(c) and c > last:
                rc[r] = c
    n_valid = int(np.isfinite(rc).sum())
    ci = (
        interval_from_replicates(rc, level, nan_policy="omit")  # counted in n_valid
        if n_valid
        else ConfidenceInterval(np.nan, np.nan)
    )
    conv = _to_date if is_date else float
    labels = names[fr] if names is not None else fr
    reached = bool(fr.shape[0]) and (
        bool(np.nanmax(s[fr]) >= t) or (bool(np.isfinite(cross)) and cross <= last)
    )
    return ParityDateResult(
        conv(cross),
        bool(np.isfinite(cross)),
        reason,
        float(slope),
        float(icpt),
        t,
        labels,
        np.asarray([conv(v) for v in x[fr]]),
        s[fr],
        conv(last),
        rc,
        n_valid,
        level,
        conv(ci.low),
        conv(ci.high),
        int(rc.shape[0]),
        is_date,
        reached,
    )
