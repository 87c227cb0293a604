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
    assert not any("variance of its interval is DeLong's on a uniform" in n for n in got.notes)
