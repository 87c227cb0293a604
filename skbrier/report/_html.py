"""Self-contained HTML rendering of calibration reports.

One file, no network: figures are inline SVG (text drawn as paths), the
style sheet is inline, there is no script and no external URL.  The page
reads first where it matters: title, the verdict in words, an overview table,
the figures with every model (one reliability diagram, one decision curve),
the paired comparison of the models scored on the same rows (or why there is
none), one section per model, and last the provenance, collapsed in a
``<details>``; each section after the verdict opens with a short "how to
read this" paragraph.

It reads on a 390 px phone: every table sits in a container that scrolls
sideways (the page itself never does), interval cells do not wrap, and the
figures scale to the width with their text no smaller than
:data:`._figures.MIN_FONT_PT` points on a figure at most
:data:`._figures.FIG_WIDTH_IN` inches wide (tests/test_report_browser.py
measures all of it in headless Chromium).
"""

from __future__ import annotations

import datetime
import html
import re
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core.optional import missing_message
from . import _figures, _io, _text
from ._compare import paired_comparison, row_sets

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = ["report_section_html", "reports_to_html"]

_CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  margin: 2em auto; max-width: 70em; padding: 0 1.5em; color: #222; line-height: 1.45;
  overflow-wrap: break-word; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 2px solid #ddd; padding-bottom: 0.2em;
  margin-top: 1.8em; }
h3 { font-size: 1.05em; margin-bottom: 0.3em; }
.scroll { overflow-x: auto; margin: 0.5em 0 1.2em 0; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.92em; }
td, th { padding: 0.25em 0.6em; border-bottom: 1px solid #e2e2e2; text-align: right;
  vertical-align: top; }
th { background: #f4f4f4; font-weight: 600; }
td:first-child, th:first-child { text-align: left; }
.ci, .num, .pair { white-space: nowrap; }
table.wide td:first-child, table.wide th:first-child { position: sticky; left: 0;
  background: #fff; }
table.wide th:first-child { background: #f4f4f4; }
tr.section td { font-weight: 600; background: #f8f8f8; }
table.kv th { text-align: left; background: none; font-weight: 600; }
table.kv td { text-align: left; overflow-wrap: anywhere; }
.read { background: #f3f7fb; border-left: 4px solid #7aa7d6; padding: 0.5em 0.9em;
  margin: 0.6em 0 1em 0; font-size: 0.93em; }
.notes { color: #555; font-size: 0.9em; }
.verdict { font-weight: 600; }
#verdict ul { padding-left: 1.2em; }
#verdict li { margin-bottom: 0.4em; }
details > summary { cursor: pointer; }
details > summary h2 { display: inline; border: none; }
#provenance { border-top: 2px solid #ddd; margin-top: 1.8em; padding-top: 0.6em; }
.figures { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
figure { margin: 0; flex: 1 1 24em; min-width: 0; max-width: 36em; }
figure svg { display: block; width: 100%; height: auto; }
figcaption { font-size: 0.88em; color: #555; }
code { font-size: 0.9em; }
@media (max-width: 40em) {
  body { margin: 1em auto; padding: 0 0.75em; }
  h1 { font-size: 1.4em; }
  td, th { padding: 0.25em 0.5em; }
}
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  h2 { break-after: avoid; }
  section, figure, table { break-inside: avoid; }
  .scroll { overflow: visible; }
  .read { background: none; border-left: 2px solid #888; }
}
"""

_READ = {
    "provenance": (
        "Where the numbers come from: the input, how many rows were used, the "
        "options and the software versions. Keep it with the report so the "
        "results can be reproduced."
    ),
    "overview": (
        "One row per model. Lower Brier score is better (0 is perfect); the "
        "Brier Index (BI) is the same on a 0-100 scale where higher is better. "
        "A well-calibrated model has calibration in the large (CITL) and "
        "intercept near 0 and slope near 1. C is the area under the ROC "
        "curve: how well the model ranks events above non-events (0.5 is "
        "chance, 1 is perfect)."
    ),
    "reliability": (
        "Calibration curve: for each forecast probability (x), the event "
        "rate actually observed (y), estimated by a smooth (loess) curve with "
        "its 95% band, and the observed rate in each tenth of the forecasts "
        "(points, with their intervals). A well-calibrated model lies on the "
        "dashed diagonal. Above the diagonal the model under-forecasts risk; "
        "below it over-forecasts; a band that leaves the diagonal is evidence "
        "of miscalibration. The spikes at the bottom show the forecasts of "
        "events (up) and non-events (down) at each probability."
    ),
    "decision_curve": (
        "Decision curve: the net benefit of acting on the model at each "
        "threshold probability (the risk above which one would treat), "
        "against treating everyone and treating no one. Higher is better; "
        "a model is useful at the thresholds where its curve lies above both "
        "default strategies. A curve below zero means acting on the model "
        "does more harm than good at that threshold."
    ),
    "comparison": (
        "The models are scored on the same cases, so their Brier scores can "
        "be compared pair by pair. A negative difference means the first "
        "model is better. If the confidence interval excludes 0 (and p is "
        "small) the difference is unlikely to be due to chance. Net benefit "
        "differences are given at the chosen decision thresholds."
    ),
    "model": (
        "All statistics of one model with confidence intervals. Calibration "
        "rows say whether predicted risks match observed rates; "
        "discrimination rows whether the model separates events from "
        "non-events; the decomposition splits the Brier score into "
        "miscalibration (MCB, lower is better), discrimination (DSC, higher "
        "is better) and the uncertainty of the outcome (UNC)."
    ),
    "subgroups": (
        "One row per group. A group is well calibrated when its O/E interval "
        "contains 1, calibration in the large (CITL) is near 0 and the slope near "
        "1; the p-values test these (O/E = 1, slope = 1) and the group's "
        "cumulative calibration (Kuiper, no bins), each adjusted for the number "
        "of groups (Holm). Cochran's Q tests whether O/E differs between groups."
    ),
    "net_benefit": (
        "Net benefit at each threshold, in true positives per patient net of "
        "false positives weighted by the threshold odds; 'interventions "
        "avoided per 100' compares the model with treating everyone."
    ),
}

_PROVENANCE_ORDER = (
    "input",
    "sha256",
    "rows_read",
    "rows_used",
    "rows_dropped",
    "rows_dropped_why",
    "rows_compared",
    "columns",
    "options",
    "command",
    "date",
    "versions",
)


def _e(value: Any) -> str:
    return html.escape(str(value))


def _read(key: str) -> str:
    return f'<p class="read"><b>How to read this.</b> {_e(_READ[key])}</p>'


def _table(rows: list[str], cls: str | None = None) -> list[str]:
    """``rows`` (``<tr>`` markup) as a table in a container that scrolls
    sideways on a narrow screen (the page itself never does)."""
    attr = f' class="{cls}"' if cls else ""
    return [f'<div class="scroll"><table{attr}>', *rows, "</table></div>"]


def _td(text: str, cls: str | None = None) -> str:
    return f'<td class="{cls}">{_e(text)}</td>' if cls else f"<td>{_e(text)}</td>"


def _prose(text: str) -> str:
    """Escaped ``text`` whose intervals ``[a, b]`` do not break across lines."""
    return re.sub(r"(\[[^\]\s]+),\s([^\]\s]+\])", r"\1,&nbsp;\2", _e(text))


def _value_html(value: Any) -> str:
    """A provenance value: mappings as ``key: value`` lines, lists joined."""
    if value is None:
        return "&mdash;"
    if isinstance(value, Mapping):
        if not value:
            return "&mdash;"
        return "<br>".join(f"{_e(k)}: {_value_html(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_value_html(v) for v in value)
    if isinstance(value, float):
        return _e(f"{value:g}")
    return _e(value)


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for dist in ("skbrier", "scikit-learn", "numpy", "scipy", "matplotlib"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            if dist == "skbrier":
                from .._version import __version__

                out[dist] = __version__
            else:
                out[dist] = "not installed"
    return out


def _provenance_html(provenance: Mapping[str, Any] | None) -> list[str]:
    """The provenance, last on the page and collapsed (a click opens it)."""
    info = dict(provenance or {})
    # the day only: two renderings of the same reports are the same page
    info.setdefault("date", datetime.date.today().isoformat())
    info.setdefault("versions", _versions())
    keys = [k for k in _PROVENANCE_ORDER if k in info]
    keys += [k for k in info if k not in _PROVENANCE_ORDER]
    rows = [
        f"<tr><th>{_e(k.replace('_', ' '))}</th><td>{_value_html(info[k])}</td></tr>"
        for k in keys
    ]
    return [
        '<section id="provenance"><details><summary><h2>Provenance</h2> '
        '<span class="notes">input, rows, options, versions</span></summary>',
        _read("provenance"),
        *_table(rows, "kv"),
        "</details></section>",
    ]


#: above this many reports the verdict names only the miscalibrated ones
VERDICT_MAX_MODELS = 6


def _verdict_html(reports: Mapping[str, CalibrationReport]) -> list[str]:
    """The answer first: the paired verdicts (or why there are none), then
    each model in one paragraph (:func:`._text.report_verdict`); above
    :data:`VERDICT_MAX_MODELS` reports (groups), only those whose calibration
    checks fail, after a count."""
    parts = ['<section id="verdict"><h2>Verdict</h2>', "<ul>"]
    comp = paired_comparison(reports)
    if comp is not None:
        parts += [
            f'<li class="verdict">{_prose(_text.pair_verdict(pc))}</li>'
            for pc in comp.pairs
        ]
        if comp.reason:
            parts.append(f'<li class="notes why-not">{_e(comp.reason)}</li>')
    shown = dict(reports)
    if len(reports) > VERDICT_MAX_MODELS:
        shown = {n: r for n, r in reports.items() if _text.calibration_checks(r)[0]}
        shared = _text.shared_interval_kind(reports)
        level = (
            "the confidence level of each report"
            if shared is None
            else f"the {shared[0]} level"
        )
        where = "the overview and the sections below have every report's numbers"
        parts.append(
            f"<li>{len(shown)} of {len(reports)} reports show evidence of "
            f"miscalibration at {_e(level)}; they follow ({where}).</li>"
            if shown
            else f"<li>None of the {len(reports)} reports shows evidence of "
            f"miscalibration at {_e(level)} ({where}).</li>"
        )
    parts += [f"<li>{_prose(_text.report_verdict(r, n))}</li>" for n, r in shown.items()]
    parts.append("</ul></section>")
    return parts


def _overview_html(reports: Mapping[str, CalibrationReport]) -> list[str]:
    shared = _text.shared_interval_kind(reports)
    head = "".join(f"<th>{_e(h)}</th>" for h, _ in _text.TABLE_COLUMNS)
    if shared is not None:
        ci_head = "BI {} CI ({})".format(*shared)
    else:  # each interval with its own level and kind
        ci_head = "BI CI"
    rows = [f'<tr><th>model</th>{head}<th class="ci">{_e(ci_head)}</th></tr>']
    for name, rep in reports.items():
        cells = "".join(_td(f(rep), "num") for _, f in _text.TABLE_COLUMNS)
        ci = _text.fmt_ci(
            rep.confidence_interval(rep.confidence_level, metric="brier_index"), 2
        )
        if shared is None:
            ci += " ({}, {})".format(*_text.interval_kind(rep))
        rows.append(f"<tr>{_td(name)}{cells}{_td(ci, 'ci')}</tr>")
    return [
        '<section id="overview"><h2>Overview</h2>',
        _read("overview"),
        *_table(rows, "wide"),
        '<p class="notes">CITL: calibration in the large (log-odds scale, ideal 0); '
        "intercept/slope: logistic recalibration (ideal 0/1); S:z, S:p: "
        "Spiegelhalter test; BI: Brier Index; ECE: binned expected calibration "
        "error.</p></section>",
    ]


def _figures_html(reports: Mapping[str, CalibrationReport]) -> list[str]:
    svgs, notes = _figures.comparison_svgs(reports)
    parts = ['<section id="figures"><h2>Figures</h2>']
    if not svgs:
        parts.append(
            '<p class="notes">Figures need matplotlib (<code>pip install '
            "matplotlib</code>); this report has the tables only.</p></section>"
        )
        return parts
    dca = "Decision curve with treat all and treat none."
    if len(row_sets(reports)) > 1:
        dca += (
            " The models are scored on different rows, so each set of rows has its "
            "own treat-all line."
        )
    captions = {
        "reliability": "Calibration curve. " + " ".join(notes),
        "decision_curve": dca,
    }
    parts.append('<div class="figures">')
    for key, svg in svgs.items():
        parts.append(
            f'<figure id="fig-{key}">{svg}<figcaption>{_e(captions[key])}</figcaption>'
            f"{_read(key)}</figure>"
        )
    parts.append("</div></section>")
    return parts


def _fmt_interval(ci: tuple[float, float] | None, digits: int) -> str:
    return "" if ci is None else _text.fmt_ci(ci, digits)


def _nb_differences(comp: Any) -> list[str]:
    if not comp.net_benefit:
        return []
    pairs = [(pc.first, pc.second) for pc in comp.pairs]
    head = "".join(f'<th class="pair">{_e(a)} &minus; {_e(b)}</th>' for a, b in pairs)
    rows = [f"<tr><th>threshold</th>{head}</tr>"]
    for t, diffs in comp.net_benefit.items():
        cells = "".join(
            _td(_text.fmt(diffs[pair]) if pair in diffs else "", "num") for pair in pairs
        )
        rows.append(f"<tr><td>{t:g}</td>{cells}</tr>")
    return [
        "<h3>Net benefit differences at the chosen thresholds</h3>",
        *_table(rows),
        '<p class="notes">Positive: the first model has the higher net '
        "benefit (more true positives per patient, net of false positives) at "
        "that threshold.</p>",
    ]


def _comparison_html(reports: Mapping[str, CalibrationReport]) -> list[str]:
    """The paired comparison, or why there is none (never dropped silently);
    its verdict in words is in the verdict section at the top."""
    comp = paired_comparison(reports)
    if comp is None:
        return []
    parts = ['<section id="comparison"><h2>Paired comparison</h2>']
    if not comp.pairs:
        parts.append(f'<p class="notes why-not">{_e(comp.reason)}</p></section>')
        return parts
    level = f"{100 * comp.confidence_level:g}%"
    rows = [
        "<tr><th>pair</th><th>Brier difference</th>"
        f'<th class="ci">{_e(level)} CI</th><th>Brier Index difference</th>'
        f'<th class="ci">{_e(level)} CI</th><th>p-value</th><th>variance</th></tr>'
    ]
    for pc in comp.pairs:
        rows.append(
            f'<tr><td class="pair">{_e(pc.first)} &minus; {_e(pc.second)}</td>'
            + _td(_text.fmt(pc.difference), "num")
            + _td(_fmt_interval(pc.ci, 4), "ci")
            + _td(_text.fmt(pc.brier_index_difference, 2), "num")
            + _td(_fmt_interval(pc.brier_index_ci, 2), "ci")
            + _td(_text.fmt_p(pc.pvalue), "num")
            + f"{_td(pc.cov_type)}</tr>"
        )
    parts += [_read("comparison"), *_table(rows)]
    parts.append(
        '<p class="notes">Diebold-Mariano test of equal expected Brier scores '
        "(skbrier.compare_brier); difference = first minus second.</p>"
    )
    if comp.reason:
        parts.append(f'<p class="notes why-not">{_e(comp.reason)}</p>')
    parts += _nb_differences(comp)
    parts.append("</section>")
    return parts


def _summary_table(rep: CalibrationReport) -> list[str]:
    header = tuple(_text.summary_header(rep))
    ncol = len(header)
    # the interval column is the one whose title names the interval
    ci_col = next((j for j, h in enumerate(header) if "CI" in str(h).split()), None)
    classes = ["ci" if j == ci_col else ("num" if j == 1 else None) for j in range(ncol)]
    rows = [
        "<tr>"
        + "".join(
            f'<th class="{c}">{_e(h)}</th>' if c == "ci" else f"<th>{_e(h)}</th>"
            for h, c in zip(header, classes)
        )
        + "</tr>"
    ]
    for row in _text.summary_rows(rep):
        cells = list(row) + [""] * (ncol - len(row))
        if not any(str(c).strip() for c in cells[1:]):
            rows.append(
                f'<tr class="section"><td colspan="{ncol}">{_e(str(cells[0]).strip())}</td></tr>'
            )
        else:
            tds = "".join(_td(str(c).strip(), k) for c, k in zip(cells, classes))
            rows.append(f"<tr>{tds}</tr>")
    return _table(rows)


def _net_benefit_table(rep: CalibrationReport) -> list[str]:
    fmt = _text.fmt
    rows = [
        "<tr><th>threshold</th><th>model</th>"
        "<th>treat all</th><th>treat none</th><th>standardized</th>"
        "<th>interventions avoided per 100</th></tr>"
    ]
    for r in rep.net_benefit or []:
        rows.append(
            f"<tr><td>{r['threshold']:g}</td>"
            + "".join(
                _td(v, "num")
                for v in (
                    fmt(r["model"]),
                    fmt(r["treat_all"]),
                    fmt(r["treat_none"]),
                    fmt(r["standardized"], 3),
                    fmt(r["interventions_avoided_per_100"], 1),
                )
            )
            + "</tr>"
        )
    return ["<h3>Net benefit</h3>", _read("net_benefit"), *_table(rows)]


def _subgroups_html(sec: Any) -> list[str]:
    """The subgroup section (:class:`._subgroups.SubgroupSection`): a table
    that scrolls sideways inside its own container (intervals never wrap),
    then the findings."""
    head = sec.header()
    ci_cols = {j for j, h in enumerate(head) if h.endswith("% CI")}
    cells = "".join(
        f'<th class="ci">{_e(h)}</th>' if j in ci_cols else f"<th>{_e(h)}</th>"
        for j, h in enumerate(head)
    )
    rows = [f"<tr>{cells}</tr>"]
    for row in sec.table_rows():
        tds = (
            _td(c, "ci" if j in ci_cols else (None if j == 0 else "num"))
            for j, c in enumerate(row)
        )
        rows.append(f"<tr>{''.join(tds)}</tr>")
    findings = "".join(f"<li>{_prose(s)}</li>" for s in sec.findings())
    return [
        '<h3 class="subgroups">Subgroups</h3>',
        _read("subgroups"),
        *_table(rows, "wide"),
        f'<ul class="notes">{findings}</ul>',
    ]


def report_section_html(
    rep: CalibrationReport, *, figures: bool = True, name: str | None = None
) -> str:
    """One report as an HTML fragment (heading, tables, notes; figures of
    this report alone when ``figures``)."""
    label = name or rep.name or "forecast"
    parts = [f"<section><h2>{_e(label)}</h2>", _read("model")]
    parts.append(
        f"<p>n = {rep.n_samples}, events = {rep.n_events:g}, prevalence = "
        f"{_text.fmt(rep.prevalence)}, mean forecast = {_text.fmt(rep.mean_forecast)}</p>"
    )
    parts += _summary_table(rep)
    if rep.net_benefit:
        parts += _net_benefit_table(rep)
    if rep.subgroups is not None:
        parts += _subgroups_html(rep.subgroups)
    if figures:
        parts += _figures_html({label: rep})[1:-1]
    if rep.notes:
        parts.append(
            '<ul class="notes">' + "".join(f"<li>{_e(n)}</li>" for n in rep.notes) + "</ul>"
        )
    parts.append("</section>")
    return "\n".join(parts)


def reports_to_html(
    reports: Mapping[str, CalibrationReport],
    path: str | Path | None = None,
    *,
    provenance: Mapping[str, Any] | None = None,
    title: str | None = None,
) -> str:
    """A self-contained HTML page of one or several calibration reports.

    The page reads first where it matters.  It opens with the verdict in
    words: which model has the better Brier score when several are scored on
    the same rows (Diebold-Mariano test, :func:`skbrier.compare_brier`), and
    for each model its Brier Index and whether its calibration checks pass
    (observed/expected ratio and calibration slope intervals, Spiegelhalter
    test) with its C statistic.  Then an overview table (one row per model),
    the figures with every model on one reliability diagram and one decision
    curve (inline SVG; one treat-all line per set of rows), the paired
    comparison of the models scored on the same rows (difference in Brier
    score and Brier Index with confidence interval and p-value, and net
    benefit differences at the report's thresholds; when models are scored
    on different rows the section says so instead), one section per model,
    and last the provenance, collapsed (a click opens it).  Every section
    after the verdict opens with a short "how to read this" paragraph.

    The page fits a 390 px phone: tables scroll sideways inside their own
    container, interval cells never wrap, and figure text stays legible
    at that width.  The file needs no network: no script, no external
    style sheet, font or image.

    Parameters
    ----------
    reports : mapping of str to CalibrationReport
        Reports by name, in display order.
    path : str or path-like, optional
        If given, the page is written there (replacing the file atomically:
        a failed write leaves any previous file intact).
    provenance : mapping, optional
        What the page shows under "Provenance" (its last, collapsed
        section), every key in this order when
        present: ``"input"`` (file name), ``"sha256"``, ``"rows_read"``,
        ``"rows_used"`` and ``"rows_dropped"`` (``{model: int}``),
        ``"rows_dropped_why"`` (``{model: {cause: int}}``), ``"rows_compared"``,
        ``"columns"`` (``{role: column}``), ``"options"``, ``"command"``,
        ``"date"`` (ISO), then any other key.  The date (today) and the
        versions of skbrier, scikit-learn, numpy, scipy and matplotlib are
        added when absent.
    title : str, optional
        Title of the page (default ``"Calibration report"``).

    Returns
    -------
    str
        The HTML text.

    Warns
    -----
    UserWarning
        Once, when matplotlib is not installed: the page then says that the
        figures need it and has the tables only.

    Notes
    -----
    The calibration figure is :class:`~skbrier.CalibrationCurveDisplay`'s:
    the loess curve of ``val.prob.ci.2`` with its pointwise band, deciles
    with Wilson intervals and the spike histogram of events and non-events
    (the caption says so).  The paired comparison's variance is the
    report's (``"hac"``) or iid.

    References
    ----------
    .. [1] B. Van Calster, D. Nieboer, Y. Vergouwe, B. De Cock, M. J. Pencina
       and E. W. Steyerberg, "A calibration hierarchy for risk models was
       defined: from utopia to empirical data", Journal of Clinical
       Epidemiology 74, 167-176, 2016.
    .. [2] F. X. Diebold and R. S. Mariano, "Comparing predictive accuracy",
       Journal of Business & Economic Statistics 13(3), 253-263, 1995.

    Examples
    --------
    >>> from skbrier.report import calibration_report, reports_to_html
    >>> rep = calibration_report([0, 1, 1, 0, 1, 0], [0.2, 0.7, 0.6, 0.4, 0.9, 0.1])
    >>> page = reports_to_html({"demo": rep}, provenance={"input": "demo.csv"})
    >>> page.startswith("<!DOCTYPE html>"), "demo.csv" in page
    (True, True)
    """
    reports = _text.check_reports(reports)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string or None, got {type(title).__name__}.")
    if provenance is not None and not isinstance(provenance, Mapping):
        raise TypeError(
            f"provenance must be a mapping or None, got {type(provenance).__name__}."
        )
    if not _figures.has_matplotlib():
        warnings.warn(
            missing_message(
                "matplotlib", needed_for="the HTML report has no figures: drawing them"
            ),
            UserWarning,
            stacklevel=2,
        )
    page_title = title or "Calibration report"
    body = [f"<h1>{_e(page_title)}</h1>"]
    body += _verdict_html(reports)
    body += _overview_html(reports)
    body += _figures_html(reports)
    body += _comparison_html(reports)
    for name, rep in reports.items():
        body.append(report_section_html(rep, figures=False, name=name))
    body += _provenance_html(provenance)
    text = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(page_title)}</title>"
        f"<style>{_CSS}</style></head><body>\n"
        + "\n".join(body)
        + '\n<p class="notes">Made by skbrier.</p></body></html>\n'
    )
    if path is not None:
        _io.write_text_atomic(path, text)
    return text
