"""Cross-validated Brier scores of one model from pooled out-of-fold predictions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import sklearn
from numpy.typing import ArrayLike
from sklearn.base import is_classifier
from sklearn.model_selection import cross_validate
from sklearn.utils.parallel import Parallel, delayed

from .._validation import Forecast, check_forecast, check_sample_weight, encode_labels
from ..metrics._brier_math import (
    brier_index_from_score,
    climatology_brier,
    forecast_brier,
    multiclass_brier,
    unit_scale_brier,
)
from ..metrics.decomposition import corp_decomposition, murphy_decomposition
from ..stats.inference import brier_inference

__all__ = ["CrossValBrierResult", "cross_val_brier"]

_CI_METRICS = ("brier_score", "brier_index", "brier_skill_score")


def _no_score(estimator: Any, X: Any, y: Any) -> float:
    """Scorer that does nothing: the folds are scored from the pooled predictions."""
    return 0.0


def _take_rows(X: Any, rows: np.ndarray) -> Any:
    """Rows ``rows`` of a numpy array, pandas/polars frame, sparse matrix or list."""
    if hasattr(X, "iloc"):  # pandas
        return X.iloc[rows]
    if hasattr(X, "tocsr") and not hasattr(X, "__getitem__"):  # COO sparse
        X = X.tocsr()
    if hasattr(X, "shape") and hasattr(X, "__getitem__"):  # numpy, sparse, polars
        return X[rows]
    return [X[i] for i in rows]  # lists of samples (e.g. text)


def _predict_fold(estimator: Any, X: Any, test: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """``predict_proba`` on one test fold, columns aligned to all ``classes``.

    A class absent from the training fold gets probability 0, as in
    :func:`sklearn.model_selection.cross_val_predict`.
    """
    proba = np.asarray(estimator.predict_proba(_take_rows(X, test)), dtype=np.float64)
    est_classes = np.asarray(estimator.classes_)
    k = classes.shape[0]
    if proba.ndim == 1:
        proba = proba[:, None]
    if est_classes.shape[0] == k and np.array_equal(est_classes, classes):
        return proba
    warnings.warn(
        f"Number of classes in training fold ({est_classes.shape[0]}) does not match "
        f"total number of classes ({k}). Results may not be appropriate for your use "
        "case. The missing classes get probability 0.",
        RuntimeWarning,
        stacklevel=2,
    )
    full = np.zeros((proba.shape[0], k), dtype=np.float64)
    full[:, np.searchsorted(classes, est_classes)] = proba
    return full


def _pooled_inputs(y_true, codes, proba, classes, pos_label):
    """Binary: 0/1 outcomes and the 1-D positive probability; else labels and 2-D."""
    if classes.shape[0] == 2:
        j = int(np.flatnonzero(classes == pos_label)[0])
        return (codes == j).astype(np.float64), proba[:, j], {}
    return y_true, proba, {"labels": classes}


def _optional(name: str, func, *args, strict: bool = False, **kwargs):
    """Run an extra (decomposition, inference) of the pooled predictions.

    A ValueError from degenerate data (perfect forecasts, one class) gives None
    and a warning instead of failing the whole cross-validation; with
    ``strict=True`` (options given by the user) it is raised.
    """
    try:
        return func(*args, **kwargs)
    except ValueError as exc:
        if strict:
            raise
        warnings.warn(
            f"cross_val_brier: {name} not computed for the pooled predictions: {exc}",
            UserWarning,
            stacklevel=3,
        )
        return None


def _decompositions(y, p, extra, w) -> dict[str, Any]:
    """Murphy (10 uniform bins) and CORP decompositions of the pooled forecasts."""
    return {
        "murphy": _optional(
            "murphy_decomposition", murphy_decomposition, y, p, sample_weight=w, **extra
        ),
        "corp": _optional(
            "corp_decomposition", corp_decomposition, y, p, sample_weight=w, **extra
        ),
    }


class CrossValBrierResult:
    """Result of :func:`cross_val_brier`: pooled and per-fold Brier scores.

    Built by :func:`cross_val_brier`, not by users.

    Parameters
    ----------
    **fields : dict
        The attributes below.

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
    inference : BrierInferenceResult or None
        :func:`skbrier.stats.brier_inference` of the pooled predictions with
        ``cov_type``; None (with a warning) when it is undefined, e.g. for
        perfect forecasts.

    See Also
    --------
    cross_val_brier

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier.model_selection import cross_val_brier
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> res = cross_val_brier(LogisticRegression(), X, y, cv=4)
    >>> res.fold_brier_index.shape
    (4,)
    >>> bool(res.mean_fold_brier_index >= res.brier_index)
    True
    >>> lo, hi = res.confidence_interval("brier_index")
    >>> bool(lo < res.brier_index < hi)
    True
    >>> res.to_dict()["n_splits"]
    4
    >>> print(res.summary().splitlines()[0])
    Cross-validated Brier scores (4 folds, 200 samples, 2 classes)
    """

    def __init__(self, **fields: Any) -> None:
        for key, value in fields.items():
            setattr(self, key, value)

    @property
    def n_splits(self) -> int:
        """Number of folds."""
        return len(self.test_indices)

    @property
    def mean_fold_brier_index(self) -> float:
        """Mean of the per-fold Brier Indices (biased upward; for comparison only)."""
        return float(np.mean(self.fold_brier_index))

    @property
    def positive_proba(self) -> np.ndarray:
        """Out-of-fold probability of ``pos_label`` (binary problems only)."""
        if self.pos_label is None:
            raise AttributeError("positive_proba exists only for binary problems.")
        j = int(np.flatnonzero(self.classes == self.pos_label)[0])
        return self.y_proba[:, j]

    def confidence_interval(
        self, metric: str = "brier_index", confidence_level: float = 0.95
    ) -> Any:
        """Confidence interval of a pooled score.

        Computed by :func:`skbrier.stats.brier_inference` on the pooled
        out-of-fold forecasts with the ``cov_type`` given to
        :func:`cross_val_brier`.  It treats the out-of-fold predictions as
        fixed forecasts and ignores the variability of refitting the model on
        other training sets, so it describes the forecasts at hand rather
        than the modelling procedure (Bates, Hastie and Tibshirani, 2024).

        Parameters
        ----------
        metric : {"brier_index", "brier_score", "brier_skill_score"}
            The score.
        confidence_level : float, default=0.95
            The confidence level.

        Returns
        -------
        ConfidenceInterval
            Named tuple ``(low, high)`` of
            :func:`skbrier.stats.brier_inference`.

        Raises
        ------
        ValueError
            For an unknown ``metric``, or when no interval could be computed
            (for example perfect forecasts: no variance to estimate).

        References
        ----------
        .. [1] S. Bates, T. Hastie and R. Tibshirani, "Cross-validation: what
           does it estimate and how well does it do it?", Journal of the
           American Statistical Association 119(546), 2024.
        """
        if metric not in _CI_METRICS:
            raise ValueError(f"metric must be one of {_CI_METRICS}, got {metric!r}.")
        if self.inference is None:
            raise ValueError(
                "No confidence interval: skbrier.stats.brier_inference was not "
                "available or undefined for these forecasts (see the warning raised "
                "by cross_val_brier)."
            )
        return self.inference.confidence_interval(metric, confidence_level)

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

    def _intervals(self) -> dict[str, list[float]] | None:
        if self.inference is None:
            return None
        out = {}
        for m in _CI_METRICS:
            try:
                out[m] = [float(v) for v in self.confidence_interval(m)]
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
        lines = [
            (
                f"Cross-validated Brier scores ({self.n_splits} folds, "
                f"{self.y_true.shape[0]} samples, {self.classes.shape[0]} classes)"
            ),
            f"{'':>8} {'weight':>10} {'Brier':>9} {'Index':>8} {'BSS':>8}",
        ]
        for f in range(self.n_splits):
            lines.append(
                f"{'fold ' + str(f):>8} {self.fold_weight[f]:>10.6g} "
                f"{self.fold_brier_score[f]:>9.5f} {self.fold_brier_index[f]:>8.3f} "
                f"{self.fold_brier_skill_score[f]:>8.4f}"
            )
        lines.append(
            f"{'pooled':>8} {float(np.sum(self.fold_weight)):>10.6g} "
            f"{self.brier_score:>9.5f} {self.brier_index:>8.3f} "
            f"{self.brier_skill_score:>8.4f}"
        )
        lines.append(
            f"mean of fold Brier Indices: {self.mean_fold_brier_index:.3f} "
            "(biased upward; report the pooled index)"
        )
        if self.inference is not None:
            parts = []
            for m, label, fmt in (
                ("brier_score", "Brier", ".5f"),
                ("brier_index", "Index", ".3f"),
                ("brier_skill_score", "BSS", ".4f"),
            ):
                try:
                    lo, hi = self.confidence_interval(m)
                except ValueError:
                    continue
                parts.append(f"{label} [{lo:{fmt}}, {hi:{fmt}}]")
            lines.append(f"95% intervals ({self.cov_type}): " + ", ".join(parts))
        if self.decomposition is not None:
            for name, dec in self.decomposition.items():
                if dec is None:
                    continue
                comps = ", ".join(f"{k} {v:.5f}" for k, v in dec.components.items())
                lines.append(f"{name}: {comps}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"CrossValBrierResult(brier_score={self.brier_score:.6g}, "
            f"brier_index={self.brier_index:.6g}, "
            f"brier_skill_score={self.brier_skill_score:.6g}, n_splits={self.n_splits})"
        )


def _fold_scores(fc: Forecast, test: np.ndarray) -> tuple[float, float, float, float]:
    w = None if fc.sample_weight is None else fc.sample_weight[test]
    sub = Forecast(fc.y[test], fc.proba[test], w, fc.classes, False)
    weight = float(test.shape[0] if w is None else w.sum())
    if weight <= 0.0:
        return weight, np.nan, np.nan, np.nan
    bs = forecast_brier(sub)
    bi = brier_index_from_score(unit_scale_brier(sub))
    ref = climatology_brier(sub)
    bss = 1.0 - multiclass_brier(sub.y, sub.proba, w) / ref if ref > 0 else np.nan
    return weight, bs, bi, bss


def cross_val_brier(
    estimator: Any,
    X: ArrayLike,
    y: ArrayLike,
    *,
    cv: Any = 5,
    groups: ArrayLike | None = None,
    n_jobs: int | None = None,
    sample_weight: ArrayLike | None = None,
    params: dict[str, Any] | None = None,
    pos_label: Any = None,
    return_estimators: bool = False,
    cov_type: str = "iid",
    inference_kwds: dict[str, Any] | None = None,
    decompose: bool = True,
    verbose: int = 0,
    pre_dispatch: int | str = "2*n_jobs",
) -> CrossValBrierResult:
    r"""Cross-validated Brier score, Brier Index and skill score of a classifier.

    Fits one clone of ``estimator`` per fold (through
    :func:`sklearn.model_selection.cross_validate`), predicts the test fold
    with ``predict_proba`` and scores all out-of-fold predictions *pooled*,
    as well as fold by fold.  The out-of-fold probabilities are exactly those
    of ``cross_val_predict(estimator, X, y, cv=cv, method="predict_proba")``.

    Parameters
    ----------
    estimator : classifier
        A scikit-learn classifier with ``predict_proba`` (a pipeline is fine).
    X : array-like of shape (n_samples, n_features)
        The features.
    y : array-like of shape (n_samples,)
        The labels (numbers, booleans or strings).
    cv : int, cross-validation generator or iterable, default=5
        As in scikit-learn (an int means stratified K-fold for classifiers).
        Each sample must be in at most one test fold.  Usually the test folds
        partition the data; splitters that leave samples untested
        (``TimeSeriesSplit``) are scored on the tested samples
        (``oof_indices``).
    groups : array-like of shape (n_samples,), default=None
        Group labels for group-aware splitters (``GroupKFold``, ...).  With
        metadata routing enabled they are routed to the splitter for you.
    n_jobs : int, default=None
        Number of folds fitted in parallel through joblib (which also honours
        ``joblib.parallel_config(backend="dask")`` for a dask cluster).
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the *evaluation* (every score).  To fit with weights as
        well, pass ``params={"sample_weight": w}`` (and, with metadata routing
        enabled, ``estimator.set_fit_request(sample_weight=True)``).
    params : dict, default=None
        Metadata for the estimator's ``fit`` (and the splitter), as in
        :func:`~sklearn.model_selection.cross_validate`.
    pos_label : int, float, bool or str, default=None
        The positive class of a binary problem (default: the larger label).
        Binary scores do not depend on it; ``positive_proba``, the
        decomposition and the intervals are stated for it.
    return_estimators : bool, default=False
        Keep the fitted estimator of each fold.
    cov_type : {"iid", "hac", "bootstrap"}, default="iid"
        Covariance estimator of the intervals (see
        :func:`skbrier.stats.brier_inference`); "hac" when the sample order
        is time order (with a time-series splitter that partitions the data).
    inference_kwds : dict, default=None
        Further options of :func:`skbrier.stats.brier_inference`
        (``hac_kwds``, ``n_resamples``, ``random_state``, ...).
    decompose : bool, default=True
        Compute the Murphy (10 uniform bins) and CORP decompositions of the
        pooled predictions (:mod:`skbrier.metrics.decomposition`).
    verbose : int, default=0
        Verbosity of the fits.
    pre_dispatch : int or str, default="2*n_jobs"
        As in :func:`~sklearn.model_selection.cross_validate`.

    Returns
    -------
    CrossValBrierResult
        Pooled and per-fold scores, the out-of-fold probabilities, the fold
        indices, optionally the fitted estimators, decompositions and
        intervals.

    Raises
    ------
    TypeError
        If ``estimator`` is not a classifier with ``predict_proba``.
    ValueError
        For labels with fewer than two classes, invalid ``sample_weight``,
        an unknown ``pos_label``, a sample in several test folds, or
        invalid probabilities returned by the estimator.

    See Also
    --------
    sklearn.model_selection.cross_val_predict : The out-of-fold predictions.
    pooled_scoring : Pooled scores inside ``GridSearchCV``.

    Notes
    -----
    With test folds :math:`f` of weights :math:`W_f` and sums of squared
    errors :math:`S_f`, the pooled Brier score is
    :math:`\mathrm{BS} = \sum_f S_f / \sum_f W_f` and the pooled Brier Index
    :math:`100 (1 - \sqrt{\mathrm{BS}_{[0,1]}})`.  The mean of the fold
    indices, ``mean_fold_brier_index``, is larger (Jensen's inequality:
    :math:`\sqrt{\cdot}` is concave) and is reported only for comparison.
    Intervals treat the pooled out-of-fold predictions as fixed forecasts.

    References
    ----------
    .. [1] S. Kučinskas, H. Bastani and M. Reynolds, "Making forecasting
       scores easier to interpret: introducing the Brier Index",
       ForecastBench, 2025.
    .. [2] G. Forman and M. Scholz, "Apples-to-apples in cross-validation
       studies: pitfalls in classifier performance measurement", ACM SIGKDD
       Explorations 12(1), 2010 (pooling versus averaging over folds).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier.model_selection import cross_val_brier
    >>> X, y = make_classification(n_samples=300, random_state=0)
    >>> res = cross_val_brier(LogisticRegression(), X, y, cv=5)
    >>> res.y_proba.shape
    (300, 2)
    >>> print(f"{res.brier_index:.1f}")
    77.3
    """
    if not is_classifier(estimator) or not hasattr(estimator, "predict_proba"):
        raise TypeError(
            "estimator must be a classifier with predict_proba; got "
            f"{type(estimator).__name__}."
        )
    try:
        codes, classes = encode_labels(y)
    except (TypeError, ValueError) as exc:
        raise type(exc)(str(exc).replace("y_true", "y")) from None
    n = codes.shape[0]
    if classes.shape[0] < 2:
        raise ValueError(
            f"y must contain at least two classes, got {classes.tolist()}."
        )
    w = check_sample_weight(sample_weight, n)
    if cov_type not in ("iid", "hac", "bootstrap"):
        raise ValueError(
            f"cov_type must be 'iid', 'hac' or 'bootstrap', got {cov_type!r}."
        )
    if inference_kwds is None:
        inference_kwds = {}
    elif not isinstance(inference_kwds, dict):
        raise TypeError(
            f"inference_kwds must be a dict, got {type(inference_kwds).__name__}."
        )
    if not isinstance(decompose, (bool, np.bool_)):
        raise TypeError(f"decompose must be True or False, got {decompose!r}.")
    if classes.shape[0] == 2:
        if pos_label is None:
            pos_label = classes[1]
        elif pos_label not in classes.tolist():
            raise ValueError(
                f"pos_label={pos_label!r} is not one of the labels {classes.tolist()}."
            )
    elif pos_label is not None:
        raise ValueError(
            f"pos_label is only meaningful for binary problems; y has "
            f"{classes.shape[0]} classes."
        )
    if params is not None and not isinstance(params, dict):
        raise TypeError(f"params must be a dict, got {type(params).__name__}.")
    params = dict(params or {})
    if groups is not None and sklearn.get_config().get("enable_metadata_routing", False):
        if "groups" in params:
            raise ValueError("groups given twice: as groups= and in params.")
        params["groups"] = groups
        groups = None

    cvr = cross_validate(
        estimator,
        X,
        y,
        groups=groups,
        scoring=_no_score,
        cv=cv,
        n_jobs=n_jobs,
        verbose=verbose,
        params=params,
        pre_dispatch=pre_dispatch,
        return_estimator=True,
        return_indices=True,
        error_score="raise",
    )
    tests = [np.asarray(t) for t in cvr["indices"]["test"]]
    trains = [np.asarray(t) for t in cvr["indices"]["train"]]
    all_test = np.concatenate(tests)
    covered = np.unique(all_test)
    if covered.shape[0] != all_test.shape[0]:
        raise ValueError(
            "cv must put every sample in at most one test fold (KFold, GroupKFold, "
            "TimeSeriesSplit, ...); with repeated or overlapping test folds "
            "(ShuffleSplit, RepeatedKFold) the pooled out-of-fold predictions are "
            "undefined. Use pooled_scoring with cross_validate for those."
        )
    m = covered.shape[0]
    # row of each original sample in the pooled arrays (identity for a partition)
    position = np.full(n, -1, dtype=np.intp)
    position[covered] = np.arange(m)
    estimators = cvr["estimator"]
    parts = Parallel(n_jobs=n_jobs, pre_dispatch=pre_dispatch)(
        delayed(_predict_fold)(est, X, test, classes) for est, test in zip(estimators, tests)
    )
    proba = np.empty((m, classes.shape[0]), dtype=np.float64)
    for test, part in zip(tests, parts):
        proba[position[test]] = part

    codes = codes[covered]
    w = None if w is None else w[covered]
    fc = check_forecast(
        codes,
        proba,
        sample_weight=w,
        labels=np.arange(classes.shape[0]),
        proba_name="predict_proba output",
    )
    bs = forecast_brier(fc)
    bi = brier_index_from_score(unit_scale_brier(fc))
    ref = climatology_brier(fc)
    bss = 1.0 - multiclass_brier(fc.y, fc.proba, w) / ref if ref > 0 else np.nan
    folds = np.array([_fold_scores(fc, position[t]) for t in tests], dtype=np.float64)

    y_orig = np.asarray(classes[codes])
    y_in, p_in, extra = _pooled_inputs(y_orig, codes, proba, classes, pos_label)
    decomposition = _decompositions(y_in, p_in, extra, w) if decompose else None
    inference = _optional(
        "brier_inference",
        brier_inference,
        y_in,
        p_in,
        strict=bool(inference_kwds),
        sample_weight=w,
        cov_type=cov_type,
        **extra,
        **inference_kwds,
    )

    return CrossValBrierResult(
        y_proba=proba,
        y_true=y_orig,
        oof_indices=covered,
        classes=classes,
        pos_label=pos_label if classes.shape[0] == 2 else None,
        sample_weight=w,
        brier_score=float(bs),
        brier_index=float(bi),
        brier_skill_score=float(bss),
        fold_weight=folds[:, 0],
        fold_brier_score=folds[:, 1],
        fold_brier_index=folds[:, 2],
        fold_brier_skill_score=folds[:, 3],
        train_indices=trains,
        test_indices=tests,
        estimators=list(estimators) if return_estimators else None,
        fit_time=np.asarray(cvr["fit_time"]),
        cov_type=cov_type,
        decomposition=decomposition,
        inference=inference,
    )
