r"""Validation-free kernels of the cumulative (binning-free) calibration tests.

Arrieta-Ibarra, Gujral, Tannen, Tygert and Xu (2022): with the rows sorted by
forecast :math:`p` (increasing), weights :math:`w` and :math:`W = \sum w`,
the cumulative difference

.. math::

    C_0 = 0, \qquad C_k = \frac{1}{W} \sum_{j \le k} w_j (y_j - p_j)

is, for calibrated forecasts, a random walk with independent increments; its
endpoint has the standard deviation

.. math::

    \sigma = \frac{\sqrt{\sum_j w_j\, p_j (1 - p_j)}}{W}

with frequency weights (:func:`variance_sums`).  The Kolmogorov--Smirnov
range :math:`\max_k |C_k|` and Kuiper's range :math:`\max_k C_k - \min_k C_k`
(over :math:`k = 0, \dots, n`, the origin included), divided by
:math:`\sigma`, tend to the maximum of :math:`|B|` and the range of a
standard Brownian motion :math:`B` on :math:`[0, 1]`
(:func:`brownian_max_abs_sf`, :func:`brownian_range_sf`).

**Ties are pooled.**  :math:`C` is evaluated only after the last row of each
run of equal forecasts (:func:`run_ends`): the statistics do not depend on
the order of tied rows (which the peers leave to their sort, or to random
jitter in MAPIE), and integer weights equal repeated rows.

Inputs are validated float64 arrays: ``y`` 0/1, ``p`` in [0, 1], ``w``
non-negative weights or None.
"""

from __future__ import annotations

import math
from typing import Any, Literal, NamedTuple

import numpy as np
from scipy.special import ndtr

__all__ = [
    "CumulativeCurve",
    "brownian_max_abs_sf",
    "brownian_range_sf",
    "by_forecast",
    "cumulative_curve",
    "holm",
    "order_by_part",
    "part_extremes",
    "ranges",
    "run_ends",
    "sort_rows",
    "variance_sums",
]

#: how the standard deviation of the endpoint reads the weights
SigmaWeights = Literal["frequency", "sampling"]


# --------------------------------------------------------------------------- sorting
def sort_rows(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(p, w (y - p), w)`` sorted by increasing forecast (``w`` None: unit weights).

    Without weights the rows are sorted without an index: the bit pattern of
    a non-negative double increases with its value, so ``bits(p) << 1 | y``
    (``p <= 1`` leaves the top two bits free; ``-0.0`` loses its sign bit)
    sorts by forecast with the outcome carried along, in one sort of
    integers instead of an argsort and two gathers.
    """
    if w is None:
        key = p.view(np.uint64) << np.uint64(1)
        key |= y.astype(np.uint64)
        key.sort()
        d = (key & np.uint64(1)).astype(np.float64)
        key >>= np.uint64(1)
        ps = key.view(np.float64)
        np.subtract(d, ps, out=d)
        return ps, d, None
    order = np.argsort(p)
    ps = p[order]
    ws = w[order]
    d = y[order]
    np.subtract(d, ps, out=d)
    np.multiply(d, ws, out=d)
    return ps, d, ws


def by_forecast(p: np.ndarray, *arrays: np.ndarray | None) -> list[Any]:
    """``p`` and ``arrays`` (None stays None) in the order of increasing ``p``.

    Already sorted forecasts (the calibration report passes its rows
    sorted) are returned as they are: one comparison of neighbours instead
    of a sort and a gather of every array.  Otherwise ``np.argsort(p)``
    (tied rows in any order: the curves are read after each run of ties).
    """
    if p.shape[0] < 2 or bool(np.all(p[1:] >= p[:-1])):
        return [p, *arrays]
    order = np.argsort(p)
    return [p[order], *(None if a is None else a[order] for a in arrays)]


def order_by_part(codes: np.ndarray, n_parts: int) -> np.ndarray:
    """The permutation that groups rows sorted by forecast by part, keeping their order.

    ``codes`` are the parts of the rows in forecast order; a stable sort of
    them (a radix sort for up to 65,536 parts: numpy's stable sort of 8-
    and 16-bit integers) leaves each part sorted by forecast, and gathering
    with it reads each part's rows in increasing memory order.
    """
    dtype = np.uint8 if n_parts <= 256 else np.uint16 if n_parts <= 65536 else np.intp
    return np.argsort(codes.astype(dtype, copy=False), kind="stable")


def run_ends(ps: np.ndarray, starts: np.ndarray | None = None) -> np.ndarray:
    """Mask of the last row of each run of equal forecasts (and of each part).

    ``ps`` is sorted (within each part); ``starts`` are the first rows of the
    parts (None: one part).
    """
    last = np.empty(ps.shape[0], dtype=bool)
    np.not_equal(ps[1:], ps[:-1], out=last[:-1])
    last[-1] = True
    if starts is not None and starts.shape[0] > 1:
        last[starts[1:] - 1] = True
    return last


# --------------------------------------------------------------------------- the curve
class CumulativeCurve(NamedTuple):
    """The cumulative difference after each distinct forecast (the origin left out).

    ``forecast`` holds the distinct forecasts (increasing), ``share`` the
    share of the total weight at or below each, and ``difference`` the
    cumulative difference :math:`C` there.
    """

    forecast: np.ndarray
    share: np.ndarray
    difference: np.ndarray


def cumulative_curve(
    ps: np.ndarray, d: np.ndarray, ws: np.ndarray | None, total_weight: float
) -> CumulativeCurve:
    """The curve of :func:`sort_rows`'s output, ``total_weight`` being :math:`W`."""
    last = run_ends(ps)
    cs = np.cumsum(d)
    every = bool(last.all())  # no ties: no copies
    diff = cs if every else cs[last]
    diff /= total_weight
    if ws is None:
        pos = np.arange(1, ps.shape[0] + 1, dtype=np.float64)
        share = pos if every else pos[last]
        share /= ps.shape[0]
    else:
        cw = np.cumsum(ws)
        share = cw if every else cw[last]
        share /= cw[-1]
    return CumulativeCurve(ps if every else ps[last], share, diff)


def ranges(lo: np.ndarray | float, hi: np.ndarray | float) -> tuple[np.ndarray, ...]:
    """``(ks, kuiper, kuiper_without_origin)`` from the minimum and maximum of :math:`C`.

    The origin :math:`C_0 = 0` counts for Kuiper's range (as in the paper
    and MCGrad); MAPIE's range is taken over the points after it only.
    """
    lo = np.asarray(lo, dtype=np.float64)
    hi = np.asarray(hi, dtype=np.float64)
    ks = np.maximum(np.abs(lo), np.abs(hi))
    kuiper = np.maximum(hi, 0.0) - np.minimum(lo, 0.0)
    return ks, kuiper, hi - lo


def part_extremes(
    ps: np.ndarray | None, d: np.ndarray, starts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per part, the minimum and maximum of its own curve (unnormalised, origin excluded).

    ``ps`` and ``d`` (forecasts and ``w (y - p)``) are ordered by part and
    by forecast within a part (:func:`order_by_part`); ``starts`` are the
    first rows of the parts, all non-empty.  Each part's cumulative sums
    restart at its first row; they are read after the last row of each run
    of equal forecasts.  ``ps`` None: no two forecasts are equal (every
    row is read; the caller need not order the forecasts).
    """
    cs = np.cumsum(d)
    if ps is None:  # no ties: every row ends its run
        first = starts
        vals = cs
        counts = np.diff(starts, append=cs.shape[0])
    else:
        pos = np.flatnonzero(run_ends(ps, starts))
        first = np.searchsorted(pos, starts)
        vals = cs[pos]
        counts = np.diff(first, append=pos.shape[0])
    before = np.zeros(starts.shape[0])
    before[1:] = cs[starts[1:] - 1]
    # the sums before each part, repeated over its read rows (the parts are
    # consecutive: no search per row)
    vals -= np.repeat(before, counts)
    return np.minimum.reduceat(vals, first), np.maximum.reduceat(vals, first)


def variance_sums(
    p: np.ndarray,
    w: np.ndarray | None,
    codes: np.ndarray | None = None,
    n_parts: int = 1,
    *,
    weights: SigmaWeights = "frequency",
) -> np.ndarray:
    r"""The standard deviation :math:`\sigma` of the endpoint of each part's curve.

    ``weights="frequency"``: :math:`\sqrt{\sum w p (1 - p)} / \sum w` (a weight
    counts repeated rows); ``"sampling"``: :math:`\sqrt{\sum w^2 p (1 - p)} /
    \sum w` (a weight scales one observation, as in MCGrad and Tygert's
    weighted-sampling code), computed on ``w / max(w)`` so that no scale of
    the weights under- or overflows.  Without weights both are
    :math:`\sqrt{\sum p (1 - p)} / n`.  Zero for a part whose forecasts are
    all 0 or 1.
    """
    v = np.subtract(1.0, p)
    v *= p  # p (1 - p), one temporary
    den_x: np.ndarray | None
    if w is None:
        num_x, den_x = v, None
    elif weights == "frequency":
        num_x, den_x = v * w, w
    else:
        den_x = w / w.max()
        num_x = v * den_x * den_x
    if codes is None:
        num = np.array([num_x.sum()])
        den = np.array([float(p.shape[0] if den_x is None else den_x.sum())])
    else:
        num = np.bincount(codes, weights=num_x, minlength=n_parts)
        den = np.bincount(codes, weights=den_x, minlength=n_parts).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(num) / den


# --------------------------------------------------------------------------- p-values
_K = np.arange(1, 13, dtype=np.float64)
_J = np.arange(0, 8, dtype=np.float64)


def brownian_max_abs_sf(x: np.ndarray | float) -> np.ndarray:
    r""":math:`P(\sup_{0 \le t \le 1} |B_t| \ge x)` for standard Brownian motion :math:`B`.

    The p-value of the normalised Kolmogorov--Smirnov statistic.  For
    :math:`x < 1`, one minus the theta series of the distribution function,
    :math:`\frac{4}{\pi} \sum_{k \ge 0} \frac{(-1)^k}{2k + 1}
    e^{-(2k+1)^2 \pi^2 / (8 x^2)}` (Darling and Siegert 1953, as MAPIE); for
    :math:`x \ge 1` the upper tail itself, :math:`4 \sum_{k \ge 1}
    (-1)^{k-1} \bar\Phi((2k - 1) x)` (reflection), accurate far below the
    1e-16 where one minus the distribution function rounds to zero.
    """
    return _series_sf(
        x,
        1.0,
        lambda t: (
            (4.0 / math.pi)
            * np.sum(
                (-1.0) ** _J
                / (2 * _J + 1)
                * np.exp(-((2 * _J + 1) ** 2) * math.pi**2 / (8 * t * t)),
                axis=-1,
            )
        ),
        lambda t: 4.0 * np.sum((-1.0) ** (_K - 1) * ndtr(-(2 * _K - 1) * t), axis=-1),
    )


def _series_sf(x: Any, split: float, cdf: Any, tail: Any) -> np.ndarray:
    """A survival function from two series: ``1 - cdf(x)`` for ``0.05 <= x <
    split``, ``tail(x)`` from ``split`` on, 1 below 0.05 and NaN for NaN
    (``cdf`` and ``tail`` take ``x`` with a trailing axis to sum over)."""
    x = np.asarray(x, dtype=np.float64)
    out = np.ones_like(x)
    with np.errstate(all="ignore"):
        lo = (x >= 0.05) & (x < split)
        if lo.any():
            out[lo] = 1.0 - cdf(x[lo][..., None])
        hi = x >= split
        if hi.any():
            out[hi] = tail(x[hi][..., None])
    out[np.isnan(x)] = np.nan
    return out


def brownian_range_sf(x: np.ndarray | float) -> np.ndarray:
    r""":math:`P(\max_{t \le 1} B_t - \min_{t \le 1} B_t \ge x)` for standard Brownian motion.

    The p-value of the normalised Kuiper statistic (the range of the curve,
    MCGrad's ECCE in standard deviations).  For :math:`x < 1.5`, one minus
    the series of the distribution function :math:`\sum_{k \ge 0} \big(8/x^2
    + 2/((k + \tfrac12)^2 \pi^2)\big) e^{-2 (k + 1/2)^2 \pi^2 / x^2}` (Feller
    1951, as MAPIE and MCGrad); for :math:`x \ge 1.5` the upper tail from
    Feller's density :math:`8 \sum_{k \ge 1} (-1)^{k-1} k^2 \varphi(k x)`,
    :math:`8 \sum_{k \ge 1} (-1)^{k-1} k\, \bar\Phi(k x)`.
    """
    h = (_J + 0.5) ** 2
    return _series_sf(
        x,
        1.5,
        lambda t: np.sum(
            (8.0 / (t * t) + 2.0 / (h * math.pi**2))
            * np.exp(-2.0 * h * math.pi**2 / (t * t)),
            axis=-1,
        ),
        lambda t: 8.0 * np.sum((-1.0) ** (_K - 1) * _K * ndtr(-_K * t), axis=-1),
    )


# --------------------------------------------------------------------------- multiple tests
def holm(pvalues: np.ndarray) -> np.ndarray:
    r"""Holm's step-down adjustment of p-values (NaN left out and kept NaN).

    With the :math:`m` p-values sorted, :math:`\tilde p_{(i)} = \min(1,
    \max_{j \le i} (m - j + 1) p_{(j)})`: rejecting where :math:`\tilde p \le
    \alpha` controls the family-wise error at :math:`\alpha` (Holm 1979), as
    R's ``p.adjust(p, "holm")``.
    """
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.shape[0]
    if m == 0:
        return out
    order = np.argsort(q, kind="stable")
    adj = np.minimum(np.maximum.accumulate((m - np.arange(m)) * q[order]), 1.0)
    res = np.empty(m)
    res[order] = adj
    out[ok] = res
    return out
