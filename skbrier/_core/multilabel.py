"""Multilabel indicators: ``y_true`` of shape (n, L) of 0/1, one binary
forecast per label column (scikit-learn's multilabel-indicator target)."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import arrays as _arrays
from .diagnose import column_names, fmt, missing_problem
from .hard import warn_if_hard
from .labels import _target_array
from .validation import Forecast, _native_dtype, check_probabilities, check_sample_weight

__all__ = ["check_multilabel", "is_multilabel"]


def is_multilabel(y_true: Any) -> bool:
    """Whether ``y_true`` is a multilabel indicator: 2-D with two or more
    columns (a column vector is 1-D labels)."""
    shape = np.shape(y_true) if not hasattr(y_true, "shape") else y_true.shape
    return len(shape) == 2 and shape[1] > 1


def check_multilabel(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    proba_name: str = "y_proba",
) -> Forecast:
    """Validate a multilabel indicator ``y_true`` (n, L) of 0/1 against
    ``y_proba`` of the same shape (the probability of each label).

    Returns a :class:`Forecast` whose ``y`` is the float64 0/1 indicator
    matrix and whose ``classes`` are the label columns ``0 .. L - 1``.  Rows
    need not sum to one (no warning).  A scipy sparse ``y_true`` is read as
    its dense matrix (as scikit-learn reads it).
    """
    if labels is not None:
        raise ValueError(
            "labels: a multilabel indicator y_true names its labels by its columns; "
            "pass labels=None."
        )
    if hasattr(y_true, "toarray"):  # a scipy sparse indicator (MultiLabelBinarizer's)
        y_true = y_true.toarray()
    y = _arrays.as_array(y_true, "y_true")
    if y.dtype.kind == "O":  # a nullable pandas frame ("boolean", NA)
        missing = missing_problem(y, "y_true", "labels", column_names(y_true))
        if missing is not None:
            raise ValueError(missing)
        if all(isinstance(v, (bool, np.bool_)) for v in y.reshape(-1)):
            y = y.astype(bool)
    if y.dtype.kind not in "biuf":
        raise TypeError(
            f"y_true is 2-D (a multilabel indicator) and must hold 0/1 numbers or "
            f"booleans; got dtype {y.dtype}."
        )
    y01 = y.astype(np.float64, copy=False)
    if not np.all((y01 == 0.0) | (y01 == 1.0)):
        if y.dtype.kind == "f" and np.nanmin(y01) >= 0.0 and np.nanmax(y01) <= 1.0:
            _target_array(y_true)  # fractions: predict_proba output (the swap hint)
        bad = y01[(y01 != 0.0) & (y01 != 1.0)][:5]
        raise ValueError(
            "y_true is 2-D (a multilabel indicator) and must hold only 0 and 1; "
            f"found {[fmt(float(v)) for v in bad]}."
        )
    raw = _arrays.as_array(y_proba, proba_name)
    p = check_probabilities(raw, name=proba_name, warn_hard=False, source=y_proba)
    if p.shape != y.shape:
        raise ValueError(
            f"y_true is a multilabel indicator of shape {y.shape} but {proba_name} "
            f"has shape {p.shape}; give the probability of each label (the same "
            "shape)."
        )
    w = check_sample_weight(sample_weight, p.shape[0], ref_name=proba_name)
    warn_if_hard(p, proba_name)
    native = _native_dtype(raw, sample_weight)
    return Forecast(y01, p, w, np.arange(p.shape[1]), False, native)
