"""Decisions and iid inference of :mod:`skbrier.engines.spark`: net benefit,
the decision curve, ``brier_inference`` and ``compare_brier``, each from the
merged state of one Spark job."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._core.validation import check_scalar_probability
from ..states import (
    MomentState,
    ThresholdState,
)
from ._spark_reduce import doc, finished, source

__all__ = ["brier_inference", "compare_brier", "decision_curve", "net_benefit"]

# --------------------------------------------------------------------------
# decisions
# --------------------------------------------------------------------------


@doc
def net_benefit(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    threshold: float,
    prevalence: float | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Net benefit at one threshold of a Spark DataFrame's rows.

    :math:`\mathrm{NB}(p_t) = TP/W - FP/W \cdot p_t / (1 - p_t)`: the value
    of :func:`skbrier.metrics.net_benefit.net_benefit`.

    Parameters
    ----------
    {{inputs}}
    threshold : float
        The threshold probability, in (0, 1).
    prevalence : float, default=None
        Event rate of the target population (case-control data).
    {{group_by}}

    Returns
    -------
    float or dict
        The net benefit; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.net_benefit.net_benefit : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> sbs.net_benefit(df, threshold=0.5)  # doctest: +SKIP
    0.5
    """
    from ..metrics._decision_curve import check_prevalence

    t = check_scalar_probability(threshold, name="threshold", open_interval=True)
    prev = check_prevalence(prevalence)
    src = source(df, y, p, weight, group_by)
    tmpl = ThresholdState(np.array([t]), pos_label=pos_label)
    return finished(src, tmpl, lambda st: float(st.net_benefit(0, prev)[0]))


def _models(p: Any) -> tuple[dict[str, str], bool]:
    """``({model name: column}, single)`` of ``p``: a column, a list of
    columns (named by the columns) or a dict of model name to column."""
    if isinstance(p, str):
        return {"model": p}, True
    if isinstance(p, Mapping):
        models = dict(p)
    elif isinstance(p, Sequence):
        models = {c: c for c in p}
    else:
        raise TypeError(
            f"p must be a column name, a list of them or a dict of model name to "
            f"column, got {type(p).__name__}."
        )
    if not models:
        raise ValueError("p is empty: give at least one column of forecasts.")
    from ..metrics._decision_curve import check_models

    check_models({k: None for k in models})  # the in-memory checks of the names
    return models, False


@doc
def decision_curve(
    df: Any,
    y: str = "y",
    p: Any = "p",
    weight: str | None = None,
    *,
    thresholds: Any = None,
    prevalence: float | None = None,
    harm: Any = None,
    confidence_level: float = 0.95,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Decision curve (net benefit over thresholds) of one or several models.

    The value of :func:`skbrier.metrics.net_benefit.decision_curve` on the
    same rows (without resampling), with the treat-all and treat-none
    strategies.

    Parameters
    ----------
    {{inputs}}
        Several models: a list of columns (each named by its column) or a
        dict ``{model name: column}``.
    thresholds : array-like, default=None
        Threshold probabilities in [0, 1) (None: skbrier's default grid).
    prevalence : float, default=None
        Event rate of the target population (case-control data).
    harm : float or dict, default=None
        Harm of each model, in net-benefit units.
    confidence_level : float, default=0.95
        Kept on the result (no resampling here).
    {{group_by}}

    Returns
    -------
    DecisionCurveResult or dict
        The curve; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.net_benefit.decision_curve : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> sbs.decision_curve(df, thresholds=[0.1, 0.5]).net_benefit  # doctest: +SKIP
    array([0.44444444, 0.5       ])
    """
    from ..metrics._decision_curve import check_harm
    from ..metrics.net_benefit import _state_curve, curve_options

    models, single = _models(p)
    t, prev, _, level, _, _ = curve_options(
        thresholds, prevalence, 0, confidence_level, None, None
    )
    names = list(models)
    harms = check_harm(harm, names)
    first = models[names[0]]
    extra = {name: models[name] for name in names[1:]}
    src = source(df, y, first, weight, group_by, extra, p_name=_pname(names[0], single))
    tmpl = ThresholdState(t, models=names, single=single, pos_label=pos_label)

    return finished(src, tmpl, lambda st: _state_curve(st, prev, harms, level))


def _pname(model: str, single: bool) -> str:
    return "y_proba" if single else f"y_proba[{model!r}]"


# --------------------------------------------------------------------------
# iid inference
# --------------------------------------------------------------------------


def _iid_only(cov_type: Any) -> None:
    if cov_type != "iid":
        raise ValueError(
            f"cov_type={cov_type!r} is not available on a Spark DataFrame: HAC and "
            "the bootstrap need the whole series in memory, in order (not mergeable); "
            "use cov_type='iid' or compute on a sample in memory."
        )


@doc
def brier_inference(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    reference: Any = None,
    cov_type: str = "iid",
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier score, skill score and Brier Index with their iid covariance.

    The merged centred moments of the squared errors
    (:class:`~skbrier.states.MomentState`, Chan et al.'s update) give the
    iid covariance :math:`M_2 / ((W - 1) W)` of the mean losses: the value
    of :func:`skbrier.stats.brier_inference` with ``cov_type="iid"``.

    Parameters
    ----------
    {{inputs}}
    reference : None, float or str, default=None
        The skill score's reference: climatology, a constant rate or a
        column of reference forecasts.
    cov_type : {"iid"}, default="iid"
        Only iid intervals are mergeable.
    {{group_by}}

    Returns
    -------
    BrierInferenceResult or dict
        With ``confidence_interval()``; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.stats.brier_inference : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> res = sbs.brier_inference(df)  # doctest: +SKIP
    >>> round(res.brier_score, 4)  # doctest: +SKIP
    0.075
    """
    from ..stats._merged import constant_reference, inference_from_moments

    _iid_only(cov_type)
    extra, constant = {}, None
    if isinstance(reference, str):
        extra = {"reference": reference}
    elif reference is not None:
        constant = constant_reference(reference)
    src = source(df, y, p, weight, group_by, extra)
    tmpl = MomentState(tuple(extra), pos_label=pos_label)
    return finished(src, tmpl, functools.partial(inference_from_moments, constant=constant))


@doc
def compare_brier(
    df: Any,
    y: str = "y",
    p_a: str = "p_a",
    p_b: str = "p_b",
    weight: str | None = None,
    *,
    names: Sequence[str] | None = None,
    alternative: str = "two-sided",
    small_sample_correction: bool = False,
    lead_time: int = 1,
    ddof: int = 1,
    cov_type: str = "iid",
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Diebold-Mariano comparison of two forecasts' Brier scores (iid).

    The value of :func:`skbrier.stats.compare_brier` with ``cov_type="iid"``
    (the two forecasts given as a dict of the two columns), from the merged
    centred moments of both losses and their difference.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows.
    y : str, default="y"
        Column of the outcomes.
    p_a, p_b : str, default="p_a", "p_b"
        Columns of the two forecasts.
    weight : str, default=None
        Column of frequency weights.
    names : sequence of two str, default=None
        Names of the forecasts (default: the two column names).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative hypothesis about ``BS_a - BS_b``.
    small_sample_correction : bool, default=False
        Harvey, Leybourne and Newbold's correction.
    lead_time : int, default=1
        The forecast lead time ``h`` of the correction (R's ``dm.test``).
    ddof : {0, 1}, default=1
        Delta degrees of freedom of the variance.
    cov_type : {"iid"}, default="iid"
        Only iid intervals are mergeable.
    {{group_by}}

    Returns
    -------
    BrierComparisonResult or dict
        The comparison; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.stats.compare_brier : The same on arrays.

    Examples
    --------
    >>> from skbrier.engines import spark as sbs  # doctest: +SKIP
    >>> res = sbs.compare_brier(df, "y", "p_a", "p_b")  # doctest: +SKIP
    """
    from ..stats._merged import comparison_from_moments
    from ..stats.compare import _two_models, check_compare_options

    _iid_only(cov_type)
    opts = check_compare_options(
        cov_type, None, alternative, small_sample_correction, ddof, 9999, None, None
    )
    if not (isinstance(p_a, str) and isinstance(p_b, str)):
        raise TypeError("p_a and p_b must be column names (str).")
    _, _, pair = _two_models({p_a: None, p_b: None}, None, names)
    src = source(df, y, p_a, weight, group_by, {"y_proba_b": p_b}, p_name="y_proba_a")
    tmpl = MomentState(("y_proba_b",), pos_label=pos_label)
    tmpl.proba_name = "y_proba_a"

    def finish(st: Any) -> Any:
        return comparison_from_moments(
            st, names=pair, alternative=alternative,
            small_sample_correction=opts[2], lead_time=lead_time, ddof=opts[3],
        )  # fmt: skip

    return finished(src, tmpl, finish)
