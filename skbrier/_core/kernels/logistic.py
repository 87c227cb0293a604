"""The logistic calibration fits on validated arrays (no validation here).

The public functions in :mod:`skbrier.metrics.calibration` validate their
input once and call these kernels.  Everything follows R's
``rms::val.prob`` (rms 6.5-0) where val.prob defines the statistic, and R's
``glm`` for the logistic fits.  The solvers see the data only through sums
over rows (``rows.reduce``), so the in-memory path (:class:`ArrayRows`) and
the Dask path (one map-reduce per evaluation) run the same solver.

Logistic fits
    :func:`offset_intercept_fit` (calibration in the large, the intercept
    with ``logit(p)`` as an offset) solves the one-dimensional score
    equation by Brent's method inside a bracket that always holds the root,
    so it cannot diverge.  :func:`logistic_fit` (the joint intercept and
    slope) is Newton's method with a line search that never accepts a step
    that lowers the log-likelihood; it reports failure instead of returning
    the last (possibly runaway) iterate.  Weights are frequency weights: they
    are scaled by their maximum before fitting (the estimates do not depend
    on the scale) and the covariance is divided by that scale afterwards, so
    weights of 1e-200 or 1e300 neither underflow nor overflow.

The sums over rows they evaluate (:func:`logistic_sums` and the stable
logistic primitives) are in :mod:`skbrier._core.kernels.logistic_sums`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from scipy import optimize, special

from .logistic_sums import (
    _EPS,
    _information,
    _matvec,
    _newton_direction,
    _residual_and_variance,
    gradient,
    log_likelihood,
    logistic_sums,
    normalise_weights,
)

__all__ = [
    "ArrayRows",
    "LogisticCalibrationStats",
    "RowMoments",
    "combine_row_sums",
    "RATE_FLIP",
    "flip_classes",
    "gradient",
    "log_likelihood",
    "logistic_calibration",
    "logistic_calibration_rows",
    "logistic_fit",
    "logistic_sums",
    "moment_rows",
    "newton_fit",
    "newton_rows",
    "normalise_weights",
    "offset_final_rows",
    "offset_intercept_fit",
    "offset_intercept_solve",
    "offset_score_rows",
    "separated",
]

# -- rows: the data of the logistic fits, behind one reduction -------------
#
# The solvers below never touch arrays: they ask a ``rows`` object for sums
# over all rows of a row function, ``rows.reduce(fn, *args)``, where
# ``fn(y, lg, w, *args)`` returns ``(sums, maxima)`` (two 1-D arrays) for one
# chunk of rows and chunks combine with :func:`combine_row_sums`.  In memory
# there is one chunk (:class:`ArrayRows`); the Dask path maps ``fn`` over the
# persisted partitions and adds the results in a tree.  So both run the SAME
# solver and only the summation differs.


class ArrayRows:
    """The rows of a logistic fit held in memory: 0/1 ``y``, ``lg = logit(p)``
    and normalised weights ``w`` (None: unit weights)."""

    def __init__(self, y: np.ndarray, lg: np.ndarray, w: np.ndarray | None) -> None:
        self.y, self.lg, self.w = y, lg, w

    def reduce(self, fn, *args):
        return fn(self.y, self.lg, self.w, *args)


def _flipped_rows(y, lg, w, fn, *args):
    return fn(1.0 - y, -lg, w, *args)


class _FlippedRows:
    """``rows`` with the classes swapped (``1 - y``, ``-lg``), for a
    distributed ``rows`` (one more argument to each of its reductions)."""

    def __init__(self, rows) -> None:
        self.rows = rows

    def reduce(self, fn, *args):
        return self.rows.reduce(_flipped_rows, fn, *args)


#: the event rate above which the fits use the non-events instead: beyond it
#: (non-events weighing below ``2**-26`` of the total, weights of 1e-17
#: beside 1) ``ybar`` keeps too few digits of ``1 - ybar`` (none below
#: 1.1e-16), which the fits take logs of
RATE_FLIP = 1.0 - 2.0**-26


def flip_classes(rows):
    """The fit of the non-events, ``logit P(y = 0) = -a - b lg``: the same rows
    with ``1 - y`` and ``-lg`` (its slope and likelihoods are the same, its
    intercepts change sign).  The fits use it when the event rate exceeds
    ``RATE_FLIP`` (its complement is then accurate)."""
    if isinstance(rows, ArrayRows):
        return ArrayRows(1.0 - rows.y, -rows.lg, rows.w)
    return _FlippedRows(rows)


def combine_row_sums(a: tuple, b: tuple) -> tuple:
    """Merge the ``(sums, maxima)`` of two chunks of rows."""
    return a[0] + b[0], np.maximum(a[1], b[1])


def _max_or_ninf(x: np.ndarray, where: np.ndarray | None = None) -> float:
    """The maximum of ``x`` (of ``x[where]``; np.where: ``where=`` is slow); -inf if empty."""
    if not x.shape[0]:
        return -math.inf
    return float((x if where is None else np.where(where, x, -math.inf)).max())


def _min_or_inf(x: np.ndarray, where: np.ndarray | None = None) -> float:
    """The minimum of ``x`` (of ``x[where]``); +inf when empty."""
    if not x.shape[0]:
        return math.inf
    return float((x if where is None else np.where(where, x, math.inf)).min())


def moment_rows(y: np.ndarray, lg: np.ndarray, w: np.ndarray | None, ll: bool = True):
    """Sums ``[n, sum w, sum w y, sum w lg, loglik(lg)]`` and maxima
    ``[max lg, -min lg]`` overall, among ``y = 1`` and among ``y = 0``
    (``ll=False``: the log-likelihood NaN, a pass fewer)."""
    n = float(y.shape[0])
    pos = y == 1.0
    neg = ~pos
    sums = np.array(
        [
            n,
            n if w is None else float(w.sum()),
            float(y.sum() if w is None else np.sum(w * y)),
            float(lg.sum() if w is None else np.sum(w * lg)),
            float(logistic_sums(y, lg, w, 0.0, 1.0, slope=False)[0]) if ll else math.nan,
        ]
    )
    # the extremes (no copy of lg per class): max(-x) is -min(x)
    maxima = np.array(
        [
            _max_or_ninf(lg),
            -_min_or_inf(lg),
            _max_or_ninf(lg, pos),
            -_min_or_inf(lg, pos),
            _max_or_ninf(lg, neg),
            -_min_or_inf(lg, neg),
        ]
    )
    return sums, maxima


class RowMoments(NamedTuple):
    """The first pass over the rows of a fit (:func:`moment_rows`, merged)."""

    n: float
    weight: float
    ybar: float
    lg_mean: float
    loglik: float
    lg_min: float
    lg_max: float
    lg1_min: float
    lg1_max: float
    lg0_min: float
    lg0_max: float

    @classmethod
    def of(cls, rows, ll: bool = True) -> RowMoments:
        s, m = rows.reduce(moment_rows) if ll else rows.reduce(moment_rows, False)
        return cls(
            s[0],
            s[1],
            s[2] / s[1],
            s[3] / s[1],
            s[4],
            -m[1],
            m[0],
            -m[3],
            m[2],
            -m[5],
            m[4],
        )


_NO_MAXIMA = np.empty(0)


def offset_score_rows(y, lg, w, a: float):
    """``[sum w (y - expit(a + lg))]``: the score of the offset fit at ``a``."""
    t = logistic_sums(y, lg, w, a, 1.0, ll=False, slope=False)
    return t[[1, 9]], _NO_MAXIMA


def offset_newton_rows(y, lg, w, a: float):
    """``[score d, score t, sum w mu (1 - mu)]`` of the offset fit at ``a``
    (a Newton step; the score is ``d + t``, see :func:`logistic_sums`)."""
    t = logistic_sums(y, lg, w, a, 1.0, ll=False, slope=False)
    return t[[1, 9, 5]], _NO_MAXIMA


def offset_final_rows(y, lg, w, a: float):
    """``[sum w mu (1 - mu), loglik]`` of the offset fit at ``a``."""
    t = logistic_sums(y, lg, w, a, 1.0, slope=False)
    return t[[5, 0]], _NO_MAXIMA


def _glm_sums(y, X, off, w, beta):
    """``(loglik, gradient, sum |X| w |r|, information)`` of the logistic
    model ``eta = off + X beta`` on one chunk of rows."""
    ww = np.ones_like(y) if w is None else w
    eta = off + _matvec(X, beta)
    r, v = _residual_and_variance(y, eta)
    wr = ww * r
    # the gradient as in logistic_sums: sum w (y - [eta >= 0]) x plus
    # sum w sign(eta) min(mu, 1 - mu) x (no 1 - 1e-40 rounding row by row)
    e = np.exp(-np.abs(eta))
    d = ww * (y - ~np.signbit(eta))
    t = ww * np.copysign(e / (1.0 + e), eta)
    return (
        log_likelihood(y, eta, w),
        X.T @ d + X.T @ t,
        np.abs(X).T @ np.abs(wr),
        _information(X, ww * v),
        eta,
    )


def newton_rows(y, lg, w, beta: np.ndarray, c: float):
    """Sums of one Newton step of ``logit P = beta0 + beta1 (lg - c)``:
    ``[loglik, grad d (2), |grad| terms (2), information (4), grad t (2)]``
    (the gradient is ``d + t``, see :func:`logistic_sums`) and the maximum
    ``[1.0 if a fitted probability is numerically 0 or 1 where the forecast
    is not, else 0.0]`` (one fused pass: :func:`logistic_sums`)."""
    t = logistic_sums(y, lg, w, float(beta[0]), float(beta[1]), c, flag=True)
    return t[[0, 1, 2, 3, 4, 5, 6, 6, 7, 9, 10]], t[8:9]


def newton_fit(
    sums,
    beta0: np.ndarray,
    *,
    max_iter: int = 200,
    tol: float = 1e-13,
) -> tuple[np.ndarray, np.ndarray, float, bool, float]:
    """Unpenalised (weighted) logistic regression by safeguarded Newton steps.

    ``sums(beta)`` returns ``(loglik, gradient, sum |x| w |r|, information,
    flag)`` at ``beta`` (one pass over the rows).  Each Newton step is halved
    until the log-likelihood does not decrease (beyond its rounding error);
    when no step length achieves that, the fit stops at the last accepted
    iterate and reports failure.  Convergence: the gradient is within its
    rounding error of zero, or a full Newton step is below ``tol`` relative to
    ``beta``.  Returns ``(beta, cov, loglik, converged, flag)`` where ``cov``
    is the inverse observed information (R's ``vcov(glm(...))``) for the
    weights as given and ``flag`` the last item of ``sums`` at ``beta``.
    """
    beta = np.array(beta0, dtype=np.float64)
    ll, grad, absg, info, flag = sums(beta)
    converged = False
    for _ in range(max_iter):
        # rounding error of the gradient: a few ulps of the sum of |terms|
        noise = 64.0 * _EPS * (absg + 1e-300)
        if np.all(np.abs(grad) <= noise):
            converged = True
            break
        step = _newton_direction(info, grad)
        if step is None:
            break
        slack = 16.0 * _EPS * (abs(ll) + 1.0)
        # halve until the likelihood does not drop, or the step is lost in
        # the rounding of beta (then stop: no further progress is possible)
        t, accepted = 1.0, False
        smax, floor = (
            float(np.max(np.abs(step))),
            _EPS * (1.0 + float(np.max(np.abs(beta)))),
        )
        while t * smax > floor:
            cand = beta + t * step
            at_cand = sums(cand)
            if at_cand[0] >= ll - slack:
                accepted = True
                break
            t *= 0.5
        if not accepted:
            break
        small = t == 1.0 and np.max(np.abs(step)) <= tol * (1.0 + np.max(np.abs(beta)))
        beta = cand
        ll, grad, absg, info, flag = at_cand
        if small:
            converged = True
            break
    try:
        cov = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        cov = np.full_like(info, np.nan)
    if converged and not (np.all(np.isfinite(cov)) and np.all(np.diag(cov) > 0.0)):
        # a flat ridge of the likelihood (information numerically singular)
        # is no maximum: never "converged" with a NaN standard error
        converged = False
    return beta, cov, ll, converged, flag


def logistic_fit(
    y: np.ndarray,
    X: np.ndarray,
    offset: np.ndarray | None,
    w: np.ndarray | None,
    beta0: np.ndarray,
    *,
    max_iter: int = 200,
    tol: float = 1e-13,
) -> tuple[np.ndarray, np.ndarray, float, bool]:
    """:func:`newton_fit` of ``sum w (y eta - log(1 + exp(eta)))`` with
    ``eta = offset + X beta`` on arrays in memory; returns ``(beta, cov,
    loglik, converged)``."""
    off = 0.0 if offset is None else offset

    def sums(beta):
        return _glm_sums(y, X, off, w, beta)[:4] + (0.0,)

    return newton_fit(sums, beta0, max_iter=max_iter, tol=tol)[:4]


def offset_intercept_solve(
    rows, ybar: float, off_min: float, off_max: float, start: float | None = None
):
    """Maximum-likelihood ``a`` of ``logit P(y = 1) = a + offset`` (both classes present).

    The score ``S(a) = sum w (y - expit(a + offset))`` decreases in ``a``;
    with ``ybar`` the weighted event rate, ``S >= 0`` at
    ``logit(ybar) - max(offset)`` and ``S <= 0`` at
    ``logit(ybar) - min(offset)``, so the root lies in that finite bracket
    and Brent's method finds it to rounding error (one pass over ``rows``
    per evaluation).  Returns ``(a, var, loglik)`` with
    ``var = 1 / sum w mu (1 - mu)`` (infinite when every fitted probability
    is numerically 0 or 1).  ``start``: where Newton's method starts (a
    nearby solution saves passes; the root is the same).
    """
    if ybar > RATE_FLIP:  # the fit of the non-events (see flip_classes)
        flipped = flip_classes(rows)
        m = RowMoments.of(flipped, False)
        a, var, ll = offset_intercept_solve(
            flipped, m.ybar, m.lg_min, m.lg_max, None if start is None else -start
        )
        return -a, var, ll
    base = math.log(ybar) - math.log1p(-ybar)
    lo, hi = base - off_max, base - off_min

    def score(a: float) -> float:
        d, t = rows.reduce(offset_score_rows, a)[0]
        return float(d + t)

    if isinstance(rows, ArrayRows):  # in memory: one chunk, no reduction
        newton_sums = array_offset_sums(rows.y, rows.lg, rows.w)
    else:  # one map-reduce per Newton step

        def newton_sums(a: float) -> tuple[float, float]:
            t = rows.reduce(offset_newton_rows, a)[0]
            return float(t[0] + t[1]), float(t[2])

    a_newton = _offset_newton(newton_sums, lo, hi, start)
    if a_newton is not None:
        a = a_newton
    elif lo == hi or score(lo) <= 0.0:
        a = lo
    elif score(hi) >= 0.0:
        a = hi
    else:
        a = float(optimize.brentq(score, lo, hi, xtol=1e-14, rtol=4.0 * _EPS, maxiter=1000))
    info, ll = rows.reduce(offset_final_rows, a)[0]
    # Python's division: a subnormal information (weights near 1e-308 times
    # the largest) gives an infinite variance without numpy's overflow warning
    var = 1.0 / float(info) if info > 0.0 else math.inf
    return a, float(var), float(ll)


def offset_intercept_fit(
    y: np.ndarray, offset: np.ndarray, w: np.ndarray | None
) -> tuple[float, float, float]:
    """:func:`offset_intercept_solve` on arrays in memory."""
    ww = np.ones_like(y) if w is None else w
    ybar = float(np.sum(ww * y) / np.sum(ww))
    rows = ArrayRows(y, offset, w)
    return offset_intercept_solve(rows, ybar, float(offset.min()), float(offset.max()))


def array_offset_sums(y: np.ndarray, lg: np.ndarray, w: np.ndarray | None) -> Any:
    """``sums(a) -> (score, information)`` of the offset fit on arrays in memory."""

    def sums(a: float) -> tuple[float, float]:
        t = logistic_sums(y, lg, w, a, 1.0, ll=False, slope=False)
        return float(t[1] + t[9]), float(t[5])

    return sums


def _offset_newton(
    sums: Any,
    lo: float,
    hi: float,
    start: float | None = None,
) -> float | None:
    """Newton's method for the root of the (decreasing) score inside
    ``[lo, hi]``, from ``start`` (default the middle of the bracket); steps
    that leave the bracket are bisected.  ``sums(a)``: ``(score, information)``
    at ``a``.  None when it does not settle (Brent's method then)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        return None
    a = 0.5 * (lo + hi) if start is None or not lo < start < hi else start
    for _ in range(60):
        s, info = sums(a)
        if s > 0.0:
            lo = a
        elif s < 0.0:
            hi = a
        else:
            return a
        if not info > 0.0:
            return None
        new = a + s / info
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        if abs(new - a) <= 1e-14 + 4.0 * _EPS * abs(new):
            return new
        a = new
    return None


def separated(y: np.ndarray, lg: np.ndarray) -> bool:
    """Whether a threshold on ``lg`` separates the classes (ties allowed):
    then the logistic slope has no finite maximum-likelihood estimate."""
    l1, l0 = lg[y == 1], lg[y == 0]
    return bool(l0.max() <= l1.min() or l1.max() <= l0.min())


def _sqrt(v: float) -> float:
    """Square root of a variance: inf for inf, NaN unless finite and non-negative."""
    v = float(v)
    if v == math.inf:
        return math.inf
    return math.sqrt(v) if math.isfinite(v) and v >= 0.0 else math.nan


class LogisticCalibrationStats(NamedTuple):
    """Everything :func:`logistic_calibration` computes.

    ``status`` of the joint fit: ``"converged"``, ``"near_separated"``
    (converged, but some fitted probabilities are numerically 0 or 1 where the
    forecasts were not: R's glm warns), ``"not_converged"``, ``"separated"``
    (no finite estimate: slope +-inf) or ``"constant"`` (constant forecast,
    val.prob's special case).
    """

    intercept: float
    slope: float
    intercept_stderr: float
    slope_stderr: float
    citl: float
    citl_stderr: float
    weight: float
    lr_chi2: float
    unreliability_chi2: float
    unreliability_df: int
    r2: float
    status: str


def _newton_sums(rows, c: float):
    """``sums(beta)`` of :func:`newton_fit` for ``logit P = beta0 + beta1 (lg - c)``."""

    def sums(beta):
        s, m = rows.reduce(newton_rows, beta, c)
        return float(s[0]), s[1:3] + s[9:11], s[3:5], s[5:9].reshape(2, 2), float(m[0])

    return sums


#: the largest ``|logit(p)|`` at which the joint fit starts from calibration
#: in the large (beyond, from the base rate; see :func:`_joint_fit`)
_WARM_START_MAX_LOGIT = 30.0


def _joint_fit(
    rows, mom: RowMoments, citl: float, start_ab: tuple[float, float] | None = None
):
    """``(a, b, var_a, var_b, loglik, status)`` of ``logit P = a + b lg`` (normalised weights).

    Fitted on the centred ``lg - c`` (``c`` the weighted mean of ``lg``), which
    keeps the information matrix well conditioned when the logits are far
    from 0, from the calibration-in-the-large fit ``(citl, 1)`` (whose
    likelihood is never below that of val.prob's start ``(0, 1)``); the
    intercept and its variance are then mapped back to ``lg``.
    """
    if mom.lg0_max <= mom.lg1_min or mom.lg1_max <= mom.lg0_min:  # separated
        b = math.inf if mom.lg1_min >= mom.lg0_max else -math.inf
        return math.nan, b, math.nan, math.nan, math.nan, "separated"
    c = mom.lg_mean
    # from the base-rate model (slope 0): its information matrix is
    # diag(W ybar (1 - ybar), sum w (lg - c)^2 ybar (1 - ybar)), well
    # conditioned whatever the forecasts; at val.prob's start (0, 1) or at
    # (citl, 1) it is numerically singular when the log-odds reach +-300
    # (every mu(1 - mu) below 1e-100) and the first Newton step is 1e30.
    # With moderate log-odds the calibration-in-the-large fit is the nearer
    # start (a calibrated forecast is its own recalibration): about half the
    # Newton steps, each a pass over the rows
    if start_ab is not None and all(map(math.isfinite, start_ab)):
        start = np.array([start_ab[0] + start_ab[1] * c, start_ab[1]])  # a nearby fit
    elif max(-mom.lg_min, mom.lg_max) <= _WARM_START_MAX_LOGIT:
        start = np.array([citl + c, 1.0])
    else:
        start = np.array([math.log(mom.ybar) - math.log1p(-mom.ybar), 0.0])
    beta, cov, ll, ok, near_01 = newton_fit(_newton_sums(rows, c), start)
    b = float(beta[1])
    a = float(beta[0] - b * c)
    var_a = float(cov[0, 0] - 2.0 * c * cov[0, 1] + c * c * cov[1, 1])
    status = "converged" if ok else "not_converged"
    if ok and near_01:
        status = "near_separated"
    return a, b, var_a, float(cov[1, 1]), ll, status


def logistic_calibration(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, lr: bool = True
) -> LogisticCalibrationStats:
    """Logistic recalibration and val.prob's likelihood-ratio statistics.

    ``y`` 0/1 with both classes, ``0 < p < 1``, ``w`` positive or None; see
    :func:`logistic_calibration_rows`.
    """
    wn, scale = normalise_weights(w)
    return logistic_calibration_rows(ArrayRows(y, special.logit(p), wn), scale, lr)


def logistic_calibration_rows(
    rows, scale: float, lr: bool = True, hint: tuple[float, float, float] | None = None
) -> LogisticCalibrationStats:
    """Logistic recalibration and val.prob's likelihood-ratio statistics.

    ``rows`` (:class:`ArrayRows` or the distributed equivalent) hold 0/1 ``y``
    with both classes, ``lg = logit(p)`` finite and weights ``w / scale``.  The
    joint fit ``logit P(y = 1) = a + b logit(p)``; calibration in the large
    ``a`` with ``b = 1``; ``lr_chi2 = L0 - L01`` and ``U = L01 - L_recal`` (on
    ``unreliability_df`` degrees of freedom) with the deviances ``L0`` of the
    base rate, ``L01`` of the forecasts as they are and ``L_recal`` of the
    joint fit; Nagelkerke's R².  A constant forecast follows val.prob's
    special case: intercept ``logit(ybar)``, slope 0, ``lr_chi2 = 0``,
    ``R2 = 0`` and U on 1 degree of freedom.  ``lr=False``: the fits only
    (the likelihood-ratio statistics and R² NaN; a pass fewer).  ``hint``:
    ``(citl, a, b)`` of a nearby fit (e.g. of rounded forecasts) where the
    solvers start: fewer passes over distributed rows, the same maximum.
    """
    mom = RowMoments.of(rows, lr)
    if mom.ybar > RATE_FLIP:  # the fit of the non-events (see flip_classes)
        h = None if hint is None else (-hint[0], -hint[1], hint[2])
        st = logistic_calibration_rows(flip_classes(rows), scale, lr, h)
        return st._replace(intercept=-st.intercept, citl=-st.citl)
    nwn, ybar, ll01 = float(mom.weight), float(mom.ybar), float(mom.loglik)
    ll0 = nwn * (ybar * math.log(ybar) + (1.0 - ybar) * math.log1p(-ybar))
    citl, citl_var, _ = offset_intercept_solve(
        rows, ybar, mom.lg_min, mom.lg_max, None if hint is None else hint[0]
    )
    if mom.lg_max == mom.lg_min:
        a, b = math.log(ybar) - math.log1p(-ybar), 0.0
        var_a, var_b = 1.0 / (nwn * ybar * (1.0 - ybar)), math.nan
        ll_recal = nwn * (ybar * math.log(ybar) + (1.0 - ybar) * math.log1p(-ybar))
        status, u_df, lr_n = "constant", 1, 0.0
    else:
        a, b, var_a, var_b, ll_recal, status = _joint_fit(
            rows, mom, citl, None if hint is None else (hint[1], hint[2])
        )
        u_df, lr_n = 2, 2.0 * (ll01 - ll0)
    u_n = 2.0 * (ll_recal - ll01)
    if status == "constant":
        r2 = 0.0
    else:
        with np.errstate(over="ignore"):
            # (1 - exp(-LR / n)) / (1 - exp(-L0 / n)): -inf when the forecasts
            # are so bad that exp overflows
            r2 = float(-np.expm1(-lr_n / nwn) / -np.expm1(2.0 * ll0 / nwn))
    root = math.sqrt(scale)  # variances scale as 1 / scale (no overflow for 1e-310)
    return LogisticCalibrationStats(
        intercept=float(a),
        slope=float(b),
        intercept_stderr=_sqrt(var_a) / root,
        slope_stderr=_sqrt(var_b) / root,
        citl=float(citl),
        citl_stderr=_sqrt(citl_var) / root,
        weight=nwn * scale,
        lr_chi2=lr_n * scale,
        unreliability_chi2=u_n * scale,
        unreliability_df=u_df,
        r2=r2,
        status=status,
    )
