"""The sufficient statistics of each statistic, written once for every engine.

A statistic's kernel defines a *reduce* (rows to sums) and a *finish* (sums
to the number).  An engine cannot run the numpy reduce where it is fast, so
the sums the reduce defines are written here once as engine-neutral
aggregates (:class:`Term`, :class:`Agg`): sums, minima and maxima of row
expressions, per group and per label of ``y`` (the *hypotheses form* the
mergeable states keep, :mod:`skbrier.states`), and optionally per bin.  Each
engine renders them in its own language (Polars expressions, SQL) and hands
the rows back; :mod:`._common` turns them into the states (or the kernel's
sums) and finishes them with the kernel's finish functions.

The logical columns of a row are ``y`` (the outcome label), ``p`` (the
probability), ``w`` (the weight; the literal 1 without weights) and the
extra probability columns of a plan (``r`` the reference forecast, ``m1``,
``m2``, ... further models).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "MAX_DOUBLE",
    "Agg",
    "Term",
    "binary_valid",
    "bin_term",
    "brier_given_aggs",
    "brier_hypotheses_aggs",
    "col",
    "hard_aggs",
    "lit",
    "moment_aggs",
    "moment_columns",
    "threshold_given_aggs",
    "threshold_bucket",
    "totals",
    "search",
    "binned_hypotheses_aggs",
    "binned_given_aggs",
    "valid_rows",
    "when",
]

#: the largest finite double: ``w <= MAX_DOUBLE`` refuses +inf and NaN in SQL
#: engines that order NaN above every number, and NaN compares false elsewhere
MAX_DOUBLE = float(np.finfo(np.float64).max)


def _operator(op: str, *, reflected: bool = False) -> Callable[[Term, Any], Term]:
    """The method ``self <op> other`` of :class:`Term` (``other <op> self``
    when ``reflected``); a number ``other`` becomes a literal."""

    def method(self: Term, other: Any) -> Term:
        o = _term(other)
        return Term(op, o, self) if reflected else Term(op, self, o)

    return method


def _function(op: str) -> Callable[[Term], Term]:
    """The method ``op(self)`` of :class:`Term` (``not_null``, ``ceil``, ``floor``)."""

    def method(self: Term) -> Term:
        return Term(op, self)

    return method


class Term:
    """A row expression: a column, a literal, arithmetic, a comparison, a
    conditional, ``ceil``/``floor``, or the group's weighted mean of a term
    (``gmean``, the first pass of the two-pass centred moments).

    Build with :func:`col`, :func:`lit`, :func:`when` and the operators
    ``+ - * /`` and the methods :meth:`ge`, :meth:`gt`, :meth:`le`,
    :meth:`lt`, :meth:`eq`, ``&`` and ``|``.  Products with the literal 1
    are simplified away, so an unweighted plan (``w = lit(1.0)``) renders
    the same expressions a hand-written query would.
    """

    __slots__ = ("args", "op")

    def __init__(self, op: str, *args: Any) -> None:
        self.op = op
        self.args = args

    # -- arithmetic ---------------------------------------------------------
    __add__ = _operator("+")
    __radd__ = _operator("+", reflected=True)
    __sub__ = _operator("-")
    __rsub__ = _operator("-", reflected=True)
    __truediv__ = _operator("/")

    def __mul__(self, other: Any) -> Term:
        o = _term(other)
        if _is_one(o):
            return self
        if _is_one(self):
            return o
        return Term("*", self, o)

    def __rmul__(self, other: Any) -> Term:
        return _term(other) * self

    # -- comparisons, logic and functions -------------------------------------
    ge = _operator(">=")
    gt = _operator(">")
    le = _operator("<=")
    lt = _operator("<")
    eq = _operator("==")
    __and__ = _operator("and")
    __or__ = _operator("or")
    not_null = _function("not_null")
    ceil = _function("ceil")
    floor = _function("floor")

    def __repr__(self) -> str:  # for debugging and test messages
        return f"{self.op}{self.args!r}"


def col(name: str) -> Term:
    """The logical column ``name`` (``"y"``, ``"p"``, ``"w"``, ``"r"``, ``"m1"``...)."""
    return Term("col", name)


def lit(value: float | None) -> Term:
    """A literal double (None: SQL NULL / a Polars null)."""
    return Term("lit", None if value is None else float(value))


def when(cond: Term, then: Any, otherwise: Any = 0.0) -> Term:
    """``then`` where ``cond`` holds, else ``otherwise`` (null conditions: else)."""
    return Term("when", cond, _term(then), _term(otherwise))


def search(term: Term, values: np.ndarray, side: str) -> Term:
    """The number of sorted ``values`` below ``term`` (``side="left"``) or at
    or below it (``"right"``): ``numpy.searchsorted(values, term, side)``."""
    return Term("search", term, tuple(float(v) for v in values), side)


def gmean(term: Term, w: Term) -> Term:
    """The weighted mean of ``term`` over the rows of the aggregation group."""
    return Term("gmean", term, w)


def _term(x: Any) -> Term:
    return x if isinstance(x, Term) else lit(x)


def _is_one(t: Term) -> bool:
    return t.op == "lit" and t.args[0] == 1.0


@dataclasses.dataclass(frozen=True)
class Agg:
    """One aggregate of a group: ``kind`` ``"sum"``, ``"min"``, ``"max"``,
    ``"count"`` (the rows; ``term`` None) or ``"all"`` (1 if ``term`` holds on
    every row, null counting as false, else 0), output as column ``name``."""

    name: str
    kind: str
    term: Term | None = None


# --------------------------------------------------------------- validity
def valid_rows(
    p: Term, w: Term, probabilities: Sequence[Term] = (), weighted: bool = False
) -> Term:
    """Rows the in-memory checks accept: every probability in [0, 1] (NaN and
    null fail the comparisons), a finite non-negative weight.  The labels are
    checked by the states (:meth:`skbrier.states.BinaryState.encoded`)."""
    ok = p.ge(0.0) & p.le(1.0)
    for q in probabilities:
        ok = ok & q.ge(0.0) & q.le(1.0)
    if weighted:
        ok = ok & w.ge(0.0) & w.le(MAX_DOUBLE)
    return ok


def binary_valid(ok: Term, y: Term) -> Term:
    """``ok`` and a 0/1 outcome ``y`` (the *given* plans: labels already 0/1)."""
    return ok & (y.eq(0.0) | y.eq(1.0))


def totals(w: Term, ok: Term, weighted: bool) -> list[Agg]:
    """The rows, the weight and whether every row is valid (``ok``)."""
    return [
        Agg("rows", "count"),
        Agg("w", "sum", w) if weighted else Agg("w", "count"),
        Agg("ok", "all", ok),
    ]


def hard_aggs(p: Term) -> list[Agg]:
    """Whether every forecast ``p`` of the group is exactly 0 or 1 (``hard``;
    with the rows of :func:`totals`, the in-memory
    :class:`~skbrier.exceptions.HardForecastWarning` of class predictions
    passed as probabilities)."""
    return [Agg("hard", "all", p.eq(0.0) | p.eq(1.0))]


# --------------------------------------------------------------- Brier
def brier_hypotheses_aggs(
    p: Term, w: Term, r: Term | None, ok: Term, weighted: bool
) -> list[Agg]:
    """Per label: the sums of :func:`~skbrier._core.kernels.brier.brier_reduce`'s
    hypotheses form (:math:`\\sum w p^2`, :math:`\\sum w (1 - p)^2`; the same
    of the reference ``r``)."""
    out = totals(w, ok, weighted)
    out += [Agg("wpp", "sum", w * (p * p)), Agg("wqq", "sum", w * ((1.0 - p) * (1.0 - p)))]
    if r is not None:
        out += [
            Agg("wrr", "sum", w * (r * r)),
            Agg("wss", "sum", w * ((1.0 - r) * (1.0 - r))),
        ]
    return out


def brier_given_aggs(
    y: Term,
    p: Term,
    w: Term,
    r: Term | None,
    ok: Term,
    weighted: bool,
    class_weights: bool = False,
) -> list[Agg]:
    """Per group, for 0/1 outcomes: :math:`\\sum w`, :math:`\\sum w (p - y)^2`,
    the weight of each class (``class_weights``) and the reference's
    :math:`\\sum w (r - y)^2`."""
    d = p - y
    out = totals(w, binary_valid(ok, y), weighted)
    out.append(Agg("loss", "sum", w * (d * d)))
    if class_weights:
        out += [Agg("w1", "sum", w * y), Agg("w0", "sum", w * (1.0 - y))]
    if r is not None:
        e = r - y
        out.append(Agg("rloss", "sum", w * (e * e)))
    return out


# --------------------------------------------------------------- bins
def bin_term(p: Term, edges: np.ndarray, right: bool) -> Term:
    """The bin (0 .. K-1, a double) of :func:`skbrier._core.binning.assign_bins`.

    Uniform edges ``c * (1 / K)`` (``np.linspace``'s): the same ``p K``
    estimate and one-step correction against those edges as the numpy kernel
    (:func:`skbrier._core.binning.block_binner`), so every forecast lands in
    the same bin bit for bit; other edges: the number of inner edges below
    (``right=True``) or at or below ``p``.
    """
    from .._core.binning import is_uniform

    k = edges.shape[0] - 1
    if k == 1:
        return lit(0.0)
    if not is_uniform(edges):
        return search(p, edges[1:-1], "left" if right else "right")
    kf = lit(float(k))
    step = lit(float(edges[1]))  # 1 / K: edge c is c * step, as np.linspace
    if right:
        c0 = (p * kf).ceil() - 1.0
        c1 = c0 - when(p.le(c0 * step), 1.0)
        c2 = c1 + when(p.gt((c1 + 1.0) * step), 1.0)
    else:
        c0 = (p * kf).floor()
        c1 = c0 - when(p.lt(c0 * step), 1.0)
        c2 = c1 + when(p.ge((c1 + 1.0) * step), 1.0)
    return when(c2.lt(0.0), 0.0, when(c2.gt(k - 1.0), k - 1.0, c2))


def binned_hypotheses_aggs(p: Term, w: Term, ok: Term, weighted: bool) -> list[Agg]:
    """Per label and bin: the count and :math:`\\sum w`, :math:`\\sum w p`,
    :math:`\\sum w p^2`, :math:`\\sum w^2` of
    :class:`~skbrier.metrics.decomposition.BinStatistics` (the outcome sums
    are the label's once it is known)."""
    wp = w * p
    return totals(w, ok, weighted) + [
        Agg("wp", "sum", wp),
        Agg("wpp", "sum", wp * p),
        Agg("ww", "sum", w * w) if weighted else Agg("ww", "count"),
    ]


def binned_given_aggs(
    y: Term, p: Term, w: Term, ok: Term, weighted: bool, edges: np.ndarray, right: bool
) -> list[Agg]:
    """Per group, for 0/1 outcomes: :math:`\\sum w`, :math:`\\sum w p` and
    :math:`\\sum w y` of every bin, as columns ``w_k``, ``wp_k``, ``wy_k``
    (the sums of :func:`~skbrier._core.kernels.calibration_error.calibration_finish`)."""
    b = bin_term(p, edges, right)
    out = totals(w, binary_valid(ok, y), weighted)
    for k in range(edges.shape[0] - 1):
        inside = b.eq(float(k))
        out += [
            Agg(f"w_{k}", "sum", when(inside, w)),
            Agg(f"wp_{k}", "sum", when(inside, w * p)),
            Agg(f"wy_{k}", "sum", when(inside, w * y)),
        ]
    return out


# --------------------------------------------------------------- thresholds
def threshold_bucket(q: Term, thresholds: np.ndarray) -> Term:
    """The bucket of a forecast among sorted distinct ``thresholds``: the
    number of thresholds at or below it.  Grouped by label and bucket, the
    weights of the buckets give the weight below and at or above every
    threshold by running sums (:func:`~skbrier._core.kernels.net_benefit.threshold_reduce`'s
    hypotheses form; sums of the rows' own weights, so a zero is exactly 0)."""
    return search(q, thresholds, "right")


def threshold_given_aggs(
    y: Term, p: Term, w: Term, thresholds: np.ndarray, ok: Term, weighted: bool
) -> list[Agg]:
    """Per group, for 0/1 outcomes: false negatives, true positives, true
    negatives and false positives (weights) at each threshold."""
    out = totals(w, binary_valid(ok, y), weighted)
    wy, wn = w * y, w * (1.0 - y)
    for k, t in enumerate(thresholds.tolist()):
        out += [
            Agg(f"fn_{k}", "sum", when(p.lt(t), wy)),
            Agg(f"tp_{k}", "sum", when(p.ge(t), wy)),
            Agg(f"tn_{k}", "sum", when(p.lt(t), wn)),
            Agg(f"fp_{k}", "sum", when(p.ge(t), wn)),
        ]
    return out


# --------------------------------------------------------------- moments
def moment_columns(p: Term, extra: Sequence[Term]) -> list[Term]:
    """The per-row columns of :class:`skbrier.states.MomentState`: the squared
    error of each forecast for an outcome of 0 and of 1, then the differences
    of the first forecast's and each other's."""
    sq = [p * p, (p - 1.0) * (p - 1.0)]
    for q in extra:
        sq += [q * q, (q - 1.0) * (q - 1.0)]
    for j in range(1, len(extra) + 1):
        sq += [sq[0] - sq[2 * j], sq[1] - sq[2 * j + 1]]
    return sq


def moment_aggs(h: Sequence[Term], w: Term, ok: Term, weighted: bool) -> list[Agg]:
    """Per label, over the rows of positive weight: their number ``n``, the
    weighted sums ``s_i`` (the means times ``W``), the centred cross-products
    ``m_i_j`` (two passes: the group's mean first) and the minima and maxima
    of the columns ``h``."""
    pos = w.gt(0.0)
    out = totals(w, ok, weighted)
    out.append(Agg("n", "sum", when(pos, 1.0)) if weighted else Agg("n", "count"))
    centred = [x - gmean(x, w) for x in h]
    for i, x in enumerate(h):
        out.append(Agg(f"s_{i}", "sum", w * x))
        for j in range(i, len(h)):
            out.append(Agg(f"m_{i}_{j}", "sum", w * (centred[i] * centred[j])))
        kept = when(pos, x, None) if weighted else x
        out += [Agg(f"lo_{i}", "min", kept), Agg(f"hi_{i}", "max", kept)]
    return out


def render(term: Term, leaf: Callable[[Term], Any], node: Callable[..., Any]) -> Any:
    """Fold a term bottom-up: ``leaf(term)`` for columns and literals,
    ``node(op, *rendered args)`` for the rest (``gmean`` passes its two
    terms unrendered, the engine decides how to take the group's mean;
    ``search`` its values and side as they are)."""
    if term.op in ("col", "lit"):
        return leaf(term)
    if term.op == "gmean":
        return node("gmean", *term.args)
    if term.op == "search":
        return node("search", render(term.args[0], leaf, node), *term.args[1:])
    return node(term.op, *(render(a, leaf, node) for a in term.args))
