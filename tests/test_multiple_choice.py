"""Multiple-choice Brier score against lm-evaluation-harness and BIG-bench."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.metrics import brier_score_loss

from skbrier import multiple_choice_brier_score as mcb


def _softmax(v):
    v = np.asarray(v, float)
    e = np.exp(v - v.max())
    return e / e.sum()


def lm_eval_reference(gold, lls):
    """lm-evaluation-harness: softmax per example, sum over choices, mean."""
    out = []
    for g, ll in zip(gold, lls):
        p = _softmax(ll)
        t = np.zeros_like(p)
        t[g] = 1
        out.append(np.sum((p - t) ** 2))
    return np.mean(out)


def bigbench_reference(targets, logprobs):
    """BIG-bench measure_calibration_multiple_choice_brier_score, written out."""
    total, count = 0.0, 0
    for t, lp in zip(targets, logprobs):
        p = _softmax(lp)
        t = np.asarray(t, float)
        t = t / t.sum()
        for pi, ti in zip(p, t):
            total += ti * (pi - 1) ** 2 + (1 - ti) * pi**2
            count += 1
    return total / count


def test_bigbench_own_test_vector():
    targets = [[1, 0, 0, 0], [0.5, 0, 0, 0]]
    logp = [[-0.1, -0.5, -3, -9], [-0.1, -0.5, -3, -9]]
    assert_allclose(
        mcb(targets, logp, convention="bigbench", from_logprobs=True),
        0.08217880533576256,
        rtol=1e-15,
    )
    # bit for bit (row sums as numpy's per-row sums)
    assert mcb(targets, logp, convention="bigbench", from_logprobs=True) == (
        0.08217880533576256
    )


def _ragged(seed=0, n=50):
    r = np.random.default_rng(seed)
    ks = r.integers(2, 7, n)
    lls = [r.normal(-3, 2, k) for k in ks]
    gold = np.array([r.integers(0, k) for k in ks])
    return gold, lls


def test_per_example_matches_lm_eval_ragged():
    gold, lls = _ragged()
    assert_allclose(
        mcb(gold, lls, from_logprobs=True), lm_eval_reference(gold, lls), rtol=1e-13
    )


def test_bigbench_matches_reference_ragged_soft_targets():
    gold, lls = _ragged(1)
    r = np.random.default_rng(2)
    targets = [
        r.random(len(ll)) * (r.random(len(ll)) < 0.6) + (np.arange(len(ll)) == g)
        for g, ll in zip(gold, lls)
    ]
    assert_allclose(
        mcb(targets, lls, convention="bigbench", from_logprobs=True),
        bigbench_reference(targets, lls),
        rtol=1e-13,
    )


def test_equal_choices_match_sklearn():
    r = np.random.default_rng(3)
    P = r.dirichlet(np.ones(4), 200)
    y = r.integers(0, 4, 200)
    sk = brier_score_loss(y, P, labels=[0, 1, 2, 3])
    assert_allclose(mcb(y, P), sk, rtol=1e-13)
    assert_allclose(mcb(y, P, convention="bigbench"), sk / 4, rtol=1e-13)
    onehot = np.eye(4)[y]
    assert_allclose(mcb(onehot, P), sk, rtol=1e-13)


def test_logprobs_equal_probabilities():
    gold, lls = _ragged(4)
    probs = [_softmax(ll) for ll in lls]
    assert_allclose(mcb(gold, lls, from_logprobs=True), mcb(gold, probs), rtol=1e-13)
    # -inf log-probabilities are impossible choices
    lls[0][0] = -np.inf
    assert np.isfinite(mcb(gold, lls, from_logprobs=True))


def test_weights():
    gold, lls = _ragged(5, 30)
    w = np.random.default_rng(6).integers(0, 4, 30)
    w[0] = 1
    rep_gold = np.repeat(gold, w)
    rep_lls = [ll for ll, k in zip(lls, w) for _ in range(k)]
    for conv in ("per_example", "bigbench"):
        assert_allclose(
            mcb(gold, lls, from_logprobs=True, sample_weight=w, convention=conv),
            mcb(rep_gold, rep_lls, from_logprobs=True, convention=conv),
            rtol=1e-12,
        )


def test_unnormalised_rows_warn():
    with pytest.warns(UserWarning, match="sum to one"):
        mcb([0, 1], [[0.5, 0.2], [0.3, 0.3]])


@pytest.mark.parametrize(
    "y, s, kw, err, param",
    [
        ([0, 3], [[0.5, 0.5], [0.2, 0.8]], {}, ValueError, "y_true"),
        ([0, -1], [[0.5, 0.5], [0.2, 0.8]], {}, ValueError, "y_true"),
        ([0], [[0.5, 0.5], [0.2, 0.8]], {}, ValueError, "y_true"),
        ([0, 1], [[0.5, np.nan], [0.2, 0.8]], {}, ValueError, "y_score"),
        ([0, 1], [[0.5, 1.5], [0.2, 0.8]], {}, ValueError, "y_score"),
        ([0, 1], [[0.5, 0.5], []], {}, ValueError, "y_score"),
        ([0, 1], [], {}, ValueError, "y_score"),
        (
            [0, 1],
            [[0.5, 0.5], [0.2, 0.8]],
            {"convention": "mmlu"},
            ValueError,
            "convention",
        ),
        ([[1, 0], [0, 0]], [[0.5, 0.5], [0.2, 0.8]], {}, ValueError, "y_true"),
        ([[1, 0], [0, 1, 0]], [[0.5, 0.5], [0.2, 0.8]], {}, ValueError, "y_true"),
        ([[1, -1], [0, 1]], [[0.5, 0.5], [0.2, 0.8]], {}, ValueError, "y_true"),
        (
            [0, 1],
            [[0.5, 0.5], [0.2, 0.8]],
            {"sample_weight": [1, -1]},
            ValueError,
            "sample_weight",
        ),
        (
            [0, 1],
            [[-np.inf, -np.inf], [0.0, 0.0]],
            {"from_logprobs": True},
            ValueError,
            "y_score",
        ),
        ([0, 1], [["a", "b"], ["c", "d"]], {}, TypeError, "y_score"),
        ([0.5, 1], [[0.5, 0.5], [0.2, 0.8]], {}, ValueError, "y_true"),
        ([0, 1], "abc", {}, TypeError, "y_score"),
    ],
)
def test_bad_input(y, s, kw, err, param):
    with pytest.raises(err, match=param):
        mcb(y, s, **kw)


# --------------------------------------------------------------------------- weights
@pytest.mark.parametrize("conv", ["per_example", "bigbench"])
def test_unit_and_zero_weights_bit_for_bit(conv):
    gold, lls = _ragged(7, 40)
    ref = mcb(gold, lls, from_logprobs=True, convention=conv)
    assert (
        mcb(gold, lls, from_logprobs=True, convention=conv, sample_weight=np.ones(40))
        == ref
    )
    # zero-weight examples == removed examples (the same sums in the same order)
    extra_gold = np.r_[gold[:10], [0, 1], gold[10:]]
    extra_lls = [*lls[:10], np.array([0.0, -1.0]), np.array([-3.0, 0.0, -1.0]), *lls[10:]]
    w = np.r_[np.ones(10), [0, 0], np.ones(30)]
    assert (
        mcb(extra_gold, extra_lls, from_logprobs=True, convention=conv, sample_weight=w)
        == ref
    )


@pytest.mark.parametrize("scale", [1e-200, 1e300, 4.9e-322])
@pytest.mark.parametrize("conv", ["per_example", "bigbench"])
def test_weights_of_any_scale(scale, conv):
    import warnings

    gold, lls = _ragged(8, 30)
    w = np.random.default_rng(9).integers(1, 5, 30).astype(float)
    ref = mcb(gold, lls, from_logprobs=True, convention=conv, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = mcb(gold, lls, from_logprobs=True, convention=conv, sample_weight=w * scale)
    assert_allclose(got, ref, rtol=1e-14)
    # weights summing to 1.5e308: weight x score (up to 2 x 1.2e308) must not overflow
    big = np.r_[1.2e308, np.full(29, 1e306)]
    small = np.r_[120.0, np.ones(29)]
    assert_allclose(
        mcb(gold, lls, from_logprobs=True, convention=conv, sample_weight=big),
        mcb(gold, lls, from_logprobs=True, convention=conv, sample_weight=small),
        rtol=1e-14,
    )


def test_extreme_scores_and_targets():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # log-probabilities 1e308 apart: the softmax is one-hot, no overflow warning
        assert mcb([0, 1], [[1e308, -1e308], [0.0, 0.0]], from_logprobs=True) == 0.25
        # target scores near the float maximum are normalised without overflow
        assert_allclose(mcb([[1e308, 1e308], [0, 1]], [[0.5, 0.5], [0.2, 0.8]]), 0.04)
    with pytest.raises(ValueError, match="^y_true"):
        mcb(np.array([0.0, 1e300]), [[0.5, 0.5], [0.2, 0.8]])
    with pytest.raises(ValueError, match="^y_true"):
        mcb(np.array([0.0, np.inf]), [[0.5, 0.5], [0.2, 0.8]])
    with pytest.raises(TypeError, match="^convention"):
        mcb([0, 1], [[0.5, 0.5], [0.2, 0.8]], convention=None)
    with pytest.raises(TypeError, match="^from_logprobs"):
        mcb([0, 1], [[0.5, 0.5], [0.2, 0.8]], from_logprobs=1)


def test_one_example_one_choice():
    assert mcb([0], [[1.0]]) == 0.0
    assert mcb([0], [[0.0]], from_logprobs=True) == 0.0
    assert mcb([[2.0]], [[1.0]], convention="bigbench") == 0.0


# --------------------------------------------------------------------------- hard 0/1
def test_one_hot_scores_warn_once_naming_y_score():
    import warnings

    from skbrier.exceptions import HardForecastWarning

    gold = [0, 2, 1]
    one_hot = [[1, 0, 0], [0, 1, 0, 0], [0, 1]]  # ragged, one wrong answer
    for conv in ("per_example", "bigbench"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = mcb(gold, one_hot, convention=conv)
        got = [w for w in caught if issubclass(w.category, HardForecastWarning)]
        assert len(got) == 1, [str(w.message) for w in caught]
        msg = str(got[0].message)
        assert msg.startswith("y_score: every forecast is exactly 0 or 1")
        assert "per-choice probabilities" in msg and "from_logprobs=True" in msg
        assert got[0].filename == __file__  # points at the caller's line
    # the number is unchanged: one wrong answer of three, (1 + 1) / 3 per example
    assert value == pytest.approx(2 / 9)
    with pytest.warns(HardForecastWarning):
        assert mcb(gold, one_hot) == pytest.approx(2 / 3)


def test_no_hard_warning_for_probabilities_or_logprobs():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mcb([0, 1], [[0.7, 0.3], [0.0, 1.0]])  # one soft row is enough
        # log-probabilities 0 and -inf, or 0 and 1 (softmax: soft): no warning
        mcb([0, 1], [[0.0, -np.inf], [-np.inf, 0.0]], from_logprobs=True)
        mcb([0, 1], [[1.0, 0.0], [0.0, 1.0]], from_logprobs=True)
        mcb([0, 0], [[1.0], [1.0]])  # one choice: probability 1 is forced
