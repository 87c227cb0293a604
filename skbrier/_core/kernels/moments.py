"""Per-observation Brier losses and the scores that are functions of their means.

Validation-free maths shared by :mod:`skbrier.stats.inference`,
:mod:`skbrier.stats.compare` and the bootstrap.  Everything the inference layer
reports is a smooth function of (weighted) column means of a (T, m) matrix of
per-observation quantities:

* the *gradient* matrix ``G = [(Z - P)^2, (Z - R)^2]`` of Lahiri & Yang, whose
  column means are ``(BS, BS0)``; ``R`` is the reference forecast (for
  climatology ``R = Z-bar`` and the second mean is ``Z-bar (1 - Z-bar)``);
* the *bootstrap* matrix, in which climatology is represented by the
  outcome indicators themselves so that ``Z-bar`` is re-estimated on every
  resample (``BS0* = Z-bar* (1 - Z-bar*)``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple, TypedDict

import numpy as np

from .brier import (
    base_rate,
    brier_index_from_score,
    multiclass_squared_errors,
    skill_score,
)

METRICS = ("brier_score", "reference_brier_score", "brier_skill_score", "brier_index")


def weighted_column_means(x: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Column means of ``x`` (T, m), weighted by ``w`` (T,) if given."""
    if w is None:
        return x.mean(axis=0)
    return (w / w.sum()) @ x


class MetricValues(TypedDict):
    """The four scores of :data:`METRICS`, as returned by :func:`metric_values`."""

    brier_score: float
    reference_brier_score: float
    brier_skill_score: float
    brier_index: float


def metric_values(bs: float, bs0: float, index_scale: float) -> MetricValues:
    """BS, BS0, BSS and the Brier Index from the two scores.

    ``index_scale`` converts the Brier score to the [0, 1] scale of the Brier
    Index (1 for binary forecasts, 1/2 for the summed multiclass score).
    """
    return {
        "brier_score": float(bs),
        "reference_brier_score": float(bs0),
        "brier_skill_score": skill_score(bs, bs0),
        "brier_index": brier_index_from_score(index_scale * bs),
    }


def metric_gradient(metric: str, bs: float, bs0: float, index_scale: float) -> np.ndarray:
    """Gradient of ``metric`` with respect to ``(BS, BS0)`` (delta method).

    * brier_score: ``(1, 0)``;
    * reference_brier_score: ``(0, 1)``;
    * brier_skill_score ``1 - BS/BS0``: ``(-1/BS0, BS/BS0^2)``, so that
      ``var = (O11 + (BS/BS0)^2 O22 - 2 (BS/BS0) O12) / BS0^2``;
    * brier_index ``100 (1 - sqrt(c BS))``: ``(-50 c / sqrt(c BS), 0)``
      (``c = index_scale``; ``-50 / sqrt(BS)`` for binary forecasts).
    """
    if metric == "brier_score":
        return np.array([1.0, 0.0])
    if metric == "reference_brier_score":
        return np.array([0.0, 1.0])
    if metric == "brier_skill_score":
        return np.array([-1.0 / bs0, bs / (bs0 * bs0)])
    if metric == "brier_index":
        return np.array([-50.0 * index_scale / np.sqrt(index_scale * bs), 0.0])
    raise ValueError(f"unknown metric {metric!r}")  # pragma: no cover - checked upstream


def delta_variance(grad: np.ndarray, cov: np.ndarray) -> float:
    """``grad' cov grad`` written out as in the seed's recipe (no cancellation surprises)."""
    a, b = float(grad[0]), float(grad[1])
    v = a * a * cov[0, 0] + b * b * cov[1, 1] + 2.0 * a * b * cov[0, 1]
    return float(v)


def delta_standard_error(grad: np.ndarray, cov: np.ndarray) -> float:
    """``sqrt(grad' cov grad)``, scaled so that huge gradients do not overflow.

    With ``s = max |grad|`` it is ``s * sqrt((grad/s)' cov (grad/s))``: finite
    whenever the standard error itself is representable (a reference Brier
    score of 1e-200 gives gradients of 1e200 whose squares would overflow).
    Negative rounding residues of the quadratic form are clipped to 0.
    """
    g = np.asarray(grad, dtype=np.float64)
    s = float(np.max(np.abs(g)))
    if s == 0.0 or not np.isfinite(s):
        return 0.0 if s == 0.0 else float("nan")
    with np.errstate(over="ignore"):
        return float(s * np.sqrt(max(delta_variance(g / s, cov), 0.0)))


def metric_standard_error(
    metric: str, bs: float, bs0: float, index_scale: float, cov: np.ndarray
) -> float:
    """Delta-method standard error of ``metric`` from the covariance of ``(BS, BS0)``.

    The skill score's gradient ``(-1, BS/BS0) / BS0`` is applied as
    ``se((-1, BS/BS0)) / BS0`` so that a tiny ``BS0`` does not overflow its
    square.  NaN where the gradient itself is not finite.
    """
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        if metric == "brier_skill_score":
            r = np.float64(bs) / np.float64(bs0)
            return float(delta_standard_error(np.array([-1.0, r]), cov) / bs0)
        return delta_standard_error(metric_gradient(metric, bs, bs0, index_scale), cov)


def replicate_std(x: np.ndarray, axis: int = -1) -> np.ndarray | float:
    """Standard deviation (``ddof=1``) of replicates, scaled so that huge values
    do not overflow; infinite where a replicate is (no numpy warning)."""
    x = np.asarray(x, dtype=np.float64)
    s = np.max(np.abs(x), axis=axis, keepdims=True)
    s = np.where((s > 0) & np.isfinite(s), s, 1.0)
    with np.errstate(invalid="ignore"):  # inf - inf: the spread is unbounded
        out = np.std(x / s, ddof=1, axis=axis) * np.squeeze(s, axis=axis)
    out = np.where(np.isinf(x).any(axis=axis), np.inf, out)
    return float(out) if np.ndim(out) == 0 else out


class Moments(NamedTuple):
    r"""Mergeable centred moments of the rows ``h`` (n, k) of positive weight.

    ``M2`` is :math:`\sum_i w_i (h_i - \bar h)(h_i - \bar h)'` about the
    weighted mean :math:`\bar h`; :func:`moment_reduce` makes them from rows,
    :func:`merge_moments` pools two, :func:`mean_covariance` finishes them.
    """

    n: int
    weight: float
    mean: np.ndarray
    m2: np.ndarray
    low: np.ndarray
    high: np.ndarray


def moment_reduce(xp: Any, h: Any, w: Any = None) -> Moments:
    """Reduce the rows ``h`` (n, k) of positive weight ``w`` to their
    :class:`Moments` (host arrays), in the namespace ``xp`` of the rows.

    The weighted cross-products are summed with the relative weights
    ``w / W`` and scaled back, so that frequency weights of any finite scale
    neither overflow nor underflow.

    Examples
    --------
    >>> import numpy as np
    >>> m = moment_reduce(np, np.array([[0.0], [1.0], [2.0]]))
    >>> m.n, m.weight, float(m.mean[0]), float(m.m2[0, 0])
    (3, 3.0, 1.0, 2.0)
    """
    from ..array_api import to_numpy

    k = int(h.shape[1])
    if w is not None:
        pos = w > 0.0
        if not bool(xp.all(pos)):
            h, w = h[pos, ...], w[pos]
    n = int(h.shape[0])
    if n == 0:
        inf = np.full(k, np.inf)
        return Moments(0, 0.0, np.zeros(k), np.zeros((k, k)), inf, -inf)
    if w is None:
        total = float(n)
        mean = xp.mean(h, axis=0)
        c = h - mean
        m2 = c.T @ c
    else:
        total = float(xp.sum(w))
        rel = w / total
        mean = rel @ h
        c = h - mean
        m2 = ((c * rel[:, None]).T @ c) * total
    mean, m2, lo, hi = (
        np.asarray(to_numpy(a), dtype=np.float64)
        for a in (mean, m2, xp.min(h, axis=0), xp.max(h, axis=0))
    )
    return Moments(n, total, mean, m2, lo, hi)


def merge_moments(a: tuple, b: tuple) -> tuple:
    """Chan, Golub and LeVeque's (1983) pairwise update of two moment tuples
    ``(n, W, mean, M2, min, max)``; the weight products are
    taken as ``W_a (W_b / W)``, so that huge frequency weights do not
    overflow.

    Examples
    --------
    >>> import numpy as np
    >>> h = np.array([[0.0], [1.0], [2.0], [5.0]])
    >>> m = merge_moments(moment_reduce(np, h[:1]), moment_reduce(np, h[1:]))
    >>> float(m.m2[0, 0]) == float(moment_reduce(np, h).m2[0, 0])
    True
    """
    na, wa, ma, sa, loa, hia = a
    nb, wb, mb, sb, lob, hib = b
    if wb == 0.0:
        return Moments(*a)
    if wa == 0.0:
        return Moments(*b)
    w = wa + wb
    share = wb / w
    d = mb - ma
    m2 = sa + sb + np.outer(d, d) * (wa * share)
    return Moments(
        na + nb, w, ma + d * share, m2, np.minimum(loa, lob), np.maximum(hia, hib)
    )


def mean_covariance(moments: tuple, ddof: int = 1) -> np.ndarray:
    r"""Covariance of the (weighted) column means for independent rows,
    :math:`M_2 / ((W - \mathrm{ddof}) W)` of :class:`Moments` (taken as
    :math:`(M_2 / W) / (W - \mathrm{ddof})`: no overflow for huge weights).

    With *frequency* weights (the total weight ``W`` is the sample size) it is
    exactly the unweighted value of the data with row ``t`` repeated ``w_t``
    times; ``ddof=1`` is R's ``cov``, as in Lahiri & Yang.  The caller
    ensures ``W > ddof``.

    Examples
    --------
    >>> import numpy as np
    >>> m = moment_reduce(np, np.array([[0.0], [1.0], [2.0]]))
    >>> float(mean_covariance(m)[0, 0])  # var 1 over 3 rows
    0.3333333333333333
    """
    w = float(moments[1])
    return (moments[3] / w) / (w - float(ddof))


def iid_mean_covariance(g: np.ndarray, w: np.ndarray | None, ddof: int = 1) -> np.ndarray:
    """Covariance of the (weighted) column means of ``g`` for independent
    rows: :func:`mean_covariance` of :func:`moment_reduce` (one chunk)."""
    return mean_covariance(moment_reduce(np, g, w), ddof)


def weighted_scores(g: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Scores whose long-run covariance gives the covariance of the weighted means.

    Unweighted: ``g`` itself (``lrvar`` demeans).  Weighted: the estimating
    functions of the weighted mean rescaled by the bread,
    ``u_t = (T w_t / sum w) (g_t - gbar_w)``, so that
    ``long_run_covariance(u)`` equals
    ``sandwich::kernHAC(lm(g ~ 1, weights = w))`` for positive weights.  The
    scores do not change when every weight is multiplied by a constant; a
    zero-weight row keeps its place in the series with a score of 0.
    """
    if w is None:
        return g
    t = g.shape[0]
    rel = w / w.sum()
    return (g - rel @ g) * (t * rel)[:, None]


# --------------------------------------------------------------------------
# per-observation quantities
# --------------------------------------------------------------------------
def brier_losses(fc) -> tuple[np.ndarray, float, float]:
    """Per-sample Brier losses on the ``scale_by_half='auto'`` scale.

    Returns ``(losses, half, index_scale)``: ``half`` is the factor applied to
    the summed multiclass losses, ``index_scale`` converts to the [0, 1]
    scale of the Brier Index.
    """
    if fc.binary_1d:
        d = fc.proba - fc.y
        return d * d, 1.0, 1.0
    k = fc.proba.shape[1]
    half = 0.5 if k < 3 else 1.0
    return half * multiclass_squared_errors(fc.y, fc.proba), half, 1.0 if k < 3 else 0.5


def onehot(fc) -> np.ndarray:
    k = fc.proba.shape[1]
    oh = np.zeros((fc.y.shape[0], k))
    oh[np.arange(fc.y.shape[0]), fc.y] = 1.0
    return oh


@dataclasses.dataclass(frozen=True)
class BrierStatistic:
    """The bootstrap statistic of :class:`Design` (rows BS, BS0, BSS, BI of
    resampled columns), a picklable callable of scalars only."""

    weighted: bool
    climatology: bool
    half: float
    index_scale: float

    def __call__(self, *cols: np.ndarray, axis: int = -1) -> np.ndarray:
        if self.weighted:
            wts = np.moveaxis(cols[-1], axis, -1)
            sw = np.sum(wts, axis=-1)
            # one pass per column, no (size, n) product held; a resample of
            # zero weight (a block bootstrap's) gives NaN, counted by the caller
            with np.errstate(divide="ignore", invalid="ignore"):
                means = [
                    np.einsum("...i,...i->...", np.moveaxis(c, axis, -1), wts) / sw
                    for c in cols[:-1]
                ]
        else:
            means = [np.mean(c, axis=axis) for c in cols]
        bs = means[0]
        if self.climatology:
            bs0 = sum(m * (1.0 - m) for m in means[1:]) * (
                1.0 if len(means) == 2 else self.half
            )
        else:
            bs0 = means[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            bss = np.where(bs0 > 0, 1.0 - bs / np.where(bs0 > 0, bs0, 1.0), np.nan)
        bi = 100.0 * (1.0 - np.sqrt(self.index_scale * bs))
        return np.stack(np.broadcast_arrays(bs, bs0, bss, bi), axis=0)


class Design:
    """Validated inputs turned into the gradient and bootstrap matrices.

    ``fc`` is a validated :class:`skbrier._core.validation.Forecast`; ``ref`` the
    reference as :func:`skbrier._core.validation.check_reference` returns it (None,
    a float or an array shaped like ``fc.proba``).
    """

    def __init__(self, fc: Any, ref: Any):
        losses, half, self.index_scale = brier_losses(fc)
        w = fc.sample_weight
        self.w = w
        self.n = losses.shape[0]
        self.half = half
        self._fc = fc
        # the gradient matrix, filled in place (no n-long temporaries beyond
        # the losses; the bootstrap matrix is made only when a bootstrap needs it)
        g = np.empty((self.n, 2))
        g[:, 0] = losses
        del losses
        r = g[:, 1]
        if ref is None:
            self.reference_kind = "climatology"
            if fc.binary_1d:
                z = fc.y
                # the base rate from the class totals: exactly 0 or 1 when one
                # class has no positive weight
                zbar = base_rate(z, w)[1]
                np.subtract(z, zbar, out=r)
                np.square(r, out=r)
            else:
                oh = onehot(fc)
                freq = weighted_column_means(oh, w)
                r[:] = half * ((oh - freq) ** 2).sum(axis=1)
        elif isinstance(ref, float):
            self.reference_kind = "constant"
            z = fc.y if fc.binary_1d else (fc.y == 1).astype(np.float64)
            np.subtract(z, ref, out=r)
            np.square(r, out=r)
        else:
            self.reference_kind = "forecast"
            if fc.binary_1d:
                r[:] = (ref - fc.y) ** 2
            else:
                r[:] = half * multiclass_squared_errors(fc.y, ref)
        self.g = g

    @property
    def boot(self) -> np.ndarray:
        """The bootstrap matrix: the losses and, for climatology, the outcome
        indicators (``Z-bar`` re-estimated on every resample), else the
        reference losses."""
        if self.reference_kind != "climatology":
            return self.g
        z = self._fc.y if self._fc.binary_1d else onehot(self._fc)
        return np.column_stack([self.g[:, 0], z])

    def statistic_for(self, weighted: bool) -> BrierStatistic:
        """Vectorised bootstrap statistic: rows BS, BS0, BSS, BI (picklable:
        the results that keep it for their intervals pickle).

        ``weighted``: the last sample holds the (resampled) weights.
        """
        return BrierStatistic(
            weighted, self.reference_kind == "climatology", self.half, self.index_scale
        )

    def boot_columns(self) -> list[np.ndarray]:
        boot = self.boot
        return [np.ascontiguousarray(boot[:, j]) for j in range(boot.shape[1])]
