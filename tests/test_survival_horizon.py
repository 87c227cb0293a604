"""Calibration and decision curves at a horizon against lifelines and dcurves."""

import json
from pathlib import Path

import numpy as np
import pytest

from skbrier.survival import calibration_at_horizon, decision_curve_survival

CASES = json.loads(
    (
        Path(__file__).parent / "fixtures" / "survival" / "riskregression_fixtures.json"
    ).read_text()
)


def _case(k):
    c = CASES[k]
    return (
        np.array(c["status"]),
        np.array(c["time"], float),
        np.array(c["times"], float),
        np.array(c["surv_A"]),
    )


@pytest.mark.parametrize("k", [0, 2])
def test_decision_curve_matches_dcurves(k):
    dcurves = pytest.importorskip("dcurves")
    pd = pytest.importorskip("pandas")
    event, time, times, surv = _case(k)
    t = float(times[1])
    risk = 1 - surv[:, 1]
    df = pd.DataFrame({"ttcancer": time, "cancer": event, "m": risk})
    thr = np.round(np.arange(0.05, 0.95, 0.05), 2)
    ref = dcurves.dca(
        data=df,
        outcome="cancer",
        modelnames=["m"],
        thresholds=thr,
        time=t,
        time_to_outcome_col="ttcancer",
    )
    res = decision_curve_survival(event, time, surv[:, 1], t, thresholds=thr)
    got_m = ref[ref.model == "m"].net_benefit.to_numpy(dtype=float)
    got_all = ref[ref.model == "all"].net_benefit.to_numpy(dtype=float)
    np.testing.assert_allclose(res.net_benefit, got_m, rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.treat_all, got_all, rtol=0, atol=1e-10)


def test_calibration_matches_lifelines_within_bins():
    lifelines = pytest.importorskip("lifelines")
    event, time, times, surv = _case(1)
    t = float(times[2])
    res = calibration_at_horizon(event, time, surv[:, 2], t, n_bins=5, strategy="quantile")
    risk = 1 - surv[:, 2]
    edges = res.edges
    bins = np.searchsorted(edges[1:-1], risk, side="left")
    for b in range(5):
        m = bins == b
        km = lifelines.KaplanMeierFitter().fit(time[m], event[m])
        obs = 1 - float(km.survival_function_at_times(t).iloc[0])
        assert res.observed[b] == pytest.approx(obs, abs=1e-12)
        assert res.predicted[b] == pytest.approx(risk[m].mean(), abs=1e-12)
        assert res.bin_weight[b] == m.sum()


def test_calibration_weights_equal_repeats():
    event, time, times, surv = _case(2)
    w = np.arange(len(event)) % 3
    a = calibration_at_horizon(
        event,
        time,
        surv[:, 1],
        float(times[1]),
        n_bins=4,
        strategy="uniform",
        sample_weight=w,
    )
    r = np.repeat(np.arange(len(event)), w)
    b = calibration_at_horizon(
        event[r], time[r], surv[r, 1], float(times[1]), n_bins=4, strategy="uniform"
    )
    np.testing.assert_allclose(a.observed, b.observed, atol=1e-12)
    np.testing.assert_allclose(a.predicted, b.predicted, atol=1e-12)
