"""``skbrier leaderboard``: a difficulty-adjusted leaderboard of the forecasters in a file."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

import numpy as np

from .._core.params import DEFAULT_N_RESAMPLES
from .._core.results import to_builtin
from ._common import (
    CLIError,
    Options,
    _check_output,
    _sep,
    _write,
    add_options,
    say_note,
    shared_option,
)
from ._read import _numbers, outcomes, probabilities, read_input, weights
from ._table import Codes


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


def _labels(col: Any) -> np.ndarray:
    """A label column as an object array (None: missing)."""
    if isinstance(col, Codes):
        levels = np.empty(len(col.levels) + 1, dtype=object)
        levels[:-1] = col.levels
        levels[-1] = None
        return levels[col.codes]
    arr = np.asarray(col, dtype=float)
    out = np.empty(arr.shape[0], dtype=object)
    for i, v in enumerate(arr.tolist()):
        out[i] = None if v != v else (int(v) if float(v).is_integer() else v)
    return out


def _read(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The table's columns as arrays; returns (path, columns)."""
    labels = {
        "forecaster": args.forecaster_col,
        "question": args.question_col,
        "strata": args.strata_col,
        "combine": args.combine_col,
        "organization": args.organization_col,
        "release_date": args.release_date_col,
        "submission_date": args.submission_date_col,
    }
    numbers = {
        "weight": args.weight_col,
        "horizon": args.horizon_col,
        "impute": args.impute_col,
    }
    roles = [args.y_col, args.p_col] + [
        c for c in (*labels.values(), *numbers.values()) if c
    ]
    table = read_input(
        args.file, roles, [args.p_col] + [c for c in numbers.values() if c], args
    )
    path, cols = table.name, table.columns
    out: dict[str, Any] = {
        "y": outcomes(
            cols[args.y_col], args.y_col, path, args.pos_label, decimal=args.decimal
        ),
        "p": probabilities(cols[args.p_col], args.p_col, path, decimal=args.decimal),
    }
    for key, col in labels.items():
        if col is not None:
            out[key] = _labels(cols[col])
    if args.weight_col is not None:
        out["weight"] = weights(
            cols[args.weight_col], args.weight_col, path, decimal=args.decimal
        )
    for key in ("horizon", "impute"):
        col = numbers[key]
        if col is not None:
            out[key] = _numbers(cols[col], col, path, args.decimal)
    return path, out


def _missing_rows(path: str, c: dict[str, Any], args: argparse.Namespace) -> np.ndarray:
    """Apply --na: impute or refuse missing forecasts; rows still missing anything."""
    p = c["p"]
    gap = np.isnan(p)
    if args.na == "error" and gap.any():
        raise CLIError(
            f"{path}: column '{args.p_col}' has a missing value in row "
            f"{int(np.flatnonzero(gap)[0]) + 2} (--na error; --na drop leaves such rows "
            "out, --na impute fills them as ForecastBench does)."
        )
    if args.na == "impute" and gap.any():
        fill = np.full(p.shape[0], 0.5) if "impute" not in c else c["impute"]
        c["p"] = p = np.where(gap, fill, p)
        c["imputed"] = gap
    bad = np.isnan(c["y"]) | np.isnan(p)
    if "weight" in c:
        bad |= np.isnan(c["weight"])
    for key in ("forecaster", "question", "strata", "combine"):
        if key in c:
            bad |= np.array([v is None for v in c[key]], dtype=bool)
    if args.na == "error":
        refuse_missing_rows(path, bad)
    return bad


def refuse_missing_rows(path: str, bad: np.ndarray, what: str = "rows") -> None:
    """--na error of a board's table: a CLIError naming the first row of
    ``bad`` (a mask of the rows with a missing value) when there is one."""
    if bad.any():
        raise CLIError(
            f"{path}: row {int(np.flatnonzero(bad)[0]) + 2} has a missing value (--na "
            f"error; the default --na drop leaves such {what} out)."
        )


def _over_imputed(c: dict[str, Any], cutoff: float) -> list[Any]:
    """Forecasters with more than ``cutoff`` percent imputed forecasts (ForecastBench: 5)."""
    if "imputed" not in c:
        return []
    f, imp = c["forecaster"], c["imputed"]
    names = sorted({v for v in f.tolist() if v is not None}, key=str)
    return [n for n in names if 100.0 * float(np.mean(imp[f == n])) > cutoff]


def _subset(c: dict[str, Any], keep: np.ndarray) -> dict[str, Any]:
    return {k: v[keep] for k, v in c.items()}


#: forecastbench_rows' parameters as the command's options (its errors)
_CULL_OPTIONS: dict[str, str | None] = {
    "latest_per_organization": "--latest-per-org",
    "max_lead_time": "--max-horizon",
    "lead_time": "--horizon-col",
    "max_inactive_days": "--hide-inactive-days",
    "reference_date": "--reference-date",
    "submission_date": "--submission-date-col",
    "release_date": "--release-date-col",
    "organization": "--organization-col",
}


def _leaderboard(args: argparse.Namespace) -> int:
    from ..leaderboards import forecastbench_rows, leaderboard, read_question_effects

    anchor = check_board_options(args)
    if args.latest_per_org is not None and (
        args.organization_col is None or args.release_date_col is None
    ):
        raise CLIError("--latest-per-org needs --organization-col and --release-date-col.")
    if args.hide_inactive_days is not None and args.submission_date_col is None:
        raise CLIError("--hide-inactive-days needs --submission-date-col.")
    if args.impute_col is not None and args.na != "impute":
        raise CLIError("--impute-col is the value of --na impute: give --na impute.")
    if args.reference_date is not None and args.hide_inactive_days is None:
        raise CLIError("--reference-date needs --hide-inactive-days (its 'now').")
    if not 0.0 <= args.max_imputed_pct <= 100.0:  # NaN too
        raise CLIError(
            f"--max-imputed-pct must be a percentage in [0, 100], got {args.max_imputed_pct}."
        )
    if args.parity_target is not None and args.release_date_col is None:
        raise CLIError(
            "--parity-target needs --release-date-col (one date per forecaster)."
        )
    path, c = _read(args)
    c["row"] = np.arange(c["p"].shape[0])  # the file's data row of each row left
    bad = _missing_rows(path, c, args)
    dropped = int(bad.sum())
    c = _subset(c, ~bad)
    notes = []
    if dropped:
        notes.append(f"{dropped} row(s) with a missing value left out (--na {args.na})")
    over = _over_imputed(c, args.max_imputed_pct)
    if over:
        c = _subset(c, ~np.isin(c["forecaster"], np.asarray(over, dtype=object)))
        notes.append(
            f"{len(over)} forecaster(s) with over {args.max_imputed_pct:g}% imputed "
            f"forecasts left out: {', '.join(map(str, over[:5]))}"
        )
    try:
        keep = forecastbench_rows(
            c["forecaster"],
            organization=c.get("organization"),
            release_date=c.get("release_date"),
            latest_per_organization=args.latest_per_org,
            lead_time=c.get("horizon"),
            max_lead_time=args.max_horizon,
            submission_date=c.get("submission_date"),
            max_inactive_days=args.hide_inactive_days,
            reference_date=args.reference_date,
        )
    except (ValueError, TypeError) as exc:
        raise board_error(exc, {None: (path, c["row"])}, _CULL_OPTIONS) from None
    if not keep.all():
        notes.append(
            f"{int((~keep).sum())} row(s) culled (--latest-per-org, --max-horizon, "
            "--hide-inactive-days)"
        )
        c = _subset(c, keep)
    if c["p"].shape[0] == 0:  # the notes say where the rows went
        raise CLIError(
            f"{path}: no rows left to score ({'; '.join(notes) or 'none read'})."
        )
    for line in notes:
        say_note(f"{line}.", args)
    extra: dict[str, Any] = {k: c[k] for k in ("strata", "combine") if k in c}
    if args.question_effects is not None:
        try:
            extra["question_effects"] = read_question_effects(
                args.question_effects, leaderboard_type=args.leaderboard_type
            )
        except OSError as exc:  # one line naming the file
            raise CLIError(f"--question-effects: {exc}") from None
        except ValueError as exc:
            raise CLIError(f"--question-effects: {exc}") from None
    f = c["forecaster"]
    try:
        res = leaderboard(
            c["y"],
            c["p"],
            forecaster=f,
            question=c["question"],
            sample_weight=c.get("weight"),
            anchor=anchor,
            reference=args.reference,
            fit_forecasters=fit_forecasters(f, args.exclude_from_fit),
            n_resamples=args.n_resamples,
            confidence_level=args.confidence_level,
            simultaneous=not args.marginal,
            random_state=args.random_state,
            **extra,
        )
        parity = None if args.parity_target is None else _parity(res, c, args)
    except (ValueError, TypeError) as exc:
        columns = {
            k: None if col is None else f"{option} {col!r}"
            for k, option, col in (
                ("y_true", "--y-col", args.y_col),
                ("strata", "--strata-col", args.strata_col),
                ("combine", "--combine-col", args.combine_col),
                ("target", "--parity-target", args.parity_target),
            )
        }
        raise board_error(exc, {None: (path, c["row"])}, columns) from None
    show(res, args, parity)
    return 0


def file_rows(message: str, files: dict[str | None, tuple[str, np.ndarray]]) -> str:
    """The API's ``row N`` (``rows N and M``, ``... of TABLE``) as rows of the user's file.

    ``files`` maps the table named after ``of`` (None: no table named) to the
    file's name and the position in the file of each row given to the API
    (rows were dropped before: missing values, culling).
    """

    def row(m: re.Match[str]) -> str:
        if m.group(3) not in files:
            return m.group(0)
        path, kept = files[m.group(3)]
        numbers = [str(int(kept[int(g)]) + 2) for g in (m.group(1), m.group(2)) if g]
        return f"{m.group(0).split()[0]} {' and '.join(numbers)} of {path}"

    return re.sub(
        r"\brows? (\d+)(?: and (\d+))?(?: of (forecasts|questions))?\b", row, message
    )


def board_error(
    exc: Exception,
    files: dict[str | None, tuple[str, np.ndarray]] | None = None,
    columns: dict[str, str | None] | None = None,
) -> CLIError:
    """The API's error of a leaderboard, with its options spelt as the command's,
    its row numbers as rows of the files (:func:`file_rows`) and a parameter
    that opens the message followed by the command's option and column
    (``columns``: parameter -> (option, column))."""
    message = str(exc).replace("n_resamples=0", "--n-resamples 0")
    head = re.match(r"\w*", message).group(0)  # type: ignore[union-attr]  # a parameter
    if columns and columns.get(head):
        message = f"{head} ({columns[head]}){message[len(head) :]}"
    return CLIError(message if files is None else file_rows(message, files))


def check_board_options(args: argparse.Namespace) -> tuple[str, float] | None:
    """Check --html and --n-resamples before any work; returns --anchor."""
    _check_output(args.html, args.force, "--html")
    if args.n_resamples < 0 or args.n_resamples == 1:
        raise CLIError(
            f"--n-resamples must be at least 2 (or 0 for none), got {args.n_resamples}."
        )
    return _anchor(args.anchor)


def fit_forecasters(names: np.ndarray, excluded: list[str] | None) -> list[Any] | None:
    """The forecasters that estimate the question effects with ``--exclude-from-fit``."""
    if not excluded:
        return None
    present = sorted(set(names.tolist()), key=str)
    unknown = sorted(set(excluded) - set(present))
    if unknown:
        raise CLIError(f"--exclude-from-fit: unknown forecaster {unknown[0]!r}.")
    return [n for n in present if n not in set(excluded)]


def tie_lines(res: Any) -> list[str]:
    """The top set and the tie groups of a leaderboard, as lines of text."""
    if not res.n_resamples:
        return []
    groups = " | ".join(
        f"{g}: {', '.join(map(str, names))}" for g, names in res.groups.items()
    )
    return [
        f"top set (rank interval contains 1): {', '.join(map(str, res.top_set))}",
        f"tie groups (1 + the number significantly better): {groups}",
    ]


def show(res: Any, args: argparse.Namespace, parity: Any = None) -> None:
    """Print a leaderboard (table or --json) and write --html."""
    from ..leaderboards._html import leaderboard_html

    if args.html is not None:
        _write(args.html, leaderboard_html(res, title=args.title), "--html", args.force)
    if args.json:
        out: Any = _records(res)
        if parity is not None:
            out = {"leaderboard": out, "parity": parity.to_dict()}
        print(json.dumps(out, indent=2, allow_nan=False, default=str))
    else:
        print(res.summary())
        for line in tie_lines(res):
            print(line)
        if parity is not None:
            print()
            print(parity.summary())
    if args.html is not None:
        print(f"HTML leaderboard written to {args.html}", file=sys.stderr)


def _parity(res: Any, c: dict[str, Any], args: argparse.Namespace) -> Any:
    """The parity date of the state of the art with --parity-target."""
    from ..leaderboards import parity_date

    dates: dict[Any, Any] = {}
    for name, d in zip(c["forecaster"].tolist(), c["release_date"].tolist()):
        if d is not None and dates.setdefault(name, d) != d:
            raise ValueError(
                f"--release-date-col: forecaster {name!r} has more than one release date."
            )
    target: Any = args.parity_target
    try:
        target = float(target)
    except ValueError:
        pass
    reps = res if res.n_resamples else None
    return parity_date(
        {n: dates.get(to_builtin(n)) for n in res.forecasters.tolist()},
        res,
        target,
        replicates=reps,
        confidence_level=args.confidence_level,
    )


def _records(res: Any) -> list[dict[str, Any]]:
    """One JSON-ready record per forecaster, best first (NaN becomes null)."""
    rows = res._rows()
    return [
        {k: (None if isinstance(v, float) and v != v else v) for k, v in r.items()}
        for r in rows
    ]


#: the arguments of ``skbrier leaderboard``, by argument group (None: the main list):
#: flag -> keyword arguments of ``add_argument``
_OPTIONS: Options = {
    None: {
        "file": {
            "metavar": "FILE",
            "help": "CSV/TSV text (compressed or not) or Parquet file with a header row "
            "('-': stdin)",
        },
        "--forecaster-col": {
            "required": True,
            "metavar": "COL",
            "help": "column of forecasters",
        },
        "--question-col": {
            "required": True,
            "metavar": "COL",
            "help": "column of questions",
        },
        "--y-col": {"required": True, "metavar": "COL", "help": "column of outcomes"},
        "--p-col": {"required": True, "metavar": "COL", "help": "column of forecasts"},
        "--strata-col": {"metavar": "COL", "help": "bootstrap strata of the questions"},
        "--combine-col": {
            "metavar": "COL",
            "help": "question type: fit each type separately and average the scores",
        },
        "--weight-col": {"metavar": "COL", "help": "column of frequency weights"},
        "--pos-label": {"metavar": "LABEL", "help": "the outcome that is the event"},
        "--anchor": {
            "metavar": "NAME=VALUE",
            "help": "shift scores so that NAME scores VALUE",
        },
        "--reference": {"metavar": "NAME", "help": "forecaster of the p-values"},
        "--exclude-from-fit": {
            "action": "append",
            "metavar": "NAME",
            "help": "forecaster scored but not used to estimate difficulty (repeatable)",
        },
        "--n-resamples": {
            "type": int,
            "default": DEFAULT_N_RESAMPLES,
            "metavar": "R",
            "help": f"question-bootstrap replicates (default {DEFAULT_N_RESAMPLES}; "
            "0: no intervals)",
        },
        "--confidence-level": shared_option("--confidence-level"),
        "--marginal": {
            "action": "store_true",
            "help": "tie groups from paired intervals at the confidence level each, not "
            "Bonferroni-adjusted over the pairs (the default: all hold together)",
        },
        "--random-state": shared_option("--random-state"),
        "--html": shared_option("--html", help="also write an HTML leaderboard page"),
        "--title": {"default": "Leaderboard", "help": "title of the HTML page"},
        "--json": {"action": "store_true", "help": "print JSON records"},
        "--force": shared_option("--force"),
        "--quiet": shared_option("--quiet", help="no notes on standard error"),
    },
    "reading the file": {
        "--sep": {
            "type": _sep,
            "metavar": "CHAR",
            "help": "field separator (default: detected among , ; tab |); 'tab' for a tab",
        },
        "--decimal": {
            "choices": [".", ","],
            "default": ".",
            "metavar": "MARK",
            "help": "decimal mark of the numbers (',' for European exports; default '.')",
        },
        "--encoding": {
            "default": "auto",
            "metavar": "NAME",
            "help": "text encoding (default auto: UTF-8, UTF-16 with BOM, else cp1252 "
            "with a note)",
        },
        "--na": {
            "choices": ["drop", "impute", "error"],
            "default": "drop",
            "help": "rows with a missing value: drop them and say how many (default); "
            "impute a missing forecast as ForecastBench does (--impute-col's value, else "
            "0.5; forecasters with over --max-imputed-pct imputed are left out); or stop",
        },
        "--impute-col": {
            "metavar": "COL",
            "help": "value imputed for a missing forecast (e.g. the market price at freeze)",
        },
        "--max-imputed-pct": {
            "type": float,
            "default": 5.0,
            "metavar": "PCT",
            "help": "with --na impute: leave out forecasters with more imputed forecasts "
            "(default 5, ForecastBench's cutoff)",
        },
    },
    "ForecastBench": {
        "--question-effects": {
            "metavar": "FILE.json",
            "help": "score against frozen question fixed effects in ForecastBench's "
            "published layout (questions named by their ForecastBench key)",
        },
        "--leaderboard-type": {
            "choices": ["baseline", "tournament"],
            "help": "which effects of a --question-effects file holding both",
        },
        "--organization-col": {"metavar": "COL", "help": "organisation of each forecaster"},
        "--release-date-col": {"metavar": "COL", "help": "release date of each forecaster"},
        "--latest-per-org": {
            "type": int,
            "metavar": "K",
            "help": "keep the K most recently released forecasters of each organisation",
        },
        "--horizon-col": {"metavar": "COL", "help": "forecast horizon in days"},
        "--max-horizon": {
            "type": float,
            "default": 365.0,
            "metavar": "DAYS",
            "help": "with --horizon-col: drop longer horizons (default 365)",
        },
        "--submission-date-col": {
            "metavar": "COL",
            "help": "date of each row's submission (e.g. forecast_due_date)",
        },
        "--hide-inactive-days": {
            "type": float,
            "metavar": "DAYS",
            "help": "with --submission-date-col: leave out forecasters without a "
            "submission in the DAYS before --reference-date (ForecastBench: 365)",
        },
        "--reference-date": {
            "metavar": "DATE",
            "help": "'now' of --hide-inactive-days (default: the latest submission date)",
        },
        "--parity-target": {
            "metavar": "NAME|INDEX",
            "help": "with --release-date-col: the date the state of the art reaches this "
            "forecaster's (or this) Brier Index",
        },
    },
}


HELP = "difficulty-adjusted leaderboard of forecasters (ForecastBench-style)"
DESCRIPTION = (
    "Rank the forecasters of a long-format table (one row per forecaster "
    "and question) by their difficulty-adjusted Brier Index (two-way fixed "
    "effects), with question-bootstrap intervals, p-values and rank intervals."
)


def add_arguments(sp: argparse.ArgumentParser) -> None:
    """Add the arguments of ``skbrier leaderboard`` to its parser."""
    add_options(sp, _OPTIONS)
    sp.set_defaults(func=_leaderboard, allow_zero_resamples=True)
