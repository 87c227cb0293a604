"""The sums over rows of the logistic model: the kernels of every logistic fit.

:func:`logistic_sums` is one pass over a chunk of rows of ``eta = b0 + b1
(lg - c)`` (log-likelihood, the gradient in two parts, its rounding scale,
the information) with one exponential per row, :func:`sigmoid_pair` and
:func:`log_likelihood` the stable logistic function and log-likelihood,
:func:`normalise_weights` the weights scaled to (0, 1].  The solvers that
use them are in :mod:`skbrier._core.kernels.logistic` (the calibration
fits), :mod:`skbrier._core.kernels.splines` and
:mod:`skbrier._core.kernels.logistic_refit`.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "gradient",
    "log_likelihood",
    "logistic_sums",
    "normalise_weights",
    "sigmoid_pair",
]

_EPS = float(np.finfo(np.float64).eps)
#: R's glm.fit threshold for "fitted probabilities numerically 0 or 1"
_NUMERICALLY_01 = 10.0 * _EPS


def normalise_weights(w: np.ndarray | None) -> tuple[np.ndarray | None, float]:
    """``(w / max(w), max(w))`` (``(None, 1.0)`` without weights).

    Every weighted sum is computed with weights in (0, 1] so that frequency
    weights of any finite scale neither overflow nor underflow.
    """
    if w is None:
        return None, 1.0
    scale = float(w.max())
    return w / scale, scale


def log_likelihood(y: np.ndarray, eta: np.ndarray, w: np.ndarray | None) -> float:
    """Bernoulli log-likelihood ``sum w (y eta - log(1 + exp(eta)))`` (stable)."""
    ll = y * eta - np.logaddexp(0.0, eta)
    if w is None:
        return float(ll.sum())
    return float(np.sum(w * ll))


def sigmoid_pair(eta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(mu, 1 - mu)`` of the logistic function, both to full relative accuracy.

    One exponential: with ``e = exp(-|eta|)``, the smaller of ``mu`` and
    ``1 - mu`` is ``e / (1 + e)`` and the larger ``1 / (1 + e)``.

    Examples
    --------
    >>> import numpy as np
    >>> mu, rest = sigmoid_pair(np.array([0.0, -800.0]))
    >>> mu.tolist(), rest.tolist()
    ([0.5, 0.0], [0.5, 1.0])
    """
    e = np.exp(-np.abs(eta))
    big = 1.0 / (1.0 + e)
    small = e * big
    pos = eta >= 0.0
    return np.where(pos, big, small), np.where(pos, small, big)


def _residual_and_variance(y: np.ndarray, eta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``y - mu`` and ``mu (1 - mu)`` without cancellation for ``mu`` near 0 or 1."""
    mu, one_minus_mu = sigmoid_pair(eta)
    return y * one_minus_mu - (1.0 - y) * mu, mu * one_minus_mu


#: rows per block of :func:`logistic_sums` (its buffers stay in cache)
_BLOCK = 1 << 13
#: up to this many rows (a group's, a centre's) in one block: a fifth faster
_ONE_BLOCK = 1 << 15


def logistic_sums(
    y: np.ndarray,
    lg: np.ndarray,
    w: np.ndarray | None,
    b0: float,
    b1: float,
    c: float = 0.0,
    *,
    ll: bool = True,
    slope: bool = True,
    flag: bool = False,
) -> np.ndarray:
    """Sums over the rows of the logistic model ``eta = b0 + b1 (lg - c)``.

    Returns ``[loglik, d0, d1, |g|0, |g|1, i00, i01, i11, flag, t0, t1]``:
    the log-likelihood ``sum w (y eta - log(1 + exp(eta)))``, the gradient
    ``sum w r (1, x)`` with ``r = y - mu`` and ``x = lg - c`` in two parts
    (see :func:`gradient`), ``d = sum w (y - [eta >= 0]) (1, x)`` and
    ``t = sum w sign(eta) min(mu, 1 - mu) (1, x)``, the sums
    ``sum w |r| (1, |x|)`` (the rounding scale of the gradient), the
    information ``sum w mu (1 - mu) (1, x, x^2)`` and ``1.0`` when some
    ``|eta|`` is beyond R's "numerically 0 or 1" where ``|lg|`` is not.
    ``y`` is 0/1.  The two parts of the gradient are kept apart (also across
    chunks) because with log-odds of a few hundred ``r`` is ``1 - 1e-40``
    on one row and ``-1 + 1e-38`` on another: added row by row the terms
    that decide the fit round away and the score is pure rounding error.  One pass in cache-sized blocks with one exponential per
    row (``e = exp(-|eta|)``: ``mu`` or ``1 - mu`` is ``e / (1 + e)``, the
    other ``1 / (1 + e)``, ``log(1 + exp(eta)) = max(eta, 0) + log1p(e)``),
    so ``r`` and ``mu (1 - mu)`` keep full relative accuracy and no (n, k)
    temporary is formed.  ``ll=False`` leaves out the log-likelihood,
    ``slope=False`` the ``x`` terms (entries 0), ``flag=True`` computes the
    flag (else 0).
    """
    n = y.shape[0]
    out = np.zeros(11)
    block = max(n, 1) if n <= _ONE_BLOCK else _BLOCK
    m = min(n, block)
    eta, ae, e, big, small, r, t, t2 = (np.empty(m) for _ in range(8))
    pos = np.empty(m, dtype=bool)
    cut = -math.log(_NUMERICALLY_01)
    for s in range(0, n, block):
        k = min(n - s, block)
        if k != m:
            m = k
            eta, ae, e, big, small, r, t, t2 = (
                a[:k] for a in (eta, ae, e, big, small, r, t, t2)
            )
            pos = pos[:k]
        yb, lb = y[s : s + k], lg[s : s + k]
        wb = None if w is None else w[s : s + k]
        x = lb if c == 0.0 else np.subtract(lb, c, out=t)
        np.multiply(x, b1, out=eta)
        np.add(eta, b0, out=eta)
        np.abs(eta, out=ae)
        np.negative(ae, out=e)
        np.exp(e, out=e)
        np.add(e, 1.0, out=big)
        np.divide(1.0, big, out=big)
        np.multiply(e, big, out=small)
        # with d = y - [eta >= 0] in {-1, 0, 1}: r = d + sign(eta) small
        # (small exactly when y agrees with the sign of eta, else 1 - small:
        # no cancellation; eta = -0.0 counts as negative, small = 1/2 there)
        np.signbit(eta, out=pos)
        np.add(yb, pos, out=r)
        np.subtract(r, 1.0, out=r)
        np.copysign(small, eta, out=t2)
        if flag and out[8] == 0.0 and np.any(ae > cut):
            out[8] = float(np.any((ae > cut) & ~(np.abs(lb) > cut)))
        if ll:
            # y eta - max(eta, 0) - log1p(e)
            np.log1p(e, out=e)
            np.maximum(eta, 0.0, out=ae)
            np.add(ae, e, out=ae)
            np.multiply(yb, eta, out=eta)
            np.subtract(eta, ae, out=eta)
            out[0] += float(eta.sum() if wb is None else np.dot(wb, eta))
        np.multiply(small, big, out=small)  # mu (1 - mu)
        if wb is not None:
            np.multiply(r, wb, out=r)
            np.multiply(t2, wb, out=t2)
            np.multiply(small, wb, out=small)
        out[1] += float(r.sum())
        out[9] += float(t2.sum())
        out[5] += float(small.sum())
        if slope:
            out[2] += float(np.dot(r, x))
            out[10] += float(np.dot(t2, x))
            np.multiply(small, x, out=big)
            out[6] += float(big.sum())
            out[7] += float(np.dot(big, x))
        np.add(r, t2, out=r)
        np.abs(r, out=r)
        out[3] += float(r.sum())
        if slope:
            np.abs(x, out=e)
            out[4] += float(np.dot(r, e))
    return out


def gradient(t: np.ndarray) -> np.ndarray:
    """The gradient ``sum w r (1, x)`` from the (merged) sums of
    :func:`logistic_sums`: ``d + t`` added once, after all rows."""
    return t[1:3] + t[9:11]


def _matvec(X: np.ndarray, beta: np.ndarray) -> np.ndarray:
    # explicit columns: BLAS dot/gemv threads badly on small, busy machines
    out = X[:, 0] * beta[0]
    for j in range(1, X.shape[1]):
        out += X[:, j] * beta[j]
    return out


def _information(X: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``X' diag(v) X``."""
    return np.einsum("ij,ik,i->jk", X, X, v)


def _newton_direction(info: np.ndarray, grad: np.ndarray) -> np.ndarray | None:
    """``info^{-1} grad`` (least squares when singular); None when not finite."""
    try:
        step = np.linalg.solve(info, grad)
    except np.linalg.LinAlgError:
        step = np.linalg.lstsq(info, grad, rcond=None)[0]
    return step if np.all(np.isfinite(step)) else None
