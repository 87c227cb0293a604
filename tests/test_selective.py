"""Selective prediction: AURC, E-AURC, the risk-coverage curve, HELM's selective statistics.

The reference numbers come from the peers' own code (HELM's
``get_selective_stats``, fd-shifts' ``selective_risk_stats``/``evaluate_auc``),
copied into ``tests/fixtures/make_selective_fixtures.py``, which wrote
``tests/fixtures/selective_fixtures.json``.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import skbrier
from skbrier._core.kernels.selective import harmonic_difference
from skbrier.metrics.selective import (
    aurc,
    e_aurc,
    risk_coverage_curve,
    selective_accuracy,
    selective_accuracy_at_top,
    selective_coverage_accuracy_area,
)

# numpy < 2.0 has only np.trapz
_trapezoid = getattr(np, "trapezoid", None) or np.trapz

FIXTURES = Path(__file__).parent / "fixtures"
FX = json.loads((FIXTURES / "selective_fixtures.json").read_text())


def _reference_module():
    spec = importlib.util.spec_from_file_location(
        "make_selective_fixtures", FIXTURES / "make_selective_fixtures.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


REF = _reference_module()


def _arrays(case):
    return (
        np.array(case["correct"]),
        np.array(case["confidence"]),
        np.array(case["weights"], dtype=float),
    )


def _data(n=200, seed=0, ties=None):
    rng = np.random.default_rng(seed)
    conf = rng.uniform(size=n)
    if ties is not None:
        conf = np.round(conf / ties) * ties
    right = (rng.uniform(size=n) < conf).astype(int)
    return right, conf


# --------------------------------------------------------------------------- HELM
@pytest.mark.parametrize("i", range(len(FX["helm"])))
def test_helm_selective_stats_equal_helm(i):
    case = FX["helm"][i]
    y, c, w = _arrays(case)
    rep = np.repeat(np.arange(y.shape[0]), w.astype(int))
    for kw, yy, cc in (({"sample_weight": w}, y, c), ({}, y[rep], c[rep])):
        area = selective_coverage_accuracy_area(yy, cc, **kw)
        top = selective_accuracy_at_top(yy, cc, **kw)
        assert area == pytest.approx(case["area"], abs=1e-12, rel=1e-12)
        assert top == pytest.approx(case["acc_at_10"], abs=1e-12, rel=1e-12)


def test_the_copied_helm_function_is_the_installed_one():
    calibration = pytest.importorskip("calibration")
    y, c = _data(300, 4)
    assert REF.get_selective_stats(c, y) == calibration.get_selective_stats(c, y)


def test_helm_ties_give_the_average_over_every_order_of_the_tied():
    # HELM's value with ties depends on numpy's unstable sort; skbrier's is
    # the mean over the orders of the tied answers
    rng = np.random.default_rng(9)
    c = np.r_[0.95, 0.8, 0.8, 0.8, np.linspace(0.7, 0.1, 12), 0.05, 0.05, 0.05, 0.05]
    y = (rng.uniform(size=20) < c).astype(int)
    y[1:4] = [1, 0, 0]  # HELM's acc@10 (the top 3) falls inside this tie
    y[16:] = [1, 0, 1, 0]
    groups = [np.arange(1, 4), np.arange(16, 20)]
    areas, tops = [], []
    for perm_a in itertools.permutations(groups[0]):
        for perm_b in itertools.permutations(groups[1]):
            cc = c.copy()  # the ties broken by tiny offsets in this order
            for perm in (perm_a, perm_b):
                for k, j in enumerate(perm):
                    cc[j] += 1e-9 * (len(perm) - k)
            a, t = REF.get_selective_stats(cc, y)
            areas.append(a)
            tops.append(t)
    assert len(set(np.round(areas, 12))) > 1 and len(set(tops)) > 1
    assert selective_coverage_accuracy_area(y, c) == pytest.approx(
        np.mean(areas), abs=1e-12
    )
    assert selective_accuracy_at_top(y, c) == pytest.approx(np.mean(tops), abs=1e-12)


def test_helm_index_takes_one_more_than_the_fraction():
    y = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1]
    c = np.linspace(0.95, 0.5, 10)
    assert selective_accuracy_at_top(y, c) == 0.5  # the top 2 of 10
    assert selective_accuracy(y, c, coverage=0.1) == 1.0  # exactly 10 %
    assert selective_accuracy_at_top(y, c, fraction=0.0) == 1.0


def test_helm_position_statistics_need_integer_weights():
    y, c = _data(20, 1)
    w = np.full(20, 1.5)
    for f in (selective_coverage_accuracy_area, selective_accuracy_at_top):
        with pytest.raises(ValueError, match="^sample_weight: .* must be integers"):
            f(y, c, sample_weight=w)
    with pytest.raises(ValueError, match="^sample_weight sums to .* 2\\*\\*53"):
        selective_coverage_accuracy_area(y, c, sample_weight=np.full(20, 1e300))
    with pytest.raises(ValueError, match="^fraction"):
        selective_accuracy_at_top(y, c, fraction=1.0)


def test_helm_area_with_huge_integer_weights_is_the_expanded_sum():
    # positions summed in closed form: 1e6 repeats of each row, no expansion
    y = np.array([1, 0, 1])
    c = np.array([0.9, 0.6, 0.3])
    m = 10**6
    area = selective_coverage_accuracy_area(y, c, sample_weight=np.full(3, float(m)))
    k = np.arange(1, 3 * m + 1, dtype=float)
    correct = np.minimum(k, m) + np.maximum(k - 2 * m, 0)
    assert area == pytest.approx(math.fsum(correct / k) / (3 * m), rel=1e-12)


@pytest.mark.parametrize(
    "a, b",
    [
        (0, 1),
        (0, 32),
        (5, 40),
        (31, 33),
        (32, 33),
        (100, 101),
        (1000, 5000),
        (10**6, 10**6 + 1),
        (10**9, 10**9 + 7),
        (3, 10**5),
    ],
)
def test_harmonic_difference(a, b):
    exact = math.fsum(1.0 / k for k in range(a + 1, b + 1))
    got = harmonic_difference(np.array([a]), np.array([b]))[0]
    assert got == pytest.approx(exact, rel=1e-14)


# --------------------------------------------------------------------------- fd-shifts
@pytest.mark.parametrize("i", range(len(FX["fd_shifts"])))
def test_aurc_and_e_aurc_equal_fd_shifts(i):
    case = FX["fd_shifts"][i]
    y, c, w = _arrays(case)
    rep = np.repeat(np.arange(y.shape[0]), w.astype(int))
    for kw, yy, cc in (({"sample_weight": w}, y, c), ({}, y[rep], c[rep])):
        assert aurc(yy, cc, **kw) == pytest.approx(case["aurc"], abs=1e-12)
        assert e_aurc(yy, cc, **kw) == pytest.approx(case["e_aurc"], abs=1e-12)


def test_aurc_by_hand():
    # points (0.25, 0), (0.5, 0), (0.75, 1/3), (1, 1/4); the curve starts at (0, 0)
    got = aurc([1, 1, 0, 1], [0.9, 0.8, 0.7, 0.6])
    assert got == pytest.approx(0.25 * (0 + 1 / 3) / 2 + 0.25 * (1 / 3 + 1 / 4) / 2)
    # ties grouped: one point for 0.8
    got = aurc([1, 1, 0, 1], [0.9, 0.8, 0.8, 0.6])
    assert got == pytest.approx(0.5 * (1 / 3) / 2 + 0.25 * (1 / 3 + 1 / 4) / 2)
    # a single distinct confidence: the error rate
    assert aurc([1, 0, 0, 1, 1], [0.5] * 5) == pytest.approx(0.4)


def test_e_aurc_is_aurc_minus_the_oracle_limit():
    y, c = _data(500, 2)
    err = 1 - y.mean()
    assert e_aurc(y, c) == pytest.approx(aurc(y, c) - (err + (1 - err) * np.log(1 - err)))
    # a perfect ranking: slightly below 0, of order 1/n
    perfect = y + np.linspace(0, 0.5, 500)
    assert -5.0 / 500 < e_aurc(y, perfect / perfect.max()) <= 0
    assert e_aurc(np.zeros(5), np.linspace(0.1, 0.5, 5)) == pytest.approx(0.0)


# --------------------------------------------------------------------------- the curve
def test_curve_table_and_areas():
    pd = pytest.importorskip("pandas")
    y, c = _data(300, 3, ties=0.05)
    res = risk_coverage_curve(y, c)
    assert res.aurc == aurc(y, c) and res.e_aurc == e_aurc(y, c)
    assert res.accuracy == pytest.approx(y.mean())
    frame = res.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == [
        "threshold",
        "coverage",
        "risk",
        "accuracy",
        "n_answered",
    ]
    assert np.all(np.diff(frame["threshold"]) < 0) and frame["coverage"].iloc[-1] == 1.0
    for _, row in frame.iterrows():
        kept = c >= row["threshold"]
        assert row["coverage"] == pytest.approx(kept.mean())
        assert row["risk"] == pytest.approx(1 - y[kept].mean())
    # the area is the trapezoid under the plotted line, which starts at (0, r1)
    x = np.r_[0.0, res.coverage]
    r = np.r_[res.selective_risk[0], res.selective_risk]
    assert res.aurc == pytest.approx(_trapezoid(r, x), abs=1e-14)
    table = res.to_frame(coverage=[0.1, 0.5, 1.0])
    assert table["accuracy"].tolist() == pytest.approx(
        selective_accuracy(y, c, coverage=[0.1, 0.5, 1.0]).tolist()
    )
    assert res.accuracy_at(1.0) == pytest.approx(y.mean())
    assert "aurc" in res.summary() and repr(res).startswith("RiskCoverageResult(")


def test_selective_accuracy_inside_ties_is_the_average_over_orders():
    y = np.array([1, 0, 0, 1, 1, 0])
    c = np.array([0.9, 0.6, 0.6, 0.6, 0.4, 0.2])
    # coverage 0.5 keeps the 0.9 answer and 2 of the 3 tied at 0.6
    orders = list(itertools.permutations([1, 2, 3]))
    mean = np.mean([(y[0] + y[list(o[:2])].sum()) / 3 for o in orders])
    assert selective_accuracy(y, c, coverage=0.5) == pytest.approx(mean)
    # at a group boundary: the plain accuracy of the kept answers
    assert selective_accuracy(y, c, coverage=4 / 6) == pytest.approx(2 / 4)
    with pytest.raises(ValueError, match="^coverage must lie in \\(0, 1\\]"):
        selective_accuracy(y, c, coverage=0.0)


# --------------------------------------------------------------------------- weights
def _weighted(seed=5):
    y, c = _data(60, seed, ties=0.1)
    w = np.random.default_rng(seed).integers(0, 4, 60).astype(float)
    w[:2] = [2.0, 3.0]
    return y, c, w


CALLS = {
    "aurc": aurc,
    "e_aurc": e_aurc,
    "selective_accuracy": lambda y, c, **kw: selective_accuracy(y, c, coverage=0.37, **kw),
    "area": selective_coverage_accuracy_area,
    "top": lambda y, c, **kw: selective_accuracy_at_top(y, c, fraction=0.23, **kw),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_integer_weights_equal_repeated_rows(name):
    y, c, w = _weighted()
    rep = np.repeat(np.arange(60), w.astype(int))
    f = CALLS[name]
    assert f(y, c, sample_weight=w) == pytest.approx(f(y[rep], c[rep]), abs=1e-13)
    keep = w > 0
    assert f(y, c, sample_weight=w) == f(y[keep], c[keep], sample_weight=w[keep])


@pytest.mark.parametrize("name", ["aurc", "e_aurc", "selective_accuracy"])
def test_weight_scale_does_not_matter(name):
    y, c, w = _weighted()
    f = CALLS[name]
    for scale in (1e-200, 1e-3, 7.0, 1e200):
        assert f(y, c, sample_weight=w * scale) == pytest.approx(
            f(y, c, sample_weight=w), rel=1e-12, abs=1e-15
        )


def test_bootstrap_of_weights_equals_that_of_repeated_rows():
    y, c, w = _weighted()
    rep = np.repeat(np.arange(60), w.astype(int))
    a = risk_coverage_curve(y, c, sample_weight=w, n_resamples=40, random_state=3)
    b = risk_coverage_curve(y[rep], c[rep], n_resamples=40, random_state=3)
    np.testing.assert_allclose(a.n_answered, b.n_answered)
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    for metric in ("aurc", "e_aurc", "selective_risk"):
        np.testing.assert_allclose(
            a.confidence_interval(metric=metric),
            b.confidence_interval(metric=metric),
            atol=1e-13,
        )


# --------------------------------------------------------------------------- bootstrap
def test_bootstrap_intervals_and_bands():
    y, c = _data(400, 6)
    res = risk_coverage_curve(
        y, c, n_resamples=200, random_state=0, coverage_grid=[0.2, 1.0]
    )
    low, high = res.confidence_interval(0.9)
    assert low < res.aurc < high
    low, high = res.confidence_interval(metric="e_aurc", method="basic")
    assert low < res.e_aurc < high
    band = res.bands
    assert band.low.shape == (2,) and np.all(band.low <= band.high)
    assert band.low[1] <= 1 - res.accuracy <= band.high[1]
    again = risk_coverage_curve(
        y, c, n_resamples=200, random_state=0, coverage_grid=[0.2, 1.0], n_jobs=2
    )
    assert again.confidence_interval() == res.confidence_interval()
    d = res.to_dict()
    json.dumps(d)
    assert "bootstrap_replicates" not in d
    assert d["aurc_interval"]["low"] == res.confidence_interval(res.confidence_level).low
    with pytest.raises(ValueError, match="no bootstrap"):
        risk_coverage_curve(y, c).confidence_interval()
    with pytest.raises(ValueError, match="^sample_weight sums to"):
        risk_coverage_curve([1, 0], [0.3, 0.6], sample_weight=[1, 1], n_resamples=10)


# --------------------------------------------------------------------------- input errors
def test_errors_name_the_parameter():
    with pytest.raises(TypeError, match="^y_correct must hold booleans"):
        aurc(["correct", "wrong"], [0.2, 0.9])
    with pytest.raises(ValueError, match="^confidence"):
        aurc([1, 0], [0.2, 1.9])
    with pytest.raises(ValueError, match="^y_correct has 3 samples but confidence has 2"):
        aurc([1, 0, 1], [0.2, 0.9])
    with pytest.raises(ValueError, match="^y_correct has more than two classes"):
        aurc([1, 0, 2], [0.2, 0.9, 0.5])
    with pytest.raises(ValueError, match="^coverage_grid must lie in \\(0, 1\\]"):
        risk_coverage_curve([1, 0], [0.2, 0.9], coverage_grid=[0.0, 0.5])
    with pytest.raises(TypeError, match="^n_resamples"):
        risk_coverage_curve([1, 0], [0.2, 0.9], n_resamples=2.5)


@pytest.mark.parametrize(
    "labels",
    [[1, 2, 1, 1, 2], [0, 2, 0, 0, 2], [2, 2, 2, 2, 2], [0.5] * 5, [3, 0, 3, 3, 0]],
)
def test_correctness_other_than_0_1_is_refused(labels):
    # [1, 2] read 2 as "right" and [0.5] * 5 as all right: silent wrong numbers
    c = [0.9, 0.8, 0.7, 0.6, 0.5]
    with pytest.raises(ValueError, match="^y_correct must hold 0/1") as info:
        aurc(labels, c)
    assert "found" in str(info.value)
    with pytest.raises(ValueError, match="^y_correct must hold 0/1"):
        selective_accuracy(labels, c, coverage=0.5)


def test_correctness_encodings_agree():
    y, c = _data(60, 9)
    ref = aurc(y, c)
    assert aurc(y.astype(bool), c) == ref
    assert aurc(y.astype(float), c) == ref
    assert aurc(np.where(y == 1, 1, -1), c) == ref  # scikit-learn's -1/1
    assert aurc(pd.Series(y, dtype="Int64"), c) == ref
    # booleans in an object array (a column after NA handling) are booleans,
    # not "string labels" that need a pos_label
    assert aurc(y.astype(bool).astype(object), c) == ref
    assert aurc(np.ones(5), np.linspace(0.1, 0.9, 5)) == 0.0


def test_booleans_and_top_level_exports():
    y, c = _data(50, 8)
    assert skbrier.aurc(y.astype(bool), c) == aurc(y, c)
    assert skbrier.results.RiskCoverageResult is type(risk_coverage_curve(y, c))


def test_bootstrap_replicate_is_the_curve_of_its_resample():
    """Replicate ``b`` is the statistic of the ``b``-th resample that
    ``frequency_replicates`` draws: the rows' multiplicities as weights."""
    from skbrier._core.params import check_random_state
    from skbrier._core.resampling import chunk_size_for, frequency_resampler
    from skbrier.metrics.abstention import abstention_utility

    rng = np.random.default_rng(4)
    n, B = 150, 40
    conf = rng.uniform(0.05, 0.95, n)
    right = rng.uniform(size=n) < conf
    w = rng.integers(1, 4, n).astype(float)
    assert chunk_size_for(n) >= B  # one chunk: child 0 of the seed draws it all
    draw = frequency_resampler(w, n)
    child = check_random_state(5).spawn(1)[0]
    counts = np.stack([draw(child) for _ in range(B)])
    rc = risk_coverage_curve(right, conf, sample_weight=w, n_resamples=B, random_state=5)
    au = abstention_utility(right, conf, sample_weight=w, n_resamples=B, random_state=5)
    for b in (0, 17, B - 1):
        keep = counts[b] > 0
        wb, yb, cb = counts[b][keep], right[keep], conf[keep]
        assert rc.bootstrap_replicates["aurc"][b] == pytest.approx(
            aurc(yb, cb, sample_weight=wb), abs=1e-14
        )
        assert au.bootstrap_replicates["utility_area"][b] == pytest.approx(
            abstention_utility(yb, cb, sample_weight=wb).area, abs=1e-14
        )


def test_bootstrap_of_large_integer_weights_does_not_expand_the_rows():
    # integer weights summing to 1e8 were resampled as 1e8 expanded rows (0.8 GB
    # and seconds per resample: the call ran for minutes); beyond 2**24 rows the
    # observations are drawn as multinomial counts (the same law)
    import time

    y, c = _data(50, 3)
    w = np.random.default_rng(3).integers(1, 4, 50) * 1e6
    t0 = time.perf_counter()
    res = risk_coverage_curve(y, c, sample_weight=w, n_resamples=20, random_state=0)
    assert time.perf_counter() - t0 < 10.0
    low, high = res.confidence_interval()
    assert low <= res.aurc <= high and high - low < 1e-2  # 1e8 observations: narrow


def test_table_per_coverage_names_the_threshold_of_exactly_that_share():
    # coverage 0.07 of 100 answers is the 7 most confident: threshold 0.94
    # (0.07 * 100 = 7.000000000000001 named the 8th, 0.93)
    n = 100
    conf = np.arange(n, 0, -1) / n
    y = np.random.default_rng(5).integers(0, 2, n)
    cov = np.arange(1, n + 1) / n
    table = risk_coverage_curve(y, conf).to_frame(coverage=cov)
    np.testing.assert_array_equal(table["threshold"].to_numpy(), conf)
    w = np.full(n, 3.0)  # the same with weights
    table = risk_coverage_curve(y, conf, sample_weight=w).to_frame(coverage=cov)
    np.testing.assert_array_equal(table["threshold"].to_numpy(), conf)


def test_weights_summing_to_infinity_raise_without_a_numpy_warning():
    # two weights of 1e308 sum to inf: the ValueError says to rescale, and
    # numpy's "overflow encountered in reduce" no longer leaks before it
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="^sample_weight sums to more than 1.798e"):
            aurc([1, 0], [0.9, 0.2], sample_weight=[1e308, 1e308])


@pytest.mark.parametrize("name", ["aurc", "e_aurc"])
def test_subnormal_weights_give_the_areas_of_the_unscaled(name):
    # weights that are multiples of the smallest subnormal (5e-324): their sums
    # are exact, but the products n_j * r_j underflowed (AURC 0 for 0.125)
    y, c, w = _weighted()
    f = CALLS[name]
    tiny = w * 5e-324
    assert np.array_equal(tiny / 5e-324, w)  # exactly representable
    assert f(y, c, sample_weight=tiny) == pytest.approx(
        f(y, c, sample_weight=w), rel=1e-12, abs=1e-15
    )
    assert f([1, 0], [0.9, 0.2], sample_weight=[5e-324, 5e-324]) == pytest.approx(
        f([1, 0], [0.9, 0.2]), abs=1e-15
    )


def test_pandas_na_in_boolean_labels_is_a_missing_value_error():
    # a pandas "boolean" array with NA: "boolean value of NA is ambiguous"
    # (a TypeError from pandas) came out of the shared label check; now the
    # missing-value error that None and polars nulls give (brier_score too)
    y = pd.array([True, False, pd.NA], dtype="boolean")
    with pytest.raises(ValueError, match="^y_correct contains missing values .* index 2"):
        aurc(y, [0.2, 0.5, 0.9])
    with pytest.raises(ValueError, match="^y_true contains missing values"):
        skbrier.brier_score(y, [0.2, 0.5, 0.9])


@pytest.mark.parametrize("scale", [1e-300, 1e-310, 5e-324])
def test_selective_accuracy_and_aurc_at_tiny_weight_scales(scale):
    # the share c * W of a total weight of 1e-300 underflowed to 0: coverage
    # 1e-30 gave NaN (0 / 0); weights of 5e-324 also made the AURC 0.25, not 0.3449
    y = np.array([1, 0, 1, 1, 0, 1, 0])
    c = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.2])
    w = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 4.0])
    cov = [1e-30, 1e-10, 0.5, 1.0]
    ref = selective_accuracy(y, c, coverage=cov, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = selective_accuracy(y, c, coverage=cov, sample_weight=w * scale)
        areas = aurc(y, c, sample_weight=w * scale), e_aurc(y, c, sample_weight=w * scale)
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    assert areas == pytest.approx(
        (aurc(y, c, sample_weight=w), e_aurc(y, c, sample_weight=w)), rel=1e-12
    )


@pytest.mark.parametrize("scale", [5e-324, 1e-320, 1e300])
def test_risk_coverage_curve_at_odd_weight_scales(scale):
    # its AURC of weights of 5e-324 was rounded (0.0952 against 0.1074 in the
    # audit's case); the running
    # weights stay on the weights' own scale
    c = np.repeat([0.9, 0.7, 0.5, 0.3], 5)  # ties in every group
    y = np.resize([1, 0, 1, 1, 0, 0], 20)
    w = (np.arange(20) * 7 % 5 + 1).astype(float)
    ref = risk_coverage_curve(y, c, sample_weight=w)
    got = risk_coverage_curve(y, c, sample_weight=w * scale)
    assert (got.aurc, got.e_aurc) == pytest.approx((ref.aurc, ref.e_aurc), rel=1e-12)
    np.testing.assert_allclose(got.n_answered, ref.n_answered * scale, rtol=1e-15)
    np.testing.assert_allclose(got.n_correct, ref.n_correct * scale, rtol=1e-15)
