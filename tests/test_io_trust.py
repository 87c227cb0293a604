"""Trust at the boundary of the LLM-log readers (skbrier.io) and ``skbrier llm``.

* Inspect: the confidence is the probability of the answer token, not of the
  word ``ANSWER``; correctness-only reads; every log of Inspect's own test
  suite is read (tests/fixtures/llm/inspect_upstream, MIT, see its README);
* a non-finite or impossible log-likelihood is refused with line and field;
  NaN bootstrap replicates are never dropped silently;
* deep JSON, invalid UTF-8, empty files, wrong options and missing files give
  one clear error of the right type.
"""

from __future__ import annotations

import json
import math
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

from skbrier._core.resampling import interval_from_replicates
from skbrier.cli import main
from skbrier.io import (
    EvalLogError,
    read_helm_run,
    read_inspect_log,
    read_judged,
    read_lm_eval_samples,
)

FIX = Path(__file__).parent / "fixtures" / "llm"
UPSTREAM = FIX / "inspect_upstream"
LM = FIX / "samples_arc_easy_2024-05-01T12-00-00.jsonl"


def _tok(token, p, top=None):
    item = {"token": token, "logprob": math.log(p)}
    if top is not None:
        item["top_logprobs"] = [{"token": t, "logprob": math.log(q)} for t, q in top]
    return item


def _sample(content, value="C", answer="B", sid=1, choices=4):
    s = {
        "id": sid,
        "epoch": 1,
        "scores": {"choice": {"value": value, "answer": answer}},
        "output": {"choices": [{"logprobs": {"content": content}}]},
    }
    if choices:
        s["choices"] = [f"option {i}" for i in range(choices)]
    return s


def _log(tmp_path, samples, name="log.json"):
    f = tmp_path / name
    f.write_text(json.dumps({"eval": {"model": "m"}, "samples": samples}))
    return f


# ------------------------------------------------------------------ item 1: Inspect
def test_confidence_is_the_answer_letter_not_the_word_answer(tmp_path):
    top = [(" B", 0.6), (" A", 0.3), (" C", 0.06), (" D", 0.04)]
    content = [_tok("ANSWER", 0.999), _tok(":", 0.9999), _tok(" B", 0.6, top)]
    r = read_inspect_log(_log(tmp_path, [_sample(content)]))
    assert r.confidence[0] == pytest.approx(0.6, rel=1e-12)


def test_the_bundled_fixture_reads_the_letter_token():
    log = json.loads((FIX / "inspect_mmlu.json").read_text())
    want = [math.exp(s["output"]["choices"][0]["logprobs"]["content"][2]["logprob"])
            for s in log["samples"]]  # fmt: skip
    first = [math.exp(s["output"]["choices"][0]["logprobs"]["content"][0]["logprob"])
             for s in log["samples"]]  # fmt: skip
    r = read_inspect_log(FIX / "inspect_mmlu.json")
    np.testing.assert_allclose(r.confidence, want, rtol=1e-12)
    assert np.ptp(r.confidence) > 0.5 and np.ptp(first) == 0  # 'ANSWER' says nothing


def test_chain_of_thought_takes_the_last_answer_line(tmp_path):
    # letters in the reasoning (" A", " C") are not the answer; the last line is
    text = [_tok("Option", 0.5), _tok(" A", 0.4), _tok(" is", 0.9), _tok(" wrong", 0.9),
            _tok(";", 0.9), _tok(" C", 0.3), _tok(" fits", 0.9), _tok(".\n", 0.9),
            _tok("ANSWER", 0.99), _tok(":", 0.99), _tok(" C", 0.7)]  # fmt: skip
    r = read_inspect_log(_log(tmp_path, [_sample(text, answer="C")]))
    assert r.confidence[0] == pytest.approx(0.7)


def test_bare_letter_found_by_its_top_logprobs(tmp_path):
    top = [("B", 0.55), ("A", 0.25), ("D", 0.1)]
    content = [_tok("Sure", 0.2), _tok(",", 0.9), _tok(" ", 0.9), _tok("B", 0.55, top)]
    r = read_inspect_log(_log(tmp_path, [_sample(content)]))
    assert r.confidence[0] == pytest.approx(0.55)


def test_scored_answer_token_of_a_match_task(tmp_path):
    s = _sample([_tok("Yes", 0.83), _tok(".", 0.99)], answer="Yes", choices=0)
    r = read_inspect_log(_log(tmp_path, [s]))
    assert r.confidence[0] == pytest.approx(0.83)


def test_no_answer_token_is_refused(tmp_path):
    s = _sample([_tok("I", 0.4), _tok(" think", 0.9), _tok(" so", 0.9)], answer="Paris")
    f = _log(tmp_path, [s])
    with pytest.raises(EvalLogError, match=r"log.json: samples\[0\]: .*no token carries"):
        read_inspect_log(f)
    assert read_inspect_log(f, confidence="none").accuracy == 1.0


def test_several_letters_and_non_letters_are_refused(tmp_path):
    multi = [_tok("ANSWER", 0.99), _tok(":", 0.99), _tok(" A", 0.5), _tok(",", 0.9),
             _tok(" C", 0.5)]  # fmt: skip
    with pytest.raises(EvalLogError, match="several choices"):
        read_inspect_log(_log(tmp_path, [_sample(multi)]))
    out_of_range = [_tok("ANSWER", 0.99), _tok(":", 0.99), _tok(" F", 0.5)]
    with pytest.raises(EvalLogError, match="not a choice letter"):
        read_inspect_log(_log(tmp_path, [_sample(out_of_range)]))
    # Inspect's parse_answers reads no letter in "ANSWER: (B)" (the message
    # said "the reply's answer '' is not a choice letter")
    paren = [_tok("ANSWER", 0.99), _tok(":", 0.99), _tok(" (", 0.9), _tok("B", 0.6),
             _tok(")", 0.9)]  # fmt: skip
    with pytest.raises(EvalLogError, match=r"no choice letter right after 'ANSWER:'"):
        read_inspect_log(_log(tmp_path, [_sample(paren)]))
    glued = [_tok("ANSWER: B", 0.5)]
    with pytest.raises(EvalLogError, match="shares the token"):
        read_inspect_log(_log(tmp_path, [_sample(glued)]))


def test_positive_or_nan_answer_logprob_is_refused(tmp_path):
    content = [_tok("ANSWER", 0.99), _tok(":", 0.99), {"token": " B", "logprob": 0.5}]
    with pytest.raises(EvalLogError, match=r"content\[2\]\.logprob"):
        read_inspect_log(_log(tmp_path, [_sample(content)]))
    content[2]["logprob"] = "NaN"
    with pytest.raises(EvalLogError, match=r"content\[2\]\.logprob.*expected a number|NaN"):
        read_inspect_log(_log(tmp_path, [_sample(content)]))


def test_correctness_only_modes(tmp_path):
    with_lp = _sample([_tok("ANSWER", 0.99), _tok(":", 0.99), _tok(" B", 0.7)])
    without = _sample([], value="I", sid=2)
    del without["output"]
    # auto: logprobs in some samples, so the others are malformed
    f = _log(tmp_path, [with_lp, without])
    with pytest.raises(EvalLogError, match=r"samples\[1\].*logprobs.*other samples"):
        read_inspect_log(f)
    r = read_inspect_log(f, skip_invalid=True)
    assert r.n_records == 1 and r.n_skipped == 1
    r = read_inspect_log(f, confidence="none")
    assert r.confidence is None and r.n_records == 2 and r.accuracy == 0.5
    # auto without any logprobs: correctness only
    r = read_inspect_log(_log(tmp_path, [without], "b.json"))
    assert r.confidence is None and not r.has_confidence and r.accuracy == 0.0
    with pytest.raises(EvalLogError, match="logprobs=True"):
        read_inspect_log(_log(tmp_path, [without], "b.json"), confidence="logprobs")


def _upstream_logs():
    return sorted(p for p in UPSTREAM.iterdir() if p.suffix in (".eval", ".json"))


def _upstream_header(path):
    if path.suffix == ".eval":
        with zipfile.ZipFile(path) as zf:
            return json.loads(zf.read("header.json")), len(
                [n for n in zf.namelist() if n.startswith("samples/")]
            )
    log = json.loads(path.read_text())
    return log, len(log.get("samples") or [])


@pytest.mark.parametrize("path", _upstream_logs(), ids=lambda p: p.name[:60])
def test_every_log_of_inspects_test_suite_is_read(path):
    head, n_samples = _upstream_header(path)
    r = read_inspect_log(path)
    assert r.n_records + r.n_unscored + r.n_skipped == n_samples
    assert r.n_skipped == 0
    assert r.model == head["eval"]["model"]
    # where every sample is scored, the accuracy is Inspect's own
    scores = (head.get("results") or {}).get("scores") or []
    total = (head.get("results") or {}).get("total_samples")
    if r.n_records and r.n_records == total and scores:
        assert r.accuracy == pytest.approx(scores[0]["metrics"]["accuracy"]["value"])


def test_upstream_counts():
    by = {p.name: read_inspect_log(p) for p in _upstream_logs()}
    tool = by["log__test_eval_log__log_tool_call_error.json"]
    assert tool.n_records == 0 and tool.n_unscored == 1 and math.isnan(tool.accuracy)
    stream = by["log__test_eval_log__log_streaming.eval"]
    assert sorted(stream.ids) == ["1#1", "1#2", "2#1", "2#2"]


def test_cli_correctness_only_and_unscored(capsys):
    unscored = (
        UPSTREAM
        / "scorer__logs__2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval"
    )
    scored = UPSTREAM / "log__test_eval_log__log_streaming.eval"
    assert main(["llm", str(scored), str(unscored), "--n-resamples", "20"]) == 0
    out = capsys.readouterr().out
    assert "correctness only" in out and "10 unscored samples left out" in out
    assert "no scored sample" in out and "0.7500" in out


def test_cli_confidence_options(tmp_path, capsys):
    hle = FIX / "inspect_hle.json"
    out = tmp_path / "r.json"
    assert main(["llm", str(hle), "--confidence-field", "confidence", "--n-resamples",
                 "0", "--json", str(out)]) == 0  # fmt: skip
    judged = read_judged(FIX / "judged_hle_o1-mini.json")
    e = json.loads(out.read_text())[0]["estimates"]
    assert e["brier"] == pytest.approx(np.mean((judged.confidence - judged.correct) ** 2))
    assert main(["llm", str(hle), "--confidence-field", "nope", "--n-resamples", "0"]) == 2
    err = capsys.readouterr().err
    assert "--confidence-field 'nope'" in err and "Traceback" not in err
    assert main(["llm", str(hle), "--scorer", "nope", "--n-resamples", "0"]) == 2
    assert "--scorer 'nope' names no score" in capsys.readouterr().err
    assert main(["llm", str(LM), "--scorer", "x"]) == 2
    assert "applies to inspect logs" in capsys.readouterr().err
    assert main(["llm", str(hle), "--confidence-field", "confidence",
                 "--confidence-scale", "0"]) == 2  # fmt: skip
    assert "--confidence-scale must be > 0" in capsys.readouterr().err


# ------------------------------------------------------------------ item 5: NaN
def _lm_lines(n=3):
    return [json.loads(s) for s in LM.read_text().splitlines()[:n]]


@pytest.mark.parametrize("bad", ["inf", "Infinity", "nan", "0.5", 1e400])
def test_non_finite_or_positive_loglikelihood_is_refused(tmp_path, bad):
    recs = _lm_lines()
    recs[1]["filtered_resps"][1][0] = bad
    f = tmp_path / "samples_t.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    with pytest.raises(
        EvalLogError, match=r"samples_t.jsonl: line 2: field 'filtered_resps\[1\]\[0\]'"
    ):
        read_lm_eval_samples(f)
    r = read_lm_eval_samples(f, skip_invalid=True)
    assert r.n_skipped == 1 and np.isfinite(r.confidence).all()


def test_minus_inf_is_probability_zero_but_not_everywhere(tmp_path):
    rec = _lm_lines(1)[0]
    k = len(rec["filtered_resps"])
    rec["filtered_resps"] = [["-inf", "False"]] * (k - 1) + [["-1.0", "True"]]
    rec["target"] = str(k - 1)
    f = tmp_path / "s.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    r = read_lm_eval_samples(f)
    assert r.confidence[0] == 1.0 and r.correct[0]
    rec["filtered_resps"] = [["-inf", "False"]] * k
    f.write_text(json.dumps(rec) + "\n")
    with pytest.raises(EvalLogError, match="every choice has log-likelihood -inf"):
        read_lm_eval_samples(f)


def test_cli_refuses_inf_loglikelihood(tmp_path, capsys):
    recs = _lm_lines(5)
    recs[3]["filtered_resps"][0][0] = "inf"
    f = tmp_path / "samples_inf.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    assert main(["llm", str(f), "--n-resamples", "20"]) == 2
    captured = capsys.readouterr()
    assert "line 4: field 'filtered_resps[0][0]'" in captured.err
    assert "nan" not in captured.out.lower()


def test_nan_replicates_are_counted_or_refused():
    reps = np.array([0.1, 0.2, np.nan, 0.3, np.nan])
    with pytest.warns(RuntimeWarning, match="2 of 5 bootstrap replicates are NaN"):
        ci = interval_from_replicates(reps, 0.9)
    assert ci.low == pytest.approx(np.quantile([0.1, 0.2, 0.3], 0.05))
    with pytest.raises(ValueError, match="2 of 5 bootstrap replicates are NaN"):
        interval_from_replicates(reps, 0.9, nan_policy="raise")
    with pytest.raises(ValueError, match="nan_policy"):
        interval_from_replicates(reps, 0.9, nan_policy="drop")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the caller reports the count itself
        assert interval_from_replicates(reps, 0.9, nan_policy="omit") == ci
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # finite replicates: no warning
        interval_from_replicates(np.array([0.1, 0.2]), 0.9)
    band = np.array([[0.1, np.nan], [0.2, np.nan], [0.3, 0.4]])
    with pytest.warns(RuntimeWarning, match=r"2 of 3 .*one of 2 intervals"):
        interval_from_replicates(band, 0.9, axis=0)


# ------------------------------------------------------------------ item 10
def test_deeply_nested_json_is_a_data_error(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    recs = _lm_lines(2)
    f = tmp_path / "samples_d.jsonl"
    f.write_text(json.dumps(recs[0]) + "\n" + deep + "\n" + json.dumps(recs[1]) + "\n")
    with pytest.raises(EvalLogError, match="line 2: .*nested too deeply"):
        read_lm_eval_samples(f)
    assert read_lm_eval_samples(f, skip_invalid=True).n_skipped == 1
    g = tmp_path / "j.json"
    g.write_text(deep)
    with pytest.raises(EvalLogError, match="j.json: .*nested too deeply"):
        read_judged(g)
    g.write_text('{"samples": [], "eval": ' + deep + "}")
    with pytest.raises(EvalLogError, match="nested too deeply"):
        read_inspect_log(g)
    # a deep value inside a record is named, not repr'ed to death
    rec = dict(recs[0], filtered_resps=[json.loads("[" * 500 + "]" * 500)])
    f.write_text(json.dumps(rec) + "\n")
    with pytest.raises(EvalLogError, match=r"filtered_resps\[0\]"):
        read_lm_eval_samples(f)


def test_invalid_utf8_names_the_line(tmp_path, capsys):
    recs = _lm_lines(3)
    f = tmp_path / "samples_u.jsonl"
    f.write_bytes(
        (json.dumps(recs[0]) + "\n").encode()
        + b'{"doc_id": "\xff\xfe"}\n'
        + (json.dumps(recs[2]) + "\n").encode()
    )
    with pytest.raises(EvalLogError, match="line 2: .*not UTF-8"):
        read_lm_eval_samples(f)
    assert read_lm_eval_samples(f, skip_invalid=True).n_records == 2
    assert main(["llm", str(f), "--n-resamples", "0"]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "Traceback" not in err
    g = tmp_path / "judged.json"
    g.write_bytes(b'{"judge_response": "\xff"}')
    assert main(["llm", str(g), "--n-resamples", "0"]) == 2
    assert "UTF-8" in capsys.readouterr().err


def test_empty_and_blank_files(tmp_path):
    f = tmp_path / "samples_e.jsonl"
    for text in ("", "\n \n"):
        f.write_text(text)
        with pytest.raises(EvalLogError, match="samples_e.jsonl: the file is empty"):
            read_lm_eval_samples(f)
    g = tmp_path / "j.json"
    g.write_text("   ")
    for reader in (read_judged, read_inspect_log, read_helm_run):
        with pytest.raises(EvalLogError, match="j.json: the file is empty"):
            reader(g)
    g.write_text("{}")
    with pytest.raises(EvalLogError, match="no entry"):
        read_judged(g)
    g.write_text("[]")
    with pytest.raises(EvalLogError, match="empty"):
        read_helm_run(g)


def test_option_errors_are_not_data_errors(tmp_path):
    judged = FIX / "judged_hle_o1-mini.json"
    cases = [
        (read_judged, judged, {"confidence_scale": 0}, ValueError, "confidence_scale"),
        (read_judged, judged, {"confidence_scale": math.inf}, ValueError, "confidence_scale"),
        (read_judged, judged, {"confidence_scale": "100"}, TypeError, "confidence_scale"),
        (read_judged, judged, {"skip_invalid": "yes"}, TypeError, "skip_invalid"),
        (read_inspect_log, FIX / "inspect_mmlu.json", {"scorer": "nope"}, ValueError, "scorer='nope'.*\\['choice'\\]"),
        (read_inspect_log, FIX / "inspect_mmlu.json", {"scorer": 3}, TypeError, "scorer"),
        (read_inspect_log, FIX / "inspect_mmlu.json", {"confidence": "maybe"}, ValueError, "confidence"),
        (read_inspect_log, FIX / "inspect_mmlu.json", {"confidence": "stated"}, ValueError, "confidence_field"),
        (read_inspect_log, FIX / "inspect_mmlu.json", {"confidence": "none", "confidence_field": "c"}, ValueError, "confidence_field"),
        (read_inspect_log, FIX / "inspect_hle.json", {"confidence_field": "nope"}, ValueError, "confidence_field='nope'"),
        (read_lm_eval_samples, LM, {"length_normalize": 1}, TypeError, "length_normalize"),
        (read_helm_run, FIX / "helm_run", {"correct_stat": None}, TypeError, "correct_stat"),
        (read_lm_eval_samples, None, {}, TypeError, "path"),
    ]  # fmt: skip
    for reader, path, kwargs, exc, match in cases:
        with pytest.raises(exc, match=match) as info:
            reader(path, **kwargs)
        assert not isinstance(info.value, EvalLogError), (reader, kwargs)


def test_explanation_is_read_only_when_asked(tmp_path):
    log = json.loads((FIX / "inspect_hle.json").read_text())
    for s in log["samples"]:
        s["scores"]["llm_grader"].pop("metadata")
    f = tmp_path / "hle.json"
    f.write_text(json.dumps(log))
    with pytest.raises(ValueError, match="confidence_field='confidence'.*'explanation'"):
        read_inspect_log(f, confidence_field="confidence")
    r = read_inspect_log(f, confidence_field="explanation")
    np.testing.assert_array_equal(
        r.confidence, read_judged(FIX / "judged_hle_o1-mini.json").confidence
    )


def test_missing_files_and_directories(tmp_path, capsys):
    missing = tmp_path / "nope.jsonl"
    for reader in (read_lm_eval_samples, read_judged, read_inspect_log, read_helm_run):
        with pytest.raises(FileNotFoundError, match=r"nope.jsonl: no such file") as info:
            reader(missing)
        assert "Errno" not in str(info.value)
    for reader in (read_lm_eval_samples, read_judged, read_inspect_log):
        with pytest.raises(IsADirectoryError, match="is a directory"):
            reader(tmp_path)
    with pytest.raises(FileNotFoundError, match="no per_instance_stats.json"):
        read_helm_run(tmp_path)
    assert main(["llm", str(tmp_path), "--n-resamples", "0"]) == 2
    assert "per_instance_stats.json" in capsys.readouterr().err


def test_helm_bad_numbers_and_types(tmp_path):
    data = json.loads((FIX / "helm_run" / "per_instance_stats.json").read_text())
    f = tmp_path / "per_instance_stats.json"
    for mutate, match in [
        (lambda st: st.update(mean=float("nan")), "is NaN"),
        (lambda st: st.update(mean="high"), "expected a number"),
        (lambda st: (st.pop("mean"), st.update(count=0)), "positive count"),
        (lambda st: st.update(mean=True), "expected a number"),
    ]:
        d = json.loads(json.dumps(data))
        st = next(s for s in d[0]["stats"] if s["name"]["name"] == "max_prob")
        mutate(st)
        f.write_text(json.dumps(d))
        with pytest.raises(
            EvalLogError, match=rf"entry 0: field 'stats\[\d\]\.(mean|count)'.*{match}"
        ):
            read_helm_run(tmp_path)
    d = json.loads(json.dumps(data))
    d[0]["stats"] = "none"
    f.write_text(json.dumps(d))
    with pytest.raises(EvalLogError, match="entry 0: field 'stats': expected a list"):
        read_helm_run(tmp_path)
    # a broken run_spec.json costs the model name only
    f.write_text(json.dumps(data))
    (tmp_path / "run_spec.json").write_bytes(b"\xff{")
    assert read_helm_run(tmp_path).model is None
    with pytest.raises(EvalLogError, match=r"correct_stat='exact'"):
        read_helm_run(tmp_path, correct_stat="exact")


def test_judged_wrong_types(tmp_path):
    f = tmp_path / "j.json"
    for jr, field in [
        ({"correct": "yes", "confidence": None}, "judge_response.confidence"),
        ({"correct": "yes", "confidence": [80]}, "judge_response.confidence"),
        ({"correct": "yes", "confidence": float("inf")}, "judge_response.confidence"),
        ({"correct": True, "confidence": 80}, "judge_response.correct"),
        ("yes", "judge_response.correct"),
    ]:
        f.write_text(json.dumps({"q1": {"judge_response": jr}}))
        with pytest.raises(EvalLogError, match=rf"j.json: entry 'q1': field '{field}'"):
            read_judged(f)
    f.write_text(
        json.dumps({"q1": {"judge_response": {"correct": "yes", "confidence": 1e999}}})
    )
    with pytest.raises(EvalLogError, match="not a finite number"):
        read_judged(f)


def test_inspect_malformed_files_and_samples(tmp_path):
    z = tmp_path / "random.eval"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("data.csv", "a,b\n")
    with pytest.raises(EvalLogError, match="not an Inspect .eval log"):
        read_inspect_log(z)
    z.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(EvalLogError, match="random.eval"):
        read_inspect_log(z)
    g = tmp_path / "x.json"
    g.write_text("[1, 2]")
    with pytest.raises(EvalLogError, match="not an Inspect log"):
        read_inspect_log(g)
    for sample, match in [
        ([1, 2], r"samples\[0\]: field '\(sample\)'"),
        ({"id": {"a": 1}, "scores": {"s": {"value": "C"}}}, "field 'id'"),
        ({"id": 1, "epoch": "one", "scores": {"s": {"value": "C"}}}, "field 'epoch'"),
        ({"id": 1, "scores": {"s": {"value": 0.5}}}, r"scores\.s\.value.*0\.5"),
        ({"id": 1, "scores": {"s": {"value": {"a": "C"}}}}, r"scores\.s\.value"),
        ({"id": 1, "scores": ["C"]}, "field 'scores'"),
    ]:
        g.write_text(json.dumps({"eval": {}, "samples": [sample]}))
        with pytest.raises(EvalLogError, match=match):
            read_inspect_log(g)


def test_records_of_the_wrong_type(tmp_path):
    f = tmp_path / "samples_w.jsonl"
    f.write_text("5\n")
    with pytest.raises(
        EvalLogError, match=r"line 1: field '\(line\)': expected a JSON object"
    ):
        read_lm_eval_samples(f)
    rec = dict(_lm_lines(1)[0], doc_id=None)
    f.write_text(json.dumps(rec) + "\n")
    with pytest.raises(EvalLogError, match="field 'doc_id'"):
        read_lm_eval_samples(f)
    h = tmp_path / "per_instance_stats.json"
    h.write_text("[[1, 2]]")
    with pytest.raises(EvalLogError, match=r"entry 0: field '\(entry\)'"):
        read_helm_run(h)
    j = tmp_path / "j.json"
    j.write_text('{"q1": "yes"}')
    with pytest.raises(EvalLogError, match=r"entry 'q1': field '\(entry\)'"):
        read_judged(j)
