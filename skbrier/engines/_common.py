"""What the engines share: column checks, and the map from the per-group,
per-label sums an engine computes to the mergeable states and their finish.

An engine adapter (:class:`Source`) renders the aggregates of a
:class:`Statistic` (:mod:`._plans`; the statistics are built in
:mod:`._statistics`) in its own language, runs them grouped by the
``group_by`` columns and the label of ``y`` (and the bin, for binned
statistics), and returns the rows as dicts.  :func:`compute` builds one state
per group from those rows -- exactly the state the rows would give through
``update``, so the labels, ``pos_label`` and the totals are checked by the
state with the in-memory messages -- and finishes it with the state's (the
kernel's) finish.  A group whose rows the engine's checks flag (a
probability outside [0, 1], NaN, a null, a bad weight, a non-finite label)
is fetched and given to the state's ``update``, which raises the in-memory
error (positions within the group).  A *given* plan
(:class:`GivenStatistic`) is the fast path of 0/1 outcomes: the kernel's
sums themselves, per group, no label grouping.
"""

from __future__ import annotations

import copy
import dataclasses
import decimal
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from .._core.docstrings import with_pieces as _with_pieces
from .._core.optional import import_optional
from .._core.validation import check_probabilities
from ._plans import Agg, Term, col, hard_aggs

__all__ = [
    "BIN",
    "KEY",
    "LABEL",
    "PREFIX",
    "REPORT_INPUTS",
    "GivenStatistic",
    "Source",
    "Statistic",
    "TableSource",
    "by_group",
    "case_clash",
    "check_column",
    "check_report_options",
    "check_group_by",
    "check_reserved",
    "check_labels",
    "check_numbers",
    "column_inputs",
    "compute",
    "engine",
    "finish_given",
    "group_note",
    "group_states",
    "key_names",
    "noted",
    "ordinary_weight",
    "report_subgroups",
    "subgroup_keys",
    "warn_hard",
    "with_pieces",
]

#: the prefix of the reserved names of an engine's columns (the logical
#: columns ``__skbrier_y``, ``__skbrier_p``, ...)
PREFIX = "__skbrier_"
LABEL = "__skbrier_label"
BIN = "__skbrier_bin"
#: the prefix of the group columns in an engine's rows (``__skbrier_key0``,
#: ...): reserved names, so that a group column may be named as an aggregate
KEY = "__skbrier_key"


def engine(name: str) -> Any:
    """The engine's module ``name`` (``"polars"``, ``"duckdb"``), or the
    ImportError saying how to install it (an extra of skbrier)."""
    return import_optional(name, needed_for=f"skbrier.engines.{name}")


# ----------------------------------------------------------------- columns
def check_column(value: Any, name: str, columns: Sequence[str] | None) -> None:
    """Raise the TypeError/ValueError of a column parameter that is not the
    name of a column of the input (``columns`` None: not known yet)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a column name (str), got {type(value).__name__}.")
    if columns is not None and value not in columns:
        shown = ", ".join(repr(c) for c in list(columns)[:20])
        raise ValueError(
            f"{name}={value!r} is not a column of the input; its columns are {shown}."
        )


def case_clash(columns: Sequence[str], used: Sequence[str]) -> tuple[str, str] | None:
    """The first column of ``used`` and another of ``columns`` whose names
    differ only in case (None if there is none): engines that resolve names
    ignoring case (Spark's default) cannot tell them apart."""
    for c in used:
        other = next((o for o in columns if o != c and o.lower() == c.lower()), None)
        if other is not None:
            return c, other
    return None


def check_numbers(value: Any, name: str, kind: str, type_name: str) -> None:
    """Raise the TypeError of a forecast, weight or reference column that
    does not hold numbers (``kind``: ``""`` for numbers or booleans,
    ``"text"``, ``"nested"`` for lists, arrays and structs, ``"other"``
    for dates, durations, bytes ...; ``type_name``: its type in the engine):
    numbers only, one per row, as in memory (no silent parse of text, no
    engine error on a cast)."""
    if kind == "text":
        raise TypeError(
            f"{name}={value!r} holds text ({type_name}); it must hold numbers: cast the "
            "column to a number type first."
        )
    if kind == "nested":
        raise TypeError(
            f"{name}={value!r} holds nested values ({type_name}); it must hold one "
            "number per row: the engines score 1-D binary forecasts (for a list of "
            "class probabilities, select the positive class's element)."
        )
    if kind:
        raise TypeError(
            f"{name}={value!r} holds {type_name} values; it must hold numbers: cast "
            "the column to a number type first."
        )


def check_labels(value: Any, kind: str, type_name: str) -> None:
    """Raise the TypeError of a ``y`` column of nested values (``kind``, as
    for :func:`check_numbers`): one label per row."""
    if kind == "nested":
        raise TypeError(
            f"y={value!r} holds nested values ({type_name}); it must hold one label "
            "per row (the engines score 1-D binary outcomes)."
        )


def check_group_by(group_by: Any, columns: Sequence[str] | None) -> list[str]:
    """``group_by`` (None, a column name or a list of them) as a list of names."""
    if group_by is None:
        return []
    if not isinstance(group_by, str | list | tuple):
        raise TypeError(
            "group_by must be a column name (str) or a list of them, got "
            f"{type(group_by).__name__}."
        )
    keys = [group_by] if isinstance(group_by, str) else list(group_by)
    if not keys:
        raise ValueError("group_by is empty: give a column name, a list of them or None.")
    for i, k in enumerate(keys):
        check_column(k, "group_by", columns)
        if k in keys[:i]:
            raise ValueError(
                f"group_by names the column {k!r} twice: give each column once."
            )
    return keys


def check_reserved(keys: Sequence[str]) -> None:
    """Raise the ValueError of a group column whose name starts with
    :data:`PREFIX`: the table engines keep the group columns under their own
    names beside their logical columns (``__skbrier_y``, ...), so such a name
    could read the wrong column."""
    for k in keys:
        if k.startswith(PREFIX):
            raise ValueError(
                f"the group column {k!r} (group_by, or the report's groups and segments) "
                f"has a name starting with {PREFIX!r}, which skbrier reserves for its own "
                "columns: rename the column first."
            )


def subgroup_keys(groups: Any, segments: Any, columns: Sequence[str] | None) -> list[str]:
    """The columns of a report's ``groups`` (one name) and ``segments`` (a
    name or a list of them), checked, in order and without repeats: the
    columns to fetch with ``y``, ``p`` and the weights (``columns`` None:
    not known yet)."""
    if groups is not None:
        check_column(groups, "groups", columns)
    names = (
        [] if segments is None else [segments] if isinstance(segments, str) else segments
    )
    if not isinstance(names, list | tuple):
        raise TypeError(
            "segments must be a column name or a list of them, got "
            f"{type(segments).__name__}."
        )
    if segments is not None and not names:
        raise ValueError("segments is empty: give a column name, a list of them or None.")
    for name in names:
        check_column(name, "segments", columns)
    return list(dict.fromkeys([*([] if groups is None else [groups]), *names]))


def report_subgroups(columns: Mapping[str, Any], groups: Any, segments: Any) -> dict:
    """``groups=`` and ``segments=`` of the in-memory report from the fetched
    ``columns`` (``{name: values}``): the ``groups`` column, and ``segments``
    as ``{name: values}`` (the names shown by the multicalibration error)."""
    out: dict[str, Any] = {}
    if groups is not None:
        out["groups"] = columns[groups]
    if segments is not None:
        names = [segments] if isinstance(segments, str) else segments
        out["segments"] = {name: columns[name] for name in names}
    return out


# ----------------------------------------------------------------- statistics
@dataclasses.dataclass
class Statistic:
    """A statistic as the engines compute it.

    ``template``: a fresh state; ``aggs``: the aggregates per group and label
    (and per ``bins`` value when given); ``part(rows)``: the rows of one label
    (one per bin) to the state's sums; ``finish(state)``: the result;
    ``extra``: the state's keyword columns (``update(..., name=column)``) and
    the logical columns that hold them.
    """

    template: Any
    aggs: list[Agg]
    part: Callable[[list[dict]], Any]
    finish: Callable[[Any], Any]
    weighted: bool = False
    extra: dict[str, str] = dataclasses.field(default_factory=dict)
    bins: Term | None = None
    #: the logical column of ``y_proba``
    proba: str = "p"
    #: statistics of one model each, computed one query each and joined into
    #: the template (``aggs`` and ``part`` unused then)
    models: list[Statistic] | None = None
    #: whether the in-memory function warns of hard 0/1 forecasts
    #: (:func:`warn_hard`)
    hard: bool = False


@dataclasses.dataclass
class GivenStatistic:
    """The fast plan of 0/1 outcomes: ``aggs`` per group (their ``ok``
    includes ``y`` in {0, 1}) and ``finish(row)``, the kernel's finish of the
    group's sums."""

    aggs: list[Agg]
    finish: Callable[[dict], Any]
    #: whether the in-memory function warns of hard 0/1 forecasts
    hard: bool = False


class Source(Protocol):
    """An engine's input: the columns chosen and how to run aggregates."""

    #: the ``group_by`` columns (the keys of the result)
    keys: list[str]
    #: whether ``y`` has a numeric or boolean type (0/1 outcomes possible)
    numeric_labels: bool

    def run(self, aggs: list[Agg], *, by_label: bool, bins: Term | None) -> list[dict]:
        """The aggregates per group (and label, and bin), as dicts with the
        group columns (named by :func:`key_names`), :data:`LABEL` and :data:`BIN`."""

    def fetch(self, key: tuple) -> dict[str, Any]:
        """The logical columns (``y``, ``p``, ``w``, extras) of a group's rows."""

    def note(self, key: tuple, rows: bool = True) -> str:
        """What a message about group ``key`` appends (:func:`group_note`)."""


class TableSource:
    """What the DuckDB and Polars sources share: the checks of a call's
    columns (:meth:`__init__`, around the engine's :meth:`open`,
    :meth:`column`, :meth:`kinds` and :meth:`select`), a group's columns
    (:meth:`arrays`, from the engine's :meth:`fetched`) and note, and the
    in-memory report of the columns (:meth:`report`)."""

    #: the parameter that names each logical column (its messages say it;
    #: an extra column is named as ``p``)
    PARAMETERS = {"y": "y", "p": "p", "w": "weight", "r": "reference"}
    #: the input as a group's note names it (``where``: about its rows)
    input = ""
    where = ""
    keys: list[str]
    numeric_labels: bool
    weighted: bool

    def __init__(
        self,
        data: Any,
        y: Any,
        p: Any,
        weight: Any,
        group_by: Any,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """The input ``data`` (:meth:`open`) and the columns of a call: ``y``,
        ``p``, ``weight`` and the plan's ``extra`` columns (``{logical name:
        column}``), each one of the input's (:meth:`column`), ``group_by``,
        and numbers only in every column but ``y`` (:meth:`kinds`: no silent
        parse of text); the engine then selects them (:meth:`select`)."""
        frame, inputs, names = self.open(data, self.given(y, p, weight, extra), group_by)
        columns = {
            k: self.column(v, self.PARAMETERS.get(k, "p"), names) for k, v in inputs.items()
        }
        self.keys = check_group_by(group_by, names)
        check_reserved(self.keys)
        for k, (type_name, kind) in self.kinds(frame, columns).items():
            if k == "y":
                check_labels(inputs[k], kind, type_name)
            else:
                check_numbers(inputs[k], self.PARAMETERS.get(k, "p"), kind, type_name)
        self.weighted = "w" in inputs
        self.select(frame, columns)

    @staticmethod
    def given(y: Any, p: Any, weight: Any, extra: Mapping[str, Any] | None) -> dict:
        """The logical columns of a call that are given (not None): ``y``,
        ``p``, ``w`` (``weight``) and the plan's extra columns."""
        inputs = {"y": y, "p": p, "w": weight, **(extra or {})}
        return {k: v for k, v in inputs.items() if v is not None}

    def open(
        self, data: Any, inputs: dict[str, Any], group_by: Any
    ) -> tuple[Any, dict[str, Any], list[str]]:
        """``(frame, inputs, column names)`` of the engine's input ``data``
        (a TypeError for another type); ``inputs``: the logical columns."""
        raise NotImplementedError

    def column(self, value: Any, name: str, names: list[str]) -> Any:
        """The engine's reference to the column ``value`` of parameter
        ``name`` (an error when it is not one of ``names``)."""
        raise NotImplementedError

    def kinds(self, frame: Any, columns: dict[str, Any]) -> dict[str, tuple[str, str]]:
        """``{logical name: (type name, kind)}`` of the ``columns``
        (:meth:`column`'s) of ``frame``; the kind as :func:`check_numbers`
        reads it (``""``: numbers or booleans)."""
        raise NotImplementedError

    def select(self, frame: Any, columns: dict[str, Any]) -> None:
        """Keep the ``group_by`` columns and the logical ``columns`` of
        ``frame`` (under :data:`PREFIX` names) and set ``numeric_labels``."""
        raise NotImplementedError

    def fetched(self, key: tuple) -> Mapping[str, Any]:
        """The selected columns of the rows of group ``key`` (all rows
        without ``group_by``) by name, as numpy arrays."""
        raise NotImplementedError

    def arrays(self, key: tuple = ()) -> tuple[dict[str, Any], dict[str, Any]]:
        """The rows of group ``key`` (all rows without ``group_by``): the
        logical columns (``y``, ``p``, ``w``, extras) and the ``group_by``
        columns by name, as numpy arrays."""
        cols = self.fetched(key)
        logical = {n[len(PREFIX) :]: a for n, a in cols.items() if n.startswith(PREFIX)}
        return logical, {k: cols[k] for k in self.keys}

    def fetch(self, key: tuple) -> dict[str, Any]:
        return self.arrays(key)[0]

    def note(self, key: tuple, rows: bool = True) -> str:
        return group_note(self.keys, key, self.where if rows else self.input, rows)

    def report(self, groups: Any, segments: Any, kwargs: Mapping[str, Any]) -> Any:
        """:func:`skbrier.calibration_report` of all rows, its ``groups`` and
        ``segments`` from the ``group_by`` columns (the report's ``kwargs``)."""
        from ..report import calibration_report

        check_report_options(kwargs, REPORT_INPUTS)
        cols, by = self.arrays()
        by = report_subgroups(by, groups, segments)
        return calibration_report(
            cols["y"], cols["p"], sample_weight=cols.get("w"), **by, **kwargs
        )


#: the in-memory report's inputs that an engine's report takes as column
#: names, and what to pass instead
REPORT_INPUTS = {
    "y_true": "pass y=, the name of the outcome column",
    "y_proba": "pass p=, the name of the probability column",
    "sample_weight": "pass weight=, the name of the weight column",
}


def check_report_options(options: Mapping[str, Any], inputs: Mapping[str, str]) -> None:
    """Raise the TypeError of an in-memory input of the report passed as an
    option of an engine's report (``inputs``: its name -> what to pass)."""
    for arg, instead in inputs.items():
        if arg in options:
            raise TypeError(
                f"{arg} is not an option of calibration_report on an engine's input: "
                f"{instead}."
            )


def group_note(keys: list[str], key: tuple, where: str, rows: bool = True) -> str:
    """What a message about group ``key`` appends (nothing without
    ``group_by``): about its rows (``rows``: positions and counts are the
    group's), or about its result; ``where``: the input, as the note names it."""
    if not keys:
        return ""
    shown = key[0] if len(key) == 1 else key
    if not rows:
        return f"(In the group {keys}={shown!r} of {where}.)"
    return f"(Positions and counts are within the group {keys}={shown!r} of {where}.)"


def noted(call: Callable[[], Any], note: str) -> Any:
    """``call()``; its ValueError or TypeError (the in-memory error) with
    ``note`` appended (the group it is about; nothing added when empty).
    The error keeps its class (e.g. the report's ``SingleClassError``, which
    the command line catches)."""
    try:
        return call()
    except (ValueError, TypeError) as exc:
        if note and len(exc.args) == 1 and isinstance(exc.args[0], str):
            exc.args = (f"{exc.args[0]} {note}",)
        raise


def compute(source: Source, stat: Statistic, given: GivenStatistic | None = None) -> Any:
    """The statistic of every group: the result (no ``group_by``) or a dict
    ``{key: result}`` (the key a value, or a tuple for several columns)."""
    results: dict[tuple, Any] | None = None
    if given is not None and source.numeric_labels:
        results = _try_given(source, given)
    if results is None:
        results = {
            key: noted(functools.partial(stat.finish, s), source.note(key, rows=False))
            for key, s in group_states(source, stat).items()
        }
    return by_group(source.keys, results)


def by_group(
    keys: Sequence[str], values: Mapping[tuple, Any], proba: str = "y_proba"
) -> Any:
    """The result of a call from the value of each group: the value (no
    ``group_by`` columns ``keys``) or ``{key: value}`` in the order of the
    keys, missing values last (a key is the value of the group column, or a
    tuple of the values of the ``group_by`` columns).

    Without ``group_by`` and without rows: the in-memory error of empty
    input, naming the probabilities ``proba``.
    """
    if not keys:
        if () not in values:  # no rows: "y_proba is empty", as in memory
            check_probabilities(np.empty(0), name=proba)
        return values[()]
    out = {}
    for k, v in values.items():
        k = tuple(_canonical(x) for x in k)
        out[k[0] if len(k) == 1 else k] = v
    return dict(sorted(out.items(), key=lambda kv: _order(kv[0])))


#: the one NaN of the groups' keys (NaN is unequal to itself: a dict finds
#: a NaN key only by identity)
_NAN = float("nan")


def _canonical(value: Any) -> Any:
    """A group key's value, NaN as :data:`_NAN`."""
    return _NAN if isinstance(value, float) and value != value else value


def _order(key: Any) -> tuple:
    """The sort key of a group's key: by type, then value; NaN after the
    numbers, missing last."""
    parts = key if isinstance(key, tuple) else (key,)
    return tuple(
        (2, "", 0)
        if v is None
        else (1, "", 0)
        if isinstance(v, float) and v != v
        else (0, type(v).__name__, v)
        for v in parts
    )


def group_states(source: Source, stat: Statistic) -> dict[tuple, Any]:
    """The state of every group (one query, or one per model)."""
    if stat.models is None:
        aggs = stat.aggs + (hard_aggs(col(stat.proba)) if stat.hard else [])
        rows = source.run(aggs, by_label=True, bins=stat.bins)
        warn_hard(rows, source.keys)
        return _states(source, stat, rows)
    per_model = [group_states(source, m) for m in stat.models]
    return {
        key: _joined(stat.template, [s[key] for s in per_model]) for key in per_model[0]
    }


def _joined(template: Any, states: list[Any]) -> Any:
    """The template (a state of several models) holding, per label, the sums
    of each model's state (the same rows: the same labels and totals)."""
    first = states[0]
    out = copy.deepcopy(template)
    for name in ("n_samples", "total_weight", "weighted", "_label_dtype"):
        setattr(out, name, getattr(first, name))
    out._rows = dict(first._rows)
    out._sums = {lab: tuple(s._sums[lab][0] for s in states) for lab in first._sums}
    return out


def key_names(keys: Sequence[str]) -> list[str]:
    """The reserved names of the ``group_by`` columns in an engine's rows."""
    return [f"{KEY}{i}" for i in range(len(keys))]


def _key(row: Mapping, keys: list[str]) -> tuple:
    return tuple(_canonical(row[k]) for k in key_names(keys))


def _try_given(source: Source, given: GivenStatistic) -> dict[tuple, Any] | None:
    """The given plan's results, or None when a group is not plainly valid
    (the general plan then decides, with the in-memory errors)."""
    aggs = given.aggs + (hard_aggs(col("p")) if given.hard else [])
    rows = source.run(aggs, by_label=False, bins=None)
    for row in rows:
        w = row["w"]
        if (
            row["ok"] != 1
            or not row["rows"]
            or w is None
            or not ordinary_weight(w, row["rows"])
        ):
            return None
    warn_hard(rows, source.keys)
    return {_key(row, source.keys): given.finish(row) for row in rows}


def ordinary_weight(total: float, n: int) -> bool:
    """Whether a group's weights (``total`` over ``n`` rows) sum to a finite
    positive number whose mean is a normal float: else the sums of the
    products ``w * x`` lose digits or overflow (the states' error decides)."""
    return 0.0 < total < math.inf and total / n >= _SMALLEST_NORMAL


_SMALLEST_NORMAL = float(np.finfo(np.float64).smallest_normal)


def warn_hard(rows: list[dict], keys: list[str] | None) -> None:
    """The in-memory :class:`~skbrier.exceptions.HardForecastWarning`, once,
    when every forecast of a group of at least two rows is exactly 0 or 1
    (as a call per group would warn; the rows of a group may come per label
    and bin, or, ``keys`` None, each row is a group's; rows without the
    ``hard`` aggregate: no check)."""
    groups: dict[Any, list[int]] = {}
    for i, row in enumerate(rows):
        if "hard" not in row:
            return
        g = groups.setdefault(i if keys is None else _key(row, keys), [0, 1])
        g[0] += int(row["rows"])
        g[1] &= int(row["hard"] == 1)
    if any(n >= 2 and hard for n, hard in groups.values()):
        from .._core.diagnose import warn_once
        from .._core.hard import hard_forecast_message
        from ..exceptions import HardForecastWarning

        warn_once(hard_forecast_message("y_proba"), HardForecastWarning)


def _bad_label(label: Any) -> bool:
    return label is None or (isinstance(label, float) and not math.isfinite(label))


def _states(source: Source, stat: Statistic, rows: list[dict]) -> dict[tuple, Any]:
    """One state per group from the engine's rows (bad groups: the in-memory
    error from ``update`` on the group's rows)."""
    groups: dict[tuple, dict[Any, list[dict]]] = {}
    for row in rows:
        label = row[LABEL]
        if isinstance(label, decimal.Decimal):  # a DECIMAL label: the float numpy reads
            label = float(label)
        groups.setdefault(_key(row, source.keys), {}).setdefault(label, []).append(row)
    out = {}
    for key, labels in groups.items():
        bad = any(
            _bad_label(lab) or any(r["ok"] != 1 for r in parts)
            for lab, parts in labels.items()
        )
        out[key] = _from_rows(source, stat, key) if bad else _filled(stat, labels)
    return out


def _filled(stat: Statistic, labels: dict[Any, list[dict]]) -> Any:
    """The template filled with the sums of each label, as ``update`` would."""
    from .._core.validation import _target_array

    state = copy.deepcopy(stat.template)
    state._label_dtype = _target_array(np.asarray(list(labels)), check_finite=False).dtype
    # sums of weights near the largest float may overflow (the state's finish
    # raises the in-memory error of their total): numpy must not warn
    with np.errstate(over="ignore", invalid="ignore"):
        for label, parts in labels.items():
            rows = sum(int(r["rows"]) for r in parts)
            state.n_samples += rows
            state.total_weight += float(sum(r["w"] for r in parts))
            state._put(label, stat.part(parts), rows)
    state.weighted = stat.weighted
    return state


def _from_rows(source: Source, stat: Statistic, key: tuple) -> Any:
    """The state of a group from its rows through ``update`` (the in-memory
    checks and messages, with the source's note appended)."""
    cols = source.fetch(key)
    extra = {name: cols[logical] for name, logical in stat.extra.items()}
    state = copy.deepcopy(stat.template)
    return noted(
        lambda: state.update(cols["y"], cols[stat.proba], cols.get("w"), **extra),
        source.note(key),
    )


def finish_given(given: GivenStatistic, rows: Any, weighted: bool) -> list[Any]:
    """The given plan's finish of each row of sums (the Polars expressions):
    a group that is empty, holds invalid rows or weighs nothing raises."""
    from ..states._base import check_total_weight

    out = []
    for row in rows:
        if not row["rows"]:
            check_probabilities(np.empty(0))  # "y_proba is empty"
        if row["ok"] != 1:
            raise ValueError(
                "a group holds invalid rows: y must hold 0/1 outcomes (or booleans), "
                "p probabilities in [0, 1]"
                + (", the weights finite non-negative numbers" if weighted else "")
                + ", without nulls or NaN; the functions of skbrier.engines name the "
                "first invalid row."
            )
        if weighted:  # zero, overflowing or subnormal weights: the states' errors
            check_total_weight(row["w"], row["rows"])
        out.append(given.finish(row))
    return out


def column_inputs(column: str, weight: str) -> str:
    """The docstring lines of the ``y``, ``p`` and ``weight`` parameters of
    an engine's functions: ``column``, the type of a column parameter as
    the engine takes it, ``weight`` that of ``weight`` (with None)."""
    return f"""\
y : {column}, default="y"
    The outcome column: two labels (0/1, booleans, strings with
    ``pos_label``), as ``y_true`` of the in-memory functions.
p : {column}, default="p"
    The probability of the positive class, as ``y_proba``; read as
    float64 (a float32 column too, where the in-memory
    :func:`skbrier.brier_score` scores float32 in float32 as scikit-learn
    does: the two then differ by float32 rounding).
weight : {weight}, default=None
    Non-negative frequency weights, as ``sample_weight``."""


#: the options the engines' functions share, described once
OPTION_PIECES = {
    "group_by": """\
group_by : str, list of str or None, default=None
    Columns: one result per group, returned as a dict keyed by the group's
    value (a tuple for several columns).
pos_label : int, float, bool or str, default=None
    The positive class (scikit-learn's rule over each group's labels).""",
    "report_subgroups": """\
groups : str or None, default=None
    The column of each row's group: adds the subgroup section (``groups=``
    of :func:`skbrier.calibration_report`, the column's values as fetched;
    a missing value is refused there, as in memory).
segments : str, list of str or None, default=None
    Segmenting columns: the multicalibration error over them (``segments=``,
    a dict keyed by the column names).""",
    "uniform_bins": """\
n_bins : int, default=10
    Number of equal-width bins (``strategy="uniform"``).
strategy : "uniform" or array-like of bin edges, default="uniform"
    The bins (equal-mass bins need all forecasts first: refused).
right : bool, default=True
    A forecast on an inner edge goes to the lower bin (True) or the upper.""",
}


def with_pieces(pieces: Mapping[str, str]) -> Callable[[Any], Any]:
    """The docstring decorator of an engine: its own ``pieces``, the shared
    :data:`OPTION_PIECES` and the package's (:mod:`skbrier._core.docstrings`)."""
    return _with_pieces({**OPTION_PIECES, **pieces})
