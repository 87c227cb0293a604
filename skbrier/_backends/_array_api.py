"""The Array API adapters of the public functions (declared with ``skbrier._core.dispatch``).

Each receives the call's arguments (a :class:`~skbrier._core.dispatch.Call`,
the public signature's defaults applied), checks the options with the public
function's own checks, validates the forecasts in ``y_proba``'s namespace
(:func:`skbrier._core.array_api.array_api_forecast`) and computes with the
same kernels as the numpy path (:mod:`skbrier._core.kernels`: each
statistic's ``*_reduce`` in the input's namespace, on its device, then its
``*_finish`` on the host sums).  ``NotImplemented`` sends a call the device
path does not serve (presets, quantile bins, bootstraps) to the numpy body on
host copies.
"""

from __future__ import annotations

from typing import Any

from .._core.array_api import (
    XPForecast,
    array_api_forecast,
    array_api_reference,
    binary_columns,
)
from .._core.dispatch import Call
from .._core.kernels.brier import (
    brier_finish,
    brier_reduce,
    skill_reduce,
    warn_undefined_skill,
)
from .._core.multilabel import is_multilabel

__all__ = [
    "brier_score",
    "brier_skill_score",
    "calibration_error",
    "decision_curve",
    "multiple_choice_brier_score",
    "murphy_decomposition",
    "net_benefit",
    "ranked_probability_score",
    "ranked_probability_skill_score",
]


def _forecast(c: Call, *, labels: bool = True, warn_hard: bool = True) -> XPForecast | None:
    """The validated forecast on the device, or None (weights the host
    rescales: the numpy path computes)."""
    return array_api_forecast(
        c.y_true,
        c.y_proba,
        sample_weight=c.sample_weight,
        labels=c.labels if labels else None,
        pos_label=c.pos_label,
        warn_hard=warn_hard,
    )


def _one_column(x: Any) -> bool:
    """Whether forecasts are 1-D or one column (the host's errors name the
    other shapes for the statistics of one probability per row)."""
    ndim = getattr(x, "ndim", 1)
    return ndim == 1 or (ndim == 2 and int(x.shape[1]) == 1)


def brier_score(c: Call) -> Any:
    from ..metrics.brier import _check_scale_by_half

    if is_multilabel(c.y_true):
        return NotImplemented  # a multilabel indicator: the host copies

    scale_by_half = _check_scale_by_half(c.scale_by_half)
    fc = _forecast(c)
    if fc is None:
        return NotImplemented
    sums = brier_reduce(fc.xp, fc.y, fc.proba, fc.sample_weight)
    return brier_finish(sums, scale_by_half)


def brier_skill_score(c: Call) -> Any:
    if is_multilabel(c.y_true):
        return NotImplemented  # a multilabel indicator: the host copies
    fc = _forecast(c)
    if fc is None:
        return NotImplemented
    ref = array_api_reference(fc, c.reference)
    score, bs_ref = skill_reduce(fc.xp, fc.y, fc.proba, fc.sample_weight, ref)
    if bs_ref == 0.0:
        warn_undefined_skill()
    return score


def multiple_choice_brier_score(c: Call) -> Any:
    from .._core.array_api import array_api_choices
    from .._core.kernels.multiple_choice import choice_finish, choice_reduce
    from .._core.params import check_bool, check_option

    convention = check_option(c.convention, "convention", ("per_example", "bigbench"))
    from_logprobs = check_bool(c.from_logprobs, "from_logprobs")
    checked = array_api_choices(c.y_true, c.y_score, from_logprobs, c.sample_weight)
    if checked is None:
        return NotImplemented
    xp, proba, targets, w = checked
    return choice_finish(choice_reduce(xp, proba, targets, w, convention=convention))


def net_benefit(c: Call) -> Any:
    import numpy as np

    from .._core.kernels.net_benefit import net_benefit_finish, threshold_reduce
    from .._core.validation import check_scalar_probability
    from ..metrics._decision_curve import check_prevalence

    t = check_scalar_probability(c.threshold, name="threshold", open_interval=True)
    prev = check_prevalence(c.prevalence)
    if not _one_column(c.y_proba):
        return NotImplemented  # the host raises its error of 2-D forecasts
    fc = _forecast(c, labels=False, warn_hard=False)  # a 0/1 test is valid input
    if fc is None:
        return NotImplemented
    if not fc.binary_1d:
        return NotImplemented  # the host raises
    thresholds = np.array([t])
    sums = threshold_reduce(fc.xp, fc.y, fc.proba, fc.sample_weight, thresholds)
    if not sums.events > 0.0 or (prev is not None and not sums.nonevents > 0.0):
        return NotImplemented  # the host raises
    return float(net_benefit_finish(sums, thresholds, prev)[0])


def calibration_error(c: Call) -> Any:
    """Uniform bins of the binary, top-label or classwise error on the device
    (the kernel's reduce in the input's namespace, then its finish)."""
    from .._core.binning import uniform_edges
    from .._core.kernels.calibration_error import (
        bin_sums,
        calibration_finish,
        edge_bin_ids,
        top_label_reduce,
    )
    from ..metrics._calibration_error_core import _KINDS, check_options, check_sample_size

    o = check_options(c.norm, c.n_bins, c.strategy, c.binning, c.debias, c.right, c.squared)
    simple = o.strategy == "uniform" and o.binning is None
    if is_multilabel(c.y_true) or not (
        simple and c.confidence_scale == 1.0 and c.kind in _KINDS
    ):
        return NotImplemented
    fc = _forecast(c)
    if fc is None:
        return NotImplemented
    xp, w, nb = fc.xp, fc.sample_weight, o.n_bins
    edges = uniform_edges(nb)

    def bins(p: Any) -> Any:
        return edge_bin_ids(xp, p, edges, o.right)

    classwise = False
    if fc.binary_1d or c.kind == "binary":
        if not fc.binary_1d and fc.n_columns != 2:
            return NotImplemented  # the host raises
        try:
            pairs = binary_columns(fc, c.pos_label)
        except ValueError:
            return NotImplemented
        sums = [bin_sums(xp, bins(p), p, y01, w, nb) for y01, p in pairs]
    elif c.kind == "top_label":
        sums = [top_label_reduce(xp, fc.proba, fc.y, w, bins, nb)]
    else:
        classwise = True
        dt = fc.proba.dtype
        sums = []
        for j in range(fc.n_columns):
            p = fc.proba[:, j]
            sums.append(bin_sums(xp, bins(p), p, xp.astype(fc.y == j, dt), w, nb))
    check_sample_size(o, int(fc.proba.shape[0]), fc.total_weight())
    return calibration_finish(
        sums, o.norm, classwise=classwise, debias=o.debias, squared=o.squared
    )


def murphy_decomposition(c: Call) -> Any:
    """Uniform bins without a bootstrap on the device."""
    from .._core.params import validate_random_state
    from ..metrics._decomposition_results import MulticlassDecomposition
    from ..metrics.decomposition import murphy_options

    opts = murphy_options(
        c.n_bins,
        c.strategy,
        c.right,
        c.bias_correction,
        c.n_resamples,
        c.confidence_level,
        c.n_jobs,
    )
    validate_random_state(c.random_state)
    uniform = isinstance(opts["strategy"], str) and opts["strategy"] == "uniform"
    if not uniform or opts["n_resamples"] or is_multilabel(c.y_true):
        return NotImplemented
    fc = _forecast(c)
    if fc is None:
        return NotImplemented
    results = _murphy(
        fc,
        c.pos_label,
        opts["n_bins"],
        opts["right"],
        opts["bias_correction"],
        opts["level"],
    )
    if results is None:
        return NotImplemented
    if fc.binary_1d or fc.proba.shape[1] == 2:
        return results[0]
    return MulticlassDecomposition(
        decomposition_method="murphy", classes=fc.classes, per_class=tuple(results)
    )


def decision_curve(c: Call) -> Any:
    """The curves on the device; the bootstrap (and any doubt) on the host."""
    from .._core.kernels.net_benefit import threshold_reduce, threshold_shares
    from ..metrics._decision_curve import check_harm, check_models
    from ..metrics.net_benefit import _curve_result, call_curve_options

    t, prev, n_resamples, level, _, _ = call_curve_options(c)
    if n_resamples:
        return NotImplemented
    models, single = check_models(c.y_proba, c.y_true)
    harms = check_harm(c.harm, list(models))
    shares = {}
    prev_used = n = None
    for name, proba in models.items():
        if not _one_column(proba):
            return NotImplemented  # the host raises its error of 2-D forecasts
        fc = array_api_forecast(
            c.y_true,
            proba,
            sample_weight=c.sample_weight,
            pos_label=c.pos_label,
            warn_hard=False,  # a binary test's 0/1 results are valid input
        )
        if fc is None or not fc.binary_1d:
            return NotImplemented
        sums = threshold_reduce(fc.xp, fc.y, fc.proba, fc.sample_weight, t)
        w1, w0 = sums.events, sums.nonevents
        if not w1 > 0.0 or (prev is not None and not w0 > 0.0):
            return NotImplemented  # the host raises
        if prev_used is None:
            prev_used = float(w1 / (w0 + w1)) if prev is None else prev
            n = int(fc.y.shape[0]) if fc.sample_weight is None else float(w0 + w1)
        shares[name] = threshold_shares(sums, prev)
    if prev_used is None or n is None:
        return NotImplemented
    return _curve_result(shares, t, prev_used, harms, single, level, 0, None, n)


def _weight_exponent(fc: XPForecast) -> int:
    """The power of two that puts the largest weight in [0.5, 1) (0 without weights)."""
    import numpy as np

    from .._core.kernels.decomposition import pow2_exponent

    w = fc.sample_weight
    return 0 if w is None else pow2_exponent(np.array([float(fc.xp.max(w))]))


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
    from .._core.kernels.bin_statistics import BinStatistics
    from .._core.kernels.calibration_error import edge_bin_ids
    from .._core.kernels.decomposition import binned_sums
    from ..metrics._decomposition_core import murphy_result

    try:
        pairs = binary_columns(fc, pos_label)
    except ValueError:
        return None
    edges = uniform_edges(n_bins)
    w, exponent = fc.sample_weight, _weight_exponent(fc)
    out = []
    for y01, p in pairs:
        ids = edge_bin_ids(fc.xp, p, edges, right)
        sums = binned_sums(ids, n_bins, y01, p, w, exponent=exponent, xp=fc.xp)
        scaled = BinStatistics(edges, *sums, right=right)
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


def _ordinal(c: Call) -> tuple[XPForecast, Any] | None:
    """The validated forecast and each row's category (its column in the
    order, on the device); None for 1-D input (the host raises)."""
    from ..metrics.ranked import ranked_order

    if getattr(c.y_proba, "ndim", 2) != 2:
        return None  # the host raises its error of 1-D forecasts first
    y_true, order, perm = ranked_order(c.y_true, c.labels)
    fc = array_api_forecast(
        y_true,
        c.y_proba,
        sample_weight=c.sample_weight,
        labels=order if perm is None else order[perm],
    )
    if fc is None or fc.binary_1d:
        return None
    if perm is None:
        return fc, fc.y
    return fc, fc.xp.take(fc.xp.asarray(perm, device=fc.device), fc.y)


def ranked_probability_score(c: Call) -> Any:
    """The ranked kernel's reduce on the device, its finish on the host sums."""
    from .._core.kernels.ranked import ranked_finish, ranked_reduce
    from .._core.params import check_bool

    normalize = check_bool(c.normalize, "normalize")
    got = _ordinal(c)
    if got is None:
        return NotImplemented
    fc, y = got
    return ranked_finish(ranked_reduce(fc.xp, y, fc.proba, fc.sample_weight), normalize)


def ranked_probability_skill_score(c: Call) -> Any:
    import numpy as np

    from .._core.array_api import to_numpy
    from .._core.kernels.ranked import ranked_reduce, ranked_skill_finish
    from ..metrics.ranked import check_ranked_reference

    got = _ordinal(c)
    if got is None:
        return NotImplemented
    fc, y = got
    ref = constant = None
    ndim = getattr(c.reference, "ndim", None)
    if c.reference is not None and (np.ndim(c.reference) if ndim is None else ndim) == 2:
        ref = array_api_reference(fc, c.reference, warn_hard=False)  # as the host
    elif c.reference is not None:
        shape = tuple(int(d) for d in fc.proba.shape)
        _, constant = check_ranked_reference(to_numpy(c.reference), shape)
    sums = ranked_reduce(
        fc.xp, y, fc.proba, fc.sample_weight, reference=ref, class_weight=ref is None
    )
    score, bs_ref = ranked_skill_finish(sums, constant)
    if bs_ref == 0.0:
        warn_undefined_skill("ranked_probability_skill_score")
    return score
