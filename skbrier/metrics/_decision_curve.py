"""Decision curves: the result object and the checks shared with :mod:`.net_benefit`.

:class:`DecisionCurveResult` is public as
``skbrier.metrics.net_benefit.DecisionCurveResult`` (re-exported there, next to
:func:`~skbrier.metrics.net_benefit.decision_curve`, which builds it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from .._core.kernels.net_benefit import (
    interventions_avoided,
    threshold_odds,
    treat_all_curve,
)
from .._core.optional import import_optional
from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    check_real,
)
from .._core.resampling import interval_from_replicates
from .._core.results import ConfidenceInterval, _ModelIntervalResult, format_number
from .._core.validation import (
    binary_target,
    check_probabilities,
    check_sample_weight,
    check_scalar_probability,
)

__all__ = ["DecisionCurveResult"]

#: thresholds used when ``thresholds=None``: 0.01, 0.02, ..., 0.99
DEFAULT_THRESHOLDS = np.arange(1, 100) / 100

#: names reserved for the default strategies in tables and bands
RESERVED = ("all", "none")


# --------------------------------------------------------------------------- checks
def check_binary_forecast(
    y_true: Any,
    y_proba: Any,
    sample_weight: Any,
    pos_label: Any,
    *,
    proba_name: str = "y_proba",
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validate one binary forecast; require at least one event.

    A binary test coded 0/1 is a valid input of net benefit: no
    :class:`~skbrier.exceptions.HardForecastWarning`.
    """
    p = check_probabilities(y_proba, name=proba_name, warn_hard=False)
    if p.ndim != 1:
        raise ValueError(
            f"{proba_name} must be 1-D (the probability of the positive class); got "
            f"shape {p.shape}. For predict_proba output pass predict_proba(X)[:, 1]."
        )
    n = p.shape[0]
    y = binary_target(y_true, pos_label, n)
    w = check_sample_weight(sample_weight, n)
    check_events(float(np.count_nonzero(y)) if w is None else float(w[y == 1.0].sum()), w)
    return y, p, w


def check_events(events: float, w: Any) -> None:
    """Net benefit needs events: ``events``, the weight (or count) of events."""
    if not events > 0.0:
        raise ValueError(
            "y_true contains no events (no sample of the positive class"
            + ("" if w is None else " with a positive sample_weight")
            + "): net benefit is undefined."
        )


def check_nonevents(y: np.ndarray, w: np.ndarray | None, prevalence: float | None) -> None:
    """With a prevalence the false positive rate needs non-events (of positive weight)."""
    if prevalence is None:
        return
    nonevent = y != 1.0
    if not (nonevent.any() if w is None else float(w[nonevent].sum()) > 0.0):
        raise ValueError(
            "y_true contains no non-events: with prevalence given, the false "
            "positive rate is undefined."
        )


def check_prevalence(prevalence: Any) -> float | None:
    """A prevalence strictly between 0 and 1, or None."""
    if prevalence is None:
        return None
    return check_scalar_probability(prevalence, name="prevalence", open_interval=True)


def check_forecast_frame(y_true: Any, y_proba: Any) -> None:
    """Refuse a DataFrame of forecasts that still holds the outcome column.

    dcurves takes the whole data frame (``dca(data=df, outcome="y", ...)``);
    passing ``decision_curve(df["y"], df)`` would score the outcome as a
    perfect forecast.  ``y_true`` named like a column of ``y_proba`` is that
    mistake.

    Parameters
    ----------
    y_true : array-like
        The outcome; only a pandas Series (or anything with a ``name``) is
        checked.
    y_proba : Any
        The forecasts; only a DataFrame (anything with ``columns``) is checked.

    Raises
    ------
    ValueError
        If ``y_proba`` has a column named like ``y_true``.
    """
    outcome = getattr(y_true, "name", None)
    columns = getattr(y_proba, "columns", None)
    if outcome is None or columns is None or isinstance(y_true, np.ndarray):
        return
    if any(str(c) == str(outcome) for c in columns):
        others = [str(c) for c in columns if str(c) != str(outcome)]
        raise ValueError(
            f"y_proba has a column {str(outcome)!r}, the name of y_true: the outcome "
            "would be scored as a forecast. Pass only the forecast columns, "
            f"y_proba=df[{others!r}]."
        )


def check_models(y_proba: Any, y_true: Any = None) -> tuple[dict[str, Any], bool]:
    """``{name: probabilities}`` and whether one array (not a dict) was given."""
    check_forecast_frame(y_true, y_proba)
    if hasattr(y_proba, "columns") and hasattr(y_proba, "to_numpy"):
        y_proba = {str(c): y_proba[c] for c in y_proba.columns}  # a DataFrame
    if not isinstance(y_proba, Mapping):
        return {"model": y_proba}, True
    if len(y_proba) == 0:
        raise ValueError("y_proba is an empty dict: give at least one model.")
    models = {}
    for name, value in y_proba.items():
        if not isinstance(name, str):
            raise TypeError(f"y_proba keys must be model names (str), got {name!r}.")
        if name in RESERVED:
            raise ValueError(
                f"y_proba key {name!r} is reserved for the treat-{name} strategy."
            )
        models[name] = value
    return models, False


def check_harm(harm: Any, names: list[str]) -> dict[str, float]:
    """Harm per model: a finite real number >= 0 (one for all) or a dict by
    model name (a negative harm, a gain from testing, would lift the net
    benefit above the prevalence)."""
    if harm is None:
        return dict.fromkeys(names, 0.0)
    if isinstance(harm, Mapping):
        unknown = [k for k in harm if k not in names]
        if unknown:
            raise ValueError(f"harm names unknown models {unknown}; models: {names}.")
        return {k: check_real(harm.get(k, 0.0), f"harm[{k!r}]", low=0.0) for k in names}
    return dict.fromkeys(names, check_real(harm, "harm", low=0.0))


# --------------------------------------------------------------------------- result
@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class DecisionCurveResult(_ModelIntervalResult):
    r"""Net benefit of one or several models over a grid of threshold probabilities.

    Returned by :func:`decision_curve`; not meant to be built by hand.  A
    frozen dataclass following the result protocol of skbrier
    (``to_dict``, ``to_frame``, ``summary``, ``confidence_interval``).
    ``confidence_interval(model=...)`` is the pointwise bootstrap band of a
    model's net benefit (``metric="net_benefit"``, the only quantity the
    bootstrap holds; arrays over the thresholds) at any level (:attr:`bands`
    uses ``confidence_level``): ``method="percentile"`` (the default), or
    the ``"basic"`` band reflected around the estimate.  ``model``: a model
    name or ``"all"`` for treat-all; it may be omitted with one model.

    Attributes
    ----------
    thresholds : ndarray of shape (n_thresholds,)
        Threshold probabilities :math:`p_t`, in the order given.
    prevalence : float
        Prevalence :math:`\pi` used: the one given, or the weighted sample
        event rate.
    net_benefit_by_model : dict of str to ndarray
        Net benefit of each model (harm subtracted), always as a dict.
    interventions_avoided_by_model : dict of str to ndarray
        Net interventions avoided per 100 patients of each model.
    harm : dict of str to float
        Harm subtracted from each model's net benefit.
    single : bool
        True when one probability array (not a dict) was given: the per-model
        properties are then arrays instead of dicts.
    n_resamples : int
        Number of bootstrap resamples behind the confidence bands (0: none).
    confidence_level : float
        Default confidence level of the bands.
    bootstrap_replicates : dict of str to ndarray of shape (n_resamples, n_thresholds) or None
        Bootstrap net benefit of each model and of ``"all"`` (treat all).
    positive_rates_by_model : dict of str to ndarray of shape (2, n_thresholds) or None
        True and false positives per patient of each model (dcurves'
        ``tp_rate`` and ``fp_rate``; with a ``prevalence``, reweighted to it).
    n : float or None
        Number of observations (the total weight with frequency weights).
    model_names : list of str
        Names of the models (``["model"]`` when one array was given).
    net_benefit : ndarray of shape (n_thresholds,) or dict of str to ndarray
        Net benefit of the model, or ``{name: net benefit}`` when
        ``y_proba`` was a dict.
    treat_all : ndarray of shape (n_thresholds,)
        Net benefit of treating everyone, :math:`\pi - (1 - \pi) p_t / (1 - p_t)`.
    treat_none : ndarray of shape (n_thresholds,)
        Net benefit of treating nobody (zeros).
    standardized_net_benefit : ndarray or dict of str to ndarray
        Net benefit divided by the prevalence (in [-inf, 1]).
    net_interventions_avoided : ndarray or dict of str to ndarray
        Net reduction in interventions **per 100 patients** compared with
        treating everyone, :math:`100 (\mathrm{NB} - \mathrm{NB}_{all}) (1 - p_t) / p_t`
        (``dcurves``' ``net_intervention_avoided`` is the same per patient:
        divide by 100, or read that column of :meth:`to_frame`).
    bands : dict of str to ConfidenceInterval or None
        Bootstrap bands at ``confidence_level`` per model and ``"all"``.

    See Also
    --------
    decision_curve : Builds this object.
    skbrier.plotting.decision_curve.DecisionCurveDisplay : Plots it.

    Examples
    --------
    >>> from skbrier.metrics.net_benefit import decision_curve
    >>> res = decision_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], thresholds=[0.2, 0.5])
    >>> res.net_benefit
    array([0.4375, 0.25  ])
    >>> res.treat_all
    array([0.375, 0. ])
    >>> res
    DecisionCurveResult(models=['model'], n_thresholds=2, prevalence=0.5, n_resamples=0)
    >>> boot = decision_curve([0, 0, 1, 1] * 25, [0.1, 0.4, 0.35, 0.8] * 25,
    ...                       thresholds=[0.2, 0.5], n_resamples=99, random_state=0)
    >>> low, high = boot.confidence_interval(0.9)
    >>> bool((low <= boot.net_benefit).all() and (boot.net_benefit <= high).all())
    True
    """

    thresholds: np.ndarray
    prevalence: float
    net_benefit_by_model: dict[str, np.ndarray]
    interventions_avoided_by_model: dict[str, np.ndarray]
    harm: dict[str, float]
    single: bool = False
    n_resamples: int = 0
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL
    bootstrap_replicates: dict[str, np.ndarray] | None = None
    positive_rates_by_model: dict[str, np.ndarray] | None = None
    n: float | None = None

    _summary_fields: ClassVar[tuple[str, ...]] = ("prevalence", "n_resamples")
    _interval_metrics: ClassVar[tuple[str, ...]] = ("net_benefit",)

    # ------------------------------------------------------------------ values
    @property
    def model_names(self) -> list[str]:
        return list(self.net_benefit_by_model)

    def _per_model(
        self, values: dict[str, np.ndarray]
    ) -> np.ndarray | dict[str, np.ndarray]:
        return next(iter(values.values())) if self.single else values

    @property
    def net_benefit(self) -> np.ndarray | dict[str, np.ndarray]:
        return self._per_model(dict(self.net_benefit_by_model))

    @property
    def treat_all(self) -> np.ndarray:
        return treat_all_curve(self.prevalence, self.thresholds)

    @property
    def treat_none(self) -> np.ndarray:
        return np.zeros_like(self.thresholds)

    def _standardized(self, nb: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return nb / self.prevalence

    @property
    def standardized_net_benefit(self) -> np.ndarray | dict[str, np.ndarray]:
        return self._per_model(
            {k: self._standardized(v) for k, v in self.net_benefit_by_model.items()}
        )

    @property
    def net_interventions_avoided(self) -> np.ndarray | dict[str, np.ndarray]:
        return self._per_model(dict(self.interventions_avoided_by_model))

    def curves(self) -> dict[str, np.ndarray]:
        """Net benefit of every model, always as a ``{name: array}`` dict.

        Returns
        -------
        dict of str to ndarray
            A copy of the per-model curves (without treat-all and treat-none).

        Examples
        --------
        >>> from skbrier.metrics.net_benefit import decision_curve
        >>> res = decision_curve([0, 1, 1], [0.2, 0.6, 0.9], thresholds=[0.5])
        >>> res.curves()
        {'model': array([0.666...])}
        """
        return dict(self.net_benefit_by_model)

    # ------------------------------------------------------------------ intervals
    @property
    def bands(self) -> dict[str, ConfidenceInterval] | None:
        if self.bootstrap_replicates is None:
            return None
        return {
            k: self.confidence_interval(self.confidence_level, model=k)
            for k in self.bootstrap_replicates
        }

    def _interval(
        self, metric: str, level: float, method: str, model: Any = None
    ) -> ConfidenceInterval:
        if self.bootstrap_replicates is None:
            raise ValueError(
                "no confidence bands: this decision curve has no bootstrap resamples "
                "(decision_curve and DecisionCurveDisplay.from_predictions draw them "
                "with n_resamples > 0; decision_curve_survival has none)."
            )
        model = self._model_named(model, self.model_names, extra=("all",))
        estimate = self.treat_all if model == "all" else self.net_benefit_by_model[model]
        return interval_from_replicates(
            self.bootstrap_replicates[model], level, method=method, estimate=estimate
        )

    # ------------------------------------------------------------------ protocol
    def _headline(self) -> dict[str, Any]:
        return {
            "models": self.model_names,
            "n_thresholds": int(self.thresholds.shape[0]),
            "prevalence": self.prevalence,
            "n_resamples": self.n_resamples,
        }

    def _summary_rows(self) -> list[tuple[str, str]]:
        t = self.thresholds
        rows = [
            (
                "thresholds",
                f"{t.shape[0]} from {format_number(t.min())} to {format_number(t.max())}",
            ),
            ("prevalence", format_number(self.prevalence)),
            ("n_resamples", str(self.n_resamples)),
        ]
        for name, nb in self.net_benefit_by_model.items():
            k = int(np.argmax(nb))
            rows.append(
                (
                    f"max net benefit [{name}]",
                    f"{format_number(nb[k])} at {format_number(t[k])}",
                )
            )
        return rows

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values, without ``bootstrap_replicates``
        (the bands at ``confidence_level`` are given as ``bands`` instead)."""
        from .._core.results import to_builtin

        out = {
            k: to_builtin(getattr(self, k))
            for k in self._fields()
            if k != "bootstrap_replicates"
        }
        out["bands"] = to_builtin(self.bands)
        return out

    def to_frame(self) -> Any:
        r"""Long-format ``pandas.DataFrame``, one row per model and threshold, as ``dcurves.dca``.

        Rows: the models, then ``"all"`` and ``"none"`` (as ``dcurves.dca``).
        Columns, first those of ``dcurves.dca`` with its names and scales:

        ``model``, ``threshold``, ``n``, ``prevalence``, ``harm``,
        ``test_pos_rate`` (share treated, ``tp_rate + fp_rate``),
        ``tp_rate``, ``fp_rate`` (true and false positives per patient),
        ``net_benefit``, ``net_intervention_avoided`` (per **patient**,
        :math:`(\mathrm{NB} - \mathrm{NB}_{all}) (1 - p_t)/p_t`);

        then skbrier's: ``standardized_net_benefit`` (NB / prevalence),
        ``net_interventions_avoided_per_100`` (per **100** patients, the
        ``net_interventions_avoided`` attribute) and, with bootstrap bands,
        ``net_benefit_low`` and ``net_benefit_high``.  Requires pandas.

        Returns
        -------
        pandas.DataFrame
            One row per (model, threshold).

        Notes
        -----
        With a case-control ``prevalence``, ``test_pos_rate`` is the treated
        share of the target population, :math:`\pi\,\mathrm{TPR} + (1 -
        \pi)\,\mathrm{FPR}`; ``dcurves`` reports the treated share of the
        sample instead (its ``tp_rate``, ``fp_rate`` and net benefit are the
        same as ours).  At threshold 0, ``net_intervention_avoided`` is NaN
        or -inf, as in ``dcurves``.

        Examples
        --------
        >>> from skbrier.metrics.net_benefit import decision_curve
        >>> res = decision_curve([0, 1, 1], [0.2, 0.6, 0.9], thresholds=[0.5])
        >>> res.to_frame()[["model", "threshold", "net_benefit", "test_pos_rate"]]
           model  threshold  net_benefit  test_pos_rate
        0  model        0.5     0.666667       0.666667
        1    all        0.5     0.333333       1.000000
        2   none        0.5     0.000000       0.000000
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        t = self.thresholds
        odds = threshold_odds(t)
        pi = self.prevalence
        nia = {
            **self.interventions_avoided_by_model,
            # treat all against itself: 0, undefined (0/0) at threshold 0 as in dcurves
            "all": np.where(odds > 0, 0.0, np.nan),
            # treating nobody: true negatives 1 - pi, false negatives pi
            "none": interventions_avoided(np.full_like(odds, pi), 1.0 - pi, odds),
        }
        curves = {
            **self.net_benefit_by_model,
            "all": self.treat_all,
            "none": self.treat_none,
        }
        rates = dict(self.positive_rates_by_model or {})
        rates["all"] = np.vstack([np.full_like(t, pi), np.full_like(t, 1.0 - pi)])
        rates["none"] = np.zeros((2, t.shape[0]))
        bands = self.bands
        frames = []
        for name, nb in curves.items():
            tp, fp = rates.get(name, np.full((2, t.shape[0]), np.nan))
            cols = {
                "model": name,
                "threshold": t,
                "n": np.nan if self.n is None else self.n,
                "prevalence": pi,
                "harm": self.harm.get(name, 0.0),
                "test_pos_rate": tp + fp,
                "tp_rate": tp,
                "fp_rate": fp,
                "net_benefit": nb,
                "net_intervention_avoided": nia[name] / 100.0,
                "standardized_net_benefit": self._standardized(nb),
                "net_interventions_avoided_per_100": nia[name],
            }
            if bands is not None:
                band = bands.get(name, ConfidenceInterval(nb, nb))  # none: no uncertainty
                cols["net_benefit_low"] = band.low
                cols["net_benefit_high"] = band.high
            frames.append(pd.DataFrame(cols))
        return pd.concat(frames, ignore_index=True)
