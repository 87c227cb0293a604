"""lowess keeps BLAS on one thread (many short dot products: threads cost
more, and the threaded sums change the last bits with the thread count), and
gives the caller's limits back, also when used from several threads."""

from __future__ import annotations

import threading

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from skbrier._core.blas import one_blas_thread
from skbrier._core.kernels.lowess import lowess_knots


def _blas_threads() -> list[int]:
    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]


def test_lowess_is_the_same_under_any_blas_thread_count():
    rng = np.random.default_rng(0)
    x = rng.random(30_000)
    y = (rng.random(30_000) < x).astype(float)
    with threadpool_limits(limits=1, user_api="blas"):
        ref = lowess_knots(x, y)
    with threadpool_limits(limits=2, user_api="blas"):
        got = lowess_knots(x, y)
    np.testing.assert_array_equal(ref[0], got[0])
    np.testing.assert_array_equal(ref[1], got[1])


def test_limits_are_restored_after_nested_and_concurrent_use():
    before = _blas_threads()
    with one_blas_thread():
        assert set(_blas_threads()) <= {1}
        with one_blas_thread():
            assert set(_blas_threads()) <= {1}
        assert set(_blas_threads()) <= {1}
    assert _blas_threads() == before
    barrier = threading.Barrier(4)

    def work() -> None:
        with one_blas_thread():
            barrier.wait()

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert _blas_threads() == before
