"""Scores over forecast histories against the platforms and against plain loops.

* Metaculus: its own scoring code (``scoring/score_math.py``, run by
  ``tests/fixtures/make_history_fixtures.py``) on 40 simulated binary questions
  and 20 multiple-choice questions, and
  the worked examples of its Scores FAQ (https://www.metaculus.com/help/scores-faq/).
* Good Judgment Open (https://www.gjopen.com/faq, "How are my forecasts scored
  for accuracy?"): a day-by-day loop of its rules -- the forecast standing at
  the end of each day is scored, the days before a forecaster's first forecast
  get the crowd's median score, accuracy = Brier - median.
* Every score: a plain loop over days or over the instants at which the crowd
  changes, on simulated histories.
"""

import datetime as dt
import json
import math
import pathlib

import numpy as np
import pytest

from skbrier import (
    baseline_score,
    brier_at,
    daily_brier,
    forecast_history,
    peer_score,
)
from skbrier.leaderboards import _history_kernels

pd = pytest.importorskip("pandas")

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "history"


# --------------------------------------------------------------------------
# simulated histories and plain-loop references
# --------------------------------------------------------------------------
def simulate(seed, n_q=12, n_f=6, halves=True):
    """Random updates (times on a half-day grid unless ``halves=False``)."""
    rng = np.random.default_rng(seed)
    rows, qs = [], []
    for k in range(n_q):
        o = float(rng.integers(0, 4))
        c = o + float(rng.integers(2, 12))
        r = (
            c + 1.0
            if rng.random() < 0.6
            else o + float(rng.integers(1, int(c - o) + 1)) - 0.25
        )
        e = min(c, r)
        qs.append(
            {"question": f"q{k}", "open_time": o, "close_time": c, "resolve_time": r,
             "outcome": int(rng.random() < 0.5), "weight": float(rng.integers(1, 4))}
        )  # fmt: skip
        for f in range(n_f):
            if rng.random() < 0.3:
                continue
            lo = o - 2.0 if rng.random() < 0.2 else o
            t = rng.uniform(lo, e, int(rng.integers(1, 5)))
            t = np.floor(t * 2) / 2 if halves else t
            for ti in np.unique(np.minimum(t, e)):
                p = float(np.clip(np.round(rng.uniform(0.02, 0.98), 2), 0.01, 0.99))
                rows.append(
                    {
                        "forecaster": f"f{f}",
                        "question": f"q{k}",
                        "timestamp": ti,
                        "probability": p,
                    }
                )
    fc = pd.DataFrame(rows)
    qt = pd.DataFrame(qs)
    return (
        fc,
        qt,
        forecast_history(
            fc.sample(frac=1, random_state=seed).sort_values("timestamp", kind="stable"),
            qt,
            weight="weight",
        ),
    )


def _by_pair(fc, q):
    out = {}
    for r in fc[fc.question == q].sort_values("timestamp").itertuples():
        out.setdefault(r.forecaster, []).append((r.timestamp, r.probability))
    return out


def _standing(ups, t, strict=False):
    made = [p for ti, p in ups if (ti < t if strict else ti <= t)]
    return made[-1] if made else None


def ref_daily(fc, qt, step, c, mode):
    out = {}
    for row in qt.itertuples():
        o, e, y = row.open_time, min(row.close_time, row.resolve_time), row.outcome
        n_days = int(math.floor((e - o) / step))
        pairs = _by_pair(fc, row.question)
        daily = {f: [None] * n_days for f in pairs}
        med = [None] * n_days
        for d in range(n_days):
            end_of_day = o + (d + 1) * step
            for f, ups in pairs.items():
                p = _standing(ups, end_of_day, strict=True)
                if p is not None:
                    daily[f][d] = c * (p - y) ** 2
            vals = [daily[f][d] for f in pairs if daily[f][d] is not None]
            med[d] = float(np.median(vals)) if vals else None
        crowd_days = [d for d in range(n_days) if med[d] is not None]
        for f in pairs:
            own = [d for d in range(n_days) if daily[f][d] is not None]
            if not own:
                continue
            days = crowd_days if mode == "median" else own
            s = np.mean([daily[f][d] if daily[f][d] is not None else med[d] for d in days])
            crowd = np.mean([med[d] for d in days])
            out[(f, row.question)] = (s, len(own) / n_days, crowd)
    return out


def _score_fn(rule, y):
    if rule == "log":
        return lambda p: math.log(p if y == 1 else 1 - p)
    return lambda p: -((p - y) ** 2)


def _baseline_fn(rule, L):
    if rule == "log":
        return lambda p: 100 * (L(p) - math.log(0.5)) / math.log(2)
    return lambda p: 100 * (0.25 + L(p)) / 0.25


def ref_metaculus(fc, qt, kind, rule, at=None):
    out = {}
    for row in qt.itertuples():
        o, cl, y = row.open_time, row.close_time, row.outcome
        end = min(cl, row.resolve_time)
        total = cl - o
        L = _score_fn(rule, y)
        base = _baseline_fn(rule, L)
        pairs = _by_pair(fc, row.question)
        acc = {f: [0.0, 0.0] for f in pairs}
        if at is None:
            cuts = sorted({max(t, o) for ups in pairs.values() for t, _ in ups} | {end})
            for a, b in zip(cuts[:-1], cuts[1:]):
                stand = {
                    f: p for f, ups in pairs.items() if (p := _standing(ups, a)) is not None
                }
                n, tot = len(stand), sum(L(p) for p in stand.values())
                for f, p in stand.items():
                    if kind == "baseline":
                        v = base(p)
                    else:
                        v = 100 * (n * L(p) - tot) / (n - 1) if n >= 2 else 0.0
                    acc[f][0] += v * (b - a) / total
                    acc[f][1] += (b - a) / total
        else:
            tau = min(at[row.question], end)
            before = [
                p for ups in pairs.values() if (p := _standing(ups, tau, True)) is not None
            ]
            n, tot = len(before), sum(L(p) for p in before)
            for f, ups in pairs.items():
                p = _standing(ups, tau)
                if p is None or (kind == "peer" and n == 0):
                    continue
                acc[f] = [base(p) if kind == "baseline" else
                          (100 * (n * L(p) - tot) / (n - 1) if n >= 2 else 0.0), 1.0]  # fmt: skip
        out.update({(f, row.question): tuple(v) for f, v in acc.items() if v[1] > 0})
    return out


def _pairs(res, crowd=False):
    cols = zip(res.pair_forecaster, res.pair_question, res.pair_score, res.pair_coverage,
               res.pair_crowd if crowd else res.pair_score)  # fmt: skip
    return {(f, q): (s, c, m) if crowd else (s, c) for f, q, s, c, m in cols}


def _assert_pairs(got, ref, rtol=1e-10, atol=1e-10):
    assert set(got) == set(ref)
    for k in ref:
        np.testing.assert_allclose(got[k], ref[k], rtol=rtol, atol=atol, err_msg=str(k))


# --------------------------------------------------------------------------
# Metaculus: its code, its FAQ
# --------------------------------------------------------------------------
def _metaculus_fixture(name="metaculus.json"):
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    epoch = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)

    def when(days):  # the fixture script's datetimes, to the microsecond
        return epoch + dt.timedelta(days=days)

    cases = data["cases"]
    rows = [r for c in cases for r in c["rows"]]
    fc = {
        "forecaster": [r["forecaster"] for r in rows],
        "question": [r["question"] for r in rows],
        "timestamp": [when(r["t"]) for r in rows],
        "probability": [r["p"] for r in rows],
    }
    qs = {
        "question": [c["question"] for c in cases],
        "open_time": [when(c["open"]) for c in cases],
        "close_time": [when(c["close"]) for c in cases],
        "resolve_time": [when(c["resolve"]) for c in cases],
        "outcome": [c["outcome"] for c in cases],
    }
    spot = {c["question"]: when(c["spot"]) for c in cases}
    return forecast_history(fc, qs), spot, cases


@pytest.mark.parametrize("fixture", ["metaculus.json", "metaculus_multiple_choice.json"])
@pytest.mark.parametrize("kind", ["baseline", "peer", "baseline_spot", "peer_spot"])
def test_equal_to_metaculus_scoring_code(kind, fixture):
    # binary questions and multiple-choice questions of 3 to 5 categories
    h, spot, cases = _metaculus_fixture(fixture)
    fn = baseline_score if kind.startswith("baseline") else peer_score
    res = fn(h, at=spot if kind.endswith("spot") else None)
    ref = {
        (f, c["question"]): tuple(v) for c in cases for f, v in c["expected"][kind].items()
    }
    _assert_pairs(_pairs(res), ref, rtol=1e-9, atol=1e-9)


def test_peer_scores_of_a_question_sum_to_zero():
    h, _, _ = _metaculus_fixture()
    res = peer_score(h)
    sums = pd.Series(res.pair_score).groupby(res.pair_question).sum()
    np.testing.assert_allclose(sums.to_numpy(), 0.0, atol=1e-9)


def _one_question(times, probs, close, *, resolve=None, open_=0.0, outcome=1, who=None):
    n = len(times)
    return forecast_history(
        {"forecaster": who or ["you"] * n, "question": ["q"] * n, "timestamp": times,
         "probability": probs},
        {"question": ["q"], "open_time": [open_], "close_time": [close],
         "resolve_time": [close if resolve is None else resolve], "outcome": [outcome]},
    )  # fmt: skip


def test_metaculus_faq_time_averaging_example():
    # "Do all my predictions on a question count toward my score?": 5 days,
    # resolves Yes, 40% on day 2, 70% on day 3, 80% on day 5: 0, -32, +49, +49, +68 -> +27
    h = _one_question([1, 2, 4], [0.4, 0.7, 0.8], 5)
    res = baseline_score(h)
    assert round(float(res.score[0])) == 27 and res.coverage[0] == pytest.approx(0.8)
    days = [baseline_score(h, at={"q": d + 0.5}).score for d in range(1, 5)]
    assert [round(float(s[0])) for s in days] == [-32, 49, 49, 68]


@pytest.mark.parametrize(
    "p, yes, no", [(0.7, 48, -74), (0.8, 68, -132), (0.9, 85, -232), (0.99, 99, -564)]
)
def test_metaculus_faq_baseline_table(p, yes, no):
    # "Can I get better scores by predicting extreme values?" (the table shows
    # 100 log2(1.4) = 48.54 as +48; its time-averaging example rounds it to +49)
    for outcome, want in ((1, yes), (0, no)):
        h = _one_question([0], [p], 1, outcome=outcome)
        assert abs(float(baseline_score(h).score[0]) - want) < 1


def test_metaculus_faq_truncation_example():
    # "Why did I get a small score when I was right?": a year of 52 weeks; the
    # honest forecaster says 24% this week, then 5%; fired in week 1 -> -2
    fired_now = _one_question([0], [0.24], 52, resolve=1)
    assert round(float(baseline_score(fired_now).score[0])) == -2
    year = _one_question([0, 1], [0.24, 0.05], 52, outcome=1)
    kept = _one_question([0, 1], [0.24, 0.05], 52, outcome=0)
    assert round(float(baseline_score(year).score[0])) == -328
    assert round(float(baseline_score(kept).score[0])) == 92
    gaming = _one_question([0], [0.99], 52, resolve=1)
    assert round(float(baseline_score(gaming).score[0])) == 2


def test_metaculus_faq_peer_example():
    # Alex, Bailey, Cory with log scores -1, 1, 2 -> -2.5, 0.5, 2 (x 100); shifted by -3
    h = _one_question(
        [0, 0, 0], np.exp([-4.0, -2.0, -1.0]), 1, who=["Alex", "Bailey", "Cory"]
    )
    np.testing.assert_allclose(peer_score(h).score, [-250, 50, 200])
    # against the geometric mean of the others: 100 ln(p / GM(others))
    gm = math.exp((-2.0 - 1.0) / 2)
    assert peer_score(h).score[0] == pytest.approx(100 * math.log(math.exp(-4) / gm))


def test_alone_on_a_question_scores_zero_with_coverage():
    h = _one_question([0.5], [0.9], 2)
    res = peer_score(h)
    assert res.score[0] == 0.0 and res.coverage[0] == pytest.approx(0.75)


# --------------------------------------------------------------------------
# every score against a plain loop on simulated histories
# --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("mode", ["median", "exclude"])
@pytest.mark.parametrize("step, half", [(1.0, True), (0.5, False), (2.0, True)])
def test_daily_brier_equals_a_day_by_day_loop(seed, mode, step, half):
    fc, qt, h = simulate(seed)
    c = 1.0 if half else 2.0
    res = daily_brier(h, step=step, scale_by_half=half, before_first=mode)
    _assert_pairs(_pairs(res, crowd=True), ref_daily(fc, qt, step, c, mode))
    np.testing.assert_allclose(res.relative, res.score - res.crowd)


def test_daily_brier_question_crowd_and_scales():
    fc, qt, h = simulate(3)
    one, two = daily_brier(h), daily_brier(h, scale_by_half=False)
    np.testing.assert_allclose(two.pair_score, 2 * one.pair_score)
    np.testing.assert_allclose(two.question_crowd, 2 * one.question_crowd)
    assert two.score_name == "daily_brier(0-2)"
    # with the median rule, a pair's crowd is its question's median score
    qc = dict(zip(one.questions, one.question_crowd))
    np.testing.assert_allclose(one.pair_crowd, [qc[q] for q in one.pair_question])


def test_daily_brier_of_datetimes_equals_days():
    fc, qt, h = simulate(4)
    day0 = np.datetime64("2024-02-01T00:00:00", "ns")

    def stamp(x):
        return day0 + (np.asarray(x, dtype=np.float64) * 86400e9).astype("timedelta64[ns]")

    fd = fc.assign(timestamp=stamp(fc.timestamp))
    qd = qt.assign(**{k: stamp(qt[k]) for k in ("open_time", "close_time", "resolve_time")})
    hd = forecast_history(fd, qd, weight="weight")
    a, b = daily_brier(h), daily_brier(hd)
    np.testing.assert_allclose(a.pair_score, b.pair_score, rtol=1e-12)
    c = daily_brier(hd, step=np.timedelta64(12, "h"))
    np.testing.assert_allclose(
        c.pair_score, daily_brier(h, step=0.5).pair_score, rtol=1e-12
    )
    np.testing.assert_allclose(daily_brier(hd, step="12h").pair_score, c.pair_score)
    np.testing.assert_allclose(
        daily_brier(hd, step=dt.timedelta(hours=12)).pair_score, c.pair_score
    )


@pytest.mark.parametrize("seed", [0, 5])
@pytest.mark.parametrize("rule", ["log", "brier"])
@pytest.mark.parametrize("kind", ["baseline", "peer"])
def test_metaculus_scores_equal_a_loop_over_instants(seed, rule, kind):
    fc, qt, h = simulate(seed, halves=seed == 0)
    fn = baseline_score if kind == "baseline" else peer_score
    _assert_pairs(_pairs(fn(h, rule=rule)), ref_metaculus(fc, qt, kind, rule))
    at = {q: float(t) for q, t in zip(qt.question, qt.open_time + 1.5)}
    _assert_pairs(_pairs(fn(h, rule=rule, at=at)), ref_metaculus(fc, qt, kind, rule, at))


def test_brier_rule_of_the_peer_score_is_a_difference_of_brier_scores():
    h = _one_question([0, 0, 0], [0.9, 0.6, 0.2], 1, who=["a", "b", "c"])
    got = peer_score(h, rule="brier").score
    b = (np.array([0.9, 0.6, 0.2]) - 1) ** 2
    want = [100 * (np.mean(np.delete(b, i)) - b[i]) for i in range(3)]
    np.testing.assert_allclose(got, want)
    assert baseline_score(h, rule="brier").score[0] == pytest.approx(
        100 * (0.25 - 0.01) / 0.25
    )


@pytest.mark.parametrize("at", ["first", "last", "midpoint", "close", 0.0, 1.5])
def test_brier_at_equals_a_loop(at):
    fc, qt, h = simulate(6)
    res = brier_at(h, at)
    ref = {}
    for row in qt.itertuples():
        end = min(row.close_time, row.resolve_time)
        tau = {"midpoint": (row.open_time + end) / 2, "close": end}.get(at)
        if not isinstance(at, str):
            tau = row.resolve_time - at
        scores = {}
        for f, ups in _by_pair(fc, row.question).items():
            p = (
                ups[0][1]
                if at == "first"
                else ups[-1][1]
                if at == "last"
                else _standing(ups, tau)
            )
            if p is not None:
                scores[f] = (p - row.outcome) ** 2
        med = float(np.median(list(scores.values()))) if scores else None
        ref.update({(f, row.question): (s, 1.0, med) for f, s in scores.items()})
    _assert_pairs(_pairs(res, crowd=True), ref)


def test_times_per_question_as_dict_or_array():
    fc, qt, h = simulate(7)
    at = {q: float(t) + 2 for q, t in zip(qt.question, qt.open_time)}
    a = brier_at(h, at)
    b = brier_at(h, np.array([at[q] for q in h.questions]))
    np.testing.assert_array_equal(a.pair_score, b.pair_score)
    with pytest.raises(ValueError, match=r"^at: no time for 1 question"):
        brier_at(h, {q: v for q, v in list(at.items())[1:]})
    with pytest.raises(ValueError, match=r"^at has 2 times but the history has"):
        brier_at(h, [1.0, 2.0])


# --------------------------------------------------------------------------
# aggregation, weights, invariances
# --------------------------------------------------------------------------
def test_question_weights_in_the_forecaster_aggregates():
    fc, qt, h = simulate(8)
    res = baseline_score(h)
    frame = res.pairs_frame().merge(qt[["question", "weight"]], on="question")
    for i, f in enumerate(res.forecasters):
        part = frame[frame.forecaster == f]
        w = part.weight.to_numpy()
        assert res.total[i] == pytest.approx(np.sum(w * part.score))
        assert res.score[i] == pytest.approx(np.sum(w * part.score) / w.sum())
        assert res.coverage[i] == pytest.approx(np.sum(w * part.coverage) / qt.weight.sum())
        assert res.n_questions[i] == len(part)


def test_row_order_does_not_matter():
    fc, qt, h = simulate(9)
    other = forecast_history(
        fc.sample(frac=1, random_state=3).sort_values("timestamp", kind="stable"),
        qt,
        weight="weight",
    )
    for fn in (daily_brier, peer_score, baseline_score, brier_at):
        np.testing.assert_array_equal(fn(h).pair_score, fn(other).pair_score)


def test_median_table_in_chunks(monkeypatch):
    fc, qt, h = simulate(10, n_q=20, n_f=9)
    ref = daily_brier(h)
    monkeypatch.setattr(_history_kernels, "_CHUNK", 7)
    got = daily_brier(h)
    np.testing.assert_array_equal(got.pair_score, ref.pair_score)
    np.testing.assert_array_equal(got.question_crowd, ref.question_crowd)


def test_late_first_forecast_is_not_scored_on_daily_brier():
    # a forecast made during the last, partial day scores no full day
    h = _one_question([0.0, 3.5], [0.5, 0.9], 3.8, who=["a", "b"])
    res = daily_brier(h)
    assert res.pair_forecaster.tolist() == ["a"] and res.n_questions.tolist() == [1, 0]
    assert np.isnan(res.score[1]) and res.coverage[1] == 0.0


# --------------------------------------------------------------------------
# options and the result
# --------------------------------------------------------------------------
def test_option_errors():
    _, _, h = simulate(11)
    with pytest.raises(ValueError, match=r"^before_first must be one of"):
        daily_brier(h, before_first="zero")
    with pytest.raises(ValueError, match=r"^step must be > 0"):
        daily_brier(h, step=0)
    with pytest.raises(TypeError, match=r"^step must be a number in the unit"):
        daily_brier(h, step=np.timedelta64(1, "D"))
    with pytest.raises(TypeError, match=r"^scale_by_half must be True or False"):
        daily_brier(h, scale_by_half=2)
    with pytest.raises(ValueError, match=r"^rule must be one of"):
        peer_score(h, rule="spherical")
    with pytest.raises(ValueError, match=r"^at must be one of"):
        brier_at(h, "later")
    with pytest.raises(ValueError, match=r"^at must be >= 0"):
        baseline_score(h, at=-1.0)
    hd = _one_question(np.array(["2024-01-02"], dtype="datetime64[ns]"), [0.5],
                       np.datetime64("2024-01-05"), open_=np.datetime64("2024-01-01"))  # fmt: skip
    with pytest.raises(TypeError, match=r"^step must be a timedelta"):
        daily_brier(hd, step=1.0)
    with pytest.raises(ValueError, match=r"^step could not be read"):
        daily_brier(hd, step="soon")


def test_log_rule_refuses_a_zero_probability_on_the_outcome():
    h = _one_question([0, 1], [0.5, 0.0], 3, who=["a", "b"])
    with pytest.raises(
        ValueError, match=r"^probability: row 1 of forecasts \(forecaster 'b'"
    ):
        peer_score(h)
    assert np.isfinite(peer_score(h, rule="brier").score).all()


def test_result_protocol():
    _, _, h = simulate(12)
    res = daily_brier(h)
    frame = res.to_frame()
    assert frame.columns.tolist() == [
        "forecaster", "score", "total", "coverage", "n_questions", "crowd", "relative"
    ]  # fmt: skip
    assert frame.score.is_monotonic_increasing  # Brier: lower first
    assert peer_score(h).to_frame().score.is_monotonic_decreasing
    assert "crowd" not in peer_score(h).to_frame()
    pairs = res.pairs_frame()
    assert len(pairs) == res.pair_score.shape[0] and "crowd" in pairs
    assert res.summary().splitlines()[0] == "HistoryScoreResult: daily_brier"
    d = res.to_dict()
    assert d["score_name"] == "daily_brier" and len(d["pair_score"]) == len(pairs)
    assert repr(res).startswith(
        "HistoryScoreResult(score_name=daily_brier, n_forecasters=6"
    )


@pytest.mark.parametrize("score", ["brier_at", "peer_score", "baseline_score"])
def test_a_spot_time_before_every_forecast_is_refused(score):
    # a spot time at which no forecast stands on any question (here before
    # every forecast; for a Peer score also before any crowd) scored nothing:
    # all-NaN scores, best=<first forecaster> with NaN, and history_leaderboard
    # then failed in numpy ("zero-size array to reduction operation minimum")
    import skbrier

    h = forecast_history(
        {"forecaster": ["x", "x", "y", "y", "z"], "question": ["a", "a", "a", "b", "b"],
         "timestamp": [1, 2, 2, 3, 4], "probability": [0.6, 0.7, 0.8, 0.3, 0.2]},
        {"question": ["a", "b"], "open_time": [0, 0], "close_time": [10, 10],
         "resolve_time": [10, 10], "outcome": [1, 0]},
    )  # fmt: skip
    fn = getattr(skbrier, score)
    kw = {} if score == "brier_at" else {"at": 11}
    args = (h, 11) if score == "brier_at" else (h,)
    with pytest.raises(ValueError, match="^at: no forecast .* at that time"):
        fn(*args, **kw)
    with pytest.raises(ValueError, match="^at: no forecast"):
        fn(h, **({"at": [0.5, 0.5]}))
    if score == "peer_score":  # x stands at 1 on a, but no crowd formed before 1
        with pytest.raises(ValueError, match="^at: no forecast .*crowd"):
            peer_score(h, at=[1, 2])
