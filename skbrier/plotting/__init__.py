"""Display objects (matplotlib is imported only when drawing)."""

from .decision_curve import DecisionCurveDisplay
from .reliability import ReliabilityDisplay

__all__ = ["DecisionCurveDisplay", "ReliabilityDisplay"]
