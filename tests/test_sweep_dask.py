"""Held-out sweep of the Dask adapters (issue 25's reproducers, new inputs).

The reference of every case is the in-memory function on the same rows.
Each test below was a fault of the Dask path: a partition's forecasts judged
as the whole data's (HardForecastWarning), a warning the in-memory function
deliberately does not give, a stray dask exception or warning, a number
where the in-memory function raises, an interval the in-memory report does
not give.  Synchronous scheduler unless a test says otherwise.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

import skbrier  # noqa: E402
from skbrier.exceptions import HardForecastWarning  # noqa: E402
from skbrier.metrics.calibration import c_statistic  # noqa: E402
from skbrier.metrics.calibration_error import calibration_error  # noqa: E402
from skbrier.metrics.decomposition import murphy_decomposition  # noqa: E402
from skbrier.metrics.net_benefit import decision_curve, net_benefit  # noqa: E402
from skbrier.metrics.ranked import ranked_probability_score  # noqa: E402
from skbrier.report import calibration_report  # noqa: E402
from skbrier.stats.compare import compare_brier  # noqa: E402

CHUNKS = (37, 0, 150, 1, 0, 212)  # unequal, empty and one-row partitions
N = sum(CHUNKS)


@pytest.fixture
def sync():
    with dask.config.set(scheduler="sync"):
        yield


def _data(seed=0):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(N), 2)
    y = (rng.random(N) < p).astype(int)
    w = rng.integers(0, 4, N).astype(float)
    return y, p, w


def _arrays(*arrays, chunks=CHUNKS):
    return [da.from_array(a, chunks=(chunks,) + a.shape[1:]) for a in arrays]


def _frame_column(a, npartitions=3):
    return dd.from_pandas(pd.Series(a), npartitions=npartitions)


def _hard_warnings(f, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(*args, **kwargs)
    return [str(w.message) for w in caught if issubclass(w.category, HardForecastWarning)]


# ------------------------------------------------ HardForecastWarning: whole data
def _hard_first_partition():
    """The first partition (37 rows) all 0/1, the others probabilities."""
    y, p, w = _data()
    p = p.copy()
    p[:37] = y[:37]
    return y, p, w


BINARY = [
    (skbrier.brier_score, {}),
    (skbrier.brier_skill_score, {}),
    (murphy_decomposition, {}),
    (calibration_error, {"kind": "binary"}),
    (c_statistic, {}),
    (compare_brier, {}),
]


@pytest.mark.parametrize("f, kw", BINARY, ids=lambda v: getattr(v, "__name__", ""))
def test_one_hard_partition_is_not_hard_forecasts(sync, f, kw):
    """0/1 forecasts in one partition only: no warning, as in memory (each
    partition was judged alone: 'every forecast is exactly 0 or 1')."""
    y, p, w = _hard_first_partition()
    q = np.round(np.random.default_rng(2).random(N), 2)  # a second forecaster
    args = (y, q, p) if f is compare_brier else (y, p)
    assert _hard_warnings(f, *args, sample_weight=w, **kw) == []
    dy, dp, dq, dw = _arrays(y, p, q, w)
    dargs = (dy, dq, dp) if f is compare_brier else (dy, dp)
    assert _hard_warnings(f, *dargs, sample_weight=dw, **kw) == []


def test_one_hard_partition_of_multiclass_forecasts(sync):
    rng = np.random.default_rng(1)
    proba = rng.dirichlet(np.ones(3), N)
    y = rng.integers(0, 3, N)
    proba[:37] = np.eye(3)[y[:37]]
    dy, dp = _arrays(y, proba)
    for f in (skbrier.brier_score, calibration_error, ranked_probability_score):
        assert _hard_warnings(f, y, proba) == []
        assert _hard_warnings(f, dy, dp) == []


def test_one_hard_partition_of_the_report(sync):
    y, p, w = _hard_first_partition()
    dy, dp, dw = _arrays(y, p, w)
    assert _hard_warnings(calibration_report, y, p, sample_weight=w) == []
    assert _hard_warnings(calibration_report, dy, dp, sample_weight=dw) == []


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_hard_forecasts_warn_once_as_in_memory(scheduler):
    """All forecasts 0/1: the in-memory warning, once (the threaded scheduler
    gave one per partition)."""
    y, _, w = _data()
    p = y.astype(float)
    expected = _hard_warnings(skbrier.brier_score, y, p, sample_weight=w)
    assert len(expected) == 1
    dy, dp, dw = _arrays(y, p, w)
    with dask.config.set(scheduler=scheduler):
        assert _hard_warnings(skbrier.brier_score, dy, dp, sample_weight=dw) == expected
        # the second forecaster's subject, as in memory
        q = np.round(np.random.default_rng(2).random(N), 2)
        (dq,) = _arrays(q)
        assert _hard_warnings(compare_brier, dy, dq, dp) == _hard_warnings(
            compare_brier, y, q, p
        )


@pytest.mark.slow  # a cluster of one worker process: about 15 s
def test_hard_forecasts_warn_on_a_cluster():
    """The partitions' warning reaches the client (it was given in the worker
    processes, where no one saw it)."""
    distributed = pytest.importorskip("distributed")
    y = np.array([0, 1] * 30)
    dy, dp = (da.from_array(a, chunks=20) for a in (y, y.astype(float)))
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        got = _hard_warnings(skbrier.brier_score, dy, dp)
    assert got == _hard_warnings(skbrier.brier_score, y, y.astype(float))
    assert len(got) == 1


@pytest.mark.parametrize(
    "chunks, hard", [((1, 1, 1), True), ((2, 1), False), ((1, 0, 2), True)]
)
def test_partitions_of_one_row_count_toward_the_whole(sync, chunks, hard):
    y = np.array([0, 1, 1])
    p = np.array([0.0, 1.0, 1.0]) if hard else np.array([0.0, 1.0, 0.3])
    expected = _hard_warnings(skbrier.brier_score, y, p)
    assert len(expected) == int(hard)
    dy, dp = _arrays(y, p, chunks=chunks)
    assert _hard_warnings(skbrier.brier_score, dy, dp) == expected
    # the calibration bins' state (not a binary state) judges alike
    expected = _hard_warnings(
        calibration_error, y, p, kind="binary", norm="l2", squared=True
    )
    assert len(expected) == int(hard)
    got = _hard_warnings(calibration_error, dy, dp, kind="binary", norm="l2", squared=True)
    assert got == expected


def test_a_binary_test_coded_0_1_is_a_valid_decision_curve_input(sync):
    """Net benefit of a 0/1 test: no HardForecastWarning in memory (by design),
    and none on Dask (the thresholds' state warned)."""
    y, _, w = _data()
    test = np.where(np.random.default_rng(3).random(N) < 0.8, y, 1 - y).astype(float)
    dy, dt, dw = _arrays(y, test, w)
    assert _hard_warnings(net_benefit, y, test, threshold=0.2) == []
    assert _hard_warnings(net_benefit, dy, dt, threshold=0.2) == []
    models = {"test": test, "all-ones": np.ones(N)}
    assert _hard_warnings(decision_curve, y, models, sample_weight=w) == []
    dmodels = {"test": dt, "all-ones": da.ones(N, chunks=(CHUNKS,))}
    assert _hard_warnings(decision_curve, dy, dmodels, sample_weight=dw) == []


# ------------------------------------------------ stray exceptions and warnings
@pytest.mark.parametrize("reference", ["frame", "numpy"])
def test_multiclass_skill_of_dataframe_forecasts_with_reference(sync, reference):
    """2-D forecasts as a dask DataFrame beside reference forecasts: the skill
    score (a TypeError of dask: 'Trying to convert ... to a boolean value')."""
    rng = np.random.default_rng(4)
    proba, ref = rng.dirichlet(np.ones(3), N), rng.dirichlet(np.ones(3), N)
    y = rng.integers(0, 3, N)
    frame = dd.from_pandas(pd.DataFrame(proba, columns=list("abc")), npartitions=4)
    dref = (
        dd.from_pandas(pd.DataFrame(ref, columns=list("abc")), npartitions=4)
        if reference == "frame"
        else ref
    )
    expected = skbrier.brier_skill_score(y, proba, reference=ref)
    got = skbrier.brier_skill_score(_frame_column(y, 4), frame, reference=dref)
    assert got == pytest.approx(expected, rel=1e-12)


def test_multiclass_skill_refuses_reference_of_another_shape(sync):
    rng = np.random.default_rng(4)
    proba = rng.dirichlet(np.ones(3), N)
    y = rng.integers(0, 3, N)
    frame = dd.from_pandas(pd.DataFrame(proba, columns=list("abc")), npartitions=4)
    with pytest.raises(ValueError, match="reference has shape"):
        skbrier.brier_skill_score(_frame_column(y, 4), frame, reference=proba[:, :2])
    # a list names its own shape, as in memory
    with pytest.raises(ValueError, match=r"reference has shape \(3,\) but y_proba"):
        skbrier.brier_skill_score(*_arrays(y, proba), reference=[0.2, 0.3, 0.5])


def test_string_labels_of_a_frame_beside_arrays_leak_no_dask_warning(sync):
    """A string column (pandas' string dtype) cut at the rows of arrays: no
    'Dask currently has limited support for converting pandas extension
    dtypes' UserWarning."""
    y, p, _ = _data()
    labels = np.where(y == 1, "yes", "no")
    column = dd.from_pandas(pd.Series(labels, dtype="string"), npartitions=3)
    (dp,) = _arrays(p)
    expected = skbrier.brier_score(labels, p, pos_label="yes")
    for proba in (dp, p):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = skbrier.brier_score(column, proba, pos_label="yes")
        assert got == pytest.approx(expected, rel=1e-12)


# ------------------------------------------------ numbers where memory raises
def test_c_statistic_of_one_class_of_positive_weight(sync):
    """Every row of one class has weight 0: the in-memory ValueError (Dask
    gave scikit-learn's UndefinedMetricWarning and a number)."""
    y, p, w = _data()
    w = np.where(y == 1, 0.0, w + 1.0)
    dy, dp, dw = _arrays(y, p, w)
    with pytest.raises(ValueError) as exp:
        c_statistic(y, p, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as got:
            c_statistic(dy, dp, sample_weight=dw)
    assert str(got.value) == str(exp.value)


@pytest.mark.parametrize(
    "y, p, w, chunks",
    [
        ([0, 1], [0.3, 0.6], None, (1, 1)),
        ([0, 1, 1, 0], [0.3, 0.6, 0.8, 0.1], [0.5, 0.5, 0.5, 0.5], (2, 0, 2)),
    ],
)
def test_report_gives_no_interval_with_fewer_than_3_observations(sync, y, p, w, chunks):
    """The in-memory report's note 'Confidence intervals not available' and
    no interval at all; the Dask report gave an O/E interval."""
    y, p = np.array(y), np.array(p)
    w = None if w is None else np.array(w)
    dy, dp = _arrays(y, p, chunks=chunks)
    dw = None if w is None else _arrays(w, chunks=chunks)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = calibration_report(y, p, sample_weight=w)
        got = calibration_report(dy, dp, sample_weight=dw)
    assert any("Confidence intervals not available" in n for n in got.notes)
    for m in ("observed_expected", "c_statistic", "calibration_slope"):
        assert exp.confidence_interval(metric=m) is None
        assert got.confidence_interval(metric=m) is None


# ------------------------------------------------ refusals name the dask argument
def test_a_refusal_names_the_dask_argument(sync):
    """Numpy forecasts beside dask groups or weights: the declared TypeError
    names the dask argument (it named y_proba, which was a numpy array)."""
    from skbrier.metrics.calibration_curves import flexible_calibration_curve
    from skbrier.metrics.subgroups import calibration_by_group

    y, p, w = _data()
    (dw,) = _arrays(w)
    groups = _frame_column(np.arange(N) % 3)
    with pytest.raises(
        TypeError, match="^groups: calibration_by_group does not accept Dask"
    ):
        calibration_by_group(y, p, groups=groups)
    with pytest.raises(
        TypeError, match="^sample_weight: flexible_calibration_curve does not accept Dask"
    ):
        flexible_calibration_curve(y, p, sample_weight=dw)
    (dp,) = _arrays(p)  # dask forecasts: named as before
    with pytest.raises(TypeError, match="^y_proba: calibration_by_group does not accept"):
        calibration_by_group(y, dp, groups=groups)


def test_report_sample_size_is_the_whole_data_not_the_subsample(sync, monkeypatch):
    """Frequency weights summing to 4 over 400 rows: the in-memory report has
    its intervals; the Dask report checked the subsample's total (100 rows,
    1.0) and gave none."""
    from skbrier._backends._dask import _report

    monkeypatch.setattr(_report, "SUBSAMPLE_SIZE", 100)
    y, p, _ = _data()
    w = np.full(N, 0.01)
    dy, dp, dw = _arrays(y, p, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = calibration_report(y, p, sample_weight=w)
        got = calibration_report(dy, dp, sample_weight=dw)
    assert not any("Confidence intervals not available" in n for n in got.notes)
    for m in ("observed_expected", "brier_score"):
        assert tuple(got.confidence_interval(metric=m)) == pytest.approx(
            tuple(exp.confidence_interval(metric=m)), rel=1e-12
        )


@pytest.mark.parametrize("kind", ["numpy", "array", "frame"])
def test_compare_accepts_a_column_vector_as_in_memory(sync, kind):
    """A second forecaster of shape (n, 1) is 1-D, as in memory (refused:
    'y_proba_a has shape (400,) but y_proba_b has shape (400, 1)')."""
    y, p, w = _data()
    q = np.round(np.random.default_rng(2).random(N), 2)[:, None]
    dy, dp, dw = _arrays(y, p, w)
    dq = {
        "numpy": q,
        "array": _arrays(q)[0],
        "frame": dd.from_pandas(pd.DataFrame(q, columns=["q"]), npartitions=3),
    }[kind]
    exp = compare_brier(y, p, q, sample_weight=w)
    got = compare_brier(dy, dp, dq, sample_weight=dw)
    assert got.statistic == pytest.approx(exp.statistic, rel=1e-10)
    assert got.difference == pytest.approx(exp.difference, rel=1e-12)


@pytest.mark.parametrize("frame", [False, True])
def test_multiple_choice_of_one_choice_each(sync, frame):
    """Scores of shape (n, 1): the in-memory score (refused as 'ragged choice
    sets', though the input is 2-D)."""
    from skbrier.metrics.multiple_choice import multiple_choice_brier_score

    y = np.zeros(N, dtype=int)
    scores = np.full((N, 1), 0.8)
    if frame:
        dy = _frame_column(y)
        ds = dd.from_pandas(pd.DataFrame(scores, columns=["a"]), npartitions=3)
    else:
        dy, ds = _arrays(y, scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # rows not summing to one
        exp = multiple_choice_brier_score(y, scores)
        got = multiple_choice_brier_score(dy, ds)
    assert got == pytest.approx(exp, rel=1e-12)


def test_arrays_of_unknown_sizes_cut_differently_say_so(sync):
    """``.to_dask_array()`` of two frames partitioned differently: the
    partitions are paired by position, so the error says how to pass them
    (it said 'y_true has 133 samples but y_proba has 100' of 400 rows each)."""
    y, p, _ = _data()
    dy = dd.from_pandas(pd.Series(y), npartitions=3).to_dask_array()
    frame = dd.from_pandas(pd.Series(p), npartitions=1)
    dp = frame.repartition(divisions=[0, 50, 300, N - 1]).to_dask_array()
    with pytest.raises(
        ValueError, match=r"one partition holds y_true \d+ rows, y_proba \d+ rows"
    ) as e:
        skbrier.brier_score(dy, dp)
    assert "to_dask_array(lengths=True)" in str(e.value)
    # the remedy gives the in-memory number
    got = skbrier.brier_score(dy.compute_chunk_sizes(), dp.compute_chunk_sizes())
    assert got == pytest.approx(skbrier.brier_score(y, p), rel=1e-12)


@pytest.mark.parametrize("chunks", [(0,), (0, 0, 0)])
def test_no_rows_is_the_in_memory_error(sync, chunks):
    """Dask input of no rows: the in-memory 'y_proba is empty' (the merged
    state said 'y_true is empty')."""
    y, p = np.array([], dtype=int), np.array([])
    dy, dp = _arrays(y, p, chunks=chunks)
    for f in (skbrier.brier_score, murphy_decomposition, c_statistic, compare_brier):
        args = (y, p, p) if f is compare_brier else (y, p)
        with pytest.raises(ValueError) as exp:
            f(*args)
        dargs = (dy, dp, dp) if f is compare_brier else (dy, dp)
        with pytest.raises(ValueError) as got:
            f(*dargs)
        assert str(got.value) == str(exp.value)


def test_columns_of_one_frame_filtered_apart_say_so(sync):
    y, p, _ = _data()
    frame = dd.from_pandas(pd.DataFrame({"y": y, "p": p}), npartitions=3)
    with pytest.raises(ValueError, match="the columns hold different rows") as e:
        skbrier.brier_score(frame["y"][frame["p"] > 0.5], frame["p"])
    assert "filtered once" in str(e.value)
