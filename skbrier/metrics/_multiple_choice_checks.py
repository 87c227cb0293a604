"""Input checks of the multiple-choice Brier score (ragged or rectangular).

The one home of the checks of
:func:`~skbrier.metrics.multiple_choice.multiple_choice_brier_score`, shared
with its mergeable state (:class:`skbrier.states.MultipleChoiceState`):
per-example rows flattened, probabilities or log-probabilities checked (and
softmaxed), gold indices or per-choice targets checked (and normalised).
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._core.arrays import as_array
from .._core.diagnose import probability_problem
from .._core.fast_checks import _rows_sum_to_one
from .._core.kernels.multiple_choice import normalise_targets, segment_sum, softmax_segments

__all__ = [
    "check_scores",
    "check_targets",
    "flatten_ragged",
    "score_dtype",
    "warn_rows_do_not_sum_to_one",
]


def flatten_ragged(rows: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Concatenate per-example rows; return (values, row lengths)."""
    if isinstance(rows, np.ndarray) and rows.dtype.kind != "O":
        if rows.ndim != 2:
            raise ValueError(
                f"{name} must be 2-D (n_examples, n_choices) or a sequence of "
                f"per-example sequences, got shape {rows.shape}."
            )
        if rows.shape[0] == 0 or rows.shape[1] == 0:
            raise ValueError(f"{name} is empty.")
        if rows.dtype.kind not in "biuf":
            raise TypeError(f"{name} must be numeric, got dtype {rows.dtype}.")
        lengths = np.full(rows.shape[0], rows.shape[1], dtype=np.intp)
        return rows.astype(np.float64, copy=False).ravel(), lengths
    if hasattr(rows, "to_numpy"):  # numbers of a nullable frame become numeric
        return flatten_ragged(as_array(rows, name), name)
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (Sequence, np.ndarray)):
        raise TypeError(
            f"{name} must be a 2-D array or a sequence of per-example sequences, "
            f"got {type(rows).__name__}."
        )
    if len(rows) == 0:
        raise ValueError(f"{name} is empty.")
    parts = []
    for i, r in enumerate(rows):
        a = np.asarray(r)
        if a.ndim != 1:
            raise ValueError(
                f"{name}[{i}] must be a 1-D sequence of per-choice values, got shape "
                f"{a.shape}."
            )
        if a.shape[0] == 0:
            raise ValueError(f"{name}[{i}] has no choices.")
        if a.dtype.kind not in "biuf":
            raise TypeError(f"{name}[{i}] must be numeric, got dtype {a.dtype}.")
        parts.append(a.astype(np.float64, copy=False))
    lengths = np.fromiter((p.shape[0] for p in parts), dtype=np.intp, count=len(parts))
    return np.concatenate(parts), lengths


def _is_index_vector(y_true: Any) -> bool:
    if isinstance(y_true, np.ndarray):
        return y_true.ndim == 1 and y_true.dtype.kind != "O"
    if hasattr(y_true, "to_numpy"):
        return _is_index_vector(y_true.to_numpy())
    if isinstance(y_true, Sequence) and not isinstance(y_true, (str, bytes)):
        # scalars (not per-choice rows): gold indices, whose type _check_gold judges
        return len(y_true) > 0 and all(
            isinstance(v, (numbers.Number, str, bytes, np.generic)) for v in y_true
        )
    return False


def score_dtype(rows: Any) -> Any:
    """The precision ``y_score`` was given in (a 2-D array's or DataFrame's
    dtype; float64 for sequences), which sets the row-sum tolerance."""
    arr = rows.to_numpy() if hasattr(rows, "to_numpy") else rows
    return arr.dtype if isinstance(arr, np.ndarray) else np.dtype(np.float64)


def _choice_position(starts: np.ndarray) -> Callable[[int], str]:
    """Names flat position ``i`` of the ragged scores: ``example r, choice j``."""

    def where(i: int) -> str:
        r = int(np.searchsorted(starts, i, side="right")) - 1
        return f"example {r}, choice {i - int(starts[r])}"

    return where


def check_scores(
    values: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    from_logprobs: bool,
    dtype: Any = np.float64,
) -> np.ndarray:
    """Probabilities from ``y_score`` (softmax of log-probabilities if asked).

    Bad values are diagnosed by the package's one diagnosis of forecasts
    (:func:`~skbrier._core.diagnose.probability_problem`), positions named as
    ``example r, choice j``; ``dtype``: :func:`score_dtype` (the tolerance
    of the row sums).
    """
    where = _choice_position(starts)
    if from_logprobs:
        if np.isnan(values).any():
            raise ValueError(probability_problem(values, "y_score", where=where))
        if np.isposinf(values).any():
            i = int(np.argmax(np.isposinf(values)))
            raise ValueError(
                f"y_score holds +inf at {where(i)}: log-probabilities are finite "
                "numbers at most 0 (-inf for an impossible choice)."
            )
        row_max = np.maximum.reduceat(values, starts)
        if np.isneginf(row_max).any():
            bad = int(np.flatnonzero(np.isneginf(row_max))[0])
            raise ValueError(f"y_score[{bad}] has no choice with a finite log-probability.")
        return softmax_segments(values, starts, lengths)
    lo, hi = values.min(), values.max()
    if not (lo >= 0.0 and hi <= 1.0):
        raise ValueError(
            probability_problem(
                values,
                "y_score",
                where=where,
                negative_remedy=(
                    "Negative values suggest log-probabilities or logits: pass "
                    "from_logprobs=True (a softmax over the choices of each example)."
                ),
            )
        )
    if not _rows_sum_to_one(segment_sum(values, starts), dtype):
        warn_rows_do_not_sum_to_one(stacklevel=4)
    return values


def warn_rows_do_not_sum_to_one(stacklevel: int) -> None:
    """The warning for rows of probabilities that do not sum to one."""
    warnings.warn(
        "Some rows of y_score do not sum to one. Make sure to pass probabilities "
        "(or from_logprobs=True).",
        UserWarning,
        stacklevel=stacklevel,
    )


def _check_gold(y_true: Any, lengths: np.ndarray) -> np.ndarray:
    """Integer gold indices, each within its example's choices."""
    n = lengths.shape[0]
    gold = np.asarray(y_true.to_numpy() if hasattr(y_true, "to_numpy") else y_true)
    if gold.dtype.kind not in "iuf":
        raise TypeError(f"y_true must hold integer choice indices, got dtype {gold.dtype}.")
    if gold.shape[0] != n:
        raise ValueError(f"y_true has {gold.shape[0]} examples but y_score has {n}.")
    if gold.dtype.kind == "f" and (
        not np.isfinite(gold).all() or np.any(gold != np.round(gold))
    ):
        raise ValueError(
            "y_true must hold integer choice indices (found NaN, infinity or fractions)."
        )
    bad_mask = (gold < 0) | (gold >= lengths)
    if bad_mask.any():
        bad = int(np.flatnonzero(bad_mask)[0])
        raise ValueError(
            f"y_true[{bad}] = {gold[bad].item()!r} is not a valid choice index for an "
            f"example with {int(lengths[bad])} choices."
        )
    return gold.astype(np.intp)


def check_targets(y_true: Any, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Per-choice targets summing to one per example (one-hot for gold indices)."""
    n = lengths.shape[0]
    column = y_true.to_numpy() if hasattr(y_true, "to_numpy") else y_true
    if (
        isinstance(column, np.ndarray)
        and column.ndim == 2
        and column.shape[1] == 1
        and lengths.max() > 1
    ):  # a column of gold indices (a one-column DataFrame), not one target per example
        y_true = column[:, 0]
    if _is_index_vector(y_true):
        targets = np.zeros(int(lengths.sum()))
        targets[starts + _check_gold(y_true, lengths)] = 1.0
        return targets
    t_values, t_lengths = flatten_ragged(y_true, "y_true")
    if t_lengths.shape[0] != n:
        raise ValueError(f"y_true has {t_lengths.shape[0]} examples but y_score has {n}.")
    if np.any(t_lengths != lengths):
        bad = int(np.flatnonzero(t_lengths != lengths)[0])
        raise ValueError(
            f"y_true[{bad}] has {int(t_lengths[bad])} target scores but y_score[{bad}] "
            f"has {int(lengths[bad])} choices."
        )
    if not np.isfinite(t_values).all():
        raise ValueError("y_true contains NaN or infinity.")
    if t_values.min() < 0:
        raise ValueError("y_true target scores must be non-negative.")
    t_max = np.maximum.reduceat(t_values, starts)
    if np.any(t_max <= 0):
        bad = int(np.flatnonzero(t_max <= 0)[0])
        raise ValueError(f"y_true[{bad}] has no positive target score.")
    return normalise_targets(t_values, starts, lengths)
