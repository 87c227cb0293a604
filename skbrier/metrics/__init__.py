"""Pure metric functions: Brier score and friends, net benefit, decompositions,
calibration statistics."""

from .brier import brier_index, brier_score, brier_skill_score
from .calibration import (
    c_statistic,
    calibration_in_the_large,
    calibration_intercept_slope,
    lowess_calibration_error,
    spiegelhalter_z,
)
from .calibration_curves import flexible_calibration_curve
from .calibration_error import (
    calibration_error,
    calibration_error_interval,
    smooth_calibration_error,
)
from .decomposition import corp_decomposition, murphy_decomposition
from .multiple_choice import multiple_choice_brier_score
from .net_benefit import binary_test_probabilities, decision_curve, net_benefit

__all__ = [
    "binary_test_probabilities",
    "brier_index",
    "brier_score",
    "brier_skill_score",
    "c_statistic",
    "calibration_error",
    "calibration_error_interval",
    "calibration_in_the_large",
    "calibration_intercept_slope",
    "corp_decomposition",
    "decision_curve",
    "flexible_calibration_curve",
    "lowess_calibration_error",
    "multiple_choice_brier_score",
    "murphy_decomposition",
    "net_benefit",
    "smooth_calibration_error",
    "spiegelhalter_z",
]
