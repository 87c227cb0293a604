"""``skbrier report --subgroup-col``: the columns of the report's subgroup section.

The first ``--subgroup-col`` is the ``groups=`` of
:func:`skbrier.report.calibration_report` (one row per value in the
subgroup table), and all of them together its ``segments=`` (the
multicalibration error).  A missing value is a group of its own,
``(missing)``, so the report keeps every row; a note says how many.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "MISSING",
    "note_unavailable",
    "subgroup_columns",
    "subgroup_kwds",
    "subgroup_notes",
]

#: the label of the rows with no value in a subgroup column
MISSING = "(missing)"


def subgroup_columns(table: Any, args: Any) -> dict[str, np.ndarray]:
    """``{column: labels}`` of every ``--subgroup-col`` (all rows of the file)."""
    out = {}
    for col in getattr(args, "subgroup_col", None) or []:
        c = table.columns[col]
        if hasattr(c, "codes"):  # text: levels and codes (-1: missing)
            out[col] = np.asarray([*map(str, c.levels), MISSING])[c.codes]
        else:  # numbers
            out[col] = np.where(np.isnan(c), MISSING, c.astype(str))
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
    notes = []
    for col, labels in columns.items():
        n = int(np.count_nonzero(labels == MISSING))
        if n:
            notes.append(
                f"Subgroups: {n} rows with no value in column '{col}' form the "
                f"group '{MISSING}'."
            )
    return notes


def note_unavailable(reports: dict, args: Any, engine: str) -> None:
    """Say in each report that ``--subgroup-col`` has no section with ``engine``."""
    if getattr(args, "subgroup_col", None):
        from ..report._subgroups import unavailable_note

        for rep in reports.values():
            rep.notes.append(unavailable_note(f"--engine {engine}"))
