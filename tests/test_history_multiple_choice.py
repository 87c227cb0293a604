"""Multiple-choice forecast histories: K categories per question.

References: plain numpy loops of the rules (the Brier score over K
categories, carried forward day by day; Metaculus's multiple-choice Baseline
score 100 ln(K p) / ln K of its ``scoring/score_math.py``, and its Peer score
on the probability of the category that occurred), and the invariance that a
yes/no question given as two categories scores exactly as the binary question.
"""

import numpy as np
import pytest

from skbrier import (
    baseline_score,
    brier_at,
    daily_brier,
    forecast_history,
    history_leaderboard,
    peer_score,
)


def simulate(seed, n_q=8, n_f=4):
    """Questions of 2-4 categories; updates at random times; outcome index per question."""
    rng = np.random.default_rng(seed)
    rows = {"forecaster": [], "question": [], "timestamp": [], "probability": []}
    ks = rng.integers(2, 5, n_q)
    close = rng.integers(3, 9, n_q).astype(float)
    for q in range(n_q):
        for f in range(n_f):
            if rng.random() < 0.2:
                continue
            for t in np.sort(rng.uniform(0, close[q], rng.integers(1, 4))):
                v = rng.dirichlet(np.ones(ks[q]))
                rows["forecaster"].append(f"f{f}")
                rows["question"].append(q)
                rows["timestamp"].append(float(t))
                rows["probability"].append(v)
    y = np.array([rng.integers(0, k) for k in ks])
    questions = {"question": np.arange(n_q), "open_time": np.zeros(n_q),
                 "close_time": close, "outcome": y}  # fmt: skip
    return rows, questions


def loop_daily(rows, qs, c):
    """Day-by-day carry-forward of c/2 * sum_k (p_k - y_k)^2, days with an own forecast."""
    out = {}
    for q, close in enumerate(qs["close_time"]):
        y = qs["outcome"][q]
        for f in sorted(set(rows["forecaster"])):
            mine = [(t, v) for ff, qq, t, v in zip(*rows.values()) if ff == f and qq == q]
            days = []
            for d in range(int(close)):
                standing = [v for t, v in mine if t < d + 1]
                if standing:
                    v = standing[-1]
                    days.append(c / 2 * np.sum((v - np.eye(len(v))[y]) ** 2))
            if days:
                out[(f, q)] = np.mean(days)
    return out


@pytest.mark.parametrize("scale_by_half", [True, False])
def test_daily_brier_equals_loop(scale_by_half):
    rows, qs = simulate(0)
    h = forecast_history(rows, qs, resolve_time=None)
    assert h.n_categories.min() >= 2
    res = daily_brier(h, scale_by_half=scale_by_half, before_first="exclude")
    ref = loop_daily(rows, qs, 1.0 if scale_by_half else 2.0)
    got = {
        (f, q): s for f, q, s in zip(res.pair_forecaster, res.pair_question, res.pair_score)
    }
    assert got.keys() == ref.keys()
    for k, v in ref.items():
        assert got[k] == pytest.approx(v, rel=1e-12)


def test_metaculus_baseline_and_peer():
    # one question of 3 categories, outcome 2; forecasters stand over the whole period
    h = forecast_history(
        {"forecaster": ["a", "b", "c"], "question": ["q"] * 3, "timestamp": [0.0] * 3,
         "probability": [[0.2, 0.2, 0.6], [0.5, 0.3, 0.2], [1 / 3, 1 / 3, 1 / 3]]},
        {"question": ["q"], "open_time": [0.0], "close_time": [10.0], "outcome": [2]},
        resolve_time=None,
    )  # fmt: skip
    base = baseline_score(h)
    np.testing.assert_allclose(
        base.score, 100 * np.log(3 * np.array([0.6, 0.2, 1 / 3])) / np.log(3)
    )
    assert base.score[2] == pytest.approx(0.0, abs=1e-12)  # the uniform forecast scores 0
    p = np.array([0.6, 0.2, 1 / 3])
    gm = np.exp(np.mean(np.log(p)))
    np.testing.assert_allclose(peer_score(h).score, 100 * 3 / 2 * np.log(p / gm))
    brier = baseline_score(h, rule="brier")
    b = 0.5 * np.array([0.04 + 0.04 + 0.16, 0.25 + 0.09 + 0.64, 2 / 9 + 4 / 9])
    np.testing.assert_allclose(brier.score, 100 * (1 / 3 - b) / (1 / 3), atol=1e-12)
    spot = baseline_score(h, at="midpoint")
    np.testing.assert_allclose(spot.score, base.score)


def test_two_categories_score_as_binary():
    rng = np.random.default_rng(1)
    n = 40
    f = rng.choice(["a", "b", "c"], n)
    q = rng.integers(0, 5, n)
    t = np.arange(n, dtype=float) / 8  # increasing: each pair in time order
    p = np.round(rng.uniform(0.05, 0.95, n), 3)
    y = rng.integers(0, 2, 5)
    qs = {"question": np.arange(5), "open_time": np.full(5, -1.0),
          "close_time": np.full(5, 6.0), "outcome": y}  # fmt: skip
    binary = forecast_history(
        {"forecaster": f, "question": q, "timestamp": t, "probability": p}, qs,
        resolve_time=None)  # fmt: skip
    vectors = [np.array([1 - v, v]) for v in p]
    multi = forecast_history(
        {"forecaster": f, "question": q, "timestamp": t, "probability": vectors}, qs,
        resolve_time=None)  # fmt: skip
    for score in (
        lambda h: daily_brier(h), lambda h: daily_brier(h, scale_by_half=False),
        lambda h: brier_at(h, "midpoint"), lambda h: baseline_score(h),
        lambda h: baseline_score(h, rule="brier"), lambda h: peer_score(h),
        lambda h: peer_score(h, at=3.0),
    ):  # fmt: skip
        a, b = score(binary), score(multi)
        np.testing.assert_allclose(a.pair_score, b.pair_score, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.score, b.score, rtol=1e-12, atol=1e-12)


def test_leaderboard_on_multiple_choice():
    rows, qs = simulate(2, n_q=12)
    h = forecast_history(rows, qs, resolve_time=None)
    res = history_leaderboard(baseline_score(h), n_resamples=20, random_state=0)
    assert res.higher_is_better and res.forecasters.tolist() == ["f0", "f1", "f2", "f3"]


@pytest.mark.parametrize(
    ("probs", "outcome", "message"),
    [
        ([[0.5, 0.6], [0.5, 0.5]], [0], "row 0 of forecasts .* sums to 1.1"),
        ([[0.5, 0.5], [0.2, 0.3, 0.5]], [0], "row 1 .* has 3 categories but an earlier"),
        ([[0.5, 0.5], [0.5, 0.5]], [2], "resolved as category 2.*2 categories"),
        ([[0.5, 0.5], [1.5, -0.5]], [0], "outside \\[0, 1\\]"),
        ([[1.0], [1.0]], [0], "at least 2"),
        ([[0.5, 0.5], [0.5, 0.5]], [0.5], "index \\(0, 1, ...\\) of the category"),
    ],
)
def test_errors(probs, outcome, message):
    with pytest.raises(ValueError, match=message):
        forecast_history(
            {"forecaster": ["a", "b"], "question": ["q", "q"], "timestamp": [0, 1],
             "probability": probs},
            {"question": ["q"], "open_time": [0], "close_time": [2], "outcome": outcome},
            resolve_time=None,
        )  # fmt: skip
