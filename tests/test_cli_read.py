"""``skbrier report`` on messy real-world files (tests/data/messy/, made by
make_messy.py): every number is checked against R reading the same file its
own way and running rms::val.prob (expected_R.csv, made by make_expected.R),
or against pandas.read_parquet for Parquet; every reading engine gives the
same numbers and the same error messages."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from skbrier.cli import _table, main
from skbrier.cli._read import label_mixup
from skbrier.metrics.brier import brier_score
from skbrier.metrics.calibration import calibration_intercept_slope

MESSY = Path(__file__).resolve().parent / "data" / "messy"
MANIFEST = json.loads((MESSY / "manifest.json").read_text(encoding="utf-8"))
with (MESSY / "expected_R.csv").open(encoding="utf-8", newline="") as fh:
    EXPECTED_R = {(r["file"], r["model"]): r for r in csv.DictReader(fh)}
TEXT_FILES = sorted(f for f, m in MANIFEST.items() if m["r"] is not None)


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


def _args(f: str, *extra: str) -> list[str]:
    m = MANIFEST[f]
    args = ["report", str(MESSY / f), "--y-col", m["y"]]
    for c in m["p"]:
        args += ["--p-col", c]
    return [*args, *m["options"], *extra]


def _one_error(res, *fragments):
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("skbrier: error: "), res.stderr
    for f in fragments:
        assert f in lines[0], lines[0]


def _hide_imports(monkeypatch, *names: str) -> None:
    """Make ``import name`` (and its submodules) fail, as if not installed."""
    import builtins

    real = builtins.__import__

    def fake(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.split(".")[0] in names:
            raise ImportError(f"No module named {name!r} (hidden by the test)")
        return real(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", fake)


@pytest.fixture(params=["pyarrow", "pandas", "python"])
def engine(request, monkeypatch):
    """Force one reading engine (the python one also by hiding the imports)."""
    name = request.param
    if name == "python":
        _hide_imports(monkeypatch, "pandas", "pyarrow")
        assert _table._engines() == ["python"]
    else:
        pytest.importorskip(name)
        monkeypatch.setattr(_table, "_engines", lambda: [name, "python"])
    return name


@pytest.mark.parametrize("f", TEXT_FILES)
def test_messy_files_match_r(f, cli, engine):
    # R's reference drops the incomplete rows per model (make_expected.R)
    res = cli(*_args(f, "--json", "--quiet", "--na", "per-model"))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    for rep in out["reports"]:
        ref = EXPECTED_R[(f, rep["name"])]
        assert rep["n_samples"] == int(ref["n"])
        assert rep["brier_score"]["estimate"] == pytest.approx(
            float(ref["brier"]), abs=1e-9
        )
        assert rep["calibration_intercept"]["estimate"] == pytest.approx(
            float(ref["intercept"]), abs=1e-6
        )
        assert rep["calibration_slope"]["estimate"] == pytest.approx(
            float(ref["slope"]), abs=1e-6
        )
        dropped = int(ref["rows"]) - int(ref["n"])
        notes = [n for n in rep["notes"] if n.startswith("Rows used")]
        if dropped:
            assert notes == [
                f"Rows used: {ref['n']} of {ref['rows']}; {dropped} dropped for a "
                "missing outcome, forecast or weight."
            ]
        else:
            assert notes == []


def test_parquet_matches_pandas(cli):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    res = cli(*_args("forecasts.parquet", "--json"))
    assert res.returncode == 0, res.stderr
    frame = pd.read_parquet(MESSY / "forecasts.parquet")
    models = MANIFEST["forecasts.parquet"]["p"]
    for rep in json.loads(res.stdout)["reports"]:
        # every model on the rows where the outcome and every forecast are present
        d = frame[["y", *models]].dropna()
        y, p = d["y"].to_numpy(), d[rep["name"]].to_numpy()
        assert rep["n_samples"] == len(d)
        assert rep["brier_score"]["estimate"] == pytest.approx(brier_score(y, p))
        a, b = calibration_intercept_slope(y, p)
        assert rep["calibration_slope"]["estimate"] == pytest.approx(b)


def test_parquet_without_pyarrow(cli, monkeypatch):
    _hide_imports(monkeypatch, "pyarrow")
    _one_error(cli(*_args("forecasts.parquet")), "Parquet", "pip install pyarrow")


def test_stdin_gzip_and_text_output(cli):
    data = (MESSY / "forecasts.csv.gz").read_bytes()
    res = cli("report", "-", "--y-col", "y", "--p-col", "model_a", "--json", stdin=data)
    assert res.returncode == 0, res.stderr
    ref = EXPECTED_R[("forecasts.csv.gz", "model_a")]
    assert json.loads(res.stdout)["brier_score"]["estimate"] == pytest.approx(
        float(ref["brier"])
    )


def test_na_note_in_text_and_na_error(cli):
    res = cli(*_args("na_laden.csv", "--na", "per-model"))
    assert res.returncode == 0, res.stderr
    assert "Note (model_a): Rows used: 357 of 400; 43 dropped" in res.stdout
    res = cli(*_args("na_laden.csv"))  # both models on the same rows
    assert res.returncode == 0, res.stderr
    assert "Note (model_a): Rows used: 343 of 400; 57 dropped" in res.stdout
    assert "Note (model_b): Rows used: 343 of 400; 57 dropped" in res.stdout
    res = cli(*_args("na_laden.csv", "--na", "error"))
    # the first gap of the file: row 4 (model_b 'null')
    _one_error(res, "na_laden.csv", "column 'model_b'", "row 4", "--na error")


def test_percent_needs_the_option(cli):
    m = MANIFEST["percent.csv"]
    args = [a for a in _args("percent.csv") if a != "--percent"]
    _one_error(cli(*args), f"'{m['p'][0]}'", "use --percent")
    res = cli(*_args("percent.csv", "--json"))
    assert res.returncode == 0


def test_decimal_comma_hint_and_explicit_encoding(cli):
    args = [a for a in _args("excel_eu.csv") if a not in ("--decimal", ",")]
    res = cli(*args)
    assert res.returncode == 2
    assert "use --decimal ," in res.stderr and "read as cp1252" in res.stderr
    res = cli(*_args("excel_eu.csv", "--encoding", "cp1252", "--sep", ";"))
    assert res.returncode == 0 and res.stderr == ""


def test_comment_lines_hint(cli):
    args = [a for a in _args("comment_header.csv") if a not in ("--comment", "#")]
    _one_error(cli(*args), "no column 'y'", "--comment '#'")


def test_label_mixup_warning_on_the_file(cli):
    args = [a if a != "dead" else "alive" for a in _args("label_mixup.csv")]
    res = cli(*args)
    assert res.returncode == 0
    warn = [ln for ln in res.stderr.splitlines() if ln.startswith("skbrier: warning:")]
    assert len(warn) == 1 and "'p_death'" in warn[0] and "--pos-label" in warn[0]
    res = cli(*_args("label_mixup.csv"))
    assert "warning" not in res.stderr


def test_label_mixup_rule_flipped_versus_miscalibrated():
    rng = np.random.default_rng(0)
    n = 4000
    q = 1 / (1 + np.exp(-rng.normal(-1.0, 1.0, n)))  # forecasts, mean about 0.29
    y = (rng.random(n) < q).astype(float)
    # flipped labels: prevalence about 0.71 against a mean forecast of 0.29
    assert label_mixup(1 - y, q, None) is not None
    assert label_mixup(y, q, None) is None
    # merely miscalibrated: events at rate 0.70, forecasts shifted to mean 0.29
    t = 1 / (1 + np.exp(-rng.normal(1.1, 1.0, n)))
    y2 = (rng.random(n) < t).astype(float)
    low = 1 / (1 + np.exp(-(np.log(t / (1 - t)) - 2.0)))
    assert y2.mean() > 0.65 and low.mean() < 0.35
    assert label_mixup(y2, low, None) is None
    # too steep and too flat (slope far from 1) are not mix-ups either
    steep = 1 / (1 + np.exp(-3 * np.log(t / (1 - t)) + 3))
    assert label_mixup(y2, steep, None) is None
    assert label_mixup(y2, np.full(n, 0.29), None) is None  # no discrimination


BAD = {
    "ragged": ("y,p\n1,0.2\n0,0.3\n1\n", "row 4 has 1 fields but the header has 2"),
    "not_a_number": ("y,p\n1,0.2\n0,abc\n", "column 'p' row 3: 'abc' is not a number"),
    "above_one": ("y,p\n1,0.2\n0,1.5\n", "row 3 has 1.5"),
    "three_classes": ("y,p\n1,0.2\n0,0.3\n2,0.4\n", "must be binary"),
    "quoted": ('y,p\n1,"0.2"\n0,"x"\n', "'x' is not a number"),
    "negative_weight": ("y,p,w\n1,0.2,1\n0,0.3,-1\n", "row 3 has -1"),
    "unclosed_quote": ('y,p\n1,"0.2\n0,0.5\n', "malformed CSV"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_same_errors_from_every_engine(kind, cli, engine, tmp_path):
    text, fragment = BAD[kind]
    f = tmp_path / "bad.csv"
    f.write_text(text)
    args = ["report", str(f), "--y-col", "y", "--p-col", "p"]
    if ",w" in text:
        args += ["--weight-col", "w"]
    _one_error(cli(*args), fragment)


def test_engines_give_identical_output(cli, monkeypatch):
    """The JSON of every engine is identical, byte for byte."""
    outs = {}
    for name in ("pyarrow", "pandas", "python"):
        monkeypatch.setattr(_table, "_engines", lambda name=name: [name, "python"])
        res = cli(*_args("na_laden.csv", "--json"))
        assert res.returncode == 0
        outs[name] = res.stdout
    assert outs["pyarrow"] == outs["pandas"] == outs["python"]


def test_compression_problems(cli, tmp_path):
    import zipfile

    two = tmp_path / "two.zip"
    with zipfile.ZipFile(two, "w") as zf:
        zf.writestr("a.csv", "y,p\n1,0.2\n")
        zf.writestr("b.csv", "y,p\n1,0.2\n")
    _one_error(cli("report", str(two), "--y-col", "y", "--p-col", "p"), "exactly one", "2")
    cut = tmp_path / "cut.csv.gz"
    cut.write_bytes(gzip.compress(b"y,p\n1,0.2\n0,0.3\n" * 100)[:40])
    _one_error(cli("report", str(cut), "--y-col", "y", "--p-col", "p"), "decompress")
    # a misnamed file: the magic bytes decide
    plain = tmp_path / "plain.csv.gz"
    plain.write_text("y,p\n1,0.8\n0,0.3\n1,0.6\n0,0.1\n")
    assert cli("report", str(plain), "--y-col", "y", "--p-col", "p").returncode == 0


def test_provenance_reaches_the_html(cli, monkeypatch, tmp_path):
    import skbrier.report

    seen = {}

    def fake(reports, *, provenance=None, title=None):
        seen.update(provenance)
        return "<!DOCTYPE html><html></html>"

    monkeypatch.setattr(skbrier.report, "reports_to_html", fake)
    out = tmp_path / "r.html"
    args = _args("na_laden.csv", "--html", str(out), "--random-state", "3")
    assert cli(*args).returncode == 0
    raw = (MESSY / "na_laden.csv").read_bytes()
    assert seen["input"] == str(MESSY / "na_laden.csv")
    assert seen["sha256"] == hashlib.sha256(raw).hexdigest()
    assert seen["rows_read"] == 400
    assert seen["rows_used"] == {"model_a": 343, "model_b": 343}
    assert seen["rows_dropped"] == {"model_a": 57, "model_b": 57}
    assert seen["columns"] == {
        "outcome": "y",
        "forecast": ["model_a", "model_b"],
        "weight": "w",
        "group": None,
    }
    assert seen["options"]["sep"] == "," and seen["options"]["random_state"] == 3
    assert (
        seen["command"].startswith("skbrier report ")
        and "--random-state 3" in seen["command"]
    )
    assert seen["date"][:2] == "20"
    assert list(seen)[:11] == [
        "input",
        "sha256",
        "rows_read",
        "rows_used",
        "rows_dropped",
        "rows_dropped_why",
        "rows_compared",
        "columns",
        "options",
        "command",
        "date",
    ]


def test_version(capsys):
    from skbrier import __version__

    with pytest.raises(SystemExit) as exc:
        from skbrier.cli import _build_parser

        _build_parser().parse_args(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"skbrier {__version__}"
    assert main(["--version"]) == 0


def test_n_resamples_random_state_n_jobs(cli, tmp_path):
    from skbrier.report import calibration_report

    f = tmp_path / "s.csv"
    y, p = MESSY_SMALL()
    f.write_text("y,p\n" + "".join(f"{a},{float(b)!r}\n" for a, b in zip(y, p)))
    base = ["report", str(f), "--y-col", "y", "--p-col", "p", "--cov", "bootstrap"]
    base += ["--n-resamples", "60", "--random-state", "7", "--json"]
    one = cli(*base, "--n-jobs", "1")
    two = cli(*base, "--n-jobs", "2")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    rep = calibration_report(
        y, p, cov_type="bootstrap", random_state=7, inference_kwds={"n_resamples": 60}
    )
    got = json.loads(one.stdout)["brier_index"]
    assert got["ci_low"] == pytest.approx(rep.to_dict()["brier_index"]["ci_low"])
    _one_error(cli(*base[:-5], "--n-resamples", "1"), "--n-resamples", "at least 2")
    _one_error(cli(*base[:-5], "--n-jobs", "0"), "--n-jobs")


def MESSY_SMALL():
    rng = np.random.default_rng(1)
    p = rng.uniform(0.05, 0.95, 120)
    return (rng.random(120) < p).astype(int), p


def test_progress_over_groups_and_quiet(cli, tmp_path):
    from skbrier._core.progress import force_progress

    f = tmp_path / "g.csv"
    y, p = MESSY_SMALL()
    f.write_text(
        "g,y,p\n"
        + "".join(
            f"{'abc'[i % 3]},{a},{float(b)!r}\n" for i, (a, b) in enumerate(zip(y, p))
        )
    )
    args = ["report", str(f), "--y-col", "y", "--p-col", "p", "--group-col", "g"]
    with force_progress():
        res = cli(*args)
    # one labelled line per step of the run: the groups are its steps
    assert res.returncode == 0 and "skbrier report 4/4: c |" in res.stderr
    res = cli(*args, "--quiet")
    assert res.returncode == 0 and res.stderr == ""


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_pos_label_of_true_false_outcomes_in_any_case(cli, tmp_path, suffix):
    """TRUE/FALSE outcomes are read in any case without --pos-label, but
    --pos-label True (or 1) was refused for a boolean column (read as
    false/true) and --pos-label true for TRUE/FALSE text."""
    pd = pytest.importorskip("pandas")
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    p = np.array([0.8, 0.3, 0.6, 0.7, 0.2, 0.4, 0.55, 0.35])
    f = tmp_path / f"b.{suffix}"
    if suffix == "csv":
        pd.DataFrame({"y": np.where(y == 1, "TRUE", "FALSE"), "p": p}).to_csv(
            f, index=False
        )
    else:
        pd.DataFrame({"y": y.astype(bool), "p": p}).to_parquet(f)
    base = ["report", str(f), "--y-col", "y", "--p-col", "p", "--json"]
    want = brier_score(y, p)
    for label, event in (("True", 1), ("true", 1), ("1", 1), ("FALSE", 0), ("0", 0)):
        res = cli(*base, "--pos-label", label)
        assert res.returncode == 0, (label, res.stderr)
        got = json.loads(res.stdout)
        assert got["n_events"] == (y == event).sum(), label
        assert got["brier_score"]["estimate"] == pytest.approx(
            want if event == 1 else brier_score(1 - y, p)
        )
    _one_error(cli(*base, "--pos-label", "yes"), "--pos-label 'yes'")


@pytest.mark.parametrize("code", ["-", "?", "na", "#DIV/0!", "n.a."])
def test_a_missing_value_code_in_a_number_column_is_named(cli, tmp_path, code):
    """'-' or '?' in the forecast column: the error said only 'is not a
    number'; it says how a missing value is written (as the outcome column's
    rare-label message asks whether it is a missing-value code)."""
    f = tmp_path / "m.csv"
    f.write_text(f"y,p\n1,0.8\n0,{code}\n1,0.6\n0,0.1\n1,0.4\n0,0.5\n")
    _one_error(
        cli("report", str(f), "--y-col", "y", "--p-col", "p"),
        f"row 3: {code!r} is not a number (a missing value? leave the cell empty or write NA)",
    )
    f.write_text("y,p\n1,0.8\n0,abc\n1,0.6\n")
    res = cli("report", str(f), "--y-col", "y", "--p-col", "p")
    assert "missing value?" not in res.stderr


def test_percent_on_probabilities_is_refused(cli, tmp_path):
    """--percent on a column of probabilities read them as 0.001-0.01 and
    audited those without a word (mean forecast 0.0047); the readers' percent
    scale refuses the same mistake."""
    f = tmp_path / "p.csv"
    f.write_text("y,p\n1,0.8\n0,0.3\n1,0.6\n0,0.1\n1,0.45\n0,0.5\n")
    _one_error(
        cli("report", str(f), "--y-col", "y", "--p-col", "p", "--percent"),
        "column 'p'",
        "--percent",
        "they look like probabilities",
    )
    # percentages of 0 and 1 (no fraction) are percentages
    f.write_text("y,p\n1,1\n0,0\n1,1\n0,0\n1,0\n0,1\n")
    res = cli("report", str(f), "--y-col", "y", "--p-col", "p", "--percent", "--json")
    assert res.returncode == 0, res.stderr


def test_missing_column_hints_a_wrong_sep_or_another_case(cli, tmp_path):
    """--sep ';' on a comma file gave "no column 'y' (columns: y,p)", and
    --y-col Y "no column 'Y' (columns: y, p)", without saying why."""
    f = tmp_path / "c.csv"
    f.write_text("y,p\n1,0.8\n0,0.3\n1,0.6\n0,0.1\n")
    _one_error(
        cli("report", str(f), "--y-col", "y", "--p-col", "p", "--sep", ";"),
        "no column 'y'",
        "the header is one column 'y,p': its separator looks like ',', not --sep ';'",
    )
    _one_error(
        cli("report", str(f), "--y-col", "Y", "--p-col", "p"),
        "no column 'Y'",
        "did you mean 'y'?",
    )
