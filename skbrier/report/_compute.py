"""Computation of the calibration report (no rendering here).

Options are checked first (before any long computation), the data are
validated once, and every number comes from skbrier's public functions
called on the validated arrays: the report shows exactly what those
functions return.  Warnings raised on the way become :attr:`notes`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.diagnose import one_warning_per_call
from .._core.dispatch import HOST, backends
from .._core.format import format_number
from .._core.kernels.brier import brier_index_from_score, skill_score, weighted_mean
from .._core.kernels.calibration import enough_observations
from .._core.params import MIN_SAMPLES
from .._core.progress import NO_TASK, Task, task
from .._core.results import ConfidenceInterval
from .._core.validation import binary_forecast, validated
from ._options import (
    OPTION_NAMES,
    Options,
    check_options,  # noqa: F401 - the Dask and Spark adapters import it here
    check_report_options,
)
from ._result import INTERVAL_METRICS, CalibrationReport
from ._sections import _decomposition, _net_benefit
from ._valprob import adaptive_n_resamples

__all__ = ["calibration_report"]


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
# data
# --------------------------------------------------------------------------


def _binary_forecast(y_true: Any, y_proba: Any, sample_weight: Any, pos_label: Any):
    """Validated ``(y01, p, w)``: 1-D probabilities of ``pos_label``, or the
    ``pos_label`` column (default the second) of two-column input."""
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    base_rate = weighted_mean(y, w)
    # the classes themselves, not the rounded mean (weights of 1e-200 round
    # a mean of ones to 0.9999999999999999)
    seen = y if w is None else y[w > 0]
    if seen.shape[0] == 0 or bool(np.all(seen == seen[0])):
        raise SingleClassError()
    return y, p, w, base_rate


class SingleClassError(ValueError):
    """Outcomes of one class: no calibration report (the command line skips
    such a group of ``--group-col`` and reports the others)."""

    def __init__(self) -> None:
        super().__init__(
            "y_true contains a single class (among the samples with positive weight): "
            "a calibration report needs both events and non-events."
        )


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


def _intervals(y, p, w, opts: Options, notes: _Notes, compute: Any = None):
    """``(intervals, inference result)`` from :func:`skbrier.stats.brier_inference`
    (``compute(**options)``: its result computed another way, e.g. from the
    merged states of a Spark DataFrame)."""
    from ..stats.inference import brier_inference

    if compute is None:
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
) -> dict:
    """The calibration and discrimination numbers (``order``: the stable
    order of ``p`` when the caller has it; ``sorted_yp``: ``(y[order],
    p[order])`` too)."""
    from ._valprob import valprob_extras

    run.step("Spiegelhalter test")
    sz = _spiegelhalter(y, p, w, notes)
    run.step("logistic calibration")
    logistic, df = _logistic(y, p, w, notes)
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


# --------------------------------------------------------------------------
# the public function
# --------------------------------------------------------------------------


@one_warning_per_call
@backends(
    arrays=("y_true", "y_proba", "sample_weight", "groups", "segments"),
    dask="skbrier._backends._dask._adapters:calibration_report",
    array_api=HOST,
)
def calibration_report(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    groups: ArrayLike | None = None,
    segments: Any = None,
    thresholds: float | Sequence[float] | None = None,
    cov_type: str = "iid",
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_level: float = 0.95,
    n_bins: int = 10,
    strategy: str = "uniform",
    random_state: Any = None,
    prevalence: float | None = None,
    inference_kwds: dict | None = None,
    name: str | None = None,
    n_resamples: int | None = None,
    n_jobs: int | None = None,
) -> CalibrationReport:
    r"""Calibration audit of binary probability forecasts.

    Computes in one pass what R's ``rms::val.prob`` reports (Brier score,
    calibration intercept and slope, Spiegelhalter's z, Emax/E90/Eavg, C,
    Dxy, D with its p-value, U with its p-value, Q, R²) together with the
    O/E ratio, an interval for C and the lowess calibration curve, with the
    Brier Index and skill score, calibration in the large, the binned expected
    calibration error, the Brier score decomposition and net benefit at
    the decision thresholds of interest.

    With ``groups`` (and ``segments``) the report has a subgroup section
    (``CalibrationReport.subgroups``): per group n, events, O/E,
    calibration in the large, slope and Brier with intervals, the ICI, the
    worst-group gap, Cochran's test of heterogeneity of O/E across the groups
    and Holm-adjusted p-values (all from
    :func:`skbrier.metrics.calibration_by_group`), the binning-free cumulative
    calibration tests overall and per group
    (:func:`skbrier.metrics.cumulative_calibration`) and, over several
    segmenting columns, the multicalibration error
    (:func:`skbrier.metrics.multicalibration_error`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_proba : array-like of shape (n_samples,) or (n_samples, 2)
        Predicted probabilities of ``pos_label``, or ``predict_proba``
        output with one column per sorted class.
    groups : array-like of shape (n_samples,), default=None
        A group per sample (a subgroup, a site, a protected attribute): adds
        the subgroup section.  Missing labels are refused (give them a label
        of their own).
    segments : DataFrame, dict of array-like or array-like, default=None
        Segmenting columns (each distinct value of each column is a segment):
        adds the multicalibration error to the subgroup section.  Without
        ``groups``, the first column groups the section's table.  Dask
        input has no subgroup section (a note says why).
    thresholds : float or sequence of float, default=None
        Decision thresholds in (0, 1) for the net benefit table (none if
        None).
    cov_type : {"iid", "hac", "bootstrap"}, default="iid"
        How the intervals of the Brier metrics are computed (see
        :func:`skbrier.stats.brier_inference`); ``"hac"`` for serially
        correlated forecasts such as a time series.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights (an integer weight counts as that
        many repeated rows).
    pos_label : int, float, bool or str, default=None
        The positive class.
    confidence_level : float, default=0.95
        Coverage of every interval.
    n_bins : int, default=10
        Bins of the expected calibration error and the binned decomposition
        (at most 100,000).
    strategy : {"uniform", "quantile"}, default="uniform"
        Bins of the expected calibration error.
    random_state : None, int, Generator, RandomState or SeedSequence, default=None
        Seed of the bootstrap (``cov_type="bootstrap"``) and of the
        consistency band of the reliability diagram.
    prevalence : float, default=None
        Event rate of the target population for net benefit when the data
        come from a case-control design (see
        :func:`skbrier.metrics.net_benefit.net_benefit`); default: the
        observed rate.
    inference_kwds : dict, default=None
        Further keyword arguments of :func:`skbrier.stats.brier_inference`:
        ``hac_kwds`` (``cov_type="hac"``), ``n_resamples``, ``bootstrap``,
        ``block_length``, ``method``, ``n_jobs`` (``cov_type="bootstrap"``).
    name : str, default=None
        Label of the forecaster in tables and titles.
    n_resamples : int, default=None
        Bootstrap resamples (``cov_type="bootstrap"``).  None: an adaptive
        default, :math:`\operatorname{clip}(2 \cdot 10^8 / n, 200, 9999)`
        for :math:`n` rows of positive weight (9999 up to 20,000 rows, 2000
        at 100,000, 200 from 1,000,000 on), so a bootstrap at 2 million rows
        finishes in minutes.  Also accepted in ``inference_kwds`` (not both).
    n_jobs : int, default=None
        Parallel jobs (threads) of the bootstrap; the intervals do not depend
        on it (the one resampling engine fixes the chunks and their seeds).

    Returns
    -------
    CalibrationReport
        With ``summary()``, ``to_dict()``, ``to_json()``, ``to_frame()``,
        ``to_html()`` and ``confidence_interval()``.

    Raises
    ------
    ValueError
        For invalid input (as :func:`skbrier.brier_score`), a single outcome
        class, thresholds outside (0, 1), an unknown ``cov_type`` or
        ``strategy``, a ``confidence_level`` outside (0, 1), a negative
        ``random_state`` or an invalid value in ``inference_kwds``.
    TypeError
        For options of the wrong type (``name`` not a string,
        ``inference_kwds`` not a dict or with an unknown key, ...).

    See Also
    --------
    skbrier.metrics.calibration.calibration_intercept_slope : Logistic recalibration.
    skbrier.metrics.calibration.spiegelhalter_z : Spiegelhalter's test.
    skbrier.metrics.calibration_error.calibration_error : Binned ECE.
    skbrier.stats.brier_inference : The intervals of the Brier metrics.

    Notes
    -----
    Calibration intercept and slope: :math:`\operatorname{logit}
    P(y = 1) = a + b \operatorname{logit}(p)` (ideal 0 and 1);
    calibration in the large: :math:`a` with :math:`b = 1`, on the
    log-odds scale.  The O/E ratio (TRIPOD) is :math:`\sum w y / \sum w p`
    with a Wald interval of :math:`\log(O/E)`, variance
    :math:`(1 - O/N)/O` (metamisc's ``oecalc``).  C is exact (Hmisc's
    ``somers2``, pROC) with DeLong's interval (frequency weights: the
    DeLong variance of the data with repeated rows); val.prob's C and Dxy
    come from ``lrm.fit``, which groups the forecasts first, and can differ
    in the third decimal.  val.prob's "D:p" is :math:`P(\chi^2_1 >`
    D:Chi-sq), which rms 6.5-0 returns as NA.

    Every interval states its method
    (:attr:`CalibrationReport.interval_methods`, the "CI method" column): the Brier metrics follow
    ``cov_type``; calibration in the large, intercept and slope are iid
    Wald intervals, or HAC sandwich intervals under ``cov_type="hac"``
    (scores of the logistic fit, the long-run covariance of
    :func:`skbrier.stats.long_run_covariance`; equal to
    ``sandwich::kernHAC(glm, weights = c(1, 1))``), or percentile bootstrap
    intervals of refits under ``cov_type="bootstrap"`` (same scheme and
    block length as the Brier metrics); the O/E ratio likewise (HAC
    variance of the observed events, or bootstrap); C uses DeLong's iid
    variance under every ``cov_type`` (labelled so).  Intercept,
    slope, Spiegelhalter's z and p, Brier, Emax, E90 and Eavg equal
    ``rms::val.prob`` (tested to 1e-6).  Probabilities of exactly 0 or 1 are
    left out of the logistic fits only (as val.prob does); the report notes
    how many.  C and Dxy are exact on every row (scikit-learn's
    ``roc_auc_score``); val.prob's are ``lrm.fit``'s statistics of its
    logistic fit, without the rows of probability 0 or 1, and can differ
    (in the fourth decimal on 150 distinct forecasts, rms 6.5-0).

    Every number is the value of skbrier's public function for it (on the
    data validated once): options are checked before anything is computed,
    and a quantity undefined for these data (an interval with fewer than 3
    samples, lowess with weights, ...) is ``None`` with a note.  Warnings
    raised while computing become notes too.

    Weights are frequency weights throughout: the intervals come from
    :func:`skbrier.stats.brier_inference` and inherit its weight semantics.

    References
    ----------
    .. [1] F. E. Harrell, ``rms::val.prob``.
    .. [2] E. W. Steyerberg and A. J. Vickers, "Decision curve analysis: a
       discussion", Medical Decision Making 28, 146-149, 2008.
    .. [3] B. Van Calster et al., "Calibration: the Achilles heel of
       predictive analytics", BMC Medicine 17, 230, 2019.
    .. [4] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing
       the areas under two or more correlated receiver operating
       characteristic curves", Biometrics 44, 837-845, 1988.
    .. [5] T. P. A. Debray et al., "A guide to systematic review and
       meta-analysis of prediction model performance", BMJ 356, i6460, 2017.

    Examples
    --------
    >>> from skbrier.report import calibration_report
    >>> from skbrier.datasets import load_forecasts
    >>> d = load_forecasts()
    >>> rep = calibration_report(d["y"], d["model_b"], name="model_b")
    >>> round(rep.brier_score, 4)
    0.1...
    >>> round(rep.calibration_slope, 3), round(rep.calibration_in_the_large, 3)
    (0.983, -0.9...)
    >>> print(rep.summary())  # doctest: +ELLIPSIS
    Calibration report: model_b ...

    With groups, the subgroup section:

    >>> import numpy as np
    >>> site = np.where(np.arange(len(d["y"])) % 3 == 0, "A", "B")
    >>> rep = calibration_report(d["y"], d["model_b"], groups=site)
    >>> rep.subgroups.by_group.groups.tolist(), rep.to_dict()["subgroups"]["n_groups"]
    (['A', 'B'], 2)
    """
    opts = check_report_options(locals())  # the arguments, before anything else
    by = (groups, segments)
    # one more step with the subgroup section
    total = len(STEPS) + any(b is not None for b in by)
    with task("calibration report", total=total) as run:
        return _in_memory(y_true, y_proba, sample_weight, pos_label, opts, run, by)


#: the steps of the in-memory report, as the progress display names them
STEPS = (
    "checking the data",
    "confidence intervals",
    "Brier score",
    "Spiegelhalter test",
    "logistic calibration",
    "ECE",
    "sorting the forecasts",
    "lowess calibration",
    "C statistic and val.prob's indexes",
    "decomposition",
    "net benefit",
)


def _in_memory(
    y_true, y_proba, sample_weight, pos_label, opts: Options, run: Task, by=(None, None)
):
    """The report of in-memory input (``run``: the progress display's task;
    ``by``: ``(groups, segments)`` of the subgroup section).

    The data are checked once here; every section reads the validated arrays
    without checking them again (:func:`skbrier._core.validation.validated`)."""
    run.step("checking the data")
    y, p, w, base_rate = _binary_forecast(y_true, y_proba, sample_weight, pos_label)
    with validated(y, p, w):
        return _sections(y, p, w, base_rate, opts, run, by)


def _sections(
    y, p, w, base_rate: float, opts: Options, run: Task, by=(None, None)
) -> CalibrationReport:
    """The report of validated ``(y01, p, w)`` (``by``: see :func:`_in_memory`)."""
    from ._subgroups import subgroup_section

    if opts.cov_type == "bootstrap" and opts.n_resamples is None:
        n_pos = int(p.shape[0] if w is None else np.count_nonzero(w))
        opts = dataclasses.replace(opts, n_resamples=adaptive_n_resamples(n_pos))
    notes = _Notes()
    # the subgroups first: a bad groups= or segments= fails before the rest;
    # they sort the forecasts as the lowess curve and C do, once for all
    order = sorted_yp = None
    if any(b is not None for b in by):
        from .._core.kernels.lowess import stable_argsort

        run.step("subgroups")
        order = stable_argsort(p)
        sorted_yp = (y[order], p[order])  # the section's rows and lowess's alike
    groups, segments = by
    subgroups = subgroup_section(
        y, p, w, groups, segments, opts.confidence_level, notes, order, sorted_yp
    )
    # the intervals first: an invalid inference option fails before the rest
    run.step("confidence intervals")
    intervals, inference = _intervals(y, p, w, opts, notes)
    run.step("Brier score")
    bs = _brier_score(y, p, w)
    numbers = _calibration_numbers(
        y, p, w, opts, notes, inference, run, order, None if w is not None else sorted_yp
    )
    del order, sorted_yp
    specs = numbers.pop("_specs")
    numbers["subgroups"] = subgroups
    return _assemble(
        (y, p, w),
        opts,
        notes,
        run,
        (int(p.shape[0]), float(y.sum() if w is None else np.dot(w, y))),
        (base_rate, weighted_mean(p, w), bs),
        (intervals, inference, specs),
        numbers,
    )


def _assemble(
    yp: tuple[Any, Any, Any],
    opts: Options,
    notes: _Notes,
    run: Task,
    counts: tuple[int, float],
    means: tuple[float, float, float],
    inferred: tuple[Any, Any, Any],
    numbers: dict[str, Any],
    data: tuple[Any, Any, Any] | None = None,
    corp_kwds: dict | None = None,
    last_note: str | None = None,
    sections: Any = None,
) -> CalibrationReport:
    """The decomposition and net-benefit sections of ``yp = (y01, p, w)`` and
    the report (in memory and Dask alike).

    ``counts`` is ``(n_samples, n_events)``, ``means`` ``(base_rate,
    mean_forecast, brier_score)``, ``inferred`` ``(intervals, inference,
    specs)`` and ``data`` the ``(y, p, w)`` the report keeps for its intervals
    (default ``yp``); ``corp_kwds`` go to the CORP decomposition and
    ``last_note`` closes the notes.  ``sections``: an object whose
    ``decomposition(func, kwds)`` and ``decision_curve()`` compute those
    sections another way (the merged states of a Spark DataFrame)."""
    y, p, w = yp
    run.step("decomposition")
    decomposition = _decomposition(
        y,
        p,
        w,
        opts,
        notes,
        corp_kwds,
        None if sections is None else sections.decomposition,
    )
    run.step("net benefit")
    nb = _net_benefit(
        y, p, w, opts, notes, None if sections is None else sections.decision_curve
    )
    if last_note is not None:
        notes.add(last_note)
    base_rate, mean_forecast, bs = means
    intervals, inference, specs = inferred
    return CalibrationReport(
        name=opts.name,
        n_samples=counts[0],
        n_events=counts[1],
        prevalence=float(base_rate),
        mean_forecast=float(mean_forecast),
        brier_score=bs,
        brier_index=brier_index_from_score(bs),
        brier_skill_score=skill_score(bs, base_rate * (1.0 - base_rate)),
        intervals=intervals,
        cov_type=opts.cov_type,
        confidence_level=opts.confidence_level,
        n_resamples=opts.n_resamples if opts.cov_type == "bootstrap" else None,
        decomposition=decomposition,
        net_benefit=nb,
        notes=list(notes),
        **numbers,
    )._attach(
        yp if data is None else data, inference, int(opts.rng.integers(2**31 - 1)), specs
    )


def _brier_score(y, p, w) -> float:
    from ..metrics.brier import brier_score

    return float(brier_score(y, p, sample_weight=w))
