"""``skbrier llm``: numbers equal the library functions; strict errors exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from skbrier.cli import main
from skbrier.io import read_judged, read_lm_eval_samples

FIX = Path(__file__).parent / "fixtures" / "llm"
LM = FIX / "samples_arc_easy_2024-05-01T12-00-00.jsonl"
JUDGED = FIX / "judged_hle_o1-mini.json"


def test_numbers_equal_the_library(tmp_path, capsys):
    from skbrier import brier_score, calibration_error, smooth_calibration_error
    from skbrier.metrics.multiple_choice import multiple_choice_brier_score

    out = tmp_path / "r.json"
    code = main(["llm", str(LM), str(JUDGED), "--n-resamples", "20", "--json", str(out)])
    assert code == 0
    rows = json.loads(out.read_text())
    lm, jd = rows
    r = read_lm_eval_samples(LM)
    logp = [list(np.log(p)) for p in r.choice_probabilities()]
    e = lm["estimates"]
    assert e["mc_brier_lm_eval"] == pytest.approx(
        multiple_choice_brier_score(r.gold, logp, from_logprobs=True), rel=1e-12
    )
    assert e["mc_brier_bigbench"] == pytest.approx(
        multiple_choice_brier_score(
            r.gold, logp, from_logprobs=True, convention="bigbench"
        ),
        rel=1e-12,
    )
    j = read_judged(JUDGED)
    e = jd["estimates"]
    assert e["accuracy"] == j.accuracy
    assert e["brier"] == pytest.approx(brier_score(j.correct, j.confidence), rel=1e-12)
    assert e["ece"] == pytest.approx(calibration_error(j.correct, j.confidence), rel=1e-12)
    assert e["rms_ce"] == pytest.approx(
        calibration_error(j.correct, j.confidence, binning="hle", norm="l2"), rel=1e-12
    )
    assert e["smece"] == pytest.approx(smooth_calibration_error(j.correct, j.confidence))
    lo, hi = jd["intervals"]["accuracy"]
    assert lo <= e["accuracy"] <= hi
    text = capsys.readouterr().out
    assert "o1-mini" in text and "multiple-choice Brier, BIG-bench" in text
    # one table, one row per file
    head = text.splitlines()[0]
    assert head.startswith("file") and "AURC" in head and "Platt ECE" in head


def test_html_report(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    assert (
        main(
            [
                "llm",
                str(JUDGED),
                str(FIX / "helm_run"),
                "--n-resamples",
                "0",
                "--html",
                str(out),
            ]
        )
        == 0
    )
    page = out.read_text()
    assert page.count("<svg") == 2 and "openai/gpt2" in page
    assert "How to read this" in page and 'class="scroll"' in page
    assert "10 equal-width bins" in page  # the figures' ECE names its binning


def test_bad_file_exits_2(tmp_path, capsys):
    f = tmp_path / "samples_x.jsonl"
    f.write_text(
        '{"doc_id": 0, "target": "0", "filtered_resps": [["-1", "True"], ["x", "F"]]}\n'
    )
    assert main(["llm", str(f), "--n-resamples", "0"]) == 2
    err = capsys.readouterr().err
    assert "samples_x.jsonl: line 1: field 'filtered_resps[1][0]'" in err
    assert main(["llm", str(tmp_path / "nope.jsonl")]) == 2
    g = tmp_path / "data.txt"
    g.write_text("x")
    assert main(["llm", str(g)]) == 2
    assert "--format" in capsys.readouterr().err


def test_skip_invalid_is_reported(tmp_path, capsys):
    lines = LM.read_text().splitlines()
    f = tmp_path / "samples_y.jsonl"
    f.write_text("\n".join([*lines[:5], "{broken", *lines[5:10]]) + "\n")
    assert main(["llm", str(f), "--n-resamples", "0", "--skip-invalid"]) == 0
    assert "1 malformed records skipped" in capsys.readouterr().out


def test_new_measures_equal_the_library(tmp_path):
    from skbrier.metrics.recalibration import platt_calibration_error, temperature_scaling
    from skbrier.metrics.selective import (
        aurc,
        e_aurc,
        selective_accuracy_at_top,
        selective_coverage_accuracy_area,
    )

    out = tmp_path / "r.json"
    assert (
        main(["llm", str(LM), str(JUDGED), "--n-resamples", "0", "--json", str(out)]) == 0
    )
    lm, jd = json.loads(out.read_text())
    j = read_judged(JUDGED)
    e = jd["estimates"]
    assert e["aurc"] == pytest.approx(aurc(j.correct, j.confidence), rel=1e-12)
    assert e["e_aurc"] == pytest.approx(e_aurc(j.correct, j.confidence), rel=1e-12)
    assert e["selective_area"] == pytest.approx(
        selective_coverage_accuracy_area(j.correct, j.confidence), rel=1e-12
    )
    assert e["accuracy_top10"] == pytest.approx(
        selective_accuracy_at_top(j.correct, j.confidence), rel=1e-12
    )
    pl = platt_calibration_error(j.correct, j.confidence)
    assert e["platt_ece"] == pytest.approx(pl.calibration_error, rel=1e-9)
    assert e["platt_coef"] == pytest.approx(pl.coef, rel=1e-9)
    assert "temperature" not in e  # no choice log-likelihoods in a judged log
    r = read_lm_eval_samples(LM)
    ts = temperature_scaling(r.gold, [np.log(p) for p in r.choice_probabilities()])
    e = lm["estimates"]
    assert e["temperature"] == pytest.approx(ts.temperature, rel=1e-6)
    assert e["ts_mc_brier"] == pytest.approx(ts.brier_score, rel=1e-6)
    assert e["ts_rms_ce"] == pytest.approx(ts.rms_calibration_error, rel=1e-6)


def test_unreadable_file_is_reported_and_skipped(tmp_path, capsys):
    out = tmp_path / "r.json"
    bad = tmp_path / "nope.jsonl"
    assert (
        main(["llm", str(JUDGED), str(bad), "--n-resamples", "0", "--json", str(out)]) == 0
    )
    rows = json.loads(out.read_text())
    assert rows[0]["error"] is None and rows[0]["estimates"]["n"] == 250
    assert "no such file" in rows[1]["error"] and rows[1]["estimates"] == {}
    cap = capsys.readouterr()
    assert "not read:" in cap.out and "skipped" in cap.err
    assert main(["llm", str(bad), str(tmp_path / "nope2.jsonl")]) == 2


def test_graded_abstention(tmp_path):
    from skbrier.io import read_graded
    from skbrier.metrics.abstention import abstention_scores
    from skbrier.metrics.selective import aurc

    rng = np.random.default_rng(0)
    grades = rng.choice(
        ["CORRECT", "INCORRECT", "NOT_ATTEMPTED"], size=60, p=[0.5, 0.3, 0.2]
    )
    conf = rng.uniform(size=60).round(2)
    f = tmp_path / "graded.jsonl"
    f.write_text(
        "\n".join(
            json.dumps({"id": f"q{i}", "grade": str(g), "confidence": float(c)})
            for i, (g, c) in enumerate(zip(grades, conf))
        )
        + "\n"
    )
    out = tmp_path / "r.json"
    argv = ["llm", str(f), "--confidence-field", "confidence", "--n-resamples", "0"]
    assert main([*argv, "--json", str(out)]) == 0  # auto-detected as graded
    (row,) = json.loads(out.read_text())
    assert row["format"] == "graded" and row["attempted_only"]
    r = read_graded(f, confidence_field="confidence")
    ab = abstention_scores(r.correct, r.attempted)
    e = row["estimates"]
    assert e["coverage"] == pytest.approx(ab.coverage)
    assert e["f_score"] == pytest.approx(ab.f_score)
    assert e["accuracy_attempted"] == pytest.approx(ab.accuracy_given_attempted)
    m = r.attempted
    assert e["aurc"] == pytest.approx(aurc(r.correct[m], r.confidence[m]), rel=1e-12)


def test_figure_ece_is_the_table_column(tmp_path):
    pytest.importorskip("matplotlib")
    from skbrier.cli._llm_measures import FIGURE_ECE_KEY
    from skbrier.plotting._multiclass_reliability import MulticlassReliabilityDisplay

    out = tmp_path / "r.json"
    assert main(["llm", str(JUDGED), "--n-resamples", "0", "--json", str(out)]) == 0
    (row,) = json.loads(out.read_text())
    j = read_judged(JUDGED)
    disp = MulticlassReliabilityDisplay.from_predictions(j.correct, j.confidence, n_bins=10)
    assert row["estimates"][FIGURE_ECE_KEY] == pytest.approx(disp.ece, rel=1e-12)


def test_bootstrap_on_sorted_rows_equals_the_records_order(tmp_path):
    """The resamples are scored on the rows sorted by confidence: a replicate
    equals the same counts on the records' order (measures without tie-order
    conventions to the last digits; HLE's bins of 100 split ties as the sort
    leaves them), and the intervals do not depend on --n-jobs."""
    from skbrier.cli._llm_measures import Scored, statistics

    j = read_judged(JUDGED)
    sc = Scored(j)
    srt, order = sc.by_confidence()
    assert order is not None and np.all(np.diff(srt.p) >= 0)
    stat, keys = statistics(sc)
    stat_sorted = statistics(srt)[0]
    rng = np.random.default_rng(3)
    for _ in range(3):
        w = np.bincount(rng.integers(0, sc.n, sc.n), minlength=sc.n).astype(float)
        a, b = stat(w), stat_sorted(w[order])
        for k in keys:
            if k != "rms_ce":
                assert b[k] == pytest.approx(a[k], rel=1e-12, abs=1e-15), k
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"r{jobs}.json"
        argv = ["llm", str(JUDGED), "--n-resamples", "40", "--n-jobs", jobs]
        assert main([*argv, "--json", str(out)]) == 0
        outs.append(json.loads(out.read_text())[0]["intervals"])
    assert outs[0] == outs[1]


def test_format_detection_reads_the_head(tmp_path):
    # one reader of a file's head for both kinds of log; --confidence takes
    # the values of read_inspect_log(confidence=...), declared once in io
    from skbrier.cli import _llm
    from skbrier.cli._common import CLIError
    from skbrier.io._inspect import CONFIDENCE_SOURCES

    assert _llm.CONFIDENCE_SOURCES is CONFIDENCE_SOURCES
    graded = tmp_path / "g.jsonl"
    graded.write_text('{"id": "1", "grade": "A"}\n{"doc_id": 1}\n')
    assert _llm._detect(str(graded)) == "graded"
    judged = tmp_path / "j.json"
    judged.write_text('{"q1": {"judge_response": {}}}')
    assert _llm._detect(str(judged)) == "judged"
    for name in ("x.jsonl", "x.json"):
        link = tmp_path / name
        link.symlink_to(tmp_path / "gone")  # named like a log, cannot be opened
        with pytest.raises(CLIError, match=f"{name}: cannot read"):
            _llm._detect(str(link))


def test_length_normalize_and_target_delimiter(tmp_path):
    # lm-eval's acc_norm divides by len(choice); the continuation is " " + choice
    line = {
        "doc_id": 0,
        "target": "1",
        "arguments": {
            "gen_args_0": {"arg_0": "Q:", "arg_1": " a"},
            "gen_args_1": {"arg_0": "Q:", "arg_1": " bbb"},
        },
        "filtered_resps": [["-1.0", "False"], ["-2.5", "False"]],
    }
    f = tmp_path / "samples_t.jsonl"
    f.write_text(json.dumps(line) + "\n")
    out = tmp_path / "r.json"
    args = ["llm", str(f), "--n-resamples", "0", "--length-normalize", "--json", str(out)]
    assert main(args) == 0
    assert json.loads(out.read_text())[0]["estimates"]["accuracy"] == 1.0
    assert main([*args, "--force", "--target-delimiter", ""]) == 0
    assert json.loads(out.read_text())[0]["estimates"]["accuracy"] == 0.0
    assert main([*args, "--force", "--format", "judged", "--target-delimiter", ""]) == 2


def test_fewer_than_three_questions_have_no_intervals(tmp_path, capsys):
    # the API refuses a bootstrap of fewer than 3 observations; the command
    # printed intervals such as [1.0000, 1.0000] from one question
    j = {
        f"q{i}": {"judge_response": {"correct": "yes", "confidence": 80}} for i in range(2)
    }
    f = tmp_path / "j.json"
    f.write_text(json.dumps(j))
    out = tmp_path / "r.json"
    assert main(["llm", str(f), "--n-resamples", "50", "--json", str(out)]) == 0
    row = json.loads(out.read_text())[0]
    assert row["intervals"] == {} and row["estimates"]["n"] == 2
    assert "at least 3" in capsys.readouterr().out


def test_a_gold_choice_of_probability_zero_skips_temperature_only(tmp_path, capsys):
    # the reader accepts a -inf log-likelihood; temperature_scaling cannot fit it
    # and its ValueError ended the whole run with a traceback
    lines = [
        {
            "doc_id": i,
            "target": "0",
            "filtered_resps": [["-inf" if i == 0 else "-1.5", "False"], ["-0.5", "True"]],
        }
        for i in range(5)
    ]
    f = tmp_path / "samples_t.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    out = tmp_path / "r.json"
    assert main(["llm", str(f), str(JUDGED), "--n-resamples", "0", "--json", str(out)]) == 0
    lm, jd = json.loads(out.read_text())
    assert "temperature" not in lm["estimates"] and "mc_brier_lm_eval" in lm["estimates"]
    assert jd["estimates"]["n"] > 0
    assert "temperature scaling: y_score gives a gold choice" in capsys.readouterr().out


def test_compressed_logs_are_detected_and_read(tmp_path):
    # .jsonl.gz / .json.gz: the format is told from the name without the
    # compression suffix and from the decompressed head
    import gzip

    from skbrier.cli import _llm

    lm = tmp_path / "samples_arc.jsonl.gz"
    lm.write_bytes(gzip.compress(LM.read_bytes()))
    jd = tmp_path / "judged.json.gz"
    jd.write_bytes(gzip.compress(JUDGED.read_bytes()))
    assert _llm._detect(str(lm)) == "lm-eval"
    assert _llm._detect(str(jd)) == "judged"
    out = tmp_path / "r.json"
    code = main(["llm", str(lm), str(jd), "--n-resamples", "0", "--json", str(out)])
    assert code == 0
    rows = json.loads(out.read_text())
    plain = tmp_path / "plain.json"
    main(["llm", str(LM), str(JUDGED), "--n-resamples", "0", "--json", str(plain)])
    for row, ref in zip(rows, json.loads(plain.read_text())):
        assert row["estimates"] == ref["estimates"]


def _samples(path, questions):
    """An lm-eval samples file of ``(target, [log-likelihood text per choice])``."""
    rows = [
        {"doc_id": i, "target": t, "arguments": {},
         "filtered_resps": [[ll, "False"] for ll in lls]}
        for i, (t, lls) in enumerate(questions)
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def test_platt_of_one_class_is_a_note_not_a_bare_nan(tmp_path):
    # every answer right: Platt scaling has no fit (its coefficients are NaN);
    # the row says why instead of printing nan silently
    f = _samples(
        tmp_path / "samples_right.jsonl",
        [("0", [f"{-0.1 * (i + 1)}", "-3.0"]) for i in range(6)],
    )
    out = tmp_path / "r.json"
    assert main(["llm", str(f), "--n-resamples", "0", "--json", str(out)]) == 0
    (row,) = json.loads(out.read_text())
    assert "platt_coef" not in row["estimates"]
    assert row["estimates"]["platt_ece"] == 0.0  # the API's value
    assert any(
        n.startswith("no Platt coefficients: every answer is right") for n in row["notes"]
    )


def test_format_detection_skips_leading_blank_lines(tmp_path):
    # the readers skip blank lines; the detection read the first line only
    # and took a graded file starting with a blank line for lm-eval samples
    from skbrier.cli import _llm

    graded = tmp_path / "g.jsonl"
    graded.write_text('\n  \n{"id": "1", "grade": "A"}\n{"id": "2", "grade": "C"}\n')
    assert _llm._detect(str(graded)) == "graded"
    assert main(["llm", str(graded), "--n-resamples", "0"]) == 0


def test_html_of_certain_answers_gives_no_hard_forecast_warning(tmp_path, capsys):
    # every answer of confidence 1 (the other choices of log-likelihood -inf):
    # the text run says nothing about it, and neither does the figure of the
    # HTML page any more (it warned "y_proba: every forecast is exactly 0 or 1
    # ... pass predict_proba() output", advice that does not apply to a log)
    pytest.importorskip("matplotlib")
    f = _samples(
        tmp_path / "samples_sure.jsonl",
        [(str(i % 2), ["-0.1", "-inf"][:: 1 if i % 3 else -1]) for i in range(6)],
    )
    out = tmp_path / "r.html"
    assert main(["llm", str(f), "--n-resamples", "0", "--html", str(out)]) == 0
    assert "predict_proba" not in capsys.readouterr().err
    assert out.exists()
