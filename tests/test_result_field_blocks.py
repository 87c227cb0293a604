"""Field blocks that several results share are declared once, on their base.

The bootstrap results (:class:`~skbrier._core.bootstrap_results._BootstrapResult`)
inherit ``n_resamples``, ``confidence_level`` and ``bootstrap_replicates``;
the two answer-or-abstain utility results inherit ``thresholds``,
``max_threshold`` and ``n``.  The constructor, ``to_dict`` (keys and their
order), the repr and pickling stay as they were; the inherited fields but
``thresholds`` are keyword-only (the builders pass every field by keyword).
"""

import dataclasses
import pickle

import numpy as np
import pytest

from skbrier._core.bootstrap_results import _BootstrapResult
from skbrier.metrics import (
    abstention_utility,
    compare_abstention_utility,
    risk_coverage_curve,
)
from skbrier.results import (
    AbstentionUtilityComparison,
    AbstentionUtilityResult,
    RiskCoverageResult,
)

_BOOTSTRAP_FIELDS = ("n_resamples", "confidence_level", "bootstrap_replicates")


def _data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p


def _results():
    y, p = _data()
    kw = {"n_resamples": 30, "random_state": 0}
    return [
        abstention_utility(y, p, thresholds=[0.2, 0.5], **kw),
        compare_abstention_utility(y, p, y, np.full(p.shape, 0.5), thresholds=[0.5], **kw),
        risk_coverage_curve(y, p, **kw),
    ]


@pytest.mark.parametrize(
    "cls", [AbstentionUtilityResult, AbstentionUtilityComparison, RiskCoverageResult]
)
def test_the_bootstrap_fields_are_declared_once_on_the_base(cls):
    assert issubclass(cls, _BootstrapResult)
    assert [f.name for f in dataclasses.fields(_BootstrapResult)] == list(_BOOTSTRAP_FIELDS)
    own = cls.__dict__.get("__annotations__", {})
    assert not set(_BOOTSTRAP_FIELDS) & set(own)
    assert {
        f.name: f.default for f in dataclasses.fields(cls) if f.name in _BOOTSTRAP_FIELDS
    } == {
        "n_resamples": 0,
        "confidence_level": 0.95,
        "bootstrap_replicates": None,
    }


@pytest.mark.parametrize("cls", [AbstentionUtilityResult, AbstentionUtilityComparison])
def test_the_utility_fields_are_declared_once(cls):
    own = cls.__dict__.get("__annotations__", {})
    assert not {"thresholds", "max_threshold", "n"} & set(own)


def test_dict_keys_keep_the_constructor_order():
    one, two, rc = _results()
    assert list(one.to_dict()) == [
        "thresholds",
        "utility",
        "answer_rate",
        "accuracy",
        "area",
        "max_threshold",
        "n",
        "n_resamples",
        "confidence_level",
        "area_interval",
        "bands",
    ]
    assert list(two.to_dict()) == [
        "thresholds",
        "utility_a",
        "utility_b",
        "area_a",
        "area_b",
        "max_threshold",
        "n",
        "n_resamples",
        "confidence_level",
        "area_difference_interval",
        "bands",
    ]
    assert list(rc.to_dict()) == [
        "thresholds",
        "n_answered",
        "n_correct",
        "aurc",
        "e_aurc",
        "coverage_grid",
        "n_resamples",
        "confidence_level",
        "aurc_interval",
        "e_aurc_interval",
        "selective_risk_band",
    ]


def test_constructor_repr_and_pickle_are_unchanged():
    one, two, rc = _results()
    again = AbstentionUtilityResult(
        one.thresholds,
        one.utility,
        one.answer_rate,
        one.accuracy,
        one.area,
        max_threshold=one.max_threshold,
        n=one.n,
        n_resamples=one.n_resamples,
        confidence_level=one.confidence_level,
        bootstrap_replicates=one.bootstrap_replicates,
    )
    assert repr(again) == repr(one)
    assert again.confidence_interval() == one.confidence_interval()
    bare = RiskCoverageResult(
        rc.thresholds, rc.n_answered, rc.n_correct, rc.aurc, rc.e_aurc, rc.coverage_grid
    )
    assert (bare.n_resamples, bare.confidence_level, bare.bootstrap_replicates) == (
        0,
        0.95,
        None,
    )
    for res in (one, two, rc):
        back = pickle.loads(pickle.dumps(res))
        assert repr(back) == repr(res)
        assert back.confidence_interval() == res.confidence_interval()
