"""Result classes of skbrier: what its functions return.

Users do not build these objects; they read them.  Every class follows one
protocol (:mod:`skbrier._core.results`): read-only fields, ``summary()``,
``to_dict()``, ``to_frame()``, a short ``repr`` and an HTML view in
notebooks.  A result that can compute an interval has the method

``confidence_interval(confidence_level=0.95, *, metric=..., method=None)``

(plus ``model=`` where it holds several models) returning a
:class:`ConfidenceInterval` (the survival results: a ``SurvivalInterval``,
which unpacks as one and names its horizons); a result that cannot has no
such method.
``metric`` names come from one vocabulary with one meaning everywhere
(``"brier_index"`` is the Brier Index, or on a comparison of two forecasts
its difference); an unknown name is a ValueError listing the valid ones.
"""

from ._core.results import ConfidenceInterval
from .comparison import ForecastComparisonResult
from .io import EvalRecords
from .leaderboards import (
    DifficultyAdjustedResult,
    HistoryLeaderboardResult,
    HistoryScoreResult,
    LeaderboardResult,
    ParityDateResult,
)
from .metrics.abstention import (
    AbstentionResult,
    AbstentionUtilityComparison,
    AbstentionUtilityResult,
)
from .metrics.calibration import (
    LogisticCalibrationResult,
    LowessCalibrationError,
    SpiegelhalterResult,
)
from .metrics.calibration_curves import FlexibleCalibrationCurve
from .metrics.calibration_error import CalibrationErrorInterval
from .metrics.cumulative import CumulativeCalibrationResult, MulticalibrationResult
from .metrics.decomposition import (
    BinStatistics,
    CORPDecomposition,
    MulticlassDecomposition,
    MurphyDecomposition,
)
from .metrics.net_benefit import DecisionCurveResult
from .metrics.ranked import RankedDecomposition
from .metrics.recalibration import PlattCalibrationResult, TemperatureScalingResult
from .metrics.selective import RiskCoverageResult
from .metrics.subgroups import GroupCalibrationResult
from .model_selection import (
    CrossValBrierResult,
    InternalValidationResult,
    PooledCVResult,
    StabilityResult,
)
from .report import CalibrationReport, TripodReport
from .stats import (
    BootstrapResult,
    BrierComparisonResult,
    BrierInferenceResult,
    ClusteredCalibrationCurve,
    ClusteredValidationResult,
    MetaAnalysisResult,
    PooledValidationResult,
    PredictionPoweredResult,
    RubinPooledResult,
)
from .survival import (
    SurvivalCalibrationResult,
    SurvivalComparisonResult,
    SurvivalInterval,
    SurvivalIPAResult,
)
from .validation import (
    AchievedPrecisionResult,
    NetBenefitComparisonResult,
    ValidationSampleSizeResult,
)

__all__ = [
    "AbstentionResult",
    "AbstentionUtilityComparison",
    "AbstentionUtilityResult",
    "AchievedPrecisionResult",
    "BinStatistics",
    "BootstrapResult",
    "BrierComparisonResult",
    "BrierInferenceResult",
    "CORPDecomposition",
    "CalibrationErrorInterval",
    "CalibrationReport",
    "ClusteredCalibrationCurve",
    "ClusteredValidationResult",
    "ConfidenceInterval",
    "CrossValBrierResult",
    "CumulativeCalibrationResult",
    "DecisionCurveResult",
    "DifficultyAdjustedResult",
    "EvalRecords",
    "FlexibleCalibrationCurve",
    "ForecastComparisonResult",
    "GroupCalibrationResult",
    "HistoryLeaderboardResult",
    "HistoryScoreResult",
    "InternalValidationResult",
    "LeaderboardResult",
    "LogisticCalibrationResult",
    "LowessCalibrationError",
    "MetaAnalysisResult",
    "MulticalibrationResult",
    "MulticlassDecomposition",
    "MurphyDecomposition",
    "NetBenefitComparisonResult",
    "ParityDateResult",
    "PlattCalibrationResult",
    "PooledCVResult",
    "PooledValidationResult",
    "PredictionPoweredResult",
    "RankedDecomposition",
    "RiskCoverageResult",
    "RubinPooledResult",
    "SpiegelhalterResult",
    "StabilityResult",
    "SurvivalCalibrationResult",
    "SurvivalComparisonResult",
    "SurvivalIPAResult",
    "SurvivalInterval",
    "TemperatureScalingResult",
    "TripodReport",
    "ValidationSampleSizeResult",
]
