"""One home for a reader's stated confidence: the ``confidence_scale`` option and
each stated value (a number in ``[0, confidence_scale]``, divided by it).

:func:`read_judged` and :func:`read_graded` read a stated value the same way
(the same message for a value outside the scale); every reader checks the
option the same way.
"""

import json
import math

import pytest

from skbrier.io import EvalLogError, read_graded, read_inspect_log, read_judged
from skbrier.io._parse import Bad, check_confidence_scale, stated_confidence


def test_stated_confidence_is_a_number_in_the_scale_divided_by_it():
    assert stated_confidence(80, "confidence", 100.0) == 0.8
    assert stated_confidence("0.25", "confidence", 1.0) == 0.25
    with pytest.raises(Bad) as e:
        stated_confidence(120, "judge_response.confidence", 100.0)
    assert e.value.field == "judge_response.confidence"
    assert "120.0 outside [0, 100] (confidence_scale=100)" in str(e.value)
    with pytest.raises(Bad, match="expected a number"):
        stated_confidence(True, "confidence", 1.0)
    with pytest.raises(Bad, match="is NaN"):
        stated_confidence(math.nan, "confidence", 1.0)


@pytest.mark.parametrize(
    ("value", "error"), [(0, ValueError), (math.inf, ValueError), ("100", TypeError)]
)
def test_the_scale_option_is_checked_once(value, error):
    with pytest.raises(error, match="confidence_scale"):
        check_confidence_scale(value)
    assert check_confidence_scale(100) == 100.0


def test_judged_and_graded_refuse_a_value_outside_the_scale_alike(tmp_path):
    judged = tmp_path / "judged.json"
    judged.write_text(
        json.dumps({"q1": {"judge_response": {"correct": "yes", "confidence": 120}}})
    )
    graded = tmp_path / "graded.jsonl"
    graded.write_text(json.dumps({"id": "q1", "grade": "A", "confidence": 120}))
    with pytest.raises(
        EvalLogError, match=r"120\.0 outside \[0, 100\] \(confidence_scale=100\)"
    ):
        read_judged(judged)
    with pytest.raises(
        EvalLogError, match=r"120\.0 outside \[0, 100\] \(confidence_scale=100\)"
    ):
        read_graded(graded, confidence_field="confidence", confidence_scale=100)


@pytest.mark.parametrize("reader", [read_judged, read_graded, read_inspect_log])
def test_every_reader_checks_the_scale_option_alike(reader, tmp_path):
    path = tmp_path / "log.json"
    path.write_text("{}")
    kw = {"confidence_field": "confidence"} if reader is not read_judged else {}
    with pytest.raises(TypeError, match=r"confidence_scale must be a real number"):
        reader(path, confidence_scale="100", **kw)
