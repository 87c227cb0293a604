"""The JSON view of a :class:`CalibrationReport` (strict JSON: no NaN)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.params import check_int

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = ["comparison_to_dict", "dumps", "jsonable", "report_to_dict", "reports_to_dict"]


def jsonable(obj: Any) -> Any:
    """Plain JSON types: NaN/inf become None, numpy scalars Python numbers."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        return v if math.isfinite(v) else None
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    return str(obj)


def dumps(obj: Any, *, indent: int | None = 2) -> str:
    """Strict JSON text of :func:`jsonable` data; ``indent`` a count of spaces or None."""
    if indent is not None:
        indent = check_int(indent, "indent", minimum=0)
    return json.dumps(jsonable(obj), indent=indent, allow_nan=False)


def _estimate(rep: CalibrationReport, metric: str, value: float | None) -> dict:
    ci = rep.confidence_interval(rep.confidence_level, metric=metric)
    return {
        "estimate": value,
        "ci_low": None if ci is None else ci[0],
        "ci_high": None if ci is None else ci[1],
        "ci_method": None if ci is None else rep.interval_methods.get(metric),
    }


def _val_prob(rep: CalibrationReport) -> dict | None:
    lg = rep.logistic
    if lg is None:
        return None
    return {
        "Dxy": rep.dxy,
        "C": rep.c_statistic,
        "D": lg.discrimination_index,
        "D_chi2": lg.lr_chi2,
        "D_p_value": rep.discrimination_pvalue,
        "U": lg.unreliability_index,
        "U_chi2": lg.unreliability_chi2,
        "U_df": rep.unreliability_df,
        "U_p_value": lg.unreliability_pvalue,
        "Q": lg.quality_index,
        "R2": lg.r2,
        "n_excluded": lg.n_excluded,
    }


def report_to_dict(rep: CalibrationReport) -> dict:
    """Every number of the report as JSON-ready Python values."""
    d: dict[str, Any] = {
        "name": rep.name,
        "n_samples": rep.n_samples,
        "n_events": rep.n_events,
        "prevalence": rep.prevalence,
        "mean_forecast": rep.mean_forecast,
        "cov_type": rep.cov_type,
        "confidence_level": rep.confidence_level,
        "n_resamples": rep.n_resamples,
    }
    for metric in (
        "brier_score",
        "brier_index",
        "brier_skill_score",
        "observed_expected",
        "calibration_in_the_large",
        "calibration_intercept",
        "calibration_slope",
    ):
        d[metric] = _estimate(rep, metric, getattr(rep, metric))
    d.update(
        {
            "spiegelhalter": {"z": rep.spiegelhalter_z, "p_value": rep.spiegelhalter_p},
            "lowess": None
            if rep.emax is None
            else {"emax": rep.emax, "e90": rep.e90, "eavg": rep.eavg},
            "ece": {
                "value": rep.ece,
                "n_bins": rep.ece_n_bins,
                "strategy": rep.ece_strategy,
            },
            "c_statistic": _estimate(rep, "c_statistic", rep.c_statistic),
            "dxy": rep.dxy,
            "lowess_curve": rep.lowess_curve,
            "val_prob": _val_prob(rep),
            "decomposition": rep.decomposition,
            "net_benefit": rep.net_benefit,
            "subgroups": None if rep.subgroups is None else rep.subgroups.to_dict(),
            "notes": list(rep.notes),
        }
    )
    return jsonable(d)


def comparison_to_dict(comparison: Any) -> dict | None:
    """The paired comparison of several reports
    (:func:`skbrier.report._compare.paired_comparison`) as JSON-ready data:
    the section the text and HTML show (None for fewer than two reports).

    ``pairs``: one entry per pair scored on the same rows (difference = first
    minus second, with its interval, the Brier Index difference and the
    p-value); ``net_benefit``: ``[{threshold, first, second, difference}]``;
    ``reason``: why some pairs are not compared (None when all are).
    """
    if comparison is None:
        return None
    pairs = [
        {
            "first": pc.first,
            "second": pc.second,
            "brier_score_difference": {"estimate": pc.difference, "ci": pc.ci},
            "brier_index_difference": {
                "estimate": pc.brier_index_difference,
                "ci": pc.brier_index_ci,
            },
            "pvalue": pc.pvalue,
            "cov_type": pc.cov_type,
        }
        for pc in comparison.pairs
    ]
    net_benefit = [
        {"threshold": t, "first": a, "second": b, "difference": d}
        for t, diffs in comparison.net_benefit.items()
        for (a, b), d in diffs.items()
    ]
    return jsonable(
        {
            "confidence_level": comparison.confidence_level,
            "pairs": pairs,
            "net_benefit": net_benefit,
            "reason": comparison.reason,
        }
    )


def reports_to_dict(reports: Mapping[str, CalibrationReport]) -> dict:
    """Several reports and their paired comparison as JSON-ready data:
    ``{"reports": [report_to_dict(r), ...], "comparison": {...}}``, the
    comparison being :func:`comparison_to_dict` of
    :func:`skbrier.report._compare.paired_comparison` (the section the text and
    HTML show; with one report it is None, and when no pair scores the same rows
    its ``pairs`` are empty and ``reason`` says why).
    """
    from ._compare import paired_comparison

    return {
        "reports": [rep.to_dict() for rep in reports.values()],
        "comparison": comparison_to_dict(paired_comparison(reports)),
    }
