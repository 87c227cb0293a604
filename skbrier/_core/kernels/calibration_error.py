"""Kernels of the calibration errors (validated arrays in, no checks).

* the one kernel of the binned errors: :func:`bin_sums` (and
  :func:`top_label_reduce` for the top-label pair, reading the matrix once)
  reduce a chunk of rows of any array namespace to its per-bin
  :class:`BinSums`, and :func:`calibration_finish` (:func:`binned_error` per
  pair: l1/l2/max, optionally debiased; the classwise aggregate) turns them
  into the number.  The numpy path, the Array API adapter and
  :class:`skbrier.states.CalibrationBinsState` call them;
* :func:`top_label` -- (confidence, correct) of a probability matrix;
* the edges and bin ids of each peer's convention (``*_edges``,
  :func:`hle_bin_ids`, :func:`discrete_bin_ids`), used by the ``binning=``
  presets;
* :func:`smooth_ece` and :func:`smooth_ece_auto` -- smECE (Błasiok & Nakkiran
  2023) computed as the authors' ``relplot`` package computes it, without its
  absolute density offset (so that it is free of the scale of the weights).

Every bin is made by :mod:`skbrier._core.binning` (the one binning rule)
unless a preset reproduces a peer whose rule differs; those differences are
listed in :mod:`skbrier.metrics.calibration_error`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..array_api import is_numpy
from ..binning import (
    assign_bins,
    check_quantile_weights,
    is_uniform,
    quantile_edges,
    uniform_edges,
    weighted_quantile,
)

__all__ = [
    "BinSums",
    "binned_error",
    "bin_sums",
    "calibration_finish",
    "classwise_columns",
    "edge_bin_ids",
    "discrete_bin_ids",
    "hle_bin_ids",
    "equal_mass_edges",
    "kumar_equal_mass_edges",
    "linspace_edges",
    "sklearn_quantile_edges",
    "smooth_ece",
    "smooth_ece_auto",
    "top_label",
    "TopLabelPass",
    "top_label_argmax",
    "top_label_reduce",
    "torch_linspace_edges",
]


# ----------------------------------------------------------------- top label
def top_label_argmax(xp: Any, proba: Any) -> tuple[Any, Any]:
    """``(confidence, column)``: the largest probability of each row and its
    column (the first one on ties, as ``argmax``), in ``proba``'s namespace."""
    am = xp.argmax(proba, axis=1)
    if is_numpy(xp):
        conf = np.take_along_axis(proba, am[:, None], axis=1)[:, 0]
    else:
        conf = xp.max(proba, axis=1)
    return conf, am


def top_label(xp: Any, proba: Any, codes: Any) -> tuple[Any, Any]:
    """Top-label ``(confidence, correct)``: the largest probability of each row
    and whether its class (the first one on ties, as ``argmax``) is the true
    class ``codes`` (float 0/1), in ``proba``'s namespace."""
    if is_numpy(xp):
        conf = np.empty(proba.shape[0])
        correct = np.empty(proba.shape[0])
        for i, j, blk_conf, am in _top_blocks(proba):
            conf[i:j] = blk_conf
            np.equal(am, codes[i:j], out=correct[i:j], casting="unsafe")
        return conf, correct
    conf, am = top_label_argmax(xp, proba)
    return conf, xp.astype(am == codes, conf.dtype)


# elements of a block of the numpy top-label kernel (512 KiB of float64), so
# that the block stays in the L2 cache while it is read for the argmax and the
# confidence: the matrix is read once
_TOP_BLOCK = 1 << 16


def _block_top(blk: np.ndarray, base: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(confidence, column)`` of a block of rows (``base``: ``arange * k``)."""
    am = blk.argmax(axis=1)
    if blk.flags.c_contiguous:
        return blk.reshape(-1)[base[: blk.shape[0]] + am], am
    return np.take_along_axis(blk, am[:, None], axis=1)[:, 0], am


def _top_blocks(proba: np.ndarray):
    """Yield ``(start, stop, confidence, column)`` of cache-sized blocks of rows."""
    n, k = proba.shape
    rows = max(1, _TOP_BLOCK // k)
    base = np.arange(min(rows, n), dtype=np.intp) * k
    for i in range(0, n, rows):
        j = min(i + rows, n)
        conf, am = _block_top(proba[i:j], base)
        yield i, j, conf, am


class TopLabelPass:
    """The top label of each row, filled block by block by a pass that already
    holds the block in cache: the one pass of the validation
    (``check_forecast(visit_rows=...)``), so that the matrix is read once.

    ``rows`` counts the rows seen: a pass that stopped early (a value the
    fast check could not show valid) leaves it short of ``n``.
    """

    def __init__(self, n: int, k: int) -> None:
        self.confidence = np.empty(n)
        self.column = np.empty(n, dtype=np.intp)
        self.rows = 0
        self._base = np.arange(max(1, _TOP_BLOCK), dtype=np.intp) * k

    def __call__(self, start: int, stop: int, block: np.ndarray) -> None:
        if self._base.shape[0] < block.shape[0]:
            self._base = np.arange(block.shape[0], dtype=np.intp) * block.shape[1]
        conf, am = _block_top(block, self._base)
        self.confidence[start:stop] = conf
        self.column[start:stop] = am
        self.rows += stop - start


def classwise_columns(proba: np.ndarray, codes: np.ndarray, k: int):
    """Yield ``(p_k, y_k)`` one-vs-rest for each class column ``k``."""
    for j in range(k):
        yield np.ascontiguousarray(proba[:, j]), (codes == j).astype(np.float64)


# ----------------------------------------------------------------- edges of the peers
def linspace_edges(n_bins: int) -> np.ndarray:
    """``np.linspace(0, 1, n_bins + 1)`` (scikit-learn, netcal): the package's
    own uniform edges (:func:`skbrier._core.binning.uniform_edges`)."""
    return uniform_edges(n_bins)


def sklearn_quantile_edges(p: np.ndarray, w: np.ndarray | None, n_bins: int) -> np.ndarray:
    """scikit-learn's equal-mass edges: ``np.percentile(p, levels * 100)`` of
    the :func:`linspace_edges` levels, with frequency weights those of the
    repeated rows.

    ``np.percentile`` divides its levels by 100 before ``np.quantile``, so the
    weighted quantiles take the levels ``levels * 100 / 100`` (which differ
    from ``levels`` in the last bit for some bins, enough to move a tied
    forecast to another bin).  The one home of the ``binning="sklearn"``
    quantile bins of the calibration error and of the reliability diagram.
    """
    levels = linspace_edges(n_bins) * 100
    if w is None:
        return np.percentile(p, levels)
    check_quantile_weights(w)
    return weighted_quantile(p, levels / 100, w)


def torch_linspace_edges(n_bins: int) -> np.ndarray:
    """The float64 values of ``torch.linspace(0, 1, n_bins + 1)``.

    torch fills the first half from the start (``i * step``) and the second
    half from the end with a fused multiply-add (``1 - (steps - 1 - i) *
    step`` rounded once), which is computed exactly here with fractions.
    """
    from fractions import Fraction

    steps = n_bins + 1
    step = 1.0 / n_bins
    half = steps // 2
    fstep = Fraction(step)
    out = np.arange(steps, dtype=np.float64) * step
    for i in range(half, steps):
        out[i] = float(1 - fstep * (steps - 1 - i))
    return out


def kumar_equal_mass_edges(p: np.ndarray, w: np.ndarray | None, n_bins: int) -> np.ndarray:
    """Equal-mass edges of Kumar et al.'s ``get_equal_bins`` (used by HELM).

    The sorted forecasts are split into ``min(n_bins, n)`` consecutive groups
    of nearly equal size (``numpy.array_split``: the first ``n % K`` groups
    have one more); each inner edge is the midpoint between the last value of
    a group and the first of the next; duplicates are removed.  With
    frequency weights the groups are those of the expanded sample (integer
    weights equal repeated rows).  Returned as ``[0, inner..., 1]`` for
    :func:`~skbrier._core.binning.assign_bins` with ``right=True`` (an edge
    value goes to the lower bin, as ``np.searchsorted(bins, p)``).
    """
    if w is None:
        xs = np.sort(p)
        n = xs.shape[0]

        def value_at(j: np.ndarray) -> np.ndarray:
            return xs[j]
    else:
        keep = w > 0
        order = np.argsort(p[keep], kind="stable")
        xs = p[keep][order]
        cw = np.cumsum(w[keep][order])
        n = int(round(float(cw[-1])))

        def value_at(j: np.ndarray) -> np.ndarray:
            i = np.searchsorted(cw, j.astype(np.float64), side="right")
            return xs[np.minimum(i, xs.shape[0] - 1)]

    return equal_mass_edges(value_at, n, n_bins, weighted=w is not None)


def equal_mass_edges(value_at: Any, n: int, n_bins: int, *, weighted: bool) -> np.ndarray:
    """:func:`kumar_equal_mass_edges` from the order statistics of the forecasts.

    ``value_at(j)``: the forecasts at the 0-based positions ``j`` of the
    sorted (expanded) sample of ``n`` observations -- with frequency weights
    (``weighted``; positions as floats) the first forecast whose cumulative
    weight exceeds ``j``, the largest forecast beyond the total; called once,
    so a distributed selection answers all positions together.

    Examples
    --------
    >>> import numpy as np
    >>> xs = np.array([0.1, 0.2, 0.4, 0.8])
    >>> equal_mass_edges(lambda j: xs[j], 4, 2, weighted=False).tolist()
    [0.0, 0.30000000000000004, 1.0]
    """
    k = min(n_bins, max(n, 1))
    size, extra = divmod(n, k)
    # first position of groups 1..k-1 (Python integers: the expanded sample
    # of huge frequency weights has more rows than an int64 holds)
    starts = np.array(
        [j * size + min(j, extra) for j in range(1, k)],
        dtype=np.float64 if weighted else np.int64,
    )
    values = value_at(np.concatenate((starts - 1, starts)))
    mids = (values[: k - 1] + values[k - 1 :]) / 2.0
    inner = np.unique(np.append(mids, 1.0))
    inner = inner[inner < 1.0]
    return np.concatenate(([0.0], inner, [1.0]))


def hle_bin_ids(conf: np.ndarray, bin_size: int = 100) -> tuple[np.ndarray, int]:
    """Bins of the HLE judge's ``calib_err``: sort by confidence
    (``np.argsort``, numpy's default sort, whose tie order decides which rows
    share a bin), consecutive bins of ``bin_size`` rows, the last bin absorbs
    the remainder.  Returns ``(bin id of each row, number of bins)``."""
    n = conf.shape[0]
    nb = n // bin_size
    idxs = np.argsort(conf)
    ids_sorted = np.minimum(np.arange(n) // bin_size, nb - 1)
    ids = np.empty(n, dtype=np.intp)
    ids[idxs] = ids_sorted
    return ids, nb


def discrete_bin_ids(p: np.ndarray) -> tuple[np.ndarray, int]:
    """One bin per distinct forecast value: ``(bin id of each row, number of bins)``.

    Kumar et al.'s ``get_discrete_bins`` (``uncertainty-calibration``, used
    by its ``get_binning_ce``): edges at the midpoints between consecutive
    distinct values, so each value has a bin of its own.  ``-0.0`` and
    ``0.0`` share one.
    """
    values, ids = np.unique(p, return_inverse=True)
    return ids.reshape(-1).astype(np.intp), int(values.shape[0])


def bin_ids(
    p: np.ndarray, w: np.ndarray | None, n_bins: int, strategy: str, right: bool
) -> tuple[np.ndarray, int]:
    """skbrier's bins (:mod:`~skbrier._core.binning`): ids and count."""
    edges = (
        quantile_edges(p, w, n_bins) if strategy == "quantile" else uniform_edges(n_bins)
    )
    return assign_bins(p, edges, right=right), edges.shape[0] - 1


def edge_ids(p: np.ndarray, edges: np.ndarray, right: bool) -> np.ndarray:
    """Bin ids for explicit edges (``assign_bins``; uniform edges take its O(n) path)."""
    if is_uniform(edges) or edges.shape[0] == 2:
        return assign_bins(p, edges, right=right)
    inner = edges[1:-1]
    if right:
        return np.searchsorted(inner, p, side="left").astype(np.intp)
    return np.searchsorted(inner, p, side="right").astype(np.intp)


# ----------------------------------------------------------------- the one kernel
@dataclasses.dataclass
class BinSums:
    r"""Sufficient statistics of a binned calibration error (merged with ``+``).

    Per bin :math:`b`: ``wsum`` :math:`W_b = \sum w`, ``psum`` :math:`\sum w p`
    and ``ysum`` :math:`\sum w y` of the rows in the bin.
    """

    wsum: np.ndarray
    psum: np.ndarray
    ysum: np.ndarray

    def __add__(self, other: BinSums) -> BinSums:
        return BinSums(
            self.wsum + other.wsum, self.psum + other.psum, self.ysum + other.ysum
        )

    def __iter__(self):
        """``wsum, psum, ysum`` (unpacks as a tuple)."""
        return iter((self.wsum, self.psum, self.ysum))


def edge_bin_ids(xp: Any, p: Any, edges: np.ndarray, right: bool = True) -> Any:
    """The bin of each forecast for ``edges`` by the one binning rule
    (:func:`~skbrier._core.binning.assign_bins`) in ``p``'s namespace: a
    search among the inner edges, in float64 where the device has it."""
    if is_numpy(xp):
        return assign_bins(p, edges, right=right)
    from ..array_api import exact_cuts, index_dtype, searchsorted

    k = edges.shape[0] - 1
    if k == 1:
        return xp.zeros(p.shape[0], dtype=index_dtype(xp, p.device), device=p.device)
    inner = exact_cuts(xp, edges[1:-1], p.device, up=not right)
    side = "left" if right else "right"
    return searchsorted(xp, inner, xp.astype(p, inner.dtype), side=side)


# rows x bins of a block of the one-hot products (bounded device memory)
_ONEHOT_ELEMENTS = 1 << 24


def bin_sums(xp: Any, ids: Any, p: Any, y: Any, w: Any, n_bins: int) -> BinSums:
    """Reduce the rows of one ``(p, y)`` pair to their :class:`BinSums`
    (``ids``: the bin of each row; host arrays out).

    Numpy: one ``np.bincount`` per sum.  Other namespaces: one-hot products
    over blocks of rows on the device, in float64 where the device has it.
    """
    if is_numpy(xp):
        if w is None:
            wsum = np.bincount(ids, minlength=n_bins).astype(np.float64)
            return BinSums(
                wsum,
                np.bincount(ids, weights=p, minlength=n_bins),
                np.bincount(ids, weights=y, minlength=n_bins),
            )
        return BinSums(
            np.bincount(ids, weights=w, minlength=n_bins),
            np.bincount(ids, weights=w * p, minlength=n_bins),
            np.bincount(ids, weights=w * y, minlength=n_bins),
        )
    host = xp_bin_columns(xp, ids, [p, y], w, n_bins)
    return BinSums(host[:, 0], host[:, 1], host[:, 2])


def xp_bin_columns(
    xp: Any,
    ids: Any,
    columns: list[Any],
    w: Any,
    n_bins: int,
    *,
    products: bool = False,
) -> np.ndarray:
    """Host ``(n_bins, m)`` per-bin sums of ``[w, w c_1, ..., w c_m]`` in an
    Array API namespace (with ``products``: the binned decomposition's
    per-code ``[1, w, w p, w p^2, w^2]`` of ``columns = [p]``,
    :func:`~skbrier._core.kernels.decomposition.binned_sums`): one-hot
    products over blocks of rows, in float64 where the device has it."""
    from ..array_api import to_numpy, wide_float

    dt = wide_float(xp, ids.device)
    n = int(ids.shape[0])
    cols = [xp.astype(c, dt) for c in columns]
    ww = xp.ones(n, dtype=dt, device=ids.device) if w is None else xp.astype(w, dt)
    rows = max(1, _ONEHOT_ELEMENTS // max(n_bins, 1))
    bins = xp.arange(n_bins, device=ids.device)
    total = None
    for start in range(0, n, rows):
        sl = slice(start, min(start + rows, n))
        wb = ww[sl]
        if products:
            wp = wb * cols[0][sl]
            parts = [xp.ones_like(wb), wb, wp, wp * cols[0][sl], wb * wb]
        else:
            parts = [wb] + [wb * c[sl] for c in cols]
        oh = xp.astype(ids[sl][:, None] == bins[None, :], dt)
        part = xp.matmul(xp.permute_dims(oh, (1, 0)), xp.stack(parts, axis=1))
        total = part if total is None else total + part
    assert total is not None  # validated input has rows
    return np.asarray(to_numpy(total), dtype=np.float64)


def top_label_reduce(
    xp: Any,
    proba: Any,
    codes: Any,
    w: Any,
    bins: Callable[[Any], Any],
    n_bins: int,
    *,
    seen: TopLabelPass | None = None,
) -> BinSums:
    """The :class:`BinSums` of the top-label pair (confidence, correct) of a
    probability matrix, ``bins(confidence)`` giving each row's bin.

    Numpy: one pass over the matrix in cache-sized blocks of rows -- the
    argmax, the confidence, whether it is correct, the bins and the per-bin
    sums of each block while it is in cache.  ``seen``: the top labels a
    complete :class:`TopLabelPass` took during the validation's pass (the
    matrix is not read again).
    """
    if not is_numpy(xp):
        conf, correct = top_label(xp, proba, codes)
        return bin_sums(xp, bins(conf), conf, correct, w, n_bins)
    total = BinSums(np.zeros(n_bins), np.zeros(n_bins), np.zeros(n_bins))
    n = proba.shape[0]
    if seen is not None and seen.rows == n:
        step = max(1, _TOP_BLOCK // proba.shape[1])  # the blocks of _top_blocks
        blocks: Any = (
            (i, min(i + step, n), seen.confidence[i : i + step], seen.column[i : i + step])
            for i in range(0, n, step)
        )
    else:
        blocks = _top_blocks(proba)
    for i, j, conf, am in blocks:
        ids = bins(conf)
        hit = am == codes[i:j]
        if w is None:
            total.wsum += np.bincount(ids, minlength=n_bins)
            total.psum += np.bincount(ids, weights=conf, minlength=n_bins)
            total.ysum += np.bincount(ids[hit], minlength=n_bins)
        else:
            wb = w[i:j]
            total.wsum += np.bincount(ids, weights=wb, minlength=n_bins)
            total.psum += np.bincount(ids, weights=wb * conf, minlength=n_bins)
            total.ysum += np.bincount(ids[hit], weights=wb[hit], minlength=n_bins)
    return total


def calibration_finish(
    sums: list[BinSums],
    norm: str,
    *,
    classwise: bool = False,
    squared: bool = False,
    **options: Any,
) -> float:
    """The calibration error of the :class:`BinSums` of one pair, or of every
    class (``classwise``: the mean (l1), the root mean square (l2: Kumar's
    marginal calibration error) or the maximum of the per-class errors), by
    :func:`binned_error` with its ``options`` (``debias``, ``total``,
    ``skip``, ``singleton_rule``); ``squared`` (l2): the square, the sum
    before the root."""
    vals = [
        binned_error(s.wsum, s.psum, s.ysum, norm, squared=squared, **options) for s in sums
    ]
    if not classwise:
        return vals[0]
    v = np.asarray(vals)
    if norm == "l1":
        return float(np.mean(v))
    if norm == "l2":
        return float(np.mean(v)) if squared else float(math.sqrt(np.mean(v * v)))
    return float(np.max(v))


def binned_error(
    wsum: np.ndarray,
    psum: np.ndarray,
    ysum: np.ndarray,
    norm: str,
    *,
    debias: bool = False,
    total: float | None = None,
    skip: np.ndarray | None = None,
    singleton_rule: str = "kumar",
    squared: bool = False,
) -> float:
    r"""Calibration error from per-bin sums.

    With :math:`W_b` the bin weight, :math:`\bar p_b, \bar y_b` its means
    and :math:`W = \sum_b W_b` (or ``total``): ``l1`` is
    :math:`\sum_b W_b |\bar p_b - \bar y_b| / W`, ``l2`` the root of
    :math:`\sum_b W_b (\bar p_b - \bar y_b)^2 / W`, ``max`` the largest gap
    over non-empty bins.  ``debias`` (``l2`` only) subtracts
    :math:`\bar y_b (1 - \bar y_b) / (W_b - 1)` from each squared gap (Kumar,
    Liang & Ma 2019, ``unbiased_square_ce``) and clips the total at 0 before
    the root; ``singleton_rule="kumar"`` drops bins of weight < 2 entirely
    (their ``bin_error`` is 0), ``"torchmetrics"`` keeps their plug-in term.
    ``skip`` marks bins left out of the sum (but not of ``W``).
    ``squared`` returns the l2 value before the root (unclipped when not
    debiased).
    """
    nz = wsum > 0
    if skip is not None:
        nz &= ~skip
    tot = float(wsum.sum()) if total is None else float(total)
    ws = wsum[nz]
    pbar = psum[nz] / ws
    ybar = ysum[nz] / ws
    gap = pbar - ybar
    if norm == "max":
        return float(np.max(np.abs(gap))) if gap.size else 0.0
    frac = ws / tot
    if norm == "l1":
        return float(np.sum(frac * np.abs(gap)))
    sq = gap * gap
    if debias:
        with np.errstate(divide="ignore", invalid="ignore"):
            var = ybar * (1.0 - ybar) / (ws - 1.0)
        small = ws < 2.0
        if singleton_rule == "kumar":
            sq = np.where(small, 0.0, sq - var)
        else:
            sq = sq - np.where(small, 0.0, var)
        s = float(np.sum(frac * sq))
        s = max(s, 0.0)
    else:
        s = float(np.sum(frac * sq))
    return s if squared else math.sqrt(s)


# ----------------------------------------------------------------- smECE (relplot)
_SMECE_MESH = 200  # relplot.config.smECE_mesh_pts


def grid_positions(f: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Each forecast's grid cell ``b`` and its share ``frac`` of the upper node
    on a grid of ``m`` nodes (relplot's ``smooth_round_to_grid``)."""
    x = f * (m - 1)
    b = x.astype(np.intp)
    np.clip(b, 0, m - 2, out=b)
    return b, x - b


def _round_to_grid(
    f: np.ndarray,
    v: np.ndarray | None,
    m: int,
    positions: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """relplot's ``smooth_round_to_grid``: linear split of each mass onto a grid of ``m``."""
    b, frac = grid_positions(f, m) if positions is None else positions
    if v is None:
        lo = np.bincount(b, weights=1.0 - frac, minlength=m)
        hi = np.bincount(b, weights=frac, minlength=m)
    else:
        lo = np.bincount(b, weights=(1.0 - frac) * v, minlength=m)
        hi = np.bincount(b, weights=frac * v, minlength=m)
    # the upper shares land one node up (b <= m - 2): the same sums as
    # ``np.bincount(b + 1, ...)`` without a shifted copy of ``b``
    lo[1:] += hi[:-1]
    return lo


def _reflected_convolve(values: np.ndarray, sigma: float) -> np.ndarray:
    """relplot ``ReflectedGaussianKernel.convolve`` (FFT for long grids)."""
    m = values.shape[0]
    t = np.linspace(0.0, 1.0, m)
    ker = np.exp(-(t - 0.5) * (t - 0.5) / (2.0 * sigma * sigma))
    ker /= np.sqrt(2.0 * np.pi) * sigma
    ext = np.concatenate([np.flip(values)[:-1], values, np.flip(values)[1:]])
    if m <= 1500:
        full = np.convolve(ext, ker, "valid")
    else:
        from scipy.signal import fftconvolve

        full = fftconvolve(ext, ker, mode="valid")
    return full[m // 2 : m // 2 + m]


def _interpolate(t: np.ndarray, y: np.ndarray) -> np.ndarray:
    """relplot ``interpolate``: piecewise-linear ``i / (len(y) - 1) -> y[i]``."""
    n = y.shape[0]
    size = 1.0 / (n - 1)
    inds = (t * (n - 1)).astype(np.intp).clip(0, n - 2)
    res = (t - inds * size) / size
    return y[inds] * (1.0 - res) + y[inds + 1] * res


class _SmoothECE:
    """smECE of fixed data at any bandwidth (grids cached per grid size).

    Weights are normalised to sum to 1 first (smECE is a ratio of two
    integrals of the same masses, so it does not depend on their scale, and
    tiny or huge weights neither under- nor overflow).
    """

    def __init__(
        self,
        f: np.ndarray,
        y: np.ndarray,
        w: np.ndarray | None,
        positions: dict[int, tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> None:
        if w is not None:
            w = w / float(w.sum())
        self.f = f
        self.r = (f - y) if w is None else w * (f - y)
        self.w = w
        self._grids: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        # grid positions depend on the forecasts only: resamples of the same
        # rows (weights) share them
        self._positions = {} if positions is None else positions

    def _grid(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        g = self._grids.get(m)
        if g is None:
            pos = self._positions.get(m)
            if pos is None:
                pos = self._positions[m] = grid_positions(self.f, m)
            g = (
                _round_to_grid(self.f, self.r, m, pos),
                _round_to_grid(self.f, self.w, m, pos),
            )
            self._grids[m] = g
        return g

    def __call__(self, sigma: float) -> float:
        ev = max(round(10 / sigma), _SMECE_MESH)
        t = np.linspace(0.0, 1.0, ev)
        m = max(2000, round(20 / sigma)) // 2 + 1
        gr, gw = self._grid(m)
        ys = _interpolate(t, _reflected_convolve(gr, sigma))
        dens = _interpolate(t, _reflected_convolve(gw, sigma))
        # relplot: sum(|ys / d| d) / sum(d) with d = dens + 1e-4; the offset
        # cancels in the numerator and is left out of the denominator, where
        # it would weigh 1e-4 against the total mass (not scale-free)
        return float(np.sum(np.abs(ys)) / np.sum(dens))


def smooth_ece(f: np.ndarray, y: np.ndarray, w: np.ndarray | None, sigma: float) -> float:
    """smECE at bandwidth ``sigma`` (relplot ``smECE_sigma``)."""
    return _SmoothECE(f, y, w)(sigma)


def smooth_ece_auto(
    f: np.ndarray,
    y: np.ndarray,
    w: np.ndarray | None,
    eps: float = 0.001,
    positions: dict[int, tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[float, float]:
    """smECE at the automatic bandwidth: ``(smECE, sigma)`` (relplot ``smECE``).

    The bandwidth is the fixed point ``sigma = smECE_sigma`` found by
    relplot's ``search_param``: 1 if ``smECE_1 >= 1``, else 10 bisection
    steps on [0, 1] keeping the upper end (the smallest ``sigma`` seen with
    ``sigma >= smECE_sigma``, or ``sigma < eps``).
    """
    s = _SmoothECE(f, y, w)

    def pred(a: float) -> bool:
        return a < eps or a < s(a)

    start = 1.0
    if not pred(start):
        end = 0.0
        for _ in range(10):
            mid = (start + end) / 2
            if pred(mid):
                end = mid
            else:
                start = mid
    return s(start), start
