"""Scorers for survival estimators (scikit-survival's API, without depending on it)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.metrics import make_scorer

from .._core.docstrings import with_pieces
from .._core.params import check_option
from ._checks import check_horizon_values, is_structured, survival_matrix
from ._prepare import (
    CONVENTIONS,
    SURVIVAL_PIECES,
    Convention,
    check_estimator_survival,
    check_integration,
    integration_weights,
    prepare,
)
from .scores import ipcw_brier

__all__ = ["make_survival_scorer", "survival_matrix"]

METRICS = ("integrated_brier_score", "brier_score")


def _score(
    y_true: Any,
    y_pred: Any,
    *,
    times: Any,
    metric: str,
    convention: str,
    integration: str | None,
    sample_weight: Any = None,
) -> float:
    if not is_structured(y_true):
        raise TypeError(
            "y must be a structured array (event, time) as sksurv.util.Surv.from_arrays makes."
        )
    integrated = metric == "integrated_brier_score"
    # the functions are evaluated by ``prepare``, after the horizons are checked
    # against the fold's follow-up (as the score functions do)
    surv = check_estimator_survival(y_pred, "estimator")
    prep = prepare(
        y_true, None, [surv], times, sample_weight=sample_weight, integrated=integrated
    )
    # a scorer sees only the validation fold: sksurv's censoring model is fitted
    # on it, with the fold's weights (as on its repeated rows)
    conv = Convention(convention, prep.data if convention == "sksurv" else None)
    bs = ipcw_brier(prep, conv, "km")
    if not integrated:
        return float(np.mean(bs))
    weights, _ = integration_weights(prep.times, check_integration(integration, conv))
    return float(weights @ bs)


@with_pieces(SURVIVAL_PIECES)
def make_survival_scorer(
    times: Any,
    *,
    metric: str = "integrated_brier_score",
    convention: str = "riskRegression",
    integration: str | None = None,
) -> Any:
    r"""A scikit-learn scorer for survival estimators at given horizons.

    The scorer calls ``estimator.predict_survival_function(X)`` (an array of
    step functions, as scikit-survival's estimators return), evaluates it at
    ``times`` and returns minus the score (greater is better), so it fits
    :class:`~sklearn.model_selection.GridSearchCV` (``scoring=``) as
    scikit-survival's ``as_integrated_brier_score_scorer`` does, without
    wrapping the estimator.  ``y`` must be a structured array (event, time).
    The score is exactly :func:`integrated_brier_score` (or
    :func:`brier_score_survival`) with the same ``convention`` and
    ``integration`` on the validation fold.  A scorer sees no training
    outcome, so the censoring model is fitted on each validation fold in
    both conventions: with ``convention="sksurv"`` the score is
    scikit-survival's ``integrated_brier_score(y_fold, y_fold, estimate,
    times)``, whereas scikit-survival's ``as_integrated_brier_score_scorer``
    fits it on the training fold.  Frequency weights passed to the scorer
    (``sample_weight``) weight the fold's censoring model too, so integer
    weights score as the repeated rows.

    .. math:: \text{score} = -IBS \quad\text{or}\quad -\frac{1}{K}\sum_k BS(t_k)

    Parameters
    ----------
    times : float or array-like
        Horizons, within the follow-up of every validation fold.
    metric : {"integrated_brier_score", "brier_score"}, default="integrated_brier_score"
        The integrated Brier score, or the mean of the Brier scores at ``times``.
    convention : {"riskRegression", "sksurv"}, default="riskRegression"
        Whose Brier score and integration rule (see
        :func:`brier_score_survival`).
    integration : {"step", "trapezoid"}, default=None
        Rule of the integral; None: the convention's (riskRegression's step
        rule over :math:`[0, t_K]`, scikit-survival's trapezoid rule over
        :math:`[t_1, t_K]`; see :func:`integrated_brier_score`).

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y)``, built with :func:`sklearn.metrics.make_scorer`.

    {{graf_reference}}

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.base import BaseEstimator
    >>> from skbrier.survival import make_survival_scorer
    >>> class Exponential(BaseEstimator):
    ...     def predict_survival_function(self, X):
    ...         return [lambda t, r=r: np.exp(-r * np.asarray(t)) for r in X[:, 0]]
    >>> X = np.array([[0.5], [0.2], [0.4], [0.1]])
    >>> y = np.array([(True, 1.0), (False, 2.0), (True, 3.0), (False, 4.0)],
    ...              dtype=[("event", bool), ("time", float)])
    >>> scorer = make_survival_scorer([1.5, 3.5])
    >>> round(scorer(Exponential(), X, y), 6)
    -0.073326
    >>> sk = make_survival_scorer([1.5, 3.5], convention="sksurv")
    >>> round(sk(Exponential(), X, y), 6)
    -0.095688
    """
    check_option(metric, "metric", METRICS)
    check_option(convention, "convention", CONVENTIONS)
    check_integration(integration, Convention(convention, None))
    # the horizons are checked now, not at the first score (the follow-up of
    # each validation fold is checked when scoring)
    check_horizon_values(times, integrated=metric == "integrated_brier_score")
    return make_scorer(
        _score,
        response_method=("predict_survival_function",),
        greater_is_better=False,
        times=times,
        metric=metric,
        convention=convention,
        integration=integration,
    )
