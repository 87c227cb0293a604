"""Held-out reproducers for the forecasting area (issues 18, 24, 29): histories, platform scores, leaderboards.

Each test is an input that gave a stray exception, a leaked warning, an
unclear message or a silent wrong number before the sweep.
"""

import warnings

import numpy as np
import pytest

import skbrier as sk

pd = pytest.importorskip("pandas")


def _history():
    forecasts = pd.DataFrame(
        {
            "forecaster": ["a", "a", "b", "c", "b", "a"],
            "question": ["q1", "q1", "q1", "q2", "q2", "q2"],
            "timestamp": [0.0, 1.0, 0.5, 0.0, 1.0, 0.2],
            "probability": [0.6, 0.8, 0.3, 0.2, 0.9, 0.4],
        }
    )
    questions = pd.DataFrame(
        {
            "question": ["q1", "q2"],
            "open_time": [0.0, 0.0],
            "close_time": [3.0, 6.0],
            "resolve_time": [3.0, 6.0],
            "outcome": [1, 0],
        }
    )
    return sk.forecast_history(forecasts, questions)


# --------------------------------------------------------------------------
# daily_brier: steps
# --------------------------------------------------------------------------
def test_daily_brier_tiny_step_is_refused_without_a_numpy_warning():
    # step=1e-300 overflowed the day count (RuntimeWarning "invalid value
    # encountered in cast") before the "use a longer step" check
    h = _history()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="step.*longer step"):
            sk.daily_brier(h, step=1e-300)


def test_daily_brier_step_longer_than_every_question_is_refused():
    # no question lasts one full step: every score was NaN, silently
    h = _history()
    with pytest.raises(
        ValueError, match=r"step: no forecast stands at the end of a full step"
    ):
        sk.daily_brier(h, step=10.0)
    # one question long enough: scored, the other simply has no days
    res = sk.daily_brier(h, step=4.0)
    assert res.pair_question.tolist() == ["q2", "q2", "q2"]


def test_step_in_months_is_a_clear_error():
    # numpy's "Cannot get a common metadata divisor ... [M] and [ns]" leaked
    base = np.datetime64("2024-01-01T00:00", "ns")
    day = np.timedelta64(1, "D")
    h = sk.forecast_history(
        {
            "forecaster": ["a", "b"],
            "question": ["q", "q"],
            "timestamp": [base, base + day],
            "probability": [0.3, 0.6],
        },
        {
            "question": ["q"],
            "open_time": [base],
            "close_time": [base + 40 * day],
            "outcome": [1],
        },
        resolve_time=None,
    )
    for unit in ("M", "Y"):
        with pytest.raises(TypeError, match=r"step: .*no fixed length"):
            sk.daily_brier(h, step=np.timedelta64(1, unit))
        with pytest.raises(TypeError, match=r"at: .*no fixed length"):
            sk.brier_at(h, np.timedelta64(1, unit))


# --------------------------------------------------------------------------
# per-question values given as a pandas Series are read by their index
# --------------------------------------------------------------------------
def test_brier_at_times_as_a_series_follow_its_index():
    h = _history()
    as_dict = {"q1": 0.7, "q2": 0.1}
    expected = sk.brier_at(h, as_dict).pair_score
    # the Series lists q2 first: it was read by position (q1 got q2's time)
    got = sk.brier_at(h, pd.Series({"q2": 0.1, "q1": 0.7})).pair_score
    np.testing.assert_array_equal(got, expected)
    # a Series indexed by row numbers, e.g. questions["close_time"] - 1
    with pytest.raises(ValueError, match=r"at: no time for 2 question.*Series.*index"):
        sk.brier_at(h, pd.Series([0.7, 0.1]))


def test_history_leaderboard_strata_as_a_series_follow_its_index():
    rng = np.random.default_rng(0)
    names = [f"q{j}" for j in range(6)]
    rows = [(f, q) for f in ("a", "b", "c") for q in names]
    forecasts = {
        "forecaster": [r[0] for r in rows],
        "question": [r[1] for r in rows],
        "timestamp": [0.0] * len(rows),
        "probability": rng.uniform(0.05, 0.95, len(rows)).tolist(),
    }
    questions = {
        "question": names,
        "open_time": [0.0] * 6,
        "close_time": [1.0] * 6,
        "outcome": [1, 0, 1, 1, 0, 0],
    }
    s = sk.brier_at(sk.forecast_history(forecasts, questions, resolve_time=None))
    strata = {q: "x" if j < 2 else "y" for j, q in enumerate(names)}
    kw = {"n_resamples": 30, "random_state": 1}
    expected = sk.history_leaderboard(s, strata=strata, **kw)
    series = pd.Series(strata).iloc[::-1]  # listed in another order
    got = sk.history_leaderboard(s, strata=series, **kw)
    np.testing.assert_array_equal(got.score_low, expected.score_low)
    with pytest.raises(ValueError, match=r"strata: no value for 6 question.*Series.*index"):
        sk.history_leaderboard(s, strata=pd.Series(list(strata.values())), **kw)


# --------------------------------------------------------------------------
# parity_date: timezone-aware release dates
# --------------------------------------------------------------------------
def test_parity_date_timezone_aware_dates_are_converted_to_utc():
    naive = sk.parity_date(["2024-01-01", "2024-07-01", "2025-01-01"], [60, 63, 66], 70.0)
    aware = [
        pd.Timestamp("2024-01-01 05:00", tz="America/New_York"),  # 10:00 UTC
        pd.Timestamp("2024-07-01", tz="UTC"),
        pd.Timestamp("2025-01-01 08:00", tz="Asia/Tokyo"),  # 2024-12-31 23:00 UTC
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = sk.parity_date(aware, [60, 63, 66], 70.0)
        import datetime as dt

        py = [t.to_pydatetime() for t in aware]
        res_py = sk.parity_date(py, [60, 63, 66], 70.0)
        iso = ["2024-01-01T05:00-05:00", "2024-07-01T00:00Z", "2025-01-01T08:00+09:00"]
        res_iso = sk.parity_date(iso, [60, 63, 66], 70.0)
        assert isinstance(py[0], dt.datetime)
    expected = sk.parity_date(
        ["2024-01-01", "2024-07-01", "2024-12-31"], [60, 63, 66], 70.0
    )
    for r in (res, res_py, res_iso):
        assert r.date == expected.date
        assert r.frontier_dates.tolist() == expected.frontier_dates.tolist()
    assert naive.date != expected.date


# --------------------------------------------------------------------------
# messages
# --------------------------------------------------------------------------
def test_duplicate_row_message_shows_plain_labels():
    # the message showed "forecaster np.int64(1) answers question np.int64(7) ..."
    with pytest.raises(ValueError) as info:
        sk.difficulty_adjusted_brier(
            [1, 1, 0], [0.2, 0.3, 0.4], forecaster=[1, 1, 2], question=[7, 7, 7]
        )
    msg = str(info.value)
    assert "np." not in msg
    assert "forecaster 1 answers question 7 more than once" in msg


@pytest.mark.parametrize(
    ("names", "wrong"),
    [
        (["A", "A", "A", "B", "B", "B"], "Aardvark"),
        ([1, 1, 1, 2, 2, 2], 1.7),
        ([1, 1, 1, 2, 2, 2], True),
    ],
)
def test_a_forecaster_name_is_never_matched_through_the_names_dtype(names, wrong):
    # "Aardvark" was cast to the names' dtype <U1 ("A"), 1.7 to int (1): anchor,
    # reference and fit_forecasters silently named another forecaster
    y, p, q = [1, 0, 1, 1, 0, 1], [0.2, 0.4, 0.6, 0.7, 0.1, 0.9], [1, 2, 3, 1, 2, 3]
    kw = {"forecaster": names, "question": q}
    with pytest.raises(ValueError, match="anchor: unknown forecaster"):
        sk.difficulty_adjusted_brier(y, p, anchor=(wrong, 0.25), **kw)
    with pytest.raises(ValueError, match="fit_forecasters: unknown forecaster"):
        sk.difficulty_adjusted_brier(y, p, fit_forecasters=[wrong], **kw)
    with pytest.raises(ValueError, match="reference: unknown forecaster"):
        sk.leaderboard(y, p, reference=wrong, n_resamples=0, **kw)
    right = names[0]
    res = sk.difficulty_adjusted_brier(y, p, anchor=(np.asarray(right)[()], 0.25), **kw)
    assert res.adjusted_brier[0] == pytest.approx(0.25)


def test_row_numbers_in_messages_count_zero_weight_rows():
    # strata are checked after zero-weight rows are removed: the row number
    # was a position among the rows left
    with pytest.raises(ValueError, match="'x' in row 1, 'z' in row 4"):
        sk.leaderboard(
            [1, 1, 0, 0, 1],
            [0.2, 0.3, 0.4, 0.5, 0.6],
            forecaster=["a", "b", "a", "b", "c"],
            question=[1, 1, 2, 2, 1],
            strata=["x", "x", "y", "y", "z"],
            sample_weight=[0, 1, 1, 1, 1],
            n_resamples=0,
        )


@pytest.mark.parametrize(
    ("vectors", "fragment"),
    [
        (
            [[20.0, 50.0, 30.0], [10.0, 10.0, 80.0]],
            r"category 0 has 20 .*look like percentages: divide by 100",
        ),
        (
            [[0.2, np.nan, 0.8], [0.1, 0.1, 0.8]],
            r"row 0 of forecasts \(question 'q'\) has no probability \(NaN\) for category 1",
        ),
        ([[0.2, -0.5, 1.3], [0.1, 0.1, 0.8]], r"category 1 has -0.5"),
    ],
)
def test_multiple_choice_probability_messages_say_what_is_wrong(vectors, fragment):
    # every case said only "has a probability outside [0, 1]" (NaN included)
    with pytest.raises(ValueError, match=fragment):
        sk.forecast_history(
            {
                "forecaster": ["a", "b"],
                "question": ["q", "q"],
                "timestamp": [0.0, 1.0],
                "probability": vectors,
            },
            {"question": ["q"], "open_time": [0.0], "close_time": [3.0], "outcome": [2]},
            resolve_time=None,
        )


def test_cli_history_reads_a_resolve_time_column_as_the_api_does(tmp_path, capsys):
    # the command ignored a 'resolve_time' column unless --resolve-col named it:
    # q2 resolved on day 3 but was scored until its close on day 8, and an
    # update made after the resolution was scored instead of refused
    import json

    from skbrier.cli import main

    f = tmp_path / "f.csv"
    f.write_text(
        "forecaster,question,timestamp,probability\n"
        "a,q1,0,0.6\nb,q1,1,0.3\na,q2,0,0.2\nb,q2,0.5,0.7\nc,q1,0.2,0.5\nc,q2,1,0.4\n"
        "a,q3,0,0.9\nb,q3,0,0.1\n"
    )
    q = tmp_path / "q.csv"
    q.write_text(
        "question,open_time,close_time,resolve_time,outcome\n"
        "q1,0,8,8,1\nq2,0,8,3,0\nq3,0,5,5,1\n"
    )
    assert main(["history", str(f), "--questions", str(q), "--n-resamples", "0",
                 "--json", "--quiet"]) == 0  # fmt: skip
    records = {r["forecaster"]: r["raw_score"] for r in json.loads(capsys.readouterr().out)}
    read = pd.read_csv
    h = sk.forecast_history(read(f), read(q).astype({"question": str}))
    want = sk.daily_brier(h)
    for name, score in zip(want.forecasters.tolist(), want.score.tolist()):
        assert records[name] == pytest.approx(score, rel=1e-12)
    # an update after q2's resolution (day 3) is refused, naming the file's row
    with open(f, "a") as out:
        out.write("a,q2,4,0.1\n")
    assert main(["history", str(f), "--questions", str(q), "--n-resamples", "0"]) == 2
    err = capsys.readouterr().err
    assert "after the question resolved" in err and "row 10 of" in err


def test_cli_leaderboard_names_the_files_rows(tmp_path, capsys):
    # "row 5" was a position among the rows left after the missing ones were
    # dropped, not a row of the file; the duplicate message named no row
    from skbrier.cli import main

    f = tmp_path / "b.csv"
    f.write_text(
        "f,q,y,p,s\nA,1,1,,x\nA,5,1,0.2,x\nB,1,1,0.3,x\nA,2,0,0.4,y\nB,2,0,0.5,y\n"
        "A,3,1,0.1,z\nB,3,1,0.2,w\n"
    )
    args = ["leaderboard", str(f), "--forecaster-col", "f", "--question-col", "q",
            "--y-col", "y", "--p-col", "p", "--n-resamples", "0", "--quiet"]  # fmt: skip
    assert main([*args, "--strata-col", "s"]) == 2
    assert f"row 8 of {f}" in capsys.readouterr().err  # B,3,...,w: line 8
    f.write_text(f.read_text() + "A,2,0,0.3,y\n")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "forecaster 'A' answers question '2' more than once" in err
    assert f"rows 5 and 9 of {f}" in err


def test_forecastbench_latest_models_compare_release_dates_as_dates():
    rows = sk.leaderboards.forecastbench_rows
    org = ["A", "A"]
    # text sorted "2024-9-01" after "2024-10-01": the older model was kept
    # (now: a date numpy cannot read is refused, naming release_date)
    with pytest.raises(TypeError, match="release_date"):
        rows(["a", "b"], organization=org, release_date=["2024-9-01", "2024-10-01"],
             latest_per_organization=1)  # fmt: skip
    # text and Timestamps mixed: a stray "'<' not supported" TypeError
    keep = rows(["a", "b"], organization=org,
                release_date=["2024-09-01", pd.Timestamp("2024-10-01")],
                latest_per_organization=1)  # fmt: skip
    assert keep.tolist() == [False, True]


def test_forecastbench_max_lead_time_and_lead_times_are_checked():
    rows = sk.leaderboards.forecastbench_rows
    # NaN kept every horizon, silently
    with pytest.raises(ValueError, match="max_lead_time must be finite"):
        rows(["a", "b"], lead_time=[7, 800], max_lead_time=np.nan)
    with pytest.raises(ValueError, match="max_lead_time must be >= 0"):
        rows(["a", "b"], lead_time=[7, 800], max_lead_time=-1)
    # numpy's "could not convert string to float: 'x'" named no parameter
    with pytest.raises(TypeError, match="lead_time must hold numbers of days"):
        rows(["a", "b"], lead_time=["7", "x"])


def _effects_record(**kw):
    rec = {"forecast_due_date": "2025-03-02", "source": "fred", "id": "AAA", "horizon": 7.0,
           "leaderboard_type": "baseline", "question_fixed_effect": 0.05}  # fmt: skip
    rec.update(kw)
    return rec


def test_forecastbench_readers_report_bad_files_in_one_line(tmp_path):
    import io
    import json

    lb = sk.leaderboards
    readers = (lb.read_resolution_set, lb.read_forecast_set, lb.read_question_set,
               lb.read_question_effects)  # fmt: skip
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)  # RecursionError from json
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"resolutions": ["\xff"]}')  # UnicodeDecodeError
    for read in readers:
        with pytest.raises(ValueError, match=rf"path: {deep}: JSON nested too deeply"):
            read(deep)
        with pytest.raises(ValueError, match=rf"path: {bad}: not UTF-8 text"):
            read(bad)
        with pytest.raises(FileNotFoundError, match=r"no such file"):
            read(tmp_path / "absent.json")
        with pytest.raises(IsADirectoryError, match=r"is a directory"):
            read(tmp_path)
        # a file object was shown as "<_io.StringIO object at 0x...>"
        with pytest.raises(
            ValueError, match=r"^path: <file object> is not a ForecastBench"
        ):
            read(io.StringIO(json.dumps({"nothing": 1} if read is not readers[3] else [1])))
    # a file without records said "no effects of type None in the file"
    with pytest.raises(ValueError, match=r"path: <file object>: the file holds no records"):
        lb.read_question_effects(io.StringIO("[]"))


def test_forecastbench_records_without_id_or_source_are_refused():
    import io
    import json

    lb = sk.leaderboards
    rec = {"id": "AAA", "source": "fred", "resolution_date": "2025-03-09",
           "resolved_to": 1.0, "resolved": True}  # fmt: skip
    for field in ("id", "source"):
        bad = {k: v for k, v in rec.items() if k != field}
        doc = {"forecast_due_date": "2025-03-02", "resolutions": [rec, bad]}
        # the key became "2025-03-02_fred_None_7": a question of its own
        with pytest.raises(ValueError, match=rf"^{field} is missing .*resolutions\[1\]\)"):
            lb.read_resolution_set(io.StringIO(json.dumps(doc)))
    with pytest.raises(ValueError, match=r"^id is missing .*record 0\)"):
        lb.read_question_effects(io.StringIO(json.dumps([_effects_record(id=None)])))


def _small_board(names, seed, n_resamples=20):
    rng = np.random.default_rng(seed)
    f = np.repeat(names, 5)
    q = np.tile(np.arange(5), len(names))
    y = (rng.random(5) < 0.5)[q]
    return sk.leaderboard(y, rng.random(f.shape[0]), forecaster=f, question=q,
                          n_resamples=n_resamples, random_state=seed)  # fmt: skip


def test_combine_leaderboards_takes_an_iterator_and_names_type_clashes():
    a, b = _small_board(["x", "y", "z"], 1), _small_board(["x", "y"], 2)
    expected = sk.combine_leaderboards([a, b])
    # a generator: "need at least one array to concatenate" (read twice)
    got = sk.combine_leaderboards(r for r in (a, b))
    np.testing.assert_array_equal(got.brier_index, expected.brier_index)
    # 1 in one leaderboard, "1" in the other: "'<' not supported ..." from numpy
    c, d = _small_board([1, 2], 3, 0), _small_board(["1", "2"], 4, 0)
    with pytest.raises(TypeError, match="forecaster names of different types"):
        sk.combine_leaderboards([c, d])


@pytest.mark.parametrize("odd", [19000, True, 2024.0])
def test_parity_date_refuses_numbers_mixed_with_dates(odd):
    # numpy read 19000 as 2022-01-08 and True as 1970-01-02: a wrong frontier
    with pytest.raises(TypeError, match="release_dates mixes dates and numbers"):
        sk.parity_date([odd, "2024-07-01", "2025-01-01"], [60, 63, 66], 70.0)


def test_an_anchor_missing_from_a_combine_part_is_refused():
    # every part is anchored separately: with the anchor absent from the
    # dataset part, every combined score was NaN, silently
    f = ["A", "B", "A", "B", "A", "H", "B", "H"]
    q = [1, 1, 2, 2, 3, 3, 4, 4]
    y = [1, 1, 0, 0, 1, 1, 0, 0]
    p = [0.2, 0.3, 0.4, 0.5, 0.6, 0.5, 0.7, 0.5]
    parts = ["dataset"] * 4 + ["market"] * 4
    kw = {"forecaster": f, "question": q, "combine": parts, "anchor": ("H", 0.25)}
    match = "anchor: forecaster 'H' has no rows of combine part 'dataset'"
    with pytest.raises(ValueError, match=match):
        sk.difficulty_adjusted_brier(y, p, **kw)
    with pytest.raises(ValueError, match=match):
        sk.leaderboard(y, p, n_resamples=20, random_state=0, **kw)
    effects = {j: 0.0 for j in q}
    with pytest.raises(ValueError, match=match):
        sk.difficulty_adjusted_brier(y, p, question_effects=effects, **kw)
    # present in both parts: scored
    ok = sk.difficulty_adjusted_brier(y, p, **{**kw, "anchor": ("A", 0.2)})
    assert ok.adjusted_brier[0] == pytest.approx(0.2)
