"""One pass per statistic on dask input: the StateBundle, the precomputed
states of calibration_report, ``resolution=`` of the exact tables (CORP, C),
and the logistic fits that do not keep their rows in memory."""

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")

from skbrier._backends._dask import _fits, _graph  # noqa: E402
from skbrier._core import binning as _binning  # noqa: E402
from skbrier.metrics.calibration import (  # noqa: E402
    c_statistic,
    calibration_in_the_large,
    calibration_intercept_slope,
)
from skbrier.metrics.decomposition import corp_decomposition  # noqa: E402
from skbrier.report import calibration_report  # noqa: E402
from skbrier.states import (  # noqa: E402
    BinnedState,
    BrierState,
    ForecastTable,
    MomentState,
    SpiegelhalterState,
    StateBundle,
)

CHUNKS = (300, 0, 1, 450, 249)


@pytest.fixture(autouse=True)
def _sync():
    with dask.config.set(scheduler="synchronous"):
        yield


def _data(n=1000, seed=0, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    y = np.where(rng.random(n) < p, labels[1], labels[0])
    w = rng.integers(0, 4, n).astype(float)
    return y, p, w


def _dask(*arrays):
    return [None if a is None else da.from_array(a, chunks=(CHUNKS,)) for a in arrays]


def _members():
    edges = np.linspace(0.0, 1.0, 11)
    return {
        "bs": BrierState(pos_label="b"),
        "z": SpiegelhalterState(pos_label="b"),
        "bins": BinnedState(edges, pos_label="b"),
        "table": ForecastTable(pos_label="b"),
        "mom": MomentState(pos_label="b"),
    }


# ---------------------------------------------------------------- StateBundle
@pytest.mark.parametrize("weighted", [False, True])
def test_bundle_members_equal_states_updated_alone(weighted):
    y, p, w = _data(labels=("a", "b"))
    w = w if weighted else None
    cuts = [0, 300, 301, 750, 1000]
    bundle, alone = None, {k: None for k in _members()}
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        ww = None if w is None else w[lo:hi]
        b = StateBundle(_members(), pos_label="b").update(y[lo:hi], p[lo:hi], ww)
        bundle = b if bundle is None else bundle.merge(b)
        for k, s in _members().items():
            s.update(y[lo:hi], p[lo:hi], ww)
            alone[k] = s if alone[k] is None else alone[k].merge(s)
    got = bundle.finalize()
    assert got["bs"].finalize() == alone["bs"].finalize()
    assert got["z"].finalize() == alone["z"].finalize()
    assert got["bins"].murphy().brier_score == alone["bins"].murphy().brier_score
    assert got["table"].c_statistic() == alone["table"].c_statistic()
    np.testing.assert_array_equal(
        got["mom"].class_moments()[3], alone["mom"].class_moments()[3]
    )
    assert got["table"].options_key() == ForecastTable(pos_label="b").options_key()


def test_bundle_as_binary_equals_state_of_encoded_labels():
    y, p, w = _data(labels=("no", "yes"))
    s = StateBundle({"bs": BrierState(pos_label="yes")}, pos_label="yes")
    s = s.update(y, p, w).state("bs").as_binary()
    direct = BrierState().update((y == "yes").astype(float), p, w)
    assert s.options_key() == BrierState().options_key()
    # the direct state sums 0/1 rows in one fused pass (another summation order)
    assert s.finalize() == pytest.approx(direct.finalize(), rel=1e-14)


def test_bundle_checks_its_members():
    with pytest.raises(TypeError, match="states"):
        StateBundle({})
    with pytest.raises(TypeError, match="states\\['x'\\]"):
        StateBundle({"x": 1})
    with pytest.raises(ValueError, match="pos_label"):
        StateBundle({"x": BrierState(pos_label=1)})
    with pytest.raises(ValueError, match="already been updated"):
        StateBundle({"x": BrierState().update([0, 1], [0.2, 0.3])})


def test_bundle_validates_once_with_the_in_memory_errors():
    s = StateBundle(_members(), pos_label="b")
    with pytest.raises(ValueError, match="y_proba"):
        s.update(["a", "b"], [0.2, 1.5])


# ------------------------------------------------------- the report: one pass
# (cov_type="hac" needs the rows in time order: refused for dask input,
# tests/test_dask_report.py; the iid bootstrap runs on the merged sample)
@pytest.mark.parametrize(
    "kw", [{"cov_type": "iid"}, {"cov_type": "bootstrap", "n_resamples": 20}]
)
def test_report_reads_the_data_once_besides_the_fit(kw):
    y, p, w = _data(2000, seed=1)
    yd, pd_, wd = _dask(*(a[:1000] for a in (y, p, w)))
    _graph.stats.update(passes=0, reductions=0, reused=0)
    rep = calibration_report(
        yd, pd_, sample_weight=wd, thresholds=[0.1, 0.3], random_state=0, **kw
    )
    assert _graph.stats["passes"] == 1  # the bundle
    assert _graph.stats["reused"] >= 8
    # the logistic fit: moments, Newton steps of CITL and of the joint fit
    assert 3 <= _graph.stats["reductions"] <= 25
    exp = calibration_report(
        y[:1000], p[:1000], sample_weight=w[:1000], thresholds=[0.1, 0.3],
        random_state=0, **kw,
    )  # fmt: skip
    for f in ("brier_score", "ece", "c_statistic", "spiegelhalter_z", "calibration_slope"):
        np.testing.assert_allclose(getattr(rep, f), getattr(exp, f), rtol=1e-10)
    assert rep.decomposition["corp"] == pytest.approx(exp.decomposition["corp"], rel=1e-12)
    # one approx per row: newer pytest refuses approx on a list of dicts
    assert len(rep.net_benefit) == len(exp.net_benefit)
    for got_row, exp_row in zip(rep.net_benefit, exp.net_benefit):
        assert got_row == pytest.approx(exp_row, rel=1e-12)


def test_report_notes_the_rounding_of_many_distinct_forecasts(monkeypatch):
    monkeypatch.setattr(_binning, "AUTO_MAX_DISTINCT", 200)
    monkeypatch.setattr(_binning, "AUTO_RESOLUTION", 0.01)
    y, p, _ = _data()
    rep = calibration_report(*_dask(y, p), random_state=0)
    assert any("rounded to multiples of 0.01" in n for n in rep.notes)
    assert rep.c_statistic == roc_auc_score(y, np.round(p / 0.01) * 0.01)
    rep = calibration_report(*_dask(y, np.round(p, 2)), random_state=0)
    assert not any("rounded" in n for n in rep.notes)


# ------------------------------------------------------------- resolution
@pytest.mark.parametrize("step", [0.1, 0.01, 1e-3])
def test_resolution_rounds_first_in_memory_and_on_dask(step):
    y, p, w = _data(seed=2)
    q = np.clip(np.round(p / step) * step, 0.0, 1.0)
    keep = w > 0
    ref = roc_auc_score(y[keep], q[keep], sample_weight=w[keep])  # sklearn
    assert c_statistic(y, p, sample_weight=w, resolution=step) == pytest.approx(ref, 1e-14)
    yd, pd_, wd = _dask(y, p, w)
    got = c_statistic(yd, pd_, sample_weight=wd, resolution=step)
    assert got == pytest.approx(ref, rel=1e-14)
    a = corp_decomposition(y, p, sample_weight=w, resolution=step)
    b = corp_decomposition(y, q, sample_weight=w)
    c = corp_decomposition(yd, pd_, sample_weight=wd, resolution=step)
    for f in ("brier_score", "miscalibration", "discrimination", "uncertainty"):
        assert getattr(a, f) == pytest.approx(getattr(b, f), rel=1e-13, abs=1e-15)
        assert getattr(c, f) == pytest.approx(getattr(b, f), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("step", [0.05, 0.01, 1e-3])
def test_resolution_error_bounds(step):
    y, p, w = _data(400, seed=3)
    exact = corp_decomposition(y, p, sample_weight=w)
    rounded = corp_decomposition(y, p, sample_weight=w, resolution=step)
    assert abs(rounded.brier_score - exact.brier_score) <= step
    assert rounded.discrimination <= exact.discrimination + 1e-15
    assert rounded.uncertainty == pytest.approx(exact.uncertainty, rel=1e-14)
    # C: only pairs closer than the step can change, by 1/2 each
    ev, ne = (y == 1) & (w > 0), (y == 0) & (w > 0)
    close = np.abs(p[ev][:, None] - p[ne][None, :]) < step
    ww = w[ev][:, None] * w[ne][None, :]
    bound = 0.5 * (ww * close).sum() / ww.sum()
    diff = c_statistic(y, p, sample_weight=w, resolution=step) - c_statistic(
        y, p, sample_weight=w
    )
    assert abs(diff) <= bound + 1e-15


@pytest.mark.parametrize("chunks", [(1000,), (100,) * 10, CHUNKS])
def test_resolution_auto_is_exact_below_the_cap_and_partition_free(monkeypatch, chunks):
    y, p, w = _data(seed=4)
    yd, pd_, wd = (da.from_array(a, chunks=(chunks,)) for a in (y, p, w))
    exact = c_statistic(y, p, sample_weight=w)
    assert c_statistic(yd, pd_, sample_weight=wd, resolution="auto") == pytest.approx(
        exact, rel=1e-14
    )
    monkeypatch.setattr(_binning, "AUTO_MAX_DISTINCT", 300)  # ~500 per class
    monkeypatch.setattr(_binning, "AUTO_RESOLUTION", 0.01)
    ref = c_statistic(y, p, sample_weight=w, resolution=0.01)
    assert c_statistic(y, p, sample_weight=w, resolution="auto") == ref
    got = c_statistic(yd, pd_, sample_weight=wd, resolution="auto")
    assert got == pytest.approx(ref, rel=1e-14)
    table = ForecastTable(resolution="auto").update(y[:200], p[:200])
    assert table.rounded_to is None
    table.merge(ForecastTable(resolution="auto").update(y[200:], p[200:]))
    assert table.rounded_to == 0.01
    dec = corp_decomposition(yd, pd_, sample_weight=wd, resolution="auto")
    mem = corp_decomposition(y, p, sample_weight=w, resolution=0.01)
    assert dec.discrimination == pytest.approx(mem.discrimination, rel=1e-12)


@pytest.mark.parametrize(
    "bad, exc", [(0, ValueError), (-0.1, ValueError), (0.6, ValueError),
                 ("exact", ValueError), (True, TypeError), (np.nan, ValueError)],
)  # fmt: skip
def test_resolution_is_checked(bad, exc):
    y, p, _ = _data(50)
    for f in (c_statistic, corp_decomposition):
        with pytest.raises(exc, match="resolution"):
            f(y, p, resolution=bad)
        with pytest.raises(exc, match="resolution"):
            f(da.from_array(y), da.from_array(p), resolution=bad)


# ------------------------------------------- logistic fits without persisting
@pytest.mark.parametrize("weighted", [False, True])
def test_fits_read_the_data_again_when_rows_do_not_fit(monkeypatch, weighted):
    y, p, w = _data(seed=5)
    w = w if weighted else None
    exp = calibration_intercept_slope(y, p, sample_weight=w)
    exp_citl = calibration_in_the_large(y, p, sample_weight=w)
    yd, pd_, wd = _dask(y, p, w)
    monkeypatch.setattr(_fits, "persist_limit", lambda: 0.0)
    got = calibration_intercept_slope(yd, pd_, sample_weight=wd)
    assert got.slope == pytest.approx(exp.slope, rel=1e-10)
    assert got.intercept == pytest.approx(exp.intercept, rel=1e-10)
    assert calibration_in_the_large(yd, pd_, sample_weight=wd) == pytest.approx(
        exp_citl, rel=1e-10
    )


def test_persist_limit_is_a_share_of_memory():
    assert 0 < _fits.persist_limit() < float("inf")


# ------------------------------------------------------- skbrier report --engine
def test_cli_engine_auto(tmp_path, capsys, monkeypatch):
    """auto (the default): a directory goes through dask, a small file stays in
    memory, a file larger than a quarter of the available memory goes through
    dask; the numbers agree."""
    import json

    pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    from skbrier.cli import _dask_input, main

    y, p, _ = _data(400, seed=6)
    frame = pd.DataFrame({"y": y, "p": np.round(p, 3)})
    (tmp_path / "ds").mkdir()
    frame.iloc[:150].to_parquet(tmp_path / "ds" / "0.parquet")
    frame.iloc[150:].to_parquet(tmp_path / "ds" / "1.parquet")
    frame.to_csv(tmp_path / "all.csv", index=False)
    common = ["--y-col", "y", "--p-col", "p", "--random-state", "0", "--json"]
    runs = {}
    for key, path in (("dir", tmp_path / "ds"), ("small", tmp_path / "all.csv")):
        assert main(["report", str(path), *common]) == 0
        out = capsys.readouterr()
        runs[key] = json.loads(out.out)
        assert ("through dask" in out.err) == (key == "dir")
    monkeypatch.setattr(_dask_input, "AUTO_MEMORY_SHARE", 1e-12)
    assert main(["report", str(tmp_path / "all.csv"), *common]) == 0
    out = capsys.readouterr()
    assert "more than a quarter" in out.err and "--engine memory" in out.err
    runs["large"] = json.loads(out.out)
    assert main(["report", "--engine", "memory", str(tmp_path / "all.csv"), *common]) == 0
    assert "through dask" not in capsys.readouterr().err
    for key in ("dir", "large"):
        for f in ("brier_score", "c_statistic", "calibration_slope"):
            got, exp = runs[key][f], runs["small"][f]
            if isinstance(exp, dict):
                got, exp = got["estimate"], exp["estimate"]
            np.testing.assert_allclose(got, exp, rtol=1e-10, err_msg=f"{key} {f}")


# ----------------------------------------------------- on a 2-worker LocalCluster
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
def test_local_cluster_one_pass_report_and_streamed_fit(cluster_client, monkeypatch):
    y, p, w = _data(1000, seed=7)
    yd, pd_, wd = _dask(y, p, w)
    with dask.config.set(scheduler=cluster_client):
        _graph.stats.update(passes=0, reductions=0, reused=0)
        rep = calibration_report(yd, pd_, sample_weight=wd, random_state=0)
        assert _graph.stats["passes"] == 1
        monkeypatch.setattr(_fits, "persist_limit", lambda: 0.0)
        fit = calibration_intercept_slope(yd, pd_, sample_weight=wd)
        c = c_statistic(yd, pd_, sample_weight=wd, resolution=0.01)
    exp = calibration_report(y, p, sample_weight=w, random_state=0)
    for f in ("brier_score", "ece", "c_statistic", "calibration_slope"):
        np.testing.assert_allclose(getattr(rep, f), getattr(exp, f), rtol=1e-10)
    assert fit.slope == pytest.approx(exp.calibration_slope, rel=1e-10)
    assert c == pytest.approx(c_statistic(y, p, sample_weight=w, resolution=0.01), 1e-14)
