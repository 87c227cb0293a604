"""Tests of skbrier.stats.long_run_covariance against R sandwich::lrvar fixtures.

The fixtures are produced by ``tests/fixtures/make_lrvar_fixtures.R`` (R 4.2,
sandwich 3.0-2) and committed, so the tests do not need R.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from skbrier.stats.long_run_covariance import long_run_covariance

FIXTURES = Path(__file__).parent / "fixtures" / "lrvar_fixtures.json"
_DATA = json.loads(FIXTURES.read_text())
_DATASETS = {
    name: np.array(rows, dtype=np.float64) for name, rows in _DATA["datasets"].items()
}


def _case_id(case):
    return (
        f"{case['data']}-{case['kernel']}-{case['bandwidth']}"
        f"-pw{int(case['prewhite'])}-adj{int(case['adjust'])}"
    )


def _is_degenerate(case):
    """Cases where R returns a number made of rounding errors; skbrier raises."""
    x = _DATASETS[case["data"]]
    n_rows = x.shape[0] - int(case["prewhite"])
    k = x.shape[1]
    # the prewhitening VAR fits exactly (as many rows as coefficients): residuals 0
    exact_var = case["prewhite"] and n_rows <= k * int(case["prewhite"])
    # Andrews AR(1) fits (2 coefficients) on n - 1 <= 2 points: the fit is exact,
    # the bandwidth not identified (issue item 13: refused for every k)
    exact_ar1 = case["bandwidth"] == "andrews" and n_rows < 4
    return bool(exact_var or exact_ar1)


_OK = [c for c in _DATA["cases"] if c["r_error"] is None and not _is_degenerate(c)]
_FAIL = [c for c in _DATA["cases"] if c["r_error"] is not None or _is_degenerate(c)]


def _call(case, x=None):
    x = _DATASETS[case["data"]] if x is None else x
    return long_run_covariance(
        x,
        kernel=case["kernel"],
        bandwidth=case["bandwidth"],
        prewhite=case["prewhite"],
        adjust=case["adjust"],
    )


def test_fixture_metadata():
    assert _DATA["sandwich_version"] == "3.0.2"
    assert len(_OK) > 500
    assert len(_FAIL) > 10


@pytest.mark.parametrize("case", _OK, ids=_case_id)
def test_matches_r_lrvar(case):
    expected = np.array(case["expected"], dtype=np.float64)
    got = _call(case)
    assert got.shape == expected.shape
    # 1e-8 relative; off-diagonal entries close to 0 are compared relative to the
    # scale of the matrix (sqrt of the diagonal products).
    scale = np.sqrt(np.outer(np.diag(expected), np.diag(expected)))
    np.testing.assert_array_less(
        np.abs(got - expected), 1e-8 * np.maximum(np.abs(expected), 1e-4 * scale) + 1e-300
    )
    np.testing.assert_allclose(got, got.T, rtol=0, atol=0)


@pytest.mark.parametrize("case", _FAIL, ids=_case_id)
def test_raises_where_r_fails(case):
    with pytest.raises(ValueError):
        _call(case)


def test_one_dimensional_input_is_one_column():
    x = _DATASETS["ar05_T200_k1"]
    np.testing.assert_array_equal(long_run_covariance(x[:, 0]), long_run_covariance(x))
    assert long_run_covariance(x[:, 0]).shape == (1, 1)


def test_list_and_int_input():
    x = [1, 3, 2, 5, 4, 4, 7, 6, 9, 8]
    a = long_run_covariance(x)
    b = long_run_covariance(np.array(x, dtype=float))
    np.testing.assert_array_equal(a, b)


def test_r_kernel_spellings_and_bandwidth_spellings():
    x = _DATASETS["ar05_T200_k2"]
    ref = long_run_covariance(x, kernel="tukey_hanning")
    np.testing.assert_array_equal(long_run_covariance(x, kernel="Tukey-Hanning"), ref)
    ref = long_run_covariance(x, kernel="bartlett", bandwidth="newey-west")
    for spelling in ("Newey-West", "newey_west", "NeweyWest"):
        np.testing.assert_array_equal(
            long_run_covariance(x, kernel="Bartlett", bandwidth=spelling), ref
        )


def test_scale_equivariance():
    # Var of means of c * x is c^2 times that of x for a common scalar c (the
    # Andrews bandwidth weights columns by sigma^4, so only a common scale is free).
    x = _DATASETS["brier_T200_rho05_pi01"]
    np.testing.assert_allclose(
        long_run_covariance(x * 3.0), long_run_covariance(x) * 9.0, rtol=1e-10
    )


def test_column_permutation_equivariance():
    x = _DATASETS["ar09_T200_k3"]
    perm = [2, 0, 1]
    np.testing.assert_allclose(
        long_run_covariance(x[:, perm]),
        long_run_covariance(x)[np.ix_(perm, perm)],
        rtol=1e-10,
    )


def test_shift_invariance():
    x = _DATASETS["ar09_T200_k3"]
    np.testing.assert_allclose(
        long_run_covariance(x + 100.0), long_run_covariance(x), rtol=1e-8
    )


def test_fft_and_direct_paths_agree():
    from skbrier._core.kernels.hac import weighted_autocovariance_sum

    rng = np.random.default_rng(0)
    u = rng.standard_normal((3000, 2))
    w = np.exp(-np.arange(2500) / 300.0)  # long: FFT path
    direct = w[0] / 2 * (u.T @ u)
    for j in range(1, len(w)):
        direct += w[j] * (u[: len(u) - j].T @ u[j:])
    direct = direct + direct.T
    np.testing.assert_allclose(
        weighted_autocovariance_sum(u.T.copy(), w), direct, rtol=1e-11
    )


def test_large_t_runs_and_is_sane():
    rng = np.random.default_rng(1)
    e = rng.standard_normal((20000, 2))
    x = e.copy()
    for t in range(1, len(x)):  # cheap enough at 2e4
        x[t] = 0.5 * x[t - 1] + e[t]
    v = long_run_covariance(x)
    # true long-run variance of an AR(1) with rho = 0.5: 1 / (1 - rho)^2 = 4
    np.testing.assert_allclose(np.diag(v) * len(x), 4.0, rtol=0.15)
    assert abs(v[0, 1]) * len(x) < 0.5


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "x, match",
    [
        ([1.0, 2.0], "at least 3"),
        ([[1.0, 2.0]], "at least 3"),
        ([], "at least 3"),
        ([1.0, np.nan, 2.0, 3.0, 1.0], "NaN"),
        ([1.0, np.inf, 2.0, 3.0, 1.0], "infinity"),
        ([1.0, 1.0, 1.0, 1.0, 1.0], "constant"),
        (np.column_stack([np.arange(10.0), np.ones(10)]), "constant"),
        (np.zeros((5, 2, 2)), "1-D or 2-D"),
        (3.0, "1-D or 2-D"),
        (["a", "b", "c", "d"], "numeric"),
        (np.array([1, 2, None, 4], dtype=object), "numeric"),
        (np.arange(1.0, 5.0)[:, None] * np.ones((1, 0)), "no columns"),
    ],
)
def test_bad_x(x, match):
    with pytest.raises(ValueError, match=match) as info:
        long_run_covariance(x)
    assert str(info.value).startswith("x ")


def test_object_array_of_numbers_is_read_as_numbers():
    # as scikit-learn reads it: an object array holding only numbers is numeric
    x = np.random.default_rng(1).standard_normal(30)
    np.testing.assert_array_equal(
        long_run_covariance(x.astype(object)), long_run_covariance(x)
    )


def test_too_few_rows_for_prewhitening():
    x = np.random.default_rng(0).standard_normal((3, 2))
    # R returns ~1e-32 here (exact VAR fit, zero residuals); we refuse
    with pytest.raises(ValueError, match="prewhite"):
        long_run_covariance(x, bandwidth="newey-west", kernel="bartlett")
    # without prewhitening R and skbrier both work
    long_run_covariance(x, bandwidth="newey-west", kernel="bartlett", prewhite=False)
    # the Andrews AR(1) fits need 4 rows with several columns
    with pytest.raises(ValueError, match="4"):
        long_run_covariance(x, prewhite=False)


def test_adjust_needs_more_rows_than_columns():
    x = np.random.default_rng(0).standard_normal((4, 4))
    with pytest.raises(ValueError, match="adjust"):
        long_run_covariance(x, prewhite=False)


def test_singular_prewhitening_raises():
    # Collinear columns: singular VAR cross-product (R: "VAR(1) prewhitening ... failed")
    z = _DATASETS["ar05_T200_k1"][:, 0]
    with pytest.raises(ValueError, match="VAR"):
        long_run_covariance(np.column_stack([z, 2 * z - 1]))
    # ... works without prewhitening (as in R)
    long_run_covariance(np.column_stack([z, 2 * z - 1]), prewhite=False)


@pytest.mark.parametrize("k", [1, 2])
def test_unit_root_prewhitening_raises(monkeypatch, k):
    # A fitted VAR with a unit root (I - A singular) cannot be recoloured; no exact
    # real data produce it, so the fit is replaced by one returning A = I.
    from skbrier._core.kernels import hac as _hac

    real = _hac.var_prewhiten

    def unit_root(u, order):
        resid, _ = real(u, order)
        return resid, np.eye(u.shape[0])

    monkeypatch.setattr(_hac, "var_prewhiten", unit_root)
    x = _DATASETS["ar05_T200_k2"][:, :k]
    with pytest.raises(ValueError, match="unit root"):
        long_run_covariance(x)
    long_run_covariance(x, prewhite=False)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"kernel": "gaussian"}, ValueError, "kernel"),
        ({"kernel": 3}, TypeError, "kernel"),
        ({"bandwidth": "silverman"}, ValueError, "bandwidth"),
        ({"bandwidth": 0.0}, ValueError, "bandwidth"),
        ({"bandwidth": -1}, ValueError, "bandwidth"),
        ({"bandwidth": np.nan}, ValueError, "bandwidth"),
        ({"bandwidth": np.inf}, ValueError, "bandwidth"),
        ({"bandwidth": True}, TypeError, "bandwidth"),
        ({"bandwidth": None}, TypeError, "bandwidth"),
        ({"bandwidth": "newey-west", "kernel": "truncated"}, ValueError, "newey-west"),
        ({"bandwidth": "newey-west", "kernel": "tukey_hanning"}, ValueError, "newey-west"),
        ({"prewhite": -1}, ValueError, "prewhite"),
        ({"prewhite": 1.5}, TypeError, "prewhite"),
        ({"prewhite": 60}, ValueError, "prewhite"),
        ({"adjust": "yes"}, TypeError, "adjust"),
    ],
)
def test_bad_options(kwargs, error, match):
    x = _DATASETS["ar05_T50_k1"]
    with pytest.raises(error, match=match):
        long_run_covariance(x, **kwargs)


def test_keyword_only():
    with pytest.raises(TypeError):
        long_run_covariance(_DATASETS["ar05_T50_k1"], "bartlett")


def test_pandas_dataframe_input():
    pd = pytest.importorskip("pandas")
    x = _DATASETS["ar05_T200_k2"]
    df = pd.DataFrame(x, columns=["bs", "bs0"])
    np.testing.assert_array_equal(long_run_covariance(df), long_run_covariance(x))
    np.testing.assert_array_equal(
        long_run_covariance(df["bs"]), long_run_covariance(x[:, 0])
    )


def test_fortran_and_strided_input():
    x = _DATASETS["ar05_T200_k2"]
    ref = long_run_covariance(x)
    np.testing.assert_array_equal(long_run_covariance(np.asfortranarray(x)), ref)
    wide = np.repeat(x, 2, axis=1)[:, ::2]  # non-contiguous view
    np.testing.assert_array_equal(long_run_covariance(wide), ref)


# ------------------------------------------------------------ properties
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings
from hypothesis import strategies as st


@st.composite
def _series(draw):
    t_obs = draw(st.integers(min_value=12, max_value=80))
    k = draw(st.integers(min_value=1, max_value=3))
    rho = draw(st.floats(min_value=-0.8, max_value=0.95))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    rng = np.random.default_rng(seed)
    e = rng.standard_normal((t_obs, k))
    x = e.copy()
    for t in range(1, t_obs):
        x[t] = rho * x[t - 1] + e[t]
    return x


@settings(max_examples=60, deadline=None)
@given(
    x=_series(),
    kernel=st.sampled_from(["quadratic_spectral", "bartlett", "parzen"]),
    bandwidth=st.sampled_from(["andrews", "newey-west", 1.5]),
    prewhite=st.booleans(),
)
def test_psd_symmetric_shift_invariant(x, kernel, bandwidth, prewhite):
    # QS, Bartlett and Parzen weights give positive semi-definite estimates.
    v = long_run_covariance(x, kernel=kernel, bandwidth=bandwidth, prewhite=prewhite)
    assert v.shape == (x.shape[1], x.shape[1])
    np.testing.assert_array_equal(v, v.T)
    eig = np.linalg.eigvalsh(v)
    assert eig.min() >= -1e-10 * max(eig.max(), 1e-300)
    shifted = long_run_covariance(
        x + 7.0, kernel=kernel, bandwidth=bandwidth, prewhite=prewhite
    )
    np.testing.assert_allclose(shifted, v, rtol=1e-7, atol=1e-12 * np.abs(v).max())


def test_coverage_of_mean_intervals_ar1():
    # Small Monte Carlo: 95 % intervals for the mean of an AR(1) (rho = 0.5,
    # T = 200) cover ~93 % with the HAC variance and ~75 % with the iid one.
    from scipy.signal import lfilter

    rng = np.random.default_rng(2024)
    reps, t_obs, rho = 300, 200, 0.5
    e = rng.standard_normal((reps, t_obs))
    e[:, 0] /= np.sqrt(1 - rho**2)  # stationary start
    x = lfilter([1.0], [1.0, -rho], e, axis=1)
    hac = iid = 0
    for row in x:
        m = row.mean()
        hac += abs(m) <= 1.96 * np.sqrt(long_run_covariance(row)[0, 0])
        iid += abs(m) <= 1.96 * np.sqrt(row.var(ddof=1) / t_obs)
    assert 0.88 <= hac / reps <= 0.98
    assert iid / reps <= 0.85


@pytest.mark.parametrize("n, prewhite", [(5, 2), (4, 1), (3, False), (6, 3)])
def test_andrews_bandwidth_not_identified_is_refused(n, prewhite):
    # issue item 13: a two-point AR(1) fit (R returns a number) is refused
    x = np.array([1.0, 3, 2, 5, 4, 7, 3, 8, 2, 9])[:n]
    name = "prewhite" if prewhite else "x"
    with pytest.raises(ValueError, match=f"^{name}"):
        long_run_covariance(x, prewhite=prewhite)
    # one more row is identified (R: lrvar gives the same number)
    long_run_covariance(
        np.array([1.0, 3, 2, 5, 4, 7, 3, 8, 2, 9])[: n + 1], prewhite=prewhite
    )
    # a numeric bandwidth needs no AR(1) fit
    if not prewhite:
        long_run_covariance(x, prewhite=False, bandwidth=1.5)


def test_identified_short_series_match_r():
    # R: lrvar(c(1,3,2,5,4,7), prewhite = 2) and lrvar(c(1,3,2,5,4,7,3), prewhite = 2)
    x = np.array([1.0, 3, 2, 5, 4, 7, 3])
    np.testing.assert_allclose(
        long_run_covariance(x[:6], prewhite=2), [[2.3996073]], rtol=1e-7
    )
    np.testing.assert_allclose(long_run_covariance(x, prewhite=2), [[1.4836644]], rtol=1e-7)
