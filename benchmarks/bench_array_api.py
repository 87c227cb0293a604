"""Benchmark: the core metrics on PyTorch tensors (Array API dispatch) vs the
host copy + numpy and a bare torch expression, in one run.

    python benchmarks/bench_array_api.py            # n = 10**7 on the CPU
    python benchmarks/bench_array_api.py --n 100000000 --device cuda

Prints the best of several interleaved rounds and the ratios.  Targets
(issue 17): on a CUDA tensor of n = 1e8, ``brier_score`` at least 10x faster
than copying to the host and scoring with numpy, and close to the bare
``((p - y) ** 2).mean()``.  Also times numpy input with and without the
switch, to show the numpy path pays nothing.  Skips when torch is absent.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import sklearn

from skbrier import brier_score, decision_curve, murphy_decomposition
from skbrier.metrics.calibration_error import calibration_error


def best(func, repeat, sync):
    t = np.inf
    for _ in range(repeat):
        sync()
        t0 = time.perf_counter()
        func()
        sync()
        t = min(t, time.perf_counter() - t0)
    return t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("torch is not installed: skipped")
        return
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("no CUDA device: skipped")
        return
    sync = torch.cuda.synchronize if args.device.startswith("cuda") else (lambda: None)
    rng = np.random.default_rng(0)
    y_np = rng.integers(0, 2, args.n)
    p_np = rng.random(args.n)
    y = torch.as_tensor(y_np, device=args.device)
    p = torch.as_tensor(p_np, device=args.device)
    print(f"n = {args.n:,}, device {args.device}, torch {torch.__version__}")
    with sklearn.config_context(array_api_dispatch=True):
        rows = {
            "skbrier brier_score (torch, on device)": lambda: brier_score(y, p),
            "host copy + skbrier numpy": lambda: brier_score(
                y.cpu().numpy(), p.cpu().numpy()
            ),
            "bare torch ((p - y) ** 2).mean()": lambda: float(((p - y) ** 2).mean()),
            "skbrier ECE (torch)": lambda: calibration_error(
                y, p, kind="binary", n_bins=10
            ),
            "host copy + skbrier ECE": lambda: calibration_error(
                y.cpu().numpy(), p.cpu().numpy(), kind="binary", n_bins=10
            ),
            "skbrier murphy (torch)": lambda: murphy_decomposition(y, p),
            "skbrier decision_curve (torch, 99 thresholds)": lambda: decision_curve(y, p),
            "host copy + decision_curve": lambda: decision_curve(
                y.cpu().numpy(), p.cpu().numpy()
            ),
            "numpy input, dispatch on": lambda: brier_score(y_np, p_np),
        }
        times = {k: best(f, args.repeat, sync) for k, f in rows.items()}
    times["numpy input, dispatch off"] = best(
        lambda: brier_score(y_np, p_np), args.repeat, lambda: None
    )
    if args.device.startswith("cuda"):
        times.update(other_libraries(y_np, p_np, args.repeat))
    for k, t in times.items():
        print(f"{k:<48s} {t * 1e3:10.1f} ms")
    ours = times["skbrier brier_score (torch, on device)"]
    print(
        f"brier_score: host copy + numpy / torch path = "
        f"{times['host copy + skbrier numpy'] / ours:.2f}x"
    )
    print(
        f"brier_score: torch path / bare torch = "
        f"{ours / times['bare torch ((p - y) ** 2).mean()']:.2f}x"
    )
    for lib in ("cupy", "jax"):
        key = f"skbrier brier_score ({lib}, on device)"
        if key in times:
            host = times[f"{lib} host copy + skbrier numpy"]
            print(
                f"brier_score: {lib} host copy + numpy / {lib} path = {host / times[key]:.2f}x"
            )
    print(
        f"numpy input: dispatch on / off = "
        f"{times['numpy input, dispatch on'] / times['numpy input, dispatch off']:.2f}x"
    )


def other_libraries(y_np, p_np, repeat):
    """``brier_score`` on CuPy and JAX arrays on the GPU, beside their host copy."""
    out = {}
    try:
        import cupy as cp
    except ImportError:
        print("cupy is not installed: skipped")
    else:
        y, p = cp.asarray(y_np), cp.asarray(p_np)
        sync = cp.cuda.Device().synchronize
        with sklearn.config_context(array_api_dispatch=True):
            out["skbrier brier_score (cupy, on device)"] = best(
                lambda: brier_score(y, p), repeat, sync
            )
        out["cupy host copy + skbrier numpy"] = best(
            lambda: brier_score(cp.asnumpy(y), cp.asnumpy(p)), repeat, sync
        )
    try:
        import jax
    except ImportError:
        print("jax is not installed: skipped")
    else:
        jax.config.update("jax_enable_x64", True)
        y, p = jax.numpy.asarray(y_np), jax.numpy.asarray(p_np)
        print(f"jax {jax.__version__} on {p.devices()}")
        with sklearn.config_context(array_api_dispatch=True):
            out["skbrier brier_score (jax, on device)"] = best(
                lambda: brier_score(y, p), repeat, lambda: None
            )
        out["jax host copy + skbrier numpy"] = best(
            lambda: brier_score(np.asarray(y), np.asarray(p)), repeat, lambda: None
        )
    return out


if __name__ == "__main__":
    main()
