"""``skbrier leaderboard`` reads like ``skbrier report``: separators, decimal commas,
encodings, Parquet, missing values, ForecastBench options and parity dates."""

import json
import os

import numpy as np
import pytest

from skbrier import leaderboard, parity_date
from skbrier.cli import main

ROWS = [
    ("a", 1, 1, 0.9), ("a", 2, 0, 0.2), ("a", 3, 1, 0.7), ("a", 4, 0, 0.3),
    ("b", 1, 1, 0.6), ("b", 2, 0, 0.4), ("b", 3, 1, 0.5), ("b", 4, 0, 0.3),
    ("c", 3, 1, 0.8), ("c", 4, 0, 0.1), ("c", 1, 1, 0.7),
]  # fmt: skip
ARGS = ["--forecaster-col", "model", "--question-col", "qid", "--y-col", "outcome",
        "--p-col", "forecast", "--n-resamples", "0", "--json"]  # fmt: skip


def _direct():
    f, q, y, p = zip(*ROWS)
    res = leaderboard(y, p, forecaster=f, question=q, n_resamples=0)
    return dict(zip(res.forecasters.tolist(), res.adjusted_brier.tolist()))


def _scores(capsys):
    rows = json.loads(capsys.readouterr().out)
    return {r["forecaster"]: r["adjusted_brier"] for r in rows}


def _check(capsys, expected):
    got = _scores(capsys)
    assert got.keys() == expected.keys()
    for k in got:
        assert got[k] == pytest.approx(expected[k], rel=1e-12)


def test_decimal_comma_and_semicolon(tmp_path, capsys):
    text = "model;qid;outcome;forecast\n" + "".join(
        f"{f};{q};{y};{str(p).replace('.', ',')}\n" for f, q, y, p in ROWS
    )
    path = tmp_path / "eu.csv"
    path.write_bytes(text.encode("cp1252"))
    # without --decimal the error recommends it, and the recommendation works
    assert main(["leaderboard", str(path), *ARGS]) == 2
    assert "--decimal ," in capsys.readouterr().err
    assert main(["leaderboard", str(path), *ARGS, "--decimal", ",", "--sep", ";",
                 "--encoding", "cp1252"]) == 0  # fmt: skip
    _check(capsys, _direct())


def test_parquet_input(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    f, q, y, p = zip(*ROWS)
    path = tmp_path / "lb.parquet"
    pq.write_table(pa.table({"model": f, "qid": q, "outcome": y, "forecast": p}), path)
    assert main(["leaderboard", str(path), *ARGS]) == 0
    _check(capsys, _direct())


def test_na_drop_error_impute(tmp_path, capsys):
    text = "model,qid,outcome,forecast\n" + "".join(
        f"{f},{q},{y},{p}\n" for f, q, y, p in ROWS
    )
    text += "b,5,1,\nc,5,1,0.6\na,5,1,0.8\n"
    path = tmp_path / "na.csv"
    path.write_text(text)
    assert main(["leaderboard", str(path), *ARGS, "--na", "error"]) == 2
    assert "--na error" in capsys.readouterr().err
    assert main(["leaderboard", str(path), *ARGS]) == 0
    out = capsys.readouterr()
    assert "1 row(s) with a missing value left out" in out.err
    # ForecastBench's imputation: 0.5 for the missing forecast, then the 5% cutoff
    assert main(["leaderboard", str(path), *ARGS, "--na", "impute",
                 "--max-imputed-pct", "50"]) == 0  # fmt: skip
    f, q, y, p = zip(*(ROWS + [("b", 5, 1, 0.5), ("c", 5, 1, 0.6), ("a", 5, 1, 0.8)]))
    res = leaderboard(y, p, forecaster=f, question=q, n_resamples=0)
    _check(capsys, dict(zip(res.forecasters.tolist(), res.adjusted_brier.tolist())))
    assert main(["leaderboard", str(path), *ARGS, "--na", "impute"]) == 0
    err = capsys.readouterr().err
    assert "over 5% imputed forecasts left out: b" in err


def test_question_effects_and_culls(tmp_path, capsys):
    here = os.path.join(os.path.dirname(__file__), "fixtures", "forecastbench")
    eff = os.path.join(here, "question_fixed_effects.2025-03-02.baseline_leaderboard.json")
    with open(eff) as fh:
        recs = [r for r in json.load(fh) if r["horizon"] is not None]
    lines = ["model,org,released,qid,h,outcome,forecast"]
    rng = np.random.default_rng(0)
    models = [
        ("m1", "A", "2024-01-01"),
        ("m2", "A", "2025-01-01"),
        ("n1", "B", "2024-06-01"),
    ]
    outcome = rng.random(len(recs)) < 0.5  # one outcome per question
    for m, org, rel in models:
        for r, y in zip(recs, outcome):
            key = f"{r['forecast_due_date']}_{r['source']}_{r['id']}_{int(r['horizon'])}"
            lines.append(f"{m},{org},{rel},{key},{int(r['horizon'])},"
                         f"{int(y)},{rng.random():.3f}")  # fmt: skip
        key = "2025-03-02_fred_far_400"  # no effect, culled by the horizon cap
        lines.append(f"{m},{org},{rel},{key},400,1,0.5")
    path = tmp_path / "fb.csv"
    path.write_text("\n".join(lines) + "\n")
    base = ["leaderboard", str(path), "--forecaster-col", "model", "--question-col", "qid",
            "--y-col", "outcome", "--p-col", "forecast", "--n-resamples", "0", "--json",
            "--question-effects", eff]  # fmt: skip
    assert main(base) == 2
    assert "no effect" in capsys.readouterr().err
    assert main([*base, "--horizon-col", "h", "--organization-col", "org",
                 "--release-date-col", "released", "--latest-per-org", "1"]) == 0  # fmt: skip
    got = _scores(capsys)
    assert sorted(got) == ["m2", "n1"]


def test_parity_from_release_date_column(tmp_path, capsys):
    rng = np.random.default_rng(2)
    lines = ["model,released,qid,outcome,forecast"]
    y = rng.random(60) < 0.5
    skills = {"m1": 0.05, "m2": 0.1, "m3": 0.15, "m4": 0.2, "humans": 0.3}
    dates = {"m1": "2024-01-01", "m2": "2024-04-01", "m3": "2024-07-01", "m4": "2024-10-01",
             "humans": ""}  # fmt: skip
    for m, s in skills.items():
        for j in range(60):
            p = np.clip(0.5 + (s if y[j] else -s) + rng.normal(0, 0.05), 0.01, 0.99)
            lines.append(f"{m},{dates[m]},{j},{int(y[j])},{p:.3f}")
    path = tmp_path / "par.csv"
    path.write_text("\n".join(lines) + "\n")
    assert main(["leaderboard", str(path), "--forecaster-col", "model", "--question-col",
                 "qid", "--y-col", "outcome", "--p-col", "forecast", "--n-resamples", "20",
                 "--random-state", "0", "--release-date-col", "released",
                 "--parity-target", "humans", "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["parity"]["frontier"][0] == "m1"
    assert out["parity"]["already_reached"] is False


def test_parity_already_reached_is_said():
    res = parity_date([0.0, 10.0, 20.0, 30.0], [50, 60, 70, 75], 65.0,
                      replicates=[[50, 60, 70, 75], [50, 58, 66, 70]])  # fmt: skip
    assert res.already_reached
    text = res.summary()
    assert "already reached" in text and "interval" not in text.split("\n")[2]
    res = parity_date([0.0, 100.0, 200.0], [60.0, 62.0, 64.0], 70.0)
    assert not res.already_reached


def test_hide_inactive_days(tmp_path, capsys):
    rng = np.random.default_rng(5)
    lines = ["model,due,qid,outcome,forecast"]
    due = {"old": "2024-01-07", "new": "2025-03-02", "mid": "2024-06-02"}
    for m, d in due.items():
        for j in range(20):
            lines.append(f"{m},{d},{j},{int(j % 2)},{rng.random():.3f}")
    path = tmp_path / "act.csv"
    path.write_text("\n".join(lines) + "\n")
    base = ["leaderboard", str(path), "--forecaster-col", "model", "--question-col", "qid",
            "--y-col", "outcome", "--p-col", "forecast", "--n-resamples", "0", "--json"]  # fmt: skip
    assert main([*base, "--hide-inactive-days", "365"]) == 2
    assert "--hide-inactive-days needs --submission-date-col" in capsys.readouterr().err
    assert main([*base, "--submission-date-col", "due", "--hide-inactive-days", "365"]) == 0
    out = capsys.readouterr()
    assert sorted(r["forecaster"] for r in json.loads(out.out)) == ["mid", "new"]
    assert "20 row(s) culled" in out.err and "--hide-inactive-days" in out.err
    assert main([*base, "--submission-date-col", "due", "--hide-inactive-days", "365",
                 "--reference-date", "2025-07-01"]) == 0  # fmt: skip
    assert sorted(_scores(capsys)) == ["new"]
