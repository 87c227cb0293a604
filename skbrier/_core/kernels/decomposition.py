r"""Kernels of the Brier score decompositions (no validation here).

Binned (Murphy / Stephenson--Coelho--Jolliffe / Ferro--Fricker)
    :func:`binned_sums` gives the per-bin sums of
    :math:`w, wp, wy, wp^2, wpy, w^2` in one pass over the rows, block by
    block, from bin indices (:func:`skbrier._core.binning.assign_bins`) or
    finding the bins in the same pass
    (:func:`skbrier._core.binning.block_binner`); :func:`murphy_terms` turns such sums
    into the components; :func:`ferro_fricker` applies the bias correction;
    :func:`wilson_interval` gives the Wilson interval of each bin's observed
    frequency.

CORP (Dimitriadis, Gneiting and Jordan 2021)
    :func:`pool_ties` sorts once and pools tied forecasts;
    :func:`corp_from_groups` solves the weighted PAV problem on the pooled
    points and returns the components; :func:`recalibrated_curve_at` and
    :func:`consistency_band_from_resamples` compute the consistency band as R
    ``reliabilitydiag`` does (``region.method = "resampling"``,
    ``region.position = "diagonal"``).

Every function takes validated float64 arrays; the public functions of
:mod:`skbrier.metrics.decomposition` validate once at the edge.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..array_api import is_numpy
from ..binning import BLOCK_ROWS, BlockBinner
from ..resampling import interval_from_replicates

__all__ = [
    "Pooled",
    "binned_sums",
    "consistency_band_from_resamples",
    "corp_from_groups",
    "ferro_fricker",
    "murphy_terms",
    "pool_ties",
    "pow2_exponent",
    "recalibrated_curve_at",
    "recalibrated_curves",
    "wilson_interval",
]


# =============================================================================
# Binned decomposition
# =============================================================================

#: per-bin ``(count, sum_w, sum_wp, sum_wy, sum_wpp, sum_wpy, sum_ww)``
BinSums = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]


def pow2_exponent(w: np.ndarray) -> int:
    """``e`` such that ``w * 2**e`` has its largest value in [0.5, 1).

    Scaling weights by a power of two is exact (no rounding), so the binned
    sums of the scaled weights are the sums of the weights scaled exactly;
    it keeps the squares of tiny (1e-200) or huge (1e200) weights from
    under- or overflowing.
    """
    top = float(np.max(w))
    if not top > 0.0:
        return 0
    return -int(np.frexp(top)[1])


def binned_sums(
    idx: np.ndarray | None,
    k: int,
    y01: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    *,
    bin_into: BlockBinner | None = None,
    exponent: int = 0,
    extras: bool = True,
    xp: Any = None,
) -> BinSums:
    """Per-bin ``(count, sum_w, sum_wp, sum_wy, sum_wpp, sum_wpy, sum_ww)``
    in one pass over the rows.

    The bins are ``idx`` (``0 .. k-1`` per row) or, for ``idx=None``, found
    block by block by ``bin_into``
    (:func:`skbrier._core.binning.block_binner`); ``w`` None
    means unit weights, else the weights times ``2**exponent`` are summed
    (exact: a power of two).  ``y01`` must hold 0/1 outcomes.  One code
    ``j = 2 * bin + y`` per row splits each bin by outcome, so one
    ``bincount`` gives two sums (``y^2 = y``): the count and the events
    (``bincount(j)``), ``sum w`` and ``sum w y`` (``bincount(j, w)``),
    ``sum w p`` and ``sum w p y`` (``bincount(j, w p)``); ``sum w p^2`` and
    ``sum w^2`` take one each.  Every temporary is one block long and stays
    in the cache, so the input is read from memory once.  ``extras=False``
    skips the counts and ``sum w^2`` of weighted rows (a resample needs
    neither; they are returned as zeros).  ``count`` is int64, the sums
    float64.

    ``xp``: the namespace of the rows (None: numpy).  Another namespace sums
    the same per-code columns ``[1, w, w p, w p^2, w^2]`` on its device
    (one-hot products over blocks of rows,
    :func:`~skbrier._core.kernels.calibration_error.xp_bin_columns`; ``idx``
    required) and only the sums come to the host.

    Examples
    --------
    >>> import numpy as np
    >>> y, p = np.array([0.0, 1.0, 1.0]), np.array([0.2, 0.7, 0.9])
    >>> count, sum_w, sum_wp, sum_wy, *_ = binned_sums(np.array([0, 1, 1]), 2, y, p, None)
    >>> count.tolist(), sum_wp.tolist(), sum_wy.tolist()
    ([1, 2], [0.2, 1.6], [0.0, 2.0])
    """
    if xp is not None and not is_numpy(xp):
        return _xp_binned_sums(xp, idx, k, y01, p, w, exponent)
    n = p.shape[0]
    k2 = 2 * k
    size = max(min(n, BLOCK_ROWS), 1)
    f, g, scratch = np.empty(size), np.empty(size), np.empty(size)
    mask, j = np.empty(size, dtype=bool), np.empty(size, dtype=np.intp)
    s_n, s_w, s_wp, s_wpp, s_ww = (np.zeros(k2) for _ in range(5))
    counts = extras or w is None
    if idx is None and bin_into is None:
        raise TypeError("binned_sums needs idx or bin_into.")
    for start in range(0, n, BLOCK_ROWS):
        rows = slice(start, start + BLOCK_ROWS)
        pb = p[rows]
        b = pb.shape[0]
        fb, gb, jb = f[:b], g[:b], j[:b]
        if idx is not None:
            fb[...] = idx[rows]
        else:
            bin_into(pb, fb, scratch[:b], mask[:b])  # type: ignore[misc]
        fb *= 2.0
        fb += y01[rows]
        jb[...] = fb
        if counts:
            s_n += np.bincount(jb, minlength=k2)
        if w is None:
            s_wp += np.bincount(jb, weights=pb, minlength=k2)
            np.multiply(pb, pb, out=gb)
        else:
            wb = w[rows]
            if exponent != 0:
                wb = np.ldexp(wb, exponent, out=scratch[:b])
            s_w += np.bincount(jb, weights=wb, minlength=k2)
            if extras:
                np.multiply(wb, wb, out=gb)
                s_ww += np.bincount(jb, weights=gb, minlength=k2)
            np.multiply(wb, pb, out=gb)
            s_wp += np.bincount(jb, weights=gb, minlength=k2)
            gb *= pb
        s_wpp += np.bincount(jb, weights=gb, minlength=k2)
    return _fold_codes(s_n, s_w, s_wp, s_wpp, s_ww, w is None)


def _xp_binned_sums(
    xp: Any, idx: Any, k: int, y01: Any, p: Any, w: Any, exponent: int
) -> BinSums:
    """:func:`binned_sums` of rows in another Array API namespace."""
    from ..array_api import index_dtype
    from .calibration_error import xp_bin_columns

    if idx is None:
        raise TypeError("binned_sums needs idx for rows outside numpy.")
    it = index_dtype(xp, idx.device)
    codes = 2 * xp.astype(idx, it) + xp.astype(y01, it)
    if w is not None and exponent != 0:
        w = w * (2.0**exponent)
    host = xp_bin_columns(xp, codes, [p], w, 2 * k, products=True)
    s_n, s_w, s_wp, s_wpp, s_ww = (host[:, j] for j in range(5))
    return _fold_codes(s_n, s_w, s_wp, s_wpp, s_ww, w is None)


def _fold_codes(
    s_n: np.ndarray,
    s_w: np.ndarray,
    s_wp: np.ndarray,
    s_wpp: np.ndarray,
    s_ww: np.ndarray,
    unweighted: bool,
) -> BinSums:
    """The per-bin sums from the per-code sums (code ``2 * bin + y``) of
    ``[1, w, w p, w p^2, w^2]``: the outcome 1 codes give ``sum w y`` and
    ``sum w p y``."""
    count = np.rint(s_n[0::2] + s_n[1::2]).astype(np.int64)
    if unweighted:
        sum_w, sum_wy = count.astype(np.float64), s_n[1::2].copy()
        sum_ww = sum_w.copy()
    else:
        sum_w, sum_wy, sum_ww = (
            s_w[0::2] + s_w[1::2],
            s_w[1::2].copy(),
            s_ww[0::2] + s_ww[1::2],
        )
    sum_wp, sum_wpy = s_wp[0::2] + s_wp[1::2], s_wp[1::2].copy()
    return count, sum_w, sum_wp, sum_wy, s_wpp[0::2] + s_wpp[1::2], sum_wpy, sum_ww


def murphy_terms(
    sum_w: np.ndarray,
    sum_wp: np.ndarray,
    sum_wy: np.ndarray,
    sum_wpp: np.ndarray,
    sum_wpy: np.ndarray,
    bias_correction: bool,
    exponent: int = 0,
) -> dict[str, Any]:
    r"""The binned decomposition from per-bin sums (total weight must be > 0).

    Returns a dict with ``brier_score``, ``reliability``, ``resolution``,
    ``uncertainty``, ``within_bin_variance``, ``within_bin_covariance``,
    ``base_rate`` (floats) and ``mean_forecast``, ``observed_frequency``
    (per bin, NaN for empty bins).  The formulas are in
    :func:`skbrier.metrics.decomposition.murphy_from_statistics`.  The sums
    may be those of the weights times ``2**exponent`` (exact; every
    component is a ratio of sums) -- but the sample sizes of the bias
    correction are the frequency weights themselves: ``sum_w * 2**-exponent``.
    """
    W = float(sum_w.sum())
    nonempty = sum_w > 0
    sw, swp, swy = sum_w[nonempty], sum_wp[nonempty], sum_wy[nonempty]
    swpp, swpy = sum_wpp[nonempty], sum_wpy[nonempty]
    fbar = swp / sw
    obar_k = swy / sw
    obar = float(swy.sum() / W)
    rel = float(np.dot(sw, (fbar - obar_k) ** 2) / W)
    res = float(np.dot(sw, (obar_k - obar) ** 2) / W)
    unc = obar * (1.0 - obar)
    # per-bin variances are >= 0; clip the rounding error of constant bins
    wbv = float(np.sum(np.maximum(swpp - swp * fbar, 0.0)) / W)
    wbc = float(2.0 * np.sum(swpy - swp * obar_k) / W)
    # sum w (p - y)^2 = sum w p^2 - 2 sum w p y + sum w y   (y^2 = y)
    bs = float((sum_wpp.sum() - 2.0 * sum_wpy.sum() + sum_wy.sum()) / W)
    if bias_correction:
        # frequency weights: a bin's sample size is its total weight (its
        # count without weights), as for the rows integer weights repeat
        with np.errstate(over="ignore", under="ignore"):
            m_k = np.ldexp(sw, -exponent)
            m = float(np.ldexp(W, -exponent))
        rel, res, unc = ferro_fricker(sw / W, obar_k, m_k, obar, m, rel, res, unc)
    mean_f = np.full(sum_w.shape[0], np.nan)
    mean_o = np.full(sum_w.shape[0], np.nan)
    mean_f[nonempty] = fbar
    mean_o[nonempty] = obar_k
    return {
        "brier_score": bs,
        "reliability": rel,
        "resolution": res,
        "uncertainty": unc,
        "within_bin_variance": wbv,
        "within_bin_covariance": wbc,
        "base_rate": obar,
        "mean_forecast": mean_f,
        "observed_frequency": mean_o,
    }


def ferro_fricker(share, obar_k, m_k, obar, m, rel, res, unc) -> tuple[float, float, float]:
    r"""Ferro--Fricker (2012) correction of REL, RES and UNC.

    ``share`` are the bin weights over the total, ``m_k`` and ``m`` the
    sample sizes of the bins and of the sample (frequency weights: their
    total weights).  Bins with
    :math:`m_k \le 1` contribute nothing; if a corrected REL or RES is
    negative both are shifted by the same amount (their difference, and the
    identity with the Brier score, is unchanged).
    """
    ok = m_k > 1.0 + 1e-12
    a = float(np.sum(share[ok] * obar_k[ok] * (1.0 - obar_k[ok]) / (m_k[ok] - 1.0)))
    b = obar * (1.0 - obar) / (m - 1.0) if m > 1.0 + 1e-12 else 0.0
    rel_c = rel - a
    res_c = res - a + b
    unc_c = unc + b
    if rel_c < 0.0 or res_c < 0.0:
        rel_c, res_c = max(rel_c, rel_c - res_c, 0.0), max(res_c, res_c - rel_c, 0.0)
    return rel_c, res_c, unc_c


def wilson_interval(
    n: np.ndarray, o: np.ndarray, z: float
) -> tuple[np.ndarray, np.ndarray]:
    r"""Wilson score interval of frequencies ``o`` on sample sizes ``n``.

    ``z`` is the normal quantile of the level; NaN where ``n`` or ``o`` is.
    Written as :math:`(n o + z^2/2 \pm z \sqrt{n o (1 - o) + z^2/4}) / (n + z^2)`
    so that tiny and huge (frequency-weighted) sizes neither under- nor
    overflow.
    """
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        denom = n + z * z
        center = (n * o + z * z / 2) / denom
        half = z / denom * np.sqrt(n * o * (1 - o) + z * z / 4)
    return np.clip(center - half, 0.0, 1.0), np.clip(center + half, 0.0, 1.0)


# =============================================================================
# CORP decomposition
# =============================================================================


class Pooled:
    """Forecasts pooled by distinct value (ties pooled), sorted increasingly.

    ``x`` distinct forecasts with positive weight, ``w`` their total weight,
    ``ysum`` their weighted number of events, ``count`` their number of
    rows.
    """

    __slots__ = ("_count", "_w", "x", "ysum")

    def __init__(self, x, w, ysum, count):
        self.x = x
        self._w = w
        self.ysum = ysum
        self._count = count

    @property
    def unit(self) -> bool:
        """Every group is one row of weight 1 (unweighted, distinct forecasts):
        ``w`` and ``count`` are then made on demand (no n-long arrays kept)."""
        return self._w is None

    @property
    def w(self) -> np.ndarray:
        return np.ones(self.x.shape[0]) if self._w is None else self._w

    @property
    def count(self) -> np.ndarray:
        if self._count is None:
            return np.ones(self.x.shape[0], dtype=np.int64)
        return self._count


def _run_starts(sorted_values: np.ndarray) -> np.ndarray:
    """Indices where a new value starts in a sorted array."""
    n = sorted_values.shape[0]
    flag = np.empty(n, dtype=bool)
    flag[0] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=flag[1:])
    return np.flatnonzero(flag)


def pool_ties(y01: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> Pooled:
    """Sort once and pool tied forecasts (O(n log n), one sort).

    Without weights, the outcome is packed into the lowest bit of the
    (monotone) integer image of each forecast, so one ``np.sort`` of int64
    keys orders the forecasts and groups the outcomes.  With weights, one
    ``argsort``; rows of zero weight are dropped.
    """
    n = p.shape[0]
    if w is None:
        # +0.0 turns -0.0 into 0.0; bits of non-negative doubles are monotone
        key = (p + 0.0).view(np.int64)
        key <<= 1
        key |= y01 > 0.5
        key.sort()
        ybits = key & 1
        key >>= 1
        flag = np.empty(n, dtype=bool)
        flag[0] = True
        np.not_equal(key[1:], key[:-1], out=flag[1:])
        if flag.all():  # distinct forecasts: one row per group, no copies
            del flag
            events = ybits.astype(np.int8)  # 0/1 events: one byte per row
            del ybits
            return Pooled(key.view(np.float64), None, events, None)
        starts = np.flatnonzero(flag)
        del flag
        ysum = np.add.reduceat(ybits, starts).astype(np.float64)
        del ybits
        x = key[starts].view(np.float64)
        del key
        count = np.diff(starts, append=n)
        return Pooled(x, count.astype(np.float64), ysum, count)
    keep = w > 0
    if not keep.all():
        y01, p, w = y01[keep], p[keep], w[keep]
        n = p.shape[0]
    # the outcome rides on the sign of the (positive) weight: one gather
    signed = 2.0 * y01
    signed -= 1.0
    signed *= w
    order = np.argsort(p)
    signed = signed[order]
    del order
    ps = np.sort(p) + 0.0
    starts = _run_starts(ps)
    x = ps[starts]
    del ps
    count = np.diff(starts, append=n)
    signed_sum = np.add.reduceat(signed, starts)  # sum w y - sum w (1 - y)
    ws = np.abs(signed, out=signed)
    wsum = np.add.reduceat(ws, starts)
    ysum = signed_sum
    if float(wsum.max()) < 2.0**1000:  # sum, then halve: exact down to 5e-324
        ysum += wsum
        ysum *= 0.5
    else:  # halve, then sum: exact, and a weight near 1.8e308 no longer overflows
        ysum *= 0.5
        ysum += 0.5 * wsum
    return Pooled(x, wsum, ysum, count)


def pav(ybar: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Weighted isotonic (non-decreasing) regression of ``ybar`` (PAV; unit
    weights for ``w=None``)."""
    from scipy.optimize import isotonic_regression

    return isotonic_regression(ybar, weights=w, increasing=True).x


def corp_from_groups(x, w, ysum):
    """CORP components from pooled groups: ``(bs, mcb, dsc, unc, recalibrated)``.

    ``w=None``: every group is one row of weight 1 (the values of ``w`` all
    ones, without keeping such an array through the isotonic fit); ``ysum``
    then holds its 0/1 outcome (any numeric type)."""
    unit = w is None
    total = float(x.shape[0]) if unit else w.sum()
    ybar = ysum if unit else ysum / w
    c = pav(ybar, w)
    # sum_i w_i (f - y_i)^2 over a group = W (f - ybar)^2 + W ybar (1 - ybar),
    # which is 0 for groups of one row
    base = 0.0 if unit else ysum.sum() - np.dot(ysum, ybar)
    d = x - ybar
    d *= d
    if unit:
        w = np.ones(x.shape[0])
    bs = (np.dot(w, d) + base) / total
    np.subtract(c, ybar, out=d)
    d *= d
    bs_c = (np.dot(w, d) + base) / total
    obar = ysum.sum() / total
    unc = obar * (1.0 - obar)
    return float(bs), float(bs - bs_c), float(unc - bs_c), float(unc), c


def recalibrated_curve_at(x_eval: np.ndarray, xk: np.ndarray, ck: np.ndarray) -> np.ndarray:
    """A resampled recalibration curve at ``x_eval``, as R ``reliabilitydiag``.

    ``xk`` are the distinct forecasts of the resample (sorted) and ``ck``
    their PAV fit.  Between them the curve is interpolated linearly
    (``stats::approx``); outside ``[xk[0], xk[-1]]`` it is NaN (the resample
    is dropped there).  A resample with a single distinct forecast gives its
    constant value everywhere (reliabilitydiag recycles that one value).
    """
    if xk.shape[0] == 1:
        return np.full(x_eval.shape[0], float(ck[0]))
    out = np.interp(x_eval, xk, ck)
    out[(x_eval < xk[0]) | (x_eval > xk[-1])] = np.nan
    return out


def recalibrated_curves(
    x: np.ndarray,
    resampled_x: Sequence[np.ndarray],
    resampled_y: Sequence[np.ndarray],
    resampled_w: Sequence[np.ndarray] | None = None,
) -> np.ndarray:
    """``(n_resamples, len(x))`` PAV curves of the resamples evaluated at ``x``."""
    curves = np.empty((len(resampled_x), x.shape[0]))
    for b, (xb, yb) in enumerate(zip(resampled_x, resampled_y)):
        xb = np.asarray(xb, dtype=np.float64)
        yb = np.asarray(yb, dtype=np.float64)
        wb = None if resampled_w is None else np.asarray(resampled_w[b], dtype=np.float64)
        pooled = pool_ties(yb, xb, wb if wb is not None else np.ones_like(xb))
        c = pav(pooled.ysum / pooled.w, pooled.w)
        curves[b] = recalibrated_curve_at(x, pooled.x, c)
    return curves


def consistency_band_from_resamples(
    x: np.ndarray,
    resampled_x: Sequence[np.ndarray],
    resampled_y: Sequence[np.ndarray],
    *,
    confidence_level: float,
    resampled_w: Sequence[np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Pointwise consistency band of a reliability diagram from given resamples.

    The band of R ``reliabilitydiag`` (``region.method = "resampling"``,
    ``region.position = "diagonal"``), computed from resamples drawn
    elsewhere: for each resample, the isotonic (PAV) fit of the resampled
    outcomes on the resampled forecasts (ties pooled); that curve
    interpolated linearly at the original forecast values ``x``, NaN at the
    values outside the resample's range of forecasts (a resample with one
    distinct forecast gives its constant fit everywhere, as in
    reliabilitydiag); then, at each ``x``, the quantiles at
    :math:`(1 \mp \text{level}) / 2` of the curves that are not NaN (R's
    ``quantile`` type 7, numpy's linear).

    Parameters
    ----------
    x : ndarray of shape (n_values,)
        Sorted distinct original forecast values.
    resampled_x, resampled_y : sequence of 1-D ndarrays
        One array per resample: the resampled forecasts and the outcomes
        (0/1) drawn for them.
    confidence_level : float
        Level of the band in (0, 1).
    resampled_w : sequence of 1-D ndarrays, default=None
        Weights of the resampled rows (e.g. numbers of draws);
        None for unit weights.

    Returns
    -------
    lower, upper : ndarray of shape (n_values,)
        The band (NaN where every resample is NaN).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier._core.kernels.decomposition import (
    ...     consistency_band_from_resamples)
    >>> x = np.array([0.2, 0.5, 0.8])
    >>> lo, hi = consistency_band_from_resamples(
    ...     x, [np.array([0.2, 0.8]), np.array([0.5, 0.5, 0.8])],
    ...     [np.array([0., 1.]), np.array([1., 0., 1.])], confidence_level=0.5)
    >>> lo.tolist(), hi.tolist()
    ([0.0, 0.5, 1.0], [0.0, 0.5, 1.0])
    """
    curves = recalibrated_curves(
        np.asarray(x, dtype=np.float64), resampled_x, resampled_y, resampled_w
    )
    with warnings.catch_warnings():  # values no resample reaches stay NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        ci = interval_from_replicates(curves, confidence_level)
    return np.asarray(ci.low), np.asarray(ci.high)
