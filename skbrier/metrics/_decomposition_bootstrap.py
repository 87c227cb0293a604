"""Resampling tasks of the decompositions (no validation here).

Each factory returns a ``task(size, rng)`` for
:func:`skbrier._core.resampling.run_replicates`, the one resampling engine,
so that the results depend only on ``random_state`` (never on ``n_jobs``)
and the same ``random_state`` gives the same resamples wherever the same
rows are resampled the same way: :func:`murphy_task` is what both
:func:`~skbrier.metrics.decomposition.murphy_decomposition` and
:class:`~skbrier.decomposition.BrierDecomposition` run.

Weights are frequencies: a resample draws the observations (the total
weight ``W`` is their number), so integer weights give the replicates of
the repeated rows exactly, with the same ``random_state``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._core.kernels.decomposition import (
    Pooled,
    binned_sums,
    corp_from_groups,
    murphy_terms,
    recalibrated_curve_at,
)
from .._core.resampling import frequency_draws, frequency_resampler

__all__ = ["CORP_COMPONENTS", "MURPHY_COMPONENTS", "corp_task", "murphy_task"]

MURPHY_COMPONENTS = (
    "brier_score",
    "reliability",
    "resolution",
    "uncertainty",
    "within_bin_variance",
    "within_bin_covariance",
)
CORP_COMPONENTS = ("brier_score", "miscalibration", "discrimination", "uncertainty")

#: resamples per task of the engine (fixed: results never depend on n_jobs)
CHUNK_SIZE = 16

Task = Callable[[int, np.random.Generator], np.ndarray]


def murphy_task(
    idx: np.ndarray,
    k: int,
    y01: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    bias_correction: bool,
) -> Task:
    """Row bootstrap of the binned decomposition with the bins held fixed.

    Each resample draws the observations with replacement
    (:func:`~skbrier._core.resampling.frequency_resampler`: ``n`` rows, or
    the total weight of frequency weights, as multiplicities that are the
    resample's weights) and recomputes the six components; a resample of
    zero total weight gives a row of NaN (dropped by the interval).
    """
    n = p.shape[0]
    counts = frequency_resampler(w, n)

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty((size, len(MURPHY_COMPONENTS)))
        for b in range(size):
            m = counts(rng)
            _, sum_w, sum_wp, sum_wy, sum_wpp, sum_wpy, _ = binned_sums(
                idx, k, y01, p, m, extras=False
            )
            if not sum_w.sum() > 0:
                out[b] = np.nan
                continue
            t = murphy_terms(sum_w, sum_wp, sum_wy, sum_wpp, sum_wpy, bias_correction)
            out[b] = [t[name] for name in MURPHY_COMPONENTS]
        return out

    return task


def _calibrated_resample(pooled: Pooled, rng: np.random.Generator, share, n):
    """Groups of one resample under the calibration hypothesis.

    ``n`` observations drawn with replacement, outcomes drawn as
    Bernoulli(forecast), as R ``reliabilitydiag`` does: the group counts
    are multinomial and the events binomial (the same law as drawing rows,
    in O(distinct values)).  Returns ``(present, weights, events)`` of the
    groups drawn.
    """
    x = pooled.x
    m = rng.multinomial(n, share)
    present = m > 0
    wk = m[present].astype(np.float64)
    yk: np.ndarray = rng.binomial(m[present], x[present]).astype(np.float64)
    return present, wk, yk


def _bootstrap_resample(pooled: Pooled, rng: np.random.Generator, cells, n):
    """Groups ``(weights, events)`` of one row bootstrap (outcomes kept)."""
    g = pooled.x.shape[0]
    m = rng.multinomial(n, cells)
    m1, m0 = m[:g], m[g:]
    return (m1 + m0).astype(np.float64), m1.astype(np.float64)


def corp_task(pooled: Pooled, band_idx: np.ndarray, weighted: bool) -> Task:
    """Both resamplings of the CORP decomposition with one generator.

    Each replicate is one row of ``len(band_idx) + 5`` values: the
    resampled recalibration curve under the calibration hypothesis at the
    forecasts ``pooled.x[band_idx]`` (:func:`recalibrated_curve_at`: linear
    between the resample's forecasts, NaN outside them), the miscalibration
    under that hypothesis (for the p-value), and the bootstrap components
    ``(bs, mcb, dsc, unc)`` of a row resample with the outcomes kept.
    ``n`` observations are drawn: the rows, or (``weighted``) the total
    frequency weight (:func:`~skbrier._core.resampling.frequency_draws`), so
    integer weights draw exactly as their repeated rows (a total weight
    below 3 is refused there).
    """
    x = pooled.x
    x_band = x[band_idx]
    nb = band_idx.shape[0]
    w = pooled.w  # made once (on demand for groups of one row)
    total = float(w.sum())
    n = frequency_draws(total if weighted else float(pooled.count.sum()), weighted=weighted)
    share = w / total
    # events and non-events of each group (rounding kept from going negative)
    cells = np.concatenate([pooled.ysum, np.maximum(w - pooled.ysum, 0.0)])
    del w
    cells /= cells.sum()

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty((size, nb + 5))
        if n == 0:
            out.fill(np.nan)
            return out
        for b in range(size):
            present, wk, yk = _calibrated_resample(pooled, rng, share, n)
            _, mcb, _, _, c = corp_from_groups(x[present], wk, yk)
            out[b, :nb] = recalibrated_curve_at(x_band, x[present], c)
            out[b, nb] = mcb
            wg, yg = _bootstrap_resample(pooled, rng, cells, n)
            keep = wg > 0
            bs, mcb_b, dsc, unc, _ = corp_from_groups(x[keep], wg[keep], yg[keep])
            out[b, nb + 1 :] = (bs, mcb_b, dsc, unc)
        return out

    return task
