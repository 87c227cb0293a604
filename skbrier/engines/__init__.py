"""skbrier's statistics computed inside data engines (one module per engine).

Each engine module takes the engine's own frame (or table) and the names of
its columns, computes the sufficient statistics of a statistic with the
engine's aggregations -- the sums that the statistic's kernel reduce defines,
per label of the outcome, per bin or threshold and per group -- and finishes
them with the same kernel finish functions as numpy input, so the numbers
equal the in-memory functions' on the same rows and bad input raises the
in-memory error.  The engine is imported when its module is first used::

    from skbrier.engines import polars as sbp    # pip install 'skbrier[polars]'
    from skbrier.engines import duckdb as sbd    # pip install 'skbrier[duckdb]'
    from skbrier.engines import spark as sbs     # pip install 'skbrier[spark]'

Nothing here is registered in the numpy path: the public functions of
``skbrier`` keep taking arrays.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["duckdb", "polars", "spark"]

#: the engine modules (a module imports its engine only when it is used);
#: listed so that ``skbrier.engines.<name>`` works without an explicit import
_MODULES = {"polars": ".polars", "duckdb": ".duckdb", "spark": ".spark"}


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        module = importlib.import_module(_MODULES[name], __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_MODULES))
