"""Display objects (matplotlib is imported only when drawing)."""

from .decision_curve import DecisionCurveDisplay

__all__ = ["DecisionCurveDisplay"]
