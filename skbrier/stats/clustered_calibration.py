r"""The calibration curve of forecasts validated in several centres.

:func:`clustered_calibration_curve` is the meta-analytic calibration curve
(MAC2) of Barreñada et al. (2025), the overall curve of CalibrationCurves'
``valProbCluster`` (its default ``approach``): in each centre a flexible
calibration curve (a logistic regression on a restricted cubic spline of
:math:`\mathrm{logit}(p)`, :func:`~skbrier.metrics.flexible_calibration_curve`)
is evaluated on a common grid of forecasts, and at each point of the grid the
centres' linear predictors are pooled by a random-effects meta-analysis
(:func:`~skbrier.stats.random_effects_meta`), which gives the pooled curve,
its confidence band and the prediction band for a new centre.  With
``approach="MIXC"`` the curve comes from one logistic mixed model instead
(``valProbCluster``'s MIXC; the Laplace fit is in :mod:`._glmm`), with
``approach="CGC"`` from groups of forecasts (:mod:`._cgc`).
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import special, stats

from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.kernels.splines import r_seq, rcs_basis, rcs_knots
from .._core.labels import check_groups
from .._core.optional import import_optional
from .._core.params import check_bool, check_confidence_level, check_int, check_option
from .._core.results import Result
from .._core.validation import binary_forecast, check_probabilities
from ..metrics.calibration_curves import flexible_calibration_curve, grid_count
from ._cgc import grouped_calibration
from ._glmm import fit_logistic_glmm
from .meta_analysis import random_effects_meta

__all__ = ["ClusteredCalibrationCurve", "clustered_calibration_curve"]

#: the grid stays this far inside (0, 1), as ``valProbCluster``'s ``rangeGrid``
_EDGE = 1e-4


@dataclasses.dataclass(frozen=True, repr=False)
class ClusteredCalibrationCurve(Result):
    """A calibration curve pooled over centres, with its confidence and
    prediction bands.

    Attributes
    ----------
    grid : ndarray of shape (n_grid,)
        The forecasts where the curves are evaluated.
    estimate : ndarray of shape (n_grid,)
        The pooled curve, :math:`\\mathrm{expit}(\\hat\\mu(p))`.
    lower, upper : ndarray of shape (n_grid,)
        The confidence band of the pooled curve.
    prediction_lower, prediction_upper : ndarray of shape (n_grid,)
        The prediction band: where the curve of a new centre is expected to
        lie (NaN with fewer than 3 centres).
    tau2 : ndarray of shape (n_grid,)
        The between-centre variance of the linear predictor at each point
        (MIXC: :math:`z(g)^\\top \\hat D z(g)` of the mixed model).
    clusters : ndarray of shape (k,)
        The centres pooled, in sorted order.
    cluster_estimate : ndarray of shape (k, n_grid)
        Each centre's curve (probability scale).
    cluster_standard_error : ndarray of shape (k, n_grid)
        The standard errors of their linear predictors (NaN for MIXC).
    n : ndarray of shape (k,)
        The (weighted) number of rows of each centre.
    n_knots : ndarray of shape (k,)
        The knots of each centre's spline (0: the linear fallback).
    removed_clusters : ndarray
        The centres left out because their outcomes hold one class.
    confidence_level : float
        The level of both bands.
    approach : str
        ``"MAC2"`` (the centres' curves pooled), ``"MIXC"`` (the mixed
        model) or ``"CGC"`` (groups of forecasts pooled).
    grid_intervals : ndarray of shape (4, n_grid) or None
        CGC only: the confidence and prediction intervals of the pooled
        forecasts :attr:`grid` (lower, upper, prediction lower, prediction
        upper).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats import clustered_calibration_curve
    >>> p = np.random.default_rng(0).beta(2.0, 5.0, 1200)
    >>> y = np.random.default_rng(1).binomial(1, p)
    >>> res = clustered_calibration_curve(y, p, groups=np.arange(1200) % 4, grid=5)
    >>> res.to_frame().shape, res.to_frame(per_cluster=True).shape
    ((5, 7), (20, 4))
    """

    grid: np.ndarray
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    prediction_lower: np.ndarray
    prediction_upper: np.ndarray
    tau2: np.ndarray
    clusters: np.ndarray
    cluster_estimate: np.ndarray
    cluster_standard_error: np.ndarray
    n: np.ndarray
    n_knots: np.ndarray
    removed_clusters: np.ndarray
    confidence_level: float = 0.95
    approach: str = "MAC2"
    grid_intervals: np.ndarray | None = None
    _data: tuple | None = dataclasses.field(default=None, compare=False)

    def to_frame(self, per_cluster: bool = False) -> Any:
        """The pooled curve as a :class:`pandas.DataFrame` (needs pandas).

        Parameters
        ----------
        per_cluster : bool, default=False
            False: one row per point of :attr:`grid` with ``estimate``, the
            bands and ``tau2``.  True: one row per centre and point with
            the centre's ``estimate`` and ``standard_error`` (logit scale).

        Returns
        -------
        pandas.DataFrame
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        if per_cluster:
            k, g = self.cluster_estimate.shape
            return pd.DataFrame(
                {
                    "cluster": np.repeat(self.clusters, g),
                    "grid": np.tile(self.grid, k),
                    "estimate": self.cluster_estimate.ravel(),
                    "standard_error": self.cluster_standard_error.ravel(),
                }
            )
        return pd.DataFrame(
            {
                "grid": self.grid,
                "estimate": self.estimate,
                "lower": self.lower,
                "upper": self.upper,
                "prediction_lower": self.prediction_lower,
                "prediction_upper": self.prediction_upper,
                "tau2": self.tau2,
            }
        )

    @shared_doc
    def plot(self, ax: Any = None, *, cluster_curves: bool = False) -> Any:
        """Draw the pooled curve, its confidence and prediction bands, the
        diagonal and the spike histogram of the forecasts.

        Parameters
        ----------
        {{ax}}
        cluster_curves : bool, default=False
            Also draw each centre's curve (thin lines).

        Returns
        -------
        matplotlib Axes

        Examples
        --------
        >>> import numpy as np, matplotlib
        >>> from skbrier.stats import clustered_calibration_curve
        >>> matplotlib.use("Agg")
        >>> rng = np.random.default_rng(1)
        >>> p = rng.beta(2.0, 3.0, 900)
        >>> res = clustered_calibration_curve(rng.binomial(1, p), p, groups=np.arange(900) % 3)
        >>> res.plot(cluster_curves=True).get_xlabel()
        'Predicted probability'
        """
        from ..plotting._calibration_parts import draw_spikes, histogram_bottom
        from ..plotting._common import new_axes
        from ..plotting._flexible_draw import DIAGONAL_GID

        cluster_curves = check_bool(cluster_curves, "cluster_curves")
        ax = new_axes(ax, "ClusteredCalibrationCurve.plot", figsize=(5.0, 5.0))
        ax.plot(
            [0.0, 1.0],
            [0.0, 1.0],
            linestyle="--",
            color="0.5",
            linewidth=1.0,
            gid=DIAGONAL_GID,
            label="ideal",
        )
        level = f"{100 * self.confidence_level:g}%"
        # the prediction band first, the confidence band (inside it) over it
        bands = (
            ("prediction", self.prediction_lower, self.prediction_upper, "#F5C542", 0.35),
            ("confidence", self.lower, self.upper, "#D4A017", 0.5),
        )
        for kind, low, high, color, alpha in bands:
            ax.fill_between(
                self.grid,
                low,
                high,
                color=color,
                alpha=alpha,
                linewidth=0,
                label=f"{level} {kind} band",
            )
        if cluster_curves:
            for i, curve in enumerate(self.cluster_estimate):
                label = "centres" if i == 0 else None
                ax.plot(self.grid, curve, color="0.2", linewidth=0.5, label=label)
        ax.plot(self.grid, self.estimate, color="black", linewidth=1.8, label="pooled")
        if self._data is not None:
            draw_spikes(ax, *self._data)
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(histogram_bottom(1), 1.02)
        ax.set_xlabel("Predicted probability")
        ax.set_ylabel("Observed frequency")
        ax.legend(loc="upper left", fontsize="small", framealpha=0.9)
        return ax


def _grid(grid: Any, p: np.ndarray) -> np.ndarray:
    """``valProbCluster``'s grid: ``grid`` points from the smallest to the
    largest forecast, kept inside ``[1e-4, 1 - 1e-4]``; or the forecasts given."""
    num = grid_count(grid)
    if num is not None:
        return r_seq(max(float(p.min()), _EDGE), min(float(p.max()), 1.0 - _EDGE), num)
    g = check_probabilities(grid, name="grid", allow_2d=False, warn_hard=False)
    if not np.all((g > 0.0) & (g < 1.0)):
        raise ValueError(
            "grid must lie strictly between 0 and 1 (the curves are fitted on the "
            "logit of the forecasts)."
        )
    return g


def _centre_curve(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, grid: np.ndarray, centre_fit: str
) -> tuple[np.ndarray, np.ndarray, int]:
    """One centre's linear predictor and its standard error at ``grid``: the
    3-knot restricted cubic spline, or (MAC2's fallback when the spline's
    fit fails, and ``centre_fit="logistic"``) the linear logistic fit, a
    natural spline without interior knots.  Returns ``(eta, se, knots)``."""
    fits: tuple[tuple[Literal["rcs", "ns"], int], ...] = (("rcs", 3), ("ns", 0))
    if centre_fit == "logistic":
        fits = fits[1:]
    for smoother, n_knots in fits:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                curve = flexible_calibration_curve(
                    y, p, smoother=smoother, n_knots=n_knots, grid=grid, sample_weight=w
                )
        except ValueError:
            # too few rows for the knots, or forecasts that do not vary: the
            # fit fails, as MAC2's lrm does (then its fallback, then none)
            continue
        if curve.converged:
            assert curve.standard_error is not None
            return special.logit(curve.estimate), curve.standard_error, n_knots
    nan = np.full(grid.shape, np.nan)
    return nan, nan, 0


def _mac2(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    codes: np.ndarray,
    kept: np.ndarray,
    labels: Any,
    grid: np.ndarray,
    level: float,
    centre_fit: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """MAC2: each kept centre's spline curve at ``grid``, pooled point by
    point (``labels`` names the centres in messages).  Returns the rows
    ``(estimate, lower, upper, prediction_lower, prediction_upper, tau2)``,
    the centres' curves, their standard errors (logit scale) and knots."""
    eta = np.empty((kept.shape[0], grid.shape[0]))
    se = np.empty_like(eta)
    knots = np.empty(kept.shape[0], dtype=np.intp)
    for i, j in enumerate(kept):
        rows = codes == j
        eta[i], se[i], knots[i] = _centre_curve(
            y[rows], p[rows], None if w is None else w[rows], grid, centre_fit
        )
    ok = np.isfinite(eta[:, 0])
    if not ok.all():
        names = np.asarray(labels)[kept[~ok]].tolist()
        if np.count_nonzero(ok) < 2:
            raise ValueError(
                f"groups: only {np.count_nonzero(ok)} centre(s) give a calibration "
                f"curve (the centres {names} have too few rows, or sample_weight "
                "totals below 3 -- frequency weights count observations --, "
                "forecasts that do not vary or separated outcomes, even for a "
                "linear logistic fit); MAC2 needs at least 2. Merge the small "
                "centres, or rescale sample_weight to count the observations."
            )
        warnings.warn(
            f"groups: no calibration curve could be fitted in the centres {names} "
            "(too few rows or a sample_weight total below 3, forecasts that do not "
            "vary or separated outcomes, even for a linear logistic fit); they are "
            "left out of the pooled curve.",
            UserWarning,
            stacklevel=3,
        )
    pooled = np.full((6, grid.shape[0]), np.nan)
    for t in range(grid.shape[0]):
        meta = random_effects_meta(eta[ok, t], se[ok, t] ** 2)
        lo, hi = meta.confidence_interval(level)
        pooled[:4, t] = meta.pooled_scale, lo, hi, meta.tau2
        if meta.k >= 3:
            pooled[4:, t] = meta.prediction_interval(level, distribution="t")
    out = np.vstack([special.expit(pooled[[0, 1, 2, 4, 5]]), pooled[3][None, :]])
    return out, special.expit(eta), se, knots


def _no_weights(w: np.ndarray | None, approach: str) -> None:
    if w is not None:
        raise ValueError(
            f"sample_weight: approach={approach!r} is unweighted (as in CalibrationCurves); "
            "leave sample_weight out or use approach='MAC2'."
        )


def _mixc(
    y: np.ndarray,
    p: np.ndarray,
    codes: np.ndarray,
    k: int,
    grid: np.ndarray,
    random_effects: str,
    level: float,
) -> tuple[np.ndarray, np.ndarray]:
    """CalibrationCurves' MIXC on the rows of ``k`` centres (``codes``):
    the rows ``(estimate, lower, upper, prediction_lower, prediction_upper,
    tau2)`` at ``grid`` and the centres' curves (probability scale)."""
    x = special.logit(p)
    knots = rcs_knots(x, None, 3)
    X = np.column_stack([np.ones_like(x), rcs_basis(x, knots)])
    nz = X.shape[1] if random_effects == "slope" else 1
    fit = fit_logistic_glmm(y, X, X[:, :nz], codes, k)
    if not fit.converged:
        warnings.warn(
            "the mixed model's penalised IRLS or its optimiser did not converge; "
            "the MIXC curve may be inaccurate.",
            UserWarning,
            stacklevel=3,
        )
    xg = special.logit(grid)
    Xg = np.column_stack([np.ones_like(xg), rcs_basis(xg, knots)])
    eta = Xg @ fit.beta
    centres = special.expit(eta + fit.b @ Xg[:, :nz].T)
    # the band as MIXC computes it: model.matrix(~ rcs(logit(grid), 3)), whose
    # knots are those of the grid, and the random-effects variance added
    try:
        Xq = np.column_stack([np.ones_like(xg), rcs_basis(xg, rcs_knots(xg, None, 3))])
    except ValueError:
        raise ValueError(
            f"grid: approach='MIXC' needs at least 6 distinct grid points for its "
            f"band (the knots of its spline); got {np.unique(grid).shape[0]}. Pass "
            "grid=6 or more points."
        ) from None
    pvar = np.einsum("ij,jk,ik->i", Xq, fit.vcov, Xq)
    rvar = np.einsum("ij,jk,ik->i", Xq[:, :nz], fit.varcorr, Xq[:, :nz])
    z = float(stats.norm.ppf(0.5 + level / 2.0))
    half = z * np.sqrt(pvar + rvar)
    # merTools::predictInterval for a new centre (random effects 0): beta
    # drawn from N(beta, vcov), plus N(0, 1) on the logit scale; the limit
    # of its quantiles as the draws grow
    half_pi = z * np.sqrt(np.einsum("ij,jk,ik->i", Xg, fit.vcov, Xg) + 1.0)
    tau2 = np.einsum("ij,jk,ik->i", Xg[:, :nz], fit.varcorr, Xg[:, :nz])
    rows = np.vstack(
        [
            special.expit(
                np.vstack([eta, eta - half, eta + half, eta - half_pi, eta + half_pi])
            ),
            tau2[None, :],
        ]
    )
    return rows, centres


@backends(
    arrays=("y_true", "y_proba", "groups", "sample_weight"),
    dask=Refused(
        "each cluster's calibration curve is fitted on its rows in memory; compute "
        "it on the collected rows (e.g. ddf.compute()) or on a uniform subsample of "
        "each cluster"
    ),
    array_api=HOST,
)
@shared_doc
def clustered_calibration_curve(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    groups: ArrayLike,
    grid: int | ArrayLike = 100,
    confidence_level: float = 0.95,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    approach: Literal["MAC2", "MIXC", "CGC"] = "MAC2",
    random_effects: Literal["slope", "intercept"] = "slope",
    centre_fit: Literal["spline", "logistic"] = "spline",
    n_bins: int = 10,
) -> ClusteredCalibrationCurve:
    r"""The meta-analytic calibration curve of forecasts from several centres.

    In each centre :math:`j` a logistic regression of the outcomes on a
    restricted cubic spline of :math:`\mathrm{logit}(p)` with 3 knots
    (Harrell's quantiles, ``rms::rcs``) gives the linear predictor
    :math:`\hat\eta_j(g)` and its standard error :math:`s_j(g)` at each
    point :math:`g` of the grid.  At each point, the random-effects model
    :math:`\hat\eta_j(g) \sim N(\mu(g), s_j^2(g) + \tau^2(g))` (REML) gives

    .. math::

        \hat c(g) = \mathrm{expit}\,\hat\mu(g), \quad
        \mathrm{expit}\big(\hat\mu \pm z_{1-\alpha/2}\,\mathrm{SE}(\hat\mu)\big),
        \quad
        \mathrm{expit}\Big(\hat\mu \pm t_{k-2,\,1-\alpha/2}
        \sqrt{\mathrm{SE}(\hat\mu)^2 + \hat\tau^2}\Big),

    the pooled curve, its confidence band and the prediction band of a new
    centre (Higgins, Thompson and Spiegelhalter 2009).

    ``approach="MIXC"`` fits instead one logistic mixed model to all centres,
    :math:`\mathrm{logit}\,P(y = 1) = s(p)^\top(\beta + b_j)`,
    :math:`s(p) = (1, \mathrm{rcs}(\mathrm{logit}\,p))` (knots of all the
    forecasts), :math:`b_j \sim N(0, D)` (``random_effects="slope"``; or on the
    intercept only), by the Laplace approximation (``lme4::glmer``); the
    curve is :math:`\mathrm{expit}(s^\top\hat\beta)`, the centres' curves
    add their conditional modes :math:`\hat b_j`, the band is
    :math:`\mathrm{expit}(s^\top\hat\beta \pm z\sqrt{\tilde s^\top(V + \hat
    D)\tilde s})` and the prediction band
    :math:`\mathrm{expit}(s^\top\hat\beta \pm z\sqrt{s^\top V s + 1})`
    (:math:`V` the covariance of :math:`\hat\beta`; see Notes for
    :math:`\tilde s` and the 1).

    Parameters
    ----------
    {{binary_inputs}}
    groups : array-like of shape (n_samples,)
        The centre (cluster) of each sample.
    grid : int or array-like, default=100
        Where the curves are evaluated: a number of points equally spaced
        from the smallest to the largest forecast (kept inside
        :math:`[10^{-4}, 1 - 10^{-4}]`, ``valProbCluster``'s ``grid_l``), or
        the probabilities themselves.
    {{confidence_level}}
        Of both bands.
    approach : {"MAC2", "MIXC", "CGC"}, default="MAC2"
        The centres' spline curves pooled point by point (MAC2), the
        mixed-effects model (MIXC), or groups of forecasts pooled by a
        bivariate meta-analysis (CGC); ``valProbCluster``'s ``approach``.
    random_effects : {"slope", "intercept"}, default="slope"
        MIXC's random effects: on all the spline coefficients, or on the
        intercept only (``MIXC``'s ``method``).  Ignored by MAC2.
    centre_fit : {"spline", "logistic"}, default="spline"
        MAC2's curve of each centre: the 3-knot spline (with the linear
        fallback), or the linear logistic calibration curve on
        :math:`\mathrm{logit}(p)` (``MAC2``'s ``method_choice = "log"``).
        Ignored by MIXC and CGC.
    n_bins : int, default=10
        CGC's number of groups of equal size in each centre (``ntiles``),
        at least 5.  Ignored by MAC2 and MIXC (whose points are ``grid``).

    Returns
    -------
    ClusteredCalibrationCurve
        The pooled curve with its bands and each centre's curve;
        ``to_frame()`` gives them as a table and ``plot()`` draws them.

    Raises
    ------
    ValueError
        Fewer than 2 centres with both outcome classes, ``sample_weight``
        with MIXC or CGC, a MIXC grid of fewer than 6 points, or the usual
        input errors.

    Warns
    -----
    UserWarning
        When centres whose outcomes hold a single class are left out, or
        when the mixed model's fit does not converge.

    See Also
    --------
    skbrier.metrics.flexible_calibration_curve : the curve of one centre.
    random_effects_meta : the meta-analysis at each point.
    clustered_validation : calibration slope, O/E and C pooled over centres.

    Notes
    -----
    Equal to CalibrationCurves 3.1.0 ``valProbCluster(approach =
    "default")``, its ``MAC2`` curve with ``method_choice = "splines"``
    (``results$overall$plot_data``: ``y``, ``lower``, ``upper``,
    ``low_pre``, ``up_pre``, ``tau``), to about 1e-7 (R's ``lrm`` stops
    its Newton iterations earlier).  As MAC2, a centre whose spline fit
    fails (no maximum of the likelihood) gets the linear logistic fit on
    :math:`\mathrm{logit}(p)`; centres without both outcome classes are
    left out, as ``valProbCluster`` does; rows with :math:`p` exactly 0 or 1
    are left out of the fits.  Its centre curves (``cluster_curves =
    TRUE``) are those of MIXC: ``approach="MIXC"``'s ``cluster_estimate``
    (the MAC2 result gives each centre's own spline curve).

    ``approach="MIXC"`` is ``valProbCluster(approach = "MIXC", method =
    random_effects)`` (``results$plot_data``: ``obs_prob``, ``p_lower_ci``,
    ``p_upper_ci``, ``fit``, ``lwr``, ``upr``; ``results$cluster_data``).
    As MIXC does, the band's design :math:`\tilde s` is the spline basis
    with the knots of the grid's logits (it calls ``model.matrix(~
    rcs(logit_preds, 3))`` on the grid), not those of the data, and its
    variance adds the random effects' :math:`\tilde s^\top \hat D \tilde s`;
    :math:`V` is lme4's ``vcov`` (from the finite-difference Hessian of the
    deviance).  MIXC's prediction band is merTools' ``predictInterval``
    (10000 draws: :math:`\beta` from :math:`N(\hat\beta, V)`, the centre's
    effect 0, plus a :math:`N(0, 1)` "residual" on the logit scale,
    ``include.resid.var = TRUE``); the band here is the limit of its
    quantiles, and its median is the curve.  The glmer fit is matched to
    about 1e-5 (random intercept) and 1e-4 (singular random-slope fits,
    where glmer's Nelder-Mead stops short of the optimum); where glmer
    stops far from it (its convergence warnings, a variance stuck at 0)
    this fit reaches a lower deviance and its curve differs; with
    ``random_effects="intercept"`` MIXC's own band fails in R (a
    1 :math:`\times` 1 covariance times the 3-column basis), here
    :math:`\hat D` is the intercept's variance.  Not here: MIXC's
    ``CI_method = "delta"``.

    ``approach="CGC"`` is ``valProbCluster(approach = "CGC")`` with its
    defaults (``method = "grouped"``, ``univariate = FALSE``): in each
    centre ``n_bins`` groups of the forecasts (``dplyr::ntile``); per group
    the centres' logits of the mean forecast and of the observed proportion
    (``escalc(measure = "PLO")``) pooled by a bivariate random-effects model
    (REML, unstructured between-centre covariance, ``rma.mv``).
    ``grid`` (of the result) is then the pooled forecast of
    each group (``te_x``; its intervals in ``grid_intervals``), the curve
    and bands the pooled observed proportion (``te_y`` and its normal
    confidence and :math:`t_{k-2}` prediction intervals), ``tau2`` its
    between-centre variance and ``cluster_estimate`` each centre's observed
    proportion in each group (at the centre's own mean forecast).  The
    between-centre correlation is often on its boundary (:math:`\pm 1`),
    where the package's optimiser stops early: agreement to about 1e-4.  A
    group held by a single centre is left out, as CGC does.  Not here: its
    ``method = "interval"`` and ``univariate = TRUE`` (``meta::metaprop``).

    References
    ----------
    .. [1] L. Barreñada, B. De Cock Campo, L. Wynants and B. Van Calster,
       "Clustered flexible calibration plots for binary outcomes using
       random effects modeling", Research Synthesis Methods, 2025,
       doi:10.1017/rsm.2025.10046.
    .. [2] J. P. T. Higgins, S. G. Thompson and D. J. Spiegelhalter, "A
       re-evaluation of random-effects meta-analysis", Journal of the Royal
       Statistical Society A 172, 137-159, 2009.

    Examples
    --------
    Five centres of 300 patients, forecasts calibrated in each:

    >>> import numpy as np
    >>> from skbrier.stats import clustered_calibration_curve
    >>> p = np.random.default_rng(0).uniform(0.05, 0.9, (5, 300))
    >>> y = np.random.default_rng(1).binomial(1, p)
    >>> res = clustered_calibration_curve(
    ...     y.ravel(), p.ravel(), groups=np.repeat(np.arange(5), 300), grid=[0.2, 0.5, 0.8]
    ... )
    >>> bool(np.all(res.prediction_lower <= res.lower))
    True
    >>> bool(np.all(np.abs(res.estimate - res.grid) < 0.1))
    True

    The mixed-effects curve of the same centres, with a random intercept:

    >>> mixc = clustered_calibration_curve(
    ...     y.ravel(), p.ravel(), groups=np.repeat(np.arange(5), 300), grid=10,
    ...     approach="MIXC", random_effects="intercept",
    ... )
    >>> mixc.cluster_estimate.shape, bool(np.all(mixc.lower <= mixc.estimate))
    ((5, 10), True)
    """
    level = check_confidence_level(confidence_level)
    approach = check_option(approach, "approach", ("MAC2", "MIXC", "CGC"))
    bins = check_int(n_bins, "n_bins", minimum=5, maximum=1000)
    random_effects = check_option(random_effects, "random_effects", ("slope", "intercept"))
    centre_fit = check_option(centre_fit, "centre_fit", ("spline", "logistic"))
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    labels, codes = check_groups(groups, y.shape[0])
    ww = np.ones_like(p) if w is None else w
    n = np.bincount(codes, weights=ww, minlength=len(labels))
    events = np.bincount(codes, weights=ww * y, minlength=len(labels))
    both = (events > 0) & (events < n)
    if not both.all():
        warnings.warn(
            f"groups: the centres {labels[~both].tolist()} hold a single outcome "
            "class (or no rows of positive weight) and are left out of the curve.",
            UserWarning,
            stacklevel=2,
        )
    if int(both.sum()) < 2:
        raise ValueError(
            f"groups holds {int(both.sum())} centre(s) with both outcome classes: "
            "a clustered calibration curve needs at least 2."
        )
    g = _grid(grid, p[(ww > 0) & np.isin(codes, np.flatnonzero(both))])
    kept = np.flatnonzero(both)
    grid_intervals = None
    index = np.cumsum(both) - 1  # centre code -> position among the kept
    if approach != "MAC2":
        _no_weights(w, approach)
    if approach == "MIXC":
        rows = np.isin(codes, kept) & (p > 0.0) & (p < 1.0)
        pooled, cluster_curves = _mixc(
            y[rows], p[rows], index[codes[rows]], kept.shape[0], g, random_effects, level
        )
        cluster_se = np.full_like(cluster_curves, np.nan)
        knots = np.full(kept.shape[0], 3, dtype=np.intp)
    elif approach == "CGC":
        rows = np.isin(codes, kept)
        pooled, grid_intervals, cluster_curves = grouped_calibration(
            y[rows], p[rows], index[codes[rows]], kept.shape[0], bins, level
        )
        g, pooled = pooled[0], pooled[1:]
        cluster_se = np.full_like(cluster_curves, np.nan)
        knots = np.zeros(kept.shape[0], dtype=np.intp)
    else:
        pooled, cluster_curves, cluster_se, knots = _mac2(
            y, p, w, codes, kept, labels, g, level, centre_fit
        )
    keep = (ww > 0) & np.isin(codes, kept)
    est, lo, hi, pl, ph, tau2 = pooled
    labels = np.asarray(labels)
    return ClusteredCalibrationCurve(
        grid=g,
        estimate=est,
        lower=lo,
        upper=hi,
        prediction_lower=pl,
        prediction_upper=ph,
        tau2=tau2,
        clusters=labels[kept],
        cluster_estimate=cluster_curves,
        cluster_standard_error=cluster_se,
        n=n[kept],
        n_knots=knots,
        removed_clusters=labels[~both],
        confidence_level=level,
        approach=approach,
        grid_intervals=grid_intervals,
        _data=(y[keep], p[keep], None if w is None else w[keep]),
    )
