"""Regression splines of the flexible calibration curves (no validation here).

:func:`rcs_knots` are Harrell's default knots (``Hmisc::rcspline.eval``,
Hmisc 4.8-0, with its ``fractied = 0.05`` rule and the move of the outer
knots for fewer than 100 observations); :func:`ns_knots` are the knots of
``splines::ns(x, df)`` (interior knots at the quantiles
``1 / df, ..., (df - 1) / df``, boundary knots at the range).  With
frequency weights every count, quantile and order statistic is that of the
sample with repeated rows (:func:`skbrier._core.binning.weighted_quantile`).

:func:`rcs_basis` is Harrell's truncated-power basis (``rcspline.eval(x,
knots, inclx = TRUE)``, ``norm = 2``).  A natural cubic spline with interior
knots ``k`` and boundary knots ``b`` is a restricted cubic spline with the
knots ``(b0, k, b1)`` (cubic between the knots, linear beyond the outer ones,
twice continuously differentiable), so the basis of ``splines::ns`` and this
one span the same functions once an intercept is added: a logistic fit on
either gives the same curve and the same pointwise standard errors.

:func:`spline_logistic_curve` fits ``logit P(y = 1) = b0 + B(x) b`` with
the safeguarded Newton solver of :mod:`skbrier._core.kernels.logistic` (R's
``glm``) and returns the linear predictor and its Wald standard error at
evaluation points.
"""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np
from scipy import special

from ..binning import weighted_quantile
from .calibration import logistic_scores
from .logistic import logistic_fit
from .logistic_sums import _residual_and_variance, log_likelihood, normalise_weights

__all__ = [
    "SplineCurve",
    "ns_knots",
    "r_seq",
    "rcs_basis",
    "rcs_knots",
    "separated",
    "spline_logistic_curve",
]


def r_seq(start: float, stop: float, num: int) -> np.ndarray:
    """R's ``seq(start, stop, length.out = num)``: ``start + i * by`` with the
    last value ``stop`` exactly."""
    if num == 1:
        return np.array([start])
    by = (stop - start) / (num - 1)
    out = start + np.arange(num, dtype=np.float64) * by
    out[-1] = stop
    return out


def _order_statistic(xs: np.ndarray, cw: np.ndarray, k: float) -> float:
    """The ``k``-th smallest (1-based) value of the sample in which the sorted
    ``xs`` occupy the cumulative weights ``cw`` (repeated rows)."""
    i = int(np.searchsorted(cw, k, side="left"))
    return float(xs[min(i, xs.shape[0] - 1)])


def rcs_knots(x: np.ndarray, w: np.ndarray | None, n_knots: int) -> np.ndarray:
    """Harrell's default knots of ``Hmisc::rcspline.eval(x, nk = n_knots)``.

    Quantiles ``seq(outer, 1 - outer, length = nk)`` of ``x`` (``outer`` 0.05,
    0.1 for 3 knots, 0.025 for more than 6).  When the smallest (largest)
    value holds at least 5 % of the sample and no inner value does, that end
    gets its own knot at the next distinct value and the others are placed
    on the rest.  With fewer than 100 observations the outer knots move to
    the 5th smallest and 5th largest values.  ``w``: frequency weights (the
    knots of the repeated rows).  Raises ValueError where R stops.
    """
    if w is not None:
        keep = w > 0
        x, w = x[keep], w[keep]
    order = np.argsort(x, kind="stable")
    xs = x[order]
    ws = np.ones_like(xs) if w is None else w[order]
    n = float(ws.sum())
    if n < 6:
        raise ValueError(
            f"y_proba has {n:.4g} observations: the default knots of a restricted "
            "cubic spline need at least 6 (pass knots=)."
        )
    xu, start = np.unique(xs, return_index=True)
    wu = np.add.reduceat(ws, start)
    nxu = xu.shape[0]
    if nxu - 2 <= n_knots:
        warnings.warn(
            f"{n_knots} knots requested with {nxu} distinct values of the forecasts: "
            f"the knots are set to the {nxu - 2} interior values.",
            RuntimeWarning,
            stacklevel=4,
        )
        knots = xu[1:-1]
    else:
        outer = 0.05 if n_knots > 3 else 0.1
        if n_knots > 6:
            outer = 0.025
        nke = n_knots
        first: list[float] = []
        last: list[float] = []
        lo_cut, hi_cut = -math.inf, math.inf
        frac = wu / n
        if frac[1:-1].max() < 0.05:
            if frac[0] >= 0.05:
                first = [float(xu[1])]
                lo_cut = first[0]
                nke -= 1
            if frac[-1] >= 0.05:
                last = [float(xu[-2])]
                hi_cut = last[0]
                nke -= 1
        sel = (xu > lo_cut) & (xu < hi_cut)
        xr, wr = xu[sel], wu[sel]
        cr = np.cumsum(wr)
        if nke == 1:
            knots = weighted_quantile(xr, np.array([0.5]), wr)
        else:
            probs = (
                r_seq(0.5, 1.0 - outer, nke) if nke == 2 else r_seq(outer, 1.0 - outer, nke)
            )
            knots = weighted_quantile(xr, probs, wr)
            if np.unique(knots).shape[0] < min(nke, 3):
                knots = weighted_quantile(xr, r_seq(outer, 1.0 - outer, 2 * nke), wr)
                if first and np.unique(knots).shape[0] < 3:
                    mid = (
                        (first[0] + last[0]) / 2.0
                        if last
                        else float(weighted_quantile(xr, np.array([0.5]), wr)[0])
                    )
                    end = (
                        last[0]
                        if last
                        else float(weighted_quantile(xr, np.array([1.0 - outer]), wr)[0])
                    )
                    knots = np.sort(np.array([first[0], mid, end]))
                if np.unique(knots).shape[0] < 3:
                    raise ValueError(
                        "y_proba has too few distinct values for 3 distinct knots of "
                        "a restricted cubic spline; pass knots= or use another smoother."
                    )
                warnings.warn(
                    f"could not obtain {nke} interior knots with the default algorithm; "
                    f"used {np.unique(knots).shape[0]} knots.",
                    RuntimeWarning,
                    stacklevel=4,
                )
            knots = knots.copy()
            if cr[-1] < 100:
                if not first:
                    knots[0] = _order_statistic(xr, cr, 5)
                if not last:
                    knots[nke - 1] = _order_statistic(xr, cr, cr[-1] - 4)
        knots = np.concatenate([first, knots, last])
    knots = np.unique(knots)
    if knots.shape[0] < 3:
        raise ValueError(
            "y_proba has too few distinct values for 3 distinct knots of a restricted "
            "cubic spline; pass knots= or use another smoother."
        )
    return knots


def ns_knots(x: np.ndarray, w: np.ndarray | None, n_interior: int) -> np.ndarray:
    """All knots ``(min, interior..., max)`` of ``splines::ns(x, df = n_interior + 1)``:
    the interior knots at the quantiles ``i / (n_interior + 1)`` (R's type 7;
    with frequency weights those of the repeated rows), ties removed."""
    if w is not None:
        keep = w > 0
        x, w = x[keep], w[keep]
    probs = r_seq(0.0, 1.0, n_interior + 2)[1:-1]
    inner = weighted_quantile(x, probs, w) if n_interior else np.empty(0)
    return np.unique(np.concatenate([[x.min()], inner, [x.max()]]))


def rcs_basis(x: np.ndarray, knots: np.ndarray) -> np.ndarray:
    """``Hmisc::rcspline.eval(x, knots, inclx = TRUE)`` (``norm = 2``): the
    columns ``x`` and ``len(knots) - 2`` restricted cubic terms."""
    k = knots
    nk = k.shape[0]
    kd = (k[-1] - k[0]) ** (2.0 / 3.0)
    out = np.empty((x.shape[0], nk - 1))
    out[:, 0] = x
    tail1 = np.maximum((x - k[-1]) / kd, 0.0) ** 3
    tail2 = np.maximum((x - k[-2]) / kd, 0.0) ** 3
    for j in range(nk - 2):
        out[:, j + 1] = np.maximum((x - k[j]) / kd, 0.0) ** 3 + (
            (k[-2] - k[j]) * tail1 - (k[-1] - k[j]) * tail2
        ) / (k[-1] - k[-2])
    return out


class SplineCurve(NamedTuple):
    """The logistic spline fit at evaluation points ``x_eval``.

    ``eta``/``se_eta``: linear predictor and its Wald standard error (R's
    ``predict(glm, type = "link", se.fit = TRUE)``) at ``x_eval``;
    ``fitted``: the fitted probability of each row; ``converged`` the fit's
    status.  ``coef`` and ``cov``: the coefficients and their covariance
    (the inverse information, R's ``vcov``); ``design`` and
    ``design_eval``: the design matrices (intercept first) at the rows and at
    ``x_eval``, so that ``eta = design_eval @ coef`` and ``fitted =
    expit(design @ coef)`` (pmcalibration's ``ci = "sim"`` draws ``coef``).
    """

    eta: np.ndarray
    se_eta: np.ndarray
    fitted: np.ndarray
    converged: bool
    coef: np.ndarray
    cov: np.ndarray
    design: np.ndarray
    design_eval: np.ndarray


def _standardise(B: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Centre and scale of each column (the fit does not depend on them; they
    keep the information matrix well conditioned)."""
    ww = np.ones(B.shape[0]) if w is None else w
    centre = (ww @ B) / ww.sum()
    scale = np.sqrt((ww @ (B - centre) ** 2) / ww.sum())
    scale[~(scale > 0.0)] = 1.0
    return centre, scale


#: standard error of a coefficient of the standardised basis beyond which a
#: logistic fit has no finite maximum (separation)
_MAX_SE = 1e4

#: above this many rows the Newton iterations start from the fit on every
#: k-th row (the maximum is the same; fewer passes over all rows)
_WARM_START_ROWS = 50_000


def _start(y: np.ndarray, X: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """A starting point of the logistic fit: the base rate, or for many rows
    the fit on a systematic subsample of about ``_WARM_START_ROWS / 2`` rows."""
    ww = np.ones_like(y) if w is None else w
    ybar = float(np.dot(ww, y) / ww.sum())
    beta0 = np.zeros(X.shape[1])
    if 0.0 < ybar < 1.0:
        beta0[0] = math.log(ybar) - math.log1p(-ybar)
    n = y.shape[0]
    if n > _WARM_START_ROWS:
        sub = slice(None, None, n // (_WARM_START_ROWS // 2))
        ys = y[sub]
        if ys.min() < ys.max():
            beta, _, _, ok = logistic_fit(
                ys, X[sub], None, None if w is None else w[sub], beta0
            )
            if ok:
                return beta
    return beta0


#: the separation check runs on every fit up to this many rows
_LP_ALWAYS_ROWS = 400

#: the separation check (a linear programme) runs up to this many distinct
#: (outcome, forecast) rows; beyond, the solver's status and _MAX_SE decide
_LP_MAX_ROWS = 2000


def _distinct_rows(
    y: np.ndarray, B: np.ndarray, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """The distinct ``(y, B)`` rows of positive weight, or None when there are
    more than :data:`_LP_MAX_ROWS` (they do not depend on the weights)."""
    keep = slice(None) if w is None else w > 0
    rows = np.column_stack([y[keep], B[keep]])
    if rows.shape[0] > 4 * _LP_MAX_ROWS:
        rows = np.unique(rows[:: max(1, rows.shape[0] // (4 * _LP_MAX_ROWS))], axis=0)
        if rows.shape[0] > _LP_MAX_ROWS:
            return None
    rows = np.unique(rows, axis=0)
    if rows.shape[0] > _LP_MAX_ROWS:
        return None
    return rows[:, 0], rows[:, 1:]


def separated(y: np.ndarray, B: np.ndarray) -> bool:
    """Whether the logistic regression of ``y`` on ``[1, B]`` has no finite
    maximum (complete or quasi-complete separation; Albert and Anderson 1984).

    The linear programme of Konis (2007; R's ``detectseparation``): maximise
    ``sum_i s_i x_i d`` over ``|d_j| <= 1`` subject to ``s_i x_i d >= 0``
    (``s_i = +1`` for events, ``-1`` otherwise, ``x_i = (1, B_i)``); the MLE
    exists iff the optimum is 0.  The columns are scaled to at most 1 first.
    """
    from scipy.optimize import linprog

    X = np.column_stack([np.ones(B.shape[0]), B])
    X = X / np.maximum(np.abs(X).max(axis=0), 1e-300)
    S = np.where(y == 1.0, 1.0, -1.0)[:, None] * X
    res = linprog(
        -S.sum(axis=0),
        A_ub=-S,
        b_ub=np.zeros(S.shape[0]),
        bounds=(-1.0, 1.0),
        method="highs",
    )
    return bool(res.status == 0 and -res.fun > 1e-6 * max(1.0, np.abs(S).sum() ** 0.5))


def _independent_columns(x: np.ndarray, knots: np.ndarray) -> np.ndarray:
    """The columns of the basis kept when ``[1, basis]`` is rank-deficient on
    the data (fewer distinct forecasts than knots, or a knot interval without
    data): as R's ``glm`` drops aliased columns (the fitted curve is the same
    for any independent set spanning the same functions).  Judged on the
    distinct forecasts (at most 4096, spread over their range)."""
    u = np.unique(x)
    if u.shape[0] > 4096:
        u = u[np.linspace(0, u.shape[0] - 1, 4096).round().astype(np.intp)]
    M = np.column_stack([np.ones(u.shape[0]), rcs_basis(u, knots)])
    M = M / np.maximum(np.abs(M).max(axis=0), 1e-300)
    from scipy.linalg import qr

    _, r, piv = qr(M, mode="economic", pivoting=True)
    d = np.abs(np.diag(r))
    rank = int(np.count_nonzero(d > 1e-9 * d[0])) if d.shape[0] else 0
    keep = np.sort(piv[:rank])
    if keep.shape[0] == M.shape[1]:
        return np.arange(M.shape[1] - 1)
    # the intercept stays (the fit adds it); the kept basis columns, in order
    return np.array([j - 1 for j in keep if j > 0], dtype=np.intp)


def _polish(
    y: np.ndarray,
    X: np.ndarray,
    w: np.ndarray | None,
    beta: np.ndarray,
    wscale: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Plain Newton steps from where the safeguarded solver stopped; the
    covariance is that of the weights ``w * wscale`` (the factor applied
    before the product: the inverse of a class of relative weight 1e-305
    overflowed in it).

    Its test (the gradient within its rounding error) can fail at the maximum
    of an ill-conditioned fit.  Converged when the Newton decrement
    ``g' H^-1 g`` (twice the log-likelihood still to gain) is below ``1e-12``
    relative and has stopped falling (rounding) or reached ``1e-26``: near a
    maximum it falls quadratically; a runaway fit (separation, decided by
    :func:`separated`) keeps gaining.
    """
    prev = math.inf
    for _ in range(50):
        scores, info = logistic_scores(y, X, None, w, beta)
        g = scores.sum(axis=0)
        step = np.linalg.lstsq(info, g, rcond=None)[0]
        if not np.all(np.isfinite(step)):
            break
        size = 1.0 + abs(log_likelihood(y, X @ beta, w))
        dec = float(g @ step)
        # near the maximum: go on to rounding (the decrement stops falling)
        if dec <= 1e-12 * size and (dec <= 1e-26 * size or dec >= 0.25 * prev):
            # the inverse information from the QR factor of sqrt(w mu (1 - mu)) X
            # (R's chol2inv of glm's QR): rounding of the condition number, not
            # of its square
            v = _residual_and_variance(y, X @ beta)[1]
            root = np.sqrt(v if w is None else w * v)
            r = np.linalg.qr(X * root[:, None], mode="r")
            try:
                r_inv = np.linalg.inv(r)
            except np.linalg.LinAlgError:
                break
            r_inv = r_inv / math.sqrt(wscale)
            return beta, r_inv @ r_inv.T, True
        beta = beta + step
        prev = dec
    return beta, np.full((X.shape[1], X.shape[1]), np.nan), False


def spline_logistic_curve(
    y: np.ndarray,
    x: np.ndarray,
    w: np.ndarray | None,
    knots: np.ndarray,
    x_eval: np.ndarray,
    *,
    beta0: np.ndarray | None = None,
) -> tuple[SplineCurve, np.ndarray]:
    """Logistic regression of ``y`` on the restricted cubic spline of ``x``
    with ``knots`` (frequency weights ``w``), evaluated at ``x_eval``.

    Returns the :class:`SplineCurve` and the coefficients on the
    standardised basis (a warm start for refits: ``beta0``).  The covariance
    is the inverse observed information of the weights as given (integer
    weights: that of the repeated rows).
    """
    B = rcs_basis(x, knots)
    cols = _independent_columns(x, knots)
    B = B[:, cols]
    centre, scale = _standardise(B, w)
    X = np.column_stack([np.ones(x.shape[0]), (B - centre) / scale])
    wn, wscale = normalise_weights(w)
    if beta0 is None or beta0.shape[0] != X.shape[1]:
        beta0 = _start(y, X, wn)
    beta, cov, _, converged = logistic_fit(y, X, None, wn, beta0)
    cov = cov / wscale
    if not converged or x.shape[0] <= _WARM_START_ROWS:
        # the same maximum, to rounding, however the weights are written
        beta, cov, converged = _polish(y, X, wn, beta, wscale)
    # without a finite maximum (the spline separates the outcomes) the solver
    # stops at a runaway iterate, and rounding decides whether it calls that
    # converged; the linear programme decides it from the distinct rows alone.
    # A runaway iterate has fitted probabilities near 0 or 1: beyond a few
    # hundred rows the programme runs only then (or when the fit failed).
    fitted = special.expit(X @ beta)
    near = min(float(fitted.min()), float(1.0 - fitted.max())) < 1e-6
    if converged and (near or y.shape[0] <= _LP_ALWAYS_ROWS):
        pairs = _distinct_rows(y, B, w)
        if pairs is not None:
            converged = not separated(*pairs)
        else:
            converged = bool(np.all(np.diag(cov) < _MAX_SE**2))
    Xe = np.column_stack(
        [np.ones(x_eval.shape[0]), (rcs_basis(x_eval, knots)[:, cols] - centre) / scale]
    )
    eta = Xe @ beta
    var = np.einsum("ij,jk,ik->i", Xe, cov, Xe)
    se = np.sqrt(np.maximum(var, 0.0))
    return SplineCurve(eta, se, fitted, bool(converged), beta, cov, X, Xe), beta
