"""The pooling scale has one home (:mod:`skbrier.stats._validation_measures`):
the names of the scales, the checked estimates moved onto their scale, and an
interval symmetric there, back on the natural scale.

:func:`random_effects_meta` and :func:`pool_rubin` share them; their numbers
and messages are unchanged.
"""

import numpy as np
import pytest
from scipy import special, stats

from skbrier.stats import pool_rubin, random_effects_meta
from skbrier.stats._validation_measures import (
    TRANSFORMS,
    check_estimates,
    scaled_interval,
)


def test_one_table_of_scales():
    assert TRANSFORMS == ("identity", "logit", "log")
    for pool in (pool_rubin, random_effects_meta):
        with pytest.raises(ValueError, match=r"transform must be one of") as e:
            pool([0.7, 0.8], [0.01, 0.02], transform="probit")
        assert all(repr(name) in str(e.value) for name in TRANSFORMS)


@pytest.mark.parametrize(
    ("transform", "moved"),
    [
        ("identity", lambda q, u: (q, u)),
        ("logit", lambda q, u: (special.logit(q), u / (q * (1 - q)) ** 2)),
        ("log", lambda q, u: (np.log(q), u / q**2)),
    ],
)
def test_checked_estimates_come_on_the_pooling_scale(transform, moved):
    q, u = np.array([0.6, 0.75, 0.7]), np.array([0.01, 0.02, 0.015])
    got = check_estimates(q, u, transform, what="studies", zero_variance=False)
    want = moved(q, u)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-15)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-15)


def test_an_interval_symmetric_on_its_scale_is_moved_back():
    assert scaled_interval(0.0, 1.0, "logit") == pytest.approx(
        (special.expit(-1.0), special.expit(1.0))
    )
    assert scaled_interval(0.0, 1.0, "log") == pytest.approx((np.exp(-1.0), np.exp(1.0)))
    assert tuple(scaled_interval(2.0, 0.5, "identity")) == (1.5, 2.5)


def test_the_prediction_interval_is_the_scaled_interval_of_its_half_width():
    res = random_effects_meta(
        [0.72, 0.68, 0.75, 0.70], [0.0004, 0.0006, 0.0005, 0.0003], transform="logit"
    )
    crit = stats.norm.ppf(0.975)
    half = crit * np.sqrt(res.standard_error**2 + res.tau2)
    lo, hi = res.prediction_interval()
    assert (lo, hi) == pytest.approx(
        (special.expit(res.pooled_scale - half), special.expit(res.pooled_scale + half)),
        rel=1e-14,
    )


def test_the_measures_of_each_part_are_collected_once():
    from skbrier.stats._validation_measures import (
        MEASURES,
        measures_of_parts,
        validation_measures,
    )

    rng = np.random.default_rng(3)
    parts = []
    for _ in range(3):
        p = rng.uniform(0.05, 0.95, 120)
        parts.append(((rng.uniform(size=120) < p).astype(float), p, None))
    est, var = measures_of_parts([parts[0], None, parts[1], parts[2]])
    assert list(est) == list(var) == [name for name, _ in MEASURES]
    for name, _ in MEASURES:
        assert est[name].shape == var[name].shape == (4,)
        assert np.isnan(est[name][1]) and np.isnan(var[name][1])
    for j, part in zip([0, 2, 3], parts):
        for name, (e, v) in validation_measures(*part).items():
            assert (est[name][j], var[name][j]) == (e, v)


def test_a_fit_warning_of_a_part_names_the_callers_line():
    # the warning of a separated part's calibration fit pointed past the
    # caller: it names the line that called the pooling function
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from skbrier.stats import clustered_validation, pooled_validation

    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, 300)
    y = (rng.uniform(size=300) < p).astype(int)
    g = np.arange(300) % 4
    separated = p.copy()
    separated[g == 3] = np.where(y[g == 3] == 1, 0.8, 0.2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="separate"):  # refused once warned
            pooled_validation(y, [p, np.where(y == 1, 0.7, 0.3)])
        clustered_validation(y, separated, groups=g)
    fits = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert len(fits) == 2 and all(w.filename == __file__ for w in fits)
