"""read_graded: SimpleQA-style grades with abstention; strict errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from skbrier.io import EvalLogError, read_graded


def _write(tmp_path, rows, name="graded.jsonl", as_array=False):
    path = tmp_path / name
    if as_array:
        path.write_text(json.dumps(rows))
    else:
        path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows))
    return path


ROWS = [
    {"id": "q1", "grade": "CORRECT", "confidence": 90},
    {"id": "q2", "grade": "not_attempted"},
    {"id": "q3", "grade": "INCORRECT", "confidence": 60},
    {"id": "q4", "grade": "A", "confidence": 70},
    {"id": "q5", "grade": "C", "confidence": 10},
    {"id": "q6", "grade": "b", "confidence": 55},
]


@pytest.mark.parametrize("as_array", [False, True])
def test_grades_correct_attempted_and_confidence(tmp_path, as_array):
    r = read_graded(
        _write(tmp_path, ROWS, as_array=as_array),
        confidence_field="confidence",
        confidence_scale=100,
    )
    assert r.format == "graded" and r.n_records == 6
    assert r.correct.tolist() == [True, False, False, True, False, False]
    assert r.attempted.tolist() == [True, False, True, True, False, True]
    assert r.confidence[0] == 0.9 and math.isnan(r.confidence[1])
    assert r.confidence[4] == pytest.approx(0.1)  # given: kept
    # simple-evals' aggregate: is_correct, accuracy_given_attempted
    assert r.accuracy == pytest.approx(2 / 6)
    assert r.correct[r.attempted].mean() == pytest.approx(2 / 4)


def test_correctness_only_and_ids_by_position(tmp_path):
    rows = [{"grade": "CORRECT"}, {"grade": "INCORRECT"}]
    r = read_graded(_write(tmp_path, rows), id_field=None)
    assert r.confidence is None and r.ids.tolist() == ["0", "1"]


@pytest.mark.parametrize(
    ("rows", "match"),
    [
        ([{"id": "q1", "grade": "maybe"}], r"line 1: field 'grade': expected CORRECT"),
        ([{"id": "q1"}], r"line 1: field 'grade': is missing"),
        (
            [{"id": "q1", "grade": "A", "confidence": 0.5}, "{not json"],
            r"line 2: .*invalid JSON",
        ),
        ([{"id": "q1", "grade": "A", "confidence": 1.5}], r"outside \[0, 1\]"),
        ([{"id": "q1", "grade": "A", "confidence": "NaN"}], r"confidence.*NaN"),
        ([{"id": "q1", "grade": "A"}], r"field 'confidence': is missing"),
        (["[1, 2]"], r"expected an object"),
    ],
)
def test_malformed_records_name_line_and_field(tmp_path, rows, match):
    with pytest.raises(EvalLogError, match=match):
        read_graded(_write(tmp_path, rows), confidence_field="confidence")


def test_not_attempted_with_a_null_confidence(tmp_path):
    # writers put null where a value is missing: read as absent (NaN), not malformed
    rows = [
        {"id": "q1", "grade": "A", "confidence": 0.8},
        {"id": "q2", "grade": "NOT_ATTEMPTED", "confidence": None},
    ]
    r = read_graded(_write(tmp_path, rows), confidence_field="confidence")
    assert r.attempted.tolist() == [True, False] and math.isnan(r.confidence[1])
    rows[0]["confidence"] = None  # attempted: the confidence is needed
    with pytest.raises(EvalLogError, match="line 1: field 'confidence'"):
        read_graded(_write(tmp_path, rows), confidence_field="confidence")


def test_probabilities_on_a_percent_scale_are_refused(tmp_path):
    rows = [{"id": "q1", "grade": "A", "confidence": 0.9}, {"id": "q2", "grade": "B"}]
    rows[1]["confidence"] = 0.4
    with pytest.raises(ValueError, match=r"confidence_scale=1\b"):
        read_graded(
            _write(tmp_path, rows), confidence_field="confidence", confidence_scale=100
        )


def test_skip_invalid_counts(tmp_path):
    rows = [{"id": "q1", "grade": "A"}, {"id": "q2", "grade": "??"}, "oops"]
    r = read_graded(_write(tmp_path, rows), skip_invalid=True)
    assert r.n_records == 1 and r.n_skipped == 2
    with pytest.raises(EvalLogError, match="no valid record"):
        read_graded(_write(tmp_path, ["oops"], name="bad.jsonl"), skip_invalid=True)


def test_files_and_options(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        read_graded(tmp_path / "missing.jsonl")
    with pytest.raises(EvalLogError, match="empty"):
        read_graded(_write(tmp_path, [" "], name="empty.jsonl"))
    with pytest.raises(TypeError, match="grade_field"):
        read_graded(_write(tmp_path, ROWS), grade_field=3)
    with pytest.raises(ValueError, match="confidence_scale"):
        read_graded(_write(tmp_path, ROWS), confidence_scale=0)
    (tmp_path / "latin.jsonl").write_bytes(b'{"id": "\xe9", "grade": "A"}')
    with pytest.raises(EvalLogError, match="UTF-8"):
        read_graded(tmp_path / "latin.jsonl")


def test_other_readers_have_no_abstention(tmp_path):
    from skbrier.io import read_judged

    d = {"q1": {"model": "m", "judge_response": {"correct": "yes", "confidence": 80}}}
    (tmp_path / "j.json").write_text(json.dumps(d))
    assert read_judged(tmp_path / "j.json").attempted is None
    assert np.asarray(read_graded(_write(tmp_path, ROWS)).attempted).dtype == bool
