"""The fast kernels of the report against their plain definitions."""

import numpy as np
import pytest

from skbrier._core.kernels.calibration import auc_delong
from skbrier._core.kernels.logistic import gradient, logistic_sums
from skbrier._core.kernels.lowess import stable_argsort


@pytest.mark.parametrize("ties", [False, True])
def test_stable_argsort_equals_numpy_stable(ties):
    rng = np.random.default_rng(0)
    for n in (0, 1, 2, 50, 20_000):
        x = rng.random(n)
        if ties:
            x = np.round(x, 2)
            x[: n // 10] = 0.5
        x[: min(n, 3)] = [0.0, -0.0, 0.0][: min(n, 3)]
        rng.shuffle(x)
        assert np.array_equal(stable_argsort(x), np.argsort(x, kind="stable"))


@pytest.mark.parametrize("weighted", [False, True])
def test_logistic_sums_equal_plain_formulas(weighted):
    rng = np.random.default_rng(1)
    n = 20_011  # several blocks and a short last one
    lg = 3.0 * rng.standard_normal(n)
    lg[:4] = [-40.0, 40.0, 0.0, -0.0]
    y = (rng.random(n) < 0.3).astype(float)
    w = rng.random(n) if weighted else None
    b0, b1, c = -0.3, 0.8, 0.2
    x = lg - c
    eta = b0 + b1 * x
    mu = 1.0 / (1.0 + np.exp(-eta))
    ww = np.ones(n) if w is None else w
    r, v = y - mu, mu * (1.0 - mu)
    ll = np.sum(ww * (y * eta - np.logaddexp(0.0, eta)))
    ref = [
        ll,
        np.sum(ww * r),
        np.sum(ww * r * x),
        np.sum(np.abs(ww * r)),
        np.sum(np.abs(ww * r * x)),
        np.sum(ww * v),
        np.sum(ww * v * x),
        np.sum(ww * v * x * x),
    ]
    got = logistic_sums(y, lg, w, b0, b1, c, flag=True)
    # the gradient is kept in two parts (whole-number and small) and read once
    sums = np.concatenate([[got[0]], gradient(got), got[3:8]])
    np.testing.assert_allclose(sums, ref, rtol=1e-12)
    assert got[8] == 0.0
    # residuals near 0 and 1 keep their relative accuracy
    big = logistic_sums(np.array([1.0, 0.0]), np.array([40.0, -40.0]), None, 0.0, 1.0)
    np.testing.assert_allclose(big[1], 0.0, atol=1e-300)
    np.testing.assert_allclose(
        big[3], 2.0 * np.exp(-40.0) / (1 + np.exp(-40.0)), rtol=1e-14
    )
    flagged = logistic_sums(
        np.array([1.0, 0.0]), np.array([1.0, -1.0]), None, 0.0, 50.0, flag=True
    )
    assert flagged[8] == 1.0


def test_auc_delong_sorted_input_same_numbers():
    rng = np.random.default_rng(2)
    p = np.round(rng.random(5000), 3)
    y = (rng.random(5000) < p).astype(float)
    o = np.argsort(p, kind="stable")
    assert auc_delong(y, p, None, sorted_yp=(y[o], p[o])) == auc_delong(y, p, None)
    c, v = auc_delong(y, p, np.ones(5000))
    c1, v1 = auc_delong(y, p, None)
    assert c == pytest.approx(c1, rel=1e-14) and v == pytest.approx(v1, rel=1e-12)
