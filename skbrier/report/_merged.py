"""The calibration report of input reduced to mergeable states (Dask, Spark).

Every mergeable section of :func:`skbrier.report.calibration_report` has a
state (:func:`templates`: the sums, the bins, the thresholds, the centred
moments, the table of distinct forecasts, the counts of the logistic fit)
and so does a uniform subsample of at most :data:`SUBSAMPLE_SIZE` rows
(:class:`~skbrier.states.SampleState`); an engine reduces its rows to these
states in one pass (a :class:`~skbrier.states.StateBundle`) and
:func:`report_from_states` computes the report from them:

Exact (the whole data): the sizes, prevalence, mean forecast and O/E ratio
(with its iid interval), the Brier metrics with their iid intervals, the
logistic calibration, Spiegelhalter's z, the ECE, C and Dxy, the CORP and
binned decompositions and net benefit.  On the subsample (reproducible with
``random_state``): Emax/E90/Eavg (lowess), DeLong's variance of C (rescaled
to the full weights; exact from the table of distinct forecasts where the
engine gives :attr:`Sections.delong`, as Dask does), the HAC and bootstrap intervals
(``cov_type="hac"``/``"bootstrap"``) and the data of the figures.  The
report's notes say so.

How each exact section is computed is the engine's (:class:`Sections`): the
Dask path calls the public functions on its dask collections, which find
their states precomputed; :mod:`skbrier.engines.spark` finishes the states
themselves.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.binning import uniform_edges
from ..states import (
    BinnedState,
    BrierState,
    ForecastTable,
    MomentState,
    SampleState,
    SpiegelhalterState,
    ThresholdState,
)
from ..states._fit import FitState
from ._compute import SingleClassError, _assemble
from ._numbers import (
    _brier_score,
    _common_numbers,
    _ece,
    _intervals,
    _logistic,
    _lowess,
    _Notes,
    _spiegelhalter,
)

__all__ = [
    "STEPS",
    "SUBSAMPLE_SIZE",
    "Sections",
    "add_rounded_note",
    "checked_totals",
    "check_time_order",
    "report_from_states",
    "table_delong",
    "templates",
]

#: the most rows of the subsample of the sections that need all rows in memory
SUBSAMPLE_SIZE = 200_000

#: the steps of the report of merged states, as the progress display names them
STEPS = (
    "one pass over the data",
    "confidence intervals",
    "Brier score",
    "logistic calibration",
    "Spiegelhalter test",
    "lowess calibration",
    "ECE",
    "C statistic",
    "decomposition",
    "net benefit",
)


def templates(opts: Any, seed: int, pos_label: Any, size: int = SUBSAMPLE_SIZE) -> dict:
    """The fresh states of the sections, with the options the public functions
    give them (so that Dask's public calls find them precomputed); ``size``:
    the most rows of the subsample."""
    from ..metrics.net_benefit import _check_curve_thresholds

    out = {
        "sample": SampleState(size, seed=seed, pos_label=pos_label),
        "brier": BrierState(pos_label=pos_label),
        "spiegelhalter": SpiegelhalterState(pos_label=pos_label),
        "fit": FitState(pos_label=pos_label),
        "binned": BinnedState(uniform_edges(opts.n_bins), pos_label=pos_label),
        "table": ForecastTable(resolution="auto", pos_label=pos_label),
    }
    if opts.cov_type == "iid":
        out["moments"] = MomentState(pos_label=pos_label)
    if opts.thresholds is not None:
        t = _check_curve_thresholds(opts.thresholds)
        out["thresholds"] = ThresholdState(t, pos_label=pos_label)
    return out


def checked_totals(state: SampleState) -> tuple:
    """``(n, W, sum w y, sum w p, ptp)`` of the merged sample state; the
    in-memory errors of the labels and of a single class."""
    n, wt, wy, wp, ptp = state.totals()  # raises the in-memory label errors
    # the classes with positive weight, as in memory, not the rounded rate
    # (non-events of weight 1e-17 beside 1 round wy / wt to 1)
    if len({v for v, part in state.encoded() if state._weight_of(part) > 0.0}) < 2:
        raise SingleClassError()
    return n, wt, wy, wp, ptp


def add_rounded_note(report: Any, table: ForecastTable, engine: str) -> None:
    """Say so on the report when the forecast table had to round the forecasts."""
    step = table.rounded_to
    if step is not None:
        report.notes.append(
            f"{engine} input: more than 2**20 distinct forecasts, so C (with DeLong's "
            f"variance) and the CORP decomposition are computed on the forecasts rounded to multiples of "
            f"{step:g} (C changes by at most half the share of event/non-event "
            f"pairs closer than {step:g}; the Brier score by at most {step:g})."
        )


def table_delong(table: ForecastTable) -> tuple[float, float]:
    """C and DeLong's variance of all rows from the merged table of distinct
    forecasts (the weights of events and non-events of each distinct forecast:
    the in-memory ``auc_delong`` of the whole data, on the table's forecasts).

    Examples
    --------
    >>> from skbrier.states import ForecastTable
    >>> t = ForecastTable().update([0, 0, 1, 1, 1], [0.1, 0.2, 0.2, 0.3, 0.4])
    >>> c, var = table_delong(t)
    >>> round(c, 4), round(var, 4)
    (0.9167, 0.0139)
    """
    from .._core.kernels.calibration import delong_from_groups

    _, w, ysum, _ = table.table()
    return delong_from_groups(ysum, w - ysum)


@dataclasses.dataclass
class Sections:
    """How :func:`report_from_states` computes its exact sections: the public
    functions on ``yp`` (dask collections whose states are precomputed,
    :func:`skbrier._backends._dask._graph.precomputed`), or, where given, a callable with no arguments
    (``decomposition(func, kwds)``: the result of ``func``; ``inference(**kwds)``:
    that of :func:`~skbrier.stats.brier_inference` with the iid ``cov_type``)."""

    yp: tuple = (None, None, None)
    inference: Callable | None = None
    brier_score: Callable | None = None
    logistic: Callable | None = None
    spiegelhalter: Callable | None = None
    ece: Callable | None = None
    c_statistic: Callable | None = None
    #: ``(C, DeLong's variance)`` of all rows (:func:`table_delong`); None:
    #: the variance from the subsample, rescaled to the total weight
    delong: Callable | None = None
    decomposition: Callable | None = None
    decision_curve: Callable | None = None


def check_time_order(opts: Any, engine: str) -> None:
    """Refuse intervals that need the rows in time order (``cov_type="hac"``,
    a block bootstrap) for ``engine`` input, before the pass over the data
    (each engine's edge calls it): the merged sample of
    :class:`~skbrier.states.SampleState` holds its rows in the order of
    random keys, so a HAC variance or a block bootstrap on it would change
    with the partitioning.  The iid bootstrap does not need the order."""
    scheme = opts.inference_kwds.get("bootstrap", "iid")
    if opts.cov_type == "hac" or (opts.cov_type == "bootstrap" and scheme != "iid"):
        what = "cov_type='hac'" if opts.cov_type == "hac" else f"bootstrap={scheme!r}"
        raise ValueError(
            f"{what} is not available for {engine.lower()} input: it needs the rows "
            "in time order, which the merged sample does not keep; use "
            "cov_type='iid' (or the iid bootstrap), or compute the report on "
            "the rows in memory, in order."
        )


def report_from_states(
    sec: Sections, totals: tuple, state: Any, opts: Any, run: Any, engine: str = "Dask"
) -> Any:
    """The report of input reduced to the states of :func:`templates`
    (``run``: the progress display's task, at :data:`STEPS`' second step):
    ``totals = (n, W, sum w y, sum w p, ptp)`` (:meth:`SampleState.totals`),
    ``state`` the merged :class:`~skbrier.states.SampleState`, ``sec`` how the
    exact sections are computed; ``engine`` names the input in the notes."""
    from ..metrics.calibration import c_statistic
    from ._valprob import IntervalSpec, adaptive_n_resamples, valprob_extras

    n, wt, wy, wp, ptp = totals
    y, p, w = sec.yp
    base_rate = wy / wt
    ys, ps, ws = state.sample()
    m = ps.shape[0]
    notes = _Notes()
    sub = m < n
    where = (
        f"a uniform subsample of {m} of the {int(n)} rows (drawn with random_state)"
        if sub
        else "all rows"
    )
    if opts.cov_type == "bootstrap" and opts.n_resamples is None:
        n_pos = int(m if ws is None else np.count_nonzero(ws))
        opts = dataclasses.replace(opts, n_resamples=adaptive_n_resamples(n_pos))
    run.step("confidence intervals")
    if opts.cov_type == "iid":
        intervals, inference = _intervals(y, p, w, opts, notes, sec.inference)
    else:
        notes.add(f"{engine} input: the {opts.cov_type} intervals are computed on {where}.")
        intervals, inference = _intervals(ys, ps, ws, opts, notes)
    run.step("Brier score")
    bs = _brier_score(y, p, w) if sec.brier_score is None else float(sec.brier_score())
    run.step("logistic calibration")
    logistic, df = _logistic(y, p, w, notes, 1 if ptp == 0.0 else 2, sec.logistic)
    run.step("Spiegelhalter test")
    sz = _spiegelhalter(y, p, w, notes, sec.spiegelhalter, float(wt))
    run.step("lowess calibration")
    emax, e90, eavg, curve = _lowess(ys, ps, ws, notes)
    if emax is not None:
        notes.add(f"{engine} input: Emax/E90/Eavg (lowess) are computed on {where}.")
    run.step("ECE")
    ece = _ece(y, p, w, opts, notes, sec.ece)
    run.step("C statistic")
    with notes.catching("C statistic"):
        # the sample size is the whole data's (the subsample's was smaller)
        counts = (int(n), None if ws is None else float(wt))
        extras = valprob_extras(ys, ps, ws, logistic, opts, inference, notes, counts=counts)
        c = float(
            c_statistic(y, p, sample_weight=w, resolution="auto")
            if sec.c_statistic is None
            else sec.c_statistic()
        )
    specs = extras["specs"]
    c_spec = specs.get("c_statistic")
    if sec.delong is not None and extras["enough_samples"]:
        # C and DeLong's variance of all rows (the in-memory interval; the
        # subsample's variance was undefined when its total weight was small)
        var_c = sec.delong()[1]
        specs["c_statistic"] = (
            IntervalSpec("normal", c, math.sqrt(var_c), "DeLong (iid)", None, (0.0, 1.0))
            if math.isfinite(var_c)
            else None
        )
    elif c_spec is not None:
        # C exact; DeLong's variance from the subsample, rescaled to the full weights
        w_sub = float(m if ws is None else ws.sum())
        se = c_spec.scale * math.sqrt(w_sub / wt)
        label = "DeLong (iid)" if not sub else "DeLong (iid, variance from subsample)"
        specs["c_statistic"] = IntervalSpec("normal", c, se, label, None, (0.0, 1.0))
        if sub:
            notes.add(
                f"{engine} input: C is exact; the variance of its interval is DeLong's "
                f"on {where}, rescaled to the total weight."
            )
    oe = wy / wp if wp > 0 else math.nan
    se_log = math.sqrt(max(1.0 - wy / wt, 0.0) / wy) if wy > 0 else math.nan
    if extras["enough_samples"] and (
        opts.cov_type == "iid" or specs.get("observed_expected") is None
    ):
        specs["observed_expected"] = (
            IntervalSpec("lognormal", oe, se_log, "iid log Wald")
            if math.isfinite(oe) and math.isfinite(se_log)
            else None
        )
    numbers = {
        **_common_numbers(logistic, df, sz, (emax, e90, eavg), ece, opts),
        "c_statistic": c,
        "dxy": 2.0 * c - 1.0,
        "discrimination_pvalue": extras["discrimination_pvalue"],
        "observed_expected": float(oe),
        "lowess_curve": curve,
    }
    return _assemble(
        sec.yp,
        opts,
        notes,
        run,
        (int(n), float(wy)),
        (base_rate, wp / wt, bs),
        (intervals, inference, specs),
        numbers,
        data=(ys, ps, ws),
        corp_kwds={"resolution": "auto"},
        last_note=f"{engine} input: the figures show {where}." if sub else None,
        sections=sec,
    )
