"""Multiple-choice Brier score of LLM benchmarks (ragged choice sets).

The checks live in :mod:`skbrier.metrics._multiple_choice_checks`, the
formulas in the kernels of :mod:`skbrier._core.kernels.multiple_choice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.diagnose import one_warning_per_call
from .._core.dispatch import backends
from .._core.hard import one_hot_scores, warn_one_hot
from .._core.kernels.multiple_choice import (
    CONVENTIONS,
    choice_finish,
    choice_reduce,
    segment_starts,
)
from .._core.params import check_bool, check_option
from .._core.validation import check_sample_weight
from ._multiple_choice_checks import (
    check_scores,
    check_targets,
    flatten_ragged,
    score_dtype,
)

__all__ = ["multiple_choice_brier_score"]


@backends(
    arrays=("y_true", "y_score", "sample_weight"),
    namespace_of="y_score",
    dask="skbrier._backends._dask._adapters:multiple_choice_brier_score",
    array_api="skbrier._backends._array_api:multiple_choice_brier_score",
)
@one_warning_per_call
def multiple_choice_brier_score(
    y_true: ArrayLike | Sequence[Sequence[float]],
    y_score: ArrayLike | Sequence[Sequence[float]],
    *,
    convention: Literal["per_example", "bigbench"] = "per_example",
    from_logprobs: bool = False,
    sample_weight: ArrayLike | None = None,
) -> float:
    r"""Multiple-choice Brier score of LLM evaluation (lower is better).

    Each example :math:`i` has :math:`K_i` answer choices (ragged choice
    sets are allowed), predicted probabilities :math:`p_{ic}` and targets
    :math:`t_{ic}` (one-hot for a gold index; soft target scores are
    normalised to sum to one).

    ``convention="per_example"`` (lm-evaluation-harness): sum over choices,
    (weighted) mean over examples,

    .. math::

        \mathrm{BS} = \frac{\sum_i w_i \sum_c (p_{ic} - t_{ic})^2}{\sum_i w_i}.

    On equal choice counts this is scikit-learn's multiclass
    ``brier_score_loss`` (range [0, 2]).

    ``convention="bigbench"`` (BIG-bench's
    ``measure_calibration_multiple_choice_brier_score``): every choice adds
    :math:`t (p - 1)^2 + (1 - t) p^2 = (p - t)^2 + t (1 - t)` and the total
    is divided by the total number of choices (pooled),

    .. math::

        \mathrm{BS} = \frac{\sum_i w_i \sum_c \left[t_{ic}(p_{ic} - 1)^2 +
        (1 - t_{ic}) p_{ic}^2\right]}{\sum_i w_i K_i}.

    On equal choice counts and one-hot targets this is scikit-learn's value
    divided by K.

    Parameters
    ----------
    y_true : array-like of shape (n_examples,) or per-choice targets
        Either the index of the correct choice of each example (integers),
        or per-choice target scores: a 2-D array or a sequence of
        per-example sequences shaped like ``y_score``.  Target scores must be
        non-negative with a positive sum per example; they are normalised to
        sum to one.
    y_score : array-like of shape (n_examples, n_choices) or ragged sequence
        Per-choice probabilities, or with ``from_logprobs=True`` per-choice
        log-probabilities (log-likelihoods), which are turned into
        probabilities by a softmax per example.
    convention : {"per_example", "bigbench"}, default="per_example"
        Which benchmark's formula to reproduce (see above).
    from_logprobs : bool, default=False
        Whether ``y_score`` holds log-probabilities (any finite reals, or
        ``-inf`` for impossible choices).
    sample_weight : array-like of shape (n_examples,), default=None
        Non-negative frequency weights of the examples: integer weights give
        the score of the repeated examples, unit weights the unweighted score
        and zero-weight examples are ignored (bit for bit); the scale of the
        weights does not matter (1e-200 and 1e300 alike).

    Returns
    -------
    float
        The multiple-choice Brier score.

    Raises
    ------
    ValueError
        For NaN, probabilities outside [0, 1], a gold index out of range,
        target rows that do not match ``y_score``'s choice counts, negative
        or all-zero targets, empty input, or an unknown ``convention``.
    TypeError
        For non-numeric input.

    See Also
    --------
    brier_score : the multiclass Brier score with fixed classes.

    Notes
    -----
    Probabilities given directly (``from_logprobs=False``) are used as they
    are; a ``UserWarning`` is raised when a row does not sum to one, and a
    :class:`~skbrier.exceptions.HardForecastWarning` (once per call) when
    every score is exactly 0 or 1: one-hot answers instead of probabilities.

    Dask input (2-D dask arrays or DataFrames of ``n_choices`` columns, gold
    indices or 2-D targets) is scored in one pass over the partitions with
    :class:`skbrier.states.MultipleChoiceState`; ragged choice sets are
    scored in memory only.

    References
    ----------
    .. [1] A. Srivastava et al., "Beyond the imitation game: quantifying and
       extrapolating the capabilities of language models", TMLR, 2023
       (BIG-bench).
    .. [2] EleutherAI lm-evaluation-harness, ``brier_score`` metric.

    Examples
    --------
    >>> from skbrier import multiple_choice_brier_score
    >>> logp = [[-0.1, -0.5, -3.0, -9.0], [-0.1, -0.5, -3.0, -9.0]]
    >>> targets = [[1, 0, 0, 0], [0.5, 0, 0, 0]]
    >>> multiple_choice_brier_score(targets, logp, convention="bigbench",
    ...                             from_logprobs=True)
    0.08217880533576...
    >>> multiple_choice_brier_score([0, 1], [[0.7, 0.2, 0.1], [0.5, 0.5]])
    0.32
    """
    convention = check_option(convention, "convention", CONVENTIONS)
    from_logprobs = check_bool(from_logprobs, "from_logprobs")
    values, lengths = flatten_ragged(y_score, "y_score")
    n = lengths.shape[0]
    starts = segment_starts(lengths)
    proba = check_scores(values, starts, lengths, from_logprobs, score_dtype(y_score))
    if not from_logprobs:
        warn_one_hot(one_hot_scores(np, values), int(lengths.max()))
    targets = check_targets(y_true, starts, lengths)
    w = check_sample_weight(sample_weight, n, ref_name="y_score")
    sums = choice_reduce(np, proba, targets, w, convention=convention, lengths=lengths)
    return choice_finish(sums)
