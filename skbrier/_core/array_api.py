"""Array API support: validated forecasts in the input's namespace and device.

The statistics themselves are the kernels of :mod:`skbrier._core.kernels`
(``*_reduce`` and ``*_finish``), the same functions the numpy path calls;
this module only validates and moves inputs.

scikit-learn's switch decides: with ``sklearn.set_config(array_api_dispatch=True)``
(or inside ``sklearn.config_context(array_api_dispatch=True)``), the core
metrics compute on PyTorch, CuPy, JAX, array-api-strict ... arrays in their
own namespace and on their own device, following ``y_proba`` (as
scikit-learn's ``get_namespace_and_device`` does: ``y_true`` and
``sample_weight`` are moved to ``y_proba``'s namespace and device).  Only
small summaries (sums, per-bin or per-threshold totals) come back to the
host, where the same host formulas as for numpy input finish the job.

Numpy input never gets here: :func:`array_api_forecast` returns None after
one ``type()`` test, so the numpy fast paths are untouched.

Validation is done in the input namespace with a handful of reductions (no
per-element host round trips).  When any check fails the inputs are copied
to the host and the numpy validation runs, so bad input raises exactly the
same error, with the same message, as numpy input does.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..exceptions import HardForecastWarning
from .arrays import _compat, _detached, to_numpy
from .fast_checks import _row_sum_rtol
from .hard import warn_if_hard
from .validation import ForecastFields

__all__ = [
    "XPForecast",
    "array_api_forecast",
    "array_api_choices",
    "array_api_reference",
    "binary_columns",
    "dispatch_namespace",
    "exact_cuts",
    "index_dtype",
    "searchsorted",
    "is_numpy",
    "to_numpy",
    "wide_float",
]


def _row_tolerance(xp: Any, a: Any) -> float:
    """The host's tolerance of row sums of probabilities ``a`` (sqrt(eps) of
    their precision: float32 rows sum to one to float32 rounding)."""
    is_float = not hasattr(xp, "isdtype") or xp.isdtype(a.dtype, "real floating")
    eps = float(xp.finfo(a.dtype).eps) if is_float else float(np.finfo(np.float64).eps)
    return _row_sum_rtol(eps)


def dispatch_namespace(y_proba: Any) -> tuple[Any, Any] | None:
    """``(xp, device)`` of ``y_proba`` when Array API dispatch applies, else None.

    None for numpy arrays, Python sequences and scalars (the numpy path), and
    whenever scikit-learn's ``array_api_dispatch`` is off.
    """
    t = type(y_proba)
    if t is np.ndarray or t is list or t is tuple:
        return None
    if not (hasattr(y_proba, "__array_namespace__") or hasattr(y_proba, "__dlpack__")):
        return None
    from sklearn import get_config

    if not get_config().get("array_api_dispatch", False):
        return None
    compat = _compat()
    try:
        xp = compat.array_namespace(y_proba)
    except TypeError:
        return None
    if compat.is_numpy_namespace(xp):
        return None
    return xp, compat.device(y_proba)


def is_numpy(xp: Any) -> bool:
    """Whether the namespace ``xp`` computes on numpy arrays (``numpy`` itself
    or array-api-compat's wrapper): the kernels' fast numpy branches apply."""
    if xp is np:
        return True
    # not jax.numpy, whose arrays live on their device
    return getattr(xp, "__name__", "") in (
        "array_api_compat.numpy",
        "sklearn.externals.array_api_compat.numpy",
    )


def wide_float(xp: Any, device: Any) -> Any:
    """float64 where the device has it, else float32 (e.g. Apple MPS, or JAX
    without ``jax_enable_x64``, which warns and makes float32 arrays of a
    float64 request: its warnings leaked and its edges were rounded)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            z = xp.zeros(1, dtype=xp.float64, device=device)
    except Exception:  # devices without float64
        return xp.float32
    return xp.float64 if z.dtype == xp.float64 else xp.float32


def index_dtype(xp: Any, device: Any) -> Any:
    """The device's integer dtype of indices and class codes: int64, or int32
    where the device has no 64-bit integers (JAX without ``jax_enable_x64``,
    whose int64 requests warned and gave int32; array-api-strict's ``no_x64``
    device refused them: ValueError)."""
    try:
        info = xp.__array_namespace_info__()
        return info.default_dtypes(device=device)["indexing"]
    except Exception:  # pragma: no cover - a namespace without the inspection API
        return xp.int64


def searchsorted(xp: Any, sorted_values: Any, x: Any, *, side: str = "left") -> Any:
    """``xp.searchsorted(sorted_values, x, side=side)`` without PyTorch's
    warning of a non-contiguous ``x`` (a column of a probability matrix, a
    strided view), which it copies itself: the warning leaked to the user.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier._core.array_api import searchsorted
    >>> searchsorted(np, np.array([0.5]), np.array([0.2, 0.5, 0.7])).tolist()
    [0, 0, 1]
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*non-contiguous", UserWarning)
        return xp.searchsorted(sorted_values, x, side=side)


def exact_cuts(xp: Any, values: np.ndarray, device: Any, *, up: bool) -> Any:
    """Host cut points (bin edges, thresholds) as an ``xp`` array in
    :func:`wide_float` that order the forecasts as the float64 values do.

    On a device without float64 (Apple's MPS) the float32 forecasts are
    compared with float32 cuts, rounded in the direction that keeps every
    comparison exact: ``up`` (the smallest float32 >= the value) for the tests
    ``p >= value`` (``searchsorted(side="right")``), else down (the largest
    float32 <= the value) for ``p > value`` (``side="left"``).  Rounded to
    nearest, the float32 0.7 (0.69999999) counted the forecast 0.7f as
    ``>= 0.7`` and 0.3 put 0.3f (0.30000001) in the bin below the edge 0.3.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier._core.array_api import exact_cuts
    >>> exact_cuts(np, np.array([0.7]), "cpu", up=True)  # float64: as given
    array([0.7])
    """
    values = np.asarray(values, dtype=np.float64)
    dt = wide_float(xp, device)
    if dt != xp.float64:
        cuts = values.astype(np.float32)
        wide = cuts.astype(np.float64)
        off = wide < values if up else wide > values
        toward = np.float32(np.inf if up else -np.inf)
        cuts[off] = np.nextafter(cuts[off], toward)
        values = cuts
    return xp.asarray(values, dtype=dt, device=device)


def _float_dtype(xp: Any, x: Any, device: Any) -> Any:
    """The floating dtype computations run in: the input's float32 or float64,
    else :func:`wide_float` (integers, and half precision, whose sums overflow
    at 65504: float16 tensors of 300,000 rows gave a Brier score of inf)."""
    if x.dtype == xp.float64 or x.dtype == xp.float32:
        return x.dtype
    return wide_float(xp, device)


class XPForecast(ForecastFields):
    """A validated forecast in an Array API namespace (the counterpart of
    :class:`skbrier._core.validation.Forecast`).

    ``y``: 0/1 outcomes in the compute dtype (binary 1-D) or integer class
    codes (2-D ``proba``); ``proba``; ``sample_weight`` (or None) in the
    compute dtype; ``classes`` (host numpy, 2-D case); ``binary_1d``; ``xp``
    and ``device``.
    """

    __slots__ = ("device", "xp")

    def __init__(self, xp, device, y, proba, sample_weight, classes, binary_1d):
        super().__init__(y, proba, sample_weight, classes, binary_1d)
        self.xp = xp
        self.device = device

    def total_weight(self) -> float:
        if self.sample_weight is None:
            return float(self.proba.shape[0])
        return float(self.xp.sum(self.sample_weight))


def _weight_dtype(xp: Any, device: Any) -> Any:
    """The dtype weights are summed in: :func:`wide_float`, as the host sums
    them in float64 (cast to float32 forecasts' dtype, weights of 1e200 were
    inf, and float32 weights of 1e37 summed to inf: NaN scores)."""
    return wide_float(xp, device)


def _in_namespace(x: Any, xp: Any) -> bool:
    """Whether ``x`` is an array of the namespace ``xp``."""
    try:
        return _compat().array_namespace(x) is xp
    except TypeError:
        return False


def _move(x: Any, xp: Any, device: Any) -> Any:
    """``x`` as an array of namespace ``xp`` on ``device`` (host data is copied there)."""
    compat = _compat()
    if _in_namespace(x, xp):
        x = _detached(x)
        if compat.device(x) != device:
            x = compat.to_device(x, device)
        return x
    return _on_device(to_numpy(x), xp, device)


def _on_device(host: Any, xp: Any, device: Any) -> Any:
    """Host data as an ``xp`` array on ``device``; float64 as float32 where the
    device has no float64 (numpy weights, a reference or float labels beside
    forecasts on such a device raised the namespace's ValueError)."""
    host = np.asarray(host)
    if host.dtype == np.float64 and wide_float(xp, device) != xp.float64:
        with np.errstate(over="ignore"):  # inf fails the checks: the host's error
            host = host.astype(np.float32)
    return xp.asarray(host, device=device)


def _move_numeric(x: Any, xp: Any, device: Any) -> Any:
    """:func:`_move` for numbers; None for host data no Array API namespace
    holds (strings, objects: the host checks raise their error)."""
    if not _in_namespace(x, xp) and np.asarray(to_numpy(x)).dtype.kind not in "biuf":
        return None
    return _move(x, xp, device)


def _host_labels(y_true: Any, xp: Any) -> tuple[Any, np.ndarray | None, Any]:
    """``(y, uniques, host_y)``: the labels as an ``xp`` array with their
    distinct values on the host, or (None, None, host array) for labels that
    only the host can hold (strings, objects)."""
    if _in_namespace(y_true, xp):
        if y_true.ndim != 1:
            return None, None, to_numpy(y_true)
        return y_true, _distinct(xp, y_true), None
    host = np.asarray(to_numpy(y_true))
    if host.dtype.kind not in "biuf" or host.ndim != 1:
        return None, None, host
    return None, np.unique(host), host


# integer labels spanning at most this many values are found without sorting
_SMALL_SPAN = 64


def _distinct(xp: Any, y: Any) -> np.ndarray:
    """Host array of the distinct values of ``y`` (sorted).

    Integer and boolean labels with a small range (the usual 0/1 or class
    codes) are found with a few reductions; other labels are sorted on the
    device (``unique_values``), or on the host where the namespace has no
    data-dependent shapes (array-api-strict's ``data_dependent_shapes=False``).
    """
    if y.shape[0] and xp.isdtype(y.dtype, ("integral", "bool")):
        yi = xp.astype(y, index_dtype(xp, y.device)) if xp.isdtype(y.dtype, "bool") else y
        lo, hi = int(xp.min(yi)), int(xp.max(yi))
        if hi - lo < _SMALL_SPAN:
            if hi - lo <= 1:
                present = [True] if lo == hi else [bool(xp.any(yi == lo)), True]
            else:
                values = xp.arange(lo, hi + 1, dtype=yi.dtype, device=yi.device)
                present = [bool(v) for v in to_numpy(xp.any(yi[:, None] == values, axis=0))]
            out = np.array([v for v, k in zip(range(lo, hi + 1), present) if k])
            if xp.isdtype(y.dtype, "bool"):
                return out.astype(bool)
            return out.astype(np.dtype(str(y.dtype).rsplit(".", 1)[-1]), copy=False)
    try:
        return np.asarray(to_numpy(xp.unique_values(y)))
    except RuntimeError:  # a namespace without data-dependent shapes: on the host
        return np.unique(to_numpy(y))


def array_api_forecast(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    warn_hard: bool = True,
) -> XPForecast | None:
    """Validate a forecast in ``y_proba``'s Array API namespace, or None.

    None means "use the numpy path" (numpy input, dispatch off, or weights
    outside :func:`_weight_range`, whose products and sums only the host's
    power-of-two rescaling keeps exact).  With
    ``warn_hard`` (as the host's ``check_forecast``) forecasts that are all 0
    or 1 give a :class:`~skbrier.exceptions.HardForecastWarning`; without it
    (a binary test's 0/1 results are valid net-benefit input) they do not.  Invalid
    input is validated again on the host (see the module docstring), which
    raises the numpy path's error; if the host accepts what the namespace
    checks could not show valid, the host's validated arrays are moved back
    to the device.
    """
    ns = dispatch_namespace(y_proba)
    if ns is None:
        return None
    xp, device = ns
    try:
        fc = _validate(xp, device, y_true, y_proba, sample_weight, labels, pos_label)
    except (TypeError, NotImplementedError):  # labels the namespace cannot reduce
        fc = None  # (uint64 on PyTorch): coded on the host
    if fc is not None:
        if warn_hard:
            warn_if_hard(fc.proba, "y_proba", xp=xp)
        return fc
    args = (y_true, y_proba, sample_weight, labels, pos_label)
    if warn_hard:
        return _from_host(xp, device, *args)
    with warnings.catch_warnings():  # the host's check_forecast warns of them
        warnings.simplefilter("ignore", HardForecastWarning)
        return _from_host(xp, device, *args)


def _weight_range(xp: Any, device: Any) -> tuple[float, float]:
    """The largest weights the device computes with as given: the host's
    ordinary scale in float64, narrower in float32 (weights of 1e-310 or 5e-324
    lost their digits in every product, or were flushed to zero by JAX; sums
    of weights of 1e306 overflowed: NaN, where the host raises its error)."""
    from .validation import _ORDINARY

    return _ORDINARY if _weight_dtype(xp, device) == xp.float64 else (2.0**-40, 2.0**40)


def _host_weights_in_range(xp: Any, device: Any, sample_weight: Any) -> bool:
    """Whether host weights are numbers whose largest lies in :func:`_weight_range`
    (anything else goes to the numpy path, which validates and rescales them)."""
    if sample_weight is None:
        return True
    try:
        top = float(np.max(np.asarray(to_numpy(sample_weight), dtype=np.float64)))
    except (TypeError, ValueError):
        return False
    lo, hi = _weight_range(xp, device)
    return lo <= top < hi


def _from_host(xp, device, y_true, y_proba, sample_weight, labels, pos_label):
    """Host validation (raises the numpy path's errors), moved to the device;
    None for weights out of :func:`_weight_range` (the numpy path)."""
    from .validation import check_forecast

    if not _host_weights_in_range(xp, device, sample_weight):
        return None
    raw = to_numpy(y_proba)
    fc = check_forecast(
        to_numpy(y_true),
        raw,
        sample_weight=to_numpy(sample_weight),
        labels=to_numpy(labels),
        pos_label=pos_label,
    )
    dtype = _float_dtype(xp, y_proba, device)

    def dev(a, dt=None):
        return (
            None
            if a is None
            else xp.asarray(np.ascontiguousarray(a), dtype=dt, device=device)
        )

    y = dev(fc.y, dtype) if fc.binary_1d else dev(fc.y, index_dtype(xp, device))
    return XPForecast(
        xp,
        device,
        y,
        dev(fc.proba, dtype),
        dev(fc.sample_weight, _weight_dtype(xp, device)),
        fc.classes,
        fc.binary_1d,
    )


def _validate(xp, device, y_true, y_proba, sample_weight, labels, pos_label):
    """The namespace checks; None when they cannot show the input valid."""
    from .validation import binary_target, encode_labels

    p = _detached(y_proba)
    if p.ndim == 2 and p.shape[1] == 1:
        p = xp.reshape(p, (-1,))
    if p.ndim not in (1, 2) or p.shape[0] == 0:
        return None
    n = int(p.shape[0])
    dtype = _float_dtype(xp, p, device)
    if not xp.isdtype(p.dtype, ("real floating", "integral", "bool")):
        return None
    p = xp.astype(p, dtype, copy=False)
    y_dev, uniq, y_host = _host_labels(y_true, xp)
    if uniq is None:
        return None
    n_y = int(y_dev.shape[0]) if y_dev is not None else int(y_host.shape[0])
    if n_y != n:
        return None
    w = None
    if sample_weight is not None:
        w = _move(sample_weight, xp, device)
        if (
            w.ndim != 1
            or int(w.shape[0]) != n
            or not xp.isdtype(w.dtype, ("real floating", "integral", "bool"))
        ):
            return None
        w = xp.astype(w, _weight_dtype(xp, device), copy=False)
    # one host sync for every numeric check of p and w
    ok = xp.all((p >= 0) & (p <= 1))
    if w is not None:
        lo, hi = _weight_range(xp, device)
        top = xp.max(w)
        ok = ok & xp.all(w >= 0) & xp.all(xp.isfinite(w)) & (top >= lo) & (top < hi)
    if not bool(ok):
        return None
    y_src = y_dev if y_dev is not None else _on_device(y_host, xp, device)
    try:
        if p.ndim == 1:
            if labels is not None:
                return None
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                y01_u = binary_target(uniq, pos_label)
            positives = uniq[y01_u == 1.0]
            if positives.shape[0] == 0:
                y = xp.zeros(n, dtype=dtype, device=device)
            else:
                pos = _on_device(positives[0:1], xp, device)
                y = xp.astype(y_src == pos[0], dtype)
            return XPForecast(xp, device, y, p, w, None, True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            codes_u, classes = encode_labels(uniq, labels)
        if classes.shape[0] != int(p.shape[1]) or uniq.dtype.kind not in "biuf":
            return None
        if classes.dtype.kind not in "biuf":
            return None
    except (ValueError, TypeError, Warning):
        return None
    # codes: position of each label among the sorted classes
    cls = _on_device(classes, xp, device)
    if xp.isdtype(cls.dtype, "bool"):  # no namespace sorts booleans: False < True
        cls = xp.astype(cls, index_dtype(xp, device))
    y_cmp = xp.astype(y_src, cls.dtype) if y_src.dtype != cls.dtype else y_src
    codes = searchsorted(xp, cls, y_cmp)
    # the numpy path's rule (rows summed in float64, relative tolerance sqrt(eps))
    wide = wide_float(xp, device)
    row = xp.sum(xp.astype(p, wide), axis=1)
    if not bool(xp.all(xp.abs(row - 1) <= _row_tolerance(xp, p))):
        warnings.warn(
            "The rows of y_proba do not sum to one. Make sure to pass probabilities.",
            UserWarning,
            stacklevel=4,
        )
    codes = xp.astype(codes, index_dtype(xp, device))
    return XPForecast(xp, device, codes, p, w, classes, False)


class _HostShape:
    """The attributes of a host Forecast that ``check_reference`` reads."""

    def __init__(self, fc: XPForecast) -> None:
        self.binary_1d = fc.binary_1d
        self.proba = np.empty(tuple(int(s) for s in fc.proba.shape), dtype=np.float64)


def array_api_reference(fc: XPForecast, reference: Any, *, warn_hard: bool = True) -> Any:
    """The ``reference`` of a skill score, checked as on the host
    (:func:`skbrier._core.validation.check_reference`): None, a float, or
    reference forecasts on ``fc``'s device in its dtype.  Bad input raises the
    host's error.  ``warn_hard``: reference forecasts that are all 0 or 1 give
    the host's :class:`~skbrier.exceptions.HardForecastWarning` (the ranked
    skill score's host check gives none)."""
    from .validation import check_reference

    if reference is None:
        return None
    if np.ndim(to_numpy(reference)) == 0 and not isinstance(reference, (str, bytes)):
        return check_reference(float(to_numpy(reference)), _HostShape(fc))  # type: ignore[arg-type]
    xp = fc.xp
    ref = _move_numeric(reference, xp, fc.device)
    if (
        ref is None
        or tuple(ref.shape) != tuple(fc.proba.shape)
        or not bool(xp.all((ref >= 0) & (ref <= 1)))
    ):
        # the host's check raises its error, or gives the reference it accepts
        # (an (n, 1) column of 1-D forecasts is read as 1-D: broadcast against
        # the forecasts, it gave an (n, n) loss)
        with warnings.catch_warnings():
            if not warn_hard:
                warnings.simplefilter("ignore", HardForecastWarning)
            host = check_reference(to_numpy(reference), _HostShape(fc))  # type: ignore[arg-type]
        ref = _move(host, xp, fc.device)
    elif warn_hard:
        warn_if_hard(ref, "reference", xp=xp)
    return xp.astype(ref, fc.proba.dtype)


def binary_columns(fc: XPForecast, pos_label: Any) -> list[tuple[Any, Any]]:
    """``[(y01, p)]`` per binary problem: one for 1-D input or two columns (the
    ``pos_label`` column), one per class (one-vs-rest) for three or more
    columns (as :func:`~skbrier.metrics._decomposition_core.binary_columns`);
    a ``pos_label`` that is not a class raises ValueError."""
    xp = fc.xp
    if fc.binary_1d:
        return [(fc.y, fc.proba)]
    k = int(fc.proba.shape[1])
    classes = list(np.asarray(fc.classes).tolist())
    if k == 2:
        idx = 1 if pos_label is None else classes.index(pos_label)
        y01 = xp.astype(fc.y == idx, fc.proba.dtype)
        return [(y01, fc.proba[:, idx])]
    return [(xp.astype(fc.y == j, fc.proba.dtype), fc.proba[:, j]) for j in range(k)]


def array_api_choices(
    y_true: Any, y_score: Any, from_logprobs: bool, sample_weight: Any
) -> tuple[Any, Any, Any, Any] | None:
    """``(xp, proba, targets, weights)`` of rectangular ``(n, K)`` multiple-choice
    scores validated in their namespace (log-probabilities softmaxed, gold
    indices one-hot, soft targets normalised), or None (numpy input, dispatch
    off, or any doubt: the host path validates and raises).

    Warns as the host does: rows of probabilities that do not sum to one
    (``UserWarning``) and one-hot scores
    (:func:`~skbrier._core.hard.warn_one_hot`).
    """
    ns = dispatch_namespace(y_score)
    if ns is None:
        return None
    xp, device = ns
    s = _detached(y_score)
    if s.ndim != 2 or s.shape[0] == 0 or s.shape[1] == 0:
        return None
    if not xp.isdtype(s.dtype, ("real floating", "integral")):
        return None
    dt = _float_dtype(xp, s, device)
    s = xp.astype(s, dt)
    n, k = int(s.shape[0]), int(s.shape[1])
    if from_logprobs:
        row_max = xp.max(s, axis=1)
        ok = ~xp.any(xp.isnan(s)) & ~xp.any(s == xp.inf) & xp.all(row_max > -xp.inf)
        if not bool(ok):
            return None
        e = xp.exp(s - row_max[:, None])
        proba = e / xp.sum(e, axis=1)[:, None]
    else:
        if not bool(xp.all((s >= 0) & (s <= 1))):
            return None
        proba = s
    y = _move_numeric(y_true, xp, device)
    if y is None:
        return None
    if y.ndim == 1:
        if int(y.shape[0]) != n or not xp.isdtype(y.dtype, "integral"):
            return None
        y = xp.astype(y, index_dtype(xp, device))  # uint64 compared with nothing
        if not bool(xp.all((y >= 0) & (y < k))):
            return None
        t = xp.astype(y[:, None] == xp.arange(k, device=device)[None, :], dt)
    elif y.ndim == 2 and tuple(y.shape) == (n, k):
        if not xp.isdtype(y.dtype, ("real floating", "integral", "bool")):
            return None
        t = xp.astype(y, dt)
        t_max = xp.max(t, axis=1)
        if not bool(xp.all(xp.isfinite(t)) & xp.all(t >= 0) & xp.all(t_max > 0)):
            return None
        t = t / t_max[:, None]
        t = t / xp.sum(t, axis=1)[:, None]
    else:
        return None
    w = None
    if sample_weight is not None:
        w = _move(sample_weight, xp, device)
        if w.ndim != 1 or int(w.shape[0]) != n:
            return None
        w = xp.astype(w, _weight_dtype(xp, device))
        lo, hi = _weight_range(xp, device)
        top = xp.max(w)
        if not bool(xp.all(xp.isfinite(w)) & xp.all(w >= 0) & (top >= lo) & (top < hi)):
            return None  # the host validates (and rescales weights out of range)
    if not from_logprobs:
        _warn_choices(xp, s, device, k)
    return xp, proba, t, w


def _warn_choices(xp: Any, s: Any, device: Any, k: int) -> None:
    """The host's warnings on probabilities given directly: rows that do not
    sum to one, and one-hot scores (every score exactly 0 or 1)."""
    from .hard import one_hot_scores, warn_one_hot

    wide = wide_float(xp, device)
    rows = xp.sum(xp.astype(s, wide), axis=1)
    if not bool(xp.all(xp.abs(rows - 1) <= _row_tolerance(xp, s))):
        warnings.warn(
            "Some rows of y_score do not sum to one. Make sure to pass probabilities "
            "(or from_logprobs=True).",
            UserWarning,
            stacklevel=4,
        )
    warn_one_hot(one_hot_scores(xp, s), k)
