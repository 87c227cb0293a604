"""Optuna: the objective knows its direction (skipped without optuna)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from skbrier.model_selection import create_study, optuna_objective

optuna = pytest.importorskip("optuna")
optuna.logging.set_verbosity(optuna.logging.WARNING)


@pytest.fixture(scope="module")
def objective():
    X, y = make_classification(n_samples=120, random_state=0)
    return optuna_objective(
        LogisticRegression(),
        X,
        y,
        cv=3,
        param_space=lambda t: {"C": t.suggest_float("C", 1e-3, 1e2, log=True)},
    )


def test_default_study_minimises_the_index_and_is_refused(objective):
    study = optuna.create_study()  # optuna's default: minimize
    with pytest.raises(ValueError, match="must be maximized"):
        study.optimize(objective, n_trials=1)


def test_create_study_has_the_right_direction(objective):
    study = objective.create_study(sampler=optuna.samplers.TPESampler(seed=0))
    assert study.direction == optuna.study.StudyDirection.MAXIMIZE
    study.optimize(objective, n_trials=2)
    assert 0 < study.best_value <= 100
    assert create_study("brier_score").direction == optuna.study.StudyDirection.MINIMIZE
    assert (
        create_study("brier_index", direction="maximize").direction
        == optuna.study.StudyDirection.MAXIMIZE
    )
    with pytest.raises(ValueError, match="contradicts"):
        create_study("brier_index", direction="minimize")
    with pytest.raises(ValueError, match="metric"):
        create_study("auc")


def test_brier_score_objective_refuses_a_maximising_study():
    X, y = make_classification(n_samples=90, random_state=1)
    obj = optuna_objective(
        LogisticRegression(), X, y, cv=3, metric="brier_score", param_space=lambda t: {}
    )
    with pytest.raises(ValueError, match="must be minimized"):
        optuna.create_study(direction="maximize").optimize(obj, n_trials=1)
    study = obj.create_study()
    study.optimize(obj, n_trials=1)
    assert np.isfinite(study.best_value)


def test_fixed_trial_without_study_still_works(objective):
    assert 0 < objective(optuna.trial.FixedTrial({"C": 1.0})) <= 100


def test_create_study_given_the_objective_names_the_remedy(objective):
    """``create_study(objective)`` (the objective instead of its metric): the
    error listed the metric names against the objective's repr."""
    with pytest.raises(TypeError, match=r"objective\.create_study\(\)"):
        create_study(objective)
