r"""IPCW Brier score and integrated Brier score for censored outcomes.

The two peers' conventions (``convention=``) are tabulated in
:func:`brier_score_survival`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._prepare import (
    Convention,
    Prepared,
    brier_only,
    censoring_weights,
    check_convention,
    check_integration,
    declare_survival,
    integration_weights,
    prepare,
)

__all__ = ["brier_score_survival", "integrated_brier_score"]


def ipcw_brier(prep: Prepared, conv: Convention, censoring: str) -> np.ndarray:
    """The IPCW Brier scores (K,) of the one prepared matrix at its horizons
    (the scores of :func:`brier_score_survival` and of the scorers)."""
    g_sub, g_hor = censoring_weights(prep.data, prep.times, conv, censoring=censoring)
    return brier_only(prep.data, prep.surv[0], prep.times, g_sub, g_hor)


@declare_survival()
def brier_score_survival(
    y_event: Any,
    y_time: Any = None,
    surv_proba: Any = None,
    times: Any = None,
    *,
    convention: str = "riskRegression",
    train_event: Any = None,
    train_time: Any = None,
    censoring: str = "km",
    sample_weight: Any = None,
) -> float | np.ndarray:
    r"""Time-dependent Brier score with inverse probability of censoring weights.

    .. math::

        BS(t) = \frac{1}{W} \sum_i w_i \left[
            \frac{1(T_i \le t, \delta_i = 1)\, \hat S(t \mid x_i)^2}{\hat G(T_i-)}
            + \frac{1(T_i > t)\, (1 - \hat S(t \mid x_i))^2}{\hat G(t)} \right]

    (Graf et al. 1999), with :math:`\hat G` the reverse Kaplan--Meier
    estimate of the censoring survivor function (the events at a time leave
    the risk set before the censorings at that time, as prodlim and
    scikit-survival do).  Two conventions are reproduced exactly
    (``convention=``):

    ======================  ==========================  ===========================
    convention              ``"riskRegression"``        ``"sksurv"``
                            (R riskRegression, pec;     (scikit-survival)
                            the default)
    ======================  ==========================  ===========================
    censoring model         reverse Kaplan--Meier of    reverse Kaplan--Meier of
    :math:`\hat G`          the scored data             the training outcome
                                                        (``train_event``)
    case weight             :math:`1/\hat G(T_i-)`      :math:`1/\hat G(T_i)`
    control weight          :math:`1/\hat G(t)`         :math:`1/\hat G(t)`
    tied event and          events leave the risk set   the same
    censoring times         first
    integrated score        step rule over              trapezoid rule over
                            :math:`[0, t_K]`            :math:`[t_1, t_K]`
    :math:`\hat G = 0`      cannot happen for a case    error (scikit-survival
                                                        gives the case weight 0)
    ======================  ==========================  ===========================

    The Brier scores differ only when a case's event time is also a
    censoring time (of the data the censoring model is fitted on) or when
    the training and scored data differ.  A scikit-survival call
    ``brier_score(y_train, y_test, estimate, times)`` is
    ``brier_score_survival(y_test, estimate, times, convention="sksurv",
    train_event=y_train)``.  scikit-survival also refuses a horizon at or
    after the last scored time or before the first one, and a scored time
    after the last training time (unless the training censoring curve ends
    at 0); none of these needs a censoring weight outside the follow-up, so
    skbrier returns the score there (scikit-survival's own wherever it
    returns one).

    Parameters
    ----------
    y_event : array-like of shape (n_samples,), structured array or estimator
        Event indicator (1 or True = event, 0 or False = censored); or a
        structured array (event, time) as scikit-survival's
        ``Surv.from_arrays`` makes, then call
        ``brier_score_survival(y, surv_proba, times)``; or a fitted survival
        estimator (with ``predict_survival_function``, as scikit-survival's),
        then call ``brier_score_survival(estimator, X, y, times)``.
    y_time : array-like of shape (n_samples,)
        Observed times (event or censoring), non-negative.
    surv_proba : array-like of shape (n_samples, n_times) or sequence of callables
        Predicted survival probabilities :math:`\hat S(t_k \mid x_i)`, in
        [0, 1] and non-increasing along each row; or the survival functions
        ``predict_survival_function`` returns, evaluated at ``times``.
    times : float or array-like of shape (n_times,)
        Horizons, strictly increasing, not beyond the largest observed time.
    convention : {"riskRegression", "sksurv"}, default="riskRegression"
        Whose Brier score: see above.
    train_event, train_time : array-like, default=None
        Training outcome for ``convention="sksurv"`` (``train_event`` may be
        a structured array, ``y_train``, with ``train_time=None``).
    censoring : {"km"}, default="km"
        Censoring model (reverse Kaplan--Meier).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (also in the censoring model of the scored data).

    Returns
    -------
    float or ndarray of shape (n_times,)
        A float when ``times`` is a scalar.

    Raises
    ------
    ValueError
        For bad input, horizons beyond follow-up, or when a weight would
        divide by :math:`\hat G = 0` (possible only with
        ``convention="sksurv"``; scikit-survival silently gives such a case
        weight 0, skbrier refuses).

    References
    ----------
    .. [1] Graf, E., Schmoor, C., Sauerbrei, W. & Schumacher, M. (1999).
       Assessment and comparison of prognostic classification schemes for
       survival data. Statistics in Medicine 18, 2529--2545.
    .. [2] Gerds, T. A. & Schumacher, M. (2006). Consistent estimation of the
       expected Brier score in general survival models with right-censored
       event times. Biometrical Journal 48, 1029--1040.

    Examples
    --------
    {{eight_subjects}}
    >>> from skbrier.survival import brier_score_survival
    >>> round(brier_score_survival(event, time, surv[:, 1:], 3.5), 6)
    0.101667
    >>> train_event, train_time = [1, 0, 0, 1, 1, 0], [0.5, 1.5, 3.0, 3.5, 6.0, 9.0]
    >>> round(brier_score_survival(event, time, surv[:, 1:], 3.5, convention="sksurv",
    ...                            train_event=train_event, train_time=train_time), 6)
    0.140417
    """
    conv = check_convention(convention, train_event, train_time)
    prep = prepare(y_event, y_time, [surv_proba], times, sample_weight=sample_weight)
    bs = ipcw_brier(prep, conv, censoring)
    return float(bs[0]) if prep.scalar_times else bs


@declare_survival()
def integrated_brier_score(
    y_event: Any,
    y_time: Any = None,
    surv_proba: Any = None,
    times: Any = None,
    *,
    convention: str = "riskRegression",
    integration: str | None = None,
    train_event: Any = None,
    train_time: Any = None,
    censoring: str = "km",
    sample_weight: Any = None,
) -> float:
    r"""Integrated Brier score over the horizons ``times`` (lower is better).

    ``integration="step"`` (riskRegression's ``Score(..., summary = "ibs")``,
    the default with ``convention="riskRegression"``): the Brier score as a
    step function, constant from each horizon to the next and 0 before the
    first (survival predictions start at 1), averaged over :math:`[0, t_K]`:

    .. math:: IBS = \frac{1}{t_K} \sum_{k < K} BS_k (t_{k+1} - t_k)

    ``integration="trapezoid"`` (scikit-survival's ``integrated_brier_score``,
    the default with ``convention="sksurv"``), averaged over
    :math:`[t_1, t_K]`:

    .. math:: IBS = \frac{1}{t_K - t_1} \sum_{k < K}
              \frac{(BS_k + BS_{k+1})(t_{k+1} - t_k)}{2}

    With ``convention="sksurv"`` and ``train_event=y_train`` this equals
    scikit-survival's ``integrated_brier_score(y_train, y_test, estimate,
    times)``; with the default it equals riskRegression's IBS at the last
    horizon.  The Brier scores are those of :func:`brier_score_survival`.

    Parameters
    ----------
    {{survival_inputs}}
    times : array-like of shape (n_times,)
        At least two strictly increasing horizons.
    {{survival_integration}}
    censoring : {"km"}, default="km"
        Censoring model.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights.

    Returns
    -------
    float
        The integrated Brier score.

    {{graf_reference}}

    Examples
    --------
    {{eight_subjects}}
    >>> from skbrier.survival import integrated_brier_score
    >>> round(integrated_brier_score(event, time, surv, [1.5, 3.5]), 6)
    0.037321
    >>> round(integrated_brier_score(event, time, surv, [1.5, 3.5],
    ...                              integration="trapezoid"), 6)
    0.08349
    """
    conv = check_convention(convention, train_event, train_time)
    rule = check_integration(integration, conv)
    prep = prepare(
        y_event, y_time, [surv_proba], times, sample_weight=sample_weight, integrated=True
    )
    weights, _ = integration_weights(prep.times, rule)
    return float(weights @ ipcw_brier(prep, conv, censoring))
