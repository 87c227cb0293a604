"""Top-label and classwise reliability diagrams (accuracy vs confidence, the gap shaded)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.params import DEFAULT_N_BINS, DEFAULT_STRATEGY
from ._common import display_doc, draw_diagonal, new_axes, store_axes

__all__ = [
    "MULTICLASS",
    "MulticlassReliabilityDisplay",
    "multiclass_display",
    "multiclass_proba",
]

#: values of ``ReliabilityDisplay``'s ``multiclass`` option
MULTICLASS = ("top_label", "classwise", "one_vs_rest")


@display_doc
@dataclass(repr=False, eq=False)
class MulticlassReliabilityDisplay:
    r"""Reliability diagram of top-label or classwise calibration.

    Bars show the observed accuracy (top-label) or class frequency
    (classwise) of each bin at the bin's mean confidence; the gap to the
    diagonal is shaded, and the share of samples per bin is drawn as a
    histogram along the bottom.  The bins are those of
    :func:`~skbrier.metrics.calibration_error.calibration_error` with the
    same options, and :attr:`ece` is its value.

    Parameters
    ----------
    confidence : ndarray of shape (n_bins_nonempty,)
        Mean confidence of each non-empty bin (per class for classwise:
        arrays are stacked over classes).
    accuracy : ndarray of shape (n_bins_nonempty,)
        Observed frequency of each non-empty bin.
    weight : ndarray of shape (n_bins_nonempty,)
        Share of the total weight in each bin.
    ece : float
        The l1 calibration error of the bins (mean over classes for classwise).
    kind : str
        ``"top_label"``, ``"binary"`` or ``"classwise"``.
    name : str, default=None
        Label of the model.

    Attributes
    ----------
    {{axes_attributes}}
    bars_ : BarContainer
    gap_ : list of matplotlib patches

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.plotting._multiclass_reliability import MulticlassReliabilityDisplay
    >>> rng = np.random.default_rng(0)
    >>> proba = rng.dirichlet([1, 1, 1], 300)
    >>> y = rng.integers(0, 3, 300)
    >>> disp = MulticlassReliabilityDisplay.from_predictions(y, proba, n_bins=10)
    >>> round(disp.ece, 4) == round(__import__("skbrier").calibration_error(
    ...     y, proba, n_bins=10), 4)
    True
    """

    confidence: np.ndarray
    accuracy: np.ndarray
    weight: np.ndarray
    ece: float
    kind: str
    name: str | None = None

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_proba: ArrayLike,
        *,
        kind: Literal["top_label", "binary", "classwise"] = "top_label",
        n_bins: int | str = DEFAULT_N_BINS,
        strategy: Literal["uniform", "quantile"] = DEFAULT_STRATEGY,
        binning: Any = None,
        sample_weight: ArrayLike | None = None,
        labels: ArrayLike | None = None,
        pos_label: Any = None,
        confidence_scale: float = 1.0,
        name: str | None = None,
    ) -> MulticlassReliabilityDisplay:
        """Bin the predictions (as :func:`~skbrier.calibration_error`).

        Parameters
        ----------
        y_true, y_proba : array-like
            Labels and probabilities (or correctness and stated confidence).
        kind : {"top_label", "binary", "classwise"}, default="top_label"
        n_bins : int or "cube_root", default=10
            ``"cube_root"``: the cube root of the number of samples (or of
            the total weight), rounded up.
        strategy : {"uniform", "quantile"}, default="uniform"
        binning : str or array-like, default=None
            A peer's bins (see ``calibration_error``).
        sample_weight : array-like, default=None
        labels : array-like, default=None
        pos_label : label, default=None
        confidence_scale : float, default=1.0
        name : str, default=None

        Returns
        -------
        MulticlassReliabilityDisplay
            Not yet drawn: call :meth:`plot`.
        """
        from ..metrics._calibration_error_core import (
            bin_table,
            binned_value,
            check_options,
            prepare,
        )
        from ._reliability_bins import resolve_n_bins

        data = prepare(
            y_true, y_proba, kind, sample_weight, labels, pos_label, confidence_scale
        )
        if isinstance(n_bins, str):  # "cube_root": of the rows, or the total weight
            rows = data.pairs[0][0].shape[0]
            n_bins = resolve_n_bins(n_bins, rows if data.w is None else float(data.w.sum()))
        o = check_options("l1", n_bins, strategy, binning, False, True)
        conf, acc, share, eces = [], [], [], []
        for p, y in data.pairs:
            (wsum, psum, ysum), (skip, total, _) = bin_table(p, y, data.w, o)
            nz = wsum > 0
            if skip is not None:
                nz &= ~skip
            tot = wsum.sum() if total is None else total
            conf.append(psum[nz] / wsum[nz])
            acc.append(ysum[nz] / wsum[nz])
            share.append(wsum[nz] / tot)
            eces.append(binned_value(p, y, data.w, o))
        return cls(
            np.concatenate(conf),
            np.concatenate(acc),
            np.concatenate(share) / len(data.pairs),
            float(np.mean(eces)),
            kind,
            name,
        )

    @classmethod
    def from_result(
        cls, records: Any, *, n_bins: int = DEFAULT_N_BINS, **kwargs: Any
    ) -> MulticlassReliabilityDisplay:
        """Diagram of an :class:`~skbrier.io.EvalRecords` (correctness vs confidence).

        Parameters
        ----------
        records : EvalRecords
            Read by one of the ``skbrier.io`` readers.
        n_bins : int, default=10
        **kwargs
            Options of :meth:`from_predictions`.

        Returns
        -------
        MulticlassReliabilityDisplay
        """
        kwargs.setdefault("name", records.model)
        return cls.from_predictions(
            records.correct, records.confidence, n_bins=n_bins, **kwargs
        )

    def plot(
        self, ax: Any = None, *, name: str | None = None
    ) -> MulticlassReliabilityDisplay:
        """Draw the diagram.

        Parameters
        ----------
        {{ax}}
        name : str, default=None
            Legend label (default: the display's name).

        Returns
        -------
        MulticlassReliabilityDisplay
            ``self``, with ``ax_``, ``figure_``, ``bars_`` and ``gap_`` set.
        """
        ax = new_axes(ax, "MulticlassReliabilityDisplay")
        from matplotlib.patches import Polygon

        label = name if name is not None else self.name
        width = 0.9 / max(len(self.confidence), 10) if self.kind == "classwise" else 0.05
        draw_diagonal(ax, "perfect calibration")
        self.bars_ = ax.bar(
            self.confidence,
            self.accuracy,
            width=width,
            color="C0",
            alpha=0.8,
            label=f"{label + ': ' if label else ''}ECE {self.ece:.3f}",
        )
        self.gap_ = []
        for c, a in zip(self.confidence, self.accuracy):
            poly = Polygon(
                [
                    (c - width / 2, a),
                    (c + width / 2, a),
                    (c + width / 2, c),
                    (c - width / 2, c),
                ],
                closed=True,
                facecolor="C3",
                alpha=0.3,
                edgecolor="C3",
            )
            ax.add_patch(poly)
            self.gap_.append(poly)
        # the confidence histogram along the bottom (share of samples, scaled)
        top = max(float(self.weight.max()), 1e-12)
        ax.bar(
            self.confidence,
            0.2 * self.weight / top,
            width=width,
            color="0.6",
            alpha=0.6,
            label="share of samples (scaled)",
        )
        xlabel = "predicted probability" if self.kind == "classwise" else "confidence"
        ylabel = "observed frequency" if self.kind == "classwise" else "accuracy"
        ax.set(xlim=(0, 1), ylim=(0, 1), xlabel=xlabel, ylabel=ylabel)
        ax.legend(loc="upper left", fontsize="small")
        return store_axes(self, ax)


def multiclass_proba(y_proba: Any, multiclass: Any) -> bool:
    """Whether ``y_proba`` goes to :class:`MulticlassReliabilityDisplay`.

    True for a matrix with three or more columns when ``multiclass`` is
    ``"top_label"`` or ``"classwise"``; ``multiclass`` is checked here
    whatever the input.  Dicts and DataFrames (several models) never are.
    """
    from .._core.params import check_option

    multiclass = check_option(multiclass, "multiclass", MULTICLASS)
    if multiclass == "one_vs_rest" or isinstance(y_proba, dict):
        return False
    if hasattr(y_proba, "columns"):  # a DataFrame: one column per model
        return False
    shape = np.shape(y_proba)
    return len(shape) == 2 and shape[1] >= 3


def multiclass_display(
    y_true: Any,
    y_proba: Any,
    multiclass: str,
    sample_weight: Any,
    n_bins: int | str,
    strategy: Any,
    labels: Any,
    name: str | None,
    ax: Any,
    plot_kwargs: dict[str, Any],
) -> MulticlassReliabilityDisplay:
    """Top-label or classwise diagram for ``ReliabilityDisplay``'s multiclass input."""
    if plot_kwargs:
        raise TypeError(
            f"multiclass={multiclass!r} diagrams take no plot options; got "
            f"{sorted(plot_kwargs)}."
        )
    disp = MulticlassReliabilityDisplay.from_predictions(
        y_true,
        y_proba,
        kind=multiclass,  # type: ignore[arg-type]
        n_bins=n_bins,
        strategy=strategy,
        sample_weight=sample_weight,
        labels=labels,
        name=name,
    )
    return disp.plot(ax=ax)
