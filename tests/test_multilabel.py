"""Multilabel indicator input for the Brier family (issue 30, item 4): equal to
scikit-learn's ``brier_score_loss`` and ``d2_brier_score`` on the same input,
per-label calibration errors and decompositions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, d2_brier_score

from skbrier import (
    brier_index,
    brier_score,
    brier_skill_score,
    calibration_error,
    corp_decomposition,
    murphy_decomposition,
)


def _data(n_labels, n=300, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.random((n, n_labels))
    y = (rng.random((n, n_labels)) < p).astype(int)
    w = rng.integers(0, 4, n).astype(float)
    return y, p, w


def _sklearn(func, *args, **kw):
    with warnings.catch_warnings():  # "The y_prob values do not sum to one"
        warnings.simplefilter("ignore", UserWarning)
        return func(*args, **kw)


@pytest.mark.parametrize("n_labels", [2, 3, 6])
@pytest.mark.parametrize("scale_by_half", ["auto", True, False])
def test_brier_score_equals_brier_score_loss(n_labels, scale_by_half):
    y, p, w = _data(n_labels)
    for kw in ({}, {"sample_weight": w}):
        got = brier_score(y, p, scale_by_half=scale_by_half, **kw)
        want = _sklearn(brier_score_loss, y, p, scale_by_half=scale_by_half, **kw)
        assert got == want  # to the last bit
    # booleans, float labels, float32 probabilities (kept in float32 by both)
    assert brier_score(y.astype(bool), p) == _sklearn(brier_score_loss, y, p)
    assert brier_score(y.astype(float), p) == _sklearn(brier_score_loss, y, p)
    p32 = p.astype(np.float32)
    assert brier_score(y, p32) == _sklearn(brier_score_loss, y, p32)


def test_no_rows_sum_warning_for_multilabel():
    y, p, _ = _data(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        brier_score(y, p)


@pytest.mark.parametrize("n_labels", [2, 4])
def test_skill_score_equals_d2_brier_score(n_labels):
    y, p, w = _data(n_labels, seed=1)
    assert brier_skill_score(y, p) == pytest.approx(
        _sklearn(d2_brier_score, y, p), rel=1e-14
    )
    assert brier_skill_score(y, p, sample_weight=w) == pytest.approx(
        _sklearn(d2_brier_score, y, p, sample_weight=w), rel=1e-14
    )
    ref = np.clip(p**1.5, 0, 1)
    bs, bs_ref = brier_score(y, p), brier_score(y, ref)
    assert brier_skill_score(y, p, reference=ref) == pytest.approx(1 - bs / bs_ref)
    with pytest.raises(ValueError, match="multilabel"):
        brier_skill_score(y, p, reference=0.3)


def test_weights_are_frequencies():
    y, p, w = _data(3, n=80, seed=2)
    rep = np.repeat(np.arange(80), w.astype(int))
    assert brier_score(y, p, sample_weight=w) == pytest.approx(
        brier_score(y[rep], p[rep]), rel=1e-14
    )
    assert brier_skill_score(y, p, sample_weight=w * 1e-200) == pytest.approx(
        brier_skill_score(y[rep], p[rep]), rel=1e-13
    )


def test_brier_index_of_the_mean_per_label_score():
    y, p, _ = _data(4, seed=3)
    per_label = [brier_score(y[:, j], p[:, j]) for j in range(4)]
    assert brier_index(y, p) == pytest.approx(
        100 * (1 - np.sqrt(np.mean(per_label))), rel=1e-14
    )
    assert brier_score(y, p, scale_by_half=False) == pytest.approx(sum(per_label))


def test_per_label_calibration_error_and_decompositions():
    y, p, w = _data(3, seed=4)
    per = [
        calibration_error(y[:, j], p[:, j], kind="binary", n_bins=5, sample_weight=w)
        for j in range(3)
    ]
    got = calibration_error(y, p, kind="classwise", n_bins=5, sample_weight=w)
    assert got == pytest.approx(np.mean(per), rel=1e-14)
    got = calibration_error(y, p, kind="classwise", n_bins=5, norm="max")
    assert got == pytest.approx(
        max(
            calibration_error(y[:, j], p[:, j], kind="binary", n_bins=5, norm="max")
            for j in range(3)
        )
    )
    with pytest.raises(ValueError, match="kind='classwise'"):
        calibration_error(y, p)
    for decompose in (corp_decomposition, murphy_decomposition):
        d = decompose(y, p, sample_weight=w)
        assert list(d.classes) == [0, 1, 2]
        for j in range(3):
            one = decompose(y[:, j], p[:, j], sample_weight=w)
            assert d.per_class[j].brier_score == pytest.approx(one.brier_score, rel=1e-14)
        assert d.brier_score == pytest.approx(
            brier_score(y, p, sample_weight=w, scale_by_half=False), rel=1e-13
        )


def test_bad_multilabel_input_is_named():
    y, p, _ = _data(3, n=10)
    with pytest.raises(ValueError, match="y_true is a multilabel indicator of shape"):
        brier_score(y, p[:, :2])
    bad = y.astype(float)
    bad[0, 0] = 2.0
    with pytest.raises(ValueError, match="only 0 and 1"):
        brier_score(bad, p)
    # fractions: predict_proba output given as y_true (the swap hint)
    with pytest.raises(ValueError, match="predict_proba"):
        brier_score(p, y)
    with pytest.raises(ValueError, match="labels"):
        brier_score(y, p, labels=[0, 1, 2])
    with pytest.raises(TypeError, match="y_true"):
        brier_score(np.array([["a", "b"], ["b", "a"]]), [[0.5, 0.5], [0.5, 0.5]])
    with pytest.raises(ValueError, match="y_proba"):
        brier_score(y, p * 2)


def test_dask_refuses_and_array_api_copies_to_the_host():
    da = pytest.importorskip("dask.array")
    y, p, _ = _data(3, n=50)
    with pytest.raises(TypeError, match="multilabel"):
        brier_score(da.from_array(y, 25), da.from_array(p, 25))
