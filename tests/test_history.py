"""forecast_history: two tables in, a frozen history of sorted arrays out, checked once."""

import dataclasses
import datetime as dt

import numpy as np
import pytest

import skbrier
from skbrier import ForecastHistory, forecast_history

pd = pytest.importorskip("pandas")


def _tables(**over):
    fc = {
        "forecaster": ["a", "b", "a", "a", "b"],
        "question": ["q1", "q1", "q1", "q2", "q2"],
        "timestamp": [0.0, 1.0, 2.0, 0.5, 3.0],
        "probability": [0.6, 0.3, 0.8, 0.1, 0.4],
    }
    qs = {
        "question": ["q2", "q1"],
        "open_time": [0.0, 0.0],
        "close_time": [4.0, 5.0],
        "resolve_time": [4.0, 6.0],
        "outcome": [0, 1],
    }
    for k, v in over.items():
        (qs if (k in qs and k != "question") or k == "weight" else fc)[k] = v
    return fc, qs


def test_sorted_read_only_arrays_and_names():
    h = forecast_history(*_tables())
    assert isinstance(h, ForecastHistory)
    assert h.forecasters.tolist() == ["a", "b"] and h.questions.tolist() == ["q1", "q2"]
    # sorted by question, forecaster, time; row points back into the input
    assert h.questions[h.question_index].tolist() == ["q1", "q1", "q1", "q2", "q2"]
    assert h.forecasters[h.forecaster_index].tolist() == ["a", "a", "b", "a", "b"]
    assert h.time.tolist() == [0.0, 2.0, 1.0, 0.5, 3.0]
    assert h.row.tolist() == [0, 2, 1, 3, 4]
    # per-question arrays follow the sorted names, not the input order
    assert h.close_time.tolist() == [5.0, 4.0] and h.outcome.tolist() == [1.0, 0.0]
    assert h.end_time.tolist() == [5.0, 4.0]
    assert h.question_weight.tolist() == [1.0, 1.0]
    for a in (h.time, h.probability, h.open_time, h.forecaster_index):
        assert not a.flags.writeable
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.time_kind = "datetime"
    assert repr(h) == "ForecastHistory(n_updates=5, n_forecasters=2, n_questions=2)"
    assert h.time_kind == "number"


def test_dataframes_equal_dicts_and_custom_columns():
    fc, qs = _tables()
    a = forecast_history(fc, qs)
    f2 = pd.DataFrame(fc).rename(columns={"probability": "p", "forecaster": "who"})
    q2 = pd.DataFrame(qs).rename(columns={"outcome": "y", "question": "question"})
    b = forecast_history(f2, q2, probability="p", forecaster="who", outcome="y")
    for f in ("time", "probability", "row", "outcome", "open_time"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))


def test_resolve_time_none_and_weights():
    fc, qs = _tables()
    del qs["resolve_time"]
    qs["w"] = [2.0, 0.5]
    h = forecast_history(fc, qs, resolve_time=None, weight="w")
    assert h.resolve_time.tolist() == h.close_time.tolist()
    assert h.question_weight.tolist() == [0.5, 2.0]


def test_datetimes_of_every_kind_give_the_same_seconds():
    days = np.datetime64("2024-03-01") + np.array([0, 1, 2, 0, 3])
    opens = np.array(["2024-03-01", "2024-03-01"], dtype="datetime64[D]")
    closes = opens + np.array([4, 5])
    fc, qs = _tables(
        timestamp=days, open_time=opens, close_time=closes, resolve_time=closes
    )
    ref = forecast_history(fc, qs)
    assert ref.time_kind == "datetime"
    assert ref.open_time[0] == dt.datetime(2024, 3, 1, tzinfo=dt.timezone.utc).timestamp()
    # pandas naive, Python datetimes, timezone-aware pandas and Python objects
    for conv in (
        lambda a: pd.Series(pd.to_datetime(a)),
        lambda a: [x.item() for x in a.astype("datetime64[us]")],
    ):
        h = forecast_history(
            *_tables(**{k: conv(v) for k, v in _dt_cols(days, opens, closes)})
        )
        np.testing.assert_array_equal(h.time, ref.time)
        np.testing.assert_array_equal(h.close_time, ref.close_time)
    berlin = {
        k: pd.Series(pd.to_datetime(v)).dt.tz_localize("UTC").dt.tz_convert("Europe/Berlin")
        for k, v in _dt_cols(days, opens, closes)
    }
    np.testing.assert_array_equal(forecast_history(*_tables(**berlin)).time, ref.time)
    aware = {
        k: [x.item().replace(tzinfo=dt.timezone.utc) for x in v.astype("datetime64[us]")]
        for k, v in _dt_cols(days, opens, closes)
    }
    np.testing.assert_array_equal(forecast_history(*_tables(**aware)).time, ref.time)
    frame = forecast_history(*_tables(**aware)).to_frame()
    assert frame["timestamp"].dtype.kind == "M"
    assert str(frame["timestamp"].iloc[0]) == "2024-03-01 00:00:00"


def _dt_cols(days, opens, closes):
    return [
        ("timestamp", days),
        ("open_time", opens),
        ("close_time", closes),
        ("resolve_time", closes),
    ]


def test_time_kinds_must_agree():
    opens = np.array(["2024-03-01", "2024-03-01"], dtype="datetime64[D]")
    with pytest.raises(
        TypeError, match="^timestamp holds numbers but open_time holds naive"
    ):
        forecast_history(
            *_tables(open_time=opens, close_time=opens + 5, resolve_time=opens + 6)
        )
    aware = pd.Series(pd.to_datetime(opens)).dt.tz_localize("UTC")
    with pytest.raises(TypeError, match="^close_time holds naive datetimes but open_time"):
        forecast_history(
            *_tables(open_time=aware, close_time=opens + 5, resolve_time=aware)
        )
    mixed = [dt.datetime(2024, 3, 1), dt.datetime(2024, 3, 1, tzinfo=dt.timezone.utc)]
    with pytest.raises(ValueError, match="^open_time mixes timezone-aware and naive"):
        forecast_history(*_tables(open_time=mixed))


@pytest.mark.parametrize(
    "over, exc, pattern",
    [
        ({"probability": [0.6, 0.3, 1.8, 0.1, 0.4]}, ValueError, r"^probability .*index 2"),
        (
            {"probability": [0.6, 0.3, None, 0.1, 0.4]},
            ValueError,
            r"^probability .*index 2",
        ),
        (
            {"question": ["q1", "q1", "q1", "q9", "q2"]},
            ValueError,
            r"^question: row 3 .*'q9'",
        ),
        (
            {"timestamp": [0.0, 1.0, 2.0, np.nan, 3.0]},
            ValueError,
            r"^timestamp: row 3 .*finite",
        ),
        ({"timestamp": ["x"] * 5}, TypeError, r"^timestamp must hold numbers or datetimes"),
        (
            {"timestamp": [2.0, 1.0, 0.0, 0.5, 3.0]},
            ValueError,
            r"^timestamp: row 2 of forecasts \(forecaster 'a', question 'q1'\) is at 0, "
            r"before row 0 \(2\).*sort",
        ),
        (
            {"timestamp": [0.0, 1.0, 0.0, 0.5, 3.0]},
            ValueError,
            r"^timestamp: rows 0 and 2 of forecasts \(forecaster 'a', question 'q1'\) have "
            "the same time 0",
        ),
        (
            {"timestamp": [0.0, 1.0, 2.0, 0.5, 4.5]},
            ValueError,
            r"^timestamp: row 4 of forecasts \(forecaster 'b', question 'q2'\) is at 4.5, "
            "after the question closed at 4",
        ),
        ({"close_time": [4.0, 0.0]}, ValueError, r"^close_time: question 'q1' \(row 1"),
        (
            {"resolve_time": [4.0, -1.0]},
            ValueError,
            r"^resolve_time: question 'q1' \(row 1",
        ),
        ({"outcome": [np.nan, 1]}, ValueError, r"^outcome contains NaN"),
        ({"outcome": ["yes", "no"]}, ValueError, r"^pos_label"),
        ({"weight": [1.0, -1.0]}, ValueError, r"^weight must be non-negative"),
        (
            {"forecaster": ["a", "b", None, "a", "b"]},
            ValueError,
            r"^forecaster contains a missing",
        ),
        (
            {"probability": [0.6, 0.3]},
            ValueError,
            r"^probability: column 'probability' of forecasts has 2",
        ),
    ],
)
def test_errors_name_the_parameter_and_the_row(over, exc, pattern):
    fc, qs = _tables(**over)
    kw = {"weight": "weight"} if "weight" in over else {}
    with pytest.raises(exc, match=pattern):
        forecast_history(fc, qs, **kw)


def test_outcomes_of_three_values():
    fc, qs = _tables()
    qs = {k: v + v[:1] for k, v in qs.items()}
    qs["question"][2] = "q3"
    qs["outcome"] = [0, 1, 2]
    with pytest.raises(
        ValueError, match=r"^outcome must take two values .*; found 3 labels"
    ):
        forecast_history(fc, qs)
    qs["outcome"] = [0.0, 1.0, 0.5]
    with pytest.raises(
        ValueError, match=r"found 3 distinct values, e.g. 0.5 .* not outcomes\.$"
    ):
        forecast_history(fc, qs)


def test_forecast_after_an_early_resolution():
    fc, qs = _tables(resolve_time=[4.0, 1.5])
    with pytest.raises(
        ValueError, match=r"^timestamp: row 2 .*after the question resolved at 1.5"
    ):
        forecast_history(fc, qs)


def test_update_at_the_end_and_before_the_open_are_accepted():
    fc, qs = _tables(timestamp=[-3.0, 1.0, 5.0, 0.5, 4.0])
    h = forecast_history(fc, qs)
    assert h.time.min() == -3.0 and h.time.max() == 5.0


def test_duplicate_question_and_table_errors():
    fc, qs = _tables()
    qs["question"] = ["q1", "q1"]
    with pytest.raises(
        ValueError, match=r"^question: question 'q1' appears in rows 0 and 1"
    ):
        forecast_history(fc, qs)
    with pytest.raises(TypeError, match=r"^forecasts must be a pandas DataFrame or a dict"):
        forecast_history(np.zeros((3, 4)), _tables()[1])
    with pytest.raises(ValueError, match=r"^timestamp: forecasts has no column 'time'"):
        forecast_history(*_tables(), timestamp="time")
    with pytest.raises(TypeError, match=r"^outcome must be a column name"):
        forecast_history(*_tables(), outcome=3)
    empty = {k: [] for k in _tables()[0]}
    with pytest.raises(ValueError, match=r"^forecasts is empty"):
        forecast_history(empty, _tables()[1])


def test_datetime_messages_show_iso_times():
    days = np.datetime64("2024-03-01") + np.array([0, 1, 2, 0, 9])
    opens = np.array(["2024-03-01", "2024-03-01"], dtype="datetime64[D]")
    fc, qs = _tables(
        timestamp=days, open_time=opens, close_time=opens + 5, resolve_time=None
    )
    del qs["resolve_time"]
    with pytest.raises(
        ValueError,
        match=r"is at 2024-03-10T00:00:00, after the question closed at 2024-03-06T00:00:00",
    ):
        forecast_history(fc, qs, resolve_time=None)
    nat = days.copy()
    nat[1] = np.datetime64("NaT")
    with pytest.raises(
        ValueError, match=r"^timestamp: row 1 of forecasts has no time \(NaT\)"
    ):
        forecast_history(
            *_tables(
                timestamp=nat, open_time=opens, close_time=opens + 5, resolve_time=opens + 5
            )
        )


def test_scores_refuse_other_inputs():
    with pytest.raises(TypeError, match=r"^history must be a ForecastHistory"):
        skbrier.daily_brier({"forecaster": []})


def test_to_frame():
    h = forecast_history(*_tables())
    frame = h.to_frame()
    assert frame.columns.tolist() == [
        "forecaster",
        "question",
        "timestamp",
        "probability",
        "outcome",
    ]
    assert frame["outcome"].tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]


def test_question_ids_of_different_types_are_named_as_such():
    # forecasts name questions 1, 2 (numbers) and questions lists "1", "2"
    # (text): the message says the types differ, not only that 1 is unknown
    with pytest.raises(
        ValueError, match=r"names question 1, which is not in questions.*'1' \(text\)"
    ):
        forecast_history(
            {"forecaster": ["x", "y"], "question": [1, 2], "timestamp": [1, 2],
             "probability": [0.6, 0.3]},
            {"question": ["1", "2"], "open_time": [0, 0], "close_time": [10, 10],
             "resolve_time": [10, 10], "outcome": [1, 0]},
        )  # fmt: skip
