"""Brier score, Brier Index and Brier skill score."""

from __future__ import annotations

import warnings
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.diagnose import one_warning_per_call
from .._core.dispatch import BODY, backends
from .._core.docstrings import with_pieces
from .._core.hard import warn_if_hard
from .._core.kernels.brier import (
    binary_brier_guarded,
    brier_finish,
    brier_index_from_score,
    forecast_brier,
    skill_reduce,
    warn_undefined_skill,
)
from .._core.multilabel import check_multilabel, is_multilabel
from .._core.validation import (
    Forecast,
    _is_one,
    check_forecast,
    check_reference,
)

__all__ = ["brier_index", "brier_score", "brier_skill_score"]


def _check_scale_by_half(scale_by_half: Any) -> Any:
    if isinstance(scale_by_half, str):
        if scale_by_half != "auto":
            raise ValueError(
                f"scale_by_half must be True, False or 'auto', got {scale_by_half!r}."
            )
        return scale_by_half
    if isinstance(scale_by_half, (bool, np.bool_)):
        return bool(scale_by_half)
    raise TypeError(
        f"scale_by_half must be True, False or 'auto', got {type(scale_by_half).__name__}."
    )


def _one_pass_binary_brier(y_true, y_proba, sample_weight, labels, pos_label):
    """Unweighted binary Brier score (on [0, 1]) in one pass over memory, or None.

    The fast path for the commonest call -- numpy arrays of 0/1 labels and
    float64 or float32 probabilities, class 1 positive.  The inputs are checked leaf by
    leaf inside the kernel while they are in cache (see
    :func:`~skbrier._core.kernels.brier.binary_brier_guarded`); None sends
    everything else, valid or not, through the full validation.
    """
    if sample_weight is not None or labels is not None:
        return None
    if not (pos_label is None or _is_one(pos_label)):
        return None
    if type(y_true) is not np.ndarray or type(y_proba) is not np.ndarray:
        return None
    if y_proba.ndim != 1 or y_true.ndim != 1:
        return None
    if y_proba.dtype != np.float64 and y_proba.dtype != np.float32:
        return None
    n = y_proba.shape[0]
    if n == 0 or y_true.shape[0] != n:
        return None
    if y_true.dtype.kind not in "biuf" or not y_true.dtype.isnative:
        return None
    sums = binary_brier_guarded(y_true, y_proba)
    if sums is None:
        return None
    warn_if_hard(y_proba, "y_proba")  # the check the full validation makes
    return brier_finish(sums)


def _forecast(
    y_true: Any,
    y_proba: Any,
    sample_weight: Any,
    labels: Any,
    pos_label: Any,
    float_target: bool,
) -> Forecast:
    """The validated forecast: a multilabel indicator ``y_true`` (2-D, one
    0/1 column per label) or labels (:func:`check_forecast`), its weights
    :meth:`~skbrier._core.validation.Forecast.scale_free` (the scores are
    ratios of weighted sums)."""
    if is_multilabel(y_true):
        return check_multilabel(
            y_true, y_proba, sample_weight=sample_weight, labels=labels
        ).scale_free()
    return check_forecast(
        y_true,
        y_proba,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        float_target=float_target,
    ).scale_free()


#: the parameters that brier_index and brier_skill_score describe alike
_doc = with_pieces(
    {
        "scored_inputs": """\
y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
    True labels, or a multilabel indicator matrix.
y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
    Predicted probabilities, as for :func:`brier_score`.""",
        "columns": """\
labels : array-like of shape (n_classes,), default=None
    Classes of the columns of 2-D ``y_proba``.
pos_label : int, float, bool or str, default=None
    Class whose probability a 1-D ``y_proba`` holds.""",
    }
)


@backends(
    dask="skbrier._backends._dask._adapters:brier_score",
    array_api="skbrier._backends._array_api:brier_score",
)
def brier_score(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
    scale_by_half: bool | Literal["auto"] = "auto",
) -> float:
    r"""Brier score of probability forecasts (lower is better).

    For :math:`n` samples with weights :math:`w_i` and :math:`K` classes,

    .. math::

        \mathrm{BS} = \frac{\sum_i w_i \sum_{k=1}^{K} (p_{ik} - y_{ik})^2}{\sum_i w_i},

    where :math:`y_{ik} = 1` if sample :math:`i` belongs to class :math:`k`.
    For binary problems the score is halved (``scale_by_half="auto"``) so that
    it equals :math:`\sum_i w_i (p_i - y_i)^2 / \sum_i w_i` and lies in
    [0, 1]; with three or more classes it lies in [0, 2].  This is exactly
    the convention of :func:`sklearn.metrics.brier_score_loss`, which this
    function reproduces on every input scikit-learn accepts, with O(n)
    validation instead of sorting the labels.

    A multilabel indicator ``y_true`` (2-D, one 0/1 column per label) is
    scored as scikit-learn scores it: with ``y_proba`` the probability of
    each label, :math:`\sum_i w_i \sum_l (p_{il} - y_{il})^2 / \sum_i w_i`,
    the sum of the per-label binary Brier scores (range [0, L]), halved by
    ``"auto"`` only for fewer than three labels (scikit-learn's rule; it also
    warns that the rows do not sum to one, which skbrier does not: a
    multilabel row need not).  A one-hot encoding of classes is read so too,
    and scores the same as its class labels (the two readings agree here;
    they differ in :func:`brier_index`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels (numbers, booleans or strings), or a multilabel indicator
        matrix.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities.  1-D input is the probability of
        ``pos_label``.  2-D input has one column per class in sorted label
        order, as ``predict_proba`` returns them; a one-hot encoding of
        ``y_true`` is built internally.  Multilabel: the probability of each
        label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    labels : array-like of shape (n_classes,), default=None
        The classes of the columns of 2-D ``y_proba`` (sorted); may include
        classes absent from ``y_true``.  Inferred from ``y_true`` if None.
    pos_label : int, float, bool or str, default=None
        The class whose probability a 1-D ``y_proba`` holds.  If None: 1 when
        the labels are in {0, 1} or {-1, 1}, otherwise the largest label;
        string labels require it.
    scale_by_half : bool or "auto", default="auto"
        Halve the summed score so that it lies in [0, 1].  ``"auto"`` halves
        only when there are fewer than three classes.

    Returns
    -------
    float
        The Brier score.

    Raises
    ------
    ValueError
        For NaN or infinite values, probabilities outside [0, 1], empty or
        mismatched inputs, more than two classes with 1-D ``y_proba``, a
        number of columns different from the number of classes, labels of
        ``y_true`` missing from ``labels``, or invalid ``sample_weight``.
    TypeError
        For non-numeric probabilities or weights.

    See Also
    --------
    brier_index : the Brier score on an interpretable 0--100 scale.
    brier_skill_score : improvement over a reference forecast.

    Notes
    -----
    Rows of a 2-D ``y_proba`` that do not sum to one raise a ``UserWarning``
    and are not renormalised (as in scikit-learn).

    References
    ----------
    .. [1] G. W. Brier, "Verification of forecasts expressed in terms of
       probability", Monthly Weather Review 78(1), 1-3, 1950.
    .. [2] scikit-learn, ``sklearn.metrics.brier_score_loss``.

    Examples
    --------
    >>> from skbrier import brier_score
    >>> brier_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3])
    0.0375
    >>> brier_score(["spam", "ham", "ham", "spam"], [0.1, 0.9, 0.8, 0.3], pos_label="ham")
    0.0375
    >>> brier_score(["eggs", "ham", "spam"],
    ...             [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.2, 0.2, 0.6]])
    0.14666...
    >>> brier_score([[1, 0, 1], [0, 1, 1]], [[0.9, 0.2, 0.7], [0.1, 0.6, 0.8]])
    0.175
    """
    scale_by_half = _check_scale_by_half(scale_by_half)
    bs = _one_pass_binary_brier(y_true, y_proba, sample_weight, labels, pos_label)
    if bs is not None:
        # 1-D binary input is on the [0, 1] scale unless scale_by_half=False
        return bs if (scale_by_half == "auto" or scale_by_half) else 2.0 * bs
    fc = _forecast(y_true, y_proba, sample_weight, labels, pos_label, False)
    return forecast_brier(fc, scale_by_half=scale_by_half)


@backends(dask=BODY, array_api=BODY)
@_doc
def brier_index(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
) -> float:
    r"""Brier Index: the Brier score on a 0--100 scale where higher is better.

    .. math::

        \mathrm{BI} = 100 \, (1 - \sqrt{\mathrm{BS}_{[0,1]}}),

    where :math:`\mathrm{BS}_{[0,1]}` is the Brier score on the [0, 1] scale:
    the binary score, or for :math:`K \ge 3` classes the summed multiclass
    score divided by two.  A perfect forecaster scores 100, one that always
    says 50 % on a binary question scores 50, and one that is always
    certain and always wrong scores 0.  A Brier Index of 70.6 is the score of
    a forecaster who says 70.6 % for every event that happens and 29.4 % for
    every event that does not.

    The index is a monotone transform of the *aggregate* Brier score, so it
    ranks forecasters exactly as the Brier score does and expected-score
    maximisation still rewards honest forecasts.  A per-sample index (or a
    mean of per-fold indices) is not a proper score: average Brier scores
    first, then transform.

    Parameters
    ----------
    {{scored_inputs}}
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    {{columns}}

    Returns
    -------
    float
        The Brier Index in [0, 100].

    See Also
    --------
    brier_score

    Notes
    -----
    The Index has no ``scale_by_half`` option: its anchors (50 for the
    always-50 % forecaster, 0 for the worst) are defined on the [0, 1] scale.
    A multilabel indicator ``y_true`` gives the Index of the mean of the
    per-label binary Brier scores (the [0, 1] scale).  A 2-D ``y_true`` is
    always read so, even a one-hot encoding of classes: with three or more
    columns its Index (the summed score divided by the number of columns)
    differs from that of the class labels (the summed score divided by two),
    and a one-hot ``y_true`` beside forecasts whose rows sum to one is
    warned about.  For the multiclass Index pass the class labels
    (``y_true.argmax(axis=1)``).  (:func:`brier_score` gives the same number
    for both readings, as :func:`sklearn.metrics.brier_score_loss` does: it
    reads a 2-D ``y_true`` as its indicator columns.)

    References
    ----------
    {{brier_index_reference}}

    Examples
    --------
    >>> from skbrier import brier_index
    >>> brier_index([0, 1, 1, 0], [0.5, 0.5, 0.5, 0.5])
    50.0
    >>> round(brier_index([1, 0], [0.706, 0.294]), 6)
    70.6
    """
    if is_multilabel(y_true):  # the mean of the per-label binary scores
        bs = brier_score(y_true, y_proba, sample_weight=sample_weight, scale_by_half=False)
        _warn_if_one_hot(y_true, y_proba)
        return brier_index_from_score(bs / np.shape(y_true)[1])
    # the [0, 1] scale: halved for any number of classes
    bs = brier_score(
        y_true,
        y_proba,
        sample_weight=sample_weight,
        labels=labels,
        pos_label=pos_label,
        scale_by_half=True,
    )
    return brier_index_from_score(bs)


def _warn_if_one_hot(y_true: Any, y_proba: Any) -> None:
    """Warn that a one-hot ``y_true`` (each row a single 1) beside forecasts
    whose rows sum to one, K >= 3 columns, is read as K labels: its Index
    is that of the mean per-label score (divided by K), not the multiclass
    one (divided by 2).  In-memory inputs only (a lazy array is not read)."""
    if hasattr(y_true, "__dask_graph__") or hasattr(y_proba, "__dask_graph__"):
        return
    try:
        y = np.asarray(y_true, dtype=np.float64)
        p = np.asarray(y_proba, dtype=np.float64)
    except Exception:  # e.g. a device array with host exports disabled: no warning
        return
    if y.ndim != 2 or y.shape[1] < 3 or p.shape != y.shape or y.shape[0] == 0:
        return
    if not (np.all((y == 0.0) | (y == 1.0)) and np.all(y.sum(axis=1) == 1.0)):
        return
    if not np.allclose(p.sum(axis=1), 1.0, rtol=0.0, atol=np.sqrt(np.finfo(float).eps)):
        return
    warnings.warn(
        f"y_true is a one-hot matrix of {y.shape[1]} columns beside forecasts whose "
        "rows sum to one: it is read as a multilabel indicator (the Index of the "
        f"mean of the {y.shape[1]} per-label binary Brier scores), not as "
        f"{y.shape[1]} classes (the multiclass score halved), which gives another "
        "number. For the multiclass Brier Index pass the class labels "
        "(y_true.argmax(axis=1)) as y_true.",
        UserWarning,
        stacklevel=4,
    )


@one_warning_per_call
@backends(
    arrays=("y_true", "y_proba", "sample_weight", "reference"),
    dask="skbrier._backends._dask._adapters:brier_skill_score",
    array_api="skbrier._backends._array_api:brier_skill_score",
)
@_doc
def brier_skill_score(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    reference: float | ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    pos_label: Any = None,
) -> float:
    r"""Brier skill score: the fraction of a reference forecast's Brier score removed.

    .. math::

        \mathrm{BSS} = 1 - \frac{\mathrm{BS}}{\mathrm{BS}_\mathrm{ref}}.

    1 is perfect, 0 is no better than the reference, negative is worse.  The
    reference is

    * ``None`` (default): climatology, the constant forecast equal to the
      (weighted) class frequencies of ``y_true``; then
      :math:`\mathrm{BS}_\mathrm{ref} = \bar o (1 - \bar o)` for binary
      problems and :math:`\sum_k \bar o_k (1 - \bar o_k)` for multiclass
      ones (and for a multilabel indicator, with :math:`\bar o_l` the
      frequency of each label), and the score equals
      :func:`sklearn.metrics.d2_brier_score`;
    * a float ``r``: the constant binary forecast ``r`` (a fixed base rate);
    * an array of the same shape as ``y_proba``: reference forecasts, for
      example an existing model or a published forecast.

    Parameters
    ----------
    {{scored_inputs}}
    reference : None, float or array-like, default=None
        The reference forecast (see above).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights, used for both scores (and the base rate).
    {{columns}}

    Returns
    -------
    float
        The skill score in (-inf, 1].  ``nan`` (with an
        :class:`~sklearn.exceptions.UndefinedMetricWarning`) when the
        reference scores exactly 0, for example climatology when only one
        class of ``y_true`` has positive weight: no forecast can improve on a
        perfect one.  (:func:`sklearn.metrics.d2_brier_score` returns
        ``-inf`` there when the forecast is imperfect, and ``nan`` when it is
        perfect; see Notes.)

    See Also
    --------
    brier_score
    sklearn.metrics.d2_brier_score

    Notes
    -----
    Whether a single class is present is decided from the weights exactly:
    each class's total weight is summed on its own, so a class whose rows all
    have zero weight contributes exactly 0 and climatology scores exactly 0
    (never a rounding residue that would give a skill of the order of
    :math:`\pm 10^{13}`).  Labels are converted to exact 0/1 float64 first,
    so the score does not depend on their dtype.

    Where :func:`sklearn.metrics.d2_brier_score` returns ``-inf`` (a single
    class and an imperfect forecast: ``1 - BS / 0``), this function returns
    ``nan`` with an :class:`~sklearn.exceptions.UndefinedMetricWarning`: a
    skill relative to a perfect reference is undefined, not infinitely bad.

    The skill score is always computed in float64.  For float32 or float16
    probabilities :func:`sklearn.metrics.d2_brier_score` computes in that
    precision, so the two agree to that precision only (about 1e-7 for
    float32), while :func:`brier_score` reproduces scikit-learn's float32
    and float16 Brier scores exactly.

    References
    ----------
    .. [1] D. S. Wilks, *Statistical Methods in the Atmospheric Sciences*,
       3rd ed., Academic Press, 2011, section 8.4.2.

    Examples
    --------
    >>> from skbrier import brier_skill_score
    >>> y = [0, 0, 1, 1]
    >>> brier_skill_score(y, [0.1, 0.2, 0.7, 0.9])
    0.85
    >>> brier_skill_score(y, [0.1, 0.2, 0.7, 0.9], reference=0.3)
    0.8706...
    """
    # float_target: labels become exact 0/1 float64 before any arithmetic, so
    # the score does not depend on their dtype (float16, big-endian, bool...)
    fc = _forecast(y_true, y_proba, sample_weight, labels, pos_label, True)
    if fc.y.ndim == 2 and reference is not None and np.ndim(reference) == 0:
        raise ValueError(
            "reference must be None or an array of reference forecasts for a "
            "multilabel y_true; a single float is a binary base rate."
        )
    ref = check_reference(reference, fc)
    score, bs_ref = skill_reduce(np, fc.y, fc.proba, fc.sample_weight, ref)
    if bs_ref == 0.0:
        warn_undefined_skill()
    return score
