"""The side-by-side table of ``skbrier llm`` as text and as an HTML page.

One row per file (a file that could not be read has its row, with the
reason); the page reuses the calibration report's style sheet and helpers
(:mod:`skbrier.report._html`): scrolling tables, "how to read this" notes,
figures as inline SVG with text drawn as paths.
"""

from __future__ import annotations

import warnings
from typing import Any

from ._llm_measures import COLUMNS, FIGURE_ECE_BINNING, FIGURE_ECE_KEY, POINT_KEYS

_READ = {
    "table": (
        "One row per file. Accuracy and the Brier score judge the answers' "
        "confidence against whether they were right (lower Brier is better; "
        "the Brier Index is the same on a 0-100 scale, higher is better). The "
        "ECE columns differ only in their bins (the header says which). AURC "
        "and E-AURC judge the confidence as a ranking (lower is better); "
        "HELM's selective area and accuracy@10% are higher-is-better. Platt "
        "and temperature (TS) columns are the same scores after one or two "
        "fitted numbers (fitted on the same questions, which flatters them); "
        "coverage, accuracy on the attempted and F are the SimpleQA scores of "
        "logs that mark abstentions. n/a: the log lacks what the measure needs."
    ),
    "intervals": (
        "Percentile bootstrap intervals over questions. Two files' intervals "
        "that overlap do not prove the models equal; a paired comparison needs "
        "the same questions."
    ),
    "figures": (
        "Reliability diagram per file: the accuracy of the answers in each "
        "confidence bin (bars) against the diagonal of perfect calibration; the "
        "shaded gaps are the miscalibration the ECE averages. The ECE in the "
        "legend is the table's column named in the caption."
    ),
}


def _digits(key: str) -> int:
    return 2 if key in ("brier_index", "temperature") else 4


def fmt_value(row: dict[str, Any], key: str) -> str:
    """One cell's estimate (``n/a`` when the file has no such measure)."""
    if key not in row["estimates"]:
        return "n/a"
    v = row["estimates"][key]
    return str(int(v)) if key == "n" else f"{v:.{_digits(key)}f}"


def fmt_interval(row: dict[str, Any], key: str) -> str:
    if key not in row["intervals"]:
        return ""
    lo, hi = row["intervals"][key]
    d = _digits(key)
    return f"[{lo:.{d}f}, {hi:.{d}f}]"


def _shown(rows: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The columns some file fills (n and accuracy always)."""
    return [
        c
        for c in COLUMNS
        if c[0] in ("n", "accuracy") or any(c[0] in r["estimates"] for r in rows)
    ]


def _notes(row: dict[str, Any]) -> list[str]:
    if row["error"]:
        return [f"not read: {row['error']}"]
    out = []
    if row["n_skipped"]:
        out.append(f"{row['n_skipped']} malformed records skipped")
    if row["n_unscored"]:
        out.append(f"{row['n_unscored']} unscored samples left out")
    if not row["estimates"].get("n"):
        out.append("no scored sample: nothing to measure")
    elif not row["has_confidence"]:
        out.append("correctness only (no logprobs nor stated confidence): no calibration")
    out += row.get("notes", [])
    if row.get("attempted_only"):
        out.append(
            "n, accuracy, calibration and selective measures on the attempted answers"
        )
    return out


def _grid(header: list[str], body: list[list[str]]) -> list[str]:
    widths = [max(len(r[j]) for r in [header, *body]) for j in range(len(header))]

    def line(r: list[str]) -> str:
        cells = (
            c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths))
        )
        return "  ".join(cells).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in body)]


def text_table(rows: list[dict[str, Any]], level: float, n_resamples: int | str) -> str:
    """The table (one row per file), its intervals, the notes and the legend."""
    cols = _shown(rows)
    names = [str(r["model"]) for r in rows]
    body = [
        [nm, *(fmt_value(r, k) if not r["error"] else "-" for k, _, _ in cols)]
        for nm, r in zip(names, rows)
    ]
    lines = _grid(["file", *(h for _, h, _ in cols)], body)
    boot = [c for c in cols if c[0] not in POINT_KEYS and c[0] != "n"]
    if n_resamples and any(r["intervals"] for r in rows):
        lines += [
            "",
            f"{level:.0%} intervals (percentile bootstrap over questions, {n_resamples} resamples):",
        ]
        body = [
            [nm, *(fmt_interval(r, k) for k, _, _ in boot)]
            for nm, r in zip(names, rows)
            if not r["error"]
        ]
        lines += _grid(["file", *(h for _, h, _ in boot)], body)
    lines += ["", "Files:"]
    for nm, r in zip(names, rows):
        where = f"{r['format']}: {r['file']}" if r["format"] else r["file"]
        lines.append(f"  {nm}  ({where})" + "".join(f"\n    - {n}" for n in _notes(r)))
    lines += [
        "",
        "Columns (Platt, T, TS, coverage, acc|att, F: a fit or a count, no interval):",
    ]
    lines += [f"  {h:<12}  {lbl}" for _, h, lbl in cols]
    return "\n".join(lines) + "\n"


def _svgs(rows: list[dict[str, Any]], recs: list[Any]) -> list[tuple[str, str]]:
    """``(name, svg)`` of a reliability diagram per file with a confidence;
    its ECE is the table's :data:`FIGURE_ECE_KEY` column (the same bins)."""
    from ..report import _figures

    if not _figures.has_matplotlib():
        return []
    from matplotlib.figure import Figure

    from .._core.params import DEFAULT_N_BINS, DEFAULT_STRATEGY
    from ..exceptions import HardForecastWarning
    from ..plotting._multiclass_reliability import MulticlassReliabilityDisplay

    out = []
    for j, (row, rec) in enumerate(zip(rows, recs)):
        if rec is None or FIGURE_ECE_KEY not in row["estimates"]:
            continue
        keep = slice(None) if rec.attempted is None else rec.attempted
        fig = Figure(
            figsize=(_figures.FIG_WIDTH_IN, _figures.FIG_WIDTH_IN), layout="constrained"
        )
        ax = fig.subplots()
        name = _figures.plain_text_label(str(row["model"]))
        with warnings.catch_warnings():
            # an answer's confidence of exactly 1 is a certain model, not class
            # labels passed by mistake (the table's measures do not warn either)
            warnings.simplefilter("ignore", HardForecastWarning)
            MulticlassReliabilityDisplay.from_predictions(
                rec.correct[keep],
                rec.confidence[keep],
                n_bins=DEFAULT_N_BINS,
                strategy=DEFAULT_STRATEGY,
            ).plot(ax=ax, name=f"{name}, {FIGURE_ECE_BINNING}")
        fig.suptitle(name)
        out.append((str(row["model"]), _figures.to_svg(_figures.legible(fig), f"llm{j}")))
    return out


def html_page(
    rows: list[dict[str, Any]],
    recs: list[Any],
    level: float,
    n_resamples: int | str,
    files: list[str],
) -> str:
    """The page: the table first, then intervals, figures, files and provenance."""
    from ..report._html import _CSS, _e, _provenance_html, _table, _td

    def read(key: str) -> str:
        return f'<p class="read"><b>How to read this.</b> {_e(_READ[key])}</p>'

    cols = _shown(rows)
    head = "".join(f'<th title="{_e(lbl)}">{_e(h)}</th>' for _, h, lbl in cols)
    trs = [f"<tr><th>file</th>{head}</tr>"]
    for r in rows:
        if r["error"]:
            trs.append(
                f'<tr>{_td(str(r["model"]))}<td colspan="{len(cols)}" class="notes">not read: {_e(r["error"])}</td></tr>'
            )
        else:
            trs.append(
                f"<tr>{_td(str(r['model']))}"
                + "".join(_td(fmt_value(r, k), "num") for k, _, _ in cols)
                + "</tr>"
            )
    legend = "".join(f"<li><b>{_e(h)}</b>: {_e(lbl)}</li>" for _, h, lbl in cols)
    body = [
        "<h1>Calibration of LLM evaluation logs</h1>",
        '<section id="table"><h2>All files</h2>',
        read("table"),
        *_table(trs, "wide"),
        f'<ul class="notes">{legend}</ul></section>',
    ]
    boot = [c for c in cols if c[0] not in POINT_KEYS and c[0] != "n"]
    if n_resamples and any(r["intervals"] for r in rows):
        head = "".join(f"<th>{_e(h)}</th>" for _, h, _ in boot)
        trs = [f"<tr><th>file</th>{head}</tr>"]
        trs += [
            f"<tr>{_td(str(r['model']))}"
            + "".join(_td(fmt_interval(r, k), "ci") for k, _, _ in boot)
            + "</tr>"
            for r in rows
            if not r["error"]
        ]
        body += [
            f'<section id="intervals"><h2>{_e(f"{level:.0%}")} intervals</h2>',
            read("intervals"),
            *_table(trs, "wide"),
            f'<p class="notes">{n_resamples} bootstrap resamples of the questions.</p></section>',
        ]
    svgs = _svgs(rows, recs)
    body.append('<section id="figures"><h2>Reliability diagrams</h2>')
    if svgs:
        label = next(lbl for k, _, lbl in COLUMNS if k == FIGURE_ECE_KEY)
        body += [read("figures"), '<div class="figures">']
        body += [
            f"<figure>{svg}<figcaption>{_e(name)}: ECE with {_e(FIGURE_ECE_BINNING)}, "
            f"the table's column &ldquo;{_e(label)}&rdquo;.</figcaption></figure>"
            for name, svg in svgs
        ]
        body.append("</div>")
    else:
        body.append(
            '<p class="notes">No figure: no file with a confidence, or matplotlib is not installed.</p>'
        )
    body.append("</section>")
    notes = "".join(
        f"<li><b>{_e(str(r['model']))}</b> ({_e(r['file'])})"
        + (
            "<ul>" + "".join(f"<li>{_e(n)}</li>" for n in _notes(r)) + "</ul>"
            if _notes(r)
            else ""
        )
        + "</li>"
        for r in rows
    )
    body += ['<section id="files"><h2>Files</h2>', f"<ul>{notes}</ul></section>"]
    body += _provenance_html(
        {"input": files, "options": {"n_resamples": n_resamples, "confidence_level": level}}
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>skbrier llm</title><style>{_CSS}</style></head><body>\n"
        + "\n".join(body)
        + '\n<p class="notes">Made by skbrier.</p></body></html>\n'
    )
