"""``skbrier leaderboard``."""

import json

import pytest

from skbrier.cli import main

CSV = """model,qid,outcome,forecast,round
a,1,1,0.9,r1
a,2,0,0.2,r1
a,3,1,0.7,r2
b,1,1,0.6,r1
b,2,0,0.4,r1
b,3,1,0.5,r2
b,4,0,0.3,r2
c,3,1,0.8,r2
c,4,0,0.1,r2
Always 0.5,1,1,0.5,r1
Always 0.5,2,0,0.5,r1
Always 0.5,3,1,0.5,r2
Always 0.5,4,0,0.5,r2
"""

ARGS = ["--forecaster-col", "model", "--question-col", "qid", "--y-col", "outcome",
        "--p-col", "forecast", "--n-resamples", "49", "--random-state", "0"]  # fmt: skip


@pytest.fixture
def csv_file(tmp_path):
    p = tmp_path / "lb.csv"
    p.write_text(CSV)
    return p


def test_table_and_html(csv_file, tmp_path, capsys):
    out = tmp_path / "lb.html"
    code = main(["leaderboard", str(csv_file), *ARGS, "--strata-col", "round",
                 "--anchor", "Always 0.5=0.25", "--reference", "b",
                 "--exclude-from-fit", "Always 0.5", "--html", str(out)])  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "Always 0.5" in text and "brier_index" in text
    page = out.read_text()
    assert "<svg" in page and "Always 0.5 scores 0.25" in page
    # an existing file is not replaced without --force
    assert main(["leaderboard", str(csv_file), *ARGS, "--html", str(out)]) == 2


def test_json(csv_file, capsys):
    assert main(["leaderboard", str(csv_file), *ARGS, "--json", "--reference", "a"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["forecaster"] for r in rows][0] in {"a", "c"}
    assert any(r["p_value"] is None for r in rows)  # the reference


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--anchor", "nope"], "--anchor"),
        (["--anchor", "zz=0.25"], "anchor: unknown forecaster"),
        (["--reference", "zz"], "reference"),
        (["--exclude-from-fit", "zz"], "--exclude-from-fit"),
        (["--n-resamples", "1"], "--n-resamples"),
    ],
)
def test_errors(csv_file, capsys, extra, message):
    assert main(["leaderboard", str(csv_file), *ARGS, *extra]) == 2
    assert message in capsys.readouterr().err


def test_too_few_questions_for_the_bootstrap_name_the_flag(tmp_path, capsys):
    # the API's "pass n_resamples=0" is spelt as the command's option
    from skbrier.cli import main

    f = tmp_path / "two.csv"
    f.write_text("forecaster,question,y,p\na,1,1,0.2\nb,1,1,0.5\na,2,0,0.3\nb,2,0,0.6\n")
    cols = ["--forecaster-col", "forecaster", "--question-col", "question", "--y-col", "y",
            "--p-col", "p"]  # fmt: skip
    assert main(["leaderboard", str(f), *cols]) == 2
    err = capsys.readouterr().err
    assert "at least 3" in err and "--n-resamples 0" in err and "n_resamples=0" not in err
    assert main(["leaderboard", str(f), *cols, "--n-resamples", "0"]) == 0
