"""skbrier's CORP decomposition and consistency band against R reliabilitydiag.

The fixture ``tests/fixtures/reliabilitydiag_fixtures.json`` is written by
``tests/fixtures/make_reliabilitydiag_fixtures.R`` with the R package
reliabilitydiag (Dimitriadis, Gneiting & Jordan 2021):

* ``decomposition``: ``summary(reliabilitydiag(x, y = y))`` (mean score,
  MCB, DSC, UNC of the Brier score) and the PAV recalibration at each
  distinct forecast, for small, tied and degenerate data sets;
* ``bands``: the consistency band of ``region.method = "resampling"``,
  ``region.position = "diagonal"`` at the distinct forecasts together with
  every resample reliabilitydiag drew (the R script checks that these
  resamples reproduce reliabilitydiag's band exactly), so the band kernel
  can be fed the very same resamples.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from skbrier.metrics.decomposition import corp_decomposition

FIXTURE = Path(__file__).parent / "fixtures" / "reliabilitydiag_fixtures.json"
DATA = json.loads(FIXTURE.read_text())
DECOMPOSITION = {case["name"]: case for case in DATA["decomposition"]}
BANDS = {case["name"]: case for case in DATA["bands"]}
ATOL = 1e-12


def _floats(values) -> np.ndarray:
    """JSON list (null for NA) -> float array (NaN for NA)."""
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def _assert_components(result, case) -> None:
    assert result.brier_score == pytest.approx(case["mean_score"], abs=ATOL, rel=0)
    assert result.miscalibration == pytest.approx(case["miscalibration"], abs=ATOL, rel=0)
    assert result.discrimination == pytest.approx(case["discrimination"], abs=ATOL, rel=0)
    assert result.uncertainty == pytest.approx(case["uncertainty"], abs=ATOL, rel=0)
    np.testing.assert_allclose(
        result.forecast_values, _floats(case["forecast_values"]), rtol=0, atol=ATOL
    )
    np.testing.assert_allclose(
        result.recalibrated_values, _floats(case["recalibrated_values"]), rtol=0, atol=ATOL
    )


def test_fixture_metadata():
    meta = DATA["meta"]
    assert meta["generated_by"] == "tests/fixtures/make_reliabilitydiag_fixtures.R"
    assert DECOMPOSITION and BANDS


@pytest.mark.parametrize("name", sorted(DECOMPOSITION))
def test_corp_decomposition_equals_reliabilitydiag(name):
    case = DECOMPOSITION[name]
    y = np.array(case["y"], dtype=int)
    p = _floats(case["x"])
    result = corp_decomposition(y, p)
    _assert_components(result, case)
    assert result.miscalibration - result.discrimination + result.uncertainty == (
        pytest.approx(case["mean_score"], abs=ATOL, rel=0)
    )


@pytest.mark.parametrize("name", sorted(DECOMPOSITION))
def test_corp_decomposition_frequency_weights_equal_reliabilitydiag(name):
    """Distinct (forecast, outcome) rows weighted by their counts, plus rows of
    zero weight, give reliabilitydiag's values on the repeated rows."""
    case = DECOMPOSITION[name]
    y = np.array(case["y"], dtype=int)
    p = _floats(case["x"])
    rows, counts = np.unique(np.column_stack([p, y]), axis=0, return_counts=True)
    p_w = np.concatenate([rows[:, 0], [0.5, 0.05]])
    y_w = np.concatenate([rows[:, 1].astype(int), [1, 0]])
    w = np.concatenate([counts.astype(float), [0.0, 0.0]])
    result = corp_decomposition(y_w, p_w, sample_weight=w)
    _assert_components(result, case)


def _band_kernel():
    try:
        from skbrier._core.kernels.decomposition import consistency_band_from_resamples
    except ImportError as exc:  # the kernel lands with the h-dec branch
        pytest.skip(f"consistency_band_from_resamples not available: {exc}")
    return consistency_band_from_resamples


@pytest.mark.parametrize("name", sorted(BANDS))
def test_consistency_band_equals_reliabilitydiag(name):
    kernel = _band_kernel()
    case = BANDS[name]
    x = _floats(case["forecast_values"])
    resampled_x = [x[np.array(idx, dtype=np.intp)] for idx in case["resampled_x_index"]]
    resampled_y = [np.array(yb, dtype=float) for yb in case["resampled_y"]]
    assert len(resampled_x) == len(resampled_y) == case["n_boot"]
    lower, upper = kernel(
        x, resampled_x, resampled_y, confidence_level=case["confidence_level"]
    )
    np.testing.assert_allclose(
        np.asarray(lower, dtype=float), _floats(case["lower"]), rtol=0, atol=ATOL
    )
    np.testing.assert_allclose(
        np.asarray(upper, dtype=float), _floats(case["upper"]), rtol=0, atol=ATOL
    )


def test_band_fixture_covers_the_edge_cases():
    """The fixture pins the cases where carrying a neighbour and interpolating
    differ: forecasts 0 and 1 (band [1, 1] at forecast 1), a single distinct
    forecast, and forecasts that no resample covers (NaN)."""
    at_one = BANDS["forecasts_0_and_1"]
    assert at_one["forecast_values"][-1] == 1.0
    assert at_one["lower"][-1] == at_one["upper"][-1] == 1.0
    assert len(BANDS["all_equal_forecasts"]["forecast_values"]) == 1
    sparse = BANDS["n10_three_resamples_level50"]
    assert sparse["lower"][-1] is None and sparse["upper"][-1] is None
