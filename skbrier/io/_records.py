"""The one result object of the readers of :mod:`skbrier.io`."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from .._core.results import Result

__all__ = ["EvalLogError", "EvalRecords", "answer_records"]


class EvalLogError(ValueError):
    """A malformed evaluation log: the message names the file, line (or entry) and field."""


@dataclasses.dataclass(frozen=True, repr=False)
class EvalRecords(Result):
    """Per-question records read from an LLM evaluation log.

    Parameters
    ----------
    format : str
        ``"lm-eval"``, ``"helm"``, ``"inspect"``, ``"judged"`` or ``"graded"``.
    path : str
        The file read.
    model : str or None
        The model named in the log, when it names one.
    ids : ndarray of str
        Question identifiers.
    correct : ndarray of bool
        Whether the model's answer was correct.
    confidence : ndarray of float or None
        The model's probability (or stated confidence, rescaled to [0, 1])
        of the answer it gave; None for a correctness-only log (an Inspect
        log with neither logprobs nor a stated confidence), which supports
        accuracy and counts but no calibration.
    gold : ndarray of int or None
        The gold choice of each question (multiple-choice logs).
    choice_logprobs : ndarray of float or None
        Per-choice log-likelihoods of all questions, concatenated.
    n_choices : ndarray of int or None
        Number of choices of each question (ragged sets allowed).
    n_skipped : int
        Malformed records skipped (only with ``skip_invalid=True``).
    n_unscored : int, default=0
        Samples the log holds without a score (Inspect writes none for a
        sample that errored or was never scored); they are left out of the
        records and counted here.
    attempted : ndarray of bool or None, default=None
        Whether the model answered (False: it abstained, "not attempted");
        None for logs without abstention.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.io import EvalRecords
    >>> r = EvalRecords("judged", "x.json", None, np.array(["a"]), np.array([True]),
    ...                 np.array([0.9]), None, None, None, 0)
    >>> r.n_records, r.accuracy
    (1, 1.0)
    """

    format: str
    path: str
    model: str | None
    ids: np.ndarray
    correct: np.ndarray
    confidence: np.ndarray | None
    gold: np.ndarray | None
    choice_logprobs: np.ndarray | None
    n_choices: np.ndarray | None
    n_skipped: int
    n_unscored: int = 0
    attempted: np.ndarray | None = None

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "format",
        "path",
        "model",
        "n_records",
        "n_skipped",
        "n_unscored",
        "accuracy",
    )

    @property
    def n_records(self) -> int:
        """Number of records read."""
        return int(self.ids.shape[0])

    @property
    def accuracy(self) -> float:
        """Share of correct answers (NaN when no sample was scored)."""
        return float(np.mean(self.correct)) if self.correct.shape[0] else math.nan

    @property
    def has_confidence(self) -> bool:
        """Whether the records carry a confidence (False: correctness only)."""
        return self.confidence is not None

    def choice_probabilities(self) -> list[np.ndarray]:
        """Softmax of each question's choice log-likelihoods (multiple-choice logs).

        Returns
        -------
        list of ndarray
            One probability vector per question.
        """
        if self.choice_logprobs is None or self.n_choices is None:
            raise ValueError(
                f"{self.path}: the {self.format} log has no per-choice scores."
            )
        out = []
        start = 0
        for k in self.n_choices.tolist():
            ll = self.choice_logprobs[start : start + k]
            e = np.exp(ll - ll.max())
            out.append(e / e.sum())
            start += k
        return out


def answer_records(
    format: str,
    path: str,
    model: str | None,
    ids: Sequence[str],
    correct: Sequence[bool],
    confidence: Sequence[float] | np.ndarray | None,
    *,
    n_skipped: int,
    n_unscored: int = 0,
    attempted: Sequence[bool] | None = None,
) -> EvalRecords:
    """The records of a log of answers (not of choices), from the lists a reader built.

    The one place where the readers of answers (judged, HELM, Inspect,
    graded) turn their lists into the arrays of :class:`EvalRecords`: ids as
    objects, correctness and ``attempted`` as booleans, confidences as
    float64 (None: correctness only); no gold choice and no per-choice scores.

    Parameters
    ----------
    format, path, model : str, str, str or None
        As :class:`EvalRecords`.
    ids : sequence of str
        The question identifiers.
    correct : sequence of bool
        Whether each answer was correct.
    confidence : sequence of float or None
        The confidence of each answer (None: the log has none).
    n_skipped : int
        Malformed records skipped.
    n_unscored : int, default=0
        Samples left out without a score.
    attempted : sequence of bool, default=None
        Whether the model answered (None: a log without abstention).

    Returns
    -------
    EvalRecords
        The records.

    Examples
    --------
    >>> from skbrier.io._records import answer_records
    >>> r = answer_records("judged", "x.json", None, ["q1", "q2"], [True, False],
    ...                    [0.9, 0.4], n_skipped=0)
    >>> r.correct.dtype, r.confidence.dtype, r.gold
    (dtype('bool'), dtype('float64'), None)
    """
    return EvalRecords(
        format=format,
        path=path,
        model=model,
        ids=np.asarray(ids, dtype=object),
        correct=np.asarray(correct, dtype=bool),
        confidence=None if confidence is None else np.asarray(confidence, dtype=np.float64),
        gold=None,
        choice_logprobs=None,
        n_choices=None,
        n_skipped=n_skipped,
        n_unscored=n_unscored,
        attempted=None if attempted is None else np.asarray(attempted, dtype=bool),
    )
