"""The vocabulary and the classifier input of the decompositions.

* :func:`resolve_method`: the one vocabulary of the decompositions, the
  values of every ``decomposition_method`` (``"corp"`` and ``"murphy"``, as
  :func:`~skbrier.metrics.decomposition.corp_decomposition`
  and :func:`~skbrier.metrics.decomposition.murphy_decomposition`);
* :func:`estimator_proba`: a classifier's ``predict_proba`` turned into the
  forecasts a decomposition takes (by
  :func:`~skbrier._response.forecasts_from_estimator`).

Used by :class:`~skbrier.decomposition.BrierDecomposition` and
:class:`~skbrier.plotting.reliability.ReliabilityDisplay`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core.params import check_option
from ._response import forecasts_from_estimator

__all__ = ["METHODS", "estimator_proba", "resolve_method"]

METHODS = ("corp", "murphy")


def resolve_method(method: Any, name: str = "decomposition_method") -> str:
    """``"corp"`` or ``"murphy"`` (a ValueError naming ``name`` otherwise)."""
    return check_option(method, name, METHODS)


def estimator_proba(
    estimator: Any, X: Any, pos_label: Any, labels: Any
) -> tuple[np.ndarray, Any, Any]:
    """``(y_proba, pos_label, labels)`` of a fitted classifier on ``X``.

    Binary classifiers give the column of ``pos_label`` (default
    ``classes_[1]``); others all columns, with ``labels`` defaulting to
    ``classes_``.
    """
    # a multiclass classifier gives all columns whatever pos_label says
    known = getattr(estimator, "classes_", None)
    binary = known is not None and np.shape(known)[:1] == (2,)
    y_proba, classes, positive = forecasts_from_estimator(
        estimator, X, pos_label=pos_label if binary else None
    )
    if y_proba.ndim == 1:
        return y_proba, positive if pos_label is None else pos_label, labels
    if labels is None:
        labels = np.asarray(classes)
    return y_proba, pos_label, labels
