"""The calibration statistics of :mod:`skbrier.engines.spark`: the binned
calibration error and bins, the Murphy and CORP decompositions, C and
Spiegelhalter's z, each from the merged state of one Spark job."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.binning import uniform_edges
from .._core.params import check_resolution
from ..states import (
    BinnedState,
    ForecastTable,
    SpiegelhalterState,
)
from ._spark_reduce import finished, source, spark_function
from ._statistics import edges_option

__all__ = [
    "c_statistic",
    "calibration_bins",
    "calibration_error",
    "corp_decomposition",
    "murphy_decomposition",
    "spiegelhalter_z",
]

# --------------------------------------------------------------------------
# bins
# --------------------------------------------------------------------------


def _edges(n_bins: Any, strategy: Any) -> np.ndarray:
    """Fixed bin edges (equal-mass bins are not mergeable: refused)."""
    return edges_option(n_bins, strategy, "Spark")


def _calibration_error(a: Any) -> Any:
    from ..metrics._calibration_error_core import check_options, fixed_bin_ids
    from ..states import CalibrationBinsState

    o = check_options(a.norm, a.n_bins, a.strategy, a.binning, a.debias, a.right)
    src = source(a.df, a.y, a.p, a.weight, a.group_by)
    if o.binning is None and o.strategy == "uniform" and not o.debias:
        edges = uniform_edges(o.n_bins)
        tmpl: Any = BinnedState(edges, right=o.right, pos_label=a.pos_label)
        return finished(src, tmpl, lambda st: st.calibration_error(o.norm))
    if fixed_bin_ids(np.zeros(1), o) is None:
        what = (
            "binning=" + repr(o.binning) if o.binning is not None else "strategy='quantile'"
        )
        raise ValueError(
            f"{what} is not available on a Spark DataFrame: its bins depend on all "
            "forecasts (not mergeable); pass fixed bins (strategy='uniform', a "
            "fixed binning preset or explicit edges)."
        )
    tmpl = CalibrationBinsState(o, kind="binary", pos_label=a.pos_label)
    return finished(src, tmpl, lambda st: st.finalize())


def _binned(a: Any, finish: Callable[[Any], Any]) -> Any:
    """``finish`` of the merged :class:`~skbrier.states.BinnedState` of the
    call ``a`` (fixed bins)."""
    from .._core.params import check_bool

    edges = _edges(a.n_bins, a.strategy)
    tmpl = BinnedState(edges, right=check_bool(a.right, "right"), pos_label=a.pos_label)
    return finished(source(a.df, a.y, a.p, a.weight, a.group_by), tmpl, finish)


def _murphy(a: Any) -> Any:
    from .._core.params import check_bool

    bias_correction = check_bool(a.bias_correction, "bias_correction")
    return _binned(a, lambda st: st.murphy(bias_correction=bias_correction))


def _table(a: Any, finish: Callable[[Any], Any]) -> Any:
    """``finish`` of the merged table of the distinct forecasts of the call
    ``a`` (:class:`~skbrier.states.ForecastTable`)."""
    tmpl = ForecastTable(resolution=check_resolution(a.resolution), pos_label=a.pos_label)
    return finished(source(a.df, a.y, a.p, a.weight, a.group_by), tmpl, finish)


def _spiegelhalter(a: Any) -> Any:
    from ..metrics._calibration_results import SpiegelhalterResult

    src = source(a.df, a.y, a.p, a.weight, a.group_by)
    tmpl = SpiegelhalterState(pos_label=a.pos_label)
    return finished(src, tmpl, lambda st: SpiegelhalterResult(*st.finalize()))


calibration_error = spark_function(
    "calibration_error",
    _calibration_error,
    notes="""\
The ECE, RMS calibration error or MCE on fixed bins: the value of
:func:`skbrier.metrics.calibration_error.calibration_error` for the same rows
and options.""",
    see_also="skbrier.metrics.calibration_error.calibration_error : The same on arrays.",
    examples="""\
{{spark}}
>>> round(sbs.calibration_error(df, n_bins=2), 4)  # doctest: +SKIP
0.25""",
)
calibration_bins = spark_function(
    "calibration_bins",
    lambda a: _binned(a, lambda st: st.statistics()),
    notes=r"""\
:class:`~skbrier.metrics.decomposition.BinStatistics` (per bin: rows,
:math:`\sum w`, :math:`\sum w p`, :math:`\sum w y`, ...) of the outcomes
coded 0/1.""",
    see_also="skbrier.murphy_decomposition : The decomposition of arrays.",
    examples="""\
{{spark}}
>>> sbs.calibration_bins(df, n_bins=2).count  # doctest: +SKIP
array([2, 2])""",
)
murphy_decomposition = spark_function(
    "murphy_decomposition",
    _murphy,
    notes="On fixed bins, without resampling.",
    see_also="skbrier.metrics.decomposition.murphy_decomposition : The same on arrays.",
    examples="""\
{{spark}}
>>> round(sbs.murphy_decomposition(df, n_bins=2).brier_score, 4)  # doctest: +SKIP
0.075""",
)
corp_decomposition = spark_function(
    "corp_decomposition",
    lambda a: _table(a, lambda st: st.corp()),
    notes="""\
Exactly: from the isotonic (PAV) recalibration of the merged table of the
distinct forecasts (:class:`~skbrier.states.ForecastTable`).""",
    see_also="skbrier.metrics.decomposition.corp_decomposition : The same on arrays.",
    examples="""\
{{spark}}
>>> round(sbs.corp_decomposition(df).miscalibration, 4)  # doctest: +SKIP
0.075""",
)
c_statistic = spark_function(
    "c_statistic",
    lambda a: _table(a, lambda st: st.c_statistic()),
    notes="""\
Exactly: from the merged table of the distinct forecasts (ties and weights
included).""",
    see_also="skbrier.metrics.calibration.c_statistic : The same on arrays.",
    examples="""\
{{spark}}
>>> sbs.c_statistic(df)  # doctest: +SKIP
1.0""",
)
spiegelhalter_z = spark_function(
    "spiegelhalter_z",
    _spiegelhalter,
    see_also="skbrier.metrics.calibration.spiegelhalter_z : The same on arrays.",
    examples="""\
{{spark}}
>>> round(sbs.spiegelhalter_z(df).statistic, 4)  # doctest: +SKIP
-1.005""",
)
