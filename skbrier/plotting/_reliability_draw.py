"""Drawing of :class:`~skbrier.plotting.reliability.ReliabilityDisplay`
(matplotlib is imported only when something is drawn).

The layout keeps the data clear: the curves on a square diagram, the
forecast histogram in its own panel under it (one strip per model when there
are several), the components in a panel of their own beside it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "DIAGONAL_GID",
    "HISTOGRAM_GID",
    "as_curve_list",
    "dedupe_legend",
    "draw_axes_labels",
    "draw_components",
    "draw_curves",
    "draw_histogram",
    "existing_parts",
]

#: ids of the parts drawn once per axes, so that an overlay (a second
#: display drawn on the same ``ax``) finds them and does not draw them again
DIAGONAL_GID = "skbrier-reliability-diagonal"
HISTOGRAM_GID = "skbrier-reliability-histogram"

COMPONENT_LABELS = {
    "miscalibration": "MCB",
    "discrimination": "DSC",
    "uncertainty": "UNC",
    "within_bin_variance": "WBV",
    "within_bin_covariance": "WBC",
}

#: legend text of each kind of band
BAND_LABELS = {
    "consistency": "consistency band",
    "wilson": "Wilson intervals",
    "clopper_pearson": "Clopper–Pearson intervals",
}


def as_curve_list(value: Any, name: str) -> list[np.ndarray] | None:
    """One 1-D float array per curve (a single array means one curve)."""
    if value is None:
        return None
    if isinstance(value, np.ndarray) and value.dtype != object:
        arrays = [value] if value.ndim <= 1 else list(value)
    elif isinstance(value, (list, tuple)) and len(value) and np.ndim(value[0]) == 1:
        arrays = list(value)
    else:
        arrays = [value]
    out = []
    for a in arrays:
        if isinstance(a, (str, bytes)):
            raise TypeError(f"{name} must be numbers, got {a!r}.")
        try:
            arr = np.asarray(a, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"{name} must be numbers (or a list of arrays of numbers)."
            ) from None
        if arr.ndim != 1:
            raise ValueError(
                f"{name} must be 1-D (or a list of 1-D arrays), got shape {arr.shape}."
            )
        out.append(arr)
    return out


def existing_parts(ax) -> dict[str, bool]:
    """Which once-per-axes parts a reliability diagram already drew on ``ax``."""
    diagonal = any(line.get_gid() == DIAGONAL_GID for line in ax.get_lines())
    histogram = any(a.get_gid() == HISTOGRAM_GID for a in ax.child_axes)
    return {"ref_line": diagonal, "hist": histogram}


def dedupe_legend(ax, loc: str = "lower right") -> Any:
    """One legend entry per label (an overlay repeats "95% consistency band"),
    the lines first and the bands after them."""
    from matplotlib.lines import Line2D

    handles, labels = ax.get_legend_handles_labels()
    seen: dict[str, Any] = {}
    for h, lab in sorted(
        zip(handles, labels), key=lambda hl: not isinstance(hl[0], Line2D)
    ):
        seen.setdefault(lab, h)
    return ax.legend(
        list(seen.values()), list(seen), loc=loc, fontsize="small", framealpha=0.9
    )


def draw_curves(disp, ax, data, labels, name, band, kwargs) -> None:
    """The reliability curves and their bands (``disp.lines_``, ``disp.bands_``).

    A band of the binned diagram (one interval per bin) is drawn as error
    bars, a band of the CORP diagram as a shaded region.
    """
    xs, ys, bxs, los, his = data
    multi = len(xs) > 1
    disp.lines_ = []
    disp.bands_ = []
    for k, (x, y) in enumerate(zip(xs, ys)):
        label = name if not multi else labels[k]
        if label is None:
            label = "CORP (isotonic)" if disp.decomposition_method == "corp" else "binned"
        line_kw = {"label": label, "linewidth": 2, "zorder": 3}
        if disp.decomposition_method == "murphy" or x.shape[0] <= 25:
            line_kw.update(marker="o", markersize=4)
        line_kw.update(kwargs)
        (line,) = ax.plot(x, y, **line_kw)
        disp.lines_.append(line)
        if not band or los is None:
            continue
        lo, hi, bx = los[k], his[k], bxs[k]
        ok = np.isfinite(lo) & np.isfinite(hi)
        text = f"{disp.confidence_level:.0%} {BAND_LABELS[disp.band_kind]}"
        style = {"color": line.get_color(), "label": text if k == 0 else None, "zorder": 2}
        if disp.decomposition_method == "murphy":
            artist = ax.vlines(bx[ok], lo[ok], hi[ok], alpha=0.45, linewidth=4, **style)
        else:
            artist = ax.fill_between(
                bx[ok], lo[ok], hi[ok], alpha=0.18, linewidth=0, **style
            )
        disp.bands_.append(artist)
    disp.line_ = disp.lines_[0]


def draw_axes_labels(disp, ax, multi: bool) -> None:
    """Axis labels, limits and grid of the diagram."""
    if disp.decomposition_method == "corp":
        ylabel = "Conditional event probability (isotonic)"
    else:
        ylabel = "Observed frequency in bin"
    xlabel = "Forecast probability"
    if disp.pos_label is not None and not multi:
        xlabel += f" (positive class: {disp.pos_label})"
    ax.set(xlabel=xlabel, ylabel=ylabel, xlim=(-0.02, 1.02), ylim=(-0.02, 1.02))
    ax.set_box_aspect(1)
    ax.grid(True, linewidth=0.4, alpha=0.5)


def _histogram_axes(ax, n_strips: int):
    """A panel under the diagram, sharing its x axis; the diagram's tick
    labels and x label are shown under the panel."""
    height = 0.2 if n_strips == 1 else min(0.09 * n_strips, 0.45)
    hax = ax.inset_axes([0.0, -0.04 - height, 1.0, height], sharex=ax)
    hax.set_gid(HISTOGRAM_GID)
    ax.tick_params(axis="x", labelbottom=False)
    hax.set_xlabel(ax.get_xlabel())
    ax.xaxis.label.set_visible(False)
    hax.tick_params(axis="both", labelsize="small")
    for side in ("top", "right"):
        hax.spines[side].set_visible(False)
    return hax


def draw_histogram(disp, ax, hist: bool | str, labels) -> None:
    """The forecast histogram under the diagram (``disp.hist_ax_``, ``disp.hist_``).

    ``hist="shared"``: every curve's bars from one baseline on a common
    scale; ``"per_model"``: one strip per curve, stacked, each scaled to its
    own largest bar and named on the y axis.
    """
    disp.hist_ax_ = None
    disp.hist_ = []
    if not hist or disp.hist_weights is None or disp.hist_edges is None:
        return
    weights = as_curve_list(disp.hist_weights, "hist_weights")
    edges = as_curve_list(disp.hist_edges, "hist_edges")
    if weights is None or edges is None:  # pragma: no cover - checked above
        raise AssertionError("hist_weights and hist_edges are not None here.")
    if len(edges) == 1:
        edges = edges * len(weights)
    if len(edges) != len(weights) or any(
        e.shape[0] != wk.shape[0] + 1 for e, wk in zip(edges, weights)
    ):
        raise ValueError(
            "hist_edges must have one more value than hist_weights (per curve)."
        )
    multi = len(weights) > 1
    per_model = hist == "per_model" and multi
    hax = _histogram_axes(ax, len(weights) if per_model else 1)
    for k, (e, wk) in enumerate(zip(edges, weights)):
        color = disp.lines_[k].get_color() if multi and k < len(disp.lines_) else "0.55"
        heights, bottom = wk, 0.0
        if per_model:  # strip k, from the top down in the order of the legend
            heights, bottom = 0.85 * wk / (float(np.max(wk)) or 1.0), len(weights) - 1 - k
        bars = hax.bar(
            e[:-1],
            heights,
            width=np.diff(e),
            bottom=bottom,
            align="edge",
            color=color,
            alpha=0.6 if per_model or not multi else 0.35,
            edgecolor="white",
            linewidth=0.4,
        )
        disp.hist_.append(bars)
    if per_model:
        hax.set_ylim(0, len(weights))
        names = (
            labels if labels is not None else [f"curve {k}" for k in range(len(weights))]
        )
        hax.set_yticks(np.arange(len(weights)) + 0.42, names[::-1], fontsize="x-small")
        hax.tick_params(axis="y", length=0)
    else:
        hax.set_ylabel("weight" if multi else "forecasts", fontsize="x-small")
    disp.hist_ax_ = hax


def draw_components(disp, cax, comps, labels) -> None:
    """The bar chart of the components (``disp.components_``)."""
    keys = [k for k in COMPONENT_LABELS if k in comps and comps[k] is not None]
    values = np.array([np.atleast_1d(np.asarray(comps[k], dtype=float)) for k in keys])
    n_curves = values.shape[1]
    pos = np.arange(len(keys), dtype=float)
    height = 0.8 / n_curves
    for c in range(n_curves):
        if n_curves > 1:
            colors = [disp.lines_[c].get_color()] * len(keys)
        else:
            colors = [
                {"miscalibration": "#d62728", "discrimination": "#2ca02c"}.get(k, "0.5")
                for k in keys
            ]
        offs = pos - 0.4 + height * (c + 0.5)
        bars = cax.barh(
            offs,
            values[:, c],
            height=height * 0.9,
            color=colors,
            label=labels[c] if labels else None,
        )
        disp.components_.append(bars)
        if n_curves == 1:
            vmax = float(np.max(np.abs(values))) or 1.0
            for y, v in zip(offs, values[:, c]):
                cax.text(v + 0.02 * vmax, y, f"{v:.4f}", va="center", fontsize="small")
            cax.set_xlim(min(0.0, float(values.min())) * 1.1, vmax * 1.45)
    names = dict(COMPONENT_LABELS)
    if disp.decomposition_method == "murphy":
        names.update(miscalibration="REL", discrimination="RES")
    cax.set_yticks(pos, [names[k] for k in keys], fontsize="small")
    cax.invert_yaxis()
    cax.tick_params(axis="x", labelsize="small")
    cax.axvline(0, color="0.3", linewidth=0.6)
    bs = comps.get("brier_score")
    if bs is not None:
        if "within_bin_variance" in keys:
            formula = "REL − RES + UNC + WBV − WBC"
        else:
            formula = "MCB − DSC + UNC"
        if disp.curve_kind == "model" and n_curves > 1:
            # one Brier score per model: a sum would mean nothing
            cax.set_title(f"BS = {formula}", fontsize="small")
        else:  # one forecaster (the classes' scores add up to its score)
            cax.set_title(f"BS = {float(np.sum(bs)):.4f}\n= {formula}", fontsize="small")
    if n_curves > 1:
        cax.legend(fontsize="x-small", title=disp.curve_kind, title_fontsize="x-small")
