"""skbrier's plans as standard SQL: the query of a statistic's sufficient
statistics, and the finish of its rows for any engine.

:func:`query` renders the aggregates of a plan (:mod:`._plans`) over a
projection of the rows: ``CAST(... AS DOUBLE PRECISION)``, ``CEIL``,
``FLOOR``, ``CASE``, ``SUM``/``MIN``/``MAX``/``COUNT(*)``, ``GROUP BY``,
window sums ``OVER (PARTITION BY ...)`` (the two-pass moments),
double-quoted identifiers and approximate-numeric literals (``1.0E0``, read
as doubles, never decimals).  DuckDB runs it (:mod:`skbrier.engines.duckdb`);
:func:`statistics_query` hands it to other engines with the function that
finishes its rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from . import _common, _plans, _statistics
from ._common import BIN, LABEL, PREFIX

__all__ = ["StatisticsQuery", "ident", "projection", "query", "statistics_query", "value"]

#: the column of the query's number in a UNION of several (one per model)
QUERY = "__skbrier_query"


# ----------------------------------------------------------------- SQL
def ident(name: str) -> str:
    """A double-quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _number(v: float) -> str:
    """An approximate-numeric literal (a DOUBLE, never a DECIMAL) that reads
    back as the same double."""
    text = repr(float(v))
    if text in ("inf", "-inf", "nan"):
        raise ValueError(f"a non-finite literal {text} cannot be written in SQL.")
    return text if "e" in text else text + "E0"


def value(v: Any) -> str:
    """A SQL literal of a group's key value."""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):  # a NaN or infinite key (NaN equals NaN in SQL)
            return f"CAST('{v!r}' AS DOUBLE PRECISION)"
        return _number(v)
    return "'" + str(v).replace("'", "''") + "'"


def _search(x: str, values: tuple, side: str) -> str:
    """``searchsorted(values, x, side)`` as a binary tree of ``CASE``: each
    row takes about log2(len(values)) comparisons."""
    op = ">" if side == "left" else ">="

    def tree(lo: int, hi: int) -> str:
        if lo == hi:
            return _number(float(lo))
        mid = (lo + hi) // 2
        above, below = tree(mid + 1, hi), tree(lo, mid)
        return f"CASE WHEN {x} {op} {_number(values[mid])} THEN {above} ELSE {below} END"

    return tree(0, len(values))


class _Renderer:
    """Terms as SQL text; ``gmean`` terms become window columns."""

    def __init__(self, cols: Mapping[str, str]) -> None:
        self.cols = cols
        self.windows: list[tuple[_plans.Term, _plans.Term]] = []

    def term(self, t: _plans.Term) -> str:
        return _plans.render(t, self._leaf, self._node)

    def _leaf(self, t: _plans.Term) -> str:
        if t.op == "col":
            return self.cols[t.args[0]]
        return "NULL" if t.args[0] is None else _number(t.args[0])

    def _node(self, op: str, *a: Any) -> str:
        if op == "gmean":
            self.windows.append((a[0], a[1]))
            return ident(f"{PREFIX}g{len(self.windows) - 1}")
        if op == "search":
            return _search(*a)
        if op == "when":
            return f"CASE WHEN {a[0]} THEN {a[1]} ELSE {a[2]} END"
        if op in ("ceil", "floor"):
            return f"{op.upper()}({a[0]})"
        if op == "not_null":
            return f"({a[0]} IS NOT NULL)"
        sym = {"==": "=", "and": "AND", "or": "OR"}.get(op, op)
        return f"({a[0]} {sym} {a[1]})"

    def agg(self, a: _plans.Agg) -> str:
        if a.kind == "count":
            text = "COUNT(*)"
        elif a.kind == "all":
            assert a.term is not None
            text = f"MIN(CASE WHEN {self.term(a.term)} THEN 1 ELSE 0 END)"
        else:
            assert a.term is not None
            text = f"{a.kind.upper()}({self.term(a.term)})"
        return f"{text} AS {ident(a.name)}"


def projection(columns: Mapping[str, str], keys: Sequence[str], source: str) -> str:
    """``SELECT`` the group columns and the logical columns (``y`` as is, the
    others as doubles) of ``source`` under reserved names."""
    items = [ident(k) for k in keys]
    for logical, column in columns.items():
        expr = ident(column)
        if logical != "y":
            expr = f"CAST({expr} AS DOUBLE PRECISION)"
        items.append(f"{expr} AS {ident(PREFIX + logical)}")
    return f"SELECT {', '.join(items)} FROM {source}"


def query(
    aggs: Sequence[_plans.Agg],
    projection: str,
    keys: Sequence[str],
    logical: Sequence[str],
    *,
    by_label: bool,
    bins: _plans.Term | None,
    query_id: int | None = None,
) -> str:
    """The aggregate query of a plan over the projected rows (``query_id``:
    a constant column :data:`QUERY` telling the queries of a UNION apart)."""
    cols = {k: ident(PREFIX + k) for k in logical}
    cols["y"] = f"CAST({cols['y']} AS DOUBLE PRECISION)"
    r = _Renderer(cols)
    agg_sql = [r.agg(a) for a in aggs]
    group = [ident(k) for k in keys]
    select = [f"{g} AS {ident(k)}" for g, k in zip(group, _common.key_names(keys))]
    if query_id is not None:
        select.append(f"{query_id} AS {ident(QUERY)}")
    if by_label:
        group.append(ident(PREFIX + "y"))
        select.append(f"{ident(PREFIX + 'y')} AS {ident(LABEL)}")
    if bins is not None:
        b = r.term(bins)
        group.append(b)
        select.append(f"{b} AS {ident(BIN)}")
    source = f"({projection}) AS t0"
    if r.windows:
        over = f"OVER (PARTITION BY {', '.join(group)})" if group else "OVER ()"
        wins = []
        for i, (x, w) in enumerate(r.windows):
            name = ident(f"{PREFIX}g{i}")
            if w.op == "lit":
                wins.append(f"AVG({r.term(x)}) {over} AS {name}")
            else:
                wins.append(
                    f"SUM({r.term(w * x)}) {over} / SUM({r.term(w)}) {over} AS {name}"
                )
        source = f"(SELECT t0.*, {', '.join(wins)} FROM {source}) AS t1"
    sql = f"SELECT {', '.join(select + agg_sql)} FROM {source}"
    return sql + (f" GROUP BY {', '.join(group)}" if group else "")


# ----------------------------------------------------------------- other engines
class StatisticsQuery:
    """A statistic's sufficient-statistics query and the finish of its rows.

    Made by :func:`statistics_query`: ``sql`` is standard SQL over the FROM
    item given there; run it on any engine and pass the rows it returns
    (with their column names) to :meth:`finish`.

    Parameters
    ----------
    sql : str
        The query: one row per group, label of ``y`` (and bin), with the
        counts and sums the statistic's kernel reduce defines.
    planned : object
        The statistic's plans (its state and finish).
    keys : list of str
        The group columns.

    Examples
    --------
    >>> from skbrier.engines import duckdb as sbd
    >>> q = sbd.statistics_query("net_benefit", "scores", threshold=0.2)
    >>> "GROUP BY" in q.sql
    True
    """

    def __init__(self, sql: str, planned: Any, keys: list[str]) -> None:
        self.sql = sql
        self._planned = planned
        self._keys = keys

    def finish(self, rows: Any) -> Any:
        """The statistic from the query's rows.

        Parameters
        ----------
        rows : sequence of mappings, or a pandas or Polars DataFrame
            The rows the engine returned, keyed by the query's column names.

        Returns
        -------
        object
            The result of the DuckDB function of the same name (a dict by
            group with ``group_by``).
        """
        if hasattr(rows, "to_dicts"):
            rows = rows.to_dicts()
        elif hasattr(rows, "to_dict"):
            rows = rows.to_dict("records")
        src = _RowsSource(self._planned.stat, self._keys, [dict(r) for r in rows])
        return _common.compute(src, self._planned.stat)

    def __repr__(self) -> str:
        return f"StatisticsQuery(sql={self.sql[:60]!r}...)"


class _RowsSource:
    """The rows of a :class:`StatisticsQuery` run elsewhere."""

    numeric_labels = False

    def __init__(self, stat: Any, keys: list[str], rows: list[dict]) -> None:
        self.keys = keys
        self.rows = rows
        #: the query of each model's statistic (by its bins term)
        self.query_of = {id(m.bins): j for j, m in enumerate(stat.models or [])}

    def run(self, aggs: list, *, by_label: bool, bins: Any) -> list[dict]:
        if not self.query_of:
            return self.rows
        j = self.query_of[id(bins)]
        return [r for r in self.rows if int(r[QUERY]) == j]

    def fetch(self, key: tuple) -> dict[str, Any]:
        shown = f" of the group {self.keys}={key!r}" if self.keys else ""
        raise ValueError(
            f"the rows{shown} are not valid input: a probability outside [0, 1] or "
            "NaN, a NULL, a negative or infinite weight, or a non-finite label (the "
            "query's 'ok' column is 0); run the in-memory function on those rows for "
            "the first invalid one."
        )

    def note(self, key: tuple, rows: bool = True) -> str:
        return "" if rows else _common.group_note(self.keys, key, "the query's rows", False)


def statistics_query(
    statistic: str,
    table: str,
    y: str = "y",
    p: Any = "p",
    weight: str | None = None,
    *,
    group_by: Any = None,
    pos_label: Any = None,
    **options: Any,
) -> StatisticsQuery:
    """The standard-SQL query of a statistic's sufficient statistics, for any engine.

    The query the DuckDB functions send, written in standard SQL: run
    ``query.sql`` on another engine (PostgreSQL, a warehouse) and finish
    its rows with ``query.finish(rows)``; the rows are a few per group.

    Parameters
    ----------
    statistic : str
        The name of one of this module's functions: ``"brier_score"``,
        ``"brier_index"``, ``"brier_skill_score"``, ``"calibration_error"``,
        ``"calibration_bins"``, ``"murphy_decomposition"``, ``"net_benefit"``,
        ``"decision_curve"`` or ``"brier_inference"``.
    table : str
        What follows ``FROM`` (a table name, a subquery in parentheses with
        an alias), inserted as written.
    y, p, weight : str
        Column names (quoted with double quotes in the query).
    group_by : str, list of str or None, default=None
        Group columns.
    pos_label : int, float, bool or str, default=None
        The positive class.
    **options
        The statistic's options (``n_bins``, ``threshold``, ``reference``, ...).

    Returns
    -------
    StatisticsQuery
        ``sql`` and ``finish(rows)``.

    Notes
    -----
    The query uses ``CAST(... AS DOUBLE PRECISION)``, ``CEIL``, ``FLOOR``,
    ``CASE``, ``MIN``/``MAX``/``SUM``/``COUNT(*)``, ``GROUP BY``, window sums
    ``OVER (PARTITION BY ...)`` (the moments of ``brier_inference``),
    double-quoted identifiers and literals such as ``1.0E0`` (approximate
    numerics, read as doubles).  Engines with another dialect may need the
    type name (``FLOAT64``) or the identifier quotes (backticks) replaced.
    NaN must compare above 1 or unequal to every number (as in PostgreSQL and
    DuckDB, or IEEE) so that the ``ok`` column flags it.  The columns are
    read by name: an engine whose identifiers ignore case even when quoted
    (DuckDB) reads a column ``y`` for ``y="Y"`` when both exist; the DuckDB
    functions of this module read each column by its position instead.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> q = sbd.statistics_query("brier_score", "scores")
    >>> print(q.sql[:60])
    SELECT "__skbrier_y" AS "__skbrier_label", COUNT(*) AS "rows
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2), "
    ...                 "(1, 0.7), (1, 0.9)) AS t(y, p)")
    >>> rel = con.sql(q.sql)
    >>> rows = [dict(zip(rel.columns, r)) for r in rel.fetchall()]
    >>> round(q.finish(rows), 4)
    0.0467
    """
    if not isinstance(table, str):
        raise TypeError(
            f"table must be a str (what follows FROM), got {type(table).__name__}."
        )
    if not isinstance(statistic, str):
        raise TypeError(f"statistic must be a str, got {type(statistic).__name__}.")
    planned = _statistics.plan(
        statistic,
        p,
        weighted=weight is not None,
        pos_label=pos_label,
        engine="SQL",
        **options,
    )
    columns = {"y": y, **planned.columns}
    if weight is not None:
        columns["w"] = weight
    params = {"y": "y", "w": "weight", "r": "reference"}
    for k, v in columns.items():
        _common.check_column(v, params.get(k, "p"), None)
    keys = _common.check_group_by(group_by, None)
    stat = planned.stat
    proj = projection(columns, keys, table)
    if stat.models is None:
        sql = query(stat.aggs, proj, keys, list(columns), by_label=True, bins=stat.bins)
    else:  # one query per model, told apart by a constant column
        sql = " UNION ALL ".join(
            query(m.aggs, proj, keys, list(columns), by_label=True, bins=m.bins, query_id=j)
            for j, m in enumerate(stat.models)
        )
    return StatisticsQuery(sql, planned, keys)
