"""Reader of Inspect AI logs (``.eval`` zip or ``.json``), without ``inspect_ai``."""

from __future__ import annotations

import math
import os
import re
import zipfile
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from .._core.params import check_bool, check_option
from ._inspect_answer import answer_position, choice_letters
from ._parse import (
    Bad,
    FirstPlaces,
    at,
    check_confidence_scale,
    check_path,
    check_stated_scale,
    get,
    load_json_file,
    open_binary,
    parse_json,
    reader_doc,
    record_id,
    show,
    stated_confidence,
)
from ._records import EvalLogError, EvalRecords, answer_records

__all__ = ["CONFIDENCE_SOURCES", "read_inspect_log"]

#: values of ``read_inspect_log(confidence=...)``
CONFIDENCE_SOURCES = ("auto", "logprobs", "stated", "none")

# inspect_ai/scorer/_metric.py: CORRECT "C", INCORRECT "I", NOANSWER "N" (0 in accuracy)
_TRUE = {"C", "CORRECT", "Y", "YES", "TRUE", "1"}
_FALSE = {"I", "INCORRECT", "N", "NO", "FALSE", "0"}
_LOGPROBS = "output.choices[0].logprobs.content"
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, NotImplementedError, OSError, EOFError)


def _correct(value: Any, field: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.upper() in _TRUE | _FALSE:
        return value.upper() in _TRUE
    if isinstance(value, str):  # numeric text, which value_to_float reads too
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if number in (0.0, 1.0):
            return number == 1.0
    raise Bad(
        field,
        f"score value {show(value)} is not correct/incorrect (C/I, 1/0, true/false)",
    )


def _zip_samples(path: str) -> tuple[Iterator[tuple[str, Any]], str | None]:
    try:
        zf = zipfile.ZipFile(path)
        names = zf.namelist()
    except _ZIP_ERRORS as exc:
        raise EvalLogError(
            f"{path}: not a readable .eval zip, perhaps truncated or damaged ({exc})."
        ) from None
    heads = [h for h in ("header.json", "_journal/start.json") if h in names]
    if not heads:
        zf.close()
        raise EvalLogError(
            f"{path}: not an Inspect .eval log (no header.json or _journal/start.json)."
        )
    model = None
    try:
        model = parse_json(zf.read(heads[0]), "(header)")["eval"]["model"]
    except (Bad, KeyError, TypeError, *_ZIP_ERRORS):  # the model name is optional
        model = None
    sample_names = sorted(
        n for n in names if n.startswith("samples/") and n.endswith(".json")
    )

    def gen() -> Iterator[tuple[str, Any]]:
        with zf:
            for n in sample_names:
                try:
                    yield n, parse_json(zf.read(n), "(sample)")
                except Bad as bad:
                    yield n, bad
                except _ZIP_ERRORS as exc:
                    yield n, Bad("(sample)", f"cannot read the zip member ({exc})")

    return gen(), model if isinstance(model, str) else None


def _samples(path: str) -> tuple[Iterator[tuple[str, Any]], str | None]:
    """(place, sample or Bad) pairs and the model of an Inspect log."""
    with open_binary(path) as fh:  # a clear error for a missing file or a directory
        magic = fh.read(4)
    # a zip's first local header: a truncated .eval (its central directory at
    # the end lost) is still a zip, not JSON text
    if zipfile.is_zipfile(path) or magic == b"PK\x03\x04":
        return _zip_samples(path)
    data = load_json_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("eval"), dict):
        raise EvalLogError(
            f"{path}: field 'eval': not an Inspect log (a .json log is an object with "
            "an 'eval' object and a list of 'samples')."
        )
    samples = data.get("samples")
    if samples is None:  # a header-only log (no sample written)
        samples = []
    if not isinstance(samples, list):
        raise EvalLogError(f"{path}: field 'samples': expected a list of samples.")
    model = data["eval"].get("model")
    return ((f"samples[{i}]", s) for i, s in enumerate(samples)), (
        model if isinstance(model, str) else None
    )


_STATED_CONFIDENCE = re.compile(
    r"confidence\s*(?:score)?\s*[:=]\s*\**\s*([0-9]+(?:\.[0-9]+)?\s*%?)", re.IGNORECASE
)


def _stated(sc: dict[str, Any], name: str, field: str, scale: float) -> tuple[float, bool]:
    """Verbalized confidence of one score as a probability, and whether it came
    from ``scores.<name>.metadata.<field>`` (else from the explanation)."""
    meta = sc.get("metadata")
    where = f"scores.{name}.metadata.{field}"
    from_meta = (
        field != "explanation" and isinstance(meta, dict) and meta.get(field) is not None
    )
    if from_meta:
        raw = meta[field]  # type: ignore[index]
    else:
        text = sc.get("explanation")
        found = _STATED_CONFIDENCE.findall(text) if isinstance(text, str) else []
        if not found:
            if field == "explanation":
                raise Bad(f"scores.{name}.explanation", "states no 'Confidence: NN'")
            raise Bad(
                where,
                f"is missing (and scores.{name}.explanation states no 'Confidence: NN')",
            )
        where = f"scores.{name}.explanation"
        raw = found[-1]
    return stated_confidence(raw, where, scale), from_meta


def _logprobs(sample: dict[str, Any]) -> list[Any] | None:
    """``output.choices[0].logprobs.content`` when the sample has it (else None)."""
    out = sample.get("output")
    choices = out.get("choices") if isinstance(out, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    lp = first.get("logprobs") if isinstance(first, dict) else None
    content = lp.get("content") if isinstance(lp, dict) else None
    if content is None or content == []:
        return None
    if not isinstance(content, list):
        raise Bad(_LOGPROBS, f"expected a list of tokens, got {type(content).__name__}")
    return content


def _check_options(
    scorer: Any, confidence: Any, confidence_field: Any, confidence_scale: Any
) -> tuple[str, float]:
    if scorer is not None and (not isinstance(scorer, str) or not scorer):
        raise TypeError(f"scorer must be a score name (a string) or None, got {scorer!r}.")
    if confidence_field is not None and (
        not isinstance(confidence_field, str) or not confidence_field
    ):
        raise TypeError(
            f"confidence_field must be a string (a score metadata field, or "
            f"'explanation'), got {confidence_field!r}."
        )
    mode = check_option(confidence, "confidence", CONFIDENCE_SOURCES)
    if mode == "auto" and confidence_field is not None:
        mode = "stated"
    if mode == "stated" and confidence_field is None:
        raise ValueError(
            "confidence='stated' needs confidence_field (the score metadata field "
            "holding the stated confidence, or 'explanation')."
        )
    if mode in ("logprobs", "none") and confidence_field is not None:
        raise ValueError(
            f"confidence_field={confidence_field!r} reads a stated confidence: it "
            f"cannot be combined with confidence={mode!r}."
        )
    scale = check_confidence_scale(confidence_scale)
    return mode, scale


@reader_doc
def read_inspect_log(
    path: str | os.PathLike[str],
    *,
    scorer: str | None = None,
    confidence: str = "auto",
    confidence_field: str | None = None,
    confidence_scale: float = 100.0,
    skip_invalid: bool = False,
) -> EvalRecords:
    """Read an Inspect AI log (``.eval`` zip or ``.json``) without ``inspect_ai``.

    Each sample (``id``, ``epoch``, ``scores{name: {value, ...}}``) gives
    correctness from the score value (``"C"``/``"I"``, 1/0 or true/false;
    Inspect's ``"N"``, no answer, is incorrect).  A sample with no score
    (Inspect writes none when a sample errored or was not scored) is left
    out and counted in ``n_unscored``; a log without samples (cancelled, or
    header only) reads as no record.  A sample read twice (the same ``id``
    and ``epoch``) is malformed: it would count twice.

    The confidence of the answer comes from one of three sources:

    * **logprobs**: the probability of the token that carries the answer in
      ``output.choices[0].logprobs.content`` (present when the eval was run
      with ``logprobs=True``).  Inspect's multiple-choice template makes the
      model reply ``ANSWER: B``; the answer token is found as Inspect's
      ``parse_answers`` finds the answer (the last ``ANSWER: X``), else as
      the choice letter whose ``top_logprobs`` are choice letters, else as
      the token equal to the scored answer -- never the first token
      (``ANSWER``).  A sample whose answer token is not found, or which
      answers several letters, is malformed.
    * **stated** (``confidence_field`` given): the confidence the model
      stated, ``scores.<scorer>.metadata.<confidence_field>`` (inspect_evals'
      HLE ``llm_grader`` writes ``metadata={"confidence": 0-100}``), or for
      a sample without that field the last ``Confidence: NN`` (``%``
      optional) in ``scores.<scorer>.explanation``; a field that no sample's
      metadata holds is an error (a misspelt name), and
      ``confidence_field="explanation"`` reads the explanation only.  The
      value is divided by ``confidence_scale``.
    * **none**: correctness only (``confidence`` of the records is None):
      accuracy and counts, no calibration.

    ``confidence="auto"`` reads logprobs when samples have them (then every
    scored sample must), the stated confidence when ``confidence_field`` is
    given, and correctness only otherwise.

    Parameters
    ----------
    path : path-like
        The ``.eval`` or ``.json`` log.
    scorer : str, default=None
        The score to read; None: the only one (an error when several).  A
        name that no sample holds is an error.
    confidence : {"auto", "logprobs", "stated", "none"}, default="auto"
        Where the confidence comes from (see above).
    confidence_field : str, default=None
        Metadata field of the score holding the stated confidence (or
        ``"explanation"``); implies ``confidence="stated"``.
    confidence_scale : float, default=100.0
        What a stated confidence of certainty reads (100 for percentages,
        1 for probabilities); values outside ``[0, confidence_scale]`` are
        malformed, and text such as ``"85%"`` is a percentage whatever the
        scale.
    {{skip_invalid}}

    Returns
    -------
    EvalRecords
        ``confidence`` is None for a correctness-only read.

    Raises
    ------
    EvalLogError
        A malformed sample (file, sample and field are named) or a file that
        is not an Inspect log.
    ValueError, TypeError
        An option is wrong (the message names it), e.g. a ``scorer`` no
        sample holds, or several scores and no ``scorer``.
    {{unreadable}}

    Examples
    --------
    >>> import json, math, tempfile, os
    >>> from skbrier.io import read_inspect_log
    >>> tok = lambda t, p: {"token": t, "logprob": math.log(p)}
    >>> s = {"id": 1, "epoch": 1, "choices": ["x", "y", "z"],
    ...      "scores": {"choice": {"value": "C", "answer": "B"}},
    ...      "output": {"choices": [{"logprobs": {"content": [
    ...          tok("ANSWER", 0.999), tok(":", 0.999), tok(" B", 0.8)]}}]}}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = os.path.join(d, "log.json")
    ...     _ = open(f, "w").write(json.dumps({"eval": {"model": "m"}, "samples": [s]}))
    ...     r = read_inspect_log(f)
    >>> r.model, bool(r.correct[0]), round(float(r.confidence[0]), 3)
    ('m', True, 0.8)
    """
    path = check_path(path)
    mode, scale = _check_options(scorer, confidence, confidence_field, confidence_scale)
    skip_invalid = check_bool(skip_invalid, "skip_invalid")
    samples, model = _samples(path)
    rows: list[tuple[int, str, bool, float | None]] = []
    bad: list[tuple[int, EvalLogError]] = []  # (position in the file, error)
    no_logprobs: list[tuple[int, str]] = []  # auto: scored samples without logprobs
    names: set[str] = set()
    meta_fields: set[str] = set()
    scorer_seen = field_seen = False
    unscored = 0
    seen = FirstPlaces("id", "Inspect writes one sample per id and epoch")
    for index, (place, s) in enumerate(samples):
        try:
            if isinstance(s, Bad):
                raise s
            if not isinstance(s, dict):
                raise Bad("(sample)", f"expected an object, got {type(s).__name__}")
            sid = record_id(get(s, "id"), "id")
            epoch = s.get("epoch", 1)
            if isinstance(epoch, bool) or not isinstance(epoch, int):
                raise Bad("epoch", f"expected an integer, got {show(epoch)}")
            scores = s.get("scores")
            if scores is None or scores == {}:
                unscored += 1
                continue
            if not isinstance(scores, dict):
                raise Bad("scores", f"expected an object, got {type(scores).__name__}")
            names.update(scores)
            if scorer is None:
                if len(scores) != 1:
                    raise ValueError(
                        f"{path}: the samples hold several scores {sorted(scores)}: "
                        "pass scorer= (one of them)."
                    )
                name = next(iter(scores))
            elif scorer in scores:
                name, scorer_seen = scorer, True
            else:
                raise Bad(
                    f"scores.{scorer}", f"is missing (the sample holds {sorted(scores)})"
                )
            sc = get(scores, name, f"scores.{name}")
            ok = _correct(get(sc, "value", f"scores.{name}.value"), f"scores.{name}.value")
            conf: float | None = None
            if mode == "stated":
                if isinstance(sc.get("metadata"), dict):
                    meta_fields.update(sc["metadata"])
                conf, from_meta = _stated(sc, name, confidence_field, scale)  # type: ignore[arg-type]
                field_seen = field_seen or from_meta
            elif mode != "none":
                content = _logprobs(s)
                if content is not None:
                    _, lp = answer_position(
                        content, choice_letters(s), sc.get("answer"), _LOGPROBS
                    )
                    conf = math.exp(lp)
                elif mode == "logprobs":
                    raise Bad(
                        "output.choices[0].logprobs",
                        "is missing (run the eval with logprobs=True for a confidence)",
                    )
                else:
                    no_logprobs.append((index, place))
            seen.add(f"{sid}#{epoch}", place)
        except Bad as b:
            bad.append((index, at(path, place, b)))
            continue
        rows.append((index, f"{sid}#{epoch}", ok, conf))
    if scorer is not None and not scorer_seen and (rows or bad):
        raise ValueError(
            f"scorer={scorer!r} names no score of {path}; its samples hold "
            f"{sorted(names) or 'no score'}."
        )
    if mode == "stated" and confidence_field != "explanation" and rows and not field_seen:
        raise ValueError(
            f"confidence_field={confidence_field!r} is in no sample's score metadata "
            f"of {path} (fields there: {sorted(meta_fields)[:10]}); pass "
            "confidence_field='explanation' to read 'Confidence: NN' from the "
            "explanation."
        )
    with_lp = mode == "logprobs" or any(r[3] is not None for r in rows)
    if mode == "auto" and with_lp and no_logprobs:
        missing = {i for i, _ in no_logprobs}
        rows = [r for r in rows if r[0] not in missing]
        for i, place in no_logprobs:
            bad.append(
                (
                    i,
                    at(
                        path,
                        place,
                        Bad(
                            "output.choices[0].logprobs",
                            "is missing while other samples have logprobs (confidence='none' "
                            "reads accuracy only)",
                        ),
                    ),
                )
            )
    if bad and not skip_invalid:
        raise min(bad, key=lambda b: b[0])[1]
    if not rows and bad:
        raise EvalLogError(
            f"{path}: no valid sample ({len(bad)} malformed samples skipped)."
        )
    conf_arr = (
        np.asarray([r[3] for r in rows], dtype=np.float64)
        if with_lp or mode == "stated"
        else None
    )
    if mode == "stated":
        check_stated_scale(conf_arr, scale, path)
    ids, correct = [r[1] for r in rows], [r[2] for r in rows]
    return answer_records(
        "inspect",
        path,
        model,
        ids,
        correct,
        conf_arr,
        n_skipped=len(bad),
        n_unscored=unscored,
    )
