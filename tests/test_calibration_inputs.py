"""Calibration statistics: frequency weights (integer weights == repeated
rows, zero weights == removed rows, unit weights == none, any scale), the
one bin-edge rule, option checks, label and probability dtypes, and the
result protocol.  References: scikit-learn (calibration_curve,
roc_auc_score) and the statistics on repeated or removed rows."""

from __future__ import annotations

import dataclasses
import json
import math
import warnings

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import roc_auc_score

from skbrier.metrics.calibration import (
    LogisticCalibrationResult,
    LowessCalibrationError,
    SpiegelhalterResult,
    c_statistic,
    calibration_in_the_large,
    calibration_intercept_slope,
    lowess_calibration_error,
    spiegelhalter_z,
)
from skbrier.metrics.calibration_error import calibration_error


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    n = 120
    p = np.round(rng.uniform(0.02, 0.98, n), 2)  # ties and values on bin edges
    y = (rng.uniform(size=n) < np.clip(p + 0.1, 0, 1)).astype(float)
    w = rng.integers(1, 4, n).astype(float)
    return y, p, w


def _quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return f(*args, **kwargs)


LOGISTIC_FIELDS = (
    "intercept",
    "slope",
    "intercept_stderr",
    "slope_stderr",
    "calibration_in_the_large",
    "calibration_in_the_large_stderr",
    "lr_chi2",
    "unreliability_chi2",
    "unreliability_pvalue",
    "r2",
    "weight_used",
)


# --- frequency weights --------------------------------------------------------


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_ece_integer_weights_equal_repeated_rows(data, strategy, norm):
    y, p, w = data
    r = w.astype(int)
    kw = {"n_bins": 7, "strategy": strategy, "norm": norm}
    assert calibration_error(y, p, sample_weight=w, kind="binary", **kw) == pytest.approx(
        calibration_error(np.repeat(y, r), np.repeat(p, r), kind="binary", **kw), abs=1e-14
    )


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_ece_unit_weights_equal_no_weights(data, strategy):
    """Issue item 8: quantile bins used weighted inverted-cdf with weights and
    linear interpolation without."""
    y, p, _ = data
    for n_bins in (3, 7, 10, 33):
        a = calibration_error(y, p, n_bins=n_bins, strategy=strategy, kind="binary")
        b = calibration_error(
            y,
            p,
            n_bins=n_bins,
            strategy=strategy,
            sample_weight=np.ones_like(p),
            kind="binary",
        )
        assert a == b


def test_spiegelhalter_and_logistic_integer_weights_equal_repeated_rows(data):
    """Issue item 6: z, standard errors and Wald intervals with integer weights
    equal those of repeated rows."""
    y, p, w = data
    r = w.astype(int)
    yr, pr = np.repeat(y, r), np.repeat(p, r)
    z1, p1 = spiegelhalter_z(y, p, sample_weight=w)
    z2, p2 = spiegelhalter_z(yr, pr)
    assert z1 == pytest.approx(z2, rel=1e-12) and p1 == pytest.approx(p2, rel=1e-10)
    a = calibration_intercept_slope(y, p, sample_weight=w)
    b = calibration_intercept_slope(yr, pr)
    for f in LOGISTIC_FIELDS:
        assert getattr(a, f) == pytest.approx(getattr(b, f), rel=1e-9, abs=1e-12), f
    for name in ("calibration_intercept", "calibration_slope", "calibration_in_the_large"):
        np.testing.assert_allclose(
            a.confidence_interval(0.9, metric=name),
            b.confidence_interval(0.9, metric=name),
            rtol=1e-9,
        )
    assert c_statistic(y, p, sample_weight=w) == pytest.approx(
        c_statistic(yr, pr), abs=1e-14
    )


def test_zero_weight_rows_equal_removed_rows(data):
    y, p, w = data
    w0 = w.copy()
    w0[::5] = 0.0
    p0 = p.copy()
    p0[::10] = 0.0  # exact 0 on zero-weight rows: not "excluded" either
    keep = w0 > 0
    yk, pk, wk = y[keep], p0[keep], w0[keep]
    np.testing.assert_allclose(
        spiegelhalter_z(y, p0, sample_weight=w0),
        spiegelhalter_z(yk, pk, sample_weight=wk),
        rtol=1e-14,
    )
    for strategy in ("uniform", "quantile"):
        assert calibration_error(
            y, p0, sample_weight=w0, strategy=strategy, kind="binary", n_bins=10
        ) == pytest.approx(
            calibration_error(
                yk, pk, sample_weight=wk, strategy=strategy, kind="binary", n_bins=10
            ),
            abs=1e-15,
        )
    assert c_statistic(y, p0, sample_weight=w0) == pytest.approx(
        roc_auc_score(yk, pk, sample_weight=wk), abs=1e-15
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "left out" warning for zero-weight rows
        a = calibration_intercept_slope(y, p0, sample_weight=w0)
    b = calibration_intercept_slope(yk, pk, sample_weight=wk)
    assert (a.n_used, a.n_excluded) == (b.n_used, b.n_excluded) == (keep.sum(), 0)
    for f in LOGISTIC_FIELDS:
        assert getattr(a, f) == pytest.approx(getattr(b, f), rel=1e-12, abs=1e-14), f
    assert calibration_in_the_large(y, p0, sample_weight=w0) == b.calibration_in_the_large


@pytest.mark.parametrize("scale", [1e-200, 1e-300, 1e-310, 1e300])
def test_extreme_weight_scales(data, scale):
    """Issue item 14: weights of 1e-200 or 1e300 are frequency weights of that
    scale: same coefficients, equal-width ECE and C; standard errors over
    sqrt(scale), z times sqrt(scale) (NaN below a total weight of 3),
    chi-squares times scale; never an
    exception.  (Equal-mass bins are frequency-weighted quantiles, which do
    depend on the scale: a total weight below 1 is less than one sample, and
    is refused with a ValueError naming ``sample_weight``.)"""
    y, p, w = data
    ws = w * scale
    quantile = dict(sample_weight=ws, strategy="quantile", kind="binary", n_bins=10)
    if ws.sum() < 1:
        for binning in (None, "sklearn", "netcal"):
            with pytest.raises(ValueError, match="^sample_weight sums to .*below 1"):
                calibration_error(y, p, binning=binning, **quantile)
    else:
        calibration_error(y, p, **quantile)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = calibration_intercept_slope(y, p, sample_weight=ws)
        z = spiegelhalter_z(y, p, sample_weight=ws).statistic
        ece = calibration_error(y, p, sample_weight=ws, norm="l2", kind="binary", n_bins=10)
        c = c_statistic(y, p, sample_weight=ws)
        citl = calibration_in_the_large(y, p, sample_weight=ws)
    b = calibration_intercept_slope(y, p, sample_weight=w)
    for f in ("intercept", "slope", "calibration_in_the_large", "r2"):
        assert getattr(a, f) == pytest.approx(getattr(b, f), rel=1e-9), f
    root = math.sqrt(scale)
    for f in ("intercept_stderr", "slope_stderr", "calibration_in_the_large_stderr"):
        assert getattr(a, f) == pytest.approx(getattr(b, f) / root, rel=1e-9), f
    assert a.unreliability_chi2 == pytest.approx(b.unreliability_chi2 * scale, rel=1e-9)
    assert a.weight_used == pytest.approx(b.weight_used * scale, rel=1e-12)
    if ws.sum() >= 3:
        assert z == pytest.approx(
            spiegelhalter_z(y, p, sample_weight=w).statistic * root, rel=1e-9
        )
    else:  # below 3 observations every test is NaN, as D, U and Q
        assert math.isnan(z)
    assert ece == pytest.approx(
        calibration_error(y, p, sample_weight=w, norm="l2", kind="binary", n_bins=10),
        abs=1e-14,
    )
    assert c == pytest.approx(c_statistic(y, p, sample_weight=w), abs=1e-14)
    assert citl == a.calibration_in_the_large


def test_extreme_forecasts_never_raise_other_exceptions():
    """Issue item 14: OverflowError on forecasts of 7e-202."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = calibration_intercept_slope([0, 1, 1, 1, 1], np.full(5, 7e-202))
        assert math.isfinite(res.calibration_in_the_large)
        res = calibration_intercept_slope(
            [0, 1, 1, 0, 1], [7e-202, 1e-201, 3e-202, 2e-201, 5e-202]
        )
        assert math.isfinite(res.slope) and not math.isnan(res.r2)
        for p in (np.full(5, 1 - 1e-16), np.array([1e-300, 0.5, 1 - 1e-16, 1e-20, 0.3])):
            res = calibration_intercept_slope([0, 1, 1, 0, 1], p)
            assert not math.isnan(res.calibration_in_the_large)
            z = spiegelhalter_z([0, 1, 1, 0, 1], p)
            assert isinstance(z.statistic, float)


# --- c statistic: one class decided from positive weights --------------------


def test_c_statistic_single_class_among_positive_weights():
    """Issue item 4: was NaN."""
    with pytest.raises(ValueError, match="single class"):
        c_statistic([0, 1, 0, 1], [0.2, 0.8, 0.3, 0.6], sample_weight=[0, 1, 0, 1])
    assert c_statistic(
        [0, 1, 0, 1, 0], [0.2, 0.8, 0.3, 0.6, 0.9], sample_weight=[0, 1, 0, 1, 2]
    ) == roc_auc_score([1, 1, 0], [0.8, 0.6, 0.9], sample_weight=[1, 1, 2])


@pytest.mark.parametrize(
    "func",
    [calibration_intercept_slope, calibration_in_the_large],
    ids=lambda f: f.__name__,
)
def test_logistic_single_class_among_positive_weights(func):
    with pytest.raises(ValueError, match="single class"):
        func([0, 1, 0, 1], [0.2, 0.8, 0.3, 0.6], sample_weight=[0, 1, 0, 1])


# --- the one bin-edge rule ----------------------------------------------------


def test_ece_edge_values_go_to_the_lower_bin_as_calibration_curve():
    """Issue item 10: forecasts on an inner edge (0.5 with 2 bins, 0.2 with 5)
    go to the lower bin, as sklearn.calibration.calibration_curve."""
    y = np.array([0, 1, 1, 0, 1, 1, 0, 0, 1, 1], dtype=float)
    p = np.array([0.1, 0.2, 0.2, 0.4, 0.5, 0.5, 0.5, 0.6, 0.8, 0.9])
    for n_bins in (2, 5):
        edges = np.linspace(0, 1, n_bins + 1)
        prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins)
        counts = np.bincount(np.searchsorted(edges[1:-1], p), minlength=n_bins)
        counts = counts[counts > 0]
        expected = np.dot(counts / counts.sum(), np.abs(prob_true - prob_pred))
        assert calibration_error(y, p, n_bins=n_bins, kind="binary") == pytest.approx(
            expected, abs=1e-15
        )
        assert calibration_error(
            y, p, n_bins=n_bins, right=True, kind="binary"
        ) == pytest.approx(expected, abs=1e-15)
    # right=False: [0, .5) and [.5, 1]; the three forecasts of .5 in the upper bin
    lo, hi = p < 0.5, p >= 0.5
    gaps = [abs(p[m].mean() - y[m].mean()) for m in (lo, hi)]
    expected = (lo.sum() * gaps[0] + hi.sum() * gaps[1]) / p.size
    assert calibration_error(y, p, n_bins=2, right=False, kind="binary") == pytest.approx(
        expected, abs=1e-15
    )
    assert calibration_error(y, p, n_bins=2, right=False, kind="binary") != pytest.approx(
        calibration_error(y, p, n_bins=2, kind="binary")
    )


# --- options ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"n_bins": 100_001}, ValueError, "n_bins"),
        ({"n_bins": 10**30}, ValueError, "n_bins"),
        ({"n_bins": True}, TypeError, "n_bins"),
        ({"n_bins": np.float64(3)}, TypeError, "n_bins"),
        ({"strategy": 1}, TypeError, "strategy"),
        ({"strategy": None}, TypeError, "strategy"),
        ({"norm": None}, TypeError, "norm"),
        ({"norm": "L1"}, ValueError, "norm"),
        ({"right": 1}, TypeError, "right"),
        ({"right": "yes"}, TypeError, "right"),
    ],
)
def test_ece_options_checked(kwargs, exc, match):
    with pytest.raises(exc, match=f"^{match}"):
        calibration_error([0, 1, 1], [0.2, 0.4, 0.3], kind="binary", **kwargs)


def test_ece_many_bins_are_fine():
    assert calibration_error([0, 1, 1], [0.2, 0.4, 0.3], n_bins=100_000, kind="binary") == (
        pytest.approx((0.2 + 0.6 + 0.7) / 3)
    )
    assert (
        calibration_error(
            [0, 1, 1],
            [0.2, 0.4, 0.3],
            n_bins=np.int64(4),
            right=np.bool_(False),
            kind="binary",
        )
        >= 0.0
    )


# --- dtypes -------------------------------------------------------------------

FUNCS = [
    calibration_intercept_slope,
    calibration_in_the_large,
    spiegelhalter_z,
    lowess_calibration_error,
    calibration_error,
    c_statistic,
]


@pytest.mark.parametrize("func", FUNCS, ids=lambda f: f.__name__)
def test_object_and_small_float_dtypes(func, data):
    """Issue item 18: object-dtype float probabilities and object-dtype integer
    labels are read as numbers (as scikit-learn's check_array); float16 and
    float32 labels and bool labels are labels."""
    y, p, _ = data
    ref = _quiet(func, y, p)
    variants = [
        (y.astype(int).astype(object), p),
        (y, p.astype(object)),
        (y.astype(int).astype(object), p.astype(object)),
        (y.astype(np.float16), p),
        (y.astype(np.float32), p),
        (y.astype(bool), p),
        (list(y.astype(int)), list(p)),
    ]
    for yy, pp in variants:
        assert _quiet(func, yy, pp) == ref


def test_object_probabilities_that_are_not_numbers():
    with pytest.raises(TypeError, match="^y_proba"):
        spiegelhalter_z([0, 1], np.array(["a", 0.2], dtype=object))


# --- the result protocol --------------------------------------------------------


def test_result_protocol(data):
    y, p, _ = data
    res = calibration_intercept_slope(y, p)
    assert isinstance(res, LogisticCalibrationResult)
    d = res.to_dict()
    json.dumps(d)
    assert d["slope"] == res.slope and d["unreliability_df"] == 2
    assert "slope" in res.summary() and "unreliability_index" in res.summary()
    assert repr(res).startswith("LogisticCalibrationResult(intercept=")
    assert "<table>" in res._repr_html_()
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.slope = 2.0  # type: ignore[misc]
    intercept, slope = res
    assert (intercept, slope) == (res.intercept, res.slope)
    assert res.quality_index == pytest.approx(
        res.discrimination_index - res.unreliability_index
    )

    z = spiegelhalter_z(y, p)
    assert isinstance(z, SpiegelhalterResult)
    stat, pval = z
    assert (z[0], z[1], len(z), z[-1]) == (stat, pval, 2, pval)
    assert z.to_dict() == {"statistic": stat, "pvalue": pval}
    assert z == spiegelhalter_z(y, p)

    e = lowess_calibration_error(y, p)
    assert isinstance(e, LowessCalibrationError)
    emax, e90, eavg = e
    assert (emax, e90, eavg) == (e.emax, e.e90, e.eavg) == e[:] == tuple(e)
    json.dumps(e.to_dict())
    assert "eavg" in e.summary()


@pytest.mark.parametrize("total", [2.5, 1e-3, 1e-200, 1e-305])
def test_valprob_indexes_need_three_observations(data, total):
    # D = (LR chi2 - 1) / n with frequency weights summing to 1e-200 gave
    # D = -1e200, U = -2e200, Q = 1e200 (the report printed them); below 3
    # observations they are undefined, as the intervals the report leaves out
    y, p, w = data
    res = calibration_intercept_slope(y, p, sample_weight=w / w.sum() * total)
    assert math.isnan(res.discrimination_index)
    assert math.isnan(res.unreliability_index)
    assert math.isnan(res.quality_index)
    ref = calibration_intercept_slope(y, p, sample_weight=w)
    assert res.slope == pytest.approx(ref.slope, rel=1e-9)
    # at three observations they are numbers again
    three = calibration_intercept_slope(y, p, sample_weight=w / w.sum() * 3.5)
    assert math.isfinite(three.quality_index)


@pytest.mark.parametrize("total", [2.5, 1e-3, 1e-200])
def test_valprob_tests_need_three_observations(data, total):
    # with weights summing below 3 observations D/U/Q were NaN but the tests
    # still gave p-values (1.0 at weights x1e-200): every test is NaN there,
    # in the function, the mergeable state and the report alike
    from skbrier.report import calibration_report
    from skbrier.states import SpiegelhalterState

    y, p, w = data
    small = w / w.sum() * total
    assert all(math.isnan(v) for v in spiegelhalter_z(y, p, sample_weight=small))
    state = SpiegelhalterState().update(y, p, sample_weight=small)
    assert all(math.isnan(v) for v in state.finalize())
    res = calibration_intercept_slope(y, p, sample_weight=small)
    assert math.isnan(res.unreliability_pvalue)
    rep = calibration_report(y, p, sample_weight=small)
    assert math.isnan(rep.spiegelhalter_p)
    assert not any("1/2" in note for note in rep.notes)  # the note says why
    assert math.isnan(rep.logistic.unreliability_pvalue)
    assert rep.discrimination_pvalue is None or math.isnan(rep.discrimination_pvalue)
    doc = json.loads(rep.to_json())
    assert "1.0" not in json.dumps(doc.get("valprob", doc))
    # unweighted: two rows are too few, three are enough
    assert all(math.isnan(v) for v in spiegelhalter_z([0, 1], [0.2, 0.7]))
    assert math.isfinite(spiegelhalter_z([0, 1, 1], [0.2, 0.7, 0.6]).pvalue)
    three = w / w.sum() * 3.5
    assert math.isfinite(spiegelhalter_z(y, p, sample_weight=three).pvalue)
    assert math.isfinite(
        calibration_intercept_slope(y, p, sample_weight=three).unreliability_pvalue
    )
