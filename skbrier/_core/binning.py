"""The one binning rule of skbrier (kernels, and the check of explicit edges).

Used by the binned (Murphy) decomposition, the binned calibration errors and
the reliability diagrams, so that every binned number in the package puts a
forecast in the same bin.

Edges
    ``uniform``: ``np.linspace(0, 1, K + 1)``, ``k * (1 / K)`` (as scikit-learn
    and R's ``seq``; an inner edge may differ by one ulp from ``k / K``);
    ``quantile``: the frequency-weighted quantiles of the forecasts with
    numpy's default *linear* interpolation (as
    :func:`sklearn.calibration.calibration_curve`); with weights, the linear
    interpolation of the expanded sample, so integer weights give the edges of
    repeated rows and unit weights the unweighted edges (rows of zero weight
    do not count).  Duplicate edges (ties) are removed.

Assignment
    ``right=True`` (the default): bins are ``(e_k, e_{k+1}]`` with the first
    closed, so a forecast on an inner edge falls in the **lower** bin — as
    :func:`sklearn.calibration.calibration_curve` (``searchsorted(edges[1:-1],
    p)``), R SpecsVerification and R verification.  ``right=False``: bins are
    ``[e_k, e_{k+1})`` with the last closed, a forecast on an edge falls in the
    **upper** bin (``numpy.digitize`` default, torchmetrics' ``bucketize``
    with ``right=True``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from .format import format_number
from .params import MAX_BINS

__all__ = [
    "AUTO_MAX_DISTINCT",
    "AUTO_RESOLUTION",
    "BLOCK_ROWS",
    "apply_resolution",
    "assign_bins",
    "block_binner",
    "check_edges",
    "check_edges_cover",
    "check_quantile_weights",
    "auto_rounds",
    "quantile_edges",
    "round_to_resolution",
    "uniform_edges",
    "weighted_quantile",
]


def check_edges(edges: Any, name: str = "strategy") -> np.ndarray:
    """Validate explicit bin edges; messages name ``name`` (the parameter)."""
    what = f"{name} (bin edges)" if name != "edges" else "edges"
    if isinstance(edges, (str, bytes)):
        raise TypeError(f"{what} must be numeric, got {edges!r}.")
    try:
        e = np.asarray(edges)
    except ValueError as exc:  # ragged
        raise ValueError(f"{what} could not be read as numbers: {exc}") from None
    if e.dtype.kind not in "iuf":
        raise TypeError(f"{what} must be numeric; got dtype {e.dtype}.")
    e = e.astype(np.float64)
    if e.ndim != 1 or e.shape[0] < 2:
        raise ValueError(
            f"{what} must be a 1-D array of at least two edges; got shape {e.shape}."
        )
    if e.shape[0] > MAX_BINS + 1:
        raise ValueError(f"{what} must give at most {MAX_BINS} bins.")
    if not np.all(np.isfinite(e)):
        raise ValueError(f"{what} contains NaN or infinity.")
    if np.any(np.diff(e) <= 0):
        raise ValueError(f"{what} must be strictly increasing.")
    return e


def check_edges_cover(
    p: np.ndarray, edges: np.ndarray, name: str = "strategy", proba_name: str = "y_proba"
) -> None:
    """Refuse forecasts ``p`` outside explicit ``edges`` (no silent clipping).

    :func:`assign_bins` would put such a forecast in the nearest end bin, so
    the bin's mean forecast would mix forecasts the edges exclude.  Edges
    that start at 0 and end at 1 cover every probability.
    """
    if edges[0] <= 0.0 and edges[-1] >= 1.0:
        return
    lo, hi = float(p.min()), float(p.max())
    if lo >= edges[0] and hi <= edges[-1]:
        return
    outside = int(np.count_nonzero((p < edges[0]) | (p > edges[-1])))
    what = f"{name} (bin edges)" if name != "edges" else "edges"
    f = format_number
    raise ValueError(
        f"{what} must cover the forecasts: the edges span [{f(float(edges[0]))}, "
        f"{f(float(edges[-1]))}] but {outside} of {p.shape[0]} values of {proba_name} "
        f"lie outside (they span [{f(lo)}, {f(hi)}]) and would be clipped into the "
        "end bins. Let the edges start at 0 and end at 1."
    )


def uniform_edges(n_bins: int) -> np.ndarray:
    """``n_bins + 1`` equally spaced edges on [0, 1]: ``k * (1 / n_bins)``, the
    last exactly 1 (``np.linspace(0, 1, n_bins + 1)``, R's ``seq(0, 1,
    length.out = n_bins + 1)``, scikit-learn's ``calibration_curve``), so a
    forecast such as ``3 * 0.1`` lies on an edge exactly as it does there."""
    return np.linspace(0.0, 1.0, n_bins + 1)


def is_uniform(edges: np.ndarray) -> bool:
    """True if ``edges`` are exactly :func:`uniform_edges` of their length."""
    k = edges.shape[0] - 1
    return k >= 1 and np.array_equal(edges, uniform_edges(k))


def weighted_quantile(
    x: np.ndarray, q: np.ndarray, w: np.ndarray | None = None
) -> np.ndarray:
    """Linear-interpolation quantiles of ``x`` under frequency weights ``w``.

    Without weights this is ``np.quantile(x, q)`` exactly.  With weights, the
    sorted values are read as a sample in which value ``x_(i)`` occupies the
    positions ``[C_{i-1}, C_i)`` of the cumulative weights ``C``; the
    quantile at level ``q`` is the linear interpolation at position
    ``q (W - 1)`` between the values at its floor and ceiling, ``W = sum w``.
    For integer weights it equals ``np.quantile(np.repeat(x, w), q)``; unit
    weights give the unweighted quantiles.  Needs ``W > 0``; for ``W < 1`` all
    positions collapse onto the first value.
    """
    q = np.asarray(q, dtype=np.float64)
    if w is None:
        return np.quantile(x, q)
    keep = w > 0
    x, w = x[keep], w[keep]
    order = np.argsort(x, kind="stable")
    xs, cw = x[order], np.cumsum(w[order])
    total = cw[-1]
    pos = q * max(total - 1.0, 0.0)
    lo = np.floor(pos)
    frac = pos - lo
    last = xs.shape[0] - 1
    i_lo = np.minimum(np.searchsorted(cw, lo, side="right"), last)
    i_hi = np.minimum(np.searchsorted(cw, lo + 1.0, side="right"), last)
    v_lo, v_hi = xs[i_lo], xs[i_hi]
    # numpy's lerp: exact at both ends
    out = np.where(
        frac >= 0.5, v_hi - (v_hi - v_lo) * (1.0 - frac), v_lo + (v_hi - v_lo) * frac
    )
    return np.where(v_lo == v_hi, v_lo, out)


def check_quantile_weights(w: np.ndarray | None) -> None:
    """Refuse frequency weights of a total below 1 for equal-mass bins.

    The quantiles of frequency weights are those of the repeated rows: a total
    weight below 1 (less than one observation) has none -- every position
    would collapse onto the smallest forecast, one bin, silently.
    """
    if w is not None and not float(w.sum()) >= 1.0:
        raise ValueError(
            f"sample_weight sums to {float(w.sum()):.4g}: equal-mass (quantile) bins "
            "read frequency weights as counts of repeated rows, and a total weight "
            "below 1 (less than one observation) has no quantiles. Give the weights "
            "as counts (e.g. sample_weight * n / sample_weight.sum()) or use "
            "uniform bins."
        )


def quantile_edges(p: np.ndarray, w: np.ndarray | None, n_bins: int) -> np.ndarray:
    """Equal-mass edges from the smallest to the largest forecast, ties removed.

    All forecasts equal gives the single bin ``[0, 1]``.
    """
    check_quantile_weights(w)
    q = np.arange(n_bins + 1, dtype=np.float64) / n_bins
    e = np.unique(weighted_quantile(p, q, w))
    if e.shape[0] == 1:
        e = np.array([0.0, 1.0])
    return e


#: rows per block of the one-pass kernels: the temporaries of a block stay in
#: the CPU cache, so a kernel reads its input from memory once
BLOCK_ROWS = 16384

#: ``bin_into(pb, out, scratch, mask)``: the bins of one block (see :func:`block_binner`)
BlockBinner = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], None]


def block_binner(edges: np.ndarray, *, right: bool = True) -> BlockBinner:
    """The binning rule as a block function ``bin_into(pb, out, scratch, mask)``.

    It writes the bin (``0 .. K-1``) of each forecast of the block ``pb`` to
    ``out`` as float64 (exact small integers, ready to be combined with other
    codes before one cast); ``scratch`` (float64) and ``mask`` (bool) are
    work arrays of the block's length.  Uniform edges ``k * (1 / K)`` use
    ``p * K`` (no search) with a one-step correction against the edges
    themselves, so both paths give the bins of the documented rule exactly.
    """
    k = edges.shape[0] - 1
    if k == 1:
        return _one_bin
    if not is_uniform(edges):
        return functools.partial(_searched, edges[1:-1], "left" if right else "right")
    return functools.partial(_uniform, float(k), bool(right), float(edges[1]))


def _one_bin(pb, out, scratch, mask) -> None:
    out.fill(0.0)


def _searched(inner, side, pb, out, scratch, mask) -> None:
    out[...] = np.searchsorted(inner, pb, side=side)


def _uniform(kf, right, step, pb, out, scratch, mask) -> None:
    """Uniform bins with edges ``c * step`` (``step = 1 / K``): ``right``, bins
    ``(c step, (c+1) step]`` (the first closed) from ``ceil(pK) - 1``; else
    ``[c step, (c+1) step)`` (the last closed) from ``floor(pK)``.  Either is
    at most one off, and is corrected against the edges themselves; the end
    bins then take what lies beyond them (fmax: NaN to the first bin)."""
    np.multiply(pb, kf, out=out)
    if right:
        np.ceil(out, out=out)
        out -= 1.0
    else:
        np.floor(out, out=out)
    np.multiply(out, step, out=scratch)
    (np.less_equal if right else np.less)(pb, scratch, out=mask)  # below the bin
    np.subtract(out, mask, out=out)
    np.add(out, 1.0, out=scratch)
    scratch *= step
    (np.greater if right else np.greater_equal)(pb, scratch, out=mask)  # above it
    np.add(out, mask, out=out)
    np.fmax(out, 0.0, out=out)
    np.fmin(out, kf - 1.0, out=out)


def assign_bins(p: np.ndarray, edges: np.ndarray, *, right: bool = True) -> np.ndarray:
    """Bin index (``0 .. K-1``) of each forecast for ``K + 1`` edges.

    ``right=True``: bin ``k`` holds ``e_k < p <= e_{k+1}`` (the first bin also
    holds ``p = e_0``); ``right=False``: ``e_k <= p < e_{k+1}`` (the last bin
    also holds ``p = e_K``).  Forecasts outside the edges go to the nearest
    end bin.  Uniform edges use ``p * K`` (O(n), no search) with a one-step
    correction against the edges themselves, so both paths agree exactly
    (:func:`block_binner`, run block by block).
    """
    n = p.shape[0]
    k = edges.shape[0] - 1
    if k == 1:
        return np.zeros(n, dtype=np.intp)
    if not is_uniform(edges):
        side: Literal["left", "right"] = "left" if right else "right"
        return np.searchsorted(edges[1:-1], p, side=side).astype(np.intp)
    bin_into = block_binner(edges, right=right)
    out = np.empty(n, dtype=np.intp)
    size = min(n, BLOCK_ROWS)
    f, scratch, mask = np.empty(size), np.empty(size), np.empty(size, dtype=bool)
    for start in range(0, n, BLOCK_ROWS):
        pb = p[start : start + BLOCK_ROWS]
        b = pb.shape[0]
        bin_into(pb, f[:b], scratch[:b], mask[:b])
        out[start : start + b] = f[:b]
    return out


#: ``resolution="auto"``: the forecasts stay exact while each outcome class has
#: at most this many distinct forecasts (among the rows of positive weight) ...
AUTO_MAX_DISTINCT = 2**20
#: ... and are rounded to multiples of this step beyond
AUTO_RESOLUTION = 1e-6


def round_to_resolution(p: np.ndarray, resolution: float) -> np.ndarray:
    """``p`` rounded to the nearest multiple of ``resolution`` (halves to even),
    clipped to [0, 1]; ``-0.0`` becomes ``0.0``.

    A non-decreasing function of ``p``: rounding never reverses the order of
    two forecasts, it can only tie them.
    """
    return np.clip(np.round(p / resolution) * resolution, 0.0, 1.0) + 0.0


def auto_rounds(y01: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> bool:
    """Whether ``resolution="auto"`` rounds: more than :data:`AUTO_MAX_DISTINCT`
    distinct forecasts among the events or among the non-events (rows of
    positive weight), the rule the mergeable tables apply per label."""
    if p.shape[0] <= AUTO_MAX_DISTINCT:
        return False
    keep = np.ones(p.shape[0], dtype=bool) if w is None else w > 0
    for v in (0.0, 1.0):
        q = p[keep & (y01 == v)]
        if q.shape[0] > AUTO_MAX_DISTINCT and np.unique(q).shape[0] > AUTO_MAX_DISTINCT:
            return True
    return False


def apply_resolution(
    y01: np.ndarray, p: np.ndarray, w: np.ndarray | None, resolution: float | str | None
) -> np.ndarray:
    """The forecasts of a checked ``resolution`` (None, "auto" or a step) of
    the exact-table statistics, as the mergeable tables round them."""
    if resolution is None:
        return p
    if resolution == "auto":
        return round_to_resolution(p, AUTO_RESOLUTION) if auto_rounds(y01, p, w) else p
    return round_to_resolution(p, float(resolution))
