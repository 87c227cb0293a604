"""Difficulty-adjusted Brier scores, leaderboards and parity dates (skbrier.leaderboards)."""

import numpy as np
import pytest
from scipy import stats

from skbrier import (
    combine_leaderboards,
    difficulty_adjusted_brier,
    leaderboard,
    parity_date,
)
from skbrier.leaderboards._fit import build_structure, solve
from skbrier.leaderboards._panel import check_panel
from skbrier.results import LeaderboardResult


def panel(seed=0, n_f=6, n_q=40, density=0.6, weights=False):
    rng = np.random.default_rng(seed)
    f, q = np.meshgrid(np.arange(n_f), np.arange(n_q), indexing="ij")
    f, q = f.ravel(), q.ravel()
    keep = rng.random(f.size) < density
    keep[q < 2] = True  # two questions answered by everyone: connected
    f, q = f[keep], q[keep]
    y = (rng.random(n_q) < 0.4)[q].astype(int)
    skill = rng.normal(0, 0.1, n_f)[f]
    p = np.clip(
        np.where(y == 1, 0.7, 0.3) + skill * (2 * y - 1) + rng.normal(0, 0.15, f.size), 0, 1
    )
    w = rng.integers(1, 4, f.size).astype(float) if weights else None
    names = np.array([f"m{i}" for i in range(n_f)])[f]
    return dict(y=y, p=p, f=names, q=q, w=w)


def dense_fit(d, fitted):
    """Weighted least squares on the dummy design, by numpy lstsq."""
    fn, fc = np.unique(d["f"], return_inverse=True)
    qn, qc = np.unique(d["q"], return_inverse=True)
    b = (d["p"] - d["y"]) ** 2
    w = np.ones(b.size) if d["w"] is None else d["w"]
    m = np.isin(d["f"], fitted)
    x = np.zeros((m.sum(), fn.size + qn.size))
    x[np.arange(m.sum()), fc[m]] = 1.0
    x[np.arange(m.sum()), fn.size + qc[m]] = 1.0
    sw = np.sqrt(w[m])
    coef = np.linalg.lstsq(x * sw[:, None], b[m] * sw, rcond=None)[0]
    gamma = coef[fn.size :]
    gamma -= np.dot(w[m], gamma[qc[m]]) / w[m].sum()  # our normalisation
    adj = b - gamma[qc]
    scores = np.bincount(fc, weights=w * adj) / np.bincount(fc, weights=w)
    return fn, scores, gamma


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_dense_least_squares(seed, weights):
    d = panel(seed, weights=weights)
    fitted = ["m0", "m1", "m2", "m3", "m4"]  # m5 is scored, not fitted
    covered = np.unique(d["q"][d["f"] != "m5"])
    keep = np.isin(d["q"], covered)
    d = {k: (v if v is None else v[keep]) for k, v in d.items()}
    res = difficulty_adjusted_brier(
        d["y"], d["p"], forecaster=d["f"], question=d["q"], sample_weight=d["w"],
        fit_forecasters=fitted,
    )  # fmt: skip
    names, scores, gamma = dense_fit(d, fitted)
    assert res.forecasters.tolist() == names.tolist()
    np.testing.assert_allclose(res.adjusted_brier, scores, atol=1e-10, rtol=0)
    np.testing.assert_allclose(res.question_effects, gamma, atol=1e-10, rtol=0)
    # fitted forecasters: the adjusted score is the forecaster effect
    np.testing.assert_allclose(
        res.forecaster_effects[:5], res.adjusted_brier[:5], atol=1e-12
    )
    assert np.isnan(res.forecaster_effects[5])
    np.testing.assert_allclose(res.brier_index, 100 * (1 - np.sqrt(res.adjusted_brier)))


def test_balanced_panel_is_raw_brier_minus_mean_question_effect():
    rng = np.random.default_rng(3)
    f = np.repeat(["a", "b", "c", "d"], 25)
    q = np.tile(np.arange(25), 4)
    y = (rng.random(25) < 0.5)[q]
    p = rng.random(100)
    for anchor in (None, ("c", 0.25)):
        res = difficulty_adjusted_brier(y, p, forecaster=f, question=q, anchor=anchor)
        raw = np.array([np.mean((p[f == n] - y[f == n]) ** 2) for n in "abcd"])
        np.testing.assert_allclose(res.raw_brier, raw, atol=1e-15)
        np.testing.assert_allclose(
            res.adjusted_brier, raw - res.question_effects.mean(), atol=1e-14
        )
    plain = difficulty_adjusted_brier(y, p, forecaster=f, question=q)
    np.testing.assert_allclose(plain.adjusted_brier, raw, atol=1e-14)  # our constant


def test_invariant_to_the_reference_level_after_anchoring():
    d = panel(4, weights=True)
    anchor_value = 0.2
    base = difficulty_adjusted_brier(
        d["y"], d["p"], forecaster=d["f"], question=d["q"], sample_weight=d["w"],
        anchor=("m3", anchor_value),
    )  # fmt: skip
    # renaming moves a different forecaster first (the grounded one) and reorders rows
    ren = np.array(["z" + s if s in ("m0", "m1") else s for s in d["f"]])
    order = np.random.default_rng(0).permutation(ren.size)
    other = difficulty_adjusted_brier(
        d["y"][order], d["p"][order], forecaster=ren[order], question=d["q"][order],
        sample_weight=d["w"][order], anchor=("m3", anchor_value),
    )  # fmt: skip
    a = dict(zip(base.forecasters.tolist(), base.adjusted_brier))
    b = dict(
        zip([s.removeprefix("z") for s in other.forecasters.tolist()], other.adjusted_brier)
    )
    for k in a:
        assert a[k] == pytest.approx(b[k], abs=1e-12)
    assert a["m3"] == anchor_value


def test_weights_zero_removes_rows_and_scale_does_not_matter():
    d = panel(5, weights=True)
    r1 = difficulty_adjusted_brier(d["y"], d["p"], forecaster=d["f"], question=d["q"],
                                   sample_weight=d["w"])  # fmt: skip
    r2 = difficulty_adjusted_brier(d["y"], d["p"], forecaster=d["f"], question=d["q"],
                                   sample_weight=3.5 * d["w"])  # fmt: skip
    np.testing.assert_allclose(r1.adjusted_brier, r2.adjusted_brier, atol=1e-13)
    w = d["w"].copy()
    w[:7] = 0.0
    r3 = difficulty_adjusted_brier(d["y"], d["p"], forecaster=d["f"], question=d["q"],
                                   sample_weight=w)  # fmt: skip
    keep = slice(7, None)
    r4 = difficulty_adjusted_brier(d["y"][keep], d["p"][keep], forecaster=d["f"][keep],
                                   question=d["q"][keep], sample_weight=d["w"][keep])  # fmt: skip
    np.testing.assert_allclose(r3.adjusted_brier, r4.adjusted_brier, atol=1e-13)
    unit = difficulty_adjusted_brier(d["y"], d["p"], forecaster=d["f"], question=d["q"],
                                     sample_weight=np.ones(d["y"].size))  # fmt: skip
    none = difficulty_adjusted_brier(d["y"], d["p"], forecaster=d["f"], question=d["q"])
    np.testing.assert_array_equal(unit.adjusted_brier, none.adjusted_brier)


def test_question_multiplicity_equals_distinct_copies():
    # a question drawn c times as c distinct questions == its rows weighted by c
    d = panel(6)
    lp = check_panel(d["y"], d["p"], forecaster=d["f"], question=d["q"])
    c = np.random.default_rng(1).integers(0, 4, lp.questions.size).astype(float)
    c[:2] = 1.0  # keep the linking questions
    fit = solve(build_structure(lp.panel), c)
    rows = np.repeat(
        np.arange(d["y"].size), c[np.searchsorted(lp.questions, d["q"])].astype(int)
    )
    copy = np.concatenate(
        [np.arange(k) for k in c[np.searchsorted(lp.questions, d["q"])].astype(int)]
    )
    relabelled = difficulty_adjusted_brier(
        d["y"][rows], d["p"][rows], forecaster=d["f"][rows],
        question=[f"{q}_sim_{k}" for q, k in zip(d["q"][rows], copy)],
    )  # fmt: skip
    np.testing.assert_allclose(fit.scores, relabelled.adjusted_brier, atol=1e-12)


def test_singletons_keep_or_drop():
    f = ["a", "a", "b", "b", "a"]
    q = [1, 2, 1, 2, 3]  # question 3: only "a"
    y = [1, 0, 1, 0, 1]
    p = [0.8, 0.3, 0.6, 0.4, 0.9]
    keep = difficulty_adjusted_brier(y, p, forecaster=f, question=q)
    drop = difficulty_adjusted_brier(y, p, forecaster=f, question=q, singletons="drop")
    # the singleton does not move the effects (only the common constant)
    gap = keep.forecaster_effects[0] - keep.forecaster_effects[1]
    assert gap == pytest.approx(
        drop.forecaster_effects[0] - drop.forecaster_effects[1], abs=1e-14
    )
    assert keep.n_questions.tolist() == [3, 2] and drop.n_questions.tolist() == [2, 2]
    assert drop.questions.tolist() == [1, 2]


def test_errors_name_the_parameter():
    base = dict(forecaster=["a", "a", "b", "b"], question=[1, 2, 1, 2])
    y, p = [1, 0, 1, 0], [0.8, 0.3, 0.6, 0.4]
    with pytest.raises(ValueError, match="more than once"):
        difficulty_adjusted_brier(
            y, p, forecaster=["a", "a", "b", "b"], question=[1, 1, 1, 2]
        )
    with pytest.raises(ValueError, match="y_proba"):
        difficulty_adjusted_brier(y, [0.8, np.nan, 0.6, 0.4], **base)
    with pytest.raises(ValueError, match="anchor"):
        difficulty_adjusted_brier(y, p, anchor=("zz", 0.25), **base)
    with pytest.raises(TypeError, match="anchor"):
        difficulty_adjusted_brier(y, p, anchor="a", **base)
    with pytest.raises(ValueError, match="fit_forecasters"):
        difficulty_adjusted_brier(y, p, fit_forecasters=["zz"], **base)
    with pytest.raises(ValueError, match="reference"):
        leaderboard(y, p, reference="zz", n_resamples=9, **base)
    with pytest.raises(ValueError, match="strata"):
        leaderboard(y, p, strata=["r1", "r2", "r1", "r1"], n_resamples=9, **base)
    with pytest.raises(ValueError, match="strata"):
        leaderboard(y, p, strata=["r1", None, "r1", None], n_resamples=9, **base)
    with pytest.raises(ValueError, match="forecaster"):
        difficulty_adjusted_brier(y, p, forecaster=["a", "a", "b"], question=[1, 2, 1])
    with pytest.raises(ValueError, match="no fitted"):
        difficulty_adjusted_brier(
            [1, 0, 1], [0.8, 0.3, 0.6], forecaster=["a", "a", "b"], question=[1, 2, 3],
            fit_forecasters=["a"],
        )  # fmt: skip
    with pytest.raises(ValueError, match="n_resamples"):
        leaderboard(y, p, n_resamples=1, **base)
    with pytest.raises(ValueError, match="singletons"):
        difficulty_adjusted_brier(y, p, singletons="maybe", **base)


def test_disconnected_panel_names_the_components():
    with pytest.raises(ValueError, match=r"disconnected.*\['a', 'b'\].*\['c'\]"):
        difficulty_adjusted_brier(
            [1, 0, 1, 0, 1],
            [0.8, 0.3, 0.6, 0.4, 0.5],
            forecaster=["a", "a", "b", "b", "c"],
            question=[1, 2, 1, 2, 3],
        )


def _lb(**kw):
    d = panel(7, n_f=5, n_q=30)
    strata = (d["q"] % 3).astype(str)
    return leaderboard(
        d["y"], d["p"], forecaster=d["f"], question=d["q"], strata=strata, **kw
    )


def test_leaderboard_statistics_from_its_replicates():
    res = _lb(n_resamples=199, reference="m2", random_state=0, anchor=("m4", 0.25))
    assert isinstance(res, LeaderboardResult)
    reps = res.replicates
    assert reps.shape == (199, 5)
    np.testing.assert_allclose(reps[:, 4], 0.25)  # the anchor holds in every replicate
    bi = 100 * (1 - np.sqrt(reps))
    np.testing.assert_allclose(res.brier_index_low, np.nanquantile(bi, 0.025, axis=0))
    np.testing.assert_allclose(res.brier_index_high, np.nanquantile(bi, 0.975, axis=0))
    pv = np.mean(bi >= bi[:, [2]], axis=0)
    pv[2] = np.nan
    np.testing.assert_allclose(res.p_value, pv)
    ranks = stats.rankdata(reps, method="min", axis=1)
    np.testing.assert_array_equal(res.rank_low, np.floor(np.quantile(ranks, 0.025, axis=0)))
    np.testing.assert_array_equal(res.rank_high, np.ceil(np.quantile(ranks, 0.975, axis=0)))
    share = np.bincount(np.argmin(reps, axis=1), minlength=5) / 199
    np.testing.assert_allclose(res.share_best, share)
    ci = res.confidence_interval(0.9, metric="adjusted_brier", model="m1")
    assert ci.low == pytest.approx(np.quantile(reps[:, 1], 0.05))


def test_leaderboard_deterministic_whatever_n_jobs():
    a = _lb(n_resamples=40, random_state=3)
    b = _lb(n_resamples=40, random_state=3, n_jobs=2)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    c = _lb(n_resamples=40, random_state=4)
    assert not np.array_equal(a.replicates, c.replicates)


def test_replicates_are_refits_of_resampled_questions_within_strata():
    from skbrier._core.resampling import run_replicates, stratified_indices

    d = panel(7, n_f=5, n_q=30)
    strata = (d["q"] % 3).astype(str)
    res = leaderboard(d["y"], d["p"], forecaster=d["f"], question=d["q"], strata=strata,
                      n_resamples=16, random_state=11)  # fmt: skip
    qn = np.unique(d["q"])
    groups = [np.flatnonzero(qn % 3 == s) for s in range(3)]
    idx = run_replicates(lambda size, rng: stratified_indices(rng, groups, size), 16,
                         random_state=11)  # fmt: skip
    for r in (0, 9):
        drawn = qn[idx[r]]
        rows = np.concatenate([np.flatnonzero(d["q"] == q) for q in drawn])
        copies = np.concatenate(
            [np.full((d["q"] == q).sum(), k) for k, q in enumerate(drawn)]
        )
        ref = difficulty_adjusted_brier(d["y"][rows], d["p"][rows], forecaster=d["f"][rows],
                                        question=copies)  # fmt: skip
        np.testing.assert_allclose(res.replicates[r], ref.adjusted_brier, atol=1e-12)


def test_disconnected_replicates_are_left_out_with_a_warning():
    # "c" is linked to the others through question 3 only
    f = ["a", "a", "b", "b", "a", "c", "c"]
    q = [1, 2, 1, 2, 3, 3, 4]
    y = [1, 0, 1, 0, 1, 1, 0]
    p = [0.8, 0.3, 0.6, 0.4, 0.7, 0.9, 0.2]
    with pytest.warns(UserWarning, match="disconnected"):
        res = leaderboard(y, p, forecaster=f, question=q, n_resamples=50, random_state=0)
    assert 0 < res.n_disconnected < 50
    assert np.isnan(res.replicates).all(axis=1).sum() >= res.n_disconnected


def test_combine_is_the_mean_of_anchored_part_scores():
    d = panel(8, n_f=4, n_q=30)
    kind = np.where(d["q"] % 2 == 0, "dataset", "market")
    both = difficulty_adjusted_brier(d["y"], d["p"], forecaster=d["f"], question=d["q"],
                                     combine=kind, anchor=("m0", 0.25))  # fmt: skip
    parts = []
    for k in ("dataset", "market"):
        m = kind == k
        parts.append(
            difficulty_adjusted_brier(
                d["y"][m],
                d["p"][m],
                forecaster=d["f"][m],
                question=d["q"][m],
                anchor=("m0", 0.25),
            )
        )
    np.testing.assert_allclose(both.adjusted_brier,
                               (parts[0].adjusted_brier + parts[1].adjusted_brier) / 2)  # fmt: skip
    np.testing.assert_allclose(both.brier_index, 100 * (1 - np.sqrt(both.adjusted_brier)))
    np.testing.assert_allclose(
        combine_leaderboards(parts).adjusted_brier, both.adjusted_brier, atol=1e-15
    )
    assert set(both.parts) == {"dataset", "market"}
    lb = leaderboard(d["y"], d["p"], forecaster=d["f"], question=d["q"], combine=kind,
                     anchor=("m0", 0.25), n_resamples=30, random_state=0)  # fmt: skip
    np.testing.assert_allclose(lb.adjusted_brier, both.adjusted_brier)
    lb1 = leaderboard(d["y"][kind == "dataset"], d["p"][kind == "dataset"],
                      forecaster=d["f"][kind == "dataset"], question=d["q"][kind == "dataset"],
                      n_resamples=30, random_state=1, anchor=("m0", 0.25))  # fmt: skip
    lb2 = leaderboard(d["y"][kind == "market"], d["p"][kind == "market"],
                      forecaster=d["f"][kind == "market"], question=d["q"][kind == "market"],
                      n_resamples=30, random_state=2, anchor=("m0", 0.25))  # fmt: skip
    comb = combine_leaderboards([lb1, lb2], reference="m1")
    np.testing.assert_allclose(comb.replicates, (lb1.replicates + lb2.replicates) / 2)
    assert comb.reference == "m1"


def test_result_protocol():
    res = _lb(n_resamples=20, random_state=0)
    assert "LeaderboardResult" in repr(res)
    assert "forecaster" in res.summary()
    d = res.to_dict()
    assert len(d["replicates"]) == 20
    html = res.to_html(title="T")
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "http" not in html
    pd = pytest.importorskip("pandas")
    frame = res.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == 5


# ---------------------------------------------------------------- parity date
def test_parity_date_frontier_and_least_squares():
    dates = ["2024-01-01", "2024-03-01", "2024-03-01", "2024-06-01", "2024-05-01",
             "2024-09-01", None]  # fmt: skip
    scores = [60.0, 62.0, 63.0, 61.0, 62.5, 66.0, 75.0]
    res = parity_date(dates, scores, 75.0)
    # frontier: 60 (Jan), 63 (Mar, best of the day), 66 (Sep); 62.5 in May is no record
    assert res.frontier.tolist() == [0, 2, 5]
    x = np.array(["2024-01-01", "2024-03-01", "2024-09-01"], dtype="datetime64[D]").astype(
        float
    )
    fit = stats.linregress(x, [60.0, 63.0, 66.0])
    assert res.slope == pytest.approx(fit.slope, rel=1e-12)
    expected = (75.0 - fit.intercept) / fit.slope
    assert res.date == np.datetime64(int(round(expected)), "D")
    assert res.crossed and res.reason == ""


def test_parity_date_without_crossing_is_a_result():
    res = parity_date([1.0, 2.0], [60.0, 61.0], 70.0)
    assert not res.crossed and "fewer than 3" in res.reason
    res = parity_date([1.0, 2.0, 3.0, 4.0], [60.0, 59.0, 58.0, 57.0], 70.0)
    assert not res.crossed and "fewer than 3" in res.reason  # no records after the first
    assert np.isnan(res.date)


def test_parity_date_interval_is_conditional_on_later_crossings():
    dates = [0.0, 10.0, 20.0, 30.0]
    scores = np.array([50.0, 52.0, 55.0, 80.0])  # the last is the target (undated humans)
    reps = np.array(
        [[50, 52, 55, 80], [50, 49, 48, 80], [50, 53, 58, 81], [50, 51, 52, 80.0]]
    )
    dates[3] = None
    board_like = parity_date(dates, scores, 80.0, replicates=reps)
    # replicate 1 has no crossing (one frontier point): left out
    assert board_like.n_valid == 3 and board_like.n_replicates == 4
    valid = board_like.replicate_crossings[np.isfinite(board_like.replicate_crossings)]
    assert (valid > 20.0).all()
    assert board_like.low == pytest.approx(np.quantile(valid, 0.025))
    assert "conditional" in board_like.summary()


def test_parity_date_from_a_leaderboard_uses_the_replicate_target():
    res = _lb(n_resamples=30, random_state=0)
    dates = {"m0": "2024-01-01", "m1": "2024-04-01", "m2": "2024-08-01", "m3": "2024-12-01"}
    out = parity_date(dates, res, "m4", replicates=res)
    assert out.target == pytest.approx(float(res.brier_index[4]))
    assert out.n_replicates == 30
    with pytest.raises(ValueError, match="release_dates"):
        parity_date({"zz": "2024-01-01"}, res, "m4")
    with pytest.raises(ValueError, match="target"):
        parity_date(dates, res, "zz")


@pytest.mark.parametrize("entries,forecasters", [(10, 3000), (10, 1)])
def test_blocked_and_sparse_laplacians_agree_with_the_dense_one(
    monkeypatch, entries, forecasters
):
    from skbrier.leaderboards import _fit

    d = panel(9, n_f=8, n_q=60, weights=True)
    args = dict(forecaster=d["f"], question=d["q"], sample_weight=d["w"])
    dense = difficulty_adjusted_brier(d["y"], d["p"], **args)
    monkeypatch.setattr(_fit, "_DENSE_ENTRIES", entries)
    monkeypatch.setattr(_fit, "_DENSE_FORECASTERS", forecasters)
    other = difficulty_adjusted_brier(d["y"], d["p"], **args)
    np.testing.assert_allclose(other.adjusted_brier, dense.adjusted_brier, atol=1e-13)
    res = leaderboard(d["y"], d["p"], n_resamples=8, random_state=0, **args)
    monkeypatch.undo()
    ref = leaderboard(d["y"], d["p"], n_resamples=8, random_state=0, **args)
    np.testing.assert_allclose(res.replicates, ref.replicates, atol=1e-12)


def test_forecasters_without_every_part_are_nan_without_numpy_warnings():
    # combining parts where a forecaster answered only one of them: its score
    # and interval are NaN by design; numpy's "All-NaN slice encountered" and
    # a warning that every replicate is NaN leaked out
    import warnings

    d = panel(9, n_f=4, n_q=30)
    kind = np.where(d["q"] % 2 == 0, "dataset", "market")
    keep = ~((d["f"] == "m3") & (kind == "market"))  # m3 answers datasets only
    y, p, f, q, kind = d["y"][keep], d["p"][keep], d["f"][keep], d["q"][keep], kind[keep]
    parts = [
        leaderboard(y[kind == k], p[kind == k], forecaster=f[kind == k],
                    question=q[kind == k], n_resamples=30, random_state=i)
        for i, k in enumerate(("dataset", "market"))
    ]  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        comb = combine_leaderboards(parts)
        lb = leaderboard(y, p, forecaster=f, question=q, combine=kind, n_resamples=30,
                         random_state=0)  # fmt: skip
    for res in (comb, lb):
        m3 = res.forecasters.tolist().index("m3")
        assert np.isnan(res.brier_index[m3]) and np.isnan(res.brier_index_low[m3])
        # no score, no tie group (was listed in group 1, tied for the best)
        assert "m3" not in sum(res.groups.values(), []) and "m3" not in res.top_set
        others = np.arange(4) != m3
        assert np.all(res.brier_index_low[others] <= res.brier_index_high[others])
    reps = comb.replicates[:, [i for i in range(4) if comb.forecasters[i] != "m3"]]
    low = np.percentile(100 * (1 - np.sqrt(reps)), 2.5, axis=0)
    np.testing.assert_allclose(comb.brier_index_low[comb.forecasters != "m3"], low)


def test_question_bootstrap_of_fewer_than_three_questions_is_refused():
    # one question resampled 50 times: zero-width intervals and b "significantly
    # better" than a (tie groups 1 and 2) from a single question; the library's
    # rule for intervals is at least 3 observations (here questions)
    import skbrier

    args = ([1, 1], [0.2, 0.5])
    kw = {"forecaster": ["a", "b"], "question": [1, 1]}
    with pytest.raises(
        ValueError, match="^question: .*1 question.*at least 3.*n_resamples=0"
    ):
        leaderboard(*args, **kw, n_resamples=50, random_state=0)
    assert leaderboard(*args, **kw, n_resamples=0).tie_group.tolist() == [1, 1]
    h = skbrier.forecast_history(
        {"forecaster": ["a", "b", "a", "b"], "question": ["q", "q", "r", "r"],
         "timestamp": [1, 1, 1, 1], "probability": [0.2, 0.5, 0.6, 0.7]},
        {"question": ["q", "r"], "open_time": [0, 0], "close_time": [5, 5],
         "resolve_time": [5, 5], "outcome": [1, 0]},
    )  # fmt: skip
    with pytest.raises(ValueError, match="^question: .*2 questions.*at least 3"):
        skbrier.history_leaderboard(skbrier.brier_at(h), n_resamples=50, random_state=0)


@pytest.mark.parametrize("scale", [5e-324, 1e-320, 1e-300, 1e300])
def test_weights_of_any_scale_give_the_same_adjusted_scores(scale):
    # the least-squares fit of weights of 5e-324 raised LinAlgError (its
    # normal equations underflowed) after numpy's overflow warning
    d = panel(seed=5, weights=True)
    w = np.round(d["w"] * 4) + 1.0  # integers: exact at every scale
    ref = difficulty_adjusted_brier(
        d["y"], d["p"], forecaster=d["f"], question=d["q"], sample_weight=w
    )
    got = difficulty_adjusted_brier(
        d["y"], d["p"], forecaster=d["f"], question=d["q"], sample_weight=w * scale
    )
    np.testing.assert_allclose(got.adjusted_brier, ref.adjusted_brier, rtol=1e-12)
    np.testing.assert_allclose(got.raw_brier, ref.raw_brier, rtol=1e-12)
