"""Regression tests of the decomposition redesign and of its trust issues.

One binning rule, one resampling engine, the reliabilitydiag band, the result
protocol, one vocabulary, validation once, merge safety, scale-free weights
and bounded options (issue items 5, 8, 9, 10, 14, 15, 16, 18).
"""

from __future__ import annotations

import inspect
import json
import pickle
import warnings

import numpy as np
import pytest

from skbrier._core.kernels.decomposition import consistency_band_from_resamples
from skbrier.decomposition import BrierDecomposition
from skbrier.metrics.decomposition import (
    BinStatistics,
    CORPDecomposition,
    MulticlassDecomposition,
    MurphyDecomposition,
    binned_statistics,
    corp_decomposition,
    murphy_decomposition,
    murphy_from_statistics,
)

Y6 = np.array([0, 0, 0, 1, 1, 1])
P6 = np.array([0.4, 0.3, 0.2, 0.1, 0.5, 0.9])


def _data(n=600, seed=0, ties=True):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 3, n)
    if ties:
        p = np.round(p, 2)
    y = (rng.random(n) < p).astype(int)
    w = rng.uniform(0.2, 3.0, n)
    return y, p, w


# ----------------------------------------------------------------------------
# one resampling engine: the same seed gives the same intervals everywhere
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("random_state", [0, "generator"])
def test_function_and_estimator_give_the_same_murphy_intervals(weights, random_state):
    y, p, w = _data()
    w = w if weights else None

    def seed():
        return np.random.default_rng(5) if random_state == "generator" else random_state

    res = murphy_decomposition(
        y, p, sample_weight=w, n_resamples=60, random_state=seed(), bias_correction=True
    )
    est = BrierDecomposition(
        "murphy", n_resamples=60, random_state=seed(), bias_correction=True
    ).fit(y, p, sample_weight=w)
    names = {
        "brier_score": "brier_score",
        "miscalibration": "reliability",
        "discrimination": "resolution",
        "uncertainty": "uncertainty",
        "within_bin_variance": "within_bin_variance",
        "within_bin_covariance": "within_bin_covariance",
    }
    for key, component in names.items():
        assert est.confidence_intervals_[key] == tuple(
            res.confidence_interval(metric=component)
        )
    np.testing.assert_array_equal(
        est.decomposition_.bootstrap_distribution, res.bootstrap_distribution
    )


def test_function_and_estimator_same_intervals_multiclass_and_corp():
    rng = np.random.default_rng(2)
    P = rng.dirichlet([1, 2, 3], 300)
    y = np.array([rng.choice(3, p=r) for r in P])
    res = murphy_decomposition(y, P, n_resamples=20, random_state=4)
    est = BrierDecomposition("murphy", n_resamples=20, random_state=4).fit(y, P)
    for k, d in enumerate(res.per_class):
        assert est.confidence_intervals_[str(k)]["miscalibration"] == tuple(
            d.confidence_interval(metric="reliability")
        )
    yb, pb, w = _data(n=300, seed=3)
    c = corp_decomposition(yb, pb, sample_weight=w, n_resamples=20, random_state=1)
    e = BrierDecomposition(n_resamples=20, random_state=1).fit(yb, pb, w)
    np.testing.assert_array_equal(e.decomposition_.band_upper, c.band_upper)


@pytest.mark.parametrize(
    "random_state",
    [np.random.default_rng(0), np.random.RandomState(0), np.random.SeedSequence(0)],
)
def test_estimator_accepts_every_random_state_kind(random_state):
    # item 18: numpy Generators were refused by the binned estimator
    est = BrierDecomposition("murphy", n_resamples=5, random_state=random_state)
    est.fit(Y6, P6)
    assert est.confidence_intervals_ is not None


@pytest.mark.parametrize(
    "params, exc, match",
    [
        ({"random_state": "seed"}, TypeError, "random_state"),
        ({"random_state": -1}, ValueError, "random_state"),
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"n_jobs": True}, TypeError, "n_jobs"),
        ({"n_resamples": 1}, ValueError, "n_resamples"),
        ({"n_bins": 10**9}, ValueError, "n_bins"),
        ({"n_bins": True}, TypeError, "n_bins"),
        ({"confidence_level": float("nan")}, ValueError, "confidence_level"),
    ],
)
@pytest.mark.parametrize("method", ["corp", "murphy"])
def test_estimator_options_through_params(method, params, exc, match):
    with pytest.raises(exc, match=match):
        BrierDecomposition(method, **params).fit(Y6, P6)


# ----------------------------------------------------------------------------
# item 15: n_bins is bounded everywhere
# ----------------------------------------------------------------------------


def test_n_bins_is_bounded_in_functions_estimator_and_display():
    with pytest.raises(ValueError, match="n_bins"):
        murphy_decomposition(Y6, P6, n_bins=10**9)
    with pytest.raises(ValueError, match="n_bins"):
        BrierDecomposition("murphy", n_bins=10**9).partial_fit(Y6, P6)
    with pytest.raises(ValueError, match="strategy"):
        murphy_decomposition(Y6, P6, strategy=np.linspace(0, 1, 200_003))
    with pytest.raises(ValueError, match="edges"):
        binned_statistics(Y6.astype(float), P6, None, 10**9)
    pytest.importorskip("matplotlib")
    from skbrier.plotting.reliability import ReliabilityDisplay

    for method in ("corp", "murphy"):
        with pytest.raises(ValueError, match="n_bins"):
            ReliabilityDisplay.from_predictions(
                Y6, P6, decomposition_method=method, n_bins=10**9
            )


# ----------------------------------------------------------------------------
# item 8: unit weights equal no weights, integer weights equal repeated rows
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("n_bins", [3, 7, 10])
def test_quantile_bins_unit_weights_equal_no_weights(n_bins):
    y, p, _ = _data(n=97, seed=8)
    a = murphy_decomposition(y, p, n_bins=n_bins, strategy="quantile")
    b = murphy_decomposition(
        y, p, n_bins=n_bins, strategy="quantile", sample_weight=np.ones(97)
    )
    np.testing.assert_array_equal(a.bin_edges, b.bin_edges)
    np.testing.assert_array_equal(a.bin_counts, b.bin_counts)
    for key, value in a.components.items():
        assert b.components[key] == pytest.approx(value, abs=1e-15)
    # edges are those of sklearn / np.quantile (linear)
    np.testing.assert_array_equal(
        a.bin_edges, np.unique(np.quantile(p, np.arange(n_bins + 1) / n_bins))
    )


def test_quantile_bins_integer_weights_equal_repeated_rows():
    y, p, _ = _data(n=60, seed=9)
    w = np.random.default_rng(1).integers(0, 4, 60).astype(float)
    a = murphy_decomposition(y, p, n_bins=6, strategy="quantile", sample_weight=w)
    reps = np.repeat(np.arange(60), w.astype(int))
    b = murphy_decomposition(y[reps], p[reps], n_bins=6, strategy="quantile")
    np.testing.assert_array_equal(a.bin_edges, b.bin_edges)
    for key, value in a.components.items():
        assert b.components[key] == pytest.approx(value, abs=1e-13)


# ----------------------------------------------------------------------------
# item 10: one binning rule (edge value in the lower bin), right= option
# ----------------------------------------------------------------------------


def test_edge_values_go_to_the_lower_bin_as_calibration_curve():
    from sklearn.calibration import calibration_curve

    p = np.repeat(np.arange(11) / 10, 3)
    y = np.tile([0, 1, 1], 11)
    d = murphy_decomposition(y, p, n_bins=5)
    # (0, .2] holds 0, .1, .2; (.2, .4] holds .3, .4; ...
    assert d.bin_counts.tolist() == [9, 6, 6, 6, 6]
    prob_true, prob_pred = calibration_curve(y, p, n_bins=5)
    np.testing.assert_allclose(d.bin_mean_forecast, prob_pred, rtol=1e-15)
    np.testing.assert_allclose(d.bin_observed_frequency, prob_true, rtol=1e-15)
    up = murphy_decomposition(y, p, n_bins=5, right=False)
    # the edges are np.linspace's (R's seq(0, 1, length.out = 6)): the third is
    # 3 * 0.2 = 0.6000000000000001, so 0.6 lies below it, as R's cut(right = FALSE)
    edges = np.linspace(0, 1, 6)
    expected = np.bincount(np.searchsorted(edges[1:-1], p, side="right"), minlength=5)
    assert up.bin_counts.tolist() == expected.tolist() == [6, 6, 9, 3, 9]
    assert up.right is False and d.right is True
    with pytest.raises(TypeError, match="right"):
        murphy_decomposition(y, p, right="lower")


def test_statistics_with_other_rules_do_not_merge():
    y, p = Y6.astype(float), P6
    a = binned_statistics(y, p, None, 4)
    b = binned_statistics(y, p, None, 4, right=False)
    with pytest.raises(ValueError, match="right"):
        a + b
    assert (a + a).right and not BinStatistics.empty([0, 0.5, 1], right=False).right


# ----------------------------------------------------------------------------
# item 14: weights are scale-free (tiny and huge weights give numbers)
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("scale", [1e-200, 1e-300, 1e150, 1e300])
def test_tiny_and_huge_weights_are_scale_free(scale):
    y, p, w = _data(n=50, seed=10)
    ref = murphy_decomposition(y, p, sample_weight=w)
    w_scaled = w / w.sum() * scale * 10  # keeps the sum finite
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = murphy_decomposition(y, p, sample_weight=w_scaled)
    for key, value in ref.components.items():
        assert d.components[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key
    est = BrierDecomposition("murphy").fit(y, p, w_scaled)
    assert est.miscalibration_ == pytest.approx(ref.reliability, rel=1e-12, abs=1e-15)
    lo, hi = d.observed_frequency_interval()
    ok = d.bin_counts > 0
    assert np.all(np.isfinite(lo[ok])) and np.all(lo[ok] <= hi[ok])


@pytest.mark.parametrize("scale", [1e-200, 1e300])
def test_bootstrap_draws_the_observations_of_frequency_weights(scale):
    # the bootstrap counts observations: tiny weights hold fewer than 3 (a
    # clear error; they gave NaN replicates and an interval of NaN), huge ones
    # more than can be drawn (a clear error)
    y, p, w = _data(n=50, seed=10)
    w_scaled = w / w.sum() * scale * 10
    if scale > 1:
        with pytest.raises(ValueError, match="sample_weight sums to .*2\\*\\*62"):
            murphy_decomposition(y, p, sample_weight=w_scaled, n_resamples=4)
        return
    with pytest.raises(ValueError, match="sample_weight sums to 1e-199: .*at least 3"):
        murphy_decomposition(y, p, sample_weight=w_scaled, n_resamples=4, random_state=0)


def test_tiny_weights_in_chunks_give_a_clear_error_with_bias_correction():
    y, p, _ = _data(n=50, seed=11)
    s = binned_statistics(y.astype(float), p, np.full(50, 1e-200), 10)
    assert murphy_from_statistics(s).reliability >= 0  # no correction: fine
    # the correction counts observations (frequency weights): 5e-199 of them
    with pytest.raises(ValueError, match="sample_weight sums to 5e-199"):
        murphy_from_statistics(s, bias_correction=True)


@pytest.mark.parametrize("scale", [1e-300, 1e150, 1e300])
def test_bias_correction_reads_frequency_weights(scale):
    # the Ferro--Fricker correction is a finite-sample correction: the total
    # (frequency) weight is the sample size, so huge weights correct nothing
    # and fewer than 3 observations are refused
    y, p, w = _data(n=50, seed=10)
    w_scaled = w / w.sum() * scale * 10
    if scale < 1:
        with pytest.raises(ValueError, match="sample_weight sums to"):
            murphy_decomposition(y, p, sample_weight=w_scaled, bias_correction=True)
        return
    got = murphy_decomposition(y, p, sample_weight=w_scaled, bias_correction=True)
    plain = murphy_decomposition(y, p, sample_weight=w)
    for key, value in plain.components.items():
        assert got.components[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key


# ----------------------------------------------------------------------------
# item 5: merge refuses decompositions that mean different things
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "other_params, match",
    [
        ({"pos_label": 0}, "pos_label"),
        ({"n_bins": 5}, "n_bins"),
        ({"strategy": [0, 0.3, 0.6, 1.0]}, "strategy"),
        ({"bias_correction": True}, "bias_correction"),
    ],
)
def test_merge_refuses_a_different_state(other_params, match):
    y, p, _ = _data(n=100, seed=12)
    a = BrierDecomposition("murphy").partial_fit(y[:50], p[:50])
    b = BrierDecomposition("murphy", **other_params).partial_fit(y[50:], p[50:])
    with pytest.raises(ValueError, match=match):
        a.merge(b)
    before = a.brier_score_
    assert a.brier_score_ == before  # nothing merged


def test_merge_refuses_other_classes_and_corp():
    rng = np.random.default_rng(13)
    P = rng.dirichlet([1, 1, 1], 40)
    y = rng.integers(0, 3, 40)
    a = BrierDecomposition("murphy").partial_fit(y, P, classes=[0, 1, 2])
    b = BrierDecomposition("murphy").partial_fit(y + 1, P, classes=[1, 2, 3])
    with pytest.raises(ValueError, match="classes"):
        a.merge(b)
    # two-column chunks: other column classes
    p2 = np.column_stack([1 - P[:, 0], P[:, 0]])
    c = BrierDecomposition("murphy").partial_fit(y % 2, p2, classes=[0, 1])
    d = BrierDecomposition("murphy").partial_fit(y % 2 + 5, p2, classes=[5, 6])
    with pytest.raises(ValueError, match="classes"):
        c.merge(d)
    with pytest.raises(ValueError, match="mergeable"):
        c.merge(BrierDecomposition().fit(Y6, P6))


def test_partial_fit_refuses_parameters_changed_between_chunks():
    y, p, _ = _data(n=100, seed=14)
    est = BrierDecomposition("murphy").partial_fit(y[:50], p[:50])
    est.set_params(pos_label=0)
    with pytest.raises(ValueError, match="pos_label"):
        est.partial_fit(y[50:], p[50:])
    est.set_params(pos_label=None, bias_correction=True)
    with pytest.raises(ValueError, match="bias_correction"):
        est.partial_fit(y[50:], p[50:])


# ----------------------------------------------------------------------------
# item 9: the consistency band of R reliabilitydiag
# ----------------------------------------------------------------------------


def test_band_kernel_interpolates_and_drops_out_of_range():
    x = np.array([0.1, 0.4, 0.6, 0.9])
    # resample 1 misses 0.4 and 0.9: linear between 0.1 and 0.6, NaN at 0.9
    rx = [np.array([0.1, 0.1, 0.6, 0.6]), np.array([0.4, 0.9, 0.9])]
    ry = [np.array([0.0, 0.0, 1.0, 0.0]), np.array([0.0, 1.0, 1.0])]
    lo, hi = consistency_band_from_resamples(x, rx, ry, confidence_level=0.5)
    # PAV fits: r1 = 0 at .1, .5 at .6; r2 = 0 at .4, 1 at .9; at x the
    # curves are r1 = [0, .3, .5, nan] and r2 = [nan, 0, .4, 1]
    np.testing.assert_allclose(lo, [0.0, 0.075, 0.425, 1.0])
    np.testing.assert_allclose(hi, [0.0, 0.225, 0.475, 1.0])
    # a resample with one distinct forecast gives its value everywhere
    lo, hi = consistency_band_from_resamples(
        x, [np.array([0.4, 0.4])], [np.array([1.0, 0.0])], confidence_level=0.9
    )
    np.testing.assert_allclose(lo, 0.5) and np.testing.assert_allclose(hi, 0.5)


def test_band_at_the_largest_forecast_uses_only_resamples_that_reach_it():
    # one row at the top forecast: resamples without it used to carry the
    # neighbouring value into the band; now they are left out there
    rng = np.random.default_rng(15)
    p = np.round(rng.uniform(0.05, 0.6, 60), 2)
    p[0] = 0.99
    y = (rng.random(60) < p).astype(int)
    y[0] = 1
    d = corp_decomposition(y, p, n_resamples=200, random_state=0)
    assert d.band_forecast[-1] == 0.99
    # under calibration the outcome at 0.99 is 1 with probability .99: the PAV
    # fit there is at least the top value of the resample, close to 1
    assert d.band_lower[-1] > 0.9 and d.band_upper[-1] == 1.0


def test_public_band_is_the_kernel_on_replayed_resamples():
    # frequency weights draw the observations: replay the draws (group counts
    # and events) and feed them to the kernel as weighted rows
    rng = np.random.default_rng(16)
    n = 80
    p = np.round(rng.uniform(0, 1, n), 1)
    y = (rng.random(n) < p).astype(int)
    d = corp_decomposition(
        y, p, sample_weight=np.ones(n), n_resamples=40, random_state=3, confidence_level=0.8
    )
    x, count = np.unique(p, return_counts=True)
    share = count / n
    cells = np.concatenate([np.bincount(np.searchsorted(x, p), weights=y), count])
    cells[x.shape[0] :] -= cells[: x.shape[0]]
    cells /= n
    rx, ry, rw = [], [], []
    for child, size in zip(np.random.default_rng(3).spawn(3), [16, 16, 8]):
        for _ in range(size):
            m = child.multinomial(n, share)
            present = m > 0
            events = child.binomial(m[present], x[present]).astype(float)
            xs = x[present]
            rx.append(np.concatenate([xs, xs]))
            ry.append(np.concatenate([np.ones(xs.shape[0]), np.zeros(xs.shape[0])]))
            rw.append(np.concatenate([events, m[present] - events]))
            child.multinomial(n, cells)  # the bootstrap draw of the same step
    lo, hi = consistency_band_from_resamples(
        x, rx, ry, confidence_level=0.8, resampled_w=rw
    )
    np.testing.assert_array_equal(d.band_forecast, x)
    np.testing.assert_allclose(d.band_lower, lo, atol=1e-15)
    np.testing.assert_allclose(d.band_upper, hi, atol=1e-15)
    # unit weights are no weights
    plain = corp_decomposition(y, p, n_resamples=40, random_state=3, confidence_level=0.8)
    np.testing.assert_array_equal(d.band_lower, plain.band_lower)
    np.testing.assert_array_equal(d.bootstrap_distribution, plain.bootstrap_distribution)


# ----------------------------------------------------------------------------
# the result protocol
# ----------------------------------------------------------------------------


def _results():
    y, p, w = _data(n=200, seed=17)
    rng = np.random.default_rng(0)
    P = rng.dirichlet([1, 1, 1], 90)
    yc = rng.integers(0, 3, 90)
    return [
        murphy_decomposition(y, p, sample_weight=w, n_resamples=10, random_state=0),
        corp_decomposition(y, p, n_resamples=10, random_state=0),
        murphy_decomposition(yc, P, n_resamples=10, random_state=0),
        corp_decomposition(yc, P, n_resamples=10, random_state=0),
    ]


def test_results_follow_the_protocol():
    for res in _results():
        json.dumps(res.to_dict())
        text = res.summary()
        assert type(res).__name__ in text and "brier_score" in text
        assert "<table>" in res._repr_html_()
        assert repr(res).startswith(type(res).__name__ + "(")
        sig = inspect.signature(type(res).confidence_interval)
        names = list(sig.parameters)
        assert names[:2] == ["self", "confidence_level"]
        assert sig.parameters["metric"].kind is inspect.Parameter.KEYWORD_ONLY
        assert sig.parameters["method"].kind is inspect.Parameter.KEYWORD_ONLY
        back = pickle.loads(pickle.dumps(res))
        assert back.components == res.components
    s = binned_statistics(Y6.astype(float), P6, None, 3)
    assert "n_bins=3" in repr(s) and s.to_dict()["right"] is True


def test_confidence_interval_level_first_metric_keyword():
    m, c, mm, mc = _results()
    for res, comp in ((m, "resolution"), (c, "discrimination")):
        new = res.confidence_interval(0.9, metric=comp)
        assert new == res.confidence_interval(confidence_level=0.9, metric=comp)
        with pytest.raises(TypeError):
            res.confidence_interval(0.9, comp)
        with pytest.raises(TypeError, match="unexpected"):
            res.confidence_interval(level=0.9)
        with pytest.raises(ValueError, match="^metric"):
            res.confidence_interval(metric="skill")
    # defaults: reliability / miscalibration
    assert m.confidence_interval() == m.confidence_interval(metric="reliability")
    assert c.confidence_interval() == c.confidence_interval(metric="miscalibration")
    # multiclass: one bound per class
    ci = mm.confidence_interval(0.8, metric="uncertainty")
    assert ci.low.shape == (3,)
    assert ci.low[1] == mm.per_class[1].confidence_interval(0.8, metric="uncertainty").low
    assert mc.confidence_interval().high.shape == (3,)
    with pytest.raises(ValueError, match="'discrimination'"):
        mc.confidence_interval(metric="reliability")


def test_observed_frequency_interval_is_wilson():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    y, p, _ = _data(n=300, seed=18)
    d = murphy_decomposition(y, p, n_bins=6, confidence_level=0.9)
    lo, hi = d.observed_frequency_interval()
    ok = d.bin_counts > 0
    events = np.round(d.bin_observed_frequency[ok] * d.bin_counts[ok]).astype(int)
    rl, rh = proportion.proportion_confint(
        events, d.bin_counts[ok], alpha=0.1, method="wilson"
    )
    np.testing.assert_allclose(lo[ok], rl, atol=1e-12)
    np.testing.assert_allclose(hi[ok], rh, atol=1e-12)


# ----------------------------------------------------------------------------
# one vocabulary ("corp", "murphy")
# ----------------------------------------------------------------------------


def test_one_vocabulary_of_methods():
    y, p, w = _data(n=200, seed=19)
    new = BrierDecomposition("murphy", n_bins=5).fit(y, p, w)
    with pytest.raises(ValueError, match="decomposition_method"):
        BrierDecomposition("binned", n_bins=5).fit(y, p, w)
    assert isinstance(new.decomposition_, MurphyDecomposition)
    assert isinstance(BrierDecomposition().fit(y, p).decomposition_, CORPDecomposition)
    with pytest.raises(ValueError, match="decomposition_method"):
        BrierDecomposition("isotonic").fit(y, p)


# ----------------------------------------------------------------------------
# the display: built from results, no estimator internals, validation once
# ----------------------------------------------------------------------------


@pytest.fixture
def plt():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_display_from_result_of_every_kind(plt):
    from skbrier.plotting.reliability import ReliabilityDisplay

    for res in _results():
        disp = ReliabilityDisplay.from_result(res)
        n_curves = 3 if isinstance(res, MulticlassDecomposition) else 1
        assert len(disp.lines_) == n_curves
        assert disp.decomposition_method == (
            "murphy"
            if "murphy" in repr(res).lower() or isinstance(res, MurphyDecomposition)
            else "corp"
        )
    y, p, _ = _data(n=200, seed=20)
    dec = BrierDecomposition("murphy", n_bins=8, pos_label=1).fit(y, p)
    disp = ReliabilityDisplay.from_result(dec, name="m")
    assert "positive class: 1" in disp.ax_.get_xlabel()
    np.testing.assert_allclose(
        disp.line_.get_xdata(), dec.table_["mean_forecast"][dec.table_["count"] > 0]
    )


def test_from_result_checks_its_input(plt):
    from sklearn.exceptions import NotFittedError

    from skbrier.plotting.reliability import ReliabilityDisplay

    dec = BrierDecomposition("murphy", n_bins=4).fit(Y6, P6)
    assert ReliabilityDisplay.from_result(dec).decomposition_method == "murphy"
    # item 16: TypeError (not AttributeError) for what is not a decomposition
    for bad in ("x", 3, None, np.zeros(3)):
        with pytest.raises(TypeError, match="result"):
            ReliabilityDisplay.from_result(bad)
    with pytest.raises(NotFittedError):
        ReliabilityDisplay.from_result(BrierDecomposition())
    # a multiclass decomposition is drawn, one curve per class
    rng = np.random.default_rng(21)
    P = rng.dirichlet([1, 1, 1], 100)
    multi = BrierDecomposition("murphy", n_bins=4).fit(rng.integers(0, 3, 100), P)
    assert len(ReliabilityDisplay.from_result(multi).lines_) == 3


def test_display_vocabulary(plt):
    from skbrier.plotting.reliability import ReliabilityDisplay

    with pytest.raises(ValueError, match="decomposition_method"):
        ReliabilityDisplay.from_predictions(Y6, P6, decomposition_method="binned", n_bins=3)
    assert not hasattr(ReliabilityDisplay, "from_decomposition")
    disp = ReliabilityDisplay([0.1, 0.5], [0.2, 0.4], decomposition_method="murphy")
    assert disp.decomposition_method == "murphy" and not hasattr(disp, "kind")
    with pytest.raises(TypeError):
        ReliabilityDisplay([0.1, 0.5], [0.2, 0.4], kind="binned")
    with pytest.raises(ValueError, match="decomposition_method"):
        ReliabilityDisplay([0.1], [0.2], decomposition_method="lowess").plot()


def test_the_display_does_not_use_estimator_internals():
    import ast

    import skbrier.plotting._reliability_data as data
    import skbrier.plotting.reliability as rel

    for mod in (rel, data):
        src = inspect.getsource(mod)
        assert "_display_data" not in src
        imported = {
            node.module
            for node in ast.walk(ast.parse(src))
            if isinstance(node, ast.ImportFrom)
        }
        # the display reads results; it never imports the estimator's module
        assert "decomposition" not in imported, imported
        assert not any(m and m.endswith("_decomposition_helpers") for m in imported)


def _count_validations(monkeypatch):
    import skbrier._core.validation as val

    calls = []
    original = val.check_probabilities

    def counting(*args, **kwargs):
        calls.append(kwargs.get("name", "y_proba"))
        return original(*args, **kwargs)

    monkeypatch.setattr(val, "check_probabilities", counting)
    return calls


def test_validation_happens_once(monkeypatch, plt):
    from sklearn.linear_model import LogisticRegression

    from skbrier.plotting.reliability import ReliabilityDisplay

    y, p, w = _data(n=200, seed=22)
    for call in (
        lambda: ReliabilityDisplay.from_predictions(y, p, sample_weight=w, n_resamples=0),
        lambda: ReliabilityDisplay.from_predictions(y, p, decomposition_method="murphy"),
        lambda: BrierDecomposition("murphy").fit(y, p, w),
        lambda: BrierDecomposition("murphy").fit(y, p, w).plot(),
        lambda: BrierDecomposition().fit(y, p).plot(),
        lambda: murphy_decomposition(y, p),
    ):
        calls = _count_validations(monkeypatch)
        call()
        assert calls == ["y_proba"], calls
    X = np.column_stack([p, p**2])
    clf = LogisticRegression().fit(X, y)
    calls = _count_validations(monkeypatch)
    ReliabilityDisplay.from_estimator(clf, X, y, n_resamples=0)
    assert calls == ["y_proba"]


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"forecast": "abc"}, TypeError, "forecast"),
        ({"observed": [[0.1, "x"]]}, TypeError, "observed"),
        ({"components": "x"}, TypeError, "components"),
        ({"components": {"miscalibration": "a"}}, TypeError, "components"),
        ({"components": {"miscalibration": [0.1, 0.2]}}, ValueError, "components"),
        ({"confidence_level": "x"}, TypeError, "confidence_level"),
        ({"confidence_level": 2.0}, ValueError, "confidence_level"),
        ({"curve_labels": 5}, TypeError, "curve_labels"),
        ({"hist_edges": [0, 1], "hist_weights": [1, 2]}, ValueError, "hist_edges"),
    ],
)
def test_bad_display_arguments_name_the_parameter(plt, kwargs, exc, match):
    from skbrier.plotting.reliability import ReliabilityDisplay

    base = {"forecast": [0.1, 0.5], "observed": [0.2, 0.4]}
    base.update(kwargs)
    with pytest.raises(exc, match=match):
        ReliabilityDisplay(**base).plot()


def test_binned_statistics_checks_its_edges():
    z = np.zeros(3)
    with pytest.raises(TypeError, match="edges"):
        binned_statistics(z, z, None, "x")
    with pytest.raises(ValueError, match="edges"):
        binned_statistics(z, z, None, [0, 0.5, 0.4])
    with pytest.raises(TypeError, match="stats"):
        murphy_from_statistics("x")


def test_a_callers_generator_is_untouched_without_resampling():
    for make in (np.random.default_rng, np.random.RandomState):
        rs = make(7)
        state = pickle.dumps(rs)
        murphy_decomposition(Y6, P6, random_state=rs)
        corp_decomposition(Y6, P6, random_state=rs)
        BrierDecomposition("murphy", random_state=rs).fit(Y6, P6)
        assert pickle.dumps(rs) == state
    with pytest.raises(TypeError, match="random_state"):
        murphy_decomposition(Y6, P6, random_state="x")  # checked even when unused


@pytest.mark.parametrize("scale", [1e155, 1e300])
def test_binned_statistics_of_huge_weights_merge_without_overflow(scale):
    # binned_statistics summed w * w of the raw weights: numpy's overflow
    # warning at 1e155 and beyond (murphy_decomposition scaled them already)
    y, p, w = _data(n=40, seed=12)
    halves = (slice(0, 20), slice(20, None))
    ref = murphy_from_statistics(
        sum(binned_statistics(y[s], p[s], w[s], 5) for s in halves)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = murphy_from_statistics(
            sum(binned_statistics(y[s], p[s], w[s] * scale, 5) for s in halves)
        )
    for f in ("brier_score", "reliability", "resolution", "uncertainty"):
        assert getattr(got, f) == pytest.approx(getattr(ref, f), rel=1e-12), f


def test_binned_statistics_whose_merged_weight_overflows_are_refused():
    # two chunks of weights 1e307 merged to a total of inf: every component NaN
    y, p, w = _data(n=40, seed=13)
    halves = (slice(0, 20), slice(20, None))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = sum(binned_statistics(y[h], p[h], w[h] * 1e307, 5) for h in halves)
        with pytest.raises(ValueError, match="more than the largest float"):
            murphy_from_statistics(s)


def test_binned_statistics_refuses_subnormal_weights():
    # sums of weights of 5e-324 kept as such lose digits: BS 0.1176 vs 0.1246
    y, p, w = _data(n=40, seed=14)
    with pytest.raises(ValueError, match="w: the largest weight is .*subnormal"):
        binned_statistics(y, p, np.round(w * 4) * 5e-324, 5)
