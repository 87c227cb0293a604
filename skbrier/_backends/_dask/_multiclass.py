"""Multiclass forecasts on dask input: options checked as in memory, then one
map-reduce of a label-keyed mergeable state (:mod:`skbrier.states`).

Reached only through the dispatch hooks of ``brier_score``,
``brier_index``, ``brier_skill_score`` (2-D ``y_proba``),
``multiple_choice_brier_score``, ``calibration_error`` and
``BrierDecomposition.fit``; the results equal the in-memory ones on the same
data (up to floating-point summation order).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..._core.binning import uniform_edges
from ..._core.params import check_bool, check_option
from ..._core.validation import Forecast, check_binary_labels, check_reference
from ...metrics._calibration_error_core import (
    _KINDS,
    DATA_BINS_PRESETS,
    Options,
    check_scale,
    fixed_bin_ids,
)
from ...metrics._decomposition_core import binary_columns
from ...states import (
    BinnedState,
    CalibrationBinsState,
    ClasswiseBinnedState,
    ForecastTable,
    MulticlassBrierState,
    MultipleChoiceState,
)
from ._graph import reduce_state

__all__ = [
    "brier_index",
    "brier_score",
    "brier_skill_score",
    "calibration_error",
    "fit_decomposition",
    "is_2d",
    "known_shape",
    "multiple_choice_brier_score",
    "shapes_differ",
]


def is_2d(x: Any) -> bool:
    """Whether a collection has rows and several columns (2-D array or
    DataFrame); a single column, shape ``(n, 1)``, is 1-D, as in memory."""
    if getattr(x, "ndim", 1) != 2:
        return False
    return (len(x.columns) if hasattr(x, "columns") else x.shape[1]) != 1


def _n_columns(x: Any) -> int:
    if hasattr(x, "columns"):
        return len(x.columns)
    k = x.shape[1]
    if k != k:  # pragma: no cover - unknown chunk sizes along the columns
        raise ValueError("y_proba has an unknown number of columns.")
    return int(k)


def known_shape(x: Any) -> tuple[float, ...]:
    """The shape of a collection, nan for a dimension not known before computing
    (a dask DataFrame's rows are a lazy scalar, a dask array's may be nan); a
    single column ``(n, 1)`` is 1-D, as in memory (:func:`is_2d`)."""
    shape = x.shape if hasattr(x, "shape") else np.shape(x)  # a list: its shape
    out = tuple(int(d) if isinstance(d, (int, np.integer)) else float("nan") for d in shape)
    return out[:1] if len(out) == 2 and out[1] == 1 else out


def shapes_differ(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two :func:`known_shape` results differ where both are known."""
    return len(a) != len(b) or any(u != v for u, v in zip(a, b) if u == u and v == v)


def _one_column(x: Any) -> Any:
    return x.iloc[:, 0] if hasattr(x, "columns") else x[:, 0]


def _state(tmpl, y_true, y_proba, sample_weight, **columns):
    return reduce_state(tmpl, y_true, y_proba, sample_weight, **columns)


# ----------------------------------------------------------------- Brier score
def brier_score(
    y_true, y_proba, *, sample_weight=None, labels=None, scale_by_half="auto"
) -> float:
    if isinstance(scale_by_half, str):
        check_option(scale_by_half, "scale_by_half", ("auto",))
    else:
        check_bool(scale_by_half, "scale_by_half")
    state = _state(MulticlassBrierState(labels=labels), y_true, y_proba, sample_weight)
    return state.finalize(scale_by_half)


def brier_index(y_true, y_proba, *, sample_weight=None, labels=None) -> float:
    state = _state(MulticlassBrierState(labels=labels), y_true, y_proba, sample_weight)
    return state.brier_index()


def brier_skill_score(
    y_true, y_proba, *, reference=None, sample_weight=None, labels=None
) -> tuple[float, float]:
    """``(skill, Brier score of the reference)``; the state warns when the
    reference scores 0 (as in memory)."""
    shape = Forecast(None, np.empty((0, _n_columns(y_proba))), None, None, False)
    rate = None
    cols = {}
    if reference is not None and np.ndim(reference) == 0:
        rate = check_reference(reference, shape)  # the in-memory checks
    elif reference is not None:
        ref_shape, p_shape = known_shape(reference), known_shape(y_proba)
        if shapes_differ(ref_shape, p_shape):
            raise ValueError(
                f"reference has shape {ref_shape} but y_proba has shape "
                f"{p_shape}; reference forecasts must have the same shape as "
                "y_proba."
            )
        cols = {"reference": reference}
    tmpl = MulticlassBrierState(labels=labels, with_reference=bool(cols))
    state = _state(tmpl, y_true, y_proba, sample_weight, **cols)
    bs_ref = state.reference_score(rate)
    return state.skill(rate), bs_ref


# ----------------------------------------------------------------- multiple choice
def multiple_choice_brier_score(
    y_true, y_score, convention, from_logprobs, sample_weight
) -> float:
    if getattr(y_score, "ndim", 1) != 2:  # (n, 1): one choice each, as in memory
        raise ValueError(
            "y_score must be a 2-D dask array or DataFrame (n_examples, n_choices) "
            "for dask input; ragged choice sets are scored in memory only."
        )
    tmpl = MultipleChoiceState(convention, from_logprobs)
    return _state(tmpl, y_true, y_score, sample_weight).finalize()


# ----------------------------------------------------------------- calibration error
def calibration_error(
    y_true,
    y_proba,
    *,
    kind: str,
    options: Options,
    sample_weight=None,
    labels=None,
    pos_label=None,
    confidence_scale=1.0,
    transform=None,
) -> float:
    """The binned calibration error (``transform(y, p, w)``: of those forecasts,
    see :func:`~._graph.reduce_state`); HELM's equal-mass bins of 1-D
    forecasts from their exact order statistics (:mod:`._select`)."""
    kind = check_option(kind, "kind", _KINDS)
    scale = check_scale(confidence_scale)
    o = options
    helm = isinstance(o.binning, str) and o.binning == "helm"
    if helm and not is_2d(y_proba) and scale == 1.0:
        from ...metrics._calibration_error_core import check_helm_total
        from ._select import equal_mass_edges_of

        edges = equal_mass_edges_of(
            y_true,
            y_proba,
            sample_weight,
            o.n_bins,
            transform=transform,
            check_total=check_helm_total,
        )
        o = dataclasses.replace(o, binning=edges, right=True)
    if fixed_bin_ids(np.zeros(1), o) is None:
        if isinstance(o.binning, str) and o.binning in DATA_BINS_PRESETS:
            if o.binning == "helm":
                raise ValueError(
                    "binning='helm' is available for dask input with 1-D y_proba "
                    "and confidence_scale=1 only (its equal-mass bins are found "
                    "by an exact selection of the forecasts): pass the probability "
                    "of the positive class scaled to [0, 1], or binning=None."
                )
            raise ValueError(
                f"binning={o.binning!r} is not available for dask input: its bins "
                "depend on the order of all forecasts (not mergeable); pass "
                "binning=None, 'sklearn', 'netcal', 'torchmetrics' or explicit edges."
            )
        raise ValueError(
            "strategy='quantile' is not available for dask input: equal-mass bins "
            "need the quantiles of all forecasts (not mergeable); pass "
            "strategy='uniform' or explicit bin edges (binning=)."
        )
    tmpl = CalibrationBinsState(
        o, kind=kind, labels=labels, pos_label=pos_label, confidence_scale=scale
    )
    if transform is not None:  # mapped forecasts, not the input (as in memory)
        tmpl.warns_hard = False
    return reduce_state(
        tmpl, y_true, y_proba, sample_weight, transform=transform
    ).finalize()


# ----------------------------------------------------------------- BrierDecomposition
def fit_decomposition(est: Any, y_true, y_proba, sample_weight=None) -> Any:
    """``BrierDecomposition.fit`` on dask input: one pass, then the fitted
    state of :meth:`partial_fit` (so ``partial_fit`` and ``merge`` go on)."""
    opts = est._check_params()
    if opts["n_resamples"] > 0:
        raise ValueError(
            "n_resamples must be 0 for dask input: bootstrap intervals resample rows "
            "and are not mergeable (compute them on a subsample in memory)."
        )
    k = _n_columns(y_proba) if getattr(y_proba, "ndim", 1) == 2 else 1
    if k == 1 and getattr(y_proba, "ndim", 1) == 2:
        y_proba = _one_column(y_proba)
    if k == 1:
        check_binary_labels(est.labels)
    if opts["method"] == "corp":
        if k > 1:
            raise ValueError(
                "decomposition_method='corp' needs 1-D y_proba (the probability of "
                "pos_label) for dask input; use decomposition_method='murphy' for "
                "2-D y_proba."
            )
        table = _state(
            ForecastTable(pos_label=est.pos_label), y_true, y_proba, sample_weight
        )
        est._set_results([table.corp()], None, opts)
        est._stats = None
        est._chunk_classes = None
        est._fit_state = est._state(opts)
        return est
    strategy = opts["strategy"]
    if isinstance(strategy, str) and strategy == "quantile":
        raise ValueError(
            "strategy='quantile' is not available for dask input: equal-mass bins "
            "need the quantiles of all forecasts (not mergeable); pass "
            "strategy='uniform' or explicit bin edges."
        )
    edges = uniform_edges(opts["n_bins"]) if isinstance(strategy, str) else strategy
    chunk_classes = classes = None
    if k == 1:
        tmpl: Any = BinnedState(edges, right=True, pos_label=est.pos_label)
        stats = [_state(tmpl, y_true, y_proba, sample_weight).statistics()]
    else:
        tmpl = ClasswiseBinnedState(edges, right=True, labels=est.labels)
        state = _state(tmpl, y_true, y_proba, sample_weight)
        stats, chunk_classes = state.statistics()
        if k == 2:
            # the column binary_columns picks (pos_label, as in memory): the
            # forecast of a row (0, 1) in that column is its index
            probe = Forecast(
                np.zeros(1, np.intp), np.array([[0.0, 1.0]]), None, None, False
            )
            probe.classes = chunk_classes
            ((_, col),), _ = binary_columns(probe, est.pos_label)
            stats = [stats[int(col[0])]]
        else:
            classes = chunk_classes
    est._update_from_statistics(stats, classes, opts)
    est._chunk_classes = chunk_classes
    est._fit_state = est._state(opts)
    return est
