"""The label messages of mergeable states: true counts, no positions, any order.

A state keeps its sums per distinct label and validates the distinct labels
in ``finalize``; a message about the labels (too many classes, a stray
label, fractions that look like probabilities) must show the rows of each
label counted over all chunks, in sorted order, with no positions (there are
none that mean anything), and be the same whatever the order of the chunks
and merges.  The in-memory messages keep their positions (test_mistakes.py).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import skbrier
from skbrier.metrics._calibration_error_core import check_options
from skbrier.states import (
    BrierState,
    CalibrationBinsState,
    ClasswiseBinnedState,
    MulticlassBrierState,
    SampleState,
    StateBundle,
    ThresholdState,
)

OPTIONS = check_options("l1", 2, "uniform", None, False, True)


def _error(func) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError) as info:
            func()
    return str(info.value)


def _merged(make, chunks, order):
    """The state of ``chunks`` (pairs y, p) merged in ``order``."""
    states = [make().update(y, p) for y, p in chunks]
    out = make()
    for i in order:
        out.merge(states[i])
    return out


def _all_orders(make, chunks, result):
    """The error of ``result`` on the merged state, for every merge order (one message)."""
    msgs = {
        _error(lambda o=order: result(_merged(make, chunks, o)))
        for order in itertools.permutations(range(len(chunks)))
    }
    assert len(msgs) == 1, msgs
    return msgs.pop()


def _binary_chunks():
    y0 = np.r_[np.zeros(30, int), np.ones(20, int)]
    return [
        (y0, np.full(50, 0.3)),
        (np.array([2]), np.array([0.4])),
        (np.ones(10, int), np.full(10, 0.6)),
    ]


@pytest.mark.parametrize(
    "make, result",
    [
        (BrierState, lambda s: s.finalize()),
        (lambda: ThresholdState([0.2, 0.5]), lambda s: s.net_benefit(0)),
        (lambda: StateBundle({"b": BrierState()}), lambda s: s.finalize()["b"].finalize()),
        (lambda: CalibrationBinsState(OPTIONS), lambda s: s.finalize()),
    ],
)
def test_a_stray_label_over_chunks_shows_the_true_counts(make, result):
    msg = _all_orders(make, _binary_chunks(), result)
    assert msg.startswith("y_true has more than two classes")
    assert (
        "found 3 labels (rows counted over all chunks): 0 (30 rows), 1 (30 rows), 2 (1 row)."
        in msg
    )
    assert "index" not in msg and "2 is rare" in msg


def test_a_binary_state_raises_only_once_every_chunk_is_in():
    # the third label arrives in an update or a merge: no error yet (the
    # counts would be those of the chunks seen so far), finalize has them all
    s = BrierState().update(*_binary_chunks()[0]).update(*_binary_chunks()[1])
    s.merge(BrierState().update(*_binary_chunks()[2]))
    assert "0 (30 rows), 1 (30 rows), 2 (1 row)" in _error(s.finalize)


def test_fractions_over_chunks_are_listed_sorted_without_positions():
    chunks = [(np.array([v]), np.array([0.5])) for v in (0.7, 0.1, 0.3)]
    msg = _all_orders(BrierState, chunks, lambda s: s.finalize())
    assert "found 3 distinct values over all chunks, e.g. 0.1, 0.3, 0.7." in msg
    assert "swapped" in msg and "index" not in msg


@pytest.mark.parametrize(
    "make, result",
    [
        (MulticlassBrierState, lambda s: s.finalize()),
        (lambda: ClasswiseBinnedState(np.linspace(0, 1, 3)), lambda s: s.statistics()),
        (lambda: CalibrationBinsState(OPTIONS, kind="classwise"), lambda s: s.finalize()),
    ],
)
def test_too_few_classes_for_the_columns_over_chunks(make, result):
    p = np.full((6, 3), 1 / 3)
    chunks = [
        (np.array([1, 1, 1, 0]), p[:4]),
        (np.array([0, 0]), p[:2]),
        (np.array([1]), p[:1]),
    ]
    msg = _all_orders(make, chunks, result)
    assert msg.startswith("y_true has 2 classes but y_proba has 3 columns")
    assert "found 2 labels (rows counted over all chunks): 0 (3 rows), 1 (4 rows)." in msg
    assert "index" not in msg and "labels=" in msg


def test_string_labels_are_sorted_too():
    chunks = [
        (np.array(["yes"] * 8 + ["no"] * 9), np.full(17, 0.5)),
        (np.array(["Yes"]), np.array([0.5])),
    ]
    make = lambda: BrierState(pos_label="yes")  # noqa: E731
    msg = _all_orders(make, chunks, lambda s: s.finalize())
    assert "'Yes' (1 row), 'no' (9 rows), 'yes' (8 rows)." in msg and "index" not in msg


def test_in_memory_messages_keep_their_positions():
    msg = _error(lambda: skbrier.brier_score(np.array([0, 0, 1, 2]), np.full((4, 2), 0.5)))
    assert "found 3 labels: 0 (2 rows), 1 (1 row: index 2), 2 (1 row: index 3)." in msg
    assert "chunks" not in msg


def test_dask_counts_every_partition():
    da = pytest.importorskip("dask.array")
    import dask

    y = np.repeat([0, 1, 2], [37, 150, 213])
    with dask.config.set(scheduler="sync"):
        for p, chunks in ((np.full(400, 0.5), 100), (np.full((400, 2), 0.5), (100, 2))):
            msg = _error(
                lambda: skbrier.brier_score(  # noqa: B023
                    da.from_array(y, chunks=100),
                    da.from_array(p, chunks=chunks),  # noqa: B023
                )
            )
            assert (
                "(rows counted over all chunks): 0 (37 rows), 1 (150 rows), 2 (213 rows)"
                in msg
            )


@pytest.mark.parametrize(
    "make, p",
    [
        (BrierState, [0.2]),
        (lambda: CalibrationBinsState(OPTIONS), [0.2]),
        (MulticlassBrierState, [[0.8, 0.2]]),
    ],
)
def test_weights_summing_to_infinity_over_chunks(make, p):
    # every label-keyed state checks its total weight the same way (one check)
    a = make().update([0], p, [1e308])
    b = make().update([1], p, [1e308])
    msg = _error(lambda: a.merge(b).finalize())
    # the in-memory message of the same rows (no weight is infinite: their
    # sum overflows; "contains infinity (or sums to infinity)" misled)
    assert msg == (
        "sample_weight sums to more than 1.798e+308, the largest float: divide the "
        "weights by a constant (only their ratios matter for the scores)."
    ), msg


@pytest.mark.parametrize(
    "kw, error, match",
    [
        ({"size": -1, "seed": 0}, ValueError, "size must be at least 1"),
        ({"size": 0, "seed": 0}, ValueError, "size must be at least 1"),
        ({"size": 2.5, "seed": 0}, TypeError, "size must be an integer"),
        ({"size": 3, "seed": 1.5}, TypeError, "seed must be an integer"),
        ({"size": 3, "seed": -1}, ValueError, "seed must be at least 0"),
        ({"size": 3, "seed": np.random.default_rng(0)}, TypeError, "seed must be an"),
    ],
)
def test_sample_state_options_are_checked(kw, error, match):
    # size=-1 kept one row and size=2.5 two; a Generator seed raised int()'s
    # TypeError, a negative seed numpy's "expected non-negative integer"
    with pytest.raises(error, match=match):
        SampleState(**kw)


@pytest.mark.parametrize(
    "make",
    [
        lambda: skbrier.states.BrierState(),
        lambda: skbrier.states.BinnedState(np.linspace(0.0, 1.0, 6)),
        lambda: skbrier.states.SpiegelhalterState(),
        lambda: skbrier.states.ForecastTable(),
    ],
    ids=["BrierState", "BinnedState", "SpiegelhalterState", "ForecastTable"],
)
def test_states_refuse_weights_too_small_to_sum(make):
    # the sums of weights of 5e-324 lost digits (BrierState 0.1589 against
    # 0.1819, Spiegelhalter (nan, nan)); huge weights summing beyond the
    # largest float leaked numpy's overflow warning
    rng = np.random.default_rng(8)
    p = np.round(rng.uniform(size=40), 2)
    y = np.r_[0, 1, (rng.uniform(size=38) < p[2:]).astype(int)]
    w = rng.integers(1, 5, 40).astype(float)
    with pytest.raises(ValueError, match="sample_weight: the weights average .*Multiply"):
        make().update(y, p, sample_weight=w * 5e-324).finalize()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="sample_weight"):
            make().update(y, p, sample_weight=w * 1e307).finalize()
