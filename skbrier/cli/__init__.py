"""The ``skbrier`` command line.

``skbrier report FILE --y-col Y --p-col P`` audits the calibration of the
forecasts in a table (CSV or text in UTF-8, UTF-16 or cp1252, possibly
compressed, or Parquet; see :mod:`._table`); ``skbrier demo`` fits models on
bundled data and audits them.  Errors in the user's input end with exit code 2
and one line on stderr (``skbrier: error: ...``); an interrupt (Ctrl-C) ends
with exit code 130 and one line.  Output files are written to a temporary file in the target
directory and renamed into place, so a failed write never leaves a truncated
file; an existing output file (even one created while the report was being
computed) is never replaced without ``--force``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from ._common import CLIError, _Parser

__all__ = ["main"]

#: the subcommands, in the order ``skbrier --help`` lists them; the module
#: ``_<name>`` of each has ``HELP`` (its line in ``skbrier --help``),
#: ``DESCRIPTION`` and ``add_arguments(parser)``
_COMMANDS = ("report", "demo", "leaderboard", "history", "llm")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="skbrier",
        description="Brier-score metrics and calibration audits for probability forecasts.",
    )
    parser.add_argument("--version", action="version", version=f"skbrier {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    for name in _COMMANDS:
        command = importlib.import_module(f"{__name__}._{name}")
        sp = sub.add_parser(name, help=command.HELP, description=command.DESCRIPTION)
        command.add_arguments(sp)
    return parser


def _check_common_options(args: argparse.Namespace) -> None:
    """The options shared by the subcommands, checked before any work by the
    checks of the Python API (their messages with the option's name)."""
    from .._core.params import (
        check_confidence_level,
        check_n_bins,
        check_n_jobs,
        check_n_resamples,
    )
    from .._core.validation import check_scalar_probability
    from ..io._parse import check_confidence_scale

    checks: list[tuple[str, Any]] = [
        ("confidence_level", check_confidence_level),
        (
            "prevalence",
            lambda v: check_scalar_probability(v, name="prevalence", open_interval=True),
        ),
        ("n_bins", check_n_bins),
        # 0 = no intervals where a subcommand allows it (skbrier llm)
        (
            "n_resamples",
            lambda v: check_n_resamples(
                v, allow_zero=getattr(args, "allow_zero_resamples", False)
            ),
        ),
        ("n_jobs", check_n_jobs),
        ("confidence_scale", check_confidence_scale),  # skbrier llm's readers
    ]
    cov = getattr(args, "cov", None)  # skbrier report and demo
    if cov not in (None, "bootstrap") and getattr(args, "n_resamples", None) is not None:
        raise CLIError(
            f"--n-resamples applies to --cov bootstrap only, not to --cov {cov}."
        )
    for name, check in checks:
        value = getattr(args, name, None)
        if value is None or (name == "n_resamples" and value == "auto"):
            continue
        try:
            check(value)
        except ValueError as exc:
            raise CLIError(f"--{str(exc).replace('_', '-')}") from None


def _version() -> str:
    """The installed distribution's version, else the package's."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("skbrier")
    except (ImportError, PackageNotFoundError):
        from .._version import __version__

        return str(__version__)


def _run(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    _check_common_options(args)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    from .._core.progress import quiet

    caught: list[warnings.WarningMessage] = []
    try:
        with (
            warnings.catch_warnings(record=True) as caught,
            quiet(getattr(args, "quiet", False)),
        ):
            warnings.simplefilter("always")
            return int(args.func(args))
    finally:
        # also when the run fails: a warning may explain the error (the first
        # sheet of a workbook was read, and it lacks the column)
        shown = set()
        for w in caught:
            msg = str(w.message)
            if issubclass(w.category, UserWarning) and msg not in shown:
                shown.add(msg)
                print(f"skbrier: warning: {' '.join(msg.split())}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``skbrier`` command line and return its exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 on a usage or input error, 130 when interrupted
        (Ctrl-C).

    Examples
    --------
    >>> from skbrier.cli import main
    >>> main(["demo"])  # doctest: +ELLIPSIS
    skbrier demo: ...
    0
    """
    parser = _build_parser()
    try:
        return _run(parser, argv)
    except CLIError as exc:
        print(f"skbrier: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("skbrier: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        except OSError:  # pragma: no cover
            pass
        return 0
