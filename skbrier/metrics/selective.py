r"""Selective prediction: how well a confidence ranks right answers above wrong ones.

A selective rule answers only when its confidence is at least a threshold
and abstains otherwise.  Lowering the threshold raises the **coverage** (the
share answered) and, for a useful confidence, the **selective risk** (the
error rate among the answered).  The risk--coverage curve and its area
(AURC) summarise every threshold at once.

* :func:`aurc`, :func:`e_aurc` -- the area under the risk--coverage curve
  and its excess over an oracle ranking, with fd-shifts' convention;
* :func:`risk_coverage_curve` -- the curve as a result (a table per distinct
  threshold or per coverage level, bootstrap intervals and bands);
* :func:`selective_accuracy` -- the accuracy of the most confident share;
* :func:`selective_coverage_accuracy_area`,
  :func:`selective_accuracy_at_top` -- HELM's ``selective_cov_acc_area``
  and ``selective_acc@10``, equal to HELM's own function.

The convention (one for every function here)
--------------------------------------------
*Ties are grouped*: answers of equal confidence are accepted or refused
together, so the curve has one point per distinct confidence :math:`t_j`
(coverage :math:`c_j`, the weight share with confidence :math:`\ge t_j`;
risk :math:`r_j`, the error rate among them).  *The curve starts at coverage
0* with the risk of the most confident group and joins the points by
straight lines: the AURC is the trapezoid rule over
:math:`(0, r_1), (c_1, r_1), \dots, (1, r_m)` -- the convention of fd-shifts
(``selective_risk_stats`` and ``evaluate_auc``; its numbers are 1000 times
ours, its display scale).  A value *inside* a group of ties (a coverage
between two points, a position of HELM's ranking) is the expectation when
the tied answers are entered in random order; without ties that is the
plain ranking.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from .._core.arrays import as_array
from .._core.diagnose import fmt
from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.kernels.selective import (
    RiskCoverage,
    accuracy_at_coverage,
    aurc_trapezoid,
    bootstrap_risk_coverage,
    confidence_groups,
    group_sums,
    helm_accuracy_at_top,
    helm_coverage_accuracy_area,
    oracle_aurc,
    ranked_groups,
    risk_coverage,
)
from .._core.params import (
    check_confidence_level,
    check_min_samples,
    check_n_jobs,
    check_n_resamples,
    check_random_state,
    check_real,
    validate_random_state,
)
from .._core.resampling import frequency_replicates
from .._core.validation import (
    binary_target,
    check_probabilities,
    check_sample_weight,
    scale_free_exponent,
    scale_free_weights,
)
from ._selective_results import RiskCoverageResult, check_coverage

__all__ = [
    "RiskCoverageResult",
    "aurc",
    "e_aurc",
    "risk_coverage_curve",
    "selective_accuracy",
    "selective_accuracy_at_top",
    "selective_coverage_accuracy_area",
]

ARRAYS = ("y_correct", "confidence", "sample_weight")
_F = TypeVar("_F", bound=Callable[..., Any])
IN_MEMORY = Refused(
    "the ranking sorts all rows at once; compute it on the collected rows "
    "(e.g. ddf.compute()) or on a uniform subsample"
)


def declare_in_memory(
    arrays: tuple[str, ...] = ARRAYS, namespace_of: str = "confidence"
) -> Callable[[_F], _F]:
    """The backend declaration of the functions that rank the rows (these and
    those of :mod:`.abstention`): Dask input refused (:data:`IN_MEMORY`), Array
    API input copied to the host."""
    return backends(
        arrays=arrays, namespace_of=namespace_of, dask=IN_MEMORY, array_api=HOST
    )


#: coverages of the bootstrap bands when ``coverage_grid=None``: 0.01, ..., 1
DEFAULT_COVERAGE_GRID = np.arange(1, 101) / 100
#: the most observations HELM's position-based statistics count exactly
MAX_POSITIONS = 2.0**53


# --------------------------------------------------------------------------- checks
def correctness_labels(
    y_correct: Any,
    n: int | None,
    name: str,
    ref_name: str,
    *,
    one: str = "a right answer",
    text: str = "'correct'",
) -> np.ndarray:
    """Binary labels (1 or True: right) as float64 0/1, by the one binary-label check.

    Text labels are refused with the conversion to make (there is no
    ``pos_label`` here: correctness is yes or no).  ``one``: what a 1 means
    (``attempted``: an answer given), ``text``: the text of a 1 in the
    example of the conversion.
    """
    if y_correct is not None and not isinstance(y_correct, (str, bytes)):
        # read once here (pandas and lists become the array binary_target reads)
        y_correct = (
            y_correct if isinstance(y_correct, np.ndarray) else as_array(y_correct, name)
        )
        if y_correct.dtype.kind == "O" and all(
            isinstance(v, (bool, np.bool_)) for v in y_correct.ravel()
        ):
            y_correct = y_correct.astype(bool)  # booleans kept as objects
        if y_correct.dtype.kind in "US" or (
            y_correct.dtype.kind == "O"
            and y_correct.size
            and isinstance(y_correct.ravel()[0], str)
        ):
            raise TypeError(
                f"{name} must hold booleans or 0/1 (1: {one}), got text such "
                f"as {str(y_correct.ravel()[0])!r}; convert it, e.g. {name} == {text}."
            )
    if isinstance(y_correct, np.ndarray) and y_correct.dtype.kind == "f":
        # fractions (0.5: a partial credit?) are no correctness: said here,
        # before binary_target's message about labels
        frac = y_correct[np.isfinite(y_correct) & (y_correct != np.round(y_correct))]
        if frac.size:
            raise ValueError(_not_01(name, {frac.min().item(), frac.max().item()}, one))
    out = binary_target(y_correct, None, n, name=name, ref_name=ref_name)
    if isinstance(y_correct, np.ndarray) and y_correct.dtype.kind in "iuf":
        # binary_target reads any two numbers as a class pair (the larger one
        # positive); correctness is yes or no: 0/1 (or scikit-learn's -1/1)
        # (binary_target has checked that at most two values occur)
        pair = {y_correct.min().item(), y_correct.max().item()}
        if not (pair <= {0, 1} or pair <= {-1, 1}):
            raise ValueError(_not_01(name, pair, one))
    return out


def _not_01(name: str, values: set, one: str) -> str:
    found = " and ".join(fmt(v) for v in sorted(values))
    return (
        f"{name} must hold 0/1 or booleans (1: {one}), found the "
        f"values {found}; map them to 0/1 first, e.g. {name} == <the value "
        f"of {one}>."
    )


def check_correctness(
    y_correct: Any,
    confidence: Any,
    sample_weight: Any,
    *,
    names: tuple[str, str] = ("y_correct", "confidence"),
    drop_zero_weight: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validated ``(correct, confidence, w)``, zero-weight rows removed (unless
    ``drop_zero_weight`` is False: a caller that validates more arrays of the
    same rows removes them from all).

    ``y_correct``: :func:`correctness_labels`; ``confidence``: probabilities in
    [0, 1] (0 and 1 are fine: no hard-forecast warning); ``sample_weight``:
    frequency weights.
    """
    yname, cname = names
    c = check_probabilities(confidence, name=cname, allow_2d=False, warn_hard=False)
    n = c.shape[0]
    y = correctness_labels(y_correct, n, yname, cname)
    w = check_sample_weight(sample_weight, n, ref_name=cname)
    if drop_zero_weight and w is not None:
        keep = w > 0.0
        if not keep.all():
            y, c, w = y[keep], c[keep], w[keep]
    return y, c, w


def _integer_positions(w: np.ndarray | None, what: str) -> None:
    """HELM's statistics count positions of the ranking: integer weights only."""
    if w is None:
        return
    if not np.all(w == np.round(w)):
        raise ValueError(
            f"sample_weight: {what} counts positions in the ranking of the answers, "
            "so frequency weights must be integers (numbers of repeated rows); got "
            f"{float(w[w != np.round(w)][0]):.4g}."
        )
    if not float(w.sum()) <= MAX_POSITIONS:
        raise ValueError(
            f"sample_weight sums to {float(w.sum()):.4g}: {what} counts positions, and "
            "more than 2**53 of them cannot be counted exactly. Rescale sample_weight."
        )


def _curve(
    y: np.ndarray, c: np.ndarray, w: np.ndarray | None
) -> tuple[np.ndarray, RiskCoverage]:
    """The distinct confidences and the running sums of their groups, most
    confident first (unit weights: one ``np.sort``; weights: one argsort)."""
    if w is None:
        values, weight, right = ranked_groups(y, c)
        return values, risk_coverage(weight, right)
    groups = confidence_groups(c)
    return groups.values[::-1], risk_coverage(*group_sums(groups, y, w))


def _aurc_pair(rc: RiskCoverage) -> tuple[float, float]:
    area = aurc_trapezoid(rc)
    return area, area - float(oracle_aurc(rc.accuracy))


def _areas(y_correct: Any, confidence: Any, sample_weight: Any) -> tuple[float, float]:
    """The AURC and the E-AURC of the (unvalidated) answers."""
    y, c, w = check_correctness(y_correct, confidence, sample_weight)
    return _aurc_pair(_curve(y, c, scale_free_weights(w))[1])


# --------------------------------------------------------------------------- AURC
@declare_in_memory()
def aurc(
    y_correct: ArrayLike,
    confidence: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
) -> float:
    r"""Area under the risk--coverage curve (AURC): lower is better.

    Parameters
    ----------
    y_correct : array-like of shape (n_samples,)
        1 (or True) where the answer is right, 0 where it is wrong.
    confidence : array-like of shape (n_samples,)
        The confidence of each answer, in [0, 1] (e.g. the probability of
        the predicted class, or a verbalized confidence / 100).  Only its
        ranking matters.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (integer weights equal repeated rows).

    Returns
    -------
    float
        The AURC in [0, 1] (fd-shifts reports 1000 times it).

    Raises
    ------
    ValueError
        If ``confidence`` holds values outside [0, 1], ``y_correct`` is not
        binary or the lengths differ.

    See Also
    --------
    e_aurc : AURC minus that of an oracle ranking.
    risk_coverage_curve : The curve, with bootstrap intervals.

    Notes
    -----
    Ties grouped, trapezoid rule, the curve starting at coverage 0 with the
    risk of the most confident group (see the module's notes): with the
    distinct confidences :math:`t_1 > \dots > t_m`, coverage :math:`c_j`
    and selective risk :math:`r_j` of the answers with confidence
    :math:`\ge t_j`,

    .. math:: \mathrm{AURC} = c_1 r_1 + \sum_{j=2}^{m} (c_j - c_{j-1})
              \frac{r_j + r_{j-1}}{2}.

    Equal to fd-shifts' ``aurc`` divided by 1000 (tested).  One
    ``np.argsort`` of the confidences; everything else is linear.

    References
    ----------
    .. [1] Geifman Y, El-Yaniv R. Selective classification for deep neural
       networks. NeurIPS 2017.
    .. [2] Traub J, Bungert TJ, Lüth CT, et al. Overcoming common flaws in
       the evaluation of selective classification systems. NeurIPS 2024
       (fd-shifts).

    Examples
    --------
    >>> from skbrier.metrics.selective import aurc
    >>> aurc([1, 1, 0, 1], [0.9, 0.8, 0.7, 0.6])
    0.1145...
    """
    return _areas(y_correct, confidence, sample_weight)[0]


@declare_in_memory()
@shared_doc
def e_aurc(
    y_correct: ArrayLike,
    confidence: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
) -> float:
    r"""Excess AURC: the AURC minus that of an oracle ranking (0 is ideal).

    Parameters
    ----------
    {{correctness_inputs}}
    {{sample_weight}}

    Returns
    -------
    float
        :func:`aurc` minus the oracle's area.

    Raises
    ------
    ValueError
        If the inputs are invalid (see :func:`aurc`).

    See Also
    --------
    aurc : The area itself.

    Notes
    -----
    The oracle ranks every right answer above every wrong one; its area in
    the limit of many answers is :math:`e + (1 - e)\ln(1 - e)` for the error
    rate :math:`e` (Geifman et al. 2019; fd-shifts' ``aurc_optimal`` for
    binary residuals, which this equals divided by 1000).  The finite-sample
    area of a perfect ranking lies slightly below that limit, so a perfect
    ranking gets an E-AURC slightly below 0 (of order :math:`1/n`).

    References
    ----------
    .. [1] Geifman Y, Uziel G, El-Yaniv R. Bias-reduced uncertainty
       estimation for deep neural classifiers. ICLR 2019.

    Examples
    --------
    >>> from skbrier.metrics.selective import e_aurc
    >>> round(e_aurc([1, 1, 0, 1], [0.9, 0.8, 0.7, 0.6]), 4)
    0.0803
    """
    return _areas(y_correct, confidence, sample_weight)[1]


@declare_in_memory()
@shared_doc
def risk_coverage_curve(
    y_correct: ArrayLike,
    confidence: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    coverage_grid: ArrayLike | None = None,
    n_resamples: int = 0,
    confidence_level: float = 0.95,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> RiskCoverageResult:
    r"""The risk--coverage curve, its AURC and E-AURC, with bootstrap intervals.

    Parameters
    ----------
    {{correctness_inputs}}
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (integer weights equal repeated rows; the
        bootstrap draws observations, see Notes).
    coverage_grid : array-like of shape (n_coverages,), default=None
        Coverages in (0, 1] where the bootstrap bands of the selective risk
        are computed (default 0.01, 0.02, ..., 1).
    n_resamples : int, default=0
        Bootstrap resamples (0: none; otherwise at least 2).
    confidence_level : float, default=0.95
        Level of the result's ``bands`` (its ``confidence_interval`` takes
        any level).
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seed of the bootstrap (the same seed gives the same intervals for
        every ``n_jobs``).
    n_jobs : int, default=None
        joblib threads for the bootstrap.

    Returns
    -------
    RiskCoverageResult
        One point per distinct confidence (``to_frame()``; ``to_frame(coverage=...)``
        for a table per coverage level), ``aurc``, ``e_aurc`` and, with a
        bootstrap, ``confidence_interval(metric="aurc" | "e_aurc" |
        "selective_risk")``.

    Raises
    ------
    ValueError
        If the inputs are invalid (see :func:`aurc`), ``coverage_grid`` is
        outside (0, 1], or a bootstrap is asked for fewer than 3
        observations.
    TypeError
        For an option of the wrong type.

    See Also
    --------
    aurc, e_aurc : The areas alone.
    skbrier.plotting.risk_coverage.RiskCoverageDisplay : Plot the curve.

    Notes
    -----
    The rows are sorted once; each resample costs :math:`O(n)` (its counts
    are summed per group of ties).  Resamples are drawn by skbrier's one
    resampling engine: iid rows, and with frequency weights ``round(W)``
    observations (integer weights: exactly the draws of the repeated
    rows).  Intervals and bands are percentile (or basic) bootstrap
    intervals; the band at a coverage :math:`c` is that of the selective
    risk of the most confident share :math:`c` (ties entered at random).

    Examples
    --------
    >>> from skbrier.metrics.selective import risk_coverage_curve
    >>> res = risk_coverage_curve([1, 1, 0, 1], [0.9, 0.8, 0.8, 0.6])
    >>> res.to_frame()
       threshold  coverage      risk  accuracy  n_answered
    0        0.9      0.25  0.000000  1.000000         1.0
    1        0.8      0.75  0.333333  0.666667         3.0
    2        0.6      1.00  0.250000  0.750000         4.0
    >>> round(res.aurc, 4)
    0.1562
    """
    grid = (
        DEFAULT_COVERAGE_GRID.copy()
        if coverage_grid is None
        else check_coverage(coverage_grid, "coverage_grid")
    )
    n_resamples = check_n_resamples(n_resamples, allow_zero=True)
    level = check_confidence_level(confidence_level)
    n_jobs = check_n_jobs(n_jobs)
    validate_random_state(random_state)
    y, c, w = check_correctness(y_correct, confidence, sample_weight)
    # the curve of the weights times 2**e (exact; the AURC of weights of 5e-324
    # was rounded), its running weights reported on the weights' own scale
    e = 0 if w is None else scale_free_exponent(w)
    values, rc = _curve(y, c, w if w is None or e == 0 else np.ldexp(w, e))
    area, excess = _aurc_pair(rc)
    reps = None
    if n_resamples:
        n = y.shape[0]
        groups = confidence_groups(c)
        check_min_samples(n, None if w is None else float(w.sum()))
        out = frequency_replicates(
            bootstrap_risk_coverage(groups, y, grid),
            w,
            n,
            n_resamples,
            random_state=check_random_state(random_state),
            n_jobs=n_jobs,
            desc="risk-coverage bootstrap",
        )
        reps = {"aurc": out[:, 0], "e_aurc": out[:, 1], "selective_risk": out[:, 2:]}
    return RiskCoverageResult(
        thresholds=values.copy(),
        n_answered=rc.accepted if e == 0 else np.ldexp(rc.accepted, -e),
        n_correct=rc.accepted_right if e == 0 else np.ldexp(rc.accepted_right, -e),
        aurc=area,
        e_aurc=excess,
        coverage_grid=grid,
        n_resamples=n_resamples,
        confidence_level=level,
        bootstrap_replicates=reps,
    )


# --------------------------------------------------------------------------- accuracy
@declare_in_memory()
@shared_doc
def selective_accuracy(
    y_correct: ArrayLike,
    confidence: ArrayLike,
    *,
    coverage: float | ArrayLike,
    sample_weight: ArrayLike | None = None,
) -> float | np.ndarray:
    r"""Accuracy of the most confident answers, at a coverage.

    Parameters
    ----------
    {{correctness_inputs}}
    coverage : float or array-like of shape (n_coverages,)
        The share of the answers kept, in (0, 1] (1: the plain accuracy).
    {{sample_weight}}

    Returns
    -------
    float or ndarray
        The accuracy at each coverage (a float for a scalar ``coverage``).

    Raises
    ------
    ValueError
        If ``coverage`` is outside (0, 1] or the inputs are invalid.

    See Also
    --------
    risk_coverage_curve : The whole curve (its selective risk is one minus
        this accuracy).
    selective_accuracy_at_top : HELM's accuracy on the top 10 %.

    Notes
    -----
    With :math:`W` the total weight, the most confident :math:`cW` of the
    weight is kept; a group of tied confidences that straddles the cut is
    kept in part, as a random order of its answers would (its accuracy
    counts in proportion).  So the value is the expected accuracy of a
    selective rule that answers exactly the share :math:`c`.

    Examples
    --------
    >>> from skbrier.metrics.selective import selective_accuracy
    >>> y, conf = [1, 0, 1, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5]
    >>> selective_accuracy(y, conf, coverage=0.4)
    0.5
    >>> selective_accuracy(y, conf, coverage=[0.2, 1.0])
    array([1. , 0.6])
    """
    cov = check_coverage(coverage)
    y, c, w = check_correctness(y_correct, confidence, sample_weight)
    # the share cW of a total weight of 1e-300 underflowed (NaN): scale-free weights
    acc = accuracy_at_coverage(_curve(y, c, scale_free_weights(w))[1], cov)
    return float(acc[0]) if np.ndim(coverage) == 0 else acc


@declare_in_memory()
def selective_coverage_accuracy_area(
    y_correct: ArrayLike,
    confidence: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
) -> float:
    r"""HELM's selective coverage--accuracy area (``selective_cov_acc_area``).

    Parameters
    ----------
    y_correct : array-like of shape (n_samples,)
        1 (or True) where the answer is right, 0 where it is wrong (HELM:
        ``exact_match``).
    confidence : array-like of shape (n_samples,)
        The confidence of each answer (HELM: ``max_prob``), in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Integer frequency weights (the statistic counts positions).

    Returns
    -------
    float
        The mean over :math:`k = 1, \dots, n` of the accuracy of the
        :math:`k` most confident answers; higher is better.

    Raises
    ------
    ValueError
        If the inputs are invalid, or ``sample_weight`` holds non-integer
        weights.

    See Also
    --------
    selective_accuracy_at_top : HELM's other selective statistic.
    aurc : The trapezoid area of the risk--coverage curve.

    Notes
    -----
    HELM's ``get_selective_stats`` (of Kumar et al.'s
    ``uncertainty-calibration`` package):
    ``np.mean(np.cumsum(correct[np.argsort(-probs)]) / np.arange(1, n + 1))``.
    Equal to it (to 1e-12, tested) for confidences without ties; with ties
    HELM's value depends on the order numpy's unstable sort leaves them in,
    skbrier gives the average over those orders (ties grouped).  It is one
    minus the step-rule (right Riemann sum) AURC.  With integer weights
    :math:`w` the positions are those of the repeated rows, summed per
    group in closed form with harmonic numbers.

    Examples
    --------
    >>> from skbrier.metrics.selective import selective_coverage_accuracy_area
    >>> round(selective_coverage_accuracy_area([1, 0, 1, 1], [0.9, 0.8, 0.7, 0.6]), 4)
    0.7292
    """
    y, c, w = check_correctness(y_correct, confidence, sample_weight)
    _integer_positions(w, "the selective coverage-accuracy area")
    return helm_coverage_accuracy_area(_curve(y, c, w)[1])


@declare_in_memory()
@shared_doc
def selective_accuracy_at_top(
    y_correct: ArrayLike,
    confidence: ArrayLike,
    *,
    fraction: float = 0.1,
    sample_weight: ArrayLike | None = None,
) -> float:
    r"""HELM's accuracy on the most confident answers (``selective_acc@10``).

    Parameters
    ----------
    {{correctness_inputs}}
    fraction : float, default=0.1
        The share in [0, 1) of HELM's index: the accuracy of the
        ``int(fraction * n) + 1`` most confident answers.
    sample_weight : array-like of shape (n_samples,), default=None
        Integer frequency weights (``n`` is then their total).

    Returns
    -------
    float
        The accuracy of the most confident answers.

    Raises
    ------
    ValueError
        If ``fraction`` is outside [0, 1), the inputs are invalid, or
        ``sample_weight`` holds non-integer weights.

    See Also
    --------
    selective_accuracy : The accuracy at an exact coverage.
    selective_coverage_accuracy_area : HELM's area.

    Notes
    -----
    HELM's ``acc_percentile_90 = accs[int(0.1 * len(correct))]`` (of
    ``get_selective_stats``) is the accuracy of the first
    :math:`\lfloor 0.1 n \rfloor + 1` answers -- one more than 10 %
    (the top 2 of 10); :func:`selective_accuracy` with ``coverage=0.1``
    keeps exactly 10 %.  Ties as in :func:`selective_coverage_accuracy_area`.

    Examples
    --------
    >>> from skbrier.metrics.selective import selective_accuracy_at_top
    >>> y = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1]
    >>> selective_accuracy_at_top(y, [0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5])
    0.5
    """
    frac = check_real(fraction, "fraction", low=0.0, high=1.0, inclusive=(True, False))
    y, c, w = check_correctness(y_correct, confidence, sample_weight)
    _integer_positions(w, "the accuracy at the top")
    return helm_accuracy_at_top(_curve(y, c, w)[1], frac)
