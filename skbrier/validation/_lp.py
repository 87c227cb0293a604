"""The assumed distribution of the linear predictor of a validation sample.

A distribution is a mixture of components, each a frozen
:mod:`scipy.stats` continuous distribution of a variable ``V`` and the map
from ``V`` to the linear predictor (the identity, or the logit when ``V`` is
a predicted probability).  :meth:`LPDistribution.expect` integrates a vector
of functions of the linear predictor over it, below and at-or-above a cut,
by adaptive quadrature in the variable's own quantiles (``ppf`` in the lower
half, ``isf`` in the upper half, so neither tail loses digits);
:meth:`LPDistribution.draw` draws from it as pmvalsampsize does.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import optimize, special, stats

from .._core.params import check_real

__all__ = ["LPDistribution", "check_lp_distribution"]


@dataclasses.dataclass(frozen=True)
class _Component:
    weight: float
    dist: Any  # a frozen scipy.stats continuous distribution of V
    #: the distribution of 1 - V when the linear predictor is logit(V) (V a
    #: probability), else None
    mirror: Any = None

    @property
    def logit(self) -> bool:
        return self.mirror is not None

    def lower(self, u: np.ndarray) -> np.ndarray:
        """The linear predictor at the lower quantiles ``u``."""
        v = self.dist.ppf(u)
        if not self.logit:
            return np.asarray(v, dtype=np.float64)
        with np.errstate(divide="ignore"):
            return special.logit(v)

    def upper(self, s: np.ndarray) -> np.ndarray:
        """The linear predictor at the upper quantiles ``1 - s`` (``1 - V`` is
        taken from its own distribution, so no digit is lost near 1)."""
        if not self.logit:
            return np.asarray(self.dist.isf(s), dtype=np.float64)
        with np.errstate(divide="ignore"):
            return -special.logit(self.mirror.ppf(s))

    def cut(self, c: float) -> float:
        """The value of V at which the linear predictor is ``c``."""
        return float(special.expit(c)) if self.logit else c


@dataclasses.dataclass(frozen=True)
class LPDistribution:
    """The linear predictor's distribution: components, and how it was specified.

    ``kind`` is ``"normal"``, ``"beta"``, ``"cstat"`` (the mixture of two
    normals of pmvalsampsize's ``lpcstat``) or ``"scipy"``; ``params`` the
    numbers given.
    """

    kind: str
    params: tuple[float, ...]
    components: tuple[_Component, ...]

    def expect(
        self, g: Callable[[np.ndarray], np.ndarray], cut: float = math.inf
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(E[g(X) 1(X < cut)], E[g(X) 1(X >= cut)])``.

        ``g`` maps an array of ``m`` linear predictors to an array of shape
        ``(k, m)`` (``k`` functions at once).  Non-finite linear predictors
        (a probability of exactly 0 or 1) carry no mass and count as 0.
        """
        below: Any = 0.0
        above: Any = 0.0
        for comp in self.components:
            d = comp.dist
            vc = comp.cut(cut)
            if math.isfinite(vc):
                lo, hi = float(d.cdf(vc)), float(d.sf(vc))
            else:
                lo, hi = (1.0, 0.0) if vc > 0 else (0.0, 1.0)

            def low(u: np.ndarray, comp: _Component = comp) -> np.ndarray:
                return _finite(g, comp.lower(u))

            def high(s: np.ndarray, comp: _Component = comp) -> np.ndarray:
                return _finite(g, comp.upper(s))

            # u = F(V) and s = 1 - F(V), each over (0, 1/2]: V < vc is u < lo
            b = _tanh_sinh(low, 0.0, min(lo, 0.5)) + _tanh_sinh(high, min(hi, 0.5), 0.5)
            a = _tanh_sinh(high, 0.0, min(hi, 0.5)) + _tanh_sinh(low, min(lo, 0.5), 0.5)
            below = below + comp.weight * b
            above = above + comp.weight * a
        # a side with no mass is the scalar 0 of _tanh_sinh: the other side's shape
        below, above = np.broadcast_arrays(
            np.asarray(below, dtype=np.float64), np.asarray(above, dtype=np.float64)
        )
        return below.copy(), above.copy()

    def draw(self, size: int, rs: np.random.RandomState) -> np.ndarray:
        """``size`` linear predictors drawn as pmvalsampsize draws them.

        ``lpnormal``: ``norm.rvs``; ``lpbeta``: ``beta.rvs`` then the log odds;
        a scipy distribution: its ``rvs``.  (The ``"cstat"`` mixture is drawn
        by :func:`skbrier.validation._sample_size` with its search.)
        """
        comp = self.components[0]
        v = comp.dist.rvs(size=size, random_state=rs)
        if comp.logit:
            return np.log(v / (1 - v))
        return np.asarray(v, dtype=np.float64)


#: tanh-sinh (double-exponential) nodes on (0, 1): t = k h for |t| <= 4.5, so the
#: nodes come within about 1e-52 of either end (Takahasi & Mori 1974)
_T = np.arange(-144, 145) / 32.0
_NODE = special.expit(np.pi * np.sinh(_T))
_WEIGHT = np.pi * np.cosh(_T) * _NODE * special.expit(-np.pi * np.sinh(_T)) / 32.0


def _tanh_sinh(f: Callable[[np.ndarray], np.ndarray], a: float, b: float) -> Any:
    """``int_a^b f(u) du`` by tanh-sinh quadrature (exact to about 1e-12 for the
    integrands here, whose only singularities are at the ends); 0 if ``b <= a``.

    The nodes near ``a`` are ``a + (b - a) x`` with ``x`` tiny but exact, so a
    tail at ``a = 0`` is reached without cancellation."""
    if not b > a:
        return 0.0
    return f(a + (b - a) * _NODE) @ (_WEIGHT * (b - a))


def _finite(g: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    """``g(x)`` with the columns of non-finite ``x`` set to 0."""
    ok = np.isfinite(x)
    out = np.asarray(g(np.where(ok, x, 0.0)), dtype=np.float64)
    return np.where(ok, out, 0.0)


def cstat_mixture(mean0: float, variance: float, prevalence: float) -> LPDistribution:
    """pmvalsampsize's ``lpcstat`` distribution with non-event mean ``mean0``.

    Non-events ``N(mean0, v)``, events ``N(mean0 + v, v)`` mixed in the
    proportion ``prevalence`` (their C statistic is ``Phi(sqrt(v / 2))``).
    """
    sd = math.sqrt(variance)
    return LPDistribution(
        "cstat",
        (mean0,),
        (
            _Component(1.0 - prevalence, stats.norm(mean0, sd)),
            _Component(prevalence, stats.norm(mean0 + variance, sd)),
        ),
    )


def solve_cstat_mean(c_statistic: float, prevalence: float) -> tuple[float, float]:
    """The non-event mean and the variance of the ``lpcstat`` mixture whose mean
    risk ``E[expit(LP)]`` is ``prevalence`` (pmvalsampsize searches it by
    simulation on a grid; here it is the root)."""
    variance = 2.0 * float(stats.norm.ppf(c_statistic)) ** 2

    def gap(m: float) -> float:
        below, _ = cstat_mixture(m, variance, prevalence).expect(
            lambda x: special.expit(x)[None]
        )
        return float(below[0]) - prevalence

    lo, hi = -10.0, 10.0
    while gap(lo) > 0:
        lo *= 2
    while gap(hi) < 0:
        hi *= 2
    return float(optimize.brentq(gap, lo, hi, xtol=1e-12)), variance


def check_lp_distribution(value: Any) -> tuple[str, tuple[float, ...], Any]:
    """``(kind, params, frozen)`` of ``lp_distribution`` (see validation_sample_size)."""
    if hasattr(value, "rvs") and hasattr(value, "ppf") and hasattr(value, "isf"):
        return "scipy", (), value
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise TypeError(
            "lp_distribution must be a tuple such as ('normal', mean, sd), "
            "('beta', a, b) or ('cstat', mean0), or a frozen scipy.stats distribution "
            f"of the linear predictor; got {value!r}."
        )
    if not value or value[0] not in ("normal", "beta", "cstat"):
        raise ValueError(
            "lp_distribution must start with 'normal', 'beta' or 'cstat', e.g. "
            f"('normal', -5, 2.5); got {value!r}."
        )
    kind = value[0]
    need = 2 if kind == "cstat" else 3
    if len(value) != need:
        what = "('cstat', mean0)" if kind == "cstat" else f"('{kind}', a, b)"
        raise ValueError(f"lp_distribution must be {what}; got {value!r}.")
    if kind == "normal":
        m = check_real(value[1], "lp_distribution mean")
        s = check_real(value[2], "lp_distribution sd", low=0.0, inclusive=(False, True))
        return kind, (m, s), stats.norm(m, s)
    if kind == "beta":
        a = check_real(value[1], "lp_distribution a", low=0.0, inclusive=(False, True))
        b = check_real(value[2], "lp_distribution b", low=0.0, inclusive=(False, True))
        return kind, (a, b), stats.beta(a, b)
    return kind, (check_real(value[1], "lp_distribution mean0"),), None


def lp_distribution(kind: str, params: tuple[float, ...], frozen: Any) -> LPDistribution:
    """The :class:`LPDistribution` of a checked specification (not ``"cstat"``)."""
    mirror = stats.beta(params[1], params[0]) if kind == "beta" else None
    return LPDistribution(kind, params, (_Component(1.0, frozen, mirror),))
