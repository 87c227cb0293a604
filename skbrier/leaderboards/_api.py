"""Public entry points: difficulty-adjusted Brier scores and leaderboards."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.dispatch import HOST, Refused, backends
from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_N_RESAMPLES,
    MIN_SAMPLES,
    check_bool,
    check_confidence_level,
)
from .._core.results import to_builtin
from ._boot import (
    Board,
    best_shares,
    bootstrap,
    brier_index_of,
    build_board,
    check_bootstrap,
    combined,
    p_values,
    point_fits,
    rank_matrix,
)
from ._docs import leaderboard_doc
from ._frozen import check_question_effects, frozen_bootstrap, frozen_point
from ._panel import check_anchor, check_name, check_panel
from ._ranking import rank_inference
from ._result import (
    DifficultyAdjustedResult,
    LeaderboardResult,
    board_interval,
    board_result,
    part_result,
)

__all__ = ["combine_leaderboards", "difficulty_adjusted_brier", "leaderboard"]


def _disconnected_message(board: Board, part: int, comps: np.ndarray) -> str:
    names = board.lp.forecasters[board.parts[part].structure.fit_idx]
    groups = [names[comps == k].tolist() for k in range(int(comps.max()) + 1)]
    groups.sort(key=len, reverse=True)
    shown = "; ".join(
        "[" + ", ".join(map(repr, g[:6])) + (", ..." if len(g) > 6 else "") + "]"
        for g in groups[:5]
    )
    where = ""
    if board.lp.part_names is not None:
        where = f" in combine part {board.lp.part_names[part]!r}"
    return (
        f"forecaster, question: the forecaster-question graph{where} is disconnected "
        f"({len(groups)} components of fitted forecasters: {shown}); no question links "
        "them, so their scores are not comparable. Fit each component separately or "
        "add forecasters that answer questions of both."
    )


def _point(board: Board) -> DifficultyAdjustedResult:
    lp = board.lp
    fits = point_fits(board)
    part_results: dict[str, DifficultyAdjustedResult] = {}
    scores, alphas = [], []
    gamma = np.full(lp.panel.n_questions, np.nan)
    for k, (fit, g, shift) in enumerate(fits):
        if fit.n_components != 1:
            raise ValueError(_disconnected_message(board, k, fit.components))
        s, a = fit.scores + shift, fit.alpha + shift
        qs = board.parts[k].questions
        gamma[qs] = g - shift
        scores.append(s)
        alphas.append(a)
        if lp.part_names is not None:
            st = board.parts[k].structure
            rows = st.wall.getnnz(axis=1)
            raw = np.asarray(st.wall.multiply(_brier_matrix(st)).sum(axis=1)).ravel()
            with np.errstate(invalid="ignore", divide="ignore"):
                raw = raw / np.asarray(st.wall.sum(axis=1)).ravel()
            part_results[str(lp.part_names[k])] = part_result(
                board,
                k,
                s,
                np.where(rows > 0, raw, np.nan),
                rows,
                lp.panel.fitted.copy(),
                a,
                gamma,
                int(st.panel.f.shape[0]),
            )
    score = combined(scores)
    alpha = combined(alphas)
    return board_result(board, score, lp.panel.fitted.copy(), alpha, gamma, part_results)


def _no_fit_options(fit_forecasters: Any, singletons: str) -> None:
    if fit_forecasters is not None or singletons != "keep":
        raise ValueError(
            "question_effects: frozen effects are not fitted, so fit_forecasters and "
            "singletons do not apply; leave them at their defaults."
        )


def _brier_matrix(st: Any) -> Any:
    import scipy.sparse as sp

    pn = st.panel
    return sp.csr_matrix((pn.b, (pn.f, pn.q)), shape=(pn.n_forecasters, pn.n_questions))


def _prepare(
    y_true: Any, y_proba: Any, *, anchor: Any, question_effects: Any, **panel: Any
) -> tuple[Board, np.ndarray | None]:
    """The board of a panel of Brier scores (``panel``: the options of
    :func:`.check_panel`) and the frozen question effects (None: fitted)."""
    lp = check_panel(y_true, y_proba, **panel)
    board = build_board(lp, check_anchor(anchor, lp.forecasters))
    if question_effects is None:
        return board, None
    _no_fit_options(panel["fit_forecasters"], panel["singletons"])
    return board, check_question_effects(question_effects, lp)


#: the parameters of the leaderboards that may hold arrays (one value per forecast)
LEADERBOARD_ARRAYS = (
    "y_true",
    "y_proba",
    "forecaster",
    "question",
    "sample_weight",
    "combine",
)
#: the leaderboards' refusal of Dask input
FITS_ALL_FORECASTS = Refused(
    "the question effects are fitted on every forecast at once (a two-way "
    "fixed-effects fit); compute it on the collected rows (e.g. ddf.compute())"
)


@backends(
    arrays=LEADERBOARD_ARRAYS,
    dask=FITS_ALL_FORECASTS,
    array_api=HOST,
)
@leaderboard_doc
def difficulty_adjusted_brier(
    y_true: Any,
    y_proba: Any,
    *,
    forecaster: Any,
    question: Any,
    fit_forecasters: Sequence[Any] | None = None,
    anchor: tuple[Any, float] | None = None,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    combine: ArrayLike | None = None,
    singletons: str = "keep",
    question_effects: Any = None,
) -> DifficultyAdjustedResult:
    r"""Difficulty-adjusted Brier scores from a two-way fixed-effects model (exact).

    Long-format input, one row per (forecaster, question).  With
    :math:`b_{ij} = (p_{ij} - y_j)^2`, the model

    .. math:: b_{ij} = \alpha_i + \gamma_j + \varepsilon_{ij}

    is fitted by (weighted) least squares on the rows of ``fit_forecasters``.
    Every row's adjusted score is :math:`b_{ij} - \hat\gamma_j`; a
    forecaster's adjusted Brier score is the weighted mean of its adjusted
    rows (for a fitted forecaster, :math:`\hat\alpha_i`), and its Brier
    Index is :math:`100\,(1 - \sqrt{\text{score}})`.

    The question effects are eliminated and the forecaster x forecaster
    system (a weighted graph Laplacian) is solved directly, so the result is
    exact, not an iterative solver's approximation.  The effects are
    identified only up to a common constant; without ``anchor`` it is fixed
    so that the weighted mean question effect over the fitted rows is zero
    (then a balanced panel gives exactly the raw Brier scores), and
    ``anchor=(name, value)`` shifts every score so that ``name`` scores
    ``value`` (ForecastBench: ``("Always 0.5", 0.25)``).  Differences
    between forecasters never depend on the constant.

    Parameters
    ----------
    y_true : array-like of shape (n_rows,)
        Binary outcomes of the rows' questions: one outcome per question,
        the same on each of its rows.
    y_proba : array-like of shape (n_rows,)
        Forecast probabilities.
    forecaster, question : array-like of shape (n_rows,)
        Labels (e.g. DataFrame columns).  A (forecaster, question) pair may
        appear only once.
    fit_forecasters : list, optional
        Forecasters whose rows estimate the effects (default: all).  The
        others are scored with the fitted question effects (ForecastBench
        leaves out its dummy baselines and external submissions).  Every
        question needs a fitted forecaster.
    anchor : (name, value), optional
        Shift all scores so that forecaster ``name`` scores ``value``.
    sample_weight : array-like of shape (n_rows,), optional
        Frequency weights of the rows (zero removes a row).
    pos_label : int, float, bool or str, optional
        The event label of ``y_true`` (scikit-learn's rule by default).
    combine : array-like of shape (n_rows,), optional
        Question type of each row (constant within a question).  Each type
        is fitted and anchored separately and a forecaster's score is the
        mean of its type scores, then the index is applied (ForecastBench's
        dataset/market rule); NaN when a forecaster lacks a type.
    singletons : {"keep", "drop"}, default="keep"
        Questions answered by a single fitted forecaster do not affect the
        fit (their effect fits that row exactly); ``"keep"`` scores them,
        ``"drop"`` removes them (as pyfixest does by default).
    question_effects : mapping of question to float, optional
        Frozen question effects :math:`\gamma_j` (e.g. ForecastBench's
        published ones, :func:`~skbrier.leaderboards.read_question_effects`):
        nothing is fitted, a forecaster's score is the weighted mean of
        :math:`b_{ij} - \gamma_j` over its rows (then anchored).  Every
        question of the panel needs an effect; ``fit_forecasters`` and
        ``singletons`` do not apply.

    Returns
    -------
    DifficultyAdjustedResult

    Raises
    ------
    ValueError
        When the forecaster-question graph of the fitted forecasters is
        disconnected (the components are named), a pair is repeated, the
        rows of a question have different ``y_true``, a question has no
        fitted forecaster, or a name is unknown.

    Notes
    -----
    Equal to pyfixest's ``feols("b ~ 1 | question + forecaster")`` followed
    by ``fixef()`` (whose ``lsqr`` stops at a 1e-6 tolerance) once both are
    anchored; pyfixest has no connectivity check and puts the constant in a
    reference forecaster.

    {{references_forecastbench}}
    .. [2] Abowd, J. M., Creecy, R. H. & Kramarz, F. (2002). Computing person
       and firm effects using linked longitudinal employer-employee data.

    Examples
    --------
    >>> from skbrier import difficulty_adjusted_brier
    >>> res = difficulty_adjusted_brier(
    ...     [1, 1, 0, 1, 1, 0],
    ...     [0.9, 0.6, 0.2, 0.5, 0.5, 0.5],
    ...     forecaster=["a", "a", "a", "b", "b", "b"],
    ...     question=["q1", "q2", "q3", "q1", "q2", "q3"],
    ...     anchor=("b", 0.25),
    ... )
    >>> [round(float(s), 4) for s in res.adjusted_brier]
    [0.07, 0.25]
    >>> [round(float(s), 2) for s in res.brier_index]
    [73.54, 50.0]
    """
    board, gamma = _prepare(
        y_true,
        y_proba,
        forecaster=forecaster,
        question=question,
        fit_forecasters=fit_forecasters,
        anchor=anchor,
        sample_weight=sample_weight,
        pos_label=pos_label,
        combine=combine,
        singletons=singletons,
        question_effects=question_effects,
    )
    return _point(board) if gamma is None else frozen_point(board, gamma)


def fit_board(
    board: Board,
    gamma: np.ndarray | None,
    n_resamples: int,
    random_state: Any,
    n_jobs: int | None,
) -> tuple[DifficultyAdjustedResult, np.ndarray, int]:
    """Point fit and replicates (fixed effects, or frozen ``gamma``); warns of disconnection.

    Returns the point result, the ``(n_resamples, n_forecasters)`` replicate
    scores and the number of disconnected replicates.
    """
    point = _point(board) if gamma is None else frozen_point(board, gamma)
    n_q = board.lp.panel.n_questions
    if n_resamples and n_q < MIN_SAMPLES:  # the library's rule for intervals
        raise ValueError(
            f"question: the bootstrap resamples the questions and there "
            f"{'is' if n_q == 1 else 'are'} {n_q} question{'' if n_q == 1 else 's'}; "
            f"at least {MIN_SAMPLES} are needed for intervals, rank intervals and tie "
            "groups (pass n_resamples=0 for the point scores)."
        )
    if n_resamples == 0:
        reps, n_bad = np.empty((0, point.forecasters.shape[0])), 0
    elif gamma is not None:
        reps, n_bad = frozen_bootstrap(board, gamma, n_resamples, random_state, n_jobs), 0
    else:
        reps, n_bad = bootstrap(board, n_resamples, random_state, n_jobs)
    if n_bad:
        warnings.warn(
            f"{n_bad} of {n_resamples} bootstrap replicates had a disconnected "
            "forecaster-question graph and were left out.",
            UserWarning,
            stacklevel=3,
        )
    return point, reps, n_bad


def _summarise(
    point: DifficultyAdjustedResult,
    reps: np.ndarray,
    *,
    confidence_level: float,
    simultaneous: bool,
    reference: int | None,
    n_disconnected: int,
    reference_name: Any,
) -> LeaderboardResult:
    nan = np.full(reps.shape[1], np.nan)
    scored = np.isfinite(point.adjusted_brier)
    if reference is not None and not scored[reference]:
        raise ValueError(
            f"reference: forecaster {reference_name!r} has no score (it has no rows in "
            "a combine part, and a score averages every part), so no p-value compares "
            "with it; choose a reference with forecasts in every part."
        )
    ri = rank_inference(reps, confidence_level, simultaneous)
    ci_low, ci_high = board_interval(reps, confidence_level, scored)
    fields = {
        f.name: getattr(point, f.name) for f in dataclasses.fields(DifficultyAdjustedResult)
    }
    return LeaderboardResult(
        **fields,
        brier_index_low=ci_low,
        brier_index_high=ci_high,
        rank=rank_matrix(point.adjusted_brier[None, :])[0],
        p_value=nan.copy()
        if reference is None or not reps.shape[0]
        else p_values(reps, reference),
        share_best=best_shares(reps) if reps.shape[0] else nan.copy(),
        replicates=reps,
        confidence_level=confidence_level,
        n_resamples=int(reps.shape[0]),
        n_disconnected=n_disconnected,
        reference=reference_name,
        simultaneous=simultaneous,
        **ri._asdict(),  # rank intervals, top set, paired intervals, tie groups
    )


@backends(
    arrays=(*LEADERBOARD_ARRAYS, "strata"),
    dask=FITS_ALL_FORECASTS,
    array_api=HOST,
)
@leaderboard_doc
def leaderboard(
    y_true: Any,
    y_proba: Any,
    *,
    forecaster: Any,
    question: Any,
    strata: ArrayLike | None = None,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
    simultaneous: bool = True,
    reference: Any = None,
    anchor: tuple[Any, float] | None = None,
    fit_forecasters: Sequence[Any] | None = None,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    combine: ArrayLike | None = None,
    singletons: str = "keep",
    question_effects: Any = None,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> LeaderboardResult:
    r"""A forecasting leaderboard: difficulty-adjusted Brier Index with a question bootstrap.

    The point estimates are those of :func:`difficulty_adjusted_brier`.  The
    bootstrap resamples *questions* with replacement within each stratum
    (e.g. forecast round x source; within each ``combine`` part), treats a
    question drawn :math:`c` times as :math:`c` distinct questions and refits
    the model on every replicate (exactly: for this model the copies are the
    question's rows weighted by :math:`c`).  From the replicates:

    * a percentile interval of each forecaster's Brier Index (the point
      estimate need not lie inside it: every replicate is a refit);
    * the one-sided p-value :math:`\#\{r: BI_i^{(r)} \ge BI_{ref}^{(r)}\} / R`
      that a forecaster is at least as good as ``reference``;
    * rank intervals (1 = best), rounded outward (Hall & Miller [3]_), the
      *top set* ``contains_best`` (the forecasters whose rank interval
      contains 1) and the share of replicates in which each forecaster is
      best;
    * paired intervals of the differences of adjusted Brier scores
      (``difference_low``, ``difference_high``) and *tie groups*:
      ``tie_group`` is one plus the number of forecasters significantly
      better (the paired interval excludes 0), as in
      :func:`skbrier.history_leaderboard`, which computes them with the
      same function.

    Parameters
    ----------
    y_true, y_proba, forecaster, question : array-like of shape (n_rows,)
        As in :func:`difficulty_adjusted_brier`.
    strata : array-like of shape (n_rows,), optional
        Stratum of each row's question (constant within a question).
    n_resamples : int, default=1999
        Bootstrap replicates; 0: none (the point estimates and ranks, with
        NaN intervals, p-values and shares).  A bootstrap resamples the
        questions and needs at least 3 of them.
    confidence_level : float, default=0.95
    simultaneous : bool, default=True
        Bonferroni-adjust the paired intervals over the :math:`K(K-1)/2`
        pairs (and so the tie groups), as :func:`skbrier.history_leaderboard`.
    reference : object, optional
        Forecaster the p-values compare with (e.g. superforecasters).
    anchor, fit_forecasters, sample_weight, pos_label, combine, singletons
        As in :func:`difficulty_adjusted_brier`; the anchor is applied in
        every replicate.
    question_effects : mapping of question to float, optional
        Frozen effects, as in :func:`difficulty_adjusted_brier`; the
        replicates resample questions and keep the effects fixed (the
        uncertainty of the scores given the published difficulties).
    random_state : None, int, Generator, RandomState or SeedSequence
        The result is the same for every ``n_jobs`` given the same value.
    n_jobs : int, optional
        Threads for the replicates.

    Returns
    -------
    LeaderboardResult

    Notes
    -----
    Differences from ForecastBench's script: a replicate whose graph is
    disconnected is left out (all NaN, counted in ``n_disconnected``)
    instead of giving arbitrary levels across components; a forecaster
    without questions in a replicate is NaN there, and p-values are shares
    of the replicates in which both scores exist (ForecastBench divides by
    all replicates); the reference's own p-value is NaN (ForecastBench: -1).

    {{references_forecastbench}}
    .. [2] Efron, B. & Tibshirani, R. (1993). An Introduction to the
       Bootstrap. Chapman & Hall.
    .. [3] Hall, P. & Miller, H. (2009). Using the bootstrap to quantify the
       authority of an empirical ranking. Annals of Statistics 37(6B),
       3929-3959.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier import leaderboard
    >>> rng = np.random.default_rng(0)
    >>> f = np.repeat(["a", "b", "c"], 40)
    >>> q = np.tile(np.arange(40), 3)
    >>> y = (rng.random(40) < 0.5)[q]
    >>> skill = np.array([0.3, 0.1, 0.0])[np.repeat([0, 1, 2], 40)]
    >>> p = np.clip(np.where(y, 0.5 + skill, 0.5 - skill) + rng.normal(0, 0.1, 120), 0, 1)
    >>> res = leaderboard(y, p, forecaster=f, question=q, n_resamples=99,
    ...                   reference="b", random_state=0)
    >>> res.forecasters.tolist(), res.rank.tolist()
    (['a', 'b', 'c'], [1.0, 2.0, 3.0])
    >>> float(res.p_value[0]) > 0.9
    True
    >>> res.top_set, res.tie_group.tolist()
    (['a'], [1, 2, 3])
    """
    n_resamples, confidence_level, n_jobs = check_bootstrap(
        n_resamples, confidence_level, random_state, n_jobs
    )
    simultaneous = check_bool(simultaneous, "simultaneous")
    board, gamma = _prepare(
        y_true,
        y_proba,
        forecaster=forecaster,
        question=question,
        fit_forecasters=fit_forecasters,
        anchor=anchor,
        sample_weight=sample_weight,
        pos_label=pos_label,
        strata=strata,
        combine=combine,
        singletons=singletons,
        question_effects=question_effects,
    )
    ref = (
        None
        if reference is None
        else check_name(reference, board.lp.forecasters, "reference")
    )
    point, reps, n_bad = fit_board(board, gamma, n_resamples, random_state, n_jobs)
    return _summarise(
        point,
        reps,
        confidence_level=confidence_level,
        simultaneous=simultaneous,
        reference=ref,
        n_disconnected=n_bad,
        reference_name=None if ref is None else to_builtin(point.forecasters[ref]),
    )


def _joined_questions(parts: list[np.ndarray]) -> np.ndarray:
    """The questions of the parts, one after another; as objects when their
    types differ (numpy's promotion turned an integer id 3 into '3')."""
    arrays = [np.asarray(q) for q in parts]
    if len({a.dtype.kind for a in arrays}) > 1:
        arrays = [a.astype(object) for a in arrays]
    return np.concatenate(arrays)


@leaderboard_doc
def combine_leaderboards(
    results: Sequence[LeaderboardResult | DifficultyAdjustedResult],
    *,
    reference: Any = None,
    confidence_level: float | None = None,
) -> LeaderboardResult | DifficultyAdjustedResult:
    r"""Combine leaderboards of several question types: mean score, then the index.

    ForecastBench's overall score: each forecaster's (anchored) adjusted
    Brier scores are averaged over the leaderboards, then
    :math:`BI = 100 (1 - \sqrt{\bar s})`; a forecaster missing from one of
    them has no overall score (NaN).  Replicates are paired by index (use
    different ``random_state`` values for the inputs, or one
    :func:`leaderboard` call with ``combine=``, which draws all parts
    together).

    Parameters
    ----------
    results : sequence of LeaderboardResult or DifficultyAdjustedResult
        All of one kind; leaderboards need the same ``n_resamples``.
    reference : object, optional
        Reference of the p-values (default: the first input's).
    confidence_level : float, optional
        Default: the first input's (the paired intervals and tie groups
        take its ``simultaneous``).

    Returns
    -------
    LeaderboardResult or DifficultyAdjustedResult

    {{references_forecastbench}}

    Examples
    --------
    >>> from skbrier import combine_leaderboards, difficulty_adjusted_brier
    >>> a = difficulty_adjusted_brier([1, 0, 1, 0], [0.8, 0.3, 0.5, 0.5],
    ...     forecaster=["x", "x", "h", "h"], question=[1, 2, 1, 2])
    >>> b = difficulty_adjusted_brier([1, 1], [0.6, 0.5],
    ...     forecaster=["x", "h"], question=[3, 3])
    >>> c = combine_leaderboards([a, b])
    >>> c.forecasters.tolist(), [round(float(v), 4) for v in c.adjusted_brier]
    (['h', 'x'], [0.25, 0.1125])
    """
    if not isinstance(results, (DifficultyAdjustedResult, str, bytes)) and isinstance(
        results, Iterable
    ):
        results = list(results)  # an iterator is read once
    if isinstance(results, (DifficultyAdjustedResult,)) or not results:
        raise TypeError("results must be a non-empty sequence of leaderboard results.")
    kinds = {isinstance(r, LeaderboardResult) for r in results}
    for r in results:
        if not isinstance(r, DifficultyAdjustedResult):
            raise TypeError(
                f"results must hold leaderboard results, got {type(r).__name__}."
            )
    if len(kinds) != 1:
        raise TypeError("results must all be leaderboards or all be point results.")
    try:
        names = np.asarray(
            sorted({v for r in results for v in np.asarray(r.forecasters).tolist()})
        )
    except TypeError:  # e.g. 1 in one leaderboard, "1" in another
        raise TypeError(
            "results: forecaster names of different types cannot be aligned (e.g. "
            "numbers in one leaderboard, text in another); name them alike."
        ) from None

    def align(
        r: DifficultyAdjustedResult, values: np.ndarray, fill: float = np.nan
    ) -> np.ndarray:
        out = np.full(values.shape[:-1] + (names.shape[0],), fill, dtype=np.float64)
        pos = np.searchsorted(names, np.asarray(r.forecasters))
        out[..., pos] = values
        return out

    score = combined([align(r, r.adjusted_brier) for r in results])
    raw_num = sum(align(r, r.raw_brier * r.n_questions, 0.0) for r in results)
    nq = sum(align(r, r.n_questions.astype(float), 0.0) for r in results)
    with np.errstate(invalid="ignore", divide="ignore"):
        raw = np.asarray(raw_num) / np.asarray(nq)
    fitted = np.asarray(sum(align(r, r.fitted.astype(float), 0.0) for r in results)) > 0
    alpha = combined([align(r, r.forecaster_effects) for r in results])
    point = DifficultyAdjustedResult(
        names,
        score,
        brier_index_of(score),
        raw,
        np.asarray(nq).astype(np.int64),
        fitted,
        alpha,
        _joined_questions([r.questions for r in results]),
        np.concatenate([r.question_effects for r in results]),
        results[0].anchor,
        int(sum(r.n_rows for r in results)),
        {f"part_{k}": r for k, r in enumerate(results)},
    )
    if not isinstance(results[0], LeaderboardResult):
        return point
    boards = [r for r in results if isinstance(r, LeaderboardResult)]
    sizes = {r.n_resamples for r in boards}
    if len(sizes) != 1:
        raise ValueError(f"results must have the same n_resamples, got {sorted(sizes)}.")
    reps = combined([align(r, r.replicates) for r in boards])
    if reference is None:
        reference = boards[0].reference
    ref = None if reference is None else check_name(reference, names, "reference")
    level = boards[0].confidence_level if confidence_level is None else confidence_level
    return _summarise(
        point,
        reps,
        confidence_level=check_confidence_level(level),
        simultaneous=boards[0].simultaneous,
        reference=ref,
        n_disconnected=int(np.sum([r.n_disconnected for r in boards])),
        reference_name=None if ref is None else to_builtin(names[ref]),
    )
