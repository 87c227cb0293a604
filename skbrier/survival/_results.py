"""Result objects of skbrier.survival (the Result protocol of skbrier)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from scipy.stats import norm

from .._params import check_confidence_level, check_option
from .._results import ConfidenceInterval, Result, check_metric, format_number
from ..stats._resampling import interval_from_replicates

__all__ = ["SurvivalComparisonResult", "SurvivalIPAResult"]


def _wald(est: np.ndarray, se: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    z = norm.ppf(1.0 - (1.0 - level) / 2.0)
    return est - z * se, est + z * se


class _PerHorizon(Result):
    """Tables with one row per horizon."""

    _columns: ClassVar[tuple[str, ...]] = ()

    def _rows(self) -> list[dict[str, Any]]:
        cols = {c: np.asarray(getattr(self, c)) for c in self._columns}
        return [
            {c: float(v[k]) for c, v in cols.items()} for k in range(len(cols["times"]))
        ]

    def _summary_rows(self) -> list[tuple[str, str]]:
        out = []
        for row in self._rows():
            t = format_number(row["times"])
            body = ", ".join(
                f"{c}={format_number(v)}" for c, v in row.items() if c != "times"
            )
            out.append((f"t={t}", body))
        return out

    def to_frame(self) -> Any:
        """One row per horizon as a :class:`pandas.DataFrame` (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self._rows())

    def __repr__(self) -> str:
        return f"{type(self).__name__}(n_times={len(np.asarray(self.times))})"  # type: ignore[attr-defined]


@dataclasses.dataclass(frozen=True, repr=False)
class SurvivalIPAResult(_PerHorizon):
    """Brier scores, index of prediction accuracy and their standard errors per horizon.

    Built by :func:`skbrier.survival.index_of_prediction_accuracy`.

    Attributes
    ----------
    times : ndarray
        The horizons.
    brier : ndarray
        IPCW Brier score of the model at each horizon.
    brier_null : ndarray
        Brier score of the null model (marginal Kaplan--Meier).
    ipa : ndarray
        ``1 - brier / brier_null``.
    se_brier, se_brier_null, se_ipa : ndarray
        Influence-function standard errors (riskRegression's ``se``; the
        IPA's by the delta method from the same influence functions).
    n : float
        Total weight (number of subjects).
    bootstrap : ndarray or None
        ``(n_resamples, 2, n_times)`` replicates of (brier, ipa) when
        bootstrap resamples were drawn.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.survival import index_of_prediction_accuracy
    >>> res = index_of_prediction_accuracy(
    ...     [1, 0, 1, 1, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ...     np.array([[0.6], [0.9], [0.4], [0.5], [0.8], [0.3]]), [3.5])
    >>> res.confidence_interval(0.9, metric="brier_score").low.shape
    (1,)
    """

    times: np.ndarray
    brier: np.ndarray
    brier_null: np.ndarray
    ipa: np.ndarray
    se_brier: np.ndarray
    se_brier_null: np.ndarray
    se_ipa: np.ndarray
    n: float
    bootstrap: np.ndarray | None = None

    _columns: ClassVar[tuple[str, ...]] = (
        "times",
        "brier",
        "se_brier",
        "brier_null",
        "ipa",
        "se_ipa",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = ("ipa", "brier_score")

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        metric: str = "ipa",
        method: str | None = None,
    ) -> ConfidenceInterval:
        """Pointwise intervals per horizon.

        Parameters
        ----------
        confidence_level : float, default=0.95
            The confidence level.
        metric : {"ipa", "brier_score"}, default="ipa"
            The index of prediction accuracy (:attr:`ipa`) or the model's
            Brier score (:attr:`brier`).
        method : {"wald", "percentile", "basic"}, default=None
            ``"wald"`` (None): estimate +/- z se, the Brier bounds cut to
            [0, 1] as riskRegression's ``Score`` does;
            ``"percentile"``/``"basic"``: bootstrap intervals (needs
            ``n_resamples`` when the result was made).

        Returns
        -------
        ConfidenceInterval
            Arrays of lower and upper bounds, one per horizon.
        """
        level = check_confidence_level(confidence_level)
        metric = "brier" if check_metric(self, metric) == "brier_score" else "ipa"
        method = "wald" if method is None else method
        check_option(method, "method", ("wald", "percentile", "basic"))
        est = self.ipa if metric == "ipa" else self.brier
        if method == "wald":
            lo, hi = _wald(est, self.se_ipa if metric == "ipa" else self.se_brier, level)
            if metric == "brier":
                lo, hi = np.maximum(lo, 0.0), np.minimum(hi, 1.0)
            return ConfidenceInterval(lo, hi)
        if self.bootstrap is None:
            raise ValueError(
                "no bootstrap replicates: call index_of_prediction_accuracy with n_resamples > 0."
            )
        reps = self.bootstrap[:, 1 if metric == "ipa" else 0, :]
        return interval_from_replicates(reps, level, method=method, estimate=est)


@dataclasses.dataclass(frozen=True, repr=False)
class SurvivalComparisonResult(_PerHorizon):
    """Paired comparison of two models' Brier scores at each horizon.

    Built by :func:`skbrier.survival.compare_brier_survival`.

    Attributes
    ----------
    times : ndarray
        The horizons.
    brier_a, brier_b : ndarray
        IPCW Brier scores of the two models.
    delta : ndarray
        ``brier_b - brier_a`` (riskRegression's ``delta.Brier`` of model b
        against reference a).
    se : ndarray
        Standard error of ``delta`` from the paired influence functions.
    p_value : ndarray
        Two-sided Wald p-value of ``delta = 0``.
    n : float
        Total weight (number of subjects).
    bootstrap : ndarray or None
        ``(n_resamples, n_times)`` bootstrap replicates of ``delta``.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.survival import compare_brier_survival
    >>> res = compare_brier_survival(
    ...     [1, 0, 1, 1, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ...     np.array([[0.6], [0.9], [0.4], [0.5], [0.8], [0.3]]),
    ...     np.full((6, 1), 0.5), [3.5])
    >>> res.delta.shape
    (1,)
    """

    times: np.ndarray
    brier_a: np.ndarray
    brier_b: np.ndarray
    delta: np.ndarray
    se: np.ndarray
    p_value: np.ndarray
    n: float
    bootstrap: np.ndarray | None = None

    _columns: ClassVar[tuple[str, ...]] = (
        "times",
        "brier_a",
        "brier_b",
        "delta",
        "se",
        "p_value",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = ("brier_score",)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        metric: str = "brier_score",
        method: str | None = None,
    ) -> ConfidenceInterval:
        """Pointwise intervals of ``delta`` per horizon.

        Parameters
        ----------
        confidence_level : float, default=0.95
            The confidence level.
        metric : {"brier_score"}, default="brier_score"
            The difference of the Brier scores, :attr:`delta`.
        method : {"wald", "percentile", "basic"}, default=None
            Wald (riskRegression's; None) or bootstrap intervals.

        Returns
        -------
        ConfidenceInterval
            Arrays of lower and upper bounds, one per horizon.
        """
        level = check_confidence_level(confidence_level)
        check_metric(self, metric)
        method = "wald" if method is None else method
        check_option(method, "method", ("wald", "percentile", "basic"))
        if method == "wald":
            lo, hi = _wald(self.delta, self.se, level)
            return ConfidenceInterval(lo, hi)
        if self.bootstrap is None:
            raise ValueError(
                "no bootstrap replicates: call compare_brier_survival with n_resamples > 0."
            )
        return interval_from_replicates(
            self.bootstrap, level, method=method, estimate=self.delta
        )
