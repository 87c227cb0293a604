"""Internal validation of any scikit-learn classifier or pipeline by the bootstrap.

:func:`internal_validation` refits a clone of the whole estimator on each
bootstrap resample (skbrier's one resampling engine: chunks, spawned seeds,
joblib threads, one progress line) and estimates how optimistic the apparent
performance is: Harrell's bootstrap optimism, and Efron and Tibshirani's
.632+ (with Harrell's .632 on the way).  The predictions of the bootstrap
models on the original rows give the stability checks of
:class:`~skbrier.model_selection.StabilityResult` at no extra cost.
"""

from __future__ import annotations

import dataclasses
import threading
import warnings
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike
from sklearn import get_config
from sklearn.base import clone
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import has_fit_parameter

from .._core.format import format_number
from .._core.labels import binary_target
from .._core.params import check_int, check_n_jobs, check_option, validate_random_state
from .._core.resampling import frequency_resampler, resample_indices, run_replicates
from .._core.results import Result
from .._core.validation import check_sample_weight
from .._response import check_pos_label, forecasts_from_estimator
from ._optimism_measures import MeasureSet, combine_632, harrell_632_weights
from ._stability import StabilityResult
from .cross_validation import _take_rows

__all__ = ["InternalValidationResult", "internal_validation"]

_CORRECTIONS: tuple[str, ...] = ("harrell", "632plus", "both", "cv_optimism")
_RESAMPLE: tuple[str, ...] = ("rows", "weights")
#: resamples per chunk of the engine (fixed: results do not depend on n_jobs)
_CHUNK = 4


@dataclasses.dataclass(frozen=True, repr=False)
class InternalValidationResult(Result):
    r"""Apparent, optimism and optimism-corrected performance of a refitted model.

    Returned by :func:`internal_validation`; not meant to be built by hand.
    Every per-measure field is a dict keyed by measure name (``measures``),
    or None when ``correction`` did not compute it.  There is no
    ``confidence_interval``: an optimism-corrected estimate has no standard
    interval.

    Attributes
    ----------
    measures : tuple of str
        The measures, in order.
    correction : str
        The corrections computed: ``"harrell"``, ``"632plus"`` or ``"both"``.
    n_bootstrap : int
        The number of resamples (of folds with ``"cv_optimism"``).
    apparent : dict
        Each measure of the model fitted on all rows, on those rows.
    optimism : dict or None
        Harrell's optimism: the mean over resamples of (the bootstrap model
        on its resample) - (the bootstrap model on the original rows); with
        ``"cv_optimism"`` the mean over folds of (the fold's model on its
        training rows) - (on its held-out fold).
    corrected : dict or None
        ``apparent - optimism``.
    simple_bootstrap : dict or None
        The mean over resamples of the bootstrap model on the original rows
        (pminternal's "simple bootstrap").
    out_of_bag : dict or None
        :math:`E_1`, Harrell's weighted mean of each bootstrap model on the
        rows its resample left out.
    no_information : dict or None
        :math:`\gamma`, the measure when outcome and prediction are
        independent (NaN for the calibration intercepts).
    relative_overfitting : dict or None
        :math:`\hat R \in [0, 1]` of the .632+ estimate.
    corrected_632 : dict or None
        Harrell's .632 estimate, :math:`0.368\,\text{apparent} + 0.632\,E_1`
        (pminternal's ``".632"``).
    corrected_632plus : dict or None
        Efron and Tibshirani's .632+ estimate.
    cv_average : dict or None
        ``"cv_optimism"``: the mean over folds of each fold's model on its
        held-out fold (pminternal's "cv_average", Steyerberg et al. 2001).
    n_valid : dict
        The number of resamples where the measure was defined (its refit
        succeeded and the rows held both classes).
    replicates : dict of str to ndarray of shape (n_bootstrap, n_measures)
        With ``"cv_optimism"``: ``"train"``, ``"test"`` and ``"optimism"``
        per fold; otherwise, per resample: ``"bootstrap"`` (the bootstrap model on its resample),
        ``"original"`` (on the original rows), ``"out_of_bag"`` (on the rows
        left out) and ``"optimism"``; ``"weight_632"`` (shape
        ``(n_bootstrap,)``) holds Harrell's .632 weights.
    stability : StabilityResult
        Predictions of the original and of every bootstrap model on the
        original rows, with the instability checks and plots.

    See Also
    --------
    internal_validation : Builds this object.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skbrier.model_selection import internal_validation
    >>> X, y = make_classification(150, n_features=4, random_state=0)
    >>> tree = DecisionTreeClassifier(min_samples_leaf=10, random_state=0)
    >>> res = internal_validation(tree, X, y, n_bootstrap=20, random_state=0,
    ...                           measures=["brier_score", "c_statistic"])
    >>> res.measures
    ('brier_score', 'c_statistic')
    >>> bool(res.corrected["c_statistic"] < res.apparent["c_statistic"])
    True
    """

    measures: tuple[str, ...]
    correction: str
    n_bootstrap: int
    apparent: dict
    optimism: dict | None
    corrected: dict | None
    simple_bootstrap: dict | None
    out_of_bag: dict | None
    no_information: dict | None
    relative_overfitting: dict | None
    corrected_632: dict | None
    corrected_632plus: dict | None
    n_valid: dict
    replicates: dict
    stability: StabilityResult
    cv_average: dict | None = None

    _COLUMNS: ClassVar[tuple[str, ...]] = (
        "apparent",
        "optimism",
        "corrected",
        "simple_bootstrap",
        "out_of_bag",
        "no_information",
        "relative_overfitting",
        "corrected_632",
        "corrected_632plus",
        "cv_average",
        "n_valid",
    )

    def _table(self) -> list[dict[str, Any]]:
        cols = [c for c in self._COLUMNS if getattr(self, c) is not None]
        return [
            {"measure": m, **{c: getattr(self, c)[m] for c in cols}} for m in self.measures
        ]

    def to_frame(self) -> Any:
        """One row per measure, one column per estimate (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self._table())

    def _summary_rows(self) -> list[tuple[str, str]]:
        best = "corrected" if self.corrected is not None else "corrected_632plus"
        rows = [("correction", self.correction), ("n_bootstrap", str(self.n_bootstrap))]
        for m in self.measures:
            rows.append(
                (
                    m,
                    f"{format_number(self.apparent[m])} apparent, "
                    f"{format_number(getattr(self, best)[m])} {best}",
                )
            )
        return rows

    def __repr__(self) -> str:
        return (
            f"InternalValidationResult(correction={self.correction!r}, "
            f"n_bootstrap={self.n_bootstrap}, measures={list(self.measures)})"
        )


# --------------------------------------------------------------------------- refits
def _n_rows(X: Any) -> int:
    shape = getattr(X, "shape", None)
    return int(shape[0]) if shape is not None else len(X)


def _weight_param(estimator: Any) -> str:
    """The ``fit`` keyword that carries the weights to the estimator.

    ``sample_weight``; for a :class:`~sklearn.pipeline.Pipeline` without
    metadata routing, its final step's ``<step>__sample_weight``.  A
    TypeError naming ``sample_weight`` when the estimator takes none.
    """
    final = estimator
    name = "sample_weight"
    if isinstance(estimator, Pipeline) and not get_config().get("enable_metadata_routing"):
        step, final = estimator.steps[-1]
        name = f"{step}__sample_weight"
    if (
        final is not None
        and final != "passthrough"
        and not has_fit_parameter(final, "sample_weight")
    ):
        raise TypeError(
            f"sample_weight (or resample='weights') needs an estimator whose fit "
            f"takes sample_weight; {type(final).__name__}.fit does not: resample "
            "rows instead (resample='rows', without sample_weight)."
        )
    return name


class _Refits:
    """Fits clones of the estimator on resamples and predicts the original rows."""

    def __init__(self, estimator: Any, X: Any, y: np.ndarray, pos_label: Any,
                 weighted: bool) -> None:  # fmt: skip
        self.estimator, self.X, self.y, self.pos_label = estimator, X, y, pos_label
        self.weight_param = _weight_param(estimator) if weighted else ""
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def fit_predict(
        self, rows: np.ndarray | None, weights: np.ndarray | None
    ) -> np.ndarray:
        """Predictions on all original rows of a clone fitted on ``rows`` (with ``weights``)."""
        X, y = self.X, self.y
        if rows is not None:
            X, y = _take_rows(X, rows), y[rows]
        kw = {} if weights is None else {self.weight_param: weights}
        model = clone(self.estimator).fit(X, y, **kw)
        p = forecasts_from_estimator(model, self.X, pos_label=self.pos_label).y_proba
        return np.asarray(p, dtype=np.float64)

    def resample(self, rows: np.ndarray | None, weights: np.ndarray | None) -> np.ndarray:
        """:meth:`fit_predict`, NaN (with the error kept) when the refit fails."""
        try:
            return self.fit_predict(rows, weights)
        except Exception as exc:  # noqa: BLE001 (a failed refit is a missing resample, as pminternal)
            with self.lock:
                self.errors.append(f"{type(exc).__name__}: {exc}")
            return np.full(_n_rows(self.X), np.nan)


def _check_indices(indices: Any, n_bootstrap: int, n: int) -> np.ndarray:
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"indices must hold integer row numbers, got dtype {idx.dtype}.")
    if idx.ndim != 2 or idx.shape != (n_bootstrap, n):
        raise ValueError(
            f"indices must have shape (n_bootstrap, n_samples) = ({n_bootstrap}, {n}), "
            f"got {idx.shape}."
        )
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError(f"indices must be row numbers in [0, {n - 1}] (0-based).")
    return idx.astype(np.intp)


def _means(values: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all NaN: NaN
        return np.nanmean(values, axis=0)


def _named(names: list[str], values: np.ndarray, kind: type = float) -> dict[str, Any]:
    return {k: kind(v) for k, v in zip(names, values)}


def _check_failures(errors: list[str], total: int, what: str) -> None:
    """A ValueError when every refit failed, a RuntimeWarning when some did
    (their resamples or folds are left out, as pminternal)."""
    if len(errors) == total:
        raise ValueError(
            f"every one of the {total} {what} refits failed; the first error: {errors[0]}"
        )
    if errors:
        warnings.warn(
            f"{len(errors)} of {total} {what} refits failed and are left out (the first "
            f"error: {errors[0]}).",
            RuntimeWarning,
            stacklevel=3,
        )


def _pminternal_folds(n: int, k: int) -> list[np.ndarray]:
    """pminternal's folds: contiguous blocks, fold ``i`` (1-based) the rows
    ``round((i - 1) n / k) .. round(i n / k) - 1`` (0-based; R's rounding,
    half to even, as numpy's)."""
    if n / k < 2:
        raise ValueError(
            f"n_bootstrap={k} folds of {n} rows leave fewer than 2 rows per fold "
            "(correction='cv_optimism'): decrease n_bootstrap."
        )
    edges = np.round(np.arange(k + 1) * (n / k)).astype(np.intp)
    return [np.arange(edges[i], edges[i + 1]) for i in range(k)]


def _cv_optimism(
    refits: _Refits,
    spec: MeasureSet,
    y01: np.ndarray,
    w: np.ndarray | None,
    folds: list[np.ndarray],
) -> dict[str, np.ndarray]:
    """Each fold's model scored on its training rows and on its held-out fold
    (``"train"``, ``"test"``, shape ``(k, n_measures)``) and its predictions
    of every row (``"predictions"``, ``(k, n)``)."""
    n, m = y01.shape[0], len(spec)
    train = np.full((len(folds), m), np.nan)
    test = np.full_like(train, np.nan)
    preds = np.empty((len(folds), n))
    for i, rows in enumerate(folds):
        fit_rows = np.setdiff1d(np.arange(n), rows)
        fit_w = None if w is None else w[fit_rows]
        preds[i] = p = refits.resample(fit_rows, fit_w)
        if not np.isnan(p).any():
            train[i] = spec(y01[fit_rows], p[fit_rows], fit_w)
            test[i] = spec(y01[rows], p[rows], None if w is None else w[rows])
    return {"train": train, "test": test, "predictions": preds}


def _cv_result(
    refits: _Refits,
    spec: MeasureSet,
    y01: np.ndarray,
    w: np.ndarray | None,
    apparent: np.ndarray,
    p_app: np.ndarray,
    k: int,
) -> InternalValidationResult:
    """``correction="cv_optimism"``: pminternal's ``crossval`` on ``k`` folds."""
    cv = _cv_optimism(refits, spec, y01, w, _pminternal_folds(y01.shape[0], k))
    _check_failures(refits.errors, k, "cross-validation")
    opt = cv["train"] - cv["test"]
    optimism = _means(opt)
    ok = ~np.isnan(opt[:, 0])
    return InternalValidationResult(
        measures=tuple(spec.names),
        correction="cv_optimism",
        n_bootstrap=k,
        apparent=_named(spec.names, apparent),
        optimism=_named(spec.names, optimism),
        corrected=_named(spec.names, apparent - optimism),
        simple_bootstrap=None,
        out_of_bag=None,
        no_information=None,
        relative_overfitting=None,
        corrected_632=None,
        corrected_632plus=None,
        n_valid=_named(spec.names, (~np.isnan(opt)).sum(axis=0), int),
        replicates={"train": cv["train"], "test": cv["test"], "optimism": opt},
        stability=StabilityResult(y01, p_app, cv["predictions"][ok], w),
        cv_average=_named(spec.names, _means(cv["test"])),
    )


# --------------------------------------------------------------------------- public
def internal_validation(
    estimator: Any,
    X: Any,
    y: ArrayLike,
    *,
    n_bootstrap: int = 200,
    correction: Literal["harrell", "632plus", "both", "cv_optimism"] = "harrell",
    measures: list[str] | None = None,
    thresholds: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    resample: Literal["rows", "weights"] | None = None,
    indices: ArrayLike | None = None,
    random_state: int | np.random.Generator | np.random.RandomState | None = None,
    n_jobs: int | None = None,
) -> InternalValidationResult:
    r"""Bootstrap internal validation: optimism-corrected performance and stability.

    Fits a clone of ``estimator`` (the whole pipeline: scaling, selection,
    tuning, ...) on all rows, then on each of ``n_bootstrap`` bootstrap
    resamples, and predicts the original rows with every model.  From these:

    * **Harrell's optimism** of each measure :math:`m`:
      :math:`O = \frac1B \sum_b [m(f_b, \text{resample}_b) - m(f_b, \text{original})]`,
      and the corrected :math:`m_{app} - O` (Harrell 2015; Steyerberg et al.
      2001);
    * **.632+** (Efron & Tibshirani 1997): :math:`E_1`, the performance of
      each bootstrap model on the rows its resample left out (Harrell's
      weighted mean over resamples, as ``rms`` and ``pminternal``), the
      no-information value :math:`\gamma` and the relative overfitting rate
      :math:`\hat R`; see :class:`InternalValidationResult`;
    * the **stability** of the predictions across bootstrap models (Riley &
      Collins 2023): :class:`StabilityResult`.

    Parameters
    ----------
    estimator : classifier
        A scikit-learn classifier or pipeline with ``predict_proba``
        (unfitted; it is cloned for every fit and left untouched).
    X : array-like, sparse matrix or DataFrame of shape (n_samples, n_features)
        The development data.
    y : array-like of shape (n_samples,)
        Binary outcomes.
    n_bootstrap : int, default=200
        The number of bootstrap resamples (at least 2); with
        ``correction="cv_optimism"`` the number of folds (pminternal's ``B``
        of ``validate``, its ``k`` of ``crossval``).
    correction : {"harrell", "632plus", "both", "cv_optimism"}, default="harrell"
        Which corrected estimates to report (``"632plus"`` reports Harrell's
        .632 as well).  ``"cv_optimism"``: the optimism of
        ``n_bootstrap``-fold cross-validation (pminternal's
        ``validate(method = "cv_optimism")``, ``rms::validate(method =
        "crossvalidation")``): the folds are pminternal's contiguous blocks
        of rows, fold :math:`i` the rows :math:`\mathrm{round}((i-1)n/k)`
        to :math:`\mathrm{round}(i n/k) - 1` (shuffle the rows first for
        random folds); a model fitted without fold :math:`i` is scored on
        its training rows and on fold :math:`i`; ``optimism`` is the mean
        difference, ``cv_average`` the mean held-out score, and
        ``stability`` holds the fold models' predictions.  ``indices``,
        ``random_state`` and ``n_jobs`` are not used.
    measures : list of str, default=None
        Among ``"brier_score"``, ``"brier_index"``, ``"c_statistic"``,
        ``"calibration_intercept"`` (of the joint logistic recalibration,
        pminternal's "Intercept"), ``"calibration_slope"``,
        ``"calibration_in_the_large"`` (slope fixed at 1) and ``"ici"`` (Eavg
        of the lowess calibration curve, :func:`~skbrier.metrics.lowess_calibration_error`);
        None: all of them.
    thresholds : array-like, default=None
        Risk thresholds at which the net benefit is a measure too
        (``"net_benefit@0.2"``...; treat when ``p >= threshold``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights: the fits receive them (see
        ``resample``) and every measure uses them; rows of zero weight are
        left out.  ``"ici"`` then needs integer weights (lowess has none:
        the rows are repeated).
    pos_label : int, float, bool or str, default=None
        The event class (default: the greater label, ``classes_[1]``).
    resample : {"rows", "weights"}, default=None
        How a resample reaches the estimator.  ``"rows"`` (the default
        without ``sample_weight``): the estimator is fitted on the drawn rows
        (repeated rows included), for any estimator.  ``"weights"`` (the
        default, and the only choice, with ``sample_weight``): it is fitted on
        the rows drawn at least once with their multiplicities as
        ``sample_weight`` (a Pipeline's final step gets
        ``<step>__sample_weight`` unless metadata routing is enabled); the
        same draws, and the same models only for estimators whose weighted
        fit equals the fit on repeated rows (``LogisticRegression``: yes;
        a random forest that bootstraps its rows: no).  With
        ``sample_weight`` the resamples draw observations as
        :func:`~skbrier._core.resampling.frequency_resampler`: integer
        weights give the resamples of the repeated rows.
    indices : array-like of shape (n_bootstrap, n_samples), default=None
        The resamples' 0-based row numbers, to reproduce another program's
        resamples exactly (R's ``sample(n, replace = TRUE) - 1``); then
        ``random_state`` is not used.
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seed of the resamples (the same seed gives the same result for every
        ``n_jobs``; the estimator's own randomness is its ``random_state``).
    n_jobs : int, default=None
        joblib threads running the refits (None: 1; -1: all CPUs).

    Returns
    -------
    InternalValidationResult
        ``apparent``, ``optimism`` and ``corrected`` (and the .632 / .632+
        estimates) per measure, ``to_frame()`` and ``stability``.

    Raises
    ------
    ValueError
        For labels that are not binary, inputs of different lengths,
        ``indices`` of the wrong shape, an apparent fit that fails, a
        resample that all refits fail on, or (.632+) an observation that
        no resample leaves out.
    TypeError
        For an estimator without ``fit``/``predict_proba`` or, with weights,
        whose ``fit`` takes no ``sample_weight``.

    Warns
    -----
    RuntimeWarning
        When some refits fail (their resample is left out, as pminternal).

    See Also
    --------
    StabilityResult : The instability checks and their plots.
    cross_val_brier : Cross-validated Brier score.

    Notes
    -----
    Each bootstrap model predicts every original row once; its performance
    on the resample, on the original rows and on the rows left out are
    computed from those predictions (so ``predict_proba`` must predict row
    by row, as every scikit-learn classifier does).  A measure undefined on
    some resample (one class only) is left out of its means; ``n_valid``
    counts the resamples used.  Harrell's .632 weight of resample :math:`b`
    is :math:`1 - (1/B - \sum_j [j \notin b] / N_j / n)` with :math:`N_j` the
    resamples leaving out row :math:`j` (``rms::predab.resample``).

    The no-information value of each measure is its value on all :math:`n^2`
    pairs of an outcome and a prediction (2n weighted rows): Brier score
    :math:`\bar y - 2\bar y \bar p + \overline{p^2}`, Brier Index from it,
    C = 1/2, slope 0, ICI :math:`\overline{|p - \bar y|}` and the net
    benefit of the predictions with an unrelated outcome.  The calibration
    intercepts have none (their ideal is a value, not a direction): their
    .632+ estimate is the .632 one.

    With the same resamples (``indices``) the numbers equal R
    ``pminternal::boot_optimism`` (methods ``"boot"`` and ``".632"``, with
    ``calib_args = list(smooth = "lowess", transf = "none")`` for the ICI)
    for a model that both fit identically, e.g. ``glm`` and
    ``LogisticRegression(penalty=None)``.  ``"cv_optimism"`` equals
    pminternal's ``crossval`` (its apparent, optimism, corrected and
    cv_average scores) once two of its quirks are set aside: its helper
    scores the apparent model on every fold (``fit`` for ``model``: a
    one-word fix, made in the fixture script), and ``pROC``'s
    ``direction = "auto"`` reports :math:`1 - C` on a fold whose events have
    the lower median forecast.

    References
    ----------
    .. [1] B. Efron and R. Tibshirani, "Improvements on cross-validation: the
       .632+ bootstrap method", JASA 92, 548-560, 1997.
    .. [2] F. E. Harrell, *Regression Modeling Strategies*, 2nd ed.,
       Springer, 2015, section 5.3.
    .. [3] E. W. Steyerberg et al., "Internal validation of predictive
       models: efficiency of some procedures for logistic regression
       analysis", J Clin Epidemiol 54, 774-781, 2001.
    .. [4] R. D. Riley and G. S. Collins, "Stability of clinical prediction
       models developed using statistical or machine learning methods",
       Biometrical Journal 65, 2200302, 2023.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from skbrier.model_selection import internal_validation
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = (rng.uniform(size=200) < 1 / (1 + np.exp(-X[:, 0]))).astype(int)
    >>> res = internal_validation(LogisticRegression(), X, y, n_bootstrap=20,
    ...                           correction="both", random_state=0)
    >>> bool(res.corrected["c_statistic"] < res.apparent["c_statistic"])
    True
    >>> res.to_frame().columns[:4].tolist()
    ['measure', 'apparent', 'optimism', 'corrected']
    """
    if not (hasattr(estimator, "fit") and hasattr(estimator, "predict_proba")):
        raise TypeError(
            "estimator must be a scikit-learn classifier with fit and predict_proba, "
            f"got {type(estimator).__name__}."
        )
    B = check_int(n_bootstrap, "n_bootstrap", minimum=2)
    how: str = check_option(correction, "correction", _CORRECTIONS)
    n_jobs = check_n_jobs(n_jobs)
    pos_label = check_pos_label(pos_label)
    spec = MeasureSet(measures, thresholds)
    labels = np.asarray(y)
    n = _n_rows(X)
    if labels.ndim != 1 or labels.shape[0] != n:
        raise ValueError(
            f"y must be 1-D with one label per row of X ({n}), got {labels.shape}."
        )
    y01 = binary_target(labels, pos_label, n, name="y")
    w = check_sample_weight(sample_weight, n, ref_name="X")
    mode: str = check_option(
        resample or ("rows" if w is None else "weights"), "resample", _RESAMPLE
    )
    if w is not None:
        if mode == "rows":
            raise ValueError(
                "resample='rows' cannot carry sample_weight: use resample='weights'."
            )
        if indices is not None:
            raise ValueError("indices cannot be combined with sample_weight.")
        if "ici" in spec.base and not np.all(w == np.round(w)):
            raise ValueError(
                "measures include 'ici', whose lowess takes no weights: give integer "
                "sample_weight (repeated rows) or leave 'ici' out of measures."
            )
        if np.any(w == 0):  # zero weight: not observed
            keep = np.flatnonzero(w > 0)
            X, labels, y01, w, n = (
                _take_rows(X, keep),
                labels[keep],
                y01[keep],
                w[keep],
                keep.size,
            )
    if indices is not None and how == "cv_optimism":
        raise ValueError(
            "indices are bootstrap resamples: correction='cv_optimism' uses "
            "pminternal's folds (shuffle the rows of X and y for random folds)."
        )
    if indices is not None:
        idx_all = _check_indices(indices, B, n)
        seed: Any = np.random.SeedSequence(0)  # chunk j is named by its spawn key
    else:
        idx_all = None
        seed = validate_random_state(random_state)

    refits = _Refits(estimator, X, labels, pos_label, mode == "weights")
    p_app = refits.fit_predict(None, w)
    apparent = spec(y01, p_app, w)
    m = len(spec)
    if how == "cv_optimism":
        return _cv_result(refits, spec, y01, w, apparent, p_app, B)
    draw = None if w is None else frequency_resampler(w, n)

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        if idx_all is not None:
            j = rng.bit_generator.seed_seq.spawn_key[-1] * _CHUNK  # type: ignore[attr-defined]
            rows_chunk: list[np.ndarray | None] = list(idx_all[j : j + size])
        elif draw is None:
            rows_chunk = list(resample_indices(rng, n, size))
        else:
            rows_chunk = [None] * size
        out = np.empty((size, 3 * m + 2 * n))
        for k, rows in enumerate(rows_chunk):
            if rows is None:
                assert draw is not None
                counts = draw(rng)
            else:
                counts = np.bincount(rows, minlength=n).astype(np.float64)
            used = np.flatnonzero(counts)
            if mode == "rows":
                p = refits.resample(rows, None)
            else:
                p = refits.resample(used, counts[used])
            oob = counts == 0
            if np.isnan(p).any():
                out[k, : 3 * m] = np.nan
            else:
                out[k, :m] = spec(y01[used], p[used], counts[used])
                out[k, m : 2 * m] = spec(y01, p, w)
                out[k, 2 * m : 3 * m] = spec(
                    y01[oob], p[oob], None if w is None else w[oob]
                )
            out[k, 3 * m : 3 * m + n] = counts
            out[k, 3 * m + n :] = p
        return out

    reps = run_replicates(
        task, B, random_state=seed, n_jobs=n_jobs, chunk_size=_CHUNK,
        desc="internal validation",
    )  # fmt: skip
    _check_failures(refits.errors, B, "bootstrap")
    boot, orig, oob = reps[:, :m], reps[:, m : 2 * m], reps[:, 2 * m : 3 * m]
    counts_all, preds = reps[:, 3 * m : 3 * m + n], reps[:, 3 * m + n :]
    opt_b = boot - orig
    names = spec.names

    def named(values: np.ndarray) -> dict[str, float]:
        return _named(names, values)

    harrell = how in ("harrell", "both")
    plus = how in ("632plus", "both")
    optimism = _means(opt_b)
    result: dict[str, Any] = {
        "optimism": named(optimism) if harrell else None,
        "corrected": named(apparent - optimism) if harrell else None,
        "simple_bootstrap": named(_means(orig)) if harrell else None,
        "out_of_bag": None,
        "no_information": None,
        "relative_overfitting": None,
        "corrected_632": None,
        "corrected_632plus": None,
    }
    weight = harrell_632_weights(counts_all == 0) if plus else np.full(B, np.nan)
    if plus:
        e1 = _means(weight[:, None] * oob)
        gamma = spec.no_information(y01, p_app, w)
        r, c632, c632p = combine_632(apparent, e1, gamma, spec.sense)
        result.update(
            out_of_bag=named(e1),
            no_information=named(gamma),
            relative_overfitting=named(r),
            corrected_632=named(c632),
            corrected_632plus=named(c632p),
        )
    valid = ~np.isnan(opt_b) if harrell else ~np.isnan(oob)
    ok = ~np.isnan(preds).any(axis=1)
    return InternalValidationResult(
        measures=tuple(names),
        correction=how,
        n_bootstrap=B,
        apparent=named(apparent),
        n_valid=_named(names, valid.sum(axis=0), int),
        replicates={
            "bootstrap": boot,
            "original": orig,
            "out_of_bag": oob,
            "optimism": opt_b,
            "weight_632": weight,
        },
        stability=StabilityResult(y01, p_app, preds[ok], w),
        **result,
    )
