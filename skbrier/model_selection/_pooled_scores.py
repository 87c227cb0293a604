"""Pooled cross-validated scores of every candidate, rebuilt from the fold sums."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from .._core.kernels.brier import brier_index_from_score, skill_score
from .._core.optional import import_optional
from .._core.results import Result, format_number, to_builtin

__all__ = ["PooledCVResult", "check_prefix", "pooled_cv_scores"]

_KEYS = (
    "brier_score",
    "brier_index",
    "brier_skill_score",
    "se_brier_score",
    "se_brier_index",
    "se_brier_skill_score",
    "mean_fold_brier_index",
    "rank_brier_index",
    "n_splits",
)


def check_prefix(prefix: Any) -> str:
    """The ``prefix`` option of the pooled tools: a string."""
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a string, got {type(prefix).__name__}.")
    return prefix


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class PooledCVResult(Result):
    """Result of :func:`pooled_cv_scores`: one value per candidate of a search.

    Arrays of shape ``(n_candidates,)`` with the result protocol
    (``to_dict``, ``to_frame`` for a table, ``summary``).

    Attributes
    ----------
    brier_score, brier_index, brier_skill_score : ndarray
        Pooled scores ([0, 1] scale; skill against the pooled climatology,
        nan if the class sums are missing or the outcomes constant).
    se_brier_score, se_brier_index, se_brier_skill_score : ndarray
        The cv.glmnet standard errors (see :func:`pooled_cv_scores`).
    mean_fold_brier_index : ndarray
        Mean of the per-fold Brier Indices (biased upward; for comparison).
    rank_brier_index : ndarray of int
        1 for the best pooled score; ties share the lowest rank.
    n_splits : ndarray of int
        Number of splits.
    params : list of dict or None
        The candidates' parameters (``cv_results_["params"]``) when known;
        :meth:`to_frame` shows them as ``param_<name>`` columns.

    See Also
    --------
    pooled_cv_scores

    Examples
    --------
    >>> from skbrier.model_selection import pooled_cv_scores
    >>> cvr = {"split0_test_brier_sum": [2.0, 1.0], "split0_test_weight_sum": [10, 10],
    ...        "split1_test_brier_sum": [1.0, 1.5], "split1_test_weight_sum": [10, 10]}
    >>> res = pooled_cv_scores(cvr)
    >>> res.brier_score.tolist(), res.rank_brier_index.tolist()
    ([0.15, 0.125], [2, 1])
    >>> res
    PooledCVResult(n_candidates=2, n_splits=2, best_index=1, brier_index=64.64)
    """

    brier_score: np.ndarray
    brier_index: np.ndarray
    brier_skill_score: np.ndarray
    se_brier_score: np.ndarray
    se_brier_index: np.ndarray
    se_brier_skill_score: np.ndarray
    mean_fold_brier_index: np.ndarray
    rank_brier_index: np.ndarray
    n_splits: np.ndarray
    params: list[dict[str, Any]] | None = None

    _summary_fields: ClassVar[tuple[str, ...]] = _KEYS

    @property
    def best_index(self) -> int:
        """Candidate with the best pooled score (the first among ties)."""
        return int(np.argmin(self.rank_brier_index))

    def to_frame(self) -> Any:
        """One row per candidate (needs pandas).

        Returns
        -------
        pandas.DataFrame
            The candidates' parameters (``param_<name>``, as in
            ``cv_results_``, when known), then the pooled scores; without the
            per-fold bookkeeping sums that ``cv_results_`` also holds.
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        cols: dict[str, Any] = {}
        if self.params is not None:
            names = list(dict.fromkeys(k for p in self.params for k in p))
            for name in names:
                cols[f"param_{name}"] = [p.get(name) for p in self.params]
        cols.update({k: getattr(self, k) for k in _KEYS})
        return pd.DataFrame(cols)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values; parameters that are objects as their repr."""
        out = Result.to_dict(self)
        if self.params is not None:
            out["params"] = [{k: _json_param(v) for k, v in p.items()} for p in self.params]
        return out

    def _summary_rows(self) -> list[tuple[str, str]]:
        rows = []
        if self.params is not None:  # name the candidates the columns belong to
            rows.append(("params", "; ".join(_format_params(p) for p in self.params)))
        rows += [
            (k, ", ".join(format_number(v) for v in getattr(self, k).tolist()))
            for k in _KEYS
        ]
        return rows

    def __repr__(self) -> str:
        n = self.brier_score.shape[0]
        splits = int(self.n_splits[0]) if n else 0
        best = self.best_index if n else None
        bi = format_number(self.brier_index[best]) if n else "nan"
        return (
            f"PooledCVResult(n_candidates={n}, n_splits={splits}, best_index={best}, "
            f"brier_index={bi})"
        )


def _json_param(value: Any) -> Any:
    """A parameter value as JSON: numbers, strings, booleans, None; else its repr."""
    value = to_builtin(value)
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, list) and all(
        v is None or isinstance(v, (str, bool, int, float)) for v in value
    ):
        return value
    return repr(value)


def _format_params(params: Mapping[str, Any]) -> str:
    """``{'C': 0.1, 'penalty': 'l2'}`` as ``C=0.1, penalty='l2'``."""
    return ", ".join(
        f"{k}={format_number(v) if isinstance(v, float) else repr(v)}"
        for k, v in params.items()
    )


def _split_matrix(cv_results: Mapping[str, Any], key: str) -> np.ndarray:
    """(n_candidates, n_splits) matrix of ``split{k}_test_{key}``."""
    cols: list[np.ndarray] = []
    k = 0
    while f"split{k}_test_{key}" in cv_results:
        name = f"split{k}_test_{key}"
        try:
            col = np.asarray(cv_results[name], dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"cv_results[{name!r}] must hold numbers.") from None
        if col.ndim != 1 or (cols and col.shape != cols[0].shape):
            raise ValueError(
                f"cv_results[{name!r}] has shape {col.shape}; every split must hold "
                "one number per candidate."
            )
        cols.append(col)
        k += 1
    if not cols:
        raise ValueError(
            f"cv_results has no 'split0_test_{key}' entry: the search must use "
            "scoring=pooled_scoring() (with the same prefix)."
        )
    return np.column_stack(cols)


def _as_search_results(cv_results: Any, prefix: str) -> dict[str, Any]:
    """``cv_results_`` as a dict; ``cross_validate`` output becomes one candidate."""
    if not isinstance(cv_results, Mapping) and hasattr(cv_results, "get_params"):
        fitted = getattr(cv_results, "cv_results_", None)
        if not isinstance(fitted, Mapping):
            raise ValueError(
                f"cv_results is an unfitted {type(cv_results).__name__}: call fit "
                "first (or pass search.cv_results_)."
            )
        cv_results = fitted
    if not isinstance(cv_results, Mapping):
        raise TypeError(
            "cv_results must be a dict (search.cv_results_), got "
            f"{type(cv_results).__name__}."
        )
    results = dict(cv_results)
    if (
        f"test_{prefix}brier_sum" in results
        and f"split0_test_{prefix}brier_sum" not in results
    ):
        results = {
            f"split{k}_{key}": [v[k]]
            for key, v in cv_results.items()
            if key.startswith("test_")
            for k in range(len(v))
        }
    return results


def _pooled_reference(results: dict, prefix: str, total_w: np.ndarray) -> np.ndarray:
    """Brier score of the pooled climatology ([0, 1] scale); nan when unknown."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if f"split0_test_{prefix}positive_weight_sum" in results:
            o = _split_matrix(results, prefix + "positive_weight_sum").sum(axis=1) / total_w
            return o * (1.0 - o)
        if f"split0_test_{prefix}class_weight_sum_0" in results:
            j = 0
            sq = np.zeros_like(total_w)
            while f"split0_test_{prefix}class_weight_sum_{j}" in results:
                oj = _split_matrix(results, f"{prefix}class_weight_sum_{j}").sum(axis=1)
                sq += (oj / total_w) ** 2
                j += 1
            return 0.5 * (1.0 - sq)  # [0, 1] scale, as brier_sum
    return np.full_like(total_w, np.nan)


def _fold_spread(s: np.ndarray, w: np.ndarray, bs: np.ndarray) -> tuple[np.ndarray, ...]:
    """cv.glmnet standard error of the pooled score and the per-fold scores.

    Folds of zero total weight are removed folds: they enter neither the
    spread nor the count of folds ``F`` (zero weights equal removed rows).
    """
    used = w > 0
    n_used = used.sum(axis=1)
    total_w = w.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        fold_bs = np.where(used, s / np.where(used, w, 1.0), np.nan)
        dev = np.where(used, w * (fold_bs - bs[:, None]) ** 2, 0.0).sum(axis=1)
        var = np.where(n_used > 1, dev / total_w / np.maximum(n_used - 1, 1), np.nan)
    return np.sqrt(var), fold_bs


def _ranks(bs: np.ndarray) -> np.ndarray:
    """1 = smallest pooled Brier score; ties share the lowest rank; nan last."""
    key = np.where(np.isnan(bs), np.inf, bs)
    return (np.searchsorted(np.sort(key), key, side="left") + 1).astype(np.int32)


def pooled_cv_scores(
    cv_results: Mapping[str, Any] | Any, *, prefix: str | None = None
) -> PooledCVResult:
    r"""Pooled cross-validated scores of every candidate of a search.

    Parameters
    ----------
    cv_results : dict or fitted search
        ``search.cv_results_`` (or the dict of
        :func:`~sklearn.model_selection.cross_validate`, which has
        ``test_<key>`` entries instead of ``split<k>_test_<key>``) of a run
        with ``scoring=pooled_scoring(prefix=prefix)``, or the fitted search
        itself.
    prefix : str, default=None
        The prefix given to :func:`pooled_scoring`; None takes the prefix
        of the search's :class:`PooledRefit` when a search is given, else "".

    Returns
    -------
    PooledCVResult
        Arrays of shape (n_candidates,): ``brier_score`` (pooled, [0, 1]
        scale), ``brier_index``,
        ``brier_skill_score`` (against the pooled climatology; nan if the
        class sums are missing or the outcomes are constant), their standard
        errors ``se_brier_score``, ``se_brier_index``,
        ``se_brier_skill_score`` (see Notes), ``mean_fold_brier_index``
        (the usual, biased, mean of per-fold indices),
        ``rank_brier_index`` (1 = best pooled) and ``n_splits``.
        ``result.to_frame()`` gives them as a table.

    Raises
    ------
    ValueError
        If the sums recorded by :func:`pooled_scoring` are missing, or the
        search is not fitted.
    TypeError
        If ``cv_results`` is neither a dict nor a search.

    See Also
    --------
    pooled_scoring, pooled_refit

    Notes
    -----
    With fold sums :math:`S_f` and weights :math:`W_f`, the fold scores are
    :math:`B_f = S_f / W_f` and the pooled score
    :math:`\bar B = \sum_f S_f / \sum_f W_f` is their :math:`W`-weighted mean.
    Its standard error follows glmnet's ``cv.glmnet``:

    .. math::

        \mathrm{se}(\bar B) = \sqrt{\frac{\sum_f W_f (B_f - \bar B)^2}
        {(F - 1) \sum_f W_f}},

    and the delta method gives :math:`\mathrm{se}(\mathrm{BI}) = 50\,
    \mathrm{se}(\bar B) / \sqrt{\bar B}` and
    :math:`\mathrm{se}(\mathrm{BSS}) = \mathrm{se}(\bar B)/\mathrm{BS_{ref}}`.
    Folds of zero total weight are treated as removed (zero weights equal
    removed rows): they count neither in :math:`F` nor in the spread.
    Fold scores are not independent (the training sets overlap), so this is
    the customary heuristic for the one-standard-error rule, not an exact
    standard error.

    References
    ----------
    .. [1] J. Friedman, T. Hastie and R. Tibshirani, "Regularization paths
       for generalized linear models via coordinate descent", Journal of
       Statistical Software 33(1), 2010 (``cv.glmnet``).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_validate
    >>> from skbrier.model_selection import pooled_cv_scores, pooled_scoring
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> cvr = cross_validate(LogisticRegression(), X, y, scoring=pooled_scoring())
    >>> res = pooled_cv_scores(cvr)
    >>> bool(res.mean_fold_brier_index[0] >= res.brier_index[0])
    True
    """
    if prefix is None:
        prefix = getattr(getattr(cv_results, "refit", None), "prefix", "")
        prefix = prefix if isinstance(prefix, str) else ""
    prefix = check_prefix(prefix)
    results = _as_search_results(cv_results, prefix)
    s = _split_matrix(results, prefix + "brier_sum")
    w = _split_matrix(results, prefix + "weight_sum")
    if w.shape != s.shape:
        raise ValueError(
            f"cv_results has {w.shape} weight sums but {s.shape} Brier sums "
            "(candidates, splits); they must come from the same search."
        )
    if np.any(w < 0) or np.any(s < 0):
        raise ValueError("cv_results holds negative Brier or weight sums.")
    total_w = w.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        bs = s.sum(axis=1) / total_w
    se_bs, fold_bs = _fold_spread(s, w, bs)
    ref = _pooled_reference(results, prefix, total_w)
    ref = np.where(ref > 0, ref, np.nan)
    bi = np.array([brier_index_from_score(b) for b in bs])
    with np.errstate(invalid="ignore", divide="ignore"):
        fold_bi = np.array([[brier_index_from_score(b) for b in row] for row in fold_bs])
        se_bi = 50.0 * se_bs / np.sqrt(bs)  # delta method: d BI / d BS
    bss = np.array([skill_score(b, r) for b, r in zip(bs, ref)])
    return PooledCVResult(
        brier_score=bs,
        brier_index=bi,
        brier_skill_score=bss,
        se_brier_score=se_bs,
        se_brier_index=se_bi,
        se_brier_skill_score=se_bs / ref,
        mean_fold_brier_index=_mean_over_folds(fold_bi, w > 0),
        rank_brier_index=_ranks(bs),
        n_splits=np.full(bs.shape[0], s.shape[1], dtype=np.int64),
        params=_candidate_params(results, bs.shape[0]),
    )


def _candidate_params(results: Mapping[str, Any], n: int) -> list[dict[str, Any]] | None:
    """``cv_results_["params"]`` as a list of dicts, if it fits the candidates."""
    params = results.get("params")
    if isinstance(params, (list, tuple)) and len(params) == n:
        if all(isinstance(p, Mapping) for p in params):
            return [dict(p) for p in params]
    return None


def _mean_over_folds(a: np.ndarray, used: np.ndarray) -> np.ndarray:
    """Row means over the folds of positive weight (a failed fold's nan stays)."""
    n = used.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        total = np.where(used, a, 0.0).sum(axis=1)
        return np.where(n > 0, total / np.maximum(n, 1), np.nan)
