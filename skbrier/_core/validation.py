"""Shared input checks for every public function of skbrier.

Everything here validates once, at the public edge, and hands plain float64
numpy arrays to the maths modules, which do no validation of their own.

The fast path is O(n): probabilities are checked with one ``min`` and one
``max`` (NaN and inf fail those comparisons too), and binary labels are
recognised from their minimum and maximum without sorting.  Sorting
(``np.unique``) is used only for string or object labels and for integer
labels spread over a range much larger than the sample.

Every error is a ``ValueError`` or ``TypeError`` whose message starts with the
name of the offending parameter.
"""

from __future__ import annotations

import contextlib
import contextvars
import numbers
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .diagnose import (
    SWAP_HINT,
    column_names,
    fmt,
    is_number_text,
    label_counts,
    label_problem,
    missing_problem,
    non_numeric_problem,
    probability_problem,
    too_many_classes,
    warn_if_hard,
)
from .fast_checks import (  # one-pass range checks (re-exported)
    _FUSED_BLOCK,
    _MINMAX_CHUNK,
    _fused_range_and_row_sums,
    _min_max,
    _probabilities_shown_valid,
    _rows_sum_to_one,
)

__all__ = [
    "binary_target",
    "check_consistent_length",
    "check_probabilities",
    "check_reference",
    "check_sample_weight",
    "check_scalar_probability",
    "encode_labels",
    "warn_if_rows_do_not_sum_to_one",
]

_NUMERIC_KINDS = "biuf"

# --------------------------------------------------------------------------
# validate once: arrays this module returned are not checked again
# --------------------------------------------------------------------------

#: the arrays validated by the public call in progress (see :func:`validated`)
_TRUSTED: contextvars.ContextVar[tuple[np.ndarray, ...]] = contextvars.ContextVar(
    "skbrier_validated", default=()
)


@contextlib.contextmanager
def validated(*arrays: np.ndarray | None) -> Iterator[None]:
    """Within the block, ``arrays`` (the very objects, by identity) count as
    validated: the checks of this module hand them back unchanged, without
    checking them again or warning again.

    The one home of "validate once": a public function (or the CLI) checks
    its input once, then calls the functions of its sections on the arrays
    the checks returned inside ``with validated(y, p, w):``.  Only float64
    numpy arrays are trusted (what the checks return); anything derived
    from them (a subset, a copy) is a new object and is checked as usual.
    """
    new = tuple(a for a in arrays if isinstance(a, np.ndarray) and a.dtype == np.float64)
    token = _TRUSTED.set(_TRUSTED.get() + new)
    try:
        yield
    finally:
        _TRUSTED.reset(token)


def _trusted(x: Any) -> bool:
    """Whether ``x`` is one of the arrays of an enclosing :func:`validated`."""
    return any(x is a for a in _TRUSTED.get())


def _checked(what: str) -> None:
    """Called once for each input a check of this module actually reads
    (``what``: the parameter's name); the tests that count checks replace it."""


def _as_array(x: Any, name: str) -> np.ndarray:
    """Turn array-likes (lists, pandas objects, numpy arrays) into a numpy array."""
    if x is None:
        raise TypeError(f"{name} must be array-like, got None.")
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be array-like, got a single string {x!r}.")
    if isinstance(x, Mapping):
        raise TypeError(
            f"{name} must be array-like, got a dict with keys {list(x)[:5]!r}"
            + (
                " (several forecasts: score one at a time, or compare them with "
                "skbrier.compare_forecasts)."
                if "proba" in name
                else "."
            )
        )
    if hasattr(x, "to_numpy") and not isinstance(x, np.ndarray):
        # pandas Series/DataFrame, polars Series, ...
        x = x.to_numpy()
    try:
        arr = np.asarray(x)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"{name} could not be converted to an array: {exc}") from None
    if arr.dtype.kind == "O" and arr.ndim >= 1 and arr.size:
        # a list of lists of unequal length becomes a 1-D object array in numpy < 1.24
        first = arr.flat[0]
        if isinstance(first, (list, tuple, np.ndarray)):
            raise ValueError(f"{name} is ragged (rows of different lengths).")
        arr = _numeric_objects(arr)
    return arr


def _numeric_objects(arr: np.ndarray) -> np.ndarray:
    """An object array holding only real numbers as int64 or float64 (as sklearn reads it).

    All integers (bool excluded) become int64, other real numbers float64;
    arrays holding anything else (strings, None, pandas.NA) stay object and
    are judged by the caller.
    """
    vals = arr.ravel()
    if not all(
        isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in vals
    ):
        return arr
    if all(isinstance(v, numbers.Integral) for v in vals):
        try:
            return arr.astype(np.int64)
        except OverflowError:
            return arr
    return arr.astype(np.float64)


def check_probabilities(
    y_proba: Any,
    *,
    name: str = "y_proba",
    allow_2d: bool = True,
    warn_hard: bool = True,
    source: Any = None,
) -> np.ndarray:
    """Validate probabilities and return them as a float64 array.

    A column vector of shape (n, 1) is flattened to 1-D.  Raises ``TypeError``
    for non-numeric input and ``ValueError`` for empty input, more than two
    dimensions, NaN, infinity or values outside [0, 1], with a diagnosis of
    the usual mistakes (:func:`skbrier._core.diagnose.probability_problem`).  With
    ``warn_hard`` forecasts that are all exactly 0 or 1 give a
    :class:`~skbrier.exceptions.HardForecastWarning`.  ``source``: the input
    as the user gave it when ``y_proba`` is already an array made from it
    (its column names go into messages).
    """
    if _trusted(y_proba) and (
        y_proba.ndim == 1 or (allow_2d and y_proba.ndim == 2 and y_proba.shape[1] > 1)
    ):
        return y_proba
    _checked(name)
    arr = _as_array(y_proba, name)
    if source is None:
        source = y_proba
    if arr.dtype.kind not in _NUMERIC_KINDS:
        missing = missing_problem(arr, name) if arr.dtype.kind == "O" else None
        if missing is not None:
            raise ValueError(missing)
        raise TypeError(non_numeric_problem(source, arr, name))
    if arr.ndim == 0:
        raise ValueError(f"{name} must be a 1-D or 2-D array, got a scalar.")
    if arr.ndim > 2 or (arr.ndim == 2 and not allow_2d):
        expected = "1-D or 2-D" if allow_2d else "1-D"
        raise ValueError(f"{name} must be a {expected} array, got shape {arr.shape}.")
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.shape[0] == 0 or arr.size == 0:
        raise ValueError(f"{name} is empty: at least one sample is required.")
    if arr.dtype != np.float64:
        arr = arr.astype(np.float64)
    if not _probabilities_shown_valid(arr):  # fast path: one integer reduction
        lo, hi = _min_max(arr)
        # NaN makes both comparisons False; +-inf lies outside [0, 1].
        if not (lo >= 0.0 and hi <= 1.0):
            msg = probability_problem(arr, name, columns=column_names(source))
            raise ValueError(msg or f"{name} must hold probabilities in [0, 1].")
    if warn_hard:
        warn_if_hard(arr, name)
    return arr


def check_scalar_probability(
    value: Any, *, name: str, open_interval: bool = False
) -> float:
    """Validate one probability (a threshold, a base rate, a prevalence)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}.")
    v = float(value)
    if open_interval:
        if not (0.0 < v < 1.0):
            raise ValueError(f"{name} must lie strictly between 0 and 1, got {fmt(v)}.")
    elif not (0.0 <= v <= 1.0):
        raise ValueError(f"{name} must lie in [0, 1], got {fmt(v)}.")
    return v


def check_consistent_length(n: int, **arrays: Any) -> None:
    """Raise a ValueError naming the parameter whose first dimension is not ``n``."""
    for name, arr in arrays.items():
        if arr is None:
            continue
        m = arr.shape[0]
        if m != n:
            raise ValueError(
                f"{name} has {m} samples but y_proba has {n}; "
                "all inputs must have the same number of samples."
            )


def check_sample_weight(
    sample_weight: Any, n: int, *, ref_name: str = "y_proba"
) -> np.ndarray | None:
    """Validate sample weights: 1-D, length ``n``, finite, non-negative, positive sum."""
    if sample_weight is None:
        return None
    if _trusted(sample_weight) and sample_weight.ndim == 1 and sample_weight.shape[0] == n:
        return sample_weight
    _checked("sample_weight")
    w = _as_array(sample_weight, "sample_weight")
    if w.dtype.kind not in _NUMERIC_KINDS:
        raise TypeError(f"sample_weight must be numeric; got dtype {w.dtype}.")
    if w.ndim == 0:
        raise ValueError("sample_weight must be a 1-D array, got a scalar.")
    if w.ndim != 1:
        raise ValueError(f"sample_weight must be a 1-D array, got shape {w.shape}.")
    if w.shape[0] != n:
        raise ValueError(
            f"sample_weight has {w.shape[0]} samples but {ref_name} has {n}; "
            "all inputs must have the same number of samples."
        )
    w = w.astype(np.float64, copy=False)
    lo = w.min()
    if not (lo >= 0.0):
        nan = np.isnan(w)
        if nan.any():
            raise ValueError(
                f"sample_weight contains NaN: {int(nan.sum())} of {n} weights (the "
                f"first at index {int(np.argmax(nan))})."
            )
        neg = w < 0.0
        raise ValueError(
            f"sample_weight must be non-negative; found {fmt(float(lo))} "
            f"({int(neg.sum())} of {n} weights are negative, the first at index "
            f"{int(np.argmax(neg))})."
        )
    total = w.sum()
    if not np.isfinite(total):
        inf = np.isinf(w)
        if inf.any():
            raise ValueError(
                f"sample_weight contains infinity: {int(inf.sum())} of {n} weights "
                f"(the first at index {int(np.argmax(inf))})."
            )
        raise ValueError(
            "sample_weight sums to infinity: rescale the weights (only their ratios "
            "matter for the scores)."
        )
    if total <= 0.0:
        raise ValueError("sample_weight sums to zero: at least one weight must be > 0.")
    return w


def _target_array(
    y_true: Any, name: str = "y_true", *, check_finite: bool = True
) -> np.ndarray:
    y = _as_array(y_true, name)
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
            if v is None:
                raise ValueError(missing_problem(y, name, "labels") or f"{name}: None.")
            if isinstance(v, str):
                has_str = True
            elif isinstance(v, numbers.Number):
                if v != v:  # NaN
                    raise ValueError(f"{name} contains NaN.")
                has_num = True
            if has_str and has_num:
                raise TypeError(f"{name} mixes strings and numbers; use one type of label.")
    return y


def _check_finite_labels(y: np.ndarray, name: str) -> None:
    if not np.isfinite(y).all():
        bad = ~np.isfinite(y)
        what = "NaN" if np.isnan(y).any() else "infinity"
        raise ValueError(
            f"{name} contains {what}: {int(bad.sum())} of {y.shape[0]} labels are not "
            f"finite (the first at index {int(np.argmax(bad))}). Drop those rows "
            "(from every input) first."
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
) -> np.ndarray:
    """Encode binary labels as a float64 0/1 vector in O(n).

    ``label_rows``: ``y_true`` holds the distinct labels a mergeable state
    counted over its chunks, ``label_rows[i]`` rows of ``y_true[i]``; the
    message of too many classes then shows those counts, sorted, and no
    positions (:func:`skbrier._core.diagnose.label_counts`).

    With ``as_float=False`` integer or boolean labels that are already 0/1
    (with ``pos_label`` 1) are returned as an integer array without a copy.

    ``pos_label=None`` follows scikit-learn: labels in {0, 1} or {-1, 1} (or a
    subset) give 1; other numeric labels give the larger label; string labels
    need ``pos_label``.  More than two distinct labels raise ``ValueError``, as
    does a ``pos_label`` that is not one of two labels present.
    """
    if (
        _trusted(y_true)
        and y_true.ndim == 1
        and (n is None or y_true.shape[0] == n)
        and (pos_label is None or _is_one(pos_label))
    ):
        return y_true  # float64 0/1, validated by the public call in progress
    _checked("y_true")
    y = _target_array(y_true, check_finite=False)
    if n is not None and y.shape[0] != n:
        raise ValueError(
            f"y_true has {y.shape[0]} samples but {ref_name} has {n}; "
            "all inputs must have the same number of samples."
        )
    if y.dtype.kind in "biuf":
        if y.dtype.kind == "b":
            y = y.view(np.uint8)
        if (pos_label is None or _is_one(pos_label)) and _only_zeros_and_ones(y):
            # the common case, shown in one pass: 0/1 labels, class 1 positive
            return y.astype(np.float64, copy=False) if as_float else y
        if y.dtype.kind == "f":
            _check_finite_labels(y, "y_true")
        lo, hi = _min_max(y)
        if lo != hi:
            # two or more distinct values: all must be lo or hi
            if y.dtype.kind in "iu" and hi - lo == 1:
                pass  # integers in [lo, lo + 1] take only two values
            elif np.count_nonzero((y != lo) & (y != hi)):
                raise ValueError(too_many_classes(y, ref_name, label_rows))
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
                    f"pos_label={pos_label!r} is a string but y_true holds numbers "
                    f"({fmt(lo)}..{fmt(hi)})."
                )
            pos = pos_label
            if lo != hi and pos != lo and pos != hi:
                raise ValueError(
                    f"pos_label={pos_label!r} is not one of the labels in y_true "
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
            raise ValueError(too_many_classes(y, ref_name, label_rows))
        classes.append(second)
    if pos_label is None:
        hint = ""
        if all(is_number_text(c) for c in classes):
            hint = (
                " They are numbers written as text: convert y_true to numbers (e.g. "
                "y_true.astype(int)), or name the event, e.g. "
                f"pos_label={str(max(classes, key=float))!r}."
            )
        raise ValueError(
            "pos_label must be given when y_true holds string labels "
            f"({sorted(map(str, classes))}): it names the class whose probability "
            f"y_proba holds.{hint}"
        )
    if len(classes) == 2 and pos_label not in classes:
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the labels in y_true "
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
    ``np.unique``.
    """
    _checked("y_true")
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

    if y.dtype.kind in "biu":
        yi = y.view(np.uint8) if y.dtype.kind == "b" else y
        lo = int(yi.min())
        hi = int(yi.max())
        span = hi - lo + 1
        if span <= max(1024, 4 * y.shape[0]):
            shifted = (
                (yi - lo).astype(np.intp, copy=False)
                if lo
                else yi.astype(np.intp, copy=False)
            )
            present = np.bincount(shifted, minlength=span) > 0
            if present.all():
                codes = shifted
                classes = np.arange(
                    lo, hi + 1, dtype=y.dtype if y.dtype.kind != "b" else np.int64
                )
            else:
                lookup = np.cumsum(present) - 1
                codes = lookup[shifted]
                classes = (np.flatnonzero(present) + lo).astype(
                    y.dtype if y.dtype.kind != "b" else np.int64
                )
            if y.dtype.kind == "b":
                classes = classes.astype(bool)
            return codes, classes
    classes, codes = np.unique(y, return_inverse=True)
    return codes.reshape(-1).astype(np.intp, copy=False), classes


def warn_if_rows_do_not_sum_to_one(y_proba: np.ndarray, name: str = "y_proba") -> None:
    """Warn (as scikit-learn does) when the rows of a 2-D probability array do not sum to 1."""
    s = y_proba @ np.ones(y_proba.shape[1])  # BLAS: much faster than sum(axis=1)
    if not _rows_sum_to_one(s):
        _warn_rows(name, stacklevel=4)


def _warn_rows(name: str, stacklevel: int) -> None:
    warnings.warn(
        f"The rows of {name} do not sum to one. Make sure to pass probabilities.",
        UserWarning,
        stacklevel=stacklevel,
    )


class Forecast:
    """Validated forecast: what the maths modules receive.

    Attributes
    ----------
    y : ndarray
        Binary case: float64 0/1 outcomes of shape (n,).  Multiclass case:
        integer class codes of shape (n,) indexing the columns of ``proba``.
    proba : ndarray
        float64, shape (n,) (binary) or (n, K).
    sample_weight : ndarray or None
    classes : ndarray or None
        Sorted class labels of the columns (multiclass and 2-column input).
    binary_1d : bool
        True when ``proba`` is the 1-D probability of the positive class.
    native_dtype : tuple of dtypes or None
        For float32/float16 probabilities, ``(their dtype, dtype of the
        weights as given or None)``: scikit-learn computes the score in that
        precision.  None for every other input.
    """

    __slots__ = ("binary_1d", "classes", "native_dtype", "proba", "sample_weight", "y")

    def __init__(self, y, proba, sample_weight, classes, binary_1d, native_dtype=None):
        self.y = y
        self.proba = proba
        self.sample_weight = sample_weight
        self.classes = classes
        self.binary_1d = binary_1d
        # float32/float16 input: the dtype scikit-learn computes the score in
        # (None for float64, the usual case); see check_forecast
        self.native_dtype = native_dtype

    @property
    def n_columns(self) -> int:
        return 1 if self.binary_1d else self.proba.shape[1]


def _native_dtype(raw_proba: np.ndarray, sample_weight: Any):
    """The (dtype of probabilities, dtype of weights) scikit-learn computes in, or None.

    ``brier_score_loss`` keeps float32 and float16 probabilities in their own
    precision (everything else becomes float64); numpy then combines them
    with the dtype of the weights as given.
    """
    if raw_proba.dtype not in (np.float32, np.float16):
        return None
    if sample_weight is None:
        return raw_proba.dtype, None
    return raw_proba.dtype, _as_array(sample_weight, "sample_weight").dtype


def check_forecast(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    proba_name: str = "y_proba",
    float_target: bool = True,
    label_rows: Sequence[int] | None = None,
) -> Forecast:
    """Validate ``(y_true, y_proba, sample_weight)`` the way ``brier_score`` reads them.

    1-D ``y_proba`` (or one column) is the probability of ``pos_label``;
    2-D ``y_proba`` has one column per sorted class (``labels`` may name
    classes absent from ``y_true``).  With ``float_target=False`` binary 0/1
    integer labels are kept as integers (saves a copy on the fast path).
    With ``label_rows`` (a mergeable state's), ``y_true`` holds distinct
    labels and ``label_rows`` their numbers of rows over all chunks: the
    messages about the labels show those counts, sorted, and no positions.
    """
    raw = _as_array(y_proba, proba_name)
    rows_ok = None
    if (
        raw.ndim == 2
        and raw.shape[1] > 1
        and raw.dtype == np.float64
        and raw.flags.c_contiguous
        and raw.size > _FUSED_BLOCK
    ):
        # large float64 matrix: range check and row sums in one pass over memory
        _checked(proba_name)
        shown, rows_ok = _fused_range_and_row_sums(raw)
        if not shown:  # NaN, out of range or -0.0: the exact path decides
            rows_ok = None
        p = (
            raw
            if shown
            else check_probabilities(raw, name=proba_name, warn_hard=False, source=y_proba)
        )
    else:
        p = check_probabilities(raw, name=proba_name, warn_hard=False, source=y_proba)
    n = p.shape[0]
    native = _native_dtype(raw, sample_weight)
    if p.ndim == 1:
        if labels is not None:
            lab = _target_array(labels, "labels")
            if np.unique(lab).shape[0] > 2:
                raise ValueError(
                    f"labels names {np.unique(lab).shape[0]} classes but {proba_name} "
                    "is 1-D (the probability of one class)."
                )
        y = binary_target(
            y_true,
            pos_label,
            n,
            as_float=float_target,
            ref_name=proba_name,
            label_rows=label_rows,
        )
        w = check_sample_weight(sample_weight, n, ref_name=proba_name)
        if not _trusted(p):  # trusted: warned by the public call in progress
            warn_if_hard(p, proba_name)
        return Forecast(y, p, w, None, True, native)

    codes, classes = encode_labels(y_true, labels, n, ref_name=proba_name)
    k = p.shape[1]
    if classes.shape[0] != k:
        if labels is None:
            raise ValueError(
                label_problem(
                    f"y_true has {classes.shape[0]} classes but {proba_name} has {k} "
                    "columns",
                    *label_counts(_target_array(y_true), label_rows),
                    where=lambda i: f"index {i}",
                    swap_hint=SWAP_HINT.replace("y_proba", proba_name),
                    multiclass_hint=(
                        "Pass labels= to name every class (the columns of "
                        f"{proba_name} follow the sorted labels)."
                    ),
                )
            )
        raise ValueError(
            f"labels names {classes.shape[0]} classes but {proba_name} has {k} columns."
        )
    if k == 1:  # pragma: no cover - flattened above
        raise ValueError(f"{proba_name} must have at least two columns.")
    if rows_ok is None:
        warn_if_rows_do_not_sum_to_one(p, proba_name)
    elif not rows_ok:
        _warn_rows(proba_name, stacklevel=3)
    w = check_sample_weight(sample_weight, n, ref_name=proba_name)
    warn_if_hard(p, proba_name)
    return Forecast(codes, p, w, classes, False, native)


def binary_forecast(
    y_true: Any, y_proba: Any, *, sample_weight: Any = None, pos_label: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validated binary ``(y01, p, w)``: the one home of the two-column pick.

    ``y_proba`` is 1-D (the probability of ``pos_label``) or has two columns
    (``predict_proba`` output, sorted classes): then the column of
    ``pos_label`` is used (default: the second, larger class).  ``y01`` is
    float64 0/1 and ``p`` contiguous float64.
    """
    fc = check_forecast(y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label)
    if fc.binary_1d:
        return fc.y, fc.proba, fc.sample_weight
    if fc.proba.shape[1] != 2:
        raise ValueError(
            "y_proba must be 1-D (the probability of the positive class) or have two "
            f"columns (binary predict_proba output); got shape {fc.proba.shape}."
        )
    classes = list(fc.classes)
    if pos_label is None:
        idx = 1
    elif pos_label in classes:
        idx = classes.index(pos_label)
    else:
        raise ValueError(f"pos_label={pos_label!r} is not one of the classes {classes}.")
    y01 = (fc.y == idx).astype(np.float64)
    return y01, np.ascontiguousarray(fc.proba[:, idx]), fc.sample_weight


def binary_forecasts(
    y_true: Any,
    models: Mapping[str, Any],
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray | None]:
    """Validated ``(y01, {name: p}, w)`` of several 1-D forecasts of the same
    outcomes: ``y_true`` and ``sample_weight`` are checked once (with the
    first forecast), each forecast once (:func:`binary_forecast`)."""
    first, *rest = models
    y, p, w = binary_forecast(
        y_true, models[first], sample_weight=sample_weight, pos_label=pos_label
    )
    out = {first: p}
    with validated(y, w):  # the later forecasts read the validated outcomes
        for name in rest:
            out[name] = binary_forecast(y, models[name], sample_weight=w)[1]
    return y, out, w


def check_reference(reference: Any, fc: Forecast) -> float | np.ndarray | None:
    """Validate the ``reference`` of a skill score against the forecast ``fc``.

    None (climatology) stays None; a scalar is a binary base rate in [0, 1]
    (refused for three or more columns); anything else is an array of
    reference forecasts of the shape of ``fc.proba``, returned as float64.
    """
    if reference is None:
        return None
    if np.ndim(reference) == 0 and not isinstance(reference, (str, bytes)):
        if not fc.binary_1d and fc.proba.shape[1] > 2:
            raise ValueError(
                "reference must be None or an array of reference forecasts for "
                "multiclass y_proba; a single float is a binary base rate."
            )
        return check_scalar_probability(reference, name="reference")
    ref = check_probabilities(reference, name="reference")
    if ref.shape != fc.proba.shape:
        raise ValueError(
            f"reference has shape {ref.shape} but y_proba has shape {fc.proba.shape}; "
            "reference forecasts must have the same shape as y_proba."
        )
    return ref


# Option checks live in ``_params``; re-exported here for older call sites.
from .params import (  # noqa: E402
    check_confidence_level,
    check_n_jobs,
    check_n_resamples,
)

__all__ += ["check_confidence_level", "check_n_jobs", "check_n_resamples"]
