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
from ..states import (
    BinnedState,
    BrierState,
    ForecastTable,
    MomentState,
    SpiegelhalterState,
    StateBundle,
)
from ._spark_native import native_brier_sums
from ._spark_reduce import (
    Source,
    doc,
    finished,
    per_group,
    reference_columns,
    source,
    spark_function,
)

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


def _skill(rate: float | None) -> Callable:
    def finish(s: Any) -> float:
        score, bs_ref = skill_finish(s, rate)
        if bs_ref == 0.0:
            warn_undefined_skill()
        return score

    return finish


def _skill_score(a: Any) -> Any:
    """The skill score against ``a.reference``: climatology (the class
    weights), a constant rate or a column of reference forecasts."""
    extra, rate = reference_columns(a.reference)
    src = source(a.df, a.y, a.p, a.weight, a.group_by, extra)
    return _brier(src, a.pos_label, _skill(rate), skill=True)


brier_score = spark_function(
    "brier_score",
    lambda a: _brier(
        source(a.df, a.y, a.p, a.weight, a.group_by), a.pos_label, brier_finish
    ),
    notes="""\
The value of :func:`skbrier.brier_score` on the same rows.  0/1 outcomes are
summed by Spark's aggregations (one pass, no Python worker); other labels go
through the mergeable states (one ``mapInArrow``).""",
    see_also="skbrier.brier_score : The same on arrays.",
    examples="""\
{{spark}}
>>> round(sbs.brier_score(df), 4)  # doctest: +SKIP
0.075
>>> sbs.brier_score(df, group_by="g")  # doctest: +SKIP
{1: 0.065, 2: 0.085}""",
)
brier_index = spark_function(
    "brier_index",
    lambda a: _brier(
        source(a.df, a.y, a.p, a.weight, a.group_by),
        a.pos_label,
        lambda s: brier_index_from_score(brier_finish(s)),
    ),
    notes="See :func:`brier_score` for how it is computed.",
    see_also="skbrier.brier_index : The same on arrays.",
    examples="""\
{{spark}}
>>> round(sbs.brier_index(df), 2)  # doctest: +SKIP
72.61""",
)
brier_skill_score = spark_function(
    "brier_skill_score",
    _skill_score,
    see_also="skbrier.brier_skill_score : The same on arrays.",
    examples="""\
{{spark}}
>>> round(sbs.brier_skill_score(df), 4)  # doctest: +SKIP
0.7""",
)


# --------------------------------------------------------------------------
# several statistics in one pass; the report
# --------------------------------------------------------------------------

#: the fresh states of :func:`score`, by key
_STATES: dict[str, Callable[[Any], Any]] = {
    "brier": lambda pl: BrierState(pos_label=pl),
    "ece": lambda pl: BinnedState(uniform_edges(15), pos_label=pl),
    "bins": lambda pl: BinnedState(uniform_edges(10), pos_label=pl),
    "table": lambda pl: ForecastTable(pos_label=pl),
    "spiegelhalter": lambda pl: SpiegelhalterState(pos_label=pl),
    "moments": lambda pl: MomentState(pos_label=pl),
}

#: the statistics of :func:`score`: ``name -> (state key, finish)``
_SCORES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "brier_score": ("brier", lambda s: s.finalize()),
    "brier_index": ("brier", lambda s: s.brier_index()),
    "brier_skill_score": ("brier", lambda s: _skill(None)(s.sums())),
    "calibration_error": ("ece", lambda s: s.calibration_error("l1")),
    "murphy_decomposition": ("bins", lambda s: s.murphy()),
    "corp_decomposition": ("table", lambda s: s.corp()),
    "c_statistic": ("table", lambda s: s.c_statistic()),
    "spiegelhalter_z": ("spiegelhalter", lambda s: _spiegelhalter_result(s)),
    "brier_inference": ("moments", lambda s: _iid_inference(s)),
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
    members = {_SCORES[m][0]: _STATES[_SCORES[m][0]](pos_label) for m in metrics}
    tmpl = StateBundle(members, pos_label=pos_label)
    src = source(df, y, p, weight, group_by)

    def finish(bundle: Any) -> dict:
        return {m: _SCORES[m][1](bundle.state(_SCORES[m][0])) for m in metrics}

    return finished(src, tmpl, finish)
