r"""The iid inference of merged centred moments (Dask, Spark): the finish of
:class:`~skbrier.states.MomentState` into ``brier_inference``'s and
``compare_brier``'s results, with the in-memory formulas (``metric_values``,
the covariance :math:`M_2 / ((W - \mathrm{ddof}) W)`, ``_asymptotic_result``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.kernels.brier import (
    check_differential_varies,
    check_losses_vary,
    check_skill_defined,
    comparison_fields,
)
from .._core.kernels.moments import mean_covariance, metric_values
from .._core.validation import check_scalar_probability
from ..states import MomentState
from .compare import BrierComparisonResult, _asymptotic_result, _check_lead_time
from .inference import BrierInferenceResult, check_min_samples

__all__ = [
    "check_iid",
    "comparison_from_moments",
    "constant_reference",
    "inference_from_moments",
]


def check_iid(cov_type: Any, where: str) -> None:
    """Refuse a ``cov_type`` other than "iid" for input reduced to merged
    moments (``where``: e.g. "for dask input", "on a Spark DataFrame").

    Examples
    --------
    >>> check_iid("iid", "for dask input")
    >>> check_iid("hac", "for dask input")
    Traceback (most recent call last):
    ...
    ValueError: cov_type='hac' is not available for dask input: ...
    """
    if cov_type != "iid":
        raise ValueError(
            f"cov_type={cov_type!r} is not available {where}: HAC and the bootstrap "
            "need the whole series in memory, in order (not mergeable); use "
            "cov_type='iid' or compute on a subsample in memory."
        )


def _sizes(n: int, w: float, weighted: bool) -> float:
    check_min_samples(n, w if weighted else None)
    return float(w if weighted else n)


def constant_reference(reference: float) -> tuple[float, float]:
    """The squared errors ``(outcome 0, outcome 1)`` of a constant reference
    forecast (validated here)."""
    ref = check_scalar_probability(reference, name="reference")
    return ref * ref, (1.0 - ref) ** 2


def inference_from_moments(
    state: MomentState, constant: tuple[float, float] | None
) -> BrierInferenceResult:
    """``brier_inference``'s iid result from the merged :class:`MomentState`:
    the reference is its ``reference`` column, a constant forecast
    (``constant``, :func:`constant_reference`) or, with neither,
    climatology."""
    climatology = constant is None and not state.columns
    if climatology:
        w0, w1 = state.class_weights()
        zbar = w1 / (w0 + w1)
        constant = (zbar * zbar, (1.0 - zbar) ** 2)
    n, w, mean, m2, lo, hi = state.class_moments(constant)
    total = _sizes(n, w, state.weighted)
    bs, bs0 = float(mean[0]), float(mean[-1] if constant is not None else mean[1])
    check_skill_defined(bs0, climatology)
    check_losses_vary(lo[0], hi[0])
    j = m2.shape[0] - 1 if constant is not None else 1
    sel = [0, j]
    cov = mean_covariance((n, w, mean, m2, lo, hi))[np.ix_(sel, sel)]
    return BrierInferenceResult(
        **metric_values(bs, bs0, 1.0),
        covariance=cov,
        n=n,
        total_weight=total,
        cov_type="iid",
        _index_scale=1.0,
    )


def comparison_from_moments(
    state: MomentState,
    *,
    names: tuple[str, str],
    alternative: str,
    small_sample_correction: bool,
    lead_time: Any,
    ddof: int,
) -> BrierComparisonResult:
    """``compare_brier``'s iid result from the merged :class:`MomentState`
    of ``y_proba_a`` with the column ``y_proba_b``."""
    n, w, mean, m2, lo, hi = state.class_moments()  # columns la, lb, la - lb
    total = _sizes(n, w, state.weighted)
    lead_time = _check_lead_time(lead_time, max(n, 2))
    check_differential_varies(lo[2], hi[2], max(abs(lo[0]), hi[0], abs(lo[1]), hi[1]))
    bs_a, bs_b, diff = (float(v) for v in mean)
    cov = mean_covariance((n, w, mean, m2, lo, hi), ddof)
    common = comparison_fields(
        bs_a,
        bs_b,
        diff,
        n=n,
        total_weight=total,
        cov_type="iid",
        alternative=alternative,
        names=names,
    )
    # u = ga la + gb lb = ga (la - lb) + (ga + gb) lb: no cancellation when a ~ b
    with np.errstate(divide="ignore", invalid="ignore"):
        ga, gb = -50.0 / np.sqrt(bs_a), 50.0 / np.sqrt(bs_b)
    if np.isfinite(ga) and np.isfinite(gb):
        s = ga + gb
        var_u = ga * ga * cov[2, 2] + s * s * cov[1, 1] + 2.0 * ga * s * cov[1, 2]
        se_u = float(np.sqrt(max(var_u, 0.0)))
    else:
        se_u = np.nan
    common["brier_index_difference_standard_error"] = se_u
    t_hln = total
    return _asymptotic_result(
        common, float(cov[2, 2]), small_sample_correction, lead_time, t_hln
    )
