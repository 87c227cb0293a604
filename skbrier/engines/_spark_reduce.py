"""How :mod:`skbrier.engines.spark` reads a Spark DataFrame: the columns,
one Spark job per statistic, and the states merged on the executors.

Two ways, both giving the state that the same rows give through ``update``:

* :func:`partition_states` (every statistic): one ``mapInArrow`` over the
  partitions hands each partition's rows -- as Arrow record batches, turned
  into numpy arrays -- to a mergeable state's ``update``
  (:mod:`skbrier.states`: the kernel's reduce, the in-memory checks and
  messages), per group of ``group_by`` within the partition; the pickled
  states are merged on the executors in a tree, in partition order, and
  the driver receives the merged state (one job).  An error of one
  partition comes back as the in-memory error, with a note naming the
  columns;
* :func:`~skbrier.engines._spark_native.native_brier_sums` (the Brier score, Index and skill score of 0/1
  outcomes): the sums of :func:`~skbrier._core.kernels.brier.brier_reduce`
  -- :math:`\\sum w`, :math:`\\sum w (p - y)^2`, the class weights -- as
  Spark aggregations (the engine's code generation, no Python worker), with
  one more aggregate that shows every row valid; when it does not (a label
  other than 0/1, a probability outside [0, 1], NaN, a null, a bad weight),
  the caller takes the first way, which computes the general labels or
  raises the in-memory error.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import pickle
import types
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .._core.diagnose import names_rows
from .._core.params import DEFAULT_N_BINS
from ._common import (
    by_group,
    case_clash,
    check_group_by,
    check_labels,
    check_numbers,
    group_note,
    noted,
    with_pieces,
)
from ._functions import Engine, arguments, define
from ._statistics import reference_option

__all__ = [
    "SPARK",
    "Source",
    "doc",
    "finished",
    "partition_states",
    "per_group",
    "reference_columns",
    "source",
    "spark_function",
]

_DOC = {
    "inputs": """\
df : pyspark.sql.DataFrame
    The rows.
y : str, default="y"
    Column of the outcomes (two labels: 0/1, booleans, or any two
    values with ``pos_label``).
p : str, default="p"
    Column of the probabilities of the positive class.
weight : str, default=None
    Column of non-negative frequency weights (None: every row counts 1).""",
    "group_by": """\
group_by : str, list of str or None, default=None
    Column(s) whose values split the rows into groups: a result per
    group, in the same Spark job.
pos_label : int, float, bool or str, default=None
    The positive class (scikit-learn's rule over the labels when None).""",
    "raises": """\
Raises
------
TypeError
    ``df`` is not a Spark DataFrame or a column is not named by a str.
ValueError
    A column is not in ``df``, or the rows are invalid (the in-memory
    error, with a note naming the columns).""",
    "spark": """\
>>> from pyspark.sql import SparkSession  # doctest: +SKIP
>>> from skbrier.engines import spark as sbs  # doctest: +SKIP
>>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
>>> df = spark.createDataFrame(  # doctest: +SKIP
...     [(1, 0, 0.2), (1, 1, 0.7), (2, 1, 0.9), (2, 0, 0.4)], ["g", "y", "p"])""",
}

#: the options of the Spark functions of the statistics, with their defaults
_OPTIONS: dict[str, dict[str, Any]] = {
    "brier_score": {},
    "brier_index": {},
    "brier_skill_score": {"reference": None},
    "calibration_error": {
        "norm": "l1",
        "n_bins": DEFAULT_N_BINS,
        "strategy": "uniform",
        "binning": None,
        "debias": False,
        "right": True,
    },
    "calibration_bins": {"n_bins": DEFAULT_N_BINS, "strategy": "uniform", "right": True},
    "murphy_decomposition": {
        **{"n_bins": DEFAULT_N_BINS, "strategy": "uniform", "right": True},
        "bias_correction": False,
    },
    "corp_decomposition": {"resolution": None},
    "c_statistic": {"resolution": None},
    "spiegelhalter_z": {},
    "net_benefit": {"threshold": None, "prevalence": None},
    "decision_curve": {
        "thresholds": None,
        "prevalence": None,
        "harm": None,
        "confidence_level": 0.95,
    },
    "brier_inference": {"reference": None, "cov_type": "iid"},
}

#: the Spark side of the functions (:mod:`._functions`)
SPARK = Engine(
    "a Spark DataFrame's rows",
    (
        ("df", inspect.Parameter.empty, "Any"),
        ("y", "y", "str"),
        ("p", "p", "str"),
        ("weight", None, "str | None"),
    ),
    _DOC,
    reference=("Any", "str"),
    statistics=_OPTIONS,
    annotations={"calibration_error.strategy": "str"},
    raises="{{raises}}",
)

#: fill the shared texts (``{{inputs}}``, ...) of a docstring
doc = with_pieces(_DOC)


def spark_function(name: str, compute: Callable[[Any], Any], **texts: str) -> Any:
    """The public Spark function of statistic ``name``: ``compute`` of the
    call's arguments (a namespace: ``a.df``, ``a.y``, ``a.n_bins``, ...);
    ``texts``: the docstring's ``notes``, ``see_also`` and ``examples``
    (:func:`._functions.define`)."""

    def function(*args: Any, **kwargs: Any) -> Any:
        return compute(types.SimpleNamespace(**arguments(function, args, kwargs)))

    function.__module__ = compute.__module__
    return define(function, SPARK, name, **texts)


#: the kinds of the rows a partition sends back
_STATE, _ERROR = 0, 1
#: the last row of every partition (its partition id): the driver checks that
#: every partition's rows arrived (a collect cut short by the driver's memory
#: returns fewer rows without an error in PySpark)
_DONE = 2
#: a piece of a longer row (:func:`_pieces`), the rest follows
_PART = 3
#: the most bytes of a row's payload
_CHUNK = 1 << 20
#: the schema of those rows
_SCHEMA = "kind int, key binary, payload binary"


def _quote(name: str) -> str:
    """A column name as Spark parses it (no dots or backticks interpreted)."""
    return "`" + name.replace("`", "``") + "`"


def _col(name: str) -> Any:
    from pyspark.sql import functions as F

    return F.col(_quote(name))


def _check_frame(df: Any) -> None:
    mod = type(df).__module__
    if not (mod.startswith("pyspark.") and hasattr(df, "mapInArrow")):
        raise TypeError(
            f"df must be a Spark DataFrame (pyspark.sql.DataFrame), got "
            f"{type(df).__name__}; for arrays or pandas use skbrier's functions."
        )


def _check_column(value: Any, name: str, columns: Sequence[str]) -> str:
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be the name of a column (str), got {type(value).__name__}."
        )
    if value not in columns:
        shown = ", ".join(repr(c) for c in list(columns)[:20])
        raise ValueError(
            f"{name}={value!r} is not a column of the DataFrame; its columns are {shown}."
        )
    return value


@dataclasses.dataclass
class Source:
    """The DataFrame and the columns of a call.

    ``extra`` maps the keyword of a state's ``update`` (``reference``, the
    name of a further model) to its column; ``keys`` are the ``group_by``
    columns; ``names`` the names the in-memory messages use for the columns
    (``y_true``, ``y_proba``, ...), for the note of an error.
    """

    df: Any
    y: str
    p: str
    w: str | None
    extra: dict[str, str]
    keys: list[str]
    names: dict[str, str]

    def group(self, key: tuple) -> str:
        """What an error about the result of group ``key`` appends (nothing
        without ``group_by``)."""
        return group_note(self.keys, key, "the Spark DataFrame", rows=False)

    def note(self, more: str = "") -> str:
        """What an error of one partition adds: which column is which."""
        cols = ", ".join(f"{arg} is column {col!r}" for arg, col in self.names.items())
        return f"(Spark DataFrame: {cols}.{more})"


def source(
    df: Any,
    y: Any,
    p: Any,
    weight: Any,
    group_by: Any,
    extra: Mapping[str, Any] | None = None,
    *,
    p_name: str = "y_proba",
) -> Source:
    """The checked :class:`Source` of a call (TypeError/ValueError naming the
    parameter for a frame that is not a Spark DataFrame or a column that is
    not one of its columns)."""
    _check_frame(df)
    columns = list(df.columns)
    _check_column(y, "y", columns)
    _check_column(p, "p", columns)
    if weight is not None:
        _check_column(weight, "weight", columns)
    keys = check_group_by(group_by, None)  # its type; the names below
    for k in keys:
        _check_column(k, "group_by", columns)
    extra = dict(extra or {})
    for arg, col in extra.items():
        _check_column(col, arg, columns)
    names = {"y_true": y, p_name: p}
    if weight is not None:
        names["sample_weight"] = weight
    names.update(extra)
    _check_case(df, [y, p, *([] if weight is None else [weight]), *extra.values(), *keys])
    _check_nested(df, {"y": y, "p": p, "weight": weight, **extra})
    return Source(df, y, p, weight, extra, keys, names)


def _check_nested(df: Any, columns: Mapping[str, str | None]) -> None:
    """The engines' TypeError of a column of arrays, maps, structs or ML
    vectors (``{parameter: column}``): one value per row (the in-memory
    check of such rows called them "ragged")."""
    from pyspark.sql import types as T

    nested = (T.ArrayType, T.MapType, T.StructType, T.UserDefinedType)
    kinds = {f.name: f.dataType for f in df.schema.fields}
    for arg, column in columns.items():
        if column is None or not isinstance(kinds[column], nested):
            continue
        shown = kinds[column].simpleString()
        if arg == "y":
            check_labels(column, "nested", shown)
        check_numbers(column, arg, "nested", shown)


def _check_case(df: Any, used: Sequence[str]) -> None:
    """The ValueError of a column ``used`` equal to another but for case, where
    Spark ignores case (``spark.sql.caseSensitive=false``, its default)."""
    clash = case_clash(df.columns, used)
    if clash and df.sparkSession.conf.get("spark.sql.caseSensitive", "false") != "true":
        raise ValueError(
            f"the columns {clash[0]!r} and {clash[1]!r} differ only in case: Spark cannot "
            "tell them apart (spark.sql.caseSensitive=false, its default); rename one "
            "of them first (df.toDF(*names) renames by position), or set "
            "spark.sql.caseSensitive=true."
        )


def reference_columns(reference: Any) -> tuple[dict[str, str], float | None]:
    """``reference`` of a call as ``(extra columns, constant rate)``: a
    column (``{"reference": column}``), a rate in [0, 1] (checked) or
    neither (None: climatology), by :func:`._statistics.reference_option`'s
    rule."""
    ref = reference_option(reference)
    if isinstance(ref, str):  # "r": a column
        return {"reference": reference}, None
    return {}, ref


# --------------------------------------------------------------------------
# one mapInArrow: the state of every partition (and group)
# --------------------------------------------------------------------------


def _numpy(chunked: Any) -> np.ndarray:
    """An Arrow column as the numpy array pandas would give (nulls: NaN for
    numbers, None for strings), decimals as float64."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = chunked.combine_chunks() if isinstance(chunked, pa.ChunkedArray) else chunked
    if pa.types.is_decimal(arr.type):
        arr = pc.cast(arr, pa.float64())
    return np.asarray(arr.to_numpy(zero_copy_only=False))


def _groups(tbl: Any, keys: Sequence[str]) -> list[tuple[tuple, np.ndarray | None]]:
    """``[(key values, row indices or None for all rows), ...]`` of a table."""
    import pyarrow.compute as pc

    if not keys:
        return [((), None)]
    codes, values = [], []
    for name in keys:
        col = tbl.column(name).combine_chunks()
        enc = pc.dictionary_encode(col, null_encoding="encode")
        codes.append(np.asarray(enc.indices.to_numpy(zero_copy_only=False), np.int64))
        values.append(enc.dictionary.to_pylist())
    uniq, inv = np.unique(np.stack(codes, axis=1), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    order = np.argsort(inv, kind="stable")  # rows keep their order in a group
    parts = np.split(order, np.cumsum(np.bincount(inv, minlength=uniq.shape[0]))[:-1])
    return [
        (tuple(values[j][int(code[j])] for j in range(len(keys))), idx)
        for code, idx in zip(uniq, parts)
    ]


def _hard_count(p: Any) -> int:
    """Forecasts exactly 0 or 1 (for the whole-data HardForecastWarning)."""
    p = np.asarray(p)
    if p.dtype.kind not in "biuf":
        return 0
    return int(np.count_nonzero((p == 0) | (p == 1)))


def _batch(kind: int, key: bytes, payload: bytes) -> Any:
    import pyarrow as pa

    return pa.RecordBatch.from_arrays(
        [
            pa.array([kind], pa.int32()),
            pa.array([key], pa.binary()),
            pa.array([payload], pa.binary()),
        ],
        names=["kind", "key", "payload"],
    )


def _pieces(kind: int, key: bytes, payload: bytes, chunk: int) -> Iterator[Any]:
    """The batches of one row: a payload longer than ``chunk`` bytes is sent
    as ``_PART`` rows of that size followed by the row of ``kind`` with the
    rest (the JVM holds, and pickles for ``.rdd``, one small row at a time:
    a table of a million forecasts is 24 MB); :meth:`_Merged.of_rows`
    joins them."""
    ends = range(chunk, len(payload), chunk)
    start = 0
    for end in ends:
        yield _batch(_PART, key, payload[start:end])
        start = end
    yield _batch(kind, key, payload[start:])


class _PartitionStates:
    """The ``mapInArrow`` function: a partition's record batches to one row
    per group, ``(kind, pickled key, pickled (state, rows, hard, warnings))``
    or an error row ``(kind, pickled key, pickled exception)``."""

    def __init__(self, template: Any, n_keys: int, weighted: bool, extra: tuple) -> None:
        self.template = pickle.dumps(template)
        self.n_keys = n_keys
        self.weighted = weighted
        self.extra = extra
        self.chunk = _CHUNK

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        yield from self._states(batches)
        from pyspark import TaskContext

        ctx = TaskContext.get()
        part = -1 if ctx is None else int(ctx.partitionId())
        yield _batch(_DONE, b"", pickle.dumps(part))

    def _states(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        kept = [b for b in batches if b.num_rows]
        if not kept:
            return
        tbl = pa.Table.from_batches(kept)
        del kept
        y, p = _numpy(tbl.column("y")), _numpy(tbl.column("p"))
        w = _numpy(tbl.column("w")) if self.weighted else None
        extra = {name: _numpy(tbl.column(f"x{j}")) for j, name in enumerate(self.extra)}
        keys = [f"k{j}" for j in range(self.n_keys)]
        for key, idx in _groups(tbl, keys):
            yield from _pieces(*self._state(key, idx, y, p, w, extra), self.chunk)

    def _state(self, key, idx, y, p, w, extra) -> tuple[int, bytes, bytes]:
        def take(a: Any) -> Any:
            return a if idx is None or a is None else a[idx]

        kb = pickle.dumps(key)
        pg = take(p)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                state = pickle.loads(self.template).update(
                    take(y), pg, take(w), **{k: take(v) for k, v in extra.items()}
                )
        except (ValueError, TypeError) as exc:
            return _ERROR, kb, pickle.dumps(exc)
        from ..exceptions import HardForecastWarning

        shown = [
            (wr.category, str(wr.message))
            for wr in caught
            if not issubclass(wr.category, HardForecastWarning)
        ]
        info = (state, int(pg.shape[0]), _hard_count(pg), shown)
        return _STATE, kb, pickle.dumps(info)


def _raise(exc: BaseException, src: Source) -> None:
    """Raise the error of a partition: the in-memory message and the note."""
    if type(exc) not in (ValueError, TypeError):
        raise exc
    where = (
        " Positions and counts are within one partition." if names_rows(str(exc)) else ""
    )
    raise type(exc)(f"{exc} {src.note(where)}") from None


def _warn_hard(rows: int, hard: int, name: str) -> None:
    """The in-memory HardForecastWarning when every forecast is exactly 0 or 1."""
    if rows >= 2 and hard == rows:
        from .._core.diagnose import warn_once
        from .._core.hard import hard_forecast_message
        from ..exceptions import HardForecastWarning

        warn_once(hard_forecast_message(name), HardForecastWarning)


def partition_states(src: Source, template: Any) -> dict[tuple, Any]:
    """``{group key: merged state}`` (``{(): state}`` without ``group_by``;
    empty for a DataFrame without rows): one Spark job.

    Each partition updates a copy of ``template`` per group with its rows
    (validated there, as in memory); the states are merged on the executors,
    in partition order, in a tree of at most :data:`_FAN` results per task
    (:func:`_merge_tree`), so the driver receives one merged result: its
    memory does not grow with the number of partitions.  The first partition
    that fails raises its in-memory error (with :meth:`Source.note`).
    """
    cols = [_col(src.y).alias("y"), _col(src.p).alias("p")]
    if src.w is not None:
        cols.append(_col(src.w).alias("w"))
    cols += [_col(c).alias(f"x{j}") for j, c in enumerate(src.extra.values())]
    cols += [_col(k).alias(f"k{j}") for j, k in enumerate(src.keys)]
    fn = _PartitionStates(template, len(src.keys), src.w is not None, tuple(src.extra))
    # one RDD for the partition count and the job: a shuffled input is
    # planned (and, under adaptive execution, its shuffle run) once
    mapped = src.df.select(*cols).mapInArrow(fn, _SCHEMA).rdd
    n_parts = mapped.getNumPartitions()
    got = _merge_tree(mapped.mapPartitionsWithIndex(_Merged.of_rows), n_parts).collect()
    acc = got[0][1] if got else _Merged()
    check_complete(sorted(acc.done), n_parts)
    if acc.error is not None:
        _raise(pickle.loads(acc.error), src)
    for category, message in acc.shown:
        warnings.warn(message, category, stacklevel=3)
    if getattr(template, "warns_hard", True):  # not the decision-curve states
        for n, hard in acc.counts.values():
            _warn_hard(n, hard, getattr(template, "proba_name", "y_proba"))
    return acc.states


#: the most partition results one task of the merge tree combines
_FAN = 8


@dataclasses.dataclass
class _Merged:
    """The rows of some consecutive partitions reduced: ``{key: state}``, the
    rows and hard forecasts per key, the warnings shown, the ids of the
    partitions done and the pickled error of the first failing one."""

    states: dict[tuple, Any] = dataclasses.field(default_factory=dict)
    counts: dict[tuple, list[int]] = dataclasses.field(default_factory=dict)
    shown: dict[tuple, None] = dataclasses.field(default_factory=dict)
    done: set[int] = dataclasses.field(default_factory=set)
    error: bytes | None = None

    @classmethod
    def of_rows(cls, index: int, rows: Iterator[Any]) -> Iterator[tuple]:
        """``[(index, _Merged)]`` of one partition's rows (``mapPartitionsWithIndex``)."""
        acc = cls()
        parts: list[bytes] = []
        for row in rows:
            if row["kind"] == _PART:
                parts.append(row["payload"])
                continue
            payload = b"".join([*parts, row["payload"]]) if parts else row["payload"]
            parts = []
            if row["kind"] == _DONE:
                acc.done.add(pickle.loads(payload))
            elif row["kind"] == _ERROR:
                acc.error = acc.error or payload
            else:
                state, n_rows, n_hard, shown = pickle.loads(payload)
                acc.add(pickle.loads(row["key"]), state, n_rows, n_hard)
                acc.shown.update(dict.fromkeys(shown))
        yield index, acc

    def add(self, key: tuple, state: Any, n_rows: int, n_hard: int) -> None:
        """Merge one group's state (of later rows) into this result."""
        self.states[key] = self.states[key].merge(state) if key in self.states else state
        c = self.counts.setdefault(key, [0, 0])
        c[0] += n_rows
        c[1] += n_hard

    def merge(self, other: _Merged) -> _Merged:
        """This result followed by ``other`` (later partitions)."""
        for key, state in other.states.items():
            self.add(key, state, *other.counts[key])
        self.shown.update(other.shown)
        self.done |= other.done
        self.error = self.error or other.error
        return self


def _merge_tree(rdd: Any, n: int) -> Any:
    """The RDD of ``(index, _Merged)``, one per partition, merged level by level
    on the executors (each task merges at most :data:`_FAN` neighbours, in
    partition order) down to one partition holding ``(0, merged)``."""
    while n > 1:
        n = -(-n // _FAN)
        rdd = (
            rdd.map(_parent)
            .partitionBy(n, _identity)
            .mapPartitions(_merge_children, preservesPartitioning=True)
        )
    return rdd


def _parent(item: tuple) -> tuple:
    return item[0] // _FAN, item


def _identity(key: int) -> int:
    return key


def _merge_children(items: Iterator[tuple]) -> Iterator[tuple]:
    """``(parent, merged)`` of the ``(parent, (index, _Merged))`` of one task."""
    ordered = sorted(items, key=lambda kv: kv[1][0])
    if ordered:
        yield ordered[0][0], _merged([acc for _, (_, acc) in ordered])


def check_complete(done: list[int], n_partitions: int) -> None:
    """Raise when the rows of some partition did not reach the driver.

    PySpark's ``collect`` ends quietly when the JVM thread serving the rows
    dies (e.g. ``OutOfMemoryError: Java heap space`` on the driver), so the
    states of the partitions served after it would be missing from the merge:
    a number computed on part of the data.  Every partition ends with its id
    (``_DONE``); all ``n_partitions`` ids must be there.

    Examples
    --------
    >>> check_complete([0, 1, 2], 3)
    >>> check_complete([0], 3)
    Traceback (most recent call last):
    ...
    RuntimeError: Spark returned the states of 1 of 3 partitions: ...
    """
    got = len(set(done))
    if got < n_partitions:
        raise RuntimeError(
            f"Spark returned the states of {got} of {n_partitions} partitions: the "
            "driver did not receive them all (see the Spark log: e.g. 'Java heap "
            "space' on the driver). Nothing is computed on part of the data. An "
            "exact table of distinct forecasts (c_statistic, corp_decomposition, "
            "calibration_report with resolution=None) takes about 24 bytes per "
            "distinct forecast and class: pass resolution='auto', raise "
            "spark.driver.memory or round the forecasts (e.g. F.round(p, 4))."
        )


def _merged(states: list[Any]) -> Any:
    """The states merged pairwise, neighbours first (partition order kept):
    log2(partitions) rounds, so sorted summaries such as the table of
    distinct forecasts are merged in O(n log n log P), not O(n P log n)."""
    while len(states) > 1:
        pairs = [a.merge(b) for a, b in zip(states[::2], states[1::2])]
        states = pairs + states[len(pairs) * 2 :]
    return states[0]


def finished(src: Source, template: Any, finish: Callable[[Any], Any]) -> Any:
    """The result of a call: ``finish(merged state)`` of every group (one
    Spark job, :func:`partition_states`), as :func:`per_group` gives it."""
    states = partition_states(src, template)
    values = {
        k: noted(functools.partial(finish, s), src.group(k)) for k, s in states.items()
    }
    return per_group(src, values, template)


def per_group(src: Source, values: Mapping[tuple, Any], template: Any = None) -> Any:
    """The result of a call (:func:`._common.by_group`): the value (no
    ``group_by``) or ``{key: value}`` in the order of the keys; without rows
    the in-memory error of empty input, naming the probabilities as
    ``template`` (a fresh state) does."""
    return by_group(src.keys, values, getattr(template, "proba_name", "y_proba"))
