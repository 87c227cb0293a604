"""One model's parts of a calibration panel: the smooth curve, the grouped
points and the statistics (computed by the public metrics).

Apart from the drawing helpers (:mod:`._calibration_parts`) so that the
curve's own ``plot()`` (:mod:`._flexible_draw`) does not reach the metrics
that compute it.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from ._reliability_bins import binned_reliability, observed_frequency_interval

__all__ = ["ModelParts", "model_parts"]


class ModelParts(NamedTuple):
    """What one model shows on one panel."""

    curve: Any  # FlexibleCalibrationCurve
    points: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    statistics: dict[str, Any]
    n: float
    events: float


def model_parts(
    y: Any,
    p: Any,
    w: Any,
    *,
    curve_options: dict[str, Any],
    n_bins: int | str,
    strategy: Any,
    interval: str | None,
    confidence_level: float,
    pos_label: Any = None,
) -> ModelParts:
    """The smooth curve, the grouped points and the statistics of one model."""
    from ..metrics import brier_score, flexible_calibration_curve
    from ..metrics.calibration import c_statistic, calibration_intercept_slope

    curve = flexible_calibration_curve(
        y,
        p,
        sample_weight=w,
        pos_label=pos_label,
        confidence_level=confidence_level,
        **curve_options,
    )
    y01, pv, wv = curve._forecasts()
    bins = binned_reliability(y01, pv, wv, n_bins, strategy)
    ok = bins.statistics.sum_w > 0
    x, obs = bins.bin_mean_forecast[ok], bins.bin_observed_frequency[ok]
    if interval is None:
        lo, hi = np.full_like(x, np.nan), np.full_like(x, np.nan)
    else:
        ci = observed_frequency_interval(bins, interval, confidence_level)
        lo, hi = np.asarray(ci.low)[ok], np.asarray(ci.high)[ok]
    with warnings.catch_warnings():
        # rows at exactly 0 or 1 left out of the logistic fits: as val.prob
        warnings.simplefilter("ignore", UserWarning)
        logistic = calibration_intercept_slope(y01, pv, sample_weight=wv)
    stats = {
        "intercept": logistic.calibration_in_the_large,
        "intercept_ci": logistic.confidence_interval(
            confidence_level, metric="calibration_in_the_large"
        ),
        "slope": logistic.slope,
        "slope_ci": logistic.confidence_interval(
            confidence_level, metric="calibration_slope"
        ),
        "c": c_statistic(y01, pv, sample_weight=wv),
        "brier": brier_score(y01, pv, sample_weight=wv),
        "ici": curve.ici,
        "e90": curve.e90,
    }
    ww = np.ones_like(pv) if wv is None else wv
    n, events = float(ww.sum()), float((ww * y01).sum())
    return ModelParts(curve, (x, obs, lo, hi), stats, n, events)
