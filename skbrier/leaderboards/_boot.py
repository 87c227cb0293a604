"""Point fit and question bootstrap of a (possibly combined) panel; replicate statistics.

The panel may be split into *parts* (question types, e.g. ForecastBench's
dataset and market questions): each part has its own two-way fixed-effects
fit and its own anchor shift, and a forecaster's combined score is the mean
of its part scores (NaN when it is missing from a part).  Questions are
resampled with replacement within each stratum of each part through the one
engine (:func:`skbrier._core.resampling.stratified_indices` inside
:func:`~skbrier._core.resampling.run_replicates`); a question drawn ``c``
times is ``c`` distinct questions, which for this model is the fit with the
question's rows weighted by ``c`` (see :mod:`._fit`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.params import (
    check_confidence_level,
    check_n_jobs,
    check_n_resamples,
    validate_random_state,
)
from .._core.resampling import run_replicates, stratified_indices
from .._core.results import to_builtin
from ._fit import (
    Panel,
    PanelFit,
    Structure,
    build_structure,
    question_effects,
    solve,
    solve_many,
)
from ._panel import LabelledPanel

__all__ = ["Board", "build_board", "brier_index_of", "rank_matrix"]


# chunks of at least this many replicates are solved together (solve_many)
_MIN_BATCH = 4


@dataclasses.dataclass
class Part:
    questions: np.ndarray  # global question codes of this part (local order)
    structure: Structure


@dataclasses.dataclass
class Board:
    lp: LabelledPanel
    parts: list[Part]
    anchor: tuple[int, float] | None
    strata: list[np.ndarray]  # global question codes of each stratum


def check_bootstrap(
    n_resamples: Any, confidence_level: Any, random_state: Any, n_jobs: Any
) -> tuple[int, float, int | None]:
    """The checked options of a question bootstrap (``n_resamples=0``: none)."""
    checked = (
        check_n_resamples(n_resamples, allow_zero=True),
        check_confidence_level(confidence_level),
        check_n_jobs(n_jobs),
    )
    validate_random_state(random_state)
    return checked


def brier_index_of(scores: np.ndarray) -> np.ndarray:
    """``100 (1 - sqrt(score))`` elementwise (NaN for a negative adjusted score)."""
    with np.errstate(invalid="ignore"):
        return 100.0 * (1.0 - np.sqrt(np.asarray(scores, dtype=np.float64)))


def build_board(lp: LabelledPanel, anchor: tuple[int, float] | None) -> Board:
    pn = lp.panel
    part_codes = np.zeros(pn.n_questions, dtype=np.intp) if lp.parts is None else lp.parts
    parts: list[Part] = []
    strata: list[np.ndarray] = []
    for g in range(int(part_codes.max()) + 1):
        qs = np.flatnonzero(part_codes == g)
        local = np.full(pn.n_questions, -1, dtype=np.intp)
        local[qs] = np.arange(qs.shape[0])
        rows = local[pn.q] >= 0
        if anchor is not None and lp.part_names is not None:
            if not np.any(pn.f[rows] == anchor[0]):  # every score of the part NaN
                raise ValueError(
                    f"anchor: forecaster {to_builtin(lp.forecasters[anchor[0]])!r} has no "
                    f"rows of combine part {to_builtin(lp.part_names[g])!r}; each part is "
                    "anchored separately, so the anchor needs forecasts in every part "
                    "(anchor another forecaster, or give it forecasts there)."
                )
        sub = Panel(
            pn.f[rows],
            local[pn.q[rows]],
            pn.b[rows],
            pn.w[rows],
            pn.n_forecasters,
            qs.shape[0],
            pn.fitted,
        )
        parts.append(Part(qs, build_structure(sub)))
        if lp.strata is None:
            strata.append(qs)
        else:
            for s in np.unique(lp.strata[qs]):
                strata.append(qs[lp.strata[qs] == s])
    return Board(lp, parts, anchor, strata)


def _shift_rows(scores: np.ndarray, anchor: tuple[int, float] | None) -> np.ndarray:
    """Shift each row of ``(B, n_forecasters)`` scores so the anchor scores its value."""
    if anchor is None:
        return scores
    return scores + (anchor[1] - scores[:, anchor[0] : anchor[0] + 1])


def point_fits(board: Board) -> list[tuple[PanelFit, np.ndarray, float]]:
    """Per part: the fit, the question effects and the anchor shift."""
    out = []
    for part in board.parts:
        fit = solve(part.structure)
        shift = (
            0.0 if board.anchor is None else board.anchor[1] - fit.scores[board.anchor[0]]
        )
        gamma = question_effects(part.structure, fit.alpha)
        out.append((fit, gamma, float(shift)))
    return out


def combined(part_scores: list[np.ndarray]) -> np.ndarray:
    """ForecastBench's rule: the mean of the (anchored) part scores."""
    if len(part_scores) == 1:
        return part_scores[0]
    return np.mean(np.stack(part_scores), axis=0)


def bootstrap(
    board: Board, n_resamples: int, random_state: Any, n_jobs: int | None
) -> tuple[np.ndarray, int]:
    """``(n_resamples, n_forecasters)`` replicate scores and the number of disconnected ones."""
    n_q = board.lp.panel.n_questions
    n_all = board.lp.panel.n_forecasters

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        idx = stratified_indices(rng, board.strata, size)
        offs = (np.arange(size) * n_q)[:, None]
        cs = np.bincount((idx + offs).ravel(), minlength=size * n_q)
        cs = cs.reshape(size, n_q).astype(np.float64)
        out = np.empty((size, n_all + 1))
        out[:, n_all] = 0.0
        outs = []
        for part in board.parts:
            cp = np.ascontiguousarray(cs[:, part.questions].T)
            st = part.structure
            # the parts linear in c, for the whole chunk at once
            rcs, dens = np.asarray(st.resid @ cp), np.asarray(st.wall @ cp)
            many = solve_many(st, cp, rcs, dens) if size >= _MIN_BATCH else None
            sc, solved = many if many is not None else (None, np.zeros(size, dtype=bool))
            scores = np.empty((size, n_all))
            for k in range(size):
                if solved[k]:
                    assert sc is not None
                    scores[k] = sc[:, k]
                    continue
                fit = solve(st, cp[:, k], rc=rcs[:, k], den=dens[:, k])
                scores[k] = fit.scores
                if fit.n_components != 1:
                    out[k, n_all] = 1.0
            outs.append(_shift_rows(scores, board.anchor))
        out[:, :n_all] = combined(outs)
        out[out[:, n_all] == 1.0, :n_all] = np.nan
        return out

    reps = run_replicates(
        task,
        n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        chunk_size=16,
        desc="leaderboard bootstrap",
    )
    return reps[:, :n_all], int(reps[:, n_all].sum())


def rank_matrix(scores: np.ndarray) -> np.ndarray:
    """Competition ranks along the last axis (1 = lowest score; NaN stays NaN)."""
    s = np.asarray(scores, dtype=np.float64)
    finite = np.isfinite(s)
    key = np.where(finite, s, np.inf)
    srt = np.sort(key, axis=-1)
    ranks = np.empty_like(s)
    flat_key = key.reshape(-1, key.shape[-1])
    flat_srt = srt.reshape(-1, key.shape[-1])
    out = ranks.reshape(-1, key.shape[-1])
    for i in range(flat_key.shape[0]):
        out[i] = np.searchsorted(flat_srt[i], flat_key[i], side="left") + 1.0
    ranks[~finite] = np.nan
    return ranks


def best_shares(reps: np.ndarray) -> np.ndarray:
    """Share of replicates (with any finite score) in which each forecaster scores lowest."""
    finite_any = np.isfinite(reps).any(axis=1)
    r = np.where(np.isfinite(reps), reps, np.inf)[finite_any]
    if r.shape[0] == 0:
        return np.full(reps.shape[1], np.nan)
    best = np.argmin(r, axis=1)  # ties: the first, as pandas' idxmax
    return np.bincount(best, minlength=reps.shape[1]) / r.shape[0]


def p_values(reps: np.ndarray, ref: int) -> np.ndarray:
    """One-sided: share of replicates in which a forecaster is at least as good as ``ref``."""
    out = np.full(reps.shape[1], np.nan)
    for i in range(reps.shape[1]):
        if i == ref:
            continue
        m = np.isfinite(reps[:, i]) & np.isfinite(reps[:, ref])
        if m.any():
            out[i] = float(np.mean(reps[m, i] <= reps[m, ref]))
    return out
