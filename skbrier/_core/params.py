"""Checks of options (not of data): the one home of every option check.

Data arrays are validated in :mod:`skbrier._core.validation`; this module checks
the scalar and small options that many functions share (``n_bins``,
``strategy``, ``confidence_level``, ``n_resamples``, ``n_jobs``,
``random_state``, booleans, ``thresholds``).  Each check raises a
``TypeError`` (wrong type) or ``ValueError`` (wrong value) whose message
starts with the parameter's name, and returns the normalised value.

The defaults of the option families live here too, one constant each
(:data:`DEFAULT_N_BINS`, :data:`DEFAULT_STRATEGY`,
:data:`DEFAULT_CONFIDENCE_LEVEL`, :data:`DEFAULT_N_RESAMPLES`): every public
signature, hidden option default and CLI option uses them, so one family has
one default (``tests/test_parameter_names.py`` checks this).

``random_state`` has one converter, :func:`check_random_state`, which turns
None, an int, a :class:`numpy.random.Generator`, a
:class:`numpy.random.RandomState` or a :class:`numpy.random.SeedSequence`
into a :class:`numpy.random.Generator`.  Every resampling entry point goes through it, so the same
``random_state`` gives the same draws everywhere.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any, Final, TypeVar

import numpy as np

from .format import format_number, format_outside

__all__ = [
    "DEFAULT_CONFIDENCE_LEVEL",
    "DEFAULT_N_BINS",
    "DEFAULT_N_RESAMPLES",
    "DEFAULT_STRATEGY",
    "MAX_BINS",
    "MIN_SAMPLES",
    "check_bool",
    "check_confidence_level",
    "check_min_samples",
    "check_int",
    "check_n_bins",
    "check_n_jobs",
    "check_n_resamples",
    "check_option",
    "check_random_state",
    "check_real",
    "check_resolution",
    "check_thresholds",
    "is_int",
    "validate_random_state",
    "scalar_of",
]

#: Default number of bins of every binned statistic and diagram (the deciles
#: of the Hosmer--Lemeshow tradition; ``calibration_report`` and the CLI).
DEFAULT_N_BINS: Final = 10

#: Default placement of the bins: equal width.  Fixed edges are what makes a
#: binned statistic exactly mergeable over chunks (Dask, ``partial_fit``,
#: states); equal-mass edges are quantiles of the data and are not.
DEFAULT_STRATEGY: Final = "uniform"

#: Default confidence level of every interval and band.
DEFAULT_CONFIDENCE_LEVEL: Final = 0.95

#: Default number of bootstrap replicates wherever resampling is the method
#: (where it is optional the default is 0, none).  ``(B + 1)(1 - 0.95) / 2``
#: is a whole number, so the 95 % percentile bounds are order statistics; it is
#: ForecastBench's number of leaderboard replicates, and it keeps the costly
#: statistics (a leaderboard refit, the smooth calibration error) practical.
DEFAULT_N_RESAMPLES: Final = 1999

#: Upper bound on ``n_bins`` (beyond it a binned statistic is all noise and
#: its arrays would only exhaust memory); functions may lower it further.
MAX_BINS = 100_000
#: the most resamples of a bootstrap (its replicates are held in memory: more
#: was a MemoryError or an OverflowError)
MAX_RESAMPLES = 10**9


def is_int(value: Any) -> bool:
    """True for Python and numpy integers, False for bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def check_int(
    value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """An integer option within ``[minimum, maximum]``."""
    if not is_int(value):
        raise TypeError(f"{name} must be an integer, got {value!r}.")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {v}.")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {v}.")
    return v


def scalar_of(value: Any) -> Any:
    """``value``, or the number a 0-d numeric numpy array holds (``np.array(0.3)``,
    a reduction such as ``a[0, ...]``), so that a scalar option accepts it as
    scikit-learn's ``numbers.Real`` checks of numpy scalars do."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        return value.item()
    return value


def check_real(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    inclusive: tuple[bool, bool] = (True, True),
) -> float:
    """A finite real option within ``low``/``high`` (bounds inclusive or not);
    a 0-d numeric array is its number (:func:`scalar_of`)."""
    value = scalar_of(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}.")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name} must be finite, got {format_number(v)}.")
    if low is not None and (v < low or (v == low and not inclusive[0])):
        raise ValueError(
            f"{name} must be {'>=' if inclusive[0] else '>'} {low}, got {format_number(v)}."
        )
    if high is not None and (v > high or (v == high and not inclusive[1])):
        raise ValueError(
            f"{name} must be {'<=' if inclusive[1] else '<'} {high}, got {format_number(v)}."
        )
    return v


def check_resolution(resolution: Any) -> float | str | None:
    """``resolution`` of the exact-table statistics (CORP, C): None (exact),
    ``"auto"`` or a grid step in (0, 0.5]."""
    if resolution is None:
        return None
    if isinstance(resolution, str):
        return check_option(resolution, "resolution", ("auto",))
    return check_real(resolution, "resolution", low=0.0, high=0.5, inclusive=(False, True))


def check_bool(value: Any, name: str) -> bool:
    """A boolean option (Python or numpy bool; not 0/1)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}.")
    return bool(value)


_S = TypeVar("_S", bound=str)


def check_option(value: Any, name: str, options: Iterable[_S], *, none: bool = False) -> _S:
    """One of a fixed set of strings (typed as the options, e.g. their
    ``Literal``); ``none``: None is allowed too (returned as is), and the
    message says so."""
    opts = tuple(options)
    allowed = f"{opts} or None" if none else f"{opts}"
    if none and value is None:
        pass
    elif not isinstance(value, str):
        raise TypeError(f"{name} must be one of {allowed}, got {value!r}.")
    elif value not in opts:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}.")
    return value


def check_n_bins(n_bins: Any, *, n_samples: int | None = None, name: str = "n_bins") -> int:
    """Number of bins: an integer in ``[1, MAX_BINS]``.

    ``n_samples`` (when given) is not a bound: more bins than samples is
    allowed (empty bins are dropped) but never more than :data:`MAX_BINS`.
    """
    del n_samples  # kept for call sites that pass it; the bound is MAX_BINS
    return check_int(n_bins, name, minimum=1, maximum=MAX_BINS)


def check_confidence_level(confidence_level: Any) -> float:
    """A confidence level strictly between 0 and 1."""
    if isinstance(confidence_level, (bool, np.bool_)) or not isinstance(
        confidence_level, numbers.Real
    ):
        raise TypeError(f"confidence_level must be a number, got {confidence_level!r}.")
    c = float(confidence_level)
    if not (0.0 < c < 1.0):
        raise ValueError(
            f"confidence_level must lie strictly between 0 and 1, got {format_outside(c)}"
            + _percent_hint(c)
        )
    if 0.5 + c / 2.0 == 1.0:  # the largest float below 1: an infinite normal quantile
        raise ValueError(
            f"confidence_level must lie strictly between 0 and 1, got {c!r}, which "
            "rounds to a 100% interval (infinite bounds)."
        )
    return c


def _percent_hint(bad: float) -> str:
    """The end of a message about a value outside (0, 1): a percentage hint
    for a value in (1, 100] (not for one a rounding away from 1)."""
    return " (a percentage? divide by 100)." if 1.0 + 1e-6 < bad <= 100.0 else "."


def check_n_resamples(n_resamples: Any, *, allow_zero: bool = False) -> int:
    """A number of resamples: an integer >= 2 (or 0 with ``allow_zero``).

    One resample gives a zero-width interval, so 1 is always refused; 0 means
    "no resampling" where ``allow_zero`` says that is meaningful.
    """
    n = check_int(n_resamples, "n_resamples", minimum=0)
    if n > MAX_RESAMPLES:
        raise ValueError(
            f"n_resamples must be at most {MAX_RESAMPLES:.0e} (the replicates are held "
            f"in memory), got {n}."
        )
    if n == 0 and allow_zero:
        return 0
    if n < 2:
        raise ValueError(
            f"n_resamples must be at least 2{' (or 0 for none)' if allow_zero else ''}, "
            f"got {n}."
        )
    return n


def check_n_jobs(n_jobs: Any) -> int | None:
    """joblib's ``n_jobs``: None, a positive count or a negative one (not 0, not bool)."""
    if n_jobs is None:
        return None
    if not is_int(n_jobs):
        raise TypeError(f"n_jobs must be None or an integer, got {n_jobs!r}.")
    if n_jobs == 0:
        raise ValueError("n_jobs must not be 0 (use None, a positive count or -1).")
    return int(n_jobs)


def check_random_state(random_state: Any) -> np.random.Generator:
    """The one ``random_state`` converter: a :class:`numpy.random.Generator`.

    Accepts None (fresh entropy), a non-negative int, a
    :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator`
    (used as is, so it advances as scikit-learn's do) or a legacy
    :class:`numpy.random.RandomState` (one draw from it seeds a Generator).
    An int ``s`` and ``np.random.default_rng(s)`` give the same draws.
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(int(random_state.randint(0, 2**31 - 1)))
    if random_state is None or isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    if isinstance(random_state, (bool, np.bool_)):
        raise TypeError(
            "random_state must be None, an int, a numpy Generator, RandomState or "
            f"SeedSequence; got {random_state!r}."
        )
    if isinstance(random_state, numbers.Integral):
        if random_state < 0:
            raise ValueError(f"random_state must be non-negative, got {random_state}.")
        return np.random.default_rng(int(random_state))
    raise TypeError(
        "random_state must be None, an int, a numpy Generator, RandomState or "
        f"SeedSequence; got {type(random_state).__name__}."
    )


def validate_random_state(random_state: Any) -> Any:
    """Check ``random_state`` up front without drawing from it; return it unchanged.

    For functions that resample only under some options: the option is
    refused when invalid even if it is not used, and a caller's Generator or
    RandomState is left untouched until resampling happens.
    """
    if isinstance(
        random_state, (np.random.Generator, np.random.RandomState, np.random.SeedSequence)
    ):
        return random_state
    check_random_state(random_state)
    return random_state


def check_thresholds(
    thresholds: Any, name: str = "thresholds", *, open_unit: bool = True
) -> np.ndarray:
    """A 1-D float64 array of thresholds in (0, 1) (``open_unit``) or [0, 1].

    A scalar becomes a length-1 array; 2-D or empty input is refused.
    """
    if isinstance(thresholds, (str, bytes)):
        raise TypeError(f"{name} must be numbers, got {thresholds!r}.")
    try:
        t = np.asarray(thresholds)
    except Exception as exc:  # ragged input
        raise ValueError(f"{name} could not be read as numbers: {exc}") from None
    if t.dtype == object:
        try:
            t = t.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be numbers, got dtype object.") from None
    if t.dtype.kind == "b" or t.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be numbers, got dtype {t.dtype}.")
    t = np.atleast_1d(t.astype(np.float64))
    if t.ndim != 1:
        raise ValueError(f"{name} must be a scalar or 1-D, got shape {t.shape}.")
    if t.size == 0:
        raise ValueError(f"{name} must not be empty.")
    if not np.isfinite(t).all():
        raise ValueError(f"{name} must be finite.")
    outside = (t <= 0.0) | (t >= 1.0) if open_unit else (t < 0.0) | (t > 1.0)
    if outside.any():
        bad = float(t[np.argmax(outside)])
        where = "strictly between 0 and 1" if open_unit else "in [0, 1]"
        raise ValueError(
            f"{name} must lie {where}, got {format_outside(bad)}{_percent_hint(bad)}"
        )
    return t


#: The fewest observations of a statistic that counts them (intervals, tests,
#: finite-sample corrections): rows, or the total of frequency weights.
MIN_SAMPLES = 3


def check_min_samples(
    n: int,
    total_weight: float | None = None,
    *,
    time_weights: np.ndarray | None = None,
    purpose: str = "confidence intervals",
    name: str = "y_true",
) -> None:
    r"""At least 3 observations: rows, or with frequency weights a total weight of 3.

    With frequency weights (``total_weight`` given) the total weight is the
    sample size, as for the repeated rows that integer weights stand for.
    With weights of time points (``time_weights``: ``cov_type="hac"`` and the
    block bootstraps, where zero-weight rows keep their place in time) the
    sample size is Kish's effective number of observations
    :math:`(\sum w)^2 / \sum w^2` (the number of positive weights when
    they are equal).  The one check of every statistic that counts
    observations (intervals, the debiased calibration error, the
    Ferro--Fricker correction); ``purpose`` names what needs them in the
    message, ``name`` the outcome's parameter.
    """
    if total_weight is None:
        if n < MIN_SAMPLES:
            raise ValueError(
                f"{name} has {n} samples; at least {MIN_SAMPLES} observations "
                f"are needed for {purpose}."
            )
        if time_weights is not None:
            r = time_weights / time_weights.max()  # scale-free, no overflow
            n_eff = float(r.sum() ** 2 / np.dot(r, r))
            if not n_eff >= MIN_SAMPLES - 1e-9:
                n_pos = int(np.count_nonzero(time_weights))
                raise ValueError(
                    f"sample_weight: {n_pos} of {n} rows have a positive weight "
                    f"(effective number of observations {n_eff:.4g} = "
                    "(sum w)^2 / sum w^2); a time-series (HAC or block bootstrap) "
                    f"interval needs at least {MIN_SAMPLES}. Give more rows a "
                    "positive weight, or, if the rows are independent, use "
                    "cov_type='iid' (frequency weights)."
                )
        return
    if not total_weight >= MIN_SAMPLES:
        raise ValueError(
            f"sample_weight sums to {total_weight:.4g}: with frequency weights (counts of "
            f"repeated rows) the total weight is the sample size, and at least "
            f"{MIN_SAMPLES} observations are needed for {purpose}."
        )
