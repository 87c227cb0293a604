"""The TRIPOD+AI report: its checklist against TRIPOD+AI's own table, its
numbers against the calibration report's, its page and the command line."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from skbrier.report import calibration_report, tripod_report
from skbrier.report._tripod import CHECKLIST_SCHEMA, PERFORMANCE_MEASURES
from skbrier.report._tripod_items import ITEMS, SECTIONS
from skbrier.validation import achieved_precision

FIXTURE = Path(__file__).parent / "fixtures" / "tripod_ai" / "items.json"
ITEM_KEYS = {
    "id",
    "topic",
    "applies_to",
    "text",
    "status",
    "section",
    "section_title",
    "to_supply",
}
PROVENANCE = {"input": "cohort.csv", "date": "2026-01-01", "versions": {"skbrier": "test"}}


def _data(n: int = 400, seed: int = 0):
    rng = np.random.default_rng(seed)
    p = 1 / (1 + np.exp(-rng.normal(-1.2, 1.0, n)))
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p


@pytest.fixture(scope="module")
def rep():
    y, p = _data()
    return calibration_report(y, p, thresholds=[0.2], random_state=0, name="model")


@pytest.fixture(scope="module")
def trip(rep):
    y, p = _data()
    sub = calibration_report(y[:200], p[:200], random_state=0, name="women")
    return tripod_report(
        rep,
        subgroups={"women": sub},
        missing={"missing outcome": 4, "missing forecast": 1},
        provenance=PROVENANCE,
    )


# -- the checklist against TRIPOD+AI's table ---------------------------------
def test_items_are_tripod_ai_items_word_for_word():
    table = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert table["source_url"] == "https://doi.org/10.1136/bmj-2023-078378"
    by_id = {it["id"]: it for it in table["items"]}
    assert len(by_id) == len(table["items"]) == 52
    for item in ITEMS:
        ref = by_id[item.id]
        assert (item.topic, item.applies_to, item.text) == (
            ref["topic"],
            ref["applies_to"],
            ref["text"],
        ), item.id
    # in the checklist's order
    order = [it["id"] for it in table["items"]]
    ids = [item.id for item in ITEMS]
    assert ids == sorted(ids, key=order.index)


def test_checklist_covers_the_performance_items():
    table = json.loads(FIXTURE.read_text(encoding="utf-8"))["items"]
    ids = {item.id for item in ITEMS}
    # every item on the evaluation alone, and the items on sample size,
    # missing data, measures, participants, performance and limitations
    assert {it["id"] for it in table if it["applies_to"] == "E"} <= ids
    assert {"10", "11", "12d", "12e", "20a", "20b", "21", "23a", "23b", "26"} <= ids
    # the examples of what to supply: eligibility criteria, predictors
    assert {"6b", "9b"} <= ids
    # items of development only are not asked of an evaluation
    assert not {it["id"] for it in table if it["applies_to"] == "D"} & ids
    for item in ITEMS:
        assert item.section is None or item.section in SECTIONS
        assert item.section is not None or item.to_supply


def test_checklist_schema_is_stable(trip):
    d = trip.checklist_dict()
    assert set(d) == {"schema", "guideline", "checklist", "provenance"}
    assert d["schema"] == CHECKLIST_SCHEMA == "skbrier.tripod_checklist/1"
    assert d["guideline"]["url"] == "https://doi.org/10.1136/bmj-2023-078378"
    assert [it["id"] for it in d["checklist"]] == [item.id for item in ITEMS]
    for it in d["checklist"]:
        assert set(it) == ITEM_KEYS
        assert it["status"] in ("answered", "to supply")
        assert (it["status"] == "answered") == (it["section"] is not None)
        assert it["status"] == "answered" or it["to_supply"]
    assert json.loads(trip.to_json(checklist_only=True)) == d
    full = json.loads(trip.to_json())
    assert set(full) == {
        "schema",
        "guideline",
        "checklist",
        "provenance",
        "models",
        "subgroups",
    }
    assert set(full["models"]["model"]) == {
        "n_samples",
        "n_events",
        "prevalence",
        "confidence_level",
        "performance",
        "net_benefit",
        "sample_size",
        "risk_distribution",
        "missing",
        "subgroup_section",
    }


def test_report_subgroup_section_answers_23a():
    """A report with its own subgroup section (``groups=``): the TRIPOD page
    shows that section, its JSON is the report's, and item 23a is answered."""
    y, p = _data(600, seed=3)
    sex = np.where(np.arange(600) % 3 == 0, "women", "men")
    rep = calibration_report(y, p, groups=sex, random_state=0, name="model")
    trip = tripod_report(rep)
    status = {it["id"]: it for it in trip.checklist()}
    assert status["23a"]["to_supply"] is None
    d = json.loads(trip.to_json())
    assert d["models"]["model"]["subgroup_section"] == json.loads(
        json.dumps(rep.to_dict()["subgroups"])
    )
    page = trip.to_html()
    assert '<section id="subgroups">' in page and "women" in page and "men" in page


def test_status_follows_what_is_given(rep, trip):
    status = {it["id"]: it for it in trip.checklist()}
    assert status["10"]["section"] == "sample-size"
    assert status["11"]["section"] == "missing-data"
    assert status["23a"]["status"] == "answered" and status["23a"]["to_supply"] is None
    assert status["6b"]["status"] == "to supply"
    bare = {it["id"]: it for it in rep.tripod().checklist()}
    assert bare["11"]["status"] == "to supply" and "missing=" in bare["11"]["to_supply"]
    assert "subgroups=" in bare["23a"]["to_supply"]
    assert trip.n_answered + trip.n_to_supply == len(ITEMS)


def test_markdown_has_one_row_per_item(trip):
    md = trip.to_markdown()
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert len(rows) == 2 + len(ITEMS)  # header, separator, items
    assert "bmj-2023-078378" in md and "cohort.csv" in md
    assert "| 11 | Missing data | answered | Missing data |" in md


# -- the numbers are the report's ---------------------------------------------
def test_performance_numbers_are_the_reports(rep, trip):
    d = rep.to_dict()
    perf = trip.to_dict()["models"]["model"]["performance"]
    assert set(perf) == set(PERFORMANCE_MEASURES)
    for metric in PERFORMANCE_MEASURES:
        if metric == "eavg":
            assert perf[metric]["estimate"] == d["lowess"]["eavg"] == rep.eavg
        else:
            assert perf[metric] == d[metric]
    assert trip.to_dict()["models"]["model"]["net_benefit"] == d["net_benefit"]


def test_sample_size_is_achieved_precision(rep, trip):
    y, p = _data()
    ref = achieved_precision(
        y, p, threshold=0.2, random_state=rep._figure_seed, confidence_level=0.95
    )
    got = trip.to_dict()["models"]["model"]["sample_size"]
    assert got["statements"] == ref.statements
    for row in got["measures"]:
        k = row["measure"]
        assert row["width"] == ref.widths[k] and row["met"] == ref.met[k]
        assert row["sample_size_needed"] == ref.sample_size_needed[k]
    # 400 patients cannot judge the slope to +-0.1
    assert any(
        s.startswith("This sample is too small to judge the calibration slope to ±0.1")
        for s in got["statements"]
    )


def test_risk_distribution_by_outcome(trip):
    y, p = _data()
    dist = trip.to_dict()["models"]["model"]["risk_distribution"]
    assert dist["events"]["n"] == y.sum()
    assert dist["events"]["quantiles"]["0.5"] == pytest.approx(np.median(p[y == 1]))
    assert dist["non_events"]["mean"] == pytest.approx(p[y == 0].mean())


# -- the page -----------------------------------------------------------------
class _Checker(HTMLParser):
    VOID = {"meta", "br", "img", "input", "link", "hr", "col", "path", "use", "rect"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: list[str] = []
        self.sections: list[str] = []
        self.errors: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
            if tag == "section":
                self.sections.append(a["id"])
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if "id" in dict(attrs):
            self.ids.append(dict(attrs)["id"])

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def test_page_is_valid_html_with_the_sections_in_order(trip, rep):
    page = trip.to_html()
    parser = _Checker()
    parser.feed(page)
    assert parser.errors == [] and parser.stack == []
    assert len(parser.ids) == len(set(parser.ids))
    expected = [s for s in SECTIONS]
    assert parser.sections == [*expected, "checklist", "provenance"]
    text = " ".join(parser.text)
    for label in PERFORMANCE_MEASURES.values():
        assert label in text
    # the numbers shown are the report's, as its own table formats them
    from skbrier.report._text import fmt, fmt_ci

    assert fmt(rep.brier_score) in text and fmt(rep.calibration_slope) in text
    ci = rep.confidence_interval(metric="c_statistic")
    assert fmt_ci(ci) in text
    assert "This sample is too small to judge the calibration slope" in text
    assert "5 of 405 rows were left out" in text
    assert "<script" not in page and "http://" not in page


def test_to_html_template(rep, tmp_path):
    out = tmp_path / "t.html"
    page = rep.to_html(out, template="tripod")
    assert out.read_text(encoding="utf-8") == page
    assert "TRIPOD+AI checklist" in page
    assert "Verdict" in rep.to_html()
    with pytest.raises(ValueError, match="template"):
        rep.to_html(template="consort")


def test_errors_name_the_parameter(rep):
    with pytest.raises(TypeError, match="missing"):
        tripod_report(rep, missing=[3])
    with pytest.raises(ValueError, match=r"missing\['outcome'\]"):
        tripod_report(rep, missing={"outcome": -1})
    with pytest.raises(TypeError, match=r"missing\['outcome'\]"):
        tripod_report(rep, missing={"outcome": 1.5})
    with pytest.raises(ValueError, match="missing has no entry for the model 'model'"):
        tripod_report(rep, missing={"other": {"outcome": 1}})
    per_model = tripod_report(rep, missing={"model": {"outcome": 2}})
    assert per_model.missing == {"model": {"outcome": 2}}
    with pytest.raises(ValueError, match="slope_ci_width"):
        tripod_report(rep, slope_ci_width=0)
    with pytest.raises(TypeError, match="reports"):
        tripod_report({"a": 3})


# -- the command line ---------------------------------------------------------
@pytest.fixture
def csv(tmp_path):
    y, p = _data(300, seed=1)
    lines = ["y,p,sex"]
    for i, (yi, pi) in enumerate(zip(y, p)):
        lines.append(f"{'' if i < 3 else yi},{pi:.6f},{'fm'[i % 2]}")
    lines.append("1,NA,f")
    path = tmp_path / "cohort.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _main(*args: str) -> int:
    from skbrier.cli import main

    return main(list(args))


def test_cli_writes_page_and_checklists(csv, tmp_path, capsys):
    out = tmp_path / "out" / "tripod.html"
    out.parent.mkdir()
    code = _main(
        "report", str(csv), "--y-col", "y", "--p-col", "p", "--tripod",
        "--html", str(out), "--random-state", "0", "--threshold", "0.2",
    )  # fmt: skip
    assert code == 0
    assert "checklist" in capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    checklist = json.loads((out.parent / "checklist.json").read_text(encoding="utf-8"))
    md = (out.parent / "checklist.md").read_text(encoding="utf-8")
    assert checklist["schema"] == CHECKLIST_SCHEMA
    assert checklist["provenance"]["input"] == str(csv)
    assert checklist["provenance"]["sha256"]
    items = {it["id"]: it for it in checklist["checklist"]}
    assert items["11"]["status"] == "answered"
    assert "4 of 301 rows were left out" in page
    assert "missing outcome or weight: 3; missing forecast: 1" in page
    assert md.count("\n| ") == len(ITEMS) + 2
    parser = _Checker()
    parser.feed(page)
    assert parser.errors == []
    # the numbers are those of the report of the same rows
    y, p = _data(300, seed=1)
    rep = calibration_report(y[3:], p[3:])
    from skbrier.report._text import fmt

    assert fmt(rep.brier_score) in page and fmt(rep.calibration_slope) in page


def test_cli_groups_are_subgroups(csv, tmp_path):
    out = tmp_path / "g.html"
    code = _main(
        "report", str(csv), "--y-col", "y", "--p-col", "p", "--group-col", "sex",
        "--tripod", "--html", str(out), "--random-state", "0",
    )  # fmt: skip
    assert code == 0
    parser = _Checker()
    parser.feed(out.read_text(encoding="utf-8"))
    assert "subgroups" in parser.sections
    checklist = json.loads((tmp_path / "checklist.json").read_text(encoding="utf-8"))
    assert {it["id"]: it for it in checklist["checklist"]}["23a"]["to_supply"] is None


def test_cli_refuses_before_computing(csv, tmp_path, capsys):
    code = _main("report", str(csv), "--y-col", "y", "--p-col", "p", "--tripod")
    assert code == 2
    assert "--tripod" in capsys.readouterr().err
    (tmp_path / "checklist.md").write_text("mine", encoding="utf-8")
    code = _main(
        "report", str(csv), "--y-col", "y", "--p-col", "p", "--tripod",
        "--html", str(tmp_path / "t.html"),
    )  # fmt: skip
    assert code == 2
    assert "checklist.md" in capsys.readouterr().err
    assert (tmp_path / "checklist.md").read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / "t.html").exists()


# -- a 390 px phone -----------------------------------------------------------
def test_page_reads_on_a_phone(trip, tmp_path):
    browser = pytest.importorskip("test_report_browser")
    browser.need_chromium()
    measured = browser.render(trip.to_html(), tmp_path)["phone"]
    m = measured["measure"]
    assert measured["errors"] == []
    assert m["scrollWidth"] <= 390 and m["bodyScrollWidth"] <= 390, m
    assert m["tablesOutsideScroller"] == 0, m
    assert m["ciWrapped"] == [], m["ciWrapped"]


def test_a_weighted_report_without_the_lowess_ici_gives_it_as_not_available():
    """A report with non-integer sample_weight has no lowess curve (its note
    says so): the TRIPOD report gives the ICI as n/a (was: TypeError
    'NoneType' object is not subscriptable).  Integer weights give the lowess
    of the repeated rows, and the TRIPOD report its ICI."""
    y, p = _data(n=60, seed=9)
    w = np.random.default_rng(9).integers(0, 3, y.size).astype(float)
    w[:2] = 1.0
    rep_i = calibration_report(
        y, p, sample_weight=w, thresholds=[0.2], random_state=0, name="model"
    )
    perf_i = tripod_report(rep_i, missing={}).to_dict()["models"]["model"]["performance"]
    assert perf_i["eavg"]["estimate"] == pytest.approx(rep_i.eavg)
    w = w * 0.75  # not integers
    rep_w = calibration_report(
        y, p, sample_weight=w, thresholds=[0.2], random_state=0, name="model"
    )
    trip_w = tripod_report(rep_w, missing={})
    assert trip_w.to_html() and trip_w.to_markdown()
    perf = trip_w.to_dict()["models"]["model"]["performance"]
    assert perf["eavg"]["estimate"] is None
    assert perf["brier_score"]["estimate"] == pytest.approx(rep_w.brier_score)


def test_sample_size_table_shows_na_not_none():
    # three rows, one non-event: C has no interval and no sample size
    # that would meet its target; the table printed the Python "None"
    import re
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = tripod_report(calibration_report([0, 1, 1], [0.3, 0.6, 0.2])).to_html()
    text = re.sub(r"<script.*?</script>|<style.*?</style>", "", page, flags=re.S)
    assert not re.search(r">\s*None\s*<", text)
    row = next(r for r in text.split("<tr>") if r.startswith("<td>C statistic"))
    assert row.count(">n/a<") >= 2


def test_tripod_report_errors_name_the_parameter():
    # a list of reports was wrapped as one report ("reports['forecast'] must
    # be a CalibrationReport, got list") and a bad subgroups argument was
    # reported as "reports"
    rng = np.random.default_rng(4)
    p = rng.uniform(0.05, 0.95, 40)
    y = (rng.uniform(size=40) < p).astype(int)
    rep = calibration_report(y, p)
    with pytest.raises(TypeError, match=r"^reports must be .*got list \(name them"):
        tripod_report([rep])
    with pytest.raises(TypeError, match=r"^subgroups must be .*got list \(name them"):
        tripod_report(rep, subgroups=[rep])
    with pytest.raises(TypeError, match=r"^subgroups\['x'\] must be a CalibrationReport"):
        tripod_report(rep, subgroups={"x": 1})
