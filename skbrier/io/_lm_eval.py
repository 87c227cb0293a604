"""Reader of lm-evaluation-harness ``samples_<task>_<date>.jsonl`` files."""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from .._core.params import check_bool
from ._parse import (
    Bad,
    FirstPlaces,
    Malformed,
    check_path,
    decode,
    get,
    open_binary,
    parse_json,
    reader_doc,
    record_id,
    show,
    to_float,
)
from ._records import EvalLogError, EvalRecords

__all__ = ["read_lm_eval_samples"]


def _loglikelihood(value: Any, field: str) -> float:
    """One choice's log-likelihood: a number (or numeric string) in ``[-inf, 0]``."""
    if isinstance(value, (str, float)):
        try:
            if float(value) == -math.inf:  # probability 0: allowed
                return -math.inf
        except ValueError:
            pass  # to_float names the problem
    v = to_float(value, field)
    if v > 0.0:
        raise Bad(field, f"{v!r} > 0 is not a log-likelihood (log-probabilities are <= 0)")
    return v


def _record(
    rec: Any, length_normalize: bool, delimiter: str
) -> tuple[str, list[float], int]:
    if not isinstance(rec, dict):
        raise Bad("(line)", f"expected a JSON object, got {type(rec).__name__}")
    doc_id = get(rec, "doc_id")
    resps = get(rec, "filtered_resps")
    if not isinstance(resps, list) or not resps:
        raise Bad(
            "filtered_resps", "expected a non-empty list of [loglikelihood, is_greedy]"
        )
    lls = []
    for i, r in enumerate(resps):
        if not isinstance(r, list) or len(r) != 2:
            raise Bad(
                f"filtered_resps[{i}]",
                "expected [loglikelihood, is_greedy] (a multiple-choice record), "
                f"got {show(r)}",
            )
        lls.append(_loglikelihood(r[0], f"filtered_resps[{i}][0]"))
    metrics = rec.get("metrics")
    args = rec.get("arguments")
    if isinstance(metrics, list) and "acc_mutual_info" in metrics and len(lls) % 2 == 0:
        # lm-eval appends one unconditional request ("", choice) per choice
        # for acc_mutual_info; acc and acc_norm read the conditional half
        half = len(lls) // 2
        contexts: list[Any] = [""]  # without the requests, trust "metrics"
        if isinstance(args, dict) and args:
            gen = [args.get(f"gen_args_{i}") for i in range(half, 2 * half)]
            contexts = [g.get("arg_0") if isinstance(g, dict) else None for g in gen]
        if all(c == "" for c in contexts):
            lls = lls[:half]
    if all(ll == -math.inf for ll in lls):
        raise Bad("filtered_resps", "every choice has log-likelihood -inf")
    conts: list[str] | None = None
    if isinstance(args, dict):  # evaluation_tracker's {"gen_args_i": {"arg_j": ...}}
        conts = []
        for i in range(len(lls)):
            a = args.get(f"gen_args_{i}")
            c = a.get("arg_1") if isinstance(a, dict) else None
            if not isinstance(c, str):
                conts = None
                break
            conts.append(c)
    elif isinstance(args, list) and len(args) in (len(lls), 2 * len(lls)):
        args = args[: len(lls)]  # evaluator's raw [ctx, cont] (conditional ones)
        if all(isinstance(a, list) and len(a) >= 2 and isinstance(a[1], str) for a in args):
            conts = [a[1] for a in args]
    target = get(rec, "target")
    if isinstance(target, bool) or not isinstance(target, (str, int)):
        raise Bad("target", f"expected a choice index or text, got {show(target)}")
    t = str(target).strip()
    if t.lstrip("-").isdigit() and t.isascii():  # int() refuses '²'; lm-eval writes ASCII
        gold = int(t)
    elif conts is not None and t in [c.strip() for c in conts]:
        gold = [c.strip() for c in conts].index(t)
    elif t.startswith("[") and t.endswith("]"):  # str() of lm-eval's gold list
        raise Bad(
            "target",
            f"{show(target)} lists several gold choices (a task with "
            "multiple_target): one gold choice per question is needed",
        )
    else:
        raise Bad(
            "target", f"{show(target)} is neither a choice index nor one of the choices"
        )
    if not 0 <= gold < len(lls):
        raise Bad("target", f"gold index {gold} outside the {len(lls)} choices")
    if length_normalize:
        if conts is None:
            raise Bad("arguments", "length normalization needs the choice strings (arg_1)")
        # acc_norm: loglikelihood divided by the length of the choice in
        # characters, len(doc_to_choice), not of the continuation
        # target_delimiter + choice that the request (arg_1) holds
        cut = len(delimiter)
        if cut and not any(c.startswith(delimiter) for c in conts):
            # lm-eval puts the delimiter before every choice: a wrong option
            raise Bad(
                "arguments",
                f"no choice continuation starts with target_delimiter={delimiter!r} "
                f"(e.g. {show(conts[0])}), which lm-eval puts before every choice: "
                "pass the task's target_delimiter ('' for none)",
            )
        lls = [
            ll / max(len(c) - cut if cut and c.startswith(delimiter) else len(c), 1)
            for ll, c in zip(lls, conts)
        ]
    return record_id(doc_id, "doc_id"), lls, gold


@reader_doc
def read_lm_eval_samples(
    path: str | os.PathLike[str],
    *,
    length_normalize: bool = False,
    target_delimiter: str = " ",
    skip_invalid: bool = False,
) -> EvalRecords:
    """Read an lm-evaluation-harness ``samples_<task>_<date>.jsonl`` file.

    Each line is one question as written by ``--log_samples``
    (``EvaluationTracker.save_results_samples``): ``doc_id``, ``target``
    (stringified gold index or answer text), ``arguments``
    (``{"gen_args_i": {"arg_0": context, "arg_1": choice}}``) and
    ``filtered_resps``, one ``[loglikelihood, is_greedy]`` per choice,
    serialized as strings.  Choice counts may differ between questions; a
    ``doc_id`` read twice is malformed (it would count twice), and a file
    whose every question has a single choice (a ``loglikelihood`` task such
    as lambada, not a multiple-choice one) is refused.
    A task scored with ``acc_mutual_info`` (``"metrics"`` lists it) holds one
    more request per choice, unconditional, after the choices: those are
    left out, as lm-eval's ``acc`` leaves them out.

    The probabilities are the softmax of the choice log-likelihoods;
    ``correct`` is ``argmax == gold`` (lm-eval's ``acc``; the first choice
    on ties).  With ``length_normalize=True`` each log-likelihood is first
    divided by the length of its choice string in characters, as
    ``acc_norm`` does: lm-eval's choice (``doc_to_choice``), which is the
    request's continuation ``arg_1`` without the task's leading
    ``target_delimiter``.  A log-likelihood must be a number in
    ``[-inf, 0]``: NaN, ``+inf`` and positive values are malformed, as is a
    question whose choices are all ``-inf``.

    Parameters
    ----------
    path : path-like
        The JSONL file.
    length_normalize : bool, default=False
        Normalize by choice length (``acc_norm``).
    target_delimiter : str, default=" "
        The task's ``target_delimiter`` (lm-eval's default ``" "``), which
        lm-eval puts before each choice in the continuation and leaves out
        of the length of ``acc_norm``; ``""`` for a task that sets none.
        Read only with ``length_normalize=True``; a question none of whose
        continuations starts with it is malformed (a wrong option).
    {{skip_invalid}}

    Returns
    -------
    EvalRecords
        With ``gold``, ``choice_logprobs`` and ``n_choices``.

    Raises
    ------
    EvalLogError
        A malformed line (the message names file, line and field), or a file
        with no valid line.
    {{unreadable}}

    Examples
    --------
    >>> import json, tempfile, os
    >>> from skbrier.io import read_lm_eval_samples
    >>> rec = {"doc_id": 0, "target": "1", "arguments": {},
    ...        "filtered_resps": [["-2.0", "False"], ["-0.5", "True"]]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = os.path.join(d, "samples_task_2024.jsonl")
    ...     _ = open(f, "w").write(json.dumps(rec) + "\\n")
    ...     r = read_lm_eval_samples(f)
    >>> r.n_records, bool(r.correct[0]), round(float(r.confidence[0]), 4)
    (1, True, 0.8176)
    """
    path = check_path(path)
    length_normalize = check_bool(length_normalize, "length_normalize")
    if not isinstance(target_delimiter, str):
        raise TypeError(
            "target_delimiter must be a str (the task's target_delimiter, lm-eval's "
            f"default ' '), got {show(target_delimiter)}."
        )
    malformed = Malformed(path, skip_invalid)
    ids: list[str] = []
    flat: list[float] = []
    counts: list[int] = []
    golds: list[int] = []
    blank = True
    seen = FirstPlaces(
        "doc_id", "lm-eval writes one line per document and filter: keep one filter's lines"
    )
    with open_binary(path) as fh:
        for lineno, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            blank = False
            try:
                rec = parse_json(decode(raw))
                doc_id, lls, gold = _record(rec, length_normalize, target_delimiter)
                seen.add(doc_id, f"line {lineno}")
            except Bad as bad:
                malformed.found(f"line {lineno}", bad)
                continue
            ids.append(doc_id)
            flat.extend(lls)
            counts.append(len(lls))
            golds.append(gold)
    if blank:
        raise EvalLogError(f"{path}: the file is empty (no JSON line).")
    if not ids:
        raise malformed.none_valid("record", "lines")
    if max(counts) == 1:
        raise EvalLogError(
            f"{path}: every question has a single choice (one [loglikelihood, is_greedy] "
            "per line): a loglikelihood task such as lambada, whose acc is is_greedy, "
            "not a multiple-choice one (a single choice has probability 1 and is always "
            "the argmax); skbrier reads multiple-choice samples."
        )
    ll = np.asarray(flat, dtype=np.float64)
    n = np.asarray(counts, dtype=np.intp)
    g = np.asarray(golds, dtype=np.intp)
    starts = np.concatenate(([0], np.cumsum(n)[:-1]))
    mx = np.maximum.reduceat(ll, starts)  # finite: not every choice is -inf
    e = np.exp(ll - np.repeat(mx, n))
    tot = np.add.reduceat(e, starts)
    # argmax per question: first position of the maximum
    is_max = ll == np.repeat(mx, n)
    pos = np.arange(ll.shape[0]) - np.repeat(starts, n)
    first = np.minimum.reduceat(np.where(is_max, pos, np.iinfo(np.intp).max), starts)
    conf = 1.0 / tot  # the top choice has exp(0) = 1
    return EvalRecords(
        format="lm-eval",
        path=path,
        model=None,
        ids=np.asarray(ids, dtype=object),
        correct=first == g,
        confidence=conf,
        gold=g,
        choice_logprobs=ll,
        n_choices=n,
        n_skipped=malformed.count,
    )
