"""``skbrier demo``: fit models on bundled data and audit them."""

from __future__ import annotations

import argparse
import sys

from ._common import _add_output_options, _check_output, _thresholds, _write, shared_option
from ._report import _emit, _make_reports, _multi_text


def _demo_forecasts(args: argparse.Namespace) -> int:
    from ..datasets import load_forecasts

    d = load_forecasts()
    if args.thresholds is None:
        args.thresholds = [0.05, 0.1, 0.2]
    jobs = [(m, d["y"], d[m], None) for m in ("model_a", "model_b")]
    title = (
        "skbrier demo: bundled forecasts of 2,000 patients (prevalence about 20 %);\n"
        "model_a is calibrated, model_b over-predicts (intercept shifted by +1)."
    )
    reports = _make_reports(jobs, args)
    _emit(reports, args, None if args.json else title)
    return 0


def _demo_jobs(random_state: int) -> tuple[list, int, int]:
    """Three models fitted on scikit-learn's breast cancer data."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from .._response import forecasts_from_estimator

    X, y = load_breast_cancer(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=0.4, random_state=random_state, stratify=y
    )
    models = {
        "logistic regression": make_pipeline(
            StandardScaler(), LogisticRegression(C=0.1, max_iter=1000)
        ),
        "naive Bayes": GaussianNB(),
        "random forest": RandomForestClassifier(
            n_estimators=100, random_state=random_state
        ),
    }
    jobs = []
    for name, model in models.items():
        model.fit(X_tr, y_tr)
        p = np.clip(forecasts_from_estimator(model, X_te).y_proba, 0.0, 1.0)
        jobs.append((name, y_te, p, None))
    return jobs, len(y_tr), len(y_te)


def _demo(args: argparse.Namespace) -> int:
    args.thresholds = _thresholds(args.threshold)
    _check_output(args.html, args.force, "--html")
    if args.dataset == "forecasts":
        return _demo_forecasts(args)
    jobs, n_train, n_test = _demo_jobs(args.random_state)
    reports = _make_reports(jobs, args)
    if args.json:
        _emit(reports, args)
        return 0
    print("skbrier demo: breast cancer data (bundled with scikit-learn),")
    print(f"three models fitted on {n_train} patients, audited on {n_test};")
    print("the event is a benign tumour (label 1).")
    print()
    print(next(iter(reports.values())).summary())
    print()
    print("All three models side by side:")
    print()
    print(_multi_text(reports))
    print()
    print("Brier Index: 100 = perfect, 50 = always saying 50 %, higher is better.")
    print("Calibration slope below 1: over-confident forecasts (naive Bayes);")
    print("above 1: too timid (the strongly regularised logistic regression).")
    if args.html is not None:
        from ..report import reports_to_html

        _write(args.html, reports_to_html(reports), "--html", args.force)
        print(f"HTML report written to {args.html}", file=sys.stderr)
    return 0


HELP = "fit models on bundled data and print their calibration audit"
DESCRIPTION = "Fit models on bundled data and print their calibration audit."


def add_arguments(demo: argparse.ArgumentParser) -> None:
    """Add the arguments of ``skbrier demo`` to its parser."""
    demo.add_argument(
        "--dataset",
        choices=["breast_cancer", "forecasts"],
        default="breast_cancer",
        help="breast_cancer (scikit-learn, default) or the bundled forecasts",
    )
    demo.add_argument(
        "--random-state",
        **shared_option(
            "--random-state",
            default=0,
            help="seed of the split, the models and the bootstrap (a non-negative integer)",
        ),
    )
    _add_output_options(demo)
    demo.set_defaults(func=_demo)
