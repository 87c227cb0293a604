"""The calibration statistics of :mod:`skbrier.engines.spark`: the binned
calibration error and bins, the Murphy and CORP decompositions, C and
Spiegelhalter's z, each from the merged state of one Spark job."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.binning import uniform_edges
from .._core.params import DEFAULT_N_BINS, check_resolution
from ..states import (
    BinnedState,
    ForecastTable,
    SpiegelhalterState,
)
from ._spark_reduce import doc, finished, source
from ._statistics import edges_option

__all__ = [
    "c_statistic",
    "calibration_bins",
    "calibration_error",
    "corp_decomposition",
    "murphy_decomposition",
    "spiegelhalter_z",
]

# --------------------------------------------------------------------------
# bins
# --------------------------------------------------------------------------


def _edges(n_bins: Any, strategy: Any) -> np.ndarray:
    """Fixed bin edges (equal-mass bins are not mergeable: refused)."""
    return edges_option(n_bins, strategy, "Spark")


@doc
def calibration_error(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    norm: str = "l1",
    n_bins: int = DEFAULT_N_BINS,
    strategy: str = "uniform",
    binning: Any = None,
    debias: bool = False,
    right: bool = True,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Binned calibration error (ECE, RMS or MCE) of a Spark DataFrame's rows.

    :math:`\mathrm{ECE} = \sum_b \frac{W_b}{W} |\bar p_b - \bar y_b|` on fixed
    bins: the value of :func:`skbrier.metrics.calibration_error.calibration_error`
    for the same rows and options.

    Parameters
    ----------
    {{inputs}}
    norm : {"l1", "l2", "max"}, default="l1"
        ECE, RMS calibration error or MCE.
    n_bins : int, default=10
        Number of uniform bins.
    strategy : {"uniform"}, default="uniform"
        Equal-width bins (equal-mass bins are not mergeable: refused).
    binning : str, array-like or None, default=None
        A preset of fixed bins (``"sklearn"``, ``"netcal"``,
        ``"torchmetrics"``) or explicit edges.
    debias : bool, default=False
        Kumar et al.'s debiased l2 estimator.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin.
    {{group_by}}

    Returns
    -------
    float or dict
        The calibration error; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.calibration_error.calibration_error : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.calibration_error(df, n_bins=2), 4)  # doctest: +SKIP
    0.25
    """
    from ..metrics._calibration_error_core import check_options, fixed_bin_ids
    from ..states import CalibrationBinsState

    o = check_options(norm, n_bins, strategy, binning, debias, right)
    src = source(df, y, p, weight, group_by)
    if o.binning is None and o.strategy == "uniform" and not o.debias:
        tmpl: Any = BinnedState(uniform_edges(o.n_bins), right=o.right, pos_label=pos_label)
        return finished(src, tmpl, lambda st: st.calibration_error(o.norm))
    if fixed_bin_ids(np.zeros(1), o) is None:
        what = (
            "binning=" + repr(o.binning) if o.binning is not None else "strategy='quantile'"
        )
        raise ValueError(
            f"{what} is not available on a Spark DataFrame: its bins depend on all "
            "forecasts (not mergeable); pass fixed bins (strategy='uniform', a "
            "fixed binning preset or explicit edges)."
        )
    tmpl = CalibrationBinsState(o, kind="binary", pos_label=pos_label)
    return finished(src, tmpl, lambda st: st.finalize())


@doc
def calibration_bins(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    n_bins: int = 10,
    strategy: Any = "uniform",
    right: bool = True,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Per-bin sums of a Spark DataFrame's rows: the reliability diagram's bins.

    :class:`~skbrier.metrics.decomposition.BinStatistics` (per bin: rows,
    :math:`\sum w`, :math:`\sum w p`, :math:`\sum w y`, ...): the value of
    ``skbrier.metrics.decomposition.binned_statistics`` on the same
    rows (the outcomes coded 0/1).

    Parameters
    ----------
    {{inputs}}
    n_bins : int, default=10
        Number of uniform bins.
    strategy : "uniform" or array-like, default="uniform"
        Uniform bins, or explicit bin edges covering the forecasts.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin.
    {{group_by}}

    Returns
    -------
    BinStatistics or dict
        The per-bin sums; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.murphy_decomposition : The decomposition of arrays.

    Examples
    --------
    {{spark}}
    >>> sbs.calibration_bins(df, n_bins=2).count  # doctest: +SKIP
    array([2, 2])
    """
    from .._core.params import check_bool

    edges = _edges(n_bins, strategy)
    tmpl = BinnedState(edges, right=check_bool(right, "right"), pos_label=pos_label)
    src = source(df, y, p, weight, group_by)
    return finished(src, tmpl, lambda st: st.statistics())


@doc
def murphy_decomposition(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    n_bins: int = 10,
    strategy: Any = "uniform",
    right: bool = True,
    bias_correction: bool = False,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Binned (Murphy) decomposition of the Brier score of a Spark DataFrame's rows.

    :math:`\mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC} +
    \mathrm{WBV} - \mathrm{WBC}` on fixed bins: the value of
    :func:`skbrier.metrics.decomposition.murphy_decomposition` on the same
    rows (without resampling).

    Parameters
    ----------
    {{inputs}}
    n_bins : int, default=10
        Number of uniform bins.
    strategy : "uniform" or array-like, default="uniform"
        Uniform bins, or explicit bin edges.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin.
    bias_correction : bool, default=False
        Ferro and Fricker's bias-corrected terms.
    {{group_by}}

    Returns
    -------
    MurphyDecomposition or dict
        The decomposition; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.decomposition.murphy_decomposition : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.murphy_decomposition(df, n_bins=2).brier_score, 4)  # doctest: +SKIP
    0.075
    """
    from .._core.params import check_bool

    edges = _edges(n_bins, strategy)
    bias_correction = check_bool(bias_correction, "bias_correction")
    tmpl = BinnedState(edges, right=check_bool(right, "right"), pos_label=pos_label)
    src = source(df, y, p, weight, group_by)
    return finished(src, tmpl, lambda st: st.murphy(bias_correction=bias_correction))


# --------------------------------------------------------------------------
# order statistics: CORP and C
# --------------------------------------------------------------------------


@doc
def corp_decomposition(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    resolution: float | str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""CORP decomposition of a Spark DataFrame's rows, exactly.

    :math:`\mathrm{BS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC}` from the
    isotonic (PAV) recalibration, computed from the merged table of the
    distinct forecasts (:class:`~skbrier.states.ForecastTable`): the value of
    :func:`skbrier.metrics.decomposition.corp_decomposition` on the same rows.

    Parameters
    ----------
    {{inputs}}
    resolution : float, "auto" or None, default=None
        Round the forecasts to multiples of it first (None: exact; "auto":
        exact up to 2**20 distinct forecasts per class).
    {{group_by}}

    Returns
    -------
    CORPDecomposition or dict
        The decomposition; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.decomposition.corp_decomposition : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.corp_decomposition(df).miscalibration, 4)  # doctest: +SKIP
    0.075
    """
    tmpl = ForecastTable(resolution=check_resolution(resolution), pos_label=pos_label)
    src = source(df, y, p, weight, group_by)
    return finished(src, tmpl, lambda st: st.corp())


@doc
def c_statistic(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    resolution: float | str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""C statistic (area under the ROC curve) of a Spark DataFrame's rows, exactly.

    From the merged table of the distinct forecasts (ties and weights
    included): the value of :func:`skbrier.metrics.calibration.c_statistic`.

    Parameters
    ----------
    {{inputs}}
    resolution : float, "auto" or None, default=None
        Round the forecasts to multiples of it first (None: exact).
    {{group_by}}

    Returns
    -------
    float or dict
        C; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.calibration.c_statistic : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> sbs.c_statistic(df)  # doctest: +SKIP
    1.0
    """
    tmpl = ForecastTable(resolution=check_resolution(resolution), pos_label=pos_label)
    src = source(df, y, p, weight, group_by)
    return finished(src, tmpl, lambda st: st.c_statistic())


@doc
def spiegelhalter_z(
    df: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Spiegelhalter's z test of a Spark DataFrame's rows.

    :math:`z = \sum_i w_i (y_i - p_i)(1 - 2p_i) / \sqrt{\sum_i w_i (1 -
    2p_i)^2 p_i (1 - p_i)}`: the value of
    :func:`skbrier.metrics.calibration.spiegelhalter_z`.

    Parameters
    ----------
    {{inputs}}
    {{group_by}}

    Returns
    -------
    SpiegelhalterResult or dict
        ``(statistic, pvalue)``; with ``group_by`` a dict.

    {{raises}}

    See Also
    --------
    skbrier.metrics.calibration.spiegelhalter_z : The same on arrays.

    Examples
    --------
    {{spark}}
    >>> round(sbs.spiegelhalter_z(df).statistic, 4)  # doctest: +SKIP
    -1.005
    """
    from ..metrics._calibration_results import SpiegelhalterResult

    src = source(df, y, p, weight, group_by)
    tmpl = SpiegelhalterState(pos_label=pos_label)
    return finished(src, tmpl, lambda st: SpiegelhalterResult(*st.finalize()))
