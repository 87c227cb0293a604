r"""Bootstrap refits of the logistic calibration from binned sufficient statistics.

Each bootstrap resample of the calibration report refits calibration in the
large (``logit P = a + lg``) and the joint fit (``logit P = b_0 + b_1 (lg -
c)``) with the resample's counts as frequency weights.  On the rows, every
Newton step evaluates the logistic function on all ``n`` rows, and a refit
takes six to eight such passes.  Here the rows are sorted by class and logit
once and cut into bins of logits at most ``2 r`` wide; within bin ``k``
(centre ``l_k``, ``u = lg - l_k``) the residual and the weight of a row are
Taylor series in ``u``,

.. math::

    y - \sigma(\eta_k + b u) = (y - \sigma(\eta_k))
        - \sum_{j \ge 1} a_j(\eta_k) b^j u^j, \qquad
    a_j = \sigma^{(j)} / j!,

so a resample enters the fits only through the moments ``M[k, j] = sum_{i in
k} c_i w_i u_i^j`` (``j = 0 .. J + 1``), one small matrix product per bin
computed once per resample, and a Newton step costs O(bins), not O(n).

The estimates are those of the fit on the rows, to a proven bound: the series
stop after ``u^J`` (``J = 6``) and the Lagrange remainder of a row is at most
``sup|sigma^(J+1)| (|b| r_k)^(J+1) / (J+1)!`` (``r_k`` the radius of its bin,
``sup|sigma^(7)| = 17/16``).  The score of a resample is therefore known to
within a bound ``E``, the root to within ``|H^-1| E``, and a resample is
accepted only when that bound is below :data:`TOLERANCE` relative to the
estimates; any other resample (the bound not met, Newton's method not
settling) is refitted on its rows by :func:`refit_calibration`.  The bins
make ``|b| r`` at most :data:`RHO` at the full-sample slope (the bound is
then about ``1e-15``); tied logits share a bin of radius 0 and are exact.
The residual is summed in two parts, ``y - [eta >= 0]`` and the small
remainder, as :func:`skbrier._core.kernels.logistic.logistic_sums` does.
"""

from __future__ import annotations

import math

import numpy as np

from .logistic_sums import _EPS, sigmoid_pair

__all__ = ["BinnedRefits", "sigmoid_taylor"]

#: the highest power of ``u`` in the series of the residual
J = 6
#: moments per bin: ``u^0 .. u^(J + 1)`` (the score of the slope has one ``u`` more)
POWERS = J + 2
#: ``sup |sigma^(J+1)| / (J+1)!``: the remainder of the series per unit weight
#: and unit ``(|b| r)^(J+1)`` (``sup |sigma^(7)| = 1.0625``)
REMAINDER = 1.0625 / math.factorial(J + 1)
#: ``|slope| * bin radius`` at the full-sample slope
RHO = 0.025
#: a resample is accepted when its estimates are within this (relative) of the root
TOLERANCE = 1e-12
#: the binned refits are used from this many rows, with at most this many
#: bins and at least :data:`ROWS_PER_BIN` rows per bin on average
MIN_ROWS = 8192
MAX_BINS = 20_000
ROWS_PER_BIN = 8
MAX_ITER = 50
#: rows whose powers of ``u`` are held at once
GROUP_ROWS = 1 << 15


def sigmoid_taylor(eta: np.ndarray, order: int) -> tuple[list[np.ndarray], np.ndarray]:
    """Taylor coefficients ``a_j = sigma^(j)(eta) / j!`` (``j = 0 .. order``)
    and ``t = 1 - sigma(eta)``, accurate for ``eta`` of any size.

    From ``sigma' = sigma (1 - sigma)``: with ``b_0 = 1 - sigma`` and ``b_j =
    -a_j``, ``(j + 1) a_{j+1} = sum_i a_i b_{j-i}`` (a Cauchy product).

    >>> a, t = sigmoid_taylor(np.array([0.0]), 3)
    >>> [float(c[0]) for c in a]
    [0.5, 0.25, 0.0, -0.020833333333333332]
    """
    s, t = sigmoid_pair(eta)
    a, b = [s], [t]
    for j in range(order):
        nxt = a[0] * b[j]
        for i in range(1, j + 1):
            nxt = nxt + a[i] * b[j - i]
        nxt = nxt / (j + 1)
        a.append(nxt)
        b.append(-nxt)
    return a, t


class BinnedRefits:
    """The refits of calibration in the large, intercept and slope on resamples
    of fixed rows (see the module docstring).

    Built with :meth:`build` on the rows of the logistic fits (0/1 ``y``,
    finite ``lg = logit(p)``, normalised weights ``w`` or None); the caller
    puts the counts of each resample's rows in the order :attr:`order` (row
    ``order[i]`` of the fit rows is column ``i``) and calls :meth:`refit`.
    """

    def __init__(self, y, lg, w, start, joint: bool, order, n0: int, starts) -> None:
        self.order = order
        self.start = start
        self.joint = joint
        self._y = y  # sorted only for a refit on the rows (rare)
        self._ls = lg[order]
        self._ws = None if w is None else w[order]
        self._n0 = n0
        ends = np.append(starts[1:], order.shape[0])
        lo, hi = self._ls[starts], self._ls[ends - 1]
        self._bins = list(zip(starts.tolist(), ends.tolist()))
        self._centre = 0.5 * (lo + hi)
        # the largest |u| of each bin (a few ulps more for the rounding of u)
        self._radius = 0.5 * (hi - lo) + 4.0 * _EPS * np.maximum(np.abs(lo), np.abs(hi))
        self._event = (starts >= n0).astype(np.float64)
        # groups of whole bins of about GROUP_ROWS rows: the powers of u are
        # made for one group at a time
        self._groups = []
        g0 = 0
        for k, (_, e) in enumerate(self._bins):
            if e - self._bins[g0][0] >= GROUP_ROWS or k == len(self._bins) - 1:
                self._groups.append((g0, k + 1))
                g0 = k + 1

    @classmethod
    def build(
        cls, y, lg, w, start, joint: bool, by_logit: np.ndarray | None = None
    ) -> BinnedRefits | None:
        """The binned refits of these rows; None when they would not pay off
        (fewer than :data:`MIN_ROWS` rows, too many bins).  ``by_logit``: a
        stable order of the rows by ``lg`` when the caller has one (checked)."""
        n = y.shape[0]
        if n < MIN_ROWS:
            return None
        slope = float(start[2]) if joint else 1.0
        if not math.isfinite(slope):
            return None
        r = RHO / max(1.0, abs(slope))
        if by_logit is None or not _non_decreasing(lg[by_logit]):
            by_logit = np.argsort(lg, kind="stable")
        events = y[by_logit] == 1.0
        order = np.concatenate([by_logit[~events], by_logit[events]])
        n0 = int(n - np.count_nonzero(events))
        del by_logit, events
        ls = lg[order]
        ids = np.empty(n, dtype=np.int64)
        offset = 0
        for lo, hi in ((0, n0), (n0, n)):
            if hi > lo:
                ids[lo:hi] = np.floor((ls[lo:hi] - ls[lo]) / (2.0 * r)).astype(np.int64)
                ids[lo:hi] += offset
                offset = int(ids[hi - 1]) + 1
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        del ids, ls
        if starts.shape[0] > min(MAX_BINS, n // ROWS_PER_BIN):
            return None
        return cls(y, lg, w, start, joint, order, n0, starts)

    # -- the moments ----------------------------------------------------------

    def _moments(self, cb: np.ndarray) -> np.ndarray:
        """``M[k, b, j] = sum_{i in bin k} cb[b, i] w_i u_i^j``: per group of
        bins the powers of ``u`` (``POWERS x rows``), then one product per bin."""
        m = np.empty((len(self._bins), cb.shape[0], POWERS))
        ls, ws, bins, centre = self._ls, self._ws, self._bins, self._centre
        for g0, g1 in self._groups:
            r0, r1 = bins[g0][0], bins[g1 - 1][1]
            sizes = [e - s for s, e in bins[g0:g1]]
            u = ls[r0:r1] - np.repeat(centre[g0:g1], sizes)
            v = np.empty((POWERS, r1 - r0))
            v[0] = 1.0 if ws is None else ws[r0:r1]
            for j in range(1, POWERS):
                np.multiply(v[j - 1], u, out=v[j])
            for k in range(g0, g1):
                s, e = bins[k]
                np.matmul(cb[:, s:e], v[:, s - r0 : e - r0].T, out=m[k])
        return m

    def _series(self, eta: np.ndarray, slope) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(d, rt, v)`` in every bin: the residual of ``eta + slope u`` is
        ``d + sum_j rt_j u^j`` (``d = y - [eta >= 0]``, ``rt_0`` the small part)
        and its weight ``mu (1 - mu)`` is ``sum_j v_j u^j``; ``eta`` is ``(bins,
        B)``, ``slope`` a number or ``(B,)``."""
        a, t = sigmoid_taylor(eta, J + 1)
        pos = eta >= 0.0
        d = self._event[:, None] - pos
        rt = np.empty(eta.shape + (J + 1,))
        # y - sigma = d + sign(eta) min(sigma, 1 - sigma)
        rt[..., 0] = np.where(pos, t, -a[0])
        v = np.empty(eta.shape + (J,))
        power = np.ones(eta.shape[1:])
        v[..., 0] = a[1]
        for j in range(1, J + 1):
            power = power * slope
            rt[..., j] = -a[j] * power
            if j < J:
                v[..., j] = (j + 1) * a[j + 1] * power
        return d, rt, v

    # -- the fits -------------------------------------------------------------

    def _citl(self, m: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Calibration in the large of the resamples ``live`` and whether it is
        proven (within :data:`TOLERANCE` of the root)."""
        a = np.full(m.shape[1], float(self.start[0]))
        ok = np.zeros(m.shape[1], dtype=bool)
        h = np.ones(m.shape[1])
        todo = live.copy()
        for _ in range(MAX_ITER):
            if not todo.any():
                break
            mt = m[:, todo]
            eta = self._centre[:, None] + a[None, todo]
            d, rt, v = self._series(eta, 1.0)
            g = np.einsum("kb,kb->b", d, mt[:, :, 0]) + np.einsum(
                "kbj,kbj->b", rt, mt[:, :, : J + 1]
            )
            h[todo] = np.einsum("kbj,kbj->b", v, mt[:, :, :J])
            with np.errstate(divide="ignore", invalid="ignore"):
                step = g / h[todo]
            new = a[todo] + step
            a[todo] = new
            done = np.abs(step) <= 1e-14 * (1.0 + np.abs(new))
            idx = np.flatnonzero(todo)
            ok[idx[done]] = True
            todo[idx[done | ~np.isfinite(step)]] = False
        err = (self._radius[:, None] ** (J + 1) * m[:, :, 0]).sum(axis=0) * REMAINDER
        with np.errstate(divide="ignore", invalid="ignore"):
            ok &= (h > 0.0) & (err / h <= TOLERANCE * (1.0 + np.abs(a)))
        return a, ok

    def _joint(
        self, m: np.ndarray, live: np.ndarray, c: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Intercept and slope of the resamples ``live`` and whether they are proven."""
        nr = m.shape[1]
        x = (self._centre - c)[:, None, None]
        # the moments of x = l_k - c + u: x M_j + M_{j+1} and x^2 M_j + 2 x M_{j+1} + M_{j+2}
        mx = x * m[:, :, : J + 1] + m[:, :, 1 : J + 2]
        mxx = x * x * m[:, :, :J] + 2.0 * x * m[:, :, 1 : J + 1] + m[:, :, 2 : J + 2]
        beta = np.empty((2, nr))
        beta[0] = self.start[1] + self.start[2] * c
        beta[1] = self.start[2]
        hess = np.ones((3, nr))
        ok = np.zeros(nr, dtype=bool)
        todo = live.copy()
        for _ in range(MAX_ITER):
            if not todo.any():
                break
            mt, mxt = m[:, todo], mx[:, todo]
            b0, b1 = beta[0, todo], beta[1, todo]
            d, rt, v = self._series(b0[None, :] + b1[None, :] * x[:, :, 0], b1)
            g0 = np.einsum("kb,kb->b", d, mt[:, :, 0]) + np.einsum(
                "kbj,kbj->b", rt, mt[:, :, : J + 1]
            )
            g1 = np.einsum("kb,kb->b", d, mxt[:, :, 0]) + np.einsum("kbj,kbj->b", rt, mxt)
            h00 = np.einsum("kbj,kbj->b", v, mt[:, :, :J])
            h01 = np.einsum("kbj,kbj->b", v, mxt[:, :, :J])
            h11 = np.einsum("kbj,kbj->b", v, mxx[:, todo])
            hess[:, todo] = h00, h01, h11
            with np.errstate(divide="ignore", invalid="ignore"):
                det = h00 * h11 - h01 * h01
                s0 = (h11 * g0 - h01 * g1) / det
                s1 = (h00 * g1 - h01 * g0) / det
            b0, b1 = b0 + s0, b1 + s1
            beta[0, todo], beta[1, todo] = b0, b1
            done = np.maximum(np.abs(s0), np.abs(s1)) <= 1e-14 * (
                1.0 + np.maximum(np.abs(b0), np.abs(b1))
            )
            idx = np.flatnonzero(todo)
            ok[idx[done]] = True
            todo[idx[done | ~(np.isfinite(s0) & np.isfinite(s1))]] = False
        b0, b1 = beta
        h00, h01, h11 = hess
        # the scores are known within (e0, e1); the root within |H^-1| (e0, e1)
        q = (
            (np.abs(b1)[None, :] * self._radius[:, None]) ** (J + 1)
            * m[:, :, 0]
            * REMAINDER
        )
        e0 = q.sum(axis=0)
        e1 = (q * (np.abs(x[:, :, 0]) + self._radius[:, None])).sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            det = h00 * h11 - h01 * h01
            d0 = (np.abs(h11) * e0 + np.abs(h01) * e1) / det
            d1 = (np.abs(h01) * e0 + np.abs(h00) * e1) / det
            a = b0 - b1 * c
            # a = b0 - b1 c is within d0 + |c| d1
            scale = 1.0 + np.maximum(np.abs(a), np.abs(b1))
            ok &= (
                (det > 0.0) & (h00 > 0.0) & (d0 + (1.0 + abs(c)) * d1 <= TOLERANCE * scale)
            )
        return a, b1, ok

    def _separated(self, cb: np.ndarray) -> np.ndarray:
        """Whether a threshold on the logit separates the classes of each
        resample, as :func:`separated` (meaningful where both are present)."""
        n0, n = self._n0, cb.shape[1]
        (min0, max0), (min1, max1) = (self._extremes(cb, 0, n0), self._extremes(cb, n0, n))
        return (max0 <= min1) | (max1 <= min0)

    def _extremes(self, cb: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """The smallest and largest logit among the rows ``lo .. hi - 1`` (one
        class, sorted) present in each resample; the first 64 rows from each
        end nearly always hold them."""
        out = []
        for seg in (slice(lo, hi), slice(hi - 1, lo - 1 if lo > 0 else None, -1)):
            block = cb[:, seg]
            head = block[:, :64] > 0.0
            pos = head.argmax(axis=1)
            miss = ~head.any(axis=1)
            if miss.any():
                pos[miss] = (block[miss] > 0.0).argmax(axis=1)
            out.append(self._ls[seg][pos])
        return out[0], out[1]

    def refit(self, cb: np.ndarray) -> np.ndarray:
        """``(B, 3)`` calibration in the large, intercept and slope of the
        resamples whose counts of the fit rows (in :attr:`order`) are the rows of
        ``cb`` (NaN where undefined, as :func:`refit_calibration` gives)."""
        from .calibration import refit_calibration

        nr = cb.shape[0]
        out = np.full((nr, 3), np.nan)
        m = self._moments(cb)
        weight = m[:, :, 0]
        events = self._event == 1.0
        both = (weight[events].sum(axis=0) > 0.0) & (weight[~events].sum(axis=0) > 0.0)
        out[:, 0], ok = self._citl(m, both)
        if self.joint:
            fit = both & ~self._separated(cb)
            c = float(np.sum(self._centre[:, None] * weight) / np.sum(weight))
            a, b, ok_joint = self._joint(m, fit, c)
            out[fit, 1], out[fit, 2] = a[fit], b[fit]
            ok &= ok_joint | ~fit
        out[~both] = np.nan
        redo = np.flatnonzero(both & ~ok)
        ys = self._y[self.order] if redo.shape[0] else self._y
        for r in redo:
            wb = cb[r] if self._ws is None else cb[r] * self._ws
            out[r] = refit_calibration(ys, self._ls, wb, self.start, joint=self.joint)
        return out


def _non_decreasing(x: np.ndarray) -> bool:
    return bool(np.all(x[1:] >= x[:-1]))
