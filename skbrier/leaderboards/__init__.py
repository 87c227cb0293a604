"""Forecasting leaderboards: difficulty-adjusted Brier scores and the Brier Index.

For benchmarks in which forecasters answer overlapping sets of questions
(ForecastBench and the like): an exact two-way fixed-effects adjustment for
question difficulty (:func:`difficulty_adjusted_brier`), a question
bootstrap with intervals, p-values, rank intervals, the top set, groups of
statistically tied forecasters and the share of replicates each forecaster
is best (:func:`leaderboard`), combined
leaderboards over question types (:func:`combine_leaderboards`) and the
projected date at which the state of the art reaches a target
(:func:`parity_date`).

Forecast histories (every update of every forecaster while a question is
open, :func:`forecast_history`) are scored as the platforms score them:
Good Judgment Open's daily carry-forward Brier score and accuracy score
(:func:`daily_brier`), the forecast standing at a lead time
(:func:`brier_at`) and Metaculus's Peer and Baseline scores, time-averaged
or spot (:func:`peer_score`, :func:`baseline_score`); any of these scores
is ranked, difficulty-adjusted, with paired intervals, rank intervals and
groups of statistically tied forecasters by :func:`history_leaderboard`.
"""

from ._api import combine_leaderboards, difficulty_adjusted_brier, leaderboard
from ._forecastbench import (
    forecastbench_rows,
    question_key,
    read_forecast_set,
    read_question_effects,
    read_question_set,
    read_resolution_set,
)
from ._history import ForecastHistory, forecast_history
from ._history_board import history_leaderboard
from ._history_board_result import HistoryLeaderboardResult
from ._history_result import HistoryScoreResult
from ._parity import ParityDateResult, parity_date
from ._platform_scores import baseline_score, brier_at, daily_brier, peer_score
from ._result import DifficultyAdjustedResult, LeaderboardResult

__all__ = [
    "DifficultyAdjustedResult",
    "ForecastHistory",
    "HistoryLeaderboardResult",
    "HistoryScoreResult",
    "LeaderboardResult",
    "ParityDateResult",
    "baseline_score",
    "brier_at",
    "combine_leaderboards",
    "daily_brier",
    "difficulty_adjusted_brier",
    "forecast_history",
    "forecastbench_rows",
    "history_leaderboard",
    "leaderboard",
    "parity_date",
    "peer_score",
    "question_key",
    "read_forecast_set",
    "read_question_effects",
    "read_question_set",
    "read_resolution_set",
]
