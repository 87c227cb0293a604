"""Small result types shared by several modules."""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["ConfidenceInterval"]


class ConfidenceInterval(NamedTuple):
    """Lower and upper bound of a confidence interval (as in :mod:`scipy.stats`).

    The bounds are floats for a single estimate and arrays for pointwise
    bands (for example over the thresholds of a decision curve).

    Attributes
    ----------
    low, high : float or ndarray
        The bounds.

    Examples
    --------
    >>> from skbrier.stats import ConfidenceInterval
    >>> ci = ConfidenceInterval(0.1, 0.3)
    >>> ci.low, ci.high
    (0.1, 0.3)
    """

    low: Any
    high: Any
