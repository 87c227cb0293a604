"""RiskCoverageDisplay: from_predictions / from_estimator / from_result / plot."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from skbrier import RiskCoverageDisplay  # noqa: E402
from skbrier.metrics.selective import aurc, risk_coverage_curve  # noqa: E402

# numpy < 2.0 has only np.trapz
_trapezoid = getattr(np, "trapezoid", None) or np.trapz


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    c = rng.uniform(size=n)
    return (rng.uniform(size=n) < c).astype(int), c


def test_the_line_is_the_curve_whose_area_is_the_aurc():
    y, c = _data()
    disp = RiskCoverageDisplay.from_predictions(y, c, name="m")
    x, r = disp.line_.get_data()
    assert x[0] == 0.0 and r[0] == r[1]
    assert _trapezoid(r, x) == pytest.approx(aurc(y, c), abs=1e-14)
    assert disp.line_.get_label() == f"m (AURC = {aurc(y, c):.3f})"
    assert disp.band_ is None
    assert disp.ax_.get_ylabel() == "Selective risk"


def test_bands_and_accuracy_kind():
    y, c = _data(300, 1)
    res = risk_coverage_curve(y, c, n_resamples=50, random_state=0)
    disp = RiskCoverageDisplay.from_result(res, curve="accuracy", band_alpha=0.3)
    assert disp.band_ is not None and disp.result is res
    _, acc = disp.line_.get_data()
    np.testing.assert_allclose(acc[1:], 1 - res.selective_risk)
    assert disp.ax_.get_ylabel() == "Accuracy of the answered"
    # overlay a second model on the same axes
    y2, c2 = _data(300, 2)
    other = RiskCoverageDisplay.from_predictions(y2, c2, ax=disp.ax_, name="b", color="red")
    assert other.ax_ is disp.ax_ and len(disp.ax_.get_lines()) == 2
    with pytest.raises(ValueError, match="^curve"):
        disp.plot(curve="roc")
    with pytest.raises(TypeError, match="^result must be a RiskCoverageResult"):
        RiskCoverageDisplay.from_result(object())


def test_from_estimator_uses_the_top_label():
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression

    X, y = load_iris(return_X_y=True)
    clf = LogisticRegression(max_iter=500).fit(X[::2], y[::2])
    disp = RiskCoverageDisplay.from_estimator(clf, X[1::2], y[1::2])
    proba = clf.predict_proba(X[1::2])
    right = clf.predict(X[1::2]) == y[1::2]
    assert disp.aurc == pytest.approx(aurc(right, proba.max(axis=1)))
    assert disp.line_.get_label().startswith("LogisticRegression")
    with pytest.raises(ValueError, match="^y must hold one label per row"):
        RiskCoverageDisplay.from_estimator(clf, X[1::2], y[:3])
