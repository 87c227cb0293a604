"""Tests for skbrier.metrics.net_benefit (net benefit, decision curves, binary tests)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skbrier.metrics.net_benefit import net_benefit


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


def dcurves_nb(y, models: dict, thresholds, prevalence=None, nper=1):
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
    assert net_benefit(y, np.ones(5), threshold=0.3) == pytest.approx(
        0.4 - 0.6 * 0.3 / 0.7
    )


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
