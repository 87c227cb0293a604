"""Shared pieces of the command line: the error type, the parser class,
option types and safe output files."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from .._core.params import DEFAULT_CONFIDENCE_LEVEL, DEFAULT_N_BINS, MAX_BINS


class CLIError(Exception):
    """An error in the user's input: printed as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``skbrier: error: ...``) and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CLIError(f"{message} (see '{self.prog} --help')")


def _check_output(path: str | None, force: bool, option: str) -> None:
    """Fail fast (before any computation) on an output path that cannot work."""
    if path is None:
        return
    p = Path(path)
    if p.is_dir():
        raise CLIError(f"{option} {path}: is a directory.")
    if os.path.lexists(p) and not force:
        raise CLIError(f"{option} {path}: the file exists; use --force to overwrite it.")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise CLIError(f"{option} {path}: the directory {parent} does not exist.")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CLIError(f"{option} {path}: the directory {parent} is not writable.")


def _write(path: str, text: str, option: str, force: bool) -> None:
    """Write atomically: a temporary file in the target directory, renamed into
    place; without ``force`` a file that appeared meanwhile is not replaced."""
    from ..report._io import write_text_atomic

    try:
        write_text_atomic(path, text, overwrite=force)
    except FileExistsError:
        raise CLIError(
            f"{option} {path}: the file was created while the report was computed; "
            "use --force to overwrite it."
        ) from None
    except IsADirectoryError:
        raise CLIError(f"{option} {path}: is a directory.") from None
    except OSError as exc:
        raise CLIError(f"{option} {path}: cannot write ({exc.strerror or exc}).") from None


def _thresholds(values: list[str] | None) -> list[float] | None:
    if not values:
        return None
    out = []
    for chunk in values:
        for v in chunk.split(","):
            v = v.strip()
            if not v:
                continue
            try:
                t = float(v)
            except ValueError:
                raise CLIError(f"--threshold: {v!r} is not a number.") from None
            if not (0.0 < t < 1.0):
                raise CLIError(f"--threshold must lie strictly between 0 and 1, got {v}.")
            out.append(t)
    return out or None


def _seed(text: str) -> int:
    """argparse type of --random-state: a non-negative integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def _sep(text: str) -> str:
    """argparse type of --sep: one character, or 'tab'."""
    value = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}.get(
        text.lower(), text
    )
    if len(value) != 1 or value in '\r\n"':
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a separator (one character such as , ; | or 'tab')"
        )
    return value


def _comment(text: str) -> str:
    """argparse type of --comment: one character that is not a blank or a quote."""
    if len(text) != 1 or text.isspace() or text == '"':
        raise argparse.ArgumentTypeError(f"{text!r}: give one character such as '#'")
    return text


#: ``(option, keywords of add_argument)`` of the text-table reader's options
_READER_OPTIONS = (
    ("--sep", {"type": _sep, "metavar": "CHAR", "help": "field separator (default: "
     "detected among , ; tab |); 'tab' for a tab"}),
    ("--decimal", {"choices": [".", ","], "default": ".", "metavar": "MARK", "help":
     "decimal mark of the numbers (',' for European exports; default '.')"}),
    ("--encoding", {"default": "auto", "metavar": "NAME"}),
    ("--comment", {"type": _comment, "metavar": "CHAR", "help": "skip lines that "
     "start with this character, e.g. '#'"}),
)  # fmt: skip


def add_reader_options(group: Any, encoding_help: str, *, comment: bool = False) -> None:
    """Add ``--sep``, ``--decimal``, ``--encoding`` (with ``encoding_help``)
    and, with ``comment``, ``--comment`` to an argument group of a command
    that reads a text table."""
    for option, kwds in _READER_OPTIONS:
        if option == "--comment" and not comment:
            continue
        extra = {"help": encoding_help} if option == "--encoding" else {}
        group.add_argument(option, **kwds, **extra)


def _add_output_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument(
        "--threshold",
        action="append",
        metavar="T",
        help="decision threshold(s) in (0, 1) for net benefit; repeat the "
        "option or give a comma-separated list",
    )
    sp.add_argument(
        "--cov",
        choices=["iid", "hac", "bootstrap"],
        default="iid",
        help="how confidence intervals are computed (hac: serially "
        "correlated rows in time order; default iid)",
    )
    sp.add_argument(
        "--prevalence",
        type=float,
        metavar="PI",
        help="population event rate for net benefit when the file comes "
        "from a case-control sample",
    )
    sp.add_argument(
        "--confidence-level",
        type=float,
        default=DEFAULT_CONFIDENCE_LEVEL,
        metavar="LEVEL",
        help=f"coverage of the intervals (default {DEFAULT_CONFIDENCE_LEVEL})",
    )
    sp.add_argument(
        "--n-bins",
        type=int,
        default=DEFAULT_N_BINS,
        metavar="K",
        help=f"bins of the expected calibration error (default {DEFAULT_N_BINS}, "
        f"at most {MAX_BINS})",
    )
    sp.add_argument(
        "--html",
        metavar="OUT.html",
        help="also write a self-contained HTML report with figures",
    )
    sp.add_argument(
        "--json",
        action="store_true",
        help="print JSON instead of the table: one audit's dict; several (--p-col "
        'repeated, --group-col) as {"reports": [...], "comparison": {...}}, '
        "the paired comparison with its reason when pairs are not compared",
    )
    sp.add_argument(
        "--force", action="store_true", help="overwrite an existing output file"
    )
    sp.add_argument(
        "--n-resamples",
        type=int,
        metavar="B",
        help="bootstrap resamples (--cov bootstrap; default: chosen from the data size)",
    )
    sp.add_argument(
        "--n-jobs",
        type=int,
        metavar="J",
        help="parallel jobs of the bootstrap (-1: all cores; results do not depend on it)",
    )
    sp.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar and no notes on stderr (warnings and errors remain)",
    )
