"""Refit callables for scikit-learn searches that choose by the pooled CV score."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from typing import Any, Literal

import numpy as np
from sklearn.exceptions import NotFittedError

from .._core.params import check_option
from ._pooled_scores import check_prefix, pooled_cv_scores

__all__ = ["PooledRefit", "pooled_best_score", "pooled_refit"]

_METRICS = ("brier_score", "brier_index", "brier_skill_score")
_RULES = ("best", "one_standard_error")


def _complexity_value(func: Callable, params: dict) -> float:
    value = func(params)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"complexity must return a number for every candidate; got {value!r} "
            f"for {params}."
        )
    return float(value)


def _check_complexity(complexity: Any) -> Any:
    if complexity is None or isinstance(complexity, str) or callable(complexity):
        return complexity
    raise TypeError(
        "complexity must be None, a parameter name or a callable, got "
        f"{type(complexity).__name__}."
    )


class PooledRefit:
    """Refit callable that picks the candidate by its pooled score.

    Made by :func:`pooled_refit`; see there for the parameters.  Calling it
    with ``cv_results_`` returns ``best_index_``.

    Parameters
    ----------
    metric : {"brier_index", "brier_score", "brier_skill_score"}
        Metric whose units the one-standard-error band uses.
    rule : {"best", "one_standard_error"}
        Selection rule.
    complexity : None, str or callable
        Complexity of a candidate (lower is simpler).
    prefix : str
        Prefix given to :func:`pooled_scoring`.

    See Also
    --------
    pooled_refit

    Examples
    --------
    >>> from skbrier.model_selection import pooled_refit
    >>> pooled_refit(rule="one_standard_error", complexity="C")
    PooledRefit(metric='brier_index', rule='one_standard_error', complexity='C', prefix='')
    """

    def __init__(
        self,
        metric: str = "brier_index",
        rule: str = "best",
        complexity: None | str | Callable[[dict], float] = None,
        prefix: str = "",
    ) -> None:
        self.metric = check_option(metric, "metric", _METRICS)
        self.rule = check_option(rule, "rule", _RULES)
        self.complexity = _check_complexity(complexity)
        self.prefix = check_prefix(prefix)

    def __repr__(self) -> str:
        return (
            f"PooledRefit(metric={self.metric!r}, rule={self.rule!r}, "
            f"complexity={self.complexity!r}, prefix={self.prefix!r})"
        )

    def _complexities(self, cv_results: Mapping[str, Any], n: int) -> np.ndarray:
        values = self._complexity_values(cv_results, n)
        if np.isnan(values).any():  # NaN sorted last: silently the most complex
            params = cv_results["params"][int(np.flatnonzero(np.isnan(values))[0])]
            raise ValueError(
                f"complexity={self.complexity!r} is NaN for the candidate {params}: "
                "give every candidate a comparable number (inf for the most complex)."
            )
        return values

    def _complexity_values(self, cv_results: Mapping[str, Any], n: int) -> np.ndarray:
        c = self.complexity
        if c is None:
            return np.arange(n, dtype=np.float64)
        params = cv_results.get("params")
        if params is None:
            raise ValueError("cv_results has no 'params' entry; complexity needs it.")
        if isinstance(c, str):
            values = []
            for p in params:
                if c not in p:
                    raise ValueError(
                        f"complexity={c!r} is not a parameter of every candidate "
                        f"(missing in {p})."
                    )
                v = p[c]
                if v is None:
                    v = np.inf  # e.g. max_depth=None: unlimited, the most complex
                if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                    raise TypeError(
                        f"complexity={c!r} must name a numeric parameter; got {v!r}. "
                        "Pass a callable params -> number instead."
                    )
                values.append(float(v))
            return np.asarray(values)
        if callable(c):
            return np.asarray([_complexity_value(c, p) for p in params], dtype=np.float64)
        raise TypeError(
            "complexity must be None, a parameter name or a callable, got "
            f"{type(c).__name__}."
        )

    def __call__(self, cv_results: Mapping[str, Any]) -> int:
        """Return the index of the chosen candidate.

        Parameters
        ----------
        cv_results : dict
            ``cv_results_`` of a search run with :func:`pooled_scoring`.

        Returns
        -------
        int
            ``best_index_``.
        """
        res = pooled_cv_scores(cv_results, prefix=self.prefix)
        bs = res.brier_score
        valid = np.isfinite(bs)
        if not valid.any():
            raise ValueError(
                "Every candidate has a non-finite pooled Brier score (did all fits fail?)."
            )
        # one criterion for every metric: the three are monotone in the pooled BS
        key = np.where(valid, bs, np.inf)
        best = int(np.argmin(key))
        if self.rule == "best":
            return best
        ok, se = self._within_one_se(res, best, valid)
        if not np.isfinite(se):
            return best  # a single split: no standard error, fall back to the best
        ok[best] = True
        comp = self._complexities(cv_results, bs.shape[0])
        cand = np.flatnonzero(ok)
        # simplest first; among equally simple, the best pooled score
        order = np.lexsort((key[cand], comp[cand]))
        return int(cand[order[0]])

    def _within_one_se(self, res: Any, best: int, valid: np.ndarray):
        """Candidates within one standard error of the best, in ``metric`` units."""
        if self.metric == "brier_score":
            bs = res.brier_score
            se = res.se_brier_score[best]
            return valid & (bs <= bs[best] + se), se
        score = getattr(res, self.metric)
        se = getattr(res, "se_" + self.metric)[best]
        if not np.isfinite(score[best]):
            raise ValueError(
                "The pooled skill score is undefined (missing class sums or "
                "constant outcomes); use metric='brier_index'."
            )
        return valid & (score >= score[best] - se), se


def pooled_refit(
    metric: Literal["brier_index", "brier_score", "brier_skill_score"] = "brier_index",
    rule: Literal["best", "one_standard_error"] = "best",
    *,
    complexity: None | str | Callable[[dict], float] = None,
    prefix: str = "",
) -> PooledRefit:
    r"""A ``refit`` callable for searches that picks by the pooled CV score.

    Use with ``scoring=pooled_scoring()`` in
    :class:`~sklearn.model_selection.GridSearchCV` (or
    :class:`~sklearn.model_selection.RandomizedSearchCV`, ...).  The
    returned object takes ``cv_results_`` and returns ``best_index_``.

    Parameters
    ----------
    metric : {"brier_index", "brier_score", "brier_skill_score"}, default="brier_index"
        The pooled metric.  With ``rule="best"`` all three choose the same
        candidate (each is a monotone function of the pooled Brier score,
        the skill-score reference being the same for all candidates); the
        metric sets the units of the one-standard-error band.
    rule : {"best", "one_standard_error"}, default="best"
        ``"best"``: the best pooled score.  ``"one_standard_error"``: the
        simplest candidate whose pooled score is within one standard error
        (of the best candidate, see :func:`pooled_cv_scores`) of the best.
    complexity : None, str or callable, default=None
        What "simplest" means, lower being simpler:

        * None: the candidate order of ``cv_results_["params"]`` (the first
          candidate is the simplest; give the grid in that order, for
          example ``{"C": [0.001, 0.01, 0.1]}`` for a logistic regression);
        * a parameter name: its numeric value (``"max_depth"``, ``"C"``;
          ``None`` counts as infinitely complex);
        * a callable ``params -> float`` (e.g. ``lambda p: -p["alpha"]`` when
          larger ``alpha`` is simpler).

        Ties in complexity go to the better pooled score.
    prefix : str, default=""
        The prefix given to :func:`pooled_scoring`.

    Returns
    -------
    PooledRefit
        A callable ``cv_results -> int``.

    Raises
    ------
    TypeError, ValueError
        At once for an unknown ``metric`` or ``rule``, a ``complexity`` that
        is not None, a string or a callable, or a ``prefix`` that is not a
        string; when called, for missing pooled sums or no candidate with a
        finite pooled score.

    See Also
    --------
    pooled_scoring, pooled_cv_scores
    pooled_best_score : The pooled score of the chosen candidate
        (``best_score_`` does not exist with a callable ``refit``).

    Notes
    -----
    The best candidate minimises :math:`\sum_f S_f / \sum_f W_f` (see
    :func:`pooled_scoring`), not the mean of per-fold scores.  The one
    standard error rule (Breiman et al. 1984) keeps candidates with
    :math:`\mathrm{BI} \ge \mathrm{BI}_\mathrm{best} - \mathrm{se}_\mathrm{best}`.

    References
    ----------
    .. [1] L. Breiman, J. Friedman, R. Olshen and C. Stone, *Classification
       and Regression Trees*, Wadsworth, 1984, section 3.4.3.
    .. [2] T. Hastie, R. Tibshirani and J. Friedman, *The Elements of
       Statistical Learning*, 2nd ed., Springer, 2009, section 7.10.

    Examples
    --------
    The simplest model within one standard error of the best:

    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from skbrier.model_selection import pooled_refit, pooled_scoring
    >>> X, y = make_classification(n_samples=300, random_state=0)
    >>> search = GridSearchCV(
    ...     LogisticRegression(), {"C": [0.001, 0.01, 0.1, 1.0, 10.0]},
    ...     scoring=pooled_scoring(),
    ...     refit=pooled_refit(rule="one_standard_error", complexity="C"))
    >>> search.fit(X, y).best_params_
    {'C': ...}
    """
    return PooledRefit(metric=metric, rule=rule, complexity=complexity, prefix=prefix)


def pooled_best_score(search: Any, *, metric: str | None = None) -> float:
    """Pooled CV score of the candidate a search chose (its ``best_score_``).

    scikit-learn does not set ``best_score_`` when ``refit`` is a callable
    such as :func:`pooled_refit`; this returns the pooled score of
    ``search.best_index_`` instead.

    Parameters
    ----------
    search : fitted GridSearchCV, RandomizedSearchCV or similar
        A search run with ``scoring=pooled_scoring(...)``.
    metric : {"brier_index", "brier_score", "brier_skill_score"}, default=None
        The pooled metric; None takes the ``metric`` of the search's
        :class:`PooledRefit` (``"brier_index"`` for any other refit).

    Returns
    -------
    float
        The pooled score of ``search.best_index_`` (the Brier score on the
        [0, 1] scale).

    Raises
    ------
    sklearn.exceptions.NotFittedError
        If ``search`` has not been fitted.
    ValueError
        For an unknown ``metric``, a search without the pooled sums or one
        fitted with ``refit=False`` (it chose no candidate).

    See Also
    --------
    pooled_refit, pooled_cv_scores

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from skbrier.model_selection import (
    ...     pooled_best_score, pooled_refit, pooled_scoring)
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]},
    ...                       scoring=pooled_scoring(), refit=pooled_refit()).fit(X, y)
    >>> hasattr(search, "best_score_")
    False
    >>> 0 < pooled_best_score(search) <= 100
    True
    """
    refit = getattr(search, "refit", None)
    if metric is None:
        metric = refit.metric if isinstance(refit, PooledRefit) else "brier_index"
    metric = check_option(metric, "metric", _METRICS)
    results = getattr(search, "cv_results_", None)
    best = getattr(search, "best_index_", None)
    if isinstance(results, Mapping) and best is None and refit is False:
        raise ValueError(
            f"search ({type(search).__name__}) was fitted with refit=False, so it "
            "chose no candidate: fit it with refit=pooled_refit(), or read every "
            "candidate's pooled score with pooled_cv_scores(search)."
        )
    if not isinstance(results, Mapping) or best is None:
        raise NotFittedError(
            f"search ({type(search).__name__}) is not fitted (no cv_results_ and "
            "best_index_): call fit first, with refit set."
        )
    prefix = refit.prefix if isinstance(refit, PooledRefit) else ""
    return float(getattr(pooled_cv_scores(results, prefix=prefix), metric)[int(best)])
