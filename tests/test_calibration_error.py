"""calibration_error, smooth_calibration_error and their intervals.

Every number is checked against the peers' own code through the committed
fixture ``tests/fixtures/llm/calibration_error.json`` (made by
``make_calibration_error.py`` beside it, which ran torchmetrics, netcal,
uncertainty-calibration (HELM's ``get_ece_em``), relplot and scikit-learn;
the HLE judge's ``calib_err`` is not packaged, so the script runs a verbatim
copy of its source).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from skbrier.metrics._calibration_error_core import bin_table, check_options
from skbrier.metrics._calibration_error_math import torch_linspace_edges
from skbrier.metrics.calibration import expected_calibration_error
from skbrier.metrics.calibration_error import (
    calibration_error,
    calibration_error_interval,
    smooth_calibration_error,
)

FIX = json.loads(
    (Path(__file__).parent / "fixtures" / "llm" / "calibration_error.json").read_text()
)
D = FIX["data"]


def _data(name):
    if name == "binary":
        return np.array(D["binary_y"]), np.array(D["binary_p"])
    if name == "multiclass":
        return np.array(D["multiclass_y"]), np.array(D["multiclass_p"])
    return np.array(D["verbal_correct"]).astype(bool), np.array(D["verbal_confidence"])


BINNED = [c for c in FIX["cases"] if not c.get("smooth")]
SMOOTH = [c for c in FIX["cases"] if c.get("smooth")]


@pytest.mark.filterwarnings("ignore:The rows of y_proba")
@pytest.mark.parametrize("case", BINNED, ids=[c["name"] for c in BINNED])
def test_binned_matches_peer(case):
    y, p = _data(case["data"])
    opts = {
        k: case[k]
        for k in (
            "kind",
            "binning",
            "n_bins",
            "norm",
            "debias",
            "strategy",
            "confidence_scale",
        )
        if k in case
    }
    got = calibration_error(y, p, **opts)
    # torchmetrics' multiclass path computes in float32
    assert got == pytest.approx(case["value"], rel=case.get("rtol", 1e-12), abs=1e-14)


@pytest.mark.filterwarnings("ignore:The rows of y_proba")
@pytest.mark.parametrize("case", SMOOTH, ids=[c["name"] for c in SMOOTH])
def test_smooth_matches_relplot(case):
    y, p = _data(case["data"])
    opts = {k: case[k] for k in ("kind", "bandwidth", "confidence_scale") if k in case}
    got = smooth_calibration_error(y, p, **opts)
    # relplot adds 1e-4 to the density of n unit masses in the denominator
    # (skbrier leaves that offset out: it is not scale-free in the weights),
    # a relative difference of 1e-4 / n
    n = y.shape[0]
    assert got == pytest.approx(case["value"] * (1 + 1e-4 / n), rel=2e-8)


@pytest.mark.parametrize("key", sorted(FIX["sklearn_calibration_curve"]))
def test_sklearn_preset_bins_are_calibration_curve(key):
    strategy, nb = key.split("_")
    y, p = _data("binary")
    o = check_options("l1", int(nb), strategy, "sklearn", False, True)
    (wsum, psum, ysum), _ = bin_table(p, y.astype(float), None, o)
    nz = wsum > 0
    ref = FIX["sklearn_calibration_curve"][key]
    np.testing.assert_allclose(ysum[nz] / wsum[nz], ref["prob_true"], rtol=1e-12)
    np.testing.assert_allclose(psum[nz] / wsum[nz], ref["prob_pred"], rtol=1e-12)


@pytest.mark.parametrize("k", sorted(FIX["torch_linspace"], key=int))
def test_torch_linspace_edges(k):
    np.testing.assert_array_equal(
        torch_linspace_edges(int(k)), np.array(FIX["torch_linspace"][k])
    )


def test_edge_rules_differ_where_documented():
    # 0.5 on an inner edge: lower bin (sklearn, skbrier) vs upper (netcal, torchmetrics)
    y = [1, 0, 0, 1]
    p = [0.5, 0.3, 0.7, 0.9]
    low = calibration_error(y, p, kind="binary", n_bins=2)
    up = calibration_error(y, p, kind="binary", n_bins=2, binning="netcal")
    assert low == pytest.approx(0.5 * abs(0.4 - 0.5) + 0.5 * abs(0.8 - 0.5))
    assert up == pytest.approx(0.25 * 0.3 + 0.75 * abs(0.7 - 2 / 3))
    # torchmetrics puts exactly 1.0 in a bin of its own
    y = [1, 0, 1]
    p = [1.0, 0.95, 0.1]
    tm = calibration_error(
        y, p, kind="binary", n_bins=2, binning="torchmetrics", norm="max"
    )
    assert tm == pytest.approx(0.95)


def test_expected_calibration_error_is_the_binary_kind():
    rng = np.random.default_rng(3)
    p = rng.random(300)
    y = rng.random(300) < p
    w = rng.integers(0, 4, 300)
    for strategy in ("uniform", "quantile"):
        for norm in ("l1", "l2", "max"):
            a = expected_calibration_error(
                y, p, n_bins=7, strategy=strategy, norm=norm, sample_weight=w
            )
            b = calibration_error(
                y, p, kind="binary", n_bins=7, strategy=strategy, norm=norm, sample_weight=w
            )
            assert a == pytest.approx(b, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(
    "opts",
    [
        {},
        {"norm": "l2", "debias": True},
        {"kind": "classwise", "norm": "l2"},
        {"strategy": "quantile"},
        {"binning": "helm", "n_bins": 10},
        {"binning": "netcal"},
        {"binning": "torchmetrics", "norm": "max"},
    ],
)
def test_integer_weights_equal_repeated_rows(opts):
    rng = np.random.default_rng(5)
    n = 120
    proba = rng.dirichlet([1, 1, 1], n)
    y = rng.integers(0, 3, n)
    w = rng.integers(0, 4, n)
    got = calibration_error(y, proba, sample_weight=w, **opts)
    ref = calibration_error(np.repeat(y, w), np.repeat(proba, w, axis=0), **opts)
    assert got == pytest.approx(ref, rel=1e-10, abs=1e-14)
    ones = calibration_error(y, proba, sample_weight=np.ones(n), **opts)
    assert ones == pytest.approx(calibration_error(y, proba, **opts), rel=1e-12, abs=1e-15)


def test_smooth_weights_equal_repeated_rows():
    rng = np.random.default_rng(6)
    p = rng.random(200)
    y = rng.random(200) < p**2
    w = rng.integers(0, 3, 200)
    a = smooth_calibration_error(y, p, sample_weight=w)
    b = smooth_calibration_error(np.repeat(y, w), np.repeat(p, w))
    assert a == pytest.approx(b, rel=1e-9)


def test_hle_integer_weights_and_errors():
    y, c = _data("verbal")
    w = np.ones(len(y), dtype=int)
    assert calibration_error(
        y, c, binning="hle", norm="l2", confidence_scale=100, sample_weight=w
    ) == pytest.approx(
        calibration_error(y, c, binning="hle", norm="l2", confidence_scale=100)
    )
    with pytest.raises(ValueError, match="at least 100"):
        calibration_error(y[:50], c[:50], binning="hle", confidence_scale=100)
    with pytest.raises(ValueError, match="integer frequency"):
        calibration_error(y, c, binning="hle", confidence_scale=100, sample_weight=w * 0.5)


def test_verbalized_confidence_scale():
    y, c = _data("verbal")
    a = calibration_error(y, c, confidence_scale=100, n_bins=10)
    b = calibration_error(y, c / 100, n_bins=10)
    assert a == b
    with pytest.raises(ValueError, match="confidence_scale"):
        calibration_error(y, c, confidence_scale=50)
    with pytest.raises(ValueError, match="y_proba"):
        calibration_error(y, c)  # percentages without the scale


def test_classwise_and_binary_kinds():
    y, p = _data("binary")
    two = np.column_stack([1 - p, p])
    assert calibration_error(y, two, kind="binary") == pytest.approx(
        calibration_error(y, p, kind="binary")
    )
    with pytest.raises(ValueError, match="kind='binary'"):
        calibration_error([0, 1, 2], np.eye(3), kind="binary")


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"norm": "l3"}, ValueError, "norm"),
        ({"kind": "marginal"}, ValueError, "kind"),
        ({"n_bins": 0}, ValueError, "n_bins"),
        ({"n_bins": 2.5}, TypeError, "n_bins"),
        ({"debias": True}, ValueError, "debias"),
        ({"binning": "pytorch"}, ValueError, "binning"),
        ({"binning": [0.0, 0.5, 0.4, 1.0]}, ValueError, "binning"),
        ({"binning": "helm", "strategy": "quantile"}, ValueError, "strategy"),
        ({"right": "yes"}, TypeError, "right"),
        ({"confidence_scale": 0}, ValueError, "confidence_scale"),
    ],
)
def test_bad_options(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        calibration_error([0, 1], [0.2, 0.8], **kwargs)


def test_bad_smooth_options():
    with pytest.raises(ValueError, match="bandwidth"):
        smooth_calibration_error([0, 1], [0.2, 0.8], bandwidth=0.0)
    with pytest.raises(ValueError, match="bandwidth"):
        smooth_calibration_error([0, 1], [0.2, 0.8], bandwidth="silverman")


def test_explicit_edges():
    y, p = _data("binary")
    got = calibration_error(y, p, kind="binary", binning=np.arange(11) / 10)
    assert got == calibration_error(y, p, kind="binary", n_bins=10)


def test_perfect_calibration_and_float_result():
    y = [0, 1] * 50
    p = [0.5] * 100
    v = calibration_error(y, p)
    assert type(v) is float and v == 0.0
    assert calibration_error(y, p, norm="l2", debias=True) == 0.0


def test_interval_reproducible_and_n_jobs_invariant():
    y, p = _data("binary")
    a = calibration_error_interval(y, p, kind="binary", n_resamples=40, random_state=1)
    b = calibration_error_interval(
        y, p, kind="binary", n_resamples=40, random_state=1, n_jobs=2
    )
    np.testing.assert_array_equal(a.replicates, b.replicates)
    assert a.estimate == calibration_error(y, p, kind="binary")
    assert a.low <= a.estimate <= a.high or a.low <= a.high
    ci = a.confidence_interval(0.5)
    assert a.low <= ci.low <= ci.high <= a.high
    s = calibration_error_interval(
        y, p, metric="smooth_calibration_error", n_resamples=10, random_state=0
    )
    assert s.estimate == smooth_calibration_error(y, p)
    assert "estimate" in s.summary()
    assert s.to_dict()["n_resamples"] == 10


def test_interval_bad_options():
    with pytest.raises(TypeError, match="unexpected"):
        calibration_error_interval([0, 1], [0.1, 0.9], bandwidth=0.1)
    with pytest.raises(ValueError, match="n_resamples"):
        calibration_error_interval([0, 1], [0.1, 0.9], n_resamples=1)
    with pytest.raises(ValueError, match="metric"):
        calibration_error_interval([0, 1], [0.1, 0.9], metric="ece")


def test_interval_coverage_of_a_calibrated_forecast_is_sane():
    # the bootstrap interval of ECE under frequency weights uses the total weight
    rng = np.random.default_rng(0)
    p = rng.random(400)
    y = rng.random(400) < p
    w = np.full(400, 2)
    a = calibration_error_interval(
        y, p, kind="binary", n_resamples=60, random_state=0, sample_weight=w
    )
    b = calibration_error_interval(
        np.repeat(y, 2), np.repeat(p, 2), kind="binary", n_resamples=60, random_state=0
    )
    # same resampling distribution: widths agree to within Monte-Carlo noise
    assert abs((a.high - a.low) - (b.high - b.low)) < 0.6 * (b.high - b.low)
