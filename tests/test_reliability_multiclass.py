"""ReliabilityDisplay on three or more classes: top-label and classwise diagrams.

The bars are checked against the bins computed by hand here (numpy
``digitize`` on equal-width edges) and the legend's ECE against
``calibration_error``, whose numbers are tested against torchmetrics,
netcal and the calibration package in tests/test_calibration_error*.py.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from skbrier import calibration_error
from skbrier.plotting._multiclass_reliability import MulticlassReliabilityDisplay
from skbrier.plotting.reliability import ReliabilityDisplay


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _data(n=400, k=4, seed=0):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.ones(k), size=n)
    y = np.array([rng.choice(k, p=row) for row in proba])
    return y, proba


def _by_hand(p, hit, n_bins):
    """Mean confidence, accuracy and share of each non-empty equal-width bin."""
    idx = np.clip(np.ceil(p * n_bins).astype(int) - 1, 0, n_bins - 1)
    conf, acc, share = [], [], []
    for b in range(n_bins):
        m = idx == b
        if m.any():
            conf.append(p[m].mean())
            acc.append(hit[m].mean())
            share.append(m.mean())
    return np.array(conf), np.array(acc), np.array(share)


def _bars(disp):
    xs = np.array([r.get_x() + r.get_width() / 2 for r in disp.bars_])
    hs = np.array([r.get_height() for r in disp.bars_])
    return xs, hs


def test_top_label_is_default_and_bars_match_bins():
    y, proba = _data()
    disp = ReliabilityDisplay.from_predictions(y, proba, n_bins=10, strategy="uniform")
    assert isinstance(disp, MulticlassReliabilityDisplay)
    assert disp.kind == "top_label"
    conf, acc, share = _by_hand(proba.max(1), (proba.argmax(1) == y) * 1.0, 10)
    xs, hs = _bars(disp)
    np.testing.assert_allclose(xs, conf, rtol=1e-12)
    np.testing.assert_allclose(hs, acc, rtol=1e-12)
    np.testing.assert_allclose(disp.weight, share, rtol=1e-12)
    # one shaded gap per bar, from the bar top to the diagonal
    assert len(disp.gap_) == len(disp.bars_)
    for poly, c, a in zip(disp.gap_, conf, acc):
        ys = sorted({round(v, 12) for v in poly.get_xy()[:, 1]})
        assert ys == sorted({round(a, 12), round(c, 12)})
    ece = calibration_error(y, proba, n_bins=10)
    assert disp.ece == pytest.approx(ece, rel=1e-12)
    texts = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert f"ECE {ece:.3f}" in texts
    assert disp.ax_.get_xlabel() == "confidence"
    assert disp.ax_.get_ylabel() == "accuracy"


def test_classwise_bars_per_class():
    y, proba = _data(k=3, seed=1)
    disp = ReliabilityDisplay.from_predictions(
        y, proba, n_bins=5, strategy="uniform", multiclass="classwise", name="m"
    )
    assert disp.kind == "classwise"
    conf, acc = [], []
    for j in range(3):
        c, a, _ = _by_hand(proba[:, j], (y == j) * 1.0, 5)
        conf.append(c)
        acc.append(a)
    xs, hs = _bars(disp)
    np.testing.assert_allclose(xs, np.concatenate(conf), rtol=1e-12)
    np.testing.assert_allclose(hs, np.concatenate(acc), rtol=1e-12)
    ece = calibration_error(y, proba, kind="classwise", n_bins=5)
    assert disp.ece == pytest.approx(ece, rel=1e-12)
    assert disp.ax_.get_xlabel() == "predicted probability"
    texts = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert f"m: ECE {ece:.3f}" in texts


def test_quantile_bins_and_weights_follow_calibration_error():
    y, proba = _data(n=300, k=3, seed=2)
    w = np.random.default_rng(3).integers(0, 4, size=300)
    disp = ReliabilityDisplay.from_predictions(
        y, proba, n_bins=6, strategy="quantile", sample_weight=w
    )
    ece = calibration_error(y, proba, n_bins=6, strategy="quantile", sample_weight=w)
    assert disp.ece == pytest.approx(ece, rel=1e-12)
    # integer weights equal repeated rows
    rep = ReliabilityDisplay.from_predictions(
        np.repeat(y, w), np.repeat(proba, w, axis=0), n_bins=10
    )
    wtd = ReliabilityDisplay.from_predictions(y, proba, n_bins=10, sample_weight=w)
    np.testing.assert_allclose(_bars(rep)[1], _bars(wtd)[1], rtol=1e-12)
    np.testing.assert_allclose(rep.weight, wtd.weight, rtol=1e-12)


def test_from_estimator_multiclass():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = np.array(["a", "b", "c"])[np.argmax(X + rng.normal(size=(300, 3)), axis=1)]
    clf = LogisticRegression().fit(X[:150], y[:150])
    _fig, ax = plt.subplots()
    disp = ReliabilityDisplay.from_estimator(
        clf, X[150:], y[150:], n_bins=8, strategy="uniform", ax=ax
    )
    assert isinstance(disp, MulticlassReliabilityDisplay) and disp.ax_ is ax
    assert disp.name == "LogisticRegression"
    proba = clf.predict_proba(X[150:])
    assert disp.ece == pytest.approx(
        calibration_error(y[150:], proba, n_bins=8, labels=clf.classes_), rel=1e-12
    )
    ovr = ReliabilityDisplay.from_estimator(
        clf, X[150:], y[150:], n_resamples=0, multiclass="one_vs_rest"
    )
    assert [ln.get_label() for ln in ovr.lines_] == ["a", "b", "c"]


def test_binary_and_models_unchanged():
    y, proba = _data(k=3)
    yb = (y == 0).astype(int)
    pb = proba[:, 0]
    for multiclass in ("top_label", "classwise", "one_vs_rest"):
        disp = ReliabilityDisplay.from_predictions(
            yb, pb, n_resamples=0, multiclass=multiclass
        )
        assert isinstance(disp, ReliabilityDisplay) and len(disp.lines_) == 1
    two = np.column_stack([1 - pb, pb])
    disp = ReliabilityDisplay.from_predictions(yb, two, n_resamples=0)
    assert isinstance(disp, ReliabilityDisplay)
    disp = ReliabilityDisplay.from_predictions(
        yb, {"a": pb, "b": np.clip(pb + 0.1, 0, 1)}, n_resamples=0
    )
    assert [ln.get_label() for ln in disp.lines_] == ["a", "b"]


def test_bad_multiclass_options():
    y, proba = _data(n=60, k=3)
    with pytest.raises(ValueError, match="multiclass"):
        ReliabilityDisplay.from_predictions(y, proba, multiclass="ovr")
    with pytest.raises(TypeError, match="multiclass"):
        ReliabilityDisplay.from_predictions(y, proba, multiclass=None)
    with pytest.raises(ValueError, match="multiclass"):
        ReliabilityDisplay.from_predictions(y == 0, proba[:, 0], multiclass="x")
    with pytest.raises(ValueError, match="multiclass"):
        ReliabilityDisplay.from_predictions(y == 0, {"a": proba[:, 0]}, multiclass="x")
    with pytest.raises(TypeError, match="plot options"):
        ReliabilityDisplay.from_predictions(y, proba, hist=False)
    with pytest.raises(ValueError, match="n_bins"):
        ReliabilityDisplay.from_predictions(y, proba, n_bins=0)
