"""Confidence-interval helpers shared by the inference results."""

from __future__ import annotations

import dataclasses
from typing import Any

from scipy.stats import norm
from scipy.stats import t as student_t

from .._core.params import check_confidence_level
from .._core.results import ConfidenceInterval

__all__ = [
    "ConfidenceInterval",
    "check_confidence_level",
    "normal_interval",
    "public_fields",
]


def normal_interval(
    estimate: float, standard_error: float, confidence_level: float, df: float | None = None
) -> ConfidenceInterval:
    """``estimate -/+ q * se`` with the normal (or Student t with ``df``) quantile."""
    p = 1.0 - (1.0 - confidence_level) / 2.0
    q = norm.ppf(p) if df is None else student_t.ppf(p, df)
    half = float(q * standard_error)
    return ConfidenceInterval(float(estimate - half), float(estimate + half))


def public_fields(obj: Any) -> list[str]:
    """The dataclass fields of ``obj`` whose names do not start with ``_``."""
    return [f.name for f in dataclasses.fields(obj) if not f.name.startswith("_")]
