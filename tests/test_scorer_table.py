"""The scorers are declared once, in a table, and built by one factory.

What scikit-learn needs of every score function is locked in here: a
module-level named callable (pickles by reference, readable repr) whose
signature shows ``sample_weight`` (metadata routing, and the multimetric
scorer without routing, pass weights only to such functions).
"""

from __future__ import annotations

import importlib
import inspect
import pickle

import pytest
import sklearn
from sklearn.metrics import get_scorer_names as sklearn_names

from skbrier import scorers
from skbrier._scorer_table import ScorerSpec
from skbrier.model_selection import pooled_scoring


def _module_level(func) -> bool:
    return getattr(importlib.import_module(func.__module__), func.__name__) is func


def _sklearn_defines(name: str) -> bool:
    """Whether scikit-learn itself defines ``name`` (skbrier registers its own)."""
    if name not in sklearn_names():
        return False
    return not sklearn.metrics.get_scorer(name)._score_func.__module__.startswith("skbrier")


def test_every_name_is_built_from_its_declaration():
    names = [spec.name for spec in scorers.SCORER_TABLE]
    assert len(names) == len(set(names))
    assert all(isinstance(spec, ScorerSpec) for spec in scorers.SCORER_TABLE)
    for spec in scorers.SCORER_TABLE:
        registered = spec.name in scorers.SCORER_NAMES
        # a name scikit-learn may define is ours only while scikit-learn lacks it
        assert registered == (not spec.defer_to_sklearn or not _sklearn_defines(spec.name))
        if not registered:
            continue
        s = scorers.get_scorer(spec.name)
        assert s._score_func is spec.score_func
        assert s._sign == (1 if spec.greater_is_better else -1)
        assert s._response_method == spec.response_method
        assert s._kwargs == dict(spec.options)
    assert set(scorers.SCORER_NAMES) == {
        n for n in names if n in scorers.SCORER_NAMES
    }  # nothing registered outside the table


def test_build_merges_options_after_the_declared_ones():
    spec = next(s for s in scorers.SCORER_TABLE if s.name == "net_benefit")
    s = spec.build(threshold=0.2, pos_label=None, prevalence=0.3)
    assert list(s._kwargs.items()) == [("threshold", 0.2), ("prevalence", 0.3)]
    assert repr(s) == (
        "make_scorer(_net_benefit_for_scorer, response_method='predict_proba', "
        "threshold=0.2, prevalence=0.3)"
    )


def _all_scorers():
    yield from (scorers.get_scorer(n) for n in scorers.SCORER_NAMES)
    yield scorers.make_brier_score_scorer(scale_by_half=True)
    yield scorers.make_ranked_probability_score_scorer(normalize=True)
    yield from pooled_scoring().values()
    yield from pooled_scoring(labels=[0, 1, 2]).values()


@pytest.mark.parametrize("scorer", list(_all_scorers()), ids=repr)
def test_score_functions_are_what_sklearn_needs(scorer):
    func = scorer._score_func
    assert _module_level(func)  # pickles by reference into joblib workers
    assert pickle.loads(pickle.dumps(scorer))._score_func is func
    params = inspect.signature(func).parameters
    assert list(params)[:2] == ["y_true", "y_proba"]
    assert "sample_weight" in params
    assert scorer._accept_sample_weight()
    with sklearn.config_context(enable_metadata_routing=True):
        assert scorer.get_metadata_routing().score.requests["sample_weight"] is None
    assert repr(scorer).startswith(f"make_scorer({func.__name__}")


# the reprs before the table (unchanged: the names users see)
REPRS = {
    "make_brier_index_scorer(pos_label=0)": (
        "make_scorer(brier_index_score, response_method='predict_proba', pos_label=0)"
    ),
    "make_brier_skill_score_scorer(0.3, pos_label=1)": (
        "make_scorer(_brier_skill_score_for_scorer, response_method='predict_proba', "
        "reference=0.3, pos_label=1)"
    ),
    "make_brier_score_scorer(scale_by_half=True, pos_label=1, labels=[0, 1])": (
        "make_scorer(_brier_score_for_scorer, greater_is_better=False, "
        "response_method='predict_proba', pos_label=1, labels=[0, 1], scale_by_half=True)"
    ),
    "make_net_benefit_scorer(0.2, pos_label=1, prevalence=0.3)": (
        "make_scorer(_net_benefit_for_scorer, response_method='predict_proba', "
        "threshold=0.2, pos_label=1, prevalence=0.3)"
    ),
    "make_ranked_probability_score_scorer(labels=[2, 0, 1], normalize=True)": (
        "make_scorer(_ranked_probability_score_for_scorer, greater_is_better=False, "
        "response_method='predict_proba', labels=[2, 0, 1], normalize=True)"
    ),
    "make_ranked_probability_score_scorer(labels=[2, 0, 1], skill=True, normalize=True)": (
        "make_scorer(_ranked_probability_skill_score_for_scorer, "
        "response_method='predict_proba', labels=[2, 0, 1])"
    ),
    "get_scorer('neg_smooth_calibration_error')": (
        "make_scorer(_smooth_calibration_error_for_scorer, greater_is_better=False, "
        "response_method='predict_proba')"
    ),
}


@pytest.mark.parametrize("call", list(REPRS))
def test_reprs_unchanged(call):
    assert repr(eval(call, vars(scorers))) == REPRS[call]  # noqa: S307


# the options each score function shows (LogisticRegressionCV passes its classes as
# ``labels``, and ``pos_label``, to a function that names them; routing lists them)
SHOWN = {
    "brier_index": {"labels", "pos_label"},
    "brier_skill_score": {"reference", "labels", "pos_label"},
    "net_benefit": {"threshold", "pos_label", "prevalence"},
    "neg_calibration_error": {"pos_label"},
    "neg_smooth_calibration_error": {"pos_label"},
    "neg_ranked_probability_score": {"labels", "normalize"},
    "ranked_probability_skill_score": {"labels"},
    "neg_brier_score": {"labels", "pos_label", "scale_by_half"},
}


@pytest.mark.parametrize("name", list(SHOWN))
def test_signature_shows_the_metric_options(name):
    spec = next(s for s in scorers.SCORER_TABLE if s.name == name)
    params = inspect.signature(spec.score_func).parameters
    kw = {n for n, p in params.items() if p.kind is p.KEYWORD_ONLY}
    assert kw == SHOWN[name] | {"sample_weight"}
    with sklearn.config_context(enable_metadata_routing=True):
        requests = spec.build().get_metadata_routing().score.requests
    assert set(requests) == kw


POOLED_SHOWN = {
    "brier_sum": {"labels", "pos_label"},
    "weight_sum": {"labels", "pos_label"},
    "positive_weight_sum": {"labels", "pos_label"},
    "class_weight_sum_0": {"class_index", "labels", "pos_label"},
    "brier_index": set(),
    "neg_brier_score": set(),
}


@pytest.mark.parametrize("key", list(POOLED_SHOWN))
def test_pooled_score_functions_show_their_options(key):
    scoring = pooled_scoring() | pooled_scoring(labels=[0, 1, 2])
    params = inspect.signature(scoring[key]._score_func).parameters
    kw = {n for n, p in params.items() if p.kind is p.KEYWORD_ONLY}
    assert kw == POOLED_SHOWN[key] | {"sample_weight"}
