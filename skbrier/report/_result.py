"""The :class:`CalibrationReport` result object (numbers only; rendering lives
in :mod:`._text`, :mod:`._html`, :mod:`._json` and :mod:`._figures`)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from .._core.params import check_option
from .._core.results import ConfidenceInterval, _Intervals
from . import _figures, _html, _json, _text
from ._valprob import interval_at

__all__ = [
    "ALL_INTERVAL_METRICS",
    "INTERVAL_METRICS",
    "LOGISTIC_METRICS",
    "CalibrationReport",
]

#: metrics whose intervals come from :func:`skbrier.stats.brier_inference`
INTERVAL_METRICS = ("brier_score", "brier_index", "brier_skill_score")
#: metrics whose (Wald) intervals come from the logistic recalibration,
#: with the name of the coefficient in :class:`LogisticCalibrationResult`
LOGISTIC_METRICS = {
    "calibration_in_the_large": "calibration_in_the_large",
    "calibration_intercept": "intercept",
    "calibration_slope": "slope",
}
#: every metric with an interval (the Brier metrics, then the others)
ALL_INTERVAL_METRICS = (
    *INTERVAL_METRICS,
    "observed_expected",
    *LOGISTIC_METRICS,
    "c_statistic",
)


@dataclass(frozen=True, repr=False)
class CalibrationReport(_Intervals[ConfidenceInterval | None]):
    r"""Calibration audit of binary probability forecasts.

    Made by :func:`calibration_report` (users do not build it).  Numbers are
    plain Python floats; a section that could not be computed is ``None``
    and :attr:`notes` says why.  The object follows the result protocol of
    skbrier: :meth:`summary`, :meth:`to_dict`, :meth:`to_frame`,
    :meth:`confidence_interval`, a short ``repr`` and an HTML view in
    notebooks; :meth:`to_json`, :meth:`to_html` and :meth:`figures` render it.

    ``confidence_interval(metric=...)`` gives the interval of one metric at
    any level (the report's tables use :attr:`confidence_level`), or None
    when it is undefined for these data (:attr:`notes` say why):
    ``"brier_score"`` (the default), ``"brier_index"`` or
    ``"brier_skill_score"`` by the methods of
    :func:`skbrier.stats.brier_inference` with the report's
    :attr:`cov_type` (``"wald"``, or ``"percentile"``, ``"basic"`` and
    ``"bca"`` for a bootstrap, by default the one the report was made
    with); ``"observed_expected"``, ``"calibration_in_the_large"``,
    ``"calibration_intercept"``, ``"calibration_slope"`` and
    ``"c_statistic"`` each by its one method (:attr:`interval_methods`:
    ``"wald"`` for the iid Wald, HAC sandwich and DeLong intervals,
    ``"percentile"`` for the bootstrap ones).

    Parameters
    ----------
    name : str or None
        Label of the forecaster (used in tables and titles).
    n_samples : int
        Number of forecasts (rows).
    n_events : float
        Number (total weight) of events.
    prevalence : float
        (Weighted) event rate.
    mean_forecast : float
        (Weighted) mean forecast.
    brier_score, brier_index, brier_skill_score : float
        Brier score, Brier Index (0--100, higher is better) and skill
        against the base rate.
    intervals : dict
        ``{metric: ConfidenceInterval or None}`` for the three Brier metrics
        at :attr:`confidence_level`, from
        :func:`skbrier.stats.brier_inference` (``None`` when undefined).
    cov_type, confidence_level : str, float
        How the intervals were computed.
    logistic : LogisticCalibrationResult or None
        Logistic recalibration (calibration in the large, intercept, slope,
        standard errors, val.prob's D, U, Q, R²), from
        :func:`skbrier.metrics.calibration.calibration_intercept_slope`.
    spiegelhalter_z, spiegelhalter_p : float
        Spiegelhalter's z test.  Every test of the report (this one, D:p and
        U:p) is NaN (shown as n/a) below 3 observations (a total frequency
        weight of 3), as val.prob's D, U, Q and the intervals.
    emax, e90, eavg : float or None
        Lowess calibration errors (``None`` with sample weights).
    ece : float
        Binned expected calibration error.
    ece_n_bins, ece_strategy : int, str
        Its bins.
    c_statistic : float
        Area under the ROC curve.
    decomposition : dict or None
        ``{"corp": {...}, "murphy": {...}}`` terms of the Brier score
        decomposition.
    net_benefit : list of dict or None
        One row per threshold: ``threshold``, ``model``, ``treat_all``,
        ``treat_none``, ``standardized``, ``interventions_avoided_per_100``.
    notes : list of str
        What was left out and why, and every warning raised while computing.
    unreliability_df : int or None
        Degrees of freedom of val.prob's unreliability test (2; 1 for a
        constant forecast, where the slope is not estimated).
    dxy : float or None
        Somers' :math:`D_{xy} = 2 (C - 1/2)` (val.prob's "Dxy").
    discrimination_pvalue : float or None
        val.prob's "D:p": :math:`P(\chi^2_1 > D)` with :math:`D` its "D:Chi-sq", the
        likelihood-ratio test of the forecasts against the base rate.
    observed_expected : float or None
        TRIPOD's ratio of observed to expected events
        :math:`O/E = \sum w y / \sum w p` (1 is calibrated in the large).
    lowess_curve : dict or None
        ``{"x": ..., "y": ...}``: the knots of val.prob's lowess calibration
        curve (the curve Emax, E90 and Eavg measure; linear between knots; at
        most 512 points); None with sample weights.
    n_resamples : int or None
        Bootstrap resamples (``cov_type="bootstrap"``), None otherwise.
    subgroups : SubgroupSection or None
        With ``groups=`` (or ``segments=``): ``by_group``
        (:func:`skbrier.metrics.calibration_by_group`), ``cumulative``
        (:func:`skbrier.metrics.cumulative_calibration` overall and per
        group) and ``multicalibration``
        (:func:`skbrier.metrics.multicalibration_error`, None without
        ``segments``); its ``to_dict()`` is the ``"subgroups"`` entry of
        :meth:`to_dict`.  None without groups.

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> data = load_forecasts()
    >>> from skbrier import calibration_report
    >>> rep = calibration_report(data["y"], data["model_a"], thresholds=[0.1, 0.2])
    >>> rep.to_dict()["brier_score"]["estimate"] == rep.brier_score
    True
    >>> ci = rep.confidence_interval(metric="brier_index")
    >>> bool(ci.low < rep.brier_index < ci.high)
    True
    """

    name: str | None
    n_samples: int
    n_events: float
    prevalence: float
    mean_forecast: float
    brier_score: float
    brier_index: float
    brier_skill_score: float
    intervals: dict
    cov_type: str
    confidence_level: float
    logistic: Any
    spiegelhalter_z: float
    spiegelhalter_p: float
    emax: float | None
    e90: float | None
    eavg: float | None
    ece: float
    ece_n_bins: int
    ece_strategy: str
    c_statistic: float
    decomposition: dict | None
    net_benefit: list | None
    notes: list = field(default_factory=list)
    unreliability_df: int | None = None
    dxy: float | None = None
    discrimination_pvalue: float | None = None
    observed_expected: float | None = None
    lowess_curve: dict | None = field(default=None, compare=False)
    n_resamples: int | None = None
    subgroups: Any = field(default=None, compare=False)
    # what the figures and intervals at other levels need (not part of the
    # numbers; set once by calibration_report through _attach)
    _data: tuple | None = field(default=None, init=False, repr=False, compare=False)
    _inference: Any = field(default=None, init=False, repr=False, compare=False)
    _figure_seed: int = field(default=0, init=False, repr=False, compare=False)
    _specs: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    # where the rows come from, when the caller knows (the command line: a
    # digest of the rows of the input): reports are compared pair by pair
    # only when they score the same rows
    _rows_key: Any = field(default=None, init=False, repr=False, compare=False)

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "name",
        "n_samples",
        "prevalence",
        "brier_score",
        "brier_index",
        "brier_skill_score",
        "calibration_in_the_large",
        "calibration_intercept",
        "calibration_slope",
        "spiegelhalter_z",
        "ece",
        "c_statistic",
    )

    def __post_init__(self) -> None:
        if self.name is not None and not isinstance(self.name, str):
            raise TypeError(f"name must be a str or None, got {type(self.name).__name__}.")

    def _attach(
        self, data: tuple, inference: Any, figure_seed: int, specs: dict | None = None
    ) -> CalibrationReport:
        """Keep the validated arrays (for the figures), the inference result and
        the interval specifications of the other rows (for intervals at other
        levels); called once by calibration_report."""
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_inference", inference)
        object.__setattr__(self, "_figure_seed", int(figure_seed))
        object.__setattr__(self, "_specs", dict(specs or {}))
        return self

    def _set_rows_key(self, key: Any) -> CalibrationReport:
        """Record which rows of the input the report scores (see :mod:`._compare`)."""
        object.__setattr__(self, "_rows_key", key)
        return self

    # -- convenience ---------------------------------------------------------
    @property
    def calibration_in_the_large(self) -> float | None:
        """Intercept with slope fixed at 1 (ideal 0)."""
        return None if self.logistic is None else self.logistic.calibration_in_the_large

    @property
    def calibration_intercept(self) -> float | None:
        """Intercept of the joint logistic recalibration (val.prob's "Intercept")."""
        return None if self.logistic is None else self.logistic.intercept

    @property
    def calibration_slope(self) -> float | None:
        """Slope of the joint logistic recalibration (ideal 1)."""
        return None if self.logistic is None else self.logistic.slope

    _interval_metrics: ClassVar[tuple[str, ...]] = ALL_INTERVAL_METRICS
    _interval_methods: ClassVar[tuple[str, ...]] = ("wald", "percentile", "basic", "bca")

    def _valid_methods(self, metric: str) -> Sequence[str]:
        if metric in INTERVAL_METRICS:
            inference = self._inference
            return (
                self._interval_methods
                if inference is None
                else inference._valid_methods(metric)
            )
        spec = self._specs.get(metric)
        return (
            ("percentile",) if spec is not None and spec.kind == "replicates" else ("wald",)
        )

    def _default_method(self, metric: str) -> str:
        if metric in INTERVAL_METRICS and self._inference is not None:
            return str(self._inference._default_method(metric))
        return self._valid_methods(metric)[0]

    def _interval(
        self, metric: str, level: float, method: str
    ) -> ConfidenceInterval | None:
        if metric in INTERVAL_METRICS:
            if level == self.confidence_level and method == self._default_method(metric):
                return self.intervals.get(metric)
            return _brier_interval(self._inference, metric, level, method)
        return interval_at(self._specs.get(metric), level)

    @property
    def interval_methods(self) -> dict:
        """``{metric: method}``: how each interval of the report is computed.

        The Brier metrics follow :attr:`cov_type`
        (:func:`skbrier.stats.brier_inference`); calibration in the large, intercept and slope are
        iid Wald, HAC sandwich or bootstrap intervals; the O/E ratio a log
        Wald (iid or HAC) or bootstrap interval; C uses DeLong's (iid)
        variance.  A metric whose interval is undefined maps to None.
        """
        out: dict = {}
        brier = _brier_method(self)
        for m in ALL_INTERVAL_METRICS:
            if m in INTERVAL_METRICS:
                out[m] = brier if self.intervals.get(m) is not None else None
            else:
                spec = self._specs.get(m)
                out[m] = None if spec is None else spec.method
        return out

    # -- exports -------------------------------------------------------------
    def to_dict(self) -> dict:
        """All numbers as a JSON-ready dict (NaN and infinity become ``None``).

        Returns
        -------
        dict
            Keys: ``name``, ``n_samples``, ``n_events``, ``prevalence``,
            ``mean_forecast``, ``cov_type``, ``confidence_level``, one entry
            ``{"estimate", "ci_low", "ci_high"}`` per metric with an interval,
            ``spiegelhalter``, ``lowess``, ``ece``, ``c_statistic``,
            ``val_prob`` (D, U, Q, R² and the U test), ``decomposition``,
            ``net_benefit`` and ``notes``.
        """
        return _json.report_to_dict(self)

    def to_json(self, *, indent: int | None = 2) -> str:
        """Return the report as a JSON string.

        Parameters
        ----------
        indent : int or None, default=2
            Indentation (``None``: one line).

        Returns
        -------
        str
            :meth:`to_dict` as strict JSON (undefined numbers are ``null``).
        """
        return _json.dumps(self.to_dict(), indent=indent)

    def to_frame(self) -> Any:
        """The headline numbers as a one-row :class:`pandas.DataFrame` (needs pandas).

        Returns
        -------
        pandas.DataFrame
            One row; the columns are the fields of :meth:`reports_table`
            (``name``, ``n_samples``, ``brier_score``, ...).  Reports of
            several forecasters stack with :func:`pandas.concat`.
        """
        return super().to_frame()

    def summary(self) -> str:
        """A readable plain-text table of the audit.

        Returns
        -------
        str
            Multi-line text (also what ``str(report)`` and ``print(report)`` show).
        """
        return _text.summary_text(self)

    def __str__(self) -> str:
        return self.summary()

    def figures(self) -> dict:
        """Draw the figures and return them as base64-encoded PNG strings.

        Returns
        -------
        dict
            ``{"reliability": ..., "decision_curve": ...}``; empty when
            matplotlib is not installed.
        """
        return _figures.report_figures(self)

    def to_html(self, path: str | Path | None = None, *, template: str = "default") -> str:
        """Render the report as a self-contained HTML page.

        The page holds the tables and, when matplotlib is installed, the
        reliability diagram and the decision curve as embedded PNG images.

        Parameters
        ----------
        path : str or path-like, optional
            If given, the page is written there (replacing the file
            atomically: a failed write leaves any previous file intact).
        template : {"default", "tripod"}, default="default"
            ``"tripod"``: the sections of the TRIPOD+AI items concerning
            performance, with their checklist (:meth:`tripod`).

        Returns
        -------
        str
            The HTML text.
        """
        if check_option(template, "template", ("default", "tripod")) == "tripod":
            return self.tripod().to_html(path)
        return _html.reports_to_html({self.name or "forecast": self}, path)

    def tripod(self, **kwargs: Any) -> Any:
        """The TRIPOD+AI report of this audit.

        Parameters
        ----------
        **kwargs
            The keywords of :func:`~skbrier.report.tripod_report`
            (``subgroups``, ``missing``, ``provenance``, the target widths).

        Returns
        -------
        TripodReport
            Its sections, checklist and ``to_html()``.

        Examples
        --------
        >>> import numpy as np
        >>> from skbrier import calibration_report
        >>> rng = np.random.default_rng(0)
        >>> p = rng.uniform(0.05, 0.6, 300)
        >>> rep = calibration_report(rng.uniform(size=300) < p, p, random_state=0)
        >>> trip = rep.tripod(missing={"missing outcome": 3})
        >>> [it["status"] for it in trip.checklist() if it["id"] == "11"]
        ['answered']
        """
        from ._tripod import tripod_report

        return tripod_report({self.name or "forecast": self}, **kwargs)

    def _repr_html_(self) -> str:  # Jupyter
        return _html.report_section_html(self, figures=False)


def _brier_method(rep: CalibrationReport) -> str:
    """Label of the interval method of the Brier metrics."""
    if rep.cov_type == "iid":
        return "iid Wald (delta method)"
    if rep.cov_type == "hac":
        return "HAC Wald (delta method)"
    boot = getattr(rep._inference, "_boot", None) or {}
    scheme = boot.get("scheme", "iid")
    kind = boot.get("method", "percentile")
    return f"bootstrap {kind}" if scheme == "iid" else f"{scheme} bootstrap {kind}"


def _brier_interval(
    inference: Any, metric: str, level: float, method: str
) -> ConfidenceInterval | None:
    """Interval of a Brier metric from the stored inference result (None if undefined)."""
    if inference is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ci = inference.confidence_interval(level, metric=metric, method=method)
    except ValueError as exc:
        if str(exc).startswith("method"):
            raise
        return None
    lo, hi = float(ci[0]), float(ci[1])
    return ConfidenceInterval(lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None
