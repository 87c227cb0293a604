"""skbrier's statistics on Polars Series, DataFrames and LazyFrames.

Every function takes the frame and the names of its columns, computes the
statistic's sufficient statistics with Polars aggregations (per label of
``y``, per bin or threshold, per group of ``group_by``; one query, run by
Polars' engine on all cores), and finishes them with the same kernel finish
functions as numpy input: the numbers equal the in-memory functions' on the
same rows (to rounding), and bad input raises the in-memory error.  The
``*_expr`` functions return Polars expressions of 0/1 outcomes, for
``select``, ``group_by(...).agg(...)`` and ``over(...)``.
"""

from __future__ import annotations

from typing import Any

from . import _common, _functions, _statistics
from ._common import BIN, LABEL, PREFIX
from ._functions import TableFunction
from ._polars_expr import (
    WINDOW,
    _column,
    _pl,
    expression,
    group_mean,
    kind_of,
    render,
    render_aggs,
)

__all__ = [
    *_statistics.STATISTICS,  # the functions of the statistics (below)
    *(f"{name}_expr" for name in _statistics.EXPRESSIONS),
    "calibration_report",
]

_ENGINE = "Polars"

_PIECES = {
    "inputs": """\
data : polars.DataFrame, polars.LazyFrame or None
    The rows (a LazyFrame is collected once, reading only the columns used);
    None when ``y`` and ``p`` (and ``weight``) are Series of the same length.
"""
    + _common.column_inputs(
        "str, polars.Expr or polars.Series", "str, polars.Expr, polars.Series or None"
    ),
    "expr_inputs": """\
y : str or polars.Expr, default="y"
    0/1 outcomes (integers, floats or booleans).
p : str or polars.Expr, default="p"
    Probabilities of the outcome 1.
weight : str, polars.Expr or None, default=None
    Non-negative frequency weights.""",
    #: the examples' imports, and with the frame of most examples
    "setup": """\
>>> import polars as pl
>>> from skbrier.engines import polars as sbp""",
    "frame": """\
>>> import polars as pl
>>> from skbrier.engines import polars as sbp
>>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})""",
}


# ----------------------------------------------------------------- the source
class _Source(_common.TableSource):
    """The Polars input of a call: one LazyFrame of the group columns and the
    logical columns (``y``, ``p``, ``w``, extras) under reserved names."""

    input = where = f"the {_ENGINE} input"

    def open(self, data: Any, inputs: dict, group_by: Any) -> tuple[Any, dict, list[str]]:
        """A LazyFrame (of the Series given as ``y``, ``p`` and ``weight``
        when ``data`` is None)."""
        pl = _pl()
        if data is None:
            if group_by is not None:
                raise TypeError(
                    "group_by names columns of data: pass a DataFrame or LazyFrame as "
                    "data (Series have no group columns)."
                )
            series = {k: v for k, v in inputs.items() if isinstance(v, pl.Series)}
            if len(series) != len(inputs):
                raise TypeError(
                    "data is None: y, p and weight must then be polars Series; pass a "
                    "DataFrame or LazyFrame as data to name its columns."
                )
            lengths = {len(s) for s in series.values()}
            if len(lengths) > 1:
                raise ValueError(
                    f"the Series have different lengths {sorted(lengths)}; all inputs "
                    "must have the same number of samples."
                )
            data = pl.DataFrame({PREFIX + k: s for k, s in series.items()}).lazy()
            inputs = {k: pl.col(PREFIX + k) for k in series}
        elif isinstance(data, pl.DataFrame):
            data = data.lazy()
        elif not isinstance(data, pl.LazyFrame):
            raise TypeError(
                "data must be a polars DataFrame or LazyFrame (or None with Series), "
                f"got {type(data).__name__}."
            )
        return data, inputs, data.collect_schema().names()

    def column(self, value: Any, name: str, names: list[str]) -> Any:
        return _column(value, name, names)

    def kinds(self, frame: Any, columns: dict[str, Any]) -> dict[str, tuple[str, str]]:
        schema = frame.select(*_named(columns).values()).collect_schema()
        return {k: (str(schema[PREFIX + k]), kind_of(schema[PREFIX + k])) for k in columns}

    def select(self, frame: Any, columns: dict[str, Any]) -> None:
        pl = _pl()
        exprs = _named(columns)
        y = exprs["y"]
        if isinstance(frame.select(y).collect_schema()[PREFIX + "y"], pl.Decimal):
            y = y.cast(pl.Float64)  # numbers, as numpy reads them
        floats = [e.cast(pl.Float64) for k, e in exprs.items() if k != "y"]
        self.lf = frame.select(*[pl.col(k) for k in self.keys], y, *floats)
        ydtype = self.lf.collect_schema()[PREFIX + "y"]
        self.numeric_labels = ydtype.is_numeric() or ydtype == pl.Boolean
        self.cols = {k: pl.col(PREFIX + k) for k in columns}
        self.cols["y"] = self.cols["y"].cast(pl.Float64)

    def run(self, aggs: list, *, by_label: bool, bins: Any) -> list[dict]:
        pl = _pl()
        names = _common.key_names(self.keys)
        keys = [pl.col(k).alias(n) for k, n in zip(self.keys, names)]
        if by_label:
            keys.append(pl.col(PREFIX + "y").alias(LABEL))
        if bins is not None:
            keys.append(render(bins, self.cols).alias(BIN))
        windows: list = []
        exprs = render_aggs(aggs, self.cols, windows)
        lf = self.lf
        if windows:  # the groups' means first, as window columns (two passes)
            part = [pl.col(k) for k in self.keys]
            if by_label:
                part.append(pl.col(PREFIX + "y"))
            means = [group_mean(x, w, self.cols) for x, w in windows]
            if part:
                means = [m.over(part) for m in means]
            lf = lf.with_columns(m.alias(f"{WINDOW}{i}") for i, m in enumerate(means))
        if keys:
            out = lf.group_by(keys).agg(exprs).collect()
        else:
            out = lf.select(exprs).collect()
        return out.to_dicts()

    def fetched(self, key: tuple) -> dict[str, Any]:
        """One collect."""
        pl = _pl()
        lf = self.lf
        for k, v in zip(self.keys, key):
            lf = lf.filter(pl.col(k).eq_missing(v))
        df = lf.collect()
        return {c: df[c].to_numpy() for c in df.columns}


def _named(columns: dict[str, Any]) -> dict[str, Any]:
    """The expressions of the logical ``columns`` under their reserved names."""
    return {k: e.alias(PREFIX + k) for k, e in columns.items()}


# ----------------------------------------------------------------- the statistics
_FRAME = _functions.Engine(
    "a Polars frame",
    (("data", None, "Any"), ("y", "y", "Any"), ("p", "p", "Any"), ("weight", None, "Any")),
    _PIECES,
)
_EXPRESSION = _functions.Engine(
    "a Polars expression of 0/1 outcomes",
    (("y", "y", "Any"), ("p", "p", "Any"), ("weight", None, "Any")),
    {**_PIECES, "inputs": _PIECES["expr_inputs"]},
    grouped=False,
)


#: the paragraph after a function's summary, where Polars' way says more
_NOTES = {
    "brier_score": """\
From the sums of :func:`skbrier._core.kernels.brier.brier_reduce` computed by
Polars (one pass; 0/1 outcomes take a fast path without grouping by label).""",
    "calibration_error": "From the per-bin sums that Polars groups by label and bin.",
    "calibration_bins": r"""\
Counts and the sums of :math:`w`, :math:`wp`, :math:`wy`, :math:`wp^2`,
:math:`wpy`, :math:`w^2` per bin (the reliability diagram's).""",
    "murphy_decomposition": "From the per-bin sums.",
    "brier_inference": """\
The centred moments of the squared errors (two passes inside Polars: the
group's means, then the cross-products).""",
    "brier_score_expr": """\
Usable in ``select``, ``group_by(...).agg(...)`` and ``over(...)``: Polars
computes the sums of each group, the kernel's finish gives the score.
Invalid rows in a group raise a ValueError.

The type of ``y`` is checked (text asks for a boolean expression of the
event), but a nested column (List, Array or Struct) given as ``p``,
``weight`` or another column raises Polars' own ``InvalidOperationError``
("cannot cast List type") when the frame is evaluated: an expression does
not see the frame's schema, and a checked cast of each column made the
expressions 27-40% slower in ``group_by``.  The frame functions
(:func:`brier_score` and the others, given the frame) check every column and
raise a TypeError naming the parameter.""",
}

#: each function's example; ``{{frame}}``: the imports and a frame of four rows
_EXAMPLES = {
    "brier_score": """\
{{setup}}
>>> df = pl.DataFrame({"g": [1, 1, 2], "y": [0, 1, 1], "p": [0.2, 0.7, 0.9]})
>>> round(sbp.brier_score(df), 4)
0.0467
>>> {k: round(v, 4) for k, v in sorted(sbp.brier_score(df, group_by="g").items())}
{1: 0.065, 2: 0.01}""",
    "brier_index": """\
{{setup}}
>>> df = pl.DataFrame({"y": [0, 1, 1], "p": [0.2, 0.7, 0.9]})
>>> round(sbp.brier_index(df), 2)
78.4""",
    "brier_skill_score": "{{frame}}\n>>> round(sbp.brier_skill_score(df), 4)\n0.7",
    "calibration_error": "{{frame}}\n>>> round(sbp.calibration_error(df, n_bins=2), 4)\n0.25",
    "calibration_bins": "{{frame}}\n>>> sbp.calibration_bins(df, n_bins=2).sum_wy\narray([0., 2.])",
    "murphy_decomposition": (
        "{{frame}}\n>>> round(sbp.murphy_decomposition(df, n_bins=2).reliability, 4)\n0.065"
    ),
    "net_benefit": "{{frame}}\n>>> round(sbp.net_benefit(df, threshold=0.3), 4)\n0.3929",
    "decision_curve": """\
{{frame}}
>>> res = sbp.decision_curve(df, thresholds=[0.3, 0.5])
>>> res.net_benefit.round(4)
array([0.3929, 0.5   ])""",
    "brier_inference": """\
{{setup}}
>>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.2, 0.7, 0.9, 0.4, 0.6]})
>>> res = sbp.brier_inference(df)
>>> round(res.brier_score, 4), round(res.standard_error(), 4)
(0.092, 0.0306)""",
    "brier_score_expr": """\
{{setup}}
>>> df = pl.DataFrame({"g": [1, 1, 2], "y": [0, 1, 1], "p": [0.2, 0.7, 0.9]})
>>> df.group_by("g").agg(sbp.brier_score_expr()).sort("g")["brier_score"].round(4).to_list()
[0.065, 0.01]""",
    "brier_index_expr": """\
{{setup}}
>>> df = pl.DataFrame({"y": [0, 1, 1], "p": [0.2, 0.7, 0.9]})
>>> round(df.select(sbp.brier_index_expr()).item(), 2)
78.4""",
    "brier_skill_score_expr": (
        "{{frame}}\n>>> round(df.select(sbp.brier_skill_score_expr()).item(), 4)\n0.7"
    ),
    "calibration_error_expr": (
        "{{frame}}\n>>> round(df.select(sbp.calibration_error_expr(n_bins=2)).item(), 4)\n0.25"
    ),
    "net_benefit_expr": (
        "{{frame}}\n>>> round(df.select(sbp.net_benefit_expr(threshold=0.3)).item(), 4)\n0.3929"
    ),
}


def _function(name: str, engine: Any = _FRAME) -> Any:
    """The public function of statistic ``name`` (declared in :mod:`._functions`);
    with ``engine=_EXPRESSION``, its expression ``<name>_expr``."""
    key = name if engine.grouped else name + "_expr"

    def function(*args: Any, **kwargs: Any) -> Any:
        a = _functions.arguments(function, args, kwargs)
        if not engine.grouped:
            return expression(name, **a)

        def source(p: Any, extra: dict[str, Any]) -> _Source:
            return _Source(a["data"], a["y"], p, a["weight"], a["group_by"], extra)

        return _functions.run(name, _ENGINE, a, source)

    notes = _NOTES.get(key, "" if engine.grouped else "See :func:`brier_score_expr`.")
    return _functions.define(function, engine, name, notes, _EXAMPLES[key])


# the functions of the statistics, one per statistic of
# ._statistics.STATISTICS (``brier_score``, ``brier_index``, ...), and
# the expressions of those of ._statistics.EXPRESSIONS (``*_expr``)
brier_score: TableFunction = _function("brier_score")
brier_index: TableFunction = _function("brier_index")
brier_skill_score: TableFunction = _function("brier_skill_score")
calibration_error: TableFunction = _function("calibration_error")
calibration_bins: TableFunction = _function("calibration_bins")
murphy_decomposition: TableFunction = _function("murphy_decomposition")
net_benefit: TableFunction = _function("net_benefit")
decision_curve: TableFunction = _function("decision_curve")
brier_inference: TableFunction = _function("brier_inference")
brier_score_expr: TableFunction = _function("brier_score", _EXPRESSION)
brier_index_expr: TableFunction = _function("brier_index", _EXPRESSION)
brier_skill_score_expr: TableFunction = _function("brier_skill_score", _EXPRESSION)
calibration_error_expr: TableFunction = _function("calibration_error", _EXPRESSION)
net_benefit_expr: TableFunction = _function("net_benefit", _EXPRESSION)


@_common.with_pieces({})
def calibration_report(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    groups: str | None = None,
    segments: str | list[str] | None = None,
    **kwargs: Any,
) -> Any:
    """:func:`skbrier.calibration_report` of a Polars frame, reading only its columns.

    A LazyFrame is collected once with only ``y``, ``p``, ``weight`` and the
    ``groups`` and ``segments`` columns selected (Polars pushes the
    projection into the scan: a Parquet file's other columns are not read),
    the columns go to numpy without a copy where their type allows, and the
    in-memory report computes every section exactly, the subgroup section
    included.

    Parameters
    ----------
    data : polars.DataFrame, polars.LazyFrame or None
        The rows (None when ``y``, ``p`` and ``weight`` are Series).
    y, p, weight : str, polars.Expr or polars.Series
        The outcome, probability and weight columns (see :func:`brier_score`).
    {{report_subgroups}}
    **kwargs
        The options of :func:`skbrier.calibration_report` (``thresholds``,
        ``cov_type``, ``n_bins``, ``pos_label``, ``name``, ...).

    Returns
    -------
    CalibrationReport

    Examples
    --------
    >>> import numpy as np, polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0.05, 0.95, 500)
    >>> lf = pl.LazyFrame({"y": rng.uniform(size=500) < p, "p": p, "other": p})
    >>> report = sbp.calibration_report(lf, n_bins=5)
    >>> report.n_samples
    500
    >>> lf = lf.with_columns(site=pl.Series(np.where(p < 0.5, "A", "B")))
    >>> sbp.calibration_report(lf, groups="site").subgroups.by_group.groups.tolist()
    ['A', 'B']
    """
    keys = _subgroup_keys(data, groups, segments)
    return _Source(data, y, p, weight, keys or None).report(groups, segments, kwargs)


def _subgroup_keys(data: Any, groups: Any, segments: Any) -> list[str]:
    """The ``groups`` and ``segments`` columns of ``data`` (checked; a bad
    ``data`` is the source's error)."""
    pl = _pl()
    if data is None and (groups is not None or segments is not None):
        raise TypeError(
            "groups and segments name columns of data: pass a DataFrame or LazyFrame "
            "as data."
        )
    frame = isinstance(data, pl.DataFrame | pl.LazyFrame)
    return _common.subgroup_keys(
        groups, segments, data.collect_schema().names() if frame else None
    )
