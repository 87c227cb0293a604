"""The precision an external validation achieved, against the targets of its sample size.

The reverse of :func:`~skbrier.validation.validation_sample_size`: for an
audit already done, the interval of each criterion's measure (O/E, the
calibration slope, the C statistic and, at a threshold, the standardized net
benefit), its width against the target, and the sample size the target would
have needed.  The standard errors are those of skbrier's estimators
(:mod:`skbrier.stats._validation_measures`: the log-scale O/E variance,
DeLong's variance of C, the Wald variance of the logistic recalibration
slope) and the bootstrap of :func:`~skbrier.decision_curve`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._core.dispatch import HOST, Refused, backends
from .._core.format import format_number
from .._core.optional import import_optional
from .._core.params import (
    DEFAULT_N_RESAMPLES,
    check_confidence_level,
    check_n_resamples,
    validate_random_state,
)
from .._core.resampling import INTERVAL_METHODS, interval_from_replicates
from .._core.results import ConfidenceInterval, _IntervalResult
from .._core.validation import binary_forecast, check_scalar_probability
from ..metrics.net_benefit import decision_curve
from ..stats._validation_measures import from_scale, to_scale, validation_measures
from ._criteria import LABELS, observed_expected_standard_error, positive

__all__ = ["AchievedPrecisionResult", "achieved_precision"]

#: each measure and the scale of its Wald interval
_SCALES = {
    "observed_expected": "log",
    "calibration_slope": "identity",
    "c_statistic": "identity",
}


@dataclasses.dataclass(frozen=True, repr=False)
class AchievedPrecisionResult(_IntervalResult):
    """The interval widths a validation sample achieved, against targets.

    ``confidence_interval(metric=...)`` gives the interval of one measure at
    any level: ``"calibration_slope"`` (the default) and ``"c_statistic"``
    (DeLong's standard error) by ``method="wald"``, ``"observed_expected"``
    by ``"wald"`` on the log scale, and ``"standardized_net_benefit"`` (with
    a threshold and a bootstrap) by ``"percentile"`` (its default) or
    ``"basic"``.

    Attributes
    ----------
    n : float
        The sample size (the total weight with frequency weights).
    events : float
        The number (weight) of events.
    estimates : dict of str to float
        The estimate of each measure: ``"observed_expected"``,
        ``"calibration_slope"``, ``"c_statistic"`` and, with a threshold,
        ``"standardized_net_benefit"``.
    standard_errors : dict of str to float
        Their standard errors (log scale for O/E; the bootstrap standard
        deviation for the net benefit).
    widths : dict of str to float
        The width of each interval at ``confidence_level``.
    targets : dict of str to float
        The target widths.
    met : dict of str to bool
        Whether each width is at most its target.
    sample_size_needed : dict of str to int or None
        The sample size at which the standard error (falling as
        :math:`1/\\sqrt n`, the case mix unchanged) would meet the target
        (None where the standard error is undefined).
    confidence_level : float
        The level of the intervals.
    threshold : float or None
        The threshold of the net benefit.
    n_resamples : int
        The bootstrap resamples behind the net benefit's interval (0: none).
    net_benefit_replicates : ndarray or None
        The bootstrap replicates of the standardized net benefit.
    statements : list of str
        One sentence per measure for the report (a property).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.validation import achieved_precision
    >>> rng = np.random.default_rng(0)
    >>> p = 1 / (1 + np.exp(-rng.normal(-1, 1, 500)))
    >>> y = rng.uniform(size=500) < p
    >>> res = achieved_precision(y, p)
    >>> res.met
    {'observed_expected': False, 'calibration_slope': False, 'c_statistic': True}
    >>> print(res.statements[1])  # doctest: +ELLIPSIS
    This sample is too small to judge the calibration slope to ±0.1: ...
    """

    n: float
    events: float
    estimates: dict
    standard_errors: dict
    widths: dict
    targets: dict
    met: dict
    sample_size_needed: dict
    confidence_level: float = 0.95
    threshold: float | None = None
    n_resamples: int = 0
    net_benefit_replicates: np.ndarray | None = None

    _summary_fields: ClassVar[tuple[str, ...]] = ("n", "events", "confidence_level")
    _interval_metrics: ClassVar[tuple[str, ...]] = (
        "observed_expected",
        "calibration_slope",
        "c_statistic",
        "standardized_net_benefit",
    )
    _interval_methods: ClassVar[tuple[str, ...]] = ("wald", *INTERVAL_METHODS)

    @property
    def statements(self) -> list[str]:
        """One sentence per measure: precise enough, or how far from it."""
        pct = format_number(100 * self.confidence_level)
        out = []
        for k, width in self.widths.items():
            lo, hi = self._interval_or_nan(k)
            target = self.targets[k]
            if not math.isfinite(width):
                out.append(
                    f"This sample cannot judge the {LABELS[k]}: its interval is "
                    "undefined (no finite, positive standard error: e.g. forecasts "
                    "that separate the outcomes)."
                )
                continue
            ci = (
                f"its {pct}% CI ({format_number(lo)} to {format_number(hi)}) is "
                f"{format_number(width)} wide"
            )
            if self.met[k]:
                out.append(
                    f"The {LABELS[k]} is estimated precisely enough: {ci}, within the "
                    f"target of {format_number(target)} (±{format_number(target / 2)})."
                )
            else:
                out.append(
                    f"This sample is too small to judge the {LABELS[k]} to "
                    f"±{format_number(target / 2)}: {ci} against a target of "
                    f"{format_number(target)}; about {self.sample_size_needed[k]} "
                    "patients with the same case mix would be needed."
                )
        return out

    def _summary_rows(self) -> list[tuple[str, str]]:
        rows = super()._summary_rows()
        rows += [(LABELS[k], s) for k, s in zip(self.widths, self.statements)]
        return rows

    def to_frame(self) -> Any:
        """One row per measure: estimate, interval, width, target, met, n needed."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        rows = []
        for k in self.widths:
            lo, hi = self._interval_or_nan(k)
            rows.append(
                {
                    "measure": k,
                    "estimate": self.estimates[k],
                    "low": lo,
                    "high": hi,
                    "width": self.widths[k],
                    "target": self.targets[k],
                    "met": self.met[k],
                    "sample_size_needed": self.sample_size_needed[k],
                }
            )
        return pd.DataFrame(rows)

    def _interval_or_nan(self, metric: str) -> ConfidenceInterval:
        """The interval at ``confidence_level``, NaN where the measure has none
        (the statements' and the frame's; ``confidence_interval`` raises)."""
        if metric != "standardized_net_benefit" and not math.isfinite(
            self.standard_errors[metric]
        ):
            return ConfidenceInterval(math.nan, math.nan)
        return self.confidence_interval(self.confidence_level, metric=metric)

    def _default_metric(self) -> str:
        return "calibration_slope"

    def _valid_methods(self, metric: str) -> tuple[str, ...]:
        nb = metric == "standardized_net_benefit"
        return self._interval_methods[1:] if nb else self._interval_methods[:1]

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        if metric == "standardized_net_benefit":
            if self.net_benefit_replicates is None:
                raise ValueError(
                    "no net benefit: call achieved_precision with threshold= and "
                    "n_resamples > 0."
                )
            return interval_from_replicates(
                self.net_benefit_replicates,
                level,
                method=method,
                estimate=self.estimates[metric],
            )
        if not math.isfinite(self.standard_errors[metric]):
            raise ValueError(
                f"metric={metric!r}: this sample gives no interval of the "
                f"{LABELS[metric]} (no finite, positive standard error: e.g. forecasts "
                "that separate the outcomes, or do not vary)."
            )
        z = float(stats.norm.ppf(0.5 + level / 2))
        return _wald(
            self.estimates[metric], self.standard_errors[metric], z, _SCALES[metric]
        )


def _wald(estimate: float, se: float, z: float, scale: str) -> ConfidenceInterval:
    """``estimate`` plus or minus ``z se`` on the measure's scale, back-transformed."""
    centre = math.log(estimate) if scale == "log" else estimate
    return ConfidenceInterval(
        from_scale(centre - z * se, scale),  # type: ignore[arg-type]
        from_scale(centre + z * se, scale),  # type: ignore[arg-type]
    )


def _needed(n: float, se: float, target_se: float) -> int | None:
    """``ceil(n (se / target_se)^2)``; None when the standard error is undefined."""
    value = n * (se / target_se) ** 2
    return math.ceil(value) if math.isfinite(value) else None


@backends(
    dask=Refused(
        "the bootstrap resamples rows of the validation data in memory; compute it "
        "on the collected rows (e.g. ddf.compute())"
    ),
    array_api=HOST,
)
def achieved_precision(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    oe_ci_width: float = 0.2,
    slope_ci_width: float = 0.2,
    c_ci_width: float = 0.1,
    threshold: float | None = None,
    nb_ci_width: float = 0.2,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    random_state: Any = None,
) -> AchievedPrecisionResult:
    r"""The interval widths an external validation achieved, against targets.

    The targets are those of :func:`~skbrier.validation_sample_size` (Riley et al.
    2021).  Each measure's interval comes from skbrier's own estimator:

    * O/E: :math:`O/E \cdot e^{\pm z s}`, :math:`s^2 = (1 - O/N) / O`
      (the interval of :func:`~skbrier.calibration_report`);
    * calibration slope: Wald, with the standard error of
      :func:`~skbrier.calibration_intercept_slope`;
    * C statistic: Wald, with DeLong's standard error;
    * standardized net benefit at ``threshold``: the percentile interval
      of :func:`~skbrier.decision_curve`'s bootstrap, each replicate
      divided by its own prevalence.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_proba : array-like of shape (n_samples,) or (n_samples, 2)
        Predicted probabilities of ``pos_label``.
    oe_ci_width, slope_ci_width, c_ci_width, nb_ci_width : float
        The target widths (defaults: pmvalsampsize's 0.2, 0.2, 0.1, 0.2).
    threshold : float, default=None
        The clinical threshold of the net benefit (None: no such row).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    pos_label : int, float, bool or str, default=None
        The positive class.
    confidence_level : float, default=0.95
        The level of the intervals.
    n_resamples : int, default=1999
        Bootstrap resamples of the net benefit (with a threshold; at least 2).
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seed of that bootstrap.

    Returns
    -------
    AchievedPrecisionResult
        Widths, whether each target is met, the sample size that would meet
        it and ``statements``, one sentence per measure for the report.

    Raises
    ------
    ValueError
        Invalid forecasts, a single outcome class, a width that is not
        positive, or ``threshold`` outside (0, 1).

    See Also
    --------
    validation_sample_size : The targets, before the study.

    Notes
    -----
    ``sample_size_needed`` is :math:`\lceil n (s / s^*)^2 \rceil`, with
    :math:`s^*` the standard error whose interval has the target width
    (for O/E, on the log scale: :math:`\operatorname{asinh}(W / (2\,O/E)) / z`):
    every standard error here falls as :math:`1/\sqrt n` for a fixed case
    mix.

    References
    ----------
    .. [1] R. D. Riley et al., "Minimum sample size for external validation
       of a clinical prediction model with a binary outcome", Stat Med 40,
       4230-4251, 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.validation import achieved_precision
    >>> rng = np.random.default_rng(1)
    >>> p = 1 / (1 + np.exp(-rng.normal(-1.5, 1.2, 2000)))
    >>> y = rng.uniform(size=2000) < p
    >>> res = achieved_precision(y, p, slope_ci_width=0.3, threshold=0.2,
    ...                          random_state=0)
    >>> {k: round(v, 3) for k, v in res.widths.items()}
    {'observed_expected': 0.163, 'calibration_slope': 0.217, 'c_statistic': 0.05, 'standardized_net_benefit': 0.106}
    >>> res.met["calibration_slope"], res.sample_size_needed["observed_expected"]
    (True, 1325)
    """
    targets = {
        "observed_expected": positive(oe_ci_width, "oe_ci_width"),
        "calibration_slope": positive(slope_ci_width, "slope_ci_width"),
        "c_statistic": positive(c_ci_width, "c_ci_width"),
    }
    t = None
    if threshold is not None:
        t = check_scalar_probability(threshold, name="threshold", open_interval=True)
        targets["standardized_net_benefit"] = positive(nb_ci_width, "nb_ci_width")
    n_resamples = check_n_resamples(n_resamples)  # checked even when unused
    validate_random_state(random_state)
    level = check_confidence_level(confidence_level)
    z = float(stats.norm.ppf(0.5 + level / 2))
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    measures = validation_measures(y, p, w)
    n = float(y.shape[0]) if w is None else float(w.sum())
    events = float(y.sum()) if w is None else float(np.dot(w, y))
    estimates, ses, widths, needed = {}, {}, {}, {}
    for k, scale in _SCALES.items():
        q, u = measures[k]
        _, u_scale = to_scale(np.array(q), np.array(u), scale)  # type: ignore[arg-type]
        se = math.sqrt(float(u_scale))
        if not se > 0.0:  # C = 1 (forecasts that separate the outcomes): degenerate
            se = math.nan
        lo, hi = _wald(q, se, z, scale)
        estimates[k], ses[k], widths[k] = q, se, hi - lo
        target_se = (
            observed_expected_standard_error(targets[k], q, z)
            if k == "observed_expected"
            else targets[k] / (2 * z)
        )
        needed[k] = _needed(n, se, target_se)
    reps = None
    if t is not None:
        curve = decision_curve(
            y,
            p,
            thresholds=[t],
            sample_weight=w,
            n_resamples=n_resamples,
            confidence_level=level,
            random_state=random_state,
        )
        assert curve.bootstrap_replicates is not None
        odds = t / (1 - t)
        prevalence = (curve.bootstrap_replicates["all"][:, 0] + odds) / (1 + odds)
        with np.errstate(divide="ignore", invalid="ignore"):
            # a resample without events: undefined (NaN, counted by the interval)
            reps = np.where(
                prevalence > 0,
                curve.bootstrap_replicates["model"][:, 0] / prevalence,
                np.nan,
            )
        k = "standardized_net_benefit"
        estimates[k] = float(curve.net_benefit_by_model["model"][0]) / curve.prevalence
        ses[k] = float(np.nanstd(reps, ddof=1))
        lo, hi = interval_from_replicates(reps, level, estimate=estimates[k])
        widths[k] = hi - lo
        needed[k] = _needed(n, ses[k], targets[k] / (2 * z))
    return AchievedPrecisionResult(
        n=n,
        events=events,
        estimates=estimates,
        standard_errors=ses,
        widths=widths,
        targets=targets,
        met={k: bool(widths[k] <= targets[k]) for k in widths},
        sample_size_needed=needed,
        confidence_level=level,
        threshold=t,
        n_resamples=n_resamples if t is not None else 0,
        net_benefit_replicates=reps,
    )
