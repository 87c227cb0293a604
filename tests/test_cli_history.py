"""``skbrier history``: end to end on small CSV files; the numbers equal the Python API."""

import json

import numpy as np
import pytest

import skbrier as sk
from skbrier.cli import main


def simulate(seed=0, n_f=4, n_q=24):
    """Forecasters of different skill updating questions 1-3 times (days 0-10, close 12)."""
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.1, 0.7, n_f)
    y = (rng.random(n_q) < 0.5).astype(int)
    rows = []
    for i in range(n_f):
        for q in range(n_q):
            if rng.random() > 0.8 and q % n_f != i:
                continue
            for t in np.sort(
                rng.choice(np.arange(1, 10), rng.integers(1, 4), replace=False)
            ):
                p = float(np.clip(skill[i] * y[q] + (1 - skill[i]) / 2 + rng.normal(0, 0.15),
                                  0.02, 0.98))  # fmt: skip
                rows.append((f"f{i}", f"q{q:02d}", float(t), round(p, 6)))
    questions = [(f"q{q:02d}", 0.0, 12.0, int(y[q]), float(1 + q % 3), "ab"[q % 2])
                 for q in range(n_q)]  # fmt: skip
    return rows, questions


def write(tmp_path, rows, questions, sep=",", decimal="."):
    def num(v):
        return str(v).replace(".", decimal) if isinstance(v, float) else str(v)

    f = tmp_path / "updates.csv"
    q = tmp_path / "questions.csv"
    f.write_text(sep.join(["who", "qid", "when", "p"]) + "\n"
                 + "".join(sep.join(map(num, r)) + "\n" for r in rows))  # fmt: skip
    q.write_text(sep.join(["qid", "open", "close", "resolved_yes", "w", "kind"]) + "\n"
                 + "".join(sep.join(map(num, r)) + "\n" for r in questions))  # fmt: skip
    return f, q


COLS = ["--forecaster-col", "who", "--question-col", "qid", "--timestamp-col", "when",
        "--p-col", "p", "--open-col", "open", "--close-col", "close",
        "--outcome-col", "resolved_yes", "--weight-col", "w"]  # fmt: skip


def api_history(rows, questions):
    f, q, t, p = map(list, zip(*rows))
    qn, o, c, y, w, _ = map(list, zip(*questions))
    return sk.forecast_history(
        {"forecaster": f, "question": q, "timestamp": t, "probability": p},
        {"question": qn, "open_time": o, "close_time": c, "outcome": y, "weight": w},
        resolve_time=None, weight="weight",
    )  # fmt: skip


def run_json(capsys, args):
    assert main(["history", *args, "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def same(records, res):
    """The CLI's JSON records equal the Python API's result."""
    by_name = {r["forecaster"]: r for r in records}
    assert [r["forecaster"] for r in records] == res.to_frame()["forecaster"].tolist()
    for i, name in enumerate(res.forecasters.tolist()):
        r = by_name[name]
        for col in ("adjusted_score", "score_low", "score_high", "raw_score", "rank_low",
                    "rank_high", "share_best"):  # fmt: skip
            want = float(getattr(res, col)[i])
            got = np.nan if r[col] is None else r[col]
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        assert r["tie_group"] == int(res.tie_group[i])
        assert r["contains_best"] == bool(res.contains_best[i])


@pytest.mark.parametrize(
    "cli,score,board",
    [
        ([], lambda h: sk.daily_brier(h), {}),
        (["--score", "daily-brier", "--scale", "0-2", "--before-first", "exclude"],
         lambda h: sk.daily_brier(h, scale_by_half=False, before_first="exclude"), {}),
        (["--score", "brier-at", "--lead-time", "3"], lambda h: sk.brier_at(h, 3.0), {}),
        (["--score", "brier-at", "--lead-time", "midpoint"],
         lambda h: sk.brier_at(h, "midpoint"), {}),
        (["--score", "baseline", "--rule", "brier"],
         lambda h: sk.baseline_score(h, rule="brier"), {}),
        (["--score", "peer", "--adjustment", "none", "--reference", "f0"],
         lambda h: sk.peer_score(h), {"adjustment": "none", "reference": "f0"}),
    ],
)  # fmt: skip
def test_numbers_equal_the_python_api(tmp_path, capsys, cli, score, board):
    rows, questions = simulate()
    f, q = write(tmp_path, rows, questions)
    got = run_json(capsys, [str(f), "--questions", str(q), *COLS, "--n-resamples", "99",
                            "--random-state", "3", *cli])  # fmt: skip
    res = sk.history_leaderboard(score(api_history(rows, questions)), n_resamples=99,
                              random_state=3, **board)  # fmt: skip
    same(got, res)


def test_resolve_column_and_spot_scores(tmp_path, capsys):
    rows, questions = simulate(9)
    rows = [r for r in rows if r[1] != "q01" or r[2] <= 6.0]  # q01 resolves at day 6
    f, q = write(tmp_path, rows, questions)
    lines = q.read_text().splitlines()
    q.write_text("\n".join([lines[0] + ",res"] + [
        line + ("," + ("6.0" if line.startswith("q01") else "12.0")) for line in lines[1:]
    ]) + "\n")  # fmt: skip
    got = run_json(capsys, [str(f), "--questions", str(q), *COLS, "--resolve-col", "res",
                            "--score", "baseline", "--lead-time", "midpoint",
                            "--n-resamples", "0"])  # fmt: skip
    fq, qq, t, p = map(list, zip(*rows))
    qn, o, c, y, w, _ = map(list, zip(*questions))
    h = sk.forecast_history(
        {"forecaster": fq, "question": qq, "timestamp": t, "probability": p},
        {"question": qn, "open_time": o, "close_time": c, "outcome": y, "weight": w,
         "resolve_time": [6.0 if n == "q01" else 12.0 for n in qn]}, weight="weight",
    )  # fmt: skip
    same(got, sk.history_leaderboard(sk.baseline_score(h, at="midpoint"), n_resamples=0))


def test_strata_exclude_anchor_and_text_output(tmp_path, capsys):
    rows, questions = simulate(1)
    f, q = write(tmp_path, rows, questions)
    args = [str(f), "--questions", str(q), *COLS, "--strata-col", "kind", "--n-resamples",
            "49", "--random-state", "0", "--exclude-from-fit", "f3", "--anchor", "f0=0.2"]  # fmt: skip
    h = api_history(rows, questions)
    res = sk.history_leaderboard(
        sk.daily_brier(h), strata={r[0]: r[5] for r in questions}, n_resamples=49,
        random_state=0, fit_forecasters=["f0", "f1", "f2"], anchor=("f0", 0.2),
    )  # fmt: skip
    same(run_json(capsys, args), res)
    assert main(["history", *args]) == 0
    text = capsys.readouterr().out
    assert "HistoryLeaderboardResult: daily_brier" in text
    assert f"top set (rank interval contains 1): {', '.join(res.top_set)}" in text
    groups = " | ".join(f"{g}: {', '.join(n)}" for g, n in res.groups.items())
    assert f"tie groups (1 + the number significantly better): {groups}" in text


def test_datetimes_and_lead_time_units(tmp_path, capsys):
    rows, questions = simulate(2)
    day0 = np.datetime64("2024-03-01T00:00:00")

    def iso(d):
        return str(day0 + np.timedelta64(int(round(d * 24)), "h"))

    rows_dt = [(a, b, iso(t), p) for a, b, t, p in rows]
    qs_dt = [(a, iso(o), iso(c) + "Z", y, w, k) for a, o, c, y, w, k in questions]
    qs_dt = [(a, o + "Z", c, y, w, k) for a, o, c, y, w, k in qs_dt]
    rows_dt = [(a, b, t + "+00:00", p) for a, b, t, p in rows_dt]
    f, q = write(tmp_path, rows_dt, qs_dt)
    got = run_json(capsys, [str(f), "--questions", str(q), *COLS, "--score", "brier-at",
                            "--lead-time", "2d", "--n-resamples", "0"])  # fmt: skip
    h = api_history(
        [(a, b, day0 + np.timedelta64(int(round(t * 24)), "h"), p) for a, b, t, p in rows],
        [(a, day0, day0 + np.timedelta64(int(c * 24), "h"), y, w, k)
         for a, o, c, y, w, k in questions],
    )  # fmt: skip
    res = sk.history_leaderboard(sk.brier_at(h, np.timedelta64(2, "D")), n_resamples=0)
    same(got, res)


def test_decimal_comma_semicolon_and_html(tmp_path, capsys):
    rows, questions = simulate(4)
    f, q = write(tmp_path, rows, questions, sep=";", decimal=",")
    out = tmp_path / "board.html"
    args = [str(f), "--questions", str(q), *COLS, "--decimal", ",", "--n-resamples", "49",
            "--random-state", "2", "--html", str(out), "--title", "Histories"]  # fmt: skip
    got = run_json(capsys, args)
    res = sk.history_leaderboard(sk.daily_brier(api_history(rows, questions)), n_resamples=49,
                              random_state=2)  # fmt: skip
    same(got, res)
    page = out.read_text()
    assert "<title>Histories</title>" in page and "tie group" in page
    assert 'aria-label="adjusted daily_brier axis"' in page and "&#9733;" in page
    assert "over forecast histories (lower is better)" in page
    assert main(["history", *args]) == 2  # the page exists: --force needed
    assert "--force" in capsys.readouterr().err


def test_unresolved_questions_are_dropped_or_refused(tmp_path, capsys):
    rows, questions = simulate(5)
    questions[0] = (*questions[0][:3], "", *questions[0][4:])  # not resolved yet
    f, q = write(tmp_path, rows, questions)
    args = [str(f), "--questions", str(q), *COLS, "--n-resamples", "0"]
    assert main(["history", *args]) == 0
    err = capsys.readouterr().err
    n = sum(r[1] == "q00" for r in rows)
    assert (
        f"1 question(s) with a missing value (e.g. not resolved yet) left out with their {n}"
        in err
    )
    assert main(["history", *args, "--na", "error"]) == 2
    assert "questions.csv: row 2 has a missing value (--na error" in capsys.readouterr().err


@pytest.mark.parametrize(
    "change,extra,message",
    [
        (None, ["--score", "peer", "--step", "2"], "--step does not apply to --score peer"),
        (None, ["--lead-time", "1d"], "--lead-time does not apply to --score daily-brier"),
        (None, ["--score", "peer", "--lead-time", "last"], "applies to --score brier-at"),
        (None, ["--score", "brier-at", "--lead-time", "soon"], "is not a length of time"),
        (None, ["--score", "brier-at", "--lead-time", "1d"], "must be a number in the unit"),
        (None, ["--n-resamples", "1"], "--n-resamples"),
        (None, ["--exclude-from-fit", "zz"], "--exclude-from-fit: unknown forecaster"),
        (lambda r: r.append(("f0", "q99", 1.0, 0.5)), [], "updates.csv names question 'q99', which is not in questions"),
        (lambda r: r.append(("f0", "q01", 13.0, 0.5)), [], "after the question closed"),
        (lambda r: r.append(("f0", "q01", "soon", 0.5)), [], "'soon' is neither a number"),
        (lambda r: r.append(("f0", "q01", "2024-01-01", 0.5)), [], "mixes numbers and dates"),
    ],
)  # fmt: skip
def test_errors(tmp_path, capsys, change, extra, message):
    rows, questions = simulate(6)
    if change is not None:
        change(rows)
    f, q = write(tmp_path, rows, questions)
    assert main(["history", str(f), "--questions", str(q), *COLS, "--n-resamples", "0",
                 *extra]) == 2  # fmt: skip
    assert message in capsys.readouterr().err


def test_error_rows_are_rows_of_the_file(tmp_path, capsys):
    rows, questions = simulate(7)
    rows.insert(3, ("f0", "q99", 1.0, 0.5))
    f, q = write(tmp_path, rows, questions)
    assert main(["history", str(f), "--questions", str(q), *COLS]) == 2
    assert "row 5 of " in capsys.readouterr().err  # the header is row 1


def test_parquet_with_timestamps(tmp_path, capsys):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    rows, questions = simulate(8)
    day0 = pd.Timestamp("2024-03-01", tz="UTC")
    upd = pd.DataFrame(rows, columns=["who", "qid", "when", "p"])
    upd["when"] = day0 + pd.to_timedelta(upd["when"], unit="D")
    qs = pd.DataFrame(
        questions, columns=["qid", "open", "close", "resolved_yes", "w", "kind"]
    )
    qs["open"] = day0 + pd.to_timedelta(qs["open"], unit="D")
    qs["close"] = day0 + pd.to_timedelta(qs["close"], unit="D")
    upd.to_parquet(tmp_path / "u.parquet")
    qs.to_parquet(tmp_path / "q.parquet")
    got = run_json(capsys, [str(tmp_path / "u.parquet"), "--questions",
                            str(tmp_path / "q.parquet"), *COLS, "--n-resamples", "0"])  # fmt: skip
    h = sk.forecast_history(
        upd, qs, forecaster="who", question="qid", timestamp="when", probability="p",
        open_time="open", close_time="close", resolve_time=None, outcome="resolved_yes",
        weight="w",
    )  # fmt: skip
    same(got, sk.history_leaderboard(sk.daily_brier(h), n_resamples=0))


@pytest.mark.parametrize(
    "extra,message",
    [
        # a lead time before every forecast: nothing scored (was all-NaN scores)
        (["--score", "brier-at", "--lead-time", "11.5"], "--lead-time: no forecast stands"),
        (["--score", "peer", "--lead-time", "11.5"], "--lead-time: no forecast stands"),
        # a unit on numeric times: the option is named as it is spelt
        (["--score", "brier-at", "--lead-time", "1d"], "--lead-time must be a number in the unit"),
    ],
)  # fmt: skip
def test_lead_time_errors_name_the_option(tmp_path, capsys, extra, message):
    rows, questions = simulate(6)
    f, q = write(tmp_path, rows, questions)
    assert main(["history", str(f), "--questions", str(q), *COLS, "--n-resamples", "0",
                 *extra]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert message in err and " at " not in err.replace("at that time", "")
