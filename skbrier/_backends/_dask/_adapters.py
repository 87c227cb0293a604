"""The Dask adapters of the public functions (declared with ``skbrier._core.dispatch``).

Each takes the public function's arguments and routes 1-D (binary) and 2-D
(multiclass) ``y_proba`` to the state reductions of :mod:`._metrics` and
:mod:`._multiclass`.
"""

from __future__ import annotations

from typing import Any

from . import _fits, _inference, _metrics, _multiclass

__all__ = [
    "brier_inference",
    "brier_score",
    "brier_skill_score",
    "calibration_error",
    "calibration_in_the_large",
    "calibration_intercept_slope",
    "compare_brier",
    "decision_curve",
    "multiple_choice_brier_score",
    "net_benefit",
]


def brier_score(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    scale_by_half: Any = "auto",
) -> float:
    if _multiclass.is_2d(y_proba):
        return _multiclass.brier_score(
            y_true,
            y_proba,
            sample_weight=sample_weight,
            labels=labels,
            scale_by_half=scale_by_half,
        )
    return _metrics.brier_score(
        y_true,
        y_proba,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        scale_by_half=scale_by_half,
    )


def brier_skill_score(
    y_true: Any,
    y_proba: Any,
    *,
    reference: Any = None,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
) -> float:
    from ..._core.kernels.brier import warn_undefined_skill

    if _multiclass.is_2d(y_proba):
        score, bs_ref = _multiclass.brier_skill_score(
            y_true, y_proba, reference=reference, sample_weight=sample_weight, labels=labels
        )
        if bs_ref == 0.0:
            warn_undefined_skill()
        return score
    return _metrics.brier_skill_score(
        y_true,
        y_proba,
        reference=reference,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
    )


def calibration_intercept_slope(
    y_true: Any, y_proba: Any, *, sample_weight: Any = None, pos_label: Any = None
) -> Any:
    from ...metrics.calibration import _check_fit_counts, _logistic_result, _warn_excluded

    res = _fits.calibration_intercept_slope(
        y_true,
        y_proba,
        sample_weight=sample_weight,
        pos_label=pos_label,
        check_counts=_check_fit_counts,
        result=lambda st, n, excl: _logistic_result(st, n, excl, stacklevel=5),
    )
    _warn_excluded(res)
    return res


def calibration_in_the_large(
    y_true: Any, y_proba: Any, *, sample_weight: Any = None, pos_label: Any = None
) -> float:
    from ...metrics.calibration import _check_fit_counts

    return _fits.calibration_in_the_large(
        y_true,
        y_proba,
        sample_weight=sample_weight,
        pos_label=pos_label,
        check_counts=_check_fit_counts,
    )


def multiple_choice_brier_score(
    y_true: Any,
    y_score: Any,
    *,
    convention: Any = "per_example",
    from_logprobs: Any = False,
    sample_weight: Any = None,
) -> float:
    from ..._core.params import check_bool, check_option

    convention = check_option(convention, "convention", ("per_example", "bigbench"))
    from_logprobs = check_bool(from_logprobs, "from_logprobs")
    return _multiclass.multiple_choice_brier_score(
        y_true, y_score, convention, from_logprobs, sample_weight
    )


def net_benefit(
    y_true: Any,
    y_proba: Any,
    *,
    threshold: Any,
    sample_weight: Any = None,
    pos_label: Any = None,
    prevalence: Any = None,
) -> float:
    from ..._core.validation import check_scalar_probability
    from ...metrics._decision_curve import check_prevalence

    t = check_scalar_probability(threshold, name="threshold", open_interval=True)
    prev = check_prevalence(prevalence)
    return _metrics.net_benefit(y_true, y_proba, sample_weight, pos_label, t, prev)


def brier_inference(
    y_true: Any,
    y_proba: Any,
    *,
    reference: Any = None,
    cov_type: Any = "iid",
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    hac_kwds: Any = None,
    n_resamples: Any = 9999,
    bootstrap: Any = "iid",
    block_length: Any = None,
    method: Any = "percentile",
    random_state: Any = None,
    n_jobs: Any = None,
) -> Any:
    from ...stats.inference import (
        BrierInferenceResult,
        check_inference_options,
        check_min_samples,
    )

    cov_type = check_inference_options(
        cov_type, hac_kwds, n_resamples, n_jobs, random_state
    )[0]
    return _inference.brier_inference(
        y_true,
        y_proba,
        reference=reference,
        cov_type=cov_type,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        result=BrierInferenceResult,
        check_min_samples=check_min_samples,
    )


def compare_brier(
    y_true: Any,
    y_proba_a: Any,
    y_proba_b: Any = None,
    *,
    names: Any = None,
    cov_type: Any = "iid",
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    alternative: Any = "two-sided",
    small_sample_correction: Any = False,
    horizon: Any = 1,
    ddof: Any = 1,
    hac_kwds: Any = None,
    n_resamples: Any = 9999,
    bootstrap: Any = "iid",
    block_length: Any = None,
    method: Any = "percentile",
    random_state: Any = None,
    n_jobs: Any = None,
) -> Any:
    from ...stats.compare import (
        _asymptotic_result,
        _check_horizon,
        _two_models,
        check_compare_options,
    )
    from ...stats.inference import check_min_samples

    cov_type, _, small_sample_correction, ddof, _, _ = check_compare_options(
        cov_type,
        hac_kwds,
        alternative,
        small_sample_correction,
        ddof,
        n_resamples,
        n_jobs,
        random_state,
    )
    y_proba_a, y_proba_b, names = _two_models(y_proba_a, y_proba_b, names)
    return _inference.compare_brier(
        y_true,
        y_proba_a,
        y_proba_b,
        names=names,
        cov_type=cov_type,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        alternative=alternative,
        small_sample_correction=small_sample_correction,
        horizon=horizon,
        ddof=ddof,
        finish=_asymptotic_result,
        check_horizon=_check_horizon,
        check_min_samples=check_min_samples,
    )


def calibration_error(
    y_true: Any,
    y_proba: Any,
    *,
    kind: Any = "top_label",
    norm: Any = "l1",
    n_bins: Any = 15,
    strategy: Any = "uniform",
    binning: Any = None,
    debias: Any = False,
    right: Any = True,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    confidence_scale: Any = 1.0,
) -> float:
    from ...metrics._calibration_error_core import check_options

    return _multiclass.calibration_error(
        y_true,
        y_proba,
        kind=kind,
        options=check_options(norm, n_bins, strategy, binning, debias, right),
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        confidence_scale=confidence_scale,
    )


def decision_curve(
    y_true: Any,
    y_proba: Any,
    *,
    thresholds: Any = None,
    sample_weight: Any = None,
    prevalence: Any = None,
    pos_label: Any = None,
    n_resamples: Any = 0,
    confidence_level: Any = 0.95,
    random_state: Any = None,
    harm: Any = None,
    n_jobs: Any = None,
) -> Any:
    from ...metrics._decision_curve import check_harm, check_models
    from ...metrics.net_benefit import _curve_result, curve_options

    t, prev, n_resamples, level, _, _ = curve_options(
        thresholds, prevalence, n_resamples, confidence_level, n_jobs, random_state
    )
    models, single = check_models(y_proba, y_true)
    shares, prev_used, n = _metrics.decision_shares(
        y_true, models, single, sample_weight, pos_label, t, prev, n_resamples
    )
    harms = check_harm(harm, list(models))
    return _curve_result(shares, t, prev_used, harms, single, level, 0, None, n)
