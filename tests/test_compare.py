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
    res = compare_brier(case["y_true"], case["y_proba"], case["y_proba_b"])
    _close(res.difference, case["cmp_difference"], 1e-12)
    _close(res.standard_error**2, case["cmp_var_hac"], 1e-8)
    _close(res.statistic, case["cmp_dm_statistic"], 1e-8)
    _close(res.pvalue, case["cmp_dm_pvalue"], 1e-8)
    _close(res.confidence_interval(), case["cmp_ci_hac"], 1e-8)
    assert res.brier_score_a == pytest.approx(brier_score(case["y_true"], case["y_proba"]))
    assert res.brier_score_b == pytest.approx(brier_score(case["y_true"], case["y_proba_b"]))
    assert res.df is None


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_dm_iid_and_hln_match_r(case):
    iid = compare_brier(case["y_true"], case["y_proba"], case["y_proba_b"], cov_type="iid")
    _close(iid.standard_error**2, case["cmp_var_iid"], 1e-12)
    _close(iid.statistic, case["cmp_iid_statistic"], 1e-12)
    _close(iid.pvalue, case["cmp_iid_pvalue"], 1e-11)
    hln = compare_brier(
        case["y_true"], case["y_proba"], case["y_proba_b"], small_sample_correction=True
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
    greater = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], alternative="greater")
    assert less.pvalue == pytest.approx(two.pvalue / 2)
    assert less.pvalue + greater.pvalue == pytest.approx(1.0)
    swapped = compare_brier(c["y_true"], c["y_proba_b"], c["y_proba"])
    assert swapped.difference == pytest.approx(-two.difference)
    assert swapped.pvalue == pytest.approx(two.pvalue)


def test_weighted_and_multiclass():
    c = CASES[3]
    w = np.asarray(c["sample_weight"])
    res = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], sample_weight=w,
                        cov_type="iid")
    assert res.difference == pytest.approx(
        brier_score(c["y_true"], c["y_proba"], sample_weight=w)
        - brier_score(c["y_true"], c["y_proba_b"], sample_weight=w)
    )
    scaled = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], sample_weight=3 * w,
                           cov_type="iid")
    assert scaled.statistic == pytest.approx(res.statistic)
    rng = np.random.default_rng(1)
    pa = rng.dirichlet([1, 1, 1], size=200)
    pb = rng.dirichlet([1, 1, 1], size=200)
    y = np.array([rng.choice(3, p=q) for q in pa])
    res3 = compare_brier(y, pa, pb, cov_type="iid")
    assert res3.difference == pytest.approx(brier_score(y, pa) - brier_score(y, pb))


def test_bootstrap_comparison():
    c = CASES[3]
    res = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], cov_type="bootstrap",
                        n_resamples=999, random_state=0)
    hac = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"])
    assert res.standard_error == pytest.approx(hac.standard_error, rel=0.25)
    assert res.bootstrap_distribution.shape == (999,)
    ci = res.confidence_interval()
    assert ci.low < res.difference < ci.high
    assert res.pvalue == pytest.approx(1 / 1000)
    again = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], cov_type="bootstrap",
                          n_resamples=999, random_state=0, n_jobs=2)
    np.testing.assert_array_equal(res.bootstrap_distribution, again.bootstrap_distribution)
    basic = res.confidence_interval(method="basic")
    assert basic.low + ci.high == pytest.approx(2 * res.difference)
    w = np.asarray(c["sample_weight"])
    resw = compare_brier(c["y_true"], c["y_proba"], c["y_proba_b"], cov_type="bootstrap",
                         n_resamples=99, random_state=0, sample_weight=w)
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
    with pytest.raises(ValueError, match="horizon"):
        compare_brier(y, pa, pb, horizon=0)
    with pytest.raises(TypeError, match="horizon"):
        compare_brier(y, pa, pb, horizon=1.5)
    with pytest.raises(ValueError, match="method"):
        compare_brier(y, pa, pb).confidence_interval(method="basic")
    res = compare_brier(y, pa, pb, cov_type="iid")
    assert isinstance(res, BrierComparisonResult)
    assert "BrierComparisonResult(" in repr(res)
