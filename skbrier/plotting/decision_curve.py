"""Decision curve plot: net benefit against threshold probability.

matplotlib is imported only when something is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.optional import import_optional
from .._core.params import DEFAULT_CONFIDENCE_LEVEL, check_bool, check_option, check_real
from .._core.results import ConfidenceInterval
from ..metrics.net_benefit import DecisionCurveResult, decision_curve
from ._common import (
    binary_estimator_forecasts,
    check_name,
    check_result,
    display_doc,
    fill_band,
    model_line,
    new_axes,
    store_axes,
)
from ._pyplot import check_line_kwargs

__all__ = ["DecisionCurveDisplay", "cost_benefit_label"]

#: what a decision curve shows (``curve=`` of :meth:`DecisionCurveDisplay.plot`)
_CURVES = ("net_benefit", "net_intervention_avoided")


def _padded(low: float, high: float, pad: float = 0.05) -> tuple[float, float]:
    span = high - low
    span = span if span > 0 else max(abs(high), 1.0) * 0.1
    return low - pad * span, high + pad * span


def _add_finite_range(values: Any, lows: list[float], highs: list[float]) -> None:
    """Append the least and the greatest finite value of ``values`` (if any)."""
    finite = np.asarray(values)[np.isfinite(values)]
    if finite.size:
        lows.append(float(finite.min()))
        highs.append(float(finite.max()))


def cost_benefit_label(threshold: float) -> str:
    """Harm-to-benefit ratio implied by a threshold probability, as ``"1:19"``.

    A threshold :math:`p_t` means an unnecessary treatment is worth
    :math:`p_t / (1 - p_t)` missed events: ``"1:k"`` with
    :math:`k = (1 - p_t)/p_t` below 50 %, ``"k:1"`` above.

    Parameters
    ----------
    threshold : float
        Threshold probability; outside (0, 1) the label is empty.

    Returns
    -------
    str
        The ratio, e.g. ``"1:19"`` for 5 %, ``"1:1"`` for 50 %, ``"4:1"`` for 80 %.

    Examples
    --------
    >>> from skbrier.plotting.decision_curve import cost_benefit_label
    >>> [cost_benefit_label(t) for t in (0.05, 0.2, 0.5, 0.8)]
    ['1:19', '1:4', '1:1', '4:1']
    """
    t = float(threshold)
    if not 0.0 < t < 1.0:
        return ""
    if t <= 0.5:
        return f"1:{(1.0 - t) / t:.3g}"
    return f"{t / (1.0 - t):.3g}:1"


def _check_ylim(ylim: Any) -> tuple[float, float] | str | None:
    """``"auto"``, None or a pair of finite numbers."""
    if ylim is None or (isinstance(ylim, str) and ylim == "auto"):
        return ylim
    if isinstance(ylim, str):
        raise ValueError(f"ylim must be 'auto', None or a pair, got {ylim!r}.")  # noqa: TRY004
    try:
        low, high = ylim
    except (TypeError, ValueError):
        raise TypeError(f"ylim must be 'auto', None or a pair, got {ylim!r}.") from None
    return check_real(low, "ylim[0]"), check_real(high, "ylim[1]")


def smooth_curve(
    thresholds: np.ndarray, values: np.ndarray, frac: float
) -> tuple[np.ndarray, np.ndarray]:
    """dcurves' smoothed curve: ``(x, fitted)`` of statsmodels' lowess.

    ``dcurves.plot_graphs(smooth_frac=frac)`` draws
    ``statsmodels.nonparametric.lowess(values, thresholds, frac=frac)``
    (local linear fits on the nearest ``frac`` share of the thresholds,
    tricube weights, three robustness iterations); this is that call, so the
    smoothed curves equal dcurves'.  Missing values are left out; a single
    point left is drawn as it is (lowess returns it, with numpy's warnings).
    """
    # statsmodels' lowess is the one dcurves smooths with
    lowess = import_optional(
        "statsmodels.nonparametric.smoothers_lowess",
        needed_for="smooth_frac > 0 (the lowess smoothing of dcurves)",
    ).lowess
    values = np.asarray(values, dtype=float)
    finite = np.isfinite(values) & np.isfinite(thresholds)
    if np.count_nonzero(finite) < 2:  # nothing to smooth
        return thresholds[finite], values[finite]
    out = lowess(values, thresholds, frac=frac)
    return out[:, 0], out[:, 1]


def _check_thresholds_of_interest(values: Any) -> np.ndarray | None:
    """Sorted distinct thresholds in (0, 1), or None."""
    if values is None:
        return None
    arr = np.unique(np.atleast_1d(np.asarray(values, dtype=float)))
    if arr.ndim != 1 or not np.all((arr > 0.0) & (arr < 1.0)):
        raise ValueError(
            "thresholds_of_interest must be probabilities strictly between 0 and 1, "
            f"got {values!r}."
        )
    return arr


@display_doc
class DecisionCurveDisplay:
    """Decision curve visualization: net benefit of models, treat-all, treat-none.

    Create it with :meth:`from_predictions`, :meth:`from_estimator` or
    :meth:`from_result`; all attributes are stored so that :meth:`plot` can
    redraw on other axes.

    Parameters
    ----------
    thresholds : ndarray of shape (n_thresholds,)
        Threshold probabilities.
    net_benefit : dict of str to ndarray
        Net benefit per model.
    treat_all : ndarray of shape (n_thresholds,)
        Net benefit of treating everyone.
    prevalence : float
        Prevalence used for treat-all.
    bands : dict of str to ConfidenceInterval, default=None
        Pointwise confidence bands per model (from a bootstrap).
    result : DecisionCurveResult, default=None
        The result drawn (set by the ``from_*`` constructors).

    Attributes
    ----------
    lines_ : dict of str to matplotlib Line2D
        The model curves.
    treat_all_line_, treat_none_line_ : matplotlib Line2D or None
        The default strategies.
    bands_ : dict of str to matplotlib PolyCollection
        The filled confidence bands.
    secondary_ax_ : matplotlib SecondaryAxis or None
        The cost:benefit axis on top.
    curve_ : str
        What the last :meth:`plot` drew (its ``curve``).
    {{axes_attributes}}

    See Also
    --------
    skbrier.metrics.net_benefit.decision_curve : The numbers behind the plot.

    Notes
    -----
    Net benefit :math:`\\mathrm{NB}(p_t) = TP/n - FP/n \\cdot p_t/(1 - p_t)`;
    treat-all :math:`\\pi - (1 - \\pi) p_t/(1 - p_t)`; treat-none 0.  A model is
    worth using at the thresholds where its curve lies above both.  The top
    axis shows the cost:benefit ratio :math:`p_t : (1 - p_t)` (harm of an
    unnecessary treatment : benefit of a treated event).

    References
    ----------
    {{vickers_reference}}

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from skbrier.plotting.decision_curve import DecisionCurveDisplay
    >>> y = np.r_[np.ones(20), np.zeros(80)]
    >>> test = np.r_[np.ones(19), np.zeros(1), np.ones(40), np.zeros(40)]
    >>> disp = DecisionCurveDisplay.from_predictions(y, {"test": test})
    >>> sorted(disp.lines_)
    ['test']
    >>> disp.ax_.get_xlabel()
    'Threshold probability'
    """

    def __init__(
        self,
        *,
        thresholds: np.ndarray,
        net_benefit: Mapping[str, np.ndarray],
        treat_all: np.ndarray,
        prevalence: float,
        bands: Mapping[str, ConfidenceInterval] | None = None,
        result: DecisionCurveResult | None = None,
    ) -> None:
        self.thresholds = np.asarray(thresholds, dtype=float)
        self.net_benefit = dict(net_benefit)
        self.treat_all = np.asarray(treat_all, dtype=float)
        self.prevalence = float(prevalence)
        self.bands = None if bands is None else dict(bands)
        self.result = result

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_result(
        cls,
        result: DecisionCurveResult,
        *,
        ax: Any = None,
        **plot_kwargs: Any,
    ) -> DecisionCurveDisplay:
        """Plot a :class:`~skbrier.metrics.net_benefit.DecisionCurveResult`.

        Parameters
        ----------
        result : DecisionCurveResult
            Output of :func:`~skbrier.metrics.net_benefit.decision_curve`.
        {{ax_plot_kwargs}}

        Returns
        -------
        DecisionCurveDisplay

        Notes
        -----
        The bands drawn are those at the result's ``confidence_level`` (the
        level given to :func:`~skbrier.metrics.net_benefit.decision_curve`).
        """
        check_result(result, DecisionCurveResult)
        bands = result.bands
        disp = cls(
            thresholds=result.thresholds,
            net_benefit=result.curves(),
            treat_all=result.treat_all,
            prevalence=result.prevalence,
            bands=None
            if bands is None
            else {k: v for k, v in bands.items() if k in result.model_names},
            result=result,
        )
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_proba: ArrayLike | Mapping[str, ArrayLike],
        *,
        thresholds: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        prevalence: float | None = None,
        n_resamples: int = 0,
        confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
        random_state: Any = None,
        harm: float | Mapping[str, float] | None = None,
        n_jobs: int | None = None,
        name: str | None = None,
        ax: Any = None,
        **plot_kwargs: Any,
    ) -> DecisionCurveDisplay:
        """Decision curve from outcomes and predicted probabilities.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary outcomes.
        y_proba : array-like of shape (n_samples,) or dict of str to array-like
            Probabilities of ``pos_label`` (binary tests as 0/1), or
            ``{name: probabilities}`` for several models.
        thresholds : array-like, default=None
            Threshold probabilities in (0, 1); default 0.01, ..., 0.99.
        {{sample_weight}}
        {{pos_label}}
        prevalence : float, default=None
            Population prevalence for case-control samples.
        {{bootstrap_band}}
        harm : float or dict of str to float, default=None
            Harm of using the model(s), subtracted from the net benefit.
        n_jobs : int, default=None
            Threads for the bootstrap.
        {{name_model}}
        {{ax_plot_kwargs}}

        Returns
        -------
        DecisionCurveDisplay

        Notes
        -----
        The arrays are validated once, by
        :func:`~skbrier.metrics.net_benefit.decision_curve`; the display is
        then :meth:`from_result` of its result.
        """
        name = check_name(name)
        if name is not None and not isinstance(y_proba, Mapping):
            y_proba = {name: y_proba}
        result = decision_curve(
            y_true,
            y_proba,
            thresholds=thresholds,
            sample_weight=sample_weight,
            prevalence=prevalence,
            pos_label=pos_label,
            n_resamples=n_resamples,
            confidence_level=confidence_level,
            random_state=random_state,
            harm=harm,
            n_jobs=n_jobs,
        )
        return cls.from_result(result, ax=ax, **plot_kwargs)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        name: str | None = None,
        ax: Any = None,
        **kwargs: Any,
    ) -> DecisionCurveDisplay:
        """Decision curve of fitted binary classifier(s) on ``(X, y)``.

        Parameters
        ----------
        {{estimator_binary}}
        {{sample_weight}}
        {{pos_label_estimator}}
        {{name_estimator}}
        {{ax_forwarded_kwargs}}

        Returns
        -------
        DecisionCurveDisplay

        Raises
        ------
        ValueError
            If an estimator is not a fitted binary classifier or does not know
            ``pos_label``.
        """
        probas, pos = binary_estimator_forecasts(estimator, X, pos_label, name)
        return cls.from_predictions(
            y, probas, sample_weight=sample_weight, pos_label=pos, ax=ax, **kwargs
        )

    # ------------------------------------------------------------------ drawing
    def _auto_ylim(self, curve: str, per: float) -> tuple[float, float] | None:
        """The y limits of ``ylim="auto"`` (None: matplotlib's).

        Net benefit: every model's whole curve, and treat-all down to a
        little below zero.  The top is 1.1 times the highest model curve (or
        band, or the prevalence); the bottom is ``-0.15 * top`` (where
        treat-all leaves the useful range) unless a model curve dips lower:
        then the lowest model value, with a margin, so that a harmful model
        is never hidden.  Net interventions avoided: the finite range of the
        curves and zero, with a margin of 5 %.
        """
        if curve == "net_intervention_avoided":
            lows: list[float] = []
            highs: list[float] = []
            for v in self._interventions_avoided(per).values():
                _add_finite_range(v, lows, highs)
            if not lows:
                return None
            return _padded(min(min(lows), 0.0), max(max(highs), 0.0))
        highs = [self.prevalence]
        lows = []
        for k, v in self.net_benefit.items():
            _add_finite_range(v, lows, highs)
            if self.bands is not None and k in self.bands:
                highs.append(np.nanmax(self.bands[k].high))
        top = 1.1 * max(h for h in highs if np.isfinite(h))
        top = top if top > 0 else 0.05
        bottom = -0.15 * top
        if lows and min(lows) < bottom:
            bottom = min(lows) - 0.05 * (top - min(lows))
        return bottom, top

    def _interventions_avoided(self, per: float) -> dict[str, np.ndarray]:
        """Net interventions avoided per ``per`` patients of every model."""
        odds = self.thresholds / (1.0 - self.thresholds)
        if self.result is not None:
            return {
                k: np.asarray(v) * (per / 100.0)
                for k, v in self.result.interventions_avoided_by_model.items()
                if k in self.net_benefit
            }
        with np.errstate(divide="ignore", invalid="ignore"):
            return {
                k: (np.asarray(v) - self.treat_all) / odds * per
                for k, v in self.net_benefit.items()
            }

    def plot(
        self,
        ax: Any = None,
        *,
        curve: str = "net_benefit",
        per: float = 100,
        show_treat_all: bool = True,
        show_treat_none: bool = True,
        cost_benefit_axis: bool = True,
        ylim: tuple[float, float] | str | None = "auto",
        line_kwargs: Mapping[str, Mapping[str, Any]] | None = None,
        band_alpha: float = 0.2,
        thresholds_of_interest: ArrayLike | None = None,
        smooth_frac: float = 0.0,
    ) -> DecisionCurveDisplay:
        """Draw the decision curves.

        Parameters
        ----------
        {{ax}}
        curve : {"net_benefit", "net_intervention_avoided"}, default="net_benefit"
            What the curves show (dcurves' ``graph_type``): net benefit (with treat-all and
            treat-none), or the net interventions avoided of each model
            compared with treating everyone, per ``per`` patients, as
            ``dcurves.plot_graphs(graph_type="net_intervention_avoided")``
            (no default strategies and no bands: treat-all is 0 on this scale).
        per : float, default=100
            ``curve="net_intervention_avoided"``: the number of patients the
            count refers to (``dcurves``' ``nper``; 1 gives dcurves' default
            per-patient scale).
        show_treat_all, show_treat_none : bool, default=True
            Draw the default strategies.
        cost_benefit_axis : bool, default=True
            Add a top axis labelled with the cost:benefit ratio of each
            threshold.
        ylim : (float, float), "auto" or None, default="auto"
            Limits of the y axis.  "auto" shows every model's whole curve and
            cuts the treat-all curve, which tends to minus infinity, slightly
            below zero (or at the lowest model value, when a model's net
            benefit dips lower: harm is never hidden); None keeps
            matplotlib's.
        {{line_kwargs}}
        band_alpha : float, default=0.2
            Opacity of the confidence bands.
        thresholds_of_interest : array-like of float, default=None
            Thresholds to mark: a dotted vertical guide at each, and they
            are the ticks of the x axis (and of the cost:benefit axis).
        smooth_frac : float, default=0.0
            Draw each model's curve smoothed as dcurves' ``plot_graphs(
            smooth_frac=)`` does (``smooth_curve``: statsmodels'
            lowess with this ``frac``; needs statsmodels); 0 draws the
            curves as computed.  The default strategies and the bands are
            not smoothed.

        Returns
        -------
        DecisionCurveDisplay
            ``self``, with ``ax_``, ``figure_``, ``lines_`` ... set, and
            ``smoothed_`` (model name to the smoothed ``(x, y)``, empty
            without smoothing) and ``guides_`` (the vertical guides).

        Notes
        -----
        The x axis spans the thresholds of the curve (the ``thresholds``
        asked for, e.g. 0.05 to 0.5), not always 0 to 1.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from skbrier.metrics.net_benefit import decision_curve
        >>> from skbrier.plotting.decision_curve import DecisionCurveDisplay
        >>> res = decision_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> disp = DecisionCurveDisplay.from_result(res)
        >>> fig, ax = plt.subplots()
        >>> disp.plot(ax=ax, show_treat_all=False).ax_ is ax
        True
        """
        show_treat_all = check_bool(show_treat_all, "show_treat_all")
        show_treat_none = check_bool(show_treat_none, "show_treat_none")
        cost_benefit_axis = check_bool(cost_benefit_axis, "cost_benefit_axis")
        band_alpha = check_real(band_alpha, "band_alpha", low=0.0, high=1.0)
        curve = check_option(curve, "curve", _CURVES)
        per = check_real(per, "per", low=0.0)
        if not per > 0:
            raise ValueError(f"per must be positive, got {per!r}.")
        ylim = _check_ylim(ylim)
        marks = _check_thresholds_of_interest(thresholds_of_interest)
        self._smooth_frac = check_real(smooth_frac, "smooth_frac", low=0.0, high=1.0)
        self._line_kwargs = check_line_kwargs(line_kwargs, self.net_benefit)
        ax = new_axes(ax, "DecisionCurveDisplay")
        from matplotlib.ticker import FuncFormatter

        order = np.argsort(self.thresholds, kind="stable")
        t = self.thresholds[order]
        self.lines_: dict[str, Any] = {}
        self.bands_: dict[str, Any] = {}
        self.smoothed_: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.treat_all_line_ = None
        self.treat_none_line_ = None
        self.curve_ = curve
        if curve == "net_intervention_avoided":
            self._plot_interventions(ax, t, order, per)
        else:
            self._plot_net_benefit(
                ax, t, order, band_alpha, show_treat_all, show_treat_none
            )
        if ylim == "auto":
            ylim = self._auto_ylim(curve, per)
        if ylim is not None:
            ax.set_ylim(*ylim)
        ax.set_xlabel("Threshold probability")
        if t[-1] > t[0]:
            ax.set_xlim(float(t[0]), float(t[-1]))
        self.guides_ = []
        if marks is not None:
            ax.set_xticks(marks)
            self.guides_ = [
                ax.axvline(m, color="0.6", linestyle=":", linewidth=0.9, zorder=0)
                for m in marks
            ]
        ax.legend(loc="upper right")
        self.secondary_ax_ = None
        if cost_benefit_axis:
            sec = ax.secondary_xaxis("top")
            if marks is not None:
                sec.set_xticks(marks)
            sec.xaxis.set_major_formatter(
                FuncFormatter(lambda x, pos: cost_benefit_label(x))
            )
            sec.set_xlabel("Cost:benefit ratio")
            self.secondary_ax_ = sec
        return store_axes(self, ax)

    def _model_line(self, ax: Any, name: str, t: np.ndarray, values: np.ndarray) -> Any:
        """One model's curve (smoothed as dcurves with ``smooth_frac``)."""
        x, y = t, values
        if self._smooth_frac > 0:
            x, y = smooth_curve(t, values, self._smooth_frac)
            self.smoothed_[name] = (x, y)
        self.lines_[name] = model_line(ax, x, y, name, self._line_kwargs)
        return self.lines_[name]

    def _plot_interventions(
        self, ax: Any, t: np.ndarray, order: np.ndarray, per: float
    ) -> None:
        for name, v in self._interventions_avoided(per).items():
            self._model_line(ax, name, t, np.asarray(v)[order])
        ax.axhline(0.0, color="0.5", linewidth=0.8)
        label = "patient" if per == 1 else f"{per:g} patients"
        ax.set_ylabel(f"Net interventions avoided per {label}")

    def _plot_net_benefit(
        self,
        ax: Any,
        t: np.ndarray,
        order: np.ndarray,
        band_alpha: float,
        show_treat_all: bool,
        show_treat_none: bool,
    ) -> None:
        for name, nb in self.net_benefit.items():
            line = self._model_line(ax, name, t, np.asarray(nb)[order])
            if self.bands is not None and name in self.bands:
                band = self.bands[name]
                self.bands_[name] = fill_band(
                    ax,
                    t,
                    np.asarray(band.low)[order],
                    np.asarray(band.high)[order],
                    line.get_color(),
                    band_alpha,
                )
        if show_treat_all:
            (self.treat_all_line_,) = ax.plot(
                t, self.treat_all[order], color="0.5", linewidth=1.2, label="Treat all"
            )
        if show_treat_none:
            (self.treat_none_line_,) = ax.plot(
                t,
                np.zeros_like(t),
                color="black",
                linestyle="--",
                linewidth=1.0,
                label="Treat none",
            )
        ax.set_ylabel("Net benefit")
