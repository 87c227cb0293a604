"""Bootstrap: index schemes, exact bootstrap moments, scipy agreement, reproducibility."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest
import scipy.stats

from skbrier.stats.bootstrap import (
    block_bootstrap,
    bootstrap_indices,
    default_block_length,
    prepare_frequency_weights,
)
from skbrier.stats.inference import brier_inference

FIXTURES = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "brier_ci_fixtures.json").read_text()
)
CASES = {c["name"]: c for c in FIXTURES["cases"]}


def ar1(n, rho, seed):
    rng = np.random.default_rng(seed)
    e = rng.normal(size=n)
    x = np.empty(n)
    x[0] = e[0] / np.sqrt(1 - rho**2)
    for t in range(1, n):
        x[t] = rho * x[t - 1] + e[t]
    return x


def circular_autocov(x):
    c = x - x.mean()
    f = np.fft.rfft(c)
    return np.fft.irfft(f * np.conj(f), n=x.shape[0]) / x.shape[0]


# ---------------------------------------------------------------------------
# indices
# ---------------------------------------------------------------------------
def test_index_schemes_structure():
    n, L = 103, 7
    mb = bootstrap_indices(n, 50, bootstrap="moving_block", block_length=L, random_state=0)
    assert mb.shape == (50, n) and mb.min() >= 0 and mb.max() < n
    blocks = mb[:, : (n // L) * L].reshape(50, -1, L)
    assert (np.diff(blocks, axis=2) == 1).all()  # consecutive, no wrap
    cb = bootstrap_indices(
        n, 50, bootstrap="circular_block", block_length=L, random_state=0
    )
    blocks = cb[:, : (n // L) * L].reshape(50, -1, L)
    assert (np.diff(blocks, axis=2) % n == 1).all()  # consecutive modulo n
    assert (cb == 0).any() and (cb == n - 1).any()
    st = bootstrap_indices(n, 2000, bootstrap="stationary", block_length=L, random_state=0)
    breaks = np.mean(np.diff(st, axis=1) % n != 1)
    assert breaks == pytest.approx(1 / L, rel=0.05)  # geometric blocks with mean L
    iid = bootstrap_indices(n, 2000, bootstrap="iid", random_state=0)
    assert np.bincount(iid.ravel(), minlength=n).min() > 0


def test_default_block_length():
    assert default_block_length(8) == 2
    assert default_block_length(1000) == 10
    assert default_block_length(2) == 1


def test_indices_reproducible_and_random_state_types():
    a = bootstrap_indices(50, 5, bootstrap="stationary", random_state=3)
    b = bootstrap_indices(50, 5, bootstrap="stationary", random_state=3)
    np.testing.assert_array_equal(a, b)
    c = bootstrap_indices(50, 5, bootstrap="stationary", random_state=4)
    assert not np.array_equal(a, c)
    g = bootstrap_indices(50, 5, random_state=np.random.default_rng(1))
    r = bootstrap_indices(50, 5, random_state=np.random.RandomState(1))
    assert g.shape == r.shape == (5, 50)


# ---------------------------------------------------------------------------
# exact bootstrap variances of the mean (large B Monte Carlo)
# ---------------------------------------------------------------------------
def test_circular_block_variance_is_bartlett_of_circular_autocovariances():
    n, L = 120, 6  # n a multiple of L: the circular block bootstrap is exact
    x = ar1(n, 0.6, 0)
    res = block_bootstrap(
        (x,),
        np.mean,
        bootstrap="circular_block",
        block_length=L,
        n_resamples=40000,
        random_state=1,
    )
    g = circular_autocov(x)
    h = np.arange(1, L)
    exact = (g[0] + 2 * np.sum((1 - h / L) * g[h])) / n
    assert res.standard_error**2 == pytest.approx(exact, rel=0.03)


def test_stationary_variance_politis_romano():
    n, L = 150, 5.0
    x = ar1(n, 0.6, 2)
    res = block_bootstrap(
        (x,),
        np.mean,
        bootstrap="stationary",
        block_length=L,
        n_resamples=40000,
        random_state=3,
    )
    c = x - x.mean()
    g = np.array([c[: n - k] @ c[k:] / n for k in range(n)])  # ordinary autocovariances
    p = 1 / L
    h = np.arange(1, n)
    b = (1 - h / n) * (1 - p) ** h + (h / n) * (1 - p) ** (n - h)
    exact = (g[0] + 2 * np.sum(b * g[h])) / n  # Politis & Romano (1994), Lemma 1
    assert res.standard_error**2 == pytest.approx(exact, rel=0.03)


def test_iid_scheme_is_scipy_bootstrap():
    x = ar1(80, 0.0, 4)
    ours = block_bootstrap(
        (x,), np.mean, bootstrap="iid", n_resamples=500, random_state=5, method="bca"
    )
    child = np.random.SeedSequence(5).spawn(1)[0]
    ref = scipy.stats.bootstrap(
        (x,), np.mean, n_resamples=500, method="bca", rng=np.random.default_rng(child)
    )
    np.testing.assert_array_equal(ours.bootstrap_distribution, ref.bootstrap_distribution)
    assert ours.confidence_interval().low == pytest.approx(ref.confidence_interval.low)
    assert ours.confidence_interval().high == pytest.approx(ref.confidence_interval.high)


@pytest.mark.parametrize("scheme", ["iid", "moving_block", "circular_block", "stationary"])
def test_n_jobs_and_seed_reproducibility(scheme, monkeypatch):
    import skbrier.stats.bootstrap as bs

    monkeypatch.setattr(bs, "_CHUNK_ELEMENTS", 60 * 200)  # force several chunks
    x = ar1(200, 0.5, 6)
    one = block_bootstrap((x,), np.mean, bootstrap=scheme, n_resamples=301, random_state=7)
    two = block_bootstrap(
        (x,), np.mean, bootstrap=scheme, n_resamples=301, random_state=7, n_jobs=2
    )
    np.testing.assert_array_equal(one.bootstrap_distribution, two.bootstrap_distribution)
    other = block_bootstrap(
        (x,), np.mean, bootstrap=scheme, n_resamples=301, random_state=8
    )
    assert not np.array_equal(one.bootstrap_distribution, other.bootstrap_distribution)


def test_paired_multi_output_statistic():
    x = ar1(100, 0.3, 9)
    y = 2 * x + 1

    def stat(a, b, axis=-1):
        return np.stack([np.mean(a, axis=axis), np.mean(b, axis=axis)])

    res = block_bootstrap((x, y), stat, n_resamples=200, random_state=0)
    assert res.bootstrap_distribution.shape == (2, 200)
    np.testing.assert_allclose(
        res.bootstrap_distribution[1], 2 * res.bootstrap_distribution[0] + 1
    )


def test_block_bootstrap_errors():
    x = np.arange(10.0)
    with pytest.raises(ValueError, match="bootstrap"):
        block_bootstrap((x,), np.mean, bootstrap="block")
    with pytest.raises(ValueError, match="bca"):
        block_bootstrap((x,), np.mean, method="BCa")
    with pytest.raises(ValueError, match="method"):
        block_bootstrap((x,), np.mean, method="normal")
    with pytest.raises(ValueError, match="block_length"):
        block_bootstrap((x,), np.mean, block_length=11)
    with pytest.raises(ValueError, match="block_length"):
        block_bootstrap((x,), np.mean, block_length=2.5)
    with pytest.raises(ValueError, match="n_resamples"):
        block_bootstrap((x,), np.mean, n_resamples=1)
    with pytest.raises(TypeError, match="random_state"):
        block_bootstrap((x,), np.mean, random_state="seed")
    with pytest.raises(ValueError, match=r"data\[1\]"):
        block_bootstrap((x, x[:5]), np.mean)
    with pytest.raises(ValueError, match="NaN"):
        block_bootstrap((np.array([1.0, np.nan, 2.0, 3.0]),), np.mean)
    with pytest.raises(ValueError, match="at least 3"):
        block_bootstrap((x[:2],), np.mean)
    with pytest.raises(TypeError, match="data"):
        block_bootstrap(x, np.mean)
    with pytest.raises(ValueError, match="confidence_level"):
        block_bootstrap((x,), np.mean, n_resamples=9).confidence_interval(1.5)
    with pytest.raises(ValueError, match="'statistic'"):
        block_bootstrap((x,), np.mean, n_resamples=9).confidence_interval(metric="mean")
    # item 18: option checks from skbrier._core.params
    with pytest.raises(ValueError, match="^n_jobs"):
        block_bootstrap((x,), np.mean, n_jobs=0)
    with pytest.raises(TypeError, match="^n_jobs"):
        block_bootstrap((x,), np.mean, n_jobs=True)
    with pytest.raises(ValueError, match="^n_resamples"):
        brier_inference(
            x > 4, np.full(10, 0.5) + x / 100, cov_type="bootstrap", n_resamples=1
        )
    with pytest.raises(ValueError, match="^n_jobs"):
        brier_inference(x > 4, np.full(10, 0.5) + x / 100, cov_type="bootstrap", n_jobs=0)
    # stationary accepts a non-integer mean block length
    block_bootstrap((x,), np.mean, bootstrap="stationary", block_length=2.5, n_resamples=9)


# ---------------------------------------------------------------------------
# brier_inference(cov_type="bootstrap")
# ---------------------------------------------------------------------------
def test_brier_bootstrap_reproducible_and_close_to_hac():
    c = CASES["ar_T1000"]
    kw = {
        "cov_type": "bootstrap",
        "bootstrap": "moving_block",
        "block_length": 10,
        "n_resamples": 2000,
        "random_state": 0,
    }
    a = brier_inference(c["y_true"], c["y_proba"], **kw)
    b = brier_inference(c["y_true"], c["y_proba"], n_jobs=2, **kw)
    for m in ("brier_score", "brier_skill_score", "brier_index", "reference_brier_score"):
        np.testing.assert_array_equal(
            a.bootstrap_distribution[m], b.bootstrap_distribution[m]
        )
    assert a.brier_score == pytest.approx(c["brier_score"])
    assert a.covariance.shape == (2, 2)
    # block bootstrap and HAC agree on the size of the uncertainty
    hac_se = np.sqrt(c["cov_hac"][0][0])
    assert a.standard_error("brier_score") == pytest.approx(hac_se, rel=0.25)
    ci = a.confidence_interval(metric="brier_skill_score")
    assert ci.low < a.brier_skill_score < ci.high
    basic = a.confidence_interval(metric="brier_score", method="basic")
    perc = a.confidence_interval(metric="brier_score")
    assert basic.low + perc.high == pytest.approx(2 * a.brier_score)
    with pytest.raises(ValueError, match="bca"):
        a.confidence_interval(metric="brier_score", method="bca")


def test_brier_bootstrap_iid_bca_weights_and_reference():
    c = CASES["ar_T200"]
    # integer weights: the bootstrap of the repeated rows, draw for draw
    w = np.asarray(c["int_weight"])
    kw = {
        "cov_type": "bootstrap",
        "bootstrap": "iid",
        "method": "bca",
        "n_resamples": 999,
        "random_state": 1,
    }
    res = brier_inference(c["y_true"], c["y_proba"], sample_weight=w, **kw)
    rep = brier_inference(np.repeat(c["y_true"], w), np.repeat(c["y_proba"], w), **kw)
    for m in ("brier_score", "brier_skill_score", "brier_index"):
        np.testing.assert_array_equal(
            res.bootstrap_distribution[m], rep.bootstrap_distribution[m]
        )
        assert res.confidence_interval(metric=m) == pytest.approx(
            rep.confidence_interval(metric=m), rel=1e-12
        )
    assert res.brier_score == pytest.approx(c["rep_brier_score"])
    se_iid = np.sqrt(c["rep_cov_iid"][0][0])
    assert res.standard_error("brier_score") == pytest.approx(se_iid, rel=0.15)
    # non-integer weights: multinomial draws of round(W) rows; BCa is refused
    wf = np.asarray(c["sample_weight"])
    with pytest.raises(ValueError, match="bca"):
        brier_inference(c["y_true"], c["y_proba"], sample_weight=wf, **kw)
    resf = brier_inference(
        c["y_true"], c["y_proba"], sample_weight=wf, **{**kw, "method": "percentile"}
    )
    assert resf.brier_score == pytest.approx(c["w_brier_score"])
    assert resf.reference_brier_score == pytest.approx(c["w_reference_brier_score"])
    iid = brier_inference(c["y_true"], c["y_proba"], sample_weight=wf)
    assert resf.standard_error("brier_score") == pytest.approx(
        iid.standard_error("brier_score"), rel=0.15
    )
    ci = resf.confidence_interval(metric="brier_score")
    assert ci.low < resf.brier_score < ci.high
    ref = brier_inference(
        c["y_true"],
        c["y_proba"],
        reference=np.array(c["y_proba_b"]),
        cov_type="bootstrap",
        n_resamples=199,
        random_state=1,
    )
    assert ref.reference_brier_score == pytest.approx(c["ref_reference_brier_score"])
    dist = ref.bootstrap_distribution
    np.testing.assert_allclose(
        dist["brier_skill_score"], 1 - dist["brier_score"] / dist["reference_brier_score"]
    )


def test_frequency_weights_are_the_last_sample_and_refuse_bca_with_draws():
    # one home for what brier_inference and compare_brier do with weights
    x, w = np.arange(4.0), np.array([1.0, 2.0, 0.5, 1.5])
    samples, weighted, draws = prepare_frequency_weights([x], w, "iid", "percentile")
    assert weighted and draws == 5 and samples[-1] is w and len(samples) == 2
    samples, weighted, draws = prepare_frequency_weights([x], w * 2, "iid", "bca")
    assert not weighted and draws is None
    np.testing.assert_array_equal(samples[0], np.repeat(x, [2, 4, 1, 3]))
    samples, weighted, draws = prepare_frequency_weights([x], w, "moving_block", "bca")
    assert weighted and draws is None and samples[-1] is w
    samples, weighted, draws = prepare_frequency_weights([x], None, "iid", "bca")
    assert not weighted and draws is None and len(samples) == 1
    with pytest.raises(ValueError, match="method='bca' is not available with non-integer"):
        prepare_frequency_weights([x], w, "iid", "bca")


def test_percentile_and_basic_intervals_are_quantiles_of_the_replicates():
    x = ar1(60, 0.0, 2)
    for method in ("percentile", "basic"):
        res = block_bootstrap(
            (x,), np.mean, bootstrap="iid", n_resamples=999, random_state=3, method=method
        )
        ref = scipy.stats.bootstrap(
            (x,), np.mean, n_resamples=0, method=method, bootstrap_result=res
        )
        assert res.confidence_interval().low == pytest.approx(ref.confidence_interval.low)
        assert res.confidence_interval().high == pytest.approx(ref.confidence_interval.high)
        q = np.quantile(res.bootstrap_distribution, [0.025, 0.975])
        expected = q if method == "percentile" else 2 * x.mean() - q[::-1]
        np.testing.assert_allclose(tuple(res.confidence_interval()), expected, rtol=1e-12)
    assert res.standard_error == pytest.approx(np.std(res.bootstrap_distribution, ddof=1))


def test_bootstrap_single_class_resamples_warn():
    rng = np.random.default_rng(0)
    y = np.zeros(30)
    y[[3, 17]] = 1
    p = rng.uniform(0, 0.3, size=30)
    res = brier_inference(y, p, cov_type="bootstrap", n_resamples=500, random_state=0)
    with pytest.warns(RuntimeWarning, match="single class"):
        res.confidence_interval(metric="brier_skill_score")
    res.confidence_interval(metric="brier_score")  # defined on every resample


def test_bootstrap_option_errors():
    c = CASES["ar_T50"]
    with pytest.raises(ValueError, match="bootstrap"):
        brier_inference(c["y_true"], c["y_proba"], cov_type="bootstrap", bootstrap="block")
    with pytest.raises(ValueError, match="bca"):
        brier_inference(
            c["y_true"],
            c["y_proba"],
            cov_type="bootstrap",
            bootstrap="stationary",
            method="bca",
        )
    with pytest.raises(ValueError, match="block_length"):
        brier_inference(
            c["y_true"],
            c["y_proba"],
            cov_type="bootstrap",
            bootstrap="moving_block",
            block_length=0,
        )


# ---------------------------------------------------------------------------
# automatic block length (Politis-White, as arch.bootstrap.optimal_block_length)
# ---------------------------------------------------------------------------
BL_FIXTURES = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "block_length_fixtures.json").read_text()
)["cases"]


@pytest.mark.parametrize(
    "case", BL_FIXTURES, ids=[f"n{c['n']}_rho{c['rho']}" for c in BL_FIXTURES]
)
def test_optimal_block_length_matches_arch_fixture(case):
    from skbrier.stats.block_length import optimal_block_length

    np.testing.assert_allclose(
        optimal_block_length(np.array(case["x"])), case["expected"], rtol=1e-10
    )


def test_optimal_block_length_matches_arch_live():
    arch_bootstrap = pytest.importorskip("arch.bootstrap")
    from skbrier.stats.block_length import optimal_block_length

    x = np.column_stack([ar1(5000, 0.8, 11), ar1(5000, 0.2, 12)])
    np.testing.assert_allclose(
        optimal_block_length(x),
        arch_bootstrap.optimal_block_length(x).to_numpy(),
        rtol=1e-10,
    )


def test_optimal_block_length_errors_and_auto():
    from skbrier.stats.block_length import optimal_block_length

    with pytest.raises(ValueError, match="16"):
        optimal_block_length(np.arange(10.0))
    with pytest.raises(ValueError, match="NaN"):
        optimal_block_length(np.r_[np.arange(20.0), np.nan])
    assert optimal_block_length(np.ones(50)).tolist() == [[1.0, 1.0]]
    x = ar1(500, 0.8, 13)
    b = optimal_block_length(x)[0]
    res = block_bootstrap(
        (x,),
        np.mean,
        bootstrap="stationary",
        block_length="auto",
        n_resamples=50,
        random_state=0,
    )
    assert res.bootstrap_distribution.shape == (50,)
    c = CASES["ar_T1000"]
    r = brier_inference(
        c["y_true"],
        c["y_proba"],
        cov_type="bootstrap",
        bootstrap="moving_block",
        block_length="auto",
        n_resamples=99,
        random_state=0,
    )
    g = np.column_stack(
        [(np.array(c["y_true"]) - np.array(c["y_proba"])) ** 2, c["y_true"]]
    )
    assert r.block_length == round(optimal_block_length(g)[:, 1].max())
    st = brier_inference(
        c["y_true"],
        c["y_proba"],
        cov_type="bootstrap",
        bootstrap="stationary",
        block_length="auto",
        n_resamples=9,
        random_state=0,
    )
    assert st.block_length == pytest.approx(optimal_block_length(g)[:, 0].max())
    assert b[0] > 3
    with pytest.raises(ValueError, match="auto"):
        brier_inference(
            [0, 1] * 5,
            np.linspace(0.1, 0.9, 10),
            cov_type="bootstrap",
            bootstrap="stationary",
            block_length="auto",
        )
    with pytest.raises(ValueError, match="block_length"):
        brier_inference(
            c["y_true"],
            c["y_proba"],
            cov_type="bootstrap",
            bootstrap="stationary",
            block_length="optimal",
        )
