"""The in-memory report that the Polars and DuckDB reports with
``groups="site"`` and ``segments=["site", "g"]`` must equal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import skbrier


def memory_report(column: Callable[[str], Any]) -> Any:
    """:func:`skbrier.calibration_report` of the columns ``y``, ``p``, ``w``
    (weights), ``site`` (groups) and ``site``, ``g`` (segments), with
    ``n_bins=5``; ``column(name)``: the column as a numpy array."""
    return skbrier.calibration_report(
        column("y"),
        column("p"),
        sample_weight=column("w"),
        groups=column("site"),
        segments={"site": column("site"), "g": column("g")},
        n_bins=5,
    )
