"""scikit-learn scorers for the Brier Index, the Brier skill score and net benefit.

Every scorer here is an ordinary :func:`sklearn.metrics.make_scorer` object
with ``response_method="predict_proba"``, so scikit-learn's multimetric
evaluation calls ``predict_proba`` once per fold for all of them together
(and for built-in probability scorers such as ``"neg_log_loss"``).  This
module uses only public scikit-learn API; registering the names with
scikit-learn's ``scoring="..."`` strings is done separately by
``skbrier._sklearn_registration``.

**What the scorers receive from scikit-learn.**

* Binary classifiers: the 1-D probability of the class ``pos_label`` if the
  scorer was made with one, otherwise of ``estimator.classes_[1]`` (the
  column ``predict_proba(X)[:, 1]``, the larger label).  The scorers here
  take that class from the fitted ``estimator.classes_``, so string labels
  and test folds of one class work without ``pos_label`` (scikit-learn's own
  ``"neg_brier_score"`` fails on both).
* Multiclass classifiers: the full ``predict_proba`` matrix, whose columns
  follow the sorted classes.  The Brier Index is on the [0, 1] scale (the
  summed score divided by 2).  The scorers name the columns by the fitted
  ``estimator.classes_``, so a test fold that lacks a class is scored (its
  ``labels=`` given to a factory wins; called directly on ``y_true`` and
  ``y_proba`` the score functions infer the classes from ``y_true``).  A
  test fold holding a class the estimator was not fitted on (its training
  fold lacked it) is scored with probability 0 for that class, as
  ``cross_val_predict`` pads ``predict_proba``, and a warning names it.

The scorers are :class:`skbrier._sklearn_registration.FittedClassesScorer`
objects: scikit-learn's ``make_scorer`` objects with that one addition.

**Sample weights (metadata routing).**
Like scikit-learn's own scorers, these request nothing: with
``sklearn.set_config(enable_metadata_routing=True)``, passing
``sample_weight`` to ``fit`` of a search or to ``cross_validate(...,
params=...)`` raises ``UnsetMetadataPassedError`` until the scorer requests
it.  A *name* cannot request anything, so get the scorer object by that name
and request the weights on it::

    scoring = get_scorer("brier_index").set_score_request(sample_weight=True)

(:func:`sklearn.metrics.get_scorer` works the same for the registered names;
both return a new copy, so the request changes neither the name nor any other
scorer).  The factories (``make_brier_index_scorer(...)``) return new objects
too; the module-level ``brier_index_scorer`` and its siblings are shared
objects, and ``set_score_request`` changes them in place.

**A scikit-learn pitfall (1.5 to 1.9).**
In one multimetric evaluation (``scoring=[...]`` or ``{...}``) scikit-learn
caches ``predict_proba`` per fold under the method name only, and hands the
column selected for the *first* scorer to every other scorer, whatever its
``pos_label``.  Scorers with a non-default ``pos_label`` must therefore not
be mixed with scorers of another ``pos_label`` (including the default) in
one ``scoring``: evaluate them in a separate call.
"""

from __future__ import annotations

import copy
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import get_scorer as _sklearn_get_scorer
from sklearn.metrics import get_scorer_names as _sklearn_get_scorer_names

from ._core.docstrings import shared_doc, with_pieces
from ._core.validation import check_scalar_probability
from ._ordinal_scorers import (
    RANKED_PROBABILITY_SCORE,
    RANKED_PROBABILITY_SKILL_SCORE,
    make_ranked_probability_score_scorer,
)
from ._response import check_labels, check_pos_label
from ._scorer_table import (
    SCORER_PIECES,
    ScorerSpec,
    decisions_or_pos_label,
    registry,
    score_function,
)
from .metrics.brier import brier_index, brier_score, brier_skill_score
from .metrics.calibration_error import calibration_error, smooth_calibration_error
from .metrics.net_benefit import net_benefit

__all__ = [
    "SCORER_NAMES",
    "brier_index_scorer",
    "brier_skill_score_scorer",
    "get_scorer",
    "get_scorer_names",
    "make_brier_index_scorer",
    "make_brier_score_scorer",
    "make_brier_skill_score_scorer",
    "make_net_benefit_scorer",
    "make_ranked_probability_score_scorer",
    "net_benefit_scorer",
]

#: scikit-learn's coming names of binary calibration errors (pull request
#: 34261), with the options of each: skbrier defines them only while the
#: installed scikit-learn lacks them (then scikit-learn's own scorers serve).
SKLEARN_CALIBRATION_SCORERS: dict[str, dict[str, Any]] = {
    "neg_l1_calibration_error": {"norm": "l1"},
    "neg_l2_calibration_error": {"norm": "l2"},
    "neg_l2_squared_calibration_error": {"norm": "l2", "squared": True},
    "neg_max_calibration_error": {"norm": "max"},
}


# --------------------------------------------------------------------------- helpers
def _check_scale_by_half(scale_by_half: Any) -> Any:
    if isinstance(scale_by_half, str) and scale_by_half == "auto":
        return "auto"
    if isinstance(scale_by_half, (bool, np.bool_)):
        return bool(scale_by_half)
    exc = ValueError if isinstance(scale_by_half, str) else TypeError
    raise exc(f"scale_by_half must be True, False or 'auto', got {scale_by_half!r}.")


# ------------------------------------------------------------------------ score functions
# Module-level functions made by ``score_function`` (see skbrier._scorer_table):
# they pickle by reference and name ``sample_weight`` for metadata routing.
brier_index_score = score_function(
    "brier_index_score",
    brier_index,
    module=__name__,
    doc="""Brier Index of scorer output: :func:`~skbrier.metrics.brier.brier_index`
    with ``pos_label`` inferred as scikit-learn's scorers choose the column.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of the test fold.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        What the scorer passes: the 1-D probability of ``pos_label`` (or of
        ``classes_[1]``) for binary classifiers, the full matrix otherwise.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights (routed with ``set_score_request(sample_weight=True)``).
    labels : array-like, default=None
        Classes of the columns of a 2-D ``y_proba``.
    pos_label : label, default=None
        Class whose probability a 1-D ``y_proba`` holds; ``None`` means the
        larger of the labels, as ``predict_proba(X)[:, 1]``.
    **options
        Passed to :func:`brier_index` (none other than those above).

    Returns
    -------
    float
        The Brier Index in [0, 100] (higher is better).

    Raises
    ------
    ValueError
        If ``pos_label`` is None, ``y_proba`` is 1-D and ``y_true`` holds a
        single label other than 0, 1 or -1 (the column cannot be identified),
        and for every invalid input :func:`brier_index` rejects.

    See Also
    --------
    skbrier.metrics.brier.brier_index : the metric itself.
    make_brier_index_scorer : the scorer built on this function.

    Examples
    --------
    >>> from skbrier.scorers import brier_index_score
    >>> brier_index_score(["no", "yes", "yes"], [0.2, 0.9, 0.6])
    73.54...
    """,
)
_brier_skill_score_for_scorer = score_function(
    "_brier_skill_score_for_scorer",
    brier_skill_score,
    module=__name__,
    doc="""Brier skill score of scorer output (``pos_label`` inferred as for scorers).

    >>> _brier_skill_score_for_scorer(["a", "a", "b", "b"], [0.1, 0.2, 0.7, 0.9])
    0.85
    """,
)
_brier_score_for_scorer = score_function(
    "_brier_score_for_scorer",
    brier_score,
    module=__name__,
    doc="""Brier score of scorer output (``pos_label`` inferred as for scorers).

    >>> _brier_score_for_scorer(["ham", "spam"], [0.25, 0.5])
    0.15625
    """,
)
_net_benefit_for_scorer = score_function(
    "_net_benefit_for_scorer",
    net_benefit,
    module=__name__,
    prepare=decisions_or_pos_label,
    doc="""Net benefit of scorer output: probabilities or thresholded class labels.

    A plain scorer passes the probability of the positive class (treated
    when at least ``threshold``);
    :class:`~sklearn.model_selection.TunedThresholdClassifierCV` passes class
    labels predicted with its own threshold: then the samples predicted
    positive are treated and ``threshold`` only sets the exchange rate
    :math:`p_t / (1 - p_t)`.

    >>> y = ["no", "yes", "yes", "no"]
    >>> _net_benefit_for_scorer(y, [0.1, 0.8, 0.6, 0.7], threshold=0.5)
    0.25
    >>> _net_benefit_for_scorer(y, ["no", "yes", "yes", "yes"], threshold=0.5)
    0.25
    """,
)
# ``pos_label`` inferred as for the other scorers; binary classifiers get the
# binary error, multiclass ones the top-label error.  No ``labels`` shown:
# LogisticRegressionCV would pass its classes.
_CALIBRATION_EXAMPLES: dict[Callable[..., float], str] = {
    calibration_error: """
    >>> _calibration_error_for_scorer(["ham", "spam"], [0.25, 0.75], n_bins=2)
    0.25
    """,
    smooth_calibration_error: """
    >>> round(_smooth_calibration_error_for_scorer([0, 1, 1], [0.2, 0.9, 0.6]), 3)
    0.184
    """,
}
_calibration_error_for_scorer, _smooth_calibration_error_for_scorer = (
    score_function(
        f"_{metric.__name__}_for_scorer",
        metric,
        module=__name__,
        shown=("pos_label",),
        doc=f":func:`~skbrier.metrics.calibration_error.{metric.__name__}` of scorer "
        f"output.\n{example}",
    )
    for metric, example in _CALIBRATION_EXAMPLES.items()
)

#: Every scorer of skbrier, declared once (the ordinal ones in
#: ``skbrier._ordinal_scorers``); the names skbrier registers are built from it.
SCORER_TABLE: tuple[ScorerSpec, ...] = (
    ScorerSpec("brier_index", brier_index_score),
    ScorerSpec("brier_skill_score", _brier_skill_score_for_scorer),
    ScorerSpec("net_benefit", _net_benefit_for_scorer, options={"threshold": 0.5}),
    ScorerSpec("neg_calibration_error", _calibration_error_for_scorer, False),
    RANKED_PROBABILITY_SCORE,
    ScorerSpec("neg_smooth_calibration_error", _smooth_calibration_error_for_scorer, False),
    RANKED_PROBABILITY_SKILL_SCORE,
    # scikit-learn's own names: skbrier's scorers serve while it lacks them
    ScorerSpec("neg_brier_score", _brier_score_for_scorer, False, defer_to_sklearn=True),
    *(
        # binary, calibration_curve's 10 uniform bins (binning="sklearn")
        ScorerSpec(
            name,
            _calibration_error_for_scorer,
            False,
            options={"kind": "binary", "binning": "sklearn", "n_bins": 10, **opts},
            defer_to_sklearn=True,
        )
        for name, opts in SKLEARN_CALIBRATION_SCORERS.items()
    ),
)
_SPEC = {spec.name: spec for spec in SCORER_TABLE}


# --------------------------------------------------------------------------- factories
@shared_doc
def make_brier_index_scorer(
    *, pos_label: Any = None, labels: ArrayLike | None = None
) -> Callable:
    r"""Make a scorer for the Brier Index (greater is better).

    Parameters
    ----------
    pos_label : label, default=None
        For binary classifiers, the class whose probability is scored.
        ``None`` scores ``predict_proba(X)[:, 1]``, the larger label, which
        gives the same Brier Index as any other choice (the binary Brier
        score is symmetric in the two classes).
    labels : array-like, default=None
        For multiclass classifiers, all classes (``estimator.classes_``), so
        that a test fold missing a class can still be scored.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y_true, **metadata)``, a
        :func:`sklearn.metrics.make_scorer` object using ``predict_proba``.

    See Also
    --------
    skbrier.metrics.brier.brier_index : the metric.
    skbrier.scorers.get_scorer : the registered scorers by name.

    Notes
    -----
    :math:`\mathrm{BI} = 100 (1 - \sqrt{\mathrm{BS}_{[0,1]}})` per test fold.
    Averaging fold indices (as ``GridSearchCV`` does) is slightly biased
    upwards because the square root is concave; it ranks candidates like
    the mean Brier score in almost every case but not always.  For the
    Brier Index of all out-of-fold predictions together, pass
    ``scoring=pooled_scoring()`` and ``refit=pooled_refit()``
    (:func:`skbrier.model_selection.pooled_scoring`); no scorer name can do
    this, because a scorer sees one test fold at a time.

    References
    ----------
    {{brier_index_reference}}

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from skbrier.scorers import make_brier_index_scorer
    >>> X, y = make_classification(random_state=0)
    >>> scores = cross_val_score(LogisticRegression(), X, y,
    ...                          scoring=make_brier_index_scorer())
    >>> bool(((scores > 50) & (scores <= 100)).all())
    True
    """
    labels = check_labels(labels)
    pos_label = check_pos_label(pos_label)
    return _SPEC["brier_index"].build(pos_label=pos_label, labels=labels)


@with_pieces(SCORER_PIECES)
def make_brier_skill_score_scorer(
    reference: float | None = None,
    *,
    pos_label: Any = None,
    labels: ArrayLike | None = None,
) -> Callable:
    r"""Make a scorer for the Brier skill score (greater is better).

    Parameters
    ----------
    reference : float or None, default=None
        ``None``: climatology, the base rate of each test fold (the score then
        equals :func:`sklearn.metrics.d2_brier_score`).  A float in [0, 1]:
        the constant binary forecast ``reference`` (a fixed base rate, for
        example the prevalence in the training population).  Arrays of
        reference forecasts cannot follow the CV folds; compute those skill
        scores with :func:`~skbrier.metrics.brier.brier_skill_score`.
    {{scorer_pos_label}}
    {{scorer_labels}}

    {{scorer_returns}}

    Raises
    ------
    TypeError
        If ``reference`` is not None or a real number.
    ValueError
        If ``reference`` lies outside [0, 1].

    See Also
    --------
    skbrier.metrics.brier.brier_skill_score : the metric.

    Notes
    -----
    :math:`\mathrm{BSS} = 1 - \mathrm{BS} / \mathrm{BS}_\mathrm{ref}`.

    Examples
    --------
    >>> from skbrier.scorers import make_brier_skill_score_scorer
    >>> make_brier_skill_score_scorer(0.2)
    make_scorer(_brier_skill_score_for_scorer, response_method='predict_proba',
                reference=0.2)
    """
    if reference is not None:
        if not isinstance(reference, numbers.Real) or isinstance(reference, bool):
            raise TypeError(
                "reference must be None or a float (a constant forecast) for a "
                f"scorer; got {type(reference).__name__}. Arrays of reference "
                "forecasts do not follow the CV folds."
            )
        reference = check_scalar_probability(reference, name="reference")
    labels = check_labels(labels)
    pos_label = check_pos_label(pos_label)
    return _SPEC["brier_skill_score"].build(
        reference=reference, pos_label=pos_label, labels=labels
    )


@with_pieces(SCORER_PIECES)
def make_brier_score_scorer(
    *,
    pos_label: Any = None,
    labels: ArrayLike | None = None,
    scale_by_half: Any = "auto",
) -> Callable:
    """Make a negated Brier score scorer (like ``"neg_brier_score"``, greater is better).

    Unlike scikit-learn's ``"neg_brier_score"``, it scores binary
    classifiers with string labels (it returns ``nan`` there) and
    multiclass classifiers on scikit-learn < 1.7.

    Parameters
    ----------
    {{scorer_pos_label}}
    {{scorer_labels}}
    scale_by_half : bool or "auto", default="auto"
        As in :func:`~skbrier.metrics.brier.brier_score`.

    Returns
    -------
    scorer : callable
        A :func:`sklearn.metrics.make_scorer` object returning ``-BS``.

    See Also
    --------
    skbrier.metrics.brier.brier_score

    Examples
    --------
    >>> from skbrier.scorers import make_brier_score_scorer
    >>> make_brier_score_scorer()
    make_scorer(_brier_score_for_scorer, greater_is_better=False,
                response_method='predict_proba')
    """
    labels = check_labels(labels)
    pos_label = check_pos_label(pos_label)
    scale_by_half = _check_scale_by_half(scale_by_half)
    return _SPEC["neg_brier_score"].build(
        pos_label=pos_label,
        labels=labels,
        scale_by_half=None if scale_by_half == "auto" else scale_by_half,
    )


@with_pieces(SCORER_PIECES)
def make_net_benefit_scorer(
    threshold: float, *, pos_label: Any = None, prevalence: float | None = None
) -> Callable:
    r"""Make a net benefit scorer at threshold probability ``threshold``.

    Scoring a classifier: samples with ``predict_proba >= threshold`` are
    treated.  Passed to
    :class:`~sklearn.model_selection.TunedThresholdClassifierCV` as
    ``scoring``, it tunes the decision threshold for the clinical utility
    whose exchange rate is :math:`p_t/(1 - p_t)`: for a well calibrated
    model the tuned threshold is close to ``threshold`` itself.

    Parameters
    ----------
    threshold : float
        Threshold probability :math:`p_t`, strictly between 0 and 1.
    pos_label : label, default=None
        The event class.  ``None``: ``classes_[1]`` (the larger label, the
        column ``predict_proba(X)[:, 1]``).
    prevalence : float, default=None
        Population prevalence for case-control samples (see
        :func:`~skbrier.metrics.net_benefit.net_benefit`).

    {{scorer_returns}}

    Raises
    ------
    TypeError
        If ``threshold`` is not a real number.
    ValueError
        If ``threshold`` (or ``prevalence``) is not strictly between 0 and 1.

    See Also
    --------
    skbrier.metrics.net_benefit.net_benefit : the metric.

    Notes
    -----
    :math:`\mathrm{NB}(p_t) = TP/n - FP/n \cdot p_t/(1 - p_t)`.  The
    registered name ``"net_benefit"`` is this scorer at ``threshold=0.5``,
    the threshold of ``predict`` (up to ties: ``predict`` of most
    classifiers needs a probability strictly above 0.5).  Net benefit is
    binary only.

    References
    ----------
    .. [1] Vickers AJ, Elkin EB. Decision curve analysis: a novel method for
       evaluating prediction models. Med Decis Making 2006;26:565-574.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import TunedThresholdClassifierCV
    >>> from skbrier.scorers import make_net_benefit_scorer
    >>> X, y = make_classification(random_state=0)
    >>> tuned = TunedThresholdClassifierCV(
    ...     LogisticRegression(), scoring=make_net_benefit_scorer(0.2)).fit(X, y)
    >>> bool(0 < tuned.best_threshold_ < 1)
    True
    """
    threshold = check_scalar_probability(threshold, name="threshold", open_interval=True)
    pos_label = check_pos_label(pos_label)
    if prevalence is not None:
        prevalence = check_scalar_probability(
            prevalence, name="prevalence", open_interval=True
        )
    return _SPEC["net_benefit"].build(
        threshold=threshold, pos_label=pos_label, prevalence=prevalence
    )


# --------------------------------------------------------------------------- registry
#: Brier Index scorer of ``scoring="brier_index"``.
brier_index_scorer = make_brier_index_scorer()
#: Brier skill score (climatology reference) of ``scoring="brier_skill_score"``.
brier_skill_score_scorer = make_brier_skill_score_scorer()
#: Net benefit at threshold 0.5 of ``scoring="net_benefit"``.
net_benefit_scorer = make_net_benefit_scorer(0.5)


#: The scorers behind the names: objects of their own, so that
#: ``brier_index_scorer.set_score_request(...)`` (which changes the object in
#: place) never changes what ``scoring="brier_index"`` requests.
_SKBRIER_SCORERS: dict[str, Callable] = registry(SCORER_TABLE)
#: The scoring names skbrier adds (registered with scikit-learn on import).
SCORER_NAMES: tuple[str, ...] = tuple(_SKBRIER_SCORERS)


def get_scorer(scoring: Any) -> Any:
    """Get a scorer by name: skbrier's names first, then scikit-learn's.

    Works whether or not the names could be registered with scikit-learn,
    so ``scoring=skbrier.scorers.get_scorer("brier_index")`` is the robust spelling
    of ``scoring="brier_index"``.

    Parameters
    ----------
    scoring : str, callable or None
        A skbrier name (see :func:`get_scorer_names`), any name
        :func:`sklearn.metrics.get_scorer` knows, a scorer callable or None
        (returned as they are).

    Returns
    -------
    scorer : callable or None
        A new copy of the scorer for names, as scikit-learn does.

    Raises
    ------
    ValueError
        For an unknown name.

    See Also
    --------
    get_scorer_names
    sklearn.metrics.get_scorer

    Notes
    -----
    Under metadata routing a scoring *name* cannot request ``sample_weight``:
    request it on the copy this function returns,
    ``get_scorer(name).set_score_request(sample_weight=True)``, and pass that
    object as ``scoring`` (or as a value of a multi-metric dict).

    Examples
    --------
    >>> from skbrier.scorers import get_scorer
    >>> get_scorer("brier_index")
    make_scorer(brier_index_score, response_method='predict_proba')
    >>> get_scorer("neg_log_loss")
    make_scorer(log_loss, greater_is_better=False, response_method='predict_proba')

    Weighted scores under metadata routing:

    >>> import sklearn
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     scorer = get_scorer("brier_index").set_score_request(sample_weight=True)
    ...     scorer.get_metadata_routing().score.requests["sample_weight"]
    True
    """
    if isinstance(scoring, str) and scoring in _SKBRIER_SCORERS:
        return copy.deepcopy(_SKBRIER_SCORERS[scoring])
    try:
        return _sklearn_get_scorer(scoring)
    except ValueError:
        if isinstance(scoring, str):
            raise ValueError(_unknown_name_message(scoring)) from None
        raise


def _unknown_name_message(scoring: str) -> str:
    """Why a scoring name is unknown, with the closest names and the pooled tools."""
    import difflib

    msg = (
        f"scoring={scoring!r} is not a valid scoring name. Use "
        "skbrier.scorers.get_scorer_names() to list the valid names."
    )
    if "pooled" in scoring.lower():
        return msg + (
            " There is no pooled scorer name: a scorer sees one test fold at a "
            "time, so no scoring string can give the Brier Index of all "
            "out-of-fold predictions. Pass scoring=skbrier.pooled_scoring() and "
            "refit=skbrier.pooled_refit() to the search instead."
        )
    close = difflib.get_close_matches(scoring, get_scorer_names(), n=3, cutoff=0.75)
    if close:
        msg += " Did you mean " + " or ".join(repr(c) for c in close) + "?"
    return msg


def get_scorer_names() -> list[str]:
    """Names accepted by :func:`get_scorer`: skbrier's and scikit-learn's, sorted.

    Returns
    -------
    list of str

    See Also
    --------
    get_scorer
    sklearn.metrics.get_scorer_names

    Examples
    --------
    >>> from skbrier.scorers import get_scorer_names
    >>> names = get_scorer_names()
    >>> "brier_index" in names and "neg_log_loss" in names
    True
    """
    return sorted(set(_SKBRIER_SCORERS) | set(_sklearn_get_scorer_names()))
