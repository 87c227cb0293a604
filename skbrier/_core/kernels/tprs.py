r"""A penalised logistic regression on a thin plate regression spline, as
``mgcv::gam(y ~ s(x), family = binomial, method = "GCV.Cp")`` fits it (the
``smooth = "gam"`` curve of pmcalibration).

The basis (Wood 2003) of a one-dimensional thin plate spline of order
:math:`m = 2`: with the distinct values :math:`u_1, \dots, u_K` of ``x`` as
knots (a sample of 2,000 of them, drawn as mgcv draws it, when there are
more), :math:`E_{ij} = \eta(|u_i - u_j|)` with :math:`\eta(r) = r^3 / 12`
and :math:`T = [1, u]`.  The ``k`` eigenvectors :math:`U_k` of :math:`E` with
the largest eigenvalues in magnitude (:math:`D_k`) span the truncated basis;
the constraint :math:`T' U_k \delta = 0` leaves :math:`\delta = Z \gamma`, and

.. math::

    f(x) = \alpha_0 + \alpha_1 x + g(x)' U_k Z \gamma, \qquad
    g(x)_j = \eta(|x - u_j|),

with the penalty :math:`\lambda \gamma' Z' D_k Z \gamma`.  For a fixed
:math:`\lambda` the coefficients maximise the penalised log-likelihood
(Newton's method: :math:`(X'WX + \lambda S)\,\Delta = X'(y - \mu) - \lambda S
\beta`); :math:`\lambda` minimises the UBRE score of the fit,

.. math::

    \mathcal{V}_u(\lambda) = D(\hat\beta_\lambda) / n + 2 \tau_\lambda / n - 1,
    \qquad \tau_\lambda = \operatorname{tr}\{(X'WX + \lambda S)^{-1} X'WX\},

mgcv's ``"GCV.Cp"`` criterion for a known scale (Wood 2017, sec. 6.2).  The
covariance of the coefficients is the Bayesian one, :math:`(X'WX + \lambda
S)^{-1}` (mgcv's ``Vp``), which ``predict(se.fit = TRUE)`` uses.

With frequency weights :math:`w`, :math:`D`, :math:`X'WX` and :math:`n =
\sum w` are those of the repeated rows (mgcv's ``weights`` are prior weights
and leave :math:`n` the number of rows).

References
----------
Wood, S. N. (2003). Thin plate regression splines. *Journal of the Royal
Statistical Society B*, 65(1), 95-114.

Wood, S. N. (2017). *Generalized Additive Models: An Introduction with R*,
2nd ed. Chapman and Hall/CRC.
"""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np
from scipy import linalg, optimize, special
from scipy.sparse import linalg as sparse_linalg

from .logistic import RATE_FLIP

__all__ = ["GamCurve", "gam_logistic_curve", "r_sample", "tprs_knots"]

#: mgcv's ``max.knots``: beyond this many distinct values the knots are a sample
MAX_KNOTS = 2000

_R_UNIF = 2.3283064365386963e-10  # 1 / 2**32, R's MT_genrand scale


def _r_mersenne_twister(seed: int) -> np.random.MT19937:
    """The Mersenne Twister in the state R's ``set.seed(seed)`` leaves it."""
    s = seed & 0xFFFFFFFF
    for _ in range(50):  # R's initial scrambling
        s = (69069 * s + 1) & 0xFFFFFFFF
    key = np.empty(625, dtype=np.uint32)
    for j in range(625):
        s = (69069 * s + 1) & 0xFFFFFFFF
        key[j] = s
    bg = np.random.MT19937()
    # key[0] is R's ``mti`` slot, reset to 624 (regenerate on the first draw)
    bg.state = {"bit_generator": "MT19937", "state": {"key": key[1:], "pos": 624}}
    return bg


def r_sample(n: int, size: int, seed: int = 1) -> np.ndarray:
    """R's ``set.seed(seed); sample(n, size)`` (R >= 3.6: Mersenne Twister,
    rejection sampling), as 0-based indices.

    Examples
    --------
    >>> r_sample(10, 3).tolist()  # R: set.seed(1); sample(10, 3) - 1
    [8, 3, 6]
    """
    bg = _r_mersenne_twister(seed)

    def unif() -> float:
        return float(bg.random_raw()) * _R_UNIF

    pool = list(range(n))
    out = np.empty(size, dtype=np.intp)
    m = n
    for i in range(size):
        bits = math.ceil(math.log2(m)) if m > 1 else 0
        while True:  # R_unif_index: rejection sampling on ``bits`` random bits
            v = 0
            for _ in range(0, bits + 1, 16):
                v = 65536 * v + int(math.floor(unif() * 65536))
            dv = v & ((1 << bits) - 1)
            if dv < m:
                break
        out[i] = pool[dv]
        m -= 1
        pool[dv] = pool[m]
    return out


def tprs_knots(x: np.ndarray, w: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """The knots of mgcv's basis on the centred ``x`` and the centre.

    The distinct values of ``x - mean(x)``; beyond :data:`MAX_KNOTS` of them,
    the sample ``xu[sample(nu, 2000)]`` of the sorted distinct values that
    mgcv draws with ``set.seed(1)``.  ``w`` (frequency weights) only enters
    the mean.
    """
    shift = float(np.mean(x) if w is None else np.dot(w, x) / w.sum())
    xu = np.unique(x - shift)
    if xu.shape[0] > MAX_KNOTS:
        xu = xu[r_sample(xu.shape[0], MAX_KNOTS)]
    return xu, shift


def _eta(r: np.ndarray) -> np.ndarray:
    """The radial function of a one-dimensional spline of order 2."""
    return r * r * r / 12.0


class _Basis(NamedTuple):
    knots: np.ndarray  # centred knots u
    shift: float
    uz: np.ndarray  # U_k Z: knots x (k - 2)
    penalty: np.ndarray  # Z' D_k Z


def _basis(x: np.ndarray, w: np.ndarray | None, k: int) -> _Basis:
    u, shift = tprs_knots(x, w)
    nu = u.shape[0]
    if nu < k:
        raise ValueError(
            f"y_proba has {nu} distinct values: the gam smoother needs at least "
            f"k={k} (mgcv: 'fewer unique covariate combinations than specified "
            "maximum degrees of freedom'); use fewer basis functions (k) or another smoother."
        )
    E = _eta(np.abs(u[:, None] - u[None, :]))
    if nu == k:
        vecs, pen_full = np.eye(k), E  # a pure knot basis: no eigen step
    else:
        if nu <= 4 * k + 40:
            vals, vecs = linalg.eigh(E)
        else:  # Lanczos, as mgcv: only the k of largest magnitude
            vals, vecs = sparse_linalg.eigsh(E, k=k, which="LM", tol=0.0, v0=np.ones(nu))
        top = np.argsort(-np.abs(vals), kind="stable")[:k]
        vals, vecs = vals[top], vecs[:, top]
        pen_full = np.diag(vals)
    T = np.column_stack([np.ones(nu), u])
    # Z: the null space of (T' U_k), so that T' U_k Z gamma = 0
    q, _ = np.linalg.qr((T.T @ vecs).T, mode="complete")
    Z = q[:, 2:]
    uz = vecs @ Z
    penalty = Z.T @ pen_full @ Z
    penalty = (penalty + penalty.T) / 2.0
    return _Basis(u, shift, uz, penalty)


def _design(b: _Basis, x: np.ndarray) -> np.ndarray:
    """``[x - shift, g(x)' U_k Z]`` (without the intercept).

    ``sum_j eta(|x - u_j|) c_j`` for each column ``c`` of ``U_k Z``, in
    O(n log K): with the knots sorted, the knots below ``x`` give
    ``x^3 S_0 - 3 x^2 S_1 + 3 x S_2 - S_3`` with the prefix sums
    ``S_k = sum_{u_j <= x} c_j u_j^k``, those above the same with the
    remaining sums and the opposite sign (equal to the direct n x K
    product to about 1e-13 relative).
    """
    xc = x - b.shift
    o = np.argsort(b.knots, kind="stable")
    u, c = b.knots[o], b.uz[o]
    powers = np.stack([np.ones_like(u), u, u * u, u * u * u])  # 4 x K
    pre = np.zeros((4, u.shape[0] + 1, c.shape[1]))
    pre[:, 1:, :] = np.cumsum(powers[:, :, None] * c[None, :, :], axis=1)
    tot = pre[:, -1, :]
    cols = np.empty((x.shape[0], c.shape[1] + 1))
    cols[:, 0] = xc
    step = 1 << 17
    for lo in range(0, x.shape[0], step):  # blocks: 4 x rows x columns sums
        xs = xc[lo : lo + step]
        below = pre[:, np.searchsorted(u, xs, side="right"), :]
        above = tot[:, None, :] - below
        x1 = xs[:, None]
        x2 = x1 * x1
        diff = below - above  # (x - u)^3 below the point, (u - x)^3 above
        val = x2 * x1 * diff[0] - 3.0 * x2 * diff[1] + 3.0 * x1 * diff[2] - diff[3]
        cols[lo : lo + step, 1:] = val / 12.0
    return cols


class GamCurve(NamedTuple):
    """The fitted curve: ``eta``/``se_eta`` (linear predictor and its
    standard error from the Bayesian covariance) at the evaluation points,
    ``fitted`` the probability at each row, ``edf`` the effective degrees of
    freedom, ``log_sp`` the log smoothing parameter (on this module's scaling
    of the penalty), ``ubre`` the UBRE score, ``converged`` the status;
    ``coef`` and ``cov`` the coefficients and their Bayesian covariance
    (mgcv's ``Vp``, ``vcov.gam``), ``design`` and ``design_eval`` the design
    matrices (mgcv's ``lpmatrix``) at the rows and at the evaluation points
    (empty when the fit did not converge)."""

    eta: np.ndarray
    se_eta: np.ndarray
    fitted: np.ndarray
    edf: float
    log_sp: float
    ubre: float
    converged: bool
    coef: np.ndarray
    cov: np.ndarray
    design: np.ndarray
    design_eval: np.ndarray


def _failed(n: int, n_eval: int) -> GamCurve:
    """The curve of a fit without a maximum: NaN everywhere."""
    nan_e, none = np.full(n_eval, np.nan), np.empty((0, 0))
    return GamCurve(
        nan_e,
        nan_e,
        np.full(n, np.nan),
        math.nan,
        math.nan,
        math.nan,
        False,
        np.empty(0),
        none,
        none,
        none,
    )


class _PirlsFit(NamedTuple):
    beta: np.ndarray
    deviance: float
    info: np.ndarray  # X'WX
    converged: bool


def _deviance(y: np.ndarray, eta: np.ndarray, w: np.ndarray | None) -> float:
    # -2 log-likelihood of 0/1 outcomes (the saturated model's is 0)
    ll = y * eta - np.logaddexp(0.0, eta)
    return float(-2.0 * (ll.sum() if w is None else np.dot(w, ll)))


def _solve(H: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``H^{-1} b`` of a positive-definite ``H``; scipy's warning of an
    ill-conditioned ``H`` is not passed on (frequency weights of 1e150 make
    the penalty negligible: the Newton steps and the score still hold)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", linalg.LinAlgWarning)
        return linalg.solve(H, b, assume_a="pos")


def _pirls(
    y: np.ndarray,
    X: np.ndarray,
    w: np.ndarray | None,
    S: np.ndarray,
    beta: np.ndarray,
) -> _PirlsFit:
    """Maximise the penalised log-likelihood ``-D/2 - beta' S beta / 2`` by
    Newton's method with step halving."""
    eta = X @ beta
    obj = _deviance(y, eta, w) + beta @ S @ beta
    for _ in range(200):
        mu = special.expit(eta)
        v = mu * (1.0 - mu)
        r = y - mu
        if w is not None:
            v, r = v * w, r * w
        info = (X * v[:, None]).T @ X
        grad = X.T @ r - S @ beta
        H = info + S
        try:
            step = _solve(H, grad)
        except (linalg.LinAlgError, ValueError):
            step = np.linalg.lstsq(H, grad, rcond=None)[0]
        if float(grad @ step) <= 1e-14 * (1.0 + abs(obj)):
            # the Newton decrement: one full step from the maximum
            beta = beta + step
            eta = X @ beta
            mu = special.expit(eta)
            v = mu * (1.0 - mu) * (1.0 if w is None else w)
            info = (X * v[:, None]).T @ X
            return _PirlsFit(beta, _deviance(y, eta, w), info, True)
        t = 1.0
        while True:
            cand = beta + t * step
            eta_c = X @ cand
            obj_c = _deviance(y, eta_c, w) + cand @ S @ cand
            if obj_c <= obj + 1e-12 * abs(obj) or t < 1e-10:
                break
            t /= 2.0
        beta, eta, obj = cand, eta_c, obj_c
    return _PirlsFit(beta, _deviance(y, eta, w), info, False)


def _linearly_separated(y: np.ndarray, x: np.ndarray, w: np.ndarray | None) -> bool:
    """Whether a threshold on ``x`` separates the outcomes (quasi-completely):
    then the logistic fit on ``[1, x]`` has no finite maximum."""
    if w is not None:
        keep = w > 0
        y, x = y[keep], x[keep]
    x0, x1 = x[y == 0], x[y == 1]
    return bool(x0.max() <= x1.min() or x1.max() <= x0.min())


def gam_logistic_curve(
    y: np.ndarray,
    x: np.ndarray,
    w: np.ndarray | None,
    x_eval: np.ndarray,
    *,
    k: int = 10,
) -> GamCurve:
    """The logistic thin plate regression spline of ``y`` on ``x`` with
    ``k`` basis functions and its UBRE-chosen smoothing parameter (mgcv's
    ``gam(y ~ s(x, k = k), family = binomial, method = "GCV.Cp")``),
    evaluated at ``x_eval``.  ``w``: frequency weights (None or positive).

    Not converged (NaN curve) when a threshold on ``x`` separates the
    outcomes: the unpenalised straight line then has no finite maximum
    (mgcv reports fitted probabilities of 0 and 1 instead).

    The rows are fitted sorted by ``(x, y)``: the smoothing parameter is the
    minimum of a score that can be flat, so sums in another order of the
    rows could move it (and the curve, by up to 2e-4); the per-row outputs
    (``fitted``, ``design``) are in the order given."""
    order = np.lexsort((y, x))
    if np.any(order[1:] < order[:-1]):
        cur = gam_logistic_curve(
            y[order], x[order], None if w is None else w[order], x_eval, k=k
        )
        back = np.empty_like(order)
        back[order] = np.arange(order.shape[0])
        design = cur.design[back] if cur.design.shape[0] == order.shape[0] else cur.design
        return cur._replace(fitted=cur.fitted[back], design=design)
    b = _basis(x, w, k)  # first: too few distinct values is a ValueError
    ww = np.ones(x.shape[0]) if w is None else w
    s1, s0 = float(np.dot(ww, y)), float(np.dot(ww, 1.0 - y))
    if s1 > RATE_FLIP * (s0 + s1) and s0 > 0.0:
        # the non-events weigh below 2**-26 of the total (weights of 1e-17
        # beside 1): mu * (1 - mu) rounds to 0 at the events, so the fit is
        # that of the non-events (logistic.flip_classes): the same curve, its
        # coefficients and linear predictor negated
        cur = gam_logistic_curve(1.0 - y, x, w, x_eval, k=k)
        if not cur.converged:
            return cur
        return cur._replace(
            eta=-cur.eta, fitted=special.expit(-(cur.design @ cur.coef)), coef=-cur.coef
        )
    if _linearly_separated(y, x, w):
        # no finite maximum for any smoothing parameter: the unpenalised
        # straight line of the basis separates the outcomes
        return _failed(x.shape[0], x_eval.shape[0])
    B = _design(b, x)
    # mgcv: rms 1 per column; those of the repeated rows, so that integer
    # weights give the same coefficients (and the same draws of them)
    n = float(x.shape[0] if w is None else w.sum())
    scale = np.sqrt((ww @ B**2) / n)
    scale[~(scale > 0.0)] = 1.0
    X = np.column_stack([np.ones(x.shape[0]), B / scale])
    S0 = np.zeros((k, k))
    S0[2:, 2:] = b.penalty / np.outer(scale[1:], scale[1:])
    xtx = float(np.linalg.norm(X * np.sqrt(ww)[:, None], 2) ** 2)
    S0 /= np.linalg.norm(S0, 2) / max(1.0, xtx / n)
    # the logit of the base rate from both classes' totals: 1 - ybar rounded
    # to 0 when the non-events weigh below 1e-16 of the total (math domain error)
    start = np.zeros(k)
    if s1 > 0.0 and s0 > 0.0:
        start[0] = math.log(s1) - math.log(s0)
    cache: dict[float, _PirlsFit] = {}
    warm = [start]

    def fit(rho: float) -> _PirlsFit:
        if rho not in cache:
            res = _pirls(y, X, w, math.exp(rho) * S0, warm[0])
            if res.converged:
                warm[0] = res.beta
            cache[rho] = res
        return cache[rho]

    def score(rho: float) -> float:
        f = fit(rho)
        if not f.converged:
            return math.inf
        H = f.info + math.exp(rho) * S0
        try:
            tau = float(np.trace(_solve(H, f.info)))
        except (linalg.LinAlgError, ValueError):
            return math.inf
        return f.deviance / n + 2.0 * tau / n - 1.0

    grid = np.linspace(-24.0, 24.0, 25)
    scores = np.array([score(float(r)) for r in grid])
    if not np.any(np.isfinite(scores)):
        return _failed(x.shape[0], x_eval.shape[0])
    i = int(np.argmin(scores))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.shape[0] - 1)]
    if lo < hi:
        with np.errstate(invalid="ignore"):  # inf scores (no fit) beside the best
            opt = optimize.minimize_scalar(
                score,
                bounds=(lo, hi),
                method="bounded",
                options={"xatol": 1e-9, "maxiter": 200},
            )
        rho = float(opt.x) if opt.fun <= scores[i] else float(grid[i])
    else:
        rho = float(grid[i])
    f = fit(rho)
    H = f.info + math.exp(rho) * S0
    with warnings.catch_warnings():  # as _solve's
        warnings.simplefilter("ignore", linalg.LinAlgWarning)
        Vb = linalg.inv(H)
    Vb = (Vb + Vb.T) / 2.0
    edf = float(np.trace(Vb @ f.info))
    Xe = np.column_stack([np.ones(x_eval.shape[0]), _design(b, x_eval) / scale])
    eta = Xe @ f.beta
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", Xe, Vb, Xe), 0.0))
    return GamCurve(
        eta,
        se,
        special.expit(X @ f.beta),
        edf,
        rho,
        score(rho),
        f.converged,
        f.beta,
        Vb,
        X,
        Xe,
    )
