"""Per-observation Brier losses and the scores that are functions of their means.

Validation-free maths shared by :mod:`skbrier.stats.inference`,
:mod:`skbrier.stats.compare` and the bootstrap.  Everything the inference layer
reports is a smooth function of (weighted) column means of a (T, m) matrix of
per-observation quantities:

* the *gradient* matrix ``G = [(Z - P)^2, (Z - R)^2]`` of seed 004, whose
  column means are ``(BS, BS0)``; ``R`` is the reference forecast (for
  climatology ``R = Z-bar`` and the second mean is ``Z-bar (1 - Z-bar)``);
* the *bootstrap* matrix, in which climatology is represented by the
  outcome indicators themselves so that ``Z-bar`` is re-estimated on every
  resample (``BS0* = Z-bar* (1 - Z-bar*)``).
"""

from __future__ import annotations

import numpy as np

METRICS = ("brier_score", "reference_brier_score", "brier_skill_score", "brier_index")


def weighted_column_means(x: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Column means of ``x`` (T, m), weighted by ``w`` (T,) if given."""
    if w is None:
        return x.mean(axis=0)
    return (w @ x) / w.sum()


def metric_values(bs: float, bs0: float, index_scale: float) -> dict[str, float]:
    """BS, BS0, BSS and the Brier Index from the two scores.

    ``index_scale`` converts the Brier score to the [0, 1] scale of the Brier
    Index (1 for binary forecasts, 1/2 for the summed multiclass score).
    """
    bss = 1.0 - bs / bs0 if bs0 != 0.0 else float("nan")
    return {
        "brier_score": float(bs),
        "reference_brier_score": float(bs0),
        "brier_skill_score": float(bss),
        "brier_index": float(100.0 * (1.0 - np.sqrt(index_scale * bs))),
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


def iid_mean_covariance(g: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Covariance of the (weighted) column means of ``g`` for independent rows.

    Unweighted: ``cov(g) / T`` with the ``T - 1`` denominator (R's ``cov``),
    as in seed 004.  Weighted: the HC1 sandwich of the weighted-mean
    estimating equations, ``T/(T-1) sum w^2 (g - gbar_w)(g - gbar_w)' / (sum w)^2``
    (equal to ``sandwich::vcovHC(lm(g ~ 1, weights = w), type = "HC1")``); it
    reduces to ``cov(g) / T`` for equal weights and does not change when all
    weights are multiplied by a constant.
    """
    t = g.shape[0]
    if w is None:
        c = g - g.mean(axis=0)
        return (c.T @ c) / ((t - 1.0) * t)
    sw = w.sum()
    c = (g - (w @ g) / sw) * (w / sw)[:, None]
    return (c.T @ c) * (t / (t - 1.0))


def weighted_scores(g: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Scores whose long-run covariance gives the covariance of the weighted means.

    Unweighted: ``g`` itself (``lrvar`` demeans).  Weighted: the estimating
    functions of the weighted mean rescaled by the bread,
    ``u_t = (T w_t / sum w) (g_t - gbar_w)``, so that
    ``long_run_covariance(u)`` equals
    ``sandwich::kernHAC(lm(g ~ 1, weights = w))``.
    """
    if w is None:
        return g
    t = g.shape[0]
    sw = w.sum()
    return (g - (w @ g) / sw) * (t * w / sw)[:, None]
