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

from skbrier._core.kernels.calibration_error import torch_linspace_edges
from skbrier.metrics._calibration_error_core import bin_table, check_options
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


# --------------------------------------------------------------------------- peers' bins
BINS_FIX = json.loads(
    (Path(__file__).parent / "fixtures" / "llm" / "calibration_error_bins.json").read_text()
)


def _bins_data(name):
    d = BINS_FIX["data"]
    if name == "verbal":
        return np.array(d["verbal_correct"]).astype(bool), np.array(d["verbal_confidence"])
    if name == "binary":
        return np.array(d["binary_y"]), np.array(d["binary_p"])
    return np.array(d["multiclass_y"]), np.array(d["multiclass_p"])


@pytest.mark.parametrize(
    "case", BINS_FIX["cases"], ids=[c["name"] for c in BINS_FIX["cases"]]
)
def test_discrete_and_hle_bins_match_peer(case):
    # Kumar et al.'s get_binning_ce (discrete bins) and HLE's calib_err, with
    # and without its last bin (tests/fixtures/llm/make_calibration_error_bins.py)
    y, p = _bins_data(case["data"])
    opts = {
        k: case[k]
        for k in ("kind", "binning", "norm", "debias", "confidence_scale")
        if k in case
    }
    got = calibration_error(y, p, **opts)
    assert got == pytest.approx(case["value"], rel=1e-12, abs=1e-14)


def test_discrete_bins_are_one_per_value():
    p = np.array([0.2, 0.2, 0.5, 0.9, 0.5, 0.2])
    y = np.array([0, 1, 1, 1, 0, 0])
    o = check_options("l1", 15, "uniform", "discrete", False, True)
    (wsum, psum, ysum), _ = bin_table(p, y.astype(float), None, o)
    assert wsum.tolist() == [3.0, 2.0, 1.0]
    assert (psum / wsum).tolist() == pytest.approx([0.2, 0.5, 0.9])
    # n_bins plays no part; strategy must stay uniform
    assert calibration_error(y, p, binning="discrete", n_bins=2) == calibration_error(
        y, p, binning="discrete", n_bins=40
    )
    with pytest.raises(ValueError, match="strategy"):
        calibration_error(y, p, binning="discrete", strategy="quantile")


def test_swapped_arguments_are_named_not_taken_for_a_multilabel_indicator():
    # a 2-D y_true of probabilities got "kind='top_label' needs one class per row"
    p = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]])
    for kind in ("top_label", "classwise"):
        with pytest.raises(ValueError, match="swapped"):
            calibration_error(p, [0, 1, 2], kind=kind)
    # a true multilabel indicator still gets the advice on kind
    y = np.array([[0, 1], [1, 1], [0, 0]])
    with pytest.raises(ValueError, match="kind='classwise'"):
        calibration_error(y, [[0.2, 0.3], [0.1, 0.8], [0.6, 0.2]])


def test_hle_all_bins_keeps_the_last_bin():
    y, c = _bins_data("verbal")
    skip = calibration_error(y, c, binning="hle", norm="l2", confidence_scale=100)
    every = calibration_error(y, c, binning="hle_all_bins", norm="l2", confidence_scale=100)
    # the last bin (157 rows) adds W_last / W * gap^2 to the square
    assert every > skip
    w = np.ones(len(y), dtype=int)
    w[:10] = 3
    rep = np.repeat(np.arange(len(y)), w)
    assert calibration_error(
        y, c, binning="hle_all_bins", confidence_scale=100, sample_weight=w
    ) == pytest.approx(
        calibration_error(y[rep], c[rep], binning="hle_all_bins", confidence_scale=100),
        rel=1e-12,
    )


# --------------------------------------------------------------------------- weights
@pytest.mark.parametrize("scale", [1e-200, 1e-3, 7.0, 1e200])
@pytest.mark.parametrize("bandwidth", ["auto", 0.05])
def test_smooth_is_invariant_to_the_scale_of_the_weights(scale, bandwidth):
    # the issue: weights x 1e-200 gave 3e-195 instead of 0.112
    rng = np.random.default_rng(12)
    p = rng.random(300)
    y = rng.random(300) < p**1.5
    w = rng.integers(1, 4, 300).astype(float)
    ref = smooth_calibration_error(y, p, sample_weight=w, bandwidth=bandwidth)
    got = smooth_calibration_error(y, p, sample_weight=w * scale, bandwidth=bandwidth)
    assert ref > 0.05
    assert got == pytest.approx(ref, rel=1e-9)


@pytest.mark.parametrize("scale", [1e-200, 0.5 / 120])
def test_debias_refuses_fewer_than_three_observations(scale):
    # the issue: debias=True returned 0.0 when the weights summed below 1
    rng = np.random.default_rng(13)
    p = rng.random(120)
    y = rng.random(120) < p
    w = np.full(120, scale)
    with pytest.raises(
        ValueError, match="sample_weight sums to .* at least 3 observations"
    ):
        calibration_error(y, p, norm="l2", debias=True, sample_weight=w)
    with pytest.raises(ValueError, match="sample_weight"):
        calibration_error(
            y, p, norm="l2", debias=True, binning="torchmetrics", sample_weight=w
        )
    with pytest.raises(ValueError, match="y_true has 2 samples"):
        calibration_error([0, 1], [0.2, 0.7], norm="l2", debias=True)
    # three observations by weight: a number, and the weights count as rows
    w3 = np.zeros(120)
    w3[:3] = [1.0, 1.0, 1.0]
    got = calibration_error(y, p, norm="l2", debias=True, n_bins=1, sample_weight=w3)
    assert got == calibration_error(y[:3], p[:3], norm="l2", debias=True, n_bins=1)
    # the same check brier_inference runs, with the same message
    from skbrier import brier_inference

    with pytest.raises(ValueError, match="with frequency weights"):
        brier_inference(y.astype(int), p, cov_type="iid", sample_weight=w)


def test_intervals_count_observations():
    rng = np.random.default_rng(14)
    p = rng.random(80)
    y = rng.random(80) < p
    with pytest.raises(ValueError, match="sample_weight sums to"):
        calibration_error_interval(y, p, sample_weight=np.full(80, 1e-3), n_resamples=10)
    with pytest.raises(ValueError, match="2\\*\\*62"):
        calibration_error_interval(y, p, sample_weight=np.full(80, 1e200), n_resamples=10)


def test_helm_and_hle_refuse_weights_they_cannot_count():
    rng = np.random.default_rng(15)
    p = rng.random(150)
    y = rng.random(150) < p
    with pytest.raises(ValueError, match="less than one observation"):
        calibration_error(y, p, binning="helm", sample_weight=np.full(150, 1e-3))
    # huge frequency weights: the groups of the expanded sample (no overflow)
    w = rng.integers(1, 4, 150).astype(float)
    a = calibration_error(y, p, binning="helm", n_bins=4, sample_weight=w * 2.0**600)
    assert 0.0 <= a <= 1.0
    with pytest.raises(ValueError, match="at most 2\\*\\*24"):
        calibration_error(y, p, binning="hle", sample_weight=np.full(150, 1e200))


def test_netcal_quantile_edges_are_weighted():
    rng = np.random.default_rng(16)
    p = np.round(rng.random(90), 2)
    y = (rng.random(90) < p).astype(int)
    w = rng.integers(0, 4, 90)
    opts = {"binning": "netcal", "strategy": "quantile", "n_bins": 5, "kind": "binary"}
    got = calibration_error(y, p, sample_weight=w, **opts)
    assert got == pytest.approx(
        calibration_error(np.repeat(y, w), np.repeat(p, w), **opts), rel=1e-12
    )


def test_bin_edges_given_as_strategy_point_to_binning():
    # murphy_decomposition takes edges as strategy=; calibration_error said
    # only "strategy must be one of ('uniform', 'quantile')"
    y, p = np.array([0, 1, 1, 0]), np.array([0.1, 0.8, 0.6, 0.3])
    with pytest.raises(TypeError, match="binning=edges"):
        calibration_error(y, p, strategy=[0.0, 0.5, 1.0])
    assert calibration_error(y, p, binning=[0.0, 0.5, 1.0]) == pytest.approx(0.25)


def test_a_bandwidth_too_narrow_for_the_grid_is_refused():
    # bandwidth=1e-9 asked for a grid of 2e10 nodes (MemoryError, 74.5 GiB)
    y, p = np.array([0, 1, 1, 0]), np.array([0.1, 0.8, 0.6, 0.3])
    with pytest.raises(ValueError, match="bandwidth must be at least 1e-05"):
        smooth_calibration_error(y, p, bandwidth=1e-9)
    with pytest.raises(ValueError, match="bandwidth"):
        calibration_error_interval(
            y, p, metric="smooth_calibration_error", bandwidth=1e-9, n_resamples=5
        )
    assert 0.0 <= smooth_calibration_error(y, p, bandwidth=1e-5) <= 1.0
