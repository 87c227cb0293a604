"""Confidence-interval helpers shared by the inference results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from scipy.stats import norm
from scipy.stats import t as student_t

from .._core.params import check_confidence_level
from .._core.results import ConfidenceInterval, _IntervalResult
from .bootstrap import _stored_ci_method, confidence_interval_from_distribution

__all__ = [
    "ConfidenceInterval",
    "check_confidence_level",
    "normal_interval",
]


def normal_interval(
    estimate: float, standard_error: float, confidence_level: float, df: float | None = None
) -> ConfidenceInterval:
    """``estimate -/+ q * se`` with the normal (or Student t with ``df``) quantile."""
    p = 1.0 - (1.0 - confidence_level) / 2.0
    q = norm.ppf(p) if df is None else student_t.ppf(p, df)
    half = float(q * standard_error)
    return ConfidenceInterval(float(estimate - half), float(estimate + half))


class _StoredIntervals(_IntervalResult):
    """Mixin of the inference results: Wald intervals, or those of the
    bootstrap replicates they store in ``_boot`` (None: no bootstrap).

    The methods are ``"wald"`` without a bootstrap, ``"percentile"``,
    ``"basic"`` and ``"bca"`` with one (default: the type the result was made
    with); a subclass gives :meth:`_stored_interval` its Wald interval and
    its replicates.
    """

    _boot: dict[str, Any] | None
    _interval_methods: ClassVar[tuple[str, ...]] = ("wald", "percentile", "basic", "bca")

    def _valid_methods(self, metric: str) -> tuple[str, ...]:
        return (
            self._interval_methods[:1] if self._boot is None else self._interval_methods[1:]
        )

    def _default_method(self, metric: str) -> str:
        return "wald" if self._boot is None else str(self._boot["method"])

    def _stored_interval(
        self,
        method: str,
        confidence_level: float,
        *,
        wald: Callable[[], ConfidenceInterval],
        from_replicates: Callable[[dict[str, Any]], tuple[Callable[..., Any], Any]],
        estimate: float,
    ) -> ConfidenceInterval:
        """``wald()`` for ``method="wald"``, else the interval of the stored
        replicates, ``from_replicates(boot) -> (statistic, replicates)``."""
        boot = self._boot
        if method == "wald" or boot is None:
            return wald()
        statistic, replicates = from_replicates(boot)
        if replicates is None:
            raise ValueError("this result carries no bootstrap replicates.")
        ci = confidence_interval_from_distribution(
            boot["data"],
            statistic,
            replicates,
            confidence_level=confidence_level,
            method=_stored_ci_method(boot, method),
            estimate=estimate,
        )
        return ConfidenceInterval(float(ci.low), float(ci.high))
