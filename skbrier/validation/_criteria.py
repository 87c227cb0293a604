"""The criteria of a validation sample size (Riley et al. 2021), one home each.

The formulas shared by :func:`~skbrier.validation.validation_sample_size`
(before a study) and :func:`~skbrier.validation.achieved_precision` (after
it): the standard error of log O/E for a target width, Newcombe's interval
of the C statistic, the variance of the standardized net benefit, and
pmvalsampsize's searches where it searches.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.format import format_number
from .._core.params import check_real

__all__ = [
    "CRITERIA",
    "C_MAX_N",
    "LABELS",
    "PMVALSAMPSIZE_Z",
    "SE_STEP",
    "c_statistic_sample_size",
    "net_benefit_standard_error",
    "observed_expected_standard_error",
    "positive",
    "standardized_net_benefit_variance",
]

#: the criteria, in pmvalsampsize's order (names of skbrier's metric vocabulary)
CRITERIA = (
    "observed_expected",
    "calibration_slope",
    "c_statistic",
    "standardized_net_benefit",
)

#: the measures in words
LABELS = {
    "observed_expected": "O/E",
    "calibration_slope": "calibration slope",
    "c_statistic": "C statistic",
    "standardized_net_benefit": "standardized net benefit",
}

#: pmvalsampsize's normal quantile, the step of its standard-error searches and
#: the largest sample size its C-statistic search tries
PMVALSAMPSIZE_Z = 1.96
SE_STEP = 1e-4
C_MAX_N = 1_000_000


def positive(value: Any, name: str) -> float:
    """A finite option > 0 (a width, an O/E ratio)."""
    return check_real(value, name, low=0.0, inclusive=(False, True))


def observed_expected_standard_error(
    width: float, oe: float, z: float, *, grid: bool = False
) -> float:
    r"""The standard error of :math:`\log(O/E)` whose interval has ``width``.

    The interval :math:`O/E \cdot e^{\pm z s}` has width
    :math:`2\,O/E \sinh(z s)`, so :math:`s = \operatorname{asinh}(W / (2\,O/E)) / z`.
    ``grid=True``: pmvalsampsize's search, the first multiple of 1e-4 (summed
    step by step, as it does) whose width reaches ``width``.
    """
    if not grid:
        return math.asinh(width / (2.0 * oe)) / z
    se, achieved = 0.0, 0.0
    while achieved < width:
        se += SE_STEP
        achieved = float(np.exp(np.log(oe) + z * se) - np.exp(np.log(oe) - z * se))
    return se


def _c_statistic_width(c: float, prevalence: float, n: np.ndarray, z: float) -> np.ndarray:
    """Newcombe's (2006) interval width of C at ``n`` patients (pmvalsampsize's
    expression, operation for operation)."""
    h = n / 2 - 1
    se2 = (
        c
        * (1 - c)
        * (1 + (h * ((1 - c) / (2 - c))) + ((h * c) / (1 + c)))
        / (n * n * prevalence * (1 - prevalence))
    )
    return 2 * z * np.sqrt(se2)


def c_statistic_sample_size(
    c: float, prevalence: float, width: float, z: float, *, cap: int | None = None
) -> tuple[int, float]:
    r"""The smallest n whose interval of the C statistic is at most ``width`` wide.

    Newcombe's variance
    :math:`C(1-C)\{1 + (n/2 - 1)(1-C)/(2-C) + (n/2-1)C/(1+C)\} / (n^2 \phi(1-\phi))`
    falls with n, so the root of a quadratic gives n (checked on the
    expression itself).  Returns ``(n, standard error at n)``; with ``cap``
    (pmvalsampsize's 1e6) a larger n is a ValueError.
    """
    a = (1 - c) / (2 - c) + c / (1 + c)
    s2 = (width / (2 * z)) ** 2
    qa = s2 * prevalence * (1 - prevalence)
    qb = c * (1 - c) * a / 2
    qc = c * (1 - c) * (1 - a)
    root = (qb + math.sqrt(qb * qb + 4 * qa * qc)) / (2 * qa)
    start = max(1, math.floor(root) - 2)
    sizes = np.arange(start, start + 6, dtype=np.float64)
    ok = _c_statistic_width(c, prevalence, sizes, z) <= width
    n = int(sizes[np.argmax(ok)])
    if cap is not None and n > cap:
        raise ValueError(
            f"c_ci_width={format_number(width)} needs more than {cap} patients for the "
            "C statistic; pmvalsampsize searches no further. Use expectation_method='quadrature'."
        )
    se = float(_c_statistic_width(c, prevalence, np.array([float(n)]), z)[0]) / (2 * z)
    return n, se


def standardized_net_benefit_variance(
    sensitivity: float, specificity: float, prevalence: float, threshold: float
) -> float:
    r"""n times the variance of the standardized net benefit (Riley et al. 2021).

    With :math:`w = (1 - \phi) / \phi \cdot t / (1 - t)`:
    :math:`\mathrm{Se}(1 - \mathrm{Se})/\phi + w^2 \mathrm{Sp}(1 - \mathrm{Sp})/(1-\phi)
    + w^2 (1 - \mathrm{Sp})^2 / (\phi (1 - \phi))`.
    """
    w = ((1 - prevalence) / prevalence) * (threshold / (1 - threshold))
    return (
        ((sensitivity * (1 - sensitivity)) / prevalence)
        + (w * w * specificity * (1 - specificity) / (1 - prevalence))
        + (w * w * (1 - specificity) * (1 - specificity) / (prevalence * (1 - prevalence)))
    )


def net_benefit_standard_error(width: float, snb: float, z: float, grid: bool) -> float:
    """The standard error of the standardized net benefit for ``width``
    (pmvalsampsize: a search by 1e-4, then rounded to 3 decimals)."""
    if not grid:
        return width / (2 * z)
    se, achieved = 0.0, 0.0
    while achieved < width:
        se += SE_STEP
        achieved = (snb + z * se) - (snb - z * se)
    return round(se, 3)
