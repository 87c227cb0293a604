"""One map over the partitions of dask collections and one tree reduction.

``reduce_state(template, y_true, y_proba, sample_weight, **columns)`` builds
one task per partition that validates the rows and computes a mergeable
state (:mod:`skbrier.states`), merges the states in a tree (fan-in
``SPLIT_EVERY``) and computes the root with the current scheduler (the
active ``distributed.Client`` if any).  Each input partition is read once.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import os
import re
import warnings
from typing import Any

import numpy as np

from ..._core.diagnose import (
    held_warnings,
    names_rows,
    one_warning_per_call,
    warn_once,
)
from ..._core.progress import dask_tasks
from . import is_dask_input

__all__ = [
    "SPLIT_EVERY",
    "build_graph",
    "in_partition",
    "map_rows",
    "persist_limit",
    "precomputed",
    "reduce_state",
    "stats",
    "tree_reduce",
    "unwrap",
    "validated_rows",
]

SPLIT_EVERY = 8

#: counters of the passes over the data (read by the tests and the benchmark):
#: ``passes`` states reduced (:func:`reduce_state`), ``reductions`` other
#: map-reduces (:func:`tree_reduce`: the steps of the logistic fits),
#: ``reused`` states taken from :func:`precomputed`
stats = {"passes": 0, "reductions": 0, "reused": 0}

#: the states of :func:`precomputed` contexts: {(input ids, options key): state}
_PRECOMPUTED: dict = {}


def _input_key(y_true: Any, y_proba: Any, sample_weight: Any, columns: dict) -> tuple:
    return (
        id(y_true),
        id(y_proba),
        id(sample_weight),
        tuple(sorted((k, id(v)) for k, v in columns.items() if v is not None)),
    )


def persist_limit() -> float:
    """The most bytes of fit rows kept in memory between the passes of a fit:
    a quarter of the memory of the workers of the active ``distributed``
    client (of this machine without one).  Beyond it every pass reads the
    data again (nothing is held between passes)."""
    try:
        from distributed import get_client

        info = get_client().scheduler_info()
        mem = float(sum(w.get("memory_limit", 0) or 0 for w in info["workers"].values()))
    except (ImportError, ValueError):
        mem = 0.0
    if not mem > 0:
        try:
            mem = float(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, ValueError, OSError):  # pragma: no cover
            mem = 4.0 * 2**30
    return 0.25 * mem


@contextlib.contextmanager
def precomputed(
    states: Any, y_true: Any, y_proba: Any, sample_weight: Any = None, **columns
):
    """Within the context, :func:`reduce_state` of these inputs (the same
    objects) and of a template with the options of one of ``states`` returns
    that state instead of reading the data again.

    This is how a computation made of several statistics (the calibration
    report) reads its data once: it reduces a :class:`~skbrier.states.StateBundle`
    first, then calls the public functions, which find their states here.
    """
    inputs = _input_key(y_true, y_proba, sample_weight, columns)
    keys = [(inputs, s.options_key()) for s in states]
    keep = (y_true, y_proba, sample_weight, columns)  # ids stay valid in the context
    for key, s in zip(keys, states):
        _PRECOMPUTED[key] = s
    try:
        yield keep
    finally:
        for key in keys:
            _PRECOMPUTED.pop(key, None)


class _Part:
    """The state of partitions with the warnings their validation held back
    (:func:`~skbrier._core.diagnose.held_warnings`), given once for the whole
    data by :meth:`give` (each partition's copy of a warning was given once
    per partition, and from a worker process not at all).  A state judges
    whether every forecast is 0 or 1 over all the rows itself, in its
    finish (the one HardForecastWarning)."""

    def __init__(self, state: Any, held: list) -> None:
        self.state = state
        self.other: dict = dict.fromkeys(held)

    def merge(self, other: _Part) -> _Part:
        self.state = self.state.merge(other.state)
        for k in other.other:
            self.other.setdefault(k)
        return self

    def give(self) -> None:
        """Give each held warning once."""
        for message, category, key in self.other:
            warn_once(message, category, key)


class _Update:
    """``func(y, p, w, cols)`` of one partition: update a copy of ``template``
    (a :class:`_Part`); with ``transform``, of the rows ``(y, transform(y, p,
    w), w)`` (:func:`validated_rows` first)."""

    def __init__(self, template: Any, transform: Any = None) -> None:
        self.template = template
        self.transform = transform

    def __call__(self, y: Any, p: Any, w: Any, cols: dict) -> Any:
        if self.transform is not None:
            rows = validated_rows(p, w, self.template.proba_name)
            if rows is not None:
                p, w = self.transform(y, *rows), rows[1]
        with in_partition():
            with held_warnings() as held:
                state = copy.deepcopy(self.template).update(y, p, w, **cols)
            return _Part(state, held)


def validated_rows(p: Any, w: Any, name: str = "y_proba") -> tuple | None:
    """One partition's forecasts (1-D, checked as the states check them) and
    weights, as float64 arrays; None for an empty partition."""
    from ..._core.validation import _as_array, check_probabilities
    from ...states._chunks import _chunk_weights

    with in_partition():
        raw = _as_array(p, name)
        if raw.ndim == 2 and raw.shape[1] == 1:
            raw = raw[:, 0]
        if raw.shape[0] == 0:
            return None
        pv = check_probabilities(raw, name=name, warn_hard=False, source=p)
        return pv, _chunk_weights(w, pv.shape[0])


#: the partition whose rows are being read: ``(number, count, first row,
#: rows, index labels)``, the first row None where the partition sizes are
#: unknown, the labels those of a DataFrame partition (else None) (set by
#: :func:`_apply` and :func:`_apply_frame`, read by :func:`in_partition`)
_WHERE: contextvars.ContextVar[tuple | None] = contextvars.ContextVar(
    "skbrier_dask_partition", default=None
)


@contextlib.contextmanager
def _partition(where: tuple | None):
    token = _WHERE.set(where)
    try:
        yield
    finally:
        _WHERE.reset(token)


def _where_note(word: str = "index", index: int | None = None) -> str:
    """Where the partition being read lies in the whole dask input: its
    number, its rows where its offset is known, and the row of the whole
    input of the partition's ``index``."""
    where = _WHERE.get()
    if where is None:
        return "within one partition of the dask input"
    k, count, start, n_rows, labels = where
    note = (
        f"within one partition of the dask input: partition {k} of {count} "
        "(numbered from 0)"
    )
    if start is not None:
        if n_rows:
            note += f", its rows {start} to {start + n_rows - 1} of the whole input"
        if index is not None:
            note += f"; {word} {index} there is row {start + index} of the whole input"
    elif labels is not None and index is not None and 0 <= index < len(labels):
        note += f"; {word} {index} there is the row labelled {labels[index]!r}"
    return note


#: the first position a message names: ``index 6`` (1-D), ``row 6`` (2-D)
_INDEX = re.compile(r"\b(index|row) (\d+)\b")


@contextlib.contextmanager
def in_partition():
    """Validation of one partition: an in-memory error
    that names rows says which partition they are in and, where the
    partition's offset is known, which row of the whole input its first
    named position is."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        if type(exc) not in (ValueError, TypeError) or not names_rows(str(exc)):
            raise
        m = _INDEX.search(str(exc))
        note = _where_note(*((m.group(1), int(m.group(2))) if m else ()))
        # the in-memory message, whose positions and counts are the partition's
        raise type(exc)(f"{exc} (Positions and counts are {note}.)") from None


def _same_rows(parts: dict, what: str, advice: str) -> None:
    """Raise the ValueError of one partition of each input holding other
    numbers of rows (``what`` says why they may, ``advice`` what to pass)."""
    rows = {k: np.shape(v)[0] for k, v in parts.items() if v is not None and np.ndim(v)}
    if len(set(rows.values())) > 1:
        shown = ", ".join(f"{k} {n} rows" for k, n in rows.items())
        raise ValueError(f"{what} (one partition holds {shown}): {advice}")


def _apply(func: Any, where: tuple, y: Any, p: Any, w: Any, cols: dict) -> Any:
    # chunks of unknown sizes (`.to_dask_array()`) are paired by position
    _same_rows(
        {"y_true": y, "y_proba": p, "sample_weight": w, **cols},
        "the inputs are cut at different rows",
        "dask arrays of unknown chunk sizes are paired partition by partition. If "
        "they hold the same rows, pass the DataFrame columns themselves, or arrays "
        "of known chunk sizes (.to_dask_array(lengths=True)).",
    )
    with _partition((*where, np.shape(p)[0], None)):
        return func(y, p, w, cols)


def _apply_frame(
    func: Any, names: tuple, count: int, *cols: Any, partition_info: dict | None = None
) -> Any:
    """One DataFrame partition -> a one-row object Series holding ``func``'s result."""
    import pandas as pd

    kw = dict(zip(names, cols))
    # one partition of each column: the same divisions, other rows
    _same_rows(
        kw,
        "the columns hold different rows",
        "pass columns of the same rows, e.g. of one DataFrame filtered once, not "
        "one column filtered and another not.",
    )
    y, p, w = kw.pop("y_true"), kw.pop("y_proba"), kw.pop("sample_weight", None)
    k = (partition_info or {}).get("number")
    labels = getattr(p, "index", None)
    where = None if k is None else (k, count, None, np.shape(p)[0], labels)
    with _partition(where):
        return pd.Series([func(y, p, w, kw)], dtype=object)


def unwrap(state: Any) -> Any:
    """The result of one partition (DataFrame partitions wrap it in a Series)."""
    return state.iloc[0] if hasattr(state, "iloc") else state


def _merge(*states: Any) -> Any:
    out = unwrap(states[0])
    for s in states[1:]:
        out = out.merge(unwrap(s))
    return out


def _frame_level(func: Any, inputs: dict) -> list | None:
    """Per-partition states of DataFrame columns through one ``map_partitions``
    (the columns of one DataFrame are read together, in the same task), or
    None when the inputs are not all DataFrame columns."""
    cols = {k: v for k, v in inputs.items() if v is not None}
    if not all(is_dask_input(v) and not _is_array(v) for v in cols.values()):
        return None
    import dask.dataframe as dd
    import pandas as pd

    # columns of one frame (the same divisions); the others are cut by rows
    if len({v.divisions for v in cols.values()}) != 1:
        return None
    out = dd.map_partitions(
        _apply_frame,
        func,
        tuple(cols),
        next(iter(cols.values())).npartitions,
        *cols.values(),
        meta=pd.Series([], dtype=object),
        enforce_metadata=False,
        align_dataframes=False,
    )
    return list(out.to_delayed())


def _frames_as_arrays(inputs: dict) -> dict:
    """DataFrame columns that :func:`_frame_level` cannot read together (beside
    arrays, dask or host, or of frames partitioned differently) as dask arrays
    chunked by their partition lengths (computed), so that every input is cut
    at the same rows: a column's partitions and an array's chunks of the same
    total were compared partition by partition ("y_true has 13 samples but
    y_proba has 12")."""
    frames = [k for k, v in inputs.items() if is_dask_input(v) and not _is_array(v)]
    if not frames:
        return inputs
    with warnings.catch_warnings():
        # a string column (pandas' extension dtype) becomes an object array,
        # which the states read as the in-memory functions read the column:
        # dask's UserWarning about it reached the user
        warnings.filterwarnings(
            "ignore",
            "Dask currently has limited support for converting pandas extension dtypes",
            UserWarning,
        )
        return {
            k: v.to_dask_array(lengths=True) if k in frames else v
            for k, v in inputs.items()
        }


def _is_array(x: Any) -> bool:
    return type(x).__module__.startswith("dask.array")


def _unknown_chunks(x: Any) -> bool:
    return _is_array(x) and any(c != c for c in x.chunks[0])


def _sized_arrays(inputs: dict) -> dict:
    """Dask arrays of unknown chunk sizes (``df["y"].to_dask_array()``,
    ``.values``) get their sizes computed when the inputs beside them are cut
    otherwise (known chunks, other counts, host arrays); arrays of unknown
    sizes alone are cut alike and kept."""
    given = [v for v in inputs.values() if v is not None]
    if not any(_unknown_chunks(v) for v in given):
        return inputs
    alike = all(_unknown_chunks(v) for v in given) and (
        len({len(v.chunks[0]) for v in given}) == 1
    )
    if alike:
        return inputs
    return {
        k: v.compute_chunk_sizes() if _unknown_chunks(v) else v for k, v in inputs.items()
    }


def _partitions(name: str, x: Any, chunks: tuple | None) -> list:
    """The delayed partitions of ``x`` aligned with ``chunks`` (row chunks of
    the reference array, or None when unknown)."""
    import dask.array as da

    if x is None:
        return []
    if not is_dask_input(x):
        if chunks is None or any(c != c for c in chunks):
            raise TypeError(
                f"{name} is not a dask collection but the other inputs are dask "
                "DataFrame columns (partition sizes unknown); pass dask collections "
                "of the same DataFrame for every input."
            )
        arr = np.asarray(x)
        if arr.shape[0] != sum(chunks):
            raise ValueError(
                f"{name} has {arr.shape[0]} samples but y_proba has {sum(chunks)}; "
                "all inputs must have the same number of samples."
            )
        x = da.from_array(arr, chunks=(chunks,) + arr.shape[1:])
    if _is_array(x):
        if x.ndim == 2:
            x = x.rechunk({1: -1})
        if chunks is not None and x.chunks[0] != chunks and not any(c != c for c in chunks):
            if x.shape[0] != sum(chunks):
                raise ValueError(
                    f"{name} has {x.shape[0]} samples but y_proba has {sum(chunks)}; "
                    "all inputs must have the same number of samples."
                )
            x = x.rechunk({0: chunks})
        return list(x.to_delayed().ravel())
    return list(x.to_delayed())


def build_graph(
    template: Any,
    y_true: Any,
    y_proba: Any,
    sample_weight: Any = None,
    *,
    transform: Any = None,
    **columns,
):
    """The delayed root state (not computed) and the number of partitions
    (``transform``: see :func:`reduce_state`)."""
    from dask import delayed

    update = _Update(template, transform)
    level = map_rows(update, y_true, y_proba, sample_weight, **columns)
    return _tree(level, delayed(_merge, pure=True)), len(level)


def map_rows(
    func: Any, y_true: Any, y_proba: Any, sample_weight: Any = None, **columns
) -> list:
    """One delayed ``func(y, p, w, columns)`` per partition (not computed).

    The partitions of all inputs are aligned as in :func:`build_graph`; the
    results of DataFrame partitions come wrapped in a one-row Series
    (:func:`unwrap` them).
    """
    from dask import delayed

    inputs = {"y_proba": y_proba, "y_true": y_true, "sample_weight": sample_weight}
    inputs.update({k: v for k, v in columns.items() if v is not None})
    for k, v in inputs.items():
        if v is None:
            continue
        if isinstance(v, (str, bytes)):  # the in-memory message
            raise TypeError(f"{k} must be array-like, got a single string {v!r}.")
        if np.ndim(v) == 0:  # no rows to partition (was an IndexError)
            what = "a 0-d dask array" if _is_array(v) else f"{v!r}"
            raise ValueError(
                f"{k} must be an array of one value per row, got {what} (a scalar)."
            )
    frame_level = _frame_level(func, inputs)
    if frame_level is not None:
        return frame_level
    inputs = _sized_arrays(_frames_as_arrays(inputs))
    ref = next(v for v in inputs.values() if is_dask_input(v))
    if _is_array(ref):
        if ref.ndim == 2:
            ref = ref.rechunk({1: -1})
        chunks: tuple | None = ref.chunks[0]
    else:
        chunks = None
    parts = {k: _partitions(k, v, chunks) for k, v in inputs.items()}
    counts = {k: len(v) for k, v in parts.items() if v}
    n_parts = max(counts.values())
    for k, c in counts.items():
        if c != n_parts:
            raise ValueError(
                f"{k} has {c} partitions but the other inputs have {n_parts}; pass "
                "columns of the same dask DataFrame or arrays with the same chunks."
            )
    extra = [
        k for k in inputs if k not in ("y_proba", "y_true", "sample_weight") and parts[k]
    ]
    upd = delayed(_apply, pure=True)
    fn = delayed(func, traverse=False)
    starts = _starts(chunks, n_parts)
    return [
        upd(
            fn,
            (i, n_parts, starts[i]),
            parts["y_true"][i],
            parts["y_proba"][i],
            parts["sample_weight"][i] if parts["sample_weight"] else None,
            {k: parts[k][i] for k in extra},
        )
        for i in range(n_parts)
    ]


def _starts(chunks: tuple | None, n_parts: int) -> list[int | None]:
    """The first row of each partition in the whole input (None where a
    size before it is unknown)."""
    out: list[int | None] = []
    start: float = 0
    for i in range(n_parts):
        out.append(int(start) if start == start else None)
        size = chunks[i] if chunks is not None and i < len(chunks) else float("nan")
        start += size
    return out


def _tree(level: list, merge: Any) -> Any:
    """Merge the partition states in a tree of fan-in ``SPLIT_EVERY``."""
    if len(level) == 1:
        return merge(level[0])
    while len(level) > 1:
        level = [
            merge(*level[i : i + SPLIT_EVERY]) for i in range(0, len(level), SPLIT_EVERY)
        ]
    return level[0]


def tree_reduce(level: list, combine: Any) -> Any:
    """Compute ``combine(combine(a, b), c)...`` of the delayed ``level`` in a
    tree of fan-in ``SPLIT_EVERY`` (with the current scheduler)."""
    import dask
    from dask import delayed

    merge = delayed(functools.partial(_combine_all, combine), pure=True)
    stats["reductions"] += 1
    with dask_tasks():
        (out,) = dask.compute(_tree(level, merge))
    return out


def _combine_all(combine: Any, *parts: Any) -> Any:
    out = unwrap(parts[0])
    for x in parts[1:]:
        out = combine(out, unwrap(x))
    return out


@one_warning_per_call  # partitions validated apart: one warning per pass
def reduce_state(
    template: Any,
    y_true: Any,
    y_proba: Any,
    sample_weight: Any = None,
    *,
    transform: Any = None,
    **columns,
):
    """The merged state of all partitions (one pass over the data, or none
    when a :func:`precomputed` context holds it).

    ``transform(y, p, w)``: the state reads the forecasts it returns for each
    partition's validated forecasts ``p`` and weights ``w`` (a map of the
    forecasts, such as a recalibration, without a collection of its own).
    """
    import dask

    if _PRECOMPUTED and transform is None:
        key = (_input_key(y_true, y_proba, sample_weight, columns), template.options_key())
        hit = _PRECOMPUTED.get(key)
        if hit is not None:
            stats["reused"] += 1
            return copy.deepcopy(hit)
    stats["passes"] += 1
    root, _ = build_graph(
        template, y_true, y_proba, sample_weight, transform=transform, **columns
    )
    with dask_tasks("pass over the data"):
        (part,) = dask.compute(root)
    part.give()
    return part.state
