"""The calibration audit: one object with everything ``rms::val.prob`` reports and more.

:func:`calibration_report` computes, for binary probability forecasts, the
Brier score, Brier Index and Brier skill score with confidence intervals,
logistic recalibration (calibration in the large, intercept and slope),
Spiegelhalter's test, lowess and binned calibration errors, the C statistic,
the Brier score decomposition and net benefit at chosen thresholds.
:class:`CalibrationReport` prints it as a table, exports it to a dict, JSON
or a self-contained HTML page with figures.

Sections whose building blocks are not installed (or undefined for the data)
are reported as ``None`` with a note explaining why.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._validation import check_scalar_probability
from .metrics._brier_math import binary_brier, brier_index_from_score, weighted_mean
from .metrics._calibration_math import (
    binned_calibration_error,
    lowess_calibration_curve,
    spiegelhalter,
)
from .metrics.calibration import (
    LogisticCalibrationResult,
    _binary,
    _logistic_calibration,
)
from .metrics.decomposition import corp_decomposition, murphy_decomposition
from .metrics.net_benefit import net_benefit
from .plotting.decision_curve import DecisionCurveDisplay
from .plotting.reliability import ReliabilityDisplay
from .stats.inference import brier_inference

__all__ = ["CalibrationReport", "calibration_report", "reports_table", "reports_to_html"]

_COV_TYPES = ("iid", "hac", "bootstrap")
_INTERVAL_METRICS = ("brier_score", "brier_index", "brier_skill_score")


def _jsonable(obj: Any) -> Any:
    """Plain JSON types: NaN/inf become None, numpy scalars Python numbers."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, (np.bool_,)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        return v if math.isfinite(v) else None
    if isinstance(obj, Mapping):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return [_jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    return str(obj)


def _result_to_dict(res: Any) -> dict | None:
    """Turn a result object of another module (dataclass, named tuple, dict,
    plain object) into a dict of its public numeric fields."""
    if res is None:
        return None
    if isinstance(res, Mapping):
        d = dict(res)
    elif hasattr(res, "_asdict"):
        d = dict(res._asdict())
    elif hasattr(res, "__dataclass_fields__"):
        d = {k: getattr(res, k) for k in res.__dataclass_fields__}
    elif hasattr(res, "__dict__"):
        d = {k: v for k, v in vars(res).items() if not k.startswith("_")}
    else:
        try:
            return {"value": float(res)}
        except (TypeError, ValueError):
            return {"value": str(res)}
    out = {}
    for k, v in d.items():
        if k.startswith("_"):
            continue
        if isinstance(v, (int, float, np.integer, np.floating, bool, str)) or v is None:
            out[k] = v.item() if isinstance(v, np.generic) else v
    return out


@dataclass
class CalibrationReport:
    """Calibration audit of binary probability forecasts.

    Made by :func:`calibration_report` (users do not build it).  Numbers are
    plain Python floats; a section that could not be computed is ``None``
    and :attr:`notes` says why.

    Parameters
    ----------
    name : str or None
        Label of the forecaster (used in tables and titles).
    n_samples : int
        Number of forecasts.
    n_events : float
        Number (total weight) of events.
    prevalence : float
        (Weighted) event rate.
    mean_forecast : float
        (Weighted) mean forecast.
    brier_score, brier_index, brier_skill_score : float
        Brier score, Brier Index (0--100, higher is better) and skill
        against the base rate (``nan`` for a single class).
    intervals : dict
        ``{metric: (low, high)}`` for the three Brier metrics, or ``None``
        entries when inference is not available.
    cov_type, confidence_level : str, float
        How the intervals were computed.
    logistic : LogisticCalibrationResult or None
        Logistic recalibration (calibration in the large, intercept, slope,
        standard errors, val.prob's D, U, Q, R²).
    spiegelhalter_z, spiegelhalter_p : float
        Spiegelhalter's z test.
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
        ``treat_none``.
    notes : list of str
        What was left out and why.
    
    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> data = load_forecasts()
    >>> from skbrier import calibration_report
    >>> rep = calibration_report(data["y"], data["model_a"], thresholds=[0.1, 0.2])
    >>> rep.to_dict()["brier_score"]["estimate"] == rep.brier_score
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
    logistic: LogisticCalibrationResult | None
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
    _y: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    _p: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    _w: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

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

    def confidence_interval(
        self, metric: str = "brier_score"
    ) -> tuple[float, float] | None:
        """Confidence interval of one metric at :attr:`confidence_level`.

        Parameters
        ----------
        metric : str, default="brier_score"
            One of ``"brier_score"``, ``"brier_index"``,
            ``"brier_skill_score"`` (intervals of type :attr:`cov_type`), or
            ``"calibration_in_the_large"``, ``"calibration_intercept"``,
            ``"calibration_slope"`` (Wald intervals of the logistic fits).

        Returns
        -------
        tuple of float or None
            ``(low, high)``, or ``None`` when not available.
        """
        if metric in _INTERVAL_METRICS:
            return self.intervals.get(metric)
        logistic_names = {
            "calibration_in_the_large": "calibration_in_the_large",
            "calibration_intercept": "intercept",
            "calibration_slope": "slope",
        }
        if metric not in logistic_names:
            raise ValueError(
                f"metric must be one of {list(_INTERVAL_METRICS) + list(logistic_names)}, "
                f"got {metric!r}."
            )
        if self.logistic is None:
            return None
        lo, hi = self.logistic.confidence_interval(
            logistic_names[metric], self.confidence_level
        )
        if not (math.isfinite(lo) and math.isfinite(hi)):
            return None
        return (lo, hi)

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

        def est(metric: str, value: float | None) -> dict:
            ci = self.confidence_interval(metric)
            return {
                "estimate": value,
                "ci_low": None if ci is None else ci[0],
                "ci_high": None if ci is None else ci[1],
            }

        lg = self.logistic
        d = {
            "name": self.name,
            "n_samples": self.n_samples,
            "n_events": self.n_events,
            "prevalence": self.prevalence,
            "mean_forecast": self.mean_forecast,
            "cov_type": self.cov_type,
            "confidence_level": self.confidence_level,
            "brier_score": est("brier_score", self.brier_score),
            "brier_index": est("brier_index", self.brier_index),
            "brier_skill_score": est("brier_skill_score", self.brier_skill_score),
            "calibration_in_the_large": est(
                "calibration_in_the_large", self.calibration_in_the_large
            ),
            "calibration_intercept": est(
                "calibration_intercept", self.calibration_intercept
            ),
            "calibration_slope": est("calibration_slope", self.calibration_slope),
            "spiegelhalter": {"z": self.spiegelhalter_z, "p_value": self.spiegelhalter_p},
            "lowess": None
            if self.emax is None
            else {"emax": self.emax, "e90": self.e90, "eavg": self.eavg},
            "ece": {
                "value": self.ece,
                "n_bins": self.ece_n_bins,
                "strategy": self.ece_strategy,
            },
            "c_statistic": self.c_statistic,
            "val_prob": None
            if lg is None
            else {
                "D": lg.discrimination_index,
                "D_chi2": lg.lr_chi2,
                "U": lg.unreliability_index,
                "U_chi2": lg.unreliability_chi2,
                "U_p_value": lg.unreliability_pvalue,
                "Q": lg.quality_index,
                "R2": lg.r2,
                "n_excluded": lg.n_excluded,
            },
            "decomposition": self.decomposition,
            "net_benefit": self.net_benefit,
            "notes": list(self.notes),
        }
        return _jsonable(d)

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
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def summary(self) -> str:
        """A readable plain-text table of the audit.

        Returns
        -------
        str
            Multi-line text (also what ``str(report)`` and ``print(report)`` show).
        """
        return _summary_text(self)

    def __str__(self) -> str:
        return self.summary()

    def figures(self) -> dict:
        """Draw the figures and return them as base64-encoded PNG strings.

        Returns
        -------
        dict
            ``{"reliability": ..., "decision_curve": ...}``; the decision
            curve needs :mod:`skbrier.plotting.decision_curve`; empty when
            matplotlib is not installed.
        """
        return _figures(self)

    def to_html(self, path: str | Path | None = None) -> str:
        """Render the report as a self-contained HTML page.

        The page holds the tables and, when matplotlib is installed, the
        reliability diagram and the decision curve as embedded PNG images.

        Parameters
        ----------
        path : str or path-like, optional
            If given, the page is written there (overwriting the file).

        Returns
        -------
        str
            The HTML text.
        """
        text = reports_to_html({self.name or "forecast": self})
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def _repr_html_(self) -> str:  # Jupyter
        return _report_section_html(self, figures=False)


# --------------------------------------------------------------------------
# computation
# --------------------------------------------------------------------------


def _check_thresholds(thresholds: Any) -> list[float] | None:
    if thresholds is None:
        return None
    if np.ndim(thresholds) == 0:
        thresholds = [thresholds]
    if isinstance(thresholds, (str, bytes)):
        raise TypeError("thresholds must be a number or a sequence of numbers.")
    out = [
        check_scalar_probability(t, name="thresholds", open_interval=True)
        for t in np.asarray(thresholds, dtype=object).ravel().tolist()
    ]
    if not out:
        raise ValueError("thresholds is empty.")
    return sorted(set(out))


def _intervals(y, p, w, cov_type, confidence_level, random_state, kwds, notes) -> dict:
    empty = {m: None for m in _INTERVAL_METRICS}
    kwds = dict(kwds or {})
    if cov_type == "bootstrap":
        kwds.setdefault("random_state", random_state)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            inf = brier_inference(y, p, cov_type=cov_type, sample_weight=w, **kwds)
    except ValueError as exc:
        notes.append(f"Confidence intervals not available: {exc}")
        return empty
    out = {}
    for metric in _INTERVAL_METRICS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ci = inf.confidence_interval(metric, confidence_level)
        except ValueError as exc:
            notes.append(f"No interval for {metric}: {exc}")
            out[metric] = None
            continue
        lo, hi = float(ci[0]), float(ci[1])
        out[metric] = (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None
    return out


# fields of the decomposition results shown in the report, with short labels
_DECOMPOSITION_TERMS = {
    "corp": {
        "miscalibration": "MCB",
        "discrimination": "DSC",
        "uncertainty": "UNC",
        "miscalibration_pvalue": "MCB p",
    },
    "murphy": {
        "reliability": "REL",
        "resolution": "RES",
        "uncertainty": "UNC",
        "within_bin_variance": "WBV",
        "within_bin_covariance": "WBC",
    },
}


def _decomposition(y, p, w, n_bins, strategy, notes) -> dict | None:
    out = {}
    for key, func, extra in (
        ("corp", corp_decomposition, {}),
        ("murphy", murphy_decomposition, {"n_bins": n_bins, "strategy": strategy}),
    ):
        fname = func.__name__
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = func(y, p, sample_weight=w, **extra)
        except ValueError as exc:
            notes.append(f"{fname} not available: {exc}")
            continue
        terms = {}
        for field_name in _DECOMPOSITION_TERMS[key]:
            v = getattr(res, field_name, None)
            if v is not None:
                terms[field_name] = float(v)
        out[key] = terms or _result_to_dict(res)
    return out or None


def _net_benefit(y, p, w, thresholds, prevalence, notes) -> list | None:
    if thresholds is None:
        return None
    ones = np.ones_like(p)
    prev = prevalence if prevalence is not None else weighted_mean(y, w)
    rows = []
    for t in thresholds:
        model = net_benefit(y, p, threshold=t, sample_weight=w, prevalence=prevalence)
        treat_all = net_benefit(y, ones, threshold=t, sample_weight=w, prevalence=prevalence)
        odds = t / (1.0 - t)
        rows.append(
            {
                "threshold": t,
                "model": model,
                "treat_all": treat_all,
                "treat_none": 0.0,
                # Kerr et al.'s standardized net benefit and Vickers et al.'s net
                # interventions avoided per 100 (see reference.md)
                "standardized": model / prev,
                "interventions_avoided_per_100": (model - treat_all) / odds * 100.0,
            }
        )
    return rows


def calibration_report(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    thresholds: float | Sequence[float] | None = None,
    cov_type: str = "iid",
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_level: float = 0.95,
    n_bins: int = 10,
    strategy: str = "uniform",
    random_state: int | None = None,
    prevalence: float | None = None,
    inference_kwds: dict | None = None,
    name: str | None = None,
) -> CalibrationReport:
    r"""Calibration audit of binary probability forecasts.

    Computes in one pass what R's ``rms::val.prob`` reports (Brier score,
    calibration intercept and slope, Spiegelhalter's z, Emax/E90/Eavg, C,
    D, U, Q, R²) together with the Brier Index and skill score with
    confidence intervals, calibration in the large, the binned expected
    calibration error, the Brier score decomposition and net benefit at
    the decision thresholds of interest.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_proba : array-like of shape (n_samples,) or (n_samples, 2)
        Predicted probabilities of ``pos_label``, or ``predict_proba``
        output with one column per sorted class.
    thresholds : float or sequence of float, default=None
        Decision thresholds in (0, 1) for the net benefit table (none if
        None).
    cov_type : {"iid", "hac", "bootstrap"}, default="iid"
        How the intervals of the Brier metrics are computed (see
        :func:`skbrier.stats.brier_inference`); ``"hac"`` for serially
        correlated forecasts such as a time series.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    pos_label : int, float, bool or str, default=None
        The positive class.
    confidence_level : float, default=0.95
        Coverage of every interval.
    n_bins : int, default=10
        Bins of the expected calibration error and the binned decomposition.
    strategy : {"uniform", "quantile"}, default="uniform"
        Bins of the expected calibration error.
    random_state : int, default=None
        Seed of the bootstrap (``cov_type="bootstrap"``) and of the
        consistency band of the reliability diagram.
    prevalence : float, default=None
        Event rate of the target population for net benefit when the data
        come from a case-control design (see
        :func:`skbrier.metrics.net_benefit.net_benefit`); default: the
        observed rate.
    inference_kwds : dict, default=None
        Further keyword arguments of :func:`skbrier.stats.brier_inference`
        (``hac_kwds``, ``n_resamples``, ``bootstrap``, ``block_length``,
        ``method``, ``n_jobs``).
    name : str, default=None
        Label of the forecaster in tables and titles.

    Returns
    -------
    CalibrationReport
        With ``summary()``, ``to_dict()``, ``to_json()`` and ``to_html()``.

    Raises
    ------
    ValueError
        For invalid input (as :func:`skbrier.brier_score`), a single outcome
        class, thresholds outside (0, 1), an unknown ``cov_type`` or
        ``strategy``, or a ``confidence_level`` outside (0, 1).

    See Also
    --------
    skbrier.metrics.calibration.calibration_intercept_slope : Logistic recalibration.
    skbrier.metrics.calibration.spiegelhalter_z : Spiegelhalter's test.
    skbrier.metrics.calibration.expected_calibration_error : Binned ECE.

    Notes
    -----
    Calibration intercept and slope: :math:`\operatorname{logit}
    P(y = 1) = a + b \operatorname{logit}(p)` (ideal 0 and 1);
    calibration in the large: :math:`a` with :math:`b = 1`.  Intercept,
    slope, Spiegelhalter's z and p, Brier, Emax, E90 and Eavg equal
    ``rms::val.prob`` (tested to 1e-6).  Probabilities of exactly 0 or 1 are
    left out of the logistic fits only (as val.prob does); the report notes
    how many.  Parts built on optional skbrier modules (intervals,
    decomposition, net benefit, figures) are ``None`` with a note when they
    are not available.

    References
    ----------
    .. [1] F. E. Harrell, ``rms::val.prob``.
    .. [2] E. W. Steyerberg and A. J. Vickers, "Decision curve analysis: a
       discussion", Medical Decision Making 28, 146-149, 2008.
    .. [3] B. Van Calster et al., "Calibration: the Achilles heel of
       predictive analytics", BMC Medicine 17, 230, 2019.

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
    """
    if cov_type not in _COV_TYPES:
        raise ValueError(f"cov_type must be one of {list(_COV_TYPES)}, got {cov_type!r}.")
    if strategy not in ("uniform", "quantile"):
        raise ValueError(f"strategy must be 'uniform' or 'quantile', got {strategy!r}.")
    if isinstance(n_bins, (bool, np.bool_)) or not isinstance(n_bins, (int, np.integer)):
        raise TypeError(f"n_bins must be an integer, got {type(n_bins).__name__}.")
    if n_bins < 1:
        raise ValueError(f"n_bins must be at least 1, got {n_bins}.")
    if isinstance(confidence_level, (bool, np.bool_)) or not isinstance(
        confidence_level, (int, float, np.integer, np.floating)
    ):
        raise TypeError("confidence_level must be a real number in (0, 1).")
    confidence_level = float(confidence_level)
    if not 0.0 < confidence_level < 1.0:
        raise ValueError(
            f"confidence_level must lie strictly between 0 and 1, got {confidence_level!r}."
        )
    ths = _check_thresholds(thresholds)
    if inference_kwds is not None and not isinstance(inference_kwds, Mapping):
        raise TypeError("inference_kwds must be a dict of keyword arguments or None.")
    if prevalence is not None:
        prevalence = check_scalar_probability(
            prevalence, name="prevalence", open_interval=True
        )
    y, p, w = _binary(y_true, y_proba, sample_weight, pos_label)
    base_rate = weighted_mean(y, w)
    if base_rate in (0.0, 1.0):
        raise ValueError(
            "y_true contains a single class: a calibration report needs both events "
            "and non-events."
        )
    notes: list[str] = []

    bs = binary_brier(y, p, w)
    bs_ref = base_rate * (1.0 - base_rate)
    bss = 1.0 - bs / bs_ref
    z, zp = spiegelhalter(y, p, w)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            logistic = _logistic_calibration(y, p, w)
        except ValueError as exc:
            logistic = None
            notes.append(f"Logistic calibration not available: {exc}")
    if logistic is not None:
        if logistic.n_excluded:
            notes.append(
                f"{logistic.n_excluded} forecasts of exactly 0 or 1 were left out of the "
                "logistic calibration (as rms::val.prob does)."
            )
        if math.isinf(logistic.slope):
            notes.append(
                "The forecasts separate events from non-events perfectly: the "
                "calibration slope is infinite and the intercept undefined."
            )
        elif not logistic.converged:
            notes.append("The logistic recalibration did not converge.")

    if w is None:
        cal = lowess_calibration_curve(y, p)
        er = np.abs(p - cal)
        emax, e90, eavg = float(er.max()), float(np.quantile(er, 0.9)), float(er.mean())
    else:
        emax = e90 = eavg = None
        notes.append("Emax/E90/Eavg (lowess) are not computed with sample_weight.")

    ece = binned_calibration_error(y, p, w, int(n_bins), strategy, "l1")
    from sklearn.metrics import roc_auc_score

    cstat = float(roc_auc_score(y, p, sample_weight=w))

    intervals = _intervals(
        y, p, w, cov_type, confidence_level, random_state, inference_kwds, notes
    )
    decomposition = _decomposition(y, p, w, int(n_bins), strategy, notes)
    nb = _net_benefit(y, p, w, ths, prevalence, notes)

    report = CalibrationReport(
        name=name,
        n_samples=int(p.shape[0]),
        n_events=float(y.sum() if w is None else np.sum(w * y)),
        prevalence=float(base_rate),
        mean_forecast=weighted_mean(p, w),
        brier_score=bs,
        brier_index=brier_index_from_score(bs),
        brier_skill_score=float(bss),
        intervals=intervals,
        cov_type=cov_type,
        confidence_level=confidence_level,
        logistic=logistic,
        spiegelhalter_z=z,
        spiegelhalter_p=zp,
        emax=emax,
        e90=e90,
        eavg=eavg,
        ece=ece,
        ece_n_bins=int(n_bins),
        ece_strategy=strategy,
        c_statistic=cstat,
        decomposition=decomposition,
        net_benefit=nb,
        notes=notes,
    )
    report._y, report._p, report._w = y, p, w  # for the figures
    return report


# --------------------------------------------------------------------------
# text output
# --------------------------------------------------------------------------


def _fmt(v: Any, digits: int = 4) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return str(int(v))
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:.{digits}f}"


def _fmt_p(v: float | None) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return "< 0.0001" if v < 1e-4 else f"{v:.4f}"


def _p_eq(v: float | None) -> str:
    t = _fmt_p(v)
    return f"p {t}" if t.startswith("<") else f"p = {t}"


def _fmt_ci(ci: tuple | None, digits: int = 4) -> str:
    if ci is None:
        return ""
    return f"[{_fmt(ci[0], digits)}, {_fmt(ci[1], digits)}]"


def _summary_rows(rep: CalibrationReport) -> list[tuple[str, str, str]]:
    """(label, estimate, interval/comment) rows of the summary table."""
    rows: list[tuple[str, str, str]] = []
    lg = rep.logistic
    rows.append(("Overall", "", ""))
    rows.append(("  Brier score (0 = perfect)", _fmt(rep.brier_score),
                 _fmt_ci(rep.confidence_interval("brier_score"))))
    rows.append(("  Brier Index (100 = perfect)", _fmt(rep.brier_index, 2),
                 _fmt_ci(rep.confidence_interval("brier_index"), 2)))
    rows.append(("  Brier skill score vs base rate", _fmt(rep.brier_skill_score),
                 _fmt_ci(rep.confidence_interval("brier_skill_score"))))
    rows.append(("Calibration", "", ""))
    rows.append(("  Calibration in the large (0)", _fmt(rep.calibration_in_the_large),
                 _fmt_ci(rep.confidence_interval("calibration_in_the_large"))))
    rows.append(("  Calibration intercept (0)", _fmt(rep.calibration_intercept),
                 _fmt_ci(rep.confidence_interval("calibration_intercept"))))
    rows.append(("  Calibration slope (1)", _fmt(rep.calibration_slope),
                 _fmt_ci(rep.confidence_interval("calibration_slope"))))
    rows.append(("  Spiegelhalter z", _fmt(rep.spiegelhalter_z, 3),
                 _p_eq(rep.spiegelhalter_p)))
    if lg is not None:
        rows.append(("  Unreliability U (0)", _fmt(lg.unreliability_index),
                     f"chi2(2) = {_fmt(lg.unreliability_chi2, 2)}, "
                     + _p_eq(lg.unreliability_pvalue)))
    rows.append(("  Emax / E90 / Eavg (lowess)",
                 _fmt(rep.emax) if rep.emax is not None else "n/a",
                 "" if rep.emax is None else f"E90 {_fmt(rep.e90)}, Eavg {_fmt(rep.eavg)}"))
    rows.append((f"  ECE ({rep.ece_n_bins} {rep.ece_strategy} bins)", _fmt(rep.ece), ""))
    rows.append(("Discrimination", "", ""))
    rows.append(("  C statistic (AUC)", _fmt(rep.c_statistic), ""))
    if lg is not None:
        rows.append(("  Discrimination D / Nagelkerke R2", _fmt(lg.discrimination_index),
                     f"R2 {_fmt(lg.r2)}"))
    titles = {
        "corp": "Decomposition (CORP, isotonic)",
        "murphy": f"Decomposition (binned, {rep.ece_n_bins} {rep.ece_strategy} bins)",
    }
    for key, terms in (rep.decomposition or {}).items():
        if not terms:
            continue
        rows.append((titles.get(key, f"Decomposition ({key})"), "", ""))
        short = _DECOMPOSITION_TERMS.get(key, {})
        for k, v in terms.items():
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                continue
            label = k.replace("_", " ").capitalize()
            if k in short:
                label = f"{label} ({short[k]})"
            value = _fmt_p(v) if k.endswith("pvalue") else _fmt(v)
            rows.append((f"  {label}", value, ""))
    return rows


def _summary_text(rep: CalibrationReport) -> str:
    level = f"{100 * rep.confidence_level:g}% CI ({rep.cov_type})"
    title = f"Calibration report: {rep.name or 'forecast'}"
    head = (
        f"{title}\n"
        f"n = {rep.n_samples}, events = {rep.n_events:g}, "
        f"prevalence = {_fmt(rep.prevalence)}, mean forecast = {_fmt(rep.mean_forecast)}"
    )
    rows = _summary_rows(rep)
    w0 = max(len(r[0]) for r in rows) + 2
    w1 = max(10, max(len(r[1]) for r in rows) + 2)
    lines = [head, "", f"{'':<{w0}}{'estimate':>{w1}}  {level}"]
    lines.append("-" * (w0 + w1 + 2 + max(len(level), max(len(r[2]) for r in rows))))
    for a, b, c in rows:
        lines.append(f"{a:<{w0}}{b:>{w1}}  {c}".rstrip())
    if rep.net_benefit:
        lines.append("")
        lines.append("Net benefit (per patient; treat none = 0)")
        lines.append(
            f"{'  threshold':<14}{'model':>10}{'treat all':>12}{'standardized':>14}"
            f"{'avoided/100':>13}"
        )
        for r in rep.net_benefit:
            lines.append(
                f"{'  ' + format(r['threshold'], 'g'):<14}{_fmt(r['model']):>10}"
                f"{_fmt(r['treat_all']):>12}{_fmt(r['standardized'], 3):>14}"
                f"{_fmt(r['interventions_avoided_per_100'], 1):>13}"
            )
        lines.append(
            "  standardized = NB / prevalence; avoided/100 = net interventions "
            "avoided per 100 vs treat all"
        )
    if rep.notes:
        lines.append("")
        lines.extend(f"Note: {n}" for n in rep.notes)
    return "\n".join(lines)


_TABLE_COLUMNS = [
    ("n", lambda r: str(r.n_samples)),
    ("prev", lambda r: _fmt(r.prevalence, 3)),
    ("Brier", lambda r: _fmt(r.brier_score)),
    ("BI", lambda r: _fmt(r.brier_index, 1)),
    ("BSS", lambda r: _fmt(r.brier_skill_score, 3)),
    ("CITL", lambda r: _fmt(r.calibration_in_the_large, 3)),
    ("intercept", lambda r: _fmt(r.calibration_intercept, 3)),
    ("slope", lambda r: _fmt(r.calibration_slope, 3)),
    ("S:z", lambda r: _fmt(r.spiegelhalter_z, 2)),
    ("S:p", lambda r: _fmt_p(r.spiegelhalter_p)),
    ("Eavg", lambda r: _fmt(r.eavg, 4)),
    ("ECE", lambda r: _fmt(r.ece, 4)),
    ("C", lambda r: _fmt(r.c_statistic, 3)),
]


def reports_table(reports: Mapping[str, CalibrationReport]) -> str:
    """One row per report (forecaster or group): the headline numbers side by side.

    Parameters
    ----------
    reports : mapping of str to CalibrationReport
        Reports by name, in display order.

    Returns
    -------
    str
        A plain-text table; Brier Index intervals follow when available.

    Examples
    --------
    >>> from skbrier.report import calibration_report, reports_table
    >>> from skbrier.datasets import load_forecasts
    >>> d = load_forecasts()
    >>> reps = {m: calibration_report(d["y"], d[m], name=m) for m in ("model_a", "model_b")}
    >>> print(reports_table(reps))  # doctest: +ELLIPSIS
    group ...
    model_a ...
    model_b ...
    """
    if not reports:
        raise ValueError("reports is empty.")
    names = [str(k) for k in reports]
    cells = [[f(r) for _, f in _TABLE_COLUMNS] for r in reports.values()]
    wname = max(5, max(len(n) for n in names)) + 2
    widths = [
        max(len(h), max(len(row[j]) for row in cells)) + 2
        for j, (h, _) in enumerate(_TABLE_COLUMNS)
    ]
    head = "".join(h.rjust(w) for (h, _), w in zip(_TABLE_COLUMNS, widths))
    lines = ["group".ljust(wname) + head]
    for n, row in zip(names, cells):
        lines.append(n.ljust(wname) + "".join(c.rjust(w) for c, w in zip(row, widths)))
    first = next(iter(reports.values()))
    ci_lines = []
    for n, r in zip(names, reports.values()):
        ci = r.confidence_interval("brier_index")
        if ci is not None:
            ci_lines.append(f"  {n}: Brier Index {_fmt(r.brier_index, 2)} {_fmt_ci(ci, 2)}")
    if ci_lines:
        lines.append("")
        lines.append(
            f"{100 * first.confidence_level:g}% confidence intervals ({first.cov_type}):"
        )
        lines.extend(ci_lines)
    lines.append("")
    lines.append(
        "CITL: calibration in the large (ideal 0); intercept/slope: logistic "
        "recalibration (ideal 0/1); S:z, S:p: Spiegelhalter test; BI: Brier Index."
    )
    return "\n".join(lines)


# --------------------------------------------------------------------------
# figures and HTML
# --------------------------------------------------------------------------


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _figures(rep: CalibrationReport) -> dict:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return {}
    if rep._p is None:
        return {}
    y, p, w = rep._y, rep._p, rep._w
    out = {}
    fig = Figure(figsize=(5, 5), layout="constrained")
    ax = fig.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ReliabilityDisplay.from_predictions(
            y, p, sample_weight=w, ax=ax, name=rep.name,
            # the consistency band resamples the CORP fit: skip it on big data
            n_resamples=200 if p.shape[0] <= 20_000 else 0,
            random_state=0,
        )
    fig.suptitle(f"Reliability diagram: {rep.name or 'forecast'}")
    out["reliability"] = _png(fig)

    fig = Figure(figsize=(6, 4.5), layout="constrained")
    ax = fig.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        DecisionCurveDisplay.from_predictions(y, p, sample_weight=w, ax=ax, name=rep.name)
    fig.suptitle(f"Decision curve: {rep.name or 'forecast'}")
    out["decision_curve"] = _png(fig)
    return out


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em 0; }
td, th { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
td:first-child, th:first-child { text-align: left; }
tr.section td { font-weight: bold; background: #f4f4f4; }
.notes { color: #666; font-size: 0.9em; }
img { max-width: 48%; margin-right: 1%; }
"""


def _report_section_html(rep: CalibrationReport, *, figures: bool = True) -> str:
    e = html.escape
    level = f"{100 * rep.confidence_level:g}% CI ({rep.cov_type})"
    parts = [f"<h2>{e(rep.name or 'forecast')}</h2>"]
    parts.append(
        f"<p>n = {rep.n_samples}, events = {rep.n_events:g}, prevalence = "
        f"{_fmt(rep.prevalence)}, mean forecast = {_fmt(rep.mean_forecast)}</p>"
    )
    parts.append(f"<table><tr><th></th><th>estimate</th><th>{e(level)}</th></tr>")
    for a, b, c in _summary_rows(rep):
        if not b and not c:
            parts.append(f'<tr class="section"><td colspan="3">{e(a.strip())}</td></tr>')
        else:
            parts.append(f"<tr><td>{e(a.strip())}</td><td>{e(b)}</td><td>{e(c)}</td></tr>")
    parts.append("</table>")
    if rep.net_benefit:
        parts.append("<h3>Net benefit</h3><table><tr><th>threshold</th><th>model</th>"
                     "<th>treat all</th><th>treat none</th><th>standardized</th>"
                     "<th>interventions avoided per 100</th></tr>")
        for r in rep.net_benefit:
            parts.append(
                f"<tr><td>{r['threshold']:g}</td><td>{_fmt(r['model'])}</td>"
                f"<td>{_fmt(r['treat_all'])}</td><td>{_fmt(r['treat_none'])}</td>"
                f"<td>{_fmt(r['standardized'], 3)}</td>"
                f"<td>{_fmt(r['interventions_avoided_per_100'], 1)}</td></tr>"
            )
        parts.append("</table>")
    if figures:
        figs = _figures(rep)
        for key, b64 in figs.items():
            parts.append(
                f'<img alt="{e(key.replace("_", " "))}" src="data:image/png;base64,{b64}"/>'
            )
        if not figs:
            parts.append('<p class="notes">Figures need matplotlib.</p>')
    if rep.notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{e(n)}</li>" for n in rep.notes)
                     + "</ul>")
    return "\n".join(parts)


def reports_to_html(
    reports: Mapping[str, CalibrationReport], path: str | Path | None = None
) -> str:
    """A self-contained HTML page with one section per report.

    Parameters
    ----------
    reports : mapping of str to CalibrationReport
        Reports by name, in display order.
    path : str or path-like, optional
        If given, the page is written there (overwriting the file).

    Returns
    -------
    str
        The HTML text (figures embedded as base64 PNG when matplotlib is
        installed).

    Examples
    --------
    >>> from skbrier.report import calibration_report, reports_to_html
    >>> rep = calibration_report([0, 1, 1, 0, 1, 0], [0.2, 0.7, 0.6, 0.4, 0.9, 0.1])
    >>> reports_to_html({"demo": rep}).startswith("<!DOCTYPE html>")
    True
    """
    if not reports:
        raise ValueError("reports is empty.")
    body = []
    if len(reports) > 1:
        table = html.escape(reports_table(reports))
        body.append(f"<h2>Overview</h2><pre>{table}</pre>")
    for r in reports.values():
        body.append(_report_section_html(r))
    text = (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        "<title>skbrier calibration report</title>"
        f"<style>{_CSS}</style></head><body>\n<h1>Calibration report</h1>\n"
        + "\n".join(body)
        + "\n<p class=\"notes\">Made by skbrier.</p></body></html>\n"
    )
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text
