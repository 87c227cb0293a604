"""Drawing of :class:`~skbrier.plotting.reliability.ReliabilityDisplay`
(matplotlib is imported only when something is drawn)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "COMPONENTS_GID",
    "DIAGONAL_GID",
    "HISTOGRAM_GID",
    "LOWER_RIGHT",
    "UPPER_LEFT",
    "as_curve_list",
    "dedupe_legend",
    "draw_axes_labels",
    "draw_components",
    "draw_curves",
    "draw_histogram",
    "existing_parts",
    "points_in_box",
]

#: ids of the parts drawn once per axes, so that an overlay (a second
#: display drawn on the same ``ax``) finds them and does not draw them again
DIAGONAL_GID = "skbrier-reliability-diagonal"
COMPONENTS_GID = "skbrier-reliability-components"
HISTOGRAM_GID = "skbrier-reliability-histogram"


#: candidate places of the component inset, in axes coordinates
UPPER_LEFT = [0.15, 0.6, 0.32, 0.25]
LOWER_RIGHT = [0.62, 0.3, 0.3, 0.22]


COMPONENT_LABELS = {
    "miscalibration": "MCB",
    "discrimination": "DSC",
    "uncertainty": "UNC",
    "within_bin_variance": "WBV",
    "within_bin_covariance": "WBC",
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
    components = any(a.get_gid() == COMPONENTS_GID for a in ax.child_axes)
    siblings = [
        a for a in ax.figure.axes if a is not ax and a.bbox.bounds == ax.bbox.bounds
    ]
    histogram = any(a.get_gid() == HISTOGRAM_GID for a in siblings)
    return {"ref_line": diagonal, "components": components, "hist": histogram}


def dedupe_legend(ax, loc: str | None = None) -> Any:
    """One legend entry per label (an overlay repeats "95% consistency band").

    ``loc=None``: the corner opposite the component inset.
    """
    if loc is None:
        inset = [a for a in ax.child_axes if a.get_gid() == COMPONENTS_GID]
        corner = inset[0].get_label() if inset else "lower right"
        loc = "lower right" if corner == "upper left" else "upper left"
    handles, labels = ax.get_legend_handles_labels()
    seen: dict[str, Any] = {}
    for h, lab in zip(handles, labels):
        seen.setdefault(lab, h)
    return ax.legend(
        list(seen.values()), list(seen), loc=loc, fontsize="small", framealpha=0.9
    )


def points_in_box(xs, ys, bounds, pad=0.05) -> int:
    """Number of curve points inside an inset box given in axes coordinates.

    The axes show [-0.02, 1.02] on both axes; ``pad`` widens the box for the
    tick labels and the title of the inset.
    """
    x0, y0, w, h = bounds

    def to_data(a):
        return -0.02 + 1.04 * a

    lo_x, hi_x = to_data(x0 - 2 * pad), to_data(x0 + w)
    lo_y, hi_y = to_data(y0), to_data(y0 + h + 2 * pad)
    count = 0
    for x, y in zip(xs, ys):
        if x.size == 0:
            continue
        order = np.argsort(x, kind="stable")
        # the drawn line, not only its vertices: sample it densely
        gx = np.linspace(x[order[0]], x[order[-1]], 400)
        gy = np.interp(gx, x[order], y[order])
        for px, py in ((x, y), (gx, gy)):
            count += int(
                np.count_nonzero((px >= lo_x) & (px <= hi_x) & (py >= lo_y) & (py <= hi_y))
            )
    return count


def draw_curves(disp, ax, data, labels, name, band, kwargs) -> None:
    """The reliability curves and their bands (``disp.lines_``, ``disp.bands_``)."""
    xs, ys, bxs, los, his = data
    multi = len(xs) > 1
    disp.lines_ = []
    disp.bands_ = []
    for k, (x, y) in enumerate(zip(xs, ys)):
        label = name if not multi else labels[k]
        if label is None:
            label = "CORP (isotonic)" if disp.method == "corp" else "binned (Murphy)"
        line_kw = {"label": label, "linewidth": 2, "zorder": 3}
        if disp.method == "murphy" or x.shape[0] <= 25:
            line_kw.update(marker="o", markersize=4)
        line_kw.update(kwargs)
        (line,) = ax.plot(x, y, **line_kw)
        disp.lines_.append(line)
        if band and los is not None:
            lo, hi, bx = los[k], his[k], bxs[k]
            ok = np.isfinite(lo) & np.isfinite(hi)
            if disp.band_kind == "confidence" and disp.method == "murphy":
                # one interval per bin: error bars
                band_label = (
                    f"{disp.confidence_level:.0%} confidence intervals" if k == 0 else None
                )
                artist = ax.vlines(
                    bx[ok],
                    lo[ok],
                    hi[ok],
                    color=line.get_color(),
                    alpha=0.45,
                    linewidth=4,
                    label=band_label,
                    zorder=2,
                )
            else:
                band_label = (
                    f"{disp.confidence_level:.0%} {disp.band_kind} band" if k == 0 else None
                )
                artist = ax.fill_between(
                    bx[ok],
                    lo[ok],
                    hi[ok],
                    color=line.get_color(),
                    alpha=0.18,
                    linewidth=0,
                    label=band_label,
                    zorder=2,
                )
            disp.bands_.append(artist)
    disp.line_ = disp.lines_[0]


def draw_axes_labels(disp, ax, multi: bool) -> None:
    """Axis labels, limits and grid of the diagram."""
    if disp.method == "corp":
        ylabel = "Conditional event probability (isotonic)"
    else:
        ylabel = "Observed frequency in bin"
    xlabel = "Forecast probability"
    if disp.pos_label is not None and not multi:
        xlabel += f" (positive class: {disp.pos_label})"
    ax.set(xlabel=xlabel, ylabel=ylabel, xlim=(-0.02, 1.02), ylim=(-0.02, 1.02))
    ax.set_box_aspect(1)
    ax.grid(True, linewidth=0.4, alpha=0.5)


def draw_histogram(disp, ax, multi: bool, hist: bool | str) -> None:
    """The forecast histogram on a twin axis (``disp.hist_ax_``, ``disp.hist_``).

    ``hist="shared"`` (or True): every curve's bars from the same baseline,
    on a common scale; ``"per_model"``: one strip per curve, stacked in the
    bottom quarter, each scaled to its own largest bar.
    """
    disp.hist_ax_ = None
    disp.hist_ = []
    if hist and disp.hist_weights is not None and disp.hist_edges is not None:
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
        per_model = hist == "per_model" and len(weights) > 1
        twin = ax.twinx()
        twin.set_gid(HISTOGRAM_GID)
        twin.set_box_aspect(1)
        top = max(float(np.max(wk)) for wk in weights) or 1.0
        for k, (e, wk) in enumerate(zip(edges, weights)):
            color = disp.lines_[k].get_color() if k < len(disp.lines_) else "0.5"
            if per_model:
                own = float(np.max(wk)) or 1.0
                heights, bottom = 0.85 * wk / own, float(k)
            else:
                heights, bottom = wk, 0.0
            bars = twin.bar(
                e[:-1],
                heights,
                width=np.diff(e),
                bottom=bottom,
                align="edge",
                color=color if multi else "0.55",
                alpha=(0.45 if per_model else 0.25) if multi else 0.35,
                edgecolor="white",
                linewidth=0.4,
            )
            disp.hist_.append(bars)
        if per_model:
            twin.set_ylim(0, 4.0 * len(weights))
            twin.set_yticks([])
            twin.set_ylabel(
                "forecasts (one strip per model)",
                fontsize="x-small",
                color="0.4",
                loc="bottom",
            )
        else:
            twin.set_ylim(0, 4.0 * top)
            twin.set_yticks([0, top])
            twin.tick_params(axis="y", labelsize="x-small", colors="0.4")
            twin.set_ylabel("forecasts", fontsize="x-small", color="0.4", loc="bottom")
        # the diagram stays on top of the bars
        ax.set_zorder(twin.get_zorder() + 1)
        ax.patch.set_visible(False)
        disp.hist_ax_ = twin


def draw_components(disp, cax, comps, labels, small) -> None:
    """The bar chart of the components (``disp.components_``)."""
    keys = [k for k in COMPONENT_LABELS if k in comps and comps[k] is not None]
    values = np.array([np.atleast_1d(np.asarray(comps[k], dtype=float)) for k in keys])
    n_curves = values.shape[1]
    pos = np.arange(len(keys), dtype=float)
    height = 0.8 / n_curves
    fontsize = "x-small" if small else "small"
    for c in range(n_curves):
        color = disp.lines_[c].get_color() if n_curves > 1 else None
        colors = (
            [color] * len(keys)
            if color is not None
            else [
                "#d62728"
                if k == "miscalibration"
                else "#2ca02c"
                if k == "discrimination"
                else "0.5"
                for k in keys
            ]
        )
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
                cax.text(v + 0.02 * vmax, y, f"{v:.4f}", va="center", fontsize=fontsize)
            cax.set_xlim(min(0.0, float(values.min())) * 1.1, vmax * 1.45)
    names = dict(COMPONENT_LABELS)
    if disp.method == "murphy":
        names.update(miscalibration="REL", discrimination="RES")
    cax.set_yticks(pos, [names[k] for k in keys], fontsize=fontsize)
    cax.invert_yaxis()
    cax.tick_params(axis="x", labelsize=fontsize)
    cax.axvline(0, color="0.3", linewidth=0.6)
    bs = comps.get("brier_score")
    if bs is not None:
        if "within_bin_variance" in keys:
            formula = "REL − RES + UNC + WBV − WBC"
        else:
            formula = "MCB − DSC + UNC"
        if getattr(disp, "curve_kind", "class") == "model" and n_curves > 1:
            # one Brier score per model: a sum would mean nothing
            cax.set_title(f"BS = {formula}", fontsize=fontsize)
        else:  # one forecaster (the classes' scores add up to its score)
            bs_total = float(np.sum(bs))
            cax.set_title(f"BS = {bs_total:.4f}\n= {formula}", fontsize=fontsize)
    if n_curves > 1 and not small:
        title = getattr(disp, "curve_kind", "class")
        cax.legend(fontsize="x-small", title=title, title_fontsize="x-small")
    if small:
        cax.patch.set_alpha(0.85)
