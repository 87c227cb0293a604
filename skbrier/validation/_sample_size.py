r"""Minimum sample size for the external validation of a binary-outcome model.

Riley et al. (2021) ask for a validation sample large enough to estimate
four measures to a target confidence-interval width: O/E, the calibration
slope, the C statistic and (at a clinical threshold) the standardized net
benefit; the sample size is the largest of the four.  pmvalsampsize (R, and
its Python port) computes the calibration-slope criterion by simulating a
million linear predictors; :func:`validation_sample_size` offers the same
expectations by exact numerical integration (``expectation_method="quadrature"``) and
pmvalsampsize's own simulation (``expectation_method="simulation"``, equal to the port to
the integer).  :meth:`ValidationSampleSizeResult.achieved_precision` turns
the question round for an audit already done.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import special, stats

from .._core.format import format_number
from .._core.optional import import_optional
from .._core.params import (
    check_confidence_level,
    check_int,
    check_option,
    check_real,
)
from .._core.results import Result
from .._core.validation import check_scalar_probability
from ._criteria import (
    C_MAX_N,
    LABELS,
    PMVALSAMPSIZE_Z,
    c_statistic_sample_size,
    net_benefit_standard_error,
    observed_expected_standard_error,
    positive,
    standardized_net_benefit_variance,
)
from ._lp import (
    LPDistribution,
    check_lp_distribution,
    cstat_mixture,
    solve_cstat_mean,
)
from ._lp import lp_distribution as make_lp_distribution

__all__ = ["ValidationSampleSizeResult", "validation_sample_size"]

#: pmvalsampsize's ``lpcstat`` search: tolerance, step and most steps
_CSTAT_TOLERANCE = 5e-4
_CSTAT_INCREMENT = 0.1
_CSTAT_MAX_STEPS = 10_000


# --------------------------------------------------------------------------- the LP
def _calibration_terms(lp: np.ndarray, slope: float) -> np.ndarray:
    """The Fisher-information integrands of the calibration model
    ``logit P(y = 1) = 0 + slope * LP`` (pmvalsampsize's expressions)."""
    e = np.exp(slope * lp)
    d = (1 + e) ** 2
    return np.array([e / d, lp * e / d, lp * lp * e / d])


def _quadrature_terms(
    dist: LPDistribution, slope: float, threshold: float | None
) -> dict[str, float]:
    """I00, I01, I11, the mean risk, and the sensitivity and specificity at
    ``threshold`` of a calibrated model, all by quadrature."""

    # the integrands of _calibration_terms, written with expit: the quadrature
    # reaches log odds of several hundred, where exp(LP) / (1 + exp(LP))^2 is nan
    def g(x: np.ndarray) -> np.ndarray:
        q = special.expit(slope * x)
        d = q * (1 - q)
        return np.array([d, x * d, x * x * d, q, 1 - q])

    cut = math.inf if threshold is None else float(special.logit(threshold))
    below, above = dist.expect(g, cut)
    total = below + above
    out = {"i00": total[0], "i01": total[1], "i11": total[2], "mean_risk": total[3]}
    if threshold is not None:
        out["sensitivity"] = above[3] / total[3]
        out["specificity"] = below[4] / total[4]
    return {k: float(v) for k, v in out.items()}


def _simulated_lp(
    kind: str,
    params: tuple[float, ...],
    frozen: Any,
    c_statistic: float,
    prevalence: float,
    size: int,
    rs: np.random.RandomState,
) -> np.ndarray:
    """pmvalsampsize's simulated linear predictors (its calls, in its order)."""
    if kind != "cstat":
        return make_lp_distribution(kind, params, frozen).draw(size, rs)
    m2 = params[0]
    var = 2 * (stats.norm.ppf(c_statistic) ** 2)

    def attempt(m: float) -> tuple[np.ndarray, float]:
        outcome = rs.binomial(n=1, p=prevalence, size=size)
        lp = stats.norm.rvs(loc=m, scale=math.sqrt(var), size=size, random_state=rs)
        lp2 = stats.norm.rvs(loc=m + var, scale=math.sqrt(var), size=size, random_state=rs)
        lp[outcome == 1] = lp2[outcome == 1]
        p = np.exp(lp) / (1 + np.exp(lp))
        test = rs.binomial(n=1, p=p, size=size)
        return lp, abs(prevalence - test.mean())

    lp, diff = attempt(m2)
    if diff <= _CSTAT_TOLERANCE:
        return lp
    m2 += _CSTAT_INCREMENT
    lp, diff_new = attempt(m2)
    step = _CSTAT_INCREMENT if diff_new < diff else -_CSTAT_INCREMENT
    for _ in range(_CSTAT_MAX_STEPS):
        if not diff_new > _CSTAT_TOLERANCE:
            return lp
        m2 += step
        lp, diff_new = attempt(m2)
    raise ValueError(
        "lp_distribution ('cstat', ...): pmvalsampsize's search for the non-event mean "
        f"did not reach the prevalence within {_CSTAT_TOLERANCE} in {_CSTAT_MAX_STEPS} "
        "steps. Use expectation_method='quadrature' (which solves for it) or more n_simulations."
    )


def _simulated_terms(
    lp: np.ndarray, slope: float, threshold: float | None, rs: np.random.RandomState
) -> dict[str, float]:
    """The information and the rounded sensitivity and specificity of a
    simulated sample, as pmvalsampsize (positive: risk strictly above)."""
    i00, i01, i11 = (float(t.mean()) for t in _calibration_terms(lp, slope))
    p = np.exp(lp) / (1 + np.exp(lp))
    out = {"i00": i00, "i01": i01, "i11": i11, "mean_risk": float(p.mean())}
    if threshold is not None:
        outcome = rs.binomial(n=1, p=p, size=lp.shape[0])
        treated = (p > threshold).astype(np.int64)
        events = int(outcome.sum())
        if not 0 < events < outcome.shape[0]:
            raise ValueError(
                f"lp_distribution: the {outcome.shape[0]} simulated outcomes are all "
                f"{'non-events' if events == 0 else 'events'} (mean risk "
                f"{float(p.mean()):.3g}), so the sensitivity and specificity at the "
                "threshold are undefined. Check the distribution of the linear "
                "predictor, or use expectation_method='quadrature'."
            )
        out["sensitivity"] = round(np.float64(treated[outcome == 1].mean()), 3)
        out["specificity"] = 1 - round(np.float64(treated[outcome == 0].mean()), 3)
    return out


# --------------------------------------------------------------------------- result
@dataclasses.dataclass(frozen=True, repr=False)
class ValidationSampleSizeResult(Result):
    """The minimum size of a validation sample, per criterion and overall.

    Attributes
    ----------
    sample_size : int
        The overall minimum: the largest of the criteria.
    events : int
        The events expected in it, ``ceil(sample_size * prevalence)``.
    binding : str
        The criterion that sets ``sample_size``.
    sample_sizes : dict of str to int
        The minimum per criterion: ``"observed_expected"``,
        ``"calibration_slope"``, ``"c_statistic"`` and, with a threshold,
        ``"standardized_net_benefit"``.
    anticipated : dict of str to float
        The anticipated value of each measure.
    standard_errors : dict of str to float
        The standard error each criterion targets (log scale for O/E; at the
        criterion's n for the C statistic).
    ci_widths : dict of str to float
        The target interval widths.
    prevalence : float
        The anticipated outcome prevalence.
    expectation_method : str
        ``"quadrature"`` or ``"simulation"``.
    confidence_level : float
        The level of the target intervals.
    lp_distribution : str
        The assumed distribution of the linear predictor.
    mean_risk : float
        The mean predicted risk under it (compare with ``prevalence``).
    fisher_information : tuple of float
        ``(I00, I01, I11)``, the information per patient of the calibration
        model's intercept and slope.
    threshold, sensitivity, specificity, net_benefit : float or None
        The clinical threshold and the anticipated sensitivity, specificity
        and net benefit there (None without a threshold).
    n_simulations, seed : int or None
        The simulation's size and seed (``expectation_method="simulation"``).

    Examples
    --------
    >>> from skbrier.validation import validation_sample_size
    >>> res = validation_sample_size(prevalence=0.018, c_statistic=0.8,
    ...                              lp_distribution=("normal", -5, 2.5), oe_ci_width=1)
    >>> res.sample_size, res.binding
    (4554, 'calibration_slope')
    """

    sample_size: int
    events: int
    binding: str
    sample_sizes: dict
    anticipated: dict
    standard_errors: dict
    ci_widths: dict
    prevalence: float
    expectation_method: str
    confidence_level: float
    lp_distribution: str
    mean_risk: float
    fisher_information: tuple
    threshold: float | None = None
    sensitivity: float | None = None
    specificity: float | None = None
    net_benefit: float | None = None
    n_simulations: int | None = None
    seed: int | None = None

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "sample_size",
        "events",
        "binding",
        "prevalence",
        "expectation_method",
    )

    def _summary_rows(self) -> list[tuple[str, str]]:
        rows = [
            (
                LABELS[k],
                f"n = {n} ({math.ceil(n * self.prevalence)} events); anticipated "
                f"{format_number(self.anticipated[k])}, SE "
                f"{format_number(self.standard_errors[k])}, CI width "
                f"{format_number(self.ci_widths[k])}",
            )
            for k, n in self.sample_sizes.items()
        ]
        rows.append(
            (
                "minimum",
                f"n = {self.sample_size} ({self.events} events; set by the "
                f"{LABELS[self.binding]})",
            )
        )
        rows.append(("expectation_method", self.expectation_method))
        return rows

    def to_frame(self) -> Any:
        """One row per criterion, as pmvalsampsize's table (needs pandas)."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        return pd.DataFrame(
            [
                {
                    "criterion": k,
                    "sample_size": n,
                    "events": math.ceil(n * self.prevalence),
                    "anticipated": self.anticipated[k],
                    "standard_error": self.standard_errors[k],
                    "ci_width": self.ci_widths[k],
                }
                for k, n in self.sample_sizes.items()
            ]
        )

    def achieved_precision(
        self, y_true: ArrayLike, y_proba: ArrayLike, **kwargs: Any
    ) -> Any:
        """The precision an audit achieved against this result's targets.

        :func:`~skbrier.achieved_precision` with this result's
        interval widths, threshold and confidence level.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary outcomes of the validation sample.
        y_proba : array-like of shape (n_samples,)
            The model's predicted probabilities.
        **kwargs
            Every other keyword argument of :func:`~skbrier.achieved_precision`
            (``sample_weight``, ``pos_label``, ``n_resamples``,
            ``random_state``) but the targets, threshold and confidence level,
            which come from this result.

        Returns
        -------
        AchievedPrecisionResult

        Examples
        --------
        >>> import numpy as np
        >>> from skbrier.validation import validation_sample_size
        >>> plan = validation_sample_size(prevalence=0.3, c_statistic=0.75,
        ...                               lp_distribution=("normal", -1, 1))
        >>> rng = np.random.default_rng(0)
        >>> p = 1 / (1 + np.exp(-rng.normal(-1, 1, 400)))
        >>> y = rng.uniform(size=400) < p
        >>> plan.achieved_precision(y, p).met["calibration_slope"]
        False
        """
        from ._precision import achieved_precision

        return achieved_precision(
            y_true,
            y_proba,
            oe_ci_width=self.ci_widths["observed_expected"],
            slope_ci_width=self.ci_widths["calibration_slope"],
            c_ci_width=self.ci_widths["c_statistic"],
            threshold=self.threshold,
            nb_ci_width=self.ci_widths.get("standardized_net_benefit", 0.2),
            confidence_level=self.confidence_level,
            **kwargs,
        )


# --------------------------------------------------------------------------- public
def validation_sample_size(
    *,
    prevalence: float,
    c_statistic: float,
    lp_distribution: Any,
    oe: float = 1.0,
    oe_ci_width: float = 0.2,
    calibration_slope: float = 1.0,
    slope_ci_width: float = 0.2,
    c_ci_width: float = 0.1,
    threshold: float | None = None,
    sensitivity: float | None = None,
    specificity: float | None = None,
    nb_ci_width: float = 0.2,
    confidence_level: float = 0.95,
    expectation_method: Literal["quadrature", "simulation"] = "quadrature",
    n_simulations: int = 1_000_000,
    seed: int = 123456,
) -> ValidationSampleSizeResult:
    r"""Minimum sample size to validate a binary-outcome prediction model.

    The criteria of Riley et al. (2021), as R's and Python's
    ``pmvalsampsize``; the sample size is the largest of them.

    1. **O/E** to an interval of width ``oe_ci_width``: with
       :math:`\mathrm{SE}(\log O/E)^2 = (1 - \phi) / (n \phi)`,
       :math:`n = (1 - \phi) / (\phi s^2)` and
       :math:`s = \operatorname{asinh}(W / (2\,O/E)) / z`.
    2. **Calibration slope** to width ``slope_ci_width``:
       :math:`n = I_{00} / (s^2 (I_{00} I_{11} - I_{01}^2))`, :math:`s = W/(2z)`,
       with the Fisher information per patient of the calibration model
       :math:`\operatorname{logit} P(y = 1) = \beta_0 + \beta_1 \mathrm{LP}`,
       :math:`I_{jk} = E[\mathrm{LP}^{j+k} p(1 - p)]`,
       :math:`p = \operatorname{expit}(\beta_1 \mathrm{LP})` (:math:`\beta_0 = 0`,
       :math:`\beta_1` the anticipated ``calibration_slope``), the expectation
       over the assumed distribution of the linear predictor LP.
    3. **C statistic** to width ``c_ci_width``, by Newcombe's variance.
    4. **Standardized net benefit** at ``threshold`` :math:`t` to width
       ``nb_ci_width``: :math:`n = V / s^2`, :math:`s = W / (2z)`, with
       :math:`V = \mathrm{Se}(1 - \mathrm{Se})/\phi + w^2 \mathrm{Sp}(1 -
       \mathrm{Sp})/(1 - \phi) + w^2 (1 - \mathrm{Sp})^2 / (\phi(1 - \phi))`,
       :math:`w = (1 - \phi)/\phi \cdot t / (1 - t)`, from the anticipated
       sensitivity and specificity (given, or those of a calibrated model
       with that LP distribution).

    Parameters
    ----------
    prevalence : float
        The anticipated outcome prevalence :math:`\phi` of the validation
        population, in (0, 1).
    c_statistic : float
        The anticipated C statistic, in (0, 1).
    lp_distribution : tuple or frozen scipy.stats distribution
        The assumed distribution of the linear predictor (log odds of the
        predicted risk) in the validation population:

        * ``("normal", mean, sd)``: LP normal (pmvalsampsize's ``lpnormal``);
        * ``("beta", a, b)``: predicted risks Beta(a, b) (``lpbeta``);
        * ``("cstat", mean0)``: non-events :math:`N(m, v)`, events
          :math:`N(m + v, v)` with :math:`v = 2 \Phi^{-1}(C)^2` (so that their
          C statistic is ``c_statistic``), mixed in the proportion
          ``prevalence``, with :math:`m` such that the mean risk is the
          prevalence (``lpcstat``; ``mean0`` starts the simulation's search;
          the quadrature solves for :math:`m`);
        * a frozen continuous distribution of the LP (``scipy.stats.t(5,
          -2, 1)``).
    oe : float, default=1
        The anticipated O/E ratio.
    oe_ci_width : float, default=0.2
        Target width of the O/E interval.
    calibration_slope : float, default=1
        The anticipated calibration slope :math:`\beta_1` of the
        information matrix.  pmvalsampsize takes it as a label only and
        computes with 1: ``expectation_method="simulation"`` equals it for 1.
    slope_ci_width : float, default=0.2
        Target width of the calibration slope's interval.
    c_ci_width : float, default=0.1
        Target width of the C statistic's interval.
    threshold : float, default=None
        The clinical risk threshold of the net-benefit criterion (None: no
        such criterion).
    sensitivity, specificity : float, default=None
        The anticipated sensitivity and specificity at ``threshold`` (both or
        neither; None: those of a calibrated model with this LP distribution).
    nb_ci_width : float, default=0.2
        Target width of the standardized net benefit's interval.
    confidence_level : float, default=0.95
        The level of the target intervals (``"simulation"``: 0.95 only,
        pmvalsampsize's :math:`z = 1.96`).
    expectation_method : {"quadrature", "simulation"}, default="quadrature"
        How the expectations over the linear predictor are computed
        (``method`` is the interval method in skbrier).
        ``"quadrature"``: every expectation by numerical integration over
        the LP distribution (no Monte-Carlo error) and every standard error
        solved exactly, with :math:`z = \Phi^{-1}((1 + \text{level}) / 2)`.
        ``"simulation"``: pmvalsampsize's procedure, step for step:
        ``n_simulations`` linear predictors drawn with numpy's legacy
        generator seeded by ``seed``, :math:`z = 1.96`, standard errors
        searched in steps of 1e-4 (the net benefit's then rounded to 3
        decimals), sensitivity and specificity simulated, classified as
        positive above (not at) the threshold and rounded to 3 decimals.
        It equals the Python port (pmvalsampsize 0.2.1) to the integer.
    n_simulations : int, default=1_000_000
        Simulated patients (``"simulation"`` only).
    seed : int, default=123456
        Seed of the simulation (``"simulation"`` only; pmvalsampsize's default).

    Returns
    -------
    ValidationSampleSizeResult
        The minimum per criterion and overall; ``to_frame()`` gives
        pmvalsampsize's table and ``achieved_precision(y, p)`` checks an
        audit against the same targets.

    Raises
    ------
    ValueError
        A probability outside (0, 1), a width or O/E that is not positive,
        only one of sensitivity and specificity, or ``"simulation"`` with a
        level other than 0.95.
    TypeError
        An option of the wrong type.

    See Also
    --------
    achieved_precision : The widths an audit achieved, against these targets.

    Notes
    -----
    The quadrature and the simulation estimate the same expectations; the
    quadrature's calibration-slope n lies within the simulation's
    Monte-Carlo error (about 0.3 % with a million patients) of
    pmvalsampsize's.  Where no simulation is involved they differ only by
    pmvalsampsize's rounding: its O/E standard error is the first multiple
    of 1e-4 at or above the exact one, so its n is up to about 0.4 % smaller
    (and its interval slightly wider than the target); its 1.96 is
    :math:`\Phi^{-1}(0.975) = 1.959964` rounded.  The Python port reports a
    standardized net benefit equal to the sensitivity (a line-continuation
    slip; its sample size is unaffected); here it is
    :math:`\mathrm{Se} - (1 - \mathrm{Sp})(1 - \phi)/\phi \cdot t/(1-t)`.

    References
    ----------
    .. [1] R. D. Riley, T. P. A. Debray, G. S. Collins, L. Archer, J. Ensor,
       M. van Smeden and K. I. E. Snell, "Minimum sample size for external
       validation of a clinical prediction model with a binary outcome",
       Stat Med 40, 4230-4251, 2021.
    .. [2] L. Archer, K. I. E. Snell, J. Ensor, M. T. Hudda, G. S. Collins and
       R. D. Riley, "Minimum sample size for external validation of a
       clinical prediction model with a continuous outcome", Stat Med 40,
       133-146, 2021.
    .. [3] R. G. Newcombe, "Confidence intervals for an effect size measure
       based on the Mann-Whitney statistic. Part 2", Stat Med 25, 559-573,
       2006.
    .. [4] J. Ensor, pmvalsampsize (R package); R. Whittle and J. Ensor,
       pmvalsampsize (Python package).

    Examples
    --------
    Riley et al.'s heart-valve example (prevalence 1.8 %, C 0.8, LP normal
    with mean -5 and SD 2.5, O/E to an interval of width 1):

    >>> from skbrier.validation import validation_sample_size
    >>> res = validation_sample_size(prevalence=0.018, c_statistic=0.8,
    ...                              lp_distribution=("normal", -5, 2.5),
    ...                              oe_ci_width=1, threshold=0.08)
    >>> res.sample_sizes
    {'observed_expected': 906, 'calibration_slope': 4554, 'c_statistic': 4252, 'standardized_net_benefit': 11024}
    >>> res.sample_size, res.events
    (11024, 199)
    """
    prev = check_scalar_probability(prevalence, name="prevalence", open_interval=True)
    c = check_scalar_probability(c_statistic, name="c_statistic", open_interval=True)
    kind, params, frozen = check_lp_distribution(lp_distribution)
    oe = positive(oe, "oe")
    widths = {
        "observed_expected": positive(oe_ci_width, "oe_ci_width"),
        "calibration_slope": positive(slope_ci_width, "slope_ci_width"),
        "c_statistic": positive(c_ci_width, "c_ci_width"),
    }
    slope = check_real(calibration_slope, "calibration_slope")
    expectation_method = check_option(
        expectation_method, "expectation_method", ("quadrature", "simulation")
    )
    level = check_confidence_level(confidence_level)
    t = (
        None
        if threshold is None
        else check_scalar_probability(threshold, name="threshold", open_interval=True)
    )
    if (sensitivity is None) != (specificity is None):
        raise ValueError(
            "sensitivity and specificity go together: give both (the anticipated "
            "accuracy at the threshold) or neither (those of the LP distribution)."
        )
    sens_spec = None
    if sensitivity is not None:
        if t is None:
            raise ValueError(
                "sensitivity and specificity need the threshold at which they hold: "
                "give threshold=."
            )
        sens_spec = (
            check_scalar_probability(sensitivity, name="sensitivity"),
            check_scalar_probability(specificity, name="specificity"),
        )
    if t is not None:
        widths["standardized_net_benefit"] = positive(nb_ci_width, "nb_ci_width")
    simulate = expectation_method == "simulation"
    if simulate:
        if level != 0.95:
            raise ValueError(
                "expectation_method='simulation' is pmvalsampsize's procedure, with z = 1.96: "
                f"confidence_level must be 0.95, got {format_number(level)}. Use "
                "expectation_method='quadrature' for other levels."
            )
        n_sim = check_int(n_simulations, "n_simulations", minimum=2)
        seed = check_int(seed, "seed", minimum=0)
        z = PMVALSAMPSIZE_Z
    else:
        z = float(stats.norm.ppf(0.5 + level / 2))

    # 1. O/E: closed form
    se_oe = observed_expected_standard_error(
        widths["observed_expected"], oe, z, grid=simulate
    )
    sizes = {"observed_expected": math.ceil((1 - prev) / (prev * se_oe**2))}
    ses = {"observed_expected": se_oe}

    # 2. calibration slope: the information over the LP distribution
    need_rates = t is not None and sens_spec is None
    if simulate:
        rs = np.random.RandomState(seed)
        lp = _simulated_lp(kind, params, frozen, c, prev, n_sim, rs)
        terms = _simulated_terms(lp, slope, t if need_rates else None, rs)
        dist_label = _describe(kind, params, frozen)
    else:
        if kind == "cstat":
            mean0, var = solve_cstat_mean(c, prev)
            dist = cstat_mixture(mean0, var, prev)
        else:
            dist = make_lp_distribution(kind, params, frozen)
        terms = _quadrature_terms(dist, slope, t if need_rates else None)
        dist_label = _describe(kind, dist.params, frozen)
    i00, i01, i11 = terms["i00"], terms["i01"], terms["i11"]
    if not (i00 * i11) - (i01 * i01) > 0:
        raise ValueError(
            "lp_distribution has (almost) no spread: the calibration slope cannot be "
            "estimated (the information matrix is singular). Give a wider distribution."
        )
    se_slope = widths["calibration_slope"] / (2 * z)
    sizes["calibration_slope"] = math.ceil(
        i00 / (se_slope * se_slope * ((i00 * i11) - (i01 * i01)))
    )
    ses["calibration_slope"] = se_slope

    # 3. C statistic: Newcombe's variance
    n_c, se_c = c_statistic_sample_size(
        c, prev, widths["c_statistic"], z, cap=C_MAX_N if simulate else None
    )
    sizes["c_statistic"] = n_c
    ses["c_statistic"] = se_c
    anticipated = {"observed_expected": oe, "calibration_slope": slope, "c_statistic": c}

    # 4. standardized net benefit
    sens = spec = nb = None
    if t is not None:
        sens, spec = (
            sens_spec if sens_spec else (terms["sensitivity"], terms["specificity"])
        )
        nb = sens * prev - (1 - spec) * (1 - prev) * (t / (1 - t))
        se_nb = net_benefit_standard_error(
            widths["standardized_net_benefit"], nb / prev, z, simulate
        )
        var_nb = standardized_net_benefit_variance(sens, spec, prev, t)
        sizes["standardized_net_benefit"] = math.ceil((1 / (se_nb**2)) * var_nb)
        ses["standardized_net_benefit"] = se_nb
        anticipated["standardized_net_benefit"] = nb / prev

    binding = max(sizes, key=lambda k: sizes[k])
    n = sizes[binding]
    return ValidationSampleSizeResult(
        sample_size=n,
        events=math.ceil(n * prev),
        binding=binding,
        sample_sizes=sizes,
        anticipated=anticipated,
        standard_errors=ses,
        ci_widths=widths,
        prevalence=prev,
        expectation_method=expectation_method,
        confidence_level=level,
        lp_distribution=dist_label,
        mean_risk=terms["mean_risk"],
        fisher_information=(i00, i01, i11),
        threshold=t,
        sensitivity=sens,
        specificity=spec,
        net_benefit=nb,
        n_simulations=n_sim if simulate else None,
        seed=seed if simulate else None,
    )


def _describe(kind: str, params: tuple[float, ...], frozen: Any) -> str:
    if kind == "normal":
        return (
            f"LP ~ normal(mean={format_number(params[0])}, sd={format_number(params[1])})"
        )
    if kind == "beta":
        return f"risk ~ beta({format_number(params[0])}, {format_number(params[1])})"
    if kind == "cstat":
        return (
            f"LP ~ two normals with C statistic (non-event mean {format_number(params[0])})"
        )
    name = getattr(getattr(frozen, "dist", None), "name", type(frozen).__name__)
    return f"LP ~ scipy.stats.{name}{tuple(getattr(frozen, 'args', ()))}"
