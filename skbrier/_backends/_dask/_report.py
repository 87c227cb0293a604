"""``calibration_report`` on dask input: the report module's sections, each
computed exactly by the dask functions where the statistic is mergeable, and
on a uniform subsample where the whole sample must be in memory.

One pass: the states of every mergeable section (and the subsample) are
reduced together as one :class:`~skbrier.states.StateBundle` (the rows are
read and validated once), then the sections call the public functions inside
a :func:`~skbrier._backends._dask._graph.precomputed` context, which hands them their
states instead of reading the data again.  Only the logistic fit reads the
data again, once per Newton step (its rows are kept in memory between the
steps when they fit, see :func:`~skbrier._backends._dask._fits.persist_limit`).
C and the CORP decomposition use ``resolution="auto"``: exact up to 2**20
distinct forecasts per class, rounded to multiples of 1e-6 beyond (a note
says so), so the table of distinct forecasts stays small on any data.

Exact (the whole data, one map-reduce each): the sizes, prevalence, mean
forecast and O/E ratio (with its iid interval), the Brier metrics with their
iid intervals, the logistic calibration (one map-reduce per Newton step),
Spiegelhalter's z, the ECE, C and Dxy, the CORP and binned decompositions
and net benefit.  On a uniform subsample of at most :data:`SUBSAMPLE_SIZE`
rows (drawn in the same pass as the sums, reproducible with
``random_state``): Emax/E90/Eavg (lowess), DeLong's variance of C (rescaled
to the full weights), the HAC and bootstrap intervals
(``cov_type="hac"``/``"bootstrap"``) and the data of the figures.  The
report's notes say so.

:func:`report_from_states` is the report of any input reduced to these
states: the Dask path gives it the public functions on the dask collections
(which find their states in the :func:`precomputed` context), and
:mod:`skbrier.engines.spark` the states' own finishing (:class:`Sections`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..._core.binning import uniform_edges
from ..._core.progress import task
from ...report._compute import (
    _assemble,
    _brier_score,
    _common_numbers,
    _ece,
    _intervals,
    _logistic,
    _lowess,
    _Notes,
    _spiegelhalter,
)
from ...states import (
    BinnedState,
    BrierState,
    ForecastTable,
    MomentState,
    SampleState,
    SpiegelhalterState,
    StateBundle,
    ThresholdState,
)
from ._fits import _FitState
from ._graph import precomputed, reduce_state
from ._metrics import _check_1d

__all__ = [
    "SUBSAMPLE_SIZE",
    "STEPS",
    "Sections",
    "add_rounded_note",
    "calibration_report",
    "checked_totals",
    "report_from_states",
    "templates",
]

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
    with task("calibration report (dask)", total=len(STEPS)) as run:
        return _calibration_report(y_true, y_proba, sample_weight, pos_label, opts, run)


#: the steps of the report of dask input, as the progress display names them
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


def _calibration_report(y_true, y_proba, sample_weight, pos_label, opts, run):
    seed = int(opts.rng.integers(2**63 - 1))
    run.step("one pass over the data")
    bundle = reduce_state(
        StateBundle(templates(opts, seed, pos_label), pos_label=pos_label),
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
        report = report_from_states(Sections((y, p, w)), totals, state, opts, run)
    add_rounded_note(report, bundle.state("table"))
    return report


def checked_totals(state: SampleState) -> tuple:
    """``(n, W, sum w y, sum w p, ptp)`` of the merged sample state; the
    in-memory errors of the labels and of a single class."""
    n, wt, wy, wp, ptp = state.totals()  # raises the in-memory label errors
    if wy / wt in (0.0, 1.0):  # before looking for the positive label: maybe none
        raise ValueError(
            "y_true contains a single class (among the samples with positive weight): "
            "a calibration report needs both events and non-events."
        )
    return n, wt, wy, wp, ptp


def add_rounded_note(report: Any, table: ForecastTable, engine: str = "Dask") -> None:
    """Say so on the report when the forecast table had to round the forecasts."""
    step = table.rounded_to
    if step is not None:
        report.notes.append(
            f"{engine} input: more than 2**20 distinct forecasts, so C and the CORP "
            f"decomposition are computed on the forecasts rounded to multiples of "
            f"{step:g} (C changes by at most half the share of event/non-event "
            f"pairs closer than {step:g}; the Brier score by at most {step:g})."
        )


def templates(opts: Any, seed: int, pos_label: Any) -> dict:
    """The fresh states of the sections, with the options the public functions
    give them (so that they find them in the :func:`precomputed` context)."""
    from ...metrics.net_benefit import _check_curve_thresholds

    out = {
        "sample": SampleState(SUBSAMPLE_SIZE, seed=seed, pos_label=pos_label),
        "brier": BrierState(pos_label=pos_label),
        "spiegelhalter": SpiegelhalterState(pos_label=pos_label),
        "fit": _FitState(pos_label=pos_label),
        "binned": BinnedState(uniform_edges(opts.n_bins), pos_label=pos_label),
        "table": ForecastTable(resolution="auto", pos_label=pos_label),
    }
    if opts.cov_type == "iid":
        out["moments"] = MomentState(pos_label=pos_label)
    if opts.thresholds is not None:
        t = _check_curve_thresholds(opts.thresholds)
        out["thresholds"] = ThresholdState(t, pos_label=pos_label)
    return out


@dataclasses.dataclass
class Sections:
    """How :func:`report_from_states` computes its exact sections: the public
    functions on ``yp`` (dask collections whose states are
    :func:`precomputed`), or, where given, a callable with no arguments
    (``decomposition(func, kwds)``: the result of ``func``; ``inference(**kwds)``:
    that of :func:`~skbrier.stats.brier_inference` with the iid ``cov_type``)."""

    yp: tuple = (None, None, None)
    inference: Callable | None = None
    brier_score: Callable | None = None
    logistic: Callable | None = None
    spiegelhalter: Callable | None = None
    ece: Callable | None = None
    c_statistic: Callable | None = None
    decomposition: Callable | None = None
    decision_curve: Callable | None = None


def report_from_states(
    sec: Sections, totals: tuple, state: Any, opts: Any, run: Any, engine: str = "Dask"
) -> Any:
    """The report of input reduced to the states of :func:`templates`:
    ``totals = (n, W, sum w y, sum w p, ptp)`` (:meth:`SampleState.totals`),
    ``state`` the merged :class:`~skbrier.states.SampleState`, ``sec`` how the
    exact sections are computed; ``engine`` names the input in the notes."""
    from ...metrics.calibration import c_statistic
    from ...report._valprob import IntervalSpec, adaptive_n_resamples, valprob_extras

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
    sz = _spiegelhalter(y, p, w, notes, sec.spiegelhalter)
    if ws is None:
        notes.add(f"{engine} input: Emax/E90/Eavg (lowess) are computed on {where}.")
    run.step("lowess calibration")
    emax, e90, eavg, curve = _lowess(ys, ps, ws, notes)
    run.step("ECE")
    ece = _ece(y, p, w, opts, notes, sec.ece)
    run.step("C statistic")
    with notes.catching("C statistic"):
        extras = valprob_extras(ys, ps, ws, logistic, opts, inference, notes)
        c = float(
            c_statistic(y, p, sample_weight=w, resolution="auto")
            if sec.c_statistic is None
            else sec.c_statistic()
        )
    specs = extras["specs"]
    # C exact; DeLong's variance from the subsample, rescaled to the full weights
    c_spec = specs.get("c_statistic")
    if c_spec is not None:
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
    if opts.cov_type == "iid" or specs.get("observed_expected") is None:
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
