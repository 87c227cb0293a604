"""Cumulative calibration tests and the multicalibration error, against MCGrad and MAPIE.

The numbers of the peers come from ``tests/fixtures/cumulative_fixtures.json``,
made by ``tests/fixtures/make_cumulative_fixtures.py`` running mcgrad 0.1.5
and mapie 1.6.0 themselves.
"""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np
import pytest
from scipy import stats

import skbrier
from skbrier._core.kernels import cumulative as kern
from skbrier.metrics import cumulative_calibration, multicalibration_error

FIXTURES = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "cumulative_fixtures.json").read_text()
)
CURVES = {c["name"]: c for c in FIXTURES["curves"]}
EPS = sys.float_info.epsilon
#: the absolute error of MAPIE's 1 - cdf far in the tail: its truncated series
#: give 8.6e-14 at x = 7.1 for the Kolmogorov-Smirnov tail 2.5e-12 (the
#: reflection series 4 (1 - Phi(x)) - ...), and -1.4e-11 at x = 11
MAPIE_TAIL = 3e-11
#: MCGrad returns machine epsilon as the p-value from this many sigmas on
MCGRAD_SIGMA_MAX = 8.26732673


def _data(n=300, seed=0, power=1.0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, n)
    y = (rng.uniform(size=n) < p**power).astype(int)
    return y, p


def _mcgrad_pvalue_matches(ours: float, theirs: float, sigmas: float) -> None:
    if sigmas >= MCGRAD_SIGMA_MAX:
        assert theirs == EPS and ours < EPS  # MCGrad's floor; ours is the tail itself
    else:
        assert ours == pytest.approx(theirs, rel=1e-7, abs=1e-15)


# --------------------------------------------------------------------------- MCGrad
@pytest.mark.parametrize("name", list(CURVES))
def test_equals_mcgrad_ecce_unweighted(name):
    case = CURVES[name]
    res = cumulative_calibration(case["y"], case["p"])
    ref = case["mcgrad"]
    assert res.kuiper == pytest.approx(ref["ecce"], rel=1e-12)
    assert res.kuiper_statistic == pytest.approx(ref["ecce_sigma"], rel=1e-12)
    _mcgrad_pvalue_matches(res.kuiper_pvalue, ref["ecce_pvalue"], ref["ecce_sigma"])
    # without weights the three conventions agree with MCGrad
    mc = cumulative_calibration(case["y"], case["p"], convention="mcgrad")
    assert mc.kuiper_statistic == pytest.approx(ref["ecce_sigma"], rel=1e-12)


@pytest.mark.parametrize("name", [n for n in CURVES if "w" in CURVES[n]])
def test_equals_mcgrad_ecce_weighted(name):
    case = CURVES[name]
    ref = case["mcgrad_weighted"]
    res = cumulative_calibration(
        case["y"], case["p"], sample_weight=case["w"], convention="mcgrad"
    )
    assert res.kuiper == pytest.approx(ref["ecce"], rel=1e-12)
    assert res.kuiper_statistic == pytest.approx(ref["ecce_sigma"], rel=1e-12)
    _mcgrad_pvalue_matches(res.kuiper_pvalue, ref["ecce_pvalue"], ref["ecce_sigma"])
    # frequency weights: the same curve, another sigma (sqrt(sum w p(1-p)) / W)
    freq = cumulative_calibration(case["y"], case["p"], sample_weight=case["w"])
    assert freq.kuiper == pytest.approx(ref["ecce"], rel=1e-12)
    p, w = np.asarray(case["p"]), np.asarray(case["w"])
    assert freq.sigma == pytest.approx(
        np.sqrt(np.sum(w * p * (1 - p))) / w.sum(), rel=1e-12
    )


# --------------------------------------------------------------------------- MAPIE
@pytest.mark.parametrize("name", list(CURVES))
def test_equals_mapie(name):
    case = CURVES[name]
    ref = case["mapie"]
    res = cumulative_calibration(case["y"], case["p"])
    assert res.sigma == pytest.approx(ref["length_scale"], rel=1e-12)
    # MAPIE jitters the forecasts by a relative 1e-8 (random_state=1) before
    # sorting, and its series of 1 - cdf lose ~1e-12 far in the tail
    assert res.ks_statistic == pytest.approx(ref["ks_statistic"], rel=1e-6)
    assert res.ks_pvalue == pytest.approx(ref["ks_pvalue"], rel=1e-5, abs=MAPIE_TAIL)
    mapie = cumulative_calibration(case["y"], case["p"], convention="mapie")
    assert mapie.kuiper_statistic == pytest.approx(ref["kuiper_statistic"], rel=1e-6)
    assert mapie.kuiper_pvalue == pytest.approx(
        ref["kuiper_pvalue"], rel=1e-5, abs=MAPIE_TAIL
    )
    assert mapie.ks == res.ks  # the origin changes Kuiper's range only
    assert mapie.kuiper <= res.kuiper


@pytest.mark.parametrize(
    "name", [n for n in CURVES if "cumulative_differences" in CURVES[n]["mapie"]]
)
def test_curve_equals_mapie_cumulative_differences(name):
    case = CURVES[name]
    res = cumulative_calibration(case["y"], case["p"])
    exact = np.asarray(case["mapie"]["cumulative_differences_no_jitter"])
    jittered = np.asarray(case["mapie"]["cumulative_differences"])
    if res.forecast.shape[0] == exact.shape[0]:  # distinct forecasts: every point
        np.testing.assert_allclose(res.cumulative_difference, exact, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(res.cumulative_difference, jittered, atol=1e-7)
    else:  # ties: the points after each run of equal forecasts
        n = len(case["y"])
        idx = np.round(res.share * n).astype(int) - 1
        np.testing.assert_allclose(res.cumulative_difference, exact[idx], atol=1e-15)


@pytest.mark.parametrize("name", list(CURVES))
def test_spiegelhalter_equals_mapie(name):
    case = CURVES[name]
    ref = case["mapie"]
    z = skbrier.spiegelhalter_z(case["y"], case["p"])
    assert z.statistic == pytest.approx(ref["spiegelhalter_statistic"], rel=1e-12)
    # MAPIE's p-value is one-sided (1 - Phi(z)); skbrier's is two-sided
    one_sided = ref["spiegelhalter_pvalue"]
    assert z.pvalue == pytest.approx(2 * min(one_sided, 1 - one_sided), rel=1e-9)


def test_mapie_doc_examples():
    # the numbers printed in MAPIE's docstrings
    y, s = [0, 1, 0, 1, 0], [0.1, 0.9, 0.21, 0.9, 0.5]
    assert round(cumulative_calibration(y, s).ks_statistic, 3) == 0.978
    mapie = cumulative_calibration(y, s, convention="mapie")
    assert round(mapie.kuiper_statistic, 3) == 0.857
    # two rows of forecast 0.5 with different outcomes: MAPIE's jitter
    # (relative 1e-8, RandomState(1)) orders them and its curve has a point
    # between them; skbrier pools the tie
    y, s = np.array([1, 0, 1, 0, 1, 0]), np.array([0.8, 0.3, 0.5, 0.5, 0.7, 0.1])
    jittered = s * (1 + 1e-8 * np.random.RandomState(1).normal(size=6))
    assert round(cumulative_calibration(y, jittered).ks_pvalue, 4) == 0.7857
    assert round(
        cumulative_calibration(y, jittered, convention="mapie").kuiper_pvalue, 4
    ) == (0.9684)
    pooled = cumulative_calibration(y, s)
    assert pooled.forecast.tolist() == [0.1, 0.3, 0.5, 0.7, 0.8]
    assert pooled.ks_pvalue > 0.99


# --------------------------------------------------------------------------- distributions
def test_distribution_functions_equal_the_peers():
    ref = FIXTURES["cdf"]
    x = np.asarray(ref["x"])
    ku = kern.brownian_range_sf(x)
    ks = kern.brownian_max_abs_sf(x)
    np.testing.assert_allclose(
        ku, 1 - np.asarray(ref["mapie_kuiper_cdf"]), rtol=1e-9, atol=MAPIE_TAIL
    )
    np.testing.assert_allclose(
        ks, 1 - np.asarray(ref["mapie_kolmogorov_smirnov_cdf"]), rtol=1e-9, atol=MAPIE_TAIL
    )
    for ours, theirs, sig in zip(ku, ref["mcgrad_ecce_pvalue_from_sigma"], x):
        _mcgrad_pvalue_matches(float(ours), theirs, float(sig))


def test_distribution_tails_and_continuity():
    # far tails: the leading terms of the reflection series
    assert kern.brownian_max_abs_sf(10.0) == pytest.approx(4 * stats.norm.sf(10), rel=1e-12)
    assert kern.brownian_range_sf(10.0) == pytest.approx(
        8 * stats.norm.sf(10) - 16 * stats.norm.sf(20), rel=1e-12
    )
    # the two series meet where the functions switch between them
    for f, x0 in ((kern.brownian_max_abs_sf, 1.0), (kern.brownian_range_sf, 1.5)):
        lo, hi = f(np.array([x0 - 1e-12, x0]))
        assert lo == pytest.approx(hi, rel=1e-9)
    grid = np.linspace(0.0, 12.0, 2001)
    for f in (kern.brownian_max_abs_sf, kern.brownian_range_sf):
        v = f(grid)
        assert v[0] == 1.0 and np.all(np.diff(v) <= 1e-16) and v[-1] > 0
        assert np.isnan(f(np.nan)) and f(np.inf) == 0.0


def test_p_values_are_uniform_under_calibration():
    # the asymptotic distributions: about 5% of calibrated samples rejected
    rng = np.random.default_rng(11)
    ks, ku = [], []
    for _ in range(300):
        p = rng.uniform(0.05, 0.95, 400)
        y = rng.uniform(size=400) < p
        res = cumulative_calibration(y, p)
        ks.append(res.ks_pvalue)
        ku.append(res.kuiper_pvalue)
    for pv in (np.asarray(ks), np.asarray(ku)):
        # the walk is watched at n points only: slightly conservative
        assert 0.02 <= np.mean(pv < 0.05) <= 0.07
        assert 0.05 <= np.mean(pv < 0.1) <= 0.13


# --------------------------------------------------------------------------- conventions
def test_ties_do_not_depend_on_the_order_of_rows():
    rng = np.random.default_rng(3)
    p = np.round(rng.uniform(0.05, 0.95, 500), 1)  # heavy ties
    y = (rng.uniform(size=500) < p).astype(int)
    ref = cumulative_calibration(y, p)
    assert ref.forecast.shape[0] == np.unique(p).shape[0]
    for seed in range(3):
        perm = np.random.default_rng(seed).permutation(500)
        got = cumulative_calibration(y[perm], p[perm])
        assert got.kuiper == ref.kuiper and got.ks == ref.ks
        np.testing.assert_array_equal(got.cumulative_difference, ref.cumulative_difference)


def test_integer_weights_equal_repeated_rows():
    y, p = _data(120, seed=4)
    p = np.round(p, 2)
    w = np.random.default_rng(5).integers(0, 4, 120).astype(float)
    rep = np.repeat(np.arange(120), w.astype(int))
    a = cumulative_calibration(y, p, sample_weight=w)
    b = cumulative_calibration(y[rep], p[rep])
    for field in (
        "ks",
        "kuiper",
        "sigma",
        "ks_statistic",
        "kuiper_statistic",
        "ks_pvalue",
        "kuiper_pvalue",
    ):
        assert getattr(a, field) == pytest.approx(getattr(b, field), rel=1e-12), field
    np.testing.assert_allclose(a.share, b.share, rtol=1e-12)
    np.testing.assert_allclose(
        a.cumulative_difference, b.cumulative_difference, rtol=1e-10, atol=1e-15
    )
    assert a.total_weight == b.n and a.n == np.count_nonzero(w)


def test_mcgrad_convention_does_not_depend_on_the_scale_of_the_weights():
    y, p = _data(80, seed=6)
    w = np.random.default_rng(7).uniform(0.1, 3.0, 80)
    ref = cumulative_calibration(y, p, sample_weight=w, convention="mcgrad")
    for scale in (1e-200, 1e-3, 7.0, 1e200):
        got = cumulative_calibration(y, p, sample_weight=w * scale, convention="mcgrad")
        assert got.kuiper_statistic == pytest.approx(ref.kuiper_statistic, rel=1e-12)
        assert got.ks_pvalue == pytest.approx(ref.ks_pvalue, rel=1e-10)


def test_frequency_weights_count_observations():
    y, p = _data(50, seed=8)
    w = np.full(50, 2.0)
    a = cumulative_calibration(y, p, sample_weight=w)
    b = cumulative_calibration(y, p)
    assert a.kuiper == pytest.approx(b.kuiper, rel=1e-12)  # the curve is scale-free
    assert a.kuiper_statistic == pytest.approx(np.sqrt(2) * b.kuiper_statistic, rel=1e-12)
    with pytest.raises(ValueError, match="sample_weight sums to"):
        cumulative_calibration(y, p, sample_weight=np.full(50, 1e-3))


def test_packed_sort_equals_the_argsort_path():
    # the unweighted path sorts bit patterns; unit weights take the argsort path
    y, p = _data(400, seed=9)
    p[:5] = [0.0, -0.0, 1.0, 0.0, 1.0]
    y[:5] = [0, 1, 1, 0, 0]
    p[5:50] = 0.5
    a = cumulative_calibration(y, p)
    b = cumulative_calibration(y, p, sample_weight=np.ones(400))
    np.testing.assert_array_equal(a.forecast, b.forecast)
    np.testing.assert_allclose(
        a.cumulative_difference, b.cumulative_difference, rtol=0, atol=1e-15
    )
    assert a.forecast[0] == 0.0 and not np.signbit(a.forecast[0])


def test_zero_weight_rows_are_removed_rows():
    y, p = _data(60, seed=10)
    w = np.random.default_rng(1).uniform(0.5, 2.0, 60)
    w[:10] = 0.0
    a = cumulative_calibration(y, p, sample_weight=w)
    b = cumulative_calibration(y[10:], p[10:], sample_weight=w[10:])
    np.testing.assert_array_equal(a.forecast, b.forecast)
    assert a.kuiper_pvalue == b.kuiper_pvalue and a.n == 50


def test_forecasts_of_zero_and_one():
    y = np.array([0, 1, 1, 0, 1, 0])
    p = np.array([0.0, 1.0, 1.0, 0.0, 0.0, 1.0])
    with pytest.warns(skbrier.exceptions.HardForecastWarning):
        res = cumulative_calibration(y, p)
    assert res.sigma == 0.0 and res.kuiper_statistic == np.inf and res.kuiper_pvalue == 0.0
    with pytest.warns(skbrier.exceptions.HardForecastWarning):
        flat = cumulative_calibration([0, 1, 1, 0], [0.0, 1.0, 1.0, 0.0])
    assert flat.kuiper == 0.0 and flat.kuiper_statistic == 0.0 and flat.kuiper_pvalue == 1.0


# --------------------------------------------------------------------------- groups
def test_groups_equal_each_group_alone():
    y, p = _data(900, seed=12, power=1.2)
    g = np.random.default_rng(13).choice(["a", "b", "c"], 900)
    w = np.random.default_rng(14).uniform(0.5, 2.0, 900)
    for conv in ("paper", "mcgrad", "mapie"):
        res = cumulative_calibration(y, p, sample_weight=w, groups=g, convention=conv)
        assert list(res.groups) == ["a", "b", "c"]
        for i, label in enumerate(res.groups):
            m = g == label
            alone = cumulative_calibration(y[m], p[m], sample_weight=w[m], convention=conv)
            for field in (
                "ks",
                "kuiper",
                "sigma",
                "kuiper_statistic",
                "ks_pvalue",
                "kuiper_pvalue",
            ):
                assert res.by_group[field][i] == pytest.approx(
                    getattr(alone, field), rel=1e-10
                )
            assert res.by_group["weight"][i] == pytest.approx(w[m].sum(), rel=1e-12)
        # the overall numbers do not depend on the groups
        assert res.kuiper == pytest.approx(
            cumulative_calibration(y, p, sample_weight=w, convention=conv).kuiper, rel=1e-12
        )


def test_groups_holm_and_worst_group():
    statsmodels = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(15)
    g = rng.integers(0, 6, 3000)
    p = rng.uniform(0.05, 0.95, 3000)
    y = rng.uniform(size=3000) < np.where(g == 4, p**1.5, p)
    res = cumulative_calibration(y, p, groups=g)
    for test in ("ks", "kuiper"):
        expected = statsmodels.multipletests(res.by_group[f"{test}_pvalue"], method="holm")[
            1
        ]
        np.testing.assert_allclose(
            res.by_group[f"{test}_pvalue_holm"], expected, rtol=1e-12
        )
    assert res.worst_group == 4
    frame = res.to_frame()
    assert list(frame["group"]) == ["overall", 0, 1, 2, 3, 4, 5]
    assert "worst_group" in res.summary()


def test_holm_equals_r_p_adjust():
    # p.adjust(c(0.01, 0.04, NA, 0.03, 0.5, 0.002, 0.03), "holm") in R 4.2
    got = kern.holm(np.array([0.01, 0.04, np.nan, 0.03, 0.5, 0.002, 0.03]))
    np.testing.assert_allclose(
        got, [0.05, 0.12, np.nan, 0.12, 0.5, 0.012, 0.12], rtol=1e-15
    )


def test_small_groups_get_no_p_value():
    y, p = _data(40, seed=16)
    g = np.r_[np.zeros(38, int), 1, 1]
    res = cumulative_calibration(y, p, groups=g)
    assert np.isnan(res.by_group["kuiper_pvalue"][1])
    assert np.isnan(res.by_group["kuiper_pvalue_holm"][1])
    assert res.by_group["kuiper_pvalue_holm"][0] == res.by_group["kuiper_pvalue"][0]
    assert res.worst_group == 0
    # a group whose rows all have zero weight is absent
    w = np.r_[np.ones(38), 0.0, 0.0]
    assert list(cumulative_calibration(y, p, sample_weight=w, groups=g).groups) == [0]


# --------------------------------------------------------------------------- multicalibration
MC = FIXTURES["multicalibration"]


@pytest.mark.parametrize(
    "case",
    MC["cases"],
    ids=lambda c: f"depth{c['max_depth']}{'-weighted' if c['weighted'] else ''}",
)
def test_multicalibration_equals_mcgrad(case):
    pd = pytest.importorskip("pandas")
    data = MC["data"]
    segments = pd.DataFrame({k: data[k] for k in ("region", "device", "tier")})
    res = multicalibration_error(
        data["y"],
        data["p"],
        segments=segments,
        sample_weight=data["w"] if case["weighted"] else None,
        max_depth=case["max_depth"],
        min_samples=10,
        convention="mcgrad" if case["weighted"] else "paper",
    )
    for ours, theirs in (
        ("mce_sigma", "mce_sigma"),
        ("mce", "mce"),
        ("mce_relative", "mce_relative"),
        ("mde", "mde"),
        ("global_ecce", "global_ecce"),
        ("global_ecce_sigma", "global_ecce_sigma"),
    ):
        assert getattr(res, ours) == pytest.approx(case[theirs], rel=1e-10), ours
    _mcgrad_pvalue_matches(res.pvalue, case["mce_pvalue"], case["mce_sigma"])
    _mcgrad_pvalue_matches(
        res.global_pvalue, case["global_ecce_pvalue"], case["global_ecce_sigma"]
    )
    assert res.n_segments == case["n_segments"]
    np.testing.assert_allclose(
        np.sort(res.by_segment["ecce_sigma"]),
        case["segments_ecce_sigma_sorted"],
        rtol=1e-10,
    )
    np.testing.assert_allclose(
        np.sort(res.by_segment["ecce"]),
        case["segments_ecce_sorted"],
        rtol=1e-10,
        atol=1e-15,
    )


def test_multicalibration_segments_are_cumulative_calibration_groups():
    y, p = _data(1500, seed=17, power=1.1)
    rng = np.random.default_rng(18)
    a, b = rng.integers(0, 3, 1500), rng.choice(["x", "y"], 1500)
    res = multicalibration_error(
        y, p, segments=np.c_[a, b].astype(object), max_depth=2, min_samples=0
    )
    # depth 1: each column's groups; depth 2: the intersections
    by_a = cumulative_calibration(y, p, groups=a)
    inter = cumulative_calibration(y, p, groups=np.char.add(a.astype(str), b))
    frame = res.to_frame().set_index("segment")
    for i, lab in enumerate(by_a.groups):
        assert frame.loc[f"x0={lab}", "ecce_sigma"] == pytest.approx(
            by_a.by_group["kuiper_statistic"][i], rel=1e-12
        )
    assert frame.loc["x0=2 & x1=y", "ecce"] == pytest.approx(
        inter.by_group["kuiper"][list(inter.groups).index("2y")], rel=1e-12
    )
    assert res.n_segments == 1 + 3 + 2 + 6
    best = np.argmax(res.by_segment["ecce_sigma"])
    assert res.worst_segment == res.segments[best]
    assert res.pvalue == pytest.approx(np.nanmin(res.by_segment["pvalue"]), rel=1e-12)


def test_multicalibration_inputs():
    y, p = _data(200, seed=19)
    seg = {"site": np.repeat(["s1", "s2"], 100)}
    res = multicalibration_error(y, p, segments=seg, max_depth=0)
    assert res.n_segments == 1 and res.worst_segment == {}
    assert multicalibration_error(y, p, segments=seg).segments[1] == {"site": "s1"}
    with pytest.raises(ValueError, match="segments"):
        multicalibration_error(y, p, segments=np.zeros((200, 2, 2)))
    bad = np.repeat(["s1", None], 100).astype(object)
    with pytest.raises(ValueError, match=r"segments\['x0'\]"):
        multicalibration_error(y, p, segments=bad)
    with pytest.raises(ValueError, match=r"segments\['site'\]"):
        multicalibration_error(y, p, segments={"site": seg["site"][:10]})
    with pytest.raises(ValueError, match="min_samples"):
        multicalibration_error(y, p, segments=seg, min_samples=500)
    with pytest.raises(ValueError, match="max_depth"):
        multicalibration_error(y, p, segments=seg, max_depth=-1)
    with pytest.raises(ValueError, match="convention"):
        multicalibration_error(y, p, segments=seg, convention="mapie")


def test_errors_name_the_parameter():
    y, p = _data(30)
    with pytest.raises(ValueError, match="convention"):
        cumulative_calibration(y, p, convention="tygert")
    with pytest.raises(ValueError, match="groups"):
        cumulative_calibration(y, p, groups=np.zeros(5))
    with pytest.raises(ValueError, match="at least 3 observations"):
        cumulative_calibration([0, 1], [0.2, 0.3])
    with pytest.raises(TypeError, match="y_proba"):
        cumulative_calibration(y, ["a"] * 30)


# --------------------------------------------------------------------------- output
def test_frame_and_plot():
    pytest.importorskip("pandas")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    y, p = _data(200, seed=20)
    res = cumulative_calibration(y, p)
    curve = res.to_frame(curve=True)
    assert curve.shape == (201, 3) and curve["share"].iloc[0] == 0.0
    assert curve["cumulative_difference"].iloc[-1] == pytest.approx(
        (y - p).mean(), abs=1e-15
    )
    ax = res.plot()
    x, line = ax.lines[0].get_data()
    np.testing.assert_array_equal(line, np.r_[0.0, res.cumulative_difference])
    np.testing.assert_array_equal(x, np.r_[0.0, res.share])
    import matplotlib.pyplot as plt

    plt.close("all")
    assert res.to_dict()["kuiper"] == res.kuiper


@pytest.mark.parametrize("scale", [5e-324, 1e-320])
def test_mcgrad_curve_of_subnormal_weights(scale):
    # MCGrad's weights scale observations (nothing refuses tiny ones): its
    # curve summed w (y - p) of weights of 5e-324, KS 0.1754 against 0.1978
    rng = np.random.default_rng(101)
    p = np.round(rng.uniform(size=40), 2)
    y = (rng.uniform(size=40) < p).astype(int)
    w = rng.integers(1, 5, 40).astype(float)
    g = p > 0.5
    ref = cumulative_calibration(y, p, sample_weight=w, convention="mcgrad", groups=g)
    got = cumulative_calibration(
        y, p, sample_weight=w * scale, convention="mcgrad", groups=g
    )
    for f in ("ks", "kuiper", "ks_statistic", "kuiper_statistic", "ks_pvalue"):
        assert getattr(got, f) == pytest.approx(getattr(ref, f), rel=1e-12), f
    np.testing.assert_allclose(
        got.cumulative_difference, ref.cumulative_difference, rtol=1e-12, atol=1e-15
    )
    for f in ("ks", "kuiper", "ks_statistic"):
        np.testing.assert_allclose(got.by_group[f], ref.by_group[f], rtol=1e-12)
    np.testing.assert_allclose(
        got.by_group["weight"], ref.by_group["weight"] * scale, rtol=1e-15
    )
    assert got.total_weight == pytest.approx(ref.total_weight * scale, rel=1e-15)


@pytest.mark.parametrize("scale", [5e-324, 1e-320, 1e300])
def test_mcgrad_multicalibration_of_odd_weight_scales(scale):
    # MCGrad's convention takes weights of any scale: the segments' curves of
    # weights of 5e-324 gave a global ECCE of 0.0652 against 0.0714
    rng = np.random.default_rng(12)
    p = np.round(rng.uniform(size=40), 2)
    y = np.r_[0, 1, (rng.uniform(size=38) < p[2:]).astype(int)]
    w = rng.integers(1, 5, 40).astype(float)
    kw = {"segments": p > 0.5, "min_samples": 3, "convention": "mcgrad"}
    ref = multicalibration_error(y, p, sample_weight=w, **kw)
    got = multicalibration_error(y, p, sample_weight=w * scale, **kw)
    assert got.global_ecce == pytest.approx(ref.global_ecce, rel=1e-12)


@pytest.mark.parametrize("all_zero_segment", [False, True])
def test_mcgrad_convention_counts_zero_weight_rows_as_mcgrad(all_zero_segment):
    """MCGrad counts every row of a segment for min_samples_per_segment, rows of
    weight 0 too; convention='mcgrad' dropped them first, so a segment of 21 rows
    (15 of positive weight) was left out: MCE_sigma 2.023 instead of MCGrad's
    2.110 (this seed).  A zero-weight row adds nothing else (its point of the
    curve repeats the previous one; no share of sigma)."""
    mcgrad = pytest.importorskip("mcgrad.metrics")
    pd = pytest.importorskip("pandas")
    import warnings

    rng = np.random.default_rng(77)
    n = int(rng.integers(100, 400))
    a, b = rng.choice(["u", "v", "w"], n), rng.choice(["k", "l"], n)
    p = rng.uniform(0.01, 0.99, n)
    y = (rng.uniform(size=n) < np.where(a == "u", p**1.3, p)).astype(int)
    w = rng.uniform(0.2, 3, n)
    w[rng.uniform(size=n) < 0.3] = 0.0
    if all_zero_segment:
        w[a == "w"] = 0.0
    df = pd.DataFrame({"y": y, "p": p, "a": a, "b": b, "w": w})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = mcgrad.MulticalibrationError(
            df, "y", "p", weight_column="w", categorical_segment_columns=["a", "b"],
            max_depth=2, min_samples_per_segment=20, max_values_per_segment_feature=10,
            precision_dtype="float64",
        )  # fmt: skip
        ref_sigma, ref_mce = float(ref.mce_sigma), float(ref.mce)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = multicalibration_error(
            y, p, segments=df[["a", "b"]], sample_weight=w, max_depth=2,
            min_samples=20, convention="mcgrad",
        )  # fmt: skip
    assert res.mce_sigma == pytest.approx(ref_sigma, rel=1e-10)
    assert res.mce == pytest.approx(ref_mce, rel=1e-10)
    assert res.by_segment["n"][0] == n
