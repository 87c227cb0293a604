"""Scores against frozen (published) question effects: no fit, a weighted mean per forecaster.

With effects :math:`\\gamma_j` given, forecaster :math:`i`'s score in a part
is :math:`\\sum_j w_{ij} (b_{ij} - \\gamma_j) / \\sum_j w_{ij}`, shifted so the
anchor scores its value, and parts are averaged (:func:`._boot.combined`).
A bootstrap replicate draws questions with counts :math:`c_j` and the score
is :math:`\\sum_j c_j w_{ij} a_{ij} / \\sum_j c_j w_{ij}`: two sparse
products per chunk of replicates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from .._core.resampling import run_replicates, stratified_indices
from .._core.results import to_builtin
from ._boot import Board, _shift_rows, combined
from ._result import DifficultyAdjustedResult, board_result, part_result

__all__ = ["check_question_effects", "frozen_bootstrap", "frozen_point"]


def check_question_effects(effects: Any, lp: Any) -> np.ndarray:
    """The effect of every question code of the panel (ValueError naming the missing)."""
    if hasattr(effects, "ndim") and getattr(effects, "ndim", 1) != 1:
        raise TypeError(
            "question_effects must map question to effect (a dict or a pandas Series "
            "indexed by question), not a table."
        )
    if not hasattr(effects, "items"):
        raise TypeError(
            "question_effects must map question to effect (a dict or a pandas Series), "
            f"got {type(effects).__name__}."
        )
    table = {k: v for k, v in effects.items()}
    gamma = np.full(lp.questions.shape[0], np.nan)
    missing = []
    for j, name in enumerate(lp.questions.tolist()):
        v = table.get(name)
        if v is None:
            v = table.get(str(name))
        if v is None:
            missing.append(name)
            continue
        try:
            gamma[j] = float(v)
        except (TypeError, ValueError):
            raise TypeError(
                f"question_effects: the effect of {name!r} is not a number ({v!r})."
            ) from None
    if missing:
        shown = ", ".join(map(repr, missing[:5])) + (", ..." if len(missing) > 5 else "")
        raise ValueError(
            f"question_effects: {len(missing)} question(s) of the panel have no effect "
            f"({shown}); drop their rows or use effects that cover them."
        )
    bad = np.flatnonzero(~np.isfinite(gamma))
    if bad.size:
        raise ValueError(
            f"question_effects: {bad.size} question{' has' if bad.size == 1 else 's have'} "
            f"an effect that is not finite (the first: question "
            f"{to_builtin(lp.questions[bad[0]])!r}, {gamma[bad[0]]}); give every question "
            "a finite effect or drop its rows."
        )
    return gamma


def _matrices(board: Board, gamma: np.ndarray) -> tuple[Any, Any]:
    """Sparse forecaster x question matrices of w * (b - gamma) and w."""
    pn = board.lp.panel
    shape = (pn.n_forecasters, pn.n_questions)
    num = sp.csr_matrix((pn.w * (pn.b - gamma[pn.q]), (pn.f, pn.q)), shape=shape)
    den = sp.csr_matrix((pn.w, (pn.f, pn.q)), shape=shape)
    return num, den


def _part_scores(board: Board, num: Any, den: Any, counts: np.ndarray) -> list[np.ndarray]:
    """Per part, ``(n_forecasters, B)`` anchored scores for counts ``(n_questions, B)``."""
    outs = []
    for part in board.parts:
        c = counts[part.questions]
        n = np.asarray(num[:, part.questions] @ c)
        d = np.asarray(den[:, part.questions] @ c)
        with np.errstate(invalid="ignore", divide="ignore"):
            s = np.where(d > 0, n / np.where(d > 0, d, 1.0), np.nan)
        outs.append(_shift_rows(s.T, board.anchor).T)
    return outs


def frozen_point(board: Board, gamma: np.ndarray) -> DifficultyAdjustedResult:
    """The point result against frozen effects (``fitted`` all False, effects as given)."""
    lp = board.lp
    num, den = _matrices(board, gamma)
    ones = np.ones((lp.panel.n_questions, 1))
    per_part = [s[:, 0] for s in _part_scores(board, num, den, ones)]
    score = combined(per_part)
    unfitted = np.zeros(lp.forecasters.shape[0], dtype=bool)
    parts: dict[str, DifficultyAdjustedResult] = {}
    if lp.part_names is not None:
        pn = lp.panel
        for k, (part, s) in enumerate(zip(board.parts, per_part)):
            rows = np.isin(pn.q, part.questions)
            nq = np.bincount(pn.f[rows], minlength=pn.n_forecasters)
            wf = np.bincount(pn.f[rows], weights=pn.w[rows], minlength=pn.n_forecasters)
            wb = np.bincount(
                pn.f[rows], weights=(pn.w * pn.b)[rows], minlength=pn.n_forecasters
            )
            with np.errstate(invalid="ignore", divide="ignore"):
                raw = np.where(nq > 0, wb / np.where(wf > 0, wf, 1.0), np.nan)
            parts[str(lp.part_names[k])] = part_result(
                board, k, s, raw, nq, unfitted.copy(), s.copy(), gamma, int(rows.sum())
            )
    return board_result(board, score, unfitted, score.copy(), gamma.copy(), parts)


def frozen_bootstrap(
    board: Board, gamma: np.ndarray, n_resamples: int, random_state: Any, n_jobs: int | None
) -> np.ndarray:
    """``(n_resamples, n_forecasters)`` replicate scores, questions resampled, effects fixed."""
    num, den = _matrices(board, gamma)
    n_q = board.lp.panel.n_questions

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        idx = stratified_indices(rng, board.strata, size)
        offs = (np.arange(size) * n_q)[:, None]
        cs = np.bincount((idx + offs).ravel(), minlength=size * n_q)
        cs = cs.reshape(size, n_q).T.astype(np.float64)
        return combined(_part_scores(board, num, den, cs)).T

    return run_replicates(
        task,
        n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        chunk_size=64,
        desc="leaderboard bootstrap",
    )
