"""The ``skbrier`` command line, run for real in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from skbrier.datasets import load_forecasts
from skbrier.metrics.brier import brier_score
from skbrier.metrics.calibration import calibration_intercept_slope, spiegelhalter_z

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "skbrier" / "datasets" / "data" / "forecasts.csv"


def run(*args: str, cwd: Path | None = None, stdin: str | None = None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["MPLBACKEND"] = "Agg"
    return subprocess.run(  # noqa: PLW1510 - the exit code is the point
        [sys.executable, "-m", "skbrier", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        input=stdin,
        timeout=120,
    )


class _Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def run_main(capsys, monkeypatch):
    """The same command through ``skbrier.cli.main`` in this process (fast);
    the subprocess tests above cover the real entry point."""
    import io

    from skbrier.cli import main

    def _run(*args: str, stdin: str | None = None) -> _Result:
        capsys.readouterr()
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(list(args))
        out = capsys.readouterr()
        return _Result(code, out.out, out.err)

    return _run


def assert_one_line_error(res, *fragments: str):
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("skbrier: error: ")
    assert "Traceback" not in res.stderr
    for f in fragments:
        assert f in lines[0], lines[0]
    assert res.stdout == ""


@pytest.fixture(scope="module")
def long_csv(tmp_path_factory):
    """The bundled data in long format: forecaster, y, p."""
    d = load_forecasts()
    path = tmp_path_factory.mktemp("csv") / "long.csv"
    with path.open("w") as fh:
        fh.write("forecaster,outcome,prob\n")
        for m in ("model_a", "model_b"):
            for yi, pi in zip(d["y"], d[m]):
                fh.write(f"{m},{int(yi)},{float(pi)!r}\n")
    return path


def test_report_single_column_prints_the_audit():
    res = run("report", str(BUNDLED), "--y-col", "y", "--p-col", "model_b")
    assert res.returncode == 0, res.stderr
    d = load_forecasts()
    a, b = calibration_intercept_slope(d["y"], d["model_b"])
    out = res.stdout
    assert out.startswith("Calibration report: model_b")
    assert f"{brier_score(d['y'], d['model_b']):.4f}" in out
    assert f"{a:.4f}" in out and f"{b:.4f}" in out
    assert "Traceback" not in res.stderr


def test_report_json_matches_library():
    res = run("report", str(BUNDLED), "--y-col", "y", "--p-col", "model_a", "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    d = load_forecasts()
    assert out["name"] == "model_a"
    expected = brier_score(d["y"], d["model_a"])
    assert out["brier_score"]["estimate"] == pytest.approx(expected)
    z, _ = spiegelhalter_z(d["y"], d["model_a"])
    assert out["spiegelhalter"]["z"] == pytest.approx(z)
    assert out["calibration_slope"]["estimate"] == pytest.approx(
        calibration_intercept_slope(d["y"], d["model_a"]).slope
    )


def test_report_group_col_one_row_per_group(long_csv):
    res = run(
        "report",
        str(long_csv),
        "--y-col",
        "outcome",
        "--p-col",
        "prob",
        "--group-col",
        "forecaster",
    )
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].split()[0] == "group"
    rows = [ln for ln in lines if ln.startswith(("model_a", "model_b"))]
    assert [r.split()[0] for r in rows] == ["model_a", "model_b"]
    d = load_forecasts()
    for r in rows:
        name = r.split()[0]
        assert f"{brier_score(d['y'], d[name]):.4f}" in r
        assert f"{calibration_intercept_slope(d['y'], d[name]).slope:.3f}" in r


def test_report_group_col_json_has_reports_and_comparison(long_csv, run_main):
    res = run_main(
        "report",
        str(long_csv),
        "--y-col",
        "outcome",
        "--p-col",
        "prob",
        "--group-col",
        "forecaster",
        "--json",
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert [o["name"] for o in out["reports"]] == ["model_a", "model_b"]
    # the groups are scored on different rows: no pair, and why
    assert out["comparison"]["pairs"] == []
    assert "different rows" in out["comparison"]["reason"]


def test_report_several_p_columns(run_main):
    res = run_main(
        "report",
        str(BUNDLED),
        "--y-col",
        "y",
        "--p-col",
        "model_a",
        "--p-col",
        "model_b",
        "--threshold",
        "0.05,0.1",
        "--threshold",
        "0.2",
    )
    assert res.returncode == 0, res.stderr
    assert any(ln.startswith("model_a") for ln in res.stdout.splitlines())
    assert any(ln.startswith("model_b") for ln in res.stdout.splitlines())


def test_report_html_written_and_not_overwritten(tmp_path, run_main):
    out = tmp_path / "audit.html"
    args = (
        "report",
        str(BUNDLED),
        "--y-col",
        "y",
        "--p-col",
        "model_b",
        "--html",
        str(out),
    )
    res = run_main(*args)
    assert res.returncode == 0, res.stderr
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "Calibration slope" in text
    # second run without --force: refused, file untouched
    out.write_text("keep me")
    res = run(*args)
    assert_one_line_error(res, "exists", "--force")
    assert out.read_text() == "keep me"
    res = run_main(*args, "--force")
    assert res.returncode == 0, res.stderr
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_report_html_missing_directory(tmp_path, run_main):
    res = run_main(
        "report",
        str(BUNDLED),
        "--y-col",
        "y",
        "--p-col",
        "model_b",
        "--html",
        str(tmp_path / "nope" / "a.html"),
    )
    assert_one_line_error(res, "does not exist")


def test_report_string_labels_need_pos_label(tmp_path, run_main):
    f = tmp_path / "labels.csv"
    f.write_text("y,p\nyes,0.8\nno,0.3\nyes,0.6\nno,0.1\nyes,0.4\nno,0.5\n")
    assert_one_line_error(
        run_main("report", str(f), "--y-col", "y", "--p-col", "p"), "--pos-label"
    )
    res = run_main("report", str(f), "--y-col", "y", "--p-col", "p", "--pos-label", "yes")
    assert res.returncode == 0, res.stderr
    y = [1, 0, 1, 0, 1, 0]
    p = [0.8, 0.3, 0.6, 0.1, 0.4, 0.5]
    assert f"{brier_score(y, p):.4f}" in res.stdout
    assert_one_line_error(
        run_main("report", str(f), "--y-col", "y", "--p-col", "p", "--pos-label", "maybe"),
        "--pos-label",
        "maybe",
    )


def test_report_boolean_outcomes(tmp_path, run_main):
    f = tmp_path / "bool.csv"
    f.write_text("y,p\nTRUE,0.8\nFALSE,0.3\nTRUE,0.6\nFALSE,0.1\nTRUE,0.4\nFALSE,0.5\n")
    res = run_main("report", str(f), "--y-col", "y", "--p-col", "p", "--json")
    assert res.returncode == 0, res.stderr
    y = [1, 0, 1, 0, 1, 0]
    p = [0.8, 0.3, 0.6, 0.1, 0.4, 0.5]
    assert json.loads(res.stdout)["brier_score"]["estimate"] == pytest.approx(
        brier_score(y, p)
    )


def test_report_semicolon_csv_weights_and_stdin(tmp_path, run_main):
    text = "y;p;w\n1;0.8;2\n0;0.3;1\n1;0.6;1\n0;0.1;3\n1;0.4;1\n0;0.5;2\n"
    f = tmp_path / "semi.csv"
    f.write_text(text)
    res = run_main(
        "report", str(f), "--y-col", "y", "--p-col", "p", "--weight-col", "w", "--json"
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    w = [2, 1, 1, 3, 1, 2]
    y = [1, 0, 1, 0, 1, 0]
    p = [0.8, 0.3, 0.6, 0.1, 0.4, 0.5]
    expected = brier_score(y, p, sample_weight=w)
    assert out["brier_score"]["estimate"] == pytest.approx(expected)
    res = run_main("report", "-", "--y-col", "y", "--p-col", "p", "--json", stdin=text)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["brier_score"]["estimate"] == pytest.approx(
        brier_score(y, p)
    )


BAD_FILES = {
    "missing": (None, "no such file"),
    "empty": ("", "empty"),
    "header_only": ("y,p\n", "no data rows"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not a"),
    "ragged": ("y,p\n1,0.2\n0\n", "row 3 has 1 fields"),
    "three_classes": ("y,p\n0,0.2\n1,0.5\n2,0.7\n", "must be binary"),
    "p_above_one": ("y,p\n0,0.2\n1,1.5\n", "probabilities in [0, 1]"),
    "p_negative": ("y,p\n0,-0.2\n1,0.5\n", "probabilities in [0, 1]"),
    "p_text": ("y,p\n0,abc\n1,0.5\n", "'abc' is not a number"),
    "single_class": ("y,p\n1,0.2\n1,0.5\n", "single class"),
    "duplicate_header": ("y,y,p\n1,1,0.2\n0,0,0.5\n", "duplicate column"),
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_bad_files_exit_2_with_one_line(kind, tmp_path, run_main):
    content, fragment = BAD_FILES[kind]
    f = tmp_path / f"{kind}.csv"
    if content is not None:
        if isinstance(content, bytes):
            f.write_bytes(content)
        else:
            f.write_text(content)
    res = run_main("report", str(f), "--y-col", "y", "--p-col", "p")
    assert_one_line_error(res, fragment)


#: missing values: dropped by default (leaving one row, a single class here),
#: refused with --na error naming the column and the row
NA_FILES = {
    "p_nan": ("y,p\n0,nan\n1,0.5\n", "'p' has a missing value in row 2"),
    "p_empty": ("y,p\n0,\n1,0.5\n", "'p' has a missing value in row 2"),
    "y_empty": ("y,p\n,0.2\n1,0.5\n", "'y' has a missing value in row 2"),
}


@pytest.mark.parametrize("kind", sorted(NA_FILES))
def test_missing_values_dropped_or_refused(kind, tmp_path, run_main):
    content, fragment = NA_FILES[kind]
    f = tmp_path / f"{kind}.csv"
    f.write_text(content)
    res = run_main("report", str(f), "--y-col", "y", "--p-col", "p")
    assert_one_line_error(res, "single class")
    res = run_main("report", str(f), "--y-col", "y", "--p-col", "p", "--na", "error")
    assert_one_line_error(res, str(f), fragment, "--na error")


@pytest.mark.parametrize("kind", ["missing", "three_classes", "p_above_one"])
def test_bad_files_real_process(kind, tmp_path):
    content, fragment = BAD_FILES[kind]
    f = tmp_path / f"{kind}.csv"
    if content is not None:
        f.write_text(content)
    assert_one_line_error(run("report", str(f), "--y-col", "y", "--p-col", "p"), fragment)


def test_missing_column_is_named(run_main):
    res = run("report", str(BUNDLED), "--y-col", "y", "--p-col", "model_c")
    assert_one_line_error(res, "model_c", "model_a")
    res = run_main("report", str(BUNDLED), "--y-col", "outcome", "--p-col", "model_a")
    assert_one_line_error(res, "'outcome'")
    res = run_main(
        "report", str(BUNDLED), "--y-col", "y", "--p-col", "model_a", "--group-col", "site"
    )
    assert_one_line_error(res, "'site'")


def test_directory_and_usage_errors(tmp_path, run_main):
    assert_one_line_error(
        run_main("report", str(tmp_path), "--y-col", "y", "--p-col", "p"), "directory"
    )
    assert_one_line_error(run_main("report", str(BUNDLED), "--p-col", "model_a"), "--y-col")
    assert_one_line_error(
        run_main(
            "report",
            str(BUNDLED),
            "--y-col",
            "y",
            "--p-col",
            "model_a",
            "--threshold",
            "1.5",
        ),
        "--threshold",
    )
    assert_one_line_error(
        run_main(
            "report", str(BUNDLED), "--y-col", "y", "--p-col", "model_a", "--cov", "x"
        ),
        "--cov",
    )
    assert_one_line_error(
        run_main(
            "report",
            str(BUNDLED),
            "--y-col",
            "y",
            "--p-col",
            "model_a",
            "--confidence-level",
            "95",
        ),
        "--confidence-level",
    )
    assert_one_line_error(run_main("frobnicate"), "frobnicate")


def test_group_with_single_class_is_left_out_and_named(tmp_path, run_main):
    # a site without events is left out with a warning naming it; the other
    # sites are reported, equal to their own report (it stopped the whole run)
    rng = np.random.default_rng(5)
    pa = rng.uniform(0.05, 0.95, 60)
    ya = (rng.uniform(size=60) < pa).astype(int)
    rows = [f"a,{y},{p!r}" for y, p in zip(ya.tolist(), pa.tolist())]
    rows += ["b,1,0.3", "b,1,0.9", "c,0,0.1"]
    f = tmp_path / "g.csv"
    f.write_text("g,y,p\n" + "\n".join(rows) + "\n")
    res = run_main(
        "report", str(f), "--y-col", "y", "--p-col", "p", "--group-col", "g", "--json"
    )
    assert res.returncode == 0, res.stderr
    assert "left out" in res.stderr and "(b, c)" in res.stderr, res.stderr
    out = json.loads(res.stdout)
    got = out["reports"][0] if "reports" in out else out
    g = tmp_path / "a.csv"
    g.write_text("y,p\n" + "\n".join(r[2:] for r in rows[:60]) + "\n")
    alone = json.loads(
        run_main("report", str(g), "--y-col", "y", "--p-col", "p", "--json").stdout
    )
    assert got["n_samples"] == 60
    assert got["brier_score"] == alone["brier_score"]
    # every group of one class: one clear error
    f.write_text("g,y,p\nb,1,0.3\nb,1,0.9\nc,0,0.1\nc,0,0.4\n")
    res = run_main("report", str(f), "--y-col", "y", "--p-col", "p", "--group-col", "g")
    assert_one_line_error(res, "every group", "--group-col", "single class")


def test_help_exits_0():
    res = run("report", "--help")
    assert res.returncode == 0
    assert "--group-col" in res.stdout


def test_demo_runs_the_audit(tmp_path):
    res = run("demo")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "Calibration report: logistic regression" in out
    assert "naive Bayes" in out and "random forest" in out
    assert "Traceback" not in res.stderr


def test_demo_forecasts_json_and_html(tmp_path, run_main):
    out_html = tmp_path / "demo.html"
    res = run_main("demo", "--dataset", "forecasts", "--json", "--html", str(out_html))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)["reports"]
    assert [d["name"] for d in data] == ["model_a", "model_b"]
    d = load_forecasts()
    expected = brier_score(d["y"], d["model_b"])
    assert data[1]["brier_score"]["estimate"] == pytest.approx(expected)
    assert out_html.read_text().startswith("<!DOCTYPE html>")
    assert_one_line_error(run_main("demo", "--html", str(out_html)), "exists")


def test_main_in_process_returns_codes(capsys):
    from skbrier.cli import main

    assert main(["report", str(BUNDLED), "--y-col", "y", "--p-col", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope" in err
    assert main([]) == 2
    assert main(["report", str(BUNDLED), "--y-col", "y", "--p-col", "model_a"]) == 0
    assert np.isfinite(1.0)


def test_report_hac_intervals_in_json(run_main):
    res = run_main(
        "report",
        str(BUNDLED),
        "--y-col",
        "y",
        "--p-col",
        "model_a",
        "--cov",
        "hac",
        "--confidence-level",
        "0.9",
        "--json",
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["cov_type"] == "hac" and out["confidence_level"] == 0.9
    try:
        from skbrier.stats import brier_inference
    except ImportError:
        assert out["brier_index"]["ci_low"] is None
        return
    d = load_forecasts()
    lo, hi = brier_inference(d["y"], d["model_a"], cov_type="hac").confidence_interval(
        0.9, metric="brier_index"
    )
    assert out["brier_index"]["ci_low"] == pytest.approx(lo)
    assert out["brier_index"]["ci_high"] == pytest.approx(hi)
