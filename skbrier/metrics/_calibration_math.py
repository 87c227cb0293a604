"""Calibration statistics on validated arrays (no validation here).

The public functions in :mod:`skbrier.metrics.calibration` validate their
input once and call these kernels.  Everything follows R's
``rms::val.prob`` (rms 6.5-0) where val.prob defines the statistic.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import special, stats
from sklearn.exceptions import ConvergenceWarning

__all__ = [
    "binned_calibration_error",
    "log_likelihood",
    "logistic_fit",
    "lowess_calibration_curve",
    "r_lowess",
    "spiegelhalter",
]


def log_likelihood(y: np.ndarray, eta: np.ndarray, w: np.ndarray | None) -> float:
    """Bernoulli log-likelihood ``sum w (y eta - log(1 + exp(eta)))`` (stable)."""
    ll = y * eta - np.logaddexp(0.0, eta)
    if w is None:
        return float(ll.sum())
    return float(np.sum(w * ll))


def logistic_fit(
    y: np.ndarray,
    X: np.ndarray,
    offset: np.ndarray | None,
    w: np.ndarray | None,
    beta0: np.ndarray,
    *,
    max_iter: int = 100,
    tol: float = 1e-12,
) -> tuple[np.ndarray, np.ndarray, float, bool]:
    """Unpenalised (weighted) logistic regression by Newton's method.

    Maximises ``sum w (y eta - log(1 + exp(eta)))`` with
    ``eta = offset + X beta`` with step halving.  Returns ``(beta, cov,
    loglik, converged)`` where ``cov`` is the inverse observed information
    (the covariance R's ``vcov(glm(...))`` reports).
    """
    off = 0.0 if offset is None else offset
    ww = np.ones_like(y) if w is None else w
    beta = np.array(beta0, dtype=np.float64)
    eta = off + _matvec(X, beta)
    ll = log_likelihood(y, eta, w)
    converged = False
    info = np.eye(X.shape[1])
    for _ in range(max_iter):
        mu = special.expit(eta)
        grad = np.einsum("ij,i->j", X, ww * (y - mu))
        info = np.einsum("ij,ik,i->jk", X, X, ww * mu * (1.0 - mu))
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError:
            break
        t = 1.0
        while True:
            cand = beta + t * step
            eta_c = off + _matvec(X, cand)
            ll_c = log_likelihood(y, eta_c, w)
            if ll_c >= ll - 1e-12 * abs(ll) or t < 1e-10:
                break
            t *= 0.5
        done = np.max(np.abs(t * step)) <= tol * (1.0 + np.max(np.abs(beta)))
        beta, eta, ll = cand, eta_c, ll_c
        if done:
            converged = True
            break
    mu = special.expit(eta)
    info = np.einsum("ij,ik,i->jk", X, X, ww * mu * (1.0 - mu))
    try:
        cov = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        cov = np.full_like(info, np.nan)
    return beta, cov, ll, converged


def _matvec(X: np.ndarray, beta: np.ndarray) -> np.ndarray:
    # explicit columns: BLAS dot/gemv threads badly on small, busy machines
    out = X[:, 0] * beta[0]
    for j in range(1, X.shape[1]):
        out += X[:, j] * beta[j]
    return out


def spiegelhalter(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None
) -> tuple[float, float]:
    """Spiegelhalter's z statistic and two-sided p-value (as ``rms::val.prob``).

    ``z = sum w (y - p)(1 - 2p) / sqrt(sum w (1 - 2p)^2 p (1 - p))``; weights
    act as frequency weights (a weight of 2 equals a repeated row).
    """
    a = 1.0 - 2.0 * p
    num_terms = (y - p) * a
    den_terms = a * a * p * (1.0 - p)
    if w is None:
        num = num_terms.sum()
        den = den_terms.sum()
    else:
        num = np.sum(w * num_terms)
        den = np.sum(w * den_terms)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = float(num / np.sqrt(den))
    pval = float(2.0 * stats.norm.sf(abs(z))) if np.isfinite(z) else float("nan")
    return z, pval


def _lowest(
    x: np.ndarray, y: np.ndarray, xs: float, nleft: int, nright: int, rng: float
) -> tuple[float, bool]:
    """One local linear fit of R's ``clowess`` (``lowest`` in lowess.c), 0-based
    indices, no robustness weights."""
    n = x.shape[0]
    h = max(xs - x[nleft], x[nright] - xs)
    h9 = 0.999 * h
    h1 = 0.001 * h
    # the C loop stops at the first point to the right farther than h9;
    # x - xs is non-decreasing, so look just past searchsorted first
    end = min(n, int(np.searchsorted(x, xs + h9, side="right")) + 3)
    d = x[nleft:end] - xs
    stop = np.flatnonzero(d > h9)
    if not stop.size and end < n:
        d = x[nleft:] - xs
        stop = np.flatnonzero(d > h9)
    nrt = nleft + (stop[0] if stop.size else d.shape[0]) - 1
    d = d[: nrt - nleft + 1]
    r = np.abs(d)
    # tricube weights, fcube(x) = x * x * x as in lowess.c
    with np.errstate(divide="ignore", invalid="ignore"):  # h = 0: all weights 1
        q = r / h
    q *= q * q
    np.subtract(1.0, q, out=q)
    wts = q * q * q
    wts[r <= h1] = 1.0
    wts[r > h9] = 0.0
    a = wts.sum()
    if a <= 0.0:
        return 0.0, False
    wts = wts / a
    xx = x[nleft : nrt + 1]
    if h > 0.0:
        a = np.sum(wts * xx)
        b = xs - a
        c = np.sum(wts * (xx - a) * (xx - a))
        if np.sqrt(c) > 0.001 * rng:
            b /= c
            wts = wts * (b * (xx - a) + 1.0)
    return float(np.sum(wts * y[nleft : nrt + 1])), True


def r_lowess(
    x: np.ndarray, y: np.ndarray, f: float = 2.0 / 3.0, delta: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Port of R's ``stats::lowess(x, y, f, iter = 0)`` (Cleveland's clowess).

    Returns the sorted ``x`` (stable order, as R's ``order``) and the fitted
    values.  Only ``iter = 0`` (no robustness iterations) is ported: it is what
    ``rms::val.prob`` uses.
    """
    o = np.argsort(x, kind="stable")
    xs_all = np.ascontiguousarray(x[o], dtype=np.float64)
    ys_all = np.ascontiguousarray(y[o], dtype=np.float64)
    n = xs_all.shape[0]
    if delta is None:
        delta = 0.01 * (xs_all[-1] - xs_all[0])
    fit = np.empty(n)
    if n < 2:
        fit[:] = ys_all
        return xs_all, fit
    rng = xs_all[-1] - xs_all[0]
    ns = max(2, min(n, int(f * n + 1e-7)))
    # 0-based translation of the C code (which is 1-based)
    nleft = 0
    nright = ns - 1
    last = -1
    i = 0
    while True:
        if nright < n - 1:
            # the C code moves the window right one point at a time while
            # x[i] - x[nleft] > x[nright + 1] - x[i]; that condition is
            # monotone in nleft, so bisect for the same stopping point
            xi = xs_all[i]
            lo, hi = nleft, n - ns
            while lo < hi:
                mid = (lo + hi) // 2
                if xi - xs_all[mid] > xs_all[mid + ns] - xi:
                    lo = mid + 1
                else:
                    hi = mid
            nleft = lo
            nright = lo + ns - 1
        val, ok = _lowest(xs_all, ys_all, xs_all[i], nleft, nright, rng)
        fit[i] = val if ok else ys_all[i]
        if last < i - 1:
            denom = xs_all[i] - xs_all[last]
            j = np.arange(last + 1, i)
            alpha = (xs_all[j] - xs_all[last]) / denom
            fit[j] = alpha * fit[i] + (1.0 - alpha) * fit[last]
        last = i
        # points within delta of the last fit are skipped (interpolated
        # later); ties of the last point get its value
        cut = xs_all[last] + delta
        i_break = max(int(np.searchsorted(xs_all, cut, side="right")), last + 1)
        tie_end = int(np.searchsorted(xs_all, xs_all[last], side="right")) - 1
        if tie_end > last:
            fit[last + 1 : tie_end + 1] = fit[last]
            last = tie_end
        i = max(last + 1, i_break - 1)
        if last >= n - 1:
            break
    return xs_all, fit


def lowess_calibration_curve(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The smoothed observed frequency at each ``p``, as ``rms::val.prob``:
    ``approx(lowess(p, y, iter = 0), xout = p, ties = mean)$y``."""
    xs, fit = r_lowess(p, y)
    # approx(ties = mean): average the fitted values of tied x, then
    # interpolate; every xout is a knot, so this is a lookup
    ux, start = np.unique(xs, return_index=True)
    sums = np.add.reduceat(fit, start)
    counts = np.diff(np.append(start, xs.shape[0]))
    means = sums / counts
    return np.interp(p, ux, means)


def binned_calibration_error(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    n_bins: int,
    strategy: str,
    norm: str,
) -> float:
    """Binned calibration error with the bins of ``sklearn.calibration.calibration_curve``.

    ``uniform``: edges ``linspace(0, 1, n_bins + 1)``; ``quantile``: edges at
    the (weighted) quantiles of ``p``.  A sample goes to bin
    ``searchsorted(edges[1:-1], p)``.  ``norm="l1"`` is the ECE
    ``sum_k W_k |pbar_k - ybar_k| / W``, ``"l2"`` its root-mean-square
    version, ``"max"`` the maximum calibration error over non-empty bins.
    """
    ww = np.ones_like(p) if w is None else w
    if strategy == "quantile":
        q = np.linspace(0.0, 1.0, n_bins + 1)
        if w is None:
            edges = np.percentile(p, q * 100)
        else:
            edges = np.quantile(p, q, weights=ww, method="inverted_cdf")
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    wsum = np.bincount(ids, weights=ww, minlength=n_bins)
    psum = np.bincount(ids, weights=ww * p, minlength=n_bins)
    ysum = np.bincount(ids, weights=ww * y, minlength=n_bins)
    nz = wsum > 0
    gap = np.abs(psum[nz] - ysum[nz]) / wsum[nz]
    frac = wsum[nz] / wsum.sum()
    if norm == "l1":
        return float(np.sum(frac * gap))
    if norm == "l2":
        return float(np.sqrt(np.sum(frac * gap * gap)))
    return float(gap.max())


def _warn_not_converged(what: str) -> None:
    warnings.warn(
        f"The logistic {what} did not converge (the outcomes may be perfectly "
        "separated by the forecasts); the estimates are unreliable.",
        ConvergenceWarning,
        stacklevel=4,
    )
