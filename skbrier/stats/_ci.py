"""Confidence-interval helpers shared by the inference results."""

from __future__ import annotations

import numbers
from typing import Any, NamedTuple

import numpy as np
from scipy.stats import norm
from scipy.stats import t as student_t


class ConfidenceInterval(NamedTuple):
    """Lower and upper bound of a confidence interval (as in :mod:`scipy.stats`).

    Attributes
    ----------
    low, high : float
        The bounds.

    Examples
    --------
    >>> from skbrier.stats import ConfidenceInterval
    >>> ci = ConfidenceInterval(0.1, 0.3)
    >>> ci.low, ci.high
    (0.1, 0.3)
    """

    low: float
    high: float


def check_confidence_level(confidence_level: Any) -> float:
    """Validate a confidence level in (0, 1)."""
    if isinstance(confidence_level, (bool, np.bool_)) or not isinstance(
        confidence_level, numbers.Real
    ):
        raise TypeError(f"confidence_level must be a number, got {confidence_level!r}.")
    c = float(confidence_level)
    if not (0.0 < c < 1.0):
        raise ValueError(f"confidence_level must lie strictly between 0 and 1, got {c!r}.")
    return c


def normal_interval(
    estimate: float, standard_error: float, confidence_level: float, df: float | None = None
) -> ConfidenceInterval:
    """``estimate -/+ q * se`` with the normal (or Student t with ``df``) quantile."""
    p = 1.0 - (1.0 - confidence_level) / 2.0
    q = norm.ppf(p) if df is None else student_t.ppf(p, df)
    half = float(q * standard_error)
    return ConfidenceInterval(float(estimate - half), float(estimate + half))
