r"""Abstention: scores of answers that may say "I don't know".

* :func:`abstention_scores` -- coverage, accuracy on the attempted and
  SimpleQA's F-score, exactly as openai/simple-evals aggregates its grades;
* :func:`abstention_utility` -- the answer-or-abstain utility curve over
  thresholds, its area and bootstrap intervals;
* :func:`compare_abstention_utility` -- two models on the same questions:
  the differences with paired bootstrap intervals.

The utility is a decision curve
-------------------------------
At threshold :math:`t` the model answers when its confidence is at least
:math:`t`; a right answer earns 1, a wrong one costs :math:`t/(1 - t)`,
abstaining earns 0 (the rule under which answering pays exactly when the
probability of being right exceeds :math:`t`).  Per question,

.. math::

    U(t) = \frac{1}{W}\Big(\sum_{\text{answered, right}} w_i
           - \frac{t}{1 - t} \sum_{\text{answered, wrong}} w_i\Big)
         = \frac{TP(t)}{W} - \frac{FP(t)}{W}\,\frac{t}{1 - t},

the net benefit of "treat" = *answer*, with the right answers as the events
and the confidence as the risk score.  So the curve is computed by skbrier's
net-benefit kernel (the confidences sorted once per class), answering
everything is the treat-all strategy, :math:`a - (1 - a)\,t/(1 - t)` for
accuracy :math:`a`, and abstaining on everything is treat-none, 0.

Its area over :math:`t \in [0, T]` has a closed form: an answer of
confidence :math:`c` is given at every :math:`t \le c`, so with
:math:`m = \min(c, T)` it adds :math:`m` if right and
:math:`-\int_0^m t/(1-t)\,dt = m + \ln(1 - m)` if wrong.  For :math:`T = 1`
this is a strictly proper scoring rule of the confidence (its expectation
:math:`c + (1 - p)\ln(1 - c)` under a chance :math:`p` of being right peaks
at :math:`c = p`), the Schervish representation of the integrated decision
curve -- the "behavioral alignment score" of Wu et al. (2026) -- and it is
``-inf`` as soon as a wrong answer has confidence 1.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.arrays import as_array
from .._core.diagnose import is_missing
from .._core.docstrings import with_pieces
from .._core.kernels.brier import weighted_mean
from .._core.kernels.net_benefit import bootstrap_net_benefit, class_shares, threshold_odds
from .._core.kernels.selective import simpleqa_aggregate, utility_area_scores
from .._core.params import DEFAULT_N_RESAMPLES, check_min_samples, check_real
from .._core.resampling import frequency_replicates
from .._core.validation import check_sample_weight
from ._abstention_results import (
    AbstentionResult,
    AbstentionUtilityComparison,
    AbstentionUtilityResult,
)
from .net_benefit import curve_options
from .selective import check_correctness, correctness_labels, declare_in_memory

__all__ = [
    "AbstentionResult",
    "AbstentionUtilityComparison",
    "AbstentionUtilityResult",
    "abstention_scores",
    "abstention_utility",
    "compare_abstention_utility",
]

#: the bootstrap options that both utility functions describe alike
_doc = with_pieces(
    {
        "bootstrap_run": """\
confidence_level : float, default=0.95
    Level of the result's ``bands``.
random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
    Seed of the bootstrap.
n_jobs : int, default=None
    joblib threads for the bootstrap.""",
    }
)


# --------------------------------------------------------------------------- scores
@declare_in_memory(("y_correct", "attempted", "sample_weight"), "attempted")
def abstention_scores(
    y_correct: ArrayLike,
    attempted: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
) -> AbstentionResult:
    r"""Coverage, accuracy on the attempted and SimpleQA's F-score.

    Parameters
    ----------
    y_correct : array-like of shape (n_samples,)
        1 (or True) where the answer is right; read only where
        ``attempted`` (SimpleQA grade "correct" vs "incorrect"), so it may
        be missing (NaN or None) where not.
    attempted : array-like of shape (n_samples,)
        1 (or True) where the model answered, 0 where it abstained
        (SimpleQA grade "not attempted").
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (integer weights equal repeated rows).

    Returns
    -------
    AbstentionResult
        ``correct``, ``incorrect``, ``not_attempted``, ``coverage``,
        ``accuracy_given_attempted``, ``f_score``.

    Raises
    ------
    ValueError
        If an input is not binary or the lengths differ.
    TypeError
        If ``y_correct`` holds text.

    See Also
    --------
    abstention_utility : Answer-or-abstain decisions at every threshold.

    Notes
    -----
    As simple-evals' ``SimpleQAEval`` (equal to it to 1e-12, tested):
    with shares :math:`s_c` (right) and :math:`s_i` (wrong) of all
    questions, ``accuracy_given_attempted`` :math:`= s_c / (s_c + s_i)` (0
    when nothing is attempted) and the F-score is the harmonic mean of
    :math:`s_c` and that accuracy (0 when both are 0).

    References
    ----------
    .. [1] Wei J, Karina N, Chung HW, et al. Measuring short-form factuality
       in large language models (SimpleQA). arXiv:2411.04368, 2024.

    Examples
    --------
    >>> from skbrier.metrics.abstention import abstention_scores
    >>> res = abstention_scores([1, 0, 1, 0, 1], [1, 1, 1, 0, 0])
    >>> res.coverage, res.accuracy_given_attempted
    (0.6, 0.6666666666666666)
    >>> round(res.f_score, 4)
    0.5
    """
    att = correctness_labels(
        attempted,
        None,
        "attempted",
        "y_correct",
        one="an answered question",
        text="'attempted'",
    )
    n = att.shape[0]
    y = correctness_labels(_unread_missing(y_correct, att), n, "y_correct", "attempted")
    w = check_sample_weight(sample_weight, n, ref_name="y_correct")
    right = att * y
    wrong = att - right
    if w is None:
        total = float(n)
        shares = float(right.sum()) / total, float(wrong.sum()) / total
    else:
        total = float(w.sum())
        shares = float(w @ right) / total, float(w @ wrong) / total
    cov, acc, f1 = simpleqa_aggregate(*shares)
    return AbstentionResult(
        correct=shares[0],
        incorrect=shares[1],
        not_attempted=1.0 - cov,
        coverage=cov,
        accuracy_given_attempted=acc,
        f_score=f1,
        n=total,
    )


def _unread_missing(y_correct: Any, att: np.ndarray) -> Any:
    """``y_correct`` with missing values (NaN, None, NA) of the questions not
    attempted set to 0 (they are not read); missing where attempted is an error."""
    if y_correct is None or isinstance(y_correct, (str, bytes)):
        return y_correct
    y = as_array(y_correct, "y_correct")
    if y.dtype.kind not in "fO" or y.ndim != 1 or y.shape[0] != att.shape[0]:
        return y  # correctness_labels reports what is wrong
    if y.dtype.kind == "f":
        missing = np.isnan(y)
    else:
        missing = np.fromiter((is_missing(v) for v in y), dtype=bool, count=y.shape[0])
    if not missing.any():
        return y
    bad = missing & (att > 0)
    if bad.any():
        raise ValueError(
            f"y_correct is missing (NaN or None) for {int(bad.sum())} attempted "
            f"question(s), the first at index {int(np.argmax(bad))}: only a question "
            "not attempted may lack its correctness."
        )
    y = y.copy()
    y[missing] = 0
    if y.dtype.kind == "O":
        try:
            return y.astype(np.float64)
        except (TypeError, ValueError):  # text: correctness_labels says so
            return y
    return y


# --------------------------------------------------------------------------- utility
def _utility_options(
    thresholds: Any,
    max_threshold: Any,
    n_resamples: Any,
    confidence_level: Any,
    n_jobs: Any,
    random_state: Any,
) -> tuple[np.ndarray, float, int, float, int | None, Any]:
    """The decision curve's option checks, plus ``max_threshold`` in (0, 1]."""
    t, _, n_resamples, level, n_jobs, random_state = curve_options(
        thresholds, None, n_resamples, confidence_level, n_jobs, random_state
    )
    top = check_real(
        max_threshold, "max_threshold", low=0.0, high=1.0, inclusive=(False, True)
    )
    return t, top, n_resamples, level, n_jobs, random_state


def _utility(y: np.ndarray, c: np.ndarray, w: np.ndarray | None, t: np.ndarray):
    """Utility and answer rate at every threshold (the net-benefit kernel)."""
    s = class_shares(y, c, w, t)
    return s.tp - s.fp * threshold_odds(t), s.tp + s.fp


def _area(scores: np.ndarray, w: np.ndarray | None, name: str = "confidence") -> float:
    """The weighted mean of the scores; a RuntimeWarning when it is ``-inf``."""
    with np.errstate(invalid="ignore"):
        area = weighted_mean(scores, w)  # scale-free (weights of 5e-324)
    if area == -np.inf:
        k = int(np.count_nonzero(np.isneginf(scores)))
        warnings.warn(
            f"{name}: {k} wrong answer(s) have confidence 1, which the utility at "
            "thresholds near 1 penalizes without bound: the area is -inf. Pass "
            "max_threshold < 1 (e.g. 0.99) to bound the penalty.",
            RuntimeWarning,
            stacklevel=4,
        )
    return area


def _bootstrap(
    models: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    w: np.ndarray | None,
    t: np.ndarray,
    n_resamples: int,
    random_state: Any,
    n_jobs: int | None,
) -> dict[str, np.ndarray]:
    """Replicates of the utility curve and area of one model, or of the
    difference of two (``models``: ``(correct, confidence, area scores)``),
    on the same resampled questions."""
    n = models[0][0].shape[0]
    check_min_samples(n, None if w is None else float(w.sum()))
    curves = [bootstrap_net_benefit(y, {"m": c}, t, None, {"m": 0.0}) for y, c, _ in models]

    def statistic(counts: np.ndarray) -> np.ndarray:
        out = np.empty((counts.shape[0], len(models), t.shape[0] + 1))
        total = counts.sum(axis=1)
        for j, ((_, _, scores), curve) in enumerate(zip(models, curves)):
            out[:, j, :-1] = curve(counts)[:, 0]
            with np.errstate(invalid="ignore"):
                out[:, j, -1] = np.where(counts > 0, counts * scores, 0.0).sum(1) / total
        return out if len(models) == 1 else out[:, :1] - out[:, 1:]

    reps = frequency_replicates(
        statistic,
        w,
        n,
        n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        desc="utility bootstrap",
    )[:, 0]
    return {"utility": reps[:, :-1], "utility_area": reps[:, -1]}


@declare_in_memory()
@_doc
def abstention_utility(
    y_correct: ArrayLike,
    confidence: ArrayLike,
    *,
    thresholds: ArrayLike | None = None,
    max_threshold: float = 1.0,
    sample_weight: ArrayLike | None = None,
    n_resamples: int = 0,
    confidence_level: float = 0.95,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> AbstentionUtilityResult:
    r"""The answer-or-abstain utility curve over thresholds, and its area.

    Parameters
    ----------
    {{correctness_inputs}}
    thresholds : array-like of shape (n_thresholds,), default=None
        Thresholds :math:`t` in [0, 1) of the curve (0.01, ..., 0.99 by
        default), as :func:`~skbrier.metrics.net_benefit.decision_curve`.
    max_threshold : float, default=1.0
        Upper end :math:`T` in (0, 1] of the area :math:`\int_0^T U(t)\,dt`
        (computed exactly, not from ``thresholds``).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (integer weights equal repeated rows).
    n_resamples : int, default=0
        Bootstrap resamples for the intervals (0: none; otherwise >= 2).
    {{bootstrap_run}}

    Returns
    -------
    AbstentionUtilityResult
        ``utility`` and ``answer_rate`` per threshold, ``answer_all``,
        ``area`` and, with a bootstrap,
        ``confidence_interval(metric="utility_area" | "utility")``.

    Raises
    ------
    ValueError
        If ``confidence`` is outside [0, 1], a threshold is outside
        [0, 1), ``max_threshold`` outside (0, 1], the labels are not
        binary, the lengths differ or a bootstrap is asked for fewer than 3
        observations.
    TypeError
        For an option of the wrong type.

    See Also
    --------
    abstention_scores : SimpleQA's scores of one set of answers.
    compare_abstention_utility : Two models on the same questions.
    skbrier.metrics.net_benefit.decision_curve : The same curve, as net benefit.

    Notes
    -----
    The utility at :math:`t` is the net benefit of answering with the right
    answers as events (see the module's notes), so
    ``abstention_utility(y, c, thresholds=t).utility`` equals
    ``decision_curve(y, c, thresholds=t).net_benefit``.  The area is
    :math:`\frac1W\sum_i w_i s_i` with :math:`s_i = m_i` for a right answer
    and :math:`m_i + \ln(1 - m_i)` for a wrong one, :math:`m_i =
    \min(c_i, T)`; it is ``-inf`` when :math:`T = 1` and a wrong answer has
    confidence 1 (lower ``max_threshold`` to bound the penalty).  The
    bootstrap resamples questions with skbrier's one resampling engine
    (percentile or basic intervals).

    References
    ----------
    .. [1] Wu S, Gustafsson FK, Phillips E, Gao B, Thakur A, Clifton DA.
       BAS: a decision-theoretic approach to evaluating large language model
       confidence. arXiv:2604.03216, 2026.
    .. [2] Vickers AJ, Elkin EB. Decision curve analysis: a novel method for
       evaluating prediction models. Med Decis Making 2006;26:565-574.

    Examples
    --------
    >>> from skbrier.metrics.abstention import abstention_utility
    >>> res = abstention_utility([1, 0, 1, 1], [0.9, 0.8, 0.6, 0.3],
    ...                          thresholds=[0.0, 0.5])
    >>> res.utility, res.answer_rate
    (array([0.75, 0.25]), array([1.  , 0.75]))
    >>> round(res.area, 4)
    0.2476
    """
    t, top, n_resamples, level, n_jobs, random_state = _utility_options(
        thresholds, max_threshold, n_resamples, confidence_level, n_jobs, random_state
    )
    y, c, w = check_correctness(y_correct, confidence, sample_weight)
    utility, rate = _utility(y, c, w, t)
    scores = utility_area_scores(y, c, top)
    reps = None
    if n_resamples:
        reps = _bootstrap([(y, c, scores)], w, t, n_resamples, random_state, n_jobs)
    return AbstentionUtilityResult(
        thresholds=t,
        utility=utility,
        answer_rate=rate,
        accuracy=weighted_mean(y, w),
        area=_area(scores, w),
        max_threshold=top,
        n=float(y.shape[0]) if w is None else float(w.sum()),
        n_resamples=n_resamples,
        confidence_level=level,
        bootstrap_replicates=reps,
    )


@declare_in_memory(
    ("y_correct_a", "confidence_a", "y_correct_b", "confidence_b", "sample_weight"),
    "confidence_a",
)
@_doc
def compare_abstention_utility(
    y_correct_a: ArrayLike,
    confidence_a: ArrayLike,
    y_correct_b: ArrayLike,
    confidence_b: ArrayLike,
    *,
    thresholds: ArrayLike | None = None,
    max_threshold: float = 1.0,
    sample_weight: ArrayLike | None = None,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    confidence_level: float = 0.95,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> AbstentionUtilityComparison:
    r"""Paired comparison of two models' answer-or-abstain utility on the same questions.

    Parameters
    ----------
    y_correct_a, confidence_a : array-like of shape (n_samples,)
        Model a: right (1) or wrong (0) on each question, and its confidence
        in [0, 1].
    y_correct_b, confidence_b : array-like of shape (n_samples,)
        Model b on the same questions, in the same order.
    thresholds : array-like of shape (n_thresholds,), default=None
        Thresholds in [0, 1) (0.01, ..., 0.99 by default).
    max_threshold : float, default=1.0
        Upper end of the areas (see :func:`abstention_utility`).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights of the questions.
    n_resamples : int, default=1999
        Bootstrap resamples of the questions (0: differences without
        intervals).
    {{bootstrap_run}}

    Returns
    -------
    AbstentionUtilityComparison
        Both curves and areas, ``difference`` and ``area_difference`` (a
        minus b) and their bootstrap intervals.

    Raises
    ------
    ValueError
        If an input is invalid (see :func:`abstention_utility`), the two
        models do not have one answer per question each, or both give a
        wrong answer with confidence 1 while ``max_threshold=1`` (both areas
        ``-inf``).
    TypeError
        For an option of the wrong type.

    See Also
    --------
    abstention_utility : One model.

    Notes
    -----
    The questions are resampled (iid; frequency weights draw observations),
    the same resample for both models, so the interval of the difference
    accounts for the correlation of two models answering the same
    questions.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics.abstention import compare_abstention_utility
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0, 0.9, 500)
    >>> right = rng.uniform(size=500) < p
    >>> res = compare_abstention_utility(right, p, right, np.full(500, 0.6),
    ...                                  random_state=0, n_resamples=200)
    >>> round(res.area_difference, 3)
    0.094
    """
    t, top, n_resamples, level, n_jobs, random_state = _utility_options(
        thresholds, max_threshold, n_resamples, confidence_level, n_jobs, random_state
    )
    ya, ca, w = check_correctness(
        y_correct_a,
        confidence_a,
        sample_weight,
        names=("y_correct_a", "confidence_a"),
        drop_zero_weight=False,
    )
    yb, cb, _ = check_correctness(
        y_correct_b, confidence_b, None, names=("y_correct_b", "confidence_b")
    )
    if yb.shape[0] != ya.shape[0]:
        raise ValueError(
            f"confidence_b has {yb.shape[0]} samples but confidence_a has "
            f"{ya.shape[0]}: the two models must answer the same questions, in the "
            "same order."
        )
    if w is not None and not (keep := w > 0.0).all():
        ya, ca, yb, cb, w = ya[keep], ca[keep], yb[keep], cb[keep], w[keep]
    ua, _ = _utility(ya, ca, w, t)
    ub, _ = _utility(yb, cb, w, t)
    sa, sb = utility_area_scores(ya, ca, top), utility_area_scores(yb, cb, top)
    if np.isneginf(sa).any() and np.isneginf(sb).any():
        raise ValueError(
            "both models give wrong answers with confidence 1: with max_threshold=1 "
            "both areas are -inf and their difference is undefined. Pass "
            "max_threshold < 1 (e.g. 0.99) to bound the penalty."
        )
    reps = None
    if n_resamples:
        reps = _bootstrap(
            [(ya, ca, sa), (yb, cb, sb)], w, t, n_resamples, random_state, n_jobs
        )
    return AbstentionUtilityComparison(
        thresholds=t,
        utility_a=ua,
        utility_b=ub,
        area_a=_area(sa, w, "confidence_a"),
        area_b=_area(sb, w, "confidence_b"),
        max_threshold=top,
        n=float(ya.shape[0]) if w is None else float(w.sum()),
        n_resamples=n_resamples,
        confidence_level=level,
        bootstrap_replicates=reps,
    )
