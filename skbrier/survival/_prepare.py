"""Shared preparation of the survival scores: validated data, censoring weights, Brier scores."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np

from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import with_pieces
from .._core.format import format_number
from .._core.params import check_option
from . import _survival_math as sm
from ._checks import (
    SurvivalData,
    check_horizons,
    check_survival_outcome,
    check_survival_proba,
    distinct_numbers,
    is_structured,
    survival_functions,
    survival_matrix,
)

__all__ = [
    "SORTS_EVENT_TIMES",
    "SURVIVAL_ARRAYS",
    "SURVIVAL_PIECES",
    "CONVENTIONS",
    "HORIZON_ARRAYS",
    "Convention",
    "Prepared",
    "brier_only",
    "censoring_weights",
    "check_convention",
    "check_estimator_survival",
    "check_integration",
    "declare_survival",
    "integration_weights",
    "null_survival",
    "prepare",
    "unpack",
]

#: the parameters of the survival functions that may hold arrays (their
#: backend declarations, :func:`skbrier._core.dispatch.backends`)
SURVIVAL_ARRAYS = (
    "y_event",
    "y_time",
    "surv_proba",
    "train_event",
    "train_time",
    "sample_weight",
)
#: those of the functions at one horizon (no training outcome)
HORIZON_ARRAYS = ("y_event", "y_time", "surv_proba", "sample_weight")
#: the survival functions' refusal of Dask input
SORTS_EVENT_TIMES = Refused(
    "the Kaplan-Meier censoring weights sort all event times at once; compute it "
    "on the collected rows (e.g. ddf.compute()) or on a uniform subsample"
)

_TRAINING = """\
train_event, train_time : array-like, default=None
    Training outcome for ``convention="sksurv"``."""

#: the docstring pieces the survival functions share (``with_pieces``)
SURVIVAL_PIECES = {
    "survival_inputs": """\
y_event : array-like of shape (n_samples,), structured array or estimator
    Event indicator, a structured array or a fitted survival estimator
    (see :func:`brier_score_survival`).
y_time : array-like of shape (n_samples,)
    Observed times.
surv_proba : array-like of shape (n_samples, n_times) or sequence of callables
    Predicted survival probabilities at ``times`` (or survival functions).""",
    "horizon_outcome": """\
y_event : array-like of shape (n_samples,)
    Event indicator or a structured array (event, time) with the other
    positional arguments moved left.
y_time : array-like of shape (n_samples,)
    Observed times.""",
    "survival_training": _TRAINING,
    "survival_integration": """\
convention : {"riskRegression", "sksurv"}, default="riskRegression"
    Whose Brier score and integration rule (see :func:`brier_score_survival`).
integration : {"step", "trapezoid"}, default=None
    The rule of the integrated scores; None: the convention's.
"""
    + _TRAINING,
    "survival_inference": """\
conservative : bool, default=False
    Ignore the variability of the censoring model in the standard errors
    (riskRegression's convention; with ``"sksurv"`` it is always ignored).
sample_weight : array-like of shape (n_samples,), default=None
    Frequency weights: the total weight is the sample size, at least 3
    for the standard errors (weights summing to 1 are refused).
n_resamples : int, default=0
    Bootstrap resamples of subjects, every score of a replicate on the same
    resample (0: none); frequency weights are drawn as their repeated rows.
random_state : None, int, Generator, RandomState or SeedSequence, default=None
    Seed of the bootstrap.
n_jobs : int, default=None
    Threads for the bootstrap (results do not depend on it).""",
    "eight_subjects": """\
>>> import numpy as np
>>> event = [1, 0, 1, 1, 0, 1, 0, 1]
>>> time = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
>>> surv = np.array([[0.5, 0.3], [0.9, 0.8], [0.6, 0.4], [0.8, 0.6],
...                  [0.9, 0.8], [0.9, 0.7], [0.95, 0.9], [0.8, 0.6]])""",
    "gerds_kattan_reference": """\
References
----------
.. [1] Gerds, T. A. & Kattan, M. W. (2021). Medical Risk Prediction Models:
   With Ties to Machine Learning. Chapman and Hall/CRC.""",
    "graf_reference": """\
References
----------
.. [1] Graf, E., Schmoor, C., Sauerbrei, W. & Schumacher, M. (1999).
   Statistics in Medicine 18, 2529--2545.""",
}


_F = TypeVar("_F", bound=Callable[..., Any])


def declare_survival(
    arrays: tuple[str, ...] = SURVIVAL_ARRAYS, namespace_of: str = "surv_proba"
) -> Callable[[_F], _F]:
    """The declaration every public survival function carries: its backends
    (Dask input refused, :data:`SORTS_EVENT_TIMES`; Array API input copied to
    the host) and the docstring pieces :data:`SURVIVAL_PIECES`.

    ``@declare_survival(arrays)`` stands for ``@backends(arrays=arrays,
    namespace_of=namespace_of, dask=SORTS_EVENT_TIMES, array_api=HOST)`` over
    ``@with_pieces(SURVIVAL_PIECES)``.
    """
    declare = backends(
        arrays=arrays, namespace_of=namespace_of, dask=SORTS_EVENT_TIMES, array_api=HOST
    )
    fill = with_pieces(SURVIVAL_PIECES)

    def decorate(func: _F) -> _F:
        return declare(fill(func))

    return decorate


CENSORING_MODELS = ("km",)
CONVENTIONS = ("riskRegression", "sksurv")
INTEGRATIONS = ("step", "trapezoid")


class Convention(NamedTuple):
    """A peer's convention of the IPCW Brier score and of its integral.

    ``"riskRegression"`` (R riskRegression ``Score``, pec): the censoring
    model is fitted on the scored data and evaluated at ``T_i-`` for the
    cases; the integral is the step rule from 0.  ``"sksurv"``
    (scikit-survival ``brier_score`` / ``integrated_brier_score``): the
    censoring model is fitted on the training outcome ``train`` and evaluated
    at ``T_i``; the integral is the trapezoid rule over the horizons.
    """

    name: str
    train: SurvivalData | None

    @property
    def left_limit(self) -> bool:
        return self.name == "riskRegression"

    @property
    def snap(self) -> float:
        """How far below a time of the censoring model a time is read at it
        (``step_at``): machine epsilon for scikit-survival, 0 (exact) for R.

        scikit-survival's tolerance is absolute, so with times in units of
        about 1e-16 or less its scores (and these) depend on the unit.
        """
        return float(np.finfo(np.float64).eps) if self.name == "sksurv" else 0.0

    @property
    def integration(self) -> str:
        return "step" if self.name == "riskRegression" else "trapezoid"


def check_convention(convention: Any, train_event: Any, train_time: Any) -> Convention:
    """The convention, with the validated training outcome that ``"sksurv"`` needs."""
    check_option(convention, "convention", CONVENTIONS)
    if convention == "riskRegression":
        if train_event is not None or train_time is not None:
            raise ValueError(
                "train_event/train_time are used only with convention='sksurv' "
                "(riskRegression fits the censoring model on the scored data)."
            )
        return Convention(convention, None)
    if train_event is None:
        raise ValueError(
            "convention='sksurv' needs the training outcome (scikit-survival's "
            "survival_train, on which it fits the censoring model): pass "
            "train_event=y_train (a structured array) or train_event=..., train_time=...."
        )
    train = check_survival_outcome(
        train_event, train_time, names=("train_event", "train_time")
    )
    return Convention(convention, train)


def check_integration(integration: Any, conv: Convention) -> str:
    """The integration rule: ``integration`` or, when None, the convention's."""
    if integration is None:
        return conv.integration
    return check_option(integration, "integration", INTEGRATIONS)


def integration_weights(
    times: np.ndarray, integration: str
) -> tuple[np.ndarray, tuple[float, float]]:
    """Weights ``a`` with ``IBS = a @ BS`` and the time range the IBS averages over.

    ``"trapezoid"``: ``np.trapezoid(BS, times) / (t_K - t_1)`` over
    ``[t_1, t_K]``; ``"step"``: the Brier score constant from each horizon to
    the next and 0 before the first, averaged over ``[0, t_K]``.  ``times``
    holds at least two horizons (``check_horizon_values(integrated=True)``).
    """
    if integration == "trapezoid":
        # shares of the span before halving: half of a subnormal step underflows to 0
        d = np.diff(times) / (times[-1] - times[0])
        a = np.zeros_like(times)
        a[:-1] += d / 2.0
        a[1:] += d / 2.0
        return a, (float(times[0]), float(times[-1]))
    return np.append(np.diff(times), 0.0) / times[-1], (0.0, float(times[-1]))


class Prepared(NamedTuple):
    data: SurvivalData
    times: np.ndarray
    surv: list[np.ndarray]
    scalar_times: bool


def check_estimator_survival(pred: Any, owner: str) -> Any:
    """``pred``, what ``owner.predict_survival_function(X)`` returned, when it
    holds survival functions (callables of time); numbers are refused, since
    the times they belong to are unknown (an estimator's own time grid read
    as the horizons would be a silent wrong score)."""
    if survival_functions(pred) is None:
        raise TypeError(
            f"{owner}.predict_survival_function(X) must return "
            "survival functions (callables of time) that skbrier evaluates at "
            "times; evaluate them yourself and pass the (n_samples, n_times) "
            "matrix instead."
        )
    return pred


def unpack(
    y_event: Any, y_time: Any, rest: tuple[Any, ...], *, estimator: bool = True
) -> tuple[Any, Any, tuple[Any, ...]]:
    """Accept ``f(y_struct, a, ...)`` and ``f(estimator, X, y_struct, ...)`` as well.

    With a structured array first, the following positional arguments move
    one place to the left (``y_time`` is then the first of them) and those
    given by keyword stay (``f(y_struct, a, times=t)``), unless ``y_time``
    is None (``f(y_struct, None, a, b)`` is also accepted).  With
    a fitted estimator first (anything with ``predict_survival_function``,
    as scikit-survival's estimators), ``y_time`` is its ``X``, the next
    argument the scored outcome ``y`` and its survival functions
    ``estimator.predict_survival_function(X)`` take the place of ``y``.
    """
    if hasattr(y_event, "predict_survival_function") and not isinstance(
        y_event, np.ndarray
    ):
        if not estimator:
            raise TypeError(
                "pass predicted survival functions, not an estimator: "
                "e.g. estimator.predict_survival_function(X)."
            )
        y = rest[0] if rest else None
        if not is_structured(y):
            raise TypeError(
                "with a fitted estimator first, call f(estimator, X, y, times) with y "
                "a structured array (event, time) as sksurv.util.Surv.from_arrays makes."
            )
        pred = y_event.predict_survival_function(y_time)
        check_estimator_survival(pred, type(y_event).__name__)
        return y, None, (pred, *rest[1:])
    if hasattr(y_event, "fit") and hasattr(y_event, "predict"):
        raise TypeError(
            f"{type(y_event).__name__} has no predict_survival_function: these scores "
            "need predicted survival probabilities (an estimator with "
            "predict_survival_function, as scikit-survival's CoxPHSurvivalAnalysis or "
            "RandomSurvivalForest, or the (n_samples, n_times) matrix); risk scores "
            "from predict are not probabilities."
        )
    if is_structured(y_event) and is_structured(y_time):
        raise ValueError(
            "got two structured outcomes: scikit-survival's order (survival_train, "
            "survival_test, estimate, times) is not skbrier's. Call "
            "f(y_test, estimate, times, convention='sksurv', train_event=y_train)."
        )
    if is_structured(y_event) and y_time is not None:
        # the positional arguments move one place left into the first empty
        # slot; those given by keyword (``times=``) stay where they are
        shifted = [y_time, *rest]
        gap = next((k for k, v in enumerate(shifted) if v is None), len(rest))
        del shifted[gap]
        return y_event, None, tuple(shifted)
    return y_event, y_time, rest


def prepare(
    y_event: Any,
    y_time: Any,
    surv_probas: list[Any],
    times: Any,
    *,
    sample_weight: Any = None,
    names: tuple[str, ...] = ("surv_proba",),
    integrated: bool = False,
    estimator: bool = True,
) -> Prepared:
    """Validate the outcome, the horizons and one or more survival matrices.

    The positional forms are read first (:func:`unpack`: a structured
    outcome, or a fitted estimator when ``estimator``), so a score passes its
    arguments as it got them.  ``integrated``: the horizons of an integrated
    score (at least two).

    A matrix may also be a sequence of survival functions (callables of
    time, as ``predict_survival_function`` returns); they are evaluated at
    the horizons.
    """
    y_event, y_time, (*surv_probas, times) = unpack(
        y_event, y_time, (*surv_probas, times), estimator=estimator
    )
    data = check_survival_outcome(y_event, y_time, sample_weight=sample_weight)
    t = check_horizons(times, data, integrated=integrated)
    n = data.time.shape[0]
    mats = []
    for s, name in zip(surv_probas, names):
        if s is None:
            raise TypeError(f"{name} must be given.")
        s = survival_matrix(s, t, name=name)
        mats.append(check_survival_proba(s, n, t.shape[0], name=name, times=t))
    return Prepared(data, t, mats, np.ndim(times) == 0)


def censoring_weights(
    data: SurvivalData,
    times: np.ndarray,
    conv: Convention,
    *,
    censoring: str = "km",
) -> tuple[np.ndarray, np.ndarray]:
    """G at each subject's time (``T_i-`` or ``T_i``) and at each horizon.

    Raises a ValueError when a weight that the score uses would divide by
    ``G = 0`` (a case whose time, or a horizon with subjects still at risk,
    lies where the censoring model has no one left under observation).
    """
    check_option(censoring, "censoring", CENSORING_MODELS)
    left = conv.left_limit
    if conv.train is None:
        km = sm.kaplan_meier(data.time, data.event, data.weight, reverse=True)
        own = True
    else:
        train = conv.train
        last = float(train.time.max())
        if times[-1] > last:
            hor, end = distinct_numbers(float(times[-1]), last)
            raise ValueError(
                f"times must lie within the follow-up of the training data: "
                f"{hor} is beyond {end}."
            )
        # the scored rows' positions are the censoring model's own when it is fitted
        # on the same times (always with riskRegression; with sksurv when the times are
        # equal: a time of the censoring model is read at itself, ``step_at``)
        own = train.time.shape == data.time.shape and np.array_equal(train.time, data.time)
        km = sm.kaplan_meier(
            train.time, train.event, train.weight, reverse=True, row_index=own
        )
    # each row's own distinct time: G(T-) is the value before, G(T) the value at it
    if own:
        values = np.concatenate(([1.0], km.surv))
        g_subject = values[km.row_index if left else km.row_index + 1]
    else:
        g_subject = sm.step_at(km, data.time, left=left, snap=conv.snap)
    g_horizon = sm.step_at(km, times, snap=conv.snap)
    used = data.weight > 0
    cases = used & (data.event > 0) & (data.time <= times[-1])
    if (g_subject[cases] <= 0).any():
        bad = float(data.time[cases & (g_subject <= 0)][0])
        raise ValueError(
            f"the censoring survivor function is 0 at the event time {format_number(bad)}: the IPCW "
            "weight is undefined there (scikit-survival would give this case weight 0). "
            "Use convention='riskRegression', or choose horizons before the end of the "
            "censoring model's follow-up."
        )
    last = float(data.time[used].max())
    for k, t in enumerate(times):
        if g_horizon[k] <= 0 and last > t:
            raise ValueError(
                f"the censoring survivor function is 0 at the horizon {format_number(float(t))} while "
                "subjects are still at risk: choose an earlier horizon."
            )
    return g_subject, g_horizon


def brier_only(
    data: SurvivalData,
    surv: np.ndarray,
    times: np.ndarray,
    g_subject: np.ndarray,
    g_horizon: np.ndarray,
) -> np.ndarray:
    """The Brier scores (K,) alone (no residual matrix)."""
    return sm.brier_scores(
        data.time, data.event, data.weight, surv, times, g_subject, g_horizon
    )


def null_survival(data: SurvivalData, times: np.ndarray) -> np.ndarray:
    """Marginal Kaplan--Meier survival at the horizons (the null model of the IPA)."""
    km = sm.kaplan_meier(data.time, data.event, data.weight)
    return sm.step_at(km, times)
