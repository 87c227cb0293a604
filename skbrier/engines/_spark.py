"""skbrier on Spark DataFrames: every mergeable statistic of a DataFrame's
columns, exactly, in one Spark job, optionally per group.

Each function takes a Spark DataFrame and the names of its columns (``y``
the outcome, ``p`` the probability of the positive class, ``weight``
optional frequency weights) and returns what skbrier's function of the same
name returns for the same rows (a float or a result object of
:mod:`skbrier.results`); with ``group_by`` (a column name or a list of them)
a dict ``{group: result}`` sorted by group, whose key is the group's value
(a tuple of values for several columns).

How: every partition reduces its rows to the statistic's mergeable state
(:mod:`skbrier.states`: the kernel's reduce, with the in-memory checks) in a
``mapInArrow`` -- one Spark job, no shuffle -- and the states are merged and
finished on the driver with the kernel's finish, so the numbers equal the
numpy path's (to rounding: the sums are added in another order) and bad
input in any partition raises the in-memory error, with a note naming the
columns.  The Brier score, Brier Index and skill score of 0/1 outcomes are
summed by Spark's own aggregations (no Python worker), with one more
aggregate showing every row valid; any other input takes the general way.

Not mergeable, so not here: equal-mass (quantile) bins, bootstrap intervals,
HAC intervals (the rows have no order in Spark); :func:`calibration_report`
computes those on a uniform subsample drawn in the same job, as on Dask.

Needs ``pyspark`` (``pip install 'skbrier[spark]'``) and a Java runtime;
skbrier must be importable by the Python workers (installed on every
executor, e.g. with ``--py-files`` or the cluster's environment).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .._core.binning import uniform_edges
from .._core.kernels.brier import (
    brier_finish,
    brier_index_from_score,
    skill_finish,
    warn_undefined_skill,
)
from .._core.params import check_resolution
from .._core.validation import check_scalar_probability
from ..states import (
    BinnedState,
    BrierState,
    ForecastTable,
    MomentState,
    SpiegelhalterState,
    StateBundle,
    ThresholdState,
)
from ._spark_reduce import (
    Source,
    doc,
    native_brier_sums,
    partition_states,
    per_group,
    source,
)
from ._spark_report import calibration_report

__all__ = [
    "brier_index",
    "brier_inference",
    "brier_score",
    "brier_skill_score",
    "c_statistic",
    "calibration_bins",
    "calibration_error",
    "calibration_report",
    "compare_brier",
    "corp_decomposition",
    "decision_curve",
    "murphy_decomposition",
    "net_benefit",
    "score",
    "spiegelhalter_z",
]


def _finish(src: Source, template: Any, finish: Callable[[Any], Any]) -> Any:
    """The result of every group: ``finish(merged state)``."""
    states = partition_states(src, template)
    return per_group(src, {k: finish(s) for k, s in states.items()}, template)


def _fast_labels(pos_label: Any) -> bool:
    """Whether 0/1 outcomes mean what they say with this ``pos_label``."""
    if pos_label is None:
        return True
    return isinstance(pos_label, (int, float, np.number)) and pos_label == 1


# --------------------------------------------------------------------------
# the Brier family
# --------------------------------------------------------------------------


def _brier(src: Source, pos_label: Any, finish: Callable, *, rate: Any = None) -> Any:
    """The Brier family: ``finish(BrierSums)`` per group (Spark's aggregations
    for 0/1 outcomes, else the states)."""
    ref = src.extra.get("reference")
    if _fast_labels(pos_label):
        sums = native_brier_sums(src, reference=ref, class_weight=ref is None)
        if sums is not None:
            return per_group(src, {k: finish(s) for k, s in sums.items()})
    tmpl = BrierState(pos_label=pos_label, with_reference=ref is not None)
    return _finish(src, tmpl, lambda st: finish(st.sums()))


@doc
def brier_score(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier score of the rows of a Spark DataFrame (per group with ``group_by``).

    :math:`\mathrm{BS} = \sum_i w_i (p_i - y_i)^2 / \sum_i w_i`: the value of
    :func:`skbrier.brier_score` on the same rows.  0/1 outcomes are summed
    by Spark's aggregations (one pass, no Python worker); other labels go
    through the mergeable states (one ``mapInArrow``).

    Parameters
    ----------
    {{inputs}}
    {{group_by}}

    Returns
    -------
    float or dict
        The Brier score; with ``group_by`` a dict ``{group: score}``.

    {{raises}}

    See Also
    --------
    skbrier.brier_score : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.brier_score(df), 4)  # doctest: +SKIP
    0.075
    >>> sbs.brier_score(df, group_by="g")  # doctest: +SKIP
    {1: 0.065, 2: 0.085}
    """
    src = source(df, y, p, weight, group_by)
    return _brier(src, pos_label, brier_finish)


@doc
def brier_index(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier Index :math:`100 (1 - \sqrt{\mathrm{BS}})` of a Spark DataFrame's rows.

    The value of :func:`skbrier.brier_index` on the same rows (see
    :func:`brier_score` for how it is computed).

    Parameters
    ----------
    {{inputs}}
    {{group_by}}

    Returns
    -------
    float or dict
        The Brier Index; with ``group_by`` a dict ``{group: index}``.

    {{raises}}

    See Also
    --------
    skbrier.brier_index : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.brier_index(df), 2)  # doctest: +SKIP
    72.61
    """
    src = source(df, y, p, weight, group_by)
    return _brier(src, pos_label, lambda s: brier_index_from_score(brier_finish(s)))


def _skill(rate: float | None) -> Callable:
    def finish(s: Any) -> float:
        score, bs_ref = skill_finish(s, rate)
        if bs_ref == 0.0:
            warn_undefined_skill()
        return score

    return finish


@doc
def brier_skill_score(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    reference: Any = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier skill score :math:`1 - \mathrm{BS} / \mathrm{BS}_\mathrm{ref}` of a
    Spark DataFrame's rows.

    The value of :func:`skbrier.brier_skill_score` on the same rows: the
    reference is climatology (the weighted event rate of the rows, of each
    group), a constant rate, or a column of reference forecasts.

    Parameters
    ----------
    {{inputs}}
    reference : None, float or str, default=None
        None: climatology; a float in [0, 1]: that constant forecast; a str:
        the column of reference forecasts.
    {{group_by}}

    Returns
    -------
    float or dict
        The skill score (NaN with an ``UndefinedMetricWarning`` when the
        reference scores 0); with ``group_by`` a dict ``{group: skill}``.

    {{raises}}

    See Also
    --------
    skbrier.brier_skill_score : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.brier_skill_score(df), 4)  # doctest: +SKIP
    0.7
    """
    extra = {}
    rate = None
    if isinstance(reference, str):
        extra = {"reference": reference}
    elif reference is not None:
        rate = check_scalar_probability(reference, name="reference")
    src = source(df, y, p, weight, group_by, extra)
    return _brier(src, pos_label, _skill(rate))


# --------------------------------------------------------------------------
# bins
# --------------------------------------------------------------------------


def _edges(n_bins: Any, strategy: Any) -> np.ndarray:
    """Fixed bin edges (equal-mass bins are not mergeable: refused)."""
    from .._core.params import check_n_bins
    from ..metrics._decomposition_core import check_strategy

    strategy = check_strategy(strategy)
    if isinstance(strategy, str):
        if strategy == "quantile":
            raise ValueError(
                "strategy='quantile' is not available on a Spark DataFrame: equal-mass "
                "bins need the quantiles of all forecasts (not mergeable); pass "
                "strategy='uniform' or explicit bin edges."
            )
        return uniform_edges(check_n_bins(n_bins))
    return strategy


@doc
def calibration_error(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    norm: str = "l1",
    n_bins: int = 15,
    strategy: str = "uniform",
    binning: Any = None,
    debias: bool = False,
    right: bool = True,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Binned calibration error (ECE, RMS or MCE) of a Spark DataFrame's rows.

    :math:`\mathrm{ECE} = \sum_b \frac{W_b}{W} |\bar p_b - \bar y_b|` on fixed
    bins: the value of :func:`skbrier.metrics.calibration_error.calibration_error`
    for the same rows and options.

    Parameters
    ----------
    {{inputs}}
    norm : {"l1", "l2", "max"}, default="l1"
        ECE, RMS calibration error or MCE.
    n_bins : int, default=15
        Number of uniform bins.
    strategy : {"uniform"}, default="uniform"
        Equal-width bins (equal-mass bins are not mergeable: refused).
    binning : str, array-like or None, default=None
        A preset of fixed bins (``"sklearn"``, ``"netcal"``,
        ``"torchmetrics"``) or explicit edges.
    debias : bool, default=False
        Kumar et al.'s debiased l2 estimator.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin.
    {{group_by}}

    Returns
    -------
    float or dict
        The calibration error; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.calibration_error.calibration_error : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.calibration_error(df, n_bins=2), 4)  # doctest: +SKIP
    0.3
    """
    from ..metrics._calibration_error_core import check_options, fixed_bin_ids
    from ..states import CalibrationBinsState

    o = check_options(norm, n_bins, strategy, binning, debias, right)
    src = source(df, y, p, weight, group_by)
    if o.binning is None and o.strategy == "uniform" and not o.debias:
        tmpl: Any = BinnedState(uniform_edges(o.n_bins), right=o.right, pos_label=pos_label)
        return _finish(src, tmpl, lambda st: st.calibration_error(o.norm))
    if fixed_bin_ids(np.zeros(1), o) is None:
        what = (
            "binning=" + repr(o.binning) if o.binning is not None else "strategy='quantile'"
        )
        raise ValueError(
            f"{what} is not available on a Spark DataFrame: its bins depend on all "
            "forecasts (not mergeable); pass fixed bins (strategy='uniform', a "
            "fixed binning preset or explicit edges)."
        )
    tmpl = CalibrationBinsState(o, kind="binary", pos_label=pos_label)
    return _finish(src, tmpl, lambda st: st.finalize())


@doc
def calibration_bins(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    n_bins: int = 10,
    strategy: Any = "uniform",
    right: bool = True,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Per-bin sums of a Spark DataFrame's rows: the reliability diagram's bins.

    :class:`~skbrier.metrics.decomposition.BinStatistics` (per bin: rows,
    :math:`\sum w`, :math:`\sum w p`, :math:`\sum w y`, ...): the value of
    :func:`skbrier.metrics.decomposition.binned_statistics` on the same
    rows (the outcomes coded 0/1).

    Parameters
    ----------
    {{inputs}}
    n_bins : int, default=10
        Number of uniform bins.
    strategy : "uniform" or array-like, default="uniform"
        Uniform bins, or explicit bin edges covering the forecasts.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin.
    {{group_by}}

    Returns
    -------
    BinStatistics or dict
        The per-bin sums; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.decomposition.binned_statistics : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> sbs.calibration_bins(df, n_bins=2).count  # doctest: +SKIP
    array([2, 2])
    """
    from .._core.params import check_bool

    edges = _edges(n_bins, strategy)
    tmpl = BinnedState(edges, right=check_bool(right, "right"), pos_label=pos_label)
    src = source(df, y, p, weight, group_by)
    return _finish(src, tmpl, lambda st: st.statistics())


@doc
def murphy_decomposition(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    n_bins: int = 10,
    strategy: Any = "uniform",
    right: bool = True,
    bias_correction: bool = False,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Binned (Murphy) decomposition of the Brier score of a Spark DataFrame's rows.

    :math:`\mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC} +
    \mathrm{WBV} - \mathrm{WBC}` on fixed bins: the value of
    :func:`skbrier.metrics.decomposition.murphy_decomposition` on the same
    rows (without resampling).

    Parameters
    ----------
    {{inputs}}
    n_bins : int, default=10
        Number of uniform bins.
    strategy : "uniform" or array-like, default="uniform"
        Uniform bins, or explicit bin edges.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin.
    bias_correction : bool, default=False
        Ferro and Fricker's bias-corrected terms.
    {{group_by}}

    Returns
    -------
    MurphyDecomposition or dict
        The decomposition; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.decomposition.murphy_decomposition : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.murphy_decomposition(df, n_bins=2).brier_score, 4)  # doctest: +SKIP
    0.075
    """
    from .._core.params import check_bool

    edges = _edges(n_bins, strategy)
    bias_correction = check_bool(bias_correction, "bias_correction")
    tmpl = BinnedState(edges, right=check_bool(right, "right"), pos_label=pos_label)
    src = source(df, y, p, weight, group_by)
    return _finish(src, tmpl, lambda st: st.murphy(bias_correction=bias_correction))


# --------------------------------------------------------------------------
# order statistics: CORP and C
# --------------------------------------------------------------------------


@doc
def corp_decomposition(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    resolution: float | str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""CORP decomposition of a Spark DataFrame's rows, exactly.

    :math:`\mathrm{BS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC}` from the
    isotonic (PAV) recalibration, computed from the merged table of the
    distinct forecasts (:class:`~skbrier.states.ForecastTable`): the value of
    :func:`skbrier.metrics.decomposition.corp_decomposition` on the same rows.

    Parameters
    ----------
    {{inputs}}
    resolution : float, "auto" or None, default=None
        Round the forecasts to multiples of it first (None: exact; "auto":
        exact up to 2**20 distinct forecasts per class).
    {{group_by}}

    Returns
    -------
    CORPDecomposition or dict
        The decomposition; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.decomposition.corp_decomposition : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.corp_decomposition(df).miscalibration, 4)  # doctest: +SKIP
    0.075
    """
    tmpl = ForecastTable(resolution=check_resolution(resolution), pos_label=pos_label)
    src = source(df, y, p, weight, group_by)
    return _finish(src, tmpl, lambda st: st.corp())


@doc
def c_statistic(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    resolution: float | str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""C statistic (area under the ROC curve) of a Spark DataFrame's rows, exactly.

    From the merged table of the distinct forecasts (ties and weights
    included): the value of :func:`skbrier.metrics.calibration.c_statistic`.

    Parameters
    ----------
    {{inputs}}
    resolution : float, "auto" or None, default=None
        Round the forecasts to multiples of it first (None: exact).
    {{group_by}}

    Returns
    -------
    float or dict
        C; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.calibration.c_statistic : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> sbs.c_statistic(df)  # doctest: +SKIP
    1.0
    """
    tmpl = ForecastTable(resolution=check_resolution(resolution), pos_label=pos_label)
    src = source(df, y, p, weight, group_by)
    return _finish(src, tmpl, lambda st: st.c_statistic())


@doc
def spiegelhalter_z(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Spiegelhalter's z test of a Spark DataFrame's rows.

    :math:`z = \sum_i w_i (y_i - p_i)(1 - 2p_i) / \sqrt{\sum_i w_i (1 -
    2p_i)^2 p_i (1 - p_i)}`: the value of
    :func:`skbrier.metrics.calibration.spiegelhalter_z`.

    Parameters
    ----------
    {{inputs}}
    {{group_by}}

    Returns
    -------
    SpiegelhalterResult or dict
        ``(statistic, pvalue)``; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.calibration.spiegelhalter_z : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.spiegelhalter_z(df).statistic, 4)  # doctest: +SKIP
    -0.5051
    """
    from ..metrics._calibration_results import SpiegelhalterResult

    src = source(df, y, p, weight, group_by)
    tmpl = SpiegelhalterState(pos_label=pos_label)
    return _finish(src, tmpl, lambda st: SpiegelhalterResult(*st.finalize()))


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
    return _finish(src, tmpl, lambda st: float(st.net_benefit(0, prev)[0]))


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
    from .._backends._dask._metrics import shares_of
    from ..metrics._decision_curve import check_harm
    from ..metrics.net_benefit import _curve_result, curve_options

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

    def finish(st: Any) -> Any:
        shares, prev_used, n = shares_of(st, prev)
        return _curve_result(shares, t, prev_used, harms, single, level, 0, None, n)

    return _finish(src, tmpl, finish)


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
    from .._backends._dask._inference import constant_reference, inference_from_moments
    from ..stats.inference import BrierInferenceResult, check_min_samples

    _iid_only(cov_type)
    extra, constant = {}, None
    if isinstance(reference, str):
        extra = {"reference": reference}
    elif reference is not None:
        constant = constant_reference(reference)
    src = source(df, y, p, weight, group_by, extra)
    tmpl = MomentState(tuple(extra), pos_label=pos_label)
    finish = functools.partial(
        _inference, constant=constant, finish=inference_from_moments,
        result=BrierInferenceResult, check=check_min_samples,
    )  # fmt: skip
    return _finish(src, tmpl, finish)


def _inference(state: Any, *, constant: Any, finish: Any, result: Any, check: Any) -> Any:
    return finish(state, constant, result, check)


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
    horizon: int = 1,
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
    horizon : int, default=1
        Forecast horizon of the correction.
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
    from .._backends._dask._inference import compare_from_moments
    from ..stats.compare import (
        _asymptotic_result,
        _check_horizon,
        _two_models,
        check_compare_options,
    )
    from ..stats.inference import check_min_samples

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
        return compare_from_moments(
            st, names=pair, cov_type="iid", alternative=alternative,
            small_sample_correction=opts[2], horizon=horizon, ddof=opts[3],
            finish=_asymptotic_result, check_horizon=_check_horizon,
            check_min_samples=check_min_samples,
        )  # fmt: skip

    return _finish(src, tmpl, finish)


# --------------------------------------------------------------------------
# several statistics in one pass; the report
# --------------------------------------------------------------------------

#: the statistics of :func:`score`: ``name -> (state key, fresh state, finish)``
_SCORES: dict[str, tuple[str, Callable[[Any], Any], Callable[[Any], Any]]] = {
    "brier_score": ("brier", lambda pl: BrierState(pos_label=pl), lambda s: s.finalize()),
    "brier_index": (
        "brier",
        lambda pl: BrierState(pos_label=pl),
        lambda s: s.brier_index(),
    ),
    "brier_skill_score": (
        "brier",
        lambda pl: BrierState(pos_label=pl),
        lambda s: _skill(None)(s.sums()),
    ),
    "calibration_error": (
        "ece",
        lambda pl: BinnedState(uniform_edges(15), pos_label=pl),
        lambda s: s.calibration_error("l1"),
    ),
    "murphy_decomposition": (
        "bins",
        lambda pl: BinnedState(uniform_edges(10), pos_label=pl),
        lambda s: s.murphy(),
    ),
    "corp_decomposition": (
        "table",
        lambda pl: ForecastTable(pos_label=pl),
        lambda s: s.corp(),
    ),
    "c_statistic": (
        "table",
        lambda pl: ForecastTable(pos_label=pl),
        lambda s: s.c_statistic(),
    ),
    "spiegelhalter_z": (
        "spiegelhalter",
        lambda pl: SpiegelhalterState(pos_label=pl),
        lambda s: _spiegelhalter_result(s),
    ),
    "brier_inference": (
        "moments",
        lambda pl: MomentState(pos_label=pl),
        lambda s: _iid_inference(s),
    ),
}


def _spiegelhalter_result(state: Any) -> Any:
    from ..metrics._calibration_results import SpiegelhalterResult

    return SpiegelhalterResult(*state.finalize())


def _iid_inference(state: Any) -> Any:
    from .._backends._dask._inference import inference_from_moments
    from ..stats.inference import BrierInferenceResult, check_min_samples

    return inference_from_moments(state, None, BrierInferenceResult, check_min_samples)


@doc
def score(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    metrics: Sequence[str] = ("brier_score", "brier_index", "brier_skill_score"),
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Several statistics of a Spark DataFrame's rows in one pass (one Spark job).

    The states of all ``metrics`` are updated together
    (:class:`~skbrier.states.StateBundle`: each partition is read and
    checked once) and each is finished as the function of the same name
    does with its default options: ``brier_score``, ``brier_index``,
    ``brier_skill_score`` (climatology), ``calibration_error`` (15 uniform
    bins, l1), ``murphy_decomposition`` (10 uniform bins),
    ``corp_decomposition``, ``c_statistic``, ``spiegelhalter_z`` and
    ``brier_inference`` (iid).

    Parameters
    ----------
    {{inputs}}
    metrics : sequence of str, default=("brier_score", "brier_index", "brier_skill_score")
        The statistics, among those above.
    {{group_by}}

    Returns
    -------
    dict
        ``{metric: result}``; with ``group_by`` ``{group: {metric: result}}``.

    {{raises}}

    See Also
    --------
    calibration_report : The calibration audit in one pass.

    Examples
    --------
    {{spark}}
    >>> sbs.score(df, metrics=["brier_score", "c_statistic"])  # doctest: +SKIP
    {'brier_score': 0.075, 'c_statistic': 1.0}
    """
    if isinstance(metrics, str) or not isinstance(metrics, Sequence) or not metrics:
        raise TypeError(f"metrics must be a non-empty list of names, got {metrics!r}.")
    for m in metrics:
        if m not in _SCORES:
            raise ValueError(f"metrics: unknown {m!r}; choose among {sorted(_SCORES)}.")
    members = {_SCORES[m][0]: _SCORES[m][1](pos_label) for m in metrics}
    tmpl = StateBundle(members, pos_label=pos_label)
    src = source(df, y, p, weight, group_by)

    def finish(bundle: Any) -> dict:
        return {m: _SCORES[m][2](bundle.state(_SCORES[m][0])) for m in metrics}

    return _finish(src, tmpl, finish)
