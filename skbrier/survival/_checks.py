"""Validation of censored outcomes, horizons and predicted survival (the edge of skbrier.survival)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.diagnose import missing_problem
from .._core.format import format_number
from .._core.validation import check_sample_weight

__all__ = [
    "SurvivalData",
    "check_horizons",
    "check_nonnegative",
    "check_survival_outcome",
    "check_survival_proba",
    "distinct_numbers",
    "is_structured",
    "split_structured",
    "survival_functions",
    "survival_matrix",
]

#: tolerance for survival predictions that increase with the horizon (float noise)
MONOTONE_TOL = 1e-10


class SurvivalData(NamedTuple):
    """Validated outcome: float64 times, 0.0/1.0 events and float64 weights."""

    time: np.ndarray
    event: np.ndarray
    weight: np.ndarray


def is_structured(y: Any) -> bool:
    return isinstance(y, np.ndarray) and y.dtype.names is not None


def split_structured(y: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(event, time) of a structured array as scikit-survival's ``Surv.from_arrays`` makes.

    The first field is the event indicator and the second the time.
    """
    names = y.dtype.names
    if len(names) != 2:
        raise ValueError(
            f"{name} must be a structured array with two fields (event, time), "
            f"got fields {names}."
        )
    kinds = [y.dtype[f].kind for f in names]
    if kinds[1] == "b" and kinds[0] != "b":
        raise ValueError(
            f"{name}: the first field of a structured outcome is the event indicator "
            f"and the second the time (as scikit-survival's Surv.from_arrays makes), "
            f"got fields {names} with the boolean second: pass "
            f"{name}[[{names[1]!r}, {names[0]!r}]]."
        )
    event, time = np.asarray(y[names[0]]), np.asarray(y[names[1]])
    if _is_indicator(time) and not _is_indicator(event):
        raise ValueError(
            f"{name}: the first field of a structured outcome is the event indicator "
            f"and the second the time (as scikit-survival's Surv.from_arrays makes), "
            f"got fields {names} with 0/1 values in the second: pass "
            f"{name}[[{names[1]!r}, {names[0]!r}]]."
        )
    return event, time


def _is_indicator(x: np.ndarray) -> bool:
    """Whether ``x`` holds booleans or numbers that are all 0 or 1."""
    if x.dtype.kind == "b":
        return True
    return x.dtype.kind in "iuf" and bool(np.isin(x, (0, 1)).all())


def _text_problem(arr: np.ndarray, name: str, labels: bool) -> str | None:
    """Text where numbers belong (``labels``: an event indicator): what to do, or
    None when ``arr`` holds no text.  Text is refused whatever the dtype, so
    ``"0"``/``"1"`` are not read as numbers in an object array and refused as str."""
    if arr.dtype.kind in "US":
        texts = arr.reshape(-1)
    elif arr.dtype == object:
        # the first values tell text from pandas' nullable numbers (no loop over all)
        flat = arr.reshape(-1)
        if not any(isinstance(v, (str, bytes)) for v in flat[:1000]):
            return None
        texts = np.array([v for v in flat if isinstance(v, (str, bytes))])
    else:
        return None
    if texts.size == 0:
        return None
    found = sorted(
        {
            v.decode(errors="replace") if isinstance(v, bytes) else str(v)
            for v in texts.tolist()
        }
    )
    shown = repr(found[:10])[:-1] + (", ...]" if len(found) > 10 else "]")
    if not labels:
        return (
            f"{name} must be numbers, got text such as {found[0]!r}: convert it "
            f"first, e.g. numpy.asarray({name}, dtype=float)."
        )
    if set(found) <= {"0", "1"}:
        remedy = f"convert them, e.g. numpy.asarray({name}, dtype=int)"
    else:
        remedy = f"pass the indicator of the event, e.g. {name} == {found[-1]!r}"
    return (
        f"{name} must be 0/1 or boolean (1 = event, 0 = censored), got text labels "
        f"{shown}: {remedy}."
    )


def _temporal_problem(arr: np.ndarray, name: str) -> str | None:
    """Durations or dates where numbers of one time unit belong: what to do."""
    if arr.dtype.kind == "m":
        return (
            f"{name} holds durations ({arr.dtype}): give numbers in one time unit, "
            f"e.g. {name} / pandas.Timedelta(days=1), with the horizons and the "
            "observed times in the same unit."
        )
    if arr.dtype.kind == "M":
        return (
            f"{name} holds dates ({arr.dtype}): give the time from each subject's "
            "start to its event or censoring as numbers in one unit, e.g. "
            "(end - start) / pandas.Timedelta(days=1)."
        )
    return None


def _numeric(
    x: Any, name: str, what: str = "numbers", kinds: str = "biuf", *, labels: bool = False
) -> np.ndarray:
    """``x`` as a numpy array of numbers: object arrays (pandas' nullable
    columns) become float64, missing values NaN; text, durations, dates and
    other dtypes are a TypeError saying what to do (``labels``: ``x`` is an
    event indicator, its text labels are listed)."""
    if isinstance(x, (str, bytes)) or x is None:
        raise TypeError(f"{name} must be {what}, got {x!r}.")
    arr = np.asarray(x)
    problem = _text_problem(arr, name, labels) or _temporal_problem(arr, name)
    if problem is not None:
        raise TypeError(problem)
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"{name} must be {what} without missing values, got dtype object "
                "(pandas.NA, None or non-numbers)."
            ) from None
    if arr.dtype.kind not in kinds:
        raise TypeError(f"{name} must be {what}, got dtype {arr.dtype}.")
    return arr


def _as_numeric_1d(x: Any, name: str, names: tuple[str, str]) -> np.ndarray:
    arr = _numeric(x, name, labels=name == names[0])
    if arr.ndim != 1:
        hint = (
            f" An (event, time) table? Pass {names[0]}=its event column and "
            f"{names[1]}=its time column, or one structured array (event, time) "
            "as sksurv.util.Surv.from_arrays makes."
            if arr.ndim == 2 and 2 in arr.shape
            else ""
        )
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}.{hint}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one sample is required.")
    return arr


def check_survival_outcome(
    y_event: Any,
    y_time: Any,
    *,
    sample_weight: Any = None,
    names: tuple[str, str] = ("y_event", "y_time"),
) -> SurvivalData:
    """Validate an event indicator (0/1 or bool) and non-negative finite times."""
    if is_structured(y_event):
        if y_time is not None:
            raise ValueError(
                f"{names[0]} is a structured array (event, time): pass {names[1]}=None."
            )
        y_event, y_time = split_structured(y_event, names[0])
    event = _as_numeric_1d(y_event, names[0], names)
    time = _as_numeric_1d(y_time, names[1], names)
    if event.shape[0] != time.shape[0]:
        raise ValueError(
            f"{names[0]} has {event.shape[0]} samples but {names[1]} has {time.shape[0]}."
        )
    if event.dtype.kind == "b":
        ev = event.astype(np.float64)
    else:
        ev = event.astype(np.float64)
        if np.isnan(ev).any():
            miss = np.isnan(ev)
            raise ValueError(
                f"{names[0]} has missing values (NaN, None or pandas.NA): "
                f"{int(miss.sum())} of {ev.shape[0]} (the first at index "
                f"{int(np.argmax(miss))}): every subject needs an event indicator; "
                "drop those rows (from every input) or fill them in."
            )
        if not np.isin(ev, (0.0, 1.0)).all():
            bad = float(ev[~np.isin(ev, (0.0, 1.0))][0])
            hint = ""
            if np.isin(ev, (1.0, 2.0)).all():
                hint = (
                    " R's Surv coding 1 = censored, 2 = event? Pass the event "
                    f"indicator {names[0]} - 1."
                )
            elif (ev >= 0).all() and (ev == np.round(ev)).all():
                hint = (
                    " Cause codes of competing risks (0 = censored, 1, 2, ... = "
                    "causes)? Competing risks are not supported: these scores are for "
                    "one event type (riskRegression's Score(..., cause =) handles them)."
                )
            raise ValueError(
                f"{names[0]} must be 0/1 or boolean (1 = event, 0 = censored), "
                f"found {bad:.4g}.{hint}"
            )
    if time.dtype.kind == "b":
        raise TypeError(f"{names[1]} must be numbers, got booleans.")
    t = check_nonnegative(time, names[1], "finite (no NaN or infinity).")
    w = check_sample_weight(sample_weight, t.shape[0], ref_name=names[1])
    if w is None:
        w = np.ones_like(t)
    return SurvivalData(t, ev, w)


def check_nonnegative(values: Any, name: str, finite: str) -> np.ndarray:
    """``values`` as float64, refused unless finite and non-negative: the times
    of an outcome and the horizons.

    Parameters
    ----------
    values : array-like of numbers
        The times (checked for their type and shape by the caller).
    name : str
        The parameter named in the errors.
    finite : str
        How the error for a NaN or an infinity ends, after ``"{name} must be "``.

    Returns
    -------
    ndarray
        ``values`` as float64.

    Examples
    --------
    >>> from skbrier.survival._checks import check_nonnegative
    >>> check_nonnegative([0, 2.5], "times", "finite.")
    array([0. , 2.5])
    """
    t = np.asarray(values).astype(np.float64)
    ok = np.isfinite(t)
    if not ok.all():
        bad = ~ok.reshape(-1)
        first = int(np.argmax(bad))
        raise ValueError(
            f"{name} must be {finite.rstrip('.')}: {int(bad.sum())} of {bad.shape[0]} "
            f"values are not (the first, {t.reshape(-1)[first]}, at index {first})."
        )
    if t.min() < 0.0:
        raise ValueError(
            f"{name} must be non-negative, found {format_number(float(t.min()))}."
        )
    return t


def check_horizons(
    times: Any, data: SurvivalData, *, name: str = "times", integrated: bool = False
) -> np.ndarray:
    """Horizons: strictly increasing, non-negative, within the follow-up of ``data``.

    A horizon beyond the largest observed time (of the subjects with
    positive weight) is refused: the Brier score there would be an
    extrapolation.  ``integrated``: at least two (:func:`check_horizon_values`).
    """
    t = check_horizon_values(times, name=name, integrated=integrated)
    last = float(data.time[data.weight > 0].max())
    if t[-1] > last:
        hor, end = distinct_numbers(float(t[-1]), last)
        raise ValueError(
            f"{name} must lie within follow-up: {hor} is beyond the largest "
            f"observed time {end}."
        )
    return t


def distinct_numbers(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with 4 significant digits, or as many more as tell them apart."""
    digits = 4
    while format_number(a, digits) == format_number(b, digits) and digits < 17:
        digits += 1
    return format_number(a, digits), format_number(b, digits)


def check_horizon_values(
    times: Any, *, name: str = "times", integrated: bool = False
) -> np.ndarray:
    """Horizons without data: a non-empty, finite, non-negative, strictly
    increasing scalar or 1-D array (float64); ``integrated``: at least two."""
    if times is None:
        raise TypeError(f"{name} must be given (the horizons of the predictions).")
    arr = np.atleast_1d(_numeric(times, name, kinds="iuf"))
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"{name} must be a non-empty scalar or 1-D array, got shape {arr.shape}."
        )
    t = check_nonnegative(arr, name, "finite.")
    if t.size > 1 and not (np.diff(t) > 0).all():
        raise ValueError(
            f"{name} must be strictly increasing (sorted, without duplicates)."
        )
    if integrated and (np.ndim(times) == 0 or t.size < 2):
        raise ValueError(f"{name} must hold at least two horizons for an integrated score.")
    return t


def survival_functions(pred: Any) -> Any:
    """The sequence of survival functions in ``pred``, or None when it holds numbers."""
    seq: Any = None
    if isinstance(pred, (list, tuple)):
        seq = pred
    elif getattr(pred, "ndim", None) == 1 and str(getattr(pred, "dtype", "")) == "object":
        seq = np.asarray(pred)  # an array or a pandas Series of step functions
    if seq is None or len(seq) == 0 or not callable(seq[0]):
        return None
    return seq


def survival_matrix(pred: Any, times: np.ndarray, *, name: str = "surv_proba") -> Any:
    """Survival functions evaluated at ``times``, shape (n, len(times)); numbers unchanged.

    ``pred`` may be what ``predict_survival_function`` of a scikit-survival
    estimator returns: a sequence of step functions (callables of time).
    Anything else is returned as it is (an array already evaluated at
    ``times``, checked by :func:`check_survival_proba`).
    """
    seq = survival_functions(pred)
    if seq is None:
        return pred
    if not all(callable(f) for f in seq):
        raise TypeError(
            f"{name} mixes survival functions (callables of time) and other values."
        )
    rows = []
    for fn in seq:
        try:
            row = np.atleast_1d(np.asarray(fn(times), dtype=np.float64))
        except (TypeError, ValueError) as err:
            raise ValueError(
                f"{name}: a survival function could not be evaluated at times "
                f"(within [{format_number(float(times[0]))}, "
                f"{format_number(float(times[-1]))}]): {err}"
            ) from err
        if row.shape != times.shape:
            raise ValueError(
                f"{name}: a survival function returned shape {row.shape} for "
                f"{times.shape[0]} times; it must return one value per time."
            )
        rows.append(row)
    return np.vstack(rows)


def _time_labels(labels: Any) -> np.ndarray | None:
    """The numeric labels of a DataFrame axis as float64, or None when they
    are no times (text, or pandas' default ``RangeIndex``)."""
    if type(labels).__name__ == "RangeIndex":
        return None
    arr = np.asarray(labels)
    if arr.dtype.kind not in "iuf" or arr.ndim != 1:
        return None
    return arr.astype(np.float64)


def _check_frame_axes(surv_proba: Any, times: np.ndarray, name: str) -> None:
    """Refuse a DataFrame whose labels say it does not hold the horizons as columns.

    Its columns labelled with other times (an estimator's own grid, another
    unit), or its index holding the horizons with the subjects as columns
    (lifelines' and pycox's layout; a square one passes every other check),
    would be read silently as survival at ``times``.
    """
    columns, index = (
        getattr(surv_proba, "columns", None),
        getattr(surv_proba, "index", None),
    )
    if columns is None or index is None or getattr(surv_proba, "ndim", 0) != 2:
        return
    cols, rows = _time_labels(columns), _time_labels(index)
    cols_ok = cols is not None and np.array_equal(cols, times)
    if not cols_ok and rows is not None and np.array_equal(rows, times):
        raise ValueError(
            f"{name} holds the horizons as its index (rows) and one column per "
            f"subject (as lifelines and pycox return survival): pass {name}.T."
        )
    if cols is not None and not cols_ok and cols.shape == times.shape:
        shown = ", ".join(format_number(float(v)) for v in cols[:6])
        want = ", ".join(format_number(float(v)) for v in times[:6])
        raise ValueError(
            f"{name}'s columns are the times [{shown}] but times [{want}] were given: "
            f"pass the survival at the horizons, e.g. {name}[list(times)], or "
            "the horizons the columns belong to."
        )


def check_survival_proba(
    surv_proba: Any,
    n: int,
    n_times: int,
    *,
    name: str = "surv_proba",
    times: np.ndarray | None = None,
) -> np.ndarray:
    """Predicted survival probabilities, shape (n, len(times)), in [0, 1], non-increasing in t.

    ``times``: the horizons, checked against the labels of a DataFrame of the
    right shape (:func:`_check_frame_axes`).
    """
    arr = _numeric(surv_proba, name, "numbers (probabilities)", kinds="iuf")
    if arr.ndim == 1 and n_times == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape != (n, n_times):
        hint = (
            f" The times as rows (as lifelines and pycox return survival)? Pass {name}.T."
            if arr.shape == (n_times, n) and n != n_times
            else ""
        )
        raise ValueError(
            f"{name} must have shape (n_samples, n_times) = ({n}, {n_times}), one "
            f"column per horizon, got {arr.shape}.{hint}"
        )
    if times is not None:  # the shape is right: the labels may still say otherwise
        _check_frame_axes(surv_proba, times, name)
    s = np.ascontiguousarray(arr, dtype=np.float64)
    # in row blocks: the temporaries of the range and monotonicity checks stay in cache
    step = max(1024, (1 << 16) // max(n_times, 1))
    lo, hi, bad_row = np.inf, -np.inf, -1
    for start in range(0, n, step):
        block = s[start : start + step]
        lo = float(np.minimum(lo, block.min()))  # NaN propagates
        hi = float(np.maximum(hi, block.max()))
        if n_times > 1 and bad_row < 0:
            up = (block[:, 1:] - block[:, :-1]) > MONOTONE_TOL
            if up.any():
                bad_row = start + int(np.flatnonzero(up.any(axis=1))[0])
    if np.isnan(lo) or np.isnan(hi):
        raise ValueError(missing_problem(s, name) or f"{name} contains NaN.")
    if not (lo >= 0.0 and hi <= 1.0):
        # 4 digits, or as many more as show a value just above 1
        shown_high = distinct_numbers(hi, 1.0)[0] if hi > 1.0 else format_number(hi)
        percent = " (percentages? Divide by 100)" if lo >= 0.0 and 1.5 < hi <= 100.0 else ""
        raise ValueError(
            f"{name} must be survival probabilities in [0, 1] (no NaN){percent}; "
            f"found values in [{format_number(lo)}, {shown_high}]."
        )
    if bad_row >= 0:
        raise ValueError(
            f"{name} must be non-increasing in time (a survival curve); row {bad_row} increases."
        )
    return s
