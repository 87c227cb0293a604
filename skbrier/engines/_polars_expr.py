"""Polars expressions of skbrier's statistics, and the rendering of plans as
Polars expressions.

The ``*_expr`` functions return expressions of 0/1 outcomes usable in
``select``, ``group_by(...).agg(...)`` and ``over(...)``: Polars computes the
sums the statistic's kernel reduce defines for each group (the plans of
:mod:`._plans`), and one elementwise call per batch of groups finishes them
with the kernel's finish functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._core.params import DEFAULT_N_BINS
from . import _common, _plans, _statistics
from ._common import with_pieces
from ._statistics import edges_option, reference_option

__all__ = [
    "WINDOW",
    "brier_index_expr",
    "brier_score_expr",
    "brier_skill_score_expr",
    "calibration_error_expr",
    "group_mean",
    "net_benefit_expr",
    "render",
    "render_aggs",
]

_ENGINE = "Polars"
#: the prefix of the window columns of the group means (two-pass moments)
WINDOW = "__skbrier_g"

_PIECES = {
    "expr_inputs": """\
y : str or polars.Expr, default="y"
    0/1 outcomes (integers, floats or booleans).
p : str or polars.Expr, default="p"
    Probabilities of the outcome 1.
weight : str, polars.Expr or None, default=None
    Non-negative frequency weights.""",
}
_doc = with_pieces(_PIECES)


def _pl() -> Any:
    try:
        import polars as pl
    except ImportError as exc:  # pragma: no cover - polars is an extra
        raise ImportError(
            "skbrier.engines.polars needs polars: pip install 'skbrier[polars]'."
        ) from exc
    return pl


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
        return pl.Series(
            _common.finish_given(given, s.to_list(), weighted), dtype=pl.Float64
        )

    struct = pl.struct(render_aggs(given.aggs, cols))
    return struct.map_batches(finish, return_dtype=pl.Float64, is_elementwise=True).alias(
        name
    )


def _expr_cols(y: Any, p: Any, weight: Any, **extra: Any) -> dict:
    pl = _pl()
    names = {"y": y, "p": p, "w": weight, **extra}
    return {
        k: _column(v, {"w": "weight", "r": "reference"}.get(k, k), None).cast(pl.Float64)
        for k, v in names.items()
        if v is not None
    }


@_doc
def brier_score_expr(y: Any = "y", p: Any = "p", weight: Any = None) -> Any:
    """Brier score as a Polars expression of 0/1 outcomes.

    Usable in ``select``, ``group_by(...).agg(...)`` and ``over(...)``:
    Polars computes the sums of each group, the kernel's finish gives the
    score.  Invalid rows in a group raise a ValueError.

    Parameters
    ----------
    {{expr_inputs}}

    Returns
    -------
    polars.Expr
        A Float64 expression named ``"brier_score"``.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"g": [1, 1, 2], "y": [0, 1, 1], "p": [0.2, 0.7, 0.9]})
    >>> df.group_by("g").agg(sbp.brier_score_expr()).sort("g")["brier_score"].round(4).to_list()
    [0.065, 0.01]
    """
    cols = _expr_cols(y, p, weight)
    stat = _statistics.brier("score", weighted="w" in cols)[1]
    assert stat is not None
    return _given_expr(stat, cols, "w" in cols, "brier_score")


@_doc
def brier_index_expr(y: Any = "y", p: Any = "p", weight: Any = None) -> Any:
    """Brier Index as a Polars expression of 0/1 outcomes (see :func:`brier_score_expr`).

    Parameters
    ----------
    {{expr_inputs}}

    Returns
    -------
    polars.Expr
        A Float64 expression named ``"brier_index"``.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1], "p": [0.2, 0.7, 0.9]})
    >>> round(df.select(sbp.brier_index_expr()).item(), 2)
    78.4
    """
    cols = _expr_cols(y, p, weight)
    stat = _statistics.brier("index", weighted="w" in cols)[1]
    assert stat is not None
    return _given_expr(stat, cols, "w" in cols, "brier_index")


@_doc
def brier_skill_score_expr(
    y: Any = "y", p: Any = "p", weight: Any = None, *, reference: Any = None
) -> Any:
    """Brier skill score as a Polars expression of 0/1 outcomes.

    Parameters
    ----------
    {{expr_inputs}}
    reference : str, polars.Expr, float or None, default=None
        None: climatology (the group's event rate); a float: a constant
        forecast; a column: reference forecasts.

    Returns
    -------
    polars.Expr
        A Float64 expression named ``"brier_skill_score"``.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> round(df.select(sbp.brier_skill_score_expr()).item(), 4)
    0.7
    """
    ref = reference_option(reference)
    cols = _expr_cols(y, p, weight, **({"r": reference} if ref == "r" else {}))
    stat = _statistics.brier("skill", weighted="w" in cols, reference=ref)[1]
    assert stat is not None
    return _given_expr(stat, cols, "w" in cols, "brier_skill_score")


@_doc
def calibration_error_expr(
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    n_bins: int = DEFAULT_N_BINS,
    norm: str = "l1",
    right: bool = True,
) -> Any:
    """Binned calibration error (uniform bins) as a Polars expression of 0/1 outcomes.

    Parameters
    ----------
    {{expr_inputs}}
    n_bins : int, default=10
        Number of equal-width bins on [0, 1].
    norm : {"l1", "l2", "max"}, default="l1"
        The norm of the bin gaps.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin (True) or the upper.

    Returns
    -------
    polars.Expr
        A Float64 expression named ``"calibration_error"``.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> round(df.select(sbp.calibration_error_expr(n_bins=2)).item(), 4)
    0.25
    """
    from .._core.params import check_bool, check_option

    norm = check_option(norm, "norm", ("l1", "l2", "max"))
    edges = edges_option(n_bins, "uniform", _ENGINE)
    cols = _expr_cols(y, p, weight)
    given = _statistics.calibration_given(
        edges, check_bool(right, "right"), "w" in cols, norm
    )
    return _given_expr(given, cols, "w" in cols, "calibration_error")


@_doc
def net_benefit_expr(
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    threshold: float,
    prevalence: float | None = None,
) -> Any:
    """Net benefit at a threshold as a Polars expression of 0/1 outcomes.

    Parameters
    ----------
    {{expr_inputs}}
    threshold : float
        The threshold probability, in (0, 1).
    prevalence : float or None, default=None
        The prevalence of a case-control sample (None: the group's).

    Returns
    -------
    polars.Expr
        A Float64 expression named ``"net_benefit"``.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> round(df.select(sbp.net_benefit_expr(threshold=0.3)).item(), 4)
    0.3929
    """
    t, prev = _statistics.net_benefit_options(threshold, prevalence)
    cols = _expr_cols(y, p, weight)
    given = _statistics.net_benefit_given(float(t[0]), "w" in cols, prev)
    return _given_expr(given, cols, "w" in cols, "net_benefit")
