"""
===============================================
Tuning with Optuna on the pooled Brier Index
===============================================

:func:`~skbrier.model_selection.optuna_objective` turns a classifier and a
search space into an Optuna objective.  Each trial runs
:func:`~skbrier.model_selection.cross_val_brier` and returns the Brier Index
of all out-of-fold predictions pooled, so the study maximises
(``direction="maximize"``) the index of the model on the whole data set, not
the upward-biased mean of per-fold indices that
``cross_val_score(...).mean()`` would give.  Every trial also records the
pooled Brier score, the skill score and the mean of the fold indices as user
attributes.

Optuna is optional: without it this example prints a message and stops.
"""

# %%
import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from skbrier.model_selection import cross_val_brier, optuna_objective

try:
    import optuna
except ImportError:  # pragma: no cover - depends on the environment
    optuna = None
    print("This example needs optuna: pip install optuna")

# %%
# The objective
# -------------
# A fixed splitter (``shuffle=True`` with a ``random_state``) makes every
# trial see the same folds, so that trials are compared on equal terms.
X, y = make_classification(
    n_samples=800, n_features=10, n_informative=4, flip_y=0.1, random_state=0
)
cv = StratifiedKFold(5, shuffle=True, random_state=0)


def space(trial):
    return {
        "max_depth": trial.suggest_int("max_depth", 2, 12),
        "min_samples_leaf": trial.suggest_int("min_samples_leaf", 2, 100, log=True),
        "criterion": trial.suggest_categorical("criterion", ["gini", "log_loss"]),
    }


objective = optuna_objective(
    DecisionTreeClassifier(random_state=0), X, y, param_space=space, cv=cv
)

# %%
# The study
# ---------
if optuna is not None:
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        direction=objective.direction, sampler=optuna.samplers.TPESampler(seed=0)
    )
    study.optimize(objective, n_trials=20)

    best = study.best_trial
    print(f"best pooled Brier Index: {study.best_value:.2f}")
    print(f"mean of fold indices:    {best.user_attrs['mean_fold_brier_index']:.2f}")
    print(f"pooled Brier score:      {best.user_attrs['brier_score']:.4f}")
    print("best parameters:", best.params)

    # %%
    # The same number from cross_val_brier, with the per-fold table:
    model = DecisionTreeClassifier(random_state=0, **best.params)
    res = cross_val_brier(model, X, y, cv=cv)
    assert np.isclose(res.brier_index, study.best_value)
    print(res.summary())

    # %%
    # A factory ``trial -> estimator`` works too, for search spaces that
    # change the model's structure:
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import SplineTransformer, StandardScaler

    def build(trial):
        steps = [StandardScaler()]
        if trial.suggest_categorical("splines", [False, True]):
            steps.append(SplineTransformer(n_knots=trial.suggest_int("n_knots", 3, 8)))
        steps.append(LogisticRegression(C=trial.suggest_float("C", 1e-3, 10, log=True)))
        return make_pipeline(*steps)

    study2 = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.TPESampler(seed=1)
    )
    study2.optimize(optuna_objective(build, X, y, cv=cv), n_trials=8)
    print(f"factory search: {study2.best_value:.2f} with {study2.best_params}")
