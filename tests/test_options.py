"""Every public callable checks its shared options the same way, up front.

The callables are found by introspection (every function of ``skbrier``,
``skbrier.metrics`` and ``skbrier.stats`` whose first two parameters are
``y_true`` and a forecast), and each option they share is fed a table of bad
values: the call must raise ``ValueError`` or ``TypeError`` naming the option,
whatever the other options say (no option is checked only when used).
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
import pytest

import skbrier
from skbrier import metrics, stats

BAD_VALUES: dict[str, list[Any]] = {
    "n_bins": [0, -1, 10**9, 2.5, True, "10", None],
    "n_resamples": [1, -1, 2.5, True, "100"],
    "n_jobs": [0, True, 1.5, "2"],
    "random_state": [-1, "x", 1.5, True, [1, 2]],
    "confidence_level": [0.0, 1.0, 1.5, -0.1, "0.9", True, float("nan")],
}


def _public_forecast_functions() -> list[tuple[str, Any]]:
    found: dict[str, Any] = {}
    for mod in (skbrier, metrics, stats):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not inspect.isfunction(obj):
                continue
            params = list(inspect.signature(obj).parameters)
            if len(params) >= 2 and params[0] == "y_true" and params[1].startswith("y_"):
                found[name] = obj
    return sorted(found.items())


FUNCTIONS = _public_forecast_functions()

CASES = [
    (name, func, option, value)
    for name, func in FUNCTIONS
    for option, values in BAD_VALUES.items()
    if option in inspect.signature(func).parameters
    for value in values
]


def _call(func: Any, **options: Any) -> Any:
    rng = np.random.default_rng(0)
    y = np.r_[0, 1, rng.integers(0, 2, 38)]
    p = np.round(rng.uniform(0.05, 0.95, 40), 2)
    params = inspect.signature(func).parameters
    extra: dict[str, Any] = {}
    if "threshold" in params and params["threshold"].default is inspect.Parameter.empty:
        extra["threshold"] = 0.3
    if "forecaster" in params and params["forecaster"].default is inspect.Parameter.empty:
        # long-format panels (skbrier.leaderboard): two forecasters x 20 questions
        extra["forecaster"] = np.repeat([0, 1], 20)
        extra["question"] = np.tile(np.arange(20), 2)
    if "groups" in params and params["groups"].default is inspect.Parameter.empty:
        extra["groups"] = np.arange(40) % 2  # centres or subgroups
    args: list[Any] = [y, p]
    if func is stats.pooled_validation:  # one forecast per imputed data set
        args = [y, [p, np.clip(p * 1.1, 0, 1)]]
    if "y_proba_b" in params:
        args.append(np.clip(p**1.5, 0, 1))
    return func(*args, **extra, **options)


@pytest.mark.parametrize(
    ("name", "func", "option", "value"),
    CASES,
    ids=[f"{c[0]}-{c[2]}={c[3]!r}" for c in CASES],
)
def test_bad_option_raises_named_error(name, func, option, value):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((ValueError, TypeError), match=option):
            _call(func, **{option: value})


def test_there_are_cases():
    assert len(FUNCTIONS) >= 15
    assert len(CASES) >= 40
