"""``skbrier llm FILE...``: calibration of LLM evaluation logs, one row per file."""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any

import numpy as np

from .._core.params import DEFAULT_N_RESAMPLES, MIN_SAMPLES
from ..io._inspect import CONFIDENCE_SOURCES  # the values of --confidence
from ..report._json import dumps
from ._common import (
    CLIError,
    Options,
    _check_output,
    _integer,
    _write,
    add_options,
    shared_option,
)
from ._llm_measures import Scored, point_estimates, statistics
from ._llm_output import html_page, text_table

#: the command's bootstrap resamples: every measure of every file is
#: recomputed per resample (about 0.1-0.2 s at 100,000 questions)
#: ``--n-resamples auto``: the API's default, and fewer for large logs (every
#: measure is recomputed on each resample)
AUTO_LARGE_N_RESAMPLES = 200
AUTO_LARGE_RECORDS = 10_000

FORMATS = ("auto", "lm-eval", "helm", "inspect", "judged", "graded")


def _head(path: str, *, line: bool = False) -> str:
    """The first 64 KiB of the file, decompressed as the readers do (its first
    line that is not blank within them, ``line=True``)."""
    from ..io import EvalLogError
    from ..io._parse import open_binary

    try:
        with open_binary(path) as fh:
            raw = fh.read(1 << 16)
            if line:  # the readers skip blank lines
                raw = next((x for x in raw.splitlines() if x.strip()), b"")
    except EvalLogError as exc:
        raise CLIError(str(exc)) from None
    except OSError as exc:  # open_binary's message names the path
        raise CLIError(
            f"{path}: cannot read ({exc.strerror or _why(exc, path)})."
        ) from None
    return raw.decode("utf-8", errors="replace")


def _why(exc: OSError, path: str) -> str:
    """The reason of an error whose message starts with ``path: ``."""
    return str(exc).removeprefix(f"{path}: ").rstrip(".")


#: compression suffixes left out of the name that tells the format
_PACKED = re.compile(r"\.(gz|bz2|xz)$", re.IGNORECASE)


def _detect(path: str) -> str:
    # the extension in any case ('.JSONL' from a Windows export)
    base = _PACKED.sub("", os.path.basename(path.rstrip(os.sep))).lower()
    if os.path.isdir(path) or base == "per_instance_stats.json":
        return "helm"
    if base.endswith(".eval"):
        return "inspect"
    if base.endswith(".jsonl"):
        first = _head(path, line=True)
        # SimpleQA-style grades (read_graded's default field), else lm-eval samples
        return "graded" if '"grade"' in first and '"doc_id"' not in first else "lm-eval"
    if base.endswith(".json"):
        head = _head(path)
        if '"eval"' in head and ('"samples"' in head or '"status"' in head):
            return "inspect"
        if '"judge_response"' in head:
            return "judged"
        if '"grade"' in head:
            return "graded"
    raise CLIError(
        f"{path}: cannot tell the log format from the name; pass --format "
        "(lm-eval, helm, inspect, judged or graded)."
    )


#: reader options of the command line, and the formats they apply to
_READER_OPTIONS = {
    "scorer": ("--scorer", ("inspect",)),
    "confidence": ("--confidence", ("inspect",)),
    "confidence_field": ("--confidence-field", ("inspect", "graded")),
    "confidence_scale": ("--confidence-scale", ("inspect", "judged", "graded")),
    "target_delimiter": ("--target-delimiter", ("lm-eval",)),
    "length_normalize": ("--length-normalize", ("lm-eval",)),
}


def _read(path: str, args: argparse.Namespace) -> Any:
    from ..io import (
        read_graded,
        read_helm_run,
        read_inspect_log,
        read_judged,
        read_lm_eval_samples,
    )

    if not os.path.exists(path):
        raise CLIError(f"{path}: no such file or directory.")
    fmt = _detect(path) if args.format == "auto" else args.format
    options = {}
    for key, (flag, formats) in _READER_OPTIONS.items():
        value = getattr(args, key, None)
        if value is None or value is False:  # not given (a flag left off)
            continue
        if fmt not in formats:
            raise CLIError(
                f"{flag} applies to {' and '.join(formats)} logs; {path} is a {fmt} log."
            )
        options[key] = value
    try:
        if fmt == "lm-eval":
            return read_lm_eval_samples(path, skip_invalid=args.skip_invalid, **options)
        if fmt == "helm":
            return read_helm_run(path, skip_invalid=args.skip_invalid)
        if fmt == "inspect":
            return read_inspect_log(path, skip_invalid=args.skip_invalid, **options)
        if fmt == "graded":
            return read_graded(path, skip_invalid=args.skip_invalid, **options)
        return read_judged(path, skip_invalid=args.skip_invalid, **options)
    except OSError as exc:  # the readers name the path
        raise CLIError(str(exc)) from None
    except (ValueError, TypeError) as exc:  # data (EvalLogError) or an option
        raise CLIError(_as_flags(str(exc))) from None


def _as_flags(msg: str) -> str:
    """A reader's message with its options named as their flags are spelt
    (``confidence_scale=100`` -> ``--confidence-scale 100``), also in the
    hints of a data error."""
    for key in sorted(_READER_OPTIONS, key=len, reverse=True):
        flag = _READER_OPTIONS[key][0]
        msg = re.sub(rf"\b{key}=", f"{flag} ", msg)
        msg = re.sub(rf"\b{key} must\b", f"{flag} must", msg)
        msg = re.sub(rf"\bneeds {key}\b", f"needs {flag}", msg)
    return msg


def _analyse(rec: Any, args: argparse.Namespace) -> dict[str, Any]:
    from .._core.resampling import (
        interval_from_replicates,
        resample_counts,
        run_replicates,
    )

    sc = Scored(rec)
    stat, keys = statistics(sc)
    est = stat(None) if sc.n else {"n": 0.0}
    bad = [k for k in keys if not np.isfinite(est[k])]
    if bad:  # the readers refuse non-finite inputs: this is a defect, not data
        raise CLIError(f"{rec.path}: {', '.join(bad)} is not finite; please report this.")
    n = sc.n
    boot = [k for k in keys if k != "n"]
    # the resamples are scored on the rows sorted by confidence (same draws)
    sorted_sc, order = sc.by_confidence()
    stat_sorted = statistics(sorted_sc)[0]

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        rows = np.empty((size, len(boot)))
        for j in range(size):
            w = resample_counts(rng, n)
            s = stat_sorted(w if order is None else w[order])
            rows[j] = [s[k] for k in boot]
        return rows

    ci: dict[str, tuple[float, float]] = {}
    n_boot = _resolve_resamples(args.n_resamples, n)
    no_intervals = None
    if n_boot and boot and n < MIN_SAMPLES:  # the API's rule (check_min_samples)
        no_intervals = (
            f"no intervals: {n} question(s) scored, at least {MIN_SAMPLES} are needed"
        )
        n_boot = 0
    if n_boot and boot:
        reps = run_replicates(
            task,
            n_boot,
            random_state=args.random_state,
            n_jobs=args.n_jobs,
            desc="llm bootstrap",
        )
        for i, k in enumerate(boot):
            try:
                c = interval_from_replicates(
                    reps[:, i], args.confidence_level, nan_policy="raise"
                )
            except ValueError as exc:
                raise CLIError(f"{rec.path}: {k}: {exc}") from None
            ci[k] = (float(c.low), float(c.high))
    estimates = {k: est[k] for k in keys}
    points, notes = point_estimates(rec, sc)
    estimates.update(points)
    if no_intervals:
        notes.insert(0, no_intervals)
    name = rec.model or os.path.basename(rec.path.rstrip(os.sep))
    return {
        "file": rec.path,
        "format": rec.format,
        "model": name,
        "n_records": rec.n_records,
        "n_skipped": rec.n_skipped,
        "n_unscored": rec.n_unscored,
        "has_confidence": rec.has_confidence,
        "attempted_only": sc.subset,
        "estimates": estimates,
        "intervals": ci,
        "notes": notes,
        "error": None,
    }


def _failed(path: str, reason: str) -> dict[str, Any]:
    """The row of a file that could not be read: the reason, no numbers."""
    return {
        "file": path,
        "format": None,
        "model": os.path.basename(path.rstrip(os.sep)),
        "estimates": {},
        "intervals": {},
        "error": reason,
    }


def _llm(args: argparse.Namespace) -> int:
    _check_output(args.html, args.force, "--html")
    _check_output(args.json_out, args.force, "--json")
    rows: list[dict[str, Any]] = []
    recs: list[Any] = []
    for path in args.files:
        try:
            rec = _read(path, args)
            rows.append(_analyse(rec, args))
            recs.append(rec)
        except CLIError as exc:  # reported in the table, the others go on
            rows.append(_failed(path, str(exc)))
            recs.append(None)
            sys.stderr.write(f"skbrier llm: skipped {exc}\n")
    if all(r["error"] for r in rows):
        raise CLIError("no file could be read (the reasons are above).")
    sys.stdout.write(
        text_table(rows, args.confidence_level, _resamples_text(args.n_resamples))
    )
    if args.json_out:
        _write(args.json_out, dumps(rows, indent=1) + "\n", "--json", args.force)
    if args.html:
        page = html_page(
            rows, recs, args.confidence_level, _resamples_text(args.n_resamples), args.files
        )
        _write(args.html, page, "--html", args.force)
    return 0


def _resolve_resamples(n_resamples: int | str, n: int) -> int:
    """``--n-resamples``: a number, or ``auto`` (the API's 1999, 200 above 10,000 questions)."""
    if n_resamples != "auto":
        return int(n_resamples)
    return DEFAULT_N_RESAMPLES if n <= AUTO_LARGE_RECORDS else AUTO_LARGE_N_RESAMPLES


def _resamples_text(n_resamples: int | str) -> int | str:
    if n_resamples != "auto":
        return n_resamples
    return (
        f"{DEFAULT_N_RESAMPLES} ({AUTO_LARGE_N_RESAMPLES} for files of over "
        f"{AUTO_LARGE_RECORDS:,} questions)"
    )


def _n_resamples(text: str) -> int | str:
    if text == "auto":
        return text
    v = _integer(text)
    if v != 0 and v < 2:
        raise argparse.ArgumentTypeError("must be 0 (no intervals) or at least 2")
    return v


HELP = "calibration of LLM evaluation logs (lm-eval, HELM, Inspect, judged, graded)"
DESCRIPTION = (
    "Accuracy, Brier score, Brier Index, multiple-choice Brier (lm-eval and "
    "BIG-bench conventions), ECE variants, smECE and RMS calibration error, "
    "each with a bootstrap interval; AURC, E-AURC, HELM's selective area and "
    "accuracy@10%; Platt-scaled ECE, temperature-tuned scores and abstention "
    "scores where the log allows; one row per file."
)

_OPTIONS: Options = {
    None: {
        "--format": {
            "choices": FORMATS,
            "default": "auto",
            "help": "log format (default: auto)",
        },
        "--html": shared_option(
            "--html", metavar="OUT", help="write an HTML report with reliability diagrams"
        ),
        "--json": {
            "dest": "json_out",
            "metavar": "OUT",
            "help": "write the numbers as JSON",
        },
        "--force": shared_option("--force", help="overwrite output files"),
        "--skip-invalid": {
            "action": "store_true",
            "help": "skip (and count) malformed records instead of stopping",
        },
        "--length-normalize": {
            "action": "store_true",
            "help": "lm-eval: divide log-likelihoods by choice length (acc_norm)",
        },
        "--target-delimiter": {
            "metavar": "TEXT",
            "help": "lm-eval: the task's target_delimiter, left out of the choice length "
            "of --length-normalize (default ' ', lm-eval's; '' for none)",
        },
        "--scorer": {
            "metavar": "NAME",
            "help": "Inspect: the score to read (when several)",
        },
        "--confidence": {
            "choices": CONFIDENCE_SOURCES,
            "help": "Inspect: where the confidence comes from: logprobs of the answer "
            "token, a stated confidence (with --confidence-field), or none (accuracy "
            "only); default: auto",
        },
        "--confidence-field": {
            "metavar": "FIELD",
            "help": "Inspect: score metadata field holding the stated confidence "
            "('explanation': parse 'Confidence: NN' from the judge's explanation); "
            "graded: the record's field holding it",
        },
        "--confidence-scale": {
            "type": float,
            "metavar": "S",
            "help": "Inspect (stated), judged and graded logs: what a stated "
            "confidence of certainty reads (default Inspect and judged: 100, "
            "graded: 1; '85%%' is read as a percentage whatever the scale)",
        },
        "--n-resamples": {
            "type": _n_resamples,
            "default": "auto",
            "help": f"bootstrap resamples (default auto: {DEFAULT_N_RESAMPLES}, or "
            f"{AUTO_LARGE_N_RESAMPLES} for files of over {AUTO_LARGE_RECORDS:,} "
            "questions; 0: no intervals)",
        },
        "--confidence-level": shared_option("--confidence-level"),
        "--random-state": shared_option("--random-state", default=0),
        "--n-jobs": shared_option(
            "--n-jobs",
            help="threads of the bootstrap (-1: all cores; the intervals do not "
            "depend on it)",
        ),
    }
}


def add_arguments(sp: argparse.ArgumentParser) -> None:
    """Add the arguments of ``skbrier llm`` to its parser."""
    sp.add_argument("files", nargs="+", metavar="FILE", help="log files (or HELM run dirs)")
    add_options(sp, _OPTIONS)
    sp.set_defaults(func=_llm, allow_zero_resamples=True)
