"""Drawing of a :class:`~skbrier.results.FlexibleCalibrationCurve`
(matplotlib is imported only when something is drawn).

:func:`plot_flexible_calibration` is what
``FlexibleCalibrationCurve.plot()`` calls: the curve with its band, the
diagonal, the spike histogram of the forecasts below the curve (events
above a baseline, non-events below it, as ``rms::val.prob`` draws them) and
the curve's summaries in the panel.  Several curves drawn on the same axes
share the diagonal and the histogram of the first one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._pyplot import import_pyplot

__all__ = ["plot_flexible_calibration"]

#: ids of the parts drawn once per axes (an overlay finds them)
DIAGONAL_GID = "skbrier-flexible-diagonal"
HISTOGRAM_GID = "skbrier-flexible-histogram"

#: the baseline of the spike histogram and the height of its tallest spike
_BASE, _HEIGHT = -0.1, 0.08
_BINS = 101

_NAMES = {"loess": "loess", "rcs": "restricted cubic spline", "ns": "natural spline",
          "lowess": "lowess"}  # fmt: skip


def _spikes(ax: Any, y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> None:
    """Events as spikes up from the baseline, non-events down (bins of width 0.01)."""
    edges = np.linspace(0.0, 1.0, _BINS)
    ww = np.ones_like(p) if w is None else w
    ev = np.histogram(p, edges, weights=ww * y)[0]
    nev = np.histogram(p, edges, weights=ww * (1.0 - y))[0]
    top = max(float(ev.max(initial=0.0)), float(nev.max(initial=0.0)), 1e-300)
    mid = 0.5 * (edges[1:] + edges[:-1])
    kw = {"color": "0.35", "linewidth": 0.8, "gid": HISTOGRAM_GID}
    up, down = ev > 0, nev > 0
    ax.vlines(mid[up], _BASE, _BASE + _HEIGHT * ev[up] / top, **kw)
    ax.vlines(mid[down], _BASE, _BASE - _HEIGHT * nev[down] / top, **kw)
    ax.axhline(_BASE, color="0.35", linewidth=0.6, gid=HISTOGRAM_GID)
    ax.text(
        1.0, _BASE + 0.5 * _HEIGHT, "events", fontsize="x-small", ha="right", va="center"
    )
    ax.text(1.0, _BASE - 0.5 * _HEIGHT, "non-events", fontsize="x-small", ha="right",
            va="center")  # fmt: skip


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

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skbrier.datasets import load_forecasts
    >>> from skbrier.metrics import flexible_calibration_curve
    >>> d = load_forecasts()
    >>> ax = flexible_calibration_curve(d["y"], d["model_b"]).plot()
    >>> ax.get_xlabel()
    'Predicted probability'
    """
    plt = import_pyplot("FlexibleCalibrationCurve.plot")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.0, 5.0))
    first = not any(line.get_gid() == DIAGONAL_GID for line in ax.get_lines())
    if first:
        ax.plot([0.0, 1.0], [0.0, 1.0], linestyle="--", color="0.5", linewidth=1.0,
                gid=DIAGONAL_GID, label="ideal")  # fmt: skip
    name = label if label is not None else _NAMES.get(curve.smoother, curve.smoother)
    (line,) = ax.plot(curve.grid, curve.estimate, color=color, linewidth=1.8, label=name)
    if curve.lower is not None and curve.upper is not None:
        level = f"{100 * curve.confidence_level:g}%"
        ax.fill_between(curve.grid, curve.lower, curve.upper, color=line.get_color(),
                        alpha=0.2, linewidth=0, label=f"{level} band")  # fmt: skip
    y, p, w = curve._forecasts()
    if histogram and first and p.shape[0]:
        _spikes(ax, y, p, w)
    if show_statistics:
        lines = [f"ICI {curve.ici:.3f}", f"E50 {curve.e50:.3f}", f"E90 {curve.e90:.3f}",
                 f"Emax {curve.emax:.3f}"]  # fmt: skip
        n_text = sum(1 for t in ax.texts if t.get_gid() == "skbrier-flexible-stats")
        ax.text(0.03, 0.97 - 0.2 * n_text, "\n".join(lines), transform=ax.transAxes,
                va="top", ha="left", fontsize="small", color=line.get_color(),
                gid="skbrier-flexible-stats")  # fmt: skip
    low = _BASE - _HEIGHT - 0.02 if histogram else -0.02
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(min(low, ax.get_ylim()[0]) if not first else low, 1.02)
    ax.set_xlabel("Predicted probability")
    ax.set_ylabel("Observed frequency")
    # the legend in the lower right corner of the unit square, above the histogram
    bottom = (0.0 - ax.get_ylim()[0]) / (ax.get_ylim()[1] - ax.get_ylim()[0])
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, bottom + 0.01), fontsize="small",
              framealpha=0.9)  # fmt: skip
    return ax
