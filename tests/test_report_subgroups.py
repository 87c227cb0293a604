"""The subgroup section of the calibration report (``groups=``, ``segments=``,
``skbrier report --subgroup-col``): the numbers are those of
calibration_by_group, cumulative_calibration and multicalibration_error
called directly, in text, JSON and HTML, readable on a 390 px phone."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from skbrier import metrics
from skbrier.report import calibration_report

calibration_by_group = metrics.calibration_by_group
cumulative_calibration = metrics.cumulative_calibration
multicalibration_error = metrics.multicalibration_error


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    n = 3000
    sex = rng.choice(["F", "M"], n)
    age = rng.choice(["young", "mid", "old"], n)
    p = rng.uniform(0.05, 0.6, n)
    y = (rng.uniform(size=n) < np.where(sex == "M", 1.3 * p, p)).astype(int)
    w = rng.integers(1, 4, n).astype(float)
    return y, p, w, sex, age


@pytest.fixture(scope="module")
def report(data):
    y, p, _, sex, age = data
    return calibration_report(
        y, p, groups=sex, segments={"sex": sex, "age": age}, name="m", random_state=0
    )


def test_numbers_are_the_metrics_own(data, report):
    y, p, _, sex, age = data
    sec = report.subgroups
    ref = calibration_by_group(y, p, groups=sex)
    np.testing.assert_array_equal(sec.by_group.groups, ref.groups)
    for k, v in ref.estimates.items():
        np.testing.assert_allclose(sec.by_group.estimates[k], v, rtol=1e-12, atol=1e-15)
    for k, v in ref.pvalues_holm.items():
        np.testing.assert_allclose(sec.by_group.pvalues_holm[k], v, rtol=1e-9, atol=1e-15)
    assert sec.by_group.worst_group == ref.worst_group == "M"
    assert sec.by_group.heterogeneity.q == pytest.approx(ref.heterogeneity.q, rel=1e-12)
    cum = cumulative_calibration(y, p)
    assert sec.cumulative.kuiper_pvalue == pytest.approx(cum.kuiper_pvalue, rel=1e-12)
    assert sec.cumulative.ks == pytest.approx(cum.ks, rel=1e-12)
    mce = multicalibration_error(y, p, segments={"sex": sex, "age": age})
    assert sec.multicalibration.mce_sigma == pytest.approx(mce.mce_sigma, rel=1e-12)
    assert sec.multicalibration.worst_segment == mce.worst_segment == {"sex": "M"}
    # the rest of the report is the report without groups
    plain = calibration_report(y, p, name="m", random_state=0)
    assert report.brier_score == plain.brier_score
    assert report.calibration_slope == pytest.approx(plain.calibration_slope, rel=1e-12)
    assert report.eavg == pytest.approx(plain.eavg, rel=1e-12)
    assert report.subgroups is not None and plain.subgroups is None


def test_json(data, report):
    d = json.loads(report.to_json())["subgroups"]
    y, p, _, sex, _ = data
    ref = calibration_by_group(y, p, groups=sex)
    lo, hi = ref.confidence_interval(metric="observed_expected")
    assert d["n_groups"] == 2 and [g["group"] for g in d["groups"]] == ["F", "M"]
    m = d["groups"][1]
    assert m["n"] == int(ref.n[1]) and m["events"] == float(ref.events[1])
    assert m["observed_expected"]["ci_low"] == pytest.approx(lo[1], rel=1e-12)
    assert m["observed_expected"]["ci_high"] == pytest.approx(hi[1], rel=1e-12)
    for key in ("calibration_in_the_large", "calibration_slope", "brier_score"):
        assert set(m[key]) == {"estimate", "ci_low", "ci_high"}
    assert m["pvalues_holm"]["observed_expected"] < 0.05
    assert d["worst_group"] == "M"
    assert d["heterogeneity"]["df"] == 1 and d["heterogeneity"]["q_pvalue"] < 0.05
    assert d["multicalibration"]["worst_segment"] == {"sex": "M"}
    assert d["cumulative"]["kuiper_pvalue"] < 0.05


def test_text_and_html(report):
    text = report.summary()
    assert "Subgroups (2 groups" in text
    assert "Worst group: M" in text and "Cochran's Q" in text
    assert "Multicalibration error over" in text
    page = report.to_html()
    i = page.index('<h3 class="subgroups">')
    table = page[i : page.index("</table>", i)]
    assert '<div class="scroll"><table class="wide">' in table  # scrolls sideways
    assert table.count('<td class="ci">') == 2 * 4  # 4 intervals per group


def test_weights_and_segments_only(data):
    y, p, w, sex, age = data
    rep = calibration_report(y, p, sample_weight=w, segments={"age": age})
    d = rep.to_dict()["subgroups"]
    assert [g["group"] for g in d["groups"]] == ["mid", "old", "young"]
    ref = calibration_by_group(y, p, groups=age, sample_weight=w)
    # integer weights: the lowess ICI of the repeated rows
    assert [g["ici"] for g in d["groups"]] == pytest.approx(ref.estimates["ici"])
    np.testing.assert_allclose(
        rep.subgroups.by_group.estimates["brier_score"],
        ref.estimates["brier_score"],
        rtol=1e-12,
    )
    assert math.isfinite(d["multicalibration"]["mce_sigma"])


def test_weighted_table_counts_n_and_events_on_one_scale(data):
    # audit: with sample_weight the table's n counted rows and its events
    # weights (events could exceed a group's n)
    y, p, w, sex, _ = data
    rep = calibration_report(y, p, sample_weight=w, groups=sex)
    sec = rep.subgroups
    for cells, g in zip(sec.table_rows(), sec.rows()):
        assert float(cells[1]) == pytest.approx(g["weight"], rel=1e-5)
        assert float(cells[2]) <= float(cells[1])
    assert sec.rows()[0]["weight"] > sec.rows()[0]["n"]


def test_bad_groups_fail_first(data):
    y, p, *_ = data
    with pytest.raises(ValueError, match="groups has 3 labels"):
        calibration_report(y, p, groups=["a", "b", "c"])
    with pytest.raises(ValueError, match="missing"):
        calibration_report(y, p, groups=np.where(np.arange(len(y)) == 5, None, "a"))


def test_dask_input_says_why(data):
    dd = pytest.importorskip("dask.dataframe")
    import pandas as pd

    y, p, _, sex, _ = data
    frame = dd.from_pandas(pd.DataFrame({"y": y, "p": p, "g": sex}), npartitions=3)
    rep = calibration_report(frame["y"], frame["p"], groups=frame["g"])
    assert rep.subgroups is None
    assert any(n.startswith("Subgroups: not computed for dask input") for n in rep.notes)


@pytest.fixture
def csv(tmp_path, data):
    import pandas as pd

    y, p, _, sex, age = data
    frame = pd.DataFrame({"y": y, "p": p, "q": np.clip(p + 0.05, 0, 1), "sex": sex})
    frame["age"] = age
    frame.loc[7, "age"] = None
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    return path


def test_cli_subgroup_col(csv, data, capsys):
    from skbrier.cli import main

    y, p, _, sex, age = data
    args = [str(csv), "--y-col", "y", "--p-col", "p", "--subgroup-col", "sex"]
    assert main(["report", *args, "--subgroup-col", "age", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    sub = d["subgroups"]
    assert [g["group"] for g in sub["groups"]] == ["F", "M"]
    age = age.astype(object)
    age[7] = "(missing)"
    ref = multicalibration_error(y, p, segments={"sex": sex, "age": age})
    assert sub["multicalibration"]["mce_sigma"] == pytest.approx(ref.mce_sigma, rel=1e-12)
    assert any("1 rows with no value in column 'age'" in n for n in d["notes"])
    # several models: each report has its section, in the text too
    assert main(["report", *args, "--p-col", "q"]) == 0
    out = capsys.readouterr().out
    assert out.count("Subgroups (2 groups") == 2 and "\np:\n" in out


def test_cli_help_documents_subgroup_col(capsys):
    from skbrier.cli import main

    try:
        main(["report", "--help"])
    except SystemExit:
        pass
    out = capsys.readouterr().out
    assert "--subgroup-col" in out and "--group-col" in out


def test_phone_layout_with_many_groups(tmp_path):
    """50 groups: the page still never scrolls sideways on a 390 px phone and
    no interval cell wraps (headless Chromium, as tests/test_report_browser.py)."""
    pytest.importorskip("matplotlib")
    from test_report_browser import SIZES, render

    rng = np.random.default_rng(1)
    n = 20_000
    g = rng.integers(0, 50, n)
    p = rng.uniform(0.05, 0.9, n)
    y = (rng.uniform(size=n) < p).astype(int)
    rep = calibration_report(y, p, groups=np.char.add("site-", g.astype(str)), name="m")
    out = render(rep.to_html(), tmp_path)
    m = out["phone"]["measure"]
    width = SIZES["phone"][0]
    assert m["scrollWidth"] <= width and m["bodyScrollWidth"] <= width, m
    assert m["tablesOutsideScroller"] == 0, m
    assert m["ciWrapped"] == [], m["ciWrapped"]
    assert out["phone"]["errors"] == []
