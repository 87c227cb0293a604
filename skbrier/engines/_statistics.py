"""The statistics the engines compute, as plans: the state (or the kernel's
sums) of each statistic, the aggregates that fill it (:mod:`._plans`), and
the finish -- the state's method or the kernel's finish function, the same
as for numpy input.  :func:`plan` checks a statistic's options as the
in-memory function does and returns its plans.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .._core.kernels.bin_statistics import BinStatistics
from .._core.kernels.brier import (
    BrierSums,
    brier_finish,
    brier_index_from_score,
    skill_finish,
    warn_undefined_skill,
)
from .._core.kernels.calibration_error import BinSums, calibration_finish
from .._core.kernels.net_benefit import ThresholdSums, net_benefit_finish
from .._core.params import DEFAULT_N_BINS, DEFAULT_STRATEGY
from . import _plans
from ._common import BIN, GivenStatistic, Statistic
from ._plans import Term, col, lit

__all__ = [
    "EXPRESSIONS",
    "STATISTICS",
    "Planned",
    "binned",
    "brier",
    "calibration_given",
    "column_name",
    "edges_option",
    "given_plan",
    "inference",
    "inference_finish",
    "net_benefit_given",
    "plan",
    "thresholds",
]


# ----------------------------------------------------------------- Brier
def _brier_part(parts: list[dict]) -> BrierSums:
    (r,) = parts
    ref = None if "wrr" not in r else 2.0 * np.array([r["wrr"], r["wss"]], dtype=float)
    loss = 2.0 * np.array([r["wpp"], r["wqq"]], dtype=float)
    return BrierSums(float(r["w"]), loss, None, ref, 1)


def _brier_given(row: dict) -> BrierSums:
    ref = None if "rloss" not in row else 2.0 * float(row["rloss"])
    cw = np.array([row["w0"], row["w1"]], dtype=float) if "w1" in row else None
    return BrierSums(float(row["w"]), 2.0 * float(row["loss"]), cw, ref, 1)


def _skill(s: BrierSums, rate: float | None) -> float:
    score, bs_ref = skill_finish(s, rate)
    if bs_ref == 0.0:
        warn_undefined_skill()
    return score


def brier(
    what: str,
    *,
    weighted: bool,
    pos_label: Any = None,
    reference: str | float | None = None,
) -> tuple[Statistic, GivenStatistic | None]:
    """The Brier score (``what="score"``), Brier Index (``"index"``) or skill
    score (``"skill"``; ``reference`` None for climatology, a rate, or
    ``"r"``: the reference column)."""
    from ..states import BrierState

    y, p, w = col("y"), col("p"), _weight(weighted)
    r = col("r") if reference == "r" else None
    rate = reference if isinstance(reference, float) else None
    ok = _plans.valid_rows(p, w, [] if r is None else [r], weighted)
    finish_sums: Callable[[BrierSums], Any] = {
        "score": brier_finish,
        "index": lambda s: brier_index_from_score(brier_finish(s)),
        "skill": lambda s: _skill(s, rate),
    }[what]

    def finish(state: Any) -> Any:
        return finish_sums(state.sums())

    stat = Statistic(
        BrierState(pos_label=pos_label, with_reference=r is not None),
        _plans.brier_hypotheses_aggs(p, w, r, ok, weighted),
        _brier_part,
        finish,
        weighted,
        extra={} if r is None else {"reference": "r"},
        hard=True,
    )
    fast = None
    if pos_label is None or (pos_label == 1 and not isinstance(pos_label, str)):
        fast = GivenStatistic(
            _plans.brier_given_aggs(
                y, p, w, r, ok, weighted, class_weights=what == "skill"
            ),
            lambda row: finish_sums(_brier_given(row)),
            hard=True,
        )
    return stat, fast


def _weight(weighted: bool) -> Term:
    return col("w") if weighted else lit(1.0)


# ----------------------------------------------------------------- bins
def _binned_part(edges: np.ndarray, right: bool) -> Callable[[list[dict]], BinStatistics]:
    k = edges.shape[0] - 1

    def part(parts: list[dict]) -> BinStatistics:
        count = np.zeros(k, dtype=np.int64)
        sums = {name: np.zeros(k) for name in ("w", "wp", "wpp", "ww")}
        for r in parts:
            b = int(r[BIN])
            count[b] = int(r["rows"])
            for name, arr in sums.items():
                arr[b] = float(r[name])
        zero = np.zeros(k)
        return BinStatistics(
            edges,
            count,
            sums["w"],
            sums["wp"],
            zero,
            sums["wpp"],
            zero.copy(),
            sums["ww"],
            right,
        )

    return part


def binned(
    what: str,
    edges: np.ndarray,
    *,
    right: bool,
    weighted: bool,
    pos_label: Any = None,
    norm: str = "l1",
    bias_correction: bool = False,
) -> Statistic:
    """The binned calibration error (``what="ece"``), the per-bin sums
    (``"bins"``: :class:`~skbrier.metrics.decomposition.BinStatistics`) or the
    Murphy decomposition (``"murphy"``) on fixed ``edges``."""
    from ..states import BinnedState

    p, w = col("p"), _weight(weighted)
    ok = _plans.valid_rows(p, w, (), weighted)
    if edges[0] > 0.0 or edges[-1] < 1.0:  # explicit edges must cover the forecasts
        ok = ok & p.ge(float(edges[0])) & p.le(float(edges[-1]))
    finish = {
        "ece": lambda s: s.calibration_error(norm),
        "bins": lambda s: s.statistics(),
        "murphy": lambda s: s.murphy(bias_correction=bias_correction),
    }[what]
    return Statistic(
        BinnedState(edges, right=right, pos_label=pos_label),
        _plans.binned_hypotheses_aggs(p, w, ok, weighted),
        _binned_part(edges, right),
        finish,
        weighted,
        bins=_plans.bin_term(p, edges, right),
        hard=what != "bins",  # binned_statistics gives no warning
    )


def calibration_given(
    edges: np.ndarray, right: bool, weighted: bool, norm: str
) -> GivenStatistic:
    """The binned calibration error of 0/1 outcomes per group (the expressions)."""
    y, p, w = col("y"), col("p"), _weight(weighted)
    ok = _plans.valid_rows(p, w, (), weighted)
    k = edges.shape[0] - 1

    def finish(row: dict) -> float:
        arr = {
            s: np.array([row[f"{s}_{b}"] for b in range(k)], dtype=float)
            for s in ("w", "wp", "wy")
        }
        return calibration_finish([BinSums(arr["w"], arr["wp"], arr["wy"])], norm)

    return GivenStatistic(
        _plans.binned_given_aggs(y, p, w, ok, weighted, edges, right), finish, hard=True
    )


# ----------------------------------------------------------------- thresholds
def thresholds(
    what: str,
    t: np.ndarray,
    models: Sequence[str],
    *,
    single: bool,
    weighted: bool,
    pos_label: Any = None,
    prevalence: float | None = None,
    harm: Mapping[str, float] | None = None,
    level: float = 0.95,
) -> Statistic:
    """Net benefit at one threshold (``what="net_benefit"``) or the decision
    curve (``"curve"``) of the models (logical columns ``p``, ``m1``, ...)."""
    from ..metrics.net_benefit import _curve_result
    from ..states import ThresholdState

    w = _weight(weighted)
    u = np.unique(t)  # the buckets' bounds: sorted distinct thresholds
    at = np.searchsorted(u, t)

    def part(parts: list[dict]) -> tuple:
        sums = np.zeros(u.shape[0] + 1)
        for r in parts:
            sums[int(r[BIN])] = float(r["w"])
        below = np.cumsum(sums)[:-1]  # the buckets 0..i: below u_i
        above = np.cumsum(sums[::-1])[::-1][1:]  # the buckets i+1..: at or above
        return (ThresholdSums(below[at], above[at]),)

    def finish(state: Any) -> Any:
        if what == "net_benefit":
            return float(state.net_benefit(0, prevalence)[0])
        shares = {name: state.shares(j, prevalence) for j, name in enumerate(models)}
        prev_used = state.prevalence() if prevalence is None else prevalence
        n = state.total_weight if state.weighted else state.n_samples
        harms = dict(harm) if harm is not None else dict.fromkeys(models, 0.0)
        return _curve_result(shares, t, prev_used, harms, single, level, 0, None, n)

    per_model = []
    for j, name in enumerate(models):
        logical = "p" if j == 0 else f"m{j}"
        q = col(logical)
        ok = _plans.valid_rows(q, w, (), weighted)
        per_model.append(
            Statistic(
                ThresholdState(t, models=[name], single=single, pos_label=pos_label),
                _plans.totals(w, ok, weighted),
                part,
                finish,
                weighted,
                bins=_plans.threshold_bucket(q, u),
                proba=logical,
            )
        )
    template = ThresholdState(t, models=list(models), single=single, pos_label=pos_label)
    return Statistic(template, [], part, finish, weighted, models=per_model)


def net_benefit_given(
    threshold: float, weighted: bool, prevalence: float | None
) -> GivenStatistic:
    """Net benefit at one threshold of 0/1 outcomes per group (the expressions)."""
    from ..metrics._decision_curve import check_events, check_nonevents

    y, p, w = col("y"), col("p"), _weight(weighted)
    ok = _plans.valid_rows(p, w, (), weighted)
    t = np.array([threshold])

    def finish(row: dict) -> float:
        s = ThresholdSums(
            *(np.array([float(row[f"{c}_0"])]) for c in ("fn", "tp", "tn", "fp"))
        )
        check_events(s.events, 1.0 if weighted else None)
        check_nonevents(np.array([0.0]), np.array([s.nonevents]), prevalence)
        return float(net_benefit_finish(s, t, prevalence)[0])

    return GivenStatistic(_plans.threshold_given_aggs(y, p, w, t, ok, weighted), finish)


# ----------------------------------------------------------------- moments
def inference(
    *, weighted: bool, pos_label: Any = None, reference: str | float | None = None
) -> Statistic:
    """``brier_inference(cov_type="iid")``: the centred moments of the
    squared errors per label (:class:`~skbrier.states.MomentState`), pooled
    by the state and finished as the in-memory iid inference."""
    from ..states import MomentState

    p, w = col("p"), _weight(weighted)
    extra = [col("r")] if reference == "r" else []
    h = _plans.moment_columns(p, extra)
    ok = _plans.valid_rows(p, w, extra, weighted)
    k = len(h)

    def part(parts: list[dict]) -> tuple:
        (r,) = parts
        n, total = int(r["n"]), float(r["w"])
        if n == 0:
            inf = np.full(k, np.inf)
            return 0, 0.0, np.zeros(k), np.zeros((k, k)), inf, -inf
        m2 = np.empty((k, k))
        for i in range(k):
            for j in range(i, k):
                m2[i, j] = m2[j, i] = float(r[f"m_{i}_{j}"])
        mean = np.array([float(r[f"s_{i}"]) for i in range(k)]) / total
        lo = np.array([float(r[f"lo_{i}"]) for i in range(k)])
        hi = np.array([float(r[f"hi_{i}"]) for i in range(k)])
        return n, total, mean, m2, lo, hi

    rate = reference if isinstance(reference, float) else None
    return Statistic(
        MomentState(("reference",) if extra else (), pos_label=pos_label),
        _plans.moment_aggs(h, w, ok, weighted),
        part,
        lambda state: inference_finish(state, rate),
        weighted,
        extra={"reference": "r"} if extra else {},
        hard=True,
    )


def inference_finish(state: Any, rate: float | None) -> Any:
    """The iid :class:`~skbrier.results.BrierInferenceResult` of a merged
    :class:`~skbrier.states.MomentState` (as Dask and Spark finish it,
    :func:`skbrier.stats._merged.inference_from_moments`): the reference is
    climatology, the constant ``rate`` or the state's reference column."""
    from ..stats._merged import inference_from_moments

    constant = None if rate is None else (rate * rate, (1.0 - rate) ** 2)
    return inference_from_moments(state, constant)


def edges_option(n_bins: Any, strategy: Any, engine: str) -> np.ndarray:
    """The fixed bin edges of ``n_bins`` and ``strategy`` (``"uniform"`` or
    explicit edges); equal-mass bins need every forecast and are refused."""
    from .._core.binning import uniform_edges
    from .._core.params import check_n_bins
    from ..metrics._decomposition_core import check_strategy

    n_bins = check_n_bins(n_bins)
    strategy = check_strategy(strategy)
    if isinstance(strategy, str):
        if strategy == "quantile":
            raise ValueError(
                f"strategy='quantile' is not available for {engine} input: equal-mass "
                "bins need the quantiles of all forecasts first; pass strategy='uniform' "
                "or explicit bin edges."
            )
        return uniform_edges(n_bins)
    return strategy


def reference_option(reference: Any) -> str | float | None:
    """``reference``: None (climatology), a rate in [0, 1] (a float), or a
    column (``"r"``, the logical column; the engine maps it)."""
    from .._core.validation import check_scalar_probability

    if reference is None:
        return None
    if isinstance(reference, numbers.Real) and not isinstance(reference, bool):
        return check_scalar_probability(reference, name="reference")
    return "r"


def net_benefit_options(threshold: Any, prevalence: Any) -> tuple[np.ndarray, float | None]:
    """The checked threshold (as a one-element grid) and prevalence of net benefit."""
    from .._core.validation import check_scalar_probability
    from ..metrics._decision_curve import check_prevalence

    t = check_scalar_probability(threshold, name="threshold", open_interval=True)
    return np.array([t]), check_prevalence(prevalence)


def models_option(p: Any) -> tuple[dict[str, Any], bool]:
    """``p`` of a decision curve: one column (``{"model": p}``, single), a
    list of columns (named by themselves) or a dict ``{name: column}``; the
    names checked as in memory (``"all"`` and ``"none"`` are the
    strategies')."""
    from ..metrics._decision_curve import check_models

    if isinstance(p, Mapping):
        if not p:
            raise ValueError("p is an empty dict: give at least one model.")
        for name in p:
            if not isinstance(name, str):
                raise TypeError(f"p keys must be model names (str), got {name!r}.")
        models = dict(p)
    elif isinstance(p, (list, tuple)):
        if not p:
            raise ValueError("p is an empty list: give at least one column.")
        names = [column_name(c) for c in p]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(
                f"p names the model {twice[0]!r} twice (a model is named by its column): "
                "pass a dict {model name: column}."
            )
        models = dict(zip(names, p))
    else:
        return {"model": p}, True
    check_models(dict.fromkeys(models))
    return models, False


def column_name(column: Any) -> str:
    """The name of a column given as a name, a Polars Series (its name) or
    an expression (its output name): a model's name in a list of columns,
    a column's name in a message."""
    if isinstance(column, str):
        return column
    if hasattr(column, "meta"):  # a Polars expression
        try:
            return str(column.meta.output_name())
        except Exception:  # noqa: BLE001 - an expression without a single name
            return str(column)
    return str(getattr(column, "name", column))


def curve_options(
    thresholds: Any,
    prevalence: Any,
    harm: Any,
    names: list[str],
    confidence_level: Any = 0.95,
) -> tuple[np.ndarray, float | None, dict[str, float], float]:
    """``(thresholds, prevalence, harm by model, confidence level)`` of a
    decision curve, checked as :func:`skbrier.decision_curve` checks them."""
    from ..metrics._decision_curve import check_harm
    from ..metrics.net_benefit import curve_options as checked

    t, prev, _, level, _, _ = checked(
        thresholds, prevalence, 0, confidence_level, None, None
    )
    return t, prev, check_harm(harm, names), level


#: the statistics of :func:`plan` and the options each takes (with defaults)
STATISTICS: dict[str, dict[str, Any]] = {
    "brier_score": {},
    "brier_index": {},
    "brier_skill_score": {"reference": None},
    "calibration_error": {"n_bins": DEFAULT_N_BINS, "norm": "l1", "right": True},
    "calibration_bins": {
        "n_bins": DEFAULT_N_BINS,
        "strategy": DEFAULT_STRATEGY,
        "right": True,
    },
    "murphy_decomposition": {
        "n_bins": DEFAULT_N_BINS,
        "strategy": DEFAULT_STRATEGY,
        "right": True,
        "bias_correction": False,
    },
    "net_benefit": {"threshold": None, "prevalence": None},
    "decision_curve": {"thresholds": None, "prevalence": None, "harm": None},
    "brier_inference": {"reference": None},
}


@dataclasses.dataclass
class Planned:
    """A statistic ready for an engine: the plans and the columns they read
    (``columns``: logical name -> the user's column; ``p`` and the extras)."""

    stat: Statistic
    given: GivenStatistic | None
    columns: dict[str, Any]


def plan(
    name: str, p: Any, *, weighted: bool, pos_label: Any, engine: str, **options: Any
) -> Planned:
    """The plans of statistic ``name`` with its options checked as in memory."""
    from .._core.params import check_bool, check_option

    if name not in STATISTICS:
        raise ValueError(f"statistic must be one of {sorted(STATISTICS)}, got {name!r}.")
    unknown = sorted(set(options) - set(STATISTICS[name]))
    if unknown:
        raise TypeError(
            f"{name} takes no option {unknown[0]!r}; its options: {sorted(STATISTICS[name])}."
        )
    o = {**STATISTICS[name], **options}
    columns: dict[str, Any] = {"p": p}
    given = None
    ref = reference_option(o.get("reference"))  # None for the others
    if ref == "r":
        columns["r"] = o["reference"]
    if name in ("brier_score", "brier_index", "brier_skill_score"):
        kind = {"brier_score": "score", "brier_index": "index"}.get(name, "skill")
        stat, given = brier(kind, weighted=weighted, pos_label=pos_label, reference=ref)
    elif name in ("calibration_error", "calibration_bins", "murphy_decomposition"):
        if name == "calibration_error":
            norm = check_option(o["norm"], "norm", ("l1", "l2", "max"))
            edges, kind, bc = edges_option(o["n_bins"], "uniform", engine), "ece", False
        else:
            norm, kind = "l1", "bins" if name == "calibration_bins" else "murphy"
            edges = edges_option(o["n_bins"], o["strategy"], engine)
            bc = check_bool(o.get("bias_correction", False), "bias_correction")
        right = check_bool(o["right"], "right")
        stat = binned(
            kind,
            edges,
            right=right,
            weighted=weighted,
            pos_label=pos_label,
            norm=norm,
            bias_correction=bc,
        )
    elif name in ("net_benefit", "decision_curve"):
        if name == "net_benefit":  # one model at one threshold
            t, prev = net_benefit_options(o["threshold"], o["prevalence"])
            models, single, harms, level = {"model": p}, True, None, 0.95
        else:
            models, single = models_option(p)
            t, prev, harms, level = curve_options(
                o["thresholds"], o["prevalence"], o["harm"], list(models)
            )
            columns = {
                ("p" if j == 0 else f"m{j}"): c for j, c in enumerate(models.values())
            }
        stat = thresholds(
            "net_benefit" if name == "net_benefit" else "curve",
            t,
            list(models),
            single=single,
            weighted=weighted,
            pos_label=pos_label,
            prevalence=prev,
            harm=harms,
            level=level,
        )
    else:  # brier_inference
        stat = inference(weighted=weighted, pos_label=pos_label, reference=ref)
    return Planned(stat, given, columns)


#: the statistics of the Polars expressions (0/1 outcomes, the given plans)
EXPRESSIONS = (
    "brier_score",
    "brier_index",
    "brier_skill_score",
    "calibration_error",
    "net_benefit",
)


def given_plan(
    name: str, *, weighted: bool, engine: str, **options: Any
) -> tuple[GivenStatistic, dict[str, Any]]:
    """The given plan of statistic ``name`` of :data:`EXPRESSIONS` (0/1
    outcomes) with its options checked as in memory, and the extra columns
    it reads (``{"r": reference column}`` or none)."""
    from .._core.params import check_bool, check_option

    o = {**STATISTICS[name], **options}
    if name == "calibration_error":
        norm = check_option(o["norm"], "norm", ("l1", "l2", "max"))
        edges = edges_option(o["n_bins"], "uniform", engine)
        return calibration_given(edges, check_bool(o["right"], "right"), weighted, norm), {}
    if name == "net_benefit":
        t, prev = net_benefit_options(o["threshold"], o["prevalence"])
        return net_benefit_given(float(t[0]), weighted, prev), {}
    ref = reference_option(o.get("reference"))
    kind = {"brier_score": "score", "brier_index": "index"}.get(name, "skill")
    given = brier(kind, weighted=weighted, reference=ref)[1]
    assert given is not None
    return given, ({"r": o["reference"]} if ref == "r" else {})
