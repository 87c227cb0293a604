"""The numbers of the calibration report, each from skbrier's public
functions on validated arrays (the in-memory report, :mod:`._compute`, and
the report of merged states, :mod:`._merged`, share them); warnings raised
on the way become the report's notes (:class:`_Notes`)."""

from __future__ import annotations

import contextlib
import functools
import math
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from .._core.format import format_number
from .._core.kernels.calibration import enough_observations
from .._core.params import MIN_SAMPLES
from .._core.progress import NO_TASK, Task
from .._core.results import ConfidenceInterval
from ._options import (
    OPTION_NAMES,
    Options,
)
from ._result import INTERVAL_METRICS

__all__: list[str] = []


class _Notes(list):
    """The report's notes; warnings caught while computing are added to them."""

    def add(self, text: str) -> None:
        if text not in self:
            self.append(text)

    @contextlib.contextmanager
    def catching(self, what: str, skip: Any = None) -> Iterator[None]:
        """Run a block, turning each warning it raises into a note
        (``skip(warning)`` true: already covered by another note)."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        for w in caught:
            if skip is None or not skip(w):
                self.add(f"{what}: {w.message}")


# --------------------------------------------------------------------------
# sections
# --------------------------------------------------------------------------


def _raise_if_option_error(exc: ValueError) -> None:
    """Re-raise an error of brier_inference that names an option (not the data)."""
    msg = str(exc)
    if msg.startswith(("cov_type", "confidence_level", "random_state", "inference_kwds")):
        raise exc
    if msg.startswith(OPTION_NAMES) or any(f"{n} must" in msg for n in OPTION_NAMES):
        raise ValueError(f"inference_kwds: {msg}") from None


def _intervals(
    y, p, w, opts: Options, notes: _Notes, compute: Any = None, companion: Any = None
):
    """``(intervals, inference result)`` from :func:`skbrier.stats.brier_inference`
    (``compute(**options)``: its result computed another way, e.g. from the
    merged states of a Spark DataFrame; ``companion``: a statistic of the
    bootstrap's counts, see :func:`~skbrier.stats.inference.brier_inference_with`)."""
    from ..stats.inference import brier_inference, brier_inference_with

    if compute is None and companion is not None:
        compute = functools.partial(brier_inference_with, companion, y, p, sample_weight=w)
    elif compute is None:
        compute = functools.partial(brier_inference, y, p, sample_weight=w)
    intervals: dict = {m: None for m in INTERVAL_METRICS}
    kwds = dict(opts.inference_kwds)
    if opts.cov_type == "bootstrap":
        kwds["n_resamples"] = opts.n_resamples
        kwds["n_jobs"] = opts.n_jobs
    try:
        with notes.catching("Confidence intervals"):
            inf = compute(cov_type=opts.cov_type, random_state=opts.rng, **kwds)
    except TypeError as exc:  # the data are valid: a wrong option of brier_inference
        raise TypeError(f"inference_kwds: {exc}") from None
    except ValueError as exc:
        _raise_if_option_error(exc)
        notes.add(f"Confidence intervals not available: {exc}")
        return intervals, None
    for metric in INTERVAL_METRICS:
        try:
            with notes.catching(f"Interval of {metric}"):
                ci = inf.confidence_interval(
                    metric=metric, confidence_level=opts.confidence_level
                )
        except ValueError as exc:
            notes.add(f"No interval for {metric}: {exc}")
            continue
        lo, hi = float(ci[0]), float(ci[1])
        if math.isfinite(lo) and math.isfinite(hi):
            intervals[metric] = ConfidenceInterval(lo, hi)
    return intervals, inf


def _logistic(y, p, w, notes: _Notes, df: int | None = None, compute: Any = None):
    """:func:`calibration_intercept_slope` (None when undefined) and the U test's df
    (``df``: already known, e.g. from the sums of dask input; ``compute()``:
    the fit computed another way)."""
    from ..metrics.calibration import calibration_intercept_slope

    caught: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lg = (
                calibration_intercept_slope(y, p, sample_weight=w)
                if compute is None
                else compute()
            )
    except ValueError as exc:
        notes.add(f"Logistic calibration not available: {exc}")
        return None, None
    if lg.n_excluded:
        notes.add(
            f"{lg.n_excluded} forecasts of exactly 0 or 1 were left out of the "
            "logistic calibration (as rms::val.prob does)."
        )
    if math.isinf(lg.slope):
        notes.add(
            "The forecasts separate events from non-events perfectly: the "
            "calibration slope is infinite and the intercept undefined."
        )
    elif not lg.converged:
        notes.add("The logistic recalibration did not converge.")
    for wr in caught:
        msg = str(wr.message)
        covered = ("exactly 0 or 1" in msg and lg.n_excluded) or (
            "separated" in msg and (math.isinf(lg.slope) or not lg.converged)
        )
        if not covered:
            notes.add(f"Logistic calibration: {msg}")
    if df is None:
        used = (p > 0.0) & (p < 1.0) if w is None else (p > 0.0) & (p < 1.0) & (w > 0.0)
        # val.prob's U test has 1 degree of freedom for a constant forecast (no slope)
        df = 1 if np.ptp(p[used]) == 0.0 else 2
    return lg, df


#: the lowess curve kept on the report has at most this many points
LOWESS_CURVE_POINTS = 512


def _lowess(y, p, w, notes: _Notes, sorted_yp=None):
    """Emax, E90, Eavg and the curve (the values of
    :func:`skbrier.metrics.calibration.lowess_calibration_error`)."""
    from .._core.kernels.calibration import lowess_calibration

    if w is not None:
        # lowess has no weights: integer (frequency) weights give the curve of
        # the repeated rows, as flexible_calibration_curve(smoother="lowess")
        from ..metrics._flexible_fit import curve_summaries, frequency_lowess_knots

        keep = w > 0
        yk, pk, wk = y[keep], p[keep], w[keep]
        try:
            kx, ky = frequency_lowess_knots(pk, yk, wk)
        except ValueError:
            notes.add(
                "Emax/E90/Eavg (lowess) are computed only with integer sample_weight "
                "(lowess has no weights: integer weights repeat the rows)."
            )
            return None, None, None, None
        eavg, _, e90, emax, _ = curve_summaries(pk, np.interp(pk, kx, ky), wk)
        emax, e90, eavg = float(emax), float(e90), float(eavg)
    else:
        with notes.catching("Lowess calibration error"):
            emax, e90, eavg, kx, ky = lowess_calibration(y, p, sorted_yp=sorted_yp)
    if kx.shape[0] > LOWESS_CURVE_POINTS:
        # the knots hold the whole curve (linear between them); more than
        # 512 only for tiny delta: keep an even subset with both ends
        pick = np.unique(np.linspace(0, kx.shape[0] - 1, LOWESS_CURVE_POINTS).round())
        kx, ky = kx[pick.astype(int)], ky[pick.astype(int)]
    curve = {"x": tuple(kx.tolist()), "y": tuple(ky.tolist())}
    return emax, e90, eavg, curve


def _spiegelhalter(y, p, w, notes: _Notes, compute: Any = None, total: Any = None):
    """Spiegelhalter's z test (its warnings as notes; ``compute()``: the test
    computed another way, ``total`` then the number of observations)."""
    from ..metrics.calibration import spiegelhalter_z

    with notes.catching("Spiegelhalter z"):
        sz = spiegelhalter_z(y, p, sample_weight=w) if compute is None else compute()
    if math.isnan(sz.statistic):
        if total is None:
            total = float(np.shape(y)[0] if w is None else np.sum(w))
        notes.add(
            "Spiegelhalter z not available: "
            + (
                f"{format_number(total)} observation(s) (total weight); at least "
                f"{MIN_SAMPLES} are needed for the tests."
                if not enough_observations(total)
                else "every forecast (of positive weight) is 0, 1/2 or 1, so its "
                "variance under calibration is 0."
            )
        )
    return sz


def _ece(y, p, w, opts: Options, notes: _Notes, compute: Any = None) -> float:
    """The binary ECE on the report's bins (its warnings as notes;
    ``compute()``: the ECE computed another way)."""
    from ..metrics.calibration_error import calibration_error

    with notes.catching("ECE"):
        if compute is not None:
            return compute()
        return calibration_error(
            y,
            p,
            kind="binary",
            n_bins=opts.n_bins,
            strategy=opts.strategy,  # type: ignore[arg-type]
            sample_weight=w,
        )


def _common_numbers(logistic, df, sz, lowess: tuple, ece, opts: Options) -> dict:
    """The report's numbers that every input computes alike: the logistic
    fit, Spiegelhalter's test, Emax/E90/Eavg (``lowess``) and the ECE."""
    emax, e90, eavg = lowess
    return {
        "logistic": logistic,
        "unreliability_df": df,
        "spiegelhalter_z": float(sz.statistic),
        "spiegelhalter_p": float(sz.pvalue),
        "emax": emax,
        "e90": e90,
        "eavg": eavg,
        "ece": float(ece),
        "ece_n_bins": opts.n_bins,
        "ece_strategy": opts.strategy,
    }


def _calibration_numbers(
    y,
    p,
    w,
    opts: Options,
    notes: _Notes,
    inference,
    run: Task = NO_TASK,
    order=None,
    sorted_yp=None,
    fitted=None,
) -> dict:
    """The calibration and discrimination numbers (``order``: the stable
    order of ``p`` when the caller has it; ``sorted_yp``: ``(y[order],
    p[order])`` too; ``fitted``: :func:`_logistic`'s result and its notes,
    when the caller fitted it)."""
    from ._valprob import valprob_extras

    run.step("Spiegelhalter test")
    sz = _spiegelhalter(y, p, w, notes)
    run.step("logistic calibration")
    if fitted is None:
        logistic, df = _logistic(y, p, w, notes)
    else:
        (logistic, df), fit_notes = fitted
        for text in fit_notes:
            notes.add(text)
    run.step("ECE")
    ece = _ece(y, p, w, opts, notes)
    # one sort of the forecasts for lowess and C (unweighted rows), kept
    # only while they need it
    run.step("sorting the forecasts")
    if w is None:
        from .._core.kernels.lowess import stable_argsort

        order = stable_argsort(p) if order is None else order
        if sorted_yp is None:
            sorted_yp = (y[order], p[order])
        if opts.cov_type != "bootstrap":  # the bootstrap's refits bin the sorted rows
            order = None
    else:
        order = None
    run.step("lowess calibration")
    emax, e90, eavg, curve = _lowess(y, p, w, notes, sorted_yp)
    run.step("C statistic and val.prob's indexes")
    with notes.catching("C statistic"):
        extras = valprob_extras(
            y, p, w, logistic, opts, inference, notes, sorted_yp, p_order=order
        )
    del sorted_yp, order
    return {
        **_common_numbers(logistic, df, sz, (emax, e90, eavg), ece, opts),
        "c_statistic": extras["c_statistic"],
        "dxy": extras["dxy"],
        "discrimination_pvalue": extras["discrimination_pvalue"],
        "observed_expected": extras["observed_expected"],
        "lowess_curve": curve,
        "_specs": extras["specs"],
    }


def _brier_score(y, p, w) -> float:
    from ..metrics.brier import brier_score

    return float(brier_score(y, p, sample_weight=w))
