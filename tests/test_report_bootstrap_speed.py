"""The report's bootstrap refits the logistic calibration on binned sufficient
statistics (issue 25: the bootstrap report at 2e6 rows took 50 times the iid
report, 27 of 32 s refitting on the rows).

The refits must give the numbers of a refit on the rows of every resample
(:func:`refit_calibration`, tested against R's glm elsewhere) to 1e-10, with
the same seed, and make no pass over the rows per resample."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import special

from skbrier._core.kernels import logistic, logistic_refit
from skbrier._core.kernels.calibration import logistic_calibration, refit_calibration
from skbrier._core.kernels.logistic_refit import BinnedRefits, sigmoid_taylor
from skbrier._core.resampling import resample_counts, run_replicates
from skbrier.report import _valprob, calibration_report

TOL = 1e-10


def _data(n, seed=0, *, ties=False, slope=1.5, extremes=False):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n)
    y = (rng.random(n) < special.expit(-1.0 + x)).astype(np.float64)
    p = special.expit(0.3 + slope * (-1.0 + x))
    if ties:
        p = np.round(p, 3)
    if extremes:  # rows left out of the logistic fits
        p[:5] = 0.0
        p[5:9] = 1.0
    return y, p


def _start(y, p, w=None):
    st = logistic_calibration(y, p, w)
    joint = st.status != "constant" and math.isfinite(st.slope)
    return (st.citl, st.intercept, st.slope if math.isfinite(st.slope) else 0.0), joint


def _compare(y, p, w=None, n_resamples=6, seed=1):
    lg = special.logit(p)
    wn = None if w is None else w / w.max()
    start, joint = _start(y, p, w)
    binned = BinnedRefits.build(y, lg, wn, start, joint)
    assert binned is not None
    rng = np.random.default_rng(seed)
    counts = [resample_counts(rng, y.shape[0]) for _ in range(n_resamples)]
    cb = np.stack([c[binned.order] for c in counts])
    got = binned.refit(cb)
    want = np.array(
        [
            refit_calibration(y, lg, c if wn is None else c * wn, start, joint=joint)
            for c in counts
        ]
    )
    np.testing.assert_allclose(got, want, rtol=0.0, atol=TOL)
    return got


def test_sigmoid_taylor_is_the_series_of_the_logistic_function():
    eta = np.array([-40.0, -3.0, -0.2, 0.0, 0.7, 5.0, 40.0])
    a, t = sigmoid_taylor(eta, 7)
    h = 1e-3
    for k, e in enumerate(eta):
        series = sum(float(a[j][k]) * h**j for j in range(8))
        assert series == pytest.approx(float(special.expit(e + h)), rel=1e-14, abs=1e-300)
    np.testing.assert_allclose(t, special.expit(-eta), rtol=1e-15)
    # the tails keep their relative accuracy (no 1 - sigma cancellation)
    assert float(a[1][0]) == pytest.approx(math.exp(-40.0), rel=1e-14)


@pytest.mark.parametrize("kind", ["smooth", "ties", "steep", "flat", "weights", "extremes"])
def test_binned_refits_equal_refits_on_the_rows(kind):
    n = 20_000
    w = None
    if kind == "ties":
        y, p = _data(n, ties=True)
    elif kind == "steep":
        y, p = _data(n, slope=0.4)
    elif kind == "flat":
        y, p = _data(n, slope=3.0)
    elif kind == "extremes":
        y, p = _data(n, extremes=True)
        keep = (p > 0) & (p < 1)
        y, p = y[keep], p[keep]
    else:
        y, p = _data(n)
    if kind == "weights":
        w = np.random.default_rng(5).uniform(0.2, 3.0, n) * 1e-150
    _compare(y, p, w)


def test_bins_of_tied_forecasts_are_exact():
    rng = np.random.default_rng(4)
    p = rng.choice([0.1, 0.3, 0.5, 0.7, 0.9], 20_000)
    y = (rng.random(20_000) < p**1.3).astype(np.float64)
    start, joint = _start(y, p)
    binned = BinnedRefits.build(y, special.logit(p), None, start, joint)
    assert binned is not None
    # one forecast per bin and class: no remainder at all
    assert len(binned._bins) == 10
    assert np.all(binned._radius <= 1e-14)
    _compare(y, p)


def test_constant_forecast_refits_calibration_in_the_large_only():
    y, _ = _data(20_000)
    p = np.full(y.shape[0], 0.3)
    got = _compare(y, p)
    assert np.isnan(got[:, 1:]).all() and np.isfinite(got[:, 0]).all()


def test_resamples_that_are_separated_or_of_one_class(monkeypatch):
    # classes separated but for one pair of rows: most small resamples are
    # separated (slope NaN), some hold one class (all NaN)
    monkeypatch.setattr(logistic_refit, "MIN_ROWS", 1)
    monkeypatch.setattr(logistic_refit, "ROWS_PER_BIN", 1)
    lg = np.linspace(-3.0, 3.0, 40)
    y = (lg > 0).astype(np.float64)
    y[19], y[20] = 1.0, 0.0
    p = special.expit(lg)
    got = _compare(y, p, n_resamples=40)
    assert np.isnan(got[:, 2]).any() and np.isfinite(got[:, 2]).any()
    y1 = np.zeros(40)
    y1[0] = 1.0
    got = _compare(y1, p, n_resamples=40, seed=3)
    assert np.isnan(got).all(axis=1).any()


def test_resamples_beyond_the_bound_are_refitted_on_their_rows(monkeypatch):
    calls = []
    real = refit_calibration
    monkeypatch.setattr(logistic_refit, "TOLERANCE", 0.0)

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    from skbrier._core.kernels import calibration

    monkeypatch.setattr(calibration, "refit_calibration", counting)
    y, p = _data(20_000)
    _compare(y, p, n_resamples=3)
    assert len(calls) == 3  # every resample refitted on its rows


def test_too_many_bins_or_too_few_rows_use_the_rows():
    y, p = _data(1000)
    start, joint = _start(y, p)
    assert BinnedRefits.build(y, special.logit(p), None, start, joint) is None
    # a slope of about 40: bins of 0.0013 in logit, more than one per 8 rows
    rng = np.random.default_rng(2)
    lg = rng.standard_normal(20_000)
    y = (rng.random(20_000) < special.expit(40.0 * lg)).astype(np.float64)
    p = special.expit(lg)
    start, joint = _start(y, p)
    assert start[2] > 20.0
    assert BinnedRefits.build(y, special.logit(p), None, start, joint) is None


# --------------------------------------------------------------------------
# the report's bootstrap task: the same seed gives the replicates of refits on
# the rows (the path of small data)
# --------------------------------------------------------------------------


def _replicates(y, p, w, scheme="iid", **kw):
    st = calibration_report(y, p, sample_weight=w).logistic
    wn = w
    task = _valprob._bootstrap_task(y, p, wn, _Lg(st), scheme, 5.0, **kw)
    return run_replicates(task, 20, random_state=4, chunk_size=8)


class _Lg:
    """The fields of the report's logistic result that the task reads."""

    def __init__(self, st):
        self.calibration_in_the_large = st.calibration_in_the_large
        self.intercept = st.intercept
        self.slope = st.slope
        self.unreliability_df = st.unreliability_df


@pytest.mark.parametrize("case", ["iid", "weights", "extremes", "moving_block", "order"])
def test_report_task_equals_refits_on_the_rows_with_the_same_seed(case, monkeypatch):
    y, p = _data(12_000, seed=2, extremes=case == "extremes")
    w = None
    if case == "weights":
        w = np.random.default_rng(1).integers(0, 4, y.shape[0]).astype(np.float64)
    scheme = "moving_block" if case == "moving_block" else "iid"
    kw = {"p_order": np.argsort(p, kind="stable")} if case == "order" else {}
    got = _replicates(y, p, w, scheme, **kw)
    monkeypatch.setattr(
        logistic_refit.BinnedRefits, "build", classmethod(lambda *a, **k: None)
    )
    want = _replicates(y, p, w, scheme)
    assert np.isfinite(want).all()
    np.testing.assert_allclose(got, want, rtol=TOL, atol=TOL)


def test_binned_bootstrap_makes_no_pass_over_the_rows(monkeypatch):
    """The work per resample: no logistic pass over the rows (before: six to
    eight passes of logistic_sums per resample)."""
    y, p = _data(50_000, seed=3)
    st = calibration_report(y, p).logistic
    passes = []
    real = logistic.logistic_sums

    def counting(*args, **kwargs):
        passes.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(logistic, "logistic_sums", counting)
    task = _valprob._bootstrap_task(y, p, None, _Lg(st), "iid", 1.0)
    reps = run_replicates(task, 16, random_state=0, chunk_size=8)
    assert np.isfinite(reps).all()
    assert passes == []


def test_report_bootstrap_intervals_unchanged_by_the_binned_refits(monkeypatch):
    y, p = _data(15_000, seed=6)
    kw = {"cov_type": "bootstrap", "n_resamples": 30, "random_state": 2}
    a = calibration_report(y, p, **kw)
    monkeypatch.setattr(
        logistic_refit.BinnedRefits, "build", classmethod(lambda *a, **k: None)
    )
    b = calibration_report(y, p, **kw)
    for m in (
        "calibration_in_the_large",
        "calibration_intercept",
        "calibration_slope",
        "observed_expected",
    ):
        lo_a, hi_a = a.confidence_interval(metric=m)
        lo_b, hi_b = b.confidence_interval(metric=m)
        assert lo_a == pytest.approx(lo_b, rel=1e-10) and hi_a == pytest.approx(
            hi_b, rel=1e-10
        ), m


# --------------------------------------------------------------------------
# unweighted reports draw each resample once: the logistic calibration is
# refitted on the resamples of the Brier metrics' bootstrap
# --------------------------------------------------------------------------


def _brier_resample_counts(n, n_resamples, seed, scheme, block_length):
    """The counts of every resample that brier_inference's bootstrap draws."""
    from skbrier.stats.bootstrap import bootstrap_distribution

    def total(*cols, axis=-1):
        return np.sum(cols[-1], axis=axis)[None]

    dist = bootstrap_distribution(
        [np.zeros(n)],
        total,
        scheme=scheme,
        block_length=block_length,
        n_resamples=n_resamples,
        random_state=seed,
        n_jobs=None,
        counts_statistic=total,
        companion=lambda counts: counts,
    )
    return dist[1:].T  # (n_resamples, n)


@pytest.mark.filterwarnings("ignore:.*left out of the logistic calibration")
@pytest.mark.parametrize("scheme", ["iid", "moving_block"])
def test_unweighted_report_refits_on_the_brier_resamples(scheme):
    from skbrier._core.resampling import interval_from_replicates
    from skbrier.metrics import calibration_intercept_slope
    from skbrier.stats import brier_inference

    y, p = _data(3_000, seed=8, extremes=True)
    kw = {"cov_type": "bootstrap", "random_state": 7}
    inf_kw = {"bootstrap": scheme, "block_length": 4} if scheme != "iid" else {}
    rep = calibration_report(y, p, n_resamples=60, inference_kwds=inf_kw, **kw)
    counts = _brier_resample_counts(3_000, 60, 7, scheme, 4.0)
    assert (counts.sum(axis=1) == 3_000).all()
    # the Brier rows are brier_inference's own, as before
    inf = brier_inference(y, p, n_resamples=60, **inf_kw, **kw)
    assert rep.confidence_interval(metric="brier_index") == pytest.approx(
        tuple(inf.confidence_interval(metric="brier_index"))
    )
    # the logistic rows are refits with the same resamples as frequency weights
    fits = [calibration_intercept_slope(y, p, sample_weight=c) for c in counts]
    for metric, field in (
        ("calibration_intercept", "intercept"),
        ("calibration_slope", "slope"),
    ):
        want = interval_from_replicates(np.array([getattr(f, field) for f in fits]), 0.95)
        got = rep.confidence_interval(metric=metric)
        assert got == pytest.approx(tuple(want), rel=1e-9), metric
    oe = [np.dot(c, y) / np.dot(c, p) for c in counts]
    want = interval_from_replicates(np.array(oe), 0.95)
    assert rep.confidence_interval(metric="observed_expected") == pytest.approx(
        tuple(want), rel=1e-12
    )


@pytest.mark.parametrize("n_jobs", [None, 2])
def test_weighted_report_bootstrap_is_that_of_the_repeated_rows(n_jobs):
    # frequency weights: integer weights draw as their repeated rows, the
    # logistic refits included (they ride on the Brier score's resamples)
    y, p = _data(1_500, seed=9, extremes=True)
    w = np.random.default_rng(2).integers(0, 4, y.shape[0])
    kw = {"cov_type": "bootstrap", "n_resamples": 40, "random_state": 1, "n_jobs": n_jobs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = calibration_report(y, p, sample_weight=w.astype(float), **kw)
        b = calibration_report(np.repeat(y, w), np.repeat(p, w), **kw)
    for metric in (
        "brier_index",
        "calibration_in_the_large",
        "calibration_intercept",
        "calibration_slope",
        "observed_expected",
    ):
        got, want = (
            a.confidence_interval(metric=metric),
            b.confidence_interval(metric=metric),
        )
        assert got == pytest.approx(tuple(want), rel=1e-9), metric


@pytest.mark.parametrize("scheme", ["iid", "moving_block"])
def test_weighted_report_refits_with_the_rows_frequency_weights(scheme):
    # non-integer weights: each resample's multinomial counts of the rows
    # (iid), or the blocks' rows with their weights (moving block)
    from skbrier._core.resampling import interval_from_replicates, rows_of_resamples
    from skbrier.metrics import calibration_intercept_slope
    from skbrier.stats.bootstrap import prepare_frequency_weights

    y, p = _data(1_200, seed=4)
    w = np.random.default_rng(5).uniform(0.0, 2.0, y.shape[0])
    w[:30] = 0.0
    inf_kw = {} if scheme == "iid" else {"bootstrap": scheme, "block_length": 4}
    rep = calibration_report(
        y,
        p,
        sample_weight=w,
        cov_type="bootstrap",
        n_resamples=30,
        random_state=3,
        inference_kwds=inf_kw,
    )
    keep = w > 0 if scheme == "iid" else slice(None)
    data, weighted, draws = prepare_frequency_weights(
        [y[keep]], w[keep], scheme, "percentile"
    )
    counts = _counts_of(data, weighted, draws, scheme, 30, 3)
    rows = rows_of_resamples(lambda c: c, w, scheme, data[0].shape[0])(counts)
    fits = [calibration_intercept_slope(y, p, sample_weight=r) for r in rows]
    want = interval_from_replicates(np.array([f.slope for f in fits]), 0.95)
    got = rep.confidence_interval(metric="calibration_slope")
    assert got == pytest.approx(tuple(want), rel=1e-9)


def _counts_of(data, weighted, draws, scheme, n_resamples, seed):
    """The counts of the rows of ``data`` in each resample of brier_inference's
    bootstrap (block_length 4)."""
    from skbrier.stats.bootstrap import bootstrap_distribution

    def stat(*cols, axis=-1):
        return np.sum(cols[0], axis=axis)[None]

    dist = bootstrap_distribution(
        data,
        stat,
        scheme=scheme,
        block_length=4.0,
        n_resamples=n_resamples,
        random_state=seed,
        n_jobs=None,
        draws=draws,
        counts_statistic=None if weighted else stat,
        companion=lambda counts: counts,
    )
    return dist[1:].T
