"""Hyper-parameter tuning objectives (Optuna) scored by the pooled Brier Index."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from numpy.typing import ArrayLike
from sklearn.base import clone

from .._core.dispatch import HOST, backends
from .._core.optional import import_optional
from .._core.params import check_n_jobs, check_option
from .._response import check_pos_label
from .cross_validation import FITS_IN_MEMORY, cross_val_brier

__all__ = ["BrierObjective", "create_study", "optuna_objective"]

_DIRECTIONS = {
    "brier_index": "maximize",
    "brier_skill_score": "maximize",
    "brier_score": "minimize",
}


@dataclasses.dataclass(eq=False, repr=False)
class BrierObjective:
    """Optuna objective: the pooled cross-validated Brier metric of a trial.

    Made by :func:`optuna_objective`; see there for the parameters.

    Parameters
    ----------
    estimator : estimator or callable
        Base estimator or factory ``trial -> estimator``.
    X, y : array-like
        Data.
    param_space : callable or None
        ``trial -> dict`` of parameters (with a base estimator).
    metric : str
        Pooled metric returned.
    cv_kwargs : dict
        Keyword arguments of :func:`cross_val_brier`.

    Attributes
    ----------
    direction : str
        ``"maximize"`` for the Brier Index and skill score, ``"minimize"``
        for the Brier score: pass it to ``optuna.create_study``.

    See Also
    --------
    optuna_objective

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier.model_selection import optuna_objective
    >>> obj = optuna_objective(LogisticRegression(), [[0], [1]] * 5, [0, 1] * 5,
    ...                        param_space=lambda t: {})
    >>> obj.direction
    'maximize'
    """

    estimator: Any
    X: ArrayLike
    y: ArrayLike
    param_space: Callable[[Any], dict] | None
    metric: str
    cv_kwargs: dict[str, Any]

    @property
    def direction(self) -> str:
        """Optimisation direction of ``metric``."""
        return _DIRECTIONS[self.metric]

    def __repr__(self) -> str:
        est = type(self.estimator).__name__
        if not hasattr(self.estimator, "get_params"):  # a factory trial -> estimator
            est = getattr(self.estimator, "__name__", est)
        shape = getattr(self.X, "shape", None)
        n = shape[0] if shape else len(self.X)  # type: ignore[arg-type]
        cv = self.cv_kwargs.get("cv", 5)
        return (
            f"BrierObjective(estimator={est}, metric={self.metric!r}, "
            f"direction={self.direction!r}, n_samples={n}, cv={cv!r})"
        )

    def create_study(self, **kwargs: Any) -> Any:
        """``optuna.create_study`` with this objective's direction.

        Parameters
        ----------
        **kwargs
            Other arguments of :func:`optuna.create_study` (``sampler``,
            ``storage``, ``study_name`` ...).  A ``direction`` must agree.

        Returns
        -------
        optuna.study.Study
            A ``direction`` (or ``directions``) contradicting the metric raises
            a ValueError (see :func:`create_study`).
        """
        return create_study(self.metric, **kwargs)

    def _check_study_direction(self, trial: Any) -> None:
        """Refuse a study that optimises the metric the wrong way."""
        study = getattr(trial, "study", None)
        directions = getattr(study, "directions", None)
        if study is None or directions is None or len(directions) != 1:
            return
        name = getattr(directions[0], "name", str(directions[0])).lower()
        if name not in ("maximize", "minimize") or name == self.direction:
            return
        raise ValueError(
            f"The study {name}s, but the objective returns the {self.metric}, which "
            f"must be {self.direction}d: the best trial would be the worst model. "
            f"Create the study with optuna.create_study(direction={self.direction!r}) "
            "or objective.create_study()."
        )

    def _make_estimator(self, trial: Any) -> Any:
        if self.param_space is None:
            est = self.estimator(trial)
            if not hasattr(est, "fit"):
                raise TypeError(
                    "The estimator factory must return an estimator, got "
                    f"{type(est).__name__}."
                )
            return est
        p = self.param_space(trial)
        if not isinstance(p, dict):
            raise TypeError(f"param_space must return a dict, got {type(p).__name__}.")
        return clone(self.estimator).set_params(**p)

    def __call__(self, trial: Any) -> float:
        """Fit and score one trial.

        Records ``brier_score``, ``brier_index``, ``brier_skill_score``,
        ``mean_fold_brier_index`` and ``fold_brier_index`` as user
        attributes of the trial.

        Parameters
        ----------
        trial : optuna.trial.Trial
            The trial.

        Returns
        -------
        float
            The pooled metric.

        Raises
        ------
        ValueError
            If the trial's study optimises in the other direction (for
            example an ``optuna.create_study()`` without ``direction``, which
            minimises, with the Brier Index).
        """
        self._check_study_direction(trial)
        res = cross_val_brier(self._make_estimator(trial), self.X, self.y, **self.cv_kwargs)
        if hasattr(trial, "set_user_attr"):
            trial.set_user_attr("brier_score", res.brier_score)
            trial.set_user_attr("brier_index", res.brier_index)
            trial.set_user_attr("brier_skill_score", res.brier_skill_score)
            trial.set_user_attr("mean_fold_brier_index", res.mean_fold_brier_index)
            trial.set_user_attr("fold_brier_index", res.fold_brier_index.tolist())
        return float(getattr(res, self.metric))


@backends(
    arrays=("X", "y", "groups", "sample_weight"),
    namespace_of="X",
    dask=FITS_IN_MEMORY,
    array_api=HOST,
)
def optuna_objective(
    estimator: Any,
    X: ArrayLike,
    y: ArrayLike,
    *,
    param_space: Callable[[Any], dict] | None = None,
    metric: str = "brier_index",
    cv: Any = 5,
    groups: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    params: dict[str, Any] | None = None,
    pos_label: Any = None,
    n_jobs: int | None = None,
) -> BrierObjective:
    r"""Optuna objective returning the pooled cross-validated Brier Index.

    Each trial builds an estimator, runs :func:`cross_val_brier` and returns
    the pooled score of its out-of-fold predictions (not the upward-biased
    mean of fold scores, which ``cross_val_score(...).mean()`` would give).

    Parameters
    ----------
    estimator : estimator or callable
        Either a base classifier, cloned and given
        ``param_space(trial)`` with ``set_params`` for each trial, or a
        factory ``trial -> classifier`` (then ``param_space`` must be None).
    X : array-like of shape (n_samples, n_features)
        The features.
    y : array-like of shape (n_samples,)
        The labels.
    param_space : callable, default=None
        ``trial -> dict`` of parameters, e.g.
        ``lambda t: {"C": t.suggest_float("C", 1e-3, 1e2, log=True)}``.
    metric : {"brier_index", "brier_skill_score", "brier_score"}, default="brier_index"
        The pooled metric returned.  Create the study with
        ``direction=objective.direction`` (``"maximize"`` for the index).
    cv : int, cross-validation generator or iterable, default=5
        The splitter.  Use a deterministic one (no shuffling, or a fixed
        ``random_state``) so that every trial sees the same folds.
    groups : array-like of shape (n_samples,), default=None
        Group labels for group-aware splitters.
    sample_weight : array-like of shape (n_samples,), default=None
        Evaluation weights.
    params : dict, default=None
        Metadata for ``fit``.
    pos_label : int, float, bool or str, default=None
        Positive class of a binary problem.
    n_jobs : int, default=None
        Folds fitted in parallel (joblib).

    Returns
    -------
    BrierObjective
        A callable ``trial -> float`` with a ``direction`` attribute.

    Raises
    ------
    TypeError
        If ``estimator`` is neither an estimator nor a callable, or both a
        factory and ``param_space`` are given.
    ValueError
        For an unknown ``metric`` or ``n_jobs=0`` (options are checked at once,
        not at the first trial).

    See Also
    --------
    cross_val_brier
    pooled_scoring : The same pooled criterion inside ``GridSearchCV``.

    Notes
    -----
    The objective is :math:`100 (1 - \sqrt{\sum_f S_f / \sum_f W_f})`, the
    Brier Index of all out-of-fold predictions (see :func:`cross_val_brier`).
    The trial's user attributes hold the other pooled scores and the fold
    indices.

    References
    ----------
    .. [1] T. Akiba, S. Sano, T. Yanase, T. Ohta and M. Koyama, "Optuna: a
       next-generation hyperparameter optimization framework", KDD 2019.

    Examples
    --------
    >>> import optuna  # doctest: +SKIP
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier.model_selection import optuna_objective
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> objective = optuna_objective(
    ...     LogisticRegression(), X, y,
    ...     param_space=lambda t: {"C": t.suggest_float("C", 1e-3, 1e2, log=True)})
    >>> study = objective.create_study()  # direction="maximize"  # doctest: +SKIP
    >>> study.optimize(objective, n_trials=5)  # doctest: +SKIP
    >>> 0 < study.best_value <= 100  # doctest: +SKIP
    True
    """
    metric = check_option(metric, "metric", tuple(_DIRECTIONS))
    n_jobs = check_n_jobs(n_jobs)
    pos_label = check_pos_label(pos_label)
    if hasattr(estimator, "get_params") and hasattr(estimator, "fit"):
        if param_space is None:
            raise TypeError(
                "param_space must be a callable trial -> dict when estimator is an "
                "estimator (or pass a factory trial -> estimator as estimator)."
            )
        if not callable(param_space):
            raise TypeError(
                f"param_space must be callable, got {type(param_space).__name__}."
            )
    elif callable(estimator):
        if param_space is not None:
            raise TypeError(
                "param_space must be None when estimator is a factory trial -> estimator."
            )
    else:
        raise TypeError(
            "estimator must be a scikit-learn estimator or a callable trial -> "
            f"estimator, got {type(estimator).__name__}."
        )
    cv_kwargs = {
        "cv": cv,
        "groups": groups,
        "sample_weight": sample_weight,
        "params": params,
        "pos_label": pos_label,
        "n_jobs": n_jobs,
    }
    return BrierObjective(estimator, X, y, param_space, metric, cv_kwargs)


def create_study(
    metric: str = "brier_index",
    **kwargs: Any,
) -> Any:
    """``optuna.create_study`` in the right direction for a Brier metric.

    ``optuna.create_study()`` minimises by default, which with the Brier
    Index or skill score picks the *worst* model.  This helper sets
    ``direction`` from the metric (``"maximize"`` for ``"brier_index"`` and
    ``"brier_skill_score"``, ``"minimize"`` for ``"brier_score"``).  Needs
    optuna (imported only here).

    Parameters
    ----------
    metric : {"brier_index", "brier_skill_score", "brier_score"}, default="brier_index"
        The metric the objective returns (``objective.metric``).
    **kwargs
        Other arguments of :func:`optuna.create_study`.  A ``direction``
        that contradicts the metric raises.

    Returns
    -------
    optuna.study.Study

    Raises
    ------
    TypeError
        If ``metric`` is an objective (use ``objective.create_study()``).
    ValueError
        For an unknown metric or a contradicting ``direction``.
    ImportError
        Without optuna.

    See Also
    --------
    optuna_objective : the objective (``objective.create_study()`` is this
        function with its metric).

    Examples
    --------
    >>> from skbrier.model_selection import create_study
    >>> create_study("brier_index").direction.name  # doctest: +SKIP
    'MAXIMIZE'
    """
    if isinstance(metric, BrierObjective):
        raise TypeError(
            "create_study takes the name of the objective's metric, not the "
            f"objective: use objective.create_study() or create_study({metric.metric!r})."
        )
    metric = check_option(metric, "metric", tuple(_DIRECTIONS))
    want = _DIRECTIONS[metric]
    given = kwargs.pop("direction", None)
    if "directions" in kwargs:
        raise ValueError("create_study makes single-objective studies: drop directions.")
    if given is not None:
        name = getattr(given, "name", str(given)).lower()
        if name != want:
            raise ValueError(
                f"direction={given!r} contradicts metric={metric!r}, which must be {want}d."
            )
    optuna = import_optional("optuna", needed_for="create_study")
    return optuna.create_study(direction=want, **kwargs)
