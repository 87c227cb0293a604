r"""Confidence intervals of the optimism-corrected measures (Noma et al. 2021).

An optimism-corrected estimate :math:`\hat\theta_c = \hat\theta_{app} - \hat O`
has no standard error of its own; Noma et al. (2021) bootstrap it.  Both
methods draw ``n_resamples`` *outer* bootstrap resamples of the development
rows (skbrier's one resampling engine, one spawned generator per outer
resample) and refit the whole estimator on each:

* **location-shifted** (``"shifted"``): the percentile interval of the
  apparent measure over the outer resamples, shifted by the estimate's
  optimism, :math:`[q_{lo} - \hat O, q_{hi} - \hat O]` with
  :math:`\hat O = \hat\theta_{app} - \hat\theta_c`; one refit per outer
  resample;
* **two-stage** (``"twostage"``): the whole validation (``n_bootstrap``
  inner resamples, or folds) is run on each outer resample, and the interval
  is the percentile interval of its corrected estimates; ``n_resamples *
  n_bootstrap`` refits, so only with ``nested=True``.

pminternal's ``confint.internal_validate`` (``ci_type = "perc"``) computes
the same intervals for its ``"boot_optimism"`` (Harrell's), ``".632"`` and
``"cv_optimism"`` validations.
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.progress import quiet
from .._core.resampling import (
    interval_from_replicates,
    resample_indices,
    run_replicates,
)
from .._core.results import ConfidenceInterval
from ._optimism_core import Sample, Settings, chunk_number, resample_counter, validate

if TYPE_CHECKING:  # pragma: no cover
    from ._optimism import InternalValidationResult

__all__ = ["INTERVAL_METHODS", "corrected_interval", "interval_replicates"]

#: ``confidence_interval(method=...)`` -> (interval, the result field it covers)
INTERVAL_METHODS: dict[str, tuple[str, str]] = {
    "shifted": ("shifted", "corrected"),
    "twostage": ("twostage", "corrected"),
    "shifted_632": ("shifted", "corrected_632"),
    "twostage_632": ("twostage", "corrected_632"),
    "shifted_632plus": ("shifted", "corrected_632plus"),
    "twostage_632plus": ("twostage", "corrected_632plus"),
}
#: the corrected estimates each correction computes
_ESTIMATES: dict[str, tuple[str, ...]] = {
    "harrell": ("corrected",),
    "cv_optimism": ("corrected",),
    "632plus": ("corrected_632", "corrected_632plus"),
    "both": ("corrected", "corrected_632", "corrected_632plus"),
}


def interval_replicates(
    settings: Settings,
    sample: Sample,
    n_resamples: int,
    *,
    nested: bool,
    indices: np.ndarray | None,
    rng: Any,
    n_jobs: int | None,
) -> tuple[dict[str, np.ndarray], list[str]]:
    """The outer bootstrap: per outer resample the apparent measures and, with
    ``nested``, the corrected estimates of a whole validation of it.

    Returns the replicates (field -> ``(n_resamples, n_measures)``; NaN rows
    for the outer resamples that failed) and the errors of those.  The outer
    resample ``r`` is ``indices[r]`` (``indices[r, 0]``, its inner resamples
    ``indices[r, 1:]`` as positions in it) or drawn as the validation draws
    its resamples (rows, or frequency weights).
    """
    n, m = sample.y01.shape[0], len(settings.spec)
    resampled = resample_counter(sample.w, n)
    fields = ["apparent"] + (list(_ESTIMATES[settings.correction]) if nested else [])
    errors: list[str] = []
    lock = threading.Lock()
    # the inner validations of parallel outer resamples would each draw a line
    silent = quiet if n_jobs not in (None, 1) else contextlib.nullcontext

    def one(rng: np.random.Generator) -> np.ndarray:
        inner: np.ndarray | None = None
        outer: np.ndarray | None = None
        if indices is not None:
            j = chunk_number(rng)
            outer = indices[j] if indices.ndim == 2 else indices[j, 0]
            inner = None if indices.ndim == 2 else indices[j, 1:]
        elif sample.w is None:
            outer = resample_indices(rng, n, 1)[0]
        counts = resampled(outer, rng)
        rows = outer if settings.mode == "rows" else None
        sub = sample.resampled(counts, rows)
        if not nested:
            return settings.apparent(sub)[2]
        if inner is not None and rows is None:  # positions -> rows of the weighted resample
            assert outer is not None
            inner = np.searchsorted(np.flatnonzero(counts), outer[inner])
        with silent():
            fit = validate(settings, sub, indices=inner, seed=rng, n_jobs=None)
        if len(fit.errors) == settings.n_bootstrap:
            raise ValueError(f"every inner refit failed ({fit.errors[0]})")
        parts = [fit.apparent] + [fit.estimates[f] for f in fields[1:]]
        return np.concatenate(parts)  # type: ignore[arg-type]

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        out = np.full((size, len(fields) * m), np.nan)
        for k in range(size):
            try:
                out[k] = one(rng)
            except Exception as exc:  # noqa: BLE001 (a failed outer resample is left out)
                with lock:
                    errors.append(f"{type(exc).__name__}: {exc}")
        return out

    reps = run_replicates(
        task,
        n_resamples,
        # with indices, outer resample r is named by its spawn key
        random_state=np.random.SeedSequence(0) if indices is not None else rng,
        n_jobs=n_jobs,
        chunk_size=1,
        desc="internal validation intervals",
    )
    return {f: reps[:, i * m : (i + 1) * m] for i, f in enumerate(fields)}, errors


def default_method(result: InternalValidationResult) -> str:
    """Two-stage when the nested bootstrap ran, else location-shifted; of the
    headline estimate (Harrell's, else .632+)."""
    kind = "twostage" if result.nested else "shifted"
    return kind if result.corrected is not None else f"{kind}_632plus"


def corrected_interval(
    result: InternalValidationResult, metric: str, level: float, method: str
) -> ConfidenceInterval:
    """The interval ``method`` of the corrected ``metric`` (one bound per
    threshold for ``"net_benefit"``)."""
    kind, field = INTERVAL_METHODS[method]
    estimate = getattr(result, field)
    if estimate is None:
        choices = [k for k, (_, f) in INTERVAL_METHODS.items() if getattr(result, f)]
        raise ValueError(
            f"method={method!r} is the interval of {field}, which correction="
            f"{result.correction!r} does not compute: use one of {choices}."
        )
    reps = result.interval_replicates
    if reps is None:
        raise ValueError(
            "no interval resamples: call internal_validation with n_resamples > 0."
        )
    names = [k for k in result.measures if k.split("@")[0] == metric]
    if kind == "shifted":
        shift = np.array([result.apparent[k] - estimate[k] for k in names])
        values = reps["apparent"]
    elif field in reps:
        shift, values = np.zeros(len(names)), reps[field]
    else:
        raise ValueError(
            f"method={method!r} needs the nested bootstrap: call internal_validation "
            "with nested=True (n_resamples * n_bootstrap refits)."
        )
    cols = [result.measures.index(k) for k in names]
    # an outer resample whose forecasts separate its outcomes has no finite
    # calibration slope or intercept: undefined there (NaN, counted)
    values = np.where(np.isinf(values[:, cols]), np.nan, values[:, cols])
    low, high = interval_from_replicates(values, level)
    low, high = low - shift, high - shift
    if metric == "net_benefit":
        return ConfidenceInterval(low, high)
    return ConfidenceInterval(float(low[0]), float(high[0]))
