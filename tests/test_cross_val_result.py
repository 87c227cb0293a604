"""cross_val_brier: frequency weights, option checks and the result protocol
(references: scikit-learn's brier_score_loss / d2_brier_score on the pooled
out-of-fold predictions and on the same data with rows repeated or removed)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, d2_brier_score
from sklearn.model_selection import PredefinedSplit

from skbrier.model_selection import CrossValBrierResult, cross_val_brier


class ColumnProba(ClassifierMixin, BaseEstimator):
    """Predicts P(classes_[1]) = X[:, 0] whatever the training data."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        p = np.asarray(X, dtype=float)[:, 0]
        return np.column_stack([1.0 - p, p])


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    n = 60
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    fold = np.arange(n) % 3
    w = rng.integers(0, 4, n)
    w[:3] = 1  # every fold keeps weight
    return p[:, None], y, fold, w


SCALARS = ("brier_score", "brier_index", "brier_skill_score", "mean_fold_brier_index")
FOLDS = ("fold_weight", "fold_brier_score", "fold_brier_index", "fold_brier_skill_score")


def _run(X, y, fold, w=None):
    return cross_val_brier(
        ColumnProba(), X, y, cv=PredefinedSplit(fold), sample_weight=w, decompose=False
    )


def test_integer_weights_equal_repeated_rows(data):
    X, y, fold, w = data
    a = _run(X, y, fold, w)
    b = _run(np.repeat(X, w, axis=0), np.repeat(y, w), np.repeat(fold, w))
    for key in SCALARS:
        assert getattr(a, key) == pytest.approx(getattr(b, key), rel=1e-12), key
    for key in FOLDS:
        assert_allclose(getattr(a, key), getattr(b, key), rtol=1e-12, err_msg=key)
    ref = brier_score_loss(y, X[:, 0], sample_weight=w)
    assert a.brier_score == pytest.approx(ref, rel=1e-12)
    assert a.brier_skill_score == pytest.approx(
        d2_brier_score(y, np.column_stack([1 - X[:, 0], X[:, 0]]), sample_weight=w),
        rel=1e-12,
    )


def test_unit_weights_equal_no_weights(data):
    X, y, fold, _ = data
    a = _run(X, y, fold, np.ones(len(y)))
    b = _run(X, y, fold)
    for key in SCALARS:
        assert getattr(a, key) == getattr(b, key), key


def test_zero_weight_fold_is_a_removed_fold(data):
    X, y, fold, w = data
    w = np.where(fold == 2, 0, w)
    a = _run(X, y, fold, w)
    keep = fold < 2
    b = _run(X[keep], y[keep], fold[keep], w[keep])
    for key in SCALARS:
        assert getattr(a, key) == pytest.approx(getattr(b, key), rel=1e-12), key
    assert a.fold_weight[2] == 0 and np.isnan(a.fold_brier_score[2])
    assert np.isfinite(a.mean_fold_brier_index)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"n_jobs": True}, TypeError, "n_jobs"),
        ({"n_jobs": 1.5}, TypeError, "n_jobs"),
        ({"return_estimators": "yes"}, TypeError, "return_estimators"),
        ({"decompose": 1}, TypeError, "decompose"),
        ({"verbose": -1}, ValueError, "verbose"),
        ({"cov_type": 3}, TypeError, "cov_type"),
        ({"pos_label": [1]}, TypeError, "pos_label"),
    ],
)
def test_options_checked_before_fitting(data, kwargs, exc, match):
    X, y, fold, _ = data
    with pytest.raises(exc, match=f"^{match}"):
        cross_val_brier(ColumnProba(), X, y, cv=PredefinedSplit(fold), **kwargs)


def test_object_dtype_labels(data):
    X, y, fold, _ = data
    a = _run(X, y.astype(object), fold)
    b = _run(X, y, fold)
    assert a.brier_index == b.brier_index
    assert a.pos_label == 1


def test_result_protocol_and_interval_form():
    X, y = make_classification(n_samples=120, random_state=0)
    res = cross_val_brier(LogisticRegression(), X, y, cv=3)
    assert isinstance(res, CrossValBrierResult) and dataclasses.is_dataclass(res)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.brier_score = 0.0
    new = res.confidence_interval(0.9, metric="brier_score")
    assert new == res.confidence_interval(confidence_level=0.9, metric="brier_score")
    assert res.confidence_interval() == res.confidence_interval(metric="brier_index")
    with pytest.raises(ValueError, match="^metric"):
        res.confidence_interval(metric="auc")
    with pytest.raises(ValueError, match="^confidence_level"):
        res.confidence_interval(1.5)
    with pytest.raises(TypeError, match="positional"):
        res.confidence_interval(0.9, "brier_score")
    assert repr(res).startswith("CrossValBrierResult(brier_score=")
    assert "<table>" in res._repr_html_()
    assert json.loads(json.dumps(res.to_dict()))["n_splits"] == 3
    pytest.importorskip("pandas")
    frame = res.to_frame()
    assert list(frame.index) == ["fold 0", "fold 1", "fold 2", "pooled"]
    assert frame.loc["pooled", "brier_index"] == res.brier_index
    assert_array_equal(frame["brier_score"].to_numpy()[:3], res.fold_brier_score)


def test_optuna_objective_options_checked_at_construction(data):
    from skbrier.model_selection import optuna_objective

    X, y, _, _ = data
    with pytest.raises(ValueError, match="^n_jobs"):
        optuna_objective(ColumnProba(), X, y, param_space=lambda t: {}, n_jobs=0)
    with pytest.raises(TypeError, match="^n_jobs"):
        optuna_objective(ColumnProba(), X, y, param_space=lambda t: {}, n_jobs=True)
    with pytest.raises(TypeError, match="^metric"):
        optuna_objective(ColumnProba(), X, y, param_space=lambda t: {}, metric=None)
    with pytest.raises(TypeError, match="^pos_label"):
        optuna_objective(ColumnProba(), X, y, param_space=lambda t: {}, pos_label=[1])


def test_object_dtype_sample_weight(data):
    X, y, fold, w = data
    a = _run(X, y, fold, w.astype(object))
    assert a.brier_index == _run(X, y, fold, w).brier_index


def test_metric_given_as_the_confidence_level_says_metric():
    """``confidence_interval("brier_skill_score")``: the first argument is the
    level; the error says to pass the statistic as ``metric=``."""
    X, y = make_classification(n_samples=90, random_state=3)
    res = cross_val_brier(LogisticRegression(), X, y, cv=3)
    with pytest.raises(TypeError, match=r"metric='brier_skill_score'"):
        res.confidence_interval("brier_skill_score")
    with pytest.raises(
        TypeError, match=r"^confidence_level must be a number, got 'high'\.$"
    ):
        res.confidence_interval("high")
