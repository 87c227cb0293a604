"""Calibration and decision curves of predicted risk at one horizon (censored outcomes)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from scipy.stats import norm

from .._core.binning import assign_bins, quantile_edges, uniform_edges
from .._core.format import format_number
from .._core.kernels.net_benefit import ClassShares, decision_finish
from .._core.optional import import_optional
from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
    check_confidence_level,
    check_min_samples,
    check_n_bins,
    check_option,
)
from .._core.results import Result
from ..metrics._decision_curve import DEFAULT_THRESHOLDS, DecisionCurveResult
from ..metrics.net_benefit import _check_curve_thresholds
from . import _pseudo_math as pm
from . import _survival_math as sm
from ._checks import (
    SurvivalData,
    check_horizons,
    check_survival_outcome,
    check_survival_proba,
    survival_matrix,
)
from ._prepare import HORIZON_ARRAYS, declare_survival, unpack

__all__ = ["SurvivalCalibrationResult", "calibration_at_horizon", "decision_curve_survival"]


def _km_risk_at(
    data: SurvivalData, mask: np.ndarray, horizon: float, *, strict: bool = False
) -> float:
    """1 - Kaplan--Meier survival at ``horizon`` within ``mask``.

    NaN when the group has no one, or when its follow-up ends before the
    horizon with the curve still above 0 (``strict``: whenever its follow-up
    ends before the horizon, as dcurves).
    """
    if not mask.any():
        return float("nan")
    km = sm.kaplan_meier(data.time[mask], data.event[mask], data.weight[mask])
    if km.times[-1] < horizon and (strict or km.surv[-1] > 0):
        return float("nan")
    return float(1.0 - sm.step_at(km, np.array([horizon]))[0])


def risk_of_survival(surv: np.ndarray) -> np.ndarray:
    """Predicted risk ``1 - S`` rounded to 15 decimals: the decimal a survival
    forecast stands for (``1 - 0.9`` is 0.09999999999999998 in binary floating
    point), so that a forecast on a bin edge or a threshold lies on the side of
    the decimal, as the risk itself would (a change of at most 5e-16)."""
    return np.round(1.0 - surv, 15)


def _one_horizon(
    y_event: Any, y_time: Any, surv_proba: Any, horizon: Any, sample_weight: Any
) -> tuple[SurvivalData, np.ndarray, float]:
    if horizon is None:
        raise TypeError("horizon must be given (the time point of the predictions).")
    if isinstance(horizon, (str, bytes)) or np.ndim(horizon) != 0:
        raise TypeError(f"horizon must be one number, got {horizon!r}.")
    data = check_survival_outcome(y_event, y_time, sample_weight=sample_weight)
    t = check_horizons(horizon, data, name="horizon")
    # survival functions (a fitted estimator's, see ``unpack``) are read at the horizon
    s = survival_matrix(surv_proba, t)
    s = np.asarray(s) if not isinstance(s, (str, bytes)) else s
    if isinstance(s, np.ndarray) and s.ndim == 2:
        if s.shape[1] != 1:
            raise ValueError(
                f"surv_proba must hold the survival probabilities at the one horizon, "
                f"shape (n_samples,); got shape {s.shape}: pass the column of the "
                "horizon, surv_proba[:, k]."
            )
        s = s[:, 0]
    risk = risk_of_survival(check_survival_proba(s, data.time.shape[0], 1)[:, 0])
    return data, risk, float(t[0])


@dataclasses.dataclass(frozen=True, repr=False)
class SurvivalCalibrationResult(Result):
    """Predicted against observed risk at a horizon, per bin of predicted risk.

    Built by :func:`calibration_at_horizon`; drawn by
    :class:`skbrier.survival.SurvivalCalibrationDisplay`.

    Attributes
    ----------
    horizon : float
        The horizon.
    predicted : ndarray
        Mean predicted risk ``1 - S(horizon | x)`` in each non-empty bin.
    observed : ndarray
        Observed risk in the bin: ``1 -`` Kaplan--Meier survival at the
        horizon within the bin (``censoring_method="km"``; NaN when the bin's
        follow-up ends before the horizon), or the mean pseudo-observation of
        the risk (``censoring_method="pseudo"``).
    bin_weight : ndarray
        Number (total weight) of subjects per bin.
    edges : ndarray
        Bin edges on the risk scale.
    observed_low, observed_high : ndarray
        Confidence limits of ``observed`` (Greenwood's variance with R
        survival's ``conf.type = "log"`` for ``"km"``; the normal interval of
        the mean pseudo-value for ``"pseudo"``); NaN where undefined.
    censoring_method : str
        How the observed risk was estimated under censoring: ``"km"`` or
        ``"pseudo"``.
    confidence_level : float
        Level of the limits.
    hist_edges, hist_weight : ndarray
        Histogram of the predicted risk (20 equal-width bins on [0, 1]).

    Examples
    --------
    >>> from skbrier.survival import calibration_at_horizon
    >>> res = calibration_at_horizon([1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6],
    ...                              [0.6, 0.9, 0.4, 0.5, 0.8, 0.3], 3.5, n_bins=2)
    >>> res.bin_weight
    array([4., 2.])
    """

    horizon: float
    predicted: np.ndarray
    observed: np.ndarray
    bin_weight: np.ndarray
    edges: np.ndarray
    observed_low: np.ndarray | None = None
    observed_high: np.ndarray | None = None
    censoring_method: str = "km"
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL
    hist_edges: np.ndarray | None = None
    hist_weight: np.ndarray | None = None

    _summary_fields: ClassVar[tuple[str, ...]] = ("horizon", "censoring_method")

    def to_frame(self) -> Any:
        """One row per bin as a :class:`pandas.DataFrame` (needs pandas)."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        return pd.DataFrame(
            {
                "predicted": self.predicted,
                "observed": self.observed,
                "observed_low": self.observed_low,
                "observed_high": self.observed_high,
                "bin_weight": self.bin_weight,
            }
        )


def _km_bin(
    data: SurvivalData, mask: np.ndarray, horizon: float, z: float
) -> tuple[float, float, float]:
    """(risk, low, high) of the Kaplan--Meier estimate within ``mask``; NaN
    where :func:`_km_risk_at` is."""
    if np.isnan(_km_risk_at(data, mask, horizon)):
        return float("nan"), float("nan"), float("nan")
    s, lo, hi = pm.km_log_interval(
        data.time[mask], data.event[mask], data.weight[mask], horizon, z
    )
    return 1.0 - s, 1.0 - hi, 1.0 - lo


def _pseudo_bin(
    pseudo_risk: np.ndarray, weight: np.ndarray, mask: np.ndarray, z: float
) -> tuple[float, float, float]:
    """(mean, low, high): weighted mean pseudo-risk with its normal interval."""
    w, p = weight[mask], pseudo_risk[mask]
    total = w.sum()
    mean = float(w @ p / total)
    if total <= 1.0:
        return mean, float("nan"), float("nan")
    var = float(w @ (p - mean) ** 2 / (total - 1.0))
    half = z * np.sqrt(var / total)
    return mean, mean - half, mean + half


@declare_survival(HORIZON_ARRAYS)
def calibration_at_horizon(
    y_event: Any,
    y_time: Any = None,
    surv_proba: Any = None,
    horizon: Any = None,
    *,
    n_bins: int = DEFAULT_N_BINS,
    strategy: str = DEFAULT_STRATEGY,
    censoring_method: str = "km",
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
    sample_weight: Any = None,
) -> SurvivalCalibrationResult:
    r"""Calibration of predicted risk at a horizon with censored outcomes.

    Subjects are binned by predicted risk :math:`\hat r_i = 1 - \hat S(t \mid x_i)`
    (skbrier's binning rule: bin ``k`` holds :math:`e_k < \hat r \le e_{k+1}`)
    and the mean predicted risk of each bin is set against an observed risk:

    * ``censoring_method="km"``: :math:`1 - \hat S_{KM}(t)`, the
      Kaplan--Meier estimate within the bin (riskRegression's
      ``cens.method = "local"``; with ``strategy="quantile"`` the grouped
      calibration of ``plotCalibration(..., method = "quantile")`` and of rms
      ``calibrate``), with Greenwood's variance
      :math:`\hat\sigma^2 = \sum_{u \le t} D(u) / (Y(u)(Y(u) - D(u)))` and
      the interval :math:`1 - \hat S_{KM}(t) e^{\mp z \hat\sigma}` (R
      survival's default ``conf.type = "log"``);
    * ``censoring_method="pseudo"``: the weighted mean, within the bin, of the
      jackknife pseudo-observations of the risk,
      :math:`1 - \theta_i` with
      :math:`\theta_i = W \hat S_{KM}(t) - (W - 1) \hat S_{KM}^{(-i)}(t)`
      computed on all subjects (Andersen, Klein & Rosthoj 2003; prodlim's
      ``jackknife``, riskRegression's ``cens.method = "jackknife"``), with the
      normal interval of the mean.  The leave-one-out estimates have a
      closed form, so this costs :math:`O(n \log n)`.

    Parameters
    ----------
    {{horizon_outcome}}
    surv_proba : array-like of shape (n_samples,)
        Predicted survival probability at ``horizon``.
    horizon : float
        The horizon: one time point of the survival outcome, within follow-up.
    n_bins : int, default=10
        Number of bins.
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width or equal-mass bins of predicted risk (the default of
        every binned statistic of skbrier; ``"quantile"`` gives the risk
        groups of riskRegression and rms, e.g. deciles with ``n_bins=10``).
    censoring_method : {"km", "pseudo"}, default="km"
        How the observed risk of a bin is estimated under censoring
        (riskRegression's ``cens.method``): Kaplan--Meier within the bin, or
        the mean of the pseudo-observations within the bin.
    confidence_level : float, default=0.95
        Level of the confidence limits of the observed risk.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (a pseudo-value leaves out one unit of a row): the
        total weight is the sample size, at least 3.

    Returns
    -------
    SurvivalCalibrationResult
        Per-bin predicted and observed risk with confidence limits.

    References
    ----------
    .. [1] Gerds, T. A. & Kattan, M. W. (2021). Medical Risk Prediction Models:
       With Ties to Machine Learning. Chapman and Hall/CRC, chapter 7.
    .. [2] Andersen, P. K., Klein, J. P. & Rosthoj, S. (2003). Generalised
       linear models for correlated pseudo-observations, with applications to
       multi-state models. Biometrika 90, 15--27.

    Examples
    --------
    >>> from skbrier.survival import calibration_at_horizon
    >>> res = calibration_at_horizon([1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6],
    ...                              [0.6, 0.9, 0.4, 0.5, 0.8, 0.3], 3.5, n_bins=2,
    ...                              strategy="quantile")
    >>> res.observed
    array([0.33333333, 0.33333333])
    >>> pseudo = calibration_at_horizon([1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6],
    ...                                 [0.6, 0.9, 0.4, 0.5, 0.8, 0.3], 3.5,
    ...                                 n_bins=2, strategy="quantile",
    ...                                 censoring_method="pseudo")
    >>> pseudo.observed.round(4)
    array([0.3889, 0.3611])
    """
    y_event, y_time, (surv_proba, horizon) = unpack(y_event, y_time, (surv_proba, horizon))
    k = check_n_bins(n_bins)
    check_option(strategy, "strategy", ("uniform", "quantile"))
    check_option(censoring_method, "censoring_method", ("km", "pseudo"))
    level = check_confidence_level(confidence_level)
    z = float(norm.ppf(0.5 + level / 2.0))
    data, risk, t = _one_horizon(y_event, y_time, surv_proba, horizon, sample_weight)
    check_min_samples(
        data.time.shape[0],
        None if sample_weight is None else float(data.weight.sum()),
        purpose="a calibration curve with confidence limits",
        name="y_time",
    )
    used = data.weight > 0
    edges = (
        quantile_edges(risk[used], data.weight[used], k)
        if strategy == "quantile"
        else uniform_edges(k)
    )
    bins = assign_bins(risk, edges)
    if censoring_method == "pseudo":
        pseudo_risk = 1.0 - pm.km_pseudo_values(
            data.time[used], data.event[used], data.weight[used], t
        )
        bins_used, w_used = bins[used], data.weight[used]
    rows = []
    for b in range(edges.shape[0] - 1):
        mask = (bins == b) & used
        w = data.weight[mask].sum()
        if w <= 0:
            continue
        pred = float(data.weight[mask] @ risk[mask] / w)
        if censoring_method == "km":
            obs = _km_bin(data, mask, t, z)
        else:
            obs = _pseudo_bin(pseudo_risk, w_used, bins_used == b, z)
        rows.append((pred, *obs, float(w)))
    table = np.array(rows, dtype=np.float64).reshape(-1, 5)
    hist_edges = np.linspace(0.0, 1.0, 21)
    hist_weight = np.histogram(risk[used], bins=hist_edges, weights=data.weight[used])[0]
    return SurvivalCalibrationResult(
        t,
        table[:, 0],
        table[:, 1],
        table[:, 4],
        edges,
        observed_low=table[:, 2],
        observed_high=table[:, 3],
        censoring_method=censoring_method,
        confidence_level=level,
        hist_edges=hist_edges,
        hist_weight=hist_weight.astype(np.float64),
    )


@declare_survival(HORIZON_ARRAYS)
def decision_curve_survival(
    y_event: Any,
    y_time: Any = None,
    surv_proba: Any = None,
    horizon: Any = None,
    *,
    thresholds: Any = None,
    sample_weight: Any = None,
) -> DecisionCurveResult:
    r"""Decision curve at a horizon for censored outcomes (dcurves ``dca(..., time=)``).

    A subject is "positive" at threshold :math:`p_t` when its predicted risk
    :math:`\hat r_i = 1 - \hat S(t \mid x_i) \ge p_t`.  The risk is rounded to 15
    decimals, so that a survival of 0.9 is the risk 0.1 at the threshold 0.1
    (in binary floating point ``1 - 0.9`` is 0.09999999999999998); the same
    risks are binned by :func:`calibration_at_horizon`.  With
    :math:`q = P(\hat r \ge p_t)` and :math:`\rho = 1 - \hat S_{KM}(t)` the
    Kaplan--Meier risk among the positives,

    .. math:: NB(p_t) = \rho q - (1 - \rho) q \frac{p_t}{1 - p_t},

    and treat-all uses the prevalence :math:`1 - \hat S_{KM}(t)` of everyone
    (Vickers et al. 2008).  As dcurves, the net benefit is NaN where the
    positives' follow-up ends before the horizon, and 0 where nobody is
    positive.

    Parameters
    ----------
    {{horizon_outcome}}
    surv_proba : array-like of shape (n_samples,) or dict of str to array-like
        Predicted survival probability at ``horizon`` (one model or a dict of models).
    horizon : float
        The horizon.
    thresholds : array-like, default=None
        Threshold probabilities in [0, 1) (0: everyone treated, as in
        :func:`skbrier.decision_curve` and dcurves); default ``0.01, 0.02, ..., 0.99``.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights.

    Returns
    -------
    DecisionCurveResult
        The decision curve (plot it with
        :meth:`skbrier.plotting.decision_curve.DecisionCurveDisplay.from_result`).

    Raises
    ------
    ValueError
        When no event occurs up to the horizon (a Kaplan--Meier risk of 0):
        the net benefit is undefined, as :func:`skbrier.decision_curve`
        refuses outcomes without events.

    References
    ----------
    .. [1] Vickers, A. J., Cronin, A. M., Elkin, E. B. & Gonen, M. (2008).
       Extensions to decision curve analysis, a novel method for evaluating
       diagnostic tests, prediction models and molecular markers. BMC Medical
       Informatics and Decision Making 8, 53.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.survival import decision_curve_survival
    >>> res = decision_curve_survival([1, 0, 1, 1, 0, 1, 0, 1], [1, 2, 3, 4, 5, 6, 7, 8],
    ...                               [0.3, 0.8, 0.4, 0.6, 0.8, 0.7, 0.9, 0.6], 3.5,
    ...                               thresholds=[0.2, 0.3])
    >>> np.round(res.net_benefit, 4)
    array([0.125 , 0.0893])
    """
    y_event, y_time, (surv_proba, horizon) = unpack(y_event, y_time, (surv_proba, horizon))
    # the thresholds of decision_curve (and dcurves): [0, 1), 0 allowed
    pts = (
        DEFAULT_THRESHOLDS.copy()
        if thresholds is None
        else _check_curve_thresholds(thresholds)
    )
    single = not isinstance(surv_proba, dict)
    models = {"model": surv_proba} if single else dict(surv_proba)
    if not models:
        raise ValueError("surv_proba must not be an empty dict.")
    nb_by, avoided_by = {}, {}
    prevalence = 0.0
    for name, s in models.items():
        data, risk, t = _one_horizon(y_event, y_time, s, horizon, sample_weight)
        used = data.weight > 0
        total = data.weight[used].sum()
        prevalence = _km_risk_at(data, used, t)
        if not prevalence > 0.0:
            raise ValueError(
                f"no event up to the horizon {format_number(t)} (its Kaplan--Meier risk "
                "is 0): net benefit is undefined; choose a later horizon."
            )
        # q: share of positives; rho: Kaplan--Meier risk among them
        q, rho = np.empty(pts.shape[0]), np.empty(pts.shape[0])
        for j, pt in enumerate(pts):
            pos = used & (risk >= pt)
            q[j] = data.weight[pos].sum() / total
            rho[j] = _km_risk_at(data, pos, t, strict=True) if q[j] > 0 else 0.0
        # the shares of true/false positives and negatives at the horizon, finished
        # as every decision curve is (net benefit and interventions avoided)
        tp = rho * q
        fn = prevalence - tp
        shares = ClassShares(tp, q - tp, fn, 1.0 - q - fn)
        nb_by[str(name)], avoided_by[str(name)] = decision_finish(shares, pts)
    return DecisionCurveResult(
        thresholds=pts,
        prevalence=float(prevalence),
        net_benefit_by_model=nb_by,
        interventions_avoided_by_model=avoided_by,
        harm={k: 0.0 for k in nb_by},
        single=single,
    )
