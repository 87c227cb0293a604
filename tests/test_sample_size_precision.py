"""achieved_precision: an audit's interval widths against the sample-size targets.

The intervals are those of skbrier's own estimators (calibration_report's O/E
and C intervals, calibration_intercept_slope's Wald interval, decision_curve's
bootstrap), not new formulas.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from scipy import stats

import skbrier
from skbrier.validation import achieved_precision, validation_sample_size
from skbrier.validation._sample_size import ValidationSampleSizeResult

Z = float(stats.norm.ppf(0.975))


def _cohort(n=800, mean=-1.5, sd=1.1, seed=3):
    rng = np.random.default_rng(seed)
    p = 1 / (1 + np.exp(-rng.normal(mean, sd, n)))
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p


def test_intervals_are_those_of_the_estimators():
    y, p = _cohort()
    res = achieved_precision(y, p, threshold=0.2, n_resamples=300, random_state=5)
    # calibration slope: calibration_intercept_slope's Wald interval
    fit = skbrier.calibration_intercept_slope(y, p)
    np.testing.assert_allclose(
        res.confidence_interval(metric="calibration_slope"),
        fit.confidence_interval(metric="calibration_slope"),
        rtol=1e-12,
    )
    # O/E and C: calibration_report's (log Wald, DeLong Wald)
    report = skbrier.calibration_report(y, p)
    for metric in ("observed_expected", "c_statistic"):
        np.testing.assert_allclose(
            res.confidence_interval(metric=metric),
            report.confidence_interval(metric=metric),
            rtol=1e-12,
        )
    # standardized net benefit: decision_curve's bootstrap, same seed, per-replicate prevalence
    curve = skbrier.decision_curve(y, p, thresholds=[0.2], n_resamples=300, random_state=5)
    nb = curve.bootstrap_replicates["model"][:, 0]
    prev = curve.bootstrap_replicates["all"][:, 0] * 0.8 + 0.2
    snb = nb / prev
    np.testing.assert_allclose(res.net_benefit_replicates, snb, rtol=1e-12)
    lo, hi = np.quantile(snb, [0.025, 0.975])
    assert res.confidence_interval(metric="standardized_net_benefit") == pytest.approx(
        (lo, hi), rel=1e-12
    )
    assert res.estimates["standardized_net_benefit"] == pytest.approx(
        curve.net_benefit[0] / curve.prevalence, rel=1e-12
    )
    for k, w in res.widths.items():
        low, high = res.confidence_interval(metric=k)
        assert w == pytest.approx(high - low, rel=1e-12)
        assert res.met[k] == (w <= res.targets[k])


def test_observed_expected_needed_equals_the_sample_size_criterion():
    # the n needed for O/E is the criterion of validation_sample_size at the
    # observed prevalence and O/E: one formula
    y, p = _cohort(n=600)
    res = achieved_precision(y, p, oe_ci_width=0.15)
    prev = y.mean()
    plan = validation_sample_size(
        prevalence=prev,
        c_statistic=0.8,
        lp_distribution=("normal", -1, 1),
        oe=res.estimates["observed_expected"],
        oe_ci_width=0.15,
    )
    assert (
        abs(
            res.sample_size_needed["observed_expected"]
            - plan.sample_sizes["observed_expected"]
        )
        <= 1
    )


def test_a_sample_of_the_planned_size_meets_the_targets():
    # plan for an LP ~ N(-1.5, 1.1) population, then validate on that many patients
    plan = validation_sample_size(
        prevalence=0.23, c_statistic=0.75, lp_distribution=("normal", -1.5, 1.1)
    )
    n = plan.sample_sizes["calibration_slope"]
    widths = []
    for seed in range(6):
        y, p = _cohort(n=n, seed=seed)
        widths.append(plan.achieved_precision(y, p).widths["calibration_slope"])
    # the expected slope width at the planned n is the target (a mean over samples)
    assert np.mean(widths) == pytest.approx(0.2, rel=0.03)
    small = plan.achieved_precision(*_cohort(n=n // 4))
    assert not small.met["calibration_slope"]
    assert small.sample_size_needed["calibration_slope"] == pytest.approx(n, rel=0.15)


def test_statements_say_whether_the_sample_is_large_enough():
    y, p = _cohort(n=300)
    res = achieved_precision(y, p, slope_ci_width=0.2, c_ci_width=0.4)
    slope, c = res.statements[1], res.statements[2]
    assert slope.startswith(
        "This sample is too small to judge the calibration slope to ±0.1:"
    )
    assert f"about {res.sample_size_needed['calibration_slope']} patients" in slope
    assert c.startswith("The C statistic is estimated precisely enough")
    assert "±0.2" in c
    assert slope in res.summary()
    frame = res.to_frame()
    assert list(frame["measure"]) == [
        "observed_expected",
        "calibration_slope",
        "c_statistic",
    ]
    json.dumps(res.to_dict())


def test_plan_passes_its_targets_and_level():
    plan = validation_sample_size(
        prevalence=0.2,
        c_statistic=0.75,
        lp_distribution=("normal", -1.6, 1.0),
        oe_ci_width=0.3,
        slope_ci_width=0.25,
        c_ci_width=0.07,
        threshold=0.15,
        nb_ci_width=0.3,
        confidence_level=0.9,
    )
    y, p = _cohort()
    res = plan.achieved_precision(y, p, n_resamples=50, random_state=0)
    assert res.targets == plan.ci_widths
    assert res.confidence_level == 0.9 and res.threshold == 0.15
    direct = achieved_precision(
        y,
        p,
        oe_ci_width=0.3,
        slope_ci_width=0.25,
        c_ci_width=0.07,
        threshold=0.15,
        nb_ci_width=0.3,
        confidence_level=0.9,
        n_resamples=50,
        random_state=0,
    )
    assert res.widths == direct.widths


def test_plan_forwards_the_options_of_achieved_precision():
    # one place lists the options (the function); the method forwards the rest
    import inspect

    params = inspect.signature(ValidationSampleSizeResult.achieved_precision).parameters
    assert list(params) == ["self", "y_true", "y_proba", "kwargs"]
    plan = validation_sample_size(
        prevalence=0.2, c_statistic=0.75, lp_distribution=("normal", -1.6, 1.0)
    )
    y, p = _cohort()
    w = np.where(np.arange(y.shape[0]) % 3 == 0, 2.0, 1.0)
    res = plan.achieved_precision(y, p, sample_weight=w, pos_label=1)
    direct = achieved_precision(y, p, sample_weight=w, pos_label=1)
    assert res.widths == direct.widths
    with pytest.raises(TypeError, match="slope_ci_width"):
        plan.achieved_precision(y, p, slope_ci_width=0.5)


def test_other_levels_and_methods():
    y, p = _cohort()
    res = achieved_precision(y, p, threshold=0.3, n_resamples=200, random_state=1)
    lo95, hi95 = res.confidence_interval(metric="c_statistic")
    lo80, hi80 = res.confidence_interval(0.8, metric="c_statistic")
    assert lo95 < lo80 < hi80 < hi95
    res.confidence_interval(metric="calibration_slope", method="wald")
    res.confidence_interval(metric="standardized_net_benefit", method="basic")
    with pytest.raises(ValueError, match="method"):
        res.confidence_interval(metric="calibration_slope", method="basic")
    no_nb = achieved_precision(y, p)
    with pytest.raises(ValueError, match="threshold"):
        no_nb.confidence_interval(metric="standardized_net_benefit")


def test_frequency_weights_equal_repeated_rows():
    y, p = _cohort(n=200)
    w = np.random.default_rng(0).integers(1, 4, 200).astype(float)
    rep = np.repeat(np.arange(200), w.astype(int))
    a = achieved_precision(y, p, sample_weight=w)
    b = achieved_precision(y[rep], p[rep])
    for field in ("estimates", "standard_errors", "widths", "sample_size_needed"):
        assert getattr(a, field) == pytest.approx(getattr(b, field), rel=1e-8), field
    assert a.n == b.n and a.events == b.events
    # the estimates do not depend on the scale of the weights
    c = achieved_precision(y, p, sample_weight=w * 7)
    assert c.estimates == pytest.approx(a.estimates, rel=1e-9)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"oe_ci_width": 0}, ValueError, "oe_ci_width"),
        ({"slope_ci_width": "0.2"}, TypeError, "slope_ci_width"),
        ({"threshold": 0.0}, ValueError, "threshold"),
        ({"threshold": 0.2, "n_resamples": 1}, ValueError, "n_resamples"),
        ({"confidence_level": 95}, ValueError, "confidence_level"),
    ],
)
def test_errors_name_the_parameter(kwargs, error, match):
    y, p = _cohort(n=100)
    with pytest.raises(error, match=match):
        achieved_precision(y, p, **kwargs)


@pytest.mark.parametrize("label", [0, 1])
def test_one_class_is_refused(label):
    # audit: all-zero outcomes leaked numpy's "invalid value" warning from the
    # C statistic before failing; now one clear error, no warning
    p = np.linspace(0.1, 0.9, 20)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="y_true holds a single class"):
            achieved_precision(np.full(20, label), p)
        # the other class only on rows of zero weight
        y = np.full(20, label)
        y[:3] = 1 - label
        w = np.r_[np.zeros(3), np.ones(17)]
        with pytest.raises(ValueError, match="y_true holds a single class"):
            achieved_precision(y, p, sample_weight=w)


def test_needed_grows_as_the_square_of_the_width_ratio():
    y, p = _cohort(n=500)
    res = achieved_precision(y, p)
    k = "calibration_slope"
    ratio = res.widths[k] / res.targets[k]
    assert res.sample_size_needed[k] == math.ceil(500 * ratio**2) or (
        abs(res.sample_size_needed[k] - 500 * ratio**2) <= 1
    )


def test_resamples_without_events_leave_the_net_benefit_replicates_nan():
    """Three patients, one event: some bootstrap resamples hold no event, where
    the standardized net benefit (NB / prevalence) is undefined.  Those
    replicates are NaN and counted by the interval's warning (were -inf or
    NaN with numpy's divide and subtract warnings leaking, and a standard
    error from the infinite replicates)."""
    y, p = [1, 0, 0], [0.5116, 0.9415, 0.1513]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = achieved_precision(y, p, threshold=0.3, n_resamples=50, random_state=0)
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "encountered" in m], messages
    assert [m for m in messages if "bootstrap replicates are NaN" in m]
    reps = res.net_benefit_replicates
    assert np.isnan(reps).any() and not np.isinf(reps).any()
    assert math.isfinite(res.standard_errors["standardized_net_benefit"])


def test_a_c_statistic_of_one_is_not_precise_but_undefined():
    """Forecasts that separate the outcomes: C = 1 with a DeLong variance of 0.
    Its interval is undefined and the sentence says the sample cannot judge
    it (was: "estimated precisely enough: its 95% CI (1 to 1) is 0 wide")."""
    p = np.random.default_rng(5).uniform(0.05, 0.95, 60)
    y = (p > 0.5).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the calibration fit's separation warning
        res = achieved_precision(y, p)
    assert res.estimates["c_statistic"] == 1.0
    assert math.isnan(res.widths["c_statistic"]) and not res.met["c_statistic"]
    assert res.sample_size_needed["c_statistic"] is None
    c_sentence = [s for s in res.statements if "C statistic" in s][0]
    assert c_sentence.startswith("This sample cannot judge the C statistic")
    assert "separate the outcomes" in c_sentence
