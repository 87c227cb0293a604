"""Faults found by fuzzing the backends' boundary (Dask, Array API, the table
engines, the mergeable states) against the in-memory numpy result: each test
is a reproducer that failed before its fix."""

import re
import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")


@pytest.fixture
def sync():
    with dask.config.set(scheduler="sync"):
        yield


def test_platt_float32_forecasts_of_one_dask_equals_numpy(sync):
    # the dask adapter clipped float32 forecasts at 1 - 1e-12 in float32,
    # where it is 1: a forecast of 1 kept an infinite log-odds in the fit
    # (coef 0.45795 against 0.45815 in memory, 1-bin ECE 9.7e-7 against 0)
    from skbrier.metrics.recalibration import platt_calibration_error

    p = np.array([0.8, 0.8, 0.5, 0.3, 0.1, 0.4, 0.4, 0, 0, 1, 0.7, 0.2, 0.4], np.float32)
    y = np.array([0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0], bool)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = platt_calibration_error(y, p)
        got = platt_calibration_error(
            da.from_array(y, chunks=4), da.from_array(p, chunks=4)
        )
    for name in ("coef", "intercept", "calibration_error", "calibration_error_before"):
        assert getattr(got, name) == pytest.approx(getattr(expected, name), rel=1e-12)
    assert got.calibration_error_1_bin == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize("multiclass", [False, True])
def test_state_skill_of_a_zero_reference_warns_as_in_memory(multiclass):
    # BrierState.skill and MulticlassBrierState.skill returned NaN silently
    # when the reference scores 0 (one class only), where brier_skill_score
    # (and RankedProbabilityState.skill) give an UndefinedMetricWarning
    from sklearn.exceptions import UndefinedMetricWarning

    from skbrier import brier_skill_score
    from skbrier.states import BrierState, MulticlassBrierState

    y = np.ones(6, int)
    p = np.linspace(0.1, 0.9, 6)
    if multiclass:
        p = np.c_[1 - p, p / 2, p / 2]
        state = MulticlassBrierState(labels=[0, 1, 2])
        kw = {"labels": [0, 1, 2]}
    else:
        state, kw = BrierState(), {}
    state.update(y[:2], p[:2]).merge(
        type(state)(**state.get_options()).update(y[2:], p[2:])
    )
    with pytest.warns(UndefinedMetricWarning, match="brier_skill_score is undefined"):
        assert np.isnan(brier_skill_score(y, p, **kw))
    with pytest.warns(UndefinedMetricWarning, match="brier_skill_score is undefined"):
        assert np.isnan(state.skill())


@pytest.mark.parametrize("multiclass", [False, True])
def test_dask_skill_of_a_zero_reference_warns_once(sync, multiclass):
    from sklearn.exceptions import UndefinedMetricWarning

    from skbrier import brier_skill_score

    y = np.ones(6, int)
    p = np.linspace(0.1, 0.9, 6)
    kw = {}
    if multiclass:
        p, kw = np.c_[1 - p, p], {"labels": [0, 1]}
    dp = da.from_array(p, chunks=(2,) + p.shape[1:])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.isnan(brier_skill_score(da.from_array(y, chunks=2), dp, **kw))
    assert [type(w.message) for w in caught] == [UndefinedMetricWarning]


def _engine_frames(columns):
    """The rows as a Polars DataFrame, LazyFrame and DuckDB relation."""
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    df = pl.DataFrame(columns)
    return {"polars": df, "lazy": df.lazy(), "duckdb": duckdb.from_arrow(df.to_arrow())}


def _engine(name):
    from skbrier.engines import duckdb as sbd
    from skbrier.engines import polars as sbp

    return sbd if name == "duckdb" else sbp


@pytest.mark.parametrize("engine", ["polars", "lazy", "duckdb"])
@pytest.mark.parametrize("column", ["p", "w", "y"])
def test_engines_refuse_nested_columns_naming_the_parameter(engine, column):
    # a column of lists (2-D class probabilities, as predict_proba gives)
    # reached the engine's cast: Polars' InvalidOperationError ("cannot cast
    # List type"), DuckDB's ConversionException, or for y a bare "TypeError:
    # unhashable type: 'list'"
    y, p, w = [0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], [1.0, 2.0, 1.0, 1.0]
    nested = {"p": [[1 - v, v] for v in p], "w": [[v] for v in w], "y": [[v] for v in y]}
    frame = _engine_frames({"y": y, "p": p, "w": w, **{column: nested[column]}})[engine]
    name = {"p": "p='p'", "w": "weight='w'", "y": "y='y'"}[column]
    for stat in ("brier_score", "murphy_decomposition", "decision_curve"):
        with pytest.raises(TypeError, match=f"{re.escape(name)} holds nested values"):
            getattr(_engine(engine), stat)(frame, "y", "p", "w")


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_engines_refuse_dates_durations_and_json_as_forecasts(engine):
    # a DATE forecast gave DuckDB's ConversionException, a Polars Duration
    # was cast to a number and scored (a Brier score of 1.0), DuckDB's JSON
    # text '0.5' was parsed and scored 0.25: numbers only, as in memory
    import datetime as dt

    from skbrier.exceptions import HardForecastWarning

    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    if engine == "duckdb":
        sql = (
            "SELECT 1 AS y, DATE '2020-01-01' AS p",
            "SELECT 1 AS y, INTERVAL 1 DAY AS p",
            "SELECT 1 AS y, '0.5'::JSON AS p",
        )
        frames = [duckdb.sql(q) for q in sql]
        # arbitrary-precision integers are numbers (cast to DOUBLE as before)
        big = duckdb.sql("SELECT 1 AS y, 1::BIGNUM AS p UNION ALL SELECT 0, 0::BIGNUM")
        with pytest.warns(HardForecastWarning):
            assert _engine(engine).brier_score(big, "y", "p") == 0.0
    else:
        frames = [
            pl.DataFrame({"y": [1], "p": [dt.date(2020, 1, 1)]}),
            pl.DataFrame({"y": [1], "p": [dt.timedelta(0)]}),
        ]
    for frame in frames:
        with pytest.raises(TypeError, match="p='p' holds .*it must hold numbers"):
            _engine(engine).brier_score(frame, "y", "p")


@pytest.mark.parametrize("engine", ["polars", "lazy", "duckdb", "expr"])
@pytest.mark.parametrize("stat", ["brier_score", "brier_skill_score"])
def test_engines_refuse_subnormal_weights_as_the_states_do(engine, stat):
    # weights of 5e-324 (their mean subnormal): every product w * (p - y)^2
    # underflowed to 0 in the engines' sums and brier_score gave 0.0 (the
    # skill score 1.0) where the in-memory score is 0.0456; the states (and
    # so Dask and the engines' other statistics) refuse such weights
    y = [0, 1, 1, 0, 1, 0]
    p = [0.1, 0.8, 0.6, 0.3, 0.9, 0.2]
    w = [5e-324, 1e-323, 5e-324, 5e-324, 1.5e-323, 5e-324]
    frames = _engine_frames({"y": y, "p": p, "w": w})
    match = "the weights average .* below the smallest normal float"
    with pytest.raises(ValueError, match=match):
        if engine == "expr":
            from skbrier.engines import polars as sbp

            frames["polars"].select(getattr(sbp, stat + "_expr")("y", "p", "w")).item()
        else:
            getattr(_engine(engine), stat)(frames[engine], "y", "p", "w")
    # weights of 1e-300 (a normal mean) are scored as in memory
    from skbrier import brier_score

    scaled = [v * 2.0**-996 * 1e6 for v in (1, 2, 1, 1, 3, 1)]
    frames = _engine_frames({"y": y, "p": p, "w": scaled})
    expected = brier_score(y, p, sample_weight=[1, 2, 1, 1, 3, 1])
    got = _engine("duckdb" if engine == "duckdb" else "polars").brier_score(
        frames["duckdb" if engine == "duckdb" else "polars"], "y", "p", "w"
    )
    assert got == pytest.approx(expected, rel=1e-12)


def test_overflowing_weights_get_the_in_memory_error_without_numpy_warnings(sync):
    # four finite weights of 1e308 sum past the largest float: the states said
    # "sample_weight contains infinity" (none does), Dask's tree merge of the
    # bins leaked numpy's "RuntimeWarning: overflow encountered in add", and
    # the engines' fill of the states "overflow encountered in multiply"
    from skbrier import brier_score, murphy_decomposition
    from skbrier.states import BrierState

    y, p = np.array([0, 1, 1, 0]), np.array([0.1, 0.8, 0.6, 0.3])
    w = np.full(4, 1e308)
    message = "sample_weight sums to more than 1.798e.308, the largest float"
    frames = _engine_frames({"y": y, "p": p, "w": w})
    dy, dp, dw = (da.from_array(a, chunks=1) for a in (y, p, w))
    calls = [
        lambda: brier_score(y, p, sample_weight=w),
        lambda: BrierState().update(y, p, w).finalize(),
        lambda: murphy_decomposition(dy, dp, sample_weight=dw),
        lambda: brier_score(dy, dp, sample_weight=dw),
    ]
    for engine in ("polars", "duckdb"):
        for stat in ("brier_score", "murphy_decomposition", "decision_curve"):
            calls.append(
                lambda e=engine, s=stat: getattr(_engine(e), s)(frames[e], "y", "p", "w")
            )
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for call in calls:
            with pytest.raises(ValueError, match=message):
                call()


@pytest.fixture(scope="module")
def spark():
    from spark_session import session

    yield from session()


@pytest.mark.slow
def test_spark_subnormal_weights_and_nested_columns(spark):
    # Spark's aggregations of the Brier family summed w * (p - y)^2 with
    # weights of 5e-324 to 0 (brier_score 0.0, skill 1.0; in memory 0.0583);
    # a column of arrays was called "ragged (rows of different lengths)"
    from skbrier.engines import spark as sbs

    y, p = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.9, 0.2]
    df = spark.createDataFrame([(a, b, 5e-324) for a, b in zip(y, p)], ["y", "p", "w"])
    for stat in ("brier_score", "brier_skill_score", "brier_index"):
        with pytest.raises(ValueError, match="the weights average .* smallest normal"):
            getattr(sbs, stat)(df, "y", "p", "w")
    nested = spark.createDataFrame([(0, [0.9, 0.1]), (1, [0.2, 0.8])], ["y", "p"])
    with pytest.raises(TypeError, match="p='p' holds nested values"):
        sbs.brier_score(nested, "y", "p")
    labels = spark.createDataFrame([([0], 0.1), ([1], 0.8)], ["y", "p"])
    with pytest.raises(TypeError, match="y='y' holds nested values"):
        sbs.murphy_decomposition(labels, "y", "p")


def test_dask_frame_of_extra_columns_gets_the_in_memory_advice(sync):
    # a DataFrame of two columns whose rows do not sum to one: in memory the
    # warning says to pass only the probability column; the states (so Dask)
    # gave only "The rows of y_proba do not sum to one"
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    from skbrier import brier_score, calibration_error
    from skbrier.states import MulticlassBrierState

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 20)
    p = np.round(rng.random(20), 2)
    frame = pd.DataFrame({"p": p, "r": p / 2})
    dy, dframe = dd.from_pandas(pd.Series(y), npartitions=3), dd.from_pandas(frame, 3)
    advice = r"y_proba has columns \['p', 'r'\]: for a binary forecast pass only"
    with pytest.warns(UserWarning, match=advice):
        brier_score(y, frame)
    with pytest.warns(UserWarning, match=advice):
        brier_score(dy, dframe)
    with pytest.warns(UserWarning, match=advice):
        calibration_error(dy, dframe, kind="top_label")
    state = MulticlassBrierState().update(y[:5], frame.to_numpy()[:5])
    state.merge(MulticlassBrierState().update(y[5:], frame[5:]))
    with pytest.warns(UserWarning, match=advice):
        state.finalize()


def test_two_estimators_without_rows_merge_to_a_neutral_one():
    # BrierDecomposition: an estimator without rows merged with a fitted one
    # (either side) was neutral, but two without rows raised NotFittedError,
    # so a tree of merges over chunks where two empty ones meet failed
    from skbrier.decomposition import BrierDecomposition

    y, p = np.array([0, 1, 1, 0]), np.array([0.1, 0.8, 0.6, 0.3])

    def make():
        return BrierDecomposition(decomposition_method="murphy", n_bins=4)

    empty = make().merge(make())
    assert not hasattr(empty, "decomposition_")
    got = make().partial_fit(y, p).merge(empty).decomposition_
    assert got == make().fit(y, p).decomposition_
    with pytest.raises(ValueError, match="n_bins"):
        make().merge(BrierDecomposition(decomposition_method="murphy", n_bins=5))


def test_merge_error_shows_options_that_differ_beyond_four_digits():
    # the message showed both values rounded to 4 digits, the same on both
    # sides: "thresholds=[0.1, 0.2] with thresholds=[0.1, 0.2]"
    from skbrier.states import BinnedState, ThresholdState

    with pytest.raises(ValueError, match=r"\[0\.1, 0\.2\]\) with .*\[0\.1, 0\.2000001\]"):
        ThresholdState([0.1, 0.2]).merge(ThresholdState(np.array([0.1, 0.2000001])))
    edges = np.linspace(0.0, 1.0, 6)
    with pytest.raises(ValueError, match=r"0\.200000001"):
        BinnedState(edges).merge(BinnedState(edges + np.r_[0, 1e-9, 0, 0, 0, 0]))
    # values that differ in the first 4 digits keep the short form
    with pytest.raises(ValueError, match=r"thresholds=\[0\.1, 0\.3\]\)"):
        ThresholdState([0.1, 0.2]).merge(ThresholdState([0.1, 0.3]))
