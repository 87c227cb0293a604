"""Plain-text rendering of calibration reports (one report, or several side by side)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.format import format_number
from .._core.results import Result

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = [
    "calibration_checks",
    "comparison_text",
    "pair_verdict",
    "report_verdict",
    "fmt",
    "fmt_ci",
    "fmt_p",
    "reports_table",
    "summary_header",
    "summary_rows",
    "summary_text",
]

# fields of the decomposition results shown in the report, with short labels
DECOMPOSITION_TERMS = {
    "corp": {
        "miscalibration": "MCB",
        "discrimination": "DSC",
        "uncertainty": "UNC",
        "miscalibration_pvalue": "MCB p",
    },
    "murphy": {
        "reliability": "REL",
        "resolution": "RES",
        "uncertainty": "UNC",
        "within_bin_variance": "WBV",
        "within_bin_covariance": "WBC",
    },
}


def fmt(v: Any, digits: int = 4) -> str:
    """A number with ``digits`` decimals (from 1e6 on, 4 significant digits);
    ``n/a`` for None or NaN (undefined)."""
    if v is None:
        return "n/a"
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return str(int(v))
    v = float(v)
    if math.isnan(v):
        return "n/a"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if abs(v) >= 1e6:  # (weights x1e200) 4 significant digits, not every one
        return format_number(v)
    return f"{v:.{digits}f}"


def fmt_p(v: float | None) -> str:
    """A p-value (``< 0.0001`` below that)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return "< 0.0001" if v < 1e-4 else f"{v:.4f}"


def _p_eq(v: float | None) -> str:
    t = fmt_p(v)
    return f"p {t}" if t.startswith("<") else f"p = {t}"


def interval_kind(rep: Any) -> tuple[str, str]:
    """How a report's intervals are made, ``("95%", "iid")``: its confidence
    level and ``cov_type`` (the label of its intervals in multi-report tables)."""
    return f"{100 * rep.confidence_level:g}%", str(rep.cov_type)


def shared_interval_kind(reports: Any) -> tuple[str, str] | None:
    """The :func:`interval_kind` of every report when they share one, else
    None (each interval is then labelled with its own)."""
    kinds = {interval_kind(r) for r in reports.values()}
    return kinds.pop() if len(kinds) == 1 else None


def fmt_ci(ci: tuple | None, digits: int = 4) -> str:
    """``[low, high]`` or the empty string."""
    if ci is None:
        return ""
    return f"[{fmt(ci[0], digits)}, {fmt(ci[1], digits)}]"


def _ci(rep: CalibrationReport, metric: str, digits: int = 4) -> str:
    return fmt_ci(rep.confidence_interval(rep.confidence_level, metric=metric), digits)


Row = tuple[str, ...]


def summary_header(rep: CalibrationReport) -> tuple[str, ...]:
    """Column titles of :func:`summary_rows`: the statistic, its estimate, its
    interval (intervals only), the interval's method, and a test (statistic
    and p-value) where there is one."""
    return ("", "estimate", f"{100 * rep.confidence_level:g}% CI", "CI method", "test")


def _section(title: str) -> Row:
    return (title, "", "", "", "")


def _row(
    rep: CalibrationReport,
    label: str,
    value: str,
    metric: str | None = None,
    digits: int = 4,
    test: str = "",
) -> Row:
    if metric is None:
        return (label, value, "", "", test)
    ci = _ci(rep, metric, digits)
    method = (rep.interval_methods.get(metric) or "") if ci else ""
    return (label, value, ci, method, test)


def _overall_rows(rep: CalibrationReport) -> list[Row]:
    return [
        _section("Overall"),
        _row(rep, "  Brier score (0 = perfect)", fmt(rep.brier_score), "brier_score"),
        _row(
            rep, "  Brier Index (100 = perfect)", fmt(rep.brier_index, 2), "brier_index", 2
        ),
        _row(
            rep,
            "  Brier skill score vs base rate",
            fmt(rep.brier_skill_score),
            "brier_skill_score",
        ),
    ]


def _calibration_rows(rep: CalibrationReport) -> list[Row]:
    lg = rep.logistic
    rows = [
        _section("Calibration"),
        _row(
            rep,
            "  O/E ratio, observed / expected events (1)",
            fmt(rep.observed_expected),
            "observed_expected",
        ),
        _row(
            rep,
            "  Calibration in the large, log-odds (0)",
            fmt(rep.calibration_in_the_large),
            "calibration_in_the_large",
        ),
        _row(
            rep,
            "  Calibration intercept, log-odds (0)",
            fmt(rep.calibration_intercept),
            "calibration_intercept",
        ),
        _row(
            rep, "  Calibration slope (1)", fmt(rep.calibration_slope), "calibration_slope"
        ),
        _row(
            rep,
            "  Spiegelhalter z (0)",
            fmt(rep.spiegelhalter_z, 3),
            test=_p_eq(rep.spiegelhalter_p),
        ),
    ]
    if lg is not None:
        df = rep.unreliability_df if rep.unreliability_df is not None else 2
        rows.append(
            _row(
                rep,
                "  Unreliability U (0)",
                fmt(lg.unreliability_index),
                test=f"chi2({df}) = {fmt(lg.unreliability_chi2, 2)}, "
                + _p_eq(lg.unreliability_pvalue),
            )
        )
    if rep.emax is not None:
        rows.append(_row(rep, "  Emax, lowess (0)", fmt(rep.emax)))
        rows.append(_row(rep, "  E90, lowess (0)", fmt(rep.e90)))
        rows.append(_row(rep, "  Eavg, lowess (ICI) (0)", fmt(rep.eavg)))
    rows.append(
        _row(rep, f"  ECE, {rep.ece_n_bins} {rep.ece_strategy} bins (0)", fmt(rep.ece))
    )
    rows.append(_section("Discrimination"))
    rows.append(_row(rep, "  C statistic (AUC)", fmt(rep.c_statistic), "c_statistic"))
    rows.append(_row(rep, "  Somers' Dxy", fmt(rep.dxy)))
    if lg is not None:
        rows.append(
            _row(
                rep,
                "  Discrimination index D",
                fmt(lg.discrimination_index),
                test=f"chi2(1) = {fmt(lg.lr_chi2, 2)}, " + _p_eq(rep.discrimination_pvalue),
            )
        )
        rows.append(_row(rep, "  Quality index Q = D - U", fmt(lg.quality_index)))
        rows.append(_row(rep, "  Nagelkerke R2", fmt(lg.r2)))
    return rows


def _decomposition_rows(rep: CalibrationReport) -> list[Row]:
    titles = {
        "corp": "Decomposition (CORP, isotonic)",
        "murphy": f"Decomposition (binned, {rep.ece_n_bins} {rep.ece_strategy} bins)",
    }
    rows: list[Row] = []
    for key, terms in (rep.decomposition or {}).items():
        if not terms:
            continue
        rows.append(_section(titles.get(key, f"Decomposition ({key})")))
        short = DECOMPOSITION_TERMS.get(key, {})
        for k, v in terms.items():
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                continue
            if k.endswith("pvalue"):
                continue  # shown as the test of its statistic
            label = k.replace("_", " ").capitalize()
            if k in short:
                label = f"{label} ({short[k]})"
            test = ""
            pv = terms.get(f"{k}_pvalue")
            if isinstance(pv, (int, float)) and not isinstance(pv, bool):
                test = _p_eq(pv)
            rows.append(_row(rep, f"  {label}", fmt(v), test=test))
    return rows


def summary_rows(rep: CalibrationReport) -> list[tuple[str, ...]]:
    """Rows of the summary table, each as long as :func:`summary_header`.

    A section row has only its first cell non-empty.  The interval column
    holds intervals only; the method column names each interval's method;
    test statistics and p-values have their own column.
    """
    return _overall_rows(rep) + _calibration_rows(rep) + _decomposition_rows(rep)


def _net_benefit_lines(rep: CalibrationReport) -> list[str]:
    lines = [
        "",
        "Net benefit (per patient; treat none = 0)",
        (
            f"{'  threshold':<14}{'model':>10}{'treat all':>12}{'standardized':>14}"
            f"{'avoided/100':>13}"
        ),
    ]
    for r in rep.net_benefit or []:
        lines.append(
            f"{'  ' + format(r['threshold'], 'g'):<14}{fmt(r['model']):>10}"
            f"{fmt(r['treat_all']):>12}{fmt(r['standardized'], 3):>14}"
            f"{fmt(r['interventions_avoided_per_100'], 1):>13}"
        )
    lines.append(
        "  standardized = NB / prevalence; avoided/100 = net interventions "
        "avoided per 100 vs treat all"
    )
    return lines


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    """Left-aligned label and method/test columns, right-aligned numbers."""
    widths = [max(len(r[j]) for r in [header, *rows]) for j in range(len(header))]
    right = {1}

    def line(cells: tuple[str, ...]) -> str:
        if not any(cells[1:]):
            return cells[0]
        parts = [
            c.rjust(widths[j]) if j in right else c.ljust(widths[j])
            for j, c in enumerate(cells)
        ]
        return "  ".join(parts).rstrip()

    out = [line(header), "-" * (sum(widths) + 2 * (len(widths) - 1))]
    out.extend(line(r) for r in rows)
    return out


def summary_text(rep: CalibrationReport) -> str:
    """The plain-text audit of one report."""
    head = (
        f"Calibration report: {rep.name or 'forecast'}\n"
        f"n = {rep.n_samples}, events = {rep.n_events:g}, "
        f"prevalence = {fmt(rep.prevalence)}, mean forecast = {fmt(rep.mean_forecast)}"
    )
    lines = [head, ""]
    lines.extend(_table(summary_header(rep), summary_rows(rep)))
    if rep.cov_type == "bootstrap" and rep.n_resamples:
        lines.append(f"Bootstrap: {rep.n_resamples} resamples.")
    if rep.net_benefit:
        lines.extend(_net_benefit_lines(rep))
    if rep.subgroups is not None:
        lines.extend(rep.subgroups.text())
    if rep.notes:
        lines.append("")
        lines.extend(f"Note: {n}" for n in rep.notes)
    return "\n".join(lines)


TABLE_COLUMNS = [
    ("n", lambda r: str(r.n_samples)),
    ("prev", lambda r: fmt(r.prevalence, 3)),
    ("Brier", lambda r: fmt(r.brier_score)),
    ("BI", lambda r: fmt(r.brier_index, 1)),
    ("BSS", lambda r: fmt(r.brier_skill_score, 3)),
    ("O/E", lambda r: fmt(r.observed_expected, 3)),
    ("CITL", lambda r: fmt(r.calibration_in_the_large, 3)),
    ("intercept", lambda r: fmt(r.calibration_intercept, 3)),
    ("slope", lambda r: fmt(r.calibration_slope, 3)),
    ("S:z", lambda r: fmt(r.spiegelhalter_z, 2)),
    ("S:p", lambda r: fmt_p(r.spiegelhalter_p)),
    ("Eavg", lambda r: fmt(r.eavg, 4)),
    ("ECE", lambda r: fmt(r.ece, 4)),
    ("C", lambda r: fmt(r.c_statistic, 3)),
]


def check_reports(reports: Any, name: str = "reports") -> dict:
    """``reports`` as a non-empty dict of str to CalibrationReport (or a clear
    error naming the parameter ``name``).

    The type is recognised by name (``_result`` imports the renderers, so the
    renderers do not import it back).
    """
    if not isinstance(reports, Mapping):
        hint = ""
        if isinstance(reports, (list, tuple)):
            hint = " (name them: {r.name: r for r in reports})"
        raise TypeError(
            f"{name} must be a mapping of names to CalibrationReport, got "
            f"{type(reports).__name__}{hint}."
        )
    if not reports:
        raise ValueError(f"{name} is empty.")
    for k, v in reports.items():
        if not (isinstance(v, Result) and type(v).__name__ == "CalibrationReport"):
            raise TypeError(
                f"{name}[{k!r}] must be a CalibrationReport, got {type(v).__name__}."
            )
    return {str(k): v for k, v in reports.items()}


def reports_table(reports: Mapping[str, CalibrationReport]) -> str:
    """One row per report (forecaster or group): the headline numbers side by side.

    Parameters
    ----------
    reports : mapping of str to CalibrationReport
        Reports by name, in display order.

    Returns
    -------
    str
        A plain-text table; Brier Index intervals follow when available.

    Examples
    --------
    >>> from skbrier.report import calibration_report, reports_table
    >>> from skbrier.datasets import load_forecasts
    >>> d = load_forecasts()
    >>> reps = {m: calibration_report(d["y"], d[m], name=m) for m in ("model_a", "model_b")}
    >>> print(reports_table(reps))  # doctest: +ELLIPSIS
    group ...
    model_a ...
    model_b ...
    """
    reports = check_reports(reports)
    names = list(reports)
    cells = [[f(r) for _, f in TABLE_COLUMNS] for r in reports.values()]
    wname = max(5, max(len(n) for n in names)) + 2
    widths = [
        max(len(h), max(len(row[j]) for row in cells)) + 2
        for j, (h, _) in enumerate(TABLE_COLUMNS)
    ]
    head = "".join(h.rjust(w) for (h, _), w in zip(TABLE_COLUMNS, widths))
    lines = ["group".ljust(wname) + head]
    for n, row in zip(names, cells):
        lines.append(n.ljust(wname) + "".join(c.rjust(w) for c, w in zip(row, widths)))
    ci_lines = []
    with_ci = {}
    for n, r in reports.items():
        ci = r.confidence_interval(r.confidence_level, metric="brier_index")
        if ci is not None:
            with_ci[n] = r
            ci_lines.append(f"  {n}: Brier Index {fmt(r.brier_index, 2)} {fmt_ci(ci, 2)}")
    if ci_lines:
        lines.append("")
        shared = shared_interval_kind(with_ci)
        if shared is not None:  # one level and one kind: said once
            lines.append(f"{shared[0]} confidence intervals ({shared[1]}):")
        else:  # each report's own level and kind
            lines.append("Confidence intervals:")
            ci_lines = [
                "{} ({}, {})".format(line, *interval_kind(r))
                for line, r in zip(ci_lines, with_ci.values())
            ]
        lines.extend(ci_lines)
    lines.append("")
    lines.append(
        "CITL: calibration in the large (ideal 0); intercept/slope: logistic "
        "recalibration (ideal 0/1); S:z, S:p: Spiegelhalter test; BI: Brier Index."
    )
    return "\n".join(lines)


def pair_verdict(pc: Any) -> str:
    """The paired comparison of two reports (:class:`._compare.PairComparison`)
    in words."""
    a, b = pc.first, pc.second
    if pc.difference == 0:
        return f"{a} and {b} have the same Brier score."
    best, worst = (a, b) if pc.difference < 0 else (b, a)
    strength = (
        "the difference is statistically significant"
        if pc.pvalue < 1 - pc.confidence_level
        else "the difference could be due to chance"
    )
    return (
        f"{best} has the lower (better) Brier score than {worst} "
        f"(Brier Index {abs(pc.brier_index_difference):.2f} points higher); "
        f"{strength} ({_p_eq(pc.pvalue)})."
    )


def _check(
    rep: CalibrationReport, metric: str, value: float | None, ideal: float, digits: int
) -> tuple[str, bool | None]:
    """``("name value [low, high]", whether the interval excludes the ideal)``;
    None for the second item when there is no interval."""
    ci = rep.confidence_interval(rep.confidence_level, metric=metric)
    text = fmt(value, digits) + (f" {fmt_ci(ci, digits)}" if ci is not None else "")
    if ci is None or value is None or not all(map(math.isfinite, ci)):
        return text, None
    return text, not (ci[0] <= ideal <= ci[1])


def calibration_checks(rep: CalibrationReport) -> tuple[list[str], list[str]]:
    """``(problems, checked)``: the calibration checks of one report that fail,
    in words, and every check that could be made, with its numbers.

    Three checks at the report's confidence level, each on its own: the
    interval of the observed/expected ratio excludes 1 (the model over- or
    under-forecasts risk on average), the interval of the calibration slope
    excludes 1 (forecasts too extreme or too moderate), Spiegelhalter's test
    rejects.  A check without an interval (or p-value) is left out.
    """
    oe_text, oe_off = _check(rep, "observed_expected", rep.observed_expected, 1.0, 3)
    slope = rep.calibration_slope
    slope_text, slope_off = _check(rep, "calibration_slope", slope, 1.0, 3)
    p = rep.spiegelhalter_p
    s_off = None if p is None or math.isnan(p) else p < 1 - rep.confidence_level
    problems = []
    if oe_off:
        side = "under" if (rep.observed_expected or 0) > 1 else "over"
        problems.append(f"O/E {oe_text}: the model {side}-forecasts risk on average")
    if slope_off:
        how = "too extreme" if (slope or 0) < 1 else "too moderate"
        problems.append(f"slope {slope_text}: forecasts {how}")
    if s_off:
        problems.append(f"Spiegelhalter test {_p_eq(p)}")
    checked = [
        t
        for t, off in (
            (f"O/E {oe_text}", oe_off),
            (f"slope {slope_text}", slope_off),
            (f"Spiegelhalter {_p_eq(p)}", s_off),
        )
        if off is not None
    ]
    return problems, checked


def report_verdict(rep: CalibrationReport, name: str | None = None) -> str:
    """One report in words: accuracy, calibration, discrimination.

    The Brier score and Brier Index (with its interval), the calibration
    checks of :func:`calibration_checks` (the failed ones, or all of them
    when none fails) and the C statistic with its interval.

    Parameters
    ----------
    rep : CalibrationReport
        The report.
    name : str, optional
        The label of the model (default: the report's name, or "forecast").

    Returns
    -------
    str
        One paragraph, starting with ``"name: "``.

    Examples
    --------
    >>> from skbrier.report import calibration_report
    >>> from skbrier.datasets import load_forecasts
    >>> d = load_forecasts()
    >>> print(report_verdict(calibration_report(d["y"], d["model_a"], name="a")))
    a: Brier score 0.1427 (Brier Index 62.22, 95% CI [60.91, 63.54]).
    Calibration: no evidence of miscalibration at the 95% level (O/E 1.047
    [0.961, 1.140], slope 0.983 [0.849, 1.117], Spiegelhalter p = 0.2864).
    Discrimination: C = 0.736 [0.710, 0.763].
    """
    level = f"{100 * rep.confidence_level:g}%"
    bi_ci = rep.confidence_interval(rep.confidence_level, metric="brier_index")
    accuracy = f"Brier Index {fmt(rep.brier_index, 2)}"
    if bi_ci is not None:
        accuracy += f", {level} CI {fmt_ci(bi_ci, 2)}"
    problems, checked = calibration_checks(rep)
    if problems:
        calibration = (
            f"evidence of miscalibration at the {level} level ({'; '.join(problems)})."
        )
    elif checked:
        calibration = (
            f"no evidence of miscalibration at the {level} level ({', '.join(checked)})."
        )
    else:
        calibration = "not assessed (no interval or test could be computed)."
    c_text, _ = _check(rep, "c_statistic", rep.c_statistic, 0.5, 3)
    return (
        f"{name or rep.name or 'forecast'}: Brier score {fmt(rep.brier_score)} ({accuracy}). "
        f"Calibration: {calibration} Discrimination: C = {c_text}."
    )


def comparison_text(reports: Mapping[str, CalibrationReport]) -> str:
    """The paired comparison of several reports as plain text, or why there is
    none; the empty string for a single report (see :mod:`._compare`)."""
    from ._compare import paired_comparison

    comp = paired_comparison(check_reports(reports))
    if comp is None:
        return ""
    if not comp.pairs:
        return f"Paired comparison\n{comp.reason}"
    level = f"{100 * comp.confidence_level:g}% CI"
    head = ("pair", "Brier diff", level, "BI diff", level, "p", "variance")
    rows = [
        (
            f"{pc.first} - {pc.second}",
            fmt(pc.difference),
            fmt_ci(pc.ci),
            fmt(pc.brier_index_difference, 2),
            fmt_ci(pc.brier_index_ci, 2),
            fmt_p(pc.pvalue),
            pc.cov_type,
        )
        for pc in comp.pairs
    ]
    widths = [max(len(r[j]) for r in [head, *rows]) for j in range(len(head))]

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(
            c.ljust(w) if j in (0, 6) else c.rjust(w)
            for j, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    lines = [
        "Paired comparison (difference = first minus second; Diebold-Mariano test "
        "of equal expected Brier scores)",
        line(head),
        *(line(r) for r in rows),
        *(f"  {pair_verdict(pc)}" for pc in comp.pairs),
    ]
    if comp.reason:
        lines.append(f"  {comp.reason}")
    if comp.net_benefit:
        pairs = [(pc.first, pc.second) for pc in comp.pairs]
        names = [f"{a} - {b}" for a, b in pairs]
        w = [max(10, len(n)) for n in names]
        lines.append("Net benefit differences (positive: the first model is better)")
        lines.append("  threshold" + "".join(f"  {n:>{k}}" for n, k in zip(names, w)))
        for t, diffs in comp.net_benefit.items():
            cells = "".join(
                f"  {(fmt(diffs[pr]) if pr in diffs else ''):>{k}}"
                for pr, k in zip(pairs, w)
            )
            lines.append(f"  {t:<9g}{cells}")
    return "\n".join(lines)
