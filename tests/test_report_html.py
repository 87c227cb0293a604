"""The HTML report: verdict first, overview, overlaid figures, paired comparison,
provenance last and collapsed, tables that scroll, intervals that do not wrap,
legible figures, self-containment, the page without matplotlib, and the cheap
consistency band.  (tests/test_report_browser.py measures the layout in a
real browser.)"""

from __future__ import annotations

import builtins
import html
import re
import warnings

import numpy as np
import pytest

from skbrier.report import _figures, _text, calibration_report, reports_to_html
from skbrier.stats.compare import compare_brier


def _data(n=500, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, size=n)
    y = (rng.uniform(size=n) < p**1.2).astype(int)
    return y, p, np.clip(p * 0.8 + 0.1, 0, 1)


@pytest.fixture(scope="module")
def reports():
    y, p, q = _data()
    return {
        name: calibration_report(y, f, thresholds=[0.1, 0.3], name=name, random_state=0)
        for name, f in (("logreg", p), ("gbm", q))
    }


@pytest.fixture(scope="module")
def page(reports):
    return reports_to_html(
        reports,
        provenance={
            "command": "skbrier report f.csv",
            "input": "f.csv",
            "rows_used": {"logreg": 500, "gbm": 500},
            "columns": {"outcome": "y", "forecast": ["p1", "p2"], "weight": None},
            "extra_key": "kept",
        },
        title="Audit <2026>",
    )


def _cells(page, section):
    body = page.split(f'<section id="{section}">')[1].split("</section>")[0]
    return [
        re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", body)
    ]


def test_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>Audit &lt;2026&gt;</title>" in page
    # no external resource at all: no URL, no script, no link, no @import
    assert "http" not in page
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert not re.search(r'\b(src|href)="(?!#|data:)', page)


def test_provenance_order_and_additions(page):
    cells = _cells(page, "provenance")
    keys = cells[0::2]
    assert keys == [
        "input",
        "rows used",
        "columns",
        "command",
        "date",
        "versions",
        "extra key",
    ]
    values = dict(zip(keys, cells[1::2]))
    assert values["input"] == "f.csv"
    assert "logreg: 500" in values["rows used"]
    assert "weight: &mdash;" in values["columns"] or "weight: —" in values["columns"]
    assert re.match(r"\d{4}-\d\d-\d\d", values["date"])
    for dist in ("skbrier", "scikit-learn", "numpy", "scipy", "matplotlib"):
        assert dist + ":" in values["versions"]


def test_overview_is_a_table(reports, page):
    assert "<pre>" not in page
    cells = _cells(page, "overview")
    n_cols = len(_text.TABLE_COLUMNS) + 2
    header, rows = cells[:n_cols], cells[n_cols:]
    assert header[0] == "model" and header[1:-1] == [h for h, _ in _text.TABLE_COLUMNS]
    assert len(rows) == 2 * n_cols
    assert rows[0] == "logreg" and rows[n_cols] == "gbm"
    assert rows[3] == _text.fmt(reports["logreg"].brier_score)


def test_sections_render_summary_rows_generically(reports, monkeypatch):
    rep = reports["logreg"]
    page = reports_to_html({"logreg": rep})
    for label, estimate, *_ in _text.summary_rows(rep):
        if estimate:
            assert (
                f'<td>{html.escape(label.strip())}</td><td class="num">{estimate}</td>'
                in page
            )
    # a header of any width (h-valprob's summary_header) is rendered as given
    monkeypatch.setattr(
        _text,
        "summary_header",
        lambda r: ("", "estimate", "CI", "method", "p"),
        raising=False,
    )
    monkeypatch.setattr(
        _text,
        "summary_rows",
        lambda r: [("Overall", "", "", "", ""), ("  Brier", "0.1", "[0, 1]", "iid", "0.5")],
    )
    page = reports_to_html({"logreg": rep})
    assert "<th>method</th><th>p</th>" in page
    assert '<tr class="section"><td colspan="5">Overall</td></tr>' in page
    assert (
        '<td>Brier</td><td class="num">0.1</td><td class="ci">[0, 1]</td><td>iid</td>'
        "<td>0.5</td>" in page
    )


def test_paired_comparison_numbers(reports, page):
    y, p, w = reports["logreg"]._data
    q = reports["gbm"]._data[1]
    res = compare_brier(y, p, q, cov_type="iid")
    cells = _cells(page, "comparison")
    row = cells[cells.index("logreg &minus; gbm") :]
    assert row[1] == _text.fmt(res.difference)
    lo, hi = res.confidence_interval()
    assert row[2] == f"[{_text.fmt(lo)}, {_text.fmt(hi)}]"
    bi = reports["logreg"].brier_index - reports["gbm"].brier_index
    assert float(row[3]) == pytest.approx(bi, abs=0.006)
    assert row[5] == _text.fmt_p(res.pvalue)
    better = "logreg" if res.difference < 0 else "gbm"
    verdict = page.split('<section id="verdict">')[1].split("</section>")[0]
    assert f"{better} has the lower (better) Brier score" in verdict
    # net benefit differences = differences of the reports' own rows
    nb = {
        n: {r["threshold"]: r["model"] for r in rep.net_benefit}
        for n, rep in reports.items()
    }
    i = cells.index("threshold")
    assert cells[i + 2 : i + 4] == ["0.1", _text.fmt(nb["logreg"][0.1] - nb["gbm"][0.1])]


def test_no_comparison_for_different_outcomes():
    y, p, q = _data()
    a = calibration_report(y, p, name="a")
    b = calibration_report(y[:400], q[:400], name="b")
    page = reports_to_html({"a": a, "b": b})
    # the section says why there is no comparison (it is never dropped silently)
    comp = page.split('<section id="comparison">')[1].split("</section>")[0]
    assert "No paired comparison: a and b are scored on different rows" in comp
    assert "(500 and 400 rows)" in comp and "<table" not in comp
    assert 'id="figures"' in page  # figures still show both


@pytest.mark.skipif(not _figures.has_matplotlib(), reason="needs matplotlib")
def test_figures_inline_svg_text_as_paths(page):
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    assert len(svgs) == 2
    for svg in svgs:
        assert "<text" not in svg  # fonts drawn as paths: nothing to fetch
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # two inline SVGs never share an id
    # both models in the legend of each figure: one diagram, one decision curve
    assert (
        page.count('id="fig-reliability"') == 1
        and page.count('id="fig-decision_curve"') == 1
    )


@pytest.mark.skipif(not _figures.has_matplotlib(), reason="needs matplotlib")
def test_reliability_figure_artists(reports):
    """The calibration figure is CalibrationCurveDisplay: each model's loess
    curve, deciles, statistics; one note per model."""
    import matplotlib

    matplotlib.use("Agg")
    fig, notes = _figures._reliability_figure(reports)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels.count("ideal") == 1
    assert {"logreg", "gbm", "groups, 95% Wilson"} <= set(labels)
    assert len(notes) == 2 and "loess calibration curve" in notes[0]


def test_without_matplotlib_one_warning(reports, monkeypatch):
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        page = reports_to_html(reports)
    msgs = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert len(msgs) == 1 and "matplotlib" in msgs[0]
    assert "Figures need matplotlib" in page and "<svg" not in page
    assert 'id="comparison"' in page  # the numbers are all there


def test_bad_arguments(reports):
    with pytest.raises(TypeError, match="provenance"):
        reports_to_html(reports, provenance=["a"])
    with pytest.raises(TypeError, match="title"):
        reports_to_html(reports, title=3)


def _section_ids(page):
    body = page.split("<body>")[1]
    return re.findall(r'^<section(?: id="([^"]*)")?>', body, flags=re.M)


def test_verdict_first_provenance_last_and_collapsed(reports, page):
    ids = _section_ids(page)
    assert ids[:4] == ["verdict", "overview", "figures", "comparison"], ids
    assert ids[-1] == "provenance" and ids[4:-1] == ["", ""], ids  # one per model
    prov = page.split('<section id="provenance">')[1].split("</section>")[0]
    # collapsed: a <details> without "open", its summary names what is inside
    assert prov.startswith("<details><summary><h2>Provenance</h2>")
    assert "<details open" not in page
    assert "</details>" in prov


def test_verdict_says_who_is_better_and_how_each_is_calibrated(reports, page):
    verdict = page.split('<section id="verdict">')[1].split("</section>")[0]
    assert verdict.index('class="verdict"') < verdict.index("logreg: Brier score")
    for name, rep in reports.items():
        # the same words as report_verdict, intervals kept on one line
        text = html.escape(_text.report_verdict(rep, name))
        assert re.sub(r"(\[[^\]\s]+), ", r"\1,&nbsp;", text) in verdict


def test_report_verdict_names_the_failed_checks():
    rng = np.random.default_rng(5)
    n = 3000
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    good = calibration_report(y, p, name="good")
    text = _text.report_verdict(good)
    assert text.startswith("good: Brier score ")
    assert "no evidence of miscalibration at the 95% level" in text
    lo, hi = good.confidence_interval(metric="observed_expected")
    assert f"O/E {_text.fmt(good.observed_expected, 3)} {_text.fmt_ci((lo, hi), 3)}" in text
    # too low and too extreme: more events than forecast, slope below 1
    low = 1 / (1 + np.exp(-(2 * np.log(p / (1 - p)) - 0.7)))
    bad = _text.report_verdict(calibration_report(y, low), name="bad")
    assert bad.startswith("bad: ") and "evidence of miscalibration" in bad
    assert "under-forecasts risk on average" in bad and "forecasts too extreme" in bad
    assert "Spiegelhalter test p < 0.0001" in bad
    # too high and too moderate
    high = 1 / (1 + np.exp(-(0.5 * np.log(p / (1 - p)) + 0.7)))
    bad = _text.report_verdict(calibration_report(y, high))
    assert "over-forecasts risk on average" in bad and "forecasts too moderate" in bad


def test_every_table_scrolls_and_intervals_do_not_wrap(page):
    assert page.count("<table") == page.count('<div class="scroll"><table')
    assert ".scroll { overflow-x: auto;" in page
    assert re.search(r"\.ci, \.num, \.pair \{ white-space: nowrap; \}", page)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    # every interval cell, wherever it is, carries the class that keeps it on one line
    cells = re.findall(r"<td([^>]*)>(\[[^<]*\])</td>", page)
    assert len(cells) >= 20
    assert all(attrs == ' class="ci"' for attrs, _ in cells)


@pytest.mark.skipif(not _figures.has_matplotlib(), reason="needs matplotlib")
def test_figures_legible_on_a_phone(reports):
    """No text below MIN_FONT_PT on a figure at most FIG_WIDTH_IN wide: on a
    390 px phone (366 px of content) that is at least 9 CSS px."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    figs = [_figures._reliability_figure(reports)[0], _figures._decision_figure(reports)]
    for fig in figs:
        FigureCanvasAgg(fig).draw()
        sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_text()]
        assert min(sizes) >= _figures.MIN_FONT_PT
        width = fig.get_tightbbox().width  # inches, as the SVG is cut
        assert width <= _figures.FIG_WIDTH_IN + 0.05
        assert _figures.MIN_FONT_PT * 366 / (72 * width) >= 9


def test_verdict_of_many_reports_names_the_miscalibrated_ones():
    """Groups: above VERDICT_MAX_MODELS reports the verdict counts, then
    names only the reports whose calibration checks fail."""
    from skbrier.report import _html

    rng = np.random.default_rng(2)
    reps = {}
    for k in range(_html.VERDICT_MAX_MODELS + 2):
        p = rng.uniform(0.05, 0.95, 400)
        y = (rng.uniform(size=400) < p).astype(int)
        f = np.clip(p + 0.25, 0, 1) if k in (1, 4) else p  # two over-forecast
        reps[f"g{k}"] = calibration_report(y, f)
    page = reports_to_html(reps)
    verdict = page.split('<section id="verdict">')[1].split("</section>")[0]
    bad = [n for n, r in reps.items() if _text.calibration_checks(r)[0]]
    assert {"g1", "g4"} <= set(bad)
    assert f"{len(bad)} of {len(reps)} reports show evidence of miscalibration" in verdict
    named = re.findall(r"<li>(g\d+): Brier score", verdict)
    assert named == bad


def test_weighted_report_figure_shows_no_nan():
    # three weighted rows: the figure's curve has no ICI or E90 and its
    # statistics box printed "ICI nan  E90 nan" (into the SVG of the page)
    pytest.importorskip("matplotlib")
    y, p, w = [0, 0, 1], [0.672, 0.22, 0.313], [4.0, 1.0, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = calibration_report(y, p, sample_weight=w).to_html()
    assert "ICI n/a" in page
    assert not re.search(r"\bnan\b", page, re.IGNORECASE)


def test_many_reports_verdict_names_no_single_level_when_they_differ():
    # above VERDICT_MAX_MODELS reports the count said "at the 95% level"
    # (the first report's) whatever level the others used
    from skbrier.report._html import VERDICT_MAX_MODELS

    rng = np.random.default_rng(13)
    p = rng.uniform(0.05, 0.95, 60)
    y = (rng.uniform(size=60) < p).astype(int)
    reps = {
        f"m{k}": calibration_report(
            y, p ** (1 + k / 10), confidence_level=0.9 if k else 0.95, name=f"m{k}"
        )
        for k in range(VERDICT_MAX_MODELS + 1)
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = reports_to_html(reps)
    verdict = page[
        page.index('id="verdict"') : page.index("</section>", page.index('id="verdict"'))
    ]
    assert "at the 95% level" not in verdict
    assert "at the confidence level of each report" in verdict
