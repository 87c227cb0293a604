r"""A logistic mixed model with one grouping factor, fitted by the Laplace
approximation as ``lme4::glmer(..., nAGQ = 1)``.

The model: :math:`\mathrm{logit}\,P(y_i = 1) = x_i^\top\beta + z_i^\top b_{j(i)}`,
:math:`b_j = \Lambda_\theta u_j`, :math:`u_j \sim N(0, I_q)`, with
:math:`\Lambda_\theta` lower triangular (``theta``: its entries column by
column, lme4's order).  For given :math:`(\theta, \beta)` penalised IRLS
finds the conditional modes :math:`u_j^*` and the Laplace deviance is

.. math::

    -2 \sum_i \log p(y_i \mid u^*) + \sum_j \lVert u_j^* \rVert^2
    + \sum_j \log\det\big(\Lambda^\top Z_j^\top W_j Z_j \Lambda + I\big),

lme4's ``-2 logLik``, minimised over :math:`(\theta, \beta)` jointly, as
glmer's second stage does (here by L-BFGS-B from glmer's start,
:math:`\Lambda = I` and the fixed-effects logistic fit, diagonal of
:math:`\Lambda` non-negative); the covariance of :math:`\hat\beta` is the
:math:`\beta` block of :math:`2 H^{-1}`, :math:`H` the Hessian of the
deviance by lme4's central differences (``deriv12``, step :math:`10^{-4}`),
as ``vcov.merMod`` uses it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import optimize, special

__all__ = ["GLMMFit", "fit_logistic_glmm"]


class GLMMFit(NamedTuple):
    """The Laplace fit: ``theta`` (lme4's order), ``beta``, the conditional
    modes ``b`` (one row per group, :math:`\\Lambda u_j`), the
    random-effects covariance ``varcorr`` (:math:`\\Lambda\\Lambda^\\top`),
    ``deviance`` (``-2 logLik``), ``vcov`` of ``beta`` and ``converged``."""

    theta: np.ndarray
    beta: np.ndarray
    b: np.ndarray
    varcorr: np.ndarray
    deviance: float
    vcov: np.ndarray
    converged: bool


def _lambda(theta: np.ndarray, q: int) -> np.ndarray:
    lam = np.zeros((q, q))
    rows, cols = np.triu_indices(q)
    lam[cols, rows] = theta  # column by column, as lme4's Lambdat
    return lam


class _Laplace:
    """The Laplace deviance of one data set; remembers the last modes as the
    start of the next penalised IRLS."""

    def __init__(
        self, y: np.ndarray, X: np.ndarray, Z: np.ndarray, codes: np.ndarray, k: int
    ):
        self.y, self.X, self.Z, self.codes, self.k = y, X, Z, codes, k
        self.q = Z.shape[1]
        self.u = np.zeros((k, self.q))

    def _sum(self, rows: np.ndarray) -> np.ndarray:
        """The sums of ``rows`` over each group."""
        flat = rows.reshape(rows.shape[0], -1)
        sums = [np.bincount(self.codes, weights=c, minlength=self.k) for c in flat.T]
        return np.stack(sums, axis=1).reshape((self.k,) + rows.shape[1:])

    def __call__(self, params: np.ndarray) -> float:
        return self.evaluate(params)[0]

    def evaluate(self, params: np.ndarray) -> tuple[float, np.ndarray, bool]:
        q = self.q
        ntheta = q * (q + 1) // 2
        lam = _lambda(params[:ntheta], q)
        off = self.X @ params[ntheta:]
        zl = self.Z @ lam
        y, eye = self.y, np.eye(q)
        u = self.u.copy()

        def penalised(u: np.ndarray) -> tuple[float, np.ndarray]:
            eta = off + np.einsum("ij,ij->i", zl, u[self.codes])
            ll = y * eta - np.logaddexp(0.0, eta)
            return float(-2.0 * ll.sum() + np.sum(u * u)), eta

        obj, eta = penalised(u)
        converged = False
        for _ in range(200):
            mu = special.expit(eta)
            grad = self._sum(zl * (y - mu)[:, None]) - u
            w = mu * (1.0 - mu)
            hess = self._sum(w[:, None, None] * zl[:, :, None] * zl[:, None, :]) + eye
            step = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
            t = 1.0
            while True:
                new_obj, new_eta = penalised(u + t * step)
                if new_obj <= obj + 1e-12 * abs(obj) or t < 1e-10:
                    break
                t /= 2.0
            u, obj, eta = u + t * step, new_obj, new_eta
            if np.max(np.abs(t * step)) < 1e-11:
                converged = True
                break
        mu = special.expit(eta)
        w = mu * (1.0 - mu)
        hess = self._sum(w[:, None, None] * zl[:, :, None] * zl[:, None, :]) + eye
        logdet = float(np.sum(np.linalg.slogdet(hess)[1]))
        if converged:
            self.u = u
        return obj + logdet, u @ lam.T, converged


def _deriv12_hessian(
    fun: _Laplace, x: np.ndarray, fx: float, delta: float = 1e-4
) -> np.ndarray:
    """lme4's ``deriv12`` Hessian: central second differences, step ``delta``."""
    n = x.shape[0]
    H = np.empty((n, n))

    def at(**moves: float) -> float:
        z = x.copy()
        for key, d in moves.items():
            z[int(key[1:])] += d
        return fun(z)

    for j in range(n):
        fadd, fsub = at(**{f"i{j}": delta}), at(**{f"i{j}": -delta})
        H[j, j] = (fadd - 2.0 * fx + fsub) / delta**2
        for i in range(j):
            H[i, j] = H[j, i] = (
                at(**{f"i{i}": delta, f"i{j}": delta})
                - at(**{f"i{i}": delta, f"i{j}": -delta})
                - at(**{f"i{i}": -delta, f"i{j}": delta})
                + at(**{f"i{i}": -delta, f"i{j}": -delta})
            ) / (4.0 * delta**2)
    return H


def fit_logistic_glmm(
    y: np.ndarray, X: np.ndarray, Z: np.ndarray, codes: np.ndarray, k: int
) -> GLMMFit:
    """Fit ``y ~ X + (Z | group)`` (``codes``: the group of each row, 0 to
    ``k - 1``) by the Laplace approximation; see the module docstring."""
    q = Z.shape[1]
    ntheta = q * (q + 1) // 2
    dev = _Laplace(y, X, Z, codes, k)
    # start: glmer's (theta the identity) with beta of the logistic fit
    beta0 = optimize.minimize(
        lambda b: float(np.sum(np.logaddexp(0.0, X @ b) - y * (X @ b))),
        np.zeros(X.shape[1]),
        method="BFGS",
    ).x
    theta0 = _lambda_identity(q)
    diag = np.cumsum(np.r_[0, np.arange(q, 1, -1)])  # positions of the diagonal
    bounds = [(0.0, None) if i in diag else (None, None) for i in range(ntheta)]
    bounds += [(None, None)] * X.shape[1]
    x0 = np.r_[theta0, beta0]
    res = optimize.minimize(
        dev,
        x0,
        method="L-BFGS-B",
        bounds=bounds,
        options={"ftol": 1e-15, "gtol": 1e-9, "maxiter": 5000},
    )
    x = res.x
    fx, b, converged = dev.evaluate(x)
    H = _deriv12_hessian(dev, x, fx)
    try:
        vcov = np.linalg.inv(H / 2.0)[ntheta:, ntheta:]
    except np.linalg.LinAlgError:  # pragma: no cover - a flat likelihood
        vcov = np.full((X.shape[1], X.shape[1]), np.nan)
    lam = _lambda(x[:ntheta], q)
    return GLMMFit(
        theta=x[:ntheta],
        beta=x[ntheta:],
        b=b,
        varcorr=lam @ lam.T,
        deviance=fx,
        vcov=vcov,
        converged=bool(converged and res.success),
    )


def _lambda_identity(q: int) -> np.ndarray:
    rows, cols = np.triu_indices(q)
    return (rows == cols).astype(float)
