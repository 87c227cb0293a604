"""ForecastBench as it is now: frozen question effects, readers, latest-k and horizon culls.

The reference numbers come from ForecastBench's own pipeline functions run on a
synthetic snapshot in its published layouts (tests/fixtures/forecastbench/make_fixture.py).
"""

from __future__ import annotations

import glob
import io
import json
import os

import numpy as np
import pytest

from skbrier import difficulty_adjusted_brier, leaderboard
from skbrier.leaderboards import (
    forecastbench_rows,
    question_key,
    read_forecast_set,
    read_question_effects,
    read_question_set,
    read_resolution_set,
)

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "forecastbench")
MARKETS = ["manifold", "polymarket"]


def _snapshot():
    res = read_resolution_set(
        os.path.join(HERE, "2025-03-02_resolution_set.json"), market_sources=MARKETS
    )
    outcome = dict(zip(res["question"].tolist(), res["resolved_to"].tolist()))
    cols: dict[str, list] = {"f": [], "q": [], "p": [], "y": [], "h": [], "src": []}
    for path in sorted(glob.glob(os.path.join(HERE, "2025-03-02.*.json"))):
        fs = read_forecast_set(path, market_sources=MARKETS)
        cols["f"] += fs["model"].tolist()
        cols["q"] += fs["question"].tolist()
        cols["p"] += fs["forecast"].tolist()
        cols["y"] += [outcome[k] for k in fs["question"].tolist()]
        cols["h"] += fs["horizon"].tolist()
        cols["src"] += fs["source"].tolist()
    return {k: np.asarray(v) for k, v in cols.items()}


def _expected():
    with open(os.path.join(HERE, "expected_scores.json")) as fh:
        return {r["model"]: r for r in json.load(fh)}


def test_frozen_effects_equal_forecastbench_pipeline():
    s = _snapshot()
    keep = forecastbench_rows(s["f"], lead_time=s["h"])  # horizons over 365 days dropped
    assert 0 < keep.sum() < keep.size
    eff = read_question_effects(
        os.path.join(HERE, "question_fixed_effects.2025-03-02.baseline_leaderboard.json")
    )
    kind = np.where(np.isin(s["src"], MARKETS), "market", "dataset")
    res = difficulty_adjusted_brier(
        s["y"][keep], s["p"][keep], forecaster=s["f"][keep], question=s["q"][keep],
        question_effects=eff, anchor=("Always 0.5", 0.25), combine=kind[keep],
    )  # fmt: skip
    exp = _expected()
    for name, score, bi in zip(res.forecasters, res.adjusted_brier, res.brier_index):
        e = exp[name]
        np.testing.assert_allclose(
            score, e["two_way_fixed_effects_overall"], rtol=1e-8
        )  # to_json keeps 10 digits
        np.testing.assert_allclose(
            bi, e["brier_index_overall"], rtol=1e-8
        )  # to_json keeps 10 digits
        for part in ("dataset", "market"):
            p = res.parts[part]
            k = int(np.flatnonzero(p.forecasters == name)[0])
            np.testing.assert_allclose(
                p.adjusted_brier[k], e[f"two_way_fixed_effects_{part}"], rtol=1e-8
            )


def test_frozen_effects_bootstrap_against_numpy():
    s = _snapshot()
    keep = forecastbench_rows(s["f"], lead_time=s["h"])
    eff = read_question_effects(
        os.path.join(HERE, "question_fixed_effects.2025-03-02.baseline_leaderboard.json")
    )
    f, q, p, y = s["f"][keep], s["q"][keep], s["p"][keep], s["y"][keep]
    lb = leaderboard(y, p, forecaster=f, question=q, question_effects=eff,
                     n_resamples=50, random_state=3, reference="model-b")  # fmt: skip
    # every replicate is a weighted mean of b - gamma with the draw counts as weights
    adj = (p - y) ** 2 - np.array([eff[k] for k in q])
    qn = np.unique(q)
    rng_scores = lb.replicates
    assert rng_scores.shape == (50, 4)
    assert np.all(np.isfinite(rng_scores))
    # the point estimate is the plain mean of the adjusted rows
    for i, name in enumerate(lb.forecasters):
        np.testing.assert_allclose(
            lb.adjusted_brier[i], adj[f == name].mean(), rtol=1e-8
        )  # to_json keeps 10 digits
    assert lb.fitted.sum() == 0 and qn.size == lb.questions.size


def test_frozen_effects_missing_question_names_it():
    with pytest.raises(ValueError, match="question_effects: 1 question.*'q2'"):
        difficulty_adjusted_brier([1, 0], [0.6, 0.3], forecaster=["a", "a"],
                                  question=["q1", "q2"], question_effects={"q1": 0.0})  # fmt: skip
    with pytest.raises(ValueError, match="fit_forecasters"):
        difficulty_adjusted_brier([1, 0], [0.6, 0.3], forecaster=["a", "a"],
                                  question=["q1", "q2"], fit_forecasters=["a"],
                                  question_effects={"q1": 0.0, "q2": 0.1})  # fmt: skip
    with pytest.raises(TypeError, match="question_effects"):
        difficulty_adjusted_brier([1, 0], [0.6, 0.3], forecaster=["a", "a"],
                                  question=["q1", "q2"], question_effects=[0.0, 0.1])  # fmt: skip


def test_question_key_matches_forecastbench():
    assert question_key("2025-03-02", "fred", "X", 30) == "2025-03-02_fred_X_30"
    assert question_key("2025-03-02", "fred", "X", 30.0) == "2025-03-02_fred_X_30"
    assert (
        question_key("2025-03-02", "manifold", "m", float("nan")) == "2025-03-02_manifold_m"
    )


def test_readers_reject_other_files():
    with pytest.raises(ValueError, match="resolution-set"):
        read_resolution_set(io.StringIO("[]"))
    with pytest.raises(ValueError, match="question-fixed-effects"):
        read_question_effects(io.StringIO('{"a": 1}'))
    mixed = [
        {"forecast_due_date": "2025-01-01", "source": "s", "id": "1", "horizon": None,
         "leaderboard_type": t, "question_fixed_effect": 0.1}
        for t in ("baseline", "tournament")
    ]  # fmt: skip
    with pytest.raises(ValueError, match="leaderboard_type"):
        read_question_effects(io.StringIO(json.dumps(mixed)))
    assert (
        len(
            read_question_effects(
                io.StringIO(json.dumps(mixed)), leaderboard_type="baseline"
            )
        )
        == 1
    )


def test_question_set_and_combos():
    qs = read_question_set(io.StringIO(json.dumps({
        "forecast_due_date": "2025-03-02", "question_set": "x",
        "questions": [{"id": "a", "source": "fred"}, {"id": "b", "source": "acled"}]})))  # fmt: skip
    assert qs["forecast_due_date"].tolist() == ["2025-03-02"] * 2
    fs = read_forecast_set(io.StringIO(json.dumps({
        "organization": "o", "model": "m", "forecast_due_date": "2025-03-02",
        "forecasts": [{"id": ["a", "b"], "source": "fred", "forecast": 0.3,
                       "resolution_date": "2025-03-09"},
                      {"id": "a", "source": "fred", "forecast": 0.4,
                       "resolution_date": "2025-03-09"}]})))  # fmt: skip
    assert fs["question"].tolist() == ["2025-03-02_fred_a_7"]  # the combination dropped


def test_latest_per_organization():
    f = ["a1", "a2", "a3", "b1", "a1", "a4"]
    org = ["A", "A", "A", "B", "A", "A"]
    rel = ["2024-01", "2024-06", "2025-01", "2020-01", "2024-01", "2023-01"]
    keep = forecastbench_rows(
        f, organization=org, release_date=rel, latest_per_organization=2
    )
    assert keep.tolist() == [False, True, True, True, False, False]
    with pytest.raises(ValueError, match="organization and release_date"):
        forecastbench_rows(f, latest_per_organization=2)
    with pytest.raises(ValueError, match="more than one"):
        forecastbench_rows(["a", "a"], organization=["A", "A"], release_date=["1", "2"],
                           latest_per_organization=1)  # fmt: skip
    with pytest.raises(ValueError, match="positive integer"):
        forecastbench_rows(f, organization=org, release_date=rel, latest_per_organization=0)


def _clear_board(n_resamples=99):
    rng = np.random.default_rng(1)
    q = np.tile(np.arange(30), 2)
    y = (rng.random(30) < 0.5)[q]
    p = np.concatenate([np.where(y[:30], 0.8, 0.2), np.full(30, 0.5)])
    return leaderboard(y, p, forecaster=np.repeat(["m", "c"], 30), question=q,
                       n_resamples=n_resamples, reference="m", random_state=0)  # fmt: skip


def test_zero_p_value_is_shown_below_the_bootstrap_resolution():
    res = _clear_board()
    assert res.p_value[0] == 0.0  # "c" never beats "m"
    text = res.summary()
    assert "< 0.01" in text and " 0.0000" not in text
    assert "&lt; 0.01" in res.to_html()


def test_one_precision_per_column():
    lines = _clear_board().summary().splitlines()[3:]
    bi = [line.split()[2] for line in lines]
    assert all(len(v.split(".")[1]) == 2 for v in bi)  # the index with two decimals
    adj = [line.split()[5] for line in lines]
    assert all(len(v.split(".")[1]) == 4 for v in adj)


def test_forest_plot_has_an_axis():
    page = _clear_board().to_html()
    assert 'aria-label="Brier Index axis"' in page
    assert page.count("<text") >= 2


def test_hide_inactive_forecasters():
    # last submissions: a 2025-06-01, b 2024-05-01 (396 days before), c 2024-06-01 (365)
    f = ["a", "a", "b", "c", "b"]
    sub = ["2024-01-01", "2025-06-01", "2024-03-01", "2024-06-01", "2024-05-01"]
    keep = forecastbench_rows(f, submission_date=sub, max_inactive_days=365)
    assert keep.tolist() == [True, True, False, True, False]
    # relative to a given reference date, and numbers as days
    keep = forecastbench_rows(
        f, submission_date=sub, max_inactive_days=365, reference_date="2025-06-02"
    )
    assert keep.tolist() == [True, True, False, False, False]
    days = [0, 500, 60, 150, 120]
    keep = forecastbench_rows(f, submission_date=days, max_inactive_days=365)
    assert keep.tolist() == [True, True, False, True, False]
    # with the other culls: each applies on its own
    keep = forecastbench_rows(
        f, submission_date=sub, max_inactive_days=365, lead_time=[7, 400, 7, 7, 7]
    )
    assert keep.tolist() == [True, False, False, True, False]
    with pytest.raises(ValueError, match="max_inactive_days needs submission_date"):
        forecastbench_rows(f, max_inactive_days=365)
    with pytest.raises(ValueError, match="submission_date: row 1 has no date"):
        forecastbench_rows(["a", "b"], submission_date=["2024-01-01", None],
                           max_inactive_days=30)  # fmt: skip
    with pytest.raises(ValueError, match="max_inactive_days"):
        forecastbench_rows(f, submission_date=sub, max_inactive_days=-1)
    with pytest.raises(TypeError, match="reference_date"):
        forecastbench_rows(f, submission_date=sub, max_inactive_days=1, reference_date=3)


def test_malformed_forecastbench_files_name_the_file_and_record(tmp_path):
    # records that are not objects, a missing due date, a date not in ISO form
    # and invalid JSON were an AttributeError / TypeError or an unclear
    # "Invalid isoformat string: 'None'" / JSONDecodeError without the file
    def f(doc):
        return io.StringIO(json.dumps(doc))

    rec = {"id": "A", "source": "fred", "resolution_date": "2025-03-09", "resolved_to": 1}
    with pytest.raises(ValueError, match=r"resolutions\[1\]: expected an object, got int"):
        read_resolution_set(f({"forecast_due_date": "2025-03-02", "resolutions": [rec, 1]}))
    with pytest.raises(ValueError, match=r"questions\[0\]: expected an object, got int"):
        read_question_set(f({"questions": [1]}))
    with pytest.raises(ValueError, match="forecast_due_date.*missing"):
        read_resolution_set(f({"resolutions": [rec]}))
    bad = dict(rec, resolution_date="03/09/2025")
    with pytest.raises(
        ValueError, match=r"resolutions\[0\]: resolution_date '03/09/2025' is not a date"
    ):
        read_resolution_set(f({"forecast_due_date": "2025-03-02", "resolutions": [bad]}))
    with pytest.raises(ValueError, match=r"forecast_due_date '2 March' is not a date"):
        read_forecast_set(f({"forecast_due_date": "2 March", "forecasts": [rec]}))
    path = tmp_path / "2025-03-02_resolution_set.json"
    path.write_text("{not json")
    with pytest.raises(ValueError, match=r"resolution_set\.json: invalid JSON"):
        read_resolution_set(path)
    path.write_text("")
    with pytest.raises(ValueError, match=r"resolution_set\.json: invalid JSON"):
        read_resolution_set(str(path))


@pytest.mark.parametrize("effect", [None, "abc", float("nan"), True])
def test_a_question_effect_that_is_not_a_number_is_named(effect):
    # null, text, NaN and booleans were a TypeError from float(), an unclear
    # ValueError, or read as NaN / 1.0
    rec = {"forecast_due_date": "2025-03-02", "source": "fred", "id": "A",
           "horizon": 7, "leaderboard_type": "baseline", "question_fixed_effect": effect}  # fmt: skip
    with pytest.raises(
        ValueError, match=r"record 0: question_fixed_effect .* not a finite"
    ):
        read_question_effects(io.StringIO(json.dumps([rec])))
    rec.update(question_fixed_effect=0.1, horizon="x")
    with pytest.raises(ValueError, match="^lead_time must be a whole number of days"):
        read_question_effects(io.StringIO(json.dumps([rec])))
