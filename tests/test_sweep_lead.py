"""Leaderboards and histories: one outcome per question, the history board's
intervals, and the owner's sweep of the area (tests/test_sweep_forecasting.py
holds the earlier sweep)."""

import re
import warnings

import numpy as np
import pytest

import skbrier as sk
from skbrier.cli import main


def _panel(n_q=12, seed=0):
    """Three forecasters on every question, one outcome per question."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n_q) < 0.5).astype(int)
    f = np.repeat(["a", "b", "c"], n_q)
    q = np.tile([f"q{j:02d}" for j in range(n_q)], 3)
    p = np.clip(np.tile(y, 3) * 0.6 + 0.2 + rng.normal(0, 0.1, 3 * n_q), 0, 1)
    return np.tile(y, 3), p, f, q


# --------------------------------------------------------------------------
# 1. a question has one outcome
# --------------------------------------------------------------------------
@pytest.mark.parametrize("func", ["leaderboard", "difficulty_adjusted_brier"])
def test_a_question_with_two_outcomes_is_refused(func):
    y, p, f, q = _panel()
    y = y.copy()
    # a join that gave forecaster c its own outcomes on two questions
    y[2 * 12 + 3] = 1 - y[3]
    y[2 * 12 + 7] = 1 - y[7]
    kw = {"n_resamples": 0} if func == "leaderboard" else {}
    with pytest.raises(ValueError) as err:
        getattr(sk, func)(y, p, forecaster=f, question=q, **kw)
    msg = str(err.value)
    assert msg.startswith("y_true must be the same on every row of a question")
    assert "2 questions have rows that differ" in msg
    assert f"question 'q03', y_true {y[3]} in row 3, {y[27]} in row 27" in msg
    assert msg.endswith(
        "one outcome per question; check the join of outcomes to forecasts."
    )


def test_the_message_shows_the_labels_given():
    y, p, f, q = _panel()
    labels = np.where(y == 1, "yes", "no").astype(object)
    labels[12] = "no" if labels[0] == "yes" else "yes"
    with pytest.raises(ValueError, match=f"y_true '{labels[0]}' in row 0, '{labels[12]}'"):
        sk.leaderboard(labels, p, forecaster=f, question=q, pos_label="yes", n_resamples=0)


def test_two_outcomes_are_refused_before_singletons_are_dropped():
    # the question answered by one fitted forecaster was dropped first and its
    # two outcomes went unseen
    y, p, f, q = _panel()
    with pytest.raises(ValueError, match="question 'x'"):
        sk.leaderboard(
            np.concatenate([y, [1, 0]]),
            np.concatenate([p, [0.5, 0.5]]),
            forecaster=np.concatenate([f, ["a", "b"]]),
            question=np.concatenate([q, ["x", "x"]]),
            fit_forecasters=["a"],
            singletons="drop",
            n_resamples=0,
        )


def test_zero_weight_rows_do_not_count_and_one_outcome_passes():
    y, p, f, q = _panel()
    y2 = y.copy()
    y2[12] = 1 - y[0]
    w = np.ones(y.shape[0])
    w[12] = 0.0  # the row is removed: its outcome does not matter
    res = sk.leaderboard(y2, p, forecaster=f, question=q, sample_weight=w, n_resamples=0)
    assert res.n_rows == y.shape[0] - 1
    sk.leaderboard(y, p, forecaster=f, question=q, n_resamples=0)


def test_the_leaderboard_command_refuses_two_outcomes(tmp_path, capsys):
    y, p, f, q = _panel()
    y = y.copy()
    y[30] = 1 - y[6]
    path = tmp_path / "board.csv"
    path.write_text(
        "model,qid,outcome,forecast\n"
        + "".join(f"{a},{b},{c},{d:.3f}\n" for a, b, c, d in zip(f, q, y, p))
    )
    argv = ["leaderboard", str(path), "--forecaster-col", "model", "--question-col", "qid",
            "--y-col", "outcome", "--p-col", "forecast", "--n-resamples", "0"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    # the column and rows of the file (the header is line 1)
    assert err.startswith("skbrier: error: y_true (--y-col 'outcome') must be the same")
    assert f"question 'q06', y_true {float(y[6])} in row 8 of {path}" in err
    assert "one outcome per question" in err


def test_a_history_has_one_outcome_per_question():
    # forecast_history reads the outcomes from a table of questions: a second
    # row of a question (another outcome) is refused there
    with pytest.raises(ValueError, match="question 1.*appears in rows 0 and 1"):
        sk.forecast_history(
            {"forecaster": ["a"], "question": [1], "timestamp": [0.0], "probability": [0.5]},
            {"question": [1, 1], "open_time": [0, 0], "close_time": [1, 1],
             "outcome": [1, 0]},
            resolve_time=None,
        )  # fmt: skip


# --------------------------------------------------------------------------
# 2. the history leaderboard's confidence_interval
# --------------------------------------------------------------------------
def _history(n_q=30, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n_q) < 0.5).astype(int)
    rows = [
        (
            name,
            j,
            t,
            float(np.clip(y[j] * s + (1 - s) / 2 + rng.normal(0, 0.1), 0.01, 0.99)),
        )
        for name, s in (("sharp", 0.8), ("fair", 0.5), ("coin", 0.0))
        for j in range(n_q)
        for t in (0.0, 4.0)
    ]
    f, q, t, p = map(list, zip(*rows))
    return sk.forecast_history(
        {"forecaster": f, "question": q, "timestamp": t, "probability": p},
        {"question": np.arange(n_q), "open_time": np.zeros(n_q),
         "close_time": np.full(n_q, 10.0), "outcome": y},
        resolve_time=None,
    )  # fmt: skip


@pytest.fixture(scope="module")
def boards():
    h = _history()
    kw = {"n_resamples": 99, "random_state": 0}
    return {
        "brier": sk.history_leaderboard(sk.daily_brier(h), **kw),
        "peer": sk.history_leaderboard(sk.peer_score(h), **kw),
    }


@pytest.mark.parametrize("kind", ["brier", "peer"])
def test_the_default_interval_is_the_one_the_board_carries(boards, kind):
    res = boards[kind]
    low, high = res.confidence_interval()
    np.testing.assert_array_equal(low, res.score_low)
    np.testing.assert_array_equal(high, res.score_high)
    low, high = res.confidence_interval(metric="rank")
    np.testing.assert_array_equal(low, res.rank_low)
    np.testing.assert_array_equal(high, res.rank_high)
    i = res.forecasters.tolist().index("fair")
    one = res.confidence_interval(0.95, model="fair")
    assert one == (res.score_low[i], res.score_high[i])
    assert isinstance(one.low, float)


def test_the_metric_names_are_those_of_the_leaderboard(boards):
    # a Brier score over histories is an adjusted Brier score, as on the
    # leaderboard; a peer score is not one, and its metric says so
    brier, peer = boards["brier"], boards["peer"]
    for res, metric in ((brier, "adjusted_brier"), (peer, "adjusted_score")):
        np.testing.assert_array_equal(
            res.confidence_interval(), res.confidence_interval(metric=metric)
        )
    with pytest.raises(
        ValueError, match=r"^metric must be one of \('adjusted_brier', 'rank'\)"
    ):
        brier.confidence_interval(metric="adjusted_score")
    with pytest.raises(
        ValueError, match=r"^metric must be one of \('adjusted_score', 'rank'\)"
    ):
        peer.confidence_interval(metric="adjusted_brier")


def test_a_peer_interval_keeps_the_orientation_of_the_score(boards):
    peer = boards["peer"]
    low, high = peer.confidence_interval(0.8)
    assert np.all(low <= high)
    inner = peer.confidence_interval(0.5)
    assert np.all((low <= inner.low) & (inner.high <= high))
    # the replicates are in the score's units: the percentile interval of them
    q = np.nanquantile(peer.replicates, [0.1, 0.9], axis=0)
    np.testing.assert_allclose(low, q[0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(high, q[1], rtol=1e-12, atol=1e-12)


def test_a_board_without_replicates_says_how_to_get_them():
    res = sk.history_leaderboard(sk.daily_brier(_history()), n_resamples=0)
    with pytest.raises(
        ValueError, match=re.escape("call history_leaderboard with n_resamples > 0")
    ):
        res.confidence_interval()
    with pytest.raises(ValueError, match="^model: unknown forecaster 'nobody'"):
        sk.history_leaderboard(
            sk.daily_brier(_history()), n_resamples=9, random_state=0
        ).confidence_interval(model="nobody")


def test_the_leaderboards_rank_interval_is_its_rank_columns():
    y, p, f, q = _panel(n_q=20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sk.leaderboard(y, p, forecaster=f, question=q, n_resamples=49, random_state=0)
    low, high = res.confidence_interval(metric="rank")
    np.testing.assert_array_equal(low, res.rank_low)
    np.testing.assert_array_equal(high, res.rank_high)
    low, high = res.confidence_interval()
    np.testing.assert_array_equal(low, res.brier_index_low)
    np.testing.assert_array_equal(high, res.brier_index_high)


# --------------------------------------------------------------------------
# 3. the sweep
# --------------------------------------------------------------------------
def _missing_part():
    """Forecaster c has no rows in combine part 1: no overall score."""
    y, p, f, q = _panel(n_q=10)
    part = np.tile(np.arange(10) % 2, 3)
    keep = ~((f == "c") & (part == 1))
    return y[keep], p[keep], f[keep], q[keep], part[keep]


@pytest.mark.parametrize("metric", ["brier_index", "adjusted_brier", "rank"])
def test_an_unscored_forecaster_has_a_quiet_nan_interval(metric):
    # the leaderboard leaves such a forecaster's interval NaN without a
    # warning; confidence_interval() warned that every replicate was NaN
    y, p, f, q, part = _missing_part()
    res = sk.leaderboard(y, p, forecaster=f, question=q, combine=part, n_resamples=20,
                         random_state=0)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        low, high = res.confidence_interval(metric=metric)
    assert np.isnan(low[2]) and np.isnan(high[2])
    assert np.isfinite(low[:2]).all() and np.isfinite(high[:2]).all()
    if metric == "brier_index":
        np.testing.assert_array_equal(low, res.brier_index_low)


def test_a_reference_without_a_score_is_refused():
    # every p-value was NaN, silently
    y, p, f, q, part = _missing_part()
    with pytest.raises(ValueError, match="^reference: forecaster 'c' has no score"):
        sk.leaderboard(y, p, forecaster=f, question=q, combine=part, n_resamples=20,
                       random_state=0, reference="c")  # fmt: skip


def test_the_history_command_refuses_a_question_listed_twice_before_dropping_rows(
    tmp_path, capsys
):
    # one resolved and one unresolved row of q03: --na drop left the unresolved
    # row out and every forecast of q03 with it, although q03 had its outcome
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_cli_history import COLS, simulate, write

    rows, questions = simulate()
    f, q = write(tmp_path, rows, questions + [("q03", 0.0, 12.0, "", 1.0, "a")])
    assert (
        main(["history", str(f), "--questions", str(q), *COLS, "--n-resamples", "0"]) == 2
    )
    err = capsys.readouterr().err
    assert (
        f"question 'q03' appears in rows 5 and 26 of {q}; give one row per question" in err
    )


def test_a_frozen_effect_that_is_not_finite_is_named_as_given():
    # the message showed numpy's repr of the question, np.int64(0)
    y, p, f, _ = _panel()
    q = np.tile(np.arange(12), 3)
    effects = {j: 0.0 for j in range(12)} | {0: float("nan"), 5: float("inf")}
    with pytest.raises(ValueError) as err:
        sk.leaderboard(y, p, forecaster=f, question=q, question_effects=effects,
                       n_resamples=0)  # fmt: skip
    assert str(err.value) == (
        "question_effects: 2 questions have an effect that is not finite (the first: "
        "question 0, nan); give every question a finite effect or drop its rows."
    )


def test_a_peer_score_of_zero_is_not_shown_as_minus_zero():
    # the scores were negated back to their orientation: -0.0 in the table,
    # the repr and to_dict
    h = sk.forecast_history(
        {"forecaster": ["a", "b", "a", "b"], "question": [1, 1, 2, 2],
         "timestamp": [0.0] * 4, "probability": [0.7, 0.7, 0.4, 0.4]},
        {"question": [1, 2], "open_time": [0.0, 0.0], "close_time": [2.0, 2.0],
         "outcome": [1, 0]},
        resolve_time=None,
    )  # fmt: skip
    res = sk.history_leaderboard(sk.peer_score(h), n_resamples=0)
    assert "best_score=0)" in repr(res)
    assert " -0 " not in res.summary() + " "
    for name in ("adjusted_score", "raw_score", "question_effects"):
        assert not np.signbit(getattr(res, name)).any(), name


@pytest.mark.parametrize(
    ("option", "value"),
    [("reference", "late"), ("anchor", ("late", 0.1)), ("fit_forecasters", ["a", "late"])],
)
def test_a_forecaster_without_a_scored_pair_is_not_called_unknown(option, value):
    # 'late' forecasts only after the lead time: it is a forecaster of the
    # scores with no score, and the message said "unknown forecaster"
    rows = [(n, j, t, pr) for n, t, pr in (("a", 0.0, 0.7), ("b", 0.0, 0.4), ("late", 9.5, 0.9))
            for j in range(5)]  # fmt: skip
    f, q, t, p = map(list, zip(*rows))
    h = sk.forecast_history(
        {"forecaster": f, "question": q, "timestamp": t, "probability": p},
        {"question": list(range(5)), "open_time": [0.0] * 5, "close_time": [10.0] * 5,
         "outcome": [1, 0, 1, 0, 1]},
        resolve_time=None,
    )  # fmt: skip
    with pytest.raises(ValueError) as err:
        sk.history_leaderboard(sk.brier_at(h, 2.0), n_resamples=0, **{option: value})
    assert str(err.value) == (
        f"{option}: forecaster 'late' has no brier_at(time) score (none of its forecasts "
        "is scored); name a forecaster with a score."
    )


@pytest.mark.parametrize("where", ["scores", "replicates"])
def test_parity_date_names_a_result_it_cannot_read(boards, where):
    # a history leaderboard passed to parity_date: "float() argument must be a
    # string or a real number"
    dates = ["2024-01-01", "2024-06-01", "2025-01-01"]
    kw = {"scores": boards["brier"]} if where == "scores" else {
        "scores": [60.0, 62.0, 64.0], "replicates": boards["brier"]}  # fmt: skip
    with pytest.raises(
        TypeError, match=f"^{where} must be a LeaderboardResult or an array"
    ):
        sk.parity_date(dates, target=70.0, **kw)


@pytest.mark.parametrize("missing", [None, float("nan")])
def test_forecasters_without_an_organization_are_not_one_organization(missing):
    # h1 and h2 had no organization: they were culled as one organization
    # (only the later released kept), silently; two NaN of one forecaster
    # were "more than one organization"
    from skbrier.leaderboards import forecastbench_rows

    with pytest.raises(
        ValueError, match="^organization: forecaster 'h1' has no organization"
    ):
        forecastbench_rows(
            ["a1", "a2", "h1", "h1", "h2"],
            organization=["A", "A", missing, float("nan") if missing else None, missing],
            release_date=["2024-01-01", "2025-01-01", "2024-05-01", "2024-05-01",
                          "2024-06-01"],
            latest_per_organization=1,
        )  # fmt: skip


def test_combined_questions_keep_their_own_types():
    """``combine_leaderboards`` of a part with integer question ids and one
    with text ids showed every question as text (numpy's promotion of the
    concatenation: 3 became '3'); each keeps its own value now."""
    y, p, f, q = _panel()
    ids = np.tile(np.arange(12), 3)
    part_int = sk.difficulty_adjusted_brier(y, p, forecaster=f, question=ids)
    part_txt = sk.difficulty_adjusted_brier(y, p, forecaster=f, question=q)
    comb = sk.combine_leaderboards([part_int, part_txt])
    shown = list(comb.questions)
    assert shown[:12] == list(range(12)) and shown[12:] == sorted(set(q))
    assert all(type(v) is not str for v in shown[:12])
