"""skbrier: scikit-learn compatible metrics for probability forecasts.

Built around the Brier score: the Brier Index, skill scores, the
multiple-choice Brier score of LLM benchmarks, net benefit and decision
curves, decompositions, confidence intervals and scikit-learn scorers.
"""

__version__ = "0.1.0.dev0"

# --- core Brier metrics -----------------------------------------------------
from .metrics.brier import brier_index, brier_score, brier_skill_score
from .metrics.multiple_choice import multiple_choice_brier_score

_CORE = [
    "brier_score",
    "brier_index",
    "brier_skill_score",
    "multiple_choice_brier_score",
]


# --- net benefit and decision curves -----------------------------------------
from .metrics.net_benefit import (
    DecisionCurveResult,
    binary_test_probabilities,
    decision_curve,
    net_benefit,
)
from .plotting.decision_curve import DecisionCurveDisplay

_NET_BENEFIT = [
    "net_benefit",
    "decision_curve",
    "binary_test_probabilities",
    "DecisionCurveResult",
    "DecisionCurveDisplay",
]


# --- decomposition -----------------------------------------------------------
from .decomposition import BrierDecomposition
from .metrics.decomposition import (
    CORPDecomposition,
    MulticlassDecomposition,
    MurphyDecomposition,
    corp_decomposition,
    murphy_decomposition,
)
from .plotting.reliability import ReliabilityDisplay

_DECOMPOSITION = [
    "murphy_decomposition",
    "corp_decomposition",
    "MurphyDecomposition",
    "CORPDecomposition",
    "MulticlassDecomposition",
    "BrierDecomposition",
    "ReliabilityDisplay",
]


# --- inference ---------------------------------------------------------------
from .stats import (
    BrierComparisonResult,
    BrierInferenceResult,
    block_bootstrap,
    bootstrap_indices,
    brier_inference,
    compare_brier,
    long_run_covariance,
    optimal_block_length,
)

_INFERENCE = [
    "brier_inference",
    "BrierInferenceResult",
    "compare_brier",
    "BrierComparisonResult",
    "long_run_covariance",
    "block_bootstrap",
    "bootstrap_indices",
    "optimal_block_length",
]


# --- scorers -----------------------------------------------------------------
from ._sklearn_registration import register_sklearn_scorers as _register_sklearn_scorers
from .scorers import (
    get_scorer,
    get_scorer_names,
    make_brier_index_scorer,
    make_brier_score_scorer,
    make_brier_skill_score_scorer,
    make_net_benefit_scorer,
)

_SCORERS = [
    "get_scorer",
    "get_scorer_names",
    "make_brier_index_scorer",
    "make_brier_score_scorer",
    "make_brier_skill_score_scorer",
    "make_net_benefit_scorer",
]


# --- workflows ---------------------------------------------------------------
from .model_selection import (
    CrossValBrierResult,
    PooledRefit,
    cross_val_brier,
    optuna_objective,
    pooled_cv_scores,
    pooled_refit,
    pooled_scoring,
)

from .metrics.calibration import (
    LogisticCalibrationResult,
    LowessCalibrationError,
    SpiegelhalterResult,
    c_statistic,
    calibration_in_the_large,
    calibration_intercept_slope,
    expected_calibration_error,
    lowess_calibration_error,
    spiegelhalter_z,
)
from .report import CalibrationReport, calibration_report

_CALIBRATION = [
    "calibration_report",
    "CalibrationReport",
    "calibration_intercept_slope",
    "LogisticCalibrationResult",
    "calibration_in_the_large",
    "spiegelhalter_z",
    "SpiegelhalterResult",
    "expected_calibration_error",
    "lowess_calibration_error",
    "LowessCalibrationError",
    "c_statistic",
]

_WORKFLOWS = _CALIBRATION + [
    "cross_val_brier",
    "CrossValBrierResult",
    "pooled_scoring",
    "pooled_refit",
    "PooledRefit",
    "pooled_cv_scores",
    "optuna_objective",
]


__all__ = _CORE + _NET_BENEFIT + _DECOMPOSITION + _INFERENCE + _SCORERS + _WORKFLOWS

# `scoring="brier_index"` (and "brier_skill_score", "net_benefit") in every
# scikit-learn entry point; rolled back with a warning if sklearn's internals
# are not as expected; SKBRIER_NO_SKLEARN_REGISTRATION=1 turns it off.
_register_sklearn_scorers()
