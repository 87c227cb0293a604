"""Result objects of the leaderboard (the result protocol of :mod:`skbrier._core.results`)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from .._core.optional import import_optional
from .._core.params import DEFAULT_CONFIDENCE_LEVEL
from .._core.resampling import interval_from_replicates
from .._core.results import (
    Result,
    _ModelIntervalResult,
    format_number,
    to_builtin,
)
from ._boot import Board, brier_index_of
from ._ranking import RankedResult

__all__ = [
    "DifficultyAdjustedResult",
    "LeaderboardResult",
    "board_interval",
    "board_result",
    "part_result",
]


def _table(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(header)]
    fmt = "  ".join(f"{{:<{w}}}" if k < 2 else f"{{:>{w}}}" for k, w in enumerate(widths))
    lines = [title, "-" * len(title), fmt.format(*header)]
    lines += [fmt.format(*r) for r in rows]
    return "\n".join(lines)


# decimals of each column in summaries and HTML tables (ForecastBench shows the
# index with one decimal); counts and ranks are whole numbers
_DECIMALS = {
    "brier_index": 2,
    "brier_index_low": 2,
    "brier_index_high": 2,
    "adjusted_brier": 4,
    "raw_brier": 4,
    "n_questions": 0,
    "rank": 0,
    "rank_low": 0,
    "rank_high": 0,
    "p_value": 4,
    "share_best": 3,
    "tie_group": 0,
}


class _RankedTable(Result):
    """Mixin of the per-forecaster tables: one row per forecaster, best first.

    A subclass gives the ranked scores and their orientation (``_ranked``),
    its table's ``_columns`` (a column whose field is None is left out), and
    may format a column's cells (``_cell``) and title the table (``_title``).
    """

    forecasters: np.ndarray
    _columns: ClassVar[tuple[str, ...]] = ()

    def _ranked(self) -> tuple[np.ndarray, bool]:
        """``(scores, higher_is_better)``."""
        raise NotImplementedError

    def _order(self) -> np.ndarray:
        """Best first, NaN last, ties by position."""
        scores, higher_is_better = self._ranked()
        key = -scores if higher_is_better else scores
        return np.argsort(np.where(np.isfinite(key), key, np.inf), kind="stable")

    def _present(self) -> list[str]:
        return [c for c in self._columns if getattr(self, c) is not None]

    def _rows(self) -> list[dict[str, Any]]:
        cols = self._present()
        return [
            {"forecaster": to_builtin(self.forecasters[i])}
            | {c: to_builtin(getattr(self, c)[i]) for c in cols}
            for i in self._order()
        ]

    def to_frame(self) -> Any:
        """One row per forecaster, best first (needs pandas)."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        return pd.DataFrame(self._rows())

    def _cell(self, column: str, value: Any) -> str:
        return format_number(value)

    def _title(self) -> str:
        return type(self).__name__

    def summary(self) -> str:
        """A plain-text table, best first."""
        cols = self._present()
        body = [
            [str(k + 1), str(r["forecaster"])] + [self._cell(c, r[c]) for c in cols]
            for k, r in enumerate(self._rows())
        ]
        return _table(self._title(), ["rank", "forecaster", *cols], body)


@dataclasses.dataclass(frozen=True, repr=False)
class DifficultyAdjustedResult(_RankedTable):
    """Difficulty-adjusted Brier scores of the forecasters of a panel.

    Returned by :func:`skbrier.difficulty_adjusted_brier`; see there for the
    model.  Arrays are aligned with ``forecasters`` (sorted names) or with
    ``questions``.

    Attributes
    ----------
    forecasters : ndarray
        The forecaster names, sorted.
    adjusted_brier : ndarray
        Mean adjusted score ``b_ij - gamma_j`` over each forecaster's rows
        (anchored when ``anchor`` is given).
    brier_index : ndarray
        ``100 (1 - sqrt(adjusted_brier))`` (NaN where the adjusted score is
        negative).
    raw_brier : ndarray
        The plain (weighted) Brier score of each forecaster.
    n_questions : ndarray
        Questions answered by each forecaster.
    fitted : ndarray of bool
        Whether the forecaster's rows entered the fit.
    forecaster_effects : ndarray
        ``alpha_i`` on the same scale as ``adjusted_brier`` (equal to it for
        fitted forecasters; NaN for the others).
    questions : ndarray
        The question names, sorted.
    question_effects : ndarray
        ``gamma_j``, the difficulty of each question.
    anchor : tuple or None
        ``(name, value)`` of the anchoring, if any.
    n_rows : int
        Rows used (zero-weight rows and dropped singleton questions excluded).
    parts : dict or None
        For a combined panel (``combine=``), the result of each part.

    Examples
    --------
    >>> from skbrier import difficulty_adjusted_brier
    >>> res = difficulty_adjusted_brier(
    ...     [1, 0, 1, 0], [0.8, 0.3, 0.5, 0.5], forecaster=["x", "x", "h", "h"],
    ...     question=[1, 2, 1, 2], anchor=("h", 0.25))
    >>> res
    DifficultyAdjustedResult(n_forecasters=2, n_questions=2, best=x, best_brier_index=74.5)
    >>> res.forecasters.tolist(), res.adjusted_brier.tolist()
    (['h', 'x'], [0.25, 0.065])
    """

    forecasters: np.ndarray
    adjusted_brier: np.ndarray
    brier_index: np.ndarray
    raw_brier: np.ndarray
    n_questions: np.ndarray
    fitted: np.ndarray
    forecaster_effects: np.ndarray
    questions: np.ndarray
    question_effects: np.ndarray
    anchor: tuple[Any, float] | None
    n_rows: int
    parts: dict[str, DifficultyAdjustedResult] | None = None

    _columns: ClassVar[tuple[str, ...]] = (
        "adjusted_brier",
        "brier_index",
        "raw_brier",
        "n_questions",
    )

    def _ranked(self) -> tuple[np.ndarray, bool]:
        return self.adjusted_brier, False

    def _headline(self) -> dict[str, Any]:
        best = self._order()[0]
        return {
            "n_forecasters": int(self.forecasters.shape[0]),
            "n_questions": int(self.questions.shape[0]),
            "best": to_builtin(self.forecasters[best]),
            "best_brier_index": float(self.brier_index[best]),
        }

    def _cell(self, column: str, value: Any) -> str:
        """One column's value as text, with the column's one precision."""
        if value is None or (isinstance(value, float) and value != value):
            return "nan"
        digits = _DECIMALS.get(column)
        if digits is None:
            return format_number(value)
        return f"{float(value):.{digits}f}"


def board_interval(
    reps: np.ndarray, level: float, scored: np.ndarray, *, metric: str = "brier_index"
) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``: the percentile interval of each forecaster's ``metric``
    (``"brier_index"`` or ``"adjusted_brier"``) over the replicates.

    A forecaster without a score (``scored`` False: it lacks a ``combine``
    part) is NaN in every replicate too: its bounds are NaN, without the
    warning about NaN replicates that the others get.
    """
    low, high = np.full(reps.shape[1], np.nan), np.full(reps.shape[1], np.nan)
    if reps.shape[0] and scored.any():
        r = reps[:, scored]
        ci = interval_from_replicates(
            brier_index_of(r) if metric == "brier_index" else r, level, axis=0
        )
        low[scored], high[scored] = ci.low, ci.high
    return low, high


def _anchor_name(board: Board) -> tuple[Any, float] | None:
    """The anchoring ``(name, value)`` of ``board`` (its code turned into the name)."""
    if board.anchor is None:
        return None
    return (to_builtin(board.lp.forecasters[board.anchor[0]]), board.anchor[1])


def board_result(
    board: Board,
    score: np.ndarray,
    fitted: np.ndarray,
    alpha: np.ndarray,
    gamma: np.ndarray,
    parts: dict[str, DifficultyAdjustedResult] | None = None,
) -> DifficultyAdjustedResult:
    """The result over the whole panel of ``board``: its names, raw scores,
    counts and rows with ``score`` (and its Brier Index); ``parts``, the
    results of the combine parts (None or empty without)."""
    lp = board.lp
    return DifficultyAdjustedResult(
        lp.forecasters,
        score,
        brier_index_of(score),
        lp.raw,
        lp.n_questions,
        fitted,
        alpha,
        lp.questions,
        gamma,
        _anchor_name(board),
        int(lp.panel.f.shape[0]),
        parts or None,
    )


def part_result(
    board: Board,
    k: int,
    score: np.ndarray,
    raw: np.ndarray,
    n_questions: np.ndarray,
    fitted: np.ndarray,
    alpha: np.ndarray,
    gamma: np.ndarray,
    n_rows: int,
) -> DifficultyAdjustedResult:
    """The result of combine part ``k`` of ``board``: its questions and their
    effects (``gamma`` over all the panel's questions) with ``score`` (and its
    Brier Index) and the part's raw scores, counts and rows."""
    qs = board.parts[k].questions
    return DifficultyAdjustedResult(
        board.lp.forecasters,
        score,
        brier_index_of(score),
        raw,
        n_questions,
        fitted,
        alpha,
        board.lp.questions[qs],
        gamma[qs],
        _anchor_name(board),
        n_rows,
    )


@dataclasses.dataclass(frozen=True, repr=False)
class LeaderboardResult(RankedResult, _ModelIntervalResult, DifficultyAdjustedResult):
    """A leaderboard: difficulty-adjusted scores with question-bootstrap inference.

    Returned by :func:`skbrier.leaderboard` and
    :func:`skbrier.combine_leaderboards`.  ``confidence_interval`` is the
    ``method="percentile"`` interval (its only one) over the replicates of
    ``metric="brier_index"`` (the default), ``"adjusted_brier"`` or
    ``"rank"`` (rounded outward to integers): arrays over the forecasters,
    or floats for the one named by ``model=``.  Besides the fields of
    :class:`DifficultyAdjustedResult`:

    Attributes
    ----------
    brier_index_low, brier_index_high : ndarray
        Percentile interval of each forecaster's Brier Index over the
        replicates (the point estimate need not lie inside it).
    rank : ndarray
        Rank of the point estimate (1 = best; ties share the best rank).
    rank_low, rank_high : ndarray
        Percentile interval of the replicate ranks, rounded outward.
    p_value : ndarray
        One-sided: the share of replicates in which the forecaster's Brier
        Index is at least the reference's (NaN for the reference itself, or
        without a reference).
    share_best : ndarray
        Share of replicates in which the forecaster has the best score.
    replicates : ndarray of shape (n_resamples, n_forecasters)
        Replicate adjusted scores (anchored), NaN where undefined.
    confidence_level : float
    n_resamples : int
    n_disconnected : int
        Replicates whose forecaster-question graph was disconnected (the
        effects are not identified there: all NaN, left out).
    reference : object or None
        The reference forecaster of the p-values.
    contains_best : ndarray of bool
        ``rank_low == 1``: the rank interval contains rank 1 (``top_set``).
    tie_group : ndarray of int
        One plus the number of forecasters significantly better (``groups``;
        computed as in :func:`skbrier.history_leaderboard`).
    difference_low, difference_high : ndarray of shape (n_forecasters, n_forecasters)
        Paired bootstrap interval of ``adjusted_brier[i] - adjusted_brier[j]``.
    better : ndarray of bool, shape (n_forecasters, n_forecasters)
        ``better[i, j]``: ``i`` is significantly better than ``j``.
    simultaneous : bool
        Whether the paired intervals are Bonferroni-adjusted.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier import leaderboard
    >>> rng = np.random.default_rng(1)
    >>> q = np.tile(np.arange(30), 2)
    >>> y = (rng.random(30) < 0.5)[q]
    >>> p = np.concatenate([np.where(y[:30], 0.8, 0.2), np.full(30, 0.5)])
    >>> res = leaderboard(y, p, forecaster=np.repeat(["m", "c"], 30), question=q,
    ...                   n_resamples=99, reference="c", random_state=0)
    >>> res.brier_index.round(1).tolist(), res.p_value.tolist()
    ([50.0, 80.0], [nan, 1.0])
    """

    brier_index_low: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0))
    brier_index_high: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0))
    rank: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0))
    rank_low: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0))
    rank_high: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0))
    p_value: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0))
    share_best: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0))
    replicates: np.ndarray = dataclasses.field(default_factory=lambda: np.empty((0, 0)))
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL
    n_resamples: int = 0
    n_disconnected: int = 0
    reference: Any = None
    contains_best: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0, bool))
    tie_group: np.ndarray = dataclasses.field(default_factory=lambda: np.empty(0, int))
    difference_low: np.ndarray = dataclasses.field(default_factory=lambda: np.empty((0, 0)))
    difference_high: np.ndarray = dataclasses.field(
        default_factory=lambda: np.empty((0, 0))
    )
    better: np.ndarray = dataclasses.field(default_factory=lambda: np.empty((0, 0), bool))
    simultaneous: bool = True

    _score_field: ClassVar[str] = "adjusted_brier"
    _columns: ClassVar[tuple[str, ...]] = (
        "brier_index",
        "brier_index_low",
        "brier_index_high",
        "adjusted_brier",
        "raw_brier",
        *RankedResult._rank_columns,
    )

    _interval_metrics: ClassVar[tuple[str, ...]] = ("brier_index", "adjusted_brier", "rank")
    _interval_methods: ClassVar[tuple[str, ...]] = ("percentile",)

    _maker: ClassVar[str] = "leaderboard"

    def _score_interval(self, metric: str, level: float) -> tuple[np.ndarray, np.ndarray]:
        return board_interval(
            self.replicates, level, np.isfinite(self.adjusted_brier), metric=metric
        )

    def _cell(self, column: str, value: Any) -> str:
        """A p-value of 0 is below the resolution of the bootstrap: ``< 1/(R+1)``."""
        if column == "p_value" and value == 0 and self.n_resamples > 0:
            return f"< {1.0 / (self.n_resamples + 1):.2g}"
        return super()._cell(column, value)

    def to_html(self, *, title: str = "Leaderboard") -> str:
        """A small self-contained HTML page: the table with interval bars (inline SVG).

        Parameters
        ----------
        title : str, default="Leaderboard"
            Title of the page.

        Returns
        -------
        str
        """
        from ._html import leaderboard_html

        return leaderboard_html(self, title=title)

    def _repr_html_(self) -> str:
        from ._html import leaderboard_table

        return leaderboard_table(self)
