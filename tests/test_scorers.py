"""skbrier's scorers in real scikit-learn workflows (no mocks).

Every score is checked against values computed from scikit-learn's own
metrics (``brier_score_loss``, ``confusion_matrix``) on the same folds.
"""

from __future__ import annotations

import pickle
from typing import ClassVar

import joblib
import numpy as np
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.datasets import load_iris, make_classification
from sklearn.inspection import permutation_importance
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV
from sklearn.metrics import brier_score_loss, check_scoring, confusion_matrix
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    RandomizedSearchCV,
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_val_score,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, label_binarize

from skbrier._sklearn_registration import register_sklearn_scorers
from skbrier.scorers import (
    SCORER_NAMES,
    _net_benefit_for_scorer,
    brier_index_score,
    get_scorer,
    get_scorer_names,
    make_brier_index_scorer,
    make_brier_score_scorer,
    make_brier_skill_score_scorer,
    make_net_benefit_scorer,
)

SKLEARN_VERSION = tuple(int(v) for v in sklearn.__version__.split(".")[:2])


@pytest.fixture(autouse=True, scope="module")
def registered():
    # the lead calls this from skbrier/__init__.py; here we call it explicitly
    names = register_sklearn_scorers()
    assert set(names) == set(SCORER_NAMES)
    yield names


# --------------------------------------------------------------------------- references
def ref_bs(y, p, pos_label):
    """Brier score on the [0, 1] scale from scikit-learn (numpy for multiclass)."""
    if np.ndim(p) == 1:
        return brier_score_loss(y, p, pos_label=pos_label)
    classes = np.unique(y)
    onehot = label_binarize(y, classes=classes)
    return float(np.mean(np.sum((p - onehot) ** 2, axis=1)) / 2)


def ref_bi(y, p, pos_label=None, sample_weight=None):
    if sample_weight is not None:
        bs = brier_score_loss(y, p, pos_label=pos_label, sample_weight=sample_weight)
    else:
        bs = ref_bs(y, p, pos_label)
    return 100 * (1 - np.sqrt(bs))


def ref_bss(y, p, pos_label=None):
    if np.ndim(p) == 1:
        clim = np.full(len(y), np.mean(np.asarray(y) == pos_label))
        return 1 - brier_score_loss(y, p, pos_label=pos_label) / brier_score_loss(
            y, clim, pos_label=pos_label
        )
    onehot = label_binarize(y, classes=np.unique(y))
    clim = np.tile(onehot.mean(axis=0), (len(y), 1))
    return 1 - ref_bs(y, p, None) / ref_bs(y, clim, None)


def ref_nb(y, p, pt, pos_label):
    """TP/n - FP/n * pt/(1-pt) from scikit-learn's confusion matrix."""
    y01 = (np.asarray(y) == pos_label).astype(int)
    pred = (np.asarray(p) >= pt).astype(int)
    _, fp, _, tp = confusion_matrix(y01, pred, labels=[0, 1]).ravel()
    n = len(y01)
    return tp / n - fp / n * pt / (1 - pt)


def manual_folds(est, X, y, cv):
    for train, test in cv.split(X, y):
        fitted = clone(est).fit(X[train], y[train])
        yield test, fitted.predict_proba(X[test]), fitted.classes_


@pytest.fixture(scope="module")
def binary_data():
    X, y = make_classification(n_samples=300, n_features=6, random_state=0)
    return X, y


class CountingLR(LogisticRegression):
    """LogisticRegression that counts its predict_proba calls (module-level counter)."""

    calls: ClassVar[list[int]] = [0]

    def predict_proba(self, X):
        CountingLR.calls[0] += 1
        return super().predict_proba(X)


# --------------------------------------------------------------------------- names
def test_get_scorer_names_and_get_scorer():
    names = get_scorer_names()
    assert set(SCORER_NAMES) <= set(names)
    assert "neg_log_loss" in names and names == sorted(names)
    a, b = get_scorer("brier_index"), get_scorer("brier_index")
    assert a is not b  # a copy, as sklearn.metrics.get_scorer
    assert get_scorer("neg_log_loss")._score_func.__name__ == "log_loss"
    s = make_brier_index_scorer()
    assert get_scorer(s) is s and get_scorer(None) is None
    with pytest.raises(ValueError, match="scoring='nope'.*get_scorer_names"):
        get_scorer("nope")
    # registered names resolve through sklearn itself
    assert "brier_index" in sklearn.metrics.get_scorer_names()
    assert sklearn.metrics.get_scorer("net_benefit")._kwargs == {"threshold": 0.5}


def test_repr_and_score_func_signature():
    import inspect

    for name in SCORER_NAMES:
        scorer = get_scorer(name)
        assert scorer._response_method == "predict_proba"
        assert scorer._sign == (-1 if name.startswith("neg_") else 1)
        params = list(inspect.signature(scorer._score_func).parameters)
        assert params[:2] == ["y_true", "y_proba"]
    assert make_brier_score_scorer()._sign == -1


# --------------------------------------------------------------------------- values
def test_cross_validate_multimetric_matches_sklearn_reference(binary_data):
    X, y = binary_data
    cv = KFold(5, shuffle=True, random_state=1)
    est = LogisticRegression(C=0.3)
    res = cross_validate(
        est,
        X,
        y,
        cv=cv,
        scoring=["brier_index", "brier_skill_score", "net_benefit", "neg_log_loss"],
    )
    for i, (test, proba, _) in enumerate(manual_folds(est, X, y, cv)):
        p = proba[:, 1]
        yt = y[test]
        assert res["test_brier_index"][i] == pytest.approx(ref_bi(yt, p, 1), rel=1e-12)
        assert res["test_brier_skill_score"][i] == pytest.approx(
            ref_bss(yt, p, 1), rel=1e-12
        )
        assert res["test_net_benefit"][i] == pytest.approx(ref_nb(yt, p, 0.5, 1), abs=1e-12)


def test_bss_equals_d2_brier_score(binary_data):
    d2 = pytest.importorskip("sklearn.metrics").__dict__.get("d2_brier_score")
    if d2 is None:
        pytest.skip("d2_brier_score needs scikit-learn >= 1.7")
    X, y = binary_data
    cv = KFold(4)
    a = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring="brier_skill_score")
    b = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring="d2_brier_score")
    np.testing.assert_allclose(a, b, rtol=1e-10)


@pytest.mark.parametrize("as_dict", [False, True])
def test_multimetric_calls_predict_proba_once_per_fold(binary_data, as_dict):
    X, y = binary_data
    names = ["brier_index", "brier_skill_score", "net_benefit", "neg_log_loss"]
    scoring = {f"m{i}": n for i, n in enumerate(names)} if as_dict else names
    CountingLR.calls[0] = 0
    res = cross_validate(CountingLR(), X, y, cv=3, scoring=scoring)
    assert CountingLR.calls[0] == 3
    assert len([k for k in res if k.startswith("test_")]) == 4
    # mixing scorer objects from the factories keeps the single call
    CountingLR.calls[0] = 0
    cross_validate(
        CountingLR(),
        X,
        y,
        cv=3,
        scoring={
            "bi": make_brier_index_scorer(),
            "nb": make_net_benefit_scorer(0.2),
            "ll": "neg_log_loss",
        },
    )
    assert CountingLR.calls[0] == 3


def test_cross_validate_n_jobs_2_loky(binary_data):
    X, y = binary_data
    scoring = ["brier_index", "brier_skill_score", "net_benefit"]
    seq = cross_validate(LogisticRegression(), X, y, cv=4, scoring=scoring, n_jobs=1)
    with joblib.parallel_backend("loky"):
        par = cross_validate(LogisticRegression(), X, y, cv=4, scoring=scoring, n_jobs=2)
    for name in scoring:
        np.testing.assert_allclose(par[f"test_{name}"], seq[f"test_{name}"], rtol=1e-12)


def test_pickle_roundtrip():
    for name in SCORER_NAMES:
        s = get_scorer(name)
        data = pickle.dumps(s)
        assert b"skbrier.scorers" in data or b"skbrier._ordinal_scorers" in data
        s2 = pickle.loads(data)
        assert s2._score_func is s._score_func and s2._kwargs == s._kwargs


# --------------------------------------------------------------------------- searches
def test_grid_search_pipeline_brier_index(binary_data):
    X, y = binary_data
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    grid = {"logisticregression__C": [0.01, 0.1, 1.0]}
    cv = KFold(3, shuffle=True, random_state=0)
    gs = GridSearchCV(pipe, grid, scoring="brier_index", cv=cv).fit(X, y)
    for k, C in enumerate(grid["logisticregression__C"]):
        est = clone(pipe).set_params(logisticregression__C=C)
        folds = [ref_bi(y[t], p[:, 1], 1) for t, p, _ in manual_folds(est, X, y, cv)]
        assert gs.cv_results_["mean_test_score"][k] == pytest.approx(np.mean(folds))
    best = int(np.argmax(gs.cv_results_["mean_test_score"]))
    assert gs.best_params_["logisticregression__C"] == grid["logisticregression__C"][best]
    # the string and the object give the same search
    gs2 = GridSearchCV(pipe, grid, scoring=get_scorer("brier_index"), cv=cv).fit(X, y)
    np.testing.assert_allclose(
        gs2.cv_results_["mean_test_score"], gs.cv_results_["mean_test_score"]
    )


def test_randomized_search_multimetric_refit(binary_data):
    X, y = binary_data
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    rs = RandomizedSearchCV(
        pipe,
        {"logisticregression__C": np.logspace(-3, 2, 20)},
        n_iter=4,
        scoring=["brier_index", "net_benefit", "neg_log_loss"],
        refit="brier_index",
        cv=3,
        random_state=0,
        n_jobs=2,
    ).fit(X, y)
    means = rs.cv_results_["mean_test_brier_index"]
    assert rs.best_index_ == int(np.argmax(means))
    assert rs.best_score_ == pytest.approx(means.max())
    assert np.all((means > 50) & (means < 100))
    assert np.isfinite(rs.cv_results_["mean_test_net_benefit"]).all()


def test_nested_parallel_cv_with_scorer_objects(binary_data):
    # strings inside workers are resolved where skbrier may not be imported:
    # the documented way is to pass scorer objects
    X, y = binary_data
    inner = GridSearchCV(
        LogisticRegression(), {"C": [0.1, 1.0]}, cv=3, scoring=get_scorer("brier_index")
    )
    scores = cross_val_score(inner, X, y, cv=3, n_jobs=2, scoring=get_scorer("brier_index"))
    assert np.all((scores > 50) & (scores <= 100))


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_logistic_regression_cv(binary_data):
    X, y = binary_data
    kw = {"Cs": [0.01, 0.1, 1.0], "cv": KFold(3), "max_iter": 1000}
    by_name = LogisticRegressionCV(scoring="brier_index", **kw).fit(X, y)
    by_obj = LogisticRegressionCV(scoring=make_brier_index_scorer(), **kw).fit(X, y)
    np.testing.assert_allclose(by_name.scores_[1], by_obj.scores_[1])
    assert by_name.C_ == by_obj.C_
    mean = by_name.scores_[1].mean(axis=0)
    assert np.all((mean > 50) & (mean < 100))
    assert by_name.C_[0] == kw["Cs"][int(np.argmax(mean))]
    # with n_jobs > 1 LogisticRegressionCV resolves a string inside the
    # workers (where skbrier may not be imported): the object always works
    par = LogisticRegressionCV(scoring=get_scorer("brier_index"), n_jobs=2, **kw)
    np.testing.assert_allclose(par.fit(X, y).scores_[1], by_name.scores_[1])


def test_permutation_importance(binary_data):
    X, y = binary_data
    rng = np.random.default_rng(0)
    Xn = np.column_stack([X, rng.normal(size=len(y))])  # last column: pure noise
    est = LogisticRegression().fit(Xn, y)
    r1 = permutation_importance(
        est, Xn, y, scoring="brier_index", n_repeats=3, random_state=0
    )
    r2 = permutation_importance(
        est, Xn, y, scoring=make_brier_index_scorer(), n_repeats=3, random_state=0
    )
    np.testing.assert_allclose(r1.importances, r2.importances)
    assert r1.importances_mean.max() > 1.0  # Brier Index points
    assert abs(r1.importances_mean[-1]) < 0.5 * r1.importances_mean.max()
    multi = permutation_importance(
        est, Xn, y, scoring=["brier_index", "net_benefit"], n_repeats=2, random_state=0
    )
    assert set(multi) == {"brier_index", "net_benefit"}


# ----------------------------------------------------------------------- threshold tuning
def test_tuned_threshold_net_benefit_matches_manual_curve():
    X, y = make_classification(n_samples=400, random_state=3)
    est = LogisticRegression().fit(X[:200], y[:200])
    pt = 0.2
    tuned = TunedThresholdClassifierCV(
        est,
        scoring=make_net_benefit_scorer(pt),
        cv="prefit",
        refit=False,
        store_cv_results=True,
        thresholds=50,
    ).fit(X[200:], y[200:])
    p = est.predict_proba(X[200:])[:, 1]
    thresholds = tuned.cv_results_["thresholds"]
    manual = [ref_nb(y[200:], (p >= t).astype(float), pt, 1) for t in thresholds]
    np.testing.assert_allclose(tuned.cv_results_["scores"], manual, atol=1e-12)
    assert tuned.best_score_ == pytest.approx(max(manual))


def test_tuned_threshold_close_to_pt_for_calibrated_model():
    # decision theory: with calibrated probabilities the best threshold for
    # net benefit at p_t is p_t itself
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 2))
    y = rng.random(4000) < 1 / (1 + np.exp(-(X[:, 0] - 0.5 * X[:, 1])))
    y = np.where(y, "event", "control")  # string labels; "event" = classes_[1]
    for pt in (0.2, 0.4):
        tuned = TunedThresholdClassifierCV(
            LogisticRegression(),
            scoring=make_net_benefit_scorer(pt),
            cv=3,
            thresholds=200,
        ).fit(X, y)
        assert abs(tuned.best_threshold_ - pt) < 0.1


def test_tuned_threshold_pos_label_string():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(1000, 2))
    y = np.where(rng.random(1000) < 1 / (1 + np.exp(-2 * X[:, 0])), "ham", "spam")
    # the event is "ham" = classes_[0]; sklearn thresholds P(ham)
    tuned = TunedThresholdClassifierCV(
        LogisticRegression(),
        scoring=make_net_benefit_scorer(0.3, pos_label="ham"),
        cv=3,
        thresholds=100,
    ).fit(X, y)
    assert abs(tuned.best_threshold_ - 0.3) < 0.12


# --------------------------------------------------------------------------- labels
def test_string_labels_binary(binary_data):
    X, y = binary_data
    ys = np.where(y == 1, "spam", "ham")  # classes_ = [ham, spam]: column 1 = spam
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    res = cross_validate(
        LogisticRegression(),
        X,
        ys,
        cv=cv,
        scoring={"bi": "brier_index", "bss": "brier_skill_score", "nb": "net_benefit"},
    )
    # scikit-learn's multimetric cache keeps one predict_proba column per fold
    # whatever the pos_label: scorers with another pos_label need their own run
    res.update(
        cross_validate(
            LogisticRegression(),
            X,
            ys,
            cv=cv,
            scoring={
                "nb_ham": make_net_benefit_scorer(0.3, pos_label="ham"),
                "bi_ham": make_brier_index_scorer(pos_label="ham"),
            },
        )
    )
    for i, (test, proba, classes) in enumerate(
        manual_folds(LogisticRegression(), X, ys, cv)
    ):
        assert list(classes) == ["ham", "spam"]
        yt = ys[test]
        assert res["test_bi"][i] == pytest.approx(ref_bi(yt, proba[:, 1], "spam"))
        assert res["test_bss"][i] == pytest.approx(ref_bss(yt, proba[:, 1], "spam"))
        assert res["test_nb"][i] == pytest.approx(ref_nb(yt, proba[:, 1], 0.5, "spam"))
        assert res["test_nb_ham"][i] == pytest.approx(ref_nb(yt, proba[:, 0], 0.3, "ham"))
        assert res["test_bi_ham"][i] == pytest.approx(res["test_bi"][i])
    # numeric labels give the same Brier Index
    num = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring="brier_index")
    np.testing.assert_allclose(res["test_bi"], num)


def test_single_label_string_fold_is_a_clear_error():
    with pytest.raises(ValueError, match="single label.*pos_label="):
        brier_index_score(["a", "a"], [0.2, 0.3])
    # with pos_label it is fine
    assert brier_index_score(["a", "a"], [0.2, 0.3], pos_label="b") == pytest.approx(
        100 * (1 - np.sqrt((0.04 + 0.09) / 2))
    )
    # {0, 1} convention for numeric single-label folds (as scikit-learn)
    assert brier_index_score([0, 0], [0.0, 0.0]) == 100.0


def test_multiclass(registered):
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])
    for labels in (y, names[y]):
        cv = StratifiedKFold(3, shuffle=True, random_state=0)
        est = LogisticRegression(max_iter=500)
        res = cross_validate(
            est,
            X,
            labels,
            cv=cv,
            scoring=["brier_index", "brier_skill_score", "neg_log_loss"],
        )
        for i, (test, proba, _) in enumerate(manual_folds(est, X, labels, cv)):
            yt = labels[test]
            assert res["test_brier_index"][i] == pytest.approx(ref_bi(yt, proba))
            assert res["test_brier_skill_score"][i] == pytest.approx(ref_bss(yt, proba))
    # uniform forecast over K=3 classes: 100 (1 - sqrt((1 - 1/3)/2))
    from sklearn.dummy import DummyClassifier

    dummy = DummyClassifier(strategy="uniform").fit(X, y)
    assert get_scorer("brier_index")(dummy, X, y) == pytest.approx(
        100 * (1 - np.sqrt((1 - 1 / 3) / 2))
    )
    # net benefit is binary only: a clear error
    with pytest.raises(ValueError, match="1-D"):
        get_scorer("net_benefit")(LogisticRegression(max_iter=500).fit(X, y), X, y)


def test_multiclass_missing_class_reads_fitted_classes():
    # a named scorer on a test fold that lacks a class names the columns by
    # the fitted estimator.classes_ (scikit-learn's neg_brier_score fails there)
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])
    for labels in (y, names[y]):
        est = LogisticRegression(max_iter=500).fit(X, labels)
        keep = labels != labels[-1]
        Xt, yt = X[keep], labels[keep]
        p = est.predict_proba(Xt)
        onehot = label_binarize(yt, classes=est.classes_)
        want = 100 * (1 - np.sqrt(np.mean(((p - onehot) ** 2).sum(1)) / 2))
        assert get_scorer("brier_index")(est, Xt, yt) == pytest.approx(want, rel=1e-12)
        # the factory's labels win; the same number
        got = make_brier_index_scorer(labels=est.classes_)(est, Xt, yt)
        assert got == pytest.approx(want, rel=1e-12)
    # the ordinal scorers too: the ranked probability score of the three columns
    est = LogisticRegression(max_iter=500).fit(X, y)
    Xt, yt = X[y != 2], y[y != 2]
    cum = np.cumsum(est.predict_proba(Xt), axis=1)
    obs = np.cumsum(label_binarize(yt, classes=[0, 1, 2]), axis=1)
    want = np.mean(((cum - obs) ** 2)[:, :-1].sum(1))
    got = -get_scorer("neg_ranked_probability_score")(est, Xt, yt)
    assert got == pytest.approx(want, rel=1e-12)
    # in cross-validation, a class missing from a fold gives a score, not an error
    yk = np.r_[np.zeros(28), np.ones(28), np.full(4, 2)].astype(int)
    Xk = np.random.default_rng(0).normal(size=(60, 2))
    scores = cross_val_score(
        LogisticRegression(),
        Xk,
        yk,
        cv=KFold(3),
        scoring="brier_index",
        error_score="raise",
    )
    assert np.isfinite(scores).all()


def test_binary_one_class_fold_reads_fitted_classes():
    # a binary test fold of one string class: the column is classes_[1]
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] + rng.normal(size=60) > 0, "yes", "no")
    est = LogisticRegression().fit(X, y)
    for cls in ("no", "yes"):
        Xt = X[y == cls]
        yt = y[y == cls]
        p = est.predict_proba(Xt)[:, 1]
        o = (yt == "yes").astype(float)
        want = 100 * (1 - np.sqrt(np.mean((p - o) ** 2)))
        assert get_scorer("brier_index")(est, Xt, yt) == pytest.approx(want, rel=1e-12)
    # a scorer made with pos_label keeps it
    p0 = est.predict_proba(X[y == "no"])[:, 0]
    want = 100 * (1 - np.sqrt(np.mean((p0 - 1.0) ** 2)))
    got = make_brier_index_scorer(pos_label="no")(est, X[y == "no"], y[y == "no"])
    assert got == pytest.approx(want, rel=1e-12)


def test_fitted_classes_scorer_pickles_and_keeps_the_multimetric_cache():
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=500).fit(X, y)
    scorer = pickle.loads(pickle.dumps(get_scorer("brier_index")))
    assert type(scorer).__name__ == "FittedClassesScorer"
    assert scorer(est, X, y) == get_scorer("brier_index")(est, X, y)
    calls = []

    class Counting(LogisticRegression):
        def predict_proba(self, X):
            calls.append(1)
            return super().predict_proba(X)

    c = Counting(max_iter=500).fit(X, y)
    multi = check_scoring(c, scoring=["brier_index", "brier_skill_score", "neg_log_loss"])
    multi(c, X, y)
    assert len(calls) == 1


# --------------------------------------------------------------------------- routing
@pytest.fixture
def routing():
    sklearn.set_config(enable_metadata_routing=True)
    yield
    sklearn.set_config(enable_metadata_routing=False)


def test_metadata_routing_sample_weight(binary_data, routing):
    X, y = binary_data
    w = np.random.default_rng(0).uniform(0.1, 3, len(y))
    scorer = get_scorer("brier_index").set_score_request(sample_weight=True)
    nb = make_net_benefit_scorer(0.3).set_score_request(sample_weight=True)
    est = LogisticRegression().set_fit_request(sample_weight=False)
    cv = KFold(3)
    res = cross_validate(
        est, X, y, cv=cv, scoring={"bi": scorer, "nb": nb}, params={"sample_weight": w}
    )
    for i, (test, proba, _) in enumerate(manual_folds(LogisticRegression(), X, y, cv)):
        p = proba[:, 1]
        assert res["test_bi"][i] == pytest.approx(ref_bi(y[test], p, 1, w[test]))
        wt = w[test]
        yt = y[test] == 1
        treat = p >= 0.3
        ref = (wt @ (yt & treat) - wt @ (~yt & treat) * 0.3 / 0.7) / wt.sum()
        assert res["test_nb"][i] == pytest.approx(ref)
    # y_proba is not requestable metadata (the second argument's name)
    routing_info = str(get_scorer("brier_index").get_metadata_routing())
    assert "y_proba" not in routing_info


# --------------------------------------------------------------------------- factories
def test_factory_validation():
    with pytest.raises(ValueError, match="threshold"):
        make_net_benefit_scorer(0.0)
    with pytest.raises(ValueError, match="threshold"):
        make_net_benefit_scorer(1.0)
    with pytest.raises(TypeError, match="threshold"):
        make_net_benefit_scorer("0.2")
    with pytest.raises(ValueError, match="prevalence"):
        make_net_benefit_scorer(0.2, prevalence=1.5)
    with pytest.raises(TypeError, match="reference"):
        make_brier_skill_score_scorer([0.1, 0.2])
    with pytest.raises(ValueError, match="reference"):
        make_brier_skill_score_scorer(1.5)
    with pytest.raises(ValueError, match="labels"):
        make_brier_index_scorer(labels="abc")


def test_bss_scorer_float_reference(binary_data):
    X, y = binary_data
    est = LogisticRegression().fit(X, y)
    p = est.predict_proba(X)[:, 1]
    got = make_brier_skill_score_scorer(0.3)(est, X, y)
    ref = 1 - brier_score_loss(y, p) / brier_score_loss(y, np.full(len(y), 0.3))
    assert got == pytest.approx(ref)


def test_neg_brier_scorer_string_labels(binary_data):
    X, y = binary_data
    ys = np.where(y == 1, "yes", "no")
    est = LogisticRegression().fit(X, ys)
    got = make_brier_score_scorer()(est, X, ys)
    assert got == pytest.approx(
        -brier_score_loss(ys, est.predict_proba(X)[:, 1], pos_label="yes")
    )


def test_net_benefit_hard_labels_match_probabilities():
    y = np.array([0, 1, 1, 0, 1, 0])
    p = np.array([0.1, 0.8, 0.4, 0.7, 0.9, 0.2])
    for pt in (0.3, 0.5):
        labels = (p >= pt).astype(int)
        a = _net_benefit_for_scorer(y, p, threshold=pt)
        b = _net_benefit_for_scorer(y, labels, threshold=pt)
        c = _net_benefit_for_scorer(
            np.where(y, 2.0, -1.0), np.where(labels, 2.0, -1.0), threshold=pt
        )
        assert a == pytest.approx(ref_nb(y, p, pt, 1)) and a == b == c


# --------------------------------------------------------------------------- optuna
def test_optuna_search_cv(binary_data):
    optuna = pytest.importorskip("optuna")
    oi = pytest.importorskip("optuna_integration")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    X, y = binary_data
    search = oi.OptunaSearchCV(
        LogisticRegression(),
        {"C": optuna.distributions.FloatDistribution(1e-3, 10, log=True)},
        scoring="brier_index",
        n_trials=3,
        cv=KFold(3),
        random_state=0,
    ).fit(X, y)
    ref = cross_val_score(
        LogisticRegression(**search.best_params_),
        X,
        y,
        cv=KFold(3),
        scoring=make_brier_index_scorer(),
    ).mean()
    assert search.best_score_ == pytest.approx(ref)


def test_plain_optuna_objective(binary_data):
    optuna = pytest.importorskip("optuna")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    X, y = binary_data

    def objective(trial):
        C = trial.suggest_float("C", 1e-3, 10, log=True)
        return cross_val_score(
            LogisticRegression(C=C), X, y, cv=3, scoring="brier_index"
        ).mean()

    study = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.RandomSampler(seed=0)
    )
    study.optimize(objective, n_trials=3)
    ref = cross_val_score(
        LogisticRegression(**study.best_params),
        X,
        y,
        cv=3,
        scoring=get_scorer("brier_index"),
    ).mean()
    assert study.best_value == pytest.approx(ref)


# --------------------------------------------------------------------------- properties


@given(
    st.lists(st.tuples(st.booleans(), st.floats(0, 1)), min_size=2, max_size=40).filter(
        lambda rows: len({b for b, _ in rows}) == 2
    ),
    st.sampled_from([0.1, 0.3, 0.5, 0.8]),
)
@settings(max_examples=60, deadline=None)
def test_property_labels_and_hard_predictions(rows, pt):
    y = np.array([b for b, _ in rows], dtype=int)
    p = np.array([q for _, q in rows])
    ys = np.where(y == 1, "yes", "no")  # "yes" = classes_[1]
    bi = brier_index_score(y, p)
    assert bi == pytest.approx(ref_bi(y, p, 1), abs=1e-9)
    assert brier_index_score(ys, p) == pytest.approx(bi, abs=1e-12)
    nb = _net_benefit_for_scorer(ys, p, threshold=pt)
    assert nb == pytest.approx(ref_nb(y, p, pt, 1), abs=1e-12)
    # TunedThresholdClassifierCV hands over class labels predicted at pt
    hard = np.where(p >= pt, "yes", "no")
    assert _net_benefit_for_scorer(ys, hard, threshold=pt) == pytest.approx(nb, abs=1e-12)
    assert _net_benefit_for_scorer(y, (p >= pt).astype(int), threshold=pt) == pytest.approx(
        nb, abs=1e-12
    )


# --------------------------------------------------------------------------- trust issue 18
@pytest.mark.parametrize(
    ("factory", "kwargs", "exc", "match"),
    [
        (make_brier_index_scorer, {"pos_label": [1, 2]}, TypeError, "pos_label"),
        (make_brier_index_scorer, {"pos_label": float("nan")}, ValueError, "pos_label"),
        (make_brier_index_scorer, {"labels": [1]}, ValueError, "labels"),
        (make_brier_index_scorer, {"labels": [0, 1, 1]}, ValueError, "labels"),
        (make_brier_skill_score_scorer, {"pos_label": {"a"}}, TypeError, "pos_label"),
        (make_brier_skill_score_scorer, {"reference": True}, TypeError, "reference"),
        (
            make_brier_skill_score_scorer,
            {"reference": float("nan")},
            ValueError,
            "reference",
        ),
        (make_brier_score_scorer, {"scale_by_half": "yes"}, ValueError, "scale_by_half"),
        (make_brier_score_scorer, {"scale_by_half": 1}, TypeError, "scale_by_half"),
        (make_brier_score_scorer, {"labels": [[0, 1]]}, ValueError, "labels"),
        (make_net_benefit_scorer, {"threshold": float("inf")}, ValueError, "threshold"),
        (
            make_net_benefit_scorer,
            {"threshold": 0.2, "pos_label": [1]},
            TypeError,
            "pos_label",
        ),
        (
            make_net_benefit_scorer,
            {"threshold": 0.2, "prevalence": float("nan")},
            ValueError,
            "prevalence",
        ),
    ],
)
def test_factory_options_checked_at_construction(factory, kwargs, exc, match):
    with pytest.raises(exc, match=f"^{match}"):
        factory(**kwargs)


def test_numpy_scalar_pos_label_is_unwrapped():
    scorer = make_brier_index_scorer(pos_label=np.int64(1))
    assert "pos_label=1)" in repr(scorer)


def test_object_dtype_probabilities_and_labels_as_sklearn():
    y = np.array([0, 1, 1, 0])
    p = np.array([0.2, 0.7, 0.9, 0.4])
    y_obj, p_obj = y.astype(object), p.astype(object)
    # scikit-learn reads object arrays of floats as floats
    ref = brier_score_loss(y, p_obj)
    assert ref == brier_score_loss(y, p)
    for yy, pp in [(y, p_obj), (y_obj, p), (y_obj, p_obj)]:
        assert brier_index_score(yy, pp) == pytest.approx(100 * (1 - np.sqrt(ref)))
        assert _net_benefit_for_scorer(yy, pp, threshold=0.5) == pytest.approx(
            ref_nb(y, p, 0.5, 1)
        )


def test_one_class_fold_and_unknown_pos_label_are_clear_errors(binary_data):
    X, y = binary_data
    ys = np.where(y == 1, "spam", "ham")
    est = LogisticRegression().fit(X, ys)
    only = ys == "spam"
    # the fitted classes_ say which column scikit-learn passes: a one-class
    # fold is scored (or refused by the metric itself: net benefit without
    # events), never "single label"
    for name in SCORER_NAMES:
        for fold in (only, ~only):
            try:
                get_scorer(name)(est, X[fold], ys[fold])
            except ValueError as exc:
                assert "single label" not in str(exc), name
    got = get_scorer("brier_index")(est, X[only], ys[only])
    ref = brier_score_loss(ys[only], est.predict_proba(X[only])[:, 1], pos_label="spam")
    assert got == pytest.approx(100 * (1 - np.sqrt(ref)), rel=1e-12)
    # the score function called directly still cannot tell the column
    with pytest.raises(ValueError, match="single label"):
        brier_index_score(ys[only], est.predict_proba(X[only])[:, 1])
    # with pos_label the one-class fold is scored (sklearn's brier_score_loss agrees)
    got = make_brier_index_scorer(pos_label="ham")(est, X[only], ys[only])
    p_ham = est.predict_proba(X[only])[:, 0]
    ref = brier_score_loss(ys[only], p_ham, pos_label="ham")
    assert got == pytest.approx(100 * (1 - np.sqrt(ref)))
    with pytest.raises(ValueError, match="pos_label"):
        make_brier_index_scorer(pos_label="eggs")(est, X, ys)


def test_net_benefit_scorer_of_a_multiclass_or_multilabel_classifier():
    """The error said 'pass predict_proba(X)[:, 1]', which a scorer's user
    cannot do: it says net benefit scores binary classifiers and what to do."""
    from sklearn.neighbors import KNeighborsClassifier

    X, y = load_iris(return_X_y=True)
    multi = LogisticRegression(max_iter=500).fit(X, y)
    Y = np.c_[y == 0, y == 2].astype(int)
    multilabel = KNeighborsClassifier().fit(X, Y)
    for est, target, k in ((multi, y, 3), (multilabel, Y, 2)):
        with pytest.raises(ValueError, match="binary") as info:
            get_scorer("net_benefit")(est, X, target)
        msg = str(info.value)
        assert f"{k} columns" in msg and "1-D" in msg and "[:, 1]" not in msg, msg
