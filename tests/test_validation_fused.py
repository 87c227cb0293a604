"""The fused validation pass of large 2-D forecasts (range check and row sums
in one blocked pass) decides exactly as the two separate checks it replaces:
``check_probabilities`` and ``np.allclose(rows, 1, rtol=sqrt(eps), atol=0)``."""

import warnings

import numpy as np
import pytest

from skbrier import brier_score, calibration_error
from skbrier._core.validation import (
    _FUSED_BLOCK,
    _fused_range_and_row_sums,
    check_forecast,
    warn_if_rows_do_not_sum_to_one,
)

RTOL = np.sqrt(np.finfo(np.float64).eps)


def _big(k=4, seed=0):
    rng = np.random.default_rng(seed)
    n = 3 * _FUSED_BLOCK // k + 7  # several blocks and a ragged last one
    p = rng.dirichlet(np.ones(k), size=n)
    p /= p.sum(axis=1, keepdims=True)
    y = rng.integers(0, k, n)
    return y, p


def _warns(func):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        func()
    return [(str(r.message), r.category, r.filename) for r in rec]


@pytest.mark.parametrize("where", [0, -1, "middle"])
@pytest.mark.parametrize(
    "delta", [RTOL, -RTOL, np.nextafter(RTOL, 1), -np.nextafter(RTOL, 1), 1e-3]
)
def test_row_sum_tolerance_same_as_allclose(where, delta):
    y, p = _big()
    i = p.shape[0] // 2 if where == "middle" else where
    p[i] = [0.25, 0.25, 0.25, 0.25]
    p[i, 0] += delta  # row sum 1 + delta, exactly representable near 1
    s = p @ np.ones(4)
    expected = np.allclose(s, 1.0, rtol=RTOL, atol=0.0)
    assert _fused_range_and_row_sums(p) == (True, expected)
    got = _warns(lambda: check_forecast(y, p))
    small = _warns(lambda: warn_if_rows_do_not_sum_to_one(p[:10]))
    assert bool(got) == (not expected)
    if got:
        assert (
            got[0][0]
            == "The rows of y_proba do not sum to one. Make sure to pass probabilities."
        )
        assert got[0][1] is UserWarning
        assert len(small) == 0 or small[0][:2] == got[0][:2]


def test_warning_points_at_the_caller_as_before():
    y, p = _big()
    p[5] *= 0.9
    fused = _warns(lambda: brier_score(y, p))
    # the unfused path (a Fortran-ordered copy) warns from the same line
    unfused = _warns(lambda: brier_score(y, np.asfortranarray(p)))
    assert fused and fused == unfused


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.nan, "y_proba contains NaN."),
        (np.inf, "y_proba contains infinity."),
        (1.5, "y_proba must contain probabilities in [0, 1]"),
        (-0.25, "y_proba must contain probabilities in [0, 1]"),
    ],
)
def test_bad_values_same_errors(bad, message):
    y, p = _big()
    for i in (0, p.shape[0] // 2, p.shape[0] - 1):
        q = p.copy()
        q[i, 1] = bad
        with pytest.raises(
            ValueError, match=message.replace("[", r"\[").replace("]", r"\]")
        ):
            check_forecast(y, q)
        with pytest.raises(ValueError, match="y_proba"):
            calibration_error(y, q)


def test_negative_zero_takes_exact_path():
    y, p = _big()
    p[3] = [-0.0, 0.5, 0.5, 0.0]
    assert _fused_range_and_row_sums(p)[0] is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fc = check_forecast(y, p)  # valid; rows sum to one: no warning
    assert fc.proba is p


def test_fused_and_unfused_give_equal_results():
    y, p = _big(k=5, seed=3)
    p[7] *= 0.5
    with pytest.warns(UserWarning, match="do not sum to one"):
        a = calibration_error(y, p)
    with pytest.warns(UserWarning, match="do not sum to one"):
        b = calibration_error(y, np.asfortranarray(p))
    assert a == b
    with pytest.warns(UserWarning, match="do not sum to one"):
        assert brier_score(y, p) == brier_score(y, np.asfortranarray(p))
