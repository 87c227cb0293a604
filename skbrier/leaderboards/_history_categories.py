"""Multiple-choice forecast histories: one probability per category, validated once.

A multiple-choice update gives a probability vector over the question's
:math:`K` categories (the ``probability`` column holds one sequence per
row); the outcome is the index of the category that occurred.  Every score
of histories reads two numbers per update, computed here (and for binary
questions, with :math:`K = 2`, in the same way):

* the probability given to the outcome, :math:`p_{y}`;
* the Brier score on the [0, 1] scale,
  :math:`\\tfrac12 \\sum_k (p_k - 1[k = y])^2` (for a binary question
  :math:`(p - y)^2`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.diagnose import probability_problem
from .._core.results import to_builtin

__all__ = ["binary_parts", "category_parts", "check_categories", "is_multiple_choice"]

#: largest distance of a probability vector's sum from 1
SUM_TOLERANCE = 1e-6


def is_multiple_choice(values: Any) -> bool:
    """Whether a probability column holds one sequence per row (multiple choice)."""
    shape = getattr(values, "shape", None)
    if shape is not None and len(shape) == 2:
        return True
    try:
        first = next(iter(values))
    except (TypeError, StopIteration):
        return False
    return isinstance(first, (list, tuple, np.ndarray)) and not isinstance(first, str)


def check_categories(values: Any, n: int) -> np.ndarray:
    """Outcomes of multiple-choice questions: category indices (non-negative integers)."""
    arr = np.asarray(values)
    if arr.shape != (n,):
        raise ValueError(
            f"outcome must have one value per question, got shape {arr.shape}."
        )
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
    elif arr.dtype.kind in "iu":
        bad = np.zeros(n, dtype=bool)
    else:
        raise TypeError(
            "outcome of multiple-choice questions must be the index of the category that "
            f"occurred (0, 1, ...), got dtype {arr.dtype}."
        )
    bad |= ~bad & (arr < 0)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"outcome: row {i} of questions is {to_builtin(arr[i])!r}; a multiple-choice "
            "outcome is the index (0, 1, ...) of the category that occurred."
        )
    return arr.astype(np.float64)


def binary_parts(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per update of binary questions: ``(p_y, (p - y)^2)``."""
    return np.where(y == 1.0, p, 1.0 - p), (p - y) ** 2


def category_parts(
    values: Any, q: np.ndarray, outcome: np.ndarray, qnames: np.ndarray, pname: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per update ``(p_y, half Brier)`` and per question ``K``, rows in the order given."""
    rows = [np.asarray(v, dtype=np.float64) for v in values]
    n_q = qnames.shape[0]
    k_of = np.zeros(n_q, dtype=np.int64)
    p_y = np.empty(len(rows))
    half = np.empty(len(rows))
    for i, (v, qi) in enumerate(zip(rows, q.tolist())):
        where = f"{pname}: row {i} of forecasts (question {to_builtin(qnames[qi])!r})"
        if v.ndim != 1 or v.shape[0] < 2:
            raise ValueError(
                f"{where} must give one probability per category (at least 2)."
            )
        if np.isnan(v).any():
            raise ValueError(
                f"{where} has no probability (NaN) for category "
                f"{int(np.argmax(np.isnan(v)))}; drop the row or fill it in."
            )
        problem = probability_problem(v, "the vector", where=lambda k: f"category {k}")
        if problem is not None:  # with what the values look like (percentages, ...)
            raise ValueError(f"{where} has a probability outside [0, 1]: {problem}")
        if abs(v.sum() - 1.0) > SUM_TOLERANCE:
            raise ValueError(
                f"{where} sums to {v.sum():.4g}, not 1; give a probability for every "
                "category (normalise the vector)."
            )
        if k_of[qi] == 0:
            k_of[qi] = v.shape[0]
        elif k_of[qi] != v.shape[0]:
            raise ValueError(
                f"{where} has {v.shape[0]} categories but an earlier row of the question "
                f"has {int(k_of[qi])}; give every update of a question the same categories."
            )
        y = int(outcome[qi])
        if y >= v.shape[0]:
            raise ValueError(
                f"outcome: question {to_builtin(qnames[qi])!r} resolved as category {y}, "
                f"but its forecasts have {v.shape[0]} categories (0 to {v.shape[0] - 1})."
            )
        p_y[i] = v[y]
        half[i] = 0.5 * (float(np.dot(v, v)) - 2.0 * v[y] + 1.0)
    k_of[k_of == 0] = np.maximum(outcome[k_of == 0].astype(np.int64) + 1, 2)
    return p_y, np.maximum(half, 0.0), k_of
