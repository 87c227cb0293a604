"""Abstention: SimpleQA's scores (equal to simple-evals) and the answer-or-abstain utility.

The utility curve is the decision curve of "answer" with the right answers
as events; its area has a closed form (checked against the integral of the
curve) and is a proper scoring rule.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import skbrier
from skbrier.metrics.abstention import (
    abstention_scores,
    abstention_utility,
    compare_abstention_utility,
)
from skbrier.metrics.net_benefit import decision_curve

FX = json.loads(
    (Path(__file__).parent / "fixtures" / "selective_fixtures.json").read_text()
)

# numpy < 2.0 has only np.trapz
_trapezoid = getattr(np, "trapezoid", None) or np.trapz


def _data(n=300, seed=0, top=0.97):
    rng = np.random.default_rng(seed)
    conf = rng.uniform(0.0, top, n)
    right = (rng.uniform(size=n) < conf).astype(int)
    return right, conf


# --------------------------------------------------------------------------- SimpleQA
def _grades(case):
    g = np.array(case["grades"])
    return (g == "A").astype(int), (g != "C"), np.array(case["weights"], dtype=float)


@pytest.mark.parametrize("i", range(len(FX["simpleqa"])))
def test_simpleqa_scores_equal_simple_evals(i):
    case = FX["simpleqa"][i]
    y, attempted, w = _grades(case)
    for res, ref in (
        (abstention_scores(y, attempted), case["unweighted"]),
        (abstention_scores(y, attempted, sample_weight=w), case["weighted"]),
    ):
        assert res.correct == pytest.approx(ref["is_correct"], abs=1e-12)
        assert res.incorrect == pytest.approx(ref["is_incorrect"], abs=1e-12)
        assert res.not_attempted == pytest.approx(ref["is_not_attempted"], abs=1e-12)
        assert res.coverage == pytest.approx(ref["is_given_attempted"], abs=1e-12)
        assert res.accuracy_given_attempted == pytest.approx(
            ref["accuracy_given_attempted"], abs=1e-12
        )
        assert res.f_score == pytest.approx(ref["f1"], abs=1e-12)


def test_abstention_scores_weights_and_labels():
    y, attempted, w = _grades(FX["simpleqa"][0])
    rep = np.repeat(np.arange(y.shape[0]), w.astype(int))
    a = abstention_scores(y, attempted, sample_weight=w * 1e-200).to_dict()
    b = abstention_scores(y[rep], attempted[rep]).to_dict()
    for key in ("correct", "incorrect", "coverage", "accuracy_given_attempted", "f_score"):
        assert a[key] == pytest.approx(b[key], rel=1e-12)
    # correctness of a question not attempted is not read
    flipped = np.where(attempted, y, 1 - y)
    assert (
        abstention_scores(flipped, attempted).f_score
        == abstention_scores(y, attempted).f_score
    )
    with pytest.raises(ValueError, match="^attempted has more than two classes"):
        abstention_scores([1, 0, 1], [0, 1, 2])
    with pytest.raises(ValueError, match="^y_correct has 2 samples but attempted has 3"):
        abstention_scores([1, 0], [1, 1, 0])
    with pytest.raises(TypeError, match="^attempted must hold booleans"):
        abstention_scores([1, 0], ["yes", "no"])
    # a 1/2 coding is not read as "2 = attempted"
    with pytest.raises(ValueError, match="^attempted must hold 0/1"):
        abstention_scores([1, 0, 1], [1, 2, 2])


@pytest.mark.parametrize("missing", [np.nan, None])
def test_correctness_may_be_missing_where_not_attempted(missing):
    # an abstention has no correctness: NaN/None there is natural, and the old
    # advice ("drop those rows") would have changed the coverage and F-score
    ref = abstention_scores([1, 0, 1, 0], [1, 1, 1, 0])
    res = abstention_scores([1, 0, 1, missing], [1, 1, 1, 0])
    assert res.to_dict() == ref.to_dict()
    with pytest.raises(ValueError, match="^y_correct is missing .* attempted"):
        abstention_scores([1, missing, 1, 0], [1, 1, 1, 0])


# --------------------------------------------------------------------------- utility
def test_utility_is_the_net_benefit_of_answering():
    y, c = _data()
    t = np.array([0.0, 0.05, 0.3, 0.5, 0.9])
    res = abstention_utility(y, c, thresholds=t)
    dc = decision_curve(y, c, thresholds=t)
    np.testing.assert_array_equal(res.utility, dc.net_benefit)
    np.testing.assert_allclose(res.answer_all, dc.treat_all, rtol=1e-15)
    # by the definition: +1 right, -t/(1-t) wrong, 0 abstaining
    for k, tk in enumerate(t):
        answered = c >= tk
        gain = np.where(y == 1, 1.0, -tk / (1 - tk)) * answered
        assert res.utility[k] == pytest.approx(gain.mean(), abs=1e-15)
        assert res.answer_rate[k] == pytest.approx(answered.mean())
    assert res.utility[0] == pytest.approx(y.mean())  # t = 0: answer everything
    assert res.accuracy == pytest.approx(y.mean())


@pytest.mark.parametrize("top", [0.6, 0.9, 1.0])
def test_area_is_the_integral_of_the_curve(top):
    y, c = _data(200, 1)
    t = np.linspace(0.0, top, 200_001)[:-1] if top == 1.0 else np.linspace(0, top, 200_001)
    curve = abstention_utility(y, c, thresholds=t).utility
    res = abstention_utility(y, c, max_threshold=top)
    # the curve jumps at each confidence: the grid integral converges at O(1/grid)
    assert res.area == pytest.approx(_trapezoid(curve, t), abs=2e-4)
    m = np.minimum(c, top)
    assert res.area == pytest.approx(np.mean(np.where(y == 1, m, m + np.log1p(-m))))


def test_area_is_a_proper_score():
    p = 0.63
    grid = np.linspace(0.01, 0.99, 99)

    def expected(conf):
        right = abstention_utility([1], [conf], thresholds=[0.5]).area
        wrong = abstention_utility([0], [conf], thresholds=[0.5]).area
        return p * right + (1 - p) * wrong

    scores = [expected(g) for g in grid]
    assert grid[int(np.argmax(scores))] == pytest.approx(p)


def test_a_wrong_answer_of_confidence_one():
    with pytest.warns(RuntimeWarning, match="^confidence: 1 wrong answer.*max_threshold"):
        res = abstention_utility([1, 0], [0.9, 1.0], thresholds=[0.5])
    assert res.area == -np.inf
    capped = abstention_utility([1, 0], [0.9, 1.0], thresholds=[0.5], max_threshold=0.99)
    assert capped.area == pytest.approx((0.9 + 0.99 + np.log(0.01)) / 2)
    with pytest.raises(ValueError, match="^max_threshold"):
        abstention_utility([1, 0], [0.9, 1.0], max_threshold=0.0)
    with pytest.raises(ValueError, match="^thresholds must lie in \\[0, 1\\)"):
        abstention_utility([1, 0], [0.9, 1.0], thresholds=[0.5, 1.0])


def test_a_right_answer_of_confidence_one():
    # a right answer at confidence 1 earns 1 at every threshold: its share of
    # the area is 1 (was 0 * log(0) = NaN, a NaN area and a leaked numpy warning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = abstention_utility([1, 0, 1], [1.0, 0.5, 0.3], thresholds=[0.5])
        cmp = compare_abstention_utility(
            [1, 0, 1], [1.0, 0.5, 0.3], [1, 1, 0], [0.2, 0.6, 0.7], n_resamples=0
        )
    assert res.area == pytest.approx((1.0 + 0.5 + np.log(0.5) + 0.3) / 3)
    assert cmp.area_a == pytest.approx(res.area)
    assert np.isfinite(cmp.area_difference)
    t = np.linspace(0.0, 1.0, 100_001)[:-1]
    curve = abstention_utility([1, 1, 0], [1.0, 0.8, 0.4], thresholds=t).utility
    assert abstention_utility([1, 1, 0], [1.0, 0.8, 0.4]).area == pytest.approx(
        _trapezoid(curve, t), abs=1e-4
    )


def test_utility_bootstrap():
    pytest.importorskip("pandas")
    y, c = _data(400, 2)
    res = abstention_utility(y, c, thresholds=[0.2, 0.6], n_resamples=300, random_state=1)
    low, high = res.confidence_interval()
    assert low < res.area < high
    band = res.confidence_interval(0.8, metric="utility", method="basic")
    assert np.all(band.low <= res.utility) and np.all(res.utility <= band.high)
    frame = res.to_frame()
    assert list(frame.columns) == [
        "threshold",
        "utility",
        "answer_rate",
        "answer_all",
        "utility_low",
        "utility_high",
    ]
    again = abstention_utility(
        y, c, thresholds=[0.2, 0.6], n_resamples=300, random_state=1, n_jobs=2
    )
    assert again.confidence_interval() == (low, high)
    json.dumps(res.to_dict())
    with pytest.raises(ValueError, match="no bootstrap"):
        abstention_utility(y, c).confidence_interval()


def test_utility_weights_equal_repeated_rows():
    y, c = _data(50, 3)
    w = np.random.default_rng(3).integers(0, 4, 50).astype(float)
    rep = np.repeat(np.arange(50), w.astype(int))
    kw = {"thresholds": [0.1, 0.5], "n_resamples": 50, "random_state": 4}
    a = abstention_utility(y, c, sample_weight=w, **kw)
    b = abstention_utility(y[rep], c[rep], **kw)
    np.testing.assert_allclose(a.utility, b.utility, atol=1e-15)
    assert a.area == pytest.approx(b.area, abs=1e-15)
    np.testing.assert_allclose(a.confidence_interval(), b.confidence_interval(), atol=1e-14)
    np.testing.assert_allclose(
        a.confidence_interval(metric="utility"),
        b.confidence_interval(metric="utility"),
        atol=1e-14,
    )
    scaled = abstention_utility(y, c, sample_weight=w * 1e-200, thresholds=[0.1, 0.5])
    np.testing.assert_allclose(scaled.utility, a.utility, rtol=1e-12)


# --------------------------------------------------------------------------- paired comparison
def test_paired_comparison():
    y, c = _data(300, 5)
    rng = np.random.default_rng(5)
    yb = np.where(rng.uniform(size=300) < 0.2, 1 - y, y)
    cb = np.clip(c + rng.normal(0, 0.1, 300), 0, 0.97)
    kw = {"thresholds": [0.3, 0.7], "n_resamples": 100, "random_state": 8}
    res = compare_abstention_utility(y, c, yb, cb, **kw)
    a = abstention_utility(y, c, **kw)
    b = abstention_utility(yb, cb, **kw)
    np.testing.assert_array_equal(res.difference, a.utility - b.utility)
    assert res.area_difference == pytest.approx(a.area - b.area)
    # the same questions resampled for both: the replicates are paired
    np.testing.assert_allclose(
        res.bootstrap_replicates["utility_area"],
        a.bootstrap_replicates["utility_area"] - b.bootstrap_replicates["utility_area"],
        atol=1e-14,
    )
    low, high = res.confidence_interval()
    assert low < res.area_difference < high
    assert "CI" in res.summary()
    same = compare_abstention_utility(y, c, y, c, **kw)
    assert same.confidence_interval() == (0.0, 0.0)
    with pytest.raises(ValueError, match="^confidence_b has 2 samples"):
        compare_abstention_utility(y, c, [1, 0], [0.2, 0.3])


def test_top_level_exports():
    y, c = _data(30, 7)
    assert skbrier.abstention_utility(y, c).area == abstention_utility(y, c).area
    assert type(skbrier.compare_abstention_utility(y, c, y, c, n_resamples=0)) is (
        skbrier.results.AbstentionUtilityComparison
    )


def test_comparison_of_two_infinite_areas_is_refused():
    # both models answer wrongly with confidence 1: each area is -inf and their
    # difference was NaN (a numpy "invalid value" warning leaked), its interval
    # drawn from the resamples that missed those questions
    y = [0, 1, 1, 0, 1]
    with pytest.raises(ValueError, match=r"max_threshold < 1"):
        compare_abstention_utility(
            y, [1.0, 0.5, 0.3, 0.2, 0.9], y, [1.0, 0.6, 0.3, 0.2, 0.9], n_resamples=0
        )
    # one infinite area: the difference is -inf (said by the warning), not NaN
    with pytest.warns(RuntimeWarning, match="confidence_a: 1 wrong"):
        res = compare_abstention_utility(
            y, [1.0, 0.5, 0.3, 0.2, 0.9], y, [0.9, 0.6, 0.3, 0.2, 0.9], n_resamples=0
        )
    assert res.area_difference == -np.inf


def test_utility_area_with_subnormal_weights():
    # the weighted mean of the area scores divides the weights first (w @ s
    # lost the digits of subnormal weights x scores)
    y, c = _data(50, 7)
    w = np.arange(1.0, 51.0)
    ref = abstention_utility(y, c, sample_weight=w, max_threshold=0.9).area
    got = abstention_utility(y, c, sample_weight=w * 5e-324, max_threshold=0.9).area
    assert got == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("scale", [5e-324, 1e-320, 1e300])
def test_utility_area_at_odd_weight_scales(scale):
    # the area (a weighted mean) of weights of 5e-324 was rounded (0.3134 against
    # 0.3346 in the audit's case)
    c = np.tile([0.95, 0.9, 0.72, 0.6, 0.45, 0.3, 0.1], 3)
    y = np.tile([1, 1, 0, 1, 0, 1, 0], 3)
    w = np.arange(21) % 4 + 1.0
    ref = abstention_utility(y, c, sample_weight=w, thresholds=[0.0, 0.3, 0.8])
    got = abstention_utility(y, c, sample_weight=w * scale, thresholds=[0.0, 0.3, 0.8])
    assert got.area == pytest.approx(ref.area, rel=1e-12)
    np.testing.assert_allclose(got.utility, ref.utility, rtol=1e-12)


def test_right_answer_of_confidence_one_earns_its_area():
    # with max_threshold=1 a right answer of confidence 1 earns 1 over the
    # whole threshold range; (1 - correct) * log(1 - 1) = 0 * -inf made the
    # area NaN (with numpy's invalid-value warning)
    y = np.array([1, 0, 1, 0])
    c = np.array([1.0, 0.4, 0.7, 0.2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = abstention_utility(y, c, thresholds=[0.0, 0.5])
    expected = (1.0 + 0.4 + np.log1p(-0.4) + 0.7 + 0.2 + np.log1p(-0.2)) / 4
    assert res.area == pytest.approx(expected, rel=1e-14)
