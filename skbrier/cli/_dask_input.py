"""``skbrier report --engine dask``: read a Parquet dataset directory (or a CSV
glob) through dask.dataframe, only the needed columns, and compute the report
with :func:`skbrier.report.calibration_report` on the dask columns.

Differences from the in-memory reader: ``--group-col``, ``--sep``,
``--decimal ,``, ``--encoding`` and ``--comment`` are not available; missing
values (NaN/None/NA) in the outcome, forecast or weight are dropped (``--na
drop``: a row missing any model's forecast for every model; ``--na per-model``:
per model; not counted) or refused after the pass (``--na error``, the
first offending row not located); the range of the forecasts and weights is
checked in the same pass as the statistics (error naming the column).
"""

from __future__ import annotations

import glob
import os
from typing import Any

import numpy as np

from ._common import CLIError, import_for_cli
from ._engines import (
    boolean_pos_label,
    refuse_percent_of_probabilities,
    refuse_unavailable_options,
)
from ._table import check_columns

__all__ = ["choose_engine", "dask_columns"]

#: ``--engine auto`` reads through dask when the input takes more than this
#: share of the available memory (in memory it needs several times its size)
AUTO_MEMORY_SHARE = 0.25


def _available_memory() -> float:
    try:
        import psutil

        return float(psutil.virtual_memory().available)
    except ImportError:
        try:
            return float(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, ValueError, OSError):  # pragma: no cover
            return float("inf")


def _input_bytes(path: str) -> int:
    if os.path.isdir(path):
        return sum(
            os.path.getsize(os.path.join(root, f))
            for root, _, files in os.walk(path)
            for f in files
        )
    return sum(os.path.getsize(f) for f in glob.glob(path) if os.path.isfile(f))


def _has_parquet(path: str) -> bool:
    return any(
        f.endswith((".parquet", ".parq", ".pq"))
        for _, _, files in os.walk(path)
        for f in files
    )


def choose_engine(args) -> tuple[str, str | None]:
    """``(engine, why)`` of ``--engine``: ``auto`` reads a directory (a Parquet
    dataset), a glob or a file larger than a quarter of the available memory
    through dask when dask is installed, and the rest in memory; ``why`` is a
    line for standard error when ``auto`` chose dask."""
    engine = getattr(args, "engine", "memory")
    if engine != "auto":
        return engine, None
    path = args.file
    if path == "-":
        return "memory", None
    try:
        import dask.dataframe  # noqa: F401
    except ImportError:
        return "memory", None
    if os.path.isdir(path):
        if not _has_parquet(path):
            return "memory", None  # the in-memory reader's error
        return "dask", f"{path} is a directory: reading it as a dataset through dask"
    if not os.path.exists(path) and glob.glob(path):
        return "dask", f"{path} is a glob: reading the files through dask"
    if not os.path.isfile(path):
        return "memory", None
    size, avail = _input_bytes(path), _available_memory()
    if size > AUTO_MEMORY_SHARE * avail:
        return "dask", (
            f"{path} is {size / 2**30:.1f} GiB, more than a quarter of the "
            f"{avail / 2**30:.1f} GiB of available memory: reading it through dask"
        )
    return "memory", None


def _read(path: str, columns: list[str]) -> Any:
    dd = import_for_cli("dask.dataframe", needed_for="--engine dask")

    is_parquet = os.path.isdir(path) or path.endswith((".parquet", ".parq", ".pq"))
    if not is_parquet and not glob.glob(path):
        raise CLIError(f"{path}: no such file or directory.")
    try:
        # the schema first (metadata only), then only the needed columns
        frame = dd.read_parquet(path) if is_parquet else dd.read_csv(path)
    except (OSError, ValueError) as exc:
        raise CLIError(f"{path}: cannot read: {exc}") from None
    check_columns(path, list(frame.columns), columns, "dask")
    return frame[columns]


def dask_columns(args) -> tuple[list, dict]:
    """``([(name, y, p, w)], notes)``: dask Series per --p-col (rows with a
    missing value left out for every model, or per model with --na per-model)."""
    refuse_unavailable_options(args, "dask")
    cols = [args.y_col, *args.p_col] + ([args.weight_col] if args.weight_col else [])
    frame = _read(args.file, list(dict.fromkeys(cols)))
    y = frame[args.y_col]
    pos = args.pos_label
    if pos is not None and y.dtype.kind == "b":
        pos = boolean_pos_label(args)
    elif pos is not None and y.dtype.kind in "iuf":
        try:
            pos = float(pos)
        except ValueError:
            raise CLIError(
                f"--pos-label {pos!r} is not a label of '{args.y_col}'."
            ) from None
    if pos is None and y.dtype.kind == "b":
        pos = True
    jobs = []
    refuse_percent_of_probabilities(args, lambda c: _summary(frame[c]))
    if args.na == "drop":  # every model on the same rows (as in memory)
        frame = frame.dropna()
    for c in args.p_col:
        need = [args.y_col, c] + ([args.weight_col] if args.weight_col else [])
        sub = frame[list(dict.fromkeys(need))]
        if args.na == "per-model":
            sub = sub.dropna()
        p = sub[c].astype("float64")
        if args.percent:
            p = p / 100.0
        w = None if args.weight_col is None else sub[args.weight_col].astype("float64")
        jobs.append((c, sub[args.y_col], p, w))
    return jobs, {"pos_label": pos}


def _summary(col: Any) -> tuple[Any, Any, Any]:
    """The smallest and largest finite value of a dask column and a fraction
    among them (None where there is none), in one computation."""
    import dask

    x = col.astype("float64")
    x = x[np.isfinite(x)]
    lo, hi, fractions = dask.compute(
        x.min(), x.max(), x[x != x.round()].head(1, npartitions=-1)
    )
    return lo, hi, (fractions.iloc[0] if len(fractions) else None)
