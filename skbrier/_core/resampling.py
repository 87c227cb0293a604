"""The one resampling engine of skbrier (no validation of data here).

Every bootstrap in the package (inference, comparisons, decompositions,
consistency bands, decision curves, the report) runs through
:func:`run_replicates`, draws its indices with :func:`resample_indices` or
:func:`resample_counts` (frequency weights: :func:`frequency_resampler`, the
total weight being the sample size; :func:`frequency_replicates` runs a
statistic of such multiplicities), and turns replicates into an interval
with :func:`interval_from_replicates`.  Hence:

* one ``random_state`` converter (:func:`skbrier._core.params.check_random_state`);
* the resamples are split into chunks of a size fixed by the caller (never by
  ``n_jobs``); chunk ``j`` draws from the ``j``-th generator spawned from
  ``random_state``, so the result is the same for every
  ``n_jobs`` and the same ``random_state`` gives the same draws from every
  entry point that resamples the same rows the same way;
* one quantile convention (numpy's default linear interpolation, as
  :func:`scipy.stats.bootstrap` uses) for percentile and basic intervals.

Schemes of :func:`resample_indices`:

* ``"iid"``: Efron's bootstrap of single rows;
* ``"moving_block"``: Künsch's moving block bootstrap, ``ceil(T / L)``
  overlapping blocks of length ``L`` with starts uniform on ``0 .. T - L``,
  concatenated and cut to ``T``;
* ``"circular_block"``: blocks wrap around the end (Politis & Romano 1992);
* ``"stationary"``: geometric block lengths with mean ``L`` (Politis & Romano
  1994).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .alias import multinomial_sampler
from .params import check_min_samples, check_random_state
from .progress import progress
from .results import ConfidenceInterval

__all__ = [
    "BOOTSTRAP_SCHEMES",
    "INTERVAL_METHODS",
    "NAN_POLICIES",
    "frequency_draws",
    "frequency_resampler",
    "interval_from_replicates",
    "repeated_rows",
    "resample_counts",
    "resample_indices",
    "resample_multiplicities",
    "rows_of_resamples",
    "stratified_indices",
    "run_replicates",
]

BOOTSTRAP_SCHEMES = ("iid", "moving_block", "circular_block", "stationary")
INTERVAL_METHODS = ("percentile", "basic")
NAN_POLICIES = ("warn", "raise", "omit")

# largest number of resampled indices held in memory at once (per chunk)
CHUNK_ELEMENTS = 2**20


def chunk_size_for(n: int) -> int:
    """Resamples per chunk so that one chunk of ``(size, n)`` indices fits in memory."""
    return max(2, CHUNK_ELEMENTS // max(int(n), 1))


#: largest number of counts a chunk of counted resamples holds (see
#: :func:`counted_batch`)
COUNTED_ELEMENTS = 2**24
#: resamples per chunk of counted resamples of long columns
COUNTED_BATCH = 8


def counted_batch(n: int) -> int:
    """Resamples per chunk of a bootstrap that counts its draws (a row of
    ``n`` float64 counts per resample, the indices drawn one resample at a
    time) at least: :data:`COUNTED_BATCH`, or fewer for columns so long that
    they would hold more than :data:`COUNTED_ELEMENTS` counts.  Per-chunk
    work (the calibration report's binned moments read the powers of every
    row once a chunk) then pays off over several resamples of long columns
    (``chunk_size_for`` gives 2 from 5e5 rows)."""
    return min(COUNTED_BATCH, COUNTED_ELEMENTS // max(int(n), 1))


class Scratch:
    """A float64 buffer per thread, reused by the chunks of one resampling run.

    A chunk of counted resamples of long columns holds arrays of a hundred
    MB or more; made anew for every chunk, their pages are mapped and zeroed
    again each time (about a fifth of the calibration report's bootstrap at
    2e6 rows).  ``rows(size, n)`` is a ``(size, n)`` view of this thread's
    buffer, grown when too small; its contents are left over from the last
    chunk, to be overwritten.  Each thread has its own (joblib's threads run
    chunks at once).
    """

    def __init__(self) -> None:
        self._local = threading.local()

    def rows(self, size: int, n: int) -> np.ndarray:
        buf = getattr(self._local, "buf", None)
        if buf is None or buf.shape[0] < size or buf.shape[1] != n:
            buf = self._local.buf = np.empty((size, n))
        return buf[:size]


def run_replicates(
    task: Callable[[int, np.random.Generator], np.ndarray],
    n_resamples: int,
    *,
    random_state: Any,
    n_jobs: int | None = None,
    chunk_size: int = 16,
    desc: str = "resampling",
) -> np.ndarray:
    """Run ``task(size, rng)`` over chunks of resamples and stack the replicates.

    A progress bar labelled ``desc`` is shown on a terminal (see
    :mod:`skbrier._core.progress`).

    ``task`` returns an array whose first axis has length ``size`` (one row
    per replicate).  Chunk ``j`` receives child ``j`` of
    ``check_random_state(random_state).spawn(...)``; chunking depends only on
    ``n_resamples`` and ``chunk_size``, so results do not depend on
    ``n_jobs`` (chunks run in joblib threads when ``n_jobs`` is not 1/None).
    """
    rng = check_random_state(random_state)
    size = max(1, int(chunk_size))
    full, rest = divmod(int(n_resamples), size)
    sizes = [size] * full + ([rest] if rest else [])
    children = rng.spawn(len(sizes)) if sizes else []
    with progress(int(n_resamples) if len(sizes) > 1 else 0, desc) as bar:

        def step(s: int, c: np.random.Generator) -> np.ndarray:
            out = np.asarray(task(s, c))
            bar.update(s)
            return out

        if n_jobs is None or n_jobs == 1 or len(sizes) <= 1:
            parts = [step(s, c) for s, c in zip(sizes, children)]
        else:
            from joblib import Parallel, delayed

            parts = Parallel(n_jobs=n_jobs, prefer="threads")(
                delayed(step)(s, c) for s, c in zip(sizes, children)
            )
    return np.concatenate(parts, axis=0)


def resample_indices(
    rng: np.random.Generator,
    n: int,
    size: int,
    scheme: str = "iid",
    block_length: float = 1.0,
) -> np.ndarray:
    """``(size, n)`` row indices of ``size`` resamples of ``n`` rows."""
    if scheme == "iid":
        return rng.integers(0, n, size=(size, n))
    if scheme in ("moving_block", "circular_block"):
        ell = int(block_length)
        k = -(-n // ell)
        high = n - ell + 1 if scheme == "moving_block" else n
        starts = rng.integers(0, high, size=(size, k))
        idx = (starts[:, :, None] + np.arange(ell)).reshape(size, k * ell)[:, :n]
        if scheme == "circular_block":
            idx %= n
        return np.ascontiguousarray(idx)
    if scheme != "stationary":
        raise ValueError(f"bootstrap must be one of {BOOTSTRAP_SCHEMES}, got {scheme!r}.")
    # stationary bootstrap: a new block starts with probability 1 / L
    new = rng.random((size, n)) < (1.0 / block_length)
    new[:, 0] = True
    starts = np.zeros((size, n), dtype=np.intp)
    starts[new] = rng.integers(0, n, size=int(np.count_nonzero(new)))
    pos = np.arange(n)
    last = np.where(new, pos, 0)
    np.maximum.accumulate(last, axis=1, out=last)
    idx = np.take_along_axis(starts, last, axis=1)
    idx += pos - last
    idx %= n
    return idx


def stratified_indices(
    rng: np.random.Generator, strata: list[np.ndarray], size: int
) -> np.ndarray:
    """``(size, n)`` iid resample of rows within each stratum (class sizes kept).

    Built on :func:`resample_indices`: stratum
    ``s`` (its row indices, in order) draws ``len(s)`` rows from itself.
    With one stratum holding all rows in order, the draws equal
    ``resample_indices(rng, n, size)``.
    """
    parts = [s[resample_indices(rng, s.shape[0], size)] for s in strata]
    return np.concatenate(parts, axis=1)


def resample_counts(rng: np.random.Generator, n: int) -> np.ndarray:
    """Multiplicities (float64, length ``n``) of one iid resample of ``n`` rows.

    Equal to ``np.bincount(resample_indices(rng, n, 1)[0], minlength=n)``: the
    same draws, as counts, for statistics that take frequency weights.
    """
    return resample_multiplicities(rng, n).astype(np.float64)


def rows_of_resamples(
    statistic: Callable[[np.ndarray], np.ndarray] | None,
    w: np.ndarray | None,
    scheme: str,
    n_drawn: int,
) -> Callable[[np.ndarray], np.ndarray] | None:
    """``statistic`` of the frequency weight of each row in each resample,
    as a statistic of the counts of the rows a bootstrap draws from.

    ``w``: the rows' frequency weights (None: unweighted, the counts are the
    weights).  A block bootstrap draws the rows with their weights
    (``counts * w``); the iid bootstrap of frequency weights draws from the
    rows of positive weight, each repeated ``w`` times when the ``n_drawn``
    rows it draws from are those copies (integer weights; the counts of a
    row's copies add up) or once (multinomial counts).
    """
    if statistic is None or w is None:
        return statistic
    if scheme != "iid":
        return lambda counts: statistic(counts * w)
    keep = np.flatnonzero(w > 0.0)
    starts = None
    if n_drawn != keep.shape[0]:  # the rows were expanded: counts of each copy
        starts = np.concatenate(([0], np.cumsum(w[keep].astype(np.int64))[:-1]))

    every_row = keep.shape[0] == w.shape[0]

    def of_rows(counts: np.ndarray) -> np.ndarray:
        per_row = counts if starts is None else np.add.reduceat(counts, starts, axis=1)
        if every_row:
            return statistic(per_row)
        out = np.zeros((counts.shape[0], w.shape[0]))
        out[:, keep] = per_row
        return statistic(out)

    return of_rows


def resample_multiplicities(
    rng: np.random.Generator, n: int, scheme: str = "iid", block_length: float = 1.0
) -> np.ndarray:
    """Integer multiplicities (length ``n``) of one resample of ``n`` rows:
    ``np.bincount(resample_indices(rng, n, 1, scheme, block_length)[0])``, the
    draws of :func:`resample_counts` for ``scheme="iid"``."""
    if scheme == "iid":
        idx = rng.integers(0, n, n)
    else:
        idx = resample_indices(rng, n, 1, scheme, block_length)[0]
    return np.bincount(idx, minlength=n)


#: The most observations a resample of frequency weights draws (int64 counts).
MAX_FREQUENCY_DRAWS = 2**62
#: Integer weights up to this total are resampled as their expanded rows
#: (134 MB of row indices; beyond, multinomial counts of the same law, drawn
#: by :func:`~skbrier._core.alias.multinomial_sampler`: an expanded resample
#: of 1e8 rows took seconds and 1.6 GB each)
MAX_EXPANDED_ROWS = 2**24


def repeated_rows(w: np.ndarray, what: str, alternative: str) -> np.ndarray:
    """The repetitions (``np.intp``) of rows of integer frequency weights ``w``,
    for ``what``, a statistic that repeats each row ``w`` times.

    ``what`` (e.g. ``"smoother='lowess' (lowess has no weights)"``) and
    ``alternative`` (what else to do) are clauses of the messages: a
    ValueError naming ``sample_weight`` for weights that are not integers
    and for a total above :data:`MAX_EXPANDED_ROWS` (rows that cannot be
    held).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier._core.resampling import repeated_rows
    >>> repeated_rows(np.array([2.0, 0.0, 1.0]), "lowess", "use loess").tolist()
    [2, 0, 1]
    """
    if not np.all(w == np.round(w)):
        raise ValueError(
            f"sample_weight must hold integers for {what}, which repeats each row "
            f"sample_weight times: give integer sample_weight (integer frequency "
            f"weights: counts of repeated rows) or {alternative}."
        )
    total = float(w.sum())
    if not total <= MAX_EXPANDED_ROWS:
        raise ValueError(
            f"sample_weight sums to {total:.4g}: {what} repeats each row "
            f"sample_weight times, at most 2**{MAX_EXPANDED_ROWS.bit_length() - 1} "
            f"rows in all. Rescale sample_weight or {alternative}."
        )
    return w.astype(np.intp)


def frequency_draws(total: float, *, weighted: bool = True) -> int:
    """The number of observations of frequency weights summing to ``total``.

    ``round(total)``; a ValueError naming ``sample_weight`` below 3 (the
    fewest observations of an interval,
    :func:`~skbrier._core.params.check_min_samples`: fewer drew no
    observation or one, and every replicate was NaN) and beyond
    :data:`MAX_FREQUENCY_DRAWS` (so many observations cannot be drawn, and
    the interval would have zero width).  ``weighted=False``: ``total`` is
    the number of (unweighted) rows, refused below 3 alike (one or two rows
    drew intervals of zero width).
    """
    if not weighted:
        check_min_samples(int(total), purpose="a bootstrap interval")
        return int(total)
    check_min_samples(0, total, purpose="a bootstrap interval")
    if not total <= MAX_FREQUENCY_DRAWS:
        raise ValueError(
            f"sample_weight sums to {total:.4g}: frequency weights are resampled "
            "as that many observations, more than can be drawn (2**62); the "
            "interval would have zero width. Rescale sample_weight."
        )
    return int(round(total))


def frequency_resampler(
    w: np.ndarray | None, n: int
) -> Callable[[np.random.Generator], np.ndarray]:
    """Multiplicities of one iid resample of ``n`` rows with frequency weights ``w``.

    The resample's rows carry these multiplicities as their (frequency)
    weights.  Without weights: :func:`resample_counts`.  With weights the
    total weight ``W`` is the sample size: integer weights (``W`` up to
    :data:`MAX_EXPANDED_ROWS`) draw ``W`` of the expanded rows with the same
    random numbers as the repeated rows would be drawn, so integer weights
    give the replicates of the repeated rows exactly; other weights draw
    multinomial counts of ``round(W)`` observations with probabilities
    ``w / W`` (the same law; :func:`frequency_draws` refuses too many), by
    the alias method of :func:`~skbrier._core.alias.multinomial_sampler`
    (its table built here, once per call, and read-only: the resampler may
    run in several threads at once).
    """
    if w is None:
        frequency_draws(n, weighted=False)
        return lambda rng: resample_counts(rng, n)
    total = float(w.sum())
    draws = frequency_draws(total)
    if total <= MAX_EXPANDED_ROWS and np.all(w == np.round(w)):
        expanded = np.repeat(np.arange(n), w.astype(np.intp))
        m = expanded.shape[0]
        return lambda rng: np.bincount(expanded[rng.integers(0, m, m)], minlength=n).astype(
            np.float64
        )
    return multinomial_sampler(w, draws)


def frequency_replicates(
    statistic: Callable[[np.ndarray], np.ndarray],
    w: np.ndarray | None,
    n: int,
    n_resamples: int,
    *,
    random_state: Any,
    n_jobs: int | None,
    desc: str,
) -> np.ndarray:
    """``statistic(counts)`` of ``n_resamples`` iid resamples of ``n`` rows.

    ``counts`` stacks a chunk's multiplicities ``(size, n)``, each drawn by
    :func:`frequency_resampler` (frequency weights ``w``); the chunks have
    :func:`chunk_size_for` ``n`` resamples, as every bootstrap of ``n`` rows,
    so the same seed gives the same draws.
    """
    draw = frequency_resampler(w, n)

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        return statistic(np.stack([draw(rng) for _ in range(size)]))

    return run_replicates(
        task,
        n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        chunk_size=chunk_size_for(n),
        desc=desc,
    )


def _report_nan(r: np.ndarray, axis: int, nan_policy: str) -> None:
    """Warn about (or refuse) NaN replicates, with their count."""
    if nan_policy == "omit":
        return
    nan = np.isnan(r)
    if not nan.any():
        return
    total = r.shape[axis] if r.ndim else 1
    per = nan.sum(axis=axis) if r.ndim else nan
    worst = int(np.max(per))
    where = "" if np.ndim(per) == 0 else f" (the most in one of {np.size(per)} intervals)"
    msg = (
        f"{worst} of {total} bootstrap replicates are NaN{where}: the statistic is "
        "undefined on those resamples"
    )
    if nan_policy == "raise":
        raise ValueError(msg + ".")
    warnings.warn(
        msg + "; they are left out of the interval.", RuntimeWarning, stacklevel=3
    )


def _quantiles(r: np.ndarray, qs: list[float], axis: int) -> np.ndarray:
    """``np.nanquantile(r, qs, axis=axis)`` where infinite replicates give
    infinite quantiles, never NaN.

    numpy interpolates ``a + (b - a) t``, NaN for ``b - a = inf - inf`` and
    for ``inf * 0`` (a quantile exactly at a finite replicate next to an
    infinite one).  Where that happens, the quantile is its neighbour when
    it falls on one (both neighbours equal), the infinite one strictly
    between a finite and an infinite neighbour, and between ``-inf`` and
    ``+inf`` the outer one (the lower quantile ``-inf``, the upper ``+inf``:
    the wider interval)."""
    q = np.nanquantile(r, qs, axis=axis)
    if not np.isinf(r).any():
        return q
    lower = np.nanquantile(r, qs, axis=axis, method="lower")
    higher = np.nanquantile(r, qs, axis=axis, method="higher")
    outer = np.where(
        np.arange(len(qs)).reshape((-1,) + (1,) * (q.ndim - 1)) == 0, lower, higher
    )
    between = np.where(
        np.isinf(lower) & np.isinf(higher), outer, np.where(np.isinf(higher), higher, lower)
    )
    fixed = np.where(lower == higher, lower, between)
    return np.where(np.isnan(q) & ~np.isnan(lower), fixed, q)


def interval_from_replicates(
    replicates: np.ndarray,
    confidence_level: float,
    *,
    method: str = "percentile",
    estimate: Any = None,
    alternative: str = "two-sided",
    axis: int = 0,
    nan_policy: str = "warn",
) -> ConfidenceInterval:
    """Percentile or basic bootstrap interval from replicates along ``axis``.

    ``"percentile"``: the ``(1 -/+ level) / 2`` quantiles of the replicates
    (numpy's linear interpolation, as :func:`scipy.stats.bootstrap`).
    ``"basic"``: those quantiles reflected around ``estimate``,
    ``(2 t - q_hi, 2 t - q_lo)``.  One-sided alternatives put all of
    ``1 - level`` in one tail and leave the other bound infinite.

    Replicates that are NaN (a resample on which the statistic is undefined)
    are never dropped silently: with ``nan_policy="warn"`` they are left out
    of the quantiles and a :class:`RuntimeWarning` gives their count (bounds
    are NaN when none is left); with ``nan_policy="raise"`` they are a
    ``ValueError`` giving the count; ``nan_policy="omit"`` leaves them out
    without a warning and is only for callers that report the count
    themselves (a result field such as ``n_valid``).
    """
    r = np.asarray(replicates, dtype=np.float64)
    if nan_policy not in NAN_POLICIES:
        raise ValueError(f"nan_policy must be one of {NAN_POLICIES}, got {nan_policy!r}.")
    _report_nan(r, axis, nan_policy)
    alpha = 1.0 - confidence_level
    if alternative == "two-sided":
        qs = [alpha / 2.0, 1.0 - alpha / 2.0]
    elif alternative == "less":
        qs = [0.0, 1.0 - alpha]
    elif alternative == "greater":
        qs = [alpha, 1.0]
    else:
        raise ValueError(
            f"alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}."
        )
    with np.errstate(all="ignore"), warnings.catch_warnings():
        # an all-NaN column has NaN bounds, reported above (not numpy's warning too)
        warnings.filterwarnings("ignore", "All-NaN slice", RuntimeWarning)
        lo, hi = _quantiles(r, qs, axis) if r.size else (np.nan, np.nan)
    lo = np.asarray(lo, dtype=np.float64)
    hi = np.asarray(hi, dtype=np.float64)
    if method == "basic":
        if estimate is None:
            raise ValueError("method='basic' needs the estimate.")
        t = np.asarray(estimate, dtype=np.float64)
        undefined = np.any(np.isinf(t) & ((t == lo) | (t == hi)))
        with np.errstate(invalid="ignore"):
            lo, hi = 2.0 * t - hi, 2.0 * t - lo
        if undefined:
            warnings.warn(
                "The basic bootstrap interval is undefined where the estimate is "
                "infinite and so is a quantile of the replicates (inf - inf): those "
                "bounds are NaN; use method='percentile'.",
                RuntimeWarning,
                stacklevel=2,
            )
    elif method != "percentile":
        raise ValueError(f"method must be one of {INTERVAL_METHODS}, got {method!r}.")
    if alternative == "less":
        lo = np.full_like(lo, -np.inf)
    elif alternative == "greater":
        hi = np.full_like(hi, np.inf)
    if lo.ndim == 0:
        return ConfidenceInterval(float(lo), float(hi))
    return ConfidenceInterval(lo, hi)
