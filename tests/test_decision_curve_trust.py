"""Decision curves on extreme but valid input, the bootstrap engine and the result protocol."""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np
import pytest

from skbrier._core.params import check_random_state
from skbrier._core.resampling import chunk_size_for, resample_indices
from skbrier.metrics.net_benefit import (
    DecisionCurveResult,
    decision_curve,
    net_benefit,
)


@pytest.fixture(autouse=True)
def _warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.fixture
def data():
    rng = np.random.default_rng(7)
    z = rng.standard_normal(120)
    p = 1 / (1 + np.exp(1.0 - z))
    y = (rng.random(120) < p).astype(int)
    return y, p, np.round(p, 1)


# --------------------------------------------------------------------------- extreme input
@pytest.mark.parametrize("scale", [1e-200, 1e300, 5e-324 * 4])
def test_weights_of_any_scale_give_the_unweighted_curve(scale):
    y = np.array([1, 0, 1, 0])
    p = np.array([1.0, 1.0, 0.3, 0.1])
    thr = np.array([1e-12, 0.2, 0.5, 1 - 1e-12])
    ref = decision_curve(y, p, thresholds=thr)
    # at 1 - 1e-12 the odds are 1e12: weights 1e300 overflowed (TP - FP odds) to -inf
    assert ref.net_benefit[-1] == pytest.approx(0.25 - 0.25 * thr[-1] / (1 - thr[-1]))
    res = decision_curve(y, p, thresholds=thr, sample_weight=np.full(4, scale))
    np.testing.assert_allclose(res.net_benefit, ref.net_benefit, rtol=1e-15)
    np.testing.assert_allclose(
        res.net_interventions_avoided, ref.net_interventions_avoided, rtol=1e-15
    )
    for t, expected in zip(thr, ref.net_benefit):
        got = net_benefit(y, p, threshold=t, sample_weight=np.full(4, scale))
        assert got == pytest.approx(expected, rel=1e-15)


def test_interventions_avoided_near_threshold_zero():
    # a perfect model: no false negatives, true negatives 1/2 of the patients, so
    # NB - NB_all = TN/W * odds and 100 (NB - NB_all) / odds = 50 exactly; the
    # difference of two nearly equal net benefits gave 55.5 at 1e-16 and 0 at 1e-300
    y = np.array([1, 0, 1, 0])
    thr = [1e-300, 1e-16, 1e-10, 1e-3, 0.5]
    res = decision_curve(y, y.astype(float), thresholds=thr)
    np.testing.assert_array_equal(res.net_interventions_avoided, 50.0)
    # with a missed event the exact value is 100 (TN - FN / odds), -inf beyond floats
    res = decision_curve(y, [1.0, 0.0, 0.0, 0.0], thresholds=[5e-324, 1e-300, 0.25])
    nia = res.net_interventions_avoided
    assert nia[0] == -np.inf
    assert nia[1] == pytest.approx(100 * (0.5 - 0.25 / 1e-300), rel=1e-15)
    assert nia[2] == pytest.approx(100 * (0.5 - 0.25 * 3), rel=1e-15)


def test_huge_harm_and_edge_prevalence_warn_nothing():
    y = np.array([1, 0, 1, 0])
    p = np.array([0.9, 0.8, 0.3, 0.1])
    res = decision_curve(y, p, thresholds=[0.01, 0.5], harm=1e307)
    assert res.net_interventions_avoided[0] == -np.inf  # beyond the float range
    np.testing.assert_array_equal(res.net_benefit, -1e307)
    for prev in (1e-300, 1 - 1e-16):
        res = decision_curve(y, p, thresholds=[0.5, 1 - 1e-9], prevalence=prev)
        odds = np.array([1.0, (1 - 1e-9) / 1e-9])
        tpr = np.array([0.5, 0.0])
        fpr = np.array([0.5, 0.0])
        np.testing.assert_allclose(
            res.net_benefit, prev * tpr - (1 - prev) * fpr * odds, rtol=1e-15
        )
        assert np.all(np.isfinite(res.standardized_net_benefit))


def test_one_sample_one_threshold_one_class():
    res = decision_curve([1], [0.7], thresholds=0.5, n_resamples=5, random_state=0)
    assert res.net_benefit.tolist() == [1.0]
    band = res.confidence_interval()
    assert band.low.tolist() == band.high.tolist() == [1.0]
    # only events: fine without a prevalence, refused with one
    res = decision_curve([1, 1], [0.2, 0.8], thresholds=[0.5])
    assert res.net_benefit.tolist() == [0.5]
    with pytest.raises(ValueError, match="non-events"):
        decision_curve([1, 1], [0.2, 0.8], thresholds=[0.5], prevalence=0.3)


def test_net_benefit_near_threshold_edges_equals_dcurves():
    pytest.importorskip("dcurves")
    from test_net_benefit import dcurves_nb

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    p = rng.uniform(size=200)
    p[:3] = 1.0
    thr = [1e-9, 1e-3, 0.999, 1 - 1e-9]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas/dcurves warnings are not ours
        ref = dcurves_nb(y, {"m": p}, thr)
    res = decision_curve(y, p, thresholds=thr)
    np.testing.assert_allclose(res.net_benefit, ref["m"][0], rtol=1e-13, atol=1e-12)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"thresholds": [[0.1, 0.2]]}, ValueError, "thresholds must be a scalar or 1-D"),
        ({"thresholds": [True]}, TypeError, "thresholds"),
        ({"n_resamples": 1}, ValueError, "n_resamples must be at least 2"),
        ({"n_resamples": True}, TypeError, "n_resamples"),
        ({"n_resamples": 2.0}, TypeError, "n_resamples"),
        ({"confidence_level": 0}, ValueError, "confidence_level"),
        ({"confidence_level": "0.9"}, TypeError, "confidence_level"),
        ({"n_resamples": 5, "random_state": "x"}, TypeError, "random_state"),
        ({"n_resamples": 5, "random_state": -1}, ValueError, "random_state"),
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"harm": np.complex128(1)}, TypeError, "harm"),
        ({"harm": {"model": np.inf}}, ValueError, r"harm\['model'\]"),
        ({"prevalence": True}, TypeError, "prevalence"),
    ],
)
def test_options_refused_with_the_parameter_name(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        decision_curve([0, 1, 1], [0.2, 0.8, 0.6], **kwargs)


# --------------------------------------------------------------------------- bootstrap
def test_replicates_are_the_net_benefit_of_engine_resamples(data):
    y, p, q = data
    thr = np.array([0.1, 0.3, 0.5])
    B = 30
    res = decision_curve(
        y, {"a": p, "b": q}, thresholds=thr, n_resamples=B, random_state=3, harm={"b": 0.01}
    )
    n = y.shape[0]
    assert chunk_size_for(n) >= B  # one chunk: child 0 of the seed draws it all
    idx = resample_indices(check_random_state(3).spawn(1)[0], n, B)
    for b in (0, 7, B - 1):
        i = idx[b]
        for name, proba, h in (("a", p, 0.0), ("b", q, 0.01)):
            expected = [net_benefit(y[i], proba[i], threshold=t) - h for t in thr]
            np.testing.assert_allclose(
                res.bootstrap_replicates[name][b], expected, rtol=0, atol=1e-15
            )
        prev_b = y[i].mean()
        np.testing.assert_allclose(
            res.bootstrap_replicates["all"][b],
            prev_b - (1 - prev_b) * thr / (1 - thr),
            atol=1e-15,
        )
    band = res.confidence_interval(0.8, model="a")
    lo, hi = np.quantile(res.bootstrap_replicates["a"], [0.1, 0.9], axis=0)
    np.testing.assert_allclose(band.low, lo, rtol=0, atol=1e-15)
    np.testing.assert_allclose(band.high, hi, rtol=0, atol=1e-15)
    basic = res.confidence_interval(0.8, model="a", method="basic")
    np.testing.assert_allclose(basic.low, 2 * res.net_benefit["a"] - hi, atol=1e-15)


def test_stratified_resamples_keep_class_sizes(data):
    y, p, _ = data
    res = decision_curve(
        y, p, thresholds=[0.2, 0.4], prevalence=0.1, n_resamples=40, random_state=0
    )
    # the treat-all curve depends on the prevalence only: no uncertainty
    band = res.confidence_interval(model="all")
    np.testing.assert_allclose(band.low, res.treat_all, atol=1e-15)
    np.testing.assert_allclose(band.high, res.treat_all, atol=1e-15)
    ev, ne = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    rng = check_random_state(0).spawn(1)[0]
    i = np.concatenate(
        [ev[resample_indices(rng, ev.size, 40)], ne[resample_indices(rng, ne.size, 40)]],
        axis=1,
    )[5]
    expected = [net_benefit(y[i], p[i], threshold=t, prevalence=0.1) for t in (0.2, 0.4)]
    np.testing.assert_allclose(res.bootstrap_replicates["model"][5], expected, atol=1e-15)


def test_bootstrap_weights_are_frequencies(data):
    y, p, _ = data
    thr = [0.2, 0.5]
    kw = {"thresholds": thr, "n_resamples": 50, "random_state": 4}
    ref = decision_curve(y, p, **kw).bootstrap_replicates["model"]
    # unit weights: the same draws as no weights
    unit = decision_curve(y, p, sample_weight=np.ones(y.size), **kw)
    np.testing.assert_array_equal(unit.bootstrap_replicates["model"], ref)
    # zero-weight rows: the same draws as removed rows
    yz = np.r_[y[:60], [1, 0, 1], y[60:]]
    pz = np.r_[p[:60], [0.9, 0.1, 0.5], p[60:]]
    wz = np.r_[np.ones(60), [0, 0, 0], np.ones(60)]
    zero = decision_curve(yz, pz, sample_weight=wz, **kw)
    np.testing.assert_array_equal(zero.bootstrap_replicates["model"], ref)


def test_bootstrap_integer_weights_match_repeated_rows_in_distribution(data):
    y, p, _ = data
    w = np.random.default_rng(0).integers(1, 4, y.size)
    rep = np.repeat(np.arange(y.size), w)
    kw = {"thresholds": [0.2, 0.5], "n_resamples": 4000}
    a = decision_curve(y, p, sample_weight=w, random_state=1, **kw)
    b = decision_curve(y[rep], p[rep], random_state=2, **kw)
    for r in (a, b):
        assert r.net_benefit == pytest.approx(b.net_benefit, abs=1e-12)
    sa = a.bootstrap_replicates["model"].std(axis=0)
    sb = b.bootstrap_replicates["model"].std(axis=0)
    np.testing.assert_allclose(sa, sb, rtol=0.06)  # Monte Carlo error ~ 1/sqrt(2 B)
    # rows carried with their weights would give sqrt(mean(w^2) / mean(w)^2 * W / n)
    # times wider bands: frequency weights are counts
    rows = np.sqrt(np.mean(w**2) / np.mean(w) ** 2 * w.sum() / y.size)
    assert rows > 1.3


@pytest.mark.parametrize("w", [np.full(4, 1e-200), np.full(4, 1e300), [0.1, 0.1, 0.1, 0.1]])
def test_bootstrap_weights_out_of_range_refused(w):
    y, p = [1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1]
    # the point estimates are fine
    assert decision_curve(y, p, thresholds=[0.5], sample_weight=w).net_benefit.size == 1
    with pytest.raises(ValueError, match="^sample_weight"):
        decision_curve(y, p, thresholds=[0.5], sample_weight=w, n_resamples=10)


def test_bootstrap_does_not_depend_on_n_jobs_and_takes_any_seed(data):
    y, p, q = data
    kw = {"thresholds": [0.2, 0.4], "n_resamples": 2000}
    a = decision_curve(y, {"a": p, "b": q}, random_state=5, **kw)
    b = decision_curve(y, {"a": p, "b": q}, random_state=5, n_jobs=2, **kw)
    np.testing.assert_array_equal(a.bootstrap_replicates["b"], b.bootstrap_replicates["b"])
    c = decision_curve(y, p, random_state=np.random.default_rng(5), **kw)
    d = decision_curve(y, p, random_state=np.random.SeedSequence(5), **kw)
    np.testing.assert_array_equal(
        c.bootstrap_replicates["model"], d.bootstrap_replicates["model"]
    )
    np.testing.assert_array_equal(
        c.bootstrap_replicates["model"], a.bootstrap_replicates["a"]
    )


# --------------------------------------------------------------------------- protocol
def test_result_protocol(data):
    y, p, q = data
    res = decision_curve(
        y,
        {"a": p, "b": q},
        thresholds=[0.2, 0.4],
        n_resamples=20,
        random_state=0,
        confidence_level=0.9,
    )
    assert isinstance(res, DecisionCurveResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.prevalence = 0.5
    assert repr(res) == (
        "DecisionCurveResult(models=['a', 'b'], n_thresholds=2, "
        f"prevalence={res.prevalence:.4g}, n_resamples=20)"
    )
    d = res.to_dict()
    json.dumps(d)
    assert d["net_benefit_by_model"]["a"] == res.net_benefit["a"].tolist()
    assert "bootstrap_replicates" not in d
    assert d["bands"]["a"]["low"] == res.confidence_interval(0.9, model="a").low.tolist()
    text = res.summary()
    assert "max net benefit [a]" in text and "prevalence" in text
    assert "<table>" in res._repr_html_()
    # default level: the one given to decision_curve; bands are that level
    np.testing.assert_array_equal(
        res.bands["b"].low, res.confidence_interval(0.9, model="b").low
    )
    wide = res.confidence_interval(0.99, model="b")
    assert np.all(wide.high - wide.low >= res.bands["b"].high - res.bands["b"].low)
    with pytest.raises(ValueError, match="model must name one of"):
        res.confidence_interval()
    with pytest.raises(ValueError, match="confidence_level"):
        res.confidence_interval(1.5, model="a")
    with pytest.raises(ValueError, match="method"):
        res.confidence_interval(model="a", method="bca")
    none = decision_curve(y, p, thresholds=[0.2])
    assert none.bands is None and none.to_dict()["bands"] is None
    with pytest.raises(ValueError, match="n_resamples"):
        none.confidence_interval()


def test_to_frame_interventions_avoided_of_default_strategies():
    pd = pytest.importorskip("pandas")
    y = np.array([1, 0, 0, 0])
    res = decision_curve(y, np.array([0.9, 0.2, 0.1, 0.6]), thresholds=[0.25, 0.5])
    df = res.to_frame()
    assert isinstance(df, pd.DataFrame)
    odds = np.array([1 / 3, 1.0])
    treat_all = 0.25 - 0.75 * odds
    np.testing.assert_allclose(
        df.loc[df.model == "none", "net_interventions_avoided_per_100"],
        -treat_all / odds * 100,
        rtol=1e-14,
    )
    np.testing.assert_array_equal(
        df.loc[df.model == "all", "net_interventions_avoided_per_100"], 0
    )


def test_same_seed_same_draws_as_the_package_bootstrap():
    # several chunks of the engine: decision_curve draws what stats.bootstrap draws
    from skbrier.stats.bootstrap import bootstrap_distribution

    rng = np.random.default_rng(2)
    n, B, t = 2000, 1200, 0.3
    p = rng.uniform(size=n)
    y = (rng.random(n) < p).astype(float)
    assert B > 2 * chunk_size_for(n)

    def nb(yb, pb, axis=-1):
        treat = pb >= t
        return ((yb * treat).sum(axis) - ((1 - yb) * treat).sum(axis) * t / (1 - t)) / n

    dist = bootstrap_distribution(
        (y, p),
        nb,
        scheme="iid",
        block_length=1.0,
        n_resamples=B,
        random_state=11,
        n_jobs=None,
    )
    res = decision_curve(y, p, thresholds=[t], n_resamples=B, random_state=11)
    np.testing.assert_allclose(
        res.bootstrap_replicates["model"][:, 0], dist, rtol=0, atol=1e-14
    )


@pytest.mark.parametrize("prevalence", [None, 0.3])
def test_bootstrap_integer_weights_draw_the_resamples_of_the_repeated_rows(prevalence):
    """Integer weights go through skbrier's one frequency resampler: the same
    seed gives the replicates of the repeated rows exactly (were: a
    multinomial of its own, equal only in distribution), with and without
    the case-control strata of ``prevalence``."""
    rng = np.random.default_rng(11)
    n = 37  # odd sizes, ties, weights 1-5
    p = np.round(rng.uniform(0.02, 0.95, n), 2)
    y = (rng.uniform(size=n) < p).astype(bool)
    w = rng.integers(1, 6, n)
    rep = np.repeat(np.arange(n), w)
    kw = {"thresholds": [0.1, 0.35, 0.6], "n_resamples": 300, "random_state": 3,
          "prevalence": prevalence}  # fmt: skip
    a = decision_curve(y, p, sample_weight=w.astype(float), **kw)
    b = decision_curve(y[rep], p[rep], **kw)
    for name in ("model", "all"):
        np.testing.assert_allclose(
            a.bootstrap_replicates[name], b.bootstrap_replicates[name], atol=1e-12
        )
    lo_a, hi_a = a.confidence_interval()
    lo_b, hi_b = b.confidence_interval()
    np.testing.assert_allclose([lo_a, hi_a], [lo_b, hi_b], atol=1e-12)
