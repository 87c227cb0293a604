"""Tests of skbrier.metrics.decomposition (binned Murphy and CORP decompositions)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss

from skbrier.metrics.decomposition import (
    BinStatistics,
    binned_statistics,
    murphy_decomposition,
    murphy_from_statistics,
)
from skbrier.metrics.decomposition import _bin_index, _uniform_edges

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
        d.reliability - d.resolution + d.uncertainty
        + d.within_bin_variance - d.within_bin_covariance
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
        y, p, n_bins=7, strategy=strategy, sample_weight=w,
        bias_correction=bias_correction,
    )
    assert abs(_identity(d) - d.brier_score) < 1e-12
    assert d.brier_score == pytest.approx(brier_score_loss(y, p, sample_weight=w),
                                          abs=1e-13)
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
        brier_score_loss(y, p, sample_weight=w), abs=1e-13)


def test_model_diagnostics_fixture_binned():
    d = murphy_decomposition(Y_MD, P_MD, n_bins=2)
    # bins [0, .5): p = .4 .3 .2 .1 with y = 0 0 0 1; [.5, 1]: p = .5 .9, y = 1 1
    assert d.bin_counts.tolist() == [4, 2]
    assert d.reliability == pytest.approx((4 * 0 ** 2 + 2 * 0.3 ** 2) / 6)
    assert d.resolution == pytest.approx((4 * 0.25 ** 2 + 2 * 0.5 ** 2) / 6)
    assert d.uncertainty == 0.25
    assert abs(_identity(d) - d.brier_score) < 1e-15


def test_uniform_binning_agrees_with_the_edges():
    # values exactly on (rounded) edges k/K, where p*K may round across the edge
    for k in [3, 7, 10, 49, 97, 100]:
        edges = _uniform_edges(k)
        p = np.concatenate([edges, np.nextafter(edges, 2), np.nextafter(edges, -1)])
        p = np.clip(p, 0, 1)
        fast = _bin_index(p, edges)
        slow = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, k - 1)
        np.testing.assert_array_equal(fast, slow)
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
        for a, b in zip(cuts[:-1], cuts[1:])
    ]
    merged = sum(parts)
    assert isinstance(merged, BinStatistics)
    merged2 = BinStatistics.empty(edges)
    for s in parts:
        merged2 = merged2.merge(s)
    for m in (merged, merged2):
        np.testing.assert_array_equal(m.count, whole.count)
        for name in ("sum_w", "sum_wp", "sum_wy", "sum_wpp", "sum_wpy", "sum_ww"):
            np.testing.assert_allclose(getattr(m, name), getattr(whole, name),
                                       rtol=1e-13, atol=1e-12)
        for bc in (False, True):
            a = murphy_from_statistics(m, bias_correction=bc).components
            b = murphy_from_statistics(whole, bias_correction=bc).components
            for key in a:
                assert a[key] == pytest.approx(b[key], abs=1e-13)
    assert murphy_from_statistics(whole).components == murphy_decomposition(
        y, p, sample_weight=w).components
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
        b = murphy_decomposition(y, p, bias_correction=bc,
                                 sample_weight=np.ones(len(y))).components
        for key in a:
            assert a[key] == pytest.approx(b[key], abs=1e-14)


def test_to_frame_binned():
    pd = pytest.importorskip("pandas")
    d = murphy_decomposition(Y_MD, P_MD, n_bins=4)
    f = d.to_frame()
    assert isinstance(f, pd.DataFrame)
    assert list(f.columns) == ["lower", "upper", "count", "weight", "mean_forecast",
                               "observed_frequency"]
    assert len(f) == 4 and f["count"].sum() == 6


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(n_bins=0), ValueError, "n_bins"),
        (dict(n_bins=2.5), TypeError, "n_bins"),
        (dict(strategy="kmeans"), ValueError, "strategy"),
        (dict(strategy=[0.0, 0.5, 0.5, 1.0]), ValueError, "strategy"),
        (dict(strategy=[0.2, 1.0]), ValueError, "strategy"),
        (dict(strategy=[0.0, np.nan, 1.0]), ValueError, "strategy"),
        (dict(strategy=[[0.0, 1.0]]), ValueError, "strategy"),
        (dict(bias_correction="yes"), TypeError, "bias_correction"),
        (dict(sample_weight=[1, 1, 1]), ValueError, "sample_weight"),
        (dict(sample_weight=[1, 1, 1, -1, 1, 1]), ValueError, "sample_weight"),
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
    assert d.method == "murphy" and len(d.per_class) == 3
    assert d.brier_score == pytest.approx(
        brier_score_loss(y, P, sample_weight=w, scale_by_half=False), abs=1e-13)
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
