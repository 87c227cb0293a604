"""Resampling tasks of the decompositions (no validation here).

Each factory returns a ``task(size, rng)`` for
:func:`skbrier.stats._resampling.run_replicates`, the one resampling engine,
so that the results depend only on ``random_state`` (never on ``n_jobs``)
and the same ``random_state`` gives the same resamples wherever the same
rows are resampled the same way: :func:`murphy_task` is what both
:func:`~skbrier.metrics.decomposition.murphy_decomposition` and
:class:`~skbrier.decomposition.BrierDecomposition` run.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..stats._resampling import resample_counts, resample_indices
from ._decomposition_math import (
    Pooled,
    corp_from_groups,
    murphy_terms,
    recalibrated_curve_at,
)

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

    Each resample draws ``n`` rows with replacement
    (:func:`~skbrier.stats._resampling.resample_counts`, as multiplicities)
    and recomputes the six components; a resample of zero total weight gives
    a row of NaN (dropped by the interval).  Multiplicities are frequency
    weights: the Kish sizes of the bias correction count repeated rows.
    """
    n = p.shape[0]

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty((size, len(MURPHY_COMPONENTS)))
        for b in range(size):
            m = resample_counts(rng, n)
            ww = m if w is None else w * m
            wp = ww * p
            sum_w = np.bincount(idx, weights=ww, minlength=k)
            if not sum_w.sum() > 0:
                out[b] = np.nan
                continue
            sum_ww = (
                sum_w if w is None else np.bincount(idx, weights=w * w * m, minlength=k)
            )
            t = murphy_terms(
                sum_w,
                np.bincount(idx, weights=wp, minlength=k),
                np.bincount(idx, weights=ww * y01, minlength=k),
                np.bincount(idx, weights=wp * p, minlength=k),
                np.bincount(idx, weights=wp * y01, minlength=k),
                sum_ww,
                bias_correction,
            )
            out[b] = [t[name] for name in MURPHY_COMPONENTS]
        return out

    return task


def _calibrated_resample(pooled: Pooled, rng: np.random.Generator, share, n):
    """Groups of one resample under the calibration hypothesis.

    Rows drawn with replacement, outcomes drawn as Bernoulli(forecast), as
    R ``reliabilitydiag`` does.  Unweighted: the group counts are
    multinomial and the events binomial (the same law as drawing rows, in
    O(distinct values)); weighted: rows drawn uniformly keep their weights.
    Returns ``(present, weights, events)`` of the groups drawn.
    """
    x = pooled.x
    if not pooled.weighted:
        m = rng.multinomial(n, share)
        present = m > 0
        wk = m[present].astype(np.float64)
        yk: np.ndarray = rng.binomial(m[present], x[present]).astype(np.float64)
        return present, wk, yk
    g = x.shape[0]
    rows = resample_indices(rng, n, 1)[0]
    grp = pooled.row_group[rows]
    wr = pooled.row_w[rows]
    yr = rng.random(n) < x[grp]
    wg = np.bincount(grp, weights=wr, minlength=g)
    present = wg > 0
    yk = np.bincount(grp, weights=wr * yr, minlength=g)[present]
    return present, wg[present], yk


def _bootstrap_resample(pooled: Pooled, rng: np.random.Generator, cells, n):
    """Groups ``(weights, events)`` of one row bootstrap (outcomes kept)."""
    g = pooled.x.shape[0]
    if not pooled.weighted:
        m = rng.multinomial(n, cells)
        m1, m0 = m[:g], m[g:]
        return (m1 + m0).astype(np.float64), m1.astype(np.float64)
    rows = resample_indices(rng, n, 1)[0]
    grp = pooled.row_group[rows]
    wr = pooled.row_w[rows]
    wg = np.bincount(grp, weights=wr, minlength=g)
    yg = np.bincount(grp, weights=wr * pooled.row_y[rows], minlength=g)
    return wg, yg


def corp_task(pooled: Pooled, band_idx: np.ndarray) -> Task:
    """Both resamplings of the CORP decomposition with one generator.

    Each replicate is one row of ``len(band_idx) + 5`` values: the
    resampled recalibration curve under the calibration hypothesis at the
    forecasts ``pooled.x[band_idx]`` (:func:`recalibrated_curve_at`: linear
    between the resample's forecasts, NaN outside them), the miscalibration
    under that hypothesis (for the p-value), and the bootstrap components
    ``(bs, mcb, dsc, unc)`` of a row resample with the outcomes kept.
    """
    x = pooled.x
    x_band = x[band_idx]
    nb = band_idx.shape[0]
    share: np.ndarray | None
    cells: np.ndarray | None
    if not pooled.weighted:
        n = int(pooled.count.sum())
        share = pooled.count / n
        n1 = pooled.ysum.astype(np.int64)
        cells = np.concatenate([n1, pooled.count - n1]) / n
    else:
        n = pooled.row_group.shape[0]
        share = cells = None

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty((size, nb + 5))
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
