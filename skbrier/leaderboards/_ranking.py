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
* :func:`rank_inference`: both, with the rank intervals (Hall & Miller)
  and the top set (the forecasters whose rank interval contains 1) -- what
  :func:`skbrier.leaderboard` and :func:`skbrier.history_leaderboard` report;
* :class:`RankedResult`: ``top_set``, ``groups``, ``pairwise_frame`` and the
  ``confidence_interval`` of ranks and scores of their results.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

import numpy as np

from .._core.optional import import_optional
from .._core.resampling import interval_from_replicates
from .._core.results import ConfidenceInterval, to_builtin
from ._boot import rank_matrix
from ._panel import check_name

__all__ = [
    "RankInference",
    "RankedResult",
    "pairwise_intervals",
    "rank_inference",
    "rank_interval",
    "tie_groups",
]


def rank_interval(
    reps: np.ndarray, confidence_level: float
) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``: the percentile interval of each forecaster's replicate rank,
    rounded outward (Hall & Miller); NaN for a forecaster NaN in every replicate.

    ``reps`` has shape ``(n_resamples, k)``, lower is better, NaN where
    undefined (left out of the quantiles).
    """
    k = reps.shape[1]
    low, high = np.full(k, np.nan), np.full(k, np.nan)
    scored = ~np.isnan(reps).all(axis=0)
    if reps.shape[0] and scored.any():
        rci = interval_from_replicates(
            rank_matrix(reps)[:, scored], confidence_level, axis=0, nan_policy="omit"
        )
        low[scored] = np.floor(np.asarray(rci.low))
        high[scored] = np.ceil(np.asarray(rci.high))
    return low, high


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
    # a forecaster NaN in every replicate (no score) has no paired interval
    scored = np.flatnonzero(~np.isnan(reps).all(axis=0))
    reps = reps[:, scored]
    alpha = 1.0 - level
    for i, row in enumerate(scored):
        d = reps[:, i : i + 1] - reps
        if np.isnan(d).any():  # a forecaster missing from some replicates
            ci = interval_from_replicates(d, level, axis=0, nan_policy="omit")
            low[row, scored], high[row, scored] = ci.low, ci.high
        elif d.shape[0]:  # the same quantiles, without nanquantile's per-column loop
            q = np.quantile(d, [alpha / 2.0, 1.0 - alpha / 2.0], axis=0)
            low[row, scored], high[row, scored] = q
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


class RankInference(NamedTuple):
    """Rank intervals, paired intervals and tie groups of the forecasters (see :func:`rank_inference`)."""

    rank_low: np.ndarray
    rank_high: np.ndarray
    contains_best: np.ndarray
    difference_low: np.ndarray
    difference_high: np.ndarray
    better: np.ndarray
    tie_group: np.ndarray


def rank_inference(
    reps: np.ndarray, confidence_level: float, simultaneous: bool
) -> RankInference:
    """Rank intervals, top set, paired intervals and tie groups from the replicates.

    ``reps`` has shape ``(n_resamples, k)``, lower is better, NaN where
    undefined.  The rank interval is the percentile interval of the
    replicate ranks rounded outward (Hall & Miller); ``contains_best`` is
    ``rank_low == 1``; the paired intervals and groups are those of
    :func:`pairwise_intervals` and :func:`tie_groups`.  Without replicates
    the intervals are NaN, the top set is empty and every forecaster is in
    group 1.
    """
    k = reps.shape[1]
    low, high = rank_interval(reps, confidence_level)
    if reps.shape[0]:
        diff_low, diff_high = pairwise_intervals(reps, confidence_level, simultaneous)
    else:
        diff_low, diff_high = np.full((k, k), np.nan), np.full((k, k), np.nan)
    better, group = tie_groups(diff_high)
    return RankInference(
        np.asarray(low, dtype=np.float64),
        np.asarray(high, dtype=np.float64),
        low == 1.0,
        diff_low,
        diff_high,
        better,
        group,
    )


class RankedResult:
    """Mixin of the leaderboard results with tie groups: ``top_set``, ``groups``,
    ``pairwise_frame`` and the intervals of ``confidence_interval``.

    The result has the fields of :class:`RankInference`, ``forecasters``,
    ``rank`` (of the point estimates, 1 = best), ``replicates`` and names the
    field whose differences the paired intervals bound (``_score_field``) and
    the function that makes it (``_maker``).  Its table ends with the columns
    of the question bootstrap (``_rank_columns``).  Its ``confidence_interval``
    (of :class:`skbrier._core.results._ModelIntervalResult`) gives
    ``metric="rank"`` here and every other metric from ``_score_interval``.
    """

    #: the last columns of the table: the question counts and the bootstrap's ranks
    _rank_columns: ClassVar[tuple[str, ...]] = (
        "n_questions",
        "rank_low",
        "rank_high",
        "tie_group",
        "contains_best",
        "p_value",
        "share_best",
    )

    # fields of the dataclasses that use the mixin
    forecasters: np.ndarray
    rank: np.ndarray
    contains_best: np.ndarray
    tie_group: np.ndarray
    difference_low: np.ndarray
    difference_high: np.ndarray
    better: np.ndarray
    replicates: np.ndarray
    _score_field: ClassVar[str]
    _maker: ClassVar[str]

    def _loss_replicates(self) -> np.ndarray:
        """The replicates oriented as a loss (lower is better)."""
        return self.replicates

    def _score_interval(self, metric: str, level: float) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` over the forecasters of a metric other than ``"rank"``."""
        raise NotImplementedError

    def _interval(
        self, metric: str, level: float, method: str, model: Any = None
    ) -> ConfidenceInterval:
        """The percentile interval of ``metric`` over the replicates (every
        forecaster's, or ``model``'s as floats)."""
        if self.replicates.shape[0] == 0:
            raise ValueError(
                f"no bootstrap replicates: call {self._maker} with n_resamples > 0."
            )
        if metric == "rank":
            low, high = rank_interval(self._loss_replicates(), level)
        else:
            low, high = self._score_interval(metric, level)
        if model is None:
            return ConfidenceInterval(low, high)
        i = check_name(model, self.forecasters, "model")
        return ConfidenceInterval(float(low[i]), float(high[i]))

    def _by_rank(self) -> np.ndarray:
        """Best first, NaN last, ties by position."""
        r = np.asarray(self.rank, dtype=np.float64)
        return np.argsort(np.where(np.isnan(r), np.inf, r), kind="stable")

    @property
    def top_set(self) -> list[Any]:
        """Forecasters whose rank interval contains rank 1, best first."""
        return [
            to_builtin(self.forecasters[i])
            for i in self._by_rank()
            if self.contains_best[i]
        ]

    @property
    def groups(self) -> dict[int, list[Any]]:
        """The forecasters of each ``tie_group``, best first within a group
        (a forecaster without a score, NaN, is in none)."""
        out: dict[int, list[Any]] = {}
        scored = ~np.isnan(np.asarray(self.rank, dtype=np.float64))
        for i in self._by_rank():
            if not scored[i]:
                continue
            out.setdefault(int(self.tie_group[i]), []).append(
                to_builtin(self.forecasters[i])
            )
        return dict(sorted(out.items()))

    def pairwise_frame(self) -> Any:
        """One row per ordered pair of forecasters: the paired interval of their difference.

        Returns
        -------
        pandas.DataFrame
            Columns ``forecaster``, ``other``, ``difference`` (of the
            point scores the leaderboard ranks), ``low``, ``high`` and
            ``better`` (forecaster significantly better than other).
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.pairwise_frame()")

        k = self.forecasters.shape[0]
        i, j = np.nonzero(~np.eye(k, dtype=bool))
        score = getattr(self, self._score_field)
        return pd.DataFrame(
            {
                "forecaster": self.forecasters[i],
                "other": self.forecasters[j],
                "difference": score[i] - score[j],
                "low": self.difference_low[i, j],
                "high": self.difference_high[i, j],
                "better": self.better[i, j],
            }
        )
