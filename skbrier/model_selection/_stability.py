"""Stability of a model's predictions across bootstrap refits (Riley & Collins 2023).

:class:`StabilityResult` holds the predictions of the development model and
of every bootstrap model on the development data (what
:func:`~skbrier.model_selection.internal_validation` computes anyway) and
derives from them the four instability checks of Riley and Collins, each
with its plot (matplotlib imported only when drawing):

* prediction instability: the bootstrap models' predictions against the
  original ones, with percentile bounds per individual;
* the mean absolute prediction error (MAPE) of each individual;
* calibration instability: the smooth calibration curve of each bootstrap
  model on the original outcomes;
* classification instability at a threshold: the share of bootstrap models
  that classify an individual differently from the original model;
* decision-curve instability: the net benefit curve of each bootstrap model.

The numbers equal those of R ``pminternal``'s ``prediction_stability``,
``mape_stability``, ``calibration_stability`` (with its lowess smoother on
the probability scale) and ``classification_stability`` (except at a
prediction exactly on the threshold: skbrier classifies ``p >= threshold``
as positive, as its net benefit does; pminternal ``p > threshold``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from .._core.docstrings import shared_doc
from .._core.format import format_number
from .._core.kernels.lowess import lowess_knots
from .._core.optional import import_optional
from .._core.params import check_int, check_real, check_thresholds
from .._core.results import Result
from ..metrics.net_benefit import decision_curve
from ..plotting._common import new_axes

__all__ = ["StabilityResult"]

#: colours of pminternal's plots: bootstrap models in translucent grey, the
#: original model in black
_GREY = (0.5, 0.5, 0.5, 0.3)


def _axes(ax: Any) -> Any:
    return new_axes(ax, "StabilityResult")


@shared_doc
@dataclasses.dataclass(frozen=True, repr=False)
class StabilityResult(Result):
    r"""Predictions of the development model and of the bootstrap models.

    Made by :func:`~skbrier.model_selection.internal_validation` (its
    ``stability``); not meant to be built by hand.  Bootstrap fits that
    failed are left out.

    Attributes
    ----------
    y : ndarray of shape (n_samples,)
        The outcomes, coded 0/1.
    original : ndarray of shape (n_samples,)
        Predictions of the model fitted on all the data.
    bootstrap : ndarray of shape (n_models, n_samples)
        Predictions of each bootstrap model on the original data.
    sample_weight : ndarray of shape (n_samples,) or None
        The frequency weights of the rows (used by the decision curves).
    n_models : int
        The number of bootstrap models.
    individual_mape : ndarray of shape (n_samples,)
        Mean absolute prediction error of each individual,
        :math:`\frac1B \sum_b |\hat p_{b,i} - \hat p_i|`.
    average_mape : float
        The mean of ``individual_mape`` over the individuals.

    References
    ----------
    .. [1] R. D. Riley and G. S. Collins, "Stability of clinical prediction
       models developed using statistical or machine learning methods",
       Biometrical Journal 65, 2200302, 2023.
    .. [2] S. Rhodes, R package ``pminternal``, functions
       ``prediction_stability``, ``mape_stability``,
       ``calibration_stability``, ``classification_stability`` and
       ``dcurve_stability``.

    Examples
    --------
    >>> import scipy.special
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier.datasets import make_logistic_cohort
    >>> from skbrier.model_selection import internal_validation
    >>> y, p = make_logistic_cohort(150)
    >>> X = scipy.special.logit(p)[:, None]  # the cohort's one predictor
    >>> stab = internal_validation(LogisticRegression(), X, y, n_bootstrap=20,
    ...                            measures=["brier_score"], random_state=0).stability
    >>> stab.bootstrap.shape
    (20, 150)
    >>> bool(0 < stab.average_mape < 0.1)
    True
    >>> cii = stab.classification_instability(0.5)
    >>> bool(cii.max() <= 1)
    True
    """

    y: np.ndarray
    original: np.ndarray
    bootstrap: np.ndarray
    sample_weight: np.ndarray | None = None

    _summary_fields: ClassVar[tuple[str, ...]] = ("n_models", "average_mape")

    @property
    def n_models(self) -> int:
        return int(self.bootstrap.shape[0])

    @property
    def individual_mape(self) -> np.ndarray:
        return np.abs(self.bootstrap - self.original).mean(axis=0)

    @property
    def average_mape(self) -> float:
        return float(self.individual_mape.mean())

    def _summary_rows(self) -> list[tuple[str, str]]:
        mape = self.individual_mape
        return [
            ("n_models", str(self.n_models)),
            ("average_mape", format_number(float(mape.mean()))),
            ("max_mape", format_number(float(mape.max()))),
        ]

    def to_frame(self) -> Any:
        """One row per individual: outcome, original prediction, its bounds and MAPE."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        low, high = self.prediction_bounds()
        return pd.DataFrame(
            {
                "y": self.y,
                "original": self.original,
                "low": low,
                "high": high,
                "mape": self.individual_mape,
            }
        )

    # ------------------------------------------------------------------ numbers
    def prediction_bounds(self, coverage: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Percentile bounds of each individual's bootstrap predictions.

        Parameters
        ----------
        coverage : float, default=0.95
            The share of bootstrap predictions between the bounds, in (0, 1):
            the ``(1 -/+ coverage) / 2`` quantiles (numpy's linear
            interpolation, R's type 7, as pminternal).

        Returns
        -------
        (ndarray, ndarray)
            Lower and upper bound per individual.
        """
        c = check_real(coverage, "coverage", low=0.0, high=1.0, inclusive=(False, False))
        lo, hi = np.quantile(self.bootstrap, [(1 - c) / 2, (1 + c) / 2], axis=0)
        return lo, hi

    def classification_instability(self, threshold: float) -> np.ndarray:
        r"""Classification instability index of each individual at ``threshold``.

        The share of bootstrap models whose classification
        (:math:`\hat p \ge t`: treat) differs from the original model's.

        Parameters
        ----------
        threshold : float
            The risk threshold, strictly between 0 and 1.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        t = float(check_thresholds(threshold, "threshold")[0])
        return ((self.bootstrap >= t) != (self.original >= t)).mean(axis=0)

    def calibration_curves(self, n_points: int = 100) -> tuple[np.ndarray, np.ndarray]:
        """The lowess calibration curve of the original and of each bootstrap model.

        Each curve is R's ``lowess(p, y, iter = 0)`` of a model's
        predictions on the original outcomes (the curve of
        :func:`~skbrier.metrics.lowess_calibration_error`), evaluated at
        ``n_points`` equally spaced predictions between that model's
        smallest and largest (pminternal's ``calibration_stability`` with
        ``smooth = "lowess", transf = "none"``).

        Parameters
        ----------
        n_points : int, default=100
            Points per curve (at least 2).

        Returns
        -------
        (ndarray, ndarray)
            Predicted and observed risk, each of shape
            ``(n_models + 1, n_points)``; row 0 is the original model.
        """
        k = check_int(n_points, "n_points", minimum=2)
        preds = np.vstack([self.original, self.bootstrap])
        xs = np.empty((preds.shape[0], k))
        ys = np.empty_like(xs)
        for i, p in enumerate(preds):
            kx, ky = lowess_knots(p, self.y)
            xs[i] = np.linspace(p.min(), p.max(), k)
            ys[i] = np.interp(xs[i], kx, ky)
        return xs, ys

    def decision_curves(self, thresholds: Any = None) -> Any:
        """Net benefit of the original model (``"original"``) and of each bootstrap
        model (``"1"``, ``"2"``, ...), by :func:`~skbrier.metrics.decision_curve`.

        Parameters
        ----------
        thresholds : array-like, default=None
            Threshold probabilities (default 0.01, 0.02, ..., 0.99).

        Returns
        -------
        DecisionCurveResult
        """
        models = {"original": self.original}
        models.update({str(b + 1): p for b, p in enumerate(self.bootstrap)})
        return decision_curve(
            self.y, models, thresholds=thresholds, sample_weight=self.sample_weight
        )

    # ------------------------------------------------------------------ plots
    def _plot_individuals(self, values: np.ndarray, ylabel: str, ax: Any) -> Any:
        """Each individual's ``values`` against its original prediction (grey dots)."""
        ax = _axes(ax)
        ax.plot(self.original, values, ".", color=(0.5, 0.5, 0.5, 0.5))
        ax.set_xlabel("Estimated risk from development model")
        ax.set_ylabel(ylabel)
        return ax

    def _plot_curves(self, ax: Any, bootstrap: tuple, original: tuple) -> None:
        """The ``(x, y)`` curves of the bootstrap models in grey, the original's dashed."""
        ax.plot(*bootstrap, color=_GREY, lw=1)
        ax.plot(*original, "k--", lw=2, label="Original")
        ax.plot([], [], color=_GREY, label=f"Bootstrap (n = {self.n_models})")

    @shared_doc
    def plot_predictions(self, *, coverage: float | None = 0.95, ax: Any = None) -> Any:
        """Prediction instability plot: bootstrap predictions against the original ones.

        Parameters
        ----------
        coverage : float or None, default=0.95
            Draw the percentile bounds of :meth:`prediction_bounds` (None: none).
        {{ax}}

        Returns
        -------
        matplotlib Axes
        """
        ax = _axes(ax)
        order = np.argsort(self.original, kind="stable")
        x = self.original[order]
        ax.plot(
            np.tile(x, self.n_models),
            self.bootstrap[:, order].ravel(),
            ".",
            ms=2,
            color=_GREY,
        )
        if coverage is not None:
            lo, hi = self.prediction_bounds(coverage)
            ax.plot(x, lo[order], "k--", x, hi[order], "k--", lw=1)
        ax.plot([0, 1], [0, 1], color="0.3", lw=0.8)
        ax.set_xlabel("Estimated risk from development model")
        ax.set_ylabel(f"Estimated risk from bootstrap models (n = {self.n_models})")
        return ax

    @shared_doc
    def plot_mape(self, *, ax: Any = None) -> Any:
        """MAPE of each individual against the original prediction.

        Parameters
        ----------
        {{ax}}

        Returns
        -------
        matplotlib Axes
        """
        ax = self._plot_individuals(self.individual_mape, "MAPE", ax)
        ax.set_title(f"Average MAPE = {format_number(self.average_mape)}")
        return ax

    @shared_doc
    def plot_calibration(self, *, n_points: int = 100, ax: Any = None) -> Any:
        """Calibration instability: the calibration curve of every bootstrap model.

        Parameters
        ----------
        n_points : int, default=100
            Points per curve (see :meth:`calibration_curves`).
        {{ax}}

        Returns
        -------
        matplotlib Axes
        """
        ax = _axes(ax)
        xs, ys = self.calibration_curves(n_points)
        self._plot_curves(ax, (xs[1:].T, ys[1:].T), (xs[0], ys[0]))
        ax.plot([0, 1], [0, 1], color="0.3", lw=0.8)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("Estimated risk")
        ax.set_ylabel("Observed risk")
        ax.legend(loc="upper left")
        return ax

    @shared_doc
    def plot_classification(self, threshold: float, *, ax: Any = None) -> Any:
        """Classification instability index of each individual at ``threshold``.

        Parameters
        ----------
        threshold : float
            The risk threshold, strictly between 0 and 1.
        {{ax}}

        Returns
        -------
        matplotlib Axes
        """
        cii = self.classification_instability(threshold)
        ax = self._plot_individuals(cii, "Classification instability index", ax)
        ax.axvline(threshold, color="k", ls="--", lw=1)
        return ax

    @shared_doc
    def plot_decision_curve(self, *, thresholds: Any = None, ax: Any = None) -> Any:
        """Decision-curve instability: the net benefit curve of every bootstrap model.

        Parameters
        ----------
        thresholds : array-like, default=None
            Threshold probabilities (default 0.01, 0.02, ..., 0.99).
        {{ax}}

        Returns
        -------
        matplotlib Axes
        """
        res = self.decision_curves(thresholds)
        ax = _axes(ax)
        t = res.thresholds
        order = np.argsort(t, kind="stable")
        nb = res.net_benefit_by_model
        boot = np.array([nb[str(b + 1)] for b in range(self.n_models)])
        self._plot_curves(
            ax, (t[order], boot[:, order].T), (t[order], nb["original"][order])
        )
        ax.axhline(0.0, color="k", ls=":", lw=1)
        ax.set_xlabel("Threshold probability")
        ax.set_ylabel("Net benefit")
        ax.legend(loc="upper right")
        return ax
