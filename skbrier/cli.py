"""The ``skbrier`` command line.

``skbrier demo`` fits a model on bundled data and prints its Brier metrics.
Errors in the user's input end with exit code 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


class CLIError(Exception):
    """An error in the user's input: printed as one line, exit code 2."""


def _demo(args: argparse.Namespace) -> int:
    import numpy as np
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from .metrics.brier import brier_index, brier_score, brier_skill_score

    X, y = load_breast_cancer(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=0.4, random_state=args.random_state, stratify=y
    )
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=1000))
    model.fit(X_tr, y_tr)
    p = model.predict_proba(X_te)[:, 1]
    always_half = np.full_like(p, 0.5)
    rows = [
        ("logistic regression", p),
        ("always 50 %", always_half),
        ("base rate (train)", np.full_like(p, y_tr.mean())),
    ]
    print("skbrier demo: breast cancer data (bundled with scikit-learn),")
    print(f"logistic regression fitted on {len(y_tr)} patients, scored on {len(y_te)}.")
    print()
    print(f"{'forecaster':<22}{'Brier score':>12}{'Brier Index':>13}{'skill (BSS)':>13}")
    for name, q in rows:
        print(
            f"{name:<22}{brier_score(y_te, q):>12.4f}{brier_index(y_te, q):>13.1f}"
            f"{brier_skill_score(y_te, q):>13.3f}"
        )
    print()
    print("Brier Index: 100 = perfect, 50 = always saying 50 %, higher is better.")
    return 0


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skbrier",
        description="Brier-score metrics for probability forecasts.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="fit a model on bundled data and print its metrics")
    demo.add_argument("--random-state", type=int, default=0, help="seed of the split")
    demo.set_defaults(func=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``skbrier`` command line and return its exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 on a usage or input error.

    Examples
    --------
    >>> from skbrier.cli import main
    >>> main(["demo"])  # doctest: +ELLIPSIS
    skbrier demo: ...
    0
    """
    parser = _build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except CLIError as exc:
        print(f"skbrier: error: {exc}", file=sys.stderr)
        return 2
