"""Pooled scoring inside scikit-learn searches (moved from test_model_selection.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, d2_brier_score
from sklearn.model_selection import (
    GridSearchCV,
    PredefinedSplit,
    StratifiedKFold,
    cross_val_predict,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skbrier.model_selection import (
    PooledRefit,
    cross_val_brier,
    pooled_cv_scores,
    pooled_refit,
    pooled_scoring,
)
from skbrier.model_selection.pooled import brier_sum, class_weight_sum, weight_sum


def bi(bs):
    return 100.0 * (1.0 - np.sqrt(bs))


@pytest.fixture
def binary_data():
    X, y = make_classification(
        n_samples=240, n_features=6, n_informative=3, random_state=0, flip_y=0.1
    )
    return X, y


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


class ColumnProba(ClassifierMixin, BaseEstimator):
    """Predicts P(positive) = X[:, column]: lets a test fix every prediction."""

    def __init__(self, column=0):
        self.column = column

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        p = np.asarray(X, dtype=float)[:, self.column]
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        return self.classes_[(self.predict_proba(X)[:, 1] >= 0.5).astype(int)]


class CountingLR(LogisticRegression):
    n_fits = 0

    def fit(self, X, y, sample_weight=None):
        type(self).n_fits += 1
        return super().fit(X, y, sample_weight=sample_weight)


# ---------------------------------------------------------------------------
# pooled scoring
# ---------------------------------------------------------------------------


def test_pooled_sums_match_numpy():
    y = np.array([0, 1, 1, 0, 1])
    p = np.array([0.2, 0.7, 0.4, 0.1, 0.9])
    w = np.array([1.0, 2.0, 0.5, 1.5, 3.0])
    assert brier_sum(y, p, sample_weight=w) == pytest.approx(np.sum(w * (p - y) ** 2))
    assert brier_sum(y, np.column_stack([1 - p, p])) == pytest.approx(np.sum((p - y) ** 2))
    assert weight_sum(y, p) == 5.0
    assert weight_sum(y, p, sample_weight=w) == pytest.approx(w.sum())
    assert class_weight_sum(y, p, sample_weight=w) == pytest.approx(w[y == 1].sum())
    assert class_weight_sum(y, p, class_index=0, sample_weight=w) == pytest.approx(
        w[y == 0].sum()
    )
    with pytest.raises(ValueError, match="class_index"):
        class_weight_sum(y, p, class_index=2)
    P = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]])
    yk = np.array([0, 2, 2])
    # [0, 1] scale: half of sklearn's multiclass score, times n
    lab = [0, 1, 2]
    assert brier_sum(yk, P, labels=lab) == pytest.approx(
        3 * brier_score_loss(yk, P, labels=lab) / 2
    )
    assert class_weight_sum(yk, P, class_index=2, labels=lab) == 2.0
    with pytest.raises(ValueError, match="labels="):
        brier_sum(yk, P)
    with pytest.raises(ValueError, match="probabilities"):
        brier_sum(y, p + 1)


@pytest.mark.parametrize("weighted", [False, True])
def test_pooled_scoring_cross_validate_matches_pooled_oof(binary_data, weighted, request):
    X, y = binary_data
    est = LogisticRegression(C=0.5)
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    w = np.random.default_rng(3).uniform(0.5, 2.0, len(y)) if weighted else None
    if weighted:
        request.getfixturevalue("routing")
        est = est.set_fit_request(sample_weight=False)
        cvr = cross_validate(
            est,
            X,
            y,
            cv=cv,
            scoring=pooled_scoring(request_sample_weight=True),
            params={"sample_weight": w},
        )
    else:
        cvr = cross_validate(est, X, y, cv=cv, scoring=pooled_scoring())
    res = pooled_cv_scores(cvr)
    oof = cross_val_predict(est, X, y, cv=cv, method="predict_proba")
    bs = brier_score_loss(y, oof[:, 1], sample_weight=w)
    assert res.brier_score[0] == pytest.approx(bs, rel=1e-12)
    assert res.brier_index[0] == pytest.approx(bi(bs), rel=1e-12)
    assert res.brier_skill_score[0] == pytest.approx(
        d2_brier_score(y, oof, sample_weight=w), rel=1e-12
    )
    assert res.mean_fold_brier_index[0] == pytest.approx(np.mean(cvr["test_brier_index"]))
    assert res.mean_fold_brier_index[0] > res.brier_index[0]
    assert res.n_splits[0] == 4
    # agrees with cross_val_brier
    cvb = cross_val_brier(est, X, y, cv=cv, sample_weight=w)
    assert cvb.brier_index == pytest.approx(res.brier_index[0], rel=1e-12)


def test_pooled_scoring_without_routing_rejects_request():
    with pytest.raises(ValueError, match="metadata routing"):
        pooled_scoring(request_sample_weight=True)
    with pytest.raises(ValueError, match="request_sample_weight"):
        pooled_scoring(request_sample_weight="yes")
    with pytest.raises(TypeError, match="prefix"):
        pooled_scoring(prefix=1)
    with pytest.raises(ValueError, match="labels"):
        pooled_scoring(labels=[1])


def test_grid_search_pooled_refit_picks_pooled_best(binary_data):
    X, y = binary_data
    grid = {"max_depth": [1, 2, 3, 5, None], "min_samples_leaf": [1, 10]}
    cv = StratifiedKFold(5, shuffle=True, random_state=1)
    base = DecisionTreeClassifier(random_state=0)
    search = GridSearchCV(base, grid, cv=cv, scoring=pooled_scoring(), refit=pooled_refit())
    search.fit(X, y)
    # external reference: cross_val_predict + brier_score_loss for every candidate
    pooled = []
    for p in search.cv_results_["params"]:
        oof = cross_val_predict(base.set_params(**p), X, y, cv=cv, method="predict_proba")
        pooled.append(bi(brier_score_loss(y, oof[:, 1])))
    res = pooled_cv_scores(search.cv_results_)
    assert_allclose(res.brier_index, pooled, rtol=1e-12)
    assert search.best_index_ == int(np.argmax(pooled))
    assert res.rank_brier_index[search.best_index_] == 1
    assert (
        search.best_estimator_.get_params()["max_depth"] == search.best_params_["max_depth"]
    )


@pytest.mark.filterwarnings("ignore:cross_val_brier. brier_inference:UserWarning")
def test_mean_of_folds_and_pooled_disagree():
    """Constructed case: averaging fold indices picks A, the pooled index picks B.

    Fold scores: A has Brier 0.01 and 0.25 (indices 90 and 50, mean 70; pooled
    Brier 0.13, index 63.9); B has Brier 0.12 in both folds (index 65.4).
    B has the lower pooled Brier score and is the better forecaster.
    """
    q = 1 - np.sqrt(0.12)
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0])
    col_a = np.array([0.9, 0.1, 0.9, 0.1, 0.5, 0.5, 0.5, 0.5])
    col_b = np.where(y == 1, q, 1 - q)
    X = np.column_stack([col_a, col_b])
    cv = PredefinedSplit([0, 0, 0, 0, 1, 1, 1, 1])
    grid = {"column": [0, 1]}
    mean_search = GridSearchCV(
        ColumnProba(), grid, cv=cv, scoring=pooled_scoring(), refit="brier_index"
    ).fit(X, y)
    pooled_search = GridSearchCV(
        ColumnProba(), grid, cv=cv, scoring=pooled_scoring(), refit=pooled_refit()
    ).fit(X, y)
    assert_allclose(
        mean_search.cv_results_["mean_test_brier_index"], [70.0, bi(0.12)], rtol=1e-12
    )
    res = pooled_cv_scores(pooled_search.cv_results_)
    assert_allclose(res.brier_index, [bi(0.13), bi(0.12)], rtol=1e-12)
    assert_allclose(res.brier_score, [0.13, 0.12], rtol=1e-12)
    assert mean_search.best_params_ == {"column": 0}
    assert pooled_search.best_params_ == {"column": 1}
    for rule in ("best", "one_standard_error"):
        for metric in ("brier_index", "brier_score", "brier_skill_score"):
            # B is best and also the most complex-free choice under the candidate order
            idx = pooled_refit(metric, rule, complexity=lambda p: -p["column"])(
                pooled_search.cv_results_
            )
            assert idx == 1
    # cross_val_brier gives the same numbers
    for col, expected in [(0, 0.13), (1, 0.12)]:
        r = cross_val_brier(ColumnProba(col), X, y, cv=cv)
        assert r.brier_score == pytest.approx(expected, rel=1e-12)
    assert cross_val_brier(ColumnProba(0), X, y, cv=cv).mean_fold_brier_index == (
        pytest.approx(70.0)
    )


def _fake_results(fold_bs, weights, params=None, pos=None):
    fold_bs = np.asarray(fold_bs, dtype=float)
    weights = np.asarray(weights, dtype=float)
    out = {}
    for k in range(fold_bs.shape[1]):
        out[f"split{k}_test_brier_sum"] = fold_bs[:, k] * weights[k]
        out[f"split{k}_test_weight_sum"] = np.full(fold_bs.shape[0], weights[k])
        if pos is not None:
            out[f"split{k}_test_positive_weight_sum"] = np.full(fold_bs.shape[0], pos[k])
    out["params"] = params or [{"i": i} for i in range(fold_bs.shape[0])]
    return out


def test_one_standard_error_rule():
    # candidate 1 is best (pooled BS 0.17, se 0.02); candidate 0 (0.18) lies in
    # the band, candidate 2 (0.21) does not
    cvr = _fake_results(
        [[0.175, 0.185], [0.15, 0.19], [0.20, 0.22]],
        [10, 10],
        params=[{"C": 0.01}, {"C": 1.0}, {"C": 0.001}],
        pos=[5, 4],
    )
    res = pooled_cv_scores(cvr)
    assert_allclose(res.brier_score, [0.18, 0.17, 0.21])
    assert res.se_brier_score[1] == pytest.approx(0.02)
    assert res.se_brier_index[1] == pytest.approx(50 * 0.02 / np.sqrt(0.17))
    o = 9 / 20
    assert res.brier_skill_score[1] == pytest.approx(1 - 0.17 / (o * (1 - o)))
    assert res.se_brier_skill_score[1] == pytest.approx(0.02 / (o * (1 - o)))
    assert list(res.rank_brier_index) == [2, 1, 3]
    assert pooled_refit()(cvr) == 1
    for metric in ("brier_index", "brier_score", "brier_skill_score"):
        # candidate order: 0 is the simplest within one SE
        assert pooled_refit(metric, "one_standard_error")(cvr) == 0
    # by parameter value: C=0.001 (index 2) is simplest but outside the band
    assert pooled_refit(rule="one_standard_error", complexity="C")(cvr) == 0
    # "larger C is simpler": candidate 1 itself
    assert pooled_refit(rule="one_standard_error", complexity=lambda p: -p["C"])(cvr) == 1
    # a single split has no SE: fall back to the best
    one = _fake_results([[0.18], [0.17]], [10])
    assert pooled_refit(rule="one_standard_error")(one) == 1


def test_pooled_refit_errors():
    cvr = _fake_results([[0.2, 0.2], [0.1, 0.3]], [5, 5])
    with pytest.raises(ValueError, match="metric"):
        pooled_refit("auc")(cvr)
    with pytest.raises(ValueError, match="rule"):
        pooled_refit(rule="two_se")(cvr)
    with pytest.raises(ValueError, match="pooled_scoring"):
        pooled_refit()({"split0_test_score": [1.0]})
    with pytest.raises(ValueError, match="skill"):
        pooled_refit("brier_skill_score", "one_standard_error")(cvr)
    with pytest.raises(ValueError, match="complexity"):
        pooled_refit(rule="one_standard_error", complexity="C")(cvr)
    with pytest.raises(TypeError, match="complexity"):
        pooled_refit(rule="one_standard_error", complexity=3)(cvr)
    bad = _fake_results([[np.nan, 0.2], [np.nan, 0.3]], [5, 5])
    with pytest.raises(ValueError, match="non-finite"):
        pooled_refit()(bad)
    with pytest.raises(TypeError, match="cv_results"):
        pooled_cv_scores([1, 2])
    assert isinstance(pooled_refit(), PooledRefit)
    # a failed candidate (nan) is never chosen
    part = _fake_results([[np.nan, 0.2], [0.3, 0.3]], [5, 5])
    assert pooled_refit()(part) == 1


def test_pooled_scoring_string_labels(binary_data):
    X, y = binary_data
    ys = np.where(y == 1, "spam", "ham")
    cv = StratifiedKFold(3)
    cvr = cross_validate(
        LogisticRegression(), X, ys, cv=cv, scoring=pooled_scoring(pos_label="spam")
    )
    oof = cross_val_predict(LogisticRegression(), X, ys, cv=cv, method="predict_proba")
    res = pooled_cv_scores(cvr)
    assert res.brier_score[0] == pytest.approx(
        brier_score_loss(ys, oof[:, 1], pos_label="spam"), rel=1e-9
    )
    assert res.brier_skill_score[0] == pytest.approx(d2_brier_score(ys, oof), rel=1e-9)
    # without pos_label the scorers take classes_[1] of the fitted estimator
    # (the column scikit-learn passes): the same sums
    cvr = cross_validate(
        LogisticRegression(), X, ys, cv=cv, scoring=pooled_scoring(), error_score="raise"
    )
    plain = pooled_cv_scores(cvr)
    assert plain.brier_score[0] == res.brier_score[0]
    assert plain.brier_skill_score[0] == res.brier_skill_score[0]


def test_pooled_scoring_multiclass_with_labels():
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    est = make_pipeline(StandardScaler(), LogisticRegression(C=0.1))
    scoring = pooled_scoring(labels=[0, 1, 2], prefix="m_")
    assert "m_class_weight_sum_2" in scoring
    cvr = cross_validate(est, X, y, cv=cv, scoring=scoring)
    res = pooled_cv_scores(cvr, prefix="m_")
    oof = cross_val_predict(est, X, y, cv=cv, method="predict_proba")
    # without labels the binary base-rate sum refuses multiclass forecasts
    with pytest.raises(ValueError, match="pass labels="):
        cross_validate(est, X, y, cv=cv, scoring=pooled_scoring(), error_score="raise")
    assert res.brier_score[0] == pytest.approx(brier_score_loss(y, oof) / 2, rel=1e-12)
    assert res.brier_skill_score[0] == pytest.approx(d2_brier_score(y, oof), rel=1e-12)


def test_grid_search_weighted_pooled_refit(binary_data, routing):
    X, y = binary_data
    w = np.random.default_rng(5).uniform(0.1, 4.0, len(y))
    cv = StratifiedKFold(4, shuffle=True, random_state=2)
    base = LogisticRegression().set_fit_request(sample_weight=True)
    grid = {"C": [0.001, 0.01, 0.1, 1.0]}
    scoring = pooled_scoring(request_sample_weight=True)
    search = GridSearchCV(base, grid, cv=cv, scoring=scoring, refit=pooled_refit())
    search.fit(X, y, sample_weight=w)
    pooled = []
    for p in search.cv_results_["params"]:
        oof = cross_val_predict(
            base.set_params(**p),
            X,
            y,
            cv=cv,
            params={"sample_weight": w},
            method="predict_proba",
        )
        pooled.append(brier_score_loss(y, oof[:, 1], sample_weight=w))
    assert_allclose(pooled_cv_scores(search.cv_results_).brier_score, pooled, rtol=1e-12)
    assert search.best_index_ == int(np.argmin(pooled))


# ---------------------------------------------------------------------------
# property-based: weights behave like repeated rows
# ---------------------------------------------------------------------------


def test_integer_weights_equal_repeated_rows():
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies

    @hypothesis.settings(max_examples=50, deadline=None)
    @hypothesis.given(
        st.lists(
            st.tuples(st.integers(0, 1), st.floats(0, 1), st.integers(1, 4)),
            min_size=1,
            max_size=30,
        )
    )
    def check(rows):
        _check_weights_vs_rows(rows)

    check()


def _check_weights_vs_rows(rows):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows])
    yr, pr = np.repeat(y, w), np.repeat(p, w)
    assert brier_sum(y, p, sample_weight=w) == pytest.approx(brier_sum(yr, pr), abs=1e-9)
    assert weight_sum(y, p, sample_weight=w) == weight_sum(yr, pr)
    assert class_weight_sum(y, p, sample_weight=w) == class_weight_sum(yr, pr)
    perm = np.random.default_rng(0).permutation(len(y))
    assert brier_sum(y[perm], p[perm]) == pytest.approx(brier_sum(y, p), abs=1e-12)


# ---------------------------------------------------------------------------
# R glmnet: pooled score, its standard error and the one-SE rule
# ---------------------------------------------------------------------------

GLMNET_FIXTURE = Path(__file__).parent / "fixtures" / "glmnet_one_se_fixture.json"


def _glmnet_cases():
    return json.loads(GLMNET_FIXTURE.read_text())


@pytest.mark.parametrize("case", range(3))
def test_pooled_cv_scores_and_one_se_rule_match_cv_glmnet(case):
    """cv.glmnet(family="binomial", type.measure="mse") scores 2 (y - p)^2: its
    cvm is twice the pooled Brier score, cvsd twice our standard error, and its
    lambda.min / lambda.1se are our "best" / one-standard-error choices when the
    largest lambda is the simplest model.  Fixture: make_glmnet_one_se_fixture.R.
    """
    d = _glmnet_cases()[case]
    y = np.asarray(d["y"], dtype=float)
    w = np.asarray(d["weights"], dtype=float)
    fold = np.asarray(d["foldid"])
    P = np.asarray(d["preval"], dtype=float)  # (n, n_lambda) out-of-fold probabilities
    lam = np.asarray(d["lambda"], dtype=float)
    # what pooled_scoring records, fold by fold, for every candidate (lambda)
    cvr = {"params": [{"lambda": v} for v in lam]}
    for k, f in enumerate(np.unique(fold)):
        m = fold == f
        cvr[f"split{k}_test_brier_sum"] = [
            brier_sum(y[m], P[m, j], sample_weight=w[m]) for j in range(lam.size)
        ]
        cvr[f"split{k}_test_weight_sum"] = [
            weight_sum(y[m], P[m, j], sample_weight=w[m]) for j in range(lam.size)
        ]
    res = pooled_cv_scores(cvr)
    assert_allclose(2 * res.brier_score, d["cvm"], rtol=1e-12)
    assert_allclose(2 * res.se_brier_score, d["cvsd"], rtol=1e-10)
    assert pooled_refit()(cvr) == d["index_min"] - 1
    one_se = pooled_refit(
        "brier_score", "one_standard_error", complexity=lambda p: -p["lambda"]
    )
    assert one_se(cvr) == d["index_1se"] - 1
    assert d["index_1se"] != d["index_min"]  # the rule matters in these cases


def test_pooled_cv_scores_invariant_to_fold_order():
    rng = np.random.default_rng(7)
    fold_bs = rng.uniform(0.05, 0.3, size=(4, 5))
    weights = rng.integers(10, 40, size=5).astype(float)
    pos = np.floor(weights * rng.uniform(0.2, 0.8, size=5))
    a = pooled_cv_scores(_fake_results(fold_bs, weights, pos=pos))
    perm = rng.permutation(5)
    b = pooled_cv_scores(_fake_results(fold_bs[:, perm], weights[perm], pos=pos[perm]))
    for key in ("brier_score", "brier_index", "brier_skill_score", "se_brier_score"):
        assert_allclose(getattr(a, key), getattr(b, key), rtol=1e-12)
    # the pooled score is the weight-weighted mean of the fold scores
    assert_allclose(a.brier_score, fold_bs @ weights / weights.sum(), rtol=1e-12)
