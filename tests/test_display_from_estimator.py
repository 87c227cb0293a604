"""The ``from_estimator`` of a Display computes the forecasts and forwards every
other option to ``from_predictions`` (issue 25): the options are listed, and
checked, in one place.
"""

import inspect

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from skbrier.plotting import (
    CalibrationCurveDisplay,
    DecisionCurveDisplay,
    ReliabilityDisplay,
    RiskCoverageDisplay,
)
from skbrier.plotting._multiclass_reliability import MulticlassReliabilityDisplay

DISPLAYS = [
    CalibrationCurveDisplay,
    DecisionCurveDisplay,
    ReliabilityDisplay,
    RiskCoverageDisplay,
]

#: what from_estimator needs itself to compute the forecasts (or to name them)
OWN = {"estimator", "X", "y", "sample_weight", "pos_label", "name", "ax", "kwargs"}


def teardown_function():
    plt.close("all")


def _binary(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(int)
    return X, y, LogisticRegression().fit(X, y)


@pytest.mark.parametrize("display", DISPLAYS, ids=lambda d: d.__name__)
def test_from_estimator_lists_no_option_of_from_predictions(display):
    params = inspect.signature(display.from_estimator).parameters
    assert set(params) <= OWN, sorted(set(params) - OWN)
    assert params["kwargs"].kind is inspect.Parameter.VAR_KEYWORD
    doc = inspect.getdoc(display.from_estimator)
    assert "every other keyword argument of :meth:`from_predictions`" in " ".join(
        doc.lower().split()
    )


def test_decision_curve_options_are_forwarded():
    X, y, clf = _binary()
    opts = {"thresholds": [0.2, 0.4], "harm": 0.01, "curve": "net_intervention_avoided"}
    disp = DecisionCurveDisplay.from_estimator(clf, X, y, **opts)
    ref = DecisionCurveDisplay.from_predictions(
        y, {"LogisticRegression": clf.predict_proba(X)[:, 1]}, **opts
    )
    assert disp.curve_ == "net_intervention_avoided"
    np.testing.assert_array_equal(
        disp.lines_["LogisticRegression"].get_ydata(),
        ref.lines_["LogisticRegression"].get_ydata(),
    )
    with pytest.raises(TypeError, match="n_bins"):
        DecisionCurveDisplay.from_estimator(clf, X, y, n_bins=3)


def test_risk_coverage_options_are_forwarded():
    X, y, clf = _binary()
    disp = RiskCoverageDisplay.from_estimator(
        clf, X, y, n_resamples=20, random_state=0, curve="accuracy"
    )
    proba = clf.predict_proba(X)
    ref = RiskCoverageDisplay.from_predictions(
        clf.classes_[proba.argmax(1)] == y, proba.max(1), n_resamples=20,
        random_state=0, curve="accuracy", name="LogisticRegression",
    )  # fmt: skip
    assert disp.line_.get_label() == ref.line_.get_label()
    np.testing.assert_array_equal(disp.band.low, ref.band.low)


def test_reliability_labels_are_the_classifiers_classes():
    # the rows drawn lack class "c": the columns are still the classifier's
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = np.array(["a", "b", "c"])[np.argmax(X + rng.normal(size=(300, 3)), axis=1)]
    clf = LogisticRegression().fit(X, y)
    rows = y != "c"
    proba = clf.predict_proba(X[rows])
    disp = ReliabilityDisplay.from_estimator(
        clf, X[rows], y[rows], multiclass="one_vs_rest", n_resamples=0
    )
    ref = ReliabilityDisplay.from_predictions(
        y[rows], proba, labels=clf.classes_, multiclass="one_vs_rest", n_resamples=0
    )
    assert [ln.get_label() for ln in disp.lines_] == ["a", "b", "c"]
    assert [ln.get_label() for ln in ref.lines_] == ["a", "b", "c"]
    top = ReliabilityDisplay.from_predictions(
        y[rows], proba, labels=clf.classes_, n_bins=5, strategy="uniform"
    )
    assert isinstance(top, MulticlassReliabilityDisplay)
    assert (
        top.ece
        == ReliabilityDisplay.from_estimator(
            clf, X[rows], y[rows], n_bins=5, strategy="uniform"
        ).ece
    )
