"""How numbers are written in messages and summaries (one rule for the package)."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

__all__ = ["format_number"]


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
