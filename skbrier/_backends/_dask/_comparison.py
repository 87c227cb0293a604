"""``compare_forecasts`` on dask input: every column of the table has a
mergeable state, so the table is the in-memory one.

Per forecast one pass reduces a :class:`~skbrier.states.StateBundle` of the
states its columns need -- the centred moments of the Brier score, Brier
Index and skill score with their iid intervals
(:class:`~skbrier.states.MomentState`), the table of distinct forecasts of
the CORP decomposition and of C (:class:`~skbrier.states.ForecastTable`,
exact: one row per distinct forecast) and the counts of the logistic fit
(:class:`~skbrier.states._fit.FitState`) -- then the in-memory table
(``comparison._compare``) calls the public functions on the collections,
which find their states precomputed (:func:`~._graph.precomputed`); the
logistic fit reads the rows again once per Newton step
(:mod:`._fits`).  What needs the rows themselves is refused before any pass,
naming its columns: HAC intervals (time order) and bootstrap intervals
(resampled rows).
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..._core.diagnose import one_warning_per_call
from ..._core.dispatch import Call
from ..._core.params import check_option
from ...states import ForecastTable, MomentState, StateBundle
from ...states._fit import FitState
from ._graph import precomputed, reduce_state
from ._metrics import _check_1d

__all__ = ["check_mergeable_options", "compare_forecasts"]

#: the columns whose intervals ``cov_type`` sets
_BRIER_COLUMNS = "brier_score, brier_index and brier_skill_score"


def check_mergeable_options(cov_type: Any, n_resamples: int) -> None:
    """Refuse the intervals that need the rows (ValueError naming the columns).

    Examples
    --------
    >>> check_mergeable_options("iid", 0)
    >>> check_mergeable_options("hac", 0)
    Traceback (most recent call last):
    ...
    ValueError: cov_type='hac' is not available for dask input: ...
    """
    cov_type = check_option(cov_type, "cov_type", ("iid", "hac", "bootstrap"))
    collect = "or compute the table on the collected rows (e.g. ddf.compute())."
    if cov_type == "hac":
        raise ValueError(
            f"cov_type='hac' is not available for dask input: the HAC intervals of "
            f"{_BRIER_COLUMNS} need the rows in time order (not mergeable); pass "
            f"cov_type='iid', {collect}"
        )
    if cov_type == "bootstrap":
        raise ValueError(
            f"cov_type='bootstrap' is not available for dask input: the bootstrap "
            f"intervals of {_BRIER_COLUMNS} resample rows (not mergeable); pass "
            f"cov_type='iid', {collect}"
        )
    if n_resamples:
        raise ValueError(
            f"n_resamples must be 0 for dask input, got {n_resamples}: the bootstrap "
            "intervals of miscalibration and discrimination (the CORP decomposition) "
            "resample rows (not mergeable); pass n_resamples=0 (those intervals are "
            f"then NaN, as in memory), {collect}"
        )


def _templates(pos_label: Any) -> dict:
    """The states of one forecast's columns, with the options the public
    functions give them (so that they find them precomputed)."""
    return {
        "moments": MomentState(pos_label=pos_label),
        "table": ForecastTable(pos_label=pos_label),
        "fit": FitState(pos_label=pos_label),
    }


@one_warning_per_call  # the public calls of the composition: each warning once
def compare_forecasts(c: Call) -> Any:
    """The Dask adapter of :func:`skbrier.compare_forecasts`."""
    from ...comparison import _check_options, _compare, _models

    level, b, n_jobs = _check_options(
        c.confidence_level, c.n_resamples, c.n_jobs, c.random_state
    )
    check_mergeable_options(c.cov_type, b)
    models = _models(c.y_proba, c.y_true)
    for p in models.values():
        _check_1d(p)
    y, w, pos_label = c.y_true, c.sample_weight, c.pos_label
    with contextlib.ExitStack() as stack:
        for name, p in models.items():
            members = _templates(pos_label)
            tmpl = StateBundle(members, pos_label=pos_label)
            for s in (tmpl, *members.values()):  # as the in-memory messages name it
                s.proba_name = f"y_proba[{name!r}]"
            bundle = reduce_state(tmpl, y, p, w)
            stack.enter_context(precomputed(list(bundle.finalize().values()), y, p, w))
        return _compare(y, models, w, level, "iid", 0, c.random_state, n_jobs, pos_label)
