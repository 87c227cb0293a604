"""Reader of graded short answers with abstention (SimpleQA style)."""

from __future__ import annotations

import os
from typing import Any

from ._parse import (
    Bad,
    FirstPlaces,
    Malformed,
    check_confidence_scale,
    check_path,
    check_stated_scale,
    get,
    load_json_file,
    parse_json,
    read_text,
    reader_doc,
    record_id,
    show,
    stated_confidence,
)
from ._records import EvalRecords, answer_records

__all__ = ["read_graded"]

#: grade -> (correct, attempted); simple-evals' grader answers A, B or C
_GRADES = {
    "correct": (True, True),
    "a": (True, True),
    "incorrect": (False, True),
    "b": (False, True),
    "not_attempted": (False, False),
    "not attempted": (False, False),
    "c": (False, False),
}


def _grade(value: Any, field: str) -> tuple[bool, bool]:
    key = value.strip().lower() if isinstance(value, str) else None
    if key not in _GRADES:
        raise Bad(
            field,
            f"expected CORRECT, INCORRECT or NOT_ATTEMPTED (or simple-evals' grader "
            f"letters A, B, C), got {show(value)}",
        )
    return _GRADES[key]


def _records(path: str) -> list[tuple[str, Any]]:
    """``(place, record)`` of a JSON Lines file, or of a JSON array of objects."""
    text = read_text(path)
    if text.lstrip().startswith("["):
        doc = load_json_file(path, text=text)
        return [(f"record {i}", rec) for i, rec in enumerate(doc)]
    out: list[tuple[str, Any]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append((f"line {lineno}", parse_json(line)))
            except Bad as bad:
                out.append((f"line {lineno}", bad))
    return out


@reader_doc
def read_graded(
    path: str | os.PathLike[str],
    *,
    grade_field: str = "grade",
    id_field: str | None = "id",
    confidence_field: str | None = None,
    confidence_scale: float = 1.0,
    skip_invalid: bool = False,
) -> EvalRecords:
    """Read graded short answers with abstention (SimpleQA style).

    One record per question, in JSON Lines or a JSON array of objects, with
    a grade ``CORRECT``, ``INCORRECT`` or ``NOT_ATTEMPTED`` (case and
    ``"not attempted"`` accepted) or simple-evals' grader letters ``A``,
    ``B``, ``C``, and optionally the confidence the model stated.  A
    question not attempted counts as not correct and is marked in
    ``attempted``.

    Parameters
    ----------
    path : path-like
        The file.
    grade_field : str, default="grade"
        The field holding the grade.
    id_field : str or None, default="id"
        The field holding the question id (None: the record's position).
        A question read twice is malformed (it would count twice).
    confidence_field : str or None, default=None
        The field holding the stated confidence (None: correctness only).
        Records not attempted may leave it out (or hold null); their
        confidence is NaN.
    confidence_scale : float, default=1.0
        The scale of the stated confidence (100 for percentages); text such
        as ``"85%"`` is a percentage whatever the scale.
    {{skip_invalid}}

    Returns
    -------
    EvalRecords
        ``format="graded"``, with ``attempted`` set.

    Raises
    ------
    EvalLogError
        A malformed record (file, line and field are named).
    {{unreadable}}

    See Also
    --------
    skbrier.io.read_judged : HLE's judged predictions (no abstention).

    Examples
    --------
    >>> import json, tempfile, os
    >>> from skbrier.io import read_graded
    >>> rows = [{"id": "q1", "grade": "CORRECT", "confidence": 0.9},
    ...         {"id": "q2", "grade": "NOT_ATTEMPTED"},
    ...         {"id": "q3", "grade": "B", "confidence": 0.6}]
    >>> with tempfile.TemporaryDirectory() as t:
    ...     f = os.path.join(t, "graded.jsonl")
    ...     _ = open(f, "w").write("\\n".join(json.dumps(r) for r in rows))
    ...     r = read_graded(f, confidence_field="confidence")
    >>> r.correct.tolist(), r.attempted.tolist()
    ([True, False, False], [True, False, True])
    """
    path = check_path(path)
    for name, value in (
        ("grade_field", grade_field),
        ("id_field", id_field),
        ("confidence_field", confidence_field),
    ):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {show(value)}.")
    if grade_field is None:
        raise TypeError("grade_field must be a str, got None.")
    scale = check_confidence_scale(confidence_scale)
    malformed = Malformed(path, skip_invalid)
    ids: list[str] = []
    correct: list[bool] = []
    attempted: list[bool] = []
    conf: list[float] = []
    seen = FirstPlaces(
        str(id_field),
        "drop the repeat, or pass id_field=None when the records are distinct answers",
    )
    for i, (place, rec) in enumerate(_records(path)):
        try:
            if isinstance(rec, Bad):
                raise rec
            if not isinstance(rec, dict):
                raise Bad("(record)", f"expected an object, got {type(rec).__name__}")
            ok, tried = _grade(get(rec, grade_field), grade_field)
            qid = (
                record_id(get(rec, id_field), id_field) if id_field is not None else str(i)
            )
            c = float("nan")
            # not attempted: the confidence may be left out (or null)
            if confidence_field is not None and (
                tried or rec.get(confidence_field) is not None
            ):
                c = stated_confidence(get(rec, confidence_field), confidence_field, scale)
            if id_field is not None:
                seen.add(qid, place)
        except Bad as bad:
            malformed.found(place, bad)
            continue
        ids.append(qid)
        correct.append(ok)
        attempted.append(tried)
        conf.append(c)
    if not ids:
        raise malformed.none_valid("record", "records")
    if confidence_field is not None:
        check_stated_scale(conf, scale, path)
    return answer_records(
        "graded",
        path,
        None,
        ids,
        correct,
        None if confidence_field is None else conf,
        n_skipped=malformed.count,
        attempted=attempted,
    )
