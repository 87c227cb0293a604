r"""Result objects of the Brier score decompositions.

:class:`MurphyDecomposition` (binned), :class:`CORPDecomposition` (isotonic) and
:class:`MulticlassDecomposition` (one-vs-rest) follow the result protocol of
:mod:`skbrier._core.results`: frozen dataclasses with ``to_dict()``,
``to_frame()``, ``summary()``, an HTML and a short ``repr``, and
``confidence_interval(confidence_level=0.95, *, metric=..., method=None)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.kernels.bin_statistics import BinStatistics, frame
from .._core.kernels.decomposition import wilson_interval
from .._core.params import DEFAULT_CONFIDENCE_LEVEL, check_confidence_level
from .._core.resampling import interval_from_replicates
from .._core.results import (
    ConfidenceInterval,
    _IntervalResult,
    format_number,
)
from ._decomposition_bootstrap import CORP_COMPONENTS, MURPHY_COMPONENTS

__all__ = [
    "CORPDecomposition",
    "MulticlassDecomposition",
    "MurphyDecomposition",
]

#: the estimator's names of the binned components -> MurphyDecomposition's
ESTIMATOR_MURPHY_NAMES = {
    "brier_score": "brier_score",
    "miscalibration": "reliability",
    "discrimination": "resolution",
    "uncertainty": "uncertainty",
    "within_bin_variance": "within_bin_variance",
    "within_bin_covariance": "within_bin_covariance",
}


def components_of(result: Any, method: str) -> dict[str, float]:
    """The components of one binary result under the estimator's names
    (``method``: ``"murphy"`` or ``"corp"``)."""
    if method == "murphy":
        return {k: float(getattr(result, v)) for k, v in ESTIMATOR_MURPHY_NAMES.items()}
    return {k: float(getattr(result, k)) for k in CORP_COMPONENTS}


class _ComponentIntervals(_IntervalResult):
    """The bootstrap intervals of the components of one binary decomposition.

    ``bootstrap_distribution`` holds one column per ``_interval_metrics``;
    ``method="basic"`` clips the bounds of the non-negative components at 0.
    """

    bootstrap_distribution: np.ndarray | None
    #: the function that builds the result (named when there is no bootstrap)
    _builder: ClassVar[str]

    @property
    def components(self) -> dict[str, float]:
        """The scalar components as a dict (brier_score first)."""
        return {name: getattr(self, name) for name in self._interval_metrics}

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        boot = self.bootstrap_distribution
        if boot is None:
            raise ValueError(
                f"no bootstrap replicates: call {self._builder} with n_resamples > 0."
            )
        ci = interval_from_replicates(
            boot[:, self._interval_metrics.index(metric)],
            level,
            method=method,
            estimate=getattr(self, metric),
        )
        lo, hi = float(ci.low), float(ci.high)
        if method == "basic" and metric != "within_bin_covariance":
            # every other component is non-negative: both bounds clipped, so
            # that a reflected upper bound below 0 never lies under low = 0
            lo, hi = max(lo, 0.0), max(hi, 0.0)
        return ConfidenceInterval(lo, hi)


@dataclass(frozen=True, eq=False, repr=False)
class MurphyDecomposition(_ComponentIntervals):
    r"""Result of :func:`murphy_decomposition` (the binned decomposition).

    The components satisfy exactly (to rounding)

    .. math::

        \mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC}
                      + \mathrm{WBV} - \mathrm{WBC}.

    ``confidence_interval(metric=...)`` gives the bootstrap interval of one
    component (default ``"reliability"``; any of ``components``).
    ``method="percentile"`` (default): quantiles of the bootstrap
    distribution; ``"basic"``: those quantiles reflected around the
    estimate, which corrects the upward bias of resampled reliability (it
    may then lie below the biased estimate); clipped at 0 for the
    non-negative components.

    Attributes
    ----------
    brier_score : float
        The Brier score.
    reliability : float
        REL, the miscalibration of the binned forecasts (lower is better).
        Bias-corrected when ``bias_correction`` is True.
    resolution : float
        RES, the discrimination of the bins (higher is better).
        Bias-corrected when ``bias_correction`` is True.
    uncertainty : float
        UNC, :math:`\bar o (1 - \bar o)`.  Bias-corrected (multiplied by
        :math:`n / (n - 1)`) when ``bias_correction`` is True.
    within_bin_variance : float
        WBV, the weighted variance of the forecasts inside the bins.
    within_bin_covariance : float
        WBC, twice the weighted covariance of forecasts and outcomes inside
        the bins.
    base_rate : float
        :math:`\bar o`, the weighted frequency of the event.
    n_samples : int
        Number of samples.
    bias_correction : bool
        Whether the Ferro--Fricker correction was applied.
    bin_edges : ndarray of shape (n_bins + 1,)
    bin_counts : ndarray of shape (n_bins,)
        Number of samples per bin.
    bin_weights : ndarray of shape (n_bins,)
        Total weight per bin (equal to the counts without weights).
    bin_mean_forecast : ndarray of shape (n_bins,)
        Weighted mean forecast :math:`\bar f_k` per bin (NaN if empty).
    bin_observed_frequency : ndarray of shape (n_bins,)
        Weighted event frequency :math:`\bar o_k` per bin (NaN if empty).
    statistics : BinStatistics
        The mergeable per-bin sums the result was computed from.
    n_resamples : int
        Number of bootstrap resamples (0: none).
    confidence_level : float
        Default level of ``observed_frequency_interval()``.
    bootstrap_distribution : ndarray of shape (n_resamples, 6) or None
        Bootstrap replicates of the six components, in the order of
        ``components`` (rows resampled with replacement, bins fixed).
    right : bool
        The binning rule (True: a forecast on an inner edge is in the lower
        bin).

    Examples
    --------
    >>> from skbrier.metrics.decomposition import murphy_decomposition
    >>> d = murphy_decomposition([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.8], n_bins=2)
    >>> round(d.reliability, 4), round(d.resolution, 4), d.uncertainty
    (0.065, 0.25, 0.25)
    """

    brier_score: float
    reliability: float
    resolution: float
    uncertainty: float
    within_bin_variance: float
    within_bin_covariance: float
    base_rate: float
    n_samples: int
    bias_correction: bool
    bin_edges: np.ndarray = field(repr=False)
    bin_counts: np.ndarray = field(repr=False)
    bin_weights: np.ndarray = field(repr=False)
    bin_mean_forecast: np.ndarray = field(repr=False)
    bin_observed_frequency: np.ndarray = field(repr=False)
    statistics: BinStatistics = field(repr=False)
    n_resamples: int = 0
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL
    bootstrap_distribution: np.ndarray | None = field(default=None, repr=False)
    right: bool = True

    _summary_fields: ClassVar[tuple[str, ...]] = MURPHY_COMPONENTS + ("n_samples",)
    _interval_metrics: ClassVar[tuple[str, ...]] = MURPHY_COMPONENTS
    _builder: ClassVar[str] = "murphy_decomposition"

    @property
    def n_bins(self) -> int:
        """Number of bins (including empty ones)."""
        return int(self.bin_counts.shape[0])

    def _default_metric(self) -> str:
        return "reliability"

    def observed_frequency_interval(
        self, confidence_level: float | None = None
    ) -> ConfidenceInterval:
        r"""Wilson score interval of each bin's observed frequency.

        The sample size of a bin is its total weight (frequency weights:
        integer weights give the interval of the repeated rows); empty bins
        give NaN.

        Parameters
        ----------
        confidence_level : float, default=None
            Level in (0, 1); ``self.confidence_level`` if None.

        Returns
        -------
        ConfidenceInterval
            Arrays ``low`` and ``high`` of shape (n_bins,).
        """
        from scipy.stats import norm

        level = check_confidence_level(
            self.confidence_level if confidence_level is None else confidence_level
        )
        z = float(norm.ppf(0.5 + level / 2))
        return ConfidenceInterval(
            *wilson_interval(self.bin_weights, self.bin_observed_frequency, z)
        )

    def to_frame(self):
        """Per-bin table as a pandas DataFrame (pandas is imported lazily).

        Returns
        -------
        pandas.DataFrame
            Columns ``lower``, ``upper``, ``count``, ``weight``,
            ``mean_forecast``, ``observed_frequency``; one row per bin.
        """
        return frame(
            {
                "lower": self.bin_edges[:-1],
                "upper": self.bin_edges[1:],
                "count": self.bin_counts,
                "weight": self.bin_weights,
                "mean_forecast": self.bin_mean_forecast,
                "observed_frequency": self.bin_observed_frequency,
            },
            self,
        )


@dataclass(frozen=True, eq=False, repr=False)
class CORPDecomposition(_ComponentIntervals):
    r"""Result of :func:`corp_decomposition` (the CORP decomposition).

    .. math::

        \mathrm{BS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC}.

    ``confidence_interval(metric=...)`` gives the bootstrap interval of
    ``"brier_score"``, ``"miscalibration"`` (the default),
    ``"discrimination"`` or ``"uncertainty"``.  ``method="percentile"``
    (default) or ``"basic"`` (reflected around the estimate).
    Miscalibration is biased upward (the isotonic fit also fits the noise),
    and so are its resamples: for a well calibrated forecast the percentile
    interval can lie entirely above the estimate; the basic interval
    corrects that bias (clipped at 0).

    Attributes
    ----------
    brier_score : float
        The Brier score of the forecasts.
    miscalibration : float
        MCB, the Brier score of the forecasts minus that of their isotonic
        recalibration (lower is better, 0 for calibrated forecasts).
    discrimination : float
        DSC, the uncertainty minus the Brier score of the recalibrated
        forecasts (higher is better).
    uncertainty : float
        UNC, :math:`\bar o (1 - \bar o)`.
    base_rate : float
        :math:`\bar o`, the weighted frequency of the event.
    n_samples : int
        Number of samples (rows).
    forecast_values : ndarray of shape (n_values,)
        Sorted distinct forecast values (of positive total weight).
    recalibrated_values : ndarray of shape (n_values,)
        The isotonic recalibration (conditional event probability, CEP) at
        each distinct forecast value: a non-decreasing step function.
    value_weights : ndarray of shape (n_values,)
        Total weight of each distinct forecast value.
    value_counts : ndarray of shape (n_values,)
        Number of rows with each distinct forecast value.
    n_resamples : int
        Number of resamples behind the band, p-value and intervals (0: none).
    confidence_level : float
        Level of the consistency band.
    band_forecast, band_lower, band_upper : ndarray or None
        Consistency band under the calibration hypothesis, as R
        ``reliabilitydiag``: pointwise quantiles of the recalibration
        curves of data resampled with outcomes drawn from the forecasts,
        each interpolated linearly at ``band_forecast`` (all the distinct
        forecasts, or at most 2000 of them spread by rank) and left out
        where it does not reach.  A recalibration curve leaving the band is
        evidence of miscalibration.
    miscalibration_pvalue : float or None
        Resampling p-value of the hypothesis that the forecasts are
        calibrated, :math:`(1 + \#\{\mathrm{MCB}^* \ge \mathrm{MCB}\}) / (B + 1)`.
    bootstrap_distribution : ndarray of shape (n_resamples, 4) or None
        Bootstrap replicates of ``(brier_score, miscalibration,
        discrimination, uncertainty)`` (rows resampled with replacement).

    Examples
    --------
    >>> from skbrier.metrics.decomposition import corp_decomposition
    >>> d = corp_decomposition([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9])
    >>> d.recalibrated_values
    array([0.25, 0.25, 0.25, 0.25, 1.  , 1.  ])
    >>> d.predict([0.05, 0.45, 0.7])
    array([0.25, 0.25, 1.  ])
    """

    brier_score: float
    miscalibration: float
    discrimination: float
    uncertainty: float
    base_rate: float
    n_samples: int
    forecast_values: np.ndarray = field(repr=False)
    recalibrated_values: np.ndarray = field(repr=False)
    value_weights: np.ndarray = field(repr=False)
    value_counts: np.ndarray = field(repr=False)
    n_resamples: int = 0
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL
    band_forecast: np.ndarray | None = field(default=None, repr=False)
    band_lower: np.ndarray | None = field(default=None, repr=False)
    band_upper: np.ndarray | None = field(default=None, repr=False)
    miscalibration_pvalue: float | None = None
    bootstrap_distribution: np.ndarray | None = field(default=None, repr=False)

    _summary_fields: ClassVar[tuple[str, ...]] = CORP_COMPONENTS + (
        "n_samples",
        "miscalibration_pvalue",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = CORP_COMPONENTS
    _builder: ClassVar[str] = "corp_decomposition"

    def predict(
        self, y_proba: ArrayLike, *, interpolation: Literal["step", "linear"] = "step"
    ) -> np.ndarray:
        """Recalibrate new forecasts with the fitted isotonic step function.

        Parameters
        ----------
        y_proba : array-like of shape (n,)
            Forecast probabilities.
        interpolation : {"step", "linear"}, default="step"
            ``"step"``: the value of the largest fitted forecast not above
            each input (the first value below the smallest one), the
            right-continuous step function of the reliability diagram.
            ``"linear"``: linear interpolation between fitted forecasts,
            constant outside them (as
            :class:`sklearn.isotonic.IsotonicRegression` with
            ``out_of_bounds="clip"``).

        Returns
        -------
        ndarray of shape (n,)
            Recalibrated probabilities.
        """
        from .._core.params import check_option
        from .._core.validation import check_probabilities

        check_option(interpolation, "interpolation", ("step", "linear"))
        p = check_probabilities(y_proba, allow_2d=False)
        x, c = self.forecast_values, self.recalibrated_values
        if interpolation == "linear":
            return np.interp(p, x, c)
        i = np.searchsorted(x, p, side="right") - 1
        np.clip(i, 0, x.shape[0] - 1, out=i)
        return c[i]

    def _default_metric(self) -> str:
        return "miscalibration"

    def to_frame(self):
        """The recalibration step function as a pandas DataFrame (lazy import).

        Returns
        -------
        pandas.DataFrame
            Columns ``forecast``, ``recalibrated``, ``weight``, ``count`` and,
            after resampling, ``band_lower`` and ``band_upper`` (NaN at
            forecasts where the band was not stored).
        """
        cols = {
            "forecast": self.forecast_values,
            "recalibrated": self.recalibrated_values,
            "weight": self.value_weights,
            "count": self.value_counts,
        }
        if self.band_forecast is not None:
            lo = np.full(self.forecast_values.shape[0], np.nan)
            hi = lo.copy()
            pos = np.searchsorted(self.forecast_values, self.band_forecast)
            lo[pos] = self.band_lower
            hi[pos] = self.band_upper
            cols["band_lower"] = lo
            cols["band_upper"] = hi
        return frame(cols, self)


@dataclass(frozen=True, eq=False, repr=False)
class MulticlassDecomposition(_IntervalResult):
    r"""One-vs-rest decompositions of a multiclass Brier score.

    scikit-learn's multiclass Brier score (the [0, 2] scale) is the sum over
    classes :math:`k` of the binary Brier scores of ``y == k`` against column
    :math:`k`, so each binary decomposition is a per-class share and the
    components add up: ``brier_score == sum(d.brier_score for d in
    per_class)`` and likewise for every component.

    Every component of the per-class results is available as an attribute
    holding the sum over classes (``brier_score``, ``uncertainty`` and
    ``miscalibration``/``discrimination`` for ``decomposition_method="corp"``,
    ``reliability``/``resolution``/``within_bin_variance``/
    ``within_bin_covariance`` for ``decomposition_method="murphy"``).

    Resampling results (bands, intervals, p-values) are per class:
    ``confidence_interval()`` gives one bound per class (default metric:
    ``"reliability"`` for ``decomposition_method="murphy"``,
    ``"miscalibration"`` for ``"corp"``), and
    ``per_class[k]`` holds everything else.

    Attributes
    ----------
    decomposition_method : {"corp", "murphy"}
        The binary decomposition used per class.
    classes : ndarray of shape (n_classes,)
        The class labels (columns of ``y_proba``).
    per_class : tuple of CORPDecomposition or MurphyDecomposition
        One binary decomposition per class, in column order.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics.decomposition import murphy_decomposition
    >>> y = [0, 1, 2, 2]
    >>> P = np.array([[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4]])
    >>> d = murphy_decomposition(y, P, n_bins=5)
    >>> round(d.brier_score, 4)
    0.33
    >>> sum(c.brier_score for c in d.per_class) == d.brier_score
    True
    """

    decomposition_method: str
    classes: np.ndarray
    per_class: tuple

    _interval_metrics: ClassVar[tuple[str, ...]] = tuple(
        dict.fromkeys(MURPHY_COMPONENTS + CORP_COMPONENTS)
    )

    @property
    def components(self) -> dict[str, float]:
        """Components summed over classes (dict name -> float)."""
        names = list(self.per_class[0].components)
        return {n: float(sum(d.components[n] for d in self.per_class)) for n in names}

    def __getattr__(self, name: str) -> float:
        # only called when normal lookup fails: expose the summed components
        if name.startswith("_") or name in ("decomposition_method", "classes", "per_class"):
            raise AttributeError(name)
        comps = self.components
        if name in comps:
            return comps[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _headline(self) -> dict[str, Any]:
        return {
            "decomposition_method": self.decomposition_method,
            "n_classes": len(self.per_class),
            **self.components,
        }

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={format_number(v)}" for k, v in self.components.items())
        return (
            f"MulticlassDecomposition(decomposition_method={self.decomposition_method!r}, "
            f"n_classes={len(self.per_class)}, {body})"
        )

    def _default_metric(self) -> str:
        return self.per_class[0]._default_metric()

    def _valid_metrics(self) -> tuple[str, ...]:
        return self.per_class[0]._interval_metrics

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        cis = [
            d.confidence_interval(level, metric=metric, method=method)
            for d in self.per_class
        ]
        return ConfidenceInterval(
            np.array([c.low for c in cis]), np.array([c.high for c in cis])
        )

    def to_frame(self):
        """Per-class table (pandas imported lazily): one row per class.

        Returns
        -------
        pandas.DataFrame
            A ``class`` column and one column per component.
        """
        cols: dict[str, Any] = {"class": list(self.classes)}
        for n in self.per_class[0].components:
            cols[n] = [d.components[n] for d in self.per_class]
        return frame(cols, self)
