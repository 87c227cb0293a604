"""The result of :func:`~skbrier.model_selection.cross_val_brier`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .._core.optional import import_optional
from .._core.results import ConfidenceInterval, _IntervalResult
from .._response import positive_column

__all__ = ["CrossValBrierResult"]

_CI_METRICS = ("brier_score", "brier_index", "brier_skill_score")


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class CrossValBrierResult(_IntervalResult):
    """Result of :func:`cross_val_brier`: pooled and per-fold Brier scores.

    Built by :func:`cross_val_brier`, not by users.
    ``confidence_interval(metric=...)`` is the interval of a pooled score,
    ``"brier_index"`` (the default), ``"brier_score"`` or
    ``"brier_skill_score"``, computed by :func:`skbrier.stats.brier_inference`
    on the pooled out-of-fold forecasts with the ``cov_type`` given to
    :func:`cross_val_brier` (``method``: ``"wald"``, or for
    ``cov_type="bootstrap"`` ``"percentile"``, ``"basic"`` or ``"bca"``, as
    :class:`~skbrier.stats.BrierInferenceResult`).  It treats the
    out-of-fold predictions as fixed forecasts and ignores the variability
    of refitting the model on other training sets, so it describes the
    forecasts at hand rather than the modelling procedure [1]_; it raises a
    ValueError when no interval could be computed (for example perfect
    forecasts: no variance to estimate).

    Attributes
    ----------
    y_proba : ndarray of shape (n_oof, n_classes)
        The out-of-fold probabilities, one column per sorted class.  When the
        test folds partition the data (``n_oof = n_samples``) they are
        exactly what :func:`sklearn.model_selection.cross_val_predict` with
        ``method="predict_proba"`` returns.
    y_true : ndarray of shape (n_oof,)
        The labels of the same rows.
    oof_indices : ndarray of shape (n_oof,)
        Rows of ``X`` in ``y_proba`` (sorted): all rows for a partition, the
        tested rows for splitters such as ``TimeSeriesSplit`` whose first
        block is never tested.
    classes : ndarray of shape (n_classes,)
        Sorted class labels (the columns of ``y_proba``).
    pos_label : object or None
        Positive class of a binary problem (None for multiclass).
    sample_weight : ndarray of shape (n_oof,) or None
        Evaluation weights of the same rows.
    brier_score, brier_index, brier_skill_score : float
        Scores of all out-of-fold predictions pooled.  The Brier score
        follows scikit-learn's scale (binary [0, 1], multiclass [0, 2]); the
        skill score is against the climatology of all outcomes (equal to
        ``sklearn.metrics.d2_brier_score`` of the pooled predictions).
    fold_brier_score, fold_brier_index, fold_brier_skill_score : ndarray
        The same scores per test fold (skill against the fold's climatology;
        nan when a fold holds a single class).
    fold_weight : ndarray
        Total weight (number of samples without weights) of each test fold.
    train_indices, test_indices : list of ndarray
        Indices of each fold.
    estimators : list of estimators or None
        Fitted estimator of each fold when ``return_estimators=True``.
    fit_time : ndarray
        Fit time of each fold in seconds.
    decomposition : dict or None
        ``{"murphy": ..., "corp": ...}``: the results of
        :func:`skbrier.metrics.decomposition.murphy_decomposition` (10
        uniform bins) and :func:`~skbrier.metrics.decomposition.corp_decomposition`
        of the pooled predictions (binary: of ``pos_label``; multiclass: one
        versus rest); an entry is None (with a warning) when undefined for
        the data.  None with ``decompose=False``.
    cov_type : str
        The ``cov_type`` of the intervals.
    inference : BrierInferenceResult or None
        :func:`skbrier.stats.brier_inference` of the pooled predictions with
        ``cov_type``; None (with a warning) when it is undefined, e.g. for
        perfect forecasts.
    n_splits : int
        Number of folds.
    mean_fold_brier_index : float
        Mean of the per-fold Brier Indices over the folds of positive weight
        (biased upward; for comparison only).

    See Also
    --------
    cross_val_brier

    References
    ----------
    .. [1] S. Bates, T. Hastie and R. Tibshirani, "Cross-validation: what
       does it estimate and how well does it do it?", Journal of the
       American Statistical Association 119(546), 2024.

    Examples
    --------
    Four folds, their scores and the pooled one:

    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier.model_selection import cross_val_brier
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> res = cross_val_brier(LogisticRegression(), X, y, cv=4)
    >>> res.fold_brier_index.shape
    (4,)
    >>> bool(res.mean_fold_brier_index >= res.brier_index)
    True
    >>> lo, hi = res.confidence_interval(0.95, metric="brier_index")
    >>> bool(lo < res.brier_index < hi)
    True
    >>> res.to_dict()["n_splits"]
    4
    >>> print(res.summary().splitlines()[0])
    Cross-validated Brier scores (4 folds, 200 samples, 2 classes)
    """

    y_proba: np.ndarray
    y_true: np.ndarray
    oof_indices: np.ndarray
    classes: np.ndarray
    pos_label: Any
    sample_weight: np.ndarray | None
    brier_score: float
    brier_index: float
    brier_skill_score: float
    fold_weight: np.ndarray
    fold_brier_score: np.ndarray
    fold_brier_index: np.ndarray
    fold_brier_skill_score: np.ndarray
    train_indices: list
    test_indices: list
    estimators: list | None
    fit_time: np.ndarray
    cov_type: str
    decomposition: dict | None
    inference: Any

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "brier_score",
        "brier_index",
        "brier_skill_score",
        "n_splits",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = _CI_METRICS
    _interval_methods: ClassVar[tuple[str, ...]] = ("wald", "percentile", "basic", "bca")

    @property
    def n_splits(self) -> int:
        """Number of folds."""
        return len(self.test_indices)

    @property
    def mean_fold_brier_index(self) -> float:
        """Mean of the per-fold Brier Indices (biased upward; for comparison only).

        Folds whose weights are all zero are removed folds and do not count.
        """
        used = np.asarray(self.fold_weight) > 0
        return float(np.mean(self.fold_brier_index[used])) if used.any() else float("nan")

    @property
    def positive_proba(self) -> np.ndarray:
        """Out-of-fold probability of ``pos_label`` (binary problems only)."""
        if self.pos_label is None:
            raise AttributeError("positive_proba exists only for binary problems.")
        col, _ = positive_column(self.classes, self.pos_label)
        return self.y_proba[:, col]

    def _default_metric(self) -> str:
        return "brier_index"

    def _valid_methods(self, metric: str) -> Sequence[str]:
        if self.inference is None:
            return self._interval_methods
        return self.inference._valid_methods(metric)

    def _default_method(self, metric: str) -> str:
        if self.inference is None:
            return "wald"
        return self.inference._default_method(metric)

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        if self.inference is None:
            raise ValueError(
                "No confidence interval: skbrier.stats.brier_inference was not "
                "available or undefined for these forecasts (see the warning raised "
                "by cross_val_brier)."
            )
        ci = self.inference.confidence_interval(level, metric=metric, method=method)
        return ConfidenceInterval(float(ci[0]), float(ci[1]))

    def to_dict(self) -> dict[str, Any]:
        """Scores as plain Python types (JSON-serialisable).

        Returns
        -------
        dict
            Pooled and per-fold scores, fold sizes and the number of splits.
        """
        return {
            "n_samples": int(self.y_true.shape[0]),
            "n_splits": self.n_splits,
            "classes": self.classes.tolist(),
            "brier_score": self.brier_score,
            "brier_index": self.brier_index,
            "brier_skill_score": self.brier_skill_score,
            "mean_fold_brier_index": self.mean_fold_brier_index,
            "fold_brier_score": self.fold_brier_score.tolist(),
            "fold_brier_index": self.fold_brier_index.tolist(),
            "fold_brier_skill_score": self.fold_brier_skill_score.tolist(),
            "fold_weight": self.fold_weight.tolist(),
            "cov_type": self.cov_type,
            "confidence_intervals_95": self._intervals(),
            "decomposition": None
            if self.decomposition is None
            else {
                k: (None if d is None else {c: float(v) for c, v in d.components.items()})
                for k, d in self.decomposition.items()
            },
        }

    def to_frame(self) -> Any:
        """One row per fold and a last ``pooled`` row (needs pandas).

        Returns
        -------
        pandas.DataFrame
            Weight, Brier score, Brier Index and skill score.
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        folds = pd.DataFrame(
            {
                "weight": self.fold_weight,
                "brier_score": self.fold_brier_score,
                "brier_index": self.fold_brier_index,
                "brier_skill_score": self.fold_brier_skill_score,
            },
            index=[f"fold {f}" for f in range(self.n_splits)],
        )
        folds.loc["pooled"] = [
            float(np.sum(self.fold_weight)),
            self.brier_score,
            self.brier_index,
            self.brier_skill_score,
        ]
        return folds

    def _intervals(self) -> dict[str, list[float] | None] | None:
        if self.inference is None:
            return None
        out: dict[str, list[float] | None] = {}
        for m in _CI_METRICS:
            try:
                out[m] = [float(v) for v in self.confidence_interval(metric=m)]
            except ValueError:
                out[m] = None
        return out

    def summary(self) -> str:
        """A short text table of the pooled and per-fold scores.

        Returns
        -------
        str
            The table.
        """
        return _summary_text(self)


def _summary_text(res: CrossValBrierResult) -> str:
    lines = [
        (
            f"Cross-validated Brier scores ({res.n_splits} folds, "
            f"{res.y_true.shape[0]} samples, {res.classes.shape[0]} classes)"
        ),
        f"{'':>8} {'weight':>10} {'Brier':>9} {'Index':>8} {'BSS':>8}",
    ]
    for f in range(res.n_splits):
        lines.append(
            f"{'fold ' + str(f):>8} {res.fold_weight[f]:>10.6g} "
            f"{res.fold_brier_score[f]:>9.5f} {res.fold_brier_index[f]:>8.3f} "
            f"{res.fold_brier_skill_score[f]:>8.4f}"
        )
    lines.append(
        f"{'pooled':>8} {float(np.sum(res.fold_weight)):>10.6g} "
        f"{res.brier_score:>9.5f} {res.brier_index:>8.3f} "
        f"{res.brier_skill_score:>8.4f}"
    )
    lines.append(
        f"mean of fold Brier Indices: {res.mean_fold_brier_index:.3f} "
        "(biased upward; report the pooled index)"
    )
    lines += _interval_lines(res) + _decomposition_lines(res)
    return "\n".join(lines)


def _interval_lines(res: CrossValBrierResult) -> list[str]:
    if res.inference is None:
        return []
    parts = []
    for m, label, fmt in (
        ("brier_score", "Brier", ".5f"),
        ("brier_index", "Index", ".3f"),
        ("brier_skill_score", "BSS", ".4f"),
    ):
        try:
            lo, hi = res.confidence_interval(metric=m)
        except ValueError:
            continue
        parts.append(f"{label} [{lo:{fmt}}, {hi:{fmt}}]")
    return [f"95% intervals ({res.cov_type}): " + ", ".join(parts)]


def _decomposition_lines(res: CrossValBrierResult) -> list[str]:
    if res.decomposition is None:
        return []
    lines = []
    for name, dec in res.decomposition.items():
        if dec is None:
            continue
        comps = ", ".join(f"{k} {v:.5f}" for k, v in dec.components.items())
        lines.append(f"{name}: {comps}")
    return lines
