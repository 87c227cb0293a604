"""R's ``loess`` with one predictor on validated arrays (no validation here).

A port of the parts of Cleveland, Grosse and Shyu's ``dloess`` (R's
``stats/src/loessf.f`` and ``loessc.c``, and ``simpleLoess`` /
``predLoess`` of ``loess.R``) that ``loess(y ~ x)`` runs with
``family = "gaussian"``:

Local fit (``ehg127``)
    At a point ``q`` the ``nf = floor(n span + 1e-5)`` nearest points get the
    tricube weights ``(1 - (d / rho)^3)^3`` (``rho`` the distance of the
    ``nf``-th nearest, times ``span`` when ``span > 1``) times the prior
    weights, and a weighted least-squares polynomial of ``degree`` in ``x -
    q`` is fitted by QR and a singular value decomposition with the
    pseudo-inverse cut at ``100 eps`` of the largest singular value.  Its
    constant is the fit at ``q``, its linear coefficient the slope.

``surface="direct"`` (``lowesf``)
    The local fit at every point asked for.

``surface="interpolate"`` (``lowesb``, ``lowese``; R's default)
    A k-d tree (``ehg126``, ``ehg124``): the bounding box widened by 0.5 %
    of the range, cells halved at the median (ties moved to the nearest
    distinct value) until a cell holds at most ``floor(n span cell)``
    points; the local fit (value and slope) at each vertex; cubic Hermite
    interpolation between the vertices (``ehg128``).  R returns NA outside
    the range of the data; so does :func:`loess_predict`.

Statistics (``statistics = "approximate"``)
    The trace of the operator ``trL`` exactly (``trace.hat = "exact"``; for
    the interpolated surface, the diagonal of the interpolation of the
    vertex operators, ``ehg139``); ``delta1`` and ``delta2`` by Cleveland's
    approximation from ``trL`` (``lowesa``, ``ehg141``, ``ehg176``);
    residual scale ``s = sqrt(sum w r^2 / delta1)``; the standard error of
    the fit at ``z`` is ``s sqrt(sum_j L_j(z)^2 / w_j)`` with ``L(z)`` the
    operator row (``predLoess(se = TRUE)``).  For the interpolated surface
    ``L(z)`` is the Hermite combination of the vertex operators, so the sum
    is a quadratic form in the four Hermite coefficients with the Gram
    matrix of the two vertices' operators: no ``n x n`` matrix is formed.

Frequency weights
    R's ``weights`` are prior weights: ``nf`` and the cell size count rows.
    Here every count (``n``, ``nf``, the cell sizes, the median of a cell,
    the ``n`` of ``lowesa``) is the total weight, so integer weights give
    exactly the loess of the repeated rows; unit weights give R's numbers.
"""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np

from .lowess import stable_argsort

__all__ = ["LoessFit", "hermite", "loess_fit", "loess_predict", "lowesa"]

_EPS = float(np.finfo(np.float64).eps)


# ---------------------------------------------------------------------------
# Hermite interpolation (ehg128, one dimension) and Cleveland's approximation
# ---------------------------------------------------------------------------
def _hermite_basis(h: np.ndarray) -> tuple[np.ndarray, ...]:
    """``phi0, phi1, psi0, psi1`` of ehg128 at ``h`` in [0, 1]."""
    one = 1.0 - h
    return (
        one * one * (1.0 + 2.0 * h),
        h * h * (3.0 - 2.0 * h),
        h * one * one,
        h * h * (h - 1.0),
    )


def _cells(vertices: np.ndarray, z: np.ndarray) -> np.ndarray:
    """The cell (between ``vertices[k]`` and ``vertices[k + 1]``) holding each
    ``z``: a point on a split goes to the lower cell, as ehg128 descends."""
    k = np.searchsorted(vertices, z, side="left") - 1
    return np.clip(k, 0, vertices.shape[0] - 2)


def hermite(
    vertices: np.ndarray, value: np.ndarray, slope: np.ndarray, z: np.ndarray
) -> np.ndarray:
    """Cubic Hermite interpolation of ``(value, slope)`` at the sorted
    ``vertices``, evaluated at ``z`` (ehg128 with ``d = 1``)."""
    k = _cells(vertices, z)
    lo, hi = vertices[k], vertices[k + 1]
    width = hi - lo
    phi0, phi1, psi0, psi1 = _hermite_basis((z - lo) / width)
    return (
        phi0 * value[k]
        + phi1 * value[k + 1]
        + (psi0 * slope[k] + psi1 * slope[k + 1]) * width
    )


#: ehg176's interpolation table (vertices, values, slopes)
_EHG176 = (
    np.array(
        [-5e-3, 0.1204, 0.2017, 0.2815, 0.3705, 0.4536, 0.5591, 0.7132, 0.8751, 1.005]
    ),
    np.array(
        [
            -9.0572e-2,
            9.5807e-2,
            2.6152e-2,
            -3.1926e-2,
            -5.3718e-2,
            -6.4170e-2,
            -5.8387e-2,
            -2.0636e-2,
            4.0172e-2,
            -1.0856e-2,
        ]
    ),
    np.array(
        [
            4.4844,
            -0.7978,
            -0.7286,
            -0.4457,
            -0.3495,
            3.2813e-2,
            0.1611,
            0.3350,
            -4.1032e-2,
            -0.7736,
        ]
    ),
)

#: ehg141's coefficients c(1..48)
_C141 = np.array(
    [.2971620, .3802660, .5886043, .4263766, .3346498, .6271053, .5241198, .3484836,
     .6687687, .6338795, .4076457, .7207693, .1611761, .3091323, .4401023, .2939609,
     .3580278, .5555741, .3972390, .4171278, .6293196, .4675173, .4699070, .6674802,
     .2848308, .2254512, .2914126, .5393624, .2517230, .3898970, .7603231, .2969113,
     .4740130, .9664956, .3629838, .5348889, .2075670, .2822574, .2369957, .3911566,
     .2981154, .3623232, .5508869, .3501989, .4371032, .7002667, .4291632, .4930370]
)  # fmt: skip


def _ehg141(trl: float, n: float, deg: int, k: int, d: int) -> tuple[int, float, float]:
    """``(dk, delta1, delta2)``: Cleveland's approximation of the look-up
    degrees of freedom of a local fit of degree ``deg`` from its ``trL``."""
    dk = {0: 1, 1: d + 1, 2: (d + 2) * (d + 1) // 2}[deg]
    if not (n > k and trl > 0.0):  # R computes NaN or infinity here
        return dk, math.nan, math.nan
    corx = math.sqrt(k / n)
    z = (math.sqrt(k / trl) - corx) / (1.0 - corx)
    z = min(1.0, max(0.0, z))
    v, val, slope = _EHG176
    c4 = math.exp(float(hermite(v, val, slope, np.array([z]))[0]))
    out = []
    for i in (
        1 + 3 * (min(d, 4) - 1 + 4 * (deg - 1)),
        25 + 3 * (min(d, 4) - 1 + 4 * (deg - 1)),
    ):
        c1, c2, c3 = _C141[i - 1 : i + 2]
        out.append(n - trl * math.exp(c1 * z**c2 * (1.0 - z) ** c3 * c4))
    return dk, out[0], out[1]


def lowesa(trl: float, n: float, d: int, tau: int) -> tuple[float, float]:
    """``(delta1, delta2)`` of R's ``lowesa``: ehg141 for degrees 1 and 2,
    interpolated at ``tau`` parameters."""
    dka, d1a, d2a = _ehg141(trl, n, 1, tau, d)
    dkb, d1b, d2b = _ehg141(trl, n, 2, tau, d)
    alpha = (tau - dka) / (dkb - dka)
    return (1.0 - alpha) * d1a + alpha * d1b, (1.0 - alpha) * d2a + alpha * d2b


# ---------------------------------------------------------------------------
# the local fit (ehg127)
# ---------------------------------------------------------------------------
class _Data(NamedTuple):
    x: np.ndarray  # sorted
    y: np.ndarray
    c: np.ndarray | None  # frequency weights (None: ones)
    cw: np.ndarray  # cumulative weights with a leading 0
    total: float
    nf: float
    span: float
    degree: int


def _radius(data: _Data, q: float) -> tuple[float, int, int]:
    """``(rho, lo, hi)``: the squared distance of the ``nf``-th nearest point
    of ``q`` (in the expanded sample), times ``span`` beyond 1, and the rows
    ``lo:hi`` within it."""
    x, cw = data.x, data.cw
    n = x.shape[0]
    m = int(np.searchsorted(x, q, side="left"))
    d_left = x[:m][::-1] - q
    d_left *= d_left  # non-decreasing
    d_right = x[m:] - q
    d_right *= d_right
    w_left = cw[m] - cw[m::-1][1:]  # weight of the k + 1 nearest on the left
    w_right = cw[m + 1 :] - cw[m]

    def count(t: float) -> float:
        a = int(np.searchsorted(d_left, t, side="right"))
        b = int(np.searchsorted(d_right, t, side="right"))
        return (w_left[a - 1] if a else 0.0) + (w_right[b - 1] if b else 0.0)

    def smallest(cand: np.ndarray) -> float:
        lo, hi = 0, cand.shape[0]
        while lo < hi:
            mid = (lo + hi) // 2
            if count(float(cand[mid])) >= data.nf:
                hi = mid
            else:
                lo = mid + 1
        return float(cand[lo]) if lo < cand.shape[0] else math.inf

    rho = min(smallest(d_left), smallest(d_right))
    rho *= max(1.0, data.span)
    a = int(np.searchsorted(d_left, rho, side="right"))
    b = int(np.searchsorted(d_right, rho, side="right"))
    return rho, m - a, min(n, m + b)


#: windows above this many rows are factorised by CholeskyQR2 (a few passes
#: over the rows) instead of Householder QR
_CHOLQR_MIN = 4096


def _combine(M: np.ndarray, Bt: np.ndarray) -> np.ndarray:
    """``M @ Bt`` for a short-wide ``Bt`` (a few contiguous rows), row by row:
    BLAS products with 2 or 3 rows are slow on busy, threaded machines."""
    out = np.empty((M.shape[0], Bt.shape[1]))
    for j in range(M.shape[0]):
        row = out[j]
        np.multiply(Bt[0], M[j, 0], out=row)
        for i in range(1, M.shape[1]):
            row += M[j, i] * Bt[i]
    return out


def _qr_t(Bt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(Q', R)`` of the thin QR of ``B = Bt'`` (equilibrated columns).  Long
    windows use CholeskyQR2 (two Cholesky passes: orthogonal to rounding
    error while the condition number stays below about 1e7); Householder QR
    otherwise and whenever a Cholesky factor fails."""
    if Bt.shape[1] >= _CHOLQR_MIN:
        try:
            Qt, R = Bt, np.eye(Bt.shape[0])
            for _ in range(2):
                Rk = np.linalg.cholesky(Qt @ Qt.T).T
                Qt = _combine(np.linalg.inv(Rk).T, Qt)
                R = Rk @ R
            if np.all(np.isfinite(R)) and np.linalg.cond(R) < 1e7:
                return Qt, R
        except np.linalg.LinAlgError:
            pass
    Q, R = np.linalg.qr(Bt.T)
    k = Bt.shape[0]
    if R.shape[0] < k:  # fewer points than parameters: zero rows, cut by the pseudo-inverse
        pad = k - R.shape[0]
        return (
            np.vstack([Q.T, np.zeros((pad, Q.shape[0]))]),
            np.vstack([R, np.zeros((pad, k))]),
        )
    return np.ascontiguousarray(Q.T), R


def _local(
    data: _Data, q: float, rows: bool
) -> tuple[np.ndarray, int, int, np.ndarray | None]:
    """The local fit at ``q``: ``(coef, lo, hi, L)`` with ``coef`` the value
    and the slope at ``q`` and ``L`` (2, hi - lo) their operator over
    ``y[lo:hi]`` (when ``rows``)."""
    rho, lo, hi = _radius(data, q)
    if not rho > 0.0:  # R's loesswarn(120), and NaN
        warnings.warn(
            f"the local fit of loess at {q:.4g} has a zero-width neighbourhood (its "
            f"{data.nf:.4g} nearest points are tied): increase span; the fit is NaN.",
            RuntimeWarning,
            stacklevel=4,
        )
        nan_rows = np.full((2, hi - lo), np.nan) if rows else None
        return np.full(2, np.nan), lo, hi, nan_rows
    dx = data.x[lo:hi] - q
    r = np.sqrt(dx * dx / rho)
    t = 1.0 - r * r * r
    tri = t * t * t
    if data.c is not None:
        tri = data.c[lo:hi] * tri
    w = np.sqrt(np.maximum(tri, 0.0))
    Bt = np.empty((data.degree + 1, w.shape[0]))  # the design, transposed
    Bt[0] = w
    np.multiply(w, dx, out=Bt[1])
    if data.degree == 2:
        np.multiply(Bt[1], dx, out=Bt[2])
    colnor = np.sqrt(np.array([np.dot(b, b) for b in Bt]))
    colnor[~(colnor > 0.0)] = 1.0
    Bt /= colnor[:, None]
    Qt, R = _qr_t(Bt)
    U, S, Vt = np.linalg.svd(R)
    inv = np.where(S > S[0] * (100.0 * _EPS), 1.0 / np.where(S > 0.0, S, 1.0), 0.0)
    # coefficients = diag(1 / colnor) V diag(inv) U' Q' (w y)
    A = (Vt.T[:2] * inv) @ U.T / colnor[:2, None]  # (2, k)
    wy = w * data.y[lo:hi]
    coef = A @ np.array([np.dot(qt, wy) for qt in Qt])
    L = _combine(A, Qt) * w if rows else None
    return coef, lo, hi, L


def _rows(fit: tuple) -> np.ndarray:
    """The operator rows of a local fit made with ``rows=True``."""
    L = fit[3]
    assert L is not None
    return L


# ---------------------------------------------------------------------------
# the k-d tree of the interpolated surface (ehg126, ehg124)
# ---------------------------------------------------------------------------
def _split(vb: np.ndarray, m: float, first: float, last: float) -> float:
    """The median position ``m`` of the cell ``[first, last]`` moved to the nearest
    change of value, as ehg124 searches it (offsets 0, 1, -1, 2, -2, ...
    until positions ``m + o`` and ``m + o + 1`` hold different values, or
    until ``m + o`` leaves ``[first, last)``: then ``m`` stays).  ``vb``: the sorted
    positions after which the value changes; computed from them, not by
    stepping (positions are total weights, which may be huge)."""
    j = int(np.searchsorted(vb, m, side="left"))
    events = []  # (order of the visit, position or None)
    if j < vb.shape[0]:
        d = math.floor(vb[j] - m)
        if m + d < last:
            events.append((0 if d == 0 else 2 * d - 1, m + d))
    if j > 0:
        d = math.ceil(m - vb[j - 1])
        if m - d >= first:
            events.append((2 * d, m - d))
    k = last - m  # the first offset to the right out of the cell
    events.append((0 if k <= 0 else 2 * math.ceil(k) - 1, None))
    events.append((2 * (m - first + 1), None))
    pos = min(events, key=lambda e: (e[0], e[1] is None))[1]
    return m if pos is None else pos


def _vertices(data: _Data, cell: float) -> np.ndarray:
    """The sorted vertices of R's k-d tree in one dimension."""
    x, cw = data.x, data.cw[1:]
    alpha, beta = float(x[0]), float(x[-1])
    mu = 0.005 * max(beta - alpha, 1e-10 * max(abs(alpha), abs(beta)) + 1e-30)
    fc = math.floor(data.total * data.span * cell)
    cap = max(200.0, data.total)
    vb = cw[:-1][x[1:] != x[:-1]]

    def val(k: float) -> float:  # the value at expanded position k (1-based)
        return float(x[min(int(np.searchsorted(cw, k, side="left")), x.shape[0] - 1)])

    verts = [alpha - mu, beta + mu]
    cells = [(1.0, data.total, alpha - mu, beta + mu)]
    p = 0
    while p < len(cells):
        first, last, vlo, vhi = cells[p]
        p += 1
        if (last - first) + 1 <= fc or vhi - vlo <= 0.0:
            continue
        if cap < len(cells) + 2 or cap < len(verts) + 1:
            continue
        m = _split(vb, float(math.floor((first + last) / 2.0)), first, last)
        xi = val(m)
        if xi == vlo or xi == vhi:
            continue
        if xi not in verts:
            verts.append(xi)
        cells.append((first, m, vlo, xi))
        cells.append((m + 1.0, last, xi, vhi))
    return np.array(sorted(verts))


# ---------------------------------------------------------------------------
# fit and prediction
# ---------------------------------------------------------------------------
class LoessFit(NamedTuple):
    """A loess fit (see the module docstring); users read it through
    :func:`loess_predict`."""

    data: _Data
    surface: str
    vertices: np.ndarray | None
    value: np.ndarray | None
    slope: np.ndarray | None
    gram: np.ndarray | None  # (n_cells, 4, 4): Gram matrices of the vertex operators
    fitted: np.ndarray  # at the sorted x
    trace_hat: float
    one_delta: float
    two_delta: float
    s: float

    @property
    def enp(self) -> float:
        """Equivalent number of parameters, ``delta1 + 2 trL - n`` (R's ``enp``)."""
        return self.one_delta + 2.0 * self.trace_hat - self.data.total


def _prepare(x, y, w, span, degree) -> _Data:
    order = stable_argsort(x)
    xs, ys = x[order], y[order]
    cs = None if w is None else w[order]
    cw = np.concatenate([[0.0], np.cumsum(np.ones_like(xs) if cs is None else cs)])
    total = float(cw[-1])
    nf = min(total, math.floor(total * span + 1e-5))
    return _Data(xs, ys, cs, cw, total, float(nf), float(span), int(degree))


def loess_fit(
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray | None,
    *,
    span: float = 0.75,
    degree: int = 2,
    surface: str = "interpolate",
    cell: float = 0.2,
    statistics: bool = True,
) -> LoessFit:
    """R's ``loess(y ~ x, weights = w, span, degree, control =
    loess.control(surface))`` (``family = "gaussian"``).

    ``w``: frequency weights (positive; see the module docstring).
    ``statistics=False`` skips the operator (trace, residual scale and
    standard errors): the fitted values only, as a bootstrap refit needs.
    """
    data = _prepare(x, y, w, span, degree)
    if not data.nf > 0:
        raise ValueError(f"span={span:.4g} is too small: no point in a local fit.")
    if degree + 1 > data.nf - 1:  # R's loesswarn(104)
        warnings.warn(
            f"span={span:.4g} is too small: {data.nf:.4g} points in each local fit, "
            f"fewer than a local polynomial of degree {degree} needs (as R, the "
            "pseudo-inverse is used).",
            RuntimeWarning,
            stacklevel=3,
        )
    n = data.x.shape[0]
    if surface == "direct":
        fits = [_local(data, float(q), statistics) for q in data.x]
        fitted = np.array([f[0][0] for f in fits])
        vertices = value = slope = gram = None
        if statistics:
            diag = np.array([_rows(f)[0][i - f[1]] for i, f in enumerate(fits)])
    else:
        vertices = _vertices(data, cell)
        local = [_local(data, float(v), statistics) for v in vertices]
        value = np.array([f[0][0] for f in local])
        slope = np.array([f[0][1] for f in local])
        fitted = hermite(vertices, value, slope, data.x)
        gram = None
        if statistics:
            diag, gram = _interpolated_operator(data, vertices, local)
    if not statistics:
        return LoessFit(
            data, surface, vertices, value, slope, None, fitted, *(math.nan,) * 4
        )
    trl = float(diag[::-1].sum())
    tau = degree + 1  # (d + 1) or (d + 2)(d + 1) / 2 with d = 1
    if abs(trl - tau) <= 1e-10 * tau:
        # a global polynomial (trL = tau): Cleveland's approximation has an
        # infinite slope there, so rounding of trL would move delta1 by 1e-8
        trl = float(tau)
    one_delta, two_delta = lowesa(trl, data.total, 1, tau)
    r = data.y - fitted
    rss = float(np.dot(r, r)) if data.c is None else float(np.dot(data.c * r, r))
    s = math.sqrt(rss / one_delta) if one_delta > 0.0 else math.nan
    del n
    return LoessFit(
        data, surface, vertices, value, slope, gram, fitted, trl, one_delta, two_delta, s
    )


def _interpolated_operator(
    data: _Data, vertices: np.ndarray, local: list
) -> tuple[np.ndarray, np.ndarray]:
    """The diagonal of the interpolated operator at the data and the Gram
    matrices ``M diag(1 / w) M'`` of ``M = [L0_lo, L0_hi, L1_lo, L1_hi]`` per
    cell (the vertex operators: value rows L0, slope rows L1)."""
    x = data.x
    n = x.shape[0]
    inv_c = None if data.c is None else 1.0 / data.c
    diag = np.zeros(n)
    k = _cells(vertices, x)
    gram = np.empty((vertices.shape[0] - 1, 4, 4))
    for j in range(vertices.shape[0] - 1):
        (_, lo0, hi0, L0), (_, lo1, hi1, L1) = local[j], local[j + 1]
        a, b = min(lo0, lo1), max(hi0, hi1)
        M = np.zeros((4, b - a))
        M[0, lo0 - a : hi0 - a] = L0[0]
        M[1, lo1 - a : hi1 - a] = L1[0]
        M[2, lo0 - a : hi0 - a] = L0[1]
        M[3, lo1 - a : hi1 - a] = L1[1]
        Mw = M if inv_c is None else M * inv_c[a:b]
        gram[j] = Mw @ M.T
        rows = np.flatnonzero(k == j)
        if rows.shape[0]:
            width = vertices[j + 1] - vertices[j]
            phi0, phi1, psi0, psi1 = _hermite_basis((x[rows] - vertices[j]) / width)
            cols = rows - a
            diag[rows] = (
                phi0 * M[0, cols]
                + phi1 * M[1, cols]
                + (psi0 * M[2, cols] + psi1 * M[3, cols]) * width
            )
    return diag, gram


def loess_predict(
    fit: LoessFit, z: np.ndarray, *, se: bool = False
) -> tuple[np.ndarray, np.ndarray | None]:
    """R's ``predict(fit, newdata, se)``: the fit at ``z`` and its standard
    error (NaN outside the range of the data for the interpolated surface)."""
    data = fit.data
    z = np.asarray(z, dtype=np.float64)
    if fit.surface == "direct":
        out = [_local(data, float(q), se) for q in z]
        val = np.array([f[0][0] for f in out])
        if not se:
            return val, None
        inv_c = None if data.c is None else 1.0 / data.c
        ss = np.array(
            [
                np.dot(
                    _rows(f)[0],
                    _rows(f)[0] * (1.0 if inv_c is None else inv_c[f[1] : f[2]]),
                )
                for f in out
            ]
        )
        return val, fit.s * np.sqrt(ss)
    assert fit.vertices is not None and fit.value is not None and fit.slope is not None
    inside = (z >= data.x[0]) & (z <= data.x[-1])
    val = np.full(z.shape, np.nan)
    val[inside] = hermite(fit.vertices, fit.value, fit.slope, z[inside])
    if not se:
        return val, None
    if fit.gram is None:
        raise ValueError("the fit was made without statistics=True.")
    err = np.full(z.shape, np.nan)
    zi = z[inside]
    k = _cells(fit.vertices, zi)
    width = fit.vertices[k + 1] - fit.vertices[k]
    phi0, phi1, psi0, psi1 = _hermite_basis((zi - fit.vertices[k]) / width)
    coef = np.column_stack([phi0, phi1, psi0 * width, psi1 * width])
    quad = np.einsum("ij,ijk,ik->i", coef, fit.gram[k], coef)
    err[inside] = fit.s * np.sqrt(np.maximum(quad, 0.0))
    return val, err
