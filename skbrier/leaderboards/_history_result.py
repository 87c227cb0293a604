"""The result of a score over forecast histories (the result protocol of :mod:`skbrier._core.results`)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from .._core.optional import import_optional
from .._core.results import to_builtin
from ._result import _RankedTable

__all__ = ["HistoryScoreResult", "summarise"]


class _ForecasterTable(_RankedTable):
    """Mixin of the per-forecaster tables of history scores: best first, one row each.

    A subclass names the field ranked (``_score_field``, oriented by the
    ``higher_is_better`` field) and its table's ``_columns`` (a column whose
    field is None is left out).
    """

    # fields of the dataclasses that use the mixin
    score_name: str
    higher_is_better: bool
    forecasters: np.ndarray
    questions: np.ndarray
    _columns: ClassVar[tuple[str, ...]] = ()
    _score_field: ClassVar[str] = "score"

    def _ranked(self) -> tuple[np.ndarray, bool]:
        return getattr(self, self._score_field), self.higher_is_better

    def _title(self) -> str:
        return f"{type(self).__name__}: {self.score_name}"

    def _headline(self) -> dict[str, Any]:
        best = int(self._order()[0])
        names = self.forecasters
        return {
            "score_name": self.score_name,
            "n_forecasters": int(names.shape[0]),
            "n_questions": int(self.questions.shape[0]),
            "best": to_builtin(names[best]),
            "best_score": float(getattr(self, self._score_field)[best]),
        }


@dataclasses.dataclass(frozen=True, repr=False)
class HistoryScoreResult(_ForecasterTable):
    r"""Scores of forecasters over forecast histories: per question, and aggregated.

    Returned by :func:`skbrier.daily_brier`, :func:`skbrier.brier_at`,
    :func:`skbrier.peer_score` and :func:`skbrier.baseline_score`.  A
    forecaster is scored on a question ("a pair") when the rule gives it a
    score there; the per-forecaster arrays aggregate its pairs with the
    question weights :math:`w_q` of the history.

    Attributes
    ----------
    score_name : str
        What was scored, e.g. ``"daily_brier"`` or ``"peer_score(log)"``.
    higher_is_better : bool
        False for Brier scores, True for the peer and baseline scores.
    forecasters : ndarray
        All forecasters of the history, sorted.
    score : ndarray
        The weighted mean :math:`\sum_q w_q s_{iq} / \sum_q w_q` over the
        forecaster's pairs (NaN without any).
    total : ndarray
        The weighted sum :math:`\sum_q w_q s_{iq}` (Metaculus ranks
        tournaments and Baseline medals by sums).
    coverage : ndarray
        :math:`\sum_q w_q c_{iq} / \sum_q w_q` over *all* questions of the
        history, :math:`c_{iq}` being the share of the question's scored
        period in which the forecaster had a forecast standing.
    n_questions : ndarray of int
        Number of the forecaster's pairs.
    crowd : ndarray or None
        The weighted mean of the crowd's score over the same pairs (the
        crowd median for the Brier scores; None for the Metaculus scores,
        which are already relative or absolute).
    relative : ndarray or None
        ``score - crowd``: negative is better than the crowd for Brier
        scores (Good Judgment Open's accuracy score).
    questions : ndarray
        All questions of the history, sorted.
    question_crowd : ndarray or None
        Per question, the crowd's score (e.g. Good Judgment Open's median
        score), NaN where nobody was scored.
    pair_forecaster, pair_question : ndarray
        The names of each pair.
    pair_score : ndarray
        :math:`s_{iq}`.
    pair_coverage : ndarray
        :math:`c_{iq}`.
    pair_crowd : ndarray or None
        The crowd's score over the same period as the pair's score.
    pair_weight : ndarray or None
        The weight :math:`w_q` of each pair's question (None: all 1).

    Examples
    --------
    >>> from skbrier import brier_at, forecast_history
    >>> h = forecast_history(
    ...     {"forecaster": ["a", "b", "a"], "question": [1, 1, 2],
    ...      "timestamp": [0, 0, 0], "probability": [0.9, 0.6, 0.2]},
    ...     {"question": [1, 2], "open_time": [0, 0], "close_time": [1, 1],
    ...      "outcome": [1, 0]}, resolve_time=None)
    >>> res = brier_at(h, at="last")
    >>> res
    HistoryScoreResult(score_name=brier_at(last), n_forecasters=2, n_questions=2, best=a, best_score=0.025)
    >>> res.score.round(3).tolist(), res.n_questions.tolist()
    ([0.025, 0.16], [2, 1])
    """

    score_name: str
    higher_is_better: bool
    forecasters: np.ndarray
    score: np.ndarray
    total: np.ndarray
    coverage: np.ndarray
    n_questions: np.ndarray
    crowd: np.ndarray | None
    relative: np.ndarray | None
    questions: np.ndarray
    question_crowd: np.ndarray | None
    pair_forecaster: np.ndarray
    pair_question: np.ndarray
    pair_score: np.ndarray
    pair_coverage: np.ndarray
    pair_crowd: np.ndarray | None
    pair_weight: np.ndarray | None = None

    _columns: ClassVar[tuple[str, ...]] = (
        "score",
        "total",
        "coverage",
        "n_questions",
        "crowd",
        "relative",
    )
    _score_field: ClassVar[str] = "score"

    def pairs_frame(self) -> Any:
        """One row per scored (forecaster, question) pair (needs pandas).

        The long format of the other scoring functions (e.g. for
        :func:`skbrier.difficulty_adjusted_brier` on ``pair_score``).

        Returns
        -------
        pandas.DataFrame
            Columns ``forecaster``, ``question``, ``score``, ``coverage``
            and, where there is a crowd, ``crowd``.
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.pairs_frame()")

        data = {
            "forecaster": self.pair_forecaster,
            "question": self.pair_question,
            "score": self.pair_score,
            "coverage": self.pair_coverage,
        }
        if self.pair_crowd is not None:
            data["crowd"] = self.pair_crowd
        return pd.DataFrame(data)


def summarise(
    history: Any,
    name: str,
    higher_is_better: bool,
    forecaster: np.ndarray,
    question: np.ndarray,
    score: np.ndarray,
    coverage: np.ndarray,
    crowd: np.ndarray | None = None,
    question_crowd: np.ndarray | None = None,
) -> HistoryScoreResult:
    """Aggregate the scored pairs (codes, scores, coverages) per forecaster."""
    n_f = history.forecasters.shape[0]
    w = history.question_weight[question]

    def per_forecaster(values: np.ndarray) -> np.ndarray:
        return np.bincount(forecaster, weights=values, minlength=n_f).astype(np.float64)

    wsum = per_forecaster(w)
    total = per_forecaster(w * score)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(wsum > 0, total / wsum, np.nan)
        mean_crowd = None
        if crowd is not None:
            c = per_forecaster(w * crowd)
            mean_crowd = np.where(wsum > 0, c / wsum, np.nan)
    cover = per_forecaster(w * coverage) / history.question_weight.sum()
    n_q = np.bincount(forecaster, minlength=n_f).astype(np.int64)
    return HistoryScoreResult(
        score_name=name,
        higher_is_better=higher_is_better,
        forecasters=history.forecasters,
        score=mean,
        total=total,
        coverage=cover,
        n_questions=n_q,
        crowd=mean_crowd,
        relative=None if mean_crowd is None else mean - mean_crowd,
        questions=history.questions,
        question_crowd=question_crowd,
        pair_forecaster=history.forecasters[forecaster],
        pair_question=history.questions[question],
        pair_score=score,
        pair_coverage=coverage,
        pair_crowd=crowd,
        pair_weight=w,
    )
