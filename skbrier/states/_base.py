"""The bases of the mergeable states (numpy only, engine-agnostic).

:class:`MergeableState` is the base of every state: its options are the
parameters of its ``__init__``, and ``merge`` refuses a state of another
class or with other options (one check for all states).  :class:`BinaryState`
is the label-keyed base of the states of binary forecasts.

A state is built from chunks of rows (``update``), states of different chunks
are combined (``merge``), and the statistic is computed once at the end
(``finalize``).  The outcome labels are only known for the whole data at the
end (which class is positive follows scikit-learn's rule applied to *all*
labels), so each state keeps its sums per distinct label of ``y_true`` and
encodes the labels as 0/1 in ``finalize`` with the same function the
in-memory metrics use, :func:`skbrier._core.validation.binary_target`; the errors
are therefore the in-memory ones, naming the same parameter.  A state also
counts the rows of each label, so that a message about the labels (too many
classes, a stray label) shows the true counts over all chunks, sorted, and
no positions: the same message whatever the order of the chunks and merges
(a label error is raised in ``finalize``, once every chunk is in).
"""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from collections.abc import Mapping
from typing import Any, TypeVar

import numpy as np

from .._core import arrays as _arrays
from .._core.diagnose import warn_once
from .._core.format import format_number
from .._core.hard import hard_forecast_message
from .._core.validation import (
    _as_array,
    _numeric_objects,
    _target_array,
    binary_target,
    check_probabilities,
    check_sample_weight,
)
from ..exceptions import HardForecastWarning
from ._chunks import _all_hard, _chunk_labels, _chunk_weights, _plain_rows

__all__ = [
    "BinaryState",
    "MergeableState",
    "check_same_options",
    "check_total_weight",
    "label_key",
    "same_value",
]

#: the docstring pieces of the states (``with_pieces``)
STATE_PIECES = {
    "with_reference": """\
with_reference : bool, default=False
    Whether :meth:`update` receives a ``reference`` column of reference
    forecasts (shaped as ``y_proba``) for a skill score.""",
    "brier_reference": """\
References
----------
.. [1] G. W. Brier, "Verification of forecasts expressed in terms of
   probability", Monthly Weather Review 78, 1-3, 1950.""",
}

_S = TypeVar("_S", bound="MergeableState")


def label_key(label: Any) -> Any:
    """The dictionary key of a label of ``y_true`` (numpy scalars as Python ones)."""
    return label.item() if isinstance(label, np.generic) else label


def same_value(a: Any, b: Any) -> bool:
    """Whether two option values are equal: None, scalars (NaN equals NaN),
    strings, and arrays, lists or tuples (equal shapes and elements)."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (np.ndarray, list, tuple)) or isinstance(b, (np.ndarray, list, tuple)):
        try:
            x, y = np.asarray(a), np.asarray(b)
            if x.shape != y.shape:
                return False
            nan = x.dtype.kind in "fc" and y.dtype.kind in "fc"
            return bool(np.array_equal(x, y, equal_nan=nan))
        except (TypeError, ValueError):
            return False
    try:
        return bool(a == b) or (a != a and b != b)
    except (TypeError, ValueError):
        return a is b


def _is_dataclass_instance(v: Any) -> bool:
    return dataclasses.is_dataclass(v) and not isinstance(v, type)


def _differences(a: Any, b: Any, path: str) -> list[tuple[str, Any, Any]]:
    """``[(option path, value of a, value of b), ...]``: where ``a`` and ``b``
    differ, looking into states (their options), dicts and dataclasses."""
    if isinstance(a, MergeableState) or isinstance(b, MergeableState):
        if type(a) is not type(b):
            return [(path, a, b)]
        return _mapping_differences(a.get_options(), b.get_options(), path + ".")
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        if not (isinstance(a, Mapping) and isinstance(b, Mapping)) or list(a) != list(b):
            return [(path, a, b)]
        out = []
        for key in a:
            out += _differences(a[key], b[key], f"{path}[{key!r}]")
        return out
    if _is_dataclass_instance(a) or _is_dataclass_instance(b):
        if type(a) is not type(b):
            return [(path, a, b)]
        out = []
        for f in dataclasses.fields(a):
            out += _differences(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
        return out
    return [] if same_value(a, b) else [(path, a, b)]


def _mapping_differences(a: Mapping, b: Mapping, prefix: str = "") -> list:
    out = []
    for key in dict.fromkeys([*a, *b]):
        out += _differences(a.get(key), b.get(key), f"{prefix}{key}")
    return out


def _show(v: Any, full: bool = False) -> str:
    """A short repr of an option value (floats to 4 significant digits, or
    every digit when ``full``)."""
    if isinstance(v, MergeableState):
        return f"{type(v).__name__}(...)"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k!r}: {_show(x, full)}" for k, x in v.items()) + "}"
    if isinstance(v, (float, np.floating)):
        return repr(float(v)) if full else f"{float(v):.4g}"
    if isinstance(v, np.ndarray):
        if full and v.ndim == 1 and v.dtype.kind == "f" and v.size <= 20:
            return repr([float(x) for x in v])
        return np.array2string(v, precision=4, threshold=8, separator=", ")
    return repr(v)


def check_same_options(
    kind: str,
    mine: Mapping[str, Any],
    theirs: Mapping[str, Any],
    *,
    notes: Mapping[str, str] | None = None,
) -> None:
    """Raise the ValueError of a merge of two states whose options differ.

    Parameters
    ----------
    kind : str
        The class name of the states (in the message).
    mine, theirs : mapping of str to object
        The options of the state merged into and of the other one.
    notes : mapping of str to str, default=None
        A remark in parentheses after an option's name.

    Raises
    ------
    ValueError
        ``cannot merge Kind(option=mine) with Kind(option=theirs): the states
        differ in 'option'`` when an option differs (arrays, dicts, states and
        dataclasses are compared element by element).

    Examples
    --------
    >>> from skbrier.states._base import check_same_options
    >>> check_same_options("BrierState", {"pos_label": 1}, {"pos_label": 1.0})
    >>> check_same_options("BrierState", {"pos_label": 0}, {"pos_label": 1})
    Traceback (most recent call last):
    ...
    ValueError: cannot merge BrierState(pos_label=0) with BrierState(pos_label=1): ...
    """
    diffs = _mapping_differences(mine, theirs)
    if not diffs:
        return
    notes = notes or {}
    mine_s = ", ".join(f"{p}={_show(x)}" for p, x, _ in diffs)
    theirs_s = ", ".join(f"{p}={_show(y)}" for p, _, y in diffs)
    if mine_s == theirs_s:  # values that differ beyond 4 digits: in full
        mine_s = ", ".join(f"{p}={_show(x, full=True)}" for p, x, _ in diffs)
        theirs_s = ", ".join(f"{p}={_show(y, full=True)}" for p, _, y in diffs)
    names = [f"'{p}'" + (f" ({notes[p]})" if p in notes else "") for p, _, _ in diffs]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    raise ValueError(
        f"cannot merge {kind}({mine_s}) with {kind}({theirs_s}): the states differ "
        f"in {listed}; merge only states built with the same options (their "
        "statistics would mean different things)."
    )


def _plain(v: Any) -> Any:
    """``v`` with the states in it replaced by their :meth:`~MergeableState.options_key`."""
    if isinstance(v, MergeableState):
        return v.options_key()
    if isinstance(v, Mapping):
        return {k: _plain(x) for k, x in v.items()}
    return v


class MergeableState:
    """Base of every mergeable state: its options and the checks of ``merge``.

    The options of a state are the parameters of its ``__init__``, kept as
    attributes of the same names (:meth:`option_names`).  :meth:`merge`
    refuses a state of another class (TypeError) or with other options
    (ValueError naming the options, :func:`check_same_options`), whether or
    not the states hold rows, returns ``self`` unchanged for an empty
    ``other``, and otherwise adds the data with the subclass's ``_merge``.
    Merging is symmetric: ``a.merge(b)`` and ``b.merge(a)`` give the same
    statistics (to rounding), equal to those of the concatenated rows.

    Examples
    --------
    >>> from skbrier.states import BrierState
    >>> BrierState.option_names()
    ('pos_label', 'with_reference')
    >>> BrierState(pos_label=0).get_options()
    {'pos_label': 0, 'with_reference': False}
    """

    n_samples: int

    #: the option that decides the keyword columns of ``update`` (""; none)
    columns_option: str = ""

    def _column_names(self) -> tuple[str, ...]:
        """The keyword columns ``update`` takes (besides the three inputs)."""
        return ()

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The names of the options: the parameters of ``__init__``."""
        params = inspect.signature(cls.__init__).parameters.values()
        skip = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        return tuple(p.name for p in params if p.name != "self" and p.kind not in skip)

    def get_options(self) -> dict[str, Any]:
        """The options, by name (what the state was built with)."""
        return {name: getattr(self, name) for name in self.option_names()}

    def options_key(self) -> tuple:
        """A hashable key of the state's kind and options (not of its data):
        two fresh states with equal keys compute the same statistic."""
        items = [(k, _plain(v)) for k, v in self.get_options().items()]
        return (type(self).__module__, type(self).__qualname__, pickle.dumps(items))

    def check_mergeable(self, other: Any) -> None:
        """Raise unless ``other`` is a state of this class with equal options."""
        if type(other) is not type(self):
            raise TypeError(
                f"cannot merge {type(other).__name__} into {type(self).__name__}: "
                f"other must be a {type(self).__name__} (states of other classes "
                "hold other sums)."
            )
        check_same_options(type(self).__name__, self.get_options(), other.get_options())

    def merge(self: _S, other: _S) -> _S:
        """Add the rows of ``other``, a state of the same class and options;
        returns ``self`` (``other`` is left unchanged).

        Raises TypeError for a state of another class and ValueError, naming
        the options, when the options differ.
        """
        self.check_mergeable(other)
        if other.n_samples:
            self._merge(other)
        return self

    def _merge(self, other: Any) -> None:
        raise NotImplementedError


def update_columns(state: MergeableState, columns: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword columns given to ``state.update`` (a None value is absent),
    after refusing, with a TypeError naming them and the option that decides
    them, the columns the state does not take and those it takes but misses."""
    given = {k: v for k, v in columns.items() if v is not None}
    names = state._column_names()
    cls = type(state).__name__
    opt = state.columns_option
    rule = (
        f"; the columns follow its option {opt}={_show(getattr(state, opt))}" if opt else ""
    )
    unexpected = [k for k in given if k not in names]
    if unexpected:
        takes = ", ".join(map(repr, names)) if names else "no keyword column"
        raise TypeError(
            f"{cls}.update() got the unexpected column(s) {', '.join(map(repr, unexpected))}: "
            f"this state takes {takes}{rule}."
        )
    missing = [k for k in names if k not in given]
    if missing:
        raise TypeError(
            f"{cls}.update() needs the column(s) {', '.join(map(repr, missing))} as keyword "
            f"arguments (update(y_true, y_proba, sample_weight, {missing[0]}=...)){rule}."
        )
    return given


class _LabelSums(MergeableState):
    """Base of the label-keyed states: the sums of each distinct label of
    ``y_true`` (``_sums``) and its row count (``_rows``, for the messages),
    with the totals of rows and weight.  Sums are added with ``_add``.

    Whether the forecasts are all exactly 0 or 1 is a property of all the
    rows, not of a chunk: ``update`` records it per forecast column
    (:meth:`_note_hard`) and the finish gives the in-memory
    :class:`~skbrier.exceptions.HardForecastWarning` (:meth:`_warn_hard`)."""

    #: the name of ``y_proba`` in messages
    proba_name = "y_proba"
    #: whether the in-memory function warns of forecasts all exactly 0 or 1
    warns_hard = True
    #: the forecast columns whose 0/1 values the in-memory function takes silently
    quiet_hard: tuple[str, ...] = ()

    def _init_sums(self) -> None:
        self.n_samples = 0
        self.total_weight = 0.0
        self.weighted = False
        self._sums: dict[Any, Any] = {}
        self._rows: dict[Any, int] = {}  # rows per label (for the messages)
        # per forecast column: (every value so far exactly 0 or 1, values seen)
        self._hard: dict[str, tuple[bool, int]] = {}

    def _note_hard(self, name: str, p: np.ndarray) -> None:
        """Record whether every value of the forecasts ``p`` (of the column
        ``name``, validated) of a chunk is exactly 0 or 1."""
        hard, size = self._hard.get(name, (True, 0))
        self._hard[name] = (hard and _all_hard(p), size + p.size)

    def _note_columns(self, extra: Mapping[Any, Any]) -> None:
        """:meth:`_note_hard` of the keyword forecast columns of a chunk."""
        for key, q in extra.items():
            if isinstance(q, np.ndarray):
                self._note_hard(self._shown(key), q)

    def _shown(self, key: Any) -> str:
        """The name in messages of the keyword column ``key``."""
        return str(key)

    def _warn_hard(self) -> None:
        """The in-memory HardForecastWarning, judged on all the rows: when
        every value of a forecast column (at least two) is exactly 0 or 1,
        once, for the first such column (as a public call warns once)."""
        if not self.warns_hard:
            return
        for name, (hard, size) in self._hard.items():
            if hard and size >= 2 and name not in self.quiet_hard:
                warn_once(hard_forecast_message(name), HardForecastWarning)
                return

    def _add(self, a: Any, b: Any) -> Any:
        return a + b

    def _count(self, n: int, w: np.ndarray | None) -> None:
        """Count a chunk of ``n`` rows of weights ``w`` (None: unit weights)."""
        self.n_samples += n
        if w is not None:
            self.weighted = True
            self.total_weight += float(w.sum())
        else:
            self.total_weight += float(n)

    def _put(self, label: Any, part: Any, rows: int) -> None:
        if label in self._sums:
            self._sums[label] = self._add(self._sums[label], part)
        else:
            self._sums[label] = part
        self._rows[label] = self._rows.get(label, 0) + rows

    def _merge_sums(self, other: _LabelSums) -> None:
        self.n_samples += other.n_samples
        self.total_weight += other.total_weight
        self.weighted = self.weighted or other.weighted
        for name, (hard, size) in other._hard.items():
            mine, seen = self._hard.get(name, (True, 0))
            self._hard[name] = (mine and hard, seen + size)
        for label, part in other._sums.items():
            self._put(label, part, other._rows[label])

    def _labels(self) -> tuple[list[Any], np.ndarray, list[int]]:
        """The distinct labels (the keys of the sums), as the array of labels
        the in-memory checks read, and the rows of each (for the messages)."""
        keys = list(self._sums)
        if keys and all(isinstance(key, bool) for key in keys):
            # boolean labels are keyed as Python bools: read as booleans, as
            # in memory (an object array of them was refused as strings)
            y = np.array(keys, dtype=bool)
        else:
            y = _numeric_objects(np.array(keys, dtype=object)) if keys else np.empty(0)
        return keys, y, [self._rows[key] for key in keys]

    def _check_total_weight(self) -> None:
        """The in-memory errors of weights summing to zero or to infinity, and
        weights too small for the sums a state keeps (:func:`check_total_weight`)."""
        check_total_weight(self.total_weight, self.n_samples)


def check_total_weight(total: float, n: int) -> None:
    """Raise the in-memory errors of ``n`` weights summing to zero (``total``)
    or to infinity, and of weights too small for the sums a state (or an
    engine's aggregation) keeps: their mean subnormal, where each product
    ``w * x`` loses digits (weights of 5e-324 gave a Brier score of 0.1589
    against 0.1819, an engine's 0).

    Examples
    --------
    >>> from skbrier.states._base import check_total_weight
    >>> check_total_weight(3.0, 2)
    >>> check_total_weight(1e-320, 2)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight: the weights average 5e-321, below the smallest normal ...
    """
    if not 0.0 < total < np.inf:  # the in-memory messages (a weight of inf was refused)
        big = float(np.finfo(np.float64).max)
        check_sample_weight(np.full(2, 0.0 if total == 0.0 else big), 2)
    mean = total / max(n, 1)
    if mean < np.finfo(np.float64).smallest_normal:
        raise ValueError(
            f"sample_weight: the weights average {format_number(mean)}, below "
            "the smallest normal float (2.225e-308): the sums a state keeps "
            "would lose digits. Multiply sample_weight by a constant (only the "
            "ratios of the weights matter to the scores)."
        )


class BinaryState(_LabelSums):
    """Base of the mergeable states of binary forecasts.

    Subclasses define ``_chunk(p, w, extra)`` (the sums of one label's rows
    of a chunk), ``_add(a, b)`` (merge two sums) and use
    :meth:`encoded` in their ``finalize``.

    Parameters
    ----------
    pos_label : int, float, bool or str, default=None
        The positive class, resolved in :meth:`encoded` exactly as the
        in-memory functions resolve it from all labels.
    """

    def __init__(self, *, pos_label: Any = None) -> None:
        self.pos_label = pos_label
        self._init_sums()
        self._label_dtype: np.dtype | None = None

    # -- subclass hooks -----------------------------------------------------
    def _chunk(self, p: np.ndarray, w: np.ndarray | None, extra: dict) -> Any:
        raise NotImplementedError

    def _extra(self, n: int, **columns: Any) -> dict:
        return {}

    def _check_rows(self, p: np.ndarray) -> None:
        """Checks of a whole chunk's forecasts, before it is split by label
        (so that a message counts the chunk's rows, not one label's)."""

    def _reduce_01(self, y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> list | None:
        """``[(label, sums, rows), ...]`` of a chunk of numpy rows whose labels
        are 0/1, in one fused pass that also shows the rows valid (None: not
        shown, or not implemented; the general path then validates and splits
        the rows by label).  ``y``: 1-D numeric, ``p``: 1-D float64, ``w``:
        float64 or None, all of one length."""
        return None

    # -- the protocol -------------------------------------------------------
    def update(self, y_true: Any, y_proba: Any, sample_weight: Any = None, **columns: Any):
        """Add a chunk of rows (validated here, as the in-memory functions do).

        Returns ``self``.  Empty chunks are allowed.
        """
        columns = update_columns(self, columns)
        if not columns and _plain_rows(y_true, y_proba, sample_weight):
            parts = self._reduce_01(y_true, y_proba, sample_weight)
            if parts is not None:
                _arrays.checked(self.proba_name)  # as check_probabilities does
                if sample_weight is not None:
                    _arrays.checked("sample_weight")
                self._note_hard(self.proba_name, y_proba)
                self._note_label_dtype(y_true.dtype)
                self.n_samples += y_proba.shape[0]
                self.weighted = self.weighted or sample_weight is not None
                for label, part, rows in parts:
                    self.total_weight += self._weight_of(part)
                    self._put(label, part, rows)
                return self
        raw = _as_array(y_proba, self.proba_name)
        if raw.ndim >= 1 and raw.shape[0] == 0:
            return self  # an empty chunk (an empty partition)
        p = check_probabilities(raw, name=self.proba_name, warn_hard=False, source=y_proba)
        if p.ndim != 1:
            raise ValueError(
                f"y_proba must be 1-D (the probability of the positive class) for "
                f"distributed input; got shape {p.shape}."
            )
        n = p.shape[0]
        y_arr = _as_array(y_true, "y_true")
        if y_arr.ndim == 2 and y_arr.shape[1] == 1:
            y_arr = y_arr[:, 0]
        if y_arr.ndim == 1 and y_arr.shape[0] != n:
            raise ValueError(
                f"y_true has {y_arr.shape[0]} samples but y_proba has {n}; "
                "all inputs must have the same number of samples."
            )
        w = _chunk_weights(sample_weight, n)
        extra = self._extra(n, **columns)
        if n == 0:
            return self
        self._check_rows(p)
        y = _target_array(y_arr, check_finite=False)
        self._note_label_dtype(y.dtype)
        self._note_hard(self.proba_name, p)
        self._note_columns(extra)
        self._count(n, w)
        labels, masks = _chunk_labels(y)
        for label, mask in zip(labels, masks):
            if mask is None:
                part, rows = self._chunk(p, w, extra), n
            else:
                sub = {
                    k: (v[mask] if isinstance(v, np.ndarray) else v)
                    for k, v in extra.items()
                }
                part = self._chunk(p[mask], None if w is None else w[mask], sub)
                rows = int(np.count_nonzero(mask))
            self._put(label, part, rows)
        return self

    def _merge(self, other: BinaryState) -> None:
        self._note_label_dtype(other._label_dtype)
        self._merge_sums(other)

    def _note_label_dtype(self, dtype: np.dtype | None) -> None:
        """The type of the labels of all chunks so far: numpy's type of their
        concatenation, as for merged states (only the first chunk's was kept
        by ``update``: a chunk of ``"bb"`` after one of ``"a"`` was read as
        ``"b"`` (``<U1``), ``-1`` after ``uint8`` labels raised OverflowError)."""
        if dtype is None or dtype == self._label_dtype:
            return
        if self._label_dtype is None:
            self._label_dtype = dtype
            return
        try:
            self._label_dtype = np.result_type(self._label_dtype, dtype)
        except TypeError:  # no common type (dates and numbers): numpy refuses too
            raise TypeError(
                f"y_true holds labels of types that do not mix across chunks: "
                f"{self._label_dtype} and {dtype} (numpy cannot concatenate them); "
                "use one type of label in every chunk."
            ) from None

    def _labels_01(self) -> list[tuple[float, Any]]:
        labels = list(self._sums)
        if len({isinstance(lab, str) for lab in labels}) > 1:
            # chunks of string and of numeric labels: read together, as in
            # memory (the label dtype of both would turn 1 into "1")
            arr = np.array(labels, dtype=object)
        else:
            arr = np.array(labels, dtype=self._label_dtype)
        y01 = binary_target(
            arr, self.pos_label, label_rows=[self._rows[lab] for lab in labels]
        )
        return [(float(v), self._sums[lab]) for v, lab in zip(y01, labels)]

    def encoded(self) -> list[tuple[float, Any]]:
        """``[(y01, sums), ...]``: the sums of each label with its 0/1 outcome.

        Raises the in-memory errors: no rows, more than two classes, a
        ``pos_label`` that is not a label, string labels without
        ``pos_label``, weights summing to zero.
        """
        if self.n_samples == 0:  # the in-memory error ("y_proba is empty")
            check_probabilities(np.empty(0), name=self.proba_name, warn_hard=False)
        pairs = self._labels_01()  # the labels first, as in memory
        self._check_total_weight()
        self._warn_hard()  # once the rows are known valid, as in memory
        return pairs

    def as_binary(self) -> BinaryState:
        """A copy keyed by the 0/1 outcomes (``pos_label`` resolved): the state
        the same rows would give with ``y_true`` encoded as 0.0/1.0."""
        import copy

        out = copy.copy(self)
        pairs = self.encoded()
        out._sums = dict(pairs)
        out._rows = {}
        for (v, _), label in zip(pairs, self._sums):
            out._rows[v] = out._rows.get(v, 0) + self._rows[label]
        out._label_dtype = np.dtype(np.float64)
        out.pos_label = None
        return out

    def class_weights(self) -> tuple[float, float]:
        """``(W0, W1)``: the total weight of the outcomes 0 and 1."""
        tot = [0.0, 0.0]
        for v, s in self.encoded():
            tot[int(v)] += self._weight_of(s)
        return tot[0], tot[1]

    def _weight_of(self, sums: Any) -> float:
        return float(sums[0])
