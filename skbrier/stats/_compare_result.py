"""The result of :func:`skbrier.stats.compare_brier` (public as
``skbrier.stats.BrierComparisonResult``).

Kept apart from the function so that the paired test (``compare.py``) and the
way its result reads (names, the Brier Index difference, a verdict in words,
the table of ``to_frame()``) each have one home.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from .._core.optional import import_optional
from .._core.params import DEFAULT_CONFIDENCE_LEVEL, check_confidence_level
from .._core.results import check_metric, format_number
from ._ci import ConfidenceInterval, _StoredIntervals, normal_interval

__all__ = ["BrierComparisonResult"]

#: ``metric=`` of ``confidence_interval`` and ``standard_error`` (the difference
#: of each) and the field holding each difference
COMPARISON_METRICS = {
    "brier_score": "difference",
    "brier_index": "brier_index_difference",
}


@dataclasses.dataclass(frozen=True, repr=False)
class BrierComparisonResult(_StoredIntervals):
    r"""Difference of two Brier scores (and Brier Indices) with test and intervals.

    Returned by :func:`compare_brier`; not meant to be built directly.
    Follows the result protocol of skbrier (``summary()``, ``to_dict()``,
    ``to_frame()``, ``confidence_interval(confidence_level, *, metric=...,
    method=...)``).  ``metric``: ``"brier_score"`` (the default), the
    difference of the Brier scores (the field ``difference``), or
    ``"brier_index"``, that of the Brier Indices in index points
    (``brier_index_difference``); both two-sided.  ``method``: ``"wald"``,
    ``estimate -/+ q * standard_error`` with the normal quantile (Student t
    with ``df`` under the HLN correction, whose standard error is the DM one
    divided by the HLN factor), for the iid and HAC results;
    ``"percentile"``, ``"basic"`` or ``"bca"`` of the same replicates for the
    bootstrap ones, the ``method`` given to :func:`compare_brier` by default.

    Attributes
    ----------
    brier_score_a, brier_score_b : float
        The two Brier scores.
    difference : float
        ``brier_score_a - brier_score_b`` (negative: ``a`` is better).
    difference_standard_error : float
        Standard error of the difference (also ``standard_error()``).
    statistic : float
        ``difference / standard_error`` (Diebold-Mariano), times the
        Harvey-Leybourne-Newbold factor if requested.
    pvalue : float
        p-value of the test of equal expected Brier scores.
    df : float or None
        Degrees of freedom of the Student t reference distribution (HLN
        correction), None for the normal.
    n : int
        Number of observations used (as in
        :class:`~skbrier.stats.BrierInferenceResult`).
    total_weight : float
        Sum of the weights (``n`` without weights).
    cov_type : str
        ``"iid"``, ``"hac"`` or ``"bootstrap"``.
    alternative : str
        ``"two-sided"``, ``"less"`` (``a`` has the lower expected Brier
        score) or ``"greater"``.
    bootstrap_distribution : ndarray or None
        Bootstrap replicates of the difference (``cov_type="bootstrap"``).
    block_length : float or None
        Block length of a block bootstrap (None otherwise).
    names : tuple of (str, str)
        Names of the two forecasters (``("a", "b")`` unless given).
    brier_index_a, brier_index_b : float
        The two Brier Indices, :math:`100 (1 - \sqrt{\mathrm{BS}})`.
    brier_index_difference : float
        ``brier_index_a - brier_index_b`` in index points (positive: ``a``
        is better).
    brier_index_difference_standard_error : float
        Its standard error: delta method (``"iid"``, ``"hac"``; NaN where a
        Brier score is 0, at which the Brier Index has no derivative, and
        ``confidence_interval(metric="brier_index")`` raises) or the
        standard deviation of the replicates (``"bootstrap"``).
    better : str or None
        Name of the forecaster with the lower Brier score (None for a tie).
    verdict : str
        One sentence: which forecaster has the lower Brier score, by how much,
        and whether the difference is significant at the 5 % level (only then
        does it call one forecaster "better").

    See Also
    --------
    compare_brier : builds this result.

    Examples
    --------
    >>> from skbrier.stats.compare import compare_brier
    >>> y = [0, 1, 1, 0, 1, 0, 1, 0]
    >>> res = compare_brier(y, {"model": [0.2, 0.9, 0.7, 0.1, 0.8, 0.3, 0.6, 0.2],
    ...                         "coin": [0.5] * 8})
    >>> round(res.difference, 4)
    -0.19
    >>> res.better
    'model'
    >>> round(res.brier_index_difference, 2)
    25.51
    >>> res.confidence_interval().high < 0
    True
    >>> res.standard_error() == res.difference_standard_error
    True
    >>> bool(res.confidence_interval(metric="brier_index").low > 0)
    True
    """

    brier_score_a: float
    brier_score_b: float
    difference: float
    difference_standard_error: float
    statistic: float
    pvalue: float
    df: float | None
    n: int
    total_weight: float
    cov_type: str
    alternative: str
    bootstrap_distribution: np.ndarray | None = None
    block_length: float | None = None
    names: tuple[str, str] = ("a", "b")
    brier_index_a: float = float("nan")
    brier_index_b: float = float("nan")
    brier_index_difference: float = float("nan")
    brier_index_difference_standard_error: float = float("nan")
    _hln_factor: float = 1.0
    _boot: dict | None = dataclasses.field(default=None, compare=False)

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "brier_score_a",
        "brier_score_b",
        "difference",
        "difference_standard_error",
        "statistic",
        "pvalue",
        "n",
        "cov_type",
        "alternative",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = tuple(COMPARISON_METRICS)

    # ------------------------------------------------------------------ reading
    @property
    def better(self) -> str | None:
        if self.difference < 0:
            return self.names[0]
        if self.difference > 0:
            return self.names[1]
        return None

    @property
    def verdict(self) -> str:
        a, b = self.names
        lo, hi = self.confidence_interval()
        if self.better is None:
            head = f"{a} and {b} have the same Brier score ({self.brier_score_a:.4g})"
        else:
            worse = b if self.better == a else a
            bs_best = min(self.brier_score_a, self.brier_score_b)
            bs_worst = max(self.brier_score_a, self.brier_score_b)
            points = abs(self.brier_index_difference)
            # "better" only where the test says so; otherwise only the sample's order
            if self.pvalue < 0.05:
                head = f"{self.better} is better than {worse}: Brier score "
            else:
                head = f"{self.better} has the lower Brier score: "
            head += (
                f"{bs_best:.4g} vs {bs_worst:.4g} for {worse} (Brier Index "
                f"{points:.4g} points higher)"
            )
        sig = "significant" if self.pvalue < 0.05 else "not significant"
        return (
            f"{head}; the difference {a} - {b} = {self.difference:.4g} "
            f"(95% CI {lo:.4g} to {hi:.4g}, {self.cov_type}) is {sig} at the 5% "
            f"level (p = {self.pvalue:.4g}, {self.alternative})."
        )

    # ------------------------------------------------------------------ protocol
    def _summary_rows(self) -> list[tuple[str, str]]:
        a, b = self.names
        lo, hi = self.confidence_interval()
        blo, bhi = self._index_interval(DEFAULT_CONFIDENCE_LEVEL)
        rows = [
            ("models (a, b)", f"{a}, {b}"),
            (f"brier_score [{a}]", format_number(self.brier_score_a)),
            (f"brier_score [{b}]", format_number(self.brier_score_b)),
            ("difference (a - b)", format_number(self.difference)),
            ("difference 95% CI", f"({lo:.4g}, {hi:.4g})"),
            (f"brier_index [{a}]", format_number(self.brier_index_a)),
            (f"brier_index [{b}]", format_number(self.brier_index_b)),
            ("brier_index_difference", format_number(self.brier_index_difference)),
            ("brier_index_difference 95% CI", f"({blo:.4g}, {bhi:.4g})"),
            ("statistic", format_number(self.statistic)),
            ("pvalue", format_number(self.pvalue)),
            ("n", format_number(self.n)),
            ("cov_type", self.cov_type),
            ("alternative", self.alternative),
            ("lower Brier score", str(self.better)),
        ]
        return rows

    def summary(self) -> str:
        """A plain-text table of the comparison, ending with the verdict."""
        return super().summary() + "\n\n" + self.verdict

    def to_dict(self) -> dict[str, Any]:
        """Every public field, plus ``better`` and ``verdict``, as JSON-ready values."""
        out = super().to_dict()
        out["names"] = list(self.names)
        out["better"] = self.better
        out["verdict"] = self.verdict
        return out

    def to_frame(self, confidence_level: float = DEFAULT_CONFIDENCE_LEVEL) -> Any:
        """A two-row :class:`pandas.DataFrame`: Brier score and Brier Index.

        Rows ``brier_score`` and ``brier_index``; columns the two model
        names, ``difference`` (first minus second), ``standard_error``,
        ``ci_low``, ``ci_high`` (at ``confidence_level``) and ``pvalue``
        (the test of equal Brier scores, on the ``brier_score`` row).
        Requires pandas.

        Parameters
        ----------
        confidence_level : float, default=0.95
            Level of the intervals.

        Returns
        -------
        pandas.DataFrame
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        a, b = self.names
        ci = self.confidence_interval(confidence_level)
        bci = self._index_interval(confidence_level)
        return pd.DataFrame(
            {
                a: [self.brier_score_a, self.brier_index_a],
                b: [self.brier_score_b, self.brier_index_b],
                "difference": [self.difference, self.brier_index_difference],
                "standard_error": [
                    self.difference_standard_error,
                    self.brier_index_difference_standard_error,
                ],
                "ci_low": [ci.low, bci.low],
                "ci_high": [ci.high, bci.high],
                "pvalue": [self.pvalue, float("nan")],
            },
            index=pd.Index(["brier_score", "brier_index"], name="metric"),
        )

    # ------------------------------------------------------------------ intervals
    def standard_error(self, metric: str = "brier_score") -> float:
        """Standard error of a difference.

        Parameters
        ----------
        metric : {"brier_score", "brier_index"}, default="brier_score"
            The difference of the Brier scores (``difference_standard_error``)
            or of the Brier Indices (``brier_index_difference_standard_error``),
            as :meth:`BrierInferenceResult.standard_error
            <skbrier.results.BrierInferenceResult.standard_error>`.

        Returns
        -------
        float
            The standard error.
        """
        field = COMPARISON_METRICS[check_metric(self, metric)]
        return float(getattr(self, f"{field}_standard_error"))

    def _index_interval(self, level: Any) -> ConfidenceInterval:
        """The interval of the Brier Index difference, NaN where it has none
        (the summary's and the frame's; the public method raises)."""
        if self.bootstrap_distribution is None and not np.isfinite(
            self.brier_index_difference_standard_error
        ):
            check_confidence_level(level)
            return ConfidenceInterval(float("nan"), float("nan"))
        return self.confidence_interval(level, metric="brier_index")

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        field = COMPARISON_METRICS[metric]
        estimate = getattr(self, field)
        se = self.standard_error(metric)
        if method == "wald" and not np.isfinite(se):
            raise ValueError(
                "metric='brier_index': a Brier score is 0 (a perfect forecast), where "
                "the Brier Index 100 (1 - sqrt(BS)) has no derivative, so its difference "
                "has no delta-method interval. Use metric='brier_score', or "
                "cov_type='bootstrap'."
            )

        def replicates(boot: dict[str, Any]) -> tuple[Any, Any]:
            if field == "difference":
                return boot["statistics"][field], self.bootstrap_distribution
            return boot["statistics"][field], boot.get("index_replicates")

        return self._stored_interval(
            method,
            level,
            estimate=estimate,
            from_replicates=replicates,
            wald=lambda: normal_interval(estimate, se / self._hln_factor, level, self.df),
        )
