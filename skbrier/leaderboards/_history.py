"""Forecast histories: every update of every forecaster on every question, validated once.

A forecasting platform keeps the whole history of a question: forecasters
update their probability many times while it is open.  :func:`forecast_history`
reads two tables -- the updates (forecaster, question, timestamp, probability)
and the questions (open, close and resolve times, outcome, optional weight) --
checks them once and returns a frozen :class:`ForecastHistory` holding sorted,
read-only arrays; the scores of :mod:`._platform_scores` read nothing else.

Times are numbers (in any unit, e.g. days) or datetimes (numpy ``datetime64``,
pandas columns, Python ``datetime`` objects; timezone-aware values are
converted to UTC); datetimes are kept as float seconds since 1970-01-01.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from .._core.arrays import as_array
from .._core.format import format_number
from .._core.optional import import_optional
from .._core.results import to_builtin
from .._core.validation import binary_target, check_probabilities, check_sample_weight
from ._history_categories import (
    binary_parts,
    category_parts,
    check_categories,
    is_multiple_choice,
)
from ._panel import _codes, _labels, check_one_row_per_question

__all__ = [
    "ForecastHistory",
    "check_history",
    "forecast_history",
    "per_question",
    "show_time",
    "utc_naive",
]

_NS = 1e9  # nanoseconds per second


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class ForecastHistory:
    """Validated forecast histories of yes/no or multiple-choice questions (see :func:`forecast_history`).

    An input, not a result: the scoring functions of histories take it.
    The updates are sorted by question, forecaster and time; every array is
    read-only.  Times are float numbers: the user's numbers, or seconds since
    1970-01-01 (UTC) for datetimes (``time_kind="datetime"``).

    Parameters
    ----------
    forecasters : ndarray
        The forecaster names, sorted.
    questions : ndarray
        The question names, sorted.
    forecaster_index : ndarray of int
        Position in ``forecasters`` of each update's forecaster.
    question_index : ndarray of int
        Position in ``questions`` of each update's question.
    time : ndarray of float
        Time of each update.
    probability : ndarray of float
        The probability of the event given by each update (of a
        multiple-choice question: the probability it gave to the category
        that occurred).
    row : ndarray of int
        Row of each update in the ``forecasts`` table given.
    open_time, close_time, resolve_time : ndarray of float
        Per question: when it opened, when it closes (as scheduled) and when
        it resolved; it stops taking forecasts at the earlier of the last two
        (``end_time``).
    outcome : ndarray of float
        Per question: 1.0 if the event happened, else 0.0 (multiple choice:
        the index of the category that occurred).
    question_weight : ndarray of float
        Per question: its weight in a forecaster's mean and total score.
    time_kind : {"number", "datetime"}
        Whether the times were given as numbers or as datetimes.
    outcome_probability : ndarray of float
        The probability each update gave to the outcome that occurred.
    brier : ndarray of float
        The Brier score of each update on the [0, 1] scale,
        half the sum over the categories of :math:`(p_k - 1[k = y])^2`
        (:math:`(p - y)^2` for a yes/no question).
    n_categories : ndarray of int
        Per question: its number of categories :math:`K` (2 for yes/no).

    See Also
    --------
    forecast_history : Builds one from a table of updates and a table of questions.

    Examples
    --------
    >>> from skbrier import forecast_history
    >>> h = forecast_history(
    ...     {"forecaster": ["a", "a", "b"], "question": ["q", "q", "q"],
    ...      "timestamp": [0.0, 2.0, 1.0], "probability": [0.6, 0.8, 0.3]},
    ...     {"question": ["q"], "open_time": [0.0], "close_time": [4.0],
    ...      "outcome": [1]}, resolve_time=None)
    >>> h
    ForecastHistory(n_updates=3, n_forecasters=2, n_questions=1)
    >>> h.time.tolist(), h.forecasters[h.forecaster_index].tolist()
    ([0.0, 2.0, 1.0], ['a', 'a', 'b'])
    """

    forecasters: np.ndarray
    questions: np.ndarray
    forecaster_index: np.ndarray
    question_index: np.ndarray
    time: np.ndarray
    probability: np.ndarray
    row: np.ndarray
    open_time: np.ndarray
    close_time: np.ndarray
    resolve_time: np.ndarray
    outcome: np.ndarray
    question_weight: np.ndarray
    time_kind: str
    outcome_probability: np.ndarray
    brier: np.ndarray
    n_categories: np.ndarray

    @property
    def end_time(self) -> np.ndarray:
        """Per question: when it stopped taking forecasts, ``min(close_time, resolve_time)``."""
        return np.minimum(self.close_time, self.resolve_time)

    def __repr__(self) -> str:
        return (
            f"ForecastHistory(n_updates={self.time.shape[0]}, "
            f"n_forecasters={self.forecasters.shape[0]}, "
            f"n_questions={self.questions.shape[0]})"
        )

    def to_frame(self) -> Any:
        """One row per update, in the stored order (needs pandas).

        Returns
        -------
        pandas.DataFrame
            Columns ``forecaster``, ``question``, ``timestamp`` (datetimes
            when they were given as datetimes), ``probability`` and ``outcome``.
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        t: Any = self.time
        if self.time_kind == "datetime":
            t = np.round(t * _NS).astype(np.int64).view("datetime64[ns]")
        return pd.DataFrame(
            {
                "forecaster": self.forecasters[self.forecaster_index],
                "question": self.questions[self.question_index],
                "timestamp": t,
                "probability": self.probability,
                "outcome": self.outcome[self.question_index],
            }
        )


def show_time(value: float, is_datetime: bool) -> str:
    """A time in a message: ISO text for datetimes, 4 significant digits for numbers."""
    if not is_datetime:
        return format_number(value)
    stamp = np.datetime64(int(round(value * _NS)), "ns")
    return str(np.datetime_as_string(stamp, unit="s"))


def check_history(history: Any) -> ForecastHistory:
    """``history`` if it is a :class:`ForecastHistory` (TypeError otherwise)."""
    if not isinstance(history, ForecastHistory):
        raise TypeError(
            "history must be a ForecastHistory (build one with "
            f"skbrier.forecast_history(forecasts, questions)), got {type(history).__name__}."
        )
    return history


def per_question(values: Any, names: np.ndarray, param: str, what: str, whose: str) -> Any:
    """Values given per question, in the order of ``names``.

    A dict or a pandas Series is read by its keys (a Series by its index,
    which must hold the question names: never by position); any other
    sequence is returned as given, to be read in the order of ``names``.
    """
    is_series = (
        hasattr(values, "index")
        and hasattr(values, "items")
        and not isinstance(values, Mapping)
    )
    if not (isinstance(values, Mapping) or is_series):
        return values
    if getattr(values, "ndim", 1) != 1:
        raise TypeError(f"{param} must be one value per question, not a table.")
    table = dict(values.items())
    missing = [q for q in names.tolist() if q not in table]
    if missing:
        hint = (
            "a pandas Series is read by its index, which must hold the question names "
            "(e.g. questions.set_index('question')[column])"
            if is_series
            else f"a dict needs a {what} for every question of the {whose}"
        )
        raise ValueError(
            f"{param}: no {what} for {len(missing)} question(s) ({missing[:5]!r}); {hint}."
        )
    return [table[q] for q in names.tolist()]


# --------------------------------------------------------------------------
# reading the two tables
# --------------------------------------------------------------------------
def _columns_of(table: Any, table_name: str) -> list[Any]:
    if isinstance(table, Mapping):
        return list(table.keys())
    if hasattr(table, "columns") and hasattr(table, "__getitem__"):
        return list(table.columns)
    raise TypeError(
        f"{table_name} must be a pandas DataFrame or a dict of equal-length columns "
        f"(column name -> values), got {type(table).__name__}."
    )


def _column(table: Any, col: Any, param: str, table_name: str, n: int | None) -> Any:
    """The column ``col`` of ``table`` (the parameter ``param`` names it)."""
    if not isinstance(col, str):
        raise TypeError(f"{param} must be a column name (str), got {col!r}.")
    cols = _columns_of(table, table_name)
    if col not in cols:
        shown = ", ".join(map(repr, cols[:12])) + (", ..." if len(cols) > 12 else "")
        raise ValueError(
            f"{param}: {table_name} has no column {col!r} (its columns: {shown}); "
            f"name the column with {param}=..."
        )
    values = table[col]
    try:
        m = len(values)
    except TypeError:
        raise TypeError(
            f"{param}: column {col!r} of {table_name} must be array-like, got "
            f"{type(values).__name__}."
        ) from None
    if n is not None and m != n:
        raise ValueError(
            f"{param}: column {col!r} of {table_name} has {m} values but the other "
            f"columns have {n}; every column of a table needs one value per row."
        )
    return values


@contextlib.contextmanager
def _renamed(names: dict[str, str]) -> Iterator[None]:
    """Re-raise a shared check's error with the names of this function's parameters."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        for old, new in names.items():
            msg = msg.replace(old, new)
        raise type(exc)(msg) from None


def _times(values: Any, param: str, table_name: str) -> tuple[np.ndarray, str]:
    """Times as float64 and their kind: ``"number"``, ``"naive"`` or ``"aware"`` (UTC)."""
    kind = "naive"
    tz = getattr(getattr(values, "dtype", None), "tz", None)
    if tz is not None:  # a timezone-aware pandas column
        import pandas as pd

        values = pd.Series(values).dt.tz_convert("UTC").dt.tz_localize(None)
        kind = "aware"
    arr = as_array(values, param)
    if arr.dtype.kind == "O":
        arr, kind = _object_times(arr, param, table_name)
    if arr.dtype.kind == "M":
        ns = arr.astype("datetime64[ns]").view(np.int64)
        nat = ns == np.iinfo(np.int64).min
        if nat.any():
            raise ValueError(
                f"{param}: row {int(np.argmax(nat))} of {table_name} has no time (NaT); "
                "drop the row or fill it in."
            )
        return ns / _NS, kind
    if arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{param} must hold numbers or datetimes, got dtype {arr.dtype} in {table_name}"
            + (
                " (text: parse it first, e.g. with pandas.to_datetime)."
                if arr.dtype.kind in "US"
                else "."
            )
        )
    t = arr.astype(np.float64)
    bad = ~np.isfinite(t)
    if bad.any():
        raise ValueError(
            f"{param}: row {int(np.argmax(bad))} of {table_name} has no finite time "
            f"({format_number(t[np.argmax(bad)])}); drop the row or fill it in."
        )
    return t, "number"


def utc_naive(value: Any) -> Any:
    """A timezone-aware datetime, or ISO 8601 text with a UTC offset, as a naive UTC datetime.

    Anything else is returned as given (numpy would drop the offset with a warning).
    """
    if isinstance(value, str):
        text = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
        try:
            parsed = _dt.datetime.fromisoformat(text)
        except ValueError:
            return value
        if parsed.tzinfo is None:
            return value
        value = parsed
    if isinstance(value, _dt.datetime) and value.tzinfo is not None:
        return value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    return value


def _object_times(arr: np.ndarray, param: str, table_name: str) -> tuple[np.ndarray, str]:
    """Python datetimes (aware ones converted to UTC) as ``datetime64``."""
    aware = []
    out = []
    for i, v in enumerate(arr.tolist()):
        if not isinstance(v, (_dt.datetime, _dt.date, np.datetime64)):
            shown = f"text such as {v!r}" if isinstance(v, str) else repr(v)
            raise TypeError(
                f"{param} must hold numbers or datetimes; row {i} of {table_name} holds "
                f"{shown}"
                + (
                    " (parse it first, e.g. with pandas.to_datetime)."
                    if isinstance(v, str)
                    else "."
                )
            )
        if isinstance(v, _dt.datetime) and v.tzinfo is not None:
            aware.append(True)
            v = utc_naive(v)
        else:
            aware.append(False)
        out.append(np.datetime64(v, "ns"))
    if any(aware) and not all(aware):
        raise ValueError(
            f"{param} mixes timezone-aware and naive datetimes in {table_name} (row "
            f"{aware.index(not aware[0])}); give all times in one convention."
        )
    return np.array(out, dtype="datetime64[ns]"), (
        "aware" if aware and aware[0] else "naive"
    )


def _question_table(
    questions: Any,
    cols: dict[str, str | None],
    pos_label: Any,
    multiple: bool = False,
) -> tuple[np.ndarray, dict[str, np.ndarray], str]:
    """Names (sorted) and per-question arrays in their order, plus the time kind."""
    n = len(_column(questions, cols["question"], "question", "questions", None))
    if n == 0:
        raise ValueError("questions is empty: give one row per question.")
    ids = _labels(
        _column(questions, cols["question"], "question", "questions", n), "question", n
    )
    names, code = check_one_row_per_question(ids)
    out: dict[str, np.ndarray] = {}
    kinds = {}
    for param in ("open_time", "close_time", "resolve_time"):
        col = cols[param]
        if col is None:
            continue
        t, kinds[param] = _times(
            _column(questions, col, param, "questions", n), param, "questions"
        )
        out[param] = t
    if cols["resolve_time"] is None:
        out["resolve_time"] = out["close_time"].copy()
    _same_kind(kinds)
    y = as_array(_column(questions, cols["outcome"], "outcome", "questions", n), "outcome")
    if multiple:
        out["outcome"] = check_categories(y, n)
    else:
        out["outcome"] = _binary_outcome(y, pos_label, n)
    if cols["weight"] is None:
        out["weight"] = np.ones(n)
    else:
        with _renamed({"sample_weight": "weight", "y_proba": "questions"}):
            w = check_sample_weight(
                as_array(
                    _column(questions, cols["weight"], "weight", "questions", n), "weight"
                ),
                n,
            )
        out["weight"] = np.asarray(w, dtype=np.float64)
    for param, other, rel in (
        ("close_time", "open_time", "after"),
        ("resolve_time", "open_time", "at or after"),
    ):
        bad = out[param] <= out[other] if rel == "after" else out[param] < out[other]
        if bad.any():
            i = int(np.argmax(bad))
            is_dt = kinds["open_time"] != "number"
            raise ValueError(
                f"{param}: question {to_builtin(ids[i])!r} (row {i} of questions) has {param} "
                f"{show_time(out[param][i], is_dt)}, which must be {rel} its open_time "
                f"{show_time(out[other][i], is_dt)}."
            )
    inv = np.empty(n, dtype=np.intp)
    inv[code] = np.arange(n)  # row of each sorted name
    return names, {k: v[inv] for k, v in out.items()}, kinds["open_time"]


def _binary_outcome(y: np.ndarray, pos_label: Any, n: int) -> np.ndarray:
    """Outcomes of yes/no questions as 0.0/1.0."""
    try:
        with _renamed({"y_true": "outcome", "y_proba": "probability"}):
            return binary_target(y, pos_label, n).astype(np.float64)
    except ValueError as exc:
        msg = str(exc)
        if "more than two classes" not in msg:
            raise
        found = msg[msg.index("found ") :]
        for advice in (" For a multiclass", " Are "):  # advice for 2-D forecasts
            found = found.split(advice)[0]
        raise ValueError(
            f"outcome must take two values (the questions are yes/no questions; give "
            f"one probability per category for multiple-choice questions); {found}"
        ) from None


def _same_kind(kinds: dict[str, str]) -> None:
    params = list(kinds)
    for p in params[1:]:
        if kinds[p] != kinds[params[0]]:
            what = {
                "number": "numbers",
                "naive": "naive datetimes",
                "aware": "timezone-aware datetimes",
            }
            raise TypeError(
                f"{p} holds {what[kinds[p]]} but {params[0]} holds {what[kinds[params[0]]]}; "
                "give every time in one convention."
            )


def forecast_history(
    forecasts: Any,
    questions: Any,
    *,
    forecaster: str = "forecaster",
    question: str = "question",
    timestamp: str = "timestamp",
    probability: str = "probability",
    open_time: str = "open_time",
    close_time: str = "close_time",
    resolve_time: str | None = "resolve_time",
    outcome: str = "outcome",
    weight: str | None = None,
    pos_label: Any = None,
) -> ForecastHistory:
    """Read and validate forecast histories: updates plus per-question times and outcomes.

    ``forecasts`` has one row per update (a forecaster gives a new
    probability to a question at a time); ``questions`` one row per
    question.  Both are pandas DataFrames or dicts of equal-length columns;
    the keyword arguments name the columns.  Everything is checked once
    here; a ``ValueError`` or ``TypeError`` names the parameter (the column)
    and the offending row:

    * every update's question is in ``questions``; a question appears once;
    * probabilities lie in [0, 1] and times are finite numbers or datetimes,
      all of one kind (numbers, naive or timezone-aware datetimes);
    * ``close_time`` is after ``open_time`` and ``resolve_time`` not before it;
    * the updates of one forecaster on one question are given in increasing
      time order, without two at the same time (sort them first);
    * no update comes after its question stopped taking forecasts, the
      earlier of its close and resolve times (an update at that very time
      is allowed and counts for no time).

    Updates made before the question opened are accepted: they stand from
    the open time on (as Metaculus treats them).

    Parameters
    ----------
    forecasts : pandas.DataFrame or dict of array-like
        The updates.
    questions : pandas.DataFrame or dict of array-like
        The questions.
    forecaster : str, default="forecaster"
        Column of ``forecasts`` naming the forecaster.
    question : str, default="question"
        Column naming the question, in both tables.
    timestamp : str, default="timestamp"
        Column of ``forecasts``: when the update was made.
    probability : str, default="probability"
        Column of ``forecasts``: the probability of the event, or for
        multiple-choice questions one sequence per row: the probabilities of
        the question's :math:`K` categories (summing to 1; the same :math:`K`
        on every update of a question).
    open_time : str, default="open_time"
        Column of ``questions``: when the question opened.
    close_time : str, default="close_time"
        Column of ``questions``: when it closes as scheduled (Metaculus
        averages its scores over the open to the scheduled close).
    resolve_time : str or None, default="resolve_time"
        Column of ``questions``: when it resolved (None: at its close time).
        A question that resolves before its scheduled close stops taking
        forecasts then.
    outcome : str, default="outcome"
        Column of ``questions``: the binary outcome; for multiple-choice
        questions the index (0 to :math:`K - 1`) of the category that occurred.
    weight : str or None, default=None
        Column of ``questions``: question weights (non-negative; default all 1).
    pos_label : int, float, bool or str, optional
        The outcome label meaning "the event happened" (scikit-learn's rule
        by default: 1 for 0/1 or -1/1 labels, True for booleans).

    Returns
    -------
    ForecastHistory

    Raises
    ------
    ValueError, TypeError
        Naming the column's parameter and the row (see above).

    Examples
    --------
    >>> import pandas as pd
    >>> from skbrier import forecast_history
    >>> updates = pd.DataFrame({
    ...     "forecaster": ["ann", "ann", "bob"],
    ...     "question": ["rain", "rain", "rain"],
    ...     "timestamp": pd.to_datetime(["2024-01-01", "2024-01-03", "2024-01-02"]),
    ...     "probability": [0.6, 0.8, 0.3]})
    >>> qs = pd.DataFrame({
    ...     "question": ["rain"], "open_time": pd.to_datetime(["2024-01-01"]),
    ...     "close_time": pd.to_datetime(["2024-01-06"]),
    ...     "resolve_time": pd.to_datetime(["2024-01-06"]), "outcome": [1]})
    >>> h = forecast_history(updates, qs)
    >>> h.forecasters.tolist(), h.time_kind
    (['ann', 'bob'], 'datetime')
    """
    cols = {
        "question": question,
        "open_time": open_time,
        "close_time": close_time,
        "resolve_time": resolve_time,
        "outcome": outcome,
        "weight": weight,
    }
    multiple = is_multiple_choice(
        _column(forecasts, probability, "probability", "forecasts", None)
    )
    qnames, qarr, qkind = _question_table(questions, cols, pos_label, multiple)
    n = len(_column(forecasts, forecaster, "forecaster", "forecasts", None))
    if n == 0:
        raise ValueError("forecasts is empty: give one row per update.")
    fc = _labels(
        _column(forecasts, forecaster, "forecaster", "forecasts", n), "forecaster", n
    )
    qu = _labels(_column(forecasts, question, "question", "forecasts", n), "question", n)
    t, tkind = _times(
        _column(forecasts, timestamp, "timestamp", "forecasts", n), "timestamp", "forecasts"
    )
    _same_kind({"open_time": qkind, "timestamp": tkind})
    pname = (
        "probability"
        if probability == "probability"
        else f"probability (column {probability!r})"
    )
    fnames, f = _codes(fc, "forecaster")
    q = _question_codes(qu, qnames)
    values = _column(forecasts, probability, "probability", "forecasts", n)
    if multiple:
        p_y, brier, n_cat = category_parts(values, q, qarr["outcome"], qnames, pname)
        p = p_y
    else:
        p = check_probabilities(values, name=pname, allow_2d=False, warn_hard=False)
        p_y, brier = binary_parts(p, qarr["outcome"][q])
        n_cat = np.full(qnames.shape[0], 2, dtype=np.int64)
    order = np.argsort(q.astype(np.int64) * fnames.shape[0] + f, kind="stable")
    f, q, t, p, p_y, brier = (a[order] for a in (f, q, t, p, p_y, brier))
    is_dt = qkind != "number"
    _check_order(f, q, t, order, fnames, qnames, is_dt, timestamp)
    end = np.minimum(qarr["close_time"], qarr["resolve_time"])
    late = t > end[q]
    if late.any():
        k = int(np.flatnonzero(late)[np.argmin(order[late])])
        qi = q[k]
        why = "resolved" if qarr["resolve_time"][qi] < qarr["close_time"][qi] else "closed"
        raise ValueError(
            f"timestamp: row {int(order[k])} of forecasts (forecaster "
            f"{to_builtin(fnames[f[k]])!r}, question {to_builtin(qnames[qi])!r}) is at {show_time(t[k], is_dt)}, after the question "
            f"{why} at {show_time(end[qi], is_dt)}; a forecast made after its question "
            "closed or resolved cannot be scored: drop it."
        )
    arrays = {
        "forecaster_index": f,
        "question_index": q,
        "time": t,
        "probability": np.ascontiguousarray(p),
        "row": order.astype(np.int64),
        "open_time": qarr["open_time"],
        "close_time": qarr["close_time"],
        "resolve_time": qarr["resolve_time"],
        "outcome": qarr["outcome"],
        "question_weight": qarr["weight"],
        "outcome_probability": p_y,
        "brier": brier,
        "n_categories": n_cat,
    }
    for a in (*arrays.values(), fnames, qnames):
        a.flags.writeable = False
    return ForecastHistory(
        forecasters=fnames,
        questions=qnames,
        time_kind="datetime" if is_dt else "number",
        **arrays,
    )


def _question_codes(qu: np.ndarray, qnames: np.ndarray) -> np.ndarray:
    """Position in ``qnames`` of each update's question (ValueError for an unknown one)."""
    uniq, inv = _codes(qu, "question")
    try:
        pos = np.searchsorted(qnames, uniq)
        pos = np.minimum(pos, qnames.shape[0] - 1)
        known = qnames[pos] == uniq
    except TypeError:
        known = np.zeros(uniq.shape[0], dtype=bool)
        pos = np.zeros(uniq.shape[0], dtype=np.intp)
    if not np.all(known):
        bad = np.flatnonzero(~known[inv])
        r = int(bad[0])
        name = to_builtin(qu[r])
        same = [q for q in qnames.tolist() if str(q) == str(name)]
        hint = (
            f"; questions has {same[0]!r} ({'text' if isinstance(same[0], str) else 'a number'}):"
            " the two question columns hold different types, convert one"
            if same
            else "; add the question with its times and outcome, or drop those rows"
        )
        raise ValueError(
            f"question: row {r} of forecasts names question {name!r}, which is not in "
            f"questions ({bad.size} of {qu.shape[0]} rows name unknown questions){hint}."
        )
    return np.asarray(pos, dtype=np.intp)[inv]


def _check_order(
    f: np.ndarray,
    q: np.ndarray,
    t: np.ndarray,
    order: np.ndarray,
    fnames: np.ndarray,
    qnames: np.ndarray,
    is_dt: bool,
    col: str,
) -> None:
    """Increasing times within each (forecaster, question), in the order given."""
    same = (f[1:] == f[:-1]) & (q[1:] == q[:-1])
    bad = same & (t[1:] <= t[:-1])
    if not bad.any():
        return
    k = int(np.flatnonzero(bad)[np.argmin(order[1:][bad])])
    r0, r1 = int(order[k]), int(order[k + 1])
    who = f"forecaster {to_builtin(fnames[f[k]])!r}, question {to_builtin(qnames[q[k]])!r}"
    if t[k + 1] == t[k]:
        raise ValueError(
            f"timestamp: rows {r0} and {r1} of forecasts ({who}) have the same time "
            f"{show_time(t[k], is_dt)}; keep one update per forecaster, question and time."
        )
    raise ValueError(
        f"timestamp: row {r1} of forecasts ({who}) is at {show_time(t[k + 1], is_dt)}, "
        f"before row {r0} ({show_time(t[k], is_dt)}): the updates of a forecaster on a "
        "question must be in time order; sort the rows by time first (e.g. "
        f"forecasts.sort_values({col!r}))."
    )
