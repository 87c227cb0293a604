"""A leaderboard of any score over forecast histories: difficulty adjustment, ranks and ties."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core.dispatch import HOST, backends
from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_N_RESAMPLES,
    check_bool,
    check_option,
)
from .._core.results import to_builtin
from ._api import FITS_ALL_FORECASTS, fit_board
from ._boot import best_shares, build_board, check_bootstrap, p_values, rank_matrix
from ._docs import leaderboard_doc
from ._frozen import check_question_effects
from ._history import per_question
from ._history_board_result import HistoryLeaderboardResult, oriented, score_interval
from ._history_result import HistoryScoreResult
from ._panel import _same_label, check_anchor, check_name, score_panel
from ._ranking import rank_inference

__all__ = ["history_leaderboard"]

_ADJUSTMENTS = ("fixed_effects", "none")


def _per_pair(values: Any, scores: HistoryScoreResult, name: str) -> np.ndarray:
    """A per-question label (dict or Series, or array in the order of ``scores.questions``) per pair."""
    names = scores.questions
    values = per_question(values, names, name, "value", "scores")
    arr = np.asarray(values, dtype=object)
    if arr.shape != names.shape:
        raise ValueError(
            f"{name} has {arr.size} values but the scores have {names.shape[0]} questions; "
            "give one per question (in the order of scores.questions) or a dict."
        )
    return arr[np.searchsorted(names, scores.pair_question)]


def _refuse_unscored(scores: HistoryScoreResult, **names: Any) -> None:
    """A forecaster of ``scores`` without a scored pair (of positive weight) named
    by an option (``names``: option -> list of names) has no score: say so."""
    scored = scores.pair_forecaster[np.asarray(scores.pair_weight) > 0]
    unscored = scores.forecasters[~np.isin(scores.forecasters, scored)]
    for option, values in names.items():
        for v in values:
            if any(_same_label(n, to_builtin(v)) for n in unscored.tolist()):
                raise ValueError(
                    f"{option}: forecaster {to_builtin(v)!r} has no {scores.score_name} "
                    "score (none of its forecasts is scored); name a forecaster with a "
                    "score."
                )


@backends(
    arrays=("strata",),
    namespace_of="strata",
    dask=FITS_ALL_FORECASTS,
    array_api=HOST,
)
@leaderboard_doc
def history_leaderboard(
    scores: HistoryScoreResult,
    *,
    adjustment: str = "fixed_effects",
    question_effects: Any = None,
    fit_forecasters: Sequence[Any] | None = None,
    strata: Any = None,
    reference: Any = None,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
    simultaneous: bool = True,
    anchor: tuple[Any, float] | None = None,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> HistoryLeaderboardResult:
    r"""Rank forecasters by a score over forecast histories, with paired intervals and ties.

    The pair scores :math:`s_{iq}` of any score over histories
    (:func:`skbrier.daily_brier`, :func:`skbrier.brier_at`,
    :func:`skbrier.peer_score`, :func:`skbrier.baseline_score`) are
    adjusted for question difficulty as :func:`skbrier.leaderboard`
    adjusts Brier scores: the two-way fixed-effects model
    :math:`s_{iq} = \alpha_i + \gamma_q + \varepsilon_{iq}` weighted by the
    question weights of the history (exact; ``question_effects`` freezes
    :math:`\gamma_q` instead, ``adjustment="none"`` sets it to 0), and a
    forecaster's adjusted score is the weighted mean of
    :math:`s_{iq} - \hat\gamma_q`.  Questions are resampled with
    replacement (within ``strata``) and the model is refitted on every
    replicate, which gives:

    * a percentile interval of each adjusted score;
    * rank intervals: the percentile interval of each forecaster's
      replicate rank, rounded outward (Hall & Miller [2]_), and the *top
      set* ``contains_best``: the forecasters whose interval contains 1;
    * paired intervals: every replicate scores all forecasters on the same
      questions, so :math:`\Delta_{ij} = S_i - S_j` has a paired bootstrap
      interval; with ``simultaneous=True`` each has level
      :math:`1 - (1 - \text{level}) / m` over the :math:`m = K(K-1)/2`
      pairs (Bonferroni), so that all hold together;
    * tie groups: forecaster :math:`i` is *significantly better* than
      :math:`j` when the paired interval of their difference excludes 0
      on :math:`i`'s side (``better[i, j]``), and
      :math:`\text{tie\_group}_i = 1 + \#\{j : j \text{ significantly better than } i\}`,
      the rank Chatbot Arena shows [3]_ (there from non-overlapping
      marginal intervals; here from paired ones, which are narrower).
      Forecasters with the same value are statistically tied; group 1
      holds those no one beats.

    Parameters
    ----------
    scores : HistoryScoreResult
        A score over histories (one value per scored forecaster and
        question, ``pair_score``; weights ``pair_weight``).
    adjustment : {"fixed_effects", "none"}, default="fixed_effects"
        Fit the question effects, or none (the raw weighted means, e.g.
        for Metaculus's peer scores, already relative to the others).
    question_effects : mapping of question to float, optional
        Frozen effects :math:`\gamma_q` in the score's units (replaces the
        fit; the replicates keep them fixed).
    fit_forecasters : list, optional
        Forecasters whose pairs estimate the effects (default: all).
    strata : mapping or array-like, optional
        Bootstrap stratum of each question (a dict or a pandas Series
        indexed by question, or values in the order of ``scores.questions``).
    reference : object, optional
        Forecaster the p-values compare with.
    n_resamples : int, default=1999
        Bootstrap replicates; 0: point estimates and ranks only (NaN
        intervals, an empty top set, every forecaster in tie group 1).  A
        bootstrap resamples the questions and needs at least 3 of them.
    confidence_level : float, default=0.95
    simultaneous : bool, default=True
        Bonferroni-adjust the paired intervals (and so the tie groups).
    anchor : (name, value), optional
        Shift all adjusted scores so that ``name`` scores ``value``.
    random_state : None, int, Generator, RandomState or SeedSequence
    n_jobs : int, optional
        Threads for the replicates (the result does not depend on it).

    Returns
    -------
    HistoryLeaderboardResult

    Raises
    ------
    TypeError
        When ``scores`` is not a :class:`~skbrier.leaderboards.HistoryScoreResult`.
    ValueError
        As :func:`skbrier.leaderboard` (a disconnected forecaster-question
        graph, an unknown name), or ``question_effects`` with options of the
        fit.

    {{references_forecastbench}}
    .. [2] Hall, P. & Miller, H. (2009). Using the bootstrap to quantify the
       authority of an empirical ranking. Annals of Statistics 37(6B),
       3929-3959.
    .. [3] Chiang, W.-L. et al. (2024). Chatbot Arena: An open platform for
       evaluating LLMs by human preference. ICML 2024 (the leaderboard's rank:
       one plus the number of models statistically better).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier import daily_brier, forecast_history, history_leaderboard
    >>> rng = np.random.default_rng(0)
    >>> n_q = 60
    >>> y = (rng.random(n_q) < 0.5).astype(int)
    >>> rows = [(f, q, t, float(np.clip(y[q] * skill + (1 - skill) / 2
    ...          + rng.normal(0, 0.05), 0.01, 0.99)))
    ...         for f, skill in (("sharp", 0.8), ("fair", 0.6), ("also fair", 0.6))
    ...         for q in range(n_q) for t in (0.0, 5.0)]
    >>> f, q, t, p = map(list, zip(*rows))
    >>> h = forecast_history(
    ...     {"forecaster": f, "question": q, "timestamp": t, "probability": p},
    ...     {"question": np.arange(n_q), "open_time": np.zeros(n_q),
    ...      "close_time": np.full(n_q, 10.0), "outcome": y}, resolve_time=None)
    >>> res = history_leaderboard(daily_brier(h), n_resamples=199, random_state=0)
    >>> res.top_set
    ['sharp']
    >>> res.groups
    {1: ['sharp'], 2: ['fair', 'also fair']}
    """
    if not isinstance(scores, HistoryScoreResult):
        raise TypeError(
            "scores must be the result of a score over histories (daily_brier, brier_at, "
            f"peer_score or baseline_score), got {type(scores).__name__}."
        )
    adjustment = check_option(adjustment, "adjustment", _ADJUSTMENTS)
    n_resamples, level, n_jobs = check_bootstrap(
        n_resamples, confidence_level, random_state, n_jobs
    )
    simultaneous = check_bool(simultaneous, "simultaneous")
    if adjustment == "none" and question_effects is not None:
        raise ValueError(
            "question_effects and adjustment='none' exclude each other: frozen effects "
            "adjust the scores; give one of them."
        )
    if (
        adjustment == "none" or question_effects is not None
    ) and fit_forecasters is not None:
        raise ValueError(
            "fit_forecasters: nothing is fitted with adjustment='none' or question_effects; "
            "leave it at None."
        )
    _refuse_unscored(
        scores,
        reference=[] if reference is None else [reference],
        anchor=[anchor[0]]
        if isinstance(anchor, (tuple, list)) and len(anchor) == 2
        else [],
        fit_forecasters=list(fit_forecasters)
        if isinstance(fit_forecasters, (list, tuple, np.ndarray))
        else [],
    )
    hib = scores.higher_is_better  # the fit takes a loss (lower is better)
    lp = score_panel(
        oriented(scores.pair_score, hib),
        forecaster=scores.pair_forecaster,
        question=scores.pair_question,
        sample_weight=scores.pair_weight,
        fit_forecasters=fit_forecasters,
        strata=None if strata is None else _per_pair(strata, scores, "strata"),
    )
    anc = check_anchor(anchor, lp.forecasters)
    board = build_board(lp, None if anc is None else (anc[0], oriented(anc[1], hib)))
    gamma = None
    if question_effects is not None:
        gamma = oriented(check_question_effects(question_effects, lp), hib)
    elif adjustment == "none":
        gamma = np.zeros(lp.questions.shape[0])
    ref = None if reference is None else check_name(reference, lp.forecasters, "reference")
    point, reps, n_bad = fit_board(board, gamma, n_resamples, random_state, n_jobs)
    nan = np.full(lp.forecasters.shape[0], np.nan)
    score_ci = score_interval(reps, level, scores.higher_is_better)
    ri = rank_inference(reps, level, simultaneous)
    diff_low, diff_high = ri.difference_low, ri.difference_high
    if hib:  # back to the score's orientation: intervals flip
        diff_low, diff_high = oriented(diff_high, hib), oriented(diff_low, hib)
    return HistoryLeaderboardResult(
        score_name=scores.score_name,
        higher_is_better=scores.higher_is_better,
        forecasters=lp.forecasters,
        adjusted_score=oriented(point.adjusted_brier, hib),
        raw_score=oriented(lp.raw, hib),
        n_questions=lp.n_questions,
        fitted=point.fitted,
        questions=lp.questions,
        question_effects=oriented(point.question_effects, hib),
        score_low=score_ci[0],
        score_high=score_ci[1],
        rank=rank_matrix(point.adjusted_brier[None, :])[0],
        p_value=nan.copy() if ref is None or not reps.shape[0] else p_values(reps, ref),
        share_best=best_shares(reps) if reps.shape[0] else nan.copy(),
        replicates=oriented(reps, hib),
        confidence_level=level,
        simultaneous=simultaneous,
        n_resamples=int(reps.shape[0]),
        n_disconnected=n_bad,
        reference=None if ref is None else to_builtin(lp.forecasters[ref]),
        adjustment="frozen" if question_effects is not None else adjustment,
        anchor=None if anc is None else (to_builtin(lp.forecasters[anc[0]]), anc[1]),
        **(ri._asdict() | {"difference_low": diff_low, "difference_high": diff_high}),
    )
