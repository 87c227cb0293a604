"""Validate once (the redesign issue): the public functions validate their
input and hand the validated arrays to internal twins, and every caller
inside the package calls the twins.  The checks of the validation module are
counted here: one check per input column in ``calibration_report`` and in
``skbrier report`` (the CLI)."""

from __future__ import annotations

import collections
import warnings

import numpy as np
import pandas as pd
import pytest

from skbrier._core import arrays


@pytest.fixture
def checks(monkeypatch):
    """Counter of the inputs the validation module actually checks, by
    parameter name (its hook ``_checked`` is called once per input read by
    ``check_probabilities``, ``binary_target``, ``encode_labels``,
    ``check_sample_weight`` and the fused range check of ``check_forecast``)."""
    counts: collections.Counter = collections.Counter()
    monkeypatch.setattr(arrays, "checked", lambda what: counts.update([what]))
    return counts


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.02, 0.98, n)
    b = np.clip(a + rng.normal(0, 0.1, n), 0.01, 0.99)
    y = (rng.uniform(size=n) < a).astype(int)
    w = rng.uniform(0.5, 2.0, n)
    return y, a, b, w


def test_calibration_report_checks_each_input_once(checks):
    from skbrier.report import calibration_report

    y, a, _, w = _data()
    calibration_report(y, a, sample_weight=w, thresholds=[0.2, 0.5])
    assert dict(checks) == {"y_true": 1, "y_proba": 1, "sample_weight": 1}


def test_calibration_report_unweighted_checks_each_input_once(checks):
    from skbrier.report import calibration_report

    y, a, _, _ = _data()
    calibration_report(y, a, thresholds=0.3)
    assert dict(checks) == {"y_true": 1, "y_proba": 1}


def test_cli_report_checks_each_column_once(checks, tmp_path, capsys):
    from skbrier.cli import main

    y, a, b, w = _data()
    path = tmp_path / "f.csv"
    pd.DataFrame({"y": y, "a": a, "b": b, "w": w}).to_csv(path, index=False)
    code = main(
        [
            "report",
            str(path),
            "--y-col",
            "y",
            "--p-col",
            "a",
            "--p-col",
            "b",
            "--weight-col",
            "w",
            "--threshold",
            "0.2",
            "--json",
        ]
    )
    assert code == 0, capsys.readouterr().err
    print(dict(checks))
    assert sum(v for k, v in checks.items() if k not in ("y_true", "sample_weight")) == 2
    assert checks["y_true"] == 1
    assert checks["sample_weight"] == 1


def test_compare_forecasts_checks_each_input_once(checks):
    from skbrier import compare_forecasts

    y, a, b, w = _data()
    compare_forecasts(y, {"a": a, "b": b}, sample_weight=w)
    assert dict(checks) == {"y_true": 1, "y_proba": 2, "sample_weight": 1}


def test_compare_forecasts_numbers_unchanged_by_validating_once():
    from skbrier import compare_forecasts

    y, a, b, w = _data()
    labels = np.where(y == 1, "yes", "no")
    res = compare_forecasts(labels, {"a": a, "b": b}, sample_weight=w, pos_label="yes")
    # the values of the public functions on the raw input
    from skbrier.metrics.calibration import c_statistic, calibration_intercept_slope
    from skbrier.metrics.decomposition import corp_decomposition
    from skbrier.stats.inference import brier_inference

    kw = {"sample_weight": w, "pos_label": "yes"}
    for name, p in (("a", a), ("b", b)):
        row = res.values[name]
        assert row["brier_score"] == brier_inference(labels, p, **kw).brier_score
        assert row["miscalibration"] == corp_decomposition(labels, p, **kw).miscalibration
        assert (
            row["calibration_slope"] == calibration_intercept_slope(labels, p, **kw).slope
        )
        assert row["c_statistic"] == float(c_statistic(labels, p, **kw))
    assert arrays._TRUSTED.get() == ()  # the scope ends with the call


def test_hard_forecast_warned_once_per_report():
    from skbrier.exceptions import HardForecastWarning
    from skbrier.report import calibration_report

    y, _, _, _ = _data()
    hard = np.where(np.arange(y.shape[0]) % 3 == 0, 1.0 - y, y).astype(float)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        calibration_report(y, hard)
    assert sum(issubclass(c.category, HardForecastWarning) for c in caught) == 1
