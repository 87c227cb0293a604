"""The Array API adapters of the public functions (declared with ``skbrier._backends``).

Each takes the public function's arguments, validates the forecasts in
``y_proba``'s namespace (:func:`skbrier._array_api.array_api_forecast`) and
computes with the kernels of :mod:`skbrier.metrics._xp_metrics`.
"""

from __future__ import annotations

from typing import Any

from ._array_api import XPForecast, array_api_forecast
from .metrics import _xp_metrics
from .metrics._brier_math import warn_undefined_skill

__all__ = ["brier_score", "brier_skill_score", "multiple_choice_brier_score", "net_benefit"]


def _forecast(y_true: Any, y_proba: Any, sample_weight: Any, labels: Any, pos_label: Any):
    fc = array_api_forecast(
        y_true, y_proba, sample_weight=sample_weight, labels=labels, pos_label=pos_label
    )
    assert isinstance(fc, XPForecast)  # the dispatch only sends Array API input here
    return fc


def brier_score(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    scale_by_half: Any = "auto",
) -> float:
    from .metrics.brier import _check_scale_by_half

    scale_by_half = _check_scale_by_half(scale_by_half)
    fc = _forecast(y_true, y_proba, sample_weight, labels, pos_label)
    return _xp_metrics.brier(fc, scale_by_half=scale_by_half)


def brier_skill_score(
    y_true: Any,
    y_proba: Any,
    *,
    reference: Any = None,
    sample_weight: Any = None,
    labels: Any = None,
    pos_label: Any = None,
) -> float:
    fc = _forecast(y_true, y_proba, sample_weight, labels, pos_label)
    score, bs_ref = _xp_metrics.skill(fc, reference)
    if bs_ref == 0.0:
        warn_undefined_skill()
    return score


def multiple_choice_brier_score(
    y_true: Any,
    y_score: Any,
    *,
    convention: Any = "per_example",
    from_logprobs: Any = False,
    sample_weight: Any = None,
) -> Any:
    from ._params import check_bool, check_option

    convention = check_option(convention, "convention", ("per_example", "bigbench"))
    from_logprobs = check_bool(from_logprobs, "from_logprobs")
    score = _xp_metrics.multiple_choice(
        y_true, y_score, convention, from_logprobs, sample_weight
    )
    return NotImplemented if score is None else score


def net_benefit(
    y_true: Any,
    y_proba: Any,
    *,
    threshold: Any,
    sample_weight: Any = None,
    pos_label: Any = None,
    prevalence: Any = None,
) -> Any:
    from ._validation import check_scalar_probability
    from .metrics._decision_curve import check_prevalence

    t = check_scalar_probability(threshold, name="threshold", open_interval=True)
    prev = check_prevalence(prevalence)
    fc = _forecast(y_true, y_proba, sample_weight, None, pos_label)
    if fc.binary_1d and (nb := _xp_metrics.net_benefit(fc, t, prev)) is not None:
        return nb
    return NotImplemented
