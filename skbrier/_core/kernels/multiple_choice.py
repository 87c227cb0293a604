"""Validation-free kernels of the multiple-choice Brier score (ragged choice sets).

The choices of all examples are concatenated into one flat array; example
``i`` owns ``values[starts[i]:starts[i] + lengths[i]]`` (every length >= 1).
Inputs are already validated: finite probabilities or log-probabilities
(``-inf`` allowed, at least one finite per example), non-negative targets
with a positive sum per example, non-negative weights with a positive sum.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "bigbench_per_example",
    "normalise_targets",
    "per_example_squared_error",
    "segment_starts",
    "segment_sum",
    "softmax_segments",
    "weighted_mean",
]


def segment_starts(lengths: np.ndarray) -> np.ndarray:
    """First flat position of each example."""
    starts = np.zeros(lengths.shape[0], dtype=np.intp)
    np.cumsum(lengths[:-1], out=starts[1:])
    return starts


def segment_sum(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sum of each example's entries.

    With equal choice counts, numpy's row sums (pairwise summation, as
    ``row.sum()`` in a per-example loop); ragged rows use ``np.add.reduceat``.
    """
    n = starts.shape[0]
    if x.shape[0] % n == 0 and np.array_equal(starts, np.arange(n) * (x.shape[0] // n)):
        return x.reshape(n, -1).sum(axis=1)
    return np.add.reduceat(x, starts)


def softmax_segments(
    logp: np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> np.ndarray:
    """Softmax within each example (max subtracted first; ``-inf`` gives 0)."""
    row_max = np.maximum.reduceat(logp, starts)
    with np.errstate(over="ignore"):  # finite - finite beyond 1.8e308: -inf, exp -> 0
        e = np.exp(logp - np.repeat(row_max, lengths))
    return e / np.repeat(segment_sum(e, starts), lengths)


def normalise_targets(t: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Targets divided by their example's sum (scaled by the example's maximum
    first, so that huge scores such as 1e308 do not overflow the sum)."""
    scaled = t / np.repeat(np.maximum.reduceat(t, starts), lengths)
    return scaled / np.repeat(segment_sum(scaled, starts), lengths)


def per_example_squared_error(
    proba: np.ndarray, targets: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """``sum_c (p_ic - t_ic)^2`` per example (lm-evaluation-harness)."""
    d = proba - targets
    return segment_sum(d * d, starts)


def bigbench_per_example(
    proba: np.ndarray, targets: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """``sum_c t (p - 1)^2 + (1 - t) p^2`` per example (BIG-bench)."""
    per_choice = targets * (proba - 1.0) ** 2 + (1.0 - targets) * proba**2
    return segment_sum(per_choice, starts)


def weighted_mean(
    numerators: np.ndarray, denominators: np.ndarray, w: np.ndarray | None
) -> float:
    """``sum w num / sum w den`` over examples with frequency weights ``w``.

    Zero-weight examples are dropped first (the same sums, in the same order,
    as without them); the weights are divided by their maximum, so that
    weights of any scale (1e-200 or 1e300) neither overflow nor underflow
    and unit weights give exactly the unweighted value.
    """
    if w is None:
        return float(numerators.sum() / denominators.sum())
    keep = w > 0.0
    ws = w[keep] / w.max()
    return float((ws * numerators[keep]).sum() / (ws * denominators[keep]).sum())
