"""Pure metric functions: Brier score and friends, net benefit, decompositions,
calibration statistics, selective prediction and abstention."""

from .abstention import (
    abstention_scores,
    abstention_utility,
    compare_abstention_utility,
)
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
from .cumulative import cumulative_calibration, multicalibration_error
from .decomposition import corp_decomposition, murphy_decomposition
from .multiple_choice import multiple_choice_brier_score
from .net_benefit import binary_test_probabilities, decision_curve, net_benefit
from .ranked import (
    ranked_probability_decomposition,
    ranked_probability_score,
    ranked_probability_skill_score,
)
from .recalibration import platt_calibration_error, temperature_scaling
from .selective import (
    aurc,
    e_aurc,
    risk_coverage_curve,
    selective_accuracy,
    selective_accuracy_at_top,
    selective_coverage_accuracy_area,
)
from .subgroups import calibration_by_group

__all__ = [
    "abstention_scores",
    "abstention_utility",
    "aurc",
    "binary_test_probabilities",
    "brier_index",
    "brier_score",
    "brier_skill_score",
    "c_statistic",
    "calibration_by_group",
    "calibration_error",
    "calibration_error_interval",
    "calibration_in_the_large",
    "calibration_intercept_slope",
    "compare_abstention_utility",
    "corp_decomposition",
    "cumulative_calibration",
    "decision_curve",
    "e_aurc",
    "flexible_calibration_curve",
    "lowess_calibration_error",
    "multicalibration_error",
    "multiple_choice_brier_score",
    "murphy_decomposition",
    "net_benefit",
    "platt_calibration_error",
    "ranked_probability_decomposition",
    "ranked_probability_score",
    "ranked_probability_skill_score",
    "risk_coverage_curve",
    "selective_accuracy",
    "selective_accuracy_at_top",
    "selective_coverage_accuracy_area",
    "smooth_calibration_error",
    "spiegelhalter_z",
    "temperature_scaling",
]
