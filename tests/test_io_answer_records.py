"""One constructor for the records of a log of answers (not of choices).

:func:`read_judged`, :func:`read_helm_run`, :func:`read_inspect_log` and
:func:`read_graded` collect lists (ids, correctness, confidences) and build
their :class:`~skbrier.io.EvalRecords` with :func:`answer_records`: the
same dtypes everywhere, no choices.
"""

from pathlib import Path

import numpy as np
import pytest

from skbrier.io import (
    EvalRecords,
    read_graded,
    read_helm_run,
    read_inspect_log,
    read_judged,
)
from skbrier.io._records import answer_records

FIX = Path(__file__).parent / "fixtures" / "llm"


def _check(r, fmt, confidence=True):
    assert isinstance(r, EvalRecords) and r.format == fmt
    assert r.ids.dtype == object and r.correct.dtype == bool
    if confidence:
        assert r.confidence.dtype == np.float64
        assert r.confidence.shape == r.correct.shape == r.ids.shape
    else:
        assert r.confidence is None
    assert (r.gold, r.choice_logprobs, r.n_choices) == (None, None, None)


def test_answer_records_turns_the_lists_into_arrays():
    r = answer_records(
        "graded",
        "x.jsonl",
        None,
        ["q1", "q2"],
        [True, False],
        [0.9, float("nan")],
        n_skipped=1,
        attempted=[True, False],
    )
    _check(r, "graded")
    assert r.attempted.dtype == bool and r.attempted.tolist() == [True, False]
    assert (r.n_skipped, r.n_unscored, r.model) == (1, 0, None)
    bare = answer_records(
        "inspect", "x.eval", "m", ["a"], [1], None, n_skipped=0, n_unscored=2
    )
    _check(bare, "inspect", confidence=False)
    assert (bare.n_unscored, bare.attempted, bare.model) == (2, None, "m")


@pytest.mark.parametrize(
    ("read", "fmt"),
    [
        (lambda: read_judged(FIX / "judged_hle_o1-mini.json"), "judged"),
        (lambda: read_helm_run(FIX / "helm_run"), "helm"),
        (lambda: read_inspect_log(FIX / "inspect_mmlu.json"), "inspect"),
    ],
)
def test_the_readers_of_answers_build_the_same_arrays(read, fmt):
    _check(read(), fmt)


def test_graded_without_a_confidence_field(tmp_path):
    f = tmp_path / "g.jsonl"
    f.write_text('{"id": "q1", "grade": "A"}\n{"id": "q2", "grade": "C"}\n')
    r = read_graded(f)
    _check(r, "graded", confidence=False)
    assert r.attempted.tolist() == [True, False]
