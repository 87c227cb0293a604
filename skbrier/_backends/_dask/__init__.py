"""Dask support: dispatch test (free for numpy input) and, in submodules
imported lazily, the map-over-partitions + tree-reduction glue.

The public metric functions call :func:`is_dask_input` first and hand dask
input to :mod:`skbrier._backends._dask._metrics`; nothing here imports dask.
"""

from __future__ import annotations

from typing import Any

__all__ = ["is_dask_input"]


def is_dask_input(*arrays: Any) -> bool:
    """Whether any argument is a dask collection (array, Series, DataFrame).

    Looks at the module name of each argument's type only: no import of
    dask, a few nanoseconds per argument for numpy input.
    """
    for a in arrays:
        mod = type(a).__module__
        if mod.startswith("dask.") or mod.startswith("dask_expr"):
            return True
    return False
