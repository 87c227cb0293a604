"""``platt_calibration_error`` on dask input: the in-memory composition,
each step a map-reduce.

1. The ECE before: :func:`~._multiclass.calibration_error` (HELM's
   equal-mass bins from the exact order statistics of :mod:`._select`, then
   one pass of the bins' sums); it validates the rows as in memory.
2. The Platt fit: the maximum-likelihood logistic fit of :mod:`._fits` on
   the confidences clipped as HELM clips them (one pass counts, one
   map-reduce per Newton step; only sums reach the client).
3. The ECE after and the 1-bin ECE: the same reductions of the Platt-scaled
   confidences, mapped partition by partition (``transform``: the recalibrated
   forecasts are never a collection of their own).  When the log-odds
   separate the outcomes, the limit of the fit needs the boundary log-odds
   and the accuracy of the answers tied there: two more map-reduces.

``solver="helm"`` (scikit-learn's lbfgs, whose stopping point depends on the
rows it is given) is refused.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._core.diagnose import one_warning_per_call
from ..._core.dispatch import Call
from ..._core.params import check_n_bins, check_option
from ...states._fit import FitState
from . import _fits
from ._graph import map_rows, precomputed, reduce_state, tree_reduce, validated_rows
from ._metrics import _check_1d
from ._multiclass import calibration_error

__all__ = ["platt_calibration_error"]


def _outcomes(y: Any, pos: Any) -> np.ndarray:
    """One partition's 0/1 outcomes (``pos`` the positive label)."""
    y = np.asarray(y)
    if y.ndim == 2:  # a single column (the validation checked it)
        y = y[:, 0]
    return (y == pos).astype(np.float64)


class _Scaled:
    """``transform(y, p, w)``: the Platt-scaled confidences of a partition
    (``limit``: ``(edge, accuracy)`` of the separated fit's limit)."""

    def __init__(self, a: float, b: float, pos: Any, limit: tuple | None) -> None:
        self.a, self.b, self.pos, self.limit = a, b, pos, limit

    def __call__(self, y: Any, p: np.ndarray, w: np.ndarray | None) -> np.ndarray:
        from ...metrics.recalibration import _helm_logit, _platt_scaled, _tied_limit

        lp = _helm_logit(p)[1]
        if self.limit is None:
            return _platt_scaled(lp, self.a, self.b)
        return _tied_limit(_outcomes(y, self.pos), lp, w, *self.limit)


class _Boundary:
    """``func(y, p, w, cols)``: ``(min, -max)`` of the log-odds of a
    partition's right answers of positive weight (``(inf, inf)``: none)."""

    def __init__(self, pos: Any) -> None:
        self.pos = pos

    def __call__(self, y: Any, p: Any, w: Any, cols: dict) -> np.ndarray:
        from ...metrics.recalibration import _helm_logit

        rows = validated_rows(p, w)
        if rows is None:
            return np.full(2, math.inf)
        lp = _helm_logit(rows[0])[1]
        right = _outcomes(y, self.pos) == 1.0
        if rows[1] is not None:
            right &= rows[1] > 0
        if not right.any():
            return np.full(2, math.inf)
        return np.array([lp[right].min(), -lp[right].max()])


class _Ties:
    """``func(y, p, w, cols)``: ``[sum w y, sum w]`` over a partition's rows of
    positive weight at the boundary log-odds ``edge``."""

    def __init__(self, pos: Any, edge: float) -> None:
        self.pos, self.edge = pos, edge

    def __call__(self, y: Any, p: Any, w: Any, cols: dict) -> np.ndarray:
        from ...metrics.recalibration import _helm_logit

        rows = validated_rows(p, w)
        if rows is None:
            return np.zeros(2)
        tie = _helm_logit(rows[0])[1] == self.edge
        ww = np.ones(tie.shape[0]) if rows[1] is None else rows[1]
        tie &= ww > 0
        return np.array([np.dot(ww[tie], _outcomes(y, self.pos)[tie]), ww[tie].sum()])


def _separated(y_true, y_proba, sample_weight, pos, slope) -> tuple[float, float]:
    """``(edge, accuracy)`` of the separated fit's limit (two map-reduces)."""
    lo = tree_reduce(map_rows(_Boundary(pos), y_true, y_proba, sample_weight), np.minimum)
    edge = float(lo[0]) if slope > 0 else -float(lo[1])
    ties = map_rows(_Ties(pos, edge), y_true, y_proba, sample_weight)
    wy, wt = tree_reduce(ties, np.add)
    return edge, float(wy / wt)


@one_warning_per_call  # the public calls of the composition: each warning once
def platt_calibration_error(c: Call) -> Any:
    """The Dask adapter of :func:`skbrier.metrics.platt_calibration_error`."""
    from ...metrics._calibration_error_core import check_options
    from ...metrics.calibration import _check_fit_counts, _logistic_result
    from ...metrics.recalibration import _HELM_EPS, PlattCalibrationResult

    solver = check_option(c.solver, "solver", ("mle", "helm"))
    n_bins = check_n_bins(c.n_bins)
    if solver == "helm":
        raise ValueError(
            "solver='helm' is not available for dask input: it is scikit-learn's "
            "LogisticRegression(solver='lbfgs') fitted on all rows in memory, whose "
            "stopping point depends on the rows it is given; pass solver='mle' (the "
            "exact maximum-likelihood fit, computed by map-reduce), or compute it on "
            "the collected rows (e.g. ddf.compute())."
        )
    _check_1d(c.y_proba)
    y, p, w, pos_label = c.y_true, c.y_proba, c.sample_weight, c.pos_label
    o = check_options("l1", n_bins, "uniform", c.binning, False, True)
    kw: dict[str, Any] = {"kind": "binary", "sample_weight": w, "pos_label": pos_label}
    before = calibration_error(y, p, options=o, **kw)
    # as HELM clips (the rows are valid), in float64 as in memory: 1 - 1e-12
    # is 1 in float32, so float32 forecasts of 1 kept an infinite log-odds
    pc = p.astype(np.float64).clip(_HELM_EPS, 1.0 - _HELM_EPS)
    fit_state = reduce_state(FitState(pos_label=pos_label), y, pc, w)
    pos, _, _, _, single = fit_state.finalize()
    if single:
        return PlattCalibrationResult(math.nan, math.nan, 0.0, 0.0, before, n_bins)
    with precomputed([fit_state], y, pc, w):
        fit = _fits.calibration_intercept_slope(
            y,
            pc,
            sample_weight=w,
            pos_label=pos_label,
            check_counts=_check_fit_counts,
            result=lambda st, n, excl: _logistic_result(st, n, excl, stacklevel=6),
        )
    a, b = fit.intercept, fit.slope
    limit = _separated(y, p, w, pos, b) if math.isinf(b) else None
    scaled = _Scaled(a, b, pos, limit)
    after = calibration_error(y, p, options=o, transform=scaled, **kw)
    one = check_options("l1", 1, "uniform", None, False, True)
    one_bin = calibration_error(y, p, options=one, transform=scaled, **kw)
    return PlattCalibrationResult(b, a, after, one_bin, before, n_bins)
