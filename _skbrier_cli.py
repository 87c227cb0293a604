"""The ``skbrier`` console script.

A module outside the package, so that ``skbrier --version`` answers without
importing the library (importing ``skbrier`` loads scikit-learn, scipy and
every metric, which takes seconds); every other command runs
:func:`skbrier.cli.main`.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run the ``skbrier`` command line; ``--version`` alone answers at once."""
    if sys.argv[1:] == ["--version"]:
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"skbrier {version('skbrier')}")
            return 0
        except PackageNotFoundError:  # pragma: no cover - a source tree on sys.path
            pass
    try:
        from skbrier.cli import main as cli_main
    except KeyboardInterrupt:  # Ctrl-C while the modules load
        print("skbrier: interrupted", file=sys.stderr)
        return 130
    return cli_main()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
