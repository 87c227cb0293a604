"""The validated cores of the decompositions (data and options checked before).

:func:`murphy_binary` and :func:`corp_binary` are what
:func:`~skbrier.metrics.decomposition.murphy_decomposition`,
:func:`~skbrier.metrics.decomposition.corp_decomposition` and
:class:`~skbrier.decomposition.BrierDecomposition` run once their input is
validated, so that the same ``random_state`` gives the same numbers from
every entry point and no array is validated twice.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core.binning import (
    assign_bins,
    block_binner,
    check_edges_cover,
    quantile_edges,
    uniform_edges,
)
from .._core.kernels.bin_statistics import BinStatistics, check_edges
from .._core.kernels.decomposition import (
    binned_sums,
    corp_from_groups,
    murphy_terms,
    pool_ties,
    pow2_exponent,
)
from .._core.params import (
    check_confidence_level,
    check_min_samples,
    check_n_jobs,
    check_n_resamples,
    check_random_state,
)
from .._core.resampling import interval_from_replicates, run_replicates
from .._core.validation import scale_free_exponent
from ._decomposition_bootstrap import CHUNK_SIZE, corp_task, murphy_task
from ._decomposition_results import CORPDecomposition, MurphyDecomposition

__all__ = [
    "binary_columns",
    "bootstrap_options",
    "class_generators",
    "check_strategy",
    "corp_binary",
    "edges_for",
    "murphy_binary",
    "murphy_result",
]

#: the consistency band is stored at no more than this many forecast values
MAX_BAND_POINTS = 2000


def bootstrap_options(
    n_resamples: Any, confidence_level: Any, n_jobs: Any
) -> dict[str, Any]:
    """The checked bootstrap options that :func:`murphy_binary` and
    :func:`corp_binary` take: ``n_resamples`` (0: none), ``level``, ``n_jobs``."""
    return {
        "n_resamples": check_n_resamples(n_resamples, allow_zero=True),
        "level": check_confidence_level(confidence_level),
        "n_jobs": check_n_jobs(n_jobs),
    }


def check_strategy(strategy: Any) -> str | np.ndarray:
    """``"uniform"``, ``"quantile"`` or validated explicit edges."""
    if isinstance(strategy, str):
        if strategy not in ("uniform", "quantile"):
            raise ValueError(
                "strategy must be 'uniform', 'quantile' or an array of bin edges, "
                f"got {strategy!r}."
            )
        return strategy
    return check_edges(strategy)


def edges_for(p: np.ndarray, w: np.ndarray | None, n_bins: int, strategy) -> np.ndarray:
    """Bin edges for validated forecasts and a checked ``strategy``."""
    if isinstance(strategy, str):
        if strategy == "uniform":
            return uniform_edges(n_bins)
        return quantile_edges(p, w, n_bins)
    check_edges_cover(p, strategy)
    return strategy


def murphy_result(
    stats: BinStatistics, bias_correction: bool, exponent: int = 0
) -> MurphyDecomposition:
    """The binned decomposition of checked statistics (see ``murphy_from_statistics``).

    ``stats`` may hold the sums of the weights times ``2**exponent`` (exact):
    the components are ratios of sums, and the bias correction reads the
    frequency weights themselves (a bin's sample size is its weight).
    """
    with np.errstate(over="ignore"):
        W = float(stats.sum_w.sum())
    if not W > 0:
        raise ValueError("stats holds no data (total weight 0): nothing to decompose.")
    if not W < np.inf:
        raise ValueError(
            "stats: its weights sum to more than the largest float (1.798e+308); "
            "compute the statistics of sample_weight divided by a constant (only "
            "the ratios of the weights matter, the bias correction aside)."
        )
    # weights are scale-free: compute on sums scaled by a power of two (exact)
    e = pow2_exponent(stats.sum_w)
    scaled = stats.scaled(e)
    if bias_correction:
        # a finite-sample correction counts observations: at least 3, as
        # brier_inference asks (sums equal to the counts: no weights)
        n = stats.n_samples
        with np.errstate(over="ignore", under="ignore"):
            total = float(np.ldexp(W, -exponent))
        check_min_samples(
            n,
            None if total == n else total,
            purpose="the bias correction (bias_correction=True)",
        )
    t = murphy_terms(
        scaled.sum_w,
        scaled.sum_wp,
        scaled.sum_wy,
        scaled.sum_wpp,
        scaled.sum_wpy,
        bias_correction,
        exponent + e,
    )
    return MurphyDecomposition(
        brier_score=t["brier_score"],
        reliability=t["reliability"],
        resolution=t["resolution"],
        uncertainty=t["uncertainty"],
        within_bin_variance=t["within_bin_variance"],
        within_bin_covariance=t["within_bin_covariance"],
        base_rate=t["base_rate"],
        n_samples=stats.n_samples,
        bias_correction=bias_correction,
        bin_edges=stats.edges,
        bin_counts=stats.count,
        bin_weights=stats.sum_w,
        bin_mean_forecast=t["mean_forecast"],
        bin_observed_frequency=t["observed_frequency"],
        statistics=stats,
        right=bool(stats.right),
    )


def class_generators(random_state: Any, n_resamples: int, n: int) -> list:
    """One generator per decomposed class (None each when nothing is resampled).

    A caller's Generator or RandomState is not touched unless resampling
    happens; one class uses ``random_state`` itself, several get generators
    spawned from it.
    """
    if n_resamples == 0:
        return [None] * n
    rng = check_random_state(random_state)
    return rng.spawn(n) if n > 1 else [rng]


def binary_columns(fc, pos_label: Any):
    """(y01, p) pairs to decompose: one for binary input, one per class otherwise.

    Returns ``(pairs, classes)`` where ``classes`` is None for binary input
    (1-D or two columns; ``pos_label`` picks the column of two); the pairs of
    three or more columns are made one at a time, as they are read.  A
    multilabel indicator gives one pair per label (its column index).
    """
    if fc.binary_1d:
        return [(fc.y, fc.proba)], None
    if fc.y.ndim == 2:  # a multilabel indicator: each label its own problem
        return [(fc.y[:, j], fc.proba[:, j]) for j in range(fc.n_columns)], fc.classes
    k = fc.proba.shape[1]
    if k == 2:
        col = 1
        if pos_label is not None:
            hits = np.flatnonzero(fc.classes == pos_label)
            if hits.shape[0] != 1:
                raise ValueError(
                    f"pos_label={pos_label!r} is not one of the classes "
                    f"{fc.classes.tolist()} of the columns of y_proba."
                )
            col = int(hits[0])
        return [((fc.y == col).astype(np.float64), fc.proba[:, col])], None
    return _OneVsRest(fc.y, fc.proba), fc.classes


class _OneVsRest(Sequence):
    """The ``(y == j, proba[:, j])`` pairs of the classes ``j``, made one at a
    time when read (the column is a view: the kernels read it in place)."""

    def __init__(self, codes: np.ndarray, proba: np.ndarray):
        self._codes, self._proba = codes, proba

    def __len__(self) -> int:
        return int(self._proba.shape[1])

    def __getitem__(self, j):
        if not 0 <= j < len(self):
            raise IndexError(j)
        return (self._codes == j).astype(np.float64), self._proba[:, j]


def murphy_binary(
    y01,
    p,
    w,
    *,
    n_bins,
    strategy,
    bias_correction,
    right,
    n_resamples,
    level,
    rng,
    n_jobs,
) -> MurphyDecomposition:
    """The binned decomposition of validated data and checked options.

    The one core behind :func:`murphy_decomposition` and
    :class:`~skbrier.decomposition.BrierDecomposition`: the same
    ``random_state`` gives the same bootstrap in both.
    """
    edges = edges_for(p, w, n_bins, strategy)
    k = edges.shape[0] - 1
    # weights are scale-free: the sums are those of the weights times a power
    # of two (exact) so that their squares neither under- nor overflow
    exponent = 0 if w is None else pow2_exponent(w)
    # one pass over the rows: bins found and summed block by block
    sums = binned_sums(
        None, k, y01, p, w, bin_into=block_binner(edges, right=right), exponent=exponent
    )
    scaled = BinStatistics(edges, *sums, right=right)
    d = murphy_result(scaled, bias_correction, exponent)
    stats = scaled.scaled(-exponent)
    boot = None
    if n_resamples > 0:
        idx = assign_bins(p, edges, right=right)
        task = murphy_task(idx, k, y01, p, w, bias_correction)
        boot = run_replicates(
            task, n_resamples, random_state=rng, n_jobs=n_jobs, chunk_size=CHUNK_SIZE
        )
    return dataclasses.replace(
        d,
        statistics=stats,
        bin_weights=stats.sum_w,
        n_resamples=n_resamples,
        confidence_level=level,
        bootstrap_distribution=boot,
    )


def corp_binary(y01, p, w, *, n_resamples, level, rng, n_jobs) -> CORPDecomposition:
    """The CORP decomposition of validated data and checked options."""
    pooled = pool_ties(y01, p, w)
    if pooled.unit:
        bs, mcb, dsc, unc, c = corp_from_groups(pooled.x, None, pooled.ysum)
    else:  # ratios of the groups' sums: scaled alike, exactly (weights of 5e-324)
        e = scale_free_exponent(pooled.w)
        bs, mcb, dsc, unc, c = corp_from_groups(
            pooled.x, np.ldexp(pooled.w, e), np.ldexp(pooled.ysum, e)
        )
    kw: dict[str, Any] = {}
    if n_resamples > 0:
        g = pooled.x.shape[0]
        if g <= MAX_BAND_POINTS:
            band_idx = np.arange(g)
        else:
            band_idx = np.unique(
                np.linspace(0, g - 1, MAX_BAND_POINTS).round().astype(np.intp)
            )
        reps = run_replicates(
            corp_task(pooled, band_idx, w is not None),
            n_resamples,
            random_state=rng,
            n_jobs=n_jobs,
            chunk_size=CHUNK_SIZE,
        )
        nb = band_idx.shape[0]
        with warnings.catch_warnings():  # values no resample reaches stay NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            band = interval_from_replicates(reps[:, :nb], level)
        null_mcb = reps[:, nb]
        # MCB* >= MCB up to rounding counts as "at least as extreme"
        tol = 1e-12 * max(1.0, abs(mcb))
        pval = (1.0 + np.count_nonzero(null_mcb >= mcb - tol)) / (n_resamples + 1.0)
        kw = {
            "band_forecast": pooled.x[band_idx],
            "band_lower": np.asarray(band.low),
            "band_upper": np.asarray(band.high),
            "miscalibration_pvalue": float(pval),
            "bootstrap_distribution": reps[:, nb + 1 :],
        }
    return CORPDecomposition(
        brier_score=bs,
        miscalibration=mcb,
        discrimination=dsc,
        uncertainty=unc,
        base_rate=float(
            pooled.ysum.sum() / (p.shape[0] if pooled.unit else pooled.w.sum())
        ),
        n_samples=int(p.shape[0]),
        forecast_values=pooled.x,
        recalibrated_values=c,
        value_weights=pooled.w,
        value_counts=pooled.count,
        n_resamples=n_resamples,
        confidence_level=level,
        **kw,
    )
