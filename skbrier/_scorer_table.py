"""The one mechanism behind skbrier's scorers: declared score functions and specs.

A scorer is declared once, as a :class:`ScorerSpec` (name, score function,
direction, response method, fixed options); :meth:`ScorerSpec.build` is the
one factory that turns it into a :func:`sklearn.metrics.make_scorer` object,
and :func:`registry` builds the named scorers of a table.  A score function is
made by :func:`score_function` from a public metric and a *preparation* step
(what scikit-learn's scorer output needs before the metric sees it), so no
adapter repeats its metric's signature.

What scikit-learn needs of a score function, kept here once:

* a module-level, named callable: scorers pickle by reference into joblib
  workers, and ``repr(scorer)`` shows the function's name;
* ``sample_weight`` in its signature: metadata routing builds a scorer's
  requests from that signature, and without routing the multimetric scorer
  passes weights only to functions that name it;
* the metric's options in its signature: ``LogisticRegressionCV`` rebuilds
  a scorer whose function names ``labels`` with the classes of the data (and
  ``pos_label``), so that a test fold missing a class is still scored, and
  scikit-learn reads the default ``pos_label`` there;
* a second parameter named ``y_proba``, which routing never treats as
  metadata.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import get_scorer_names as _sklearn_get_scorer_names
from sklearn.metrics import make_scorer

from ._response import hard_label_decisions, scorer_pos_label
from ._sklearn_registration import fitted_classes_scorer

__all__ = [
    "SCORER_PIECES",
    "ScorerSpec",
    "as_given",
    "decisions_or_pos_label",
    "infer_pos_label",
    "registry",
    "score_function",
]

#: the descriptions the scorer factories share (``with_pieces(SCORER_PIECES)``)
SCORER_PIECES = {
    "scorer_returns": """\
Returns
-------
scorer : callable
    A :func:`sklearn.metrics.make_scorer` object using ``predict_proba``.""",
    "scorer_pos_label": """\
pos_label : label, default=None
    For binary classifiers, the class whose probability is scored
    (``None``: ``predict_proba(X)[:, 1]``).""",
    "scorer_labels": """\
labels : array-like, default=None
    For multiclass classifiers, all classes.""",
}

#: ``prepare(y_true, y_proba, options) -> (y_proba, options)``
Prepare = Callable[[Any, Any, dict[str, Any]], tuple[Any, dict[str, Any]]]


def as_given(
    y_true: Any, y_proba: Any, options: dict[str, Any]
) -> tuple[Any, dict[str, Any]]:
    """Preparation that changes nothing (the function validates its input itself).

    Examples
    --------
    >>> as_given([0, 1], [0.2, 0.9], {"labels": None})
    ([0.2, 0.9], {'labels': None})
    """
    return y_proba, options


def infer_pos_label(
    y_true: Any, y_proba: Any, options: dict[str, Any]
) -> tuple[Any, dict[str, Any]]:
    """Preparation: ``pos_label`` of a 1-D ``y_proba`` as scikit-learn's scorers pick it.

    Examples
    --------
    >>> infer_pos_label(["no", "yes"], [0.2, 0.9], {})[1]["pos_label"] == "yes"
    True
    """
    pos_label = scorer_pos_label(y_true, y_proba, options.get("pos_label"))
    return y_proba, {**options, "pos_label": pos_label}


def decisions_or_pos_label(
    y_true: Any, y_proba: Any, options: dict[str, Any]
) -> tuple[Any, dict[str, Any]]:
    """Preparation of decision scores: thresholded class labels become 0/1 decisions.

    :class:`~sklearn.model_selection.TunedThresholdClassifierCV` passes class
    labels predicted with its own threshold, a plain scorer probabilities
    (then as :func:`infer_pos_label`).

    Examples
    --------
    >>> decisions_or_pos_label(["a", "b"], ["b", "b"], {})[0].tolist()
    [1.0, 1.0]
    """
    if np.ndim(y_proba) == 2:
        k = np.shape(y_proba)[1]
        raise ValueError(
            "net benefit scores binary classifiers: it needs the 1-D probability "
            f"of the event, but the estimator's predict_proba gave {k} columns "
            "(a multiclass or multilabel classifier). For one class against the "
            "rest, fit a binary classifier on y == that_class."
        )
    decided = hard_label_decisions(y_true, y_proba, options.get("pos_label"))
    if decided is None:
        return infer_pos_label(y_true, y_proba, options)
    y_proba, pos_label = decided
    return y_proba, {**options, "pos_label": pos_label}


def score_function(
    name: str,
    metric: Callable[..., float],
    *,
    module: str,
    prepare: Prepare = infer_pos_label,
    shown: tuple[str, ...] | None = None,
    doc: str | None = None,
) -> Callable[..., float]:
    """A named score function for :func:`sklearn.metrics.make_scorer`.

    ``f(y_true, y_proba, *, sample_weight=None, **options)`` prepares the
    scorer output with ``prepare`` and returns ``metric(y_true, y_proba,
    sample_weight=sample_weight, **options)``.  Its signature shows the
    metric's options named by ``shown`` (see the module docstring).

    Parameters
    ----------
    name : str
        The name the function is bound to in ``module`` (it pickles by
        reference under ``module.name``, and scorer reprs show it).
    metric : callable
        The public metric, ``metric(y_true, y_proba, *, sample_weight, **options)``.
    module : str
        The module that binds the function to ``name`` (its ``__name__``).
    prepare : callable, default=infer_pos_label
        ``prepare(y_true, y_proba, options) -> (y_proba, options)``.
    shown : tuple of str, default=None
        The options of ``metric`` the signature shows (None: all its
        keyword-only parameters).
    doc : str, default=None
        The docstring.

    Returns
    -------
    callable
        The score function.

    Examples
    --------
    >>> from skbrier.metrics import brier_score
    >>> f = score_function("f", brier_score, module=__name__)
    >>> f(["no", "yes"], [0.25, 0.5])
    0.15625
    >>> import inspect
    >>> list(inspect.signature(f).parameters)
    ['y_true', 'y_proba', 'sample_weight', 'labels', 'pos_label', 'scale_by_half', 'options']
    """

    def score(
        y_true: ArrayLike,
        y_proba: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        **options: Any,
    ) -> float:
        y_proba, options = prepare(y_true, y_proba, options)
        return metric(y_true, y_proba, sample_weight=sample_weight, **options)

    score.__name__ = score.__qualname__ = name
    score.__module__ = module
    score.__doc__ = doc
    score.__signature__ = _signature(score, metric, shown)  # type: ignore[attr-defined]
    # every option the metric takes, shown or not: what a scorer may fill in
    # from the fitted estimator (FittedClassesScorer)
    score.accepts = frozenset(inspect.signature(metric).parameters)  # type: ignore[attr-defined]
    return score


def _signature(
    score: Callable[..., float], metric: Callable[..., float], shown: tuple[str, ...] | None
) -> inspect.Signature:
    """``score``'s signature with the options ``shown`` of ``metric`` before ``**options``."""
    own = inspect.signature(score)
    *head, rest = own.parameters.values()
    options = inspect.signature(metric).parameters
    if shown is None:
        shown = tuple(
            n
            for n, p in options.items()
            if p.kind is p.KEYWORD_ONLY and n not in own.parameters
        )
    extra = [options[n].replace(kind=inspect.Parameter.KEYWORD_ONLY) for n in shown]
    return own.replace(parameters=[*head, *extra, rest])


def _set(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that were set (None means the score function's default)."""
    return {k: v for k, v in options.items() if v is not None}


@dataclasses.dataclass(frozen=True)
class ScorerSpec:
    """One scorer, declared once.

    Parameters
    ----------
    name : str
        The scoring name.
    score_func : callable
        A module-level score function (see :func:`score_function`).
    greater_is_better : bool, default=True
        False for losses (the scorer negates them).
    options : mapping, default={}
        Options of the named scorer, passed to ``score_func``.
    response_method : str, default="predict_proba"
        The estimator method whose output is scored.
    defer_to_sklearn : bool, default=False
        A name scikit-learn defines or will define: skbrier's scorer serves
        it only while the installed scikit-learn lacks it.

    Examples
    --------
    >>> from skbrier.scorers import SCORER_TABLE
    >>> SCORER_TABLE[0].build(labels=[0, 1, 2], pos_label=None)
    make_scorer(brier_index_score, response_method='predict_proba', labels=[0, 1, 2])
    """

    name: str
    score_func: Callable[..., float]
    greater_is_better: bool = True
    options: Mapping[str, Any] = dataclasses.field(
        default_factory=lambda: MappingProxyType({})
    )
    response_method: str = "predict_proba"
    defer_to_sklearn: bool = False

    def build(self, **options: Any) -> Any:
        """The scorer, with ``options`` (those not None) after the declared ones.

        Parameters
        ----------
        **options
            Checked options of the factory; None keeps the default.

        Returns
        -------
        scorer : callable
            A new :func:`sklearn.metrics.make_scorer` object that reads the
            fitted ``estimator.classes_`` where it names no ``labels`` or
            ``pos_label`` (a test fold may lack a class).
        """
        scorer = make_scorer(
            self.score_func,
            response_method=self.response_method,
            greater_is_better=self.greater_is_better,
            **{**self.options, **_set(options)},
        )
        return fitted_classes_scorer(scorer)


def registry(table: tuple[ScorerSpec, ...]) -> dict[str, Any]:
    """The named scorers of ``table``, each a new object.

    A name with ``defer_to_sklearn`` is left out when the installed
    scikit-learn defines it (its own scorer then serves).

    Examples
    --------
    >>> from skbrier.scorers import SCORER_TABLE
    >>> "brier_index" in registry(SCORER_TABLE)
    True
    """
    sklearn_names = set(_sklearn_get_scorer_names())
    return {
        spec.name: spec.build()
        for spec in table
        if not (spec.defer_to_sklearn and spec.name in sklearn_names)
    }
