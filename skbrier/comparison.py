"""One table for several forecasts of the same outcomes (like reliabilitydiag's ``summary()``).

:func:`compare_forecasts` calls the single homes of every number (Brier
inference, the CORP decomposition, the logistic recalibration, the
c-statistic) once per model and lays the results out side by side; it computes
nothing itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike

from ._core.diagnose import one_warning_per_call, warn_once
from ._core.dispatch import HOST, backends
from ._core.optional import import_optional
from ._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_N_RESAMPLES,
    check_confidence_level,
    check_n_jobs,
    check_n_resamples,
    validate_random_state,
)
from ._core.results import Result, format_number, to_builtin
from ._core.validation import binary_forecasts, validated
from .metrics._decision_curve import check_forecast_frame
from .metrics.calibration import c_statistic, calibration_intercept_slope
from .metrics.decomposition import corp_decomposition
from .stats.inference import brier_inference

__all__ = ["ForecastComparisonResult", "compare_forecasts"]

#: the columns of the table, in order (``_low``/``_high`` follow those with intervals)
COLUMNS = (
    "brier_score",
    "brier_index",
    "brier_skill_score",
    "miscalibration",
    "discrimination",
    "uncertainty",
    "calibration_intercept",
    "calibration_slope",
    "c_statistic",
)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class ForecastComparisonResult(Result):
    """Scores of several forecasts side by side; returned by :func:`compare_forecasts`.

    Attributes
    ----------
    names : list of str
        The forecasts, in the order given.
    values : dict of str to dict of str to float
        ``values[name][column]``: every number of the table, including the
        interval bounds ``<column>_low`` and ``<column>_high`` (NaN where a
        statistic has no interval).
    n : float
        Number of observations: the total frequency weight (the number of
        rows without ``sample_weight``), so that integer weights and repeated
        rows give the same ``n``.
    n_rows : int
        Number of rows (of positive weight).
    confidence_level : float
        Level of the intervals.
    cov_type : str
        How the intervals of the Brier scores were computed.
    n_resamples : int
        Bootstrap resamples behind the intervals of miscalibration and
        discrimination (0: none).

    See Also
    --------
    compare_forecasts : builds this result.

    Examples
    --------
    >>> from skbrier import compare_forecasts
    >>> y = [0, 1, 1, 0, 1, 0, 1, 0]
    >>> res = compare_forecasts(y, {"sharp": [0.1, 0.9, 0.8, 0.2, 0.7, 0.3, 0.9, 0.1],
    ...                             "vague": [0.4, 0.6, 0.5, 0.5, 0.6, 0.3, 0.5, 0.4]})
    >>> res.names
    ['sharp', 'vague']
    >>> round(res.values["sharp"]["brier_score"], 4)
    0.0375
    """

    names: list[str]
    values: dict[str, dict[str, float]]
    n: float
    confidence_level: float
    cov_type: str
    n_resamples: int
    n_rows: int = 0

    _summary_fields: ClassVar[tuple[str, ...]] = (
        "n",
        "n_rows",
        "confidence_level",
        "cov_type",
        "n_resamples",
    )

    def __repr__(self) -> str:
        return (
            f"ForecastComparisonResult(names={self.names}, n={format_number(self.n)}, "
            f"cov_type={self.cov_type})"
        )

    def to_frame(self, intervals: bool = True) -> Any:
        """One row per forecast (index ``forecast``), one column per statistic.

        Parameters
        ----------
        intervals : bool, default=True
            Include the ``<column>_low`` and ``<column>_high`` columns.

        Returns
        -------
        pandas.DataFrame
            Columns ``brier_score``, ``brier_index``, ``brier_skill_score``,
            ``miscalibration``, ``discrimination``, ``uncertainty``,
            ``calibration_intercept``, ``calibration_slope``, ``c_statistic``
            (each followed by its bounds when ``intervals``).  Needs pandas.
        """
        pd = import_optional("pandas", needed_for=f"{type(self).__name__}.to_frame()")

        cols = [
            c
            for base in COLUMNS
            for c in ((base, f"{base}_low", f"{base}_high") if intervals else (base,))
        ]
        frame = pd.DataFrame(
            [[self.values[k][c] for c in cols] for k in self.names],
            index=pd.Index(self.names, name="forecast"),
            columns=cols,
        )
        return frame

    def to_dict(self) -> dict[str, Any]:
        """The table and its settings as JSON-ready values."""
        return {
            "names": list(self.names),
            "values": to_builtin(self.values),
            "n": self.n,
            "n_rows": self.n_rows,
            "confidence_level": self.confidence_level,
            "cov_type": self.cov_type,
            "n_resamples": self.n_resamples,
        }

    def summary(self) -> str:
        """A plain-text table: one line per forecast, intervals in brackets."""
        level = f"{100 * self.confidence_level:g}%"
        shown = COLUMNS
        head = [
            "forecast",
            "BS",
            "BI",
            "BSS",
            "MCB",
            "DSC",
            "UNC",
            "intercept",
            "slope",
            "C",
        ]
        rows = [head]
        for name in self.names:
            v = self.values[name]
            rows.append([name] + [format_number(v[c]) for c in shown])
        widths = [max(len(r[j]) for r in rows) for j in range(len(head))]
        lines = [
            "ForecastComparisonResult",
            "------------------------",
            f"n = {format_number(self.n)}"
            + (f" ({self.n_rows} rows)" if self.n != self.n_rows else "")
            + f"; {level} intervals ({self.cov_type} for BS, BI, BSS; Wald for "
            "intercept and slope"
            + (
                f"; bootstrap ({self.n_resamples}) for MCB and DSC"
                if self.n_resamples
                else ""
            )
            + ")",
        ]
        lines += ["  ".join(cell.rjust(w) for cell, w in zip(r, widths)) for r in rows]
        ci_rows = []
        for name in self.names:
            v = self.values[name]
            parts = []
            for c, label in zip(shown, head[1:]):
                lo, hi = v[f"{c}_low"], v[f"{c}_high"]
                if np.isfinite(lo) and np.isfinite(hi):
                    parts.append(f"{label} [{lo:.4g}, {hi:.4g}]")
            ci_rows.append(f"{name}: " + ", ".join(parts))
        return "\n".join(lines + ["", f"{level} intervals:"] + ci_rows)

    def _summary_rows(self) -> list[tuple[str, str]]:
        return [
            (name, ", ".join(f"{c}={format_number(self.values[name][c])}" for c in COLUMNS))
            for name in self.names
        ]


def _models(y_proba: Any, y_true: Any = None) -> dict[str, Any]:
    check_forecast_frame(y_true, y_proba)
    if hasattr(y_proba, "columns") and not isinstance(y_proba, Mapping):
        y_proba = {str(c): y_proba[c] for c in y_proba.columns}  # a DataFrame (or dask's)
    if not isinstance(y_proba, Mapping):
        raise TypeError(
            "y_proba must be a dict {name: probabilities} or a DataFrame with one "
            f"column per forecast, got {type(y_proba).__name__}."
        )
    if len(y_proba) == 0:
        raise ValueError("y_proba is empty: give at least one forecast.")
    for k in y_proba:
        if not isinstance(k, str):
            raise TypeError(f"y_proba keys must be forecast names (str), got {k!r}.")
    return dict(y_proba)


@backends(dask="skbrier._backends._dask._comparison:compare_forecasts", array_api=HOST)
@one_warning_per_call
def compare_forecasts(
    y_true: ArrayLike,
    y_proba: Mapping[str, ArrayLike] | Any,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL,
    cov_type: Literal["iid", "hac", "bootstrap"] = "iid",
    n_resamples: int = 0,
    random_state: Any = None,
    n_jobs: int | None = None,
) -> ForecastComparisonResult:
    r"""One table of the usual scores of several binary forecasts of the same outcomes.

    Like the ``summary()`` of R's ``reliabilitydiag`` (whose CORP columns it
    reproduces) extended by the Brier Index, the skill score, the logistic
    calibration intercept and slope (``rms::val.prob``) and the c-statistic.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_proba : dict of str to array-like, or pandas DataFrame
        ``{name: probabilities of pos_label}``, or one column per forecast.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights.
    pos_label : int, float, bool or str, default=None
        The label of events.
    confidence_level : float, default=0.95
        Level of the intervals.
    cov_type : {"iid", "hac", "bootstrap"}, default="iid"
        Intervals of the Brier score, Brier Index and skill score, as in
        :func:`~skbrier.stats.brier_inference` (delta method for iid and
        HAC).
    n_resamples : int, default=0
        Bootstrap resamples for intervals of miscalibration and
        discrimination (:func:`~skbrier.metrics.corp_decomposition`) and,
        with ``cov_type="bootstrap"``, of the Brier scores.  0: no
        bootstrap (MCB and DSC without intervals).
    random_state : None, int or numpy Generator, default=None
        Seed of the bootstraps (every forecast gets the same seed).
    n_jobs : int, default=None
        Threads of the bootstraps.

    Returns
    -------
    ForecastComparisonResult
        ``to_frame()`` gives the table, ``summary()`` a text version.

    Raises
    ------
    TypeError
        If ``y_proba`` is not a dict or DataFrame.
    ValueError
        For invalid arrays or options (as the functions called).

    See Also
    --------
    skbrier.stats.compare_brier : paired test of two forecasts.
    skbrier.metrics.corp_decomposition, skbrier.metrics.calibration_intercept_slope

    Notes
    -----
    Columns (per forecast): ``brier_score`` BS, ``brier_index``
    :math:`100 (1 - \sqrt{\mathrm{BS}})`, ``brier_skill_score``
    :math:`1 - \mathrm{BS}/(\bar o (1 - \bar o))`; the CORP decomposition
    :math:`\mathrm{BS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC}`
    (``miscalibration``, ``discrimination``, ``uncertainty``; Dimitriadis,
    Gneiting & Jordan 2021); ``calibration_intercept`` :math:`a` and
    ``calibration_slope`` :math:`b` of the logistic fit
    :math:`\operatorname{logit} P(y = 1) = a + b \operatorname{logit}(p)`
    (Wald intervals); ``c_statistic`` (the area under the ROC curve, no
    interval).  ``uncertainty`` is the same for every forecast.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118, 2021.
    .. [2] F. E. Harrell, rms: Regression Modeling Strategies (``val.prob``).

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> from skbrier import compare_forecasts
    >>> d = load_forecasts()
    >>> res = compare_forecasts(d["y"], {"a": d["model_a"], "b": d["model_b"]})
    >>> table = res.to_frame(intervals=False)
    >>> table["brier_score"].round(4).tolist()
    [0.1427, 0.1715]
    >>> table["miscalibration"].round(4).tolist()
    [0.0024, 0.0312]
    """
    level, b, n_jobs = _check_options(confidence_level, n_resamples, n_jobs, random_state)
    models = _models(y_proba, y_true)
    # validate once: the outcomes and weights once, each forecast once (1-D,
    # or the pos_label column of two-column predict_proba output); every
    # function below reads the validated arrays as they are
    y_true, p_valid, sample_weight = binary_forecasts(
        y_true, models, sample_weight=sample_weight, pos_label=pos_label
    )
    with validated(y_true, sample_weight, *p_valid.values()):
        return _compare(
            y_true, p_valid, sample_weight, level, cov_type, b, random_state, n_jobs
        )


def _check_options(
    confidence_level: Any, n_resamples: Any, n_jobs: Any, random_state: Any
) -> tuple[float, int, int | None]:
    """``(level, n_resamples, n_jobs)`` checked (``random_state`` too)."""
    level = check_confidence_level(confidence_level)
    b = check_n_resamples(n_resamples, allow_zero=True)
    n_jobs = check_n_jobs(n_jobs)
    validate_random_state(random_state)
    return level, b, n_jobs


def _compare(
    y_true, models, sample_weight, level, cov_type, b, random_state, n_jobs, pos_label=None
) -> ForecastComparisonResult:
    """The table of :func:`compare_forecasts` (validated 0/1 ``y_true``,
    ``models``: {name: validated 1-D forecast}; or, from the Dask adapter,
    the collections as given and their ``pos_label``)."""
    values: dict[str, dict[str, float]] = {}
    n: float = 0
    n_rows = 0
    nan = float("nan")
    for name, p in models.items():
        inf = brier_inference(
            y_true,
            p,
            sample_weight=sample_weight,
            pos_label=pos_label,
            cov_type=cov_type,
            n_resamples=b or DEFAULT_N_RESAMPLES,
            random_state=random_state,
            n_jobs=n_jobs,
        )
        # frequency weights: the total weight is the number of observations;
        # the rows of positive weight (HAC's n counts every time point)
        n_rows = (
            int(np.count_nonzero(np.asarray(sample_weight) > 0))
            if cov_type == "hac" and sample_weight is not None
            else inf.n
        )
        n = inf.n if sample_weight is None else inf.total_weight
        row: dict[str, float] = {}
        for metric in ("brier_score", "brier_index", "brier_skill_score"):
            row[metric] = float(getattr(inf, metric))
            lo, hi = inf.confidence_interval(level, metric=metric)
            row[f"{metric}_low"], row[f"{metric}_high"] = float(lo), float(hi)
        corp = corp_decomposition(
            y_true,
            p,
            sample_weight=sample_weight,
            pos_label=pos_label,
            n_resamples=b,
            confidence_level=level,
            random_state=random_state,
            n_jobs=n_jobs,
        )
        for comp in ("miscalibration", "discrimination", "uncertainty"):
            row[comp] = float(getattr(corp, comp))
            row[f"{comp}_low"] = row[f"{comp}_high"] = nan
            if b and comp != "uncertainty":
                lo, hi = corp.confidence_interval(level, metric=comp)
                row[f"{comp}_low"], row[f"{comp}_high"] = float(lo), float(hi)
        try:
            cal = calibration_intercept_slope(
                y_true, p, sample_weight=sample_weight, pos_label=pos_label
            )
        except ValueError as exc:
            # no forecast strictly inside (0, 1): hard 0/1 forecasts, whose
            # logistic calibration is undefined (n/a, as in the report)
            warn_once(
                f"y_proba[{name!r}]: logistic calibration not available (NaN): {exc}",
                UserWarning,
                key=("logistic", name),
            )
            cal = None
        for col, param in (
            ("calibration_intercept", "intercept"),
            ("calibration_slope", "slope"),
        ):
            if cal is None:
                row[col] = row[f"{col}_low"] = row[f"{col}_high"] = nan
                continue
            row[col] = float(getattr(cal, param))
            lo, hi = cal.confidence_interval(level, metric=col)
            row[f"{col}_low"], row[f"{col}_high"] = float(lo), float(hi)
        c = c_statistic(y_true, p, sample_weight=sample_weight, pos_label=pos_label)
        row["c_statistic"] = float(c)
        row["c_statistic_low"] = row["c_statistic_high"] = nan
        values[name] = row
    return ForecastComparisonResult(
        names=list(models),
        values=values,
        n=n if isinstance(n, int) or not float(n).is_integer() else int(n),
        confidence_level=level,
        cov_type=cov_type,
        n_resamples=b,
        n_rows=int(n_rows),
    )
