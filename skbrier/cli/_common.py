"""Shared pieces of the command line: the error type, the parser class,
option types and safe output files."""

from __future__ import annotations

import argparse
import os
import warnings
from pathlib import Path
from typing import Any

from .._core.optional import import_optional
from .._core.params import DEFAULT_CONFIDENCE_LEVEL, DEFAULT_N_BINS, MAX_BINS
from .._core.progress import message


class CLIError(Exception):
    """An error in the user's input: printed as one line, exit code 2."""


def import_for_cli(
    module_name: str, *, needed_for: str, extra: str | None = None, hint: str = ""
) -> Any:
    """:func:`~skbrier._core.optional.import_optional` for the command line:
    a missing package is the same message as a one-line CLIError (``hint``:
    a sentence added to it)."""
    try:
        return import_optional(module_name, needed_for=needed_for, extra=extra)
    except ImportError as exc:
        raise CLIError(f"{exc} {hint}".rstrip()) from None


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
            out.append(t)
    if not out:
        return None
    from .._core.params import check_thresholds

    try:  # the API's check: (0, 1), finite, a hint for percentages
        return check_thresholds(out, "--threshold").tolist()
    except ValueError as exc:
        raise CLIError(str(exc)) from None


def _integer(text: str) -> int:
    """The integer ``text`` of an option, else argparse's error."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def _seed(text: str) -> int:
    """argparse type of --random-state: a non-negative integer."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def say_note(text: str, args: argparse.Namespace) -> None:
    """Say ``skbrier: note: text`` on stderr, unless --quiet."""
    if not getattr(args, "quiet", False):
        message(f"skbrier: note: {text}")


def warn_rows_without_group(n_missing: int, column: str, stacklevel: int) -> None:
    """The warning of the ``n_missing`` rows left out for a missing value in
    the --group-col ``column`` (``stacklevel`` as seen by the caller)."""
    if n_missing:
        warnings.warn(
            f"{n_missing} rows with a missing value in column '{column}' are left out.",
            UserWarning,
            stacklevel=stacklevel + 1,
        )


def groups_left_out(
    skipped: list[str], kept: int, column: str | None, stacklevel: int
) -> None:
    """The --group-col groups whose rows of positive weight hold a single class
    of the outcome (or none): a CLIError when no group is ``kept``, else one
    warning naming them (``stacklevel`` as seen by the caller)."""
    if not skipped:
        return
    if not kept:
        raise CLIError(
            f"every group of column {column!r} (--group-col) holds a single "
            "class of the outcome (among its rows of positive weight): a calibration "
            "report needs both events and non-events."
        )
    warnings.warn(
        f"{len(skipped)} audit(s) of column {column!r} (--group-col) left out: "
        "their rows (of positive weight) hold a single class of the outcome, or "
        f"none ({', '.join(skipped[:10])}"
        f"{', ...' if len(skipped) > 10 else ''}).",
        UserWarning,
        stacklevel=stacklevel + 1,
    )


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
    (
        "--sep",
        {
            "type": _sep,
            "metavar": "CHAR",
            "help": "field separator (default: detected among , ; tab |); 'tab' for a tab",
        },
    ),
    (
        "--decimal",
        {
            "choices": [".", ","],
            "default": ".",
            "metavar": "MARK",
            "help": "decimal mark of the numbers (',' for European exports; default '.')",
        },
    ),
    ("--encoding", {"default": "auto", "metavar": "NAME"}),
    (
        "--comment",
        {
            "type": _comment,
            "metavar": "CHAR",
            "help": "skip lines that start with this character, e.g. '#'",
        },
    ),
)


def add_reader_options(group: Any, encoding_help: str, *, comment: bool = False) -> None:
    """Add ``--sep``, ``--decimal``, ``--encoding`` (with ``encoding_help``)
    and, with ``comment``, ``--comment`` to an argument group of a command
    that reads a text table."""
    for option, kwds in _READER_OPTIONS:
        if option == "--comment" and not comment:
            continue
        extra = {"help": encoding_help} if option == "--encoding" else {}
        group.add_argument(option, **kwds, **extra)


#: the options that several subcommands declare: the keywords of
#: ``add_argument`` they share (each command adds its help and may change one)
_SHARED_OPTIONS: dict[str, dict[str, Any]] = {
    "--confidence-level": {
        "type": float,
        "default": DEFAULT_CONFIDENCE_LEVEL,
        "metavar": "LEVEL",
    },
    "--random-state": {"type": _seed, "metavar": "SEED"},
    "--n-jobs": {"type": int, "metavar": "J"},
    "--html": {"metavar": "OUT.html"},
    "--force": {"action": "store_true", "help": "overwrite an existing output file"},
    "--quiet": {"action": "store_true"},
}


def shared_option(flag: str, **changes: Any) -> dict[str, Any]:
    """The keywords of ``add_argument`` of the shared option ``flag``
    (:data:`_SHARED_OPTIONS`) with ``changes`` (its help, another default)."""
    return {**_SHARED_OPTIONS[flag], **changes}


#: ``{argument group (None: the command's own list): {flag: keywords of
#: add_argument}}``: how a subcommand declares its options
Options = dict[str | None, dict[str, dict[str, Any]]]


def add_options(parser: argparse.ArgumentParser, options: Options) -> None:
    """Add a table of options (:data:`Options`) to a subcommand's parser, the
    groups in the order of the table."""
    for group, flags in options.items():
        target = parser if group is None else parser.add_argument_group(group)
        for flag, kwds in flags.items():
            target.add_argument(flag, **kwds)


#: the options of the commands that write a calibration report
#: (``skbrier report``, ``skbrier demo``)
_OUTPUT_OPTIONS: dict[str, dict[str, Any]] = {
    "--threshold": {
        "action": "append",
        "metavar": "T",
        "help": "decision threshold(s) in (0, 1) for net benefit; repeat the "
        "option or give a comma-separated list",
    },
    "--cov": {
        "choices": ["iid", "hac", "bootstrap"],
        "default": "iid",
        "help": "how confidence intervals are computed (hac: serially "
        "correlated rows in time order; default iid)",
    },
    "--prevalence": {
        "type": float,
        "metavar": "PI",
        "help": "population event rate for net benefit when the file comes "
        "from a case-control sample",
    },
    "--confidence-level": shared_option(
        "--confidence-level",
        help=f"coverage of the intervals (default {DEFAULT_CONFIDENCE_LEVEL})",
    ),
    "--n-bins": {
        "type": int,
        "default": DEFAULT_N_BINS,
        "metavar": "K",
        "help": f"bins of the expected calibration error (default {DEFAULT_N_BINS}, "
        f"at most {MAX_BINS})",
    },
    "--html": shared_option(
        "--html", help="also write a self-contained HTML report with figures"
    ),
    "--json": {
        "action": "store_true",
        "help": "print JSON instead of the table: one audit's dict; several (--p-col "
        'repeated, --group-col) as {"reports": [...], "comparison": {...}}, '
        "the paired comparison with its reason when pairs are not compared",
    },
    "--force": shared_option("--force"),
    "--n-resamples": {
        "type": int,
        "metavar": "B",
        "help": "bootstrap resamples (--cov bootstrap; default: chosen from the data size)",
    },
    "--n-jobs": shared_option(
        "--n-jobs",
        help="parallel jobs of the bootstrap (-1: all cores; results do not depend on it)",
    ),
    "--quiet": shared_option(
        "--quiet",
        help="no progress bar and no notes on stderr (warnings and errors remain)",
    ),
}


def reader_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of :func:`._table.read_table` that the reader options
    (:data:`_READER_OPTIONS`) of a command set: --encoding auto is None (the
    reader detects it) and a command without --comment has none."""
    return {
        "sep": args.sep,
        "decimal": args.decimal,
        "encoding": None if args.encoding == "auto" else args.encoding,
        "comment": getattr(args, "comment", None),
    }


def _add_output_options(sp: argparse.ArgumentParser) -> None:
    """Add the options of a command that writes a calibration report."""
    add_options(sp, {None: _OUTPUT_OPTIONS})
