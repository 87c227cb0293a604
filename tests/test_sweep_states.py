"""Held-out sweep of the mergeable states (issue 25's reproducers, new inputs).

Every state fed in chunks, in any order and merge shape, must give what the
in-memory public function gives on the same rows: the number, the error and
the warnings.  Each test here failed before its fix.
"""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

import skbrier
from skbrier.decomposition import BrierDecomposition
from skbrier.exceptions import HardForecastWarning
from skbrier.metrics._calibration_error_core import check_options
from skbrier.states import (
    BinnedState,
    BrierState,
    CalibrationBinsState,
    ClasswiseBinnedState,
    ForecastTable,
    MomentState,
    MulticlassBrierState,
    RankedProbabilityState,
    SpiegelhalterState,
    StateBundle,
    ThresholdState,
)

E5 = np.linspace(0.0, 1.0, 6)
OPT = check_options("l1", 5, "uniform", None, False, True)


def _hard_warnings(func):
    """``(result or ValueError message, [messages of HardForecastWarning])``
    of ``func()``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = func()
        except ValueError as e:
            out = str(e)
    return out, [str(w.message) for w in caught if w.category is HardForecastWarning]


def _chunked(make, y, p, cuts, **cols):
    """The state of the rows cut at ``cuts``, each chunk pickled, merged in
    reverse order."""
    bounds = [0, *cuts, len(y)]
    parts = [
        make().update(y[a:b], p[a:b], None, **{k: v[a:b] for k, v in cols.items()})
        for a, b in zip(bounds[:-1], bounds[1:])
    ]
    out = make()
    for s in reversed(parts):
        out.merge(pickle.loads(pickle.dumps(s)))
    return out


# ----------------------------------------------------------------------------
# HardForecastWarning: judged on all the rows, as in memory (it was judged per
# chunk: a chunk of 0/1 forecasts beside soft ones warned, 0/1 forecasts fed
# one row per chunk did not, and the decision-curve state warned although
# decision_curve accepts a binary test silently)
# ----------------------------------------------------------------------------

Y2 = np.array([0, 1, 1, 0, 1, 0])
SOFT_AFTER_HARD = np.array([0.0, 1.0, 1.0, 0.0, 0.7, 0.2])
ALL_HARD = np.array([0.0, 1.0, 1.0, 0.0, 1.0, 0.0])
Y3 = np.array([0, 1, 2, 1, 2])
P3_SOFT_AFTER_HARD = np.r_[np.eye(3)[[0, 1, 2]], [[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]]]
P3_ALL_HARD = np.eye(3)[[0, 1, 2, 2, 1]]

BINARY = {
    "BrierState": (BrierState, lambda s: s.finalize(), skbrier.brier_score),
    "SpiegelhalterState": (
        SpiegelhalterState,
        lambda s: s.finalize()[0],
        lambda y, p: skbrier.spiegelhalter_z(y, p).statistic,
    ),
    "BinnedState": (
        lambda: BinnedState(E5),
        lambda s: s.murphy().reliability,
        lambda y, p: skbrier.murphy_decomposition(y, p, n_bins=5).reliability,
    ),
    "ForecastTable": (
        ForecastTable,
        lambda s: s.c_statistic(),
        skbrier.c_statistic,
    ),
    "CalibrationBinsState": (
        lambda: CalibrationBinsState(OPT, kind="binary"),
        lambda s: s.finalize(),
        lambda y, p: skbrier.calibration_error(y, p, kind="binary", n_bins=5),
    ),
    "MomentState": (
        MomentState,
        lambda s: float(s.class_moments()[2][0]),
        skbrier.brier_score,
    ),
    "StateBundle": (
        lambda: StateBundle({"bs": BrierState(), "table": ForecastTable()}),
        lambda s: s.state("bs").finalize(),
        skbrier.brier_score,
    ),
}

MULTICLASS = {
    "MulticlassBrierState": (
        MulticlassBrierState,
        lambda s: s.finalize(),
        skbrier.brier_score,
    ),
    "RankedProbabilityState": (
        RankedProbabilityState,
        lambda s: s.finalize(),
        skbrier.ranked_probability_score,
    ),
    "CalibrationBinsState": (
        lambda: CalibrationBinsState(OPT, kind="classwise"),
        lambda s: s.finalize(),
        lambda y, p: skbrier.calibration_error(y, p, kind="classwise", n_bins=5),
    ),
    "ClasswiseBinnedState": (
        lambda: ClasswiseBinnedState(E5),
        lambda s: s.statistics()[0][0].sum_w.sum(),
        lambda y, p: skbrier.murphy_decomposition(y, p, n_bins=5).per_class[0].brier_score,
    ),
}


def _check_hard_like_memory(make, result, memory, y, p, cuts):
    _, want = _hard_warnings(lambda: memory(y, p))
    state = None

    def run():
        nonlocal state
        state = _chunked(make, y, p, cuts)
        return result(state)

    _, got = _hard_warnings(run)
    assert got == want, (got, want)
    return state


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_states_warn_of_hard_forecasts_over_all_rows(name):
    make, result, memory = BINARY[name]
    # a chunk of 0/1 forecasts beside soft ones: no warning (none in memory)
    _check_hard_like_memory(make, result, memory, Y2, SOFT_AFTER_HARD, [4])
    # 0/1 forecasts one row per chunk: the in-memory warning, once
    state = _check_hard_like_memory(make, result, memory, Y2, ALL_HARD, [1, 2, 3, 4, 5])
    # updating does not warn: finishing does (the rows are all known then)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HardForecastWarning)
        make().update(Y2, ALL_HARD)
        assert state is not None and state.n_samples == 6


@pytest.mark.parametrize("name", list(MULTICLASS))
def test_multiclass_states_warn_of_hard_forecasts_over_all_rows(name):
    make, result, memory = MULTICLASS[name]
    _check_hard_like_memory(make, result, memory, Y3, P3_SOFT_AFTER_HARD, [3])
    _check_hard_like_memory(make, result, memory, Y3, P3_ALL_HARD, [1, 2, 3, 4])


def test_a_single_hard_row_does_not_warn():
    # as in memory: one forecast of 0 or 1 is no sign of class predictions
    for make, result, memory in BINARY.values():
        _check_hard_like_memory(make, result, memory, np.array([1]), np.array([1.0]), [])


def test_decision_curve_state_accepts_a_binary_test_silently():
    t = np.array([0.1, 0.5])
    _, want = _hard_warnings(
        lambda: skbrier.decision_curve(Y2, ALL_HARD, thresholds=t).net_benefit
    )
    assert want == []
    for cuts in ([], [3]):
        out, got = _hard_warnings(
            lambda c=cuts: _chunked(
                lambda: ThresholdState(t), Y2, ALL_HARD, c
            ).net_benefit()
        )
        assert got == []
        np.testing.assert_allclose(
            out, skbrier.decision_curve(Y2, ALL_HARD, thresholds=t).net_benefit
        )


def test_hard_reference_columns_warn_as_in_memory():
    p = np.array([0.2, 0.6, 0.7, 0.1, 0.5, 0.4])
    for ref in (SOFT_AFTER_HARD, ALL_HARD):
        _, want = _hard_warnings(
            lambda r=ref: skbrier.brier_skill_score(Y2, p, reference=r)
        )
        _, got = _hard_warnings(
            lambda r=ref: _chunked(
                lambda: BrierState(with_reference=True), Y2, p, [1, 2, 3, 4, 5], reference=r
            ).skill()
        )
        assert got == want
    # the ranked skill score takes a 0/1 reference silently
    P = np.full((5, 3), 1.0 / 3.0)
    _, want = _hard_warnings(
        lambda: skbrier.ranked_probability_skill_score(Y3, P, reference=P3_ALL_HARD)
    )
    _, got = _hard_warnings(
        lambda: _chunked(
            lambda: RankedProbabilityState(with_reference=True),
            Y3,
            P,
            [2],
            reference=P3_ALL_HARD,
        ).skill()
    )
    assert want == [] and got == []


# ----------------------------------------------------------------------------
# the C statistic of a table whose second class weighs 0
# ----------------------------------------------------------------------------


def test_c_statistic_of_a_class_of_zero_weight_is_the_in_memory_error():
    y = np.array([0, 0, 1, 1, 0, 1])
    p = np.array([0.1, 0.4, 0.35, 0.8, 0.3, 0.6])
    w = np.where(y == 1, 0.0, 1.0)
    with pytest.raises(ValueError) as want:
        skbrier.c_statistic(y, p, sample_weight=w)
    state = ForecastTable().update(y[:3], p[:3], w[:3])
    state.merge(ForecastTable().update(y[3:], p[3:], w[3:]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # was nan with UndefinedMetricWarning
        with pytest.raises(ValueError) as got:
            state.c_statistic()
    assert str(got.value) == str(want.value)


# ----------------------------------------------------------------------------
# chunks of string labels and of numeric labels
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, second, pos_label",
    [
        ([0, 1, 0], ["1", "0", "1"], "1"),
        ([0, 1, 0], ["1", "0", "1"], None),
        ([False, True, False], ["True", "False", "True"], None),
        (["a", "b", "a"], [1, 0, 1], "b"),
    ],
)
def test_string_and_number_labels_in_different_chunks_are_refused(first, second, pos_label):
    # 1 and "1" were merged into one class (a silent number)
    p = np.array([0.2, 0.7, 0.4, 0.9, 0.1, 0.6])
    both = np.array(first + second, dtype=object)
    with pytest.raises(TypeError) as want:
        skbrier.brier_score(both, p, pos_label=pos_label)
    for make in (
        lambda: BrierState(pos_label=pos_label),
        lambda: ThresholdState([0.5], pos_label=pos_label),
        lambda: ForecastTable(pos_label=pos_label),
    ):
        a = make().update(np.array(first), p[:3])
        b = make().update(np.array(second), p[3:])
        for x, y in ((a, b), (b, a)):
            merged = copy.deepcopy(x).merge(copy.deepcopy(y))
            with pytest.raises(TypeError) as got:
                merged.encoded()
            assert str(got.value) == str(want.value)


# ----------------------------------------------------------------------------
# BrierDecomposition.partial_fit / merge: empty chunks, chunks of weight 0
# ----------------------------------------------------------------------------


def _numbers(d: BrierDecomposition) -> list[float]:
    return [d.brier_score_, d.miscalibration_, d.discrimination_, d.uncertainty_]


def test_partial_fit_takes_an_empty_chunk():
    # an empty chunk (an empty partition) raised "y_proba is empty"
    rng = np.random.default_rng(7)
    y, p = rng.integers(0, 2, 30), rng.integers(0, 21, 30) / 20
    want = _numbers(BrierDecomposition("murphy", n_bins=5).fit(y, p))
    for empty_first in (True, False):
        d = BrierDecomposition("murphy", n_bins=5)
        chunks = [slice(0, 0), slice(0, 12), slice(12, 12), slice(12, 30)]
        if not empty_first:
            chunks = chunks[1:] + chunks[:1]
        for c in chunks:
            d.partial_fit(y[c], p[c])
        np.testing.assert_allclose(_numbers(d), want, rtol=1e-12)
        assert d.n_samples_seen_ == 30
    P = np.c_[1 - p, p / 2, p / 2]
    y3 = rng.integers(0, 3, 30)
    want3 = _numbers(BrierDecomposition("murphy", n_bins=5, labels=[0, 1, 2]).fit(y3, P))
    d = BrierDecomposition("murphy", n_bins=5, labels=[0, 1, 2])
    for c in (slice(0, 0), slice(0, 30), slice(30, 30)):
        d.partial_fit(y3[c], P[c])
    np.testing.assert_allclose(_numbers(d), want3, rtol=1e-12)


def test_merge_takes_a_partial_fit_whose_rows_all_weigh_zero():
    # merging a decomposition whose chunks all weighed 0 raised NotFittedError
    rng = np.random.default_rng(8)
    y, p = rng.integers(0, 2, 30), rng.integers(0, 21, 30) / 20
    w = np.r_[np.zeros(10), rng.random(20)]
    want = _numbers(BrierDecomposition("murphy", n_bins=5).fit(y, p, sample_weight=w))

    def fit(s: slice) -> BrierDecomposition:
        return BrierDecomposition("murphy", n_bins=5).partial_fit(y[s], p[s], w[s])

    for a, b in ((slice(0, 10), slice(10, 30)), (slice(10, 30), slice(0, 10))):
        merged = fit(a).merge(fit(b))
        np.testing.assert_allclose(_numbers(merged), want, rtol=1e-12)
        assert merged.n_samples_seen_ == 30


def test_merge_with_a_decomposition_that_saw_no_rows_is_the_identity():
    # an empty partition leaves a fresh estimator: merging it raised
    # NotFittedError ("Call 'fit'"); a state merges an empty state as the identity
    rng = np.random.default_rng(9)
    y, p = rng.integers(0, 2, 30), rng.integers(0, 21, 30) / 20
    want = _numbers(BrierDecomposition("murphy", n_bins=5).fit(y, p))

    def fed() -> BrierDecomposition:
        return BrierDecomposition("murphy", n_bins=5).partial_fit(y, p)

    empty = BrierDecomposition("murphy", n_bins=5).partial_fit(y[:0], p[:0])
    np.testing.assert_allclose(_numbers(fed().merge(empty)), want, rtol=1e-12)
    got = BrierDecomposition("murphy", n_bins=5).merge(fed())
    np.testing.assert_allclose(_numbers(got), want, rtol=1e-12)
    assert got.n_samples_seen_ == 30
    # a merged-into empty estimator is a copy: updating it leaves the other alone
    other = fed()
    got = BrierDecomposition("murphy", n_bins=5).merge(other)
    got.partial_fit(y, p)
    assert other.n_samples_seen_ == 30 and got.n_samples_seen_ == 60
    # the options still must agree, and the estimator must be mergeable
    with pytest.raises(ValueError, match="differ in 'n_bins'"):
        fed().merge(BrierDecomposition("murphy", n_bins=4))
    with pytest.raises(ValueError, match="differ in 'n_bins'"):
        BrierDecomposition("murphy", n_bins=4).merge(fed())
    with pytest.raises(ValueError, match="decomposition_method"):
        fed().merge(BrierDecomposition("corp"))


# ----------------------------------------------------------------------------
# MultipleChoiceState: the inputs multiple_choice_brier_score takes
# ----------------------------------------------------------------------------

RAGGED = [
    [0.5, 0.5],
    [0.2, 0.3, 0.5],
    [1.0],
    [0.1, 0.9],
    [0.25, 0.25, 0.25, 0.25],
    [0.0, 1.0],
]
GOLD = [0, 2, 0, 1, 3, 1]


@pytest.mark.parametrize("convention", ["per_example", "bigbench"])
@pytest.mark.parametrize("from_logprobs", [False, True])
@pytest.mark.parametrize("weights", [None, [1.0, 2.0, 0.0, 0.5, 1.0, 3.0]])
def test_multiple_choice_state_takes_ragged_choice_sets(convention, from_logprobs, weights):
    # a ragged y_score raised numpy's "setting an array element with a sequence"
    from skbrier import multiple_choice_brier_score
    from skbrier.states import MultipleChoiceState

    scores = [list(np.log(np.maximum(r, 1e-300))) if from_logprobs else r for r in RAGGED]
    targets = [list(np.eye(len(r))[g]) for r, g in zip(RAGGED, GOLD)]
    for y in (GOLD, targets):
        want = multiple_choice_brier_score(
            y,
            scores,
            convention=convention,
            from_logprobs=from_logprobs,
            sample_weight=weights,
        )
        state = MultipleChoiceState(convention, from_logprobs)
        for a, b in ((4, 6), (0, 0), (0, 2), (2, 4)):
            w = None if weights is None else weights[a:b]
            state.merge(
                pickle.loads(
                    pickle.dumps(
                        MultipleChoiceState(convention, from_logprobs).update(
                            y[a:b], scores[a:b], w
                        )
                    )
                )
            )
        assert state.finalize() == pytest.approx(want, rel=1e-12)


# ----------------------------------------------------------------------------
# the options of a state are checked when it is made, as the public function
# checks them (a typo gave a silent number, a threshold of 1 numpy's warning)
# ----------------------------------------------------------------------------


def _error_of(func) -> tuple[type, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises((ValueError, TypeError)) as info:
            func()
    return info.type, str(info.value)


@pytest.mark.parametrize(
    "thresholds", [[0.5, 1.0], [-0.1], [np.nan], "0.5", [[0.1, 0.2]], []]
)
def test_threshold_state_checks_thresholds_as_decision_curve(thresholds):
    want = _error_of(
        lambda: skbrier.decision_curve(Y2, SOFT_AFTER_HARD, thresholds=thresholds)
    )
    assert _error_of(lambda: ThresholdState(thresholds)) == want


@pytest.mark.parametrize("models", [(), "model", ("a", "a")])
def test_threshold_state_checks_the_model_names(models):
    kind, msg = _error_of(lambda: ThresholdState([0.5], models=models))
    assert "models" in msg


def test_multiple_choice_state_checks_its_options_as_the_function():
    from skbrier import multiple_choice_brier_score
    from skbrier.states import MultipleChoiceState

    for kw in ({"convention": "BIG-bench"}, {"from_logprobs": "yes"}):
        want = _error_of(lambda k=kw: multiple_choice_brier_score([0], [[0.7, 0.3]], **k))
        assert _error_of(lambda k=kw: MultipleChoiceState(**k)) == want


def test_binned_states_check_their_edges_and_right():
    for make in (BinnedState, ClasswiseBinnedState):
        for edges in ([0.5, 0.2, 1.0], [0.0, np.nan, 1.0], [0.0], "uniform"):
            kind, msg = _error_of(lambda m=make, e=edges: m(e))
            assert msg.startswith("edges"), msg
        assert _error_of(lambda m=make: m(E5, right="no")) == (
            TypeError,
            "right must be True or False, got 'no'.",
        )


def test_boolean_and_column_options_are_checked():
    for make in (BrierState, MulticlassBrierState, RankedProbabilityState):
        assert _error_of(lambda m=make: m(with_reference="no")) == (
            TypeError,
            "with_reference must be True or False, got 'no'.",
        )
    assert _error_of(lambda: ThresholdState([0.5], single="no"))[0] is TypeError
    kind, msg = _error_of(lambda: MomentState("reference"))
    assert kind is TypeError and "columns" in msg


@pytest.mark.parametrize(
    "kw", [{"kind": "toplabel"}, {"confidence_scale": 0}, {"confidence_scale": "x"}]
)
def test_calibration_bins_state_checks_its_options_as_calibration_error(kw):
    # a confidence_scale of "x" raised Python's "'>' not supported between ..."
    P = np.array([[0.8, 0.2], [0.3, 0.7], [0.4, 0.6]])
    want = _error_of(lambda: skbrier.calibration_error([0, 1, 1], P, n_bins=5, **kw))
    assert _error_of(lambda: CalibrationBinsState(OPT, **kw)) == want
    kind, msg = _error_of(lambda: CalibrationBinsState("l1"))
    assert kind is TypeError and msg.startswith("options")


def test_one_column_forecasts_in_a_multiclass_state_name_their_shape():
    # the message showed the squeezed shape (7,) for a (7, 1) column
    p = np.linspace(0.1, 0.9, 7)[:, None]
    for make in (
        MulticlassBrierState,
        RankedProbabilityState,
        lambda: ClasswiseBinnedState(E5),
    ):
        kind, msg = _error_of(lambda m=make: m().update(np.r_[0, 1, 1, 0, 1, 0, 1], p))
        assert kind is ValueError and "(7, 1)" in msg and "BrierState" in msg, msg


def test_no_hard_forecast_warning_before_an_input_error():
    # as in memory, the error comes alone (the states warned first)
    cases = [
        (BrierState, [0, 1, 1, 0], ALL_HARD[:4], np.zeros(4)),
        (BrierState, [0, 1, 2, 0], ALL_HARD[:4], None),
        (MulticlassBrierState, [0, 1, 2, 0], P3_ALL_HARD[:4], np.zeros(4)),
        (lambda: CalibrationBinsState(OPT), [0, 1, 2, 0], P3_ALL_HARD[:4], np.zeros(4)),
    ]
    for make, y, p, w in cases:
        state = _chunked(make, np.array(y), p, [2]) if w is None else make().update(y, p, w)
        out, got = _hard_warnings(
            lambda s=state: s.finalize() if not isinstance(s, BrierState) else s.encoded()
        )
        assert isinstance(out, str) and got == [], (out, got)


def test_decomposition_whose_rows_all_weigh_zero_says_so():
    # brier_score_ raised "'BrierDecomposition' object has no attribute ..."
    d = BrierDecomposition("murphy", n_bins=5).partial_fit(
        [0, 1, 1], [0.2, 0.7, 0.4], [0, 0, 0]
    )
    with pytest.raises(AttributeError, match="weigh 0.*sample_weight sums to zero"):
        assert d.brier_score_ is None  # raises
    assert not hasattr(d, "miscalibration_")
    d.partial_fit([1], [0.9], [2.0])
    assert d.brier_score_ == pytest.approx(0.01) and d.n_samples_seen_ == 4


@pytest.fixture(scope="module")
def spark():
    from spark_session import session

    yield from session()


@pytest.mark.slow  # a Spark session (about 20 s): CI's slow step
def test_spark_decision_curve_of_a_binary_test_is_silent(spark):
    # the Spark reduce warned of 0/1 forecasts for every state; the decision
    # curve states take them silently (ThresholdState.warns_hard), as in memory
    import pandas as pd

    import skbrier.engines.spark as sbs

    frame = pd.DataFrame({"y": Y2, "p": ALL_HARD})
    df = spark.createDataFrame(frame).repartition(2)
    for name, kw in (("decision_curve", {}), ("net_benefit", {"threshold": 0.2})):
        _, got = _hard_warnings(lambda n=name, k=kw: getattr(sbs, n)(df, **k))
        assert got == [], name
    _, got = _hard_warnings(lambda: sbs.brier_score(df))
    assert len(got) == 1


# ----------------------------------------------------------------------------
# the options of the finishing methods are the public functions' options,
# checked as they check them (an out-of-range value gave a silent number, a
# wrong type Python's or numpy's error)
# ----------------------------------------------------------------------------

P_SOFT = np.array([0.2, 0.6, 0.7, 0.1, 0.5, 0.4])
P3 = np.array(
    [[0.2, 0.3, 0.5], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3], [0.2, 0.2, 0.6]]
)


@pytest.mark.parametrize("reference", [1.5, np.nan, "x", [0.1, 0.2]])
def test_brier_skill_of_a_bad_constant_reference_is_refused(reference):
    state = BrierState().update(Y2, P_SOFT)
    if np.ndim(reference) == 0 and not isinstance(reference, str):
        want = _error_of(lambda: skbrier.brier_skill_score(Y2, P_SOFT, reference=reference))
        assert _error_of(lambda: state.skill(reference)) == want
        assert _error_of(lambda: state.reference_score(reference)) == want
    else:
        kind, msg = _error_of(lambda: state.skill(reference))
        assert msg.startswith("reference") and "with_reference" in msg, msg
    multi = MulticlassBrierState().update(Y3, P3)
    assert _error_of(lambda: multi.skill(0.3)) == _error_of(
        lambda: skbrier.brier_skill_score(Y3, P3, reference=0.3)
    )


def test_threshold_state_checks_model_and_prevalence():
    t = ThresholdState([0.2, 0.5], models=("m", "o"), single=False)
    t.update(Y2, P_SOFT, o=P_SOFT[::-1].copy())
    np.testing.assert_array_equal(t.net_benefit("o"), t.net_benefit(1))
    for model in (2, -1, "x", 1.0):
        kind, msg = _error_of(lambda m=model: t.net_benefit(m))
        assert "model" in msg and "'m', 'o'" in msg, msg
    for prevalence in (1.5, "x"):
        want = _error_of(
            lambda v=prevalence: skbrier.net_benefit(
                Y2, P_SOFT, threshold=0.2, prevalence=v
            )
        )
        assert _error_of(lambda v=prevalence: t.net_benefit(0, v)) == want
        assert _error_of(lambda v=prevalence: t.shares(0, v)) == want


def test_multiclass_and_ranked_finishing_options_are_checked():
    multi = MulticlassBrierState().update(Y3, P3)
    want = _error_of(lambda: skbrier.brier_score(Y3, P3, scale_by_half="yes"))
    assert _error_of(lambda: multi.finalize("yes")) == want
    ranked = RankedProbabilityState().update(Y3, P3)
    for constant in ([0.5, 0.5], 0.3):
        want = _error_of(
            lambda c=constant: skbrier.ranked_probability_skill_score(Y3, P3, reference=c)
        )
        assert _error_of(lambda c=constant: ranked.skill(c)) == want
        assert _error_of(lambda c=constant: ranked.reference_score(c)) == want
    binned = BinnedState(E5).update(Y2, P_SOFT)
    want = _error_of(
        lambda: skbrier.calibration_error(Y2, P_SOFT, kind="binary", norm="L1")
    )
    assert _error_of(lambda: binned.calibration_error("L1")) == want
    bundle = StateBundle({"bs": BrierState()}).update(Y2, P_SOFT)
    kind, msg = _error_of(lambda: bundle.state("x"))
    assert "'bs'" in msg and "'x'" in msg, msg


def test_a_state_without_rows_gives_the_in_memory_empty_error():
    # the binary states said "y_true is empty", the in-memory functions and the
    # multiclass states "y_proba is empty"
    want = _error_of(lambda: skbrier.brier_score([], []))
    for make in (BrierState, SpiegelhalterState, ForecastTable, lambda: BinnedState(E5)):
        state = make().update(np.array([], int), np.array([]))
        assert _error_of(state.encoded) == want
    assert _error_of(MulticlassBrierState().finalize) == want
