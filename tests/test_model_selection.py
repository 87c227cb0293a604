"""Tests of skbrier.model_selection against scikit-learn (and Optuna, dask)."""

from __future__ import annotations

import json
import warnings

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
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    TimeSeriesSplit,
    cross_val_predict,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from skbrier.model_selection import (
    CrossValBrierResult,
    cross_val_brier,
    optuna_objective,
    pooled_cv_scores,
    pooled_refit,
    pooled_scoring,
)


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
    oof = cross_val_predict(
        est, X, y, cv=GroupKFold(3), groups=groups, method="predict_proba"
    )
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
    oof = cross_val_predict(
        est, X, y, cv=5, params={"sample_weight": w}, method="predict_proba"
    )
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
        res.confidence_interval(metric="auc")
    assert isinstance(res.confidence_interval(metric="brier_skill_score"), tuple)


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
        cross_val_brier(
            LogisticRegression(),
            X,
            y,
            cv=RepeatedStratifiedKFold(n_splits=2, n_repeats=2, random_state=0),
        )
    with pytest.raises(ValueError, match="at most one test fold"):
        cross_val_brier(
            LogisticRegression(), X, y, cv=ShuffleSplit(3, test_size=0.6, random_state=0)
        )
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
    lo, hi = res.confidence_interval(0.95, metric="brier_score")
    z = norm.ppf(0.975)
    assert lo == pytest.approx(res.brier_score - z * se, rel=1e-10)
    assert hi == pytest.approx(res.brier_score + z * se, rel=1e-10)
    lo, hi = res.confidence_interval(0.9, metric="brier_index")
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
    boot = cross_val_brier(
        LogisticRegression(),
        X,
        y,
        cv=5,
        decompose=False,
        cov_type="bootstrap",
        inference_kwds={"n_resamples": 199, "random_state": 0},
    )
    assert boot.inference.cov_type == "bootstrap"
    lo, hi = boot.confidence_interval(metric="brier_score")
    assert lo < boot.brier_score < hi
    # options given by the user are not silenced
    with pytest.raises(ValueError, match="bootstrap"):
        cross_val_brier(
            LogisticRegression(),
            X,
            y,
            cv=5,
            decompose=False,
            cov_type="bootstrap",
            inference_kwds={"bootstrap": "nope"},
        )


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
# Optuna
# ---------------------------------------------------------------------------


def test_optuna_objective(binary_data):
    optuna = pytest.importorskip("optuna")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    X, y = binary_data
    cv = StratifiedKFold(3)
    objective = optuna_objective(
        LogisticRegression(),
        X,
        y,
        cv=cv,
        param_space=lambda t: {"C": t.suggest_float("C", 1e-3, 1e2, log=True)},
    )
    assert objective.direction == "maximize"
    study = optuna.create_study(
        direction=objective.direction, sampler=optuna.samplers.TPESampler(seed=0)
    )
    study.optimize(objective, n_trials=4)
    best = study.best_trial
    ref = cross_val_brier(LogisticRegression(C=best.params["C"]), X, y, cv=cv)
    assert study.best_value == pytest.approx(ref.brier_index, rel=1e-12)
    assert best.user_attrs["brier_score"] == pytest.approx(ref.brier_score, rel=1e-12)
    assert best.user_attrs["mean_fold_brier_index"] >= study.best_value
    assert max(t.value for t in study.trials) == study.best_value

    # factory form, minimising the Brier score
    factory = optuna_objective(
        lambda t: LogisticRegression(C=t.suggest_float("C", 0.01, 1.0)),
        X,
        y,
        cv=cv,
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
    serial_search = GridSearchCV(
        est, grid, cv=4, scoring=pooled_scoring(), refit=pooled_refit()
    ).fit(X, y)
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
            search = GridSearchCV(
                est, grid, cv=4, scoring=pooled_scoring(), refit=pooled_refit(), n_jobs=2
            ).fit(X, y)
    # the fits (4 folds) and predictions ran as tasks on the cluster
    keys = [t["key"] for t in tasks.data]
    assert any("_fit_and_score" in k for k in keys)
    assert any("_predict_fold" in k for k in keys)
    assert_array_equal(res.y_proba, serial.y_proba)
    assert res.brier_index == serial.brier_index
    assert search.best_index_ == serial_search.best_index_
    assert_allclose(
        pooled_cv_scores(search.cv_results_).brier_index,
        pooled_cv_scores(serial_search.cv_results_).brier_index,
    )


@pytest.mark.slow
def test_grid_search_loky_processes(binary_data):
    """Scorers and the refit callable pickle into worker processes (loky)."""
    X, y = binary_data
    grid = {"C": [0.01, 1.0]}
    kw = {
        "cv": 3,
        "scoring": pooled_scoring(),
        "refit": pooled_refit(rule="one_standard_error"),
    }
    serial = GridSearchCV(LogisticRegression(), grid, **kw).fit(X, y)
    with joblib.parallel_config(backend="loky"):
        parallel = GridSearchCV(LogisticRegression(), grid, n_jobs=2, **kw).fit(X, y)
        res = cross_val_brier(LogisticRegression(), X, y, cv=3, n_jobs=2)
    assert parallel.best_index_ == serial.best_index_
    assert_allclose(
        pooled_cv_scores(parallel.cv_results_).brier_index,
        pooled_cv_scores(serial.cv_results_).brier_index,
        rtol=1e-12,
    )
    assert res.brier_index == pytest.approx(
        cross_val_brier(LogisticRegression(), X, y, cv=3).brier_index, rel=1e-12
    )
