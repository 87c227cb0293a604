"""Reader of judged-prediction JSON (the HLE format)."""

from __future__ import annotations

import os

from ._parse import (
    Bad,
    Malformed,
    check_confidence_scale,
    check_path,
    check_stated_scale,
    get,
    load_json_file,
    reader_doc,
    show,
    stated_confidence,
)
from ._records import EvalLogError, EvalRecords, answer_records

__all__ = ["read_judged"]


@reader_doc
def read_judged(
    path: str | os.PathLike[str],
    *,
    confidence_scale: float = 100.0,
    skip_invalid: bool = False,
) -> EvalRecords:
    """Read a judged-predictions JSON (the HLE format).

    ``{question_id: {"model": ..., "response": ..., "judge_response":
    {"correct": "yes" | "no", "confidence": 0-100, ...}}}`` as written by
    HLE's ``run_judge_results.py``; the stated confidence is divided by
    ``confidence_scale``.

    Parameters
    ----------
    path : path-like
        The JSON file.
    confidence_scale : float, default=100.0
        The scale of the stated confidence (a finite number > 0: 100 for
        percentages, 1 for probabilities); text such as ``"85%"`` is a
        percentage whatever the scale.
    {{skip_invalid}}

    Returns
    -------
    EvalRecords
        Each question's ``correct`` and stated ``confidence``.

    Raises
    ------
    EvalLogError
        A malformed entry (file, question id and field are named).
    {{unreadable}}

    Examples
    --------
    >>> import json, tempfile, os
    >>> from skbrier.io import read_judged
    >>> d = {"q1": {"model": "m", "judge_response": {"correct": "yes", "confidence": 80}}}
    >>> with tempfile.TemporaryDirectory() as t:
    ...     f = os.path.join(t, "judged.json")
    ...     _ = open(f, "w").write(json.dumps(d))
    ...     r = read_judged(f)
    >>> r.model, bool(r.correct[0]), float(r.confidence[0])
    ('m', True, 0.8)
    """
    path = check_path(path)
    scale = check_confidence_scale(confidence_scale)
    malformed = Malformed(path, skip_invalid)
    data = load_json_file(path, unique_keys=True)  # one entry per question id
    if not isinstance(data, dict):
        raise EvalLogError(f"{path}: expected a JSON object {{question_id: prediction}}.")
    if not data:
        raise EvalLogError(f"{path}: the JSON object holds no entry.")
    ids, correct, conf = [], [], []
    models: set[str] = set()
    for qid, pred in data.items():
        try:
            if not isinstance(pred, dict):
                raise Bad("(entry)", f"expected an object, got {type(pred).__name__}")
            jr = get(pred, "judge_response")
            c = get(jr, "correct", "judge_response.correct")
            if not isinstance(c, str) or c.strip().lower() not in ("yes", "no"):
                raise Bad(
                    "judge_response.correct", f"expected 'yes' or 'no', got {show(c)}"
                )
            field = "judge_response.confidence"
            v = stated_confidence(get(jr, "confidence", field), field, scale)
        except Bad as bad:
            malformed.found(f"entry {qid!r}", bad)
            continue
        if isinstance(pred.get("model"), str):
            models.add(pred["model"])
        ids.append(str(qid))
        correct.append(c.strip().lower() == "yes")
        conf.append(v)
    if not ids:
        raise malformed.none_valid("entry", "entries")
    model = next(iter(models)) if len(models) == 1 else None
    check_stated_scale(conf, scale, path)
    return answer_records(
        "judged", path, model, ids, correct, conf, n_skipped=malformed.count
    )
