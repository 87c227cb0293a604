"""``skbrier llm FILE...``: calibration of LLM evaluation logs, one row per file."""

from __future__ import annotations

import argparse
import html
import io
import json
import os
import re
import sys
from typing import Any

import numpy as np

from .._core.params import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_N_BINS,
    DEFAULT_N_RESAMPLES,
    DEFAULT_STRATEGY,
)
from ._common import CLIError, _check_output, _seed, _write

FORMATS = ("auto", "lm-eval", "helm", "inspect", "judged")
#: values of --confidence (those of read_inspect_log's confidence=)
CONFIDENCE_SOURCES = ("auto", "logprobs", "stated", "none")

#: (key, label) of the columns, in order
COLUMNS = (
    ("n", "n"),
    ("accuracy", "accuracy"),
    ("brier", "Brier (correct vs confidence)"),
    ("brier_index", "Brier Index"),
    ("mc_brier_lm_eval", "MC Brier, lm-eval (sum over choices)"),
    ("mc_brier_bigbench", "MC Brier, BIG-bench (per choice)"),
    ("ece", f"ECE ({DEFAULT_N_BINS} equal-width bins)"),  # calibration_error's default
    ("ece_helm", "ECE (HELM, 10 equal-mass bins)"),
    ("smece", "smECE"),
    ("rms_ce", "RMS calibration error (HLE, bins of 100)"),
    ("corp_mcb", "CORP miscalibration"),
)


def _detect(path: str) -> str:
    base = os.path.basename(path.rstrip(os.sep))
    if os.path.isdir(path) or base == "per_instance_stats.json":
        return "helm"
    if base.endswith(".eval"):
        return "inspect"
    if base.endswith(".jsonl"):
        return "lm-eval"
    if base.endswith(".json"):
        try:
            with open(path, "rb") as fh:
                head = fh.read(1 << 16).decode("utf-8", errors="replace")
        except OSError as exc:
            raise CLIError(f"{path}: cannot read ({exc.strerror or exc}).") from None
        if '"eval"' in head and ('"samples"' in head or '"status"' in head):
            return "inspect"
        if '"judge_response"' in head:
            return "judged"
    raise CLIError(
        f"{path}: cannot tell the log format from the name; pass --format "
        "(lm-eval, helm, inspect or judged)."
    )


#: reader options of the command line, and the formats they apply to
_READER_OPTIONS = {
    "scorer": ("--scorer", ("inspect",)),
    "confidence": ("--confidence", ("inspect",)),
    "confidence_field": ("--confidence-field", ("inspect",)),
    "confidence_scale": ("--confidence-scale", ("inspect", "judged")),
}


def _read(path: str, args: argparse.Namespace) -> Any:
    from ..io import (
        EvalLogError,
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
        if value is None:
            continue
        if fmt not in formats:
            raise CLIError(
                f"{flag} applies to {' and '.join(formats)} logs; {path} is a {fmt} log."
            )
        options[key] = value
    try:
        if fmt == "lm-eval":
            return read_lm_eval_samples(
                path, length_normalize=args.length_normalize, skip_invalid=args.skip_invalid
            )
        if fmt == "helm":
            return read_helm_run(path, skip_invalid=args.skip_invalid)
        if fmt == "inspect":
            return read_inspect_log(path, skip_invalid=args.skip_invalid, **options)
        return read_judged(path, skip_invalid=args.skip_invalid, **options)
    except EvalLogError as exc:  # a data error: file, record and field named
        raise CLIError(str(exc)) from None
    except OSError as exc:  # the readers name the path
        raise CLIError(str(exc)) from None
    except (ValueError, TypeError) as exc:  # an option: named as its flag is spelt
        msg = str(exc)
        for key in sorted(_READER_OPTIONS, key=len, reverse=True):
            flag = _READER_OPTIONS[key][0]
            msg = re.sub(rf"\b{key}=", f"{flag} ", msg)
            msg = re.sub(rf"\b{key} must\b", f"{flag} must", msg)
        raise CLIError(msg) from None


def _statistics(rec: Any) -> tuple[Any, list[str]]:
    """``stat(weights) -> dict`` over the records, and the keys it fills."""
    from .._core.kernels.calibration_error import smooth_ece_auto
    from .._core.kernels.decomposition import corp_from_groups, pool_ties
    from .._core.kernels.multiple_choice import (
        bigbench_per_example,
        normalise_targets,
        per_example_squared_error,
        segment_starts,
        softmax_segments,
    )
    from ..metrics._calibration_error_core import Pairs, ce_value, check_options

    y = rec.correct.astype(np.float64)
    n = y.shape[0]
    if rec.confidence is None or n == 0:  # correctness only, or no scored sample

        def counts(w: np.ndarray | None) -> dict[str, float]:
            ww = np.ones(n) if w is None else w
            return {"n": float(n), "accuracy": float(np.sum(ww * y) / ww.sum())}

        return counts, ["n", "accuracy"] if n else ["n"]
    p = rec.confidence
    pairs = Pairs([(p, y)], None, False)
    o_ece = check_options("l1", DEFAULT_N_BINS, DEFAULT_STRATEGY, None, False, True)
    o_helm = check_options("l1", 10, "uniform", "helm", False, True)
    o_rms = check_options("l2", DEFAULT_N_BINS, DEFAULT_STRATEGY, "hle", False, True)
    mc = None
    if rec.choice_logprobs is not None:
        lengths = rec.n_choices
        starts = segment_starts(lengths)
        probs = softmax_segments(rec.choice_logprobs, starts, lengths)
        onehot = np.zeros_like(probs)
        onehot[starts + rec.gold] = 1.0
        t = normalise_targets(onehot, starts, lengths)
        mc = (
            per_example_squared_error(probs, t, starts),
            bigbench_per_example(probs, t, starts),
            lengths.astype(np.float64),
        )
    keys = [k for k, _ in COLUMNS]
    if mc is None:
        keys = [k for k in keys if not k.startswith("mc_")]
    if n < 100:
        keys.remove("rms_ce")

    def stat(w: np.ndarray | None) -> dict[str, float]:
        ww = np.ones(n) if w is None else w
        tot = ww.sum()
        bs = float(np.sum(ww * (p - y) ** 2) / tot)
        out = {
            "n": float(n),
            "accuracy": float(np.sum(ww * y) / tot),
            "brier": bs,
            "brier_index": 100.0 * (1.0 - np.sqrt(bs)),
            "ece": ce_value(pairs, w, o_ece),
            "ece_helm": ce_value(pairs, w, o_helm),
            "smece": smooth_ece_auto(p, y, w)[0],
        }
        if "rms_ce" in keys:
            out["rms_ce"] = ce_value(pairs, w, o_rms)
        g = pool_ties(y, p, w)
        out["corp_mcb"] = corp_from_groups(g.x, g.w, g.ysum)[1]
        if mc is not None:
            per, big, k = mc
            out["mc_brier_lm_eval"] = float(np.sum(ww * per) / tot)
            out["mc_brier_bigbench"] = float(np.sum(ww * big) / np.sum(ww * k))
        return out

    return stat, keys


def _analyse(rec: Any, args: argparse.Namespace) -> dict[str, Any]:
    from .._core.resampling import (
        interval_from_replicates,
        resample_counts,
        run_replicates,
    )

    stat, keys = _statistics(rec)
    est = stat(None) if rec.n_records else {"n": 0.0}
    bad = [k for k in keys if not np.isfinite(est[k])]
    if bad:  # the readers refuse non-finite inputs: this is a defect, not data
        raise CLIError(f"{rec.path}: {', '.join(bad)} is not finite; please report this.")
    n = rec.n_records
    boot = [k for k in keys if k != "n"]

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        rows = np.empty((size, len(boot)))
        for j in range(size):
            s = stat(resample_counts(rng, n))
            rows[j] = [s[k] for k in boot]
        return rows

    ci: dict[str, tuple[float, float]] = {}
    if args.n_resamples and boot:
        reps = run_replicates(
            task, args.n_resamples, random_state=args.random_state, desc="llm bootstrap"
        )
        for i, k in enumerate(boot):
            try:
                c = interval_from_replicates(
                    reps[:, i], args.confidence_level, nan_policy="raise"
                )
            except ValueError as exc:
                raise CLIError(f"{rec.path}: {k}: {exc}") from None
            ci[k] = (float(c.low), float(c.high))
    name = rec.model or os.path.basename(rec.path.rstrip(os.sep))
    return {
        "file": rec.path,
        "format": rec.format,
        "model": name,
        "n_skipped": rec.n_skipped,
        "n_unscored": rec.n_unscored,
        "has_confidence": rec.has_confidence,
        "estimates": {k: est[k] for k in keys},
        "intervals": ci,
    }


def _fmt(row: dict[str, Any], key: str) -> str:
    if key not in row["estimates"]:
        return "n/a"
    v = row["estimates"][key]
    if key == "n":
        return str(int(v))
    digits = 2 if key == "brier_index" else 4
    s = f"{v:.{digits}f}"
    if key in row["intervals"]:
        lo, hi = row["intervals"][key]
        s += f" [{lo:.{digits}f}, {hi:.{digits}f}]"
    return s


def _text(rows: list[dict[str, Any]], level: float) -> str:
    lines = []
    for row in rows:
        head = f"{row['model']}  ({row['format']}: {row['file']})"
        if row["n_skipped"]:
            head += f"  -- {row['n_skipped']} malformed records skipped"
        if row["n_unscored"]:
            head += f"  -- {row['n_unscored']} unscored samples left out"
        lines += [head, "-" * min(len(head), 79)]
        if not row["estimates"]["n"]:
            lines.append("  no scored sample: nothing to measure")
        elif not row["has_confidence"]:
            lines.append(
                "  correctness only (the log has neither logprobs nor a stated "
                "confidence): no calibration"
            )
        width = max(len(lbl) for _, lbl in COLUMNS)
        for key, label in COLUMNS:
            lines.append(f"  {label:<{width}}  {_fmt(row, key)}")
        lines.append("")
    lines.append(f"Intervals: {level:.0%} percentile bootstrap over questions.")
    return "\n".join(lines) + "\n"


def _svg(recs: list[Any]) -> list[str]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - optional extra
        return []
    from ..plotting._multiclass_reliability import MulticlassReliabilityDisplay

    out = []
    for rec in recs:
        if rec.confidence is None or not rec.n_records:
            out.append("<p>no confidence: no reliability diagram</p>")
            continue
        fig, ax = plt.subplots(figsize=(4.5, 4.5))
        MulticlassReliabilityDisplay.from_predictions(
            rec.correct, rec.confidence, n_bins=10, name=rec.model or ""
        ).plot(ax=ax)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight")
        plt.close(fig)
        svg = buf.getvalue()
        out.append(svg[svg.index("<svg") :])
    return out


def _html(rows: list[dict[str, Any]], recs: list[Any], level: float) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(lbl)}</th>" for _, lbl in COLUMNS)
    body = "".join(
        f"<tr><th>{esc(str(r['model']))}</th>"
        + "".join(f"<td>{esc(_fmt(r, k))}</td>" for k, _ in COLUMNS)
        + "</tr>"
        for r in rows
    )
    figs = "".join(
        f"<figure><figcaption>{esc(str(r['model']))}</figcaption>{s}</figure>"
        for r, s in zip(rows, _svg(recs))
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>skbrier llm</title>"
        "<style>body{font-family:sans-serif}td,th{padding:2px 8px;border-bottom:1px "
        "solid #ddd;text-align:left}figure{display:inline-block;margin:8px}</style>"
        "</head><body><h1>Calibration of LLM evaluation logs</h1>"
        f"<table><tr><th>model</th>{head}</tr>{body}</table>"
        f"<p>Intervals: {level:.0%} percentile bootstrap over questions.</p>"
        f"<h2>Reliability diagrams</h2>{figs}</body></html>\n"
    )


def _llm(args: argparse.Namespace) -> int:
    _check_output(args.html, args.force, "--html")
    _check_output(args.json_out, args.force, "--json")
    recs = [_read(f, args) for f in args.files]
    rows = [_analyse(r, args) for r in recs]
    sys.stdout.write(_text(rows, args.confidence_level))
    if args.json_out:
        _write(args.json_out, json.dumps(rows, indent=1) + "\n", "--json", args.force)
    if args.html:
        _write(args.html, _html(rows, recs, args.confidence_level), "--html", args.force)
    return 0


def _n_resamples(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if v != 0 and v < 2:
        raise argparse.ArgumentTypeError("must be 0 (no intervals) or at least 2")
    return v


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``llm`` subcommand to ``skbrier``'s parser."""
    sp = sub.add_parser(
        "llm",
        help="calibration of LLM evaluation logs (lm-eval, HELM, Inspect, judged)",
        description=(
            "Accuracy, Brier score, Brier Index, multiple-choice Brier (lm-eval and "
            "BIG-bench conventions), ECE variants, smECE and RMS calibration error, "
            "each with a bootstrap interval, one block per file."
        ),
    )
    sp.add_argument("files", nargs="+", metavar="FILE", help="log files (or HELM run dirs)")
    sp.add_argument(
        "--format", choices=FORMATS, default="auto", help="log format (default: auto)"
    )
    sp.add_argument(
        "--html", metavar="OUT", help="write an HTML report with reliability diagrams"
    )
    sp.add_argument(
        "--json", dest="json_out", metavar="OUT", help="write the numbers as JSON"
    )
    sp.add_argument("--force", action="store_true", help="overwrite output files")
    sp.add_argument(
        "--skip-invalid",
        action="store_true",
        help="skip (and count) malformed records instead of stopping",
    )
    sp.add_argument(
        "--length-normalize",
        action="store_true",
        help="lm-eval: divide log-likelihoods by choice length (acc_norm)",
    )
    sp.add_argument(
        "--scorer", metavar="NAME", help="Inspect: the score to read (when several)"
    )
    sp.add_argument(
        "--confidence",
        choices=CONFIDENCE_SOURCES,
        help="Inspect: where the confidence comes from: logprobs of the answer token, "
        "a stated confidence (with --confidence-field), or none (accuracy only); "
        "default: auto",
    )
    sp.add_argument(
        "--confidence-field",
        metavar="FIELD",
        help="Inspect: score metadata field holding the stated confidence "
        "('explanation': parse 'Confidence: NN' from the judge's explanation)",
    )
    sp.add_argument(
        "--confidence-scale",
        type=float,
        metavar="S",
        help="Inspect (stated) and judged logs: what a stated confidence of certainty "
        "reads (default 100; 1 for probabilities)",
    )
    sp.add_argument(
        "--n-resamples",
        type=_n_resamples,
        default=DEFAULT_N_RESAMPLES,
        help=f"bootstrap resamples (default {DEFAULT_N_RESAMPLES}; 0: no intervals)",
    )
    sp.add_argument("--confidence-level", type=float, default=DEFAULT_CONFIDENCE_LEVEL)
    sp.add_argument("--random-state", type=_seed, default=0)
    sp.set_defaults(func=_llm, allow_zero_resamples=True)
