"""skbrier.engines.spark equals the numpy path on the same rows (1e-12), with
empty, one-row and single-class partitions and groups; bad input in one
partition raises the in-memory error; the report is one Spark job."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

from spark_session import frame, session

import skbrier
from skbrier.metrics.calibration import c_statistic as np_c
from skbrier.metrics.calibration import spiegelhalter_z as np_sz
from skbrier.metrics.calibration_error import calibration_error as np_ece
from skbrier.metrics.decomposition import binned_statistics
from skbrier.metrics.decomposition import corp_decomposition as np_corp
from skbrier.metrics.decomposition import murphy_decomposition as np_murphy
from skbrier.metrics.net_benefit import decision_curve as np_curve
from skbrier.metrics.net_benefit import net_benefit as np_nb
from skbrier.report import calibration_report as np_report
from skbrier.stats import brier_inference as np_inference
from skbrier.stats import compare_brier as np_compare

#: partitions: all events, empty, 150 rows, one row, empty, 212 rows
SIZES = (37, 0, 150, 1, 0, 212)
N = sum(SIZES)
RTOL = 1e-12


@pytest.fixture(scope="module")
def spark():
    yield from session()


def _data(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(N), 2)
    y = (rng.random(N) < p).astype(np.int64)
    y[:37] = 1
    g = np.array(["b"] * N, dtype=object)
    g[:37] = "events"  # a single-class group
    g[37:187] = "a"
    g[187] = "one"  # a one-row group
    return pd.DataFrame(
        {
            "y": y,
            "p": p,
            "w": rng.integers(0, 4, N).astype(float),
            "g": g,
            "r": np.round(rng.random(N), 3),
            "q": np.clip(p + rng.normal(0, 0.1, N), 0, 1),
            "s": np.where(y == 1, "yes", "no"),
        }
    )


@pytest.fixture(scope="module")
def data(spark):
    pdf = _data()
    return pdf, frame(spark, pdf, SIZES).cache()


def _close(a, b, **kw):
    np.testing.assert_allclose(a, b, rtol=RTOL, atol=1e-15, **kw)


def _sbs():
    from skbrier.engines import spark as sbs

    return sbs


# the unweighted case in the slow step (the README suite stays under 8 minutes)
@pytest.mark.parametrize("weighted", [pytest.param(False, marks=pytest.mark.slow), True])
def test_brier_family(data, weighted):
    sbs = _sbs()
    pdf, df = data
    w, sw = ("w", pdf.w) if weighted else (None, None)
    _close(
        sbs.brier_score(df, "y", "p", w),
        skbrier.brier_score(pdf.y, pdf.p, sample_weight=sw),
    )
    _close(
        sbs.brier_index(df, "y", "p", w),
        skbrier.brier_index(pdf.y, pdf.p, sample_weight=sw),
    )
    for ref, np_ref in ((None, None), (0.3, 0.3), ("r", pdf.r)):
        got = sbs.brier_skill_score(df, "y", "p", w, reference=ref)
        exp = skbrier.brier_skill_score(pdf.y, pdf.p, reference=np_ref, sample_weight=sw)
        _close(got, exp, err_msg=str(ref))
    # labels that are not 0/1: the states (one mapInArrow) instead of the sums
    got = sbs.brier_skill_score(df, "s", "p", w, pos_label="yes")
    exp = skbrier.brier_skill_score(pdf.s, pdf.p, pos_label="yes", sample_weight=sw)
    _close(got, exp)


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_states_equal_numpy(data):
    sbs = _sbs()
    pdf, df = data
    y, p, w = pdf.y, pdf.p, pdf.w
    _close(sbs.calibration_error(df, "y", "p", "w"), np_ece(y, p, sample_weight=w))
    kw = {"norm": "l2", "debias": True, "binning": "sklearn"}
    _close(
        sbs.calibration_error(df, "y", "p", "w", **kw), np_ece(y, p, sample_weight=w, **kw)
    )
    bins = sbs.calibration_bins(df, "y", "p", "w", n_bins=7)
    exp_bins = binned_statistics(y.to_numpy(float), p.to_numpy(), w.to_numpy(), 7)
    for f in ("count", "sum_w", "sum_wp", "sum_wy", "sum_wpp", "sum_ww"):
        _close(getattr(bins, f), getattr(exp_bins, f), err_msg=f)
    m = sbs.murphy_decomposition(df, "y", "p", "w", bias_correction=True)
    em = np_murphy(y, p, sample_weight=w, bias_correction=True)
    for f in ("brier_score", "reliability", "resolution", "uncertainty"):
        _close(getattr(m, f), getattr(em, f), err_msg=f)
    c = sbs.corp_decomposition(df, "y", "p", "w")
    ec = np_corp(y, p, sample_weight=w)
    for f in ("brier_score", "miscalibration", "discrimination", "uncertainty"):
        _close(getattr(c, f), getattr(ec, f), err_msg=f)
    _close(c.recalibrated_values, ec.recalibrated_values)
    _close(sbs.c_statistic(df, "y", "p", "w"), np_c(y, p, sample_weight=w))
    _close(
        tuple(sbs.spiegelhalter_z(df, "y", "p", "w")), tuple(np_sz(y, p, sample_weight=w))
    )
    _close(
        sbs.net_benefit(df, "y", "p", "w", threshold=0.3),
        np_nb(y, p, threshold=0.3, sample_weight=w),
    )
    t = [0.05, 0.2, 0.5]
    got = sbs.decision_curve(
        df, "y", {"m": "p", "q": "q"}, "w", thresholds=t, harm={"q": 0.01}
    )
    exp = np_curve(y, {"m": p, "q": pdf.q}, thresholds=t, sample_weight=w, harm={"q": 0.01})
    for name in ("m", "q"):
        _close(got.net_benefit[name], exp.net_benefit[name])
    _close(got.treat_all, exp.treat_all)


def test_inference_equals_numpy(data):
    sbs = _sbs()
    pdf, df = data
    for ref, np_ref in ((None, None), ("r", pdf.r)):
        got = sbs.brier_inference(df, "y", "p", "w", reference=ref)
        exp = np_inference(pdf.y, pdf.p, reference=np_ref, sample_weight=pdf.w)
        for m in ("brier_score", "brier_skill_score", "brier_index"):
            _close(got.confidence_interval(metric=m), exp.confidence_interval(metric=m))
    got = sbs.compare_brier(df, "y", "p", "q", "w")
    exp = np_compare(pdf.y, {"p": pdf.p, "q": pdf.q}, sample_weight=pdf.w)
    for f in ("difference", "difference_standard_error", "statistic", "pvalue"):
        _close(getattr(got, f), getattr(exp, f), err_msg=f)
    with pytest.raises(ValueError, match="cov_type='hac' is not available on a Spark"):
        sbs.brier_inference(df, cov_type="hac")


def _jobs(spark, func):
    """``(result, number of Spark jobs func ran)``."""
    sc = spark.sparkContext
    group = f"skbrier-count-{next(_GROUPS)}"
    sc.setJobGroup(group, "counting jobs")
    try:
        out = func()
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)
    return out, len(sc.statusTracker().getJobIdsForGroup(group))


_GROUPS = itertools.count()


def test_score_is_one_job(spark, data):
    sbs = _sbs()
    pdf, df = data
    metrics = ["brier_score", "brier_skill_score", "c_statistic", "spiegelhalter_z"]
    got, jobs = _jobs(spark, lambda: sbs.score(df, "y", "p", "w", metrics=metrics))
    assert jobs == 1
    y, p, w = pdf.y, pdf.p, pdf.w
    _close(got["brier_score"], skbrier.brier_score(y, p, sample_weight=w))
    _close(got["brier_skill_score"], skbrier.brier_skill_score(y, p, sample_weight=w))
    _close(got["c_statistic"], np_c(y, p, sample_weight=w))
    _close(got["spiegelhalter_z"].statistic, np_sz(y, p, sample_weight=w).statistic)


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_group_by(data):
    sbs = _sbs()
    pdf, df = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the skill of the single-class group: NaN
        bs = sbs.brier_score(df, "y", "p", "w", group_by="g")  # Spark's sums
        murphy = sbs.murphy_decomposition(df, "y", "p", group_by=["g"])  # the states
        skill = sbs.score(
            df, "s", "p", metrics=["brier_skill_score"], group_by="g", pos_label="yes"
        )
    assert list(bs) == ["a", "b", "events", "one"]
    assert list(murphy) == list(bs)  # one column (alone or in a list): its values
    for g, rows in pdf.groupby("g"):
        _close(bs[g], skbrier.brier_score(rows.y, rows.p, sample_weight=rows.w), err_msg=g)
        _close(murphy[g].resolution, np_murphy(rows.y, rows.p).resolution, err_msg=g)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = skbrier.brier_skill_score(rows.s, rows.p, pos_label="yes")
        _close(skill[g]["brier_skill_score"], exp, err_msg=g)
    assert np.isnan(skill["events"]["brier_skill_score"])
    # an error of one group's result names the group (the skill interval of
    # the single-class group: the in-memory message did not say which)
    rows = pdf[pdf.g == "events"]
    with pytest.raises(ValueError) as memory:
        np_inference(rows.y, rows.p)
    with pytest.raises(ValueError) as got:
        sbs.brier_inference(df, "y", "p", group_by="g")
    want = f"{_message(memory)} (In the group ['g']='events' of the Spark DataFrame.)"
    assert _message(got) == want
    # the report of that group: the in-memory SingleClassError (the command
    # line catches its class), naming the group
    from skbrier.report._compute import SingleClassError

    with pytest.raises(SingleClassError, match=r"\['g'\]='events' of the Spark"):
        sbs.calibration_report(df.filter(df.g == "events"), group_by="g")


def _message(exc_info) -> str:
    return str(exc_info.value)


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_bad_input_in_one_partition(spark):
    sbs = _sbs()
    pdf = _data()
    start = SIZES[0] + SIZES[2] + SIZES[3]  # the last partition
    for col, value in (("p", 1.5), ("p", np.nan), ("w", -1.0)):
        bad = pdf.copy()
        bad.loc[start + 5, col] = value
        df = frame(spark, bad, SIZES)
        part = bad.iloc[start:]
        with pytest.raises(ValueError) as memory:
            skbrier.brier_score(part.y, part.p, sample_weight=part.w)
        with pytest.raises(ValueError) as got:
            sbs.brier_score(df, "y", "p", "w")
        assert _message(got).startswith(_message(memory)), col
        assert "y_proba is column 'p'" in _message(got)
        assert "within one partition" in _message(got) or "index" not in _message(memory)
    # the same column twice: the in-memory error of identical forecasts
    with pytest.raises(ValueError) as memory:
        skbrier.compare_brier(pdf.y, pdf.p, pdf.p)
    with pytest.raises(ValueError) as got:
        sbs.compare_brier(frame(spark, pdf, SIZES), "y", "p", "p")
    assert _message(got).split(":")[1] == _message(memory).split(":")[1]
    # counts without an index: said to be one partition's too
    with pytest.raises(ValueError, match="must cover the forecasts") as got:
        sbs.murphy_decomposition(frame(spark, pdf, SIZES), strategy=[0.1, 0.5, 1.0])
    assert "within one partition" in _message(got)
    three = pdf.copy()
    three.loc[3, "y"] = 2
    with pytest.raises(ValueError) as memory:
        skbrier.brier_score(three.y, three.p)
    with pytest.raises(ValueError) as got:
        sbs.brier_score(frame(spark, three, SIZES), "y", "p")
    # the labels: the in-memory message, with the rows counted over all partitions
    head = _message(memory).split(" 3 labels")[0]
    assert _message(got).startswith(head + " 3 labels (rows counted over all chunks)")
    assert "0 (170 rows), 1 (229 rows), 2 (1 row)" in _message(got)


def test_empty_and_columns(spark, data):
    sbs = _sbs()
    pdf, df = data
    with pytest.raises(ValueError) as memory:
        skbrier.brier_score(np.array([], dtype=np.int64), np.array([]))
    with pytest.raises(ValueError) as got:
        sbs.brier_score(df.limit(0), "y", "p")
    assert _message(got).startswith(_message(memory))
    with pytest.raises(TypeError, match="df must be a Spark DataFrame"):
        sbs.brier_score(pdf, "y", "p")
    with pytest.raises(ValueError, match="p='nope' is not a column"):
        sbs.brier_score(df, "y", "nope")
    with pytest.raises(TypeError, match="weight must be the name of a column"):
        sbs.brier_score(df, "y", "p", 3)
    with pytest.raises(ValueError, match="strategy='quantile' is not available"):
        sbs.murphy_decomposition(df, strategy="quantile")
    # a Spark column as group_by (was "Column is not iterable")
    from pyspark.sql import functions as F

    with pytest.raises(TypeError, match="group_by must be a column name .* got Column"):
        sbs.brier_score(df, group_by=F.col("g"))


EXACT = (
    "n_samples",
    "n_events",
    "prevalence",
    "mean_forecast",
    "brier_score",
    "brier_index",
    "brier_skill_score",
    "spiegelhalter_z",
    "spiegelhalter_p",
    "ece",
    "c_statistic",
    "dxy",
    "observed_expected",
    "discrimination_pvalue",
    "unreliability_df",
    "emax",
    "e90",
    "eavg",
)
LOGISTIC = ("calibration_in_the_large", "calibration_intercept", "calibration_slope")


def _cmp_report(got, exp, fields=EXACT, decomposition=True):
    for f in fields:
        a, b = getattr(got, f), getattr(exp, f)
        assert (a is None) == (b is None), f
        if b is not None:
            _close(a, b, err_msg=f)
    for f in LOGISTIC:
        np.testing.assert_allclose(getattr(got, f), getattr(exp, f), rtol=1e-10, err_msg=f)
    for m, ci in exp.intervals.items():
        assert (got.intervals[m] is None) == (ci is None), m
        if ci is not None:
            _close(tuple(got.intervals[m]), tuple(ci), err_msg=m)
    for key, terms in (exp.decomposition or {}).items() if decomposition else ():
        for t, v in terms.items():
            _close(got.decomposition[key][t], v, err_msg=t)
    for a, b in zip(got.net_benefit or [], exp.net_benefit or []):
        for k in b:
            _close(a[k], b[k], err_msg=k)


@pytest.mark.parametrize("labels", ["y", "s"])
def test_report_one_job(spark, data, labels):
    sbs = _sbs()
    pdf, df = data
    pos = "yes" if labels == "s" else None
    weight = "w" if labels == "y" else None
    kw = {"thresholds": [0.1, 0.3], "random_state": 0, "pos_label": pos}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = np_report(
            pdf[labels], pdf.p, sample_weight=None if weight is None else pdf.w, **kw
        )
        got, jobs = _jobs(
            spark, lambda: sbs.calibration_report(df, labels, "p", weight, **kw)
        )
    assert jobs == 1
    _cmp_report(got, exp)
    assert got.summary()


def _dask_report(y, p, w, **kw):
    da = pytest.importorskip("dask.array")
    chunks = 100
    return np_report(
        da.from_array(np.asarray(y), chunks=chunks),
        da.from_array(np.asarray(p, dtype=float), chunks=chunks),
        sample_weight=None if w is None else da.from_array(np.asarray(w), chunks=chunks),
        **kw,
    )


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
@pytest.mark.parametrize("weight", [None, "w"])
def test_report_continuous_forecasts_rounded(spark, data, monkeypatch, weight):
    """More distinct forecasts per class than the ``resolution="auto"`` table
    keeps (the cap set to 10, so every large partition emits its rounded
    table): C and CORP equal the in-memory ``resolution="auto"`` numbers and
    Dask's report, with the note; the logistic fit reads the rows (one job per
    solver step) and every other section equals the in-memory report."""
    from skbrier._core import binning

    sbs = _sbs()
    pdf, df = data
    monkeypatch.setattr(binning, "AUTO_MAX_DISTINCT", 10)
    assert pdf.q[pdf.y == 0].nunique() > 10 and pdf.q[pdf.y == 1].nunique() > 10
    sw = None if weight is None else pdf.w
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = np_report(pdf.y, pdf.q, sample_weight=sw, random_state=0)
        dsk = _dask_report(pdf.y, pdf.q, sw, random_state=0)
        got, jobs = _jobs(
            spark, lambda: sbs.calibration_report(df, "y", "q", weight, random_state=0)
        )
    assert jobs > 1  # one pass for the states, then one per step of the fit
    rounded = ("c_statistic", "dxy")
    _cmp_report(got, exp, [f for f in EXACT if f not in rounded], decomposition=False)
    _close(got.c_statistic, np_c(pdf.y, pdf.q, sample_weight=sw, resolution="auto"))
    corp = np_corp(pdf.y, pdf.q, sample_weight=sw, resolution="auto")
    _close(got.decomposition["corp"]["miscalibration"], corp.miscalibration)
    _close(got.decomposition["corp"]["discrimination"], corp.discrimination)
    _cmp_report(got, dsk, rounded + ("brier_score",))
    assert any("rounded to multiples of 1e-06" in n for n in got.notes)


@pytest.mark.slow  # 12 s: the per-group variant of the test above (CI runs it with -m slow)
def test_report_rounded_per_group(spark, data, monkeypatch):
    """``group_by`` with tables beyond the cap: each group's logistic fit reads
    that group's rows only, equal to the in-memory report of the group."""
    from pyspark.sql import functions as F

    from skbrier._core import binning

    sbs = _sbs()
    pdf, df = data
    monkeypatch.setattr(binning, "AUTO_MAX_DISTINCT", 10)
    two = df.filter(F.col("g").isin("a", "b"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sbs.calibration_report(two, "y", "q", "w", group_by="g", random_state=0)
        for g in ("a", "b"):
            sub = pdf[pdf.g == g]
            exp = np_report(sub.y, sub.q, sample_weight=sub.w, random_state=0)
            _cmp_report(got[g], exp, ("brier_score", "ece"), decomposition=False)
            assert any("rounded to multiples of" in n for n in got[g].notes)


@pytest.mark.parametrize("weight", [None, "w"])
def test_report_exact_table_one_job(spark, data, monkeypatch, weight):
    """``resolution=None``: the exact table of every distinct forecast, one
    Spark job, every exact section equal to numpy's, no note."""
    from skbrier._core import binning

    sbs = _sbs()
    pdf, df = data
    monkeypatch.setattr(binning, "AUTO_MAX_DISTINCT", 10)
    sw = None if weight is None else pdf.w
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = np_report(pdf.y, pdf.q, sample_weight=sw, random_state=0)
        got, jobs = _jobs(
            spark,
            lambda: sbs.calibration_report(
                df, "y", "q", weight, random_state=0, resolution=None
            ),
        )
    assert jobs == 1
    _cmp_report(got, exp)
    assert not any("rounded to multiples of" in n for n in got.notes)


def test_report_states_sent_in_pieces(spark, data, monkeypatch):
    """States longer than the row size the JVM is sent are cut into pieces
    and joined again: the same report."""
    from skbrier.engines import _spark_reduce

    sbs = _sbs()
    pdf, df = data
    monkeypatch.setattr(_spark_reduce, "_CHUNK", 100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = np_report(pdf.y, pdf.p, sample_weight=pdf.w, random_state=0)
        got = sbs.calibration_report(df, "y", "p", "w", random_state=0)
    _cmp_report(got, exp)


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_report_many_partitions_merged_on_executors(spark, data):
    """Forty partitions: the states are merged in a tree on the executors (the
    driver receives one merged state), still one job, equal to numpy."""
    sbs = _sbs()
    pdf, _ = data
    many = frame(spark, pdf, (10,) * 40)  # no shuffle: the input is not a job
    kw = {"thresholds": [0.2], "random_state": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = np_report(pdf.y, pdf.p, sample_weight=pdf.w, **kw)
        got, jobs = _jobs(spark, lambda: sbs.calibration_report(many, "y", "p", "w", **kw))
    assert jobs == 1
    _cmp_report(got, exp, [f for f in EXACT if f not in ("emax", "e90", "eavg")])


def test_table_cap_travels_with_the_state(monkeypatch):
    """The ``resolution="auto"`` cap is the one in force when the state was
    made: a pickled state (sent to a Spark worker) keeps it."""
    import pickle

    from skbrier._core import binning
    from skbrier.states import ForecastTable

    monkeypatch.setattr(binning, "AUTO_MAX_DISTINCT", 10)
    blob = pickle.dumps(ForecastTable(resolution="auto"))
    monkeypatch.setattr(binning, "AUTO_MAX_DISTINCT", 2**20)
    p = np.linspace(0.1, 0.9, 40) + 1e-9
    t = pickle.loads(blob).update(np.arange(40) % 2, p)
    assert t.rounded_to == binning.AUTO_RESOLUTION
    assert ForecastTable(resolution="auto").update(np.arange(40) % 2, p).rounded_to is None


@pytest.mark.parametrize(
    ("kw", "exc", "match"),
    [
        ({"resolution": "fine"}, ValueError, "resolution"),
        ({"resolution": 0.01}, TypeError, "resolution must be one of"),
        # the message says that None is allowed (it did not)
        ({"resolution": 0.01}, TypeError, r"one of \('auto',\) or None, got 0.01"),
        ({"resolution": "exact"}, ValueError, r"one of \('auto',\) or None, got 'exact'"),
        ({"sample_weight": "w"}, TypeError, "pass weight="),
        ({"bins": 5}, TypeError, "unexpected keyword argument 'bins'"),
        ({"strategy": "quantile"}, ValueError, "strategy='quantile' is not available"),
    ],
)
def test_report_options_checked(data, kw, exc, match):
    with pytest.raises(exc, match=match):
        _sbs().calibration_report(data[1], **kw)


def test_compare_brier_names_as_dask_and_memory(data):
    # Spark named the two forecasts after their columns ("p", "q"); Dask and
    # memory name two forecasts ("a", "b") unless names= says otherwise
    da = pytest.importorskip("dask.array")
    sbs = _sbs()
    pdf, df = data
    col = {c: da.from_array(pdf[c].to_numpy(), chunks=100) for c in ("y", "p", "q", "w")}
    for kw in ({}, {"names": ["model", "coin"]}):
        got = sbs.compare_brier(df, "y", "p", "q", "w", **kw)
        dsk = skbrier.compare_brier(
            col["y"], col["p"], col["q"], sample_weight=col["w"], **kw
        )
        mem = skbrier.compare_brier(pdf.y, pdf.p, pdf.q, sample_weight=pdf.w, **kw)
        assert got.names == dsk.names == mem.names == tuple(kw.get("names", ("a", "b")))
        assert got.better == dsk.better
        assert got.to_frame().columns.tolist() == dsk.to_frame().columns.tolist()
        assert got.to_frame().index.tolist() == dsk.to_frame().index.tolist()
        for f in ("difference", "difference_standard_error", "statistic", "pvalue"):
            _close(getattr(got, f), getattr(dsk, f), err_msg=f)
    halves = df.withColumn("h", df["w"] > 1)
    by = sbs.compare_brier(halves, "y", "p", "q", group_by="h", names=["m", "q"])
    assert list(by) == [False, True]
    assert {res.names for res in by.values()} == {("m", "q")}


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_report_delong_interval_of_the_whole_data(spark, monkeypatch):
    """The subsample's total weight under 3 (DeLong's variance undefined
    there) but the whole data's not: the interval of C is the in-memory one,
    DeLong's variance of all rows (from the table of distinct forecasts), as
    in the Dask report."""
    import functools

    from skbrier.report import _merged

    sbs = _sbs()
    small = functools.partial(_merged.templates, size=20)  # a subsample of 20 rows
    monkeypatch.setattr(_merged, "templates", small)
    rng = np.random.default_rng(0)
    p = np.round(rng.random(N), 3)
    y = (rng.random(N) < p).astype(np.int64)
    w = np.full(N, 1e-3)
    heavy = np.arange(0, N, N // 12)[:12]
    w[heavy] = 10.0
    y[heavy[:6]], y[heavy[6:]] = 1, 0
    pdf = pd.DataFrame({"y": y, "p": p, "w": w})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = np_report(y, p, sample_weight=w, random_state=0)
        got = sbs.calibration_report(
            frame(spark, pdf, SIZES), "y", "p", "w", random_state=0
        )
    assert got._data[2].sum() < 3 <= w.sum()
    ci = exp.confidence_interval(metric="c_statistic")
    assert ci is not None
    _close(tuple(got.confidence_interval(metric="c_statistic")), tuple(ci))
