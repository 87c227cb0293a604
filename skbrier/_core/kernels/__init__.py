"""Kernels: the formulas of each statistic on validated arrays (no checks).

Each reduces rows to sufficient statistics or finishes them into the number;
the public functions, the states and the backend adapters call them.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

import numpy as np

__all__ = ["add_fields"]

_D = TypeVar("_D")


def add_fields(a: _D, b: _D, **kept: Any) -> _D:
    """``a + b`` of two sums (dataclasses of one type), field by field.

    The fields named in ``kept`` take the values given there (counts of
    columns, flags); every other field is the sum of the two sides, or None
    where either side is None (a sum that one side does not keep).
    """
    sums = {
        f.name: _add(getattr(a, f.name), getattr(b, f.name))
        for f in dataclasses.fields(a)  # type: ignore[arg-type]
        if f.name not in kept
    }
    return type(a)(**sums, **kept)


def _add(x: Any, y: Any) -> Any:
    if x is None or y is None:
        return None
    # sums of weights near the largest float may overflow: the finish of
    # the total weight raises the in-memory error, numpy must not warn
    with np.errstate(over="ignore", invalid="ignore"):
        return x + y
