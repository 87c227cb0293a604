"""Index of prediction accuracy (per horizon and integrated) and paired comparisons."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import norm
from sklearn.exceptions import UndefinedMetricWarning

from .._core.format import format_number
from .._core.kernels.brier import skill_score
from .._core.params import (
    check_bool,
    check_min_samples,
    check_n_jobs,
    check_n_resamples,
    validate_random_state,
)
from .._core.resampling import chunk_size_for, frequency_resampler, run_replicates
from . import _survival_math as sm
from ._checks import SurvivalData
from ._prepare import (
    Convention,
    brier_only,
    censoring_weights,
    check_convention,
    check_integration,
    declare_survival,
    integration_weights,
    null_survival,
    prepare,
)
from ._results import SurvivalComparisonResult, SurvivalIPAResult

__all__ = ["compare_brier_survival", "index_of_prediction_accuracy"]


def _check_inference(
    convention: Any,
    train_event: Any,
    train_time: Any,
    conservative: Any,
    n_resamples: Any,
    random_state: Any,
    n_jobs: Any,
) -> tuple[Convention, bool, int, int | None]:
    """The checked convention, ``conservative``, resamples and threads of the
    functions with standard errors and a bootstrap."""
    conv = check_convention(convention, train_event, train_time)
    cons = check_bool(conservative, "conservative")
    n_res = check_n_resamples(n_resamples, allow_zero=True)
    validate_random_state(random_state)
    return conv, cons, n_res, check_n_jobs(n_jobs)


def _influences(
    data: SurvivalData,
    mats: list[np.ndarray],
    times: np.ndarray,
    conv: Convention,
    conservative: bool,
    weighted: bool,
    combos: np.ndarray | None = None,
) -> sm.InfluenceMoments:
    """Brier scores and influence-function moments of the matrices (riskRegression's).

    The censoring term enters only when the censoring model is fitted on the
    scored data (riskRegression's convention, not ``conservative``); a model
    fitted on training data is held fixed.  Standard errors count
    observations: at least 3 rows, or a total frequency weight of 3
    (``weighted``).
    """
    check_min_samples(
        data.time.shape[0],
        float(data.weight.sum()) if weighted else None,
        purpose="standard errors of the Brier scores",
        name="y_time",
    )
    g_sub, g_hor = censoring_weights(data, times, conv)
    residuals = [
        sm.brier_residuals(data.time, data.event, s, times, g_sub, g_hor) for s in mats
    ]
    return sm.brier_influence_moments(
        data.time,
        data.event,
        data.weight,
        residuals,
        times,
        censoring_term=not conservative and conv.train is None,
        combos=combos,
    )


def _bootstrap(
    data: SurvivalData,
    mats: list[np.ndarray],
    times: np.ndarray,
    conv: Convention,
    statistic: Callable[[list[np.ndarray]], np.ndarray],
    n_resamples: int,
    random_state: Any,
    n_jobs: int | None,
    desc: str,
    weighted: bool,
) -> np.ndarray:
    """Replicates of ``statistic(briers, null)`` over iid resamples of subjects.

    Each resample refits the null Kaplan--Meier and, in riskRegression's
    convention, the censoring model (frequency weights = the resample's
    multiplicities); a censoring model fitted on training data stays fixed.
    With frequency weights (``weighted``) the resample draws observations as
    the repeated rows do (:func:`~skbrier._core.resampling.frequency_resampler`).
    """
    n = data.time.shape[0]
    draw = frequency_resampler(data.weight if weighted else None, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        shape = np.shape(statistic([np.ones_like(times)] * (len(mats) + 1)))

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        out = []
        for _ in range(size):
            boot = SurvivalData(data.time, data.event, draw(rng))
            try:
                g_sub, g_hor = censoring_weights(boot, times, conv)
            except ValueError:
                out.append(np.full(shape, np.nan))
                continue
            null = np.broadcast_to(null_survival(boot, times), (n, times.shape[0]))
            bss = [brier_only(boot, s, times, g_sub, g_hor) for s in [*mats, null]]
            with np.errstate(divide="ignore", invalid="ignore"):
                out.append(statistic(bss))
        return np.asarray(out)

    return run_replicates(
        task,
        n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        chunk_size=max(1, min(16, chunk_size_for(n * times.shape[0]))),
        desc=desc,
    )


def _ipa(brier: np.ndarray, brier_null: np.ndarray) -> np.ndarray:
    """``1 - brier / brier_null`` elementwise: NaN where the null model's
    Brier score is 0 (:func:`~skbrier._core.kernels.brier.skill_score`)."""
    return np.array([skill_score(m, z) for m, z in zip(brier, brier_null)])


def _warn_undefined_ipa(
    times: np.ndarray, brier_null: np.ndarray, integrated: bool
) -> None:
    """Warn of the IPAs that are NaN because the null model's Brier score is 0.

    ``brier_null`` holds the horizons' scores and, last, the integrated one
    (used when ``integrated``).
    """
    zero = brier_null[: times.shape[0]] == 0.0
    whole = integrated and brier_null[-1] == 0.0
    if not (zero.any() or whole):
        return
    where = "[" + ", ".join(format_number(float(v)) for v in times[zero]) + "]"
    what = f"at times {where}" + (" and integrated" if whole else "")
    warnings.warn(
        f"the IPA is undefined (nan) {what}: the null model (marginal Kaplan--Meier) "
        "has a Brier score of 0 there (no event up to the horizon, or a survival of 0 "
        "at it), so no skill can be measured against it; choose horizons after the "
        "first event and before the Kaplan--Meier curve reaches 0.",
        UndefinedMetricWarning,
        stacklevel=3,
    )


@declare_survival()
def index_of_prediction_accuracy(
    y_event: Any,
    y_time: Any = None,
    surv_proba: Any = None,
    times: Any = None,
    *,
    convention: str = "riskRegression",
    integration: str | None = None,
    train_event: Any = None,
    train_time: Any = None,
    conservative: bool = False,
    sample_weight: Any = None,
    n_resamples: int = 0,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> SurvivalIPAResult:
    r"""Index of prediction accuracy per horizon and integrated, with standard errors.

    .. math:: IPA(t) = 1 - \frac{BS_{model}(t)}{BS_{null}(t)}, \qquad
              IPA_{int} = 1 - \frac{IBS_{model}}{IBS_{null}}

    with the null model the marginal Kaplan--Meier estimate of the scored
    data (riskRegression's ``null.model``), the Brier scores of
    :func:`brier_score_survival` and the integrated Brier scores of
    :func:`integrated_brier_score` over the horizons (given two or more).
    In riskRegression's convention the integrated IPA is
    ``1 - IBS / IBS[model == "Null model"]`` of ``Score(..., summary =
    "ibs")`` at the last horizon.  Standard errors are riskRegression's
    (``Score(..., se.fit = TRUE)``): ``sd(IF) / sqrt(n)`` with the influence
    function of the IPCW Brier score including the Kaplan--Meier censoring
    term (its default ``conservative = FALSE``; ``conservative=True`` drops
    that term) and the predictions treated as fixed.  The IPA's standard
    errors follow by the delta method from the influence functions of both
    Brier scores; those of the integrated scores from the same linear
    combination of the horizons' influence functions (equal to what
    ``Score``'s ``vcov`` gives).  With ``convention="sksurv"`` the censoring
    model, fitted on the training outcome, is held fixed (no censoring term).
    With ``n_resamples > 0`` subjects are also resampled (refitting the null
    model, and the censoring model when it is fitted on the scored data) for
    bootstrap intervals.  At a horizon with no event up to it (or where the
    Kaplan--Meier curve is 0) the null model's Brier score is 0 and the IPA
    is undefined: NaN with an
    :class:`~sklearn.exceptions.UndefinedMetricWarning` (riskRegression
    reports ``-Inf``), as :func:`skbrier.brier_skill_score` does.

    Parameters
    ----------
    {{survival_inputs}}
    times : float or array-like of shape (n_times,)
        Horizons.
    {{survival_integration}}
    {{survival_inference}}

    Returns
    -------
    SurvivalIPAResult
        Per-horizon and integrated Brier scores, IPA and standard errors;
        its ``confidence_interval`` states the horizons or the time range.

    {{gerds_kattan_reference}}
    .. [2] Kattan, M. W. & Gerds, T. A. (2018). The index of prediction
       accuracy: an intuitive measure useful for evaluating risk prediction
       models. Diagnostic and Prognostic Research 2, 7.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.survival import index_of_prediction_accuracy
    >>> event = [1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
    >>> time = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 2.5, 9.0]
    >>> surv = np.array([[0.5, 0.3, 0.2], [0.9, 0.8, 0.7], [0.6, 0.4, 0.3],
    ...                  [0.8, 0.6, 0.4], [0.9, 0.8, 0.7], [0.9, 0.7, 0.5],
    ...                  [0.95, 0.9, 0.85], [0.8, 0.6, 0.5], [0.6, 0.4, 0.3],
    ...                  [0.95, 0.9, 0.8]])
    >>> res = index_of_prediction_accuracy(event, time, surv, [2, 4, 6])
    >>> np.round(res.ipa, 4)
    array([0.191 , 0.5109, 0.5024])
    >>> res
    SurvivalIPAResult(convention='riskRegression', times=[2, 4, 6], integrated over [0, 6]: ibs=0.0644, integrated_ipa=0.4252)
    >>> res.confidence_interval(0.95, metric="integrated_ipa")
    SurvivalInterval('integrated_ipa', 95%, [0, 6]: [0.1263, 0.7241])
    """
    conv, cons, n_res, jobs = _check_inference(
        convention, train_event, train_time, conservative, n_resamples, random_state, n_jobs
    )
    rule = check_integration(integration, conv)
    prep = prepare(y_event, y_time, [surv_proba], times, sample_weight=sample_weight)
    data, t = prep.data, prep.times
    n, n_t = data.time.shape[0], t.shape[0]
    null = np.broadcast_to(null_survival(data, t), (n, n_t))
    span: tuple[float, float] | None = None
    a = np.zeros(n_t)
    if n_t >= 2:
        a, span = integration_weights(t, rule)
    # one more column: the integrated scores, a @ BS, and their influence functions
    weighted = sample_weight is not None
    mom = _influences(data, [prep.surv[0], null], t, conv, cons, weighted, a[:, None])
    bm, b0 = mom.brier
    one, zero = np.ones_like(bm), np.zeros_like(bm)
    ipa = _ipa(bm, b0)
    _warn_undefined_ipa(t, b0, span is not None)
    with np.errstate(divide="ignore", invalid="ignore"):
        # delta method: IF_ipa = -IF_m / B_0 + B_m / B_0^2 IF_0
        se_ipa = mom.se(np.stack([-1.0 / b0, bm / (b0 * b0)]))
    se_bm, se_b0 = mom.se(np.stack([one, zero])), mom.se(np.stack([zero, one]))
    if span is None:  # one horizon: no integrated scores
        bm[-1] = b0[-1] = ipa[-1] = se_bm[-1] = se_b0[-1] = se_ipa[-1] = np.nan
    boot = None
    if n_res:

        def stat(bss: list[np.ndarray]) -> np.ndarray:
            ext = [np.append(b, a @ b if span else np.nan) for b in bss]
            # a resample with a null Brier score of 0 has no IPA: NaN, reported
            # by the interval, not an infinity that makes its quantiles NaN
            return np.stack([ext[0], _ipa(ext[0], ext[1])])

        boot = _bootstrap(
            data,
            [prep.surv[0]],
            t,
            conv,
            stat,
            n_res,
            random_state,
            jobs,
            "IPA bootstrap",
            weighted,
        )
    return SurvivalIPAResult(
        times=t,
        brier=bm[:n_t],
        brier_null=b0[:n_t],
        ipa=ipa[:n_t],
        se_brier=se_bm[:n_t],
        se_brier_null=se_b0[:n_t],
        se_ipa=se_ipa[:n_t],
        n=float(data.weight.sum()),
        convention=conv.name,
        integration=rule,
        time_range=span,
        ibs=float(bm[-1]),
        ibs_null=float(b0[-1]),
        integrated_ipa=float(ipa[-1]),
        se_ibs=float(se_bm[-1]),
        se_ibs_null=float(se_b0[-1]),
        se_integrated_ipa=float(se_ipa[-1]),
        bootstrap=boot,
    )


@declare_survival(
    (
        "y_event",
        "y_time",
        "surv_proba_a",
        "surv_proba_b",
        "train_event",
        "train_time",
        "sample_weight",
    ),
    namespace_of="surv_proba_a",
)
def compare_brier_survival(
    y_event: Any,
    y_time: Any = None,
    surv_proba_a: Any = None,
    surv_proba_b: Any = None,
    times: Any = None,
    *,
    convention: str = "riskRegression",
    train_event: Any = None,
    train_time: Any = None,
    conservative: bool = False,
    sample_weight: Any = None,
    n_resamples: int = 0,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> SurvivalComparisonResult:
    r"""Paired comparison of two models' IPCW Brier scores at each horizon.

    .. math:: D(t) = BS_a(t) - BS_b(t), \qquad
              se = \mathrm{sd}(IF_a - IF_b) / \sqrt{n}

    with the sign of :func:`skbrier.compare_brier` (first minus second:
    a positive ``difference`` favours model b), and the Wald p-value
    ``2 Phi(-|D| / se)`` of riskRegression's ``Score`` contrasts, whose
    ``delta.Brier`` (model b against reference a) is :math:`-D(t)`.  The
    influence functions are those of :func:`index_of_prediction_accuracy`.

    Parameters
    ----------
    y_event : array-like of shape (n_samples,)
        Event indicator or a structured array (see :func:`brier_score_survival`).
    y_time : array-like of shape (n_samples,)
        Observed times.
    surv_proba_a, surv_proba_b : array-like of shape (n_samples, n_times) or sequence of callables
        Predicted survival probabilities (or survival functions, e.g.
        ``estimator.predict_survival_function(X)``) of the first model a
        and of the second model b.
    times : float or array-like of shape (n_times,)
        Horizons: time points of the survival outcome.
    convention : {"riskRegression", "sksurv"}, default="riskRegression"
        Whose Brier score (see :func:`brier_score_survival`).
    {{survival_training}}
    {{survival_inference}}

    Returns
    -------
    SurvivalComparisonResult
        Per-horizon difference, standard error and p-value (NaN at a horizon
        where the two models predict the same for every subject).

    Raises
    ------
    ValueError
        When the two models' predictions are identical at every horizon.

    {{gerds_kattan_reference}}

    Examples
    --------
    {{eight_subjects}}
    >>> from skbrier.survival import compare_brier_survival
    >>> res = compare_brier_survival(event, time, surv[:, 1:], np.full((8, 1), 0.75), [3.5])
    >>> np.round(res.difference, 5)
    array([-0.09625])
    """
    conv, cons, n_res, jobs = _check_inference(
        convention, train_event, train_time, conservative, n_resamples, random_state, n_jobs
    )
    prep = prepare(
        y_event,
        y_time,
        [surv_proba_a, surv_proba_b],
        times,
        sample_weight=sample_weight,
        names=("surv_proba_a", "surv_proba_b"),
        estimator=False,
    )
    data, t = prep.data, prep.times
    if np.array_equal(prep.surv[0], prep.surv[1]):
        raise ValueError(
            "surv_proba_b is identical to surv_proba_a: their paired difference is 0 "
            "with no variance at every horizon, so no test is possible."
        )
    mom = _influences(data, prep.surv, t, conv, cons, sample_weight is not None)
    ba, bb = mom.brier
    difference = ba - bb
    se = mom.se(np.stack([np.ones_like(ba), -np.ones_like(ba)]))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2.0 * norm.sf(np.abs(difference) / se)
    boot = None
    if n_res:
        boot = _bootstrap(
            data,
            prep.surv,
            t,
            conv,
            lambda b: b[0] - b[1],
            n_res,
            random_state,
            jobs,
            "paired bootstrap",
            sample_weight is not None,
        )
    return SurvivalComparisonResult(
        times=t,
        brier_a=ba,
        brier_b=bb,
        difference=difference,
        se=se,
        p_value=p,
        n=float(data.weight.sum()),
        convention=conv.name,
        bootstrap=boot,
    )
