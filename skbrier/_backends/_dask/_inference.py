"""``brier_inference`` and ``compare_brier`` with ``cov_type="iid"`` on dask
input: one map-reduce of centred moments (:class:`~skbrier.states.MomentState`),
then their finish (:mod:`skbrier.stats._merged`: ``metric_values``, the
covariance ``M2 / ((W - ddof) W)``, ``_asymptotic_result``)."""

from __future__ import annotations

import numpy as np

from ..._core.validation import check_binary_labels
from ...states import MomentState
from ._graph import reduce_state
from ._metrics import _check_1d
from ._multiclass import known_shape, shapes_differ

__all__ = ["brier_inference", "compare_brier"]


def brier_inference(
    y_true,
    y_proba,
    *,
    reference,
    cov_type,
    sample_weight,
    labels,
    pos_label,
):
    """The iid result from the merged moments
    (:func:`skbrier.stats._merged.inference_from_moments`)."""
    from ...stats._merged import check_iid, constant_reference, inference_from_moments

    check_iid(cov_type, "for dask input")
    _check_1d(y_proba)
    check_binary_labels(labels)
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
    return inference_from_moments(state, constant)


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
    lead_time,
    ddof,
):
    """The iid result from the merged moments
    (:func:`skbrier.stats._merged.comparison_from_moments`)."""
    from ...stats._merged import check_iid, comparison_from_moments

    check_iid(cov_type, "for dask input")
    _check_1d(y_proba_a)
    _check_1d(y_proba_b)
    check_binary_labels(labels)
    # the dimensions known before computing; the others are checked per partition
    shape_a, shape_b = known_shape(y_proba_a), known_shape(y_proba_b)
    if shapes_differ(shape_a, shape_b):
        raise ValueError(
            f"y_proba_a has shape {shape_a} but y_proba_b has shape "
            f"{shape_b}; the two forecasters must forecast the same outcomes."
        )
    tmpl = MomentState(("y_proba_b",), pos_label=pos_label)
    tmpl.proba_name = "y_proba_a"
    state = reduce_state(tmpl, y_true, y_proba_a, sample_weight, y_proba_b=y_proba_b)
    return comparison_from_moments(
        state,
        names=names,
        alternative=alternative,
        small_sample_correction=small_sample_correction,
        lead_time=lead_time,
        ddof=ddof,
    )
