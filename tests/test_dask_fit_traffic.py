"""The Dask logistic calibration fits send only sufficient statistics to the
client (issue 25: they pulled 32 MB of rows to the client for a 16 MB
column).

On a distributed cluster every result that reaches the client goes through
``Client.gather``; the fits must gather only the merged sums of each pass
(a few numbers), never a row array, whatever the number of rows: the rows of
the fits stay on the workers (persisted there, or read again per pass)."""

from __future__ import annotations

import numpy as np
import pytest

from skbrier._backends._dask import _fits
from skbrier.metrics.calibration import (
    calibration_in_the_large,
    calibration_intercept_slope,
)

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
from dask.sizeof import sizeof  # noqa: E402

N = 40_000


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=False,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def _arrays(obj, out):
    """Every numpy array inside ``obj`` (tuples, lists, dicts, attributes)."""
    if isinstance(obj, np.ndarray):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            _arrays(x, out)
    elif isinstance(obj, dict):
        for x in obj.values():
            _arrays(x, out)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        for x in vars(obj).values():
            _arrays(x, out)
    return out


@pytest.fixture
def gathered(monkeypatch, client):
    """The objects the client receives (``Client.gather``), one list per call."""
    calls: list = []
    real = distributed.Client.gather

    def gather(self, futures, *args, **kwargs):
        out = real(self, futures, *args, **kwargs)
        calls.append(out)
        return out

    monkeypatch.setattr(distributed.Client, "gather", gather)
    return calls


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("persist", [True, pytest.param(False, marks=pytest.mark.slow)])
def test_fits_gather_only_sums(client, gathered, monkeypatch, weighted, persist):
    rng = np.random.default_rng(1)
    p = rng.uniform(0.02, 0.98, N)
    y = (rng.random(N) < p**1.2).astype(np.int64)
    w = rng.uniform(0.5, 2.0, N) if weighted else None
    if not persist:  # every pass reads the data again
        monkeypatch.setattr(_fits, "persist_limit", lambda: 0.0)
    chunks = N // 8
    yd, pd_ = da.from_array(y, chunks=chunks), da.from_array(p, chunks=chunks)
    wd = None if w is None else da.from_array(w, chunks=chunks)
    with dask.config.set(scheduler=client):
        fit = calibration_intercept_slope(yd, pd_, sample_weight=wd)
        citl = calibration_in_the_large(yd, pd_, sample_weight=wd)
    exp = calibration_intercept_slope(y, p, sample_weight=w)
    assert fit.slope == pytest.approx(exp.slope, rel=1e-10)
    assert citl == pytest.approx(calibration_in_the_large(y, p, sample_weight=w), rel=1e-10)
    # a pass of validation, then one gather per evaluation of the solvers
    assert len(gathered) >= 4
    arrays = [a for g in gathered for a in _arrays(g, [])]
    assert max(a.size for a in arrays) < 100, "an array of rows reached the client"
    per_call = [sizeof(g) for g in gathered]
    # a few hundred bytes of sums per call, nothing that grows with the rows
    assert max(per_call) < 8_000, per_call
    assert sum(per_call) < 64 * len(per_call) * 100


def test_the_rows_stay_on_the_workers(client, monkeypatch):
    """What is persisted between the passes are futures on the workers."""
    rng = np.random.default_rng(2)
    p = rng.uniform(0.05, 0.95, N)
    y = (rng.random(N) < p).astype(np.int64)
    kept = []
    real = _fits.DaskRows

    class Recording(real):
        def __init__(self, parts):
            kept.extend(parts)
            super().__init__(parts)

    monkeypatch.setattr(_fits, "DaskRows", Recording)
    with dask.config.set(scheduler=client):
        calibration_intercept_slope(
            da.from_array(y, chunks=N // 4), da.from_array(p, chunks=N // 4)
        )
    assert len(kept) == 4
    for part in kept:
        graph = dict(part.__dask_graph__())
        # a persisted part: its graph holds the worker's future, not the rows
        assert all(
            isinstance(v, distributed.Future) or not _arrays(v, []) for v in graph.values()
        )
