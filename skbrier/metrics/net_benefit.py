"""Net benefit, decision curves and binary tests as probabilities.

Net benefit (Vickers & Elkin, 2006) weighs true positives against false
positives at the exchange rate implied by a threshold probability
:math:`p_t`: treating a patient whose risk is at least :math:`p_t` is worth
it when a missed event is :math:`(1 - p_t) / p_t` times worse than an
unnecessary treatment.  A decision curve plots net benefit against
:math:`p_t`, next to the default strategies "treat all" and "treat none".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import with_pieces
from .._core.kernels.net_benefit import (
    bootstrap_counts,
    bootstrap_net_benefit,
    class_shares,
    decision_finish,
    net_benefit_finish,
    threshold_reduce,
)
from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    check_confidence_level,
    check_n_jobs,
    check_n_resamples,
    check_random_state,
    check_thresholds,
    validate_random_state,
)
from .._core.resampling import chunk_size_for, frequency_resampler, run_replicates
from .._core.results import ConfidenceInterval  # noqa: F401  (importable from here before)
from .._core.validation import (
    binary_target,
    check_probabilities,
    check_sample_weight,
    check_scalar_probability,
)
from ._decision_curve import (
    DEFAULT_THRESHOLDS,
    DecisionCurveResult,
    check_binary_forecast,
    check_harm,
    check_models,
    check_nonevents,
    check_prevalence,
)

__all__ = [
    "DecisionCurveResult",
    "binary_test_probabilities",
    "decision_curve",
    "net_benefit",
]

#: the data of the examples: a sensitive binary test of 20 events in 100 rows
_doc = with_pieces(
    {
        "sensitive_test": """\
>>> import numpy as np
>>> y = np.r_[np.ones(20), np.zeros(80)]
>>> sensitive = np.r_[np.ones(19), np.zeros(1), np.ones(40), np.zeros(40)]""",
    }
)


# --------------------------------------------------------------------------- public
@backends(
    dask="skbrier._backends._dask._adapters:net_benefit",
    array_api="skbrier._backends._array_api:net_benefit",
)
def net_benefit(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    threshold: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    prevalence: float | None = None,
) -> float:
    r"""Net benefit of treating the samples whose probability is >= ``threshold``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_proba : array-like of shape (n_samples,)
        Predicted probability of ``pos_label``.  A binary test is passed as
        0/1 (positive test = 1): for every threshold in (0, 1) exactly the
        test positives are treated.  Its :func:`binary_test_probabilities`
        give the same net benefit only for ``1 - NPV < threshold <= PPV``.
    threshold : float
        Threshold probability :math:`p_t`, strictly between 0 and 1.  A
        sample is classified positive ("treat") when
        ``y_proba >= threshold``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The label of events.  If None: 1 for labels in {0, 1} or {-1, 1},
        else the larger numeric label; string labels need it.
    prevalence : float, default=None
        Prevalence of events in the target population, strictly between 0
        and 1, for case-control samples where the sample event rate is set
        by design.  If None, the (weighted) sample event rate is used.

    Returns
    -------
    float
        The net benefit, in "true positives per patient" units: at most the
        prevalence (perfect classification), 0 for treating nobody.

    Raises
    ------
    ValueError
        If ``threshold`` or ``prevalence`` is not strictly between 0 and 1,
        ``y_proba`` holds NaN, infinity or values outside [0, 1],
        ``y_true`` is not binary or contains no events, or the inputs have
        different lengths.

    See Also
    --------
    decision_curve : Net benefit at many thresholds at once.
    skbrier.plotting.decision_curve.DecisionCurveDisplay : Plot decision curves.

    Notes
    -----
    With weights :math:`w_i`, :math:`W = \sum_i w_i`, true positives
    :math:`TP = \sum_i w_i y_i [p_i \ge p_t]` and false positives
    :math:`FP = \sum_i w_i (1 - y_i) [p_i \ge p_t]`,

    .. math::

        \mathrm{NB}(p_t) = \frac{TP}{W} - \frac{FP}{W} \, \frac{p_t}{1 - p_t}.

    With a given prevalence :math:`\pi` the sensitivity and false positive
    rate are reweighted: :math:`\mathrm{NB} = \pi \, \mathrm{TPR} - (1 - \pi)
    \, \mathrm{FPR} \, p_t / (1 - p_t)` (identical to the first formula when
    :math:`\pi` is the sample event rate).  This is the estimator of
    ``dcurves.dca`` (Python) and ``dcurves::dca`` (R).

    References
    ----------
    .. [1] Vickers AJ, Elkin EB. Decision curve analysis: a novel method for
       evaluating prediction models. Med Decis Making 2006;26:565-574.
    .. [2] Assel M, Sjoberg DD, Vickers AJ. The Brier score does not evaluate
       the clinical utility of diagnostic tests or prediction models. Diagn
       Progn Res 2017;1:19.

    Examples
    --------
    A test with sensitivity 95 % and specificity 50 % at prevalence 20 %:

    >>> import numpy as np
    >>> from skbrier.metrics.net_benefit import net_benefit
    >>> y = np.r_[np.ones(20), np.zeros(80)]
    >>> test = np.r_[np.ones(19), np.zeros(1), np.ones(40), np.zeros(40)]
    >>> round(net_benefit(y, test, threshold=0.05), 4)
    0.1689
    """
    t = check_scalar_probability(threshold, name="threshold", open_interval=True)
    prev = check_prevalence(prevalence)
    y, p, w = check_binary_forecast(y_true, y_proba, sample_weight, pos_label)
    check_nonevents(y, w, prev)
    thresholds = np.array([t])
    sums = threshold_reduce(np, y, p, w, thresholds)
    return float(net_benefit_finish(sums, thresholds, prev)[0])


# --------------------------------------------------------------------------- curves
def _bootstrap_replicates(
    y: np.ndarray,
    probas: dict[str, np.ndarray],
    w: np.ndarray | None,
    thresholds: np.ndarray,
    prevalence: float | None,
    harm: dict[str, float],
    n_resamples: int,
    random_state: Any,
    n_jobs: int | None,
) -> dict[str, np.ndarray]:
    """Bootstrap net benefit of each model and of treat-all: ``{name: (B, T)}``.

    Rows are resampled iid (stratified by outcome when ``prevalence`` is
    given: a case-control sample keeps its numbers of cases and controls);
    zero-weight rows are removed first; other weights are frequencies.
    """
    if w is not None:
        keep = w > 0.0
        if not keep.all():
            y, w = y[keep], w[keep]
            probas = {k: v[keep] for k, v in probas.items()}
    n = y.shape[0]
    strata = (
        [np.arange(n)]
        if prevalence is None
        else [np.flatnonzero(y == 1.0), np.flatnonzero(y != 1.0)]
    )
    draws = None
    if w is not None:  # frequency weights: skbrier's one frequency resampler per stratum
        for s in strata:
            if w[s].sum() < 0.5:
                what = (
                    ""
                    if len(strata) == 1
                    else (" of the events" if y[s[0]] == 1.0 else " of the non-events")
                )
                raise ValueError(
                    f"sample_weight: the bootstrap treats weights as frequencies and "
                    f"draws round(total weight{what}) observations, none here (total "
                    f"{float(w[s].sum()):.4g}). Rescale the weights or use n_resamples=0."
                )
        draws = [frequency_resampler(w[s], s.shape[0]) for s in strata]
    statistic = bootstrap_net_benefit(y, probas, thresholds, prevalence, harm)

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        return statistic(bootstrap_counts(rng, n, size, strata, draws))

    # chunks as every other bootstrap of n rows: the same seed, the same draws
    reps = run_replicates(
        task,
        n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        chunk_size=chunk_size_for(n),
    )
    return {name: reps[:, j] for j, name in enumerate([*probas, "all"])}


def call_curve_options(
    c: Any,
) -> tuple[np.ndarray, float | None, int, float, int | None, Any]:
    """:func:`curve_options` of a backend adapter's call ``c`` (its
    ``thresholds``, ``prevalence``, ``n_resamples``, ``confidence_level``,
    ``n_jobs`` and ``random_state``)."""
    return curve_options(
        c.thresholds,
        c.prevalence,
        c.n_resamples,
        c.confidence_level,
        c.n_jobs,
        c.random_state,
    )


def curve_options(
    thresholds: Any,
    prevalence: Any,
    n_resamples: Any,
    confidence_level: Any,
    n_jobs: Any,
    random_state: Any,
) -> tuple[np.ndarray, float | None, int, float, int | None, Any]:
    """The checked options of :func:`decision_curve` (on every backend):
    ``(thresholds, prevalence, n_resamples, level, n_jobs, random_state)``."""
    t = (
        DEFAULT_THRESHOLDS.copy()
        if thresholds is None
        else _check_curve_thresholds(thresholds)
    )
    prev = check_prevalence(prevalence)
    n_resamples = check_n_resamples(n_resamples, allow_zero=True)
    level = check_confidence_level(confidence_level)
    n_jobs = check_n_jobs(n_jobs)
    validate_random_state(random_state)
    if n_resamples:
        random_state = check_random_state(random_state)
    return t, prev, n_resamples, level, n_jobs, random_state


@backends(
    dask="skbrier._backends._dask._adapters:decision_curve",
    array_api="skbrier._backends._array_api:decision_curve",
)
@_doc
def decision_curve(
    y_true: ArrayLike,
    y_proba: ArrayLike | Mapping[str, ArrayLike],
    *,
    thresholds: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    prevalence: float | None = None,
    pos_label: Any = None,
    n_resamples: int = 0,
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
    random_state: int | np.random.Generator | np.random.RandomState | None = None,
    harm: float | Mapping[str, float] | None = None,
    n_jobs: int | None = None,
) -> DecisionCurveResult:
    r"""Decision curve: net benefit at many threshold probabilities at once.

    The probabilities of each class are sorted once and every threshold is
    located with a binary search, so the cost is :math:`O(n \log n + T \log n)`
    for :math:`n` samples and :math:`T` thresholds (``dcurves.dca`` rescans the
    data at every threshold).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_proba : array-like of shape (n_samples,) or dict of str to array-like
        Predicted probabilities of ``pos_label``, or ``{name: probabilities}``
        (or a pandas DataFrame, one model per column) to compare several
        models on the same outcomes.  Binary tests are passed as 0/1.  The
        names ``"all"`` and ``"none"`` are reserved.
    thresholds : array-like of shape (n_thresholds,), default=None
        Threshold probabilities in [0, 1), in any order.  0 is allowed, as
        in ``dcurves`` (everyone is treated: the net benefit is the
        prevalence, net interventions avoided is undefined).
        Default: 0.01, 0.02, ..., 0.99.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    prevalence : float, default=None
        Population prevalence for case-control samples (see
        :func:`net_benefit`).  If None, the weighted sample event rate.
    pos_label : int, float, bool or str, default=None
        The label of events (see :func:`net_benefit`).
    n_resamples : int, default=0
        Number of bootstrap resamples for pointwise confidence bands of the
        net benefit (0: no bands; otherwise at least 2).  Rows are resampled
        iid by skbrier's resampling engine; with ``prevalence`` given, events
        and non-events are resampled separately (case-control design).
        Weights are frequencies (see Notes).
    confidence_level : float, default=0.95
        Confidence level of the result's ``bands`` (its
        ``confidence_interval`` takes any level).
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seed of the bootstrap (the same seed gives the same bands for every
        ``n_jobs``).
    harm : float or dict of str to float, default=None
        Harm of using a model (the burden of the test itself, in net-benefit
        units), subtracted from its net benefit at every threshold, as in
        ``dcurves.dca``; a dict gives it per model (missing models: 0). At least 0.
    n_jobs : int, default=None
        Number of joblib threads for the bootstrap (None: 1; -1: all CPUs).

    Returns
    -------
    DecisionCurveResult
        Net benefit per threshold (per model), treat-all and treat-none
        curves, standardized net benefit, net interventions avoided and the
        optional bands; ``to_frame()`` gives a tidy table.

    Raises
    ------
    ValueError
        If a threshold is not strictly between 0 and 1 or ``thresholds`` is
        not 1-D, ``y_proba`` holds NaN, infinity or values outside [0, 1],
        ``y_true`` is not binary or has no events, the lengths differ,
        ``n_resamples`` is 1 or negative, or (with ``n_resamples > 0``) the
        total weight rounds to 0 observations.
    TypeError
        For an option of the wrong type (``n_resamples=1.5``, ``harm="0.1"``,
        ``random_state="x"``).

    See Also
    --------
    net_benefit : Net benefit at one threshold.
    skbrier.plotting.decision_curve.DecisionCurveDisplay : Plot the curves.

    Notes
    -----
    At threshold :math:`p_t`, with weighted true and false positives
    :math:`TP(p_t)`, :math:`FP(p_t)` among samples with :math:`p_i \ge p_t`
    and total weight :math:`W`,

    .. math::

        \mathrm{NB}(p_t) = \frac{TP(p_t)}{W} - \frac{FP(p_t)}{W}\frac{p_t}{1 - p_t},
        \qquad
        \mathrm{NB}_{all}(p_t) = \pi - (1 - \pi)\frac{p_t}{1 - p_t}.

    Standardized net benefit is :math:`\mathrm{NB}/\pi`; net interventions
    avoided per 100 patients is :math:`100 (\mathrm{NB} - \mathrm{NB}_{all})
    (1 - p_t)/p_t`.  The values equal those of ``dcurves.dca`` (which moves
    exact 0 and 1 probabilities to :math:`-\epsilon` and :math:`1 + \epsilon`,
    a no-op for thresholds in (0, 1); at threshold 0 it therefore leaves
    forecasts of exactly 0 untreated, where skbrier treats every
    :math:`p \ge 0`; dcurves also accepts threshold 1, where it returns NaN
    or -inf, which we reject).  Net interventions avoided is computed as
    :math:`100\,(TN/W - (FN/W + h)(1 - p_t)/p_t)` (harm :math:`h`), the same
    quantity without the cancellation of :math:`\mathrm{NB} - \mathrm{NB}_{all}`
    at thresholds near 0; where the true value is beyond the float range
    (a threshold within about 1e-308 of 0) it is ``-inf``.

    Bootstrap: ``sample_weight`` holds frequency weights, as everywhere in
    skbrier.  Zero-weight rows are removed (the same bands as without them);
    the resamples are drawn by
    :func:`~skbrier._core.resampling.frequency_resampler` (per outcome class
    with ``prevalence``): integer weights give the resamples of the repeated
    rows exactly (unit weights: the draws without weights); other weights
    draw ``round(W)`` observations from the rows with probabilities
    :math:`w_i / W` (a multinomial, the same law).  A total weight (of a
    class, with ``prevalence``) that rounds to 0 observations is refused with
    ``n_resamples > 0``.  The bands are pointwise percentile intervals
    (or basic ones, see :meth:`DecisionCurveResult.confidence_interval`) of
    numpy's linearly interpolated quantiles, as :func:`scipy.stats.bootstrap`.

    The area under the :math:`(1 - p_t)`-weighted decision curve is the Brier
    score: :math:`\mathrm{BS} = \pi - 2 \int_0^1 (1 - p_t)\,\mathrm{NB}(p_t)\,dp_t`.

    References
    ----------
    .. [1] Vickers AJ, Elkin EB. Decision curve analysis: a novel method for
       evaluating prediction models. Med Decis Making 2006;26:565-574.
    .. [2] Vickers AJ, van Calster B, Steyerberg EW. A simple, step-by-step
       guide to interpreting decision curve analysis. Diagn Progn Res
       2019;3:18.
    .. [3] Kerr KF, Brown MD, Zhu K, Janes H. Assessing the clinical impact of
       risk prediction models with decision curves: guidance for correct
       interpretation and appropriate use. J Clin Oncol 2016;34:2534-2540.

    Examples
    --------
    {{sensitive_test}}
    >>> from skbrier.metrics.net_benefit import decision_curve
    >>> specific = np.r_[np.ones(10), np.zeros(10), np.ones(4), np.zeros(76)]
    >>> res = decision_curve(y, {"sensitive": sensitive, "specific": specific},
    ...                      thresholds=[0.05, 0.1, 0.2])
    >>> res.net_benefit["sensitive"].round(4)
    array([0.1689, 0.1456, 0.09  ])
    >>> res.net_benefit["specific"].round(4)
    array([0.0979, 0.0956, 0.09  ])
    >>> res.treat_all.round(4)
    array([0.1579, 0.1111, 0.    ])
    """
    t, prev, n_resamples, level, n_jobs, random_state = curve_options(
        thresholds, prevalence, n_resamples, confidence_level, n_jobs, random_state
    )
    models, single = check_models(y_proba, y_true)
    y, w, probas = _check_model_probas(y_true, models, single, sample_weight, pos_label)
    check_nonevents(y, w, prev)
    harms = check_harm(harm, list(probas))
    if prev is None:
        prev_used = float(np.mean(y)) if w is None else float(w[y == 1.0].sum() / w.sum())
    else:
        prev_used = prev
    shares = {name: class_shares(y, p, w, t, prev) for name, p in probas.items()}
    reps = None
    if n_resamples:
        reps = _bootstrap_replicates(
            y, probas, w, t, prev, harms, n_resamples, random_state, n_jobs
        )
    n = int(y.shape[0]) if w is None else float(w.sum())
    return _curve_result(shares, t, prev_used, harms, single, level, n_resamples, reps, n)


def _curve_result(
    shares: dict,
    t: np.ndarray,
    prev_used: float,
    harms: dict[str, float],
    single: bool,
    level: float,
    n_resamples: int,
    reps: Any,
    n: float,
) -> DecisionCurveResult:
    """The :class:`DecisionCurveResult` of the class shares of every model
    (``_net_benefit_math.ClassShares``; in memory or merged from partitions)."""
    nb, nia, rates = {}, {}, {}
    for name, s in shares.items():
        nb[name], nia[name] = decision_finish(s, t, harms[name])
        rates[name] = np.vstack([s.tp, s.fp])
    return DecisionCurveResult(
        thresholds=t,
        prevalence=prev_used,
        net_benefit_by_model=nb,
        interventions_avoided_by_model=nia,
        harm=harms,
        single=single,
        n_resamples=n_resamples,
        confidence_level=level,
        bootstrap_replicates=reps,
        positive_rates_by_model=rates,
        n=n,
    )


def _state_curve(state: Any, prevalence: float | None, harm: Any, level: float) -> Any:
    """The :class:`DecisionCurveResult` (no resampling) of a merged
    :class:`~skbrier.states.ThresholdState` (the rows of a Dask or Spark
    input): its class shares, the prevalence used, ``harm`` checked."""
    shares = {name: state.shares(j, prevalence) for j, name in enumerate(state.models)}
    prev_used = state.prevalence() if prevalence is None else prevalence
    n = state.total_weight if state.weighted else state.n_samples
    harms = check_harm(harm, list(state.models))
    return _curve_result(
        shares, state.thresholds, prev_used, harms, state.single, level, 0, None, n
    )


def _check_curve_thresholds(thresholds: Any) -> np.ndarray:
    """Thresholds in [0, 1): 0 allowed (as in dcurves), 1 refused (NB undefined)."""
    t = check_thresholds(thresholds, open_unit=False)
    if t.max() >= 1.0:
        raise ValueError(
            "thresholds must lie in [0, 1): at threshold 1 net benefit is undefined "
            "(dcurves returns NaN or -inf there)."
        )
    return t


def _check_model_probas(
    y_true: Any,
    models: dict[str, Any],
    single: bool,
    sample_weight: Any,
    pos_label: Any,
) -> tuple[np.ndarray, np.ndarray | None, dict[str, np.ndarray]]:
    """Validate the outcomes and weights once and every model's probabilities."""
    y = w = None
    probas: dict[str, np.ndarray] = {}
    for name, proba in models.items():
        pname = "y_proba" if single else f"y_proba[{name!r}]"
        if y is None:
            y, p, w = check_binary_forecast(
                y_true, proba, sample_weight, pos_label, proba_name=pname
            )
        else:
            p = check_probabilities(proba, name=pname, warn_hard=False)  # tests: 0/1
            if p.ndim != 1 or p.shape[0] != y.shape[0]:
                raise ValueError(
                    f"{pname} has shape {p.shape} but y_true has {y.shape[0]} samples; "
                    "every model needs one probability per sample."
                )
        probas[name] = p
    if y is None:  # check_models refuses an empty dict
        raise ValueError("y_proba is an empty dict: give at least one model.")
    return y, w, probas


# --------------------------------------------------------------------------- binary tests
#: the arrays of binary_test_probabilities and its refusal of Dask input
_TEST_ARRAYS = ("y_true", "y_test", "sample_weight")
_PER_ROW = Refused(
    "it returns one probability per row, read from the event rates of all "
    "rows held in memory; compute it on the collected rows (e.g. ddf.compute())"
)


@backends(arrays=_TEST_ARRAYS, namespace_of="y_test", dask=_PER_ROW, array_api=HOST)
@_doc
def binary_test_probabilities(
    y_true: ArrayLike,
    y_test: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    prevalence: float | None = None,
) -> np.ndarray:
    r"""Turn a binary test into probabilities: PPV if positive, 1 - NPV if negative.

    This is "method 2" of Assel et al. (2017) for the Brier score of a binary
    test; "method 1" uses the 0/1 results themselves as probabilities.
    Method 2 is the recalibration of method 1: its Brier score is never
    larger.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_test : array-like of shape (n_samples,)
        Test results coded 0/1 or False/True (1 = positive test).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The label of events (see :func:`net_benefit`).
    prevalence : float, default=None
        Population prevalence for case-control samples: the predictive values
        are computed by Bayes' rule from the sensitivity and specificity.  If
        None, from the sample itself.

    Returns
    -------
    ndarray of shape (n_samples,)
        The positive predictive value for test positives and one minus the
        negative predictive value for test negatives.

    Raises
    ------
    ValueError
        If ``y_test`` holds values other than 0 and 1, ``y_true`` is not
        binary, the lengths differ, or ``prevalence`` is given but a class
        is absent.

    See Also
    --------
    skbrier.metrics.brier.brier_score : Brier score of the result.
    net_benefit : Net benefit of the test (pass ``y_test`` itself).

    Notes
    -----
    With :math:`T` the test and :math:`D` the outcome,
    :math:`\mathrm{PPV} = P(D = 1 \mid T = 1)` and
    :math:`1 - \mathrm{NPV} = P(D = 1 \mid T = 0)`.  Given a prevalence
    :math:`\pi`, sensitivity :math:`s` and false positive rate :math:`f`:
    :math:`\mathrm{PPV} = s\pi / (s\pi + f(1 - \pi))` and
    :math:`1 - \mathrm{NPV} = (1 - s)\pi / ((1 - s)\pi + (1 - f)(1 - \pi))`.

    References
    ----------
    .. [1] Assel M, Sjoberg DD, Vickers AJ. The Brier score does not evaluate
       the clinical utility of diagnostic tests or prediction models. Diagn
       Progn Res 2017;1:19.

    Examples
    --------
    {{sensitive_test}}
    >>> from skbrier.metrics.net_benefit import binary_test_probabilities
    >>> p = binary_test_probabilities(y, sensitive)
    >>> float(p[0]), float(p[19])  # PPV = 19/59, 1 - NPV = 1/41
    (0.3220..., 0.0243...)
    """
    prev = check_prevalence(prevalence)
    tst = check_probabilities(y_test, name="y_test", allow_2d=False, warn_hard=False)
    if np.count_nonzero((tst != 0.0) & (tst != 1.0)):
        raise ValueError(
            "y_test must hold binary test results coded 0/1 (or False/True); found "
            f"values {np.unique(tst[(tst != 0.0) & (tst != 1.0)])[:5].tolist()}."
        )
    n = tst.shape[0]
    y = binary_target(y_true, pos_label, n)
    w = check_sample_weight(sample_weight, n)
    ww = np.ones(n) if w is None else w
    pos = tst == 1.0
    wy = ww * y
    tp = float(wy[pos].sum())
    fn = float(wy[~pos].sum())
    fp = float(ww[pos].sum()) - tp
    tn = float(ww[~pos].sum()) - fn
    if prev is None:
        ppv = tp / (tp + fp) if tp + fp > 0 else 0.0
        one_minus_npv = fn / (fn + tn) if fn + tn > 0 else 0.0
    else:
        if not (tp + fn > 0 and fp + tn > 0):
            raise ValueError(
                "y_true must contain events and non-events when prevalence is given."
            )
        sens = tp / (tp + fn)
        fpr = fp / (fp + tn)
        a = sens * prev + fpr * (1.0 - prev)
        b = (1.0 - sens) * prev + (1.0 - fpr) * (1.0 - prev)
        ppv = sens * prev / a if a > 0 else 0.0
        one_minus_npv = (1.0 - sens) * prev / b if b > 0 else 0.0
    return np.where(pos, ppv, one_minus_npv)
