"""The snapshot leaderboard reports the top set and tie groups of history_leaderboard.

Both call one function (``rank_inference``); the tests check that a panel
scored as a snapshot (:func:`skbrier.leaderboard`) and as histories with one
forecast each (:func:`skbrier.history_leaderboard` of ``brier_at(last)``)
give the same groups, and recompute the groups from the replicates with
numpy: Bonferroni percentile intervals of the paired differences and
Chatbot Arena's "one plus the number significantly better".
"""

import json

import numpy as np
import pytest

from skbrier import brier_at, combine_leaderboards, forecast_history, history_leaderboard
from skbrier import leaderboard as snapshot_leaderboard
from skbrier.cli import main


def panel(seed=0, n_q=40):
    rng = np.random.default_rng(seed)
    y = (rng.random(n_q) < 0.5).astype(int)
    names, skill = ["a", "b", "c", "d"], [0.5, 0.45, 0.2, 0.0]
    f, q, p = [], [], []
    for name, s in zip(names, skill):
        for j in range(n_q):
            if name == "d" and j % 3 == 0:
                continue  # unbalanced
            f.append(name)
            q.append(f"q{j:02d}")
            p.append(
                float(np.clip(s * y[j] + (1 - s) / 2 + rng.normal(0, 0.1), 0.01, 0.99))
            )
    yy = np.array([y[int(s[1:])] for s in q])
    return np.array(f), np.array(q), yy, np.array(p)


def groups_by_numpy(reps, level, simultaneous=True):
    k = reps.shape[1]
    m = k * (k - 1) // 2
    lev = 1 - (1 - level) / m if simultaneous else level
    group = np.ones(k, dtype=int)
    for i in range(k):
        for j in range(k):
            if i != j:
                high = np.quantile(reps[:, j] - reps[:, i], 1 - (1 - lev) / 2)
                group[i] += high < 0  # j significantly better than i
    return group


@pytest.mark.parametrize("simultaneous", [True, False])
def test_groups_equal_numpy_and_history_leaderboard(simultaneous):
    f, q, y, p = panel()
    res = snapshot_leaderboard(y, p, forecaster=f, question=q, n_resamples=199,
                               random_state=1, simultaneous=simultaneous)  # fmt: skip
    assert (
        res.tie_group.tolist()
        == groups_by_numpy(res.replicates, 0.95, simultaneous).tolist()
    )
    ranks_low = np.floor(np.quantile(
        np.argsort(np.argsort(res.replicates, axis=1), axis=1) + 1.0, 0.025, axis=0))  # fmt: skip
    assert res.contains_best.tolist() == (ranks_low == 1).tolist()
    # the same panel as histories with one forecast each: the same numbers
    h = forecast_history(
        {"forecaster": f, "question": q, "timestamp": np.zeros(f.size), "probability": p},
        {"question": np.unique(q), "open_time": np.zeros(40), "close_time": np.ones(40),
         "outcome": [y[q == s][0] for s in np.unique(q)]}, resolve_time=None,
    )  # fmt: skip
    hist = history_leaderboard(brier_at(h), n_resamples=199, random_state=1,
                               simultaneous=simultaneous)  # fmt: skip
    np.testing.assert_allclose(hist.replicates, res.replicates, atol=1e-12)
    assert hist.tie_group.tolist() == res.tie_group.tolist()
    assert hist.top_set == res.top_set and hist.groups == res.groups
    np.testing.assert_allclose(hist.difference_high, res.difference_high, atol=1e-12)
    assert res.pairwise_frame().shape == (12, 6)


def test_no_replicates_and_combined():
    f, q, y, p = panel(2)
    res = snapshot_leaderboard(y, p, forecaster=f, question=q, n_resamples=0)
    assert res.top_set == [] and set(res.tie_group.tolist()) == {1}
    a = snapshot_leaderboard(y, p, forecaster=f, question=q, n_resamples=99, random_state=0)
    b = snapshot_leaderboard(y, p, forecaster=f, question=q, n_resamples=99, random_state=5)
    c = combine_leaderboards([a, b])
    assert c.tie_group.tolist() == groups_by_numpy(c.replicates, 0.95).tolist()
    assert c.groups[1][0] == c.forecasters[np.nanargmin(c.adjusted_brier)]


def test_cli_leaderboard_shows_ties(tmp_path, capsys):
    f, q, y, p = panel(3)
    path = tmp_path / "lb.csv"
    path.write_text("model,qid,y,p\n" + "".join(
        f"{a},{b},{c},{float(d)!r}\n" for a, b, c, d in zip(f, q, y, p)))  # fmt: skip
    args = ["leaderboard", str(path), "--forecaster-col", "model", "--question-col", "qid",
            "--y-col", "y", "--p-col", "p", "--n-resamples", "99", "--random-state", "0"]  # fmt: skip
    api = snapshot_leaderboard(
        y, p, forecaster=f, question=q, n_resamples=99, random_state=0
    )
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "tie_group" in text and "contains_best" in text
    assert f"top set (rank interval contains 1): {', '.join(api.top_set)}" in text
    assert "tie groups (1 + the number significantly better): 1: " in text
    assert main([*args, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    got = {r["forecaster"]: (r["tie_group"], r["contains_best"]) for r in rows}
    want = {
        n: (int(g), bool(c))
        for n, g, c in zip(api.forecasters, api.tie_group, api.contains_best)
    }
    assert got == want
    html = tmp_path / "lb.html"
    assert main([*args, "--html", str(html), "--marginal"]) == 0
    page = html.read_text()
    assert "tie group" in page and "&#9733;" in page and "Brier Index axis" in page
    assert "Bonferroni" not in page  # --marginal


def test_tables_end_with_the_same_rank_columns():
    """Both leaderboards' tables: their scores, then the bootstrap columns in one order."""
    f, q, y, p = panel()
    res = snapshot_leaderboard(y, p, forecaster=f, question=q, n_resamples=19,
                               random_state=1)  # fmt: skip
    h = forecast_history(
        {"forecaster": f, "question": q, "timestamp": np.zeros(f.size), "probability": p},
        {"question": np.unique(q), "open_time": np.zeros(40), "close_time": np.ones(40),
         "outcome": [y[q == s][0] for s in np.unique(q)]}, resolve_time=None,
    )  # fmt: skip
    hist = history_leaderboard(brier_at(h), n_resamples=19, random_state=1)
    tail = ["n_questions", "rank_low", "rank_high", "tie_group", "contains_best",
            "p_value", "share_best"]  # fmt: skip
    assert list(res.to_frame().columns) == [
        "forecaster", "brier_index", "brier_index_low", "brier_index_high",
        "adjusted_brier", "raw_brier", *tail]  # fmt: skip
    assert list(hist.to_frame().columns) == [
        "forecaster", "adjusted_score", "score_low", "score_high", "raw_score", *tail]  # fmt: skip
