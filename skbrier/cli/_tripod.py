"""``skbrier report --tripod``: the TRIPOD+AI page and its checklist files.

The page goes to ``--html``; ``checklist.json`` and ``checklist.md`` beside it
(:func:`skbrier.report._tripod.checklist_paths`).  With ``--group-col`` the
report of the whole sample is the main one and the groups are its subgroups.
"""

from __future__ import annotations

import argparse
import sys

from ._common import CLIError, _check_output, _write

__all__ = ["check_outputs", "whole_sample_jobs", "write_tripod"]


def _active(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "tripod", False))


def check_outputs(args: argparse.Namespace) -> None:
    """Fail fast (before any computation): --tripod needs --html, and the
    checklist files must be writable."""
    if not _active(args):
        return
    from ..report._tripod import checklist_paths

    if args.html is None:
        raise CLIError(
            "--tripod writes the TRIPOD+AI page to --html: give --html OUT.html."
        )
    for path in checklist_paths(args.html):
        _check_output(str(path), args.force, "--tripod")


def _whole(args: argparse.Namespace) -> argparse.Namespace:
    return argparse.Namespace(**{**vars(args), "group_col": None})


def whole_sample_jobs(table, y, p, w, args, make_jobs) -> tuple[list, dict] | None:
    """--tripod with --group-col: the jobs of the whole sample and their rows
    left out, by cause (None otherwise); ``make_jobs``: the report command's
    ``_jobs`` (given by the caller: this module does not import it back)."""
    if not _active(args) or args.group_col is None:
        return None
    jobs, _, _, causes = make_jobs(table, y, p, w, _whole(args))
    return jobs, {n: {k: v for k, v in why.items() if v} for n, why in causes.items()}


def whole_sample_reports(
    whole: tuple[list, dict] | None, args, run, make_reports
) -> tuple | None:
    """The reports of :func:`whole_sample_jobs` and their rows left out
    (``make_reports``: the report command's ``_make_reports``)."""
    if whole is None:
        return None
    return make_reports(whole[0], _whole(args), run), whole[1]


def write_tripod(reports: dict, args, provenance, whole: tuple | None) -> bool:
    """Write the page and the checklists when --tripod is given (returns whether
    it was); ``whole``: :func:`whole_sample_reports` (None: ``reports`` are the
    models, their rows left out read from the provenance)."""
    if not _active(args) or args.html is None:
        return False
    from ..report._tripod import checklist_paths, tripod_report

    models, missing = whole or (reports, (provenance or {}).get("rows_dropped_why"))
    trip = tripod_report(
        models,
        subgroups=reports if whole else None,
        missing=missing,
        provenance=provenance,
    )
    texts = (trip.to_html(), trip.to_json(checklist_only=True), trip.to_markdown())
    paths = (args.html, *checklist_paths(args.html))
    for path, text in zip(paths, texts):
        _write(str(path), text, "--tripod", args.force)
    print(f"TRIPOD+AI checklist written to {paths[1]} and {paths[2]}", file=sys.stderr)
    return True
