r"""The bins of the binned reliability diagram: scikit-learn's, with weights.

:func:`binned_reliability` bins validated binary forecasts exactly as
:func:`sklearn.calibration.calibration_curve` does, so that the points of the
diagram are scikit-learn's ``(prob_pred, prob_true)`` to the last bit:

* edges: ``np.linspace(0, 1, K + 1)`` (``"uniform"``) or
  ``np.percentile(p, np.linspace(0, 1, K + 1) * 100)`` (``"quantile"``,
  duplicates kept: a repeated smallest forecast is a bin of its own, as in
  scikit-learn);
* assignment: ``np.searchsorted(edges[1:-1], p)``, a forecast on an inner
  edge in the lower bin (:func:`skbrier._core.binning.assign_bins`, the one
  rule of the package);
* ``n_bins="cube_root"``: :math:`\lceil n^{1/3} \rceil` bins (scikit-learn
  1.10; the default of 1.12).

These are the package's uniform edges (:func:`skbrier._core.binning.uniform_edges`,
the edges of :func:`~skbrier.metrics.decomposition.murphy_decomposition` too).

Frequency weights extend the rule: the quantile edges are those of the
repeated rows (:func:`skbrier._core.binning.weighted_quantile`), ``n`` of the
cube-root rule is the total weight, and a bin's sample size is its weight,
so integer weights give the diagram of the repeated rows.

The sums and the components are the package's own
(:func:`~skbrier._core.kernels.decomposition.binned_sums`,
:func:`~skbrier.metrics.decomposition.murphy_from_statistics`).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._core.binning import assign_bins, check_edges, check_edges_cover, uniform_edges
from .._core.kernels.bin_statistics import BinStatistics
from .._core.kernels.calibration_error import sklearn_quantile_edges
from .._core.kernels.decomposition import binned_sums
from .._core.params import check_confidence_level, check_n_bins, check_option
from .._core.results import ConfidenceInterval
from ..metrics._decomposition_results import MurphyDecomposition
from ..metrics.decomposition import murphy_from_statistics

__all__ = [
    "INTERVALS",
    "binned_reliability",
    "calibration_edges",
    "check_binning",
    "clopper_pearson_interval",
    "observed_frequency_interval",
    "resolve_n_bins",
]

#: per-bin intervals of the binned diagram (None: no intervals)
INTERVALS = ("wilson", "clopper_pearson")


def _check_n_bins(n_bins: Any) -> int | str:
    if isinstance(n_bins, str):
        if n_bins != "cube_root":
            raise ValueError(f"n_bins must be an integer or 'cube_root', got {n_bins!r}.")
        return n_bins
    return check_n_bins(n_bins)


def check_binning(n_bins: Any, strategy: Any) -> tuple[int | str, str | np.ndarray]:
    """``n_bins`` (an integer or ``"cube_root"``) and ``strategy``
    (``"uniform"``, ``"quantile"`` or strictly increasing edges), checked."""
    n_bins = _check_n_bins(n_bins)
    if isinstance(strategy, str):
        strategy = check_option(strategy, "strategy", ("uniform", "quantile"))
    else:
        strategy = check_edges(strategy)
    return n_bins, strategy


def resolve_n_bins(n_bins: Any, n: float) -> int:
    r"""The number of bins: ``n_bins``, or :math:`\lceil n^{1/3} \rceil` for
    ``"cube_root"`` (computed as ``n ** (1 / 3)``, as scikit-learn writes it).

    ``n`` is the number of rows, or the total weight with frequency weights.
    """
    if _check_n_bins(n_bins) == "cube_root":
        return check_n_bins(max(1, math.ceil(n ** (1 / 3))))
    return int(n_bins)


def calibration_edges(
    p: np.ndarray, w: np.ndarray | None, n_bins: int, strategy: str | np.ndarray
) -> np.ndarray:
    """scikit-learn's ``n_bins + 1`` edges (ties kept), or explicit edges."""
    if not isinstance(strategy, str):
        check_edges_cover(p, strategy)
        return strategy
    if strategy == "uniform":
        return uniform_edges(n_bins)
    return sklearn_quantile_edges(p, w, n_bins)


def binned_reliability(
    y01: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    n_bins: int | str,
    strategy: str | np.ndarray,
) -> MurphyDecomposition:
    """The binned decomposition of validated forecasts in scikit-learn's bins.

    Its ``bin_mean_forecast`` and ``bin_observed_frequency`` of the bins of
    positive weight are ``calibration_curve``'s ``prob_pred`` and
    ``prob_true``.
    """
    n = float(np.sum(w)) if w is not None else p.shape[0]
    k = resolve_n_bins(n_bins, n)
    edges = calibration_edges(p, w, k, strategy)
    idx = assign_bins(p, edges)
    kk = edges.shape[0] - 1
    stats = BinStatistics(edges, *binned_sums(idx, kk, y01, p, w))
    # calibration_curve's own sums (one sequential bincount each; the one-pass
    # kernel adds in another order): the points are prob_pred and prob_true to
    # the last bit
    wp = p if w is None else w * p
    wy = y01 if w is None else w * y01
    total = np.bincount(idx, minlength=kk).astype(np.float64)
    stats = dataclasses.replace(
        stats,
        sum_w=total if w is None else np.bincount(idx, weights=w, minlength=kk),
        sum_wp=np.bincount(idx, weights=wp, minlength=kk),
        sum_wy=np.bincount(idx, weights=wy, minlength=kk),
    )
    return murphy_from_statistics(stats)


def clopper_pearson_interval(
    events: np.ndarray, total: np.ndarray, confidence_level: float
) -> tuple[np.ndarray, np.ndarray]:
    r"""Clopper--Pearson (exact binomial) interval of ``events`` out of ``total``.

    :math:`B^{-1}(\alpha/2;\, x, n - x + 1)` and
    :math:`B^{-1}(1 - \alpha/2;\, x + 1, n - x)` with :math:`B` the beta
    distribution function, 0 for no event and 1 for all events: the
    ``method="beta"`` interval of statsmodels' ``proportion_confint``.
    Non-integer (weighted) counts are read as they are.
    """
    from scipy.stats import beta

    alpha = 1.0 - confidence_level
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.asarray(beta.ppf(alpha / 2, events, total - events + 1), dtype=np.float64)
        hi = np.asarray(beta.isf(alpha / 2, events + 1, total - events), dtype=np.float64)
        share = events / total
    lo[share == 0] = 0.0
    hi[share == 1] = 1.0
    return lo, hi


def observed_frequency_interval(
    result: MurphyDecomposition, interval: str, confidence_level: float
) -> ConfidenceInterval:
    """Per-bin interval of the observed frequency (NaN for empty bins).

    The sample size of a bin is its weight: integer weights give the
    intervals of the repeated rows.
    """
    interval = check_option(interval, "interval", INTERVALS)
    level = check_confidence_level(confidence_level)
    if interval == "wilson":
        return result.observed_frequency_interval(level)
    stats = result.statistics
    return ConfidenceInterval(*clopper_pearson_interval(stats.sum_wy, stats.sum_w, level))
