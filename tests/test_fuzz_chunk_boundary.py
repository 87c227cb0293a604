"""Chunk boundaries of the dask adapters, the states and the Polars engine:
what a partition's check says, what chunks of other dtypes give, and the
errors of nested columns."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")

import dask  # noqa: E402
import pandas as pd  # noqa: E402

import skbrier  # noqa: E402


@pytest.fixture
def sync():
    with dask.config.set(scheduler="sync"):
        yield


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
def test_dask_array_messages_name_the_global_row(sync, kind, func):
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


def test_dask_2d_message_names_the_global_row(sync):
    y = np.arange(N) % 3
    p = np.full((N, 3), 1 / 3)
    p[ROW, 0] = np.nan
    with pytest.raises(ValueError) as exc:
        skbrier.brier_score(da.from_array(y, chunks=CUT), da.from_array(p, chunks=(CUT, 3)))
    assert "partition 2 of 3" in str(exc.value), str(exc.value)


@pytest.mark.parametrize("kind", ["nan", "range", "weight"])
def test_dask_frame_messages_name_the_partition_and_label(sync, kind):
    y, p, w = _case(kind)
    frame = pd.DataFrame({"y": y, "p": p, "w": w, "x": "extra"})
    frame.index = frame.index + 10_000
    df = dd.from_pandas(frame, npartitions=3)
    with pytest.raises(ValueError) as exc:
        skbrier.brier_score(df.y, df.p, sample_weight=df.w)
    msg = str(exc.value)
    assert "partition 2 of 3" in msg and f"row labelled {ROW + 10_000}" in msg, msg
