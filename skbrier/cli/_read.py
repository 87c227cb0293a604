"""Columns of the user's table into checked arrays: outcomes, probabilities,
weights, with missing values kept as ``NaN`` (dropped per model by the
caller).  The tables themselves are read by :mod:`._table`.

Every function takes a column as :mod:`._table` gives it (a float64 array,
``NaN`` = missing, or :class:`._table.Codes`), so the same checks and the same
messages apply whichever engine read the file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core.diagnose import (
    fmt,
    label_problem,
    percent_of_probabilities,
    probability_problem,
)
from ._common import CLIError, reader_keywords, say_note
from ._table import Codes, Table, read_table


def read_input(path: str, roles: Sequence[str], numeric: Sequence[str], args: Any) -> Table:
    """Read the columns ``roles`` of ``path`` (:func:`._table.read_table`,
    ``numeric`` ones as numbers) with the reader options of the command line
    (``--sep``, ``--decimal``, ``--encoding`` and, where the command has it,
    ``--comment``) and say the reader's note on stderr unless ``--quiet``."""
    table = read_table(path, roles, numeric=numeric, **reader_keywords(args))
    if table.info.get("note"):
        say_note(table.info["note"], args)
    return table


def is_missing(col: Any) -> np.ndarray:
    """Boolean mask of the missing values of a column."""
    if isinstance(col, Codes):
        return np.asarray(col.codes < 0)
    return np.isnan(col)


def _row(i: int) -> int:
    """Row number of data row ``i`` (the header is row 1)."""
    return int(i) + 2


def _numbers(col: Any, name: str, path: str, decimal: str = ".") -> np.ndarray:
    """A column as float64 (NaN: missing); a value that is not a number is a
    CLIError naming the column and its first row."""
    if not isinstance(col, Codes):
        return np.asarray(col, dtype=float)
    values = np.empty(len(col.levels) + 1)
    values[-1] = np.nan
    for k, v in enumerate(col.levels):
        text = v.replace(",", ".") if decimal == "," else v
        try:
            values[k] = float(text)
        except ValueError:
            i = int(np.flatnonzero(col.codes == k)[0])
            raise not_a_number(path, name, i, v, decimal) from None
    return values[col.codes]


def not_a_number(path: str, name: str, i: int, v: str, decimal: str = ".") -> CLIError:
    """The CLIError of text ``v`` in data row ``i`` of a number column."""
    hint = ""
    if decimal == "." and "," in v and _is_number(v.replace(",", ".")):
        hint = " (for a decimal comma use --decimal ,)"
    elif v.strip().endswith("%") and _is_number(
        (v.replace(",", ".") if decimal == "," else v).strip()[:-1]
    ):
        hint = " (percentages written as text: strip the '%' and use --percent)"
    elif _MISSING_CODE.fullmatch(v.strip().lower()):
        hint = " (a missing value? leave the cell empty or write NA)"
    return CLIError(f"{path}: column '{name}' row {_row(i)}: {v!r} is not a number{hint}.")


#: text that marks a missing value in other software (n.a., '-', '?', Excel's
#: error values) but is not among the reader's missing-value codes
_MISSING_CODE = re.compile(r"[-?.]+|na|n\.a\.?|nil|missing|#[a-z/0]+[!?]?")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def truth_word(pos_label: str) -> str | None:
    """``--pos-label`` of a true/false outcome column (TRUE/FALSE of R,
    True/False of pandas, a boolean column): ``"true"`` or ``"false"``, in
    any case or as 1/0; None for any other text."""
    wanted = {"1": "true", "0": "false"}.get(pos_label.strip(), pos_label.strip().lower())
    return wanted if wanted in ("true", "false") else None


def percent_refusal(path: str, name: str, example: float, top: float) -> CLIError:
    """The error of ``--percent`` over a column of probabilities (every
    finite value in [0, 1], ``example`` a fraction among them, ``top`` the
    largest), which it would shrink to at most 0.01: the one message of every
    engine."""
    return CLIError(
        f"{path}: column '{name}': every value lies in [0, 1] (e.g. "
        f"{fmt(example)}), which --percent reads as {fmt(top / 100)} "
        "at most: they look like probabilities; drop --percent."
    )


def probabilities(
    col: Any, name: str, path: str, *, decimal: str = ".", percent: bool = False
) -> np.ndarray:
    """Probabilities in [0, 1] (NaN: missing); ``percent`` divides by 100.

    Values outside are diagnosed as by the Python API
    (:func:`skbrier._core.diagnose.probability_problem`)."""
    p = _numbers(col, name, path, decimal)
    if percent:
        example = percent_of_probabilities(p)
        if example is not None:
            raise percent_refusal(path, name, example, float(np.nanmax(p)))
        p = p / 100.0
    msg = probability_problem(
        p,
        f"{path}: column '{name}'",
        where=lambda i: f"row {_row(i)}",
        missing_ok=True,
        percent_remedy="use --percent",
        scale=100.0 if percent else 1.0,
    )
    if msg is not None:
        raise CLIError(msg)
    return p


def weights(col: Any, name: str, path: str, *, decimal: str = ".") -> np.ndarray:
    """Non-negative finite frequency weights (NaN: missing)."""
    w = _numbers(col, name, path, decimal)
    bad = ~np.isnan(w) & ~(np.isfinite(w) & (w >= 0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise CLIError(
            f"{path}: column '{name}' must hold finite non-negative weights; "
            f"row {_row(i)} has {w[i]:g}."
        )
    return w


def outcomes(
    col: Any,
    name: str,
    path: str,
    pos_label: str | None,
    *,
    decimal: str = ".",
    option: str = "--y-col",
) -> np.ndarray:
    """0/1 outcomes (NaN: missing) from a column of labels (numbers or text).

    Numeric labels follow scikit-learn's rule ({0, 1} or {-1, 1}: the event
    is 1, otherwise the larger label) unless ``pos_label`` names the event;
    TRUE/FALSE labels (any case) count "true" as the event; other text labels
    need ``pos_label``.  ``option``: the command's option naming the column
    (in the messages)."""
    if not isinstance(col, Codes):  # read as numbers (e.g. Parquet)
        col = _numeric_codes(col)
    counts = np.bincount(col.codes[col.codes >= 0], minlength=len(col.levels))
    distinct = sorted(lv for lv, c in zip(col.levels, counts) if c > 0)
    numeric: dict[str, float] = {}
    for v in distinct:
        try:
            numeric[v] = float(v.replace(",", ".") if decimal == "," else v)
        except ValueError:
            numeric = {}
            break
    levels: list[float] | list[str]
    if numeric:
        if any(not math.isfinite(x) for x in numeric.values()):
            raise CLIError(f"{path}: column '{name}' contains infinity.")
        levels = sorted(set(numeric.values()))
    else:
        levels = distinct
    if not levels:
        raise CLIError(f"{path}: column '{name}' has no values (all are missing).")
    if len(levels) > 2:
        raise CLIError(_many_outcomes(col, name, path, numeric, levels, option))
    pos: Any
    truth = not numeric and {v.lower() for v in distinct} <= {"true", "false"}
    if pos_label is not None and truth:
        # TRUE/FALSE (R), True/False (pandas), a boolean column: any case, or 1/0
        wanted = truth_word(pos_label)
        if wanted is None:
            raise _not_an_outcome(pos_label, name, distinct)
        event = {lv for lv in distinct if lv.lower() == wanted}
    elif pos_label is not None:
        if numeric:
            try:
                pos = float(pos_label)
            except ValueError:
                raise _not_an_outcome(pos_label, name, distinct) from None
        else:
            pos = pos_label
        if len(levels) == 2 and pos not in levels:
            raise _not_an_outcome(pos_label, name, distinct)
        event = {lv for lv in distinct if (numeric[lv] if numeric else lv) == pos}
    elif numeric:
        # scikit-learn's rule: {0, 1} or {-1, 1} -> 1, otherwise the larger label
        in_unit = set(levels) <= {0.0, 1.0} or set(levels) <= {-1.0, 1.0}
        pos = 1.0 if in_unit else levels[-1]
        event = {lv for lv in distinct if numeric[lv] == pos}
    elif truth:
        # TRUE/FALSE (R), True/False (pandas): the event is "true"
        event = {lv for lv in distinct if lv.lower() == "true"}
    else:
        raise CLIError(
            f"{path}: column '{name}' holds text labels ({', '.join(distinct)}); "
            "name the event with --pos-label."
        )
    lut = np.array([1.0 if lv in event else 0.0 for lv in col.levels] + [np.nan])
    return lut[col.codes]


def _not_an_outcome(pos_label: str, name: str, distinct: list[str]) -> CLIError:
    """The CLIError of a --pos-label that names none of the outcomes."""
    return CLIError(
        f"--pos-label {pos_label!r} is not one of the outcomes in column "
        f"'{name}' ({', '.join(distinct)})."
    )


def _numeric_codes(col: Any) -> Codes:
    """A numeric column as :class:`Codes` of its sorted distinct values
    (``-1``: missing).  Two values or fewer (an outcome column) take a few
    passes and one byte per row; more go through ``np.unique`` (for the
    message that names them)."""
    col = np.asarray(col, dtype=float)
    miss = np.isnan(col)
    n_present = col.shape[0] - int(np.count_nonzero(miss))
    if n_present:
        lo, hi = float(np.nanmin(col)), float(np.nanmax(col))
        is_hi = col == hi
        n_two = int(np.count_nonzero(is_hi))
        if hi != lo:
            n_two += int(np.count_nonzero(col == lo))
        if n_two == n_present:
            codes = is_hi.view(np.int8) if hi != lo else np.zeros(col.shape[0], np.int8)
            codes[miss] = -1
            return Codes(codes, [repr(v) for v in ([lo] if lo == hi else [lo, hi])])
    present = np.unique(col[~miss])
    codes = np.searchsorted(present, np.where(miss, 0.0, col)).astype(np.intp)
    codes[miss] = -1
    return Codes(codes, [repr(float(v)) for v in present])


def _many_outcomes(
    col: Codes, name: str, path: str, numeric: dict[str, float], levels: list, option: str
) -> str:
    """More than two outcomes: the labels with their counts, as the Python API
    lists them (:func:`skbrier._core.diagnose.label_problem`)."""
    present, first_row = np.unique(col.codes, return_index=True)
    per_code = np.bincount(col.codes[col.codes >= 0], minlength=len(col.levels))
    counts: dict[Any, int] = {}
    first: dict[Any, int] = {}
    for code, i in zip(present.tolist(), first_row.tolist()):
        if code < 0:
            continue
        lv = col.levels[code]
        key = numeric[lv] if numeric else lv
        counts[key] = counts.get(key, 0) + int(per_code[code])
        first[key] = min(first.get(key, i), i)
    return label_problem(
        f"{path}: column '{name}' must be binary (two outcomes)",
        levels,
        [counts[v] for v in levels],
        [first[v] for v in levels],
        where=lambda i: f"row {_row(i)}",
        swap_hint=(
            "Are --y-col and --p-col swapped? --y-col names the outcomes."
            if option == "--y-col"
            else f"{option} names the outcomes (0/1), not the forecasts."
        ),
        multiclass_hint="skbrier scores binary outcomes: recode the column to two labels.",
    )


def label_mixup(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> str | None:
    """A sentence when the labels look flipped, else None.

    The rule: the prevalence ``pi`` and the mean forecast ``m`` differ by at
    least 0.2, flipping the labels would at least halve that gap
    (``|m - (1 - pi)| <= |m - pi| / 2``), *and* the forecasts are lower on
    average for events than for non-events (a negative discrimination
    slope).  A model that is merely miscalibrated (shifted intercept, too
    steep or too flat) keeps a positive slope, so it does not trigger it.
    """
    # the sums one at a time (a few n-long temporaries, never all at once)
    ww = np.ones_like(y) if w is None else w
    total = ww.sum()
    ev = ww * y
    events, events_mass = ev.sum(), (ev * p).sum()
    del ev
    ne = ww * (1.0 - y)
    non_events, non_events_mass = ne.sum(), (ne * p).sum()
    del ne
    if total <= 0 or events <= 0 or non_events <= 0:
        return None
    pi = float(events / total)
    m = float((ww * p).sum() / total)
    slope = float(events_mass / events - non_events_mass / non_events)
    gap, flipped = abs(m - pi), abs(m - (1.0 - pi))
    if gap >= 0.2 and flipped <= gap / 2 and slope < 0:
        return (
            f"the event rate is {pi:.2f} but the mean forecast is {m:.2f}, and "
            f"forecasts are lower for events than for non-events (by {-slope:.2f}): "
            "are the labels flipped? Check --pos-label."
        )
    return None


__all__ = [
    "is_missing",
    "label_mixup",
    "outcomes",
    "probabilities",
    "read_table",
    "weights",
]
