"""``skbrier history``: a leaderboard of forecasters scored over their forecast histories.

Two tables: the updates (one row per forecaster, question, time and
probability) and the questions (open, close and resolve times, outcome,
optional weight and bootstrap stratum).  They are read as ``skbrier
leaderboard`` reads its table (:mod:`._read`: CSV/TSV text in any supported
encoding, compressed or not, or Parquet), checked by
:func:`skbrier.forecast_history`, scored by the chosen score over histories
and ranked by :func:`skbrier.history_leaderboard`; the output is that of
``skbrier leaderboard`` (table, ``--json`` records, ``--html`` page).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import re
from typing import Any

import numpy as np

from ._common import CLIError, add_options, say_note
from ._leaderboard import (
    _OPTIONS,
    _labels,
    board_error,
    check_board_options,
    fit_forecasters,
    refuse_missing_rows,
    show,
)
from ._read import _is_number, _numbers, outcomes, probabilities, read_input, weights
from ._table import Codes

_SCORES = ("daily-brier", "brier-at", "baseline", "peer")
#: the scores' parameters of a length of time as the command's options
_TIME_OPTIONS = {"at": "--lead-time", "step": "--step"}
_AT_WORDS = ("first", "last", "midpoint", "close")
_UNITS = {"w": "weeks", "d": "days", "h": "hours", "min": "minutes", "s": "seconds"}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(w|d|h|min|s)\s*$", re.IGNORECASE)


def _duration(text: str | None, option: str) -> Any:
    """A length of time: a number (the unit of numeric times) or NUMBER+UNIT (w, d, h, min, s)."""
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        pass
    m = _DURATION.match(text)
    if m is None:
        raise CLIError(
            f"{option}: {text!r} is not a length of time; give a number (in the unit of "
            "numeric times) or a number with a unit such as 24h, 1d, 2w, 30min, 90s."
        )
    return _dt.timedelta(**{_UNITS[m.group(2).lower()]: float(m.group(1))})


def _lead_time(text: str | None) -> Any:
    """--lead-time: one of first/last/midpoint/close, or a length of time."""
    if text is not None and text.lower() in _AT_WORDS:
        return text.lower()
    return _duration(text, "--lead-time")


def _iso(text: str) -> _dt.datetime | None:
    try:
        return _dt.datetime.fromisoformat(text.strip())
    except ValueError:
        return None


def _times(col: Any, name: str, path: str, decimal: str) -> np.ndarray:
    """A column of times: float64 numbers (NaN: missing) or ``datetime64[ns]`` (NaT: missing).

    Text is read as numbers when every value is one, else as ISO 8601
    dates or date-times (an offset or ``Z`` is converted to UTC; offsets
    and naive times cannot be mixed).
    """
    if not isinstance(col, Codes):
        return np.asarray(col, dtype=float)
    first = np.full(len(col.levels), col.codes.shape[0])
    np.minimum.at(first, col.codes[col.codes >= 0], np.flatnonzero(col.codes >= 0))
    numbers = [_is_number(v.replace(",", ".") if decimal == "," else v) for v in col.levels]
    parsed = [None if n else _iso(v) for n, v in zip(numbers, col.levels)]
    bad = [k for k, (n, t) in enumerate(zip(numbers, parsed)) if not n and t is None]
    if bad:
        k = min(bad, key=lambda k: first[k])
        raise CLIError(
            f"{path}: column '{name}' row {int(first[k]) + 2}: {col.levels[k]!r} is neither "
            "a number nor an ISO 8601 date or time (e.g. 2024-05-01 or 2024-05-01T12:00:00Z)."
        )
    if any(numbers) and not all(numbers):
        k = min((k for k, n in enumerate(numbers) if n), key=lambda k: first[k])
        raise CLIError(
            f"{path}: column '{name}' mixes numbers and dates (row {int(first[k]) + 2} "
            f"holds the number {col.levels[k]!r}); give every time one way."
        )
    if all(numbers):
        return _numbers(col, name, path, decimal)
    stamps = np.empty(len(col.levels) + 1, dtype="datetime64[ns]")
    stamps[-1] = np.datetime64("NaT")
    aware = set()
    for k, t in enumerate(parsed):
        assert t is not None
        aware.add(t.tzinfo is not None)
        if t.tzinfo is not None:
            t = t.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        stamps[k] = np.datetime64(t, "ns")
    if len(aware) > 1:
        raise CLIError(
            f"{path}: column '{name}' mixes times with a UTC offset and times without "
            "one; give all times in one convention."
        )
    return stamps[col.codes]


def _missing(values: np.ndarray) -> np.ndarray:
    if values.dtype.kind == "M":
        return np.isnat(values)
    if values.dtype.kind == "f":
        return np.isnan(values)
    return np.array([v is None for v in values.tolist()], dtype=bool)


def _question_names(col: Any) -> np.ndarray:
    """Question labels as text, so that both files name a question alike."""
    return np.array([None if v is None else str(v) for v in _labels(col).tolist()], object)


def _read_questions(args: argparse.Namespace) -> tuple[str, dict[str, np.ndarray]]:
    """The questions table as checked columns (missing values kept)."""
    times = {
        "open_time": args.open_col,
        "close_time": args.close_col,
        "resolve_time": args.resolve_col,
    }
    roles = [args.question_col, args.outcome_col, *(c for c in times.values() if c)]
    roles += [c for c in (args.weight_col, args.strata_col) if c]
    table = read_input(
        args.questions, roles, [args.weight_col] if args.weight_col else [], args
    )
    if (
        args.resolve_col is None
        and "resolve_time" in table.header
        and args.questions != "-"
    ):
        # as forecast_history: a 'resolve_time' column is read (it was ignored,
        # and forecasts made after an early resolution were scored)
        args.resolve_col = "resolve_time"
        return _read_questions(args)
    path, cols = table.name, table.columns
    out = {
        "question": _question_names(cols[args.question_col]),
        "outcome": outcomes(
            cols[args.outcome_col],
            args.outcome_col,
            path,
            args.pos_label,
            decimal=args.decimal,
            option="--outcome-col",
        ),
    }
    for key, col in times.items():
        if col is not None:
            out[key] = _times(cols[col], col, path, args.decimal)
    if args.weight_col:
        out["weight"] = weights(
            cols[args.weight_col], args.weight_col, path, decimal=args.decimal
        )
    if args.strata_col:
        out["strata"] = _labels(cols[args.strata_col])
    return path, out


def _read_forecasts(args: argparse.Namespace) -> tuple[str, dict[str, np.ndarray]]:
    roles = [args.forecaster_col, args.question_col, args.timestamp_col, args.p_col]
    table = read_input(args.file, roles, [args.p_col], args)
    path, cols = table.name, table.columns
    return path, {
        "forecaster": _labels(cols[args.forecaster_col]),
        "question": _question_names(cols[args.question_col]),
        "timestamp": _times(
            cols[args.timestamp_col], args.timestamp_col, path, args.decimal
        ),
        "probability": probabilities(
            cols[args.p_col], args.p_col, path, decimal=args.decimal
        ),
    }


def _complete(
    cols: dict[str, np.ndarray], path: str, what: str, args: argparse.Namespace
) -> np.ndarray:
    """Rows without a missing value (--na error: a CLIError naming the first)."""
    bad = np.zeros(next(iter(cols.values())).shape[0], dtype=bool)
    for values in cols.values():
        bad |= _missing(values)
    if args.na == "error":
        refuse_missing_rows(path, bad, what)
    return ~bad


def _score(history: Any, args: argparse.Namespace) -> Any:
    """The chosen score over the histories."""
    metaculus = args.score in ("baseline", "peer")
    for option, value, allowed in (
        ("--step", args.step, args.score == "daily-brier"),
        ("--before-first", args.before_first, args.score == "daily-brier"),
        ("--lead-time", args.lead_time, args.score != "daily-brier"),
        ("--rule", args.rule, metaculus),
        ("--scale", args.scale, not metaculus),
    ):
        if value is not None and not allowed:
            raise CLIError(f"{option} does not apply to --score {args.score}.")
    try:
        return _scored(history, args)
    except (ValueError, TypeError) as exc:  # the API's at= is --lead-time here
        raise type(exc)(_as_options(str(exc))) from None


def _as_options(message: str) -> str:
    """An error of the scores in the command's words: its options (at= is
    --lead-time), a length of time as the command takes it (1d, not a timedelta)."""
    message = re.sub(r"^(at|step)\b", lambda m: _TIME_OPTIONS[m.group(1)], message)
    message = message.replace(
        "a timedelta (e.g. numpy.timedelta64(1, 'D'))",
        "a length of time with a unit (1d, 24h)",
    )
    return re.sub(r"got datetime\.timedelta\([^)]*\)", "got a length with a unit", message)


def _scored(history: Any, args: argparse.Namespace) -> Any:
    from ..leaderboards import baseline_score, brier_at, daily_brier, peer_score

    half = args.scale != "0-2"
    at = _lead_time(args.lead_time)
    if args.score == "daily-brier":
        return daily_brier(
            history,
            step=_duration(args.step, "--step"),
            scale_by_half=half,
            before_first=args.before_first or "median",
        )
    if args.score == "brier-at":
        return brier_at(history, "last" if at is None else at, scale_by_half=half)
    if isinstance(at, str) and at in ("first", "last"):
        raise CLIError(f"--lead-time {at} applies to --score brier-at only.")
    scorer = baseline_score if args.score == "baseline" else peer_score
    return scorer(history, rule=args.rule or "log", at=at)


def _history(args: argparse.Namespace) -> int:
    from ..leaderboards import forecast_history, history_leaderboard
    from ..leaderboards._panel import check_one_row_per_question

    anchor = check_board_options(args)
    qpath, qs = _read_questions(args)
    fpath, fc = _read_forecasts(args)
    named = np.flatnonzero(~_missing(qs["question"]))
    try:  # before --na drops rows: a question listed twice is an error, not a gap
        check_one_row_per_question(qs["question"][named])
    except ValueError as exc:
        raise board_error(exc, {"questions": (qpath, named)}) from None
    q_ok = _complete(qs, qpath, "questions", args)
    f_ok = _complete(fc, fpath, "rows", args)
    orphan = np.isin(fc["question"], qs["question"][~q_ok]) & f_ok
    notes = []
    if not q_ok.all():
        notes.append(
            f"{int((~q_ok).sum())} question(s) with a missing value (e.g. not resolved yet) "
            f"left out with their {int(orphan.sum())} forecast(s) (--na {args.na})"
        )
    if not f_ok.all():
        notes.append(
            f"{int((~f_ok).sum())} forecast row(s) with a missing value left out "
            f"(--na {args.na})"
        )
    f_keep = np.flatnonzero(f_ok & ~orphan)
    q_keep = np.flatnonzero(q_ok)
    for line in notes:
        say_note(f"{line}.", args)
    if f_keep.size == 0:
        raise CLIError(f"{fpath}: no forecasts left to score.")
    questions = {k: v[q_keep] for k, v in qs.items() if k != "strata"}
    try:
        history = forecast_history(
            {k: v[f_keep] for k, v in fc.items()},
            questions,
            resolve_time="resolve_time" if args.resolve_col else None,
            weight="weight" if args.weight_col else None,
        )
        scores = _score(history, args)
        strata = None
        if "strata" in qs:
            strata = dict(
                zip(questions["question"].tolist(), qs["strata"][q_keep].tolist())
            )
        res = history_leaderboard(
            scores,
            adjustment=args.adjustment.replace("-", "_"),
            strata=strata,
            fit_forecasters=fit_forecasters(scores.forecasters, args.exclude_from_fit),
            reference=args.reference,
            n_resamples=args.n_resamples,
            confidence_level=args.confidence_level,
            simultaneous=not args.marginal,
            anchor=anchor,
            random_state=args.random_state,
        )
    except (ValueError, TypeError) as exc:
        files: dict[str | None, tuple[str, np.ndarray]] = {
            "forecasts": (fpath, f_keep),
            "questions": (qpath, q_keep),
        }
        raise board_error(exc, files) from None
    show(res, args)
    return 0


#: the options of ``skbrier leaderboard`` that ``skbrier history`` shares
_SHARED = (
    "--anchor",
    "--reference",
    "--exclude-from-fit",
    "--n-resamples",
    "--confidence-level",
    "--marginal",
    "--random-state",
    "--html",
    "--title",
    "--json",
    "--force",
    "--quiet",
)

_COLUMNS: dict[str, dict[str, tuple[str | None, str]]] = {
    "forecasts": {
        "--forecaster-col": ("forecaster", "column of forecasters"),
        "--question-col": ("question", "column of questions (in both files)"),
        "--timestamp-col": ("timestamp", "time of each update (numbers or ISO 8601)"),
        "--p-col": ("probability", "probability of each update"),
    },
    "questions": {
        "--open-col": ("open_time", "when each question opened"),
        "--close-col": ("close_time", "when it closes as scheduled"),
        "--resolve-col": (
            None,
            "when it resolved (default: the column 'resolve_time' when the file has "
            "one, else at its close)",
        ),
        "--outcome-col": ("outcome", "its outcome"),
        "--weight-col": (None, "its weight (default 1)"),
        "--strata-col": (None, "its bootstrap stratum"),
    },
}

_SCORING: dict[str, dict[str, Any]] = {
    "--score": {
        "choices": list(_SCORES),
        "default": "daily-brier",
        "help": "daily-brier: Good Judgment Open's daily carry-forward Brier score "
        "(default); brier-at: the forecast standing at --lead-time (default: each "
        "forecaster's last); baseline, peer: Metaculus's scores (time-averaged, or the "
        "spot score at --lead-time)",
    },
    "--lead-time": {
        "metavar": "T",
        "help": "a time before resolution (24h, 1d, or a number for numeric times), or "
        "first, last, midpoint, close",
    },
    "--step": {"metavar": "T", "help": "daily-brier: the scored period (default 1d, or 1)"},
    "--before-first": {
        "choices": ["median", "exclude"],
        "help": "daily-brier: the days before a forecaster's first forecast take the "
        "crowd median (default, Good Judgment Open) or are left out",
    },
    "--scale": {
        "choices": ["0-1", "0-2"],
        "help": "Brier scores on the 0-1 scale (default) or Good Judgment Open's 0-2",
    },
    "--rule": {
        "choices": ["log", "brier"],
        "help": "baseline, peer: log (default) or Brier",
    },
    "--adjustment": {
        "choices": ["fixed-effects", "none"],
        "default": "fixed-effects",
        "help": "remove question difficulty by two-way fixed effects (default) or not "
        "(e.g. for peer scores, already relative to the others)",
    },
    "--pos-label": {"metavar": "LABEL", "help": "the outcome that is the event"},
}


HELP = "leaderboard of forecasters scored over their forecast histories"
DESCRIPTION = (
    "Score every forecaster's updates on every question (Good Judgment Open's daily "
    "Brier score, the Brier score at a lead time, Metaculus's baseline and peer "
    "scores), adjust for question difficulty and rank them with question-bootstrap "
    "rank intervals, paired intervals and tie groups."
)


def add_arguments(sp: argparse.ArgumentParser) -> None:
    """Add the arguments of ``skbrier history`` to its parser."""
    sp.add_argument(
        "file",
        metavar="FORECASTS",
        help="table of updates: one row per "
        "forecaster, question, time and probability ('-': stdin)",
    )
    sp.add_argument(
        "--questions",
        required=True,
        metavar="FILE",
        help="table of questions: one row per question",
    )
    for group, options in _COLUMNS.items():
        g = sp.add_argument_group(f"columns of the {group} file")
        for flag, (default, text) in options.items():
            extra = f" (default '{default}')" if default else ""
            g.add_argument(flag, default=default, metavar="COL", help=text + extra)
    add_options(sp, {"scoring": _SCORING})
    for flag in _SHARED:
        sp.add_argument(flag, **_OPTIONS[None][flag])
    g = sp.add_argument_group("reading the files")
    for flag in ("--sep", "--decimal", "--encoding"):
        g.add_argument(flag, **_OPTIONS["reading the file"][flag])
    g.add_argument(
        "--na",
        choices=["drop", "error"],
        default="drop",
        help="rows with a missing value (a question not resolved yet, a forecast "
        "without a time): drop them and say how many (default), or stop",
    )
    sp.set_defaults(func=_history, allow_zero_resamples=True)
