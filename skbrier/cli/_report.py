"""``skbrier report``: audit the forecasts in a file."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import warnings

import numpy as np

from .._core.progress import Task, message
from . import _tripod
from ._common import (
    CLIError,
    _add_output_options,
    _check_output,
    _seed,
    _sep,  # noqa: F401 - the leaderboard command imports it from here
    _thresholds,
    _write,
    add_reader_options,
)
from ._read import is_missing, label_mixup, outcomes, probabilities, read_table, weights
from ._subgroups import note_unavailable, subgroup_columns, subgroup_notes


def _compute_kwds(args) -> dict:
    """--n-resamples and --n-jobs as calibration_report accepts them: its own
    keywords when it has them, else ``inference_kwds`` (bootstrap only)."""
    import inspect

    from ..report import calibration_report

    params = inspect.signature(calibration_report).parameters
    kwds: dict = {}
    inference: dict = {}
    for key in ("n_resamples", "n_jobs"):
        value = getattr(args, key, None)
        if value is None:
            continue
        if key in params:
            kwds[key] = value
        elif args.cov == "bootstrap":
            inference[key] = value
    if inference:
        kwds["inference_kwds"] = inference
    return kwds


def _options(args) -> dict:
    """The keywords of ``calibration_report`` that the command line sets,
    besides the columns, ``pos_label``, ``name`` and the subgroups (every
    engine's report takes them alike)."""
    return {
        "thresholds": args.thresholds,
        "cov_type": args.cov,
        "confidence_level": args.confidence_level,
        "n_bins": args.n_bins,
        "random_state": getattr(args, "random_state", None),
        "prevalence": args.prevalence,
        **_compute_kwds(args),
    }


def _make_reports(jobs, args, run: Task | None = None, subgroups=None) -> dict:
    """``jobs``: list of ``(name, y, p, w)`` or ``(name, y, p, w, rows_key,
    rows)`` (``rows_key``: which rows of the input the audit scores, see
    :func:`_rows_key`; ``rows``: those rows, a mask or None for all).
    ``run``: the progress display's task of the command (one step per job),
    else a task of its own; ``subgroups``: the ``--subgroup-col`` columns
    (:func:`._subgroups.subgroup_columns`).  Returns {name: CalibrationReport}."""
    from .._core.progress import task
    from ..exceptions import HardForecastWarning
    from ._subgroups import subgroup_kwds

    if run is None:
        with task("models" if args_group(args) is None else "groups", len(jobs)) as own:
            return _make_reports(jobs, args, own, subgroups)
    from ..report import calibration_report
    from ..report._compute import SingleClassError

    extra = _options(args)
    reports = {}
    checked: list = []  # the arrays already validated (the jobs share y and w)
    skipped = []
    for name, y, p, w, *key in jobs:
        run.step(str(name))
        by = subgroup_kwds(subgroups, key[1] if len(key) > 1 else None)
        try:
            with warnings.catch_warnings():
                # given by _warn_mixups with the column's name
                warnings.simplefilter("ignore", HardForecastWarning)
                with _validated_once(y, p, w, checked):
                    reports[name] = calibration_report(
                        y, p, sample_weight=w, name=name, **by, **extra
                    )
        except SingleClassError as exc:
            if args_group(args) is None or len(jobs) == 1:
                where = f"{name}: " if len(jobs) > 1 else ""
                raise CLIError(f"{where}{_in_columns(str(exc), args)}") from None
            skipped.append(str(name))  # one group without events (or non-events)
            continue
        except (ValueError, TypeError) as exc:
            where = f"{name}: " if len(jobs) > 1 else ""
            raise CLIError(f"{where}{_in_columns(str(exc), args)}") from None
        if key:
            reports[name]._set_rows_key(key[0])
    if skipped:
        if not reports:
            raise CLIError(
                f"every group of column {args.group_col!r} (--group-col) holds a single "
                "class of the outcome: a calibration report needs both events and "
                "non-events."
            )
        warnings.warn(
            f"{len(skipped)} audit(s) of column {args.group_col!r} (--group-col) left out: "
            f"their rows hold a single class of the outcome ({', '.join(skipped[:10])}"
            f"{', ...' if len(skipped) > 10 else ''}).",
            UserWarning,
            stacklevel=2,
        )
    return reports


def _in_columns(msg: str, args) -> str:
    """An error of the Python API (whose messages start with the parameter at
    fault) in the command line's words: the column and its option."""
    subjects = {
        "y_true": f"column {args.y_col!r} (--y-col)",
        "sample_weight": f"column {args.weight_col!r} (--weight-col)",
    }
    if len(args.p_col) == 1:
        subjects["y_proba"] = f"column {args.p_col[0]!r} (--p-col)"
    for param, column in subjects.items():
        if msg.startswith(param + " ") or msg.startswith(param + ":"):
            return column + msg[len(param) :]
    return msg


@contextlib.contextmanager
def _validated_once(y, p, w, checked: list):
    """Check ``(y, p, w)`` of one job as ``calibration_report`` would, except
    the arrays of ``checked`` (validated for an earlier job: the jobs of one
    group share the outcomes and weights), and run the block with all three
    trusted (:func:`skbrier._core.validation.validated`): each column of the
    file is checked once."""
    from .._core.validation import binary_forecast, validated

    with validated(*checked):
        y, p, w = binary_forecast(y, p, sample_weight=w)
    checked.extend(a for a in (y, p, w) if a is not None and a is not p)
    with validated(y, p, w):
        yield


def args_group(args) -> str | None:
    return getattr(args, "group_col", None)


def _net_benefit_table(reports: dict) -> str:
    rows = [(name, r) for name, rep in reports.items() for r in (rep.net_benefit or [])]
    if not rows:
        return ""
    w = max(5, max(len(n) for n, _ in rows)) + 2
    lines = [
        "Net benefit (treat none = 0)",
        f"{'group':<{w}}{'threshold':>10}{'model':>10}{'treat all':>11}",
    ]
    for n, r in rows:
        lines.append(
            f"{n:<{w}}{r['threshold']:>10g}{r['model']:>10.4f}{r['treat_all']:>11.4f}"
        )
    return "\n".join(lines)


def _multi_text(reports: dict) -> str:
    """Table with one row per report, net benefit rows and the notes."""
    from ..report import reports_table
    from ..report._text import comparison_text

    parts = [reports_table(reports)]
    nb = _net_benefit_table(reports)
    if nb:
        parts.append(nb)
    comparison = comparison_text(reports)
    if comparison:
        parts.append(comparison)
    for name, rep in reports.items():
        if rep.subgroups is not None:
            parts.append("\n".join([f"{name}:", *rep.subgroups.text()[1:]]))
    common = set.intersection(*(set(rep.notes) for rep in reports.values()))
    lines = [f"Note: {n}" for n in sorted(common)]
    for name, rep in reports.items():
        lines += [f"Note ({name}): {n}" for n in rep.notes if n not in common]
    if lines:
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _html(reports: dict, provenance: dict | None) -> str:
    """The HTML page with the provenance of the input."""
    from ..report import reports_to_html

    return reports_to_html(reports, provenance=provenance)


def _render(
    reports: dict, args, title: str | None = None, provenance=None, whole=None
) -> str:
    """Write the HTML page (--html; --tripod: see :mod:`._tripod`) and return
    the text for standard output."""
    if args.html is not None and not _tripod.write_tripod(reports, args, provenance, whole):
        _write(args.html, _html(reports, provenance), "--html", args.force)
    if args.json:
        # one report: its dict; several: {"reports": [...], "comparison": {...}}
        from ..report._json import reports_to_dict

        if len(reports) == 1:
            payload = next(iter(reports.values())).to_dict()
        else:
            payload = reports_to_dict(reports)
        return json.dumps(payload, indent=2, allow_nan=False)
    parts = [title, ""] if title else []
    if len(reports) == 1:
        parts.append(next(iter(reports.values())).summary())
    else:
        parts.append(_multi_text(reports))
    return "\n".join(parts)


def _print(text: str, args) -> None:
    print(text)
    if args.html is not None:
        print(f"HTML report written to {args.html}", file=sys.stderr)


def _emit(reports: dict, args, title: str | None = None, provenance=None) -> None:
    _print(_render(reports, args, title, provenance), args)


def _progress_display(args):
    """The run's progress display: on a terminal, or everywhere with --progress."""
    import contextlib

    from .._core.progress import force_progress

    return (
        force_progress() if getattr(args, "progress", False) else contextlib.nullcontext()
    )


def _load(args):
    """Read the needed columns; returns the table and the checked arrays."""
    p_cols = args.p_col
    roles = [args.y_col, *p_cols]
    numeric = list(p_cols)
    if args.weight_col is not None:
        roles.append(args.weight_col)
        numeric.append(args.weight_col)
    if args.group_col is not None:
        roles.append(args.group_col)
    roles += getattr(args, "subgroup_col", None) or []
    table = read_table(
        args.file,
        roles,
        numeric=numeric,
        sep=args.sep,
        decimal=args.decimal,
        encoding=None if args.encoding == "auto" else args.encoding,
        comment=args.comment,
    )
    if "note" in table.info and not args.quiet:
        message(f"skbrier: note: {table.info['note']}")
    path = table.name
    if args.na == "error":
        _refuse_missing(table, roles)
    cols = table.columns
    y = outcomes(cols[args.y_col], args.y_col, path, args.pos_label, decimal=args.decimal)
    p = {
        c: probabilities(cols[c], c, path, decimal=args.decimal, percent=args.percent)
        for c in p_cols
    }
    w = None
    if args.weight_col is not None:
        w = weights(cols[args.weight_col], args.weight_col, path, decimal=args.decimal)
    # the columns read are not kept beside the arrays made of them
    kept = {args.group_col, None, *(getattr(args, "subgroup_col", None) or [])}
    for c in {args.y_col, *p_cols, args.weight_col} - kept:
        del cols[c]
    return table, y, p, w


def _refuse_missing(table, roles) -> None:
    """--na error: name the file, the column and the first row with a gap."""
    first, where = -1, None
    for col in dict.fromkeys(roles):
        miss = np.flatnonzero(is_missing(table.columns[col]))
        if miss.size and (where is None or miss[0] < first):
            first, where = int(miss[0]), col
    if where is not None:
        raise CLIError(
            f"{table.name}: column '{where}' has a missing value in row {first + 2} "
            "(--na error; the default --na drop leaves such rows out)."
        )


def _take(a: np.ndarray | None, keep: np.ndarray, all_kept: bool) -> np.ndarray | None:
    """``a[keep]``, without a copy when every row is kept."""
    if a is None or all_kept:
        return a
    return a[keep]


def _rows_key(keep: np.ndarray) -> str:
    """A digest of the rows a report scores (reports are compared pair by pair
    only when they score the same rows of the file)."""
    import hashlib

    return hashlib.blake2b(np.packbits(keep).tobytes(), digest_size=16).hexdigest()


def _groups(table, args, n: int) -> list[tuple[str | None, np.ndarray | None]]:
    """``[(group, rows)]``: one entry with ``rows=None`` (all rows) without
    --group-col."""
    if args.group_col is None:
        return [(None, None)]
    g = table.columns[args.group_col]
    counts = np.bincount(g.codes[g.codes >= 0], minlength=len(g.levels))
    n_missing = int((g.codes < 0).sum())
    if n_missing:
        warnings.warn(
            f"{n_missing} rows with a missing value in column '{args.group_col}' "
            "are left out.",
            UserWarning,
            stacklevel=3,
        )
    return [(lv, g.codes == k) for k, lv in enumerate(g.levels) if counts[k]]


def _jobs(table, y, p, w, args) -> tuple[list, dict, dict, dict]:
    """``[(name, y, p, w, rows_key)]``: one audit per --p-col (and per group).

    By default (``--na drop``) every model of a group is scored on the same
    rows: those where the outcome, the weight and *every* forecast are
    present (so the models can be compared pair by pair); ``--na per-model``
    scores each model on its own complete rows.  Returns the jobs and, per
    audit, the rows used, the rows dropped and why they were dropped.
    """
    per_model = args.na == "per-model"
    base = ~np.isnan(y)
    if w is not None:
        base &= ~np.isnan(w)
    present = {c: ~np.isnan(p[c]) for c in args.p_col}
    every = base.copy()
    for c in args.p_col:
        every &= present[c]
    jobs, used, dropped, causes = [], {}, {}, {}
    for grp, rows in _groups(table, args, len(y)):
        in_group = np.ones(len(y), dtype=bool) if rows is None else rows
        n_group = int(in_group.sum())
        n_base = int(np.count_nonzero(base & in_group))
        common = every & in_group
        n_common = int(common.sum())
        common_key = _rows_key(common)
        y_common = _take(y, common, n_common == len(y))
        w_common = _take(w, common, n_common == len(y))
        common_rows = None if n_common == len(y) else common
        for c in args.p_col:
            if grp is None:
                name = c
            else:
                name = grp if len(args.p_col) == 1 else f"{grp} / {c}"
            if per_model:
                keep = base & present[c] & in_group
                n_keep = int(keep.sum())
                all_kept = n_keep == len(y)
                job = (
                    name,
                    _take(y, keep, all_kept),
                    _take(p[c], keep, all_kept),
                    _take(w, keep, all_kept),
                    _rows_key(keep),
                    None if all_kept else keep,
                )
            else:
                n_keep = n_common
                job = (
                    name,
                    y_common,
                    _take(p[c], common, n_keep == len(y)),
                    w_common,
                    common_key,
                    common_rows,
                )
            jobs.append(job)
            used[name] = n_keep
            dropped[name] = n_group - n_keep
            own = n_base - int(np.count_nonzero(base & present[c] & in_group))
            causes[name] = {
                "missing outcome or weight": n_group - n_base,
                "missing forecast": own,
                "missing forecast of another model": n_group
                - n_keep
                - (n_group - n_base)
                - own,
            }
    return jobs, used, dropped, causes


def _rows_note(name: str, used: dict, dropped: dict, causes: dict) -> str | None:
    """The note of a report that does not use every row (None when it does)."""
    if not dropped[name]:
        return None
    note = (
        f"Rows used: {used[name]} of {used[name] + dropped[name]}; {dropped[name]} "
        "dropped for a missing outcome, forecast or weight"
    )
    other = causes[name]["missing forecast of another model"]
    if other:
        note += (
            f" ({other} of them only because another model's forecast is missing: "
            "every model is scored on the same rows; --na per-model scores each on "
            "its own rows)"
        )
    return note + "."


def _warn_mixups(jobs, args) -> None:
    from .._core.diagnose import HardForecastWarning, hard_forecast_message, is_hard

    for name, y, p, w, *_ in jobs:
        who = f"'{name}'" if len(jobs) > 1 else f"column '{args.p_col[0]}'"
        if is_hard(p):  # the API's warning, naming the column (see _make_reports)
            warnings.warn(
                hard_forecast_message(who, "export the predicted probabilities"),
                HardForecastWarning,
                stacklevel=2,
            )
        msg = label_mixup(y, p, w)
        if msg:
            warnings.warn(f"{who}: {msg}", UserWarning, stacklevel=2)
    for i, (a, _, pa, _, rows_a, *_) in enumerate(jobs):
        for b, _, pb, _, rows_b, *_ in jobs[i + 1 :]:
            # complements up to the rounding of an export (not two 0.5 columns)
            if (
                rows_a == rows_b
                and pa.size
                and np.allclose(pa + pb, 1.0, rtol=0, atol=1e-3)
                and not np.allclose(pa, pb, rtol=0, atol=1e-3)
            ):
                warnings.warn(
                    f"'{a}' and '{b}' sum to one in every row: they look like the two "
                    "columns of predict_proba (the probabilities of the two classes); "
                    "give only the column of the event's probability as --p-col.",
                    UserWarning,
                    stacklevel=2,
                )


def _provenance(table, args, used: dict, dropped: dict, causes: dict) -> dict:
    import datetime
    import shlex

    options = {
        "sep": table.info.get("sep"),
        "decimal": args.decimal,
        "encoding": table.info.get("encoding"),
        "comment": args.comment,
        "na": args.na,
        "percent": args.percent,
        "pos_label": args.pos_label,
        "cov": args.cov,
        "confidence_level": args.confidence_level,
        "n_bins": args.n_bins,
        "thresholds": args.thresholds,
        "prevalence": args.prevalence,
        "random_state": args.random_state,
        "n_resamples": args.n_resamples,
        "n_jobs": args.n_jobs,
        "format": table.info.get("format"),
        "compression": table.info.get("compression"),
        "reader": table.info.get("engine"),
    }
    argv = getattr(args, "argv", None)
    command = None if argv is None else shlex.join(["skbrier", *argv])
    return {
        "input": args.file,
        "sha256": table.sha256,
        "rows_read": table.n_rows,
        "rows_used": used,
        "rows_dropped": dropped,
        "rows_dropped_why": {
            name: {k: v for k, v in why.items() if v} for name, why in causes.items()
        },
        "rows_compared": (
            "each model on its own complete rows (--na per-model)"
            if args.na == "per-model"
            else "every model on the same rows: a row missing any model's forecast "
            "is left out for all"
        ),
        "columns": {
            "outcome": args.y_col,
            "forecast": list(args.p_col),
            "weight": args.weight_col,
            "group": args.group_col,
            **({"subgroups": args.subgroup_col} if args.subgroup_col else {}),
        },
        "options": {k: v for k, v in options.items() if v is not None},
        "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def _dask_reports(args: argparse.Namespace, run: Task) -> dict:
    """--engine dask: dask.dataframe columns, one report per --p-col."""
    from ..report import calibration_report
    from ._dask_input import dask_columns

    jobs, kw = dask_columns(args)
    options = _options(args)
    run.set_total(1 + len(jobs) + (args.html is not None))
    reports = {}
    for name, y, p, w in jobs:
        run.step(str(name))
        try:
            reports[name] = calibration_report(
                y, p, sample_weight=w, pos_label=kw["pos_label"], name=name, **options
            )
        except (ValueError, TypeError) as exc:
            raise CLIError(f"{args.file}: {name}: {exc}") from None
    return reports


def _report_engine(args: argparse.Namespace, engine: str) -> int:
    """--engine dask, polars, duckdb or spark: the engine reads the file and
    computes one report per --p-col."""
    from .._core.progress import task
    from ._engines import engine_reports

    with _progress_display(args), task(f"skbrier report ({engine})") as run:
        run.step(f"reading {args.file}")
        if engine == "dask":
            reports = _dask_reports(args, run)
        else:
            try:
                reports = engine_reports(args, engine, _options(args))
            except (ValueError, TypeError) as exc:
                raise CLIError(f"{args.file}: {exc}") from None
        note_unavailable(reports, args, engine)
        if args.html is not None:
            run.step("writing the HTML page")
        text = _render(reports, args)
    _print(text, args)
    return 0


def _check_roles(args: argparse.Namespace, engine: str) -> None:
    """Each column plays one role: a repeated --p-col, or one column named as
    two of --y-col, --p-col, --weight-col and --group-col, is a CLIError (the
    outcomes given as --p-col were scored as a perfect forecast).  --group-col
    counts where ``engine`` takes it (the others refuse it by name)."""
    p_cols = args.p_col
    if len(set(p_cols)) != len(p_cols):
        dup = sorted({c for c in p_cols if p_cols.count(c) > 1})
        raise CLIError(f"--p-col {dup[0]!r} is given more than once.")
    options = [("--y-col", args.y_col), *(("--p-col", c) for c in p_cols)]
    options.append(("--weight-col", args.weight_col))
    if engine in ("memory", "spark"):
        options.append(("--group-col", args.group_col))
    first: dict[str, str] = {}
    for option, col in options:
        if col is None:
            continue
        if col in first:
            raise CLIError(
                f"column {col!r} is given as {first[col]} and as {option}: --y-col "
                "names the outcomes, --p-col the predicted probabilities, "
                "--weight-col the weights and --group-col the groups."
            )
        first[col] = option


def _report(args: argparse.Namespace) -> int:
    args.thresholds = _thresholds(args.threshold)
    _check_output(args.html, args.force, "--html")
    _tripod.check_outputs(args)
    from ._dask_input import choose_engine

    engine, why = choose_engine(args)
    _check_roles(args, engine)
    if why is not None and not getattr(args, "quiet", False):
        print(f"skbrier: {why} (--engine memory to read it in memory).", file=sys.stderr)
    if engine != "memory":
        return _report_engine(args, engine)
    from .._core.progress import task

    with _progress_display(args), task("skbrier report") as run:
        run.step(f"reading {args.file}")
        table, y, p, w = _load(args)
        jobs, used, dropped, causes = _jobs(table, y, p, w, args)
        whole = _tripod.whole_sample_jobs(table, y, p, w, args, _jobs)
        subgroups = subgroup_columns(table, args)
        table.columns.clear()  # the arrays of the jobs are all that is needed now
        del y, p, w
        _warn_mixups(jobs, args)
        n_whole = 0 if whole is None else len(whole[0])
        run.set_total(1 + len(jobs) + n_whole + (args.html is not None))
        reports = _make_reports(jobs, args, run, subgroups)
        for name, rep in reports.items():
            note = _rows_note(name, used, dropped, causes)
            rep.notes.extend([note] if note else [])
            rep.notes.extend(subgroup_notes(subgroups))
        if args.html is not None:
            run.step("writing the HTML page")
        provenance = _provenance(table, args, used, dropped, causes)
        whole = _tripod.whole_sample_reports(whole, args, run, _make_reports)
        text = _render(reports, args, provenance=provenance, whole=whole)
    _print(text, args)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand to ``skbrier``'s parser."""
    rep = sub.add_parser(
        "report",
        help="audit the calibration of the forecasts in a table (CSV or Parquet)",
        description=(
            "Audit binary probability forecasts stored in a table: Brier score, "
            "Brier Index and skill with intervals, calibration in the large, "
            "calibration intercept and slope, Spiegelhalter's test, ECE, C, the "
            "decomposition and net benefit.  FILE is a CSV/text file (separator, "
            "encoding and compression .gz .bz2 .xz .zip detected) or a Parquet "
            "file; '-' reads standard input.  Rows with a missing outcome, "
            "forecast or weight (empty, NA, N/A, #N/A, NaN, nan, null, None, .) "
            "are left out and counted in a note; with several --p-col every model "
            "is scored on the same rows (see --na)."
        ),
    )
    rep.add_argument(
        "file",
        metavar="FILE",
        help="CSV/text (possibly compressed) or Parquet file; '-': stdin",
    )
    cols = rep.add_argument_group("columns")
    cols.add_argument(
        "--y-col",
        required=True,
        metavar="COL",
        help="column of outcomes (0/1, TRUE/FALSE, or labels with --pos-label)",
    )
    cols.add_argument(
        "--p-col",
        required=True,
        action="append",
        metavar="COL",
        help="column of predicted probabilities of the event; repeat to "
        "audit several forecasters",
    )
    cols.add_argument(
        "--group-col",
        metavar="COL",
        help="one audit per value of this column (a table with one row per group)",
    )
    cols.add_argument(
        "--subgroup-col",
        action="append",
        metavar="COL",
        help="add the subgroup section to each audit: per value of the first "
        "--subgroup-col n, events, O/E, calibration in the large, slope, ICI and "
        "Brier with intervals, Holm-adjusted tests, the worst group, the "
        "heterogeneity of O/E and the cumulative calibration tests; repeat the "
        "option for the multicalibration error over all of them (a missing "
        "value is a group of its own)",
    )
    cols.add_argument(
        "--weight-col",
        metavar="COL",
        help="column of frequency weights (a weight of 2 counts the row twice)",
    )
    cols.add_argument(
        "--pos-label",
        metavar="LABEL",
        help="the outcome that counts as the event (default: 1, or the "
        "larger numeric label)",
    )
    read = rep.add_argument_group("reading the file")
    add_reader_options(
        read,
        "text encoding (default auto: UTF-8 with or without BOM, UTF-16 with BOM, "
        "else cp1252 with a note); any name Python knows, e.g. latin-1",
        comment=True,
    )
    read.add_argument(
        "--na",
        choices=["drop", "per-model", "error"],
        default="drop",
        help="rows with a missing outcome, forecast or weight: drop them and say "
        "how many (default; a row missing any model's forecast is dropped for "
        "every model, so all models are scored on the same rows and compared pair "
        "by pair), drop them per model (per-model: each model on its own complete "
        "rows, no paired comparison when these differ), or stop with an error",
    )
    read.add_argument(
        "--percent",
        action="store_true",
        help="the forecasts are percentages (0-100): divide every --p-col by 100",
    )
    rep.add_argument(
        "--random-state",
        type=_seed,
        default=None,
        metavar="SEED",
        help="seed of the bootstrap (--cov bootstrap) and of the band of the "
        "reliability diagram (a non-negative integer; default: random); the "
        "same seed gives the same intervals",
    )
    rep.add_argument(
        "--engine",
        choices=["auto", "memory", "dask", "polars", "duckdb", "spark"],
        default="auto",
        help="dask: read a Parquet dataset directory or a CSV glob through "
        "dask.dataframe (only the needed columns) and compute the report in one "
        "pass, the mergeable sections exactly, lowess/HAC/bootstrap on a uniform "
        "subsample of at most 200,000 rows; polars: polars.scan_parquet/scan_csv "
        "(lazy, only the needed columns), every section exactly; duckdb: DuckDB's "
        "read_parquet/read_csv_auto, only the needed columns, every section "
        "exactly; spark: spark.read.parquet/csv in a local session, one Spark job "
        "(sections as with dask); memory: read the file in memory; auto (default): "
        "dask for a directory, a glob or a file larger than a quarter of the "
        "available memory (when dask is installed), else memory.  --group-col: "
        "memory and spark; the --subgroup-col section: memory, polars and duckdb",
    )
    rep.add_argument(
        "--progress",
        action="store_true",
        help="show the progress line on stderr even when it is not a terminal "
        "(e.g. a log file; on a terminal it is shown anyway, --quiet hides it)",
    )
    rep.add_argument(
        "--tripod",
        action="store_true",
        help="with --html: write the TRIPOD+AI performance report there and "
        "checklist.json and checklist.md beside it (the items each section answers, "
        "those the authors must still write); --group-col groups are its subgroups",
    )
    _add_output_options(rep)
    rep.set_defaults(func=_report)
