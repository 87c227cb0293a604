r"""Calibration errors of probability forecasts: binned (ECE, RMS, MCE) and smooth.

* :func:`calibration_error` -- binary, top-label and classwise binned
  calibration errors with norms l1 (ECE), l2 (RMS) and max (MCE), the
  debiased L2 estimator of Kumar, Liang & Ma (2019), and ``binning=`` presets
  that reproduce the peers exactly;
* :func:`smooth_calibration_error` -- smECE (Błasiok & Nakkiran 2023);
* :func:`calibration_error_interval` -- bootstrap intervals of either,
  through the one resampling engine.

How the peers bin (and the preset that reproduces each one)
-----------------------------------------------------------
``binning=None`` (default)
    skbrier's one binning rule (:mod:`skbrier._core.binning`): edges
    ``k / n_bins`` (or frequency-weighted linear quantiles), an edge value in
    the lower bin (``right=True``).  Identical to Kumar et al.'s
    ``calibration.get_ece`` (``get_equal_prob_bins`` + ``searchsorted``).
``"sklearn"``
    :func:`sklearn.calibration.calibration_curve`: edges
    ``np.linspace(0, 1, n_bins + 1)`` (some inner edges differ from ``k / K``
    in the last bit) or ``np.percentile`` for ``strategy="quantile"``;
    ``np.searchsorted(edges[1:-1], p)``: an edge value in the lower bin.
``"torchmetrics"``
    ``torchmetrics`` ``binary/multiclass_calibration_error``: edges
    ``torch.linspace(0, 1, n_bins + 1)``, ``bucketize(right=True) - 1``: bins
    ``[e_k, e_{k+1})`` and a forecast of exactly 1 in an extra bin of its
    own; with ``debias`` a bin of one sample keeps its plug-in term.
``"netcal"``
    ``netcal.metrics.ECE``/``MCE``: ``np.histogramdd`` on
    ``np.linspace(0, 1, n_bins + 1)`` (``equal_intervals=False``:
    ``np.quantile`` edges with the ends set to 0 and 1): bins
    ``[e_k, e_{k+1})``, the last one closed.
``"helm"``
    HELM's ``ece_10_bin`` = ``calibration.get_ece_em`` of the
    ``uncertainty-calibration`` package (Kumar et al.): the sorted forecasts
    split by ``np.array_split`` into ``n_bins`` groups, edges at the midpoints
    between groups, an edge value in the lower bin.
``"hle"``
    The HLE judge's ``calib_err``: sort by confidence, consecutive bins of
    100 samples, the last absorbing the remainder -- and, as in its loop,
    the last bin left out of the sum (its weight still counts in the
    denominator).  Use ``norm="l2"`` for HLE's "calibration error".
``"hle_all_bins"``
    HLE's bins with every bin in the sum, the last one included (the RMS
    calibration error its loop means to compute).
``"discrete"``
    One bin per distinct forecast value: Kumar et al.'s
    ``calibration.get_discrete_bins`` (``get_binning_ce``), for forecasts
    that take few values, as verbalized confidences (0, 5, ..., 100) do.

Weights
-------
``sample_weight`` holds frequency weights: integer weights give the numbers
of repeated rows.  Where the statistic does not count observations
(skbrier's uniform bins, explicit edges, the ``"sklearn"``/``"netcal"``
uniform, ``"torchmetrics"`` and ``"discrete"`` bins, and smECE) multiplying
all weights by a constant changes nothing.  Rules that count rows depend on
the total weight as on the number of rows: equal-mass bins (linear
quantiles of the expanded sample), ``"helm"`` (groups of rows), ``"hle"``
(bins of 100 rows; integer weights only) and ``debias=True`` (a variance over
:math:`W_b - 1` per bin; refused below 3 observations, as
:func:`skbrier.brier_inference` refuses).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.dispatch import HOST, Refused, backends
from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_N_BINS,
    DEFAULT_N_RESAMPLES,
    DEFAULT_STRATEGY,
    check_confidence_level,
    check_min_samples,
    check_n_jobs,
    check_n_resamples,
    check_option,
)
from .._core.resampling import (
    frequency_resampler,
    interval_from_replicates,
    run_replicates,
)
from .._core.results import ConfidenceInterval, _IntervalResult
from .._core.validation import scale_free_weights
from ._calibration_error_core import (
    BINNING_PRESETS,
    Pairs,
    ce_point,
    ce_value,
    check_bandwidth,
    check_options,
    check_sample_size,
    prepare,
    ratios_only,
    smooth_value,
    top_label_pass,
)

__all__ = [
    "BINNING_PRESETS",
    "CalibrationErrorInterval",
    "calibration_error",
    "calibration_error_interval",
    "smooth_calibration_error",
]


_IN_MEMORY = Refused(
    "kernel smoothing and resampling need all rows in memory; compute it on a uniform "
    "subsample, e.g. df.sample(frac=0.01).compute()"
)


# --------------------------------------------------------------------------- public
@backends(
    dask="skbrier._backends._dask._adapters:calibration_error",
    array_api="skbrier._backends._array_api:calibration_error",
)
def calibration_error(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    kind: Literal["top_label", "binary", "classwise"] = "top_label",
    norm: Literal["l1", "l2", "max"] = "l1",
    squared: bool = False,
    n_bins: int = DEFAULT_N_BINS,
    strategy: Literal["uniform", "quantile"] = DEFAULT_STRATEGY,
    binning: str | ArrayLike | None = None,
    debias: bool = False,
    right: bool = True,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_scale: float = 1.0,
) -> float:
    r"""Binned calibration error: ECE (l1), RMS calibration error (l2) or MCE (max).

    The forecasts :math:`p_i` are grouped into bins :math:`B_b`; with
    :math:`W_b` the (frequency) weight of bin :math:`b`, :math:`W` the total,
    :math:`\bar p_b` the bin's mean forecast and :math:`\bar y_b` its
    observed frequency,

    .. math::

        \mathrm{ECE} = \sum_b \frac{W_b}{W} |\bar p_b - \bar y_b|, \quad
        \mathrm{RMSCE} = \Big(\sum_b \frac{W_b}{W} (\bar p_b - \bar y_b)^2\Big)^{1/2},
        \quad \mathrm{MCE} = \max_{W_b > 0} |\bar p_b - \bar y_b| .

    ``debias=True`` (``norm="l2"``) is the debiased estimator of Kumar,
    Liang & Ma (2019): each squared gap loses
    :math:`\bar y_b (1 - \bar y_b) / (W_b - 1)` (bins of weight below 2 are
    left out), the sum is clipped at 0 before the root.

    What is binned depends on ``kind``: ``"binary"`` the probability of
    the positive class against the outcome; ``"top_label"`` the largest
    probability of each row (the confidence) against whether its class (the
    first on ties) is the true one (Guo et al. 2017); ``"classwise"`` each
    class's probability one-vs-rest, averaged over classes (l1: mean; l2:
    root of the mean square, Kumar et al.'s marginal calibration error;
    max: maximum).  1-D ``y_proba`` is always binary (as Kumar et al.'s
    ``calibration`` package): the probability of ``pos_label``, or the
    stated confidence of an answer with ``y_true`` telling whether it was
    correct.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Outcomes (binary) or class labels; for verbalized confidence, whether
        each answer was correct (bool or 0/1).
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities; columns follow the sorted labels.
    kind : {"top_label", "binary", "classwise"}, default="top_label"
        What is calibrated (see above).
    norm : {"l1", "l2", "max"}, default="l1"
        ECE, RMS calibration error or maximum calibration error.
    squared : bool, default=False
        With ``norm="l2"`` only: the square of the RMS calibration error,
        :math:`\sum_b W_b (\bar p_b - \bar y_b)^2 / W` (the sum before the
        root): the binned reliability term of the Brier score decomposition
        (scikit-learn's ``calibration_error(..., norm="l2", squared=True)``).
    n_bins : int, default=10
        Number of bins: skbrier's one default, as its decompositions,
        reliability diagrams and ``calibration_report`` (HELM uses 10,
        torchmetrics and netcal 15: pass ``n_bins=15``, with
        ``binning="torchmetrics"`` or ``"netcal"`` for their edge rules).
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width or equal-mass bins (skbrier's rule, the one of its
        decompositions and reliability diagrams).  The equal-mass edges read
        ``sample_weight`` as frequency weights (the linear quantiles of the
        repeated rows), so they depend on the scale of the weights: a total
        weight of at most 1 puts every forecast in one bin.
    binning : str or array-like, default=None
        ``"sklearn"``, ``"torchmetrics"``, ``"netcal"``, ``"helm"``,
        ``"hle"``, ``"hle_all_bins"`` or ``"discrete"``: reproduce a peer's
        bins exactly (see the module docstring), or give the bin edges.  None: skbrier's bins from ``n_bins``/``strategy``.
        ``"discrete"``: one bin per distinct forecast value (Kumar et al.'s
        discrete bins; ``n_bins`` is ignored).  ``"hle"`` leaves HLE's last
        bin out of the sum as HLE does, ``"hle_all_bins"`` keeps it.
    debias : bool, default=False
        Kumar et al.'s debiased L2 estimator (``norm="l2"`` only).  It counts
        observations: the total (frequency) weight is the sample size, and
        fewer than 3 observations are refused.
    right : bool, default=True
        For skbrier's bins and explicit edges: a forecast on an inner edge
        goes to the lower bin (True, as scikit-learn) or the upper one.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    labels : array-like, default=None
        All class labels (the columns of ``y_proba``).
    pos_label : label, default=None
        The positive class of binary input.
    confidence_scale : float, default=1.0
        The scale of ``y_proba``: 100 for percentages (verbalized confidence
        stated as 0-100); values are divided by it.

    Returns
    -------
    float
        The calibration error, in [0, 1].

    Raises
    ------
    ValueError
        For invalid input or options (``debias`` with a norm other than l2 or
        with fewer than 3 observations, ``binning="hle"`` with fewer than 100
        samples).
    TypeError
        For options of the wrong type.

    Notes
    -----
    Dask arrays and DataFrame columns are scored in one pass
    (:class:`skbrier.states.CalibrationBinsState`) when the bins do not
    depend on the data: ``strategy="uniform"``, explicit edges, and the
    ``"sklearn"``, ``"netcal"`` (uniform) and ``"torchmetrics"`` presets;
    quantile bins and the ``"helm"``, ``"hle"``, ``"hle_all_bins"`` and
    ``"discrete"`` presets are refused there.  1-D forecasts on skbrier's
    uniform bins use the :class:`skbrier.states.BinnedState` of the binned
    decomposition instead (the state ``calibration_report`` already holds).

    See Also
    --------
    smooth_calibration_error : A bin-free calibration error.
    calibration_error_interval : Bootstrap intervals.

    References
    ----------
    .. [1] M. P. Naeini, G. Cooper and M. Hauskrecht, "Obtaining well
       calibrated probabilities using Bayesian binning", AAAI 2015.
    .. [2] C. Guo, G. Pleiss, Y. Sun and K. Q. Weinberger, "On calibration of
       modern neural networks", ICML 2017.
    .. [3] A. Kumar, P. Liang and T. Ma, "Verified uncertainty calibration",
       NeurIPS 2019.

    Examples
    --------
    >>> from skbrier.metrics.calibration_error import calibration_error
    >>> y = [0, 1, 2, 2]
    >>> p = [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6], [0.5, 0.1, 0.4]]
    >>> round(calibration_error(y, p, n_bins=2), 4)
    0.375
    >>> correct = [True, False, True, True]
    >>> stated = [90, 80, 70, 100]
    >>> round(calibration_error(correct, stated, confidence_scale=100, n_bins=5), 4)
    0.15
    >>> round(calibration_error(correct, stated, confidence_scale=100,
    ...                         binning="discrete"), 4)
    0.3
    """
    o = check_options(norm, n_bins, strategy, binning, debias, right, squared)
    seen = top_label_pass(y_proba, kind, o)  # the top labels, in the validation's pass
    data = prepare(
        y_true,
        y_proba,
        kind,
        sample_weight,
        labels,
        pos_label,
        confidence_scale,
        visit_rows=seen,
    )
    check_sample_size(o, data.n, data.total)
    if ratios_only(o):
        data.w = scale_free_weights(data.w)
    return ce_point(data, o, seen)


@backends(dask=_IN_MEMORY, array_api=HOST)
def smooth_calibration_error(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    kind: Literal["top_label", "binary", "classwise"] = "top_label",
    bandwidth: float | Literal["auto"] = "auto",
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_scale: float = 1.0,
) -> float:
    r"""Smooth calibration error smECE (Błasiok & Nakkiran 2023).

    The residuals :math:`r_i = p_i - y_i` are smoothed by a Gaussian kernel
    of width :math:`\sigma` reflected at 0 and 1,

    .. math::

        \hat r(t) = \frac{\sum_i w_i K_\sigma(t, p_i) r_i}
        {\sum_i w_i K_\sigma(t, p_i)}, \quad
        \hat\delta(t) = \sum_i w_i K_\sigma(t, p_i), \quad
        \mathrm{smECE}_\sigma = \frac{\int |\hat r(t)| \hat\delta(t)\,dt}
        {\int \hat\delta(t)\,dt},

    and the automatic bandwidth is the fixed point
    :math:`\sigma^* = \mathrm{smECE}_{\sigma^*}` (found by bisection).  It is
    computed as the authors' ``relplot.smECE`` computes it (forecasts
    rounded linearly onto a grid, ten bisection steps) with one difference:
    relplot adds 1e-4 to the density of :math:`n` unit masses in the
    denominator, which skbrier leaves out, so relplot's value is skbrier's
    times about :math:`1 - 10^{-4}/n`.  The weights enter through the
    ratio only: integer weights equal repeated rows, and multiplying all
    weights by a constant changes nothing.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Outcomes, class labels, or whether each answer was correct.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities (see :func:`calibration_error` for ``kind``).
    kind : {"top_label", "binary", "classwise"}, default="top_label"
        What is calibrated; ``"classwise"`` averages the per-class smECE.
    bandwidth : float or "auto", default="auto"
        The kernel width :math:`\sigma` in [1e-5, 1] (the grid has
        :math:`20 / \sigma` nodes), or the automatic one.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    labels : array-like, default=None
        All class labels.
    pos_label : label, default=None
        The positive class of binary input.
    confidence_scale : float, default=1.0
        100 for percentages.

    Returns
    -------
    float
        smECE, in [0, 1].

    Raises
    ------
    ValueError
        For invalid input or options.

    See Also
    --------
    calibration_error

    References
    ----------
    .. [1] J. Błasiok and P. Nakkiran, "Smooth ECE: Principled reliability
       diagrams via kernel smoothing", ICLR 2024 (arXiv:2309.12236).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics.calibration_error import smooth_calibration_error
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=2000)
    >>> y = rng.uniform(size=2000) < p ** 2
    >>> round(smooth_calibration_error(y, p), 3)
    0.16
    """
    bandwidth = check_bandwidth(bandwidth)
    data = prepare(
        y_true, y_proba, kind, sample_weight, labels, pos_label, confidence_scale
    )
    return smooth_value(data, data.w, bandwidth)


# --------------------------------------------------------------------------- intervals
@dataclasses.dataclass(frozen=True, repr=False)
class CalibrationErrorInterval(_IntervalResult):
    """A calibration error with its bootstrap interval.

    ``confidence_interval(confidence_level)`` recomputes the interval at
    another level from the stored replicates (``metric``: None or the one
    computed; ``method``: None, the one computed, or the other of
    ``"percentile"`` and ``"basic"``).

    Parameters
    ----------
    metric : str
        ``"calibration_error"`` or ``"smooth_calibration_error"``.
    estimate : float
        The statistic on the data.
    low, high : float
        The interval at ``confidence_level``.
    confidence_level : float
    method : str
        ``"percentile"`` or ``"basic"``.
    n_resamples : int
    replicates : ndarray of shape (n_resamples,)
        The bootstrap replicates.

    Examples
    --------
    >>> from skbrier.metrics.calibration_error import calibration_error_interval
    >>> res = calibration_error_interval([0, 1, 1, 0] * 10, [0.2, 0.7, 0.9, 0.4] * 10,
    ...                                  n_resamples=50, random_state=0)
    >>> round(res.estimate, 3), bool(res.low <= res.high)
    (0.2, True)
    """

    metric: str
    estimate: float
    low: float
    high: float
    confidence_level: float
    method: str
    n_resamples: int
    replicates: np.ndarray

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "metric",
        "estimate",
        "low",
        "high",
        "confidence_level",
        "method",
        "n_resamples",
    )
    _interval_metrics: ClassVar[tuple[str, ...]] = (
        "calibration_error",
        "smooth_calibration_error",
    )

    def _default_metric(self) -> str:
        return self.metric

    def _valid_metrics(self) -> tuple[str, ...]:
        return (self.metric,)

    def _default_method(self, metric: str) -> str:
        return self.method

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        ci = interval_from_replicates(
            self.replicates, level, method=method, estimate=self.estimate
        )
        return ConfidenceInterval(float(ci.low), float(ci.high))


def _bootstrap_task(
    data: Pairs, stat: Callable[[np.ndarray | None], float]
) -> Callable[[int, np.random.Generator], np.ndarray]:
    """Replicates of ``stat(counts)``: multiplicities of an iid resample of the
    observations (:func:`~skbrier._core.resampling.frequency_resampler`:
    integer weights draw exactly as the repeated rows)."""
    counts = frequency_resampler(data.w, data.n)

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty(size)
        for j in range(size):
            out[j] = stat(counts(rng))
        return out

    return task


@backends(dask=_IN_MEMORY, array_api=HOST)
def calibration_error_interval(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    metric: Literal["calibration_error", "smooth_calibration_error"] = "calibration_error",
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    method: Literal["percentile", "basic"] = "percentile",
    random_state: Any = None,
    n_jobs: int | None = None,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_scale: float = 1.0,
    **options: Any,
) -> CalibrationErrorInterval:
    r"""Bootstrap confidence interval of a calibration error.

    Rows are resampled with replacement (integer frequency weights: the
    rows they repeat; other weights: multinomial counts of
    :math:`\operatorname{round}(W)` draws with probabilities :math:`w_i / W`),
    the statistic is
    recomputed on each resample (equal-mass edges are recomputed too) and
    the interval is the percentile or basic interval of the replicates,
    all through :mod:`skbrier._core.resampling` (reproducible, the same for
    every ``n_jobs``).

    Parameters
    ----------
    y_true, y_proba : array-like
        As in :func:`calibration_error`.
    metric : {"calibration_error", "smooth_calibration_error"}, default="calibration_error"
        The statistic.
    confidence_level : float, default=0.95
    n_resamples : int, default=1999
    method : {"percentile", "basic"}, default="percentile"
    random_state : None, int, Generator, RandomState or SeedSequence, default=None
    n_jobs : int, default=None
        Threads for the resamples (results do not depend on it).
    sample_weight, labels, pos_label, confidence_scale
        As in :func:`calibration_error`.
    **options
        Keyword options of the statistic (``kind``, ``norm``, ``squared``,
        ``n_bins``, ``strategy``, ``binning``, ``debias``, ``right``; ``kind`` and
        ``bandwidth`` for smECE).

    Returns
    -------
    CalibrationErrorInterval

    Raises
    ------
    ValueError, TypeError
        For invalid input or options.

    See Also
    --------
    calibration_error, smooth_calibration_error

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*,
       Chapman & Hall, 1993.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics.calibration_error import calibration_error_interval
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=500)
    >>> y = rng.uniform(size=500) < p
    >>> res = calibration_error_interval(y, p, kind="binary", n_bins=10,
    ...                                  n_resamples=200, random_state=0)
    >>> bool(res.low < res.estimate < res.high)
    True
    """
    metric = check_option(
        metric, "metric", ("calibration_error", "smooth_calibration_error")
    )
    level = check_confidence_level(confidence_level)
    n_resamples = check_n_resamples(n_resamples)
    method = check_option(method, "method", ("percentile", "basic"))
    n_jobs = check_n_jobs(n_jobs)
    kind = options.pop("kind", "top_label")
    if metric == "calibration_error":
        allowed = {"norm", "n_bins", "strategy", "binning", "debias", "right", "squared"}
        bad = set(options) - allowed
        if bad:
            raise TypeError(f"unexpected options for calibration_error: {sorted(bad)}.")
        o = check_options(
            options.get("norm", "l1"),
            options.get("n_bins", DEFAULT_N_BINS),
            options.get("strategy", DEFAULT_STRATEGY),
            options.get("binning"),
            options.get("debias", False),
            options.get("right", True),
            options.get("squared", False),
        )
        data = prepare(
            y_true, y_proba, kind, sample_weight, labels, pos_label, confidence_scale
        )

        def stat(c: np.ndarray | None) -> float:
            return ce_value(data, c, o)
    else:
        bad = set(options) - {"bandwidth"}
        if bad:
            raise TypeError(
                f"unexpected options for smooth_calibration_error: {sorted(bad)}."
            )
        bw = check_bandwidth(options.get("bandwidth", "auto"))
        data = prepare(
            y_true, y_proba, kind, sample_weight, labels, pos_label, confidence_scale
        )

        def stat(c: np.ndarray | None) -> float:
            return smooth_value(data, c, bw)

    # a resampling interval counts observations (frequency weights): at
    # least 3, as brier_inference asks
    check_min_samples(data.n, None if data.w is None else data.total)
    estimate = stat(data.w)
    reps = run_replicates(
        _bootstrap_task(data, stat),
        n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        desc=metric,
    )
    ci = interval_from_replicates(reps, level, method=method, estimate=estimate)
    return CalibrationErrorInterval(
        metric=metric,
        estimate=float(estimate),
        low=float(ci.low),
        high=float(ci.high),
        confidence_level=level,
        method=method,
        n_resamples=n_resamples,
        replicates=reps,
    )
