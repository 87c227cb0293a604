"""Block lengths of the block bootstraps: the default ``T^(1/3)`` rule, the
automatic one (Politis & White 2004, corrected 2009) and their checks."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from scipy import fft as sp_fft

from .._core.kernels.decomposition import pow2_exponent
from .._core.params import check_int

__all__ = ["default_block_length", "optimal_block_length"]


def _autocovariances(eps: np.ndarray, max_lag: int) -> np.ndarray:
    """``acv[i] = sum_t eps_t eps_{t+i} / n`` for ``i = 0..max_lag`` (via FFT)."""
    n = eps.shape[0]
    if max_lag < 64:
        return np.array([eps[i:] @ eps[: n - i] for i in range(max_lag + 1)]) / n
    size = sp_fft.next_fast_len(n + max_lag + 1, real=True)
    f = sp_fft.rfft(eps, size)
    acv = sp_fft.irfft(f * np.conj(f), size)[: max_lag + 1]
    return acv / n


def politis_white(x: np.ndarray) -> tuple[float, float]:
    """(stationary, circular) optimal block lengths of one series (validation-free).

    Follows ``arch.bootstrap.optimal_block_length`` (arch 8.0) step by step,
    with the autocovariances computed by FFT.
    """
    n = x.shape[0]
    # a power-of-two scale (exact): the block lengths do not depend on the
    # scale, and x * 1e-200 or x * 1e200 neither under- nor overflows here
    x = np.ldexp(x, pow2_exponent(np.abs(x)))
    eps = x - x.mean()
    b_max = float(np.ceil(min(3.0 * np.sqrt(n), n / 3.0)))
    kn = max(5, int(np.log10(n)))
    m_max = int(np.ceil(np.sqrt(n))) + kn  # <= n - 2 for n >= 11
    cv = 2.0 * np.sqrt(np.log10(n) / n)
    acv = _autocovariances(eps, m_max)
    if not acv[0] > 0.0:
        return 1.0, 1.0
    # |autocorrelations| normalised as arch does: sum eps^2 over t > i and t < n - i - 1
    csum = np.cumsum(eps * eps)
    lags = np.arange(m_max + 1)
    v1 = csum[-1] - csum[lags]
    v2 = csum[n - lags - 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        abs_acorr = np.abs(acv * n) / np.sqrt(v1 * v2)
    small = abs_acorr < cv
    # first j >= 0 with kn consecutive insignificant autocorrelations j .. j + kn - 1,
    # j + kn <= m_max
    run = np.convolve(small[:m_max].astype(np.int64), np.ones(kn, dtype=np.int64), "valid")
    hits = np.flatnonzero(run == kn)
    m = 2 * max(int(hits[0]), 1) if hits.size else m_max
    m = min(m, m_max)
    k = np.arange(1, m + 1)
    lam = np.where(k / m <= 0.5, 1.0, 2.0 * (1.0 - k / m))
    g = float(np.sum(2.0 * lam * k * acv[1 : m + 1]))
    lr = float(acv[0] + np.sum(2.0 * lam * acv[1 : m + 1]))
    if lr == 0.0:
        return b_max, b_max
    b_sb = (2.0 * g * g / (2.0 * lr * lr)) ** (1.0 / 3.0) * n ** (1.0 / 3.0)
    b_cb = (2.0 * g * g / (4.0 / 3.0 * lr * lr)) ** (1.0 / 3.0) * n ** (1.0 / 3.0)
    return min(b_sb, b_max), min(b_cb, b_max)


def optimal_block_length(x: Any) -> np.ndarray:
    r"""Politis-White automatic block lengths for the stationary and circular bootstraps.

    Parameters
    ----------
    x : array-like of shape (n_samples,) or (n_samples, n_series)
        Time series, one per column.

    Returns
    -------
    ndarray of shape (n_series, 2)
        Column 0: the estimated optimal mean block length of the stationary
        bootstrap; column 1: the block length of the circular (and moving)
        block bootstrap.  Not rounded; at most
        :math:`\lceil\min(3\sqrt n, n/3)\rceil`.

    Raises
    ------
    ValueError
        For NaN or infinite values, more than two dimensions, or fewer than
        16 observations.

    See Also
    --------
    skbrier.stats.bootstrap.block_bootstrap : uses it with ``block_length="auto"``.
    skbrier.stats.block_length.default_block_length : the simple ``T^(1/3)`` rule.

    Notes
    -----
    With autocovariances :math:`\hat\gamma_k` and the flat-top lag window
    :math:`\lambda(t) = \min(1, 2(1 - |t|))`,

    .. math::

        \hat G = \sum_{k=-M}^{M} \lambda(k/M) |k| \hat\gamma_k, \qquad
        \hat\sigma^2 = \sum_{k=-M}^{M} \lambda(k/M) \hat\gamma_k, \qquad
        b = \left(\frac{2 \hat G^2}{c\, \hat\sigma^4}\right)^{1/3} n^{1/3},

    with :math:`c = 2` (stationary) and :math:`4/3` (circular), following
    the correction of Patton, Politis & White (2009).  :math:`M = 2\hat m`
    where :math:`\hat m` is the first lag after which
    :math:`K_n = \max(5, \lfloor\log_{10} n\rfloor)` consecutive sample
    autocorrelations lie within :math:`\pm 2\sqrt{\log_{10}(n)/n}`.  The
    tuning constants and the normalisation of the autocorrelations are those
    of ``arch.bootstrap.optimal_block_length`` (arch 8.0), which this function
    reproduces; the autocovariances are computed by FFT, so the cost is
    O(n log n) instead of O(n^1.5).

    References
    ----------
    .. [1] D. N. Politis and H. White, "Automatic block-length selection for the
       dependent bootstrap", Econometric Reviews 23(1), 53-70, 2004.
    .. [2] A. Patton, D. N. Politis and H. White, "Correction to 'Automatic
       block-length selection for the dependent bootstrap'", Econometric
       Reviews 28(4), 372-375, 2009.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats.block_length import optimal_block_length
    >>> rng = np.random.default_rng(0)
    >>> e = rng.normal(size=2000)
    >>> x = np.empty(2000); x[0] = e[0]
    >>> for t in range(1, 2000):
    ...     x[t] = 0.7 * x[t - 1] + e[t]
    >>> b = optimal_block_length(x)
    >>> b.shape
    (1, 2)
    >>> bool(b[0, 0] > 5)
    True
    """
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"x must be a 1-D or 2-D array, got shape {arr.shape}.")
    if arr.shape[0] < 16:
        raise ValueError(
            f"x has {arr.shape[0]} observations; the automatic block length needs at least 16."
        )
    if not np.isfinite(arr).all():
        raise ValueError("x contains NaN or infinity.")
    return np.array([politis_white(arr[:, j]) for j in range(arr.shape[1])])


def default_block_length(n_samples: int) -> int:
    """Default block length ``max(1, round(T ** (1/3)))`` of the block bootstraps.

    ``T^(1/3)`` is the rate at which the MSE-optimal block length of the
    moving block and stationary bootstraps grows for variance and
    distribution estimation (Hall, Horowitz & Jing 1995; Politis & White
    2004).  The constant depends on the autocorrelation of the data; for
    strongly persistent series pass a longer ``block_length``.

    Parameters
    ----------
    n_samples : int
        Length ``T`` of the series, an integer of at least 1.

    Returns
    -------
    int
        The block length.

    See Also
    --------
    bootstrap_indices, block_bootstrap

    Examples
    --------
    >>> from skbrier.stats import default_block_length
    >>> default_block_length(200), default_block_length(1000)
    (6, 10)
    """
    n = check_int(n_samples, "n_samples", minimum=1)
    return max(1, round(n ** (1.0 / 3.0)))


def check_block_length(block_length: Any, n: int, scheme: str) -> float:
    if block_length is None:
        return float(default_block_length(n))
    if isinstance(block_length, (bool, np.bool_)) or not isinstance(
        block_length, numbers.Real
    ):
        raise TypeError(f"block_length must be a number, got {block_length!r}.")
    bl = float(block_length)
    if not (1.0 <= bl <= n):
        raise ValueError(
            f"block_length must lie in [1, n_samples={n}], got {block_length!r}."
        )
    if scheme in ("moving_block", "circular_block") and bl != int(bl):
        raise ValueError(
            f"block_length must be an integer for bootstrap={scheme!r}, got {block_length!r}."
        )
    return bl


def resolve_block_length(block_length: Any, series: np.ndarray, scheme: str) -> float:
    """Validated block length; ``"auto"``: Politis-White on the columns of ``series``.

    With several series the longest of their automatic block lengths is used;
    the moving and circular block schemes round it to an integer.
    """
    n = series.shape[0]
    if isinstance(block_length, str):
        if block_length != "auto":
            raise ValueError(
                f"block_length must be a number, None or 'auto', got {block_length!r}."
            )
        if scheme == "iid":
            return 1.0
        if n < 16:
            raise ValueError(
                f"block_length='auto' needs at least 16 observations, got {n}; pass a "
                "number."
            )
        b = optimal_block_length(series.reshape(n, -1))
        val = float(np.nanmax(b[:, 0 if scheme == "stationary" else 1]))
        if not np.isfinite(val):
            val = 1.0
        if scheme != "stationary":
            val = float(round(val))
        return min(max(val, 1.0), float(n))
    return check_block_length(block_length, n, scheme)
