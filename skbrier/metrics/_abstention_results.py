"""Results of :mod:`skbrier.metrics.abstention` (public in :mod:`skbrier.results`)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from .._core.bootstrap_results import _BootstrapResult
from .._core.docstrings import with_pieces
from .._core.format import format_number
from .._core.kernels.net_benefit import treat_all_curve
from .._core.optional import import_optional
from .._core.results import Result

__all__ = ["AbstentionResult", "AbstentionUtilityComparison", "AbstentionUtilityResult"]


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class AbstentionResult(Result):
    """Scores of answers that may abstain, as SimpleQA grades them.

    Returned by :func:`~skbrier.metrics.abstention.abstention_scores`.  The
    shares are of all questions (total weight); simple-evals' names in
    brackets.

    Attributes
    ----------
    correct : float
        Share answered and right (``is_correct``).
    incorrect : float
        Share answered and wrong (``is_incorrect``).
    not_attempted : float
        Share not attempted (``is_not_attempted``).
    coverage : float
        Share attempted, ``correct + incorrect`` (``is_given_attempted``).
    accuracy_given_attempted : float
        ``correct / coverage``, 0 when nothing was attempted
        (``accuracy_given_attempted``).
    f_score : float
        Harmonic mean of ``correct`` and ``accuracy_given_attempted``, 0 when
        both are 0 (``f1``).
    n : float
        Number of questions (total weight).

    See Also
    --------
    skbrier.metrics.abstention.abstention_scores : Builds it.

    Examples
    --------
    >>> from skbrier.metrics.abstention import abstention_scores
    >>> res = abstention_scores([1, 0, 1, 0], [True, True, True, False])
    >>> res.coverage, res.accuracy_given_attempted, round(res.f_score, 4)
    (0.75, 0.6666666666666666, 0.5714)
    """

    correct: float
    incorrect: float
    not_attempted: float
    coverage: float
    accuracy_given_attempted: float
    f_score: float
    n: float


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class _UtilityFields:
    """The fields of both utility results but the bootstrap's: ``thresholds``
    first, ``max_threshold`` and ``n`` (keyword-only) after the result's own."""

    thresholds: np.ndarray
    _: dataclasses.KW_ONLY
    max_threshold: float
    n: float


# _UtilityFields after _BootstrapResult: its fields are declared first, so the
# constructor ends with max_threshold, n, then the bootstrap's keyword fields
@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class _UtilityCurves(_BootstrapResult, _UtilityFields):
    """What the two utility results share: the fields, the intervals and the table."""

    _interval_metrics: ClassVar[tuple[str, ...]] = ("utility_area", "utility")
    _band_metric: ClassVar[str] = "utility"
    #: the attributes of the band's curve and of the area's estimate
    _curve: ClassVar[str]
    _area: ClassVar[str]
    #: ``to_frame``'s columns after ``threshold``
    _columns: ClassVar[tuple[str, ...]]

    def _estimate(self, metric: str) -> Any:
        return getattr(self, self._curve if metric == "utility" else self._area)

    def _dict_intervals(self) -> dict[str, str]:
        return {f"{self._area}_interval": "utility_area", "bands": "utility"}

    def to_frame(self) -> Any:
        """One row per threshold, with a bootstrap the band's bounds too.

        The columns: ``threshold``, ``utility``, ``answer_rate`` and
        ``answer_all`` (and the band ``utility_low``/``utility_high``) for one
        model; ``threshold``, ``utility_a``, ``utility_b`` and ``difference``
        (and ``difference_low``/``difference_high``) for a comparison.

        Returns
        -------
        pandas.DataFrame
            A row per threshold.

        Examples
        --------
        >>> from skbrier.metrics.abstention import abstention_utility
        >>> res = abstention_utility([1, 0, 1, 1], [0.9, 0.8, 0.6, 0.3],
        ...                          thresholds=[0.5])
        >>> res.to_frame().columns.tolist()
        ['threshold', 'utility', 'answer_rate', 'answer_all']
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        cols = {"threshold": self.thresholds}
        cols.update((name, getattr(self, name)) for name in self._columns)
        bands = self.bands
        if bands is not None:
            cols[f"{self._curve}_low"], cols[f"{self._curve}_high"] = bands
        return pd.DataFrame(cols)


#: the attributes after ``max_threshold`` that both utility results describe
_doc = with_pieces(
    {
        "area_sampling": """\
n : float
    Number of questions (total weight).
n_resamples : int
    Bootstrap resamples (0: none).
confidence_level : float
    Level of :attr:`bands`."""
    }
)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
@_doc
class AbstentionUtilityResult(_UtilityCurves):
    r"""The answer-or-abstain utility curve of one confidence, and its area.

    Returned by :func:`~skbrier.metrics.abstention.abstention_utility`.
    ``confidence_interval(metric=...)`` gives the bootstrap interval of the
    area (``"utility_area"``, the default) or the pointwise band of the
    utility (``"utility"``), ``method="percentile"`` (default) or
    ``"basic"``.

    Attributes
    ----------
    thresholds : ndarray of shape (n_thresholds,)
        Thresholds :math:`t`, in the order given.
    utility : ndarray of shape (n_thresholds,)
        Mean utility per question of answering when confidence
        :math:`\ge t`: right +1, wrong :math:`-t/(1 - t)`, abstaining 0.
    answer_rate : ndarray of shape (n_thresholds,)
        Share of the questions answered at each threshold.
    accuracy : float
        Share of right answers (the utility of answering everything at
        :math:`t = 0`).
    area : float
        :math:`\int_0^{T} U(t)\,dt` with :math:`T` = ``max_threshold``,
        computed exactly (``-inf`` when :math:`T = 1` and a wrong answer
        has confidence 1).
    max_threshold : float
        Upper end :math:`T` of the area.
    {{area_sampling}}
    bootstrap_replicates : dict of str to ndarray or None
        ``"utility"`` (n_resamples, n_thresholds), ``"utility_area"``
        (n_resamples,).
    answer_all : ndarray of shape (n_thresholds,)
        Utility of answering everything, :math:`a - (1 - a)\,t/(1 - t)`
        (abstaining on everything has utility 0).
    bands : ConfidenceInterval or None
        Pointwise bootstrap band of the utility at ``confidence_level``.

    See Also
    --------
    skbrier.metrics.abstention.abstention_utility : Builds it.

    Examples
    --------
    >>> from skbrier.metrics.abstention import abstention_utility
    >>> res = abstention_utility([1, 0, 1, 1], [0.9, 0.8, 0.6, 0.3],
    ...                          thresholds=[0.5, 0.7])
    >>> res.utility
    array([ 0.25      , -0.33333333])
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> conf = rng.uniform(0, 0.95, 400)
    >>> right = rng.uniform(size=400) < conf
    >>> res = abstention_utility(right, conf, n_resamples=200, random_state=0)
    >>> low, high = res.confidence_interval()
    >>> bool(low < res.area < high)
    True
    """

    utility: np.ndarray
    answer_rate: np.ndarray
    accuracy: float
    area: float

    _builder: ClassVar[str] = "abstention_utility"
    _curve: ClassVar[str] = "utility"
    _area: ClassVar[str] = "area"
    _columns: ClassVar[tuple[str, ...]] = ("utility", "answer_rate", "answer_all")

    @property
    def answer_all(self) -> np.ndarray:
        return treat_all_curve(self.accuracy, self.thresholds)

    def _headline(self) -> dict[str, Any]:
        return {
            "area": self.area,
            "max_threshold": self.max_threshold,
            "accuracy": self.accuracy,
            "n": self.n,
            "n_thresholds": int(self.thresholds.shape[0]),
            "n_resamples": self.n_resamples,
        }


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
@_doc
class AbstentionUtilityComparison(_UtilityCurves):
    r"""Paired comparison of two models' answer-or-abstain utility on the same questions.

    Returned by
    :func:`~skbrier.metrics.abstention.compare_abstention_utility`.  Every
    difference is model a minus model b; the bootstrap resamples the
    questions, the same ones for both models: ``confidence_interval`` gives
    the interval of the area difference (``metric="utility_area"``, the
    default) or the pointwise band of the utility difference
    (``"utility"``).

    Attributes
    ----------
    thresholds : ndarray of shape (n_thresholds,)
        Thresholds :math:`t`.
    utility_a, utility_b : ndarray of shape (n_thresholds,)
        Each model's utility curve.
    area_a, area_b : float
        Each model's area :math:`\int_0^T U(t)\,dt`.
    max_threshold : float
        :math:`T`.
    {{area_sampling}}
    bootstrap_replicates : dict of str to ndarray or None
        Differences: ``"utility"`` (n_resamples, n_thresholds),
        ``"utility_area"`` (n_resamples,).
    difference : ndarray of shape (n_thresholds,)
        ``utility_a - utility_b``.
    area_difference : float
        ``area_a - area_b``.
    bands : ConfidenceInterval or None
        Pointwise band of ``difference`` at ``confidence_level``.

    See Also
    --------
    skbrier.metrics.abstention.compare_abstention_utility : Builds it.

    Examples
    --------
    >>> from skbrier.metrics.abstention import compare_abstention_utility
    >>> res = compare_abstention_utility([1, 0, 1], [0.9, 0.2, 0.6],
    ...                                  [1, 1, 0], [0.5, 0.6, 0.9],
    ...                                  thresholds=[0.5], n_resamples=0)
    >>> res.to_frame()["difference"].round(4).tolist()
    [0.3333]
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> p = rng.uniform(0, 0.9, 300)
    >>> right = rng.uniform(size=300) < p
    >>> res = compare_abstention_utility(right, p, right, np.full(300, 0.5),
    ...                                  n_resamples=200, random_state=0)
    >>> low, high = res.confidence_interval()
    >>> bool(low > 0)
    True
    """

    utility_a: np.ndarray
    utility_b: np.ndarray
    area_a: float
    area_b: float

    _builder: ClassVar[str] = "compare_abstention_utility"
    _curve: ClassVar[str] = "difference"
    _area: ClassVar[str] = "area_difference"
    _columns: ClassVar[tuple[str, ...]] = ("utility_a", "utility_b", "difference")

    @property
    def difference(self) -> np.ndarray:
        return self.utility_a - self.utility_b

    @property
    def area_difference(self) -> float:
        return float(self.area_a - self.area_b)

    def _headline(self) -> dict[str, Any]:
        return {
            "area_a": self.area_a,
            "area_b": self.area_b,
            "area_difference": self.area_difference,
            "max_threshold": self.max_threshold,
            "n": self.n,
            "n_resamples": self.n_resamples,
        }

    def _summary_rows(self) -> list[tuple[str, str]]:
        rows = super()._summary_rows()
        if self.bootstrap_replicates is not None:
            low, high = self.confidence_interval(self.confidence_level)
            rows.append(
                (
                    f"area_difference {format_number(100 * self.confidence_level)}% CI",
                    f"[{format_number(low)}, {format_number(high)}]",
                )
            )
        return rows
