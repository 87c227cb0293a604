"""``calibration_report`` of a Spark DataFrame: every exact section from the
states of one Spark job.

One ``mapInArrow`` reduces each partition (each group of ``group_by``) to the
states of the report of Dask input (a :class:`~skbrier.states.StateBundle`
of :func:`skbrier.report._merged.templates`: the sums, the binned
and threshold states, the centred moments, the table of distinct forecasts
and a uniform subsample); the executors merge them and
:func:`~skbrier.report._merged.report_from_states` -- the one
report of merged states, Dask's too -- finishes every section from them.

C, the CORP decomposition and the logistic calibration come from the table
of distinct forecasts (:class:`~skbrier.states.ForecastTable`): each
partition reduces its rows to its sorted distinct forecasts per class with
their weights and counts, the executors merge these sorted summaries (the
driver receives the merged one, :func:`._spark_reduce.partition_states`),
and the logistic fit reads the merged table, its rows weighted by their
counts (the same likelihood as the rows, so the same fit).  With
``resolution="auto"`` (as on Dask) the table is exact up to 2**20 distinct
forecasts per class and rounded to multiples of 1e-6 beyond (a partition
beyond emits its rounded table), so no memory grows with the number of
distinct forecasts: then C and CORP are those of the rounded forecasts (a
note says so) and the logistic fit reads the DataFrame again, one Spark job
per step of the solver, to stay exact.  ``resolution=None`` keeps the table
exact (one job, a driver memory of about 24 bytes per distinct forecast and
class).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
from typing import Any

import numpy as np

from ._common import REPORT_INPUTS, check_report_options, noted
from ._spark_reduce import Source, _col, doc, partition_states, per_group, source

__all__ = ["calibration_report"]


@doc
def calibration_report(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    group_by: Any = None,
    resolution: str | None = "auto",
    **options: Any,
) -> Any:
    r"""Calibration audit of a Spark DataFrame's rows in one Spark job.

    The :class:`~skbrier.report.CalibrationReport` of
    :func:`skbrier.report.calibration_report`, computed as for Dask input:
    exactly (the whole data) the sizes, prevalence, mean forecast, O/E
    ratio, the Brier metrics with their iid intervals, the logistic
    calibration, Spiegelhalter's z, the ECE, C and Dxy, the CORP and binned
    decompositions and net benefit; on a uniform subsample of at most
    200,000 rows drawn in the same job (reproducible with ``random_state``)
    Emax/E90/Eavg (lowess), DeLong's variance of C, the HAC and bootstrap
    intervals and the figures' data.  The report's notes say which.

    Parameters
    ----------
    {{inputs}}
    group_by : str, list of str or None, default=None
        A report per group (all in the same Spark job).
    resolution : "auto" or None, default="auto"
        The table of distinct forecasts of C, the CORP decomposition and the
        logistic fit.  "auto" (as on Dask): exact up to 2**20 distinct
        forecasts per class, rounded to multiples of 1e-6 beyond (a note
        says so), so that no memory (the executors' nor the driver's) grows
        with the number of distinct forecasts; the logistic fit then reads
        the DataFrame once per solver step (about 9 more Spark jobs: cache
        an expensive DataFrame) and stays exact.  None: never rounded, one
        Spark job, but the executors and the driver hold the whole table
        (about 24 bytes per distinct forecast and class: 1.2 GB for 5e7
        continuous forecasts, more than a 1 GB default driver heap).
    **options
        The options of :func:`skbrier.report.calibration_report` (not
        ``groups``, ``segments`` or ``sample_weight``: see ``group_by``,
        ``weight`` and the notes).  ``cov_type="bootstrap"`` (iid) intervals
        are computed on the subsample; ``cov_type="hac"`` and block
        bootstraps (they need the rows in time order, which the subsample
        does not keep) and ``strategy="quantile"`` (equal-mass bins, not
        mergeable) are refused.

    Returns
    -------
    CalibrationReport or dict
        The report; with ``group_by`` a dict ``{group: report}``.

    {{raises}}

    See Also
    --------
    skbrier.report.calibration_report : The same on arrays.

    Notes
    -----
    C, the CORP decomposition and the logistic calibration are computed from
    the merged table of the distinct forecasts (the same likelihood as the
    rows), exact while it holds every forecast (``resolution``); the
    executors merge the partitions' states in a tree and the driver receives
    one merged state per group.

    There is no subgroup section (``groups=``/``segments=`` of
    :func:`skbrier.calibration_report`): its per-group logistic fits, lowess
    ICI and cumulative tests need each group's rows sorted in the driver's
    memory, which no mergeable state holds, and a Spark input is meant not
    to fit there.  For a few groups' worth of rows, collect the columns
    (``df.select(y, p, g).toPandas()``) and call
    :func:`skbrier.calibration_report` with ``groups=``; for one report per
    group, ``group_by=`` (all groups in the one job).

    Examples
    --------
    {{spark}}
    >>> rep = sbs.calibration_report(df, thresholds=[0.2])  # doctest: +SKIP
    >>> round(rep.brier_score, 4)  # doctest: +SKIP
    0.075
    """
    from .._core.params import check_option
    from .._core.progress import task
    from ..report._merged import STEPS, templates
    from ..states import ForecastTable, StateBundle

    opts, pos_label = _options(options)
    check_option(resolution, "resolution", ("auto",), none=True)
    if opts.strategy == "quantile":
        raise ValueError(
            "strategy='quantile' is not available on a Spark DataFrame: equal-mass "
            "bins need the quantiles of all forecasts (not mergeable); pass "
            "strategy='uniform'."
        )
    src = source(df, y, p, weight, group_by)
    seed = int(opts.rng.integers(2**63 - 1))
    members = templates(opts, seed, pos_label)
    members["table"] = ForecastTable(resolution=resolution, pos_label=pos_label)
    tmpl = StateBundle(members, pos_label=pos_label)
    with task("calibration report (Spark)", total=len(STEPS)) as run:
        run.step("one pass over the data")
        bundles = partition_states(src, tmpl)
        reports = {
            key: noted(
                functools.partial(_report, src, key, bundle, copy.deepcopy(opts), run),
                src.group(key),
            )
            for key, bundle in bundles.items()
        }
    return per_group(src, reports, tmpl)


def _options(options: dict) -> tuple[Any, Any]:
    """``(checked options, pos_label)`` of the in-memory report's options
    (TypeError for another name, as Python's; for the in-memory inputs
    ``groups``, ``segments`` and ``sample_weight``, one saying what to pass)."""
    from ..report import calibration_report as memory_report
    from ..report._compute import check_options
    from ..report._merged import check_time_order

    check_report_options(options, _INPUTS)
    try:
        a = inspect.signature(memory_report).bind(None, None, **options)
    except TypeError as exc:
        raise TypeError(
            f"calibration_report() {exc}: its options are those of "
            "skbrier.calibration_report."
        ) from None
    a.apply_defaults()
    checked = inspect.signature(check_options).parameters
    opts = check_options(**{k: a.arguments[k] for k in checked})
    check_time_order(opts, "Spark")  # before the pass over the data
    return opts, a.arguments["pos_label"]


#: the in-memory report's inputs that a Spark DataFrame gives otherwise
_INPUTS = {
    **REPORT_INPUTS,
    "groups": "pass group_by= for one report per group (see the notes)",
    "segments": "see the notes for the subgroup section",
}


def _report(src: Source, key: tuple, bundle: Any, opts: Any, run: Any) -> Any:
    """The report of one group's merged bundle."""
    from ..report._merged import (
        Sections,
        add_rounded_note,
        checked_totals,
        report_from_states,
        table_delong,
    )

    sample = bundle.state("sample")
    totals = checked_totals(sample)
    st = bundle.finalize()
    table = bundle.state("table")
    sec = Sections(
        inference=functools.partial(_inference, st.get("moments")),
        brier_score=st["brier"].finalize,
        logistic=functools.partial(_logistic, st["fit"], table, src, key),
        spiegelhalter=functools.partial(_spiegelhalter, st["spiegelhalter"]),
        ece=functools.partial(st["binned"].calibration_error, "l1"),
        c_statistic=st["table"].c_statistic,
        # DeLong's variance of C from the table of all rows, not the subsample
        delong=functools.partial(table_delong, table),
        decomposition=functools.partial(_decomposition, st["table"], st["binned"]),
        decision_curve=functools.partial(_curve, st.get("thresholds"), opts),
    )
    report = report_from_states(sec, totals, sample, opts, run, engine="Spark")
    add_rounded_note(report, table, "Spark")
    return report


def _inference(state: Any, **kwds: Any) -> Any:
    """``brier_inference(cov_type="iid", **kwds)`` of the merged moments (the
    options checked as the public function checks them)."""
    from ..stats._merged import inference_from_moments
    from ..stats.inference import brier_inference, check_inference_options

    bound = inspect.signature(brier_inference).bind(None, None, **kwds)
    bound.apply_defaults()
    a = bound.arguments
    check_inference_options(
        a["cov_type"],
        a["hac_kwds"],
        a["n_resamples"],
        a["n_jobs"],
        a["random_state"],
        a["bootstrap"],
        a["block_length"],
    )
    return inference_from_moments(state, None)


def _spiegelhalter(state: Any) -> Any:
    from ..metrics._calibration_results import SpiegelhalterResult

    return SpiegelhalterResult(*state.finalize())


def _decomposition(table: Any, binned: Any, func: Any, kwds: dict) -> Any:
    """The CORP decomposition from the table, the binned one from the bins."""
    if func.__name__ == "corp_decomposition":
        return table.corp()
    return binned.murphy()


def _curve(state: Any, opts: Any) -> Any:
    """The report's decision curve (one model, no resampling)."""
    from ..metrics.net_benefit import _state_curve

    return _state_curve(state, opts.prevalence, None, 0.95)


# --------------------------------------------------------------------------
# the logistic calibration
# --------------------------------------------------------------------------


def _logistic(fit: Any, table: Any, src: Source, key: tuple) -> Any:
    """``calibration_intercept_slope`` of the rows: fitted on the table of
    distinct forecasts when it holds them all, else on the DataFrame's rows
    (:class:`SparkRows`, one Spark job per step of the solver)."""
    from .._core.kernels.logistic import logistic_calibration_rows
    from ..metrics.calibration import _check_fit_counts, _logistic_result, _warn_excluded

    pos, n_used, n_excl, scale, single = fit.finalize()
    _check_fit_counts(n_used, single)
    if not fit.weighted:
        scale = 1.0
    if table.rounded_to is None:
        stats = logistic_calibration_rows(_table_rows(table, scale), scale)
    else:
        # the fit of the rounded forecasts (in memory) is where the exact fit
        # on the DataFrame's rows starts: the same maximum in fewer passes
        near = logistic_calibration_rows(_table_rows(table, scale), scale, lr=False)
        hint = (near.citl, near.intercept, near.slope)
        stats = logistic_calibration_rows(SparkRows(src, key, pos, scale), scale, hint=hint)
    res = _logistic_result(stats, n_used, n_excl, stacklevel=5)
    _warn_excluded(res)
    return res


def _table_rows(table: Any, scale: float) -> Any:
    """The rows of the fit from the table: one per distinct (outcome,
    forecast) in (0, 1), weighted by its total weight (its count)."""
    from scipy import special

    from .._core.kernels.logistic import ArrayRows

    parts = table.encoded()
    y = np.concatenate([np.full(t.x.shape[0], v) for v, t in parts])
    x = np.concatenate([t.x for _, t in parts])
    w = np.concatenate([t.w for _, t in parts])
    keep = (x > 0.0) & (x < 1.0)
    return ArrayRows(y[keep], special.logit(x[keep]), w[keep] / scale)


class SparkRows:
    """The rows of a logistic fit in a Spark DataFrame (one group's):
    ``reduce(fn, *args)`` is one Spark job (:func:`._spark_reduce.partition_states`)
    that sums ``fn`` of every partition's rows ``(y01, logit p, w / scale)``
    (:func:`skbrier.states._fit.fit_rows`): the distributed
    :class:`~skbrier._core.kernels.logistic.ArrayRows`."""

    def __init__(self, src: Source, key: tuple, pos: Any, scale: float) -> None:
        from pyspark.sql import functions as F

        frame = src.df
        for k, v in zip(src.keys, key):
            frame = frame.filter(_col(k).eqNullSafe(F.lit(v)))
        self.src = dataclasses.replace(src, df=frame, extra={}, keys=[])
        self.pos, self.scale = pos, scale
        self.n_reductions = 0

    def reduce(self, fn: Any, *args: Any) -> Any:
        self.n_reductions += 1
        step = _FitStep(fn, args, self.pos, self.scale)
        return partition_states(self.src, step)[()].sums


@dataclasses.dataclass
class _FitStep:
    """The state of one step of the solver: ``update`` gives ``fn(rows,
    *args)`` of a partition's rows of the fit, ``merge`` adds two."""

    fn: Any
    args: tuple
    pos: Any
    scale: float
    sums: Any = None

    def update(self, y: Any, p: Any, w: Any) -> _FitStep:
        from ..states._fit import fit_rows

        self.sums = self.fn(*fit_rows(y, p, w, self.pos, self.scale), *self.args)
        return self

    def merge(self, other: _FitStep) -> _FitStep:
        from .._core.kernels.logistic import combine_row_sums

        self.sums = combine_row_sums(self.sums, other.sums)
        return self
