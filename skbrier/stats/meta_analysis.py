"""Random-effects meta-analysis of validation statistics across centres.

A model validated in several hospitals gives one O/E ratio, calibration
slope and C statistic per hospital; the random-effects model pools them and
its prediction interval says what to expect in a new hospital (Riley et al.
2011; Debray et al. 2017).  The estimators are those of R's ``metafor``.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, stats

from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.format import format_number
from .._core.labels import check_groups
from .._core.optional import import_optional
from .._core.params import check_confidence_level, check_option
from .._core.results import ConfidenceInterval
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
    scaled_interval,
    too_wide_to_pool,
)

__all__ = [
    "ClusteredValidationResult",
    "MetaAnalysisResult",
    "clustered_validation",
    "random_effects_meta",
]

_METHODS: tuple[Literal["REML", "ML", "DL"], ...] = ("REML", "ML", "DL")


def _cross_sum(w: np.ndarray) -> float:
    """``sum(w)**2 - sum(w**2)`` (twice the sum of the products of distinct
    pairs), from the ascending prefix sums: no cancellation when one weight
    dwarfs the others (variances 1 and 1e-30 made it 0)."""
    ws = np.sort(w)
    return 2.0 * float(np.dot(ws[1:], np.cumsum(ws)[:-1]))


def _fixed(y: np.ndarray, v: np.ndarray, tau2: float) -> tuple[float, np.ndarray]:
    w = 1.0 / (v + tau2)
    return float(np.dot(w, y) / w.sum()), w


def _score(y: np.ndarray, v: np.ndarray, tau2: float, reml: bool) -> float:
    """Derivative of the (restricted) log-likelihood in tau^2 (times 2 and
    divided by the largest squared weight, which keeps its sign and root):
    with ``u = w / max(w)`` no square under- or overflows when ``tau2``
    dwarfs the variances."""
    mu, w = _fixed(y, v, tau2)
    m = float(np.min(v)) + tau2  # 1 / max(w)
    u = w * m
    fit = float(np.dot(u**2, (y - mu) ** 2))
    if reml:  # sum(u) - sum(u**2) / sum(u), without its cancellation
        return fit - m * _cross_sum(u) / float(u.sum())
    return fit - m * float(u.sum())


def _tau2(y: np.ndarray, v: np.ndarray, method: str) -> float:
    k = y.shape[0]
    w = 1.0 / v
    mu = float(np.dot(w, y) / w.sum())
    q = float(np.dot(w, (y - mu) ** 2))
    if method == "DL":
        c = _cross_sum(w) / float(w.sum())
        return max(0.0, (q - (k - 1)) / c) if c > 0 else 0.0
    reml = method == "REML"
    if _score(y, v, 0.0, reml) <= 0.0:
        return 0.0
    hi = max(float(np.var(y)), float(v.max()), 1e-12)
    while _score(y, v, hi, reml) > 0.0:
        hi *= 4.0
        if not math.isfinite(hi):  # pragma: no cover - unbounded likelihood
            return math.inf
    return float(
        optimize.brentq(lambda t: _score(y, v, t, reml), 0.0, hi, xtol=1e-300, rtol=1e-15)
    )


@dataclasses.dataclass(frozen=True, repr=False)
class MetaAnalysisResult(_ScaledInterval):
    """A random-effects meta-analysis (one estimate per study or centre).

    ``confidence_interval()`` is the interval of the pooled mean,
    ``metric="statistic"`` (its only one), by ``method="wald"``: the normal
    quantile, or :math:`t_{k-1}` with Knapp-Hartung, on the pooling scale,
    back on the natural scale (metafor's ``ci.lb``, ``ci.ub``).

    Attributes
    ----------
    estimate : float
        The pooled mean, back on the natural scale.
    pooled_scale : float
        :math:`\\hat\\mu` on the pooling scale.
    standard_error : float
        Its standard error on the pooling scale.
    tau2 : float
        The between-study variance :math:`\\hat\\tau^2` (pooling scale).
    i2 : float
        :math:`I^2` in percent (metafor's definition).
    h2 : float
        :math:`H^2`.
    q : float
        Cochran's :math:`Q`.
    q_pvalue : float
        Its p-value (:math:`\\chi^2_{k-1}`).
    k : int
        The number of studies.
    tau2_method : str
        The estimator of :math:`\\tau^2`.
    transform : str
        The pooling scale.
    test : str
        ``"z"`` or ``"knha"`` (Knapp-Hartung).
    confidence_level : float
        The level asked for when fitting (the interval methods take theirs
        as an argument, 0.95 by default).

    Examples
    --------
    >>> from skbrier.stats import random_effects_meta
    >>> res = random_effects_meta([0.9, 1.1, 1.3, 0.8], [0.01, 0.02, 0.015, 0.012])
    >>> round(res.estimate, 3), round(res.tau2, 4)
    (1.017, 0.036)
    """

    estimate: float
    pooled_scale: float
    standard_error: float
    tau2: float
    i2: float
    h2: float
    q: float
    q_pvalue: float
    k: int
    tau2_method: str
    transform: Transform
    test: str
    confidence_level: float = 0.95

    def _interval_parts(self, level: float) -> tuple[float, float, Transform]:
        half = self._crit(level, self.k - 1) * self.standard_error
        return self.pooled_scale, half, self.transform

    def _crit(self, level: float, df: int) -> float:
        if self.test == "knha":
            return float(stats.t.ppf(0.5 + level / 2.0, df))
        return float(stats.norm.ppf(0.5 + level / 2.0))

    def prediction_interval(
        self,
        confidence_level: float = 0.95,
        *,
        distribution: Literal["metafor", "t"] = "metafor",
    ) -> ConfidenceInterval:
        """Where the statistic of a new centre is expected to lie.

        :math:`\\hat\\mu \\pm c \\sqrt{\\mathrm{SE}^2 + \\hat\\tau^2}`, back-transformed.

        Parameters
        ----------
        confidence_level : float, default=0.95
            The level, in (0, 1).
        distribution : {"metafor", "t"}, default="metafor"
            ``"metafor"``: :math:`c` as ``predict.rma`` (normal for
            ``test="z"``, :math:`t_{k-1}` for Knapp-Hartung); ``"t"``: the
            :math:`t_{k-2}` of Higgins, Thompson and Spiegelhalter (2009) and
            Riley et al. (2011).

        Returns
        -------
        ConfidenceInterval

        Examples
        --------
        >>> from skbrier.stats import random_effects_meta
        >>> res = random_effects_meta([0.9, 1.1, 1.3, 0.8], [0.01, 0.02, 0.015, 0.012])
        >>> res.prediction_interval(distribution="t").low < res.confidence_interval().low
        True
        """
        level = check_confidence_level(confidence_level)
        distribution = check_option(distribution, "distribution", ("metafor", "t"))
        if distribution == "t":
            if self.k < 3:
                raise ValueError(
                    "a t prediction interval needs at least 3 studies (k - 2 df)."
                )
            crit = float(stats.t.ppf(0.5 + level / 2.0, self.k - 2))
        else:
            crit = self._crit(level, self.k - 1)
        half = crit * math.sqrt(self.standard_error**2 + self.tau2)
        return scaled_interval(self.pooled_scale, half, self.transform)


@backends(
    arrays=("estimates", "variances"),
    namespace_of="estimates",
    dask=Refused(
        "the heterogeneity is estimated from every study at once (one estimate per "
        "study); pass the estimates as numpy arrays (e.g. .compute())"
    ),
    array_api=HOST,
)
def random_effects_meta(
    estimates: ArrayLike,
    variances: ArrayLike,
    *,
    tau2_method: Literal["REML", "ML", "DL"] = "REML",
    transform: Transform = "identity",
    test: Literal["z", "knha"] = "z",
    confidence_level: float = 0.95,
) -> MetaAnalysisResult:
    r"""Random-effects meta-analysis of one statistic over studies or centres.

    With estimates :math:`y_i` and within-study variances :math:`v_i` (on
    the pooling scale), :math:`y_i \sim N(\mu, v_i + \tau^2)`; :math:`\tau^2`
    is estimated by restricted maximum likelihood (REML), maximum
    likelihood or DerSimonian-Laird, and

    .. math::

        \hat\mu = \frac{\sum_i w_i y_i}{\sum_i w_i}, \quad
        w_i = \frac{1}{v_i + \hat\tau^2}, \quad
        \mathrm{SE}(\hat\mu) = \Big(\sum_i w_i\Big)^{-1/2}.

    Parameters
    ----------
    estimates : array-like of shape (k,)
        One estimate per study, on the natural scale.
    variances : array-like of shape (k,)
        Their variances (squared standard errors), natural scale; moved to
        the pooling scale by the delta method.
    tau2_method : {"REML", "ML", "DL"}, default="REML"
        The estimator of :math:`\tau^2` (metafor's ``method``, whose
        default is REML; ``method`` is the interval method in skbrier).
    transform : {"identity", "logit", "log"}, default="identity"
        The pooling scale (logit for a C statistic, log for O/E).
    test : {"z", "knha"}, default="z"
        Normal intervals, or the Knapp-Hartung adjustment with :math:`t_{k-1}`.
    confidence_level : float, default=0.95
        Stored on the result as ``confidence_level``; its interval methods
        take their own level (0.95 unless given).

    Returns
    -------
    MetaAnalysisResult
        With ``confidence_interval()`` and ``prediction_interval()``.

    Raises
    ------
    ValueError
        Fewer than 2 studies, non-finite values, non-positive variances or
        estimates outside the transform's domain.

    Notes
    -----
    Equal to ``metafor::rma(yi, vi, method=tau2_method, test=...)`` (its iterative
    REML and ML stop at ``threshold = 1e-5``; these solve the likelihood
    equation to machine precision, which ``control = list(threshold =
    1e-12)`` reproduces).  :math:`I^2` and :math:`H^2` use metafor's
    typical within-study variance.

    metamisc's ``valmeta`` pools with ``rma`` too, with ``test="knha"`` by
    default and always the :math:`t_{k-2}` prediction interval: its
    ``est``, ``ci.lb``, ``ci.ub``, ``pi.lb``, ``pi.ub`` are ``estimate``,
    ``confidence_interval(level)`` and ``prediction_interval(level,
    distribution="t")`` of ``random_effects_meta(..., test="knha")``, with
    O/E (``transform="log"``, its ``"normal/log"``) from O, E and N given
    the variance :math:`O(1 - O/N)/E^2` and C (``"logit"``) its squared
    standard error.

    References
    ----------
    .. [1] W. Viechtbauer, "Conducting meta-analyses in R with the metafor
       package", J Stat Softw 36(3), 2010.
    .. [2] R. D. Riley, J. P. T. Higgins and J. J. Deeks, "Interpretation of
       random effects meta-analyses", BMJ 342, d549, 2011.
    .. [3] T. P. A. Debray et al., "A guide to systematic review and
       meta-analysis of prediction model performance", BMJ 356, i6460, 2017.

    Examples
    --------
    >>> from skbrier.stats import random_effects_meta
    >>> res = random_effects_meta([0.72, 0.68, 0.75, 0.70],
    ...                           [0.0004, 0.0006, 0.0005, 0.0003], transform="logit")
    >>> round(res.estimate, 3)
    0.712
    """
    tau2_method = check_option(tau2_method, "tau2_method", _METHODS)
    transform = check_option(transform, "transform", TRANSFORMS)
    test = check_option(test, "test", ("z", "knha"))
    level = check_confidence_level(confidence_level)
    y, v = check_estimates(
        estimates,
        variances,
        transform,
        what="studies",
        zero_variance=False,
        hint=(
            " (a centre with a single outcome class has no C statistic or "
            "calibration slope: leave it out)."
        ),
    )
    # the model is equivariant in the scale (y / c, v / c**2 give mu / c,
    # tau2 / c**2, se / c): a power of 2 near the typical standard error
    # (exact in floating point) keeps 1 / v and its squares finite for
    # variances as small as 1e-300 or as large as 1e300
    c = math.ldexp(1.0, round(math.log2(float(np.median(v))) / 2.0))
    lowest, highest = float(v.min()), float(v.max())
    y, v = y / c, v / (c * c)
    if not (v.min() > 0.0 and np.isfinite(v).all() and np.isfinite(1.0 / v).all()):
        raise ValueError(
            f"variances range from {format_number(lowest)} to "
            f"{format_number(highest)}: too wide a range to pool in "
            "float64 (the weights 1 / variance under- or overflow). Check that "
            "variances holds the squared standard errors of comparable estimates."
        )
    k = y.shape[0]
    try:
        with np.errstate(over="raise"):
            tau2 = _tau2(y, v, tau2_method)
            mu, w = _fixed(y, v, tau2)
        if not math.isfinite(float(tau2) * c * c):  # back on the estimates' scale
            raise FloatingPointError
    except FloatingPointError:  # tau2, of order the squared spread, overflows
        raise too_wide_to_pool(float(np.ptp(y)) * c, c, "study") from None
    se = math.sqrt(1.0 / w.sum())
    if test == "knha":
        se *= math.sqrt(max(float(np.dot(w, (y - mu) ** 2)) / (k - 1), 0.0))
    w0 = 1.0 / v
    mu0 = float(np.dot(w0, y) / w0.sum())
    cochran = float(np.dot(w0, (y - mu0) ** 2))
    s2 = (k - 1) * float(w0.sum()) / _cross_sum(w0)
    mu, se, tau2, s2 = mu * c, se * c, tau2 * c * c, s2 * c * c
    return MetaAnalysisResult(
        estimate=from_scale(mu, transform),
        pooled_scale=mu,
        standard_error=se,
        tau2=tau2,
        i2=float(100.0 * tau2 / (tau2 + s2)),
        h2=float((tau2 + s2) / s2),
        q=cochran,
        q_pvalue=float(stats.chi2.sf(cochran, k - 1)),
        k=k,
        tau2_method=tau2_method,
        transform=transform,
        test=test,
        confidence_level=level,
    )


@dataclasses.dataclass(frozen=True, repr=False)
class ClusteredValidationResult(_PooledMeasures):
    """Validation measures per centre and their random-effects meta-analyses.

    ``confidence_interval(metric=...)`` is the interval of the pooled mean of
    one measure, ``"c_statistic"`` (the default), ``"observed_expected"``,
    ``"calibration_in_the_large"``, ``"calibration_intercept"``,
    ``"calibration_slope"`` or ``"brier_score"``, by ``method="wald"`` (the
    interval of its :class:`MetaAnalysisResult`).

    Attributes
    ----------
    clusters : ndarray
        The centres, in sorted order.
    n, events : ndarray
        The (weighted) number of patients and of events per centre.
    per_cluster : dict of str to ndarray
        Each measure per centre (NaN where a centre cannot give it, e.g. a
        single outcome class).
    per_cluster_variance : dict of str to ndarray
        Their variances.
    pooled : dict of str to MetaAnalysisResult
        The meta-analysis of each measure over the centres that give it.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats import clustered_validation
    >>> rng = np.random.default_rng(0)
    >>> centre = np.repeat(["A", "B", "C", "D"], 150)
    >>> p = rng.uniform(0.05, 0.9, 600)
    >>> y = (rng.uniform(size=600) < p).astype(int)
    >>> res = clustered_validation(y, p, groups=centre)
    >>> res.pooled["c_statistic"].k
    4
    """

    clusters: np.ndarray
    n: np.ndarray
    events: np.ndarray
    per_cluster: dict
    per_cluster_variance: dict
    pooled: dict

    def to_frame(self) -> Any:
        """One row per centre and measure, then the pooled rows (needs pandas)."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        rows = []
        for i, c in enumerate(self.clusters.tolist()):
            row: dict[str, Any] = {"cluster": c, "n": self.n[i], "events": self.events[i]}
            row.update({m: self.per_cluster[m][i] for m in self.per_cluster})
            rows.append(row)
        pooled: dict[str, Any] = {
            "cluster": "pooled",
            "n": self.n.sum(),
            "events": self.events.sum(),
        }
        pooled.update({m: r.estimate for m, r in self.pooled.items()})
        rows.append(pooled)
        return pd.DataFrame(rows)


#: the refusal of Dask input by clustered_validation
_CLUSTERS_IN_MEMORY = Refused(
    "each cluster's statistics are computed on its rows in memory; compute it "
    "on the collected rows (e.g. ddf.compute())"
)


@backends(
    arrays=("y_true", "y_proba", "groups", "sample_weight"),
    dask=_CLUSTERS_IN_MEMORY,
    array_api=HOST,
)
@shared_doc
def clustered_validation(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    groups: ArrayLike,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    tau2_method: Literal["REML", "ML", "DL"] = "REML",
    test: Literal["z", "knha"] = "z",
    confidence_level: float = 0.95,
) -> ClusteredValidationResult:
    r"""Validation measures per centre, pooled by random-effects meta-analysis.

    In each centre (a value of ``groups``): the C statistic (DeLong
    variance), O/E, calibration in the large, the calibration intercept and
    slope, and the Brier score; then :func:`random_effects_meta` of each
    measure over the centres, C on the logit scale and O/E on the log scale
    (Debray et al. 2017), with prediction intervals for a new centre.

    Parameters
    ----------
    {{binary_inputs}}
    groups : array-like of shape (n_samples,)
        The centre (cluster) of each sample.
    tau2_method : {"REML", "ML", "DL"}, default="REML"
        The estimator of the between-centre variance :math:`\tau^2`.
    test : {"z", "knha"}, default="z"
        Normal intervals or Knapp-Hartung.
    {{confidence_level}}

    Returns
    -------
    ClusteredValidationResult

    Raises
    ------
    ValueError
        Fewer than 2 centres that give a measure, or the usual input errors.

    See Also
    --------
    random_effects_meta : the meta-analysis of any statistic.

    Notes
    -----
    A centre whose rows hold a single outcome class has no C statistic and
    no calibration fit: it is left out of those meta-analyses (and counted
    in the others), as ``metamisc::valmeta`` does; so is a centre whose
    forecasts separate its outcomes (C = 1 with no variance, an infinite
    slope) from the C, intercept and slope, with a RuntimeWarning naming
    it.  ``test="knha"`` and
    ``prediction_interval(distribution="t")`` of the pooled O/E and C give
    valmeta's default numbers (see :func:`random_effects_meta`).

    References
    ----------
    .. [1] T. P. A. Debray et al., BMJ 356, i6460, 2017.
    .. [2] R. D. Riley et al., "External validation of clinical prediction
       models using big datasets from e-health records or IPD meta-analysis",
       BMJ 353, i3140, 2016.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats import clustered_validation
    >>> rng = np.random.default_rng(0)
    >>> centre = np.repeat(["A", "B", "C", "D", "E"], 200)
    >>> p = rng.uniform(0.05, 0.9, 1000)
    >>> y = (rng.uniform(size=1000) < p).astype(int)
    >>> res = clustered_validation(y, p, groups=centre)
    >>> round(res.pooled["calibration_slope"].estimate, 2)
    1.0
    """
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    labels, codes = check_groups(groups, y.shape[0])
    if len(labels) < 2:
        raise ValueError("groups holds a single centre: a meta-analysis needs at least 2.")
    ww = np.ones_like(p) if w is None else w
    n = np.bincount(codes, weights=ww, minlength=len(labels))
    events = np.bincount(codes, weights=ww * y, minlength=len(labels))

    def centre(j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
        if not 0 < events[j] < n[j]:  # a single outcome class gives no C and no fit
            return None
        rows = codes == j
        return y[rows], p[rows], None if w is None else w[rows]

    est, var = measures_of_parts(centre(j) for j in range(len(labels)))
    pooled = {}
    both = (events > 0) & (events < n)
    undefined = {name: both & ~poolable(est[name], var[name]) for name, _ in MEASURES}
    left = np.logical_or.reduce(list(undefined.values()))
    if left.any():
        pos = ww > 0.0
        low = np.full(len(labels), np.inf)
        high = np.full(len(labels), -np.inf)
        np.minimum.at(low, codes[pos], p[pos])
        np.maximum.at(high, codes[pos], p[pos])
        varies = high > low
        names = np.asarray(labels)
        causes = [
            f"the forecasts of the centres {names[left & (varies == v)].tolist()} "
            f"{NOT_POOLABLE[v]}"
            for v in (True, False)
            if (left & (varies == v)).any()
        ]
        warnings.warn(
            "groups: "
            + "; ".join(causes)
            + ", so their "
            + ", ".join(name for name, bad in undefined.items() if bad.any())
            + " are left out of those pooled estimates.",
            RuntimeWarning,
            stacklevel=2,
        )
    for name, transform in MEASURES:
        ok = poolable(est[name], var[name])
        if np.count_nonzero(ok) < 2:
            raise ValueError(
                f"groups: {np.count_nonzero(ok)} of {len(labels)} centres give a "
                f"{name} (a centre needs both outcome classes, forecasts that vary "
                "and no separation); a meta-analysis needs at least 2. Merge the "
                "small centres or validate without groups."
            )
        pooled[name] = random_effects_meta(
            est[name][ok],
            var[name][ok],
            tau2_method=tau2_method,
            transform=transform,
            test=test,
            confidence_level=confidence_level,
        )
    return ClusteredValidationResult(
        clusters=np.asarray(labels),
        n=n,
        events=events,
        per_cluster=est,
        per_cluster_variance=var,
        pooled=pooled,
    )
