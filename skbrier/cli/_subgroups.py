"""``skbrier report --subgroup-col``: the columns of the report's subgroup section.

The first ``--subgroup-col`` is the ``groups=`` of
:func:`skbrier.report.calibration_report` (one row per value in the
subgroup table), and all of them together its ``segments=`` (the
multicalibration error).  A missing value is a group of its own,
``(missing)``, so the report keeps every row; a note says how many.  The
labels are the file's text (stripped) or the numbers as numpy prints a
float64 (:func:`labels`), whichever engine reads the file.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "MISSING",
    "labels",
    "missing_note",
    "note_unavailable",
    "subgroup_columns",
    "subgroup_kwds",
    "subgroup_notes",
]

#: the label of the rows with no value in a subgroup column
MISSING = "(missing)"
#: the engines whose reports have the subgroup section (the others note why not)
SECTION_ENGINES = ("memory", "polars", "duckdb")


def labels(values: np.ndarray) -> np.ndarray:
    """The subgroup labels of a column's values: numbers as numpy prints them
    as float64 (``1.0``), text stripped; a missing value (NaN, None, an NA
    spelling of :data:`._table.NA_VALUES`) is :data:`MISSING`.

    Examples
    --------
    >>> import numpy as np
    >>> labels(np.array([1, 2])).tolist(), labels(np.array([1e-05, np.nan])).tolist()
    (['1.0', '2.0'], ['1e-05', '(missing)'])
    >>> labels(np.array([" a", "NA", None], dtype=object)).tolist()
    ['a', '(missing)', '(missing)']
    """
    from ._table import NA_VALUES

    arr = np.asarray(values)
    if arr.dtype.kind in "iuf":
        arr = arr.astype(np.float64)
        return np.where(np.isnan(arr), MISSING, arr.astype(str))
    text = np.array(
        ["" if v is None else str(v).strip() for v in arr.tolist()], dtype=object
    )
    text[np.isin(text, NA_VALUES)] = MISSING
    return text.astype(str)


def subgroup_columns(table: Any, args: Any) -> dict[str, np.ndarray]:
    """``{column: labels}`` of every ``--subgroup-col`` (all rows of the file)."""
    out = {}
    for col in getattr(args, "subgroup_col", None) or []:
        c = table.columns[col]
        if hasattr(c, "codes"):  # text: levels and codes (-1: missing)
            out[col] = np.asarray([*map(str, c.levels), MISSING])[c.codes]
        else:  # numbers
            out[col] = labels(c)
    return out


def subgroup_kwds(columns: dict[str, np.ndarray] | None, rows: Any = None) -> dict:
    """``groups=`` and ``segments=`` of the report of ``rows`` (a mask, or
    None for every row); empty without ``--subgroup-col``."""
    if not columns:
        return {}
    segments = {k: v if rows is None else v[rows] for k, v in columns.items()}
    return {"groups": next(iter(segments.values())), "segments": segments}


def subgroup_notes(columns: dict[str, np.ndarray]) -> list[str]:
    """A note per subgroup column with missing values."""
    counts = {col: int(np.count_nonzero(v == MISSING)) for col, v in columns.items()}
    return [missing_note(col, n) for col, n in counts.items() if n]


def missing_note(column: str, n: int) -> str:
    """The note of ``n`` rows with no value in subgroup column ``column``."""
    return f"Subgroups: {n} rows with no value in column '{column}' form the group '{MISSING}'."


def note_unavailable(reports: dict, args: Any, engine: str) -> None:
    """Say in each report that ``--subgroup-col`` has no section with
    ``engine`` (one not in :data:`SECTION_ENGINES`)."""
    if getattr(args, "subgroup_col", None) and engine not in SECTION_ENGINES:
        from ..report._subgroups import unavailable_note

        for rep in reports.values():
            rep.notes.append(unavailable_note(f"--engine {engine}"))
