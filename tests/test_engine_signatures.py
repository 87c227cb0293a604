"""The public functions of the DuckDB, Polars and Spark engines keep their
signatures (recorded from the hand-written functions by
``tests/fixtures/make_engine_signatures.py``), are collected as their
module's (doctests) and refuse a bad call as Python does."""

from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path

import pytest

RECORDED = json.loads(
    (Path(__file__).parent / "fixtures" / "engine_signatures.json").read_text()
)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_signature_as_recorded(name):
    module, func = name.rsplit(".", 1)
    f = getattr(importlib.import_module(module), func)
    assert str(inspect.signature(f)) == RECORDED[name]
    assert f.__name__ == func
    if f.__module__ == module:  # defined there: its doctests are collected there
        assert f.__globals__ is vars(importlib.import_module(module))


def test_bad_calls_raise_type_error():
    pl = pytest.importorskip("polars")
    from skbrier.engines import polars as sbp

    df = pl.DataFrame({"y": [0, 1], "p": [0.2, 0.7]})
    with pytest.raises(TypeError, match="net_benefit.*threshold"):
        sbp.net_benefit(df)
    with pytest.raises(TypeError, match="brier_score.*n_bins"):
        sbp.brier_score(df, n_bins=3)
    with pytest.raises(TypeError, match="brier_score_expr.*too many"):
        sbp.brier_score_expr("y", "p", None, "extra")
