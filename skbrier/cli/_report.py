"""``skbrier report``: audit the forecasts in a file."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import warnings

from .._core.progress import Task
from . import _tripod
from ._common import (
    CLIError,
    _add_output_options,
    _check_output,
    _thresholds,
    _write,
    add_reader_options,
    groups_left_out,
    shared_option,
)
from ._report_input import _check_roles, _jobs, _load, _provenance, _rows_note, _warn_mixups
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
    coded: dict = {}  # the subgroup columns already coded (the jobs share them)
    skipped = []
    grouped = args_group(args) is not None and len(jobs) > 1
    for name, y, p, w, *key in jobs:
        run.step(str(name))
        by = subgroup_kwds(subgroups, key[1] if len(key) > 1 else None)
        if grouped and w is not None and len(w) and not w.any():
            skipped.append(str(name))  # a group of zero weight holds no outcome
            continue
        try:
            with warnings.catch_warnings():
                # given by _warn_mixups with the column's name
                warnings.simplefilter("ignore", HardForecastWarning)
                with _validated_once(y, p, w, checked), _groups_once(by, coded):
                    reports[name] = calibration_report(
                        y, p, sample_weight=w, name=name, **by, **extra
                    )
        except SingleClassError as exc:
            if not grouped:
                where = f"{name}: " if len(jobs) > 1 else ""
                raise CLIError(f"{where}{_in_columns(str(exc), args)}") from None
            skipped.append(str(name))  # one group without events (or non-events)
            continue
        except (ValueError, TypeError) as exc:
            where = f"{name}: " if len(jobs) > 1 else ""
            raise CLIError(f"{where}{_in_columns(str(exc), args)}") from None
        if key:
            reports[name]._set_rows_key(key[0])
    groups_left_out(skipped, len(reports), args_group(args), stacklevel=2)
    return reports


def _in_columns(msg: str, args) -> str:
    """An error of the Python API (whose messages start with the parameter at
    fault) in the command line's words: the column and its option."""
    subjects = {}  # skbrier demo has no columns
    for param, option in (("y_true", "y_col"), ("sample_weight", "weight_col")):
        if getattr(args, option, None) is not None:
            subjects[param] = (
                f"column {getattr(args, option)!r} (--{option.replace('_', '-')})"
            )
    if len(getattr(args, "p_col", None) or []) == 1:
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


@contextlib.contextmanager
def _groups_once(by: dict, coded: dict):
    """Code each subgroup column of one job (``by``: its ``groups=`` and
    ``segments=``) unless an earlier job coded that very array (``coded``:
    ``{id: (array, classes, codes)}``, holding the arrays), and run the block
    with the codes trusted: each ``--subgroup-col`` column is checked once."""
    from .._core.arrays import validated
    from .._core.labels import check_groups

    columns = by.get("segments", {})  # the groups are the first of them
    for col, a in columns.items():
        if id(a) not in coded:
            coded[id(a)] = (a, *check_groups(a, a.shape[0], name=f"column {col!r}"))
    with validated(groups=[coded[id(a)] for a in columns.values()]):
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
    from ._engines import GROUP_COLUMN, engine_reports

    with _progress_display(args), task(f"skbrier report ({engine})") as run:
        run.step(f"reading {args.file}")
        if engine == "dask":
            reports = _dask_reports(args, run)
        else:
            try:
                reports = engine_reports(args, engine, _options(args))
            except (ValueError, TypeError) as exc:
                msg = str(exc).replace(GROUP_COLUMN, str(args.group_col))
                raise CLIError(f"{args.file}: {_in_columns(msg, args)}") from None
        note_unavailable(reports, args, engine)
        if args.html is not None:
            run.step("writing the HTML page")
        text = _render(reports, args)
    _print(text, args)
    return 0


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


HELP = "audit the calibration of the forecasts in a table (CSV or Parquet)"
DESCRIPTION = (
    "Audit binary probability forecasts stored in a table: Brier score, "
    "Brier Index and skill with intervals, calibration in the large, "
    "calibration intercept and slope, Spiegelhalter's test, ECE, C, the "
    "decomposition and net benefit.  FILE is a CSV/text file (separator, "
    "encoding and compression .gz .bz2 .xz .zip detected) or a Parquet "
    "file; '-' reads standard input.  Rows with a missing outcome, "
    "forecast or weight (empty, NA, N/A, #N/A, NaN, nan, null, None, .) "
    "are left out and counted in a note; with several --p-col every model "
    "is scored on the same rows (see --na)."
)


def add_arguments(rep: argparse.ArgumentParser) -> None:
    """Add the arguments of ``skbrier report`` to its parser."""
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
        **shared_option(
            "--random-state",
            help="seed of the bootstrap (--cov bootstrap) and of the band of the "
            "reliability diagram (a non-negative integer; default: random); the "
            "same seed gives the same intervals",
        ),
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
