"""Held-out reproducers of the core metrics, their states and the Dask path
(a trust sweep): each test pins an input that gave a stray exception, an
unclear message or a silent wrong number."""

from __future__ import annotations

import numpy as np
import pytest

from skbrier.states import (
    BrierState,
    MomentState,
    MulticlassBrierState,
    StateBundle,
    ThresholdState,
)

Y = np.array([0, 1, 1, 0, 1])
P = np.array([0.2, 0.7, 0.6, 0.3, 0.9])
P2 = np.column_stack([1 - P, P])


# ------------------------------------------------- keyword columns of update()
@pytest.mark.parametrize(
    "make, proba",
    [
        (lambda: BrierState(with_reference=True), P),
        (lambda: MulticlassBrierState(with_reference=True), P2),
        (lambda: MomentState(("b",)), P),
        (lambda: ThresholdState([0.5], models=("a", "b"), single=False), P),
    ],
)
def test_update_refuses_a_missing_column_by_name(make, proba):
    # was: KeyError('reference') / KeyError('b')
    with pytest.raises(TypeError, match=r"update\(\) needs the column"):
        make().update(Y, proba)


@pytest.mark.parametrize(
    "make, proba, column",
    [
        (BrierState, P, "reference"),
        (lambda: BrierState(with_reference=True), P, "refrence"),
        (MulticlassBrierState, P2, "reference"),
        (lambda: MomentState(("b",)), P, "c"),
    ],
)
def test_update_refuses_an_unexpected_column(make, proba, column):
    # was: silently ignored (a skill score against climatology, not the reference)
    with pytest.raises(TypeError, match=rf"unexpected column.*'{column}'"):
        make().update(Y, proba, **{column: np.full_like(proba, 0.5)})


def test_update_column_messages_name_the_option():
    with pytest.raises(TypeError, match="with_reference"):
        BrierState().update(Y, P, reference=np.full(5, 0.5))
    with pytest.raises(TypeError, match="with_reference"):
        BrierState(with_reference=True).update(Y, P)


def test_bundle_takes_the_union_of_its_members_columns():
    bundle = StateBundle(
        {"brier": BrierState(with_reference=True), "m": MomentState(("b",))}
    )
    ref = np.full(5, 0.5)
    bundle.update(Y, P, reference=ref, b=ref)  # accepted
    with pytest.raises(TypeError, match="needs the column"):
        StateBundle({"brier": BrierState(with_reference=True)}).update(Y, P)
    with pytest.raises(TypeError, match="unexpected column"):
        StateBundle({"brier": BrierState()}).update(Y, P, reference=ref)


def test_update_column_none_is_absent():
    # the Dask graph passes absent columns as None (filtered); a None column
    # of a state that takes none is accepted
    BrierState().update(Y, P, reference=None)
