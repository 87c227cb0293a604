"""Reader of a HELM run's ``per_instance_stats.json``."""

from __future__ import annotations

import os
from typing import Any

from ._parse import (
    Bad,
    FirstPlaces,
    Malformed,
    check_path,
    get,
    load_json_file,
    reader_doc,
    record_id,
    to_float,
)
from ._records import EvalLogError, EvalRecords, answer_records

__all__ = ["read_helm_run"]


def _stat(stats: Any, name: str) -> float | None:
    """Mean of the unperturbed stat ``name`` (None when the entry has none)."""
    if not isinstance(stats, list):
        raise Bad("stats", f"expected a list, got {type(stats).__name__}")
    for j, s in enumerate(stats):
        nm = get(s, "name", f"stats[{j}].name")
        if isinstance(nm, dict) and nm.get("name") == name and "perturbation" not in nm:
            if "mean" in s:
                return to_float(s["mean"], f"stats[{j}].mean")
            c = to_float(get(s, "count", f"stats[{j}].count"), f"stats[{j}].count")
            if c <= 0:
                raise Bad(f"stats[{j}].count", f"{c!r}: no mean without a positive count")
            return to_float(get(s, "sum", f"stats[{j}].sum"), f"stats[{j}].sum") / c
    return None


def _model(run_dir: str) -> str | None:
    """``adapter_spec.model`` of ``run_spec.json`` when readable (else None)."""
    spec = os.path.join(run_dir, "run_spec.json")
    if not os.path.isfile(spec):
        return None
    try:
        model = load_json_file(spec)["adapter_spec"]["model"]
    except (OSError, ValueError, KeyError, TypeError):  # the model name is optional
        return None
    return model if isinstance(model, str) else None


@reader_doc
def read_helm_run(
    path: str | os.PathLike[str],
    *,
    correct_stat: str = "exact_match",
    skip_invalid: bool = False,
) -> EvalRecords:
    """Read a HELM run directory's ``per_instance_stats.json``.

    Each entry (``instance_id``, ``train_trial_index``, optional
    ``perturbation``, ``stats``) holds per-instance statistics; ``max_prob``
    (the probability of the predicted answer, HELM's calibration input) is the
    confidence and ``exact_match`` (or ``correct_stat``) the correctness.
    Perturbed instances are left out (HELM's calibration metrics use the
    unperturbed ones).  The model is read from ``run_spec.json`` when present.
    Stat values must be finite; ``max_prob`` must lie in [0, 1] and the
    correctness stat be 0 or 1; an unperturbed instance and train trial read
    twice is malformed (it would count twice).

    Parameters
    ----------
    path : path-like
        The run directory or its ``per_instance_stats.json``.
    correct_stat : str, default="exact_match"
        The stat whose mean (0 or 1) says whether the answer was correct.
    {{skip_invalid}}

    Returns
    -------
    EvalRecords
        One record per instance, ``correct`` from ``correct_stat``.

    Raises
    ------
    EvalLogError
        A malformed entry (file, entry index and field are named).
    FileNotFoundError
        No such file, or a directory without ``per_instance_stats.json``.

    Examples
    --------
    >>> import json, tempfile, os
    >>> from skbrier.io import read_helm_run
    >>> st = lambda n, v: {"name": {"name": n, "split": "test"}, "count": 1, "sum": v,
    ...                    "mean": v}
    >>> entry = {"instance_id": "id1", "train_trial_index": 0,
    ...          "stats": [st("exact_match", 1.0), st("max_prob", 0.7)]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = open(os.path.join(d, "per_instance_stats.json"), "w").write(
    ...         json.dumps([entry]))
    ...     r = read_helm_run(d)
    >>> r.n_records, float(r.confidence[0])
    (1, 0.7)
    """
    path = check_path(path)
    if not isinstance(correct_stat, str) or not correct_stat:
        raise TypeError(
            f"correct_stat must be a stat name (a string), got {correct_stat!r}."
        )
    is_dir = os.path.isdir(path)
    run_dir = path if is_dir else os.path.dirname(path)
    file = os.path.join(path, "per_instance_stats.json") if is_dir else path
    malformed = Malformed(file, skip_invalid)
    if is_dir and not os.path.exists(file):
        raise FileNotFoundError(
            f"{path}: no per_instance_stats.json in this directory (pass a HELM run "
            "directory or its per_instance_stats.json)."
        )
    data = load_json_file(file)
    if not isinstance(data, list):
        raise EvalLogError(f"{file}: expected a JSON list of per-instance entries.")
    ids, correct, conf = [], [], []
    seen_stat = False
    seen = FirstPlaces(
        "instance_id", "HELM writes one entry per instance, perturbation and train trial"
    )
    for i, entry in enumerate(data):
        try:
            if not isinstance(entry, dict):
                raise Bad("(entry)", f"expected an object, got {type(entry).__name__}")
            iid = record_id(get(entry, "instance_id"), "instance_id")
            if entry.get("perturbation"):
                continue
            stats = get(entry, "stats")
            c = _stat(stats, correct_stat)
            p = _stat(stats, "max_prob")
            if c is None:
                raise Bad(f"stats[{correct_stat}]", "is missing")
            seen_stat = True
            if p is None:
                raise Bad(
                    "stats[max_prob]",
                    "is missing (HELM writes it for multiple-choice runs)",
                )
            if c not in (0.0, 1.0):
                raise Bad(f"stats[{correct_stat}]", f"mean {c!r} is not 0 or 1")
            if not 0.0 <= p <= 1.0:
                raise Bad("stats[max_prob]", f"{p!r} is not a probability")
            key = f"{iid}#{entry.get('train_trial_index', 0)}"
            seen.add(key, f"entry {i}")
        except Bad as bad:
            if not seen_stat and bad.field == f"stats[{correct_stat}]":
                # the first entry lacks the stat: maybe the option is wrong
                bad.problem += f" (correct_stat={correct_stat!r}; HELM's is 'exact_match')"
            malformed.found(f"entry {i}", bad)
            continue
        ids.append(key)
        correct.append(c == 1.0)
        conf.append(p)
    if not data:
        raise EvalLogError(f"{file}: the list of per-instance entries is empty.")
    if not ids:
        raise malformed.none_valid("unperturbed instance", "entries")
    return answer_records(
        "helm", file, _model(run_dir), ids, correct, conf, n_skipped=malformed.count
    )
