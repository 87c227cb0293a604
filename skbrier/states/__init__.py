"""Mergeable states: every exactly-mergeable statistic as ``update/merge/finalize``.

Engine-agnostic (numpy only): build a state per chunk of rows with
``State(...).update(y_true, y_proba, sample_weight)``, combine states with
``merge`` (in any order, in a tree), and compute the statistic once with
``finalize`` (or the named methods).  Validation happens in ``update`` (NaN,
range, weights) and in ``finalize`` (labels, ``pos_label``), with the error
messages of the in-memory functions.  skbrier's Dask support is built on
these states; the user guide shows the same for Spark ``mapInPandas`` and Ray.
"""

from ._base import BinaryState
from ._binned import BinnedState
from ._bundle import StateBundle
from ._calibration import CalibrationBinsState
from ._moments import MomentState, merge_moments
from ._multiclass import ClasswiseBinnedState, MulticlassBrierState, MultipleChoiceState
from ._ranked import RankedProbabilityState
from ._sample import SampleState
from ._sums import BrierState, SpiegelhalterState
from ._table import ForecastTable
from ._threshold import ThresholdState

__all__ = [
    "BinaryState",
    "BinnedState",
    "BrierState",
    "CalibrationBinsState",
    "ClasswiseBinnedState",
    "ForecastTable",
    "MomentState",
    "MulticlassBrierState",
    "MultipleChoiceState",
    "RankedProbabilityState",
    "SampleState",
    "SpiegelhalterState",
    "StateBundle",
    "ThresholdState",
    "merge_moments",
]
