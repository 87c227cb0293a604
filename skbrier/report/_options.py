"""The options of :func:`~skbrier.report.calibration_report`, checked before the
data are read (one error naming the option, or its key of ``inference_kwds``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.params import (
    check_confidence_level,
    check_n_bins,
    check_n_jobs,
    check_n_resamples,
    check_option,
    check_random_state,
    check_real,
    check_thresholds,
)
from .._core.validation import check_scalar_probability

if TYPE_CHECKING:
    from ..stats.inference import CovType

__all__ = [
    "COV_TYPES",
    "INFERENCE_KEYS",
    "OPTION_NAMES",
    "REPORT_OPTIONS",
    "Options",
    "check_options",
    "check_report_options",
]

COV_TYPES: tuple[CovType, ...] = ("iid", "hac", "bootstrap")
STRATEGIES = ("uniform", "quantile")
BOOTSTRAP_SCHEMES = ("iid", "moving_block", "circular_block", "stationary")
BOOTSTRAP_METHODS = ("percentile", "basic", "bca")
#: keys of ``inference_kwds`` and the cov_type they apply to (None: any)
INFERENCE_KEYS = {
    "hac_kwds": "hac",
    "n_resamples": "bootstrap",
    "bootstrap": "bootstrap",
    "block_length": "bootstrap",
    "method": "bootstrap",
    "n_jobs": "bootstrap",
}
#: a ValueError of brier_inference whose message starts with one of these
#: names (or says "<name> must") is an invalid option (raised), any other
#: one a property of the data (reported in the notes)
OPTION_NAMES = ("kernel", "bandwidth", "prewhite", "adjust", *INFERENCE_KEYS)


@dataclass(frozen=True)
class Options:
    thresholds: list[float] | None
    cov_type: CovType
    confidence_level: float
    n_bins: int
    strategy: str
    rng: np.random.Generator
    prevalence: float | None
    inference_kwds: dict
    name: str | None
    n_resamples: int | None = None
    n_jobs: int | None = None


# --------------------------------------------------------------------------
# options
# --------------------------------------------------------------------------


def _check_block_length(value: Any) -> None:
    if value is None:
        return
    if isinstance(value, str):
        check_option(value, "block_length", ("auto",))
    else:
        check_real(value, "block_length", low=1.0)


def _check_inference_kwds(kwds: Any, cov_type: str) -> dict:
    """``inference_kwds`` checked key by key; errors name ``inference_kwds``."""
    if kwds is None:
        return {}
    if not isinstance(kwds, Mapping):
        raise TypeError(
            "inference_kwds must be a dict of keyword arguments of "
            f"skbrier.stats.brier_inference or None, got {type(kwds).__name__}."
        )
    kwds = dict(kwds)
    for key, value in kwds.items():
        if key not in INFERENCE_KEYS:
            raise TypeError(
                f"inference_kwds has an unknown or reserved key {key!r}; allowed: "
                f"{sorted(INFERENCE_KEYS)} (the other options are arguments of "
                "calibration_report)."
            )
        if INFERENCE_KEYS[key] != cov_type:
            raise ValueError(
                f"inference_kwds[{key!r}] applies to cov_type={INFERENCE_KEYS[key]!r} "
                f"only, not to cov_type={cov_type!r}."
            )
        try:
            _check_inference_value(key, value)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"inference_kwds[{key!r}]: {exc}") from None
    return kwds


def _check_inference_value(key: str, value: Any) -> None:
    if key == "n_resamples":
        check_n_resamples(value)
    elif key == "n_jobs":
        check_n_jobs(value)
    elif key == "bootstrap":
        check_option(value, "bootstrap", BOOTSTRAP_SCHEMES)
    elif key == "method":
        check_option(value, "method", BOOTSTRAP_METHODS)
    elif key == "block_length":
        _check_block_length(value)
    elif key == "hac_kwds" and value is not None and not isinstance(value, Mapping):
        raise TypeError(f"hac_kwds must be a dict or None, got {type(value).__name__}.")


def _check_thresholds(thresholds: Any) -> list[float] | None:
    if thresholds is None:
        return None
    return sorted(set(check_thresholds(thresholds, "thresholds").tolist()))


def _check_resampling(n_resamples, n_jobs, kwds: dict) -> tuple[int | None, int | None]:
    """``n_resamples`` and ``n_jobs`` (arguments, or the same keys of
    ``inference_kwds``; both at once is an error)."""
    out = []
    for key, value, check in (
        ("n_resamples", n_resamples, check_n_resamples),
        ("n_jobs", n_jobs, check_n_jobs),
    ):
        if value is not None and key in kwds:
            raise ValueError(
                f"{key} is given both as an argument and in inference_kwds; give it once."
            )
        out.append(check(value) if value is not None else kwds.pop(key, None))
    return out[0], out[1]


#: the parameters of ``calibration_report`` that :func:`check_options` checks,
#: in its order
REPORT_OPTIONS = (
    *("thresholds", "cov_type", "confidence_level", "n_bins", "strategy"),
    *("random_state", "prevalence", "inference_kwds", "name", "n_resamples", "n_jobs"),
)


def check_report_options(arguments: Mapping[str, Any]) -> Options:
    """:func:`check_options` of a call's arguments by name (every engine's
    ``calibration_report`` checks its options so)."""
    return check_options(*(arguments.get(k) for k in REPORT_OPTIONS))


def check_options(
    thresholds,
    cov_type,
    confidence_level,
    n_bins,
    strategy,
    random_state,
    prevalence,
    inference_kwds,
    name,
    n_resamples=None,
    n_jobs=None,
) -> Options:
    """Every option, checked before the data are touched."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a str or None, got {type(name).__name__}.")
    cov_type = check_option(cov_type, "cov_type", COV_TYPES)
    kwds = _check_inference_kwds(inference_kwds, cov_type)
    n_resamples, n_jobs = _check_resampling(n_resamples, n_jobs, kwds)
    if n_resamples is not None and cov_type != "bootstrap":  # as inference_kwds'
        raise ValueError(
            f"n_resamples applies to cov_type='bootstrap' only, not to "
            f"cov_type={cov_type!r} (its intervals draw no resamples)."
        )
    return Options(
        thresholds=_check_thresholds(thresholds),
        cov_type=cov_type,
        confidence_level=check_confidence_level(confidence_level),
        n_bins=check_n_bins(n_bins),
        strategy=check_option(strategy, "strategy", STRATEGIES),
        rng=check_random_state(random_state),
        prevalence=None
        if prevalence is None
        else check_scalar_probability(prevalence, name="prevalence", open_interval=True),
        inference_kwds=kwds,
        name=None if name is None else str(name),
        n_resamples=n_resamples,
        n_jobs=n_jobs,
    )
