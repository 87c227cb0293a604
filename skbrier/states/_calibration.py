r"""Mergeable per-bin sums of the binned calibration errors (binary, top-label,
classwise), per label of ``y_true``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.kernels.calibration_error import (
    BinSums,
    calibration_finish,
    top_label_argmax,
)
from .._core.params import check_option
from .._core.validation import (
    _as_array,
    check_forecast,
    check_probabilities,
    encode_labels,
)
from ..metrics._calibration_error_core import (
    _KINDS,
    Options,
    check_sample_size,
    check_scale,
    fixed_bin_ids,
    prepare,
    rescale,
)
from ._base import _LabelSums
from ._base import label_key as _key
from ._chunks import (
    _chunk_targets,
    _chunk_weights,
    check_columns,
    merge_row_sums,
    note_row_sums,
    warn_row_sums,
)

__all__ = ["CalibrationBinsState"]


class _Sparse:
    """Sums ``(w, w p)`` keyed by ``bin * n_columns + column`` (sorted keys)."""

    __slots__ = ("keys", "sums")

    def __init__(self, keys: np.ndarray, sums: np.ndarray) -> None:
        self.keys, self.sums = keys, sums

    @classmethod
    def of(cls, keys: np.ndarray, w: np.ndarray, wp: np.ndarray) -> _Sparse:
        uk, inv = np.unique(keys, return_inverse=True)
        inv = inv.reshape(-1)
        m = uk.shape[0]
        sums = np.column_stack(
            [
                np.bincount(inv, weights=w, minlength=m),
                np.bincount(inv, weights=wp, minlength=m),
            ]
        )
        return cls(uk, sums)

    def __add__(self, other: _Sparse) -> _Sparse:
        s = np.concatenate([self.sums, other.sums])
        return _Sparse.of(np.concatenate([self.keys, other.keys]), s[:, 0], s[:, 1])


class CalibrationBinsState(_LabelSums):
    r"""Mergeable state of :func:`~skbrier.metrics.calibration_error.calibration_error`.

    Per label of ``y_true`` it keeps sparse per-(bin, column) sums of
    :math:`w` and :math:`w p`: for 1-D ``y_proba`` the bins of ``p``; for
    ``kind="top_label"`` the bin of the confidence :math:`\max_k p_k` and the
    column of that maximum (the first on ties); for ``"binary"`` and
    ``"classwise"`` the bin of every column.  Which label each column stands
    for is resolved in :meth:`finalize` with the in-memory rule (and its
    errors), and then

    .. math::

        \mathrm{ECE} = \sum_b \frac{W_b}{W} |\bar p_b - \bar y_b|

    (or the l2/max norms, debiased if asked) with :math:`\bar y_b` the
    weight of the rows of bin :math:`b` whose column is their label's.  Only
    bins that do not depend on the data are mergeable (uniform bins,
    explicit edges, the uniform ``"sklearn"``/``"netcal"`` presets and
    ``"torchmetrics"``).

    Parameters
    ----------
    options : Options
        The checked options (``_calibration_error_core.check_options``).
    kind : {"top_label", "binary", "classwise"}, default="top_label"
    labels : array-like, default=None
    pos_label : label, default=None
    confidence_scale : float, default=1.0

    See Also
    --------
    skbrier.metrics.calibration_error.calibration_error : The error on
        arrays, with its references (Guo et al. 2017, Kumar et al. 2019).

    Examples
    --------
    >>> from skbrier.metrics._calibration_error_core import check_options
    >>> from skbrier.states import CalibrationBinsState
    >>> o = check_options("l1", 2, "uniform", None, False, True)
    >>> s = CalibrationBinsState(o).update([0, 1], [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1]])
    >>> s = s.merge(CalibrationBinsState(o).update([2, 2], [[0.2, 0.2, 0.6],
    ...                                                     [0.5, 0.1, 0.4]]))
    >>> round(s.finalize(), 4)
    0.375
    """

    def __init__(
        self,
        options: Options,
        *,
        kind: str = "top_label",
        labels: Any = None,
        pos_label: Any = None,
        confidence_scale: float = 1.0,
    ) -> None:
        if not isinstance(options, Options):
            raise TypeError(
                "options must be the Options made by check_options (the checked norm, "
                f"bins and debiasing), got {type(options).__name__}."
            )
        self.options = options
        # checked as calibration_error checks them
        self.kind = check_option(kind, "kind", _KINDS)
        self.labels = labels
        self.pos_label = pos_label
        self.confidence_scale = check_scale(confidence_scale)
        self._init_sums()  # a _Sparse per label
        self.n_columns: int | None = None  # 1 for 1-D y_proba
        self.n_bins: int | None = None
        self.rule = "kumar"
        self.rows_sum_to_one = True
        self.sum_columns: list | None = None  # a DataFrame's (the warning's advice)

    def _bins(self, p: np.ndarray) -> np.ndarray:
        fixed = fixed_bin_ids(p, self.options)
        if fixed is None:  # pragma: no cover - refused at the public edge
            raise ValueError("binning: these bins depend on all the data (not mergeable).")
        ids, self.n_bins, self.rule = fixed
        return ids

    def update(self, y_true: Any, y_proba: Any, sample_weight: Any = None):
        """Add a chunk of rows (validated as in memory); returns ``self``."""
        raw = _as_array(y_proba, "y_proba")
        if raw.ndim >= 1 and raw.shape[0] == 0:
            return self
        if self.confidence_scale != 1.0:
            raw = rescale(raw, self.confidence_scale)
        p = check_probabilities(raw, warn_hard=False, source=y_proba)
        n = p.shape[0]
        k = 1 if p.ndim == 1 else p.shape[1]
        check_columns("y_proba", k, self.n_columns)
        self.n_columns = k
        y = _chunk_targets(y_true, n)
        ww = _chunk_weights(sample_weight, n)
        w = np.ones(n) if ww is None else ww
        if k > 1:
            note_row_sums(self, p, raw.dtype, y_proba)
        if k == 1:
            keys, pw, rows = self._bins(p), p * w, np.arange(n)
        elif self.kind == "top_label":
            conf, am = top_label_argmax(np, p)
            keys, pw, rows = self._bins(conf) * k + am, conf * w, np.arange(n)
        else:  # every column
            flat = p.reshape(-1)
            keys = self._bins(flat) * k + np.tile(np.arange(k), n)
            pw, rows = flat * np.repeat(w, k), np.repeat(np.arange(n), k)
        self._note_hard(self.proba_name, p)
        self._count(n, ww)
        inv, classes = encode_labels(y)  # O(n) for compact integer labels
        n_rows = np.bincount(inv, minlength=classes.shape[0])
        inv = inv[rows]
        span = (self.n_bins or 1) * k
        both = _Sparse.of(inv * span + keys, w[rows], pw)
        label_of = both.keys // span
        for i, label in enumerate(classes):
            sel = label_of == i
            part = _Sparse(both.keys[sel] - i * span, both.sums[sel])
            self._put(_key(label), part, int(n_rows[i]))
        return self

    def _merge(self, other: CalibrationBinsState) -> None:
        assert other.n_columns is not None
        check_columns("y_proba", other.n_columns, self.n_columns)
        self.n_columns, self.n_bins, self.rule = other.n_columns, other.n_bins, other.rule
        merge_row_sums(self, other)
        self._merge_sums(other)

    def _outcomes(self) -> tuple[list[Any], np.ndarray, list[int]]:
        """``(labels, the column of each label, the columns to score)`` by the
        in-memory rule (``prepare`` on the distinct labels: the same errors)."""
        keys, y, rows = self._labels()
        k = self.n_columns or 1
        dummy = np.full((len(keys), k), 1.0 / k) if k > 1 else np.full(len(keys), 0.5)
        pairs = prepare(
            y, dummy, self.kind, None, self.labels, self.pos_label, 1.0, label_rows=rows
        )
        if k == 1:  # 1-D: binary for every kind; column 0 is the outcome 1
            cols = np.where(pairs.pairs[0][1] == 1.0, 0, -1)
            targets = [0]
        else:
            fc = check_forecast(y, dummy, labels=self.labels, label_rows=rows)
            cols = fc.y
            if self.kind == "binary":  # two columns (prepare checked pos_label)
                pos = (
                    1 if self.pos_label is None else list(fc.classes).index(self.pos_label)
                )
                targets = [pos]
            else:
                targets = list(range(k))
        warn_row_sums(self, "y_proba", stacklevel=5)
        self._check_total_weight()
        self._warn_hard()
        return keys, cols, targets

    def finalize(self) -> float:
        """The calibration error."""
        keys, cols, targets = self._outcomes()
        check_sample_size(self.options, self.n_samples, self.total_weight)
        k = self.n_columns or 1
        nb = self.n_bins or 1
        top = self.kind == "top_label" and k > 1
        sums = []
        for j in targets:
            wsum, psum, ysum = np.zeros(nb), np.zeros(nb), np.zeros(nb)
            for key, c in zip(keys, cols):
                s = self._sums[key]
                b, col = s.keys // k, s.keys % k
                use = np.ones(b.shape[0], bool) if top else col == j
                wsum += np.bincount(b[use], weights=s.sums[use, 0], minlength=nb)
                psum += np.bincount(b[use], weights=s.sums[use, 1], minlength=nb)
                hit = (col == c) if top else (use if c == j else None)
                if hit is not None:
                    ysum += np.bincount(b[hit], weights=s.sums[hit, 0], minlength=nb)
            sums.append(BinSums(wsum, psum, ysum))
        o = self.options
        return calibration_finish(
            sums,
            o.norm,
            classwise=self.kind == "classwise" and k > 1,
            debias=o.debias,
            singleton_rule=self.rule,
            squared=o.squared,
        )
