"""The Array API adapters of the public functions (declared with ``skbrier._core.dispatch``).

Each takes the public function's arguments, validates the forecasts in
``y_proba``'s namespace (:func:`skbrier._core.array_api.array_api_forecast`) and
computes with the kernels of :mod:`skbrier._core.kernels.array_api`.
"""

from __future__ import annotations

from typing import Any

from .._core.array_api import XPForecast, array_api_forecast
from .._core.kernels import array_api as _xp_metrics
from .._core.kernels.brier import warn_undefined_skill

__all__ = [
    "decision_curve",
    "murphy_decomposition",
    "calibration_error",
    "brier_score",
    "brier_skill_score",
    "multiple_choice_brier_score",
    "net_benefit",
]


def _forecast(y_true: Any, y_proba: Any, sample_weight: Any, labels: Any, pos_label: Any):
    fc = array_api_forecast(
        y_true, y_proba, sample_weight=sample_weight, labels=labels, pos_label=pos_label
    )
    assert isinstance(fc, XPForecast)  # the dispatch only sends Array API input here
    return fc


def brier_score(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    scale_by_half: Any = "auto",
) -> float:
    from ..metrics.brier import _check_scale_by_half

    scale_by_half = _check_scale_by_half(scale_by_half)
    fc = _forecast(y_true, y_proba, sample_weight, labels, pos_label)
    return _xp_metrics.brier(fc, scale_by_half=scale_by_half)


def brier_skill_score(
    y_true: Any,
    y_proba: Any,
    *,
    reference: Any = None,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
) -> float:
    fc = _forecast(y_true, y_proba, sample_weight, labels, pos_label)
    score, bs_ref = _xp_metrics.skill(fc, reference)
    if bs_ref == 0.0:
        warn_undefined_skill()
    return score


def multiple_choice_brier_score(
    y_true: Any,
    y_score: Any,
    *,
    convention: Any = "per_example",
    from_logprobs: Any = False,
    sample_weight: Any = None,
) -> Any:
    from .._core.params import check_bool, check_option

    convention = check_option(convention, "convention", ("per_example", "bigbench"))
    from_logprobs = check_bool(from_logprobs, "from_logprobs")
    score = _xp_metrics.multiple_choice(
        y_true, y_score, convention, from_logprobs, sample_weight
    )
    return NotImplemented if score is None else score


def net_benefit(
    y_true: Any,
    y_proba: Any,
    *,
    threshold: Any,
    sample_weight: Any = None,
    pos_label: Any = None,
    prevalence: Any = None,
) -> Any:
    from .._core.validation import check_scalar_probability
    from ..metrics._decision_curve import check_prevalence

    t = check_scalar_probability(threshold, name="threshold", open_interval=True)
    prev = check_prevalence(prevalence)
    fc = _forecast(y_true, y_proba, sample_weight, None, pos_label)
    if fc.binary_1d and (nb := _xp_metrics.net_benefit(fc, t, prev)) is not None:
        return nb
    return NotImplemented


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
) -> Any:
    """Uniform bins of the binary or top-label error on the device; everything
    else (presets, quantile bins, debiasing, classwise) on the host."""
    from ..metrics._calibration_error_core import check_options

    o = check_options(norm, n_bins, strategy, binning, debias, right)
    simple = o.strategy == "uniform" and o.binning is None and not o.debias
    if not (simple and confidence_scale == 1.0 and kind in ("binary", "top_label")):
        return NotImplemented
    fc = _forecast(y_true, y_proba, sample_weight, labels, pos_label)
    ece = _xp_metrics.calibration_error_of_kind(
        fc, kind, pos_label, o.n_bins, o.norm, o.right
    )
    return NotImplemented if ece is None else ece


def murphy_decomposition(
    y_true: Any,
    y_proba: Any,
    *,
    n_bins: Any = 10,
    strategy: Any = "uniform",
    right: Any = True,
    sample_weight: Any = None,
    bias_correction: Any = False,
    labels: Any = None,
    pos_label: Any = None,
    n_resamples: Any = 0,
    confidence_level: Any = 0.95,
    random_state: Any = None,
    n_jobs: Any = None,
) -> Any:
    """Uniform bins without a bootstrap on the device; quantile bins and the
    bootstrap on the host."""
    from .._core.params import validate_random_state
    from ..metrics._decomposition_results import MulticlassDecomposition
    from ..metrics.decomposition import murphy_options

    opts = murphy_options(
        n_bins, strategy, right, bias_correction, n_resamples, confidence_level, n_jobs
    )
    validate_random_state(random_state)
    if (
        not (isinstance(opts["strategy"], str) and opts["strategy"] == "uniform")
        or opts["n_resamples"]
    ):
        return NotImplemented
    fc = _forecast(y_true, y_proba, sample_weight, labels, pos_label)
    results = _murphy(
        fc, pos_label, opts["n_bins"], opts["right"], opts["bias_correction"], opts["level"]
    )
    if results is None:
        return NotImplemented
    if fc.binary_1d or fc.proba.shape[1] == 2:
        return results[0]
    return MulticlassDecomposition(
        method="murphy", classes=fc.classes, per_class=tuple(results)
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
    """The curves on the device; the bootstrap (and any doubt) on the host."""
    from ..metrics._decision_curve import DecisionCurveResult, check_harm, check_models
    from ..metrics.net_benefit import curve_options

    t, prev, n_resamples, level, _, _ = curve_options(
        thresholds, prevalence, n_resamples, confidence_level, n_jobs, random_state
    )
    if n_resamples:
        return NotImplemented
    models, single = check_models(y_proba, y_true)
    harms = check_harm(harm, list(models))
    curves = _xp_metrics.decision_curves(
        y_true, models, sample_weight, pos_label, t, prev, harms
    )
    if curves is None:
        return NotImplemented
    nb, nia, prev_used = curves
    return DecisionCurveResult(
        thresholds=t,
        prevalence=prev_used,
        net_benefit_by_model=nb,
        interventions_avoided_by_model=nia,
        harm=harms,
        single=single,
        n_resamples=0,
        confidence_level=level,
        bootstrap_replicates=None,
    )


def _murphy(
    fc: XPForecast,
    pos_label: Any,
    n_bins: int,
    right: bool,
    bias_correction: bool,
    level: float,
) -> list[Any] | None:
    """Binned decompositions (uniform bins) of each binary problem, or None."""
    import dataclasses

    from .._core.binning import uniform_edges
    from .._core.kernels.array_api import _scaled_weights, bin_sums, binary_columns
    from .._core.kernels.bin_statistics import BinStatistics
    from ..metrics._decomposition_core import murphy_result

    try:
        pairs = binary_columns(fc, pos_label)
    except ValueError:
        return None
    edges = uniform_edges(n_bins)
    ws, exponent = _scaled_weights(fc)
    sub = XPForecast(fc.xp, fc.device, fc.y, fc.proba, ws, fc.classes, fc.binary_1d)
    out = []
    for y01, p in pairs:
        count, sw, swp, swy, swpp, swpy, sww = bin_sums(sub, y01, p, edges, right=right)
        scaled = BinStatistics(edges, count, sw, swp, swy, swpp, swpy, sww, right=right)
        d = murphy_result(scaled, bias_correction, exponent)
        stats = scaled.scaled(-exponent)
        out.append(
            dataclasses.replace(
                d,
                statistics=stats,
                bin_weights=stats.sum_w,
                n_resamples=0,
                confidence_level=level,
                bootstrap_distribution=None,
            )
        )
    return out
