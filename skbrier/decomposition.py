r"""``BrierDecomposition``: the Brier score split into miscalibration,
discrimination and uncertainty, as a scikit-learn style reporter.

The maths lives in :mod:`skbrier.metrics.decomposition`
(:func:`~skbrier.metrics.decomposition.corp_decomposition`,
:func:`~skbrier.metrics.decomposition.murphy_decomposition` and the mergeable
:class:`~skbrier.metrics.decomposition.BinStatistics`); this module validates
the parameters, keeps the fitted state (including the chunked state of
``partial_fit``), and reports: ``summary()``, ``to_frame()`` and ``plot()``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ._validation import check_forecast
from .metrics._brier_math import brier_index_from_score
from .metrics.decomposition import (
    BinStatistics,
    bin_edges,
    binned_statistics,
    corp_decomposition,
    murphy_decomposition,
    murphy_from_statistics,
)

__all__ = ["BrierDecomposition"]

#: edges of the forecast histogram kept for the reliability diagram
_HIST_EDGES = np.linspace(0.0, 1.0, 21)

_COMPONENTS = ("brier_score", "miscalibration", "discrimination", "uncertainty")
_WITHIN_BIN = ("within_bin_variance", "within_bin_covariance")


def _forecast_histogram(p: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Total weight of the forecasts in each of 20 equal bins of [0, 1] (O(n))."""
    idx = np.minimum((p * 20.0).astype(np.intp), 19)
    return np.bincount(idx, weights=w, minlength=20).astype(np.float64)


def _murphy_components(res) -> dict[str, float]:
    return {
        "brier_score": float(res.brier_score),
        "miscalibration": float(res.reliability),
        "discrimination": float(res.resolution),
        "uncertainty": float(res.uncertainty),
        "within_bin_variance": float(res.within_bin_variance),
        "within_bin_covariance": float(res.within_bin_covariance),
    }


def _murphy_table(res, level: float) -> dict[str, np.ndarray]:
    e = np.asarray(res.bin_edges, dtype=np.float64)
    lo, hi = _wilson_interval(res.statistics, level)
    return {
        "lower": e[:-1],
        "upper": e[1:],
        "count": np.asarray(res.bin_counts),
        "weight": np.asarray(res.bin_weights, dtype=np.float64),
        "mean_forecast": np.asarray(res.bin_mean_forecast, dtype=np.float64),
        "observed_frequency": np.asarray(res.bin_observed_frequency, dtype=np.float64),
        "observed_low": lo,
        "observed_high": hi,
    }


def _corp_components(res) -> dict[str, float]:
    return {
        "brier_score": float(res.brier_score),
        "miscalibration": float(res.miscalibration),
        "discrimination": float(res.discrimination),
        "uncertainty": float(res.uncertainty),
    }


def _corp_table(res) -> dict[str, np.ndarray]:
    table = {
        "forecast": np.asarray(res.forecast_values, dtype=np.float64),
        "recalibrated": np.asarray(res.recalibrated_values, dtype=np.float64),
        "weight": np.asarray(res.value_weights, dtype=np.float64),
        "count": np.asarray(res.value_counts),
    }
    if res.band_forecast is not None:
        # the band is stored at (up to 2000) of the distinct forecasts; NaN elsewhere
        lo = np.full(table["forecast"].shape[0], np.nan)
        hi = lo.copy()
        pos = np.searchsorted(table["forecast"], res.band_forecast)
        lo[pos] = res.band_lower
        hi[pos] = res.band_upper
        table["band_lower"] = lo
        table["band_upper"] = hi
    return table


def _corp_intervals(res) -> dict[str, tuple[float, float]] | None:
    if res.bootstrap_distribution is None:
        return None
    return {k: tuple(float(v) for v in res.confidence_interval(k)) for k in _COMPONENTS}


def _step_vertices(x: np.ndarray, c: np.ndarray, max_points: int = 1000):
    """Vertices of the drawn recalibration curve, without losing anything.

    The curve is constant on each PAV block and linear between blocks, so
    only the first and last forecast of each block matter.  Up to
    ``max_points`` distinct forecasts are kept as they are (markers show
    where the data are); more are reduced to the block ends.
    """
    if x.shape[0] <= max_points:
        return x, c
    change = np.diff(c) != 0
    keep = np.ones(x.shape[0], dtype=bool)
    keep[1:-1] = change[:-1] | change[1:]
    return x[keep], c[keep]


def _wilson_interval(stats: BinStatistics, level: float):
    r"""Wilson score interval of each bin's observed frequency.

    Weighted bins use Kish's effective sample size
    :math:`n_k = (\sum w)^2 / \sum w^2` (the count when unweighted).  Empty
    bins give NaN.
    """
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + level / 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        n = stats.sum_w**2 / stats.sum_ww
        o = stats.sum_wy / stats.sum_w
        denom = 1.0 + z * z / n
        center = (o + z * z / (2 * n)) / denom
        half = z / denom * np.sqrt(o * (1 - o) / n + z * z / (4 * n * n))
    return np.clip(center - half, 0.0, 1.0), np.clip(center + half, 0.0, 1.0)


def _binned_replicate(ys, ps, w, edges, bias_correction, seed) -> np.ndarray:
    """Components of one bootstrap resample of the rows (all classes jointly)."""
    rng = np.random.default_rng(seed)
    n = ps[0].shape[0]
    idx = rng.integers(0, n, size=n)
    wi = None if w is None else w[idx]
    out = np.empty((len(ps), 6))
    for k, (y01, p) in enumerate(zip(ys, ps)):
        try:
            r = murphy_from_statistics(
                binned_statistics(y01[idx], p[idx], wi, edges),
                bias_correction=bias_correction,
            )
            out[k] = [r.brier_score, r.reliability, r.resolution, r.uncertainty,
                      r.within_bin_variance, r.within_bin_covariance]
        except (ValueError, ZeroDivisionError, FloatingPointError):
            out[k] = np.nan  # a resample with zero total weight
    return out


def _binned_intervals(ys, ps, w, edges_list, n_resamples, level, bias_correction,
                      random_state, n_jobs) -> list[dict[str, tuple[float, float]]]:
    """Bootstrap percentile intervals of the binned components (fixed edges)."""
    from joblib import Parallel, delayed

    rng = check_random_state(random_state)
    seeds = rng.randint(0, 2**31 - 1, size=n_resamples)
    edges = edges_list[0] if len(edges_list) == 1 else None
    if edges is None:  # per-class edges (quantile strategy): one class at a time
        reps = np.concatenate([
            np.stack([_binned_replicate([y], [p], w, e, bias_correction, s)[0]
                      for s in seeds])[:, None, :]
            for y, p, e in zip(ys, ps, edges_list)
        ], axis=1)
    elif n_jobs in (None, 1):
        reps = np.stack([_binned_replicate(ys, ps, w, edges, bias_correction, s)
                         for s in seeds])
    else:
        reps = np.stack(Parallel(n_jobs=n_jobs, prefer="threads")(
            delayed(_binned_replicate)(ys, ps, w, edges, bias_correction, s) for s in seeds
        ))
    names = ("brier_score", "miscalibration", "discrimination", "uncertainty",
             "within_bin_variance", "within_bin_covariance")
    lo, hi = np.nanquantile(reps, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return [
        {name: (float(lo[k, j]), float(hi[k, j])) for j, name in enumerate(names)}
        for k in range(reps.shape[1])
    ]


class BrierDecomposition(BaseEstimator):
    r"""Split a Brier score into miscalibration, discrimination and uncertainty.

    A reporter with scikit-learn conventions (``get_params``/``set_params``,
    :func:`~sklearn.base.clone`, ``repr``, ``fit`` returning ``self``,
    fitted attributes ending in ``_``).  It does not predict: ``fit`` takes
    outcomes and forecasts, computes the decomposition

    .. math::

        \mathrm{BS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC},

    and exposes the components, the reliability table, confidence intervals
    and a reliability diagram.

    Parameters
    ----------
    method : {"corp", "binned"}, default="corp"
        ``"corp"``: the CORP decomposition of Dimitriadis, Gneiting and
        Jordan (2021): the forecasts are recalibrated by isotonic (PAV)
        regression, :math:`\mathrm{MCB} = \mathrm{BS}(p) - \mathrm{BS}(c)`,
        :math:`\mathrm{DSC} = \mathrm{UNC} - \mathrm{BS}(c)`; no tuning
        parameter, exact, needs all data at once.
        ``"binned"``: the Murphy decomposition on bins with the
        Stephenson--Coelho--Jolliffe within-bin terms,
        :math:`\mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC} +
        \mathrm{WBV} - \mathrm{WBC}` exactly (``miscalibration_`` is REL and
        ``discrimination_`` is RES); O(n) without sorting and mergeable across
        chunks (:meth:`partial_fit`).
    n_bins : int, default=10
        Number of bins (binned method).
    strategy : {"uniform", "quantile"} or array-like of edges, default="uniform"
        Placement of the bins (binned method): equal width, equal (weighted)
        count, or explicit strictly increasing edges covering the forecasts.
    n_resamples : int, default=0
        Number of resamples: CORP method, for the consistency band of the
        reliability curve, the calibration test and the bootstrap confidence
        intervals of the components; binned method, for bootstrap intervals
        of the components (rows resampled, bin edges held fixed).  0 skips
        the resampling (fast).  Several hundred are typical.  Chunked fits
        (:meth:`partial_fit`) have no intervals.
    confidence_level : float, default=0.95
        Level of the consistency band and of the confidence intervals.
    bias_correction : bool, default=False
        Ferro--Fricker bias correction of the binned components (binned
        method).
    pos_label : int, float, bool or str, default=None
        Class whose probability a 1-D ``y_proba`` holds; as in
        :func:`skbrier.metrics.brier.brier_score`.
    labels : array-like of shape (n_classes,), default=None
        Classes of the columns of a 2-D ``y_proba`` (sorted); may name
        classes absent from ``y_true`` (a test fold without one class).
        Inferred from ``y_true`` if None.
    random_state : int, RandomState instance or None, default=None
        Seed of the resampling.
    n_jobs : int, default=None
        Number of parallel jobs for the resampling (joblib).

    Attributes
    ----------
    brier_score_ : float
        The Brier score (scikit-learn's scale: [0, 1] binary, [0, 2] for three
        or more classes).
    miscalibration_ : float
        MCB (CORP) or REL (binned); lower is better.
    discrimination_ : float
        DSC (CORP) or RES (binned); higher is better.
    uncertainty_ : float
        UNC, :math:`\bar o (1 - \bar o)` (summed over classes for multiclass).
    within_bin_variance_, within_bin_covariance_ : float
        WBV and WBC (binned method only).
    brier_index_ : float
        Brier Index :math:`100 (1 - \sqrt{\mathrm{BS}_{[0, 1]}})`.
    n_samples_seen_ : int
        Number of samples the decomposition is based on.
    table_ : dict of ndarray
        The reliability table.  CORP: ``forecast`` (distinct forecast values),
        ``recalibrated`` (isotonic fit), ``weight`` and, with resampling,
        ``band_lower``/``band_upper`` (consistency band).  Binned: ``lower``,
        ``upper``, ``count``, ``weight``, ``mean_forecast``,
        ``observed_frequency`` and its Wilson score interval at
        ``confidence_level`` (``observed_low``/``observed_high``; Kish
        effective sample size with weights).  Multiclass: the per-class tables stacked,
        with a ``class`` column.
    confidence_intervals_ : dict or None
        ``{component: (low, high)}`` bootstrap percentile intervals when
        ``n_resamples > 0`` (for multiclass ``{class: {component: (low,
        high)}}``), else None.
    miscalibration_pvalue_ : float or None
        Resampling p-value of the hypothesis that the forecasts are
        calibrated (binary CORP with ``n_resamples > 0``), else None.
    classes_ : ndarray or None
        The classes of the columns for 2-D ``y_proba`` with three or more
        columns (one-vs-rest decomposition), else None.
    per_class_ : dict of ndarray or None
        One-vs-rest components per class (multiclass), else None.  They add up
        to the attributes above.
    result_ : object or list
        The result object(s) of the metric function(s), for everything else
        they hold.

    See Also
    --------
    skbrier.metrics.decomposition.corp_decomposition : the CORP function.
    skbrier.metrics.decomposition.murphy_decomposition : the binned function.
    skbrier.plotting.reliability.ReliabilityDisplay : the diagram.

    Notes
    -----
    **Huge data in chunks.**  The binned method needs only per-bin sums
    (:class:`~skbrier.metrics.decomposition.BinStatistics`), which add
    exactly across chunks.  With fixed edges (``strategy="uniform"`` or an
    explicit array; quantile edges depend on all data and cannot be merged)
    call :meth:`partial_fit` on each chunk; the result equals ``fit`` on all
    data up to floating-point summation order::

        dec = BrierDecomposition(method="binned", n_bins=20)
        for y_chunk, p_chunk in chunks:
            dec.partial_fit(y_chunk, p_chunk)
        print(dec.summary())

    **dask.**  Fit one decomposition per partition, in parallel, and reduce
    with :meth:`merge` (a tree reduction works as well as a fold); only the
    per-bin sums travel between workers::

        import functools, dask
        parts = ddf.to_delayed()          # one pandas DataFrame per partition

        @dask.delayed
        def fit_part(df):
            return BrierDecomposition(method="binned", n_bins=20).partial_fit(
                df["y"], df["p"])

        dec = dask.delayed(functools.reduce)(
            BrierDecomposition.merge, [fit_part(d) for d in parts]).compute()

    For dask arrays use ``y.to_delayed()`` and ``p.to_delayed()`` the same
    way.  Multiclass chunks need ``classes=`` in :meth:`partial_fit`, and
    binary labels other than {0, 1} or {-1, 1} need ``pos_label``, because
    one chunk may not show every class.

    The CORP method sorts all forecasts (isotonic regression) and is not
    mergeable; on a sample of a few million forecasts it still takes well
    under a minute.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118, 2021.
    .. [2] A. H. Murphy, "A new vector partition of the probability score",
       Journal of Applied Meteorology 12, 595-600, 1973.
    .. [3] D. B. Stephenson, C. A. S. Coelho and I. T. Jolliffe, "Two extra
       components in the Brier score decomposition", Weather and Forecasting
       23, 752-757, 2008.
    .. [4] C. A. T. Ferro and T. E. Fricker, "A bias-corrected decomposition of
       the Brier score", QJRMS 138, 1954-1960, 2012.

    Examples
    --------
    >>> from skbrier.decomposition import BrierDecomposition
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> p = [0.4, 0.3, 0.2, 0.1, 0.5, 0.9]
    >>> dec = BrierDecomposition().fit(y, p)
    >>> dec
    BrierDecomposition()
    >>> round(dec.miscalibration_, 7), dec.discrimination_, dec.uncertainty_
    (0.1016667, 0.125, 0.25)
    >>> round(dec.brier_score_, 7), round(dec.brier_index_, 2)
    (0.2266667, 52.39)

    Chunked binned decomposition, equal to the one-shot fit:

    >>> b = BrierDecomposition(method="binned", n_bins=5)
    >>> b = b.partial_fit(y[:3], p[:3]).partial_fit(y[3:], p[3:])
    >>> one = BrierDecomposition(method="binned", n_bins=5).fit(y, p)
    >>> abs(b.brier_score_ - one.brier_score_) < 1e-12
    True
    """

    def __init__(
        self,
        method: str = "corp",
        *,
        n_bins: int = 10,
        strategy: Any = "uniform",
        n_resamples: int = 0,
        confidence_level: float = 0.95,
        bias_correction: bool = False,
        pos_label: Any = None,
        labels: Any = None,
        random_state: Any = None,
        n_jobs: int | None = None,
    ) -> None:
        self.method = method
        self.n_bins = n_bins
        self.strategy = strategy
        self.n_resamples = n_resamples
        self.confidence_level = confidence_level
        self.bias_correction = bias_correction
        self.pos_label = pos_label
        self.labels = labels
        self.random_state = random_state
        self.n_jobs = n_jobs

    # ------------------------------------------------------------------ params
    def _check_params(self) -> None:
        if not isinstance(self.method, str) or self.method not in ("corp", "binned"):
            raise ValueError(f"method must be 'corp' or 'binned', got {self.method!r}.")
        if isinstance(self.n_bins, (bool, np.bool_)) or not isinstance(
            self.n_bins, numbers.Integral
        ):
            raise TypeError(f"n_bins must be an integer, got {type(self.n_bins).__name__}.")
        if self.n_bins < 1:
            raise ValueError(f"n_bins must be >= 1, got {self.n_bins}.")
        if isinstance(self.strategy, str) and self.strategy not in ("uniform", "quantile"):
            raise ValueError(
                "strategy must be 'uniform', 'quantile' or an array of bin edges, "
                f"got {self.strategy!r}."
            )
        if isinstance(self.n_resamples, (bool, np.bool_)) or not isinstance(
            self.n_resamples, numbers.Integral
        ):
            raise TypeError(
                f"n_resamples must be an integer, got {type(self.n_resamples).__name__}."
            )
        if self.n_resamples < 0:
            raise ValueError(f"n_resamples must be >= 0, got {self.n_resamples}.")
        if isinstance(self.confidence_level, (bool, np.bool_)) or not isinstance(
            self.confidence_level, numbers.Real
        ):
            raise TypeError(
                "confidence_level must be a real number, got "
                f"{type(self.confidence_level).__name__}."
            )
        if not 0.0 < float(self.confidence_level) < 1.0:
            raise ValueError(
                f"confidence_level must lie strictly between 0 and 1, got "
                f"{self.confidence_level!r}."
            )
        if not isinstance(self.bias_correction, (bool, np.bool_)):
            raise TypeError(
                f"bias_correction must be True or False, got {self.bias_correction!r}."
            )
        if self.n_jobs is not None and (
            isinstance(self.n_jobs, (bool, np.bool_))
            or not isinstance(self.n_jobs, numbers.Integral)
        ):
            raise TypeError(f"n_jobs must be an integer or None, got {self.n_jobs!r}.")

    # --------------------------------------------------------------- fitting
    def fit(
        self,
        y_true: ArrayLike,
        y_proba: ArrayLike,
        sample_weight: ArrayLike | None = None,
    ) -> BrierDecomposition:
        """Decompose the Brier score of forecasts ``y_proba`` for ``y_true``.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
            Predicted probabilities: 1-D (or one column) for the probability
            of ``pos_label``, two columns for a binary ``predict_proba``
            output (the second column is used), three or more for a
            one-vs-rest multiclass decomposition (columns follow the sorted
            labels).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights.

        Returns
        -------
        BrierDecomposition
            ``self``, fitted.

        Raises
        ------
        ValueError, TypeError
            For bad parameters or bad input (NaN, probabilities outside
            [0, 1], length mismatches, empty input, unknown labels, bad
            weights), with the name of the offending parameter.

        See Also
        --------
        partial_fit : the same, chunk by chunk (binned method).

        Examples
        --------
        >>> from skbrier.decomposition import BrierDecomposition
        >>> dec = BrierDecomposition(method="binned", n_bins=2)
        >>> dec.fit([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.8]) is dec
        True
        >>> round(dec.miscalibration_, 4), round(dec.discrimination_, 4)
        (0.065, 0.25)
        """
        self._check_params()
        fc = check_forecast(
            y_true, y_proba, sample_weight=sample_weight, labels=self.labels,
            pos_label=self.pos_label,
        )
        ys, ps, class_names, classes = self._one_vs_rest(fc)
        w = fc.sample_weight
        # the metric functions decompose a binary forecast or, given the
        # integer class codes and all columns, one-vs-rest per class
        if classes is None:
            y_arg, p_arg, lab = ys[0], ps[0], None
        else:  # integer codes of the columns (a class may be absent from y_true)
            y_arg, p_arg, lab = fc.y, fc.proba, np.arange(fc.proba.shape[1])
        if self.method == "corp":
            res = corp_decomposition(
                y_arg, p_arg, sample_weight=w, n_resamples=int(self.n_resamples),
                confidence_level=float(self.confidence_level),
                random_state=self.random_state, n_jobs=self.n_jobs, labels=lab,
            )
        else:
            res = murphy_decomposition(
                y_arg, p_arg, n_bins=int(self.n_bins), strategy=self.strategy,
                sample_weight=w, bias_correction=bool(self.bias_correction), labels=lab,
            )
        results = [res] if classes is None else list(res.per_class)
        binned_cis = None
        if self.method == "binned" and int(self.n_resamples) > 0:
            binned_cis = _binned_intervals(
                ys, ps, w, [np.asarray(r.bin_edges) for r in results],
                int(self.n_resamples), float(self.confidence_level),
                bool(self.bias_correction), self.random_state, self.n_jobs,
            )
        self._set_results(results, class_names, classes, ps, w)
        if binned_cis is not None:
            self.confidence_intervals_ = (
                binned_cis[0] if classes is None else dict(zip(class_names, binned_cis))
            )
        self._chunk_classes = fc.classes
        # chunked state: only fixed edges can be continued by partial_fit
        if self.method == "binned" and self._mergeable():
            self._stats = [r.statistics for r in results]
        else:
            self._stats = None
        return self

    def _one_vs_rest(self, fc):
        """(outcomes, forecasts) per decomposed class, the class names, classes_."""
        if fc.binary_1d:
            return [fc.y], [fc.proba], None, None
        codes, proba, classes = fc.y, fc.proba, fc.classes
        if proba.shape[1] == 2:
            col = 1
            if self.pos_label is not None:
                hits = np.flatnonzero(classes == self.pos_label)
                if hits.shape[0] != 1:
                    raise ValueError(
                        f"pos_label={self.pos_label!r} is not one of the classes "
                        f"{classes.tolist()} of the columns of y_proba."
                    )
                col = int(hits[0])
            return [(codes == col).astype(np.float64)], [proba[:, col]], None, None
        ys = [(codes == k).astype(np.float64) for k in range(proba.shape[1])]
        ps = [np.ascontiguousarray(proba[:, k]) for k in range(proba.shape[1])]
        return ys, ps, [str(c) for c in classes], classes

    def _mergeable(self) -> bool:
        return not (isinstance(self.strategy, str) and self.strategy == "quantile")

    def _set_results(self, results, class_names, classes, ps, w, hists=None) -> None:
        binned = self.method == "binned"
        comp_fn = _murphy_components if binned else _corp_components
        level = float(self.confidence_level)
        table_fn = (lambda r: _murphy_table(r, level)) if binned else _corp_table
        comps = [comp_fn(r) for r in results]
        keys = list(_COMPONENTS) + (list(_WITHIN_BIN) if binned else [])
        totals = {k: float(sum(c[k] for c in comps)) for k in keys}
        self.brier_score_ = totals["brier_score"]
        self.miscalibration_ = totals["miscalibration"]
        self.discrimination_ = totals["discrimination"]
        self.uncertainty_ = totals["uncertainty"]
        if binned:
            self.within_bin_variance_ = totals["within_bin_variance"]
            self.within_bin_covariance_ = totals["within_bin_covariance"]
        elif hasattr(self, "within_bin_variance_"):
            del self.within_bin_variance_, self.within_bin_covariance_
        # multiclass scores are on the [0, 2] scale; the Index uses [0, 1]
        bs01 = self.brier_score_ if classes is None else 0.5 * self.brier_score_
        self.brier_index_ = brier_index_from_score(min(max(bs01, 0.0), 1.0))
        self.classes_ = classes
        if ps is not None:
            self.n_samples_seen_ = int(ps[0].shape[0])
        tables = [table_fn(r) for r in results]
        if classes is None:
            self.table_ = tables[0]
            self.per_class_ = None
        else:
            n_rows = [len(next(iter(t.values()))) for t in tables]
            self.table_ = {"class": np.repeat(np.asarray(classes), n_rows)}
            for key in tables[0]:
                self.table_[key] = np.concatenate([t[key] for t in tables])
            self.per_class_ = {"class": np.asarray(classes)}
            for key in keys:
                self.per_class_[key] = np.array([c[key] for c in comps])
        self.miscalibration_pvalue_ = None
        if not binned and classes is None:
            self.miscalibration_pvalue_ = results[0].miscalibration_pvalue
        if binned or int(self.n_resamples) == 0:
            self.confidence_intervals_ = None
        else:
            cis = [_corp_intervals(r) for r in results]
            if cis[0] is None:
                self.confidence_intervals_ = None
            elif classes is None:
                self.confidence_intervals_ = cis[0]
            else:  # per-class intervals; totals have none
                self.confidence_intervals_ = {
                    name: ci for name, ci in zip(class_names, cis)
                }
        self.result_ = results[0] if classes is None else results
        if hists is None:
            hists = [_forecast_histogram(p, w) for p in ps]
        self._hists = hists
        self._class_names = class_names

    # ------------------------------------------------------------- chunking
    def partial_fit(
        self,
        y_true: ArrayLike,
        y_proba: ArrayLike,
        sample_weight: ArrayLike | None = None,
        *,
        classes: ArrayLike | None = None,
    ) -> BrierDecomposition:
        """Add a chunk of data to the binned decomposition (exact merge).

        Only for ``method="binned"`` with fixed edges (``strategy="uniform"``
        or an explicit array of edges).  The per-bin sums of the chunk are
        added to those seen so far, and every fitted attribute is updated;
        after the last chunk the result equals :meth:`fit` on all the data
        up to floating-point summation order.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels of the chunk.
        y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
            Predicted probabilities of the chunk.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights of the chunk.
        classes : array-like of shape (n_classes,), default=None
            All classes, required on the first call with 2-D ``y_proba``
            (one chunk may not hold every class) unless ``labels`` is set.

        Returns
        -------
        BrierDecomposition
            ``self``.

        Raises
        ------
        ValueError
            For ``method="corp"``, ``strategy="quantile"``, a chunk that does
            not match the earlier ones (number of columns), missing
            ``classes`` or ambiguous binary labels without ``pos_label``,
            and for bad input.

        See Also
        --------
        merge : combine decompositions fitted on different chunks.

        Examples
        --------
        >>> import numpy as np
        >>> from skbrier.decomposition import BrierDecomposition
        >>> rng = np.random.default_rng(0)
        >>> p = rng.uniform(size=10_000)
        >>> y = (rng.uniform(size=10_000) < p).astype(int)
        >>> dec = BrierDecomposition(method="binned", n_bins=20)
        >>> for chunk in np.array_split(np.arange(10_000), 4):
        ...     dec = dec.partial_fit(y[chunk], p[chunk])
        >>> dec.n_samples_seen_
        10000
        >>> full = BrierDecomposition(method="binned", n_bins=20).fit(y, p)
        >>> abs(dec.discrimination_ - full.discrimination_) < 1e-12
        True
        """
        self._check_params()
        if self.method != "binned":
            raise ValueError(
                "partial_fit needs method='binned': the CORP decomposition is an "
                "isotonic regression on all forecasts at once and cannot be merged "
                "across chunks. Use fit on all data, or method='binned'."
            )
        if not self._mergeable():
            raise ValueError(
                "partial_fit needs fixed bin edges: strategy='quantile' places the "
                "edges at quantiles of all the data, which no chunk knows, so chunks "
                "cannot be merged exactly. Use strategy='uniform' or an explicit "
                "array of edges."
            )
        edges = self._fixed_edges()
        first = getattr(self, "_stats", None) is None
        known = self.labels if first else self._chunk_classes
        if classes is None:
            classes = known
        elif known is not None and not np.array_equal(np.asarray(classes), np.asarray(known)):
            raise ValueError(
                f"classes={list(classes)} differ from the classes of the earlier "
                f"chunks {list(known)}."
            )
        p_arr = np.asarray(y_proba) if not hasattr(y_proba, "to_numpy") else y_proba.to_numpy()
        if p_arr.ndim == 2 and p_arr.shape[1] >= 3 and classes is None:
            raise ValueError(
                "classes must be given on the first call of partial_fit with 2-D "
                "y_proba: one chunk may not hold every class."
            )
        fc = check_forecast(
            y_true, y_proba, sample_weight=sample_weight,
            labels=classes if p_arr.ndim == 2 and p_arr.shape[1] >= 2 else None,
            pos_label=self.pos_label,
        )
        if fc.binary_1d and self.pos_label is None:
            self._check_unambiguous_binary(y_true)
        ys, ps, class_names, cls_ = self._one_vs_rest(fc)
        if not first:
            n_prev = len(self._stats)
            if len(ys) != n_prev:
                raise ValueError(
                    f"y_proba has {fc.n_columns} column(s) but the earlier chunks had "
                    f"{'1' if n_prev == 1 else n_prev}."
                )
        w = fc.sample_weight
        for p in ps:
            if p.min() < edges[0] or p.max() > edges[-1]:
                raise ValueError(
                    f"y_proba has values outside the bin edges [{edges[0]}, {edges[-1]}]."
                )
        new = [binned_statistics(y01, p, w, edges) for y01, p in zip(ys, ps)]
        hists = [_forecast_histogram(p, w) for p in ps]
        if not first:
            new = [a + b for a, b in zip(self._stats, new)]
            hists = [a + b for a, b in zip(self._hists, hists)]
        self._update_from_statistics(new, class_names, cls_, hists)
        self._chunk_classes = fc.classes
        return self

    def _check_unambiguous_binary(self, y_true) -> None:
        """Without pos_label, chunks must use {0, 1} or {-1, 1} (positive class 1)."""
        y = np.asarray(y_true) if not hasattr(y_true, "to_numpy") else y_true.to_numpy()
        y = y.reshape(-1)
        if y.dtype.kind == "b":
            return
        if y.dtype.kind in "iuf" and (
            np.all((y == 0) | (y == 1)) or np.all((y == -1) | (y == 1))
        ):
            return
        raise ValueError(
            "pos_label must be set for partial_fit when the labels are not in {0, 1} "
            "or {-1, 1}: one chunk may hold a single class, so the positive class "
            "cannot be inferred chunk by chunk."
        )

    def _fixed_edges(self) -> np.ndarray:
        if isinstance(self.strategy, str):  # "uniform": the edges murphy_decomposition uses
            return bin_edges(np.zeros(1), n_bins=int(self.n_bins), strategy="uniform")
        return BinStatistics.empty(self.strategy).edges  # validates the edges

    def _update_from_statistics(self, stats, class_names, classes, hists) -> None:
        results = [
            murphy_from_statistics(s, bias_correction=bool(self.bias_correction))
            for s in stats
        ]
        self._set_results(results, class_names, classes, None, None, hists=hists)
        self.n_samples_seen_ = int(stats[0].n_samples)
        self._stats = stats

    def merge(self, other: BrierDecomposition) -> BrierDecomposition:
        """Add the data of another partially fitted decomposition (exact).

        ``a.merge(b)`` makes ``a`` the decomposition of the union of the
        data seen by ``a`` and ``b``.  This is the reduce step of chunked or
        distributed processing (see the Notes of the class): fit one
        decomposition per chunk with :meth:`partial_fit`, then merge them in
        any order.

        Parameters
        ----------
        other : BrierDecomposition
            A binned decomposition fitted with the same parameters and
            fixed edges.

        Returns
        -------
        BrierDecomposition
            ``self``, updated.

        Raises
        ------
        TypeError
            If ``other`` is not a BrierDecomposition.
        ValueError
            If either is not fitted with mergeable statistics or the
            parameters, edges or classes differ.

        Examples
        --------
        >>> from skbrier.decomposition import BrierDecomposition
        >>> a = BrierDecomposition(method="binned").partial_fit([0, 1], [0.2, 0.7])
        >>> b = BrierDecomposition(method="binned").partial_fit([1, 0], [0.9, 0.4])
        >>> a.merge(b).n_samples_seen_
        4
        """
        if not isinstance(other, BrierDecomposition):
            raise TypeError(f"other must be a BrierDecomposition, got {type(other).__name__}.")
        for est, name in ((self, "self"), (other, "other")):
            check_is_fitted(est)
            if getattr(est, "_stats", None) is None:
                raise ValueError(
                    f"{name} has no mergeable statistics: only method='binned' with "
                    "fixed edges (strategy='uniform' or an array) can be merged."
                )
        if self.bias_correction != other.bias_correction:
            raise ValueError("other uses a different bias_correction.")
        if len(self._stats) != len(other._stats) or (
            self.classes_ is not None
            and not np.array_equal(self.classes_, other.classes_)
        ):
            raise ValueError("other was fitted on different classes.")
        stats = [a + b for a, b in zip(self._stats, other._stats)]
        hists = [a + b for a, b in zip(self._hists, other._hists)]
        self._update_from_statistics(stats, self._class_names, self.classes_, hists)
        return self

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "brier_score_")

    # ------------------------------------------------------- constructors
    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_proba: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        **params: Any,
    ) -> BrierDecomposition:
        """Fitted decomposition of forecasts ``y_proba`` for outcomes ``y_true``.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
            Predicted probabilities.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights.
        **params : dict
            Parameters of :class:`BrierDecomposition`.

        Returns
        -------
        BrierDecomposition
            Fitted.

        Examples
        --------
        >>> from skbrier.decomposition import BrierDecomposition
        >>> d = BrierDecomposition.from_predictions([0, 1, 1], [0.2, 0.6, 0.9])
        >>> round(d.brier_score_, 4)
        0.07
        """
        return cls(**params).fit(y_true, y_proba, sample_weight=sample_weight)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        **params: Any,
    ) -> BrierDecomposition:
        """Fitted decomposition of a classifier's ``predict_proba`` on ``X``.

        For a binary classifier the probability of ``pos_label`` (default:
        ``estimator.classes_[1]``) is decomposed; for three or more classes
        the one-vs-rest decomposition of all columns.

        Parameters
        ----------
        estimator : fitted classifier with ``predict_proba`` and ``classes_``
            The forecaster (a pipeline works).
        X : array-like of shape (n_samples, n_features)
            Inputs.
        y : array-like of shape (n_samples,)
            True labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights.
        **params : dict
            Parameters of :class:`BrierDecomposition`.

        Returns
        -------
        BrierDecomposition
            Fitted.

        Raises
        ------
        TypeError
            If ``estimator`` has no ``predict_proba``.
        sklearn.exceptions.NotFittedError
            If ``estimator`` is not fitted.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.linear_model import LogisticRegression
        >>> from skbrier.decomposition import BrierDecomposition
        >>> X, y = make_classification(n_samples=400, random_state=0)
        >>> clf = LogisticRegression().fit(X[::2], y[::2])
        >>> d = BrierDecomposition.from_estimator(clf, X[1::2], y[1::2])
        >>> bs = d.miscalibration_ - d.discrimination_ + d.uncertainty_
        >>> abs(bs - d.brier_score_) < 1e-12
        True
        """
        if not hasattr(estimator, "predict_proba"):
            raise TypeError(
                f"estimator must have predict_proba; {type(estimator).__name__} has not."
            )
        check_is_fitted(estimator)
        proba = np.asarray(estimator.predict_proba(X))
        classes = getattr(estimator, "classes_", None)
        if proba.ndim == 2 and proba.shape[1] == 2:
            if classes is None:
                raise TypeError("estimator must have classes_ to pick the positive column.")
            pos_label = params.get("pos_label")
            if pos_label is None:
                pos_label = classes[1]
            matches = np.flatnonzero(np.asarray(classes) == pos_label)
            if matches.shape[0] != 1:
                raise ValueError(
                    f"pos_label={pos_label!r} is not one of the classes "
                    f"{list(classes)} of the estimator."
                )
            params["pos_label"] = pos_label
            proba = proba[:, matches[0]]
        elif classes is not None and params.get("labels") is None:
            params["labels"] = np.asarray(classes)
        return cls(**params).fit(y, proba, sample_weight=sample_weight)

    # ------------------------------------------------------------- reports
    def _components_dict(self) -> dict[str, float]:
        keys = list(_COMPONENTS)
        if self.method == "binned":
            keys += list(_WITHIN_BIN)
        return {k: getattr(self, k + "_") for k in keys}

    def summary(self) -> str:
        """A readable text report of the decomposition.

        Returns
        -------
        str
            Components, identity check, Brier Index and, when fitted with
            resampling, the confidence intervals; per-class rows for
            multiclass.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.

        Examples
        --------
        >>> from skbrier.decomposition import BrierDecomposition
        >>> dec = BrierDecomposition().fit([0, 0, 0, 1, 1, 1], [.4, .3, .2, .1, .5, .9])
        >>> print(dec.summary())
        Brier score decomposition (CORP: isotonic recalibration, PAV)
        n = 6 samples
          Brier score        BS    0.226667
          miscalibration     MCB   0.101667
          discrimination     DSC   0.125000
          uncertainty        UNC   0.250000
          MCB - DSC + UNC = 0.226667
          Brier Index 52.39 (100 = perfect, 50 = always 50 %)
        """
        check_is_fitted(self)
        binned = self.method == "binned"
        if binned:
            head = (
                f"Brier score decomposition (binned Murphy / Stephenson-Coelho-Jolliffe, "
                f"{self._n_bins_used()} bins"
                + (", Ferro-Fricker bias-corrected" if self.bias_correction else "")
                + ")"
            )
            names = {
                "miscalibration": "reliability        REL",
                "discrimination": "resolution         RES",
                "uncertainty": "uncertainty        UNC",
                "within_bin_variance": "within-bin var.    WBV",
                "within_bin_covariance": "within-bin cov.    WBC",
            }
            identity = "REL - RES + UNC + WBV - WBC"
        else:
            head = "Brier score decomposition (CORP: isotonic recalibration, PAV)"
            names = {
                "miscalibration": "miscalibration     MCB",
                "discrimination": "discrimination     DSC",
                "uncertainty": "uncertainty        UNC",
            }
            identity = "MCB - DSC + UNC"
        comps = self._components_dict()
        lines = [head, f"n = {self.n_samples_seen_} samples"
                 + ("" if self.classes_ is None else
                    f", {len(self.classes_)} classes (one-vs-rest, summed)")]
        ci = self.confidence_intervals_ if self.classes_ is None else None
        level = f"{float(self.confidence_level):.0%}"

        def row(label, value, key=None):
            text = f"  {label:<22}{value:>11.6f}"
            if ci is not None and key in ci:
                lo, hi = ci[key]
                text += f"   {level} CI [{lo:.6f}, {hi:.6f}]"
            return text

        lines.append(row("Brier score        BS", comps["brier_score"], "brier_score"))
        for key, label in names.items():
            lines.append(row(label, comps[key], key))
        if binned:
            check = (comps["miscalibration"] - comps["discrimination"] + comps["uncertainty"]
                     + comps["within_bin_variance"] - comps["within_bin_covariance"])
        else:
            check = comps["miscalibration"] - comps["discrimination"] + comps["uncertainty"]
        lines.append(f"  {identity} = {check:.6f}")
        lines.append(f"  Brier Index {self.brier_index_:.2f} (100 = perfect, 50 = always 50 %)")
        if self.miscalibration_pvalue_ is not None:
            lines.append(
                f"  calibration test (resampling, {int(self.n_resamples)} draws): "
                f"p = {self.miscalibration_pvalue_:.4f}"
            )
        if self.per_class_ is not None:
            lines.append("  per class:")
            abbrev = {"brier_score": "BS", "uncertainty": "UNC",
                      "within_bin_variance": "WBV", "within_bin_covariance": "WBC",
                      "miscalibration": "REL" if binned else "MCB",
                      "discrimination": "RES" if binned else "DSC"}
            keys = list(comps)
            lines.append("    " + f"{'class':<12}" + "".join(f"{abbrev[k]:>11}" for k in keys))
            for i, c in enumerate(self.per_class_["class"]):
                lines.append(
                    "    " + f"{c!s:<12}"
                    + "".join(f"{self.per_class_[k][i]:>11.6f}" for k in keys)
                )
        return "\n".join(lines)

    def _n_bins_used(self) -> int:
        res = self.result_ if self.classes_ is None else self.result_[0]
        return int(np.asarray(res.bin_counts).shape[0])

    def to_frame(self, what: str = "components"):
        """The decomposition as a pandas DataFrame (pandas imported lazily).

        Parameters
        ----------
        what : {"components", "table"}, default="components"
            ``"components"``: one row (binary) or one row per class
            (multiclass) with the components and, when available, the
            confidence limits (``<component>_low``/``<component>_high``).
            ``"table"``: the reliability table :attr:`table_`.

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        ImportError
            Without pandas.
        ValueError
            For an unknown ``what``.
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.

        Examples
        --------
        >>> from skbrier.decomposition import BrierDecomposition
        >>> dec = BrierDecomposition().fit([0, 0, 1, 1], [0.2, 0.4, 0.3, 0.9])
        >>> dec.to_frame()[["miscalibration", "discrimination", "uncertainty"]]
           miscalibration  discrimination  uncertainty
        0          0.0...           0.1...         0.25
        >>> dec.to_frame("table").columns.tolist()
        ['forecast', 'recalibrated', 'weight', 'count']
        """
        check_is_fitted(self)
        if what not in ("components", "table"):
            raise ValueError(f"what must be 'components' or 'table', got {what!r}.")
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("to_frame() requires pandas (pip install pandas).") from exc
        if what == "table":
            return pd.DataFrame(self.table_)
        comps = self._components_dict()
        if self.per_class_ is None:
            data = {k: [v] for k, v in comps.items()}
            data["brier_index"] = [self.brier_index_]
            if self.confidence_intervals_ is not None:
                for k, (lo, hi) in self.confidence_intervals_.items():
                    data[f"{k}_low"] = [lo]
                    data[f"{k}_high"] = [hi]
            return pd.DataFrame(data)
        data = {k: list(self.per_class_[k]) for k in comps}
        frame = pd.DataFrame(data, index=pd.Index(self.per_class_["class"], name="class"))
        if self.confidence_intervals_ is not None:
            for name, ci in self.confidence_intervals_.items():
                for k, (lo, hi) in ci.items():
                    frame.loc[self.per_class_["class"][self._class_names.index(name)],
                              f"{k}_low"] = lo
                    frame.loc[self.per_class_["class"][self._class_names.index(name)],
                              f"{k}_high"] = hi
        return frame

    def _display_data(self) -> dict:
        """Arguments of :class:`ReliabilityDisplay` (used by ``plot``)."""
        check_is_fitted(self)
        results = [self.result_] if self.classes_ is None else list(self.result_)
        xs, ys, bxs, los, his = [], [], [], [], []
        for r in results:
            if self.method == "binned":
                t = _murphy_table(r, float(self.confidence_level))
                keep = t["weight"] > 0
                xs.append(t["mean_forecast"][keep])
                ys.append(t["observed_frequency"][keep])
                bxs.append(xs[-1])
                los.append(t["observed_low"][keep])
                his.append(t["observed_high"][keep])
            else:
                x, c = _step_vertices(
                    np.asarray(r.forecast_values, dtype=np.float64),
                    np.asarray(r.recalibrated_values, dtype=np.float64),
                )
                xs.append(x)
                ys.append(c)
                if r.band_forecast is not None:
                    bxs.append(np.asarray(r.band_forecast, dtype=np.float64))
                    los.append(np.asarray(r.band_lower, dtype=np.float64))
                    his.append(np.asarray(r.band_upper, dtype=np.float64))
        comps = (
            self._components_dict() if self.per_class_ is None
            else {k: self.per_class_[k] for k in self._components_dict()}
        )
        single = self.classes_ is None
        return {
            "forecast": xs[0] if single else xs,
            "observed": ys[0] if single else ys,
            "band_forecast": (bxs[0] if single else bxs) if bxs else None,
            "band_lower": (los[0] if single else los) if los else None,
            "band_upper": (his[0] if single else his) if his else None,
            "band_kind": "confidence" if self.method == "binned" else "consistency",
            "confidence_level": float(self.confidence_level),
            "kind": self.method,
            "hist_edges": _HIST_EDGES,
            "hist_weights": self._hists[0] if single else self._hists,
            "components": comps,
            "curve_labels": None if single else self._class_names,
            "pos_label": self.pos_label,
        }

    def plot(self, ax: Any = None, *, name: str | None = None, **kwargs: Any):
        """Reliability diagram with band, forecast histogram and component bar.

        CORP: the isotonic recalibration curve with the consistency band of
        the resampling (when ``n_resamples > 0``).  Binned: the mean forecast
        and observed frequency of each non-empty bin with Wilson score
        intervals at ``confidence_level`` (weighted bins: Kish effective
        sample size).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; a new figure if None.
        name : str, default=None
            Name of the forecaster for the legend.
        **kwargs : dict
            Passed to :meth:`ReliabilityDisplay.plot
            <skbrier.plotting.reliability.ReliabilityDisplay.plot>`.

        Returns
        -------
        ReliabilityDisplay
            The display, with its matplotlib artists.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skbrier.decomposition import BrierDecomposition
        >>> dec = BrierDecomposition(n_resamples=50, random_state=0).fit(
        ...     [0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.6, 0.8, 0.5, 0.4])
        >>> disp = dec.plot(name="my model")
        >>> disp.line_.get_label()
        'my model'
        """
        from .plotting.reliability import ReliabilityDisplay

        return ReliabilityDisplay.from_decomposition(self, name=name, ax=ax, **kwargs)
