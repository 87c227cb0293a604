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

import numbers
import sys
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, overload

import numpy as np

from . import arrays as _arrays
from .arrays import _numeric_objects, validated  # noqa: F401  (re-exported)
from .arrays import as_array as _as_array  # noqa: F401  (imported from here)
from .diagnose import (
    SWAP_HINT,
    column_names,
    fmt,
    label_counts,
    label_problem,
    missing_problem,
    non_numeric_problem,
    probability_problem,
)
from .fast_checks import (  # one-pass range checks (re-exported)
    _FUSED_BLOCK,
    _fused_range_and_row_sums,
    _min_max,
    _probabilities_shown_valid,
    _rows_sum_to_one,
)
from .format import format_outside
from .hard import warn_if_hard
from .labels import (  # noqa: F401  (re-exported: imported from here)
    _check_finite_labels,
    _is_one,
    _is_string_kind,
    _only_zeros_and_ones,
    _sorted_unique_labels,
    _target_array,
    binary_target,
    encode_labels,
)

__all__ = [
    "binary_target",
    "check_consistent_length",
    "check_probabilities",
    "check_reference",
    "check_sample_weight",
    "check_scalar_probability",
    "encode_labels",
    "scale_free_exponent",
    "scale_free_weights",
    "warn_if_rows_do_not_sum_to_one",
]


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
    if _arrays._trusted(y_proba) and (
        y_proba.ndim == 1 or (allow_2d and y_proba.ndim == 2 and y_proba.shape[1] > 1)
    ):
        return y_proba
    _arrays.checked(name)
    arr = _arrays.as_array(y_proba, name)
    if source is None:
        source = y_proba
    if arr.dtype.kind not in _arrays._NUMERIC_KINDS:
        missing = (
            missing_problem(arr, name, columns=column_names(source))
            if arr.dtype.kind == "O"
            else None
        )
        if missing is not None:
            raise ValueError(missing)
        raise TypeError(non_numeric_problem(source, arr, name))
    if arr.ndim == 0:
        raise ValueError(f"{name} must be a 1-D or 2-D array, got a scalar.")
    if arr.ndim > 2 or (arr.ndim == 2 and not allow_2d and arr.shape[1] != 1):
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
    value = scalar_of(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}.")
    v = float(value)
    if open_interval:
        if not (0.0 < v < 1.0):
            raise ValueError(
                f"{name} must lie strictly between 0 and 1, got {format_outside(v)}"
                + _percent_hint(v)
            )
    elif not (0.0 <= v <= 1.0):
        raise ValueError(
            f"{name} must lie in [0, 1], got {format_outside(v)}{_percent_hint(v)}"
        )
    return v


def check_consistent_length(n: int, *, ref_name: str = "y_proba", **arrays: Any) -> None:
    """Raise a ValueError naming the parameter whose first dimension is not ``n``
    (the length of ``ref_name``); None entries are skipped."""
    for name, arr in arrays.items():
        if arr is None:
            continue
        m = arr.shape[0]
        if m != n:
            raise ValueError(
                f"{name} has {m} samples but {ref_name} has {n}; "
                "all inputs must have the same number of samples."
            )


def _pandas_na() -> Any:
    """``pandas.NA`` where pandas is imported (a missing value of its arrays)."""
    pd = sys.modules.get("pandas")
    return getattr(pd, "NA", None) if pd is not None else None


def check_sample_weight(
    sample_weight: Any, n: int, *, ref_name: str = "y_proba"
) -> np.ndarray | None:
    """Validate sample weights: 1-D, length ``n``, finite, non-negative, positive sum."""
    if sample_weight is None:
        return None
    if (
        _arrays._trusted(sample_weight)
        and sample_weight.ndim == 1
        and sample_weight.shape[0] == n
    ):
        return sample_weight
    _arrays.checked("sample_weight")
    w = _arrays.as_array(sample_weight, "sample_weight")
    if w.dtype.kind not in _arrays._NUMERIC_KINDS:
        if w.dtype == object and w.ndim == 1:
            missing = np.array([x is None or x is _pandas_na() for x in w])
            if missing.any():
                raise ValueError(
                    f"sample_weight contains missing values (None or NA): "
                    f"{int(missing.sum())} of {w.shape[0]} weights (the first at index "
                    f"{int(np.argmax(missing))}); give every row a weight, or drop "
                    "the rows without one."
                )
        raise TypeError(f"sample_weight must be numeric; got dtype {w.dtype}.")
    if w.ndim == 0:
        raise ValueError("sample_weight must be a 1-D array, got a scalar.")
    if w.ndim != 1:
        raise ValueError(f"sample_weight must be a 1-D array, got shape {w.shape}.")
    check_consistent_length(n, ref_name=ref_name, sample_weight=w)
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
    with np.errstate(over="ignore"):  # finite weights may overflow their sum
        total = w.sum()
    if not np.isfinite(total):
        inf = np.isinf(w)
        if inf.any():
            raise ValueError(
                f"sample_weight contains infinity: {int(inf.sum())} of {n} weights "
                f"(the first at index {int(np.argmax(inf))})."
            )
        raise ValueError(
            f"sample_weight sums to more than {fmt(float(np.finfo(np.float64).max))}, "
            "the largest float: divide the weights by a constant (only their "
            "ratios matter for the scores)."
        )
    if total <= 0.0:
        raise ValueError("sample_weight sums to zero: at least one weight must be > 0.")
    return w


#: the smallest normal float64: below it a weight keeps fewer than 53 bits
_SMALLEST_NORMAL = float(np.finfo(np.float64).smallest_normal)
#: largest weights in [2**-500, 2**500) are not rescaled: products and sums of
#: them with numbers of ordinary size neither under- nor overflow
_ORDINARY = (2.0**-500, 2.0**500)


@overload
def scale_free_weights(w: np.ndarray) -> np.ndarray: ...
@overload
def scale_free_weights(w: None) -> None: ...
def scale_free_weights(w: np.ndarray | None) -> np.ndarray | None:
    """Weights for a scale-free statistic: rescaled by an exact power of two.

    A statistic that is a ratio of weighted sums depends on the weights'
    ratios only, but its arithmetic does not: subnormal weights (below
    2.225e-308) lose digits in every product ``w * x`` (weights of 5e-324
    round each product to a multiple of 5e-324), tiny totals times a share
    (a coverage, a threshold) underflow to 0, and huge ones overflow.  The
    weights are multiplied by the power of two :math:`2^e` that brings the
    largest into [0.5, 1) -- exact, as long as the smallest positive weight
    stays a normal float; weights of ratios beyond that (about 1e308) are
    returned as they are, so that no positive weight is rounded to 0 (or,
    with the largest beyond :math:`2^{500}`, shifted only below it where that
    keeps the smallest normal: no overflow), and so are weights of ordinary
    scale (the largest in
    :math:`[2^{-500}, 2^{500})`), whose sums are then bit for bit those of
    the weights as given.
    Statistics that count observations (where the total weight is the
    sample size) must not use this.

    Examples
    --------
    >>> import numpy as np
    >>> scale_free_weights(np.array([5e-324, 1e-323])).tolist()
    [0.25, 0.5]
    >>> scale_free_weights(np.ldexp([0.0, 3.0, 4.0], -1000)).tolist()
    [0.0, 0.375, 0.5]
    >>> scale_free_weights(np.array([0.0, 3.0, 4.0])).tolist()
    [0.0, 3.0, 4.0]
    >>> scale_free_weights(np.array([1e-300, 1e300])).tolist()
    [1e-300, 1e+300]
    """
    if w is None:
        return w
    e = scale_free_exponent(w)
    return w if e == 0 else np.ldexp(w, e)


def scale_free_exponent(w: np.ndarray, dtype: Any = np.float64) -> int:
    """The power of two :func:`scale_free_weights` multiplies ``w`` by (0: none),
    for sums of the weights (group totals) to be scaled alike.

    ``dtype``: the precision the weights are summed in.  float32 and float16
    (scikit-learn's native precision) have narrower ranges: their ordinary
    scale is the square root of theirs (``[2**-63, 2**64)`` in float32), and
    the shifted weights must stay normal floats of that precision.

    Examples
    --------
    >>> import numpy as np
    >>> scale_free_exponent(np.array([5e-324, 1e-323]))
    1072
    >>> scale_free_exponent(np.array([1.0, np.finfo(float).max]))
    -524
    """
    if w.shape[0] == 0:
        return 0
    ordinary, smallest = _ranges(dtype)
    top = float(w.max())
    if not top > 0.0 or ordinary[0] <= top < ordinary[1]:
        return 0  # weights of ordinary scale are used as given (bit for bit)
    e = -int(np.frexp(top)[1])
    low = float(np.min(w, where=w > 0.0, initial=top))
    if e == 0 or np.ldexp(low, e) < smallest:
        if top >= ordinary[1]:
            # huge weights of a wide range (1.8e308 beside 1): the least shift
            # that brings the largest below 2**500 (float64), where sums of
            # the weights times the kernels' terms cannot overflow, if it
            # keeps the smallest normal (exact)
            e = int(np.frexp(ordinary[1])[1]) - 1 - int(np.frexp(top)[1])
            if np.ldexp(low, e) >= smallest:
                return e
        return 0
    return e


def _ranges(dtype: Any) -> tuple[tuple[float, float], float]:
    """``(ordinary scale, smallest normal)`` of weights summed in ``dtype``."""
    if dtype == np.float64:
        return _ORDINARY, _SMALLEST_NORMAL
    fi = np.finfo(dtype)
    return (2.0 ** (fi.minexp // 2), 2.0 ** (fi.maxexp // 2)), float(fi.smallest_normal)


def warn_if_rows_do_not_sum_to_one(
    y_proba: np.ndarray,
    name: str = "y_proba",
    columns: Sequence[Any] | None = None,
    dtype: Any = np.float64,
) -> None:
    """Warn (as scikit-learn does) when the rows of a 2-D probability array do
    not sum to 1 (within ``sqrt(eps)`` of ``dtype``, the precision given)."""
    s = y_proba @ np.ones(y_proba.shape[1])  # BLAS: much faster than sum(axis=1)
    if not _rows_sum_to_one(s, dtype):
        _warn_rows(name, stacklevel=4, columns=columns)


def _warn_rows(name: str, stacklevel: int, columns: Sequence[Any] | None = None) -> None:
    """The warning of rows that do not sum to one (``columns``: a DataFrame's
    names, shown with the advice to pass only the probability column)."""
    hint = ""
    if columns is not None:
        hint = (
            f" {name} has columns {list(columns)[:20]!r}: for a binary forecast pass "
            f"only the probability column, e.g. {name}[{list(columns)[0]!r}]."
        )
    warnings.warn(
        f"The rows of {name} do not sum to one. Make sure to pass probabilities.{hint}",
        UserWarning,
        stacklevel=stacklevel,
    )


class ForecastFields:
    """The fields of a validated forecast, in any array namespace: ``y``,
    ``proba``, ``sample_weight``, ``classes``, ``binary_1d`` (the base of
    :class:`Forecast` and :class:`skbrier._core.array_api.XPForecast`)."""

    __slots__ = ("binary_1d", "classes", "proba", "sample_weight", "y")

    def __init__(self, y, proba, sample_weight, classes, binary_1d):
        self.y, self.proba, self.sample_weight = y, proba, sample_weight
        self.classes, self.binary_1d = classes, binary_1d

    @property
    def n_columns(self) -> int:
        return 1 if self.binary_1d else int(self.proba.shape[1])


class Forecast(ForecastFields):
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

    __slots__ = ("native_dtype",)

    def __init__(self, y, proba, sample_weight, classes, binary_1d, native_dtype=None):
        super().__init__(y, proba, sample_weight, classes, binary_1d)
        # float32/float16 input: the dtype scikit-learn computes the score in
        # (None for float64, the usual case); see check_forecast
        self.native_dtype = native_dtype

    def scale_free(self) -> Forecast:
        """This forecast with :func:`scale_free_weights` (for statistics that
        depend on the ratios of the weights only); returns ``self``.

        float32/float16 input keeps its weights: scikit-learn sums them in
        that precision, where their scale matters (``native_dtype``)."""
        if self.native_dtype is None:
            self.sample_weight = scale_free_weights(self.sample_weight)
        return self


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
    return raw_proba.dtype, _arrays.as_array(sample_weight, "sample_weight").dtype


def check_binary_labels(labels: Any, proba_name: str = "y_proba") -> None:
    """Refuse ``labels`` naming more than two classes for 1-D probabilities
    (those of one class).

    Examples
    --------
    >>> check_binary_labels(["no", "yes"])
    >>> check_binary_labels([0, 1, 2])
    Traceback (most recent call last):
    ...
    ValueError: labels names 3 classes but y_proba is 1-D (the probability of one class).
    """
    if labels is None:
        return
    k = np.unique(_target_array(labels, "labels")).shape[0]
    if k > 2:
        raise ValueError(
            f"labels names {k} classes but {proba_name} is 1-D (the probability "
            "of one class)."
        )


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
    visit_rows: Any = None,
    labels_name: str = "labels",
) -> Forecast:
    """Validate ``(y_true, y_proba, sample_weight)`` the way ``brier_score`` reads them.

    1-D ``y_proba`` (or one column) is the probability of ``pos_label``;
    2-D ``y_proba`` has one column per sorted class (``labels`` may name
    classes absent from ``y_true``).  With ``float_target=False`` binary 0/1
    integer labels are kept as integers (saves a copy on the fast path).
    With ``label_rows`` (a mergeable state's), ``y_true`` holds distinct
    labels and ``label_rows`` their numbers of rows over all chunks: the
    messages about the labels show those counts, sorted, and no positions.
    ``visit_rows(start, stop, block)``: a kernel's work on the blocks of rows
    of a large matrix while its one-pass check has them in cache (it may see
    only some blocks, or none: the caller checks).  ``labels_name``: the
    caller's name of ``labels`` in the messages (``partial_fit``'s ``classes``).
    """
    raw = _arrays.as_array(y_proba, proba_name)
    rows_ok = None
    trusted = _arrays._trusted(y_proba)  # checked and warned by the call in progress
    if (
        not trusted
        and raw.ndim == 2
        and raw.shape[1] > 1
        and raw.dtype == np.float64
        and raw.flags.c_contiguous
        and raw.size > _FUSED_BLOCK
    ):
        # large float64 matrix: range check and row sums in one pass over memory
        _arrays.checked(proba_name)
        shown, rows_ok = _fused_range_and_row_sums(raw, visit_rows)
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
        check_binary_labels(labels, proba_name)
        y = binary_target(
            y_true,
            pos_label,
            n,
            as_float=float_target,
            ref_name=proba_name,
            label_rows=label_rows,
        )
        w = check_sample_weight(sample_weight, n, ref_name=proba_name)
        if not _arrays._trusted(p):  # trusted: warned by the public call in progress
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
                        f"Pass {labels_name}= to name every class (the columns of "
                        f"{proba_name} follow the sorted labels)."
                    ),
                )
            )
        raise ValueError(
            f"{labels_name} names {classes.shape[0]} classes but {proba_name} has {k} columns."
        )
    if k == 1:  # pragma: no cover - flattened above
        raise ValueError(f"{proba_name} must have at least two columns.")
    check_column_order(column_names(y_proba), classes, proba_name)
    if trusted:
        pass
    elif rows_ok is None:
        warn_if_rows_do_not_sum_to_one(p, proba_name, column_names(y_proba), raw.dtype)
    elif not rows_ok:
        _warn_rows(proba_name, stacklevel=3, columns=column_names(y_proba))
    w = check_sample_weight(sample_weight, n, ref_name=proba_name)
    if not trusted:
        warn_if_hard(p, proba_name)
    return Forecast(codes, p, w, classes, False, native)


def check_column_order(
    names: list[Any] | None,
    classes: np.ndarray,
    name: str,
    *,
    read_as: str = "the sorted classes",
) -> None:
    """A DataFrame whose columns are named by the classes in another order than
    ``classes``, the order the columns are taken to follow (``read_as``: its
    words in the message): a ValueError (each column would be read as another
    class's probability)."""
    if names is None or len(names) != classes.shape[0]:
        return
    given, want = [str(c) for c in names], [str(c) for c in classes.tolist()]
    if given != want and sorted(given) == sorted(want):
        raise ValueError(
            f"{name}'s columns are named {given}, the classes in another order than "
            f"{read_as} {want} its columns are read as: reorder them, "
            f"e.g. {name}[{want}]."
        )


def binary_forecast(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    proba_name: str = "y_proba",
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validated binary ``(y01, p, w)``: the one home of the two-column pick.

    ``y_proba`` is 1-D (the probability of ``pos_label``) or has two columns
    (``predict_proba`` output, sorted classes): then the column of
    ``pos_label`` is used (default: the second, larger class).  ``y01`` is
    float64 0/1 and ``p`` contiguous float64.  ``proba_name``: the name of
    ``y_proba`` in messages.
    """
    fc = check_forecast(
        y_true,
        y_proba,
        sample_weight=sample_weight,
        pos_label=pos_label,
        proba_name=proba_name,
    )
    if fc.binary_1d:
        return fc.y, fc.proba, fc.sample_weight
    if fc.proba.shape[1] != 2:
        raise ValueError(
            f"{proba_name} must be 1-D (the probability of the positive class) or have "
            f"two columns (binary predict_proba output); got shape {fc.proba.shape}."
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
    first forecast), each forecast once (:func:`binary_forecast`); messages
    name the forecast as ``y_proba['name']``."""
    first, *rest = models
    y, p, w = binary_forecast(
        y_true,
        models[first],
        sample_weight=sample_weight,
        pos_label=pos_label,
        proba_name=f"y_proba[{first!r}]",
    )
    out = {first: p}
    with validated(y, w):  # the later forecasts read the validated outcomes
        for name in rest:
            out[name] = binary_forecast(
                y, models[name], sample_weight=w, proba_name=f"y_proba[{name!r}]"
            )[1]
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
    _percent_hint,
    check_confidence_level,
    check_n_jobs,
    check_n_resamples,
    scalar_of,
)

__all__ += ["check_confidence_level", "check_n_jobs", "check_n_resamples"]
