"""Confidence intervals of internal validation (Noma et al. 2021) against R pminternal.

tests/fixtures/make_pminternal_confint_fixtures.R runs pminternal's
``confint.internal_validate`` on the data of make_pminternal_fixtures.R and
records every resample it draws: the validation's own, the outer resamples
and, for ``"twostage"``, the inner resamples of each outer one.  Given those
(``indices``, ``interval_indices``) skbrier's intervals equal R's to
rounding; the rest checks the mechanism (seeds, n_jobs, nested or not,
weights, errors, progress).
"""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.linear_model import LogisticRegression
from test_internal_validation import _FailsOnSmallSamples
from test_internal_validation_reference import NAMES as REFERENCE_NAMES
from test_internal_validation_reference import _model

from skbrier._core.progress import force_progress
from skbrier._core.resampling import interval_from_replicates
from skbrier.model_selection import internal_validation

HERE = Path(__file__).parent / "fixtures"
DATA = json.loads((HERE / "pminternal_fixtures.json").read_text())
CI = json.loads((HERE / "pminternal_confint_fixtures.json").read_text())
#: pminternal's score names -> skbrier's measures (net benefit: one band)
NAMES = {k: v for k, v in REFERENCE_NAMES.items() if not k.startswith("NB_")}
NB = ["NB_0.2", "NB_0.4"]
#: pmcalibration's glm stops at epsilon 1e-8: its apparent intercept and
#: slope (0 and 1 for a maximum-likelihood model) are off by ~1e-8; the
#: calibration in the large of such a model is 0 to its convergence
ATOL = {"Intercept": 1e-7, "Slope": 1e-7, "CITL": 1e-10}
#: pminternal's methods -> skbrier's (the estimate a validation method corrects)
METHODS = {"boot_optimism": "", ".632": "_632"}


def _run(section, measures, **kw):
    X, y = np.array(DATA["X"]), np.array(DATA["y"])
    sec, B = CI[section], CI["B"]
    draws = np.array(sec["draws"]) - 1  # R's 1-based rows
    R, n = sec["R"], y.size
    outer = draws[:R]
    if section == "twostage":  # each outer resample's inner ones follow it
        outer = np.concatenate([outer[:, None], draws[R:].reshape(R, B, n)], axis=1)
    return internal_validation(
        _model(), X, y, n_bootstrap=B, correction="both", measures=measures,
        thresholds=DATA["thresholds"], indices=np.array(CI["indices"]) - 1,
        n_resamples=R, nested=section == "twostage", interval_indices=outer, **kw,
    )  # fmt: skip


def _check(res, theirs, method, skip=()):
    for r_name, name in NAMES.items():
        if name not in res.measures or r_name in skip:
            continue
        low, high = res.confidence_interval(CI["level"], metric=name, method=method)
        tol = {"rel": 1e-9, "abs": ATOL.get(r_name, 1e-12)}
        assert low == pytest.approx(theirs["low"][r_name], **tol), (name, method)
        assert high == pytest.approx(theirs["high"][r_name], **tol), (name, method)
    low, high = res.confidence_interval(CI["level"], metric="net_benefit", method=method)
    np.testing.assert_allclose(low, [theirs["low"][k] for k in NB], rtol=1e-10)
    np.testing.assert_allclose(high, [theirs["high"][k] for k in NB], rtol=1e-10)


def _apparent_and_normal(res, section, key, suffix, skip=()):
    """The apparent intervals and the normal ones (``ci_type = "norm"``: the
    estimate -/+ z times the sd of the replicates) from the same replicates."""
    reps = res.interval_replicates
    ours = interval_from_replicates(reps["apparent"], CI["level"])
    theirs = CI[section]["intervals"][f"{key}_perc"]["apparent"]
    z = norm.ppf(0.5 + CI["level"] / 2)
    normal = CI[section]["intervals"][f"{key}_norm"]["corrected"]
    field = "corrected" + suffix
    spread = reps["apparent"] if section == "shifted" else reps[field]
    sd = np.std(spread, axis=0, ddof=1)
    for r_name, name in NAMES.items():
        if name in res.measures:
            k = res.measures.index(name)
            tol = {"rel": 1e-9, "abs": ATOL.get(r_name, 1e-12)}
            assert ours.low[k] == pytest.approx(theirs["low"][r_name], **tol), name
            assert ours.high[k] == pytest.approx(theirs["high"][r_name], **tol), name
            if r_name in skip:
                continue
            est = getattr(res, field)[name]
            tol["abs"] = 1e-12 + (1e-7 if r_name in ATOL else 0) * z
            assert est - z * sd[k] == pytest.approx(normal["low"][r_name], **tol), name
            assert est + z * sd[k] == pytest.approx(normal["high"][r_name], **tol), name


@pytest.fixture(scope="module")
def shifted():
    return _run("shifted", None, n_jobs=2)


@pytest.fixture(scope="module")
def twostage():
    # the lowess ICI is left out to keep the 400 inner refits quick
    measures = [m for m in NAMES.values() if m != "ici"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _run("twostage", measures, n_jobs=2)


def test_the_validation_is_pminternals(shifted):
    for key, suffix in METHODS.items():
        est = CI["estimates"][key]
        for r_name, name in NAMES.items():
            tol = {"rel": 1e-10, "abs": ATOL.get(r_name, 1e-12)}
            assert shifted.apparent[name] == pytest.approx(est["apparent"][r_name], **tol)
            corrected = getattr(shifted, "corrected" + suffix)[name]
            assert corrected == pytest.approx(est["corrected"][r_name], **tol), name


@pytest.mark.parametrize("key", METHODS)
def test_shifted_equals_pminternal(shifted, key):
    suffix = METHODS[key]
    _check(
        shifted, CI["shifted"]["intervals"][f"{key}_perc"]["corrected"], "shifted" + suffix
    )
    _apparent_and_normal(shifted, "shifted", key, suffix)


@pytest.mark.parametrize("key", METHODS)
def test_twostage_equals_pminternal(twostage, key):
    suffix = METHODS[key]
    # the C of .632: see test_twostage_632_c_statistic_with_procs_direction
    skip = ("C",) if key == ".632" else ()
    theirs = CI["twostage"]["intervals"][f"{key}_perc"]["corrected"]
    _check(twostage, theirs, "twostage" + suffix, skip)
    _apparent_and_normal(twostage, "twostage", key, suffix, skip)
    # the same outer resamples give the shifted interval too
    assert twostage.confidence_interval(metric="c_statistic", method="shifted" + suffix)


def test_twostage_632_c_statistic_with_procs_direction(twostage):
    """pROC's ``direction = "auto"`` scores 1 - C on out-of-bag rows whose
    events have the lower median forecast; redoing the inner validations of
    the outer resamples with that flip gives R's two-stage .632 interval of C
    (skbrier's own interval differs only there)."""
    X, y = np.array(DATA["X"]), np.array(DATA["y"])
    sec, B = CI["twostage"], CI["B"]
    draws = np.array(sec["draws"]) - 1
    R, n = sec["R"], y.size
    inner_all = draws[R:].reshape(R, B, n)
    estimates, flipped = [], 0
    for r in range(R):
        Xr, yr, inner = X[draws[r]], y[draws[r]], inner_all[r]
        v = internal_validation(
            _model(), Xr, yr, n_bootstrap=B, correction="632plus",
            measures=["c_statistic"], indices=inner,
        )  # fmt: skip
        oob = v.replicates["out_of_bag"][:, 0].copy()
        for b in range(B):
            left = np.setdiff1d(np.arange(n), inner[b])
            p, yy = v.stability.bootstrap[b][left], yr[left]
            if np.median(p[yy == 0]) > np.median(p[yy == 1]):
                oob[b], flipped = 1.0 - oob[b], flipped + 1
        e1 = np.mean(v.replicates["weight_632"] * oob)
        estimates.append(0.368 * v.apparent["c_statistic"] + 0.632 * e1)
        assert v.corrected_632["c_statistic"] == pytest.approx(
            twostage.interval_replicates["corrected_632"][r, 0], rel=1e-12
        )
    assert flipped  # the quirk happens on these resamples
    low, high = interval_from_replicates(np.array(estimates), CI["level"])
    theirs = sec["intervals"][".632_perc"]["corrected"]
    assert low == pytest.approx(theirs["low"]["C"], rel=1e-9)
    assert high == pytest.approx(theirs["high"]["C"], rel=1e-9)


# --------------------------------------------------------------------------- mechanism
def _small(n=60, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-0.3 - X[:, 0]))).astype(int)
    return X, y


SMALL = {"n_bootstrap": 6, "measures": ["brier_score", "c_statistic"], "random_state": 1}


def test_outer_resamples_do_not_depend_on_nested_or_n_jobs():
    X, y = _small()
    plain = internal_validation(_model(), X, y, **SMALL)
    shifted = internal_validation(_model(), X, y, n_resamples=5, **SMALL)
    nested = internal_validation(_model(), X, y, n_resamples=5, nested=True, **SMALL)
    parallel = internal_validation(
        _model(), X, y, n_resamples=5, nested=True, n_jobs=2, **SMALL
    )
    assert shifted.corrected == plain.corrected == nested.corrected  # the validation
    a = shifted.interval_replicates["apparent"]
    np.testing.assert_array_equal(a, nested.interval_replicates["apparent"])
    for key, reps in nested.interval_replicates.items():
        np.testing.assert_array_equal(reps, parallel.interval_replicates[key])
    assert shifted.n_resamples == 5 and not shifted.nested and nested.nested
    assert "5 (nested)" in nested.summary() and "n_resamples" not in plain.summary()
    assert set(nested.interval_replicates) == {"apparent", "corrected"}
    assert shifted.confidence_interval() == nested.confidence_interval(method="shifted")


def test_the_two_intervals_are_their_formulas():
    X, y = _small()
    res = internal_validation(
        _model(), X, y, n_resamples=8, nested=True, correction="both",
        thresholds=[0.3, 0.5], **{**SMALL, "n_bootstrap": 25},
    )  # fmt: skip
    reps = res.interval_replicates
    assert set(reps) == {"apparent", "corrected", "corrected_632", "corrected_632plus"}
    k = res.measures.index("c_statistic")
    for suffix in ("", "_632", "_632plus"):
        est = getattr(res, "corrected" + suffix)["c_statistic"]
        shift = res.apparent["c_statistic"] - est
        q = np.quantile(reps["apparent"][:, k], [0.05, 0.95])
        low, high = res.confidence_interval(
            0.9, metric="c_statistic", method="shifted" + suffix
        )
        assert (low, high) == pytest.approx((q[0] - shift, q[1] - shift), rel=1e-12)
        q = np.quantile(reps["corrected" + suffix][:, k], [0.05, 0.95])
        ci = res.confidence_interval(0.9, metric="c_statistic", method="twostage" + suffix)
        assert ci == pytest.approx(tuple(q), rel=1e-12)
    band = res.confidence_interval(metric="net_benefit")  # twostage, of corrected
    cols = [res.measures.index(f"net_benefit@{t}") for t in (0.3, 0.5)]
    q = np.quantile(reps["corrected"][:, cols], [0.025, 0.975], axis=0)
    np.testing.assert_allclose(band.low, q[0], rtol=1e-12)
    np.testing.assert_allclose(band.high, q[1], rtol=1e-12)


def test_default_method_follows_nested_and_correction():
    X, y = _small()
    plus = internal_validation(
        _model(), X, y, correction="632plus", n_resamples=4, **{**SMALL, "n_bootstrap": 20}
    )
    est = plus.corrected_632plus["brier_score"]
    shift = plus.apparent["brier_score"] - est
    q = np.quantile(plus.interval_replicates["apparent"][:, 0], [0.025, 0.975])
    assert plus.confidence_interval() == pytest.approx((q[0] - shift, q[1] - shift))
    assert plus.confidence_interval() == plus.confidence_interval(method="shifted_632plus")


def test_cv_optimism_intervals():
    X, y = _small()
    res = internal_validation(
        _model(), X, y, correction="cv_optimism", n_bootstrap=4, n_resamples=4,
        nested=True, measures=["brier_score"],
    )  # fmt: skip
    low, high = res.confidence_interval(method="twostage")
    assert low <= high and set(res.interval_replicates) == {"apparent", "corrected"}
    assert res.confidence_interval(method="shifted") is not None


def test_weights_resampling_uses_the_same_draws():
    """resample="weights" fits the drawn rows with their multiplicities: the
    same outer and inner resamples (given as positions) and, for a logistic
    regression, the same intervals."""
    X, y = _small()
    rng = np.random.default_rng(0)
    outer = rng.integers(0, 60, (4, 7, 60))
    kw = {**SMALL, "n_resamples": 4, "nested": True, "interval_indices": outer}
    rows = internal_validation(_model(), X, y, **kw)
    weights = internal_validation(_model(), X, y, resample="weights", **kw)
    for key, reps in rows.interval_replicates.items():
        np.testing.assert_allclose(weights.interval_replicates[key], reps, rtol=1e-9)


def test_integer_weights_equal_repeated_rows():
    """Frequency weights draw the outer and inner resamples of the repeated rows."""
    X, y = _small(n=40)
    w = np.random.default_rng(3).integers(1, 4, y.size).astype(float)
    rep = np.repeat(np.arange(y.size), w.astype(int))
    kw = {**SMALL, "n_bootstrap": 4, "n_resamples": 3, "nested": True}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small resamples may separate the outcomes
        weighted = internal_validation(_model(), X, y, sample_weight=w, **kw)
        repeated = internal_validation(_model(), X[rep], y[rep], resample="weights", **kw)
    for key, reps in weighted.interval_replicates.items():
        np.testing.assert_allclose(repeated.interval_replicates[key], reps, rtol=1e-7)


def test_progress_shows_the_outer_bootstrap(capsys):
    X, y = _small()
    with force_progress():
        internal_validation(_model(), X, y, n_resamples=3, nested=True, **SMALL)
    assert "internal validation intervals" in capsys.readouterr().err


@pytest.mark.filterwarnings("ignore:6 of 12 bootstrap refits failed:RuntimeWarning")
def test_failed_outer_resamples_are_left_out_with_a_warning():
    X, y = _small()
    with pytest.warns(RuntimeWarning, match="of 12 outer bootstrap refits failed"):
        res = internal_validation(
            _FailsOnSmallSamples(38), X, y, n_resamples=12, **{**SMALL, "n_bootstrap": 12},
        )  # fmt: skip
    failed = np.isnan(res.interval_replicates["apparent"][:, 0])
    assert 0 < failed.sum() < 12
    with pytest.warns(RuntimeWarning, match="replicates are NaN"):
        res.confidence_interval()


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"n_resamples": 1}, ValueError, "n_resamples must be at least 2"),
        ({"nested": True}, ValueError, "give n_resamples > 0"),
        ({"nested": 1, "n_resamples": 2}, TypeError, "nested must be True or False"),
        (
            {"n_resamples": 2, "interval_indices": np.zeros((2, 7, 60), dtype=int)},
            ValueError,
            r"shape \(n_resamples, n_samples\) = \(2, 60\), got",
        ),
        (
            {"n_resamples": 2, "sample_weight": np.ones(60),
             "interval_indices": np.zeros((2, 60), dtype=int)},
            ValueError,
            "cannot be combined with sample_weight",
        ),
    ],
)  # fmt: skip
def test_errors_name_the_parameter(kwargs, error, match):
    X, y = _small()
    with pytest.raises(error, match=match):
        internal_validation(_model(), X, y, **{**SMALL, **kwargs})


def test_interval_errors_say_what_to_do():
    X, y = _small()
    res = internal_validation(_model(), X, y, **SMALL)
    with pytest.raises(ValueError, match="n_resamples > 0"):
        res.confidence_interval()
    res = internal_validation(_model(), X, y, n_resamples=3, **SMALL)
    with pytest.raises(ValueError, match="nested=True"):
        res.confidence_interval(method="twostage")
    with pytest.raises(ValueError, match=r"corrected_632plus, which correction='harrell'"):
        res.confidence_interval(method="shifted_632plus")
    with pytest.raises(ValueError, match="^metric must be one of"):
        res.confidence_interval(metric="ici")


def test_outer_resamples_that_separate_are_undefined_not_an_interpolated_nan():
    """40 rows: some outer resamples' apparent models separate their outcomes
    (infinite calibration slope).  The shifted interval leaves those out with
    the NaN count (was: a NaN bound from interpolating inf - inf, with
    numpy's invalid-value warning)."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(40, 3))
    y = (rng.uniform(size=40) < 1 / (1 + np.exp(-2 * X[:, 0]))).astype(int)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = internal_validation(
            LogisticRegression(C=np.inf), X, y, n_bootstrap=8, n_resamples=12,
            random_state=0, measures=["calibration_slope", "calibration_intercept"],
        )  # fmt: skip
        assert np.isinf(res.interval_replicates["apparent"]).any()
        for metric in ("calibration_slope", "calibration_intercept"):
            low, high = res.confidence_interval(metric=metric)
            assert np.isfinite(low) and np.isfinite(high) and low <= high, metric
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "encountered" in m], messages
    assert [m for m in messages if "replicates are NaN" in m]
