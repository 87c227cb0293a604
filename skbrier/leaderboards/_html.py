"""A small self-contained HTML leaderboard: the table with inline SVG interval bars."""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np

from .._core.format import format_number
from .._core.results import to_builtin

__all__ = ["leaderboard_html", "leaderboard_table"]

_WIDTH, _HEIGHT = 220, 14


def _bar(lo: float, point: float, hi: float, scale: tuple[float, float]) -> str:
    a, b = scale

    def px(v: float) -> float:
        return 4.0 + (_WIDTH - 8.0) * (v - a) / (b - a) if b > a else _WIDTH / 2.0

    parts = [f'<svg width="{_WIDTH}" height="{_HEIGHT}" role="img">']
    if math.isfinite(lo) and math.isfinite(hi):
        parts.append(
            f'<line x1="{px(lo):.1f}" x2="{px(hi):.1f}" y1="7" y2="7" '
            'stroke="#4a78b0" stroke-width="4" stroke-linecap="round"/>'
        )
    if math.isfinite(point):
        parts.append(f'<circle cx="{px(point):.1f}" cy="7" r="4" fill="#c0392b"/>')
    parts.append("</svg>")
    return "".join(parts)


def _ticks(a: float, b: float) -> list[float]:
    """About five round tick values covering ``[a, b]``."""
    if not b > a:
        return [a]
    raw = (b - a) / 4.0
    mag = 10.0 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=raw)
    first = math.ceil(a / step) * step
    return [first + k * step for k in range(int((b - first) / step + 1e-9) + 1)]


def _axis(scale: tuple[float, float], label: str) -> str:
    """The forest plot's axis (of ``label``), drawn as the header of the bar column."""
    a, b = scale

    def px(v: float) -> float:
        return 4.0 + (_WIDTH - 8.0) * (v - a) / (b - a) if b > a else _WIDTH / 2.0

    parts = [
        f'<svg width="{_WIDTH}" height="24" role="img" aria-label="{html.escape(label)} axis">',
        f'<line x1="4" x2="{_WIDTH - 4}" y1="20" y2="20" stroke="#555"/>',
    ]
    for t in _ticks(a, b):
        x = px(t)
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="16" y2="20" stroke="#555"/>')
        parts.append(
            f'<text x="{x:.1f}" y="12" font-size="10" text-anchor="middle">{t:g}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _layout(res: Any) -> tuple[str, str, str, str, list[tuple[str, str]]]:
    """The plotted score (field, low, high, label) and the other score columns of ``res``."""
    if hasattr(res, "brier_index"):  # the snapshot leaderboard: the Brier Index
        cols = [("adjusted_brier", "adjusted Brier"), ("raw_brier", "raw Brier")]
        return "brier_index", "brier_index_low", "brier_index_high", "Brier Index", cols
    label = f"adjusted {res.score_name}" if res.adjustment != "none" else res.score_name
    return "adjusted_score", "score_low", "score_high", label, [("raw_score", "raw score")]


def _text(res: Any, column: str, value: Any) -> str:
    """A value as the result's text table shows it."""
    cell = getattr(res, "_cell", None)
    if cell is not None:
        return str(cell(column, to_builtin(value)))
    return format_number(to_builtin(value))


def leaderboard_table(res: Any) -> str:
    """The leaderboard as an HTML table, best first, with an interval bar per row.

    ``res`` is a :class:`~skbrier.leaderboards.LeaderboardResult` (the Brier
    Index is plotted) or a :class:`~skbrier.leaderboards.HistoryLeaderboardResult`
    (its adjusted score); both show the rank interval, the tie group and
    the top set (a star).
    """
    field, low, high, label, others = _layout(res)
    bi = np.asarray(getattr(res, field), dtype=float)
    lo = np.asarray(getattr(res, low), dtype=float)
    hi = np.asarray(getattr(res, high), dtype=float)
    vals = np.concatenate([bi, lo, hi])
    vals = vals[np.isfinite(vals)]
    scale = (float(vals.min()), float(vals.max())) if vals.size else (0.0, 100.0)
    if scale[1] > scale[0]:  # round outward to the axis ticks
        t = _ticks(*scale)
        step = t[1] - t[0] if len(t) > 1 else 1.0
        scale = (math.floor(scale[0] / step) * step, math.ceil(scale[1] / step) * step)
    pct = f"{res.confidence_level:.0%}"
    head = [
        "",
        "forecaster",
        label,
        f"{pct} interval",
        "",
        *(h for _, h in others),
        "questions",
        "rank interval",
        "tie group",
        "p-value",
        "share best",
    ]
    rows = []
    for k, i in enumerate(res._by_rank()):

        def cell(col: str, v: Any) -> str:
            return html.escape(_text(res, col, v))

        star = " &#9733;" if res.contains_best[i] else ""
        cells = [
            str(k + 1),
            html.escape(str(to_builtin(res.forecasters[i]))) + star,
            cell(field, bi[i]),
            f"[{cell(low, lo[i])}, {cell(high, hi[i])}]",
            _bar(lo[i], bi[i], hi[i], scale),
            *(cell(c, getattr(res, c)[i]) for c, _ in others),
            str(int(res.n_questions[i])),
            f"{cell('rank_low', res.rank_low[i])}&ndash;{cell('rank_high', res.rank_high[i])}",
            str(int(res.tie_group[i])),
            cell("p_value", res.p_value[i]),
            cell("share_best", res.share_best[i]),
        ]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    ths = [html.escape(h) for h in head]
    ths[4] = _axis(scale, label)
    thead = "<tr>" + "".join(f"<th>{h}</th>" for h in ths) + "</tr>"
    return (
        '<table class="skbrier-leaderboard"><thead>'
        + thead
        + "</thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _what(res: Any) -> str:
    """The first sentence of the page's note: what is ranked."""
    if hasattr(res, "brier_index"):
        return "Difficulty-adjusted Brier Index (two-way fixed effects)"
    how = {
        "fixed_effects": "difficulty-adjusted (two-way fixed effects)",
        "frozen": "adjusted by frozen question effects",
        "none": "not adjusted for difficulty",
    }[res.adjustment]
    better = "higher" if res.higher_is_better else "lower"
    return (
        f"{html.escape(res.score_name)} over forecast histories ({better} is better), {how}"
    )


def leaderboard_html(res: Any, *, title: str = "Leaderboard") -> str:
    """A complete HTML page (no external resources) of either leaderboard result."""
    if not isinstance(title, str):
        raise TypeError(f"title must be a string (the page's title), got {title!r}.")
    ref = (
        ""
        if res.reference is None
        else (
            f" p-value: share of replicates in which the forecaster scores at least as "
            f"well as {html.escape(str(res.reference))}."
        )
    )
    anchor = (
        ""
        if res.anchor is None
        else (
            f" Scores are shifted so that {html.escape(str(res.anchor[0]))} scores "
            f"{res.anchor[1]:g}."
        )
    )
    paired = "Bonferroni-adjusted " if res.simultaneous else ""
    boot = (
        f"{res.n_resamples} question-bootstrap replicates, "
        f"{res.confidence_level:.0%} percentile intervals (bar: interval; dot: "
        "estimate). Tie group: one plus the number of forecasters significantly "
        f"better ({paired}paired intervals of the differences); &#9733;: the top set, "
        "whose rank interval contains 1."
        if res.n_resamples
        else "no bootstrap (n_resamples=0): no intervals."
    )
    note = f"{_what(res)}, {boot}{anchor}{ref if res.n_resamples else ''}"
    if res.n_disconnected:
        note += f" {res.n_disconnected} disconnected replicates were left out."
    style = (
        "body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
        "table{border-collapse:collapse}td,th{padding:3px 8px;border-bottom:1px solid #ddd;"
        "text-align:right}td:nth-child(2),th:nth-child(2){text-align:left}"
        "th{background:#f4f4f4}p{max-width:60em}"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{style}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{note}</p>{leaderboard_table(res)}"
        "<p><small>Made with skbrier.</small></p></body></html>\n"
    )
