"""Dask input equals numpy input (the reference is skbrier's own in-memory path,
itself tested against scikit-learn, R and peers), on the synchronous scheduler
and on a distributed LocalCluster, with unequal and empty partitions, partitions
holding a single class, labels other than 0/1 and bad input in one partition."""

import dataclasses
import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

import skbrier  # noqa: E402
from skbrier._backends._dask import is_dask_input  # noqa: E402
from skbrier.metrics.calibration import (  # noqa: E402
    c_statistic,
    calibration_in_the_large,
    calibration_intercept_slope,
    spiegelhalter_z,
)
from skbrier.metrics.calibration_error import calibration_error
from skbrier.metrics.decomposition import (  # noqa: E402
    corp_decomposition,
    murphy_decomposition,
)
from skbrier.metrics.net_benefit import decision_curve, net_benefit  # noqa: E402
from skbrier.states import BrierState, ForecastTable  # noqa: E402
from skbrier.stats.compare import compare_brier  # noqa: E402
from skbrier.stats.inference import brier_inference  # noqa: E402

CHUNKS = (37, 0, 150, 1, 0, 212)  # unequal, empty and one-row partitions
N = sum(CHUNKS)


def _data(seed=0, ties=True, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    p = rng.random(N)
    if ties:
        p = np.round(p, 2)
    y01 = rng.random(N) < p
    y01[:37] = True  # the first partition holds a single class
    y = np.where(y01, labels[1], labels[0])
    w = rng.integers(0, 4, N).astype(float)
    return y, p, w


def _dask_arrays(*arrays):
    return [da.from_array(a, chunks=(CHUNKS,)) for a in arrays]


# a difference of two Brier Indexes near 60: its rounding error in memory is
# one ulp of 60 (the summation order moves it by that much)
ATOL = {"brier_index_difference": 1e-12}


def _close(a, b, *, exact=False, atol=1e-15):
    if dataclasses.is_dataclass(a):
        assert type(a) is type(b)
        for f in dataclasses.fields(a):
            va, vb = getattr(a, f.name), getattr(b, f.name)
            if f.name == "statistics":
                continue
            _close(va, vb, exact=exact, atol=ATOL.get(f.name, 1e-15))
        return
    if isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _close(a[k], b[k], exact=exact)
        return
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for u, v in zip(a, b):
            _close(u, v, exact=exact)
        return
    if a is None or isinstance(a, (str, bool)):
        assert a == b
        return
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape
    if exact:
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=atol)


CASES = [
    (skbrier.brier_score, {}),
    (skbrier.brier_score, {"scale_by_half": False}),
    (skbrier.brier_index, {}),
    (skbrier.brier_skill_score, {}),
    (skbrier.brier_skill_score, {"reference": 0.3}),
    (murphy_decomposition, {}),
    (murphy_decomposition, {"n_bins": 7, "right": False, "bias_correction": True}),
    (murphy_decomposition, {"strategy": np.array([0.0, 0.25, 0.3, 1.0])}),
    (calibration_error, {"kind": "binary", "n_bins": 10}),
    (calibration_error, {"kind": "binary", "norm": "l2", "n_bins": 5}),
    (calibration_error, {"kind": "binary", "n_bins": 10, "norm": "max"}),
    (spiegelhalter_z, {}),
    (corp_decomposition, {}),
    (c_statistic, {}),
    (calibration_intercept_slope, {}),
    (calibration_in_the_large, {}),
    (net_benefit, {"threshold": 0.2}),
    (net_benefit, {"threshold": 0.3, "prevalence": 0.25}),
    (decision_curve, {}),
    (decision_curve, {"thresholds": [0.0, 0.1, 0.5], "prevalence": 0.3, "harm": 0.01}),
    (brier_inference, {}),
    (brier_inference, {"reference": 0.3}),
]
EXACT = {corp_decomposition}  # c_statistic: sklearn sums in another order (1 ulp)


def _ids(case):
    return case[0].__name__ + (str(sorted(case[1])) if case[1] else "")


def _check_all(weighted, labels=(0, 1), pos_label=None, ties=True):
    y, p, w = _data(ties=ties, labels=labels)
    dy, dp, dw = _dask_arrays(y, p, w)
    kw = {} if pos_label is None else {"pos_label": pos_label}
    wkw = {"sample_weight": w} if weighted else {}
    dwkw = {"sample_weight": dw} if weighted else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # probabilities of 0 and 1 left out of the fits
        for f, opts in CASES:
            expected = f(y, p, **opts, **wkw, **kw)
            got = f(dy, dp, **opts, **dwkw, **kw)
            # unweighted CORP pools integer counts: bit-for-bit as in memory
            _close(got, expected, exact=(f in EXACT and not weighted))
    # two forecasts: reference forecasts and the comparison of two models
    q = np.clip(p + np.random.default_rng(1).normal(0, 0.05, N), 0, 1)
    (dq,) = _dask_arrays(q)
    _close(
        brier_inference(dy, dp, reference=dq, **dwkw, **kw),
        brier_inference(y, p, reference=q, **wkw, **kw),
    )
    for opts in ({}, {"ddof": 0, "small_sample_correction": True, "alternative": "less"}):
        _close(
            compare_brier(dy, dp, dq, **opts, **dwkw, **kw),
            compare_brier(y, p, q, **opts, **wkw, **kw),
        )
    _close(
        decision_curve(dy, {"a": dp, "b": dq}, **dwkw, **kw),
        decision_curve(y, {"a": p, "b": q}, **wkw, **kw),
    )


@pytest.fixture
def sync():
    with dask.config.set(scheduler="sync"):
        yield


@pytest.mark.parametrize("weighted", [False, True])
def test_equals_numpy_sync(sync, weighted):
    _check_all(weighted)


@pytest.mark.parametrize("ties", [False, True])
def test_string_and_signed_labels(sync, ties):
    _check_all(True, labels=("no", "yes"), pos_label="yes", ties=ties)
    _check_all(False, labels=(-1, 1))


def test_reference_forecasts_and_numpy_weights(sync):
    y, p, w = _data()
    r = np.clip(p + 0.1, 0, 1)
    dy, dp, dr = _dask_arrays(y, p, r)
    expected = skbrier.brier_skill_score(y, p, reference=r, sample_weight=w)
    # weights as numpy are split along the chunks of y_proba
    got = skbrier.brier_skill_score(dy, dp, reference=dr, sample_weight=w)
    _close(got, expected)


@pytest.mark.filterwarnings("ignore:.*left out of the logistic")
def test_dataframe_columns(sync):
    y, p, w = _data()
    frame = pd.DataFrame({"y": y, "p": p, "w": w})
    ddf = dd.from_pandas(frame, npartitions=5)
    for f, opts in CASES:
        expected = f(y, p, sample_weight=w, **opts)
        got = f(ddf["y"], ddf["p"], sample_weight=ddf["w"], **opts)
        _close(got, expected)


@pytest.mark.parametrize("scale", [1e-200, 1e200])
def test_extreme_weight_scales_warn_nothing(sync, scale):
    # the squares of weights of 1e200 overflow unless the per-partition bin
    # sums are those of the weights times a power of two (as in memory)
    y, p, w = _data(seed=4)
    w = (w + 0.5) * scale
    dy, dp, dw = _dask_arrays(y, p, w)
    for f in (calibration_error, murphy_decomposition, skbrier.calibration_report):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the report's notes
            expected = f(y, p, sample_weight=w)
            warnings.simplefilter("error", RuntimeWarning)
            got = f(dy, dp, sample_weight=dw)
        if f is skbrier.calibration_report:
            got, expected = (got.ece, got.brier_score), (expected.ece, expected.brier_score)
        _close(got, expected)


@pytest.mark.filterwarnings("ignore:.*left out of the logistic")
def test_single_column_is_one_dimensional(sync):
    # a column vector (n, 1) of forecasts or outcomes is 1-D, as in memory:
    # it was refused as multiclass, and the report's logistic fit gave NaN
    y, p, w = _data(seed=5)
    dy, dp, dw = _dask_arrays(y, p, w)
    frame = dd.from_pandas(pd.DataFrame({"p": p}), npartitions=3)
    weights = dd.from_pandas(pd.Series(w), npartitions=3)
    labels = dd.from_pandas(pd.Series(y), npartitions=3)
    for f, opts in CASES:
        expected = f(y, p, sample_weight=w, **opts)
        _close(f(dy, dp[:, None], sample_weight=dw, **opts), expected)
        _close(f(dy[:, None], dp, sample_weight=dw, **opts), expected)
        _close(f(labels, frame, sample_weight=weights, **opts), expected)
    got = skbrier.calibration_report(dy, dp[:, None], sample_weight=dw)
    expected = skbrier.calibration_report(y, p, sample_weight=w)
    assert got.calibration_intercept == pytest.approx(expected.calibration_intercept)
    assert got.calibration_in_the_large == pytest.approx(expected.calibration_in_the_large)


def test_single_class_overall(sync):
    y, p, _ = _data()
    y = np.ones_like(y)
    dy, dp = _dask_arrays(y, p)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert np.isnan(skbrier.brier_skill_score(dy, dp))
    with pytest.raises(ValueError, match="single class"):
        c_statistic(dy, dp)
    _close(murphy_decomposition(dy, dp), murphy_decomposition(y, p))


@pytest.mark.parametrize(
    "where, value, match",
    [
        ("p", np.nan, "^y_proba contains NaN"),
        ("p", 1.5, "^y_proba must contain probabilities"),
        ("y", 2, "^y_true has more than two classes"),
        ("w", -1.0, "^sample_weight must be non-negative"),
        ("w", np.nan, "^sample_weight contains NaN"),
    ],
)
def test_bad_value_in_one_partition(sync, where, value, match):
    y, p, w = _data()
    y = y.astype(float)
    {"y": y, "p": p, "w": w}[where][300] = value  # in the last partition
    dy, dp, dw = _dask_arrays(y, p, w)
    fs = (
        skbrier.brier_score,
        murphy_decomposition,
        c_statistic,
        spiegelhalter_z,
        calibration_intercept_slope,
        brier_inference,
    )
    for f in fs:
        with pytest.raises(ValueError, match=match):
            f(y, p, sample_weight=w)
        with pytest.raises(ValueError, match=match):
            f(dy, dp, sample_weight=dw)


def test_counts_of_one_partition_are_said_to_be(sync):
    # a message that counts rows (not naming an index) counts one partition's
    y, p, w = _data(seed=6)
    edges = np.array([0.1, 0.5, 1.0])  # not covering the forecasts
    with pytest.raises(ValueError, match="must cover the forecasts") as mem:
        murphy_decomposition(y, p, strategy=edges)
    assert " of 400 values" in str(mem.value)
    dy, dp = _dask_arrays(y, p)
    with pytest.raises(ValueError, match="within one partition of the dask input"):
        murphy_decomposition(dy, dp, strategy=edges)


def test_labels_spread_over_partitions(sync):
    # each partition is a single class, together three: the in-memory error
    y = np.repeat([0, 1, 2], [37, 150, 213])
    p = np.full(N, 0.5)
    dy, dp = _dask_arrays(y, p)
    with pytest.raises(ValueError, match="more than two classes"):
        skbrier.brier_score(dy, dp)
    with pytest.raises(ValueError, match="pos_label must be given"):
        skbrier.brier_score(*_dask_arrays(np.where(y > 0, "a", "b"), p))
    with pytest.raises(ValueError, match="sums to zero"):
        skbrier.brier_score(dy[:37] * 0, dp[:37], sample_weight=dp[:37] * 0)


def test_options_refused_for_dask(sync):
    y, p, _ = _data()
    dy, dp = _dask_arrays(y, p)
    with pytest.raises(ValueError, match="strategy='quantile'"):
        murphy_decomposition(dy, dp, strategy="quantile")
    with pytest.raises(ValueError, match="n_resamples"):
        corp_decomposition(dy, dp, n_resamples=10)
    with pytest.raises(ValueError, match="^norm"):
        calibration_error(dy, dp, kind="binary", norm="l3")


def test_resolution_bounds_the_table(sync):
    from skbrier._backends._dask import _metrics

    y, p, _ = _data(ties=False)
    dy, dp = _dask_arrays(y, p)
    exact = c_statistic(dy, dp)
    rounded = _metrics.c_statistic(dy, dp, resolution=1e-3)
    assert abs(rounded - exact) < 1e-2
    ties = np.round(p / 1e-3) * 1e-3  # the rounding rule of ForecastTable
    _close(rounded, c_statistic(y, ties))


def test_is_dask_input_is_free_for_numpy():
    assert not is_dask_input(np.zeros(3), [1, 2], None)
    assert is_dask_input(np.zeros(3), da.zeros(3))


def test_states_merge_in_any_order():
    y, p, w = _data()
    parts = np.array_split(np.arange(N), 7)
    states = [BrierState().update(y[i], p[i], w[i]) for i in parts]
    a = states[0]
    for s in states[1:]:
        a.merge(s)
    _close(a.finalize(), skbrier.brier_score(y, p, sample_weight=w))
    t = ForecastTable()
    for i in parts[::-1]:
        t.merge(ForecastTable().update(y[i], p[i], w[i]))
    _close(t.c_statistic(), c_statistic(y, p, sample_weight=w))


@pytest.fixture(scope="module")
def cluster_client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.mark.parametrize("weighted", [pytest.param(False, marks=pytest.mark.slow), True])
def test_equals_numpy_local_cluster(cluster_client, weighted):
    _check_all(weighted)


def test_bad_input_local_cluster(cluster_client):
    y, p, w = _data()
    p[300] = np.nan
    dy, dp = _dask_arrays(y, p)
    with pytest.raises(ValueError, match="^y_proba contains NaN"):
        skbrier.brier_score(dy, dp)


def test_a_shape_of_one_partition_is_said_to_be(sync):
    # "got shape (70, 1)" is a partition's shape (not the whole column's)
    y, p, w = _data(seed=9)
    dy, dp = da.from_array(y, chunks=70), da.from_array(p, chunks=70)
    dw = da.from_array(w[:, None], chunks=(70, 1))
    # whichever partition dask checks first (70 or the last 50 rows)
    with pytest.raises(
        ValueError, match=r"got shape \((70|50), 1\)\. \(Positions and counts"
    ):
        skbrier.brier_score(dy, dp, sample_weight=dw)


def test_a_zero_dimensional_dask_array_is_refused_by_name(sync):
    # a 0-d dask array has no rows to partition (was an IndexError)
    y, p, w = _data(seed=10)
    dy = da.from_array(y, chunks=70)
    with pytest.raises(ValueError, match="^y_proba must be an array of one value per row"):
        skbrier.brier_score(dy, da.from_array(np.float64(0.3)))
    with pytest.raises(ValueError, match="^sample_weight must be an array of one value"):
        skbrier.calibration_error(
            dy, da.from_array(p, chunks=70), sample_weight=da.from_array(np.float64(2.0))
        )


def test_dataframe_columns_beside_arrays_are_cut_at_the_same_rows(sync):
    # a DataFrame column's partitions and an array's chunks of the same total
    # were compared one by one ("y_true has 13 samples but y_proba has 12")
    y, p, w = _data(seed=12)
    frame = dd.from_pandas(pd.DataFrame({"y": y, "w": w}), npartitions=3)
    for chunks in (14, 130, (120, 140, 140)):
        dp = da.from_array(p, chunks=chunks)
        _close(skbrier.brier_score(frame.y, dp), skbrier.brier_score(y, p))
        _close(
            calibration_error(frame.y, dp, sample_weight=frame.w, kind="binary"),
            calibration_error(y, p, sample_weight=w, kind="binary"),
        )
    # numpy forecasts beside DataFrame columns
    _close(
        skbrier.brier_score(frame.y, p, sample_weight=frame.w),
        skbrier.brier_score(y, p, sample_weight=w),
    )
    # columns of two frames partitioned differently
    other = dd.from_pandas(pd.DataFrame({"p": p}), npartitions=4)
    moved = other.repartition(npartitions=3).repartition(divisions=[0, 50, 300, 399])
    for q in (other.p, moved.p):
        _close(
            skbrier.brier_score(frame.y, q, sample_weight=frame.w),
            skbrier.brier_score(y, p, sample_weight=w),
        )
