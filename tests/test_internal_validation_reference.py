"""internal_validation against R pminternal (tests/fixtures/make_pminternal_fixtures.R).

With pminternal's own bootstrap indices (``indices=``) every number equals R
to rounding: the apparent, optimism, corrected and simple-bootstrap scores of
``boot_optimism(method = "boot")``, the .632 estimate of ``method = ".632"``,
the stability matrix and the stability functions.  Without shared indices the
corrected estimates agree with a second R run within Monte-Carlo error.
"""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from skbrier.model_selection import internal_validation

FIXTURE = json.loads(
    (Path(__file__).parent / "fixtures" / "pminternal_fixtures.json").read_text()
)
#: pminternal's score names -> skbrier's measures
NAMES = {
    "C": "c_statistic",
    "Brier": "brier_score",
    "BrierIndex": "brier_index",
    "Intercept": "calibration_intercept",
    "Slope": "calibration_slope",
    "CITL": "calibration_in_the_large",
    "Eavg": "ici",
    "NB_0.2": "net_benefit@0.2",
    "NB_0.4": "net_benefit@0.4",
}
#: glm(y ~ qlogis(p)) in pmcalibration::logistic_cal stops at glm's default
#: epsilon (1e-8 on the deviance); skbrier's fit converges fully
ATOL = {"Intercept": 5e-9, "Slope": 5e-9}


def _model():
    # glm's maximum likelihood (R runs glm to epsilon = 1e-14)
    return LogisticRegression(C=np.inf, solver="newton-cholesky", tol=1e-12, max_iter=200)


def _data():
    return np.array(FIXTURE["X"]), np.array(FIXTURE["y"])


@pytest.fixture(scope="module")
def matched():
    X, y = _data()
    idx = np.array(FIXTURE["indices"]) - 1  # R's 1-based rows
    return internal_validation(
        _model(), X, y, n_bootstrap=FIXTURE["B"], correction="both",
        thresholds=FIXTURE["thresholds"], indices=idx, n_jobs=2,
    )  # fmt: skip


def _close(ours: dict, theirs: dict, rtol: float = 1e-10) -> None:
    for r_name, name in NAMES.items():
        assert ours[name] == pytest.approx(
            theirs[r_name], rel=rtol, abs=ATOL.get(r_name, 1e-12)
        ), name


def test_harrell_optimism_equals_pminternal_boot(matched):
    boot = FIXTURE["boot"]
    _close(matched.apparent, boot["apparent"])
    _close(matched.optimism, boot["optimism"])
    _close(matched.corrected, boot["corrected"])
    _close(matched.simple_bootstrap, boot["simple"])
    assert set(matched.n_valid.values()) == {FIXTURE["B"]}


def test_632_equals_pminternal_dot632(matched):
    _close(matched.corrected_632, FIXTURE["dot632"]["corrected"])
    # .632+ is .632 plus a non-negative share of the (clipped) extra optimism
    for name in matched.measures:
        r = matched.relative_overfitting[name]
        assert 0.0 <= r <= 1.0
        if name in ("calibration_intercept", "calibration_in_the_large"):
            assert r == 0.0
            assert matched.corrected_632plus[name] == matched.corrected_632[name]


def test_stability_matrix_equals_pminternal(matched):
    stab = np.array(FIXTURE["stability"])
    np.testing.assert_allclose(matched.stability.original, stab[:, 0], rtol=1e-10)
    np.testing.assert_allclose(matched.stability.bootstrap, stab[:, 1:].T, rtol=1e-9)


def test_stability_functions_equal_pminternal(matched):
    s = matched.stability
    lo, hi = s.prediction_bounds(0.95)
    bounds = np.array(FIXTURE["prediction_bounds"])
    np.testing.assert_allclose(lo, bounds[:, 0], rtol=1e-9)
    np.testing.assert_allclose(hi, bounds[:, 1], rtol=1e-9)
    np.testing.assert_allclose(s.individual_mape, FIXTURE["individual_mape"], rtol=1e-8)
    assert s.average_mape == pytest.approx(FIXTURE["average_mape"], rel=1e-8)
    cii = s.classification_instability(FIXTURE["classification_threshold"])
    np.testing.assert_array_equal(cii, FIXTURE["classification_instability"])
    xs, ys = s.calibration_curves(100)
    curves = list(FIXTURE["calibration_curves"].values())
    assert xs.shape == (len(curves), 100)
    for i, c in enumerate(curves):
        np.testing.assert_allclose(xs[i], c["p"], rtol=1e-9)
        np.testing.assert_allclose(ys[i], c["pc"], rtol=1e-8, atol=1e-12)


def test_monte_carlo_agreement_without_shared_indices():
    """Our own resamples (another seed, B = 200) against R's run with B = 200.

    Both estimates are means of B resamples; their difference has standard
    error sqrt(2) * sd / sqrt(B), with sd the spread of the per-resample
    optimism (or of the weighted out-of-bag scores for .632).  Allow 4 of them.
    """
    X, y = _data()
    mc = FIXTURE["mc"]
    B = mc["B"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = internal_validation(
            _model(), X, y, n_bootstrap=B, correction="both",
            thresholds=FIXTURE["thresholds"], random_state=12345, n_jobs=2,
        )  # fmt: skip
    names = list(res.measures)
    opt_sd = np.nanstd(res.replicates["optimism"], axis=0, ddof=1)
    w632 = res.replicates["weight_632"][:, None] * res.replicates["out_of_bag"]
    oob_sd = 0.632 * np.nanstd(w632, axis=0, ddof=1)
    for r_name, name in NAMES.items():
        k = names.index(name)
        tol = 4 * np.sqrt(2.0 / B)
        assert res.corrected[name] == pytest.approx(
            mc["boot"]["corrected"][r_name], abs=tol * opt_sd[k] + 1e-12
        ), name
        assert res.corrected_632[name] == pytest.approx(
            mc["dot632"]["corrected"][r_name], abs=tol * oob_sd[k] + 1e-12
        ), name


CV_FIXTURE = json.loads(
    (Path(__file__).parent / "fixtures" / "pminternal_cv_fixtures.json").read_text()
)


@pytest.mark.parametrize("case", CV_FIXTURE["cases"], ids=lambda c: f"k={c['k']}")
def test_cv_optimism_equals_pminternal_crossval(case):
    X, y = _data()
    res = internal_validation(
        _model(), X, y, n_bootstrap=case["k"], correction="cv_optimism",
        thresholds=FIXTURE["thresholds"],
    )  # fmt: skip
    assert res.correction == "cv_optimism" and res.n_bootstrap == case["k"]
    # pROC::auc's direction="auto" reports 1 - C on a fold whose events have a
    # lower median forecast than its non-events; skbrier's C is that of the
    # fold's model, so the comparison flips it there
    c = res.measures.index("c_statistic")
    test = res.replicates["test"].copy()
    for i, rows in enumerate(case["folds"]):
        p, yy = res.stability.bootstrap[i][rows], y[rows]
        if np.median(p[yy == 1]) < np.median(p[yy == 0]):
            test[i, c] = 1.0 - test[i, c]
    cv_average = dict(zip(res.measures, test.mean(axis=0)))
    optimism = dict(zip(res.measures, (res.replicates["train"] - test).mean(axis=0)))
    _close(res.apparent, case["apparent"])
    _close(optimism, case["optimism"])
    _close(cv_average, case["cv_average"])
    for r_name, name in NAMES.items():
        if r_name != "C":
            assert res.corrected[name] == pytest.approx(
                case["corrected"][r_name], rel=1e-10, abs=ATOL.get(r_name, 1e-12)
            )
            assert res.cv_average[name] == pytest.approx(cv_average[name], rel=1e-12)
    assert set(res.n_valid.values()) == {case["k"]}
    sizes = [len(f) for f in case["folds"]]
    assert res.stability.bootstrap.shape == (case["k"], len(y)) and sum(sizes) == len(y)


def test_cv_optimism_needs_two_rows_per_fold():
    X, y = _data()
    with pytest.raises(ValueError, match="fewer than 2 rows per fold"):
        internal_validation(_model(), X, y, n_bootstrap=150, correction="cv_optimism")


def test_cv_optimism_takes_no_bootstrap_indices():
    X, y = _data()
    with pytest.raises(ValueError, match="indices are bootstrap resamples"):
        internal_validation(
            _model(), X, y, n_bootstrap=5, correction="cv_optimism",
            indices=np.zeros((5, len(y)), dtype=int),
        )  # fmt: skip


def test_cv_optimism_table_and_weights():
    X, y = _data()
    w = np.where(np.arange(len(y)) % 3 == 0, 2.0, 1.0)
    res = internal_validation(
        _model(), X, y, n_bootstrap=5, correction="cv_optimism", sample_weight=w,
        measures=["brier_score", "c_statistic"],
    )  # fmt: skip
    assert res.to_frame().columns.tolist() == [
        "measure", "apparent", "optimism", "corrected", "cv_average", "n_valid"
    ]  # fmt: skip
    assert res.corrected["brier_score"] > res.apparent["brier_score"]
    assert res.replicates["optimism"].shape == (5, 2)
