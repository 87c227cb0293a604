"""Benchmark of the Brier score decompositions against model-diagnostics.

Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_decomposition.py [--n 10000000]

Each case runs in a fresh child process (so that peak memory is its own) and
reports the best wall time over ``--repeat`` runs, the peak of numpy/Python
allocations traced by ``tracemalloc`` during one run, and the child's maximum
resident set size (``resource.getrusage``, includes the interpreter and the
imported libraries).  Cases:

* CORP (``corp_decomposition``) vs ``model_diagnostics.scoring.decompose``
  (isotonic regression of scikit-learn inside) on the same continuous data,
  unweighted and weighted, and on data with ties (forecasts rounded to 3
  decimals);
* the binned decomposition (``murphy_decomposition``, 10 uniform bins; O(n),
  no sorting), unweighted and weighted, against its floor in the same
  process: the bin of each forecast by the one binning rule
  (``skbrier._core.binning.assign_bins``), then three ``np.bincount`` calls
  (``bincount(idx, w)``, ``bincount(idx, w * p)``, ``bincount(idx, w * y)``;
  ``w = 1`` without weights).  The two alternate ``--repeat`` times and the
  ratio of their median times is printed (target: at most 1.5).

``--cases binned`` runs only the binned cases (model-diagnostics is not
needed for them).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import resource
import time
import tracemalloc


def _data(n: int, weighted: bool, ties: bool):
    import numpy as np

    rng = np.random.default_rng(0)
    p = rng.beta(2.0, 3.0, n)
    if ties:
        p = np.round(p, 3)
    y = (rng.random(n) < p**1.2).astype(np.float64)
    w = rng.gamma(2.0, 1.0, n) if weighted else None
    return y, p, w


def _run(case: str, n: int, weighted: bool, ties: bool, repeat: int, queue) -> None:
    y, p, w = _data(n, weighted, ties)
    if case == "corp":
        from skbrier.metrics.decomposition import corp_decomposition

        def fn():
            d = corp_decomposition(y, p, sample_weight=w)
            return d.miscalibration, d.discrimination

    elif case == "model_diagnostics":
        from model_diagnostics.scoring import SquaredError, decompose

        def fn():
            row = decompose(y, p, weights=w, scoring_function=SquaredError()).row(
                0, named=True
            )
            return row["miscalibration"], row["discrimination"]

    elif case == "binned":
        from skbrier.metrics.decomposition import murphy_decomposition

        def fn():
            d = murphy_decomposition(y, p, sample_weight=w, n_bins=10)
            return d.reliability, d.resolution

        _run_against_floor(fn, y, p, w, repeat, queue)
        return

    else:  # pragma: no cover
        raise ValueError(case)

    fn()  # warm-up (imports, page faults)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    queue.put((min(times), peak, rss_kib, value))


def _floor(y, p, w):
    """The three-bincount floor of the binned decomposition (10 uniform bins)."""
    import numpy as np

    from skbrier._core.binning import assign_bins, uniform_edges

    edges = uniform_edges(10)

    def floor():
        idx = assign_bins(p, edges)
        if w is None:
            return (
                np.bincount(idx, minlength=10),
                np.bincount(idx, weights=p, minlength=10),
                np.bincount(idx, weights=y, minlength=10),
            )
        return (
            np.bincount(idx, weights=w, minlength=10),
            np.bincount(idx, weights=w * p, minlength=10),
            np.bincount(idx, weights=w * y, minlength=10),
        )

    return floor


def _run_against_floor(fn, y, p, w, repeat: int, queue) -> None:
    """Median times of ``fn`` and of its floor, run alternately; peak memory of ``fn``."""
    import statistics

    floor = _floor(y, p, w)
    fn(), floor()  # warm-up (imports, page faults)
    times: dict[str, list[float]] = {"fn": [], "floor": []}
    for _ in range(repeat):
        for name, f in (("fn", fn), ("floor", floor)):
            t0 = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - t0)
    tracemalloc.start()
    value = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t_fn, t_floor = (statistics.median(times[k]) for k in ("fn", "floor"))
    queue.put(((t_fn, t_floor), peak, rss_kib, value))


def measure(case: str, n: int, weighted: bool, ties: bool, repeat: int):
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_run, args=(case, n, weighted, ties, repeat, queue))
    proc.start()
    out = queue.get()
    proc.join()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**7, help="number of samples")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case")
    parser.add_argument(
        "--cases", choices=("all", "corp", "binned"), default="all", help="which cases"
    )
    args = parser.parse_args()
    n = args.n
    print(
        f"n = {n:,}  repeat = {args.repeat}  cpus = {os.cpu_count()}  "
        f"load average = {os.getloadavg()}"
    )
    header = f"{'case':<34}{'time [s]':>10}{'traced peak [MB]':>18}{'max RSS [MB]':>14}"
    corp_cases = [(False, False), (True, False), (False, True)]
    for weighted, ties in corp_cases if args.cases in ("all", "corp") else []:
        label = ("weighted" if weighted else "unweighted") + (", ties" if ties else "")
        print(f"\nCORP, {label}")
        print(header)
        res = {}
        for case in ("corp", "model_diagnostics"):
            t, peak, rss, value = measure(case, n, weighted, ties, args.repeat)
            res[case] = (t, value)
            name = (
                "skbrier corp_decomposition"
                if case == "corp"
                else ("model_diagnostics decompose")
            )
            print(f"{name:<34}{t:>10.3f}{peak / 1e6:>18.0f}{rss / 1024:>14.0f}")
        (t_us, v_us), (t_md, v_md) = res["corp"], res["model_diagnostics"]
        diff = max(abs(a - b) for a, b in zip(v_us, v_md))
        print(f"speed-up: {t_md / t_us:.2f}x   max |difference| of MCB, DSC: {diff:.1e}")
    for weighted in (False, True) if args.cases in ("all", "binned") else ():
        label = "weighted" if weighted else "unweighted"
        (t, t_floor), peak, rss, _ = measure("binned", n, weighted, False, args.repeat)
        print(f"\nbinned (10 uniform bins), {label}: median of {args.repeat}")
        print(header)
        print(
            f"{'skbrier murphy_decomposition':<34}{t:>10.3f}{peak / 1e6:>18.0f}"
            f"{rss / 1024:>14.0f}"
        )
        print(f"{'floor: assign_bins + 3 bincount':<34}{t_floor:>10.3f}")
        print(f"ratio to the floor: {t / t_floor:.2f}x (target: at most 1.5x)")
    print(f"\nload average at the end = {os.getloadavg()}")


if __name__ == "__main__":
    main()
