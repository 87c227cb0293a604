r"""CalibrationCurves' clustered grouped calibration (CGC): in each centre the
forecasts are cut into ``n_bins`` groups of equal size (``dplyr::ntile``);
for each group :math:`g`, the logits of the centres' mean forecast and
observed proportion, :math:`(\mathrm{logit}\,\bar p_{jg}, \mathrm{logit}\,\bar
y_{jg})` with variances :math:`1/x + 1/(n - x)` (``metafor::escalc(measure =
"PLO")``, 1/2 added to both cells of a centre with a zero cell), are pooled
by the bivariate random-effects model

.. math::

    \begin{pmatrix}\mathrm{logit}\,\bar p_{jg}\\ \mathrm{logit}\,\bar y_{jg}\end{pmatrix}
    \sim N\Big(\mu_g, \mathrm{diag}(v^p_{jg}, v^y_{jg}) + T_g\Big),

:math:`T_g` unstructured, fitted by REML (``rma.mv(struct = "UN")``).  The
pooled point :math:`\mathrm{expit}\,\hat\mu_g` has normal confidence
intervals and :math:`t_{k-2}` prediction intervals
:math:`\hat\mu \pm t\sqrt{\hat\tau^2 + \mathrm{SE}^2}` in each coordinate.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, special, stats

__all__ = ["grouped_calibration", "ntile"]


def ntile(x: np.ndarray, n: int) -> np.ndarray:
    """``dplyr::ntile(x, n)``: groups 1 to ``n`` of the ranks (ties by
    position), the first ``len(x) % n`` groups one larger."""
    m = x.shape[0]
    rank = np.empty(m, dtype=np.int64)
    rank[np.argsort(x, kind="stable")] = np.arange(1, m + 1)
    n_larger = m % n
    larger, smaller = -(-m // n), m // n
    threshold = larger * n_larger
    small = (rank - threshold + smaller - 1) // max(smaller, 1) + n_larger
    return np.where(rank <= threshold, (rank + larger - 1) // larger, small)


def _plo(x: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``escalc(measure = "PLO", xi = x, ni = n)`` with its 1/2 correction."""
    zero = (x == 0) | (x == n)
    x = np.where(zero, x + 0.5, x)
    n = np.where(zero, n + 1.0, n)
    return np.log(x / (n - x)), 1.0 / x + 1.0 / (n - x)


def _bivariate_reml(
    Y: np.ndarray, S: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """REML fit of ``Y[j] ~ N(mu, diag(S[j]) + T)``: ``(mu, cov(mu), T)``.
    ``T = L L'`` with ``L`` lower triangular, so the boundary (a correlation
    of +-1, a variance of 0) is inside the parameter space."""
    D = np.stack([np.diag(s) for s in S])

    def parts(th: np.ndarray) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
        L = np.array([[th[0], 0.0], [th[1], th[2]]])
        T = L @ L.T
        Vi = np.linalg.inv(D + T)
        Ai = np.linalg.inv(Vi.sum(axis=0))
        mu = Ai @ np.einsum("kij,kj->i", Vi, Y)
        r = Y - mu
        nll = 0.5 * (
            -np.linalg.slogdet(Vi)[1].sum()
            - np.linalg.slogdet(Ai)[1]
            + np.einsum("ki,kij,kj->", r, Vi, r)
        )
        return float(nll), mu, Ai, T

    best = None
    for start in ([0.3, 0.0, 0.3], [0.3, 0.3, 0.1], [0.3, -0.3, 0.1]):
        res = optimize.minimize(
            lambda t: parts(t)[0],
            np.asarray(start),
            method="Nelder-Mead",
            options={"xatol": 1e-10, "fatol": 1e-13, "maxiter": 20000, "maxfev": 20000},
        )
        if best is None or res.fun < best.fun:
            best = res
    assert best is not None
    _, mu, cov, T = parts(best.x)
    return mu, cov, T


def grouped_calibration(
    y: np.ndarray, p: np.ndarray, codes: np.ndarray, k: int, n_bins: int, level: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CGC on the rows of ``k`` centres (``codes``).  Returns the rows
    ``(x, y, y_lower, y_upper, y_prediction_lower, y_prediction_upper,
    tau2_y)`` and ``(x_lower, x_upper, x_prediction_lower,
    x_prediction_upper)`` over the groups pooled (probability scale, tau2 on
    the logit scale), and each centre's observed proportion in those groups
    (NaN where it has no rows)."""
    group = np.zeros(codes.shape[0], dtype=np.int64)
    for j in range(k):
        rows = codes == j
        group[rows] = ntile(p[rows], n_bins) - 1
    cell = codes * n_bins + group
    n = np.bincount(cell, minlength=k * n_bins).reshape(k, n_bins).astype(float)
    sp = np.bincount(cell, weights=p, minlength=k * n_bins).reshape(k, n_bins)
    sy = np.bincount(cell, weights=y, minlength=k * n_bins).reshape(k, n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        centres = sy / n
    z = float(stats.norm.ppf(0.5 + level / 2.0))
    out, xbands, used = [], [], []
    for g in range(n_bins):
        have = n[:, g] > 0
        m = int(have.sum())
        if m < 2:  # CGC skips a group a single centre holds
            continue
        yp, vp = _plo(sp[have, g], n[have, g])
        yy, vy = _plo(sy[have, g], n[have, g])
        mu, cov, T = _bivariate_reml(np.column_stack([yp, yy]), np.column_stack([vp, vy]))
        se = np.sqrt(np.diag(cov))
        t = float(stats.t.ppf(0.5 + level / 2.0, m - 2)) if m > 2 else np.nan
        half_pi = t * np.sqrt(np.diag(T) + se**2)
        lo, hi = mu - z * se, mu + z * se
        out.append(
            [mu[0], mu[1], lo[1], hi[1], mu[1] - half_pi[1], mu[1] + half_pi[1], T[1, 1]]
        )
        xbands.append([lo[0], hi[0], mu[0] - half_pi[0], mu[0] + half_pi[0]])
        used.append(g)
    rows = np.asarray(out).T
    rows[:6] = special.expit(rows[:6])
    return rows, special.expit(np.asarray(xbands).T), centres[:, used]
