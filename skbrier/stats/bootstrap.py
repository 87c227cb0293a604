"""Bootstrap for independent and serially dependent data.

Resampling schemes:

* ``"iid"``: Efron's bootstrap of single observations;
* ``"moving_block"``: Künsch's moving block bootstrap, ``ceil(T / L)``
  overlapping blocks of length ``L`` whose starts are uniform on
  ``0 .. T - L``, concatenated and cut to ``T``;
* ``"circular_block"``: the same with blocks wrapping around the end of the
  series (Politis & Romano 1992), so every observation is equally likely;
* ``"stationary"``: Politis & Romano's (1994) stationary bootstrap, blocks
  of geometric length with mean ``L`` starting at uniform positions and
  wrapping around.

Everything runs through the one resampling engine,
:mod:`skbrier._core.resampling`: index generation is vectorised over
resamples, the resamples are split into chunks whose size depends only on
``T``, and chunk ``j`` draws from the ``j``-th generator spawned from
``random_state``, so the result is the same for every ``n_jobs`` (chunks run
in joblib threads).  Percentile and basic intervals come from
:func:`~skbrier._core.resampling.interval_from_replicates` (numpy's linear
quantiles, the convention of :func:`scipy.stats.bootstrap`); only BCa
intervals are computed by :func:`scipy.stats.bootstrap` (from the stored
bootstrap distribution, through its ``bootstrap_result`` argument).

Weights.  Weighted statistics take the weights as their last sample.  With
the iid scheme the weights are *frequency* weights
(:func:`prepare_frequency_weights`): integer weights are expanded into
repeated rows (so the bootstrap is exactly that of the repeated rows), other
weights are resampled as multinomial counts of ``round(W)`` draws with
probabilities ``w / W`` (drawn by the alias method of
:func:`skbrier._core.alias.multinomial_sampler`).  With the block schemes
the rows of the series are resampled together with their weights (a weight
is attached to a time point).
"""

from __future__ import annotations

import dataclasses
import numbers
import warnings
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any, ClassVar, Literal, cast

import numpy as np
import scipy.stats

from .._core.alias import multinomial_sampler
from .._core.docstrings import with_pieces
from .._core.kernels.moments import replicate_std
from .._core.params import (
    DEFAULT_N_RESAMPLES,
    check_n_jobs,
    check_n_resamples,
    check_random_state,
)
from .._core.resampling import (
    BOOTSTRAP_SCHEMES,
    CHUNK_ELEMENTS,
    MAX_EXPANDED_ROWS,
    MAX_FREQUENCY_DRAWS,
    Scratch,
    counted_batch,
    interval_from_replicates,
    resample_indices,
    run_replicates,
)
from .._core.results import ConfidenceInterval, _IntervalResult
from .block_length import check_block_length, default_block_length, resolve_block_length

#: the references of the block bootstraps, cited by both public functions
_PIECES = {
    "block_references": """\
.. [1] H. R. Künsch, "The jackknife and the bootstrap for general stationary
   observations", Annals of Statistics 17(3), 1217-1241, 1989.
.. [2] D. N. Politis and J. P. Romano, "The stationary bootstrap", JASA
   89(428), 1303-1313, 1994.""",
}

__all__ = [
    "BOOTSTRAP_SCHEMES",
    "BootstrapResult",
    "block_bootstrap",
    "bootstrap_indices",
    "default_block_length",
]

_BLOCK_SCHEMES = BOOTSTRAP_SCHEMES[1:]
_CI_METHODS = ("percentile", "basic", "bca")
CIMethod = Literal["percentile", "basic", "bca"]

_CHUNK_ELEMENTS = CHUNK_ELEMENTS


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class BootstrapResult(_IntervalResult):
    """Result of :func:`block_bootstrap`: the replicates and their intervals.

    The attributes ``bootstrap_distribution`` and ``standard_error`` are
    those of :func:`scipy.stats.bootstrap`'s result; the interval is the
    method :meth:`confidence_interval` of the result protocol of skbrier:
    ``metric``: ``"statistic"`` (the statistic given to
    :func:`block_bootstrap`, floats or arrays for stacked statistics);
    ``method``: ``"percentile"``, ``"basic"`` or ``"bca"`` (iid scheme
    only), by default the one given to :func:`block_bootstrap`.

    Attributes
    ----------
    bootstrap_distribution : ndarray
        The replicates, resamples on the last axis.
    standard_error : float or ndarray
        Standard deviation of the replicates (``ddof=1``).
    method : str
        The interval type given to :func:`block_bootstrap`.
    alternative : str
        ``"two-sided"``, ``"less"`` or ``"greater"``.

    See Also
    --------
    block_bootstrap : the function that returns it.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats import block_bootstrap
    >>> x = np.random.default_rng(0).normal(size=60)
    >>> res = block_bootstrap((x,), np.mean, n_resamples=200, random_state=0)
    >>> res.bootstrap_distribution.shape
    (200,)
    >>> ci = res.confidence_interval(0.9)
    >>> bool(ci.low < x.mean() < ci.high)
    True
    """

    bootstrap_distribution: np.ndarray
    standard_error: Any
    method: str = "percentile"
    alternative: str = "two-sided"
    _data: tuple = dataclasses.field(default=(), compare=False)
    _statistic: Any = dataclasses.field(default=None, compare=False)
    _scheme: str = "iid"

    _summary_fields: ClassVar[tuple[str, ...]] = ("method", "alternative")
    _interval_metrics: ClassVar[tuple[str, ...]] = ("statistic",)
    _interval_methods: ClassVar[tuple[str, ...]] = _CI_METHODS

    def _default_method(self, metric: str) -> str:
        return self.method

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        return confidence_interval_from_distribution(
            self._data,
            self._statistic,
            self.bootstrap_distribution,
            confidence_level=level,
            method=_check_ci_method(method, self._scheme),
            alternative=self.alternative,
        )


# --------------------------------------------------------------------------
# parameter checks
# --------------------------------------------------------------------------
def _check_scheme(scheme: Any, name: str = "bootstrap") -> str:
    if not isinstance(scheme, str) or scheme not in BOOTSTRAP_SCHEMES:
        raise ValueError(f"{name} must be one of {BOOTSTRAP_SCHEMES}, got {scheme!r}.")
    return scheme


def _check_ci_method(method: Any, scheme: str) -> CIMethod:
    if not isinstance(method, str) or method.lower() not in _CI_METHODS:
        raise ValueError(f"method must be one of {_CI_METHODS}, got {method!r}.")
    method = method.lower()
    if method == "bca" and scheme != "iid":
        raise ValueError(
            "method='bca' is only available with the iid bootstrap: its acceleration "
            "uses the delete-one jackknife, which is not valid for serially "
            "dependent data. Use method='percentile' or 'basic' with block bootstraps."
        )
    return cast(CIMethod, method)  # checked to be in _CI_METHODS above


def _stored_ci_method(boot: dict[str, Any], method: Any) -> CIMethod:
    """The interval type for the stored replicates ``boot`` of a result
    (``method=None``: the one the result was made with)."""
    method = _check_ci_method(boot["method"] if method is None else method, boot["scheme"])
    if method == "bca" and boot["draws"] is not None:
        raise ValueError(
            "method='bca' is not available with non-integer (or very large) "
            "frequency weights: its jackknife deletes whole rows. Use 'percentile' "
            "or 'basic'."
        )
    return method


# --------------------------------------------------------------------------
# index generation
# --------------------------------------------------------------------------
def _indices(
    rng: np.random.Generator, n: int, b: int, scheme: str, block_length: float
) -> np.ndarray:
    """(b, n) resampling indices (validation-free; the engine's draws)."""
    return resample_indices(rng, n, b, scheme, block_length)


@with_pieces(_PIECES)
def bootstrap_indices(
    n_samples: int,
    n_resamples: int,
    *,
    bootstrap: str = "moving_block",
    block_length: float | None = None,
    random_state: Any = None,
) -> np.ndarray:
    """Resampling indices of the iid, moving, circular block and stationary bootstraps.

    Parameters
    ----------
    n_samples : int
        Length ``T`` of the series (at least 2).
    n_resamples : int
        Number of resamples.
    bootstrap : {"iid", "moving_block", "circular_block", "stationary"}, default="moving_block"
        Resampling scheme (see Notes).
    block_length : int or float, default=None
        Block length ``L`` (integer for the block schemes, the mean block
        length for the stationary bootstrap).  Default
        :func:`default_block_length`, ``round(T ** (1/3))``.  Ignored for iid.
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator
        Seed of the resampling.

    Returns
    -------
    ndarray of shape (n_resamples, n_samples)
        Row ``b`` holds the indices of resample ``b``.

    Raises
    ------
    ValueError
        For an unknown scheme or a block length outside ``[1, T]``.

    See Also
    --------
    block_bootstrap : bootstrap distribution and confidence interval of a statistic.

    Notes
    -----
    Moving block: ``ceil(T/L)`` blocks ``t, t+1, ..., t+L-1`` with ``t``
    uniform on ``0..T-L`` (Künsch 1989), cut to ``T``.  Circular block: ``t``
    uniform on ``0..T-1`` and indices taken modulo ``T``.  Stationary: each
    index is the next one (modulo ``T``) with probability ``1 - 1/L`` and a
    uniform new start with probability ``1/L`` (Politis & Romano 1994).

    References
    ----------
    {{block_references}}

    Examples
    --------
    >>> from skbrier.stats.bootstrap import bootstrap_indices
    >>> idx = bootstrap_indices(10, 3, bootstrap="moving_block", block_length=5,
    ...                         random_state=0)
    >>> idx.shape
    (3, 10)
    >>> bool(((idx[:, 1:5] - idx[:, :4]) == 1).all())  # blocks of consecutive indices
    True
    """
    scheme = _check_scheme(bootstrap)
    if isinstance(n_samples, (bool, np.bool_)) or not isinstance(
        n_samples, numbers.Integral
    ):
        raise TypeError(f"n_samples must be an integer, got {n_samples!r}.")
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2, got {n_samples}.")
    b = check_n_resamples(n_resamples)
    bl = check_block_length(block_length, int(n_samples), scheme)
    rng = check_random_state(random_state)
    return _indices(rng, int(n_samples), b, scheme, bl)


# --------------------------------------------------------------------------
# bootstrap distribution
# --------------------------------------------------------------------------
def bootstrap_distribution(
    data: Sequence[np.ndarray],
    statistic: Callable[..., np.ndarray],
    *,
    scheme: str,
    block_length: float,
    n_resamples: int,
    random_state: Any,
    n_jobs: int | None,
    draws: int | None = None,
    counts_statistic: Callable[..., np.ndarray] | None = None,
    companion: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """Bootstrap distribution (validation-free); resamples on the last axis.

    ``draws`` (iid only, see :func:`prepare_frequency_weights`): the last
    element of ``data`` holds frequency weights; each resample draws ``draws``
    rows with probabilities ``w / W`` (multinomial counts, drawn by
    :func:`~skbrier._core.alias.multinomial_sampler`, the sampler of
    :func:`~skbrier._core.resampling.frequency_resampler`) and passes the
    counts as the weights.
    ``counts_statistic`` (no ``draws``): ``statistic`` with the resample's
    counts of each row as frequency weights (a last argument); the same
    draws are then counted (``np.bincount``) instead of gathered, several
    times cheaper for long columns, and the replicates are the same to
    rounding.  ``companion``: a further statistic of the resamples,
    ``companion(counts)`` of shape ``(size, k)`` for the counts of each row
    of ``data`` in each resample (shape ``(size, n)``; the multinomial counts
    with ``draws``), computed on the same draws; its ``k`` rows follow the
    statistic's in the distribution (the calibration report refits its
    logistic calibration on the resamples of the Brier score's bootstrap,
    drawn once).  Counted resamples (``counts_statistic`` or ``draws``) of
    long columns run in chunks of up to
    :data:`~skbrier._core.resampling.COUNTED_BATCH` resamples
    (:func:`~skbrier._core.resampling.counted_batch`), written into one
    buffer per thread reused by every chunk.
    """
    n = data[0].shape[0]
    chunk = max(2, _CHUNK_ELEMENTS // max(n, 1))
    if counts_statistic is not None and draws is None:
        scratch = Scratch()
        chunk = max(chunk, counted_batch(n))

        def task(size: int, rng: np.random.Generator) -> np.ndarray:
            counts = scratch.rows(size, n)
            if scheme == "iid":  # a resample's indices at a time: the same draws
                for r in range(size):
                    counts[r] = np.bincount(resample_indices(rng, n, 1)[0], minlength=n)
            else:
                idx = resample_indices(rng, n, size, scheme, block_length)
                for r in range(size):
                    counts[r] = np.bincount(idx[r], minlength=n)
                del idx
            tiled = [np.broadcast_to(d, (size, n)) for d in data]
            out = np.moveaxis(np.asarray(counts_statistic(*tiled, counts, axis=-1)), -1, 0)
            return _with_companion(out, companion, counts)
    elif draws is not None:
        *cols, w = data
        draw = multinomial_sampler(w, draws)
        scratch = Scratch()
        chunk = max(chunk, counted_batch(n))

        def task(size: int, rng: np.random.Generator) -> np.ndarray:
            counts = scratch.rows(size, n)
            for r in range(size):
                counts[r] = draw(rng)
            tiled = [np.broadcast_to(d, (size, n)) for d in cols]
            out = np.moveaxis(np.asarray(statistic(*tiled, counts, axis=-1)), -1, 0)
            return _with_companion(out, companion, counts)
    else:

        def task(size: int, rng: np.random.Generator) -> np.ndarray:
            idx = resample_indices(rng, n, size, scheme, block_length)
            out = np.moveaxis(
                np.asarray(statistic(*[d[idx] for d in data], axis=-1)), -1, 0
            )
            if companion is None:
                return out
            counts = np.stack([np.bincount(i, minlength=n) for i in idx]).astype(np.float64)
            return _with_companion(out, companion, counts)

    dist = run_replicates(
        task,
        n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        chunk_size=chunk,
        desc="bootstrap",
    )
    return np.moveaxis(dist, 0, -1)


def _with_companion(
    out: np.ndarray,
    companion: Callable[[np.ndarray], np.ndarray] | None,
    counts: np.ndarray,
) -> np.ndarray:
    """The replicates ``out`` (``(size, m)``) and the companion's of the same
    resamples' ``counts`` after them."""
    if companion is None:
        return out
    return np.concatenate([out, np.asarray(companion(counts))], axis=1)


def _check_vectorised(statistic: Callable[..., Any], arrays: Sequence[np.ndarray]) -> None:
    """``statistic`` of two stacked copies of the samples: one value per copy."""
    stacked = [np.broadcast_to(a, (2, a.shape[0])) for a in arrays]
    out = np.asarray(statistic(*stacked, axis=-1))
    if out.ndim == 0 or out.shape[-1] != 2:
        raise ValueError(
            "statistic must be vectorised along axis=-1: called with samples of "
            f"shape (2, {arrays[0].shape[0]}) it returned shape {out.shape}, not one "
            "value per row on the last axis (e.g. np.mean(a, axis=axis))."
        )


def confidence_interval_from_distribution(
    data: Sequence[np.ndarray],
    statistic: Callable[..., np.ndarray],
    distribution: np.ndarray,
    *,
    confidence_level: float,
    method: str,
    alternative: str = "two-sided",
    estimate: Any = None,
) -> ConfidenceInterval:
    """Interval from an existing bootstrap distribution (resamples on the last axis).

    Percentile and basic: :func:`~skbrier._core.resampling.interval_from_replicates`
    (``estimate`` defaults to ``statistic(*data)``).  BCa: scipy (its
    jackknife needs ``data`` and ``statistic``).
    """
    if method == "bca":
        n = data[0].shape[0]
        # constant or undefined delete-one values: no acceleration (scipy
        # divides 0 by 0, with a warning) and NaN bounds, refused below
        with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
            warnings.simplefilter("ignore", scipy.stats.DegenerateDataWarning)
            res = scipy.stats.bootstrap(
                data,
                statistic,
                n_resamples=0,
                paired=True,
                vectorized=True,
                confidence_level=confidence_level,
                alternative=alternative,
                method=method,
                batch=max(1, _CHUNK_ELEMENTS // n),
                bootstrap_result=SimpleNamespace(bootstrap_distribution=distribution),
            )
        ci = res.confidence_interval
        if np.isnan(np.r_[ci.low, ci.high].astype(np.float64)).any():
            raise ValueError(
                "method='bca': the BCa interval is undefined here -- the statistic's "
                "delete-one jackknife values are constant, infinite or undefined (too "
                f"few rows: {n}, or a one-class subsample), or so are the replicates. "
                "Use method='percentile' or 'basic'."
            )
        return ci
    if method == "basic" and estimate is None:
        estimate = statistic(*data, axis=-1)
    return interval_from_replicates(
        distribution,
        confidence_level,
        method=method,
        estimate=estimate,
        alternative=alternative,
        axis=-1,
    )


def prepare_frequency_weights(
    data: Sequence[np.ndarray], w: np.ndarray | None, scheme: str, method: str
) -> tuple[list[np.ndarray], bool, int | None]:
    """How a weighted bootstrap resamples frequency weights (validation-free).

    Returns ``(samples, weighted, draws)``; where ``weighted`` the weights
    are the last of ``samples`` (weighted statistics take them last):

    * no weights: ``(data, False, None)``;
    * a block scheme: ``(data + [w], True, None)`` (block schemes resample
      the rows together with their weights);
    * iid and integer weights with a total up to ``2**24``: the rows repeated
      ``w_t`` times and no weights, ``(expanded, False, None)``, so that the
      bootstrap is exactly the bootstrap of the repeated rows;
    * iid and other weights: ``(data + [w], True, round(W))``: each resample
      draws ``round(W)`` rows with probabilities ``w / W`` (multinomial
      counts, by the alias method of
      :func:`~skbrier._core.alias.multinomial_sampler`), the
      frequency-weight bootstrap of a sample of size ``W``;
      the interval ``method="bca"`` is refused (its jackknife deletes whole
      rows).

    Zero-weight rows must have been removed by the caller (iid).
    """
    if w is None:
        return list(data), False, None
    if scheme != "iid":
        return [*data, w], True, None
    total = float(w.sum())
    if total <= MAX_EXPANDED_ROWS and np.all(w == np.round(w)):
        counts = w.astype(np.int64)
        return [np.repeat(d, counts, axis=0) for d in data], False, None
    if total >= MAX_FREQUENCY_DRAWS:  # the shared limits of frequency_resampler
        raise ValueError(
            f"sample_weight sums to {total:g}: frequency weights that large (the total "
            "weight is the sample size) are beyond the iid bootstrap; use "
            "cov_type='iid'."
        )
    if method == "bca":
        raise ValueError(
            "method='bca' is not available with non-integer (or very large) frequency "
            "weights (its jackknife deletes whole rows); use method='percentile' or "
            "'basic', or integer weights."
        )
    return [*data, w], True, max(round(total), 2)


@with_pieces(_PIECES)
def block_bootstrap(
    data: Sequence[Any],
    statistic: Callable[..., Any],
    *,
    bootstrap: str = "moving_block",
    block_length: float | None = None,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    method: str = "percentile",
    alternative: str = "two-sided",
    random_state: Any = None,
    n_jobs: int | None = None,
) -> BootstrapResult:
    """Bootstrap confidence interval of a statistic of (possibly serially dependent) data.

    A companion of :func:`scipy.stats.bootstrap` for time series, with the
    same calling convention and result attributes: the samples in ``data``
    are paired (resampled with the same indices) and resampled in blocks, so
    that the dependence within a block is kept.  The draws are *not* those
    of :func:`scipy.stats.bootstrap` for the same ``random_state`` (see
    Notes); the intervals agree with scipy's in distribution.

    Parameters
    ----------
    data : sequence of array-like of shape (n_samples,)
        Paired 1-D samples (for example outcomes, forecasts and weights).
    statistic : callable
        ``statistic(*samples, axis=-1)`` vectorised along ``axis``: called
        with arrays of shape (n_chunk, n_samples) it returns an array whose
        last axis has length n_chunk (several statistics may be stacked on
        leading axes, as in scipy).
    bootstrap : {"iid", "moving_block", "circular_block", "stationary"}, default="moving_block"
        Resampling scheme (see :func:`bootstrap_indices`).  ``"iid"`` is
        Efron's bootstrap of single rows, as :func:`scipy.stats.bootstrap`
        with ``paired=True`` (but other draws for the same seed).
    block_length : int, float or "auto", default=None
        Block length (mean block length for ``"stationary"``).  Default
        ``round(T ** (1/3))`` (:func:`default_block_length`); ``"auto"``: the
        Politis-White estimate (:func:`skbrier.stats.block_length.optimal_block_length`,
        the longest over the samples, rounded for the block schemes).
    n_resamples : int, default=1999
        Number of resamples.
    method : {"percentile", "basic", "bca"}, default="percentile"
        Interval type of the result's ``confidence_interval``.  Percentile and basic intervals use numpy's linear
        quantiles of the replicates (scipy's convention); ``"bca"`` is
        computed by :func:`scipy.stats.bootstrap` from the bootstrap
        distribution, only with ``bootstrap="iid"`` (it costs a delete-one
        jackknife, O(T^2)).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        As in :func:`scipy.stats.bootstrap`.
    random_state : None, int, Generator, RandomState or SeedSequence, default=None
        Seed (converted by :func:`skbrier._core.params.check_random_state`).  The
        same seed gives the same result for every ``n_jobs``.
    n_jobs : int, default=None
        Number of joblib threads over chunks of resamples (None: 1; not 0).

    Returns
    -------
    BootstrapResult
        With ``bootstrap_distribution`` (resamples on the last axis) and
        ``standard_error``, as scipy's result, and the method
        ``confidence_interval(confidence_level=0.95)``.

    Raises
    ------
    ValueError
        For samples of different lengths or fewer than 3 observations, NaN
        or infinite values, an unknown scheme or method, ``"bca"`` with a
        block scheme, or a block length outside ``[1, T]``.

    See Also
    --------
    scipy.stats.bootstrap : the iid bootstrap.
    bootstrap_indices : the resampling indices.
    skbrier.stats.brier_inference : intervals for the Brier scores.

    Notes
    -----
    The resamples are drawn in chunks of ``max(2, 2**20 // T)`` resamples,
    chunk ``j`` from the ``j``-th generator spawned from
    ``check_random_state(random_state)``; hence results depend on
    ``random_state`` only, not on ``n_jobs``, and differ from the draws of
    :func:`scipy.stats.bootstrap`, which draws all resamples from one
    generator.

    References
    ----------
    {{block_references}}
    .. [3] S. N. Lahiri, *Resampling Methods for Dependent Data*, Springer, 2003.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats.bootstrap import block_bootstrap
    >>> rng = np.random.default_rng(0)
    >>> x = np.convolve(rng.normal(size=300), np.ones(5) / 5, mode="valid")
    >>> res = block_bootstrap((x,), np.mean, block_length=10, n_resamples=999,
    ...                       random_state=1)
    >>> low, high = res.confidence_interval(0.95)
    >>> bool(low < x.mean() < high)
    True
    >>> res.bootstrap_distribution.shape
    (999,)
    """
    scheme = _check_scheme(bootstrap)
    method = _check_ci_method(method, scheme)
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(
            f"alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}."
        )
    b = check_n_resamples(n_resamples)
    n_jobs = check_n_jobs(n_jobs)
    random_state = check_random_state(random_state)
    if not callable(statistic):
        raise TypeError("statistic must be callable.")
    if isinstance(data, np.ndarray) or not isinstance(data, Sequence) or len(data) == 0:
        raise TypeError("data must be a non-empty sequence (tuple or list) of 1-D samples.")
    arrays = []
    for i, d in enumerate(data):
        a = np.asarray(d)
        if a.ndim != 1:
            raise ValueError(f"data[{i}] must be 1-D, got shape {a.shape}.")
        if a.dtype.kind not in "biuf":
            raise TypeError(f"data[{i}] must be numeric, got dtype {a.dtype}.")
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            raise ValueError(f"data[{i}] contains NaN or infinity.")
        arrays.append(a)
    n = arrays[0].shape[0]
    for i, a in enumerate(arrays):
        if a.shape[0] != n:
            raise ValueError(
                f"data[{i}] has {a.shape[0]} samples but data[0] has {n}; the samples "
                "are paired and must have the same length."
            )
    if n < 3:
        raise ValueError(f"data must hold at least 3 observations, got {n}.")
    bl = resolve_block_length(block_length, np.column_stack(arrays).astype(float), scheme)
    _check_vectorised(statistic, arrays)
    dist = bootstrap_distribution(
        arrays,
        statistic,
        scheme=scheme,
        block_length=bl,
        n_resamples=b,
        random_state=random_state,
        n_jobs=n_jobs,
    )
    return BootstrapResult(
        dist,
        replicate_std(dist),
        method=method,
        alternative=alternative,
        _data=tuple(arrays),
        _statistic=statistic,
        _scheme=scheme,
    )
