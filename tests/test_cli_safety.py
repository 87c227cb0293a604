"""The command line never shows a traceback: odd input, interrupts and output
problems end with one line on stderr and a nonzero exit code; output files are
written atomically and never replaced without --force."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from skbrier.cli import main

ROOT = Path(__file__).resolve().parents[1]
SMALL = "y,p\n1,0.8\n0,0.3\n1,0.6\n0,0.1\n1,0.4\n0,0.5\n"


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["MPLBACKEND"] = "Agg"
    return env


def run(*args: str, stdin: bytes | None = None):
    return subprocess.run(  # noqa: PLW1510 - the exit code is the point
        [sys.executable, "-m", "skbrier", *args],
        capture_output=True,
        env=_env(),
        input=stdin,
        timeout=120,
    )


class _Result:
    def __init__(self, code, out, err):
        self.returncode, self.stdout, self.stderr = code, out, err


@pytest.fixture
def cli(capsys, monkeypatch):
    def _run(*args: str, stdin: bytes | None = None) -> _Result:
        capsys.readouterr()
        if stdin is not None:
            fake = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
            monkeypatch.setattr(sys, "stdin", fake)
        code = main(list(args))
        out = capsys.readouterr()
        return _Result(code, out.out, out.err)

    return _run


def one_line_error(res, *fragments: str, code: int = 2) -> None:
    err = res.stderr.decode() if isinstance(res.stderr, bytes) else res.stderr
    assert res.returncode == code, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("skbrier: ")
    assert "Traceback" not in err
    for f in fragments:
        assert f in lines[0], lines[0]


@pytest.fixture
def small(tmp_path):
    f = tmp_path / "small.csv"
    f.write_text(SMALL)
    return f


# -- item 19 reproducers ------------------------------------------------------


def test_mathtext_column_name_with_html(tmp_path):
    pytest.importorskip("matplotlib")
    f = tmp_path / "m.csv"
    f.write_text(SMALL.replace("y,p", "y,p$x^{$"))
    out = tmp_path / "m.html"
    res = run("report", str(f), "--y-col", "y", "--p-col", "p$x^{$", "--html", str(out))
    assert res.returncode == 0, res.stderr.decode()
    page = out.read_text()
    assert "p$x^{$" in page and page.count("<svg") == 2  # the two figures, inline SVG


def test_mathtext_name_in_the_library(tmp_path):
    pytest.importorskip("matplotlib")
    from skbrier.report import calibration_report

    rep = calibration_report(
        [1, 0, 1, 0, 1, 0], [0.8, 0.3, 0.6, 0.1, 0.4, 0.5], name="$\\frac{"
    )
    assert set(rep.figures()) == {"reliability", "decision_curve"}


def test_demo_negative_random_state(cli):
    one_line_error(cli("demo", "--random-state", "-1"), "--random-state", "non-negative")
    one_line_error(cli("demo", "--random-state", "x"), "--random-state")


def test_invalid_utf8_on_stdin_real_process():
    args = ("report", "-", "--y-col", "y", "--p-col", "p")
    data = b"y,p\n1,0.8\xff\n0,0.3\n"
    one_line_error(run(*args, "--encoding", "UTF-8", stdin=data), "<stdin>", "UTF-8")
    # auto: read as cp1252 with a note, then the value is refused
    res = run(*args, stdin=data)
    err = res.stderr.decode()
    assert res.returncode == 2 and "Traceback" not in err
    note, error = err.strip().splitlines()
    assert note.startswith("skbrier: note: <stdin> is not UTF-8") and "cp1252" in note
    assert error.startswith("skbrier: error: <stdin>: column 'p' row 2: '0.8ÿ'")


def test_invalid_utf8_in_a_file(cli, tmp_path):
    f = tmp_path / "latin1.csv"
    f.write_bytes("y,p\xe9\n1,0.8\n0,0.3\n".encode("latin-1"))
    args = ("report", str(f), "--y-col", "y", "--p-col", "p")
    one_line_error(cli(*args, "--encoding", "UTF-8"), "UTF-8", "offset 3")
    res = cli(*args, "--quiet")  # cp1252, no note: the header names 'pé'
    one_line_error(res, "no column 'p'", "pé")


def test_utf8_stdin_with_bom(cli):
    res = cli(
        "report",
        "-",
        "--y-col",
        "y",
        "--p-col",
        "p",
        "--json",
        stdin=b"\xef\xbb\xbf" + SMALL.encode(),
    )
    assert res.returncode == 0, res.stderr


def test_keyboard_interrupt_in_process(cli, small, monkeypatch):
    import skbrier.report

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(skbrier.report, "calibration_report", interrupted)
    one_line_error(
        cli("report", str(small), "--y-col", "y", "--p-col", "p"), "interrupted", code=130
    )


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_keyboard_interrupt_real_process():
    # the command waits on standard input; Ctrl-C then ends it with code 130
    proc = subprocess.Popen(
        [sys.executable, "-m", "skbrier", "report", "-", "--y-col", "y", "--p-col", "p"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    try:
        sleeping, deadline = 0, time.monotonic() + 60
        while sleeping < 10 and time.monotonic() < deadline:  # blocked in read()
            time.sleep(0.1)
            state = Path(f"/proc/{proc.pid}/status").read_text()
            sleeping = sleeping + 1 if "State:\tS" in state else 0
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    one_line_error(_Result(proc.returncode, out, err), "interrupted", code=130)


# -- output safety ------------------------------------------------------------


def test_file_created_during_the_computation_is_kept(cli, small, tmp_path, monkeypatch):
    import skbrier.report

    out = tmp_path / "r.html"
    real = skbrier.report.calibration_report

    def slow(*args, **kwargs):
        out.write_text("someone else's file")  # appears after the early check
        return real(*args, **kwargs)

    monkeypatch.setattr(skbrier.report, "calibration_report", slow)
    res = cli("report", str(small), "--y-col", "y", "--p-col", "p", "--html", str(out))
    one_line_error(res, "--html", "--force")
    assert out.read_text() == "someone else's file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "small.csv"]


def test_failed_write_with_force_leaves_the_old_file(cli, small, tmp_path, monkeypatch):
    import skbrier.report._io as io_mod

    out = tmp_path / "r.html"
    out.write_text("previous report")

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(io_mod.os, "fsync", broken_fsync)
    res = cli(
        "report", str(small), "--y-col", "y", "--p-col", "p", "--html", str(out), "--force"
    )
    one_line_error(res, "--html", "No space left")
    assert out.read_text() == "previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "small.csv"]


def test_force_replaces_and_keeps_permissions(cli, small, tmp_path):
    out = tmp_path / "r.html"
    out.write_text("old")
    res = cli(
        "report", str(small), "--y-col", "y", "--p-col", "p", "--html", str(out), "--force"
    )
    assert res.returncode == 0, res.stderr
    assert out.read_text().startswith("<!DOCTYPE html>")
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask


def test_library_to_html_is_atomic(tmp_path, monkeypatch):
    import skbrier.report._io as io_mod
    from skbrier.report import calibration_report

    out = tmp_path / "lib.html"
    out.write_text("previous")
    rep = calibration_report([1, 0, 1, 0, 1, 0], [0.8, 0.3, 0.6, 0.1, 0.4, 0.5])

    def broken_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(io_mod.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        rep.to_html(out)
    assert out.read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["lib.html"]


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0, reason="root can write anywhere"
)
def test_unwritable_directory(cli, small, tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o500)
    try:
        res = cli(
            "report",
            str(small),
            "--y-col",
            "y",
            "--p-col",
            "p",
            "--html",
            str(d / "r.html"),
        )
    finally:
        d.chmod(0o700)
    one_line_error(res, "not writable")


def test_output_is_a_directory(cli, small, tmp_path):
    res = cli("report", str(small), "--y-col", "y", "--p-col", "p", "--html", str(tmp_path))
    one_line_error(res, "is a directory")
    res = cli(
        "report",
        str(small),
        "--y-col",
        "y",
        "--p-col",
        "p",
        "--html",
        str(tmp_path),
        "--force",
    )
    one_line_error(res, "is a directory")


# -- more odd input -----------------------------------------------------------

ODD = {
    "only_blank_lines": ("\n\n  \n", "empty"),
    "one_row": ("y,p\n1,0.4\n", "single class"),
    "inf_outcome": ("y,p\ninf,0.2\n1,0.5\n0,0.3\n", "infinity"),
    "inf_probability": ("y,p\n0,inf\n1,0.5\n", "probabilities in [0, 1]"),
    "text_weight": ("y,p,w\n0,0.2,a\n1,0.5,1\n", "'a' is not a number"),
    "negative_weight": ("y,p,w\n0,0.2,-1\n1,0.5,1\n", "non-negative"),
    # a missing weight drops its row (leaving a single class here)
    "nan_weight": ("y,p,w\n0,0.2,nan\n1,0.5,1\n", "single class"),
    "zero_weights": ("y,p,w\n0,0.2,0\n1,0.5,0\n", "--weight-col"),
    "unclosed_quote": ('y,p\n1,"0.2\n0,0.5\n', "malformed CSV"),
    "quoted_newline_in_header": ('"y\nz",p\n1,0.2\n0,0.5\n', "no column"),
}


@pytest.mark.parametrize("kind", sorted(ODD))
def test_odd_files(kind, cli, tmp_path):
    content, fragment = ODD[kind]
    f = tmp_path / f"{kind}.csv"
    f.write_text(content)
    args = ["report", str(f), "--y-col", "y", "--p-col", "p"]
    if "w" in content.splitlines()[0].split(","):
        args += ["--weight-col", "w"]
    one_line_error(cli(*args), fragment)


def test_two_rows_report_with_a_note(cli, tmp_path):
    f = tmp_path / "two.csv"
    f.write_text("y,p\n1,0.6\n0,0.3\n")
    res = cli("report", str(f), "--y-col", "y", "--p-col", "p")
    assert res.returncode == 0, res.stderr
    assert "Note: Confidence intervals not available" in res.stdout


@pytest.mark.parametrize(
    "option, value, fragment",
    [
        ("--n-bins", "1000000", "--n-bins must be at most"),
        ("--n-bins", "0", "--n-bins must be at least 1"),
        ("--n-bins", "1e3", "--n-bins"),
        ("--confidence-level", "nan", "--confidence-level"),
        ("--prevalence", "inf", "--prevalence"),
        ("--threshold", "nan", "--threshold"),
        ("--random-state", "-5", "--random-state"),
    ],
)
def test_bad_numeric_options(cli, small, option, value, fragment):
    one_line_error(
        cli("report", str(small), "--y-col", "y", "--p-col", "p", option, value), fragment
    )


def test_duplicate_p_col(cli, small):
    one_line_error(
        cli("report", str(small), "--y-col", "y", "--p-col", "p", "--p-col", "p"),
        "--p-col",
        "more than once",
    )


def test_report_random_state_makes_bootstrap_reproducible(cli, small):
    args = (
        "report",
        str(small),
        "--y-col",
        "y",
        "--p-col",
        "p",
        "--cov",
        "bootstrap",
        "--random-state",
        "4",
        "--json",
    )
    a, b = cli(*args), cli(*args)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout


# -- second audit: user mistakes of the command line ---------------------------


def test_warning_of_a_failed_run_is_shown(cli, tmp_path):
    """A workbook whose data are on its second sheet: the warning that the
    first sheet was read explains the missing column (it was dropped when the
    run failed)."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("openpyxl")
    f = tmp_path / "book.xlsx"
    with pd.ExcelWriter(f) as book:
        pd.DataFrame({"note": ["read me"]}).to_excel(book, sheet_name="readme", index=False)
        pd.DataFrame({"y": [1, 0, 1, 0], "p": [0.7, 0.2, 0.6, 0.4]}).to_excel(
            book, sheet_name="data", index=False
        )
    res = cli("report", str(f), "--y-col", "y", "--p-col", "p")
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert any("warning" in x and "first of 2 sheets ('readme')" in x for x in lines), lines
    assert lines[-1].startswith("skbrier: error:") and "no column 'y'" in lines[-1]


@pytest.mark.parametrize(
    "option, value, fragment",
    [
        ("--confidence-level", "95", "--confidence-level must lie strictly between 0 and 1, got 95 (a percentage? divide by 100)"),
        ("--prevalence", "12.5", "--prevalence must lie strictly between 0 and 1, got 12.5 (a percentage? divide by 100)"),
        ("--prevalence", "0", "--prevalence must lie strictly between 0 and 1, got 0."),
    ],
)  # fmt: skip
def test_option_values_name_the_value_and_the_percentage(
    cli, small, option, value, fragment
):
    one_line_error(
        cli("report", str(small), "--y-col", "y", "--p-col", "p", option, value), fragment
    )


@pytest.mark.parametrize(
    "extra, fragment",
    [
        (["--p-col", "y"], "column 'y' is given as --y-col and as --p-col"),
        (["--p-col", "p", "--weight-col", "p"], "column 'p' is given as --p-col and as --weight-col"),
        (["--p-col", "p", "--weight-col", "y"], "column 'y' is given as --y-col and as --weight-col"),
        (["--p-col", "p", "--group-col", "p"], "column 'p' is given as --p-col and as --group-col"),
        (["--p-col", "p", "--p-col", "p", "--engine", "polars"], "--p-col 'p' is given more than once"),
    ],
)  # fmt: skip
def test_one_column_in_two_roles_is_refused(cli, small, extra, fragment):
    """--p-col naming the outcome column scored the outcomes as forecasts (a
    perfect report); the engines took a repeated --p-col once."""
    if "polars" in extra:
        pytest.importorskip("polars")
    one_line_error(cli("report", str(small), "--y-col", "y", *extra), fragment)


def test_the_two_columns_of_predict_proba_are_named(cli, tmp_path):
    """--p-col p0 --p-col p1 with p0 = 1 - p1 (both columns of predict_proba):
    p0 was audited as a forecaster of the event without a word."""
    rng = np.random.default_rng(8)
    p = rng.uniform(0.05, 0.95, 40).round(3)
    y = (rng.uniform(size=40) < p).astype(int)
    f = tmp_path / "two.csv"
    f.write_text("y,p0,p1\n" + "".join(f"{a},{1 - b:.3f},{b}\n" for a, b in zip(y, p)))
    res = cli("report", str(f), "--y-col", "y", "--p-col", "p0", "--p-col", "p1")
    assert res.returncode == 0, res.stderr
    warn = [x for x in res.stderr.splitlines() if "predict_proba" in x]
    assert len(warn) == 1 and "'p0' and 'p1' sum to one" in warn[0], res.stderr
    other = tmp_path / "other.csv"
    other.write_text("y,p0,p1\n" + "".join(f"{a},{b / 2:.3f},{b}\n" for a, b in zip(y, p)))
    res = cli("report", str(other), "--y-col", "y", "--p-col", "p0", "--p-col", "p1")
    assert "predict_proba" not in res.stderr
