"""Calibration plot at a horizon for censored outcomes (matplotlib imported only to draw)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._core.format import format_number
from .._core.params import check_bool
from ..plotting._common import display_doc, draw_diagonal, model_line, new_axes, store_axes
from ..plotting._pyplot import check_line_kwargs
from ._prepare import unpack
from .horizon import SurvivalCalibrationResult, calibration_at_horizon

__all__ = ["SurvivalCalibrationDisplay"]

#: arguments of from_predictions that are not options of the statistic or drawing
_POSITIONAL = ("self", "y_event", "y_time", "surv_proba", "horizon", "ax")


@display_doc
class SurvivalCalibrationDisplay:
    """Observed against predicted risk at a horizon, with confidence limits.

    One curve per model: the mean predicted risk of each bin against the
    observed risk (Kaplan--Meier within the bin, or mean pseudo-observation;
    see :func:`~skbrier.survival.calibration_at_horizon`) with its confidence
    limits as error bars, the diagonal of perfect calibration and a histogram
    of the predicted risk at the bottom.  Build it with :meth:`from_predictions`
    or :meth:`from_result`.

    Parameters
    ----------
    results : dict of str to SurvivalCalibrationResult
        One result per model (legend label).

    Attributes
    ----------
    lines_ : dict of str to matplotlib Line2D
        The calibration curves.
    errorbars_ : dict of str to matplotlib ErrorbarContainer
        The confidence limits (empty when ``error_bars=False``).
    diagonal_line_ : matplotlib Line2D or None
        The line of perfect calibration.
    hist_ax_ : matplotlib Axes or None
        Twin axis holding the histograms.
    hist_ : dict of str to matplotlib BarContainer
        Histogram of predicted risk per model.
    {{axes_attributes}}

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from skbrier.survival import SurvivalCalibrationDisplay
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=300)
    >>> t_event = rng.exponential(1 / np.exp(0.7 * x))
    >>> t_cens = rng.exponential(2.0, 300)
    >>> time, event = np.minimum(t_event, t_cens), (t_event <= t_cens).astype(int)
    >>> surv = np.exp(-np.exp(0.7 * x) * 0.5)
    >>> disp = SurvivalCalibrationDisplay.from_predictions(event, time, surv, 0.5, n_bins=5)
    >>> sorted(disp.lines_)
    ['model']
    >>> disp.ax_.get_xlabel()
    'Predicted risk by t = 0.5'
    """

    def __init__(self, *, results: Mapping[str, SurvivalCalibrationResult]) -> None:
        if not isinstance(results, Mapping) or not results:
            raise TypeError("results must be a non-empty dict of name to result.")
        for name, res in results.items():
            if not isinstance(res, SurvivalCalibrationResult):
                raise TypeError(
                    f"results[{name!r}] must be a SurvivalCalibrationResult, "
                    f"got {type(res).__name__}."
                )
        horizons = sorted({float(res.horizon) for res in results.values()})
        if len(horizons) > 1:
            shown = ", ".join(format_number(h) for h in horizons)
            raise ValueError(
                f"results must be at one horizon (the axes are labelled with it), got "
                f"horizons {shown}: draw each horizon on its own axes."
            )
        self.results = {str(k): v for k, v in results.items()}

    @classmethod
    def from_result(
        cls,
        result: SurvivalCalibrationResult | Mapping[str, SurvivalCalibrationResult],
        *,
        name: str = "model",
        ax: Any = None,
        **plot_kwargs: Any,
    ) -> SurvivalCalibrationDisplay:
        """Plot one result of :func:`~skbrier.survival.calibration_at_horizon` (or a dict).

        Parameters
        ----------
        result : SurvivalCalibrationResult or dict of str to it
            The calibration at a horizon of one model or of several.
        name : str, default="model"
            Legend label of a single result.
        {{ax_plot_kwargs}}

        Returns
        -------
        SurvivalCalibrationDisplay
        """
        results = result if isinstance(result, Mapping) else {name: result}
        return cls(results=results).plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_event: Any,
        y_time: Any = None,
        surv_proba: Any = None,
        horizon: Any = None,
        *,
        name: str = "model",
        ax: Any = None,
        **kwargs: Any,
    ) -> SurvivalCalibrationDisplay:
        """Compute :func:`~skbrier.survival.calibration_at_horizon` and plot it.

        Parameters
        ----------
        y_event, y_time : array-like of shape (n_samples,)
            Event indicator and observed times (or a structured array and
            the other positional arguments moved left).
        surv_proba : array-like of shape (n_samples,) or dict of str to array-like
            Predicted survival probability at ``horizon``, of one model or several.
        horizon : float
            The horizon: one time point of the survival outcome.
        name : str, default="model"
            Legend label of a single model.
        {{ax}}
        **kwargs
            Every other keyword argument of
            :func:`~skbrier.survival.calibration_at_horizon` and of
            :meth:`plot` (options of the statistic and of the drawing).

        Returns
        -------
        SurvivalCalibrationDisplay
        """
        y_event, y_time, (surv_proba, horizon) = unpack(
            y_event, y_time, (surv_proba, horizon)
        )
        drawing = inspect.signature(cls.plot).parameters
        plot_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in drawing}
        options = inspect.signature(calibration_at_horizon).parameters
        unknown = [k for k in kwargs if k not in options]
        if unknown:
            known = sorted(k for k in (*options, *drawing) if k not in _POSITIONAL)
            raise TypeError(
                f"from_predictions got an unexpected keyword argument {unknown[0]!r}; "
                f"the options of the statistic and of the drawing are {known}."
            )
        models = surv_proba if isinstance(surv_proba, Mapping) else {name: surv_proba}
        results = {
            str(k): calibration_at_horizon(y_event, y_time, s, horizon, **kwargs)
            for k, s in models.items()
        }
        return cls(results=results).plot(ax=ax, **plot_kwargs)

    def plot(
        self,
        ax: Any = None,
        *,
        error_bars: bool = True,
        diagonal: bool = True,
        hist: bool = True,
        line_kwargs: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> SurvivalCalibrationDisplay:
        """Draw the calibration curves.

        Parameters
        ----------
        {{ax}}
        error_bars : bool, default=True
            Draw the confidence limits of the observed risk.
        diagonal : bool, default=True
            Draw the line of perfect calibration.
        hist : bool, default=True
            Draw the histogram of predicted risk at the bottom (twin axis).
        {{line_kwargs}}

        Returns
        -------
        SurvivalCalibrationDisplay
            ``self``, with ``ax_``, ``figure_``, ``lines_`` ... set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from skbrier.survival import SurvivalCalibrationDisplay, calibration_at_horizon
        >>> res = calibration_at_horizon([1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6],
        ...                              [0.6, 0.9, 0.4, 0.5, 0.8, 0.3], 3.5, n_bins=2)
        >>> fig, ax = plt.subplots()
        >>> SurvivalCalibrationDisplay.from_result(res, ax=ax, hist=False).ax_ is ax
        True
        """
        error_bars = check_bool(error_bars, "error_bars")
        diagonal = check_bool(diagonal, "diagonal")
        hist = check_bool(hist, "hist")
        line_kwargs = check_line_kwargs(line_kwargs, self.results)
        ax = new_axes(ax, "SurvivalCalibrationDisplay")
        self.lines_: dict[str, Any] = {}
        self.errorbars_: dict[str, Any] = {}
        self.hist_: dict[str, Any] = {}
        self.diagonal_line_ = None
        self.hist_ax_ = None
        if diagonal:
            self.diagonal_line_ = draw_diagonal(ax, "Perfectly calibrated")
        for name, res in self.results.items():
            line = model_line(
                ax, res.predicted, res.observed, name, line_kwargs, marker="o"
            )
            self.lines_[name] = line
            if (
                error_bars
                and res.observed_low is not None
                and res.observed_high is not None
            ):
                low = np.clip(res.observed - res.observed_low, 0.0, None)
                high = np.clip(res.observed_high - res.observed, 0.0, None)
                self.errorbars_[name] = ax.errorbar(
                    res.predicted,
                    res.observed,
                    yerr=np.vstack([low, high]),
                    fmt="none",
                    ecolor=line.get_color(),
                    capsize=3,
                    linewidth=1.0,
                )
        if hist:
            twin = None
            top = 0.0
            for name, res in self.results.items():
                if res.hist_edges is None or res.hist_weight is None:
                    continue
                if twin is None:
                    twin = ax.twinx()
                share = res.hist_weight / max(float(res.hist_weight.sum()), 1e-300)
                top = max(top, float(share.max()))
                self.hist_[name] = twin.bar(
                    res.hist_edges[:-1],
                    share,
                    width=np.diff(res.hist_edges),
                    align="edge",
                    color=self.lines_[name].get_color(),
                    alpha=0.25,
                    linewidth=0,
                )
            if twin is not None:
                twin.set_ylim(0.0, 4.0 * top if top > 0 else 1.0)
                twin.set_yticks([])
                self.hist_ax_ = twin
        horizon = next(iter(self.results.values())).horizon
        ax.set_xlim(0.0, 1.0)
        ax.set_ylim(0.0, 1.0)
        ax.set_xlabel(f"Predicted risk by t = {horizon:g}")
        ax.set_ylabel(f"Observed risk by t = {horizon:g}")
        ax.legend(loc="upper left")
        return store_axes(self, ax)
