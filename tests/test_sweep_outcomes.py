"""Held-out reproducers of the outcomes area (issues 14, 24 and 30): ordinal,
multilabel and multiple-choice scores, the scorers and scikit-learn parity.

Each test failed before its fix.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import brier_score_loss, log_loss

from skbrier import (
    brier_score,
    multiple_choice_brier_score,
    ranked_probability_score,
)
from skbrier.states import MultipleChoiceState


def _float32_proba(k=4, n=9, seed=0):
    """float32 probabilities (as a float32 model's predict_proba) whose rows
    sum to one only to float32 rounding (about 4e-8 here)."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(k), n).astype(np.float32)
    y = np.r_[np.arange(k), rng.integers(0, k, n - k)]
    assert 1e-8 < np.abs(p.astype(np.float64).sum(axis=1) - 1).max() < 1e-6
    return y, p


# ------------------------------------------------- float32 probabilities
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_low_precision_rows_do_not_warn_as_sklearn(dtype):
    # the rows of float32 predict_proba sum to one within float32's rounding:
    # scikit-learn (tolerance sqrt(eps) of the dtype) stays quiet, skbrier warned
    y, p = _float32_proba()
    p = p.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = brier_score_loss(y, p)
        log_loss(y, p)
        assert brier_score(y, p) == pytest.approx(expected, rel=1e-3)
        ranked_probability_score(y, p)
        multiple_choice_brier_score(y, p)
        MultipleChoiceState().update(y, p).finalize()


def test_low_precision_rows_still_warn_when_they_do_not_sum_to_one():
    y, p = _float32_proba()
    p[0, 0] += np.float32(0.01)
    with pytest.warns(UserWarning, match="do not sum to one"):
        brier_score(y, p)
    with pytest.warns(UserWarning, match="do not sum to one"):
        multiple_choice_brier_score(y, p)


def test_float64_rows_keep_the_float64_tolerance():
    y, p = _float32_proba()
    with pytest.warns(UserWarning, match="do not sum to one"):
        brier_score(y, p.astype(np.float64))


# ------------------------------------------------- multiple-choice messages
def test_multiple_choice_percentages_say_divide_by_100():
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(4), 6) * 100
    with pytest.raises(ValueError, match="divide by 100") as e:
        multiple_choice_brier_score([0, 1, 2, 3, 0, 1], p)
    assert "np.float64" not in str(e.value)


def test_multiple_choice_log_probabilities_without_the_flag():
    with pytest.raises(ValueError, match="from_logprobs=True") as e:
        multiple_choice_brier_score([0, 1], [[-0.1, -2.5], [-1.0, -2.0]])
    msg = str(e.value)
    assert "np.float64" not in msg and "example 0, choice 0 has -0.1" in msg


def test_multiple_choice_ragged_position_in_message():
    with pytest.raises(ValueError, match="example 1, choice 2 has 1.5"):
        multiple_choice_brier_score([0, 1], [[0.5, 0.5], [0.2, 0.3, 1.5]])


def test_multiple_choice_weight_length_names_y_score():
    p = np.full((3, 2), 0.5)
    with pytest.raises(ValueError, match="but y_score has 3"):
        multiple_choice_brier_score([0, 1, 0], p, sample_weight=[1.0, 2.0])


def test_multiple_choice_dataframe_float32():
    y, p = _float32_proba()
    df = pd.DataFrame(p, index=np.arange(100, 109))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = multiple_choice_brier_score(pd.Series(y, index=df.index), df)
    assert got == pytest.approx(brier_score_loss(y, p), rel=1e-6)


def test_low_precision_rows_under_array_api_dispatch(monkeypatch):
    # the same tolerance on the device path (a float32 torch tensor)
    torch = pytest.importorskip("torch")
    import sklearn

    monkeypatch.setenv("SCIPY_ARRAY_API", "1")  # scikit-learn insists on it

    y, p = _float32_proba()
    yt, pt = torch.as_tensor(y), torch.as_tensor(p)
    with sklearn.config_context(array_api_dispatch=True), warnings.catch_warnings():
        warnings.simplefilter("error")
        got = brier_score(yt, pt)
        multiple_choice_brier_score(yt, pt)
    assert got == pytest.approx(brier_score_loss(y, p), rel=1e-6)
    bad = p.copy()
    bad[0, 0] += np.float32(0.01)
    with sklearn.config_context(array_api_dispatch=True):
        with pytest.warns(UserWarning, match="do not sum to one"):
            brier_score(yt, torch.as_tensor(bad))
