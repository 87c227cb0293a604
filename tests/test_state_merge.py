"""Merging mergeable states: options must agree, the order must not matter.

Every mergeable state (:mod:`skbrier.states`, the dask fit state and the
partially fitted :class:`~skbrier.decomposition.BrierDecomposition`) is
checked against one table of cases: for each option, two states that differ
only in that option refuse to merge with a ValueError naming it; a state of
another class is a TypeError; states with equal options merge to the same
result in either order (to 1e-12), to the state of the concatenated data,
and merging an empty state is the identity.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import math
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skbrier.states as states_module
from skbrier.decomposition import BrierDecomposition
from skbrier.metrics._calibration_error_core import check_options
from skbrier.states import (
    BinaryState,
    BinnedState,
    BrierState,
    CalibrationBinsState,
    ClasswiseBinnedState,
    ForecastTable,
    MomentState,
    MulticlassBrierState,
    MultipleChoiceState,
    RankedProbabilityState,
    SampleState,
    SpiegelhalterState,
    StateBundle,
    ThresholdState,
)
from skbrier.states._base import MergeableState
from skbrier.states._fit import FitState

# ----------------------------------------------------------------------------
# the data: (y, p, w, q) with q a second forecast (the extra columns)
# ----------------------------------------------------------------------------


@dataclasses.dataclass
class Rows:
    y: np.ndarray
    p: np.ndarray
    w: np.ndarray | None
    q: np.ndarray

    def __getitem__(self, s: slice) -> Rows:
        return Rows(self.y[s], self.p[s], None if self.w is None else self.w[s], self.q[s])


def _binary_rows(rng: np.random.Generator, n: int) -> Rows:
    p = rng.integers(0, 21, n) / 20.0  # ties and the ends 0 and 1
    return Rows(rng.integers(0, 2, n), p, None, rng.integers(0, 21, n) / 20.0)


def _multiclass_rows(rng: np.random.Generator, n: int) -> Rows:
    p = rng.dirichlet([1.0, 1.0, 1.0], n)
    p[:, 2] = 1.0 - p[:, 0] - p[:, 1]
    p = np.clip(p, 0.0, 1.0)
    q = rng.dirichlet([2.0, 2.0, 2.0], n)
    q[:, 2] = np.clip(1.0 - q[:, 0] - q[:, 1], 0.0, 1.0)
    return Rows(rng.integers(0, 3, n), p, None, q)


# ----------------------------------------------------------------------------
# the table of cases: every mergeable state class, its options and results
# ----------------------------------------------------------------------------


def _fields(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _fields(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [_fields(v) for v in obj]
    return obj


def _binary_feed(state: Any, rows: Rows) -> Any:
    cols: dict[str, Any] = {}
    if getattr(state, "with_reference", False):
        cols["reference"] = rows.q
    for name in getattr(state, "columns", ()):
        cols[name] = rows.q
    for name in getattr(state, "models", ())[1:]:
        cols[name] = rows.q
    if isinstance(state, StateBundle):
        for member in state.states.values():
            cols.update(_binary_feed_columns(member, rows))
    return state.update(rows.y, rows.p, rows.w, **cols)


def _binary_feed_columns(state: Any, rows: Rows) -> dict:
    out: dict[str, Any] = {}
    if getattr(state, "with_reference", False):
        out["reference"] = rows.q
    return out


def _multiclass_feed(state: Any, rows: Rows) -> Any:
    cols = {"reference": rows.q} if getattr(state, "with_reference", False) else {}
    return state.update(rows.y, rows.p, rows.w, **cols)


def _choice_feed(state: Any, rows: Rows) -> Any:
    scores = np.log(np.maximum(rows.p, 1e-300)) if state.from_logprobs else rows.p
    return state.update(rows.y, scores, rows.w)


def _brier(s: BrierState) -> Any:
    return [s.finalize(), s.skill(), s.reference_score(0.3)]


def _sample_result(s: SampleState) -> Any:
    return [s.totals(), s.sample()]


def _sample_concat(s: SampleState) -> Any:
    """The sample's rows are drawn by keys of each chunk: equal to the
    concatenated data's sample as a set (all rows here: n <= size)."""
    y, p, w = s.sample()
    o = np.lexsort((p, y) if w is None else (w, p, y))
    return [s.totals(), (y[o], p[o], None if w is None else w[o])]


def _table(s: ForecastTable) -> Any:
    return [_fields(s.corp()), s.c_statistic()]


def _thresholds(s: ThresholdState) -> Any:
    return [s.net_benefit(j) for j in range(len(s.models))] + [s.prevalence()]


def _bundle(s: StateBundle) -> Any:
    return {name: CASES[type(m)].result(s.state(name)) for name, m in s.states.items()}


@dataclasses.dataclass
class Case:
    make: Callable[..., Any]  # make(**options): a fresh state
    base: dict  # the options of the first state
    alt: dict  # option -> another value
    rows: Callable[[np.random.Generator, int], Rows]
    feed: Callable[[Any, Rows], Any]
    result: Callable[[Any], Any]
    concat: Callable[[Any], Any] | None = None  # result compared with the concatenation


E5, E3 = np.linspace(0.0, 1.0, 6), np.linspace(0.0, 1.0, 4)
OPT = check_options("l1", 5, "uniform", None, False, True)


def _make_bundle(states: dict | None = None, pos_label: Any = None) -> StateBundle:
    members = states or {"bs": BrierState(), "table": ForecastTable()}
    members = {k: copy.deepcopy(v) for k, v in members.items()}
    for m in members.values():
        m.pos_label = pos_label
    return StateBundle(members, pos_label=pos_label)


CASES: dict[type, Case] = {
    BrierState: Case(
        BrierState,
        {},
        {"pos_label": 0, "with_reference": True},
        _binary_rows,
        _binary_feed,
        _brier,
    ),
    SpiegelhalterState: Case(
        SpiegelhalterState,
        {},
        {"pos_label": 0},
        _binary_rows,
        _binary_feed,
        lambda s: s.finalize(),
    ),  # fmt: skip
    FitState: Case(
        FitState, {}, {"pos_label": 0}, _binary_rows, _binary_feed, lambda s: s.finalize()
    ),
    BinnedState: Case(
        BinnedState,
        {"edges": E5},
        {"edges": E3, "right": False, "pos_label": 0},
        _binary_rows,
        _binary_feed,
        lambda s: [_fields(s.murphy()), s.calibration_error("l2")],
    ),
    MomentState: Case(
        MomentState,
        {},
        {"columns": ("other",), "pos_label": 0},
        _binary_rows,
        _binary_feed,
        lambda s: list(s.class_moments((0.3, 0.6))),
    ),
    SampleState: Case(
        SampleState,
        {"size": 40, "seed": 0},
        {"size": 30, "seed": 1, "pos_label": 0},
        _binary_rows,
        _binary_feed,
        _sample_result,
        _sample_concat,
    ),
    ForecastTable: Case(
        ForecastTable,
        {},
        {"resolution": 0.1, "pos_label": 0},
        _binary_rows,
        _binary_feed,
        _table,
    ),
    ThresholdState: Case(
        ThresholdState,
        {"thresholds": [0.1, 0.5]},
        {
            "thresholds": [0.2, 0.5],
            "models": ("model", "other"),
            "single": False,
            "pos_label": 0,
        },
        _binary_rows,
        _binary_feed,
        _thresholds,
    ),
    StateBundle: Case(
        _make_bundle,
        {},
        {
            "states": {"bs": BrierState(with_reference=True), "z": SpiegelhalterState()},
            "pos_label": 0,
        },
        _binary_rows,
        _binary_feed,
        _bundle,
    ),
    CalibrationBinsState: Case(
        CalibrationBinsState,
        {"options": OPT},
        {
            "options": check_options("l2", 5, "uniform", None, False, True),
            "kind": "classwise",
            "labels": [0, 1, 2],
            "pos_label": 1,
            "confidence_scale": 2.0,
        },
        _multiclass_rows,
        _multiclass_feed,
        lambda s: s.finalize(),
    ),
    MulticlassBrierState: Case(
        MulticlassBrierState,
        {},
        {"labels": [0, 1, 2], "with_reference": True},
        _multiclass_rows,
        _multiclass_feed,
        lambda s: [s.finalize(), s.skill(), s.class_weights()],
    ),
    RankedProbabilityState: Case(
        RankedProbabilityState,
        {},
        {"labels": [2, 0, 1], "with_reference": True},
        _multiclass_rows,
        _multiclass_feed,
        lambda s: [s.finalize(), s.finalize(normalize=True), s.skill()],
    ),
    ClasswiseBinnedState: Case(
        ClasswiseBinnedState,
        {"edges": E5},
        {"edges": E3, "right": False, "labels": [0, 1, 2]},
        _multiclass_rows,
        _multiclass_feed,
        lambda s: _fields(s.statistics()),
    ),
    MultipleChoiceState: Case(
        MultipleChoiceState,
        {},
        {"convention": "bigbench", "from_logprobs": True},
        _multiclass_rows,
        _choice_feed,
        lambda s: s.finalize(),
    ),
}


def _all_state_classes() -> set[type]:
    out: set[type] = set()
    todo = [MergeableState]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if not sub.__name__.startswith("_"):
                out.add(sub)
    return out - {BinaryState}


def test_the_table_covers_every_state_and_option():
    exported = {
        getattr(states_module, n)
        for n in states_module.__all__
        if isinstance(getattr(states_module, n), type)
    }
    assert exported - {BinaryState} <= set(CASES)
    assert _all_state_classes() <= set(CASES)
    for cls, case in CASES.items():
        params = [
            n for n in inspect.signature(cls.__init__).parameters if n not in ("self",)
        ]
        assert sorted(cls.option_names()) == sorted(params), cls
        assert set(case.alt) == set(params), cls


# ----------------------------------------------------------------------------
# helpers: results (or the error) of a state, compared to 1e-12
# ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Error:
    kind: str
    message: str


def _outcome(case: Case, state: Any, result: Callable | None = None) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return (result or case.result)(copy.deepcopy(state))
        except (ValueError, TypeError) as e:
            return Error(type(e).__name__, str(e))


def _assert_close(a: Any, b: Any, path: str = "") -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), path
        for k in a:
            _assert_close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), (path, a, b)
        for i, (x, y) in enumerate(zip(a, b)):
            _assert_close(x, y, f"{path}[{i}]")
    elif a is None or isinstance(a, (str, Error)) or isinstance(b, Error):
        assert a == b, (path, a, b)
    else:
        x, y = np.asarray(a), np.asarray(b)
        assert x.shape == y.shape, (path, x, y)
        if x.dtype.kind in "biufc":
            np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12, err_msg=path)
        else:
            assert (x == y).all(), (path, x, y)


def _state(case: Case, rows: Rows, **options: Any) -> Any:
    return case.feed(case.make(**{**case.base, **options}), rows)


def _data(case: Case, seed: int, n: int, cut: float, weights: tuple[bool, bool]):
    rng = np.random.default_rng(seed)
    rows = case.rows(rng, n)
    k = int(cut * n)
    a, b = rows[:k], rows[k:]
    w = [
        rng.choice([0.0, 0.5, 1.0, 3.0], m) if on and m else None
        for on, m in zip(weights, (k, n - k))
    ]
    a.w, b.w = w
    if w[0] is not None or w[1] is not None:
        rows.w = np.concatenate(
            [np.ones(m) if v is None else v for v, m in zip(w, (k, n - k))]
        )
    return rows, a, b


# ----------------------------------------------------------------------------
# refusals
# ----------------------------------------------------------------------------


def _variants(cls: type) -> list[tuple[type, str]]:
    return [(cls, name) for name in CASES[cls].alt]


@pytest.mark.parametrize(
    "cls, option",
    [v for cls in CASES for v in _variants(cls)],
    ids=lambda v: getattr(v, "__name__", v),
)
def test_states_differing_in_one_option_refuse_to_merge(cls, option):
    case = CASES[cls]
    rng = np.random.default_rng(0)
    rows = case.rows(rng, 12)
    for alt_first in (False, True):
        a = _state(case, rows[:6])
        b = _state(case, rows[6:], **{option: case.alt[option]})
        if alt_first:
            a, b = b, a
        before = _outcome(case, a)
        with pytest.raises(ValueError, match=f"differ in .*'{re.escape(option)}") as info:
            a.merge(b)
        msg = str(info.value)
        assert msg.startswith(f"cannot merge {cls.__name__}("), msg
        _assert_close(_outcome(case, a), before)  # nothing merged
        # empty states with other options are refused too
        with pytest.raises(ValueError, match=re.escape(option)):
            case.make(**case.base).merge(
                case.make(**{**case.base, option: case.alt[option]})
            )


def test_the_message_names_the_option_and_both_values():
    with pytest.raises(ValueError) as info:
        BrierState(pos_label=0).merge(BrierState(pos_label=1))
    assert str(info.value).startswith(
        "cannot merge BrierState(pos_label=0) with BrierState(pos_label=1): "
        "the states differ in 'pos_label'"
    )
    with pytest.raises(ValueError, match=r"ForecastTable\(resolution=0\.001\) with "):
        ForecastTable(resolution=0.001).merge(ForecastTable(resolution=0.01))
    with pytest.raises(ValueError, match=r"'size' and 'seed'"):
        SampleState(5, seed=0).merge(SampleState(6, seed=1))
    with pytest.raises(ValueError, match=r"options\.norm='l1'.*options\.norm='l2'"):
        CalibrationBinsState(OPT).merge(
            CalibrationBinsState(check_options("l2", 5, "uniform", None, False, True))
        )
    with pytest.raises(ValueError, match=r"states\['bs'\]\.with_reference"):
        _make_bundle().merge(
            _make_bundle({"bs": BrierState(with_reference=True), "table": ForecastTable()})
        )
    # the members in another order would add the sums of other members
    with pytest.raises(ValueError, match="'states'"):
        _make_bundle().merge(_make_bundle({"table": ForecastTable(), "bs": BrierState()}))


@pytest.mark.parametrize("cls", list(CASES), ids=lambda c: c.__name__)
def test_merging_another_class_is_a_type_error(cls):
    case = CASES[cls]
    other = SpiegelhalterState() if cls is not SpiegelhalterState else BrierState()
    with pytest.raises(
        TypeError, match=f"cannot merge {type(other).__name__} into {cls.__name__}"
    ):
        case.make(**case.base).merge(other)
    with pytest.raises(TypeError, match=cls.__name__):
        case.make(**case.base).merge("a state")


# ----------------------------------------------------------------------------
# equal options: either order, the concatenated data, the empty state
# ----------------------------------------------------------------------------


def _option_sets(cls: type) -> list[tuple[type, str | None]]:
    return [(cls, None)] + [(cls, name) for name in CASES[cls].alt]


@pytest.mark.parametrize(
    "cls, option",
    [v for cls in CASES for v in _option_sets(cls)],
    ids=lambda v: getattr(v, "__name__", str(v)),
)
@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 24),
    cut=st.floats(0.0, 1.0),
    weights=st.tuples(st.booleans(), st.booleans()),
)
def test_equal_options_merge_in_any_order_to_the_concatenation(
    cls, option, seed, n, cut, weights
):
    case = CASES[cls]
    opts = {} if option is None else {option: case.alt[option]}
    rows, a_rows, b_rows = _data(case, seed, n, cut, weights)
    a, b = _state(case, a_rows, **opts), _state(case, b_rows, **opts)
    b_before = _outcome(case, b)
    ab = copy.deepcopy(a).merge(copy.deepcopy(b))
    ba = copy.deepcopy(b).merge(copy.deepcopy(a))
    _assert_close(_outcome(case, ab), _outcome(case, ba))
    whole = _state(case, rows, **opts)
    concat = case.concat or case.result
    _assert_close(_outcome(case, ab, concat), _outcome(case, whole, concat))
    # merge does not change other, even when self is updated afterwards
    a2 = copy.deepcopy(a)
    a2.merge(b)
    case.feed(a2, rows)
    _assert_close(_outcome(case, b), b_before)
    # an empty state is the identity, on either side
    empty = case.make(**{**case.base, **opts})
    _assert_close(_outcome(case, copy.deepcopy(a).merge(empty)), _outcome(case, a))
    _assert_close(_outcome(case, copy.deepcopy(empty).merge(a)), _outcome(case, a))


# ----------------------------------------------------------------------------
# the numbers of the issue: refused instead of an order-dependent number
# ----------------------------------------------------------------------------


def test_the_issue_examples_are_refused():
    y, p = np.array([0, 1, 1, 0, 1]), np.array([0.2, 0.7, 0.9, 0.4, 0.3])
    with pytest.raises(ValueError, match="'pos_label'"):
        BrierState(pos_label=0).update(y, p).merge(BrierState(pos_label=1).update(y, p))
    with pytest.raises(ValueError, match="'with_reference'"):
        BrierState(with_reference=True).update(y, p, reference=p).merge(
            BrierState().update(y, p)
        )
    mc = MultipleChoiceState().update([0], [[0.7, 0.3]])
    with pytest.raises(ValueError, match="'convention'"):
        mc.merge(MultipleChoiceState("bigbench").update([0], [[0.7, 0.3]]))
    with pytest.raises(ValueError, match="'from_logprobs'"):
        mc.merge(MultipleChoiceState(from_logprobs=True))
    with pytest.raises(ValueError, match="'resolution'"):
        ForecastTable().update(y, p).merge(ForecastTable(resolution=0.5).update(y, p))
    with pytest.raises(ValueError, match="'seed'"):
        SampleState(3, seed=0).merge(SampleState(3, seed=1))


def test_multiple_choice_unweighted_rows_weigh_one_next_to_weighted_ones():
    """An unweighted chunk merged with a weighted one: its rows weigh 1, as in
    the concatenation with weights of 1 (and as in every other state)."""
    scores = [[0.7, 0.3], [0.2, 0.8]]
    a = MultipleChoiceState().update([0, 0], scores)
    b = MultipleChoiceState().update([1, 1], scores, sample_weight=[4.0, 4.0])
    whole = MultipleChoiceState().update([0, 0, 1, 1], scores + scores, [1, 1, 4.0, 4.0])
    for x, y in ((a, b), (b, a)):
        got = copy.deepcopy(x).merge(copy.deepcopy(y)).finalize()
        assert math.isclose(got, whole.finalize(), rel_tol=1e-12)


def test_forecast_table_merge_leaves_other_exact(monkeypatch):
    """resolution="auto": a merge that rounds (too many distinct forecasts)
    rounds the merged table only, not the tables of ``other`` it shares."""
    from skbrier._core import binning as _binning

    monkeypatch.setattr(_binning, "AUTO_MAX_DISTINCT", 5)
    monkeypatch.setattr(_binning, "AUTO_RESOLUTION", 0.1)
    rng = np.random.default_rng(5)
    many = ForecastTable(resolution="auto").update(rng.integers(0, 2, 40), rng.random(40))
    few = ForecastTable(resolution="auto").update([0, 1, 1], [0.12, 0.74, 0.33])
    before = few.c_statistic(), few.corp().brier_score
    merged = copy.deepcopy(many).merge(few)
    assert merged.rounded_to == 0.1 and few.rounded_to is None
    merged.c_statistic(), merged.corp()
    assert (few.c_statistic(), few.corp().brier_score) == before
    other = copy.deepcopy(few).merge(copy.deepcopy(many))
    _assert_close(_table(other), _table(merged))


# ----------------------------------------------------------------------------
# BrierDecomposition (partial_fit / merge): the same rules
# ----------------------------------------------------------------------------

DEC_ALT = {
    "n_bins": 5,
    "strategy": [0.0, 0.3, 0.6, 1.0],
    "bias_correction": True,
    "pos_label": 0,
}


@pytest.mark.parametrize("option", list(DEC_ALT))
def test_decomposition_merge_refuses_other_options(option):
    rng = np.random.default_rng(1)
    rows = _binary_rows(rng, 40)
    a = BrierDecomposition("murphy", pos_label=1).partial_fit(rows.y[:20], rows.p[:20])
    b = BrierDecomposition("murphy", **{"pos_label": 1, option: DEC_ALT[option]})
    b.partial_fit(rows.y[20:], rows.p[20:])
    with pytest.raises(
        ValueError, match=f"^cannot merge BrierDecomposition\\(.*'{option}'"
    ):
        a.merge(b)
    with pytest.raises(TypeError, match="BrierDecomposition"):
        a.merge(BrierState())


@settings(max_examples=20, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 30),
    cut=st.floats(0.05, 0.95),
    weighted=st.booleans(),
)
def test_decomposition_merges_in_any_order_to_the_concatenation(seed, n, cut, weighted):
    rng = np.random.default_rng(seed)
    rows = _binary_rows(rng, n)
    w = rng.choice([0.5, 1.0, 3.0], n) if weighted else None
    k = min(max(int(cut * n), 1), n - 1)

    def fit(s: slice) -> BrierDecomposition:
        return BrierDecomposition("murphy", n_bins=4).partial_fit(
            rows.y[s], rows.p[s], None if w is None else w[s]
        )

    def numbers(d: BrierDecomposition) -> list:
        return [d.brier_score_, d.miscalibration_, d.discrimination_, d.uncertainty_]

    ab = fit(slice(0, k)).merge(fit(slice(k, n)))
    ba = fit(slice(k, n)).merge(fit(slice(0, k)))
    _assert_close(numbers(ab), numbers(ba))
    _assert_close(numbers(ab), numbers(fit(slice(0, n))))


def test_classwise_binned_state_with_huge_and_tiny_weights():
    # the per-bin sums of ClasswiseBinnedState scale the weights by a power of
    # two as BinnedState does: weights of 1e300 leaked numpy's overflow warning
    rng = np.random.default_rng(41)
    rows = _multiclass_rows(rng, 37)
    w = rng.random(37) + 0.05
    plain = ClasswiseBinnedState(E5).update(rows.y, rows.p, w).statistics()[0]
    for scale in (1e300, 1e-300):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            halves = [
                ClasswiseBinnedState(E5).update(rows.y[s], rows.p[s], w[s] * scale)
                for s in (slice(0, 20), slice(20, None))
            ]
            stats = halves[1].merge(halves[0]).statistics()[0]
        for a, b in zip(stats, plain):
            np.testing.assert_array_equal(a.count, b.count)
            for f in ("sum_w", "sum_wp", "sum_wy", "sum_wpp", "sum_wpy"):
                np.testing.assert_allclose(getattr(a, f), getattr(b, f) * scale, rtol=1e-12)


def test_boolean_labels_of_label_keyed_states():
    # boolean y_true is keyed by Python bools: read back as booleans, as in
    # memory (an object array of them was refused as string labels)
    from skbrier import brier_score
    from skbrier.metrics.calibration_error import calibration_error

    rng = np.random.default_rng(42)
    y = rng.integers(0, 2, 30).astype(bool)
    p = rng.random(30)
    o = check_options("l2", 4, "uniform", None, False, True, True)
    got = CalibrationBinsState(o, kind="binary").update(y[:11], p[:11])
    got = got.merge(CalibrationBinsState(o, kind="binary").update(y[11:], p[11:]))
    want = calibration_error(y, p, kind="binary", n_bins=4, norm="l2", squared=True)
    assert math.isclose(got.finalize(), want, rel_tol=1e-12)
    P = np.c_[1 - p, p]
    s = MulticlassBrierState().update(y, P)
    assert math.isclose(s.finalize(), brier_score(y, P), rel_tol=1e-12)
