r"""Models compared for decisions: paired net-benefit differences, usefulness, EVPI.

Every number here is read off one bootstrap of
:func:`~skbrier.decision_curve`: its resamples are drawn once for the rows,
so each model (and treat-all) is evaluated on the same resampled patients,
and a difference of two models' replicates is a paired replicate of their
difference.  From the replicates :math:`\mathrm{NB}_d^{(b)}` of the
strategies :math:`d` in {treat none, treat all, each model}:

* the difference :math:`\mathrm{NB}_{ref} - \mathrm{NB}_m` with its
  percentile (or basic) interval at every threshold;
* the probability that a model is useful,
  :math:`P(\mathrm{NB}_m > \max(0, \mathrm{NB}_{all}))`, and that each
  strategy is the best;
* the expected value of perfect information for validation,
  :math:`\mathrm{EVPI} = E[\max_d \mathrm{NB}_d] - \max_d E[\mathrm{NB}_d]`
  (Sadatsafavi et al. 2023; predtools' ``evpi_val``).

The probabilities are those of the bootstrap distribution -- frequentist
counterparts of bayesDCA's posterior probabilities, not posterior
probabilities.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike

from .._core.dispatch import HOST, Refused, backends
from .._core.format import format_number
from .._core.optional import import_optional
from .._core.params import (
    DEFAULT_N_RESAMPLES,
    check_n_resamples,
)
from .._core.resampling import interval_from_replicates
from .._core.results import ConfidenceInterval, _ModelIntervalResult, to_builtin
from ..metrics.net_benefit import DecisionCurveResult, decision_curve

__all__ = ["NetBenefitComparisonResult", "compare_net_benefit"]


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class NetBenefitComparisonResult(_ModelIntervalResult):
    r"""Models compared for decisions on the same patients, at every threshold.

    ``confidence_interval(model=...)`` is the pointwise interval (arrays over
    the thresholds) of the paired difference ``NB[reference] - NB[model]``,
    ``metric="net_benefit"`` (its only one; on a comparison it means the
    difference): ``method="percentile"`` (the default) interval of the
    paired replicates, or the ``"basic"`` one around the difference.
    ``model`` may be omitted with two models; a single model has no
    difference (its band is ``curve.confidence_interval()``).

    Attributes
    ----------
    curve : DecisionCurveResult
        The decision curve of every model with its bootstrap (the
        replicates of every model and of treat-all on the same resamples).
    reference : str or None
        The model the others are compared with (None: a single model).
    difference : dict of str to ndarray
        ``NB[reference] - NB[model]`` at every threshold, per other model.
    p_useful : dict of str to ndarray
        Per model, the share of bootstrap replicates in which its net
        benefit exceeds both treating none and treating all.
    p_best : dict of str to ndarray
        Per strategy (the models, ``"all"`` and ``"none"``), the share of
        replicates in which it has the largest net benefit (ties shared).
    expected_net_benefit : dict of str to ndarray
        :math:`E[\mathrm{NB}_d]`, the bootstrap mean of each strategy.
    enb_perfect : ndarray
        :math:`E[\max_d \mathrm{NB}_d]`, the expected net benefit with
        perfect information.
    enb_current : ndarray
        :math:`\max_d E[\mathrm{NB}_d]`, with current information.
    evpi : ndarray
        ``enb_perfect - enb_current`` (never negative): what the
        uncertainty of the validation costs, in net true positives per
        patient.
    n_resamples : int
        The bootstrap resamples.
    confidence_level : float
        The default level of the intervals.
    thresholds : ndarray
        The thresholds (those of ``curve``).

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> from skbrier.validation import compare_net_benefit
    >>> d = load_forecasts()
    >>> forecasts = {"a": d["model_a"], "b": d["model_b"]}
    >>> res = compare_net_benefit(d["y"], forecasts, thresholds=[0.2, 0.4],
    ...                           n_resamples=100, random_state=0)
    >>> res.reference, res.p_useful["b"]
    ('a', array([1., 0.]))
    >>> low, high = res.confidence_interval(0.9)  # NB[a] - NB[b], 90%
    >>> bool((low < res.difference["b"]).all() and (res.difference["b"] < high).all())
    True
    """

    curve: DecisionCurveResult
    reference: str | None
    difference: dict
    p_useful: dict
    p_best: dict
    expected_net_benefit: dict
    enb_perfect: np.ndarray
    enb_current: np.ndarray
    evpi: np.ndarray
    n_resamples: int
    confidence_level: float = 0.95

    _interval_metrics: ClassVar[tuple[str, ...]] = ("net_benefit",)

    @property
    def thresholds(self) -> np.ndarray:
        return self.curve.thresholds

    def _headline(self) -> dict[str, Any]:
        return {
            "models": self.curve.model_names,
            "reference": self.reference,
            "n_thresholds": int(self.thresholds.shape[0]),
            "n_resamples": self.n_resamples,
        }

    def _summary_rows(self) -> list[tuple[str, str]]:
        t = self.thresholds
        rows = super()._summary_rows()
        k = int(np.argmax(self.evpi))
        rows.append(("max EVPI", f"{format_number(self.evpi[k])} at {format_number(t[k])}"))
        for name, p in self.p_useful.items():
            rows.append((f"P(useful) [{name}]", _range(p, t)))
        for name, d in self.difference.items():
            rows.append((f"NB[{self.reference}] - NB[{name}]", _range(d, t)))
        return rows

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values (the curve without its replicates)."""
        out = super().to_dict()  # the curve by its own to_dict
        out["thresholds"] = to_builtin(self.thresholds)
        return out

    def to_frame(self) -> Any:
        """One row per threshold and strategy (pandas): net benefit, its
        bootstrap mean, P(best), P(useful), the difference from the reference
        with its interval, and the EVPI."""
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        t = self.thresholds
        frames = []
        for name in [*self.curve.model_names, "all", "none"]:
            nb = (
                self.curve.net_benefit_by_model[name]
                if name in self.curve.net_benefit_by_model
                else (self.curve.treat_all if name == "all" else self.curve.treat_none)
            )
            cols: dict[str, Any] = {
                "model": name,
                "threshold": t,
                "net_benefit": nb,
                "expected_net_benefit": self.expected_net_benefit[name],
                "p_best": self.p_best[name],
                "p_useful": self.p_useful.get(name, np.full_like(t, np.nan)),
            }
            if name in self.difference:
                lo, hi = self.confidence_interval(self.confidence_level, model=name)
                cols["difference"] = self.difference[name]
                cols["difference_low"], cols["difference_high"] = lo, hi
            cols["evpi"] = self.evpi
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)

    def _interval(
        self, metric: str, level: float, method: str, model: Any = None
    ) -> ConfidenceInterval:
        others = list(self.difference)
        if not others:
            raise ValueError(
                "this comparison holds one model: there is no difference; its net "
                "benefit band is curve.confidence_interval()."
            )
        model = self._model_named(model, others, f"models compared with {self.reference!r}")
        reps = self.curve.bootstrap_replicates
        assert reps is not None and self.reference is not None
        return interval_from_replicates(
            reps[self.reference] - reps[model],
            level,
            method=method,
            estimate=self.difference[model],
        )


def _range(values: np.ndarray, t: np.ndarray) -> str:
    lo, hi = int(np.argmin(values)), int(np.argmax(values))
    return (
        f"{format_number(values[lo])} (at {format_number(t[lo])}) to "
        f"{format_number(values[hi])} (at {format_number(t[hi])})"
    )


@backends(
    dask=Refused(
        "the paired bootstrap of the differences resamples rows in memory; compute "
        "it on the collected rows (e.g. ddf.compute()) or on a uniform subsample"
    ),
    array_api=HOST,
)
def compare_net_benefit(
    y_true: ArrayLike,
    y_proba: ArrayLike | Mapping[str, ArrayLike],
    *,
    thresholds: ArrayLike | None = None,
    reference: str | None = None,
    sample_weight: ArrayLike | None = None,
    prevalence: float | None = None,
    pos_label: Any = None,
    n_resamples: int = DEFAULT_N_RESAMPLES,
    confidence_level: float = 0.95,
    random_state: Any = None,
    harm: float | Mapping[str, float] | None = None,
    n_jobs: int | None = None,
) -> NetBenefitComparisonResult:
    r"""Compare models for decisions: paired NB differences, P(useful) and EVPI.

    One bootstrap of :func:`~skbrier.decision_curve` (``n_resamples``
    resamples of the rows, every model and treat-all evaluated on each)
    gives, at every threshold,

    * the paired difference :math:`\mathrm{NB}_{ref} - \mathrm{NB}_m` of the
      reference and each other model, with a percentile interval
      (:meth:`skbrier.results.NetBenefitComparisonResult.confidence_interval`);
    * :math:`P(\text{useful}) = P^*(\mathrm{NB}_m > \max(0, \mathrm{NB}_{all}))`
      and the probability that each strategy is the best;
    * the expected value of perfect information for validation,
      :math:`E^*[\max_d \mathrm{NB}_d] - \max_d E^*[\mathrm{NB}_d]` over
      treat none, treat all and the models,

    where :math:`P^*` and :math:`E^*` are over the bootstrap distribution.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_proba : array-like of shape (n_samples,) or dict of str to array-like
        One model's predicted probabilities, or ``{name: probabilities}``
        (or a DataFrame, a model per column) for models on the same patients.
    thresholds : array-like of shape (n_thresholds,), default=None
        Thresholds in [0, 1) (default 0.01, ..., 0.99).
    reference : str, default=None
        The model the others are compared with (default: the first).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    prevalence : float, default=None
        Population prevalence of a case-control sample (events and
        non-events are then resampled separately).
    pos_label : int, float, bool or str, default=None
        The positive class.
    n_resamples : int, default=1999
        Bootstrap resamples (at least 2).
    confidence_level : float, default=0.95
        The default level of the intervals.
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seed of the bootstrap (the same seed as :func:`~skbrier.decision_curve`
        gives the same resamples).
    harm : float or dict of str to float, default=None
        Harm of using a model, subtracted from its net benefit.
    n_jobs : int, default=None
        Joblib threads of the bootstrap (the result does not depend on it).

    Returns
    -------
    NetBenefitComparisonResult

    Raises
    ------
    ValueError
        An unknown ``reference``, ``n_resamples`` below 2, or the input
        errors of :func:`~skbrier.decision_curve`.

    See Also
    --------
    skbrier.decision_curve : The curves and their bands.
    skbrier.compare_brier : The paired comparison of two forecasters' Brier scores.

    Notes
    -----
    With one model the EVPI and P(useful) are those of predtools'
    ``evpi_val(Y, pi, method = "bootstrap")`` on the same resamples (its
    ``EVPIv``, ``ENB_perfect``, ``ENB_current``, ``ENB_model`` and
    ``ENB_all``; skbrier treats :math:`p \ge t`, predtools :math:`p > t`).
    predtools' ``p_useful`` counts a model whose net benefit ties the best
    strategy (for instance 0 when it treats nobody) as useful; here it must
    beat both default strategies, as in bayesDCA.  The bootstrap is
    Efron's, not the Bayesian bootstrap (predtools' ``"bayesian_bootstrap"``)
    nor bayesDCA's posterior: the probabilities describe how the estimates
    vary over resamples of the validation sample, and the EVPI is the
    expected gain in net benefit if the true net benefits were known
    (Sadatsafavi et al. 2023).

    References
    ----------
    .. [1] M. Sadatsafavi, T. Y. Lee, L. Wynants, A. J. Vickers and P.
       Gustafson, "Value-of-information analysis for external validation of
       risk prediction models", Med Decis Making 43, 564-575, 2023.
    .. [2] G. N. F. Cruz, bayesDCA: Bayesian decision curve analysis (R
       package), https://github.com/giulianonetto/bayesdca.
    .. [3] A. J. Vickers, A. M. Cronin, E. B. Elkin and M. Gonen, "Extensions
       to decision curve analysis", BMC Med Inform Decis Mak 8, 53, 2008.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.validation import compare_net_benefit
    >>> rng = np.random.default_rng(0)
    >>> risk = rng.uniform(0.02, 0.6, 400)
    >>> y = rng.uniform(size=400) < risk
    >>> res = compare_net_benefit(y, {"new": risk, "old": np.sqrt(risk) * 0.7},
    ...                           thresholds=[0.1, 0.2, 0.3], n_resamples=500,
    ...                           random_state=0)
    >>> res.difference["old"].round(3)
    array([0.009, 0.018, 0.026])
    >>> res.p_useful["old"]
    array([0.612, 1.   , 1.   ])
    """
    n_resamples = check_n_resamples(n_resamples)
    curve = decision_curve(
        y_true,
        y_proba,
        thresholds=thresholds,
        sample_weight=sample_weight,
        prevalence=prevalence,
        pos_label=pos_label,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        random_state=random_state,
        harm=harm,
        n_jobs=n_jobs,
    )
    names = curve.model_names
    if reference is None:
        reference = names[0]
    elif not isinstance(reference, str) or reference not in names:
        raise ValueError(f"reference must be one of the models {names}, got {reference!r}.")
    reps = curve.bootstrap_replicates
    assert reps is not None
    none = np.zeros_like(reps["all"])
    strategies = {**{m: reps[m] for m in names}, "all": reps["all"], "none": none}
    stack = np.stack(list(strategies.values()))  # (strategies, B, T)
    best = stack.max(axis=0)
    expected = {k: v.mean(axis=0) for k, v in strategies.items()}
    enb_perfect = best.mean(axis=0)
    enb_current = np.max(np.stack(list(expected.values())), axis=0)
    ties = (stack == best).sum(axis=0)
    p_best = {k: ((v == best) / ties).mean(axis=0) for k, v in strategies.items()}
    p_useful = {m: (reps[m] > np.maximum(reps["all"], 0.0)).mean(axis=0) for m in names}
    nb = curve.net_benefit_by_model
    difference = {m: nb[reference] - nb[m] for m in names if m != reference}
    return NetBenefitComparisonResult(
        curve=curve,
        reference=reference if len(names) > 1 else None,
        difference=difference,
        p_useful=p_useful,
        p_best=p_best,
        expected_net_benefit=expected,
        enb_perfect=enb_perfect,
        enb_current=enb_current,
        evpi=np.maximum(enb_perfect - enb_current, 0.0),
        n_resamples=n_resamples,
        confidence_level=curve.confidence_level,
    )
