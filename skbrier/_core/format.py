"""How numbers are written in messages and summaries (one rule for the package)."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

__all__ = ["format_number", "format_outside"]


def format_number(value: Any, digits: int = 4) -> str:
    """``value`` with ``digits`` significant digits (ints and strings as they are)."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v) or math.isinf(v):
            return str(v)
        return f"{v:.{digits}g}"
    return str(value)


def format_outside(value: float, low: float = 0.0, high: float = 1.0) -> str:
    """:func:`format_number` of a ``value`` outside ``[low, high]``, with as many
    more digits as it takes to show it outside (1.0001 is not written "1")."""
    text, digits = format_number(value), 4
    while low <= float(text) <= high and float(text) != value and digits < 17:
        digits += 1
        text = f"{value:.{digits}g}"
    return text
