"""compare_net_benefit: paired NB differences, P(useful) and EVPI from one bootstrap.

Reference: tests/fixtures/predtools_evpi_reference.json, predtools' evpi_val
(R) on the resamples of skbrier's engine (make_predtools_fixtures.py) and on
its own draws.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import skbrier
from skbrier.validation import compare_net_benefit

REF = json.loads(
    (Path(__file__).parent / "fixtures" / "predtools_evpi_reference.json").read_text()
)


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    risk = rng.uniform(0.02, 0.7, n)
    y = (rng.uniform(size=n) < risk).astype(int)
    noisy = np.clip(risk + rng.normal(0, 0.12, n), 0.001, 0.999)
    return y, risk, noisy


# --------------------------------------------------------------------------- predtools
@pytest.fixture(scope="module")
def predtools_case():
    y, p = np.array(REF["y"]), np.array(REF["p"])
    res = compare_net_benefit(
        y,
        p,
        thresholds=REF["thresholds"],
        n_resamples=REF["n_resamples"],
        random_state=REF["random_state"],
    )
    return res


def test_equals_predtools_evpi_val_on_the_same_resamples(predtools_case):
    res, same = predtools_case, REF["same_resamples"]
    np.testing.assert_allclose(res.thresholds, same["z"])
    np.testing.assert_allclose(res.evpi, same["EVPIv"], rtol=1e-9, atol=1e-14)
    np.testing.assert_allclose(res.enb_perfect, same["ENB_perfect"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(res.enb_current, same["ENB_current"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(
        res.expected_net_benefit["model"], same["ENB_model"], rtol=1e-12, atol=1e-15
    )
    np.testing.assert_allclose(
        res.expected_net_benefit["all"], same["ENB_all"], rtol=1e-12, atol=1e-15
    )
    # no ties can occur at these thresholds: predtools' P(NB >= best) is ours
    np.testing.assert_array_equal(res.p_useful["model"], same["p_useful"])


def test_agrees_with_predtools_own_draws_within_monte_carlo_error():
    y, p = np.array(REF["y"]), np.array(REF["p"])
    b = 4000
    res = compare_net_benefit(
        y, p, thresholds=REF["thresholds"], n_resamples=b, random_state=1
    )
    own = REF["own_resamples"]
    reps = res.curve.bootstrap_replicates
    strategies = np.stack([reps["model"], reps["all"], np.zeros_like(reps["all"])])
    gain = (
        strategies.max(axis=0)
        - strategies[
            np.argmax(strategies.mean(axis=1), axis=0), :, np.arange(len(REF["thresholds"]))
        ].T
    )
    sd = gain.std(axis=0, ddof=1) / math.sqrt(b)
    assert np.all(np.abs(res.evpi - np.array(own["EVPIv"])) <= 5 * math.sqrt(2) * sd + 1e-6)
    for ours, theirs in ((res.p_useful["model"], own["p_useful"]),):
        se = np.sqrt(np.maximum(ours * (1 - ours), 1 / b) / b)
        assert np.all(np.abs(ours - np.array(theirs)) <= 5 * math.sqrt(2) * se)


# --------------------------------------------------------------------------- one engine
def test_replicates_are_decision_curves_paired_bootstrap():
    y, a, b = _data()
    t = [0.05, 0.1, 0.2, 0.4]
    res = compare_net_benefit(
        y, {"a": a, "b": b}, thresholds=t, n_resamples=300, random_state=9
    )
    curve = skbrier.decision_curve(
        y, {"a": a, "b": b}, thresholds=t, n_resamples=300, random_state=9
    )
    for k in ("a", "b", "all"):
        np.testing.assert_array_equal(
            res.curve.bootstrap_replicates[k], curve.bootstrap_replicates[k]
        )
    diff = curve.bootstrap_replicates["a"] - curve.bootstrap_replicates["b"]
    lo, hi = res.confidence_interval(0.9)
    np.testing.assert_allclose(lo, np.quantile(diff, 0.05, axis=0), rtol=1e-12)
    np.testing.assert_allclose(hi, np.quantile(diff, 0.95, axis=0), rtol=1e-12)
    np.testing.assert_allclose(
        res.difference["b"], curve.net_benefit["a"] - curve.net_benefit["b"], rtol=1e-12
    )
    basic = res.confidence_interval(0.9, method="basic")
    np.testing.assert_allclose(basic.low, 2 * res.difference["b"] - hi, rtol=1e-12)
    # pairing: the interval of the difference is narrower than the two bands combined
    band_a = curve.confidence_interval(0.9, model="a")
    band_b = curve.confidence_interval(0.9, model="b")
    unpaired = np.hypot(band_a.high - band_a.low, band_b.high - band_b.low)
    assert np.all(hi - lo < unpaired)


def test_probabilities_and_evpi_from_the_replicates():
    y, a, b = _data(seed=2)
    t = np.array([0.02, 0.1, 0.3, 0.6, 0.9])
    res = compare_net_benefit(
        y, {"a": a, "b": b}, thresholds=t, n_resamples=400, random_state=3
    )
    reps = res.curve.bootstrap_replicates
    s = {
        "a": reps["a"],
        "b": reps["b"],
        "all": reps["all"],
        "none": np.zeros_like(reps["all"]),
    }
    stack = np.stack(list(s.values()))
    best = stack.max(axis=0)
    np.testing.assert_allclose(
        res.evpi, best.mean(axis=0) - stack.mean(axis=1).max(axis=0), atol=1e-15
    )
    assert np.all(res.evpi >= 0)
    total = sum(res.p_best.values())
    np.testing.assert_allclose(total, 1.0, rtol=1e-12)
    for m in ("a", "b"):
        np.testing.assert_array_equal(
            res.p_useful[m], (reps[m] > np.maximum(reps["all"], 0)).mean(axis=0)
        )
    # at threshold 0.9 few are treated: treat-none is often best, EVPI is small
    assert res.p_best["none"][-1] > 0
    assert res.p_best["all"][-1] == 0


def test_reference_sign_and_errors():
    y, a, b = _data()
    t = [0.1, 0.3]
    res = compare_net_benefit(
        y, {"a": a, "b": b}, thresholds=t, reference="b", n_resamples=50, random_state=0
    )
    assert res.reference == "b" and list(res.difference) == ["a"]
    nb = res.curve.net_benefit
    np.testing.assert_allclose(res.difference["a"], nb["b"] - nb["a"])
    with pytest.raises(ValueError, match="reference"):
        compare_net_benefit(y, {"a": a, "b": b}, reference="c", n_resamples=50)
    with pytest.raises(ValueError, match="n_resamples"):
        compare_net_benefit(y, a, n_resamples=0)
    with pytest.raises(ValueError, match="model must be one of"):
        res.confidence_interval(model="z")
    one = compare_net_benefit(y, a, thresholds=t, n_resamples=50, random_state=0)
    assert one.reference is None and one.difference == {}
    with pytest.raises(ValueError, match="one model"):
        one.confidence_interval()
    three = compare_net_benefit(
        y, {"a": a, "b": b, "c": a**1.2}, thresholds=t, n_resamples=50, random_state=0
    )
    with pytest.raises(ValueError, match="model must name"):
        three.confidence_interval()
    three.confidence_interval(model="c")


def test_n_jobs_and_harm():
    y, a, b = _data()
    kw = {"thresholds": [0.1, 0.3], "n_resamples": 200, "random_state": 4}
    one = compare_net_benefit(y, {"a": a, "b": b}, **kw)
    two = compare_net_benefit(y, {"a": a, "b": b}, n_jobs=2, **kw)
    np.testing.assert_array_equal(one.evpi, two.evpi)
    harmed = compare_net_benefit(y, {"a": a, "b": b}, harm={"a": 0.01}, **kw)
    np.testing.assert_allclose(harmed.difference["b"], one.difference["b"] - 0.01)


def test_result_protocol_pieces():
    y, a, b = _data()
    res = compare_net_benefit(
        y, {"a": a, "b": b}, thresholds=[0.1, 0.3], n_resamples=50, random_state=0
    )
    frame = res.to_frame()
    assert set(frame["model"]) == {"a", "b", "all", "none"}
    assert {"difference", "difference_low", "evpi", "p_useful", "p_best"} <= set(frame)
    json.dumps(res.to_dict())
    assert "P(useful) [a]" in res.summary()
    assert repr(res).startswith("NetBenefitComparisonResult(models=['a', 'b']")
