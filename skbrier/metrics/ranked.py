r"""The ranked probability score of ordinal outcomes, its skill score and its
decomposition.

Ordinal outcomes (disease grades, Likert answers, ranked categories) have
ordered categories :math:`1, \dots, K`; the Brier score ignores the order
(a forecast one grade off costs as much as one four grades off), the ranked
probability score does not.  The formulas are the kernel's,
:mod:`skbrier._core.kernels.ranked`.

Normalisation of the peers (``normalize=``)
-------------------------------------------
``normalize=False`` (default)
    :math:`\sum_{k=1}^{K} (F_k - O_k)^2`, averaged over the rows: Python
    ``scoringrules.rps_score`` and R ``scoringRules::rps_probs`` (per row;
    their mean), Epstein (1969) and Wilks.
``normalize=True``
    The same divided by :math:`K - 1` (the range [0, 1]): R
    ``verification::rps`` (``$rps``) and tidymodels ``yardstick``
    ``ranked_prob_score``.  yardstick's ``case_weights`` are not frequency
    weights (it applies a softmax to them: weights 0 and 1 count as
    :math:`e^{-1}` and 1); unweighted it equals ``normalize=True``.

The skill score does not depend on the normalisation: it equals
verification's ``$rpss`` (climatology of the sample, or ``baseline``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.arrays import as_array
from .._core.diagnose import column_names, one_warning_per_call, warn_once
from .._core.dispatch import BODY, HOST, Refused, backends
from .._core.format import format_number
from .._core.kernels.brier import warn_undefined_skill
from .._core.kernels.ranked import (
    ranked_finish,
    ranked_reduce,
    ranked_skill_finish,
)
from .._core.labels import _target_array
from .._core.optional import import_optional
from .._core.params import (
    check_bool,
    check_n_bins,
    check_option,
    validate_random_state,
)
from .._core.results import Result
from .._core.validation import (
    check_column_order,
    check_forecast,
    check_probabilities,
    scale_free_weights,
    warn_if_rows_do_not_sum_to_one,
)
from ._decomposition_core import (
    bootstrap_options,
    class_generators,
    corp_binary,
    murphy_binary,
)
from .decomposition import murphy_options

__all__ = [
    "RankedDecomposition",
    "ranked_order",
    "ranked_probability_decomposition",
    "ranked_probability_score",
    "ranked_probability_skill_score",
]


# --------------------------------------------------------------------------- checks
@backends(
    arrays=("y_true",),
    namespace_of="y_true",
    dask=Refused(
        "an ordered categorical's rows are converted in memory to read the order "
        "of its categories; compute it on the collected rows (e.g. ddf.compute())"
    ),
    # the rows pass through as they are (the Array API adapters read the order
    # of device outcomes with it)
    array_api=BODY,
)
def ranked_order(y_true: Any, labels: Any) -> tuple[Any, Any, np.ndarray | None]:
    """``(y_true, labels, perm)``: the order of the categories.

    ``labels`` given: the categories in their order (the columns of
    ``y_proba`` follow it).  None: an ordered pandas categorical ``y_true``
    gives its categories' order, anything else the sorted labels.  ``perm``
    maps the code of a category among the *sorted* categories (what the
    validation gives) to its position in the order (None: the sorted order
    itself); a label given twice raises ValueError.
    """
    dtype: Any = getattr(y_true, "dtype", None)
    # the categories of an ordered categorical: pandas' ordered Categorical,
    # polars' Enum (ordered by definition)
    ordered = getattr(dtype, "ordered", False) or type(dtype).__name__ == "Enum"
    if labels is None and ordered and hasattr(dtype, "categories"):
        labels = np.asarray(dtype.categories)
        y_true = np.asarray(y_true)
    if labels is None:
        _warn_unordered_categories(dtype)
        _warn_text_order(y_true, dtype)
        return y_true, None, None
    order = _target_array(labels, "labels")
    uniq, counts = np.unique(order, return_counts=True)
    if uniq.shape[0] != order.shape[0]:
        twice = uniq[counts > 1][:5].tolist()
        raise ValueError(
            f"labels names {twice} more than once; give each category once, in "
            "their order (lowest first)."
        )
    perm = np.argsort(order, kind="stable")
    if np.array_equal(perm, np.arange(perm.shape[0])):
        return y_true, order, None
    return y_true, order, perm.astype(np.intp)


def _warn_text_order(y_true: Any, dtype: Any) -> None:
    """Warn when text categories (not a categorical) are read in their sorted,
    alphabetical order: the score depends on the order, and names such as
    ``"low" < "medium" < "high"`` do not sort in it (``"high"`` comes first)."""
    if y_true is None or hasattr(dtype, "categories"):
        return  # states (no rows) and categoricals (their own rule)
    if isinstance(y_true, (list, tuple)):
        arr = np.asarray(y_true, dtype=object)
    elif isinstance(y_true, np.ndarray) or hasattr(y_true, "to_numpy"):
        arr = y_true if isinstance(y_true, np.ndarray) else y_true.to_numpy()
    else:
        return  # device arrays (the Array API has no text) and other collections
    if arr.ndim != 1 or not arr.size:
        return
    if arr.dtype.kind not in "US" and not (
        arr.dtype.kind == "O" and isinstance(arr[0], (str, bytes))
    ):
        return
    try:
        cats = np.unique(arr)
    except TypeError:  # mixed labels: the validation refuses them
        return
    if cats.shape[0] < 3:
        return  # two categories: one threshold, the order does not matter
    shown = [c.item() if isinstance(c, np.generic) else c for c in cats[:10]]
    warn_once(
        f"y_true holds text categories and labels=None: they are read in their "
        f"sorted (alphabetical) order {shown}, and the ranked probability score "
        "depends on the order. If that is not their order, pass labels= in their "
        "order (lowest first), or an ordered pandas categorical.",
        UserWarning,
        key="text categories",
    )


def _warn_unordered_categories(dtype: Any) -> None:
    """Warn when an *unordered* pandas categorical lists its categories in an
    order other than the sorted one the categories are read in (an order the
    user most likely meant: ``ordered=True`` forgotten)."""
    cats = getattr(dtype, "categories", None)
    if cats is None or getattr(dtype, "ordered", True):
        return
    given = np.asarray(cats)
    try:
        if np.array_equal(np.sort(given), given):
            return
    except TypeError:  # unorderable categories: the check refuses them
        return
    shown = [c.item() if isinstance(c, np.generic) else c for c in given[:10]]
    # at the user's line, however deep the call (a fixed stacklevel named a line
    # of skbrier when a ranked statistic called ranked_order)
    warn_once(
        f"y_true is an unordered pandas categorical whose categories {shown} are "
        "not sorted: the categories are read in their sorted order. If that list "
        "is their order, make it ordered (ordered=True) or pass labels= in that "
        "order.",
        UserWarning,
        key="unordered categories",
    )


def ordered_codes(codes: Any, perm: np.ndarray | None) -> Any:
    """The position of each row's category in the order (``perm`` of
    :func:`ranked_order`; numpy codes)."""
    return codes if perm is None else perm[codes]


def not_ordinal_shape(shape: tuple) -> ValueError:
    """The error of forecasts of one column (``shape``) for a ranked statistic."""
    return ValueError(
        "y_proba must be 2-D, one column per category in their order (lowest "
        f"first); got shape {tuple(shape)}. For a binary outcome pass the two "
        "columns of predict_proba (the ranked probability score is then the "
        "Brier score)."
    )


def check_ordinal(
    y_true: Any, y_proba: Any, sample_weight: Any, labels: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
    """Validated ``(codes, proba, w, categories)``: each row's category as its
    column (0 .. K - 1 in the order), float64 probabilities with K >= 2
    columns, the weights and the categories in their order."""
    y_true, order, perm = ranked_order(y_true, labels)
    raw = as_array(y_proba, "y_proba")
    if raw.ndim == 1 or (raw.ndim == 2 and raw.shape[1] == 1):
        _target_array(y_true)  # a 2-D y_true of probabilities: swapped arguments
        check_probabilities(raw, warn_hard=False)  # bad values first
        raise not_ordinal_shape(raw.shape)
    fc = check_forecast(  # the columns are coded against the sorted categories
        y_true,
        raw,
        sample_weight=sample_weight,
        labels=order if perm is None else order[perm],
        float_target=False,
    )
    cats = fc.classes if order is None else order
    check_column_order(
        column_names(y_proba), cats, "y_proba", read_as="the order of the categories"
    )
    return ordered_codes(fc.y, perm), fc.proba, fc.sample_weight, cats


def _check_normalize(normalize: Any) -> bool:
    return check_bool(normalize, "normalize")


# --------------------------------------------------------------------------- score
@backends(
    dask="skbrier._backends._dask._adapters:ranked_probability_score",
    array_api="skbrier._backends._array_api:ranked_probability_score",
)
def ranked_probability_score(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    normalize: bool = False,
) -> float:
    r"""Ranked probability score of forecasts of ordered categories (lower is better).

    With :math:`F_{ik} = \sum_{j \le k} p_{ij}` the cumulative forecast and
    :math:`O_{ik} = 1[y_i \le k]` the cumulative outcome of row :math:`i`,

    .. math::

        \mathrm{RPS} = \frac{\sum_i w_i \sum_{k=1}^{K} (F_{ik} - O_{ik})^2}
            {\sum_i w_i},

    divided by :math:`K - 1` with ``normalize=True``.  It is the sum over
    the :math:`K - 1` thresholds of the Brier scores of the cumulative
    forecasts: a forecast that puts its mass one category away from the
    outcome costs less than one that puts it four categories away.  With two
    categories it is the binary Brier score.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The observed category of each row (numbers, strings, or an ordered
        pandas categorical).
    y_proba : array-like of shape (n_samples, n_categories)
        Probabilities of the categories, one column per category in their
        order (lowest first).
    labels : array-like of shape (n_categories,), default=None
        The categories in their order (the order of the columns of
        ``y_proba``); may name categories absent from ``y_true``.  None: the
        categories of an ordered pandas categorical ``y_true`` in their
        order, else the sorted labels of ``y_true`` (the order of
        ``predict_proba``'s columns).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    normalize : bool, default=False
        Divide by :math:`K - 1` (the range [0, 1]), as R ``verification`` and
        ``yardstick`` do; False gives the sum over the categories, as
        ``scoringrules`` and R ``scoringRules`` do (range [0, K - 1]).

    Returns
    -------
    float
        The ranked probability score.

    Raises
    ------
    ValueError
        For NaN or infinite values, probabilities outside [0, 1], 1-D
        ``y_proba``, a number of columns different from the number of
        categories, labels of ``y_true`` missing from ``labels``, a label
        given twice, or invalid ``sample_weight``.
    TypeError
        For non-numeric probabilities or weights, or a non-boolean
        ``normalize``.

    See Also
    --------
    ranked_probability_skill_score : the improvement over climatology.
    ranked_probability_decomposition : miscalibration, discrimination and
        uncertainty.
    brier_score : the multiclass Brier score (categories without an order).

    Notes
    -----
    The last term (:math:`k = K`) is 0 when a row sums to one; it is kept,
    as the peers keep it, so rows that do not sum to one (a warning) are
    scored as the peers score them.

    References
    ----------
    .. [1] E. S. Epstein, "A scoring system for probability forecasts of
       ranked categories", Journal of Applied Meteorology 8, 985-987, 1969.
    .. [2] D. S. Wilks, *Statistical Methods in the Atmospheric Sciences*,
       3rd ed., Academic Press, 2011, section 8.4.8.

    Examples
    --------
    >>> from skbrier import ranked_probability_score
    >>> ranked_probability_score([2], [[0.1, 0.2, 0.3, 0.4]], labels=[0, 1, 2, 3])
    0.26
    >>> ranked_probability_score(["mild", "severe"], [[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]],
    ...                          labels=["mild", "moderate", "severe"])
    0.135
    >>> ranked_probability_score(["mild", "severe"], [[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]],
    ...                          labels=["mild", "moderate", "severe"], normalize=True)
    0.0675
    """
    normalize = _check_normalize(normalize)
    codes, p, w, _ = check_ordinal(y_true, y_proba, sample_weight, labels)
    return ranked_finish(ranked_reduce(np, codes, p, scale_free_weights(w)), normalize)


@one_warning_per_call
@backends(
    arrays=("y_true", "y_proba", "sample_weight", "reference"),
    dask="skbrier._backends._dask._adapters:ranked_probability_skill_score",
    array_api="skbrier._backends._array_api:ranked_probability_skill_score",
)
def ranked_probability_skill_score(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    reference: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    r"""Ranked probability skill score: the share of a reference's RPS removed.

    .. math::

        \mathrm{RPSS} = 1 - \frac{\mathrm{RPS}}{\mathrm{RPS}_\mathrm{ref}}.

    1 is perfect, 0 no better than the reference, negative worse.  The
    reference is

    * ``None`` (default): climatology, the constant forecast equal to the
      (weighted) frequencies of the categories, whose score is
      :math:`\sum_k \bar O_k (1 - \bar O_k)` with :math:`\bar O_k` the
      frequency of :math:`y \le k` (R ``verification::rps``'s ``$rpss``);
    * a 1-D array of one probability per category: a constant forecast
      (verification's ``baseline``);
    * an array shaped like ``y_proba``: reference forecasts.

    The normalisation (:math:`K - 1`) cancels.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The observed categories.
    y_proba : array-like of shape (n_samples, n_categories)
        Probabilities, one column per category in their order.
    reference : None or array-like, default=None
        The reference forecast (see above).
    labels : array-like of shape (n_categories,), default=None
        The categories in their order (see :func:`ranked_probability_score`).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights (for both scores and the frequencies).

    Returns
    -------
    float
        The skill score in (-inf, 1]; ``nan`` (with an
        :class:`~sklearn.exceptions.UndefinedMetricWarning`) when the
        reference scores 0 (climatology when a single category has positive
        weight).

    Raises
    ------
    ValueError
        For the inputs :func:`ranked_probability_score` refuses, and a
        ``reference`` of the wrong shape or outside [0, 1].

    See Also
    --------
    ranked_probability_score
    brier_skill_score

    Examples
    --------
    >>> from skbrier import ranked_probability_skill_score
    >>> y = [0, 1, 2, 2]
    >>> P = [[0.6, 0.3, 0.1], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7], [0.1, 0.4, 0.5]]
    >>> round(ranked_probability_skill_score(y, P), 6)
    0.651429
    >>> round(ranked_probability_skill_score(y, P, reference=[1/3, 1/3, 1/3]), 6)
    0.677059
    """
    codes, p, w, _ = check_ordinal(y_true, y_proba, sample_weight, labels)
    ref, constant = check_ranked_reference(reference, p.shape)
    sums = ranked_reduce(
        np, codes, p, scale_free_weights(w), reference=ref, class_weight=ref is None
    )
    score, bs_ref = ranked_skill_finish(sums, constant)
    if bs_ref == 0.0:
        warn_undefined_skill("ranked_probability_skill_score")
    return score


def check_ranked_reference(
    reference: Any, shape: tuple[int, ...]
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``(reference forecasts, constant forecast)`` (at most one not None) of
    the ``reference`` of :func:`ranked_probability_skill_score`."""
    if reference is None:
        return None, None
    if np.ndim(reference) == 0:
        raise ValueError(
            "reference must be None, one probability per category (a constant "
            "forecast) or forecasts shaped like y_proba; got a scalar."
        )
    ref = check_probabilities(reference, name="reference", warn_hard=False)
    if ref.ndim == 1 and np.ndim(reference) == 1:
        if ref.shape[0] != shape[1]:
            raise ValueError(
                f"reference has {ref.shape[0]} probabilities but y_proba has "
                f"{shape[1]} categories; give one probability per category."
            )
        warn_if_rows_do_not_sum_to_one(ref[None, :], "reference")  # as y_proba's rows
        return None, ref
    if ref.shape != tuple(shape):
        raise ValueError(
            f"reference has shape {ref.shape} but y_proba has shape {tuple(shape)}; "
            "reference forecasts must have the same shape as y_proba."
        )
    return ref, None


# --------------------------------------------------------------------------- decomposition
@dataclass(frozen=True, eq=False, repr=False)
class RankedDecomposition(Result):
    r"""Decomposition of the ranked probability score over its thresholds.

    The RPS is the sum over the :math:`K - 1` thresholds :math:`k` of the
    binary Brier scores of :math:`1[y \le k]` against the cumulative forecast
    :math:`F_k`, so the binary decompositions of the thresholds add up:

    .. math::

        \mathrm{RPS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC}
            \; (+ \mathrm{WBV} - \mathrm{WBC} \text{ for binned ones}),

    each term the sum of the thresholds' terms (divided by :math:`K - 1`
    with ``normalize``).  CORP's miscalibration (MCB), discrimination (DSC)
    and uncertainty (UNC); for ``decomposition_method="murphy"`` the reliability,
    resolution and uncertainty of the bins, and the within-bin terms in
    ``remainder``.

    Attributes
    ----------
    ranked_probability_score : float
        The sum of the thresholds' Brier scores (the RPS, to rounding).
    miscalibration, discrimination, uncertainty : float
        The summed components.
    remainder : float
        WBV - WBC summed (0 for CORP).
    decomposition_method : {"corp", "murphy"}
        The binary decomposition of each threshold.
    thresholds : ndarray of shape (n_categories - 1,)
        Threshold :math:`k` is the event ``y <= thresholds[k]``.
    per_threshold : tuple of CORPDecomposition or MurphyDecomposition
        The binary decomposition of each threshold (unnormalised).
    normalize : bool
        Whether the sums are divided by :math:`K - 1`.

    Examples
    --------
    >>> from skbrier import ranked_probability_decomposition
    >>> d = ranked_probability_decomposition(
    ...     [0, 1, 2, 2], [[.6, .3, .1], [.2, .6, .2], [.1, .2, .7], [.1, .4, .5]])
    >>> round(d.miscalibration - d.discrimination + d.uncertainty, 4)
    0.1525
    >>> [round(float(t.brier_score), 4) for t in d.per_threshold]
    [0.055, 0.0975]
    """

    ranked_probability_score: float
    miscalibration: float
    discrimination: float
    uncertainty: float
    remainder: float
    decomposition_method: str
    thresholds: np.ndarray
    per_threshold: tuple
    normalize: bool

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "ranked_probability_score",
        "miscalibration",
        "discrimination",
        "uncertainty",
        "remainder",
    )

    def to_frame(self) -> Any:
        """One row per threshold: the event and its (unnormalised) components.

        Returns
        -------
        pandas.DataFrame
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        rows = []
        for t, d in zip(self.thresholds, self.per_threshold):
            mcb, dsc, unc, rem = _components(d)
            rows.append(
                {
                    "threshold": t,
                    "brier_score": float(d.brier_score),
                    "miscalibration": mcb,
                    "discrimination": dsc,
                    "uncertainty": unc,
                    "remainder": rem,
                }
            )
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={format_number(v)}" for k, v in self._headline().items())
        return f"RankedDecomposition(decomposition_method={self.decomposition_method!r}, {body})"


def _components(d: Any) -> tuple[float, float, float, float]:
    """(MCB, DSC, UNC, remainder) of one binary decomposition."""
    if hasattr(d, "miscalibration"):
        return float(d.miscalibration), float(d.discrimination), float(d.uncertainty), 0.0
    rem = float(d.within_bin_variance) - float(d.within_bin_covariance)
    return float(d.reliability), float(d.resolution), float(d.uncertainty), rem


@backends(
    dask=Refused(
        "the CORP decomposition needs every forecast in memory; compute it on a "
        "subsample, e.g. df.sample(frac=0.01).compute()"
    ),
    array_api=HOST,
)
def ranked_probability_decomposition(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    decomposition_method: Literal["corp", "murphy"] = "corp",
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    normalize: bool = False,
    n_bins: int = 10,
    n_resamples: int = 0,
    confidence_level: float = 0.95,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> RankedDecomposition:
    r"""Miscalibration, discrimination and uncertainty of the ranked probability score.

    Each threshold :math:`k = 1, \dots, K - 1` is a binary problem -- the
    event :math:`y \le k` forecast by the cumulative probability
    :math:`F_k` -- decomposed by :func:`corp_decomposition` (isotonic,
    ``decomposition_method="corp"``, the default) or :func:`murphy_decomposition` (binned,
    ``decomposition_method="murphy"``); the components add up over the thresholds, as the
    Brier scores add up to the RPS (see :class:`RankedDecomposition`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The observed categories.
    y_proba : array-like of shape (n_samples, n_categories)
        Probabilities, one column per category in their order.
    decomposition_method : {"corp", "murphy"}, default="corp"
        The binary decomposition of each threshold.
    labels : array-like of shape (n_categories,), default=None
        The categories in their order (see :func:`ranked_probability_score`).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    normalize : bool, default=False
        Divide the sums by :math:`K - 1`.
    n_bins : int, default=10
        Number of uniform bins (``decomposition_method="murphy"`` only).
    n_resamples : int, default=0
        Bootstrap resamples of each threshold's decomposition (its
        ``confidence_interval()``; 0: none).
    confidence_level : float, default=0.95
        Level stored in each threshold's result.
    random_state : None, int, numpy Generator, SeedSequence or RandomState
        Seed of the resampling (one generator spawned per threshold).
    n_jobs : int, default=None
        Number of joblib workers for the resampling.

    Returns
    -------
    RankedDecomposition

    Raises
    ------
    ValueError
        For the inputs :func:`ranked_probability_score` refuses, an unknown
        ``decomposition_method`` or bad resampling options.

    See Also
    --------
    ranked_probability_score
    corp_decomposition

    Notes
    -----
    The cumulative forecasts are clipped to [0, 1] (a cumulative sum can
    exceed 1 by a rounding error), which changes a threshold's Brier score by
    at most :math:`10^{-16}`.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118,
       2021.
    .. [2] E. S. Epstein, "A scoring system for probability forecasts of
       ranked categories", Journal of Applied Meteorology 8, 985-987, 1969.

    Examples
    --------
    >>> from skbrier import ranked_probability_decomposition
    >>> y = [0, 1, 2, 2, 1, 0]
    >>> P = [[0.6, 0.3, 0.1], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7],
    ...      [0.1, 0.4, 0.5], [0.3, 0.4, 0.3], [0.5, 0.3, 0.2]]
    >>> d = ranked_probability_decomposition(y, P)
    >>> round(d.miscalibration - d.discrimination + d.uncertainty, 6)
    0.18
    >>> round(ranked_probability_score(y, P), 6)
    0.18
    """
    method = check_option(decomposition_method, "decomposition_method", ("corp", "murphy"))
    normalize = _check_normalize(normalize)
    validate_random_state(random_state)
    check_n_bins(n_bins)  # checked even when unused (decomposition_method="corp")
    if method == "murphy":
        opts = murphy_options(
            n_bins, "uniform", True, False, n_resamples, confidence_level, n_jobs
        )
    else:
        opts = bootstrap_options(n_resamples, confidence_level, n_jobs)
    n_res = opts["n_resamples"]
    codes, p, w, cats = check_ordinal(y_true, y_proba, sample_weight, labels)
    k = p.shape[1]
    rngs = class_generators(random_state, n_res, k - 1)
    f = np.zeros(p.shape[0])
    parts: list[Any] = []
    for j in range(k - 1):
        f += p[:, j]
        fj = np.minimum(f, 1.0)
        y01 = (codes <= j).astype(np.float64)
        if method == "corp":
            parts.append(corp_binary(y01, fj, w, rng=rngs[j], **opts))
        else:
            parts.append(murphy_binary(y01, fj, w, rng=rngs[j], **opts))
    scale = 1.0 / (k - 1) if normalize else 1.0
    sums = np.sum([_components(d) for d in parts], axis=0) * scale
    return RankedDecomposition(
        ranked_probability_score=float(sum(float(d.brier_score) for d in parts) * scale),
        miscalibration=float(sums[0]),
        discrimination=float(sums[1]),
        uncertainty=float(sums[2]),
        remainder=float(sums[3]),
        decomposition_method=method,
        thresholds=np.asarray(cats[:-1]),
        per_threshold=tuple(parts),
        normalize=normalize,
    )
