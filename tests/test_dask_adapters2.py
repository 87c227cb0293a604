"""Dask adapters of platt_calibration_error and compare_forecasts, and the
Dask report's DeLong interval of C: each equals the in-memory function on the
same rows (several partitionings, weights, an empty partition, labels as bool
or strings with pos_label)."""

import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

from skbrier._backends._dask import _report  # noqa: E402
from skbrier.report import calibration_report  # noqa: E402

# forecasts of exactly 0 or 1 among the rows (ties rounded to 0.0 and 1.0)
pytestmark = pytest.mark.filterwarnings("ignore:.*left out of the logistic:UserWarning")


@pytest.fixture(autouse=True)
def sync():
    with dask.config.set(scheduler="sync"):
        yield


CUTS = [(400,), (37, 0, 150, 1, 0, 212), (100, 100, 100, 100)]


# ----------------------------------------------------------------- item 3: report
def _light_data(seed=0, n=400):
    """Most rows weigh 1e-3; 12 rows weigh 10: a small subsample's total
    weight is under 3, the whole data's is not."""
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(n), 3)
    y = (rng.random(n) < p).astype(int)
    w = np.full(n, 1e-3)
    heavy = np.arange(0, n, n // 12)[:12]
    w[heavy] = 10.0
    y[heavy[:6]], y[heavy[6:]] = 1, 0
    return y, p, w


@pytest.mark.parametrize("cuts", CUTS[1:])
def test_report_delong_interval_of_the_whole_data(cuts, monkeypatch):
    """The subsample's total weight under 3 (DeLong's variance undefined
    there) but the whole data's not: the interval of C is the in-memory one,
    DeLong's variance of all rows (from the table of distinct forecasts)."""
    monkeypatch.setattr(_report, "SUBSAMPLE_SIZE", 20)
    y, p, w = _light_data()
    dy, dp, dw = (da.from_array(a, chunks=(cuts,)) for a in (y, p, w))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = calibration_report(y, p, sample_weight=w, random_state=0)
        got = calibration_report(dy, dp, sample_weight=dw, random_state=0)
    sub_w = got._data[2].sum()
    assert sub_w < 3 <= w.sum()
    ci = exp.confidence_interval(metric="c_statistic")
    assert ci is not None
    np.testing.assert_allclose(
        tuple(got.confidence_interval(metric="c_statistic")), tuple(ci), rtol=1e-12
    )
    assert not any(
        "variance of its interval is DeLong's on a uniform" in n for n in got.notes
    )


# ----------------------------------------------------------------- data of items 1, 2
def _data(seed=0, n=400, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    p[:40] = np.round(p[:40], 1)  # ties
    q = np.clip(p + rng.normal(0, 0.15, n), 0.01, 0.99)
    y01 = rng.random(n) < p
    y = np.where(y01, labels[1], labels[0])
    w = rng.integers(0, 4, n).astype(float)
    return y, p, q, w


def _dask(a, cuts):
    return da.from_array(a, chunks=(cuts,))


LABELS = [((0, 1), None), ((False, True), None), (("no", "yes"), "yes")]


# ----------------------------------------------------------------- item 2: compare
def _assert_tables(got, exp):
    a, b = got.to_frame(), exp.to_frame()
    assert list(a.columns) == list(b.columns) and list(a.index) == list(b.index)
    np.testing.assert_allclose(a.to_numpy(float), b.to_numpy(float), rtol=1e-10, atol=1e-13)
    assert got.n == exp.n and got.n_rows == exp.n_rows


@pytest.mark.parametrize("cuts", CUTS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("labels,pos_label", LABELS)
def test_compare_forecasts_equals_in_memory(cuts, weighted, labels, pos_label):
    from skbrier import compare_forecasts

    y, p, q, w = _data(labels=labels)
    sw = w if weighted else None
    kw = {"sample_weight": sw, "pos_label": pos_label}
    exp = compare_forecasts(y, {"a": p, "b": q}, **kw)
    dkw = {"sample_weight": None if sw is None else _dask(sw, cuts), "pos_label": pos_label}
    got = compare_forecasts(
        _dask(y, cuts), {"a": _dask(p, cuts), "b": _dask(q, cuts)}, **dkw
    )
    _assert_tables(got, exp)


def test_compare_forecasts_dataframe_one_pass_per_forecast():
    from skbrier import compare_forecasts
    from skbrier._backends._dask._graph import stats

    y, p, q, w = _data()
    df = pd.DataFrame({"y": y, "a": p, "b": q, "w": w})
    ddf = dd.from_pandas(df, npartitions=3)
    exp = compare_forecasts(df["y"], df[["a", "b"]], sample_weight=df["w"])
    before = dict(stats)
    got = compare_forecasts(ddf["y"], ddf[["a", "b"]], sample_weight=ddf["w"])
    _assert_tables(got, exp)
    # one pass per forecast: the moments, the table of C and CORP and the
    # counts of the logistic fit read together (the fit's Newton steps apart)
    assert stats["passes"] - before["passes"] == 2


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"cov_type": "hac"}, "cov_type='hac'.*brier_score.*in time order"),
        ({"cov_type": "bootstrap"}, "cov_type='bootstrap'.*resample"),
        ({"n_resamples": 10}, "n_resamples.*miscalibration and discrimination"),
    ],
)
def test_compare_forecasts_refusals_name_the_columns(kw, match):
    from skbrier import compare_forecasts

    y, p, q, _ = _data()
    with pytest.raises(ValueError, match=match):
        compare_forecasts(_dask(y, CUTS[1]), {"a": _dask(p, CUTS[1])}, **kw)


def test_compare_forecasts_hard_forecast_column():
    """A 0/1 forecast: the logistic columns NaN with the in-memory warning."""
    from skbrier import compare_forecasts

    y, p, _, _ = _data()
    hard = (p > 0.5).astype(float)
    with warnings.catch_warnings(record=True) as rec_exp:
        warnings.simplefilter("always")
        exp = compare_forecasts(y, {"a": p, "h": hard})
    with warnings.catch_warnings(record=True) as rec_got:
        warnings.simplefilter("always")
        got = compare_forecasts(
            _dask(y, CUTS[1]), {"a": _dask(p, CUTS[1]), "h": _dask(hard, CUTS[1])}
        )
    _assert_tables(got, exp)
    # each warning once, as in memory
    assert sorted(str(r.message)[:60] for r in rec_got) == sorted(
        str(r.message)[:60] for r in rec_exp
    )


# ----------------------------------------------------------------- item 1: Platt
def _platt_cmp(got, exp):
    for f in ("coef", "intercept"):
        a, b = getattr(got, f), getattr(exp, f)
        if np.isnan(b):
            assert np.isnan(a), f
        else:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, err_msg=f)
    for f in ("calibration_error", "calibration_error_1_bin", "calibration_error_before"):
        np.testing.assert_allclose(getattr(got, f), getattr(exp, f), rtol=1e-10, atol=1e-14)
    assert got.n_bins == exp.n_bins


@pytest.mark.parametrize("cuts", CUTS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("binning", ["helm", None])
@pytest.mark.parametrize("labels,pos_label", LABELS)
def test_platt_equals_in_memory(cuts, weighted, binning, labels, pos_label):
    from skbrier.metrics import platt_calibration_error

    y, p, _, w = _data(labels=labels)
    sw = w if weighted else None
    kw = {"binning": binning, "pos_label": pos_label, "n_bins": 10}
    exp = platt_calibration_error(y, p, sample_weight=sw, **kw)
    dw = None if sw is None else _dask(sw, cuts)
    got = platt_calibration_error(_dask(y, cuts), _dask(p, cuts), sample_weight=dw, **kw)
    _platt_cmp(got, exp)


def test_platt_dataframe_columns_and_fractional_weights():
    from skbrier.metrics import platt_calibration_error

    y, p, _, w = _data(n=600)
    w = w * 0.37 + 0.01
    df = pd.DataFrame({"y": y.astype(bool), "p": p, "w": w})
    exp = platt_calibration_error(df["y"], df["p"], sample_weight=df["w"], pos_label=True)
    ddf = dd.from_pandas(df, npartitions=5)
    got = platt_calibration_error(
        ddf["y"], ddf["p"], sample_weight=ddf["w"], pos_label=True
    )
    _platt_cmp(got, exp)


@pytest.mark.parametrize("weighted", [False, True])
def test_platt_separated_and_single_class(weighted):
    """Confidences that separate the outcomes (the fit's limit, with its
    ConvergenceWarning) and a single class (NaN coefficients)."""
    from skbrier.metrics import platt_calibration_error

    rng = np.random.default_rng(3)
    p = np.round(rng.random(300), 2)
    y = (p > 0.5).astype(int)
    y[p == 0.5] = [1, 0, 1, 1][: int((p == 0.5).sum())] if (p == 0.5).sum() <= 4 else 1
    w = rng.integers(1, 4, 300).astype(float) if weighted else None
    cuts = (100, 0, 200)
    dw = None if w is None else _dask(w, cuts)
    for yy in (y, np.ones(300, int)):
        with warnings.catch_warnings(record=True) as rec_exp:
            warnings.simplefilter("always")
            exp = platt_calibration_error(yy, p, sample_weight=w)
        with warnings.catch_warnings(record=True) as rec_got:
            warnings.simplefilter("always")
            got = platt_calibration_error(_dask(yy, cuts), _dask(p, cuts), sample_weight=dw)
        _platt_cmp(got, exp)
        assert sorted(type(r.message).__name__ for r in rec_got) == sorted(
            type(r.message).__name__ for r in rec_exp
        )


def test_platt_refusals():
    from skbrier.metrics import platt_calibration_error

    y, p, _, w = _data()
    dy, dp = _dask(y, CUTS[1]), _dask(p, CUTS[1])
    with pytest.raises(ValueError, match="solver='helm' is not available for dask.*lbfgs"):
        platt_calibration_error(dy, dp, solver="helm")
    with pytest.raises(ValueError, match="solver"):
        platt_calibration_error(dy, dp, solver="newton")
    with pytest.raises(ValueError, match="1-D"):
        platt_calibration_error(dy, da.stack([1 - dp, dp], axis=1))
    with pytest.raises(ValueError, match="less than one observation"):
        platt_calibration_error(dy, dp, sample_weight=_dask(w * 1e-4, CUTS[1]))
    bad = p.copy()
    bad[200] = np.nan
    with pytest.raises(ValueError, match="NaN.*within one partition"):
        platt_calibration_error(dy, _dask(bad, CUTS[1]))


@pytest.mark.parametrize("n_bins", [1, 3, 10, 25])
@pytest.mark.parametrize("weights", ["none", "integer", "fractional"])
def test_helm_bins_equal_in_memory(n_bins, weights, monkeypatch):
    """calibration_error(binning="helm") on dask: the exact equal-mass edges
    (the selection narrowed to small ranges, COLLECT=8, and collected at once)."""
    from skbrier._backends._dask import _select
    from skbrier.metrics import calibration_error

    y, p, _, w = _data(n=500)
    sw = {"none": None, "integer": w, "fractional": w * 0.3 + 0.05}[weights]
    cuts = (100, 0, 150, 250)
    for collect in (8, 10**6):
        monkeypatch.setattr(_select, "COLLECT", collect)
        for norm, debias in (("l1", False), ("l2", True)):
            kw = {"binning": "helm", "n_bins": n_bins, "norm": norm, "debias": debias}
            exp = calibration_error(y, p, sample_weight=sw, **kw)
            dw = None if sw is None else _dask(sw, cuts)
            got = calibration_error(_dask(y, cuts), _dask(p, cuts), sample_weight=dw, **kw)
            np.testing.assert_allclose(got, exp, rtol=1e-12, atol=1e-15)


def test_equal_mass_edges_of_ties_and_extremes():
    """Forecasts of 0 and 1, heavy ties and one distinct value."""
    from skbrier._backends._dask._select import equal_mass_edges_of
    from skbrier._core.kernels.calibration_error import kumar_equal_mass_edges

    rng = np.random.default_rng(1)
    for p in (
        rng.choice([0.0, 0.2, 0.2000000000000001, 1.0], 300),
        np.full(300, 0.3),
        np.r_[np.zeros(150), np.ones(150)],
    ):
        for w in (None, rng.integers(0, 3, 300).astype(float)):
            exp = kumar_equal_mass_edges(p, w, 10)
            dw = None if w is None else _dask(w, (50, 250))
            dy = _dask(np.zeros(300), (50, 250))
            got = equal_mass_edges_of(dy, _dask(p, (50, 250)), dw, 10)
            np.testing.assert_array_equal(got, exp)


def test_helm_refused_for_two_columns():
    from skbrier.metrics import calibration_error

    y, p, _, _ = _data()
    dp = da.from_array(np.c_[1 - p, p], chunks=(100, 2))
    with pytest.raises(
        ValueError, match="binning='helm' is available for dask input with 1-D"
    ):
        calibration_error(_dask(y, (400,)), dp, binning="helm", kind="top_label")


def test_platt_threads_and_unknown_chunk_sizes():
    """The threaded scheduler, and arrays of unknown chunk sizes
    (``.to_dask_array()``): the selection decides to persist after its
    first pass."""
    from skbrier.metrics import platt_calibration_error

    y, p, _, w = _data(n=500)
    exp = platt_calibration_error(y, p, sample_weight=w)
    ddf = dd.from_pandas(pd.DataFrame({"y": y, "p": p, "w": w}), npartitions=4)
    cols = [ddf[c].to_dask_array() for c in ("y", "p", "w")]
    assert np.isnan(cols[1].shape[0])
    with dask.config.set(scheduler="threads"):
        got = platt_calibration_error(cols[0], cols[1], sample_weight=cols[2])
    _platt_cmp(got, exp)
