"""The HTML page of a :class:`~skbrier.report._tripod.TripodReport`.

The page of :func:`~skbrier.report.reports_to_html` rearranged by TRIPOD+AI
item: the same style sheet, figures (inline SVG), tables that scroll sideways
on a 390 px phone, and the collapsed provenance last; each section names the
items it answers, and the checklist closes the page.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from ..validation._criteria import LABELS
from . import _figures, _html, _text
from ._tripod_items import CITATION, ITEMS, SECTIONS, SOURCE_URL
from ._tripod_measures import (
    JUDGES,
    PERFORMANCE_MEASURES,
    RISK_QUANTILES,
    precision_rows,
    risk_distribution,
)

if TYPE_CHECKING:  # pragma: no cover
    from ._tripod import TripodReport

__all__ = ["tripod_html"]

_CSS_EXTRA = """
.status-answered { color: #1a6b2f; font-weight: 600; }
.status-to-supply { color: #9a4b00; font-weight: 600; }
table.checklist td { text-align: left; min-width: 8em; }
.items { color: #555; font-size: 0.8em; font-weight: normal; }
"""

#: each section's items (from the checklist table) and its "how to read this"
_READ = {
    "participants": (
        "How many patients each analysis scored, how many had the outcome, and "
        "the event rate."
    ),
    "sample-size": (
        "Whether the sample was large enough: the width of each interval against "
        "the targets of Riley et al. (2021) used by pmvalsampsize (O/E 0.2, slope "
        "0.2, C 0.1, standardized net benefit 0.2). A width above its target means "
        "the measure is not judged as precisely as planned."
    ),
    "missing-data": (
        "The rows left out of the analysis because a value was missing, by cause."
    ),
    "performance-measures": (
        "The core measures with their confidence intervals: overall accuracy "
        "(Brier score and its scaled forms), discrimination (C) and calibration "
        "(O/E, calibration in the large, slope and the ICI of the flexible curve)."
    ),
    "calibration": (
        "The smooth calibration curve with its band, the grouped observed "
        "frequencies with their intervals and the spikes of the risks of patients "
        "with (up) and without (down) the outcome, with the numbers of the "
        "calibration hierarchy: "
        "mean (O/E, calibration in the large), weak (intercept and slope) and "
        "moderate (the curve)."
    ),
    "clinical-utility": (
        "Net benefit: whether acting on the model beats treating everyone and "
        "treating no one at each threshold probability."
    ),
    "risk-distribution": (
        "The predicted risks of the patients with and without the outcome: a "
        "model that discriminates well gives them distributions that overlap little."
    ),
    "subgroups": "The measures of each key subgroup, with their intervals.",
}


def _e(value: Any) -> str:
    return html.escape(str(value))


def _items_of(section: str) -> str:
    ids = [it.id for it in ITEMS if it.section == section]
    if section in ("calibration", "clinical-utility", "risk-distribution", "subgroups"):
        ids = ["12e", "23a"]
    return "TRIPOD+AI " + ("items " if len(ids) > 1 else "item ") + ", ".join(ids)


def _open(section: str) -> list[str]:
    return [
        f'<section id="{section}"><h2>{_e(SECTIONS[section])} '
        f'<span class="items">({_e(_items_of(section))})</span></h2>',
        f'<p class="read"><b>How to read this.</b> {_e(_READ[section])}</p>',
    ]


def _header_row(*cells: str) -> str:
    return "<tr>" + "".join(f"<th>{_e(c)}</th>" for c in cells) + "</tr>"


def _row(*cells: str, first: str | None = None) -> str:
    head = "" if first is None else _html._td(first)
    return f"<tr>{head}{''.join(_html._td(c, 'num') for c in cells)}</tr>"


def _ci_cell(low: Any, high: Any, digits: int = 4) -> str:
    return "" if low is None or high is None else _text.fmt_ci((low, high), digits)


def _participants(trip: TripodReport) -> list[str]:
    rows = [_header_row("analysis", "n", "events", "non-events", "prevalence")]
    for group in (trip.reports, trip.subgroups):
        for name, rep in group.items():
            rows.append(
                _row(
                    str(rep.n_samples),
                    f"{rep.n_events:g}",
                    f"{rep.n_samples - rep.n_events:g}",
                    _text.fmt(rep.prevalence),
                    first=name,
                )
            )
    return [*_open("participants"), *_html._table(rows), "</section>"]


def _sample_size(trip: TripodReport) -> list[str]:
    parts = _open("sample-size")
    for name, prec in trip.precision.items():
        parts.append(f"<h3>{_e(name)}</h3>")
        if prec is None or isinstance(prec, str):
            why = "The report keeps no rows to judge it." if prec is None else prec
            parts.append(f'<p class="notes">Not available: {_e(why)}</p>')
            continue
        pct = f"{100 * prec.confidence_level:g}% CI"
        rows = [_header_row("measure", "estimate", pct, "width", "target", "n needed")]
        for r in precision_rows(prec):
            rows.append(
                _row(
                    _text.fmt(r["estimate"]),
                    _ci_cell(r["ci_low"], r["ci_high"]),
                    _text.fmt(r["width"]),
                    _text.fmt(r["target"], 2) + (" (met)" if r["met"] else ""),
                    _text.fmt(r["sample_size_needed"]),
                    first=LABELS[r["measure"]],
                )
            )
        parts += _html._table(rows)
        parts.append(
            "<ul>" + "".join(f"<li>{_e(s)}</li>" for s in prec.statements) + "</ul>"
        )
    parts.append(
        '<p class="notes">skbrier.validation.achieved_precision: iid Wald intervals '
        "(log scale for O/E, DeLong's standard error for C) and a bootstrap of the "
        "net benefit at the report's first threshold.</p></section>"
    )
    return parts


def _missing(trip: TripodReport) -> list[str]:
    parts = _open("missing-data")
    if trip.missing is None:
        parts.append(
            '<p class="notes">Not given: describe how missing data were handled '
            "(see the checklist).</p></section>"
        )
        return parts
    for name, counts in trip.missing.items():
        rep = trip.reports[name]
        left_out = sum(counts.values())
        text = (
            f"{name}: {left_out} of {rep.n_samples + left_out} rows were left out "
            "(complete-case analysis)"
            if left_out
            else f"{name}: no row was left out for missing data"
        )
        causes = "; ".join(f"{k}: {v}" for k, v in counts.items() if v)
        parts.append(f"<p>{_e(text + (f' ({causes}).' if causes else '.'))}</p>")
    parts.append("</section>")
    return parts


def _performance(trip: TripodReport) -> list[str]:
    parts = _open("performance-measures")
    for name, rep in trip.reports.items():
        parts.append(f"<h3>{_e(name)}</h3>")
        d = trip._model_dict(name, rep)["performance"]
        pct = f"{100 * rep.confidence_level:g}% CI"
        rows = [_header_row("measure", "estimate", pct, "interval method", "judges")]
        for metric, label in PERFORMANCE_MEASURES.items():
            m = d[metric]
            rows.append(
                "<tr>"
                + _html._td(label)
                + _html._td(_text.fmt(m["estimate"]), "num")
                + _html._td(_ci_cell(m["ci_low"], m["ci_high"]), "ci")
                + _html._td(m["ci_method"] or "")
                + _html._td(JUDGES[metric])
                + "</tr>"
            )
        parts += _html._table(rows)
    parts.append("</section>")
    return parts


def _figure(svgs: dict, key: str, caption: str) -> str:
    if key not in svgs:
        return '<p class="notes">The figure needs matplotlib and the report\'s rows.</p>'
    return (
        f'<figure id="fig-{key}">{svgs[key]}<figcaption>{_e(caption)}</figcaption></figure>'
    )


def _calibration(trip: TripodReport, svgs: dict, notes: list[str]) -> list[str]:
    parts = _open("calibration")
    parts.append(_figure(svgs, "reliability", "Calibration curve. " + " ".join(notes)))
    rows = [
        _header_row("model", "intercept", "slope", "Spiegelhalter z", "p", "Emax", "E90")
    ]
    for name, rep in trip.reports.items():
        rows.append(
            _row(
                _text.fmt(rep.calibration_intercept),
                _text.fmt(rep.calibration_slope),
                _text.fmt(rep.spiegelhalter_z, 2),
                _text.fmt_p(rep.spiegelhalter_p),
                _text.fmt(rep.emax),
                _text.fmt(rep.e90),
                first=name,
            )
        )
    parts += [*_html._table(rows), "</section>"]
    return parts


def _clinical_utility(trip: TripodReport, svgs: dict) -> list[str]:
    parts = _open("clinical-utility")
    parts.append(
        _figure(svgs, "decision_curve", "Decision curve with treat all and treat none.")
    )
    for name, rep in trip.reports.items():
        if rep.net_benefit:
            parts.append(f"<h3>{_e(name)}</h3>")
            parts += _html._net_benefit_table(rep)[2:]
    parts.append("</section>")
    return parts


def _risk_distribution(trip: TripodReport) -> list[str]:
    parts = _open("risk-distribution")
    levels = [f"{100 * q:g}%" for q in RISK_QUANTILES]
    rows = [_header_row("model / outcome", "n", "mean", *levels)]
    for name, rep in trip.reports.items():
        dist = risk_distribution(rep) or {}
        for outcome, stats in dist.items():
            if stats is None:
                continue
            qs = [_text.fmt(v, 3) for v in stats["quantiles"].values()]
            label = f"{name}: {outcome.replace('_', '-')}"
            rows.append(
                _row(f"{stats['n']:g}", _text.fmt(stats["mean"], 3), *qs, first=label)
            )
    parts += [
        *_html._table(rows),
        '<p class="notes">Quantiles of the predicted risk (0% and 100%: smallest '
        "and largest); the reliability diagram's histogram shows the same risks.</p>",
        "</section>",
    ]
    return parts


def _subgroups(trip: TripodReport) -> list[str]:
    """The reports of subgroups given (one row each), then each report's own
    subgroup section (``calibration_report(groups=...)``)."""
    parts = _open("subgroups")
    if trip.subgroups:
        metrics = ("observed_expected", "calibration_slope", "c_statistic", "brier_index")
        labels = [PERFORMANCE_MEASURES[m] for m in metrics]
        rows = [_header_row("subgroup", "n", "events", *labels)]
        for name, rep in trip.subgroups.items():
            d = rep.to_dict()
            cells = [
                f"{_text.fmt(d[m]['estimate'], 3)} "
                f"{_ci_cell(d[m]['ci_low'], d[m]['ci_high'], 3)}"
                for m in metrics
            ]
            rows.append(_row(str(rep.n_samples), f"{rep.n_events:g}", *cells, first=name))
        parts += _html._table(rows, "wide")
    for name, rep in trip.reports.items():
        if rep.subgroups is not None:
            if len(trip.reports) > 1:
                parts.append(f"<h3>{_e(name)}</h3>")
            parts += _html._subgroups_html(rep.subgroups)
    parts.append("</section>")
    return parts


def _status(item: dict) -> str:
    cls = "status-answered" if item["status"] == "answered" else "status-to-supply"
    return f'<td class="{cls}">{_e(item["status"])}</td>'


def _checklist(trip: TripodReport) -> list[str]:
    rows = [_header_row("item", "topic", "status", "section", "to supply")]
    for it in trip.checklist():
        where = (
            f'<a href="#{_e(it["section"])}">{_e(it["section_title"])}</a>'
            if it["section"]
            else ""
        )
        rows.append(
            f'<tr><td title="{_e(it["text"])}">{_e(it["id"])}</td>{_html._td(it["topic"])}'
            f"{_status(it)}<td>{where}</td>{_html._td(it['to_supply'] or '')}</tr>"
        )
    return [
        '<section id="checklist"><h2>TRIPOD+AI checklist</h2>',
        '<p class="read"><b>How to read this.</b> The TRIPOD+AI items that concern '
        "the evaluation of performance: the section of this page that answers "
        "each, or what the authors must still write (checklist.json and "
        "checklist.md hold the same).</p>",
        *_html._table(rows, "checklist"),
        "</section>",
    ]


def tripod_html(trip: TripodReport) -> str:
    """The self-contained TRIPOD+AI page of ``trip``."""
    svgs, notes = _figures.comparison_svgs(trip.reports)
    title = "TRIPOD+AI performance report"
    intro = (
        f"This page reports the performance of {', '.join(trip.reports)} by the "
        f"TRIPOD+AI items that concern performance ({CITATION}). The checklist at the end "
        "says which section answers each item and what the authors must still write."
    )
    body = [
        f"<h1>{_e(title)}</h1>",
        f'<p>{_e(intro)} <a href="{_e(SOURCE_URL)}">{_e(SOURCE_URL)}</a></p>',
    ]
    body += _participants(trip) + _sample_size(trip) + _missing(trip)
    body += _performance(trip) + _calibration(trip, svgs, notes)
    body += _clinical_utility(trip, svgs) + _risk_distribution(trip)
    if trip.has_subgroups():
        body += _subgroups(trip)
    body += _checklist(trip) + _html._provenance_html(trip.provenance)
    head = (
        '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1"><title>{_e(title)}</title>'
        f"<style>{_html._CSS}{_CSS_EXTRA}</style></head><body>"
    )
    return f"<!DOCTYPE html>\n{head}\n" + "\n".join(body) + "\n</body></html>\n"
