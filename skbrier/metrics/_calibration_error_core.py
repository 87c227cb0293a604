"""The validated core of :mod:`skbrier.metrics.calibration_error`.

Input checks (arrays to ``(p, y)`` pairs: binary, top-label or one per
class; options), the bins of each ``binning=`` preset and the statistics on
validated pairs, shared by the public functions and their bootstrap.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .._core.binning import check_edges as check_bin_edges
from .._core.binning import (
    check_edges_cover,
    check_quantile_weights,
    uniform_edges,
    weighted_quantile,
)
from .._core.kernels.calibration_error import (
    BinSums,
    TopLabelPass,
    bin_ids,
    bin_sums,
    calibration_finish,
    classwise_columns,
    discrete_bin_ids,
    edge_ids,
    hle_bin_ids,
    kumar_equal_mass_edges,
    linspace_edges,
    sklearn_quantile_edges,
    smooth_ece,
    smooth_ece_auto,
    top_label,
    top_label_reduce,
    torch_linspace_edges,
)
from .._core.multilabel import check_multilabel, is_multilabel
from .._core.params import (
    check_bool,
    check_min_samples,
    check_n_bins,
    check_option,
    check_real,
)
from .._core.resampling import repeated_rows
from .._core.validation import _as_array, check_forecast

__all__ = [
    "BINNING_PRESETS",
    "HLE_BIN_SIZE",
    "Options",
    "Pairs",
    "bin_table",
    "binned_value",
    "ce_point",
    "ce_value",
    "check_bandwidth",
    "check_helm_total",
    "check_options",
    "check_sample_size",
    "fixed_bin_ids",
    "prepare",
    "rescale",
    "smooth_value",
    "top_label_pass",
]

#: The ``binning=`` presets of :func:`calibration_error`.
BINNING_PRESETS: tuple[str, ...] = (
    "sklearn",
    "torchmetrics",
    "netcal",
    "helm",
    "hle",
    "hle_all_bins",
    "discrete",
)
#: The presets that fix their own bins (``strategy`` must stay "uniform").
OWN_BINS_PRESETS: tuple[str, ...] = (
    "torchmetrics",
    "helm",
    "hle",
    "hle_all_bins",
    "discrete",
)
#: The presets whose bins depend on all the data (not mergeable across chunks).
DATA_BINS_PRESETS: tuple[str, ...] = ("helm", "hle", "hle_all_bins", "discrete")
_KINDS = ("top_label", "binary", "classwise")
_NORMS = ("l1", "l2", "max")
HLE_BIN_SIZE = 100


# --------------------------------------------------------------------------- input
@dataclasses.dataclass
class Pairs:
    """Validated ``(p, y)`` pairs (one, or one per class) and the weights.

    The top-label pair is made from ``top`` (the matrix and the class codes)
    when first asked for: :func:`ce_point` reduces the matrix in one pass
    without making it.
    """

    pairs_: list[tuple[np.ndarray, np.ndarray]] | None
    w: np.ndarray | None
    classwise: bool
    top: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def pairs(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The ``(p, y)`` pairs."""
        if self.pairs_ is None:
            assert self.top is not None
            self.pairs_ = [top_label(np, *self.top)]
        return self.pairs_

    @property
    def n(self) -> int:
        """The number of rows."""
        if self.top is not None:
            return int(self.top[0].shape[0])
        return int(self.pairs[0][0].shape[0])

    @property
    def total(self) -> float:
        """The total weight (the number of rows without weights)."""
        return float(self.n if self.w is None else self.w.sum())


def check_scale(confidence_scale: Any) -> float:
    return check_real(
        confidence_scale, "confidence_scale", low=0.0, inclusive=(False, True)
    )


def rescale(y_proba: Any, scale: float) -> np.ndarray:
    """``y_proba / scale`` (checked ``confidence_scale``), refusing values above it."""
    raw = _as_array(y_proba, "y_proba")
    if raw.dtype.kind not in "biuf":
        raise TypeError(f"y_proba must contain numbers; got dtype {raw.dtype}.")
    hi = float(np.nanmax(raw)) if raw.size else 0.0
    if hi > scale:
        raise ValueError(
            f"y_proba has values up to {hi!r}, above confidence_scale={scale!r}."
        )
    return raw / scale


def prepare(
    y_true: Any,
    y_proba: Any,
    kind: str,
    sample_weight: Any,
    labels: Any,
    pos_label: Any,
    confidence_scale: float,
    *,
    label_rows: Any = None,
    visit_rows: Any = None,
) -> Pairs:
    kind = check_option(kind, "kind", _KINDS)
    scale = check_scale(confidence_scale)
    if scale != 1.0:
        y_proba = rescale(y_proba, scale)
    if is_multilabel(y_true):  # one binary error per label
        # validated first: a 2-D y_true of fractions is a swap, not a kind
        fc = check_multilabel(y_true, y_proba, sample_weight=sample_weight, labels=labels)
        if kind != "classwise":
            raise ValueError(
                f"kind={kind!r} needs one class per row; a multilabel indicator "
                "y_true is calibrated label by label: pass kind='classwise' (the "
                "per-label errors' mean for norm='l1', root mean square for 'l2', "
                "maximum for 'max')."
            )
        cols = [
            (np.ascontiguousarray(fc.proba[:, j]), fc.y[:, j]) for j in range(fc.n_columns)
        ]
        return Pairs(cols, fc.sample_weight, True)
    fc = check_forecast(
        y_true,
        y_proba,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        label_rows=label_rows,  # a mergeable state's distinct labels
        visit_rows=visit_rows,
    )
    w = fc.sample_weight
    if fc.binary_1d:
        # as Kumar et al.'s calibration package: 1-D input is binary for every kind
        return Pairs([(fc.proba, fc.y)], w, False)
    if kind == "top_label":
        return Pairs(None, w, False, top=(fc.proba, fc.y))
    k = fc.proba.shape[1]
    if kind == "binary":
        if k != 2:
            raise ValueError(
                f"kind='binary' needs 1-D y_proba or two columns; got {k} columns. "
                "For more classes pass kind='top_label' or kind='classwise' (the "
                "scorer 'neg_calibration_error' is the top-label error)."
            )
        idx = 1
        if pos_label is not None:
            classes = list(fc.classes)
            if pos_label not in classes:
                raise ValueError(
                    f"pos_label={pos_label!r} is not one of the classes {classes}."
                )
            idx = classes.index(pos_label)
        return Pairs(
            [(np.ascontiguousarray(fc.proba[:, idx]), (fc.y == idx).astype(np.float64))],
            w,
            False,
        )
    return Pairs(list(classwise_columns(fc.proba, fc.y, k)), w, True)


@dataclasses.dataclass(frozen=True)
class Options:
    norm: str
    n_bins: int
    strategy: str
    binning: Any
    debias: bool
    right: bool
    squared: bool = False


def check_edges(binning: Any) -> np.ndarray:
    """Explicit ``binning`` edges (:func:`._binning.check_edges`)."""
    return check_bin_edges(binning, name="binning")


def check_options(
    norm: Any,
    n_bins: Any,
    strategy: Any,
    binning: Any,
    debias: Any,
    right: Any,
    squared: Any = False,
) -> Options:
    norm = check_option(norm, "norm", _NORMS)
    squared = check_bool(squared, "squared")
    if squared and norm != "l2":
        raise ValueError(
            f"squared=True is defined for norm='l2' only (the square of the RMS "
            f"calibration error); got norm={norm!r}."
        )
    n_bins = check_n_bins(n_bins)
    if not isinstance(strategy, str) and np.ndim(strategy) == 1:
        # murphy_decomposition takes its edges as strategy=
        raise TypeError(
            "strategy must be 'uniform' or 'quantile'; got an array: pass bin edges "
            "as binning=edges."
        )
    strategy = check_option(strategy, "strategy", ("uniform", "quantile"))
    debias = check_bool(debias, "debias")
    right = check_bool(right, "right")
    if debias and norm != "l2":
        raise ValueError(
            f"debias=True is defined for norm='l2' only (Kumar et al. 2019); got "
            f"norm={norm!r}."
        )
    if binning is not None:
        if isinstance(binning, str):
            binning = check_option(binning, "binning", BINNING_PRESETS)
            if binning in OWN_BINS_PRESETS and strategy != "uniform":
                raise ValueError(
                    f"binning={binning!r} fixes its own bins; strategy must be "
                    f"'uniform' (the default), got {strategy!r}."
                )
        else:
            binning = check_edges(binning)
    return Options(norm, n_bins, strategy, binning, debias, right, squared)


def check_sample_size(o: Options, n: int, total: float) -> None:
    """Refuse fewer than 3 observations where the statistic counts them.

    The debiased estimator (``debias=True``) subtracts a variance over
    :math:`W_b - 1` per bin: it treats the weights as frequencies (the
    total weight is the sample size) and is undefined below a few
    observations, so it refuses as :func:`~skbrier.brier_inference` does
    (``n`` rows, ``total`` their weight: a total other than ``n`` is read as
    frequency weights).
    """
    if o.debias:
        check_min_samples(
            n,
            None if total == n else total,
            purpose="the debiased calibration error (debias=True)",
        )


# --------------------------------------------------------------------------- kernels
def bin_table(p: np.ndarray, y: np.ndarray, w: np.ndarray | None, o: Options):
    """Per-bin ``(wsum, psum, ysum)`` of one (p, y) pair under options ``o``, and
    ``(skip, total, singleton_rule)`` for :func:`binned_error`."""
    b = o.binning
    skip = None
    total = None
    rule = "kumar"
    fixed = fixed_bin_ids(p, o)
    if fixed is not None:
        ids, k, rule = fixed
    elif b is None:
        ids, k = bin_ids(p, w, o.n_bins, o.strategy, o.right)
    elif b == "sklearn":  # quantile (uniform bins are fixed)
        edges = sklearn_quantile_edges(p, w, o.n_bins)
        ids = np.searchsorted(edges[1:-1], p).astype(np.intp)
        k = o.n_bins
    elif b == "netcal":  # quantile (np.quantile; of the expanded sample with weights)
        check_quantile_weights(w)
        edges = weighted_quantile(p, linspace_edges(o.n_bins), w)
        edges[0], edges[-1] = 0.0, 1.0
        ids = np.searchsorted(edges[1:-1], p, side="right").astype(np.intp)
        k = o.n_bins
    elif b == "discrete":
        ids, k = discrete_bin_ids(p)
    elif b == "helm":
        if w is not None:
            check_helm_total(float(w.sum()))
        edges = kumar_equal_mass_edges(p, w, o.n_bins)
        ids, k = edge_ids(p, edges, True), edges.shape[0] - 1
    else:  # hle, hle_all_bins
        if w is not None:
            p, y = _repeat_rows(p, y, w, b)
            w = None
        if p.shape[0] < HLE_BIN_SIZE:
            raise ValueError(
                f"binning={b!r} needs at least {HLE_BIN_SIZE} samples (bins of "
                f"{HLE_BIN_SIZE}); got {p.shape[0]}."
            )
        ids, k = hle_bin_ids(p, HLE_BIN_SIZE)
        if b == "hle":
            skip = np.zeros(k, dtype=bool)
            skip[-1] = True
        total = float(p.shape[0])
    return bin_sums(np, ids, p, y, w, k), (skip, total, rule)


def check_helm_total(total: float) -> None:
    """Refuse frequency weights of ``binning="helm"`` that sum to less than
    one observation (its groups are of rows of the expanded sample).

    Examples
    --------
    >>> check_helm_total(2.0)
    >>> check_helm_total(0.3)
    Traceback (most recent call last):
    ...
    ValueError: binning='helm' splits the sorted sample into groups of rows: ...
    """
    if not round(total) >= 1:
        raise ValueError(
            f"binning='helm' splits the sorted sample into groups of rows: "
            f"sample_weight holds frequency weights and sums to "
            f"{total:.4g}, less than one observation."
        )


def _repeat_rows(
    p: np.ndarray, y: np.ndarray, w: np.ndarray, preset: str
) -> tuple[np.ndarray, np.ndarray]:
    """The rows repeated by integer frequency weights (the HLE presets bin rows)."""
    reps = repeated_rows(
        w, f"binning={preset!r} (its bins are consecutive rows)", "choose another binning"
    )
    return np.repeat(p, reps), np.repeat(y, reps)


def fixed_bin_ids(p: np.ndarray, o: Options) -> tuple[np.ndarray, int, str] | None:
    """``(bin id of each forecast, number of bins, singleton rule)`` when the
    bins of options ``o`` do not depend on the data (uniform bins, explicit
    edges, the ``"sklearn"``/``"netcal"`` uniform presets, ``"torchmetrics"``);
    None when they do (quantiles, ``"helm"``, ``"hle"``).  Fixed bins make
    the per-bin sums mergeable across chunks."""
    b = o.binning
    if isinstance(b, np.ndarray):
        check_edges_cover(p, b, "binning")
        return edge_ids(p, b, o.right), b.shape[0] - 1, "kumar"
    if b == "torchmetrics":
        edges = torch_linspace_edges(o.n_bins)
        ids = np.searchsorted(edges, p, side="right").astype(np.intp) - 1
        np.clip(ids, 0, o.n_bins, out=ids)
        return ids, o.n_bins + 1, "torchmetrics"
    if o.strategy != "uniform":
        return None
    if b is None:
        ids, k = bin_ids(p, None, o.n_bins, "uniform", o.right)
        return ids, k, "kumar"
    if b == "sklearn":
        ids = np.searchsorted(linspace_edges(o.n_bins)[1:-1], p).astype(np.intp)
        return ids, o.n_bins, "kumar"
    if b == "netcal":
        edges = linspace_edges(o.n_bins)
        ids = np.searchsorted(edges[1:-1], p, side="right").astype(np.intp)
        return ids, o.n_bins, "kumar"
    return None


def binned_value(p: np.ndarray, y: np.ndarray, w: np.ndarray | None, o: Options) -> float:
    """The binned error of one (p, y) pair under options ``o`` (validated arrays)."""
    return ce_value(Pairs([(p, y)], w, False), w, o)


def ce_value(data: Pairs, w: np.ndarray | None, o: Options) -> float:
    """The calibration error of validated pairs under options ``o`` (weights
    ``w``): the per-bin sums of each pair, then the one finish."""
    sums: list[BinSums] = []
    skip, total, rule = None, None, "kumar"
    for p, y in data.pairs:
        s, (skip, total, rule) = bin_table(p, y, w, o)
        sums.append(s)
    return calibration_finish(
        sums,
        o.norm,
        squared=o.squared,
        classwise=data.classwise,
        debias=o.debias,
        total=total,
        skip=skip,
        singleton_rule=rule,
    )


def _fixed_rule(o: Options) -> tuple[np.ndarray, int, str] | None:
    """:func:`fixed_bin_ids`'s rule when the top-label kernel may bin block by
    block (explicit edges are checked against all the forecasts)."""
    fixed = o.binning is None or (
        isinstance(o.binning, str) and o.binning in ("torchmetrics", "sklearn", "netcal")
    )
    return fixed_bin_ids(np.zeros(1), o) if fixed else None


def ratios_only(o: Options) -> bool:
    """Whether the binned error of options ``o`` depends on the ratios of
    the weights only: no debiasing and bins that do not count observations
    (fixed bins, explicit edges, ``"discrete"``); its weights may then be
    :func:`~skbrier._core.validation.scale_free_weights`."""
    if o.debias:
        return False
    b = o.binning
    return isinstance(b, np.ndarray) or b == "discrete" or _fixed_rule(o) is not None


def top_label_pass(y_proba: Any, kind: Any, o: Options) -> TopLabelPass | None:
    """A :class:`~skbrier._core.kernels.calibration_error.TopLabelPass` for the
    validation's pass over a numpy matrix whose top-label error
    :func:`ce_point` computes with fixed bins (else None)."""
    if kind != "top_label" or _fixed_rule(o) is None:
        return None
    if type(y_proba) is not np.ndarray or y_proba.ndim != 2 or y_proba.shape[1] < 2:
        return None
    return TopLabelPass(y_proba.shape[0], y_proba.shape[1])


def ce_point(data: Pairs, o: Options, seen: TopLabelPass | None = None) -> float:
    """:func:`ce_value` with the data's own weights; the top-label error with
    bins fixed by the options reads the matrix once
    (:func:`~skbrier._core.kernels.calibration_error.top_label_reduce`, with
    the top labels ``seen`` by the validation's pass when it saw every row)."""
    rule = _fixed_rule(o)
    if data.pairs_ is None and rule is not None:
        _, nb, singleton = rule
        assert data.top is not None
        proba, codes = data.top
        if o.binning is None:  # the edges once, not per block
            edges = uniform_edges(o.n_bins)

            def bins(c: np.ndarray) -> np.ndarray:
                return edge_ids(c, edges, o.right)
        else:

            def bins(c: np.ndarray) -> np.ndarray:
                return fixed_bin_ids(c, o)[0]  # type: ignore[index]

        sums = top_label_reduce(np, proba, codes, data.w, bins, nb, seen=seen)
        return calibration_finish(
            [sums], o.norm, debias=o.debias, singleton_rule=singleton, squared=o.squared
        )
    return ce_value(data, data.w, o)


def smooth_value(data: Pairs, w: np.ndarray | None, bandwidth: Any) -> float:
    vals = []
    for p, y in data.pairs:
        if bandwidth == "auto":
            vals.append(smooth_ece_auto(p, y, w)[0])
        else:
            vals.append(smooth_ece(p, y, w, bandwidth))
    return float(np.mean(vals))


#: The narrowest smECE kernel: its grid has ``20 / bandwidth`` nodes (relplot's).
MIN_BANDWIDTH = 1e-5


def check_bandwidth(bandwidth: Any) -> Any:
    if isinstance(bandwidth, str):
        return check_option(bandwidth, "bandwidth", ("auto",))
    value = check_real(bandwidth, "bandwidth", low=0.0, high=1.0, inclusive=(False, True))
    if value < MIN_BANDWIDTH:
        raise ValueError(
            f"bandwidth must be at least {MIN_BANDWIDTH:g}, got {value:.4g}: smECE "
            f"convolves on a grid of 20 / bandwidth nodes ({20 / value:.4g} here). "
            "Use bandwidth='auto' (never below 0.001) or a wider kernel."
        )
    return value
