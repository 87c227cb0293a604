"""The public metrics on dask input: options checked as in memory, then one
map-reduce of a mergeable state (:mod:`skbrier.states`) per statistic.

Reached only through the dispatch hooks at the top of the public functions
(:func:`skbrier._backends._dask.is_dask_input`); the results equal the in-memory ones
on the same data (up to floating-point summation order).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._core.binning import uniform_edges
from ..._core.params import check_bool, check_n_bins, check_option, check_resolution
from ..._core.validation import check_binary_labels, check_scalar_probability
from ...metrics._calibration_results import SpiegelhalterResult
from ...metrics._decomposition_core import check_strategy
from ...states import (
    BinnedState,
    BrierState,
    ForecastTable,
    SpiegelhalterState,
    ThresholdState,
)
from ._graph import reduce_state
from ._multiclass import is_2d

__all__ = [
    "binary_calibration_error",
    "brier_index",
    "brier_score",
    "brier_skill_score",
    "c_statistic",
    "corp_decomposition",
    "decision_state",
    "murphy_decomposition",
    "net_benefit",
    "spiegelhalter_z",
]


def _check_1d(y_proba: Any) -> None:
    """Refuse forecasts of several columns (a single column is 1-D, as in memory)."""
    cols = getattr(y_proba, "columns", None)
    if cols is not None and len(cols) > 1:  # a dask DataFrame of several columns
        cols = list(cols)
        dtypes = list(getattr(y_proba, "dtypes", []))
        numeric = [c for c, d in zip(cols, dtypes) if getattr(d, "kind", "O") in "biuf"]
        pick = (numeric or cols)[0]
        raise ValueError(
            f"y_proba has columns {cols[:20]!r}; for dask input it must be one column, "
            "the probability of the positive class: pass only that column, e.g. "
            f"y_proba[{pick!r}]."
        )
    if getattr(y_proba, "ndim", 1) > 2:  # the in-memory message (none computes it)
        raise ValueError(
            f"y_proba must be a 1-D or 2-D array, got shape {tuple(y_proba.shape)}."
        )
    if is_2d(y_proba):
        raise ValueError(
            "y_proba must be 1-D (the probability of the positive class) for dask "
            f"input; got {y_proba.ndim} dimensions (multiclass and two-column "
            "probabilities are computed in memory only)."
        )


def _no_resampling(n_resamples: Any) -> None:
    if n_resamples not in (0, None):
        raise ValueError(
            "n_resamples must be 0 for dask input: bootstrap bands resample rows "
            "and are not mergeable (compute them on a subsample in memory)."
        )


def _brier_state(y_true, y_proba, sample_weight, labels, pos_label, reference=None):
    _check_1d(y_proba)
    check_binary_labels(labels)
    tmpl = BrierState(pos_label=pos_label, with_reference=reference is not None)
    cols = {} if reference is None else {"reference": reference}
    return reduce_state(tmpl, y_true, y_proba, sample_weight, **cols)


def brier_score(
    y_true,
    y_proba,
    *,
    sample_weight=None,
    labels=None,
    pos_label=None,
    scale_by_half="auto",
) -> float:
    if isinstance(scale_by_half, str):
        check_option(scale_by_half, "scale_by_half", ("auto",))
    else:
        check_bool(scale_by_half, "scale_by_half")
    bs = _brier_state(y_true, y_proba, sample_weight, labels, pos_label).finalize()
    return bs if (scale_by_half == "auto" or scale_by_half) else 2.0 * bs


def brier_index(
    y_true, y_proba, *, sample_weight=None, labels=None, pos_label=None
) -> float:
    return _brier_state(y_true, y_proba, sample_weight, labels, pos_label).brier_index()


def brier_skill_score(
    y_true, y_proba, *, reference=None, sample_weight=None, labels=None, pos_label=None
) -> float:
    ref_arr = None
    ref_rate = None
    if reference is not None:
        if np.ndim(reference) == 0 and not isinstance(reference, (str, bytes)):
            ref_rate = check_scalar_probability(reference, name="reference")
        else:
            ref_arr = reference
    state = _brier_state(y_true, y_proba, sample_weight, labels, pos_label, ref_arr)
    return state.skill(ref_rate)  # NaN with the in-memory warning


def _edges(n_bins: Any, strategy: Any) -> np.ndarray:
    strategy = check_strategy(strategy)
    if isinstance(strategy, str):
        if strategy == "quantile":
            raise ValueError(
                "strategy='quantile' is not available for dask input: equal-mass bins "
                "need the quantiles of all forecasts (not mergeable); pass "
                "strategy='uniform' or explicit bin edges."
            )
        return uniform_edges(check_n_bins(n_bins))
    return strategy


def _unresampled_1d(y_proba: Any, labels: Any, n_resamples: Any) -> None:
    """The checks of the decompositions: no bootstrap, 1-D binary forecasts."""
    _no_resampling(n_resamples)
    _check_1d(y_proba)
    check_binary_labels(labels)


def murphy_decomposition(
    y_true, y_proba, *, n_bins, strategy, right, bias_correction, **kw
):
    """``kw``: ``sample_weight``, ``pos_label``, ``labels`` and ``n_resamples``."""
    edges = _edges(check_n_bins(n_bins), strategy)
    right = check_bool(right, "right")
    bias_correction = check_bool(bias_correction, "bias_correction")
    _unresampled_1d(y_proba, kw["labels"], kw["n_resamples"])
    tmpl = BinnedState(edges, right=right, pos_label=kw["pos_label"])
    state = reduce_state(tmpl, y_true, y_proba, kw["sample_weight"])
    return state.murphy(bias_correction=bias_correction)


def binary_calibration_error(
    y_true, y_proba, *, n_bins: int, norm: str, right: bool, sample_weight, pos_label
) -> float:
    """``calibration_error`` of 1-D forecasts on skbrier's uniform bins (options
    checked by the caller), from the :class:`~skbrier.states.BinnedState` of the
    binned decomposition with these bins: the state ``calibration_report``
    holds in its bundle, so its ECE section reads no data."""
    tmpl = BinnedState(uniform_edges(n_bins), right=right, pos_label=pos_label)
    return reduce_state(tmpl, y_true, y_proba, sample_weight).calibration_error(norm)


def corp_decomposition(y_true, y_proba, *, resolution, **kw):
    """``kw``: ``sample_weight``, ``pos_label``, ``labels`` and ``n_resamples``."""
    _unresampled_1d(y_proba, kw["labels"], kw["n_resamples"])
    tmpl = ForecastTable(resolution=check_resolution(resolution), pos_label=kw["pos_label"])
    return reduce_state(tmpl, y_true, y_proba, kw["sample_weight"]).corp()


def c_statistic(y_true, y_proba, *, sample_weight=None, pos_label=None, resolution=None):
    _check_1d(y_proba)
    tmpl = ForecastTable(resolution=check_resolution(resolution), pos_label=pos_label)
    return reduce_state(tmpl, y_true, y_proba, sample_weight).c_statistic()


def spiegelhalter_z(y_true, y_proba, *, sample_weight=None, pos_label=None):
    _check_1d(y_proba)
    tmpl = SpiegelhalterState(pos_label=pos_label)
    state = reduce_state(tmpl, y_true, y_proba, sample_weight)
    return SpiegelhalterResult(*state.finalize())


def _threshold_state(y_true, models, single, sample_weight, pos_label, t):
    names = list(models)
    for p in models.values():
        _check_1d(p)
    tmpl = ThresholdState(t, models=names, single=single, pos_label=pos_label)
    cols = {name: models[name] for name in names[1:]}
    return reduce_state(tmpl, y_true, models[names[0]], sample_weight, **cols)


def net_benefit(y_true, y_proba, sample_weight, pos_label, t, prev) -> float:
    """Net benefit at one (validated) threshold from the merged weights at or
    above it (the in-memory ``net_benefit_finish``)."""
    state = _threshold_state(
        y_true, {"model": y_proba}, True, sample_weight, pos_label, np.array([t])
    )
    return float(state.net_benefit(0, prev)[0])


def decision_state(y_true, models, single, sample_weight, pos_label, t, n_resamples):
    """The merged :class:`~skbrier.states.ThresholdState` of a decision curve."""
    _no_resampling(n_resamples)
    return _threshold_state(y_true, models, single, sample_weight, pos_label, t)
