"""Every skbrier scorer passes ``sample_weight`` under scikit-learn's metadata routing.

For each scorer, given as an object or obtained by its name, and each of
``cross_validate``, ``GridSearchCV``, ``LogisticRegressionCV`` and
``TunedThresholdClassifierCV``, the score of every fold equals the weighted
metric computed here on that fold.  The Brier scores, the skill scores and
net benefit are written out below; the two calibration errors are the public
metric functions called on the fold (their own references are tested in
``test_calibration_error*.py``).  The defaults match scikit-learn's scorers:
nothing is requested, and a scoring *name* cannot request anything (the
recipe: ``get_scorer(name).set_score_request(sample_weight=True)``).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.exceptions import UnsetMetadataPassedError
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV
from sklearn.metrics import get_scorer as sklearn_get_scorer
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    TunedThresholdClassifierCV,
    cross_validate,
)

import skbrier.scorers as scorers
from skbrier import calibration_error, smooth_calibration_error
from skbrier._sklearn_registration import register_sklearn_scorers
from skbrier.exceptions import HardForecastWarning
from skbrier.scorers import SCORER_NAMES, get_scorer


@pytest.fixture(autouse=True, scope="module")
def _registered():
    register_sklearn_scorers()


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


# ------------------------------------------------------------------ by hand
def _bs(y, p, w):
    return np.sum(w * (p - y) ** 2) / np.sum(w)


def _bss(reference=None):
    def f(y, p, w):
        ref = np.sum(w * y) / np.sum(w) if reference is None else reference
        return 1 - _bs(y, p, w) / _bs(y, np.full(p.shape, ref), w)

    return f


def _nb(pt):
    def f(y, p, w):
        treat = p >= pt
        tp, fp = np.sum(w * y * treat), np.sum(w * (1 - y) * treat)
        return (tp - fp * pt / (1 - pt)) / np.sum(w)

    return f


def _bi(y, p, w):
    return 100 * (1 - np.sqrt(_bs(y, p, w)))


BY_HAND = {
    "brier_index": _bi,
    "brier_skill_score": _bss(),
    "net_benefit": _nb(0.5),
    "neg_calibration_error": lambda y, p, w: -calibration_error(y, p, sample_weight=w),
    "neg_smooth_calibration_error": lambda y, p, w: (
        -smooth_calibration_error(y, p, sample_weight=w)
    ),
    # two ordered classes: the ranked probability score is the Brier score
    "neg_ranked_probability_score": lambda y, p, w: -_bs(y, p, w),
    "ranked_probability_skill_score": _bss(),
    # scikit-learn's coming names (where it lacks them): binary, its 10 bins
    **{
        name: (
            lambda y, p, w, opts=opts: (
                -calibration_error(
                    y,
                    p,
                    sample_weight=w,
                    kind="binary",
                    binning="sklearn",
                    n_bins=10,
                    **opts,
                )
            )
        )
        for name, opts in scorers.SKLEARN_CALIBRATION_SCORERS.items()
    },
}

# (how the scorer is obtained, the weighted metric by hand)
SCORERS = {
    **{f"name:{n}": (lambda n=n: get_scorer(n), BY_HAND[n]) for n in SCORER_NAMES},
    "sklearn.metrics.get_scorer('brier_index')": (
        lambda: sklearn_get_scorer("brier_index"),
        _bi,
    ),
    "brier_index_scorer": (lambda: copy.deepcopy(scorers.brier_index_scorer), _bi),
    "brier_skill_score_scorer": (
        lambda: copy.deepcopy(scorers.brier_skill_score_scorer),
        _bss(),
    ),
    "net_benefit_scorer": (lambda: copy.deepcopy(scorers.net_benefit_scorer), _nb(0.5)),
    "make_brier_index_scorer(labels)": (
        lambda: scorers.make_brier_index_scorer(labels=[0, 1]),
        _bi,
    ),
    "make_brier_skill_score_scorer(pos_label=1)": (
        lambda: scorers.make_brier_skill_score_scorer(pos_label=1),
        _bss(),
    ),
    "make_brier_skill_score_scorer(0.3)": (
        lambda: scorers.make_brier_skill_score_scorer(0.3),
        _bss(0.3),
    ),
    "make_brier_score_scorer()": (
        scorers.make_brier_score_scorer,
        lambda y, p, w: -_bs(y, p, w),
    ),
    "make_net_benefit_scorer(0.2)": (
        lambda: scorers.make_net_benefit_scorer(0.2),
        _nb(0.2),
    ),
}


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(
        n_samples=240, n_features=5, n_informative=3, flip_y=0.2, random_state=0
    )
    w = np.random.default_rng(1).uniform(0.1, 4.0, size=240)
    return X, y, w


CV = KFold(2, shuffle=True, random_state=0)


def _requested(make):
    return make().set_score_request(sample_weight=True)


def _fold_proba(model, X, y, train, test, w=None):
    fit_w = None if w is None else w[train]
    return model.fit(X[train], y[train], sample_weight=fit_w).predict_proba(X[test])[:, 1]


#: scorers whose value may not move with the weights: the largest bin gap is
#: often that of a bin of one row
WEIGHT_BLIND = {"name:neg_max_calibration_error"}


def _check(got, want, unweighted, key=None):
    assert got == pytest.approx(want, rel=1e-10, abs=1e-12)
    if key in WEIGHT_BLIND:
        return
    # the weights matter: the unweighted metric is another number
    assert not np.isclose(got, unweighted, rtol=1e-6, atol=0)


# ------------------------------------------------------------------ the tools
@pytest.mark.parametrize("key", list(SCORERS))
def test_cross_validate(key, data, routing):
    X, y, w = data
    make, hand = SCORERS[key]
    est = LogisticRegression().set_fit_request(sample_weight=False)
    res = cross_validate(
        est, X, y, cv=CV, scoring=_requested(make), params={"sample_weight": w}
    )
    for k, (train, test) in enumerate(CV.split(X)):
        p = _fold_proba(LogisticRegression(), X, y, train, test)
        _check(
            res["test_score"][k],
            hand(y[test], p, w[test]),
            hand(y[test], p, np.ones(len(test))),
            key,
        )


@pytest.mark.parametrize("key", list(SCORERS))
def test_grid_search(key, data, routing):
    X, y, w = data
    make, hand = SCORERS[key]
    search = GridSearchCV(
        LogisticRegression().set_fit_request(sample_weight=True),
        {"C": [0.05, 1.0]},
        cv=CV,
        scoring={"s": _requested(make)},
        refit=False,
    ).fit(X, y, sample_weight=w)
    for i, params in enumerate(search.cv_results_["params"]):
        for k, (train, test) in enumerate(CV.split(X)):
            p = _fold_proba(LogisticRegression(**params), X, y, train, test, w)
            got = search.cv_results_[f"split{k}_test_s"][i]
            _check(
                got, hand(y[test], p, w[test]), hand(y[test], p, np.ones(len(test))), key
            )


def _lrcv_rebuild_bug() -> bool:
    """scikit-learn 1.9's LogisticRegressionCV rebuilds a scorer whose metric
    takes ``labels`` and passes ``labels``/``pos_label`` twice when the scorer
    already holds one (scikit-learn issue 34531): a TypeError, for
    scikit-learn's own scorers too."""
    from sklearn.metrics import brier_score_loss, make_scorer

    X, y = make_classification(n_samples=60, random_state=0)
    scorer = make_scorer(brier_score_loss, response_method="predict_proba", labels=[0, 1])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            LogisticRegressionCV(Cs=[1.0], cv=2, scoring=scorer).fit(X, y)
    except TypeError:
        return True
    return False


@pytest.mark.filterwarnings(
    "ignore::FutureWarning"
)  # 1.9's LogisticRegressionCV transition
@pytest.mark.parametrize("key", list(SCORERS))
def test_logistic_regression_cv(key, data, routing):
    X, y, w = data
    make, hand = SCORERS[key]
    # one C: the path of each fold is then LogisticRegression's own fit
    lrcv = LogisticRegressionCV(Cs=[0.5], cv=CV, scoring=_requested(make))
    if {"labels", "pos_label"} & set(make()._kwargs) and _lrcv_rebuild_bug():
        # scikit-learn's bug, not the weights: the same error as its own scorers
        with pytest.raises(TypeError, match="multiple values for keyword argument"):
            lrcv.fit(X, y, sample_weight=w)
        return
    lrcv.fit(X, y, sample_weight=w)
    scores = lrcv.scores_[1] if isinstance(lrcv.scores_, dict) else lrcv.scores_
    scores = np.asarray(scores).reshape(CV.get_n_splits(), -1)[:, 0]
    for k, (train, test) in enumerate(CV.split(X)):
        p = _fold_proba(LogisticRegression(C=0.5), X, y, train, test, w)
        _check(
            scores[k], hand(y[test], p, w[test]), hand(y[test], p, np.ones(len(test))), key
        )


@pytest.mark.parametrize("key", list(SCORERS))
def test_tuned_threshold_classifier_cv(key, data, routing):
    X, y, w = data
    make, hand = SCORERS[key]
    train, test = next(CV.split(X))
    tuned = TunedThresholdClassifierCV(
        LogisticRegression().set_fit_request(sample_weight=False),
        scoring=_requested(make),
        cv=[(train, test)],
        thresholds=7,
        store_cv_results=True,
    )
    with warnings.catch_warnings():
        # the scorer sees the class labels predicted at each threshold
        warnings.simplefilter("ignore", HardForecastWarning)
        tuned.fit(X, y, sample_weight=w)
        p = _fold_proba(LogisticRegression(), X, y, train, test)
        want, plain = [], []
        for th in tuned.cv_results_["thresholds"]:
            labels = (p >= th).astype(float)
            want.append(hand(y[test], labels, w[test]))
            plain.append(hand(y[test], labels, np.ones(len(test))))
    got = tuned.cv_results_["scores"]
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    assert not np.allclose(got, plain, rtol=1e-6, atol=0)  # the weights matter


# ------------------------------------------------------------ scikit-learn's defaults
@pytest.mark.parametrize("name", SCORER_NAMES)
def test_names_request_nothing_like_scikit_learns(name, data, routing):
    X, y, w = data
    est = LogisticRegression().set_fit_request(sample_weight=False)
    for scoring in (name, "neg_brier_score"):  # ours and one of scikit-learn's
        requests = get_scorer(scoring).get_metadata_routing().score.requests
        assert requests["sample_weight"] is None
        # weights passed to a name: scikit-learn's error, for both
        with pytest.raises(UnsetMetadataPassedError, match="set_score_request"):
            cross_validate(est, X, y, cv=CV, scoring=scoring, params={"sample_weight": w})
        # no weights: the name works under routing
        cross_validate(est, X, y, cv=CV, scoring=scoring)
    # the recipe: the same weighted scores by name and by object
    by_name = cross_validate(
        est, X, y, cv=CV, scoring=get_scorer(name).set_score_request(sample_weight=True),
        params={"sample_weight": w},
    )  # fmt: skip
    by_sklearn = cross_validate(
        est, X, y, cv=CV,
        scoring=sklearn_get_scorer(name).set_score_request(sample_weight=True),
        params={"sample_weight": w},
    )  # fmt: skip
    np.testing.assert_array_equal(by_name["test_score"], by_sklearn["test_score"])


def test_a_request_never_reaches_the_names(data, routing):
    X, y, w = data
    shared = scorers.brier_index_scorer
    try:
        shared.set_score_request(sample_weight=True)  # changes the shared object
        for got in (get_scorer("brier_index"), sklearn_get_scorer("brier_index")):
            assert got.get_metadata_routing().score.requests["sample_weight"] is None
        a = get_scorer("brier_index").set_score_request(sample_weight=True)
        assert (
            get_scorer("brier_index").get_metadata_routing().score.requests["sample_weight"]
            is None
        )
        assert a is not get_scorer("brier_index")
    finally:
        shared.set_score_request(sample_weight=None)
    assert shared.get_metadata_routing().score.requests["sample_weight"] is None


def test_multimetric_dict_mixes_names_and_requested_objects(data, routing):
    X, y, w = data
    est = LogisticRegression().set_fit_request(sample_weight=False)
    scoring = {
        "bi": get_scorer("brier_index").set_score_request(sample_weight=True),
        "bs": sklearn_get_scorer("neg_brier_score").set_score_request(sample_weight=True),
    }
    res = cross_validate(est, X, y, cv=CV, scoring=scoring, params={"sample_weight": w})
    for k, (train, test) in enumerate(CV.split(X)):
        p = _fold_proba(LogisticRegression(), X, y, train, test)
        assert res["test_bi"][k] == pytest.approx(_bi(y[test], p, w[test]), rel=1e-10)
        assert res["test_bs"][k] == pytest.approx(-_bs(y[test], p, w[test]), rel=1e-10)


def test_pooled_scoring_requests_nothing_unless_asked(data, routing):
    from skbrier.model_selection import pooled_scoring

    X, y, w = data
    for scorer in pooled_scoring().values():  # scikit-learn's default
        assert scorer.get_metadata_routing().score.requests["sample_weight"] is None
    est = LogisticRegression().set_fit_request(sample_weight=False)
    with pytest.raises(UnsetMetadataPassedError):
        cross_validate(
            est, X, y, cv=CV, scoring=pooled_scoring(), params={"sample_weight": w}
        )
    asked = pooled_scoring(request_sample_weight=True)
    res = cross_validate(est, X, y, cv=CV, scoring=asked, params={"sample_weight": w})
    for k, (_, test) in enumerate(CV.split(X)):
        assert res["test_weight_sum"][k] == pytest.approx(w[test].sum(), rel=1e-12)
