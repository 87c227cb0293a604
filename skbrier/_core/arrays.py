"""Inputs as numpy arrays, and which arrays are already validated.

:func:`validated` is the one home of "validate once": a public function checks
its input once, then runs its sections on the checked arrays inside
``with validated(y, p, w):``, and the checks of :mod:`.validation` and
:mod:`.labels` hand those very objects back without checking them again.
:func:`checked` is called once for each input a check actually reads (the
tests that count checks replace it).
"""

from __future__ import annotations

import contextlib
import contextvars
import numbers
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["as_array", "checked", "coded_groups", "to_numpy", "validated"]

_NUMERIC_KINDS = "biuf"

# --------------------------------------------------------------------------
# validate once: arrays this module returned are not checked again
# --------------------------------------------------------------------------

#: the arrays validated by the public call in progress (see :func:`validated`)
_TRUSTED: contextvars.ContextVar[tuple[np.ndarray, ...]] = contextvars.ContextVar(
    "skbrier_validated", default=()
)


#: labels encoded by the public call in progress: ``(y, codes, classes)``
_ENCODED: contextvars.ContextVar[tuple[tuple[Any, np.ndarray, np.ndarray], ...]] = (
    contextvars.ContextVar("skbrier_encoded", default=())
)


#: group labels coded by the caller: ``(groups, classes, codes)``
_GROUPS: contextvars.ContextVar[tuple[tuple[Any, np.ndarray, np.ndarray], ...]] = (
    contextvars.ContextVar("skbrier_groups", default=())
)


@contextlib.contextmanager
def validated(
    *arrays: np.ndarray | None,
    labels: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    groups: Sequence[tuple[Any, np.ndarray, np.ndarray]] = (),
) -> Iterator[None]:
    """Within the block, ``arrays`` (the very objects, by identity) count as
    validated: the checks of this module hand them back unchanged, without
    checking them again or warning again.

    The one home of "validate once": a public function (or the CLI) checks
    its input once, then calls the functions of its sections on the arrays
    the checks returned inside ``with validated(y, p, w):``.  Only float64
    numpy arrays are trusted (what the checks return); anything derived
    from them (a subset, a copy) is a new object and is checked as usual.
    ``labels=(y, codes, classes)``: the labels ``y`` (a numpy array of any
    dtype) have been checked and coded as ``codes`` against the sorted
    ``classes`` (what :func:`~skbrier._core.labels.encode_labels` returns);
    coding that very ``y`` against the same classes hands them back.
    ``groups``: ``(g, classes, codes)`` of group labels ``g`` checked and
    coded by :func:`~skbrier._core.labels.check_groups`; checking that very
    ``g`` again hands them back.
    """
    new = tuple(a for a in arrays if isinstance(a, np.ndarray) and a.dtype == np.float64)
    token = _TRUSTED.set(_TRUSTED.get() + new)
    enc = _ENCODED.get() + (() if labels is None else (labels,))
    token_enc = _ENCODED.set(enc)
    token_groups = _GROUPS.set(_GROUPS.get() + tuple(groups))
    try:
        yield
    finally:
        _GROUPS.reset(token_groups)
        _ENCODED.reset(token_enc)
        _TRUSTED.reset(token)


def coded_groups(g: Any, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(classes, codes)`` of group labels ``g`` (that very object, ``n``
    of them) coded by an enclosing :func:`validated` (``groups=``), or None."""
    for g0, classes, codes in _GROUPS.get():
        if g is g0 and codes.shape[0] == n:
            return classes, codes
    return None


def _trusted(x: Any) -> bool:
    """Whether ``x`` is one of the arrays of an enclosing :func:`validated`."""
    return any(x is a for a in _TRUSTED.get())


def _encoded(y: Any, labels: Any, n: int | None) -> tuple[np.ndarray, np.ndarray] | None:
    """``(codes, classes)`` of labels ``y`` coded against ``labels`` by an
    enclosing :func:`validated` (``labels=``), or None."""
    if labels is None:
        return None
    for y0, codes, classes in _ENCODED.get():
        if (
            y is y0
            and (n is None or codes.shape[0] == n)
            and (labels is classes or np.array_equal(np.asarray(labels), classes))
        ):
            return codes, classes
    return None


def checked(what: str) -> None:
    """Called once for each input a check of this module actually reads
    (``what``: the parameter's name); the tests that count checks replace it."""


def as_array(x: Any, name: str) -> np.ndarray:
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
        x = x.to_numpy(**_float_frame(x))
    try:
        arr = np.asarray(x)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"{name} could not be converted to an array: {exc}") from None
    except (TypeError, RuntimeError):
        # a device array numpy cannot read (a CUDA tensor, a tensor that
        # requires grad) where no backend adapter takes it, e.g. a state's
        # chunk: its host copy
        if not hasattr(x, "__dlpack__"):
            raise
        arr = np.asarray(to_numpy(x))
    if arr.dtype.kind == "O" and arr.ndim >= 1 and arr.size:
        # a list of lists of unequal length becomes a 1-D object array in numpy < 1.24
        first = arr.flat[0]
        if isinstance(first, (list, tuple, np.ndarray)):
            raise ValueError(f"{name} is ragged (rows of different lengths).")
        arr = _numeric_objects(arr)
    return arr


def _float_frame(x: Any) -> dict[str, Any]:
    """The ``to_numpy`` options of a pandas DataFrame of nullable float
    columns (``"Float32"``, ``"float32[pyarrow]"``): their own float dtype,
    NA as NaN.  Without them the frame became an object array read as
    float64, and float32 rows were checked at float64's tolerance."""
    dtypes = getattr(x, "dtypes", None)
    if dtypes is None or not hasattr(dtypes, "__iter__") or isinstance(dtypes, np.dtype):
        return {}
    kinds = [getattr(d, "numpy_dtype", d) for d in dtypes]
    if not kinds or not all(isinstance(k, np.dtype) and k.kind == "f" for k in kinds):
        return {}
    return {"dtype": np.result_type(*kinds), "na_value": np.nan}


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


def _compat() -> Any:
    """The array-api-compat module (the package, or scikit-learn's vendored copy)."""
    import importlib

    try:
        return importlib.import_module("array_api_compat")
    except ImportError:  # scikit-learn >= 1.6 vendors it
        return importlib.import_module("sklearn.externals.array_api_compat")


def to_numpy(x: Any) -> Any:
    """A host numpy copy (or view) of an array of any namespace (DLPack first).

    Scalars, sequences and numpy arrays pass through ``np.asarray``.
    """
    if x is None or isinstance(x, np.ndarray):
        return x
    if not hasattr(x, "__dlpack__") and not hasattr(x, "__array_namespace__"):
        return x
    x = _detached(x)
    try:
        return np.from_dlpack(x)
    except Exception:  # another device (GPU, a simulated device): move to the CPU
        pass
    compat = _compat()
    if hasattr(x, "get"):  # CuPy
        return x.get()
    for dev in ("cpu", getattr(compat.array_namespace(x), "CPU_DEVICE", None)):
        if dev is None:
            continue
        try:
            return np.from_dlpack(compat.to_device(x, dev))
        except Exception:
            continue
    return np.asarray(x)


def _detached(x: Any) -> Any:
    """``x`` without its autograd graph (a PyTorch tensor that requires grad:
    the statistics need no gradient, DLPack exports no such tensor and
    reading one as a float warns)."""
    return x.detach() if getattr(x, "requires_grad", False) else x
