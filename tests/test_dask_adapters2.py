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
    assert sorted({str(r.message)[:60] for r in rec_got}) == sorted(
        {str(r.message)[:60] for r in rec_exp}
    )
