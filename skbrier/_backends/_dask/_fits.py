"""The logistic calibration fits on dask input: the in-memory solver
(:mod:`skbrier._core.kernels.logistic`) with one map-reduce per evaluation.

One pass validates the rows and counts what the fits keep
(:class:`~skbrier.states._fit.FitState`, the in-memory errors); the rows of the fits
``(y01, logit p, w / max w)`` are then persisted when they fit in a quarter
of the workers' memory (:func:`persist_limit`; otherwise each pass reads the
data again, so no worker holds more than its partitions) and the solver
runs on them: one map-reduce for the moments, one per Brent evaluation of
calibration in the large, one per Newton step (log-likelihood, gradient and
the 2x2 information together) of the joint fit.
"""

from __future__ import annotations

from typing import Any

from ..._core.kernels.logistic import (
    RowMoments,
    combine_row_sums,
    logistic_calibration_rows,
    offset_intercept_solve,
)
from ..._core.progress import dask_tasks
from ...states._fit import FitState, fit_rows
from ._graph import map_rows, persist_limit, reduce_state, tree_reduce, unwrap

__all__ = ["DaskRows", "calibration_in_the_large", "calibration_intercept_slope"]


class _Prepare:
    """``func(y, p, w, cols)`` of :func:`map_rows`: the rows of the fits of one
    partition, ``(y01, logit p, w / scale)`` over the rows kept."""

    def __init__(self, pos: Any, scale: float) -> None:
        self.pos, self.scale = pos, scale

    def __call__(self, y: Any, p: Any, w: Any, cols: dict) -> tuple:
        return fit_rows(y, p, w, self.pos, self.scale)


def _apply_rows(fn: Any, part: Any, args: tuple) -> Any:
    return fn(*unwrap(part), *args)


#: bytes of one row of the fits (y01, logit p, w)
_ROW_BYTES = 24


class DaskRows:
    """The rows of a logistic fit, one map-reduce per ``reduce`` (the
    distributed counterpart of :class:`~skbrier._core.kernels.logistic.ArrayRows`);
    ``parts`` persisted when they fit (:func:`persist_limit`), else lazy."""

    def __init__(self, parts: list) -> None:
        self.parts = parts
        self.n_reductions = 0

    def reduce(self, fn: Any, *args: Any) -> Any:
        from dask import delayed

        self.n_reductions += 1
        apply = delayed(_apply_rows, pure=True)
        return tree_reduce([apply(fn, part, args) for part in self.parts], combine_row_sums)


def _fit_rows(y_true, y_proba, sample_weight, pos_label, check_counts):
    """``(DaskRows, n_used, n_excluded, scale)``; the in-memory errors
    (``check_counts(n_used, single_class)``: the caller's checks, as in memory).

    One pass validates and counts (:class:`~skbrier.states._fit.FitState`; taken from a
    :func:`~skbrier._backends._dask._graph.precomputed` context when there is one);
    the rows of the fits are then persisted if they fit in memory.
    """
    import dask

    from ._metrics import _check_1d

    _check_1d(y_proba)
    state = reduce_state(FitState(pos_label=pos_label), y_true, y_proba, sample_weight)
    pos, n_used, n_excl, scale, single = state.finalize()
    check_counts(n_used, single)
    if not state.weighted:
        scale = 1.0
    parts = map_rows(_Prepare(pos, scale), y_true, y_proba, sample_weight)
    if n_used * _ROW_BYTES <= persist_limit():
        with dask_tasks("keeping the rows in memory"):
            parts = list(dask.persist(*parts))
    return DaskRows(parts), n_used, n_excl, scale


def calibration_intercept_slope(
    y_true, y_proba, *, sample_weight, pos_label, check_counts, result
):
    """``result(stats, n_used, n_excluded)``: the caller builds the result
    (the hooks pass their own helpers: no import back into the public layer)."""
    rows, n_used, n_excl, scale = _fit_rows(
        y_true, y_proba, sample_weight, pos_label, check_counts
    )
    return result(logistic_calibration_rows(rows, scale), n_used, n_excl)


def calibration_in_the_large(y_true, y_proba, *, sample_weight, pos_label, check_counts):
    rows, _, _, _ = _fit_rows(y_true, y_proba, sample_weight, pos_label, check_counts)
    mom = RowMoments.of(rows)
    return float(offset_intercept_solve(rows, mom.ybar, mom.lg_min, mom.lg_max)[0])
