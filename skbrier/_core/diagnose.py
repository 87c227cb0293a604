"""Diagnoses of the commonest input mistakes: one home for the messages.

The Python API (:mod:`skbrier._core.validation`) and the command line
(:mod:`skbrier.cli._read`) find the same mistakes in the same way and say the
same thing; only the subject (``y_proba`` or ``data.csv: column 'p'``), the
way a position is named (``index 3`` or ``row 5``) and the remedy that is
specific to a front end (``divide by 100`` or ``use --percent``) differ.

* :func:`probability_problem`: NaN (how many, the first), infinity, values
  outside [0, 1] with what they look like (percentages, log-odds or
  ``decision_function`` scores, a rounding excess, extra DataFrame columns);
* :func:`text_problem`: text where probabilities belong;
* :func:`label_problem`: more distinct labels than a binary forecast allows
  (labels found with their counts, a stray label, swapped arguments);
* :func:`one_warning_per_call`, :func:`warn_once`: each warning at most once
  per public call (the HardForecastWarning of forecasts all exactly 0 or 1:
  :mod:`skbrier._core.hard`).

Numbers in messages have 4 significant digits (:func:`_results.format_number`).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import os
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np

from ..exceptions import HardForecastWarning
from .format import format_number as fmt

__all__ = [
    "SWAP_HINT",
    "HardForecastWarning",
    "column_names",
    "label_counts",
    "names_rows",
    "non_numeric_problem",
    "too_many_classes",
    "fmt",
    "held_warnings",
    "is_missing",
    "is_number_text",
    "label_problem",
    "missing_problem",
    "one_warning_per_call",
    "percent_of_probabilities",
    "probability_problem",
    "text_problem",
    "warn_once",
]

_F = TypeVar("_F", bound=Callable[..., Any])
# the package root (this module lives in skbrier/_core/)
_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

# --------------------------------------------------------------------------
# warnings: pointed at the caller's line, at most once per public call
# --------------------------------------------------------------------------
#: the warning kinds already given in the current public call (None: no call
#: of a composite function is under way, every warning is given)
_GIVEN: contextvars.ContextVar[set[Any] | None] = contextvars.ContextVar(
    "skbrier_warnings_given", default=None
)


def one_warning_per_call(func: _F) -> _F:
    """Decorator of a public function that validates the same data more than once.

    Inside the outermost decorated call, each kind of warning given through
    :func:`warn_once` is given once; nested public calls (a report calling
    the metrics) share the outer call's record.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _GIVEN.get() is not None:
            return func(*args, **kwargs)
        token = _GIVEN.set(set())
        try:
            return func(*args, **kwargs)
        finally:
            _GIVEN.reset(token)

    return wrapper  # type: ignore[return-value]


def _user_stacklevel() -> int:
    """``stacklevel`` of ``warnings.warn`` called here that names the caller
    of the outermost skbrier frame (the user's line, also when skbrier calls
    back into skbrier through scikit-learn or dask)."""
    level = 0
    outermost = 0
    frame = inspect.currentframe()
    while frame is not None:
        if frame.f_code.co_filename.startswith(_PKG_DIR):
            outermost = level
        frame = frame.f_back
        level += 1
    return outermost + 1


def names_rows(message: str) -> bool:
    """Whether an in-memory message names positions (``index 3``), counts
    (``12 of 54 values``) or shapes (``shape (7, 1)``) of the rows it
    checked: raised for one chunk of a larger input (a dask or Spark
    partition), it must say they are the chunk's.

    Examples
    --------
    >>> names_rows("12 of 54 values of y_proba lie outside"), names_rows("y_proba is empty")
    (True, False)
    """
    return (
        "index" in message
        or "shape (" in message  # a shape counts the chunk's rows
        or re.search(r"\b\d+ of \d+\b", message) is not None
    )


#: where :func:`warn_once` holds its warnings back (None: it gives them)
_HELD: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "skbrier_warnings_held", default=None
)


@contextlib.contextmanager
def held_warnings() -> Iterator[list]:
    """Within the context, :func:`warn_once` appends ``(message, category,
    key)`` to the list yielded instead of warning: the warnings of one
    partition of distributed data, judged on the whole data by the caller."""
    held: list = []
    token = _HELD.set(held)
    try:
        yield held
    finally:
        _HELD.reset(token)


def warn_once(message: str, category: type[Warning], key: Any = None) -> None:
    """Warn (at the user's line) unless ``key`` (default: the category) was
    already warned of in the current public call (or hold it back, see
    :func:`held_warnings`)."""
    held = _HELD.get()
    if held is not None:
        held.append((message, category, key))
        return
    given = _GIVEN.get()
    k = category if key is None else key
    if given is not None:
        if k in given:
            return
        given.add(k)
    warnings.warn(message, category, stacklevel=_user_stacklevel())


# --------------------------------------------------------------------------
# bad probabilities
# --------------------------------------------------------------------------
def _default_where(shape: tuple[int, ...], columns: Sequence[Any] | None):
    if len(shape) == 1:
        return lambda i: f"index {i}"
    k = shape[1]

    def where(i: int) -> str:
        r, c = divmod(int(i), k)
        col = repr(columns[c]) if columns is not None else str(c)
        return f"row {r}, column {col}"

    return where


def _count(k: int, n: int) -> str:
    return f"{k} of {n} values"


def _column_hint(
    v: np.ndarray, name: str, columns: Sequence[Any] | None, ok: np.ndarray
) -> str | None:
    """For a DataFrame whose columns are partly probabilities: name the others
    (columns mostly outside [0, 1]: identifiers, counts, features)."""
    if v.ndim != 2 or columns is None:
        return None
    share_ok = ok.reshape(v.shape).mean(axis=0)
    foreign = share_ok < 0.5
    if foreign.all() or not foreign.any():
        return None
    names = list(columns)
    bad = [names[j] for j in np.flatnonzero(foreign)]
    good = [names[j] for j in np.flatnonzero(~foreign)]
    shown_bad = ", ".join(map(repr, bad[:10])) + (", ..." if len(bad) > 10 else "")
    pick = f"{name}[{good[0]!r}]" if len(good) == 1 else f"{name}[{good[:10]!r}]"
    return (
        f"Column{'s' if len(bad) > 1 else ''} {shown_bad} of {name} (columns "
        f"{names[:20]!r}) {'do' if len(bad) > 1 else 'does'} not hold probabilities: "
        f"pass only the probability column(s), e.g. {pick}."
    )


def probability_problem(
    values: np.ndarray,
    name: str,
    *,
    where: Callable[[int], str] | None = None,
    columns: Sequence[Any] | None = None,
    missing_ok: bool = False,
    percent_remedy: str = "divide by 100",
    scale: float = 1.0,
    negative_remedy: str | None = None,
) -> str | None:
    """What is wrong with numeric forecasts ``values``, or None when nothing is.

    Parameters
    ----------
    values : ndarray of shape (n,) or (n, k)
        Numbers (float64) meant as probabilities.
    name : str
        The subject of the message (``"y_proba"``, ``"f.csv: column 'p'"``).
    where : callable, optional
        Names the position of flat index ``i`` (default ``index i``, or ``row
        r, column c`` for 2-D input).
    columns : sequence, optional
        Column names of 2-D input (a DataFrame's).
    missing_ok : bool, default=False
        NaN is a missing value (the command line drops those rows) rather
        than an error.
    percent_remedy : str, default="divide by 100"
        What to do with percentages.
    scale : float, default=1.0
        The values were divided by ``scale`` (100: the command line's
        ``--percent``); shown values are multiplied back.
    negative_remedy : str, optional
        What negative values suggest and what to do, in place of the
        log-odds hint (``predict_proba``, ``expit``).

    Returns
    -------
    str or None
        One message: NaN (count, first position), infinity, or values
        outside [0, 1] with a hint at what they are (extra DataFrame columns,
        percentages, log-odds or ``decision_function`` scores, a rounding
        excess).
    """
    v = np.asarray(values, dtype=np.float64)
    flat = v.reshape(-1)
    n = flat.shape[0]
    pos = where or _default_where(v.shape, columns)
    nan = np.isnan(flat)
    if not missing_ok and nan.any():
        i = int(np.argmax(nan))
        return (
            f"{name} contains NaN: {_count(int(nan.sum()), n)} (the first at "
            f"{pos(i)}). Forecasts must be complete: drop those rows (from y_true "
            "and sample_weight too) or fill them in."
        )
    ok = nan | ((flat >= 0.0) & (flat <= 1.0))
    if ok.all():
        return None
    inf = np.isinf(flat)
    if inf.any():
        i = int(np.argmax(inf))
        hint = ""
        if (flat < 0).any():
            hint = (
                " Infinite and negative values suggest log-odds (logits): turn them "
                "into probabilities with scipy.special.expit, or use predict_proba()."
            )
        return (
            f"{name} contains infinity: {_count(int(inf.sum()), n)} (the first, "
            f"{fmt(flat[i] * scale)}, at {pos(i)}), but must contain probabilities "
            f"in [0, 1].{hint}"
        )
    i = int(np.argmax(~ok))
    finite = flat[~nan]
    lo, hi = float(finite.min()), float(finite.max())
    unit = "probabilities in [0, 1]" if scale == 1.0 else "percentages in [0, 100]"
    head = (
        f"{name} must contain {unit}; {pos(i)} has {fmt(flat[i] * scale)} "
        f"({_count(int((~ok).sum()), n)} lie outside; the values range from "
        f"{fmt(lo * scale)} to {fmt(hi * scale)})."
    )
    cols = _column_hint(v, name, columns, ok)
    if cols is not None:
        return f"{head} {cols}"
    if scale != 1.0:
        return head
    codes = np.unique(finite) if finite.size else finite
    if codes.size <= 2 and set(codes.tolist()) <= {-1.0, 0.0, 1.0, 2.0}:
        # before the percentage and log-odds hints: 1/2 lie in [0, 100]
        shown = ", ".join(fmt(c) for c in codes)
        return (
            f"{head} They look like class labels (coded {shown}), not "
            "probabilities: are the outcomes given as the forecasts? Pass the "
            "predicted probability of the event (predict_proba() output)."
        )
    if lo >= -1e-6 and hi <= 1.0 + 1e-6:
        return (
            f"{head} The excess is tiny (rounding error?): clip the forecasts, e.g. "
            f"numpy.clip({name}, 0, 1)."
        )
    if lo >= 0.0 and hi <= 100.0:
        return f"{head} They look like percentages: {percent_remedy}."
    if lo < 0.0 and negative_remedy is not None:
        return f"{head} {negative_remedy}"
    if lo < 0.0:
        return (
            f"{head} Negative values suggest scores or log-odds (decision_function "
            "output, logits), not probabilities: use predict_proba(), or turn "
            "log-odds into probabilities with scipy.special.expit."
        )
    return (
        f"{head} They do not look like probabilities (counts, identifiers or "
        "scores?): pass predict_proba() output."
    )


def percent_of_probabilities(values: Any) -> float | None:
    """A fraction among ``values`` read on a percent scale when every finite
    one lies in [0, 1] (they are probabilities, which the percent scale would
    shrink to at most 0.01), else None.  Percentages of only 0 and 1 have no
    fraction and pass.

    Examples
    --------
    >>> percent_of_probabilities([0.8, 0.3, 1.0])
    0.8
    >>> percent_of_probabilities([80.0, 30.0]) is None
    True
    """
    raw = np.asarray(values, dtype=np.float64)
    raw = raw[np.isfinite(raw)]
    if not raw.size or raw.min() < 0.0 or raw.max() > 1.0:
        return None
    fractions = raw[raw != np.round(raw)]
    return float(fractions[0]) if fractions.size else None


def _as_float(text: str | bytes) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def is_number_text(value: Any) -> bool:
    """Whether ``value`` is a string that reads as a finite number."""
    x = _as_float(value) if isinstance(value, (str, bytes)) else None
    return x is not None and x == x and abs(x) != float("inf")


def is_missing(v: Any) -> bool:
    """None, pandas.NA or NaT, or a float NaN (an object array's missing values)."""
    if v is None or type(v).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(v, float) and v != v


def missing_problem(
    values: np.ndarray,
    name: str,
    what: str = "values",
    columns: Sequence[Any] | None = None,
) -> str | None:
    """Missing values (None, pandas.NA, NaN) in an object array: how many, the
    first (``row r, column c`` of 2-D input, ``columns``: its names)."""
    arr = np.asarray(values, dtype=object)
    flat = arr.reshape(-1)
    miss = np.fromiter((is_missing(v) for v in flat), dtype=bool, count=flat.shape[0])
    if not miss.any():
        return None
    pos = _default_where(arr.shape, columns)(int(np.argmax(miss)))
    return (
        f"{name} contains missing values (None, NA or NaN): {int(miss.sum())} of "
        f"{flat.shape[0]} {what} (the first at {pos}). Drop "
        "those rows (from every input) or fill them in."
    )


def text_problem(values: np.ndarray, name: str, swap_hint: str) -> str:
    """Text (or other objects) where probabilities belong: say what to do."""
    flat = np.asarray(values, dtype=object).reshape(-1)
    texts = [v for v in flat[:1000] if isinstance(v, (str, bytes))]
    if not texts:
        kinds = sorted({type(v).__name__ for v in flat[:1000]} - {"float", "int"})
        return (
            f"{name} must contain numbers (probabilities); it holds "
            f"{', '.join(kinds) or 'objects'} values."
        )
    first = texts[0]
    example = first.decode(errors="replace") if isinstance(first, bytes) else first
    stripped = [t.strip() for t in texts]
    if all(
        isinstance(t, str) and t.endswith("%") and _as_float(t[:-1]) is not None
        for t in stripped
    ):
        return (
            f"{name} must contain numbers (probabilities); it holds percentages as "
            f"text such as {example!r}: strip the '%' and divide by 100."
        )
    if all(_as_float(t) is not None for t in texts):
        return (
            f"{name} must contain numbers (probabilities); it holds text such as "
            f"{example!r}: convert it first, e.g. numpy.asarray({name}, dtype=float)."
        )
    return (
        f"{name} must contain numbers (probabilities); it holds text labels such as "
        f"{example!r}. {swap_hint}"
    )


# --------------------------------------------------------------------------
# labels
# --------------------------------------------------------------------------
def _label(v: Any) -> str:
    if isinstance(v, (str, bytes)):
        return repr(v)
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return fmt(v.item() if isinstance(v, np.generic) else v)


def label_problem(
    lead: str,
    labels: Sequence[Any],
    counts: Sequence[int],
    first: Sequence[int] | None,
    *,
    where: Callable[[int], str],
    swap_hint: str,
    multiclass_hint: str,
) -> str:
    """``lead`` followed by the labels found (with counts) and what they suggest.

    ``labels`` are the distinct labels, sorted, ``counts`` their numbers of
    rows and ``first`` the position of each one's first row, or None when
    the rows were counted over the chunks of a mergeable state (no position
    means anything there; the message says so).  Hints: labels
    that are fractions in [0, 1] are probabilities (``swap_hint``); a label
    of at most 5 rows, and at most 10% of the rows of the second most common
    label, is a stray one; otherwise
    ``multiclass_hint``.
    """
    k = len(labels)
    chunked = first is None  # a mergeable state's counts: no positions
    numeric = [float(v) for v in labels if not isinstance(v, (str, bytes))]
    if (
        len(numeric) == k
        and any(not x.is_integer() for x in numeric)
        and all(0.0 <= x <= 1.0 for x in numeric)
    ):
        order = range(k) if first is None else np.argsort(np.asarray(first), kind="stable")
        fracs = [j for j in order if not numeric[j].is_integer()][:3]
        examples = ", ".join(
            fmt(numeric[j]) + ("" if first is None else f" at {where(first[j])}")
            for j in fracs
        )
        values = "distinct values over all chunks" if chunked else "distinct values"
        return (
            f"{lead}: found {k} {values}, e.g. {examples}. Fractions in [0, 1] look "
            f"like probabilities, not outcomes. {swap_hint}"
        )
    # rare: at most 5 rows and at most 10% of the second most common label's
    second = sorted(counts)[-2] if k >= 2 else 0
    rare = [c <= 5 and c <= 0.1 * second for c in counts]
    stray = [lab for lab, r in zip(labels, rare) if r]
    shown = []
    starts = [None] * k if first is None else list(first)
    for lab, c, f, r in list(zip(labels, counts, starts, rare))[:10]:
        if f is None:  # counted over chunks: no position
            rows = "1 row" if c == 1 else f"{c} rows"
        elif c == 1:
            rows = f"1 row: {where(f)}"
        elif r:  # a rare label: where it starts
            rows = f"{c} rows, the first: {where(f)}"
        else:
            rows = f"{c} rows"
        shown.append(f"{_label(lab)} ({rows})")
    more = f", ... ({k - 10} more)" if k > 10 else ""
    over = " (rows counted over all chunks)" if chunked else ""
    msg = f"{lead}: found {k} labels{over}: {', '.join(shown)}{more}."
    if stray and len(stray) <= k - 2:
        return (
            f"{msg} {', '.join(map(_label, stray))} "
            f"{'is' if len(stray) == 1 else 'are'} rare: a typo or a missing-value "
            f"code? Otherwise {multiclass_hint[0].lower()}{multiclass_hint[1:]}"
        )
    return f"{msg} {multiclass_hint}"


# --------------------------------------------------------------------------
# the Python API's wording
# --------------------------------------------------------------------------
SWAP_HINT = (
    "Are y_true and y_proba swapped? y_true takes the observed outcomes (labels), "
    "y_proba the forecast probabilities."
)


def column_names(x: Any) -> list[Any] | None:
    """The column names of a DataFrame-like 2-D input, else None."""
    cols = getattr(x, "columns", None)
    if cols is None or not hasattr(x, "to_numpy"):
        return None
    try:
        return list(cols)
    except TypeError:  # pragma: no cover - exotic frames
        return None


def _numeric_column(frame: Any, column: Any) -> bool:
    """Whether column ``column`` of a pandas or polars DataFrame holds numbers."""
    kind = getattr(getattr(frame[column], "dtype", None), "kind", None)
    if isinstance(kind, str):  # numpy and pandas dtypes (nullable ones too)
        return kind in "biuf"
    try:  # polars: through numpy
        return np.asarray(frame[column]).dtype.kind in "biuf"
    except (TypeError, ValueError):  # pragma: no cover - exotic columns
        return False


def non_numeric_problem(x: Any, arr: np.ndarray, name: str) -> str:
    """Message for probabilities that are not numbers (text, a mixed DataFrame)."""
    cols = column_names(x)
    if cols is not None:
        bad = [c for c in cols if not _numeric_column(x, c)]
        if bad and len(bad) < len(cols):
            good = [c for c in cols if c not in bad]
            pick = f"{name}[{good[0]!r}]" if len(good) == 1 else f"{name}[{good!r}]"
            return (
                f"{name} has columns {cols[:20]!r}: {bad[:10]!r} "
                f"{'is' if len(bad) == 1 else 'are'} not numeric. Pass only the "
                f"probability column(s), e.g. {pick}."
            )
    if arr.dtype.kind in "OUS":
        return text_problem(arr, name, SWAP_HINT.replace("y_proba", name))
    return f"{name} must contain numbers (probabilities); got dtype {arr.dtype}."


def label_counts(y: np.ndarray, rows: Sequence[int] | None = None):
    """Sorted distinct labels, their counts and first positions (error paths only).

    With ``rows``, ``y`` holds the distinct labels a mergeable state has
    counted over its chunks and ``rows[i]`` the number of rows of ``y[i]``:
    the labels come sorted (whatever the order of the chunks and merges)
    with those counts, and the positions are None (:func:`label_problem`
    then names none).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier._core.diagnose import label_counts
    >>> label_counts(np.array([2, 0, 2]))
    ([0, 2], [1, 2], [1, 0])
    >>> label_counts(np.array([2, 0]), rows=[5, 3])
    ([0, 2], [3, 5], None)
    """
    if rows is not None:
        return _tally(y, rows)
    try:
        classes, first, counts = np.unique(y, return_index=True, return_counts=True)
    except TypeError:  # unorderable objects
        seen: dict[Any, list[int]] = {}
        for i, v in enumerate(y.tolist()):
            seen.setdefault(v, [0, i])[0] += 1
        return list(seen), [c for c, _ in seen.values()], [f for _, f in seen.values()]
    return classes.tolist(), counts.tolist(), first.tolist()


def _tally(y: np.ndarray, rows: Sequence[int]) -> tuple[list, list[int], None]:
    """``label_counts`` of the distinct labels ``y`` counted ``rows`` times."""
    n = np.asarray(rows, dtype=np.int64)
    try:
        classes, inv = np.unique(y, return_inverse=True)
    except TypeError:  # unorderable objects: a canonical order all the same
        order = sorted(range(len(y)), key=lambda i: (type(y[i]).__name__, repr(y[i])))
        return [y[i] for i in order], [int(n[i]) for i in order], None
    counts = np.bincount(inv.reshape(-1), weights=n, minlength=classes.shape[0])
    return classes.tolist(), [int(c) for c in counts], None


def too_many_classes(
    y: np.ndarray, ref_name: str, rows: Sequence[int] | None = None, name: str = "y_true"
) -> str:
    """Message for more than two labels with a 1-D forecast (``rows``: see
    :func:`label_counts`; ``name``: the parameter of the labels)."""
    labels, counts, first = label_counts(y, rows)
    return label_problem(
        f"{name} has more than two classes, but {ref_name} is 1-D (the probability "
        "of one class)",
        labels,
        counts,
        first,
        where=lambda i: f"index {i}",
        swap_hint=SWAP_HINT.replace("y_proba", ref_name).replace("y_true", name),
        multiclass_hint=(
            f"For a multiclass problem pass a 2-D {ref_name} with one column per class "
            "(as predict_proba returns)."
        ),
    )
