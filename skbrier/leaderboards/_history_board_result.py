"""The result of :func:`skbrier.history_leaderboard` (the result protocol of :mod:`skbrier._core.results`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .._core.params import DEFAULT_CONFIDENCE_LEVEL
from .._core.resampling import interval_from_replicates
from .._core.results import _ModelIntervalResult
from ._history_result import _ForecasterTable
from ._ranking import RankedResult

__all__ = ["HistoryLeaderboardResult", "oriented", "score_interval"]


def oriented(values: Any, higher_is_better: bool) -> Any:
    """A loss (lower is better) back in the score's orientation, or the reverse:
    negated when ``higher_is_better`` (a zero stays 0, not -0)."""
    return -np.asarray(values) + 0.0 if higher_is_better else values


def score_interval(
    loss_replicates: np.ndarray, confidence_level: float, higher_is_better: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``: the percentile interval of each forecaster's adjusted score.

    ``loss_replicates`` has shape ``(n_resamples, k)`` and is oriented as a
    loss (the score negated when ``higher_is_better``); the bounds are in
    the score's orientation (NaN replicates left out, NaN without any).
    """
    k = loss_replicates.shape[1]
    if loss_replicates.shape[0] == 0:
        return np.full(k, np.nan), np.full(k, np.nan)
    ci = interval_from_replicates(
        loss_replicates, confidence_level, axis=0, nan_policy="omit"
    )
    low, high = oriented(ci.low, higher_is_better), oriented(ci.high, higher_is_better)
    return (high, low) if higher_is_better else (low, high)


@dataclasses.dataclass(frozen=True, repr=False)
class HistoryLeaderboardResult(RankedResult, _ModelIntervalResult, _ForecasterTable):
    r"""A leaderboard of scores over forecast histories, with paired bootstrap inference.

    Returned by :func:`skbrier.history_leaderboard`.  Scores keep the
    orientation of the history score (``higher_is_better``); arrays are
    aligned with ``forecasters`` (sorted names), matrices with
    ``forecasters`` on both axes.

    ``confidence_interval`` is the ``method="percentile"`` interval (its
    only one) over the replicates of the adjusted score (the default:
    ``score_low`` and ``score_high`` at the result's level) or of
    ``metric="rank"`` (rounded outward: ``rank_low`` and ``rank_high``), as
    on :class:`~skbrier.leaderboards.LeaderboardResult`: arrays over the
    forecasters, or floats for the one named by ``model=``.  The adjusted
    score is ``metric="adjusted_brier"`` when the history score is a Brier
    score (``daily_brier``, ``brier_at``: lower is better) and
    ``metric="adjusted_score"`` for the peer and baseline scores.

    Attributes
    ----------
    score_name : str
        The history score ranked, e.g. ``"daily_brier"``.
    higher_is_better : bool
        True for the Metaculus peer and baseline scores.
    forecasters : ndarray
        The forecaster names, sorted.
    adjusted_score : ndarray
        Difficulty-adjusted score: the weighted mean of
        :math:`s_{iq} - \gamma_q` over the forecaster's questions (anchored
        when ``anchor`` is given; the raw mean with ``adjustment="none"``).
    raw_score : ndarray
        The weighted mean of the forecaster's pair scores.
    n_questions : ndarray of int
        Questions on which the forecaster is scored.
    fitted : ndarray of bool
        Whether the forecaster's pairs estimated the question effects.
    questions : ndarray
        The question names, sorted.
    question_effects : ndarray
        :math:`\gamma_q` in the score's units.
    score_low, score_high : ndarray
        Percentile interval of ``adjusted_score`` over the replicates.
    rank : ndarray
        Rank of ``adjusted_score`` (1 = best; ties share the best rank).
    rank_low, rank_high : ndarray
        Percentile interval of the replicate ranks, rounded outward (Hall
        & Miller's bootstrap rank interval).
    contains_best : ndarray of bool
        ``rank_low == 1``: the rank interval contains rank 1 (the top set).
    tie_group : ndarray of int
        One plus the number of forecasters significantly better (see
        ``better``); forecasters with the same value are statistically tied.
    p_value : ndarray
        Share of replicates in which the forecaster scores at least as well
        as ``reference`` (NaN for the reference itself or without one).
    share_best : ndarray
        Share of replicates in which the forecaster scores best.
    difference_low, difference_high : ndarray of shape (n_forecasters, n_forecasters)
        Paired bootstrap interval of ``adjusted_score[i] - adjusted_score[j]``
        (Bonferroni-adjusted over the pairs when ``simultaneous``).
    better : ndarray of bool, shape (n_forecasters, n_forecasters)
        ``better[i, j]``: forecaster ``i`` is significantly better than
        ``j`` (the interval of their difference excludes 0 on ``i``'s side).
    replicates : ndarray of shape (n_resamples, n_forecasters)
        Replicate adjusted scores, NaN where undefined.
    confidence_level : float
    simultaneous : bool
    n_resamples : int
    n_disconnected : int
        Replicates left out because their forecaster-question graph was
        disconnected.
    reference : object or None
    adjustment : {"fixed_effects", "frozen", "none"}
        How question difficulty was removed.
    anchor : tuple or None

    Examples
    --------
    >>> from skbrier import brier_at, forecast_history, history_leaderboard
    >>> h = forecast_history(
    ...     {"forecaster": ["a", "b", "a", "b"], "question": [1, 1, 2, 2],
    ...      "timestamp": [0, 0, 0, 0], "probability": [0.9, 0.6, 0.2, 0.5]},
    ...     {"question": [1, 2], "open_time": [0, 0], "close_time": [1, 1],
    ...      "outcome": [1, 0]}, resolve_time=None)
    >>> res = history_leaderboard(brier_at(h), n_resamples=0)
    >>> res
    HistoryLeaderboardResult(score_name=brier_at(last), n_forecasters=2, n_questions=2, best=a, best_score=0.025)
    >>> res.adjusted_score.round(4).tolist(), res.rank.tolist()
    ([0.025, 0.205], [1.0, 2.0])
    """

    _interval_metrics: ClassVar[tuple[str, ...]] = (
        "adjusted_brier",
        "adjusted_score",
        "rank",
    )
    _interval_methods: ClassVar[tuple[str, ...]] = ("percentile",)
    _maker: ClassVar[str] = "history_leaderboard"

    _columns: ClassVar[tuple[str, ...]] = (
        "adjusted_score",
        "score_low",
        "score_high",
        "raw_score",
        *RankedResult._rank_columns,
    )

    _score_field: ClassVar[str] = "adjusted_score"

    score_name: str
    higher_is_better: bool
    forecasters: np.ndarray
    adjusted_score: np.ndarray
    raw_score: np.ndarray
    n_questions: np.ndarray
    fitted: np.ndarray
    questions: np.ndarray
    question_effects: np.ndarray
    score_low: np.ndarray
    score_high: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    contains_best: np.ndarray
    tie_group: np.ndarray
    p_value: np.ndarray
    share_best: np.ndarray
    difference_low: np.ndarray
    difference_high: np.ndarray
    better: np.ndarray
    replicates: np.ndarray
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL
    simultaneous: bool = True
    n_resamples: int = 0
    n_disconnected: int = 0
    reference: Any = None
    adjustment: str = "fixed_effects"
    anchor: tuple[Any, float] | None = None

    def _valid_metrics(self) -> Sequence[str]:
        """A Brier score over histories (lower is better) is an adjusted Brier score."""
        return ("adjusted_score" if self.higher_is_better else "adjusted_brier", "rank")

    def _default_metric(self) -> str:
        return self._valid_metrics()[0]

    def _loss_replicates(self) -> np.ndarray:
        return np.asarray(oriented(self.replicates, self.higher_is_better))

    def _score_interval(self, metric: str, level: float) -> tuple[np.ndarray, np.ndarray]:
        return score_interval(self._loss_replicates(), level, self.higher_is_better)
