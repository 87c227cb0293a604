"""Register skbrier's scorer names with scikit-learn's ``scoring="..."`` strings.

This is the ONLY module of skbrier that touches private scikit-learn
internals.  scikit-learn has no public API to add scoring names (RFC #17168
was closed), so ``scoring="brier_index"`` needs two private steps:

1. add the scorer objects to ``sklearn.metrics._scorer._SCORERS``, the dict
   behind :func:`sklearn.metrics.get_scorer`;
2. extend the ``StrOptions`` name sets against which public entry points
   validate ``scoring`` (``check_scoring``, ``cross_validate``,
   ``cross_val_score``, ``GridSearchCV``, ``TunedThresholdClassifierCV``,
   ``LogisticRegressionCV``, ``permutation_importance``, ...).  scikit-learn
   1.5 to 1.9 build each of them as ``StrOptions(set(get_scorer_names()))``
   when their module is imported: a separate copy of the names of that
   moment, stored in a class's ``_parameter_constraints`` (shared by
   subclasses that copy the dict) or on a ``validate_params`` wrapper
   (``func._skl_parameter_constraints``).

Step 2 walks every already imported module for those constraint dicts and
adds the names, in place, to each ``StrOptions`` that holds scikit-learn's
scorer names.  Modules imported *later* call ``get_scorer_names()``, which
reads ``_SCORERS`` at that moment and so already includes the new names.

Safety: an existing name is never overwritten (scikit-learn's scorer wins and
a warning says so); a self-test through :func:`sklearn.metrics.check_scoring`
resolves and evaluates every registered name; on any failure everything is
rolled back and one :class:`SklearnRegistrationWarning` tells the user to pass
``skbrier.scorers.get_scorer(name)`` instead.  Set the environment variable
``SKBRIER_NO_SKLEARN_REGISTRATION=1`` to skip the registration.

**Limits.**

* Names are resolved where ``scoring`` is validated.  A search run *inside*
  a parallel worker (nested CV, for example
  ``cross_val_score(GridSearchCV(..., scoring="brier_index"), n_jobs=2)``)
  validates its string in the worker process, where skbrier has not been
  imported: pass ``scoring=skbrier.scorers.get_scorer("brier_index")`` there.  Plain
  ``n_jobs`` in one search is fine (scorer objects pickle by reference and
  importing them imports skbrier in the worker).
* ``LogisticRegressionCV(scoring="brier_index", n_jobs=2)`` (or more jobs)
  fails for the same reason: scikit-learn 1.5 to 1.9 look its scoring string
  up inside each worker.  Pass ``scoring=skbrier.scorers.get_scorer("brier_index")``.
* Under metadata routing a name requests nothing, as scikit-learn's own
  names: weights passed to ``fit`` raise ``UnsetMetadataPassedError``.  Pass
  ``sklearn.metrics.get_scorer("brier_index").set_score_request(sample_weight=True)``
  (a new copy each call: the registered scorer is never changed).
* There is no *pooled* scorer name: a scorer sees one test fold at a time,
  so ``scoring="brier_index"`` is the mean of per-fold indices.  The Brier
  Index of all out-of-fold predictions needs ``scoring=pooled_scoring()``
  with ``refit=pooled_refit()`` (:mod:`skbrier.model_selection`).
* Only constraint sets reachable from module-level classes and functions of
  imported modules are extended; a library that keeps a private copy of
  scikit-learn's names elsewhere, imported before skbrier, may still reject
  the names.
"""

from __future__ import annotations

import copy
import inspect
import os
import sys
import threading
import warnings
from collections.abc import Iterator, Mapping
from types import FunctionType
from typing import Any

import numpy as np

from ._core.diagnose import _label

try:
    from sklearn.metrics._scorer import _Scorer
except ImportError:  # pragma: no cover - a scikit-learn without it: plain scorers
    _Scorer = None

__all__ = [
    "ENV_VAR",
    "FittedClassesScorer",
    "SklearnRegistrationWarning",
    "fitted_classes_scorer",
    "register_sklearn_scorers",
    "registered_names",
    "unregister_sklearn_scorers",
]

#: Set this environment variable to ``1`` to skip the registration.
ENV_VAR = "SKBRIER_NO_SKLEARN_REGISTRATION"

# names every scikit-learn scorer-name set has contained since 0.22
_SKLEARN_MARKERS = frozenset({"accuracy", "neg_log_loss", "r2", "roc_auc"})

_lock = threading.RLock()
_state: dict[str, Any] = {
    "names": [],  # names we put into _SCORERS
    "added": [],  # (set object, name) pairs we added to StrOptions sets
    "warned": False,
    "error": None,
    "scorers": {},  # the scorer objects to register, by name
}

_ScorerBase: Any = _Scorer if _Scorer is not None else object


class FittedClassesScorer(_ScorerBase):
    """A :func:`~sklearn.metrics.make_scorer` object that reads ``estimator.classes_``.

    scikit-learn's scorers pass a test fold's ``y_true`` and the estimator's
    ``predict_proba`` output, whose columns follow the fitted classes: a
    multiclass fold that lacks a class (or a binary fold of one class) cannot
    say which columns are which.  This scorer passes the fitted classes to its
    score function where the scorer itself names none: for a binary
    classifier ``pos_label=classes_[1]`` (the class whose column scikit-learn
    passes) if the score function takes ``pos_label``, otherwise (and for
    multiclass classifiers) ``labels=classes_`` if it takes ``labels``.  With
    every class in the fold the scores are unchanged.  A test fold holding a
    label the estimator was not fitted on (its training fold lacked the
    class) is scored with probability 0 for that label, as
    :func:`~sklearn.model_selection.cross_val_predict` pads ``predict_proba``,
    with a warning naming it (to the scorer's ``labels`` when it has some that
    hold it); a score function without ``labels`` (net benefit), a scorer
    given ``pos_label`` or ``labels`` lacking it, or another response method
    refuses it with a ValueError.  Everything else is scikit-learn's ``_Scorer``
    (repr, pickling, ``set_score_request``, the multimetric cache).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier.scorers import get_scorer
    >>> X = np.arange(9.0).reshape(-1, 1)
    >>> clf = LogisticRegression().fit(X, [0, 0, 0, 1, 1, 1, 2, 2, 2])
    >>> scorer = get_scorer("brier_index")  # a FittedClassesScorer
    >>> round(scorer(clf, X[:6], [0, 0, 0, 1, 1, 1]), 4)  # no class 2 in this fold
    70.5742

    The same by hand: the Brier score summed over the three columns (the
    Brier Index's [0, 1] scale halves it):

    >>> onehot = np.eye(3)[[0, 0, 0, 1, 1, 1]]
    >>> bs = ((clf.predict_proba(X[:6]) - onehot) ** 2).sum(axis=1).mean()
    >>> round(float(100 * (1 - np.sqrt(bs / 2))), 4)
    70.5742
    """

    def _score(
        self, method_caller: Any, estimator: Any, X: Any, y_true: Any, **kwargs: Any
    ) -> Any:
        classes = getattr(estimator, "classes_", None)
        if classes is not None and np.ndim(classes) == 1 and not _is_regressor(estimator):
            params = getattr(self._score_func, "accepts", None)
            if params is None:
                params = inspect.signature(self._score_func).parameters
            given = {**self._kwargs, **kwargs}
            unseen = unfitted_labels(y_true, classes)
            wider = _names_unfitted(given.get("labels"), classes)
            if unseen is not None or wider:
                extra = np.asarray(classes)[:0] if unseen is None else unseen[0]
                full = padded_classes(classes, extra, given.get("labels"))
                if (
                    full is None
                    or ("labels" not in params and given.get("labels") is None)
                    or self._get_pos_label() is not None
                    or _response_name(estimator, self._response_method) != "predict_proba"
                ):
                    if unseen is None:  # the score function's own message
                        return super()._score(method_caller, estimator, X, y_true, **kwargs)
                    raise ValueError(unfitted_message(unseen, classes, given.get("labels")))
                if unseen is not None:
                    warnings.warn(
                        unfitted_message(unseen, classes, scored=True),
                        UserWarning,
                        stacklevel=3,
                    )
                if given.get("labels") is None:
                    kwargs = {**kwargs, "labels": full}
                method_caller = _padded_caller(method_caller, np.asarray(classes), full)
            elif len(classes) == 2 and "pos_label" in params:
                if given.get("pos_label") is None and self._get_pos_label() is None:
                    kwargs = {**kwargs, "pos_label": classes[1]}
            elif len(classes) >= 2 and "labels" in params and given.get("labels") is None:
                kwargs = {**kwargs, "labels": np.asarray(classes)}
        return super()._score(method_caller, estimator, X, y_true, **kwargs)


def unfitted_labels(y_true: Any, classes: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """``(labels, counts)`` of the labels of ``y_true`` that are not among the
    fitted ``classes`` (NaN aside: the metric refuses it), or None.

    Examples
    --------
    >>> unfitted_labels(["a", "b"], ["a", "b", "c"]) is None
    True
    >>> unfitted_labels(["a", "b", "b"], ["b", "c"])
    (array(['a'], dtype='<U1'), array([1]))
    """
    y = np.asarray(y_true)
    if y.ndim != 1 or y.size == 0:
        return None
    try:
        labels, counts = np.unique(y, return_counts=True)
        known = np.isin(labels, np.asarray(classes))
        missing = ~known & (labels == labels)
        if missing.any():  # the union with the classes must be sortable
            np.union1d(np.asarray(classes), labels[missing])
    except TypeError:  # unorderable or incomparable labels: the metric judges them
        return None
    if not missing.any():
        return None
    return labels[missing], counts[missing]


def unfitted_message(
    unseen: tuple[np.ndarray, np.ndarray],
    classes: Any,
    scorer_labels: Any = None,
    scored: bool = False,
) -> str:
    """The message about a test fold's labels the estimator was not fitted on
    (``scorer_labels``: the scorer's, which no padding fits; ``scored``: the warning
    of a fold scored with probability 0 for them).

    Examples
    --------
    >>> import numpy as np
    >>> print(unfitted_message((np.array(["a"]), np.array([9])), ["b", "c"]))
    y_true holds label 'a' (9 rows) that the estimator was not fitted on (its classes_ are ['b', 'c']): a training fold lacked the class. Use folds that keep every class in every training fold (StratifiedKFold), or fit on data with every class.
    """
    labels, counts = unseen
    shown = ", ".join(
        f"{_label(v)} ({c} row{'s' if c != 1 else ''})"
        for v, c in zip(labels[:10].tolist(), counts[:10].tolist())
    )
    word = "labels" if labels.shape[0] > 1 else "label"
    fitted = ", ".join(_label(v) for v in np.asarray(classes).tolist()[:20])
    head = (
        f"y_true holds {word} {shown} that the estimator was not fitted on (its "
        f"classes_ are [{fitted}])"
    )
    advice = (
        "Use folds that keep every class in every training fold (StratifiedKFold), "
        "or fit on data with every class."
    )
    if scored:
        return (
            f"{head}: scored with probability 0 for {'them' if labels.shape[0] > 1 else 'it'}"
            f" (as cross_val_predict pads predict_proba). {advice}"
        )
    named = None if scorer_labels is None else np.asarray(scorer_labels)
    if named is not None and not np.isin(labels, named).all():
        listed = ", ".join(_label(v) for v in named.tolist()[:20])
        return (
            f"y_true holds {word} {shown} that neither the scorer's labels [{listed}] "
            f"nor the estimator's classes_ [{fitted}] name: give labels every class, "
            "and use folds that keep every class in every training fold "
            "(StratifiedKFold)."
        )
    return f"{head}: a training fold lacked the class. {advice}"


def _names_unfitted(labels: Any, classes: Any) -> bool:
    """Whether a scorer's ``labels`` name a class the estimator was not fitted on."""
    if labels is None:
        return False
    try:
        return not bool(np.isin(np.asarray(labels), np.asarray(classes)).all())
    except TypeError:
        return False


def padded_classes(classes: Any, unseen: np.ndarray, labels: Any) -> np.ndarray | None:
    """The columns of a padded ``predict_proba``, sorted as ``predict_proba``'s
    are: the fitted ``classes`` and the ``unseen`` labels, or the scorer's
    ``labels`` when they hold both; None where no padding fits (``labels``
    lacking a class, or naming one twice).

    Examples
    --------
    >>> import numpy as np
    >>> padded_classes(["b", "c"], np.array(["a"]), None).tolist()
    ['a', 'b', 'c']
    >>> padded_classes(["b", "c"], np.array(["a"]), ["c", "b", "a", "d"]).tolist()
    ['a', 'b', 'c', 'd']
    >>> padded_classes(["b", "c"], np.array(["a"]), ["b", "c"]) is None
    True
    """
    fitted = np.asarray(classes)
    if labels is None:
        return np.union1d(fitted, unseen)
    try:
        full = np.unique(np.asarray(labels))
        ok = (
            full.shape[0] == np.shape(labels)[0]
            and bool(np.isin(fitted, full).all())
            and bool(np.isin(unseen, full).all())
        )
    except TypeError:
        return None
    return full if ok else None


def _response_name(estimator: Any, response_method: Any) -> str:
    """The method the scorer calls (the first of ``response_method`` the
    estimator has)."""
    names = [response_method] if isinstance(response_method, str) else response_method
    return next((m for m in names if hasattr(estimator, m)), "")


def _padded_caller(method_caller: Any, classes: np.ndarray, full: np.ndarray) -> Any:
    """``method_caller`` whose ``predict_proba`` has a column of zeros for
    each class of ``full`` the estimator lacks (a binary classifier's one
    column first becomes its two)."""

    def caller(estimator: Any, name: str, X: Any, **kw: Any) -> np.ndarray:
        out = np.asarray(method_caller(estimator, name, X, **kw), dtype=np.float64)
        if out.ndim == 1:  # the probability of classes[1] (no pos_label: checked)
            out = np.stack([1.0 - out, out], axis=1)
        padded = np.zeros((out.shape[0], full.shape[0]))
        padded[:, np.searchsorted(full, classes)] = out
        return padded

    return caller


def _is_regressor(estimator: Any) -> bool:
    from sklearn.base import is_regressor

    return bool(is_regressor(estimator))


def fitted_classes_scorer(scorer: Any) -> Any:
    """``scorer`` (made by :func:`~sklearn.metrics.make_scorer`) as a :class:`FittedClassesScorer`.

    The object is changed in place and returned; anything else (a scikit-learn
    without ``_Scorer``, another scorer type) is returned as it is.

    Parameters
    ----------
    scorer : object
        A scorer made by :func:`sklearn.metrics.make_scorer`.

    Returns
    -------
    scorer : object
        The same object.

    Examples
    --------
    >>> from sklearn.metrics import make_scorer
    >>> from skbrier.metrics import brier_score
    >>> s = fitted_classes_scorer(make_scorer(brier_score, response_method="predict_proba"))
    >>> type(s).__name__
    'FittedClassesScorer'
    """
    if _Scorer is not None and type(scorer) is _Scorer:
        scorer.__class__ = FittedClassesScorer
    return scorer


class SklearnRegistrationWarning(UserWarning):
    """skbrier's scoring names could not be registered with scikit-learn."""


def _disabled() -> bool:
    return os.environ.get(ENV_VAR, "").strip().lower() not in ("", "0", "false", "no")


def _is_ours(scorer: Any) -> bool:
    func = getattr(scorer, "_score_func", None)
    return getattr(func, "__module__", "") in (
        "skbrier.scorers",
        "skbrier._ordinal_scorers",
    )


def _constraint_dicts(obj: Any) -> Iterator[dict]:
    """Parameter-constraint dicts attached to a class or a validate_params wrapper.

    Classes keep them in ``_parameter_constraints`` (subclasses often copy the
    dict but share its constraint objects); ``validate_params`` stores them on
    the decorated function as ``_skl_parameter_constraints``, which
    ``functools.wraps`` copies into the wrapper's ``__dict__``.  Methods are
    not searched: no decorated method of scikit-learn 1.5-1.9 takes ``scoring``.
    """
    d = obj.__dict__.get(
        "_parameter_constraints" if isinstance(obj, type) else "_skl_parameter_constraints"
    )
    if isinstance(d, dict):
        yield d
    if isinstance(obj, FunctionType):
        wrapped = obj.__dict__.get("__wrapped__")
        if isinstance(wrapped, FunctionType):
            d = wrapped.__dict__.get("_skl_parameter_constraints")
            if isinstance(d, dict):
                yield d


def _scorer_name_sets(str_options_cls: type) -> list[set]:
    """Every StrOptions set of scorer names reachable from imported modules."""
    seen_dicts: set[int] = set()
    seen_sets: dict[int, set] = {}
    seen_objs: set[int] = set()
    with warnings.catch_warnings():
        # looking at other libraries' objects may touch deprecated attributes
        # (torch.distributed.reduce_op warns): not the user's concern
        warnings.simplefilter("ignore")
        _collect(str_options_cls, seen_dicts, seen_sets, seen_objs)
    return list(seen_sets.values())


def _collect(
    str_options_cls: type,
    seen_dicts: set[int],
    seen_sets: dict[int, set],
    seen_objs: set[int],
) -> None:
    for module in list(sys.modules.values()):
        try:
            members = list(vars(module).values())
        except TypeError:
            continue
        for obj in members:
            if not isinstance(obj, (type, FunctionType)) or id(obj) in seen_objs:
                continue
            seen_objs.add(id(obj))
            try:
                dicts = list(_constraint_dicts(obj))
            except Exception:  # noqa: BLE001, S112 - exotic objects with broken attributes
                continue
            for d in dicts:
                if id(d) in seen_dicts:
                    continue
                seen_dicts.add(id(d))
                for constraints in d.values():
                    if not isinstance(constraints, (list, tuple)):
                        continue
                    for c in constraints:
                        if isinstance(c, str_options_cls):
                            opts = getattr(c, "options", None)
                            if isinstance(opts, set) and _SKLEARN_MARKERS <= opts:
                                seen_sets[id(opts)] = opts


def _internals() -> tuple[dict, type]:
    """scikit-learn's scorer dict and StrOptions class, checked for the expected shape."""
    from sklearn.metrics import _scorer
    from sklearn.utils import _param_validation

    scorers = getattr(_scorer, "_SCORERS", None)
    if not isinstance(scorers, dict) or not _SKLEARN_MARKERS <= set(scorers):
        raise RuntimeError("sklearn.metrics._scorer._SCORERS is not the expected dict")
    str_options = getattr(_param_validation, "StrOptions", None)
    if not isinstance(str_options, type):
        raise RuntimeError("sklearn.utils._param_validation.StrOptions not found")  # noqa: TRY004
    return scorers, str_options


def _rollback(scorers: dict | None) -> None:
    for opts, name in reversed(_state["added"]):
        opts.discard(name)
    _state["added"] = []
    if scorers is not None:
        for name in _state["names"]:
            if _is_ours(scorers.get(name)):
                del scorers[name]
    _state["names"] = []


def _self_test(names: list[str], name_sets: list[set]) -> None:
    """Resolve and evaluate every registered name through sklearn's public API."""
    import numpy as np
    from sklearn.dummy import DummyClassifier
    from sklearn.metrics import check_scoring, get_scorer_names

    ours = _state["scorers"]
    public = set(get_scorer_names())
    X = np.zeros((4, 1))
    y = np.array([0, 0, 1, 1])
    est = DummyClassifier(strategy="prior").fit(X, y)
    for name in names:
        if name not in public:
            raise RuntimeError(f"{name!r} missing from sklearn.metrics.get_scorer_names()")
        scorer = check_scoring(est, scoring=name)
        if not _is_ours(scorer):
            raise RuntimeError(f"check_scoring({name!r}) did not return skbrier's scorer")
        got = scorer(est, X, y)
        want = copy.deepcopy(ours[name])(est, X, y)
        if not np.isclose(got, want, equal_nan=True):
            raise RuntimeError(f"scoring={name!r} gave {got!r}, expected {want!r}")
    if names:
        multi = check_scoring(est, scoring=list(names) + ["neg_log_loss"])
        values = multi(est, X, y)
        if set(values) != set(names) | {"neg_log_loss"}:
            raise RuntimeError("multimetric check_scoring lost a name")
    for opts in name_sets:
        missing = [n for n in names if n not in opts]
        if missing:
            raise RuntimeError(f"a scikit-learn scoring name set still lacks {missing}")


def _warn_once(message: str) -> None:
    if _state["warned"]:
        return
    _state["warned"] = True
    warnings.warn(message, SklearnRegistrationWarning, stacklevel=3)


def register_sklearn_scorers(scorers: Mapping[str, Any] | None = None) -> list[str]:
    """Make ``scoring="brier_index"`` (and the other skbrier names) work in scikit-learn.

    Adds ``"brier_index"``, ``"brier_skill_score"`` and ``"net_benefit"``
    (when available; threshold 0.5) to scikit-learn's scorer registry and to
    every copy of its scoring-name sets, then proves the result with a
    self-test through :func:`sklearn.metrics.check_scoring`.  Idempotent.

    Parameters
    ----------
    scorers : mapping of str to scorer, default=None
        The named scorers (``skbrier.scorers`` gives them when the package is
        imported); None: those of the last call.

    Returns
    -------
    list of str
        The names registered by skbrier (empty when disabled or failed).

    Warns
    -----
    SklearnRegistrationWarning
        Once, if the registration failed and was rolled back (then pass
        ``skbrier.scorers.get_scorer(name)`` as ``scoring``), or if scikit-learn
        already defines one of the names (its scorer is kept).

    Notes
    -----
    Set ``SKBRIER_NO_SKLEARN_REGISTRATION=1`` to skip it.  See the module
    docstring for the limits (nested parallel cross-validation).

    Examples
    --------
    >>> from skbrier._sklearn_registration import register_sklearn_scorers
    >>> names = register_sklearn_scorers()
    >>> from sklearn.metrics import check_scoring
    >>> check_scoring(None, scoring="brier_index")
    make_scorer(brier_index_score, response_method='predict_proba')
    """
    if scorers is not None:
        _state["scorers"] = dict(scorers)
    if _disabled():
        return []
    with _lock:
        if _state["names"]:
            return list(_state["names"])
        sk_scorers = None
        try:
            sk_scorers, str_options = _internals()
            names = []
            clashes = []
            for name, scorer in _state["scorers"].items():
                if name in sk_scorers and not _is_ours(sk_scorers[name]):
                    clashes.append(name)
                    continue
                sk_scorers[name] = scorer
                names.append(name)
                _state["names"].append(name)  # recorded at once, for the rollback
            name_sets = _scorer_name_sets(str_options)
            for opts in name_sets:
                for name in names:
                    if name not in opts:
                        opts.add(name)
                        _state["added"].append((opts, name))
            _self_test(names, name_sets)
        except Exception as exc:  # noqa: BLE001 - roll back whatever happened
            _rollback(sk_scorers)
            _state["error"] = exc
            import sklearn

            _warn_once(
                "skbrier could not register its scoring names with scikit-learn "
                f"{sklearn.__version__} ({type(exc).__name__}: {exc}); everything was "
                "rolled back. Pass scorer objects instead of names, for example "
                "scoring=skbrier.scorers.get_scorer('brier_index'). Set "
                f"{ENV_VAR}=1 to skip the registration and this warning."
            )
            return []
        if clashes:
            _warn_once(
                f"scikit-learn already defines the scoring names {clashes}; skbrier "
                "keeps scikit-learn's scorers for them. Pass "
                f"skbrier.scorers.get_scorer({clashes[0]!r}) to use skbrier's."
            )
        return list(names)


def unregister_sklearn_scorers() -> None:
    """Undo :func:`register_sklearn_scorers`, including modules imported since.

    Examples
    --------
    >>> from skbrier._sklearn_registration import (
    ...     register_sklearn_scorers, unregister_sklearn_scorers, registered_names)
    >>> unregister_sklearn_scorers()
    >>> registered_names()
    []
    >>> _ = register_sklearn_scorers()
    """
    with _lock:
        names = list(_state["names"])
        try:
            scorers, str_options = _internals()
        except Exception:  # noqa: BLE001  # pragma: no cover - nothing registered then
            _rollback(None)
            return
        for opts in _scorer_name_sets(str_options):
            for name in names:
                if name in opts:
                    _state["added"].append((opts, name))
        _rollback(scorers)


def registered_names() -> list[str]:
    """Names currently registered with scikit-learn by skbrier.

    Examples
    --------
    >>> from skbrier._sklearn_registration import registered_names
    >>> isinstance(registered_names(), list)
    True
    """
    return list(_state["names"])
