"""What a reliability diagram shows, read from a decomposition result.

:func:`display_kwargs` turns a :class:`~skbrier.metrics.decomposition.CORPDecomposition`,
:class:`~skbrier.metrics.decomposition.MurphyDecomposition` or
:class:`~skbrier.metrics.decomposition.MulticlassDecomposition` into the
arguments of :class:`~skbrier.plotting.reliability.ReliabilityDisplay`.  It
reads only the public fields of the results: no estimator internals, no
validation of data (the results hold validated numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._core.binning import assign_bins, uniform_edges
from .._core.params import check_confidence_level, check_option
from ..metrics._decomposition_results import (
    CORPDecomposition,
    MulticlassDecomposition,
    MurphyDecomposition,
    components_of,
)
from ._reliability_bins import INTERVALS, observed_frequency_interval
from ._reliability_draw import BAND_LABELS, as_curve_list

__all__ = [
    "check_components",
    "check_curves",
    "display_kwargs",
    "forecast_histogram",
    "step_vertices",
]

#: bins of the forecast histogram drawn under the diagram
_HIST_BINS = 20


def forecast_histogram(
    x: np.ndarray, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """``(edges, total weight per bin)`` of forecasts ``x`` on 20 equal bins."""
    edges = uniform_edges(_HIST_BINS)
    return edges, np.bincount(assign_bins(x, edges), weights=weights, minlength=_HIST_BINS)


def step_vertices(x: np.ndarray, c: np.ndarray, max_points: int = 1000):
    """Vertices of the drawn recalibration curve, without losing anything.

    The curve is constant on each PAV block and linear between blocks, so
    only the first and last forecast of each block matter.  Up to
    ``max_points`` distinct forecasts are kept as they are (markers show
    where the data are); more are reduced to the block ends.
    """
    if x.shape[0] <= max_points:
        return x, c
    change = np.diff(c) != 0
    keep = np.ones(x.shape[0], dtype=bool)
    keep[1:-1] = change[:-1] | change[1:]
    return x[keep], c[keep]


def _murphy_curve(r: MurphyDecomposition, interval: str | None) -> dict[str, Any]:
    keep = np.asarray(r.bin_weights) > 0
    x = np.asarray(r.bin_mean_forecast, dtype=np.float64)[keep]
    out = {
        "forecast": x,
        "observed": np.asarray(r.bin_observed_frequency, dtype=np.float64)[keep],
        "band_forecast": None,
        "band_lower": None,
        "band_upper": None,
        # the histogram of the forecasts on the decomposition's own bins
        "hist_edges": np.asarray(r.bin_edges, dtype=np.float64),
        "hist_weights": np.asarray(r.bin_weights, dtype=np.float64),
        "components": components_of(r, "murphy"),
    }
    if interval is not None:
        lo, hi = observed_frequency_interval(r, interval, r.confidence_level)
        out.update(band_forecast=x, band_lower=lo[keep], band_upper=hi[keep])
    return out


def _corp_curve(r: CORPDecomposition) -> dict[str, Any]:
    fx = np.asarray(r.forecast_values, dtype=np.float64)
    x, c = step_vertices(fx, np.asarray(r.recalibrated_values, dtype=np.float64))
    edges, hist = forecast_histogram(fx, np.asarray(r.value_weights, dtype=np.float64))
    out = {
        "forecast": x,
        "observed": c,
        "band_forecast": None,
        "band_lower": None,
        "band_upper": None,
        "hist_edges": edges,
        "hist_weights": hist,
        "components": components_of(r, "corp"),
    }
    if r.band_forecast is not None:
        out["band_forecast"] = np.asarray(r.band_forecast, dtype=np.float64)
        out["band_lower"] = np.asarray(r.band_lower, dtype=np.float64)
        out["band_upper"] = np.asarray(r.band_upper, dtype=np.float64)
    return out


def display_kwargs(result: Any, interval: str | None = "wilson") -> dict[str, Any]:
    """Arguments of ``ReliabilityDisplay`` that show a decomposition result.

    ``interval``: the per-bin intervals of a binned result (``"wilson"``,
    ``"clopper_pearson"`` or None), at the result's ``confidence_level``.

    Raises
    ------
    TypeError
        If ``result`` is not a decomposition result.
    """
    if isinstance(result, MulticlassDecomposition):
        per_class, labels = list(result.per_class), [str(c) for c in result.classes]
    elif isinstance(result, (CORPDecomposition, MurphyDecomposition)):
        per_class, labels = [result], None
    else:
        raise TypeError(
            "result must be a MurphyDecomposition, CORPDecomposition, "
            "MulticlassDecomposition or a fitted BrierDecomposition, got "
            f"{type(result).__name__}."
        )
    murphy = isinstance(per_class[0], MurphyDecomposition)
    if interval is not None:
        check_option(interval, "interval", INTERVALS)
    curves = [_murphy_curve(r, interval) if murphy else _corp_curve(r) for r in per_class]
    single = labels is None

    def pick(key):
        values = [c[key] for c in curves]
        if any(v is None for v in values):
            return None
        return values[0] if single else values

    comps = (
        curves[0]["components"]
        if single
        else {
            k: np.array([c["components"][k] for c in curves])
            for k in curves[0]["components"]
        }
    )
    edges = [c["hist_edges"] for c in curves]
    same_edges = all(np.array_equal(e, edges[0]) for e in edges)
    return {
        "forecast": pick("forecast"),
        "observed": pick("observed"),
        "band_forecast": pick("band_forecast"),
        "band_lower": pick("band_lower"),
        "band_upper": pick("band_upper"),
        "band_kind": (interval or "wilson") if murphy else "consistency",
        "confidence_level": float(per_class[0].confidence_level),
        "decomposition_method": "murphy" if murphy else "corp",
        "hist_edges": edges[0] if single or same_edges else edges,
        "hist_weights": pick("hist_weights"),
        "components": comps,
        "curve_labels": labels,
    }


def check_components(components: Any, n_curves: int) -> None:
    """``components``: None or a dict of numbers (one per curve)."""
    if components is None:
        return
    if not isinstance(components, Mapping):
        raise TypeError(
            f"components must be a dict of numbers, got {type(components).__name__}."
        )
    for key, value in components.items():
        if value is None:
            continue
        try:
            v = np.atleast_1d(np.asarray(value, dtype=np.float64))
        except (TypeError, ValueError):
            raise TypeError(
                f"components[{key!r}] must be a number, got {value!r}."
            ) from None
        if v.ndim != 1 or v.shape[0] not in (1, n_curves):
            raise ValueError(
                f"components[{key!r}] must hold one number per curve ({n_curves})."
            )


def check_curves(disp) -> tuple:
    """The checked curves of a display: ``(xs, ys, bxs, los, his, labels)``."""
    xs = as_curve_list(disp.forecast, "forecast")
    ys = as_curve_list(disp.observed, "observed")
    if xs is None or ys is None:
        raise ValueError("forecast and observed must be given.")
    if len(xs) != len(ys) or any(x.shape != y.shape for x, y in zip(xs, ys)):
        raise ValueError("forecast and observed must have the same shapes.")
    los = as_curve_list(disp.band_lower, "band_lower")
    his = as_curve_list(disp.band_upper, "band_upper")
    if (los is None) != (his is None):
        raise ValueError("band_lower and band_upper must be given together.")
    bxs = as_curve_list(disp.band_forecast, "band_forecast")
    if los is not None and his is not None:  # both or neither (checked above)
        if bxs is None:
            bxs = xs
        if (
            len(los) != len(xs)
            or len(bxs) != len(xs)
            or any(
                lo.shape != x.shape or hi.shape != x.shape
                for lo, hi, x in zip(los, his, bxs)
            )
        ):
            raise ValueError(
                "band_lower and band_upper must have the shape of band_forecast "
                "(default: forecast)."
            )
    if disp.decomposition_method not in ("corp", "murphy"):
        raise ValueError(
            "decomposition_method must be 'corp' or 'murphy', got "
            f"{disp.decomposition_method!r}."
        )
    check_option(disp.band_kind, "band_kind", tuple(BAND_LABELS))
    check_confidence_level(disp.confidence_level)
    if disp.curve_kind not in ("class", "model"):
        raise ValueError(f"curve_kind must be 'class' or 'model', got {disp.curve_kind!r}.")
    check_components(disp.components, len(xs))
    labels = disp.curve_labels
    if labels is not None:
        if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__"):
            raise TypeError(f"curve_labels must be a sequence of names, got {labels!r}.")
        labels = [str(c) for c in labels]
        if len(labels) != len(xs):
            raise ValueError(f"curve_labels has {len(labels)} names for {len(xs)} curves.")
    return xs, ys, bxs, los, his, labels
