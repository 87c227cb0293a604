"""scikit-learn's coming ``calibration_error`` (pull request 34261): its
signature (``norm=``, ``squared=``, binary first) and its scorer names
``neg_*_calibration_error``, registered only where scikit-learn lacks them.

The pull request's code could not be obtained here, so the numbers are
checked against its documented definition (the binned calibration term of
the Brier decomposition for ``norm="l2", squared=True``) and against
scikit-learn's ``calibration_curve``; the tests marked below compare with
scikit-learn's own function the day a release has it, and fail loudly if the
two disagree.
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics
from sklearn.calibration import calibration_curve
from sklearn.metrics import get_scorer_names

from skbrier import calibration_error, murphy_decomposition
from skbrier.scorers import SCORER_NAMES, SKLEARN_CALIBRATION_SCORERS, get_scorer

SKLEARN_HAS_IT = hasattr(sklearn.metrics, "calibration_error")


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(n), 3)  # ties and values on the edges
    y = (rng.random(n) < p**1.3).astype(int)
    w = rng.integers(0, 4, n).astype(float)
    return y, p, w


@pytest.mark.parametrize("n_bins", [5, 10])
def test_norms_from_calibration_curve(n_bins):
    y, p, _ = _data()
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins)
    counts = np.bincount(
        np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], p), minlength=n_bins
    )
    share = counts[counts > 0] / p.shape[0]
    gap = prob_true - prob_pred
    kw = {"binning": "sklearn", "n_bins": n_bins, "kind": "binary"}
    assert calibration_error(y, p, norm="l1", **kw) == pytest.approx(
        np.sum(share * np.abs(gap)), rel=1e-12
    )
    assert calibration_error(y, p, norm="l2", squared=True, **kw) == pytest.approx(
        np.sum(share * gap**2), rel=1e-12
    )
    assert calibration_error(y, p, norm="l2", **kw) == pytest.approx(
        np.sqrt(np.sum(share * gap**2)), rel=1e-12
    )
    assert calibration_error(y, p, norm="max", **kw) == pytest.approx(
        np.max(np.abs(gap)), rel=1e-12
    )


def test_squared_l2_is_the_binned_reliability_term():
    y, p, w = _data(seed=1)
    got = calibration_error(y, p, norm="l2", squared=True, n_bins=10, sample_weight=w)
    rel = murphy_decomposition(y, p, n_bins=10, sample_weight=w).reliability
    assert got == pytest.approx(rel, rel=1e-13)
    root = calibration_error(y, p, norm="l2", n_bins=10, sample_weight=w)
    assert got == pytest.approx(root**2, rel=1e-13)


def test_squared_needs_l2():
    y, p, _ = _data(n=20)
    for norm in ("l1", "max"):
        with pytest.raises(ValueError, match="squared=True"):
            calibration_error(y, p, norm=norm, squared=True)
    with pytest.raises(TypeError, match="squared"):
        calibration_error(y, p, norm="l2", squared="yes")


def test_squared_on_dask_and_classwise():
    da = pytest.importorskip("dask.array")
    y, p, w = _data(seed=2)
    kw = {"norm": "l2", "squared": True, "n_bins": 8}
    assert calibration_error(
        da.from_array(y, 100),
        da.from_array(p, 100),
        sample_weight=da.from_array(w, 100),
        **kw,
    ) == pytest.approx(calibration_error(y, p, sample_weight=w, **kw), rel=1e-12)
    rng = np.random.default_rng(3)
    P = rng.dirichlet(np.ones(3), 200)
    y3 = rng.integers(0, 3, 200)
    per = [
        calibration_error((y3 == j).astype(int), P[:, j], kind="binary", **kw)
        for j in range(3)
    ]
    got = calibration_error(y3, P, kind="classwise", **kw)
    assert got == pytest.approx(np.mean(per), rel=1e-13)


# --------------------------------------------------------------------------- scorers
def test_scorer_names_registered_only_where_sklearn_lacks_them():
    sk = set(get_scorer_names())  # after import skbrier: ours are registered
    from skbrier._sklearn_registration import registered_names

    ours = set(registered_names())
    for name, opts in SKLEARN_CALIBRATION_SCORERS.items():
        scorer = get_scorer(name)
        assert name in sk
        if name in ours:  # scikit-learn lacks it: skbrier's binary calibration error
            assert name in SCORER_NAMES
            assert scorer._kwargs["kind"] == "binary"
            assert all(scorer._kwargs[k] == v for k, v in opts.items())
        else:  # scikit-learn's own
            assert name not in SCORER_NAMES
            assert scorer._score_func.__module__.startswith("sklearn")


def test_scorers_score_a_binary_classifier():
    from sklearn.linear_model import LogisticRegression

    X = np.random.default_rng(4).normal(size=(200, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    est = LogisticRegression().fit(X, y)
    p = est.predict_proba(X)[:, 1]
    for name, opts in SKLEARN_CALIBRATION_SCORERS.items():
        if name not in SCORER_NAMES:
            continue
        got = get_scorer(name)(est, X, y)
        want = calibration_error(y, p, kind="binary", binning="sklearn", n_bins=10, **opts)
        assert got == pytest.approx(-want, rel=1e-14)


@pytest.mark.skipif(not SKLEARN_HAS_IT, reason="scikit-learn has no calibration_error yet")
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("squared", [False, True])
def test_equals_scikit_learns_calibration_error(norm, squared):  # pragma: no cover
    if squared and norm != "l2":
        pytest.skip("squared is l2 only")
    y, p, w = _data(seed=5)
    sk_ce = sklearn.metrics.calibration_error
    for kw in ({}, {"sample_weight": w}, {"n_bins": 7}, {"strategy": "quantile"}):
        want = sk_ce(y, p, norm=norm, squared=squared, **kw)
        n_bins = kw.get("n_bins", 10)
        got = calibration_error(
            y,
            p,
            norm=norm,
            squared=squared,
            kind="binary",
            binning="sklearn",
            n_bins=n_bins,
            **{k: v for k, v in kw.items() if k != "n_bins"},
        )
        assert got == want, (kw, got, want)
