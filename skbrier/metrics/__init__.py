"""Pure metric functions: Brier score and friends, net benefit, decompositions."""

from .brier import brier_index, brier_score, brier_skill_score
from .multiple_choice import multiple_choice_brier_score

__all__ = [
    "brier_index",
    "brier_score",
    "brier_skill_score",
    "multiple_choice_brier_score",
]
