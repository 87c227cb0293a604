"""Boundary inputs of the stats, decomposition, model-selection, validation,
comparison and scorer packages found by fuzzing: each gives a correct number
or a ValueError/TypeError naming its parameter."""

from __future__ import annotations

import numpy as np
import pytest

from skbrier.stats import default_block_length


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (-5, ValueError),
        (0, ValueError),
        (10.5, TypeError),
        (True, TypeError),
        ("10", TypeError),
    ],
)
def test_default_block_length_checks_n_samples(value, error):
    # -5 raised "type complex doesn't define __round__"; 10.5 and True passed
    with pytest.raises(error, match="n_samples"):
        default_block_length(value)


def test_default_block_length_values():
    assert default_block_length(1) == 1
    assert default_block_length(np.int64(200)) == 6
    assert default_block_length(1000) == 10


# ------------------------------------------------------------------ pooling
@pytest.mark.parametrize(
    ("estimates", "variances"),
    [
        ([1e200, 2e200], [1.0, 1.0]),  # the between-imputation variance overflows
        ([1e200, 2e200], [0.0, 0.0]),
        ([1.7e308, 1.7e308], [1.0, 1.0]),  # the mean overflows
        ([1.0, 2.0], [1.7e308, 1.7e308]),  # the total variance overflows
    ],
)
def test_pool_rubin_overflow_is_a_value_error(estimates, variances):
    # numpy's "overflow encountered in square" leaked (an inf total variance)
    from skbrier.stats import pool_rubin

    with np.errstate(all="raise"), pytest.raises(ValueError, match="too wide to pool"):
        pool_rubin(estimates, variances)


def test_random_effects_meta_tau2_overflow_on_the_scale_of_the_estimates():
    # tau2 was finite on the rescaled problem but inf back on the estimates'
    # scale: i2 = inf / inf leaked numpy's "invalid value" warning and was NaN
    from skbrier.stats import random_effects_meta

    with np.errstate(all="raise"), pytest.raises(ValueError, match="too wide to pool"):
        random_effects_meta([1e200, 2e200, 3e200], [1e300] * 3)


def test_pooling_of_large_but_representable_values_still_works():
    from skbrier.stats import pool_rubin, random_effects_meta

    res = pool_rubin([1e150, 2e150], [1e300, 1e300])
    assert res.between_variance == pytest.approx(5e299)
    meta = random_effects_meta([1e10, 2e10, 3e10], [1e18] * 3)
    assert np.isfinite(meta.i2) and meta.tau2 > 0


# ------------------------------------------------------- losses equal up to rounding
def _outcomes(n=200, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, n), rng.random(n) * 0.8 + 0.1


def test_brier_inference_losses_constant_up_to_rounding():
    # 0.9 for events and 0.1 for non-events: every loss is 0.01, but
    # (0.9 - 1)**2 and 0.1**2 differ in the last bits; the interval had a
    # standard error of 1e-18 (a zero-width interval) instead of the
    # ValueError of constant losses
    from skbrier.stats import brier_inference

    y, _ = _outcomes()
    with pytest.raises(ValueError, match="losses are constant"):
        brier_inference(y, np.where(y == 1, 0.9, 0.1))


def test_compare_brier_differential_zero_up_to_rounding():
    # 1 - (1 - p) equals p up to rounding: the differential of 1e-17 was
    # "tested" (a verdict naming a better forecaster at Brier 0.2912 vs 0.2912)
    from skbrier.stats import compare_brier

    y, p = _outcomes()
    with pytest.raises(ValueError, match="y_proba_b: the per-sample loss differential"):
        compare_brier(y, p, 1.0 - (1.0 - p))
    assert compare_brier(y, p, p * 0.99).pvalue > 0.0  # a real difference is tested


def test_clustered_validation_centre_of_rounding_noise_losses():
    # one centre whose losses differ by rounding only had a Brier variance of
    # 2e-37: the pooled Brier score was that centre's 0.01 with a standard
    # error of 5e-19 (the other three centres, ~0.3, ignored); exactly
    # constant losses (0.75 / 0.25) failed the whole call. Both leave that
    # centre out of the Brier score's meta-analysis, with the warning
    from skbrier.stats import clustered_validation

    y, p = _outcomes()
    groups = np.arange(y.size) % 4
    for hi, lo in ((0.9, 0.1), (0.75, 0.25)):
        q = np.where(groups == 1, np.where(y == 1, hi, lo), p)
        with pytest.warns(RuntimeWarning, match=r"centres \[1\] separate.*brier_score"):
            res = clustered_validation(y, q, groups=groups)
        pooled = res.pooled["brier_score"]
        assert pooled.k == 3
        assert 0.2 < pooled.estimate < 0.4 and pooled.standard_error > 0.01
        assert res.per_cluster_variance["brier_score"][1] == 0.0


def test_constant_forecasts_are_not_called_separating():
    # the message said "separate their outcomes (C = 1 ...)" of forecasts that
    # do not vary (C = 0.5)
    from skbrier.stats import clustered_validation, pooled_validation

    y, p = _outcomes()
    with pytest.raises(ValueError, match="do not vary"):
        pooled_validation([y, y], [p, np.full(y.size, 0.3)])
    groups = np.arange(y.size) % 5
    p = np.where(groups == 0, 0.3, p)
    with pytest.warns(RuntimeWarning, match=r"centres \[0\] do not vary") as rec:
        clustered_validation(y, p, groups=groups)
    assert not any("separate" in str(r.message) for r in rec)


def test_compare_brier_index_interval_of_a_perfect_forecast():
    # a perfect forecast (Brier score 0): the delta-method interval of the
    # Brier Index difference was (nan, nan) without a word
    from skbrier.exceptions import HardForecastWarning
    from skbrier.stats import compare_brier

    y, p = _outcomes(40)
    with pytest.warns(HardForecastWarning):
        res = compare_brier(y, y.astype(float), p)
    assert np.isnan(res.brier_index_difference_standard_error)
    with pytest.raises(ValueError, match="metric='brier_index'.*no derivative"):
        res.confidence_interval(metric="brier_index")
    low, high = res.confidence_interval()  # the Brier scores' difference has one
    assert low < high < 0
    frame = res.to_frame()  # the table still shows the rest
    assert np.isnan(frame.loc["brier_index", "ci_low"])
    assert "brier_index_difference 95% CI  (nan, nan)" in res.summary()
    with pytest.raises(ValueError, match="confidence_level"):
        res.to_frame(1.5)


# ------------------------------------------------------------ quantile bins
@pytest.mark.parametrize("scale", [1e-3, 1e-200])
def test_quantile_bins_of_less_than_one_observation(scale):
    # frequency weights summing below 1 collapsed every equal-mass edge onto the
    # smallest forecast: one bin, so BrierDecomposition's discrimination_ was 0
    # and calibration_error(strategy="quantile") about half its value, silently
    from skbrier.decomposition import BrierDecomposition
    from skbrier.metrics import calibration_error

    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 200)
    p = np.clip(rng.random(200) * 0.6 + 0.3 * y, 0.01, 0.99)
    w = rng.integers(1, 4, 200) * scale
    dec = BrierDecomposition("murphy", strategy="quantile")
    with pytest.raises(ValueError, match="sample_weight sums to .* quantile"):
        dec.fit(y, p, sample_weight=w)
    with pytest.raises(ValueError, match="sample_weight sums to .* quantile"):
        calibration_error(y, p, sample_weight=w, strategy="quantile")
    # uniform bins do not count observations: unchanged by the scale
    uni = BrierDecomposition("murphy").fit(y, p, sample_weight=w)
    ref = BrierDecomposition("murphy").fit(y, p, sample_weight=w / scale)
    assert uni.discrimination_ == pytest.approx(ref.discrimination_, rel=1e-9)
    # integer weights are still the repeated rows
    w_int = rng.integers(0, 3, 200)
    a = BrierDecomposition("murphy", strategy="quantile").fit(y, p, sample_weight=w_int)
    rows = np.repeat(np.arange(200), w_int)
    b = BrierDecomposition("murphy", strategy="quantile").fit(y[rows], p[rows])
    assert a.discrimination_ == pytest.approx(b.discrimination_, rel=1e-12)


# ------------------------------------------------------------ model selection
@pytest.mark.parametrize("key", ["foo", "sample_weight", "cov_type"])
def test_cross_val_brier_unknown_inference_kwds_named_before_fitting(key):
    # after every fit: "brier_inference() got an unexpected keyword argument
    # 'foo'" (or "multiple values for 'sample_weight'"), not naming inference_kwds
    from sklearn.linear_model import LogisticRegression

    from skbrier.model_selection import cross_val_brier

    class NoFit(LogisticRegression):
        def fit(self, X, y, sample_weight=None):  # the check comes first
            raise AssertionError("fitted before the options were checked")

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(TypeError, match=rf"inference_kwds got unexpected keys \['{key}'\]"):
        cross_val_brier(NoFit(), X, y, cv=3, inference_kwds={key: 1})


# ------------------------------------------------------------------ BCa
def test_bca_interval_undefined_is_a_value_error():
    # the jackknife of the climatological reference on [0, 1, 0, 1] is
    # constant: scipy divided 0 by 0 (numpy's "invalid value" warning leaked)
    # and the interval was (nan, nan)
    from skbrier.stats import brier_inference

    y = np.array([0, 1, 0, 1])
    p = np.array([0.637, 0.270, 0.041, 0.017])
    res = brier_inference(
        y, p, cov_type="bootstrap", n_resamples=20, method="bca", random_state=0
    )
    with (
        np.errstate(all="raise"),
        pytest.raises(ValueError, match="method='bca'.*percentile"),
    ):
        res.confidence_interval(metric="reference_brier_score")
    low, high = res.confidence_interval(metric="reference_brier_score", method="percentile")
    assert np.isfinite([low, high]).all()
    low, high = res.confidence_interval()  # the Brier score's is defined
    assert low < res.brier_score < high


def test_bca_of_block_bootstrap_with_a_constant_statistic():
    from skbrier.stats import block_bootstrap

    x = np.random.default_rng(0).normal(size=20)
    res = block_bootstrap(
        (x,),
        lambda a, axis=-1: np.zeros(np.shape(a)[:-1]),
        bootstrap="iid",
        method="bca",
        n_resamples=20,
        random_state=0,
    )
    with pytest.raises(ValueError, match="method='bca'"):
        res.confidence_interval()


@pytest.mark.parametrize("n_resamples", [2**70, 10**9 + 1])
def test_n_resamples_beyond_memory_is_a_value_error(n_resamples):
    # 2**70 was a MemoryError (brier_inference, compare_brier, compare_forecasts,
    # compare_net_benefit, block_bootstrap) or an OverflowError
    # (BrierDecomposition)
    from skbrier.decomposition import BrierDecomposition
    from skbrier.stats import block_bootstrap, brier_inference

    y, p = _outcomes(30)
    with pytest.raises(ValueError, match="n_resamples must be at most"):
        brier_inference(y, p, cov_type="bootstrap", n_resamples=n_resamples)
    with pytest.raises(ValueError, match="n_resamples must be at most"):
        BrierDecomposition(n_resamples=n_resamples).fit(y, p)
    with pytest.raises(ValueError, match="n_resamples must be at most"):
        block_bootstrap((p,), np.mean, n_resamples=n_resamples)


def test_pooled_refit_nan_complexity():
    # a NaN complexity sorted last: that candidate was silently "the most complex"
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, KFold

    from skbrier.model_selection import pooled_refit, pooled_scoring

    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] + rng.normal(size=60) > 0).astype(int)
    refit = pooled_refit(
        rule="one_standard_error",
        complexity=lambda params: float("nan") if params["C"] < 1 else 1.0,
    )
    search = GridSearchCV(
        LogisticRegression(),
        {"C": [0.1, 1.0]},
        scoring=pooled_scoring(),
        refit=refit,
        cv=KFold(3),
    )
    with pytest.raises(
        ValueError, match=r"complexity=.* is NaN for the candidate \{'C': 0.1\}"
    ):
        search.fit(X, y)


# ------------------------------------------------------------ validation
@pytest.mark.parametrize(
    "lp", [("normal", -50, 1), ("normal", 50, 1), "expon"], ids=["low", "high", "expon"]
)
def test_validation_sample_size_threshold_beyond_the_lp_distribution(lp):
    # an LP distribution with no mass on one side of logit(threshold) made a
    # scalar 0 of that side's integrals: IndexError "too many indices"
    import scipy.stats

    from skbrier.validation import validation_sample_size

    dist = scipy.stats.expon() if lp == "expon" else lp
    res = validation_sample_size(
        prevalence=0.2, c_statistic=0.75, lp_distribution=dist, threshold=0.2
    )
    assert res.sensitivity in (0.0, 1.0)
    assert res.specificity == 1.0 - res.sensitivity
    assert res.sample_size >= res.sample_sizes["observed_expected"]


@pytest.mark.parametrize("mean", [-50, 50])
def test_validation_sample_size_simulation_of_one_outcome_class(mean):
    # no simulated event (or non-event): the mean of an empty selection leaked
    # numpy's warning and the sensitivity was NaN
    from skbrier.validation import validation_sample_size

    with (
        np.errstate(all="raise"),
        pytest.raises(ValueError, match="lp_distribution: the .* simulated"),
    ):
        validation_sample_size(
            prevalence=0.2,
            c_statistic=0.75,
            lp_distribution=("normal", mean, 1),
            threshold=0.2,
            expectation_method="simulation",
            n_simulations=2000,
        )


def test_achieved_precision_interval_of_separated_forecasts():
    # forecasts that separate the outcomes: the slope's and C's intervals were
    # (nan, nan) from confidence_interval, silently
    from skbrier.validation import achieved_precision

    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 200)
    p = np.where(y == 1, 0.9, 0.1) + rng.normal(0, 0.01, 200)
    with pytest.warns(UserWarning):  # the separation (ConvergenceWarning)
        res = achieved_precision(y, p, n_resamples=10, random_state=0, threshold=0.3)
    for metric in ("calibration_slope", "c_statistic"):
        with pytest.raises(ValueError, match=f"metric='{metric}': this sample gives no"):
            res.confidence_interval(metric=metric)
    low, high = res.confidence_interval(metric="observed_expected")
    assert low < 1 < high
    frame = res.to_frame().set_index("measure")  # the table still shows NaN there
    assert np.isnan(frame.loc["c_statistic", "low"])
    assert "cannot judge the C statistic" in res.summary()


# ------------------------------------------------------------ compare_forecasts
@pytest.mark.parametrize("cov_type", ["iid", "hac", "bootstrap"])
def test_compare_forecasts_n_rows_counts_positive_weights(cov_type):
    # cov_type="hac" reported every row (60), zero-weight rows included; the
    # attribute is the number of rows of positive weight (50)
    from skbrier.comparison import compare_forecasts

    y, p = _outcomes(60)
    w = np.r_[np.zeros(10), np.ones(50)]
    res = compare_forecasts(y, {"a": p}, cov_type=cov_type, sample_weight=w, random_state=0)
    assert res.n_rows == 50
    assert res.n == 50


# ------------------------------------------------------------ decomposition
def test_partial_fit_bias_correction_first_chunks_of_fewer_than_three_rows():
    # a first chunk of 2 rows raised the bias correction's ValueError after
    # keeping the chunk's sums: the next partial_fit was an AttributeError
    # '_fit_state' (the estimator was left half-updated)
    from skbrier.decomposition import BrierDecomposition

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    p = rng.random(60)
    dec = BrierDecomposition("murphy", bias_correction=True)
    dec.partial_fit(y[:2], p[:2])  # too few so far: nothing reported yet
    with pytest.raises(AttributeError, match="needs at least 3 observations"):
        _ = dec.miscalibration_
    dec.partial_fit(y[2:], p[2:])
    full = BrierDecomposition("murphy", bias_correction=True).fit(y, p)
    assert dec.n_samples_seen_ == 60
    assert dec.miscalibration_ == pytest.approx(full.miscalibration_, rel=1e-12)
    # merging small chunks too
    a = BrierDecomposition("murphy", bias_correction=True).partial_fit(y[:1], p[:1])
    a.merge(BrierDecomposition("murphy", bias_correction=True).partial_fit(y[1:2], p[1:2]))
    a.merge(BrierDecomposition("murphy", bias_correction=True).partial_fit(y[2:], p[2:]))
    assert a.miscalibration_ == pytest.approx(full.miscalibration_, rel=1e-12)
    # fit on all the data still refuses fewer than 3 observations
    with pytest.raises(ValueError, match="at least 3 observations"):
        BrierDecomposition("murphy", bias_correction=True).fit(y[:2], p[:2])


def test_internal_validation_close_thresholds_keep_their_own_measures():
    # thresholds 0.2 and 0.2000001 were both named "net_benefit@0.2": to_dict
    # kept one of the two values
    from sklearn.linear_model import LogisticRegression

    from skbrier.model_selection import internal_validation

    rng = np.random.default_rng(8)
    X = rng.normal(size=(50, 2))
    y = (X[:, 0] + rng.normal(size=50) > 0).astype(int)
    res = internal_validation(
        LogisticRegression(),
        X,
        y,
        n_bootstrap=5,
        thresholds=[0.2, 0.2000001],
        random_state=0,
    )
    assert res.measures[-2:] == ("net_benefit@0.2", "net_benefit@0.2000001")
    assert len(res.to_dict()["apparent"]) == len(res.measures)
    res = internal_validation(
        LogisticRegression(), X, y, n_bootstrap=5, thresholds=[0.1, 0.3], random_state=0
    )
    assert res.measures[-2:] == ("net_benefit@0.1", "net_benefit@0.3")  # as before


@pytest.mark.parametrize(("method", "tau2"), [("DL", 1.125), ("REML", 1.42437836440)])
def test_random_effects_meta_one_study_much_more_precise(method, tau2):
    # variances 1, 1 and 1e-30: sum(w)**2 - sum(w**2) cancelled to 0, so DL's
    # tau2 was 0 (instead of 1.125), REML's 0, and h2 NaN with numpy's
    # divide-by-zero warning
    from skbrier.stats import random_effects_meta

    with np.errstate(all="raise"):
        res = random_effects_meta([0.0, 3.0, 0.5], [1.0, 1.0, 1e-30], tau2_method=method)
    assert res.tau2 == pytest.approx(tau2, rel=1e-9)
    # the same as with a variance of 1e-12 (where nothing cancels)
    ref = random_effects_meta([0.0, 3.0, 0.5], [1.0, 1.0, 1e-12], tau2_method=method)
    assert res.tau2 == pytest.approx(ref.tau2, rel=1e-9)
    assert res.h2 == pytest.approx(ref.h2, rel=1e-9)


def test_random_effects_meta_variances_beyond_float64_range():
    # variances 1e-300 and 1e300: the rescaled weights overflowed (numpy's
    # divide-by-zero warning) and the pooled estimate ignored the imprecise study
    from skbrier.stats import random_effects_meta

    with (
        np.errstate(divide="raise", over="raise", invalid="raise"),
        pytest.raises(ValueError, match="variances range from"),
    ):
        random_effects_meta([1.0, 2.0], [1e-300, 1e300])


def test_block_bootstrap_statistic_infinite_on_some_resamples():
    # a statistic that is infinite on some resamples: the standard error's
    # inf - inf leaked numpy's "invalid value" warning (and was NaN)
    from skbrier.stats import block_bootstrap

    x = np.random.default_rng(0).normal(size=30)

    def statistic(a, axis=-1):
        m = a.mean(axis=axis)
        return np.where(m > 0.1, np.inf, m)

    with np.errstate(all="raise"):
        res = block_bootstrap((x,), statistic, n_resamples=50, random_state=0)
    assert res.standard_error == np.inf


@pytest.mark.parametrize(
    "statistic",
    [lambda a, axis=-1: 1.0, lambda a, axis=-1: np.zeros(3)],
    ids=["scalar", "fixed-shape"],
)
def test_block_bootstrap_statistic_not_vectorised(statistic):
    # a scalar statistic was numpy's AxisError "source: axis -1 is out of
    # bounds"; one of a fixed shape gave the interval (0, 0) silently
    from skbrier.stats import block_bootstrap

    x = np.random.default_rng(0).normal(size=30)
    with pytest.raises(ValueError, match="statistic must be vectorised along axis=-1"):
        block_bootstrap((x,), statistic, n_resamples=10, random_state=0)
