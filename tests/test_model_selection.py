"""Tests of skbrier.model_selection against scikit-learn (and Optuna, dask)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import joblib
import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris, make_classification
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import brier_score_loss, d2_brier_score
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    KFold,
    PredefinedSplit,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    TimeSeriesSplit,
    cross_val_predict,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skbrier.model_selection import (
    CrossValBrierResult,
    PooledRefit,
    cross_val_brier,
    optuna_objective,
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
# cross_val_brier against cross_val_predict and sklearn metrics
# ---------------------------------------------------------------------------


def test_cross_val_brier_equals_cross_val_predict_binary(binary_data):
    X, y = binary_data
    est = make_pipeline(StandardScaler(), LogisticRegression(C=0.3))
    res = cross_val_brier(est, X, y, cv=5)
    oof = cross_val_predict(est, X, y, cv=5, method="predict_proba")
    assert_array_equal(res.y_proba, oof)
    assert isinstance(res, CrossValBrierResult)
    assert isinstance(res.brier_score, float)
    assert res.brier_score == pytest.approx(brier_score_loss(y, oof[:, 1]), rel=1e-12)
    assert res.brier_index == pytest.approx(bi(brier_score_loss(y, oof[:, 1])), rel=1e-12)
    assert res.brier_skill_score == pytest.approx(d2_brier_score(y, oof), rel=1e-12)
    for f, test in enumerate(res.test_indices):
        bs_f = brier_score_loss(y[test], oof[test, 1])
        assert res.fold_brier_score[f] == pytest.approx(bs_f, rel=1e-12)
        assert res.fold_brier_index[f] == pytest.approx(bi(bs_f), rel=1e-12)
        assert res.fold_brier_skill_score[f] == pytest.approx(
            d2_brier_score(y[test], oof[test]), rel=1e-12
        )
        assert res.fold_weight[f] == len(test)
    # Jensen: the mean of fold indices exceeds the pooled index
    assert res.mean_fold_brier_index > res.brier_index
    assert_array_equal(res.positive_proba, oof[:, 1])
    assert res.estimators is None
    assert_array_equal(res.oof_indices, np.arange(len(y)))


def test_cross_val_brier_multiclass_and_missing_class_in_fold():
    X, y = load_iris(return_X_y=True)
    est = make_pipeline(StandardScaler(), LogisticRegression())
    res = cross_val_brier(est, X, y, cv=5)
    oof = cross_val_predict(est, X, y, cv=5, method="predict_proba")
    assert_array_equal(res.y_proba, oof)
    assert res.brier_score == pytest.approx(brier_score_loss(y, oof), rel=1e-12)
    assert res.brier_index == pytest.approx(bi(brier_score_loss(y, oof) / 2), rel=1e-12)
    assert res.brier_skill_score == pytest.approx(d2_brier_score(y, oof), rel=1e-12)
    assert res.pos_label is None
    with pytest.raises(AttributeError, match="binary"):
        _ = res.positive_proba

    # unshuffled KFold on sorted iris: the training folds miss a class
    with pytest.warns(RuntimeWarning, match="Number of classes"):
        res = cross_val_brier(est, X, y, cv=KFold(3))
    with pytest.warns(RuntimeWarning, match="Number of classes"):
        oof = cross_val_predict(est, X, y, cv=KFold(3), method="predict_proba")
    assert_array_equal(res.y_proba, oof)


def test_cross_val_brier_string_labels_and_pos_label(binary_data):
    X, y = binary_data
    ys = np.where(y == 1, "yes", "no")
    est = LogisticRegression()
    res = cross_val_brier(est, X, ys, cv=4, pos_label="yes")
    oof = cross_val_predict(est, X, ys, cv=4, method="predict_proba")
    assert_allclose(res.y_proba, oof, rtol=1e-10, atol=1e-12)
    assert_array_equal(res.classes, ["no", "yes"])
    assert res.brier_score == pytest.approx(
        brier_score_loss(ys, oof[:, 1], pos_label="yes"), rel=1e-9
    )
    # binary scores do not depend on which class is "positive"
    res_no = cross_val_brier(est, X, ys, cv=4, pos_label="no")
    assert res_no.brier_index == pytest.approx(res.brier_index, rel=1e-12)
    assert_allclose(res_no.positive_proba, 1 - res.positive_proba)
    # default: the larger label
    assert cross_val_brier(est, X, ys, cv=4).pos_label == "yes"


def test_cross_val_brier_time_series_split(binary_data):
    """TimeSeriesSplit never tests the first block: pool the tested rows only."""
    X, y = binary_data
    cv = TimeSeriesSplit(4)
    est = LogisticRegression()
    res = cross_val_brier(est, X, y, cv=cv, cov_type="hac")
    rows, preds = [], []
    for train, test in cv.split(X, y):  # reference: a manual loop
        preds.append(LogisticRegression().fit(X[train], y[train]).predict_proba(X[test]))
        rows.append(test)
    rows = np.concatenate(rows)
    oof = np.concatenate(preds)
    assert_array_equal(res.oof_indices, rows)
    assert_allclose(res.y_proba, oof, rtol=1e-12)
    assert_array_equal(res.y_true, y[rows])
    assert res.brier_score == pytest.approx(brier_score_loss(y[rows], oof[:, 1]), rel=1e-12)
    assert res.brier_skill_score == pytest.approx(d2_brier_score(y[rows], oof), rel=1e-12)
    for f, test in enumerate(res.test_indices):
        assert res.fold_brier_score[f] == pytest.approx(
            brier_score_loss(y[test], oof[np.searchsorted(rows, test), 1]), rel=1e-12
        )
    assert res.inference.cov_type == "hac"
    assert res.inference.n == len(rows)
    w = np.linspace(0.5, 2.0, len(y))
    resw = cross_val_brier(est, X, y, cv=cv, sample_weight=w)
    assert_array_equal(resw.sample_weight, w[rows])
    assert resw.brier_score == pytest.approx(
        brier_score_loss(y[rows], oof[:, 1], sample_weight=w[rows]), rel=1e-12
    )


def test_cross_val_brier_groups(binary_data):
    X, y = binary_data
    groups = np.arange(len(y)) % 7
    est = LogisticRegression()
    res = cross_val_brier(est, X, y, cv=GroupKFold(3), groups=groups)
    oof = cross_val_predict(est, X, y, cv=GroupKFold(3), groups=groups, method="predict_proba")
    assert_array_equal(res.y_proba, oof)
    for test in res.test_indices:  # no group crosses folds
        rest = np.setdiff1d(np.arange(len(y)), test)
        assert not set(groups[test]) & set(groups[rest])


def test_cross_val_brier_groups_with_routing(binary_data, routing):
    X, y = binary_data
    groups = np.arange(len(y)) % 7
    est = LogisticRegression()
    res = cross_val_brier(est, X, y, cv=GroupKFold(3), groups=groups)
    oof = cross_val_predict(
        est, X, y, cv=GroupKFold(3), params={"groups": groups}, method="predict_proba"
    )
    assert_array_equal(res.y_proba, oof)


def test_cross_val_brier_sample_weight(binary_data):
    X, y = binary_data
    w = np.random.default_rng(1).uniform(0.2, 3.0, size=len(y))
    est = LogisticRegression()
    # evaluation weights only
    res = cross_val_brier(est, X, y, cv=5, sample_weight=w)
    oof = cross_val_predict(est, X, y, cv=5, method="predict_proba")
    assert_array_equal(res.y_proba, oof)
    assert res.brier_score == pytest.approx(
        brier_score_loss(y, oof[:, 1], sample_weight=w), rel=1e-12
    )
    assert res.brier_skill_score == pytest.approx(
        d2_brier_score(y, oof, sample_weight=w), rel=1e-12
    )
    for f, test in enumerate(res.test_indices):
        assert res.fold_weight[f] == pytest.approx(w[test].sum())
        assert res.fold_brier_score[f] == pytest.approx(
            brier_score_loss(y[test], oof[test, 1], sample_weight=w[test]), rel=1e-12
        )
    # fit weights through params (routing disabled)
    res_fit = cross_val_brier(est, X, y, cv=5, params={"sample_weight": w})
    oof_fit = cross_val_predict(
        est, X, y, cv=5, params={"sample_weight": w}, method="predict_proba"
    )
    assert_array_equal(res_fit.y_proba, oof_fit)
    assert not np.allclose(oof_fit, oof)


def test_cross_val_brier_sample_weight_routing(binary_data, routing):
    X, y = binary_data
    w = np.random.default_rng(2).uniform(0.2, 3.0, size=len(y))
    est = LogisticRegression().set_fit_request(sample_weight=True)
    res = cross_val_brier(est, X, y, cv=5, params={"sample_weight": w}, sample_weight=w)
    oof = cross_val_predict(est, X, y, cv=5, params={"sample_weight": w}, method="predict_proba")
    assert_array_equal(res.y_proba, oof)
    assert res.brier_score == pytest.approx(
        brier_score_loss(y, oof[:, 1], sample_weight=w), rel=1e-12
    )


def test_cross_val_brier_fits_once_per_fold_and_returns_estimators(binary_data):
    X, y = binary_data
    CountingLR.n_fits = 0
    res = cross_val_brier(CountingLR(), X, y, cv=4, return_estimators=True)
    assert CountingLR.n_fits == 4
    assert len(res.estimators) == 4
    for est, test in zip(res.estimators, res.test_indices):
        assert_array_equal(est.predict_proba(X[test]), res.y_proba[test])
    assert len(res.train_indices) == 4 and res.n_splits == 4


def test_cross_val_brier_n_jobs(binary_data):
    X, y = binary_data
    est = DecisionTreeClassifier(max_depth=3, random_state=0)
    serial = cross_val_brier(est, X, y, cv=4)
    # threads keep the test fast on a loaded machine; the code path is joblib's
    with joblib.parallel_config(backend="threading"):
        parallel = cross_val_brier(est, X, y, cv=4, n_jobs=2)
    assert_array_equal(serial.y_proba, parallel.y_proba)
    assert serial.brier_index == parallel.brier_index


def test_cross_val_brier_summary_and_dict(binary_data):
    X, y = binary_data
    res = cross_val_brier(LogisticRegression(), X, y, cv=3)
    text = res.summary()
    assert "pooled" in text and "fold 2" in text
    d = json.loads(json.dumps(res.to_dict()))
    assert d["brier_index"] == res.brier_index
    assert d["n_splits"] == 3
    assert "CrossValBrierResult(brier_score=" in repr(res)
    with pytest.raises(ValueError, match="metric"):
        res.confidence_interval("auc")
    assert isinstance(res.confidence_interval("brier_skill_score"), tuple)


def test_cross_val_brier_bad_input(binary_data):
    X, y = binary_data
    with pytest.raises(TypeError, match="estimator"):
        cross_val_brier(LinearRegression(), X, y)
    with pytest.raises(ValueError, match="at least two classes"):
        cross_val_brier(LogisticRegression(), X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="sample_weight"):
        cross_val_brier(LogisticRegression(), X, y, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="sample_weight"):
        cross_val_brier(LogisticRegression(), X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="at most one test fold"):
        cross_val_brier(LogisticRegression(), X, y,
                        cv=RepeatedStratifiedKFold(n_splits=2, n_repeats=2, random_state=0))
    with pytest.raises(ValueError, match="at most one test fold"):
        cross_val_brier(LogisticRegression(), X, y,
                        cv=ShuffleSplit(3, test_size=0.6, random_state=0))
    with pytest.raises(ValueError, match="pos_label"):
        cross_val_brier(LogisticRegression(), X, y, pos_label=7)
    with pytest.raises(ValueError, match="cov_type"):
        cross_val_brier(LogisticRegression(), X, y, cov_type="robust")
    with pytest.raises(TypeError, match="inference_kwds"):
        cross_val_brier(LogisticRegression(), X, y, inference_kwds=1)
    with pytest.raises(TypeError, match="decompose"):
        cross_val_brier(LogisticRegression(), X, y, decompose="yes")
    with pytest.raises(TypeError, match="params"):
        cross_val_brier(LogisticRegression(), X, y, params=[1])
    with pytest.raises(ValueError, match="y contains NaN"):
        cross_val_brier(LogisticRegression(), X, np.where(y == 1, np.nan, 0.0))
    Xi, yi = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="pos_label"):
        cross_val_brier(LogisticRegression(), Xi, yi, pos_label=1)


def test_cross_val_brier_decomposition_and_intervals(binary_data):
    from scipy.stats import norm

    X, y = binary_data
    res = cross_val_brier(LogisticRegression(), X, y, cv=5)
    p = res.positive_proba
    # Murphy (exact SCJ terms) and CORP identities add up to the pooled score
    m = res.decomposition["murphy"]
    assert m.reliability - m.resolution + m.uncertainty + m.within_bin_variance - (
        m.within_bin_covariance
    ) == pytest.approx(res.brier_score, rel=1e-10)
    c = res.decomposition["corp"]
    assert c.miscalibration - c.discrimination + c.uncertainty == pytest.approx(
        res.brier_score, rel=1e-10
    )
    assert c.uncertainty == pytest.approx(y.mean() * (1 - y.mean()), rel=1e-12)
    # CORP against model-diagnostics (isotonic regression in scikit-learn)
    md = pytest.importorskip("model_diagnostics.scoring")
    ref = md.decompose(y_obs=y, y_pred=p, scoring_function=md.SquaredError())
    assert c.miscalibration == pytest.approx(float(ref["miscalibration"][0]), rel=1e-8)
    assert c.discrimination == pytest.approx(float(ref["discrimination"][0]), rel=1e-8)
    # iid interval of the Brier score: BS -/+ z sd((p - y)^2) / sqrt(n)
    se = np.std((p - y) ** 2, ddof=1) / np.sqrt(len(y))
    lo, hi = res.confidence_interval("brier_score", 0.95)
    z = norm.ppf(0.975)
    assert lo == pytest.approx(res.brier_score - z * se, rel=1e-10)
    assert hi == pytest.approx(res.brier_score + z * se, rel=1e-10)
    lo, hi = res.confidence_interval("brier_index", 0.9)
    assert lo < res.brier_index < hi
    assert res.inference.brier_index == pytest.approx(res.brier_index, rel=1e-12)
    d = res.to_dict()
    assert d["confidence_intervals_95"]["brier_index"][0] < res.brier_index
    assert d["decomposition"]["corp"]["miscalibration"] == c.miscalibration
    assert "95% intervals (iid)" in res.summary()
    hac = cross_val_brier(LogisticRegression(), X, y, cv=5, cov_type="hac")
    assert hac.inference.cov_type == "hac"
    assert hac.brier_index == res.brier_index
    none = cross_val_brier(LogisticRegression(), X, y, cv=5, decompose=False)
    assert none.decomposition is None
    boot = cross_val_brier(LogisticRegression(), X, y, cv=5, decompose=False,
                           cov_type="bootstrap",
                           inference_kwds={"n_resamples": 199, "random_state": 0})
    assert boot.inference.cov_type == "bootstrap"
    lo, hi = boot.confidence_interval("brier_score")
    assert lo < boot.brier_score < hi
    # options given by the user are not silenced
    with pytest.raises(ValueError, match="bootstrap"):
        cross_val_brier(LogisticRegression(), X, y, cv=5, decompose=False,
                        cov_type="bootstrap", inference_kwds={"bootstrap": "nope"})


def test_cross_val_brier_multiclass_decomposition():
    X, y = load_iris(return_X_y=True)
    res = cross_val_brier(make_pipeline(StandardScaler(), LogisticRegression()), X, y, cv=5)
    c = res.decomposition["corp"]
    # multiclass: one-vs-rest terms on the [0, 1] scale of the Brier Index
    assert c.brier_score == pytest.approx(res.brier_score, rel=1e-10)
    assert res.inference.brier_index == pytest.approx(res.brier_index, rel=1e-12)


def test_cross_val_brier_perfect_forecasts_warn_and_no_interval():
    X = np.repeat([[0.0], [1.0]], 20, axis=0)
    y = X[:, 0].astype(int)
    with pytest.warns(UserWarning, match="brier_inference"):
        res = cross_val_brier(ColumnProba(0), X, y, cv=4)
    assert res.brier_score == 0.0 and res.brier_index == 100.0
    with pytest.raises(ValueError, match="No confidence interval"):
        res.confidence_interval()


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
        cvr = cross_validate(est, X, y, cv=cv, scoring=pooled_scoring(),
                             params={"sample_weight": w})
    else:
        cvr = cross_validate(est, X, y, cv=cv, scoring=pooled_scoring())
    res = pooled_cv_scores(cvr)
    oof = cross_val_predict(est, X, y, cv=cv, method="predict_proba")
    bs = brier_score_loss(y, oof[:, 1], sample_weight=w)
    assert res["brier_score"][0] == pytest.approx(bs, rel=1e-12)
    assert res["brier_index"][0] == pytest.approx(bi(bs), rel=1e-12)
    assert res["brier_skill_score"][0] == pytest.approx(
        d2_brier_score(y, oof, sample_weight=w), rel=1e-12
    )
    assert res["mean_fold_brier_index"][0] == pytest.approx(np.mean(cvr["test_brier_index"]))
    assert res["mean_fold_brier_index"][0] > res["brier_index"][0]
    assert res["n_splits"][0] == 4
    # agrees with cross_val_brier
    cvb = cross_val_brier(est, X, y, cv=cv, sample_weight=w)
    assert cvb.brier_index == pytest.approx(res["brier_index"][0], rel=1e-12)


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
    assert_allclose(res["brier_index"], pooled, rtol=1e-12)
    assert search.best_index_ == int(np.argmax(pooled))
    assert res["rank_brier_index"][search.best_index_] == 1
    assert search.best_estimator_.get_params()["max_depth"] == search.best_params_["max_depth"]


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
    mean_search = GridSearchCV(ColumnProba(), grid, cv=cv, scoring=pooled_scoring(),
                               refit="brier_index").fit(X, y)
    pooled_search = GridSearchCV(ColumnProba(), grid, cv=cv, scoring=pooled_scoring(),
                                 refit=pooled_refit()).fit(X, y)
    assert_allclose(mean_search.cv_results_["mean_test_brier_index"],
                    [70.0, bi(0.12)], rtol=1e-12)
    res = pooled_cv_scores(pooled_search.cv_results_)
    assert_allclose(res["brier_index"], [bi(0.13), bi(0.12)], rtol=1e-12)
    assert_allclose(res["brier_score"], [0.13, 0.12], rtol=1e-12)
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
    assert_allclose(res["brier_score"], [0.18, 0.17, 0.21])
    assert res["se_brier_score"][1] == pytest.approx(0.02)
    assert res["se_brier_index"][1] == pytest.approx(50 * 0.02 / np.sqrt(0.17))
    o = 9 / 20
    assert res["brier_skill_score"][1] == pytest.approx(1 - 0.17 / (o * (1 - o)))
    assert res["se_brier_skill_score"][1] == pytest.approx(0.02 / (o * (1 - o)))
    assert list(res["rank_brier_index"]) == [2, 1, 3]
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
    cvr = cross_validate(LogisticRegression(), X, ys, cv=cv,
                         scoring=pooled_scoring(pos_label="spam"))
    oof = cross_val_predict(LogisticRegression(), X, ys, cv=cv, method="predict_proba")
    res = pooled_cv_scores(cvr)
    assert res["brier_score"][0] == pytest.approx(
        brier_score_loss(ys, oof[:, 1], pos_label="spam"), rel=1e-9
    )
    assert res["brier_skill_score"][0] == pytest.approx(d2_brier_score(ys, oof), rel=1e-9)
    # string labels need pos_label, as in sklearn
    with pytest.raises(ValueError, match="pos_label"):
        cross_validate(LogisticRegression(), X, ys, cv=cv, scoring=pooled_scoring(),
                       error_score="raise")


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
    assert res["brier_score"][0] == pytest.approx(brier_score_loss(y, oof) / 2, rel=1e-12)
    assert res["brier_skill_score"][0] == pytest.approx(d2_brier_score(y, oof), rel=1e-12)


def test_grid_search_weighted_pooled_refit(binary_data, routing):
    X, y = binary_data
    w = np.random.default_rng(5).uniform(0.1, 4.0, len(y))
    cv = StratifiedKFold(4, shuffle=True, random_state=2)
    base = LogisticRegression().set_fit_request(sample_weight=True)
    grid = {"C": [0.001, 0.01, 0.1, 1.0]}
    search = GridSearchCV(base, grid, cv=cv, scoring=pooled_scoring(), refit=pooled_refit())
    search.fit(X, y, sample_weight=w)
    pooled = []
    for p in search.cv_results_["params"]:
        oof = cross_val_predict(base.set_params(**p), X, y, cv=cv,
                                params={"sample_weight": w}, method="predict_proba")
        pooled.append(brier_score_loss(y, oof[:, 1], sample_weight=w))
    assert_allclose(pooled_cv_scores(search.cv_results_)["brier_score"], pooled, rtol=1e-12)
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
# Optuna
# ---------------------------------------------------------------------------


def test_optuna_objective(binary_data):
    optuna = pytest.importorskip("optuna")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    X, y = binary_data
    cv = StratifiedKFold(3)
    objective = optuna_objective(
        LogisticRegression(), X, y, cv=cv,
        param_space=lambda t: {"C": t.suggest_float("C", 1e-3, 1e2, log=True)},
    )
    assert objective.direction == "maximize"
    study = optuna.create_study(direction=objective.direction,
                                sampler=optuna.samplers.TPESampler(seed=0))
    study.optimize(objective, n_trials=4)
    best = study.best_trial
    ref = cross_val_brier(LogisticRegression(C=best.params["C"]), X, y, cv=cv)
    assert study.best_value == pytest.approx(ref.brier_index, rel=1e-12)
    assert best.user_attrs["brier_score"] == pytest.approx(ref.brier_score, rel=1e-12)
    assert best.user_attrs["mean_fold_brier_index"] >= study.best_value
    assert max(t.value for t in study.trials) == study.best_value

    # factory form, minimising the Brier score
    factory = optuna_objective(
        lambda t: LogisticRegression(C=t.suggest_float("C", 0.01, 1.0)), X, y, cv=cv,
        metric="brier_score",
    )
    assert factory.direction == "minimize"
    value = factory(optuna.trial.FixedTrial({"C": 0.5}))
    assert value == pytest.approx(
        cross_val_brier(LogisticRegression(C=0.5), X, y, cv=cv).brier_score, rel=1e-12
    )


def test_optuna_objective_bad_input(binary_data):
    X, y = binary_data
    with pytest.raises(ValueError, match="metric"):
        optuna_objective(LogisticRegression(), X, y, param_space=dict, metric="auc")
    with pytest.raises(TypeError, match="param_space"):
        optuna_objective(LogisticRegression(), X, y)
    with pytest.raises(TypeError, match="param_space"):
        optuna_objective(lambda t: LogisticRegression(), X, y, param_space=lambda t: {})
    with pytest.raises(TypeError, match="estimator"):
        optuna_objective(3, X, y)
    obj = optuna_objective(LogisticRegression(), X, y, param_space=lambda t: [1])
    with pytest.raises(TypeError, match="dict"):
        obj(None)
    obj = optuna_objective(lambda t: 3, X, y)
    with pytest.raises(TypeError, match="estimator"):
        obj(None)


# ---------------------------------------------------------------------------
# dask through joblib
# ---------------------------------------------------------------------------


def test_dask_backend(binary_data):
    pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")

    X, y = binary_data
    est = DecisionTreeClassifier(max_depth=3, random_state=0)
    serial = cross_val_brier(est, X, y, cv=4)
    grid = {"max_depth": [1, 3]}
    serial_search = GridSearchCV(est, grid, cv=4, scoring=pooled_scoring(),
                                 refit=pooled_refit()).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        cluster = distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        )
        with (
            cluster,
            distributed.Client(cluster) as client,
            joblib.parallel_config(backend="dask"),
            distributed.get_task_stream(client) as tasks,
        ):
            res = cross_val_brier(est, X, y, cv=4, n_jobs=2)
            search = GridSearchCV(est, grid, cv=4, scoring=pooled_scoring(),
                                  refit=pooled_refit(), n_jobs=2).fit(X, y)
    # the fits (4 folds) and predictions ran as tasks on the cluster
    keys = [t["key"] for t in tasks.data]
    assert any("_fit_and_score" in k for k in keys)
    assert any("_predict_fold" in k for k in keys)
    assert_array_equal(res.y_proba, serial.y_proba)
    assert res.brier_index == serial.brier_index
    assert search.best_index_ == serial_search.best_index_
    assert_allclose(pooled_cv_scores(search.cv_results_)["brier_index"],
                    pooled_cv_scores(serial_search.cv_results_)["brier_index"])


@pytest.mark.slow
def test_grid_search_loky_processes(binary_data):
    """Scorers and the refit callable pickle into worker processes (loky)."""
    X, y = binary_data
    grid = {"C": [0.01, 1.0]}
    kw = {"cv": 3, "scoring": pooled_scoring(),
          "refit": pooled_refit(rule="one_standard_error")}
    serial = GridSearchCV(LogisticRegression(), grid, **kw).fit(X, y)
    with joblib.parallel_config(backend="loky"):
        parallel = GridSearchCV(LogisticRegression(), grid, n_jobs=2, **kw).fit(X, y)
        res = cross_val_brier(LogisticRegression(), X, y, cv=3, n_jobs=2)
    assert parallel.best_index_ == serial.best_index_
    assert_allclose(pooled_cv_scores(parallel.cv_results_)["brier_index"],
                    pooled_cv_scores(serial.cv_results_)["brier_index"], rtol=1e-12)
    assert res.brier_index == pytest.approx(
        cross_val_brier(LogisticRegression(), X, y, cv=3).brier_index, rel=1e-12
    )


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
    assert_allclose(2 * res["brier_score"], d["cvm"], rtol=1e-12)
    assert_allclose(2 * res["se_brier_score"], d["cvsd"], rtol=1e-10)
    assert pooled_refit()(cvr) == d["index_min"] - 1
    one_se = pooled_refit("brier_score", "one_standard_error",
                          complexity=lambda p: -p["lambda"])
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
        assert_allclose(a[key], b[key], rtol=1e-12)
    # the pooled score is the weight-weighted mean of the fold scores
    assert_allclose(a["brier_score"], fold_bs @ weights / weights.sum(), rtol=1e-12)
