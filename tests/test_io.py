"""Readers of LLM evaluation logs (fixtures written by tests/fixtures/llm/make_logs.py
with the serialization of each harness's own writer)."""

from __future__ import annotations

import json
import math
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from skbrier.io import (
    EvalLogError,
    read_helm_run,
    read_inspect_log,
    read_judged,
    read_lm_eval_samples,
)

FIX = Path(__file__).parent / "fixtures" / "llm"
LM = FIX / "samples_arc_easy_2024-05-01T12-00-00.jsonl"


def _lines(path):
    return [json.loads(s) for s in path.read_text().splitlines() if s.strip()]


def test_lm_eval_matches_its_own_acc_and_acc_norm():
    recs = _lines(LM)
    r = read_lm_eval_samples(LM)
    assert r.n_records == len(recs) and r.n_skipped == 0
    np.testing.assert_array_equal(r.correct, [bool(x["acc"]) for x in recs])
    rn = read_lm_eval_samples(LM, length_normalize=True)
    np.testing.assert_array_equal(rn.correct, [bool(x["acc_norm"]) for x in recs])
    assert sorted(set(r.n_choices.tolist())) == [3, 4, 5]  # ragged


def test_lm_eval_probabilities_and_brier_follow_lm_eval():
    # lm-eval's brier_score: softmax of the raw log-likelihoods, sum over choices
    recs = _lines(LM)
    r = read_lm_eval_samples(LM)
    probs = r.choice_probabilities()
    ref = []
    for x, p in zip(recs, probs):
        ll = np.array([float(v[0]) for v in x["filtered_resps"]])
        q = np.exp(ll - ll.max()) / np.exp(ll - ll.max()).sum()
        np.testing.assert_allclose(p, q, rtol=1e-13)
        onehot = np.eye(len(ll))[int(x["target"])]
        ref.append(np.sum((q - onehot) ** 2))
        assert r.confidence[len(ref) - 1] == pytest.approx(q.max(), rel=1e-13)
    from skbrier.metrics.multiple_choice import multiple_choice_brier_score

    bs = multiple_choice_brier_score(
        r.gold, [list(np.log(p)) for p in probs], from_logprobs=True
    )
    assert bs == pytest.approx(np.mean(ref), rel=1e-12)


def test_lm_eval_strict_errors_and_skip(tmp_path):
    recs = _lines(LM)[:3]
    bad = dict(recs[1])
    bad["filtered_resps"] = [["oops", "False"], ["-1.0", "True"]]
    f = tmp_path / "samples_t.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in [recs[0], bad, recs[2]]) + "\n")
    with pytest.raises(
        EvalLogError, match=r"samples_t.jsonl: line 2: field 'filtered_resps\[0\]\[0\]'"
    ):
        read_lm_eval_samples(f)
    r = read_lm_eval_samples(f, skip_invalid=True)
    assert r.n_records == 2 and r.n_skipped == 1
    f.write_text(json.dumps(recs[0]) + "\n{not json\n")
    with pytest.raises(EvalLogError, match="line 2: .*invalid JSON"):
        read_lm_eval_samples(f)
    g = dict(recs[0], target="12")
    f.write_text(json.dumps(g) + "\n")
    with pytest.raises(EvalLogError, match="field 'target'"):
        read_lm_eval_samples(f)
    gen = {"doc_id": 0, "target": "x", "filtered_resps": ["some text"]}
    f.write_text(json.dumps(gen) + "\n")
    with pytest.raises(EvalLogError, match="multiple-choice"):
        read_lm_eval_samples(f)
    h = dict(recs[0])
    del h["arguments"]
    f.write_text(json.dumps(h) + "\n")
    with pytest.raises(EvalLogError, match="field 'arguments'"):
        read_lm_eval_samples(f, length_normalize=True)


def _mc_line(lls, conts, target):
    return json.dumps(
        {
            "doc_id": 0,
            "target": str(target),
            "arguments": {
                f"gen_args_{i}": {"arg_0": "Q:", "arg_1": c} for i, c in enumerate(conts)
            },
            "filtered_resps": [[str(v), "False"] for v in lls],
        }
    )


def test_lm_eval_acc_norm_divides_by_the_choice_not_the_delimiter(tmp_path):
    # lm-eval: continuation = target_delimiter + choice, acc_norm = argmax(ll / len(choice))
    # choices "a" (-1.0 / 1) and "bbb" (-2.5 / 3 = -0.83): "bbb" wins; dividing by the
    # continuations " a" and " bbb" (-0.5 against -0.63) picked "a"
    f = tmp_path / "samples_t.jsonl"
    f.write_text(_mc_line([-1.0, -2.5], [" a", " bbb"], 1) + "\n")
    r = read_lm_eval_samples(f, length_normalize=True)
    assert r.correct.tolist() == [True]
    assert r.confidence[0] == pytest.approx(1 / (1 + np.exp(-1.0 + 2.5 / 3)), rel=1e-12)
    # a task with target_delimiter "" (the choice is the whole continuation)
    f.write_text(_mc_line([-1.0, -2.5], [" a", " bbb"], 0) + "\n")
    r = read_lm_eval_samples(f, length_normalize=True, target_delimiter="")
    assert r.correct.tolist() == [True]  # -1/2 > -2.5/4
    # without normalization the delimiter changes nothing
    assert read_lm_eval_samples(f, target_delimiter="").correct.tolist() == [True]
    with pytest.raises(TypeError, match="^target_delimiter must be a str"):
        read_lm_eval_samples(f, target_delimiter=None)


def test_lm_eval_mutual_info_requests_are_not_choices(tmp_path):
    # with acc_mutual_info lm-eval adds one unconditional request ("", choice)
    # per choice after the conditional ones; its acc reads the first half only
    line = {
        "doc_id": 0,
        "target": "0",
        "arguments": {
            f"gen_args_{i}": {"arg_0": ctx, "arg_1": c}
            for i, (ctx, c) in enumerate(
                [("Q:", " a"), ("Q:", " b"), ("", " a"), ("", " b")]
            )
        },
        "filtered_resps": [["-1.0", "True"], ["-2.0", "False"], ["-0.1", "False"],
                           ["-3.0", "False"]],
        "metrics": ["acc", "acc_mutual_info"],
    }  # fmt: skip
    f = tmp_path / "samples_t.jsonl"
    f.write_text(json.dumps(line) + "\n")
    r = read_lm_eval_samples(f)
    assert r.n_choices.tolist() == [2] and r.correct.tolist() == [True]
    assert r.confidence[0] == pytest.approx(1 / (1 + math.exp(-1.0)), rel=1e-12)
    # four real choices (conditional contexts) are kept, whatever "metrics" says
    for i in (2, 3):
        line["arguments"][f"gen_args_{i}"]["arg_0"] = "Q:"
    f.write_text(json.dumps(line) + "\n")
    assert read_lm_eval_samples(f).n_choices.tolist() == [4]
    line["arguments"]["gen_args_3"] = "not an object"
    f.write_text(json.dumps(line) + "\n")
    assert read_lm_eval_samples(f).n_choices.tolist() == [4]


def test_lm_eval_target_as_choice_text(tmp_path):
    rec = _lines(LM)[0]
    gold = int(rec["target"])
    rec["target"] = rec["arguments"][f"gen_args_{gold}"]["arg_1"].strip()
    f = tmp_path / "s.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    assert read_lm_eval_samples(f).gold[0] == gold


def test_helm_run():
    data = json.loads((FIX / "helm_run" / "per_instance_stats.json").read_text())
    plain = [e for e in data if not e.get("perturbation")]
    r = read_helm_run(FIX / "helm_run")
    assert r.model == "openai/gpt2" and r.n_records == len(plain)
    mp = [
        next(s["mean"] for s in e["stats"] if s["name"]["name"] == "max_prob")
        for e in plain
    ]
    np.testing.assert_array_equal(r.confidence, mp)
    assert (
        read_helm_run(FIX / "helm_run" / "per_instance_stats.json").n_records == r.n_records
    )


def test_helm_errors(tmp_path):
    data = json.loads((FIX / "helm_run" / "per_instance_stats.json").read_text())
    data[0]["stats"] = [s for s in data[0]["stats"] if s["name"]["name"] != "max_prob"]
    f = tmp_path / "per_instance_stats.json"
    f.write_text(json.dumps(data))
    with pytest.raises(EvalLogError, match=r"entry 0: field 'stats\[max_prob\]'"):
        read_helm_run(tmp_path)
    assert read_helm_run(tmp_path, skip_invalid=True).n_skipped == 1


def test_inspect_eval_zip_equals_json():
    a = read_inspect_log(FIX / "inspect_mmlu.eval")
    b = read_inspect_log(FIX / "inspect_mmlu.json")
    assert a.model == b.model == "openai/gpt-4o-mini"
    ia, ib = np.argsort(a.ids), np.argsort(b.ids)
    np.testing.assert_array_equal(a.ids[ia], b.ids[ib])
    np.testing.assert_array_equal(a.correct[ia], b.correct[ib])
    np.testing.assert_allclose(a.confidence[ia], b.confidence[ib])
    samples = json.loads((FIX / "inspect_mmlu.json").read_text())["samples"]
    assert a.accuracy == np.mean([s["scores"]["choice"]["value"] == "C" for s in samples])


def test_inspect_errors(tmp_path):
    log = json.loads((FIX / "inspect_mmlu.json").read_text())
    del log["samples"][2]["output"]["choices"][0]["logprobs"]
    f = tmp_path / "log.json"
    f.write_text(json.dumps(log))
    with pytest.raises(
        EvalLogError, match=r"samples\[2\]: field 'output.choices\[0\].logprobs'"
    ):
        read_inspect_log(f)
    assert read_inspect_log(f, skip_invalid=True).n_skipped == 1
    log["samples"][0]["scores"]["other"] = {"value": 1}
    f.write_text(json.dumps(log))
    # several scores and no scorer= is a missing option, not a data error
    with pytest.raises(ValueError, match="scorer=") as info:
        read_inspect_log(f, skip_invalid=True)
    assert not isinstance(info.value, EvalLogError)
    z = tmp_path / "bad.eval"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("header.json", "{}")
        zf.writestr("samples/1_epoch_1.json", "{broken")
    with pytest.raises(EvalLogError, match="samples/1_epoch_1.json: .*invalid JSON"):
        read_inspect_log(z)


def test_judged_and_hle_calibration_error():
    from skbrier.metrics.calibration_error import calibration_error

    raw = json.loads((FIX / "judged_hle_o1-mini.json").read_text())
    r = read_judged(FIX / "judged_hle_o1-mini.json")
    assert r.model == "o1-mini" and r.n_records == len(raw)
    conf = np.array([v["judge_response"]["confidence"] for v in raw.values()])
    np.testing.assert_array_equal(r.confidence, conf / 100)
    # the same number through the percentage path
    a = calibration_error(r.correct, conf, binning="hle", norm="l2", confidence_scale=100)
    b = calibration_error(r.correct, r.confidence, binning="hle", norm="l2")
    assert a == b


def test_judged_errors(tmp_path):
    f = tmp_path / "j.json"
    f.write_text(
        json.dumps({"q1": {"judge_response": {"correct": "maybe", "confidence": 3}}})
    )
    with pytest.raises(
        EvalLogError, match="j.json: entry 'q1': field 'judge_response.correct'"
    ):
        read_judged(f)
    f.write_text(
        json.dumps({"q1": {"judge_response": {"correct": "yes", "confidence": 300}}})
    )
    with pytest.raises(EvalLogError, match="confidence"):
        read_judged(f)
    f.write_text("[1, 2]")
    with pytest.raises(EvalLogError, match="expected a JSON object"):
        read_judged(f)
    f.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(EvalLogError, match="UTF-8"):
        read_judged(f)


def test_judged_duplicate_question_ids_are_refused(tmp_path):
    # json.loads keeps the last of two equal keys: one question silently lost
    f = tmp_path / "j.json"

    def entry(correct, confidence):
        return json.dumps(
            {"judge_response": {"correct": correct, "confidence": confidence}}
        )

    f.write_text(
        f'{{"q1": {entry("yes", 80)}, "q2": {entry("no", 30)}, "q1": {entry("no", 10)}}}'
    )
    with pytest.raises(EvalLogError, match="j.json: .*'q1' appears twice"):
        read_judged(f)


@pytest.mark.parametrize("bad_id", [None, {"a": 1}, [1], True])
def test_record_ids_must_be_strings_or_numbers(tmp_path, bad_id):
    from skbrier.io import read_graded

    g = tmp_path / "g.jsonl"
    g.write_text(json.dumps({"id": bad_id, "grade": "A"}) + "\n")
    with pytest.raises(EvalLogError, match="line 1: field 'id': expected a string or "):
        read_graded(g)
    lm = tmp_path / "samples_t.jsonl"
    lm.write_text(
        json.dumps({"doc_id": bad_id, "target": "0", "filtered_resps": [["-1", "True"]]})
    )
    with pytest.raises(EvalLogError, match="line 1: field 'doc_id': expected a string or "):
        read_lm_eval_samples(lm)


def test_readers_skip_or_raise_the_malformed_records_alike(tmp_path):
    # one rule for every reader: raise naming the place, or skip and count
    import json

    from skbrier.io import read_graded, read_helm_run, read_judged, read_lm_eval_samples

    (tmp_path / "g.jsonl").write_text('{"id": "1"}\n')
    (tmp_path / "samples_x.jsonl").write_text('{"doc_id": 0}\n')
    (tmp_path / "j.json").write_text(
        json.dumps({"q1": {"judge_response": {"correct": "maybe", "confidence": 50}}})
    )
    (tmp_path / "per_instance_stats.json").write_text(
        json.dumps([{"instance_id": "a", "stats": []}])
    )
    cases = [
        (read_graded, "g.jsonl", "line 1: field 'grade'", "record", "records"),
        (read_lm_eval_samples, "samples_x.jsonl", "line 1: field", "record", "lines"),
        (read_judged, "j.json", "entry 'q1': field", "entry", "entries"),
        (read_helm_run, "per_instance_stats.json",
         "entry 0: field 'stats[exact_match]': is missing (correct_stat=",
         "unperturbed instance", "entries"),
    ]  # fmt: skip
    for read, name, place, what, records in cases:
        path = str(tmp_path / name)
        with pytest.raises(EvalLogError, match=re.escape(f"{path}: {place}")):
            read(path)
        with pytest.raises(EvalLogError) as info:
            read(path, skip_invalid=True)
        assert (
            str(info.value) == f"{path}: no valid {what} (1 malformed {records} skipped)."
        )
        with pytest.raises(TypeError, match="skip_invalid"):
            read(path, skip_invalid="yes")


@pytest.mark.parametrize("packer", ["gzip", "bz2", "lzma"])
def test_compressed_logs_read_as_the_plain_ones(tmp_path, packer):
    # a log compressed by gzip, bzip2 or xz (found by its magic bytes) reads as
    # the plain file (was "not UTF-8 text (invalid start byte at byte 1)")
    import importlib

    pack = importlib.import_module(packer).compress
    cases = [
        (LM, read_lm_eval_samples, "samples.jsonl.gz"),
        (FIX / "helm_run" / "per_instance_stats.json", read_helm_run, "p.json.gz"),
        (FIX / "inspect_mmlu.json", read_inspect_log, "log.json.gz"),
        (FIX / "judged_hle_o1-mini.json", read_judged, "judged.json.gz"),
    ]
    for src, reader, name in cases:
        packed = tmp_path / name
        packed.write_bytes(pack(src.read_bytes()))
        plain, read = reader(src), reader(packed)
        np.testing.assert_array_equal(read.ids, plain.ids)
        np.testing.assert_array_equal(read.correct, plain.correct)
        np.testing.assert_array_equal(read.confidence, plain.confidence)
    damaged = tmp_path / "damaged.jsonl.gz"
    damaged.write_bytes(pack(LM.read_bytes())[:-20])
    with pytest.raises(EvalLogError, match=r"damaged\.jsonl\.gz: cannot decompress"):
        read_lm_eval_samples(damaged)


def test_a_repeated_question_is_refused_not_counted_twice(tmp_path):
    # lm-eval writes one line per document (and filter); a doc_id read twice
    # (an appended file, two filters) was counted twice. Inspect: one sample
    # per (id, epoch). With skip_invalid the repeat is skipped and counted.
    lines = _lines(LM)
    f = tmp_path / "samples_dup.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in lines + [lines[1]]) + "\n")
    n = len(lines)
    with pytest.raises(
        EvalLogError,
        match=rf"line {n + 1}: field 'doc_id': {str(lines[1]['doc_id'])!r} was read on line 2",
    ):
        read_lm_eval_samples(f)
    r = read_lm_eval_samples(f, skip_invalid=True)
    assert (r.n_records, r.n_skipped) == (n, 1)
    log = json.loads((FIX / "inspect_mmlu.json").read_text())
    log["samples"].append(log["samples"][0])
    g = tmp_path / "log.json"
    g.write_text(json.dumps(log))
    k = len(log["samples"]) - 1
    with pytest.raises(EvalLogError, match=rf"samples\[{k}\]: field 'id'.*samples\[0\]"):
        read_inspect_log(g)
    assert read_inspect_log(g, skip_invalid=True).n_records == k


def test_inspect_numeric_text_scores_read_as_inspect_reads_them(tmp_path):
    # Inspect's value_to_float reads numeric strings ("1.0", "0.0"): they are
    # right and wrong (were refused as not correct/incorrect); "0.5" (partial)
    # is still refused
    log = json.loads((FIX / "inspect_mmlu.json").read_text())
    ref = read_inspect_log(FIX / "inspect_mmlu.json")
    for s in log["samples"]:
        s["scores"]["choice"]["value"] = (
            "1.0" if s["scores"]["choice"]["value"] == "C" else "0.0"
        )
    f = tmp_path / "log.json"
    f.write_text(json.dumps(log))
    np.testing.assert_array_equal(read_inspect_log(f).correct, ref.correct)
    log["samples"][1]["scores"]["choice"]["value"] = "0.5"
    f.write_text(json.dumps(log))
    with pytest.raises(
        EvalLogError, match=r"samples\[1\]: .*'0.5' is not correct/incorrect"
    ):
        read_inspect_log(f)


def test_helm_instance_read_twice_is_refused(tmp_path):
    # the same unperturbed instance and train trial twice counted twice
    data = json.loads((FIX / "helm_run" / "per_instance_stats.json").read_text())
    first = next(i for i, e in enumerate(data) if not e.get("perturbation"))
    data.append(data[first])
    f = tmp_path / "per_instance_stats.json"
    f.write_text(json.dumps(data))
    k = len(data) - 1
    with pytest.raises(
        EvalLogError, match=rf"entry {k}: field 'instance_id': .* was read on entry {first}"
    ):
        read_helm_run(f)
    r = read_helm_run(f, skip_invalid=True)
    assert (r.n_records, r.n_skipped) == (read_helm_run(FIX / "helm_run").n_records, 1)


def test_lm_eval_several_gold_choices_are_named(tmp_path):
    # lm-eval's multiple_target writes the gold list as text, "[0, 2]": named as
    # such (was "neither a choice index nor one of the choices")
    rec = {"doc_id": 0, "target": "[0, 2]", "arguments": {},
           "filtered_resps": [["-1.0", "False"], ["-2.0", "False"], ["-0.5", "True"]]}  # fmt: skip
    f = tmp_path / "samples_multi.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    with pytest.raises(EvalLogError, match=r"field 'target': .*several gold choices"):
        read_lm_eval_samples(f)


def test_lm_eval_acc_norm_with_a_delimiter_the_choices_lack_is_refused(tmp_path):
    # a task whose target_delimiter is "\n" read with the default " ": no
    # continuation starts with " ", so the lengths were taken with the "\n"
    # (acc_norm silently off); now the option is named
    f = tmp_path / "samples_nl.jsonl"
    f.write_text(_mc_line([-1.0, -2.5], ["\na", "\nbbb"], 1) + "\n")
    with pytest.raises(EvalLogError, match=r"target_delimiter=' '.*'\\na'"):
        read_lm_eval_samples(f, length_normalize=True)
    r = read_lm_eval_samples(f, length_normalize=True, target_delimiter="\n")
    assert r.confidence[0] == pytest.approx(1 / (1 + np.exp(-1.0 + 2.5 / 3)), rel=1e-12)
    assert read_lm_eval_samples(f).n_records == 1  # no normalization: not read
