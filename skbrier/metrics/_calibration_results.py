"""Result objects of :mod:`skbrier.metrics.calibration` (the result protocol).

Each is a frozen dataclass following :class:`skbrier._core.results.Result`
(``to_dict``, ``to_frame``, ``summary``, short ``repr``).  As scipy's test
results, :class:`SpiegelhalterResult` and :class:`LowessCalibrationError`
unpack, index and iterate over their fields, and
:class:`LogisticCalibrationResult` unpacks to ``(intercept, slope)``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from scipy import stats

from .._core.kernels.calibration import valprob_indexes
from .._core.results import ConfidenceInterval, Result, _IntervalResult

__all__ = ["LogisticCalibrationResult", "LowessCalibrationError", "SpiegelhalterResult"]


class _TupleLike:
    """Unpacking, indexing and ``len`` over the dataclass fields (named-tuple style)."""

    def _tuple(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._tuple())

    def __getitem__(self, index: int | slice) -> Any:
        return self._tuple()[index]

    def __len__(self) -> int:
        return len(self._tuple())


#: ``metric=`` of ``confidence_interval``: the coefficient and its standard error
_COEFFICIENTS = {
    "calibration_slope": ("slope", "slope_stderr"),
    "calibration_intercept": ("intercept", "intercept_stderr"),
    "calibration_in_the_large": (
        "calibration_in_the_large",
        "calibration_in_the_large_stderr",
    ),
}


@dataclass(frozen=True, repr=False)
class LogisticCalibrationResult(_IntervalResult):
    """Result of :func:`~skbrier.metrics.calibration.calibration_intercept_slope`.

    Unpacks to ``(intercept, slope)``.  The fields are set by
    :func:`~skbrier.metrics.calibration.calibration_intercept_slope`; users
    do not build this object.  ``confidence_interval(metric=...)`` gives the
    Wald interval ``estimate ± z * stderr`` (R's ``confint.default`` on the
    ``glm`` fit; NaN bounds when the estimate or its standard error is not
    finite) of ``"calibration_slope"`` (the default),
    ``"calibration_intercept"`` or ``"calibration_in_the_large"``.

    Parameters
    ----------
    intercept, slope : float
        Coefficients of the joint logistic recalibration
        ``logit P(y = 1) = intercept + slope * logit(p)`` (``rms::val.prob``'s
        "Intercept" and "Slope"; ideal 0 and 1).
    intercept_stderr, slope_stderr : float
        Their standard errors (inverse observed information, as R's
        ``vcov(glm(...))``; frequency weights count as repeated rows).
    calibration_in_the_large, calibration_in_the_large_stderr : float
        Intercept of ``logit P(y = 1) = a + logit(p)`` (slope fixed at 1,
        ``logit(p)`` as an offset) and its standard error; ideal 0, positive
        when the forecasts are too low on average.
    n_used, n_excluded : int
        Samples in the logistic fits and samples left out because their
        probability is exactly 0 or 1 (their logit is infinite).  Rows of
        zero weight are in neither.
    weight_used : float
        Total weight of the samples in the fits (``n_used`` without weights):
        the ``n`` of D and U.
    lr_chi2 : float
        The "D:Chi-sq" of val.prob: ``L0 - L01``, the deviance of the null model
        (the base rate) minus that of the forecasts taken as they are (0 for a
        constant forecast, as val.prob).
    unreliability_chi2, unreliability_pvalue : float
        The "U:Chi-sq" and "U:p" of val.prob: ``L01`` minus the deviance of the
        recalibrated forecasts, a test of ``intercept = 0, slope = 1`` on
        :attr:`unreliability_df` degrees of freedom.  The p-value is NaN
        below 3 observations (:attr:`weight_used` under
        :data:`~skbrier._core.params.MIN_SAMPLES`), as D, U and Q.
    r2 : float
        The "R2" of val.prob: Nagelkerke's R² of the forecasts taken as they are,
        ``(1 - exp(-lr_chi2 / n)) / (1 - exp(-L0 / n))`` (0 for a constant
        forecast; ``-inf`` when the forecasts are so bad that the exponential
        overflows).
    converged : bool
        Whether the joint fit reached its maximum (False when the outcomes are
        separated by the forecasts or the iterations failed).
    unreliability_df : int, default=2
        Degrees of freedom of U: 2, or 1 for a constant forecast (val.prob).

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> data = load_forecasts()
    >>> from skbrier import calibration_intercept_slope
    >>> res = calibration_intercept_slope(data["y"], data["model_b"])
    >>> bool(res.calibration_in_the_large < 0)  # model_b over-predicts
    True
    >>> lo, hi = res.confidence_interval(0.95, metric="calibration_slope")
    >>> bool(lo < res.slope < hi)
    True
    """

    intercept: float
    slope: float
    intercept_stderr: float
    slope_stderr: float
    calibration_in_the_large: float
    calibration_in_the_large_stderr: float
    n_used: int
    n_excluded: int
    weight_used: float
    lr_chi2: float
    unreliability_chi2: float
    unreliability_pvalue: float
    r2: float
    converged: bool
    unreliability_df: int = 2

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "intercept",
        "slope",
        "calibration_in_the_large",
        "intercept_stderr",
        "slope_stderr",
        "calibration_in_the_large_stderr",
        "discrimination_index",
        "unreliability_index",
        "quality_index",
        "unreliability_pvalue",
        "r2",
        "n_used",
        "n_excluded",
        "converged",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = tuple(_COEFFICIENTS)
    _interval_methods: ClassVar[tuple[str, ...]] = ("wald",)

    def __iter__(self) -> Iterator[float]:
        return iter((self.intercept, self.slope))

    def _indexes(self) -> tuple[float, float, float]:
        return valprob_indexes(
            self.lr_chi2, self.unreliability_chi2, self.unreliability_df, self.weight_used
        )

    @property
    def discrimination_index(self) -> float:
        """Discrimination index D of val.prob: ``(lr_chi2 - 1) / n``."""
        return self._indexes()[0]

    @property
    def unreliability_index(self) -> float:
        """Unreliability index U of val.prob: ``(unreliability_chi2 - df) / n``
        with ``df`` = :attr:`unreliability_df` (2; 1 for a constant forecast)."""
        return self._indexes()[1]

    @property
    def quality_index(self) -> float:
        """Quality index Q of val.prob: ``D - U``."""
        return self._indexes()[2]

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        est_name, se_name = _COEFFICIENTS[metric]
        est, se = getattr(self, est_name), getattr(self, se_name)
        if not (math.isfinite(est) and math.isfinite(se)):
            return ConfidenceInterval(math.nan, math.nan)
        z = float(stats.norm.ppf(0.5 + level / 2.0))
        return ConfidenceInterval(float(est - z * se), float(est + z * se))


@dataclass(frozen=True, repr=False)
class SpiegelhalterResult(_TupleLike, Result):
    """Result of :func:`~skbrier.metrics.calibration.spiegelhalter_z`: ``(statistic, pvalue)``.

    Parameters
    ----------
    statistic : float
        Spiegelhalter's z.
    pvalue : float
        Two-sided p-value.

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> data = load_forecasts()
    >>> from skbrier import spiegelhalter_z
    >>> z, pvalue = spiegelhalter_z(data["y"], data["model_a"])
    >>> bool(pvalue > 0.01)  # model_a is calibrated
    True
    """

    statistic: float
    pvalue: float


@dataclass(frozen=True, repr=False)
class LowessCalibrationError(_TupleLike, Result):
    """Result of :func:`~skbrier.metrics.calibration.lowess_calibration_error`: ``(emax, e90, eavg)``.

    Parameters
    ----------
    emax : float
        Largest absolute gap between forecast and lowess curve.
    e90 : float
        90th percentile of the gaps.
    eavg : float
        Mean gap (the integrated calibration index).

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> data = load_forecasts()
    >>> from skbrier import lowess_calibration_error
    >>> err = lowess_calibration_error(data["y"], data["model_b"])
    >>> bool(err.emax >= err.e90 >= 0)
    True
    """

    emax: float
    e90: float
    eavg: float
