"""Figures of calibration reports (matplotlib imported lazily).

* :func:`comparison_svgs`: the figures of the HTML page, every model on one
  calibration figure and on one decision curve, as inline SVG (text drawn
  as paths: no font is fetched, the page prints crisply);
* :func:`report_figures`: one report's figures as base64 PNG
  (:meth:`CalibrationReport.figures`).

The calibration figure is :class:`~skbrier.CalibrationCurveDisplay`
(loess curve with its band, deciles with Wilson intervals, spike histograms,
the key statistics), every model on its own rows.
"""

from __future__ import annotations

import base64
import io
import re
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = [
    "FIG_WIDTH_IN",
    "MIN_FONT_PT",
    "comparison_svgs",
    "legible",
    "plain_text_label",
    "report_figures",
]

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
    """Every model on one calibration figure
    (:class:`~skbrier.CalibrationCurveDisplay`): each model's loess
    curve with its band, deciles with Wilson intervals, spike histograms and
    the key statistics, each model on its own rows."""
    import matplotlib
    from matplotlib.figure import Figure

    from ..plotting._calibration_models import model_parts
    from ..plotting.flexible_calibration import CalibrationCurveDisplay

    options: dict[str, Any] = {
        "curve_options": {"smoother": "loess", "transform": None},
        "n_bins": 10,
        "strategy": "quantile",
        "interval": "wilson",
        "confidence_level": 0.95,
    }
    parts, notes = {}, []
    for name, rep in reports.items():
        y, p, w = rep._data  # type: ignore[misc]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                parts[plain_text_label(name)] = model_parts(y, p, w, **options)
        except ValueError as exc:
            notes.append(f"{name}: no calibration curve ({exc})")
            continue
    drawn = [name for name in reports if plain_text_label(name) in parts]
    if drawn:
        who = f"{drawn[0]}: " if len(reports) == 1 else "Each model: "
        notes.append(
            f"{who}loess calibration curve (on the probabilities, span 0.75) with its "
            "95% pointwise band; deciles of the forecasts with 95% Wilson intervals."
        )
    fig = Figure(figsize=(FIG_WIDTH_IN, 1.1 * FIG_WIDTH_IN), layout="constrained")
    ax = fig.subplots()
    if parts:
        # the display's small texts ("x-small") at MIN_FONT_PT when it places
        # them, the rest at their usual size
        sizes = {
            "font.size": MIN_FONT_PT / 0.694,
            "axes.labelsize": 10.0,
            "xtick.labelsize": MIN_FONT_PT,
            "ytick.labelsize": MIN_FONT_PT,
        }
        with matplotlib.rc_context(sizes):  # type: ignore[arg-type]
            # several models: their statistics are the overview table's (a box
            # holding them all would cover the curves)
            disp = CalibrationCurveDisplay({None: parts}).plot(
                ax=ax, statistics=len(parts) == 1
            )
        notes += [f"{note}." for note in disp.notes_]
        if len(parts) > 1:
            notes.append("The statistics of each model are in the overview table.")
    fig.suptitle("Calibration" + (" (all models)" if len(reports) > 1 else ""))
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
    with _validated_data(reports):
        rel, notes = _reliability_figure(reports)
        out = {"reliability": to_svg(rel, "rel")}
        out["decision_curve"] = to_svg(_decision_figure(reports), "dca")
    return out, notes


def _validated_data(reports: Mapping[str, CalibrationReport]) -> Any:
    """The reports' checked arrays count as validated (the figures' functions
    do not check them again: one check per input column in ``skbrier report``)."""
    from .._core.arrays import validated

    return validated(*(a for r in reports.values() for a in (r._data or ())))


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
    with _validated_data(reports):
        rel, _ = _reliability_figure(reports)
        return {
            "reliability": _png(rel),
            "decision_curve": _png(_decision_figure(reports)),
        }
