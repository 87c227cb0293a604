"""Chunk boundaries of the dask adapters, the states and the Polars engine:
what a partition's check says, what chunks of other dtypes give, and the
errors of nested columns."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")

import pandas as pd  # noqa: E402

import skbrier  # noqa: E402

# dask's default (threaded) scheduler: each partition's check runs in a
# worker thread, where the partition it names must be known too

N, CUT, ROW = 3000, 1000, 2006


def _case(kind):
    y = np.arange(N) % 2
    p = np.full(N, 0.3)
    w = np.ones(N)
    if kind == "nan":
        p[ROW] = np.nan
    elif kind == "range":
        p[ROW] = 1.5
    else:
        w[ROW] = -1.0
    return y, p, w


@pytest.mark.parametrize("kind", ["nan", "range", "weight"])
@pytest.mark.parametrize(
    "func",
    [
        skbrier.brier_score,
        skbrier.spiegelhalter_z,
        skbrier.murphy_decomposition,
        skbrier.net_benefit,
    ],
)
def test_dask_array_messages_name_the_global_row(kind, func):
    y, p, w = _case(kind)
    dy, dp, dw = (da.from_array(v, chunks=CUT) for v in (y, p, w))
    with pytest.raises(ValueError) as exc:
        if func is skbrier.net_benefit:
            func(dy, dp, threshold=0.2, sample_weight=dw)
        else:
            func(dy, dp, sample_weight=dw)
    msg = str(exc.value)
    assert f"row {ROW} of the whole input" in msg, msg
    assert "partition 2 of 3" in msg and "rows 2000 to 2999" in msg, msg


def test_dask_2d_message_names_the_global_row():
    y = np.arange(N) % 3
    p = np.full((N, 3), 1 / 3)
    p[ROW, 0] = np.nan
    with pytest.raises(ValueError) as exc:
        skbrier.brier_score(da.from_array(y, chunks=CUT), da.from_array(p, chunks=(CUT, 3)))
    msg = str(exc.value)
    assert "partition 2 of 3" in msg and f"row {ROW} of the whole input" in msg, msg


@pytest.mark.parametrize("kind", ["nan", "range", "weight"])
def test_dask_frame_messages_name_the_partition_and_label(kind):
    y, p, w = _case(kind)
    frame = pd.DataFrame({"y": y, "p": p, "w": w, "x": "extra"})
    frame.index = frame.index + 10_000
    df = dd.from_pandas(frame, npartitions=3)
    with pytest.raises(ValueError) as exc:
        skbrier.brier_score(df.y, df.p, sample_weight=df.w)
    msg = str(exc.value)
    assert "partition 2 of 3" in msg and f"row labelled {ROW + 10_000}" in msg, msg


_STRINGS, _BOOLS = np.array(["yes", "no"]), np.array([True, False])


@pytest.mark.parametrize("order", [(_STRINGS, _BOOLS), (_BOOLS, _STRINGS)])
@pytest.mark.parametrize("merged", [False, True])
def test_states_of_string_and_bool_chunks_say_booleans(order, merged):
    # numpy's concatenation turns True into 'True' (four string labels);
    # an object column of both is refused in memory: the states refuse too,
    # naming booleans (they said "mixes strings and numbers")
    p = np.array([0.2, 0.7])
    s = skbrier.states.BrierState(pos_label="yes")
    s.update(order[0], p)
    if merged:
        t = skbrier.states.BrierState(pos_label="yes").update(order[1], p)
        s = s.merge(t)
    else:
        s.update(order[1], p)
    with pytest.raises(TypeError, match="mixes strings and booleans") as exc:
        s.finalize()
    with pytest.raises(TypeError) as mem:
        skbrier.brier_score(
            np.concatenate([order[0].astype(object), order[1].astype(object)]),
            np.r_[p, p],
            pos_label="yes",
        )
    assert str(exc.value) == str(mem.value)


def test_multiclass_states_of_string_and_bool_chunks_say_booleans():
    s = skbrier.states.MulticlassBrierState()
    s.update(_STRINGS, np.full((2, 3), 1 / 3)).update(_BOOLS, np.full((2, 3), 1 / 3))
    with pytest.raises(TypeError, match="mixes strings and booleans"):
        s.finalize()


def test_dask_concatenated_string_and_bool_chunks_read_as_numpy():
    # dask casts the chunks as numpy concatenates: four string labels
    y = da.concatenate([da.from_array(_STRINGS, chunks=2), da.from_array(_BOOLS, chunks=2)])
    p = da.from_array(np.array([0.2, 0.7, 0.4, 0.6]), chunks=2)
    with pytest.raises(ValueError, match="found 4 labels") as mem:
        skbrier.brier_score(y.compute(), p.compute(), pos_label="yes")
    with pytest.raises(ValueError, match="found 4 labels"):
        skbrier.brier_score(y, p, pos_label="yes")
    assert "'True'" in str(mem.value)


def test_polars_expr_notes_document_nested_columns():
    # a checked cast of each column was 27-40% slower in group_by: the
    # expressions leave nested columns to Polars' error, and say so
    pl = pytest.importorskip("polars")
    from skbrier.engines import polars as sbp

    doc = sbp.brier_score_expr.__doc__
    assert "InvalidOperationError" in doc and "nested column" in doc
    df = pl.DataFrame({"y": [0, 1], "p": [[0.1], [0.2]]})
    with pytest.raises(TypeError, match="y_proba|p"):
        sbp.brier_score(df)
    with pytest.raises(pl.exceptions.InvalidOperationError):
        df.select(sbp.brier_score_expr())


def test_dask_report_subgroup_note_says_how_in_python():
    # the note named the CLI's --engine memory only, for a Python call too
    rng = np.random.default_rng(0)
    y, p, g = rng.integers(0, 2, 400), rng.uniform(0.05, 0.95, 400), rng.integers(0, 2, 400)
    rep = skbrier.calibration_report(
        da.from_array(y, chunks=100),
        da.from_array(p, chunks=100),
        groups=da.from_array(g, chunks=100),
    )
    (note,) = [n for n in rep.notes if n.startswith("Subgroups: not computed")]
    assert "groups=groups.compute()" in note and "--engine" not in note


@pytest.mark.parametrize("merged", [False, True])
def test_states_keep_the_labels_of_wider_later_chunks(merged):
    # the first chunk's dtype (<U1) was kept by update: "bb" was read as "b",
    # two classes instead of three, and a score was returned
    chunks = [np.array(["a", "b"]), np.array(["bb"])]
    p = [np.array([0.2, 0.7]), np.array([0.4])]
    s = skbrier.states.BrierState(pos_label="a").update(chunks[0], p[0])
    if merged:
        s = s.merge(skbrier.states.BrierState(pos_label="a").update(chunks[1], p[1]))
    else:
        s.update(chunks[1], p[1])
    with pytest.raises(ValueError, match="found 3 labels"):
        s.finalize()
    with pytest.raises(ValueError, match="found 3 labels"):
        skbrier.brier_score(np.concatenate(chunks), np.concatenate(p), pos_label="a")


def test_states_of_unsigned_then_negative_labels_raise_the_label_error():
    # OverflowError: Python integer -1 out of bounds for uint8
    s = skbrier.states.BrierState()
    s.update(np.array([0, 1], dtype=np.uint8), np.array([0.2, 0.7]))
    s.update(np.array([-1]), np.array([0.4]))
    with pytest.raises(ValueError, match="found 3 labels"):
        s.finalize()


def test_bundle_reads_later_chunks_labels_alike():
    member = skbrier.states.BrierState(pos_label="a")
    bundle = skbrier.states.StateBundle({"bs": member}, pos_label="a")
    bundle.update(np.array(["a", "b"]), np.array([0.2, 0.7]))
    bundle.update(np.array(["bb"]), np.array([0.4]))
    with pytest.raises(ValueError, match="found 3 labels"):
        bundle.state("bs").finalize()


def test_dask_frame_of_forecasts_with_a_text_column_names_the_column():
    # the partition's frame was read as an array first: the message lost the
    # column names and asked whether y_true and y_proba were swapped
    frame = pd.DataFrame(
        {"y": [0, 1, 2, 0], "p0": [0.2, 0.3, 0.4, 0.5], "p1": [0.3] * 4, "s": "x"}
    )
    with pytest.raises(TypeError, match=r"\['s'\] is not numeric") as mem:
        skbrier.brier_score(frame.y, frame[["p0", "p1", "s"]])
    df = dd.from_pandas(frame, npartitions=2)
    with pytest.raises(TypeError) as got:
        skbrier.brier_score(df.y, df[["p0", "p1", "s"]])
    assert str(got.value) == str(mem.value)
    state = skbrier.states.MulticlassBrierState()
    with pytest.raises(TypeError, match=r"\['s'\] is not numeric"):
        state.update(frame.y, frame[["p0", "p1", "s"]])


@pytest.mark.parametrize("merged", [False, True])
def test_states_of_date_then_integer_labels_refuse_as_numpy(merged):
    # numpy cannot concatenate them; the states raised float()'s TypeError
    dates = np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]")
    with pytest.raises(TypeError):
        np.concatenate([dates, np.array([0, 1])])
    p = np.array([0.2, 0.7])
    s = skbrier.states.BrierState().update(dates, p)
    with pytest.raises(TypeError, match="labels of types that do not mix"):
        if merged:
            s.merge(skbrier.states.BrierState().update(np.array([0, 1]), p)).finalize()
        else:
            s.update(np.array([0, 1]), p).finalize()


@pytest.mark.parametrize("weight", [2.0, np.float64(1.0), "w"])
@pytest.mark.parametrize("frame", [False, True])
def test_dask_scalar_weight_is_refused_by_name(weight, frame):
    # a scalar sample_weight beside dask input raised IndexError
    y, p = np.arange(30) % 2, np.linspace(0.1, 0.9, 30)
    if frame:
        df = dd.from_pandas(pd.DataFrame({"y": y, "p": p}), npartitions=3)
        dy, dp = df.y, df.p
    else:
        dy, dp = da.from_array(y, chunks=7), da.from_array(p, chunks=7)
    with pytest.raises((TypeError, ValueError), match="sample_weight"):
        skbrier.brier_score(dy, dp, sample_weight=weight)


@pytest.mark.parametrize("func", [skbrier.brier_score, skbrier.c_statistic])
def test_dask_3d_forecasts_get_the_in_memory_message(func):
    # said "multiclass ... probabilities are computed in memory only", though
    # brier_score computes 2-D dask forecasts, and 3-D is refused in memory too
    y, p = np.arange(8) % 2, np.full((8, 2, 2), 0.25)
    with pytest.raises(ValueError, match="1-D or 2-D array, got shape"):
        func(da.from_array(y, chunks=4), da.from_array(p, chunks=4))


def test_dask_unknown_chunk_sizes_name_the_partition():
    # arrays of unknown chunk sizes (.to_dask_array()): no offsets, the partition
    y, p, w = _case("nan")
    df = dd.from_pandas(pd.DataFrame({"y": y, "p": p}), npartitions=3)
    with pytest.raises(ValueError) as exc:
        skbrier.brier_score(df.y.to_dask_array(), df.p.to_dask_array())
    msg = str(exc.value)
    assert "partition 2 of 3" in msg and "whole input" not in msg, msg


def test_support_table_says_the_dask_report_has_no_subgroup_section():
    from skbrier._core.dispatch import support_table

    lines = support_table().splitlines()
    i = next(k for k, line in enumerate(lines) if "calibration_report`" in line)
    assert "without the subgroup section" in lines[i + 2]
