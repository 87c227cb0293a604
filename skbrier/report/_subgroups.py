"""The subgroup section of the calibration report (``groups=``, ``segments=``).

Every number comes from the public functions of the metrics:
:func:`skbrier.metrics.calibration_by_group` (per group n, events, O/E,
calibration in the large, slope, ICI and Brier with intervals, the
worst-group gap, Cochran's test of heterogeneity, Holm-adjusted p-values),
:func:`skbrier.metrics.cumulative_calibration` (the binning-free tests
overall and per group) and :func:`skbrier.metrics.multicalibration_error`
(several segmenting columns).  This module only calls them and renders their
results as text, JSON-ready data and HTML.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from . import _text
from ._json import jsonable

__all__ = ["SubgroupSection", "subgroup_section", "unavailable_note"]

#: the per-group measures shown with their interval: (key, label, digits)
MEASURES = (
    ("observed_expected", "O/E", 3),
    ("calibration_in_the_large", "CITL", 3),
    ("calibration_slope", "slope", 3),
    ("brier_score", "Brier", 4),
)
#: the per-group tests, Holm-adjusted across the groups: (key, label)
TESTS = (
    ("observed_expected", "O/E p"),
    ("calibration_slope", "slope p"),
    ("cumulative", "Kuiper p"),
)


#: the numbers of the JSON view taken as they are from the metrics' results
HETEROGENEITY = ("q", "q_pvalue", "i2", "tau2", "estimate")
CUMULATIVE = (
    *("ks", "kuiper", "sigma", "ks_statistic", "kuiper_statistic"),
    *("ks_pvalue", "kuiper_pvalue"),
)
MULTICALIBRATION = (
    *("mce_sigma", "pvalue", "mce", "mce_relative"),
    *("worst_segment", "n_segments", "max_depth"),
)


def _fields(result: Any, names: tuple[str, ...]) -> dict:
    return {k: getattr(result, k) for k in names}


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class SubgroupSection:
    """The results the subgroup section shows (see :func:`subgroup_section`).

    Attributes
    ----------
    by_group : GroupCalibrationResult
        :func:`skbrier.metrics.calibration_by_group` of the report's rows.
    cumulative : CumulativeCalibrationResult
        :func:`skbrier.metrics.cumulative_calibration`: the tests of the
        whole sample (``by_group.cumulative``, the one call that also gives
        each group's Kuiper test, ``by_group``'s ``pvalues["cumulative"]``).
    multicalibration : MulticalibrationResult or None
        :func:`skbrier.metrics.multicalibration_error` over ``segments``
        (None without them).
    """

    by_group: Any
    cumulative: Any
    multicalibration: Any = None

    def rows(self) -> list[dict]:
        """One dict per group: the numbers of the section's table."""
        res = self.by_group
        level = res.confidence_level
        cis = {m: res.confidence_interval(level, metric=m) for m, _, _ in MEASURES}
        out = []
        for j, g in enumerate(res.groups):
            row: dict[str, Any] = {
                "group": g.item() if isinstance(g, np.generic) else g,
                "n": int(res.n[j]),
                "weight": float(res.weight[j]),
                "events": float(res.events[j]),
            }
            for m, _, _ in MEASURES:
                lo, hi = cis[m]
                row[m] = {
                    "estimate": float(res.estimates[m][j]),
                    "ci_low": float(lo[j]),
                    "ci_high": float(hi[j]),
                }
            row["ici"] = float(res.estimates["ici"][j])
            row["gap"] = float(res.estimates["gap"][j])
            row["pvalues"] = {t: float(res.pvalues[t][j]) for t, _ in TESTS}
            row["pvalues_holm"] = {t: float(res.pvalues_holm[t][j]) for t, _ in TESTS}
            out.append(row)
        return out

    def to_dict(self) -> dict:
        """The section as JSON-ready data (NaN becomes None).

        ``groups``: :meth:`rows`; ``heterogeneity``: Cochran's ``q`` with its
        ``df`` and ``q_pvalue``, ``i2``, ``tau2`` and ``estimate`` (the
        pooled O/E) of the random-effects meta-analysis of the groups' log
        O/E; ``cumulative``: the whole sample's tests; ``multicalibration``:
        the multicalibration error, its p-value and worst segment."""
        res, cum, mce = self.by_group, self.cumulative, self.multicalibration
        het = res.heterogeneity
        return jsonable(
            {
                "confidence_level": res.confidence_level,
                "n_groups": len(res.groups),
                "groups": self.rows(),
                "worst_group": res.worst_group,
                "worst_group_gap": res.worst_group_gap,
                "heterogeneity": None
                if het is None
                else {"df": het.k - 1, **_fields(het, HETEROGENEITY)},
                "cumulative": _fields(cum, CUMULATIVE),
                "multicalibration": None if mce is None else _fields(mce, MULTICALIBRATION),
            }
        )

    # -- text ------------------------------------------------------------------
    def header(self) -> tuple[str, ...]:
        """Column titles of :meth:`table_rows`."""
        level = f"{100 * self.by_group.confidence_level:g}% CI"
        cols = ["group", "n", "events"]
        for _, label, _ in MEASURES:
            cols += [label, level]
        cols.append("ICI")
        cols += [f"{label} (Holm)" for _, label in TESTS]
        return tuple(cols)

    def table_rows(self) -> list[tuple[str, ...]]:
        """The per-group table as text cells (intervals in their own columns)."""
        out = []
        for row in self.rows():
            # n and events on one scale: the total weight (the rows unweighted)
            cells = [str(row["group"]), f"{row['weight']:g}", f"{row['events']:g}"]
            for m, _, digits in MEASURES:
                e = row[m]
                ci = (e["ci_low"], e["ci_high"])
                ok = all(math.isfinite(v) for v in ci)
                cells += [
                    _text.fmt(e["estimate"], digits),
                    _text.fmt_ci(ci, digits) if ok else "",
                ]
            cells.append(_text.fmt(row["ici"]) if math.isfinite(row["ici"]) else "n/a")
            cells += [_text.fmt_p(row["pvalues_holm"][t]) for t, _ in TESTS]
            out.append(tuple(cells))
        return out

    def findings(self) -> list[str]:
        """The section's conclusions, one sentence each."""
        res, cum, mce = self.by_group, self.cumulative, self.multicalibration
        level = res.confidence_level
        het = res.heterogeneity
        lines = [
            f"Worst group: {res.worst_group} (observed rate minus mean forecast "
            f"{_text.fmt(res.worst_group_gap)})."
        ]
        if het is None:
            lines.append("Heterogeneity of O/E: fewer than two groups give O/E.")
        else:
            lines.append(
                f"Heterogeneity of O/E across groups: Cochran's Q = {_text.fmt(het.q, 2)} "
                f"on {het.k - 1} df, {_text._p_eq(het.q_pvalue)}, "
                f"I2 = {_text.fmt(het.i2, 1)}%."
            )
        failing = [
            str(g)
            for g, p in zip(res.groups, np.fmin.reduce(list(res.pvalues_holm.values())))
            if p < 1 - level
        ]
        lines.append(
            f"Groups with a Holm-adjusted p below {1 - level:.4g} in any test: "
            + (", ".join(failing) if failing else "none")
            + "."
        )
        lines.append(
            "Cumulative calibration (binning-free), whole sample: "
            f"Kolmogorov-Smirnov {_text.fmt(cum.ks_statistic, 3)}, "
            f"{_text._p_eq(cum.ks_pvalue)}; Kuiper {_text.fmt(cum.kuiper_statistic, 3)}, "
            f"{_text._p_eq(cum.kuiper_pvalue)}."
        )
        if mce is not None:
            worst = ", ".join(f"{k} = {v}" for k, v in mce.worst_segment.items())
            lines.append(
                f"Multicalibration error over {mce.n_segments} segments: MCE "
                f"{_text.fmt(mce.mce_sigma, 3)} sigma, {_text._p_eq(mce.pvalue)} "
                f"(worst segment: {worst or 'the whole sample'})."
            )
        return lines

    def text(self) -> list[str]:
        """The section as lines of plain text."""
        title = (
            f"Subgroups ({len(self.by_group.groups)} groups; intervals at "
            f"{100 * self.by_group.confidence_level:g}%, p-values Holm-adjusted "
            "across the groups)"
        )
        header = self.header()
        rows = self.table_rows()
        widths = [max(len(r[j]) for r in [header, *rows]) for j in range(len(header))]
        lines = ["", title]
        for cells in (header, *rows):
            lines.append(
                "  ".join(
                    c.ljust(w) if j == 0 else c.rjust(w)
                    for j, (c, w) in enumerate(zip(cells, widths))
                ).rstrip()
            )
        lines += [f"  {s}" for s in self.findings()]
        lines.append(
            "  ICI: mean |lowess curve - forecast| (n/a with non-integer weights); "
            "Kuiper p: the group's cumulative calibration test."
        )
        return lines


def subgroup_section(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    groups: Any,
    segments: Any,
    confidence_level: float,
    notes: Any,
    order: np.ndarray | None = None,
    sorted_yp: tuple[np.ndarray, np.ndarray] | None = None,
) -> SubgroupSection | None:
    """The section of validated ``(y01, p, w)`` (None without ``groups`` and
    ``segments``); warnings become ``notes``.  With ``segments`` only, the
    first segmenting column is the grouping of the table.

    The rows are put in the ``order`` of the forecasts (the report's
    :func:`~skbrier._core.kernels.lowess.stable_argsort`) first: every
    function of the section sorts them (each group's lowess fit and C
    statistic, the cumulative curves), a sorted input sorts some thirty
    times faster, and their results do not depend on the order of the rows.
    ``sorted_yp``: ``(y[order], p[order])`` when the caller has them."""
    from .._core.format import format_number
    from .._core.kernels.calibration import enough_observations
    from .._core.kernels.lowess import stable_argsort
    from .._core.params import MIN_SAMPLES
    from .._core.validation import validated
    from ..metrics import calibration_by_group
    from ..metrics.cumulative import MIN_SEGMENT_SAMPLES, _multicalibration

    if groups is None and segments is None:
        return None
    given = (groups, segments)
    # too few observations: a note, as for every section of the report (the
    # columns are still checked: a wrong one is the user's error at any size)
    total = float(y.shape[0] if w is None else w.sum())
    if total < MIN_SEGMENT_SAMPLES:
        _check_as_given(*given, y.shape[0])
    if not enough_observations(total):
        notes.add(
            f"Subgroups not available: {format_number(total)} observation(s) (total "
            f"weight); at least {MIN_SAMPLES} are needed for calibration by group."
        )
        return None
    if segments is not None and total < MIN_SEGMENT_SAMPLES:
        notes.add(
            f"Subgroups: the multicalibration error not available: {format_number(total)} "
            f"observation(s) (total weight); at least {MIN_SEGMENT_SAMPLES:.4g} are "
            "needed to test a segment."
        )
        groups = _first_segment(segments) if groups is None else groups
        segments = None
    segments = _by_name(segments)  # each column one object, the groups' too
    if groups is None:
        groups = _first_segment(segments)
    if order is None:
        order = stable_argsort(p)
    n = y.shape[0]
    y, p = (y[order], p[order]) if sorted_yp is None else sorted_yp
    w = None if w is None else w[order]
    done: dict[int, Any] = {}  # a column given twice (groups and a segment) moves once
    groups, segments = _rows(groups, order, done), _rows(segments, order, done)
    try:
        coded = _coded_once(
            groups, segments, given[0] is not None, _moved_codes(done, order)
        )
        with notes.catching("Subgroups"), validated(y, p, w, groups=coded):
            by_group = calibration_by_group(
                y, p, groups=groups, sample_weight=w, confidence_level=confidence_level
            )
            # multicalibration_error with its defaults; a segmenting column that
            # is the groups takes the per-group cumulative tests already computed
            known = (groups, by_group.cumulative)
            multi = (
                None
                if segments is None
                else _multicalibration(y, p, w, segments, known=known)
            )
    except ValueError:
        _check_as_given(*given, n)  # the same error at the row as given
        raise
    return SubgroupSection(by_group, by_group.cumulative, multi)


def _check_as_given(groups: Any, segments: Any, n: int) -> None:
    """Check ``groups`` and ``segments`` in the rows' order as given (an error
    path: the section checks them in the order of the forecasts, whose
    positions would mean nothing to the user)."""
    from .._core.labels import check_groups
    from ..metrics.cumulative import _segment_columns

    if groups is not None:
        check_groups(groups, n)
    if segments is not None:
        _segment_columns(segments, n)


def _rows(column: Any, order: np.ndarray, done: dict[int, Any]) -> Any:
    """``groups`` or ``segments`` in the rows' ``order`` (as given when its
    length differs: the metric's own error names it); ``done`` maps the ids
    of the columns already moved to their moved copies."""
    if column is None:
        return None
    if isinstance(column, dict):
        return {k: _rows(v, order, done) for k, v in column.items()}
    if id(column) in done:
        return done[id(column)][1]
    if hasattr(column, "iloc"):  # a pandas DataFrame or Series
        out = column.iloc[order] if len(column) == order.shape[0] else column
    else:
        arr = np.asarray(column)
        out = arr[order] if arr.ndim and arr.shape[0] == order.shape[0] else column
    done[id(column)] = (column, out)  # the column too: its id stays its own
    return out


def _moved_codes(done: dict[int, Any], order: np.ndarray) -> list:
    """``(moved, classes, codes)`` of each moved column that the caller coded
    (:func:`~skbrier._core.arrays.validated`, ``groups=``: the command line
    codes each ``--subgroup-col`` once for all its reports), its codes in
    the rows' ``order``; the columns the caller did not code are checked as usual."""
    from .._core.arrays import coded_groups

    out = []
    for column, moved in done.values():
        hit = coded_groups(column, order.shape[0]) if moved is not column else None
        if hit is not None:
            out.append((moved, hit[0], hit[1][order]))
    return out


def _coded_once(groups: Any, segments: Any, explicit: bool, coded: list) -> list:
    """``coded`` and, when the groups are also a segmenting column (the very
    array: given twice, or the first segment taken as the groups), its codes:
    the column is checked once, under the name it was given by."""
    from .._core.labels import check_groups

    if groups is None or any(groups is c[0] for c in coded):
        return coded
    named = (
        [(f"segments[{str(k)!r}]", v) for k, v in segments.items()]
        if isinstance(segments, dict)
        else [("segments['x0']", segments)]
    )
    for name, column in named:
        if column is groups:
            label = "groups" if explicit else name
            return [*coded, (groups, *check_groups(groups, len(groups), name=label))]
    return coded


def _by_name(segments: Any) -> Any:
    """Segmenting columns given as a DataFrame, a Series or a 2-D array as
    ``{name: column}`` (the names :func:`~skbrier.metrics.multicalibration_error`
    gives them), so that the first is one object, also as the groups; other
    forms as given (the metric's own checks name what is wrong)."""
    if hasattr(segments, "columns") and hasattr(segments, "iloc"):  # a DataFrame
        return {str(c): segments.iloc[:, j] for j, c in enumerate(segments.columns)}
    if hasattr(segments, "iloc") and getattr(segments, "ndim", 0) == 1:  # a Series
        name = getattr(segments, "name", None)
        return {"x0" if name is None else str(name): segments}
    if isinstance(segments, np.ndarray) and segments.ndim == 2:
        return {f"x{j}": segments[:, j] for j in range(segments.shape[1])}
    return segments


def _first_segment(segments: Any) -> Any:
    """The first segmenting column of a DataFrame, a dict or a 2-D array."""
    if hasattr(segments, "columns") and hasattr(segments, "iloc"):
        segments = _by_name(segments)
    if isinstance(segments, dict):
        for column in segments.values():
            return column
        raise ValueError("segments has no column: give at least one segmenting column.")
    arr = np.asarray(segments)
    if arr.ndim not in (1, 2) or arr.shape[1:] == (0,):
        from ..metrics.cumulative import _segment_columns

        _segment_columns(arr, arr.shape[0] if arr.ndim else 0)  # its error (the shape)
    return arr if arr.ndim == 1 else arr[:, 0]


def unavailable_note(where: str, advice: str = "(--engine memory)") -> str:
    """The note of a report whose input cannot have the subgroup section
    (``advice``: how to compute the report on the rows in memory)."""
    return (
        f"Subgroups: not computed for {where}: the per-group logistic fits, the "
        "lowess ICI and the cumulative tests need each group's rows in memory "
        "(sorted by forecast), which no mergeable state holds; compute the report "
        f"on the rows in memory {advice} for this section."
    )
