"""Display objects (matplotlib is imported only when drawing)."""

from .decision_curve import DecisionCurveDisplay
from .flexible_calibration import CalibrationCurveDisplay
from .reliability import ReliabilityDisplay
from .risk_coverage import RiskCoverageDisplay

__all__ = [
    "CalibrationCurveDisplay",
    "DecisionCurveDisplay",
    "ReliabilityDisplay",
    "RiskCoverageDisplay",
]
