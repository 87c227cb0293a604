"""From classifiers to forecasts: the one home of the column-picking rules.

Every part of skbrier that turns a fitted classifier (or what a
scikit-learn scorer hands over) into probabilities goes through this module:

* :func:`forecasts_from_estimator`: ``predict_proba`` (or, on request,
  ``decision_function``) of a fitted classifier, reduced to the 1-D
  probability of ``pos_label`` for binary classifiers and kept as the full
  matrix (columns = ``classes_``) for multiclass ones -- the rules of
  scikit-learn's scorers and displays;
* :func:`positive_column`: which column of a two-class (or one-vs-rest)
  matrix holds ``pos_label``;
* :func:`align_columns`: a fold model's ``predict_proba`` widened to every
  class (missing classes get probability 0, as ``cross_val_predict``);
* :func:`scorer_pos_label` and :func:`hard_label_decisions`: which class
  the 1-D array a scorer receives refers to, and whether it holds class
  labels (``TunedThresholdClassifierCV``) instead of probabilities;
* :func:`as_numeric` and :func:`check_pos_label`: object arrays of numbers
  read as numbers, and a ``pos_label`` that is a single label.

Errors are :class:`TypeError` (wrong kind of estimator or option) or
:class:`ValueError` (wrong value), their message starting with the name of
the parameter at fault.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ._core.validation import _numeric_objects

__all__ = [
    "RESPONSE_METHODS",
    "EstimatorForecasts",
    "align_columns",
    "as_numeric",
    "check_labels",
    "check_pos_label",
    "forecasts_from_estimator",
    "hard_label_decisions",
    "positive_column",
    "response_from_estimator",
    "scorer_pos_label",
]

#: Response methods :func:`forecasts_from_estimator` can call ("auto" tries
#: ``predict_proba`` first, then ``decision_function``).
RESPONSE_METHODS = ("predict_proba", "decision_function", "auto")


class EstimatorForecasts(NamedTuple):
    """What :func:`forecasts_from_estimator` returns.

    Attributes
    ----------
    y_proba : ndarray of shape (n_samples,) or (n_samples, n_classes)
        Binary classifier (or a class named by ``pos_label``): the 1-D
        response of ``pos_label``; multiclass: one column per ``classes``.
    classes : ndarray of shape (n_classes,)
        ``estimator.classes_``.
    pos_label : object or None
        The class of a 1-D ``y_proba`` (None for a matrix).
    """

    y_proba: np.ndarray
    classes: np.ndarray
    pos_label: Any


# --------------------------------------------------------------------------- options
def check_pos_label(pos_label: Any, name: str = "pos_label") -> Any:
    """``pos_label`` must be None or one label (a number, a bool or a string).

    Returns it as a plain Python value (numpy scalars unwrapped).
    """
    if pos_label is None:
        return None
    if isinstance(pos_label, np.generic):
        pos_label = pos_label.item()
    if isinstance(pos_label, (str, numbers.Number)) and not isinstance(pos_label, complex):
        if isinstance(pos_label, float) and np.isnan(pos_label):
            raise ValueError(f"{name} must not be NaN.")
        return pos_label
    raise TypeError(
        f"{name} must be None or a single label (int, float, bool or str), got "
        f"{type(pos_label).__name__}."
    )


def as_numeric(values: Any) -> Any:
    """An object array whose items are all real numbers, as a numeric array.

    scikit-learn's ``check_array`` reads object arrays of numbers (for
    example from a pandas column of dtype object) as numbers; so does
    skbrier (the rule of :mod:`skbrier._core.validation`).  Anything else is
    returned unchanged and judged by the validation.
    """
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):
        values = values.to_numpy()
    if not isinstance(values, np.ndarray) or values.dtype != object or values.size == 0:
        return values
    return _numeric_objects(values)


# --------------------------------------------------------------------------- columns
def positive_column(classes: Any, pos_label: Any = None) -> tuple[int, Any]:
    """Column of ``pos_label`` among the sorted ``classes``.

    ``pos_label=None`` means the last class (``classes_[1]`` of a binary
    classifier, the column scikit-learn scores), which needs exactly two
    classes.  Matching follows scikit-learn (``pos_label in
    classes.tolist()``, so ``True`` matches ``1``).

    Returns
    -------
    (int, object)
        The column index and the positive class as a Python value.
    """
    classes = np.asarray(classes)
    values = classes.tolist()
    if pos_label is None:
        if len(values) != 2:
            raise ValueError(
                f"pos_label must be given to pick one class among {len(values)} "
                f"classes {values[:10]}."
            )
        return 1, values[1]
    pos_label = check_pos_label(pos_label)
    hits = [i for i, c in enumerate(values) if c == pos_label]
    if len(hits) != 1:
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the classes {values[:10]}."
        )
    return hits[0], values[hits[0]]


def align_columns(proba: np.ndarray, est_classes: Any, classes: np.ndarray) -> np.ndarray:
    """Columns of ``proba`` (for ``est_classes``) placed under all sorted ``classes``.

    A class the fold model never saw gets probability 0, with the warning of
    :func:`sklearn.model_selection.cross_val_predict`.
    """
    est_classes = np.asarray(est_classes)
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
        stacklevel=3,
    )
    full = np.zeros((proba.shape[0], k), dtype=np.float64)
    full[:, np.searchsorted(classes, est_classes)] = proba
    return full


# --------------------------------------------------------------------------- estimators
def _methods(response_method: Any) -> tuple[str, ...]:
    if isinstance(response_method, str):
        if response_method not in RESPONSE_METHODS:
            raise ValueError(
                f"response_method must be one of {RESPONSE_METHODS} or a list of "
                f"them, got {response_method!r}."
            )
        if response_method == "auto":
            return ("predict_proba", "decision_function")
        return (response_method,)
    if isinstance(response_method, Sequence) and response_method:
        out = tuple(response_method)
        if all(isinstance(m, str) and m in RESPONSE_METHODS[:2] for m in out):
            return out
    raise TypeError(
        f"response_method must be one of {RESPONSE_METHODS} or a non-empty list of "
        f"'predict_proba'/'decision_function', got {response_method!r}."
    )


def _pick_method(estimator: Any, methods: tuple[str, ...]) -> str:
    for m in methods:
        if callable(getattr(estimator, m, None)):
            return m
    raise TypeError(
        f"estimator {type(estimator).__name__} has no {' or '.join(methods)}; a "
        "probabilistic classifier is needed (wrap it in "
        "sklearn.calibration.CalibratedClassifierCV to get probabilities)."
    )


def _response_array(raw: Any, method: str, n_classes: int) -> np.ndarray:
    if isinstance(raw, list):
        raise ValueError(  # noqa: TRY004 - a multi-output model is a bad value
            f"estimator.{method} returned a list (a multi-output classifier); "
            "skbrier scores one target."
        )
    arr = as_numeric(np.asarray(raw))
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"estimator.{method} returned non-numbers (dtype {arr.dtype}).")
    if arr.ndim == 1 and method == "predict_proba" and n_classes == 1:
        arr = arr[:, None]
    if method == "decision_function" and n_classes == 2:
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = arr[:, 0]
        if arr.ndim != 1:
            raise ValueError(
                f"estimator.decision_function returned shape {arr.shape} for a binary "
                "classifier; expected (n_samples,)."
            )
        return arr
    if arr.ndim != 2 or arr.shape[1] != n_classes:
        raise ValueError(
            f"estimator.{method} returned shape {arr.shape} but the estimator has "
            f"{n_classes} classes; expected (n_samples, {n_classes})."
        )
    return arr


def response_from_estimator(
    estimator: Any, X: Any, *, response_method: str | Sequence[str] = "predict_proba"
) -> tuple[np.ndarray, np.ndarray, str]:
    """The raw, checked response of a fitted classifier and its ``classes_``.

    ``predict_proba`` (or a multiclass ``decision_function``) as an
    ``(n_samples, n_classes)`` matrix whose columns follow ``classes_``; a
    binary ``decision_function`` as the 1-D score of ``classes_[1]``.  A
    model fitted on one class is allowed here (cross-validation folds), not
    in :func:`forecasts_from_estimator`.

    Returns
    -------
    (ndarray, ndarray, str)
        The response, ``classes_`` and the method called.
    """
    methods = _methods(response_method)
    if not hasattr(estimator, "fit"):
        raise TypeError(
            f"estimator must be a fitted scikit-learn classifier, got "
            f"{type(estimator).__name__}."
        )
    method = _pick_method(estimator, methods)
    check_is_fitted(estimator)
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise TypeError(
            f"estimator {type(estimator).__name__} has no classes_: a classifier is needed."
        )
    classes = np.asarray(classes)
    if classes.ndim != 1:
        raise ValueError(
            "estimator.classes_ is not 1-D (a multi-output classifier); skbrier scores "
            "one target."
        )
    out = _response_array(getattr(estimator, method)(X), method, classes.shape[0])
    return out, classes, method


def forecasts_from_estimator(
    estimator: Any,
    X: Any,
    *,
    pos_label: Any = None,
    response_method: str | Sequence[str] = "predict_proba",
) -> EstimatorForecasts:
    """Forecasts of a fitted classifier on ``X``, as skbrier's metrics read them.

    Parameters
    ----------
    estimator : fitted classifier
        Any scikit-learn classifier (a pipeline too) with ``classes_`` and
        the requested response method.
    X : array-like of shape (n_samples, n_features)
        The inputs.
    pos_label : int, float, bool or str, default=None
        Binary classifiers: the class whose probability is returned (default
        ``classes_[1]``, as scikit-learn's scorers).  Multiclass
        classifiers: None returns the full matrix; a class returns its
        one-vs-rest probability (its column).
    response_method : {"predict_proba", "decision_function", "auto"} or list, \
default="predict_proba"
        The method called; a list (or "auto": predict_proba, then
        decision_function) is tried in order.  ``decision_function`` gives
        scores, not probabilities: for a binary classifier the score of
        ``pos_label`` (negated when it is ``classes_[0]``, as scikit-learn).

    Returns
    -------
    EstimatorForecasts
        Named tuple ``(y_proba, classes, pos_label)``.

    Raises
    ------
    TypeError
        If ``estimator`` is not a fitted classifier with the method, or the
        options have the wrong type.
    ValueError
        If ``pos_label`` is not a class of the estimator, the estimator was
        fitted on a single class, or its output has the wrong shape.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier._response import forecasts_from_estimator
    >>> X, y = [[0.0], [1.0], [2.0], [3.0]], ["no", "no", "yes", "yes"]
    >>> clf = LogisticRegression().fit(X, y)
    >>> p, classes, pos = forecasts_from_estimator(clf, X, pos_label="no")
    >>> p.shape, classes.tolist(), pos
    ((4,), ['no', 'yes'], 'no')
    """
    pos_label = check_pos_label(pos_label)
    out, classes, _ = response_from_estimator(estimator, X, response_method=response_method)
    if classes.shape[0] < 2:
        raise ValueError(
            f"estimator was fitted on a single class {classes.tolist()}; its "
            "probabilities say nothing (fit it on at least two classes)."
        )
    if classes.shape[0] == 2 or pos_label is not None:
        col, pos_label = positive_column(classes, pos_label)
    if out.ndim == 1:  # binary decision_function: the score of classes_[1]
        return EstimatorForecasts(out if col == 1 else -out, classes, pos_label)
    if pos_label is None:
        return EstimatorForecasts(out, classes, None)
    return EstimatorForecasts(out[:, col], classes, pos_label)


# --------------------------------------------------------------------------- scorer output
def _as_1d_labels(y: Any) -> np.ndarray:
    return np.asarray(as_numeric(y))


def _ambiguous_single_class(value: Any) -> ValueError:
    return ValueError(
        f"y_true holds a single label ({value!r}) and y_proba is the 1-D "
        "probability of the estimator's positive class (classes_[1]), which cannot "
        "be identified from one label. Make the scorer with pos_label= (for example "
        "skbrier.scorers.make_brier_index_scorer(pos_label=...)) or use folds that "
        "contain both classes (StratifiedKFold)."
    )


def scorer_pos_label(y_true: Any, y_proba: Any, pos_label: Any) -> Any:
    """The class whose probability a 1-D ``y_proba`` from a scorer holds.

    scikit-learn passes ``predict_proba(X)[:, 1]``, the probability of the
    larger label, when the scorer has no ``pos_label``.  For two labels in
    ``y_true`` that is their maximum; numeric labels in {0, 1} or {-1, 1}
    keep scikit-learn's convention (1); a single other label is ambiguous.
    None is returned where the metric's own rule gives the right class (or
    raises the right error).
    """
    if pos_label is not None or np.ndim(y_proba) != 1:
        return pos_label
    y = _as_1d_labels(y_true)
    if y.ndim != 1 or y.shape[0] == 0:
        return None  # the metric raises a clear error
    if y.dtype.kind in "biuf":
        if y.dtype.kind == "f" and not np.isfinite(y).all():
            return None  # the metric reports the bad labels
        lo, hi = y.min(), y.max()
        if lo != hi:
            if lo in (-1, 0, 1) and hi in (-1, 0, 1):
                return None  # the metric's convention gives 1 (as scikit-learn)
            return hi.item()  # a third label makes the metric raise
        if lo in (-1, 0, 1):
            return None  # {0, 1} / {-1, 1} labels: the positive class is 1
        raise _ambiguous_single_class(lo.item())
    first = y[0]
    others = y[y != first]
    if others.shape[0] == 0:
        raise _ambiguous_single_class(first)
    try:
        return max(first, others[0])  # a third label makes the metric raise
    except TypeError:
        return None  # mixed types: the metric raises a clear error


def _looks_like_probabilities(y: np.ndarray, a: np.ndarray) -> bool:
    """Float ``a`` in [0, 1]: probabilities unless every value is a label of ``y``."""
    if y.dtype.kind not in "biuf" or y.ndim != 1 or y.shape[0] == 0:
        return True
    if y.min() in (0, 1) and y.max() in (0, 1):
        return True  # 0/1 labels: both readings give the same decisions
    return not set(np.unique(a).tolist()) <= set(np.unique(y).tolist())


def hard_label_decisions(y_true: Any, y_pred: Any, pos_label: Any):
    """``(treated, pos_label)`` if ``y_pred`` holds class labels, else None.

    :class:`~sklearn.model_selection.TunedThresholdClassifierCV` calls the
    score function with thresholded class labels (``classes_`` values), a
    plain scorer with probabilities.  Labels are recognised by their dtype
    (not floating point), by values outside [0, 1], or, for float labels
    other than {0, 1}, by being labels of ``y_true``.  Labels 0/1 and
    probabilities 0/1 give the same decisions for every threshold in (0, 1).
    """
    a = _as_1d_labels(y_pred)
    if a.ndim != 1 or a.shape[0] == 0:
        return None
    y = _as_1d_labels(y_true)
    if a.dtype.kind == "f":
        if not np.isfinite(a).all():
            return None  # the metric reports NaN / inf
        if a.min() >= 0.0 and a.max() <= 1.0 and _looks_like_probabilities(y, a):
            return None
    elif a.dtype.kind not in "biuOUS":
        return None
    if pos_label is not None:
        return (a == pos_label).astype(np.float64), pos_label
    try:
        classes = np.unique(np.concatenate([y.ravel(), a]))
    except (TypeError, ValueError):
        return None  # the metric raises a clear error
    if classes.shape[0] > 2:
        raise ValueError(
            "y_pred holds more than two class labels: net benefit is a binary metric."
        )
    if classes.shape[0] == 2:
        pos = classes[1]
    elif a.dtype.kind in "biuf" and classes[0] in (-1, 0, 1):
        pos = 1
    else:
        raise _ambiguous_single_class(classes[0])
    pos = pos.item() if hasattr(pos, "item") else pos
    return (a == pos).astype(np.float64), pos


def check_labels(labels: Any, name: str = "labels") -> Any:
    """``labels`` option of scorers: None or a 1-D array-like of two or more classes."""
    if labels is None:
        return None
    if isinstance(labels, (str, bytes)) or np.ndim(labels) != 1:
        raise ValueError(f"{name} must be a 1-D array-like of class labels or None.")
    lab = np.asarray(as_numeric(np.asarray(labels)))
    if lab.dtype.kind == "f" and not np.isfinite(lab).all():
        raise ValueError(f"{name} must not contain NaN or infinity.")
    try:
        n_distinct = np.unique(lab).shape[0]
    except TypeError:
        raise TypeError(f"{name} mixes labels of different types.") from None
    if n_distinct < 2:
        raise ValueError(f"{name} must name at least two classes, got {lab.tolist()}.")
    if n_distinct != lab.shape[0]:
        raise ValueError(f"{name} contains duplicates: {lab.tolist()}.")
    return labels
