"""``calibration_report`` on dask input: one pass reduces the rows to the
states of :mod:`skbrier.report._merged` (a
:class:`~skbrier.states.StateBundle`: the rows are read and validated once),
then :func:`~skbrier.report._merged.report_from_states` calls the public
functions on the dask collections inside a
:func:`~skbrier._backends._dask._graph.precomputed` context, which hands
them their states instead of reading the data again.  Only the logistic fit
reads the data again, once per Newton step (its rows are kept in memory
between the steps when they fit, see
:func:`~skbrier._backends._dask._graph.persist_limit`).  C (with DeLong's
variance) and the CORP decomposition use ``resolution="auto"``: exact up to 2**20 distinct
forecasts per class, rounded to multiples of 1e-6 beyond (a note says so),
so the table of distinct forecasts stays small on any data.  Which sections
are exact and which come from the uniform subsample of at most
:data:`SUBSAMPLE_SIZE` rows: see :mod:`skbrier.report._merged`.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..._core.progress import task
from ...report._merged import (
    STEPS,
    Sections,
    add_rounded_note,
    check_time_order,
    checked_totals,
    report_from_states,
    table_delong,
    templates,
)
from ...states import StateBundle
from ._graph import precomputed, reduce_state
from ._metrics import _check_1d

__all__ = ["SUBSAMPLE_SIZE", "calibration_report"]

#: the most rows of the subsample of the sections that need all rows in memory
SUBSAMPLE_SIZE = 200_000


def _encode(y_true: Any, pos: Any) -> Any:
    """Lazy 0/1 outcomes (``y_true == pos``) of the same partitioning."""
    y01 = y_true == pos
    return y01.astype(np.float64)


def calibration_report(c: Any) -> Any:
    """The :class:`~skbrier.report.CalibrationReport` of dask input (the Dask
    adapter of :func:`skbrier.report.calibration_report`; ``c`` holds the call's
    arguments): one pass for the states, then the in-memory report's sections."""
    from ...report._compute import check_options

    opts = check_options(
        c.thresholds,
        c.cov_type,
        c.confidence_level,
        c.n_bins,
        c.strategy,
        c.random_state,
        c.prevalence,
        c.inference_kwds,
        c.name,
        c.n_resamples,
        c.n_jobs,
    )
    y_true, y_proba, sample_weight, pos_label = (
        c.y_true,
        c.y_proba,
        c.sample_weight,
        c.pos_label,
    )
    if opts.strategy == "quantile":
        raise ValueError(
            "strategy='quantile' is not available for dask input: equal-mass bins "
            "need the quantiles of all forecasts (not mergeable); pass "
            "strategy='uniform'."
        )
    _check_1d(y_proba)
    check_time_order(opts, "Dask")  # before the pass over the data
    with task("calibration report (dask)", total=len(STEPS)) as run:
        report = _calibration_report(y_true, y_proba, sample_weight, pos_label, opts, run)
    if c.groups is not None or c.segments is not None:
        from ...report._subgroups import unavailable_note

        given = "groups" if c.segments is None else "segments"
        report.notes.append(
            unavailable_note(
                "dask input",
                f"(e.g. calibration_report(y_true.compute(), y_proba.compute(), "
                f"{given}={given}.compute()), or on a uniform subsample of the rows)",
            )
        )
    return report


def _calibration_report(y_true, y_proba, sample_weight, pos_label, opts, run):
    seed = int(opts.rng.integers(2**63 - 1))
    run.step("one pass over the data")
    bundle = reduce_state(
        StateBundle(templates(opts, seed, pos_label, SUBSAMPLE_SIZE), pos_label=pos_label),
        y_true,
        y_proba,
        sample_weight,
    )
    state = bundle.state("sample")
    totals = checked_totals(state)
    pos = next(lab for (v, _), lab in zip(state.encoded(), state._sums) if v == 1.0)
    y = _encode(y_true, pos)
    p, w = y_proba, sample_weight
    # the sections' states, keyed by the 0/1 outcomes y (as the sections see them)
    states = [s.as_binary() for s in bundle.finalize().values()]
    with precomputed(states, y, p, w):
        # DeLong's variance of C from the table of all rows, not the subsample
        delong = functools.partial(table_delong, bundle.state("table"))
        sec = Sections((y, p, w), delong=delong)
        report = report_from_states(sec, totals, state, opts, run)
    add_rounded_note(report, bundle.state("table"), "Dask")
    return report
