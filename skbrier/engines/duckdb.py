"""skbrier's statistics on DuckDB tables and relations, computed in SQL.

Every function takes a DuckDB relation (or a connection and a table name)
and the names of its columns, sends one SQL query that computes the
statistic's sufficient statistics inside DuckDB -- counts and sums per label
of ``y``, per bin (binned counts and sums), per threshold (the weights below
and at or above it) and per group, or the centred moments of the squared
errors (two passes: window means, then cross-products) -- and finishes the
few rows that come back with the kernel finish functions of numpy input.
The table never leaves the database; the numbers equal the in-memory
functions' on the same rows (to rounding), and bad input raises the
in-memory error (the flagged group's rows are then fetched and checked).

The queries are standard SQL (``CASE``, ``CEIL``/``FLOOR``, ``CAST(... AS
DOUBLE PRECISION)``, ``GROUP BY``, window ``SUM(...) OVER (PARTITION BY
...)``, double-quoted identifiers, approximate-numeric literals such as
``1.0E0``); :func:`statistics_query` returns one with the function that
finishes its rows, for other engines.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from . import _common, _functions, _statistics
from ._functions import TableFunction
from ._sql import StatisticsQuery, ident, projection, query, statistics_query, value

__all__ = [
    "StatisticsQuery",
    *_statistics.STATISTICS,  # the functions of the statistics (below)
    "calibration_report",
    "statistics_query",
]

_ENGINE = "DuckDB"
_INPUT = "__skbrier_input"
_NUMERIC = {
    "BOOLEAN",
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "UHUGEINT",
    "FLOAT",
    "DOUBLE",
}

_PIECES = {
    "inputs": "\n".join(
        [
            """\
data : duckdb.DuckDBPyRelation or duckdb.DuckDBPyConnection
    The rows: a relation, or a connection with ``table`` naming them.""",
            _common.column_inputs("str", "str or None"),
            """\
table : str or None, default=None
    With a connection: what follows ``FROM`` (a table or view name, or a
    table function such as ``read_parquet('scores/*.parquet')``), inserted
    as written.""",
        ]
    ),
    #: the examples' table
    "setup": """\
>>> import duckdb
>>> from skbrier.engines import duckdb as sbd
>>> con = duckdb.connect()
>>> _ = con.execute(
...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")""",
}


# ----------------------------------------------------------------- the source
class _Source(_common.TableSource):
    """The DuckDB input of a call: a relation and the columns chosen."""

    input = f"the {_ENGINE} input"
    where = f"{input}, in the order DuckDB returned its rows"

    def __init__(self, data: Any, table: Any, *columns: Any) -> None:
        """``data`` and ``table`` as :func:`_relation` reads them; ``columns``:
        ``y``, ``p``, ``weight``, ``group_by`` and the extra columns, as
        :class:`~._common.TableSource` takes them."""
        super().__init__(_relation(data, table), *columns)

    def open(self, data: Any, inputs: dict, group_by: Any) -> tuple[Any, dict, list[str]]:
        return data, inputs, list(data.columns)

    def column(self, value: Any, name: str, names: list[str]) -> str:
        _common.check_column(value, name, names)
        return value

    def kinds(self, frame: Any, columns: dict[str, Any]) -> dict[str, tuple[str, str]]:
        types = _types(frame)
        return {k: (types[v], _kind(types[v])) for k, v in columns.items()}

    def select(self, frame: Any, columns: dict[str, Any]) -> None:
        self.rel = frame
        self.columns = columns
        ytype = _types(frame)[columns["y"]]
        self.numeric_labels = ytype in _NUMERIC or ytype.startswith("DECIMAL")
        used = [*columns.values(), *self.keys]
        self.projection = projection(columns, self.keys, _exact(list(frame.columns), used))

    def sql(self, aggs: list, *, by_label: bool, bins: Any) -> str:
        return query(
            aggs,
            self.projection,
            self.keys,
            list(self.columns),
            by_label=by_label,
            bins=bins,
        )

    def run(self, aggs: list, *, by_label: bool, bins: Any) -> list[dict]:
        res = self.rel.query(_INPUT, self.sql(aggs, by_label=by_label, bins=bins))
        names = res.columns
        return [dict(zip(names, row)) for row in res.fetchall()]

    def fetched(self, key: tuple) -> dict[str, Any]:
        """One query (NULL: NaN or None)."""
        where = [
            f"{ident(k)} IS NULL" if v is None else f"{ident(k)} = {value(v)}"
            for k, v in zip(self.keys, key)
        ]
        sql = f"SELECT * FROM ({self.projection}) AS t0"
        if where:
            sql += " WHERE " + " AND ".join(where)
        arrays = self.rel.query(_INPUT, sql).fetchnumpy()
        return {name: _filled(arr) for name, arr in arrays.items()}


def _kind(type_name: str) -> str:
    """The kind of a DuckDB column type as :func:`._common.check_numbers`
    reads it: ``""`` (numbers, booleans, nulls), ``"text"`` (VARCHAR, ENUM,
    JSON), ``"nested"`` (lists, arrays, structs, maps, unions) or
    ``"other"`` (dates, intervals, blobs ...)."""
    numbers = ("BIGNUM", "VARINT", '"NULL"')  # arbitrary-precision integers, nulls
    if type_name in _NUMERIC or type_name.startswith("DECIMAL") or type_name in numbers:
        return ""
    if type_name in ("VARCHAR", "JSON") or type_name.startswith("ENUM("):
        return "text"
    nested = ("STRUCT(", "MAP(", "UNION(")
    return "nested" if type_name.endswith("]") or type_name.startswith(nested) else "other"


def _types(rel: Any) -> dict[str, str]:
    """The type of each column of the relation, by name (``"VARCHAR"``, ...)."""
    return dict(zip(rel.columns, (str(t) for t in rel.types)))


def _relation(data: Any, table: Any) -> Any:
    """The rows of a call: the relation ``data``, or the FROM item ``table``
    of the connection ``data`` (a TypeError naming the parameter else)."""
    duckdb = _common.engine("duckdb")
    if isinstance(data, duckdb.DuckDBPyConnection):
        if not isinstance(table, str):
            raise TypeError(
                "table must name the rows (a table or view, or a table function) "
                f"when data is a DuckDB connection; got {table!r}."
            )
        return data.sql(f"SELECT * FROM {table}")
    if isinstance(data, duckdb.DuckDBPyRelation):
        if table is not None:
            raise TypeError("table must be None when data is a DuckDB relation.")
        return data
    raise TypeError(
        "data must be a DuckDB relation or a connection (with table=), got "
        f"{type(data).__name__}."
    )


def _exact(names: list[str], used: list[str]) -> str:
    """The FROM item of the columns ``used`` of the input (``names``: all its
    columns), each read by its position under its own name: DuckDB's
    identifiers ignore case, quoted or not, so ``"Y"`` would read a column
    ``y`` standing before it.  Two columns used that differ only in case
    cannot be told apart by name later in the query: a ValueError."""
    chosen = list(dict.fromkeys(used))
    folded: dict[str, str] = {}
    for name in chosen:
        first = folded.setdefault(name.lower(), name)
        if first != name:
            raise ValueError(
                f"the columns {first!r} and {name!r} differ only in case: DuckDB cannot "
                "tell them apart (its identifiers ignore case, quoted or not); give one "
                f"of them another name first, e.g. SELECT #{names.index(name) + 1} AS "
                "new_name (a position reads the column exactly)."
            )
    items = ", ".join(f"#{names.index(c) + 1} AS {ident(c)}" for c in chosen)
    return f"(SELECT {items} FROM {ident(_INPUT)}) AS {ident(_common.PREFIX + 'columns')}"


def _filled(arr: Any) -> np.ndarray:
    """A fetched column with its NULLs as NaN (numbers) or None (labels)."""
    if not isinstance(arr, np.ma.MaskedArray) or not np.ma.is_masked(arr):
        return np.asarray(arr)
    if arr.dtype.kind in "iufb":
        return np.ma.filled(arr.astype(np.float64), np.nan)
    out = np.array(arr.data, dtype=object)  # np.ma.filled(..., None) fills "?"
    out[np.ma.getmaskarray(arr)] = None
    return out


# ----------------------------------------------------------------- the statistics
_TABLE = _functions.Engine(
    "a DuckDB table",
    (
        ("data", inspect.Parameter.empty, "Any"),
        ("y", "y", "str"),
        ("p", "p", "str"),
        ("weight", None, "str | None"),
    ),
    _PIECES,
    keywords=(("table", None, "str | None"),),
    reference=("str | float | None", "str"),
)


#: the paragraph after a function's summary, where DuckDB's way says more
_NOTES = {
    "brier_score": """\
DuckDB sums the squared errors and the weights (0/1 outcomes: one pass, no
grouping by label) and the kernel's finish divides.""",
    "calibration_error": """\
DuckDB computes the bin of each row (the numpy kernel's rule, bit for bit)
and the counts and sums per label and bin; the kernel finishes them.""",
    "decision_curve": "The weights below and at or above every threshold, per label, summed in SQL.",
    "brier_inference": """\
The centred moments of the squared errors per label: DuckDB takes the means
with window sums, then the centred cross-products, minima and maxima.""",
}

#: each function's example, on the table of ``{{setup}}``
_EXAMPLES = {
    "brier_score": """\
>>> round(sbd.brier_score(con, table="scores"), 4)
0.075
>>> rel = con.table("scores")
>>> {k: round(v, 4) for k, v in sorted(sbd.brier_score(rel, group_by="g").items())}
{'a': 0.065, 'b': 0.085}""",
    "brier_index": '>>> round(sbd.brier_index(con, table="scores"), 2)\n72.61',
    "brier_skill_score": '>>> round(sbd.brier_skill_score(con, table="scores"), 4)\n0.7',
    "calibration_error": (
        '>>> round(sbd.calibration_error(con, table="scores", n_bins=2), 4)\n0.25'
    ),
    "calibration_bins": (
        '>>> sbd.calibration_bins(con, table="scores", n_bins=2).count\narray([2, 2])'
    ),
    "murphy_decomposition": '>>> round(sbd.murphy_decomposition(con, table="scores", '
    "n_bins=2).reliability, 4)\n0.065",
    "net_benefit": '>>> round(sbd.net_benefit(con, table="scores", threshold=0.3), 4)\n0.3929',
    "decision_curve": """\
>>> sbd.decision_curve(con, table="scores", thresholds=[0.3, 0.5]).net_benefit.round(4)
array([0.3929, 0.5   ])""",
    "brier_inference": """\
>>> res = sbd.brier_inference(con, table="scores")
>>> round(res.brier_score, 4), round(res.standard_error(), 4)
(0.075, 0.0328)""",
}


def _function(name: str) -> Any:
    """The public function of statistic ``name`` (declared in :mod:`._functions`)."""

    def function(*args: Any, **kwargs: Any) -> Any:
        a = _functions.arguments(function, args, kwargs)

        def source(p: Any, extra: dict[str, Any]) -> _Source:
            return _Source(
                a["data"], a["table"], a["y"], p, a["weight"], a["group_by"], extra
            )

        return _functions.run(name, _ENGINE, a, source)

    examples = "{{setup}}\n" + _EXAMPLES[name]
    return _functions.define(function, _TABLE, name, _NOTES.get(name, ""), examples)


# the functions of the statistics, one per statistic of
# ._statistics.STATISTICS (named here so that type checkers and
# editors see them; tests/test_engine_signatures.py checks the list)
brier_score: TableFunction = _function("brier_score")
brier_index: TableFunction = _function("brier_index")
brier_skill_score: TableFunction = _function("brier_skill_score")
calibration_error: TableFunction = _function("calibration_error")
calibration_bins: TableFunction = _function("calibration_bins")
murphy_decomposition: TableFunction = _function("murphy_decomposition")
net_benefit: TableFunction = _function("net_benefit")
decision_curve: TableFunction = _function("decision_curve")
brier_inference: TableFunction = _function("brier_inference")


@_common.with_pieces({})
def calibration_report(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    table: str | None = None,
    groups: str | None = None,
    segments: str | list[str] | None = None,
    **kwargs: Any,
) -> Any:
    """:func:`skbrier.calibration_report` of a DuckDB table, reading only its columns.

    One query selects ``y``, ``p``, ``weight`` and the ``groups`` and
    ``segments`` columns (DuckDB reads no other column of the table or
    Parquet files), the columns come back as numpy arrays, and the in-memory
    report computes every section exactly, the subgroup section included.

    Parameters
    ----------
    data : duckdb.DuckDBPyRelation or duckdb.DuckDBPyConnection
        The rows: a relation, or a connection with ``table`` naming them.
    y, p, weight : str
        The outcome, probability and weight columns (see :func:`brier_score`).
    table : str or None, default=None
        With a connection: what follows ``FROM``, inserted as written.
    {{report_subgroups}}
    **kwargs
        The options of :func:`skbrier.calibration_report`.

    Returns
    -------
    CalibrationReport

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE s AS SELECT (range * 7) % 10 < 3 AS y, "
    ...     "0.05 + 0.9 * (range % 97) / 96.0 AS p, range % 2 AS site, "
    ...     "'unused' AS note FROM range(400)")
    >>> report = sbd.calibration_report(con, table="s", n_bins=5)
    >>> report.n_samples
    400
    >>> report = sbd.calibration_report(con, table="s", groups="site")
    >>> report.subgroups.by_group.groups.tolist()
    [0, 1]
    """
    rel = _relation(data, table)
    keys = _common.subgroup_keys(groups, segments, list(rel.columns))
    return _Source(rel, None, y, p, weight, keys or None).report(groups, segments, kwargs)
