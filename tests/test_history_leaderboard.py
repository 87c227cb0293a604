"""history_leaderboard: scores over histories ranked, difficulty-adjusted, with ties.

References are independent numpy formulas on simulated histories:

* the two-way fixed-effects fit as a weighted least-squares regression on
  forecaster and question dummies (``numpy.linalg.lstsq``), normalised so the
  weighted mean question effect over the rows is 0;
* the frozen and unadjusted scores as weighted means;
* the replicate statistics (percentile intervals, competition ranks with
  ``scipy.stats.rankdata``, Bonferroni paired intervals, Chatbot Arena's
  "1 + number significantly better") recomputed from ``res.replicates``;

plus invariances: the order of the update rows, relabelling the forecasters,
and the two engines (fit, no fit) agreeing where they must (balanced panel).
"""

import numpy as np
import pytest
from scipy import stats

from skbrier import (
    baseline_score,
    brier_at,
    daily_brier,
    forecast_history,
    history_leaderboard,
    peer_score,
)
from skbrier.results import HistoryLeaderboardResult


def simulate(seed, n_f=5, n_q=30, p_answer=0.7, balanced=False, names=None):
    """Forecasters of different skill updating questions 1-3 times; question weights 1-3."""
    rng = np.random.default_rng(seed)
    names = names or [f"f{i}" for i in range(n_f)]
    skill = np.linspace(0.1, 0.7, n_f)
    y = (rng.random(n_q) < 0.5).astype(int)
    rows = {"forecaster": [], "question": [], "timestamp": [], "probability": []}
    for i, name in enumerate(names):
        for q in range(n_q):
            if not balanced and rng.random() > p_answer and q % n_f != i:
                continue
            for t in np.sort(rng.uniform(0, 10, rng.integers(1, 4))):
                base = skill[i] * y[q] + (1 - skill[i]) / 2
                p = float(np.clip(base + rng.normal(0, 0.15), 0.02, 0.98))
                rows["forecaster"].append(name)
                rows["question"].append(f"q{q:02d}")
                rows["timestamp"].append(float(t))
                rows["probability"].append(p)
    questions = {
        "question": [f"q{q:02d}" for q in range(n_q)],
        "open_time": np.zeros(n_q),
        "close_time": np.full(n_q, 12.0),
        "outcome": y,
        "weight": rng.integers(1, 4, n_q).astype(float),
    }
    return rows, questions


def history(seed=0, **kw):
    rows, qs = simulate(seed, **kw)
    return forecast_history(rows, qs, resolve_time=None, weight="weight")


def fe_reference(f, q, s, w):
    """Weighted two-way fixed effects by dummies; returns (alpha by name, gamma by name)."""
    fn, fi = np.unique(f, return_inverse=True)
    qn, qi = np.unique(q, return_inverse=True)
    X = np.zeros((s.size, fn.size + qn.size))
    X[np.arange(s.size), fi] = 1.0
    X[np.arange(s.size), fn.size + qi] = 1.0
    sw = np.sqrt(w)
    coef = np.linalg.lstsq(X * sw[:, None], s * sw, rcond=None)[0]
    alpha, gamma = coef[: fn.size], coef[fn.size :]
    c = np.sum(w * gamma[qi]) / np.sum(w)
    return dict(zip(fn, alpha + c)), dict(zip(qn, gamma - c))


SCORES = {
    "daily_brier": lambda h: daily_brier(h),
    "brier_at_midpoint": lambda h: brier_at(h, "midpoint"),
    "peer_log": lambda h: peer_score(h),
    "baseline_brier": lambda h: baseline_score(h, rule="brier"),
}


@pytest.mark.parametrize("name", list(SCORES))
def test_fixed_effects_equal_dummy_regression(name):
    sc = SCORES[name](history(1))
    res = history_leaderboard(sc, n_resamples=0)
    alpha, gamma = fe_reference(
        sc.pair_forecaster, sc.pair_question, sc.pair_score, sc.pair_weight
    )
    assert res.higher_is_better == sc.higher_is_better
    assert res.adjustment == "fixed_effects"
    got = dict(zip(res.forecasters.tolist(), res.adjusted_score))
    for k, v in alpha.items():
        assert got[k] == pytest.approx(v, abs=1e-9)
    np.testing.assert_allclose(
        res.question_effects, [gamma[k] for k in res.questions], atol=1e-9
    )
    # the raw scores are the history score's weighted means
    raw = dict(zip(sc.forecasters.tolist(), sc.score))
    for k, v in zip(res.forecasters.tolist(), res.raw_score):
        assert v == pytest.approx(raw[k], rel=1e-12)


def test_frozen_effects_and_no_adjustment_are_weighted_means():
    sc = peer_score(history(2))
    rng = np.random.default_rng(0)
    effects = {q: float(rng.normal()) for q in sc.questions.tolist()}
    res = history_leaderboard(sc, question_effects=effects, n_resamples=0)
    none = history_leaderboard(sc, adjustment="none", n_resamples=0)
    assert res.adjustment == "frozen" and none.adjustment == "none"
    for i, name in enumerate(res.forecasters.tolist()):
        m = sc.pair_forecaster == name
        w = sc.pair_weight[m]
        g = np.array([effects[q] for q in sc.pair_question[m]])
        assert res.adjusted_score[i] == pytest.approx(
            np.sum(w * (sc.pair_score[m] - g)) / np.sum(w), rel=1e-12
        )
        assert none.adjusted_score[i] == pytest.approx(
            np.sum(w * sc.pair_score[m]) / np.sum(w), rel=1e-12
        )
    np.testing.assert_allclose(res.question_effects, [effects[q] for q in res.questions])


@pytest.mark.parametrize("name", ["daily_brier", "peer_log"])
def test_replicate_statistics_match_numpy(name):
    sc = SCORES[name](history(3, n_f=6))
    res = history_leaderboard(
        sc, n_resamples=199, reference="f2", random_state=4, confidence_level=0.9
    )
    reps = res.replicates
    assert reps.shape == (199, 6) and res.n_resamples == 199
    np.testing.assert_allclose(res.score_low, np.percentile(reps, 5, axis=0))
    np.testing.assert_allclose(res.score_high, np.percentile(reps, 95, axis=0))
    loss = -reps if sc.higher_is_better else reps
    ranks = stats.rankdata(loss, method="min", axis=1)
    np.testing.assert_array_equal(res.rank_low, np.floor(np.percentile(ranks, 5, axis=0)))
    np.testing.assert_array_equal(res.rank_high, np.ceil(np.percentile(ranks, 95, axis=0)))
    np.testing.assert_array_equal(res.contains_best, res.rank_low == 1)
    np.testing.assert_allclose(
        res.share_best, np.bincount(loss.argmin(axis=1), minlength=6) / 199
    )
    ref = 2
    p = np.mean(loss <= loss[:, [ref]], axis=0)
    p[ref] = np.nan
    np.testing.assert_allclose(res.p_value, p)
    # paired intervals, Bonferroni over 15 pairs; tie groups (Chatbot Arena's rank)
    a = 0.1 / 15
    better = np.zeros((6, 6), dtype=bool)
    for i in range(6):
        for j in range(6):
            d = reps[:, i] - reps[:, j]
            lo, hi = np.percentile(d, [100 * a / 2, 100 * (1 - a / 2)])
            if i != j:
                assert res.difference_low[i, j] == pytest.approx(lo, abs=1e-12)
                assert res.difference_high[i, j] == pytest.approx(hi, abs=1e-12)
            better[i, j] = (hi < 0) if not sc.higher_is_better else (lo > 0)
    np.testing.assert_array_equal(res.better, better)
    np.testing.assert_array_equal(res.tie_group, 1 + better.sum(axis=0))
    assert res.tie_group.min() == 1
    # the best point estimate is in group 1 and in the top set
    best = res.forecasters[
        np.argmin(-res.adjusted_score if sc.higher_is_better else res.adjusted_score)
    ]
    assert best in res.groups[1] and best in res.top_set
    # without the adjustment the intervals are narrower or equal (Bonferroni)
    marginal = history_leaderboard(
        sc, n_resamples=199, random_state=4, confidence_level=0.9, simultaneous=False
    )
    assert np.all(marginal.difference_high <= res.difference_high + 1e-12)
    assert np.all(marginal.tie_group >= res.tie_group)


def test_balanced_panel_fit_equals_raw_means_in_every_replicate():
    sc = brier_at(history(4, balanced=True), "last")
    # 16 replicates: one chunk in both engines, hence the same question draws
    fit = history_leaderboard(sc, n_resamples=16, random_state=1)
    raw = history_leaderboard(sc, adjustment="none", n_resamples=16, random_state=1)
    np.testing.assert_allclose(fit.adjusted_score, raw.adjusted_score, atol=1e-12)
    np.testing.assert_allclose(fit.replicates, raw.replicates, atol=1e-10)


def test_invariant_to_row_order_and_forecaster_labels():
    rows, qs = simulate(5)
    h = forecast_history(rows, qs, resolve_time=None, weight="weight")
    base = history_leaderboard(daily_brier(h), n_resamples=60, random_state=7)
    # any order of the rows with each pair's updates in time order
    perm = np.random.default_rng(0).permutation(len(rows["forecaster"]))
    perm = perm[np.argsort(np.asarray(rows["timestamp"])[perm], kind="stable")]
    shuffled = {k: [v[i] for i in perm] for k, v in rows.items()}
    h2 = forecast_history(shuffled, qs, resolve_time=None, weight="weight")
    again = history_leaderboard(daily_brier(h2), n_resamples=60, random_state=7)
    for f in ("adjusted_score", "replicates", "tie_group", "rank_low", "difference_high"):
        np.testing.assert_array_equal(getattr(base, f), getattr(again, f))
    # relabel: f0..f4 -> z4..z0 reverses the sorted order
    mapping = {f"f{i}": f"z{4 - i}" for i in range(5)}
    relabelled = dict(rows, forecaster=[mapping[v] for v in rows["forecaster"]])
    h3 = forecast_history(relabelled, qs, resolve_time=None, weight="weight")
    other = history_leaderboard(daily_brier(h3), n_resamples=60, random_state=7)
    pos = [other.forecasters.tolist().index(mapping[n]) for n in base.forecasters]
    np.testing.assert_allclose(other.adjusted_score[pos], base.adjusted_score, atol=1e-12)
    np.testing.assert_allclose(other.replicates[:, pos], base.replicates, atol=1e-12)
    np.testing.assert_array_equal(other.tie_group[pos], base.tie_group)
    np.testing.assert_array_equal(other.better[np.ix_(pos, pos)], base.better)
    np.testing.assert_allclose(
        other.difference_low[np.ix_(pos, pos)], base.difference_low, atol=1e-12
    )


def test_anchor_strata_and_fit_forecasters():
    sc = baseline_score(history(6))
    res = history_leaderboard(
        sc, anchor=("f0", 10.0), n_resamples=40, random_state=0,
        strata={q: int(q[1:]) % 3 for q in sc.questions.tolist()},
        fit_forecasters=["f1", "f2", "f3", "f4"],
    )  # fmt: skip
    assert res.adjusted_score[0] == pytest.approx(10.0)
    np.testing.assert_allclose(res.replicates[:, 0], 10.0)
    assert res.anchor == ("f0", 10.0)
    assert res.fitted.tolist() == [False, True, True, True, True]
    # strata as an array in the order of the questions gives the same draws
    arr = [int(q[1:]) % 3 for q in sc.questions.tolist()]
    same = history_leaderboard(
        sc, anchor=("f0", 10.0), n_resamples=40, random_state=0, strata=arr,
        fit_forecasters=["f1", "f2", "f3", "f4"],
    )  # fmt: skip
    np.testing.assert_array_equal(same.replicates, res.replicates)


def test_result_protocol():
    sc = daily_brier(history(7, n_f=3))
    res = history_leaderboard(sc, n_resamples=30, random_state=0)
    assert isinstance(res, HistoryLeaderboardResult)
    assert repr(res).startswith("HistoryLeaderboardResult(score_name=daily_brier")
    frame = res.to_frame()
    assert frame["forecaster"].tolist()[0] == res.top_set[0]
    assert "tie_group" in res.summary()
    pairs = res.pairwise_frame()
    assert len(pairs) == 6 and set(pairs.columns) >= {"low", "high", "better"}
    d = res.to_dict()
    assert d["score_name"] == "daily_brier" and len(d["better"]) == 3
    none = history_leaderboard(sc, n_resamples=0)
    assert np.isnan(none.score_low).all() and none.tie_group.tolist() == [1, 1, 1]


def test_errors():
    sc = daily_brier(history(8, n_f=3))
    with pytest.raises(TypeError, match="scores must be the result"):
        history_leaderboard(history(8, n_f=3))
    with pytest.raises(ValueError, match="adjustment"):
        history_leaderboard(sc, adjustment="twoway")
    with pytest.raises(ValueError, match="fit_forecasters: nothing is fitted"):
        history_leaderboard(sc, adjustment="none", fit_forecasters=["f0"])
    with pytest.raises(ValueError, match="question_effects: 1 question"):
        history_leaderboard(sc, question_effects={q: 0.0 for q in sc.questions[1:]})
    with pytest.raises(ValueError, match="anchor: unknown forecaster 'x'"):
        history_leaderboard(sc, anchor=("x", 0.1))
    with pytest.raises(ValueError, match="strata has 2 values"):
        history_leaderboard(sc, strata=[1, 2])
    with pytest.raises(ValueError, match="question_effects and adjustment='none'"):
        history_leaderboard(sc, adjustment="none", question_effects={})
