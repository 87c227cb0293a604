"""Confidence-interval helpers shared by the inference results."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from scipy.stats import norm
from scipy.stats import t as student_t

from .._core.params import check_confidence_level
from .._core.results import ConfidenceInterval
from .bootstrap import _stored_ci_method, confidence_interval_from_distribution

__all__ = [
    "ConfidenceInterval",
    "check_confidence_level",
    "normal_interval",
    "public_fields",
    "stored_interval",
]


def normal_interval(
    estimate: float, standard_error: float, confidence_level: float, df: float | None = None
) -> ConfidenceInterval:
    """``estimate -/+ q * se`` with the normal (or Student t with ``df``) quantile."""
    p = 1.0 - (1.0 - confidence_level) / 2.0
    q = norm.ppf(p) if df is None else student_t.ppf(p, df)
    half = float(q * standard_error)
    return ConfidenceInterval(float(estimate - half), float(estimate + half))


def public_fields(obj: Any) -> list[str]:
    """The dataclass fields of ``obj`` whose names do not start with ``_``."""
    return [f.name for f in dataclasses.fields(obj) if not f.name.startswith("_")]


def stored_interval(
    boot: dict[str, Any] | None,
    method: Any,
    confidence_level: float,
    *,
    cov_type: str,
    wald: Callable[[], ConfidenceInterval],
    from_replicates: Callable[[dict[str, Any]], tuple[Callable[..., Any], Any]],
    estimate: float,
) -> ConfidenceInterval:
    """The interval of an inference result: ``wald()`` when it holds no
    bootstrap (``boot`` None; ``method`` is then an error), else the interval
    of its stored replicates, ``from_replicates(boot) -> (statistic,
    replicates)`` (``method=None``: the type the result was made with)."""
    if boot is None:
        if method is not None:
            raise ValueError(
                f"method applies to bootstrap results only (cov_type={cov_type!r})."
            )
        return wald()
    method = _stored_ci_method(boot, method)
    statistic, replicates = from_replicates(boot)
    if replicates is None:
        raise ValueError("this result carries no bootstrap replicates.")
    ci = confidence_interval_from_distribution(
        boot["data"], statistic, replicates, confidence_level=confidence_level,
        method=method, estimate=estimate,
    )  # fmt: skip
    return ConfidenceInterval(float(ci.low), float(ci.high))
