"""Paired comparison of two probability forecasters by their Brier scores.

The Diebold-Mariano (1995) test on the loss differential
``d_t = (Z_t - Pa_t)^2 - (Z_t - Pb_t)^2`` with a HAC (long-run) variance,
optionally with the small-sample correction of Harvey, Leybourne & Newbold
(1997); an iid variant; and a bootstrap variant for any resampling scheme.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import norm
from scipy.stats import t as student_t

from .._core.diagnose import one_warning_per_call
from .._core.dispatch import HOST, backends
from .._core.kernels.brier import check_differential_varies, comparison_fields
from .._core.kernels.moments import (
    brier_losses,
    iid_mean_covariance,
    replicate_std,
    weighted_column_means,
)
from .._core.params import (
    DEFAULT_N_RESAMPLES,
    check_bool,
    check_int,
    check_option,
)
from .._core.validation import check_forecast, check_probabilities
from . import bootstrap as _bs
from ._compare_result import BrierComparisonResult
from .inference import (
    CovType,
    check_inference_options,
    check_resampling,
    check_weighted_samples,
    drop_zero_weight_rows,
    hac_mean_covariance,
)

__all__ = ["BrierComparisonResult", "compare_brier"]

_ALTERNATIVES = ("two-sided", "less", "greater")


def _pvalue(stat: float, alternative: str, df: float | None) -> float:
    dist = norm if df is None else student_t(df)
    if alternative == "two-sided":
        return float(2.0 * dist.sf(abs(stat)))
    if alternative == "less":
        return float(dist.cdf(stat))
    return float(dist.sf(stat))


def _check_lead_time(lead_time: Any, n: int) -> int:
    lead_time = check_int(lead_time, "lead_time")
    if not (1 <= lead_time < n):
        raise ValueError(f"lead_time must lie in [1, n_samples), got {lead_time}.")
    return lead_time


def check_compare_options(
    cov_type: Any,
    hac_kwds: Any,
    alternative: Any,
    small_sample_correction: Any,
    ddof: Any,
    n_resamples: Any,
    n_jobs: Any,
    random_state: Any,
    bootstrap: Any = "iid",
    block_length: Any = None,
) -> tuple[CovType, dict, bool, int, int, int | None]:
    """The checked options of :func:`compare_brier` (every one up front, also
    those only used by the bootstrap, on every backend)."""
    cov_type, hac_kwds, b, n_jobs = check_inference_options(
        cov_type, hac_kwds, n_resamples, n_jobs, random_state, bootstrap, block_length
    )
    check_option(alternative, "alternative", _ALTERNATIVES)
    small_sample_correction = check_bool(small_sample_correction, "small_sample_correction")
    ddof = check_int(ddof, "ddof", minimum=0, maximum=1)
    return cov_type, hac_kwds, small_sample_correction, ddof, b, n_jobs


@one_warning_per_call
@backends(
    arrays=("y_true", "y_proba_a", "y_proba_b", "sample_weight"),
    namespace_of="y_proba_a",
    dask="skbrier._backends._dask._adapters:compare_brier",
    array_api=HOST,
)
def compare_brier(
    y_true: ArrayLike,
    y_proba_a: ArrayLike | Mapping[str, ArrayLike],
    y_proba_b: ArrayLike | None = None,
    *,
    names: Sequence[str] | None = None,
    cov_type: Literal["iid", "hac", "bootstrap"] = "iid",
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    alternative: Literal["two-sided", "less", "greater"] = "two-sided",
    small_sample_correction: bool = False,
    lead_time: int = 1,
    ddof: int = 1,
    hac_kwds: dict | None = None,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    bootstrap: Literal["iid", "moving_block", "circular_block", "stationary"] = "iid",
    block_length: float | Literal["auto"] | None = None,
    method: Literal["percentile", "basic", "bca"] = "percentile",
    random_state: Any = None,
    n_jobs: int | None = None,
) -> BrierComparisonResult:
    r"""Compare two forecasters of the same outcomes: difference of Brier scores and test.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Outcomes, in time order for ``cov_type="hac"`` and block bootstraps.
    y_proba_a : array-like of shape (n_samples,) or (n_samples, n_classes), or dict
        Probabilities of the first forecaster, or ``{name_a: proba_a,
        name_b: proba_b}`` (a dict or a two-column DataFrame) with
        ``y_proba_b`` omitted: the keys are the names.
    y_proba_b : array-like of shape (n_samples,) or (n_samples, n_classes), default=None
        Probabilities of the second forecaster (same shape as the first).
    names : sequence of two str, default=None
        Names of the two forecasters in the summary and the verdict
        (default: the dict keys, else ``("a", "b")``).
    cov_type : {"iid", "hac", "bootstrap"}, default="iid"
        Variance of the mean loss differential: ``"iid"`` ``var(d) / T``
        (rows of a test set: independent), ``"hac"`` the long-run variance
        (time series: the Diebold-Mariano test; R ``sandwich::lrvar(d)`` by
        default), ``"bootstrap"`` resampling.  The default is that of
        :func:`~skbrier.stats.brier_inference` (it was ``"hac"`` before
        skbrier 0.3: pass ``cov_type="hac"`` for forecasts in time order).
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the Brier scores, as in
        :func:`skbrier.stats.brier_inference`: frequency weights for
        ``"iid"`` and the iid bootstrap (integer weights equal repeated rows,
        zero-weight rows equal removed rows), weights of time points for
        ``"hac"`` and the block bootstraps.
    labels : array-like, default=None
        Classes of the columns of 2-D probabilities.
    pos_label : int, float, bool or str, default=None
        Class whose probability 1-D inputs hold.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"less"``: ``a`` has the lower (better) expected Brier score.
    small_sample_correction : bool, default=False
        Harvey-Leybourne-Newbold: multiply the statistic by
        :math:`\sqrt{(T + 1 - 2h + h(h-1)/T)/T}` and use Student t with
        :math:`T - 1` degrees of freedom (``cov_type`` "hac" or "iid"; with
        frequency weights and ``"iid"``, :math:`T` is the total weight).
    lead_time : int, default=1
        Forecast lead time ``h`` of the HLN factor: the forecasts are made
        ``h`` steps ahead (R ``forecast::dm.test``'s ``h``; ``horizon`` is a
        survival time point in skbrier).
    ddof : {1, 0}, default=1
        ``cov_type="iid"`` only: the variance of the loss differential
        divides by ``T - ddof`` (by ``W - ddof`` with frequency weights).
        ``1`` is the unbiased sample variance (R's ``var``); ``0`` divides by
        ``T`` as ``forecast::dm.test`` does (see Notes).
    hac_kwds : dict, default=None
        Options of :func:`skbrier.stats.long_run_covariance` for
        ``cov_type="hac"`` (refused with another ``cov_type``).
    n_resamples, bootstrap, block_length, method, random_state, n_jobs
        Bootstrap options, as in :func:`skbrier.stats.brier_inference`
        (default scheme ``"iid"``, as there; use a block scheme for time
        series; ``block_length="auto"`` applies Politis-White to the loss
        differential).

    Returns
    -------
    BrierComparisonResult
        ``difference``, ``standard_error``, ``statistic``, ``pvalue``,
        ``brier_index_difference``, ``better``, ``verdict``,
        ``confidence_interval(metric=...)``, ``summary()`` and ``to_frame()``.

    Raises
    ------
    ValueError
        Invalid inputs, shapes that differ, fewer than 3 observations, a
        constant loss differential (identical forecasters), unknown options.

    See Also
    --------
    skbrier.stats.brier_inference : interval for one forecaster.

    Notes
    -----
    With :math:`d_t = \ell_a(t) - \ell_b(t)` the per-sample Brier loss
    differential, :math:`\bar d` = BS_a - BS_b and the Diebold-Mariano
    statistic is :math:`\bar d / \sqrt{\hat\sigma^2_{\bar d}}`, asymptotically
    standard normal under equal expected scores.  With the HAC variance this
    is the test of Diebold & Mariano (1995) (with Andrews' automatic
    bandwidth instead of a truncation at ``h - 1`` lags).  The HLN factor
    corrects the size of the test in small samples (Harvey, Leybourne &
    Newbold 1997).  Bootstrap: the standard error is the standard deviation
    of the replicates :math:`\bar d^*`, the statistic :math:`\bar d / se`,
    and the p-value the bootstrap p-value of the centred replicates,
    :math:`(1 + \#\{|\bar d^* - \bar d| \ge |\bar d|\}) / (B + 1)` (two-sided;
    one-sided analogues for ``"less"``/``"greater"``).

    Brier Index difference.  :math:`\Delta\mathrm{BI} = \mathrm{BI}_a -
    \mathrm{BI}_b = 100 (\sqrt{c\,\mathrm{BS}_b} - \sqrt{c\,\mathrm{BS}_a})`
    (:math:`c = 1`, or 1/2 for the summed multiclass score).  Its standard
    error is the delta method applied to the pair of mean losses: the
    variance (iid or HAC, as for the Brier difference) of the mean of the
    linearised series :math:`u_t = -\frac{50c}{\sqrt{c\,\mathrm{BS}_a}}
    \ell_a(t) + \frac{50c}{\sqrt{c\,\mathrm{BS}_b}} \ell_b(t)`.  With
    ``cov_type="bootstrap"`` the same replicates (the same resampled rows)
    give both differences, and the interval is a bootstrap interval.  The
    test (``statistic``, ``pvalue``) is always the one of the Brier scores;
    the sign of the two differences is opposite (a lower Brier score is a
    higher index).

    Variance divisor.  ``cov_type="iid"`` estimates
    :math:`\operatorname{Var}(\bar d)` by :math:`s^2_d / T` with the unbiased
    :math:`s^2_d = \sum_t (d_t - \bar d)^2 / (T - 1)` (``ddof=1``).
    ``forecast::dm.test`` (R) divides the autocovariances by :math:`T`
    instead; ``ddof=0`` reproduces it for ``h = 1``:
    ``dm.test(y - pa, y - pb, h = 1, power = 2)`` equals
    ``compare_brier(y, pa, pb, cov_type="iid", ddof=0,
    small_sample_correction=True)``.  For ``h > 1``, ``dm.test`` is
    ``cov_type="hac"`` with ``hac_kwds={"kernel": "truncated", "bandwidth":
    h - 1, "prewhite": False, "adjust": False}`` (its default ``"acf"``
    estimator) or ``{"kernel": "bartlett", "bandwidth": h, ...}`` (its
    ``"bartlett"`` estimator), with ``small_sample_correction=True,
    lead_time=h``.  With ``"hac"`` the divisor is :math:`T` and
    ``hac_kwds["adjust"]`` (default True, as R's ``lrvar``) multiplies by
    :math:`T / (T - 1)`, the analogue of ``ddof=1``.

    References
    ----------
    .. [1] F. X. Diebold and R. S. Mariano, "Comparing predictive accuracy",
       Journal of Business & Economic Statistics 13(3), 253-263, 1995.
    .. [2] D. Harvey, S. Leybourne and P. Newbold, "Testing the equality of
       prediction mean squared errors", International Journal of Forecasting
       13(2), 281-291, 1997.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.stats.compare import compare_brier
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=500)
    >>> y = (rng.uniform(size=500) < p).astype(int)
    >>> res = compare_brier(y, {"model": p, "coin": np.full(500, 0.5)})
    >>> res.difference < 0, res.pvalue < 0.001
    (True, True)
    >>> ci = res.confidence_interval()
    >>> bool(ci.low < res.difference < ci.high)
    True
    >>> res.better
    'model'
    >>> low, high = res.confidence_interval(metric="brier_index")
    >>> bool(0 < low < res.brier_index_difference < high)
    True
    """
    cov_type, hac_kwds, small_sample_correction, ddof, b, n_jobs = check_compare_options(
        cov_type,
        hac_kwds,
        alternative,
        small_sample_correction,
        ddof,
        n_resamples,
        n_jobs,
        random_state,
        bootstrap,
        block_length,
    )
    y_proba_a, y_proba_b, names = _two_models(y_proba_a, y_proba_b, names)
    pa = check_probabilities(y_proba_a, name="y_proba_a")
    pb = check_probabilities(y_proba_b, name="y_proba_b")
    if pa.shape != pb.shape:
        raise ValueError(
            f"y_proba_a has shape {pa.shape} but y_proba_b has shape {pb.shape}; the two "
            "forecasters must forecast the same outcomes."
        )
    fa = check_forecast(
        y_true,
        pa,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        proba_name="y_proba_a",
    )
    fb = check_forecast(
        y_true,
        pb,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        proba_name="y_proba_b",
    )
    if cov_type == "bootstrap" and small_sample_correction:
        raise ValueError(
            "small_sample_correction applies to cov_type 'hac' and 'iid' only."
        )
    scheme, method, random_state, frequency = check_resampling(
        cov_type, bootstrap, method, random_state
    )
    if frequency:
        fa, _ = drop_zero_weight_rows(fa)
        fb, _ = drop_zero_weight_rows(fb)
    la, _, index_scale = brier_losses(fa)
    lb = brier_losses(fb)[0]
    n = la.shape[0]
    w = fa.sample_weight
    total = check_weighted_samples(n, w, frequency)
    lead_time = _check_lead_time(lead_time, max(n, 2))
    dd = la - lb
    pos = slice(None) if w is None else w > 0.0
    d_pos = dd[pos]
    check_differential_varies(d_pos.min(), d_pos.max(), max(la[pos].max(), lb[pos].max()))
    bs_a, bs_b = (float(v) for v in weighted_column_means(np.column_stack([la, lb]), w))
    diff = float(weighted_column_means(dd[:, None], w)[0])
    common = comparison_fields(
        bs_a,
        bs_b,
        diff,
        index_scale,
        n=n,
        total_weight=total,
        cov_type=cov_type,
        alternative=alternative,
        names=names,
    )
    u = _index_linearisation(la, lb, bs_a, bs_b, index_scale)

    if cov_type in ("iid", "hac"):

        def mean_variance(series: np.ndarray) -> float:
            if cov_type == "iid":
                return float(iid_mean_covariance(series[:, None], w, ddof)[0, 0])
            return float(hac_mean_covariance(series[:, None], w, hac_kwds)[0, 0])

        var = mean_variance(dd)
        common["brier_index_difference_standard_error"] = (
            float(np.sqrt(max(mean_variance(u), 0.0))) if np.isfinite(u).all() else np.nan
        )
        t_hln = total if (frequency and w is not None) else float(n)
        return _asymptotic_result(common, var, small_sample_correction, lead_time, t_hln)
    bl = _bs.resolve_block_length(block_length, dd, scheme)
    data, _, draws = _bs.prepare_frequency_weights([la, lb], w, scheme, method)
    return _bootstrap_result(
        common,
        data,
        draws,
        scheme=scheme,
        block_length=bl,
        n_resamples=b,
        method=method,
        random_state=random_state,
        n_jobs=n_jobs,
        index_scale=index_scale,
    )


def _two_models(
    y_proba_a: Any, y_proba_b: Any, names: Any
) -> tuple[Any, Any, tuple[str, str]]:
    """The two forecasts and their names, from two arrays or one two-entry mapping."""
    keys: tuple[str, str] | None = None
    is_frame = hasattr(y_proba_a, "columns") and hasattr(y_proba_a, "to_numpy")
    if is_frame and y_proba_b is None:
        # a DataFrame alone holds the two forecasts, one per column; with
        # y_proba_b given it is the first forecast (one column, or one per class)
        cols = list(y_proba_a.columns)
        if len(cols) != 2:
            raise ValueError(
                f"y_proba_a: a DataFrame given without y_proba_b must hold two "
                f"forecasts, one per column; it has {len(cols)} column"
                f"{'' if len(cols) == 1 else 's'} {[str(c) for c in cols[:10]]}. Give "
                "the second forecast as y_proba_b, or a DataFrame (or dict) of two."
            )
        y_proba_a = {str(c): y_proba_a[c] for c in cols}
    if isinstance(y_proba_a, Mapping):
        if y_proba_b is not None:
            raise TypeError(
                "y_proba_b must be omitted when y_proba_a is a dict of two forecasts."
            )
        if len(y_proba_a) != 2:
            raise ValueError(
                f"y_proba_a: a dict must hold exactly two forecasts, got "
                f"{len(y_proba_a)}: {[str(k) for k in list(y_proba_a)[:10]]}."
            )
        (ka, y_proba_a), (kb, y_proba_b) = y_proba_a.items()
        keys = (str(ka), str(kb))
    elif y_proba_b is None:
        raise TypeError("y_proba_b is missing: give two forecasts (or a dict of two).")
    if names is None:
        return y_proba_a, y_proba_b, keys or ("a", "b")
    if isinstance(names, str) or not isinstance(names, Sequence) or len(names) != 2:
        raise ValueError(f"names must be a sequence of two strings, got {names!r}.")
    if not all(isinstance(v, str) for v in names):
        raise TypeError(f"names must be strings, got {names!r}.")
    if names[0] == names[1]:
        raise ValueError(f"names must differ, got {names!r}.")
    return y_proba_a, y_proba_b, (names[0], names[1])


def _index_linearisation(
    la: np.ndarray, lb: np.ndarray, bs_a: float, bs_b: float, c: float
) -> np.ndarray:
    """Per-sample series whose mean's variance is the delta-method variance of dBI."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ga = -50.0 * c / np.sqrt(c * bs_a)
        gb = 50.0 * c / np.sqrt(c * bs_b)
        return ga * la + gb * lb


def _asymptotic_result(
    common: dict, var: float, hln: bool, lead_time: int, t_hln: float
) -> BrierComparisonResult:
    """DM statistic, p-value and result from the variance of the mean differential."""
    diff = common["difference"]
    se = float(np.sqrt(var))
    stat = diff / se if se > 0.0 else float(np.copysign(np.inf, diff))
    df = None
    factor = 1.0
    if hln:
        h = lead_time
        factor = float(np.sqrt((t_hln + 1.0 - 2.0 * h + h * (h - 1.0) / t_hln) / t_hln))
        stat *= factor
        df = float(t_hln - 1)
    return BrierComparisonResult(
        **common,
        difference_standard_error=se,
        statistic=stat,
        pvalue=_pvalue(stat, common["alternative"], df),
        df=df,
        _hln_factor=factor,
    )


@dataclasses.dataclass(frozen=True)
class _PairedStatistic:
    """The statistic of the paired bootstrap (picklable: the result keeps it
    for its intervals): of resampled losses ``la``, ``lb`` (and weights),
    ``kind`` ``"difference"``: ``mean(la - lb)``;
    ``"brier_index_difference"``: ``BI(mean la) - BI(mean lb)``; ``"both"``:
    the two stacked."""

    kind: str
    index_scale: float

    def __call__(self, la: Any, lb: Any, *wt: Any, axis: int = -1) -> Any:
        if wt:
            sw = np.sum(wt[0], axis=axis)
            d, ma, mb = (np.sum(x * wt[0], axis=axis) / sw for x in (la - lb, la, lb))
        else:
            d, ma, mb = (np.mean(x, axis=axis) for x in (la - lb, la, lb))
        c = self.index_scale
        index = 100.0 * (np.sqrt(c * mb) - np.sqrt(c * ma))
        if self.kind == "difference":
            return d
        if self.kind == "brier_index_difference":
            return index
        return np.stack(np.broadcast_arrays(d, index), axis=0)


def _bootstrap_result(
    common: dict,
    data: list,
    draws: int | None,
    *,
    scheme: str,
    block_length: float,
    n_resamples: int,
    method: str,
    random_state: Any,
    n_jobs: int | None,
    index_scale: float,
) -> BrierComparisonResult:
    """Bootstrap of the mean loss differential, its p-value and the result.

    Each replicate gives both differences from the same resampled rows:
    ``mean(la - lb)`` and ``BI(mean la) - BI(mean lb)``.
    """
    diff = common["difference"]
    alternative = common["alternative"]
    c = index_scale

    statistic = _PairedStatistic("both", c)
    diff_statistic = _PairedStatistic("difference", c)
    index_statistic = _PairedStatistic("brier_index_difference", c)

    dist = _bs.bootstrap_distribution(
        data,
        statistic,
        scheme=scheme,
        block_length=block_length,
        n_resamples=n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        draws=draws,
    )
    dist, index_dist = dist[0], dist[1]
    se = cast(float, replicate_std(dist))  # one replicate per resample: a float
    centred = dist - diff
    if alternative == "two-sided":
        count = np.count_nonzero(np.abs(centred) >= abs(diff))
    elif alternative == "less":
        count = np.count_nonzero(centred <= diff)
    else:
        count = np.count_nonzero(centred >= diff)
    pvalue = (1.0 + count) / (n_resamples + 1.0)
    boot = {
        "data": data,
        "statistics": {
            "difference": diff_statistic,
            "brier_index_difference": index_statistic,
        },
        "index_replicates": index_dist,
        "method": method,
        "scheme": scheme,
        "draws": draws,
    }
    stat = diff / se if se > 0.0 else float(np.copysign(np.inf, diff))
    return BrierComparisonResult(
        **common,
        difference_standard_error=se,
        statistic=stat,
        pvalue=pvalue,
        df=None,
        brier_index_difference_standard_error=cast(float, replicate_std(index_dist)),
        bootstrap_distribution=dist,
        block_length=None if scheme == "iid" else block_length,
        _boot=boot,
    )
