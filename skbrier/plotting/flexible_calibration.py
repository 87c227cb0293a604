"""The calibration figure of a clinical report: the flexible (smooth)
calibration curve with its band, grouped points with their intervals, the
spike histogram under the curve and the key statistics, for one model or
several, in one panel or one panel per subgroup
(:class:`CalibrationCurveDisplay`), and the drawing of one
:class:`~skbrier.results.FlexibleCalibrationCurve`
(:func:`plot_flexible_calibration`, what ``FlexibleCalibrationCurve.plot()``
calls).

matplotlib is imported only when something is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.params import DEFAULT_CONFIDENCE_LEVEL, check_bool, check_confidence_level
from ._calibration_models import ModelParts, model_parts
from ._calibration_parts import (
    corner_anchor,
    draw_spikes,
    emptiest_corner,
    histogram_bottom,
    statistics_lines,
    unit_square,
)
from ._common import (
    binary_estimator_forecasts,
    check_axes,
    check_name,
    display_doc,
    draw_diagonal,
    fill_band,
    model_line,
)
from ._flexible_draw import _NAMES, DIAGONAL_GID, _first_draw, plot_flexible_calibration
from ._pyplot import check_line_kwargs, import_pyplot
from ._reliability_bins import INTERVALS, check_binning
from ._reliability_models import model_forecasts

__all__ = ["CalibrationCurveDisplay", "plot_flexible_calibration"]

#: line styles and markers of the models, in turn
_STYLES = ("-", (0, (6, 2)), "-.", (0, (1, 1.5)))
_MARKERS = ("o", "s", "^", "D", "v")
#: most models whose spike histograms are stacked under the curve area
MAX_HISTOGRAMS = 3
#: horizontal offset between the grouped points of two models
_OFFSET = 0.008


@display_doc
class CalibrationCurveDisplay:
    r"""Flexible calibration curve of probability forecasts, for a clinical report.

    One panel shows, for each model, the smooth calibration curve
    (:func:`~skbrier.metrics.flexible_calibration_curve`; loess on the
    forecasts by default, as ``val.prob.ci.2`` of the R package
    CalibrationCurves) with its pointwise band, the observed frequency in
    groups of forecasts (deciles by default) with Wilson or
    Clopper--Pearson intervals, and under the curve area a spike histogram
    of the forecasts, events up from a baseline and non-events down (as
    ``rms::val.prob``).  The key statistics (calibration intercept and
    slope with their intervals, C, Brier score, ICI and E90) are printed in
    the corner of the panel with the fewest data; the legend takes the next
    emptiest corner.  Several models get distinct line styles and markers,
    points offset sideways and one histogram baseline each (up to
    three; with more the histograms are left out and the
    panel says so).  ``groups=`` draws small multiples: one panel per
    subgroup or centre, sharing the axes, with n and the events in each
    title.

    Build it with :meth:`from_predictions` or :meth:`from_estimator`; the
    constructor only stores data and :meth:`plot` draws.

    Parameters
    ----------
    parts : dict
        ``{group: {model: ModelParts}}``; the group is None for one panel.
        What one model shows on one panel: its curve, grouped points,
        statistics, n and events (made by the ``from_*`` constructors).
    confidence_level : float, default=0.95
        Level of the band, the intervals of the points and of the
        statistics (for the labels).
    interval : {"wilson", "clopper_pearson"} or None, default="wilson"
        What the intervals of the points are (for the legend).

    Attributes
    ----------
    axes_ : ndarray of matplotlib Axes
        One panel per group (one element without groups).
    ax_ : matplotlib Axes
        The first panel.
    figure_ : matplotlib Figure
    lines_ : dict of (group, model) to matplotlib Line2D
        The smooth curves (group None without groups).
    line_ : matplotlib Line2D
        The first curve.
    bands_ : dict of (group, model) to matplotlib PolyCollection
        The pointwise bands.
    points_ : dict of (group, model) to matplotlib ErrorbarContainer
        The grouped points and their intervals.
    spikes_ : dict of (group, model) to list of matplotlib artists
        The spike histograms.
    statistics_ : dict of group to matplotlib AnchoredOffsetbox
        The box of statistics of each panel.
    statistics_text_ : dict of (group, model) to str
        The statistics printed.
    notes_ : list of str
        What the figure leaves out (e.g. histograms of many models).

    See Also
    --------
    skbrier.metrics.flexible_calibration_curve : the curve and ICI family.
    skbrier.plotting.ReliabilityDisplay : binned and CORP reliability diagrams.

    Notes
    -----
    The curve estimates :math:`c(p) = P(y = 1 \mid p)`; a calibrated model
    has :math:`c(p) = p`.  The intercept is calibration in the large
    (:math:`a` in :math:`\operatorname{logit} P(y=1) = a +
    \operatorname{logit}(p)`) and the slope :math:`b` in
    :math:`\operatorname{logit} P(y=1) = a' + b \operatorname{logit}(p)`,
    both with Wald intervals, as ``val.prob.ci.2``.

    References
    ----------
    .. [1] B. Van Calster et al., "A calibration hierarchy for risk models was
       defined: from utopia to empirical data", Journal of Clinical
       Epidemiology 74, 167-176, 2016.
    .. [2] F. E. Harrell, ``rms`` package, function ``val.prob``.

    Examples
    --------
    {{doctest_forecasts}}
    >>> from skbrier.plotting import CalibrationCurveDisplay
    >>> disp = CalibrationCurveDisplay.from_predictions(d["y"], d["model_b"], name="b")
    >>> disp.line_.get_label()
    'b'
    >>> disp.statistics_text_[None, "b"].splitlines()[0][:9]
    'Intercept'
    """

    def __init__(
        self,
        parts: Mapping[Any, Mapping[str, ModelParts]],
        *,
        confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
        interval: str | None = "wilson",
    ) -> None:
        self.parts = {g: dict(models) for g, models in parts.items()}
        if not any(self.parts.values()):
            raise ValueError(
                "parts is empty: give at least one model's curve, or build the "
                "display with from_predictions or from_estimator."
            )
        self.confidence_level = confidence_level
        self.interval = interval

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_proba: ArrayLike | Mapping[str, ArrayLike],
        *,
        groups: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        smoother: str = "loess",
        transform: str | None = None,
        span: float = 0.75,
        band: str | None = "analytic",
        confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
        n_bins: int | str = 10,
        strategy: Any = "quantile",
        interval: str | None = "wilson",
        name: str | None = None,
        ax: Any = None,
        **plot_kwargs: Any,
    ) -> CalibrationCurveDisplay:
        """The calibration figure of forecasts ``y_proba`` for outcomes ``y_true``.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary outcomes.
        y_proba : array-like of shape (n_samples,), dict of str to array-like or DataFrame
            Predicted probabilities of ``pos_label``, or several models of
            the same outcomes: ``{name: probabilities}`` or a DataFrame with
            one column per model.
        groups : array-like of shape (n_samples,), default=None
            Subgroup or centre of each row: one panel per distinct value
            (sorted), sharing the axes.
        {{sample_weight}}
        {{pos_label}}
        smoother : {"loess", "rcs", "ns", "gam", "lowess"}, default="loess"
            The smoother of
            :func:`~skbrier.metrics.flexible_calibration_curve`.
        transform : {"logit"} or None, default=None
            Smooth on ``logit(p)``, or on ``p`` (None: ``val.prob.ci.2``).
        span : float, default=0.75
            Fraction of the observations in each local fit of loess.
        band : {"analytic", "bootstrap", "simulation"} or None, default="analytic"
            The curve's pointwise band (None: none; ``"simulation"``: for
            ``"rcs"``, ``"ns"`` and ``"gam"``).
        confidence_level : float, default=0.95
            Level of the band, of the intervals of the points and of the
            statistics.
        n_bins : int or "cube_root", default=10
            Number of groups of forecasts (10 with ``"quantile"``: deciles).
        strategy : {"quantile", "uniform"} or array of edges, default="quantile"
            Groups of equal (weighted) count or equal width, or explicit
            edges (scikit-learn's bins).
        interval : {"wilson", "clopper_pearson"} or None, default="wilson"
            Interval of the observed frequency of each group (None: none).
        name : str, default=None
            Legend name of one model (default: the smoother's name).
        {{ax_plot_kwargs}}

        Returns
        -------
        CalibrationCurveDisplay

        Raises
        ------
        ValueError
            For invalid input, or a group with a single outcome class (the
            message names the group).

        Examples
        --------
        {{doctest_forecasts}}
        >>> import numpy as np
        >>> from skbrier.plotting import CalibrationCurveDisplay
        >>> centre = np.arange(len(d["y"])) % 2
        >>> disp = CalibrationCurveDisplay.from_predictions(
        ...     d["y"], {"a": d["model_a"], "b": d["model_b"]}, groups=centre)
        >>> len(disp.axes_), sorted(disp.lines_)[:2]
        (2, [(0, 'a'), (0, 'b')])
        """
        n_bins, strategy = check_binning(n_bins, strategy)
        level = check_confidence_level(confidence_level)
        if interval is not None and interval not in INTERVALS:
            raise ValueError(
                f"interval must be one of {INTERVALS} or None, got {interval!r}."
            )
        models = model_forecasts(y_true, y_proba)
        if models is None:
            label = check_name(name) or _NAMES.get(smoother, str(smoother))
            models = {label: y_proba}
        options = {
            "curve_options": {
                "smoother": smoother,
                "transform": transform,
                "span": span,
                "band": band,
            },
            "n_bins": n_bins,
            "strategy": strategy,
            "interval": interval,
            "confidence_level": level,
            "pos_label": pos_label,
        }
        parts: dict[Any, dict[str, ModelParts]] = {}
        for group, rows in _group_rows(y_true, groups):
            parts[group] = {}
            for key, proba in models.items():
                y, p, w = (_take(a, rows) for a in (y_true, proba, sample_weight))
                try:
                    parts[group][key] = model_parts(y, p, w, **options)
                except ValueError as exc:
                    if group is None:
                        raise
                    raise ValueError(f"group {group!r}, model {key!r}: {exc}") from exc
        disp = cls(parts, confidence_level=level, interval=interval)
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        *,
        pos_label: Any = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CalibrationCurveDisplay:
        """The calibration figure of fitted binary classifier(s) on ``(X, y)``.

        Parameters
        ----------
        {{estimator_binary}}
        {{pos_label_estimator}}
        {{name_estimator}}
        **kwargs
            Every other keyword argument of :meth:`from_predictions` (options
            of the statistic and of the drawing: ``groups``, ``sample_weight``,
            the curve's and the points' options, ``ax`` and those of
            :meth:`plot`).

        Returns
        -------
        CalibrationCurveDisplay

        Examples
        --------
        {{doctest_classifier}}
        >>> from skbrier.plotting import CalibrationCurveDisplay
        >>> disp = CalibrationCurveDisplay.from_estimator(clf, X[200:], y[200:])
        >>> disp.line_.get_label()
        'LogisticRegression'
        """
        probas, pos = binary_estimator_forecasts(estimator, X, pos_label, name)
        return cls.from_predictions(y, probas, pos_label=pos, **kwargs)

    # ------------------------------------------------------------------ drawing
    def plot(
        self,
        ax: Any = None,
        *,
        histogram: bool = True,
        statistics: bool = True,
        points: bool = True,
        band: bool = True,
        line_kwargs: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> CalibrationCurveDisplay:
        """Draw the figure.

        Parameters
        ----------
        ax : matplotlib Axes or array of Axes, default=None
            Axes to draw on (one per group with ``groups``); a new figure if
            None (a grid of panels sharing the axes with ``groups``).
        histogram : bool, default=True
            Draw the spike histograms under the curve area (stacked, one
            baseline per model, up to three models).
        statistics : bool, default=True
            Print the key statistics in the emptiest corner of each panel.
        points : bool, default=True
            Draw the grouped points and their intervals.
        band : bool, default=True
            Draw the curves' bands.
        {{line_kwargs}}

        Returns
        -------
        CalibrationCurveDisplay
            ``self``, with the artists as attributes.

        Examples
        --------
        {{doctest_forecasts}}
        >>> import matplotlib.pyplot as plt
        >>> from skbrier.plotting import CalibrationCurveDisplay
        >>> disp = CalibrationCurveDisplay.from_predictions(d["y"], d["model_a"])
        >>> fig, ax = plt.subplots()
        >>> disp.plot(ax=ax, statistics=False).ax_ is ax
        True
        """
        flags = {
            "histogram": histogram,
            "statistics": statistics,
            "points": points,
            "band": band,
        }
        for key, value in flags.items():
            flags[key] = check_bool(value, key)
        groups = list(self.parts)
        models = dict.fromkeys(m for g in groups for m in self.parts[g])
        line_kwargs = check_line_kwargs(line_kwargs, models)
        axes = self._axes(ax, groups)
        self.axes_ = axes
        self.ax_, self.figure_ = axes[0], axes[0].figure
        self.lines_: dict[tuple, Any] = {}
        self.bands_: dict[tuple, Any] = {}
        self.points_: dict[tuple, Any] = {}
        self.spikes_: dict[tuple, Any] = {}
        self.statistics_: dict[Any, Any] = {}
        self.statistics_text_: dict[tuple, str] = {}
        self.notes_: list[str] = []
        for k, (group, axk) in enumerate(zip(groups, axes)):
            self._panel(axk, group, flags, line_kwargs, legend=k == 0)
        if len(groups) > 1:  # small multiples: one legend for all, under them
            handles, labels = axes[0].get_legend_handles_labels()
            self.figure_.legend(
                handles,
                labels,
                loc="outside lower center",
                ncols=min(len(labels), 4),
                fontsize="small",
            )
        self.line_ = next(iter(self.lines_.values()))
        return self

    def _axes(self, ax: Any, groups: list) -> np.ndarray:
        """One Axes per group: ``ax`` (one, or an array), or a new grid."""
        if ax is not None:
            axes = np.ravel(np.asarray(ax, dtype=object))
            for one in axes:
                check_axes(one)
            if axes.shape[0] < len(groups):
                raise ValueError(
                    f"ax must hold one Axes per group ({len(groups)}), got "
                    f"{axes.shape[0]}; pass ax=None for a new grid of panels."
                )
            return axes[: len(groups)]
        plt = import_pyplot("CalibrationCurveDisplay")
        if groups == [None]:
            _, one = plt.subplots(figsize=(5.6, 6.0), layout="constrained")
            return np.array([one], dtype=object)
        ncols = math.ceil(math.sqrt(len(groups)))
        nrows = math.ceil(len(groups) / ncols)
        _, grid = plt.subplots(
            nrows,
            ncols,
            sharex=True,
            sharey=True,
            squeeze=False,
            figsize=(3.9 * ncols, 4.2 * nrows),
            layout="constrained",
        )
        for extra in grid.ravel()[len(groups) :]:
            extra.set_axis_off()
        return grid.ravel()[: len(groups)]

    def _panel(
        self, ax: Any, group: Any, flags: dict, line_kwargs: dict, legend: bool
    ) -> None:
        from matplotlib.offsetbox import AnchoredOffsetbox, TextArea, VPacker

        models = self.parts[group]
        stacked = flags["histogram"] and len(models) <= MAX_HISTOGRAMS
        many = len(models) > 1
        ax.grid(True, linewidth=0.4, alpha=0.4)
        if _first_draw(ax):
            draw_diagonal(ax, "ideal", gid=DIAGONAL_GID)
        xy: list[tuple[Any, Any]] = []
        boxes: list[Any] = []
        for k, (key, part) in enumerate(models.items()):
            curve = part.curve
            line = model_line(
                ax,
                curve.grid,
                curve.estimate,
                key,
                line_kwargs,
                color=f"C{k}",
                linestyle=_STYLES[k % len(_STYLES)],
                linewidth=1.8,
            )
            color = line.get_color()
            self.lines_[group, key] = line
            xy.append((curve.grid, curve.estimate))
            if flags["band"] and curve.lower is not None and curve.upper is not None:
                self.bands_[group, key] = fill_band(
                    ax, curve.grid, curve.lower, curve.upper, color, 0.15 if many else 0.2
                )
                xy += [(curve.grid, curve.lower), (curve.grid, curve.upper)]
            if flags["points"]:
                self.points_[group, key] = self._points(ax, part, k, len(models), color)
                xy.append(part.points[:2])
            if stacked:
                y, p, w = curve._forecasts()
                hname = key if many else None
                self.spikes_[group, key] = draw_spikes(
                    ax, y, p, w, k, color if many else "0.35", hname
                )
            text = "\n".join(statistics_lines(part.statistics))
            self.statistics_text_[group, key] = text
            head = f"{key}\n" if many else ""
            boxes.append(
                TextArea(
                    head + text,
                    textprops={"color": color if many else "black", "fontsize": "x-small"},
                )
            )
        if flags["histogram"] and not stacked:
            note = f"histograms left out: more than {MAX_HISTOGRAMS} models"
            self.notes_.append(note)
            ax.text(0.5, -0.06, note, ha="center", va="center", fontsize="x-small")
        unit_square(ax, histogram_bottom(len(models)) if stacked else -0.1)
        ax.set_yticks(np.linspace(0.0, 1.0, 6))
        if group is not None:
            n, ev = (next(iter(models.values())).n, next(iter(models.values())).events)
            ax.set_title(f"{group} (n = {n:g}, events = {ev:g})", fontsize="small")
        anchor = corner_anchor(ax)
        taken: tuple[str, ...] = ()
        if flags["statistics"]:
            level = f"{100 * self.confidence_level:g}% CI in brackets"
            boxes.append(
                TextArea(level, textprops={"fontsize": "xx-small", "color": "0.3"})
            )

            def stats_box(loc: str) -> Any:
                box = AnchoredOffsetbox(
                    loc=loc,
                    child=VPacker(children=boxes, pad=0, sep=4),
                    bbox_to_anchor=anchor,
                    bbox_transform=ax.transAxes,
                    frameon=True,
                    pad=0.3,
                    borderpad=0.4,
                )
                box.patch.set(alpha=0.85, edgecolor="0.8")
                return ax.add_artist(box)

            taken = (emptiest_corner(ax, stats_box, xy),)
            self.statistics_[group] = stats_box(taken[0])
        if len(self.parts) > 1:
            ax.label_outer()
        elif legend:

            def legend_box(loc: str) -> Any:
                return ax.legend(
                    loc=loc, bbox_to_anchor=anchor, fontsize="x-small", framealpha=0.85
                )

            legend_box(emptiest_corner(ax, legend_box, xy, exclude=taken))

    def _points(self, ax: Any, part: ModelParts, k: int, m: int, color: Any) -> Any:
        """The grouped points of model ``k`` of ``m``, offset sideways."""
        x, obs, lo, hi = part.points
        shift = (k - (m - 1) / 2.0) * _OFFSET
        ok = np.isfinite(lo) & np.isfinite(hi)
        yerr = np.vstack([np.where(ok, obs - lo, 0.0), np.where(ok, hi - obs, 0.0)])
        label = None
        if k == 0 and self.interval is not None:
            name = {"wilson": "Wilson", "clopper_pearson": "Clopper–Pearson"}
            label = f"groups, {100 * self.confidence_level:g}% {name[self.interval]}"
        return ax.errorbar(
            x + shift,
            obs,
            yerr=np.clip(yerr, 0.0, None),
            fmt=_MARKERS[k % len(_MARKERS)],
            color=color,
            markersize=4,
            capsize=2,
            linewidth=0.9,
            label=label,
            zorder=3,
        )


def _group_rows(y_true: Any, groups: Any) -> list[tuple[Any, np.ndarray | None]]:
    """``[(group, row indices)]`` (sorted groups), or ``[(None, None)]``."""
    if groups is None:
        return [(None, None)]
    g = np.asarray(groups)
    n = len(y_true) if hasattr(y_true, "__len__") else np.shape(y_true)[0]
    if g.ndim != 1 or g.shape[0] != n:
        raise ValueError(
            f"groups must hold one label per sample ({n}), got shape {g.shape}."
        )
    values = np.unique(g)
    return [(v.item() if hasattr(v, "item") else v, np.flatnonzero(g == v)) for v in values]


def _take(a: Any, rows: np.ndarray | None) -> Any:
    """Rows ``rows`` of ``a`` (all of it for None; None stays None)."""
    if a is None or rows is None:
        return a
    if hasattr(a, "iloc"):
        return a.iloc[rows]
    return np.asarray(a)[rows]
