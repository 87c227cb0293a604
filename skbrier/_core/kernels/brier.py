"""The Brier family's one kernel: Brier score, Brier Index, skill score and
the reference scores (climatology, a constant rate, reference forecasts), on
validated arrays (no validation here).

:func:`brier_reduce` reduces a chunk of rows of any array namespace to its
:class:`BrierSums` (a few host floats, merged with ``+``) and
:func:`brier_finish`, :func:`reference_finish` and :func:`skill_finish` turn
them into the numbers.  The numpy path reduces its arrays in one chunk, the
Array API adapter reduces them in their namespace on their device, and the
mergeable states (:class:`skbrier.states.BrierState`,
:class:`~skbrier.states.MulticlassBrierState`) reduce each chunk of rows per
label (the hypotheses form) and finish once the labels are known.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..array_api import is_numpy
from ..validation import (
    _only_zeros_and_ones,
    _probabilities_shown_valid,
    scale_free_exponent,
    scale_free_weights,
)
from . import add_fields


def weighted_mean(x: np.ndarray, w: np.ndarray | None) -> float:
    """Mean of ``x`` with optional weights ``w`` (``sum(w*x)/sum(w)``), of
    :func:`~skbrier._core.validation.scale_free_weights` (weights of 5e-324
    rounded every product)."""
    if w is None:
        return float(np.mean(x))
    w = scale_free_weights(w)
    return float(np.dot(w, x) / w.sum())


def binary_squared_errors(y01: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Per-sample squared error ``(p - y)**2`` of binary forecasts."""
    d = p - y01
    d *= d
    return d


# Leaf length of the chunked binary kernel: the scratch buffers of this length
# and the leaf of the inputs stay in the L2 cache, so the elementwise passes of
# a leaf cost little more than one pass over memory, and no array of length n
# is allocated.
_LEAF = 1 << 15

# Bit pattern of the float64 1.0: a 0/1 int64 times this, viewed as float64, is
# exactly 0.0/1.0 -- a plain integer multiply, several times faster than
# numpy's int-to-float cast.
_ONE_BITS = np.int64(0x3FF0000000000000)


def _as_float01_into(buf, y01):
    """0/1 labels ``y01`` (any numeric dtype) in the dtype of ``buf`` (used if a cast is needed)."""
    if y01.dtype == buf.dtype:
        return y01
    if buf.dtype == np.float64 and (y01.dtype == np.int64 or y01.dtype == np.uint64):
        np.multiply(y01.view(np.int64), _ONE_BITS, out=buf.view(np.int64))
    else:
        np.copyto(buf, y01, casting="unsafe")
    return buf


def _two_column_errors_into(out, tmp, ybuf, y01, p):
    """``out = ((1 - y) - (1 - p))**2 + (y - p)**2`` elementwise, in the dtype of ``p``.

    ``tmp`` and ``ybuf`` are scratch; ``y01`` holds only 0 and 1 (any numeric
    dtype).  Each operation is the one scikit-learn performs on the stacked
    ``[1 - p, p]``, in the same order and precision, so the floats are
    identical.
    """
    y = _as_float01_into(ybuf, y01)
    np.subtract(1.0, p, out=tmp)
    np.subtract(1.0, y, out=out)
    np.subtract(out, tmp, out=out)
    np.multiply(out, out, out=out)
    np.subtract(y, p, out=tmp)
    np.multiply(tmp, tmp, out=tmp)
    np.add(out, tmp, out=out)
    return out


class _OutsideDomain(Exception):
    """A leaf of the guarded kernel could not be shown to be in the domain."""


def _leaf_in_domain(y01, p, tmp) -> bool:
    """Cheap proof that a leaf holds 0/1 labels and probabilities in [+0, 1].

    The fast checks of :mod:`skbrier._core.validation`, run on the leaf while it
    is in cache; ``tmp`` (the leaf's scratch) serves float labels when it is
    float64 (float labels with float32 probabilities are not shown here).
    """
    if not _probabilities_shown_valid(p):
        return False
    if y01.dtype.kind == "f" and tmp.dtype != np.float64:
        return False
    return _only_zeros_and_ones(y01, tmp)


def _pairwise_sum(y01, p, w, start, n, out, tmp, ybuf, guard=False):
    # numpy's add.reduce of a contiguous float array is a pairwise sum that
    # splits n into n2 = n // 2 - (n // 2) % 8 and n - n2 until the pieces are
    # small; following the same splits down to cache-sized leaves, reducing
    # each leaf with add.reduce and adding the partial sums in the same dtype
    # gives the very same float as reducing the whole array, without ever
    # materialising it.
    if n <= _LEAF:
        if guard and not _leaf_in_domain(
            y01[start : start + n], p[start : start + n], tmp[:n]
        ):
            raise _OutsideDomain
        o = _two_column_errors_into(
            out[:n], tmp[:n], ybuf[:n], y01[start : start + n], p[start : start + n]
        )
        if w is not None:
            np.multiply(o, w[start : start + n], out=o)
        return np.add.reduce(o)
    n2 = n // 2
    n2 -= n2 % 8
    left = _pairwise_sum(y01, p, w, start, n2, out, tmp, ybuf, guard)
    return left + _pairwise_sum(y01, p, w, start + n2, n - n2, out, tmp, ybuf, guard)


def _buffers(n: int, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m = min(n, _LEAF)
    return np.empty(m, dtype), np.empty(m, dtype), np.empty(m, dtype)


def binary_brier_guarded(y01: np.ndarray, p: np.ndarray) -> BrierSums | None:
    """:func:`brier_reduce` of unweighted 1-D numpy input, or None unless each
    leaf is in the domain.

    The one-pass fast path of the public functions: instead of a validation
    pass over memory before the kernel, each cache-sized leaf is checked
    (two integer reductions) while it is in cache, just before it is scored.
    None means "not shown to be 0/1 labels and probabilities in [+0, 1]" --
    the caller then validates in full (and raises or scores).  ``y01`` is a
    1-D numeric array, ``p`` a 1-D float64 or float32 array of the same
    length; float32 is scored in float32, as scikit-learn does.
    """
    n = p.shape[0]
    try:
        total = _pairwise_sum(y01, p, None, 0, n, *_buffers(n, p.dtype), guard=True)
    except _OutsideDomain:
        return None
    return BrierSums(float(n), total, exact32=p.dtype == np.float32)


def multiclass_squared_errors(codes: np.ndarray, proba: np.ndarray) -> np.ndarray:
    """Per-sample ``sum_k (p_ik - 1[y_i = k])^2`` for integer class codes.

    Squares the same differences and reduces the rows with the same
    ``np.sum(axis=1)`` as scikit-learn, so results agree to the last bit.
    Works in cache-sized blocks of rows.
    """
    n, k = proba.shape
    out = np.empty(n, dtype=np.float64)
    rows = max(1, (1 << 15) // k)
    buf = np.empty((min(rows, n), k))
    flat_row_start = np.arange(min(rows, n)) * k
    for i in range(0, n, rows):
        j = min(i + rows, n)
        m = j - i
        pc = proba[i:j]
        d = buf[:m]
        np.multiply(pc, pc, out=d)  # (0 - p)^2 for the other classes
        idx = flat_row_start[:m] + codes[i:j]
        q = pc.reshape(-1)[idx] - 1.0
        d.reshape(-1)[idx] = q * q  # (1 - p)^2 for the observed class
        np.sum(d, axis=1, out=out[i:j])
    return out


# ----------------------------------------------------------------- the one kernel
@dataclasses.dataclass
class BrierSums:
    r"""Sufficient statistics of the Brier family for a chunk of rows (merged with ``+``).

    Attributes
    ----------
    weight : float
        :math:`W = \sum_i w_i` (the number of rows without weights).
    loss : float or ndarray
        :math:`\sum_i w_i \sum_k (p_{ik} - y_{ik})^2`, summed over the
        columns, 1-D binary forecasts counting as the two columns
        :math:`(1 - p, p)` (so :math:`2 (p - y)^2`): the unhalved scale of
        scikit-learn's sum.  In the *hypotheses* form (a reduction of rows
        whose outcome is not known yet: the label-keyed states) an array whose
        entry ``c`` is the loss if every row had the outcome ``c``
        (:meth:`given` picks one).
    class_weight : ndarray or None
        :math:`W_c`, the weight of each class (two for 1-D binary input); None
        when not asked for.
    reference_loss : float, ndarray or None
        ``loss`` of reference forecasts, when given.
    n_columns : int
        1 for 1-D binary forecasts, else the number of columns.
    exact32 : bool
        The loss was summed in float32 without weights: its mean is rounded
        to float32 (scikit-learn's float32 score, bit for bit).
    multilabel : bool
        The rows are multilabel indicators (each column its own binary
        outcome): ``class_weight`` holds the weight of the rows where each
        label is 1, out of :math:`W`.
    """

    weight: float
    loss: Any
    class_weight: np.ndarray | None = None
    reference_loss: Any = None
    n_columns: int = 1
    exact32: bool = False
    multilabel: bool = False

    def __add__(self, other: BrierSums) -> BrierSums:
        exact32 = self.exact32 and other.exact32
        return add_fields(
            self,
            other,
            n_columns=self.n_columns,
            exact32=exact32,
            multilabel=self.multilabel,
        )

    def given(self, outcome: int) -> BrierSums:
        """The sums of the hypotheses form when every row has ``outcome`` (0/1,
        or the column of the class)."""
        cw = np.zeros(max(self.n_columns, 2))
        cw[outcome] = self.weight
        ref = None if self.reference_loss is None else float(self.reference_loss[outcome])
        return BrierSums(self.weight, float(self.loss[outcome]), cw, ref, self.n_columns)


def brier_reduce(
    xp: Any,
    y: Any,
    proba: Any,
    w: Any = None,
    *,
    reference: Any = None,
    class_weight: bool = False,
) -> BrierSums:
    """Reduce a chunk of validated rows to its :class:`BrierSums` (host floats).

    Parameters
    ----------
    xp : namespace
        The array namespace of the inputs (``numpy`` for host arrays).
    y : array or None
        0/1 outcomes of 1-D ``proba``, the integer class code (column) of
        each row of 2-D ``proba``, or a 0/1 multilabel indicator matrix shaped
        like ``proba``; None for the hypotheses form (every outcome at once:
        the states, whose labels are resolved at the end).
    proba : array of shape (n,) or (n, K)
        Probabilities.
    w : array of shape (n,) or None
        Non-negative weights.
    reference : array shaped like ``proba`` or None
        Reference forecasts (their loss goes to ``reference_loss``).
    class_weight : bool, default=False
        Also sum the weight of each class (climatology, a constant reference).

    Numpy input takes the fast branches: 1-D binary input is summed in
    cache-sized leaves as scikit-learn's two-column expression (the same
    float, bit for bit) and multiclass rows as its row sums; other
    namespaces compute the same sums with their own operations, on their
    device, and only the sums come to the host.
    """
    if y is None:
        return _hypotheses(xp, proba, w, reference)
    sums = reduce_losses(xp, y, proba, w, reference, class_weight, _numpy_loss, _xp_loss)
    sums.exact32 = is_numpy(xp) and w is None and proba.dtype == np.float32
    return sums


def reduce_losses(
    xp: Any,
    y: Any,
    proba: Any,
    w: Any,
    reference: Any,
    class_weight: bool,
    numpy_loss: Callable[[Any, Any, Any], Any],
    xp_loss: Callable[[Any, Any, Any, Any], Any],
) -> BrierSums:
    """:class:`BrierSums` of a chunk of rows whose outcomes ``y`` are known.

    The (weighted, summed) loss of ``proba`` and of ``reference`` is
    ``numpy_loss(y, p, w)`` on numpy input and ``xp_loss(xp, y, p, w)`` in
    other namespaces: the one reduction of the Brier kernel and the ranked
    probability kernel, which differ only in their losses.  ``n_columns`` is
    1 for 1-D ``proba``; 2-D ``y`` is a multilabel indicator.
    """
    if is_numpy(xp):
        loss = numpy_loss(y, proba, w)
        ref = None if reference is None else numpy_loss(y, reference, w)
        weight = float(proba.shape[0]) if w is None else float(np.sum(w))
    else:
        loss = xp_loss(xp, y, proba, w)
        ref = None if reference is None else xp_loss(xp, y, reference, w)
        weight = float(proba.shape[0]) if w is None else float(xp.sum(w))
    cw = class_weights(xp, y, proba, w) if class_weight else None
    k = 1 if proba.ndim == 1 else int(proba.shape[1])
    return BrierSums(weight, loss, cw, ref, k, multilabel=y.ndim == 2)


def _numpy_loss(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> Any:
    if p.ndim == 1:
        return _pairwise_sum(y, p, w, 0, p.shape[0], *_buffers(p.shape[0], p.dtype))
    if y.ndim == 2:
        s = multilabel_squared_errors(y, p)
    else:
        s = multiclass_squared_errors(y, p)
    return np.sum(s) if w is None else np.sum(s * w)


def multilabel_squared_errors(y: np.ndarray, proba: np.ndarray) -> np.ndarray:
    """Per-sample ``sum_l (p_il - y_il)^2`` of a multilabel indicator ``y``.

    The row sums of the squared differences with ``np.sum(axis=1)``, as
    scikit-learn, in cache-sized blocks of rows (no array of the size of
    ``proba`` is made).
    """
    n, k = proba.shape
    out = np.empty(n, dtype=np.float64)
    rows = max(1, (1 << 15) // k)
    buf = np.empty((min(rows, n), k))
    for i in range(0, n, rows):
        j = min(i + rows, n)
        d = buf[: j - i]
        np.subtract(y[i:j], proba[i:j], out=d)
        np.multiply(d, d, out=d)
        np.sum(d, axis=1, out=out[i:j])
    return out


def _xp_onehot(xp: Any, codes: Any, k: int, dtype: Any) -> Any:
    cols = xp.arange(k, device=codes.device)
    return xp.astype(codes[:, None] == cols[None, :], dtype)


def _xp_loss(xp: Any, y: Any, p: Any, w: Any) -> float:
    if p.ndim == 1:
        d = p - y
        sq = d * d
        # the two columns (1 - p, p): twice the squared error (doubled on the host)
        return 2.0 * float(xp.sum(sq if w is None else w * sq))
    target = y if y.ndim == 2 else _xp_onehot(xp, y, int(p.shape[1]), p.dtype)
    d = p - target
    per_row = xp.sum(d * d, axis=1)
    return float(xp.sum(per_row if w is None else w * per_row))


def class_weights(xp: Any, y: Any, p: Any, w: Any) -> np.ndarray:
    """Host array of the weight of each class (two for 1-D binary input): the
    ``class_weight`` of :func:`brier_reduce`.  Each class's total sums its own
    rows, so a class without positive weight has exactly 0."""
    if is_numpy(xp):
        if p.ndim == 1:
            return np.array(class_weight_totals(y, w))
        if y.ndim == 2:  # multilabel: the weight of the rows where each label is 1
            return y.sum(axis=0) if w is None else w @ y
        return np.bincount(y, weights=w, minlength=p.shape[1]).astype(np.float64)
    from ..array_api import to_numpy, wide_float

    dt = wide_float(xp, p.device)
    if p.ndim == 1:
        yy = xp.astype(y, dt)
        if w is None:
            pos = float(xp.sum(yy))
            return np.array([float(p.shape[0]) - pos, pos])
        ww = xp.astype(w, dt)
        return np.array([float(xp.sum(ww * (1 - yy))), float(xp.sum(ww * yy))])
    oh = _xp_onehot(xp, y, int(p.shape[1]), dt)
    if w is not None:
        oh = oh * xp.astype(w, dt)[:, None]
    return np.asarray(to_numpy(xp.sum(oh, axis=0)), dtype=np.float64)


def _squares_sums(xp: Any, w: Any, x: Any) -> np.ndarray:
    """The (``w``-weighted) sums of ``x * x`` over the rows, as 1-D host float64."""
    from ..array_api import to_numpy

    x = x * x
    s = xp.sum(x, axis=0) if w is None else xp.matmul(w, x)
    return np.atleast_1d(np.asarray(to_numpy(s), dtype=np.float64))


def _hypotheses(xp: Any, p: Any, w: Any, reference: Any) -> BrierSums:
    r"""The hypotheses form: with :math:`A_k = \sum w p_k^2` and
    :math:`B_k = \sum w (1 - p_k)^2`, the loss of outcome ``c`` is
    :math:`\sum_{k \ne c} A_k + B_c` (1-D: :math:`2 A`, :math:`2 B`), a sum of
    non-negative terms (no cancellation)."""

    def losses(q: Any) -> np.ndarray:
        b = 1.0 - q
        sa, sb = _squares_sums(xp, w, q), _squares_sums(xp, w, b)
        if q.ndim == 1:
            return 2.0 * np.concatenate([sa, sb])
        before = np.concatenate([[0.0], np.cumsum(sa)[:-1]])
        after = np.concatenate([np.cumsum(sa[::-1])[::-1][1:], [0.0]])
        return before + after + sb

    k = 1 if p.ndim == 1 else int(p.shape[1])
    weight = float(p.shape[0]) if w is None else float(xp.sum(w))
    ref = None if reference is None else losses(reference)
    return BrierSums(weight, losses(p), None, ref, k)


def _mean(s: BrierSums, loss: Any) -> float:
    """``loss / W`` (rounded to float32 as scikit-learn for float32 input)."""
    m = np.float64(loss) / np.float64(s.weight)
    return float(np.float32(m)) if s.exact32 else float(m)


def _halves(s: BrierSums, scale_by_half: Any) -> bool:
    if scale_by_half == "auto":
        return s.n_columns < 3
    return bool(scale_by_half)


def brier_finish(s: BrierSums, scale_by_half: Any = "auto") -> float:
    """The Brier score of :class:`BrierSums`: halved (the [0, 1] scale) for
    1-D and two-column input with ``"auto"``, as scikit-learn."""
    bs2 = _mean(s, s.loss)
    return bs2 * 0.5 if _halves(s, scale_by_half) else bs2


def reference_finish(s: BrierSums, rate: float | None = None) -> float:
    r"""The reference's Brier score on the unhalved scale of ``s.loss / W``.

    Reference forecasts (``s.reference_loss``); else climatology (``rate``
    None: :math:`\sum_c \bar o_c (1 - \bar o_c)`, for 1-D input
    :math:`2 \bar o (1 - \bar o)`) or the constant binary forecast ``rate``
    (:math:`2 (\bar o (1 - r)^2 + (1 - \bar o) r^2)`), from the class
    weights.  Exactly 0 when a single class has positive weight.
    """
    if s.reference_loss is not None:
        return _mean(s, s.reference_loss)
    assert s.class_weight is not None
    if s.multilabel:  # each label its own binary outcome: sum_l o_l (1 - o_l)
        freq = np.minimum(s.class_weight / s.weight, 1.0)
        return float(np.sum(freq * (1.0 - freq)))
    freq = s.class_weight / s.class_weight.sum()
    if rate is None:
        if s.n_columns == 1:
            return float(2.0 * (freq[1] * freq[0]))
        return float(np.sum(freq * (1.0 - freq)))
    q, o = float(freq[0]), float(freq[1])
    return 2.0 * (o * (1.0 - rate) ** 2 + q * rate * rate)


def skill_finish(s: BrierSums, rate: float | None = None) -> tuple[float, float]:
    """``(skill score, reference score)`` of :class:`BrierSums` (the skill NaN
    when the reference scores 0; the caller warns)."""
    bs_ref = reference_finish(s, rate)
    return skill_score(_mean(s, s.loss), bs_ref), bs_ref


def skill_reduce(xp: Any, y: Any, proba: Any, w: Any, ref: Any) -> tuple[float, float]:
    """:func:`skill_finish` of a chunk of rows against ``ref``: a checked
    reference (a float rate, an array of reference forecasts) or None
    (climatology)."""
    array = ref is not None and not isinstance(ref, float)
    sums = brier_reduce(
        xp, y, proba, w, reference=ref if array else None, class_weight=not array
    )
    return skill_finish(sums, ref if isinstance(ref, float) else None)


def native_precision_brier(fc, half: bool) -> float:
    """Brier score of float32/float16 input computed in that precision.

    scikit-learn keeps such probabilities in their dtype, so to give its
    float this repeats its expression literally: the one-hot targets minus
    the stacked probabilities, squared, summed over the columns and averaged
    by ``np.average`` (numpy combines the dtypes of the probabilities and of
    the weights as given).  ``fc.native_dtype`` is ``(dtype, weight_dtype)``.
    Returns nan when a sum overflows in that precision.
    """
    dtype, weight_dtype = fc.native_dtype
    p = fc.proba.astype(dtype)  # float64 -> float32/16 round trip is exact
    n = p.shape[0]
    if fc.binary_1d:
        pos = fc.y != 0
        target = np.stack((~pos, pos), axis=1).astype(dtype)
        p = np.stack((1 - p, p), axis=1)
    elif fc.y.ndim == 2:  # a multilabel indicator
        target = fc.y.astype(dtype)
    else:
        target = np.zeros(p.shape, dtype=dtype)
        target[np.arange(n), fc.y] = 1
    w = fc.sample_weight
    if w is not None:
        wd = np.result_type(dtype, weight_dtype)
        # weights far from 1 (1e-44 or 1e30 in float32) shifted by a power of
        # two (exact): their products keep their digits, no sum overflows
        wc = w.astype(wd)
        e = scale_free_exponent(wc, wd)
        w = wc if e == 0 else np.ldexp(w, e).astype(wd)
    with np.errstate(over="ignore", invalid="ignore"):
        bs = np.asarray(np.average(np.sum((target - p) ** 2, axis=1), weights=w))
        if w is not None and not np.isfinite(w.sum()):
            # float16 weights can sum to inf (scikit-learn then returns 0 or
            # nan); the caller computes in float64 instead
            return float("nan")
    if half:
        bs *= 0.5
    return float(bs)


def _warn_native_overflow(fc) -> None:
    warnings.warn(
        f"The Brier score overflows in {np.dtype(fc.native_dtype[0]).name} (the "
        "precision scikit-learn keeps for such probabilities, where the weights "
        "are summed); it is computed in float64 instead.",
        RuntimeWarning,
        stacklevel=4,
    )


def forecast_brier(fc, *, scale_by_half="auto") -> float:
    """Brier score of a validated :class:`skbrier._core.validation.Forecast`
    (:func:`brier_finish` of :func:`brier_reduce`).

    ``scale_by_half="auto"`` follows scikit-learn: 1-D and two-column input are
    on the [0, 1] scale, three or more columns on the [0, 2] scale.  float32
    and float16 input that scikit-learn keeps in its precision is scored in
    that precision (:func:`native_precision_brier`).
    """
    if fc.native_dtype is not None:
        if scale_by_half == "auto":
            half = fc.binary_1d or fc.proba.shape[1] < 3
        else:
            half = bool(scale_by_half)
        bs = native_precision_brier(fc, half)
        if np.isfinite(bs):
            return bs
        _warn_native_overflow(fc)
    s = brier_reduce(np, fc.y, fc.proba, fc.sample_weight)
    return brier_finish(s, scale_by_half)


def unit_scale_brier(fc) -> float:
    """Brier score on the [0, 1] scale (binary BS; multiclass summed BS / 2)."""
    return forecast_brier(fc, scale_by_half=True)


def multiclass_brier(
    codes: np.ndarray, proba: np.ndarray, w: np.ndarray | None = None
) -> float:
    """Multiclass Brier score on the [0, 2] scale (mean over samples of the summed score)."""
    return brier_finish(brier_reduce(np, codes, proba, w), scale_by_half=False)


def brier_index_from_score(bs01: float) -> float:
    """Brier Index ``100 (1 - sqrt(BS))`` from a Brier score on the [0, 1] scale."""
    return float(100.0 * (1.0 - np.sqrt(bs01)))


def check_skill_defined(bs0: float, climatology: bool) -> None:
    """Raise the ValueError of a reference Brier score ``bs0`` of 0 (the skill
    score and its interval undefined); ``climatology``: the reference is the
    sample base rate."""
    if not bs0 > 0.0:
        if climatology:
            raise ValueError(
                "y_true holds a single class (among the rows with positive weight): the "
                "climatological reference Brier score is 0, so the skill score and its "
                "interval are undefined."
            )
        raise ValueError(
            "reference: the reference forecast has a Brier score of 0, so the skill "
            "score and its interval are undefined."
        )


#: per-sample losses (or loss differentials) whose spread is below this fraction
#: of the losses' size differ by rounding only (e.g. ``(0.9 - 1)**2`` and
#: ``(0.1 - 0)**2``): they are constant, not a variance of ~1e-37
LOSS_SPREAD_RTOL = 1e-12


def losses_vary(lo: float, hi: float, size: float | None = None) -> bool:
    """Whether values from ``lo`` to ``hi`` vary by more than rounding, relative
    to ``size`` (by default the larger of ``|lo|`` and ``|hi|``)."""
    if size is None:
        size = max(abs(float(lo)), abs(float(hi)))
    return float(hi) - float(lo) > LOSS_SPREAD_RTOL * size


def check_losses_vary(lo: float, hi: float) -> None:
    """Raise the ValueError of constant per-sample Brier losses (no interval):
    the smallest ``lo`` and largest ``hi`` loss are equal up to rounding."""
    if not losses_vary(lo, hi):
        raise ValueError(
            "y_proba: the per-sample Brier losses are constant (e.g. a perfect "
            "forecast): their variance is 0 and no confidence interval can be estimated."
        )


def check_differential_varies(lo: float, hi: float, size: float) -> None:
    """Raise the ValueError of a constant loss differential (no test possible):
    the differentials from ``lo`` to ``hi`` vary by no more than rounding of
    losses as large as ``size``."""
    if not losses_vary(lo, hi, size):
        raise ValueError(
            "y_proba_b: the per-sample loss differential of y_proba_a and y_proba_b is "
            "constant (e.g. identical forecasts): its variance is 0 and no test is "
            "possible."
        )


def comparison_fields(
    bs_a: float, bs_b: float, diff: float, index_scale: float = 1.0, **fields
) -> dict:
    """The fields every Brier comparison result shares: the two scores, their
    difference, the two Brier Indexes (of ``index_scale`` times the scores) and
    their difference, and ``fields`` (n, total weight, options, names)."""
    common = {
        "brier_score_a": bs_a,
        "brier_score_b": bs_b,
        "difference": diff,
        **fields,
        "brier_index_a": brier_index_from_score(index_scale * bs_a),
        "brier_index_b": brier_index_from_score(index_scale * bs_b),
    }
    common["brier_index_difference"] = common["brier_index_a"] - common["brier_index_b"]
    return common


def class_weight_totals(y01: np.ndarray, w: np.ndarray | None) -> tuple[float, float]:
    """Total weight ``(W0, W1)`` of the outcomes 0 and 1 of exact 0/1 labels.

    Each total sums its own class only, so a class without positive weight
    has a total of exactly 0 (never a rounding residue of ``W - W1``).
    """
    pos = np.asarray(y01) != 0
    if w is None:
        n1 = int(np.count_nonzero(pos))
        return float(pos.shape[0] - n1), float(n1)
    return float(w[~pos].sum()), float(w[pos].sum())


def base_rate(y01: np.ndarray, w: np.ndarray | None) -> tuple[float, float]:
    """``(1 - o, o)``: the (weighted) frequencies of the outcomes 0 and 1.

    Each is its class total over the grand total, so a single class with
    positive weight gives exactly ``(0, 1)`` or ``(1, 0)``.
    """
    w0, w1 = class_weight_totals(y01, w)
    total = w0 + w1
    return w0 / total, w1 / total


def climatology_brier(fc) -> float:
    """Brier score of the constant forecast equal to the (weighted) class
    frequencies of the outcomes (climatology; :func:`reference_finish`).

    1-D binary input: ``o(1 - o)`` on the [0, 1] scale.  K columns (K >= 2):
    ``sum_k o_k (1 - o_k)`` on the unhalved [0, 2] scale, the scale of
    :func:`multiclass_brier`.  Exactly 0 when a single class has positive
    weight (the frequencies are exactly 0 and 1 then).
    """
    k = 1 if fc.binary_1d else fc.proba.shape[1]
    cw = class_weights(np, fc.y, fc.proba, fc.sample_weight)
    bs0 = reference_finish(BrierSums(float(cw.sum()), 0.0, cw, None, k))
    return bs0 / 2.0 if fc.binary_1d else bs0


def skill_score(bs: float, bs_ref: float) -> float:
    """Skill score ``1 - BS / BS_ref``: the one home of the formula.

    NaN when the reference score is 0 (a single class: the skill is
    undefined); callers decide whether to warn.
    """
    if bs_ref == 0.0:
        return float("nan")
    with np.errstate(over="ignore"):
        return float(1.0 - np.float64(bs) / np.float64(bs_ref))


#: the score whose skill each skill score measures (in the warning)
_SKILL_OF = {
    "brier_skill_score": "Brier score",
    "ranked_probability_skill_score": "ranked probability score",
}


def warn_undefined_skill(statistic: str = "brier_skill_score") -> None:
    """The warning of a skill score whose reference scores 0 (the result is nan).

    ``statistic`` names the skill score (a key of ``_SKILL_OF``).
    ``stacklevel=4`` points at the user's call: this function, the body or
    adapter that calls it, the backend dispatch wrapper, the caller.
    """
    from sklearn.exceptions import UndefinedMetricWarning

    warnings.warn(
        f"{statistic} is undefined (nan) because the reference forecast has a "
        f"{_SKILL_OF[statistic]} of 0 (for climatology: only one class of y_true "
        "has positive weight).",
        UndefinedMetricWarning,
        stacklevel=4,
    )
