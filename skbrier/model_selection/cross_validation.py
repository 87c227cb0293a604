"""Cross-validated Brier scores of one model from pooled out-of-fold predictions."""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
import sklearn
from numpy.typing import ArrayLike
from sklearn.base import is_classifier
from sklearn.model_selection import cross_validate
from sklearn.utils.parallel import Parallel, delayed

from .._core.arrays import validated
from .._core.diagnose import one_warning_per_call
from .._core.dispatch import HOST, Refused, backends
from .._core.kernels.brier import (
    brier_index_from_score,
    climatology_brier,
    forecast_brier,
    multiclass_brier,
    skill_score,
    unit_scale_brier,
)
from .._core.params import check_bool, check_int, check_n_jobs, check_option
from .._core.validation import Forecast, check_forecast, check_sample_weight, encode_labels
from .._response import (
    align_columns,
    check_pos_label,
    positive_column,
    response_from_estimator,
)
from ..metrics.decomposition import corp_decomposition, murphy_decomposition
from ..stats.inference import brier_inference
from ._cv_result import CrossValBrierResult

__all__ = ["CrossValBrierResult", "cross_val_brier"]

_COV_TYPES = ("iid", "hac", "bootstrap")
#: the options of brier_inference that inference_kwds may set (the others
#: are given by cross_val_brier itself)
_INFERENCE_OPTIONS = tuple(
    name
    for name in inspect.signature(brier_inference).parameters
    if name not in ("y_true", "y_proba", "sample_weight", "labels", "pos_label", "cov_type")
)


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


def _predict_fold(
    estimator: Any, X: Any, test: np.ndarray, classes: np.ndarray
) -> np.ndarray:
    """``predict_proba`` on one test fold, columns aligned to all ``classes``.

    A class absent from the training fold gets probability 0, as in
    :func:`sklearn.model_selection.cross_val_predict`.
    """
    proba, est_classes, _ = response_from_estimator(estimator, _take_rows(X, test))
    return align_columns(np.asarray(proba, dtype=np.float64), est_classes, classes)


def _pooled_inputs(y_true, codes, proba, classes, pos_label):
    """Binary: 0/1 outcomes and the 1-D positive probability; else labels and 2-D."""
    if classes.shape[0] == 2:
        j, _ = positive_column(classes, pos_label)
        return (codes == j).astype(np.float64), np.ascontiguousarray(proba[:, j]), {}
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


def _scores(fc: Forecast) -> tuple[float, float, float]:
    """Brier score (sklearn's scale), Brier Index and skill score of a forecast."""
    bs = forecast_brier(fc)
    bi = brier_index_from_score(unit_scale_brier(fc))
    bss = skill_score(
        multiclass_brier(fc.y, fc.proba, fc.sample_weight), climatology_brier(fc)
    )
    return bs, bi, bss


def _fold_scores(fc: Forecast, test: np.ndarray) -> tuple[float, float, float, float]:
    w = None if fc.sample_weight is None else fc.sample_weight[test]
    weight = float(test.shape[0] if w is None else w.sum())
    if weight <= 0.0:
        return weight, np.nan, np.nan, np.nan  # a removed fold
    return (weight, *_scores(Forecast(fc.y[test], fc.proba[test], w, fc.classes, False)))


def _check_options(
    *,
    estimator,
    n_jobs,
    cov_type,
    inference_kwds,
    decompose,
    return_estimators,
    verbose,
    params,
) -> dict[str, Any]:
    """Every option of :func:`cross_val_brier`, checked before any fit."""
    if not is_classifier(estimator) or not hasattr(estimator, "predict_proba"):
        raise TypeError(
            "estimator must be a classifier with predict_proba; got "
            f"{type(estimator).__name__}."
        )
    if inference_kwds is not None and not isinstance(inference_kwds, dict):
        raise TypeError(
            f"inference_kwds must be a dict, got {type(inference_kwds).__name__}."
        )
    unknown = sorted(set(inference_kwds or {}) - set(_INFERENCE_OPTIONS), key=str)
    if unknown:
        raise TypeError(
            f"inference_kwds got unexpected keys {unknown}; allowed keys are "
            f"{list(_INFERENCE_OPTIONS)} (the data, sample_weight, pos_label and "
            "cov_type are cross_val_brier's own parameters)."
        )
    if params is not None and not isinstance(params, dict):
        raise TypeError(f"params must be a dict, got {type(params).__name__}.")
    return {
        "n_jobs": check_n_jobs(n_jobs),
        "cov_type": check_option(cov_type, "cov_type", _COV_TYPES),
        "inference_kwds": dict(inference_kwds or {}),
        "decompose": check_bool(decompose, "decompose"),
        "return_estimators": check_bool(return_estimators, "return_estimators"),
        "verbose": check_int(verbose, "verbose", minimum=0),
        "params": dict(params or {}),
    }


def _classes_and_pos_label(y: Any, pos_label: Any) -> tuple[np.ndarray, np.ndarray, Any]:
    try:
        codes, classes = encode_labels(y)
    except (TypeError, ValueError) as exc:
        raise type(exc)(str(exc).replace("y_true", "y")) from None
    if classes.shape[0] < 2:
        raise ValueError(f"y must contain at least two classes, got {classes.tolist()}.")
    pos_label = check_pos_label(pos_label)
    if classes.shape[0] == 2:
        _, pos_label = positive_column(classes, pos_label)
    elif pos_label is not None:
        raise ValueError(
            f"pos_label is only meaningful for binary problems; y has "
            f"{classes.shape[0]} classes."
        )
    return codes, classes, pos_label


def _test_positions(tests: list[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Tested rows (sorted) and each row's position among them (-1: untested)."""
    all_test = np.concatenate(tests)
    covered = np.unique(all_test)
    if covered.shape[0] != all_test.shape[0]:
        raise ValueError(
            "cv must put every sample in at most one test fold (KFold, GroupKFold, "
            "TimeSeriesSplit, ...); with repeated or overlapping test folds "
            "(ShuffleSplit, RepeatedKFold) the pooled out-of-fold predictions are "
            "undefined. Use pooled_scoring with cross_validate for those."
        )
    position = np.full(n, -1, dtype=np.intp)
    position[covered] = np.arange(covered.shape[0])
    return covered, position


#: the refusal of Dask input by the model-selection functions
FITS_IN_MEMORY = Refused(
    "the estimator is fitted on folds or bootstrap samples of rows held in memory; "
    "compute the rows (e.g. X.compute()) or use a uniform subsample"
)


@backends(
    arrays=("X", "y", "groups", "sample_weight"),
    namespace_of="X",
    dask=FITS_IN_MEMORY,
    array_api=HOST,
)
@one_warning_per_call
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
        If ``estimator`` is not a classifier with ``predict_proba``, or an
        option has the wrong type (``n_jobs``, ``return_estimators``,
        ``decompose``, ``verbose``, ``params``, ``inference_kwds``).
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
    ``sample_weight`` are frequency weights: a fold whose weights are all
    zero is a removed fold (its scores are nan and it does not enter
    ``mean_fold_brier_index``).

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
    opts = _check_options(
        estimator=estimator,
        n_jobs=n_jobs,
        cov_type=cov_type,
        inference_kwds=inference_kwds,
        decompose=decompose,
        return_estimators=return_estimators,
        verbose=verbose,
        params=params,
    )
    codes, classes, pos_label = _classes_and_pos_label(y, pos_label)
    n = codes.shape[0]
    w = check_sample_weight(sample_weight, n)
    params = opts["params"]
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
        n_jobs=opts["n_jobs"],
        verbose=opts["verbose"],
        params=params,
        pre_dispatch=pre_dispatch,
        return_estimator=True,
        return_indices=True,
        error_score="raise",
    )
    tests = [np.asarray(t) for t in cvr["indices"]["test"]]
    covered, position = _test_positions(tests, n)
    estimators = cvr["estimator"]
    parts = Parallel(n_jobs=opts["n_jobs"], pre_dispatch=pre_dispatch)(
        delayed(_predict_fold)(est, X, test, classes)
        for est, test in zip(estimators, tests)
    )
    proba = np.empty((covered.shape[0], classes.shape[0]), dtype=np.float64)
    for test, part in zip(tests, parts):
        proba[position[test]] = part

    codes = codes[covered]
    w = None if w is None else w[covered]
    y_orig = np.asarray(classes[codes])
    # y and w were checked above, the probabilities are checked here: the
    # scores, decompositions and intervals read them without checking again
    with validated(w, labels=(y_orig, codes, classes)):
        fc = check_forecast(
            y_orig,
            proba,
            sample_weight=w,
            labels=classes,
            proba_name="predict_proba output",
        )
    bs, bi, bss = _scores(fc)
    folds = np.array([_fold_scores(fc, position[t]) for t in tests], dtype=np.float64)

    y_in, p_in, extra = _pooled_inputs(y_orig, fc.y, fc.proba, classes, pos_label)
    with validated(y_in, p_in, w, fc.proba, labels=(y_orig, fc.y, classes)):
        decomposition = _decompositions(y_in, p_in, extra, w) if opts["decompose"] else None
        inference = _optional(
            "brier_inference",
            brier_inference,
            y_in,
            p_in,
            strict=bool(opts["inference_kwds"]),
            sample_weight=w,
            cov_type=opts["cov_type"],
            **extra,
            **opts["inference_kwds"],
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
        train_indices=[np.asarray(t) for t in cvr["indices"]["train"]],
        test_indices=tests,
        estimators=list(estimators) if opts["return_estimators"] else None,
        fit_time=np.asarray(cvr["fit_time"]),
        cov_type=opts["cov_type"],
        decomposition=decomposition,
        inference=inference,
    )
