"""``brier_inference`` and ``compare_brier`` with ``cov_type="iid"`` on dask
input: one map-reduce of centred moments (:class:`~skbrier.states.MomentState`),
then the in-memory finishing formulas (``metric_values``, the covariance
``M2 / ((W - ddof) W)``, ``_asymptotic_result``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._core.kernels.brier import (
    check_differential_varies,
    check_losses_vary,
    check_skill_defined,
    comparison_fields,
)
from ..._core.validation import check_scalar_probability
from ...states import MomentState
from ._graph import reduce_state
from ._metrics import _check_1d, _check_1d_labels

__all__ = [
    "brier_inference",
    "compare_brier",
    "compare_from_moments",
    "constant_reference",
    "inference_from_moments",
]


def _iid_only(cov_type: str) -> None:
    if cov_type != "iid":
        raise ValueError(
            f"cov_type={cov_type!r} is not available for dask input: HAC and the "
            "bootstrap need the whole series in memory (not mergeable); use "
            "cov_type='iid' or compute on a subsample in memory."
        )


def _sizes(n: int, w: float, weighted: bool, check_min_samples) -> float:
    check_min_samples(n, w if weighted else None)
    return float(w if weighted else n)


def brier_inference(
    y_true,
    y_proba,
    *,
    reference,
    cov_type,
    sample_weight,
    labels,
    pos_label,
    result,
    check_min_samples,
):
    """``result``: the result class and ``check_min_samples`` the check of
    :mod:`skbrier.stats.inference` (passed by the hook: no import back)."""
    _iid_only(cov_type)
    _check_1d(y_proba)
    _check_1d_labels(labels)
    cols = {}
    constant = None
    if reference is not None and np.ndim(reference) == 0:
        constant = constant_reference(reference)
    elif reference is not None:
        cols = {"reference": reference}
    state = reduce_state(
        MomentState(tuple(cols), pos_label=pos_label),
        y_true,
        y_proba,
        sample_weight,
        **cols,
    )
    return inference_from_moments(state, constant, result, check_min_samples)


def constant_reference(reference: float) -> tuple[float, float]:
    """The squared errors ``(outcome 0, outcome 1)`` of a constant reference
    forecast (validated here)."""
    ref = check_scalar_probability(reference, name="reference")
    return ref * ref, (1.0 - ref) ** 2


def inference_from_moments(
    state: MomentState,
    constant: tuple[float, float] | None,
    result: Any,
    check_min_samples: Any,
) -> Any:
    """``brier_inference``'s iid result from the merged :class:`MomentState`:
    the reference is its ``reference`` column, a constant forecast
    (``constant``, :func:`constant_reference`) or, with neither,
    climatology."""
    from ..._core.kernels.moments import metric_values

    climatology = constant is None and not state.columns
    if climatology:
        w0, w1 = state.class_weights()
        zbar = w1 / (w0 + w1)
        constant = (zbar * zbar, (1.0 - zbar) ** 2)
    n, w, mean, m2, lo, hi = state.class_moments(constant)
    total = _sizes(n, w, state.weighted, check_min_samples)
    bs, bs0 = float(mean[0]), float(mean[-1] if constant is not None else mean[1])
    check_skill_defined(bs0, climatology)
    check_losses_vary(hi[0] > lo[0])
    j = m2.shape[0] - 1 if constant is not None else 1
    sel = [0, j]
    cov = m2[np.ix_(sel, sel)] / ((w - 1.0) * w)
    return result(
        **metric_values(bs, bs0, 1.0),
        covariance=cov,
        n=n,
        total_weight=total,
        cov_type="iid",
        _index_scale=1.0,
    )


def compare_brier(
    y_true,
    y_proba_a,
    y_proba_b,
    *,
    names,
    cov_type,
    sample_weight,
    labels,
    pos_label,
    alternative,
    small_sample_correction,
    horizon,
    ddof,
    finish,
    check_horizon,
    check_min_samples,
):
    """``finish(common, var, hln, horizon, t)``, ``check_horizon`` and
    ``check_min_samples``: the helpers of :mod:`skbrier.stats.compare` (passed
    by the hook: no import back into the public layer)."""

    _iid_only(cov_type)
    _check_1d(y_proba_a)
    _check_1d(y_proba_b)
    _check_1d_labels(labels)
    # dask arrays of known shape; DataFrame columns are checked per partition
    known = all(
        type(x).__module__.startswith("dask.array") and not any(d != d for d in x.shape)
        for x in (y_proba_a, y_proba_b)
    )
    if known and tuple(y_proba_a.shape) != tuple(y_proba_b.shape):
        raise ValueError(
            f"y_proba_a has shape {y_proba_a.shape} but y_proba_b has shape "
            f"{y_proba_b.shape}; the two forecasters must forecast the same outcomes."
        )
    tmpl = MomentState(("y_proba_b",), pos_label=pos_label)
    tmpl.proba_name = "y_proba_a"
    state = reduce_state(tmpl, y_true, y_proba_a, sample_weight, y_proba_b=y_proba_b)
    return compare_from_moments(
        state,
        names=names,
        cov_type=cov_type,
        alternative=alternative,
        small_sample_correction=small_sample_correction,
        horizon=horizon,
        ddof=ddof,
        finish=finish,
        check_horizon=check_horizon,
        check_min_samples=check_min_samples,
    )


def compare_from_moments(
    state: MomentState,
    *,
    names,
    cov_type,
    alternative,
    small_sample_correction,
    horizon,
    ddof,
    finish,
    check_horizon,
    check_min_samples,
) -> Any:
    """``compare_brier``'s iid result from the merged :class:`MomentState`
    of ``y_proba_a`` with the column ``y_proba_b``."""
    n, w, mean, m2, lo, hi = state.class_moments()  # columns la, lb, la - lb
    total = _sizes(n, w, state.weighted, check_min_samples)
    horizon = check_horizon(horizon, max(n, 2))
    check_differential_varies(hi[2] > lo[2])
    bs_a, bs_b, diff = (float(v) for v in mean)
    cov = m2 / ((w - float(ddof)) * w)
    common = comparison_fields(
        bs_a,
        bs_b,
        diff,
        n=n,
        total_weight=total,
        cov_type=cov_type,
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
    return finish(common, float(cov[2, 2]), small_sample_correction, horizon, t_hln)
