"""Paired comparisons and statistical ties from the replicates of a question bootstrap.

Every replicate scores all forecasters on the same resampled questions, so
the difference of two forecasters' replicate scores is a *paired* bootstrap
of their difference.  From the ``(n_resamples, n_forecasters)`` replicates
(lower is better, NaN where undefined):

* :func:`pairwise_intervals`: the percentile interval of every difference
  :math:`L_i - L_j` (Bonferroni-adjusted over the pairs when simultaneous);
* :func:`tie_groups`: Chatbot Arena's rank, one plus the number of
  forecasters significantly better, whose equal values group the
  forecasters that are statistically tied;
* the top set (rank interval containing 1, Hall & Miller) is read from
  the rank intervals of :func:`~._boot.rank_matrix`.
"""

from __future__ import annotations

import numpy as np

from .._core.resampling import interval_from_replicates

__all__ = ["pairwise_intervals", "tie_groups"]


def pairwise_intervals(
    reps: np.ndarray, confidence_level: float, simultaneous: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of shape ``(k, k)``: the paired interval of ``L_i - L_j``.

    With ``simultaneous``, each interval has level ``1 - (1 - level) / m``,
    ``m = k (k - 1) / 2`` (Bonferroni), so that all of them hold together
    with probability at least ``level``.  The diagonal is 0; a pair never
    finite together in a replicate is NaN.
    """
    k = reps.shape[1]
    m = max(k * (k - 1) // 2, 1)
    level = 1.0 - (1.0 - confidence_level) / m if simultaneous else confidence_level
    low = np.full((k, k), np.nan)
    high = np.full((k, k), np.nan)
    reps = reps[~np.isnan(reps).all(axis=1)]  # disconnected replicates
    alpha = 1.0 - level
    for i in range(k):
        d = reps[:, i : i + 1] - reps
        if np.isnan(d).any():  # a forecaster missing from some replicates
            ci = interval_from_replicates(d, level, axis=0, nan_policy="omit")
            low[i], high[i] = ci.low, ci.high
        elif d.shape[0]:  # the same quantiles, without nanquantile's per-column loop
            low[i], high[i] = np.quantile(d, [alpha / 2.0, 1.0 - alpha / 2.0], axis=0)
    np.fill_diagonal(low, 0.0)
    np.fill_diagonal(high, 0.0)
    return low, high


def tie_groups(high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``better[i, j]`` (``L_i - L_j`` significantly below 0) and each forecaster's group.

    The group of forecaster ``i`` is ``1 + #{j: better[j, i]}`` (the rank
    Chatbot Arena shows): forecasters with the same value are statistically
    tied for that place; group 1 holds those that nobody beats.
    """
    better = np.asarray(high < 0.0)
    return better, 1 + better.sum(axis=0).astype(np.int64)
