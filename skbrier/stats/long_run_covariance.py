"""Long-run (HAC) covariance of column means, equal to R's ``sandwich::lrvar``."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from skbrier._core.kernels import hac as _hac
from skbrier._core.validation import _as_array

__all__ = ["long_run_covariance"]

_BANDWIDTH_RULES = {"andrews": "andrews", "neweywest": "newey-west"}
# the Andrews AR(1) fits need 3 lagged pairs for 2 coefficients: 4 rows
_MIN_ANDREWS_ROWS = 4


def _normalise_kernel(kernel: Any) -> str:
    if not isinstance(kernel, str):
        raise TypeError(f"kernel must be one of {sorted(_hac.KERNELS)}, got {kernel!r}.")
    key = kernel.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in _hac.KERNELS:
        raise ValueError(f"kernel must be one of {sorted(_hac.KERNELS)}, got {kernel!r}.")
    return key


def _normalise_bandwidth(bandwidth: Any) -> str | float:
    if isinstance(bandwidth, str):
        key = bandwidth.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
        if key not in _BANDWIDTH_RULES:
            raise ValueError(
                "bandwidth must be 'andrews', 'newey-west' or a positive number, "
                f"got {bandwidth!r}."
            )
        return _BANDWIDTH_RULES[key]
    if isinstance(bandwidth, (bool, np.bool_)) or not isinstance(bandwidth, numbers.Real):
        raise TypeError(
            "bandwidth must be 'andrews', 'newey-west' or a positive number, "
            f"got {bandwidth!r}."
        )
    value = float(bandwidth)
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"bandwidth must be a positive finite number, got {bandwidth!r}.")
    return value


def _check_x(x: Any) -> np.ndarray:
    """Validate ``x``; return it with the series in rows: (k, T), C-contiguous."""
    arr = _as_array(x, "x")
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"x must be a numeric array, got dtype {arr.dtype}.")
    if arr.ndim == 0:
        raise ValueError("x must be a 1-D or 2-D array, got a scalar.")
    if arr.ndim > 2:
        raise ValueError(f"x must be a 1-D or 2-D array, got shape {arr.shape}.")
    if arr.ndim == 1:
        arr = arr[:, None]
    n_obs, n_cols = arr.shape
    if n_cols == 0:
        raise ValueError("x has no columns.")
    if n_obs < 3:
        raise ValueError(
            f"x has {n_obs} observation(s); a long-run covariance needs at least 3."
        )
    xt = np.ascontiguousarray(arr.T, dtype=np.float64)
    lo = xt.min(axis=1)
    hi = xt.max(axis=1)
    if not (np.isfinite(lo).all() and np.isfinite(hi).all()):  # NaN propagates
        what = "NaN" if np.isnan(lo).any() else "infinity"
        raise ValueError(f"x contains {what}.")
    constant = np.flatnonzero(hi == lo)
    if constant.size:
        raise ValueError(
            f"x has constant column(s) {constant.tolist()}: their long-run variance is "
            "zero and the automatic bandwidth and prewhitening are undefined."
        )
    return xt


def long_run_covariance(
    x: Any,
    *,
    kernel: str = "quadratic_spectral",
    bandwidth: str | float = "andrews",
    prewhite: bool | int = True,
    adjust: bool = True,
) -> np.ndarray:
    r"""Heteroskedasticity and autocorrelation consistent covariance of column means.

    Estimates the covariance matrix of the column means of a (T, k) array of
    serially correlated observations, :math:`\operatorname{Var}(\bar x) \approx
    \Omega / T` with :math:`\Omega` the long-run covariance, by a kernel (HAC)
    estimator with automatic bandwidth and VAR prewhitening.  The result equals
    R's ``sandwich::lrvar(x, type = "Andrews", prewhite = TRUE, adjust = TRUE)``
    (sandwich 3.0-2) to rounding error, for every option below.

    Parameters
    ----------
    x : array-like of shape (T,) or (T, k)
        Observations in time order (rows), one series per column.  A 1-D array
        is one series.  Finite, no constant column, at least 3 rows; VAR(p)
        prewhitening needs more than :math:`p (k + 1)` rows and the Andrews
        bandwidth at least 4 rows after prewhitening, :math:`T - p \ge 4`
        (its AR(1) fits have two coefficients; R stops, or returns rounding
        noise or a number from an exact two-point fit, below these sizes; we
        raise a ``ValueError`` naming ``prewhite`` or ``x``).
    kernel : str, default="quadratic_spectral"
        One of ``"quadratic_spectral"``, ``"bartlett"``, ``"parzen"``,
        ``"truncated"``, ``"tukey_hanning"``: the kernel giving the weights of
        the autocovariances (R's ``kweights``; R's
        spellings such as ``"Quadratic Spectral"`` or ``"Tukey-Hanning"`` are
        accepted too).
    bandwidth : {"andrews", "newey-west"} or float, default="andrews"
        ``"andrews"``: Andrews (1991) plug-in bandwidth from univariate AR(1)
        fits of the (prewhitened) columns, as R's ``bwAndrews``.
        ``"newey-west"``: Newey and West (1994) nonparametric rule, as R's
        ``bwNeweyWest`` (kernels ``"bartlett"``, ``"parzen"``,
        ``"quadratic_spectral"`` only).  With ``kernel="bartlett"`` this is
        exactly ``lrvar(x, type = "Newey-West")``: lag
        :math:`m = \lfloor \hat b \rfloor` and weights :math:`1 - j / (m + 1)`.
        With the other two kernels it is ``kernHAC(lm(x ~ 1), bw = bwNeweyWest,
        kernel = ...)``.  Note: ``bandwidth="newey-west"`` with the default
        kernel is *not* R's ``type = "Newey-West"``; pass ``kernel="bartlett"``.  A positive number is used as the bandwidth :math:`b`
        itself (``kernHAC(..., bw = b)``).
    prewhite : bool or int, default=True
        Order :math:`p` of the VAR prewhitening (``True`` = 1, ``False`` = 0),
        Andrews and Monahan (1992).
    adjust : bool, default=True
        Multiply by the small-sample factor :math:`T / (T - k)`, as R does
        (:math:`k` is the number of columns).

    Returns
    -------
    ndarray of shape (k, k)
        Estimated covariance matrix of the column means (already divided by
        :math:`T`).  A 1-D ``x`` gives a (1, 1) array.

    Raises
    ------
    TypeError
        If ``kernel``, ``bandwidth``, ``prewhite`` or ``adjust`` has the wrong type.
    ValueError
        If ``x`` is not numeric, not 1-D or 2-D, has fewer than 3 rows, contains
        NaN or infinity or a constant column; if an option is unknown; if the
        prewhitening VAR is singular (collinear columns) or has a unit root,
        :math:`I - A` singular (R stops in these cases too: there is no
        fallback, choose ``prewhite=False``); if the automatic bandwidth is
        degenerate; if ``adjust=True`` and :math:`T \le k`.

    See Also
    --------
    scipy.stats.bootstrap : Resampling alternative (with a block bootstrap for
        serially correlated data).

    Notes
    -----
    With :math:`u_t = x_t - \bar x` and optional VAR(p) prewhitening
    :math:`u_t = \sum_{i=1}^p A_i u_{t-i} + e_t` (OLS without intercept,
    :math:`n = T - p` residuals :math:`e_t`; :math:`e_t = u_t`, :math:`n = T`
    without prewhitening), the estimate is

    .. math::

        \widehat{\operatorname{Var}}(\bar x) = \frac{1}{T^2}\,
        \frac{T}{T - k}\, D \Big( \sum_{j=0}^{L-1} w_j
        (\Gamma_j + \Gamma_j^\top) - w_0 \Gamma_0 \Big) D^\top, \qquad
        \Gamma_j = \sum_{t=1}^{n-j} e_t e_{t+j}^\top,

    with :math:`D = (I - \sum_i A_i)^{-1}` and kernel weights
    :math:`w_j = k(j / b)` for lags :math:`0, \dots, n - 1`, cut after the
    last :math:`|w_j| > 10^{-7}`.  The Andrews bandwidth is, e.g. for the
    quadratic-spectral kernel, :math:`b = 1.3221\,(n \alpha_2)^{1/5}` with
    :math:`\alpha_2 = \sum_a 4 \rho_a^2 \sigma_a^4 / (1 - \rho_a)^8 \,/\,
    \sum_a \sigma_a^4 / (1 - \rho_a)^4` from AR(1) fits
    :math:`(\rho_a, \sigma_a)` of each column of :math:`e` (with intercept;
    :math:`\sigma_a^2 = \mathrm{RSS}/(n - 1)`).  The division by :math:`T^2`
    although the sums run over :math:`n = T - p` rows, the factor
    :math:`T/(T-k)` and the AR(1) details follow R's sandwich exactly; the
    columns get equal weights in :math:`\alpha_2` (R's default for
    ``lm(x ~ 1)``), so the bandwidth depends on the relative scale of the
    columns but not on a common scale.  With prewhitening the result is
    symmetrised, :math:`(V + V^\top)/2` (R's is symmetric up to rounding).

    The weighted sum is computed with direct products for short weight
    vectors (O(T L)) and by FFT otherwise (O(T log T)); never O(T²).

    References
    ----------
    .. [1] Andrews, D. W. K. (1991). Heteroskedasticity and autocorrelation
       consistent covariance matrix estimation. *Econometrica* 59(3), 817-858.
    .. [2] Andrews, D. W. K. and Monahan, J. C. (1992). An improved
       heteroskedasticity and autocorrelation consistent covariance matrix
       estimator. *Econometrica* 60(4), 953-966.
    .. [3] Newey, W. K. and West, K. D. (1994). Automatic lag selection in
       covariance matrix estimation. *Review of Economic Studies* 61(4),
       631-653.
    .. [4] Zeileis, A. (2004). Econometric computing with HC and HAC covariance
       matrix estimators. *Journal of Statistical Software* 11(10), 1-17.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats.long_run_covariance import long_run_covariance
    >>> t = np.arange(1, 101)
    >>> x = np.column_stack([np.cos(t**2), np.cos(t**2) + np.sin(0.3 * t)])
    >>> long_run_covariance(x)  # R: lrvar(x) gives the same to 1e-15
    array([[0.00521367, 0.00219899],
           [0.00219899, 0.44058016]])
    >>> # R: lrvar(x[, 1], type = "Newey-West") = 0.0056850812761373819
    >>> long_run_covariance(x[:, 0], kernel="bartlett", bandwidth="newey-west")
    array([[0.00568508]])
    """
    arr = _check_x(x)
    kern = _normalise_kernel(kernel)
    bw = _normalise_bandwidth(bandwidth)
    if bw == "newey-west" and kern not in ("bartlett", "parzen", "quadratic_spectral"):
        raise ValueError(
            "bandwidth='newey-west' is only available for the 'bartlett', 'parzen' and "
            f"'quadratic_spectral' kernels, got kernel={kernel!r}."
        )
    if not isinstance(prewhite, (bool, np.bool_, numbers.Integral)):
        raise TypeError(
            f"prewhite must be a bool or a non-negative integer VAR order, got {prewhite!r}."
        )
    order = int(prewhite)
    if order < 0:
        raise ValueError(
            f"prewhite must be a bool or a non-negative integer VAR order, got {prewhite!r}."
        )
    if not isinstance(adjust, (bool, np.bool_)):
        raise TypeError(f"adjust must be a bool, got {adjust!r}.")
    n_cols, n_obs = arr.shape
    if order and n_obs - order <= n_cols * order:
        # With as many rows as VAR coefficients the fit is exact and the residuals
        # are zero: R returns rounding noise (~1e-32); we refuse.
        raise ValueError(
            f"prewhite={prewhite!r}: x has {n_obs} rows, too few for a VAR({order}) fit "
            f"of {n_cols} column(s) (needs more than {n_cols * order + order} rows)."
        )
    if bw == "andrews" and n_obs - order < _MIN_ANDREWS_ROWS:
        # the AR(1) fits (intercept and slope) of the Andrews bandwidth run on the
        # n - p - 1 lagged pairs: with fewer than 3 the fit is exact and the
        # bandwidth is not identified (R returns a number from a two-point fit)
        where = (
            f"prewhite={prewhite!r}: x has {n_obs} rows and {n_obs - order} remain after "
            f"VAR({order}) prewhitening"
            if order
            else f"x has {n_obs} rows"
        )
        raise ValueError(
            f"{where}; the AR(1) fit of bandwidth='andrews' needs at least "
            f"{_MIN_ANDREWS_ROWS} (prewhitened) rows to be identified. Use a lower "
            "prewhite order, a numeric bandwidth or more observations."
        )
    if adjust and n_obs <= n_cols:
        raise ValueError(
            f"x has {n_obs} rows and {n_cols} columns; adjust=True needs more rows than "
            "columns (factor T / (T - k))."
        )
    return _hac.lrvar(arr, kernel=kern, bandwidth=bw, prewhite=order, adjust=bool(adjust))
