"""The ranked probability score: equal to the peers, its skill score,
decomposition, states, Dask, Array API and scorers (issue 30, item 5)."""

from __future__ import annotations

import json
import os
import warnings

import numpy as np
import pytest

from skbrier import (
    brier_score,
    ranked_probability_decomposition,
    ranked_probability_score,
    ranked_probability_skill_score,
)
from skbrier.states import RankedProbabilityState

HERE = os.path.join(os.path.dirname(__file__), "fixtures")
with open(os.path.join(HERE, "rps_reference.json")) as _f:
    PY = json.load(_f)
with open(os.path.join(HERE, "rps_reference_r.json")) as _f:
    R = json.load(_f)

CASES = [
    (c, {k: {n: float(v) for n, v in d.items()} for k, d in r.items() if k != "name"})
    for c, r in zip(PY["cases"], R["cases"])
]
IDS = [c["name"] for c, _ in CASES]


def _inputs(case):
    k = case["k"]
    return np.array(case["y"]), np.array(case["proba"]), np.array(case["weights"]), k


@pytest.mark.parametrize(("case", "r"), CASES, ids=IDS)
def test_equals_scoringrules_python_and_r(case, r):
    y, p, w, k = _inputs(case)
    labels = list(range(1, k + 1))  # a category may be absent from y
    got = ranked_probability_score(y, p, labels=labels)
    assert got == pytest.approx(case["scoringrules_py"]["rps"], rel=1e-14, abs=0)
    assert got == pytest.approx(r["scoringRules"]["rps"], rel=1e-14, abs=0)
    got_w = ranked_probability_score(y, p, labels=labels, sample_weight=w)
    assert got_w == pytest.approx(case["scoringrules_py"]["rps_weighted"], rel=1e-14)
    assert got_w == pytest.approx(r["scoringRules"]["rps_weighted"], rel=1e-14)


@pytest.mark.parametrize(("case", "r"), CASES, ids=IDS)
def test_normalize_equals_verification_and_yardstick(case, r):
    y, p, _, k = _inputs(case)
    labels = list(range(1, k + 1))
    got = ranked_probability_score(y, p, labels=labels, normalize=True)
    assert got == pytest.approx(r["verification"]["rps"], rel=1e-14, abs=0)
    assert got == pytest.approx(r["yardstick"]["rps"], rel=1e-14, abs=0)


@pytest.mark.parametrize(("case", "r"), CASES, ids=IDS)
def test_yardstick_case_weights_are_a_softmax_not_frequencies(case, r):
    # documented: yardstick's brier_ind turns case weights w into
    # exp(w - max w) / sum(...) -- not what frequency weights give
    y, p, w, k = _inputs(case)
    labels = list(range(1, k + 1))
    soft = np.exp(w - w.max())
    got = ranked_probability_score(y, p, labels=labels, sample_weight=soft, normalize=True)
    assert got == pytest.approx(r["yardstick"]["rps_case_weights"], rel=1e-13)
    freq = ranked_probability_score(y, p, labels=labels, sample_weight=w, normalize=True)
    assert freq != pytest.approx(r["yardstick"]["rps_case_weights"], rel=1e-6)


@pytest.mark.parametrize(("case", "r"), CASES, ids=IDS)
def test_skill_score_equals_verification(case, r):
    y, p, _, k = _inputs(case)
    labels = list(range(1, k + 1))
    v = r["verification"]
    assert ranked_probability_skill_score(y, p, labels=labels) == pytest.approx(
        v["rpss"], rel=1e-13
    )
    uniform = np.full(k, 1.0 / k)
    assert ranked_probability_skill_score(
        y, p, labels=labels, reference=uniform
    ) == pytest.approx(v["rpss_uniform_baseline"], rel=1e-13)
    # the same constant forecast given row by row
    rows = np.tile(uniform, (y.shape[0], 1))
    assert ranked_probability_skill_score(
        y, p, labels=labels, reference=rows
    ) == pytest.approx(v["rpss_uniform_baseline"], rel=1e-13)


def test_two_categories_is_the_binary_brier_score():
    case = PY["cases"][3]
    y, p, w, _ = _inputs(case)
    assert ranked_probability_score(y, p, sample_weight=w) == pytest.approx(
        brier_score(y, p[:, 1], pos_label=2, sample_weight=w), rel=1e-14
    )


# --------------------------------------------------------------------------- order
def test_labels_give_the_order_of_the_columns():
    y = np.array(["mild", "severe", "moderate", "mild"])
    order = ["mild", "moderate", "severe"]
    p = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3], [0.5, 0.3, 0.2]])
    codes = np.array([order.index(v) for v in y])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "labels not sorted" warning
        got = ranked_probability_score(y, p, labels=order)
    assert got == pytest.approx(ranked_probability_score(codes, p), rel=1e-15)
    # the sorted order (mild < moderate < severe alphabetically here) differs
    # only by a permutation of the columns
    pd = pytest.importorskip("pandas")
    cat = pd.Series(pd.Categorical(y, categories=order, ordered=True))
    assert ranked_probability_score(cat, p) == got


def test_a_polars_enum_gives_its_order_as_a_pandas_ordered_categorical_does():
    # an Enum is ordered by definition: low < mid < high, not the sorted
    # high < low < mid (0.608 against scoringrules' 0.168 before)
    pl = pytest.importorskip("polars")
    pd = pytest.importorskip("pandas")
    order = ["low", "mid", "high"]
    y = np.array(["low", "high", "mid", "mid", "low"])
    p = np.reshape(
        [0.7, 0.2, 0.1, 0.1, 0.3, 0.6, 0.2, 0.5, 0.3, 0.3, 0.4, 0.3, 0.5, 0.4, 0.1], (5, 3)
    )
    want = ranked_probability_score(y, p, labels=order)
    assert want == pytest.approx(0.168, rel=1e-12)  # scoringrules.rps_score, onehot
    enum = pl.Series(y, dtype=pl.Enum(order))
    assert ranked_probability_score(enum, p) == want
    assert ranked_probability_score(pd.Categorical(y, order, ordered=True), p) == want
    dec = ranked_probability_decomposition(enum, p)
    assert dec.ranked_probability_score == pytest.approx(want, rel=1e-12)
    # an unordered categorical keeps the sorted labels (predict_proba's columns)
    assert ranked_probability_score(pl.Series(y, dtype=pl.Categorical), p) == (
        ranked_probability_score(y, p)
    )


def test_swapped_arguments_are_named():
    # y_true given the probabilities: "percentages, divide by 100" before
    p = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]])
    for labels in ([0, 1, 2], [0, 1, 1]):
        with pytest.raises(ValueError, match="swapped"):
            ranked_probability_score(p, labels)


def test_a_label_twice_is_refused():
    with pytest.raises(ValueError, match="labels names"):
        ranked_probability_score([0, 1], [[0.5, 0.5], [0.5, 0.5]], labels=[0, 1, 1])


def test_one_dimensional_forecasts_are_refused():
    with pytest.raises(ValueError, match="y_proba must be 2-D"):
        ranked_probability_score([0, 1], [0.2, 0.7])
    with pytest.raises(ValueError, match="y_proba"):
        ranked_probability_score([0, 1], [0.2, 1.7])


def test_normalize_must_be_boolean():
    with pytest.raises(TypeError, match="normalize"):
        ranked_probability_score([0, 1], [[0.5, 0.5], [0.5, 0.5]], normalize="yes")


def test_weights_are_frequencies():
    rng = np.random.default_rng(5)
    p = rng.dirichlet(np.ones(4), 80)
    y = rng.integers(0, 4, 80)
    w = rng.integers(0, 4, 80)
    rep = np.repeat(np.arange(80), w)
    assert ranked_probability_score(y, p, sample_weight=w) == pytest.approx(
        ranked_probability_score(y[rep], p[rep]), rel=1e-14
    )
    for scale in (1e-200, 1e200):
        assert ranked_probability_score(y, p, sample_weight=w * scale) == pytest.approx(
            ranked_probability_score(y, p, sample_weight=w), rel=1e-14
        )


def test_skill_of_a_single_category_is_nan_with_a_warning():
    from sklearn.exceptions import UndefinedMetricWarning

    with pytest.warns(UndefinedMetricWarning):
        got = ranked_probability_skill_score(
            [1, 1], [[0.2, 0.8, 0.0], [0.1, 0.9, 0.0]], labels=[0, 1, 2]
        )
    assert np.isnan(got)


def test_reference_shape_is_checked():
    y, p = [0, 1], [[0.5, 0.5], [0.4, 0.6]]
    with pytest.raises(ValueError, match="reference has 3 probabilities"):
        ranked_probability_skill_score(y, p, reference=[0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="reference has shape"):
        ranked_probability_skill_score(y, p, reference=[[0.5, 0.5]])
    with pytest.raises(ValueError, match="scalar"):
        ranked_probability_skill_score(y, p, reference=0.5)


# --------------------------------------------------------------------------- decomposition
@pytest.mark.parametrize("method", ["corp", "murphy"])
def test_decomposition_adds_up_over_thresholds(method):
    from skbrier import corp_decomposition, murphy_decomposition

    rng = np.random.default_rng(7)
    p = rng.dirichlet(np.ones(4), 300)
    y = rng.integers(0, 4, 300)
    w = rng.random(300)
    d = ranked_probability_decomposition(y, p, decomposition_method=method, sample_weight=w)
    rps = ranked_probability_score(y, p, sample_weight=w)
    total = d.miscalibration - d.discrimination + d.uncertainty + d.remainder
    assert total == pytest.approx(rps, rel=1e-12)
    assert d.ranked_probability_score == pytest.approx(rps, rel=1e-12)
    # each threshold is the binary decomposition of y <= k against F_k
    f1 = np.minimum(p[:, 0] + p[:, 1], 1.0)
    binary = (corp_decomposition if method == "corp" else murphy_decomposition)(
        (y <= 1).astype(int), f1, sample_weight=w
    )
    assert d.per_threshold[1].brier_score == pytest.approx(binary.brier_score, rel=1e-14)
    assert list(d.thresholds) == [0, 1, 2]
    frame = d.to_frame()
    assert list(frame["threshold"]) == [0, 1, 2]
    dn = ranked_probability_decomposition(
        y, p, decomposition_method=method, sample_weight=w, normalize=True
    )
    assert dn.uncertainty == pytest.approx(d.uncertainty / 3, rel=1e-14)


def test_decomposition_of_climatology_has_no_discrimination():
    y = np.array([0, 1, 2, 2, 1, 0, 2, 2])
    freq = np.bincount(y) / y.shape[0]
    p = np.tile(freq, (y.shape[0], 1))
    d = ranked_probability_decomposition(y, p)
    assert d.miscalibration == pytest.approx(0.0, abs=1e-15)
    assert d.discrimination == pytest.approx(0.0, abs=1e-15)
    assert d.uncertainty == pytest.approx(ranked_probability_score(y, p), rel=1e-14)


def test_decomposition_resamples_per_threshold():
    rng = np.random.default_rng(8)
    p = rng.dirichlet(np.ones(3), 100)
    y = rng.integers(0, 3, 100)
    d = ranked_probability_decomposition(y, p, n_resamples=20, random_state=0)
    ci = d.per_threshold[0].confidence_interval(metric="miscalibration")
    assert ci.low <= ci.high
    with pytest.raises(ValueError, match="method"):
        ranked_probability_decomposition(y, p, decomposition_method="isotonic")


# --------------------------------------------------------------------------- states
def test_state_merges_to_the_in_memory_score():
    rng = np.random.default_rng(9)
    labels = ["d", "a", "c", "b"]
    p = rng.dirichlet(np.ones(4), 400)
    y = np.array(list("abcd"))[rng.integers(0, 4, 400)]
    w = rng.random(400)
    ref = rng.dirichlet(np.ones(4), 400)
    parts = [slice(0, 150), slice(150, 151), slice(151, 400)]
    states = [
        RankedProbabilityState(labels=labels, with_reference=True).update(
            y[s], p[s], w[s], reference=ref[s]
        )
        for s in parts
    ]
    a = states[2].merge(states[0]).merge(states[1])
    assert a.finalize() == pytest.approx(
        ranked_probability_score(y, p, labels=labels, sample_weight=w), rel=1e-13
    )
    assert a.finalize(normalize=True) == pytest.approx(
        ranked_probability_score(y, p, labels=labels, sample_weight=w, normalize=True),
        rel=1e-13,
    )
    assert a.skill() == pytest.approx(
        ranked_probability_skill_score(y, p, labels=labels, sample_weight=w, reference=ref),
        rel=1e-12,
    )
    clim = RankedProbabilityState(labels=labels).update(y, p, w)
    assert clim.skill() == pytest.approx(
        ranked_probability_skill_score(y, p, labels=labels, sample_weight=w), rel=1e-12
    )


def test_state_refuses_other_options():
    with pytest.raises(ValueError, match="labels"):
        RankedProbabilityState(labels=[0, 1]).merge(RankedProbabilityState(labels=[1, 0]))


# --------------------------------------------------------------------------- dask
def test_dask_equals_memory():
    da = pytest.importorskip("dask.array")
    rng = np.random.default_rng(10)
    p = rng.dirichlet(np.ones(5), 500)
    y = rng.integers(0, 5, 500)
    w = rng.random(500)
    ref = rng.dirichlet(np.ones(5), 500)
    yd, pd_, wd = (da.from_array(y, 120), da.from_array(p, (120, 5)), da.from_array(w, 120))
    labels = [4, 3, 2, 1, 0]
    assert ranked_probability_score(
        yd, pd_, sample_weight=wd, labels=labels, normalize=True
    ) == pytest.approx(
        ranked_probability_score(y, p, sample_weight=w, labels=labels, normalize=True),
        rel=1e-13,
    )
    assert ranked_probability_skill_score(
        yd, pd_, reference=da.from_array(ref, (120, 5))
    ) == pytest.approx(ranked_probability_skill_score(y, p, reference=ref), rel=1e-12)
    assert ranked_probability_skill_score(yd, pd_, reference=[0.2] * 5) == pytest.approx(
        ranked_probability_skill_score(y, p, reference=[0.2] * 5), rel=1e-12
    )
    with pytest.raises(TypeError, match="Dask"):
        ranked_probability_decomposition(yd, pd_)


# --------------------------------------------------------------------------- scorers
def test_scorers_by_object_and_by_name():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score

    from skbrier.scorers import get_scorer, make_ranked_probability_score_scorer

    rng = np.random.default_rng(11)
    X = rng.normal(size=(300, 3))
    grade = np.digitize(X[:, 0] + rng.normal(scale=0.5, size=300), [-0.7, 0.0, 0.7])
    names = np.array(["none", "mild", "moderate", "severe"])
    order = ["none", "mild", "moderate", "severe"]
    y = names[grade]
    est = LogisticRegression().fit(X, y)
    scorer = make_ranked_probability_score_scorer(labels=order)
    cols = [list(est.classes_).index(c) for c in order]
    want = ranked_probability_score(y, est.predict_proba(X)[:, cols], labels=order)
    assert scorer(est, X, y) == pytest.approx(-want, rel=1e-14)
    skill = make_ranked_probability_score_scorer(labels=order, skill=True)
    assert skill(est, X, y) == pytest.approx(
        ranked_probability_skill_score(y, est.predict_proba(X)[:, cols], labels=order)
    )
    # integer grades: the sorted classes are the order; the registered names
    scores = cross_val_score(
        LogisticRegression(), X, grade, scoring="neg_ranked_probability_score", cv=3
    )
    assert np.all(scores < 0)
    by_name = get_scorer("ranked_probability_skill_score")
    assert by_name(est.fit(X, grade), X, grade) > 0


def test_undefined_skill_names_the_ranked_probability_skill_score():
    # the warning named brier_skill_score and "a Brier score of 0"
    from sklearn.exceptions import UndefinedMetricWarning

    p = [[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]]
    with pytest.warns(
        UndefinedMetricWarning,
        match="ranked_probability_skill_score .*ranked probability score of 0",
    ):
        assert np.isnan(ranked_probability_skill_score([1, 1, 1], p, labels=[0, 1, 2]))
    state = RankedProbabilityState(labels=[0, 1, 2]).update([1, 1, 1], p)
    with pytest.warns(UndefinedMetricWarning, match="ranked_probability_skill_score"):
        assert np.isnan(state.skill())


def test_a_constant_reference_that_does_not_sum_to_one_warns():
    p = [[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]]
    with pytest.warns(UserWarning, match="reference do not sum to one"):
        ranked_probability_skill_score([0, 1, 2], p, reference=[0.5, 0.5, 0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranked_probability_skill_score([0, 1, 2], p, reference=[0.2, 0.3, 0.5])


@pytest.mark.parametrize("skill", [False, True])
def test_ranked_scorer_estimator_fitted_without_a_class(skill):
    # a classifier fitted on a fold without "mid" has 2 predict_proba columns:
    # the scorer's reordering by labels raised a bare IndexError
    from sklearn.linear_model import LogisticRegression

    from skbrier.scorers import make_ranked_probability_score_scorer

    rng = np.random.default_rng(31)
    X = rng.normal(size=(45, 2))
    y = np.array(["low", "mid", "high"])[np.clip(np.round(X[:, 0] + 1).astype(int), 0, 2)]
    seen = y != "mid"
    clf = LogisticRegression().fit(X[seen], y[seen])
    scorer = make_ranked_probability_score_scorer(
        labels=["low", "mid", "high"], skill=skill
    )
    # scored as cross_val_predict pads predict_proba: probability 0 for "mid",
    # with a warning naming it (tests/test_sweep_outcomes.py checks the number)
    with pytest.warns(UserWarning, match=r"label 'mid'.*not fitted on.*probability 0"):
        assert np.isfinite(scorer(clf, X, y))
    # labels lacking a class of the fold: refused, naming it
    lacking = make_ranked_probability_score_scorer(labels=["low", "high"], skill=skill)
    with pytest.raises(
        ValueError, match=r"label 'mid'.*neither the scorer's labels.*every class"
    ):
        lacking(clf, X, y)


@pytest.mark.parametrize(
    ("columns", "labels"),
    [(["high", "mid", "low"], ["low", "mid", "high"]), ([2, 1, 0], None)],
)
def test_ranked_dataframe_columns_named_in_another_order(columns, labels):
    # a DataFrame whose columns name the categories in another order than the
    # order they are read in was scored silently (each column read as another
    # category's probability), as brier_score refuses it
    pd = pytest.importorskip("pandas")
    P = np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])
    names = np.array(["low", "mid", "high"]) if labels else np.arange(3)
    y = names[[2, 0, 2, 1]]
    frame = pd.DataFrame(P, columns=columns)
    for f in (ranked_probability_score, ranked_probability_skill_score):
        with pytest.raises(ValueError, match="columns are named .* another order"):
            f(y, frame, labels=labels)
    with pytest.raises(ValueError, match="columns are named .* another order"):
        ranked_probability_decomposition(y, frame, labels=labels)
    # the columns in the order of the categories are read as given
    ordered = frame[list(frame.columns)[::-1]]
    assert ranked_probability_score(y, ordered, labels=labels) == pytest.approx(
        ranked_probability_score(y, P[:, ::-1], labels=labels)
    )
