"""Display objects (matplotlib is imported only when drawing)."""

from .decision_curve import DecisionCurveDisplay
from .reliability import ReliabilityDisplay
from .risk_coverage import RiskCoverageDisplay

__all__ = ["DecisionCurveDisplay", "ReliabilityDisplay", "RiskCoverageDisplay"]
