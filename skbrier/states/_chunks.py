"""The checks of one chunk of rows given to a state's ``update``.

The weights of a chunk (all 0 allowed), its labels (the distinct labels and
the rows of each), its further forecast columns, the number of columns of
2-D forecasts, whether its forecasts are all exactly 0 or 1, and the names
of a state's column options: each read as the in-memory checks read the
whole input, so that a state's messages are the in-memory ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._core.hard import is_hard
from .._core.validation import (
    _as_array,
    _check_finite_labels,
    _rows_sum_to_one,
    _target_array,
    _warn_rows,
    binary_target,
    check_probabilities,
    check_sample_weight,
)

__all__ = [
    "check_columns",
    "check_names",
    "forecast_columns",
    "merge_row_sums",
    "note_row_sums",
    "rows_sum_to_one",
    "warn_row_sums",
]


def check_names(names: Any, name: str, *, empty: bool = True) -> tuple:
    """The names of a state's option ``name`` (its forecast columns or
    models) as a tuple: a sequence, not one string, each name once (at least
    one unless ``empty``).

    Examples
    --------
    >>> check_names(["model", "other"], "models")
    ('model', 'other')
    >>> check_names("model", "models")
    Traceback (most recent call last):
    ...
    TypeError: models must be a sequence of names (e.g. ('model',)), got the string 'model'.
    """
    if isinstance(names, (str, bytes)):
        raise TypeError(
            f"{name} must be a sequence of names (e.g. ({names!r},)), got the "
            f"string {names!r}."
        )
    out = tuple(names)
    if not out and not empty:
        raise ValueError(f"{name} must name at least one column, got {out!r}.")
    repeated = sorted({repr(v) for v in out if out.count(v) > 1})
    if repeated:
        raise ValueError(
            f"{name} must name each column once; repeated: {', '.join(repeated)}."
        )
    return out


def _chunk_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """Validated weights of one chunk; a chunk whose weights are all 0 is valid
    (only the total over all chunks must be positive, checked in finalize)."""
    if sample_weight is None:
        return None
    w = _as_array(sample_weight, "sample_weight")
    if w.dtype.kind in "biuf" and w.ndim == 1 and w.shape[0] == n and n and not w.any():
        return w.astype(np.float64)
    return check_sample_weight(w, n, ref_name="y_proba")


def check_columns(name: str, k: int, n_columns: int | None) -> None:
    """Raise the ValueError of a chunk (or a state) of ``k`` columns of
    ``name`` after chunks of ``n_columns`` (None: the first chunk)."""
    if n_columns is not None and k != n_columns:
        raise ValueError(f"{name} has {k} columns in one chunk but {n_columns} in another.")


def rows_sum_to_one(p: np.ndarray, dtype: Any = np.float64) -> bool:
    """Whether every row of the 2-D forecasts ``p`` sums to one (to the
    rounding of ``dtype``, their precision as given)."""
    return bool(_rows_sum_to_one(p @ np.ones(p.shape[1]), dtype))


def note_row_sums(state: Any, p: np.ndarray, dtype: Any, chunk: Any) -> None:
    """Record in ``state.rows_sum_to_one`` whether every row of a chunk's 2-D
    forecasts ``p`` (validated; ``dtype`` their precision as given) sums to
    one, and, when not, the column names of a DataFrame ``chunk`` in
    ``state.sum_columns`` (the in-memory warning's advice to pass only the
    probability column)."""
    columns = getattr(chunk, "columns", None)
    if columns is None or getattr(chunk, "ndim", 2) != 2:
        columns = None
    shown = getattr(state, "sum_columns", None)
    if state.rows_sum_to_one or (columns is not None and shown is None):
        if not rows_sum_to_one(p, dtype):
            state.rows_sum_to_one = False
            state.sum_columns = shown or (None if columns is None else list(columns))


def merge_row_sums(state: Any, other: Any) -> None:
    """:func:`note_row_sums` of the rows of ``other`` added to ``state``."""
    if not other.rows_sum_to_one:
        mine = getattr(state, "sum_columns", None)
        state.sum_columns = mine or getattr(other, "sum_columns", None)
    state.rows_sum_to_one = state.rows_sum_to_one and other.rows_sum_to_one


def warn_row_sums(state: Any, name: str, stacklevel: int) -> None:
    """The in-memory warning of rows of ``name`` that do not sum to one (with
    a DataFrame's columns, the advice to pass only the probability column)."""
    if not state.rows_sum_to_one:
        _warn_rows(
            name, stacklevel=stacklevel + 1, columns=getattr(state, "sum_columns", None)
        )


def _chunk_targets(y_true: Any, n: int, proba_name: str = "y_proba") -> np.ndarray:
    """The labels of a chunk of ``n`` rows, read as the in-memory check reads
    them (one per row of ``proba_name``)."""
    y = _target_array(y_true)
    if y.shape[0] != n:
        raise ValueError(
            f"y_true has {y.shape[0]} samples but {proba_name} has {n}; "
            "all inputs must have the same number of samples."
        )
    return y


def forecast_columns(
    columns: Mapping[str, Any], names: Any, n: int, shown: Any = None
) -> dict[str, np.ndarray]:
    """The further forecast columns ``names`` of a chunk of ``n`` rows (the
    keyword columns of ``update``), each validated as 1-D probabilities;
    ``shown(name)``: the name in the messages (default: the name)."""
    out = {}
    for name in names:
        label = name if shown is None else shown(name)
        # 0/1 values are judged over all the chunks (the state's _note_hard)
        q = check_probabilities(
            _as_array(columns[name], label),
            name=label,
            warn_hard=False,
            source=columns[name],
        )
        if q.shape != (n,):
            raise ValueError(
                f"{label} has shape {q.shape} but y_proba has shape ({n},); every "
                "forecast needs one probability per sample, as y_proba."
            )
        out[name] = q
    return out


def _plain_rows(y: Any, p: Any, w: Any) -> bool:
    """Whether the inputs of a chunk are 1-D numpy arrays of one length with
    float64 ``p`` (and ``w``) and numeric labels: the fused path may take them."""
    if type(p) is not np.ndarray or type(y) is not np.ndarray or p.ndim != 1:
        return False
    n = p.shape[0]
    if p.dtype != np.float64 or y.ndim != 1 or y.shape[0] != n or n == 0:
        return False
    if y.dtype.kind not in "biuf" or not y.dtype.isnative:
        return False
    return w is None or (
        type(w) is np.ndarray and w.dtype == np.float64 and w.ndim == 1 and w.shape[0] == n
    )


def _chunk_labels(y: np.ndarray) -> tuple[list[Any], list[np.ndarray | None]]:
    """The distinct labels of one chunk and the row mask of each (None: all rows).

    O(n) for numbers (minimum and maximum); more than two labels raise the
    in-memory error of :func:`binary_target`.
    """
    if y.dtype.kind in "biuf":
        if y.dtype.kind == "f":
            _check_finite_labels(y, "y_true")
        lo, hi = y.min(), y.max()
        if lo == hi:
            return [lo.item()], [None]
        is_hi = y == hi
        if np.count_nonzero(is_hi | (y == lo)) != y.shape[0]:
            binary_target(y, None)  # raises "more than two classes"
        return [lo.item(), hi.item()], [~is_hi, is_hi]
    classes = np.unique(y)
    if classes.shape[0] > 2:
        binary_target(y, None)
    if classes.shape[0] == 1:
        return [classes[0]], [None]
    is_hi = y == classes[1]
    return [classes[0], classes[1]], [~is_hi, is_hi]


def _all_hard(p: np.ndarray) -> bool:
    """Whether every value of the validated forecasts ``p`` is exactly 0 or 1
    (:func:`~skbrier._core.hard.is_hard` without its two-value minimum:
    a chunk may hold one row)."""
    if p.size >= 2:
        return is_hard(p)
    return bool(np.all((p == 0) | (p == 1)))
