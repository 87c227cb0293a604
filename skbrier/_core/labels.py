"""Outcome labels: binary targets (scikit-learn's positive-class rule, O(n)
for the usual integer labels) and the class encoding of multiclass forecasts.

Errors name the parameter and list the labels found (:mod:`.diagnose`).
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import arrays as _arrays
from .diagnose import (
    SWAP_HINT,
    fmt,
    is_missing,
    is_number_text,
    missing_problem,
    too_many_classes,
)
from .fast_checks import _MINMAX_CHUNK, _min_max

__all__ = ["binary_target", "check_groups", "encode_labels"]


def _target_array(
    y_true: Any, name: str = "y_true", *, check_finite: bool = True
) -> np.ndarray:
    y = _arrays.as_array(y_true, name)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        hint = ""
        if (
            y.ndim == 2
            and y.dtype.kind == "f"
            and y.size
            and np.nanmin(y) >= 0.0
            and np.nanmax(y) <= 1.0
            and not np.all((y == 0) | (y == 1))
        ):
            hint = (
                " It holds fractions in [0, 1], one column per class: that is "
                "predict_proba output. " + SWAP_HINT
            )
        raise ValueError(
            f"{name} must be a 1-D array of labels, got shape {y.shape}.{hint}"
        )
    if y.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one sample is required.")
    kind = y.dtype.kind
    if kind == "c":
        raise TypeError(f"{name} must not be complex.")
    if kind == "f" and check_finite:
        _check_finite_labels(y, name)
    elif kind == "O":
        # objects: reject NaN/None and mixtures of strings and numbers
        has_str = False
        has_num = False
        for v in y:
            if v is None or (
                not isinstance(v, (str, numbers.Number)) and is_missing(v)
            ):  # None, pandas.NA, NaT
                raise ValueError(missing_problem(y, name, "labels") or f"{name}: None.")
            if isinstance(v, str):
                has_str = True
            elif isinstance(v, numbers.Number):
                if v != v:  # NaN (pandas' missing value of a text column)
                    raise ValueError(_object_nan_problem(y, name))
                has_num = True
            if has_str and has_num:
                raise TypeError(_mixed_labels_problem(y, name))
    return y


def _mixed_labels_problem(y: np.ndarray, name: str) -> str:
    """The message of an object array of labels mixing strings and numbers,
    naming booleans as booleans (chunks of ``True``/``False`` beside chunks
    of strings were said to hold numbers)."""
    others = {type(v) for v in y if not isinstance(v, str)}
    if others and all(issubclass(t, (bool, np.bool_)) for t in others):
        return (
            f"{name} mixes strings and booleans (True/False); use one type of "
            "label: convert the booleans to strings or the strings to booleans "
            "(numpy's concatenation of such arrays turns True into 'True')."
        )
    return f"{name} mixes strings and numbers; use one type of label."


def _object_nan_problem(y: np.ndarray, name: str) -> str:
    """The message of an object array of labels holding NaN: how many missing
    labels (None, NA or NaN), the first, and what to do."""
    miss = np.fromiter(
        (is_missing(v) or (isinstance(v, numbers.Number) and v != v) for v in y),
        dtype=bool,
        count=y.shape[0],
    )
    return (
        f"{name} contains NaN: {int(miss.sum())} of {y.shape[0]} labels are missing "
        f"(None, NA or NaN; the first at index {int(np.argmax(miss))}). Drop those "
        "rows (from every input) or fill them in."
    )


def _check_finite_labels(y: np.ndarray, name: str) -> None:
    if not np.isfinite(y).all():
        bad = ~np.isfinite(y)
        what = "NaN" if np.isnan(y).any() else "infinity"
        raise ValueError(
            f"{name} contains {what}: {int(bad.sum())} of {y.shape[0]} labels are not "
            f"finite (the first at index {int(np.argmax(bad))}). Drop those rows "
            "(from every input) first."
        )


def check_integral_labels(classes: np.ndarray, name: str = "y_true") -> None:
    """Refuse float labels that are not whole numbers (0.2, 1.5): scikit-learn
    reads them as a continuous target and raises; they are mostly
    probabilities or soft targets passed as the outcomes.  ``classes``: the
    distinct labels (or their extremes)."""
    if classes.dtype.kind != "f":
        return
    frac = classes[classes != np.round(classes)]
    if frac.size:
        shown = ", ".join(fmt(v) for v in np.unique(frac)[:3])
        raise ValueError(
            f"{name} holds non-integer values ({shown}): {name} must hold the "
            "observed outcomes (class labels such as 0/1), not probabilities or "
            "soft targets (scikit-learn reads such a target as continuous)."
        )


def _is_one(value: Any) -> bool:
    """``value == 1`` for a number (``True`` included); ``False`` for anything else."""
    if isinstance(value, (str, bytes)) or not isinstance(
        value, (numbers.Number, np.generic)
    ):
        return False
    return bool(value == 1)


def _only_zeros_and_ones(y: np.ndarray, buf: np.ndarray | None = None) -> bool:
    """Whether every value of the numeric 1-D ``y`` is 0 or 1, in one cheap pass.

    ``False`` means "not shown", not "invalid": the caller then takes the
    exact path.  Integers: as unsigned integers of the same size (negative
    numbers wrap round to huge values) the maximum is at most 1.  float64:
    ``y (1 - y)`` is exactly 0 for 0 and 1 and nonzero (or NaN) for anything
    else, checked in chunks the size of the float64 scratch ``buf``
    (allocated if None).
    """
    kind = y.dtype.kind
    if kind == "b":
        return True
    if not y.dtype.isnative:  # a byte-swapped view would read other numbers
        return False
    if kind in "iu":
        return int(y.view(f"u{y.dtype.itemsize}").max()) <= 1
    if y.dtype != np.float64:
        return False
    if buf is None:
        buf = np.empty(min(y.shape[0], _MINMAX_CHUNK))
    step = buf.shape[0]
    for i in range(0, y.shape[0], step):
        c = y[i : i + step]
        t = np.subtract(1.0, c, out=buf[: c.shape[0]])
        np.multiply(t, c, out=t)
        if t.any():
            return False
    return True


def _is_string_kind(y: np.ndarray) -> bool:
    return y.dtype.kind in "OUS"


def binary_target(
    y_true: Any,
    pos_label: Any,
    n: int | None = None,
    *,
    as_float: bool = True,
    ref_name: str = "y_proba",
    label_rows: Sequence[int] | None = None,
    name: str = "y_true",
) -> np.ndarray:
    """Encode binary labels as a float64 0/1 vector in O(n).

    ``label_rows``: ``y_true`` holds the distinct labels a mergeable state
    counted over its chunks, ``label_rows[i]`` rows of ``y_true[i]``; the
    message of too many classes then shows those counts, sorted, and no
    positions (:func:`skbrier._core.diagnose.label_counts`).  ``name`` is
    the parameter named in the messages (``y_correct`` of the selective
    metrics, say).

    With ``as_float=False`` integer or boolean labels that are already 0/1
    (with ``pos_label`` 1) are returned as an integer array without a copy.

    ``pos_label=None`` follows scikit-learn: labels in {0, 1} or {-1, 1} (or a
    subset) give 1; other numeric labels give the larger label; string labels
    need ``pos_label``.  More than two distinct labels raise ``ValueError``, as
    does a ``pos_label`` that is not one of two labels present.
    """
    if (
        _arrays._trusted(y_true)
        and y_true.ndim == 1
        and (n is None or y_true.shape[0] == n)
        and (pos_label is None or _is_one(pos_label))
    ):
        return y_true  # float64 0/1, validated by the public call in progress
    _arrays.checked(name)
    y = _target_array(y_true, name, check_finite=False)
    if n is not None and y.shape[0] != n:
        raise ValueError(
            f"{name} has {y.shape[0]} samples but {ref_name} has {n}; "
            "all inputs must have the same number of samples."
        )
    if y.dtype.kind in "biuf":
        if y.dtype.kind == "b":
            y = y.view(np.uint8)
        if (pos_label is None or _is_one(pos_label)) and _only_zeros_and_ones(y):
            # the common case, shown in one pass: 0/1 labels, class 1 positive
            return y.astype(np.float64, copy=False) if as_float else y
        if y.dtype.kind == "f":
            _check_finite_labels(y, name)
        lo, hi = _min_max(y)
        if lo != hi:
            # two or more distinct values: all must be lo or hi
            if y.dtype.kind in "iu" and hi - lo == 1:
                pass  # integers in [lo, lo + 1] take only two values
            elif np.count_nonzero((y != lo) & (y != hi)):
                raise ValueError(too_many_classes(y, ref_name, label_rows, name))
        check_integral_labels(np.array([lo, hi], dtype=y.dtype), name)
        if pos_label is None:
            if lo in (-1, 0, 1) and hi in (-1, 0, 1) and not (lo == -1 and hi == 0):
                # {0,1}, {-1,1}, {0}, {1}, {-1} (scikit-learn's rule); the values
                # are known to be lo or hi, so {-1,0,1} was rejected above
                pos = 1
            else:
                pos = hi
        else:
            if isinstance(pos_label, str):
                raise ValueError(
                    f"pos_label={pos_label!r} is a string but {name} holds numbers "
                    f"({fmt(lo)}..{fmt(hi)})."
                )
            pos = pos_label
            if lo != hi and pos != lo and pos != hi:
                raise ValueError(
                    f"pos_label={pos_label!r} is not one of the labels in {name} "
                    f"({fmt(lo)}, {fmt(hi)})."
                )
        if pos == 1 and lo in (0, 1) and hi in (0, 1):
            # already 0/1: a cast (or nothing) instead of a comparison
            return y.astype(np.float64, copy=False) if as_float else y
        return (y == pos).astype(np.float64)

    # strings / objects: O(n) check that at most two distinct values occur
    first = y[0]
    other_mask = y != first
    others = y[other_mask]
    classes = [first]
    if others.shape[0]:
        second = others[0]
        if np.count_nonzero(others != second):
            raise ValueError(too_many_classes(y, ref_name, label_rows, name))
        classes.append(second)
    if pos_label is None:
        hint = ""
        if all(is_number_text(c) for c in classes):
            hint = (
                f" They are numbers written as text: convert {name} to numbers (e.g. "
                f"{name}.astype(int)), or name the event, e.g. "
                f"pos_label={str(max(classes, key=float))!r}."
            )
        raise ValueError(
            f"pos_label must be given when {name} holds string labels "
            f"({sorted(map(str, classes))}): it names the class whose probability "
            f"{ref_name} holds.{hint}"
        )
    if len(classes) == 2 and pos_label not in classes:
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the labels in {name} "
            f"{sorted(map(str, classes))}."
        )
    return (y == pos_label).astype(np.float64)


def _sorted_unique_labels(labels: Any) -> np.ndarray:
    lab = _target_array(labels, "labels")
    classes = np.unique(lab)
    if classes.shape[0] != lab.shape[0]:
        raise ValueError("labels contains duplicates.")
    if classes.shape[0] < 2:
        raise ValueError(f"labels must contain at least two labels, got {classes}.")
    if not np.array_equal(classes, lab):
        warnings.warn(
            f"labels={lab.tolist()} are not sorted. The columns of y_proba are taken "
            f"to follow the sorted labels {classes.tolist()} (as in scikit-learn).",
            UserWarning,
            stacklevel=4,
        )
    return classes


def encode_labels(
    y_true: Any, labels: Any = None, n: int | None = None, *, ref_name: str = "y_proba"
):
    """Integer-code labels against the sorted classes.

    Returns ``(codes, classes)`` where ``classes`` are the sorted labels
    (``labels`` if given, else the distinct values of ``y_true``) and
    ``codes[i]`` is the column of ``y_true[i]``.  Integer labels with a compact
    range are coded in O(n) with ``np.bincount``; other labels use
    ``np.unique``.  Labels coded by the public call in progress
    (:func:`~skbrier._core.arrays.validated`) are handed back unchecked.
    """
    hit = _arrays._encoded(y_true, labels, n)
    if hit is not None:
        return hit
    _arrays.checked("y_true")
    y = _target_array(y_true)
    if n is not None and y.shape[0] != n:
        raise ValueError(
            f"y_true has {y.shape[0]} samples but {ref_name} has {n}; "
            "all inputs must have the same number of samples."
        )
    if labels is not None:
        classes = _sorted_unique_labels(labels)
        if _is_string_kind(classes) != _is_string_kind(y) and y.dtype.kind != "O":
            raise ValueError(
                "labels and y_true must both be strings or both be numbers; got "
                f"labels of dtype {classes.dtype} and y_true of dtype {y.dtype}."
            )
        codes = np.searchsorted(classes, y)
        codes_c = np.minimum(codes, classes.shape[0] - 1)
        bad = classes[codes_c] != y
        if np.any(bad):
            unknown = np.unique(y[bad])[:10]
            raise ValueError(
                f"y_true contains labels {unknown.tolist()} that are not in labels "
                f"{classes.tolist()}."
            )
        return codes_c.astype(np.intp, copy=False), classes

    compact = _compact_integer_codes(y)
    if compact is not None:
        return compact
    classes, codes = np.unique(y, return_inverse=True)
    check_integral_labels(classes)
    return codes.reshape(-1).astype(np.intp, copy=False), classes


def _compact_integer_codes(y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(codes, sorted classes)`` of integer or boolean labels in O(n), or None.

    Labels spread over a range much larger than the sample (or not integers)
    give None: the caller sorts them (``np.unique``).
    """
    if y.dtype.kind not in "biu":
        return None
    yi = y.view(np.uint8) if y.dtype.kind == "b" else y
    lo = int(yi.min())
    hi = int(yi.max())
    span = hi - lo + 1
    if span > max(1024, 4 * y.shape[0]):
        return None
    shifted = (
        (yi - lo).astype(np.intp, copy=False) if lo else yi.astype(np.intp, copy=False)
    )
    present = np.bincount(shifted, minlength=span) > 0
    if present.all():
        codes = shifted
        classes = np.arange(lo, hi + 1, dtype=y.dtype if y.dtype.kind != "b" else np.int64)
    else:
        lookup = np.cumsum(present) - 1
        codes = lookup[shifted]
        classes = (np.flatnonzero(present) + lo).astype(
            y.dtype if y.dtype.kind != "b" else np.int64
        )
    if y.dtype.kind == "b":
        classes = classes.astype(bool)
    return codes, classes


def check_groups(
    groups: Any, n: int, *, name: str = "groups"
) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct groups (centres, subgroups) and each sample's code.

    ``groups`` is one label per sample (numbers or strings); missing labels
    (NaN, None) are refused, naming the first row that has one.  Labels
    coded by the caller (:func:`~skbrier._core.arrays.validated`,
    ``groups=``) are handed back without a second check.
    """
    coded = _arrays.coded_groups(groups, n)
    if coded is not None:
        return coded
    _arrays.checked(name)
    g = _target_array(groups, name, check_finite=False)
    if g.shape[0] != n:
        raise ValueError(
            f"{name} has {g.shape[0]} labels but there are {n} samples: give one per sample."
        )
    suspect = g.dtype.kind == "O" or (g.dtype.kind == "f" and bool(np.isnan(g).any()))
    missing = missing_problem(g, name) if suspect else None
    if missing is not None:
        raise ValueError(missing)
    compact = _compact_integer_codes(g)  # O(n) for integer labels
    if compact is not None:
        return compact[1], compact[0]
    try:
        classes, codes = np.unique(g, return_inverse=True)
    except TypeError:
        raise TypeError(
            f"{name} mixes labels that cannot be sorted together (e.g. numbers and "
            "strings): give labels of one type."
        ) from None
    return classes, codes.reshape(-1)
