"""compare_brier against R (Diebold-Mariano with sandwich::lrvar, HLN correction)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

from skbrier.metrics.brier import brier_score
from skbrier.stats.compare import BrierComparisonResult, compare_brier

FIXTURES = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "brier_ci_fixtures.json").read_text()
)
CASES = FIXTURES["cases"]
IDS = [c["name"] for c in CASES]


def _close(a, b, rtol):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=0)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_dm_hac_matches_r(case):
    res = compare_brier(case["y_true"], case["y_proba"], case["y_proba_b"], cov_type="hac")
    _close(res.difference, case["cmp_difference"], 1e-12)
    _close(res.standard_error() ** 2, case["cmp_var_hac"], 1e-8)
    _close(res.statistic, case["cmp_dm_statistic"], 1e-8)
    _close(res.pvalue, case["cmp_dm_pvalue"], 1e-8)
    _close(res.confidence_interval(), case["cmp_ci_hac"], 1e-8)
    assert res.brier_score_a == pytest.approx(brier_score(case["y_true"], case["y_proba"]))
    assert res.brier_score_b == pytest.approx(
        brier_score(case["y_true"], case["y_proba_b"])
    )
    assert res.df is None


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_dm_iid_and_hln_match_r(case):
    iid = compare_brier(case["y_true"], case["y_proba"], case["y_proba_b"], cov_type="iid")
    _close(iid.standard_error() ** 2, case["cmp_var_iid"], 1e-12)
    _close(iid.statistic, case["cmp_iid_statistic"], 1e-12)
    _close(iid.pvalue, case["cmp_iid_pvalue"], 1e-11)
    hln = compare_brier(
        case["y_true"],
        case["y_proba"],
        case["y_proba_b"],
        small_sample_correction=True,
        cov_type="hac",
    )
    _close(hln.statistic, case["cmp_hln_statistic"], 1e-8)
    _close(hln.pvalue, case["cmp_hln_pvalue"], 1e-8)
    assert hln.df == case["T"] - 1
    # the HLN interval inverts the HLN test: 0 is inside iff p > 0.05
    ci = hln.confidence_interval(0.95)
    assert (ci.low < 0 < ci.high) == (hln.pvalue > 0.05)


def test_one_sided_and_symmetry():
    c = CASES[1]
    two = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"])
    less = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], alternative="less")
    greater = compare_brier(
        c["y_true"], c["y_proba"], c["y_proba_b"], alternative="greater"
    )
    assert less.pvalue == pytest.approx(two.pvalue / 2)
    assert less.pvalue + greater.pvalue == pytest.approx(1.0)
    swapped = compare_brier(c["y_true"], c["y_proba_b"], c["y_proba"])
    assert swapped.difference == pytest.approx(-two.difference)
    assert swapped.pvalue == pytest.approx(two.pvalue)


def test_weighted_and_multiclass():
    c = CASES[3]
    w = np.asarray(c["sample_weight"])
    res = compare_brier(
        c["y_true"], c["y_proba"], c["y_proba_b"], sample_weight=w, cov_type="iid"
    )
    assert res.difference == pytest.approx(
        brier_score(c["y_true"], c["y_proba"], sample_weight=w)
        - brier_score(c["y_true"], c["y_proba_b"], sample_weight=w)
    )
    # frequency weights: tripling every weight triples the sample size
    scaled = compare_brier(
        c["y_true"], c["y_proba"], c["y_proba_b"], sample_weight=3 * w, cov_type="iid"
    )
    W = w.sum()
    assert scaled.difference == pytest.approx(res.difference, rel=1e-13)
    assert scaled.difference_standard_error**2 == pytest.approx(
        res.difference_standard_error**2 * (W - 1) / (3 * W - 1), rel=1e-10
    )
    rng = np.random.default_rng(1)
    pa = rng.dirichlet([1, 1, 1], size=200)
    pb = rng.dirichlet([1, 1, 1], size=200)
    y = np.array([rng.choice(3, p=q) for q in pa])
    res3 = compare_brier(y, pa, pb, cov_type="iid")
    assert res3.difference == pytest.approx(brier_score(y, pa) - brier_score(y, pb))


def test_bootstrap_comparison():
    c = CASES[3]
    res = compare_brier(
        c["y_true"],
        c["y_proba"],
        c["y_proba_b"],
        cov_type="bootstrap",
        bootstrap="moving_block",
        n_resamples=999,
        random_state=0,
    )
    hac = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], cov_type="hac")
    assert res.standard_error() == pytest.approx(hac.standard_error(), rel=0.25)
    assert res.bootstrap_distribution.shape == (999,)
    ci = res.confidence_interval()
    assert ci.low < res.difference < ci.high
    assert res.pvalue == pytest.approx(1 / 1000)
    again = compare_brier(
        c["y_true"],
        c["y_proba"],
        c["y_proba_b"],
        cov_type="bootstrap",
        bootstrap="moving_block",
        n_resamples=999,
        random_state=0,
        n_jobs=2,
    )
    np.testing.assert_array_equal(res.bootstrap_distribution, again.bootstrap_distribution)
    basic = res.confidence_interval(method="basic")
    assert basic.low + ci.high == pytest.approx(2 * res.difference)
    w = np.asarray(c["sample_weight"])
    resw = compare_brier(
        c["y_true"],
        c["y_proba"],
        c["y_proba_b"],
        cov_type="bootstrap",
        n_resamples=99,
        random_state=0,
        sample_weight=w,
    )
    assert resw.difference == pytest.approx(
        compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], sample_weight=w).difference
    )


def test_errors():
    y = [0, 1, 0, 1, 1]
    pa = [0.2, 0.8, 0.3, 0.6, 0.9]
    pb = [0.3, 0.7, 0.4, 0.5, 0.4]
    with pytest.raises(ValueError, match="constant"):
        compare_brier(y, pa, pa)
    with pytest.raises(ValueError, match="at least 3"):
        compare_brier(y[:2], pa[:2], pb[:2])
    with pytest.raises(ValueError, match="y_proba_b"):
        compare_brier(y, pa, [0.3, np.nan, 0.4, 0.5, 0.4])
    with pytest.raises(ValueError, match="y_proba_b"):
        compare_brier(y, pa, pb[:4])
    with pytest.raises(ValueError, match="shape"):
        compare_brier(y, pa, np.column_stack([1 - np.array(pb), pb]))
    with pytest.raises(ValueError, match="alternative"):
        compare_brier(y, pa, pb, alternative="bigger")
    with pytest.raises(ValueError, match="cov_type"):
        compare_brier(y, pa, pb, cov_type="nw")
    with pytest.raises(ValueError, match="small_sample_correction"):
        compare_brier(y, pa, pb, cov_type="bootstrap", small_sample_correction=True)
    with pytest.raises(ValueError, match="lead_time"):
        compare_brier(y, pa, pb, lead_time=0)
    with pytest.raises(TypeError, match="lead_time"):
        compare_brier(y, pa, pb, lead_time=1.5)
    with pytest.raises(ValueError, match="method"):
        compare_brier(y, pa, pb).confidence_interval(method="basic")
    res = compare_brier(y, pa, pb, cov_type="iid")
    assert isinstance(res, BrierComparisonResult)
    assert "BrierComparisonResult(" in repr(res)


WEIGHTED = [c for c in CASES if "int_weight" in c]


@pytest.mark.parametrize("case", WEIGHTED, ids=[c["name"] for c in WEIGHTED])
def test_iid_integer_weights_equal_repeated_rows_in_r(case):
    # issue item 6: var(d[rows]) / length(rows) in R on the repeated rows
    w = np.asarray(case["int_weight"])
    res = compare_brier(
        case["y_true"], case["y_proba"], case["y_proba_b"], sample_weight=w, cov_type="iid"
    )
    _close(res.difference, case["rep_cmp_difference"], 1e-12)
    _close(res.difference_standard_error**2, case["rep_cmp_var_iid"], 1e-11)
    y, pa, pb = (
        np.repeat(np.asarray(case[k]), w) for k in ("y_true", "y_proba", "y_proba_b")
    )
    for kw in ({}, {"small_sample_correction": True}, {"ddof": 0}, {"alternative": "less"}):
        a = compare_brier(
            case["y_true"],
            case["y_proba"],
            case["y_proba_b"],
            sample_weight=w,
            cov_type="iid",
            **kw,
        )
        b = compare_brier(y, pa, pb, cov_type="iid", **kw)
        assert a.statistic == pytest.approx(b.statistic, rel=1e-10)
        assert a.pvalue == pytest.approx(b.pvalue, rel=1e-9)
        np.testing.assert_allclose(
            a.confidence_interval(0.9), b.confidence_interval(0.9), rtol=1e-10
        )
        assert a.df == b.df


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_ddof0_is_forecast_dm_test(case):
    # issue item 12: forecast::dm.test divides by T; ddof=0 reproduces it (h = 1)
    y, pa, pb = case["y_true"], case["y_proba"], case["y_proba_b"]
    res = compare_brier(y, pa, pb, cov_type="iid", ddof=0, small_sample_correction=True)
    _close(res.statistic, case["dm_test_h1_acf_statistic"], 1e-12)
    _close(res.pvalue, case["dm_test_h1_acf_pvalue"], 1e-10)
    less = compare_brier(
        y, pa, pb, cov_type="iid", ddof=0, small_sample_correction=True, alternative="less"
    )
    _close(less.pvalue, case["dm_test_h1_acf_pvalue_less"], 1e-10)
    # h = 2: the truncated (acf) and Bartlett estimators through hac_kwds
    for ve, kw in (
        ("acf", {"kernel": "truncated", "bandwidth": 1}),
        ("bartlett", {"kernel": "bartlett", "bandwidth": 2}),
    ):
        r2 = compare_brier(
            y,
            pa,
            pb,
            cov_type="hac",
            small_sample_correction=True,
            lead_time=2,
            hac_kwds={**kw, "prewhite": False, "adjust": False},
        )
        _close(r2.statistic, case[f"dm_test_h2_{ve}_statistic"], 1e-10)
        _close(r2.pvalue, case[f"dm_test_h2_{ve}_pvalue"], 1e-9)
    # the default ddof=1 is var(d) / T
    _close(
        compare_brier(y, pa, pb, cov_type="iid").difference_standard_error ** 2,
        case["cmp_var_iid"],
        1e-12,
    )


def test_zero_and_extreme_weights():
    # issue item 14: one non-zero weight gives a ValueError naming the parameter
    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 5)
    p = rng.uniform(size=10)
    w = np.zeros(10)
    w[3] = 1.0
    with pytest.raises(ValueError, match="^sample_weight"):
        compare_brier(y, p, np.full(10, 0.4), cov_type="iid", sample_weight=w)
    w[3] = 5.0  # a total weight of 5 on one row: one repeated observation
    with pytest.raises(ValueError, match="constant"):
        compare_brier(y, p, np.full(10, 0.4), cov_type="iid", sample_weight=w)
    # zero-weight rows are removed rows (iid)
    w = np.r_[np.ones(8), 0.0, 0.0]
    a = compare_brier(y, p, np.full(10, 0.4), cov_type="iid", sample_weight=w)
    b = compare_brier(y[:8], p[:8], np.full(8, 0.4), cov_type="iid")
    assert a.n == 8
    np.testing.assert_allclose(a.confidence_interval(), b.confidence_interval(), rtol=1e-12)
    # huge frequency weights: finite numbers
    big = compare_brier(
        y, p, np.full(10, 0.4), cov_type="iid", sample_weight=np.full(10, 1e300)
    )
    assert np.isfinite(big.difference) and big.difference_standard_error >= 0


def test_result_protocol_and_standard_error():
    c = CASES[0]
    res = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], cov_type="iid")
    assert res.standard_error() == res.difference_standard_error
    assert res.standard_error(metric="brier_score") == res.difference_standard_error
    assert (
        res.standard_error(metric="brier_index")
        == res.brier_index_difference_standard_error
    )
    assert res.confidence_interval(0.9) == res.confidence_interval(
        0.9, metric="brier_score"
    )
    with pytest.raises(ValueError, match="^metric"):
        res.confidence_interval(metric="brier_score_a")
    d = res.to_dict()
    assert d["difference"] == res.difference and "_boot" not in d
    assert "difference" in res.summary() and "CI" in res.summary()
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        res.difference = 0.0


@pytest.mark.parametrize(
    "kw, error, match",
    [
        ({"n_jobs": 0}, ValueError, "^n_jobs"),
        ({"n_jobs": True}, TypeError, "^n_jobs"),
        ({"n_resamples": 1}, ValueError, "^n_resamples"),
        ({"random_state": "x"}, TypeError, "^random_state"),
        ({"ddof": 2, "cov_type": "iid"}, ValueError, "^ddof"),
    ],
)
def test_option_checks(kw, error, match):
    c = CASES[0]
    kw = {"cov_type": "bootstrap", **kw}
    with pytest.raises(error, match=match):
        compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], **kw)


@pytest.mark.parametrize(
    "cov_type, weights, match",
    [
        # frequency weights count by their total (iid)
        ("iid", [1.0, 0.5, 0.5, 0.0], "at least 3 observations"),
        # weights of time points count by Kish's effective number (HAC)
        ("hac", [1.0, 1.0, 0.0, 0.0, 0.0, 0.0], "effective number of observations"),
    ],
)
def test_sample_size_check_shared_with_brier_inference(cov_type, weights, match):
    """compare_brier and brier_inference count observations by the one rule."""
    from skbrier.stats.inference import brier_inference

    n = len(weights)
    y = np.arange(n) % 2
    pa, pb = np.linspace(0.2, 0.8, n), np.full(n, 0.5)
    messages = []
    for call in (
        lambda: compare_brier(y, pa, pb, cov_type=cov_type, sample_weight=weights),
        lambda: brier_inference(y, pa, cov_type=cov_type, sample_weight=weights),
    ):
        with pytest.raises(ValueError, match=match) as info:
            call()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_bootstrap_options_checked_only_for_the_bootstrap():
    """An unknown scheme fails the bootstrap in both functions; with the iid
    interval any scheme but the default is refused as unused (it was
    accepted and ignored: test_inference.py, options of another cov_type)."""
    from skbrier.stats.inference import brier_inference

    c = CASES[0]
    for call in (
        lambda **kw: compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], **kw),
        lambda **kw: brier_inference(c["y_true"], c["y_proba"], **kw),
    ):
        with pytest.raises(
            ValueError, match="^bootstrap='nope' is an option of the resampling"
        ):
            call(cov_type="iid", bootstrap="nope")
        with pytest.raises(ValueError, match="^bootstrap"):
            call(cov_type="bootstrap", bootstrap="nope", n_resamples=9)
