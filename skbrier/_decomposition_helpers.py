"""Reports of :class:`~skbrier.decomposition.BrierDecomposition` (no maths here).

* the estimator's components, reliability table, text summary and frame,
  all read from the result objects of :mod:`skbrier.metrics.decomposition`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ._core.docstrings import with_pieces
from ._core.labels import binary_target
from ._core.optional import import_optional
from ._decomposition_options import estimator_proba
from .metrics._decomposition_bootstrap import CORP_COMPONENTS
from .metrics._decomposition_results import ESTIMATOR_MURPHY_NAMES as _MURPHY_NAMES
from .metrics._decomposition_results import components_of

#: the parts of the docstrings that the methods share
_doc = with_pieces(
    {
        "fitted": """\
sample_weight : array-like of shape (n_samples,), default=None
    Non-negative sample weights.
**params : dict
    Parameters of :class:`BrierDecomposition`.

Returns
-------
BrierDecomposition
    Fitted.""",
        "not_fitted": """\
Raises
------
sklearn.exceptions.NotFittedError
    Before :meth:`fit`.""",
    }
)

__all__ = [
    "DecompositionReportMixin",
    "check_chunk_labels",
    "chunk_label_rows",
    "component_names",
    "components_of",
    "summary_text",
    "table_of",
]


def component_names(method: str) -> tuple[str, ...]:
    """Estimator names of the components of ``method`` (brier_score first)."""
    return tuple(_MURPHY_NAMES) if method == "murphy" else CORP_COMPONENTS


def intervals_of(
    result: Any, method: str, level: float
) -> dict[str, tuple[float, float]] | None:
    """Bootstrap percentile intervals of every component (None without resamples)."""
    if result.bootstrap_distribution is None:
        return None
    out = {}
    for key in component_names(method):
        name = _MURPHY_NAMES[key] if method == "murphy" else key
        ci = result.confidence_interval(level, metric=name)
        out[key] = (float(ci.low), float(ci.high))
    return out


def table_of(result: Any, method: str, level: float) -> dict[str, np.ndarray]:
    """The reliability table of one binary result."""
    if method == "murphy":
        e = np.asarray(result.bin_edges, dtype=np.float64)
        lo, hi = result.observed_frequency_interval(level)
        return {
            "lower": e[:-1],
            "upper": e[1:],
            "count": np.asarray(result.bin_counts),
            "weight": np.asarray(result.bin_weights, dtype=np.float64),
            "mean_forecast": np.asarray(result.bin_mean_forecast, dtype=np.float64),
            "observed_frequency": np.asarray(
                result.bin_observed_frequency, dtype=np.float64
            ),
            "observed_low": lo,
            "observed_high": hi,
        }
    table = {
        "forecast": np.asarray(result.forecast_values, dtype=np.float64),
        "recalibrated": np.asarray(result.recalibrated_values, dtype=np.float64),
        "weight": np.asarray(result.value_weights, dtype=np.float64),
        "count": np.asarray(result.value_counts),
    }
    if result.band_forecast is not None:
        # the band is stored at (up to 2000) of the distinct forecasts; NaN elsewhere
        lo = np.full(table["forecast"].shape[0], np.nan)
        hi = lo.copy()
        pos = np.searchsorted(table["forecast"], result.band_forecast)
        lo[pos] = result.band_lower
        hi[pos] = result.band_upper
        table["band_lower"] = lo
        table["band_upper"] = hi
    return table


_SUMMARY_LABELS = {
    "murphy": {
        "miscalibration": "reliability        REL",
        "discrimination": "resolution         RES",
        "uncertainty": "uncertainty        UNC",
        "within_bin_variance": "within-bin var.    WBV",
        "within_bin_covariance": "within-bin cov.    WBC",
    },
    "corp": {
        "miscalibration": "miscalibration     MCB",
        "discrimination": "discrimination     DSC",
        "uncertainty": "uncertainty        UNC",
    },
}
_ABBREV = {
    "brier_score": "BS",
    "uncertainty": "UNC",
    "within_bin_variance": "WBV",
    "within_bin_covariance": "WBC",
}


def summary_text(est: Any, method: str, n_bins_used: int | None) -> str:
    """The text report of a fitted BrierDecomposition."""
    murphy = method == "murphy"
    if murphy:
        head = (
            "Brier score decomposition (binned Murphy / Stephenson-Coelho-Jolliffe, "
            f"{n_bins_used} bins"
            + (", Ferro-Fricker bias-corrected" if est.bias_correction else "")
            + ")"
        )
        identity = "REL - RES + UNC + WBV - WBC"
    else:
        head = "Brier score decomposition (CORP: isotonic recalibration, PAV)"
        identity = "MCB - DSC + UNC"
    comps = {k: getattr(est, k + "_") for k in component_names(method)}
    lines = [
        head,
        f"n = {est.n_samples_seen_} samples"
        + (
            ""
            if est.classes_ is None
            else f", {len(est.classes_)} classes (one-vs-rest, summed)"
        ),
    ]
    ci = est.confidence_intervals_ if est.classes_ is None else None
    level = f"{float(est.confidence_level):.0%}"

    def row(label, value, key):
        text = f"  {label:<22}{value:>11.6f}"
        if ci is not None and key in ci:
            lo, hi = ci[key]
            text += f"   {level} CI [{lo:.6f}, {hi:.6f}]"
        return text

    lines.append(row("Brier score        BS", comps["brier_score"], "brier_score"))
    for key, label in _SUMMARY_LABELS[method].items():
        lines.append(row(label, comps[key], key))
    check = comps["miscalibration"] - comps["discrimination"] + comps["uncertainty"]
    if murphy:
        check += comps["within_bin_variance"] - comps["within_bin_covariance"]
    lines.append(f"  {identity} = {check:.6f}")
    lines.append(f"  Brier Index {est.brier_index_:.2f} (100 = perfect, 50 = always 50 %)")
    if est.miscalibration_pvalue_ is not None:
        lines.append(
            f"  calibration test (resampling, {int(est.n_resamples)} draws): "
            f"p = {est.miscalibration_pvalue_:.4f}"
        )
    if est.per_class_ is not None:
        abbrev = dict(
            _ABBREV,
            miscalibration="REL" if murphy else "MCB",
            discrimination="RES" if murphy else "DSC",
        )
        keys = list(comps)
        lines.append("  per class:")
        lines.append("    " + f"{'class':<12}" + "".join(f"{abbrev[k]:>11}" for k in keys))
        for i, c in enumerate(est.per_class_["class"]):
            lines.append(
                "    "
                + f"{c!s:<12}"
                + "".join(f"{est.per_class_[k][i]:>11.6f}" for k in keys)
            )
    return "\n".join(lines)


def components_frame(est: Any, method: str, class_names: list[str] | None):
    """The components (and intervals) of a fitted BrierDecomposition as a DataFrame."""
    pd = import_optional("pandas", needed_for=f"{type(est).__name__}.to_frame()")
    keys = component_names(method)
    if est.per_class_ is None:
        data = {k: [getattr(est, k + "_")] for k in keys}
        data["brier_index"] = [est.brier_index_]
        if est.confidence_intervals_ is not None:
            for k, (lo, hi) in est.confidence_intervals_.items():
                data[f"{k}_low"] = [lo]
                data[f"{k}_high"] = [hi]
        return pd.DataFrame(data)
    classes = est.per_class_["class"]
    frame = pd.DataFrame(
        {k: list(est.per_class_[k]) for k in keys}, index=pd.Index(classes, name="class")
    )
    if est.confidence_intervals_ is not None:
        if class_names is None:  # pragma: no cover - multiclass fits set them
            raise AssertionError("class_names is set for multiclass results.")
        for name, ci in est.confidence_intervals_.items():
            row = classes[class_names.index(name)]
            for k, (lo, hi) in ci.items():
                frame.loc[row, f"{k}_low"] = lo
                frame.loc[row, f"{k}_high"] = hi
    return frame


class DecompositionReportMixin:
    """Constructors and reports of :class:`~skbrier.decomposition.BrierDecomposition`.

    Everything here reads the fitted attributes and the result object
    ``decomposition_``; nothing is computed again.
    """

    # set by BrierDecomposition (``__init__`` and ``fit``); declared here, as
    # annotations only, for the type checker
    pos_label: Any
    classes_: Any
    result_: Any
    table_: dict[str, np.ndarray]
    decomposition_: Any
    _class_names: list[str] | None
    _method: str

    if TYPE_CHECKING:

        def fit(self, y_true: Any, y_proba: Any, sample_weight: Any = None) -> Any: ...

    # ------------------------------------------------------- constructors
    @classmethod
    @_doc
    def from_predictions(
        cls,
        y_true: Any,
        y_proba: Any,
        *,
        sample_weight: Any | None = None,
        **params: Any,
    ) -> Any:
        """Fitted decomposition of forecasts ``y_proba`` for outcomes ``y_true``.

        Parameters
        ----------
        {{decomposed_inputs}}
        {{fitted}}

        Examples
        --------
        >>> from skbrier.decomposition import BrierDecomposition
        >>> d = BrierDecomposition.from_predictions([0, 1, 1], [0.2, 0.6, 0.9])
        >>> round(d.brier_score_, 4)
        0.07
        """
        return cls(**params).fit(y_true, y_proba, sample_weight=sample_weight)

    @classmethod
    @_doc
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: Any,
        *,
        sample_weight: Any | None = None,
        **params: Any,
    ) -> Any:
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
        {{fitted}}

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
        proba, pos_label, labels = estimator_proba(
            estimator, X, params.get("pos_label"), params.get("labels")
        )
        if proba.ndim == 1:
            params["pos_label"] = pos_label
        else:
            params["labels"] = labels
        return cls(**params).fit(y, proba, sample_weight=sample_weight)

    # ------------------------------------------------------------- reports
    @_doc
    def summary(self) -> str:
        """A readable text report of the decomposition.

        Returns
        -------
        str
            Components, identity check, Brier Index and, when fitted with
            resampling, the confidence intervals; per-class rows for
            multiclass.

        {{not_fitted}}

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
        n_bins = None
        if self._method == "murphy":
            first = self.result_ if self.classes_ is None else self.result_[0]
            n_bins = int(np.asarray(first.bin_counts).shape[0])
        return summary_text(self, self._method, n_bins)

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
        # pandas is imported first: without it, one error for either table
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")
        if what == "table":
            return pd.DataFrame(self.table_)
        return components_frame(self, self._method, self._class_names)

    @_doc
    def plot(self, ax: Any = None, *, name: str | None = None, **kwargs: Any):
        """Reliability diagram with band, forecast histogram and component bar.

        Draws :attr:`decomposition_` with :meth:`ReliabilityDisplay.from_result
        <skbrier.plotting.reliability.ReliabilityDisplay.from_result>`.  CORP:
        the isotonic recalibration curve with the consistency band of the
        resampling (when ``n_resamples > 0``).  Murphy: the mean forecast and
        observed frequency of each non-empty bin with Wilson score intervals
        at ``confidence_level`` (weighted bins: the bin weight is the sample size).

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

        {{not_fitted}}

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
        check_is_fitted(self)
        from .plotting.reliability import ReliabilityDisplay  # matplotlib lazily

        return ReliabilityDisplay.from_result(
            self.decomposition_, name=name, ax=ax, pos_label=self.pos_label, **kwargs
        )


def _plain_labels(y_true: Any) -> np.ndarray:
    """A validated ``y_true`` as a flat numpy array (no second check)."""
    y = y_true.to_numpy() if hasattr(y_true, "to_numpy") else np.asarray(y_true)
    return y.reshape(-1)


def chunk_label_rows(y_true: Any) -> dict[Any, int]:
    """The (at most two) distinct labels of a validated binary ``y_true`` and
    their rows, in O(n) (no sort)."""
    y = _plain_labels(y_true)
    if y.shape[0] == 0:
        return {}
    other = y != y[0]
    n_other = int(np.count_nonzero(other))
    first, second = y[[0, int(np.argmax(other))]].tolist()
    return {first: y.shape[0] - n_other, **({second: n_other} if n_other else {})}


def check_chunk_labels(
    seen: dict[Any, int] | None, new: dict[Any, int], pos_label: Any
) -> dict[Any, int]:
    """The labels of all binary chunks, checked as :meth:`fit` checks one
    ``y_true``: 0 in one chunk and -1 in another are three labels (or,
    without 1, an ambiguous pair), and ``"Yes"`` beside ``pos_label="yes"``
    is not read as a negative."""
    out = dict(seen or {})
    for label, rows in new.items():
        out[label] = out.get(label, 0) + rows
    keys = list(out)
    if len(out) > len(new):  # else the chunk's own check saw these very labels
        binary_target(np.array(keys), pos_label, label_rows=[out[k] for k in keys])
    if pos_label is None:  # {0} then {-1}: 0 would be the positive class of all
        _check_unambiguous_binary(np.array(keys))
    return out


def _check_unambiguous_binary(y_true: Any) -> None:
    """Without pos_label, chunks must use {0, 1} or {-1, 1} (positive class 1).

    One chunk may hold a single class, so the rule "the larger label is
    positive" cannot be applied chunk by chunk.  ``y_true`` has passed
    validation already; this only looks at which labels it holds.
    """
    y = _plain_labels(y_true)
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
