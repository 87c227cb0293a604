"""Prediction-powered inference for a mean (PPI and PPI++), with frequency weights.

Formulas of Angelopoulos et al. (2023) for the mean of a quantity ``y`` known
on a small labelled set and predicted (``yhat``) on every item, written with
frequency weights: a weight of ``k`` counts as ``k`` repeated rows, so
unweighted input gives exactly the numbers of ``ppi_py``'s
``ppi_mean_pointestimate`` / ``ppi_mean_ci`` (which use importance weights,
a different thing).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .brier import weighted_mean

__all__ = ["PPIMean", "ppi_mean"]


class PPIMean(NamedTuple):
    estimate: float
    standard_error: float
    lam: float
    classical: float
    classical_standard_error: float
    imputed: float


def _wmean(x: np.ndarray, w: np.ndarray, n: float) -> float:
    """The weighted mean (``n`` the total weight: the mean is scale-free, its
    sums are those of :func:`weighted_mean`, exact for weights of 5e-324)."""
    return weighted_mean(x, w)


def _wvar(x: np.ndarray, w: np.ndarray, n: float, ddof: int) -> float:
    """The weighted variance over ``n - ddof`` (``n`` the total weight)."""
    m = weighted_mean(x, w)
    mean_square = weighted_mean((x - m) ** 2, w)
    return mean_square if ddof == 0 else mean_square * (n / (n - ddof))


def ppi_mean(
    y: np.ndarray,
    yhat: np.ndarray,
    yhat_unlabeled: np.ndarray,
    w: np.ndarray,
    w_unlabeled: np.ndarray,
    lam: float | None,
) -> PPIMean:
    """PPI++ estimate of the mean of ``y`` and its standard error.

    ``lam=None`` tunes the power parameter as PPI++ does (clipped to [0, 1]);
    ``lam=1`` is plain PPI and ``lam=0`` the classical mean of ``y``.
    """
    n = float(w.sum())
    big_n = float(w_unlabeled.sum())
    if lam is None:
        theta = _wmean(yhat_unlabeled, w_unlabeled, big_n) + _wmean(y - yhat, w, n)
        gy = y - theta
        gh = yhat - theta
        # (1/n) (gy_c' gh_c + gh_c' gy_c) for centred gradients
        cov = 2.0 * np.dot(w, (gy - _wmean(gy, w, n)) * (gh - _wmean(gh, w, n))) / n
        # sample variance (ddof 1) of the predictions of both sets together
        w_all = np.concatenate([w, w_unlabeled])
        total = n + big_n
        # ddof 1 with the weights as counts (a total weight below 2 is not a count)
        var_hat = _wvar(
            np.concatenate([yhat, yhat_unlabeled]), w_all, total, 1 if total > 2 else 0
        )
        if var_hat > 0.0:
            lam = float(np.clip(cov / (2.0 * (1.0 + n / big_n) * var_hat), 0.0, 1.0))
        else:  # constant predictions carry no information
            lam = 0.0
    imputed = _wmean(yhat_unlabeled, w_unlabeled, big_n)
    estimate = lam * imputed + _wmean(y - lam * yhat, w, n)
    se = math.sqrt(
        lam**2 * _wvar(yhat_unlabeled, w_unlabeled, big_n, 0) / big_n
        + _wvar(y - lam * yhat, w, n, 0) / n
    )
    classical = _wmean(y, w, n)
    classical_se = math.sqrt(_wvar(y, w, n, 0) / n)
    return PPIMean(estimate, se, lam, classical, classical_se, imputed)
