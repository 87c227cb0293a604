"""clustered_calibration_curve against CalibrationCurves' valProbCluster (R).

Fixtures: tests/fixtures/make_clustered_calibration_fixtures.R.
"""

from __future__ import annotations

import json
import pathlib
import warnings

import numpy as np
import pandas as pd
import pytest

from skbrier.stats import ClusteredCalibrationCurve, clustered_calibration_curve

FIX = pathlib.Path(__file__).parent / "fixtures" / "clustered_calibration"
CASES = {
    c["name"]: c for c in json.loads((FIX / "valprobcluster_reference.json").read_text())
}
LOG_CASES = json.loads((FIX / "mac2_log_reference.json").read_text())


def _data(name: str) -> pd.DataFrame:
    return pd.read_csv(FIX / f"{name}.csv")


@pytest.mark.parametrize("name", sorted(CASES))
def test_equals_valprobcluster_default(name):
    ref = CASES[name]
    d = _data(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = clustered_calibration_curve(
            d["y"],
            d["p"],
            groups=d["cluster"].astype(str),
            confidence_level=ref["cl_level"],
        )
    np.testing.assert_allclose(res.grid, ref["grid"], rtol=1e-14)
    cur = ref["curve"]
    np.testing.assert_allclose(res.grid, cur["x"], rtol=1e-14)
    for ours, theirs in [
        (res.estimate, "y"),
        (res.lower, "lower"),
        (res.upper, "upper"),
        (res.prediction_lower, "low_pre"),
        (res.prediction_upper, "up_pre"),
    ]:
        np.testing.assert_allclose(ours, cur[theirs], atol=2e-7, err_msg=theirs)
    np.testing.assert_allclose(res.tau2, cur["tau"], atol=2e-6)
    cl = ref["clusters"]
    for i, rows in _centre_rows(res, cl, "splines", atol=1e-5):
        assert res.n_knots[i] == np.asarray(cl["knots_used"])[rows][0]
        assert res.n[i] == np.asarray(cl["nsample"])[rows][0]


def _centre_rows(res, cl, key, atol):
    """Check each centre's curve and its SE against R's ``key``, ``key_se``;
    yield each centre's position and its rows in ``cl``."""
    labels = np.asarray(cl["cluster"])
    for i, c in enumerate(res.clusters):
        rows = labels == c
        eta = np.log(res.cluster_estimate[i] / (1 - res.cluster_estimate[i]))
        np.testing.assert_allclose(eta, np.asarray(cl[key])[rows], atol=atol)
        se = np.asarray(cl[f"{key}_se"])[rows]
        np.testing.assert_allclose(res.cluster_standard_error[i], se, atol=1e-6)
        yield i, rows


@pytest.mark.parametrize("ref", LOG_CASES, ids=[c["name"] for c in LOG_CASES])
def test_equals_mac2_logistic_centre_curves(ref):
    """centre_fit="logistic": MAC2's method_choice = "log" (fixture made by
    tests/fixtures/make_mac2_fixtures.R)."""
    d = _data(ref["name"])
    res = clustered_calibration_curve(
        d["y"], d["p"], groups=d["cluster"].astype(str), confidence_level=ref["cl_level"],
        centre_fit="logistic",
    )  # fmt: skip
    cur = ref["curve"]
    np.testing.assert_allclose(res.grid, cur["x"], rtol=1e-14)
    bands = ["estimate", "lower", "upper", "prediction_lower", "prediction_upper"]
    for ours, theirs in zip(bands, ["y", "lower", "upper", "low_pre", "up_pre"]):
        np.testing.assert_allclose(
            getattr(res, ours), cur[theirs], atol=2e-7, err_msg=theirs
        )
    np.testing.assert_allclose(res.tau2, cur["tau"], atol=2e-6)
    assert (res.n_knots == 0).all()
    assert len(list(_centre_rows(res, ref["clusters"], "log", atol=1e-6))) == len(
        res.clusters
    )


def test_fallback_centre_is_linear():
    d = _data("fallback")
    res = clustered_calibration_curve(d["y"], d["p"], groups=d["cluster"])
    sep = list(res.clusters).index("sep")
    assert res.n_knots[sep] == 0
    # a linear fit on logit(p): the curve is a logistic function of logit(g)
    eta = np.log(res.cluster_estimate[sep] / (1 - res.cluster_estimate[sep]))
    x = np.log(res.grid / (1 - res.grid))
    assert np.allclose(np.diff(eta) / np.diff(x), (eta[-1] - eta[0]) / (x[-1] - x[0]))


def test_tiny_and_constant_centres():
    # audit: a centre of 4 rows raised the spline's "y_proba has 4
    # observations" instead of MAC2's fallback to the linear logistic fit,
    # and a centre with one forecast raised "y_proba is constant"
    from skbrier.metrics import flexible_calibration_curve

    d = _data("simulated")
    tiny = pd.DataFrame({"p": [0.15, 0.3, 0.5, 0.7], "y": [0, 1, 0, 1], "cluster": "t"})
    both = pd.concat([d, tiny], ignore_index=True)
    res = clustered_calibration_curve(both["y"], both["p"], groups=both["cluster"], grid=9)
    t = list(res.clusters).index("t")
    assert res.n_knots[t] == 0
    linear = flexible_calibration_curve(
        tiny["y"], tiny["p"], smoother="ns", n_knots=0, grid=res.grid
    )
    np.testing.assert_allclose(res.cluster_estimate[t], linear.estimate, rtol=1e-12)
    flat = pd.DataFrame({"p": 0.3, "y": [0, 1, 0, 1, 1], "cluster": "f"})
    with pytest.warns(UserWarning, match=r"no calibration curve .* \['f'\]"):
        res = clustered_calibration_curve(
            pd.concat([d, flat])["y"], pd.concat([d, flat])["p"],
            groups=pd.concat([d, flat])["cluster"], grid=7,
        )  # fmt: skip
    base = clustered_calibration_curve(d["y"], d["p"], groups=d["cluster"], grid=7)
    np.testing.assert_allclose(res.estimate, base.estimate, rtol=1e-12)
    two = pd.concat([d[d["cluster"] == "c1"], flat], ignore_index=True)
    with pytest.raises(ValueError, match="only 1 centre"):
        clustered_calibration_curve(two["y"], two["p"], groups=two["cluster"], grid=7)


def test_single_class_centre_left_out_with_warning():
    d = _data("simulated")
    extra = pd.DataFrame({"p": [0.2, 0.4, 0.6], "y": [0, 0, 0], "cluster": "z"})
    both = pd.concat([d, extra], ignore_index=True)
    with pytest.warns(UserWarning, match=r"\['z'\].*single outcome class"):
        res = clustered_calibration_curve(
            both["y"], both["p"], groups=both["cluster"], grid=7
        )
    base = clustered_calibration_curve(d["y"], d["p"], groups=d["cluster"], grid=7)
    assert list(res.removed_clusters) == ["z"]
    np.testing.assert_allclose(res.estimate, base.estimate, rtol=1e-12)
    np.testing.assert_allclose(res.prediction_upper, base.prediction_upper, rtol=1e-12)


def test_needs_two_centres():
    d = _data("simulated")
    with pytest.raises(ValueError, match="groups holds 1 centre"):
        clustered_calibration_curve(d["y"], d["p"], groups=np.zeros(len(d)))


def test_two_centres_have_no_prediction_band():
    d = _data("simulated")
    keep = d["cluster"].isin(["c1", "c2"])
    res = clustered_calibration_curve(
        d["y"][keep], d["p"][keep], groups=d["cluster"][keep], grid=5
    )
    assert np.isnan(res.prediction_lower).all() and np.isfinite(res.lower).all()


def test_grid_checks():
    d = _data("simulated")
    with pytest.raises(ValueError, match="grid must lie strictly between 0 and 1"):
        clustered_calibration_curve(d["y"], d["p"], groups=d["cluster"], grid=[0.0, 0.5])
    res = clustered_calibration_curve(d["y"], d["p"], groups=d["cluster"], grid=[0.3, 0.6])
    np.testing.assert_array_equal(res.grid, [0.3, 0.6])


def test_weights_are_repeated_rows():
    d = _data("simulated").iloc[::3]
    w = np.tile([1, 2, 3], len(d))[: len(d)]
    rep = d.loc[d.index.repeat(w)]
    a = clustered_calibration_curve(
        d["y"], d["p"], groups=d["cluster"], sample_weight=w, grid=9
    )
    b = clustered_calibration_curve(rep["y"], rep["p"], groups=rep["cluster"], grid=9)
    np.testing.assert_allclose(a.estimate, b.estimate, rtol=1e-8)
    np.testing.assert_allclose(a.prediction_upper, b.prediction_upper, rtol=1e-8)


def test_to_frame_and_plot():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    d = _data("simulated")
    res = clustered_calibration_curve(d["y"], d["p"], groups=d["cluster"], grid=11)
    assert isinstance(res, ClusteredCalibrationCurve)
    f = res.to_frame()
    assert list(f.columns) == ["grid", "estimate", "lower", "upper", "prediction_lower",
                               "prediction_upper", "tau2"]  # fmt: skip
    assert f.shape == (11, 7)
    long = res.to_frame(per_cluster=True)
    assert long.shape == (66, 4) and set(long["cluster"]) == set(res.clusters)
    ax = res.plot(cluster_curves=True)
    assert ax.get_xlabel() == "Predicted probability"
    assert len(ax.get_lines()) >= 1 + 6 + 1


def test_centres_of_too_little_frequency_weight_name_sample_weight():
    # weights x 1e-150 leave every centre below 3 observations; the error blamed
    # only rows, constant forecasts and separation
    rng = np.random.default_rng(81)
    p = rng.uniform(0.05, 0.95, 150)
    y = (rng.uniform(size=150) < p).astype(int)
    g = np.repeat([0, 1, 2], 50)
    w = rng.integers(1, 4, 150) * 1e-150
    with pytest.raises(ValueError, match="sample_weight totals below 3"):
        clustered_calibration_curve(y, p, groups=g, sample_weight=w, grid=[0.2, 0.5])
