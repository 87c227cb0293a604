"""Faults found by fuzzing the backends' boundary (Dask, Array API, the table
engines, the mergeable states) against the in-memory numpy result: each test
is a reproducer that failed before its fix."""

import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")


@pytest.fixture
def sync():
    with dask.config.set(scheduler="sync"):
        yield


def test_platt_float32_forecasts_of_one_dask_equals_numpy(sync):
    # the dask adapter clipped float32 forecasts at 1 - 1e-12 in float32,
    # where it is 1: a forecast of 1 kept an infinite log-odds in the fit
    # (coef 0.45795 against 0.45815 in memory, 1-bin ECE 9.7e-7 against 0)
    from skbrier.metrics.recalibration import platt_calibration_error

    p = np.array([0.8, 0.8, 0.5, 0.3, 0.1, 0.4, 0.4, 0, 0, 1, 0.7, 0.2, 0.4], np.float32)
    y = np.array([0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0], bool)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = platt_calibration_error(y, p)
        got = platt_calibration_error(da.from_array(y, chunks=4), da.from_array(p, chunks=4))
    for name in ("coef", "intercept", "calibration_error", "calibration_error_before"):
        assert getattr(got, name) == pytest.approx(getattr(expected, name), rel=1e-12)
    assert got.calibration_error_1_bin == pytest.approx(0.0, abs=1e-15)
