"""Figures of calibration reports (matplotlib imported lazily).

* :func:`comparison_svgs`: the figures of the HTML page, every model on one
  reliability diagram and on one decision curve, as inline SVG (text drawn
  as paths: no font is fetched, the page prints crisply);
* :func:`report_figures`: one report's figures as base64 PNG
  (:meth:`CalibrationReport.figures`).

The consistency band of a reliability diagram resamples the isotonic fit
(R reliabilitydiag's rule).  Above :data:`GRID` distinct forecasts it is
computed on the forecasts rounded to a grid of ``1 / GRID`` (at most
``GRID + 1`` groups, so 200 resamples take a fraction of a second at any
size); the curve itself is always the exact isotonic fit.  With sample
weights the resampling draws rows, so above :data:`MAX_WEIGHTED_BAND_SAMPLES`
weighted rows the band is left out and the page says so.
"""

from __future__ import annotations

import base64
import io
import re
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = [
    "FIG_WIDTH_IN",
    "GRID",
    "MAX_WEIGHTED_BAND_SAMPLES",
    "MIN_FONT_PT",
    "comparison_svgs",
    "consistency_band",
    "legible",
    "plain_text_label",
    "report_figures",
]

#: resolution of the forecasts the consistency band is resampled on
GRID = 1000
#: resamples of the consistency band
BAND_RESAMPLES = 200
#: weighted rows above which the band is left out (it draws rows then)
MAX_WEIGHTED_BAND_SAMPLES = 100_000
#: width of the report's figures: on a 390 px phone (366 px of content) the
#: SVG scales by about 366 / (72 * FIG_WIDTH_IN) = 1.06 px per point
FIG_WIDTH_IN = 4.8
#: no text of the report's figures is smaller (ticks of insets, legends):
#: 9 pt is about 9.5 px on that phone
MIN_FONT_PT = 9.0


def plain_text_label(text: str | None) -> str:
    """``text`` as matplotlib shows it literally: ``$`` would start mathtext
    (and a malformed formula such as ``p$x^{$`` raises at draw time)."""
    return (text or "forecast").replace("$", r"\$")


def has_matplotlib() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def consistency_band(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, seed: int
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray] | None, str]:
    """``((band_forecast, lower, upper) or None, how)`` of one forecaster.

    ``how`` says in words how the band was made (or why there is none).
    """
    from ..metrics.decomposition import corp_decomposition

    level = "95%"
    if w is not None and p.shape[0] > MAX_WEIGHTED_BAND_SAMPLES:
        return None, (
            f"no consistency band: above {MAX_WEIGHTED_BAND_SAMPLES:,} weighted rows "
            "its resampling would take minutes"
        )
    n_distinct = np.unique(p).shape[0]
    on_grid = n_distinct > GRID
    x = np.round(p * GRID) / GRID if on_grid else p
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = corp_decomposition(
            y, x, sample_weight=w, n_resamples=BAND_RESAMPLES, random_state=seed
        )
    if res.band_forecast is None:  # pragma: no cover - n_resamples > 0
        return None, "no consistency band"
    how = f"{level} consistency band from {BAND_RESAMPLES} resamples"
    if on_grid:
        how += f" (forecasts rounded to 1/{GRID} for the band only)"
    band = (
        np.asarray(res.band_forecast, dtype=np.float64),
        np.asarray(res.band_lower, dtype=np.float64),
        np.asarray(res.band_upper, dtype=np.float64),
    )
    return band, how


def _xy(curve: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """``(x, y)`` of a lowess curve given as an object, a mapping or a pair."""
    if curve is None:
        return None
    for a, b in (("x", "y"), ("forecast", "observed"), ("forecast", "fitted")):
        if isinstance(curve, Mapping) and a in curve and b in curve:
            return np.asarray(curve[a], float), np.asarray(curve[b], float)
        if hasattr(curve, a) and hasattr(curve, b):
            return np.asarray(getattr(curve, a), float), np.asarray(
                getattr(curve, b), float
            )
    arr = np.asarray(curve, dtype=float)
    if arr.ndim == 2 and 2 in arr.shape:
        return (arr[0], arr[1]) if arr.shape[0] == 2 else (arr[:, 0], arr[:, 1])
    return None


def legible(fig: Any, min_size: float = MIN_FONT_PT) -> Any:
    """``fig`` with every text at least ``min_size`` points (the figures of
    the report are read on phones; see :data:`FIG_WIDTH_IN`)."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        if text.get_fontsize() < min_size:
            text.set_fontsize(min_size)
    return fig


def _unique_ids(svg: str, prefix: str) -> str:
    """Prefix every id (and reference to it) so that several inline SVGs in
    one page never share one."""
    return re.sub(r'(\bid="|href="#|url\(#)', rf"\g<1>{prefix}-", svg)


def to_svg(fig: Any, prefix: str) -> str:
    """A figure as inline ``<svg>`` markup (text as paths, no XML prologue)."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": prefix}):
        fig.savefig(buf, format="svg", bbox_inches="tight")
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    # inline SVG in HTML needs no namespace declarations; the RDF metadata
    # only names URLs (nothing is fetched, but a page without any is simpler)
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    text = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text)
    return _unique_ids(text, prefix)


def _reliability_figure(reports: Mapping[str, CalibrationReport]) -> tuple[Any, list[str]]:
    """All models on one reliability diagram, with bands and lowess curves."""
    from matplotlib.figure import Figure

    from ..metrics.decomposition import corp_decomposition
    from ..plotting._reliability_draw import dedupe_legend
    from ..plotting._reliability_models import models_display_kwargs
    from ..plotting.reliability import ReliabilityDisplay

    results, bands, notes = {}, [], []
    for name, rep in reports.items():
        y, p, w = rep._data  # type: ignore[misc]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results[plain_text_label(name)] = corp_decomposition(y, p, sample_weight=w)
        band, how = consistency_band(y, p, w, rep._figure_seed)
        bands.append(band)
        notes.append(f"{name}: {how}.")
    kwargs = models_display_kwargs(results)
    if len(results) == 1:  # one curve: the single-forecaster look
        kwargs = {k: (v[0] if isinstance(v, list) else v) for k, v in kwargs.items()}
        kwargs["components"] = {k: float(v[0]) for k, v in kwargs["components"].items()}
        kwargs.update(curve_labels=None, curve_kind="class")
        kwargs["estimator_name"] = next(iter(results))
    if all(b is not None for b in bands):
        parts = list(zip(*bands))
        single = len(results) == 1
        for key, value in zip(("band_forecast", "band_lower", "band_upper"), parts):
            kwargs[key] = value[0] if single else list(value)
    fig = Figure(figsize=(FIG_WIDTH_IN, 0.95 * FIG_WIDTH_IN), layout="constrained")
    ax = fig.subplots()
    disp = ReliabilityDisplay(**kwargs).plot(ax=ax)
    lowess_drawn = False
    for line, rep in zip(disp.lines_, reports.values()):  # type: ignore[attr-defined]
        xy = _xy(getattr(rep, "lowess_curve", None))
        if xy is not None:
            ax.plot(*xy, linestyle=":", linewidth=1.6, color=line.get_color(), zorder=3)
            lowess_drawn = True
    if lowess_drawn:
        ax.plot([], [], linestyle=":", color="0.3", label="lowess (dotted)")
        dedupe_legend(ax)
    fig.suptitle("Reliability diagram" + (" (all models)" if len(results) > 1 else ""))
    return legible(fig), notes


def _decision_figure(reports: Mapping[str, CalibrationReport]) -> Any:
    """All models on one decision curve, with one treat-all line per set of
    rows (one line when every model is scored on the same rows)."""
    from matplotlib.figure import Figure

    from ..plotting.decision_curve import DecisionCurveDisplay
    from ._compare import row_sets

    fig = Figure(figsize=(FIG_WIDTH_IN, 0.75 * FIG_WIDTH_IN), layout="constrained")
    ax = fig.subplots()
    sets = row_sets(reports)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, names in enumerate(sets):
            y, _, w = reports[names[0]]._data  # type: ignore[misc]
            probas = {plain_text_label(n): reports[n]._data[1] for n in names}  # type: ignore[index]
            disp = DecisionCurveDisplay.from_predictions(
                y,
                probas,
                sample_weight=w,
                ax=ax,
                show_treat_none=k == 0,
                cost_benefit_axis=k == 0,
            )
            if len(sets) > 1 and disp.treat_all_line_ is not None:
                # each set of rows has its own treat-all line, in the colour
                # of its (first) model
                first = plain_text_label(names[0])
                disp.treat_all_line_.set_color(disp.lines_[first].get_color())
                disp.treat_all_line_.set_linestyle(":")
                labels = ", ".join(plain_text_label(n) for n in names)
                disp.treat_all_line_.set_label(f"Treat all ({labels})")
        if len(sets) > 1:
            ax.legend(loc="upper right", fontsize="small")
    fig.suptitle("Decision curve" + (" (all models)" if len(reports) > 1 else ""))
    return legible(fig)


def comparison_svgs(
    reports: Mapping[str, CalibrationReport],
) -> tuple[dict[str, str], list[str]]:
    """``({"reliability": svg, "decision_curve": svg}, notes)`` of all reports.

    Empty (with no notes) without matplotlib or without data.
    """
    if not has_matplotlib() or any(r._data is None for r in reports.values()):
        return {}, []
    rel, notes = _reliability_figure(reports)
    out = {"reliability": to_svg(rel, "rel")}
    out["decision_curve"] = to_svg(_decision_figure(reports), "dca")
    return out, notes


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=200, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def report_figures(rep: CalibrationReport) -> dict:
    """``{"reliability": png, "decision_curve": png}`` (empty without matplotlib).

    PNG at 200 dpi (twice the screen resolution), base64-encoded.  The
    forecaster's name is drawn literally (a ``$`` in it is not mathtext).
    """
    if not has_matplotlib() or rep._data is None:
        return {}
    reports = {rep.name or "forecast": rep}
    rel, _ = _reliability_figure(reports)
    return {
        "reliability": _png(rel),
        "decision_curve": _png(_decision_figure(reports)),
    }
