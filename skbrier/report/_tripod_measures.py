"""The numbers of a TRIPOD+AI report, read from a :class:`CalibrationReport`
(its measures with intervals, the precision achieved, the distribution of
risks by outcome): used by the report (:mod:`._tripod`) and its page
(:mod:`._tripod_html`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.binning import weighted_quantile

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = [
    "JUDGES",
    "PERFORMANCE_MEASURES",
    "RISK_QUANTILES",
    "precision_rows",
    "risk_distribution",
]

#: the core measures: report metric -> label
PERFORMANCE_MEASURES = {
    "brier_score": "Brier score",
    "brier_index": "Brier Index",
    "brier_skill_score": "scaled Brier score",
    "c_statistic": "C statistic (AUROC)",
    "observed_expected": "O/E",
    "calibration_in_the_large": "calibration in the large",
    "calibration_slope": "calibration slope",
    "eavg": "ICI (Eavg, lowess)",
}
#: what each measure judges, in words
JUDGES = {
    "brier_score": "accuracy of the risks (0 is perfect)",
    "brier_index": "the Brier score on a 0-100 scale (100 is perfect)",
    "brier_skill_score": "skill against forecasting the prevalence (0: none)",
    "c_statistic": "discrimination (0.5 is chance, 1 perfect)",
    "observed_expected": "mean calibration: observed over expected events (ideal 1)",
    "calibration_in_the_large": "mean calibration on the log-odds scale (ideal 0)",
    "calibration_slope": "weak calibration (ideal 1; below 1: risks too extreme)",
    "eavg": "mean distance of the flexible curve from the diagonal (ideal 0)",
}

#: levels of the distribution of risks by outcome
RISK_QUANTILES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)


def _measure(d: dict, metric: str) -> dict:
    """``{"estimate", "ci_low", "ci_high", "ci_method"}`` of ``metric`` from the
    report's own :meth:`~CalibrationReport.to_dict`."""
    if metric == "eavg":  # no lowess curve (e.g. weights it cannot repeat): n/a
        return {
            "estimate": (d.get("lowess") or {}).get("eavg"),
            "ci_low": None,
            "ci_high": None,
            "ci_method": None,
        }
    return dict(d[metric])


def risk_distribution(rep: CalibrationReport) -> dict | None:
    """Quantiles and mean of the predicted risks among events and non-events."""
    if rep._data is None:
        return None
    y, p, w = rep._data
    out: dict[str, dict | None] = {}
    for label, mask in (("events", y == 1), ("non_events", y == 0)):
        wk = None if w is None else w[mask]
        if not mask.any() or (wk is not None and not wk.sum() > 0):
            out[label] = None
            continue
        q = weighted_quantile(p[mask], np.asarray(RISK_QUANTILES), wk)
        out[label] = {
            "n": float(mask.sum()) if wk is None else float(wk.sum()),
            "mean": float(np.average(p[mask], weights=wk)),
            "quantiles": {f"{k:g}": float(v) for k, v in zip(RISK_QUANTILES, q)},
        }
    return out


def _precision(rep: CalibrationReport, targets: dict[str, Any]) -> Any:
    """:func:`achieved_precision` on the report's rows (None without them), at
    its first net-benefit threshold and its confidence level; the reason (a
    str) where it is undefined for these forecasts."""
    from ..validation import achieved_precision

    if rep._data is None:
        return None
    y, p, w = rep._data
    rows = rep.net_benefit or []
    try:
        return achieved_precision(
            y,
            p,
            sample_weight=w,
            threshold=rows[0]["threshold"] if rows else None,
            confidence_level=rep.confidence_level,
            random_state=rep._figure_seed,
            **targets,
        )
    except ValueError as exc:  # e.g. hard 0/1 forecasts: no logistic calibration
        return str(exc)


def precision_rows(prec: Any) -> list[dict]:
    """One dict per measure of an :class:`AchievedPrecisionResult`: its
    estimate, interval, width, target, whether the target is met and the
    sample size that would meet it."""
    out = []
    for k, width in prec.widths.items():
        try:
            low, high = prec.confidence_interval(prec.confidence_level, metric=k)
        except ValueError:  # no interval on this sample (no finite standard error)
            low = high = math.nan
        out.append(
            {
                "measure": k,
                "estimate": prec.estimates[k],
                "ci_low": low,
                "ci_high": high,
                "width": width,
                "target": prec.targets[k],
                "met": prec.met[k],
                "sample_size_needed": prec.sample_size_needed[k],
            }
        )
    return out
