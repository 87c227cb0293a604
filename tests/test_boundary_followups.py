"""Follow-ups of the boundary fuzz (faults the helpers reported outside their
areas): each test failed before its fix."""

import warnings

import numpy as np
import pytest

from skbrier.metrics import decision_curve, net_benefit, temperature_scaling

Y = [0, 1, 1, 0, 1, 0]
P = [0.2, 0.7, 0.6, 0.4, 0.9, 0.1]


@pytest.mark.parametrize("harm", [-1, -1e-9, {"model": -0.5}])
def test_negative_harm_is_refused(harm):
    # a negative harm (a gain from testing) lifted the net benefit above the
    # prevalence, silently
    with pytest.raises(ValueError, match=r"^harm(\['model'\])? must be >= 0"):
        decision_curve(Y, P, thresholds=[0.3], harm=harm)


def test_harm_as_a_0d_array_is_its_number():
    # np.array(0.01) was "harm must be a real number"
    a = decision_curve(Y, P, thresholds=[0.3, 0.5], harm=np.array(0.01))
    b = decision_curve(Y, P, thresholds=[0.3, 0.5], harm=0.01)
    np.testing.assert_array_equal(a.net_benefit, b.net_benefit)
    assert net_benefit(Y, P, threshold=np.array(0.3)) == net_benefit(Y, P, threshold=0.3)


def test_temperature_scaling_of_zero_probabilities_leaks_no_runtime_warning():
    # numpy's "divide by zero encountered in log" leaked from the log of the
    # probabilities of 0 (log -inf, handled)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)  # temperature left at 1
        res = temperature_scaling(
            [0, 1, 2, 0], np.eye(3)[[0, 1, 2, 0]], from_logprobs=False
        )
    assert res.temperature == 1.0


def _negligible_class_data(n=3000):
    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p


def test_achieved_precision_sees_both_classes_of_very_unequal_weight():
    # non-events of weight 1e-17 beside events of weight 1: n - o rounded to
    # 0 and the data were refused as a single class; the logistic fits (which
    # fit the non-events there) and the C statistic are defined
    from skbrier import c_statistic
    from skbrier.validation import achieved_precision

    y, p = _negligible_class_data()
    w = np.where(y == 0, 1e-17, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        res = achieved_precision(y, p, sample_weight=w)
    assert res.estimates["c_statistic"] == pytest.approx(c_statistic(y, p), rel=1e-12)
    assert np.isfinite(res.estimates["calibration_slope"])


def test_achieved_precision_of_tiny_event_weights_leaks_no_runtime_warning():
    # events of weight 1e-300: O/E of 1e-300, whose square underflows; numpy's
    # "invalid value encountered in divide" leaked from the log scale
    from skbrier.validation import achieved_precision

    y, p = _negligible_class_data()
    w = np.where(y == 1, 1e-300, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)
        res = achieved_precision(y, p, sample_weight=w)
    assert res.estimates["observed_expected"] < 1e-290
