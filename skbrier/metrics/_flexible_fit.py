"""One flexible calibration curve: the smoothers and the ICI family.

:func:`fit_curve` fits one curve of
:func:`~skbrier.metrics.flexible_calibration_curve` (R's ``loess``, the
logistic splines ``rcs`` and ``ns``, mgcv's ``gam``, R's ``lowess``) on
validated rows, :func:`curve_summaries` gives its ICI, E50, E90, Emax and
ECI, and :func:`frequency_lowess_knots` is R's ``lowess`` of frequency
weights (the repeated rows: lowess has no weights), shared with
:func:`~skbrier.metrics.calibration_by_group`'s ICI.  The bootstrap and the
simulation of the curve, and the public function, are in
:mod:`skbrier.metrics.calibration_curves`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from scipy import special

from .._core.binning import weighted_quantile
from .._core.kernels.loess import loess_fit, loess_predict
from .._core.kernels.lowess import lowess_knots
from .._core.kernels.splines import (
    SplineCurve,
    ns_knots,
    rcs_knots,
    spline_logistic_curve,
)
from .._core.kernels.tprs import GamCurve, gam_logistic_curve
from .._core.params import check_int, check_option, check_real
from .._core.resampling import repeated_rows

__all__ = [
    "BANDS",
    "REGRESSION_SMOOTHERS",
    "SMOOTHERS",
    "CurveFit",
    "CurveSpec",
    "check_spec",
    "curve_summaries",
    "fit_curve",
    "frequency_lowess_knots",
    "huge_weights_shifted",
    "lowess_repetitions",
]

SMOOTHERS = ("loess", "rcs", "ns", "gam", "lowess")
#: the smoothers fitted by a (penalised) logistic regression: coefficients to draw
REGRESSION_SMOOTHERS = ("rcs", "ns", "gam")
BANDS = ("analytic", "bootstrap", "simulation")
#: the default ``n_knots`` of each smoother that has one (gam: the basis dimension)
DEFAULT_N_KNOTS = {"rcs": 5, "ns": 5, "gam": 10}
BAND_SCALES = ("logit", "probability")
SURFACES = ("interpolate", "direct")


class CurveSpec(NamedTuple):
    """The checked options of one curve (what a bootstrap refit repeats)."""

    smoother: str
    logit: bool
    n_knots: int
    knots: np.ndarray | None
    span: float
    degree: int
    surface: str
    band_scale: str


class CurveFit(NamedTuple):
    p_c: np.ndarray  # the curve at each row
    estimate: np.ndarray  # at the grid
    se: np.ndarray | None  # at the grid, on the band's scale
    eta: np.ndarray | None  # linear predictor at the grid (logit-scale band)
    knots: np.ndarray | None
    converged: bool
    # the logistic fit of a regression smoother (converged): coefficients, their
    # covariance, the design at the rows and at the grid (what ci = "sim" draws)
    linear: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None


def fit_curve(
    spec: CurveSpec,
    y: np.ndarray,
    x: np.ndarray,
    w: np.ndarray | None,
    xg: np.ndarray,
    *,
    band: bool,
) -> CurveFit:
    """One curve on validated rows: ``x`` the (transformed) forecasts, ``w``
    frequency weights (None or positive), ``xg`` the grid on ``x``'s scale."""
    if spec.smoother in REGRESSION_SMOOTHERS:
        knots = spec.knots
        cur: GamCurve | SplineCurve
        if spec.smoother == "gam":
            cur = gam_logistic_curve(y, x, w, xg, k=spec.n_knots)
        else:
            if knots is None:
                knots = (
                    rcs_knots(x, w, spec.n_knots)
                    if spec.smoother == "rcs"
                    else ns_knots(x, w, spec.n_knots)
                )
            cur = spline_logistic_curve(y, x, w, knots, xg)[0]
        if not cur.converged:
            # no maximum (the spline separates the outcomes): the iterate where
            # the solver stopped is arbitrary, so is every number read from it
            nan_g = np.full(xg.shape, np.nan)
            return CurveFit(
                np.full(x.shape, np.nan),
                nan_g,
                nan_g if band else None,
                nan_g,
                knots,
                False,
            )
        est = special.expit(cur.eta)
        linear = (cur.coef, cur.cov, cur.design, cur.design_eval)
        if spec.band_scale == "logit":
            se = cur.se_eta if band else None
            return CurveFit(cur.fitted, est, se, cur.eta, knots, True, linear)
        # R's predict(type = "response", se.fit = TRUE): the delta method
        se_p = est * (1.0 - est) * cur.se_eta
        return CurveFit(cur.fitted, est, se_p if band else None, None, knots, True, linear)
    if spec.smoother == "loess":
        total = float(x.shape[0] if w is None else w.sum())
        if not math.floor(total * spec.span + 1e-5) > 0:
            raise ValueError(
                f"y_proba has {total:.4g} observations (the total of sample_weight "
                f"with weights): span={spec.span:.4g} leaves none in a local fit; "
                "increase span."
            )
        fit = loess_fit(
            x,
            y,
            w,
            span=spec.span,
            degree=spec.degree,
            surface=spec.surface,
            statistics=band,
        )
        est, se = loess_predict(fit, xg, se=band)
        if spec.surface == "direct":
            at_rows = np.empty_like(x)
            at_rows[np.argsort(x, kind="stable")] = fit.fitted
        else:
            at_rows = loess_predict(fit, x)[0]
        return CurveFit(at_rows, est, se, None, None, True)
    kx, ky = frequency_lowess_knots(x, y, w)
    # outside the forecasts' range: NaN, as loess's and R's approx(rule = 1)
    at_grid = np.interp(xg, kx, ky, left=np.nan, right=np.nan)
    return CurveFit(np.interp(x, kx, ky), at_grid, None, None, None, True)


def curve_summaries(p: np.ndarray, p_c: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """``[ICI, E50, E90, Emax, ECI]`` of ``d = |p - p_c|`` (frequency weights
    ``w``: those of the repeated rows); ``p_c`` of shape ``(n,)``, or ``(R,
    n)`` for ``R`` curves at once (then ``(5, R)``)."""
    d = np.abs(p - p_c)
    probs = np.array([0.5, 0.9])
    if w is None:
        e50, e90 = np.quantile(d, probs, axis=-1)
        mean, mean2 = d.mean(axis=-1), np.einsum("...i,...i->...", d, d) / d.shape[-1]
    else:
        if d.ndim == 1:
            e50, e90 = weighted_quantile(d, probs, w)
        else:
            e50, e90 = np.stack([weighted_quantile(r, probs, w) for r in d], axis=1)
        tot = float(w.sum())
        mean, mean2 = (d @ w) / tot, ((d * d) @ w) / tot
    return np.array([mean, e50, e90, d.max(axis=-1), 100.0 * mean2], dtype=np.float64)


def check_spec(
    smoother: Any,
    transform: Any,
    n_knots: Any,
    knots: Any,
    span: Any,
    degree: Any,
    surface: Any,
    band_scale: Any,
) -> CurveSpec:
    smoother = check_option(smoother, "smoother", SMOOTHERS)
    if transform is not None and transform != "logit":
        raise ValueError(f"transform must be 'logit' or None, got {transform!r}.")
    if n_knots is None:
        n_knots = DEFAULT_N_KNOTS.get(smoother, 5)
    elif smoother not in REGRESSION_SMOOTHERS:
        raise ValueError(
            f"n_knots applies to smoother='rcs', 'ns' or 'gam', not to "
            f"smoother={smoother!r}" + (" (use span)." if smoother == "loess" else ".")
        )
    n_knots = check_int(
        n_knots, "n_knots", minimum={"rcs": 3, "gam": 3}.get(smoother, 0), maximum=50
    )
    k = None
    if knots is not None:
        if smoother not in ("rcs", "ns"):
            raise ValueError(
                f"knots applies to the splines (smoother='rcs' or 'ns'), not to "
                f"smoother={smoother!r}."
            )
        if np.ndim(knots) != 1:
            raise ValueError(f"knots must be 1-D, got shape {np.shape(knots)}.")
        try:
            k = np.unique(np.asarray(knots, dtype=np.float64))
        except (TypeError, ValueError):
            k = np.empty(0)  # not numbers: the message below says what knots are
        if k.shape[0] < (3 if smoother == "rcs" else 2) or not np.all(np.isfinite(k)):
            raise ValueError(
                "knots must be finite numbers on the scale of the fit (logit(p) with "
                "transform='logit'): at least 3 distinct knots for 'rcs' (all knots) "
                f"and 2 for 'ns' (the boundary knots and the interior ones); got {knots!r}."
            )
    span = check_real(span, "span", low=0.0, inclusive=(False, True))
    degree = check_int(degree, "degree", minimum=1, maximum=2)
    surface = check_option(surface, "surface", SURFACES)
    band_scale = check_option(band_scale, "band_scale", BAND_SCALES)
    return CurveSpec(
        smoother, transform == "logit", n_knots, k, span, degree, surface, band_scale
    )


#: frequency weights above this are shifted down to it by a power of two
#: (:func:`huge_weights_shifted`)
_HUGE_WEIGHT = 2.0**500


def huge_weights_shifted(w: np.ndarray | None) -> np.ndarray | None:
    """Frequency weights ``w`` whose largest exceeds ``2**500``, shifted by
    a power of two to put it there; others as given.

    The fits' sums of weights times squared basis terms overflowed for
    weights of 1e305 (a numpy RuntimeWarning, and a NaN gam curve).  Totals
    of ``2**500`` rows and more are the same sample to the curves (the gam's
    UBRE term ``2 tau / n`` is nil beside ``D / n`` for both; the spline and
    loess fits do not depend on the scale), so the shift keeps the curve.
    Weights that the shift would make subnormal are left as given.

    Parameters
    ----------
    w : ndarray of shape (n_samples,) or None
        Positive frequency weights.

    Returns
    -------
    ndarray of shape (n_samples,) or None

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics._flexible_fit import huge_weights_shifted
    >>> w = huge_weights_shifted(np.array([1e305, 2e305]))
    >>> bool(w[1] == 2 * w[0]), bool(w.max() <= 2.0**500)
    (True, True)
    >>> huge_weights_shifted(np.array([1.0, 3.0])).tolist()
    [1.0, 3.0]
    """
    if w is None or not float(w.max()) > _HUGE_WEIGHT:
        return w
    e = int(np.frexp(_HUGE_WEIGHT)[1]) - 1 - int(np.frexp(float(w.max()))[1])
    if np.ldexp(float(w.min()), e) < np.finfo(np.float64).smallest_normal:
        return w
    return np.ldexp(w, e)


def lowess_repetitions(w: np.ndarray) -> np.ndarray:
    """The repetitions of the rows of frequency weights ``w`` for lowess.

    Lowess has no weights: integer weights repeat the rows
    (:func:`~skbrier._core.resampling.repeated_rows`, whose ValueError
    names ``sample_weight`` for weights that are not integers).

    Parameters
    ----------
    w : ndarray of shape (n_samples,)
        Non-negative frequency weights.

    Returns
    -------
    ndarray of shape (n_samples,)
        The repetitions (``np.intp``).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics._flexible_fit import lowess_repetitions
    >>> lowess_repetitions(np.array([2.0, 0.0, 1.0])).tolist()
    [2, 0, 1]
    """
    return repeated_rows(
        w, "smoother='lowess' (lowess has no weights)", "use smoother='loess'"
    )


def frequency_lowess_knots(
    x: np.ndarray, y: np.ndarray, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The knots of R's ``lowess(x, y, iter = 0)`` of frequency weights.

    With integer weights ``w``, the knots of the repeated rows (each row
    ``w`` times; :func:`lowess_repetitions`); without, those of the rows
    (:func:`~skbrier._core.kernels.lowess.lowess_knots`).  The curve at any
    ``x`` is ``np.interp(x, *knots)``.

    Parameters
    ----------
    x, y : ndarray of shape (n_samples,)
        The points and their outcomes.
    w : ndarray of shape (n_samples,) or None
        Integer frequency weights.

    Returns
    -------
    knots_x, knots_y : ndarray
        The fit points, ``knots_x`` increasing.

    Raises
    ------
    ValueError
        For weights that are not integers, naming ``sample_weight``.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics._flexible_fit import frequency_lowess_knots
    >>> x, y = np.array([0.1, 0.4, 0.7, 0.9]), np.array([0.0, 1.0, 0.0, 1.0])
    >>> a = frequency_lowess_knots(x, y, np.array([2.0, 1.0, 1.0, 3.0]))
    >>> b = frequency_lowess_knots(np.repeat(x, [2, 1, 1, 3]),
    ...                            np.repeat(y, [2, 1, 1, 3]), None)
    >>> all(np.array_equal(u, v) for u, v in zip(a, b))
    True
    """
    if w is None:
        return lowess_knots(x, y)
    reps = lowess_repetitions(w)
    return lowess_knots(np.repeat(x, reps), np.repeat(y, reps))
