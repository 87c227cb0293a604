"""Model selection by cross-validated Brier scores.

* :func:`cross_val_brier`: pooled and per-fold Brier score, Brier Index and
  skill score of one classifier, from the out-of-fold predictions of
  ``cross_val_predict``.
* :func:`pooled_scoring` and :func:`pooled_refit`: choose among candidates of
  ``GridSearchCV`` (or any scikit-learn search) by the *pooled* Brier Index
  instead of the upward-biased mean of per-fold indices, optionally with the
  one-standard-error rule; :func:`pooled_cv_scores` reports the pooled
  scores of every candidate and :func:`pooled_best_score` the pooled score of
  the chosen one (``best_score_`` does not exist with a callable ``refit``).
* :func:`optuna_objective`: an Optuna objective returning the pooled Brier
  Index (``direction="maximize"``); :func:`create_study` makes the study in
  the right direction, and the objective refuses a study that minimises it.
* :func:`internal_validation`: bootstrap internal validation of any
  classifier or pipeline (Harrell's optimism, .632 and .632+) with the
  stability of its predictions (:class:`StabilityResult`).
"""

from ._optimism import InternalValidationResult, internal_validation
from ._stability import StabilityResult
from .cross_validation import CrossValBrierResult, cross_val_brier
from .pooled import (
    PooledCVResult,
    PooledRefit,
    pooled_best_score,
    pooled_cv_scores,
    pooled_refit,
    pooled_scoring,
)
from .tuning import create_study, optuna_objective

__all__ = [
    "CrossValBrierResult",
    "InternalValidationResult",
    "PooledCVResult",
    "PooledRefit",
    "StabilityResult",
    "create_study",
    "cross_val_brier",
    "internal_validation",
    "optuna_objective",
    "pooled_best_score",
    "pooled_cv_scores",
    "pooled_refit",
    "pooled_scoring",
]
