"""One backend dispatch: each public function declares the backends it supports.

A public function's body is the in-memory (numpy) path.  The other backends
are declared once, on the function, by :func:`backends`:

.. code-block:: python

    @backends(
        arrays=("y_true", "y_proba", "sample_weight"),
        dask="skbrier._backends._dask._adapters:brier_score",
        array_api="skbrier._backends._array_api:brier_score",
    )
    def brier_score(y_true, y_proba, *, sample_weight=None, ...):
        ...  # numpy

At call time the declared array arguments are looked at (their type's module
only: no import of dask, a few hundred nanoseconds for numpy input): a dask
collection goes to the ``dask`` adapter, an array of another Array API
namespace (with scikit-learn's ``array_api_dispatch`` on) to the
``array_api`` adapter, everything else to the body.  An adapter is named as
``"module:function"`` and imported on first use; it receives the call's
arguments as one :class:`Call` (by name, the public signature's defaults
applied: the defaults live in one place), and may return ``NotImplemented``
for a call it cannot serve on the device (the body then runs on host copies
of the arrays).  A backend the function does not support is either
absent (the error says the function supports no such input) or a
:class:`Refused` with the reason, and the one error raised for it is built
from the declaration -- as is the support table of the documentation
(:func:`support_table`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "BACKENDS",
    "BODY",
    "Call",
    "HOST",
    "Refused",
    "backend_of",
    "backends",
    "declarations",
    "support_table",
]

F = TypeVar("F", bound=Callable[..., Any])

#: the backends besides numpy, in the order the support table lists them
BACKENDS = ("dask", "array_api")
_TITLES = {"numpy": "NumPy", "dask": "Dask", "array_api": "Array API"}


class Call(SimpleNamespace):
    """The arguments of a public function's call, by name, defaults applied:
    what a backend adapter receives (``call.y_true``, ``call.sample_weight`` ...)."""


@dataclass(frozen=True)
class Refused:
    """A backend a function refuses, and why (the error's and the docs' text)."""

    reason: str


#: declares that the function's body serves a backend as it is, because it only
#: composes other declared functions (``brier_index`` calls ``brier_score``)
BODY = "<body>"
#: declares that Array API input is copied to the host and computed by the
#: numpy body (a documented copy, not a hidden one)
HOST = "<host>"


@dataclass(frozen=True)
class _Declaration:
    name: str
    arrays: tuple[str, ...]
    namespace_of: str
    adapters: dict[str, str | Refused]
    #: what a supported backend leaves out, by backend (the support table's cell)
    caveats: dict[str, str] = field(default_factory=dict)


_REGISTRY: dict[str, _Declaration] = {}
#: the declared (public) functions by the name of their declaration: the support
#: table links each one under a module that exports it
_FUNCTIONS: dict[str, Callable[..., Any]] = {}


def _is_dask(x: Any) -> bool:
    mod = type(x).__module__
    return mod.startswith("dask.") or mod.startswith("dask_expr")


def _first_item(v: Any) -> Any:
    """The first item of a list or tuple argument (a sequence of arrays, e.g.
    one per imputed data set), else None: only the first is looked at, so that
    a long list of numbers costs one test."""
    t = type(v)
    return v[0] if (t is list or t is tuple) and v else None


def _holds_dask(v: Any) -> bool:
    """Whether an argument is (or a dict argument holds, or a list argument
    starts with) a dask collection."""
    if isinstance(v, dict):
        return any(_is_dask(u) for u in v.values())
    return _is_dask(v) or _is_dask(_first_item(v))


def backend_of(values: Iterable[Any], primary: Any) -> str:
    """``"dask"``, ``"array_api"`` or ``"numpy"`` for a call's array arguments.

    Dask when any argument (or any value of a dict argument) is a dask
    collection; Array API when ``primary`` (the forecasts) belongs to another
    Array API namespace and scikit-learn's ``array_api_dispatch`` is on;
    numpy otherwise (numpy arrays, sequences, pandas objects, scalars).
    """
    if any(_holds_dask(v) for v in values):
        return "dask"
    if isinstance(primary, dict):  # several models: the first one's namespace
        primary = next(iter(primary.values()), None)
    first = _first_item(primary)
    if hasattr(first, "__array_namespace__") or hasattr(first, "__dlpack__"):
        primary = first  # a sequence of arrays: the first one's namespace
    t = type(primary)
    if t is np.ndarray or t is list or t is tuple or primary is None:
        return "numpy"
    from .array_api import dispatch_namespace

    return "numpy" if dispatch_namespace(primary) is None else "array_api"


def _device_arrays(values: Iterable[Any]) -> bool:
    """Whether any of a call's array arguments (or a dict's values) is an
    array of another Array API namespace while scikit-learn's
    ``array_api_dispatch`` is on."""
    from .array_api import dispatch_namespace

    for v in values:
        for x in v.values() if isinstance(v, dict) else (v,):
            if dispatch_namespace(x) is not None:
                return True
    return False


def _host(v: Any) -> Any:
    """A host (numpy) copy of an array argument; a dict's values each, a
    list's or tuple's items each."""
    from .array_api import to_numpy

    if isinstance(v, dict):
        return {k: to_numpy(x) for k, x in v.items()}
    if type(v) is list or type(v) is tuple:
        return type(v)(to_numpy(x) for x in v)
    return to_numpy(v)


def _host_option(v: Any) -> Any:
    """An option given as an Array API array (``labels``, bin edges,
    ``thresholds``, a 0-d ``threshold`` or ``pos_label`` ...) as the host
    value the option checks read: a numpy array, a 0-d one as its Python
    scalar.  Other values pass unchanged."""
    t = type(v)
    if t is np.ndarray or not (
        hasattr(v, "__array_namespace__") or hasattr(v, "__dlpack__")
    ):
        return v
    from .array_api import to_numpy

    host = np.asarray(to_numpy(v))
    return host.item() if host.ndim == 0 else host


def _load(target: str) -> Callable[..., Any]:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def backends(
    *,
    arrays: tuple[str, ...] = ("y_true", "y_proba", "sample_weight"),
    namespace_of: str = "y_proba",
    dask: str | Refused | None = None,
    array_api: str | Refused | None = None,
    name: str | None = None,
    caveats: dict[str, str] | None = None,
) -> Callable[[F], F]:
    """Declare the backends of a public function (the body is the numpy path).

    Parameters
    ----------
    arrays : tuple of str
        The parameters that may hold arrays (a dict parameter is looked into).
    namespace_of : str
        The parameter whose Array API namespace decides (the forecasts, as in
        scikit-learn's ``get_namespace_and_device``).
    dask, array_api : str or Refused, optional
        ``"module:function"`` of the adapter that takes the call's
        arguments (a :class:`Call`), :data:`BODY` when the body serves the backend
        as it is (it only composes declared functions), :data:`HOST` (Array
        API input copied to the host for the numpy body), a :class:`Refused`
        with the reason, or None (not supported).
    name : str, optional
        The documented name (``"skbrier.decomposition.BrierDecomposition.partial_fit"``)
        of a method written in a private mixin; by default the function's
        public module and qualified name.
    caveats : dict, optional
        ``{backend: text}``: what a supported backend leaves out (shown in
        the support table after "yes").
    """

    def decorate(func: F) -> F:
        sig = inspect.signature(func)
        params = list(sig.parameters)
        missing = [a for a in (*arrays, namespace_of) if a not in params]
        if missing:  # pragma: no cover - a programming error, caught at import
            raise TypeError(f"{func.__qualname__} has no parameter(s) {missing}")
        positions = {a: params.index(a) for a in arrays}
        ns_pos = params.index(namespace_of)
        adapters = {k: v for k, v in (("dask", dask), ("array_api", array_api)) if v}
        declared = name or f"{func.__module__.rsplit('._', 1)[0]}.{func.__qualname__}"
        decl = _Declaration(
            declared, tuple(arrays), namespace_of, adapters, dict(caveats or {})
        )
        _REGISTRY[declared] = decl
        short = func.__name__

        slots = tuple(positions.items())
        host_positions = set(positions.values())
        ns_slot = (namespace_of, ns_pos)

        def on_host(args: tuple, kwargs: dict) -> Any:
            args = tuple(_host(v) if i in host_positions else v for i, v in enumerate(args))
            kwargs = {k: _host(v) if k in arrays else v for k, v in kwargs.items()}
            return func(*args, **kwargs)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            n = len(args)
            values = [args[i] if i < n else kwargs.get(a) for a, i in slots]
            primary = args[ns_slot[1]] if ns_slot[1] < n else kwargs.get(ns_slot[0])
            # the commonest call, numpy arrays only, costs one type test per argument
            if type(primary) is np.ndarray and all(
                type(v) is np.ndarray or v is None for v in values
            ):
                return func(*args, **kwargs)
            kind = backend_of(values, primary)
            if kind == "numpy":
                if _device_arrays(values):
                    # labels or weights follow numpy forecasts to the host (as in
                    # scikit-learn; on a device numpy could not read them)
                    return on_host(args, kwargs)
                return func(*args, **kwargs)
            if kind == "array_api":
                # the options are read on the host (a device array of labels,
                # edges or thresholds could not be read there; a 0-d tensor
                # threshold was "not a real number")
                args = tuple(
                    v if i in host_positions else _host_option(v)
                    for i, v in enumerate(args)
                )
                kwargs = {
                    k: v if k in arrays else _host_option(v) for k, v in kwargs.items()
                }
            target = adapters.get(kind)
            if target == BODY:
                return func(*args, **kwargs)
            if target == HOST:
                return on_host(args, kwargs)
            if target is None or isinstance(target, Refused):
                # the reason as one sentence before the advice (it ended
                # without a full stop: "... .compute() Pass numpy arrays")
                why = (
                    f": {target.reason.rstrip('. ')}."
                    if isinstance(target, Refused)
                    else "."
                )
                # the argument that chose the backend (the forecasts, or the
                # first dask one: a dask `groups` beside numpy forecasts)
                subject = namespace_of
                if kind == "dask" and not _holds_dask(primary):
                    subject = next(a for (a, _), v in zip(slots, values) if _holds_dask(v))
                raise TypeError(
                    f"{subject}: {short} does not accept {_TITLES[kind]} input{why} "
                    f"Pass numpy arrays (or see the backend support table in the "
                    f"user guide)."
                )
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError as exc:  # named as Python names it for the body
                raise TypeError(f"{short}() {exc}") from None
            bound.apply_defaults()
            # the adapter reads the call's arguments, defaults included, by name:
            # the defaults live in the public signature only
            out = _load(target)(Call(**bound.arguments))
            # an adapter that cannot serve this call (e.g. an option only the
            # host implements) says so, and the numpy body runs on host copies
            return on_host(args, kwargs) if out is NotImplemented else out

        wrapper.__skbrier_backends__ = decl  # type: ignore[attr-defined]
        _FUNCTIONS[declared] = wrapper
        return wrapper  # type: ignore[return-value]

    return decorate


def declarations() -> dict[str, _Declaration]:
    """The declarations of every decorated function imported so far, by name."""
    return dict(_REGISTRY)


def _wraps(obj: Any, func: Any) -> bool:
    """Whether ``obj`` is ``func`` or a decorator's wrapper of it."""
    while obj is not None:
        if obj is func:
            return True
        obj = getattr(obj, "__wrapped__", None)
    return False


def _documented_name(name: str) -> str:
    """The name a declared function is documented under: the shortest public
    module that exports it (the top level first: ``skbrier.brier_score``; a
    function of a private module under the public module that lists it, as
    ``skbrier.metrics.decomposition.bin_edges``); the declaration's name
    where none does (a method)."""
    func = _FUNCTIONS.get(name)
    short = name.rpartition(".")[2]
    homes = [
        mod_name
        for mod_name, mod in list(sys.modules.items())
        if mod_name.split(".")[0] == "skbrier"
        and not any(part.startswith("_") for part in mod_name.split("."))
        and short in getattr(mod, "__all__", ())
        and _wraps(getattr(mod, short, None), func)
    ]
    if func is None or not homes:
        return name
    return f"{min(homes, key=lambda m: (m.count('.'), m))}.{short}"


def support_table() -> str:
    """The backend support table (reStructuredText), generated from the declarations.

    Imports :mod:`skbrier` first so that every public function has declared itself.
    """
    importlib.import_module("skbrier")
    rows = [("Function", *(_TITLES[k] for k in ("numpy", *BACKENDS)))]
    public = {}
    for name, decl in _REGISTRY.items():
        if not name.startswith("skbrier."):
            continue  # a declaration outside the package (a test's)
        public[_documented_name(name)] = decl
    for name in sorted(public, key=lambda n: n.rpartition(".")[2]):
        decl = public[name]
        cells = [f":func:`~{name}`", "yes"]
        for kind in BACKENDS:
            target = decl.adapters.get(kind)
            if target is None:
                cells.append("no")
            elif isinstance(target, Refused):
                cells.append(f"no: {target.reason}")
            elif target == HOST:
                cells.append("copied to the host")
            elif kind in decl.caveats:
                cells.append(f"yes, {decl.caveats[kind]}")
            else:
                cells.append("yes")
        rows.append(tuple(cells))
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in rows:
        lines.append(f"   * - {row[0]}")
        lines.extend(f"     - {c}" for c in row[1:])
    return "\n".join(lines) + "\n"
