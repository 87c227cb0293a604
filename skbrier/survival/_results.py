"""Result objects of skbrier.survival (the Result protocol of skbrier)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from scipy.stats import norm

from .._core.docstrings import with_pieces
from .._core.optional import import_optional
from .._core.resampling import interval_from_replicates
from .._core.results import Result, _Intervals, format_number

__all__ = [
    "RESULT_PIECES",
    "SurvivalComparisonResult",
    "SurvivalIPAResult",
    "SurvivalInterval",
]

#: horizons written out by a repr before it abbreviates
_REPR_HORIZONS = 4

#: the docstring pieces of the survival results (``with_pieces``): the example
#: data of their examples, and the attributes every per-horizon result has
RESULT_PIECES = {
    "six_subjects": """\
>>> import numpy as np
>>> from skbrier.survival import compare_brier_survival, index_of_prediction_accuracy
>>> event, time = [1, 0, 1, 1, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
>>> surv = np.array([[0.6, 0.4], [0.9, 0.8], [0.4, 0.3], [0.5, 0.4], [0.8, 0.7],
...                  [0.3, 0.2]])""",
    "sample_and_convention": """\
n : float
    Total weight (number of subjects).
convention : str
    ``"riskRegression"`` or ``"sksurv"``.""",
}
_doc = with_pieces(RESULT_PIECES)


def _wald(est: Any, se: Any, level: float) -> tuple[Any, Any]:
    z = norm.ppf(1.0 - (1.0 - level) / 2.0)
    return est - z * se, est + z * se


def _span(time_range: tuple[float, float]) -> str:
    return f"[{format_number(time_range[0])}, {format_number(time_range[1])}]"


@dataclasses.dataclass(frozen=True, repr=False)
@_doc
class SurvivalInterval(Result):
    """Confidence intervals of a survival score, with the horizons they apply to.

    Returned by the ``confidence_interval`` methods of the survival results.
    Pointwise intervals (one per horizon) carry their ``times``; an interval
    of an integrated score carries the ``time_range`` it averages over.  It
    unpacks as ``low, high = interval`` and has ``.low`` and ``.high`` as
    :class:`~skbrier.stats.ConfidenceInterval`.

    Parameters
    ----------
    metric : str
        The quantity: ``"ipa"``, ``"brier_score"``, ``"integrated_ipa"``,
        ``"integrated_brier_score"``, or on a comparison ``"brier_score"``
        (the difference).
    confidence_level : float
        The confidence level.
    method : str
        ``"wald"``, ``"percentile"`` or ``"basic"``.
    times : ndarray
        The horizons: of each pointwise interval, or those integrated over.
    estimate, low, high : ndarray or float
        The estimates and the bounds (arrays over ``times`` for pointwise
        intervals, floats for an integrated score).
    time_range : tuple of float, default=None
        ``(start, stop)`` of the integral for an integrated score; None for
        pointwise intervals.

    Attributes
    ----------
    metric, confidence_level, method, times, estimate, low, high, time_range
        As the parameters.

    Examples
    --------
    {{six_subjects}}
    >>> res = index_of_prediction_accuracy(event, time, surv, [2.5, 4.5])
    >>> ci = res.confidence_interval(0.9, metric="brier_score")
    >>> ci.times
    array([2.5, 4.5])
    >>> low, high = ci
    >>> res.confidence_interval(0.9, metric="integrated_brier_score").time_range
    (0.0, 4.5)
    """

    metric: str
    confidence_level: float
    method: str
    times: np.ndarray
    estimate: Any
    low: Any
    high: Any
    time_range: tuple[float, float] | None = None

    def __iter__(self) -> Iterator[Any]:
        return iter((self.low, self.high))

    def _labelled(self) -> list[tuple[str, float, float, float]]:
        if self.time_range is not None:
            return [(_span(self.time_range), float(self.estimate), self.low, self.high)]
        return [
            (f"t={format_number(float(t))}", float(e), float(lo), float(hi))
            for t, e, lo, hi in zip(self.times, self.estimate, self.low, self.high)
        ]

    def _summary_rows(self) -> list[tuple[str, str]]:
        head = [
            ("metric", self.metric),
            ("confidence_level", format_number(self.confidence_level)),
            ("method", self.method),
        ]
        return head + [
            (label, f"{format_number(e)} [{format_number(lo)}, {format_number(hi)}]")
            for label, e, lo, hi in self._labelled()
        ]

    def to_frame(self) -> Any:
        """One row per horizon (or one row for the time range) as a :class:`pandas.DataFrame`."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        common = {"metric": self.metric, "confidence_level": self.confidence_level}
        if self.time_range is not None:
            rows = [
                {
                    **common,
                    "time_from": self.time_range[0],
                    "time_to": self.time_range[1],
                    "estimate": float(self.estimate),
                    "low": float(self.low),
                    "high": float(self.high),
                }
            ]
        else:
            rows = [
                {**common, "times": float(t), "estimate": e, "low": lo, "high": hi}
                for (_, e, lo, hi), t in zip(self._labelled(), self.times)
            ]
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        parts = [
            f"{label}: [{format_number(lo)}, {format_number(hi)}]"
            for label, _, lo, hi in self._labelled()
        ]
        if len(parts) > _REPR_HORIZONS:
            parts = [*parts[: _REPR_HORIZONS - 1], "...", parts[-1]]
        level = format_number(100.0 * self.confidence_level)
        return f"SurvivalInterval({self.metric!r}, {level}%, {', '.join(parts)})"


@dataclasses.dataclass(frozen=True, repr=False)
class _PerHorizon(_Intervals[SurvivalInterval]):
    """Tables with one row per horizon, with Wald (riskRegression's) or
    bootstrap intervals labelled with their horizons.

    The fields every such result has: its horizons ``times`` first, then (by
    keyword, after the subclass's own numbers) the total weight ``n``, the
    ``convention`` and the ``bootstrap`` replicates (None without resamples).
    """

    times: np.ndarray
    _: dataclasses.KW_ONLY
    n: float
    convention: str
    bootstrap: np.ndarray | None = None

    #: the table's columns after ``times`` (to_frame, summary)
    _columns: ClassVar[tuple[str, ...]] = ()
    #: the function that builds the result (named when bootstrap replicates are missing)
    _maker: ClassVar[str] = ""
    _interval_methods: ClassVar[tuple[str, ...]] = ("wald", "percentile", "basic")

    def _rows(self) -> list[dict[str, Any]]:
        cols = {c: np.asarray(getattr(self, c)) for c in ("times", *self._columns)}
        return [
            {c: float(v[k]) for c, v in cols.items()} for k in range(len(cols["times"]))
        ]

    def _summary_rows(self) -> list[tuple[str, str]]:
        out = []
        for row in self._rows():
            t = format_number(row["times"])
            body = ", ".join(
                f"{c}={format_number(v)}" for c, v in row.items() if c != "times"
            )
            out.append((f"t={t}", body))
        return out

    def to_frame(self) -> Any:
        """One row per horizon as a :class:`pandas.DataFrame` (needs pandas)."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        return pd.DataFrame(self._rows())

    def _times_repr(self) -> str:
        t = [format_number(float(v)) for v in np.asarray(self.times)]
        if len(t) > _REPR_HORIZONS:
            t = [*t[: _REPR_HORIZONS - 1], "...", t[-1]]
        return "[" + ", ".join(t) + "]"

    def _horizon_interval(
        self,
        metric: str,
        level: float,
        method: str,
        est: Any,
        se: Any,
        replicates: np.ndarray | None,
        *,
        bounded: bool,
        time_range: tuple[float, float] | None = None,
    ) -> SurvivalInterval:
        """Wald (``bounded``: cut to [0, 1]) or bootstrap interval, labelled with its horizons."""
        if method == "wald":
            lo, hi = _wald(est, se, level)
            if bounded:
                lo, hi = np.maximum(lo, 0.0), np.minimum(hi, 1.0)
        else:
            if replicates is None:
                raise ValueError(
                    f"no bootstrap replicates: call {self._maker} with n_resamples > 0."
                )
            lo, hi = interval_from_replicates(
                replicates, level, method=method, estimate=est
            )
        if time_range is not None:
            est, lo, hi = float(est), float(lo), float(hi)
        return SurvivalInterval(
            metric,
            level,
            method,
            np.asarray(self.times),
            est,
            lo,
            hi,
            time_range,
        )


@dataclasses.dataclass(frozen=True, repr=False)
@_doc
class SurvivalIPAResult(_PerHorizon):
    """Brier scores and index of prediction accuracy per horizon and integrated.

    Built by :func:`skbrier.survival.index_of_prediction_accuracy`.
    ``confidence_interval(metric=...)`` gives pointwise intervals per horizon
    of ``"ipa"`` (the default, :attr:`ipa`) or ``"brier_score"``
    (:attr:`brier`), or the interval of a score integrated over
    ``time_range``, ``"integrated_ipa"`` (:attr:`integrated_ipa`) or
    ``"integrated_brier_score"`` (:attr:`ibs`; both need two horizons), as a
    :class:`SurvivalInterval`.  ``method``: ``"wald"`` (the default),
    estimate +/- z se with the Brier bounds cut to [0, 1] as riskRegression's
    ``Score`` does, or ``"percentile"`` and ``"basic"`` bootstrap intervals
    (the function called with ``n_resamples``).

    Attributes
    ----------
    times : ndarray
        The horizons.
    brier : ndarray
        IPCW Brier score of the model at each horizon.
    brier_null : ndarray
        Brier score of the null model (marginal Kaplan--Meier).
    ipa : ndarray
        ``1 - brier / brier_null``.
    se_brier, se_brier_null, se_ipa : ndarray
        Influence-function standard errors (riskRegression's ``se``; the
        IPA's by the delta method from the same influence functions).
    {{sample_and_convention}}
    integration : str
        The rule of the integrated scores (``"step"`` or ``"trapezoid"``).
    time_range : tuple of float or None
        ``(start, stop)`` the integrated scores average over (None with one horizon).
    ibs, ibs_null : float
        Integrated Brier scores of the model and of the null model (NaN with
        one horizon).
    integrated_ipa : float
        ``1 - ibs / ibs_null``.
    se_ibs, se_ibs_null, se_integrated_ipa : float
        Their standard errors from the influence functions of the Brier
        scores, with the covariance between horizons.
    bootstrap : ndarray or None
        ``(n_resamples, 2, n_times + 1)`` replicates of (brier, ipa) per
        horizon, the last column holding (ibs, integrated_ipa), when
        bootstrap resamples were drawn.

    Examples
    --------
    {{six_subjects}}
    >>> res = index_of_prediction_accuracy(event, time, surv[:, :1], [3.5])
    >>> res.confidence_interval(0.9, metric="brier_score").low.shape
    (1,)
    """

    brier: np.ndarray
    brier_null: np.ndarray
    ipa: np.ndarray
    se_brier: np.ndarray
    se_brier_null: np.ndarray
    se_ipa: np.ndarray
    integration: str
    time_range: tuple[float, float] | None
    ibs: float
    ibs_null: float
    integrated_ipa: float
    se_ibs: float
    se_ibs_null: float
    se_integrated_ipa: float

    _maker: ClassVar[str] = "index_of_prediction_accuracy"
    _columns: ClassVar[tuple[str, ...]] = (
        "brier",
        "se_brier",
        "brier_null",
        "ipa",
        "se_ipa",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = (
        "ipa",
        "brier_score",
        "integrated_ipa",
        "integrated_brier_score",
    )

    def _summary_rows(self) -> list[tuple[str, str]]:
        rows = [("convention", self.convention), *super()._summary_rows()]
        if self.time_range is not None:
            rows.append(
                (
                    f"integrated over {_span(self.time_range)} ({self.integration})",
                    f"ibs={format_number(self.ibs)}, se_ibs={format_number(self.se_ibs)}, "
                    f"ibs_null={format_number(self.ibs_null)}, "
                    f"integrated_ipa={format_number(self.integrated_ipa)}, "
                    f"se_integrated_ipa={format_number(self.se_integrated_ipa)}",
                )
            )
        return rows

    def __repr__(self) -> str:
        body = f"convention={self.convention!r}, times={self._times_repr()}"
        if self.time_range is not None:
            body += (
                f", integrated over {_span(self.time_range)}: ibs={format_number(self.ibs)}"
                f", integrated_ipa={format_number(self.integrated_ipa)}"
            )
        return f"SurvivalIPAResult({body})"

    def _interval(self, metric: str, level: float, method: str) -> SurvivalInterval:
        pointwise = metric in ("ipa", "brier_score")
        if not pointwise and (self.time_range is None or math.isnan(self.ibs)):
            raise ValueError(
                f"metric={metric!r} needs at least two horizons (an integrated score)."
            )
        est, se = {
            "ipa": (self.ipa, self.se_ipa),
            "brier_score": (self.brier, self.se_brier),
            "integrated_ipa": (self.integrated_ipa, self.se_integrated_ipa),
            "integrated_brier_score": (self.ibs, self.se_ibs),
        }[metric]
        j = 1 if metric in ("ipa", "integrated_ipa") else 0
        reps = None
        if self.bootstrap is not None:  # the last column holds the integrated scores
            reps = self.bootstrap[:, j, :-1] if pointwise else self.bootstrap[:, j, -1]
        span = None if pointwise else self.time_range
        return self._horizon_interval(
            metric, level, method, est, se, reps, bounded=not j, time_range=span
        )


@dataclasses.dataclass(frozen=True, repr=False)
@_doc
class SurvivalComparisonResult(_PerHorizon):
    """Paired comparison of two models' Brier scores at each horizon.

    Built by :func:`skbrier.survival.compare_brier_survival`.
    ``confidence_interval()`` gives pointwise intervals per horizon of
    ``metric="brier_score"``, the difference :attr:`difference`, as a
    :class:`SurvivalInterval`: ``method="wald"`` (riskRegression's, the
    default), or ``"percentile"`` and ``"basic"`` bootstrap intervals.

    Attributes
    ----------
    times : ndarray
        The horizons.
    brier_a, brier_b : ndarray
        IPCW Brier scores of the two models.
    difference : ndarray
        ``brier_a - brier_b``, first minus second as in
        :func:`skbrier.compare_brier` (riskRegression's ``delta.Brier`` of
        model b against reference a is ``-difference``).
    se : ndarray
        Standard error of ``difference`` from the paired influence functions.
    p_value : ndarray
        Two-sided Wald p-value of ``difference = 0``.
    {{sample_and_convention}}
    bootstrap : ndarray or None
        ``(n_resamples, n_times)`` bootstrap replicates of ``difference``.

    Examples
    --------
    {{six_subjects}}
    >>> res = compare_brier_survival(event, time, surv[:, :1], np.full((6, 1), 0.5), [3.5])
    >>> res.difference.shape
    (1,)
    """

    brier_a: np.ndarray
    brier_b: np.ndarray
    difference: np.ndarray
    se: np.ndarray
    p_value: np.ndarray

    _maker: ClassVar[str] = "compare_brier_survival"
    _columns: ClassVar[tuple[str, ...]] = (
        "brier_a",
        "brier_b",
        "difference",
        "se",
        "p_value",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = ("brier_score",)

    def __repr__(self) -> str:
        return (
            f"SurvivalComparisonResult(convention={self.convention!r}, "
            f"times={self._times_repr()})"
        )

    def _interval(self, metric: str, level: float, method: str) -> SurvivalInterval:
        return self._horizon_interval(
            "brier_score",
            level,
            method,
            self.difference,
            self.se,
            self.bootstrap,
            bounded=False,
        )
