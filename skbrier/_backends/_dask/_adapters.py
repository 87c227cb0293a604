"""The Dask adapters of the public functions (declared with ``skbrier._core.dispatch``).

Each receives the call's arguments (a :class:`~skbrier._core.dispatch.Call`,
the public signature's defaults applied), checks the options with the public
function's own checks, reduces the data to its states (:mod:`._metrics`,
:mod:`._multiclass`, :mod:`._fits`, :mod:`._inference`, :mod:`._report`) and
finishes with the public layer's finishing functions.
"""

from __future__ import annotations

from typing import Any

from ..._core.dispatch import Call
from . import _fits, _inference, _metrics, _multiclass

__all__ = [
    "brier_inference",
    "brier_score",
    "brier_skill_score",
    "c_statistic",
    "calibration_error",
    "calibration_in_the_large",
    "calibration_intercept_slope",
    "calibration_report",
    "compare_brier",
    "corp_decomposition",
    "decision_curve",
    "fit_decomposition",
    "multiple_choice_brier_score",
    "murphy_decomposition",
    "net_benefit",
    "ranked_probability_score",
    "ranked_probability_skill_score",
    "spiegelhalter_z",
]


def _binary(c: Call) -> dict[str, Any]:
    """The keyword arguments every binary reduction takes."""
    return {"sample_weight": c.sample_weight, "pos_label": c.pos_label}


def _refuse_multilabel(c: Call) -> None:
    if _multiclass.is_2d(c.y_true):
        raise TypeError(
            "y_true: a multilabel indicator (2-D y_true) is scored in memory only; "
            "pass numpy arrays (e.g. y_true.compute())."
        )


def brier_score(c: Call) -> float:
    _refuse_multilabel(c)
    if _multiclass.is_2d(c.y_proba):
        return _multiclass.brier_score(
            c.y_true,
            c.y_proba,
            sample_weight=c.sample_weight,
            labels=c.labels,
            scale_by_half=c.scale_by_half,
        )
    return _metrics.brier_score(
        c.y_true, c.y_proba, labels=c.labels, scale_by_half=c.scale_by_half, **_binary(c)
    )


def brier_skill_score(c: Call) -> float:
    _refuse_multilabel(c)
    if _multiclass.is_2d(c.y_proba):
        score, _ = _multiclass.brier_skill_score(
            c.y_true,
            c.y_proba,
            reference=c.reference,
            sample_weight=c.sample_weight,
            labels=c.labels,
        )
        return score  # NaN with the state's warning when the reference scores 0
    return _metrics.brier_skill_score(
        c.y_true, c.y_proba, reference=c.reference, labels=c.labels, **_binary(c)
    )


def calibration_intercept_slope(c: Call) -> Any:
    from ...metrics.calibration import _check_fit_counts, _logistic_result, _warn_excluded

    res = _fits.calibration_intercept_slope(
        c.y_true,
        c.y_proba,
        check_counts=_check_fit_counts,
        result=lambda st, n, excl: _logistic_result(st, n, excl, stacklevel=5),
        **_binary(c),
    )
    _warn_excluded(res)
    return res


def calibration_in_the_large(c: Call) -> float:
    from ...metrics.calibration import _check_fit_counts

    return _fits.calibration_in_the_large(
        c.y_true, c.y_proba, check_counts=_check_fit_counts, **_binary(c)
    )


def spiegelhalter_z(c: Call) -> Any:
    return _metrics.spiegelhalter_z(c.y_true, c.y_proba, **_binary(c))


def c_statistic(c: Call) -> float:
    return _metrics.c_statistic(c.y_true, c.y_proba, resolution=c.resolution, **_binary(c))


def calibration_error(c: Call) -> float:
    from ..._core.params import check_option
    from ...metrics._calibration_error_core import _KINDS, check_options, check_scale

    _refuse_multilabel(c)
    o = check_options(c.norm, c.n_bins, c.strategy, c.binning, c.debias, c.right, c.squared)
    kind = check_option(c.kind, "kind", _KINDS)
    plain = (
        getattr(c.y_proba, "ndim", 1) == 1  # 1-D: binary whatever the kind
        and not o.squared
        and o.binning is None
        and o.strategy == "uniform"
        and not o.debias
        and c.labels is None
        and check_scale(c.confidence_scale) == 1.0
    )
    if plain:  # the binned decomposition's state (calibration_report's bundle has it)
        return _metrics.binary_calibration_error(
            c.y_true, c.y_proba, n_bins=o.n_bins, norm=o.norm, right=o.right, **_binary(c)
        )
    return _multiclass.calibration_error(
        c.y_true,
        c.y_proba,
        kind=kind,
        options=o,
        sample_weight=c.sample_weight,
        labels=c.labels,
        pos_label=c.pos_label,
        confidence_scale=c.confidence_scale,
    )


#: the options the decompositions check on dask input
_CHECKED = ("labels", "n_resamples")


def _options(c: Call, names: tuple[str, ...]) -> dict[str, Any]:
    """The call's arguments ``names`` by name, with those of :func:`_binary`."""
    return {name: getattr(c, name) for name in names} | _binary(c)


def murphy_decomposition(c: Call) -> Any:
    names = ("n_bins", "strategy", "right", "bias_correction") + _CHECKED
    return _metrics.murphy_decomposition(c.y_true, c.y_proba, **_options(c, names))


def corp_decomposition(c: Call) -> Any:
    names = _CHECKED + ("resolution",)
    return _metrics.corp_decomposition(c.y_true, c.y_proba, **_options(c, names))


def fit_decomposition(c: Call) -> Any:
    return _multiclass.fit_decomposition(c.self, c.y_true, c.y_proba, c.sample_weight)


def multiple_choice_brier_score(c: Call) -> float:
    from ..._core.params import check_bool, check_option

    convention = check_option(c.convention, "convention", ("per_example", "bigbench"))
    from_logprobs = check_bool(c.from_logprobs, "from_logprobs")
    return _multiclass.multiple_choice_brier_score(
        c.y_true, c.y_score, convention, from_logprobs, c.sample_weight
    )


def net_benefit(c: Call) -> float:
    from ..._core.validation import check_scalar_probability
    from ...metrics._decision_curve import check_prevalence

    t = check_scalar_probability(c.threshold, name="threshold", open_interval=True)
    prev = check_prevalence(c.prevalence)
    return _metrics.net_benefit(c.y_true, c.y_proba, c.sample_weight, c.pos_label, t, prev)


def decision_curve(c: Call) -> Any:
    from ...metrics._decision_curve import check_models
    from ...metrics.net_benefit import _state_curve, call_curve_options

    t, prev, n_resamples, level, _, _ = call_curve_options(c)
    models, single = check_models(c.y_proba, c.y_true)
    state = _metrics.decision_state(
        c.y_true, models, single, c.sample_weight, c.pos_label, t, n_resamples
    )
    return _state_curve(state, prev, c.harm, level)


def brier_inference(c: Call) -> Any:
    from ...stats.inference import check_inference_options

    cov_type = check_inference_options(
        c.cov_type,
        c.hac_kwds,
        c.n_resamples,
        c.n_jobs,
        c.random_state,
        c.bootstrap,
        c.block_length,
    )[0]
    return _inference.brier_inference(
        c.y_true,
        c.y_proba,
        reference=c.reference,
        cov_type=cov_type,
        labels=c.labels,
        **_binary(c),
    )


def compare_brier(c: Call) -> Any:
    from ...stats.compare import _two_models, check_compare_options

    cov_type, _, small_sample_correction, ddof, _, _ = check_compare_options(
        c.cov_type,
        c.hac_kwds,
        c.alternative,
        c.small_sample_correction,
        c.ddof,
        c.n_resamples,
        c.n_jobs,
        c.random_state,
        c.bootstrap,
        c.block_length,
    )
    y_proba_a, y_proba_b, names = _two_models(c.y_proba_a, c.y_proba_b, c.names)
    return _inference.compare_brier(
        c.y_true,
        y_proba_a,
        y_proba_b,
        names=names,
        cov_type=cov_type,
        labels=c.labels,
        alternative=c.alternative,
        small_sample_correction=small_sample_correction,
        lead_time=c.lead_time,
        ddof=ddof,
        **_binary(c),
    )


def calibration_report(c: Call) -> Any:
    from . import _report

    return _report.calibration_report(c)


def _check_ordinal_shape(y_proba: Any) -> None:
    """The in-memory error of forecasts of one column, for the whole input
    (a partition's state named its own shape, "for this state")."""
    from ...metrics.ranked import not_ordinal_shape

    if not _multiclass.is_2d(y_proba):
        # a DataFrame's rows are a lazy count: nan, as dask writes unknown sizes
        shape = tuple(
            d if isinstance(d, (int, float)) else float("nan") for d in y_proba.shape
        )
        raise not_ordinal_shape(shape)


def ranked_probability_score(c: Call) -> float:
    """One pass of :class:`~skbrier.states.RankedProbabilityState` (the ranked
    kernel's hypotheses form per label), then its finish."""
    from ..._core.params import check_bool
    from ...states import RankedProbabilityState
    from ._graph import reduce_state

    normalize = check_bool(c.normalize, "normalize")
    _check_ordinal_shape(c.y_proba)
    tmpl = RankedProbabilityState(labels=c.labels)
    return reduce_state(tmpl, c.y_true, c.y_proba, c.sample_weight).finalize(normalize)


def ranked_probability_skill_score(c: Call) -> float:
    """Climatology or a constant forecast from the category weights; reference
    forecasts as a second column of the same pass."""
    import numpy as np

    from ...states import RankedProbabilityState
    from ._graph import reduce_state

    _check_ordinal_shape(c.y_proba)
    constant, cols = None, {}
    if c.reference is not None and _multiclass.is_2d(c.reference):
        cols = {"reference": c.reference}
    elif c.reference is not None:
        from ...metrics.ranked import check_ranked_reference

        k = _multiclass._n_columns(c.y_proba) if _multiclass.is_2d(c.y_proba) else 0
        _, constant = check_ranked_reference(np.asarray(c.reference), (0, k))
    tmpl = RankedProbabilityState(labels=c.labels, with_reference=bool(cols))
    state = reduce_state(tmpl, c.y_true, c.y_proba, c.sample_weight, **cols)
    return state.skill(constant)
