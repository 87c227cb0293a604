"""The result protocol shared by every result object of skbrier.

Every result class is a frozen :func:`dataclasses.dataclass` that inherits
:class:`Result` and so offers the same surface:

* declared fields (``dataclasses.fields``), read-only;
* ``summary()`` (a plain-text table), ``to_dict()`` (JSON-ready Python
  values), ``to_frame()`` (a :class:`pandas.DataFrame`, pandas imported only
  then), ``_repr_html_()`` (the summary as an HTML table in notebooks) and a
  short ``repr`` that lists the scalar fields;
* on the results that can compute an interval, and only there,
  ``confidence_interval(confidence_level=0.95, *, metric=..., method=None)``
  (plus ``model=`` where a result holds several models) with a
  :class:`ConfidenceInterval` back.  ``metric`` is one of the result's
  ``_interval_metrics``, all taken from the one vocabulary
  :data:`INTERVAL_METRICS` (checked by :func:`check_metric`).

A subclass declares which fields are its headline numbers in
``_summary_fields`` (default: every scalar field) and overrides
``_summary_rows`` or ``to_frame`` when it is a table rather than a record.
"""

from __future__ import annotations

import dataclasses
import html
import numbers
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

import numpy as np

from .docstrings import with_pieces
from .format import format_number
from .optional import import_optional
from .params import check_confidence_level, check_option

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["INTERVAL_METRICS", "ConfidenceInterval", "Result", "check_metric"]

#: The names of ``confidence_interval(metric=...)``: one name, one meaning,
#: on every result.  On a comparison of two forecasts a name means the
#: difference of that quantity (``"brier_index"``: the Brier Index difference).
INTERVAL_METRICS: dict[str, str] = {
    "brier_score": "the Brier score (a difference of Brier scores on a comparison)",
    "brier_index": "the Brier Index 100 (1 - sqrt(BS)) (its difference on a comparison)",
    "brier_skill_score": "the Brier skill score 1 - BS / BS0",
    "reference_brier_score": "BS0, the Brier score of the reference forecast",
    "reliability": "REL of the Murphy decomposition",
    "resolution": "RES of the Murphy decomposition",
    "uncertainty": "UNC, the base rate times its complement",
    "within_bin_variance": "WBV of the Murphy decomposition",
    "within_bin_covariance": "WBC of the Murphy decomposition",
    "miscalibration": "MCB of the CORP decomposition",
    "discrimination": "DSC of the CORP decomposition",
    "calibration_in_the_large": "the intercept of the recalibration with slope 1",
    "calibration_intercept": "the intercept of the logistic recalibration",
    "calibration_slope": "the slope of the logistic recalibration",
    "observed_expected": "the ratio of observed to expected events",
    "c_statistic": "the c-statistic (area under the ROC curve)",
    "calibration_error": "the binned calibration error",
    "smooth_calibration_error": "the kernel-smoothed calibration error",
    "ici": "ICI (Eavg), the mean distance of a flexible calibration curve from the diagonal",
    "e50": "the median distance of a flexible calibration curve from the diagonal",
    "e90": "the 90th percentile of the distances of a flexible calibration curve",
    "emax": "the largest distance of a flexible calibration curve from the diagonal",
    "eci": "ECI, 100 times the mean squared distance of a flexible calibration curve",
    "calibration_curve": "the pointwise band of a flexible calibration curve",
    "net_benefit": "the net benefit at each threshold",
    "standardized_net_benefit": "the net benefit divided by the prevalence",
    "ipa": "the index of prediction accuracy 1 - BS / BS(null) at each horizon",
    "integrated_brier_score": "the Brier score integrated over a range of horizons",
    "integrated_ipa": "the index of prediction accuracy of the integrated Brier scores",
    "adjusted_brier": "the difficulty-adjusted Brier score",
    "adjusted_score": "the difficulty-adjusted score of a leaderboard over forecast histories",
    "rank": "the rank on a leaderboard",
    "parity_date": "the date at which the frontier reaches the target",
    "statistic": "the statistic of a generic bootstrap",
    "accuracy": "the accuracy, the share of correct answers",
    "aurc": "the area under the risk-coverage curve",
    "e_aurc": "the AURC minus that of an oracle ranking",
    "selective_risk": "the error rate of the most confident answers at each coverage",
    "utility": "the answer-or-abstain utility at each threshold (its difference on a comparison)",
    "utility_area": "the area under the answer-or-abstain utility curve (its difference on a comparison)",
}


class ConfidenceInterval(NamedTuple):
    """Lower and upper bound of a confidence interval (as in :mod:`scipy.stats`).

    The bounds are floats for a single estimate and arrays for pointwise
    bands (for example over the thresholds of a decision curve).

    Parameters
    ----------
    low, high : float or ndarray
        The bounds.

    Attributes
    ----------
    low, high : float or ndarray
        The bounds.

    Examples
    --------
    >>> from skbrier.results import ConfidenceInterval
    >>> ci = ConfidenceInterval(0.1, 0.3)
    >>> ci.low, ci.high
    (0.1, 0.3)
    """

    low: Any
    high: Any


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (numbers.Number, str, np.generic)) and not isinstance(
        value, bytes
    )


def to_builtin(value: Any) -> Any:
    """JSON-ready Python value: numpy scalars and arrays become floats, ints and lists."""
    if isinstance(value, Result):
        return value.to_dict()
    if isinstance(value, ConfidenceInterval):
        return {"low": to_builtin(value.low), "high": to_builtin(value.high)}
    if isinstance(value, np.ndarray):
        return (
            [to_builtin(v) for v in value.tolist()]
            if value.dtype == object
            else (value.tolist())
        )
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {str(k): to_builtin(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_builtin(v) for v in value]
    return value


def _equal(a: Any, b: Any) -> bool:
    """Whether two field values are equal: arrays (and sequences, dicts,
    pandas objects) by value, NaN equal to NaN, as :func:`numpy.array_equal`
    with ``equal_nan`` compares them."""
    if a is b:
        return True
    if type(a) is not type(b) and not (
        isinstance(a, numbers.Number) and isinstance(b, numbers.Number)
    ):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(map(_equal, a, b))
    if hasattr(a, "equals") and not isinstance(a, Result):  # pandas
        return bool(a.equals(b))
    if isinstance(a, np.ndarray | numbers.Number):
        x, y = np.asarray(a), np.asarray(b)
        try:
            return bool(np.array_equal(x, y, equal_nan=True))
        except TypeError:  # text or objects: no NaN test
            return bool(np.array_equal(x, y))
    return bool(a == b)


class Result:
    """Mixin of the result protocol (for frozen dataclasses).

    Two results are equal when they are of the same class and every field is
    equal, arrays by value and NaN equal to NaN (``res == again`` checks that
    a seeded computation repeats); results are not hashable.

    Examples
    --------
    >>> import dataclasses
    >>> from skbrier._core.results import Result
    >>> @dataclasses.dataclass(frozen=True, repr=False)
    ... class Score(Result):
    ...     brier_score: float
    ...     n: int
    >>> Score(0.0375, 4)
    Score(brier_score=0.0375, n=4)
    >>> Score(0.0375, 4).to_dict()
    {'brier_score': 0.0375, 'n': 4}
    """

    #: fields shown by ``repr``, ``summary`` and ``to_frame`` (None: every scalar field)
    _summary_fields: ClassVar[tuple[str, ...] | None] = None
    #: the ``metric=`` names of ``confidence_interval`` (empty: no such method)
    _interval_metrics: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # in the class's own namespace before @dataclass runs, so that its
        # generated __eq__ (a tuple comparison: "truth value of an array is
        # ambiguous") and field hash are not added
        cls.__eq__ = Result.__eq__  # type: ignore[method-assign]
        cls.__hash__ = Result.__hash__  # type: ignore[method-assign]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        if dataclasses.is_dataclass(self):
            names = [f.name for f in dataclasses.fields(self) if f.compare]
        else:
            names = list(vars(self))
        return all(_equal(getattr(self, k), getattr(other, k)) for k in names)

    def __hash__(self) -> int:
        # not None: @dataclass(frozen=True) would then add a hash of the fields
        raise TypeError(f"unhashable type: {type(self).__name__!r}")

    def _fields(self) -> list[str]:
        """The public fields (those not starting with ``_``), in the
        constructor's order (keyword-only fields, declared on a base, last)."""
        if dataclasses.is_dataclass(self):
            fields = dataclasses.fields(self)
            names = [f.name for f in fields if not f.kw_only]
            names += [f.name for f in fields if f.kw_only]
        else:
            names = list(vars(self))
        return [k for k in names if not k.startswith("_")]

    def _headline(self) -> dict[str, Any]:
        if self._summary_fields is not None:
            return {k: getattr(self, k) for k in self._summary_fields}
        return {
            k: v for k in self._fields() if _is_scalar(v := getattr(self, k)) or v is None
        }

    def _summary_rows(self) -> list[tuple[str, str]]:
        return [(k, format_number(v)) for k, v in self._headline().items()]

    def to_dict(self) -> dict[str, Any]:
        """Every declared field as JSON-ready Python values (floats, ints, lists, dicts).

        A number that is not available stays ``float("nan")``, which
        ``json.dumps`` writes as ``NaN`` (a JavaScript literal, not strict
        JSON: ``json.dumps(..., allow_nan=False)`` refuses it); the report's
        ``to_json`` writes ``null`` instead.
        """
        return {k: to_builtin(getattr(self, k)) for k in self._fields()}

    def to_frame(self) -> Any:
        """The headline numbers as a one-row :class:`pandas.DataFrame` (needs pandas)."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        return pd.DataFrame([{k: to_builtin(v) for k, v in self._headline().items()}])

    def summary(self) -> str:
        """A plain-text table of the headline numbers."""
        rows = self._summary_rows()
        width = max((len(k) for k, _ in rows), default=0)
        lines = [type(self).__name__, "-" * max(len(type(self).__name__), 1)]
        lines += [f"{k:<{width}}  {v}" for k, v in rows]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
            f"<td>{html.escape(v)}</td></tr>"
            for k, v in self._summary_rows()
        )
        return f"<table><caption>{html.escape(type(self).__name__)}</caption>{rows}</table>"

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={format_number(v)}" for k, v in self._headline().items())
        return f"{type(self).__name__}({body})"


def check_metric(result: Any, metric: Any, names: Sequence[str] | None = None) -> str:
    """``metric`` if it is one of ``names`` (default: ``result._interval_metrics``).

    The one check of ``confidence_interval(metric=...)``: the error lists the
    valid names (a TypeError for a non-string, a ValueError for an unknown
    name, as :func:`skbrier._core.params.check_option`).

    Parameters
    ----------
    result : Result
        The result whose interval is asked for.
    metric : object
        The ``metric`` argument.
    names : sequence of str, default=None
        The names valid for this result (a subset of its
        ``_interval_metrics``, e.g. those of one decomposition method).

    Returns
    -------
    str
        ``metric``.

    Examples
    --------
    >>> from skbrier.stats import brier_inference
    >>> from skbrier._core.results import check_metric
    >>> res = brier_inference([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4])
    >>> check_metric(res, "brier_index")
    'brier_index'
    """
    valid = type(result)._interval_metrics if names is None else names
    return check_option(metric, "metric", valid)


_CI = TypeVar("_CI")

#: the docstring of ``confidence_interval``; ``{{interval_selection}}`` is the
#: ``method`` parameter, followed by ``model`` on the results holding several models
_CONFIDENCE_INTERVAL_DOC = """Confidence interval of one of the result's numbers.

        Parameters
        ----------
        {{confidence_level}}
        metric : str, default=None
            The number: one of the result's interval metrics (its class
            docstring lists them; names from the package-wide vocabulary).
            None: the result's headline number (named there as the default).
        {{interval_selection}}

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``: floats, or arrays for a pointwise band (one
            bound per threshold, group, class or model).  A survival result
            returns a :class:`~skbrier.results.SurvivalInterval`, which
            unpacks the same way and carries its horizons; a calibration
            report returns None where an interval is undefined.

        Raises
        ------
        ValueError
            For an unknown metric, method or model, a level outside (0, 1),
            or a bootstrap result built without resamples (``n_resamples=0``).

        Examples
        --------
        >>> from skbrier.metrics.selective import risk_coverage_curve
        >>> right, conf = [1, 0, 1, 1, 0, 1] * 20, [i / 130 for i in range(120)]
        >>> res = risk_coverage_curve(right, conf, n_resamples=99, random_state=0)
        >>> low, high = res.confidence_interval()  # metric="aurc", its first
        >>> bool(low < res.aurc < high)
        True
        """

_METHOD_DOC = """\
method : str, default=None
    The interval: ``"percentile"``, ``"basic"`` (the quantiles of the
    bootstrap replicates reflected around the estimate) or ``"bca"`` on a
    bootstrap result, ``"wald"`` on an asymptotic one (its class docstring
    lists them; some depend on the metric or on how the result was made).
    None: the result's default (named there)."""

_MODEL_DOC = """\
model : str, default=None
    The model (forecaster, strategy) whose interval is asked for, one of
    the result's names; None: the only model, or every model (its class
    docstring says which)."""


def _interval_doc(selection: str) -> Callable[[_F], _F]:
    """Give a ``confidence_interval`` the one docstring, with ``selection``
    as the pieces after ``metric``."""

    def deco(func: _F) -> _F:
        func.__doc__ = _CONFIDENCE_INTERVAL_DOC
        return with_pieces({"interval_selection": selection})(func)

    return deco


class _Intervals(Result, Generic[_CI]):
    """Mixin of the results that compute intervals: one ``confidence_interval``.

    ``_CI`` is the type of the interval (:class:`ConfidenceInterval` on
    every result but the survival ones and the calibration report).  A
    subclass lists its ``metric=`` names in ``_interval_metrics`` (the first
    is the default; ``_default_metric`` and ``_valid_metrics`` may narrow them
    by instance) and its ``method=`` names in ``_interval_methods`` (the first
    is the default; ``_default_method`` and ``_valid_methods`` may choose and
    narrow them by instance and metric), and computes the interval of one
    checked metric, level and method in ``_interval``.
    """

    #: the ``method=`` names of ``confidence_interval`` (the first: the default)
    _interval_methods: ClassVar[tuple[str, ...]] = ("percentile", "basic")

    def _default_metric(self) -> str:
        return self._interval_metrics[0]

    def _valid_metrics(self) -> Sequence[str]:
        return self._interval_metrics

    def _valid_methods(self, metric: str) -> Sequence[str]:
        return self._interval_methods

    def _default_method(self, metric: str) -> str:
        return self._valid_methods(metric)[0]

    @_interval_doc(_METHOD_DOC)
    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        metric: str | None = None,
        method: str | None = None,
    ) -> _CI:
        return self._checked_interval(confidence_level, metric, method)

    def _checked_interval(
        self, confidence_level: float, metric: Any, method: Any, **selection: Any
    ) -> _CI:
        """The arguments checked, then ``_interval(metric, level, method, **selection)``."""
        if isinstance(confidence_level, str) and confidence_level in self._valid_metrics():
            raise TypeError(
                f"confidence_level must be a number, got {confidence_level!r}: to "
                f"choose the statistic pass metric={confidence_level!r} (by keyword)."
            )
        name = self._default_metric() if metric is None else metric
        name = check_metric(self, name, self._valid_metrics())
        level = check_confidence_level(confidence_level)
        how = self._default_method(name) if method is None else method
        how = check_option(how, "method", self._valid_methods(name))
        return self._interval(name, level, how, **selection)

    def _interval(self, metric: str, level: float, method: str) -> _CI:
        raise NotImplementedError


class _IntervalResult(_Intervals[ConfidenceInterval]):
    """Mixin of the results whose intervals are :class:`ConfidenceInterval` objects.

    Examples
    --------
    >>> import dataclasses
    >>> from skbrier._core.results import ConfidenceInterval, _IntervalResult
    >>> @dataclasses.dataclass(frozen=True, repr=False)
    ... class Mean(_IntervalResult):
    ...     brier_score: float
    ...     stderr: float
    ...     _interval_metrics = ("brier_score",)
    ...     _interval_methods = ("wald",)
    ...     def _interval(self, metric, level, method):
    ...         return ConfidenceInterval(self.brier_score - 2 * self.stderr,
    ...                                   self.brier_score + 2 * self.stderr)
    >>> Mean(0.5, 0.125).confidence_interval()
    ConfidenceInterval(low=0.25, high=0.75)
    """


class _ModelIntervalResult(_IntervalResult):
    """Mixin of the results holding several models: ``confidence_interval``
    also takes ``model=``, passed on to ``_interval(..., model=model)``."""

    @_interval_doc(_METHOD_DOC + "\n" + _MODEL_DOC)
    def confidence_interval(  # noqa: D102 (the one docstring, set by _interval_doc)
        self,
        confidence_level: float = 0.95,
        *,
        metric: str | None = None,
        method: str | None = None,
        model: Any = None,
    ) -> ConfidenceInterval:
        return self._checked_interval(confidence_level, metric, method, model=model)

    def _interval(
        self, metric: str, level: float, method: str, model: Any = None
    ) -> ConfidenceInterval:
        raise NotImplementedError

    @staticmethod
    def _model_named(
        model: Any, names: Sequence[str], what: str = "models", extra: Sequence[str] = ()
    ) -> str:
        """``model`` if it is one of ``names`` or ``extra`` (names never taken
        by default); None: the only one of ``names``.  ``what`` says what the
        names are in the error when there are several."""
        if model is None:
            if len(names) != 1:
                hint = "".join(f" (or {e!r})" for e in extra)
                raise ValueError(
                    f"this result holds {len(names)} {what}: model must name one of "
                    f"{list(names)}{hint}."
                )
            return names[0]
        if not isinstance(model, str) or model not in (*names, *extra):
            raise ValueError(f"model must be one of {[*names, *extra]}, got {model!r}.")
        return model
