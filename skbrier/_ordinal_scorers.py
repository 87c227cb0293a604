"""Scorers of the ranked probability score (ordinal classes), re-exported by
:mod:`skbrier.scorers` (whose ``SCORER_TABLE`` holds their two declarations).

``predict_proba``'s columns follow the sorted classes (``estimator.classes_``);
the scorers put them in the order of ``labels`` first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._core.docstrings import with_pieces
from ._core.params import check_bool
from ._response import check_labels, scorer_pos_label
from ._scorer_table import SCORER_PIECES, ScorerSpec, score_function
from .metrics.ranked import ranked_probability_score, ranked_probability_skill_score

__all__ = [
    "RANKED_PROBABILITY_SCORE",
    "RANKED_PROBABILITY_SKILL_SCORE",
    "make_ranked_probability_score_scorer",
]


def _ordered_columns(
    y_true: Any, y_proba: ArrayLike, options: dict[str, Any]
) -> tuple[Any, dict[str, Any]]:
    """Preparation: ``predict_proba`` output with its columns in the order of ``labels``.

    Its columns follow the sorted classes (``estimator.classes_``); a binary
    classifier's 1-D probability of the larger class becomes the two columns
    ``(1 - p, p)``.
    """
    p = np.asarray(y_proba)
    labels = options.get("labels")
    if p.ndim == 1:
        if labels is None:  # a one-class fold of string labels raises
            scorer_pos_label(y_true, p, None)
        p = np.column_stack([1.0 - p, p])
    if labels is None:
        return p, options
    order = np.asarray(labels)
    if p.shape[1] != order.shape[0]:
        raise ValueError(
            f"labels names {order.shape[0]} classes but predict_proba has "
            f"{p.shape[1]} columns: the estimator was fitted on data without every "
            "class of labels. Fit it on data holding every class (e.g. split with "
            "StratifiedKFold)."
        )
    return p[:, np.searchsorted(np.sort(order), order)], options


_ranked_probability_score_for_scorer = score_function(
    "_ranked_probability_score_for_scorer",
    ranked_probability_score,
    module=__name__,
    prepare=_ordered_columns,
    doc="""Ranked probability score of scorer output (columns put in the order of ``labels``).

    >>> from skbrier._ordinal_scorers import _ranked_probability_score_for_scorer as f
    >>> f(
    ...     ["high", "low"], [[0.9, 0.1], [0.2, 0.8]], labels=["low", "high"])
    0.025
    """,
)
_ranked_probability_skill_score_for_scorer = score_function(
    "_ranked_probability_skill_score_for_scorer",
    ranked_probability_skill_score,
    module=__name__,
    prepare=_ordered_columns,
    shown=("labels",),
    doc="""Ranked probability skill score (climatology of the fold) of scorer output.

    >>> from skbrier._ordinal_scorers import (
    ...     _ranked_probability_skill_score_for_scorer as f)
    >>> f([0, 1, 2], [[.8, .1, .1], [.1, .8, .1], [.1, .1, .8]])
    0.91
    """,
)

#: the declarations of the two ordinal scorers (in ``skbrier.scorers.SCORER_TABLE``)
RANKED_PROBABILITY_SCORE = ScorerSpec(
    "neg_ranked_probability_score", _ranked_probability_score_for_scorer, False
)
RANKED_PROBABILITY_SKILL_SCORE = ScorerSpec(
    "ranked_probability_skill_score", _ranked_probability_skill_score_for_scorer
)


@with_pieces(SCORER_PIECES)
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

    {{scorer_returns}}

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
    if skill:
        return RANKED_PROBABILITY_SKILL_SCORE.build(labels=labels)
    return RANKED_PROBABILITY_SCORE.build(labels=labels, normalize=normalize or None)
