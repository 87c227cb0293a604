r"""Mergeable states of multiclass forecasts (a probability column per class).

The column of a label of ``y_true`` is only known once *all* labels are
known (the columns follow the sorted labels, or ``labels=``), so every state
here keeps its sums per distinct label of ``y_true`` and per column, and
resolves the columns in ``finalize`` with the very function the in-memory
metrics use (:func:`skbrier._core.validation.check_forecast`, applied to the
distinct labels): the errors -- too many or too few classes, labels missing
from ``labels`` -- are the in-memory ones, naming the same parameter.

* :class:`MulticlassBrierState` -- the multiclass Brier score, Brier Index
  and skill score;
* :class:`ClasswiseBinnedState` -- per-bin sums of every column, per label
  (the binned one-vs-rest decompositions of ``BrierDecomposition``);
* :class:`MultipleChoiceState` -- the multiple-choice Brier score of
  rectangular choice sets (labels need no resolving there).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._core.binning import assign_bins, check_edges
from .._core.docstrings import with_pieces
from .._core.hard import one_hot_scores, warn_one_hot
from .._core.kernels import multiple_choice as mc
from .._core.kernels.bin_statistics import BinStatistics
from .._core.kernels.brier import (
    BrierSums,
    brier_finish,
    brier_index_from_score,
    brier_reduce,
    reference_finish,
)
from .._core.kernels.decomposition import binned_sums, pow2_exponent
from .._core.params import check_bool, check_option
from .._core.validation import (
    Forecast,
    _as_array,
    _rows_sum_to_one,
    check_forecast,
    check_probabilities,
    encode_labels,
)
from ..metrics._decomposition_core import edges_for
from ..metrics._multiple_choice_checks import (
    check_scores,
    check_targets,
    flatten_ragged,
    score_dtype,
    warn_rows_do_not_sum_to_one,
)
from ..metrics.brier import _check_scale_by_half
from ._base import STATE_PIECES, MergeableState, _LabelSums, update_columns
from ._base import label_key as _key
from ._chunks import (
    _chunk_targets,
    _chunk_weights,
    check_columns,
    merge_row_sums,
    note_row_sums,
    warn_row_sums,
)
from ._sums import BrierSkill, WithReference

__all__ = ["ClasswiseBinnedState", "MulticlassBrierState", "MultipleChoiceState"]


class _LabelColumns(_LabelSums):
    """Base of the label-keyed states of 2-D forecasts.

    Subclasses define ``_chunk(p, w, inv, m, extra)`` (a list of the sums of
    each of the ``m`` labels of a chunk; ``inv`` is the label of each row)
    and may define ``_extra``.  Sums are added with ``+``.
    """

    def __init__(self, *, labels: Any = None) -> None:
        self.labels = labels
        self._init_sums()
        self.n_columns: int | None = None
        self.rows_sum_to_one = True
        self.sum_columns: list | None = None  # a DataFrame's (the warning's advice)

    def _chunk(self, p, w, inv, m, extra) -> list:
        raise NotImplementedError

    def _extra(self, p: np.ndarray, **columns: Any) -> dict:
        return {}

    def update(self, y_true: Any, y_proba: Any, sample_weight: Any = None, **columns: Any):
        """Add a chunk of rows (validated here as in memory); returns ``self``.

        Empty chunks are allowed.
        """
        columns = update_columns(self, columns)
        raw = _as_array(y_proba, self.proba_name)
        if raw.ndim >= 1 and raw.shape[0] == 0:
            return self
        p = check_probabilities(raw, name=self.proba_name, warn_hard=False, source=y_proba)
        if p.ndim != 2:  # a single column is read as 1-D, as in memory
            raise ValueError(
                f"{self.proba_name} must be 2-D (one column per class) for "
                f"{type(self).__name__}; got shape {raw.shape}. For the probability "
                "of one class (binary forecasts) use BrierState, BinnedState or "
                "CalibrationBinsState."
            )
        n, k = p.shape
        self._set_columns(k)
        y = _chunk_targets(y_true, n, self.proba_name)
        w = _chunk_weights(sample_weight, n)
        extra = self._extra(p, **columns)
        note_row_sums(self, p, raw.dtype, y_proba)
        self._note_hard(self.proba_name, p)
        self._note_columns(extra)
        self._count(n, w)
        inv, classes = encode_labels(y)  # O(n) for compact integer labels
        parts = self._chunk(p, w, inv, classes.shape[0], extra)
        n_rows = np.bincount(inv, minlength=classes.shape[0])
        for label, part, r in zip(classes, parts, n_rows):
            self._put(_key(label), part, int(r))
        return self

    def _set_columns(self, k: int) -> None:
        check_columns(self.proba_name, k, self.n_columns)
        self.n_columns = k

    def _merge(self, other: _LabelColumns) -> None:
        assert other.n_columns is not None
        self._set_columns(other.n_columns)
        merge_row_sums(self, other)
        self._merge_sums(other)

    def _sorted_labels(self) -> Any:
        """The classes of the columns as the in-memory check reads them (a
        state whose ``labels`` give an order sorts them here)."""
        return self.labels

    def resolve(self) -> tuple[list[Any], np.ndarray, np.ndarray]:
        """``(labels, columns, classes)``: each distinct label of ``y_true``, its
        column, and the classes of the columns.

        The in-memory rule applied to the distinct labels (the same errors);
        then the checks of the total weight, and the in-memory warning when
        some rows of ``y_proba`` do not sum to one.
        """
        keys, y, rows = self._labels()
        k = self.n_columns or 2
        fc = check_forecast(
            y,
            np.full((len(keys), k), 1.0 / k),
            labels=self._sorted_labels(),
            proba_name=self.proba_name,
            label_rows=rows,
        )
        warn_row_sums(self, self.proba_name, stacklevel=4)
        self._check_total_weight()
        self._warn_hard()
        return keys, fc.y, fc.classes

    def column_shape(self) -> Forecast:
        """An empty :class:`~skbrier._core.validation.Forecast` of this many columns
        (for the in-memory option checks that look at the shape only)."""
        return Forecast(None, np.empty((0, self.n_columns or 2)), None, None, False)


class _KernelColumns(WithReference, _LabelColumns):
    """Base of the label-keyed states of one kernel's hypotheses form: each
    chunk's rows of a label reduced by ``_reduce(np, None, p, w,
    reference=...)`` (the sums of every possible column), optionally with a
    ``reference`` column of reference forecasts; :meth:`sums` gives each
    label its column (``_column`` maps the validation's column to the
    kernel's)."""

    _reduce: Any = None

    def __init__(self, *, labels: Any = None, with_reference: bool = False) -> None:
        super().__init__(labels=labels)
        self.with_reference = check_bool(with_reference, "with_reference")

    def _extra(self, p: np.ndarray, **columns: Any) -> dict:
        if not self.with_reference:
            return {}
        ref = check_probabilities(
            _as_array(columns["reference"], "reference"),
            name="reference",
            warn_hard=False,
            source=columns["reference"],
        )
        if ref.shape != p.shape:
            raise ValueError(
                f"reference has shape {ref.shape} but y_proba has shape {p.shape}; "
                "reference forecasts must have the same shape as y_proba."
            )
        return {"reference": ref}

    def _chunk(self, p, w, inv, m, extra):
        # the kernel's hypotheses form, per label: the sums for every column
        ref = extra.get("reference")
        reduce = type(self)._reduce
        out = []
        for i in range(m):
            rows = inv == i
            out.append(
                reduce(
                    np,
                    None,
                    p[rows],
                    None if w is None else w[rows],
                    reference=None if ref is None else ref[rows],
                )
            )
        return out

    def _column(self, code: int) -> int:
        return code

    def sums(self) -> BrierSums:
        """The merged :class:`~skbrier._core.kernels.brier.BrierSums`, each
        label's with its column."""
        keys, codes, _ = self.resolve()
        total = None
        for key, c in zip(keys, codes):
            part = self._sums[key].given(self._column(int(c)))
            total = part if total is None else total + part
        assert total is not None  # resolve() raises when there are no rows
        return total


@with_pieces(STATE_PIECES)
class MulticlassBrierState(_KernelColumns, BrierSkill):
    r"""Mergeable state of the multiclass Brier score and skill score.

    For each label :math:`L` of ``y_true`` it keeps the sufficient
    statistics of the one Brier kernel
    (:func:`~skbrier._core.kernels.brier.brier_reduce` in its hypotheses
    form): :math:`W_L = \sum w`, and from the column sums
    :math:`A_{Lk} = \sum w p_k^2` and :math:`B_{Lk} = \sum w (1 - p_k)^2` over
    the rows of that label the loss of each possible column; with
    :math:`c(L)` the column of :math:`L` (known in :meth:`finalize`),

    .. math::

        \mathrm{BS} = \frac{1}{W} \sum_L \Big(B_{L c(L)}
            + \sum_{k \ne c(L)} A_{Lk}\Big),

    a sum of non-negative terms (no cancellation), on the [0, 2] scale, or
    halved as in memory (``scale_by_half``).

    Parameters
    ----------
    labels : array-like, default=None
        The classes of the columns (sorted); None: the distinct labels of
        all of ``y_true``, as in memory.
    {{with_reference}}

    {{brier_reference}}

    Examples
    --------
    >>> from skbrier.states import MulticlassBrierState
    >>> a = MulticlassBrierState().update(["a", "b"], [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1]])
    >>> b = MulticlassBrierState().update(["c"], [[0.2, 0.2, 0.6]])
    >>> round(a.merge(b).finalize(), 6)
    0.146667
    """

    _reduce = staticmethod(brier_reduce)

    def finalize(self, scale_by_half: Any = "auto") -> float:
        """The Brier score: halved for fewer than three columns with ``"auto"``."""
        return brier_finish(self.sums(), _check_scale_by_half(scale_by_half))

    def brier_index(self) -> float:
        """The Brier Index ``100 (1 - sqrt(BS / 2))``."""
        return brier_index_from_score(brier_finish(self.sums(), scale_by_half=True))

    def class_weights(self) -> np.ndarray:
        """The total weight of each class (column)."""
        cw = self.sums().class_weight
        assert cw is not None
        return cw[: self.n_columns or 2]

    def reference_score(self, reference: float | None = None) -> float:
        """The summed score of the reference: climatology (None), the constant
        binary forecast ``reference`` (two columns), or the ``reference``
        column given to :meth:`update`."""
        return reference_finish(self.sums(), self._constant(reference))


class ClasswiseBinnedState(_LabelColumns):
    r"""Mergeable per-bin sums of every column of a 2-D forecast, per label.

    For each label of ``y_true`` and each column :math:`k` it keeps the
    per-bin count and sums of :math:`w`, :math:`w p_k`, :math:`w p_k^2` and
    :math:`w^2`; in :meth:`statistics` column :math:`k` gets the outcome sums
    :math:`\sum w y = \sum w` and :math:`\sum w p y = \sum w p` of the label
    of column :math:`k` (one-vs-rest).  The bins are fixed (``edges``).

    .. math::

        \mathrm{BS}_k = \mathrm{REL}_k - \mathrm{RES}_k + \mathrm{UNC}_k
            + \mathrm{WBV}_k - \mathrm{WBC}_k

    Parameters
    ----------
    edges : ndarray of shape (n_bins + 1,)
        Bin edges, increasing, covering the forecasts.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin (True).
    labels : array-like, default=None
        The classes of the columns.

    References
    ----------
    .. [1] A. H. Murphy, "A new vector partition of the probability score",
       Journal of Applied Meteorology 12, 595-600, 1973.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.states import ClasswiseBinnedState
    >>> edges = np.linspace(0.0, 1.0, 3)
    >>> s = ClasswiseBinnedState(edges).update([0, 1], [[0.8, 0.2], [0.3, 0.7]])
    >>> s = s.merge(ClasswiseBinnedState(edges).update([1], [[0.4, 0.6]]))
    >>> stats, classes = s.statistics()
    >>> [float(v) for v in stats[1].sum_wy]
    [0.0, 2.0]
    """

    def __init__(self, edges: np.ndarray, *, right: bool = True, labels: Any = None):
        super().__init__(labels=labels)
        self.edges = check_edges(edges, "edges")
        self.right = check_bool(right, "right")

    def _chunk(self, p, w, inv, m, extra):
        nb = self.edges.shape[0] - 1
        k = p.shape[1]
        out = np.zeros((m, 5, k, nb))
        # the binned kernel's sums of the weights times a power of two (exact),
        # as BinnedState, so the squares of tiny or huge weights neither under-
        # nor overflow (weights of 1e300 leaked numpy's overflow warning)
        exponent = 0 if w is None else pow2_exponent(w)
        for j in range(k):
            pj = np.ascontiguousarray(p[:, j])
            e = edges_for(pj, w, nb, self.edges)  # raises if not covered
            key = inv * nb + assign_bins(pj, e, right=self.right)
            sums = binned_sums(key, m * nb, np.zeros_like(pj), pj, w, exponent=exponent)
            for i in range(m):
                rows = slice(i * nb, (i + 1) * nb)
                n_b, s_w, s_wp, s_wy, s_wpp, s_wpy, s_ww = (a[rows] for a in sums)
                st = BinStatistics(e, n_b, s_w, s_wp, s_wy, s_wpp, s_wpy, s_ww)
                st = st.scaled(-exponent)
                for f, v in enumerate(
                    (st.count, st.sum_w, st.sum_wp, st.sum_wpp, st.sum_ww)
                ):
                    out[i, f, j] = v
        return list(out)

    def statistics(self) -> tuple[list[BinStatistics], np.ndarray]:
        """``(per-column BinStatistics with one-vs-rest outcomes, classes)``."""
        keys, codes, classes = self.resolve()
        total = sum(self._sums[key] for key in keys)
        own = np.zeros_like(total[0])  # (k, nb): sum w of the column's own label
        own_p = np.zeros_like(own)
        for key, c in zip(keys, codes):
            own[c] += self._sums[key][1, c]
            own_p[c] += self._sums[key][2, c]
        stats = [
            BinStatistics(
                edges=self.edges,
                count=total[0, j].astype(np.int64),
                sum_w=total[1, j],
                sum_wp=total[2, j],
                sum_wy=own[j],
                sum_wpp=total[3, j],
                sum_wpy=own_p[j],
                sum_ww=total[4, j],
                right=self.right,
            )
            for j in range(total.shape[1])
        ]
        return stats, classes

    def finalize(self) -> tuple[list[BinStatistics], np.ndarray]:
        """Same as :meth:`statistics`."""
        return self.statistics()


def _no_rows(rows: Any) -> bool:
    """Whether ``rows`` (an array, a frame or a sequence of rows) has none."""
    try:
        return len(rows) == 0
    except TypeError:  # a scalar (refused by the checks that follow)
        return False


class MultipleChoiceState(MergeableState):
    r"""Mergeable state of the multiple-choice Brier score.

    Keeps the sufficient statistics of the one multiple-choice kernel
    (:class:`~skbrier._core.kernels.multiple_choice.ChoiceSums`:
    :math:`\sum_i w_i s_i` and :math:`\sum_i w_i d_i` with :math:`s_i` the
    per-example score and :math:`d_i` its denominator (1 for
    ``"per_example"``, the number of choices for ``"bigbench"``), the weights
    divided by the largest weight seen, rescaled on merge, so weights of any
    scale neither overflow nor underflow, as in memory):

    .. math::

        \mathrm{BS} = \frac{\sum_i w_i s_i}{\sum_i w_i d_i}.

    Each chunk is validated and scored by the in-memory functions of
    :func:`~skbrier.metrics.multiple_choice.multiple_choice_brier_score`
    (gold indices or per-choice targets, probabilities or log-probabilities,
    a 2-D array or ragged choice sets).

    Parameters
    ----------
    convention : {"per_example", "bigbench"}, default="per_example"
    from_logprobs : bool, default=False

    References
    ----------
    .. [1] A. Srivastava et al., "Beyond the imitation game: quantifying and
       extrapolating the capabilities of language models", TMLR, 2023.

    Examples
    --------
    >>> from skbrier.states import MultipleChoiceState
    >>> s = MultipleChoiceState().update([0], [[0.7, 0.2, 0.1]])
    >>> s = s.merge(MultipleChoiceState().update([1], [[0.5, 0.4, 0.1]]))
    >>> round(s.finalize(), 6)
    0.38
    """

    def __init__(self, convention: str = "per_example", from_logprobs: bool = False):
        # the options of multiple_choice_brier_score, checked as it checks them
        self.convention = check_option(convention, "convention", mc.CONVENTIONS)
        self.from_logprobs = check_bool(from_logprobs, "from_logprobs")
        self.n_samples = 0
        self.rows_sum_to_one = True
        self.one_hot = True  # every score 0 or 1 (probabilities given directly)
        self.max_choices = 0
        self.sums = mc.ChoiceSums(0.0, 0.0)  # the kernel's sufficient statistics

    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None):
        """Add a chunk of examples (validated as in memory); returns ``self``."""
        if _no_rows(y_score):
            return self
        # read as multiple_choice_brier_score reads them (ragged choice sets too)
        values, lengths = flatten_ragged(y_score, "y_score")
        n = lengths.shape[0]
        starts = mc.segment_starts(lengths)
        if not self.from_logprobs and not _rows_sum_to_one(
            mc.segment_sum(values, starts), score_dtype(y_score)
        ):
            self.rows_sum_to_one = False
            with warnings.catch_warnings():  # warned once, in finalize
                warnings.simplefilter("ignore", UserWarning)
                proba = check_scores(values, starts, lengths, False)
        else:
            proba = check_scores(
                values, starts, lengths, self.from_logprobs, score_dtype(y_score)
            )
        if not self.from_logprobs:  # warned once, in finalize (warn_one_hot)
            self.one_hot = self.one_hot and one_hot_scores(np, values)
            self.max_choices = max(self.max_choices, int(lengths.max()))
        targets = check_targets(y_true, starts, lengths)
        w = _chunk_weights(sample_weight, n)
        part = mc.choice_reduce(
            np, proba, targets, w, convention=self.convention, lengths=lengths
        )
        self.n_samples += n
        self.sums = self.sums + part
        return self

    def _merge(self, other: MultipleChoiceState) -> None:
        self.n_samples += other.n_samples
        self.rows_sum_to_one = self.rows_sum_to_one and other.rows_sum_to_one
        self.one_hot = self.one_hot and other.one_hot
        self.max_choices = max(self.max_choices, other.max_choices)
        self.sums = self.sums + other.sums

    def finalize(self) -> float:
        """The multiple-choice Brier score."""
        if self.n_samples == 0:
            raise ValueError("y_score is empty.")
        if self.sums.scale is not None and not self.sums.den > 0:
            raise ValueError("sample_weight sums to zero: at least one weight must be > 0.")
        if not self.rows_sum_to_one:
            warn_rows_do_not_sum_to_one(stacklevel=5)
        warn_one_hot(self.one_hot, self.max_choices)
        return mc.choice_finish(self.sums)
