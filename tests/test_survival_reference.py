"""skbrier.survival against R riskRegression (Score) and pec, fixtures made by
tests/fixtures/survival/make_riskregression_fixtures.R."""

import json
from pathlib import Path

import numpy as np
import pytest

from skbrier.survival import (
    brier_score_survival,
    compare_brier_survival,
    index_of_prediction_accuracy,
    integrated_brier_score,
)

FIX = Path(__file__).parent / "fixtures" / "survival"
CASES = json.loads((FIX / "riskregression_fixtures.json").read_text())
IDS = [c["name"] for c in CASES]


def _data(case):
    return (
        np.array(case["status"]),
        np.array(case["time"], dtype=float),
        np.array(case["times"], dtype=float),
    )


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("model", ["A", "B"])
def test_brier_ipa_and_se_match_riskregression(case, model):
    event, time, times = _data(case)
    surv = np.array(case[f"surv_{model}"])
    res = index_of_prediction_accuracy(event, time, surv, times)
    np.testing.assert_allclose(res.brier, case["brier"][model], rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.brier_null, case["brier"]["null"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.ipa, case["ipa"][model], rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.se_brier, case["se"][model], rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.se_brier_null, case["se"]["null"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.se_ipa, case["ipa_se"][model], rtol=0, atol=1e-10)
    lo, hi = res.confidence_interval(0.95, metric="brier_score")
    np.testing.assert_allclose(lo, case["lower"][model], rtol=0, atol=1e-10)
    np.testing.assert_allclose(hi, case["upper"][model], rtol=0, atol=1e-10)
    cons = index_of_prediction_accuracy(event, time, surv, times, conservative=True)
    np.testing.assert_allclose(
        cons.se_brier, case["se_conservative"][model], rtol=0, atol=1e-10
    )
    bs = brier_score_survival(event, time, surv, times)
    np.testing.assert_allclose(bs, case["brier"][model], rtol=0, atol=1e-10)
    # pec::pec (exact = FALSE, cens.model = "marginal") gives the same numbers
    np.testing.assert_allclose(bs, case["pec"][model], rtol=0, atol=1e-10)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_paired_comparison_matches_riskregression_contrasts(case):
    event, time, times = _data(case)
    a, b = np.array(case["surv_A"]), np.array(case["surv_B"])
    res = compare_brier_survival(event, time, a, b, times)
    ref = case["contrast_B_minus_A"]
    # skbrier's difference is first minus second (A - B), as compare_brier;
    # riskRegression's delta.Brier of B against reference A is B - A
    np.testing.assert_allclose(res.difference, -np.array(ref["delta"]), rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.se, ref["se"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(res.p_value, ref["p"], rtol=1e-8, atol=1e-12)
    # against the null model (a constant survival matrix)
    null = np.tile(1 - np.array(case["km_at_times"]), (len(event), 1))
    res0 = compare_brier_survival(event, time, 1 - null, a, times)
    ref0 = case["contrast_A_minus_null"]
    np.testing.assert_allclose(
        res0.difference, -np.array(ref0["delta"]), rtol=0, atol=1e-10
    )
    np.testing.assert_allclose(res0.se, ref0["se"], rtol=0, atol=1e-10)


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("model", ["A", "B"])
def test_ibs_and_integrated_ipa_match_riskregression(case, model):
    event, time, times = _data(case)
    surv = np.array(case[f"surv_{model}"])
    ref, null = case["ibs"][model], case["ibs"]["null"]
    # riskRegression's running IBS at times[k] is the step integral from 0 up to
    # times[k]: the default convention="riskRegression"
    for k in range(1, len(times)):
        ibs = integrated_brier_score(event, time, surv[:, : k + 1], times[: k + 1])
        assert ibs == pytest.approx(ref[k], rel=0, abs=1e-10)
        res = index_of_prediction_accuracy(event, time, surv[:, : k + 1], times[: k + 1])
        assert res.ibs == pytest.approx(ref[k], rel=0, abs=1e-10)
        assert res.ibs_null == pytest.approx(null[k], rel=0, abs=1e-10)
        # IPA integrated: 1 - IBS / IBS of riskRegression's "Null model"
        assert res.integrated_ipa == pytest.approx(1 - ref[k] / null[k], rel=0, abs=1e-10)
        assert res.time_range == (0.0, times[k])


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("model", ["A", "B"])
def test_integrated_standard_errors_match_riskregression_vcov(case, model):
    # the fixture's SEs are sqrt(a' V a) (and the delta method for the IPA) from
    # Score's vcov of the Brier scores across horizons
    event, time, times = _data(case)
    surv = np.array(case[f"surv_{model}"])
    ref = case["integrated"][model]
    res = index_of_prediction_accuracy(event, time, surv, times)
    for field, key in [
        ("ibs", "ibs"),
        ("ibs_null", "ibs_null"),
        ("integrated_ipa", "ipa"),
        ("se_ibs", "se_ibs"),
        ("se_ibs_null", "se_ibs_null"),
        ("se_integrated_ipa", "se_ipa"),
    ]:
        assert getattr(res, field) == pytest.approx(ref[key], rel=0, abs=1e-10), field
