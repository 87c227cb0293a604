"""Exact two-way fixed-effects solve of a forecaster x question panel (no checks here).

Model, on the rows of the fitted forecasters, with row weights ``v_ij`` (the
sample weight times the question's multiplicity ``c_j``)::

    b_ij = (p_ij - y_j)**2 = alpha_i + gamma_j + e_ij

Eliminating the question effects from the normal equations,
``gamma_j = bbar_j - sum_k (A_kj / W_j) alpha_k`` with ``A_kj = v_kj`` and
``W_j = sum_k A_kj``, leaves the forecaster x forecaster system

    (diag(A 1) - A diag(1 / W) A') alpha = r,   r_i = sum_j A_ij (b_ij - bbar_j),

whose matrix is the weighted Laplacian of the graph linking two forecasters
that answered a common question.  Its null space is spanned by the indicator
vectors of the connected components of the forecaster-question graph, so the
effects are identified (up to one common constant) exactly when the graph is
connected; the constant is fixed by a convention and removed by an anchor.
Grounding one forecaster (``alpha = 0``) leaves a symmetric positive
definite system, solved directly: no iterative solver, no tolerance.

A question answered by one fitted forecaster adds nothing to the system (its
``gamma`` fits that row exactly).  A question drawn ``c_j`` times by a
question bootstrap and treated as ``c_j`` distinct questions gives each copy
the same ``gamma`` (the copies have the same rows) and multiplies its terms in
the forecaster equations by ``c_j``: the solution equals the fit with that
question's rows weighted by ``c_j``.  Everything below is therefore linear in
the multiplicities ``c`` except the solve, and questions whose weight columns
are identical (the same forecasters with the same weights, as in benchmark
rounds where every active model answers every question) share one column of
the cross-product.  Replicates are cheap for another reason too
(:func:`solve_many`): a bootstrap Laplacian ``L_c`` stays close to the
full-sample one ``L_1`` once both are scaled by their degrees, so conjugate
gradients preconditioned with ``D_c^{-1/2} D_1^{1/2} L_1^{-1} D_1^{1/2}
D_c^{-1/2}`` (one Cholesky factor for all replicates) reach a relative
residual of 1e-14 in about ten steps of ``O(F Q)`` products shared by a chunk
of replicates, instead of an ``O(F^2 Q)`` rank-k update and a factorisation
per replicate.

Every forecaster's adjusted score is the weighted mean of its adjusted rows,
``sum_j c_j w_ij (b_ij - gamma_j) / sum_j c_j w_ij = ((R c)_i + (K alpha)_i) /
(Wall c)_i`` with ``R_ij = w_ij (b_ij - bbar_j)`` and ``K_ik = sum_j c_j w_ij
A_kj / W_j``; for a fitted forecaster it equals ``alpha_i`` (its residuals sum
to zero).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import scipy.linalg
import scipy.linalg.blas
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

__all__ = ["Panel", "PanelFit", "Structure", "build_structure", "solve", "solve_many"]

# a dense copy of the grouped weight columns is kept below this many entries
_DENSE_ENTRIES = 1 << 22
# above this many fitted forecasters the Laplacian is kept sparse
_DENSE_FORECASTERS = 3000
# solve_many: relative residual at which conjugate gradients stop, and their budget
_CG_TOL = 1e-14
_CG_MAXITER = 50


@dataclasses.dataclass
class Panel:
    """A validated long-format panel: integer codes, squared errors, weights."""

    f: np.ndarray  # forecaster code of each row (0 .. n_forecasters - 1)
    q: np.ndarray  # question code of each row (0 .. n_questions - 1)
    b: np.ndarray  # squared error of each row
    w: np.ndarray  # weight of each row (> 0)
    n_forecasters: int
    n_questions: int
    fitted: np.ndarray  # bool per forecaster: its rows enter the fit


@dataclasses.dataclass
class Structure:
    """What stays fixed between question-weightings of one panel."""

    panel: Panel
    fit_idx: np.ndarray  # codes of the fitted forecasters
    wall: sp.csr_matrix  # (n_all, n_q) row weights
    resid: sp.csr_matrix  # (n_all, n_q) w_ij (b_ij - bbar_j)
    sq: np.ndarray  # (n_q,) fitted sum of w b per question
    wq: np.ndarray  # (n_q,) fitted weight per question
    group: np.ndarray  # (n_q,) group of identical weight columns
    n_groups: int
    gall: sp.csc_matrix  # (n_all, G) the weight column of each group
    gfit: sp.csc_matrix  # (n_fit, G)
    wg: np.ndarray  # (G,) fitted weight of a group's column
    dense_all: np.ndarray | None  # dense gall (when small enough)
    dense_fit: np.ndarray | None
    # full-sample preconditioner of solve_many (computed on first use)
    precond: tuple[np.ndarray, np.ndarray] | None = None


@dataclasses.dataclass
class PanelFit:
    """Fitted effects for one weighting ``c`` of the questions."""

    scores: np.ndarray  # adjusted score per forecaster (nan: no row)
    alpha: np.ndarray  # forecaster effects (nan for unfitted forecasters)
    components: np.ndarray  # component label per fitted forecaster (-1: absent)
    n_components: int


def _column_groups(wall_csc: sp.csc_matrix) -> tuple[np.ndarray, int]:
    """Label questions so that equal labels mean identical weight columns (exact)."""
    n_q = wall_csc.shape[1]
    indptr, indices, data = wall_csc.indptr, wall_csc.indices, wall_csc.data
    lengths = np.diff(indptr)
    # two independent 64-bit hashes of (row, weight) pairs, then exact verification
    rng = np.random.default_rng(20240611)
    keys = rng.integers(1, 2**63 - 1, size=(2, wall_csc.shape[0]), dtype=np.int64)
    wbits = data.view(np.int64)
    with np.errstate(over="ignore"):
        h1 = keys[0][indices] * (wbits | 1)
        h2 = keys[1][indices] ^ (wbits * np.int64(0x9E3779B97F4A7C15 - 2**64))
    # every question has at least one row, so the column starts are distinct
    s1 = np.add.reduceat(h1, indptr[:-1])
    s2 = np.add.reduceat(h2, indptr[:-1])
    sig = np.stack([lengths.astype(np.int64), s1, s2], axis=1)
    _, first, group = np.unique(sig, axis=0, return_index=True, return_inverse=True)
    group = group.ravel()
    # verify: every question's column equals its group representative's
    rep = first[group]
    if np.array_equal(lengths, lengths[rep]):
        start_rep = np.repeat(indptr[rep], lengths)
        offs = np.arange(indices.shape[0]) - np.repeat(indptr[:-1], lengths)
        src = start_rep + offs
        if np.array_equal(indices, indices[src]) and np.array_equal(data, data[src]):
            return group.astype(np.intp), int(first.shape[0])
    return np.arange(n_q, dtype=np.intp), n_q  # pragma: no cover (hash collision)


def build_structure(panel: Panel) -> Structure:
    """Precompute the matrices of :func:`solve` for ``panel``."""
    n_all, n_q = panel.n_forecasters, panel.n_questions
    wall = sp.csr_matrix((panel.w, (panel.f, panel.q)), shape=(n_all, n_q))
    wall.sum_duplicates()
    wall.sort_indices()
    fit_idx = np.flatnonzero(panel.fitted)
    rowfit = panel.fitted[panel.f]
    wq = np.bincount(panel.q[rowfit], weights=panel.w[rowfit], minlength=n_q)
    sq = np.bincount(panel.q[rowfit], weights=(panel.w * panel.b)[rowfit], minlength=n_q)
    with np.errstate(invalid="ignore", divide="ignore"):
        bbar = np.where(wq > 0, sq / np.where(wq > 0, wq, 1.0), 0.0)
    resid = sp.csr_matrix(
        (panel.w * (panel.b - bbar[panel.q]), (panel.f, panel.q)), shape=(n_all, n_q)
    )
    wall_csc = wall.tocsc()
    wall_csc.sort_indices()
    group, n_groups = _column_groups(wall_csc)
    first = np.zeros(n_groups, dtype=np.intp)
    first[group[::-1]] = np.arange(n_q)[::-1]
    gall = wall_csc[:, first].tocsc()
    gfit = gall[fit_idx].tocsc()
    wg = wq[first]
    dense_all = dense_fit = None
    if n_all * n_groups <= _DENSE_ENTRIES:
        dense_all = gall.toarray()
        dense_fit = dense_all[fit_idx]
    return Structure(
        panel,
        fit_idx,
        wall,
        resid,
        sq,
        wq,
        group,
        n_groups,
        gall,
        gfit,
        wg,
        dense_all,
        dense_fit,
    )


def _laplacian(
    st: Structure, scale: np.ndarray, deg: np.ndarray
) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray | sp.csr_matrix]:
    """The forecaster Laplacian ``diag(deg) - Gfit diag(scale) Gfit'`` and its adjacency.

    Dense: only the upper triangles are computed (a symmetric rank-k update
    over the groups actually drawn) and only they are meaningful.
    """
    if st.dense_fit is not None:
        cols = np.flatnonzero(scale > 0)
        x = st.dense_fit[:, cols] * np.sqrt(scale[cols])
        if x.shape[1] == 0:
            c = np.zeros((x.shape[0], x.shape[0]))
        else:
            c = scipy.linalg.blas.dsyrk(1.0, x, lower=0)
        lap = -c
        lap[np.diag_indices_from(lap)] += deg
        return lap, c
    n_fit = st.fit_idx.shape[0]
    counts = np.diff(st.gfit.indptr).astype(np.float64)
    cols = np.flatnonzero(scale > 0)
    sparse_cost = float(np.dot(counts[cols], counts[cols]))
    if n_fit <= _DENSE_FORECASTERS and n_fit * n_fit * cols.shape[0] / 16.0 < sparse_cost:
        # dense symmetric rank-k updates over blocks of drawn groups (O(n_fit * block) memory)
        c = np.zeros((n_fit, n_fit))
        block = max(1, _DENSE_ENTRIES // max(n_fit, 1))
        root = np.sqrt(scale)
        for start in range(0, cols.shape[0], block):
            blk = cols[start : start + block]
            x = st.gfit[:, blk].toarray() * root[blk]
            c = scipy.linalg.blas.dsyrk(1.0, x, beta=1.0, c=c, lower=0, overwrite_c=1)
        lap = -c
        lap[np.diag_indices_from(lap)] += deg
        return lap, c
    k = sp.csr_matrix((st.gfit @ sp.diags(scale)) @ st.gfit.T)
    adj = sp.triu(k, 1, format="csr")
    lap_s = sp.csr_matrix(sp.diags(deg) - k)
    if st.fit_idx.shape[0] <= _DENSE_FORECASTERS:
        return np.asarray(lap_s.toarray()), adj
    return lap_s, adj


def _reaches_all(upper: np.ndarray, pidx: np.ndarray) -> bool:
    """Whether the present forecasters form one component (breadth-first, dense)."""
    if pidx.shape[0] <= 1:
        return True
    sub = upper[np.ix_(pidx, pidx)] > 0
    sub |= sub.T
    seen = np.zeros(pidx.shape[0], dtype=bool)
    seen[0] = True
    front = seen.copy()
    while front.any():
        new = sub[front].any(axis=0) & ~seen
        seen |= new
        front = new
    return bool(seen.all())


def _k_times(st: Structure, scale: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """``K alpha = Gall diag(scale) Gfit' alpha`` for every forecaster (two products)."""
    if st.dense_all is not None and st.dense_fit is not None:
        return st.dense_all @ (scale * (st.dense_fit.T @ alpha))
    return np.asarray(st.gall @ (scale * (st.gfit.T @ alpha)))


def solve(
    st: Structure,
    c: np.ndarray | None = None,
    *,
    rc: np.ndarray | None = None,
    den: np.ndarray | None = None,
) -> PanelFit:
    """Effects and adjusted scores for question multiplicities ``c`` (None: all 1).

    Scores are normalised so that the weighted mean question effect over the
    fitted rows is zero.  A disconnected graph (several components among the
    fitted forecasters that have rows) gives NaN scores and alphas; the
    components are returned so that the caller can name them.
    """
    n_q = st.panel.n_questions
    cq = np.ones(n_q) if c is None else np.asarray(c, dtype=np.float64)
    s = np.bincount(st.group, weights=cq, minlength=st.n_groups)
    den = st.wall @ cq if den is None else den
    n_all, fit_idx = st.panel.n_forecasters, st.fit_idx
    n_fit = fit_idx.shape[0]
    scale = np.where(s > 0, s / st.wg, 0.0)
    # fitted weight of each fitted forecaster
    deg = st.dense_fit @ s if st.dense_fit is not None else st.gfit @ s
    present = deg > 0
    lap, adj = _laplacian(st, scale, deg)
    pidx = np.flatnonzero(present)
    comps = np.full(n_fit, -1, dtype=np.intp)
    if isinstance(adj, np.ndarray) and _reaches_all(adj, pidx):
        n_comp = 1
        comps[pidx] = 0
    else:
        a = sp.triu(sp.csr_matrix(adj), 1, format="csr")
        n_comp, lab = connected_components(a[pidx][:, pidx], directed=False)
        comps[pidx] = lab
    alpha = np.full(n_fit, np.nan)
    scores = np.full(n_all, np.nan)
    if n_comp != 1:
        return PanelFit(scores, _embed(alpha, fit_idx, n_all), comps, int(n_comp))
    rc = st.resid @ cq if rc is None else rc
    r = rc[fit_idx]
    free = pidx[1:]
    alpha[:] = 0.0
    if free.size:
        sub = lap[free][:, free]
        if sp.issparse(sub):
            from scipy.sparse.linalg import spsolve

            alpha[free] = spsolve(sp.csc_matrix(sub), r[free])
        else:
            fac = scipy.linalg.cho_factor(sub, lower=False, check_finite=False)
            alpha[free] = scipy.linalg.cho_solve(fac, r[free], check_finite=False)
    num = rc + _k_times(st, scale, alpha)
    # normalisation: sum_j c_j W_j gamma_j = 0 over the fitted rows
    wtot = float(cq @ st.wq)
    delta = (float(cq @ st.sq) - float(alpha @ deg)) / wtot
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan) + delta
    alpha += delta
    alpha[~present] = np.nan
    return PanelFit(scores, _embed(alpha, fit_idx, n_all), comps, 1)


def _embed(alpha_fit: np.ndarray, fit_idx: np.ndarray, n_all: int) -> np.ndarray:
    out = np.full(n_all, np.nan)
    out[fit_idx] = alpha_fit
    return out


def question_effects(st: Structure, alpha: np.ndarray) -> np.ndarray:
    """``gamma_j = (S_j - sum_k A_kj alpha_k) / W_j`` for all-ones multiplicities."""
    afit = st.wall[st.fit_idx]
    a = np.nan_to_num(alpha[st.fit_idx])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (st.sq - afit.T @ a) / st.wq


def _preconditioner(st: Structure) -> tuple[np.ndarray, np.ndarray]:
    """Cholesky factor of the full-sample Laplacian (forecaster 0 grounded) and its degrees."""
    if st.precond is None:
        assert st.dense_fit is not None
        s = np.bincount(st.group, minlength=st.n_groups).astype(np.float64)
        scale = np.where(st.wg > 0, s / np.where(st.wg > 0, st.wg, 1.0), 0.0)
        deg = st.dense_fit @ s
        lap, _ = _laplacian(st, scale, deg)
        assert isinstance(lap, np.ndarray)
        lap = np.triu(lap[1:, 1:])
        chol = scipy.linalg.cholesky(lap, lower=False, check_finite=False)
        st.precond = (chol, deg[1:])
    return st.precond


def _all_reached(afit: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """Per column of ``drawn`` (groups x B, bool): whether the drawn questions link every
    fitted forecaster (breadth-first search from forecaster 0, all columns at once)."""
    n_fit, n_b = afit.shape[0], drawn.shape[1]
    seen = np.zeros((n_fit, n_b), dtype=np.float32)
    seen[0] = 1.0
    n_seen = np.ones(n_b)
    while True:
        qreach = ((afit.T @ seen) > 0) & drawn
        new = (afit @ qreach.astype(np.float32)) > 0
        seen = new.astype(np.float32)
        seen[0] = 1.0
        count = seen.sum(axis=0)
        if np.array_equal(count, n_seen):
            return np.asarray(count == n_fit)
        n_seen = count


def solve_many(
    st: Structure, cs: np.ndarray, rcs: np.ndarray, dens: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Adjusted scores ``(n_forecasters, B)`` for the multiplicity columns ``cs`` (n_q x B).

    The same numbers as :func:`solve` column by column (to ~1e-12), for many
    weightings at once: the forecaster system ``L_c alpha = r`` of each column
    is solved by conjugate gradients preconditioned with the full-sample
    Laplacian (its Cholesky factor, rescaled by the ratio of degrees), which
    replaces the ``O(F^2 Q)`` rank-k update of every replicate by a few
    ``O(F Q)`` products shared by the whole batch.  Columns that are not
    connected with every fitted forecaster present, or whose iteration does not
    reach the relative residual ``_CG_TOL``, are marked unsolved in the
    returned mask and left to :func:`solve` by the caller (``None``: this
    structure has no dense copy).  ``rcs`` and ``dens`` are ``R cs`` and
    ``Wall cs``.
    """
    if st.dense_fit is None or st.dense_all is None or st.fit_idx.shape[0] < 2:
        return None
    afit, aall = st.dense_fit, st.dense_all
    n_b = cs.shape[1]
    gsum = np.zeros((st.n_groups, n_b))
    np.add.at(gsum, st.group, cs)
    inv_wg = np.where(st.wg > 0, 1.0 / np.where(st.wg > 0, st.wg, 1.0), 0.0)
    scale = gsum * inv_wg[:, None]
    deg = afit @ gsum
    out = np.full((st.panel.n_forecasters, n_b), np.nan)
    ok = np.asarray((deg > 0).all(axis=0), dtype=bool)
    if ok.any():
        ok[ok] = _all_reached((afit > 0).astype(np.float32), (gsum > 0)[:, ok])
    if not ok.any():
        return out, ok
    scale, deg, cs, rcs, dens = scale[:, ok], deg[:, ok], cs[:, ok], rcs[:, ok], dens[:, ok]
    chol, deg0 = _preconditioner(st)
    dfree = deg[1:]
    pre = np.sqrt(deg0[:, None] / dfree)

    def lap_times(x: np.ndarray, cols: np.ndarray) -> np.ndarray:  # forecaster 0 grounded
        return dfree[:, cols] * x - afit[1:] @ (scale[:, cols] * (afit[1:].T @ x))

    def m_solve(x: np.ndarray, cols: np.ndarray) -> np.ndarray:
        z = scipy.linalg.solve_triangular(
            chol, pre[:, cols] * x, trans="T", check_finite=False
        )
        return pre[:, cols] * scipy.linalg.solve_triangular(chol, z, check_finite=False)

    rhs = rcs[st.fit_idx][1:]
    x = np.zeros_like(rhs)
    res = rhs.copy()
    every = np.arange(rhs.shape[1])
    z = m_solve(res, every)
    d = z.copy()
    rz = np.einsum("ij,ij->j", res, z)
    bnorm = np.sqrt(np.einsum("ij,ij->j", rhs, rhs))
    done = bnorm == 0
    for _ in range(_CG_MAXITER):
        act = np.flatnonzero(~done)
        if not act.size:
            break
        ld = lap_times(d[:, act], act)
        step = rz[act] / np.einsum("ij,ij->j", d[:, act], ld)
        x[:, act] += step * d[:, act]
        res[:, act] -= step * ld
        rn = np.sqrt(np.einsum("ij,ij->j", res[:, act], res[:, act]))
        conv = rn <= _CG_TOL * bnorm[act]
        za = m_solve(res[:, act], act)
        rz_new = np.einsum("ij,ij->j", res[:, act], za)
        d[:, act] = za + (rz_new / rz[act]) * d[:, act]
        rz[act] = rz_new
        done[act[conv]] = True
    alpha = np.vstack([np.zeros((1, x.shape[1])), x])
    num = rcs + aall @ (scale * (afit.T @ alpha))
    wtot = cs.T @ st.wq
    delta = (cs.T @ st.sq - np.einsum("ij,ij->j", alpha, deg)) / wtot
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.where(dens > 0, num / np.where(dens > 0, dens, 1.0), np.nan) + delta
    idx = np.flatnonzero(ok)
    out[:, idx] = scores
    ok[idx[~done]] = False
    return out, ok
