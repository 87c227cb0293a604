"""Scorers of the ranked probability score (ordinal classes), re-exported by
:mod:`skbrier.scorers` (whose registry names them).

``predict_proba``'s columns follow the sorted classes (``estimator.classes_``);
the scorers put them in the order of ``labels`` first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import make_scorer

from ._core.params import check_bool
from ._response import check_labels, scorer_pos_label
from .metrics.ranked import ranked_probability_score, ranked_probability_skill_score

__all__ = ["make_ranked_probability_score_scorer"]


def _ordered_columns(y_true: Any, y_proba: ArrayLike, labels: ArrayLike | None) -> Any:
    """``predict_proba`` output with its columns in the order of ``labels``.

    Its columns follow the sorted classes (``estimator.classes_``); a binary
    classifier's 1-D probability of the larger class becomes the two columns
    ``(1 - p, p)``.
    """
    p = np.asarray(y_proba)
    if p.ndim == 1:
        scorer_pos_label(y_true, p, None)  # a one-class fold of string labels raises
        p = np.column_stack([1.0 - p, p])
    if labels is None:
        return p
    order = np.asarray(labels)
    return p[:, np.searchsorted(np.sort(order), order)]


def _ranked_probability_score_for_scorer(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    normalize: bool = False,
) -> float:
    """Ranked probability score of scorer output (columns put in the order of ``labels``).

    >>> from skbrier._ordinal_scorers import _ranked_probability_score_for_scorer as f
    >>> f(
    ...     ["high", "low"], [[0.9, 0.1], [0.2, 0.8]], labels=["low", "high"])
    0.025
    """
    return ranked_probability_score(
        y_true,
        _ordered_columns(y_true, y_proba, labels),
        labels=labels,
        sample_weight=sample_weight,
        normalize=normalize,
    )


def _ranked_probability_skill_score_for_scorer(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
) -> float:
    """Ranked probability skill score (climatology of the fold) of scorer output.

    >>> from skbrier._ordinal_scorers import (
    ...     _ranked_probability_skill_score_for_scorer as f)
    >>> f([0, 1, 2], [[.8, .1, .1], [.1, .8, .1], [.1, .1, .8]])
    0.91
    """
    return ranked_probability_skill_score(
        y_true,
        _ordered_columns(y_true, y_proba, labels),
        labels=labels,
        sample_weight=sample_weight,
    )


def make_ranked_probability_score_scorer(
    *, labels: ArrayLike | None = None, normalize: bool = False, skill: bool = False
) -> Callable:
    r"""Make a scorer of the ranked probability score (ordinal classes).

    The negated score (greater is better), or with ``skill=True`` the skill
    score against the climatology of each test fold.

    Parameters
    ----------
    labels : array-like, default=None
        The classes in their order (lowest first).  The scorer puts the
        columns of ``predict_proba`` (which follow the sorted classes) in this
        order.  None: the sorted classes are the order (integer grades
        0, 1, 2, ...); a test fold must then hold every class.
    normalize : bool, default=False
        Divide by :math:`K - 1` (see
        :func:`~skbrier.metrics.ranked.ranked_probability_score`).
    skill : bool, default=False
        Score the skill :math:`1 - \mathrm{RPS} / \mathrm{RPS}_\mathrm{clim}`
        instead (``normalize`` does not change it).

    Returns
    -------
    scorer : callable
        A :func:`sklearn.metrics.make_scorer` object using ``predict_proba``.

    Raises
    ------
    TypeError
        For a non-boolean ``normalize`` or ``skill``.

    See Also
    --------
    skbrier.metrics.ranked.ranked_probability_score : the metric.

    Examples
    --------
    >>> from skbrier.scorers import make_ranked_probability_score_scorer
    >>> make_ranked_probability_score_scorer(labels=["low", "mid", "high"])
    make_scorer(_ranked_probability_score_for_scorer, greater_is_better=False,
                response_method='predict_proba', labels=['low', 'mid', 'high'])
    """
    normalize = check_bool(normalize, "normalize")
    skill = check_bool(skill, "skill")
    labels = check_labels(labels)
    opts: dict[str, Any] = {} if labels is None else {"labels": labels}
    if skill:
        return make_scorer(
            _ranked_probability_skill_score_for_scorer,
            response_method="predict_proba",
            greater_is_better=True,
            **opts,
        )
    if normalize:
        opts["normalize"] = True
    return make_scorer(
        _ranked_probability_score_for_scorer,
        response_method="predict_proba",
        greater_is_better=False,
        **opts,
    )
