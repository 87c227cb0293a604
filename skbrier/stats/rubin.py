"""Performance on multiply imputed data, pooled by Rubin's rules.

A validation study with missing predictors imputes them ``m`` times; each
imputed data set gives a C statistic, an O/E ratio, a calibration slope
... with a standard error.  Rubin's rules pool them on the scale where they
are approximately normal (logit for C, log for O/E; Marshall et al. 2009,
Debray et al. 2017) and report how much of the uncertainty the missing data
add.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.optional import import_optional
from .._core.params import check_confidence_level, check_option, check_real
from .._core.validation import binary_forecast
from ._validation_measures import (
    MEASURES,
    NOT_POOLABLE,
    TRANSFORMS,
    Transform,
    _PooledMeasures,
    _ScaledInterval,
    check_estimates,
    from_scale,
    measures_of_parts,
    poolable,
    too_wide_to_pool,
)

__all__ = [
    "PooledValidationResult",
    "RubinPooledResult",
    "pool_rubin",
    "pooled_validation",
]


@dataclasses.dataclass(frozen=True, repr=False)
class RubinPooledResult(_ScaledInterval):
    """An estimate pooled over imputed data sets by Rubin's rules.

    ``confidence_interval()`` is the interval of the pooled estimate,
    ``metric="statistic"`` (its only one), by ``method="rubin"``:
    :math:`\\bar Q \\pm t_\\nu \\sqrt{T}` on the pooling scale, back on the
    natural scale.

    Attributes
    ----------
    estimate : float
        The pooled estimate, back on the natural scale.
    m : int
        The number of imputed data sets.
    transform : str
        The pooling scale: ``"identity"``, ``"logit"`` or ``"log"``.
    pooled_scale : float
        :math:`\\bar Q`, the mean of the estimates on the pooling scale.
    within_variance, between_variance, total_variance : float
        :math:`\\bar U`, :math:`B` and :math:`T = \\bar U + (1 + 1/m) B` on the
        pooling scale.
    df : float
        The degrees of freedom (Barnard and Rubin's, as ``mice::pool.scalar``).
    relative_increase : float
        :math:`r = (1 + 1/m) B / \\bar U`, the relative increase in variance
        due to the missing data.
    fraction_missing_information : float
        :math:`(r + 2 / (\\nu + 3)) / (r + 1)`.
    confidence_level : float
        The default level of :meth:`confidence_interval`.

    Examples
    --------
    >>> from skbrier.stats import pool_rubin
    >>> res = pool_rubin([0.71, 0.74, 0.72], [0.02**2, 0.021**2, 0.019**2],
    ...                  transform="logit")
    >>> round(res.estimate, 4)
    0.7235
    """

    estimate: float
    m: int
    transform: Transform
    pooled_scale: float
    within_variance: float
    between_variance: float
    total_variance: float
    df: float
    relative_increase: float
    fraction_missing_information: float
    confidence_level: float = 0.95

    _interval_methods: ClassVar[tuple[str, ...]] = ("rubin",)

    def _interval_parts(self, level: float) -> tuple[float, float, Transform]:
        half = float(stats.t.ppf(0.5 + level / 2.0, self.df)) * math.sqrt(
            self.total_variance
        )
        return self.pooled_scale, half, self.transform


@backends(
    arrays=("estimates", "variances"),
    namespace_of="estimates",
    dask=Refused(
        "Rubin's rules pool one estimate per imputed data set; pass the estimates "
        "as numpy arrays (e.g. .compute())"
    ),
    array_api=HOST,
)
def pool_rubin(
    estimates: ArrayLike,
    variances: ArrayLike,
    *,
    transform: Literal["identity", "logit", "log"] = "identity",
    dfcom: float | None = None,
    confidence_level: float = 0.95,
) -> RubinPooledResult:
    r"""Pool estimates from ``m`` imputed data sets by Rubin's rules.

    With estimates :math:`Q_j` and their variances :math:`U_j` (moved to
    the pooling scale by the delta method: :math:`\operatorname{logit}` for
    a C statistic, :math:`\log` for an O/E ratio),

    .. math::

        \bar Q = \frac1m \sum_j Q_j, \quad \bar U = \frac1m \sum_j U_j, \quad
        B = \frac{1}{m - 1} \sum_j (Q_j - \bar Q)^2, \quad
        T = \bar U + \Big(1 + \frac1m\Big) B,

    with Barnard and Rubin's degrees of freedom; the interval
    :math:`\bar Q \pm t_\nu \sqrt T` is back-transformed.

    Parameters
    ----------
    estimates : array-like of shape (m,)
        The estimate of each imputed data set, on the natural scale.
    variances : array-like of shape (m,)
        Their variances (squared standard errors), on the natural scale.
    transform : {"identity", "logit", "log"}, default="identity"
        The pooling scale.
    dfcom : float, default=None
        The complete-data degrees of freedom (None or ``math.inf``: infinite,
        as ``mice::pool.scalar`` with ``n = Inf``, its default).
    confidence_level : float, default=0.95
        The default level of the result's interval.

    Returns
    -------
    RubinPooledResult

    Raises
    ------
    ValueError
        Fewer than 2 estimates, arrays of different lengths, non-finite
        values, negative variances, estimates outside the domain of the
        transform, or ``dfcom`` not > 0.
    TypeError
        ``dfcom`` not a real number.

    Notes
    -----
    Equal to R's ``mice::pool.scalar(Q, U, n = dfcom + 1, k = 1)``
    (``rule = "rubin1987"``) on the pooling scale.

    References
    ----------
    .. [1] D. B. Rubin, *Multiple Imputation for Nonresponse in Surveys*,
       Wiley, 1987.
    .. [2] J. Barnard and D. B. Rubin, "Small-sample degrees of freedom with
       multiple imputation", Biometrika 86, 948-955, 1999.
    .. [3] A. Marshall, D. G. Altman, R. L. Holder and P. Royston, "Combining
       estimates of interest in prognostic modelling studies after multiple
       imputation", BMC Med Res Methodol 9, 57, 2009.

    Examples
    --------
    >>> from skbrier.stats import pool_rubin
    >>> res = pool_rubin([1.02, 0.95, 1.08], [0.004, 0.005, 0.004], transform="log")
    >>> round(res.estimate, 3), round(res.fraction_missing_information, 3)
    (1.015, 0.657)
    """
    transform = check_option(transform, "transform", TRANSFORMS)
    qs, us = check_estimates(
        estimates, variances, transform, what="imputed data sets", zero_variance=True
    )
    if dfcom is not None and not (
        isinstance(dfcom, numbers.Real)
        and not isinstance(dfcom, bool)
        and dfcom == math.inf
    ):
        dfcom = check_real(dfcom, "dfcom", low=0.0, inclusive=(False, True))
    else:  # mice's pool.scalar(n = Inf): the large-sample degrees of freedom
        dfcom = None
    level = check_confidence_level(confidence_level)
    m = qs.size
    with np.errstate(over="ignore", invalid="ignore"):
        qbar, ubar = float(qs.mean()), float(us.mean())
        b = float(qs.var(ddof=1))
    t = ubar + (1.0 + 1.0 / m) * b
    if not (math.isfinite(qbar) and math.isfinite(t)):
        with np.errstate(over="ignore"):
            spread, typical_se = float(np.ptp(qs)), float(np.median(np.sqrt(us)))
        raise too_wide_to_pool(spread, typical_se, "imputation")
    # Barnard-Rubin degrees of freedom (mice's barnard.rubin, lambda floored at 1e-4)
    lam = max((1.0 + 1.0 / m) * b / t, 1e-4) if t > 0 else 1.0
    df_old = (m - 1) / lam**2
    if dfcom is None:
        df = df_old
    else:
        df_obs = (dfcom + 1.0) / (dfcom + 3.0) * dfcom * (1.0 - lam)
        df = df_old * df_obs / (df_old + df_obs)
    r = (1.0 + 1.0 / m) * b / ubar if ubar > 0 else math.inf
    fmi = (r + 2.0 / (df + 3.0)) / (r + 1.0) if math.isfinite(r) else 1.0
    return RubinPooledResult(
        estimate=from_scale(qbar, transform),
        m=m,
        transform=transform,
        pooled_scale=qbar,
        within_variance=ubar,
        between_variance=b,
        total_variance=t,
        df=float(df),
        relative_increase=float(r),
        fraction_missing_information=float(fmi),
        confidence_level=level,
    )


@dataclasses.dataclass(frozen=True, repr=False)
class PooledValidationResult(_PooledMeasures):
    """Validation measures pooled over imputed data sets (one row per measure).

    ``confidence_interval(metric=...)`` is the interval of the pooled
    estimate of one measure, ``"c_statistic"`` (the default),
    ``"observed_expected"``, ``"calibration_in_the_large"``,
    ``"calibration_intercept"``, ``"calibration_slope"`` or
    ``"brier_score"``, by ``method="rubin"`` (that of its
    :class:`RubinPooledResult`).

    Attributes
    ----------
    pooled : dict of str to RubinPooledResult
        The pooled result of each measure: ``"c_statistic"`` (logit scale),
        ``"observed_expected"`` (log scale), ``"calibration_in_the_large"``,
        ``"calibration_intercept"``, ``"calibration_slope"``,
        ``"brier_score"``.
    per_imputation : dict of str to ndarray
        Each measure on each imputed data set.
    m : int
        The number of imputed data sets.

    Examples
    --------
    The forecasts of two imputed data sets (here two models' forecasts):

    >>> from skbrier.datasets import load_forecasts
    >>> from skbrier.stats import pooled_validation
    >>> d = load_forecasts()
    >>> res = pooled_validation(d["y"], [d["model_a"], d["model_b"]])
    >>> sorted(res.pooled)[:2]
    ['brier_score', 'c_statistic']
    """

    pooled: dict
    per_imputation: dict
    m: int

    def to_frame(self) -> Any:
        """One row per measure: estimate, interval, variances, df and FMI (needs pandas)."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        rows = []
        for name, r in self.pooled.items():
            lo, hi = r.confidence_interval(r.confidence_level)
            rows.append(
                {
                    "measure": name,
                    "estimate": r.estimate,
                    "low": lo,
                    "high": hi,
                    "scale": r.transform,
                    "within_variance": r.within_variance,
                    "between_variance": r.between_variance,
                    "df": r.df,
                    "fraction_missing_information": r.fraction_missing_information,
                }
            )
        return pd.DataFrame(rows)


@backends(
    dask=Refused(
        "the logistic recalibration and the DeLong variance of each imputed data "
        "set need its rows in memory; compute them (e.g. [d.compute() for d in "
        "y_proba]) or pass a uniform subsample of the rows"
    ),
    array_api=HOST,
)
@shared_doc
def pooled_validation(
    y_true: ArrayLike | Sequence[ArrayLike],
    y_proba: Sequence[ArrayLike],
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_level: float = 0.95,
) -> PooledValidationResult:
    r"""Validation measures of a model on multiply imputed data, pooled by Rubin's rules.

    On each imputed data set :math:`j` the C statistic (DeLong variance),
    O/E (log-scale variance), calibration in the large, calibration
    intercept and slope (logistic recalibration) and the Brier score (iid
    variance) are computed, then pooled with :func:`pool_rubin`: C on the
    logit scale, O/E on the log scale, the others as they are.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), or a sequence of m of them
        The outcomes: one array when only predictors were imputed, or one per
        imputed data set when the outcome was imputed too.
    y_proba : sequence of m array-likes of shape (n_samples,)
        The model's predicted probabilities on each imputed data set.
    {{sample_weight}}
    {{pos_label}}
    {{confidence_level}}

    Returns
    -------
    PooledValidationResult
        ``pooled[measure]`` is a :class:`RubinPooledResult`; ``to_frame()``
        gives the table of a TRIPOD report.

    Raises
    ------
    ValueError
        Fewer than 2 imputed data sets, a measure that cannot be pooled
        (forecasts that separate the outcomes of a data set: C = 1, an
        infinite slope), or the usual input errors.

    See Also
    --------
    pool_rubin : pool any estimate.

    References
    ----------
    .. [1] T. P. A. Debray et al., "A guide to systematic review and
       meta-analysis of prediction model performance", BMJ 356, i6460, 2017.
    .. [2] A. Marshall et al., BMC Med Res Methodol 9, 57, 2009.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats import pooled_validation
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0.05, 0.95, 400)
    >>> y = (rng.uniform(size=400) < p).astype(int)
    >>> imputed = [np.clip(p + rng.normal(0, 0.05, 400), 0.01, 0.99) for _ in range(5)]
    >>> res = pooled_validation(y, imputed)
    >>> round(res.pooled["c_statistic"].estimate, 2)
    0.83
    """
    if isinstance(y_proba, np.ndarray) and y_proba.ndim == 2:
        raise TypeError(
            "y_proba must be a sequence of one probability array per imputed data set "
            "(a list), not a 2-D array: pass list(array) if its rows are the imputations."
        )
    if not isinstance(y_proba, Sequence) or isinstance(y_proba, (str, bytes)):
        raise TypeError(
            "y_proba must be a sequence of one probability array per imputed data set."
        )
    m = len(y_proba)
    if m < 2:
        raise ValueError(f"pooled_validation needs at least 2 imputed data sets, got {m}.")
    level = check_confidence_level(confidence_level)
    per_outcome = (
        isinstance(y_true, Sequence)
        and not isinstance(y_true, (str, bytes))
        and len(y_true) == m
        and all(np.ndim(v) == 1 and np.size(v) > 1 for v in y_true)
    )

    varies = np.zeros(m, dtype=bool)

    def imputed(j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        yj = y_true[j] if per_outcome else y_true  # type: ignore[index]
        part = binary_forecast(
            yj, y_proba[j], sample_weight=sample_weight, pos_label=pos_label
        )
        p = part[1] if part[2] is None else part[1][part[2] > 0.0]
        varies[j] = p.size > 0 and p.max() > p.min()
        return part

    est, var = measures_of_parts(imputed(j) for j in range(m))
    pooled = {}
    per_imp = {}
    for name, transform in MEASURES:
        q, u = est[name], var[name]
        bad = np.flatnonzero(~poolable(q, u))
        if bad.size:
            raise ValueError(
                f"y_proba: the {name} of imputed data set {int(bad[0])} (0-based) is "
                f"{q[bad[0]]:.4g} with variance {u[bad[0]]:.4g}: its forecasts "
                f"{NOT_POOLABLE[bool(varies[bad[0]])]}, so Rubin's rules cannot pool "
                "it. Check that set's forecasts (a leak of the outcome? a constant?) "
                "or validate on more rows."
            )
        per_imp[name] = q
        pooled[name] = pool_rubin(q, u, transform=transform, confidence_level=level)
    return PooledValidationResult(pooled=pooled, per_imputation=per_imp, m=m)
