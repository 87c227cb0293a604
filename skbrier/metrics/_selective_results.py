"""The result of :func:`~skbrier.metrics.selective.risk_coverage_curve`.

Public as ``skbrier.results.RiskCoverageResult``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from .._core.bootstrap_results import _BootstrapResult
from .._core.kernels.selective import RiskCoverage, accuracy_at_coverage
from .._core.optional import import_optional
from .._core.params import check_thresholds

__all__ = ["RiskCoverageResult", "check_coverage"]


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class RiskCoverageResult(_BootstrapResult):
    r"""The risk--coverage curve of one confidence: a point per distinct threshold.

    Returned by :func:`~skbrier.metrics.selective.risk_coverage_curve`; not
    meant to be built by hand.  Ties are grouped: the point of threshold
    :math:`t` answers every answer of confidence :math:`\ge t`.
    ``confidence_interval(metric=...)`` gives the bootstrap interval of
    ``"aurc"`` (the default) or ``"e_aurc"``, or the pointwise band of
    ``"selective_risk"`` over ``coverage_grid``; ``method="percentile"``
    (default) or ``"basic"`` (reflected).

    Attributes
    ----------
    thresholds : ndarray of shape (n_points,)
        The distinct confidences, decreasing (coverage increasing).
    n_answered : ndarray of shape (n_points,)
        Number (total weight) of answers with confidence at least each
        threshold.
    n_correct : ndarray of shape (n_points,)
        Number (weight) of right answers among them.
    aurc : float
        Area under the curve (trapezoid rule, starting at coverage 0 with
        the first point's risk; fd-shifts' convention).
    e_aurc : float
        ``aurc`` minus the oracle's area :math:`e + (1 - e)\ln(1 - e)`.
    coverage_grid : ndarray of shape (n_coverages,)
        Coverages of the bootstrap bands of the selective risk.
    n_resamples : int
        Bootstrap resamples behind the intervals (0: none).
    confidence_level : float
        Level of :attr:`bands`.
    bootstrap_replicates : dict of str to ndarray or None
        ``"aurc"`` and ``"e_aurc"`` of shape (n_resamples,),
        ``"selective_risk"`` of shape (n_resamples, n_coverages).
    coverage : ndarray of shape (n_points,)
        Share of the answers (weight) answered at each threshold.
    selective_risk : ndarray of shape (n_points,)
        Error rate of the answered at each threshold.
    accuracy : float
        Accuracy of all answers (the risk at coverage 1 is one minus it).
    n : float
        Number of answers (total weight).
    bands : ConfidenceInterval or None
        Pointwise bootstrap band of the selective risk over
        ``coverage_grid`` at ``confidence_level``.

    See Also
    --------
    skbrier.metrics.selective.risk_coverage_curve : Builds it.
    skbrier.plotting.risk_coverage.RiskCoverageDisplay : Plots it.

    Examples
    --------
    >>> from skbrier.metrics.selective import risk_coverage_curve
    >>> res = risk_coverage_curve([1, 0, 1, 1], [0.9, 0.8, 0.7, 0.6])
    >>> res.coverage, res.selective_risk
    (array([0.25, 0.5 , 0.75, 1.  ]), array([0.        , 0.5       , 0.33333333, 0.25      ]))
    >>> res.to_frame(coverage=[0.5, 1.0])
       coverage      risk  accuracy  threshold
    0       0.5  0.500000  0.500000        0.8
    1       1.0  0.250000  0.750000        0.6
    """

    thresholds: np.ndarray
    n_answered: np.ndarray
    n_correct: np.ndarray
    aurc: float
    e_aurc: float
    coverage_grid: np.ndarray

    _interval_metrics: ClassVar[tuple[str, ...]] = ("aurc", "e_aurc", "selective_risk")
    _builder: ClassVar[str] = "risk_coverage_curve"
    _band_metric: ClassVar[str] = "selective_risk"

    # ------------------------------------------------------------------ values
    def _curve(self) -> RiskCoverage:
        """The running sums as the kernel's curve (which has the formulas)."""
        return RiskCoverage(
            np.diff(self.n_answered, prepend=0.0),
            np.diff(self.n_correct, prepend=0.0),
            self.n_answered,
            self.n_correct,
        )

    @property
    def coverage(self) -> np.ndarray:
        return self._curve().coverage

    @property
    def selective_risk(self) -> np.ndarray:
        return self._curve().risk

    @property
    def accuracy(self) -> float:
        return self._curve().accuracy

    @property
    def n(self) -> float:
        return self._curve().total

    def accuracy_at(self, coverage: Any) -> float | np.ndarray:
        """Accuracy of the most confident share ``coverage`` (ties entered at random).

        Parameters
        ----------
        coverage : float or array-like
            Coverages in (0, 1].

        Returns
        -------
        float or ndarray
            As :func:`~skbrier.metrics.selective.selective_accuracy`.

        Examples
        --------
        >>> from skbrier.metrics.selective import risk_coverage_curve
        >>> risk_coverage_curve([1, 0, 1, 1], [0.9, 0.8, 0.7, 0.6]).accuracy_at(0.5)
        0.5
        """
        cov = check_coverage(coverage)
        acc = accuracy_at_coverage(self._curve(), cov)
        return float(acc[0]) if np.ndim(coverage) == 0 else acc

    def _dict_intervals(self) -> dict[str, str]:
        return {
            "aurc_interval": "aurc",
            "e_aurc_interval": "e_aurc",
            "selective_risk_band": "selective_risk",
        }

    def _estimate(self, metric: str) -> Any:
        if metric == "selective_risk":
            return 1.0 - accuracy_at_coverage(self._curve(), self.coverage_grid)
        return getattr(self, metric)

    # ------------------------------------------------------------------ protocol
    def _headline(self) -> dict[str, Any]:
        return {
            "aurc": self.aurc,
            "e_aurc": self.e_aurc,
            "accuracy": self.accuracy,
            "n": self.n,
            "n_points": int(self.thresholds.shape[0]),
            "n_resamples": self.n_resamples,
        }

    def to_frame(self, coverage: Any = None) -> Any:
        """The curve as a ``pandas.DataFrame``: a row per point, or per coverage level.

        Parameters
        ----------
        coverage : float or array-like, default=None
            None: one row per distinct threshold (columns ``threshold``,
            ``coverage``, ``risk``, ``accuracy``, ``n_answered``).  Coverages
            in (0, 1]: one row per level (``coverage``, ``risk``,
            ``accuracy``, ``threshold``: the lowest confidence answered
            there), ties entered at random.

        Returns
        -------
        pandas.DataFrame
            The table.

        Examples
        --------
        >>> from skbrier.metrics.selective import risk_coverage_curve
        >>> res = risk_coverage_curve([1, 0, 1, 1], [0.9, 0.8, 0.7, 0.6])
        >>> res.to_frame()["risk"].round(4).tolist()
        [0.0, 0.5, 0.3333, 0.25]
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        if coverage is None:
            risk = self.selective_risk
            return pd.DataFrame(
                {
                    "threshold": self.thresholds,
                    "coverage": self.coverage,
                    "risk": risk,
                    "accuracy": 1.0 - risk,
                    "n_answered": self.n_answered,
                }
            )
        cov = check_coverage(coverage)
        acc = accuracy_at_coverage(self._curve(), cov)
        # compared as shares: K / W and the coverage asked are both correctly
        # rounded (cov * W may round above K: 0.07 * 100 > 7)
        j = np.minimum(
            np.searchsorted(self.coverage, cov, side="left"),
            self.thresholds.shape[0] - 1,
        )
        return pd.DataFrame(
            {
                "coverage": cov,
                "risk": 1.0 - acc,
                "accuracy": acc,
                "threshold": self.thresholds[j],
            }
        )


def check_coverage(coverage: Any, name: str = "coverage") -> np.ndarray:
    """Coverages in (0, 1]: a scalar or a 1-D array (returned 1-D)."""
    cov = check_thresholds(coverage, name, open_unit=False)
    if cov.min() <= 0.0:
        raise ValueError(
            f"{name} must lie in (0, 1]: the accuracy of none of the answers is undefined."
        )
    return cov
