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
    # each forecast once, under its name in messages
    assert dict(checks) == {
        "y_true": 1,
        "y_proba['a']": 1,
        "y_proba['b']": 1,
        "sample_weight": 1,
    }


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


# --------------------------------------------------------------------------
# the estimator, cross-validation and the pooled scorers: each input column
# is checked once per call
# --------------------------------------------------------------------------

ONCE = {"y_true": 1, "y_proba": 1, "sample_weight": 1}


def _classifier_data(n=300, n_classes=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    logits = X @ rng.normal(size=(3, n_classes))
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    y = (prob.cumsum(axis=1) < rng.uniform(size=(n, 1))).sum(axis=1)
    return X, np.array(["a", "b", "c", "d"])[y], rng.uniform(0.5, 2.0, n)


@pytest.mark.parametrize("method", ["murphy", "corp"])
@pytest.mark.parametrize("n_resamples", [0, 20])
def test_decomposition_fit_checks_each_input_once(checks, method, n_resamples):
    from skbrier.decomposition import BrierDecomposition

    y, a, _, w = _data()
    BrierDecomposition(method, n_resamples=n_resamples, random_state=0).fit(y, a, w)
    assert dict(checks) == ONCE


def test_decomposition_fit_multiclass_checks_each_input_once(checks):
    from skbrier.decomposition import BrierDecomposition

    rng = np.random.default_rng(3)
    P = rng.dirichlet([1.0, 1.0, 1.0], 200)
    y = rng.integers(0, 3, 200)
    BrierDecomposition("murphy").fit(y, P, rng.uniform(0.5, 2.0, 200))
    assert dict(checks) == ONCE


def test_decomposition_partial_fit_checks_each_input_once_per_chunk(checks):
    from skbrier.decomposition import BrierDecomposition

    y, a, _, w = _data()
    dec = BrierDecomposition("murphy", n_bins=8)
    for chunk in np.array_split(np.arange(y.shape[0]), 3):
        checks.clear()
        dec.partial_fit(y[chunk], a[chunk], w[chunk])
        assert dict(checks) == ONCE


def test_decomposition_from_estimator_checks_each_input_once(checks):
    from sklearn.linear_model import LogisticRegression

    from skbrier.decomposition import BrierDecomposition

    X, y, w = _classifier_data()
    clf = LogisticRegression().fit(X, y)
    checks.clear()
    BrierDecomposition.from_estimator(
        clf, X, y, sample_weight=w, decomposition_method="corp"
    )
    assert dict(checks) == ONCE


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_val_brier_checks_each_input_once(checks, n_classes, weighted):
    from sklearn.linear_model import LogisticRegression

    from skbrier.model_selection import cross_val_brier

    X, y, w = _classifier_data(n_classes=n_classes)
    res = cross_val_brier(
        LogisticRegression(), X, y, cv=3, sample_weight=w if weighted else None
    )
    assert res.decomposition["murphy"] is not None and res.inference is not None
    # y once, the out-of-fold probabilities once (after they are predicted)
    expected = {"y_true": 1, "predict_proba output": 1}
    if weighted:
        expected["sample_weight"] = 1
    assert dict(checks) == expected
    assert arrays._TRUSTED.get() == ()  # the scope ends with the call


@pytest.mark.parametrize("n_classes", [2, 3])
def test_cross_val_brier_numbers_unchanged_by_validating_once(n_classes):
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold

    from skbrier.metrics.decomposition import corp_decomposition, murphy_decomposition
    from skbrier.model_selection import cross_val_brier
    from skbrier.stats.inference import brier_inference

    X, y, w = _classifier_data(n_classes=n_classes)
    cv = KFold(3, shuffle=True, random_state=0)
    res = cross_val_brier(LogisticRegression(), X, y, cv=cv, sample_weight=w)
    # the public functions on the out-of-fold predictions, validated as usual
    kw: dict = {"sample_weight": w[res.oof_indices]}
    if n_classes == 2:
        yy, pp, kw["pos_label"] = res.y_true, res.y_proba[:, 1], res.pos_label
    else:
        yy, pp, kw["labels"] = res.y_true, res.y_proba, res.classes
    m, c = res.decomposition["murphy"], res.decomposition["corp"]
    assert m.brier_score == murphy_decomposition(yy, pp, **kw).brier_score
    assert m.reliability == murphy_decomposition(yy, pp, **kw).reliability
    assert c.miscalibration == corp_decomposition(yy, pp, **kw).miscalibration
    assert res.inference.brier_score == brier_inference(yy, pp, **kw).brier_score


@pytest.mark.parametrize(
    "name", ["brier_sum", "weight_sum", "_positive_weight_sum", "class_weight_sum"]
)
def test_pooled_sums_check_each_input_once(checks, name):
    from skbrier.model_selection import _pooled_sums

    y, a, _, w = _data()
    kw = {"class_index": 1} if name == "class_weight_sum" else {}
    getattr(_pooled_sums, name)(y, a, sample_weight=w, **kw)
    assert dict(checks) == ONCE


@pytest.mark.parametrize("weighted", [False, True])
def test_pooled_scoring_checks_each_input_once_per_scorer_call(checks, weighted):
    """Each scorer of ``pooled_scoring`` checks its fold's inputs once per call
    (scikit-learn calls the scorers of the dict one by one)."""
    from sklearn.linear_model import LogisticRegression

    from skbrier.model_selection import pooled_scoring

    X, y, w = _classifier_data()
    y = (y == "a").astype(int)
    clf = LogisticRegression().fit(X, y)
    kw = {"sample_weight": w} if weighted else {}
    for name, scorer in pooled_scoring().items():
        checks.clear()
        scorer(clf, X, y, **kw)
        assert all(v == 1 for v in checks.values()), (name, dict(checks))


# -- the subgroup columns and the HTML figures: one check per column too ------


def _segment_forms(g):
    return {
        "groups": ({"groups": g}, {"groups": 1}),
        "1-D segments": ({"segments": g}, {"segments['x0']": 1}),
        "dict": ({"segments": {"g": g}}, {"segments['g']": 1}),
        "groups and the same segment": (
            {"groups": g, "segments": {"g": g}},
            {"groups": 1},
        ),
        "2-D": (
            {"segments": np.column_stack([g, g % 2])},
            {"segments['x0']": 1, "segments['x1']": 1},
        ),
        "DataFrame": (
            {"segments": pd.DataFrame({"g": g, "h": g % 2})},
            {"segments['g']": 1, "segments['h']": 1},
        ),
        "Series": ({"segments": pd.Series(g, name="site")}, {"segments['site']": 1}),
    }


@pytest.mark.parametrize("form", list(_segment_forms(np.zeros(1))))
def test_calibration_report_checks_each_subgroup_column_once(checks, form):
    from skbrier.report import calibration_report

    y, a, _, _ = _data()
    g = np.random.default_rng(3).integers(0, 3, y.shape[0])
    kwargs, want = _segment_forms(g)[form]
    calibration_report(y, a, **kwargs)
    assert dict(checks) == {"y_true": 1, "y_proba": 1, **want}


def test_report_of_a_dataframe_without_segments_is_an_error():
    from skbrier.report import calibration_report

    y, a, _, _ = _data()
    with pytest.raises(ValueError, match="^segments has no column"):
        calibration_report(y, a, segments=pd.DataFrame(index=range(y.shape[0])))


@pytest.mark.parametrize(
    "extra",
    [["--subgroup-col", "g"], ["--html", "OUT"], ["--subgroup-col", "g", "--html", "OUT"]],
)
def test_cli_report_checks_subgroup_and_figure_columns_once(
    checks, tmp_path, capsys, extra
):
    pytest.importorskip("matplotlib")
    from skbrier.cli import main

    y, a, b, _ = _data()
    g = np.random.default_rng(3).integers(0, 3, y.shape[0])
    path = tmp_path / "f.csv"
    pd.DataFrame({"y": y, "a": a, "b": b, "g": g}).to_csv(path, index=False)
    extra = [str(tmp_path / "r.html") if x == "OUT" else x for x in extra]
    argv = ["report", str(path), "--y-col", "y", "--p-col", "a", "--p-col", "b", *extra]
    code = main(argv if "--html" in extra else [*argv, "--json"])
    assert code == 0, capsys.readouterr().err
    want = {"y_true": 1, "y_proba": 2}
    if "--subgroup-col" in extra:
        want["column 'g'"] = 1
    assert dict(checks) == want
