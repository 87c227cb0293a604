"""Pooled CV scores: frequency weights, options checked at construction, the result
protocol and ``pooled_best_score`` (references: scikit-learn's metrics on the
pooled out-of-fold predictions, and the same data with rows repeated/removed)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss
from sklearn.model_selection import GridSearchCV, PredefinedSplit, cross_val_predict

from skbrier.model_selection import (
    PooledCVResult,
    PooledRefit,
    pooled_best_score,
    pooled_cv_scores,
    pooled_refit,
    pooled_scoring,
)
from skbrier.model_selection.pooled import brier_sum, class_weight_sum, weight_sum

#: the per-candidate arrays of PooledCVResult (its summary fields but n_splits)
KEYS = tuple(k for k in PooledCVResult._summary_fields if k != "n_splits")
assert "brier_index" in KEYS and "se_brier_index" in KEYS and len(KEYS) == 8


def _results_from_folds(folds):
    """cv_results of one candidate per entry: folds = [[(y, p, w), ...], ...]."""
    out = {}
    for k, fold in enumerate(zip(*folds)):
        out[f"split{k}_test_brier_sum"] = [
            brier_sum(y, p, sample_weight=w) for y, p, w in fold
        ]
        out[f"split{k}_test_weight_sum"] = [
            weight_sum(y, p, sample_weight=w) for y, p, w in fold
        ]
        out[f"split{k}_test_positive_weight_sum"] = [
            class_weight_sum(y, p, sample_weight=w) for y, p, w in fold
        ]
    return out


def _data(seed, n=40, n_folds=4, n_cand=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    P = rng.uniform(size=(n_cand, n))
    w = rng.integers(0, 4, n)
    w[:n_folds] = 1  # every fold keeps a row
    fold = np.arange(n) % n_folds
    return y, P, w, fold


def test_integer_weights_equal_repeated_rows_for_every_pooled_statistic():
    y, P, w, fold = _data(0)
    weighted = _results_from_folds(
        [[(y[fold == f], p[fold == f], w[fold == f]) for f in range(4)] for p in P]
    )
    repeated = _results_from_folds(
        [
            [
                (
                    np.repeat(y[fold == f], w[fold == f]),
                    np.repeat(p[fold == f], w[fold == f]),
                    None,
                )
                for f in range(4)
            ]
            for p in P
        ]
    )
    a, b = pooled_cv_scores(weighted), pooled_cv_scores(repeated)
    for key in KEYS:
        assert_allclose(getattr(a, key), getattr(b, key), rtol=1e-12, err_msg=key)
    # unit weights equal no weights
    unit = _results_from_folds(
        [
            [(y[fold == f], p[fold == f], np.ones((fold == f).sum())) for f in range(4)]
            for p in P
        ]
    )
    none = _results_from_folds(
        [[(y[fold == f], p[fold == f], None) for f in range(4)] for p in P]
    )
    for key in KEYS:
        assert_array_equal(
            getattr(pooled_cv_scores(unit), key), getattr(pooled_cv_scores(none), key)
        )
    # the pooled score is the weighted Brier score of all rows (sklearn)
    for j, p in enumerate(P):
        ref = brier_score_loss(y, p, sample_weight=w)
        assert a.brier_score[j] == pytest.approx(ref, rel=1e-12)


def test_zero_weight_fold_is_a_removed_fold():
    y, P, w, fold = _data(1)
    w = w.astype(float)
    w[fold == 3] = 0.0
    with_zero = _results_from_folds(
        [[(y[fold == f], p[fold == f], w[fold == f]) for f in range(4)] for p in P]
    )
    # a fold whose weights are all zero records zero sums (no error)
    assert with_zero["split3_test_weight_sum"] == [0.0, 0.0, 0.0]
    assert with_zero["split3_test_brier_sum"] == [0.0, 0.0, 0.0]
    removed = _results_from_folds(
        [[(y[fold == f], p[fold == f], w[fold == f]) for f in range(3)] for p in P]
    )
    a, b = pooled_cv_scores(with_zero), pooled_cv_scores(removed)
    for key in KEYS:
        assert_allclose(getattr(a, key), getattr(b, key), rtol=1e-12, err_msg=key)
    assert np.isfinite(a.se_brier_score).all()


def test_zero_weight_fold_in_a_search(routing):
    X, y = make_classification(n_samples=80, random_state=0)
    fold = np.arange(80) % 4
    w = np.where(fold == 0, 0.0, 1.0)
    est = LogisticRegression().set_fit_request(sample_weight=False)
    search = GridSearchCV(
        est,
        {"C": [0.1, 1.0]},
        cv=PredefinedSplit(fold),
        scoring=pooled_scoring(request_sample_weight=True),
        refit=pooled_refit(),
        error_score="raise",
    ).fit(X, y, sample_weight=w)
    res = pooled_cv_scores(search.cv_results_)
    for j, params in enumerate(search.cv_results_["params"]):
        oof = cross_val_predict(
            LogisticRegression(**params),
            X,
            y,
            cv=PredefinedSplit(fold),
            method="predict_proba",
        )[:, 1]
        ref = brier_score_loss(y[fold > 0], oof[fold > 0])
        assert res.brier_score[j] == pytest.approx(ref, rel=1e-12)


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"metric": "auc"}, ValueError, "metric"),
        ({"metric": 3}, TypeError, "metric"),
        ({"rule": "two_se"}, ValueError, "rule"),
        ({"rule": None}, TypeError, "rule"),
        ({"complexity": 3}, TypeError, "complexity"),
        ({"prefix": 1}, TypeError, "prefix"),
    ],
)
def test_pooled_refit_options_checked_at_construction(kwargs, exc, match):
    with pytest.raises(exc, match=f"^{match}"):
        pooled_refit(**kwargs)
    with pytest.raises(exc, match=f"^{match}"):
        PooledRefit(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"pos_label": [1]}, TypeError, "pos_label"),
        ({"labels": [0, 1], "pos_label": 3}, ValueError, "pos_label"),
        ({"labels": [0, 1, 2], "pos_label": 1}, ValueError, "pos_label"),
        ({"labels": [0, 0, 1]}, ValueError, "labels"),
        ({"request_sample_weight": 1}, ValueError, "request_sample_weight"),
    ],
)
def test_pooled_scoring_options_checked_at_construction(kwargs, exc, match):
    with pytest.raises(exc, match=f"^{match}"):
        pooled_scoring(**kwargs)


def test_pooled_best_score():
    X, y = make_classification(n_samples=150, random_state=0)
    cv = PredefinedSplit(np.arange(150) % 3)
    search = GridSearchCV(
        LogisticRegression(),
        {"C": [0.001, 0.1, 10.0]},
        cv=cv,
        scoring=pooled_scoring(prefix="p_"),
        refit=pooled_refit("brier_score", prefix="p_"),
    ).fit(X, y)
    assert not hasattr(search, "best_score_")
    oof = cross_val_predict(
        LogisticRegression(**search.best_params_), X, y, cv=cv, method="predict_proba"
    )[:, 1]
    bs = brier_score_loss(y, oof)
    assert pooled_best_score(search) == pytest.approx(bs, rel=1e-12)
    assert pooled_best_score(search, metric="brier_index") == pytest.approx(
        100 * (1 - np.sqrt(bs)), rel=1e-12
    )
    with pytest.raises(ValueError, match="^metric"):
        pooled_best_score(search, metric="auc")
    with pytest.raises(NotFittedError, match="not fitted"):
        pooled_best_score(GridSearchCV(LogisticRegression(), {"C": [1.0]}))


def test_pooled_cv_scores_result_protocol():
    cvr = {
        "split0_test_brier_sum": [2.0, 1.0],
        "split0_test_weight_sum": [10, 10],
        "split1_test_brier_sum": [1.0, 1.5],
        "split1_test_weight_sum": [10, 10],
    }
    res = pooled_cv_scores(cvr)
    assert isinstance(res, PooledCVResult) and not isinstance(res, dict)
    assert {f.name for f in dataclasses.fields(res)} == set(KEYS) | {"n_splits", "params"}
    assert res.best_index == 1
    d = json.loads(json.dumps(res.to_dict()))
    assert d["brier_score"] == [0.15, 0.125]
    assert "brier_index" in res.summary() and "<table>" in res._repr_html_()
    assert repr(res).startswith("PooledCVResult(n_candidates=2")
    pytest.importorskip("pandas")
    frame = res.to_frame()
    assert frame.shape == (2, 9)
    assert frame["brier_score"].tolist() == [0.15, 0.125]
    with pytest.raises(TypeError):
        res["brier_score"]  # a result, not a mapping


def test_pooled_sums_object_dtype_and_bad_class_index():
    y = np.array([0, 1, 1], dtype=object)
    p = np.array([0.2, 0.6, 1.0], dtype=object)
    assert brier_sum(y, p) == pytest.approx(0.04 + 0.16)
    assert class_weight_sum(y, p) == 2.0
    with pytest.raises(TypeError, match="^class_index"):
        class_weight_sum([0, 1], [0.1, 0.2], class_index=True)
    # a one-label numeric fold of labels other than 0/1: ambiguous, a clear error
    with pytest.raises(ValueError, match="single label"):
        brier_sum([3, 3], [0.2, 0.4])


@pytest.mark.parametrize(
    ("cvr", "match"),
    [
        (
            {"split0_test_brier_sum": ["a"], "split0_test_weight_sum": [1]},
            "must hold numbers",
        ),
        ({"split0_test_brier_sum": [1, 2], "split0_test_weight_sum": [1]}, "same search"),
        (
            {
                "split0_test_brier_sum": [1.0],
                "split0_test_weight_sum": [1],
                "split1_test_brier_sum": [1.0, 2.0],
                "split1_test_weight_sum": [1, 2],
            },
            "one number per candidate",
        ),
        ({"split0_test_brier_sum": [1.0], "split0_test_weight_sum": [-1.0]}, "negative"),
    ],
)
def test_malformed_cv_results_are_clear_errors(cvr, match):
    with pytest.raises(ValueError, match=f"^cv_results.*{match}"):
        pooled_cv_scores(cvr)


def test_complexity_callable_must_return_numbers():
    cvr = {
        "split0_test_brier_sum": [2.0, 1.0],
        "split0_test_weight_sum": [10, 10],
        "split1_test_brier_sum": [1.0, 1.5],
        "split1_test_weight_sum": [10, 10],
        "params": [{"C": 1}, {"C": 2}],
    }
    for bad in (lambda p: "x", lambda p: None):
        with pytest.raises(TypeError, match="^complexity must return a number"):
            pooled_refit(rule="one_standard_error", complexity=bad)(cvr)


def test_object_dtype_sample_weight():
    y, p = [0, 1, 1], [0.2, 0.6, 1.0]
    w = np.array([1, 2, 0.5], dtype=object)
    assert brier_sum(y, p, sample_weight=w) == brier_sum(
        y, p, sample_weight=w.astype(float)
    )


def test_best_score_of_a_search_fitted_without_refit():
    """refit=False: the search is fitted but chose no candidate; it was called
    'not fitted' with the advice to call fit."""
    X, y = make_classification(n_samples=90, random_state=4)
    search = GridSearchCV(
        LogisticRegression(), {"C": [0.1, 1.0]}, scoring=pooled_scoring(), refit=False, cv=3
    ).fit(X, y)
    with pytest.raises(ValueError, match="refit=False") as info:
        pooled_best_score(search)
    assert "not fitted" not in str(info.value) and "pooled_cv_scores" in str(info.value)
