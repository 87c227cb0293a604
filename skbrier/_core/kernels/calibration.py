"""Calibration statistics on validated arrays (no validation here).

The public functions in :mod:`skbrier.metrics.calibration` validate their
input once and call these kernels.  Everything follows R's
``rms::val.prob`` (rms 6.5-0) where val.prob defines the statistic.  The
logistic fits (calibration intercept, slope, calibration in the large) live
in :mod:`skbrier._core.kernels.logistic` and are re-exported here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import stats

from ..params import MIN_SAMPLES
from ..validation import scale_free_exponent
from .logistic import (
    RATE_FLIP,
    LogisticCalibrationStats,
    _information,
    _matvec,
    _offset_newton,
    _residual_and_variance,
    array_offset_sums,
    gradient,
    log_likelihood,
    logistic_calibration,
    logistic_fit,
    logistic_sums,
    normalise_weights,
    offset_intercept_fit,
    separated,
)
from .lowess import lowess_knots, r_lowess, stable_argsort

__all__ = [
    "LogisticCalibrationStats",
    "log_likelihood",
    "logistic_calibration",
    "logistic_fit",
    "lowess_calibration",
    "lowess_calibration_curve",
    "lowess_knots",
    "chi2_pvalue",
    "delong_from_groups",
    "enough_observations",
    "normalise_weights",
    "offset_intercept_fit",
    "r_lowess",
    "separated",
    "spiegelhalter",
    "spiegelhalter_from_sums",
    "spiegelhalter_reduce",
    "valprob_indexes",
]


def enough_observations(n: float) -> bool:
    """Whether ``n`` observations (rows, or the total of frequency weights)
    reach :data:`~skbrier._core.params.MIN_SAMPLES`: the one rule of val.prob's
    indexes and of every calibration test here (below it, NaN)."""
    return bool(n >= MIN_SAMPLES)


def chi2_pvalue(statistic: float, df: int, n: float) -> float:
    """Upper-tail chi-square p-value of a likelihood-ratio test on ``n``
    observations (val.prob's "D:p" and "U:p"); a negative statistic (rounding)
    counts as 0.  NaN when the statistic is not finite or ``n`` is below
    :data:`~skbrier._core.params.MIN_SAMPLES` (:func:`enough_observations`)."""
    if not (math.isfinite(statistic) and enough_observations(n)):
        return math.nan
    return float(stats.chi2.sf(max(statistic, 0.0), df))


def valprob_indexes(
    lr_chi2: float, unreliability_chi2: float, unreliability_df: int, n: float
) -> tuple[float, float, float]:
    """val.prob's discrimination, unreliability and quality indexes ``(D, U, Q)``.

    ``D = (lr_chi2 - 1) / n``, ``U = (unreliability_chi2 - df) / n`` with
    ``df`` 2 (1 for a constant forecast, as val.prob) and ``Q = D - U``.
    ``n`` is the number of observations (frequency weights: their total);
    below :data:`~skbrier._core.params.MIN_SAMPLES` the indexes are NaN, as
    the tests and intervals they come with (a total weight of 1e-200 gave
    ``D = -1e200``: the penalties 1 and ``df`` are per observation).
    """
    if not enough_observations(n):
        return math.nan, math.nan, math.nan
    d = (lr_chi2 - 1.0) / n
    u = (unreliability_chi2 - unreliability_df) / n
    return d, u, d - u


def spiegelhalter_reduce(xp: Any, y: Any, p: Any, w: Any = None) -> np.ndarray:
    r"""Reduce a chunk of rows to the sums of Spiegelhalter's z (host floats).

    ``[W, num, den]`` with :math:`W = \sum w`,
    :math:`\mathrm{num} = \sum w (y - p)(1 - 2p)` and
    :math:`\mathrm{den} = \sum w (1 - 2p)^2 p (1 - p)` (mergeable: they add
    over chunks).  ``y`` None gives the hypotheses form of the label-keyed
    states, ``[W, num if every y were 0, num if every y were 1, den]``.

    Examples
    --------
    >>> import numpy as np
    >>> w, num, den = spiegelhalter_reduce(np, np.array([0.0, 1.0]), np.array([0.25, 0.5]))
    >>> float(w), float(num), float(den)
    (2.0, -0.125, 0.046875)
    """
    a = 1.0 - 2.0 * p
    den = a * a * p * (1.0 - p)
    nums = [-(p * a), (1.0 - p) * a] if y is None else [(y - p) * a]
    if w is None:
        sums = [float(p.shape[0])] + [float(xp.sum(t)) for t in nums + [den]]
    else:
        sums = [float(xp.sum(w))] + [float(xp.sum(w * t)) for t in nums + [den]]
    return np.array(sums)


def spiegelhalter(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None
) -> tuple[float, float]:
    """Spiegelhalter's z statistic and two-sided p-value (as ``rms::val.prob``).

    ``z = sum w (y - p)(1 - 2p) / sqrt(sum w (1 - 2p)^2 p (1 - p))``; weights
    act as frequency weights (a weight of 2 equals a repeated row), so ``z``
    scales with the square root of the total weight.  NaN when the variance
    is zero (every forecast 0, 1/2 or 1).  The sums of
    :func:`spiegelhalter_reduce` (with the weights over their largest) and
    :func:`spiegelhalter_from_sums`.
    """
    wn, scale = normalise_weights(w)
    total, num, den = spiegelhalter_reduce(np, y, p, wn)
    return spiegelhalter_from_sums(float(num), float(den), scale, float(total) * scale)


def spiegelhalter_from_sums(
    num: float, den: float, scale: float, total: float
) -> tuple[float, float]:
    """``(z, p-value)`` from ``num = sum w (y - p)(1 - 2p)`` and
    ``den = sum w (1 - 2p)^2 p (1 - p)`` computed with weights ``w / scale``
    (mergeable sums: the distributed path adds them over chunks).  ``total``:
    the number of observations (the total weight, unscaled); both are NaN
    below :data:`~skbrier._core.params.MIN_SAMPLES`, as val.prob's indexes."""
    if not (den > 0.0 and enough_observations(total)):
        return math.nan, math.nan
    z = float(num / math.sqrt(den) * math.sqrt(scale))
    return z, float(2.0 * stats.norm.sf(abs(z)))


def lowess_calibration_curve(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The smoothed observed frequency at each ``p``, as ``rms::val.prob``:
    ``approx(lowess(p, y, iter = 0), xout = p, ties = mean)$y``.

    The lowess fit is a function of ``x`` (tied points share the value of
    their fit point), so ``ties = mean`` changes nothing and the curve is the
    linear interpolation of the knots of :func:`lowess_knots`.
    """
    kx, ky = lowess_knots(p, y)
    return np.interp(p, kx, ky)


def lowess_calibration(
    y: np.ndarray,
    p: np.ndarray,
    *,
    order: np.ndarray | None = None,
    sorted_yp: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float, float, np.ndarray, np.ndarray]:
    """``(emax, e90, eavg, knots_x, knots_y)`` of val.prob's lowess calibration curve.

    ``e = |p - c(p)|`` with ``c`` the curve of :func:`lowess_calibration_curve`;
    Emax its maximum, E90 its 90th percentile (R's type 7), Eavg its mean.
    The knots give the whole curve (linear between them).  ``order``: the
    stable argsort of ``p`` when the caller has it; ``sorted_yp``: ``(y[order],
    p[order])`` when the caller has them.
    """
    if sorted_yp is None:
        o = stable_argsort(p) if order is None else order
        sorted_yp = (y[o], p[o])
    ys, ps = sorted_yp
    kx, ky = lowess_knots(ps, ys, presorted=True)
    er = np.abs(ps - np.interp(ps, kx, ky))
    return float(er.max()), float(np.quantile(er, 0.9)), float(er.mean()), kx, ky


def auc_delong(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    *,
    order: np.ndarray | None = None,
    sorted_yp: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float]:
    """The C statistic and DeLong's variance of it, with frequency weights.

    With ``W1``, ``W0`` the total weights of events and non-events, each event
    gets the placement ``V10 = (W0 below + W0 tied / 2) / W0`` and each
    non-event ``V01 = (W1 above + W1 tied / 2) / W1``; ``C`` is the weighted
    mean of ``V10`` and DeLong's variance ``S10 / W1 + S01 / W0`` with
    ``S10 = sum w (V10 - C)^2 / (W1 - 1)`` (likewise ``S01``).  Integer weights
    give the values of the data with repeated rows (``pROC::var(roc,
    method = "delong")``).  The variance is NaN when ``W1 <= 1`` or
    ``W0 <= 1``.  ``y`` 0/1 with both classes among rows of positive weight.
    ``order`` (an argsort of ``p``) or, without weights, ``sorted_yp =
    (y[order], p[order])`` when the caller has them.
    """
    if w is None and sorted_yp is not None:
        ys, ps = sorted_yp
    else:
        o = stable_argsort(p) if order is None else order
        ps, ys = p[o], y[o]
    n = ps.shape[0]
    e = 0
    new_value = ps[1:] != ps[:-1]
    distinct = w is None and int(np.count_nonzero(new_value)) == n - 1
    if distinct:
        # unit weights, every forecast distinct: one row per tied group (the
        # counts of the general case, without their n-long index arrays)
        del new_value
        g1 = ys
        g0 = 1.0 - ys
    else:
        starts = np.flatnonzero(np.r_[True, new_value])
        del new_value
        if w is None:
            # unit weights: counts of events and non-events per tied group (exact)
            g1 = np.add.reduceat(ys, starts)
            g0 = np.diff(starts, append=n) - g1
        else:
            # the weights times a power of two (exact): C depends on their
            # ratios only (weights of 5e-324 lost the halves of ties)
            e = scale_free_exponent(w)
            ws = np.ldexp(w[o], e)
            g1 = np.add.reduceat(ws * ys, starts)
            g0 = np.add.reduceat(ws * (1.0 - ys), starts)
            del ws
        del starts
    return delong_from_groups(g1, g0, e)


def delong_from_groups(g1: np.ndarray, g0: np.ndarray, e: int = 0) -> tuple[float, float]:
    """The C statistic and DeLong's variance of tied groups (:func:`auc_delong`'s finish).

    ``g1``, ``g0``: the weights of events and non-events of each distinct
    forecast, in increasing order of the forecast (a table of distinct
    forecasts, such as :class:`~skbrier.states.ForecastTable`'s, holds them);
    ``e``: the weights were scaled by ``2**e`` (the sample sizes are their
    totals scaled back).  The variance is NaN when ``W1 <= 1`` or ``W0 <= 1``.

    Examples
    --------
    >>> import numpy as np
    >>> c, var = delong_from_groups(np.array([0.0, 1.0, 2.0]), np.array([2.0, 1.0, 0.0]))
    >>> round(c, 4), round(var, 4)
    (0.9444, 0.0062)
    """
    t1, t0 = float(g1.sum()), float(g0.sum())
    # the sample sizes of the variance: the frequency weights' own totals
    n1, n0 = (t1, t0) if e == 0 else (math.ldexp(t1, -e), math.ldexp(t0, -e))
    # the placements, computed in place in one buffer:
    # v10 = (below0 + g0 / 2) / t0 with below0 = cumsum(g0) - g0, and
    # v01 = (above1 + g1 / 2) / t1 with above1 = t1 - cumsum(g1)
    v = np.cumsum(g0)
    v -= g0
    _add_half(v, g0)
    v /= t0
    auc = float(np.dot(g1, v) / t1)
    if n1 <= 1.0 or n0 <= 1.0:
        return auc, math.nan
    v -= auc
    np.square(v, out=v)
    s10 = float(np.dot(g1, v)) / t1  # weighted means of the squares:
    np.cumsum(g1, out=v)  # S10 / W1 = s10 / (W1 - 1)
    np.subtract(t1, v, out=v)
    _add_half(v, g1)
    v /= t1
    v -= auc
    np.square(v, out=v)
    s01 = float(np.dot(g0, v)) / t0
    return auc, s10 / (n1 - 1.0) + s01 / (n0 - 1.0)


#: rows per block of the element-wise updates that would otherwise need an
#: n-long temporary
_BLOCK = 1 << 16


def _add_half(out: np.ndarray, a: np.ndarray) -> None:
    """``out += 0.5 * a`` block by block (the same values, no n-long temporary)."""
    for s in range(0, out.shape[0], _BLOCK):
        out[s : s + _BLOCK] += 0.5 * a[s : s + _BLOCK]


def observed_expected(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, confidence_level: float
) -> tuple[float, float, float]:
    """TRIPOD's ratio of observed to expected events ``O / E`` with a Wald
    interval on the log scale: ``exp(log(O / E) +- z sqrt((1 - O / N) / O))``.

    ``O = sum w y``, ``E = sum w p``, ``N = sum w`` (frequency weights); the
    variance of ``log(O / E)`` treats ``E`` as fixed and ``O`` as binomial
    (Debray et al. 2017; ``metamisc::oecalc(O, E, N, g = "log(OE)")``).
    """
    # the sums with the weights shifted by 2**sh (exact; scale_free_exponent):
    # weights of 5e-324 lost every product w p (E = 0: a NaN ratio), weights
    # of 1e307 overflowed; the variance takes the unshifted O
    sh = 0 if w is None else scale_free_exponent(w)
    ww = np.ones_like(p) if w is None else (w if sh == 0 else np.ldexp(w, sh))
    o = float(np.dot(ww, y))
    e = float(np.dot(ww, p))
    n = float(ww.sum())
    if not (o > 0.0 and e > 0.0):
        return (o / e if e > 0.0 else math.nan), math.nan, math.nan
    ratio = o / e
    z = float(stats.norm.ppf(0.5 + confidence_level / 2.0))
    with np.errstate(over="ignore"):  # tiny total weight: an unbounded interval
        se = float(np.sqrt(np.ldexp(max(1.0 - o / n, 0.0) / o, sh)))
        return ratio, ratio * float(np.exp(-z * se)), ratio * float(np.exp(z * se))


def logistic_scores(
    y: np.ndarray,
    X: np.ndarray,
    offset: np.ndarray | None,
    w: np.ndarray | None,
    beta: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-row scores ``w (y - mu) x`` (n, k) and the information ``X' W V X``
    of a logistic fit at ``beta`` (``sandwich::estfun`` and the inverse of
    ``vcov`` of R's ``glm``)."""
    eta = (0.0 if offset is None else offset) + _matvec(X, beta)
    r, v = _residual_and_variance(y, eta)
    ww = np.ones_like(y) if w is None else w
    return X * (ww * r)[:, None], _information(X, ww * v)


def refit_calibration(
    y: np.ndarray,
    lg: np.ndarray,
    w: np.ndarray,
    start: tuple[float, float, float],
    *,
    joint: bool = True,
    max_iter: int = 50,
    check_separation: bool = True,
) -> tuple[float, float, float]:
    """Calibration in the large, intercept and slope refitted on a resample.

    ``w`` are the (frequency) weights of the resample (bootstrap counts times
    the sample weights); ``start = (citl, intercept, slope)`` of the full
    sample.  Newton's method from there (the safeguarded
    :func:`logistic_fit` for the joint fit; Brent's method for calibration
    in the large when its Newton steps fail); NaN where a fit is undefined
    (a single class, perfect separation, no convergence).  ``joint=False``
    skips the joint fit (a constant forecast); ``check_separation=False``
    when the caller knows that the classes are not separated.
    """
    pos = w > 0.0
    if not pos.all():
        y, lg, w = y[pos], lg[pos], w[pos]
    # zero-count rows are gone; the rest enter with their counts
    if y.shape[0] == 0 or y.min() == y.max():
        return math.nan, math.nan, math.nan
    ybar = float(np.dot(w, y) / w.sum())
    if ybar > RATE_FLIP:  # the fit of the non-events (see logistic.flip_classes)
        a, ic, b = refit_calibration(
            1.0 - y,
            -lg,
            w,
            (-start[0], -start[1], start[2]),
            joint=joint,
            max_iter=max_iter,
            check_separation=check_separation,
        )
        return -a, -ic, b
    base = math.log(ybar) - math.log1p(-ybar)
    a_new = _offset_newton(
        array_offset_sums(y, lg, w),
        base - float(lg.max()),
        base - float(lg.min()),
        start[0],
    )
    a = offset_intercept_fit(y, lg, w)[0] if a_new is None else a_new
    if not joint:
        return a, math.nan, math.nan
    if check_separation and separated(y, lg):
        return a, math.nan, math.nan
    c = float(np.dot(w, lg) / w.sum())
    b0 = np.array([start[1] + start[2] * c, start[2]])
    beta = _newton_2d(y, lg, w, c, b0, max_iter)
    if beta is None:  # the safeguarded fit (line search) when plain Newton fails
        X = np.column_stack([np.ones_like(lg), lg - c])
        beta, _, _, conv = logistic_fit(y, X, None, w, b0, tol=1e-10)
        if not conv:
            return a, math.nan, math.nan
    return a, float(beta[0] - beta[1] * c), float(beta[1])


def _newton_2d(
    y: np.ndarray,
    lg: np.ndarray,
    w: np.ndarray,
    c: float,
    beta: np.ndarray,
    max_iter: int,
) -> np.ndarray | None:
    """Plain Newton steps for ``logit P = b0 + b1 (lg - c)`` from a warm start
    (the full-sample fit), one fused pass (:func:`logistic_sums`) per step;
    None unless the step settles below 1e-10 within ``max_iter`` steps (the
    caller then uses :func:`logistic_fit`)."""
    beta = beta.copy()
    for _ in range(max_iter):
        t = logistic_sums(y, lg, w, float(beta[0]), float(beta[1]), c, ll=False)
        (g0, g1), h00, h01, h11 = gradient(t), t[5], t[6], t[7]
        det = h00 * h11 - h01 * h01
        if not (det > 0.0 and math.isfinite(det)):
            return None
        step = np.array([h11 * g0 - h01 * g1, h00 * g1 - h01 * g0]) / det
        if not np.all(np.isfinite(step)):
            return None
        beta += step
        if np.max(np.abs(step)) <= 1e-10 * (1.0 + np.max(np.abs(beta))):
            return beta
    return None
