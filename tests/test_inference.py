"""brier_inference against the seed-004 R recipe (tests/fixtures/make_brier_ci_fixtures.R)."""

from __future__ import annotations

import json
import pathlib
import warnings

import numpy as np
import pytest
from scipy.signal import lfilter
from scipy.stats import multivariate_normal, norm

from skbrier.metrics.brier import brier_index, brier_score, brier_skill_score
from skbrier.stats.inference import BrierInferenceResult, brier_inference

FIXTURES = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "brier_ci_fixtures.json").read_text()
)
CASES = FIXTURES["cases"]
IDS = [c["name"] for c in CASES]
WEIGHTED = [c for c in CASES if "sample_weight" in c]


RTOL_IID = 1e-12
RTOL_HAC = 1e-8


def _close(actual, expected, rtol):
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=rtol, atol=0)


# ---------------------------------------------------------------------------
# point estimates
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_point_estimates_match_r_and_metrics(case):
    res = brier_inference(case["y_true"], case["y_proba"])
    _close(res.brier_score, case["brier_score"], 1e-14)
    _close(res.reference_brier_score, case["reference_brier_score"], 1e-14)
    _close(res.brier_skill_score, case["brier_skill_score"], 1e-13)
    _close(res.brier_index, case["brier_index"], 1e-14)
    # and the public metrics of skbrier.metrics
    assert res.brier_score == pytest.approx(brier_score(case["y_true"], case["y_proba"]))
    assert res.brier_index == pytest.approx(brier_index(case["y_true"], case["y_proba"]))
    assert res.brier_skill_score == pytest.approx(
        brier_skill_score(case["y_true"], case["y_proba"])
    )
    assert res.n == case["T"]
    assert isinstance(res.brier_score, float)


# ---------------------------------------------------------------------------
# iid: cov(G) / T and the seed's intervals
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_iid_matches_seed_recipe(case):
    res = brier_inference(case["y_true"], case["y_proba"], cov_type="iid")
    _close(res.covariance, case["cov_iid"], RTOL_IID)
    _close(res.confidence_interval(metric="brier_score"), case["ci_iid_bs"], RTOL_IID)
    _close(
        res.confidence_interval(metric="brier_skill_score"), case["ci_iid_bss"], RTOL_IID
    )
    _close(res.confidence_interval(metric="brier_index"), case["ci_iid_bi"], RTOL_IID)
    ci = res.confidence_interval()
    assert isinstance(ci.low, float) and isinstance(ci.high, float)
    assert ci.low == ci[0] and ci.high == ci[1]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_iid_reference_forecast(case):
    res = brier_inference(
        case["y_true"], case["y_proba"], reference=np.array(case["y_proba_b"])
    )
    _close(res.reference_brier_score, case["ref_reference_brier_score"], 1e-13)
    _close(res.brier_skill_score, case["ref_brier_skill_score"], 1e-12)
    _close(res.covariance, case["ref_cov_iid"], RTOL_IID)


@pytest.mark.parametrize("case", WEIGHTED, ids=[c["name"] for c in WEIGHTED])
def test_iid_weighted_point_estimates(case):
    res = brier_inference(
        case["y_true"], case["y_proba"], sample_weight=case["sample_weight"]
    )
    _close(res.brier_score, case["w_brier_score"], 1e-13)
    _close(res.reference_brier_score, case["w_reference_brier_score"], 1e-13)
    assert res.total_weight == pytest.approx(np.sum(case["sample_weight"]))


@pytest.mark.parametrize("case", WEIGHTED, ids=[c["name"] for c in WEIGHTED])
def test_iid_integer_weights_equal_repeated_rows_in_r(case):
    # issue item 6: frequency weights; R's seed recipe on the repeated rows
    # (make_brier_ci_fixtures.R), zero weights included
    w = np.asarray(case["int_weight"])
    assert (w == 0).any()
    res = brier_inference(case["y_true"], case["y_proba"], sample_weight=w)
    _close(res.brier_score, case["rep_brier_score"], 1e-13)
    _close(res.reference_brier_score, case["rep_reference_brier_score"], 1e-13)
    _close(res.brier_skill_score, case["rep_brier_skill_score"], 1e-12)
    _close(res.brier_index, case["rep_brier_index"], 1e-13)
    _close(res.covariance, case["rep_cov_iid"], 1e-11)
    _close(res.confidence_interval(metric="brier_score"), case["rep_ci_iid_bs"], 1e-11)
    _close(
        res.confidence_interval(metric="brier_skill_score"), case["rep_ci_iid_bss"], 1e-11
    )
    _close(res.confidence_interval(metric="brier_index"), case["rep_ci_iid_bi"], 1e-11)
    assert res.n == np.count_nonzero(w) and res.total_weight == w.sum()
    ref = brier_inference(
        case["y_true"],
        case["y_proba"],
        sample_weight=w,
        reference=np.array(case["y_proba_b"]),
    )
    _close(ref.covariance, case["rep_ref_cov_iid"], 1e-11)


def _rows(y, p, w):
    return np.repeat(np.asarray(y), w, axis=0), np.repeat(np.asarray(p), w, axis=0)


@pytest.mark.parametrize("reference", [None, 0.3, "array"])
@pytest.mark.parametrize("multiclass", [False, True])
def test_iid_integer_weights_equal_repeated_rows_every_interval(reference, multiclass):
    rng = np.random.default_rng(5)
    n = 60
    if multiclass:
        p = rng.dirichlet([1, 1, 1], size=n)
        y = np.array([rng.choice(3, p=q) for q in p])
        if reference == 0.3:
            reference = None
    else:
        p = rng.uniform(size=n)
        y = (rng.uniform(size=n) < p).astype(int)
    ref = np.roll(p, 1, axis=0) if reference == "array" else reference
    w = rng.integers(0, 4, size=n)
    a = brier_inference(y, p, sample_weight=w, reference=ref)
    yr, pr = _rows(y, p, w)
    refr = np.repeat(ref, w, axis=0) if reference == "array" else ref
    b = brier_inference(yr, pr, reference=refr)
    for m in ("brier_score", "reference_brier_score", "brier_skill_score", "brier_index"):
        assert getattr(a, m) == pytest.approx(getattr(b, m), rel=1e-12, abs=1e-14)
        assert a.standard_error(m) == pytest.approx(b.standard_error(m), rel=1e-10)
        np.testing.assert_allclose(
            a.confidence_interval(0.9, metric=m),
            b.confidence_interval(0.9, metric=m),
            rtol=1e-10,
        )
    np.testing.assert_allclose(a.covariance, b.covariance, rtol=1e-10, atol=1e-18)
    assert a.total_weight == b.n


def test_iid_zero_weight_rows_equal_removed_rows():
    # issue item 7: 1000 zero-weight rows added to 3 rows change nothing
    y = np.array([0, 1, 1])
    p = np.array([0.2, 0.7, 0.4])
    a = brier_inference(y, p)
    y2 = np.r_[y, np.zeros(1000, int)]
    p2 = np.r_[p, np.full(1000, 0.5)]
    b = brier_inference(y2, p2, sample_weight=np.r_[1.0, 1.0, 1.0, np.zeros(1000)])
    assert b.n == 3
    for m in ("brier_score", "brier_skill_score", "brier_index"):
        np.testing.assert_allclose(
            b.confidence_interval(metric=m), a.confidence_interval(metric=m), rtol=1e-12
        )
    # interleaved zero weights, and rows that would make one class vanish
    with pytest.raises(ValueError, match="single class"):
        brier_inference(y2, p2, sample_weight=np.r_[0.0, 1.0, 2.0, np.zeros(1000)])


def test_weights_are_frequency_weights_not_scale_free():
    c = CASES[1]
    w = np.asarray(c["sample_weight"])
    a = brier_inference(c["y_true"], c["y_proba"], sample_weight=w)
    b = brier_inference(c["y_true"], c["y_proba"], sample_weight=7.5 * w)
    # point estimates are scale-free, the variance uses W as the sample size
    assert a.brier_score == pytest.approx(b.brier_score, rel=1e-13)
    W = w.sum()
    np.testing.assert_allclose(
        b.covariance, a.covariance * (W - 1) / (7.5 * W - 1), rtol=1e-10
    )
    u = brier_inference(c["y_true"], c["y_proba"], sample_weight=np.ones(c["T"]))
    _close(u.covariance, c["cov_iid"], 1e-12)
    # the iid variance of a weighted mean: sum w (g - gbar)^2 / (W - 1) / W
    g = (np.asarray(c["y_proba"]) - np.asarray(c["y_true"])) ** 2
    gbar = np.sum(w * g) / W
    assert a.covariance[0, 0] == pytest.approx(np.sum(w * (g - gbar) ** 2) / (W - 1) / W)


def test_delta_method_formulas():
    c = CASES[0]
    res = brier_inference(c["y_true"], c["y_proba"])
    om = res.covariance
    bs, bs0 = res.brier_score, res.reference_brier_score
    r = bs / bs0
    v_bss = (om[0, 0] + r * r * om[1, 1] - 2 * r * om[0, 1]) / bs0**2
    assert res.standard_error("brier_skill_score") == pytest.approx(
        np.sqrt(v_bss), rel=1e-13
    )
    assert res.standard_error("brier_index") == pytest.approx(
        50 / np.sqrt(bs) * np.sqrt(om[0, 0]), rel=1e-13
    )
    assert res.standard_error("reference_brier_score") == pytest.approx(np.sqrt(om[1, 1]))
    ci90 = res.confidence_interval(0.9, metric="brier_score")
    assert ci90.high - res.brier_score == pytest.approx(
        norm.ppf(0.95) * np.sqrt(om[0, 0]), rel=1e-13
    )


def test_float_reference_and_multiclass():
    c = CASES[2]
    y = np.asarray(c["y_true"])
    p = np.asarray(c["y_proba"])
    res = brier_inference(y, p, reference=0.25)
    assert res.reference_brier_score == pytest.approx(np.mean((y - 0.25) ** 2))
    assert res.brier_skill_score == pytest.approx(brier_skill_score(y, p, reference=0.25))
    # two columns give the binary result
    two = brier_inference(y, np.column_stack([1 - p, p]))
    _close(two.covariance, c["cov_iid"], 1e-12)
    assert two.brier_index == pytest.approx(c["brier_index"])
    # three classes: the losses on the [0, 2] scale, BI on half of it
    rng = np.random.default_rng(0)
    proba = rng.dirichlet([1, 1, 1], size=300)
    yk = np.array([rng.choice(3, p=q) for q in proba])
    res3 = brier_inference(yk, proba)
    assert res3.brier_score == pytest.approx(brier_score(yk, proba))
    assert res3.brier_index == pytest.approx(brier_index(yk, proba))
    assert res3.brier_skill_score == pytest.approx(brier_skill_score(yk, proba))
    oh = np.eye(3)[yk]
    g = np.column_stack([((proba - oh) ** 2).sum(1), ((oh - oh.mean(0)) ** 2).sum(1)])
    _close(res3.covariance, np.cov(g, rowvar=False) / 300, 1e-12)
    assert res3.standard_error("brier_index") == pytest.approx(
        25 / np.sqrt(res3.brier_score / 2) * np.sqrt(res3.covariance[0, 0])
    )


def test_constant_reference_column_gets_zero_variance():
    c = CASES[0]
    res = brier_inference(c["y_true"], c["y_proba"], reference=0.5)
    assert res.reference_brier_score == 0.25
    assert res.covariance[1, 1] == 0 and res.covariance[0, 1] == 0
    assert res.standard_error("brier_skill_score") == pytest.approx(
        np.sqrt(res.covariance[0, 0]) / 0.25
    )


# ---------------------------------------------------------------------------
# HAC: lrvar(G, type = "Andrews", prewhite = TRUE, adjust = TRUE)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_hac_matches_seed_recipe(case):
    res = brier_inference(case["y_true"], case["y_proba"], cov_type="hac")
    _close(res.covariance, case["cov_hac"], RTOL_HAC)
    _close(res.confidence_interval(metric="brier_score"), case["ci_hac_bs"], RTOL_HAC)
    _close(
        res.confidence_interval(metric="brier_skill_score"), case["ci_hac_bss"], RTOL_HAC
    )
    _close(res.confidence_interval(metric="brier_index"), case["ci_hac_bi"], RTOL_HAC)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_hac_kwds_and_references(case):
    y, p = case["y_true"], case["y_proba"]
    nw = brier_inference(
        y, p, cov_type="hac", hac_kwds={"bandwidth": "newey-west", "kernel": "bartlett"}
    )
    _close(nw.covariance, case["cov_hac_nw"], RTOL_HAC)
    plain = brier_inference(
        y, p, cov_type="hac", hac_kwds={"prewhite": False, "adjust": False}
    )
    _close(plain.covariance, case["cov_hac_andrews_noprewhite_noadjust"], RTOL_HAC)
    ref = brier_inference(y, p, cov_type="hac", reference=np.array(case["y_proba_b"]))
    _close(ref.covariance, case["ref_cov_hac"], RTOL_HAC)
    flt = brier_inference(y, p, cov_type="hac", reference=0.25)
    _close(flt.covariance, case["float_ref_cov_hac"], RTOL_HAC)


@pytest.mark.parametrize("case", WEIGHTED, ids=[c["name"] for c in WEIGHTED])
def test_hac_weighted_is_kernhac_of_weighted_lm(case):
    res = brier_inference(
        case["y_true"], case["y_proba"], cov_type="hac", sample_weight=case["sample_weight"]
    )
    _close(res.covariance, case["w_cov_hac"], RTOL_HAC)


def test_hac_kwds_validation():
    c = CASES[0]
    with pytest.raises(TypeError, match="hac_kwds"):
        brier_inference(c["y_true"], c["y_proba"], cov_type="hac", hac_kwds={"lag": 3})
    with pytest.raises(TypeError, match="hac_kwds"):
        brier_inference(c["y_true"], c["y_proba"], cov_type="hac", hac_kwds=[1])


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("cov_type", ["iid", "hac", "bootstrap"])
def test_errors(cov_type):
    y = [0, 1, 0, 1, 1]
    p = [0.2, 0.8, 0.3, 0.6, 0.9]
    with pytest.raises(ValueError, match="at least 3"):
        brier_inference([0, 1], [0.2, 0.7], cov_type=cov_type)
    with pytest.raises(ValueError, match="single class"):
        brier_inference([1, 1, 1, 1], [0.2, 0.7, 0.5, 0.9], cov_type=cov_type)
    with pytest.raises(ValueError, match="constant"):
        brier_inference(y, y, cov_type=cov_type)  # perfect forecast
    with pytest.raises(ValueError, match="y_proba contains NaN"):
        brier_inference(y, [0.2, np.nan, 0.3, 0.6, 0.9], cov_type=cov_type)
    with pytest.raises(ValueError, match="y_true"):
        brier_inference([0, 1, np.nan, 1, 1], p, cov_type=cov_type)
    with pytest.raises(ValueError, match="y_proba"):
        brier_inference(y, [0.2, 1.8, 0.3, 0.6, 0.9], cov_type=cov_type)
    with pytest.raises(ValueError, match="samples"):
        brier_inference(y, p[:4], cov_type=cov_type)
    with pytest.raises(ValueError, match="reference"):
        brier_inference(y, p, reference=[0.5, 0.5], cov_type=cov_type)
    with pytest.raises(ValueError, match="reference"):
        brier_inference(y, p, reference=1.5, cov_type=cov_type)
    with pytest.raises(ValueError, match="reference"):
        brier_inference(y, p, reference=np.array(y, dtype=float), cov_type=cov_type)
    with pytest.raises(ValueError, match="sample_weight"):
        brier_inference(y, p, sample_weight=[1, 1, -1, 1, 1], cov_type=cov_type)


def test_bad_options():
    y = [0, 1, 0, 1, 1]
    p = [0.2, 0.8, 0.3, 0.6, 0.9]
    with pytest.raises(ValueError, match="cov_type"):
        brier_inference(y, p, cov_type="robust")
    res = brier_inference(y, p)
    with pytest.raises(ValueError, match="metric"):
        res.standard_error("auc")
    with pytest.raises(ValueError, match="confidence_level"):
        res.confidence_interval(confidence_level=95)
    with pytest.raises(ValueError, match="method"):
        res.confidence_interval(method="bca")
    assert "BrierInferenceResult(" in repr(res)
    assert isinstance(res, BrierInferenceResult)


# ---------------------------------------------------------------------------
# small coverage study (seed 004 design, T = 200, rho = 0.5, pi = 0.1, mu = 1)
# ---------------------------------------------------------------------------
def simulate(rng, reps, T, rho, pi, mu):
    tau = norm.ppf(pi) * (1 - rho) / np.sqrt(1 - rho**2)
    xz = tau + rng.normal(size=(reps, T))
    xz[:, 0] = tau / (1 - rho) + rng.normal(size=reps) / np.sqrt(1 - rho**2)
    zs = lfilter([1.0], [1.0, -rho], xz, axis=1)
    xy = rng.normal(scale=np.sqrt(1 - rho**2), size=(reps, T))
    xy[:, 0] = rng.normal(size=reps)
    ys = lfilter([1.0], [1.0, -rho], xy, axis=1)
    z = (zs > 0).astype(float)
    return z, norm.cdf(mu * (2 * z - 1) + ys)


def true_scores(pi, mu):
    a = -mu / np.sqrt(2)
    bs = multivariate_normal(mean=[0, 0], cov=[[1, 0.5], [0.5, 1]]).cdf([a, a])
    return float(bs), float(1 - bs / (pi * (1 - pi)))


def test_true_scores_match_paper_footnote():
    # seed 004 footnotes: BSS = 0.547 (mu = 1) and 0.907 (mu = 2) at pi = 0.5
    assert true_scores(0.5, 1.0)[1] == pytest.approx(0.547, abs=1e-3)
    assert true_scores(0.5, 2.0)[1] == pytest.approx(0.907, abs=1e-3)  # paper truncates


def test_coverage_small_scale():
    rng = np.random.default_rng(20160401)
    reps, T, rho, pi, mu = 200, 200, 0.5, 0.1, 1.0
    bs_true, bss_true = true_scores(pi, mu)
    z, p = simulate(rng, reps, T, rho, pi, mu)
    hits = {k: 0 for k in ("iid_bs", "hac_bs", "iid_bss", "hac_bss")}
    used = 0
    for i in range(reps):
        if z[i].min() == z[i].max():
            continue
        used += 1
        for cov in ("iid", "hac"):
            res = brier_inference(z[i], p[i], cov_type=cov)
            lo, hi = res.confidence_interval(metric="brier_score")
            hits[f"{cov}_bs"] += lo <= bs_true <= hi
            lo, hi = res.confidence_interval(metric="brier_skill_score")
            hits[f"{cov}_bss"] += lo <= bss_true <= hi
    cov = {k: v / used for k, v in hits.items()}
    # paper, Table 1 (T = 200, rho = 0.5, pi = 0.1): BS 0.818 / 0.918, BSS 0.871 / 0.920
    assert cov["iid_bs"] < cov["hac_bs"] - 0.04
    assert abs(cov["hac_bs"] - 0.918) < 0.06
    assert abs(cov["iid_bs"] - 0.818) < 0.08
    assert abs(cov["hac_bss"] - 0.920) < 0.06


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings
from hypothesis import strategies as st


@st.composite
def forecasts(draw):
    n = draw(st.integers(5, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p).astype(int)
    y[0], y[1] = 0, 1  # two classes
    w = rng.integers(1, 4, size=n)
    return y, p, w, rng.permutation(n)


@settings(max_examples=40, deadline=None)
@given(forecasts())
def test_iid_is_order_invariant_and_weights_rescale(data):
    y, p, w, perm = data
    a = brier_inference(y, p, sample_weight=w)
    b = brier_inference(y[perm], p[perm], sample_weight=w[perm])
    np.testing.assert_allclose(a.covariance, b.covariance, rtol=1e-10, atol=1e-15)
    assert a.brier_skill_score == pytest.approx(b.brier_skill_score, rel=1e-12, abs=1e-12)
    # integer weights = repeated rows (frequency weights), scores and covariance
    rep = brier_inference(np.repeat(y, w), np.repeat(p, w))
    np.testing.assert_allclose(a.covariance, rep.covariance, rtol=1e-10, atol=1e-15)
    assert a.brier_score == pytest.approx(rep.brier_score, rel=1e-12)
    assert a.brier_skill_score == pytest.approx(rep.brier_skill_score, rel=1e-10, abs=1e-12)
    assert a.brier_index == pytest.approx(rep.brier_index, rel=1e-12)


# ---------------------------------------------------------------------------
# result protocol, deprecations, extreme input
# ---------------------------------------------------------------------------
def test_result_protocol():
    import dataclasses

    c = CASES[0]
    res = brier_inference(c["y_true"], c["y_proba"])
    new = res.confidence_interval(0.9, metric="brier_index")
    assert new == res.confidence_interval(confidence_level=0.9, metric="brier_index")
    assert res.confidence_interval() == res.confidence_interval(metric="brier_score")
    with pytest.raises(TypeError):
        res.confidence_interval(0.9, "brier_index")
    import inspect

    params = inspect.signature(res.confidence_interval).parameters
    assert list(params)[:1] == ["confidence_level"]
    assert params["metric"].kind is inspect.Parameter.KEYWORD_ONLY
    d = res.to_dict()
    assert set(d) >= {"brier_score", "covariance", "n", "total_weight", "cov_type"}
    assert not any(k.startswith("_") for k in d)
    assert d["covariance"] == res.covariance.tolist()
    assert "brier_index 95% CI" in res.summary()
    assert "BrierInferenceResult(" in res._repr_html_() or "<table>" in res._repr_html_()
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.brier_score = 0.0
    with pytest.raises(ValueError, match="^metric"):
        res.confidence_interval(metric="auc")


def test_extreme_weights_give_float_or_value_error():
    # issue item 14: no ZeroDivisionError / OverflowError
    with pytest.raises(ValueError, match="^sample_weight"):
        brier_inference([1, 0, 0, 0], [0] * 4, sample_weight=[1, 1e-200, 1e-200, 1e-200])
    rng = np.random.default_rng(0)
    y = (rng.uniform(size=20) < 0.5).astype(int)
    y[:2] = [1, 0]
    p = rng.uniform(size=20)
    # a class with a tiny weight: BS0 ~ 1e-200, the skill's gradient ~ 1e200
    w = np.where(y == 1, 1e-200, 1.0)
    res = brier_inference(y, p, sample_weight=w)
    se = res.standard_error("brier_skill_score")
    assert isinstance(se, float) and np.isfinite(se) and se > 1e150
    # (iid with weights 1e-200: a total weight below 3, refused above)
    for cov_type, scale in (("iid", 1e300), ("hac", 1e-200), ("hac", 1e300)):
        r = brier_inference(y, p, sample_weight=np.full(20, scale), cov_type=cov_type)
        for m in ("brier_score", "brier_skill_score", "brier_index"):
            lo, hi = r.confidence_interval(metric=m)
            assert isinstance(lo, float) and np.isfinite(lo) and np.isfinite(hi)
    # HAC weights are scale-free (time points), equal to unit weights
    a = brier_inference(y, p, sample_weight=np.full(20, 1e-200), cov_type="hac")
    b = brier_inference(y, p, cov_type="hac")
    np.testing.assert_allclose(a.covariance, b.covariance, rtol=1e-10)
    # bootstrap replicates of order 1e200 do not overflow the standard error
    boot = brier_inference(
        y,
        p,
        sample_weight=w,
        cov_type="bootstrap",
        bootstrap="moving_block",
        n_resamples=50,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isfinite(boot.standard_error("brier_skill_score"))


def test_hac_zero_weight_rows_stay_time_points_r_kernhac():
    # R's kernHAC scales its bread by the positive weights: (n_pos / T)^2 times ours
    fx = json.loads(
        (
            pathlib.Path(__file__).parent / "fixtures" / "hac_zero_weight_fixture.json"
        ).read_text()
    )
    from skbrier._core.kernels.moments import weighted_scores
    from skbrier.stats.long_run_covariance import long_run_covariance

    g = np.asarray(fx["g"])[:, None]
    w = np.asarray(fx["w"])
    ratio = (np.count_nonzero(w) / w.shape[0]) ** 2
    u = weighted_scores(g, w)
    _close(long_run_covariance(u)[0, 0] * ratio, fx["kernhac_default"], 1e-8)
    _close(
        long_run_covariance(u, prewhite=False, adjust=False, bandwidth=3)[0, 0] * ratio,
        fx["kernhac_noprewhite_noadjust_bw3"],
        1e-10,
    )
    # brier_inference: zero-weight rows count as time points (n) under HAC
    c = CASES[1]
    wz = np.asarray(c["sample_weight"]).copy()
    wz[::10] = 0.0
    res = brier_inference(c["y_true"], c["y_proba"], sample_weight=wz, cov_type="hac")
    assert res.n == c["T"]
    iid = brier_inference(c["y_true"], c["y_proba"], sample_weight=wz)
    assert iid.n == np.count_nonzero(wz)


@pytest.mark.parametrize("dtype", [np.float16, ">f8", bool, "<i1"])
def test_label_dtype_does_not_matter(dtype):
    c = CASES[0]
    y = np.asarray(c["y_true"])
    a = brier_inference(y, c["y_proba"], cov_type="hac")
    b = brier_inference(y.astype(dtype), c["y_proba"], cov_type="hac")
    np.testing.assert_array_equal(a.covariance, b.covariance)
    assert a.brier_skill_score == b.brier_skill_score


@pytest.mark.parametrize("dask_input", [False, True])
@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"hac_kwds": {"kernel": "bartlett"}}, "hac_kwds"),
        ({"cov_type": "bootstrap", "hac_kwds": {"prewhite": False}}, "hac_kwds"),
        ({"bootstrap": "moving_block"}, "bootstrap"),
        ({"cov_type": "hac", "bootstrap": "stationary"}, "bootstrap"),
        ({"block_length": 5}, "block_length"),
    ],
)
def test_an_option_of_another_cov_type_is_refused_not_ignored(options, named, dask_input):
    """``hac_kwds`` without ``cov_type="hac"``, a block scheme or a block
    length without ``"bootstrap"``: they were silently ignored (an iid
    interval where the user asked for a block bootstrap); now refused,
    naming the option and the ``cov_type`` it belongs to, on every backend."""
    from skbrier.stats import compare_brier

    rng = np.random.default_rng(3)
    p = rng.uniform(size=80)
    y = (rng.uniform(size=80) < p).astype(int)
    q = np.clip(p + 0.05, 0, 1)
    if dask_input:
        da = pytest.importorskip("dask.array")
        y, p, q = (da.from_array(v, chunks=40) for v in (y, p, q))
    with pytest.raises(ValueError, match=rf"^{named}=.*cov_type="):
        brier_inference(y, p, **options)
    with pytest.raises(ValueError, match=rf"^{named}=.*cov_type="):
        compare_brier(y, p, q, **options)
    # the defaults and the explicit iid scheme are accepted
    brier_inference(y, p, bootstrap="iid")
    compare_brier(y, p, q, bootstrap="iid")
