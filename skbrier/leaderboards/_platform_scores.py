"""Scores over forecast histories, as forecasting platforms compute them.

* :func:`daily_brier`: Good Judgment Open's daily carry-forward Brier score,
  its crowd median and accuracy score (any step, either scale);
* :func:`brier_at`: the Brier score of the forecast standing at one time
  (a lead time before resolution, the midpoint, the first or last forecast),
  as market dashboards report it;
* :func:`peer_score` and :func:`baseline_score`: Metaculus's scores,
  time-averaged with coverage or "spot", with the log score or the Brier
  score.

All read a validated :class:`~skbrier.leaderboards._history.ForecastHistory`
and return a :class:`~skbrier.leaderboards._history_result.HistoryScoreResult`.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._core.format import format_number
from .._core.params import check_bool, check_option, check_real
from .._core.results import to_builtin
from ._docs import leaderboard_doc
from ._history import ForecastHistory, _times, check_history, per_question
from ._history_kernels import (
    day_counts,
    day_segments,
    interval_medians,
    pair_layout,
    segmented_cumsum,
    standing_rows,
    timeline_integrals,
)
from ._history_result import HistoryScoreResult, summarise

__all__ = ["baseline_score", "brier_at", "daily_brier", "peer_score"]

#: most days (steps) over all questions that :func:`daily_brier` lays out
MAX_STEPS = 200_000_000
_RULES = ("log", "brier")
_AT = ("midpoint", "close")


# --------------------------------------------------------------------------
# options
# --------------------------------------------------------------------------
def _duration(
    value: Any, history: ForecastHistory, name: str, *, allow_zero: bool
) -> float:
    """A length of time in the unit of the history's times (seconds for datetimes)."""
    is_delta = isinstance(value, (np.timedelta64, _dt.timedelta)) or isinstance(value, str)
    if history.time_kind == "datetime":
        if isinstance(value, str):
            try:
                import pandas as pd

                value = pd.Timedelta(value)
            except (ImportError, ValueError):
                raise ValueError(
                    f"{name} could not be read as a length of time: {value!r} (give e.g. "
                    "numpy.timedelta64(1, 'D'))."
                ) from None
        if isinstance(value, np.timedelta64):
            if np.isnat(value):
                raise ValueError(f"{name} must be a length of time, got NaT.")
            if np.datetime_data(value.dtype)[0] in ("Y", "M"):
                raise TypeError(
                    f"{name}: {value!r} is in months or years, which have no fixed length; "
                    "give it in days or hours (e.g. numpy.timedelta64(30, 'D'))."
                )
            sec = float(value / np.timedelta64(1, "ns")) / 1e9
        elif isinstance(value, _dt.timedelta):
            sec = value.total_seconds()
        else:
            raise TypeError(
                f"{name} must be a timedelta (e.g. numpy.timedelta64(1, 'D')) for a "
                f"history of datetimes, got {value!r}."
            )
        v = check_real(sec, name, low=0.0, inclusive=(allow_zero, True))
    else:
        if is_delta:
            raise TypeError(
                f"{name} must be a number in the unit of the history's times (they are "
                f"numbers, not datetimes), got {value!r}."
            )
        v = check_real(value, name, low=0.0, inclusive=(allow_zero, True))
    return v


def _show_duration(value: float, history: ForecastHistory) -> str:
    """A length of time in a message: days or seconds for datetimes, else the number."""
    if history.time_kind != "datetime":
        return format_number(value)
    days = value / 86400.0
    if days >= 1.0:
        return f"{format_number(days)} day" + ("" if days == 1.0 else "s")
    return f"{format_number(value)} s"


def _step(step: Any, history: ForecastHistory) -> float:
    if step is None:
        return 86400.0 if history.time_kind == "datetime" else 1.0
    return _duration(step, history, "step", allow_zero=False)


def _at_times(history: ForecastHistory, at: Any, extra: tuple[str, ...] = ()) -> np.ndarray:
    """Per question, the time ``at`` names (not clipped)."""
    options = f"at must be one of {_AT + extra}, a lead time or one time per question"
    if isinstance(at, str) and at in _AT + extra:
        if at == "midpoint":
            return 0.5 * (history.open_time + history.end_time)
        return history.end_time.copy()
    if isinstance(at, (np.timedelta64, _dt.timedelta)) or (
        isinstance(at, (int, float, np.integer, np.floating)) and not isinstance(at, bool)
    ):
        return history.resolve_time - _duration(at, history, "at", allow_zero=True)
    if isinstance(at, str):
        if history.time_kind == "datetime":
            try:
                return history.resolve_time - _duration(at, history, "at", allow_zero=True)
            except ValueError:
                pass
        raise ValueError(f"{options}; got {at!r}.")
    n_q = history.questions.shape[0]
    if (
        at is None
        or isinstance(at, (bool, bytes))
        or (not isinstance(at, Mapping) and np.ndim(at) == 0)
    ):
        raise TypeError(f"{options}; got {at!r}.")
    at = per_question(at, history.questions, "at", "time", "history")
    t, kind = _times(at, "at", "at")
    if t.shape != (n_q,):
        raise ValueError(
            f"at has {t.size} times but the history has {n_q} questions; give one time "
            "per question (in the order of history.questions) or a dict."
        )
    if (kind == "number") != (history.time_kind == "number"):
        raise TypeError(
            f"at holds {'numbers' if kind == 'number' else 'datetimes'} but the history's "
            f"times are {'numbers' if history.time_kind == 'number' else 'datetimes'}."
        )
    return t


def _scale(scale_by_half: Any) -> float:
    return 1.0 if check_bool(scale_by_half, "scale_by_half") else 2.0


def _row_scores(history: ForecastHistory, rule: str) -> np.ndarray:
    """Per update: the log score ``ln p(outcome)`` or minus its Brier score."""
    if rule == "brier":
        return -history.brier
    p_y = history.outcome_probability
    zero = p_y <= 0.0
    if zero.any():
        k = int(np.flatnonzero(zero)[np.argmin(history.row[zero])])
        raise ValueError(
            f"probability: row {int(history.row[k])} of forecasts (forecaster "
            f"{to_builtin(history.forecasters[history.forecaster_index[k]])!r}, question "
            f"{to_builtin(history.questions[history.question_index[k]])!r}) gives probability 0 to the "
            "outcome that happened: its log score is -inf. Metaculus takes forecasts "
            "between 0.001 and 0.999: clip them (numpy.clip(p, 0.001, 0.999)) or use "
            "rule='brier'."
        )
    return np.log(p_y)


# --------------------------------------------------------------------------
# Good Judgment Open
# --------------------------------------------------------------------------
@leaderboard_doc
def daily_brier(
    history: ForecastHistory,
    *,
    step: Any = None,
    scale_by_half: bool = True,
    before_first: str = "median",
) -> HistoryScoreResult:
    r"""Daily carry-forward Brier scores, relative to the crowd median (Good Judgment Open).

    Each question is scored on every full day (``step``) from its open time
    to its end (the earlier of close and resolution): day :math:`d` is
    :math:`[o + d\,s, o + (d + 1)\,s)` and is scored by the forecast
    standing at its end (the forecaster's latest update made before the
    day ended, carried forward until the next update); a last, partial day
    is not scored.  Days are counted from each question's open time (give
    open times at midnight to score calendar days).  On day :math:`d` the forecaster's score is

    .. math:: b_{iqd} = c\,(p_{iqd} - y_q)^2,

    :math:`c = 1` (``scale_by_half=True``, the [0, 1] scale) or
    :math:`c = 2` (``False``: the two-category Brier score on the [0, 2]
    scale of Good Judgment Open, :math:`(p - y)^2 + ((1 - p) - (1 - y))^2`).
    For a multiple-choice question :math:`c/2` times the Brier score over its
    :math:`K` categories, :math:`\sum_k (p_k - 1[k = y])^2` (Good Judgment
    Open's multi-category Brier score with ``scale_by_half=False``).
    The crowd's score :math:`m_{qd}` is the median of :math:`b_{iqd}` over
    the forecasters with a forecast standing that day.

    The pair's score is the mean of its daily scores:

    * ``before_first="median"`` (Good Judgment Open's rule): the days
      before the forecaster's first forecast are given the crowd median
      :math:`m_{qd}`; the mean runs over the days on which the crowd has a
      score (from the first forecast of anyone), so entering late neither
      helps nor hurts the accuracy score;
    * ``before_first="exclude"``: the mean over the days with the
      forecaster's own forecast.

    ``crowd`` is :math:`m_{qd}` averaged over the same days and
    ``relative = score - crowd`` is Good Judgment Open's accuracy score
    (negative: better than the median forecaster); ``question_crowd`` is
    the question's median score (the mean of :math:`m_{qd}` from the first
    forecast on).  ``coverage`` is the share of the question's scored days
    with the forecaster's own forecast.

    Parameters
    ----------
    {{history}}
    step : timedelta or float, optional
        The length of a scored period: one day by default for datetimes
        (``numpy.timedelta64``, ``datetime.timedelta``, a pandas string
        such as ``"1h"``), 1.0 for numeric times.
    scale_by_half : bool, default=True
        True: :math:`(p - y)^2` in [0, 1]; False: twice that, in [0, 2]
        (Good Judgment Open).
    before_first : {"median", "exclude"}, default="median"
        Score of the days before a forecaster's first forecast (see above).

    Returns
    -------
    HistoryScoreResult
        ``higher_is_better=False``.

    Notes
    -----
    The carry-forward days are counted per update, and the daily medians are
    exact order statistics found with a blocked count table, so the cost
    grows with the updates and with days x sqrt(forecasters), never with
    days x forecasters.

    References
    ----------
    .. [1] Good Judgment Open, "Frequently Asked Questions", section "How are my
       forecasts scored for accuracy?" (Brier score, median score, accuracy
       score). https://www.gjopen.com/faq
    .. [2] Brier, G. W. (1950). Verification of forecasts expressed in terms of
       probability. Monthly Weather Review 78(1), 1-3.

    Examples
    --------
    A question open four days that resolves Yes.  Ann forecasts 60% on day
    0 and 90% on day 2; Bob 20% on day 1.

    >>> from skbrier import daily_brier, forecast_history
    >>> h = forecast_history(
    ...     {"forecaster": ["ann", "ann", "bob"], "question": ["q", "q", "q"],
    ...      "timestamp": [0.5, 2.5, 1.5], "probability": [0.6, 0.9, 0.2]},
    ...     {"question": ["q"], "open_time": [0.0], "close_time": [4.0],
    ...      "outcome": [1]}, resolve_time=None)
    >>> res = daily_brier(h, scale_by_half=False)
    >>> res.pair_score.round(4).tolist()  # ann: (0.32 + 0.32 + 0.02 + 0.02) / 4
    [0.17, 1.04]
    >>> res.question_crowd.round(4).tolist()  # medians 0.32, 0.8, 0.65, 0.65
    [0.605]
    >>> res.relative.round(4).tolist()  # Good Judgment Open's accuracy scores
    [-0.435, 0.435]
    """
    history = check_history(history)
    s = _step(step, history)
    c = _scale(scale_by_half)
    mode = check_option(before_first, "before_first", ("median", "exclude"))
    pairs = pair_layout(history)
    full = day_counts(history, s)
    if full.sum() > MAX_STEPS:  # checked before the cast to int (a tiny step overflows)
        raise ValueError(
            f"step: {format_number(float(full.sum()))} steps over the questions (more "
            f"than {MAX_STEPS}); use a longer step."
        )
    n_days = full.astype(np.int64)
    lo, hi = day_segments(history, pairs, s, n_days)
    q = history.question_index
    b = c * history.brier
    n = hi - lo
    live = n > 0
    med, offsets = interval_medians(q[live], lo[live], hi[live], b[live], n_days)
    # prefix sums of the daily medians, one run of D + 1 entries per question
    n_q = n_days.shape[0]
    start = offsets[:-1] + np.arange(n_q)
    prefix = np.zeros(int(offsets[-1]) + n_q)
    inside = np.repeat(start + 1, n_days) + (
        np.arange(int(offsets[-1])) - np.repeat(offsets[:-1], n_days)
    )
    prefix[inside] = np.nan_to_num(med)
    prefix = segmented_cumsum(prefix, start)

    own = np.bincount(pairs.index, weights=n * b, minlength=pairs.n)
    pq = pairs.question
    first = lo[pairs.start]
    days = n_days[pq]
    crowd_from = np.full(n_q, np.iinfo(np.int64).max)
    qrun = np.flatnonzero(np.r_[True, pq[1:] != pq[:-1]])
    crowd_from[pq[qrun]] = np.minimum.reduceat(first, qrun)
    crowd_from = np.minimum(crowd_from, n_days)
    scored = first < days
    if not scored.any():
        raise ValueError(
            f"step: no forecast stands at the end of a full step ({_show_duration(s, history)}) "
            "on any question: nothing is scored. Steps are counted from each question's "
            "open time and a last, partial step is not scored; use a shorter step."
        )
    pq, first, days, own = pq[scored], first[scored], days[scored], own[scored]

    def cum(qq: np.ndarray, x: np.ndarray) -> np.ndarray:
        return prefix[start[qq] + x]

    frm = crowd_from[pq] if mode == "median" else first
    span = (days - frm).astype(np.float64)
    fill = cum(pq, first) - cum(pq, frm)  # zero unless before_first="median"
    score = (own + fill) / span
    crowd = (cum(pq, days) - cum(pq, frm)) / span
    allq = np.arange(n_q)
    with np.errstate(invalid="ignore", divide="ignore"):
        qcrowd = (cum(allq, n_days) - cum(allq, crowd_from)) / (n_days - crowd_from)
    qcrowd[crowd_from >= n_days] = np.nan
    return summarise(
        history,
        "daily_brier" + ("" if c == 1.0 else "(0-2)"),
        False,
        pairs.forecaster[scored],
        pq,
        score,
        (days - first) / days,
        crowd,
        qcrowd,
    )


@leaderboard_doc
def brier_at(
    history: ForecastHistory, at: Any = "last", *, scale_by_half: bool = True
) -> HistoryScoreResult:
    r"""Brier score of the forecast standing at one time (a lead time, the midpoint, ...).

    Scores on a question settle at its resolution, when the answer is often
    obvious; market dashboards therefore score the price a fixed time
    before settlement.  Each forecaster's forecast *standing* at time
    :math:`\tau_q` -- its latest update made at or before it -- is scored
    :math:`c\,(p - y_q)^2`; a forecaster with no update by then is not
    scored on the question.  ``at`` picks :math:`\tau_q`:

    * a lead time :math:`L` (timedelta or number): :math:`\tau_q = r_q - L`,
      :math:`L` before the question resolved (0: its last forecast);
    * ``"midpoint"``: half way between the open and the end (the earlier of
      close and resolution); ``"close"``: the end;
    * ``"first"`` or ``"last"``: each forecaster's own first or last
      forecast on the question;
    * times: one per question (a dict or a pandas Series indexed by
      question, or an array in the order of ``history.questions``).

    ``crowd`` is the median score of the forecasters scored on the question
    and ``relative = score - crowd``.

    Parameters
    ----------
    {{history}}
    at : {"last", "first", "midpoint", "close"}, lead time or times, default="last"
        When to score (see above).
    scale_by_half : bool, default=True
        True: the [0, 1] scale; False: the two-category [0, 2] scale.

    Returns
    -------
    HistoryScoreResult
        ``higher_is_better=False``; ``coverage`` is the (weighted) share of
        the questions on which the forecaster had a forecast standing.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from skbrier import brier_at, forecast_history
    >>> h = forecast_history(
    ...     pd.DataFrame({"forecaster": ["m", "m", "m"], "question": ["q"] * 3,
    ...                   "timestamp": pd.to_datetime(["2024-05-01 00:00", "2024-05-09 00:00",
    ...                                                "2024-05-10 12:00"]),
    ...                   "probability": [0.5, 0.7, 0.99]}),
    ...     pd.DataFrame({"question": ["q"], "open_time": pd.to_datetime(["2024-05-01"]),
    ...                   "close_time": pd.to_datetime(["2024-05-11"]), "outcome": [1]}),
    ...     resolve_time=None)
    >>> float(brier_at(h, np.timedelta64(24, "h")).score[0])   # 70% stood a day before
    0.09
    >>> round(float(brier_at(h, "last").score[0]), 6)
    0.0001
    """
    history = check_history(history)
    c = _scale(scale_by_half)
    pairs = pair_layout(history)
    if isinstance(at, str) and at in ("first", "last"):
        rows = pairs.start if at == "first" else np.flatnonzero(pairs.last)
        name = at
    else:
        rows = standing_rows(
            history, pairs, _at_times(history, at, ("first", "last")), False
        )
        name = at if isinstance(at, str) else "time"
    scored = _spot_scored(rows >= 0)
    rows = rows[scored]
    pq = pairs.question[scored]
    score = c * history.brier[rows]
    n_q = history.questions.shape[0]
    ones = np.ones(rows.shape[0], dtype=np.int64)
    med, _ = interval_medians(pq, 0 * ones, ones, score, np.ones(n_q, dtype=np.int64))
    return summarise(
        history,
        f"brier_at({name})" + ("" if c == 1.0 else "(0-2)"),
        False,
        pairs.forecaster[scored],
        pq,
        score,
        np.ones(score.shape[0]),
        med[pq],
        med,
    )


# --------------------------------------------------------------------------
# Metaculus
# --------------------------------------------------------------------------
def _spot(history: ForecastHistory, at: Any) -> np.ndarray:
    return np.minimum(_at_times(history, at), history.end_time)


def _spot_scored(scored: np.ndarray, crowd: bool = False) -> np.ndarray:
    """The pairs a spot score (``at``) scores; none at all is an error naming ``at``."""
    if not scored.any():
        raise ValueError(
            "at: no forecast stands at that time on any question"
            + (
                " with a crowd formed before it (a Peer score compares with the "
                "forecasts made strictly before that time)"
                if crowd
                else ""
            )
            + ": nothing is scored. Choose a later time (or a shorter lead time)."
        )
    return scored


@leaderboard_doc
def baseline_score(
    history: ForecastHistory, *, rule: str = "log", at: Any = None
) -> HistoryScoreResult:
    r"""Metaculus's Baseline score: against the uniform forecast, time-averaged with coverage.

    For one forecast of a binary question, with :math:`p` the probability
    it gave to the outcome that happened,

    .. math::

        \text{log rule:}\ 100\,\frac{\ln p - \ln 0.5}{\ln 2} = 100 \log_2(2p),
        \qquad
        \text{Brier rule:}\ 100\,\frac{0.25 - (p - p^\ast)^2}{0.25}

    (:math:`p^\ast` = 1: the same rescaling of minus the Brier score), so
    that 50% scores 0 and a perfect forecast +100.  A multiple-choice
    question of :math:`K` categories is scored against the uniform forecast
    :math:`1/K`: :math:`100 \ln(K p) / \ln K` (Metaculus's
    ``score_math.py``, with :math:`K` the options open at the time), or
    with the Brier rule :math:`100\,(b_0 - b) / b_0`, :math:`b` the
    forecast's Brier score on the [0, 1] scale (half the sum over the
    categories) and :math:`b_0 = (K - 1) / (2K)` the uniform forecast's.
    Time-averaged
    (``at=None``): every forecast counts for the time it stood, from the
    question's open time (an earlier forecast counts from then) to the
    forecaster's next update or the end, and the sum is divided by the
    whole scheduled period, open to *scheduled* close:

    .. math:: s_{iq} = \sum_k S(p_k)\,\frac{t_{k+1} - t_k}{T_{close} - T_{open}}.

    Before the first forecast the score is 0, and so is the time between an
    early resolution and the scheduled close (Metaculus's "score
    truncation", which keeps the time average proper).  ``coverage`` is
    the share of the scheduled period with a forecast standing.

    With ``at`` ("spot" scores) only the forecast standing at that time is
    scored, with coverage 1 (a forecaster with no forecast then is not
    scored); the time is capped at the question's end.

    Parameters
    ----------
    {{history}}
    rule : {"log", "brier"}, default="log"
        The log score (Metaculus) or the Brier score.
    {{metaculus_at}}

    Returns
    -------
    HistoryScoreResult
        ``higher_is_better=True``; ``total`` is the weighted sum over
        questions (the Baseline Accuracy medals rank by it).

    Raises
    ------
    ValueError
        With the log rule, when a forecast gives probability 0 to the
        outcome that happened (Metaculus takes 0.1% to 99.9%).

    References
    ----------
    .. [1] Metaculus, "Scores FAQ": "What is the Baseline score?", "Do all my
       predictions on a question count toward my score?", "Why did I get a
       small score when I was right?". https://www.metaculus.com/help/scores-faq/
    .. [2] Metaculus source, ``scoring/score_math.py``,
       ``evaluate_forecasts_baseline_accuracy`` and
       ``evaluate_forecasts_baseline_spot_forecast``.
       https://github.com/Metaculus/metaculus

    Examples
    --------
    The FAQ's example: a binary question open five days resolves Yes; the
    forecaster predicts 40% on day 2, 70% on day 3 and 80% on day 5.

    >>> from skbrier import baseline_score, forecast_history
    >>> h = forecast_history(
    ...     {"forecaster": ["you"] * 3, "question": ["q"] * 3,
    ...      "timestamp": [1, 2, 4], "probability": [0.4, 0.7, 0.8]},
    ...     {"question": ["q"], "open_time": [0], "close_time": [5], "outcome": [1]},
    ...     resolve_time=None)
    >>> res = baseline_score(h)
    >>> round(float(res.score[0]), 2), float(res.coverage[0])   # the FAQ: +27, 80%
    (26.54, 0.8)
    """
    history = check_history(history)
    rule = check_option(rule, "rule", _RULES)
    s = _row_scores(history, rule)
    k = history.n_categories[history.question_index].astype(np.float64)
    if rule == "log":  # the uniform forecast 1/K scores 0
        base = 100.0 * (s + np.log(k)) / np.log(k)
    else:  # its Brier score (K - 1) / (2K) on the [0, 1] scale
        b0 = (k - 1.0) / (2.0 * k)
        base = 100.0 * (b0 + s) / b0
    pairs = pair_layout(history)
    if at is None:
        q = history.question_index
        start = np.maximum(history.time, history.open_time[q])
        nxt = np.empty_like(start)
        nxt[:-1] = start[1:]
        nxt[pairs.last] = history.end_time[q[pairs.last]]
        dur = np.maximum(nxt - start, 0.0) / (history.close_time - history.open_time)[q]
        return _time_averaged(history, pairs, f"baseline_score({rule})", dur * base, dur)
    rows = standing_rows(history, pairs, _spot(history, at), False)
    scored = _spot_scored(rows >= 0)
    return summarise(
        history,
        f"baseline_score({rule}, spot)",
        True,
        pairs.forecaster[scored],
        pairs.question[scored],
        base[rows[scored]],
        np.ones(int(scored.sum())),
    )


def _time_averaged(
    history: ForecastHistory, pairs: Any, name: str, values: np.ndarray, shares: np.ndarray
) -> HistoryScoreResult:
    """A time-averaged Metaculus score: per-update ``values`` and ``shares`` summed per pair.

    ``shares`` are the updates' shares of the scheduled period (their sum is
    the pair's coverage); a pair is scored when its coverage is positive.
    """
    score = np.bincount(pairs.index, weights=values, minlength=pairs.n)
    cover = np.bincount(pairs.index, weights=shares, minlength=pairs.n)
    scored = cover > 0
    return summarise(
        history,
        name,
        True,
        pairs.forecaster[scored],
        pairs.question[scored],
        score[scored],
        cover[scored],
    )


@leaderboard_doc
def peer_score(
    history: ForecastHistory, *, rule: str = "log", at: Any = None
) -> HistoryScoreResult:
    r"""Metaculus's Peer score: against the other forecasters, time-averaged with coverage.

    At each instant, with :math:`N` forecasters holding a forecast on the
    question and :math:`s_j` the score of forecaster :math:`j`'s standing
    forecast (the log score :math:`\ln p_j` of the probability given to the
    outcome that happened, or minus its Brier score), forecaster :math:`i`
    scores

    .. math::

        100\,\Bigl(s_i - \frac{1}{N - 1}\sum_{j \ne i} s_j\Bigr)
        = 100\,\frac{N}{N - 1}\,\ln\frac{p_i}{\mathrm{GM}(p_1, \dots, p_N)}
        = 100\,\bigl(\ln p_i - \ln \mathrm{GM}_{j \ne i}(p_j)\bigr)

    (log rule: the log of its probability over the geometric mean of the
    others'), and 0 while it is alone (:math:`N = 1`).  At every instant
    the scores of the forecasters sum to zero.  Time-averaged
    (``at=None``), the instants are weighted as in
    :func:`skbrier.baseline_score`: from the open time to the scheduled
    close, 0 before the first forecast and after an early resolution;
    ``coverage`` is the share of that period with a forecast standing.

    With ``at`` ("spot" scores), the forecast standing at that time is
    compared with the crowd just before it (Metaculus's rule: the last
    crowd formed strictly before the spot time), with coverage 1.

    Parameters
    ----------
    {{history}}
    rule : {"log", "brier"}, default="log"
        The log score (Metaculus) or the Brier score: ``"brier"`` gives
        :math:`100\,(\bar b_{j \ne i} - b_i)`, the mean Brier score of the
        others minus one's own.
    {{metaculus_at}}

    Returns
    -------
    HistoryScoreResult
        ``higher_is_better=True``.  ``total / coverage`` per forecaster
        (over all questions) is the Peer Accuracy medals' coverage-weighted
        mean.

    Raises
    ------
    ValueError
        With the log rule, when a forecast gives probability 0 to the
        outcome that happened.

    References
    ----------
    .. [1] Metaculus, "Scores FAQ": "What is the Peer score?", "What is a spot
       score?", "What is the coverage?". https://www.metaculus.com/help/scores-faq/
    .. [2] Metaculus source, ``scoring/score_math.py``: ``get_geometric_means``,
       ``evaluate_forecasts_peer_accuracy`` and
       ``evaluate_forecasts_peer_spot_forecast``. https://github.com/Metaculus/metaculus

    Examples
    --------
    The FAQ's three forecasters with log scores -1, 1 and 2 differ as
    three forecasters of probabilities :math:`e^{-4}, e^{-2}, e^{-1}` do:
    Peer scores -250, +50 and +200, summing to zero.

    >>> import numpy as np
    >>> from skbrier import forecast_history, peer_score
    >>> h = forecast_history(
    ...     {"forecaster": ["Alex", "Bailey", "Cory"], "question": [1, 1, 1],
    ...      "timestamp": [0, 0, 0], "probability": np.exp([-4.0, -2.0, -1.0])},
    ...     {"question": [1], "open_time": [0], "close_time": [1], "outcome": [1]},
    ...     resolve_time=None)
    >>> peer_score(h).score.round(6).tolist()
    [-250.0, 50.0, 200.0]
    """
    history = check_history(history)
    rule = check_option(rule, "rule", _RULES)
    s = _row_scores(history, rule)
    pairs = pair_layout(history)
    if at is None:
        start = np.maximum(history.time, history.open_time[history.question_index])
        a, b, c = timeline_integrals(
            history, pairs, s, start, history.close_time - history.open_time
        )
        return _time_averaged(history, pairs, f"peer_score({rule})", 100.0 * (s * a - b), c)
    tau = _spot(history, at)
    rows = standing_rows(history, pairs, tau, False)
    before = standing_rows(history, pairs, tau, True)
    n_q = history.questions.shape[0]
    had = before >= 0
    crowd_n = np.bincount(pairs.question[had], minlength=n_q).astype(np.float64)
    crowd_s = np.bincount(pairs.question[had], weights=s[before[had]], minlength=n_q)
    scored = _spot_scored((rows >= 0) & (crowd_n[pairs.question] >= 1), crowd=True)
    pq = pairs.question[scored]
    big_n, big_s = crowd_n[pq], crowd_s[pq]
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(
            big_n >= 2, 100.0 * (big_n * s[rows[scored]] - big_s) / (big_n - 1), 0.0
        )
    return summarise(
        history,
        f"peer_score({rule}, spot)",
        True,
        pairs.forecaster[scored],
        pq,
        score,
        np.ones(score.shape[0]),
    )
