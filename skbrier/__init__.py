"""skbrier: scikit-learn compatible metrics for probability forecasts.

Built around the Brier score: the Brier Index, skill scores, the
multiple-choice Brier score of LLM benchmarks, net benefit and decision
curves, decompositions, calibration audits, confidence intervals and
scikit-learn scorers.  The objects the functions return are documented in
:mod:`skbrier.results`.
"""

# The metric functions come from skbrier.metrics' __all__ (listed there once);
# __all__ below names the ones re-exported here.
# ruff: noqa: F405

from . import results as results  # the result classes (skbrier.results)
from ._sklearn_registration import register_sklearn_scorers as _register_sklearn_scorers
from ._version import __version__ as __version__
from .comparison import compare_forecasts
from .decomposition import BrierDecomposition
from .leaderboards import (
    ForecastHistory,
    baseline_score,
    brier_at,
    combine_leaderboards,
    daily_brier,
    difficulty_adjusted_brier,
    forecast_history,
    history_leaderboard,
    leaderboard,
    parity_date,
    peer_score,
)
from .metrics import *  # noqa: F403
from .model_selection import (
    PooledRefit,
    cross_val_brier,
    internal_validation,
    optuna_objective,
    pooled_best_score,
    pooled_cv_scores,
    pooled_refit,
    pooled_scoring,
)
from .plotting.decision_curve import DecisionCurveDisplay
from .plotting.flexible_calibration import CalibrationCurveDisplay
from .plotting.reliability import ReliabilityDisplay
from .plotting.risk_coverage import RiskCoverageDisplay
from .report import calibration_report
from .scorers import _SKBRIER_SCORERS as _NAMED_SCORERS
from .scorers import (
    make_brier_index_scorer,
    make_brier_score_scorer,
    make_brier_skill_score_scorer,
    make_net_benefit_scorer,
    make_ranked_probability_score_scorer,
)
from .stats import (
    block_bootstrap,
    bootstrap_indices,
    brier_inference,
    compare_brier,
    long_run_covariance,
    optimal_block_length,
)
from .validation import achieved_precision, compare_net_benefit, validation_sample_size

__all__ = [
    "BrierDecomposition",
    "CalibrationCurveDisplay",
    "DecisionCurveDisplay",
    "ForecastHistory",
    "PooledRefit",
    "ReliabilityDisplay",
    "RiskCoverageDisplay",
    "abstention_scores",
    "abstention_utility",
    "achieved_precision",
    "aurc",
    "baseline_score",
    "binary_test_probabilities",
    "block_bootstrap",
    "bootstrap_indices",
    "brier_at",
    "brier_index",
    "brier_inference",
    "brier_score",
    "brier_skill_score",
    "c_statistic",
    "calibration_by_group",
    "calibration_error",
    "calibration_error_interval",
    "calibration_in_the_large",
    "calibration_intercept_slope",
    "calibration_report",
    "combine_leaderboards",
    "compare_abstention_utility",
    "compare_brier",
    "compare_forecasts",
    "compare_net_benefit",
    "corp_decomposition",
    "cross_val_brier",
    "cumulative_calibration",
    "daily_brier",
    "decision_curve",
    "difficulty_adjusted_brier",
    "e_aurc",
    "flexible_calibration_curve",
    "forecast_history",
    "history_leaderboard",
    "internal_validation",
    "leaderboard",
    "long_run_covariance",
    "lowess_calibration_error",
    "make_brier_index_scorer",
    "make_brier_score_scorer",
    "make_brier_skill_score_scorer",
    "make_net_benefit_scorer",
    "make_ranked_probability_score_scorer",
    "multicalibration_error",
    "multiple_choice_brier_score",
    "murphy_decomposition",
    "net_benefit",
    "optimal_block_length",
    "optuna_objective",
    "parity_date",
    "peer_score",
    "pooled_best_score",
    "pooled_cv_scores",
    "pooled_refit",
    "pooled_scoring",
    "ranked_probability_decomposition",
    "ranked_probability_score",
    "ranked_probability_skill_score",
    "risk_coverage_curve",
    "selective_accuracy",
    "selective_accuracy_at_top",
    "selective_coverage_accuracy_area",
    "smooth_calibration_error",
    "spiegelhalter_z",
    "validation_sample_size",
]

# `scoring="brier_index"` (and "brier_skill_score", "net_benefit") in every
# scikit-learn entry point; rolled back with a warning if sklearn's internals
# are not as expected; SKBRIER_NO_SKLEARN_REGISTRATION=1 turns it off.
_register_sklearn_scorers(_NAMED_SCORERS)
