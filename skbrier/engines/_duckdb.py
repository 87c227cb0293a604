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

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from . import _common, _plans, _statistics
from ._common import BIN, LABEL, with_pieces

__all__ = [
    "StatisticsQuery",
    "brier_index",
    "brier_inference",
    "brier_score",
    "brier_skill_score",
    "calibration_bins",
    "calibration_error",
    "calibration_report",
    "decision_curve",
    "murphy_decomposition",
    "net_benefit",
    "statistics_query",
]

_ENGINE = "DuckDB"
_PREFIX = "__skbrier_"
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
    "inputs": """\
data : duckdb.DuckDBPyRelation or duckdb.DuckDBPyConnection
    The rows: a relation, or a connection with ``table`` naming them.
y : str, default="y"
    The outcome column: two labels (0/1, booleans, strings with
    ``pos_label``), as ``y_true`` of the in-memory functions.
p : str, default="p"
    The probability of the positive class, as ``y_proba``.
weight : str or None, default=None
    Non-negative frequency weights, as ``sample_weight``.
table : str or None, default=None
    With a connection: what follows ``FROM`` (a table or view name, or a
    table function such as ``read_parquet('scores/*.parquet')``), inserted
    as written.""",
    "group_by": """\
group_by : str, list of str or None, default=None
    Columns: one result per group, returned as a dict keyed by the group's
    value (a tuple for several columns).
pos_label : int, float, bool or str, default=None
    The positive class (scikit-learn's rule over each group's labels).""",
}
_doc = with_pieces(_PIECES)


def _duckdb() -> Any:
    try:
        import duckdb
    except ImportError as exc:  # pragma: no cover - duckdb is an extra
        raise ImportError(
            "skbrier.engines.duckdb needs duckdb: pip install 'skbrier[duckdb]'."
        ) from exc
    return duckdb


# ----------------------------------------------------------------- SQL
def _ident(name: str) -> str:
    """A double-quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _number(v: float) -> str:
    """An approximate-numeric literal (a DOUBLE, never a DECIMAL) that reads
    back as the same double."""
    text = repr(float(v))
    if text in ("inf", "-inf", "nan"):
        raise ValueError(f"a non-finite literal {text} cannot be written in SQL.")
    return text if "e" in text else text + "E0"


def _value(v: Any) -> str:
    """A SQL literal of a group's key value."""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _number(v)
    return "'" + str(v).replace("'", "''") + "'"


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
            return _ident(f"{_PREFIX}g{len(self.windows) - 1}")
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
        return f"{text} AS {_ident(a.name)}"


def _projection(columns: Mapping[str, str], keys: Sequence[str], source: str) -> str:
    """``SELECT`` the group columns and the logical columns (``y`` as is, the
    others as doubles) of ``source`` under reserved names."""
    items = [_ident(k) for k in keys]
    for logical, column in columns.items():
        expr = _ident(column)
        if logical != "y":
            expr = f"CAST({expr} AS DOUBLE PRECISION)"
        items.append(f"{expr} AS {_ident(_PREFIX + logical)}")
    return f"SELECT {', '.join(items)} FROM {source}"


def _query(
    aggs: Sequence[_plans.Agg],
    projection: str,
    keys: Sequence[str],
    logical: Sequence[str],
    *,
    by_label: bool,
    bins: _plans.Term | None,
) -> str:
    """The aggregate query of a plan over the projected rows."""
    cols = {k: _ident(_PREFIX + k) for k in logical}
    cols["y"] = f"CAST({cols['y']} AS DOUBLE PRECISION)"
    r = _Renderer(cols)
    agg_sql = [r.agg(a) for a in aggs]
    group = [_ident(k) for k in keys]
    select = list(group)
    if by_label:
        group.append(_ident(_PREFIX + "y"))
        select.append(f"{_ident(_PREFIX + 'y')} AS {_ident(LABEL)}")
    if bins is not None:
        b = r.term(bins)
        group.append(b)
        select.append(f"{b} AS {_ident(BIN)}")
    source = f"({projection}) AS t0"
    if r.windows:
        over = f"OVER (PARTITION BY {', '.join(group)})" if group else "OVER ()"
        wins = []
        for i, (x, w) in enumerate(r.windows):
            name = _ident(f"{_PREFIX}g{i}")
            if w.op == "lit":
                wins.append(f"AVG({r.term(x)}) {over} AS {name}")
            else:
                wins.append(
                    f"SUM({r.term(w * x)}) {over} / SUM({r.term(w)}) {over} AS {name}"
                )
        source = f"(SELECT t0.*, {', '.join(wins)} FROM {source}) AS t1"
    sql = f"SELECT {', '.join(select + agg_sql)} FROM {source}"
    return sql + (f" GROUP BY {', '.join(group)}" if group else "")


# ----------------------------------------------------------------- the source
class _Source:
    """The DuckDB input of a call: a relation and the columns chosen."""

    def __init__(
        self,
        data: Any,
        table: Any,
        y: Any,
        p: Any,
        weight: Any,
        group_by: Any,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        duckdb = _duckdb()
        if isinstance(data, duckdb.DuckDBPyConnection):
            if not isinstance(table, str):
                raise TypeError(
                    "table must name the rows (a table or view, or a table function) "
                    f"when data is a DuckDB connection; got {table!r}."
                )
            data = data.sql(f"SELECT * FROM {table}")
        elif isinstance(data, duckdb.DuckDBPyRelation):
            if table is not None:
                raise TypeError("table must be None when data is a DuckDB relation.")
        else:
            raise TypeError(
                "data must be a DuckDB relation or a connection (with table=), got "
                f"{type(data).__name__}."
            )
        self.rel = data
        names = list(data.columns)
        types = dict(zip(names, (str(t) for t in data.types)))
        inputs = {"y": y, "p": p, "w": weight, **(extra or {})}
        self.columns = {k: v for k, v in inputs.items() if v is not None}
        params = {"y": "y", "p": "p", "w": "weight", "r": "reference"}
        for k, v in self.columns.items():
            _common.check_column(v, params.get(k, "p"), names)
        self.keys = _common.check_group_by(group_by, names)
        ytype = types[self.columns["y"]]
        self.numeric_labels = ytype in _NUMERIC or ytype.startswith("DECIMAL")
        self.weighted = weight is not None
        self.projection = _projection(self.columns, self.keys, _ident(_INPUT))

    def sql(self, aggs: list, *, by_label: bool, bins: Any) -> str:
        return _query(
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

    def fetch(self, key: tuple) -> dict[str, Any]:
        where = [
            f"{_ident(k)} IS NULL" if v is None else f"{_ident(k)} = {_value(v)}"
            for k, v in zip(self.keys, key)
        ]
        sql = f"SELECT * FROM ({self.projection}) AS t0"
        if where:
            sql += " WHERE " + " AND ".join(where)
        arrays = self.rel.query(_INPUT, sql).fetchnumpy()
        return {
            name[len(_PREFIX) :]: _filled(arr)
            for name, arr in arrays.items()
            if name.startswith(_PREFIX)
        }

    def note(self, key: tuple) -> str:
        if not self.keys:
            return ""
        shown = key[0] if len(key) == 1 else key
        return (
            f"(Positions and counts are within the group {self.keys}={shown!r} of "
            f"the {_ENGINE} input, in the order DuckDB returned its rows.)"
        )


def _filled(arr: Any) -> np.ndarray:
    """A fetched column with its NULLs as NaN (numbers) or None (labels)."""
    if not isinstance(arr, np.ma.MaskedArray) or not np.ma.is_masked(arr):
        return np.asarray(arr)
    if arr.dtype.kind in "iufb":
        return np.ma.filled(arr.astype(np.float64), np.nan)
    return np.ma.filled(arr.astype(object), None)


def _run(
    name: str,
    data: Any,
    table: Any,
    y: Any,
    p: Any,
    weight: Any,
    group_by: Any,
    pos_label: Any,
    **options: Any,
) -> Any:
    """Statistic ``name`` of the DuckDB input (:func:`skbrier.engines._statistics.plan`)."""
    planned = _statistics.plan(
        name, p, weighted=weight is not None, pos_label=pos_label, engine=_ENGINE, **options
    )
    extra = dict(planned.columns)
    src = _Source(data, table, y, extra.pop("p"), weight, group_by, extra)
    return _common.compute(src, planned.stat, planned.given)


# ----------------------------------------------------------------- the statistics


@_doc
def brier_score(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier score of a DuckDB table, computed in SQL (per group with ``group_by``).

    :math:`\mathrm{BS} = \sum_i w_i (p_i - y_i)^2 / \sum_i w_i`: DuckDB sums
    the squared errors and the weights (0/1 outcomes: one pass, no grouping
    by label) and the kernel's finish divides.

    Parameters
    ----------
    {{inputs}}
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.brier_score` of the rows; ``{group: score}`` with
        ``group_by``.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> round(sbd.brier_score(con, table="scores"), 4)
    0.075
    >>> rel = con.table("scores")
    >>> {k: round(v, 4) for k, v in sorted(sbd.brier_score(rel, group_by="g").items())}
    {'a': 0.065, 'b': 0.085}
    """
    return _run("brier_score", data, table, y, p, weight, group_by, pos_label)


@_doc
def brier_index(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier Index :math:`100 (1 - \sqrt{\mathrm{BS}})` of a DuckDB table.

    Parameters
    ----------
    {{inputs}}
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.brier_index` of the rows.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> round(sbd.brier_index(con, table="scores"), 2)
    72.61
    """
    return _run("brier_index", data, table, y, p, weight, group_by, pos_label)


@_doc
def brier_skill_score(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    reference: str | float | None = None,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier skill score :math:`1 - \mathrm{BS} / \mathrm{BS}_\mathrm{ref}` of a DuckDB table.

    Parameters
    ----------
    {{inputs}}
    reference : str, float or None, default=None
        None: climatology (each group's event rate); a float: the constant
        forecast of that rate; a column name: reference forecasts.
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.brier_skill_score` of the rows.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> round(sbd.brier_skill_score(con, table="scores"), 4)
    0.7
    """
    opts = {"reference": reference}
    return _run("brier_skill_score", data, table, y, p, weight, group_by, pos_label, **opts)


@_doc
def calibration_error(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    n_bins: int = 15,
    norm: str = "l1",
    right: bool = True,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Binned calibration error of a DuckDB table on ``n_bins`` uniform bins.

    DuckDB computes the bin of each row (the numpy kernel's rule, bit for
    bit) and the counts and sums per label and bin; the kernel finishes
    :math:`\sum_k \frac{W_k}{W} |\bar p_k - \bar y_k|` (``"l1"``).

    Parameters
    ----------
    {{inputs}}
    n_bins : int, default=15
        Number of equal-width bins on [0, 1].
    norm : {"l1", "l2", "max"}, default="l1"
        The norm of the bin gaps.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin (True) or the upper.
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.calibration_error` (``kind="binary"``) of the rows.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> round(sbd.calibration_error(con, table="scores", n_bins=2), 4)
    0.25
    """
    opts = {"n_bins": n_bins, "norm": norm, "right": right}
    return _run("calibration_error", data, table, y, p, weight, group_by, pos_label, **opts)


@_doc
def calibration_bins(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    n_bins: int = 10,
    strategy: Any = "uniform",
    right: bool = True,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    """Per-bin counts and sums of a DuckDB table: the calibration bins.

    Parameters
    ----------
    {{inputs}}
    n_bins : int, default=10
        Number of equal-width bins (``strategy="uniform"``).
    strategy : "uniform" or array-like of bin edges, default="uniform"
        The bins (equal-mass bins need all forecasts first: refused).
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin (True) or the upper.
    {{group_by}}

    Returns
    -------
    BinStatistics or dict
        :func:`skbrier.metrics.decomposition.binned_statistics` of the rows.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> sbd.calibration_bins(con, table="scores", n_bins=2).count
    array([2, 2])
    """
    opts = {"n_bins": n_bins, "strategy": strategy, "right": right}
    return _run("calibration_bins", data, table, y, p, weight, group_by, pos_label, **opts)


@_doc
def murphy_decomposition(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    n_bins: int = 10,
    strategy: Any = "uniform",
    right: bool = True,
    bias_correction: bool = False,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    """Binned (Murphy) decomposition of the Brier score of a DuckDB table.

    Parameters
    ----------
    {{inputs}}
    n_bins : int, default=10
        Number of equal-width bins (``strategy="uniform"``).
    strategy : "uniform" or array-like of bin edges, default="uniform"
        The bins (equal-mass bins need all forecasts first: refused).
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin (True) or the upper.
    bias_correction : bool, default=False
        Ferro and Fricker's finite-sample correction.
    {{group_by}}

    Returns
    -------
    MurphyDecomposition or dict
        :func:`skbrier.murphy_decomposition` of the rows.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> round(sbd.murphy_decomposition(con, table="scores", n_bins=2).reliability, 4)
    0.065
    """
    opts = {"n_bins": n_bins, "strategy": strategy, "right": right}
    opts["bias_correction"] = bias_correction
    return _run(
        "murphy_decomposition", data, table, y, p, weight, group_by, pos_label, **opts
    )


@_doc
def net_benefit(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    threshold: float,
    prevalence: float | None = None,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Net benefit :math:`TP/W - FP/W \cdot p_t / (1 - p_t)` of a DuckDB table.

    Parameters
    ----------
    {{inputs}}
    threshold : float
        The threshold probability :math:`p_t`, in (0, 1).
    prevalence : float or None, default=None
        The prevalence of a case-control sample (None: the sample's).
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.net_benefit` of the rows.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> round(sbd.net_benefit(con, table="scores", threshold=0.3), 4)
    0.3929
    """
    opts = {"threshold": threshold, "prevalence": prevalence}
    return _run("net_benefit", data, table, y, p, weight, group_by, pos_label, **opts)


@_doc
def decision_curve(
    data: Any,
    y: str = "y",
    p: Any = "p",
    weight: str | None = None,
    *,
    thresholds: Any = None,
    prevalence: float | None = None,
    harm: Any = None,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    """Decision curve of a DuckDB table: the weights below and at or above
    every threshold, per label, summed in SQL.

    Parameters
    ----------
    {{inputs}}
        A list of column names, or a dict ``{model name: column}``, gives
        several models.
    thresholds : array-like or None, default=None
        Thresholds in [0, 1) (None: :func:`skbrier.decision_curve`'s grid).
    prevalence : float or None, default=None
        The prevalence of a case-control sample (None: the sample's).
    harm : float, dict or None, default=None
        Harm of each model, in units of net benefit.
    {{group_by}}

    Returns
    -------
    DecisionCurveResult or dict
        :func:`skbrier.decision_curve` of the rows.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> sbd.decision_curve(con, table="scores", thresholds=[0.3, 0.5]).net_benefit.round(4)
    array([0.3929, 0.5   ])
    """
    opts = {"thresholds": thresholds, "prevalence": prevalence, "harm": harm}
    return _run("decision_curve", data, table, y, p, weight, group_by, pos_label, **opts)


@_doc
def brier_inference(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    reference: str | float | None = None,
    table: str | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    """iid inference on the Brier score, skill score and Brier Index of a DuckDB table.

    The centred moments of the squared errors per label: DuckDB takes the
    means with window sums, then the centred cross-products, minima and
    maxima; finished as :func:`skbrier.brier_inference` with
    ``cov_type="iid"``.

    Parameters
    ----------
    {{inputs}}
    reference : str, float or None, default=None
        None: climatology; a float: a constant forecast; a column name:
        reference forecasts.
    {{group_by}}

    Returns
    -------
    BrierInferenceResult or dict
        Estimates, their covariance and ``confidence_interval()``.

    Examples
    --------
    >>> import duckdb
    >>> from skbrier.engines import duckdb as sbd
    >>> con = duckdb.connect()
    >>> _ = con.execute(
    ...     "CREATE TABLE scores AS SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.7, 'a'), "
    ...     "(1, 0.9, 'b'), (0, 0.4, 'b')) AS t(y, p, g)")
    >>> res = sbd.brier_inference(con, table="scores")
    >>> round(res.brier_score, 4), round(res.standard_error(), 4)
    (0.075, 0.0328)
    """
    opts = {"reference": reference}
    return _run("brier_inference", data, table, y, p, weight, group_by, pos_label, **opts)


def calibration_report(
    data: Any,
    y: str = "y",
    p: str = "p",
    weight: str | None = None,
    *,
    table: str | None = None,
    **kwargs: Any,
) -> Any:
    """:func:`skbrier.calibration_report` of a DuckDB table, reading only its columns.

    One query selects ``y``, ``p`` and ``weight`` (DuckDB reads no other
    column of the table or Parquet files), the columns come back as numpy
    arrays, and the in-memory report computes every section exactly.

    Parameters
    ----------
    data : duckdb.DuckDBPyRelation or duckdb.DuckDBPyConnection
        The rows: a relation, or a connection with ``table`` naming them.
    y, p, weight : str
        The outcome, probability and weight columns (see :func:`brier_score`).
    table : str or None, default=None
        With a connection: what follows ``FROM``, inserted as written.
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
    ...     "0.05 + 0.9 * (range % 97) / 96.0 AS p, 'unused' AS note FROM range(400)")
    >>> report = sbd.calibration_report(con, table="s", n_bins=5)
    >>> report.n_samples
    400
    """
    from ..report import calibration_report as report

    cols = _Source(data, table, y, p, weight, None).fetch(())
    return report(cols["y"], cols["p"], sample_weight=cols.get("w"), **kwargs)


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
        src = _RowsSource(self._keys, [dict(r) for r in rows])
        return _common.compute(src, self._planned.stat)

    def __repr__(self) -> str:
        return f"StatisticsQuery(sql={self.sql[:60]!r}...)"


class _RowsSource:
    """The rows of a :class:`StatisticsQuery` run elsewhere."""

    numeric_labels = False

    def __init__(self, keys: list[str], rows: list[dict]) -> None:
        self.keys = keys
        self.rows = rows

    def run(self, aggs: list, *, by_label: bool, bins: Any) -> list[dict]:
        return self.rows

    def fetch(self, key: tuple) -> dict[str, Any]:
        shown = f" of the group {self.keys}={key!r}" if self.keys else ""
        raise ValueError(
            f"the rows{shown} are not valid input: a probability outside [0, 1] or "
            "NaN, a NULL, a negative or infinite weight, or a non-finite label (the "
            "query's 'ok' column is 0); run the in-memory function on those rows for "
            "the first invalid one."
        )

    def note(self, key: tuple) -> str:
        return ""


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
    DuckDB, or IEEE) so that the ``ok`` column flags it.

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
    sql = _query(
        stat.aggs,
        _projection(columns, keys, table),
        keys,
        list(columns),
        by_label=True,
        bins=stat.bins,
    )
    return StatisticsQuery(sql, planned, keys)
