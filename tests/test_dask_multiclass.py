"""Multiclass forecasts on dask input equal the numpy input (skbrier's in-memory
path, itself tested against scikit-learn, torchmetrics, netcal, R and
lm-evaluation-harness), on the synchronous scheduler and on a distributed
LocalCluster, with unequal and empty partitions, partitions holding a single
class, a class absent from y_true (labels=), and bad input in one partition."""

import re
import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

from test_dask import _close  # noqa: E402

import skbrier  # noqa: E402
from skbrier.decomposition import BrierDecomposition  # noqa: E402
from skbrier.metrics.calibration_error import calibration_error  # noqa: E402
from skbrier.states import (  # noqa: E402
    CalibrationBinsState,
    MulticlassBrierState,
    MultipleChoiceState,
)

CHUNKS = (37, 0, 150, 1, 0, 212)  # unequal, empty and one-row partitions
N = sum(CHUNKS)
K = 4


def _data(seed=0, k=K, labels=None, ties=True):
    rng = np.random.default_rng(seed)
    raw = rng.gamma(1.0, size=(N, k))
    p = raw / raw.sum(axis=1, keepdims=True)
    if ties:
        p = np.floor(p * 100) / 100  # the rows still sum to one (to rounding)
        p[:, -1] = 1.0 - p[:, :-1].sum(axis=1)
    codes = np.array([rng.choice(k, p=row / row.sum()) for row in p])
    codes[:37] = 0  # the first partition holds a single class
    names = np.arange(k) if labels is None else np.asarray(labels)
    w = rng.integers(0, 4, N).astype(float)
    return names[codes], p, w


def _da(*arrays):
    out = []
    for a in arrays:
        chunks = (CHUNKS,) if a.ndim == 1 else (CHUNKS, (a.shape[1],))
        out.append(da.from_array(a, chunks=chunks))
    return out


def _brier_cases(y, p, w, dy, dp, dw, labels=None):
    kw = {} if labels is None else {"labels": labels}
    for weighted in (False, True):
        wk = {"sample_weight": w} if weighted else {}
        dwk = {"sample_weight": dw} if weighted else {}
        for opts in ({}, {"scale_by_half": True}, {"scale_by_half": False}):
            _close(
                skbrier.brier_score(dy, dp, **opts, **dwk, **kw),
                skbrier.brier_score(y, p, **opts, **wk, **kw),
            )
        _close(
            skbrier.brier_index(dy, dp, **dwk, **kw),
            skbrier.brier_index(y, p, **wk, **kw),
            atol=1e-12,
        )
        _close(
            skbrier.brier_skill_score(dy, dp, **dwk, **kw),
            skbrier.brier_skill_score(y, p, **wk, **kw),
        )
        ref = np.full_like(p, 1.0 / p.shape[1])
        (dref,) = _da(ref)
        _close(
            skbrier.brier_skill_score(dy, dp, reference=dref, **dwk, **kw),
            skbrier.brier_skill_score(y, p, reference=ref, **wk, **kw),
        )


def _ce_cases(y, p, w, dy, dp, dw, labels=None):
    kw = {} if labels is None else {"labels": labels}
    edges = np.array([0.0, 0.2, 0.35, 0.6, 1.0])
    options = [
        {},
        {"norm": "l2", "n_bins": 7, "right": False},
        {"norm": "max"},
        {"norm": "l2", "debias": True, "n_bins": 5},
        {"binning": "sklearn"},
        {"binning": "netcal", "norm": "l2"},
        {"binning": "torchmetrics", "norm": "l2", "debias": True},
        {"binning": edges},
    ]
    kinds = ["top_label", "classwise"] + (
        ["binary"] if p.ndim == 1 or p.shape[1] == 2 else []
    )
    for weighted in (False, True):
        wk = {"sample_weight": w} if weighted else {}
        dwk = {"sample_weight": dw} if weighted else {}
        for kind in kinds:
            for opts in options:
                _close(
                    calibration_error(dy, dp, kind=kind, **opts, **dwk, **kw),
                    calibration_error(y, p, kind=kind, **opts, **wk, **kw),
                )


def _decomposition_cases(y, p, w, dy, dp, dw, labels=None):
    for params in (
        {"decomposition_method": "murphy"},
        {"decomposition_method": "murphy", "n_bins": 7, "bias_correction": True},
        {"decomposition_method": "murphy", "strategy": np.array([0.0, 0.25, 0.3, 1.0])},
    ):
        params = dict(params, labels=labels)
        a = BrierDecomposition(**params).fit(dy, dp, dw)
        b = BrierDecomposition(**params).fit(y, p, w)
        for attr in (
            "brier_score_",
            "miscalibration_",
            "discrimination_",
            "uncertainty_",
            "within_bin_variance_",
            "within_bin_covariance_",
            "brier_index_",
            "n_samples_seen_",
        ):
            _close(getattr(a, attr), getattr(b, attr), atol=1e-12)
        for key in b.table_:
            if b.table_[key].dtype.kind in "fiu":
                _close(a.table_[key], b.table_[key], atol=1e-12)
        assert (a.classes_ is None) == (b.classes_ is None)


def _check_all(k=K, labels=None, ties=True, declared=None):
    y, p, w = _data(k=k, labels=labels, ties=ties)
    dy, dp, dw = _da(y, p, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rows rounded to 2 digits
        _brier_cases(y, p, w, dy, dp, dw, labels=declared)
        _ce_cases(y, p, w, dy, dp, dw, labels=declared)
        _decomposition_cases(y, p, w, dy, dp, dw, labels=declared)


@pytest.fixture
def sync():
    with dask.config.set(scheduler="sync"):
        yield


@pytest.mark.parametrize("k", [2, 3, K])
def test_equals_numpy_sync(sync, k):
    _check_all(k=k, ties=k != 3)


def test_string_labels_and_a_missing_class(sync):
    _check_all(labels=["ant", "bee", "cat", "dog"])
    # the last class never occurs: labels= names it, as in memory
    y, p, w = _data()
    y = np.where(y == 3, 2, y)
    dy, dp, dw = _da(y, p, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _brier_cases(y, p, w, dy, dp, dw, labels=[0, 1, 2, 3])
        _ce_cases(y, p, w, dy, dp, dw, labels=[0, 1, 2, 3])
        _decomposition_cases(y, p, w, dy, dp, dw, labels=[0, 1, 2, 3])
    with pytest.raises(ValueError, match="^y_true has 3 classes"):
        skbrier.brier_score(dy, dp)


def test_dataframe_columns(sync):
    y, p, w = _data()
    frame = pd.DataFrame({"y": y, "w": w, **{f"p{j}": p[:, j] for j in range(K)}})
    ddf = dd.from_pandas(frame, npartitions=5)
    cols = [f"p{j}" for j in range(K)]
    _close(
        skbrier.brier_score(ddf["y"], ddf[cols], sample_weight=ddf["w"]),
        skbrier.brier_score(y, p, sample_weight=w),
    )
    _close(
        calibration_error(ddf["y"], ddf[cols], sample_weight=ddf["w"]),
        calibration_error(y, p, sample_weight=w),
    )
    _close(
        skbrier.multiple_choice_brier_score(ddf["y"], ddf[cols], sample_weight=ddf["w"]),
        skbrier.multiple_choice_brier_score(y, p, sample_weight=w),
    )


def test_two_column_skill_with_a_rate_and_pos_label(sync):
    y, p, w = _data(k=2, labels=["no", "yes"])
    dy, dp, dw = _da(y, p, w)
    _close(
        skbrier.brier_skill_score(dy, dp, reference=0.3, sample_weight=dw),
        skbrier.brier_skill_score(y, p, reference=0.3, sample_weight=w),
    )
    for pos in ("no", "yes"):
        _close(
            calibration_error(dy, dp, kind="binary", pos_label=pos),
            calibration_error(y, p, kind="binary", pos_label=pos),
        )
        a = BrierDecomposition(decomposition_method="murphy", pos_label=pos).fit(dy, dp)
        b = BrierDecomposition(decomposition_method="murphy", pos_label=pos).fit(y, p)
        _close(a.miscalibration_, b.miscalibration_)
    with pytest.raises(ValueError, match="^reference must be None"):
        skbrier.brier_skill_score(*_da(*_data()[:2]), reference=0.3)


@pytest.mark.parametrize("convention", ["per_example", "bigbench"])
@pytest.mark.parametrize("from_logprobs", [False, True])
def test_multiple_choice(sync, convention, from_logprobs):
    y, p, w = _data()
    score = np.log(p + 1e-3) if from_logprobs else p
    rng = np.random.default_rng(3)
    targets = rng.random((N, K)) * (rng.random((N, K)) < 0.5)
    targets[np.arange(N), y] += 0.5
    w[5] = 1e300  # the weights are scale-free
    kw = {"convention": convention, "from_logprobs": from_logprobs}
    dy, ds, dw, dt = _da(y, score, w, targets)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for yy, dyy in ((y, dy), (targets, dt)):
            _close(
                skbrier.multiple_choice_brier_score(dyy, ds, **kw),
                skbrier.multiple_choice_brier_score(yy, score, **kw),
            )
            _close(
                skbrier.multiple_choice_brier_score(dyy, ds, sample_weight=dw, **kw),
                skbrier.multiple_choice_brier_score(yy, score, sample_weight=w, **kw),
            )


def test_bad_value_in_one_partition(sync):
    y, p, w = _data()
    cases = []
    bad = p.copy()
    bad[300, 1] = np.nan
    cases.append((y, bad, w, "^y_proba contains NaN"))
    bad = p.copy()
    bad[300, 1] = 1.5
    cases.append((y, bad, w, "^y_proba must contain probabilities"))
    bad_w = w.copy()
    bad_w[300] = -1.0
    cases.append((y, p, bad_w, "^sample_weight must be non-negative"))
    bad_y = y.astype(float)
    bad_y[300] = np.nan
    cases.append((bad_y, p, w, "^y_true contains NaN"))
    bad_y = y.copy()
    bad_y[300] = 9
    cases.append((bad_y, p, w, "^y_true has 5 classes"))
    fs = [
        skbrier.brier_score,
        calibration_error,
        lambda y, p, sample_weight: BrierDecomposition(decomposition_method="murphy").fit(
            y, p, sample_weight
        ),
    ]
    for yy, pp, ww, match in cases:
        dy, dp, dw = _da(yy, pp, ww)
        for f in fs:
            with pytest.raises(ValueError, match=match):
                f(yy, pp, sample_weight=ww)
            with pytest.raises(ValueError, match=match):
                f(dy, dp, sample_weight=dw)
    # labels= that misses a label of y_true: the in-memory error
    dy, dp = _da(y, p)
    with pytest.raises(ValueError, match=r"^y_true contains labels \[3\]"):
        skbrier.brier_score(dy, dp, labels=[0, 1, 2, 5])
    # rows that do not sum to one: the in-memory warning, on the client
    rows = p.copy()
    rows[300] *= 0.5
    with pytest.warns(UserWarning, match="do not sum to one"):
        skbrier.brier_score(*_da(y, rows))
    with pytest.warns(UserWarning, match="do not sum to one"):
        skbrier.multiple_choice_brier_score(*_da(y, rows))


def test_multiple_choice_bad_input(sync):
    y, p, _ = _data()
    bad = y.copy()
    bad[300] = 7
    with pytest.raises(ValueError, match=r"^y_true\[\d+\] = 7 is not a valid choice"):
        skbrier.multiple_choice_brier_score(*_da(bad, p))
    with pytest.raises(ValueError, match="ragged choice sets"):
        skbrier.multiple_choice_brier_score(*_da(y, p[:, 0]))


def test_refused_options(sync):
    y, p, _ = _data()
    dy, dp = _da(y, p)
    with pytest.raises(ValueError, match="strategy='quantile'"):
        calibration_error(dy, dp, strategy="quantile")
    with pytest.raises(ValueError, match="binning='helm'"):
        calibration_error(dy, dp, binning="helm")
    with pytest.raises(ValueError, match="binning='hle'"):
        calibration_error(dy, dp, binning="hle")
    from skbrier.metrics.calibration_error import (
        calibration_error_interval,
        smooth_calibration_error,
    )

    with pytest.raises(
        TypeError, match="^y_proba: smooth_calibration_error does not accept Dask"
    ):
        smooth_calibration_error(dy, dp)
    with pytest.raises(
        TypeError, match="^y_proba: calibration_error_interval does not accept Dask"
    ):
        calibration_error_interval(dy, dp, n_resamples=10)
    with pytest.raises(ValueError, match="n_resamples"):
        BrierDecomposition(decomposition_method="murphy", n_resamples=10).fit(dy, dp)
    with pytest.raises(ValueError, match="strategy='quantile'"):
        BrierDecomposition(decomposition_method="murphy", strategy="quantile").fit(dy, dp)
    with pytest.raises(ValueError, match="decomposition_method='corp'"):
        BrierDecomposition().fit(dy, dp)


def test_binary_decomposition_and_calibration(sync):
    from test_dask import _data as binary_data

    y, p, w = binary_data(labels=(2, 5))
    dy, dp, dw = _da(y, p, w)
    for method in ("corp", "murphy"):
        a = BrierDecomposition(decomposition_method=method).fit(dy, dp, dw)
        b = BrierDecomposition(decomposition_method=method).fit(y, p, w)
        _close(a.brier_score_, b.brier_score_)
        _close(a.miscalibration_, b.miscalibration_)
        _close(a.discrimination_, b.discrimination_)
    # the dask fit continues with partial_fit and merge, as a chunked fit
    a = BrierDecomposition(decomposition_method="murphy", pos_label=5).fit(dy, dp, dw)
    a.partial_fit(y[:50], p[:50], w[:50])
    both = BrierDecomposition(decomposition_method="murphy").fit(
        np.concatenate([y, y[:50]]),
        np.concatenate([p, p[:50]]),
        np.concatenate([w, w[:50]]),
    )
    _close(a.brier_score_, both.brier_score_)
    _close(
        calibration_error(dy, dp * 100, confidence_scale=100, sample_weight=dw),
        calibration_error(y, p * 100, confidence_scale=100, sample_weight=w),
    )


def test_states_merge_in_any_order():
    y, p, w = _data()
    parts = np.array_split(np.arange(N), 7)
    from skbrier.metrics._calibration_error_core import check_options

    o = check_options("l2", 10, "uniform", None, True, True)
    for make, get, expected in (
        (
            MulticlassBrierState,
            lambda s: s.finalize(),
            skbrier.brier_score(y, p, sample_weight=w),
        ),
        (
            lambda: CalibrationBinsState(o, kind="classwise"),
            lambda s: s.finalize(),
            calibration_error(
                y, p, kind="classwise", norm="l2", debias=True, n_bins=10, sample_weight=w
            ),
        ),
        (
            MultipleChoiceState,
            lambda s: s.finalize(),
            skbrier.multiple_choice_brier_score(y, p, sample_weight=w),
        ),
    ):
        states = [make().update(y[i], p[i], w[i]) for i in parts]
        total = states[-1]
        for s in states[-2::-1]:
            total.merge(s)
        _close(get(total), expected)


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


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_equals_numpy_local_cluster(cluster_client):
    _check_all(k=K)
    y, p, w = _data()
    dy, dp, dw = _da(y, p, w)
    _close(
        skbrier.multiple_choice_brier_score(dy, dp, sample_weight=dw),
        skbrier.multiple_choice_brier_score(y, p, sample_weight=w),
    )


def test_bad_input_local_cluster(cluster_client):
    y, p, _ = _data()
    p = p.copy()
    p[300, 0] = np.nan
    with pytest.raises(ValueError, match="^y_proba contains NaN"):
        skbrier.brier_score(*_da(y, p))


def test_ranked_scores_of_one_column_give_the_in_memory_error(sync):
    # a partition's state said "y_proba must be 2-D (one column per class) for
    # this state; got shape (7,)": the in-memory error names the whole shape
    rng = np.random.default_rng(5)
    y, p = rng.integers(0, 3, 30), rng.random(30)
    dy = da.from_array(y, chunks=7)
    for f in (skbrier.ranked_probability_score, skbrier.ranked_probability_skill_score):
        for proba in (p, p[:, None]):
            with pytest.raises(ValueError) as memory:
                f(y, proba)
            with pytest.raises(ValueError, match=f"^{re.escape(str(memory.value))}$"):
                f(dy, da.from_array(proba, chunks=(7,) + proba.shape[1:]))
        column = dd.from_pandas(pd.Series(p), npartitions=3)
        with pytest.raises(ValueError, match=r"got shape \(nan,\)\. For a binary"):
            f(dy, column)
