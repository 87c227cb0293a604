"""The parts of :class:`~skbrier.CalibrationCurveDisplay`: what one
model shows (:func:`model_parts`) and how a panel draws it.

* the smooth curve and its band: :func:`~skbrier.metrics.flexible_calibration_curve`;
* the grouped points and their intervals: scikit-learn's bins
  (:mod:`._reliability_bins`) with Wilson or Clopper--Pearson intervals;
* the statistics: the package's public functions
  (:func:`~skbrier.metrics.calibration.calibration_intercept_slope`,
  :func:`~skbrier.metrics.calibration.c_statistic`,
  :func:`~skbrier.brier_score`) and the curve's ICI and E90;
* the spike histogram under the curve area, events up from a baseline and
  non-events down, as ``rms::val.prob`` draws it (one baseline per model).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "corner_anchor",
    "draw_spikes",
    "emptiest_corner",
    "histogram_bottom",
    "statistics_lines",
    "unit_square",
]

#: the first baseline of the spike histogram, the height of its tallest
#: spike and the distance between the baselines of two models
BASE, HEIGHT, STEP = -0.1, 0.08, 0.2
_BINS = 101

#: the corners of the unit square a box may take, in order of preference
CORNERS = ("upper left", "lower right", "upper right", "lower left")


def _g(v: float) -> str:
    """A number with 4 significant digits (3 decimals for the usual sizes);
    ``n/a`` for NaN (not computed, as the report's tables)."""
    if v != v:
        return "n/a"
    return f"{v:.3f}" if 0.001 <= abs(v) < 10 else f"{v:.4g}"


def statistics_lines(stats: dict[str, Any]) -> list[str]:
    """The key statistics of one model, intervals in brackets."""

    def ci(key: str) -> str:
        lo, hi = stats[f"{key}_ci"]
        return f"{_g(stats[key])} [{_g(lo)}, {_g(hi)}]"

    return [
        f"Intercept {ci('intercept')}",
        f"Slope {ci('slope')}",
        f"C {_g(stats['c'])}  Brier {_g(stats['brier'])}",
        f"ICI {_g(stats['ici'])}  E90 {_g(stats['e90'])}",
    ]


def _renderer(fig: Any) -> Any:
    """A renderer to measure text with (Agg when the canvas has none)."""
    get = getattr(fig.canvas, "get_renderer", None)
    if get is not None:
        return get()
    from matplotlib.backends.backend_agg import RendererAgg

    width, height = fig.get_size_inches() * fig.dpi
    return RendererAgg(int(width), int(height), fig.dpi)


def emptiest_corner(
    ax: Any, place: Any, xy: list[tuple[Any, Any]], exclude: tuple[str, ...] = ()
) -> str:
    """The corner of :data:`CORNERS` where the box ``place(loc)`` (an artist
    added to ``ax``, removed again here) covers the fewest points of ``xy``
    (the (x, y) arrays of the curves, bands and points drawn)."""
    renderer = _renderer(ax.figure)
    x = np.concatenate([np.ravel(a) for a, _ in xy]) if xy else np.empty(0)
    y = np.concatenate([np.ravel(b) for _, b in xy]) if xy else np.empty(0)
    ok = np.isfinite(x) & np.isfinite(y)
    pix = ax.transData.transform(np.column_stack([x[ok], y[ok]]))
    counts = {}
    for loc in CORNERS:
        if loc in exclude:
            continue
        artist = place(loc)
        box = artist.get_window_extent(renderer)
        artist.remove()
        inside = (
            (pix[:, 0] >= box.x0)
            & (pix[:, 0] <= box.x1)
            & (pix[:, 1] >= box.y0)
            & (pix[:, 1] <= box.y1)
        )
        counts[loc] = int(inside.sum())
    return min(counts, key=lambda loc: (counts[loc], CORNERS.index(loc)))


def corner_anchor(ax: Any) -> tuple[float, float, float, float]:
    """``bbox_to_anchor`` (axes fraction) of the unit square above the histogram."""
    y_low, y_high = ax.get_ylim()
    bottom = (0.0 - y_low) / (y_high - y_low)
    return (0.0, bottom, 1.0, 1.0 - bottom)


def histogram_bottom(n_models: int) -> float:
    """The lowest y of the spike histograms of ``n_models`` models (a margin added)."""
    return BASE - STEP * (n_models - 1) - HEIGHT - 0.02


def unit_square(ax: Any, bottom: float) -> None:
    """Limits and labels of a calibration panel: the unit square, from ``bottom``
    (room for the spike histograms under it) up."""
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(bottom, 1.02)
    ax.set_xlabel("Predicted probability")
    ax.set_ylabel("Observed frequency")


def draw_spikes(
    ax: Any,
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    k: int = 0,
    color: Any = "0.35",
    name: str | None = None,
) -> list[Any]:
    """Events as spikes up from baseline ``k``, non-events down (bins of 0.01).

    Returns the artists (two LineCollections and the baseline).
    """
    base = BASE - STEP * k
    edges = np.linspace(0.0, 1.0, _BINS)
    ww = np.ones_like(p) if w is None else w
    ev = np.histogram(p, edges, weights=ww * y)[0]
    nev = np.histogram(p, edges, weights=ww * (1.0 - y))[0]
    top = max(float(ev.max(initial=0.0)), float(nev.max(initial=0.0)), 1e-300)
    mid = 0.5 * (edges[1:] + edges[:-1])
    kw = {"color": color, "linewidth": 0.8}
    up, down = ev > 0, nev > 0
    parts = [
        ax.vlines(mid[up], base, base + HEIGHT * ev[up] / top, **kw),
        ax.vlines(mid[down], base, base - HEIGHT * nev[down] / top, **kw),
        ax.axhline(base, color=color, linewidth=0.6),
    ]
    small = {"fontsize": "x-small", "ha": "right", "va": "center", "color": color}
    if name is None:
        ax.text(1.0, base + 0.5 * HEIGHT, "events", **small)
        ax.text(1.0, base - 0.5 * HEIGHT, "non-events", **small)
    else:
        ax.text(1.0, base + 0.5 * HEIGHT, f"{name}: events", **small)
    return parts
