"""Held-out reproducers of the outcomes area (issues 14, 24 and 30): ordinal,
multilabel and multiple-choice scores, the scorers and scikit-learn parity.

Each test failed before its fix.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import brier_score_loss, log_loss

from skbrier import (
    brier_score,
    multiple_choice_brier_score,
    ranked_probability_score,
)
from skbrier.states import MultipleChoiceState


def _float32_proba(k=4, n=9, seed=0):
    """float32 probabilities (as a float32 model's predict_proba) whose rows
    sum to one only to float32 rounding (about 4e-8 here)."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(k), n).astype(np.float32)
    y = np.r_[np.arange(k), rng.integers(0, k, n - k)]
    assert 1e-8 < np.abs(p.astype(np.float64).sum(axis=1) - 1).max() < 1e-6
    return y, p


# ------------------------------------------------- float32 probabilities
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_low_precision_rows_do_not_warn_as_sklearn(dtype):
    # the rows of float32 predict_proba sum to one within float32's rounding:
    # scikit-learn (tolerance sqrt(eps) of the dtype) stays quiet, skbrier warned
    y, p = _float32_proba()
    p = p.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = brier_score_loss(y, p)
        log_loss(y, p)
        assert brier_score(y, p) == pytest.approx(expected, rel=1e-3)
        ranked_probability_score(y, p)
        multiple_choice_brier_score(y, p)
        MultipleChoiceState().update(y, p).finalize()


def test_low_precision_rows_still_warn_when_they_do_not_sum_to_one():
    y, p = _float32_proba()
    p[0, 0] += np.float32(0.01)
    with pytest.warns(UserWarning, match="do not sum to one"):
        brier_score(y, p)
    with pytest.warns(UserWarning, match="do not sum to one"):
        multiple_choice_brier_score(y, p)


def test_float64_rows_keep_the_float64_tolerance():
    y, p = _float32_proba()
    with pytest.warns(UserWarning, match="do not sum to one"):
        brier_score(y, p.astype(np.float64))


# ------------------------------------------------- multiple-choice messages
def test_multiple_choice_percentages_say_divide_by_100():
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(4), 6) * 100
    with pytest.raises(ValueError, match="divide by 100") as e:
        multiple_choice_brier_score([0, 1, 2, 3, 0, 1], p)
    assert "np.float64" not in str(e.value)


def test_multiple_choice_log_probabilities_without_the_flag():
    with pytest.raises(ValueError, match="from_logprobs=True") as e:
        multiple_choice_brier_score([0, 1], [[-0.1, -2.5], [-1.0, -2.0]])
    msg = str(e.value)
    assert "np.float64" not in msg and "example 0, choice 0 has -0.1" in msg


def test_multiple_choice_ragged_position_in_message():
    with pytest.raises(ValueError, match="example 1, choice 2 has 1.5"):
        multiple_choice_brier_score([0, 1], [[0.5, 0.5], [0.2, 0.3, 1.5]])


def test_multiple_choice_weight_length_names_y_score():
    p = np.full((3, 2), 0.5)
    with pytest.raises(ValueError, match="but y_score has 3"):
        multiple_choice_brier_score([0, 1, 0], p, sample_weight=[1.0, 2.0])


def test_multiple_choice_dataframe_float32():
    y, p = _float32_proba()
    df = pd.DataFrame(p, index=np.arange(100, 109))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = multiple_choice_brier_score(pd.Series(y, index=df.index), df)
    assert got == pytest.approx(brier_score_loss(y, p), rel=1e-6)


def test_low_precision_rows_under_array_api_dispatch(monkeypatch):
    # the same tolerance on the device path (a float32 torch tensor)
    torch = pytest.importorskip("torch")
    import sklearn

    monkeypatch.setenv("SCIPY_ARRAY_API", "1")  # scikit-learn insists on it

    y, p = _float32_proba()
    yt, pt = torch.as_tensor(y), torch.as_tensor(p)
    with sklearn.config_context(array_api_dispatch=True), warnings.catch_warnings():
        warnings.simplefilter("error")
        got = brier_score(yt, pt)
        multiple_choice_brier_score(yt, pt)
    assert got == pytest.approx(brier_score_loss(y, p), rel=1e-6)
    bad = p.copy()
    bad[0, 0] += np.float32(0.01)
    with sklearn.config_context(array_api_dispatch=True):
        with pytest.warns(UserWarning, match="do not sum to one"):
            brier_score(yt, torch.as_tensor(bad))


# ------------------------------------------------- scorers
def _fold_without_a_class():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 3))
    y = np.array(["a", "b", "c"])[
        np.digitize(X[:, 0] + rng.normal(size=60) / 2, [-0.5, 0.5])
    ]
    return LogisticRegression().fit(X[y != "a"], y[y != "a"]), X[:20], y[:20]


@pytest.mark.parametrize(
    "name",
    [
        "brier_index",
        "brier_skill_score",
        "neg_calibration_error",
        "neg_ranked_probability_score",
        "ranked_probability_skill_score",
    ],
)
def test_scorer_on_a_label_the_estimator_never_saw(name):
    # a training fold without class 'a': the estimator is binary (b, c) and the
    # test fold holds 'a'.  Before: pos_label='c' made a binary score of it
    # ('a' counted as 'b', a silent wrong number) or "y_proba is 1-D" errors.
    # Now: predict_proba padded with probability 0 for 'a' (as
    # cross_val_predict does), with a warning naming the label.
    from skbrier.scorers import get_scorer

    clf, X, y = _fold_without_a_class()
    p = clf.predict_proba(X)
    padded = np.c_[np.zeros(len(y)), p]
    with pytest.warns(
        UserWarning, match=r"label 'a' \(9 rows\).*not fitted on.*probability 0"
    ):
        got = get_scorer(name)(clf, X, y)

    from sklearn.base import BaseEstimator, ClassifierMixin

    class Padded(ClassifierMixin, BaseEstimator):  # the same forecasts, 'a' known
        classes_ = np.array(["a", "b", "c"])

        def fit(self, X, y):
            return self

        def predict_proba(self, X_):
            return padded

    assert got == pytest.approx(get_scorer(name)(Padded(), X, y), rel=1e-12)


def test_scorer_without_labels_refuses_a_label_the_estimator_never_saw():
    from skbrier.scorers import get_scorer

    clf, X, y = _fold_without_a_class()
    with pytest.raises(ValueError, match=r"label 'a' \(9 rows\).*StratifiedKFold"):
        get_scorer("net_benefit")(clf, X, y)


def test_binary_fold_scored_with_the_unfitted_class():
    # the README-style case: KFold on sorted labels, the last training fold
    # lacks class 2; its 4 rows were scored as "not class 1" (binary)
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold, cross_val_score

    from skbrier import brier_index

    y = np.r_[np.zeros(28), np.ones(28), np.full(4, 2)].astype(int)
    X = np.random.default_rng(0).normal(size=(60, 2))
    with pytest.warns(UserWarning, match=r"label 2 \(4 rows\)"):
        scores = cross_val_score(
            LogisticRegression(),
            X,
            y,
            cv=KFold(3),
            scoring="brier_index",
            error_score="raise",
        )
    clf = LogisticRegression().fit(X[:40], y[:40])
    p = clf.predict_proba(X[40:])
    want = brier_index(y[40:], np.c_[p, np.zeros(20)], labels=[0, 1, 2])
    assert scores[2] == pytest.approx(want, rel=1e-12)
    assert scores[2] < 100 * (1 - np.sqrt(np.mean((p[:, 1] - (y[40:] == 1)) ** 2)))


def _sorted_three_classes():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 2))
    y = np.array(["a", "b", "c"])[
        np.digitize(X[:, 0] + rng.normal(size=60) / 2, [-0.5, 0.5])
    ]
    order = np.argsort(y, kind="stable")
    return X[order], y[order]  # KFold(3): the last training fold lacks 'c'


def test_pooled_scoring_with_labels_pads_an_unfitted_class():
    # before: every fold of the search failed ("labels names 3 classes but
    # y_proba is 1-D") and the refit raised; now the pooled index is that of
    # the padded out-of-fold forecasts (as cross_val_predict makes them)
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, KFold

    from skbrier import brier_index
    from skbrier.model_selection import pooled_best_score, pooled_refit, pooled_scoring

    X, y = _sorted_three_classes()
    with pytest.warns(UserWarning, match="label 'c'"):
        search = GridSearchCV(
            LogisticRegression(),
            {"C": [0.1, 1.0]},
            scoring=pooled_scoring(labels=["a", "b", "c"]),
            refit=pooled_refit(),
            cv=KFold(3),
            error_score="raise",
        ).fit(X, y)
    oof = np.zeros((60, 3))
    for train, test in KFold(3).split(X):
        m = LogisticRegression(C=search.best_params_["C"]).fit(X[train], y[train])
        oof[np.ix_(test, np.searchsorted(["a", "b", "c"], m.classes_))] = m.predict_proba(
            X[test]
        )
    assert pooled_best_score(search) == pytest.approx(brier_index(y, oof), rel=1e-12)


def test_ordinal_scorer_pads_an_unfitted_class_in_any_order_of_labels():
    # labels in an order of categories: the padded columns follow the sorted
    # classes (as predict_proba's), then the scorer reads them in its order
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.linear_model import LogisticRegression

    from skbrier.scorers import make_ranked_probability_score_scorer

    X, y = _sorted_three_classes()
    clf = LogisticRegression().fit(X[:40], y[:40])
    padded = np.c_[clf.predict_proba(X[40:]), np.zeros(20)]

    class Padded(ClassifierMixin, BaseEstimator):  # the same forecasts, 'c' known
        classes_ = np.array(["a", "b", "c"])

        def fit(self, X, y):
            return self

        def predict_proba(self, X_):
            return padded

    for order in (["c", "b", "a"], ["a", "b", "c"], ["b", "a", "c"]):
        for skill in (False, True):
            scorer = make_ranked_probability_score_scorer(labels=order, skill=skill)
            with pytest.warns(UserWarning, match=r"label 'c' \(19 rows\).*probability 0"):
                got = scorer(clf, X[40:], y[40:])
            assert got == pytest.approx(scorer(Padded(), X[40:], y[40:]), rel=1e-12)
    lacking = make_ranked_probability_score_scorer(labels=["b", "a"])
    with pytest.raises(
        ValueError, match=r"label 'c' \(19 rows\) that neither the scorer's labels"
    ):
        lacking(clf, X[40:], y[40:])


# ------------------------------------------------- multilabel
def test_sparse_multilabel_indicator_reads_as_dense():
    # MultiLabelBinarizer(sparse_output=True) gives a sparse indicator: it was
    # refused with "got dtype object"
    sp = pytest.importorskip("scipy.sparse")
    from skbrier import brier_index, calibration_error

    rng = np.random.default_rng(1)
    Y = rng.integers(0, 2, (30, 3))
    P = rng.random((30, 3))
    for S in (sp.csr_matrix(Y), sp.csr_array(Y)):
        assert brier_score(S, P) == brier_score(Y, P)
        assert brier_index(S, P) == brier_index(Y, P)
        assert calibration_error(S, P, kind="classwise", n_bins=3) == calibration_error(
            Y, P, kind="classwise", n_bins=3
        )


def test_binary_calibration_error_scorer_on_multiclass_says_what_to_use():
    # "kind='binary' needs ... 3 columns" named an option the scorer's user never set
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression

    from skbrier import calibration_error
    from skbrier.scorers import SKLEARN_CALIBRATION_SCORERS, get_scorer

    X, y = load_iris(return_X_y=True)
    clf = LogisticRegression(max_iter=500).fit(X, y)
    with pytest.raises(ValueError, match="kind='top_label'.*'neg_calibration_error'"):
        calibration_error(y, clf.predict_proba(X), kind="binary")
    name = next(iter(SKLEARN_CALIBRATION_SCORERS))
    scorer = get_scorer(name)
    if scorer.__module__.startswith("skbrier") or "skbrier" in repr(scorer):
        with pytest.raises(ValueError, match="neg_calibration_error"):
            scorer(clf, X, y)


def test_multiple_choice_gold_index_column():
    # df[["gold"]] (a column vector of gold indices) was read as one target
    # score per example: "y_true[0] has 1 target scores but y_score[0] has 4"
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(4), 6)
    g = np.array([0, 1, 2, 3, 0, 1])
    want = multiple_choice_brier_score(g, p)
    assert multiple_choice_brier_score(g.reshape(-1, 1), p) == want
    assert multiple_choice_brier_score(pd.DataFrame({"gold": g}), p) == want
    state = MultipleChoiceState().update(g[:3].reshape(-1, 1), p[:3]).update(g[3:], p[3:])
    assert state.finalize() == pytest.approx(want, rel=1e-15)


# ------------------------------------------------- ordinal
def test_unordered_categorical_with_an_order_of_categories_warns():
    # pd.Categorical(..., categories=[...]) without ordered=True: the
    # categories were silently read alphabetically (mild, moderate, none,
    # severe), another order than the columns of y_proba
    from skbrier import ranked_probability_skill_score

    rng = np.random.default_rng(9)
    p = rng.dirichlet(np.ones(4), 12)
    codes = np.r_[0, 1, 2, 3, rng.integers(0, 4, 8)]
    cats = ["none", "mild", "moderate", "severe"]
    y = pd.Categorical(np.array(cats)[codes], categories=cats)
    with pytest.warns(UserWarning, match=r"unordered pandas categorical.*ordered=True"):
        ranked_probability_score(y, p)
    with pytest.warns(UserWarning, match=r"unordered pandas categorical"):
        ranked_probability_skill_score(y, p)
    ordered = pd.Categorical(np.array(cats)[codes], categories=cats, ordered=True)
    onehot = np.eye(4)[codes]
    want = np.mean(np.sum((np.cumsum(p, 1) - np.cumsum(onehot, 1)) ** 2, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ranked_probability_score(ordered, p) == pytest.approx(want, rel=1e-14)
        assert ranked_probability_score(y, p, labels=cats) == pytest.approx(want, rel=1e-14)
        # sorted categories (pandas' default) say nothing
        ranked_probability_score(pd.Categorical(np.array(cats)[codes]), p)


def test_nullable_pandas_frames():
    # a multilabel indicator of pandas' nullable "boolean" dtype, and
    # multiple-choice scores of "Float64", were refused as "dtype object"
    rng = np.random.default_rng(1)
    Y = rng.integers(0, 2, (8, 3))
    P = rng.random((8, 3))
    frame = pd.DataFrame(Y.astype(bool)).astype("boolean")
    assert brier_score(frame, P) == brier_score(Y, P)
    with pytest.raises(
        ValueError, match=r"missing values.*3 of 24 labels.*row 0, column 0"
    ):
        brier_score(frame.mask(np.eye(8, 3, dtype=bool)), P)
    p = rng.dirichlet(np.ones(3), 8)
    g = np.r_[0, 1, 2, rng.integers(0, 3, 5)]
    want = multiple_choice_brier_score(g, p)
    assert multiple_choice_brier_score(g, pd.DataFrame(p).astype("Float64")) == want
    assert (
        multiple_choice_brier_score(pd.DataFrame(np.eye(3)[g]).astype("Float64"), p) == want
    )
