"""Papercuts found by using the Python API as a new user (issue 14), one test each."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV

import skbrier
from skbrier.model_selection import pooled_cv_scores, pooled_refit, pooled_scoring


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=120, random_state=0)


@pytest.fixture(scope="module")
def search(data):
    X, y = data
    return GridSearchCV(
        LogisticRegression(),
        {"C": [0.01, 1.0]},
        cv=3,
        scoring=pooled_scoring(prefix="p_"),
        refit=pooled_refit(prefix="p_"),
    ).fit(X, y)


# 1. a "pooled" scoring name explains why there is none and what to use
def test_pooled_scoring_name_points_to_pooled_tools():
    with pytest.raises(ValueError, match=r"one test fold at a time.*pooled_scoring\(\)"):
        skbrier.scorers.get_scorer("pooled_brier_index")


# 2. a misspelt scoring name suggests the close ones
def test_misspelt_scoring_name_suggests():
    with pytest.raises(ValueError, match=r"Did you mean 'brier_index'"):
        skbrier.scorers.get_scorer("brier_indx")
    with pytest.raises(ValueError, match="not a valid scoring name") as info:
        skbrier.scorers.get_scorer("zzzz")
    assert "Did you mean" not in str(info.value)


# 3. pooled_cv_scores takes the fitted search itself (and its refit's prefix)
def test_pooled_cv_scores_accepts_a_search(search):
    from_search = pooled_cv_scores(search)
    from_dict = pooled_cv_scores(search.cv_results_, prefix="p_")
    np.testing.assert_array_equal(from_search.brier_index, from_dict.brier_index)
    with pytest.raises(ValueError, match="unfitted GridSearchCV"):
        pooled_cv_scores(GridSearchCV(LogisticRegression(), {"C": [1.0]}))
    with pytest.raises(TypeError, match="cv_results must be a dict"):
        pooled_cv_scores([1, 2])


# 4. the pooled table names the candidates (param_ columns) and leaves out
#    the bookkeeping sums that cv_results_ holds
def test_pooled_table_has_the_parameters(search):
    res = pooled_cv_scores(search)
    frame = res.to_frame()
    assert list(frame.columns[:2]) == ["param_C", "brier_score"]
    assert frame["param_C"].tolist() == [0.01, 1.0]
    assert not [c for c in frame.columns if "sum" in c]
    assert res.params == [{"C": 0.01}, {"C": 1.0}]
    again = pickle.loads(pickle.dumps(res))
    assert again.params == res.params
    np.testing.assert_array_equal(again.brier_index, res.brier_index)


# 5. the Optuna objective says what it optimises, and in which direction
def test_optuna_objective_repr(data):
    from skbrier.model_selection import optuna_objective

    X, y = data

    def space(trial):
        return {"C": trial.suggest_float("C", 0.1, 1.0)}

    obj = optuna_objective(LogisticRegression(), X, y, param_space=space, cv=3)
    assert repr(obj) == (
        "BrierObjective(estimator=LogisticRegression, metric='brier_index', "
        "direction='maximize', n_samples=120, cv=3)"
    )

    def factory(trial):
        return LogisticRegression()

    obj = optuna_objective(factory, X.tolist(), y, metric="brier_score")
    assert repr(obj).startswith("BrierObjective(estimator=factory, metric='brier_score'")
    assert "direction='minimize', n_samples=120, cv=5)" in repr(obj)


# 6. the pooled summary names the candidates; to_dict stays JSON-ready
def test_pooled_summary_names_candidates(data):
    import json

    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    X, y = data
    pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    search = GridSearchCV(
        pipe,
        {"scale": [StandardScaler(), MinMaxScaler()], "clf__C": [0.5]},
        cv=3,
        scoring=pooled_scoring(),
        refit=pooled_refit(),
    ).fit(X, y)
    res = pooled_cv_scores(search)
    text = res.summary()
    assert "params" in text.splitlines()[2]
    assert "clf__C=0.5, scale=StandardScaler(); clf__C=0.5, scale=MinMaxScaler()" in text
    d = json.loads(json.dumps(res.to_dict()))
    assert d["params"] == [
        {"clf__C": 0.5, "scale": "StandardScaler()"},
        {"clf__C": 0.5, "scale": "MinMaxScaler()"},
    ]
    assert d["brier_index"] == res.brier_index.tolist()


# 7. a dcurves user passing the whole data frame (outcome column included) is
#    stopped instead of getting the outcome scored as a perfect model
def test_outcome_column_in_forecast_frame_is_refused():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {"y": rng.integers(0, 2, 60), "a": rng.random(60), "b": rng.random(60)}
    )
    msg = r"column 'y', the name of y_true.*y_proba=df\[\['a', 'b'\]\]"
    with pytest.raises(ValueError, match=msg):
        skbrier.decision_curve(df["y"], df)
    with pytest.raises(ValueError, match=msg):
        skbrier.compare_forecasts(df["y"], df)
    # the forecast columns alone, or an unnamed outcome, are fine
    res = skbrier.decision_curve(df["y"], df[["a", "b"]], thresholds=[0.3])
    assert res.model_names == ["a", "b"]
    res = skbrier.decision_curve(df["y"].to_numpy(), df[["a", "b"]], thresholds=[0.3])
    assert res.model_names == ["a", "b"]


# 8. the band of a several-model decision curve asks for model= by name
def test_decision_curve_interval_asks_for_the_model():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 80)
    res = skbrier.decision_curve(
        y,
        {"a": rng.random(80), "b": rng.random(80)},
        thresholds=[0.2, 0.4],
        n_resamples=20,
        random_state=0,
    )
    with pytest.raises(
        ValueError, match=r"holds 2 models: model must name one of \['a', 'b'\]"
    ):
        res.confidence_interval()
    low, high = res.confidence_interval(model="a")
    assert low.shape == high.shape == (2,)
