"""The engine of :func:`internal_validation`: the refits of one validation.

:func:`validate` runs one internal validation of a :class:`Sample` (the
development rows, or an outer bootstrap resample of them for the intervals
of :mod:`._optimism_ci`): the apparent fit, then Harrell's bootstrap (through
skbrier's one resampling engine) or pminternal's cross-validation, and the
estimates that :class:`InternalValidationResult` reports.
"""

from __future__ import annotations

import dataclasses
import threading
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from sklearn import get_config
from sklearn.base import clone
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import has_fit_parameter

from .._core.resampling import frequency_resampler, resample_indices, run_replicates
from .._response import forecasts_from_estimator
from ._optimism_measures import MeasureSet, combine_632, harrell_632_weights
from .cross_validation import _take_rows

__all__ = [
    "ESTIMATES",
    "Sample",
    "Settings",
    "Validation",
    "check_failures",
    "check_indices",
    "chunk_number",
    "n_rows",
    "validate",
    "warn_separated",
]

#: resamples per chunk of the engine (fixed: results do not depend on n_jobs)
_CHUNK = 4


def n_rows(X: Any) -> int:
    shape = getattr(X, "shape", None)
    return int(shape[0]) if shape is not None else len(X)


def _weight_param(estimator: Any) -> str:
    """The ``fit`` keyword that carries the weights to the estimator.

    ``sample_weight``; for a :class:`~sklearn.pipeline.Pipeline` without
    metadata routing, its final step's ``<step>__sample_weight``.  A
    TypeError naming ``sample_weight`` when the estimator takes none.
    """
    final = estimator
    name = "sample_weight"
    if isinstance(estimator, Pipeline) and not get_config().get("enable_metadata_routing"):
        step, final = estimator.steps[-1]
        name = f"{step}__sample_weight"
    if (
        final is not None
        and final != "passthrough"
        and not has_fit_parameter(final, "sample_weight")
    ):
        raise TypeError(
            f"sample_weight (or resample='weights') needs an estimator whose fit "
            f"takes sample_weight; {type(final).__name__}.fit does not: resample "
            "rows instead (resample='rows', without sample_weight)."
        )
    return name


class _Refits:
    """Fits clones of the estimator on resamples and predicts the original rows."""

    def __init__(
        self, estimator: Any, X: Any, y: np.ndarray, pos_label: Any, weighted: bool
    ) -> None:
        self.estimator, self.X, self.y, self.pos_label = estimator, X, y, pos_label
        self.weight_param = _weight_param(estimator) if weighted else ""
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def fit_predict(
        self, rows: np.ndarray | None, weights: np.ndarray | None
    ) -> np.ndarray:
        """Predictions on all original rows of a clone fitted on ``rows`` (with ``weights``)."""
        X, y = self.X, self.y
        if rows is not None:
            X, y = _take_rows(X, rows), y[rows]
        kw = {} if weights is None else {self.weight_param: weights}
        model = clone(self.estimator).fit(X, y, **kw)
        p = forecasts_from_estimator(model, self.X, pos_label=self.pos_label).y_proba
        return np.asarray(p, dtype=np.float64)

    def resample(self, rows: np.ndarray | None, weights: np.ndarray | None) -> np.ndarray:
        """:meth:`fit_predict`, NaN (with the error kept) when the refit fails."""
        try:
            return self.fit_predict(rows, weights)
        except Exception as exc:  # noqa: BLE001 (a failed refit is a missing resample, as pminternal)
            with self.lock:
                self.errors.append(f"{type(exc).__name__}: {exc}")
            return np.full(n_rows(self.X), np.nan)


def check_indices(indices: Any, name: str, n: int, shapes: dict[str, tuple]) -> np.ndarray:
    """``indices`` as 0-based row numbers (``np.intp``) of one of ``shapes``
    (the shape's description -> the shape)."""
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer row numbers, got dtype {idx.dtype}.")
    if idx.shape not in shapes.values():
        want = " or ".join(f"{k} = {v}" for k, v in shapes.items())
        raise ValueError(f"{name} must have shape {want}, got {idx.shape}.")
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError(f"{name} must be row numbers in [0, {n - 1}] (0-based).")
    return idx.astype(np.intp)


def _means(values: np.ndarray, *sources: np.ndarray) -> np.ndarray:
    """The mean over resamples (rows) of each measure, leaving out the NaN
    ones (undefined: a refit failed, one class); NaN for a measure whose
    replicates in ``values`` or ``sources`` (the replicates it is computed
    from) are infinite somewhere: a separated calibration fit, see
    :func:`warn_separated`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all NaN: NaN
        out = np.nanmean(values, axis=0)
    for s in (values, *sources):
        out[np.isinf(s).any(axis=0)] = np.nan
    return out


def warn_separated(fit: Validation, names: list[str], n_rows: int, events: float) -> None:
    """One RuntimeWarning for the measures left NaN by separated calibration
    fits (infinite replicates, see :func:`_means`), counting the resamples.

    pminternal averages R ``glm``'s finite slope after it stops on such a
    resample (a large, arbitrary value, with glm's warning); skbrier reports
    the estimate as undefined instead.
    """
    parts = [v for k, v in fit.replicates.items() if k not in ("weight_632", "optimism")]
    bad = np.zeros((parts[0].shape[0], len(names)), dtype=bool)
    for v in parts:
        bad |= np.isinf(v)
    hit = bad.any(axis=0) | np.isinf(fit.apparent)
    if not hit.any():
        return
    which = ", ".join(n for n, h in zip(names, hit) if h)
    kind = "folds" if "train" in fit.replicates else "bootstrap resamples"
    warnings.warn(
        f"{which}: the forecasts separate the outcomes (the logistic recalibration "
        f"has no finite slope) on {int(bad.any(axis=1).sum())} of {bad.shape[0]} "
        f"{kind}{' and on the original rows' if np.isinf(fit.apparent).any() else ''}, "
        f"so the estimates computed from those are NaN. The model overfits these "
        f"{n_rows} rows ({events:.4g} events): use more rows or events per predictor, "
        "a penalised or simpler model, or leave these measures out of measures.",
        RuntimeWarning,
        stacklevel=3,
    )


def check_failures(errors: list[str], total: int, what: str) -> None:
    """A ValueError when every refit failed, a RuntimeWarning when some did
    (their resamples or folds are left out, as pminternal)."""
    if len(errors) == total:
        raise ValueError(
            f"every one of the {total} {what} refits failed; the first error: {errors[0]}"
        )
    if errors:
        warnings.warn(
            f"{len(errors)} of {total} {what} refits failed and are left out (the first "
            f"error: {errors[0]}).",
            RuntimeWarning,
            stacklevel=3,
        )


def _pminternal_folds(n: int, k: int) -> list[np.ndarray]:
    """pminternal's folds: contiguous blocks, fold ``i`` (1-based) the rows
    ``round((i - 1) n / k) .. round(i n / k) - 1`` (0-based; R's rounding,
    half to even, as numpy's)."""
    if n / k < 2:
        raise ValueError(
            f"n_bootstrap={k} folds of {n} rows leave fewer than 2 rows per fold "
            "(correction='cv_optimism'): decrease n_bootstrap."
        )
    edges = np.round(np.arange(k + 1) * (n / k)).astype(np.intp)
    return [np.arange(edges[i], edges[i + 1]) for i in range(k)]


def _cv_optimism(
    refits: _Refits,
    spec: MeasureSet,
    y01: np.ndarray,
    w: np.ndarray | None,
    folds: list[np.ndarray],
) -> dict[str, np.ndarray]:
    """Each fold's model scored on its training rows and on its held-out fold
    (``"train"``, ``"test"``, shape ``(k, n_measures)``) and its predictions
    of every row (``"predictions"``, ``(k, n)``)."""
    n, m = y01.shape[0], len(spec)
    train = np.full((len(folds), m), np.nan)
    test = np.full_like(train, np.nan)
    preds = np.empty((len(folds), n))
    for i, rows in enumerate(folds):
        fit_rows = np.setdiff1d(np.arange(n), rows)
        fit_w = None if w is None else w[fit_rows]
        preds[i] = p = refits.resample(fit_rows, fit_w)
        if not np.isnan(p).any():
            train[i] = spec(y01[fit_rows], p[fit_rows], fit_w)
            test[i] = spec(y01[rows], p[rows], None if w is None else w[rows])
    return {"train": train, "test": test, "predictions": preds}


# --------------------------------------------------------------------------- one validation
class Sample(NamedTuple):
    """The rows of one validation: features, labels, 0/1 outcomes and weights."""

    X: Any
    labels: np.ndarray
    y01: np.ndarray
    w: np.ndarray | None

    def resampled(self, counts: np.ndarray, rows: np.ndarray | None) -> Sample:
        """The resample drawn as ``rows`` (repeated; None: as the multiplicities
        ``counts`` of the rows drawn, carried as their weights)."""
        if rows is not None:
            return Sample(_take_rows(self.X, rows), self.labels[rows], self.y01[rows], None)
        used = np.flatnonzero(counts)
        return Sample(
            _take_rows(self.X, used), self.labels[used], self.y01[used], counts[used]
        )


@dataclasses.dataclass(frozen=True)
class Settings:
    """What every validation of one call shares: the estimator and the options."""

    estimator: Any
    pos_label: Any
    spec: MeasureSet
    correction: str
    n_bootstrap: int
    mode: str  # "rows" or "weights": how a resample reaches the estimator

    def refits(self, sample: Sample) -> _Refits:
        return _Refits(
            self.estimator, sample.X, sample.labels, self.pos_label, self.mode == "weights"
        )

    def apparent(self, sample: Sample) -> tuple[_Refits, np.ndarray, np.ndarray]:
        """The refitter of ``sample``, the apparent model's predictions and measures."""
        refits = self.refits(sample)
        p_app = refits.fit_predict(None, sample.w)
        return refits, p_app, self.spec(sample.y01, p_app, sample.w)


#: the estimates of a validation (:attr:`Validation.estimates`), in the order of
#: the result's table; each is None where the correction does not compute it
ESTIMATES: tuple[str, ...] = (
    "optimism",
    "corrected",
    "simple_bootstrap",
    "out_of_bag",
    "no_information",
    "relative_overfitting",
    "corrected_632",
    "corrected_632plus",
    "cv_average",
)


@dataclasses.dataclass(frozen=True)
class Validation:
    """One validation: the apparent measures and the estimates (arrays over
    the measures, None when not computed), as the result's fields."""

    apparent: np.ndarray
    p_app: np.ndarray
    estimates: dict[str, np.ndarray | None]
    n_valid: np.ndarray
    replicates: dict[str, np.ndarray]
    predictions: np.ndarray  # of the models whose refit succeeded
    errors: list[str]


def chunk_number(rng: np.random.Generator) -> int:
    """The number of the engine's chunk that ``rng`` was spawned for (a
    :class:`numpy.random.SeedSequence` child of the run's seed)."""
    return int(rng.bit_generator.seed_seq.spawn_key[-1])  # type: ignore[attr-defined]


def resample_counter(
    w: np.ndarray | None, n: int
) -> Callable[[np.ndarray | None, np.random.Generator], np.ndarray]:
    """``counts(rows, rng)``: how often each of the ``n`` rows enters one
    bootstrap resample: the counts of the drawn ``rows``, or (``rows=None``,
    frequency weights ``w``) a resample of the weights drawn with ``rng``."""
    draw = None if w is None else frequency_resampler(w, n)

    def counts(rows: np.ndarray | None, rng: np.random.Generator) -> np.ndarray:
        if rows is None:
            assert draw is not None
            return draw(rng)
        return np.bincount(rows, minlength=n).astype(np.float64)

    return counts


def validate(
    settings: Settings,
    sample: Sample,
    *,
    indices: np.ndarray | None,
    seed: Any,
    n_jobs: int | None,
) -> Validation:
    """One internal validation of ``sample`` (``indices``: its resamples, else
    drawn from ``seed``)."""
    refits, p_app, apparent = settings.apparent(sample)
    if settings.correction == "cv_optimism":
        fit = _cv_validation(settings, sample, refits, apparent, p_app)
    else:
        fit = _bootstrap_validation(
            settings, sample, refits, apparent, p_app, indices, seed, n_jobs
        )
    separated = np.isinf(apparent)  # the apparent model separates the outcomes
    for estimate in fit.estimates.values():
        if estimate is not None:
            estimate[separated] = np.nan
    return fit


def _cv_validation(
    settings: Settings,
    sample: Sample,
    refits: _Refits,
    apparent: np.ndarray,
    p_app: np.ndarray,
) -> Validation:
    """``correction="cv_optimism"``: pminternal's ``crossval`` on ``n_bootstrap`` folds."""
    y01, w, k = sample.y01, sample.w, settings.n_bootstrap
    cv = _cv_optimism(refits, settings.spec, y01, w, _pminternal_folds(y01.shape[0], k))
    with np.errstate(invalid="ignore"):  # inf - inf of separated fits: see _means
        opt = cv["train"] - cv["test"]
    optimism = _means(opt, cv["train"], cv["test"])
    return Validation(
        apparent=apparent,
        p_app=p_app,
        estimates={
            **dict.fromkeys(ESTIMATES),
            "optimism": optimism,
            "corrected": apparent - optimism,
            "cv_average": _means(cv["test"]),
        },
        n_valid=(~np.isnan(opt)).sum(axis=0),
        replicates={"train": cv["train"], "test": cv["test"], "optimism": opt},
        predictions=cv["predictions"][~np.isnan(opt[:, 0])],
        errors=refits.errors,
    )


def _bootstrap_validation(
    settings: Settings,
    sample: Sample,
    refits: _Refits,
    apparent: np.ndarray,
    p_app: np.ndarray,
    idx_all: np.ndarray | None,
    seed: Any,
    n_jobs: int | None,
) -> Validation:
    """Harrell's bootstrap optimism and .632 / .632+ on ``n_bootstrap`` resamples."""
    spec, mode, B = settings.spec, settings.mode, settings.n_bootstrap
    y01, w = sample.y01, sample.w
    n, m = y01.shape[0], len(spec)
    resampled = resample_counter(w, n)

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        if idx_all is not None:
            j = chunk_number(rng) * _CHUNK
            rows_chunk: list[np.ndarray | None] = list(idx_all[j : j + size])
        elif w is None:
            rows_chunk = list(resample_indices(rng, n, size))
        else:
            rows_chunk = [None] * size
        out = np.empty((size, 3 * m + 2 * n))
        for k, rows in enumerate(rows_chunk):
            counts = resampled(rows, rng)
            used = np.flatnonzero(counts)
            if mode == "rows":
                p = refits.resample(rows, None)
            else:
                p = refits.resample(used, counts[used])
            oob = counts == 0
            if np.isnan(p).any():
                out[k, : 3 * m] = np.nan
            else:
                out[k, :m] = spec(y01[used], p[used], counts[used])
                out[k, m : 2 * m] = spec(y01, p, w)
                out[k, 2 * m : 3 * m] = spec(
                    y01[oob], p[oob], None if w is None else w[oob]
                )
            out[k, 3 * m : 3 * m + n] = counts
            out[k, 3 * m + n :] = p
        return out

    reps = run_replicates(
        task,
        B,
        random_state=seed,
        n_jobs=n_jobs,
        chunk_size=_CHUNK,
        desc="internal validation",
    )
    boot, orig, oob = reps[:, :m], reps[:, m : 2 * m], reps[:, 2 * m : 3 * m]
    counts_all, preds = reps[:, 3 * m : 3 * m + n], reps[:, 3 * m + n :]
    with np.errstate(invalid="ignore"):  # inf - inf of separated fits: see _means
        opt_b = boot - orig
    harrell = settings.correction in ("harrell", "both")
    plus = settings.correction in ("632plus", "both")
    optimism = _means(opt_b, boot, orig)
    est: dict[str, np.ndarray | None] = dict.fromkeys(ESTIMATES)
    if harrell:
        est.update(
            optimism=optimism, corrected=apparent - optimism, simple_bootstrap=_means(orig)
        )
    if refits.errors and len(refits.errors) == B:
        plus = False  # nothing to combine: the caller reports the failures
    weight = harrell_632_weights(counts_all == 0) if plus else np.full(B, np.nan)
    if plus:
        e1 = _means(weight[:, None] * oob, oob)
        gamma = spec.no_information(y01, p_app, w)
        r, c632, c632p = combine_632(apparent, e1, gamma, spec.sense)
        est.update(
            out_of_bag=e1,
            no_information=gamma,
            relative_overfitting=r,
            corrected_632=c632,
            corrected_632plus=c632p,
        )
    valid = ~np.isnan(opt_b) if harrell else ~np.isnan(oob)
    return Validation(
        apparent=apparent,
        p_app=p_app,
        estimates=est,
        n_valid=valid.sum(axis=0),
        replicates={
            "bootstrap": boot,
            "original": orig,
            "out_of_bag": oob,
            "optimism": opt_b,
            "weight_632": weight,
        },
        predictions=preds[~np.isnan(preds).any(axis=1)],
        errors=refits.errors,
    )
