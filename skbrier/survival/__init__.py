"""Scores for predictions of censored time-to-event outcomes.

IPCW Brier score and integrated Brier score in riskRegression/pec's or
scikit-survival's convention (``convention=``), index of prediction accuracy
per horizon and integrated with influence-function and bootstrap intervals
that state their horizons, paired comparisons, calibration at a horizon,
decision curves at a horizon, a calibration display and scorers for survival estimators.

Names: ``times`` are the time points a score is evaluated at (scikit-survival's
``brier_score(..., times)``, riskRegression's ``Score(..., times=)``) and
``horizon`` is one of them, for the functions that take a single time point
(riskRegression's ``plotCalibration(times=)``, "the prediction horizon").
``censoring`` is the censoring model of the IPCW weights and
``censoring_method`` how a calibration's observed risk handles censoring
(riskRegression's ``cens.method``); ``method`` is always an interval method.
The paired ``difference`` is first minus second, as in :func:`skbrier.compare_brier`.
"""

from ._display import SurvivalCalibrationDisplay
from ._results import SurvivalComparisonResult, SurvivalInterval, SurvivalIPAResult
from .accuracy import compare_brier_survival, index_of_prediction_accuracy
from .horizon import (
    SurvivalCalibrationResult,
    calibration_at_horizon,
    decision_curve_survival,
)
from .scorers import make_survival_scorer
from .scores import brier_score_survival, integrated_brier_score

__all__ = [
    "SurvivalCalibrationDisplay",
    "SurvivalCalibrationResult",
    "SurvivalComparisonResult",
    "SurvivalIPAResult",
    "SurvivalInterval",
    "brier_score_survival",
    "calibration_at_horizon",
    "compare_brier_survival",
    "decision_curve_survival",
    "index_of_prediction_accuracy",
    "integrated_brier_score",
    "make_survival_scorer",
]
