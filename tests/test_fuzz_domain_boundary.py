"""Faults found by fuzzing the domain packages' boundaries (survival,
leaderboards, io, plotting, report, cli): each input gives a correct number
or a clear error, never a stray exception or a silent wrong number."""

from __future__ import annotations

import numpy as np
import pytest

from skbrier.cli import main


def _one_error(capsys, *args: str) -> str:
    """The one line of ``skbrier *args``'s error (exit status 2, no traceback)."""
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("skbrier: error:"), err
    return lines[0]


@pytest.fixture()
def csv_files(tmp_path):
    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, 60)
    y = (rng.uniform(size=60) < p).astype(int)
    rows = [f"{a},{b:.4f}" for a, b in zip(y, p)]
    (tmp_path / "comma.csv").write_text("y,p\n" + "\n".join(rows) + "\n")
    (tmp_path / "semi.csv").write_text(
        "y;p\n" + "\n".join(r.replace(",", ";") for r in rows) + "\n"
    )
    return tmp_path


@pytest.mark.parametrize("engine", ["polars", "duckdb", "dask"])
def test_engine_missing_column_lists_the_columns(csv_files, capsys, engine):
    """--engine polars/duckdb/dask said "no column named 'nope'." without the
    file's columns (--engine memory lists them and suggests a close name)."""
    pytest.importorskip("dask" if engine == "dask" else engine)
    line = _one_error(
        capsys, "report", str(csv_files / "comma.csv"), "--y-col", "Y", "--p-col", "p",
        "--engine", engine,
    )  # fmt: skip
    assert "no column 'Y' (columns: y, p) (did you mean 'y'?)" in line


@pytest.mark.parametrize("engine", ["polars", "dask"])
def test_engine_semicolon_file_names_the_separator(csv_files, capsys, engine):
    """A ';'-separated file read by an engine that reads ','-separated text:
    the header is one column, and the message says which separator it has
    and how to read it (--engine memory --sep ';')."""
    pytest.importorskip("dask" if engine == "dask" else engine)
    line = _one_error(
        capsys, "report", str(csv_files / "semi.csv"), "--y-col", "y", "--p-col", "p",
        "--engine", engine,
    )  # fmt: skip
    assert "(columns: y;p)" in line
    assert "--engine memory --sep ';'" in line
