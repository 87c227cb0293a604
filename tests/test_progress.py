"""The one progress display: silent off a terminal, drawn when asked, quiet wins;
one labelled line per run (steps, how many remain), dask computations on it."""

import io
import re
import sys

import numpy as np
import pytest

from skbrier._core.progress import force_progress, progress, progress_enabled, quiet
from skbrier._core.resampling import run_replicates


def test_silent_when_stderr_is_not_a_terminal(monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stderr", buf)
    assert not progress_enabled()
    with progress(100, "x") as bar:
        bar.update(100)
    assert buf.getvalue() == ""


def test_quiet_beats_a_terminal(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Tty())
    assert progress_enabled()
    with quiet():
        assert not progress_enabled()
    monkeypatch.setenv("SKBRIER_QUIET", "1")
    assert not progress_enabled()


def test_forced_bar_reaches_total_and_results_unchanged(monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stderr", buf)

    def task(size, rng):
        return rng.random((size, 2))

    plain = run_replicates(task, 50, random_state=0, chunk_size=7)
    with force_progress():
        shown = run_replicates(task, 50, random_state=0, chunk_size=7, desc="boot")
    np.testing.assert_array_equal(plain, shown)
    assert "boot" in buf.getvalue()
    assert "50" in buf.getvalue()


# -- one labelled display per run (issue item 18) ---------------------------


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _data(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, n)
    return (rng.random(n) < p).astype(int), p


def test_terminal_one_line_redrawn_and_erased(monkeypatch):
    from skbrier.report import calibration_report

    err = _Tty()
    monkeypatch.setattr(sys, "stderr", err)
    y, p = _data(60_000)  # resamples in two chunks: a bar
    calibration_report(y, p, cov_type="bootstrap", n_resamples=40, random_state=0)
    text = err.getvalue()
    assert "\n" not in text  # one line, redrawn in place
    frames = [f.rstrip() for f in text.split("\r") if f.strip()]
    assert "calibration report 5/11: logistic calibration | 0:00" in frames
    # the bootstrap (the Brier metrics' resamples, on which the logistic
    # calibration is refitted) is a level of the same line, with how much remains
    assert any("intervals | bootstrap 40/40 | 0:0" in f for f in frames)
    assert text.endswith("\r") and not text.split("\r")[-2].strip()  # erased


def test_log_lines_only_when_asked(monkeypatch):
    from skbrier.report import calibration_report

    y, p = _data()
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    calibration_report(y, p)
    assert err.getvalue() == ""
    monkeypatch.setenv("SKBRIER_PROGRESS", "1")
    calibration_report(y, p)
    lines = err.getvalue().splitlines()
    assert "\r" not in err.getvalue()
    # one line per step, each saying which step of how many
    assert [ln.split(" | ")[0] for ln in lines] == [
        f"calibration report {k}/11: {s}"
        for k, s in enumerate(
            [
                "checking the data",
                "confidence intervals",
                "Brier score",
                "Spiegelhalter test",
                "logistic calibration",
                "ECE",
                "sorting the forecasts",
                "lowess calibration",
                "C statistic and val.prob's indexes",
                "decomposition",
                "net benefit",
            ],
            start=1,
        )
    ]
    monkeypatch.setenv("SKBRIER_QUIET", "1")  # silence wins
    err.truncate(0)
    err.seek(0)
    calibration_report(y, p)
    assert err.getvalue() == ""


def test_cli_one_display_per_run(tmp_path, capsys):
    from skbrier.cli import main

    y, p = _data(400)
    f = tmp_path / "d.csv"
    f.write_text("y,a,b\n" + "".join(f"{a},{b:.17g},{b / 2:.17g}\n" for a, b in zip(y, p)))
    args = ["report", str(f), "--y-col", "y", "--p-col", "a", "--p-col", "b"]
    assert main(args) == 0
    assert capsys.readouterr().err == ""  # not a terminal: nothing
    assert main([*args, "--progress"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err and all(ln.startswith("skbrier report") for ln in err)
    assert f"skbrier report: reading {f} | 0:00" in err
    assert any(
        ln.startswith("skbrier report 3/3: b | calibration report 11/11") for ln in err
    )
    assert main([*args, "--progress", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_dask_computations_counted_on_the_same_line(monkeypatch):
    dd = pytest.importorskip("dask.dataframe")
    import pandas as pd

    from skbrier._core.progress import task
    from skbrier.report import calibration_report

    y, p = _data(3000)
    frame = dd.from_pandas(pd.DataFrame({"y": y, "p": p}), npartitions=3)
    err = _Tty()
    monkeypatch.setattr(sys, "stderr", err)
    with task("run", total=1) as run:
        run.step("dask")
        calibration_report(frame["y"], frame["p"], random_state=0)
    frames = [f.rstrip() for f in err.getvalue().split("\r") if f.strip()]
    assert "\n" not in err.getvalue()
    assert all(f.startswith("run 1/1: dask") for f in frames[1:])
    counts = [
        re.search(r"dask computation 1 \(pass over the data\) (\d+)/(\d+)", f)
        for f in frames
    ]
    counts = [(int(m[1]), int(m[2])) for m in counts if m]
    assert counts and counts[-1][0] == counts[-1][1] > 0  # how many remain, to the end
    assert any("calibration report (dask) 4/10: logistic calibration" in f for f in frames)
    assert not any("[####" in f or "Completed" in f for f in frames)  # no dask bars
