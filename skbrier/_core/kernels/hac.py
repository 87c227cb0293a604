"""Validation-free kernels of the HAC (long-run covariance) estimator.

A port of R's ``sandwich::lrvar`` (sandwich 3.0-2): ``lrvar`` fits ``lm(x ~ 1)``
and calls ``kernHAC`` (``type = "Andrews"``) or ``NeweyWest``; these call
``meatHAC`` with kernel weights from ``weightsAndrews`` and a bandwidth from
``bwAndrews`` or ``bwNeweyWest``; prewhitening uses ``stats::ar.ols``.  Every
detail that changes a number is reproduced, including

* the rescaling by the column standard deviations inside ``ar.ols``;
* the VAR(p) prewhitening fit by OLS *without* intercept on the demeaned data;
* the univariate AR(1) fits of the Andrews bandwidth *with* intercept, their
  innovation variance ``RSS / (n - 1)`` (no degrees-of-freedom correction);
* the kernel weights for lags ``0 .. n - 1`` cut after the last weight whose
  absolute value exceeds ``1e-7``, including R's series expansion of the
  quadratic-spectral kernel for ``|x| < 0.001``;
* Newey-West weights ``seq(1, 0, by = -1 / (lag + 1))`` with ``lag`` the floor
  of the Newey-West (1994) bandwidth, truncated to ``n`` weights;
* ``adjust``: the factor ``T / (T - k)`` with ``k`` the number of columns;
* recolouring with ``D = (I - sum A_i)^{-1}``, and the final division by
  ``T**2`` (``meatHAC`` divides by ``T``, ``sandwich`` with an identity bread by
  ``T`` again) although the prewhitened sums run over ``T - p`` rows.

Nothing here validates input: :func:`skbrier.stats.long_run_covariance` does.
The functions raise :class:`HACError` (a ``ValueError``) where R would stop.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import signal

from .decomposition import pow2_exponent

__all__ = [
    "KERNELS",
    "HACError",
    "andrews_weights",
    "ar1_fits",
    "bandwidth_andrews",
    "bandwidth_newey_west",
    "kernel_weights",
    "lrvar",
    "newey_west_weights",
    "var_prewhiten",
    "weighted_autocovariance_sum",
]

#: R's kernel names, keyed by ours.
KERNELS = {
    "quadratic_spectral": "Quadratic Spectral",
    "bartlett": "Bartlett",
    "parzen": "Parzen",
    "truncated": "Truncated",
    "tukey_hanning": "Tukey-Hanning",
}

_TOL = 1e-7  # weightsAndrews(tol = 1e-7)
_RANK_TOL = 1e-7  # qr(XX)$rank in ar.ols (LINPACK dqrdc2, tol = 1e-7)
# |qs(x)| <= 3 (1 + 1/y) / y**2 with y = 6 pi x / 5; at x = 1500 the bound is
# 9.4e-8 < tol, so no lag with j / bw > 1500 can survive the cut.
_QS_XMAX = 1500.0
# Andrews (1991) constants and exponents, as in bwAndrews / bwNeweyWest.
_ANDREWS_CONST = {
    "truncated": (0.6611, "alpha2"),
    "bartlett": (1.1447, "alpha1"),
    "parzen": (2.6614, "alpha2"),
    "tukey_hanning": (1.7462, "alpha2"),
    "quadratic_spectral": (1.3221, "alpha2"),
}


class HACError(ValueError):
    """Raised where R's sandwich would stop (singular fits, degenerate bandwidths)."""


# --------------------------------------------------------------------------- kernels
def _qs(x: np.ndarray) -> np.ndarray:
    y = 6.0 * np.pi * x / 5.0
    with np.errstate(divide="ignore", invalid="ignore"):
        return 3.0 * (1.0 / y) ** 2 * (np.sin(y) / y - np.cos(y))


def kernel_weights(x: np.ndarray, kernel: str) -> np.ndarray:
    """Kernel values ``k(x)`` exactly as ``sandwich::kweights(x, kernel)``."""
    x = np.asarray(x, dtype=np.float64)
    ax = np.abs(x)
    if kernel == "truncated":
        return np.where(ax > 1.0, 0.0, 1.0)
    if kernel == "bartlett":
        return np.where(ax > 1.0, 0.0, 1.0 - ax)
    if kernel == "parzen":
        inner = 1.0 - 6.0 * x**2 + 6.0 * ax**3
        outer = 2.0 * (1.0 - ax) ** 3
        return np.where(ax > 1.0, 0.0, np.where(ax < 0.5, inner, outer))
    if kernel == "tukey_hanning":
        return np.where(ax > 1.0, 0.0, (1.0 + np.cos(np.pi * x)) / 2.0)
    if kernel == "quadratic_spectral":
        w = _qs(x)
        small = ax < 0.001
        if small.any():
            cf = 1e6 * math.log(float(_qs(np.array(0.001))))
            w[small] = np.exp(cf * x[small] ** 2)
        return w
    raise HACError(f"kernel must be one of {sorted(KERNELS)}, got {kernel!r}.")


# ----------------------------------------------------------------- linear algebra
def _rank_ok(xx: np.ndarray) -> bool:
    """Full rank of a small cross-product matrix, by R's ``qr(XX)$rank`` rule.

    LINPACK's dqrdc2 treats a column as negligible when its norm after
    orthogonalisation on the previous columns falls below ``1e-7`` times its
    original norm; modified Gram-Schmidt applies the same rule.
    """
    q_cols: list[np.ndarray] = []
    for j in range(xx.shape[1]):
        col = xx[:, j].astype(np.float64, copy=True)
        norm0 = np.sqrt(col @ col)
        for q in q_cols:
            col -= (q @ col) * q
        norm = np.sqrt(col @ col)
        if not norm > _RANK_TOL * norm0 or norm0 == 0.0:
            return False
        q_cols.append(col / norm)
    return True


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """Dot product of long 1-D arrays without BLAS.

    OpenBLAS runs ``ddot`` on several threads, which is 100x slower than a plain
    SIMD loop on a loaded machine; ``einsum`` never calls BLAS here.
    """
    return float(np.einsum("i,i->", a, b))


# Up to _SMALL_K series and from _BLAS_FREE_MIN_N observations on, cross products
# use BLAS-free 1-D loops (BLAS threads gain nothing on k x n by n x k products).
_SMALL_K = 6
_BLAS_FREE_MIN_N = 20_000


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T`` for series in rows, (p, n) x (q, n) -> (p, q).

    For a few series, pairwise 1-D dot products (memory bound anyway) avoid
    BLAS threads, which are slow on a shared machine; otherwise BLAS.
    """
    p, q = a.shape[0], b.shape[0]
    if p * q > _SMALL_K * _SMALL_K or a.shape[1] < _BLAS_FREE_MIN_N:
        return a @ b.T
    out = np.empty((p, q))
    for i in range(p):
        for j in range(q):
            out[i, j] = _dot(a[i], b[j])
    return out


def _sd(u: np.ndarray) -> np.ndarray:
    """``sc`` of ar.ols for the series in the rows of ``u``: sd, zeros replaced by 1."""
    n = u.shape[1]
    m = u.mean(axis=1)
    ss = np.einsum("ij,ij->i", u, u) - n * m * m
    sc = np.sqrt(np.maximum(ss, 0.0) / (n - 1))
    sc[sc == 0] = 1.0
    return sc


def var_prewhiten(u: np.ndarray, order: int) -> tuple[np.ndarray, np.ndarray]:
    """VAR(``order``) fit by OLS without intercept, as ``ar(u, order, demean=FALSE,
    aic=FALSE, method="ols")``.

    ``u`` holds the k series in its rows, shape (k, n).  Returns the residuals,
    shape (k, n - order), and the sum ``A_1 + ... + A_p`` of the coefficient
    matrices (``u_t = sum_i A_i u_{t-i} + e_t``).  The cross products are
    computed once on the raw data and rescaled by the standard deviations in
    k x k space, which is exactly R's rescaling of the data.
    """
    k, n = u.shape
    sc = np.tile(_sd(u), order)
    # X_t = (u_{t-1}, ..., u_{t-p}) for t = p .. n-1, stacked in rows
    lagged = [u[:, order - 1 - i : n - 1 - i] for i in range(order)]
    x = lagged[0] if order == 1 else np.vstack(lagged)
    y = u[:, order:]
    xtx = _cross(x, x) / np.outer(sc, sc)
    xty = _cross(x, y) / np.outer(sc, sc[:k])
    if not _rank_ok(xtx):
        raise HACError(
            f"VAR({order}) prewhitening failed: the lagged columns of x are collinear "
            "(singular cross-product matrix; prewhite=0 skips the prewhitening)."
        )
    coef = np.linalg.solve(xtx, xty)  # scaled: y_s ~ coef' x_s
    coef *= np.outer(1.0 / sc, sc[:k])  # unscaled: y ~ coef' x
    if k * order > _SMALL_K:
        resid = y - coef.T @ x
    else:
        resid = y.copy()
        for i in range(k):
            for j in range(k * order):
                resid[i] -= coef[j, i] * x[j]
    a_sum = np.zeros((k, k))
    for i in range(order):
        a_sum += coef[i * k : (i + 1) * k].T
    return resid, a_sum


def ar1_fits(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Univariate AR(1) fits of every row of ``u`` (shape (k, n)), as
    ``ar(u[j, ], order.max = 1, aic = FALSE, method = "ols")`` (demeaned, with
    intercept).

    Returns ``rho`` and ``sigma = sqrt(var.pred)`` with ``var.pred = RSS / (n - 1)``.
    """
    k, n = u.shape
    sc = _sd(u)
    m = n - 1
    rho = np.empty(k)
    sigma = np.empty(k)
    for j in range(k):
        z = u[j, :-1]
        y = u[j, 1:]
        total = float(u[j].sum())
        zbar = (total - u[j, -1]) / m
        ybar = (total - u[j, 0]) / m
        # centred cross products from three BLAS dot products (the rows of u are
        # residuals with mean ~0, so the centring loses no accuracy)
        szz = _dot(z, z) - m * zbar * zbar
        szy = _dot(z, y) - m * zbar * ybar
        syy = _dot(y, y) - m * ybar * ybar
        # R's rank check on its (demeaned, rescaled) cross-product matrix
        mu = (total / n - zbar) / sc[j]  # mean of the lagged, demeaned, scaled series
        xx = np.array([[m, -m * mu], [-m * mu, szz / sc[j] ** 2 + m * mu * mu]])
        if not (szz > 0.0) or not _rank_ok(xx):
            raise HACError(
                "AR(1) fit for the Andrews bandwidth failed: a (prewhitened) column of x "
                "is constant over its first n - 1 values (too few or degenerate "
                "observations)."
            )
        r = szy / szz
        rss = syy - r * szy
        if not rss > 1e-4 * syy:  # strong fit: avoid the cancellation, use residuals
            e = (y - ybar) - r * (z - zbar)
            rss = _dot(e, e)
        rho[j] = r
        sigma[j] = math.sqrt(rss / m)
    return rho, sigma


# ------------------------------------------------------------------- bandwidths
def bandwidth_andrews(u: np.ndarray, kernel: str) -> float:
    """``bwAndrews`` with ``approx = "AR(1)"`` on the (prewhitened) scores ``u``.

    ``u`` has shape (k, n): ``n = T - p`` after prewhitening enters the rate.
    """
    k, n = u.shape
    if n < 4:
        # two coefficients fitted to n - 1 <= 2 points: the fit is exact, rho is
        # not identified and sigma is rounding noise (R returns a meaningless number)
        raise HACError(
            f"the Andrews bandwidth needs at least 4 (prewhitened) rows; got {n}."
        )
    rho, sigma = ar1_fits(u)
    if k == 1:
        sigma = np.ones(1)  # sigma cancels in alpha1 and alpha2
    with np.errstate(divide="ignore", invalid="ignore"):
        denum = np.sum((sigma / (1.0 - rho)) ** 4)
        num2 = 4.0 * rho**2 * sigma**4
        alpha2 = np.sum(num2 / (1.0 - rho) ** 8) / denum
        alpha1 = np.sum(num2 / ((1.0 - rho) ** 6 * (1.0 + rho) ** 2)) / denum
    const, which = _ANDREWS_CONST[kernel]
    if which == "alpha1":
        return float(const * (n * alpha1) ** (1.0 / 3.0))
    return float(const * (n * alpha2) ** (1.0 / 5.0))


def bandwidth_newey_west(
    u_raw: np.ndarray, u: np.ndarray, kernel: str, prewhite: int
) -> float:
    """``bwNeweyWest`` (Newey and West 1994).

    ``u_raw`` are the demeaned scores (shape (k, T); ``T`` fixes the lag ``m`` of
    the pilot estimate), ``u`` the prewhitened ones (shape (k, T - p)).
    """
    if kernel not in ("bartlett", "parzen", "quadratic_spectral"):
        raise HACError(
            "bandwidth='newey-west' is only available for the 'bartlett', 'parzen' and "
            f"'quadratic_spectral' kernels, got kernel={kernel!r}."
        )
    n_raw = u_raw.shape[1]
    mrate = {"bartlett": 2.0 / 9.0, "parzen": 4.0 / 25.0, "quadratic_spectral": 2.0 / 25.0}
    m = math.floor((3.0 if prewhite > 0 else 4.0) * (n_raw / 100.0) ** mrate[kernel])
    n = u.shape[1]
    hw = u.sum(axis=0)
    sigma = np.array([_dot(hw[: n - j], hw[j:]) / n for j in range(m + 1)])
    lags = np.arange(1, m + 1, dtype=np.float64)
    s0 = sigma[0] + 2.0 * sigma[1:].sum()
    s1 = 2.0 * np.sum(lags * sigma[1:])
    s2 = 2.0 * np.sum(lags**2 * sigma[1:])
    if kernel == "bartlett":
        qrate = 1.0 / 3.0
        with np.errstate(divide="ignore", invalid="ignore"):
            bw = 1.1447 * ((s1 / s0) ** 2) ** qrate
    else:
        qrate = 1.0 / 5.0
        const = 2.6614 if kernel == "parzen" else 1.3221
        with np.errstate(divide="ignore", invalid="ignore"):
            bw = const * ((s2 / s0) ** 2) ** qrate
    return float(bw * (n + prewhite) ** qrate)


# ---------------------------------------------------------------------- weights
def andrews_weights(bandwidth: float, kernel: str, n: int) -> np.ndarray:
    """``weightsAndrews``: ``kweights(0:(n-1) / bw)`` cut after the last ``|w| > 1e-7``."""
    if not (np.isfinite(bandwidth) and bandwidth > 0):
        raise HACError(
            f"the bandwidth is {bandwidth:.4g}; a positive finite bandwidth is needed "
            "(degenerate automatic bandwidth: the AR(1) fits found no autocorrelation "
            "or a unit root)."
        )
    # Only lags that can exceed the tolerance are evaluated (same result as R,
    # which evaluates all n lags).
    xmax = _QS_XMAX if kernel == "quadratic_spectral" else 1.0
    n_eval = int(min(n, math.floor(xmax * bandwidth) + 2))
    w = kernel_weights(np.arange(n_eval) / bandwidth, kernel)
    keep = np.flatnonzero(np.abs(w) > _TOL)
    if keep.size == 0:  # pragma: no cover - w[0] == 1 always
        raise HACError("no kernel weight exceeds the tolerance.")
    return w[: keep[-1] + 1]


def newey_west_weights(bandwidth: float, n: int) -> np.ndarray:
    """``NeweyWest``: ``lag = floor(bw)``, ``seq(1, 0, by = -1/(lag + 1))`` (first ``n``)."""
    if not (np.isfinite(bandwidth) and bandwidth >= 0):
        raise HACError(
            f"the Newey-West bandwidth is {bandwidth:.4g}; the pilot long-run variance "
            "is degenerate."
        )
    lag = math.floor(bandwidth)
    by = -(1.0 / (lag + 1))
    steps = int(-1.0 / by + 1e-10)  # seq.default: as.integer(n + 1e-10)
    w = np.maximum(1.0 + np.arange(steps + 1) * by, 0.0)
    return w[:n]


# ------------------------------------------------------------ weighted sum of Γ_j
def weighted_autocovariance_sum(u: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``sum_j w_j (Γ_j + Γ_j')`` with ``Γ_0`` counted once: ``utu`` of ``meatHAC``.

    ``u`` has shape (k, n) (series in rows), ``Γ_j = sum_t u_t u_{t+j}'``.
    Short weight vectors (L <= 16) use direct products (O(n L)); long ones an FFT
    correlation (O(n log n)): ``H = U V'`` with ``V_t = sum_j w'_j U_{t+j}``,
    ``w'_0 = w_0 / 2``.
    """
    n = u.shape[1]
    L = min(len(w), n)
    wh = np.asarray(w[:L], dtype=np.float64).copy()
    wh[0] *= 0.5
    if L <= 16:
        h = wh[0] * _cross(u, u)
        for j in range(1, L):
            if wh[j] != 0.0:
                h += wh[j] * _cross(u[:, : n - j], u[:, j:])
    else:
        # v_t = sum_j w'_j u_{t+j}: a convolution with the reversed weights, by
        # FFT (overlap-add for long series: O(n log L))
        conv = signal.fftconvolve if n <= 200_000 else signal.oaconvolve
        v = conv(u, wh[None, ::-1], mode="full", axes=1)[:, L - 1 : L - 1 + n]
        h = _cross(u, v)
    return h + h.T


# ----------------------------------------------------------------------- driver
def lrvar(
    x: np.ndarray,
    *,
    kernel: str = "quadratic_spectral",
    bandwidth: str | float = "andrews",
    prewhite: int = 1,
    adjust: bool = True,
) -> np.ndarray:
    """``sandwich::lrvar`` on validated data; returns (k, k).

    ``x`` holds the k series in its rows: shape (k, T), C-contiguous float64.
    """
    k, t_obs = x.shape
    # one power-of-two scale for all series (exact; every step below is
    # scale-free or scales with it): x * 1e-200 or x * 1e150 neither under- nor
    # overflows, and the estimate scales back by its square
    e = pow2_exponent(np.abs(x))
    x = np.ldexp(x, e)
    u_raw = x - x.mean(axis=1)[:, None]  # estfun(lm(x ~ 1)), series in rows
    if prewhite > 0:
        u, a_sum = var_prewhiten(u_raw, prewhite)
        i_minus_a = np.eye(k) - a_sum
        if k == 1:
            if i_minus_a[0, 0] == 0.0:
                raise HACError(
                    f"VAR({prewhite}) prewhitening failed: the fitted VAR coefficient is "
                    "1 (unit root), so D = (I - A)^{-1} does not exist (prewhite=0 skips "
                    "the prewhitening)."
                )
            d = 1.0 / i_minus_a
        else:
            if 1.0 / np.linalg.cond(i_minus_a, 1) < np.finfo(float).eps:
                raise HACError(
                    f"VAR({prewhite}) prewhitening failed: I - A is singular (the fitted "
                    "VAR has a unit root), so D = (I - A)^{-1} does not exist (prewhite=0 "
                    "skips the prewhitening)."
                )
            d = np.linalg.inv(i_minus_a)
    else:
        u = u_raw
        d = None
    n = u.shape[1]

    if bandwidth == "andrews":
        w = andrews_weights(bandwidth_andrews(u, kernel), kernel, n)
    elif bandwidth == "newey-west":
        bw = bandwidth_newey_west(u_raw, u, kernel, prewhite)
        if kernel == "bartlett":
            w = newey_west_weights(bw, n)
        else:
            w = andrews_weights(bw, kernel, n)
    else:
        w = andrews_weights(float(bandwidth), kernel, n)

    utu = weighted_autocovariance_sum(u, w)
    if adjust:
        utu = t_obs / (t_obs - k) * utu
    if d is not None:
        utu = d @ utu @ d.T
        utu = 0.5 * (utu + utu.T)  # exactly symmetric (R's is so up to rounding)
    out = utu / t_obs**2
    top = float(np.max(np.abs(out)))
    if top > 0.0 and not -1021 < math.frexp(top)[1] - 2 * e < 1024:
        raise HACError(
            "the long-run covariance of x lies beyond the float64 range (its "
            f"largest entry is about 1e{math.log10(top) - 2 * e * math.log10(2.0):.0f}): "
            "divide x by a constant c first (the covariance scales by c**2)."
        )
    return np.ldexp(out, -2 * e)
