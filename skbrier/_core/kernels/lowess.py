"""R's ``lowess`` (Cleveland's ``clowess``, ``iter = 0``) on validated arrays.

:func:`lowess_knots` walks the sorted data exactly as ``clowess`` does: the
window of ``ns = floor(f n)`` nearest points of each fit point, the fit points
themselves (a point within ``delta`` of the last fit is skipped and later
interpolated linearly; ties of a fit point take its value).  The fitted
curve is therefore the piecewise-linear interpolation of its knots, and
:func:`r_lowess` evaluates it at every point.

Speed without a compiled loop
-----------------------------
With ``delta = 0.01 * range`` there are at most about 200 fit points, but
each local fit sums over ``2/3`` of the data: the C code touches ``~130 n``
values.  Cumulative sums cannot give the tricube-weighted sums exactly (the
weights are a degree-9 polynomial of the distance whose expansion around a
global origin cancels catastrophically).  Here the sorted data are cut into
blocks of :data:`BLOCK` points and each block stores the power moments
``sum u^k`` and ``sum u^k y`` (``k <= 11``) of its points in local
coordinates ``u = (x - centre) / halfwidth`` in ``[-1, 1]``.  For a block that
lies entirely in one tricube zone of a fit point (all its points strictly
between ``0.001 h`` and ``0.999 h`` from the fit point, on one side), the
weight of each point is the polynomial ``(1 - s (D + rho u)^3)^3`` of ``u``
with ``|D| <= 1`` and ``rho <= 1/2`` (no cancellation), so the block's five
sums are dot products of polynomial coefficients with its moments.  The few
other points (partial blocks at the edges of the zones, the centre where the
weight is 1, zero-weight points) are summed directly with the C code's rule.
The weighted variance is computed about the weighted mean (a second pass) as
``clowess`` does.  Results equal the direct C translation to about 1e-13
relative (tested); the cost is ``O(n)`` for the moments plus
``O(n / BLOCK + BLOCK)`` per fit point.
"""

from __future__ import annotations

import bisect
import math
from typing import NamedTuple

import numpy as np

from ..blas import one_blas_thread

__all__ = ["BLOCK", "lowess_knots", "r_lowess", "stable_argsort"]

#: points per block of the moment sums
BLOCK = 512
#: highest power of ``u`` in the moments (weight degree 9, times ``eps^2``)
_DEG = 11
#: windows of fewer points are summed point by point (faster there)
_DIRECT_MAX = 32 * BLOCK


def _first(
    x: np.ndarray | memoryview, xs: float, t: float, strict: bool, lo: int, hi: int
) -> int:
    """First index ``j`` in ``[lo, hi]`` with ``x[j] - xs > t`` (``>= t`` when not
    ``strict``), computed in floating point as the C code does; ``hi`` if none.
    ``x[j] - xs`` is non-decreasing in ``j``, so the predicate is monotone.
    ``x``: the sorted data as a memoryview (fast scalar access) or an array."""
    k = (bisect.bisect_right if strict else bisect.bisect_left)(x, xs + t, lo, hi)
    if strict:
        while k > lo and x[k - 1] - xs > t:
            k -= 1
        while k < hi and not x[k] - xs > t:
            k += 1
    else:
        while k > lo and x[k - 1] - xs >= t:
            k -= 1
        while k < hi and not x[k] - xs >= t:
            k += 1
    return k


class _Moments:
    """Power moments of the blocks of the sorted data."""

    def __init__(self, x: np.ndarray, y: np.ndarray) -> None:
        n = x.shape[0]
        nb = n // BLOCK
        self.nb = nb
        xb = x[: nb * BLOCK].reshape(nb, BLOCK)
        yb = y[: nb * BLOCK].reshape(nb, BLOCK)
        lo, hi = xb[:, 0], xb[:, -1]  # sorted: first and last are min and max
        self.centre = 0.5 * (lo + hi)
        half = 0.5 * (hi - lo)
        self.lo, self.hi = lo, hi
        scale = np.where(half > 0.0, half, 1.0)
        u = (xb - self.centre[:, None]) / scale[:, None]
        u[half == 0.0] = 0.0
        self.half = half
        e = np.empty((nb, _DEG + 1))
        fy = np.empty((nb, _DEG))
        pw = np.ones_like(u)
        for k in range(_DEG + 1):
            e[:, k] = pw.sum(axis=1)
            if k < _DEG:
                fy[:, k] = np.einsum("ij,ij->i", pw, yb)
                pw *= u
        self.e, self.fy = e, fy


def _polymul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise product of polynomials (coefficients by increasing power)."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    for i in range(a.shape[1]):
        for j in range(b.shape[1]):
            out[:, i + j] += a[:, i] * b[:, j]
    return out


def _block_sums(
    mom: _Moments, b0: int, b1: int, xs: float, h: float, sign: float, shift: float
) -> np.ndarray:
    """The five sums of blocks ``b0 .. b1 - 1`` (all in one tricube zone)."""
    if b1 <= b0:
        return np.zeros(5)
    dd = (mom.centre[b0:b1] - xs) / h
    rho = mom.half[b0:b1] / h
    # eps = D + rho u; |d|^3 = sign * eps^3 on this side of xs
    g = np.column_stack(
        [
            1.0 - sign * dd * dd * dd,
            -3.0 * sign * dd * dd * rho,
            -3.0 * sign * dd * rho * rho,
        ]
        + [-sign * rho * rho * rho]
    )
    w = _polymul(_polymul(g, g), g)  # degree 9
    lin = np.column_stack([dd - shift, rho])  # eps - shift
    w1 = _polymul(w, lin)
    w2 = _polymul(w1, lin)
    e = mom.e[b0:b1]
    fy = mom.fy[b0:b1]
    return np.array(
        [
            np.einsum("ij,ij->", w, e[:, :10]),
            np.einsum("ij,ij->", w1, e[:, :11]),
            np.einsum("ij,ij->", w2, e[:, :12]),
            np.einsum("ij,ij->", w, fy[:, :10]),
            np.einsum("ij,ij->", w1, fy[:, :11]),
        ]
    )


class _Window(NamedTuple):
    """The tricube window at ``xs`` of half-width ``h``, with the C code's
    cut-offs ``h1 = 0.001 h`` (weight 1 within) and ``h9 = 0.999 h`` (0 beyond)."""

    xs: float
    h: float
    h1: float
    h9: float


def _window(xs: float, h: float) -> _Window:
    return _Window(xs, h, 0.001 * h, 0.999 * h)


class _Sorted(NamedTuple):
    """The sorted data: ``x`` and ``y`` as arrays, ``xl`` the same ``x`` for
    scalar access (a memoryview when the direct fits read it often, else ``x``) and
    the block moments (None: every window is summed directly)."""

    x: np.ndarray
    xl: np.ndarray | memoryview
    y: np.ndarray
    mom: _Moments | None


def _tricube(
    d: _Sorted, lo: int, hi: int, win: _Window
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(eps, w, scratch)`` over ``x[lo:hi]``: the scaled distances ``(x - xs) / h``
    and the tricube weights with the C code's rule (1 within ``h1``, 0 beyond
    ``h9``), and a free buffer of their length (fewer arrays in cache).

    ``x`` is sorted, so the points within ``h1`` and those beyond ``h9`` are
    index ranges (found by :func:`_first` with the C code's comparisons):
    the weights are set there by slices, and the rest is computed in place,
    operation by operation as ``(1 - |eps|^3)^3`` (the same roundings).
    ``eps`` is negative before ``c0`` and positive from ``c1``, so
    ``1 - |eps|^3`` is ``1 + eps^3`` there and ``1 - eps^3`` here: the same
    floating-point numbers (rounding is symmetric in the sign) without a
    pass for ``|eps|``."""
    xs, h, h1, h9 = win
    x = d.xl
    # d < -h9 before left, |d| <= h1 in c0 .. c1 - 1, d > h9 from right (the
    # windows of the callers hold no point beyond h9: two comparisons say so)
    inside = hi > lo and x[lo] - xs >= -h9 and not x[hi - 1] - xs > h9
    left = lo if inside else _first(x, xs, -h9, False, lo, hi)
    c0 = _first(x, xs, -h1, False, left, hi)
    c1 = _first(x, xs, h1, True, c0, hi)
    right = hi if inside else _first(x, xs, h9, True, c1, hi)
    eps = np.subtract(d.x[lo:hi], xs)
    np.divide(eps, h, out=eps)
    q = np.multiply(eps, eps)
    np.multiply(q, eps, out=q)  # eps^3: -|eps|^3 before c0, |eps|^3 from c1
    if c0 > lo:  # (the calls on empty slices cost more than a short window)
        np.add(1.0, q[: c0 - lo], out=q[: c0 - lo])
    if c1 < hi:
        np.subtract(1.0, q[c1 - lo :], out=q[c1 - lo :])
    w = np.multiply(q, q)
    np.multiply(w, q, out=w)
    if left > lo:
        w[: left - lo] = 0.0
    w[c0 - lo : c1 - lo] = 1.0
    if right < hi:
        w[right - lo :] = 0.0
    return eps, w, q


def _direct_sums(d: _Sorted, lo: int, hi: int, win: _Window, shift: float) -> np.ndarray:
    """The five sums over ``x[lo:hi]`` with the C code's weight rule."""
    if hi <= lo:
        return np.zeros(5)
    eps, w, _ = _tricube(d, lo, hi, win)
    yy = d.y[lo:hi]
    c = eps - shift
    wc = w * c
    return np.array([w.sum(), wc.sum(), np.dot(wc, c), np.dot(w, yy), np.dot(wc, yy)])


def _zone_sums(d: _Sorted, lo: int, hi: int, win: _Window, sign, shift) -> np.ndarray:
    """Sums over the tricube zone ``x[lo:hi]``: whole blocks by moments, the
    rest directly."""
    mom = d.mom
    if mom is None or hi - lo < 2 * BLOCK:
        return _direct_sums(d, lo, hi, win, shift)
    b0 = -(-lo // BLOCK)
    b1 = min(hi // BLOCK, mom.nb)
    if b1 <= b0:
        return _direct_sums(d, lo, hi, win, shift)
    return (
        _direct_sums(d, lo, b0 * BLOCK, win, shift)
        + _block_sums(mom, b0, b1, win.xs, win.h, sign, shift)
        + _direct_sums(d, b1 * BLOCK, hi, win, shift)
    )


def _direct_fit(
    d: _Sorted, lo: int, hi: int, win: _Window, rng: float
) -> tuple[float, bool]:
    """``lowest`` summed point by point over ``x[lo:hi]`` (small windows);
    in place (no temporaries beyond the three of :func:`_tricube`)."""
    eps, w, tmp = _tricube(d, lo, hi, win)
    h = win.h
    # (the ufunc reduction and the dot method themselves: ``w.sum()`` and
    # ``np.dot`` add a layer of calls per fit, the same sums)
    s0 = np.add.reduce(w)
    if not s0 > 0.0:
        return 0.0, False
    w /= s0
    yy = d.y[lo:hi]
    fit = float(w.dot(yy))
    m = float(w.dot(eps))
    c = np.subtract(eps, m, out=eps)
    np.multiply(c, c, out=tmp)
    var = float(w.dot(tmp))
    if math.sqrt(var) * h > 0.001 * rng:
        fit += (-m / var) * float(np.multiply(w, c, out=tmp).dot(yy))
    return fit, True


def _local_fit(
    d: _Sorted, i: int, nleft: int, nright: int, rng: float
) -> tuple[float, bool]:
    """``lowest`` of lowess.c at ``x[i]`` (0-based window ``nleft .. nright``)."""
    x, n = d.xl, d.x.shape[0]
    xs = float(x[i])
    h = max(xs - x[nleft], x[nright] - xs)
    win = _window(xs, h)
    h1, h9 = win.h1, win.h9
    # the C loop runs from nleft and stops at the first point to the right
    # farther than h9 (points to the left farther than h9 get weight 0)
    end = _first(x, xs, h9, True, nleft, n)
    if h <= 0.0:
        # every point of the window ties with xs: weights 1, no linear term
        start = _first(x, xs, 0.0, False, nleft, end)
        return float(np.mean(d.y[start:end])), True
    start = _first(x, xs, -h9, False, nleft, end)
    if d.mom is None or end - start < _DIRECT_MAX:
        return _direct_fit(d, start, end, win, rng)
    c0 = _first(x, xs, -h1, False, start, end)
    c1 = _first(x, xs, h1, True, c0, end)

    def sums(shift: float) -> np.ndarray:
        return (
            _zone_sums(d, start, c0, win, -1.0, shift)
            + _direct_sums(d, c0, c1, win, shift)
            + _zone_sums(d, c1, end, win, 1.0, shift)
        )

    s0, s1, _, t0, _ = sums(0.0)
    if not s0 > 0.0:
        return 0.0, False
    m = s1 / s0
    _, _, s2, t0, t1 = sums(m)
    fit = t0 / s0
    c = s2 / s0
    if math.sqrt(max(c, 0.0)) * h > 0.001 * rng:
        fit += (-m / c) * (t1 / s0)
    return float(fit), True


def stable_argsort(x: np.ndarray) -> np.ndarray:
    """``np.argsort(x, kind="stable")`` for ``x`` without NaN, faster.

    The fast (unstable) sort, then the runs of equal values put back in the
    order of their indices: the same permutation as the stable sort.  When
    more than a quarter of the values are tied, the stable sort itself.
    """
    o = np.argsort(x)
    n = o.shape[0]
    if n < 2:
        return o
    xs = x[o]
    eq = xs[1:] == xs[:-1]
    if not eq.any():
        return o
    tied = np.zeros(n, dtype=bool)
    tied[1:] = eq
    tied[:-1] |= eq
    idx = np.flatnonzero(tied)
    if idx.shape[0] > n // 4:
        return np.argsort(x, kind="stable")
    # the tied positions hold whole runs in increasing value: sorting them by
    # (value, index) keeps every run in place and orders it by index
    oi = o[idx]
    o[idx] = oi[np.lexsort((oi, xs[idx]))]
    return o


def lowess_knots(
    x: np.ndarray,
    y: np.ndarray,
    f: float = 2.0 / 3.0,
    delta: float | None = None,
    *,
    order: np.ndarray | None = None,
    presorted: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The fit points ``(x_k, fit_k)`` of R's ``lowess(x, y, f, iter = 0)``.

    ``x_k`` increase strictly; the lowess fit at any data point is
    ``np.interp(x, x_k, fit_k)`` (points skipped by ``delta`` are interpolated
    linearly, ties of a fit point share its value).  ``delta`` defaults to
    ``0.01 * range(x)`` as in R.  ``order``: ``np.argsort(x, kind="stable")``
    when the caller has it; ``presorted=True``: ``x`` and ``y`` are already
    in that order.
    """
    if presorted:
        xs_all = np.ascontiguousarray(x, dtype=np.float64)
        ys_all = np.ascontiguousarray(y, dtype=np.float64)
    else:
        o = stable_argsort(x) if order is None else order
        xs_all = np.ascontiguousarray(x[o], dtype=np.float64)
        ys_all = np.ascontiguousarray(y[o], dtype=np.float64)
    with one_blas_thread():  # many short dot products: threads cost more
        return _knots_sorted(xs_all, ys_all, f, delta)


def _knots_sorted(
    xs_all: np.ndarray, ys_all: np.ndarray, f: float, delta: float | None
) -> tuple[np.ndarray, np.ndarray]:
    n = xs_all.shape[0]
    if n < 2:
        return xs_all.copy(), ys_all.copy()
    rng = float(xs_all[-1] - xs_all[0])
    if delta is None:
        delta = 0.01 * rng
    ns = max(2, min(n, int(f * n + 1e-7)))
    mom = _Moments(xs_all, ys_all) if n * f > _DIRECT_MAX else None
    # the direct fits read x often (bisections, cut-offs): Python floats
    # there, the same values and comparisons as numpy's (a memoryview makes
    # them as they are read: no list of every value of each group)
    x = xs_all if mom is not None else xs_all.data
    d = _Sorted(xs_all, x, ys_all, mom)
    kx: list[float] = []
    ky: list[float] = []
    nleft, last, i = 0, -1, 0
    while True:
        if nleft + ns - 1 < n - 1:
            # the C code moves the window right while
            # x[i] - x[nleft] > x[nright + 1] - x[i]; bisect for the same stop
            xi = x[i]
            lo, hi = nleft, n - ns
            while lo < hi:
                mid = (lo + hi) // 2
                if xi - x[mid] > x[mid + ns] - xi:
                    lo = mid + 1
                else:
                    hi = mid
            nleft = lo
        val, ok = _local_fit(d, i, nleft, nleft + ns - 1, rng)
        kx.append(float(x[i]))
        ky.append(val if ok else float(ys_all[i]))
        last = i
        cut = x[last] + delta
        i_break = max(bisect.bisect_right(x, cut), last + 1)
        tie_end = bisect.bisect_right(x, x[last]) - 1
        last = max(last, tie_end)
        i = max(last + 1, i_break - 1)
        if last >= n - 1:
            break
    return np.array(kx), np.array(ky)


def r_lowess(
    x: np.ndarray, y: np.ndarray, f: float = 2.0 / 3.0, delta: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """R's ``stats::lowess(x, y, f, iter = 0)``: the sorted ``x`` (stable order,
    as R's ``order``) and the fitted values.

    Only ``iter = 0`` (no robustness iterations) is implemented: it is what
    ``rms::val.prob`` uses.
    """
    o = stable_argsort(x)
    xs_all = np.ascontiguousarray(x[o], dtype=np.float64)
    ys_all = np.ascontiguousarray(y[o], dtype=np.float64)
    with one_blas_thread():
        kx, ky = _knots_sorted(xs_all, ys_all, f, delta)
    if xs_all.shape[0] < 2:
        return xs_all, ys_all.copy()
    return xs_all, np.interp(xs_all, kx, ky)
