"""Tests of skbrier.metrics.decomposition (binned Murphy and CORP decompositions)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss

from skbrier._core.binning import assign_bins
from skbrier._core.binning import uniform_edges as _uniform_edges
from skbrier.metrics.decomposition import (
    BinStatistics,
    CORPDecomposition,
    MulticlassDecomposition,
    bin_edges,
    binned_statistics,
    corp_decomposition,
    murphy_decomposition,
    murphy_from_statistics,
)

# model-diagnostics' fixture (tests of model_diagnostics.scoring.decompose)
Y_MD = np.array([0, 0, 0, 1, 1, 1])
P_MD = np.array([0.4, 0.3, 0.2, 0.1, 0.5, 0.9])


def _data(n=2000, seed=0, ties=False, weights=False):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 3, n)
    if ties:
        p = np.round(p, 1)
    y = (rng.random(n) < np.clip(1.2 * p - 0.05, 0, 1)).astype(int)
    w = rng.gamma(2.0, 1.0, n) if weights else None
    return y, p, w


def _identity(d):
    return (
        d.reliability
        - d.resolution
        + d.uncertainty
        + d.within_bin_variance
        - d.within_bin_covariance
    )


# ----------------------------------------------------------------------------
# binned (Murphy) decomposition
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["uniform", "quantile", "edges"])
@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("bias_correction", [False, True])
def test_binned_identity_and_brier_score(strategy, weights, bias_correction):
    y, p, w = _data(weights=weights)
    if strategy == "edges":
        strategy = np.array([0.0, 0.05, 0.2, 0.33, 0.5, 0.8, 1.0])
    d = murphy_decomposition(
        y,
        p,
        n_bins=7,
        strategy=strategy,
        sample_weight=w,
        bias_correction=bias_correction,
    )
    assert abs(_identity(d) - d.brier_score) < 1e-12
    assert d.brier_score == pytest.approx(
        brier_score_loss(y, p, sample_weight=w), abs=1e-13
    )
    assert d.uncertainty >= 0 and d.reliability >= 0 and d.resolution >= 0
    assert isinstance(d.brier_score, float) and isinstance(d.reliability, float)


def test_binned_table_matches_sklearn_calibration_curve():
    y, p, _ = _data(n=5000, seed=3)
    d = murphy_decomposition(y, p, n_bins=10)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=10, strategy="uniform")
    nonempty = d.bin_counts > 0
    np.testing.assert_allclose(d.bin_observed_frequency[nonempty], prob_true, rtol=1e-12)
    np.testing.assert_allclose(d.bin_mean_forecast[nonempty], prob_pred, rtol=1e-12)
    counts, _ = np.histogram(p, bins=np.linspace(0, 1, 11))
    np.testing.assert_array_equal(d.bin_counts, counts)
    # REL and RES from the sklearn table
    n = len(y)
    c = counts[nonempty]
    rel = np.sum(c * (prob_pred - prob_true) ** 2) / n
    res = np.sum(c * (prob_true - y.mean()) ** 2) / n
    assert d.reliability == pytest.approx(rel, abs=1e-14)
    assert d.resolution == pytest.approx(res, abs=1e-14)


def test_quantile_bins_match_sklearn_calibration_curve():
    y, p, _ = _data(n=3000, seed=4)
    d = murphy_decomposition(y, p, n_bins=8, strategy="quantile")
    prob_true, prob_pred = calibration_curve(y, p, n_bins=8, strategy="quantile")
    np.testing.assert_allclose(d.bin_observed_frequency, prob_true, rtol=1e-12)
    np.testing.assert_allclose(d.bin_mean_forecast, prob_pred, rtol=1e-12)


@pytest.mark.parametrize("weights", [False, True])
def test_classic_murphy_when_bins_are_distinct_values(weights):
    y, p, w = _data(n=3000, seed=5, ties=True, weights=weights)
    values = np.unique(p)
    edges = np.concatenate([[0.0], (values[1:] + values[:-1]) / 2, [1.0]])
    d = murphy_decomposition(y, p, strategy=edges, sample_weight=w)
    assert d.within_bin_variance == pytest.approx(0.0, abs=1e-15)
    assert d.within_bin_covariance == pytest.approx(0.0, abs=1e-15)
    # Murphy (1973) written out directly, one group per distinct forecast
    ww = np.ones_like(p) if w is None else w
    W = ww.sum()
    obar = np.dot(ww, y) / W
    rel = res = 0.0
    for v in values:
        m = p == v
        ok = np.dot(ww[m], y[m]) / ww[m].sum()
        rel += ww[m].sum() * (v - ok) ** 2 / W
        res += ww[m].sum() * (ok - obar) ** 2 / W
    assert d.reliability == pytest.approx(rel, abs=1e-14)
    assert d.resolution == pytest.approx(res, abs=1e-14)
    assert d.uncertainty == pytest.approx(obar * (1 - obar), abs=1e-15)
    assert d.reliability - d.resolution + d.uncertainty == pytest.approx(
        brier_score_loss(y, p, sample_weight=w), abs=1e-13
    )


def test_model_diagnostics_fixture_binned():
    # right=False (the former rule): an edge value goes to the upper bin
    d = murphy_decomposition(Y_MD, P_MD, n_bins=2, right=False)
    # bins [0, .5): p = .4 .3 .2 .1 with y = 0 0 0 1; [.5, 1]: p = .5 .9, y = 1 1
    assert d.bin_counts.tolist() == [4, 2]
    assert d.reliability == pytest.approx((4 * 0**2 + 2 * 0.3**2) / 6)
    assert d.resolution == pytest.approx((4 * 0.25**2 + 2 * 0.5**2) / 6)
    assert d.uncertainty == 0.25
    assert abs(_identity(d) - d.brier_score) < 1e-15
    # default (one rule in the library): p = .5 on the edge is in the lower bin
    d = murphy_decomposition(Y_MD, P_MD, n_bins=2)
    assert d.bin_counts.tolist() == [5, 1]
    assert d.reliability == pytest.approx((5 * (0.3 - 0.4) ** 2 + 1 * 0.1**2) / 6)
    assert abs(_identity(d) - d.brier_score) < 1e-15


def test_uniform_binning_agrees_with_the_edges():
    # values exactly on (rounded) edges k/K, where p*K may round across the edge;
    # the one binning rule (issue item 10): an edge value goes to the LOWER bin
    # by default (right=True), to the upper bin with right=False
    for k in [3, 7, 10, 49, 97, 100]:
        edges = _uniform_edges(k)
        p = np.concatenate([edges, np.nextafter(edges, 2), np.nextafter(edges, -1)])
        p = np.clip(p, 0, 1)
        fast = assign_bins(p, edges)
        slow = np.clip(np.searchsorted(edges, p, side="left") - 1, 0, k - 1)
        np.testing.assert_array_equal(fast, slow)
        upper = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, k - 1)
        np.testing.assert_array_equal(assign_bins(p, edges, right=False), upper)
        assert edges[0] == 0.0 and edges[-1] == 1.0


def test_explicit_uniform_edges_equal_n_bins():
    y, p, w = _data(weights=True)
    a = murphy_decomposition(y, p, n_bins=5, sample_weight=w)
    b = murphy_decomposition(y, p, strategy=np.arange(6) / 5, sample_weight=w)
    assert a.components == b.components


@pytest.mark.parametrize("weights", [False, True])
def test_chunked_statistics_merge_exactly(weights):
    y, p, w = _data(n=3001, seed=7, weights=weights)
    y = y.astype(float)
    edges = _uniform_edges(10)
    whole = binned_statistics(y, p, w, edges)
    cuts = [0, 5, 999, 1000, 2500, 3001]
    parts = [
        binned_statistics(y[a:b], p[a:b], None if w is None else w[a:b], edges)
        for a, b in itertools.pairwise(cuts)
    ]
    merged = sum(parts)
    assert isinstance(merged, BinStatistics)
    merged2 = BinStatistics.empty(edges)
    for s in parts:
        merged2 = merged2.merge(s)
    for m in (merged, merged2):
        np.testing.assert_array_equal(m.count, whole.count)
        for name in ("sum_w", "sum_wp", "sum_wy", "sum_wpp", "sum_wpy", "sum_ww"):
            np.testing.assert_allclose(
                getattr(m, name), getattr(whole, name), rtol=1e-13, atol=1e-12
            )
        for bc in (False, True):
            a = murphy_from_statistics(m, bias_correction=bc).components
            b = murphy_from_statistics(whole, bias_correction=bc).components
            for key in a:
                assert a[key] == pytest.approx(b[key], abs=1e-13)
    assert (
        murphy_from_statistics(whole).components
        == murphy_decomposition(y, p, sample_weight=w).components
    )
    assert whole.n_samples == 3001


def test_merge_rejects_different_edges():
    y, p, _ = _data(n=50)
    a = binned_statistics(y.astype(float), p, None, 5)
    b = binned_statistics(y.astype(float), p, None, 4)
    with pytest.raises(ValueError, match="edges"):
        a.merge(b)
    with pytest.raises(TypeError, match="other"):
        a.merge(3)
    with pytest.raises(ValueError, match="no data"):
        murphy_from_statistics(BinStatistics.empty(np.arange(3) / 2))


def test_unit_weights_equal_no_weights():
    y, p, _ = _data()
    for bc in (False, True):
        a = murphy_decomposition(y, p, bias_correction=bc).components
        b = murphy_decomposition(
            y, p, bias_correction=bc, sample_weight=np.ones(len(y))
        ).components
        for key in a:
            assert a[key] == pytest.approx(b[key], abs=1e-14)


def test_to_frame_binned():
    pd = pytest.importorskip("pandas")
    d = murphy_decomposition(Y_MD, P_MD, n_bins=4)
    f = d.to_frame()
    assert isinstance(f, pd.DataFrame)
    assert list(f.columns) == [
        "lower",
        "upper",
        "count",
        "weight",
        "mean_forecast",
        "observed_frequency",
    ]
    assert len(f) == 4 and f["count"].sum() == 6


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"n_bins": 0}, ValueError, "n_bins"),
        ({"n_bins": 2.5}, TypeError, "n_bins"),
        ({"strategy": "kmeans"}, ValueError, "strategy"),
        ({"strategy": [0.0, 0.5, 0.5, 1.0]}, ValueError, "strategy"),
        ({"strategy": [0.2, 1.0]}, ValueError, "strategy"),
        ({"strategy": [0.0, np.nan, 1.0]}, ValueError, "strategy"),
        ({"strategy": [[0.0, 1.0]]}, ValueError, "strategy"),
        ({"bias_correction": "yes"}, TypeError, "bias_correction"),
        ({"sample_weight": [1, 1, 1]}, ValueError, "sample_weight"),
        ({"sample_weight": [1, 1, 1, -1, 1, 1]}, ValueError, "sample_weight"),
    ],
)
def test_murphy_bad_options(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        murphy_decomposition(Y_MD, P_MD, **kwargs)


@pytest.mark.parametrize(
    "y, p, exc, match",
    [
        ([0, 1, 1], [0.2, np.nan, 0.3], ValueError, "y_proba"),
        ([0, 1, 1], [0.2, 1.3, 0.3], ValueError, "y_proba"),
        ([0, 1], [0.2, 0.5, 0.3], ValueError, "samples"),
        ([], [], ValueError, "empty"),
        ([0, 1, 2], [0.2, 0.5, 0.3], ValueError, "y_true"),
        (["a", "b", "a"], [0.2, 0.5, 0.3], ValueError, "pos_label"),
    ],
)
def test_murphy_bad_input(y, p, exc, match):
    with pytest.raises(exc, match=match):
        murphy_decomposition(y, p)


def test_multiclass_murphy_adds_up_to_sklearn():
    rng = np.random.default_rng(11)
    P = rng.dirichlet([1, 2, 3], 500)
    y = np.array([rng.choice(3, p=row) for row in P])
    w = rng.random(500)
    d = murphy_decomposition(y, P, sample_weight=w, n_bins=5)
    assert d.decomposition_method == "murphy" and len(d.per_class) == 3
    assert d.brier_score == pytest.approx(
        brier_score_loss(y, P, sample_weight=w, scale_by_half=False), abs=1e-13
    )
    assert abs(_identity(d) - d.brier_score) < 1e-12
    assert d.reliability == pytest.approx(sum(c.reliability for c in d.per_class))
    f = d.to_frame()
    assert f["class"].tolist() == [0, 1, 2]
    # two columns: the binary decomposition of the second class
    P2 = np.column_stack([1 - P[:, 0], P[:, 0]])
    y2 = (y == 0).astype(int)
    a = murphy_decomposition(y2, P2).components
    b = murphy_decomposition(y2, P[:, 0]).components
    assert a == b


# ----------------------------------------------------------------------------
# CORP decomposition
# ----------------------------------------------------------------------------


def _md_decompose(y, p, w=None):
    md = pytest.importorskip("model_diagnostics.scoring")
    df = md.decompose(y, p, weights=w, scoring_function=md.SquaredError())
    row = df.row(0, named=True)
    return row


def test_model_diagnostics_fixture_corp():
    d = corp_decomposition(Y_MD, P_MD)
    assert d.miscalibration == pytest.approx(0.1016667, abs=1e-7)
    assert d.discrimination == pytest.approx(0.125, abs=1e-15)
    assert d.uncertainty == 0.25
    assert d.brier_score == pytest.approx(brier_score_loss(Y_MD, P_MD), abs=1e-15)
    np.testing.assert_allclose(d.forecast_values, np.sort(P_MD))
    np.testing.assert_allclose(d.recalibrated_values, [0.25] * 4 + [1, 1])


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_corp_equals_model_diagnostics(ties, weights):
    y, p, w = _data(n=3000, seed=21, ties=ties, weights=weights)
    d = corp_decomposition(y, p, sample_weight=w)
    ref = _md_decompose(y, p, w)
    assert d.miscalibration == pytest.approx(ref["miscalibration"], abs=1e-10)
    assert d.discrimination == pytest.approx(ref["discrimination"], abs=1e-10)
    assert d.uncertainty == pytest.approx(ref["uncertainty"], abs=1e-10)
    assert d.brier_score == pytest.approx(ref["score"], abs=1e-10)
    assert abs(d.miscalibration - d.discrimination + d.uncertainty - d.brier_score) < 1e-14


def test_corp_step_function_equals_sklearn_isotonic():
    y, p, w = _data(n=2000, seed=22, ties=True, weights=True)
    d = corp_decomposition(y, p, sample_weight=w)
    iso = IsotonicRegression(out_of_bounds="clip").fit(p, y, sample_weight=w)
    np.testing.assert_allclose(
        d.recalibrated_values, iso.predict(d.forecast_values), atol=1e-12
    )
    np.testing.assert_allclose(d.predict(p), iso.predict(p), atol=1e-12)
    grid = np.linspace(0, 1, 101)
    np.testing.assert_allclose(
        d.predict(grid, interpolation="linear"), iso.predict(grid), atol=1e-12
    )
    # step: the value at the largest fitted forecast <= t
    i = np.clip(np.searchsorted(d.forecast_values, grid, side="right") - 1, 0, None)
    np.testing.assert_array_equal(d.predict(grid), d.recalibrated_values[i])
    assert np.all(np.diff(d.recalibrated_values) >= 0)
    np.testing.assert_array_equal(d.value_counts, np.unique(p, return_counts=True)[1])
    with pytest.raises(ValueError, match="interpolation"):
        d.predict(grid, interpolation="cubic")


def test_corp_zero_weights_and_negative_zero():
    y = np.array([0, 1, 0, 1, 1, 0, 1])
    p = np.array([-0.0, 0.0, 0.2, 0.2, 0.7, 0.9, 1.0])
    w = np.array([1.0, 2.0, 0.0, 1.0, 1.0, 0.0, 3.0])
    d = corp_decomposition(y, p, sample_weight=w)
    keep = w > 0
    e = corp_decomposition(y[keep], np.abs(p[keep]), sample_weight=w[keep])
    assert d.components == e.components
    assert d.n_samples == 7
    ref = _md_decompose(y, p, w)
    assert d.miscalibration == pytest.approx(ref["miscalibration"], abs=1e-12)
    u = corp_decomposition(y, p)  # unweighted, -0.0 and 0.0 pooled
    assert u.forecast_values[0] == 0.0 and u.value_counts[0] == 2


def test_corp_constant_forecast_and_outcome():
    d = corp_decomposition([1, 1, 1], [0.7, 0.7, 0.7])
    assert d.uncertainty == 0.0
    assert d.discrimination == pytest.approx(0.0, abs=1e-15)
    assert d.miscalibration == pytest.approx(0.09)
    d = corp_decomposition([0, 1, 0, 1], [0.5] * 4, n_resamples=20, random_state=1)
    assert d.miscalibration == 0.0 and d.discrimination == 0.0
    assert d.band_lower.shape == (1,)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.integers(0, 10), st.integers(0, 3)),
        min_size=1,
        max_size=30,
    ).filter(lambda rows: sum(r[2] for r in rows) > 0),
    st.randoms(use_true_random=False),
)
def test_corp_integer_weights_equal_repeated_rows(rows, rnd):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows]) / 10
    w = np.array([r[2] for r in rows], dtype=float)
    d = corp_decomposition(y, p, sample_weight=w)
    rep = np.repeat(np.arange(len(rows)), w.astype(int))
    e = corp_decomposition(y[rep], p[rep])
    for key, value in d.components.items():
        assert value == pytest.approx(e.components[key], abs=1e-12)
    # sample order does not matter
    perm = list(range(len(rows)))
    rnd.shuffle(perm)
    f = corp_decomposition(y[perm], p[perm], sample_weight=w[perm])
    for key, value in d.components.items():
        assert value == pytest.approx(f.components[key], abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 20)), min_size=2, max_size=40),
    st.randoms(use_true_random=False),
)
def test_murphy_and_corp_order_invariance(rows, rnd):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows]) / 20
    perm = list(range(len(rows)))
    rnd.shuffle(perm)
    for f in (corp_decomposition, murphy_decomposition):
        a, b = f(y, p), f(y[perm], p[perm])
        for key, value in a.components.items():
            assert value == pytest.approx(b.components[key], abs=1e-13)
    d = murphy_decomposition(y, p, n_bins=4)
    assert abs(_identity(d) - d.brier_score) < 1e-12


@pytest.mark.parametrize("weights", [False, True])
def test_corp_resampling(weights):
    y, p, w = _data(n=400, seed=31, ties=True, weights=weights)
    d = corp_decomposition(
        y, p, sample_weight=w, n_resamples=40, random_state=7, confidence_level=0.9
    )
    g = d.forecast_values.shape[0]
    assert d.band_forecast.shape == d.band_lower.shape == d.band_upper.shape == (g,)
    assert np.all(d.band_lower <= d.band_upper)
    assert np.all((d.band_lower >= 0) & (d.band_upper <= 1))
    assert d.bootstrap_distribution.shape == (40, 4)
    boot = d.bootstrap_distribution
    np.testing.assert_allclose(boot[:, 1] - boot[:, 2] + boot[:, 3], boot[:, 0], atol=1e-14)
    assert 0 < d.miscalibration_pvalue <= 1
    ci = d.confidence_interval(metric="brier_score")
    assert ci.low <= d.brier_score <= ci.high
    assert d.confidence_interval(metric="uncertainty", confidence_level=0.5).low >= ci.low
    # reproducible, and independent of how the work is split
    e = corp_decomposition(
        y, p, sample_weight=w, n_resamples=40, random_state=7, confidence_level=0.9
    )
    np.testing.assert_array_equal(d.band_lower, e.band_lower)
    np.testing.assert_array_equal(d.bootstrap_distribution, e.bootstrap_distribution)
    f = corp_decomposition(
        y,
        p,
        sample_weight=w,
        n_resamples=40,
        random_state=np.random.default_rng(7),
        confidence_level=0.9,
    )
    np.testing.assert_array_equal(d.bootstrap_distribution, f.bootstrap_distribution)
    with pytest.raises(ValueError, match="^metric"):
        d.confidence_interval(metric="skill")
    with pytest.raises(ValueError, match="confidence_level"):
        d.confidence_interval(confidence_level=1.5)
    pd = pytest.importorskip("pandas")
    frame = d.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == [
        "forecast",
        "recalibrated",
        "weight",
        "count",
        "band_lower",
        "band_upper",
    ]


@pytest.mark.slow
def test_corp_n_jobs_gives_the_same_numbers():
    y, p, _ = _data(n=300, seed=32)
    a = corp_decomposition(y, p, n_resamples=40, random_state=3)
    b = corp_decomposition(y, p, n_resamples=40, random_state=3, n_jobs=2)
    np.testing.assert_array_equal(a.bootstrap_distribution, b.bootstrap_distribution)
    np.testing.assert_array_equal(a.band_upper, b.band_upper)


def test_corp_calibration_test_detects_miscalibration():
    rng = np.random.default_rng(5)
    p = rng.random(2000)
    y = (rng.random(2000) < p).astype(int)
    calibrated = corp_decomposition(y, p, n_resamples=99, random_state=0)
    assert calibrated.miscalibration_pvalue > 0.01
    # most of the recalibration curve lies inside the band
    inside = (calibrated.recalibrated_values >= calibrated.band_lower - 1e-12) & (
        calibrated.recalibrated_values <= calibrated.band_upper + 1e-12
    )
    assert inside.mean() > 0.8
    bad = corp_decomposition(y, p**2, n_resamples=99, random_state=0)
    assert bad.miscalibration_pvalue == pytest.approx(0.01)


def test_corp_band_is_capped_for_many_distinct_forecasts():
    rng = np.random.default_rng(6)
    p = rng.random(5000)
    y = (rng.random(5000) < p).astype(int)
    d = corp_decomposition(y, p, n_resamples=2, random_state=0)
    assert d.band_forecast.shape[0] == 2000
    assert np.all(np.isin(d.band_forecast, d.forecast_values))
    assert d.to_frame()["band_lower"].notna().sum() == 2000


def test_corp_without_resamples_has_no_intervals():
    d = corp_decomposition(Y_MD, P_MD)
    assert d.band_lower is None and d.miscalibration_pvalue is None
    with pytest.raises(ValueError, match="n_resamples"):
        d.confidence_interval()


def test_multiclass_corp_adds_up_to_sklearn():
    rng = np.random.default_rng(12)
    P = rng.dirichlet([1, 2, 3], 600)
    P = np.round(P, 2)
    # exact two-decimal values (1 - a - b would create near-ties that
    # scikit-learn's IsotonicRegression pools within 1e-15 and CORP does not)
    P[:, 2] = np.round(1 - P[:, 0] - P[:, 1], 2)
    P = np.clip(P, 0, 1)
    labels = np.array(["a", "b", "c"])
    y = labels[[rng.choice(3, p=row / row.sum()) for row in P]]
    w = rng.random(600)
    d = corp_decomposition(y, P, sample_weight=w)
    assert isinstance(d, MulticlassDecomposition) and d.decomposition_method == "corp"
    assert d.classes.tolist() == ["a", "b", "c"]
    assert all(isinstance(c, CORPDecomposition) for c in d.per_class)
    assert d.brier_score == pytest.approx(
        brier_score_loss(y, P, sample_weight=w, scale_by_half=False), abs=1e-13
    )
    assert d.miscalibration - d.discrimination + d.uncertainty == pytest.approx(
        d.brier_score, abs=1e-13
    )
    for j, c in enumerate(d.per_class):
        ref = _md_decompose((y == labels[j]).astype(float), P[:, j], w)
        assert c.miscalibration == pytest.approx(ref["miscalibration"], abs=1e-10)
        assert c.discrimination == pytest.approx(ref["discrimination"], abs=1e-10)
    f = d.to_frame()
    assert f.shape == (3, 5)
    assert "MulticlassDecomposition(decomposition_method='corp'" in repr(d)
    with pytest.raises(AttributeError):
        _ = d.reliability
    # resampling per class
    r = corp_decomposition(y, P, n_resamples=5, random_state=0)
    assert all(c.bootstrap_distribution.shape == (5, 4) for c in r.per_class)


def test_two_column_input_with_pos_label():
    y = np.array(["no", "yes", "yes", "no", "yes"])
    p = np.array([0.2, 0.6, 0.9, 0.4, 0.3])
    P = np.column_stack([1 - p, p])
    a = corp_decomposition(y, P)
    b = corp_decomposition(y, p, pos_label="yes")
    c = corp_decomposition(y, P, pos_label="no")
    d = corp_decomposition(y, 1 - p, pos_label="no")
    assert a.components == b.components
    assert c.components == d.components


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"n_resamples": -1}, ValueError, "n_resamples"),
        ({"n_resamples": 2.0}, TypeError, "n_resamples"),
        ({"confidence_level": 1.0}, ValueError, "confidence_level"),
        ({"confidence_level": "high"}, TypeError, "confidence_level"),
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"n_jobs": 1.5}, TypeError, "n_jobs"),
        ({"random_state": "seed"}, TypeError, "random_state"),
        ({"random_state": -3}, ValueError, "random_state"),
        ({"sample_weight": [0, 0, 0, 0, 0, 0]}, ValueError, "sample_weight"),
        ({"sample_weight": [1, 1, np.inf, 1, 1, 1]}, ValueError, "sample_weight"),
    ],
)
def test_corp_bad_options(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        corp_decomposition(Y_MD, P_MD, **kwargs)


@pytest.mark.parametrize(
    "y, p, exc, match",
    [
        ([0, 1, 1], [0.2, np.inf, 0.3], ValueError, "y_proba"),
        ([0, 1, 1], [0.2, -0.1, 0.3], ValueError, "y_proba"),
        ([0, 1, 1, 1], [0.2, 0.5, 0.3], ValueError, "samples"),
        ([0, 1, 2], [0.2, 0.5, 0.3], ValueError, "y_true"),
        ([0, 1, np.nan], [0.2, 0.5, 0.3], ValueError, "y_true"),
        ([0, 1, 1], ["a", "b", "c"], TypeError, "y_proba"),
        ([0, 1, 2], [[0.2, 0.8], [0.5, 0.5], [0.3, 0.7]], ValueError, "columns"),
    ],
)
def test_corp_bad_input(y, p, exc, match):
    with pytest.raises(exc, match=match):
        corp_decomposition(y, p)


# ----------------------------------------------------------------------------
# reference values computed in R (tests/fixtures/make_decomposition_fixtures.R)
# ----------------------------------------------------------------------------

FIXTURE = Path(__file__).parent / "fixtures" / "decomposition_reference.json"


@pytest.fixture(scope="module")
def rref():
    with open(FIXTURE) as fh:
        ref = json.load(fh)
    for key in ("y", "p", "w", "edges"):
        ref[key] = np.asarray(ref[key], dtype=float)
    return ref


@pytest.mark.parametrize(
    "key, weighted, strategy",
    [
        ("murphy_uniform10", False, "uniform"),
        ("murphy_uniform10_weighted", True, "uniform"),
        ("murphy_edges_weighted", True, "edges"),
    ],
)
def test_murphy_equals_r_reference(rref, key, weighted, strategy):
    exp = rref[key]
    strategy = rref["edges"] if strategy == "edges" else strategy
    d = murphy_decomposition(
        rref["y"],
        rref["p"],
        n_bins=10,
        strategy=strategy,
        sample_weight=rref["w"] if weighted else None,
    )
    for name in (
        "brier_score",
        "reliability",
        "resolution",
        "uncertainty",
        "within_bin_variance",
        "within_bin_covariance",
    ):
        assert getattr(d, name) == pytest.approx(exp[name], abs=1e-12), name
    np.testing.assert_array_equal(d.bin_counts, exp["bin_counts"])
    fk = np.array([np.nan if v is None else v for v in exp["bin_mean_forecast"]])
    ok = np.array([np.nan if v is None else v for v in exp["bin_observed_frequency"]])
    np.testing.assert_allclose(d.bin_mean_forecast, fk, atol=1e-12)
    np.testing.assert_allclose(d.bin_observed_frequency, ok, atol=1e-12)


@pytest.mark.parametrize(
    "key, strategy",
    [("ferro_fricker_uniform10", "uniform"), ("ferro_fricker_edges", "edges")],
)
def test_ferro_fricker_equals_r_reference(rref, key, strategy):
    exp = rref[key]
    strategy = rref["edges"] if strategy == "edges" else strategy
    d = murphy_decomposition(
        rref["y"], rref["p"], n_bins=10, strategy=strategy, bias_correction=True
    )
    assert d.bias_correction
    assert d.reliability == pytest.approx(exp["reliability"], abs=1e-12)
    assert d.resolution == pytest.approx(exp["resolution"], abs=1e-12)
    assert d.uncertainty == pytest.approx(exp["uncertainty"], abs=1e-12)
    assert abs(_identity(d) - d.brier_score) < 1e-12


def test_ferro_fricker_keeps_components_non_negative():
    # tiny sample: the corrected reliability would be negative
    y = np.array([0, 1, 0, 1, 1, 0])
    p = np.array([0.1, 0.15, 0.5, 0.55, 0.9, 0.95])
    d = murphy_decomposition(y, p, n_bins=3, bias_correction=True)
    raw = murphy_decomposition(y, p, n_bins=3)
    assert d.reliability >= 0 and d.resolution >= 0
    assert abs(_identity(d) - d.brier_score) < 1e-14
    assert d.reliability - d.resolution == pytest.approx(
        raw.reliability - raw.resolution - (d.uncertainty - raw.uncertainty), abs=1e-14
    )


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_ferro_fricker_integer_weights_equal_repeated_rows(strategy):
    # the issue: reliability 0.0 with integer weights against 0.009 on the
    # repeated rows (the correction read Kish effective sizes, not frequencies)
    rng = np.random.default_rng(21)
    p = np.round(rng.uniform(0.05, 0.95, 60), 2)
    y = (rng.random(60) < p).astype(int)
    w = rng.integers(0, 5, 60)
    kw = {"n_bins": 5, "strategy": strategy, "bias_correction": True}
    got = murphy_decomposition(y, p, sample_weight=w, **kw)
    ref = murphy_decomposition(np.repeat(y, w), np.repeat(p, w), **kw)
    for key, value in ref.components.items():
        assert got.components[key] == pytest.approx(value, rel=1e-10, abs=1e-14), key
    lo, hi = got.observed_frequency_interval()
    rlo, rhi = ref.observed_frequency_interval()
    np.testing.assert_allclose(lo, rlo, rtol=1e-12)
    np.testing.assert_allclose(hi, rhi, rtol=1e-12)
    # merged chunks: the same correction
    s = binned_statistics(y[:30], p[:30], w[:30], 5) + binned_statistics(
        y[30:], p[30:], w[30:], 5
    )
    if strategy == "uniform":
        merged = murphy_from_statistics(s, bias_correction=True)
        assert merged.reliability == pytest.approx(ref.reliability, rel=1e-10, abs=1e-14)


def test_ferro_fricker_refuses_fewer_than_three_observations():
    y, p = np.array([0, 1, 1, 0]), np.array([0.2, 0.7, 0.6, 0.4])
    with pytest.raises(ValueError, match="sample_weight sums to 2: .*bias_correction"):
        murphy_decomposition(y, p, sample_weight=np.full(4, 0.5), bias_correction=True)
    with pytest.raises(ValueError, match="y_true has 2 samples"):
        murphy_decomposition(y[:2], p[:2], bias_correction=True)
    assert murphy_decomposition(y[:2], p[:2]).brier_score >= 0  # no correction: fine


def test_corp_equals_r_isoreg(rref):
    exp = rref["corp"]
    assert np.unique(rref["p"]).shape[0] == rref["p"].shape[0]  # no ties
    d = corp_decomposition(rref["y"], rref["p"])
    for name in ("brier_score", "miscalibration", "discrimination", "uncertainty"):
        assert getattr(d, name) == pytest.approx(exp[name], abs=1e-12), name
    np.testing.assert_allclose(d.forecast_values, exp["forecast"], rtol=1e-14)
    np.testing.assert_allclose(d.recalibrated_values, exp["recalibrated"], atol=1e-12)


# ----------------------------------------------------------------------------
# binned bootstrap, pickling, labels
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("weights", [False, True])
def test_murphy_bootstrap(weights):
    y, p, w = _data(n=500, seed=41, weights=weights)
    d = murphy_decomposition(
        y, p, sample_weight=w, n_resamples=50, random_state=2, bias_correction=True
    )
    boot = d.bootstrap_distribution
    assert boot.shape == (50, 6)
    # the identity holds in every replicate
    np.testing.assert_allclose(
        boot[:, 1] - boot[:, 2] + boot[:, 3] + boot[:, 4] - boot[:, 5],
        boot[:, 0],
        atol=1e-12,
    )
    for name in ("brier_score", "reliability", "resolution", "uncertainty"):
        ci = d.confidence_interval(metric=name)
        assert ci.low < ci.high
        np.testing.assert_allclose(
            ci,
            np.quantile(
                boot[
                    :,
                    ["brier_score", "reliability", "resolution", "uncertainty"].index(name),
                ],
                [0.025, 0.975],
            ),
        )
    ci = d.confidence_interval(metric="brier_score")
    assert ci.low <= d.brier_score <= ci.high
    e = murphy_decomposition(
        y, p, sample_weight=w, n_resamples=50, random_state=2, bias_correction=True
    )
    np.testing.assert_array_equal(boot, e.bootstrap_distribution)
    with pytest.raises(ValueError, match="^metric"):
        d.confidence_interval(metric="miscalibration")
    with pytest.raises(ValueError, match="n_resamples"):
        murphy_decomposition(y, p).confidence_interval()
    with pytest.raises(ValueError, match="n_resamples"):
        murphy_decomposition(y, p, n_resamples=-2)


def test_murphy_bootstrap_replicate_is_a_resample():
    # one replicate equals the decomposition of the resampled rows
    y, p, _ = _data(n=200, seed=42)
    d = murphy_decomposition(y, p, n_resamples=2, random_state=5)
    rng = np.random.default_rng(5).spawn(1)[0]
    rows = rng.integers(0, 200, 200)
    ref = murphy_decomposition(y[rows], p[rows])
    np.testing.assert_allclose(
        d.bootstrap_distribution[0], [ref.components[k] for k in ref.components], atol=1e-14
    )


def test_results_pickle():
    import pickle

    y, p, w = _data(n=100, seed=43, weights=True)
    for obj in (
        murphy_decomposition(y, p, sample_weight=w),
        corp_decomposition(y, p, n_resamples=3, random_state=0),
        binned_statistics(y.astype(float), p, w, 10),
        corp_decomposition(np.arange(30) % 3, np.full((30, 3), 1 / 3)),
    ):
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj)
        if hasattr(obj, "components"):
            assert back.components == obj.components


def test_multiclass_labels_with_an_absent_class():
    rng = np.random.default_rng(44)
    P = rng.dirichlet([1, 1, 1, 0.2], 200)
    y = rng.integers(0, 3, 200)  # class 3 never occurs
    for f in (murphy_decomposition, corp_decomposition):
        d = f(y, P, labels=[0, 1, 2, 3])
        assert d.classes.tolist() == [0, 1, 2, 3]
        assert d.per_class[3].uncertainty == 0.0
        assert d.brier_score == pytest.approx(
            brier_score_loss(y, P, labels=[0, 1, 2, 3], scale_by_half=False), abs=1e-13
        )


def test_binned_statistics_with_dask():
    dask = pytest.importorskip("dask")
    y, p, w = _data(n=1000, seed=45, weights=True)
    y = y.astype(float)
    edges = _uniform_edges(10)
    chunks = [(y[i : i + 300], p[i : i + 300], w[i : i + 300]) for i in range(0, 1000, 300)]
    parts = [dask.delayed(binned_statistics)(a, b, c, edges) for a, b, c in chunks]
    stats = dask.delayed(sum)(parts).compute(scheduler="synchronous")
    a = murphy_from_statistics(stats).components
    b = murphy_decomposition(y, p, sample_weight=w).components
    for key in a:
        assert a[key] == pytest.approx(b[key], abs=1e-13)


def test_quantile_strategy_edge_cases():
    d = murphy_decomposition([0, 1, 1], [0.3, 0.3, 0.3], strategy="quantile")
    assert d.bin_edges.tolist() == [0.0, 1.0]
    assert d.reliability == pytest.approx((0.3 - 2 / 3) ** 2)
    assert d.resolution == 0.0
    # ties collapse duplicate quantile edges
    y, p, w = _data(n=500, seed=46, ties=True, weights=True)
    d = murphy_decomposition(y, p, n_bins=20, strategy="quantile", sample_weight=w)
    assert d.n_bins < 20 and np.all(np.diff(d.bin_edges) > 0)
    assert d.bin_edges[0] == p.min() and d.bin_edges[-1] == p.max()
    assert abs(_identity(d) - d.brier_score) < 1e-12


def test_basic_interval_corrects_the_upward_bias_of_resampled_miscalibration():
    import numpy as np

    from skbrier.metrics.decomposition import corp_decomposition, murphy_decomposition

    rng = np.random.default_rng(0)
    p = rng.random(2000)
    y = (rng.random(2000) < p).astype(int)  # calibrated: MCB is small
    d = corp_decomposition(y, p, n_resamples=200, random_state=0)
    pct = d.confidence_interval(metric="miscalibration")
    basic = d.confidence_interval(metric="miscalibration", method="basic")
    est = d.miscalibration
    # reflected quantiles: basic = (2t - q_hi, 2t - q_lo), clipped at 0
    assert basic.high == pytest.approx(2 * est - pct.low)
    assert basic.low == pytest.approx(max(0.0, 2 * est - pct.high))
    # the estimate is biased upward like its resamples: the percentile interval
    # lies above it, the reflected one is shifted down by twice the bias
    assert pct.low > est and basic.high < pct.high
    m = murphy_decomposition(y, p, n_resamples=100, random_state=0)
    b = m.confidence_interval(metric="reliability", method="basic")
    q = m.confidence_interval(metric="reliability")
    assert b.high == pytest.approx(2 * m.reliability - q.low)
    with pytest.raises(ValueError, match="method"):
        d.confidence_interval(metric="miscalibration", method="bca")


def test_bin_edges_checks_the_weights():
    # all-zero weights raised a bare IndexError from the quantiles
    p = np.array([0.1, 0.2, 0.3, 0.9])
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        bin_edges(p, n_bins=2, strategy="quantile", sample_weight=[0, 0, 0, 0])
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        bin_edges(p, n_bins=2, strategy="quantile", sample_weight=[1, -1, 1, 1])
    # integer weights: the edges of the repeated rows
    rep = np.repeat(p, [1, 1, 1, 5])
    np.testing.assert_array_equal(
        bin_edges(p, n_bins=3, strategy="quantile", sample_weight=[1, 1, 1, 5]),
        bin_edges(rep, n_bins=3, strategy="quantile"),
    )


@pytest.mark.parametrize(
    ("p", "match"),
    [
        ([0.1, np.nan, 0.9], "NaN"),
        ([], "empty"),
        ([0.1, 1.5], r"\[0, 1\]|outside"),
        ([[0.1, 0.2], [0.3, 0.4]], "1-D"),
    ],
)
def test_bin_edges_validates_the_forecasts(p, match):
    # the public bin_edges read its forecasts unchecked: NaN gave the edges
    # [0, 1] silently, an empty input a bare IndexError, 2-D input and values
    # above 1 gave edges beyond [0, 1]
    from skbrier.metrics.decomposition import bin_edges

    with pytest.raises(ValueError, match=match):
        bin_edges(p, strategy="quantile")
