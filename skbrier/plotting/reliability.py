"""Reliability diagram: scikit-learn's calibration curve, with weights,
per-bin intervals, several models, or the CORP curve with its consistency band.

matplotlib is optional: it is imported only when something is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any

from numpy.typing import ArrayLike

from .._core.params import DEFAULT_CONFIDENCE_LEVEL
from .._decomposition_options import estimator_proba, resolve_method
from ._common import check_axes, display_doc, draw_diagonal, store_axes
from ._multiclass_reliability import MulticlassReliabilityDisplay as _Multi
from ._multiclass_reliability import multiclass_display, multiclass_proba
from ._pyplot import check_line_properties, import_pyplot
from ._reliability_data import check_curves, display_kwargs
from ._reliability_draw import (
    DIAGONAL_GID,
    dedupe_legend,
    draw_axes_labels,
    draw_components,
    draw_curves,
    draw_histogram,
    existing_parts,
)
from ._reliability_models import auto_resamples as _auto_resamples
from ._reliability_models import (
    display_data,
    model_estimators,
    model_forecasts,
    models_data,
)

__all__ = ["ReliabilityDisplay"]


@display_doc
@dataclass(repr=False, eq=False)
class ReliabilityDisplay:
    r"""Reliability diagram of probability forecasts.

    The diagram plots the observed frequency of the event against the
    forecast probability, with the diagonal of perfect calibration, a
    histogram of the forecasts in a panel under it and, optionally, the
    Brier score components in a panel beside it.  Two curves are drawn:

    * **binned** (``decomposition_method="murphy"``): the mean forecast and the observed
      frequency of each bin, in the bins of scikit-learn's
      :func:`~sklearn.calibration.calibration_curve` (the same points, to
      the last bit), with per-bin Wilson or Clopper--Pearson intervals;
      unlike :class:`~sklearn.calibration.CalibrationDisplay` it takes
      sample weights and several models;
    * **CORP** (``decomposition_method="corp"``, the default): the isotonic (PAV)
      recalibration of the forecasts, constant on each PAV block and linear
      in between, with a consistency band: the range the curve would fill,
      at the given level, if the forecasts were calibrated.

    Build it with :meth:`from_predictions`, :meth:`from_estimator` or
    :meth:`from_result` (a decomposition result, or a fitted
    :class:`~skbrier.decomposition.BrierDecomposition`).  The constructor only
    stores data; :meth:`plot` draws.

    Parameters
    ----------
    forecast : array-like of shape (n_points,) or list of such arrays
        x coordinates: the distinct forecast values (CORP) or the mean
        forecast of each bin (binned).  A list holds one curve per class or
        model.
    observed : array-like, same shape as ``forecast``
        y coordinates: recalibrated probabilities (CORP) or observed
        frequencies per bin (binned).
    band_forecast : array-like or list of such, default=None
        x coordinates of the band (default: ``forecast``).
    band_lower, band_upper : array-like, same shape as ``band_forecast``, default=None
        Lower and upper limit of the band at each ``band_forecast`` value.
    band_kind : {"consistency", "wilson", "clopper_pearson"}, default="consistency"
        What the band is, for the legend.
    confidence_level : float, default=0.95
        Level of the band, for the legend.
    decomposition_method : {"corp", "murphy"}, default="corp"
        How the curve was estimated: a binned curve is drawn with markers and
        its band as one interval per bin.
    hist_edges : array-like of shape (n_hist_bins + 1,) or list of such, default=None
        Edges of the forecast histogram (one array for every curve, or one
        per curve).
    hist_weights : array-like of shape (n_hist_bins,) or list of such, default=None
        Total (sample) weight of the forecasts in each histogram bin.
    components : dict, default=None
        ``{"brier_score": ..., "miscalibration": ..., "discrimination": ...,
        "uncertainty": ...}`` and optionally ``"within_bin_variance"`` and
        ``"within_bin_covariance"``; floats for one curve, or one value per
        curve.
    curve_labels : sequence of str, default=None
        Name of each curve (the class labels for one-vs-rest multiclass, the
        model names for several models).
    estimator_name : str, default=None
        Name of the forecaster, for the legend.
    pos_label : int, float, bool or str, default=None
        The positive class, for the axis label.
    curve_kind : {"class", "model"}, default="class"
        What the curves are: the classes of one forecaster, or several
        forecasters of the same binary outcome.

    Attributes
    ----------
    {{axes_attributes}}
    lines_ : list of matplotlib Line2D
        The reliability curves.
    line_ : matplotlib Line2D
        The first (for one forecaster the only) curve.
    bands_ : list of matplotlib PolyCollection or LineCollection
        The bands (CORP) or per-bin interval bars (binned) drawn.
    ref_line_ : matplotlib Line2D or None
        The diagonal of perfect calibration.
    hist_ax_ : matplotlib Axes or None
        The panel under the diagram holding the forecast histogram.
    hist_ : list of matplotlib BarContainer
        The histogram bars (one container per curve).
    components_ax_ : matplotlib Axes or None
        Axes with the component bar chart.
    components_ : list of matplotlib BarContainer
        The component bars (one container per curve).

    See Also
    --------
    skbrier.decomposition.BrierDecomposition : the decomposition behind the picture.
    sklearn.calibration.CalibrationDisplay : scikit-learn's binned calibration curve.

    Notes
    -----
    The Brier score splits as :math:`\mathrm{BS} = \mathrm{MCB} - \mathrm{DSC}
    + \mathrm{UNC}` (CORP, exact) or :math:`\mathrm{BS} = \mathrm{REL} -
    \mathrm{RES} + \mathrm{UNC} + \mathrm{WBV} - \mathrm{WBC}` (binned, with
    the Stephenson--Coelho--Jolliffe within-bin terms).  The consistency band
    follows the R package reliabilitydiag: forecasts are resampled, new
    outcomes are drawn as Bernoulli variables with the forecast as success
    probability, and the pointwise quantiles of the recalibrated curves of
    those calibrated samples are shown.  A curve leaving the band is evidence
    of miscalibration at that forecast value.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118, 2021.
    .. [2] A. Niculescu-Mizil and R. Caruana, "Predicting good probabilities
       with supervised learning", ICML 2005.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skbrier.plotting.reliability import ReliabilityDisplay
    >>> disp = ReliabilityDisplay.from_predictions(
    ...     [0, 0, 0, 1, 1, 1], [0.4, 0.3, 0.2, 0.1, 0.5, 0.9], n_resamples=0)
    >>> disp.components["miscalibration"]
    0.1016666...
    >>> disp.line_.get_xydata().shape
    (6, 2)
    """

    # the parameters, stored as given (the constructor only stores data)
    forecast: ArrayLike | Sequence[ArrayLike]
    observed: ArrayLike | Sequence[ArrayLike]
    _: KW_ONLY
    band_forecast: ArrayLike | Sequence[ArrayLike] | None = None
    band_lower: ArrayLike | Sequence[ArrayLike] | None = None
    band_upper: ArrayLike | Sequence[ArrayLike] | None = None
    band_kind: str = "consistency"
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL
    decomposition_method: str = "corp"
    hist_edges: ArrayLike | None = None
    hist_weights: ArrayLike | Sequence[ArrayLike] | None = None
    components: dict | None = None
    curve_labels: Sequence[str] | None = None
    estimator_name: str | None = None
    pos_label: Any = None
    curve_kind: str = "class"

    def plot(
        self,
        ax: Any = None,
        *,
        name: str | None = None,
        ref_line: bool = True,
        band: bool = True,
        hist: bool | str = True,
        components: bool = True,
        components_ax: Any = None,
        **kwargs: Any,
    ) -> ReliabilityDisplay:
        """Draw the reliability diagram.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes of the diagram.  If None, a new figure is made with the
            diagram and, when there are components, their panel on the right.
        name : str, default=None
            Name of the forecaster for the legend (overrides
            ``estimator_name``).
        ref_line : bool, default=True
            Draw the diagonal of perfect calibration.
        band : bool, default=True
            Draw the band or the per-bin intervals when there are some.
        hist : bool or {"shared", "per_model"}, default=True
            Draw the histogram of the forecasts in a panel under the diagram
            (sharing its x axis).  With several curves, ``"shared"`` draws
            every curve's bars from one baseline on a common scale and
            ``"per_model"`` one strip per curve, each scaled to its own
            largest bar; True is ``"per_model"`` for several models and
            ``"shared"`` otherwise.
        components : bool, default=True
            Draw the bar chart of the components: in its own panel of a new
            figure (``ax=None``), or on ``components_ax``.  Nothing is drawn
            over the diagram: with a given ``ax`` and no ``components_ax``
            the components are not drawn.
        components_ax : matplotlib Axes, default=None
            Axes for the component bar chart.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.plot` for the curves.

        Returns
        -------
        ReliabilityDisplay
            ``self``, with the artists stored as attributes.

        Notes
        -----
        Several forecasters go on one diagram with one call
        (``from_predictions(y, {"a": p_a, "b": p_b})``).  Drawing a display
        on an ``ax`` that already holds a reliability diagram (an overlay)
        adds its curves and bands only: the diagonal and the histogram are
        drawn once per axes, and the legend has one entry per label.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from skbrier.plotting.reliability import ReliabilityDisplay
        >>> disp = ReliabilityDisplay([0.1, 0.5, 0.9], [0.2, 0.5, 0.8],
        ...                           hist_edges=[0, 0.5, 1], hist_weights=[4, 6])
        >>> fig, ax = plt.subplots()
        >>> disp = disp.plot(ax=ax, name="toy")
        >>> disp.hist_ax_ in ax.child_axes  # the panel under the diagram
        True
        """
        plt = import_pyplot("ReliabilityDisplay")
        check_axes(ax)
        check_axes(components_ax, "components_ax")
        check_line_properties(kwargs, "ReliabilityDisplay")
        xs, ys, bxs, los, his, labels = check_curves(self)
        if hist not in (True, False, "shared", "per_model"):
            raise ValueError(
                f"hist must be True, False, 'shared' or 'per_model', got {hist!r}."
            )
        name = self.estimator_name if name is None else name
        comps = self.components if components else None
        if ax is None:
            if comps is not None and components_ax is None:
                _fig, (ax, components_ax) = plt.subplots(
                    1,
                    2,
                    figsize=(9.6, 6.0),
                    gridspec_kw={"width_ratios": [3, 1.4]},
                    layout="constrained",
                )
                components_ax.set_box_aspect(0.9)
            else:
                _fig, ax = plt.subplots(figsize=(5.6, 6.0), layout="constrained")
        store_axes(self, ax)

        multi = len(xs) > 1
        if labels is None:
            labels = [f"class {k}" for k in range(len(xs))] if multi else [None]
        models = multi and self.curve_kind == "model"
        # an overlay on a diagram already drawn adds curves and bands only
        drawn = existing_parts(ax)
        self.ref_line_ = None
        if ref_line and not drawn["ref_line"]:
            self.ref_line_ = draw_diagonal(
                ax, "perfectly calibrated", color="0.45", zorder=1, gid=DIAGONAL_GID
            )
        draw_curves(self, ax, (xs, ys, bxs, los, his), labels, name, band, kwargs)
        draw_axes_labels(self, ax, multi and not models)
        if hist is True:
            hist = "per_model" if models else "shared"
        draw_histogram(self, ax, False if drawn["hist"] else hist, labels)
        dedupe_legend(ax)

        self.components_ax_ = None
        self.components_: list[Any] = []  # matplotlib BarContainers
        if comps is not None and components_ax is not None:
            draw_components(self, components_ax, comps, labels if multi else None)
            self.components_ax_ = components_ax
        return self

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_result(
        cls,
        result: Any,
        *,
        interval: str | None = "wilson",
        name: str | None = None,
        pos_label: Any = None,
        ax: Any = None,
        ref_line: bool = True,
        **kwargs: Any,
    ) -> ReliabilityDisplay:
        """Draw the reliability diagram of a decomposition result.

        Parameters
        ----------
        result : MurphyDecomposition, CORPDecomposition, MulticlassDecomposition \
or BrierDecomposition
            The result of :func:`~skbrier.metrics.decomposition.corp_decomposition`
            or :func:`~skbrier.metrics.decomposition.murphy_decomposition`, or
            a fitted :class:`~skbrier.decomposition.BrierDecomposition` (its
            ``decomposition_`` is drawn).  CORP: the recalibration curve and,
            when resampled, the consistency band; binned: the bins of the
            result with per-bin intervals at its ``confidence_level``.
        interval : {"wilson", "clopper_pearson"} or None, default="wilson"
            Per-bin intervals of a binned result (ignored for CORP).
        name : str, default=None
            Name of the forecaster for the legend.
        pos_label : int, float, bool or str, default=None
            The positive class, for the axis label (default: the
            estimator's ``pos_label``).
        {{ax_ref_line_kwargs}}

        Returns
        -------
        ReliabilityDisplay

        Raises
        ------
        TypeError
            If ``result`` is none of the above.
        sklearn.exceptions.NotFittedError
            For a BrierDecomposition that is not fitted.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skbrier.metrics.decomposition import murphy_decomposition
        >>> from skbrier.plotting.reliability import ReliabilityDisplay
        >>> res = murphy_decomposition([0, 0, 1, 1, 1], [0.1, 0.3, 0.4, 0.7, 0.9],
        ...                            n_bins=4)
        >>> disp = ReliabilityDisplay.from_result(res)
        >>> disp.decomposition_method, len(disp.components_[0])
        ('murphy', 5)
        """
        if hasattr(result, "get_params") and hasattr(result, "fit"):
            from sklearn.utils.validation import check_is_fitted

            check_is_fitted(result)
            if pos_label is None:
                pos_label = getattr(result, "pos_label", None)
            result = getattr(result, "decomposition_", None)
        disp = cls(**display_kwargs(result, interval), pos_label=pos_label)
        return disp.plot(ax=ax, name=name, ref_line=ref_line, **kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_proba: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        decomposition_method: str = "corp",
        n_bins: int | str = "cube_root",
        strategy: Any = "quantile",
        interval: str | None = "wilson",
        n_resamples: int | str = "auto",
        confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
        random_state: Any = None,
        n_jobs: int | None = None,
        pos_label: Any = None,
        labels: ArrayLike | None = None,
        multiclass: str = "top_label",
        name: str | None = None,
        ax: Any = None,
        ref_line: bool = True,
        **kwargs: Any,
    ) -> ReliabilityDisplay | _Multi:
        r"""Reliability diagram of forecasts ``y_proba`` for outcomes ``y_true``.

        With ``decomposition_method="murphy"`` the points are those of
        ``sklearn.calibration.calibration_curve(y_true, y_proba,
        n_bins=n_bins, strategy=strategy)`` to the last bit:
        ``n_bins=5, strategy="uniform"`` are scikit-learn's defaults up to
        1.11, ``n_bins="cube_root", strategy="quantile"`` (the defaults here)
        those of 1.12.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_proba : array-like, dict of str to array-like, or pandas DataFrame
            Predicted probabilities (1-D: probability of ``pos_label``;
            2-D: one column per sorted class), or several binary forecasters
            of the same outcomes, one curve each: ``{name: probabilities}``
            or a DataFrame with one column per model.  A list of 1-D arrays
            is refused (several models or a probability matrix? pass a dict).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative frequency weights: integer weights draw the diagram
            of the repeated rows (bins, points, intervals and histogram).
            Quantile bins and ``"cube_root"`` therefore depend on the scale
            of the weights; uniform bins and the CORP curve do not.
        decomposition_method : {"corp", "murphy"}, default="corp"
            Isotonic (CORP,
            :func:`~skbrier.metrics.decomposition.corp_decomposition`) or
            binned reliability curve (scikit-learn's bins; the components
            are those of
            ``murphy_from_statistics``).
        n_bins : int or "cube_root", default="cube_root"
            Number of bins of the binned curve, at most 100,000.
            ``"cube_root"``: :math:`\lceil n^{1/3} \rceil` with :math:`n` the
            number of samples, or the total weight with ``sample_weight``.
        strategy : {"uniform", "quantile"} or array of edges, default="quantile"
            Bins of equal width or of equal (weighted) count, or explicit
            edges (binned curve).
        interval : {"wilson", "clopper_pearson"} or None, default="wilson"
            Per-bin interval of the observed frequency (binned curve), at
            ``confidence_level``, with the bin's weight as its sample size:
            statsmodels' ``proportion_confint`` with ``method="wilson"`` or
            ``"beta"``.  None draws none.
        n_resamples : int or "auto", default="auto"
            Resamples for the consistency band (CORP); 0 draws no band.
            ``"auto"``: 200 for up to 20,000 samples, none above (the band is
            then narrow and the resampling costs seconds to minutes; pass a
            number to force it).
        confidence_level : float, default=0.95
            Level of the band or of the intervals.
        random_state : None, int, numpy Generator, SeedSequence or RandomState
            Seed of the resampling (model ``k`` of several uses the ``k``-th
            generator spawned from it).
        n_jobs : int, default=None
            Parallel jobs for the resampling.
        pos_label : int, float, bool or str, default=None
            Class whose probability a 1-D ``y_proba`` holds.
        labels : array-like of shape (n_classes,), default=None
            The classes of the columns of a 2-D ``y_proba`` (default: the
            sorted labels of ``y_true``, which must then hold every class);
            :meth:`from_estimator` gives the classifier's ``classes_``.
        multiclass : {"top_label", "classwise", "one_vs_rest"}, default="top_label"
            Diagram of a matrix of three or more classes: ``"top_label"`` or
            ``"classwise"`` gives a ``MulticlassReliabilityDisplay`` binned as
            ``calibration_error(kind=multiclass, n_bins=, strategy=)`` (the
            CORP, band and plot options do not apply); ``"one_vs_rest"`` one
            CORP or binned curve per class here.  Binary input ignores it.
        name : str, default=None
            Name of the forecaster for the legend (one forecaster only).
        {{ax_ref_line_kwargs}}

        Returns
        -------
        ReliabilityDisplay or MulticlassReliabilityDisplay

        See Also
        --------
        from_estimator : the same from a fitted classifier.
        from_result : the same from a decomposition computed before.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import numpy as np
        >>> from skbrier.plotting.reliability import ReliabilityDisplay
        >>> rng = np.random.default_rng(0)
        >>> p = rng.uniform(size=500)
        >>> y = (rng.uniform(size=500) < p).astype(int)
        >>> disp = ReliabilityDisplay.from_predictions(y, p, n_resamples=50,
        ...                                            random_state=0)
        >>> len(disp.bands_)
        1

        scikit-learn's calibration curve, with Clopper--Pearson intervals:

        >>> from sklearn.calibration import calibration_curve
        >>> disp = ReliabilityDisplay.from_predictions(
        ...     y, p, decomposition_method="murphy", n_bins=5, strategy="uniform",
        ...     interval="clopper_pearson")
        >>> prob_true, prob_pred = calibration_curve(y, p, n_bins=5)
        >>> bool((disp.observed == prob_true).all() and (disp.forecast == prob_pred).all())
        True

        Two models on one diagram (one legend, one diagonal):

        >>> q = np.clip(p + 0.1, 0, 1)
        >>> disp = ReliabilityDisplay.from_predictions(
        ...     y, {"model a": p, "model b": q}, n_resamples=0)
        >>> [line.get_label() for line in disp.lines_]
        ['model a', 'model b']

        Three classes: the top-label diagram (bars of accuracy per bin of
        confidence, the gap to the diagonal shaded):

        >>> proba = rng.dirichlet([1, 1, 1], size=300)
        >>> y3 = np.array([rng.choice(3, p=row) for row in proba])
        >>> disp = ReliabilityDisplay.from_predictions(y3, proba, n_bins=10)
        >>> type(disp).__name__, len(disp.bars_) <= 10
        ('MulticlassReliabilityDisplay', True)
        """
        options = {
            "sample_weight": sample_weight,
            "decomposition_method": resolve_method(decomposition_method),
            "n_bins": n_bins,
            "strategy": strategy,
            "interval": interval,
            "confidence_level": confidence_level,
            "n_jobs": n_jobs,
            "pos_label": pos_label,
            "labels": labels,
        }
        to_multiclass = multiclass_proba(y_proba, multiclass)  # checks the option
        models = model_forecasts(y_true, y_proba)
        if models is not None:
            kw = models_data(
                y_true,
                models,
                random_state=random_state,
                n_resamples=_auto_resamples(n_resamples, y_true),
                **options,
            )
            return cls(**kw, pos_label=pos_label).plot(ax=ax, ref_line=ref_line, **kwargs)
        if to_multiclass:
            args = (multiclass, sample_weight, n_bins, strategy, labels, name, ax)
            return multiclass_display(y_true, y_proba, *args, kwargs)
        kw = display_data(
            y_true,
            y_proba,
            n_resamples=_auto_resamples(n_resamples, y_proba),
            random_state=random_state,
            **options,
        )
        disp = cls(**kw, pos_label=pos_label)
        return disp.plot(ax=ax, name=name, ref_line=ref_line, **kwargs)

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
    ) -> ReliabilityDisplay | _Multi:
        """Reliability diagram of a fitted classifier's ``predict_proba`` on ``X``.

        With ``decomposition_method="murphy"`` the points are those of
        ``sklearn.calibration.CalibrationDisplay.from_estimator`` with the
        same ``n_bins``, ``strategy`` and ``pos_label``, to the last bit.

        Parameters
        ----------
        estimator : fitted classifier with ``predict_proba``, dict or list of them
            The forecaster (the columns of a multiclass one are its
            ``classes_``), or several binary classifiers drawn on one
            diagram: ``{name: estimator}``, or a list named by the class
            names (repeated names get `` (2)``, `` (3)``, ...).
        X : array-like of shape (n_samples, n_features)
            Inputs.
        y : array-like of shape (n_samples,)
            True labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative frequency weights, as in :meth:`from_predictions`.
        {{pos_label_estimator}}
        {{name_estimator}}
        {{ax_forwarded_kwargs}}

        Returns
        -------
        ReliabilityDisplay or MulticlassReliabilityDisplay

        See Also
        --------
        from_predictions : the same from forecasts.

        Examples
        --------
        {{doctest_classifier}}
        >>> from skbrier.plotting.reliability import ReliabilityDisplay
        >>> disp = ReliabilityDisplay.from_estimator(clf, X[200:], y[200:],
        ...                                          n_resamples=0)
        >>> disp.line_.get_label()
        'LogisticRegression'
        """
        proba: Any
        estimators = model_estimators(estimator)
        if estimators is None:  # one classifier, binary or multiclass
            proba, positive, labels = estimator_proba(estimator, X, pos_label, None)
            name = type(estimator).__name__ if name is None else name
        else:  # several binary classifiers, one curve each
            proba, positive, labels = {}, None, None
            for key, est in estimators.items():
                proba[key], positive, _ = estimator_proba(est, X, pos_label, None)
        return cls.from_predictions(
            y,
            proba,
            sample_weight=sample_weight,
            pos_label=positive,
            labels=labels,
            name=name,
            ax=ax,
            **kwargs,
        )
