"""Calibration after recalibration: Platt-scaled ECE (HELM) and temperature scaling.

HELM reports the ECE of a model's confidences after Platt scaling (a
logistic regression of correctness on the log-odds of the confidence) with
the fitted coefficients; the lm-evaluation-harness community asks for the
Brier score and RMS calibration error after temperature tuning of the
choices' log-likelihoods.  Both measure what calibration a model *could*
have with one or two fitted numbers, beside what it has.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, special

from .._core.arrays import validated
from .._core.diagnose import one_warning_per_call
from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.hard import one_hot_scores, warn_one_hot
from .._core.kernels.multiple_choice import (
    per_example_squared_error,
    segment_starts,
    segment_sum,
    softmax_segments,
    weighted_mean,
)
from .._core.params import DEFAULT_N_BINS, check_bool, check_n_bins, check_option
from .._core.results import Result
from .._core.validation import binary_forecast, check_sample_weight
from ..exceptions import HardForecastWarning
from ._multiple_choice_checks import check_scores, check_targets, flatten_ragged
from .calibration import _logistic_calibration
from .calibration_error import calibration_error

__all__ = [
    "PlattCalibrationResult",
    "TemperatureScalingResult",
    "platt_calibration_error",
    "temperature_scaling",
]

#: HELM (Kumar's ``calibration.get_platt_scaler``) clips confidences to [eps, 1 - eps]
_HELM_EPS = 1e-12


@dataclasses.dataclass(frozen=True, repr=False)
class PlattCalibrationResult(Result):
    """Calibration error after Platt scaling, with the fitted coefficients.

    Attributes
    ----------
    coef, intercept : float
        The fit :math:`\\operatorname{logit} q = \\text{intercept} +
        \\text{coef} \\cdot \\operatorname{logit} p` (NaN when every answer is
        right or every answer wrong: no finite fit exists).
    calibration_error : float
        The ECE of the recalibrated confidences :math:`q` with ``n_bins``
        bins (HELM's ``platt_ece_10_bin``).
    calibration_error_1_bin : float
        :math:`|\\bar q - \\bar y|` (HELM's ``platt_ece_1_bin``).
    calibration_error_before : float
        The same ECE of the confidences as given (HELM's ``ece_10_bin``).
    n_bins : int
        The number of bins.

    Examples
    --------
    >>> from skbrier.metrics.recalibration import platt_calibration_error
    >>> res = platt_calibration_error([1, 0, 1, 1, 0, 1], [0.9, 0.8, 0.7, 0.95, 0.6, 0.4],
    ...                               n_bins=2)
    >>> round(res.coef, 2), round(res.intercept, 2)
    (0.42, 0.21)
    """

    coef: float
    intercept: float
    calibration_error: float
    calibration_error_1_bin: float
    calibration_error_before: float
    n_bins: int


@dataclasses.dataclass(frozen=True, repr=False)
class TemperatureScalingResult(Result):
    """Scores of multiple-choice answers before and after temperature scaling.

    Attributes
    ----------
    temperature : float
        The maximum-likelihood temperature :math:`T` (probabilities
        :math:`\\operatorname{softmax}(\\ell / T)`); above 1 the model was
        over-confident, below 1 under-confident.
    log_loss, log_loss_before : float
        Mean negative log-likelihood of the gold choice, after and before.
    brier_score, brier_score_before : float
        Multiple-choice Brier score (lm-evaluation-harness convention: sum
        over choices, mean over examples).
    rms_calibration_error, rms_calibration_error_before : float
        Top-label RMS calibration error (``n_bins`` equal-width bins).
    calibration_error, calibration_error_before : float
        Top-label ECE (the same bins).
    n_bins : int
        The number of bins.
    fitted_on : str
        ``"same"`` (the temperature was fitted on the scored examples) or
        ``"separate"`` (on the split given as ``fit_on``).

    Examples
    --------
    >>> from skbrier.metrics.recalibration import temperature_scaling
    >>> res = temperature_scaling([0, 1, 0, 2], [[-0.1, -3.0, -4.0], [-0.2, -2.0, -3.0],
    ...                                          [-0.3, -1.5, -4.0], [-1.0, -0.8, -1.2]])
    >>> res.temperature > 1
    True
    """

    temperature: float
    log_loss: float
    log_loss_before: float
    brier_score: float
    brier_score_before: float
    rms_calibration_error: float
    rms_calibration_error_before: float
    calibration_error: float
    calibration_error_before: float
    n_bins: int
    fitted_on: str


#: the refusal of Dask input: temperature scaling fits its map on every row
_FITS_ALL_ROWS = Refused(
    "the recalibration map is fitted on all rows in memory; compute it on the "
    "collected rows (e.g. ddf.compute()) or on a uniform subsample"
)


@backends(
    dask="skbrier._backends._dask._recalibration:platt_calibration_error", array_api=HOST
)
@one_warning_per_call
@shared_doc
def platt_calibration_error(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    n_bins: int = 10,
    binning: str | None = "helm",
    solver: Literal["mle", "helm"] = "mle",
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> PlattCalibrationResult:
    r"""ECE after Platt scaling, and the Platt coefficients (HELM's calibration metrics).

    The confidences :math:`p_i` (clipped to :math:`[10^{-12}, 1 - 10^{-12}]`
    as HELM does) are recalibrated by the logistic regression

    .. math::

        q_i = \operatorname{expit}(a + b \operatorname{logit} p_i),

    fitted by maximum likelihood to the outcomes :math:`y_i` (whether the
    answer was right), and the calibration error of :math:`q` is computed
    with :func:`~skbrier.metrics.calibration_error.calibration_error`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Whether each answer was correct (0/1 or bool), or binary outcomes.
    y_proba : array-like of shape (n_samples,) or (n_samples, 2)
        The stated confidences (probability that the answer is correct).
    n_bins : int, default=10
        Bins of the calibration error (HELM: 10).
    binning : str or None, default="helm"
        The bins, as in :func:`~skbrier.metrics.calibration_error.calibration_error`:
        ``"helm"`` (equal mass, HELM's ``ece_10_bin``), None (skbrier's
        equal-width bins), or another peer's name.
    solver : {"mle", "helm"}, default="mle"
        ``"mle"``: the exact maximum-likelihood fit (equal to R's ``glm``).
        ``"helm"``: HELM's own fit, scikit-learn's
        ``LogisticRegression(C=1e10, solver="lbfgs")``, which stops at its
        tolerance (coefficients within about 1e-4 of the maximum) and gives
        HELM's numbers to the last digit.
    {{sample_weight}}
    {{pos_label}}

    Returns
    -------
    PlattCalibrationResult
        ``coef``, ``intercept``, ``calibration_error`` (after),
        ``calibration_error_1_bin`` and ``calibration_error_before``.

    Raises
    ------
    ValueError
        For invalid input (see :func:`~skbrier.metrics.calibration_error.calibration_error`).

    See Also
    --------
    skbrier.metrics.calibration.calibration_intercept_slope : the same fit,
        with standard errors, for probability forecasts.

    Notes
    -----
    When every answer is right (or every answer wrong) no finite fit exists:
    the recalibrated confidences tend to the outcomes, and the calibration
    errors after scaling are 0 (HELM reports 0 there too) with NaN
    coefficients.  When the confidences separate right from wrong answers
    (a ``ConvergenceWarning`` says so) the slope is infinite and the
    intercept NaN; the errors after scaling are those of the limit, the
    outcomes themselves (the accuracy of the answers tied at the boundary
    confidence, for those), which HELM's nearly unpenalised fit approaches.

    References
    ----------
    .. [1] J. Platt, "Probabilistic outputs for support vector machines and
       comparisons to regularized likelihood methods", 1999.
    .. [2] P. Liang et al., "Holistic evaluation of language models", TMLR,
       2023 (HELM's calibration metrics).

    Examples
    --------
    >>> from skbrier.metrics.recalibration import platt_calibration_error
    >>> correct = [1, 0, 1, 1, 0, 1, 1, 0]
    >>> confidence = [0.9, 0.8, 0.7, 0.95, 0.6, 0.4, 0.99, 0.9]
    >>> res = platt_calibration_error(correct, confidence, n_bins=2)
    >>> res.calibration_error < res.calibration_error_before
    True
    """
    solver = check_option(solver, "solver", ("mle", "helm"))
    n_bins = check_n_bins(n_bins)
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    ece: dict[str, Any] = {"n_bins": n_bins, "binning": binning, "sample_weight": w}
    with validated(y, p, w):
        before = calibration_error(y, p, kind="binary", **ece)
    pc, lp = _helm_logit(p)
    used = y if w is None else y[w > 0]
    if np.all(used == used[0]):
        return PlattCalibrationResult(math.nan, math.nan, 0.0, 0.0, before, n_bins)
    if solver == "helm":
        from sklearn.linear_model import LogisticRegression

        clf = LogisticRegression(C=1e10, solver="lbfgs")
        # weights of mean 1: lbfgs's tolerance and the penalty are absolute, so
        # weights x 1e-200 stopped the fit at its start (0, 0)
        clf.fit(lp[:, None], y, sample_weight=None if w is None else w / w.mean())
        b, a = float(clf.coef_[0][0]), float(clf.intercept_[0])
    else:
        fit = _logistic_calibration(y, pc, w, stacklevel=3)
        a, b = fit.intercept, fit.slope
    if math.isinf(b):
        q = _separated_limit(y, lp, w, b)
    else:
        q = _platt_scaled(lp, a, b)
    with validated(y, q, w):
        after = calibration_error(y, q, kind="binary", **ece)
        one_bin = calibration_error(y, q, kind="binary", n_bins=1, sample_weight=w)
    return PlattCalibrationResult(b, a, after, one_bin, before, n_bins)


def _helm_logit(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(p clipped as HELM clips it, its log-odds)``."""
    pc = np.clip(p, _HELM_EPS, 1.0 - _HELM_EPS)
    return pc, np.log(pc / (1.0 - pc))


def _platt_scaled(lp: np.ndarray, intercept: float, coef: float) -> np.ndarray:
    """The Platt-scaled confidences ``expit(intercept + coef * lp)``.

    ``special.expit``: a steep fit (a slope of hundreds, near separation) sends
    ``exp`` beyond the float range, where ``1 / (1 + exp(-x))`` overflowed
    with a RuntimeWarning; expit gives the limits 0 and 1 without one.
    """
    return special.expit(lp * coef + intercept)


def _separated_limit(
    y: np.ndarray, lp: np.ndarray, w: np.ndarray | None, slope: float
) -> np.ndarray:
    """The Platt-scaled confidences when the log-odds separate the outcomes.

    No finite fit exists; along the likelihood's ascent the slope grows
    without bound and the probabilities tend to the outcomes, except at the
    boundary log-odds (the least confident right answer's, for a positive
    slope), where right and wrong answers tie: there they tend to that
    group's (weighted) accuracy.
    """
    ww = np.ones_like(lp) if w is None else w
    right = lp[(y == 1) & (ww > 0)]
    edge = right.min() if slope > 0 else right.max()
    tie = (lp == edge) & (ww > 0)
    return _tied_limit(y, lp, w, edge, np.dot(ww[tie], y[tie]) / ww[tie].sum())


def _tied_limit(
    y: np.ndarray, lp: np.ndarray, w: np.ndarray | None, edge: float, accuracy: float
) -> np.ndarray:
    """The limit of :func:`_separated_limit`: the outcomes, and ``accuracy`` at
    the boundary log-odds ``edge`` (rows of positive weight)."""
    q = y.astype(np.float64)
    q[(lp == edge) if w is None else (lp == edge) & (w > 0)] = accuracy
    return q


class _Choices:
    """Validated multiple-choice input: flat log-probabilities, gold one-hot, weights."""

    def __init__(self, y_true: Any, y_score: Any, sample_weight: Any, from_logprobs: bool):
        values, self.lengths = flatten_ragged(y_score, "y_score")
        self.starts = segment_starts(self.lengths)
        proba = check_scores(values, self.starts, self.lengths, from_logprobs)
        if not from_logprobs:  # as multiple_choice_brier_score
            warn_one_hot(one_hot_scores(np, values), int(self.lengths.max()))
        if from_logprobs:
            self.logp = values
        else:  # a probability of 0 is a log-probability of -inf (checked below)
            with np.errstate(divide="ignore"):
                self.logp = np.log(proba)
        self.targets = check_targets(y_true, self.starts, self.lengths)
        n = self.lengths.shape[0]
        self.w = check_sample_weight(sample_weight, n)
        if np.any(np.isneginf(self.logp[self.targets > 0])):
            raise ValueError("y_score gives a gold choice a probability of 0 (log -inf).")
        # sum_c t_c l_c: the targets sum to one, so the log-likelihood of the
        # targets is inv_t * gold_logp - logsumexp(inv_t * l)
        self.gold_logp = segment_sum(self.targets * _finite(self.logp), self.starts)

    def proba(self, inv_t: float) -> np.ndarray:
        if inv_t == 0.0 or math.isinf(inv_t):  # the limits T = inf and T = 0
            lf = _finite(self.logp)
            top = np.maximum.reduceat(
                np.where(np.isfinite(self.logp), lf, -np.inf), self.starts
            )
            keep = (
                np.isfinite(self.logp)
                if inv_t == 0.0  # uniform over the possible choices
                else self.logp == np.repeat(top, self.lengths)  # the top choices
            ).astype(np.float64)
            return keep / np.repeat(segment_sum(keep, self.starts), self.lengths)
        with np.errstate(invalid="ignore"):
            return softmax_segments(self.logp * inv_t, self.starts, self.lengths)

    def nll(self, inv_t: float) -> float:
        """Mean negative log-likelihood of the targets at temperature ``1 / inv_t``."""
        if inv_t == 0.0 or math.isinf(inv_t):
            p = self.proba(inv_t)
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = np.where(self.targets > 0, self.targets * -np.log(p), 0.0)
            per = segment_sum(terms, self.starts)
            return weighted_mean(per, np.ones_like(per), self.w)
        z = self.logp * inv_t
        top = np.maximum.reduceat(z, self.starts)
        lse = top + np.log(
            segment_sum(np.exp(z - np.repeat(top, self.lengths)), self.starts)
        )
        return weighted_mean(lse - inv_t * self.gold_logp, np.ones_like(lse), self.w)

    def derivatives(self, inv_t: float) -> tuple[float, float]:
        """First and second derivative of :meth:`nll` in ``inv_t``."""
        p = self.proba(inv_t)
        lf = _finite(self.logp)
        mean_l = segment_sum(p * lf, self.starts)
        var_l = segment_sum(p * (lf - np.repeat(mean_l, self.lengths)) ** 2, self.starts)
        ones = np.ones_like(mean_l)
        return (
            weighted_mean(mean_l - self.gold_logp, ones, self.w),
            weighted_mean(var_l, ones, self.w),
        )

    def scores(self, inv_t: float, n_bins: int) -> tuple[float, float, float, float]:
        p = self.proba(inv_t)
        n = self.lengths.shape[0]
        brier = weighted_mean(
            per_example_squared_error(p, self.targets, self.starts), np.ones(n), self.w
        )
        top = np.maximum.reduceat(p, self.starts)
        # the first choice of the largest probability, as calibration_error's top label
        is_top = p == np.repeat(top, self.lengths)
        first = np.minimum.reduceat(
            np.where(is_top, np.arange(p.shape[0]), p.shape[0]), self.starts
        )
        correct = (self.targets[first] > 0).astype(np.float64)
        kw: dict[str, Any] = {"kind": "binary", "n_bins": n_bins, "sample_weight": self.w}
        with warnings.catch_warnings():
            # the top probabilities are hard at T = 0 (said once) or for
            # log-likelihoods far apart: the model's output, not predict()
            # output (one-hot y_score is said once, in __init__)
            warnings.simplefilter("ignore", HardForecastWarning)
            return (
                self.nll(inv_t),
                brier,
                calibration_error(correct, top, norm="l2", **kw),
                calibration_error(correct, top, norm="l1", **kw),
            )


def _finite(x: np.ndarray) -> np.ndarray:
    return np.where(np.isfinite(x), x, 0.0)


def _fit_inverse_temperature(ch: _Choices, name: str) -> float:
    """Maximum-likelihood ``1 / T``: the negative log-likelihood is convex in ``1 / T``.

    Questions of one choice do not depend on ``T``; a ValueError naming
    ``name`` (the fitting data) when every question has one.  Nor do
    questions of one *possible* choice (the others of log-likelihood
    ``-inf``, probability 0 at every ``T``, e.g. one-hot ``y_score``): when
    every question has one, the likelihood is flat, a warning says so and
    ``T = 1`` (no scaling) is returned.

    At the boundaries the maximum is a limit: ``0`` (``T = inf``, uniform
    probabilities) when the log-likelihood does not increase from there (the
    gold choices score no higher than the average choice), ``inf`` (``T = 0``,
    all mass on the top choices) when every gold choice is a top choice.
    Both are said in a warning.
    """
    if not np.any(ch.lengths > 1):
        raise ValueError(
            f"every question of {name} has a single choice: its probability is 1 "
            "at every temperature, so no temperature can be fitted; give questions "
            "of two or more choices."
        )
    possible = segment_sum(np.isfinite(ch.logp).astype(np.float64), ch.starts)
    if not np.any(possible > 1.0):
        warnings.warn(
            f"every question of {name} has a single choice of finite log-likelihood "
            "(the others are -inf, probability 0): the probabilities do not depend on "
            "the temperature, which is left at 1 (no scaling).",
            UserWarning,
            stacklevel=3,
        )
        return 1.0
    if ch.derivatives(0.0)[0] >= 0.0:
        warnings.warn(
            "the choice log-likelihoods do not favour the gold choices (they score "
            "no higher than the average choice): the maximum-likelihood temperature "
            "is infinite and the scaled probabilities are uniform.",
            UserWarning,
            stacklevel=3,
        )
        return 0.0
    if ch.nll(math.inf) == 0.0:
        warnings.warn(
            "every gold choice has the highest log-likelihood of its question: the "
            "likelihood grows without bound as the temperature falls, so the "
            "maximum-likelihood temperature is 0 (all mass on the top choice).",
            UserWarning,
            stacklevel=3,
        )
        return math.inf
    res = optimize.minimize_scalar(
        lambda log_s: ch.nll(math.exp(log_s)),
        bracket=(-1.0, 0.0),
        method="brent",
        options={"xtol": 1e-12},
    )
    inv_t = math.exp(float(res.x))
    for _ in range(3):  # Newton steps polish Brent's answer to machine precision
        grad, hess = ch.derivatives(inv_t)
        if not hess > 0.0:
            break
        step = grad / hess
        if not 0.0 < inv_t - step < 2.0 * inv_t:
            break
        inv_t -= step
    return inv_t


@backends(
    arrays=("y_true", "y_score", "sample_weight"),
    namespace_of="y_score",
    dask=_FITS_ALL_ROWS,
    array_api=HOST,
)
@one_warning_per_call
def temperature_scaling(
    y_true: ArrayLike | Sequence[Sequence[float]],
    y_score: ArrayLike | Sequence[Sequence[float]],
    *,
    from_logprobs: bool = True,
    fit_on: tuple[Any, Any] | None = None,
    n_bins: int = DEFAULT_N_BINS,
    sample_weight: ArrayLike | None = None,
) -> TemperatureScalingResult:
    r"""Brier score and RMS calibration error of multiple-choice answers after temperature tuning.

    Each example's choices have log-likelihoods :math:`\ell_{ic}`; the
    temperature :math:`T` rescales them to
    :math:`p_{ic}(T) = \operatorname{softmax}_c(\ell_{ic} / T)` and is fitted
    by maximum likelihood of the gold choices (Guo et al. 2017),

    .. math::

        \hat T = \arg\min_T \; -\sum_i w_i \log p_{i, g_i}(T),

    a convex problem in :math:`1/T`.  The result holds the log loss, the
    multiple-choice Brier score (:func:`~skbrier.multiple_choice_brier_score`,
    lm-evaluation-harness convention), the top-label RMS calibration error and
    the ECE, before and after scaling.

    Parameters
    ----------
    y_true : array-like of shape (n_examples,)
        The index of the gold choice of each example.
    y_score : array-like of shape (n_examples, n_choices) or ragged sequence
        Per-choice log-likelihoods (``from_logprobs=True``) or probabilities.
    from_logprobs : bool, default=True
        Whether ``y_score`` holds log-probabilities (``-inf`` allowed for
        impossible choices) rather than probabilities.
    fit_on : tuple (y_true, y_score), default=None
        A separate split to fit the temperature on (recommended: fitting and
        scoring on the same examples flatters the scores).  None: fit on the
        scored examples.
    n_bins : int, default=10
        Equal-width bins of the calibration errors (the default of
        :func:`~skbrier.calibration_error`).
    sample_weight : array-like of shape (n_examples,), default=None
        Non-negative frequency weights of the scored examples (the fit on
        ``fit_on`` is unweighted).

    Returns
    -------
    TemperatureScalingResult
        The temperature and the scores before and after.

    Raises
    ------
    ValueError
        For invalid input (see :func:`~skbrier.multiple_choice_brier_score`)
        or a gold choice of log-probability ``-inf``.

    See Also
    --------
    platt_calibration_error : HELM's Platt-scaled ECE of stated confidences.

    References
    ----------
    .. [1] C. Guo, G. Pleiss, Y. Sun and K. Q. Weinberger, "On calibration of
       modern neural networks", ICML 2017.
    .. [2] EleutherAI lm-evaluation-harness, issue 2189 (temperature-tuned
       Brier score and RMS calibration error).

    Examples
    --------
    >>> from skbrier.metrics.recalibration import temperature_scaling
    >>> logp = [[-0.05, -3.2, -4.1], [-0.1, -2.5, -5.0], [-0.02, -4.0, -4.5],
    ...         [-0.2, -1.9, -3.0], [-0.1, -2.8, -3.3]]
    >>> res = temperature_scaling([0, 1, 0, 2, 0], logp)
    >>> round(res.temperature, 3), res.brier_score < res.brier_score_before
    (2.39, True)
    """
    from_logprobs = check_bool(from_logprobs, "from_logprobs")
    n_bins = check_n_bins(n_bins)
    scored = _Choices(y_true, y_score, sample_weight, from_logprobs)
    if fit_on is None:
        fitted_on, fit = "same", scored
    else:
        if not isinstance(fit_on, tuple) or len(fit_on) != 2:
            raise TypeError(
                "fit_on must be a tuple (y_true, y_score) of the fitting split."
            )
        try:
            fit = _Choices(fit_on[0], fit_on[1], None, from_logprobs)
        except (TypeError, ValueError) as exc:  # say which split holds the mistake
            raise type(exc)(f"fit_on (y_true, y_score): {exc}") from exc
        fitted_on = "separate"
    inv_t = _fit_inverse_temperature(fit, "y_score" if fit_on is None else "fit_on")
    after = scored.scores(inv_t, n_bins)
    before = scored.scores(1.0, n_bins)
    return TemperatureScalingResult(
        temperature=math.inf if inv_t == 0.0 else 1.0 / inv_t,
        log_loss=after[0],
        log_loss_before=before[0],
        brier_score=after[1],
        brier_score_before=before[1],
        rms_calibration_error=after[2],
        rms_calibration_error_before=before[2],
        calibration_error=after[3],
        calibration_error_before=before[3],
        n_bins=n_bins,
        fitted_on=fitted_on,
    )
