"""Exact multinomial counts of frequency weights by Walker's alias method.

One resample of rows with (non-integer) frequency weights ``w`` draws
``draws`` observations, each row ``i`` with probability ``w_i / W``; its
multiplicities follow the multinomial law ``Multinomial(draws, w / W)``.
numpy's :meth:`numpy.random.Generator.multinomial` draws them with one
binomial per row (about 90 ms per resample of 2e6 rows); here each
observation is drawn from an alias table (Walker 1977; Vose 1991), built
once, and counted with :func:`numpy.bincount`: one 64-bit random integer,
one table look-up and one count per observation (``benchmarks/
bench_resampler.py`` times both).  With many more draws than rows
(weights summing to far more than their number) drawing every observation
costs more than a binomial per row, and :func:`multinomial_sampler` keeps
numpy's multinomial (:data:`ALIAS_DRAWS_PER_ROW`).

The table is built in exact integer arithmetic (no rounding once the
weights are turned into integers):

* the total probability is :math:`2^{62}` units; row ``i`` gets
  ``floor(w_i / W * 2**62 * (1 - 2**-40))`` units, so every probability is
  that of ``w / W`` to within one unit, :math:`2^{-62}` (finer than the
  rounding of a double probability near one), zero weights get none and are
  never drawn, and no row gets more than its share;
* the units left over (about :math:`2^{-40}` of the total) belong to a
  *rejection* item: an observation that falls there is drawn again, so the
  counts are exactly multinomial with the rows' units as probabilities;
* ``2**k >= n + 1`` buckets of :math:`2^{62-k}` units each (the rows, the
  rejection item and empty padding items) hold at most two items each: a
  random 64-bit integer picks a bucket with its top ``k`` bits and the
  item of that bucket with its lowest ``62 - k`` bits, by an integer
  comparison with the bucket's threshold;
* the table is filled without a loop over rows: Vose's sequential sweep
  (every light bucket filled by the current heavy item; a heavy item whose
  remainder falls below one bucket becomes light and is filled by the next
  heavy item) is computed in closed form from the cumulative deficits of
  the light items and the cumulative excesses of the heavy ones (two
  :func:`numpy.searchsorted`), as in the parallel sweep of
  Hübschle-Schneider & Sanders (2022).

The table is read-only after construction, so one sampler may be called
from several threads at once (joblib's ``prefer="threads"``); every call
draws from the generator it is given.

References
----------
Walker, A. J. (1977). An efficient method for generating discrete random
variables with general distributions. ACM TOMS 3(3), 253-256.

Vose, M. D. (1991). A linear algorithm for generating random numbers with a
given distribution. IEEE TSE 17(9), 972-975.

Hübschle-Schneider, L. & Sanders, P. (2022). Parallel weighted random
sampling. ACM TOMS 48(3), 29.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

__all__ = ["AliasTable", "alias_counts", "alias_table", "multinomial_sampler"]

#: Units of the total probability: every row's probability is a multiple of
#: ``2**-UNIT_BITS``.
UNIT_BITS = 62
#: Share of the units left to the rejection item, so that rounding never
#: gives a row more than its share.
SLACK = 2.0**-40
#: Observations drawn per block: the block's temporaries stay in cache while
#: the table is read.
BLOCK = 2**16
#: Observations counted at once (32 MB of items).
FLUSH = 2**22
#: The alias method draws every observation; numpy's multinomial costs one
#: binomial per row, growing slowly with the draws: beyond this many draws
#: per row (plus one block) it is the faster of the two (measured at 1e3 to
#: 2e6 rows: the alias method 2.5-10 times faster at one draw per row, even
#: near 16).
ALIAS_DRAWS_PER_ROW = 12


@dataclasses.dataclass(frozen=True)
class AliasTable:
    """An alias table of ``n`` rows (read-only arrays).

    Attributes
    ----------
    n : int
        Number of rows; item ``n`` is the rejection item.
    k : int
        ``2**k`` buckets (``2**k >= n + 1``).
    packed : ndarray of int64, shape (2**k,)
        Bucket ``b``: ``threshold << k | alias``; an observation in bucket
        ``b`` is item ``b`` when its low ``62 - k`` bits are below
        ``threshold``, else item ``alias``.
    units : ndarray of int64, shape (n + 1,)
        The units of each row and, last, of the rejection item (summing to
        ``2**62``): the exact law of the draws, for tests.
    """

    n: int
    k: int
    packed: np.ndarray
    units: np.ndarray


def alias_table(w: np.ndarray, *, slack: float = SLACK) -> AliasTable:
    """The alias table of frequency weights ``w`` (finite, non-negative, with a
    positive total; validation-free).

    ``slack`` is the share of the units given to the rejection item (its
    default keeps rejections to about one observation in ``2**40``; tests
    raise it to exercise the redraws).
    """
    w = np.asarray(w, dtype=np.float64)
    n = int(w.shape[0])
    k = n.bit_length()  # 2**k > n: a bucket for every row and the rejection item
    s = UNIT_BITS - k
    size = 1 << s  # units of one bucket
    total = 1 << UNIT_BITS
    units = np.zeros(1 << k, dtype=np.int64)
    share = w / float(w.sum())  # at most 1: no overflow whatever the weights' scale
    with np.errstate(under="ignore"):
        share *= float(total) * (1.0 - slack)
        np.floor(share, out=units[:n], casting="unsafe")
    rows = int(units[:n].sum())
    if rows > total:  # impossible with a slack above the rounding of w.sum()
        raise RuntimeError("alias_table: the rows' units exceed the total.")
    units[n] = total - rows
    threshold = units.copy()
    alias = np.arange(1 << k, dtype=np.int64)
    light = np.flatnonzero(units < size)
    if light.size:
        heavy = np.flatnonzero(units >= size)
        deficit = size - units[light]
        cum_deficit = np.cumsum(deficit)
        cum_excess = np.cumsum(units[heavy] - size)  # ends at cum_deficit[-1]
        # Vose's sweep: heavy item j gives light buckets their deficits in
        # order while its remainder is at least one bucket; light bucket i
        # is filled by the first heavy item whose cumulative excess reaches
        # the deficits before i
        donor = np.searchsorted(cum_excess, cum_deficit - deficit, side="left")
        alias[light] = heavy[np.minimum(donor, heavy.size - 1)]
        # heavy item j stops after the first light bucket whose cumulative
        # deficit passes its cumulative excess; what remains of it (below
        # one bucket) fills its own bucket, topped up by heavy item j + 1
        last = np.searchsorted(cum_deficit, cum_excess, side="right")
        done = last >= light.size  # no light bucket left: it keeps its bucket
        given = cum_deficit[np.minimum(last, light.size - 1)] - cum_excess
        threshold[heavy] = np.where(done, size, size - given)
        alias[heavy[:-1]] = np.where(done[:-1], heavy[:-1], heavy[1:])
    packed = (threshold << k) | alias
    packed.flags.writeable = False
    units = units[: n + 1]
    units.flags.writeable = False
    return AliasTable(n=n, k=k, packed=packed, units=units)


def alias_counts(table: AliasTable, rng: np.random.Generator, draws: int) -> np.ndarray:
    """Counts (int64, length ``table.n``) of ``draws`` observations drawn from
    ``table`` with ``rng``: multinomial with the probabilities of its units."""
    n, k = table.n, table.k
    packed = table.packed
    low_mask = (1 << (UNIT_BITS - k)) - 1
    alias_mask = (1 << k) - 1
    top = np.uint64(64 - k)
    counts = np.zeros(n + 1, dtype=np.int64)
    left = int(draws)
    while left:
        batch = min(left, FLUSH)
        items = np.empty(batch, dtype=np.int64)
        for start in range(0, batch, BLOCK):
            m = min(BLOCK, batch - start)
            bits = rng.integers(0, 2**64, size=m, dtype=np.uint64)
            bucket = (bits >> top).view(np.int64)
            low = bits.view(np.int64)
            np.bitwise_and(low, low_mask, out=low)
            entry = np.take(packed, bucket)
            own = low < (entry >> k)
            np.bitwise_and(entry, alias_mask, out=entry)  # the bucket's alias
            np.subtract(bucket, entry, out=bucket)
            bucket *= own
            np.add(entry, bucket, out=items[start : start + m])  # own ? bucket : alias
        counts += np.bincount(items, minlength=n + 1)[: n + 1]
        left -= batch
        left += int(counts[n])  # rejected: drawn again
        counts[n] = 0
    return counts[:n]


def multinomial_sampler(
    w: np.ndarray, draws: int
) -> Callable[[np.random.Generator], np.ndarray]:
    """``draw(rng)``: float64 multiplicities of the rows, multinomial counts of
    ``draws`` observations with probabilities ``w / W`` (zero weights never
    drawn).

    The one sampler of non-integer frequency weights.  Up to
    :data:`ALIAS_DRAWS_PER_ROW` draws per row (plus one block), the alias
    method of this module (exact to :math:`2^{-62}`): its table is built
    here, once, and shared read-only by every call (threads included).
    Beyond (few rows of large weights), drawing every observation costs more
    than numpy's multinomial, one binomial per row, which is used instead.
    """
    n = int(w.shape[0])
    d = int(draws)
    if d > ALIAS_DRAWS_PER_ROW * n + BLOCK:
        prob = w / float(w.sum())
        prob.flags.writeable = False
        return lambda rng: rng.multinomial(d, prob).astype(np.float64)
    table = alias_table(w)
    return lambda rng: alias_counts(table, rng, d).astype(np.float64)
