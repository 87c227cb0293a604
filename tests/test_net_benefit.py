"""Tests for skbrier.metrics.net_benefit (net benefit, decision curves, binary tests)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.special import expit, logit

from skbrier.metrics.brier import brier_score
from skbrier.metrics.net_benefit import (
    DecisionCurveResult,
    binary_test_probabilities,
    decision_curve,
    net_benefit,
)


# --------------------------------------------------------------------------- helpers
def exact_test_data(n_events: int, n_nonevents: int, sens: float, spec: float):
    """Finite data set whose test has exactly the given sensitivity/specificity."""
    tp = round(sens * n_events)
    tn = round(spec * n_nonevents)
    assert abs(tp - sens * n_events) < 1e-9 and abs(tn - spec * n_nonevents) < 1e-9
    y = np.r_[np.ones(n_events), np.zeros(n_nonevents)]
    test = np.r_[
        np.ones(tp), np.zeros(n_events - tp), np.zeros(tn), np.ones(n_nonevents - tn)
    ]
    return y, test


def dcurves_nb(y, models: dict, thresholds, prevalence=None, nper=1, harm=None):
    """Run dcurves.dca and return {model: (net_benefit, interventions avoided)}."""
    dcurves = pytest.importorskip("dcurves")
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"outcome": np.asarray(y, dtype=int), **models})
    out = dcurves.dca(
        data=df,
        outcome="outcome",
        modelnames=list(models),
        thresholds=list(thresholds),
        prevalence=prevalence,
        nper=nper,
        harm=harm,
    )
    res = {}
    for name in [*models, "all", "none"]:
        sub = out[out["model"] == name]
        np.testing.assert_array_equal(sub["threshold"].to_numpy(), np.asarray(thresholds))
        res[name] = (
            sub["net_benefit"].to_numpy(dtype=float),
            sub["net_intervention_avoided"].to_numpy(dtype=float),
        )
    return res


# --------------------------------------------------------------------------- seed 002
@pytest.mark.parametrize(
    "sens, spec, threshold, expected",
    [
        (0.95, 0.50, 0.05, 0.19 - 0.40 * 0.05 / 0.95),
        (0.50, 0.95, 0.05, 0.10 - 0.04 * 0.05 / 0.95),
        (0.95, 0.50, 0.20, 0.19 - 0.40 * 0.25),
        (0.50, 0.95, 0.20, 0.10 - 0.04 * 0.25),
    ],
)
def test_seed_binary_tests_exact(sens, spec, threshold, expected):
    y, test = exact_test_data(200, 800, sens, spec)
    assert net_benefit(y, test, threshold=threshold) == pytest.approx(expected, abs=1e-15)


def test_seed_published_values():
    # Assel, Sjoberg & Vickers (2017), Table 1: 0.1689 and 0.0979 at 5 %
    y, a = exact_test_data(200, 800, 0.95, 0.50)
    _, b = exact_test_data(200, 800, 0.50, 0.95)
    assert round(net_benefit(y, a, threshold=0.05), 4) == 0.1689
    assert round(net_benefit(y, b, threshold=0.05), 4) == 0.0979


def test_seed_prevalence_70_percent():
    # seed 002: prevalence 70 %, tests 90/80 and 80/90, NB at 80 % = 0.39 and 0.44
    y, a = exact_test_data(700, 300, 0.90, 0.80)
    _, b = exact_test_data(700, 300, 0.80, 0.90)
    assert net_benefit(y, a, threshold=0.8) == pytest.approx(0.39, abs=1e-12)
    assert net_benefit(y, b, threshold=0.8) == pytest.approx(0.44, abs=1e-12)


def test_case_control_prevalence():
    # a case-control sample with 50 % cases, target prevalence 20 %
    y, test = exact_test_data(500, 500, 0.95, 0.50)
    nb = net_benefit(y, test, threshold=0.05, prevalence=0.2)
    assert nb == pytest.approx(0.2 * 0.95 - 0.8 * 0.5 * 0.05 / 0.95, abs=1e-15)
    # prevalence equal to the sample rate changes nothing
    assert net_benefit(y, test, threshold=0.05, prevalence=0.5) == pytest.approx(
        net_benefit(y, test, threshold=0.05), abs=1e-15
    )


# --------------------------------------------------------------------------- dcurves
@pytest.mark.parametrize("prevalence", [None, 0.13])
def test_net_benefit_equals_dcurves(prevalence):
    rng = np.random.default_rng(0)
    n = 500
    y = rng.integers(0, 2, n)
    p = np.round(rng.uniform(size=n), 2)  # ties and values equal to thresholds
    p[:5] = 0.0
    p[5:10] = 1.0
    test = rng.integers(0, 2, n).astype(float)
    thresholds = [i / 100 for i in range(1, 100)]
    ref = dcurves_nb(y, {"m": p, "t": test}, thresholds, prevalence=prevalence)
    for name, proba in [("m", p), ("t", test)]:
        ours = [
            net_benefit(y, proba, threshold=t, prevalence=prevalence) for t in thresholds
        ]
        np.testing.assert_allclose(ours, ref[name][0], rtol=0, atol=1e-12)


# --------------------------------------------------------------------------- properties
def test_positive_means_at_or_above_threshold():
    y = np.array([1, 0, 1, 0])
    p = np.array([0.3, 0.3, 0.2, 0.1])
    # at pt = 0.3 the two samples with p = 0.3 are treated
    assert net_benefit(y, p, threshold=0.3) == pytest.approx((1 - 1 * 0.3 / 0.7) / 4)
    # just above: nobody is treated
    assert net_benefit(y, p, threshold=np.nextafter(0.3, 1)) == 0.0


def test_pos_label_and_string_labels():
    y = np.array(["sick", "well", "sick", "well", "well"])
    p = np.array([0.9, 0.6, 0.4, 0.2, 0.1])
    y01 = (y == "sick").astype(int)
    ref = net_benefit(y01, p, threshold=0.3)
    assert net_benefit(y, p, threshold=0.3, pos_label="sick") == ref
    assert net_benefit(1 - y01, p, threshold=0.3, pos_label=0) == ref
    assert isinstance(ref, float)


def test_perfect_and_default_strategies():
    y = np.array([1, 1, 0, 0, 0])
    assert net_benefit(y, y.astype(float), threshold=0.3) == pytest.approx(0.4)
    assert net_benefit(y, np.zeros(5), threshold=0.3) == 0.0
    assert net_benefit(y, np.ones(5), threshold=0.3) == pytest.approx(0.4 - 0.6 * 0.3 / 0.7)


@settings(max_examples=60, deadline=None)
@given(
    data=st.lists(
        st.tuples(
            st.integers(0, 1),
            st.floats(0, 1, allow_nan=False),
            st.integers(0, 4),
        ),
        min_size=1,
        max_size=30,
    ),
    threshold=st.floats(0.01, 0.99),
)
def test_weights_equal_repeated_rows_and_order(data, threshold):
    y = np.array([d[0] for d in data])
    p = np.array([d[1] for d in data])
    w = np.array([d[2] for d in data], dtype=float)
    if not (w @ y > 0):
        return
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    a = net_benefit(y, p, threshold=threshold, sample_weight=w)
    b = net_benefit(y[rep], p[rep], threshold=threshold)
    assert a == pytest.approx(b, abs=1e-12)
    perm = np.random.default_rng(1).permutation(len(y))
    c = net_benefit(y[perm], p[perm], threshold=threshold, sample_weight=w[perm])
    assert a == pytest.approx(c, abs=1e-12)


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.5, np.nan, np.inf])
def test_bad_threshold(bad):
    with pytest.raises(ValueError, match="threshold"):
        net_benefit([0, 1], [0.2, 0.8], threshold=bad)


def test_threshold_type():
    with pytest.raises(TypeError, match="threshold"):
        net_benefit([0, 1], [0.2, 0.8], threshold="0.1")


@pytest.mark.parametrize("bad", [0.0, 1.0, 2.0, np.nan])
def test_bad_prevalence(bad):
    with pytest.raises(ValueError, match="prevalence"):
        net_benefit([0, 1], [0.2, 0.8], threshold=0.1, prevalence=bad)


@pytest.mark.parametrize(
    "y, p, match",
    [
        ([0, 1, 2], [0.1, 0.2, 0.3], "y_true"),
        ([0, 0, 0], [0.1, 0.2, 0.3], "y_true contains no events"),
        ([0, 1, 1], [0.1, 0.2, 1.3], "y_proba"),
        ([0, 1, 1], [0.1, -0.2, 0.3], "y_proba"),
        ([0, 1, 1], [0.1, np.nan, 0.3], "y_proba contains NaN"),
        ([0, 1, 1], [0.1, np.inf, 0.3], "y_proba"),
        ([0, 1, np.nan], [0.1, 0.2, 0.3], "y_true"),
        ([0, 1], [0.1, 0.2, 0.3], "y_true"),
        ([], [], "y_proba"),
        ([0, 1], [[0.9, 0.1], [0.2, 0.8]], "y_proba must be 1-D"),
    ],
)
def test_bad_inputs(y, p, match):
    with pytest.raises(ValueError, match=match):
        net_benefit(y, p, threshold=0.1)


def test_bad_weights():
    with pytest.raises(ValueError, match="sample_weight"):
        net_benefit([0, 1], [0.2, 0.8], threshold=0.1, sample_weight=[1, -1])
    with pytest.raises(ValueError, match="sample_weight"):
        net_benefit([0, 1], [0.2, 0.8], threshold=0.1, sample_weight=[1, 1, 1])
    with pytest.raises(ValueError, match="no events"):
        net_benefit([0, 1], [0.2, 0.8], threshold=0.1, sample_weight=[1, 0])


def test_no_nonevents_with_prevalence():
    assert net_benefit([1, 1], [0.2, 0.8], threshold=0.5) == 0.5
    with pytest.raises(ValueError, match="non-events"):
        net_benefit([1, 1], [0.2, 0.8], threshold=0.5, prevalence=0.3)


# =========================================================================== decision_curve
def test_decision_curve_equals_dcurves_all_columns():
    rng = np.random.default_rng(42)
    n = 800
    z = rng.standard_normal(n)
    y = (rng.random(n) < expit(-1.65 + z)).astype(int)
    models = {
        "calibrated": expit(-1.65 + z),
        "over": expit(-0.65 + z),
        "rounded": np.round(expit(-1.65 + z), 2),  # ties at the thresholds
        "test": (z > 0).astype(float),  # 0/1 binary test
    }
    thresholds = [i / 100 for i in range(1, 100)]
    ref = dcurves_nb(y, models, thresholds, nper=100)
    res = decision_curve(y, models)  # default thresholds are the same 0.01..0.99
    np.testing.assert_array_equal(res.thresholds, thresholds)
    for name in models:
        np.testing.assert_allclose(res.net_benefit[name], ref[name][0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(
            res.net_interventions_avoided[name], ref[name][1], rtol=0, atol=1e-10
        )
    np.testing.assert_allclose(res.treat_all, ref["all"][0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.treat_none, ref["none"][0], rtol=0, atol=1e-12)
    assert res.prevalence == pytest.approx(y.mean(), abs=1e-15)


def test_decision_curve_equals_dcurves_case_control():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(300), np.zeros(300)].astype(int)
    p = np.clip(np.r_[rng.beta(3, 2, 300), rng.beta(2, 3, 300)], 0, 1)
    thresholds = np.linspace(0.02, 0.9, 45)
    ref = dcurves_nb(y, {"m": p}, thresholds, prevalence=0.1)
    res = decision_curve(y, p, thresholds=thresholds, prevalence=0.1)
    np.testing.assert_allclose(res.net_benefit, ref["m"][0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.treat_all, ref["all"][0], rtol=0, atol=1e-12)
    assert res.prevalence == 0.1


def test_decision_curve_matches_net_benefit_and_order():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300)
    p = np.round(rng.uniform(size=300), 1)
    w = rng.uniform(0, 3, 300)
    thr = np.array([0.7, 0.1, 0.5, 0.3, 0.5, 0.99])  # unsorted, repeated, on ties
    for prev in (None, 0.3):
        res = decision_curve(y, p, thresholds=thr, sample_weight=w, prevalence=prev)
        expected = [
            net_benefit(y, p, threshold=t, sample_weight=w, prevalence=prev) for t in thr
        ]
        np.testing.assert_allclose(res.net_benefit, expected, rtol=0, atol=1e-13)


def test_decision_curve_derived_quantities():
    y, a = exact_test_data(200, 800, 0.95, 0.50)
    res = decision_curve(y, a, thresholds=[0.05, 0.2, 0.5])
    assert isinstance(res, DecisionCurveResult)
    assert res.prevalence == 0.2
    odds = np.array([0.05 / 0.95, 0.25, 1.0])
    nb = 0.19 - 0.40 * odds
    all_ = 0.2 - 0.8 * odds
    np.testing.assert_allclose(res.net_benefit, nb, atol=1e-15)
    np.testing.assert_allclose(res.standardized_net_benefit, nb / 0.2, atol=1e-14)
    np.testing.assert_allclose(
        res.net_interventions_avoided, (nb - all_) / odds * 100, atol=1e-12
    )
    # = 100 x (specificity x (1 - prevalence) - (1 - sens) x prevalence / odds)
    np.testing.assert_allclose(
        res.net_interventions_avoided, 100 * (0.4 - 0.01 / odds), atol=1e-12
    )
    assert res.model_names == ["model"]
    assert "DecisionCurveResult" in repr(res)
    with pytest.raises(ValueError, match="n_resamples"):
        res.confidence_interval()


def test_to_frame():
    pytest.importorskip("pandas")
    y, a = exact_test_data(20, 80, 0.95, 0.50)
    _, b = exact_test_data(20, 80, 0.50, 0.95)
    res = decision_curve(y, {"A": a, "B": b}, thresholds=[0.05, 0.1])
    df = res.to_frame()
    assert list(df["model"].unique()) == ["A", "B", "all", "none"]
    assert df.shape[0] == 8
    assert set(df.columns) >= {
        "model",
        "threshold",
        "net_benefit",
        "standardized_net_benefit",
        "net_interventions_avoided_per_100",
        "net_intervention_avoided",
    }
    np.testing.assert_allclose(
        df.loc[df.model == "B", "net_benefit"], res.net_benefit["B"], atol=0
    )
    np.testing.assert_array_equal(df.loc[df.model == "none", "net_benefit"], 0.0)


def test_bootstrap_bands():
    rng = np.random.default_rng(0)
    z = rng.standard_normal(400)
    y = (rng.random(400) < expit(-1.0 + z)).astype(int)
    p = expit(-1.0 + z)
    thr = np.array([0.1, 0.3, 0.5])
    res = decision_curve(y, {"m": p}, thresholds=thr, n_resamples=200, random_state=0)
    band = res.confidence_interval(model="m")
    assert np.all(band.low <= res.net_benefit["m"] + 1e-12)
    assert np.all(band.high >= res.net_benefit["m"] - 1e-12)
    assert np.all(band.high - band.low > 0)
    allband = res.confidence_interval(model="all")
    assert np.all(allband.low < res.treat_all) and np.all(allband.high > res.treat_all)
    again = decision_curve(y, {"m": p}, thresholds=thr, n_resamples=200, random_state=0)
    np.testing.assert_array_equal(again.confidence_interval(model="m").low, band.low)
    with pytest.raises(ValueError, match="model"):
        res.confidence_interval(model="nope")
    df = res.to_frame() if _has_pandas() else None
    if df is not None:
        assert {"net_benefit_low", "net_benefit_high"} <= set(df.columns)
    # wider at a higher confidence level
    wide = decision_curve(
        y, p, thresholds=thr, n_resamples=200, random_state=0, confidence_level=0.99
    ).confidence_interval()
    assert np.all(wide.high - wide.low >= band.high - band.low - 1e-12)


def test_bootstrap_stratified_with_prevalence():
    # with prevalence given (case-control) the resampling keeps the case count, so
    # a perfect test's net benefit at any threshold is exactly the prevalence
    y = np.r_[np.ones(30), np.zeros(30)]
    res = decision_curve(
        y, y, thresholds=[0.2, 0.6], prevalence=0.1, n_resamples=50, random_state=1
    )
    band = res.confidence_interval()
    np.testing.assert_allclose(band.low, 0.1)
    np.testing.assert_allclose(band.high, 0.1)


def _has_pandas():
    try:
        import pandas  # noqa: F401
    except ImportError:  # pragma: no cover
        return False
    return True


@pytest.mark.parametrize(
    "thresholds, exc, match",
    [
        ([-0.1, 0.5], ValueError, "thresholds must lie in"),
        ([0.5, 1.0], ValueError, "thresholds must lie in"),
        ([0.5, np.nan], ValueError, "thresholds must be finite"),
        ([[0.1, 0.2]], ValueError, "thresholds must be a scalar or 1-D"),
        ([], ValueError, "thresholds must not be empty"),
        (["a"], TypeError, "thresholds"),
        ("0.1", TypeError, "thresholds"),
    ],
)
def test_decision_curve_bad_thresholds(thresholds, exc, match):
    with pytest.raises(exc, match=match):
        decision_curve([0, 1], [0.2, 0.8], thresholds=thresholds)


def test_decision_curve_bad_inputs():
    with pytest.raises(ValueError, match="no events"):
        decision_curve([0, 0], [0.2, 0.8])
    with pytest.raises(ValueError, match="y_true"):
        decision_curve([0, 1, 2], [0.2, 0.8, 0.5])
    with pytest.raises(ValueError, match=r"y_proba\['b'\]"):
        decision_curve([0, 1], {"a": [0.2, 0.8], "b": [0.2, 1.8]})
    with pytest.raises(ValueError, match=r"y_proba\['b'\] has shape"):
        decision_curve([0, 1], {"a": [0.2, 0.8], "b": [0.2, 0.8, 0.1]})
    with pytest.raises(ValueError, match="y_proba contains NaN"):
        decision_curve([0, 1], [0.2, np.nan])
    with pytest.raises(ValueError, match="reserved"):
        decision_curve([0, 1], {"all": [0.2, 0.8]})
    with pytest.raises(ValueError, match="empty"):
        decision_curve([0, 1], {})
    with pytest.raises(ValueError, match="n_resamples"):
        decision_curve([0, 1], [0.2, 0.8], n_resamples=-1)
    with pytest.raises(TypeError, match="n_resamples"):
        decision_curve([0, 1], [0.2, 0.8], n_resamples=1.5)
    with pytest.raises(ValueError, match="confidence_level"):
        decision_curve([0, 1], [0.2, 0.8], confidence_level=1.0)
    with pytest.raises(ValueError, match="prevalence"):
        decision_curve([0, 1], [0.2, 0.8], prevalence=0.0)
    with pytest.raises(ValueError, match="non-events"):
        decision_curve([1, 1], [0.2, 0.8], prevalence=0.3)


@settings(max_examples=40, deadline=None)
@given(
    data=st.lists(
        st.tuples(
            st.integers(0, 1),
            st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.9, 1.0]),
            st.integers(0, 3),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_decision_curve_weights_equal_repeated_rows(data):
    y = np.array([d[0] for d in data])
    p = np.array([d[1] for d in data])
    w = np.array([d[2] for d in data], dtype=float)
    if not (w @ y > 0):
        return
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    thr = np.array([0.05, 0.1, 0.25, 0.5, 0.75, 0.9])
    a = decision_curve(y, p, thresholds=thr, sample_weight=w)
    b = decision_curve(y[rep], p[rep], thresholds=thr)
    np.testing.assert_allclose(a.net_benefit, b.net_benefit, atol=1e-12)
    np.testing.assert_allclose(a.treat_all, b.treat_all, atol=1e-12)


# =========================================================================== Brier identity
def _weighted_area(y, p, w=None):
    """2 * integral_0^1 (1 - pt) NB(pt) dpt, exactly: (1 - pt) NB is linear between
    consecutive distinct probabilities, so the midpoint rule is exact."""
    b = np.unique(np.r_[0.0, p, 1.0])
    mid = (b[:-1] + b[1:]) / 2
    nb = decision_curve(y, p, thresholds=mid, sample_weight=w).net_benefit
    return 2 * np.sum(np.diff(b) * (1 - mid) * nb)


@pytest.mark.parametrize("weighted", [False, True])
def test_brier_identity_exact(weighted):
    rng = np.random.default_rng(11)
    n = 300
    p = rng.uniform(size=n)
    p[:10] = 0.0
    p[10:20] = 1.0
    y = (rng.random(n) < p).astype(int)
    w = rng.uniform(0.5, 2, n) if weighted else None
    prev = np.average(y, weights=w)
    bs = brier_score(y, p, sample_weight=w)
    assert prev - _weighted_area(y, p, w) == pytest.approx(bs, abs=1e-12)


def test_brier_identity_quad():
    rng = np.random.default_rng(12)
    p = rng.uniform(size=40)
    y = (rng.random(40) < p).astype(int)

    def f(t):
        return (1 - t) * net_benefit(y, p, threshold=t)

    area, _ = integrate.quad(f, 0, 1, points=np.sort(p), limit=200)
    assert y.mean() - 2 * area == pytest.approx(brier_score(y, p), abs=1e-8)


# =========================================================================== binary tests
def test_binary_test_probabilities_exact():
    y, a = exact_test_data(200, 800, 0.95, 0.50)
    q = binary_test_probabilities(y, a)
    ppv = 190 / (190 + 400)
    one_minus_npv = 10 / (10 + 400)
    np.testing.assert_allclose(q[a == 1], ppv, atol=1e-15)
    np.testing.assert_allclose(q[a == 0], one_minus_npv, atol=1e-15)
    # method 2 Brier, seed formula
    bs2 = (
        (1 - ppv) ** 2 * 0.19
        + ppv**2 * 0.40
        + (1 - one_minus_npv) ** 2 * 0.01
        + one_minus_npv**2 * 0.40
    )
    assert brier_score(y, q) == pytest.approx(bs2, abs=1e-15)
    # method 1 Brier = misclassification rate
    assert brier_score(y, a) == pytest.approx(0.41, abs=1e-15)
    # recalibration never hurts
    assert brier_score(y, q) <= brier_score(y, a)


def test_binary_test_probabilities_case_control():
    # case-control sample (50 % cases) + prevalence 20 % == cohort at 20 %
    y_cc, a_cc = exact_test_data(400, 400, 0.95, 0.50)
    y, a = exact_test_data(200, 800, 0.95, 0.50)
    q_cc = binary_test_probabilities(y_cc, a_cc, prevalence=0.2)
    q = binary_test_probabilities(y, a)
    assert q_cc[a_cc == 1][0] == pytest.approx(q[a == 1][0], abs=1e-15)
    assert q_cc[a_cc == 0][0] == pytest.approx(q[a == 0][0], abs=1e-15)
    # prevalence = sample rate changes nothing
    np.testing.assert_allclose(
        binary_test_probabilities(y, a, prevalence=0.2), q, atol=1e-15
    )


def test_binary_test_probabilities_weights_labels_and_errors():
    y = np.array(["d", "h", "d", "h", "h"])
    t = np.array([True, True, False, False, True])
    w = np.array([1.0, 2.0, 1.0, 1.0, 1.0])
    q = binary_test_probabilities(y, t, sample_weight=w, pos_label="d")
    np.testing.assert_allclose(q, [0.25, 0.25, 0.5, 0.5, 0.25])
    with pytest.raises(ValueError, match="y_test"):
        binary_test_probabilities([0, 1], [0.3, 1])
    with pytest.raises(ValueError, match="y_test"):
        binary_test_probabilities([0, 1], [np.nan, 1])
    with pytest.raises(ValueError, match="y_true"):
        binary_test_probabilities([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError, match="events"):
        binary_test_probabilities([0, 0], [0, 1], prevalence=0.2)


# =========================================================================== seed 002 analytic
B0 = -1.65


def _true_p(z):
    return expit(B0 + z)


def _phi(z):
    return math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


def _quad(f, a=-np.inf, b=np.inf):
    return integrate.quad(lambda z: f(z) * _phi(z), a, b)[0]


def analytic_brier(gamma):
    def f(z):
        x = expit(B0 + gamma + z)
        return _true_p(z) * (1 - x) ** 2 + (1 - _true_p(z)) * x**2

    return _quad(f)


def analytic_net_benefit(gamma, pt):
    c = logit(pt) - B0 - gamma  # treated iff z >= c
    tp = _quad(_true_p, c)
    fp = _quad(lambda z: 1 - _true_p(z), c)
    return tp - fp * pt / (1 - pt)


def test_seed_analytic_table():
    # Assel et al. (2017) Table 1 (continuous models, prevalence ~ 20 %)
    assert round(analytic_brier(0), 4) == 0.1386
    assert round(analytic_brier(1), 4) == 0.1708
    assert round(analytic_brier(-1), 4) == 0.1540
    assert round(analytic_net_benefit(0, 0.05), 4) == 0.1595
    assert round(analytic_net_benefit(1, 0.05), 4) == 0.1583


def test_seed_analytic_brier_identity():
    # BS = prevalence - 2 int_0^1 (1 - pt) NB(pt) dpt, for the population curves
    prev = _quad(_true_p)
    for gamma in (0, 1):
        area = integrate.quad(
            lambda t, g=gamma: (1 - t) * analytic_net_benefit(g, t), 0, 1, limit=100
        )[0]
        assert prev - 2 * area == pytest.approx(analytic_brier(gamma), abs=1e-7)


@pytest.mark.parametrize("gamma", [-2, -1, 0, 1])
def test_seed_simulation_agrees_with_analytic(gamma):
    from skbrier.datasets import make_logistic_cohort

    y, p = make_logistic_cohort(200_000, gamma=gamma, random_state=gamma + 10)
    thr = [0.05, 0.1, 0.2]
    sim = decision_curve(y, p, thresholds=thr).net_benefit
    ana = [analytic_net_benefit(gamma, t) for t in thr]
    # standard error of NB at n = 2e5 is below 0.0015
    np.testing.assert_allclose(sim, ana, atol=0.005)
    assert brier_score(y, p) == pytest.approx(analytic_brier(gamma), abs=0.003)


def test_pandas_inputs():
    pd = pytest.importorskip("pandas")
    y, a = exact_test_data(20, 80, 0.95, 0.50)
    _, b = exact_test_data(20, 80, 0.50, 0.95)
    frame = pd.DataFrame({"A": a, "B": b})
    res = decision_curve(pd.Series(y), frame, thresholds=[0.05])
    assert res.model_names == ["A", "B"]
    assert res.net_benefit["A"][0] == pytest.approx(0.19 - 0.4 * 0.05 / 0.95, abs=1e-15)
    assert net_benefit(pd.Series(y), pd.Series(b), threshold=0.05) == pytest.approx(
        0.1 - 0.04 * 0.05 / 0.95, abs=1e-15
    )


def test_harm_equals_dcurves():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 300)
    models = {"a": rng.uniform(size=300), "b": rng.uniform(size=300)}
    thr = [0.1, 0.25, 0.5]
    ref = dcurves_nb(y, models, thr, harm={"a": 0.02}, nper=100)
    res = decision_curve(y, models, thresholds=thr, harm={"a": 0.02})
    for k in models:
        np.testing.assert_allclose(res.net_benefit[k], ref[k][0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(
            res.net_interventions_avoided[k], ref[k][1], rtol=0, atol=1e-10
        )
    same = decision_curve(y, models["a"], thresholds=thr, harm=0.02)
    np.testing.assert_allclose(same.net_benefit, res.net_benefit["a"], atol=0)
    with pytest.raises(ValueError, match="harm"):
        decision_curve(y, models, thresholds=thr, harm={"c": 0.1})
    with pytest.raises(ValueError, match="harm"):
        decision_curve(y, models, thresholds=thr, harm=np.nan)
    with pytest.raises(TypeError, match="harm"):
        decision_curve(y, models, thresholds=thr, harm="0.1")


@pytest.mark.slow
def test_bootstrap_band_coverage():
    # percentile bands around the calibrated logistic cohort cover the analytic
    # net benefit at about the nominal rate
    from skbrier.datasets import make_logistic_cohort

    truth = np.array([analytic_net_benefit(0, t) for t in (0.1, 0.2)])
    hits = np.zeros(2)
    reps = 100
    for r in range(reps):
        y, p = make_logistic_cohort(400, random_state=1000 + r)
        res = decision_curve(y, p, thresholds=[0.1, 0.2], n_resamples=199, random_state=r)
        lo, hi = res.confidence_interval()
        hits += (lo <= truth) & (truth <= hi)
    coverage = hits / reps
    assert np.all(coverage >= 0.86) and np.all(coverage <= 1.0), coverage


@pytest.mark.parametrize("n_events, n_nonevents", [(200, 800), (700, 300)])
def test_exact_tests_closed_form_and_dcurves(n_events, n_nonevents):
    # finite data sets built from prevalence / sensitivity / specificity: the
    # decision curve is pi * sens - (1 - pi) * (1 - spec) * odds at every threshold
    y, a = exact_test_data(n_events, n_nonevents, 0.95, 0.50)
    _, b = exact_test_data(n_events, n_nonevents, 0.50, 0.95)
    _, c = exact_test_data(n_events, n_nonevents, 0.80, 0.90)
    models = {"a": a, "b": b, "c": c}
    res = decision_curve(y, models)
    pi = n_events / (n_events + n_nonevents)
    odds = res.thresholds / (1 - res.thresholds)
    for name, (sens, spec) in {"a": (0.95, 0.5), "b": (0.5, 0.95), "c": (0.8, 0.9)}.items():
        closed = pi * sens - (1 - pi) * (1 - spec) * odds
        np.testing.assert_allclose(res.net_benefit[name], closed, rtol=0, atol=1e-12)
    ref = dcurves_nb(y, models, res.thresholds.tolist(), nper=100)
    for name in models:
        np.testing.assert_allclose(res.net_benefit[name], ref[name][0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.treat_all, ref["all"][0], rtol=0, atol=1e-12)
