"""One resampling engine: the same random_state gives the same draws everywhere.

Every entry point that resamples rows goes through ``stats._resampling``; so
the same ``random_state`` gives the same interval from the function, the
estimator, the Display and the report, for every ``n_jobs``, and an int seed
equals ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

import numpy as np
import pytest

from skbrier import (
    BrierDecomposition,
    block_bootstrap,
    brier_inference,
    calibration_report,
    decision_curve,
    murphy_decomposition,
)
from skbrier._core.resampling import resample_indices, run_replicates
from skbrier.datasets import load_forecasts


@pytest.fixture(scope="module")
def data():
    d = load_forecasts()
    return d["y"][:300], d["model_b"][:300]


def test_engine_is_independent_of_n_jobs_and_seed_type():
    def task(size, rng):
        return resample_indices(rng, 50, size).sum(axis=1)

    a = run_replicates(task, 100, random_state=3, chunk_size=16)
    b = run_replicates(task, 100, random_state=3, chunk_size=16, n_jobs=2)
    c = run_replicates(task, 100, random_state=np.random.default_rng(3), chunk_size=16)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)


def test_brier_inference_bootstrap_equals_block_bootstrap(data):
    y, p = data
    res = brier_inference(
        y, p, cov_type="bootstrap", bootstrap="iid", n_resamples=200, random_state=5
    )

    def bs(yy, pp, axis=-1):
        return np.mean((pp - yy) ** 2, axis=axis)

    ref = block_bootstrap(
        (y.astype(float), p), bs, bootstrap="iid", n_resamples=200, random_state=5
    )
    np.testing.assert_allclose(
        res.confidence_interval(0.95, metric="brier_score"),
        ref.confidence_interval(),
        rtol=1e-12,
    )


def test_report_intervals_equal_brier_inference(data):
    y, p = data
    rep = calibration_report(
        y,
        p,
        cov_type="bootstrap",
        random_state=11,
        inference_kwds={"n_resamples": 300},
        thresholds=[0.2],
    )
    inf = brier_inference(y, p, cov_type="bootstrap", n_resamples=300, random_state=11)
    for metric in ("brier_score", "brier_index", "brier_skill_score"):
        np.testing.assert_allclose(
            rep.confidence_interval(metric=metric),
            inf.confidence_interval(0.95, metric=metric),
            rtol=1e-12,
        )


def test_murphy_function_equals_estimator(data):
    y, p = data
    f = murphy_decomposition(y, p, n_bins=10, n_resamples=100, random_state=2)
    e = BrierDecomposition("murphy", n_bins=10, n_resamples=100, random_state=2).fit(y, p)
    for comp in ("reliability", "resolution"):
        np.testing.assert_allclose(
            f.confidence_interval(0.9, metric=comp),
            e.decomposition_.confidence_interval(0.9, metric=comp),
            rtol=1e-12,
        )


def test_decision_curve_bands_reproducible(data):
    y, p = data
    a = decision_curve(y, p, thresholds=[0.1, 0.3], n_resamples=100, random_state=4)
    b = decision_curve(
        y, p, thresholds=[0.1, 0.3], n_resamples=100, random_state=4, n_jobs=2
    )
    np.testing.assert_array_equal(
        a.confidence_interval(0.95).low, b.confidence_interval(0.95).low
    )
