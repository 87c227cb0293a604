"""One kernel per statistic: the numpy path, the Array API adapter and the
mergeable states call the same reduce and finish functions (issue 25).

The Array API cases run on array-api-strict with scikit-learn's
``array_api_dispatch`` on; a host copy is refused where the device path must
serve the call.
"""

import numpy as np
import pytest
import sklearn

import skbrier._core.dispatch as dispatch
from skbrier import brier_score, brier_skill_score, multiple_choice_brier_score
from skbrier._core.kernels.brier import BrierSums, brier_finish, brier_reduce
from skbrier._core.kernels.calibration_error import (
    bin_sums,
    calibration_finish,
    top_label_reduce,
)
from skbrier._core.kernels.multiple_choice import ChoiceSums, choice_finish
from skbrier._core.kernels.net_benefit import threshold_reduce
from skbrier.exceptions import HardForecastWarning
from skbrier.metrics.calibration_error import calibration_error
from skbrier.states import BrierState, MultipleChoiceState

xps = pytest.importorskip("array_api_strict")


@pytest.fixture
def device(monkeypatch):
    """Array API dispatch on, and no host copy of the arguments."""
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")

    def refuse(v):
        raise AssertionError("the call was sent to the host")

    monkeypatch.setattr(dispatch, "_host", refuse)
    with sklearn.config_context(array_api_dispatch=True):
        yield xps.asarray


@pytest.fixture
def data():
    rng = np.random.default_rng(3)
    n = 300
    y3 = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n)
    y = rng.integers(0, 2, n)
    p = rng.random(n)
    w = rng.integers(0, 4, n).astype(float)
    return y, p, w, y3, P


def test_multiple_choice_one_hot_warns_on_array_api(device):
    onehot = np.eye(3)[[0, 1, 2, 1]]
    with pytest.warns(HardForecastWarning, match="one-hot answers"):
        host = multiple_choice_brier_score([0, 1, 1, 1], onehot)
    with pytest.warns(HardForecastWarning, match="one-hot answers") as rec:
        got = multiple_choice_brier_score(device(np.array([0, 1, 1, 1])), device(onehot))
    assert got == pytest.approx(host, rel=1e-12)
    assert sum(r.category is HardForecastWarning for r in rec) == 1


def test_calibration_error_classwise_and_debiased_on_the_device(device, data):
    y, p, w, y3, P = data
    for kw in (
        {"kind": "classwise"},
        {"kind": "classwise", "norm": "l2", "debias": True},
        {"kind": "top_label", "norm": "l2", "debias": True},
        {"kind": "binary", "norm": "max"},
    ):
        yy, pp = (y, p) if kw["kind"] == "binary" else (y3, P)
        got = calibration_error(
            device(yy), device(pp), sample_weight=device(w), n_bins=7, **kw
        )
        with sklearn.config_context(array_api_dispatch=False):
            want = calibration_error(yy, pp, sample_weight=w, n_bins=7, **kw)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_brier_kernel_is_the_same_on_every_path(data):
    y, p, w, y3, P = data
    # numpy in one chunk, the hypotheses form per label (the states), and an
    # array namespace give the same sums and the same numbers
    whole = brier_reduce(np, y, p, w, class_weight=True)
    by_label = sum(
        (brier_reduce(np, None, p[y == c], w[y == c]).given(c) for c in (1,)),
        brier_reduce(np, None, p[y == 0], w[y == 0]).given(0),
    )
    strict = brier_reduce(xps, xps.asarray(y * 1.0), xps.asarray(p), xps.asarray(w))
    assert isinstance(whole, BrierSums)
    for s in (by_label, strict):
        assert brier_finish(s) == pytest.approx(brier_finish(whole), rel=1e-13)
    np.testing.assert_allclose(by_label.class_weight, whole.class_weight, rtol=1e-14)
    state = BrierState().update(y, p, w)
    assert state.finalize() == pytest.approx(brier_score(y, p, sample_weight=w), rel=1e-13)
    assert state.skill() == pytest.approx(
        brier_skill_score(y, p, sample_weight=w), rel=1e-12
    )


def test_top_label_reduce_reads_blocks_like_the_whole(data, monkeypatch):
    import skbrier._core.kernels.calibration_error as ce

    y, p, w, y3, P = data
    edges = np.linspace(0, 1, 6)

    def bins(c):
        return ce.assign_bins(c, edges)

    whole = top_label_reduce(np, P, y3, w, bins, 5)
    monkeypatch.setattr(ce, "_TOP_BLOCK", 9)  # blocks of 3 rows
    blocks = top_label_reduce(np, P, y3, w, bins, 5)
    conf, correct = ce.top_label(np, P, y3)
    ref = bin_sums(np, bins(conf), conf, correct, w, 5)
    for a, b in zip((whole, blocks), (ref, ref)):
        np.testing.assert_allclose(a.wsum, b.wsum, rtol=1e-14)
        np.testing.assert_allclose(a.psum, b.psum, rtol=1e-14)
        np.testing.assert_allclose(a.ysum, b.ysum, rtol=1e-14)
    assert calibration_finish([blocks], "l1") == pytest.approx(
        calibration_error(y3, P, sample_weight=w, n_bins=5), rel=1e-13
    )


def test_threshold_and_choice_sums_merge_as_the_concatenation(data):
    y, p, w, y3, P = data
    t = np.array([0.1, 0.4, 0.8])
    whole = threshold_reduce(np, y * 1.0, p, w, t)
    parts = threshold_reduce(np, y[:100] * 1.0, p[:100], w[:100], t) + threshold_reduce(
        np, y[100:] * 1.0, p[100:], w[100:], t
    )
    for f in ("fn", "tp", "tn", "fp"):
        np.testing.assert_allclose(getattr(parts, f), getattr(whole, f), rtol=1e-14)
    a = MultipleChoiceState().update(y3[:50], P[:50], w[:50] * 1e200)
    b = MultipleChoiceState().update(y3[50:], P[50:], w[50:] * 1e200)
    assert isinstance(a.sums, ChoiceSums)
    assert choice_finish(a.merge(b).sums) == pytest.approx(
        multiple_choice_brier_score(y3, P, sample_weight=w), rel=1e-13
    )


def test_top_label_matrix_is_read_once(monkeypatch):
    # the validation's one pass over a large matrix also takes the top labels
    import skbrier._core.kernels.calibration_error as ce
    from skbrier.metrics._calibration_error_core import check_options, top_label_pass

    rng = np.random.default_rng(5)
    n, k = 6000, 10
    P = rng.dirichlet(np.ones(k), n)
    y = rng.integers(0, k, n)
    o = check_options("l1", 15, "uniform", None, False, True)
    seen = top_label_pass(P, "top_label", o)
    reads = []
    real = ce._top_blocks
    monkeypatch.setattr(ce, "_top_blocks", lambda p: reads.append(1) or real(p))
    got = calibration_error(y, P)
    assert reads == []  # the kernel did not read the matrix again
    monkeypatch.setattr(ce, "_TOP_BLOCK", 1 << 20)
    want = calibration_finish(
        [
            top_label_reduce(
                np, P, y, None, lambda c: ce.assign_bins(c, np.linspace(0, 1, 16)), 15
            )
        ],
        "l1",
    )
    assert reads == [1]
    assert got == pytest.approx(want, rel=1e-13)
    assert seen is not None and seen.rows == 0
