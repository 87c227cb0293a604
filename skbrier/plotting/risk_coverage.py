"""Risk--coverage plot: the error rate of the most confident answers against coverage.

matplotlib is imported only when something is drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.labels import encode_labels
from .._core.params import check_bool, check_option, check_real
from .._core.results import ConfidenceInterval
from .._response import response_from_estimator
from ..metrics.selective import RiskCoverageResult, risk_coverage_curve
from ._common import check_name, check_result, display_doc, fill_band, new_axes, store_axes
from ._pyplot import check_line_properties

__all__ = ["RiskCoverageDisplay"]

#: what the curve shows (``curve=`` of :meth:`RiskCoverageDisplay.plot`)
_CURVES = ("risk", "accuracy")


@display_doc
class RiskCoverageDisplay:
    """Risk--coverage curve visualization, with bootstrap bands.

    Create it with :meth:`from_predictions`, :meth:`from_estimator` or
    :meth:`from_result`; call :meth:`plot` again with the same ``ax`` to
    overlay several models.

    Parameters
    ----------
    coverage : ndarray of shape (n_points,)
        Coverage at each distinct threshold (increasing).
    selective_risk : ndarray of shape (n_points,)
        Error rate of the answered at each point.
    aurc : float
        Area under the curve (shown in the legend).
    name : str, default=None
        Legend label (default ``"model"``).
    coverage_grid : ndarray of shape (n_coverages,), default=None
        Coverages of ``band``.
    band : ConfidenceInterval, default=None
        Pointwise bootstrap band of the selective risk over
        ``coverage_grid``.
    result : RiskCoverageResult, default=None
        The result drawn (set by the ``from_*`` constructors).

    Attributes
    ----------
    line_ : matplotlib Line2D
        The curve.
    band_ : matplotlib PolyCollection or None
        The filled band.
    {{axes_attributes}}

    See Also
    --------
    skbrier.metrics.selective.risk_coverage_curve : The numbers behind the plot.

    Notes
    -----
    The line starts at coverage 0 with the risk of the most confident group
    and joins the points of the distinct thresholds by straight lines: the
    area under it is the AURC of
    :func:`~skbrier.metrics.selective.aurc`.  ``curve="accuracy"`` draws one
    minus the risk (HELM's coverage--accuracy curve).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skbrier.plotting.risk_coverage import RiskCoverageDisplay
    >>> disp = RiskCoverageDisplay.from_predictions(
    ...     [1, 0, 1, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5], name="llm")
    >>> disp.ax_.get_xlabel()
    'Coverage'
    >>> disp.line_.get_label()
    'llm (AURC = 0.257)'
    """

    def __init__(
        self,
        *,
        coverage: np.ndarray,
        selective_risk: np.ndarray,
        aurc: float,
        name: str | None = None,
        coverage_grid: np.ndarray | None = None,
        band: ConfidenceInterval | None = None,
        result: RiskCoverageResult | None = None,
    ) -> None:
        self.coverage = np.asarray(coverage, dtype=float)
        self.selective_risk = np.asarray(selective_risk, dtype=float)
        self.aurc = float(aurc)
        self.name = name
        self.coverage_grid = None if coverage_grid is None else np.asarray(coverage_grid)
        self.band = band
        self.result = result

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_result(
        cls,
        result: RiskCoverageResult,
        *,
        name: str | None = None,
        ax: Any = None,
        **plot_kwargs: Any,
    ) -> RiskCoverageDisplay:
        """Plot a :class:`~skbrier.results.RiskCoverageResult`.

        Parameters
        ----------
        result : RiskCoverageResult
            Output of :func:`~skbrier.metrics.selective.risk_coverage_curve`.
        {{name_model}}
        {{ax_plot_kwargs}}

        Returns
        -------
        RiskCoverageDisplay
        """
        check_result(result, RiskCoverageResult)
        disp = cls(
            coverage=result.coverage,
            selective_risk=result.selective_risk,
            aurc=result.aurc,
            name=name,
            coverage_grid=result.coverage_grid,
            band=result.bands,
            result=result,
        )
        return disp.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_correct: ArrayLike,
        confidence: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        n_resamples: int = 0,
        confidence_level: float = 0.95,
        random_state: Any = None,
        n_jobs: int | None = None,
        name: str | None = None,
        ax: Any = None,
        **plot_kwargs: Any,
    ) -> RiskCoverageDisplay:
        """Risk--coverage curve from correctness and confidences.

        Parameters
        ----------
        {{correctness_inputs}}
        {{sample_weight}}
        {{bootstrap_band}}
        n_jobs : int, default=None
            Threads for the bootstrap.
        {{name_model}}
        {{ax_plot_kwargs}}

        Returns
        -------
        RiskCoverageDisplay

        Notes
        -----
        The arrays are validated once, by
        :func:`~skbrier.metrics.selective.risk_coverage_curve`.
        """
        result = risk_coverage_curve(
            y_correct,
            confidence,
            sample_weight=sample_weight,
            n_resamples=n_resamples,
            confidence_level=confidence_level,
            random_state=random_state,
            n_jobs=n_jobs,
        )
        return cls.from_result(result, name=name, ax=ax, **plot_kwargs)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        name: str | None = None,
        ax: Any = None,
        **kwargs: Any,
    ) -> RiskCoverageDisplay:
        """Risk--coverage curve of a fitted classifier's top-label predictions.

        The confidence is the largest ``predict_proba`` of each row and an
        answer is right when its class (``classes_[argmax]``, the
        prediction of ``predict``) equals ``y``.

        Parameters
        ----------
        estimator : fitted classifier
            A classifier with ``predict_proba`` and ``classes_`` (binary or
            multiclass).
        X : array-like of shape (n_samples, n_features)
            Input data.
        y : array-like of shape (n_samples,)
            True labels.
        {{sample_weight}}
        {{name_estimator}}
        {{ax_forwarded_kwargs}}

        Returns
        -------
        RiskCoverageDisplay

        Raises
        ------
        TypeError
            If ``estimator`` is not a fitted classifier with ``predict_proba``.
        ValueError
            If ``y`` does not have one label per row of ``X``, or holds a
            label that is not in ``estimator.classes_``.
        """
        proba, classes, _ = response_from_estimator(estimator, X)
        labels = np.asarray(y)
        if labels.ndim != 1 or labels.shape[0] != proba.shape[0]:
            raise ValueError(
                f"y must hold one label per row of X ({proba.shape[0]}), got shape "
                f"{labels.shape}."
            )
        # y coded against classes_ by the one label coder: a label the
        # classifier never saw ('1' for 1, a stray 7) is refused, not counted wrong
        try:
            codes, known = encode_labels(y, classes, proba.shape[0], ref_name="X")
        except ValueError as exc:
            raise ValueError(
                f"y must hold the classes the estimator was fitted on (classes_ "
                f"{classes.tolist()[:10]}): {exc}"
            ) from None
        top = np.argmax(proba, axis=1)
        return cls.from_predictions(
            known[codes] == classes[top],
            proba[np.arange(proba.shape[0]), top],
            sample_weight=sample_weight,
            name=type(estimator).__name__ if name is None else name,
            ax=ax,
            **kwargs,
        )

    # ------------------------------------------------------------------ drawing
    def plot(
        self,
        ax: Any = None,
        *,
        name: str | None = None,
        curve: str = "risk",
        show_band: bool = True,
        band_alpha: float = 0.2,
        **kwargs: Any,
    ) -> RiskCoverageDisplay:
        """Draw the curve (and its band).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; a new figure if None.  Drawing on the axes of
            another display overlays the models.
        name : str, default=None
            Legend label (default: the display's ``name``, else ``"model"``);
            the AURC is appended.
        curve : {"risk", "accuracy"}, default="risk"
            What the curve shows: the selective risk, or the accuracy of the
            answered (one minus it).
        show_band : bool, default=True
            Draw the bootstrap band when there is one.
        band_alpha : float, default=0.2
            Opacity of the band.
        **kwargs
            Passed to ``Axes.plot`` (``color``, ``linestyle`` ...).

        Returns
        -------
        RiskCoverageDisplay
            ``self``, with ``ax_``, ``figure_``, ``line_`` and ``band_`` set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from skbrier.plotting.risk_coverage import RiskCoverageDisplay
        >>> disp = RiskCoverageDisplay.from_predictions([1, 0, 1], [0.9, 0.5, 0.7])
        >>> fig, ax = plt.subplots()
        >>> disp.plot(ax=ax, curve="accuracy").ax_ is ax
        True
        """
        curve = check_option(curve, "curve", _CURVES)
        show_band = check_bool(show_band, "show_band")
        band_alpha = check_real(band_alpha, "band_alpha", low=0.0, high=1.0)
        label = check_name(name) or self.name or "model"
        check_line_properties(kwargs, "RiskCoverageDisplay")
        ax = new_axes(ax, "RiskCoverageDisplay")
        x = np.concatenate(([0.0], self.coverage))
        risk = np.concatenate((self.selective_risk[:1], self.selective_risk))
        y = risk if curve == "risk" else 1.0 - risk
        kw = {"label": f"{label} (AURC = {self.aurc:.3f})", **kwargs}
        (self.line_,) = ax.plot(x, y, **kw)
        self.band_ = None
        if show_band and self.band is not None and self.coverage_grid is not None:
            low, high = np.asarray(self.band.low), np.asarray(self.band.high)
            if curve == "accuracy":
                low, high = 1.0 - high, 1.0 - low
            color = self.line_.get_color()
            self.band_ = fill_band(ax, self.coverage_grid, low, high, color, band_alpha)
        ax.set_xlabel("Coverage")
        ax.set_ylabel("Selective risk" if curve == "risk" else "Accuracy of the answered")
        ax.set_xlim(0.0, 1.0)
        ax.legend(loc="upper left" if curve == "risk" else "lower left")
        return store_axes(self, ax)
