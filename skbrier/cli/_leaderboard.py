"""``skbrier leaderboard``: a difficulty-adjusted leaderboard of the forecasters in a file."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from .._core.params import DEFAULT_CONFIDENCE_LEVEL, DEFAULT_N_RESAMPLES
from ._common import CLIError, _check_output, _seed, _write
from ._read import _column, _display_name, _outcomes, _probabilities, _read_csv, _weights


def _anchor(text: str | None) -> tuple[str, float] | None:
    if text is None:
        return None
    name, sep, value = text.rpartition("=")
    if not sep or not name:
        raise CLIError(
            f"--anchor must look like NAME=VALUE (e.g. 'Always 0.5=0.25'), got {text!r}."
        )
    try:
        v = float(value)
    except ValueError:
        raise CLIError(f"--anchor: {value!r} is not a number.") from None
    return name, v


def _leaderboard(args: argparse.Namespace) -> int:
    from ..leaderboards import leaderboard

    _check_output(args.html, args.force, "--html")
    if args.n_resamples < 0 or args.n_resamples == 1:
        raise CLIError(
            f"--n-resamples must be at least 2 (or 0 for none), got {args.n_resamples}."
        )
    anchor = _anchor(args.anchor)
    header, body = _read_csv(args.file)
    path = _display_name(args.file)
    y = _outcomes(_column(header, body, args.y_col, path), args.y_col, path, args.pos_label)
    p = _probabilities(_column(header, body, args.p_col, path), args.p_col, path)
    f = np.asarray(_column(header, body, args.forecaster_col, path), dtype=object)
    q = np.asarray(_column(header, body, args.question_col, path), dtype=object)
    extra: dict[str, Any] = {}
    for opt, key in (("strata_col", "strata"), ("combine_col", "combine")):
        col = getattr(args, opt)
        if col is not None:
            extra[key] = np.asarray(_column(header, body, col, path), dtype=object)
    w = None if args.weight_col is None else _weights(header, body, args.weight_col, path)
    fit = None
    if args.exclude_from_fit:
        excluded = set(args.exclude_from_fit)
        names = sorted(set(f.tolist()))
        unknown = sorted(excluded - set(names))
        if unknown:
            raise CLIError(f"--exclude-from-fit: unknown forecaster {unknown[0]!r}.")
        fit = [n for n in names if n not in excluded]
    try:
        res = leaderboard(
            y, p, forecaster=f, question=q, sample_weight=w, anchor=anchor,
            reference=args.reference, fit_forecasters=fit, n_resamples=args.n_resamples,
            confidence_level=args.confidence_level, random_state=args.random_state,
            **extra,
        )  # fmt: skip
    except (ValueError, TypeError) as exc:
        raise CLIError(str(exc)) from None
    if args.html is not None:
        _write(args.html, res.to_html(title=args.title), "--html", args.force)
    if args.json:
        print(json.dumps(_records(res), indent=2, allow_nan=False))
    else:
        print(res.summary())
    if args.html is not None:
        print(f"HTML leaderboard written to {args.html}", file=sys.stderr)
    return 0


def _records(res: Any) -> list[dict[str, Any]]:
    """One JSON-ready record per forecaster, best first (NaN becomes null)."""
    rows = res._rows(res._columns)
    return [
        {k: (None if isinstance(v, float) and v != v else v) for k, v in r.items()}
        for r in rows
    ]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand to ``skbrier``'s parser."""
    sp = sub.add_parser(
        "leaderboard",
        help="difficulty-adjusted leaderboard of forecasters (ForecastBench-style)",
        description=(
            "Rank the forecasters of a long-format CSV file (one row per forecaster "
            "and question) by their difficulty-adjusted Brier Index (two-way fixed "
            "effects), with question-bootstrap intervals, p-values and rank intervals."
        ),
    )
    sp.add_argument(
        "file", metavar="FILE.csv", help="CSV file with a header row ('-': stdin)"
    )
    sp.add_argument("--forecaster-col", required=True, metavar="COL")
    sp.add_argument("--question-col", required=True, metavar="COL")
    sp.add_argument("--y-col", required=True, metavar="COL", help="column of outcomes")
    sp.add_argument("--p-col", required=True, metavar="COL", help="column of forecasts")
    sp.add_argument("--strata-col", metavar="COL", help="bootstrap strata of the questions")
    sp.add_argument(
        "--combine-col",
        metavar="COL",
        help="question type: fit each type separately and average the scores",
    )
    sp.add_argument("--weight-col", metavar="COL", help="column of frequency weights")
    sp.add_argument("--pos-label", metavar="LABEL", help="the outcome that is the event")
    sp.add_argument(
        "--anchor", metavar="NAME=VALUE", help="shift scores so that NAME scores VALUE"
    )
    sp.add_argument("--reference", metavar="NAME", help="forecaster of the p-values")
    sp.add_argument(
        "--exclude-from-fit",
        action="append",
        metavar="NAME",
        help="forecaster scored but not used to estimate difficulty (repeatable)",
    )
    sp.add_argument(
        "--n-resamples",
        type=int,
        default=DEFAULT_N_RESAMPLES,
        metavar="R",
        help=f"question-bootstrap replicates (default {DEFAULT_N_RESAMPLES}; "
        "0: no intervals)",
    )
    sp.add_argument(
        "--confidence-level", type=float, default=DEFAULT_CONFIDENCE_LEVEL, metavar="LEVEL"
    )
    sp.add_argument("--random-state", type=_seed, default=None)
    sp.add_argument(
        "--html", metavar="OUT.html", help="also write an HTML leaderboard page"
    )
    sp.add_argument("--title", default="Leaderboard", help="title of the HTML page")
    sp.add_argument("--json", action="store_true", help="print JSON records")
    sp.add_argument(
        "--force", action="store_true", help="overwrite an existing output file"
    )
    sp.set_defaults(func=_leaderboard, allow_zero_resamples=True)
