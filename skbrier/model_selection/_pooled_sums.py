"""Per-fold sums recorded by :func:`~skbrier.model_selection.pooled_scoring`.

Score functions for :func:`sklearn.metrics.make_scorer`: each returns one sum
of a test fold from which the pooled score of all folds is rebuilt exactly.
They are frequency-weighted: an integer weight equals repeated rows and a
zero weight a removed row -- a fold whose weights are all zero adds nothing
(every sum is 0) instead of failing the search.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import with_pieces
from .._core.kernels.brier import binary_squared_errors, multiclass_squared_errors
from .._core.params import check_int
from .._core.validation import Forecast, check_forecast
from .._response import as_numeric, scorer_pos_label
from .._scorer_table import as_given, score_function
from ..scorers import _brier_score_for_scorer, brier_index_score

__all__ = ["brier_sum", "class_weight_sum", "weight_sum"]

#: the parameters of a fold's sum, described once for every sum
_PIECES = {
    "fold_labels": """\
y_true : array-like of shape (n_samples,)
    True labels of the test fold.""",
    "fold_proba": """\
y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
    Predicted probabilities (validated, otherwise unused).""",
    "fold_options": """\
sample_weight : array-like of shape (n_samples,), default=None
    Non-negative frequency weights (all zero: a removed fold, every sum 0).
labels : array-like of shape (n_classes,), default=None
    Classes of the columns of 2-D ``y_proba``.
pos_label : int, float, bool or str, default=None
    Class whose probability a 1-D ``y_proba`` holds.""",
}


def _all_zero_weights(sample_weight: Any, n: int) -> bool:
    """Whether valid ``sample_weight`` of length ``n`` are all zero (a removed fold)."""
    if sample_weight is None:
        return False
    w = np.asarray(as_numeric(sample_weight))
    if w.dtype.kind not in "biuf" or w.shape != (n,):
        return False  # check_sample_weight gives the error
    return bool(np.all(w == 0))


def _fold_forecast(y_true, y_proba, sample_weight, labels, pos_label) -> Forecast:
    """Validated fold forecast; all-zero weights are kept (the fold adds nothing)."""
    if np.asarray(as_numeric(y_true)).dtype.kind in "biuf":
        # numeric labels: the class of predict_proba(X)[:, 1], or a clear error for
        # a one-label fold (string labels need pos_label, as in scikit-learn)
        pos_label = scorer_pos_label(y_true, y_proba, pos_label)
    zero = _all_zero_weights(
        sample_weight, np.shape(y_proba)[0] if np.ndim(y_proba) else -1
    )
    fc = check_forecast(
        y_true,
        y_proba,
        sample_weight=None if zero else sample_weight,
        labels=labels,
        pos_label=pos_label,
    )
    if zero:
        fc.sample_weight = np.zeros(fc.proba.shape[0])
    return fc


def _fold_sum(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    statistic: str,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    class_index: int = 1,
) -> float:
    """One sum of a fold: ``statistic`` is "brier", "weight", "class" or "positive".

    The one implementation of :func:`brier_sum`, :func:`weight_sum`,
    :func:`class_weight_sum` and the positive-class count (which refuses
    multiclass forecasts).
    """
    if statistic == "positive":
        if np.ndim(y_proba) == 2 and np.shape(y_proba)[1] > 2:
            raise ValueError(
                f"y_proba has {np.shape(y_proba)[1]} columns: pass labels= (all classes) "
                "to pooled_scoring for multiclass problems."
            )
        statistic, class_index = "class", 1
    fc = _fold_forecast(y_true, y_proba, sample_weight, labels, pos_label)
    w = fc.sample_weight
    if statistic == "weight":
        return float(fc.proba.shape[0] if w is None else w.sum())
    if statistic == "brier":
        per_row = (
            binary_squared_errors(fc.y, fc.proba)
            if fc.binary_1d
            else 0.5 * multiclass_squared_errors(fc.y, fc.proba)
        )
    else:
        per_row = _class_hits(fc, check_int(class_index, "class_index", minimum=0))
    return float(
        per_row.sum() if w is None else np.sum(w * per_row)
    )  # unit weights == none


def _class_hits(fc: Forecast, class_index: int) -> np.ndarray:
    """1.0 where a row's outcome is the class ``class_index`` counts."""
    if fc.binary_1d:
        if class_index not in (0, 1):
            raise ValueError(
                f"class_index must be 0 or 1 for binary forecasts, got {class_index!r}."
            )
        return fc.y if class_index == 1 else 1.0 - fc.y
    k = fc.proba.shape[1]
    if not 0 <= class_index < k:
        raise ValueError(
            f"class_index must lie in [0, {k - 1}] for {k} columns, got {class_index!r}."
        )
    return (fc.y == class_index).astype(np.float64)


_OPTIONS = ("labels", "pos_label")


#: the sums' refusal of Dask input
_ONE_FOLD = Refused(
    "a sum scores the predictions of one cross-validation fold held in memory; "
    "compute the fold (e.g. .compute())"
)


def _sum_function(name: str, statistic: str, doc: str) -> Callable[..., float]:
    """The public sum ``name`` (a module-level score function of :func:`_fold_sum`)."""
    func = with_pieces(_PIECES)(
        score_function(
            name,
            functools.partial(_fold_sum, statistic=statistic),
            module=__name__,
            prepare=as_given,
            shown=("class_index", *_OPTIONS) if statistic == "class" else _OPTIONS,
            doc=doc,
        )
    )
    # the public sums declare their backends (not the private one)
    return func if name.startswith("_") else backends(dask=_ONE_FOLD, array_api=HOST)(func)


brier_sum = _sum_function(
    "brier_sum",
    "brier",
    r"""Weighted sum of squared errors on the [0, 1] Brier scale.

    For 1-D ``y_proba`` (the probability of ``pos_label``)
    :math:`S = \sum_i w_i (p_i - y_i)^2`; for 2-D ``y_proba`` with one column
    per class :math:`S = \sum_i w_i \tfrac12 \sum_k (p_{ik} - y_{ik})^2`,
    which is the same number for two columns and the [0, 1] scale of the
    Brier Index for three or more.  Divided by :func:`weight_sum` it is the
    Brier score on that scale.

    Parameters
    ----------
    {{fold_labels}}
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities (1-D: the probability of ``pos_label``).
    {{fold_options}}

    Returns
    -------
    float
        The weighted sum of squared errors.

    See Also
    --------
    pooled_scoring : Scorers recording this sum for every fold.

    Examples
    --------
    >>> from skbrier.model_selection.pooled import brier_sum
    >>> brier_sum([0, 1, 1], [0.2, 0.6, 1.0])
    0.2
    """,
)
weight_sum = _sum_function(
    "weight_sum",
    "weight",
    r"""Total sample weight of a fold (the number of samples without weights).

    Parameters
    ----------
    {{fold_labels}}
    {{fold_proba}}
    {{fold_options}}

    Returns
    -------
    float
        :math:`\sum_i w_i`.

    See Also
    --------
    brier_sum

    Examples
    --------
    >>> from skbrier.model_selection.pooled import weight_sum
    >>> weight_sum([0, 1, 1], [0.2, 0.6, 1.0], sample_weight=[1, 2, 0.5])
    3.5
    """,
)
class_weight_sum = _sum_function(
    "class_weight_sum",
    "class",
    r"""Weighted count of one class in a fold.

    For 1-D ``y_proba`` (binary) ``class_index=1`` counts ``pos_label`` and
    ``class_index=0`` the other class; for 2-D input it counts the class of
    column ``class_index`` (``labels`` sorted).

    Parameters
    ----------
    {{fold_labels}}
    {{fold_proba}}
    class_index : int, default=1
        Which class to count (see above).
    {{fold_options}}

    Returns
    -------
    float
        :math:`\sum_i w_i 1[y_i = c]`.

    Raises
    ------
    ValueError
        If ``y_proba`` has three or more columns and ``labels`` is None (the
        classes of a fold are then unknown), or ``class_index`` is out of range.

    See Also
    --------
    pooled_scoring

    Examples
    --------
    >>> from skbrier.model_selection.pooled import class_weight_sum
    >>> class_weight_sum([0, 1, 1], [0.2, 0.6, 1.0], sample_weight=[1, 2, 0.5])
    2.5
    """,
)
_positive_weight_sum = _sum_function(
    "_positive_weight_sum",
    "positive",
    """Weighted count of the positive class; refuses multiclass forecasts.""",
)


def _fold_score(func, y_true, y_proba, sample_weight, **kwargs) -> float:
    if _all_zero_weights(sample_weight, np.shape(y_proba)[0] if np.ndim(y_proba) else -1):
        return float("nan")  # a removed fold has no score (its sums are 0)
    return func(y_true, y_proba, sample_weight=sample_weight, **kwargs)


def fold_brier_index(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    **kwargs: Any,
) -> float:
    """Brier Index of one fold (nan for a fold whose weights are all zero).

    The per-fold comparison score of :func:`pooled_scoring`
    (:func:`skbrier.scorers.brier_index_score` otherwise).
    """
    return _fold_score(brier_index_score, y_true, y_proba, sample_weight, **kwargs)


def fold_brier_score(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    **kwargs: Any,
) -> float:
    """Brier score of one fold (nan for a fold whose weights are all zero)."""
    return _fold_score(_brier_score_for_scorer, y_true, y_proba, sample_weight, **kwargs)
