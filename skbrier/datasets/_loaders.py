"""Loaders for the bundled data (no network access)."""

from __future__ import annotations

import csv
from importlib import resources

import numpy as np

__all__ = ["load_forecasts", "make_logistic_cohort"]


def load_forecasts() -> dict:
    """Bundled forecasts of a binary outcome by two models, 2,000 patients.

    The data were simulated once by ``benchmarks/make_bundled_data.py`` from
    the scenario of Assel, Sjoberg & Vickers (2017): prevalence about 20 %,
    ``logit P(D = 1 | z) = -1.65 + z`` with ``z ~ N(0, 1)``.  ``model_a`` is
    the calibrated model, ``model_b`` the same model with its intercept
    shifted by +1 (over-predicting).  Rows are in time order (``period``), so
    the file also serves for serially correlated examples.

    Returns
    -------
    dict
        ``{"y": int array, "model_a": float array, "model_b": float array,
        "period": int array, "columns": list of column names}``.

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> data = load_forecasts()
    >>> data["y"].shape
    (2000,)
    >>> sorted(k for k in data if k != "columns")
    ['model_a', 'model_b', 'period', 'y']
    """
    path = resources.files("skbrier.datasets") / "data" / "forecasts.csv"
    with path.open("r", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        rows = list(reader)
    cols = list(zip(*rows))
    out: dict = {"columns": header}
    for name, values in zip(header, cols):
        if name in ("y", "period"):
            out[name] = np.asarray(values, dtype=np.int64)
        else:
            out[name] = np.asarray(values, dtype=np.float64)
    return out


def make_logistic_cohort(
    n: int = 10_000, *, gamma: float = 0.0, random_state: int | None = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Simulate a cohort and a logistic model with a shifted intercept.

    The scenario of Assel, Sjoberg & Vickers (2017), who show that the Brier
    score can rank a miscalibrated model above a useful one.

    ``z ~ N(0, 1)``, ``D ~ Bernoulli(expit(-1.65 + z))``; the model predicts
    ``expit(-1.65 + gamma + z)`` (``gamma = 0`` is calibrated).

    Parameters
    ----------
    n : int, default=10000
        Number of patients.
    gamma : float, default=0.0
        Shift of the model's intercept (miscalibration).
    random_state : int or None, default=0
        Seed of the random generator.

    Returns
    -------
    y : ndarray of shape (n,)
        Outcomes (0/1).
    p : ndarray of shape (n,)
        Predicted probabilities.

    References
    ----------
    .. [1] M. Assel, D. D. Sjoberg and A. J. Vickers, "The Brier score does not
       evaluate the clinical utility of diagnostic tests or prediction models",
       Diagnostic and Prognostic Research 1, 5 (2017).

    Examples
    --------
    >>> from skbrier.datasets import make_logistic_cohort
    >>> y, p = make_logistic_cohort(1000, random_state=1)
    >>> y.shape, p.shape
    ((1000,), (1000,))
    """
    rng = np.random.default_rng(random_state)
    z = rng.standard_normal(n)
    true_p = 1.0 / (1.0 + np.exp(-(-1.65 + z)))
    y = (rng.random(n) < true_p).astype(np.int64)
    p = 1.0 / (1.0 + np.exp(-(-1.65 + gamma + z)))
    return y, p
