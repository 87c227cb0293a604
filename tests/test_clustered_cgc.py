"""clustered_calibration_curve(approach="CGC") against CalibrationCurves'
valProbCluster(approach = "CGC") (R; fixture made by
tests/fixtures/make_cgc_fixtures.R).  Most groups' between-centre
correlation lies on the boundary (+-1), where the package's nlminb stops at
rel.tol = 1e-6: the pooled points agree to about 1e-4, the prediction
limits (through the between-centre variances) to about 5e-4."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pandas as pd
import pytest

from skbrier.stats import clustered_calibration_curve
from skbrier.stats._cgc import ntile

FIX = pathlib.Path(__file__).parent / "fixtures" / "clustered_calibration"
REF = json.loads((FIX / "cgc_reference.json").read_text())
IDS = [f"{c['name']}-{c['cl_level']}-{c['ntiles']}" for c in REF]


@pytest.mark.parametrize("case", REF, ids=IDS)
def test_equals_valprobcluster_cgc(case):
    d = pd.read_csv(FIX / f"{case['name']}.csv")
    res = clustered_calibration_curve(
        d["y"], d["p"], groups=d["cluster"].astype(str), approach="CGC",
        n_bins=case["ntiles"], confidence_level=case["cl_level"],
    )  # fmt: skip
    cur = case["curve"]
    assert res.approach == "CGC"
    np.testing.assert_allclose(res.grid, cur["te_x"], atol=1e-4)
    x_bands = ["ci_low_x", "ci_up_x", "pre_low_x", "pre_up_x"]
    assert res.grid_intervals is not None
    np.testing.assert_allclose(res.grid_intervals, [cur[b] for b in x_bands], atol=1e-4)
    bands = ["estimate", "lower", "upper", "prediction_lower", "prediction_upper"]
    for ours, theirs in zip(
        bands, ["te_y", "ci_low_y", "ci_up_y", "pre_low_y", "pre_up_y"]
    ):
        tol = 5e-4 if ours.startswith("prediction") else 2e-4  # tau^2 on the boundary
        np.testing.assert_allclose(
            getattr(res, ours), cur[theirs], atol=tol, err_msg=theirs
        )
    cl = case["clusters"]
    order = {c: i for i, c in enumerate(res.clusters.tolist())}
    for c, g, ym in zip(cl["cluster"], cl["group"], cl["y_mean"]):
        assert res.cluster_estimate[order[c], g - 1] == pytest.approx(ym, rel=1e-12)


def test_ntile_is_dplyrs():
    # dplyr::ntile(c(5, 1, 3, 3, 9, 2, 7), 3) is 2 1 1 2 3 1 3 (ties by position)
    assert ntile(np.array([5.0, 1, 3, 3, 9, 2, 7]), 3).tolist() == [2, 1, 1, 2, 3, 1, 3]
    assert ntile(np.arange(10.0), 4).tolist() == [1, 1, 1, 2, 2, 2, 3, 3, 4, 4]


def test_cgc_errors():
    d = pd.read_csv(FIX / "simulated.csv")
    kw = {"groups": d["cluster"].astype(str), "approach": "CGC"}
    with pytest.raises(ValueError, match="n_bins"):
        clustered_calibration_curve(d["y"], d["p"], n_bins=3, **kw)
    with pytest.raises(ValueError, match="sample_weight"):
        clustered_calibration_curve(d["y"], d["p"], sample_weight=np.ones(len(d)), **kw)
