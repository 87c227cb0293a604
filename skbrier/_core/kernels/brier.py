"""Brier score arithmetic on validated arrays (no validation here).

The public functions in :mod:`skbrier.metrics.brier` validate their input
once and call these kernels; other modules (scorers, inference,
decomposition) call them on arrays they have validated themselves.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..validation import _only_zeros_and_ones, _probabilities_shown_valid


def weighted_mean(x: np.ndarray, w: np.ndarray | None) -> float:
    """Mean of ``x`` with optional weights ``w`` (``sum(w*x)/sum(w)``)."""
    if w is None:
        return float(np.mean(x))
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


def binary_two_column_errors(y01: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Per-sample ``((1 - y) - (1 - p))**2 + (y - p)**2``, twice the squared error.

    This is, operation for operation, what scikit-learn's ``brier_score_loss``
    sums for 1-D binary input (it stacks ``[1 - p, p]`` against the one-hot
    target).  ``y01`` may be float or integer 0/1.
    """
    n = p.shape[0]
    out, tmp, ybuf = (np.empty(n, p.dtype) for _ in range(3))
    return _two_column_errors_into(out, tmp, ybuf, y01, p)


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


def _halved_mean(total, n) -> float:
    # np.mean of a 1-D array: the sum's dtype applied to sum / intp(n); then
    # scikit-learn's ``*= 0.5`` in that dtype
    return float(total.dtype.type(total / np.intp(n)) * 0.5)


def binary_brier(y01: np.ndarray, p: np.ndarray, w: np.ndarray | None = None) -> float:
    """Binary Brier score ``sum(w (p - y)^2) / sum(w)`` of 0/1 outcomes ``y01``.

    Bit for bit equal to ``sklearn.metrics.brier_score_loss`` on 1-D float64
    input (and, unweighted, float32 input), which computes ``mean(s) * 0.5``
    (or ``sum(s * w) / sum(w) * 0.5``) with ``s`` from
    :func:`binary_two_column_errors`; here in cache-sized leaves.
    """
    n = p.shape[0]
    total = _pairwise_sum(y01, p, w, 0, n, *_buffers(n, p.dtype))
    if w is None:
        return _halved_mean(total, n)
    return float(np.float64(total) / np.sum(w) * 0.5)


def binary_brier_guarded(y01: np.ndarray, p: np.ndarray) -> float | None:
    """:func:`binary_brier` of unweighted input, or None unless each leaf is in the domain.

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
    return _halved_mean(total, n)


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


def multiclass_brier(
    codes: np.ndarray, proba: np.ndarray, w: np.ndarray | None = None
) -> float:
    """Multiclass Brier score on the [0, 2] scale (mean over samples of the summed score)."""
    s = multiclass_squared_errors(codes, proba)
    if w is None:
        return float(np.mean(s))
    return float(np.sum(s * w) / np.sum(w))


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
    else:
        target = np.zeros(p.shape, dtype=dtype)
        target[np.arange(n), fc.y] = 1
    w = fc.sample_weight
    if w is not None:
        w = w.astype(np.result_type(dtype, weight_dtype))
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
    """Brier score of a validated :class:`skbrier._core.validation.Forecast`.

    ``scale_by_half="auto"`` follows scikit-learn: 1-D and two-column input are
    on the [0, 1] scale, three or more columns on the [0, 2] scale.
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
    if fc.binary_1d:
        bs = binary_brier(fc.y, fc.proba, fc.sample_weight)
        # 1-D binary input is on the [0, 1] scale; unhalved it is the
        # two-column sum (1 - y - (1 - p))^2 + (y - p)^2 = 2 (y - p)^2
        return bs if (scale_by_half == "auto" or scale_by_half) else 2.0 * bs
    bs2 = multiclass_brier(fc.y, fc.proba, fc.sample_weight)
    if scale_by_half == "auto":
        half = fc.proba.shape[1] < 3
    else:
        half = bool(scale_by_half)
    return 0.5 * bs2 if half else bs2


def unit_scale_brier(fc) -> float:
    """Brier score on the [0, 1] scale (binary BS; multiclass summed BS / 2)."""
    return forecast_brier(fc, scale_by_half=True)


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


def check_losses_vary(varies: bool) -> None:
    """Raise the ValueError of constant per-sample Brier losses (no interval)."""
    if not varies:
        raise ValueError(
            "y_proba: the per-sample Brier losses are constant (e.g. a perfect "
            "forecast): their variance is 0 and no confidence interval can be estimated."
        )


def check_differential_varies(varies: bool) -> None:
    """Raise the ValueError of a constant loss differential (no test possible)."""
    if not varies:
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
    frequencies of the outcomes (climatology).

    1-D binary input: ``o(1 - o)`` on the [0, 1] scale.  K columns (K >= 2):
    ``sum_k o_k (1 - o_k)`` on the unhalved [0, 2] scale, the scale of
    :func:`multiclass_brier`.  Exactly 0 when a single class has positive
    weight (the frequencies are exactly 0 and 1 then).
    """
    w = fc.sample_weight
    if fc.binary_1d:
        q, o = base_rate(fc.y, w)
        return float(o * q)
    k = fc.proba.shape[1]
    counts = np.bincount(fc.y, weights=w, minlength=k)
    freq = counts / counts.sum()
    return float(np.sum(freq * (1.0 - freq)))


def skill_score(bs: float, bs_ref: float) -> float:
    """Skill score ``1 - BS / BS_ref``: the one home of the formula.

    NaN when the reference score is 0 (a single class: the skill is
    undefined); callers decide whether to warn.
    """
    if bs_ref == 0.0:
        return float("nan")
    with np.errstate(over="ignore"):
        return float(1.0 - np.float64(bs) / np.float64(bs_ref))


def warn_undefined_skill() -> None:
    """The warning of a skill score whose reference scores 0 (the result is nan).

    ``stacklevel=4`` points at the user's call: this function, the body or
    adapter that calls it, the backend dispatch wrapper, the caller.
    """
    from sklearn.exceptions import UndefinedMetricWarning

    warnings.warn(
        "brier_skill_score is undefined (nan) because the reference forecast has a "
        "Brier score of 0 (for climatology: only one class of y_true has positive "
        "weight).",
        UndefinedMetricWarning,
        stacklevel=4,
    )
