"""The result of :func:`~skbrier.metrics.calibration_curves.flexible_calibration_curve`."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from scipy import special, stats

from .._core.optional import import_optional
from .._core.resampling import INTERVAL_METHODS, _report_nan, interval_from_replicates
from .._core.results import ConfidenceInterval, _IntervalResult

__all__ = ["CURVE_METRICS", "FlexibleCalibrationCurve", "band_from_standard_error"]

#: the summary statistics of the curve, in the order of the bootstrap replicates
CURVE_METRICS = ("ici", "e50", "e90", "emax", "eci")


def band_from_standard_error(
    estimate: np.ndarray,
    standard_error: np.ndarray,
    eta: np.ndarray | None,
    confidence_level: float,
) -> ConfidenceInterval:
    """The pointwise Wald band: ``expit(eta -+ z se)`` when the standard error
    is that of the linear predictor ``eta`` (the logit scale), else
    ``estimate -+ z se`` (the probability scale)."""
    z = float(stats.norm.ppf(0.5 + confidence_level / 2.0))
    if eta is not None:
        return ConfidenceInterval(
            special.expit(eta - z * standard_error), special.expit(eta + z * standard_error)
        )
    return ConfidenceInterval(estimate - z * standard_error, estimate + z * standard_error)


@dataclass(frozen=True, repr=False)
class FlexibleCalibrationCurve(_IntervalResult):
    """A flexible calibration curve with its pointwise band and the ICI family.

    Returned by
    :func:`~skbrier.metrics.calibration_curves.flexible_calibration_curve`;
    users do not build it.

    ``confidence_interval(metric=...)`` gives the bootstrap interval of a
    summary, ``"ici"`` (the default), ``"e50"``, ``"e90"``, ``"emax"`` or
    ``"eci"``, from the curve refitted on each bootstrap resample (as
    ``pmcalibration(ci = "boot")``: the knots are placed again on each
    resample unless they were given; with an analytic band the bootstrap
    runs on the first call, with the function's ``n_resamples`` and
    ``random_state``, and is kept), by ``method="percentile"`` (the default,
    as pmcalibration) or ``"basic"``, or from coefficient draws with
    ``method="simulation"`` (``"rcs"``, ``"ns"``, ``"gam"``: pmcalibration's
    ``ci = "sim"``, drawn on the first call unless the band drew them, then
    kept; a ValueError for ``"loess"`` and ``"lowess"``).
    ``"calibration_curve"`` is the pointwise band at :attr:`grid` (arrays):
    ``method="wald"`` (its only one) for an analytic band,
    ``"simulation"`` (its only one) for a simulation band, at any level;
    the bootstrap band (``"percentile"`` or ``"basic"``) otherwise.

    Parameters
    ----------
    grid : ndarray of shape (n_grid,)
        Forecast probabilities at which the curve is evaluated.
    estimate : ndarray of shape (n_grid,)
        The estimated observed frequency :math:`\\hat c(p)` at :attr:`grid`
        (a loess curve may leave [0, 1]; NaN where the smoother gives none).
    lower, upper : ndarray of shape (n_grid,) or None
        The pointwise confidence band at :attr:`confidence_level` (None
        without a band).
    ici, e50, e90, emax, eci : float
        Summaries of :math:`d_i = |p_i - \\hat c(p_i)|` over the observations
        (weighted by the frequency weights): the integrated calibration index
        ICI = Eavg (their mean), their median, 90th percentile (R's type 7)
        and maximum, and ECI = 100 times the mean of :math:`d_i^2`.
    smoother : str
        ``"loess"``, ``"rcs"``, ``"ns"``, ``"gam"`` or ``"lowess"``.
    transform : str or None
        ``"logit"`` when the curve was fitted on ``logit(p)``, None on ``p``.
    band : str or None
        ``"analytic"``, ``"bootstrap"``, ``"simulation"`` or None.
    band_scale : str or None
        Scale of the analytic Wald band: ``"logit"`` (on the linear predictor
        of a spline fit, then mapped back) or ``"probability"``.
    confidence_level : float
        Level of :attr:`lower` and :attr:`upper`.
    standard_error : ndarray of shape (n_grid,) or None
        Pointwise standard error of the analytic band, on
        :attr:`band_scale`.
    knots : ndarray or None
        Knots of a spline (on the transformed scale): all knots of ``"rcs"``,
        ``(min, interior, max)`` of ``"ns"``.
    n : float
        Number of observations (the total weight with frequency weights).
    n_excluded : int
        Rows left out because their forecast is exactly 0 or 1 (infinite
        logit; only with ``transform="logit"``).
    n_resamples : int
        Bootstrap resamples behind the band and the intervals of the
        summaries (0 until a bootstrap has run).
    n_simulations : int
        Coefficient draws behind a simulation band and the
        ``method="simulation"`` intervals (0 until drawn).
    converged : bool
        Whether the fit converged (the logistic fit of a spline; always True
        for the local smoothers).

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> from skbrier.metrics import flexible_calibration_curve
    >>> d = load_forecasts()
    >>> curve = flexible_calibration_curve(d["y"], d["model_b"], smoother="rcs")
    >>> frame = curve.to_frame()
    >>> list(frame.columns)
    ['grid', 'estimate', 'lower', 'upper']
    >>> bool(curve.ici > 0)
    True
    >>> low, high = curve.confidence_interval(metric="calibration_curve")  # "wald"
    >>> bool((low <= curve.estimate).all() and (curve.estimate <= high).all())
    True
    """

    grid: np.ndarray
    estimate: np.ndarray
    lower: np.ndarray | None
    upper: np.ndarray | None
    ici: float
    e50: float
    e90: float
    emax: float
    eci: float
    smoother: str
    transform: str | None
    band: str | None
    band_scale: str | None
    confidence_level: float
    standard_error: np.ndarray | None
    knots: np.ndarray | None
    n: float
    n_excluded: int = 0
    n_resamples: int = 0
    n_simulations: int = 0
    converged: bool = True
    _eta: np.ndarray | None = dataclasses.field(default=None, compare=False)
    _boot: dict | None = dataclasses.field(default=None, compare=False)
    _resample: Callable[[], dict] | None = dataclasses.field(default=None, compare=False)
    _sim: dict | None = dataclasses.field(default=None, compare=False)
    _simulate: Callable[[], dict] | None = dataclasses.field(default=None, compare=False)
    _data: tuple | None = dataclasses.field(default=None, compare=False)

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "ici",
        "e50",
        "e90",
        "emax",
        "eci",
        "smoother",
        "transform",
        "band",
        "n",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = (*CURVE_METRICS, "calibration_curve")

    def to_frame(self) -> Any:
        """The curve as a :class:`pandas.DataFrame` (needs pandas): one row per
        point of :attr:`grid` with ``estimate``, ``lower`` and ``upper``."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        nan = np.full(self.grid.shape, np.nan)
        return pd.DataFrame(
            {
                "grid": self.grid,
                "estimate": self.estimate,
                "lower": nan if self.lower is None else self.lower,
                "upper": nan if self.upper is None else self.upper,
            }
        )

    def _replicates(self, method: str) -> dict:
        """The bootstrap replicates, or the simulated curves for
        ``method="simulation"`` (run now, once, unless the band made them)."""
        simulation = method == "simulation"
        kept, field = (self._sim, "_sim") if simulation else (self._boot, "_boot")
        if kept is not None:
            return kept
        run = self._simulate if simulation else self._resample
        if run is None:
            if simulation:
                raise ValueError(
                    "method='simulation' draws the coefficients of a regression "
                    f"smoother ('rcs', 'ns' or 'gam'); smoother={self.smoother!r} has "
                    "none. Use method='percentile' or 'basic' (the bootstrap)."
                )
            raise ValueError(  # pragma: no cover - always set by the function
                "this curve holds no data to resample."
            )
        reps = run()
        object.__setattr__(self, field, reps)
        count = "n_simulations" if simulation else "n_resamples"
        object.__setattr__(self, count, int(reps["metrics"].shape[0]))
        return reps

    def _valid_methods(self, metric: str) -> tuple[str, ...]:
        if metric != "calibration_curve":
            return (*INTERVAL_METHODS, "simulation")
        if self.band == "analytic":
            return ("wald",)
        return ("simulation",) if self.band == "simulation" else INTERVAL_METHODS

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        if method == "wald":
            assert self.standard_error is not None
            return band_from_standard_error(
                self.estimate, self.standard_error, self._eta, level
            )
        if metric == "calibration_curve" and self.band is None:
            fits = "band='bootstrap'" + (
                "" if self.smoother == "lowess" else " or band='analytic'"
            )
            raise ValueError(f"this curve has no band (band=None); fit it with {fits}.")
        if method == "simulation" and not self.converged:
            # no maximum to draw around: NaN (warned at the fit)
            if metric != "calibration_curve":
                return ConfidenceInterval(math.nan, math.nan)
            return ConfidenceInterval(
                np.full(self.grid.shape, np.nan), np.full(self.grid.shape, np.nan)
            )
        reps = self._replicates(method)
        # the simulated curves: percentiles, as pmcalibration's summary()
        how = "percentile" if method == "simulation" else method
        if metric == "calibration_curve":
            # the band leaves out the grid points a resample's curve does not
            # reach (loess) without a word, but never silently the resamples
            # without a curve (one class drawn): their summaries are NaN
            _report_nan(reps["metrics"][:, 0], 0, "warn")
            return interval_from_replicates(
                reps["curve"],
                level,
                method=how,
                estimate=self.estimate,
                nan_policy="omit",
            )
        j = CURVE_METRICS.index(metric)
        est = getattr(self, metric)
        ci = interval_from_replicates(
            reps["metrics"][:, j], level, method=how, estimate=est
        )
        return ConfidenceInterval(float(ci.low), float(ci.high))

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Draw the curve, its band, the diagonal and the spike histogram of
        the forecasts (events above the axis, non-events below).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (None: a new figure).
        **kwargs
            ``label`` (legend label), ``color``, ``histogram`` (the spike
            histogram, default True) and ``show_statistics`` (ICI, E50, E90,
            Emax in the panel, default True).

        Returns
        -------
        matplotlib Axes
        """
        from ..plotting._flexible_draw import plot_flexible_calibration

        return plot_flexible_calibration(self, ax=ax, **kwargs)

    def _forecasts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``(y, p, w)`` of the fit (for the spike histogram)."""
        if self._data is None:
            return np.empty(0), np.empty(0), None
        return self._data

    def __post_init__(self) -> None:
        for name in ("ici", "e50", "e90", "emax", "eci"):
            v = getattr(self, name)
            if not isinstance(v, float):
                object.__setattr__(self, name, float(v) if v is not None else math.nan)
