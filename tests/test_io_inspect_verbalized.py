"""read_inspect_log with verbalized confidence (confidence_field=).

The fixture inspect_hle.{eval,json} (tests/fixtures/llm/make_logs.py) is an
HLE log in the shape inspect_evals' ``llm_grader`` writes (score metadata
``{"confidence": 0-100}``, the judge's text as explanation) holding the
samples of judged_hle_o1-mini.json, so it must read as read_judged reads
that file; the HLE calibration error of those records is checked against
HLE's own ``calib_err`` in tests/test_calibration_error.py (case hle_l2).
"""

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from skbrier.io import EvalLogError, read_inspect_log, read_judged
from skbrier.metrics.calibration_error import calibration_error

FIX = Path(__file__).parent / "fixtures" / "llm"


def _log():
    return json.loads((FIX / "inspect_hle.json").read_text())


def _write(tmp_path, log, name="log.json"):
    f = tmp_path / name
    f.write_text(json.dumps(log))
    return f


def test_metadata_confidence_equals_judged_reader():
    judged = read_judged(FIX / "judged_hle_o1-mini.json")
    for name in ("inspect_hle.eval", "inspect_hle.json"):
        r = read_inspect_log(FIX / name, confidence_field="confidence")
        assert r.model == "openai/o1-mini" and r.n_skipped == 0
        np.testing.assert_array_equal(r.confidence, judged.confidence)
        np.testing.assert_array_equal(r.correct, judged.correct)
        # HLE's RMS calibration error (inspect_evals' cerr is the same calib_err)
        a = calibration_error(r.correct, r.confidence, binning="hle", norm="l2")
        b = calibration_error(judged.correct, judged.confidence, binning="hle", norm="l2")
        assert a == b


def test_without_field_reads_correctness_only_or_requires_logprobs():
    r = read_inspect_log(FIX / "inspect_hle.json")
    judged = read_judged(FIX / "judged_hle_o1-mini.json")
    assert r.confidence is None and not r.has_confidence
    np.testing.assert_array_equal(r.correct, judged.correct)
    with pytest.raises(EvalLogError, match=r"logprobs"):
        read_inspect_log(FIX / "inspect_hle.json", confidence="logprobs")


def test_explanation_fallback_and_forms(tmp_path):
    log = _log()
    s0, s1, s2 = log["samples"][:3]
    del s0["scores"]["llm_grader"]["metadata"]  # judge text: "confidence: NN%"
    s1["scores"]["llm_grader"]["metadata"] = {"confidence": "35%"}
    s2["scores"]["llm_grader"]["metadata"] = {}
    s2["scores"]["llm_grader"]["explanation"] = "Reasoning...\nConfidence score = 7.5"
    r = read_inspect_log(_write(tmp_path, log), confidence_field="confidence")
    judged = read_judged(FIX / "judged_hle_o1-mini.json")
    assert r.confidence[0] == judged.confidence[0]
    assert r.confidence[1] == 0.35
    assert r.confidence[2] == 0.075
    np.testing.assert_array_equal(r.confidence[3:], judged.confidence[3:])


def test_probability_scale_and_other_field(tmp_path):
    log = _log()
    for s in log["samples"]:
        sc = s["scores"]["llm_grader"]
        sc["metadata"] = {"stated": sc["metadata"]["confidence"] / 100}
    f = _write(tmp_path, log)
    r = read_inspect_log(f, confidence_field="stated", confidence_scale=1)
    judged = read_judged(FIX / "judged_hle_o1-mini.json")
    np.testing.assert_allclose(r.confidence, judged.confidence, rtol=0, atol=1e-15)
    # a field no sample's metadata holds is a wrong option (a typo), not a fallback
    with pytest.raises(
        ValueError, match=r"confidence_field='confidence'.*\['stated'\]"
    ) as e:
        read_inspect_log(f, confidence_field="confidence")
    assert not isinstance(e.value, EvalLogError)
    # the field is missing in one sample whose explanation was dropped: malformed
    one = log["samples"][0]
    one["scores"]["llm_grader"]["metadata"] = {}
    del one["scores"]["llm_grader"]["explanation"]
    f = _write(tmp_path, log, "x.json")
    with pytest.raises(EvalLogError, match=r"samples\[0\].*metadata\.stated.*missing"):
        read_inspect_log(f, confidence_field="stated", confidence_scale=1)


def test_probabilities_read_on_a_percent_scale_are_refused(tmp_path):
    # stated confidences 0.0-1.0 divided by the default scale 100 became
    # 0.000-0.010: every answer "1 % confident", without a word
    log = _log()
    for s in log["samples"]:
        md = s["scores"]["llm_grader"]["metadata"]
        md["confidence"] = md["confidence"] / 100
    f = _write(tmp_path, log)
    with pytest.raises(ValueError, match=r"confidence_scale=1\b") as e:
        read_inspect_log(f, confidence_field="confidence")
    assert not isinstance(e.value, EvalLogError)
    judged = json.loads((FIX / "judged_hle_o1-mini.json").read_text())
    for v in judged.values():
        v["judge_response"]["confidence"] = v["judge_response"]["confidence"] / 100
    g = _write(tmp_path, judged, "judged.json")
    with pytest.raises(ValueError, match=r"confidence_scale=1\b"):
        read_judged(g)
    assert read_judged(g, confidence_scale=1).n_records == len(judged)
    # integers 0 and 1 on the percent scale are percentages (no error)
    for i, v in enumerate(judged.values()):
        v["judge_response"]["confidence"] = i % 2
    assert read_judged(_write(tmp_path, judged, "j2.json")).confidence.max() == 0.01


def test_malformed_confidence(tmp_path):
    log = _log()
    sc = log["samples"][4]["scores"]["llm_grader"]
    sc["metadata"] = {"confidence": 120}
    f = _write(tmp_path, log)
    with pytest.raises(EvalLogError, match=r"samples\[4\].*outside \[0, 100"):
        read_inspect_log(f, confidence_field="confidence")
    r = read_inspect_log(f, confidence_field="confidence", skip_invalid=True)
    assert r.n_skipped == 1 and r.n_records == len(log["samples"]) - 1
    sc["metadata"] = {"confidence": "high"}
    with pytest.raises(EvalLogError, match="expected a number"):
        read_inspect_log(_write(tmp_path, log), confidence_field="confidence")
    sc["metadata"] = None
    sc["explanation"] = "no number here"
    with pytest.raises(EvalLogError, match="states no 'Confidence: NN'"):
        read_inspect_log(_write(tmp_path, log), confidence_field="confidence")
    with pytest.raises(TypeError, match="confidence_field"):
        read_inspect_log(f, confidence_field=1)
    with pytest.raises(ValueError, match="confidence_scale"):
        read_inspect_log(f, confidence_field="confidence", confidence_scale=0)


def test_eval_zip_with_metadata(tmp_path):
    log = _log()
    z = tmp_path / "small.eval"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("header.json", json.dumps({"eval": {"model": "m"}}))
        for s in log["samples"][:5]:
            zf.writestr(f"samples/{s['id']}_epoch_1.json", json.dumps(s))
    r = read_inspect_log(z, confidence_field="confidence")
    expected = [s["scores"]["llm_grader"]["metadata"]["confidence"] / 100
                for s in sorted(log["samples"][:5], key=lambda s: f"samples/{s['id']}_epoch_1.json")]  # fmt: skip
    np.testing.assert_array_equal(r.confidence, expected)
