r"""``BrierDecomposition``: the Brier score split into miscalibration,
discrimination and uncertainty, as a scikit-learn style reporter.

The maths lives in :mod:`skbrier.metrics.decomposition`
(:func:`~skbrier.metrics.decomposition.corp_decomposition`,
:func:`~skbrier.metrics.decomposition.murphy_decomposition` and the mergeable
:class:`~skbrier.metrics.decomposition.BinStatistics`); this module checks
the parameters, validates the data once, keeps the fitted state (including
the chunked state of ``partial_fit``), and reports: ``summary()``,
``to_frame()`` and ``plot()`` (which draws the result object with
:meth:`ReliabilityDisplay.from_result
<skbrier.plotting.reliability.ReliabilityDisplay.from_result>`).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator

from ._core.dispatch import HOST, backends
from ._core.kernels.brier import brier_index_from_score
from ._core.params import (
    check_bool,
    check_confidence_level,
    check_n_bins,
    check_n_jobs,
    check_n_resamples,
    validate_random_state,
)
from ._core.validation import check_forecast
from ._decomposition_chunks import ChunkedDecompositionMixin, is_quantile
from ._decomposition_helpers import (
    DecompositionReportMixin,
    chunk_label_rows,
    component_names,
    components_of,
    intervals_of,
    table_of,
)
from ._decomposition_options import resolve_method
from .metrics._decomposition_core import (
    binary_columns,
    check_strategy,
    class_generators,
    corp_binary,
    murphy_binary,
)
from .metrics.decomposition import (
    BinStatistics,
    CORPDecomposition,
    MulticlassDecomposition,
    MurphyDecomposition,
)

__all__ = ["BrierDecomposition"]


class BrierDecomposition(
    DecompositionReportMixin, ChunkedDecompositionMixin, BaseEstimator
):
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
    decomposition_method : {"corp", "murphy"}, default="corp"
        Which decomposition (``method`` is the interval method of
        ``confidence_interval`` everywhere in skbrier).
        ``"corp"``: the CORP decomposition of Dimitriadis, Gneiting and
        Jordan (2021): the forecasts are recalibrated by isotonic (PAV)
        regression, :math:`\mathrm{MCB} = \mathrm{BS}(p) - \mathrm{BS}(c)`,
        :math:`\mathrm{DSC} = \mathrm{UNC} - \mathrm{BS}(c)`; no tuning
        parameter, exact, needs all data at once.
        ``"murphy"``: the binned (Murphy) decomposition with the
        Stephenson--Coelho--Jolliffe within-bin terms,
        :math:`\mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC} +
        \mathrm{WBV} - \mathrm{WBC}` exactly (``miscalibration_`` is REL and
        ``discrimination_`` is RES); O(n) without sorting and mergeable across
        chunks (:meth:`partial_fit`).  The same decomposition as
        :func:`~skbrier.metrics.decomposition.murphy_decomposition`
        (whose result it keeps in ``decomposition_``), with the same
        bootstrap for the same ``random_state``.
    n_bins : int, default=10
        Number of bins (Murphy method), at most 100,000.
    strategy : {"uniform", "quantile"} or array-like of edges, default="uniform"
        Placement of the bins (Murphy method): equal width, equal (weighted)
        count, or explicit strictly increasing edges covering the forecasts.
    n_resamples : int, default=0
        Number of resamples: CORP method, for the consistency band of the
        reliability curve, the calibration test and the bootstrap confidence
        intervals of the components; Murphy method, for bootstrap intervals
        of the components (rows resampled, bin edges held fixed).  0 skips
        the resampling (fast), else at least 2.  Several hundred are
        typical.  Chunked fits
        (:meth:`partial_fit`) have no intervals.
    confidence_level : float, default=0.95
        Level of the consistency band and of the confidence intervals.
    bias_correction : bool, default=False
        Ferro--Fricker bias correction of the binned components (Murphy
        method).
    pos_label : int, float, bool or str, default=None
        Class whose probability a 1-D ``y_proba`` holds; as in
        :func:`skbrier.metrics.brier.brier_score`.
    labels : array-like of shape (n_classes,), default=None
        Classes of the columns of a 2-D ``y_proba`` (sorted); may name
        classes absent from ``y_true`` (a test fold without one class).
        Inferred from ``y_true`` if None.
    random_state : None, int, numpy Generator, SeedSequence or RandomState
        Seed of the resampling (as in the metric functions).
    n_jobs : int, default=None
        Number of parallel jobs for the resampling (joblib).

    Attributes
    ----------
    brier_score_ : float
        The Brier score (scikit-learn's scale: [0, 1] binary, [0, 2] for three
        or more classes).
    miscalibration_ : float
        MCB (CORP) or REL (Murphy); lower is better.
    discrimination_ : float
        DSC (CORP) or RES (Murphy); higher is better.
    uncertainty_ : float
        UNC, :math:`\bar o (1 - \bar o)` (summed over classes for multiclass).
    within_bin_variance_, within_bin_covariance_ : float
        WBV and WBC (Murphy method only).
    brier_index_ : float
        Brier Index :math:`100 (1 - \sqrt{\mathrm{BS}_{[0, 1]}})`.
    n_samples_seen_ : int
        Number of samples the decomposition is based on.
    table_ : dict of ndarray
        The reliability table.  CORP: ``forecast`` (distinct forecast values),
        ``recalibrated`` (isotonic fit), ``weight`` and, with resampling,
        ``band_lower``/``band_upper`` (consistency band).  Murphy: ``lower``,
        ``upper``, ``count``, ``weight``, ``mean_forecast``,
        ``observed_frequency`` and its Wilson score interval at
        ``confidence_level`` (``observed_low``/``observed_high``; with
        frequency weights a bin's sample size is its weight).  Multiclass: the per-class tables stacked,
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
    decomposition_ : MurphyDecomposition, CORPDecomposition or MulticlassDecomposition
        The result object of the metric function, for everything else it
        holds (:meth:`ReliabilityDisplay.from_result
        <skbrier.plotting.reliability.ReliabilityDisplay.from_result>` draws
        it).
    result_ : object or list
        ``decomposition_`` for binary forecasts, its list of per-class
        results for multiclass ones.

    See Also
    --------
    skbrier.metrics.decomposition.corp_decomposition : the CORP function.
    skbrier.metrics.decomposition.murphy_decomposition : the binned function.
    skbrier.plotting.reliability.ReliabilityDisplay : the diagram.

    Notes
    -----
    **Huge data in chunks.**  The Murphy method needs only per-bin sums
    (:class:`~skbrier.metrics.decomposition.BinStatistics`), which add
    exactly across chunks.  With fixed edges (``strategy="uniform"`` or an
    explicit array; quantile edges depend on all data and cannot be merged)
    call :meth:`partial_fit` on each chunk; the result equals ``fit`` on all
    data up to floating-point summation order::

        dec = BrierDecomposition(decomposition_method="murphy", n_bins=20)
        for y_chunk, p_chunk in chunks:
            dec.partial_fit(y_chunk, p_chunk)
        print(dec.summary())

    **dask.**  ``fit`` takes dask arrays and dask DataFrame columns directly
    (one pass: a task per partition computes its per-bin sums, merged in a
    tree) and gives the in-memory result; the fitted estimator goes on with
    :meth:`partial_fit` and :meth:`merge`::

        import dask.dataframe as dd
        ddf = dd.read_parquet("scores/")
        dec = BrierDecomposition(decomposition_method="murphy", n_bins=20)
        dec.fit(ddf["y"], ddf["p"])

    2-D ``y_proba`` is a dask DataFrame of one column per class (or a 2-D
    dask array); its classes come from all of ``y_true`` (or ``labels``), as
    in memory.  ``decomposition_method="corp"`` works on dask input for 1-D ``y_proba``
    (an exact table of the distinct forecasts); resampling and
    ``strategy="quantile"`` are refused there.  For chunks read by hand,
    :meth:`partial_fit` and :meth:`merge` work as above: multiclass chunks
    need ``classes=`` in :meth:`partial_fit`, and binary labels other than
    {0, 1} or {-1, 1} need ``pos_label``, because one chunk may not show
    every class.  :meth:`merge` refuses decompositions whose state means
    something else (other decomposition_method, bins, edges, bias correction,
    ``pos_label`` or classes).

    The CORP method sorts all forecasts (isotonic regression) and cannot be
    continued by :meth:`partial_fit` (on dask input it pools a table of the
    distinct forecasts instead); on a sample of a few million forecasts it
    still takes well under a minute.

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

    >>> b = BrierDecomposition(decomposition_method="murphy", n_bins=5)
    >>> b = b.partial_fit(y[:3], p[:3]).partial_fit(y[3:], p[3:])
    >>> one = BrierDecomposition(decomposition_method="murphy", n_bins=5).fit(y, p)
    >>> abs(b.brier_score_ - one.brier_score_) < 1e-12
    True
    """

    def __init__(
        self,
        decomposition_method: str = "corp",
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
        self.decomposition_method = decomposition_method
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
    def _check_params(self) -> dict[str, Any]:
        """Every parameter checked once (``_params``); the options of the cores."""
        return {
            "method": resolve_method(self.decomposition_method, "decomposition_method"),
            "n_bins": check_n_bins(self.n_bins),
            "strategy": check_strategy(self.strategy),
            "n_resamples": check_n_resamples(self.n_resamples, allow_zero=True),
            "level": check_confidence_level(self.confidence_level),
            "bias_correction": check_bool(self.bias_correction, "bias_correction"),
            "n_jobs": check_n_jobs(self.n_jobs),
            "random_state": validate_random_state(self.random_state),
        }

    def _state(self, opts: dict[str, Any]) -> dict[str, Any]:
        """What gives the fitted (mergeable) state its meaning."""
        strategy = opts["strategy"]
        return {
            "decomposition_method": opts["method"],
            "strategy": strategy if isinstance(strategy, str) else tuple(strategy.tolist()),
            "n_bins": opts["n_bins"] if isinstance(strategy, str) else None,
            "bias_correction": opts["bias_correction"],
            "pos_label": self.pos_label,
        }

    # --------------------------------------------------------------- fitting
    @backends(dask="skbrier._backends._dask._adapters:fit_decomposition", array_api=HOST)
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
            Non-negative frequency weights.

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
        partial_fit : the same, chunk by chunk (Murphy method).

        Examples
        --------
        >>> from skbrier.decomposition import BrierDecomposition
        >>> dec = BrierDecomposition(decomposition_method="murphy", n_bins=2)
        >>> dec.fit([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.8]) is dec
        True
        >>> round(dec.miscalibration_, 4), round(dec.discrimination_, 4)
        (0.065, 0.25)
        """
        opts = self._check_params()
        fc = check_forecast(
            y_true,
            y_proba,
            sample_weight=sample_weight,
            labels=self.labels,
            pos_label=self.pos_label,
        )
        pairs, classes = binary_columns(fc, self.pos_label)
        rngs = class_generators(self.random_state, opts["n_resamples"], len(pairs))
        common = {
            "n_resamples": opts["n_resamples"],
            "level": opts["level"],
            "n_jobs": opts["n_jobs"],
        }
        results: list[CORPDecomposition] | list[MurphyDecomposition]
        if opts["method"] == "corp":
            results = [
                corp_binary(y, p, fc.sample_weight, rng=r, **common)
                for (y, p), r in zip(pairs, rngs)
            ]
        else:
            results = [
                murphy_binary(
                    y,
                    p,
                    fc.sample_weight,
                    rng=r,
                    n_bins=opts["n_bins"],
                    strategy=opts["strategy"],
                    bias_correction=opts["bias_correction"],
                    right=True,
                    **common,
                )
                for (y, p), r in zip(pairs, rngs)
            ]
        self._set_results(results, classes, opts)
        self._chunk_classes = fc.classes
        self._fit_state = self._state(opts)
        # chunked state: only fixed edges can be continued by partial_fit
        mergeable = opts["method"] == "murphy" and not is_quantile(opts["strategy"])
        self._binary_labels = (
            chunk_label_rows(y_true) if mergeable and fc.binary_1d else None
        )
        # mergeable implies decomposition_method="murphy": MurphyDecompositions
        self._stats: list[BinStatistics] | None = (
            [r.statistics for r in cast("list[MurphyDecomposition]", results)]
            if mergeable
            else None
        )
        self._stat_classes = classes
        return self

    def _set_results(self, results, classes, opts) -> None:
        method, level = opts["method"], opts["level"]
        class_names: list[str] | None
        if classes is None:
            dec = results[0]
            class_names = None
        else:
            dec = MulticlassDecomposition(
                decomposition_method=method, classes=classes, per_class=tuple(results)
            )
            class_names = [str(c) for c in classes]
        keys = component_names(method)
        comps = [components_of(r, method) for r in results]
        totals = {k: float(sum(c[k] for c in comps)) for k in keys}
        for k in keys:
            setattr(self, k + "_", totals[k])
        if method == "corp" and hasattr(self, "within_bin_variance_"):
            del self.within_bin_variance_, self.within_bin_covariance_
        # multiclass scores are on the [0, 2] scale; the Index uses [0, 1]
        bs01 = self.brier_score_ if classes is None else 0.5 * self.brier_score_
        self.brier_index_ = brier_index_from_score(min(max(bs01, 0.0), 1.0))
        self.classes_ = classes
        self.n_samples_seen_ = int(results[0].n_samples)
        tables = [table_of(r, method, level) for r in results]
        cis = [intervals_of(r, method, level) for r in results]
        if classes is None:
            self.table_ = tables[0]
            self.per_class_ = None
            # binary: {component: (low, high)}; multiclass: {class: that or None}
            self.confidence_intervals_: dict[str, Any] | None = cis[0]
        else:
            if class_names is None:  # pragma: no cover - set above when classes
                raise AssertionError("class_names is set for multiclass results.")
            n_rows = [len(next(iter(t.values()))) for t in tables]
            self.table_ = {"class": np.repeat(np.asarray(classes), n_rows)}
            for key in tables[0]:
                self.table_[key] = np.concatenate([t[key] for t in tables])
            self.per_class_ = {"class": np.asarray(classes)}
            for key in keys:
                self.per_class_[key] = np.array([c[key] for c in comps])
            self.confidence_intervals_ = (
                None if cis[0] is None else dict(zip(class_names, cis))
            )
        self.miscalibration_pvalue_ = None
        if method == "corp" and classes is None:
            self.miscalibration_pvalue_ = results[0].miscalibration_pvalue
        self.decomposition_ = dec
        self.result_ = results[0] if classes is None else list(results)
        self._class_names = class_names
        self._method = method

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "brier_score_")
