"""The validation measures of one data set with their variances (for pooling).

One home for what :func:`~skbrier.stats.pooled_validation` (over imputed
data sets) and :func:`~skbrier.stats.clustered_validation` (over centres)
compute on each part before pooling it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Literal, get_args

import numpy as np
from scipy import special

from .._core.arrays import as_array
from .._core.format import format_number
from .._core.kernels.brier import base_rate, check_skill_defined, losses_vary
from .._core.kernels.calibration import auc_delong, observed_expected
from .._core.kernels.moments import iid_mean_covariance, weighted_column_means
from .._core.params import check_min_samples
from .._core.results import ConfidenceInterval, _IntervalResult
from ..metrics.calibration import _logistic_calibration

__all__ = [
    "MEASURES",
    "TRANSFORMS",
    "_PooledMeasures",
    "_ScaledInterval",
    "Transform",
    "check_estimates",
    "from_scale",
    "measures_of_parts",
    "scaled_interval",
    "to_scale",
    "validation_measures",
]

Transform = Literal["identity", "logit", "log"]
#: the pooling scales (the ``transform=`` names)
TRANSFORMS: tuple[Transform, ...] = get_args(Transform)

#: each measure and the scale on which it is pooled (Debray et al. 2017)
MEASURES: tuple[tuple[str, Transform], ...] = (
    ("c_statistic", "logit"),
    ("observed_expected", "log"),
    ("calibration_in_the_large", "identity"),
    ("calibration_intercept", "identity"),
    ("calibration_slope", "identity"),
    ("brier_score", "identity"),
)


def validation_measures(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, *, presorted: bool = False
) -> dict[str, tuple[float, float]]:
    """``{measure: (estimate, variance)}`` on validated 0/1 ``y``, ``p`` and weights ``w``.

    ``presorted``: the rows are sorted by forecast (the C statistic skips its
    sort; the same numbers).  A single outcome class (among the rows of
    positive weight) has no C statistic and no calibration fit: ValueError."""
    ww = np.ones_like(p) if w is None else w
    # both classes by their own weights, not n - o: non-events of weight 1e-17
    # beside events of weight 1 round n - o to 0
    o, z = float(np.dot(ww, y)), float(np.dot(ww, 1.0 - y))
    if not (o > 0.0 and z > 0.0):
        raise ValueError(
            "y_true holds a single class (among the rows with positive weight): the "
            "C statistic, the calibration intercept and slope are undefined; validate "
            "on data with both outcomes."
        )
    if presorted:
        c, c_var = auc_delong(y, p, w, order=np.arange(p.shape[0]), sorted_yp=(y, p))
    else:
        c, c_var = auc_delong(y, p, w)
    oe, _, _ = observed_expected(y, p, w, 0.95)
    # the variance of log(O/E) of observed_expected, moved to O/E by the delta method
    oe_var = oe**2 * (z / (o + z)) / o
    # the fits only; the warning names the line that called the public function
    # (through its backend declaration: one frame more)
    fit = _logistic_calibration(y, p, w, stacklevel=6, lr=False)
    bs, bs_var = _brier(y, p, w)
    return {
        "c_statistic": (c, c_var),
        "observed_expected": (oe, oe_var),
        "calibration_in_the_large": (
            fit.calibration_in_the_large,
            fit.calibration_in_the_large_stderr**2,
        ),
        "calibration_intercept": (fit.intercept, fit.intercept_stderr**2),
        "calibration_slope": (fit.slope, fit.slope_stderr**2),
        "brier_score": (bs, bs_var),
    }


def measures_of_parts(
    parts: Iterable[tuple[np.ndarray, np.ndarray, np.ndarray | None] | None],
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Each measure's estimates and variances over the parts to pool.

    ``parts`` yields ``(y, p, w)`` (validated, as :func:`validation_measures`
    takes them) for each imputed data set or centre, or None for a part that
    gives no measure (its estimates and variances are NaN).  Returns
    ``(estimates, variances)``: measure name -> array over the parts.
    """
    # a loop, not a comprehension (a frame of its own): validation_measures'
    # warnings name the caller of the pooling function
    values: list[dict[str, tuple[float, float]] | None] = []
    for part in parts:
        values.append(None if part is None else validation_measures(*part))
    nan = (np.nan, np.nan)
    est, var = {}, {}
    for name, _ in MEASURES:
        pairs = np.array(
            [nan if v is None else v[name] for v in values], dtype=np.float64
        ).reshape(-1, 2)
        est[name], var[name] = pairs[:, 0].copy(), pairs[:, 1].copy()
    return est, var


def poolable(estimates: np.ndarray, variances: np.ndarray) -> np.ndarray:
    """Which units' (centres', imputed data sets') measures can be pooled: a
    finite estimate with a finite positive variance.  Forecasts that separate
    a unit's outcomes give C = 1 with variance 0 and an infinite calibration
    slope (no intercept): not poolable."""
    return np.isfinite(estimates) & np.isfinite(variances) & (variances > 0)


#: why a unit's measures cannot be pooled, by whether its forecasts vary
NOT_POOLABLE = {
    True: "separate the outcomes (C = 1 with no variance, an infinite calibration slope)",
    False: "do not vary (C = 0.5 with no variance, no calibration slope)",
}


def _brier(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> tuple[float, float]:
    """The Brier score and its iid variance: ``brier_inference(y, p,
    sample_weight=w)``'s ``brier_score`` and ``standard_error()**2``, with
    its checks, from the one column of losses (not the reference's too: a
    few hundred times faster on the small parts of the per-group and
    per-centre measures).  Losses constant up to rounding (forecasts that
    separate the outcomes, or do not vary) have the variance 0: that part is
    not :func:`poolable`, as its C statistic."""
    if w is not None and not w.min() > 0.0:  # frequency weights: zero is no row
        keep = w > 0.0
        y, p, w = y[keep], p[keep], w[keep]
    check_min_samples(y.shape[0], None if w is None else float(w.sum()))
    check_skill_defined(min(base_rate(y, w)), True)
    g = np.square(p - y)[:, None]
    bs = float(weighted_column_means(g, w)[0])
    if not losses_vary(g.min(), g.max()):
        return bs, 0.0
    return bs, float(iid_mean_covariance(g, w)[0, 0])


def to_scale(
    q: np.ndarray, u: np.ndarray, transform: Transform
) -> tuple[np.ndarray, np.ndarray]:
    """Estimates and variances on the pooling scale (variances by the delta
    method; NaN where ``q**2`` underflows to 0 with ``u``, an estimate of 1e-300)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if transform == "logit":
            return special.logit(q), u / (q * (1.0 - q)) ** 2
        if transform == "log":
            return np.log(q), u / q**2
    return q, u


def from_scale(x: float, transform: Transform) -> float:
    if transform == "logit":
        return float(special.expit(x))
    if transform == "log":
        with np.errstate(over="ignore"):  # a bound beyond the float range: inf
            return float(np.exp(x))
    return float(x)


def scaled_interval(centre: float, half: float, transform: Transform) -> ConfidenceInterval:
    """``centre -/+ half`` on the pooling scale ``transform``, back on the natural scale.

    Parameters
    ----------
    centre : float
        The estimate on the pooling scale.
    half : float
        The half-width on the pooling scale.
    transform : {"identity", "logit", "log"}
        The pooling scale.

    Returns
    -------
    ConfidenceInterval
        The bounds on the natural scale.

    Examples
    --------
    >>> from skbrier.stats._validation_measures import scaled_interval
    >>> scaled_interval(0.0, 1.0, "log")
    ConfidenceInterval(low=0.36787944117144233, high=2.718281828459045)
    """
    return ConfidenceInterval(
        from_scale(centre - half, transform), from_scale(centre + half, transform)
    )


def check_estimates(
    estimates: Any,
    variances: Any,
    transform: Transform,
    *,
    what: str,
    zero_variance: bool,
    hint: str = "",
) -> tuple[np.ndarray, np.ndarray]:
    """Estimates and their variances checked for pooling, on the pooling scale.

    Float64 arrays, moved by :func:`to_scale` onto the scale ``transform``
    (checked by the caller against :data:`TRANSFORMS`).  ``what`` names the
    units in messages ("imputed data sets", "studies"); ``zero_variance``
    allows variances of 0; ``hint`` is added to the message about non-finite
    values.
    """
    q = as_array(estimates, "estimates").astype(np.float64, copy=False).ravel()
    u = as_array(variances, "variances").astype(np.float64, copy=False).ravel()
    if q.shape != u.shape:
        raise ValueError(f"estimates has {q.size} values but variances has {u.size}.")
    if q.size < 2:
        raise ValueError(f"pooling needs at least 2 {what}, got {q.size}.")
    if not (np.all(np.isfinite(q)) and np.all(np.isfinite(u))):
        raise ValueError("estimates and variances must be finite" + (hint or "."))
    if np.any(u < 0) or (not zero_variance and np.any(u == 0)):
        sign = "non-negative" if zero_variance else "positive"
        raise ValueError(f"variances must be {sign} (squared standard errors).")
    if transform == "logit" and not np.all((q > 0) & (q < 1)):
        raise ValueError("transform='logit' needs estimates strictly between 0 and 1.")
    if transform == "log" and not np.all(q > 0):
        raise ValueError("transform='log' needs positive estimates.")
    return to_scale(q, u, transform)


def too_wide_to_pool(spread: float, typical_se: float, between: str) -> ValueError:
    """The error of estimates whose between-``between`` variance overflows float64.

    ``spread`` is the range of the estimates on the pooling scale and
    ``typical_se`` their typical standard error (0 where every variance is 0).
    """
    times = (
        f", {format_number(spread / typical_se)} times their typical standard error"
        if typical_se > 0.0
        else ""
    )
    return ValueError(
        f"estimates range over {format_number(spread)}{times}: too wide to pool in "
        f"float64 (the between-{between} variance overflows). Rescale the estimates "
        "(and the variances by the square), or check that variances holds "
        "variances, not standard errors."
    )


class _ScaledInterval(_IntervalResult):
    r"""Mixin of the results with one estimate and one interval, symmetric on
    its pooling scale (a random-effects mean, Rubin's pooled estimate, a
    prediction-powered mean).

    The interval is :math:`\hat\theta \pm c\,s` on the pooling scale, back on
    the natural scale: for a random-effects mean :math:`s` is
    :math:`\mathrm{SE}(\hat\mu)` and :math:`c` the normal quantile
    (:math:`t_{k-1}` with Knapp-Hartung; ``metafor``'s ``ci.lb``, ``ci.ub``);
    for Rubin's rules :math:`s = \sqrt{T}` and :math:`c = t_\nu` (method
    ``"rubin"``); for a prediction-powered mean the Wald interval of
    ``ppi_py.ppi_mean_ci``.  A subclass names its method
    (``_interval_methods``), its metric where it is not ``"statistic"``
    (``_interval_metrics``), and gives :meth:`_interval_parts`: the centre on
    the pooling scale, the half-width at a level and the pooling scale.
    """

    _interval_metrics: ClassVar[tuple[str, ...]] = ("statistic",)
    _interval_methods: ClassVar[tuple[str, ...]] = ("wald",)

    def _valid_metrics(self) -> Sequence[str]:
        return (self._default_metric(),)  # the estimated quantity only

    def _interval_parts(self, level: float) -> tuple[float, float, Transform]:
        raise NotImplementedError  # pragma: no cover - every subclass defines it

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        return scaled_interval(*self._interval_parts(level))


class _PooledMeasures(_IntervalResult):
    """Mixin of the results that pool each validation measure (``pooled``:
    measure name -> a result with ``estimate`` and ``confidence_interval``).

    ``confidence_interval(metric=...)`` is the interval of the pooled
    estimate of one measure (default ``"c_statistic"``), back on the
    measure's natural scale, by the pooled result's only method.
    """

    pooled: dict
    _interval_metrics: ClassVar[tuple[str, ...]] = tuple(name for name, _ in MEASURES)

    def _summary_rows(self) -> list[tuple[str, str]]:
        return [(k, format_number(v.estimate)) for k, v in self.pooled.items()]

    def __repr__(self) -> str:
        # the scalar fields, then the pooled estimates (the repr of the
        # results protocol shows scalar fields only: here none, or m)
        rows = [(k, format_number(v)) for k, v in self._headline().items()]
        body = ", ".join(f"{k}={v}" for k, v in rows + self._summary_rows())
        return f"{type(self).__name__}({body})"

    def _valid_methods(self, metric: str) -> tuple[str, ...]:
        return type(self.pooled[metric])._interval_methods  # the pooled result's only one

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        return self.pooled[metric].confidence_interval(level, method=method)
