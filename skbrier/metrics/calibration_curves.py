r"""Flexible calibration curves of binary forecasts with their bands.

:func:`flexible_calibration_curve` estimates :math:`c(p) = P(y = 1 \mid p)`
by a smoother of the outcomes on the forecasts (or on their logit):

* ``"loess"`` -- R's ``loess`` (local quadratic, tricube, span 0.75; the k-d
  tree and Hermite interpolation of its default ``surface = "interpolate"``,
  or ``surface = "direct"``), the curve of CalibrationCurves'
  ``val.prob.ci.2`` and of pmcalibration's ``smooth = "loess"``, with R's
  standard errors (:mod:`skbrier._core.kernels.loess`);
* ``"rcs"`` -- a logistic regression on a restricted cubic spline with
  Harrell's knots (``rms::rcs``, pmcalibration's ``smooth = "rcs"``);
* ``"ns"`` -- the same on a natural spline with the knots of
  ``splines::ns(df = n_knots + 1)`` (pmcalibration's ``smooth = "ns"``);
* ``"gam"`` -- a logistic thin plate regression spline with its
  smoothing parameter chosen by the UBRE score (``mgcv::gam(y ~ s(x),
  family = binomial, method = "GCV.Cp")``, pmcalibration's default
  ``smooth = "gam"``; :mod:`skbrier._core.kernels.tprs`);
* ``"lowess"`` -- R's ``lowess(iter = 0)`` (as ``rms::val.prob``).

The summaries ICI (Eavg), E50, E90, Emax and ECI are those of Austin and
Steyerberg (2019) and pmcalibration's ``cal_metrics`` on the same curve.
The result is :class:`FlexibleCalibrationCurve`; the smoothers that fit one
curve are in :mod:`skbrier.metrics._flexible_fit`, the bootstrap and the
simulation of its band here.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import special
from sklearn.exceptions import ConvergenceWarning

from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.kernels.splines import r_seq
from .._core.params import (
    DEFAULT_N_RESAMPLES,
    check_confidence_level,
    check_int,
    check_min_samples,
    check_n_jobs,
    check_n_resamples,
    check_option,
    validate_random_state,
)
from .._core.resampling import chunk_size_for, frequency_resampler, run_replicates
from .._core.validation import binary_forecast, check_probabilities
from ._calibration_curve_result import (
    CURVE_METRICS,
    FlexibleCalibrationCurve,
    band_from_standard_error,
)
from ._flexible_fit import (
    BANDS,
    REGRESSION_SMOOTHERS,
    CurveFit,
    CurveSpec,
    check_spec,
    curve_summaries,
    fit_curve,
    huge_weights_shifted,
    lowess_repetitions,
)

__all__ = ["FlexibleCalibrationCurve", "flexible_calibration_curve"]


def _rows(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, logit: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int]:
    """The rows of the fit: positive weight, and ``0 < p < 1`` under the logit."""
    keep = np.ones(p.shape[0], dtype=bool) if w is None else w > 0
    n_excl = 0
    if logit:
        inside = (p > 0.0) & (p < 1.0)
        n_excl = int(np.count_nonzero(keep & ~inside))
        keep &= inside
    if not keep.all():
        y, p, w = y[keep], p[keep], None if w is None else w[keep]
    if y.shape[0] == 0:
        raise ValueError(
            "y_proba has no probability strictly between 0 and 1 (among the rows of "
            "positive weight): the logit of the forecasts is undefined; use transform=None."
        )
    if np.all(y == y[0]):
        raise ValueError(
            "y_true contains a single class (among the rows used): the calibration "
            "curve is undefined."
        )
    if p.min() == p.max():
        raise ValueError(
            "y_proba is constant (among the rows used): a calibration curve needs "
            "forecasts that vary."
        )
    return y, p, w, n_excl


def grid_count(grid: Any) -> int | None:
    """The number of points of a ``grid`` given as a count, None for a ``grid``
    of probabilities (checked by the caller); other scalars are refused."""
    if isinstance(grid, (int, np.integer)) and not isinstance(grid, bool):
        return check_int(grid, "grid", minimum=2, maximum=100_000)
    if np.ndim(grid) == 0:
        raise ValueError(
            "grid must be a number of points (an integer, at least 2) or an array of "
            f"probabilities, got {grid!r}; for the curve at one probability pass "
            "grid=[p]."
        )
    return None


def _check_grid(grid: Any, p: np.ndarray, logit: bool) -> np.ndarray:
    num = grid_count(grid)
    if num is not None:
        return r_seq(float(p.min()), float(p.max()), num)
    g = check_probabilities(grid, name="grid", allow_2d=False, warn_hard=False)
    if logit and not np.all((g > 0.0) & (g < 1.0)):
        raise ValueError(
            "grid must lie strictly between 0 and 1 with transform='logit' (the logit "
            "of 0 and 1 is infinite)."
        )
    return g


def _identity(v: np.ndarray) -> np.ndarray:
    return v


def _scale(spec: CurveSpec) -> Callable[[np.ndarray], np.ndarray]:
    """The scale of the fit: ``logit`` or the probabilities themselves."""
    return special.logit if spec.logit else _identity


@dataclasses.dataclass(frozen=True, eq=False)
class _Bootstrap:
    """The bootstrap of the curve and its summaries, run once when called: a
    picklable callable of arrays and options (the result keeps it for its
    later intervals)."""

    spec: CurveSpec
    y: np.ndarray
    p: np.ndarray
    w: np.ndarray | None
    grid: np.ndarray
    n_resamples: int
    random_state: Any
    n_jobs: int | None

    def _task(
        self,
        draw: Callable[[np.random.Generator], np.ndarray],
        size: int,
        rng: np.random.Generator,
    ) -> np.ndarray:
        y, p, grid = self.y, self.p, self.grid
        tf = _scale(self.spec)
        x, xg = tf(p), tf(grid)
        m = len(CURVE_METRICS)
        out = np.full((size, m + grid.shape[0]), np.nan)
        for r in range(size):
            cnt = draw(rng)
            keep = cnt > 0
            yb, xb, pb, wb = y[keep], x[keep], p[keep], cnt[keep]
            if yb.min() == yb.max() or xb.min() == xb.max():
                continue  # a resample with one class or one forecast: no curve
            try:
                fit = fit_curve(self.spec, yb, xb, wb, xg, band=False)
            except (ValueError, np.linalg.LinAlgError):
                continue
            out[r, :m] = curve_summaries(pb, fit.p_c, wb)
            out[r, m:] = fit.estimate
        return out

    def __call__(self) -> dict:
        # the resampler is built here, not with the curve: weights too large
        # to resample refuse the bootstrap only, not the curve and its band
        m = len(CURVE_METRICS)
        draw = frequency_resampler(self.w, self.p.shape[0])
        reps = run_replicates(
            partial(self._task, draw),
            self.n_resamples,
            random_state=self.random_state,
            n_jobs=self.n_jobs,
            chunk_size=16,
            desc="calibration curve bootstrap",
        )
        return {"metrics": reps[:, :m], "curve": reps[:, m:]}


def _mvrnorm(
    rng: np.random.Generator, mean: np.ndarray, cov: np.ndarray, size: int
) -> np.ndarray:
    """``size`` draws (rows) of :math:`N(\\mu, \\Sigma)` as ``MASS::mvrnorm``
    makes them: :math:`\\mu + V \\operatorname{diag}(\\sqrt{\\max(\\lambda,
    0)})\\, z` with :math:`\\Sigma = V \\Lambda V'` (eigenvalues clipped at 0)
    and :math:`z` standard normal."""
    vals, vecs = np.linalg.eigh((cov + cov.T) / 2.0)
    z = rng.standard_normal((size, mean.shape[0]))
    return mean + (z * np.sqrt(np.maximum(vals, 0.0))) @ vecs.T


@dataclasses.dataclass(frozen=True, eq=False)
class _Simulation:
    """The curve and its summaries drawn once when called, as pmcalibration's
    ``ci = "sim"``: coefficients from :math:`N(\\hat\\beta, \\hat V)` of the
    logistic fit (``fit``, else fitted again), the curve at the rows and at
    the grid for each draw (no refit).  A picklable callable (the result
    keeps it for its later intervals)."""

    spec: CurveSpec
    y: np.ndarray
    p: np.ndarray
    w: np.ndarray | None
    grid: np.ndarray
    n_draws: int
    random_state: Any
    n_jobs: int | None
    fit: CurveFit | None = None

    def __call__(self) -> dict:
        spec, y, p, w, grid, n_draws = (
            self.spec,
            self.y,
            self.p,
            self.w,
            self.grid,
            self.n_draws,
        )
        m = len(CURVE_METRICS)
        tf = _scale(spec)
        f = (
            fit_curve(spec, y, tf(p), w, tf(grid), band=False)
            if self.fit is None
            else self.fit
        )
        if f.linear is None:  # no maximum: nothing to draw around
            nan = np.full((n_draws, m + grid.shape[0]), np.nan)
            return {"metrics": nan[:, :m], "curve": nan[:, m:]}
        coef, cov, X, Xg = f.linear
        # chunks of the repeated rows' count: integer weights draw as they do
        rows = max(p.shape[0], math.ceil(float(w.sum()))) if w is not None else p.shape[0]

        def task(size: int, rng: np.random.Generator) -> np.ndarray:
            b = _mvrnorm(rng, coef, cov, size)
            out = np.empty((size, m + grid.shape[0]))
            out[:, :m] = curve_summaries(p, special.expit(b @ X.T), w).T
            out[:, m:] = special.expit(b @ Xg.T)
            return out

        reps = run_replicates(
            task,
            n_draws,
            random_state=self.random_state,
            n_jobs=self.n_jobs,
            chunk_size=chunk_size_for(rows),
            desc="calibration curve simulation",
        )
        return {"metrics": reps[:, :m], "curve": reps[:, m:]}


@backends(
    array_api=HOST,
    dask=Refused(
        "a flexible curve needs all rows in memory (sorting, local fits); compute it "
        "on a uniform subsample, e.g. df.sample(frac=0.01).compute()"
    ),
)
@shared_doc
def flexible_calibration_curve(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    smoother: Literal["loess", "rcs", "ns", "gam", "lowess"] = "loess",
    transform: Literal["logit"] | None = "logit",
    n_knots: int | None = None,
    knots: ArrayLike | None = None,
    span: float = 0.75,
    degree: int = 2,
    surface: Literal["interpolate", "direct"] = "interpolate",
    grid: int | ArrayLike = 100,
    band: Literal["analytic", "bootstrap", "simulation"] | None = "analytic",
    band_scale: Literal["logit", "probability"] = "logit",
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    random_state: Any = None,
    n_jobs: int | None = None,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> FlexibleCalibrationCurve:
    r"""A flexible calibration curve of binary forecasts, with its band and ICI.

    The outcomes are smoothed on the forecasts :math:`p` (or on
    :math:`\mathrm{logit}(p)`): the curve :math:`\hat c(p)` estimates the
    observed frequency of events among forecasts :math:`p`; a calibrated
    forecast has :math:`\hat c(p) = p`.  With :math:`d_i = |p_i - \hat
    c(p_i)|`, ICI (Eavg) is the mean of :math:`d_i`, E50, E90 and Emax
    their median, 90th percentile and maximum, and ECI :math:`100\,
    \overline{d^2}` (Austin and Steyerberg 2019).

    Parameters
    ----------
    {{binary_forecast}}
    smoother : {"loess", "rcs", "ns", "gam", "lowess"}, default="loess"
        ``"loess"``: R's ``loess`` (``span``, ``degree``, ``surface``);
        ``"rcs"``: logistic regression on a restricted cubic spline with
        ``n_knots`` knots at Harrell's default quantiles (``rms::rcs``);
        ``"ns"``: the same on a natural spline with ``n_knots`` interior knots
        at the quantiles ``i / (n_knots + 1)`` and boundary knots at the range
        (``splines::ns(df = n_knots + 1)``); ``"gam"``: penalised logistic
        regression on a thin plate regression spline of ``n_knots`` basis
        functions, the penalty chosen by the UBRE score (mgcv's ``gam``
        with ``method = "GCV.Cp"``, pmcalibration's default), with the
        Bayesian standard errors of ``predict.gam``; ``"lowess"``: R's
        ``lowess(iter = 0)`` (no analytic band).
    transform : {"logit"} or None, default="logit"
        Fit on ``logit(p)`` (pmcalibration's default ``transf``) or on ``p``
        (None: ``val.prob.ci.2``, ``rms::val.prob``).  Under the logit, rows
        with ``p`` exactly 0 or 1 are left out (``n_excluded``).
    n_knots : int, default=None
        ``"rcs"``: number of knots (pmcalibration's ``nk``; default 5);
        ``"ns"``: number of interior knots (default 5, pmcalibration's
        ``df = 6``); ``"gam"``: the basis dimension (mgcv's ``k``; default 10,
        mgcv's for one covariate).
    knots : array-like, default=None
        Knots on the scale of the fit (all knots for ``"rcs"``; for ``"ns"``
        the boundary knots are the smallest and largest given).  Kept for the
        bootstrap resamples.
    span : float, default=0.75
        Fraction of the observations in each local fit of ``"loess"``.
    degree : {1, 2}, default=2
        Degree of the local polynomials of ``"loess"``.
    surface : {"interpolate", "direct"}, default="interpolate"
        R's ``loess.control(surface)``: interpolation between local fits at
        the vertices of a k-d tree (R's default, O(n)), or a local fit at every
        point (O(n^2); for n up to about 10^4).
    grid : int or array-like, default=100
        Where the curve is evaluated: a number of points equally spaced from
        the smallest to the largest forecast (pmcalibration's ``eval``), or
        the probabilities themselves.
    band : {"analytic", "bootstrap", "simulation"} or None, default="analytic"
        Pointwise band: Wald (the splines' logistic fit, loess's standard
        errors; not for ``"lowess"``), percentile bootstrap of refitted curves
        (``n_resamples``), simulation (``"rcs"``, ``"ns"``, ``"gam"``:
        pmcalibration's default ``ci = "sim"``, see Notes), or none.
    band_scale : {"logit", "probability"}, default="logit"
        Scale of the splines' Wald band: on the linear predictor, mapped back
        by the inverse logit (``val.prob.ci.2``'s ``rcs`` band, inside [0, 1]),
        or on the probability by the delta method (pmcalibration's ``ci =
        "pw"``).  loess's band is on the probability scale.
    confidence_level : float, default=0.95
        Level of the band.
    n_resamples : int, default=1999
        Bootstrap resamples for ``band="bootstrap"`` and for the intervals of
        the summaries (:meth:`FlexibleCalibrationCurve.confidence_interval`);
        the number of coefficient draws of ``band="simulation"`` and
        ``method="simulation"`` (pmcalibration's ``n``).
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seed of the bootstrap and of the simulation.
    n_jobs : int, default=None
        Threads for the bootstrap and the simulation (results do not depend
        on it).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights: integer weights give the curve of the
        repeated rows (knots, loess neighbourhoods and k-d tree included).
        ``"lowess"`` takes integer weights only.
    pos_label : int, float, bool or str, default=None
        The positive class.

    Returns
    -------
    FlexibleCalibrationCurve
        The curve at ``grid`` with its band, the summaries, the knots;
        ``to_frame()`` gives the curve as a table and ``plot()`` draws it.

    Raises
    ------
    ValueError
        For invalid input, a single outcome class, a constant forecast, too
        few observations for the knots or the span, ``band="analytic"``
        with ``"lowess"``, or ``band="simulation"`` with ``"loess"`` or
        ``"lowess"`` (no coefficients to draw).

    See Also
    --------
    skbrier.metrics.calibration.lowess_calibration_error : Emax, E90, Eavg of
        ``rms::val.prob``'s lowess curve on ``p``.
    skbrier.plotting.ReliabilityDisplay : Binned reliability diagrams.

    Notes
    -----
    Equal to R (tests with fixtures made by the references): ``"rcs"`` and
    ``"ns"`` to pmcalibration 0.2.0 (``smooth = "rcs", nk = 5`` and
    ``smooth = "ns"``, ``ci = "pw"``; ``band_scale="probability"``) with the
    same knots; the fit is run to convergence, where R's ``glm`` stops when
    the deviance changes by less than 1e-8, so the two agree to about 1e-7
    (to 1e-10 with ``glm.control(epsilon = 1e-15)``).  ``"gam"`` builds
    mgcv's basis (the distinct forecasts as knots; beyond 2,000 of them the
    sample mgcv draws with R's ``set.seed(1)``) and minimises the UBRE score
    over the smoothing parameter; it equals mgcv's fit at the minimum of
    mgcv's own score to about 1e-6.  mgcv's Newton iteration can stop at a
    local minimum or short of a flat one: then pmcalibration's curve is
    another (higher-UBRE) fit (tested: both cases).  With ``sample_weight``
    the score counts :math:`n = \sum w` (the repeated rows); mgcv's
    ``weights`` leave :math:`n` the number of rows.  ``"loess"`` equals
    R's ``loess`` and ``predict(se = TRUE)`` to about 1e-13 on both surfaces
    (``val.prob.ci.2``: ``transform=None``; pmcalibration: ``"logit"``).
    ``"lowess"`` equals ``lowess(iter = 0)``.  Differences from the
    references: the Wald band uses the normal quantile (``val.prob.ci.2``'s
    spline band uses 1.96); ``val.prob.ci.2`` draws its loess band at the
    data, here it is evaluated at ``grid``.  R's ``loess`` counts rows, not
    weights: with ``sample_weight`` this curve is R's loess of the repeated
    rows, not R's weighted loess.

    ``band="simulation"`` (and ``confidence_interval(method="simulation")``)
    is pmcalibration's ``ci = "sim"``: ``n_resamples`` coefficient vectors
    are drawn from :math:`N(\hat\beta, \hat V)` of the logistic fit
    (:math:`\hat V` the inverse information; the gam's Bayesian covariance)
    as ``MASS::mvrnorm`` draws them, :math:`\hat\beta_r = \hat\beta +
    V \Lambda_+^{1/2} z_r` with :math:`\hat V = V \Lambda V'`, and for each
    the curve :math:`\mathrm{expit}(X \hat\beta_r)` is recomputed at the
    rows (its ICI, E50, E90, Emax, ECI) and at the grid, without a refit.
    The band and the intervals are the :math:`(1 \mp \text{level}) / 2`
    quantiles of the draws (type 7) on the probability scale, as its
    ``summary()``; equal to pmcalibration's in distribution (its random
    numbers are R's).

    References
    ----------
    .. [1] P. C. Austin and E. W. Steyerberg, "The Integrated Calibration
       Index (ICI) and related metrics for quantifying the calibration of
       logistic regression models", Statistics in Medicine 38, 4051-4065, 2019.
    .. [2] B. Van Calster et al., "A calibration hierarchy for risk models was
       defined: from utopia to empirical data", Journal of Clinical
       Epidemiology 74, 167-176, 2016.
    .. [3] W. S. Cleveland, E. Grosse and W. M. Shyu, "Local regression
       models", chapter 8 of Statistical Models in S, 1992.
    .. [4] S. Rhodes, "Using restricted cubic splines to assess the
       calibration of clinical prediction models: logit transform predicted
       probabilities first", OSF preprint, 2022.

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> from skbrier.metrics import flexible_calibration_curve
    >>> d = load_forecasts()
    >>> curve = flexible_calibration_curve(d["y"], d["model_b"])
    >>> curve.grid.shape, curve.lower.shape
    ((100,), (100,))
    >>> bool(0 <= curve.e50 <= curve.e90 <= curve.emax)
    True
    >>> sim = flexible_calibration_curve(d["y"], d["model_b"], smoother="rcs",
    ...                                  band="simulation", random_state=0)
    >>> low, high = sim.confidence_interval(metric="e90", method="simulation")
    >>> bool(low < sim.e90 < high)
    True
    """
    spec = check_spec(
        smoother, transform, n_knots, knots, span, degree, surface, band_scale
    )
    if band is not None:
        check_option(band, "band", BANDS)
    if band == "analytic" and spec.smoother == "lowess":
        raise ValueError(
            "band='analytic' is not available for smoother='lowess' (lowess has no "
            "standard errors); use band='bootstrap' or band=None."
        )
    if band == "simulation" and spec.smoother not in REGRESSION_SMOOTHERS:
        raise ValueError(
            f"band='simulation' draws the coefficients of a regression smoother "
            f"({', '.join(map(repr, REGRESSION_SMOOTHERS))}); smoother="
            f"{spec.smoother!r} has none. Use band='bootstrap' (or 'analytic' for "
            "'loess')."
        )
    level = check_confidence_level(confidence_level)
    n_resamples = check_n_resamples(n_resamples)
    n_jobs = check_n_jobs(n_jobs)
    random_state = validate_random_state(random_state)
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    check_min_samples(
        p.shape[0], None if w is None else float(w.sum()), purpose="a calibration curve"
    )
    y, p, w, n_excl = _rows(y, p, w, spec.logit)
    check_min_samples(
        p.shape[0], None if w is None else float(w.sum()), purpose="a calibration curve"
    )
    if spec.smoother == "lowess" and w is not None:  # before any fit
        lowess_repetitions(w)
    total = float(p.shape[0] if w is None else w.sum())
    w = huge_weights_shifted(w)
    g = _check_grid(grid, p, spec.logit)
    tf = _scale(spec)
    fit = fit_curve(spec, y, tf(p), w, tf(g), band=band == "analytic")
    if not fit.converged:
        warnings.warn(
            "The logistic fit of the spline did not converge (the forecasts nearly "
            "separate the outcomes, or too many knots for the distinct forecasts): "
            "the curve, its band and its summaries are NaN. Use fewer knots or "
            "another smoother.",
            ConvergenceWarning,
            stacklevel=2,
        )
    stats_ = curve_summaries(p, fit.p_c, w)
    resample = _Bootstrap(spec, y, p, w, g, n_resamples, random_state, n_jobs)
    boot = resample() if band == "bootstrap" else None
    simulate = sim = None
    if spec.smoother in REGRESSION_SMOOTHERS:
        # drawn now around this fit for the band; else on the first interval
        # (fitted again: the result does not keep the design matrices)
        args = (spec, y, p, w, g, n_resamples, random_state, n_jobs)
        simulate = _Simulation(*args)
        if band == "simulation":
            sim = _Simulation(*args, fit)()
    lower = upper = None
    if band == "analytic":
        assert fit.se is not None
        lower, upper = band_from_standard_error(fit.estimate, fit.se, fit.eta, level)
    res = FlexibleCalibrationCurve(
        grid=g,
        estimate=fit.estimate,
        lower=lower,
        upper=upper,
        ici=float(stats_[0]),
        e50=float(stats_[1]),
        e90=float(stats_[2]),
        emax=float(stats_[3]),
        eci=float(stats_[4]),
        smoother=spec.smoother,
        transform="logit" if spec.logit else None,
        band=band,
        band_scale=_band_scale(spec, band),
        confidence_level=level,
        standard_error=fit.se if band == "analytic" else None,
        knots=fit.knots,
        n=total,
        n_excluded=n_excl,
        n_resamples=0 if boot is None else n_resamples,
        n_simulations=0 if sim is None else n_resamples,
        converged=fit.converged,
        _eta=fit.eta if band == "analytic" else None,
        _boot=boot,
        _resample=resample,
        _sim=sim,
        _simulate=simulate,
        _data=(y, p, w),
    )
    if boot is not None or sim is not None:
        lo, hi = res.confidence_interval(level, metric="calibration_curve")
        object.__setattr__(res, "lower", lo)
        object.__setattr__(res, "upper", hi)
    return res


def _band_scale(spec: CurveSpec, band: str | None) -> str | None:
    """The scale of an analytic band (loess's is the probability's)."""
    if band != "analytic":
        return None
    return "probability" if spec.smoother == "loess" else spec.band_scale
