"""Validation-free kernels of selective prediction and abstention.

Inputs are validated float64 arrays: ``correct`` holds 0/1 (1: the answer is
right), ``confidence`` values in [0, 1], ``w`` positive frequency weights or
None (zero-weight rows are removed by the caller).

**Ties are grouped.**  The rows are sorted once by confidence
(:func:`confidence_groups`, one ``np.argsort``) and every distinct
confidence is one group: a selective rule "answer when confidence >= t"
accepts a whole group or none of it.  Per group (most confident first) the
weight ``n_g`` and the correct weight ``c_g`` are summed, and their running
sums ``K`` (weight accepted) and ``C`` (correct weight accepted) give the
risk--coverage curve: coverage ``K / W`` and selective risk ``1 - C / K`` at
each distinct threshold.

Where a statistic needs a point *inside* a group (a coverage that is not a
group boundary, or a position ``k`` of HELM's ranking), the group is
entered at random: the expected correct weight among the first ``k`` is
linear within the group, ``C(k) = C_prev + (k - K_prev) c_g / n_g``
(:func:`correct_at`).  Without ties this is the plain ranking.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from scipy.special import xlogy

__all__ = [
    "ConfidenceGroups",
    "RiskCoverage",
    "accuracy_at_coverage",
    "aurc_trapezoid",
    "bootstrap_risk_coverage",
    "confidence_groups",
    "correct_at",
    "group_sums",
    "harmonic_difference",
    "helm_accuracy_at_top",
    "helm_coverage_accuracy_area",
    "oracle_aurc",
    "ranked_groups",
    "risk_coverage",
    "simpleqa_aggregate",
    "utility_area_scores",
]


# --------------------------------------------------------------------------- groups
class ConfidenceGroups(NamedTuple):
    """The rows sorted once by confidence, cut into groups of equal confidence.

    ``order`` sorts the rows by *increasing* confidence; ``starts`` are the
    first positions of the groups in that order and ``values`` their
    confidences (increasing).
    """

    order: np.ndarray
    starts: np.ndarray
    values: np.ndarray


def confidence_groups(confidence: np.ndarray) -> ConfidenceGroups:
    """One ``np.argsort`` of the confidences and the boundaries of their ties.

    The sort need not be stable: rows of equal confidence form one group,
    whose sums do not depend on their order.
    """
    order = np.argsort(confidence)
    s = confidence[order]
    new = np.empty(s.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return ConfidenceGroups(order, starts, s[starts])


def ranked_groups(
    correct: np.ndarray, confidence: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit weights: ``(confidences, weight, correct weight)`` of the groups,
    **most confident first**, from one ``np.sort`` (no argsort, no gather).

    The bits of a non-negative float64 increase with its value, so the key
    ``bits << 1 | correct`` sorts by confidence (the sign bit, set only for
    -0.0, is shifted out: -0.0 and 0.0 tie) and carries the correctness in
    its last bit.  The same groups and sums as :func:`confidence_groups`
    and :func:`group_sums`.
    """
    one = np.uint64(1)
    key = np.left_shift(confidence.view(np.uint64), one)
    key |= correct.astype(np.uint64)
    key.sort()
    bits = key >> one
    n = key.shape[0]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(bits[1:], bits[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    weight = np.diff(np.append(starts, n)).astype(np.float64)
    right = np.add.reduceat(key & one, starts).astype(np.float64)
    values = bits[starts].view(np.float64)
    return values[::-1], weight[::-1], right[::-1]


def group_sums(
    groups: ConfidenceGroups, correct: np.ndarray, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Weight and correct weight of every group, **most confident first**.

    ``w`` is None (unit weights), a 1-D weight per row or a 2-D array of
    weights of several resamples ``(size, n)``: then both outputs are
    ``(size, n_groups)``.
    """
    order, starts = groups.order, groups.starts
    if w is None:
        n = order.shape[0]
        weight = np.diff(np.append(starts, n)).astype(np.float64)
        right = np.add.reduceat(correct[order], starts)
        return weight[::-1], right[::-1]
    ws = w[..., order]
    weight = np.add.reduceat(ws, starts, axis=-1)
    right = np.add.reduceat(ws * correct[order], starts, axis=-1)
    return weight[..., ::-1], right[..., ::-1]


class RiskCoverage(NamedTuple):
    """Running sums over the groups, most confident first.

    ``weight``/``right``: each group's weight and correct weight;
    ``accepted``/``accepted_right``: their running sums ``K`` and ``C``.
    """

    weight: np.ndarray
    right: np.ndarray
    accepted: np.ndarray
    accepted_right: np.ndarray

    @property
    def total(self) -> float:
        return float(self.accepted[-1])

    @property
    def coverage(self) -> np.ndarray:
        """Share of the weight answered at each distinct threshold, ``K / W``."""
        return self.accepted / self.accepted[-1]

    @property
    def risk(self) -> np.ndarray:
        """Selective risk at each distinct threshold, ``1 - C / K``."""
        return (self.accepted - self.accepted_right) / self.accepted

    @property
    def accuracy(self) -> float:
        return float(self.accepted_right[-1] / self.accepted[-1])


def risk_coverage(weight: np.ndarray, right: np.ndarray) -> RiskCoverage:
    """:class:`RiskCoverage` of the groups' sums (1-D, positive weights)."""
    return RiskCoverage(weight, right, np.cumsum(weight), np.cumsum(right))


# --------------------------------------------------------------------------- AURC
def aurc_trapezoid(rc: RiskCoverage) -> float:
    r"""Area under the risk--coverage curve by the trapezoid rule.

    The curve joins the points (coverage, risk) of the distinct thresholds
    (coverage increasing) and starts at coverage 0 with the risk of the most
    confident group, as fd-shifts' ``selective_risk_stats`` (its final point
    ``(0, risks[-1])``): with the groups' weights :math:`n_j` and total
    :math:`W`,

    .. math:: \mathrm{AURC} = \frac{1}{W}\Big(n_1 r_1 + \sum_{j \ge 2} n_j
              \frac{r_j + r_{j-1}}{2}\Big).
    """
    # the groups' shares n_j / W first: products of tiny (subnormal) weights
    # and risks would underflow
    n, r = rc.weight / rc.total, rc.risk
    inner = n[1:] @ r[1:] + n[1:] @ r[:-1]
    return float(n[0] * r[0] + 0.5 * inner)


def oracle_aurc(accuracy: Any) -> Any:
    r"""AURC of an oracle that ranks every right answer above every wrong one.

    In the limit of many samples (Geifman et al. 2019, fd-shifts'
    ``aurc_optimal`` for binary residuals): with error rate
    :math:`e = 1 - a`, :math:`e + (1 - e) \ln(1 - e)` (0 when every answer
    is wrong).
    """
    return (1.0 - accuracy) + xlogy(accuracy, accuracy)


# --------------------------------------------------------------------------- inside a group
def correct_at(rc: RiskCoverage, k: np.ndarray) -> np.ndarray:
    """Expected correct weight among the first ``k`` (``0 < k <= W``) of the
    ranking, ties entered at random (linear within a group)."""
    j = np.minimum(np.searchsorted(rc.accepted, k, side="left"), rc.accepted.shape[0] - 1)
    k_prev = np.where(j > 0, rc.accepted[j - 1], 0.0)
    c_prev = np.where(j > 0, rc.accepted_right[j - 1], 0.0)
    return c_prev + (k - k_prev) * (rc.right[j] / rc.weight[j])


def accuracy_at_coverage(rc: RiskCoverage, coverage: np.ndarray) -> np.ndarray:
    """Accuracy of the most confident share ``coverage`` (in (0, 1]) of the
    weight, ties entered at random: ``C(cW) / (cW)``."""
    k = coverage * rc.total
    with np.errstate(invalid="ignore", divide="ignore"):
        return correct_at(rc, k) / k


# --------------------------------------------------------------------------- HELM
_SMALL = 32
# exact harmonic numbers H_0 .. H_32, correctly rounded
_HARMONIC = np.array(
    [math.fsum(1.0 / i for i in range(1, m + 1)) for m in range(_SMALL + 1)]
)


def harmonic_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    r""":math:`H_b - H_a = \sum_{k=a+1}^{b} 1/k` for integers ``0 <= a <= b`` (floats).

    The terms up to 32 come from a table of exact harmonic numbers; beyond,
    :math:`\psi(y) - \psi(x)` (:math:`x = a + 1`, :math:`y = b + 1`) is
    summed from its asymptotic series with every difference written without
    cancellation (``log1p(d / x)``, :math:`d / (2xy)`, ...), so a single
    term :math:`1 / k` near :math:`k = 2^{53}` keeps its relative accuracy.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if np.all(b - a == 1.0):  # one position per group (no ties, unit weights)
        return 1.0 / b
    lo = np.minimum(a, _SMALL).astype(np.intp)
    hi = np.minimum(b, _SMALL).astype(np.intp)
    out = _HARMONIC[hi] - _HARMONIC[lo]
    x = np.maximum(a, _SMALL) + 1.0
    y = np.maximum(b, _SMALL) + 1.0
    d = y - x
    xy = x * y
    s = x + y
    tail = (
        np.log1p(d / x)
        + d / (2.0 * xy)
        + d * s / (12.0 * xy * xy)
        - d * s * (x * x + y * y) / (120.0 * xy**4)
        + d * s * (x**4 + xy * xy + y**4) / (252.0 * xy**6)
        - d * s * (x * x + y * y) * (x**4 + y**4) / (240.0 * xy**8)
    )
    return out + tail


def helm_coverage_accuracy_area(rc: RiskCoverage) -> float:
    r"""HELM's selective coverage--accuracy area, :math:`\frac1W \sum_{k=1}^{W} C(k)/k`.

    ``rc`` must hold integer weights (positions).  Within a group of weight
    :math:`b - a` after :math:`a` accepted, :math:`C(k) = C_a + (k - a) r`
    with :math:`r = c_g / n_g`, so the group adds
    :math:`(C_a - a r)(H_b - H_a) + r (b - a)`.
    """
    b = rc.accepted
    a = b - rc.weight
    c_prev = rc.accepted_right - rc.right
    r = rc.right / rc.weight
    terms = (c_prev - a * r) * harmonic_difference(a, b) + r * rc.weight
    return float(terms.sum() / rc.total)


def helm_accuracy_at_top(rc: RiskCoverage, fraction: float) -> float:
    """HELM's ``acc_percentile_90``: the accuracy of the first
    ``int(fraction * W) + 1`` of the ranking (``accs[int(0.1 * n)]``)."""
    k = float(int(fraction * rc.total) + 1)
    return float(correct_at(rc, np.array([k]))[0] / k)


# --------------------------------------------------------------------------- bootstrap
def bootstrap_risk_coverage(
    groups: ConfidenceGroups, correct: np.ndarray, grid: np.ndarray
):
    """Task factory: ``counts (size, n) -> (size, 2 + G)`` replicates of the
    AURC, the E-AURC and the selective risk at each coverage of ``grid``.

    The rows are sorted once (``groups``); each resample costs O(n): its
    counts are summed per group, groups drawn zero times are skipped.
    """

    def statistic(counts: np.ndarray) -> np.ndarray:
        weight, right = group_sums(groups, correct, counts)
        out = np.empty((counts.shape[0], 2 + grid.shape[0]))
        for i in range(counts.shape[0]):
            keep = weight[i] > 0
            rc = risk_coverage(weight[i][keep], right[i][keep])
            area = aurc_trapezoid(rc)
            out[i, 0] = area
            out[i, 1] = area - oracle_aurc(rc.accuracy)
            out[i, 2:] = 1.0 - accuracy_at_coverage(rc, grid)
        return out

    return statistic


# --------------------------------------------------------------------------- abstention
def utility_area_scores(
    correct: np.ndarray, confidence: np.ndarray, max_threshold: float
) -> np.ndarray:
    r"""Each answer's share of the area under the answer-or-abstain utility curve.

    At threshold :math:`t` an answer of confidence :math:`c \ge t` earns 1
    if right and :math:`-t/(1 - t)` if wrong.  Integrated over
    :math:`t \in [0, T]`, with :math:`m = \min(c, T)`: :math:`m` if right,
    :math:`m + \ln(1 - m)` if wrong (``-inf`` for a wrong answer of
    confidence 1 when :math:`T = 1`).
    """
    m = np.minimum(confidence, max_threshold)
    with np.errstate(divide="ignore"):
        penalty = np.log1p(-m)
    # chosen, not multiplied: a right answer of confidence 1 gave 0 * -inf = NaN
    return np.where(correct != 0, m, m + penalty)


def simpleqa_aggregate(
    is_correct: float, is_incorrect: float
) -> tuple[float, float, float]:
    """simple-evals' SimpleQA aggregation of the shares graded correct and incorrect.

    Returns ``(is_given_attempted, accuracy_given_attempted, f1)`` in the
    order of operations of ``simpleqa_eval.py`` (0 where undefined).
    """
    attempted = is_correct + is_incorrect
    acc = is_correct / attempted if attempted > 0 else 0.0
    f1 = 2 * acc * is_correct / (acc + is_correct) if (acc + is_correct) > 0 else 0.0
    return attempted, acc, f1
