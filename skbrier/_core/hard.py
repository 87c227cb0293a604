"""Forecasts that are all exactly 0 or 1 (class predictions passed as
probabilities): the check (:func:`is_hard`), the sentence of
:class:`~skbrier.exceptions.HardForecastWarning` and the warning, given at
most once per public call (:func:`~skbrier._core.diagnose.warn_once`); the
one-hot answers of multiple-choice scores."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..exceptions import HardForecastWarning
from .diagnose import warn_once

__all__ = [
    "ONE_HOT_ADVICE",
    "HardForecastWarning",
    "hard_forecast_message",
    "is_hard",
    "one_hot_scores",
    "warn_if_hard",
    "warn_one_hot",
]

_HARD_CHUNK = 1 << 16


def is_hard(p: Any, xp: Any = None) -> bool:
    """Whether every value of the validated forecasts ``p`` (at least two) is 0 or 1.

    O(1) for the usual probabilistic forecast (its first value is neither 0
    nor 1); otherwise chunks with an early exit.  NaN (a missing value of the
    command line) counts as neither.  ``xp``: the namespace of an Array API
    ``p`` (one reduction on its device after the first value).
    """
    if not isinstance(p, np.ndarray):
        f = xp.reshape(p, (-1,))
        first = f.shape[0] > 1 and float(f[0]) in (0.0, 1.0)
        return first and bool(xp.all((f == 0) | (f == 1)))
    flat = p.reshape(-1)
    if flat.shape[0] < 2:
        return False
    if flat.dtype.kind == "b":
        return True
    first = flat[0]
    if first != 0 and first != 1:
        return False
    for i in range(0, flat.shape[0], _HARD_CHUNK):
        c = flat[i : i + _HARD_CHUNK]
        if np.count_nonzero((c != 0) & (c != 1)):
            return False
    return True


def hard_forecast_message(
    subject: str,
    remedy: str = "pass predict_proba() output",
    *,
    advice: str | None = None,
) -> str:
    """The sentence of :class:`~skbrier.exceptions.HardForecastWarning`.

    ``remedy``: what to pass instead, in the binary advice; ``advice``: the
    whole advice after "every forecast is exactly 0 or 1." where the binary
    one does not fit (multiple-choice scores).
    """
    if advice is not None:
        return f"{subject}: every forecast is exactly 0 or 1. {advice}"
    return (
        f"{subject}: every forecast is exactly 0 or 1. These look like class "
        "predictions (predict()) rather than probabilities; the Brier score of "
        f"hard 0/1 forecasts is just their error rate. For a probability forecast, "
        f"{remedy} (e.g. model.predict_proba(X)[:, 1]); for a binary test, "
        "binary_test_probabilities turns its results into probabilities."
    )


def warn_if_hard(p: Any, name: str, *, advice: str | None = None, xp: Any = None) -> None:
    """Give :class:`~skbrier.exceptions.HardForecastWarning` when :func:`is_hard`
    (``advice``: see :func:`hard_forecast_message`; ``xp``: the namespace of
    an Array API ``p``)."""
    if is_hard(p, xp):
        warn_once(hard_forecast_message(name, advice=advice), HardForecastWarning)


# --------------------------------------------------------- one-hot answers
#: the advice of the HardForecastWarning of one-hot ``y_score``
ONE_HOT_ADVICE = (
    "These look like one-hot answers (the chosen choice) rather than "
    "probabilities; the multiple-choice Brier score of one-hot answers only "
    "counts the wrong ones. Pass per-choice probabilities, or per-choice "
    "log-probabilities (log-likelihoods) with from_logprobs=True."
)


def one_hot_scores(xp: Any, values: Any) -> bool:
    """Whether every score given as a probability is exactly 0 or 1 (a
    chunk's part of the check of :func:`warn_one_hot`).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier._core.hard import one_hot_scores
    >>> one_hot_scores(np, np.array([0.0, 1.0, 0.0])), one_hot_scores(np, np.array([0.5]))
    (True, False)
    """
    if isinstance(values, np.ndarray) and values.size > 1:
        return is_hard(values)  # O(1) for the usual probabilistic scores
    return bool(xp.all((values == 0) | (values == 1)))


def warn_one_hot(one_hot: bool, max_choices: int) -> None:
    """The :class:`~skbrier.exceptions.HardForecastWarning` of probabilities
    that are one-hot answers: every score 0 or 1 (:func:`one_hot_scores` of
    all examples) while some example has two or more choices (one choice
    forces the probability 1).  The one check of numpy, Array API and
    chunked (:class:`~skbrier.states.MultipleChoiceState`, Dask) input.

    Examples
    --------
    >>> import warnings
    >>> from skbrier._core.hard import warn_one_hot
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     warn_one_hot(True, 1)  # one choice: nothing to warn of
    >>> seen
    []
    """
    if one_hot and max_choices > 1:
        warn_once(
            hard_forecast_message("y_score", advice=ONE_HOT_ADVICE), HardForecastWarning
        )
