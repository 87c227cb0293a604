"""The Brier family of :mod:`skbrier.engines.spark` (Brier score, Brier Index,
skill score: Spark's own sums for 0/1 outcomes, else the states) and
:func:`score`, several statistics in one Spark job."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._core.binning import uniform_edges
from .._core.kernels.brier import (
    brier_finish,
    brier_index_from_score,
    skill_finish,
    warn_undefined_skill,
)
from .._core.validation import check_scalar_probability
from ..states import (
    BinnedState,
    BrierState,
    ForecastTable,
    MomentState,
    SpiegelhalterState,
    StateBundle,
)
from ._spark_reduce import Source, doc, finished, native_brier_sums, per_group, source

__all__ = ["brier_index", "brier_score", "brier_skill_score", "score"]


def _fast_labels(pos_label: Any) -> bool:
    """Whether 0/1 outcomes mean what they say with this ``pos_label``."""
    if pos_label is None:
        return True
    return isinstance(pos_label, (int, float, np.number)) and pos_label == 1


# --------------------------------------------------------------------------
# the Brier family
# --------------------------------------------------------------------------


def _brier(src: Source, pos_label: Any, finish: Callable, *, skill: bool = False) -> Any:
    """The Brier family: ``finish(BrierSums)`` per group (Spark's aggregations
    for 0/1 outcomes, else the states); ``skill``: the sums of a skill score
    (the class weights of climatology or of a constant reference)."""
    ref = src.extra.get("reference")
    if _fast_labels(pos_label):
        sums = native_brier_sums(src, reference=ref, class_weight=skill and ref is None)
        if sums is not None:
            return per_group(src, {k: finish(s) for k, s in sums.items()})
    tmpl = BrierState(pos_label=pos_label, with_reference=ref is not None)
    return finished(src, tmpl, lambda st: finish(st.sums()))


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
    return _brier(src, pos_label, _skill(rate), skill=True)


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
    from ..stats._merged import inference_from_moments

    return inference_from_moments(state, None)


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

    return finished(src, tmpl, finish)
