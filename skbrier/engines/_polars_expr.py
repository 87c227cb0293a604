"""The rendering of plans as Polars expressions, and the expressions of
skbrier's statistics.

:func:`expression` (the ``*_expr`` functions of :mod:`skbrier.engines.polars`)
returns an expression of 0/1 outcomes usable in ``select``,
``group_by(...).agg(...)`` and ``over(...)``: Polars computes the sums the
statistic's kernel reduce defines for each group (the plans of
:mod:`._plans`), and one elementwise call per batch of groups finishes them
with the kernel's finish functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import _common, _plans, _statistics

__all__ = ["WINDOW", "expression", "group_mean", "render", "render_aggs"]

_ENGINE = "Polars"
#: the prefix of the window columns of the group means (two-pass moments)
WINDOW = "__skbrier_g"


def _pl() -> Any:
    return _common.engine("polars")


def kind_of(dtype: Any) -> str:
    """The kind of a Polars column type as :func:`._common.check_numbers`
    reads it: ``""`` (numbers, booleans, nulls), ``"text"``, ``"nested"``
    (lists, arrays, structs) or ``"other"`` (dates, durations, bytes ...)."""
    pl = _pl()
    if dtype.is_numeric() or dtype in (pl.Boolean, pl.Null):
        return ""
    if dtype in (pl.String, pl.Categorical, pl.Enum):
        return "text"
    return "nested" if dtype.is_nested() else "other"


# ----------------------------------------------------------------- rendering
def render(term: _plans.Term, cols: Mapping[str, Any], windows: list | None = None) -> Any:
    """A :class:`~skbrier.engines._plans.Term` as a Polars expression."""
    pl = _pl()

    def leaf(t: _plans.Term) -> Any:
        if t.op == "col":
            return cols[t.args[0]]
        return pl.lit(t.args[0], dtype=pl.Float64)

    def node(op: str, *a: Any) -> Any:
        if op == "gmean":
            x, w = a
            if windows is not None:  # a window column, computed before the groups
                windows.append((x, w))
                return pl.col(f"{WINDOW}{len(windows) - 1}")
            return group_mean(x, w, cols)
        if op == "search":
            x, values, side = a
            sorted_values = pl.lit(pl.Series(values, dtype=pl.Float64))
            return sorted_values.search_sorted(x, side=side).cast(pl.Float64)
        if op == "when":
            return pl.when(a[0]).then(a[1]).otherwise(a[2])
        if op in ("ceil", "floor"):
            return getattr(a[0], op)()
        if op == "not_null":
            return a[0].is_not_null()
        x, z = a
        return {
            "+": lambda: x + z,
            "-": lambda: x - z,
            "*": lambda: x * z,
            # Polars divides by a scalar as a product with its reciprocal (not
            # the correctly rounded quotient): divide by a column equal to it
            "/": lambda: x / (z + x * 0.0),
            ">=": lambda: x >= z,
            ">": lambda: x > z,
            "<=": lambda: x <= z,
            "<": lambda: x < z,
            "==": lambda: x == z,
            "and": lambda: x & z,
            "or": lambda: x | z,
        }[op]()

    return _plans.render(term, leaf, node)


def group_mean(x: _plans.Term, w: _plans.Term, cols: Mapping[str, Any]) -> Any:
    """The weighted mean of ``x`` over the rows of the aggregation group."""
    if w.op == "lit":
        return render(x, cols).mean()
    we = render(w, cols)
    return (we * render(x, cols)).sum() / we.sum()


def render_aggs(
    aggs: Sequence[_plans.Agg], cols: Mapping[str, Any], windows: list | None = None
) -> list:
    pl = _pl()
    out = []
    for a in aggs:
        if a.kind == "count":
            e = pl.len()
        else:
            assert a.term is not None
            x = render(a.term, cols, windows)
            e = x.fill_null(False).all() if a.kind == "all" else getattr(x, a.kind)()
        out.append(e.alias(a.name))
    return out


def _column(value: Any, name: str, names: list[str] | None) -> Any:
    """A column parameter as an expression (a name is checked against ``names``)."""
    pl = _pl()
    if isinstance(value, pl.Expr):
        return value
    _common.check_column(value, name, names)
    return pl.col(value)


# ----------------------------------------------------------------- expressions
def _given_expr(
    given: _common.GivenStatistic, cols: dict, weighted: bool, name: str
) -> Any:
    """The struct of a given plan's sums, finished per group by the kernel."""
    pl = _pl()

    def finish(s: Any) -> Any:
        rows = s.to_list()
        out = _common.finish_given(given, rows, weighted)
        _common.warn_hard(rows, None)  # each row is a group's sums
        return pl.Series(out, dtype=pl.Float64)

    aggs = given.aggs + (_plans.hard_aggs(_plans.col("p")) if given.hard else [])
    struct = pl.struct(render_aggs(aggs, cols))
    return struct.map_batches(finish, return_dtype=pl.Float64, is_elementwise=True).alias(
        name
    )


def expression(name: str, y: Any, p: Any, weight: Any, **options: Any) -> Any:
    """The Polars expression of statistic ``name`` (of
    :data:`~skbrier.engines._statistics.EXPRESSIONS`) of 0/1 outcomes: the
    public ``*_expr`` functions of :mod:`skbrier.engines.polars`."""
    pl = _pl()
    weighted = weight is not None
    given, extra = _statistics.given_plan(
        name, weighted=weighted, engine=_ENGINE, **options
    )
    names = {"y": y, "p": p, "w": weight, **extra}
    raw = {
        k: _column(v, _common.TableSource.PARAMETERS.get(k, "p"), None)
        for k, v in names.items()
        if v is not None
    }
    shown = {k: _statistics.column_name(names[k]) for k in raw}
    # the types are checked where y is read (an expression has no type
    # before Polars evaluates it); the other columns never fail to cast
    # there, so that the check's error is the one raised
    cols = {k: e.cast(pl.Float64, strict=False) for k, e in raw.items()}
    cols["y"] = pl.struct([e.alias(k) for k, e in raw.items()]).map_batches(
        lambda s: _outcomes(s, shown, name), return_dtype=pl.Float64, is_elementwise=True
    )
    return _given_expr(given, cols, weighted, name)


def _outcomes(columns: Any, shown: Mapping[str, str], statistic: str) -> Any:
    """The outcomes of a struct of an expression's logical columns, as
    Float64, once their types are checked: outcomes are numbers or booleans
    (text needs ``pos_label``, which the expressions do not take: the
    message says what to pass instead), the other columns numbers (the
    frame functions' message)."""
    pl = _pl()
    for k, name in shown.items():
        dtype = columns.struct.field(k).dtype
        kind = kind_of(dtype)
        if not kind:
            continue
        if k == "y":
            raise ValueError(
                f"y={name!r} holds {'text' if kind == 'text' else 'values'} ({dtype}): the Polars "
                "expressions take 0/1 outcomes (numbers or booleans) and no pos_label; "
                f"give the event as a boolean expression, e.g. y=pl.col({name!r}) == "
                f"'yes', or call skbrier.engines.polars.{statistic}(df, y={name!r}, "
                "pos_label=..., group_by=...)."
            )
        _common.check_numbers(
            name, _common.TableSource.PARAMETERS.get(k, "p"), kind, str(dtype)
        )
    return columns.struct.field("y").cast(pl.Float64)
