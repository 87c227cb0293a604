"""Computation of the calibration report (no rendering here).

Options are checked first (before any long computation), the data are
validated once, and every number comes from skbrier's public functions
called on the validated arrays: the report shows exactly what those
functions return.  Warnings raised on the way become :attr:`notes`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.diagnose import one_warning_per_call
from .._core.dispatch import HOST, backends
from .._core.kernels.brier import brier_index_from_score, skill_score, weighted_mean
from .._core.progress import Task, task
from .._core.validation import binary_forecast, validated
from ._numbers import (
    _brier_score,
    _calibration_numbers,
    _intervals,
    _logistic,
    _Notes,
)
from ._options import (
    Options,
    check_options,  # noqa: F401 - the Dask and Spark adapters import it here
    check_report_options,
)
from ._result import CalibrationReport
from ._sections import _decomposition, _net_benefit
from ._valprob import adaptive_n_resamples, counts_refits

__all__ = ["calibration_report"]


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
# the public function
# --------------------------------------------------------------------------


@one_warning_per_call
@backends(
    arrays=("y_true", "y_proba", "sample_weight", "groups", "segments"),
    dask="skbrier._backends._dask._adapters:calibration_report",
    array_api=HOST,
    caveats={"dask": "without the subgroup section (groups=, segments=: a note says so)"},
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
    companion = fitted = None
    if opts.cov_type == "bootstrap":
        # the logistic refits ride on the resamples of the Brier score's
        # bootstrap (drawn once), with the frequency weight of each row in
        # each resample: the fit and the sort they start from first
        from .._core.kernels.lowess import stable_argsort

        if order is None:
            order = stable_argsort(p)
            sorted_yp = None if w is not None else (y[order], p[order])
        fitted = (_logistic(y, p, w, fit_notes := _Notes()), fit_notes)
        if fitted[0][0] is not None:
            # integer weights of the rows in each resample, but with a block
            # bootstrap's, which keep the rows' weights
            integral = w is None or opts.inference_kwds.get("bootstrap", "iid") == "iid"
            companion = counts_refits(y, p, fitted[0][0], order, integral)
    intervals, inference = _intervals(y, p, w, opts, notes, companion=companion)
    del companion
    run.step("Brier score")
    bs = _brier_score(y, p, w)
    numbers = _calibration_numbers(
        y,
        p,
        w,
        opts,
        notes,
        inference,
        run,
        order,
        None if w is not None else sorted_yp,
        fitted,
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
