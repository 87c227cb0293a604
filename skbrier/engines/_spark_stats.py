"""Decisions and iid inference of :mod:`skbrier.engines.spark`: net benefit,
the decision curve, ``brier_inference`` and ``compare_brier``, each from the
merged state of one Spark job."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ..states import (
    MomentState,
    ThresholdState,
)
from ._spark_reduce import doc, finished, reference_columns, source, spark_function
from ._statistics import curve_options, models_option, net_benefit_options

__all__ = ["brier_inference", "compare_brier", "decision_curve", "net_benefit"]

# --------------------------------------------------------------------------
# decisions
# --------------------------------------------------------------------------


def _net_benefit(a: Any) -> Any:
    t, prev = net_benefit_options(a.threshold, a.prevalence)
    src = source(a.df, a.y, a.p, a.weight, a.group_by)
    tmpl = ThresholdState(t, pos_label=a.pos_label)
    return finished(src, tmpl, lambda st: float(st.net_benefit(0, prev)[0]))


net_benefit = spark_function(
    "net_benefit",
    _net_benefit,
    notes="The value of :func:`skbrier.metrics.net_benefit.net_benefit` on the same rows.",
    see_also="skbrier.metrics.net_benefit.net_benefit : The same on arrays.",
    examples="""\
{{spark}}
>>> sbs.net_benefit(df, threshold=0.5)  # doctest: +SKIP
0.5""",
)


def _decision_curve(a: Any) -> Any:
    from ..metrics.net_benefit import _state_curve

    models, single = models_option(a.p)
    names = list(models)
    t, prev, harms, level = curve_options(
        a.thresholds, a.prevalence, a.harm, names, a.confidence_level
    )
    first = models[names[0]]
    extra = {name: models[name] for name in names[1:]}
    p_name = _pname(names[0], single)
    src = source(a.df, a.y, first, a.weight, a.group_by, extra, p_name=p_name)
    tmpl = ThresholdState(t, models=names, single=single, pos_label=a.pos_label)

    return finished(src, tmpl, lambda st: _state_curve(st, prev, harms, level))


decision_curve = spark_function(
    "decision_curve",
    _decision_curve,
    notes="""\
One or several models: the value of
:func:`skbrier.metrics.net_benefit.decision_curve` on the same rows (without
resampling), with the treat-all and treat-none strategies.""",
    see_also="skbrier.metrics.net_benefit.decision_curve : The same on arrays.",
    examples="""\
{{spark}}
>>> sbs.decision_curve(df, thresholds=[0.1, 0.5]).net_benefit  # doctest: +SKIP
array([0.44444444, 0.5       ])""",
)


def _pname(model: str, single: bool) -> str:
    return "y_proba" if single else f"y_proba[{model!r}]"


# --------------------------------------------------------------------------
# iid inference
# --------------------------------------------------------------------------


def _brier_inference(a: Any) -> Any:
    from ..stats._merged import check_iid, constant_reference, inference_from_moments

    check_iid(a.cov_type, "on a Spark DataFrame")
    extra, rate = reference_columns(a.reference)
    constant = None if rate is None else constant_reference(rate)
    src = source(a.df, a.y, a.p, a.weight, a.group_by, extra)
    tmpl = MomentState(tuple(extra), pos_label=a.pos_label)
    return finished(src, tmpl, functools.partial(inference_from_moments, constant=constant))


brier_inference = spark_function(
    "brier_inference",
    _brier_inference,
    notes=r"""\
The merged centred moments of the squared errors
(:class:`~skbrier.states.MomentState`, Chan et al.'s update) give the iid
covariance :math:`M_2 / ((W - 1) W)` of the mean losses.""",
    see_also="skbrier.stats.brier_inference : The same on arrays.",
    examples="""\
{{spark}}
>>> res = sbs.brier_inference(df)  # doctest: +SKIP
>>> round(res.brier_score, 4)  # doctest: +SKIP
0.075""",
)


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
        Names of the forecasts (default: ``("a", "b")``, as in memory).
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
    from ..stats._merged import check_iid, comparison_from_moments
    from ..stats.compare import _two_models, check_compare_options

    check_iid(cov_type, "on a Spark DataFrame")
    opts = check_compare_options(
        cov_type, None, alternative, small_sample_correction, ddof, 9999, None, None
    )
    if not (isinstance(p_a, str) and isinstance(p_b, str)):
        raise TypeError("p_a and p_b must be column names (str).")
    # the names as in memory and on Dask: ("a", "b") unless given (checked there)
    pair = _two_models(p_a, p_b, names)[2]
    src = source(df, y, p_a, weight, group_by, {"y_proba_b": p_b}, p_name="y_proba_a")
    tmpl = MomentState(("y_proba_b",), pos_label=pos_label)
    tmpl.proba_name = "y_proba_a"

    def finish(st: Any) -> Any:
        return comparison_from_moments(
            st,
            names=pair,
            alternative=alternative,
            small_sample_correction=opts[2],
            lead_time=lead_time,
            ddof=opts[3],
        )

    return finished(src, tmpl, finish)
