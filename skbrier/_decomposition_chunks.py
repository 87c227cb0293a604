"""The chunked fitting of :class:`~skbrier.decomposition.BrierDecomposition`.

``partial_fit`` adds a chunk's mergeable binned sums
(:class:`~skbrier.metrics.decomposition.BinStatistics`) to the fitted state
and ``merge`` adds another decomposition's: the same sufficient statistics as
the Murphy kernel and :mod:`skbrier.states`, so any split of the rows into
chunks, merged in any order, gives the decomposition of all rows.  The batch
``fit``, the parameters and the report live in :mod:`skbrier.decomposition`.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from ._core.binning import uniform_edges
from ._core.dispatch import BODY, HOST, backends
from ._core.params import MIN_SAMPLES, check_confidence_level
from ._core.validation import _as_array, check_forecast
from ._decomposition_helpers import check_chunk_labels, chunk_label_rows
from .metrics._binned_decomposition import check_keepable_weights
from .metrics._decomposition_core import binary_columns
from .metrics.decomposition import (
    BinStatistics,
    binned_statistics,
    murphy_from_statistics,
)
from .states._base import check_same_options
from .states._base import same_value as _same
from .states._chunks import _chunk_weights

__all__ = ["ChunkedDecompositionMixin", "is_quantile"]

_Chunked = TypeVar("_Chunked", bound="ChunkedDecompositionMixin")

#: the remark on the options that give the bins of a partial fit
_EDGE_NOTES = {"n_bins": "different bin edges", "strategy": "different bin edges"}


def is_quantile(strategy: Any) -> bool:
    """Whether ``strategy`` asks for quantile bins (not mergeable across chunks).

    Examples
    --------
    >>> is_quantile("quantile"), is_quantile("uniform")
    (True, False)
    """
    return isinstance(strategy, str) and strategy == "quantile"


def _too_few_for_bias_correction(opts: dict[str, Any] | None, total: float) -> bool:
    """Chunks seen so far that weigh less than the bias correction's minimum."""
    return bool(opts and opts.get("bias_correction")) and not total >= MIN_SAMPLES


class ChunkedDecompositionMixin:
    """``partial_fit`` and ``merge`` of :class:`~skbrier.decomposition.BrierDecomposition`.

    The estimator provides ``_check_params``, ``_state`` and ``_set_results``
    and the parameters ``labels`` and ``pos_label``.

    Examples
    --------
    >>> from skbrier.decomposition import BrierDecomposition
    >>> issubclass(BrierDecomposition, ChunkedDecompositionMixin)
    True
    """

    labels: Any
    pos_label: Any
    confidence_level: Any
    classes_: Any
    _stats: list[BinStatistics] | None
    _stat_classes: Any
    _fit_state: dict[str, Any]
    _chunk_classes: Any
    _binary_labels: Any

    if not TYPE_CHECKING:  # (typed attribute access stays checked)

        def __getattr__(self, name: str) -> Any:
            # only reached for a missing attribute: a fitted one (brier_score_)
            # is missing while every row seen so far weighs 0; say so
            stats = self.__dict__.get("_stats")
            if name.endswith("_") and not name.startswith("_") and stats is not None:
                total = float(stats[0].sum_w.sum())
                if not total > 0:
                    raise AttributeError(
                        f"{name} is not set: the rows seen so far all weigh 0 "
                        "(sample_weight sums to zero); partial_fit a chunk with a "
                        "positive weight first."
                    )
                if _too_few_for_bias_correction(self.__dict__.get("_fit_state"), total):
                    raise AttributeError(
                        f"{name} is not set: the bias correction (bias_correction=True) "
                        f"needs at least {MIN_SAMPLES} observations, and the rows seen "
                        f"so far weigh {total:.4g}; partial_fit more chunks first."
                    )
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute {name!r}"
            )

    def _check_params(self) -> dict[str, Any]:  # pragma: no cover - the estimator's
        raise NotImplementedError

    def _state(self, opts: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _set_results(
        self, results: Any, classes: Any, opts: Any
    ) -> None:  # pragma: no cover
        raise NotImplementedError

    # Dask chunks are read by the body (a chunk is computed), Array API input
    # is copied to the host (the states' sums are numpy)
    @backends(
        dask=BODY,
        array_api=HOST,
        name="skbrier.decomposition.BrierDecomposition.partial_fit",
    )
    def partial_fit(
        self: _Chunked,
        y_true: ArrayLike,
        y_proba: ArrayLike,
        sample_weight: ArrayLike | None = None,
        *,
        classes: ArrayLike | None = None,
    ) -> _Chunked:
        """Add a chunk of data to the binned decomposition (exact merge).

        Only for ``decomposition_method="murphy"`` with fixed edges (``strategy="uniform"``
        or an explicit array of edges).  The per-bin sums of the chunk are
        added to those seen so far, and every fitted attribute is updated;
        after the last chunk the result equals :meth:`fit` on all the data
        up to floating-point summation order.  An empty chunk (an empty
        partition) changes nothing, and a chunk may weigh all its rows 0.

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
            For ``decomposition_method="corp"``, ``strategy="quantile"``, a chunk that does
            not match the earlier ones (number of columns, classes), a
            parameter changed since the first chunk, missing ``classes`` or
            ambiguous binary labels without ``pos_label``, and for bad input.

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
        >>> dec = BrierDecomposition(decomposition_method="murphy", n_bins=20)
        >>> for chunk in np.array_split(np.arange(10_000), 4):
        ...     dec = dec.partial_fit(y[chunk], p[chunk])
        >>> dec.n_samples_seen_
        10000
        >>> full = BrierDecomposition(decomposition_method="murphy", n_bins=20).fit(y, p)
        >>> abs(dec.discrimination_ - full.discrimination_) < 1e-12
        True
        """
        opts = self._check_params()
        if opts["method"] != "murphy":
            raise ValueError(
                "partial_fit needs decomposition_method='murphy': the CORP decomposition "
                "is an isotonic regression on all forecasts at once and cannot be merged "
                "across chunks. Use fit on all data, or decomposition_method='murphy'."
            )
        if is_quantile(opts["strategy"]):
            raise ValueError(
                "partial_fit needs fixed bin edges: strategy='quantile' places the "
                "edges at quantiles of all the data, which no chunk knows, so chunks "
                "cannot be merged exactly. Use strategy='uniform' or an explicit "
                "array of edges."
            )
        prev: list[BinStatistics] | None = getattr(self, "_stats", None)
        first = prev is None
        if not first:
            self._check_state("the parameters", self._state(opts), self._fit_state)
        raw = _as_array(y_proba, "y_proba")
        if raw.ndim >= 1 and raw.shape[0] == 0:
            return self  # an empty chunk (an empty partition), as in the states
        classes = self._chunk_labels(classes, first, y_proba)
        fc = check_forecast(
            y_true,
            y_proba,
            sample_weight=None,
            labels=classes,
            pos_label=self.pos_label,
            labels_name="classes" if self.labels is None else "labels",
        )
        # a chunk may weigh all its rows 0 (as in the states): only the total
        # over the chunks must be positive before the numbers are set
        fc.sample_weight = _chunk_weights(sample_weight, fc.proba.shape[0])
        seen = None if first else getattr(self, "_binary_labels", None)
        labels_seen = (
            check_chunk_labels(seen, chunk_label_rows(y_true), self.pos_label)
            if fc.binary_1d
            else None
        )
        pairs, cls_ = binary_columns(fc, self.pos_label)
        if prev is not None and len(pairs) != len(prev):
            n_prev = len(prev)
            raise ValueError(
                f"y_proba has {fc.n_columns} column(s) but the earlier chunks had "
                f"{'1' if n_prev == 1 else n_prev}."
            )
        strategy = opts["strategy"]
        edges = uniform_edges(opts["n_bins"]) if isinstance(strategy, str) else strategy
        for _, p in pairs:
            if p.min() < edges[0] or p.max() > edges[-1]:
                raise ValueError(
                    f"y_proba has values outside the bin edges [{edges[0]}, {edges[-1]}]."
                )
        check_keepable_weights(fc.sample_weight, "sample_weight")
        new = [binned_statistics(y, p, fc.sample_weight, edges) for y, p in pairs]
        if prev is not None:
            new = [a + b for a, b in zip(prev, new)]
        self._update_from_statistics(new, cls_, opts, chunks=True)
        self._chunk_classes = fc.classes
        self._binary_labels = labels_seen
        self._fit_state = self._state(opts)
        return self

    def _chunk_labels(self, classes: Any, first: bool, y_proba: Any) -> Any:
        """The labels of a chunk: ``classes``, ``labels`` or the earlier chunks'."""
        known = self.labels if first else self._chunk_classes
        if classes is None:
            classes = known
        elif known is not None and not _same(classes, known):
            raise ValueError(
                f"classes={list(classes)} differ from the classes of the earlier "
                f"chunks {list(known)}."
            )
        ndim = np.ndim(y_proba) if not hasattr(y_proba, "shape") else len(y_proba.shape)
        n_cols = (
            1
            if ndim < 2
            else (y_proba.shape[1] if hasattr(y_proba, "shape") else len(y_proba[0]))
        )
        if ndim == 2 and n_cols >= 3 and classes is None:
            raise ValueError(
                "classes must be given on the first call of partial_fit with 2-D "
                "y_proba: one chunk may not hold every class."
            )
        return classes if ndim == 2 and n_cols >= 2 else None

    def _update_from_statistics(self, stats, classes, opts, *, chunks=False) -> None:
        """Keep the merged statistics and their classes; set the fitted
        attributes once some row weighs more than 0 (a chunk may weigh all its
        rows 0, as in the states).  ``chunks`` (partial_fit, merge): the bias
        correction's first 3 observations may come in several chunks, so
        fewer leave the attributes unset too.  The results are computed
        before anything is kept: an error leaves the estimator as it was."""
        total = float(stats[0].sum_w.sum())
        results = None
        if total > 0 and not (
            chunks and _too_few_for_bias_correction(opts, total)
        ):  # else nothing to report yet
            results = [
                murphy_from_statistics(s, bias_correction=opts["bias_correction"])
                for s in stats
            ]
        self._stats = stats
        self._stat_classes = classes
        if results is not None:
            # chunked fits carry no resamples
            self._set_results(results, classes, dict(opts, n_resamples=0))

    def _merge_unseen(self: _Chunked, other: Any) -> _Chunked:
        """:meth:`merge` where ``self`` or ``other`` has seen no rows: the
        options must agree (and be mergeable); ``self`` unchanged, or a copy
        of ``other``'s fitted attributes when ``self`` is the one.  Two
        estimators without rows merge to one without rows (an empty chunk is
        neutral in a tree of merges, whichever side and level it is on)."""
        seen = [hasattr(est, "_fit_state") for est in (self, other)]
        opts = [
            est._fit_state if s else est._state(est._check_params())
            for est, s in zip((self, other), seen)
        ]
        check_same_options("BrierDecomposition", *opts, notes=_EDGE_NOTES)
        if opts[0]["decomposition_method"] != "murphy" or is_quantile(opts[0]["strategy"]):
            raise ValueError(
                "only decomposition_method='murphy' with fixed edges "
                "(strategy='uniform' or an array) can be merged."
            )
        if seen[1]:
            params = self.get_params()  # type: ignore[attr-defined]
            for key, value in vars(other).items():
                if key not in params:  # the fitted attributes
                    setattr(self, key, copy.deepcopy(value))
        return self

    def _check_state(self, what: str, mine: dict, theirs: dict) -> None:
        for key, value in mine.items():
            if not _same(value, theirs.get(key)):
                edges = " (different bin edges)" if key in ("n_bins", "strategy") else ""
                raise ValueError(
                    f"{what} differ{edges}: {key}={theirs.get(key)!r} for the earlier "
                    f"data but {value!r} now; decompositions that mean different "
                    "things cannot be merged."
                )

    def merge(self: _Chunked, other: Any) -> _Chunked:
        """Add the data of another partially fitted decomposition (exact).

        ``a.merge(b)`` makes ``a`` the decomposition of the union of the
        data seen by ``a`` and ``b``.  This is the reduce step of chunked or
        distributed processing (see the Notes of the class): fit one
        decomposition per chunk with :meth:`partial_fit`, then merge them in
        any order.

        Parameters
        ----------
        other : BrierDecomposition
            A Murphy decomposition fitted with the same decomposition_method, bins, edges,
            bias correction, ``pos_label`` and classes.

        Returns
        -------
        BrierDecomposition
            ``self``, updated.

        Raises
        ------
        TypeError
            If ``other`` is not a BrierDecomposition.
        ValueError
            If either is not fitted with mergeable statistics, or anything
            that gives the state its meaning differs (``decomposition_method``,
            ``n_bins``, ``strategy`` or edges, ``bias_correction``,
            ``pos_label``, classes).

        Notes
        -----
        A decomposition that has seen no rows (new, or given only empty
        chunks: an empty partition) merges with a fitted one as the identity,
        like an empty state: merged into, it becomes a copy of ``other``.
        Two such decompositions raise ``NotFittedError``.

        Examples
        --------
        >>> from skbrier.decomposition import BrierDecomposition
        >>> a = BrierDecomposition("murphy").partial_fit([0, 1], [0.2, 0.7])
        >>> b = BrierDecomposition("murphy").partial_fit([1, 0], [0.9, 0.4])
        >>> a.merge(b).n_samples_seen_
        4
        """
        if not isinstance(other, ChunkedDecompositionMixin):
            raise TypeError(
                f"other must be a BrierDecomposition, got {type(other).__name__}."
            )
        if not hasattr(other, "_fit_state") or not hasattr(self, "_fit_state"):
            return self._merge_unseen(other)
        for est, name in ((self, "self"), (other, "other")):
            if getattr(est, "_stats", None) is None:
                raise ValueError(
                    f"{name} has no mergeable statistics: only "
                    "decomposition_method='murphy' with fixed edges "
                    "(strategy='uniform' or an array) can be merged."
                )
        check_same_options(
            "BrierDecomposition", self._fit_state, other._fit_state, notes=_EDGE_NOTES
        )
        mine, theirs = self._stats, other._stats
        if mine is None or theirs is None:  # pragma: no cover - checked above
            raise AssertionError("both have mergeable statistics here.")
        if (
            len(mine) != len(theirs)
            or not _same(self._stat_classes, other._stat_classes)
            or not _same(self._chunk_classes, other._chunk_classes)
        ):
            raise ValueError("other was fitted on different classes.")
        mine_labels = getattr(self, "_binary_labels", None)
        their_labels = getattr(other, "_binary_labels", None)
        if mine_labels is not None and their_labels is not None:
            labels_seen = check_chunk_labels(mine_labels, their_labels, self.pos_label)
        else:
            labels_seen = None
        stats = [a + b for a, b in zip(mine, theirs)]
        self._binary_labels = labels_seen
        opts = {
            "method": "murphy",
            "level": check_confidence_level(self.confidence_level),
            "bias_correction": self._fit_state["bias_correction"],
        }
        self._update_from_statistics(stats, self._stat_classes, opts, chunks=True)
        return self
