"""Accuracy and Brier score from LLM-judge labels corrected by a human-labelled subset.

Prediction-powered inference (PPI, and PPI++ with its power tuning): the
judge's verdict on every item is an unbiased-after-correction proxy for the
human verdict, the bias is measured on the items a human labelled, and the
interval is valid however biased the judge is.
"""

from __future__ import annotations

import dataclasses
import numbers
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._core.arrays import as_array
from .._core.diagnose import is_missing
from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.kernels.ppi import ppi_mean
from .._core.params import check_confidence_level
from .._core.validation import check_probabilities, check_sample_weight
from ._validation_measures import Transform, _ScaledInterval

__all__ = [
    "PredictionPoweredResult",
    "prediction_powered_accuracy",
    "prediction_powered_brier_score",
]


@dataclasses.dataclass(frozen=True, repr=False)
class PredictionPoweredResult(_ScaledInterval):
    """A prediction-powered estimate (PPI++) of a mean over judge-labelled items.

    Attributes
    ----------
    metric : {"accuracy", "brier_score"}
        What is estimated.
    estimate : float
        The prediction-powered estimate.
    standard_error : float
        Its standard error.
    lam : float
        The power-tuning parameter used (1: plain PPI; 0: the human labels only).
    n_labeled, n_unlabeled : float
        Items (total frequency weight) with and without a human label.
    classical_estimate, classical_standard_error : float
        The estimate from the human-labelled items alone, and its standard error.
    judge_only : float
        The estimate that trusts the judge on every item (biased in general).
    confidence_level : float
        The level of the interval given by :meth:`confidence_interval` by default.

    Examples
    --------
    >>> from skbrier.stats import prediction_powered_accuracy
    >>> res = prediction_powered_accuracy(
    ...     [1, 0, 1, None, None, None], [1, 1, 1, 1, 0, 1], lam=1.0)
    >>> round(res.estimate, 4)
    0.3333
    """

    metric: str
    estimate: float
    standard_error: float
    lam: float
    n_labeled: float
    n_unlabeled: float
    classical_estimate: float
    classical_standard_error: float
    judge_only: float
    confidence_level: float = 0.95

    _interval_metrics: ClassVar[tuple[str, ...]] = ("accuracy", "brier_score")

    def _default_metric(self) -> str:
        return self.metric

    def _interval_parts(self, level: float) -> tuple[float, float, Transform]:
        half = float(stats.norm.ppf(0.5 + level / 2.0)) * self.standard_error
        return self.estimate, half, "identity"


def _check_lam(lam: Any) -> float | None:
    if isinstance(lam, str) and lam == "auto":
        return None
    if isinstance(lam, (bool, np.bool_)) or not isinstance(lam, numbers.Real):
        raise TypeError(f"lam must be 'auto' or a number in [0, 1], got {lam!r}.")
    if not 0.0 <= float(lam) <= 1.0:
        raise ValueError(
            f"lam must be 'auto' or in [0, 1] (1: plain PPI, 0: human labels only), got {lam!r}."
        )
    return float(lam)


def _human_labels(human_correct: Any) -> tuple[np.ndarray, np.ndarray]:
    """The human verdicts (0/1) and the mask of the items that have one (NaN/None: none)."""
    arr = as_array(human_correct, "human_correct")
    if arr.dtype.kind == "O":
        if arr.ndim != 1:
            raise ValueError(f"human_correct must be 1-D, got shape {arr.shape}.")
        arr = np.array([np.nan if is_missing(v) else v for v in arr], dtype=object)
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                "human_correct must hold 0/1 (or True/False) verdicts, with NaN or None "
                "where no human labelled the item."
            ) from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(
            "human_correct must hold 0/1 verdicts (NaN or None where unlabelled)."
        )
    if arr.ndim != 1:
        raise ValueError(f"human_correct must be 1-D, got shape {arr.shape}.")
    arr = arr.astype(np.float64)
    labeled = ~np.isnan(arr)
    values = arr[labeled]
    if values.size and not np.all((values == 0.0) | (values == 1.0)):
        bad = values[(values != 0.0) & (values != 1.0)][0]
        raise ValueError(
            f"human_correct must hold 0 or 1 where a human labelled the item, got {bad:.4g}."
        )
    return arr, labeled


def _estimate(
    metric: str,
    y_human: np.ndarray,
    labeled: np.ndarray,
    yhat: np.ndarray,
    sample_weight: Any,
    lam: Any,
    confidence_level: Any,
) -> PredictionPoweredResult:
    lam_value = _check_lam(lam)
    level = check_confidence_level(confidence_level)
    n_items = y_human.shape[0]
    w = check_sample_weight(sample_weight, n_items, ref_name="human_correct")
    w = np.ones(n_items) if w is None else w
    lab = labeled & (w > 0)
    unl = ~labeled & (w > 0)
    # frequency weights: an item of weight k counts as k items (integer
    # weights are refused exactly where their repeated rows are, and weights
    # summing below 2 -- fewer than two observations -- are refused, not
    # given a standard error of 1e99)
    n_lab = float(w[lab].sum())
    n_unl = float(w[unl].sum())
    if n_lab < 2 or n_unl < 2:
        raise ValueError(
            "prediction-powered inference needs at least 2 items with a human label "
            f"and 2 without (got {n_lab:.4g} and {n_unl:.4g}, counting an item of "
            "sample_weight k as k items); mark the items no human labelled with NaN "
            "or None in human_correct."
        )
    res = ppi_mean(y_human[lab], yhat[lab], yhat[unl], w[lab], w[unl], lam_value)
    return PredictionPoweredResult(
        metric=metric,
        estimate=res.estimate,
        standard_error=res.standard_error,
        lam=res.lam,
        n_labeled=float(w[lab].sum()),
        n_unlabeled=float(w[unl].sum()),
        classical_estimate=res.classical,
        classical_standard_error=res.classical_standard_error,
        judge_only=float(np.dot(w, yhat) / w.sum()),
        confidence_level=level,
    )


def _judge(judge_correct: Any, n: int) -> np.ndarray:
    judge = check_probabilities(
        judge_correct, name="judge_correct", allow_2d=False, warn_hard=False
    )
    if judge.shape[0] != n:
        raise ValueError(
            f"judge_correct has {judge.shape[0]} items but human_correct has {n}: give one "
            "judge verdict per item and NaN in human_correct where no human labelled it."
        )
    return judge


#: the refusal of Dask input, shared by both estimators
_PPI_IN_MEMORY = Refused(
    "the labelled and unlabelled items are told apart and the power-tuning "
    "parameter estimated with all items in memory; compute it on the collected "
    "items (e.g. ddf.compute())"
)


@backends(
    arrays=("human_correct", "judge_correct", "sample_weight"),
    namespace_of="judge_correct",
    dask=_PPI_IN_MEMORY,
    array_api=HOST,
)
@shared_doc
def prediction_powered_accuracy(
    human_correct: ArrayLike,
    judge_correct: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    lam: float | Literal["auto"] = "auto",
    confidence_level: float = 0.95,
) -> PredictionPoweredResult:
    r"""Accuracy from an LLM judge's verdicts, corrected by human labels (PPI++).

    With :math:`\hat y_i` the judge's verdict on every item and :math:`y_i`
    the human verdict on a labelled subset :math:`L` (:math:`n` items; the
    other :math:`N` items form :math:`U`),

    .. math::

        \hat\theta = \lambda \, \overline{\hat y}_U
                     + \overline{(y - \lambda \hat y)}_L, \qquad
        \widehat{\mathrm{se}}^2 = \lambda^2 \frac{s^2_U(\hat y)}{N}
                     + \frac{s^2_L(y - \lambda \hat y)}{n},

    with the variances :math:`s^2` taken with divisor :math:`n` (or
    :math:`N`).  ``lam="auto"`` chooses :math:`\lambda` to minimise the
    variance (PPI++), ``lam=1`` is plain PPI and ``lam=0`` the human labels
    alone.

    Parameters
    ----------
    human_correct : array-like of shape (n_items,)
        The human verdict (1 correct, 0 wrong) where a human labelled the
        item, NaN, None or ``pandas.NA`` elsewhere.
    judge_correct : array-like of shape (n_items,)
        The judge's verdict on every item: 0/1, or its probability that the
        answer is correct.
    {{sample_weight}}
    lam : float in [0, 1] or "auto", default="auto"
        The power-tuning parameter.
    {{confidence_level}}

    Returns
    -------
    PredictionPoweredResult
        The estimate, its standard error and interval, :math:`\lambda`, and
        the human-only and judge-only estimates beside it.

    Raises
    ------
    ValueError
        Fewer than 2 items with or without a human label, verdicts other
        than 0/1, or arrays of different lengths.

    See Also
    --------
    prediction_powered_brier_score : the Brier score of the model's confidences.

    Notes
    -----
    Equal to ``ppi_py.ppi_mean_pointestimate`` and ``ppi_py.ppi_mean_ci``
    (``lam=None`` there for ``"auto"``) on unweighted data.  Weights here are
    frequency weights (a weight of 2 counts an item twice), not the
    importance weights of ``ppi_py``'s ``w``.  The labelled subset must be
    a random sample of the items.

    References
    ----------
    .. [1] A. N. Angelopoulos, S. Bates, C. Fannjiang, M. I. Jordan and
       T. Zrnic, "Prediction-powered inference", Science 382, 669-674, 2023.
    .. [2] A. N. Angelopoulos, J. C. Duchi and T. Zrnic, "PPI++: Efficient
       prediction-powered inference", arXiv:2311.01453, 2023.

    Examples
    --------
    >>> from skbrier.stats import prediction_powered_accuracy
    >>> human = [1, 0, 1, 1, None, None, None, None]
    >>> judge = [1, 1, 1, 1, 1, 0, 1, 1]
    >>> res = prediction_powered_accuracy(human, judge, lam=1.0)
    >>> round(res.estimate, 4), res.judge_only
    (0.5, 0.875)
    """
    y_human, labeled = _human_labels(human_correct)
    judge = _judge(judge_correct, y_human.shape[0])
    return _estimate(
        "accuracy", y_human, labeled, judge, sample_weight, lam, confidence_level
    )


@backends(
    arrays=("human_correct", "confidence", "judge_correct", "sample_weight"),
    namespace_of="confidence",
    dask=_PPI_IN_MEMORY,
    array_api=HOST,
)
@shared_doc
def prediction_powered_brier_score(
    human_correct: ArrayLike,
    confidence: ArrayLike,
    *,
    judge_correct: ArrayLike,
    sample_weight: ArrayLike | None = None,
    lam: float | Literal["auto"] = "auto",
    confidence_level: float = 0.95,
) -> PredictionPoweredResult:
    r"""Brier score of a model's confidences against judge verdicts corrected by humans.

    The model states a confidence :math:`c_i` that its answer is right; the
    Brier score is the mean of :math:`(c_i - y_i)^2` over the items, with
    :math:`y_i` the human verdict.  The judge's verdict :math:`j_i` (0/1 or a
    probability) predicts that loss as
    :math:`\hat\ell_i = j_i (1 - c_i)^2 + (1 - j_i) c_i^2`, and PPI++
    corrects the prediction with the human-labelled items exactly as in
    :func:`prediction_powered_accuracy`.

    Parameters
    ----------
    human_correct : array-like of shape (n_items,)
        The human verdict (1 correct, 0 wrong), NaN or None where no human
        labelled the item.
    confidence : array-like of shape (n_items,)
        The model's probability that its answer is correct.
    judge_correct : array-like of shape (n_items,)
        The judge's verdict on every item: 0/1 or a probability.
    {{sample_weight}}
    lam : float in [0, 1] or "auto", default="auto"
        The power-tuning parameter (1: plain PPI; 0: the human labels only).
    {{confidence_level}}

    Returns
    -------
    PredictionPoweredResult
        ``metric="brier_score"``.

    See Also
    --------
    prediction_powered_accuracy

    Notes
    -----
    Equal to ``ppi_py.ppi_mean_ci`` with ``Y`` the human losses and ``Yhat``
    the judge-predicted losses.

    References
    ----------
    .. [1] A. N. Angelopoulos, J. C. Duchi and T. Zrnic, "PPI++: Efficient
       prediction-powered inference", arXiv:2311.01453, 2023.

    Examples
    --------
    >>> from skbrier.stats import prediction_powered_brier_score
    >>> res = prediction_powered_brier_score(
    ...     [1, 0, 1, None, None], [0.9, 0.8, 0.7, 0.6, 0.9],
    ...     judge_correct=[1, 1, 1, 0, 1], lam=1.0)
    >>> round(res.estimate, 4)
    0.385
    """
    y_human, labeled = _human_labels(human_correct)
    c = check_probabilities(confidence, name="confidence", allow_2d=False, warn_hard=False)
    if c.shape[0] != y_human.shape[0]:
        raise ValueError(
            f"confidence has {c.shape[0]} items but human_correct has {y_human.shape[0]}."
        )
    judge = _judge(judge_correct, c.shape[0])
    loss_hat = judge * (1.0 - c) ** 2 + (1.0 - judge) * c**2
    loss = np.where(labeled, (c - np.nan_to_num(y_human)) ** 2, np.nan)
    return _estimate(
        "brier_score", loss, labeled, loss_hat, sample_weight, lam, confidence_level
    )
