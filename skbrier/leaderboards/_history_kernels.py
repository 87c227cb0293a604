"""Kernels of the history scores: plain numpy on a validated :class:`ForecastHistory`.

No checks here.  The updates are sorted by question, forecaster and time, so
one (forecaster, question) *pair* is a run of consecutive rows and every
kernel is a few vectorised passes over them (no Python loop over updates,
days or questions):

* :func:`pair_layout`: where each pair's run starts and ends;
* :func:`day_segments`: the days (steps) each update stands for under the
  carry-forward rule, with no per-day expansion;
* :func:`interval_medians`: the median of the values standing on each day of
  each question, exactly, in about ``sqrt(updates)`` vectorised passes;
* :func:`timeline_integrals`: the integrals over each update's standing time
  of the functions of the crowd (count ``N`` and sum ``S`` of the standing
  scores) that the peer score needs;
* :func:`standing_rows`: the update of each pair standing at a given time.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

__all__ = [
    "Pairs",
    "day_counts",
    "day_segments",
    "interval_medians",
    "pair_layout",
    "segmented_cumsum",
    "standing_rows",
    "timeline_integrals",
]

# most entries of the (question, block, day) count table held at once
_CHUNK = 1 << 24


@dataclasses.dataclass(frozen=True)
class Pairs:
    """The runs of rows of each (forecaster, question) pair."""

    start: np.ndarray  # first row of each pair
    index: np.ndarray  # pair of each row
    first: np.ndarray  # bool per row: first update of its pair
    last: np.ndarray  # bool per row: last update of its pair
    forecaster: np.ndarray  # forecaster code of each pair
    question: np.ndarray  # question code of each pair

    @property
    def n(self) -> int:
        return int(self.start.shape[0])


def pair_layout(history: Any) -> Pairs:
    f, q = history.forecaster_index, history.question_index
    n = f.shape[0]
    first = np.empty(n, dtype=bool)
    first[0] = True
    np.not_equal(f[1:], f[:-1], out=first[1:])
    first[1:] |= q[1:] != q[:-1]
    last = np.empty(n, dtype=bool)
    last[:-1] = first[1:]
    last[-1] = True
    start = np.flatnonzero(first)
    index = np.cumsum(first, dtype=np.intp) - 1
    return Pairs(start, index, first, last, f[start], q[start])


def segmented_cumsum(x: np.ndarray, seg_start: np.ndarray) -> np.ndarray:
    """Cumulative sums restarting at each index of ``seg_start`` (sorted, starts at 0).

    The running total is reset by subtracting the previous segment's sum from
    the first element of the next, so rounding errors stay those of one segment.
    """
    if x.dtype.kind in "iub":
        c = np.cumsum(x, dtype=np.int64)
        before = np.zeros(seg_start.shape[0], dtype=np.int64)
        before[1:] = c[seg_start[1:] - 1]
        return c - np.repeat(before, np.diff(np.append(seg_start, x.shape[0])))
    y = x.astype(np.float64, copy=True)
    if seg_start.shape[0] > 1:
        sums = np.add.reduceat(y, seg_start)
        y[seg_start[1:]] -= sums[:-1]
    c = np.cumsum(y)
    # the small residue left by the reset is removed at each segment start
    resid = np.zeros(seg_start.shape[0])
    resid[1:] = c[seg_start[1:]] - x[seg_start[1:]]
    return c - np.repeat(resid, np.diff(np.append(seg_start, x.shape[0])))


def day_counts(history: Any, step: float) -> np.ndarray:
    r"""Per question, :math:`D = \lfloor (e - o) / s \rfloor`: its full days (float, unchecked)."""
    return np.floor((history.end_time - history.open_time) / step)


def day_segments(
    history: Any, pairs: Pairs, step: float, n_days: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""The days each update stands for, by the carry-forward rule.

    Day :math:`d` of a question is :math:`[o + d s, o + (d + 1) s)` with
    :math:`o` its open time and :math:`s` the step; the question has
    ``n_days`` :math:`D` full days before its end :math:`e`
    (:func:`day_counts`, checked by the caller).  A day is scored by the
    forecast standing at its end, the latest update made before the day
    ended, so the update at time :math:`t` scores the days from
    :math:`\lfloor (t - o) / s \rfloor` (0 for an update before the open)
    up to, not including, the day of the pair's next update (or :math:`D`).

    Returns
    -------
    lo, hi : ndarray of int64
        Per update: its days are ``lo .. hi - 1`` (none when equal).
    """
    o = history.open_time
    q = history.question_index
    d = np.floor((history.time - o[q]) / step)
    lo = np.clip(d, 0, n_days[q]).astype(np.int64)
    hi = np.empty_like(lo)
    hi[:-1] = lo[1:]
    hi[pairs.last] = n_days[q[pairs.last]]
    return lo, hi


def interval_medians(
    group: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    value: np.ndarray,
    n_days: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Median, on each day of each group, of the values of the intervals covering it.

    Interval ``i`` of group ``group[i]`` holds ``value[i]`` on the days
    ``lo[i] .. hi[i] - 1`` (``0 <= lo < hi <= n_days[group]``).  Returns the
    medians (NaN on a day no interval covers; the mean of the two middle
    values for an even count) laid out group after group, and the offsets
    of the groups in that layout.

    Exact and vectorised: the intervals of a group are sorted by value and
    cut into blocks of about ``sqrt(size)``; a (day x block) table of how
    many intervals of each block cover each day (difference arrays and
    cumulative sums) gives the count on each day and the block holding each
    middle order statistic, and a scan of that block's intervals gives its
    value.  Work and memory grow as ``days x sqrt(intervals)`` per group,
    not ``days x intervals``; groups are processed in chunks of similar
    block counts with a bounded table.
    """
    g_count = n_days.shape[0]
    offsets = np.zeros(g_count + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(n_days)
    out = np.full(int(offsets[-1]), np.nan)
    if group.shape[0] == 0:
        return out, offsets
    order = np.lexsort((value, group))
    iv = _Intervals(group[order], lo[order], hi[order], value[order], g_count)
    todo = np.flatnonzero(iv.size > 0)
    todo = todo[np.argsort(iv.nblock[todo], kind="stable")]
    rows = np.cumsum(n_days[todo])
    i = 0
    while i < todo.shape[0]:  # chunks: (days of the chunk) x (most blocks) <= _CHUNK
        done = int(rows[i - 1]) if i else 0
        a, b = i + 1, todo.shape[0]
        while a < b:  # the first j whose table would be too large
            m = (a + b) // 2
            if (int(rows[m]) - done) * int(iv.nblock[todo[m]]) > _CHUNK:
                b = m
            else:
                a = m + 1
        gs = todo[i:a]
        out[_day_slots(gs, n_days, offsets)] = _chunk_medians(iv, gs, n_days[gs])
        i = a
    return out, offsets


@dataclasses.dataclass
class _Intervals:
    """Intervals sorted by (group, value), with their blocks."""

    group: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    value: np.ndarray
    n_groups: dataclasses.InitVar[int]

    def __post_init__(self, n_groups: int) -> None:
        self.size = np.bincount(self.group, minlength=n_groups)
        self.start = np.zeros(n_groups + 1, dtype=np.int64)
        self.start[1:] = np.cumsum(self.size)
        self.bsize = np.maximum(1, np.ceil(np.sqrt(self.size))).astype(np.int64)
        self.nblock = -(-self.size // self.bsize)


def _ranges(first: np.ndarray, length: np.ndarray) -> np.ndarray:
    """``first[k] .. first[k] + length[k] - 1`` for every k, concatenated."""
    total = int(length.sum())
    starts = np.repeat(first - np.cumsum(length) + length, length)
    return starts + np.arange(total)


def _day_slots(gs: np.ndarray, n_days: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    return _ranges(offsets[gs], n_days[gs])


def _chunk_medians(iv: _Intervals, gs: np.ndarray, days: np.ndarray) -> np.ndarray:
    """Medians on every day of the groups ``gs`` (rows: their days, in order)."""
    width = int(iv.nblock[gs].max())
    roff = np.zeros(gs.shape[0] + 1, dtype=np.int64)
    roff[1:] = np.cumsum(days)
    n_rows = int(roff[-1])
    # the intervals of these groups, their chunk-local group and block
    ii = _ranges(iv.start[gs], iv.size[gs])
    gl = np.repeat(np.arange(gs.shape[0]), iv.size[gs])
    beta = (ii - iv.start[gs][gl]) // iv.bsize[gs][gl]
    cells = n_rows * width
    table = np.bincount((roff[gl] + iv.lo[ii]) * width + beta, minlength=cells)
    closes = iv.hi[ii] < days[gl]
    table -= np.bincount(((roff[gl] + iv.hi[ii]) * width + beta)[closes], minlength=cells)
    # covering counts per day and block (int32: at most the intervals of a block)
    table = table.reshape(n_rows, width).cumsum(axis=0, dtype=np.int32)
    if gs.shape[0] > 1:
        carried = np.zeros((gs.shape[0], width), dtype=table.dtype)
        carried[1:] = table[roff[1:-1] - 1]
        table -= np.repeat(carried, days, axis=0)
    table = table.cumsum(axis=1, dtype=np.int32)  # covering counts up to each block
    n = table[:, -1]
    r = np.flatnonzero(n > 0)
    med = np.full(n_rows, np.nan)
    if r.shape[0] == 0:
        return med
    row_group = np.repeat(np.arange(gs.shape[0]), days)[r]
    g = gs[row_group]
    d = r - roff[row_group]
    cum = table[r]
    k1 = (n[r] - 1) // 2
    k2 = n[r] // 2
    vals = []
    for k in (k1, k2):
        block = (cum <= k[:, None]).sum(axis=1)
        before = np.where(
            block > 0, cum[np.arange(r.shape[0]), np.maximum(block - 1, 0)], 0
        )
        vals.append((block, k - before + 1))
    (b1, need1), (b2, need2) = vals
    v1, v2 = _scan(iv, g, d, b1, need1, need1 + (k2 - k1))
    other = b2 != b1
    if other.any():
        v2[other] = _scan(iv, g[other], d[other], b2[other], need2[other], need2[other])[0]
    med[r] = 0.5 * (v1 + v2)
    return med


def _scan(
    iv: _Intervals,
    g: np.ndarray,
    d: np.ndarray,
    block: np.ndarray,
    need_a: np.ndarray,
    need_b: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Values of the ``need_a``-th and ``need_b``-th (1-based) intervals covering
    day ``d`` among the intervals of block ``block`` of group ``g``, in value order
    (NaN where the block has fewer)."""
    first = iv.start[g] + block * iv.bsize[g]
    stop = np.minimum(first + iv.bsize[g], iv.start[g + 1])
    width = int((stop - first).max())
    cand = first[:, None] + np.arange(width)
    valid = cand < stop[:, None]
    cand = np.where(valid, cand, 0)
    alive = valid & (iv.lo[cand] <= d[:, None]) & (d[:, None] < iv.hi[cand])
    seen = alive.cumsum(axis=1, dtype=np.int32)
    rows = np.arange(g.shape[0])
    out = []
    for need in (need_a, need_b):
        hit = alive & (seen == need[:, None])
        pos = hit.argmax(axis=1)
        out.append(np.where(hit[rows, pos], iv.value[cand[rows, pos]], np.nan))
    return out[0], out[1]


def timeline_integrals(
    history: Any, pairs: Pairs, score: np.ndarray, start: np.ndarray, total: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Integrals of the crowd over each update's standing time.

    An update stands from ``start`` (its time, not before the open) to the
    pair's next update or the question's end.  At each instant the crowd is
    the standing updates of all forecasters: their number :math:`N` and
    the sum :math:`S` of their ``score``.  Returns, per update,

    .. math:: A = \int \frac{N}{N - 1}\,\frac{dt}{T},\quad
              B = \int \frac{S}{N - 1}\,\frac{dt}{T},\quad
              C = \int \frac{dt}{T}

    over its standing time (the integrands are 0 while :math:`N < 2`),
    with :math:`T` = ``total`` of its question.  A forecaster's peer
    score is then :math:`100 (s A - B)` for an update of score :math:`s`:
    :math:`N s - S` over :math:`N - 1` is its score minus the mean score of
    the others.
    """
    q = history.question_index
    n = q.shape[0]
    end = history.end_time
    prev = np.empty(n)
    prev[0] = 0.0
    prev[1:] = score[:-1]
    prev[pairs.first] = 0.0
    order = np.lexsort((start, q))  # time order within each question (stable)
    qo = q[order]
    to = start[order]
    qfirst = np.flatnonzero(np.r_[True, qo[1:] != qo[:-1]])
    s_sum = segmented_cumsum((score - prev)[order], qfirst)
    n_cnt = segmented_cumsum(pairs.first[order], qfirst).astype(np.float64)
    tn = np.empty(n)
    tn[:-1] = to[1:]
    qlast = np.r_[qfirst[1:] - 1, n - 1]
    tn[qlast] = end[qo[qlast]]
    dur = (tn - to) / total[qo]
    crowd = n_cnt >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(crowd, dur * n_cnt / (n_cnt - 1), 0.0)
        b = np.where(crowd, dur * s_sum / (n_cnt - 1), 0.0)
    pa = np.concatenate(([0.0], np.cumsum(a)))
    pb = np.concatenate(([0.0], np.cumsum(b)))
    pos = np.empty(n, dtype=np.intp)
    pos[order] = np.arange(n)
    stop = np.empty(n, dtype=np.intp)
    stop[:-1] = pos[1:]
    qend = np.zeros(end.shape[0], dtype=np.intp)
    qend[qo[qlast]] = qlast + 1
    stop[pairs.last] = qend[q[pairs.last]]
    nxt = np.empty(n)
    nxt[:-1] = start[1:]
    nxt[pairs.last] = end[q[pairs.last]]
    cover = np.maximum(nxt - start, 0.0) / total[q]
    return pa[stop] - pa[pos], pb[stop] - pb[pos], cover


def standing_rows(history: Any, pairs: Pairs, at: np.ndarray, strict: bool) -> np.ndarray:
    """Per pair, the row of its update standing at its question's time ``at``
    (the latest made at or before it; before it when ``strict``), or -1."""
    t_at = at[history.question_index]
    made = history.time < t_at if strict else history.time <= t_at
    count = np.add.reduceat(made.astype(np.int64), pairs.start)
    return np.where(count > 0, pairs.start + count - 1, -1)
