"""The validation measures of one data set with their variances (for pooling).

One home for what :func:`~skbrier.stats.pooled_validation` (over imputed
data sets) and :func:`~skbrier.stats.clustered_validation` (over centres)
compute on each part before pooling it.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import special

from .._core.arrays import validated
from .._core.kernels.calibration import auc_delong, observed_expected
from ..metrics.calibration import _logistic_calibration
from .inference import brier_inference

__all__ = ["MEASURES", "Transform", "from_scale", "to_scale", "validation_measures"]

Transform = Literal["identity", "logit", "log"]

#: each measure and the scale on which it is pooled (Debray et al. 2017)
MEASURES: tuple[tuple[str, Transform], ...] = (
    ("c_statistic", "logit"),
    ("observed_expected", "log"),
    ("calibration_in_the_large", "identity"),
    ("calibration_intercept", "identity"),
    ("calibration_slope", "identity"),
    ("brier_score", "identity"),
)


def validation_measures(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None
) -> dict[str, tuple[float, float]]:
    """``{measure: (estimate, variance)}`` on validated 0/1 ``y``, ``p`` and weights ``w``."""
    c, c_var = auc_delong(y, p, w)
    oe, _, _ = observed_expected(y, p, w, 0.95)
    ww = np.ones_like(p) if w is None else w
    o, n = float(np.dot(ww, y)), float(ww.sum())
    # the variance of log(O/E) of observed_expected, moved to O/E by the delta method
    oe_var = oe**2 * max(1.0 - o / n, 0.0) / o if o > 0 else float("nan")
    fit = _logistic_calibration(y, p, w, stacklevel=5)
    with validated(y, p, w):
        bs = brier_inference(y, p, sample_weight=w)
    return {
        "c_statistic": (c, c_var),
        "observed_expected": (oe, oe_var),
        "calibration_in_the_large": (
            fit.calibration_in_the_large,
            fit.calibration_in_the_large_stderr**2,
        ),
        "calibration_intercept": (fit.intercept, fit.intercept_stderr**2),
        "calibration_slope": (fit.slope, fit.slope_stderr**2),
        "brier_score": (bs.brier_score, bs.standard_error("brier_score") ** 2),
    }


def to_scale(
    q: np.ndarray, u: np.ndarray, transform: Transform
) -> tuple[np.ndarray, np.ndarray]:
    """Estimates and variances on the pooling scale (variances by the delta method)."""
    if transform == "logit":
        return special.logit(q), u / (q * (1.0 - q)) ** 2
    if transform == "log":
        return np.log(q), u / q**2
    return q, u


def from_scale(x: float, transform: Transform) -> float:
    if transform == "logit":
        return float(special.expit(x))
    if transform == "log":
        return float(np.exp(x))
    return float(x)
