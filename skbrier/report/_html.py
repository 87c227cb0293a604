"""Self-contained HTML rendering of calibration reports.

One file, no network: figures are inline SVG (text drawn as paths), the
style sheet is inline, there is no script and no external URL.  The page:
title, provenance, an overview table, the figures with every model (one
reliability diagram, one decision curve), the paired comparison of the
models scored on the same rows (or why there is none), then one section per model;
each section opens with a short "how to read this" paragraph.
"""

from __future__ import annotations

import datetime
import html
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _figures, _io, _text
from ._compare import paired_comparison, row_sets

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = ["report_section_html", "reports_to_html"]

_CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  margin: 2em auto; max-width: 70em; padding: 0 1.5em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 2px solid #ddd; padding-bottom: 0.2em;
  margin-top: 1.8em; }
h3 { font-size: 1.05em; margin-bottom: 0.3em; }
table { border-collapse: collapse; margin: 0.5em 0 1.2em 0; font-size: 0.92em; }
td, th { padding: 0.25em 0.8em; border-bottom: 1px solid #e2e2e2; text-align: right;
  vertical-align: top; }
th { background: #f4f4f4; font-weight: 600; }
td:first-child, th:first-child { text-align: left; }
tr.section td { font-weight: 600; background: #f8f8f8; }
table.kv th { text-align: left; background: none; font-weight: 600; }
table.kv td { text-align: left; }
.read { background: #f3f7fb; border-left: 4px solid #7aa7d6; padding: 0.5em 0.9em;
  margin: 0.6em 0 1em 0; font-size: 0.93em; }
.notes { color: #555; font-size: 0.9em; }
.verdict { font-weight: 600; }
.figures { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
figure { margin: 0; flex: 1 1 26em; max-width: 40em; }
figure svg { width: 100%; height: auto; }
figcaption { font-size: 0.88em; color: #555; }
code { font-size: 0.9em; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  h2 { break-after: avoid; }
  section, figure, table { break-inside: avoid; }
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
        "Reliability diagram: for each forecast probability (x), the event "
        "rate actually observed (y), estimated by isotonic regression. A "
        "well-calibrated model lies on the dashed diagonal. Above the "
        "diagonal the model under-forecasts risk; below it over-forecasts. "
        "The shaded band shows where the curve of a perfectly calibrated "
        "model would fall by chance; a curve leaving it is evidence of "
        "miscalibration. The bars at the bottom show how many forecasts "
        "fall at each probability."
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
        '<section id="provenance"><h2>Provenance</h2>',
        _read("provenance"),
        '<table class="kv">',
        *rows,
        "</table></section>",
    ]


def _overview_html(reports: Mapping[str, CalibrationReport]) -> list[str]:
    first = next(iter(reports.values()))
    level = f"{100 * first.confidence_level:g}%"
    head = "".join(f"<th>{_e(h)}</th>" for h, _ in _text.TABLE_COLUMNS)
    parts = [
        '<section id="overview"><h2>Overview</h2>',
        _read("overview"),
        f"<table><tr><th>model</th>{head}<th>BI {_e(level)} CI ({_e(first.cov_type)})</th></tr>",
    ]
    for name, rep in reports.items():
        cells = "".join(f"<td>{_e(f(rep))}</td>" for _, f in _text.TABLE_COLUMNS)
        ci = _text.fmt_ci(
            rep.confidence_interval(rep.confidence_level, metric="brier_index"), 2
        )
        parts.append(f"<tr><td>{_e(name)}</td>{cells}<td>{_e(ci)}</td></tr>")
    parts.append("</table>")
    parts.append(
        '<p class="notes">CITL: calibration in the large (log-odds scale, ideal 0); '
        "intercept/slope: logistic recalibration (ideal 0/1); S:z, S:p: "
        "Spiegelhalter test; BI: Brier Index; ECE: binned expected calibration "
        "error.</p></section>"
    )
    return parts


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
        "reliability": "Reliability diagram. " + " ".join(notes),
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
    head = "".join(f"<th>{_e(a)} &minus; {_e(b)}</th>" for a, b in pairs)
    parts = [
        "<h3>Net benefit differences at the chosen thresholds</h3>",
        f"<table><tr><th>threshold</th>{head}</tr>",
    ]
    for t, diffs in comp.net_benefit.items():
        cells = "".join(
            f"<td>{_e(_text.fmt(diffs[pair]) if pair in diffs else '')}</td>"
            for pair in pairs
        )
        parts.append(f"<tr><td>{t:g}</td>{cells}</tr>")
    parts.append(
        '</table><p class="notes">Positive: the first model has the higher net '
        "benefit (more true positives per patient, net of false positives) at "
        "that threshold.</p>"
    )
    return parts


def _comparison_html(reports: Mapping[str, CalibrationReport]) -> list[str]:
    """The paired comparison, or why there is none (never dropped silently)."""
    comp = paired_comparison(reports)
    if comp is None:
        return []
    parts = ['<section id="comparison"><h2>Paired comparison</h2>']
    if not comp.pairs:
        parts.append(f'<p class="notes why-not">{_e(comp.reason)}</p></section>')
        return parts
    level = f"{100 * comp.confidence_level:g}%"
    parts += [
        _read("comparison"),
        "<table><tr><th>pair</th><th>Brier difference</th>"
        f"<th>{_e(level)} CI</th><th>Brier Index difference</th><th>{_e(level)} CI</th>"
        "<th>p-value</th><th>variance</th></tr>",
    ]
    for pc in comp.pairs:
        parts.append(
            f"<tr><td>{_e(pc.first)} &minus; {_e(pc.second)}</td>"
            f"<td>{_e(_text.fmt(pc.difference))}</td>"
            f"<td>{_e(_fmt_interval(pc.ci, 4))}</td>"
            f"<td>{_e(_text.fmt(pc.brier_index_difference, 2))}</td>"
            f"<td>{_e(_fmt_interval(pc.brier_index_ci, 2))}</td>"
            f"<td>{_e(_text.fmt_p(pc.pvalue))}</td><td>{_e(pc.cov_type)}</td></tr>"
        )
    parts.append("</table>")
    verdicts = "".join(
        f'<li class="verdict">{_e(_text.pair_verdict(pc))}</li>' for pc in comp.pairs
    )
    parts.append(f"<ul>{verdicts}</ul>")
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
    header_fn = getattr(_text, "summary_header", None)
    if header_fn is not None:
        header = tuple(header_fn(rep))
    else:
        header = ("", "estimate", f"{100 * rep.confidence_level:g}% CI ({rep.cov_type})")
    ncol = len(header)
    parts = ["<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) + "</tr>"]
    for row in _text.summary_rows(rep):
        cells = list(row) + [""] * (ncol - len(row))
        if not any(str(c).strip() for c in cells[1:]):
            parts.append(
                f'<tr class="section"><td colspan="{ncol}">{_e(str(cells[0]).strip())}</td></tr>'
            )
        else:
            tds = "".join(f"<td>{_e(str(c).strip())}</td>" for c in cells)
            parts.append(f"<tr>{tds}</tr>")
    parts.append("</table>")
    return parts


def _net_benefit_table(rep: CalibrationReport) -> list[str]:
    fmt = _text.fmt
    head = (
        "<h3>Net benefit</h3>"
        + _read("net_benefit")
        + "<table><tr><th>threshold</th><th>model</th>"
        "<th>treat all</th><th>treat none</th><th>standardized</th>"
        "<th>interventions avoided per 100</th></tr>"
    )
    parts = [head]
    for r in rep.net_benefit or []:
        parts.append(
            f"<tr><td>{r['threshold']:g}</td><td>{fmt(r['model'])}</td>"
            f"<td>{fmt(r['treat_all'])}</td><td>{fmt(r['treat_none'])}</td>"
            f"<td>{fmt(r['standardized'], 3)}</td>"
            f"<td>{fmt(r['interventions_avoided_per_100'], 1)}</td></tr>"
        )
    parts.append("</table>")
    return parts


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

    The page has a provenance block, an overview table (one row per model),
    the figures with every model on one reliability diagram and one
    decision curve (inline SVG; one treat-all line per set of rows), a
    paired comparison of the models scored on the same rows (difference in
    Brier score and Brier Index with confidence interval and p-value, from
    :func:`skbrier.compare_brier`, and net benefit differences at the
    report's thresholds; when models are scored on different rows the
    section says so instead), then one section per model.  Every section opens
    with a short "how to read this" paragraph.  The file needs no network:
    no script, no external style sheet, font or image.

    Parameters
    ----------
    reports : mapping of str to CalibrationReport
        Reports by name, in display order.
    path : str or path-like, optional
        If given, the page is written there (replacing the file atomically:
        a failed write leaves any previous file intact).
    provenance : mapping, optional
        What the page shows under "Provenance", every key in this order when
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
    The consistency band of the reliability diagram is resampled (200
    resamples, R reliabilitydiag's rule) on forecasts rounded to 1/1000 when
    there are more distinct forecasts than that; the caption says so.  The
    curve itself is the exact isotonic fit.  The paired comparison's
    variance is the report's (``"hac"``) or iid.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118, 2021.
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
            "the HTML report has no figures: they need matplotlib (pip install matplotlib).",
            UserWarning,
            stacklevel=2,
        )
    page_title = title or "Calibration report"
    body = [f"<h1>{_e(page_title)}</h1>"]
    body += _provenance_html(provenance)
    body += _overview_html(reports)
    body += _figures_html(reports)
    body += _comparison_html(reports)
    for name, rep in reports.items():
        body.append(report_section_html(rep, figures=False, name=name))
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
