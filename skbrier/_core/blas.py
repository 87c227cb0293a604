"""One BLAS thread around kernels made of many short vector products.

OpenBLAS threads a dot product of more than about 10,000 numbers: for the
windows of an exact lowess (tens of thousands of ``dot`` calls, each a few
microseconds of work) waking the threads costs more than the work, and a busy
machine makes it worse by orders of magnitude; the threaded sum also changes
the last bits with the machine's thread count.  :func:`one_blas_thread` keeps
such a kernel on one thread (scikit-learn's ``threadpoolctl``), counted across
threads so that nested or concurrent uses restore the caller's limits once,
when the last one leaves.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["one_blas_thread"]

_lock = threading.Lock()
_state: dict[str, Any] = {"depth": 0, "limiter": None, "controller": None}


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with BLAS limited to one thread (reference counted)."""
    with _lock:
        if _state["depth"] == 0:
            if _state["controller"] is None:
                from threadpoolctl import ThreadpoolController

                _state["controller"] = ThreadpoolController()
            _state["limiter"] = _state["controller"].limit(limits=1, user_api="blas")
        _state["depth"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["depth"] -= 1
            if _state["depth"] == 0:
                _state["limiter"].restore_original_limits()
                _state["limiter"] = None
