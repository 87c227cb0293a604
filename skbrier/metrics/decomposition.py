r"""Decompositions of the Brier score: binned (Murphy) and CORP (isotonic).

Two families of estimators split a Brier score into a miscalibration part,
a discrimination (resolution) part and the uncertainty of the outcome:

* :func:`murphy_decomposition` -- the classic binned decomposition of Murphy
  (1973) with the two within-bin terms of Stephenson, Coelho and Jolliffe
  (2008) that make it *exact*, and optionally the bias correction of Ferro
  and Fricker (2012).  It runs in O(n) without sorting for uniform bins and
  is mergeable: :func:`binned_statistics` returns per-bin sums
  (:class:`BinStatistics`) that add exactly across chunks of data, and
  :func:`murphy_from_statistics` turns them into the decomposition.
* :func:`corp_decomposition` -- the CORP decomposition of Dimitriadis,
  Gneiting and Jordan (2021): the forecasts are recalibrated by isotonic
  (PAV) regression of the outcomes on the forecasts, with consistency bands
  under the calibration hypothesis (as R ``reliabilitydiag``) and bootstrap
  confidence intervals.

Both functions accept 2-D ``y_proba``.  With two columns the decomposition is
the binary one of the positive class; with three or more columns they return a
:class:`MulticlassDecomposition` holding one one-vs-rest decomposition per
class, whose components add up to the multiclass Brier score of scikit-learn
(the [0, 2] scale, the sum of the one-vs-rest binary Brier scores).

The public functions validate once (:mod:`skbrier._core.validation`,
:mod:`skbrier._core.params`); the kernels live in
:mod:`skbrier._core.kernels.decomposition` (no validation), the resampling
tasks in :mod:`skbrier.metrics._decomposition_bootstrap` (run by the one
engine :mod:`skbrier._core.resampling`), the mergeable per-bin sums
(:func:`binned_statistics`, :func:`murphy_from_statistics`) in
:mod:`skbrier.metrics._binned_decomposition`, the binning rule in
:mod:`skbrier._core.binning` and the result classes in
:mod:`skbrier.metrics._decomposition_results`.
"""

from __future__ import annotations

from typing import Any, Literal

from numpy.typing import ArrayLike

from .._core.binning import (
    apply_resolution,
)
from .._core.dispatch import HOST, backends
from .._core.docstrings import shared_doc
from .._core.kernels.bin_statistics import BinStatistics, check_edges
from .._core.multilabel import check_multilabel, is_multilabel
from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
    check_bool,
    check_n_bins,
    check_resolution,
    validate_random_state,
)
from .._core.results import ConfidenceInterval
from .._core.validation import (
    check_forecast,
)
from ._binned_decomposition import (
    bin_edges,
    binned_statistics,
    murphy_from_statistics,
)
from ._decomposition_core import (
    binary_columns,
    bootstrap_options,
    check_strategy,
    class_generators,
    corp_binary,
    murphy_binary,
)
from ._decomposition_results import (
    CORPDecomposition,
    MulticlassDecomposition,
    MurphyDecomposition,
)

__all__ = [
    "BinStatistics",
    "CORPDecomposition",
    "ConfidenceInterval",
    "MulticlassDecomposition",
    "MurphyDecomposition",
    "bin_edges",
    "binned_statistics",
    "corp_decomposition",
    "murphy_decomposition",
    "murphy_from_statistics",
]

#: the inputs that both decompositions describe alike
_check_edges = check_edges  # older private name


def murphy_options(
    n_bins: Any,
    strategy: Any,
    right: Any,
    bias_correction: Any,
    n_resamples: Any,
    confidence_level: Any,
    n_jobs: Any,
) -> dict[str, Any]:
    """The checked options of :func:`murphy_decomposition` (on every backend)."""
    return {
        "n_bins": check_n_bins(n_bins),
        "strategy": check_strategy(strategy),
        "right": check_bool(right, "right"),
        "bias_correction": check_bool(bias_correction, "bias_correction"),
        **bootstrap_options(n_resamples, confidence_level, n_jobs),
    }


@backends(
    dask="skbrier._backends._dask._adapters:murphy_decomposition",
    array_api="skbrier._backends._array_api:murphy_decomposition",
)
@shared_doc
def murphy_decomposition(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    n_bins: int = DEFAULT_N_BINS,
    strategy: Literal["uniform", "quantile"] | ArrayLike = DEFAULT_STRATEGY,
    right: bool = True,
    sample_weight: ArrayLike | None = None,
    bias_correction: bool = False,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    n_resamples: int = 0,
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> MurphyDecomposition | MulticlassDecomposition:
    r"""Binned (Murphy) decomposition of the Brier score, made exact.

    The forecasts are grouped into bins; the Brier score splits into the
    reliability REL (miscalibration of the bins, lower is better), the
    resolution RES (how much the event frequency varies between bins, higher
    is better), the uncertainty UNC of the outcome, and the two within-bin
    terms of Stephenson, Coelho and Jolliffe (2008) that make the identity
    exact:

    .. math::

        \mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC}
                      + \mathrm{WBV} - \mathrm{WBC}.

    Parameters
    ----------
    {{decomposed_inputs}}
    n_bins : int, default=10
        Number of bins for the ``"uniform"`` and ``"quantile"`` strategies
        (at most 100,000).
    strategy : {"uniform", "quantile"} or array-like of edges, default="uniform"
        ``"uniform"``: bins of width ``1 / n_bins`` on [0, 1], found in O(n)
        without sorting.  ``"quantile"``: bins with about equal (weighted)
        numbers of forecasts (duplicate edges are dropped, so there may be
        fewer bins; unit weights give the unweighted edges; the weights are
        frequency weights, the quantiles those of the repeated rows, so the
        edges depend on the scale of the weights).  An array:
        strictly increasing edges covering the forecasts.
    right : bool, default=True
        Where a forecast on an inner edge goes: True, the lower bin (bins
        ``(e_k, e_{k+1}]``, the first closed), as scikit-learn's
        ``calibration_curve``, R SpecsVerification, R verification and
        skbrier's calibration errors; False, the upper bin (bins
        ``[e_k, e_{k+1})``, the last closed, as ``numpy.digitize``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    bias_correction : bool, default=False
        Apply the bias correction of Ferro and Fricker (2012) to REL, RES
        and UNC (the identity above still holds).  It counts observations:
        the weights are frequencies (a bin's sample size is its weight),
        and a total weight below 3 is refused.
    labels : array-like of shape (n_classes,), default=None
        Classes of the columns of a 2-D ``y_proba``.
    pos_label : int, float, bool or str, default=None
        The positive class of binary input (see
        :func:`skbrier.metrics.brier.brier_score`).
    n_resamples : int, default=0
        Number of bootstrap resamples (the observations drawn with
        replacement, bins held fixed) behind ``confidence_interval()``; 0 for
        none, else at least 2.  Frequency weights: the total weight is the
        number of observations drawn (integer weights draw exactly as their
        repeated rows; a total below 0.5 gives NaN replicates, one beyond
        2**62 is refused).
    confidence_level : float, default=0.95
        Level stored in the result: the default of its
        ``observed_frequency_interval()`` (``confidence_interval()`` takes
        its own level, 0.95 by default).
    random_state : None, int, numpy Generator, SeedSequence or RandomState
        Seed of the bootstrap.  Results do not depend on ``n_jobs``, and
        :class:`~skbrier.decomposition.BrierDecomposition` with
        ``decomposition_method="murphy"`` draws the same resamples for the same seed.
    n_jobs : int, default=None
        Number of joblib workers for the bootstrap (None: 1, -1: all).

    Returns
    -------
    MurphyDecomposition or MulticlassDecomposition
        A :class:`MurphyDecomposition` for binary input (1-D or two
        columns); a :class:`MulticlassDecomposition` of one-vs-rest binary
        decompositions for three or more columns.

    Raises
    ------
    ValueError
        For invalid forecasts, labels, weights, ``n_bins`` or bin edges
        (messages name the parameter).
    TypeError
        For non-numeric input or options of the wrong type.

    See Also
    --------
    corp_decomposition : The bin-free CORP decomposition (recommended).
    binned_statistics : Mergeable per-bin sums for chunked data.
    murphy_from_statistics : The decomposition from per-bin sums.

    Notes
    -----
    With bin weights :math:`W_k` (:math:`W = \sum_k W_k`), bin mean
    forecasts :math:`\bar f_k`, bin event frequencies :math:`\bar o_k` and
    base rate :math:`\bar o`:
    :math:`\mathrm{REL} = \sum_k W_k (\bar f_k - \bar o_k)^2 / W`,
    :math:`\mathrm{RES} = \sum_k W_k (\bar o_k - \bar o)^2 / W`,
    :math:`\mathrm{UNC} = \bar o (1 - \bar o)`,
    :math:`\mathrm{WBV} = \sum_k \sum_{i \in k} w_i (p_i - \bar f_k)^2 / W`,
    :math:`\mathrm{WBC} = 2 \sum_k \sum_{i \in k} w_i (p_i - \bar f_k)(y_i - \bar o_k) / W`.
    When every bin holds a single distinct forecast value, WBV = WBC = 0 and
    this is Murphy's (1973) classic partition; see
    :func:`murphy_from_statistics` for the bias correction.  The weights are
    scale-free: multiplying them all by a constant changes nothing.

    Multiclass (three or more columns): each class gets the binary
    decomposition of ``y == class`` against its column; the Brier scores
    and every component add up over classes, and the summed Brier score is
    scikit-learn's multiclass Brier score (on the [0, 2] scale).

    References
    ----------
    .. [1] A. H. Murphy, "A new vector partition of the probability score",
       Journal of Applied Meteorology 12(4), 595-600, 1973.
    .. [2] D. B. Stephenson, C. A. S. Coelho and I. T. Jolliffe, "Two extra
       components in the Brier score decomposition", Weather and
       Forecasting 23(4), 752-757, 2008.
    .. [3] C. A. T. Ferro and T. E. Fricker, "A bias-corrected decomposition
       of the Brier score", Quarterly Journal of the Royal Meteorological
       Society 138(668), 1954-1960, 2012.

    Examples
    --------
    >>> from skbrier.metrics.decomposition import murphy_decomposition
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> p = [0.4, 0.3, 0.2, 0.1, 0.5, 0.9]
    >>> d = murphy_decomposition(y, p, n_bins=2)
    >>> d.brier_score
    0.2266...
    >>> d.reliability - d.resolution + d.uncertainty + (
    ...     d.within_bin_variance - d.within_bin_covariance)
    0.2266...
    >>> d.bin_counts
    array([5, 1])
    """
    opts = murphy_options(
        n_bins, strategy, right, bias_correction, n_resamples, confidence_level, n_jobs
    )
    return _per_class(
        "murphy",
        lambda y01, p, w, r: murphy_binary(y01, p, w, rng=r, **opts),
        (y_true, y_proba, sample_weight, labels, pos_label),
        random_state,
        opts["n_resamples"],
    )


# =============================================================================
# CORP (isotonic) decomposition
# =============================================================================


@backends(dask="skbrier._backends._dask._adapters:corp_decomposition", array_api=HOST)
@shared_doc
def corp_decomposition(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    n_resamples: int = 0,
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
    random_state: Any = None,
    n_jobs: int | None = None,
    resolution: float | str | None = None,
) -> CORPDecomposition | MulticlassDecomposition:
    r"""CORP decomposition of the Brier score (isotonic recalibration).

    The forecasts are recalibrated by isotonic regression of the outcomes on
    the forecasts (pool-adjacent-violators, ties pooled): the recalibrated
    forecast :math:`\hat c(p)` estimates the conditional event probability
    given the forecast.  Then, with :math:`S` the Brier score,

    .. math::

        \mathrm{MCB} = S(p) - S(\hat c), \quad
        \mathrm{DSC} = S(\bar o) - S(\hat c), \quad
        \mathrm{UNC} = S(\bar o) = \bar o (1 - \bar o),

    and :math:`\mathrm{BS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC}`
    exactly.  Unlike binned decompositions, nothing has to be chosen (CORP:
    Consistent, Optimally binned, Reproducible, PAV-based).

    Parameters
    ----------
    {{decomposed_inputs}}
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights (integer weights give the same
        components as repeated rows).
    labels : array-like of shape (n_classes,), default=None
        Classes of the columns of a 2-D ``y_proba``.
    pos_label : int, float, bool or str, default=None
        The positive class of binary input.
    n_resamples : int, default=0
        Number of resamples for the consistency band, the calibration
        p-value and the bootstrap confidence intervals (0: none, else at
        least 2; 1000 is a good choice for intervals).
    confidence_level : float, default=0.95
        Level of the consistency band.
    random_state : None, int, numpy Generator, SeedSequence or RandomState
        Seed of the resampling.  Results do not depend on ``n_jobs``.
    n_jobs : int, default=None
        Number of joblib workers for the resampling (None: 1, -1: all).
    {{resolution}}
        See Notes.

    Returns
    -------
    CORPDecomposition or MulticlassDecomposition
        A :class:`CORPDecomposition` for binary input (1-D or two columns);
        a :class:`MulticlassDecomposition` of one-vs-rest decompositions for
        three or more columns.

    Raises
    ------
    ValueError
        For invalid forecasts, labels or weights, bad ``n_resamples``,
        ``confidence_level`` outside (0, 1) or ``n_jobs=0``.
    TypeError
        For non-numeric input or options of the wrong type.

    See Also
    --------
    murphy_decomposition : The binned decomposition (mergeable over chunks).

    Notes
    -----
    One sort orders the forecasts; tied forecasts are pooled into one
    weighted point; :func:`scipy.optimize.isotonic_regression` solves the
    weighted PAV problem on the pooled points; every score is computed from
    the pooled sums.  Ties are forecasts that are exactly equal (``-0.0``
    and ``0.0`` are equal); scikit-learn's
    :class:`~sklearn.isotonic.IsotonicRegression` (and hence
    model-diagnostics) also merges forecasts closer than ``1e-15``, so
    forecasts produced by arithmetic such as ``1 - a - b`` should be rounded
    first (for example ``np.round(p, 12)``) to be pooled.  Rows of zero
    weight are ignored.

    *Resolution.*  Rounding to a step :math:`r` is non-decreasing: it ties
    forecasts closer than :math:`r` and reverses none, so the Brier score
    changes by at most :math:`r`, the isotonic fit is constrained to the
    coarser ties (the discrimination can only decrease) and the uncertainty
    is unchanged.

    *Consistency band*, as R ``reliabilitydiag`` (``region.method =
    "resampling"``, ``region.position = "diagonal"``): each resample draws
    the rows with replacement and the outcomes from Bernoulli(forecast),
    i.e. under the hypothesis of calibration, and refits PAV; its curve is
    interpolated linearly at the original forecast values and left out at
    those outside its own range of forecasts; the band holds the pointwise
    ``(1 -+ confidence_level) / 2`` quantiles of the curves left (the
    kernel :func:`skbrier._core.kernels.decomposition.consistency_band_from_resamples`).
    The same resamples give the p-value of the calibration hypothesis from
    the miscalibration statistic.  *Bootstrap intervals*: rows resampled
    with replacement (outcomes kept).  Both resamplings draw the pooled
    values (multinomial and binomial counts, the same law as drawing rows)
    in O(distinct values).  Weights are frequencies: the total weight is the
    number of observations drawn, so integer weights give the resamples of
    the repeated rows (the same draws for the same ``random_state``).

    Multiclass (three or more columns): one binary CORP decomposition per
    class (``y == class`` against its column); the Brier scores and the
    components add up to scikit-learn's multiclass Brier score (the [0, 2]
    scale).

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118,
       2021.
    .. [2] R package ``reliabilitydiag`` (A. I. Jordan, T. Dimitriadis).
    .. [3] model-diagnostics, ``model_diagnostics.scoring.decompose``.

    Examples
    --------
    >>> from skbrier.metrics.decomposition import corp_decomposition
    >>> d = corp_decomposition([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9])
    >>> round(d.miscalibration, 7), d.discrimination, d.uncertainty
    (0.1016667, 0.125, 0.25)
    >>> d.miscalibration - d.discrimination + d.uncertainty
    0.22666...
    >>> d = corp_decomposition([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9],
    ...                        n_resamples=200, random_state=0)
    >>> ci = d.confidence_interval(metric="discrimination")
    >>> ci.low <= d.discrimination <= ci.high
    True
    """
    resolution = check_resolution(resolution)
    opts = bootstrap_options(n_resamples, confidence_level, n_jobs)
    return _per_class(
        "corp",
        lambda y01, p, w, r: corp_binary(
            y01, apply_resolution(y01, p, w, resolution), w, rng=r, **opts
        ),
        (y_true, y_proba, sample_weight, labels, pos_label),
        random_state,
        opts["n_resamples"],
    )


def _per_class(method: str, decompose, data: tuple, random_state: Any, n_resamples: int):
    """``decompose(y01, p, w, rng)`` of binary input, or a
    :class:`MulticlassDecomposition` of it per class (one-vs-rest);
    ``data`` is ``(y_true, y_proba, sample_weight, labels, pos_label)``."""
    y_true, y_proba, sample_weight, labels, pos_label = data
    validate_random_state(random_state)
    if is_multilabel(y_true):  # one decomposition per label
        fc = check_multilabel(y_true, y_proba, sample_weight=sample_weight, labels=labels)
    else:
        fc = check_forecast(
            y_true, y_proba, sample_weight=sample_weight, labels=labels, pos_label=pos_label
        )
    pairs, classes = binary_columns(fc, pos_label)
    rngs = class_generators(random_state, n_resamples, len(pairs))
    results = [decompose(y01, p, fc.sample_weight, r) for (y01, p), r in zip(pairs, rngs)]
    if classes is None:
        return results[0]
    return MulticlassDecomposition(
        decomposition_method=method, classes=classes, per_class=tuple(results)
    )
