"""The in-memory report's peak memory (issue item 18): no section keeps more
than a few n-long float arrays beside the input.  tracemalloc sees numpy's
allocations, so the bound is on the bytes per row allocated at the peak,
beyond the two input columns (before the fix: about 80 bytes per row, from
copies of the columns, a second gradient matrix, the sorted forecasts kept
through DeLong's n-long temporaries and CORP's per-row ones)."""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest

from skbrier.report import calibration_report

N = 300_000
#: bytes per row allocated at the peak beyond the inputs (measured: about 33)
MAX_BYTES_PER_ROW = 45


def _data(n: int, ties: bool = False):
    rng = np.random.default_rng(7)
    lp = rng.normal(-1.4, 1.1, n)
    p = 1.0 / (1.0 + np.exp(-(lp + rng.normal(0.0, 0.3, n))))
    if ties:
        p = np.round(p, 3)
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-lp))).astype(np.float64)
    return y, p


def _peak_bytes_per_row(y, p, **kwargs) -> float:
    calibration_report(y[:2000], p[:2000], **kwargs)  # imports, caches
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        rep = calibration_report(y, p, **kwargs)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert rep.n_samples == y.shape[0]
    return (peak - base) / y.shape[0]


@pytest.mark.parametrize("ties", [False, True])
def test_peak_memory_per_row(ties):
    y, p = _data(N, ties)
    per_row = _peak_bytes_per_row(y, p, thresholds=[0.1, 0.2])
    assert per_row < MAX_BYTES_PER_ROW, f"{per_row:.1f} bytes per row at the peak"


def test_cli_jobs_do_not_copy_complete_columns(tmp_path):
    """Nothing dropped: the audits get the columns read, not copies."""
    import argparse

    from skbrier.cli._report import _jobs

    y, p = _data(1000)
    args = argparse.Namespace(na="drop", group_col=None, p_col=["a", "b"])
    jobs, used, dropped, _ = _jobs(None, y, {"a": p, "b": p[::-1].copy()}, None, args)
    assert jobs[0][1] is y and jobs[1][1] is y and jobs[0][2] is p
    assert used == {"a": 1000, "b": 1000} and dropped == {"a": 0, "b": 0}
