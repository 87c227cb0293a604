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
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.dispatch import HOST, backends
from .._core.format import format_number
from .._core.labels import binary_target
from .._core.optional import import_optional
from .._core.params import (
    check_int,
    check_n_jobs,
    check_n_resamples,
    check_option,
    check_random_state,
    validate_random_state,
)
from .._core.resampling import repeated_rows
from .._core.results import ConfidenceInterval, _IntervalResult
from .._core.validation import check_sample_weight
from .._response import check_pos_label
from ._optimism_ci import (
    INTERVAL_METHODS,
    corrected_interval,
    default_method,
    interval_replicates,
)
from ._optimism_core import (
    ESTIMATES,
    Sample,
    Settings,
    check_failures,
    check_indices,
    n_rows,
    validate,
    warn_separated,
)
from ._optimism_measures import BASE_MEASURES, MeasureSet
from ._stability import StabilityResult
from .cross_validation import FITS_IN_MEMORY, _take_rows

__all__ = ["InternalValidationResult", "internal_validation"]

_CORRECTIONS: tuple[str, ...] = ("harrell", "632plus", "both", "cv_optimism")
_RESAMPLE: tuple[str, ...] = ("rows", "weights")


@dataclasses.dataclass(frozen=True, repr=False)
class InternalValidationResult(_IntervalResult):
    r"""Apparent, optimism and optimism-corrected performance of a refitted model.

    Returned by :func:`internal_validation`; not meant to be built by hand.
    Every per-measure field is a dict keyed by measure name (``measures``),
    or None when ``correction`` did not compute it.
    ``confidence_interval`` bootstraps the corrected estimates (Noma et al.
    2021 [1]_) from the outer resamples of
    ``internal_validation(n_resamples=...)`` (and ``nested=True`` for the
    two-stage intervals).  Its metrics are the measures computed
    (``"brier_score"``, ``"brier_index"``, ``"c_statistic"``,
    ``"calibration_intercept"``, ``"calibration_slope"``,
    ``"calibration_in_the_large"``, ``"ici"``, ``"net_benefit"``: one bound per
    threshold; default: the first measure).  With
    :math:`q_{lo}, q_{hi}` the percentiles of the apparent measure over the
    outer resamples and :math:`\hat O = \text{apparent} -
    \text{corrected}` the estimate's optimism, the location-shifted interval
    is :math:`[q_{lo} - \hat O, q_{hi} - \hat O]`; the two-stage interval is
    the percentile interval of the corrected estimates of the validations run
    in the outer resamples.  Its methods give the interval and the estimate
    it covers: ``"shifted"``, ``"twostage"``: of ``corrected`` (Harrell's
    optimism, or the ``"cv_optimism"`` one), pminternal's
    ``confint(method = "shifted" / "twostage", ci_type = "perc")`` of
    ``validate(method = "boot_optimism")`` (or ``"cv_optimism"``);
    ``"shifted_632"``, ``"twostage_632"``: of ``corrected_632``,
    pminternal's for ``validate(method = ".632")``; ``"shifted_632plus"``,
    ``"twostage_632plus"``: of ``corrected_632plus`` (Noma et al.'s third
    estimator; not in pminternal).  Default: ``"twostage"`` after
    ``nested=True``, else ``"shifted"``, of ``corrected`` when computed, else
    of ``corrected_632plus``.  It warns (RuntimeWarning) when some outer
    resamples failed (their replicates are NaN and left out), or separated
    the outcomes (an infinite calibration slope or intercept: undefined,
    left out too).

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
    n_resamples : int
        The outer resamples of the intervals (0: none).
    nested : bool
        Whether the validation was run on each outer resample (two-stage).
    interval_replicates : dict of str to ndarray of shape (n_resamples, n_measures) or None
        Per outer resample: ``"apparent"``, and with ``nested`` the
        corrected estimates (``"corrected"``, ``"corrected_632"``,
        ``"corrected_632plus"`` as ``correction`` computes them); NaN rows
        for outer resamples that failed.

    See Also
    --------
    internal_validation : Builds this object.

    Notes
    -----
    A calibration slope or intercept of a model refitted by maximum
    likelihood is 1 or 0 on its own rows, so its apparent replicates do not
    vary and the shifted interval has zero width (pminternal's warning too);
    use the two-stage interval for them.

    References
    ----------
    .. [1] H. Noma, T. Shinozaki, K. Iba, S. Teramukai and T. A. Furukawa,
       "Confidence intervals of prediction accuracy measures for
       multivariable prediction models based on the bootstrap-based
       optimism correction methods", Statistics in Medicine 40,
       5691-5701, 2021.

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

    An interval needs the outer resamples:

    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = make_classification(120, n_features=3, n_informative=2,
    ...                            n_redundant=0, random_state=1)
    >>> res = internal_validation(LogisticRegression(), X, y, n_bootstrap=10,
    ...                           measures=["c_statistic"], n_resamples=20,
    ...                           random_state=0)
    >>> low, high = res.confidence_interval(metric="c_statistic")
    >>> bool(low < res.corrected["c_statistic"] < high)
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
    n_resamples: int = 0
    nested: bool = False
    interval_replicates: dict | None = None

    _interval_metrics: ClassVar[tuple[str, ...]] = (*BASE_MEASURES, "net_benefit")
    _interval_methods: ClassVar[tuple[str, ...]] = tuple(INTERVAL_METHODS)

    _COLUMNS: ClassVar[tuple[str, ...]] = ("apparent", *ESTIMATES, "n_valid")

    def _table(self) -> list[dict[str, Any]]:
        cols = [c for c in self._COLUMNS if getattr(self, c) is not None]
        return [
            {"measure": m, **{c: getattr(self, c)[m] for c in cols}} for m in self.measures
        ]

    def to_frame(self) -> Any:
        """One row per measure, one column per estimate (needs pandas)."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        return pd.DataFrame(self._table())

    def _summary_rows(self) -> list[tuple[str, str]]:
        best = "corrected" if self.corrected is not None else "corrected_632plus"
        rows = [("correction", self.correction), ("n_bootstrap", str(self.n_bootstrap))]
        if self.n_resamples:
            kind = "nested" if self.nested else "apparent only"
            rows.append(("n_resamples", f"{self.n_resamples} ({kind})"))
        for m in self.measures:
            rows.append(
                (
                    m,
                    f"{format_number(self.apparent[m])} apparent, "
                    f"{format_number(getattr(self, best)[m])} {best}",
                )
            )
        return rows

    # ------------------------------------------------------------------ intervals
    def _valid_metrics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(k.split("@")[0] for k in self.measures))

    def _default_metric(self) -> str:
        return self._valid_metrics()[0]

    def _default_method(self, metric: str) -> str:
        return default_method(self)

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        return corrected_interval(self, metric, level, method)

    def __repr__(self) -> str:
        return (
            f"InternalValidationResult(correction={self.correction!r}, "
            f"n_bootstrap={self.n_bootstrap}, measures={list(self.measures)})"
        )


def _named(names: list[str], values: np.ndarray, kind: type = float) -> dict[str, Any]:
    return {k: kind(v) for k, v in zip(names, values)}


# --------------------------------------------------------------------------- public
@backends(
    arrays=("X", "y", "sample_weight"),
    namespace_of="X",
    dask=FITS_IN_MEMORY,
    array_api=HOST,
)
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
    n_resamples: int = 0,
    nested: bool = False,
    interval_indices: ArrayLike | None = None,
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
    * with ``n_resamples``, **confidence intervals** of the corrected
      measures by an outer bootstrap (Noma et al. 2021; location-shifted,
      or two-stage with ``nested=True``):
      :meth:`InternalValidationResult.confidence_interval`.

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
    n_resamples : int, default=0
        Outer bootstrap resamples for the intervals of
        :meth:`InternalValidationResult.confidence_interval` (Noma et al.
        2021): the estimator is refitted on each and its apparent measures
        kept (the location-shifted intervals; pminternal's ``confint``
        draws ``R = 1000``).  0: none, and no intervals.
    nested : bool, default=False
        Also run the whole validation (``n_bootstrap`` inner resamples or
        folds) on each outer resample, for the two-stage intervals:
        ``n_resamples * n_bootstrap`` refits.  The outer resamples are the
        same as without it.
    interval_indices : array-like of shape (n_resamples, n_samples), default=None
        The outer resamples' 0-based row numbers (as ``indices``); with
        ``nested=True`` shape ``(n_resamples, 1 + n_bootstrap, n_samples)``
        may hold each outer resample's own inner resamples after it, as
        0-based positions in it (R's draws of pminternal's ``confint``).

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
        When some refits fail (their resample is left out, as pminternal),
        and when the forecasts separate the outcomes of some resamples (the
        calibration slope and intercept estimates are then NaN; see Notes).

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

    On small samples (few events per predictor) a bootstrap model may
    separate the outcomes of its resample (or of the original rows): the
    logistic recalibration has no finite slope there (its replicates are
    :math:`\pm\infty`, the intercept's too).  R's ``glm`` stops at a large,
    arbitrary finite slope with a warning, which pminternal averages;
    skbrier reports the estimates of ``"calibration_slope"`` and
    ``"calibration_intercept"`` that such a resample enters (optimism,
    corrected, .632, .632+) as NaN, with one RuntimeWarning counting the
    resamples: use more rows or events per predictor, or a penalised or
    simpler model.

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
    if not isinstance(nested, (bool, np.bool_)):
        raise TypeError(f"nested must be True or False, got {nested!r}.")
    how: str = check_option(correction, "correction", _CORRECTIONS)
    n_jobs = check_n_jobs(n_jobs)
    pos_label = check_pos_label(pos_label)
    spec = MeasureSet(measures, thresholds)
    labels = np.asarray(y)
    n = n_rows(X)
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
        if "ici" in spec.base:
            repeated_rows(
                w,
                "the measure 'ici' (its lowess has no weights)",
                "leave 'ici' out of measures",
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
    if how == "cv_optimism" and indices is not None:
        raise ValueError(
            "indices are bootstrap resamples: correction='cv_optimism' uses "
            "pminternal's folds (shuffle the rows of X and y for random folds)."
        )
    R = check_n_resamples(n_resamples, allow_zero=True)
    if nested and R == 0:
        raise ValueError(
            "nested=True runs the validation in each of n_resamples "
            "outer resamples: give n_resamples > 0."
        )
    if (indices is not None or interval_indices is not None) and w is not None:
        raise ValueError(
            "indices and interval_indices cannot be combined with sample_weight."
        )
    idx_all = None
    if indices is not None:
        idx_all = check_indices(indices, "indices", n, {"(n_bootstrap, n_samples)": (B, n)})
    outer_idx = None
    if interval_indices is not None:
        shapes: dict[str, tuple[int, ...]] = {"(n_resamples, n_samples)": (R, n)}
        if nested and how != "cv_optimism":
            shapes["(n_resamples, 1 + n_bootstrap, n_samples)"] = (R, 1 + B, n)
        outer_idx = check_indices(interval_indices, "interval_indices", n, shapes)
    validate_random_state(random_state)
    # one generator: the resamples of the intervals follow those of the validation
    rng = None
    if idx_all is None or (R and outer_idx is None):
        rng = check_random_state(random_state)
    settings = Settings(estimator, pos_label, spec, how, B, mode)
    sample = Sample(X, labels, y01, w)
    fit = validate(
        settings,
        sample,
        indices=idx_all,
        # with indices, chunk j is named by its spawn key
        seed=np.random.SeedSequence(0) if idx_all is not None else rng,
        n_jobs=n_jobs,
    )
    check_failures(
        fit.errors, B, "cross-validation" if how == "cv_optimism" else "bootstrap"
    )
    warn_separated(fit, spec.names, n, float(y01 @ (np.ones(n) if w is None else w)))
    outer = None
    if R:
        outer, errors = interval_replicates(
            settings, sample, R, nested=nested, indices=outer_idx, rng=rng, n_jobs=n_jobs
        )
        check_failures(errors, R, "outer bootstrap")
    names = spec.names
    return InternalValidationResult(
        measures=tuple(names),
        correction=how,
        n_bootstrap=B,
        apparent=_named(names, fit.apparent),
        n_valid=_named(names, fit.n_valid, int),
        replicates=fit.replicates,
        stability=StabilityResult(y01, fit.p_app, fit.predictions, w),
        **{k: None if v is None else _named(names, v) for k, v in fit.estimates.items()},
        n_resamples=R,
        nested=bool(nested),
        interval_replicates=outer,
    )
