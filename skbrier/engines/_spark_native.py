"""The Brier sums of 0/1 outcomes as Spark aggregations: the fast path of
:mod:`skbrier.engines.spark`'s Brier score, Index and skill score (the
engine's code generation, no Python worker), falling back to
:func:`~skbrier.engines._spark_reduce.partition_states` for any row it
cannot take."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._common import ordinary_weight
from ._spark_reduce import Source, _col, _warn_hard

__all__ = ["native_brier_sums"]


def _is_double(dtype: Any) -> bool:
    from pyspark.sql import types as T

    return isinstance(dtype, T.DoubleType)


def _is_numeric(dtype: Any) -> bool:
    from pyspark.sql import types as T

    return isinstance(dtype, (T.NumericType, T.BooleanType)) and not isinstance(
        dtype, T.DecimalType
    )


def native_brier_sums(
    src: Source, *, reference: str | None = None, class_weight: bool = False
) -> dict[tuple, Any] | None:
    """``{group key: BrierSums}`` of 0/1 outcomes computed by Spark (one
    aggregation), or None when the columns or the rows do not allow it
    (labels other than 0/1, float32 or decimal forecasts, a row that the
    in-memory checks would refuse): then :func:`partition_states` decides.

    The sums are those of :func:`~skbrier._core.kernels.brier.brier_reduce`
    with the outcomes given (``loss`` on the unhalved scale of the two
    columns ``(1 - p, p)``).
    """
    from pyspark.sql import functions as F

    from .._core.kernels.brier import BrierSums

    types = {f.name: f.dataType for f in src.df.schema.fields}
    if not (_is_numeric(types[src.y]) and _is_double(types[src.p])):
        return None
    if src.w is not None and not _is_numeric(types[src.w]):
        return None
    if reference is not None and not _is_double(types[reference]):
        return None
    y = _col(src.y).cast("double")
    p = _col(src.p)
    valid = (p >= 0.0) & (p <= 1.0) & ((y == 0.0) | (y == 1.0))
    if src.w is not None:
        w = _col(src.w).cast("double")
        valid = valid & (w >= 0.0) & (w < math.inf)
    r = None
    if reference is not None:
        r = _col(reference)
        valid = valid & (r >= 0.0) & (r <= 1.0)
    # 2: a row the fast path cannot take; else 1 when a forecast is in (0, 1)
    code = F.when(valid, F.when((p > 0.0) & (p < 1.0), 1).otherwise(0)).otherwise(2)
    d = p - y

    def wsum(x: Any) -> Any:
        return F.sum(x if src.w is None else w * x)

    aggs = [
        F.count(F.lit(1)).alias("__n"),
        wsum(d * d).alias("__loss"),
        F.max(code).alias("__code"),
    ]
    if src.w is not None:
        aggs.append(F.sum(w).alias("__w"))
    if class_weight:
        aggs += [wsum(y).alias("__w1"), wsum(1.0 - y).alias("__w0")]
    if r is not None:
        e = r - y
        aggs.append(wsum(e * e).alias("__rloss"))
    frame = src.df.groupBy(*[_col(k) for k in src.keys]) if src.keys else src.df
    rows = frame.agg(*aggs).collect()
    out = {}
    hard = False
    for row in rows:
        n = int(row["__n"])
        if n == 0 or row["__code"] is None or row["__code"] >= 2:
            return None
        weight = float(n) if src.w is None else float(row["__w"])
        if not ordinary_weight(weight, n):
            return None  # the states' error of the weights (zero, overflowing, subnormal)
        hard = hard or (n >= 2 and row["__code"] == 0)
        cw = None
        if class_weight:
            cw = np.array([float(row["__w0"]), float(row["__w1"])])
        ref = None if r is None else 2.0 * float(row["__rloss"])
        key = tuple(row[k] for k in src.keys)
        out[key] = BrierSums(weight, 2.0 * float(row["__loss"]), cw, ref, 1)
    if not out:
        return None
    if hard:
        _warn_hard(2, 2, "y_proba")
    return out
