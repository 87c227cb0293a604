"""Several models, one with a missing forecast (issue item 8): by default every
model is scored on the same rows (numbers against R on those rows, the rows
dropped per model in the provenance), ``--na per-model`` scores each on its
own rows; the paired comparison is shown in the text and the HTML or they
say why not; the decision curve has one treat-all line when the rows are
the same.  References: tests/fixtures/report_rows/expected.json, made by
make_expected.R (rms::val.prob) from two_models.csv (make_two_models.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from skbrier.cli import main
from skbrier.report import _figures, _text, calibration_report, reports_to_html
from skbrier.report._compare import paired_comparison

HERE = Path(__file__).resolve().parent / "fixtures" / "report_rows"
CSV = HERE / "two_models.csv"
R = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
BASE = ["report", str(CSV), "--y-col", "y", "--p-col", "model_a", "--p-col", "model_b"]
THRESHOLDS = ["--threshold", "0.1", "--threshold", "0.2", "--random-state", "0"]


@pytest.fixture
def cli(capsys):
    def _run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main([*BASE, *THRESHOLDS, *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return _run


def _json(cli, *args):
    code, out, err = cli("--json", *args)
    assert code == 0, err
    return {rep["name"]: rep for rep in json.loads(out)["reports"]}


def test_json_has_the_paired_comparison_of_compare_brier(cli):
    """--json of several models: ``{"reports": [...], "comparison": {...}}``,
    the comparison being compare_brier's on the common rows of the file."""
    from skbrier import compare_brier

    code, out, err = cli("--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"reports", "comparison"}
    assert [r["name"] for r in data["reports"]] == ["model_a", "model_b"]
    comp = data["comparison"]
    assert comp["reason"] is None and comp["confidence_level"] == 0.95
    (pair,) = comp["pairs"]
    assert (pair["first"], pair["second"]) == ("model_a", "model_b")
    frame = np.genfromtxt(CSV, delimiter=",", names=True)
    keep = ~(np.isnan(frame["y"]) | np.isnan(frame["model_a"]) | np.isnan(frame["model_b"]))
    y, a, b = frame["y"][keep], frame["model_a"][keep], frame["model_b"][keep]
    ref = compare_brier(y, a, b)
    assert pair["brier_score_difference"]["estimate"] == pytest.approx(
        float(ref.difference), abs=1e-12
    )
    assert pair["brier_score_difference"]["ci"] == pytest.approx(
        [float(v) for v in ref.confidence_interval(0.95, metric="brier_score")], abs=1e-12
    )
    assert pair["brier_index_difference"]["estimate"] == pytest.approx(
        float(ref.brier_index_difference), abs=1e-12
    )
    assert pair["pvalue"] == pytest.approx(float(ref.pvalue), abs=1e-12)
    assert pair["cov_type"] == "iid"
    # and R's numbers (the same as the text's)
    assert pair["brier_score_difference"]["estimate"] == pytest.approx(
        R["comparison"]["difference"], abs=1e-9
    )
    nb = {r["threshold"] for r in comp["net_benefit"]}
    assert nb == {0.1, 0.2}


def test_json_says_why_no_comparison_per_model(cli):
    code, out, err = cli("--json", "--na", "per-model")
    assert code == 0, err
    comp = json.loads(out)["comparison"]
    assert comp["pairs"] == [] and comp["net_benefit"] == []
    assert comp["reason"].startswith(
        "No paired comparison: model_a and model_b are scored on different rows"
    )


@pytest.mark.parametrize("policy", ["common", "per_model"])
def test_numbers_match_r_on_the_rows_of_each_policy(cli, policy):
    reps = _json(cli, *(["--na", "per-model"] if policy == "per_model" else []))
    for model in ("model_a", "model_b"):
        ref, rep = R[policy][model], reps[model]
        assert rep["n_samples"] == ref["n"]
        assert rep["brier_score"]["estimate"] == pytest.approx(ref["brier"], abs=1e-12)
        assert rep["calibration_intercept"]["estimate"] == pytest.approx(
            ref["intercept"], abs=1e-6
        )
        assert rep["calibration_slope"]["estimate"] == pytest.approx(ref["slope"], abs=1e-6)


def test_one_treat_all_on_the_common_rows(cli):
    reps = _json(cli)
    for ref in R["net_benefit"]:
        rows = [
            next(r for r in reps[m]["net_benefit"] if r["threshold"] == ref["threshold"])
            for m in ("model_a", "model_b")
        ]
        # the same rows: one treat-all value for both models, R's
        for r, m in zip(rows, ("model_a", "model_b")):
            assert r["treat_all"] == pytest.approx(ref["treat_all"], abs=1e-12)
            assert r["model"] == pytest.approx(ref[m], abs=1e-12)


def test_rows_notes_say_why(cli):
    reps = _json(cli)
    note = (
        "Rows used: 796 of 800; 4 dropped for a missing outcome, forecast or weight "
        "(3 of them only because another model's forecast is missing: every model "
        "is scored on the same rows; --na per-model scores each on its own rows)."
    )
    assert note in reps["model_a"]["notes"]
    assert (
        "Rows used: 796 of 800; 4 dropped for a missing outcome, forecast or weight."
        in reps["model_b"]["notes"]
    )
    reps = _json(cli, "--na", "per-model")
    assert (
        "Rows used: 799 of 800; 1 dropped for a missing outcome, forecast or weight."
        in reps["model_a"]["notes"]
    )


def _comparison_numbers(text: str) -> list[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith("model_a - model_b"))
    return line.split()[3:]


def test_text_shows_the_paired_comparison(cli):
    code, out, _ = cli()
    assert code == 0
    assert "Paired comparison" in out
    ref = R["comparison"]
    cells = _comparison_numbers(out)
    assert cells[0] == _text.fmt(ref["difference"])
    lo, hi = ref["ci"]
    assert f"{cells[1]} {cells[2]}" == _text.fmt_ci((lo, hi))
    assert _text.fmt_p(ref["pvalue"]) in out
    assert "model_a has the lower (better) Brier score than model_b" in out
    assert "Net benefit differences" in out


def test_text_says_why_no_comparison_per_model(cli):
    code, out, _ = cli("--na", "per-model")
    assert code == 0
    assert (
        "Paired comparison\nNo paired comparison: model_a and model_b are scored on " in out
    )
    assert "(799 and 796 rows)" in out


def test_html_provenance_comparison_and_one_treat_all(cli, tmp_path):
    page_path = tmp_path / "r.html"
    code, _, err = cli("--html", str(page_path))
    assert code == 0, err
    page = page_path.read_text(encoding="utf-8")
    prov = page.split('<section id="provenance">')[1].split("</section>")[0]
    assert "rows used</th><td>model_a: 796<br>model_b: 796" in prov
    assert "rows dropped</th><td>model_a: 4<br>model_b: 4" in prov
    assert "missing forecast of another model: 3" in prov
    assert "every model on the same rows" in prov
    comp = page.split('<section id="comparison">')[1].split("</section>")[0]
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", comp)]
    i = cells.index("model_a &minus; model_b")
    assert cells[i + 1] == _text.fmt(R["comparison"]["difference"])


def test_html_says_why_no_comparison(cli, tmp_path):
    page_path = tmp_path / "r.html"
    assert cli("--na", "per-model", "--html", str(page_path))[0] == 0
    page = page_path.read_text(encoding="utf-8")
    comp = page.split('<section id="comparison">')[1].split("</section>")[0]
    assert "No paired comparison: model_a and model_b are scored on different rows" in comp
    assert "<table" not in comp


def _reports(per_model: bool):
    d = np.genfromtxt(CSV, delimiter=",", names=True)
    y, a, b = d["y"], d["model_a"], d["model_b"]
    ok_a = ~np.isnan(y) & ~np.isnan(a)
    ok_b = ~np.isnan(y) & ~np.isnan(b)
    if not per_model:
        ok_a = ok_b = ok_a & ok_b
    return {
        "model_a": calibration_report(y[ok_a], a[ok_a], name="model_a", random_state=0),
        "model_b": calibration_report(y[ok_b], b[ok_b], name="model_b", random_state=0),
    }


@pytest.mark.skipif(not _figures.has_matplotlib(), reason="needs matplotlib")
@pytest.mark.parametrize("per_model", [False, True])
def test_decision_curve_treat_all_lines(per_model):
    import matplotlib

    matplotlib.use("Agg")
    fig = _figures._decision_figure(_reports(per_model))
    labels = [ln.get_label() for ln in fig.axes[0].get_lines()]
    treat_all = [lab for lab in labels if lab.lower().startswith("treat all")]
    if per_model:  # different rows: one line per set of rows, each named
        assert sorted(treat_all) == ["Treat all (model_a)", "Treat all (model_b)"]
    else:
        assert len(treat_all) == 1


def test_library_comparison_same_rows_and_different_rows():
    comp = paired_comparison(_reports(False))
    assert comp is not None and comp.reason is None and len(comp.pairs) == 1
    pc = comp.pairs[0]
    assert pc.difference == pytest.approx(R["comparison"]["difference"], abs=1e-12)
    assert pc.pvalue == pytest.approx(R["comparison"]["pvalue"], rel=1e-9)
    np.testing.assert_allclose(pc.ci, R["comparison"]["ci"], rtol=1e-9)
    # the Brier Index difference has its interval too (metric="brier_index")
    lo, hi = pc.brier_index_ci or (np.nan, np.nan)
    assert lo < pc.brier_index_difference < hi
    comp = paired_comparison(_reports(True))
    assert comp is not None and comp.pairs == []
    assert "different rows (799 and 796 rows)" in (comp.reason or "")
    assert paired_comparison({"a": _reports(False)["model_a"]}) is None


def test_library_html_same_length_different_outcomes():
    rng = np.random.default_rng(1)
    p = rng.uniform(0.05, 0.95, 300)
    y1 = (rng.uniform(size=300) < p).astype(int)
    y2 = (rng.uniform(size=300) < p).astype(int)
    reps = {"a": calibration_report(y1, p), "b": calibration_report(y2, p)}
    page = reports_to_html(reps)
    comp = page.split('<section id="comparison">')[1].split("</section>")[0]
    assert "a and b forecast different outcomes" in comp
    assert "Paired comparison\nNo paired comparison" in _text.comparison_text(reps)


def test_groups_compare_models_within_each_group(tmp_path, capsys):
    rng = np.random.default_rng(3)
    n = 400
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    q = np.clip(p + rng.normal(0, 0.1, n), 0.01, 0.99)
    g = np.where(np.arange(n) < 200, "x", "y")
    f = tmp_path / "g.csv"
    rows = ["g,y,a,b"] + [f"{g[i]},{y[i]},{p[i]:.6f},{q[i]:.6f}" for i in range(n)]
    f.write_text("\n".join(rows) + "\n")
    args = ["report", str(f), "--y-col", "y", "--p-col", "a", "--p-col", "b"]
    assert main([*args, "--group-col", "g"]) == 0
    out = capsys.readouterr().out
    pairs = [ln.split("  ")[0] for ln in out.splitlines() if re.match(r"^[xy] / a - ", ln)]
    assert pairs == ["x / a - x / b", "y / a - y / b"]
    assert "4 of 6 pairs are not compared: they are scored on different rows" in out


def test_dask_reports_on_a_subsample_say_why_not(monkeypatch):
    dd = pytest.importorskip("dask.dataframe")
    import pandas as pd

    from skbrier._backends._dask import _report as dask_report

    monkeypatch.setattr(dask_report, "SUBSAMPLE_SIZE", 500)
    rng = np.random.default_rng(5)
    p = rng.uniform(0.05, 0.95, 2000)
    y = (rng.uniform(size=2000) < p).astype(int)
    frame = dd.from_pandas(pd.DataFrame({"y": y, "a": p, "b": p**1.1}), npartitions=2)
    reps = {
        m: calibration_report(frame["y"], frame[m], random_state=0, name=m)
        for m in ("a", "b")
    }
    text = _text.comparison_text(reps)
    assert "a and b keep only a subsample of their rows (dask input)" in text
