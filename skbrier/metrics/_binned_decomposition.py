"""The mergeable binned decomposition: per-bin sums, and the decomposition from them.

:func:`bin_edges` places the bins of
:func:`~skbrier.metrics.decomposition.murphy_decomposition`,
:func:`binned_statistics` gives the per-bin sums of one chunk of validated
data (:class:`~skbrier._core.kernels.bin_statistics.BinStatistics`, which
add exactly across chunks) and :func:`murphy_from_statistics` the
decomposition from them.  All are public in
:mod:`skbrier.metrics.decomposition`.
"""

from __future__ import annotations

import numbers
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.binning import block_binner, check_edges_cover, uniform_edges
from .._core.dispatch import HOST, Refused, backends
from .._core.format import format_number
from .._core.kernels.bin_statistics import BinStatistics, check_edges
from .._core.kernels.decomposition import binned_sums, pow2_exponent
from .._core.params import (
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
    check_bool,
    check_n_bins,
)
from .._core.validation import check_probabilities, check_sample_weight
from ._decomposition_core import check_strategy, edges_for, murphy_result
from ._decomposition_results import MurphyDecomposition

__all__ = [
    "bin_edges",
    "binned_statistics",
    "check_keepable_weights",
    "murphy_from_statistics",
]


@backends(
    arrays=("y_proba", "sample_weight"),
    dask=Refused(
        "the forecasts are checked and their quantiles taken with all rows in "
        "memory; compute it on the collected rows (e.g. ddf.compute()) or on a "
        "uniform subsample"
    ),
    array_api=HOST,
)
def bin_edges(
    y_proba: ArrayLike,
    *,
    n_bins: int = DEFAULT_N_BINS,
    strategy: Literal["uniform", "quantile"] | ArrayLike = DEFAULT_STRATEGY,
    sample_weight: ArrayLike | None = None,
) -> np.ndarray:
    """Bin edges of the binned decomposition for validated forecasts.

    ``"uniform"`` gives ``n_bins`` bins of equal width on [0, 1] (edges
    ``k / n_bins``); ``"quantile"`` gives bins holding about the same
    (weighted) number of forecasts, with duplicate edges (ties) removed, so
    there may be fewer than ``n_bins`` bins; an array is used as the edges.

    Quantile edges run from the smallest to the largest forecast: the
    frequency-weighted quantiles with linear interpolation
    (:func:`skbrier._core.binning.quantile_edges`).  Without weights they
    are ``np.quantile(y_proba, k / n_bins)`` (as
    :func:`sklearn.calibration.calibration_curve`); integer weights give the
    edges of repeated rows, unit weights the unweighted edges, and rows of
    zero weight do not count.

    Parameters
    ----------
    y_proba : array-like of shape (n_samples,)
        Forecasts in [0, 1] (checked: NaN, infinity, values outside [0, 1],
        empty or 2-D input raise ValueError).
    n_bins : int, default=10
        Number of bins for the ``"uniform"`` and ``"quantile"`` strategies
        (at most :data:`skbrier._core.params.MAX_BINS`).
    strategy : {"uniform", "quantile"} or array-like of edges
        How to place the bins.
    sample_weight : ndarray of shape (n_samples,) or None
        Weights used by the ``"quantile"`` strategy.

    Returns
    -------
    ndarray
        Strictly increasing bin edges.

    Raises
    ------
    ValueError, TypeError
        For bad forecasts, a bad ``n_bins`` or ``strategy``, or edges that
        do not cover the forecasts.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics.decomposition import bin_edges
    >>> bin_edges(np.array([0.1, 0.5, 0.9]), n_bins=4)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    p = check_probabilities(y_proba, allow_2d=False, warn_hard=False)
    w = check_sample_weight(sample_weight, p.shape[0])
    n_bins = check_n_bins(n_bins)
    return edges_for(p, w, n_bins, check_strategy(strategy))


def check_keepable_weights(w: np.ndarray | None, name: str) -> None:
    """Refuse weights whose sums :class:`BinStatistics` cannot keep.

    Sums of subnormal weights (the largest below 2.225e-308) are kept as
    such and lose digits (weights of 5e-324 gave a Brier score of 0.1589
    against 0.1819); a ValueError naming ``name`` says what to do.

    Parameters
    ----------
    w : ndarray of shape (n_samples,) or None
        Validated non-negative weights.
    name : str
        The parameter the messages name (``"w"``, ``"sample_weight"``).

    Raises
    ------
    ValueError
        If the largest weight is subnormal.

    Examples
    --------
    >>> import numpy as np
    >>> check_keepable_weights(np.array([1e-300, 2e-300]), "w")
    >>> check_keepable_weights(np.array([5e-324]), "w")
    Traceback (most recent call last):
    ...
    ValueError: w: the largest weight is 4.941e-324, a subnormal float (below 2.225e-308): the sums BinStatistics keeps would lose digits. Multiply w by a constant (the decomposition depends on the ratios of the weights only; bias_correction counts them as observations).
    """
    if w is None or w.shape[0] == 0:
        return
    top = float(np.max(w))
    if 0.0 < top < np.finfo(np.float64).smallest_normal:
        raise ValueError(
            f"{name}: the largest weight is {format_number(top)}, a subnormal float "
            "(below 2.225e-308): the sums BinStatistics keeps would lose digits. "
            f"Multiply {name} by a constant (the decomposition depends on the "
            "ratios of the weights only; bias_correction counts them as "
            "observations)."
        )


def binned_statistics(
    y01: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    edges: np.ndarray | int,
    *,
    right: bool = True,
) -> BinStatistics:
    r"""Per-bin sums of a validated binary forecast (O(n), no sorting).

    No validation of the data is done here: ``y01`` must be float 0/1
    outcomes, ``p`` float64 forecasts inside the edges, ``w`` non-negative
    weights or None (the public :func:`murphy_decomposition` validates its
    input and calls the same kernels).

    Parameters
    ----------
    y01 : ndarray of shape (n_samples,)
        Outcomes coded 0/1.
    p : ndarray of shape (n_samples,)
        Forecast probabilities.
    w : ndarray of shape (n_samples,) or None
        Sample weights.
    edges : ndarray of shape (n_bins + 1,) or int
        Strictly increasing bin edges, or an integer ``K`` for ``K`` uniform
        bins on [0, 1].
    right : bool, default=True
        The binning rule of :func:`skbrier._core.binning.assign_bins`:
        True puts a forecast on an inner edge in the lower bin (bins
        ``(e_k, e_{k+1}]``, the first closed, as scikit-learn's
        ``calibration_curve``, R SpecsVerification and R verification);
        False in the upper bin (``[e_k, e_{k+1})``, the last closed).

    Returns
    -------
    BinStatistics
        Mergeable per-bin sums.

    See Also
    --------
    murphy_from_statistics : The decomposition from these statistics.
    murphy_decomposition : Validation, this function and the decomposition.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics.decomposition import binned_statistics
    >>> s = binned_statistics(np.array([0., 1., 1.]), np.array([0.2, 0.7, 0.9]),
    ...                       None, 2)
    >>> s.count, s.sum_wp
    (array([1, 2]), array([0.2, 1.6]))
    """
    if isinstance(edges, numbers.Integral) and not isinstance(edges, (bool, np.bool_)):
        e = uniform_edges(check_n_bins(edges, name="edges"))
    else:
        e = check_edges(edges, name="edges")
        check_edges_cover(p, e, "edges", "p")
    right = check_bool(right, "right")
    # the bins found block by block inside the one pass (no n-long bin index),
    # the weights times a power of two (exact) so that their squares neither
    # under- nor overflow (weights of 1e300 warned), as murphy_decomposition's
    check_keepable_weights(w, "w")
    exponent = 0 if w is None else pow2_exponent(w)
    sums = binned_sums(
        None,
        e.shape[0] - 1,
        y01,
        p,
        w,
        bin_into=block_binner(e, right=right),
        exponent=exponent,
    )
    return BinStatistics(e, *sums, right=right).scaled(-exponent)


def murphy_from_statistics(
    stats: BinStatistics, *, bias_correction: bool = False
) -> MurphyDecomposition:
    r"""The binned Brier score decomposition from per-bin sums.

    Parameters
    ----------
    stats : BinStatistics
        Per-bin sums from :func:`binned_statistics` (possibly merged over
        chunks).
    bias_correction : bool, default=False
        Apply the Ferro--Fricker (2012) bias correction to REL, RES and UNC.

    Returns
    -------
    MurphyDecomposition

    Raises
    ------
    TypeError
        If ``stats`` is not a :class:`BinStatistics`.
    ValueError
        If the statistics hold no positive weight, or (bias correction)
        fewer than 3 observations (a total weight below 3).

    See Also
    --------
    binned_statistics : Per-bin sums of one chunk of data.
    murphy_decomposition : The decomposition of validated data in one call.

    Notes
    -----
    With bin weights :math:`W_k`, :math:`W = \sum_k W_k`, bin means
    :math:`\bar f_k, \bar o_k` and base rate :math:`\bar o`:

    .. math::

        \mathrm{REL} &= \textstyle\sum_k W_k (\bar f_k - \bar o_k)^2 / W, \quad
        \mathrm{RES} = \textstyle\sum_k W_k (\bar o_k - \bar o)^2 / W, \quad
        \mathrm{UNC} = \bar o (1 - \bar o), \\
        \mathrm{WBV} &= \textstyle\sum_k \sum_{i \in k} w_i (p_i - \bar f_k)^2 / W,
        \quad
        \mathrm{WBC} = 2 \textstyle\sum_k \sum_{i \in k} w_i (p_i - \bar f_k)
                       (y_i - \bar o_k) / W,

    all from the per-bin sums.  The Ferro--Fricker correction subtracts
    :math:`A = \sum_k (W_k / W)\, \bar o_k (1 - \bar o_k) / (m_k - 1)` from REL
    and :math:`A - \bar o(1 - \bar o)/(m - 1)` from RES and adds
    :math:`\bar o (1 - \bar o)/(m - 1)` to UNC, where :math:`m_k = W_k` and
    :math:`m = W` are the sample sizes: ``sample_weight`` holds frequency
    weights, so integer weights give the correction of the repeated rows,
    and without weights the counts :math:`n_k` and :math:`n` give the
    published formulas.  The correction counts observations: it is not
    invariant to multiplying all weights by a constant (the other
    components are), and fewer than 3 observations (a total weight below 3)
    are refused, as :func:`skbrier.brier_inference` refuses.  Bins with
    :math:`m_k \le 1` contribute nothing to :math:`A`.  If a corrected REL
    or RES is negative, both are shifted by the same amount so that they are
    non-negative (as in s2dverification); their difference, and hence the
    identity with the Brier score, is unchanged.

    Chunked and out-of-core data: compute :func:`binned_statistics` on each
    chunk with the *same* edges (uniform bins, or explicit edges fixed in
    advance -- quantile edges depend on the data), add the statistics, then
    call this function once.  With dask, for example::

        import dask
        parts = [dask.delayed(binned_statistics)(y, p, w, edges)
                 for y, p, w in chunks]            # validated chunks
        stats = dask.delayed(sum)(parts).compute()
        result = murphy_from_statistics(stats)

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics.decomposition import (
    ...     binned_statistics, murphy_from_statistics)
    >>> y = np.array([0., 0., 1., 1.])
    >>> p = np.array([0.1, 0.3, 0.6, 0.8])
    >>> d = murphy_from_statistics(binned_statistics(y, p, None, 2))
    >>> round(d.brier_score, 4)
    0.075

    In two chunks:

    >>> stats = sum(binned_statistics(y[i:i + 2], p[i:i + 2], None, 2)
    ...             for i in (0, 2))
    >>> murphy_from_statistics(stats).brier_score == d.brier_score
    True
    """
    if not isinstance(stats, BinStatistics):
        raise TypeError(f"stats must be BinStatistics, got {type(stats).__name__}.")
    return murphy_result(stats, check_bool(bias_correction, "bias_correction"))
