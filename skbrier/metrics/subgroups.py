"""Calibration per group: is the model calibrated in every subgroup?

:func:`calibration_by_group` gives, per group, the validation measures with
their variances (:func:`skbrier.stats._validation_measures.validation_measures`,
the one home shared with the pooling across centres and imputations), the
integrated calibration index of the lowess curve, the cumulative
calibration test (:func:`~skbrier.metrics.cumulative.cumulative_calibration`),
Holm-adjusted p-values across groups, the worst group, and Cochran's test of
heterogeneity of O/E across groups
(:func:`~skbrier.stats.random_effects_meta`).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._core.arrays import validated
from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.format import format_number
from .._core.kernels.calibration import lowess_calibration
from .._core.kernels.cumulative import holm, order_by_part
from .._core.labels import check_groups
from .._core.optional import import_optional
from .._core.params import check_confidence_level, check_min_samples
from .._core.results import ConfidenceInterval, _IntervalResult, to_builtin
from .._core.validation import binary_forecast
from ..stats._validation_measures import (
    MEASURES,
    Transform,
    from_scale,
    to_scale,
    validation_measures,
)
from ..stats.meta_analysis import MetaAnalysisResult, random_effects_meta
from ._flexible_fit import curve_summaries, frequency_lowess_knots
from .calibration import lowess_calibration_error
from .cumulative import _cumulative

__all__ = ["GroupCalibrationResult", "calibration_by_group"]

#: the tests per group: the measure, and its value under calibration
_TESTS = {"observed_expected": 1.0, "calibration_slope": 1.0}
_TRANSFORMS = dict(MEASURES)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class GroupCalibrationResult(_IntervalResult):
    r"""Calibration measures per group, their tests and their heterogeneity.

    Returned by :func:`~skbrier.metrics.subgroups.calibration_by_group`; not
    meant to be built by hand.  ``confidence_interval(metric=...)`` gives the
    Wald intervals of one measure, one bound per group (NaN where the group
    gives no estimate): ``"observed_expected"`` (the default, on the log
    scale), ``"c_statistic"`` (logit scale), ``"calibration_in_the_large"``,
    ``"calibration_intercept"``, ``"calibration_slope"`` or
    ``"brier_score"``.

    Attributes
    ----------
    groups : ndarray
        The groups, sorted.
    n : ndarray
        Rows per group.
    weight : ndarray
        Total weight per group (``n`` without weights).
    events : ndarray
        Weighted number of events per group.
    estimates : dict of str to ndarray
        Per group: ``observed_expected`` (O/E), ``calibration_in_the_large``,
        ``calibration_intercept``, ``calibration_slope``, ``brier_score``,
        ``c_statistic``, ``ici`` (the mean absolute difference between the
        forecasts and the lowess calibration curve, that of the repeated rows
        with integer weights; NaN with other weights) and
        ``gap`` (the observed event rate minus the mean forecast).  NaN in a
        group with a single outcome class (no fit there).
    variances : dict of str to ndarray
        The variances of the first six estimates.
    pvalues : dict of str to ndarray
        Per group: ``observed_expected`` (Wald test of O/E = 1 on the log
        scale), ``calibration_slope`` (Wald test of slope = 1) and
        ``cumulative`` (the Kuiper test of
        :func:`~skbrier.metrics.cumulative_calibration`).
    pvalues_holm : dict of str to ndarray
        The same, Holm-adjusted across the groups (each test separately).
    heterogeneity : MetaAnalysisResult or None
        The random-effects meta-analysis of log O/E over the groups; its
        ``q`` and ``q_pvalue`` are Cochran's test that O/E is the same in
        every group, ``i2`` the share of the variation due to heterogeneity.
        None with fewer than two groups that give O/E.
    worst_group : object
        The group with the largest absolute ``gap``.
    worst_group_gap : float
        Its gap (observed rate minus mean forecast).
    confidence_level : float
        The default level of the intervals.
    cumulative : CumulativeCalibrationResult
        :func:`~skbrier.metrics.cumulative_calibration` of all the rows with
        ``groups``: the whole sample's tests and, in ``by_group``, each
        group's (whose Kuiper p-values are ``pvalues["cumulative"]``).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics import calibration_by_group
    >>> rng = np.random.default_rng(0)
    >>> sex = rng.choice(["F", "M"], 3000)
    >>> p = rng.uniform(0.05, 0.6, 3000)
    >>> y = rng.uniform(size=3000) < np.where(sex == "M", 1.3 * p, p)
    >>> res = calibration_by_group(y, p, groups=sex)
    >>> res.worst_group, bool(res.heterogeneity.q_pvalue < 0.05)
    ('M', True)
    """

    groups: np.ndarray
    n: np.ndarray
    weight: np.ndarray
    events: np.ndarray
    estimates: dict
    variances: dict
    pvalues: dict
    pvalues_holm: dict
    heterogeneity: MetaAnalysisResult | None
    worst_group: Any
    worst_group_gap: float
    confidence_level: float = 0.95
    cumulative: Any = None

    _interval_metrics: ClassVar[tuple[str, ...]] = tuple(name for name, _ in MEASURES)
    _interval_methods: ClassVar[tuple[str, ...]] = ("wald",)

    def _summary_rows(self) -> list[tuple[str, str]]:
        het = self.heterogeneity
        rows = [
            ("n_groups", str(len(self.groups))),
            ("worst_group", str(self.worst_group)),
            ("worst_group_gap", format_number(self.worst_group_gap)),
            ("heterogeneity_q", format_number(het.q if het else math.nan)),
            ("heterogeneity_pvalue", format_number(het.q_pvalue if het else math.nan)),
            ("i2", format_number(het.i2 if het else math.nan)),
        ]
        for test, p in self.pvalues_holm.items():
            rows.append((f"min_pvalue_holm_{test}", format_number(_nanmin(p))))
        return rows

    def _default_metric(self) -> str:
        return "observed_expected"

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        z = float(stats.norm.ppf(0.5 + level / 2.0))
        transform = _TRANSFORMS[metric]
        with np.errstate(all="ignore"):
            q, u = to_scale(self.estimates[metric], self.variances[metric], transform)
            half = z * np.sqrt(u)
        low = np.array([from_scale(v, transform) for v in q - half])
        high = np.array([from_scale(v, transform) for v in q + half])
        return ConfidenceInterval(low, high)

    def to_frame(self) -> Any:
        """One row per group (needs pandas).

        Columns: ``group``, ``n``, ``weight``, ``events``, the estimates, the
        bounds of the intervals of O/E and the slope (at
        ``confidence_level``), the p-values and their Holm adjustments.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import numpy as np
        >>> from skbrier.metrics import calibration_by_group
        >>> rng = np.random.default_rng(2)
        >>> p = rng.uniform(0.1, 0.9, 600)
        >>> y = rng.uniform(size=600) < p
        >>> calibration_by_group(y, p, groups=np.arange(600) % 3).to_frame().shape
        (3, 22)
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        frame: dict[str, Any] = {
            "group": to_builtin(self.groups),
            "n": self.n,
            "weight": self.weight,
            "events": self.events,
            **self.estimates,
        }
        for metric in _TESTS:
            lo, hi = self.confidence_interval(self.confidence_level, metric=metric)
            frame[f"{metric}_low"], frame[f"{metric}_high"] = lo, hi
        for test in self.pvalues:
            frame[f"pvalue_{test}"] = self.pvalues[test]
            frame[f"pvalue_holm_{test}"] = self.pvalues_holm[test]
        return pd.DataFrame(frame)


def _nanmin(a: np.ndarray) -> float:
    return float(np.nanmin(a)) if np.isfinite(a).any() else math.nan


def _frequency_ici(y: np.ndarray, p: np.ndarray, w: np.ndarray) -> float:
    """Eavg of the lowess curve of frequency weights ``w`` (the repeated rows'),
    NaN for weights that are not integers (lowess has no weights)."""
    try:
        kx, ky = frequency_lowess_knots(p, y, w)
    except ValueError:
        return math.nan
    return float(curve_summaries(p, np.interp(p, kx, ky), w)[0])


def _wald_pvalue(
    estimate: np.ndarray, variance: np.ndarray, null: float, transform: Transform
) -> np.ndarray:
    """Two-sided Wald p-values of ``estimate = null``, on the pooling scale."""
    with np.errstate(all="ignore"):
        q, u = to_scale(estimate, variance, transform)
        q0 = to_scale(np.array([null]), np.array([1.0]), transform)[0]
        z = (q - q0) / np.sqrt(u)
    return 2.0 * stats.norm.sf(np.abs(z))


@shared_doc
@backends(
    arrays=("y_true", "y_proba", "sample_weight", "groups"),
    dask=Refused(
        "the per-group fits and the cumulative test need each group's rows in "
        "memory; compute on the collected rows (e.g. ddf.compute())"
    ),
    array_api=HOST,
)
def calibration_by_group(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    groups: ArrayLike,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_level: float = 0.95,
) -> GroupCalibrationResult:
    r"""Calibration in every group: measures, tests, the worst group, heterogeneity.

    Per group (a value of ``groups``: a subgroup, a site, a protected
    attribute): the number of rows and of events, O/E (observed over
    expected events), calibration in the large, the calibration intercept
    and slope, the Brier score and the C statistic, each with its variance
    (as :func:`skbrier.stats.clustered_validation` computes them), the
    integrated calibration index (ICI, the mean absolute difference between
    the forecasts and the lowess calibration curve, as
    :func:`lowess_calibration_error`'s ``eavg``), the gap between the
    observed event rate and the mean forecast, and three tests of
    calibration: O/E = 1, slope = 1, and the Kuiper test of the group's
    cumulative difference curve (:func:`cumulative_calibration`).  Their
    p-values are Holm-adjusted across the groups (each test separately),
    and the worst group is the one with the largest absolute gap.

    Heterogeneity: Cochran's :math:`Q = \sum_g (\log \mathrm{O/E}_g -
    \overline{\log \mathrm{O/E}})^2 / v_g` over the groups, with :math:`v_g
    = (1 - O_g / N_g) / O_g` the variance of :math:`\log \mathrm{O/E}_g` and
    the inverse-variance mean, is :math:`\chi^2_{G-1}` when O/E is the same
    in every group (Cochran 1954; the heterogeneity of O/E across clusters
    of Debray et al. 2017), with the random-effects meta-analysis
    (:math:`\tau^2`, :math:`I^2`) of :func:`skbrier.stats.random_effects_meta`.

    Parameters
    ----------
    {{binary_inputs}}
    groups : array-like of shape (n_samples,)
        The group of each sample.
    {{confidence_level}}

    Returns
    -------
    GroupCalibrationResult
        With ``to_frame()`` (one row per group) and ``confidence_interval()``.

    Raises
    ------
    ValueError
        Fewer than 3 observations, or the usual input errors.

    See Also
    --------
    skbrier.stats.clustered_validation : The same measures pooled across
        centres by random-effects meta-analysis.
    cumulative_calibration : The cumulative tests per group, with the curve.
    multicalibration_error : The worst group over several segmenting columns.

    Notes
    -----
    A group with a single outcome class has no calibration fit and no C
    statistic: its measures are NaN and it is left out of the O/E and slope
    tests, their Holm adjustments and Cochran's :math:`Q` (as
    ``metamisc::valmeta`` leaves such clusters out).  The lowess curve has
    no weights: with integer ``sample_weight`` (frequency weights) ``ici`` is
    that of the repeated rows (as for :func:`flexible_calibration_curve`
    with ``smoother="lowess"``); other weights give NaN.

    References
    ----------
    .. [1] W. G. Cochran, "The combination of estimates from different
       experiments", Biometrics 10, 101-129, 1954.
    .. [2] T. P. A. Debray et al., "A guide to systematic review and
       meta-analysis of prediction model performance", BMJ 356, i6460, 2017.
    .. [3] S. Holm, Scand J Statist 6, 65-70, 1979.
    .. [4] P. C. Austin and E. W. Steyerberg, "The Integrated Calibration
       Index (ICI)", Statistics in Medicine 38, 4051-4065, 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics import calibration_by_group
    >>> rng = np.random.default_rng(0)
    >>> site = rng.choice(["A", "B", "C"], 3000)
    >>> p = rng.uniform(0.05, 0.6, 3000)
    >>> y = rng.uniform(size=3000) < np.where(site == "C", 1.4 * p, p)
    >>> res = calibration_by_group(y, p, groups=site)
    >>> res.worst_group, res.pvalues_holm["observed_expected"].round(3)
    ('C', array([0.442, 0.442, 0.   ]))
    """
    level = check_confidence_level(confidence_level)
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    labels, codes = check_groups(groups, y.shape[0])
    total = float(y.shape[0] if w is None else w.sum())
    check_min_samples(
        y.shape[0], None if w is None else total, purpose="calibration by group"
    )
    k = len(labels)
    n = np.bincount(codes, minlength=k)
    weight = n.astype(np.float64) if w is None else np.bincount(codes, w, minlength=k)
    events = np.bincount(codes, y if w is None else w * y, minlength=k)
    forecast = np.bincount(codes, p if w is None else w * p, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        gap = (events - forecast) / weight
    est = {name: np.full(k, np.nan) for name, _ in MEASURES}
    var = {name: np.full(k, np.nan) for name, _ in MEASURES}
    ici = np.full(k, np.nan)
    order = order_by_part(codes, k)
    bounds = np.r_[0, np.cumsum(n)]
    # rows sorted by forecast (as the report passes them) leave every group
    # sorted: its lowess curve and C statistic skip their sorts
    presorted = bool(np.all(p[1:] >= p[:-1]))
    for j in range(k):
        rows = order[bounds[j] : bounds[j + 1]]
        yj, pj, wj = y[rows], p[rows], None if w is None else w[rows]
        if not 0.0 < events[j] < weight[j]:
            continue  # a single outcome class: no fit, no C statistic
        with validated(yj, pj, wj):
            try:
                measures = validation_measures(yj, pj, wj, presorted=presorted)
            except ValueError:  # e.g. every forecast of the group is 0 or 1
                continue
            if wj is None:
                ici[j] = (
                    lowess_calibration(yj, pj, sorted_yp=(yj, pj))[2]
                    if presorted
                    else lowess_calibration_error(yj, pj).eavg
                )
            else:
                ici[j] = _frequency_ici(yj, pj, wj)
        for name, (e, v) in measures.items():
            est[name][j], var[name][j] = e, v
    # the groups of the cumulative tests are the codes (its by_group indexes
    # them); each group's rows in forecast order are, with sorted rows, the
    # order of the loop above
    part_order = order if presorted else None
    cumulative = _cumulative(y, p, w, np.arange(k), codes, "paper", part_order)
    assert cumulative.by_group is not None
    kuiper_p = np.full(k, np.nan)
    kuiper_p[np.asarray(cumulative.groups)] = cumulative.by_group["kuiper_pvalue"]
    fitted = np.isfinite(est["calibration_slope"])
    pvalues = {
        name: np.where(
            fitted, _wald_pvalue(est[name], var[name], null, _TRANSFORMS[name]), np.nan
        )
        for name, null in _TESTS.items()
    }
    pvalues["cumulative"] = kuiper_p
    ok = np.isfinite(est["observed_expected"]) & (var["observed_expected"] > 0)
    heterogeneity = (
        random_effects_meta(
            est["observed_expected"][ok],
            var["observed_expected"][ok],
            transform="log",
            confidence_level=level,
        )
        if ok.sum() >= 2
        else None
    )
    worst = int(np.nanargmax(np.abs(gap)))
    return GroupCalibrationResult(
        groups=np.asarray(labels),
        n=n,
        weight=weight,
        events=events,
        estimates={**est, "ici": ici, "gap": gap},
        variances=var,
        pvalues=pvalues,
        pvalues_holm={name: holm(v) for name, v in pvalues.items()},
        heterogeneity=heterogeneity,
        worst_group=labels[worst].item()
        if isinstance(labels[worst], np.generic)
        else labels[worst],
        worst_group_gap=float(gap[worst]),
        confidence_level=level,
        cumulative=cumulative,
    )
