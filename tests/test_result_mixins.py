"""The shared interval mixins of the metric results (issue 25: one
``confidence_interval`` for the results that compute intervals).

Each converted result keeps its former behaviour: the same default metric and
method, the same intervals, the same ``to_dict`` keys and ``to_frame``
columns, and an error naming the function to call again when there was no
bootstrap.
"""

import numpy as np
import pytest

from skbrier._core.bootstrap_results import _BootstrapResult
from skbrier._core.results import Result, _IntervalResult
from skbrier.metrics import (
    abstention_utility,
    calibration_by_group,
    calibration_error_interval,
    calibration_intercept_slope,
    compare_abstention_utility,
    corp_decomposition,
    murphy_decomposition,
    risk_coverage_curve,
)


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p


def _boot_results():
    y, p = _data()
    kw = {"n_resamples": 60, "random_state": 0}
    return {
        "abstention_utility": (abstention_utility(y, p, **kw), "utility_area"),
        "compare_abstention_utility": (
            compare_abstention_utility(y, p, y, np.full(p.shape, 0.5), **kw),
            "utility_area",
        ),
        "risk_coverage_curve": (risk_coverage_curve(y, p, **kw), "aurc"),
        "murphy_decomposition": (murphy_decomposition(y, p, **kw), "reliability"),
        "corp_decomposition": (corp_decomposition(y, p, **kw), "miscalibration"),
    }


@pytest.mark.parametrize("name", list(_boot_results()))
def test_the_default_metric_is_the_former_default(name):
    res, default = _boot_results()[name]
    assert isinstance(res, _IntervalResult)
    assert res.confidence_interval() == res.confidence_interval(metric=default)
    assert res.confidence_interval(0.9, method="basic") == res.confidence_interval(
        0.9, metric=default, method="basic"
    )


@pytest.mark.parametrize(
    ("build", "func"),
    [
        (lambda y, p: abstention_utility(y, p), "abstention_utility"),
        (
            lambda y, p: compare_abstention_utility(y, p, y, p, n_resamples=0),
            "compare_abstention_utility",
        ),
        (lambda y, p: risk_coverage_curve(y, p), "risk_coverage_curve"),
        (lambda y, p: murphy_decomposition(y, p), "murphy_decomposition"),
        (lambda y, p: corp_decomposition(y, p), "corp_decomposition"),
    ],
)
def test_no_bootstrap_names_the_function_to_call(build, func):
    res = build(*_data(60))
    with pytest.raises(ValueError, match=f"no bootstrap.*{func} with n_resamples > 0"):
        res.confidence_interval()


def test_bootstrap_results_keep_their_dict_keys_and_frames():
    res = _boot_results()
    one, two = res["abstention_utility"][0], res["compare_abstention_utility"][0]
    rc = res["risk_coverage_curve"][0]
    assert all(isinstance(r, _BootstrapResult) for r in (one, two, rc))
    d = one.to_dict()
    assert "bootstrap_replicates" not in d
    assert list(d)[-2:] == ["area_interval", "bands"]
    low, high = one.confidence_interval()
    assert d["area_interval"] == pytest.approx({"low": low, "high": high})
    assert list(two.to_dict())[-2:] == ["area_difference_interval", "bands"]
    assert list(rc.to_dict())[-3:] == [
        "aurc_interval",
        "e_aurc_interval",
        "selective_risk_band",
    ]
    assert one.to_frame().columns.tolist() == [
        "threshold",
        "utility",
        "answer_rate",
        "answer_all",
        "utility_low",
        "utility_high",
    ]
    assert two.to_frame().columns.tolist() == [
        "threshold",
        "utility_a",
        "utility_b",
        "difference",
        "difference_low",
        "difference_high",
    ]
    low, high = two.bands
    assert two.to_frame()["difference_low"].tolist() == pytest.approx(low.tolist())


def test_wald_results_take_wald_only():
    y, p = _data(400)
    fit = calibration_intercept_slope(y, p)
    assert fit.confidence_interval() == fit.confidence_interval(metric="calibration_slope")
    assert fit.confidence_interval(method="wald") == fit.confidence_interval()
    with pytest.raises(ValueError, match="method must be one of"):
        fit.confidence_interval(method="percentile")
    groups = calibration_by_group(y, p, groups=np.arange(400) % 2)
    low, high = groups.confidence_interval()
    low2, high2 = groups.confidence_interval(metric="observed_expected")
    np.testing.assert_array_equal(low, low2)
    np.testing.assert_array_equal(high, high2)


def test_calibration_error_interval_defaults_to_what_it_computed():
    y, p = _data(200)
    res = calibration_error_interval(y, p, n_resamples=50, method="basic", random_state=0)
    low, high = res.confidence_interval(res.confidence_level)
    assert (low, high) == pytest.approx((res.low, res.high))
    with pytest.raises(ValueError, match="metric must be one of"):
        res.confidence_interval(metric="smooth_calibration_error")


def test_the_mixins_are_not_results_of_their_own():
    # the protocol test lists every public subclass of Result: the mixins are private
    assert _IntervalResult.__name__.startswith("_") and issubclass(_IntervalResult, Result)
    assert not hasattr(Result, "confidence_interval")
