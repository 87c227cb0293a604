"""The label-keyed base of every mergeable state (numpy only, engine-agnostic).

A state is built from chunks of rows (``update``), states of different chunks
are combined (``merge``), and the statistic is computed once at the end
(``finalize``).  The outcome labels are only known for the whole data at the
end (which class is positive follows scikit-learn's rule applied to *all*
labels), so each state keeps its sums per distinct label of ``y_true`` and
encodes the labels as 0/1 in ``finalize`` with the same function the
in-memory metrics use, :func:`skbrier._validation.binary_target`; the errors
are therefore the in-memory ones, naming the same parameter.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import (
    _as_array,
    _check_finite_labels,
    _target_array,
    binary_target,
    check_probabilities,
    check_sample_weight,
)

__all__ = ["BinaryState", "label_key"]

#: the attributes of a state that hold data (the others are its options)
_DATA_ATTRIBUTES = frozenset(
    {"n_samples", "total_weight", "weighted", "_label_dtype", "_sums"}
)


def label_key(label: Any) -> Any:
    """The dictionary key of a label of ``y_true`` (numpy scalars as Python ones)."""
    return label.item() if isinstance(label, np.generic) else label


def _chunk_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """Validated weights of one chunk; a chunk whose weights are all 0 is valid
    (only the total over all chunks must be positive, checked in finalize)."""
    if sample_weight is None:
        return None
    w = _as_array(sample_weight, "sample_weight")
    if w.dtype.kind in "biuf" and w.ndim == 1 and w.shape[0] == n and n and not w.any():
        return w.astype(np.float64)
    return check_sample_weight(w, n, ref_name="y_proba")


def _chunk_labels(y: np.ndarray) -> tuple[list[Any], list[np.ndarray | None]]:
    """The distinct labels of one chunk and the row mask of each (None: all rows).

    O(n) for numbers (minimum and maximum); more than two labels raise the
    in-memory error of :func:`binary_target`.
    """
    if y.dtype.kind in "biuf":
        if y.dtype.kind == "f":
            _check_finite_labels(y, "y_true")
        lo, hi = y.min(), y.max()
        if lo == hi:
            return [lo.item()], [None]
        is_hi = y == hi
        if np.count_nonzero(is_hi | (y == lo)) != y.shape[0]:
            binary_target(y, None)  # raises "more than two classes"
        return [lo.item(), hi.item()], [~is_hi, is_hi]
    classes = np.unique(y)
    if classes.shape[0] > 2:
        binary_target(y, None)
    if classes.shape[0] == 1:
        return [classes[0]], [None]
    is_hi = y == classes[1]
    return [classes[0], classes[1]], [~is_hi, is_hi]


class BinaryState:
    """Base of the mergeable states of binary forecasts.

    Subclasses define ``_chunk(p, w, extra)`` (the sums of one label's rows
    of a chunk), ``_add(a, b)`` (merge two sums) and use
    :meth:`encoded` in their ``finalize``.

    Parameters
    ----------
    pos_label : int, float, bool or str, default=None
        The positive class, resolved in :meth:`encoded` exactly as the
        in-memory functions resolve it from all labels.
    """

    #: the name of ``y_proba`` in error messages
    proba_name = "y_proba"

    def __init__(self, *, pos_label: Any = None) -> None:
        self.pos_label = pos_label
        self.n_samples = 0
        self.total_weight = 0.0
        self.weighted = False
        self._label_dtype: np.dtype | None = None
        self._sums: dict[Any, Any] = {}

    # -- subclass hooks -----------------------------------------------------
    def _chunk(self, p: np.ndarray, w: np.ndarray | None, extra: dict) -> Any:
        raise NotImplementedError

    def _add(self, a: Any, b: Any) -> Any:
        return a + b

    def _extra(self, n: int, **columns: Any) -> dict:
        return {}

    # -- the protocol -------------------------------------------------------
    def update(self, y_true: Any, y_proba: Any, sample_weight: Any = None, **columns: Any):
        """Add a chunk of rows (validated here, as the in-memory functions do).

        Returns ``self``.  Empty chunks are allowed.
        """
        raw = _as_array(y_proba, self.proba_name)
        if raw.ndim >= 1 and raw.shape[0] == 0:
            return self  # an empty chunk (an empty partition)
        p = check_probabilities(raw, name=self.proba_name)
        if p.ndim != 1:
            raise ValueError(
                f"y_proba must be 1-D (the probability of the positive class) for "
                f"distributed input; got shape {p.shape}."
            )
        n = p.shape[0]
        y_arr = _as_array(y_true, "y_true")
        if y_arr.ndim == 2 and y_arr.shape[1] == 1:
            y_arr = y_arr[:, 0]
        if y_arr.ndim == 1 and y_arr.shape[0] != n:
            raise ValueError(
                f"y_true has {y_arr.shape[0]} samples but y_proba has {n}; "
                "all inputs must have the same number of samples."
            )
        w = _chunk_weights(sample_weight, n)
        extra = self._extra(n, **columns)
        if n == 0:
            return self
        y = _target_array(y_arr, check_finite=False)
        if self._label_dtype is None:
            self._label_dtype = y.dtype
        self.n_samples += n
        if w is not None:
            self.weighted = True
            self.total_weight += float(w.sum())
        else:
            self.total_weight += float(n)
        labels, masks = _chunk_labels(y)
        for label, mask in zip(labels, masks):
            if mask is None:
                part = self._chunk(p, w, extra)
            else:
                sub = {
                    k: (v[mask] if isinstance(v, np.ndarray) else v)
                    for k, v in extra.items()
                }
                part = self._chunk(p[mask], None if w is None else w[mask], sub)
            self._put(label, part)
        return self

    def _put(self, label: Any, part: Any) -> None:
        if label in self._sums:
            self._sums[label] = self._add(self._sums[label], part)
        else:
            self._sums[label] = part
            if len(self._sums) > 2:
                self._labels_01()  # raises "more than two classes"

    def merge(self, other: BinaryState):
        """Add the rows of ``other`` (a state of the same kind and options); returns ``self``."""
        if type(other) is not type(self):
            raise TypeError(
                f"cannot merge {type(other).__name__} into {type(self).__name__}."
            )
        if other.n_samples == 0:
            return self
        if self._label_dtype is None:
            self._label_dtype = other._label_dtype
        elif other._label_dtype is not None and other._label_dtype != self._label_dtype:
            self._label_dtype = np.result_type(self._label_dtype, other._label_dtype)
        self.n_samples += other.n_samples
        self.total_weight += other.total_weight
        self.weighted = self.weighted or other.weighted
        for label, part in other._sums.items():
            self._put(label, part)
        return self

    def _labels_01(self) -> list[tuple[float, Any]]:
        labels = list(self._sums)
        arr = np.array(labels, dtype=self._label_dtype)
        y01 = binary_target(arr, self.pos_label)
        return [(float(v), self._sums[lab]) for v, lab in zip(y01, labels)]

    def encoded(self) -> list[tuple[float, Any]]:
        """``[(y01, sums), ...]``: the sums of each label with its 0/1 outcome.

        Raises the in-memory errors: no rows, more than two classes, a
        ``pos_label`` that is not a label, string labels without
        ``pos_label``, weights summing to zero.
        """
        if self.n_samples == 0:
            _target_array(np.empty(0))  # "y_true is empty"
        if not self.total_weight > 0:
            raise ValueError("sample_weight sums to zero: at least one weight must be > 0.")
        if self.total_weight == np.inf:
            raise ValueError("sample_weight contains infinity (or sums to infinity).")
        return self._labels_01()

    def options_key(self) -> tuple:
        """A hashable key of the state's kind and options (not of its data):
        two fresh states with equal keys compute the same statistic."""
        import pickle

        items = sorted((k, v) for k, v in vars(self).items() if k not in _DATA_ATTRIBUTES)
        return (type(self).__module__, type(self).__qualname__, pickle.dumps(items))

    def as_binary(self) -> BinaryState:
        """A copy keyed by the 0/1 outcomes (``pos_label`` resolved): the state
        the same rows would give with ``y_true`` encoded as 0.0/1.0."""
        import copy

        out = copy.copy(self)
        out._sums = dict(self.encoded())
        out._label_dtype = np.dtype(np.float64)
        out.pos_label = None
        return out

    def class_weights(self) -> tuple[float, float]:
        """``(W0, W1)``: the total weight of the outcomes 0 and 1."""
        tot = [0.0, 0.0]
        for v, s in self.encoded():
            tot[int(v)] += self._weight_of(s)
        return tot[0], tot[1]

    def _weight_of(self, sums: Any) -> float:
        return float(sums[0])
