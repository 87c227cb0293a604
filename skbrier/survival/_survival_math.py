"""Kernels of the time-to-event scores (validated float64 arrays, no checks).

Notation: ``time`` (n,), ``event`` (n,) of 0.0/1.0, ``weight`` (n,) frequency
weights, ``surv`` (n, K) predicted survival probabilities at the horizons
``times`` (K,).  ``W`` is the total weight.

Censoring survivor function (reverse Kaplan--Meier) at the distinct times
``u`` with weighted at-risk sums ``Y(u) = sum w 1(T >= u)``, events ``D(u)``
and censorings ``C(u)``::

    G(s) = prod_{u <= s} (1 - C(u) / (Y(u) - D(u)))

the events at ``u`` leaving the risk set before the censorings at ``u``, as
prodlim (``reverse = TRUE``, used by riskRegression and pec) and
scikit-survival (``kaplan_meier_estimator(reverse=True)``) both do.  The
influence function below, like riskRegression's C++ code, uses the full
risk set ``Y(u)`` in the censoring martingale.

IPCW Brier score at horizon ``t`` (Graf et al. 1999)::

    BS(t) = 1/W sum_i w_i [1(T_i <= t, d_i = 1) S_i(t)^2 / G(T_i- or T_i)
                           + 1(T_i > t) (1 - S_i(t))^2 / G(t)]

Influence function with the Kaplan--Meier censoring term (riskRegression's
``getInfluenceCurve.Brier`` with ``cens.model = "KaplanMeier"``), with
``r_j`` the weighted residual of subject ``j``, ``h(u) = W C(u) / Y(u)^2``,
``H(s) = sum_{u <= s} h(u)`` and
``f_i(s) = W (1 - d_i) 1(T_i <= s) / Y(T_i) - H(min(T_i, s))``::

    IF_i = r_i - BS + 1/W sum_j w_j r_j f_i(s_j),

``s_j = t`` for the controls (``T_j > t``) and ``s_j = T_j-`` for the cases.
Sums over the cases are cumulative sums in time order, so the whole
computation is ``O(n log n + n K)``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np

__all__ = [
    "InfluenceMoments",
    "KaplanMeier",
    "brier_influence_moments",
    "brier_residuals",
    "brier_scores",
    "kaplan_meier",
    "row_chunks",
    "search_sorted",
    "step_at",
]


class KaplanMeier(NamedTuple):
    """A Kaplan--Meier curve and the counts behind it (distinct times)."""

    times: np.ndarray  # distinct observed times, increasing
    surv: np.ndarray  # value right after each time (right-continuous)
    at_risk: np.ndarray  # weighted Y(u)
    events: np.ndarray  # weighted D(u)
    censored: np.ndarray  # weighted C(u)
    row_index: np.ndarray  # for each input row, the position of its time in ``times``


def _counts(
    time: np.ndarray, event: np.ndarray, weight: np.ndarray, *, row_index: bool = True
) -> tuple[np.ndarray, ...]:
    """(distinct times, Y, D, C, row index) with one sort of the times.

    ``row_index=False`` leaves the row index empty (one scatter less).
    """
    n = time.shape[0]
    order = np.argsort(time)
    ts = time.take(order)
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(ts[1:], ts[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    uniq = ts.take(starts)
    es = event.take(order)
    if n == 0:
        tot, ev = es, es
    elif weight.min() == 1.0 == weight.max():  # unit weights: counts need no gather
        tot = np.diff(np.append(starts, n)).astype(np.float64)
        ev = np.add.reduceat(es, starts)
    else:
        ws = weight.take(order)
        es *= ws
        tot = np.add.reduceat(ws, starts)
        ev = np.add.reduceat(es, starts)
    at_risk = tot[::-1].cumsum()[::-1]
    if row_index:
        group = np.cumsum(new, dtype=np.intp)
        group -= 1
        index = np.empty_like(group)
        index[order] = group
    else:
        index = np.empty(0, dtype=np.intp)
    return uniq, at_risk, ev, tot - ev, index


def kaplan_meier(
    time: np.ndarray,
    event: np.ndarray,
    weight: np.ndarray,
    *,
    reverse: bool = False,
    row_index: bool = True,
) -> KaplanMeier:
    """Kaplan--Meier curve of survival (or of censoring with ``reverse``).

    With ``reverse`` the events at a time leave the risk set before the
    censorings at that time (prodlim and scikit-survival).
    """
    uniq, at_risk, ev, cens, index = _counts(time, event, weight, row_index=row_index)
    jumps = cens if reverse else ev
    risk = at_risk - ev if reverse else at_risk
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(jumps > 0, jumps / np.where(risk > 0, risk, 1.0), 0.0)
    surv = np.cumprod(1.0 - ratio)
    return KaplanMeier(uniq, surv, at_risk, ev, cens, index)


def search_sorted(
    table: np.ndarray, x: np.ndarray, side: Literal["left", "right"] = "left"
) -> np.ndarray:
    """``np.searchsorted(table, x, side)`` for many unsorted non-NaN ``x`` (same result).

    A binary search per query mispredicts a branch at every step; for large
    ``x`` the answer is started from a bucket table (equal-width buckets,
    two per value of ``table``) and completed by a few vectorised steps, the
    queries of crowded buckets falling back to the binary search.
    """
    n_u, n = table.shape[0], x.shape[0]
    lo, hi = (float(table[0]), float(table[-1])) if n_u else (0.0, 0.0)
    n_b = 2 * n_u
    # a subnormal range has no finite bucket scale (Python floats: inf, no error)
    scale = n_b / (hi - lo) if hi > lo else np.inf
    if n < 8 * n_u or n_u < 2 or not 0.0 < scale < np.inf:
        return np.searchsorted(table, x, side=side)
    edges = lo + np.arange(n_b) / scale
    # lower bound of the answer: the count at the left edge of the previous bucket
    start = np.concatenate((np.zeros(1, np.intp), np.searchsorted(table, edges, side=side)))
    b = np.subtract(x, lo)
    b *= scale
    np.clip(b, 0.0, n_b - 1.0, out=b)
    pos = start.take(b.astype(np.intp))
    ext = np.append(table, np.inf)
    step = np.empty(n, dtype=bool)
    for _ in range(6):
        vals = ext.take(pos)
        if side == "right":
            np.less_equal(vals, x, out=step)
        else:
            np.less(vals, x, out=step)
        if not step.any():
            return pos
        pos += step
        np.minimum(pos, n_u, out=pos)
    rest = np.flatnonzero(step)
    pos[rest] = np.searchsorted(table, x[rest], side=side)
    return pos


def step_at(
    km: KaplanMeier, t: np.ndarray, *, left: bool = False, snap: float = 0.0
) -> np.ndarray:
    """The curve at ``t`` (``left=True``: its left limit ``S(t-)``); 1 before the first time.

    ``snap`` (with ``left=False``): a ``t`` that is not a time of the curve
    but less than ``snap`` below one is read at that time, as
    scikit-survival's ``SurvivalFunctionEstimator.predict_proba`` matches
    times within machine epsilon (``0.3`` is read at a time ``0.1 + 0.2``
    unless 0.3 is a time of the curve too).
    """
    pos = search_sorted(km.times, t, side="left" if left else "right") - 1
    if snap > 0.0 and not left:
        last = km.times.shape[0] - 1
        own = (pos >= 0) & (km.times[np.maximum(pos, 0)] == t)
        nxt = np.minimum(pos + 1, last)
        pos += ~own & (pos < last) & (km.times[nxt] - t < snap)
    values = np.concatenate(([1.0], km.surv))
    return values[pos + 1]


def inverse_censoring_weights(
    g_subject: np.ndarray, g_horizon: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``1 / G`` at the subjects' times and at the horizons (0 where G is 0)."""
    with np.errstate(divide="ignore"):
        inv_subject = np.where(g_subject > 0, 1.0 / g_subject, 0.0)
        inv_horizon = np.where(g_horizon > 0, 1.0 / g_horizon, 0.0)
    return inv_subject, inv_horizon


def brier_residuals(
    time: np.ndarray,
    event: np.ndarray,
    surv: np.ndarray,
    times: np.ndarray,
    g_subject: np.ndarray,
    g_horizon: np.ndarray,
) -> np.ndarray:
    """Per-subject IPCW residuals ``r_ik`` (n, K); the Brier score is their weighted mean.

    ``g_subject`` is G at each subject's own time (``T_i-`` or ``T_i``),
    ``g_horizon`` G at each horizon.  A zero G gives a zero residual (the
    caller decides whether that is allowed).  Rows are taken in blocks (the
    temporaries stay in cache; only the result is (n, K)).
    """
    inv_subject, inv_horizon = inverse_censoring_weights(g_subject, g_horizon)
    case_w = event * inv_subject
    n, k = surv.shape
    res = np.empty((n, k))
    for start in row_chunks(n, k):
        sl = slice(start, min(start + row_chunks(n, k).step, n))
        s = surv[sl]
        alive = time[sl, None] > times[None, :]
        out = res[sl]
        np.multiply(s, s, out=out)
        out *= case_w[sl, None]
        ctrl = 1.0 - s
        ctrl *= ctrl
        ctrl *= inv_horizon[None, :]
        np.copyto(out, ctrl, where=alive)
    return res


def row_chunks(n: int, k: int, target: int = 1 << 16) -> range:
    """Starts of row blocks of about ``target`` elements (cache-sized temporaries)."""
    return range(0, n, max(1024, target // max(k, 1)))


def brier_scores(
    time: np.ndarray,
    event: np.ndarray,
    weight: np.ndarray,
    surv: np.ndarray,
    times: np.ndarray,
    g_subject: np.ndarray,
    g_horizon: np.ndarray,
) -> np.ndarray:
    """The IPCW Brier scores (K,) without the residual matrix (the fast path).

    With ``y_ik = 1(T_i > t_k)`` and ``d_ik = (S_ik - y_ik)^2``:
    ``W BS_k = sum_i c_i d_ik - sum_i c_i y_ik d_ik + sum_i w_i y_ik d_ik / G(t_k)``
    where ``c_i = w_i d_i / G(T_i)`` is zero for the censored, so two
    matrix-vector products and one masked product give every horizon.  The
    rows are taken in blocks so that the temporaries stay in cache.
    """
    inv_subject, inv_horizon = inverse_censoring_weights(g_subject, g_horizon)
    case_w = weight * event * inv_subject
    n, k = surv.shape
    cases_all = np.zeros(k)
    ctrl = np.zeros((2, k))
    step = row_chunks(n, k).step
    alive = np.empty((min(step, n), k), dtype=bool)
    d = np.empty((min(step, n), k))
    pair = np.empty((2, min(step, n)))
    for start in range(0, n, step):
        stop = min(start + step, n)
        m = stop - start
        a, dd, pw = alive[:m], d[:m], pair[:, :m]
        np.greater(time[start:stop, None], times[None, :], out=a)
        np.subtract(surv[start:stop], a, out=dd)
        np.square(dd, out=dd)
        cases_all += case_w[start:stop] @ dd
        np.multiply(dd, a, out=dd)
        pw[0] = case_w[start:stop]
        pw[1] = weight[start:stop]
        ctrl += pw @ dd
    return (cases_all - ctrl[0] + ctrl[1] * inv_horizon) / weight.sum()


class InfluenceMoments(NamedTuple):
    """Brier scores and weighted moments of their influence functions.

    ``brier`` (M, K); ``s1`` (M, K) = ``sum_i w_i IF_mik / W``; ``s2``
    (M, M, K) = ``sum_i w_i IF_mik IF_m'ik / W``; ``total`` = ``W``.  The
    moments are means (weights scaled to sum to 1), so that no product of
    weights overflows or underflows whatever their scale.
    """

    brier: np.ndarray
    s1: np.ndarray
    s2: np.ndarray
    total: float

    def se(self, coef: np.ndarray) -> np.ndarray:
        """``sd(sum_m coef_m IF_m) / sqrt(W)`` per horizon (riskRegression's ``se``).

        ``coef`` (M, K): the coefficients of a linear combination of the
        influence functions (the delta method of a smooth function of the
        Brier scores).  The variance has divisor ``W - 1`` as R's ``sd``.
        """
        total = self.total
        if total <= 1:
            return np.full(self.brier.shape[1], np.nan)
        mean = np.einsum("mk,mk->k", coef, self.s1)
        second = np.einsum("mk,mjk,jk->k", coef, self.s2, coef)
        # var / W with var = W (second - mean^2) / (W - 1)
        return np.sqrt(np.maximum(second - mean * mean, 0.0) / (total - 1.0))


def brier_influence_moments(
    time: np.ndarray,
    event: np.ndarray,
    weight: np.ndarray,
    residuals: list[np.ndarray],
    times: np.ndarray,
    *,
    censoring_term: bool = True,
    combos: np.ndarray | None = None,
) -> InfluenceMoments:
    """Influence functions of the Brier scores of M models, riskRegression's formula.

    ``residuals`` are the (n, K) matrices of :func:`brier_residuals`.  The
    influence functions are formed block by block of rows and reduced at
    once to their weighted first and second moments (all a standard error
    needs), so no (n, K) matrix beyond the residuals is allocated.
    ``censoring_term=False`` is riskRegression's ``conservative = TRUE``
    (``IF_i = r_i - BS``, the censoring model treated as known).  The
    censoring model is the reverse Kaplan--Meier of the same data with
    events at risk at tied times.  ``combos`` (K, J) appends J columns: the
    linear combinations ``sum_k combos[k, j] BS_k`` across horizons (an
    integrated Brier score) and their influence functions, so that their
    standard errors carry the covariance between horizons.
    """
    w_total = float(weight.sum())
    # every formula below is invariant to the scale of the weights: they are
    # taken to sum to 1 (no overflow of W C(u) / Y(u)^2 with weights of 1e200)
    weight = weight / w_total
    n_mod = len(residuals)
    n, n_t = residuals[0].shape
    # einsum, not BLAS: a threaded matrix-vector product stalls on a busy machine
    bs = np.stack([np.einsum("i,ik->k", weight, r) for r in residuals])
    n_out = n_t + (0 if combos is None else combos.shape[1])
    if censoring_term:
        from scipy.sparse import csr_matrix

        uniq, at_risk, _, cens, index = _counts(time, event, weight)
        n_u = uniq.shape[0]
        with np.errstate(divide="ignore", invalid="ignore"):
            h = np.where(at_risk > 0, cens / at_risk / at_risk, 0.0)
            jump = np.where(at_risk > 0, 1.0 / at_risk, 0.0)
        cum_h = np.cumsum(h)
        cum_h_before = np.concatenate(([0.0], cum_h[:-1]))
        # f_i(T_i): own censoring jump minus the compensator up to T_i
        f_own = (1.0 - event) * jump[index] - cum_h[index]
        pos_t = np.searchsorted(uniq, times, side="right") - 1
        h_t = np.where(pos_t >= 0, cum_h[np.maximum(pos_t, 0)], 0.0)
        # (n_u, n) sparse sums over the rows at each distinct time, built as CSR directly
        rows = np.argsort(index, kind="stable")
        indptr = np.concatenate(([0], np.cumsum(np.bincount(index, minlength=n_u))))
        w_rows = weight[rows]
        sum_all = csr_matrix((w_rows, rows, indptr), shape=(n_u, n))
        sum_case = csr_matrix((w_rows * event[rows], rows, indptr), shape=(n_u, n))
        case_at = uniq[:, None] <= times[None, :]
        a_t, after, q_cum = [], [], []
        for r in residuals:
            by_all = np.asarray(sum_all @ r)  # weighted residuals per distinct time
            by_case = np.asarray(sum_case @ r) * case_at  # cases T_j <= t
            # controls: A_t f_i(t) where f_i(t) = f_i(T_i) if T_i <= t else -H(t)
            a_t.append(np.where(case_at, 0.0, by_all).sum(axis=0))
            # cases j: f_i(T_j-) = f_i(T_i) when T_j > T_i, else -H(T_j-)
            q_cum.append(np.cumsum(by_case * cum_h_before[:, None], axis=0))
            after.append(by_case[::-1].cumsum(axis=0)[::-1] - by_case)
    s1 = np.zeros((n_mod, n_out))
    s2 = np.zeros((n_mod, n_mod, n_out))
    step = row_chunks(n, n_t * (n_mod + 2)).step
    for start in range(0, n, step):
        sl = slice(start, min(start + step, n))
        w = weight[sl]
        blocks = []
        if censoring_term:
            fo = f_own[sl, None]
            f_t = np.where(time[sl, None] <= times[None, :], fo, -h_t[None, :])
            idx = index[sl]
        for m, r in enumerate(residuals):
            b = r[sl] - bs[m]
            if censoring_term:
                b += f_t * a_t[m]
                b += fo * after[m][idx]
                b -= q_cum[m][idx]
            if combos is not None:
                b = np.concatenate((b, np.einsum("ik,kj->ij", b, combos)), axis=1)
            blocks.append(b)
        for m in range(n_mod):
            s1[m] += w @ blocks[m]
            for j in range(m + 1):
                s2[m, j] += w @ (blocks[m] * blocks[j])
                s2[j, m] = s2[m, j]
    if combos is not None:
        bs = np.concatenate((bs, bs @ combos), axis=1)
    return InfluenceMoments(bs, s1, s2, w_total)
