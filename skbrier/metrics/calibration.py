"""Calibration statistics of binary probability forecasts, as in R's ``rms::val.prob``.

* :func:`calibration_intercept_slope` -- logistic recalibration: the joint fit
  ``logit P(y = 1) = a + b logit(p)`` (val.prob's "Intercept" and "Slope"),
  calibration in the large (``a`` with ``b`` fixed at 1), standard errors,
  and val.prob's likelihood-ratio indexes D, U, Q and R².
* :func:`calibration_in_the_large` -- the intercept with ``logit(p)`` as an offset.
* :func:`spiegelhalter_z` -- Spiegelhalter's z test.
* :func:`lowess_calibration_error` -- Emax, E90 and Eavg of the lowess
  calibration curve.
* :func:`c_statistic` -- the C statistic (area under the ROC curve).

The maths lives in :mod:`skbrier._core.kernels.calibration`, the result
objects in :mod:`skbrier.metrics._calibration_results` (re-exported here).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import special
from sklearn.exceptions import ConvergenceWarning

from .._core.binning import apply_resolution
from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.kernels.calibration import (
    auc_delong,
    chi2_pvalue,
    logistic_calibration,
    lowess_calibration_curve,
    normalise_weights,
    offset_intercept_fit,
    spiegelhalter,
)
from .._core.params import check_resolution
from .._core.validation import binary_forecast
from ._calibration_results import (
    LogisticCalibrationResult,
    LowessCalibrationError,
    SpiegelhalterResult,
)

__all__ = [
    "LogisticCalibrationResult",
    "LowessCalibrationError",
    "SpiegelhalterResult",
    "c_statistic",
    "calibration_in_the_large",
    "calibration_intercept_slope",
    "lowess_calibration_error",
    "spiegelhalter_z",
]


def _binary(y_true: Any, y_proba: Any, sample_weight: Any, pos_label: Any):
    """Validated ``(y01, p, w)`` of a binary forecast (``_validation.binary_forecast``)."""
    return binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )


def _fit_sample(y: np.ndarray, p: np.ndarray, w: np.ndarray | None):
    """The rows of the logistic fits: ``0 < p < 1`` and positive weight.

    Returns ``(y, p, w, n_excluded)``; raises ``ValueError`` when no row is
    left or the rows left hold a single class (no finite fit exists).
    """
    keep = (p > 0.0) & (p < 1.0)
    n_excl = int(p.shape[0] - np.count_nonzero(keep if w is None else keep | (w == 0)))
    if w is not None:
        keep &= w > 0
    if keep.all():  # no copies of the columns when every row is used
        yk, pk, wk = y, p, w
    else:
        yk, pk = y[keep], p[keep]
        wk = None if w is None else w[keep]
    del keep
    _check_fit_counts(yk.shape[0], bool(yk.shape[0]) and bool(np.all(yk == yk[0])))
    if wk is not None:
        _check_weight_range(yk, wk)
    return yk, pk, wk, n_excl


def _check_weight_range(y: np.ndarray, w: np.ndarray) -> None:
    """Refuse positive weights whose class the fits cannot see.

    The fits compute with the weights divided by the largest
    (:func:`normalise_weights`); a class whose weights are all below about
    1e-308 times the largest then weighs 0 and the fit of two classes
    became one of a single class (``math domain error``).
    """
    top = float(w.max())
    for cls, name in ((0.0, "negative"), (1.0, "positive")):
        if not float(w[y == cls].max()) / top > 0.0:
            raise ValueError(
                f"sample_weight: every row of the {name} class weighs less than 1e-308 "
                f"times the largest weight ({top:.3g}): next to it that class weighs 0 "
                "in floating point, so the logistic fit sees a single class. Keep the "
                "weights within a range of 1e300, or drop those rows."
            )


def _check_fit_counts(n_used: int, single_class: bool) -> None:
    """The errors of :func:`_fit_sample` from the counts of the rows it keeps."""
    if n_used == 0:
        raise ValueError(
            "y_proba has no probability strictly between 0 and 1 (among the rows of "
            "positive weight): the logistic calibration (logit of the forecasts) is "
            "undefined."
        )
    if single_class:
        raise ValueError(
            "y_true contains a single class (among the samples with 0 < y_proba < 1 "
            "and positive weight): the calibration intercept and slope are undefined."
        )


_STATUS_WARNINGS = {
    "separated": (
        "The outcomes are perfectly separated by the forecasts: the calibration "
        "slope is infinite and the intercept undefined."
    ),
    "not_converged": (
        "The logistic recalibration did not converge (the outcomes are nearly "
        "separated by the forecasts or the forecasts are extreme); the intercept, "
        "slope and their standard errors are unreliable."
    ),
    "near_separated": (
        "The forecasts nearly separate the outcomes: the recalibrated probabilities "
        "of some samples are numerically 0 or 1 (R's glm warns here too); the "
        "slope is large and its standard error unreliable."
    ),
}


def _logistic_calibration(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    *,
    stacklevel: int = 3,
    lr: bool = True,
) -> LogisticCalibrationResult:
    """:func:`calibration_intercept_slope` on validated 0/1 ``y`` and ``p``
    (no validation).  Raises ``ValueError`` when the fit is undefined and
    warns (``ConvergenceWarning``) when the joint fit has no reliable finite
    estimate.  ``lr=False``: the fits only (no likelihood-ratio statistics)."""
    yk, pk, wk, n_excl = _fit_sample(y, p, w)
    st = logistic_calibration(yk, pk, wk, lr)
    return _logistic_result(st, int(yk.shape[0]), n_excl, stacklevel=stacklevel + 1)


def _logistic_result(
    st: Any, n_used: int, n_excl: int, *, stacklevel: int
) -> LogisticCalibrationResult:
    """The result of the fits ``st`` (``LogisticCalibrationStats``) on
    ``n_used`` rows; warns when the joint fit has no reliable estimate."""
    if st.status in _STATUS_WARNINGS:
        warnings.warn(
            _STATUS_WARNINGS[st.status], ConvergenceWarning, stacklevel=stacklevel
        )
    u = st.unreliability_chi2
    u_p = chi2_pvalue(u, st.unreliability_df, st.weight)
    return LogisticCalibrationResult(
        intercept=st.intercept,
        slope=st.slope,
        intercept_stderr=st.intercept_stderr,
        slope_stderr=st.slope_stderr,
        calibration_in_the_large=st.citl,
        calibration_in_the_large_stderr=st.citl_stderr,
        n_used=n_used,
        n_excluded=n_excl,
        weight_used=float(st.weight),
        lr_chi2=float(st.lr_chi2),
        unreliability_chi2=float(u),
        unreliability_pvalue=u_p,
        r2=float(st.r2),
        converged=st.status in ("converged", "near_separated", "constant"),
        unreliability_df=int(st.unreliability_df),
    )


@backends(
    dask="skbrier._backends._dask._adapters:calibration_intercept_slope", array_api=HOST
)
@shared_doc
def calibration_intercept_slope(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> LogisticCalibrationResult:
    r"""Calibration intercept and slope by logistic recalibration (as ``rms::val.prob``).

    Fits the logistic regression of the outcome on the logit of the
    forecast, without penalty,

    .. math::

        \operatorname{logit} P(y_i = 1) = a + b \operatorname{logit}(p_i),

    and also calibration in the large, the same model with :math:`b` fixed
    at 1 (:math:`\operatorname{logit}(p_i)` as an offset).  A calibrated
    forecast has :math:`a = 0, b = 1`; a slope below 1 means the forecasts
    are too extreme (overfitting), above 1 too timid.

    Parameters
    ----------
    {{binary_forecast}}
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights (a weight of 2 counts the row twice).
    pos_label : int, float, bool or str, default=None
        The positive class (see :func:`skbrier.brier_score`).

    Returns
    -------
    LogisticCalibrationResult
        Unpacks to ``(intercept, slope)``; also holds standard errors,
        calibration in the large, val.prob's D, U, Q and R² and a
        ``confidence_interval(confidence_level, metric=...)`` method.

    Raises
    ------
    ValueError
        For invalid input, a single outcome class, or no probability strictly
        between 0 and 1.

    Warns
    -----
    UserWarning
        When probabilities of exactly 0 or 1 are left out of the fit.
    sklearn.exceptions.ConvergenceWarning
        When the forecasts separate the outcomes (slope ``±inf``, intercept
        NaN), nearly separate them (some recalibrated probabilities are
        numerically 0 or 1, where R's ``glm`` warns too) or the fit does
        not converge (then ``converged`` is False).

    See Also
    --------
    calibration_in_the_large : The intercept alone, slope fixed at 1.
    spiegelhalter_z : A test of calibration.

    Notes
    -----
    As ``rms::val.prob``: samples whose probability is exactly 0 or 1 are left
    out of the logistic fits (their logit is infinite) but counted in every
    other statistic; a constant forecast gives intercept
    :math:`\operatorname{logit}(\bar y)` and slope 0, ``lr_chi2`` and ``r2``
    0 and U on 1 degree of freedom.  Rows of zero weight are left out
    altogether.  The joint fit uses Newton's method with a line search that
    never lowers the likelihood, to full convergence; calibration in the
    large solves its one-dimensional score equation by Brent's method in a
    bracket that always holds the root.  The estimates equal R's ``glm``
    (``epsilon = 1e-14``) wherever glm converges.  The likelihood-ratio
    indexes are computed on the samples used in the fits.

    References
    ----------
    .. [1] F. E. Harrell, ``rms`` package, function ``val.prob``.
    .. [2] D. R. Cox, "Two further applications of a model for binary
       regression", Biometrika 45, 562-565, 1958.
    .. [3] E. W. Steyerberg, *Clinical Prediction Models*, 2nd ed., Springer,
       2019, chapter 15.

    Examples
    --------
    >>> from skbrier.metrics.calibration import calibration_intercept_slope
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> p = [0.1, 0.3, 0.4, 0.5, 0.6, 0.8, 0.2, 0.7]
    >>> res = calibration_intercept_slope(y, p)
    >>> intercept, slope = res
    >>> round(intercept, 3), round(slope, 3)
    (0.647, 2.988)
    >>> round(res.calibration_in_the_large, 3)
    0.256
    >>> ci = res.confidence_interval(0.95, metric="calibration_slope")
    >>> round(ci.low, 2), round(ci.high, 2)
    (-1.16, 7.14)
    """
    y, p, w = _binary(y_true, y_proba, sample_weight, pos_label)
    res = _logistic_calibration(y, p, w)
    _warn_excluded(res)
    return res


def _warn_excluded(res: LogisticCalibrationResult) -> None:
    """Say how many rows the fits left out (stacklevel: the user's call, through
    the backend dispatch)."""
    if res.n_excluded:
        warnings.warn(
            f"{res.n_excluded} samples with y_proba exactly 0 or 1 were left out of "
            "the logistic calibration (as rms::val.prob does).",
            UserWarning,
            stacklevel=4,
        )


@backends(dask="skbrier._backends._dask._adapters:calibration_in_the_large", array_api=HOST)
@shared_doc
def calibration_in_the_large(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> float:
    r"""Calibration in the large: the logistic intercept with the slope fixed at 1.

    The maximum-likelihood :math:`a` in
    :math:`\operatorname{logit} P(y_i = 1) = a + \operatorname{logit}(p_i)`
    (``glm(y ~ offset(qlogis(p)), family = binomial)`` in R).  Zero for
    forecasts that are right on average on the log-odds scale; positive
    when they are too low.

    Parameters
    ----------
    {{binary_inputs}}

    Returns
    -------
    float
        The intercept (ideal 0).

    Raises
    ------
    ValueError
        For invalid input or a single outcome class (among the rows with
        ``0 < y_proba < 1`` and positive weight).

    See Also
    --------
    calibration_intercept_slope : The joint fit, with standard errors.

    Notes
    -----
    ``rms::val.prob``'s "Intercept" is the intercept of the *joint* fit
    (:func:`calibration_intercept_slope`), which differs from this one unless
    the slope is 1.  Probabilities of exactly 0 or 1 and rows of zero weight
    are left out.  The maximum-likelihood estimate exists whenever both
    classes occur; it is the root of the score equation
    :math:`\sum_i w_i (y_i - \operatorname{expit}(a + \operatorname{logit} p_i)) = 0`,
    which lies between :math:`\operatorname{logit}(\bar y) - \max_i
    \operatorname{logit} p_i` and :math:`\operatorname{logit}(\bar y) - \min_i
    \operatorname{logit} p_i` and is found there by Brent's method, so it
    equals R's ``glm`` to rounding error and cannot diverge.

    References
    ----------
    .. [1] E. W. Steyerberg, *Clinical Prediction Models*, 2nd ed., Springer,
       2019, chapter 15.

    Examples
    --------
    >>> from skbrier.metrics.calibration import calibration_in_the_large
    >>> round(calibration_in_the_large([0, 1, 1, 0, 1], [0.2, 0.5, 0.6, 0.3, 0.4]), 4)
    0.8883
    """
    y, p, w = _binary(y_true, y_proba, sample_weight, pos_label)
    yk, pk, wk, _ = _fit_sample(y, p, w)
    wn, _ = normalise_weights(wk)
    return float(offset_intercept_fit(yk, special.logit(pk), wn)[0])


@backends(dask="skbrier._backends._dask._adapters:spiegelhalter_z", array_api=HOST)
@shared_doc
def spiegelhalter_z(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> SpiegelhalterResult:
    r"""Test calibration with Spiegelhalter's z (``rms::val.prob``'s "S:z", "S:p").

    .. math::

        z = \frac{\sum_i w_i (y_i - p_i)(1 - 2 p_i)}
                 {\sqrt{\sum_i w_i (1 - 2 p_i)^2 p_i (1 - p_i)}},

    asymptotically standard normal when the forecasts are calibrated
    (:math:`P(y_i = 1) = p_i`); the p-value is two-sided.

    Parameters
    ----------
    {{binary_inputs}}

    Returns
    -------
    SpiegelhalterResult
        ``(statistic, pvalue)`` named tuple.  NaN when every forecast is 0, 1/2
        or 1 (zero variance) and below 3 observations (rows, or a total
        frequency weight of 3: :data:`~skbrier._core.params.MIN_SAMPLES`, as
        val.prob's D, U and Q).

    See Also
    --------
    calibration_intercept_slope : Logistic recalibration.

    Notes
    -----
    The statistic standardises :math:`\sum (y_i - p_i)^2 - \sum p_i(1 - p_i)`,
    the Brier score's excess over its expectation under calibration.

    References
    ----------
    {{spiegelhalter_reference}}

    Examples
    --------
    >>> from skbrier.metrics.calibration import spiegelhalter_z
    >>> z, pvalue = spiegelhalter_z([0, 1, 1, 0, 1], [0.2, 0.7, 0.6, 0.3, 0.9])
    >>> round(z, 4), round(pvalue, 4)
    (-1.1867, 0.2353)
    """
    y, p, w = _binary(y_true, y_proba, sample_weight, pos_label)
    return SpiegelhalterResult(*spiegelhalter(y, p, w))


@backends(
    arrays=("y_true", "y_proba"),
    dask=Refused(
        "the lowess smoother fits each forecast's neighbourhood among all rows; "
        "compute it on the collected rows (e.g. ddf.compute()) or on a uniform "
        "subsample"
    ),
    array_api=HOST,
)
@shared_doc
def lowess_calibration_error(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    pos_label: Any = None,
) -> LowessCalibrationError:
    r"""Emax, E90 and Eavg of the lowess calibration curve (as ``rms::val.prob``).

    The calibration curve :math:`\hat c` is R's ``lowess(p, y, iter = 0)``
    (span 2/3, no robustness iterations) evaluated at each forecast; with
    :math:`e_i = |p_i - \hat c(p_i)|`, Emax is :math:`\max_i e_i`, E90 the
    90th percentile of :math:`e_i` and Eavg their mean (the "integrated
    calibration index" of Austin and Steyerberg).

    Parameters
    ----------
    {{binary_forecast}}
    pos_label : int, float, bool or str, default=None
        The positive class.

    Returns
    -------
    LowessCalibrationError
        ``(emax, e90, eavg)`` named tuple.

    See Also
    --------
    skbrier.metrics.calibration_error.calibration_error : A binned counterpart
        of Eavg (``kind="binary"``).

    Notes
    -----
    A line-by-line port of R's ``clowess`` C code with ``iter = 0`` and
    ``delta = 0.01 * range(p)``; it reproduces R to rounding error.  Sample
    weights are not supported (lowess has none).  The percentile is R's
    default (type 7, linear interpolation).

    References
    ----------
    .. [1] W. S. Cleveland, "Robust locally weighted regression and smoothing
       scatterplots", JASA 74, 829-836, 1979.
    .. [2] P. C. Austin and E. W. Steyerberg, "The Integrated Calibration
       Index (ICI) and related metrics for quantifying the calibration of
       logistic regression models", Statistics in Medicine 38, 4051-4065, 2019.

    Examples
    --------
    >>> from skbrier.metrics.calibration import lowess_calibration_error
    >>> from skbrier.datasets import load_forecasts
    >>> d = load_forecasts()
    >>> err = lowess_calibration_error(d["y"], d["model_b"])
    >>> round(err.eavg, 4)
    0.1...
    """
    y, p, _ = _binary(y_true, y_proba, None, pos_label)
    cal = lowess_calibration_curve(y, p)
    er = np.abs(p - cal)
    return LowessCalibrationError(
        float(er.max()), float(np.quantile(er, 0.9)), float(er.mean())
    )


@backends(dask="skbrier._backends._dask._adapters:c_statistic", array_api=HOST)
@shared_doc
def c_statistic(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    resolution: float | str | None = None,
) -> float:
    r"""The C statistic (area under the ROC curve) of binary forecasts.

    The probability that a random event gets a higher forecast than a random
    non-event (ties count 1/2):
    :math:`C = \sum_{i: y_i = 1} w_i V_i / W_1` with the placement
    :math:`V_i = (W_0(p < p_i) + W_0(p = p_i) / 2) / W_0` (one sort; equal to
    :func:`sklearn.metrics.roc_auc_score`).  :func:`calibration_report`
    adds DeLong's interval from the same placements.

    Parameters
    ----------
    {{binary_forecast}}
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights (rows of zero weight are left out).
    pos_label : int, float, bool or str, default=None
        The positive class.
    {{resolution}}
        C changes by at most half the weighted share of event/non-event
        pairs closer than the step.

    Returns
    -------
    float
        C in [0, 1]; 0.5 is no discrimination.

    Raises
    ------
    ValueError
        For invalid input or a single outcome class among the rows of
        positive weight.

    See Also
    --------
    sklearn.metrics.roc_auc_score : The same number.

    Notes
    -----
    ``rms::val.prob`` reports C from ``lrm.fit``, which groups the forecasts
    into bins before ranking them (see R's ``?lrm``) and leaves out
    probabilities of exactly 0 or 1; its value can differ from this exact
    one in the fourth decimal.
    ``Hmisc::somers2`` is exact and equals this function.

    References
    ----------
    .. [1] J. A. Hanley and B. J. McNeil, "The meaning and use of the area
       under a receiver operating characteristic (ROC) curve", Radiology 143,
       29-36, 1982.

    Examples
    --------
    >>> from skbrier.metrics.calibration import c_statistic
    >>> c_statistic([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    resolution = check_resolution(resolution)
    y, p, w = _binary(y_true, y_proba, sample_weight, pos_label)
    p = apply_resolution(y, p, w, resolution)
    if w is not None:
        # rows of zero weight are removed rows
        pos = w > 0
        y, p, w = y[pos], p[pos], w[pos]
    if np.all(y == y[0]):
        raise ValueError(
            "y_true contains a single class (among the rows of positive weight): "
            "the C statistic is undefined."
        )
    if w is not None:
        # C is a ratio of sums over (event, non-event) pairs: it does not depend
        # on the scale of either class's weights, so each class is scaled to at
        # most 1 on its own -- weights 1e200 and 1e-200 apart in different
        # classes no longer round one class to 0 (a NaN C)
        w = w / np.where(y == 1, w[y == 1].max(), w[y == 0].max())
    return auc_delong(y, p, w)[0]
