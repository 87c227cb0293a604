"""Fuzz and property suite over every public forecast-scoring callable.

Each callable in ``REGISTRY`` takes binary outcomes and forecasts.  It is fed

* representations of the same valid data (object, float16, bool and
  big-endian labels, pandas nullable and categorical columns, read-only,
  non-contiguous and big-endian forecasts): the numbers must equal those of
  plain float64 input;
* weight identities (frequency weights): unit weights == no weights, integer
  weights == repeated rows, zero-weight rows == removed rows, a permutation of
  the rows changes nothing, and scaling all weights by 1e-200 or 1e300 leaves
  the point estimates unchanged;
* a table of bad inputs: the call must raise ``ValueError`` or ``TypeError``
  whose message names one of the callable's parameters;
* edge inputs (length 1, one class, extreme weights): a float (NaN allowed)
  or such an error, and nothing else.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import types
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import sklearn.metrics as sk_metrics

import skbrier
from skbrier import metrics, stats

pd = pytest.importorskip("pandas")


# --------------------------------------------------------------------------
# the callables and what they must keep invariant
# --------------------------------------------------------------------------
def _second(p: np.ndarray) -> np.ndarray:
    """A second forecast derived row by row from the first (survives any row operation)."""
    try:
        return np.clip(np.asarray(p, dtype=np.float64) ** 1.5, 0.0, 1.0)
    except (TypeError, ValueError):
        return p  # bad input: let the callable say what is wrong


def _two_columns(p: np.ndarray) -> np.ndarray:
    """The two columns (1 - p, p) of a binary forecast (ordinal scores: K = 2)."""
    try:
        q = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        return p  # bad input: let the callable say what is wrong
    if q.ndim != 1 or not np.all((q >= 0) & (q <= 1)):
        return p
    return np.column_stack([1.0 - q, q])


class Entry:
    """A public callable with how to call it on (y, p, w) and which numbers to compare."""

    def __init__(
        self,
        name: str,
        call: Callable[..., Any],
        *,
        weights: bool = True,
        params: tuple[str, ...] = ("y_true", "y_proba", "sample_weight"),
        point: tuple[str, ...] | None = None,
        iid: bool = True,
        reference: Callable[..., float] | None = None,
        ignore: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.call = call
        self.weights = weights
        self.params = params
        self.point = point  # scalar fields that are point estimates (None: all)
        self.iid = iid  # zero-weight rows == removed rows holds
        self.reference = reference  # the peer's value, where a peer has one
        self.ignore = ignore  # fields outside the weight identities (documented)

    def __repr__(self) -> str:
        return self.name

    def __call__(self, y: Any, p: Any, w: Any = None) -> Any:
        if w is None:
            return self.call(y, p)
        return self.call(y, p, sample_weight=w)


_SELECTIVE = ("y_correct", "confidence", "sample_weight")

REGISTRY = [
    Entry("brier_score", skbrier.brier_score, reference=sk_metrics.brier_score_loss),
    Entry("brier_index", skbrier.brier_index),
    Entry(
        "brier_skill_score", skbrier.brier_skill_score, reference=sk_metrics.d2_brier_score
    ),
    Entry(
        "brier_skill_score(reference=array)",
        lambda y, p, **kw: skbrier.brier_skill_score(y, p, reference=_second(p), **kw),
    ),
    Entry("net_benefit", lambda y, p, **kw: skbrier.net_benefit(y, p, threshold=0.3, **kw)),
    # ordinal scores of two categories: the two columns of the binary forecast
    Entry(
        "ranked_probability_score",
        lambda y, p, **kw: skbrier.ranked_probability_score(y, _two_columns(p), **kw),
    ),
    Entry(
        "ranked_probability_skill_score",
        lambda y, p, **kw: skbrier.ranked_probability_skill_score(y, _two_columns(p), **kw),
    ),
    Entry(
        "ranked_probability_decomposition",
        lambda y, p, **kw: skbrier.ranked_probability_decomposition(
            y, _two_columns(p), **kw
        ),
    ),
    Entry(
        "decision_curve",
        lambda y, p, **kw: skbrier.decision_curve(y, p, thresholds=[0.2, 0.5], **kw),
    ),
    Entry(
        "murphy_decomposition",
        lambda y, p, **kw: skbrier.murphy_decomposition(y, p, n_bins=5, **kw),
    ),
    Entry(
        "murphy_decomposition(quantile)",
        lambda y, p, **kw: skbrier.murphy_decomposition(
            y, p, n_bins=4, strategy="quantile", **kw
        ),
        point=(),  # equal-mass bins of frequency weights depend on the total weight
    ),
    Entry("corp_decomposition", skbrier.corp_decomposition),
    Entry("c_statistic", skbrier.c_statistic),
    Entry("calibration_in_the_large", skbrier.calibration_in_the_large),
    Entry(
        "calibration_intercept_slope",
        skbrier.calibration_intercept_slope,
        point=("intercept", "slope", "calibration_in_the_large"),
    ),
    # z grows with the total weight (frequency weights): no scale-free estimate
    Entry("spiegelhalter_z", skbrier.spiegelhalter_z, point=()),
    Entry(
        "calibration_error(binary)",
        lambda y, p, **kw: skbrier.calibration_error(y, p, n_bins=5, kind="binary", **kw),
    ),
    Entry(
        "calibration_error(binary,quantile)",
        lambda y, p, **kw: skbrier.calibration_error(
            y, p, n_bins=4, strategy="quantile", kind="binary", **kw
        ),
        point=(),  # equal-mass bins of frequency weights depend on the total weight
    ),
    Entry("lowess_calibration_error", skbrier.lowess_calibration_error, weights=False),
    # frequency weights: the knots, neighbourhoods and k-d tree count the total
    # weight, so the curve depends on the scale of the weights (as equal-mass bins)
    Entry("flexible_calibration_curve", skbrier.flexible_calibration_curve, point=()),
    Entry(
        "flexible_calibration_curve(rcs)",
        lambda y, p, **kw: skbrier.flexible_calibration_curve(y, p, smoother="rcs", **kw),
        point=(),
    ),
    Entry(
        "calibration_error",
        lambda y, p, **kw: skbrier.calibration_error(y, p, n_bins=5, **kw),
    ),
    Entry("smooth_calibration_error", skbrier.smooth_calibration_error),
    Entry(
        "platt_calibration_error",
        lambda y, p, **kw: metrics.platt_calibration_error(
            y, p, n_bins=5, binning=None, **kw
        ),
        point=("coef", "intercept", "calibration_error", "calibration_error_before"),
    ),
    Entry(
        "calibration_error_interval",
        lambda y, p, **kw: skbrier.calibration_error_interval(
            y, p, n_bins=5, n_resamples=20, random_state=0, **kw
        ),
        point=(),  # the bootstrap bounds depend on the draws
        ignore=("low", "high"),  # ... and on the order of the rows
    ),
    Entry(
        "brier_inference",
        lambda y, p, **kw: skbrier.brier_inference(y, p, cov_type="iid", **kw),
        point=("brier_score", "brier_skill_score", "brier_index"),
    ),
    Entry(
        "calibration_report",
        lambda y, p, **kw: skbrier.calibration_report(y, p, thresholds=[0.2], **kw),
        point=(
            "brier_score.estimate",
            "brier_index.estimate",
            "brier_skill_score.estimate",
            "calibration_slope.estimate",
            "c_statistic",
            "ece.value",
        ),
        # lowess (Emax, E90, Eavg) is unweighted, so it is left out with weights
        ignore=("emax", "e90", "eavg", "lowess"),
    ),
    Entry(
        "BrierDecomposition",
        lambda y, p, **kw: (
            skbrier.BrierDecomposition("murphy", n_bins=5).fit(y, p, **kw).decomposition_
        ),
    ),
    Entry(
        "compare_brier",
        lambda y, p, **kw: skbrier.compare_brier(y, p, _second(p), cov_type="iid", **kw),
        params=("y_true", "y_proba_a", "y_proba_b", "sample_weight"),
        point=("bs_a", "bs_b", "difference"),
    ),
    # the normalised statistics and p-values grow with (frequency) weights
    Entry("cumulative_calibration", skbrier.cumulative_calibration, point=("ks", "kuiper")),
    # selective prediction and abstention: (y_correct, confidence)
    Entry("aurc", skbrier.aurc, params=_SELECTIVE),
    Entry("e_aurc", skbrier.e_aurc, params=_SELECTIVE),
    Entry(
        "risk_coverage_curve",
        lambda y, p, **kw: skbrier.risk_coverage_curve(
            y, p, n_resamples=20, random_state=0, **kw
        ),
        params=_SELECTIVE,
        point=("aurc", "e_aurc"),
        ignore=("interval", "band"),  # bootstrap bounds depend on the order of the rows
    ),
    Entry(
        "selective_accuracy",
        lambda y, p, **kw: skbrier.selective_accuracy(y, p, coverage=0.3, **kw),
        params=_SELECTIVE,
    ),
    # HELM's statistics count positions: integer weights only, not scale-free
    Entry(
        "selective_coverage_accuracy_area",
        skbrier.selective_coverage_accuracy_area,
        params=_SELECTIVE,
    ),
    Entry(
        "selective_accuracy_at_top", skbrier.selective_accuracy_at_top, params=_SELECTIVE
    ),
    Entry(
        "abstention_utility",
        lambda y, p, **kw: skbrier.abstention_utility(y, p, thresholds=[0.2, 0.5], **kw),
        params=_SELECTIVE,
        point=("area", "accuracy"),
    ),
    Entry(
        "compare_abstention_utility",
        lambda y, p, **kw: skbrier.compare_abstention_utility(
            y, p, y, _second(p), thresholds=[0.2, 0.5], n_resamples=0, **kw
        ),
        params=(
            "y_correct_a",
            "confidence_a",
            "y_correct_b",
            "confidence_b",
            "sample_weight",
        ),
        point=("area_a", "area_b"),
    ),
    Entry(
        "achieved_precision",
        skbrier.achieved_precision,
        point=(
            "estimates.observed_expected",
            "estimates.calibration_slope",
            "estimates.c_statistic",
        ),
    ),
    Entry(
        "compare_forecasts",
        lambda y, p, **kw: types.SimpleNamespace(
            **skbrier.compare_forecasts(y, {"m": p}, **kw).values["m"]
        ),
        point=(
            "brier_score",
            "brier_index",
            "brier_skill_score",
            "miscalibration",
            "discrimination",
            "uncertainty",
            "calibration_intercept",
            "calibration_slope",
            "c_statistic",
        ),
    ),
]

IDS = [e.name for e in REGISTRY]


# --------------------------------------------------------------------------
# turning any result into comparable numbers
# --------------------------------------------------------------------------
def _scalars(result: Any) -> dict[str, float]:
    """Scalar numbers of a result: a float, or the scalar fields of a result object."""
    if isinstance(result, numbers.Real):
        return {"value": float(result)}
    if hasattr(result, "to_dict"):
        items = result.to_dict().items()
    elif hasattr(result, "_asdict"):
        items = result._asdict().items()
    elif dataclasses.is_dataclass(result):
        items = ((f.name, getattr(result, f.name)) for f in dataclasses.fields(result))
    else:
        items = vars(result).items()
    out: dict[str, float] = {}
    for key, value in items:
        if isinstance(value, (bool, np.bool_)) or key.startswith("_") or _is_count(key):
            continue
        if isinstance(value, numbers.Real):
            out[key] = float(value)
        elif isinstance(value, dict):
            for k2, v2 in value.items():
                if isinstance(v2, numbers.Real) and not isinstance(v2, bool):
                    out[f"{key}.{k2}"] = float(v2)
                elif _numeric_array(v2):
                    out.update(_flat(f"{key}.{k2}", v2))
        elif _numeric_array(value):
            out.update(_flat(key, value))
    # per-threshold arrays of a decision curve are also comparable (an array
    # for one model, a dict of arrays for several)
    if hasattr(result, "net_benefit") and not callable(result.net_benefit):
        nb = result.net_benefit
        for k2, v2 in nb.items() if isinstance(nb, dict) else [("", nb)]:
            if _numeric_array(np.asarray(v2)):
                out.update(_flat(f"net_benefit.{k2}", v2))
    return out


def _numeric_array(value: Any) -> bool:
    return (
        isinstance(value, np.ndarray) and value.dtype.kind in "iuf" and value.size <= 1000
    )


def _flat(key: str, values: Any) -> dict[str, float]:
    return {f"{key}[{i}]": float(v) for i, v in enumerate(np.ravel(values))}


def _is_count(key: str) -> bool:
    """Row counts legitimately differ between weighted and repeated rows."""
    return key in ("n", "n_samples", "n_used", "n_rows", "n_obs") or key.startswith("n_")


def _close(a: dict[str, float], b: dict[str, float], keys=None, rtol=1e-9, atol=1e-12):
    keys = sorted(set(a) & set(b)) if keys is None else [k for k in keys if k in a]
    assert keys, "nothing to compare"
    bad = {
        k: (a[k], b[k])
        for k in keys
        if not (
            (math.isnan(a[k]) and math.isnan(b[k]))
            or math.isclose(a[k], b[k], rel_tol=rtol, abs_tol=atol)
        )
    }
    assert not bad, bad


def _run(entry: Entry, y: Any, p: Any, w: Any = None) -> dict[str, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = _scalars(entry(y, p, w))
    return {k: v for k, v in out.items() if not any(i in k for i in entry.ignore)}


def _data(n: int = 40, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    p = np.round(rng.uniform(0.03, 0.97, n), 2)  # ties on purpose
    y = (rng.uniform(size=n) < p).astype(np.int64)
    y[:2] = [0, 1]
    w = rng.integers(1, 4, n).astype(np.float64)
    return y, p, w


# --------------------------------------------------------------------------
# same data, other representations
# --------------------------------------------------------------------------
def _label_variants(y: np.ndarray) -> dict[str, Any]:
    return {
        "bool": y.astype(bool),
        "int8": y.astype(np.int8),
        "float16": y.astype(np.float16),
        "float32": y.astype(np.float32),
        "big-endian int": y.astype(">i8"),
        "big-endian float": y.astype(">f8"),
        "object int": y.astype(object),
        "list": y.tolist(),
        "pandas Int64": pd.Series(y, dtype="Int64"),
        "pandas categorical": pd.Series(pd.Categorical(y)),
        "pandas other index": pd.Series(y, index=np.arange(len(y))[::-1] + 7),
    }


def _proba_variants(p: np.ndarray) -> dict[str, Any]:
    ro = p.copy()
    ro.flags.writeable = False
    wide = np.repeat(p, 2)
    return {
        "big-endian": p.astype(">f8"),
        "read-only": ro,
        "non-contiguous": wide[::2],
        "object float": p.astype(object),
        "list": p.tolist(),
        "pandas Float64": pd.Series(p, dtype="Float64"),
        "pandas Series": pd.Series(p, index=np.arange(len(p)) + 3),
    }


@pytest.mark.parametrize("entry", REGISTRY, ids=IDS)
def test_label_representations(entry):
    y, p, _ = _data()
    ref = _run(entry, y, p)
    for kind, yy in _label_variants(y).items():
        try:
            got = _run(entry, yy, p)
        except (ValueError, TypeError) as exc:  # pragma: no cover - reported below
            raise AssertionError(f"{kind} labels refused: {exc}") from None
        _close(ref, got)


@pytest.mark.parametrize("entry", REGISTRY, ids=IDS)
def test_forecast_representations(entry):
    y, p, _ = _data()
    ref = _run(entry, y, p)
    for kind, pp in _proba_variants(p).items():
        try:
            got = _run(entry, y, pp)
        except (ValueError, TypeError) as exc:  # pragma: no cover - reported below
            raise AssertionError(f"{kind} forecasts refused: {exc}") from None
        _close(ref, got)


# --------------------------------------------------------------------------
# frequency weights
# --------------------------------------------------------------------------
WEIGHTED = [e for e in REGISTRY if e.weights]
WIDS = [e.name for e in WEIGHTED]


@pytest.mark.parametrize("entry", WEIGHTED, ids=WIDS)
def test_unit_weights_equal_no_weights(entry):
    y, p, _ = _data()
    _close(_run(entry, y, p), _run(entry, y, p, np.ones(len(y))))


@pytest.mark.parametrize("entry", WEIGHTED, ids=WIDS)
def test_integer_weights_equal_repeated_rows(entry):
    y, p, w = _data()
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    _close(_run(entry, y, p, w), _run(entry, y[rep], p[rep]))


@pytest.mark.parametrize("entry", [e for e in WEIGHTED if e.iid], ids=lambda e: e.name)
def test_zero_weight_rows_equal_removed_rows(entry):
    y, p, w = _data()
    w0 = w.copy()
    w0[5:9] = 0.0
    keep = w0 > 0
    _close(_run(entry, y, p, w0), _run(entry, y[keep], p[keep], w0[keep]))


@pytest.mark.parametrize("entry", REGISTRY, ids=IDS)
def test_permutation_invariance(entry):
    y, p, w = _data()
    perm = np.random.default_rng(1).permutation(len(y))
    if entry.weights:
        _close(_run(entry, y, p, w), _run(entry, y[perm], p[perm], w[perm]))
    else:
        _close(_run(entry, y, p), _run(entry, y[perm], p[perm]))


@pytest.mark.parametrize("scale", [1e-200, 1e300])
@pytest.mark.parametrize("entry", WEIGHTED, ids=WIDS)
def test_extreme_weight_scale_keeps_point_estimates(entry, scale):
    if entry.point == ():
        pytest.skip("no scale-free point estimate")
    y, p, w = _data()
    ref = _run(entry, y, p, w)
    try:
        got = _run(entry, y, p, w * scale)
    except (ValueError, TypeError) as exc:
        assert "sample_weight" in str(exc)
        return
    _close(ref, got, keys=entry.point)


# --------------------------------------------------------------------------
# bad input: a ValueError or TypeError that names a parameter
# --------------------------------------------------------------------------
def _bad_cases() -> dict[str, tuple[Any, Any, Any]]:
    y, p, w = _data(8)
    return {
        "NaN forecast": (y, np.r_[np.nan, p[1:]], None),
        "inf forecast": (y, np.r_[np.inf, p[1:]], None),
        "forecast above 1": (y, np.r_[1.5, p[1:]], None),
        "forecast below 0": (y, np.r_[-0.1, p[1:]], None),
        "string forecast": (y, ["a"] * 8, None),
        "None forecast": (y, None, None),
        "NaN label": (np.r_[np.nan, y[1:]], p, None),
        "three classes": (np.r_[2, y[1:]], p, None),
        "empty": (np.array([], dtype=int), np.array([]), None),
        "length mismatch": (y, p[:-1], None),
        "3-D forecast": (y, p.reshape(8, 1, 1), None),
        "2-D labels": (y.reshape(4, 2), p, None),
        "negative weight": (y, p, np.r_[-1.0, w[1:]]),
        "NaN weight": (y, p, np.r_[np.nan, w[1:]]),
        "inf weight": (y, p, np.r_[np.inf, w[1:]]),
        "all-zero weights": (y, p, np.zeros(8)),
        "weight length": (y, p, w[:-1]),
        "string weights": (y, p, ["a"] * 8),
        "2-D weights": (y, p, w.reshape(4, 2)),
    }


BAD = _bad_cases()


def _expect_named_error(entry: Entry, y: Any, p: Any, w: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            entry(y, p, w)
        except (ValueError, TypeError) as exc:
            msg = str(exc)
            assert any(name in msg for name in entry.params) or "pos_label" in msg, msg
            return
    raise AssertionError("no error raised")


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
@pytest.mark.parametrize("entry", REGISTRY, ids=IDS)
def test_bad_input_raises_named_error(entry, case):
    y, p, w = BAD[case]
    if w is not None and not entry.weights:
        pytest.skip("no sample_weight")
    _expect_named_error(entry, y, p, w)


# --------------------------------------------------------------------------
# edge input: a number (NaN allowed) or a named error, nothing else
# --------------------------------------------------------------------------
def _edge_cases() -> dict[str, tuple[Any, Any, Any]]:
    y, p, w = _data(12)
    one = np.ones(12, dtype=int)
    w1 = np.zeros(12)
    w1[3] = 2.0
    return {
        "length 1": (np.array([1]), np.array([0.7]), None),
        "length 2": (np.array([0, 1]), np.array([0.3, 0.6]), None),
        "one class": (one, p, None),
        "one class by weight": (y, p, np.where(y == 1, 0.1, 0.0)),
        "one positive weight": (y, p, w1),
        "tiny weights": (y, p, np.full(12, 1e-200)),
        "huge weights": (y, p, np.full(12, 1e300)),
        "mixed extreme weights": (y, p, np.r_[1.0, np.full(11, 1e-200)]),
        "forecasts 0 and 1": (y, y.astype(float), None),
        "constant forecast": (y, np.full(12, 0.99), None),
        "near separation": (np.r_[1, np.zeros(11, int)], np.full(12, 0.99), None),
        "float16 labels": (y.astype(np.float16), p, None),
    }


EDGE = _edge_cases()


@pytest.mark.parametrize("case", list(EDGE), ids=list(EDGE))
@pytest.mark.parametrize("entry", REGISTRY, ids=IDS)
def test_edge_input_gives_number_or_named_error(entry, case):
    y, p, w = EDGE[case]
    if w is not None and not entry.weights:
        pytest.skip("no sample_weight")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res = entry(y, p, w)
        except (ValueError, TypeError) as exc:
            msg = str(exc)
            assert any(name in msg for name in entry.params) or "pos_label" in msg, msg
            return
    if entry.reference is not None and len(set(np.asarray(y).tolist())) == 2:
        ref = entry.reference(y, p, sample_weight=w)
        if math.isinf(ref) and math.isnan(res):
            return  # one class by weight: skbrier's documented NaN, sklearn's -inf
        assert math.isclose(res, ref, rel_tol=1e-9, abs_tol=1e-12), (res, ref)
        return
    for key, value in _scalars(res).items():
        assert isinstance(value, float), (key, value)
        if _unbounded(entry, key) or (math.isinf(value) and caught):
            continue  # an infinite estimate (separation) is fine when the caller is told
        if "skill" in key:
            # a skill score lies in (-inf, 1]: a tiny climatology (one class of
            # weight 1e-200) gives a huge negative, exact, skill
            assert math.isnan(value) or value <= 1.0, (key, value)
            continue
        # an estimate must be a sane one: no silently exploding numbers
        assert math.isnan(value) or abs(value) < 1e6, (key, value)


_SCALES_WITH_WEIGHT = (
    "stderr",
    "standard_error",
    "statistic",
    "chi2",
    "pvalue",
    "weight",
    "low",
    "high",
    "variance",
)


def _unbounded(entry: Entry, key: str) -> bool:
    """Test statistics and standard errors grow with (frequency) weights; estimates don't."""
    if entry.point is not None:
        return key not in entry.point
    return key in ("z",) or any(part in key for part in _SCALES_WITH_WEIGHT)


# --------------------------------------------------------------------------
# hard 0/1 forecasts: one HardForecastWarning per public call, at the caller
# --------------------------------------------------------------------------
# net benefit takes binary tests coded 0/1, the selective statistics confidences
# that may be 0 or 1 (a ranking, an answer-or-abstain rule): no warning there
_TAKE_BINARY_TESTS = (
    "net_benefit",
    "decision_curve",
    "aurc",
    "e_aurc",
    "risk_coverage_curve",
    "selective_accuracy",
    "selective_coverage_accuracy_area",
    "selective_accuracy_at_top",
    "abstention_utility",
    "compare_abstention_utility",
)


@pytest.mark.parametrize("entry", REGISTRY, ids=IDS)
def test_hard_forecasts_warn_once_per_call(entry):
    from skbrier.exceptions import HardForecastWarning

    y, p, _ = _data(40)
    expected = 0 if entry.name in _TAKE_BINARY_TESTS else 1
    hard = np.where(p > 0.5, 1.0, 0.0)
    hard[:4] = [0.0, 1.0, 1.0, 0.0]  # not the labels: no perfect separation
    for _ in range(2):  # a second call warns again (no state kept between calls)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                entry(y, hard)
            except (ValueError, TypeError):
                pass  # e.g. a logistic fit needs forecasts strictly inside (0, 1)
        got = [w for w in caught if issubclass(w.category, HardForecastWarning)]
        assert len(got) == expected, [str(w.message) for w in got]
        if expected:
            assert "predict_proba" in str(got[0].message)
            assert got[0].filename == __file__  # points at the caller's line
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            entry(y, p)
        except (ValueError, TypeError):
            pass
    assert not [w for w in caught if issubclass(w.category, HardForecastWarning)]


# --------------------------------------------------------------------------
# every public callable is covered or knowingly left out
# --------------------------------------------------------------------------
NOT_Y_P = {
    # callables whose inputs are not (y_true, y_proba): tested in their own modules
    "multiple_choice_brier_score",
    "binary_test_probabilities",
    # long-format panels (a row is a forecaster x question pair, so repeated rows
    # are refused): tests/test_leaderboard*.py
    "difficulty_adjusted_brier",
    "leaderboard",
    "combine_leaderboards",
    "parity_date",
    # forecast histories (updates of forecasters on questions over time):
    # tests/test_history*.py
    "forecast_history",
    "daily_brier",
    "brier_at",
    "peer_score",
    "baseline_score",
    "long_run_covariance",
    "block_bootstrap",
    "bootstrap_indices",
    "optimal_block_length",
    "default_block_length",
    "make_brier_index_scorer",
    "make_brier_score_scorer",
    "make_brier_skill_score_scorer",
    "make_net_benefit_scorer",
    "make_ranked_probability_score_scorer",
    "cross_val_brier",
    "pooled_scoring",
    "pooled_refit",
    "pooled_cv_scores",
    "optuna_objective",
    "pooled_best_score",
    "calibration_report",
    # (y_correct, attempted): tests/test_abstention.py
    "abstention_scores",
    "load_forecasts",
    "make_logistic_cohort",
    # human verdicts with NaN for unlabelled items: the invariances are tested in
    # tests/test_prediction_powered.py
    "prediction_powered_accuracy",
    "prediction_powered_brier_score",
    "random_effects_meta",  # estimates and variances (tests/test_meta_analysis.py)
    "clustered_validation",  # needs groups= (tests/test_meta_analysis.py)
    "calibration_by_group",  # needs groups= (tests/test_subgroups.py)
    "multicalibration_error",  # needs segments= (tests/test_cumulative.py)
    "pool_rubin",  # estimates and variances (tests/test_rubin.py)
    "pooled_validation",  # one forecast per imputed data set (tests/test_rubin.py)
    "temperature_scaling",  # multiple-choice log-likelihoods (tests/test_recalibration.py)
    "validation_sample_size",  # anticipated values, no data (tests/test_sample_size.py)
    # a bootstrap of the rows (its draws change with their order and repetition):
    # tests/test_decision_value.py
    "compare_net_benefit",
    "internal_validation",  # (estimator, X, y): tests/test_internal_validation*.py
    "clustered_calibration_curve",  # needs groups= (tests/test_clustered_calibration.py)
    # scores of forecast histories, not (y, p): tests/test_history_leaderboard.py
    "history_leaderboard",
}


def test_registry_covers_every_public_function():
    import inspect

    names = set()
    for mod in (skbrier, metrics, stats):
        for name in mod.__all__:
            if inspect.isfunction(getattr(mod, name)):
                names.add(name)
    covered = {e.name.split("(")[0] for e in REGISTRY}
    assert names - covered - NOT_Y_P == set()
