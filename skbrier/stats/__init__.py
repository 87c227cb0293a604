"""Statistical inference for probability forecasts.

* :func:`brier_inference`: Brier score, Brier skill score and Brier Index with
  iid, autocorrelation-robust (HAC) or bootstrap standard errors and intervals.
* :func:`compare_brier`: paired comparison of two forecasters
  (Diebold-Mariano with HAC variance, Harvey-Leybourne-Newbold correction,
  bootstrap).
* :func:`long_run_covariance`: HAC covariance of column means (R's
  ``sandwich::lrvar``).
* :func:`block_bootstrap`, :func:`bootstrap_indices`: iid, moving block,
  circular block and stationary bootstraps of any statistic;
  :func:`optimal_block_length` (Politis-White) chooses the block length.
* :func:`prediction_powered_accuracy`, :func:`prediction_powered_brier_score`:
  estimates from LLM-judge verdicts corrected by a human-labelled subset
  (prediction-powered inference, PPI++).
* :func:`pool_rubin`, :func:`pooled_validation`: performance on multiply
  imputed data pooled by Rubin's rules.
* :func:`random_effects_meta`, :func:`clustered_validation`: validation
  measures per centre pooled by random-effects meta-analysis (metafor);
  :func:`clustered_calibration_curve`: the calibration curve pooled over
  centres with its confidence and prediction bands (CalibrationCurves'
  ``valProbCluster``).
"""

from .block_length import default_block_length, optimal_block_length
from .bootstrap import (
    BootstrapResult,
    block_bootstrap,
    bootstrap_indices,
)
from .clustered_calibration import (
    ClusteredCalibrationCurve,
    clustered_calibration_curve,
)
from .compare import BrierComparisonResult, compare_brier
from .inference import BrierInferenceResult, ConfidenceInterval, brier_inference
from .long_run_covariance import long_run_covariance
from .meta_analysis import (
    ClusteredValidationResult,
    MetaAnalysisResult,
    clustered_validation,
    random_effects_meta,
)
from .prediction_powered import (
    PredictionPoweredResult,
    prediction_powered_accuracy,
    prediction_powered_brier_score,
)
from .rubin import (
    PooledValidationResult,
    RubinPooledResult,
    pool_rubin,
    pooled_validation,
)

__all__ = [
    "BootstrapResult",
    "BrierComparisonResult",
    "BrierInferenceResult",
    "ClusteredCalibrationCurve",
    "ClusteredValidationResult",
    "ConfidenceInterval",
    "MetaAnalysisResult",
    "PooledValidationResult",
    "PredictionPoweredResult",
    "RubinPooledResult",
    "block_bootstrap",
    "bootstrap_indices",
    "brier_inference",
    "clustered_calibration_curve",
    "clustered_validation",
    "compare_brier",
    "default_block_length",
    "long_run_covariance",
    "optimal_block_length",
    "pool_rubin",
    "pooled_validation",
    "prediction_powered_accuracy",
    "prediction_powered_brier_score",
    "random_effects_meta",
]
