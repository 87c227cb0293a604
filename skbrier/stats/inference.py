"""Confidence intervals for the Brier score, the Brier skill score and the Brier Index.

Asymptotic (iid and autocorrelation-robust HAC) intervals follow Lahiri & Yang (2016):
the pair of per-observation losses
``g_t = ((Z_t - P_t)^2, (Z_t - R_t)^2)`` has column means ``(BS, BS0)``; the
covariance of the means is ``cov(g) / T`` (iid) or R's
``sandwich::lrvar(g, type = "Andrews", prewhite = TRUE, adjust = TRUE)``
(HAC), and the skill score and Brier Index get their variance by the delta
method.  Bootstrap intervals (iid or block) resample the observations.

Weights (see :func:`brier_inference`, Notes): for independent observations
they are frequency weights (integer weights equal repeated rows, zero-weight
rows equal removed rows); in a time series (HAC, block bootstraps) they are
attached to time points.
"""

from __future__ import annotations

import dataclasses
import inspect
import warnings
from collections.abc import Callable
from typing import Any, ClassVar, Literal, cast

import numpy as np
from numpy.typing import ArrayLike

from .._core.diagnose import one_warning_per_call
from .._core.dispatch import HOST, backends
from .._core.kernels.brier import check_losses_vary, check_skill_defined
from .._core.kernels.moments import (
    METRICS,
    Design,
    iid_mean_covariance,
    metric_standard_error,
    metric_values,
    replicate_std,
    weighted_column_means,
    weighted_scores,
)
from .._core.params import (
    DEFAULT_N_RESAMPLES,
    check_min_samples,
    check_n_jobs,
    check_n_resamples,
    check_random_state,
    validate_random_state,
)
from .._core.resampling import rows_of_resamples
from .._core.results import check_metric
from .._core.validation import Forecast, check_forecast, check_reference
from . import bootstrap as _bs
from ._ci import ConfidenceInterval, _StoredIntervals, normal_interval
from .long_run_covariance import long_run_covariance

__all__ = ["BrierInferenceResult", "ConfidenceInterval", "brier_inference"]

COV_TYPES = ("iid", "hac", "bootstrap")
CovType = Literal["iid", "hac", "bootstrap"]
_HAC_KEYS = ("kernel", "bandwidth", "prewhite", "adjust")


# --------------------------------------------------------------------------
# shared edge checks (also used by compare.py)
# --------------------------------------------------------------------------
def check_cov_type(cov_type: Any) -> CovType:
    if not isinstance(cov_type, str) or cov_type not in COV_TYPES:
        raise ValueError(f"cov_type must be one of {COV_TYPES}, got {cov_type!r}.")
    return cast(CovType, cov_type)  # checked to be in COV_TYPES above


def check_hac_kwds(hac_kwds: Any) -> dict:
    if hac_kwds is None:
        return {}
    if not isinstance(hac_kwds, dict):
        raise TypeError(f"hac_kwds must be a dict or None, got {type(hac_kwds).__name__}.")
    unknown = sorted(set(hac_kwds) - set(_HAC_KEYS))
    if unknown:
        raise TypeError(
            f"hac_kwds got unexpected keys {unknown}; allowed keys are {list(_HAC_KEYS)}."
        )
    return dict(hac_kwds)


def frequency_weighted(cov_type: str, scheme: str) -> bool:
    """True where weights are frequency weights of independent rows (iid, iid bootstrap)."""
    return cov_type == "iid" or (cov_type == "bootstrap" and scheme == "iid")


def check_resampling(
    cov_type: str, bootstrap: Any, method: Any, random_state: Any
) -> tuple[str, Any, Any, bool]:
    """``(scheme, method, random_state, frequency)`` for ``cov_type``.

    With ``cov_type="bootstrap"`` the resampling scheme, the interval method
    and the generator are checked; otherwise the scheme is ``"iid"`` and the
    others are returned as given.  ``frequency``: the weights are frequency
    weights (:func:`frequency_weighted`).
    """
    if cov_type == "bootstrap":
        scheme = _bs._check_scheme(bootstrap)
        method = _bs._check_ci_method(method, scheme)
        random_state = check_random_state(random_state)
    else:
        scheme = "iid"
    return scheme, method, random_state, frequency_weighted(cov_type, scheme)


def check_weighted_samples(n: int, w: np.ndarray | None, frequency: bool) -> float:
    """The total weight (``n`` without weights), once there are enough observations.

    Frequency weights count by their total, weights of time points by Kish's
    effective number (:func:`~skbrier._core.params.check_min_samples`).
    """
    total = float(n if w is None else w.sum())
    check_min_samples(
        n,
        total if (frequency and w is not None) else None,
        time_weights=None if frequency else w,
    )
    return total


def drop_zero_weight_rows(fc: Forecast, *others: Any) -> tuple[Forecast, list[Any]]:
    """``fc`` (and the arrays in ``others``) without the zero-weight rows."""
    w = fc.sample_weight
    if w is None or w.min() > 0.0:
        return fc, list(others)
    keep = w > 0.0
    out = Forecast(
        fc.y[keep], fc.proba[keep], w[keep], fc.classes, fc.binary_1d, fc.native_dtype
    )
    return out, [o[keep] if isinstance(o, np.ndarray) else o for o in others]


def hac_mean_covariance(g: np.ndarray, w: np.ndarray | None, hac_kwds: dict) -> np.ndarray:
    """Long-run covariance of the (weighted) column means of ``g``.

    Columns whose scores are constant (zero variance, e.g. the reference
    losses of a constant 0.5 reference) get zero rows and columns; the others
    go to :func:`skbrier.stats.long_run_covariance` together.
    """
    k = g.shape[1]
    u = weighted_scores(g, w)
    varying = u.max(axis=0) > u.min(axis=0)
    out = np.zeros((k, k))
    if not varying.any():
        return out
    try:
        cov = long_run_covariance(u[:, varying], **hac_kwds)
    except (TypeError, ValueError) as exc:
        msg = str(exc)
        key = msg.split("=", 1)[0]
        if key in hac_kwds or (msg.startswith(_HAC_KEYS) and "rows" not in msg):
            raise type(exc)(f"hac_kwds: {msg}") from exc  # a bad option value
        if "rows" in msg:  # a series too short for the default options
            given = f"hac_kwds={hac_kwds!r}" if hac_kwds else "the default hac_kwds"
            raise ValueError(
                f"y_true has {g.shape[0]} observations, too few for the HAC covariance "
                f"(cov_type='hac') with {given}: {msg} If the rows are independent, "
                "use cov_type='iid'."
            ) from exc
        raise ValueError(
            f"y_proba: the HAC covariance of the per-sample Brier losses failed: {msg}"
        ) from exc
    m = int(varying.sum())
    cov = np.asarray(cov, dtype=np.float64).reshape(m, m)
    out[np.ix_(varying, varying)] = cov
    return out


@dataclasses.dataclass(frozen=True, repr=False)
class BrierInferenceResult(_StoredIntervals):
    """Brier score, skill score and Brier Index with their sampling uncertainty.

    Returned by :func:`brier_inference`; not meant to be built directly.
    Follows the result protocol of skbrier (``summary()``, ``to_dict()``,
    ``to_frame()``, ``confidence_interval(confidence_level, *, metric=...,
    method=...)``).  ``metric``: ``"brier_score"`` (the default),
    ``"reference_brier_score"``, ``"brier_skill_score"`` or
    ``"brier_index"``.  ``method``: ``"wald"``, ``estimate -/+ z *
    standard_error`` (not clipped to the range of the score, as in Lahiri &
    Yang), for the iid and HAC results; ``"percentile"``, ``"basic"`` or
    ``"bca"`` (computed by :func:`scipy.stats.bootstrap` from the stored
    replicates) for the bootstrap ones, the ``method`` given to
    :func:`brier_inference` by default.

    Attributes
    ----------
    brier_score : float
        The Brier score ``BS`` (scale of :func:`skbrier.metrics.brier.brier_score`).
    reference_brier_score : float
        ``BS0``, the Brier score of the reference forecast (climatology
        ``Z-bar (1 - Z-bar)`` by default).
    brier_skill_score : float
        ``1 - BS / BS0``.
    brier_index : float
        ``100 (1 - sqrt(BS))`` (BS on the [0, 1] scale).
    covariance : ndarray of shape (2, 2)
        Covariance matrix of ``(BS, BS0)``: ``cov(g) / T`` (iid), the HAC
        long-run covariance (hac) or the covariance of the bootstrap
        replicates (bootstrap).
    n : int
        Number of observations used: the rows with positive weight for
        ``"iid"`` and the iid bootstrap (zero-weight rows are removed), every
        row (time point) for ``"hac"`` and the block bootstraps.
    total_weight : float
        Sum of the weights (``n`` without weights): the sample size of the
        iid intervals under frequency weights.
    cov_type : str
        ``"iid"``, ``"hac"`` or ``"bootstrap"``.
    bootstrap_distribution : dict of ndarray or None
        For ``cov_type="bootstrap"``: the replicates of each metric.
    block_length : float or None
        The block length used by a block bootstrap (None otherwise).

    See Also
    --------
    brier_inference : builds this result.

    Examples
    --------
    >>> from skbrier.stats.inference import brier_inference
    >>> res = brier_inference([0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.9, 0.4])
    >>> res.covariance.shape
    (2, 2)
    >>> lo, hi = res.confidence_interval(0.9, metric="brier_skill_score")
    >>> bool(lo < res.brier_skill_score < hi)
    True
    """

    brier_score: float
    reference_brier_score: float
    brier_skill_score: float
    brier_index: float
    covariance: np.ndarray
    n: int
    total_weight: float
    cov_type: str
    bootstrap_distribution: dict | None = None
    block_length: float | None = None
    _index_scale: float = 1.0
    _boot: dict | None = dataclasses.field(default=None, compare=False)

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "brier_score",
        "reference_brier_score",
        "brier_skill_score",
        "brier_index",
        "n",
        "cov_type",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = METRICS

    def _summary_rows(self) -> list[tuple[str, str]]:
        rows = super()._summary_rows()
        for m in ("brier_score", "brier_skill_score", "brier_index"):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    lo, hi = self.confidence_interval(metric=m)
                rows.append((f"{m} 95% CI", f"({lo:.4g}, {hi:.4g})"))
            except ValueError:
                rows.append((f"{m} 95% CI", "undefined"))
        return rows

    def _boot_row(self, metric: str) -> np.ndarray:
        if self._boot is None:
            raise ValueError("this result carries no bootstrap replicates.")
        row = self._boot["dist"][METRICS.index(metric)]
        finite = np.isfinite(row)
        if not finite.all():
            warnings.warn(
                f"{np.count_nonzero(~finite)} of {row.shape[0]} bootstrap resamples give "
                f"an undefined {metric} (a resample with a single class, BS0 = 0); they "
                "are left out.",
                RuntimeWarning,
                stacklevel=3,
            )
            row = row[finite]
        if row.shape[0] < 2:
            raise ValueError(f"metric: fewer than 2 bootstrap resamples define {metric}.")
        return row

    def standard_error(self, metric: str = "brier_score") -> float:
        """Standard error of ``metric``.

        Parameters
        ----------
        metric : {"brier_score", "brier_skill_score", "brier_index", "reference_brier_score"}
            The score.  Asymptotic results use the delta method (see
            :func:`brier_inference`); bootstrap results the standard deviation
            of the replicates (``ddof=1``, as :func:`scipy.stats.bootstrap`).

        Returns
        -------
        float
            The standard error (NaN, with a :class:`RuntimeWarning`, where
            the delta method overflows on extreme input).

        Raises
        ------
        ValueError
            For an unknown metric, the skill score when ``BS0 = 0`` and the
            Brier Index at ``BS = 0`` (not differentiable).
        """
        metric = check_metric(self, metric)
        if self._boot is not None:
            # one row of replicates: a float
            return cast(float, replicate_std(self._boot_row(metric)))
        if metric == "brier_skill_score" and not self.reference_brier_score > 0.0:
            raise ValueError(
                "metric: brier_skill_score is undefined, the reference Brier score is 0."
            )
        if metric == "brier_index" and not self.brier_score > 0.0:
            raise ValueError(
                "metric: the delta-method standard error of brier_index is undefined at "
                "BS = 0 (the square root is not differentiable there)."
            )
        se = metric_standard_error(
            metric,
            self.brier_score,
            self.reference_brier_score,
            self._index_scale,
            self.covariance,
        )
        if not np.isfinite(se):
            warnings.warn(
                f"the standard error of {metric} is not finite (extreme input: the "
                "delta-method gradient overflows); it is returned as nan.",
                RuntimeWarning,
                stacklevel=2,
            )
            return float("nan")
        return se

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        estimate = float(getattr(self, metric))
        i = METRICS.index(metric)

        def replicates(boot: dict[str, Any]) -> tuple[Any, Any]:
            stat = boot["statistic"]

            def one(*cols, axis=-1):
                return stat(*cols, axis=axis)[i]

            return one, self._boot_row(metric)

        return self._stored_interval(
            method,
            level,
            estimate=estimate,
            from_replicates=replicates,
            wald=lambda: normal_interval(estimate, self.standard_error(metric), level),
        )


def check_inference_options(
    cov_type: Any,
    hac_kwds: Any,
    n_resamples: Any,
    n_jobs: Any,
    random_state: Any,
    bootstrap: Any = "iid",
    block_length: Any = None,
) -> tuple[CovType, dict, int, int | None]:
    """The checked ``(cov_type, hac_kwds, n_resamples, n_jobs)``: every option is
    checked up front, also those only used by the bootstrap (on every backend).

    An option of another ``cov_type`` than the one given is refused, as it
    would be ignored: ``hac_kwds`` without ``"hac"``, a block ``bootstrap``
    or a ``block_length`` without ``"bootstrap"``.
    """
    cov_type = check_cov_type(cov_type)
    hac_kwds = check_hac_kwds(hac_kwds)
    if hac_kwds and cov_type != "hac":
        raise ValueError(
            f"hac_kwds={hac_kwds!r} is used only with cov_type='hac' (got "
            f"cov_type={cov_type!r}): pass cov_type='hac', or leave hac_kwds out."
        )
    for name, value in (("bootstrap", bootstrap), ("block_length", block_length)):
        if (
            cov_type != "bootstrap"
            and value is not None
            and not (name == "bootstrap" and value == "iid")
        ):
            raise ValueError(
                f"{name}={value!r} is an option of the resampling, cov_type="
                f"'bootstrap' (got cov_type={cov_type!r}): pass cov_type='bootstrap' "
                f"to resample in blocks, or leave {name} out (cov_type='hac' "
                "corrects for serial correlation without resampling)."
            )
    b = check_n_resamples(n_resamples)
    n_jobs = check_n_jobs(n_jobs)
    validate_random_state(random_state)
    return cov_type, hac_kwds, b, n_jobs


@one_warning_per_call
@backends(
    arrays=("y_true", "y_proba", "sample_weight", "reference"),
    dask="skbrier._backends._dask._adapters:brier_inference",
    array_api=HOST,
)
def brier_inference(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    reference: float | ArrayLike | None = None,
    cov_type: Literal["iid", "hac", "bootstrap"] = "iid",
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    hac_kwds: dict | None = None,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    bootstrap: Literal["iid", "moving_block", "circular_block", "stationary"] = "iid",
    block_length: float | Literal["auto"] | None = None,
    method: Literal["percentile", "basic", "bca"] = "percentile",
    random_state: Any = None,
    n_jobs: int | None = None,
) -> BrierInferenceResult:
    r"""Brier score, skill score and Brier Index with standard errors and intervals.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Outcomes, in time order when ``cov_type="hac"`` or a block bootstrap
        is used.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities, as for :func:`skbrier.metrics.brier.brier_score`.
    reference : None, float or array-like, default=None
        Reference forecast of the skill score: ``None`` for climatology (the
        sample base rate, ``BS0 = Z-bar (1 - Z-bar)``), a float for a constant
        binary forecast, or an array shaped like ``y_proba``.
    cov_type : {"iid", "hac", "bootstrap"}, default="iid"
        ``"iid"``: independent observations, ``cov(g) / T``.  ``"hac"``:
        serially correlated observations, the long-run covariance of
        :func:`skbrier.stats.long_run_covariance` (by default Andrews'
        quadratic-spectral kernel with VAR(1) prewhitening, equal to R's
        ``sandwich::lrvar(g, type="Andrews", prewhite=TRUE, adjust=TRUE)``).
        ``"bootstrap"``: resampling (see ``bootstrap``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights: every score is a weighted mean.  Frequency
        weights for independent observations (``"iid"`` and the iid
        bootstrap): integer weights give exactly the result of repeated
        rows; weights of time points for ``"hac"`` and the block bootstraps
        (see Notes).
    labels : array-like, default=None
        Classes of the columns of 2-D ``y_proba``.
    pos_label : int, float, bool or str, default=None
        Class whose probability a 1-D ``y_proba`` holds.
    hac_kwds : dict, default=None
        Options of :func:`skbrier.stats.long_run_covariance` for
        ``cov_type="hac"``: ``kernel``, ``bandwidth``, ``prewhite``, ``adjust``
        (refused with another ``cov_type``, where they would be unused).
    n_resamples : int, default=1999
        Bootstrap resamples.
    bootstrap : {"iid", "moving_block", "circular_block", "stationary"}, default="iid"
        Resampling scheme for ``cov_type="bootstrap"``; use a block scheme for
        serially dependent data (see :func:`skbrier.stats.bootstrap.block_bootstrap`).
        A block scheme, like a ``block_length``, is refused with another
        ``cov_type``, where it would be unused.
    block_length : int, float or "auto", default=None
        Block length (mean block length for ``"stationary"``); default
        ``round(T ** (1/3))``; ``"auto"``: Politis-White
        (:func:`skbrier.stats.block_length.optimal_block_length`) on the
        per-sample losses and outcomes, the longest over them.
    method : {"percentile", "basic", "bca"}, default="percentile"
        Default bootstrap interval type (``"bca"`` only with ``bootstrap="iid"``;
        its jackknife costs O(T^2)).
    random_state : None, int, Generator, RandomState or SeedSequence, default=None
        Seed of the bootstrap (:func:`skbrier._core.params.check_random_state`).
    n_jobs : int, default=None
        Threads for the bootstrap (None, a positive count or -1; not 0);
        results do not depend on it.

    Returns
    -------
    BrierInferenceResult
        Scores, the covariance of ``(BS, BS0)``, and the methods
        ``standard_error(metric)`` and ``confidence_interval(confidence_level,
        *, metric=...)``.

    Raises
    ------
    ValueError
        Invalid input (as :func:`~skbrier.metrics.brier.brier_score`), fewer
        than 3 observations (a total weight below 3 with frequency weights),
        a reference Brier score of 0 (only one class of ``y_true`` has
        positive weight, or the reference is perfect), constant per-sample
        losses (a perfect forecast: no variance to estimate), unknown
        ``cov_type``, bootstrap scheme or method, ``method="bca"`` with
        non-integer weights.
    TypeError
        Unknown ``hac_kwds`` keys, non-numeric input.

    See Also
    --------
    skbrier.stats.compare_brier : paired comparison of two forecasters.
    skbrier.stats.long_run_covariance : the HAC estimator.
    skbrier.stats.bootstrap.block_bootstrap : block bootstrap of any statistic.

    Notes
    -----
    With per-observation losses :math:`g_t = ((Z_t - P_t)^2, (Z_t - R_t)^2)`
    (:math:`R_t = \bar Z` for climatology), :math:`(\mathrm{BS}, \mathrm{BS}_0)`
    are the column means and :math:`\Omega` the covariance of these means.
    Lahiri & Yang show :math:`\sqrt T` asymptotic normality under
    weak serial dependence; by the delta method

    .. math::

        \operatorname{Var}(\mathrm{BSS}) = \frac{\Omega_{11}
        + (\mathrm{BS}/\mathrm{BS}_0)^2 \Omega_{22}
        - 2 (\mathrm{BS}/\mathrm{BS}_0) \Omega_{12}}{\mathrm{BS}_0^2},
        \qquad
        \operatorname{Var}(\mathrm{BI}) = \frac{2500}{\mathrm{BS}} \Omega_{11},

    and the intervals are :math:`\hat\theta \pm z_{1-\alpha/2}\,\mathrm{se}`.
    ``cov_type="iid"`` uses :math:`\Omega = \mathrm{cov}(g)/T` with the
    :math:`T - 1` denominator, exactly the seed's ``cov(Gradient)/obs``.

    Weights.  The scores are weighted means, unchanged when every weight is
    multiplied by a constant.  What the weights mean for the *uncertainty*
    depends on the data:

    * independent observations (``cov_type="iid"`` and the iid bootstrap):
      ``sample_weight`` holds *frequency weights*, as everywhere in
      scikit-learn: a row of weight :math:`w_t` stands for :math:`w_t`
      identical observations, and the total weight :math:`W = \sum_t w_t`
      is the sample size.  Hence
      :math:`\Omega = \sum_t w_t (g_t - \bar g_w)(g_t - \bar g_w)' /
      ((W - 1) W)`, exactly ``cov(g) / T`` of the data with every row
      repeated :math:`w_t` times; integer weights give the result of the
      repeated rows (every interval), and zero-weight rows are removed rows
      (they do not count in ``n``, in the minimum of 3 observations or
      anywhere else).  The intervals are *not* invariant to rescaling the
      weights: doubling every weight doubles the sample size.  At least a
      total weight of 3 is required (weights normalised to sum to 1 are
      refused: they describe a sample of size 1).  The iid bootstrap draws
      the repeated rows (integer weights) or ``round(W)`` rows with
      probabilities :math:`w_t / W` (other weights).
    * time series (``cov_type="hac"`` and the block bootstraps): a repeated
      row is not a further observation of a series, so a weight is attached
      to its time point.  HAC uses the long-run covariance of
      :math:`u_t = T w_t (g_t - \bar g_w)/W`, equal to R's
      ``sandwich::kernHAC(lm(g ~ 1, weights = w))`` for positive weights and
      to ``lrvar(g)`` for unit weights; it is invariant to rescaling the
      weights.  A zero-weight row stays a time point: it contributes a zero
      score but counts in :math:`T` (the minimum of 3 rows, the bandwidth,
      the lags, prewhitening and the factor :math:`T/(T-k)`), so removing
      it changes the lag structure and the interval.  (R's ``kernHAC``
      scales its bread by the number of positive weights instead; the two
      differ by that ratio when there are zero weights.)  The block
      bootstraps resample blocks of rows together with their weights.

    For multiclass forecasts :math:`g` holds the summed losses on the scale of
    :func:`~skbrier.metrics.brier.brier_score`; the Brier Index uses half of it.

    The bootstrap re-estimates the climatological base rate on every
    resample; its ``covariance`` is that of the replicates of
    :math:`(\mathrm{BS}, \mathrm{BS}_0)`.

    References
    ----------
    .. [1] K. Lahiri and L. Yang, "Asymptotic variance of Brier (skill) score in
       the presence of serial correlation", Economics Letters 141, 125-129, 2016.
    .. [2] D. W. K. Andrews, "Heteroskedasticity and autocorrelation consistent
       covariance matrix estimation", Econometrica 59(3), 817-858, 1991.
    .. [3] D. S. Wilks, "Sampling distributions of the Brier score and Brier
       skill score under serial dependence", QJRMS 136, 2109-2118, 2010.

    Examples
    --------
    >>> from skbrier.stats.inference import brier_inference
    >>> y = [0, 1, 1, 0, 1, 0, 0, 1, 1, 0]
    >>> p = [0.2, 0.7, 0.9, 0.4, 0.6, 0.1, 0.3, 0.8, 0.4, 0.2]
    >>> res = brier_inference(y, p)
    >>> round(res.brier_score, 4), round(res.brier_skill_score, 4)
    (0.1, 0.6)
    >>> ci = res.confidence_interval(0.95, metric="brier_score")
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.034, 0.166)
    >>> round(res.standard_error("brier_index"), 3)
    5.323
    """
    return _brier_inference(locals())


def brier_inference_with(
    companion: Callable[[np.ndarray], np.ndarray], y_true: Any, y_proba: Any, **options: Any
) -> BrierInferenceResult:
    """:func:`brier_inference` whose resamples serve a further statistic:
    with ``cov_type="bootstrap"``, ``companion(weights)`` (``(size, k)`` for the
    frequency weights ``(size, n)`` of the rows in each resample, see
    :func:`~skbrier._core.resampling.rows_of_resamples`) on the same draws,
    its replicates ``(k, n_resamples)`` in ``result._boot["companion"]``.
    The calibration report refits its logistic calibration this way.
    """
    args = inspect.signature(brier_inference).bind(y_true, y_proba, **options)
    args.apply_defaults()
    return _brier_inference(args.arguments, companion)


def _brier_inference(
    args: dict[str, Any], companion: Callable[[np.ndarray], np.ndarray] | None = None
) -> BrierInferenceResult:
    """The body of :func:`brier_inference` (``args``: its arguments by name)."""
    cov_type, hac_kwds, b, n_jobs = check_inference_options(
        args["cov_type"],
        args["hac_kwds"],
        args["n_resamples"],
        args["n_jobs"],
        args["random_state"],
        args["bootstrap"],
        args["block_length"],
    )
    fc = check_forecast(
        args["y_true"],
        args["y_proba"],
        sample_weight=args["sample_weight"],
        labels=args["labels"],
        pos_label=args["pos_label"],
    )
    ref = check_reference(args["reference"], fc)
    scheme, method, random_state, frequency = check_resampling(
        cov_type, args["bootstrap"], args["method"], args["random_state"]
    )
    block_length, w_rows = args["block_length"], fc.sample_weight
    if frequency:
        # frequency weights: zero-weight rows are removed rows
        fc, (ref,) = drop_zero_weight_rows(fc, ref)
    design = Design(fc, ref)
    w = design.w
    total = check_weighted_samples(design.n, w, frequency)
    g = design.g
    bs, bs0 = (float(v) for v in weighted_column_means(g, w))
    _check_defined(design, g, w, bs0)
    values = metric_values(bs, bs0, design.index_scale)
    common = {
        "n": design.n,
        "total_weight": total,
        "cov_type": cov_type,
        "_index_scale": design.index_scale,
    }
    if cov_type == "iid":
        cov = iid_mean_covariance(g, w)
        return BrierInferenceResult(**values, covariance=cov, **common)
    if cov_type == "hac":
        cov = hac_mean_covariance(g, w, hac_kwds)
        return BrierInferenceResult(**values, covariance=cov, **common)
    # bootstrap
    bl = _bs.resolve_block_length(block_length, design.boot, scheme)
    data, weighted, draws = _bs.prepare_frequency_weights(
        design.boot_columns(), w, scheme, method
    )
    statistic = design.statistic_for(weighted=weighted)
    dist = _bs.bootstrap_distribution(
        data,
        statistic,
        scheme=scheme,
        block_length=bl,
        n_resamples=b,
        random_state=random_state,
        n_jobs=n_jobs,
        draws=draws,
        # unweighted resamples are counted, not gathered (the same draws)
        counts_statistic=None if weighted else design.statistic_for(weighted=True),
        companion=rows_of_resamples(companion, w_rows, scheme, data[0].shape[0]),
    )
    dist, extra = dist[: len(METRICS)], dist[len(METRICS) :]
    finite = np.isfinite(dist[:2]).all(axis=0)
    cov = np.cov(dist[:2, finite])
    boot = {
        "dist": dist,
        "data": data,
        "statistic": statistic,
        "method": method,
        "scheme": scheme,
        "draws": draws,
    }
    if extra.shape[0]:
        boot["companion"] = extra
    return BrierInferenceResult(
        **values,
        covariance=cov,
        **common,
        bootstrap_distribution={m: dist[i] for i, m in enumerate(METRICS)},
        block_length=None if scheme == "iid" else bl,
        _boot=boot,
    )


def _check_defined(design: Design, g: np.ndarray, w: np.ndarray | None, bs0: float) -> None:
    """Refuse a reference Brier score of 0 and constant losses (nothing to estimate)."""
    check_skill_defined(bs0, design.reference_kind == "climatology")
    losses = g[:, 0] if w is None else g[w > 0.0, 0]
    check_losses_vary(losses.min(), losses.max())
