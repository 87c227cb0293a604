"""calibration_report on dask input equals the in-memory report on the same
data (the exact sections to 1e-12; with fewer rows than the subsample size
every section, the lowess numbers included, uses all rows)."""

import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

from skbrier._backends._dask import _report  # noqa: E402
from skbrier.report import calibration_report  # noqa: E402
from skbrier.states import SampleState  # noqa: E402

CHUNKS = (37, 0, 150, 1, 0, 212)
N = sum(CHUNKS)

EXACT_FIELDS = (
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
)


def _data(seed=0, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(N), 2)
    y01 = rng.random(N) < p
    y01[:37] = True
    y = np.where(y01, labels[1], labels[0])
    w = rng.integers(0, 4, N).astype(float)
    return y, p, w


def _cmp(got, exp, *, all_rows=True):
    for f in EXACT_FIELDS:
        a, b = getattr(got, f), getattr(exp, f)
        if b is None:
            assert a is None, f
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=f)
    for f in ("calibration_in_the_large", "calibration_intercept", "calibration_slope"):
        np.testing.assert_allclose(getattr(got, f), getattr(exp, f), rtol=1e-10, err_msg=f)
    for m, ci in exp.intervals.items():
        if ci is None:
            assert got.intervals[m] is None
        else:
            np.testing.assert_allclose(tuple(got.intervals[m]), tuple(ci), rtol=1e-12)
    for key, terms in (exp.decomposition or {}).items():
        for t, v in terms.items():
            np.testing.assert_allclose(got.decomposition[key][t], v, rtol=1e-12, atol=1e-15)
    for a, b in zip(got.net_benefit or [], exp.net_benefit or []):
        for k in b:
            np.testing.assert_allclose(a[k], b[k], rtol=1e-12, atol=1e-15)
    if all_rows:
        for f in ("emax", "e90", "eavg"):
            b = getattr(exp, f)
            assert (getattr(got, f) is None) == (b is None)
            if b is not None:
                np.testing.assert_allclose(getattr(got, f), b, rtol=1e-12)
        for m in ("c_statistic", "observed_expected"):
            np.testing.assert_allclose(
                tuple(got.confidence_interval(metric=m)),
                tuple(exp.confidence_interval(metric=m)),
                rtol=1e-12,
            )


@pytest.fixture
def sync():
    with dask.config.set(scheduler="sync"):
        yield


def _check(weighted, labels=(0, 1), pos_label=None):
    y, p, w = _data(labels=labels)
    dy, dp, dw = (da.from_array(a, chunks=(CHUNKS,)) for a in (y, p, w))
    kw = {"thresholds": [0.1, 0.3], "pos_label": pos_label, "random_state": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = calibration_report(y, p, sample_weight=w if weighted else None, **kw)
        got = calibration_report(dy, dp, sample_weight=dw if weighted else None, **kw)
    _cmp(got, exp)
    assert got.summary()


@pytest.mark.parametrize("weighted", [False, True])
def test_report_equals_numpy_sync(sync, weighted):
    _check(weighted)


def test_report_string_labels(sync):
    _check(False, labels=("no", "yes"), pos_label="yes")


def test_report_dataframe_columns(sync):
    y, p, w = _data()
    df = dd.from_pandas(pd.DataFrame({"y": y, "p": p, "w": w}), npartitions=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = calibration_report(y, p, sample_weight=w, random_state=0)
        got = calibration_report(df["y"], df["p"], sample_weight=df["w"], random_state=0)
    _cmp(got, exp)


def test_report_subsample(sync, monkeypatch):
    """Above the subsample size: exact sections unchanged, lowess on the
    subsample with a note, reproducible with random_state."""
    monkeypatch.setattr(_report, "SUBSAMPLE_SIZE", 100)
    y, p, _ = _data()
    dy, dp = (da.from_array(a, chunks=(CHUNKS,)) for a in (y, p))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = calibration_report(y, p, random_state=0)
        got = calibration_report(dy, dp, random_state=1)
        again = calibration_report(dy, dp, random_state=1)
    _cmp(got, exp, all_rows=False)
    assert got.emax == again.emax and got._data[1].shape == (100,)
    assert any("subsample of 100 of the 400 rows" in n for n in got.notes)
    boot = calibration_report(dy, dp, cov_type="bootstrap", n_resamples=20, random_state=1)
    assert any(
        "bootstrap intervals are computed on a uniform subsample" in n for n in boot.notes
    )


@pytest.mark.parametrize(
    "kw",
    [
        {"cov_type": "hac"},
        {"cov_type": "bootstrap", "inference_kwds": {"bootstrap": "moving_block"}},
    ],
)
def test_report_refuses_time_ordered_intervals(sync, kw):
    # the merged sample holds the rows in the order of random keys, not in
    # time: HAC (and block bootstraps) on it gave intervals that changed with
    # the chunking and differed from the in-memory ones even on all rows
    y, p, _ = _data()
    dy, dp = (da.from_array(a, chunks=(CHUNKS,)) for a in (y, p))
    with pytest.raises(ValueError, match="not available for dask input.*in time order"):
        calibration_report(dy, dp, **kw)
    # refused before the pass over the data: nothing is computed
    with dask.config.set(scheduler=_no_compute):
        with pytest.raises(ValueError, match="in time order"):
            calibration_report(dy, dp, **kw)


def _no_compute(*args, **kwargs):
    raise AssertionError("the data were computed before the refusal")


def test_report_options_refused(sync):
    y, p, _ = _data()
    dy, dp = (da.from_array(a, chunks=(CHUNKS,)) for a in (y, p))
    with pytest.raises(ValueError, match="^strategy='quantile'"):
        calibration_report(dy, dp, strategy="quantile")
    with pytest.raises(ValueError, match="single class"):
        calibration_report(da.ones_like(dy), dp)


def test_sample_state_is_uniform_and_exact():
    rng = np.random.default_rng(3)
    p = rng.random(1000)
    y = (rng.random(1000) < p).astype(int)
    parts = [
        SampleState(50, seed=5).update(y[i : i + 100], p[i : i + 100])
        for i in range(0, 1000, 100)
    ]
    s = parts[0]
    for q in parts[1:]:
        s.merge(q)
    ys, ps, ws = s.sample()
    assert ps.shape == (50,) and ws is None
    assert np.isin(ps, p).all() and np.unique(ps).shape == (50,)
    n, wt, wy, wp, ptp = s.totals()
    assert (n, wt, wy) == (1000, 1000, y.sum())
    np.testing.assert_allclose(wp, p.sum(), rtol=1e-13)
    # merging in another order keeps the same rows
    t = parts[-1].__class__(50, seed=5)
    for q in reversed(
        [
            SampleState(50, seed=5).update(y[i : i + 100], p[i : i + 100])
            for i in range(0, 1000, 100)
        ]
    ):
        t.merge(q)
    np.testing.assert_array_equal(np.sort(t.sample()[1]), np.sort(ps))


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_report_equals_numpy_local_cluster():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        _check(True)


def _leaves(d, prefix=""):
    out = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update(_leaves(v, f"{prefix}{k}."))
    else:
        out[prefix] = d
    return out


def test_cli_engine_dask_equals_memory(tmp_path, capsys):
    """`skbrier report --engine dask DIR` on a Parquet dataset equals the
    in-memory CLI on the same rows (CSV), missing rows dropped in both."""
    import json

    from skbrier.cli import main

    pytest.importorskip("pyarrow")
    y, p, _ = _data()
    p = p * 100.0
    p[5] = np.nan
    frame = pd.DataFrame({"y": y, "p": p, "other": 1.0})
    (tmp_path / "ds").mkdir()
    for i, lo in enumerate((0, 100, 250)):
        frame.iloc[lo : lo + [100, 150, 150][i]].to_parquet(
            tmp_path / "ds" / f"{i}.parquet"
        )
    frame.to_csv(tmp_path / "all.csv", index=False)
    common = ["--y-col", "y", "--p-col", "p", "--percent", "--random-state", "0", "--json"]
    assert main(["report", "--engine", "dask", str(tmp_path / "ds"), *common]) == 0
    got = json.loads(capsys.readouterr().out)
    assert main(["report", str(tmp_path / "all.csv"), *common]) == 0
    exp = json.loads(capsys.readouterr().out)
    compared = 0
    for k, v in _leaves(exp).items():
        if isinstance(v, float) and "lowess" not in k:
            np.testing.assert_allclose(
                _leaves(got)[k], v, rtol=1e-11, atol=1e-14, err_msg=k
            )
            compared += 1
    assert compared >= 10 and got["n_samples"] == exp["n_samples"] == N - 1
    bad = [
        "report",
        "--engine",
        "dask",
        str(tmp_path / "ds"),
        "--y-col",
        "y",
        "--p-col",
        "q",
    ]
    assert main(bad) != 0
    assert "no column 'q' (columns: " in capsys.readouterr().err


@pytest.mark.parametrize(
    "y_kind", ["all_negative", "all_positive", "positive_weight_zero", "strings_one"]
)
def test_report_single_class_is_the_in_memory_error(sync, y_kind):
    """One class: the in-memory report's ValueError (was a bare StopIteration
    when no label was positive)."""
    y, p, w = _data()
    w = None
    pos_label = None
    if y_kind == "all_negative":
        y = np.zeros_like(y)
    elif y_kind == "all_positive":
        y = np.ones_like(y)
    elif y_kind == "positive_weight_zero":
        w = np.where(y == 1, 0.0, 1.0)
    else:
        y, pos_label = np.full(y.shape, "no"), "no"
    dy, dp = (da.from_array(a, chunks=(CHUNKS,)) for a in (y, p))
    dw = None if w is None else da.from_array(w, chunks=(CHUNKS,))
    with pytest.raises(ValueError) as exp:
        calibration_report(y, p, sample_weight=w, pos_label=pos_label)
    with pytest.raises(ValueError) as got:
        calibration_report(dy, dp, sample_weight=dw, pos_label=pos_label)
    assert str(got.value) == str(exp.value)
