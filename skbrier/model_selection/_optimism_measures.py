"""The measures of an internal validation, their no-information values and
the .632 / .632+ combination (no resampling here).

Every measure is computed by skbrier's own function (``brier_score``,
``brier_index``, ``c_statistic``, the twin ``_logistic_calibration`` of
``calibration_intercept_slope``, ``lowess_calibration_error`` and
``decision_curve``); this module only chooses them, evaluates them on the
rows of one resample and combines the results.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._core.arrays import validated
from .._core.kernels.logistic import logistic_calibration
from .._core.params import check_thresholds
from ..metrics.brier import brier_index, brier_score
from ..metrics.calibration import (
    _fit_sample,
    _logistic_result,
    c_statistic,
    lowess_calibration_error,
)
from ..metrics.net_benefit import decision_curve

__all__ = [
    "BASE_MEASURES",
    "MeasureSet",
    "combine_632",
    "harrell_632_weights",
]

#: each measure and its sense: +1 higher is better, -1 lower is better, 0 a
#: calibration quantity whose ideal is a value (no no-information value)
BASE_MEASURES: dict[str, int] = {
    "brier_score": -1,
    "brier_index": 1,
    "c_statistic": 1,
    "calibration_intercept": 0,
    "calibration_slope": 1,
    "calibration_in_the_large": 0,
    "ici": -1,
}
_LOGISTIC = {
    "calibration_intercept": "intercept",
    "calibration_slope": "slope",
    "calibration_in_the_large": "calibration_in_the_large",
}
#: Efron's weight of the out-of-bag performance
_W632 = 0.632  # Efron's 1 - exp(-1), rounded as Efron and pminternal


def _net_benefit_names(thresholds: np.ndarray) -> list[str]:
    """``net_benefit@t`` for each (distinct) threshold: ``t`` to 6 significant
    digits, or to as many more as tell the thresholds apart (0.2 and
    0.2000001 had the same name, and to_dict kept one of them)."""
    for digits in range(6, 18):
        names = [f"net_benefit@{t:.{digits}g}" for t in thresholds]
        if len(set(names)) == len(names):
            return names
    return [f"net_benefit@{float(t)!r}" for t in thresholds]  # pragma: no cover


class MeasureSet:
    """The chosen measures, evaluated as one vector on validated 0/1 ``y``, ``p``.

    Parameters
    ----------
    measures : sequence of str or None
        Names among :data:`BASE_MEASURES` (None: all of them).
    thresholds : array-like or None
        Thresholds of the net benefit measures (``net_benefit@t``).
    """

    def __init__(self, measures: Any, thresholds: Any) -> None:
        if measures is None:
            base = list(BASE_MEASURES)
        else:
            if isinstance(measures, str):
                measures = [measures]
            base = list(measures)
            unknown = [m for m in base if m not in BASE_MEASURES]
            if unknown or not base or len(set(base)) != len(base):
                raise ValueError(
                    f"measures must be distinct names among {tuple(BASE_MEASURES)}, "
                    f"got {measures!r}."
                )
        self.base = base
        self.thresholds = (
            np.empty(0) if thresholds is None else np.unique(check_thresholds(thresholds))
        )
        self.names = base + _net_benefit_names(self.thresholds)
        self.sense = np.array(
            [BASE_MEASURES[m] for m in base] + [1] * self.thresholds.size, dtype=np.int8
        )

    def __len__(self) -> int:
        return len(self.names)

    def __call__(
        self, y: np.ndarray, p: np.ndarray, w: np.ndarray | None, *, ici: bool = True
    ) -> np.ndarray:
        """The measures on rows ``(y, p)`` with frequency weights ``w``.

        A measure undefined on these rows (one class only, say) is NaN.
        ``ici`` (lowess takes no weights) is computed on the rows repeated
        ``w`` times, so ``w`` must hold integers when it is asked for
        (``ici=False``: left NaN).
        """
        y = np.ascontiguousarray(y, dtype=np.float64)
        p = np.ascontiguousarray(p, dtype=np.float64)
        w = None if w is None else np.ascontiguousarray(w, dtype=np.float64)
        out = np.full(len(self.names), np.nan)
        if y.shape[0] == 0:  # a resample that left no row out: nothing to measure
            return out
        with validated(y, p, w):
            fit = None
            if any(name in _LOGISTIC for name in self.base):
                fit = _attempt(_recalibration, y, p, w)
            for k, name in enumerate(self.base):
                if name in _LOGISTIC:
                    out[k] = math.nan if fit is None else fit[_LOGISTIC[name]]
                elif name != "ici" or ici:
                    out[k] = _attempt(_MEASURE_FUNCTIONS[name], y, p, w, default=math.nan)
            if self.thresholds.size:
                dc = _attempt(
                    lambda: decision_curve(
                        y, p, thresholds=self.thresholds, sample_weight=w
                    )
                )
                if dc is not None:
                    out[len(self.base) :] = dc.net_benefit
        return out

    def no_information(
        self, y: np.ndarray, p: np.ndarray, w: np.ndarray | None
    ) -> np.ndarray:
        r"""The no-information value :math:`\gamma` of each measure (Efron & Tibshirani 1997).

        The measure on the no-information data: every outcome paired with
        every prediction, which keeps the predictions and makes the outcome
        independent of them.  Its :math:`n^2` pairs are ``2 n`` weighted
        rows (an event with each prediction :math:`p_j`, weight
        :math:`\bar y w_j`, and a non-event with each, weight
        :math:`(1 - \bar y) w_j`), on which each measure is computed by its
        own function: the Brier score is then
        :math:`\bar y - 2 \bar y \bar p + \overline{p^2}`, C is 1/2 and the
        slope 0.  ``ici``: on those pairs the lowess curve is the constant
        :math:`\bar y` (every prediction has the same share of events), so
        :math:`\gamma = \sum_j w_j |p_j - \bar y| / \sum_j w_j`.  The
        calibration intercepts have none (NaN): their ideal is a value, not
        a direction.
        """
        ww = np.ones_like(p) if w is None else w
        share = ww / ww.sum()
        ybar = float(np.dot(share, y))
        w2 = np.r_[ybar * share, (1.0 - ybar) * share]
        keep = w2 > 0
        y2 = np.r_[np.ones_like(p), np.zeros_like(p)][keep]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the slope-0 fit of independent pairs
            gamma = self(y2, np.r_[p, p][keep], w2[keep], ici=False)
        if "ici" in self.base:
            gamma[self.base.index("ici")] = float(np.dot(share, np.abs(p - ybar)))
        gamma[self.sense == 0] = np.nan
        return gamma


def _attempt(compute: Any, *args: Any, default: Any = None) -> Any:
    """``compute(*args)``, or ``default`` when the measure is undefined (ValueError)."""
    try:
        return compute(*args)
    except ValueError:
        return default


def _recalibration(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> dict:
    r"""The calibration intercept, slope and calibration in the large of ``(y, p)``.

    Forecasts that separate the outcomes have no finite logistic
    recalibration: the fit diverges along :math:`a = -b c` with
    :math:`b \to \pm\infty` and :math:`c` a logit between the classes, so
    the slope and intercept are returned infinite (R's ``glm`` stops at a
    large, arbitrary finite value), without the warning of
    :func:`~skbrier.calibration_intercept_slope`: the estimates they enter
    are undefined, and :func:`internal_validation` warns once, counting the
    resamples (``_optimism_core.warn_separated``).
    """
    yk, pk, wk, n_excl = _fit_sample(y, p, w)
    st = logistic_calibration(yk, pk, wk, lr=False)
    if st.status != "separated":
        fit = _logistic_result(st, int(yk.shape[0]), n_excl, stacklevel=6)
        return {k: getattr(fit, k) for k in _LOGISTIC.values()}
    lg = np.log(pk) - np.log1p(-pk)
    high, low = (yk == 1, yk == 0) if st.slope > 0 else (yk == 0, yk == 1)
    c = 0.5 * (float(lg[low].max()) + float(lg[high].min()))
    return {
        "intercept": math.copysign(math.inf, -st.slope * c) if c else math.inf,
        "slope": st.slope,
        "calibration_in_the_large": st.citl,
    }


def _ici(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> float:
    if w is not None:
        rows = np.repeat(np.arange(y.shape[0]), w.astype(np.int64))
        y, p = y[rows], p[rows]
    return float(lowess_calibration_error(y, p).eavg)


_MEASURE_FUNCTIONS: dict[str, Any] = {
    "brier_score": lambda y, p, w: float(brier_score(y, p, sample_weight=w)),
    "brier_index": lambda y, p, w: float(brier_index(y, p, sample_weight=w)),
    "c_statistic": lambda y, p, w: float(c_statistic(y, p, sample_weight=w)),
    "ici": _ici,
}


def harrell_632_weights(omitted: np.ndarray) -> np.ndarray:
    r"""The weight of each resample in Harrell's .632 estimate (``rms::predab.resample``).

    ``omitted``: boolean ``(B, n)``, row ``b`` marking the observations left
    out of resample ``b``.  With :math:`N_j` the number of resamples that
    leave out observation :math:`j`,
    :math:`w_b = 1 - (1/B - \sum_j [j \notin b] / N_j / n)`; pminternal
    computes the same.  Raises ``ValueError`` when an observation is in
    every resample.
    """
    B, n = omitted.shape
    nomit = omitted.sum(axis=0)
    if np.any(nomit == 0):
        raise ValueError(
            f"{int(np.count_nonzero(nomit == 0))} observations are in every one of the "
            f"{B} resamples, so the out-of-bag performance (.632 and .632+) is "
            "undefined for them: increase n_bootstrap."
        )
    return 1.0 - (1.0 / B - (omitted / nomit).sum(axis=1) / n)


def combine_632(
    apparent: np.ndarray, out_of_bag: np.ndarray, gamma: np.ndarray, sense: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""``(relative_overfitting, corrected_632, corrected_632plus)`` of each measure.

    Efron & Tibshirani (1997) in the measure's loss orientation
    :math:`L = -s\,m` (:math:`s` its sense): with apparent :math:`e`,
    out-of-bag :math:`E_1` and no-information :math:`\gamma`,
    :math:`\hat R = (\min(E_1, \gamma) - e) / (\gamma - e)` when
    :math:`E_1 > e` and :math:`\gamma > e`, else 0;
    :math:`\hat m_{.632} = 0.368\, e + 0.632\, E_1` and
    :math:`\hat m_{.632+} = \hat m_{.632} + (\min(E_1, \gamma) - e)
    \frac{0.368 \cdot 0.632 \hat R}{1 - 0.368 \hat R}`.  A measure without
    :math:`\gamma` (sense 0) has :math:`\hat R = 0`: its .632+ estimate is
    the .632 one.
    """
    s = -sense.astype(np.float64)  # loss orientation
    e, e1, g = s * apparent, s * out_of_bag, s * gamma
    with np.errstate(invalid="ignore", divide="ignore"):
        clipped = np.minimum(e1, g)
        defined = (sense != 0) & (e1 > e) & (g > e)
        r = np.where(defined, (clipped - e) / (g - e), 0.0)
        r = np.where(np.isnan(e1) | np.isnan(e), np.nan, r)
        c632 = (1.0 - _W632) * apparent + _W632 * out_of_bag
        w = (1.0 - _W632) * _W632 * r / (1.0 - (1.0 - _W632) * r)
        plus = c632 + np.where(defined, (clipped - e) * w / s, 0.0)
    return r, c632, plus
