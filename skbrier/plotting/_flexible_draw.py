"""The drawing of a :class:`~skbrier.metrics.FlexibleCalibrationCurve`
(its ``plot()``): no metric is computed here, so the curve's result class can
import it without a cycle.
"""

from __future__ import annotations

from typing import Any

from ._calibration_parts import corner_anchor, draw_spikes, histogram_bottom, unit_square
from ._common import display_doc, draw_diagonal, fill_band, new_axes

__all__ = ["DIAGONAL_GID", "plot_flexible_calibration"]

#: id of the diagonal (an overlay finds it and does not draw it again)
DIAGONAL_GID = "skbrier-flexible-diagonal"

_NAMES = {
    "loess": "loess",
    "rcs": "restricted cubic spline",
    "ns": "natural spline",
    "gam": "thin plate spline (gam)",
    "lowess": "lowess",
}


def _first_draw(ax: Any) -> bool:
    return not any(line.get_gid() == DIAGONAL_GID for line in ax.get_lines())


@display_doc
def plot_flexible_calibration(
    curve: Any,
    ax: Any = None,
    *,
    label: str | None = None,
    color: Any = None,
    histogram: bool = True,
    show_statistics: bool = True,
) -> Any:
    """Draw a flexible calibration curve with its band.

    Parameters
    ----------
    curve : FlexibleCalibrationCurve
        The curve (from
        :func:`~skbrier.metrics.calibration_curves.flexible_calibration_curve`).
    ax : matplotlib Axes, default=None
        Axes to draw on (None: a new figure).  Drawing several curves on the
        same axes overlays them; the diagonal and the histogram are drawn once.
    label : str, default=None
        Legend label (None: the smoother's name).
    color : matplotlib color, default=None
        Colour of the curve and its band (None: the next of the cycle).
    histogram : bool, default=True
        Draw the spike histogram of the forecasts below the curve.
    show_statistics : bool, default=True
        Print ICI, E50, E90 and Emax in the panel.

    Returns
    -------
    matplotlib Axes

    See Also
    --------
    CalibrationCurveDisplay : the figure of a report (points, statistics, groups).

    Examples
    --------
    {{doctest_forecasts}}
    >>> from skbrier.metrics import flexible_calibration_curve
    >>> ax = flexible_calibration_curve(d["y"], d["model_b"]).plot()
    >>> ax.get_xlabel()
    'Predicted probability'
    """
    ax = new_axes(ax, "FlexibleCalibrationCurve.plot", figsize=(5.0, 5.0))
    first = _first_draw(ax)
    if first:
        draw_diagonal(ax, "ideal", gid=DIAGONAL_GID)
    name = label if label is not None else _NAMES.get(curve.smoother, curve.smoother)
    (line,) = ax.plot(curve.grid, curve.estimate, color=color, linewidth=1.8, label=name)
    if curve.lower is not None and curve.upper is not None:
        level = f"{100 * curve.confidence_level:g}%"
        fill_band(ax, curve.grid, curve.lower, curve.upper, line.get_color(), 0.2)
        ax.collections[-1].set_label(f"{level} band")
    y, p, w = curve._forecasts()
    if histogram and first and p.shape[0]:
        draw_spikes(ax, y, p, w)
    if show_statistics:
        lines = [
            f"ICI {curve.ici:.3f}",
            f"E50 {curve.e50:.3f}",
            f"E90 {curve.e90:.3f}",
            f"Emax {curve.emax:.3f}",
        ]
        n_text = sum(1 for t in ax.texts if t.get_gid() == "skbrier-flexible-stats")
        ax.text(
            0.03,
            0.97 - 0.2 * n_text,
            "\n".join(lines),
            transform=ax.transAxes,
            va="top",
            ha="left",
            fontsize="small",
            color=line.get_color(),
            gid="skbrier-flexible-stats",
        )
    low = histogram_bottom(1) if histogram else -0.02
    unit_square(ax, min(low, ax.get_ylim()[0]) if not first else low)
    # the legend in the lower right corner of the unit square, above the histogram
    ax.legend(
        loc="lower right",
        bbox_to_anchor=corner_anchor(ax),
        fontsize="small",
        framealpha=0.9,
    )
    return ax
