"""Speed of the cumulative calibration tests against one argsort, MCGrad and MAPIE.

Target: ``cumulative_calibration`` at n = 1e7 within 3x one ``np.argsort`` of
the forecasts (it sorts once and makes a few passes over the sorted rows).
The peers run on the same data in the same process:

* MCGrad: ``ecce``, ``ecce_sigma`` and ``ecce_pvalue`` (each sorts again);
* MAPIE: ``kolmogorov_smirnov_p_value`` and ``kuiper_p_value`` (each jitters
  and sorts);
* the multicalibration error over three columns at depth 2 against
  ``mcgrad.metrics.MulticalibrationError`` (float64 and its default float32).

Run: ``PYTHONPATH=. python benchmarks/bench_cumulative.py [--n 10000000]``.
Times are the best of ``--repeat`` runs; the machine load is printed too.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from skbrier.metrics import cumulative_calibration, multicalibration_error


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--mce-n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    n = args.n
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p**1.05).astype(np.int64)
    w = rng.uniform(0.5, 2.0, n)
    g = rng.integers(0, 50, n)
    print(f"n = {n:.0e}; load average {os.getloadavg()}")

    t_sort = best_of(lambda: np.argsort(p), args.repeat)
    rows = [("np.argsort(p)", t_sort)]
    rows.append(
        (
            "cumulative_calibration",
            best_of(lambda: cumulative_calibration(y, p), args.repeat),
        )
    )
    rows.append(
        (
            "  sample_weight",
            best_of(lambda: cumulative_calibration(y, p, sample_weight=w), args.repeat),
        )
    )
    rows.append(
        (
            "  groups (50)",
            best_of(lambda: cumulative_calibration(y, p, groups=g), args.repeat),
        )
    )
    try:
        from mcgrad import metrics as mc

        def mcgrad_all():
            mc.ecce(y, p), mc.ecce_sigma(y, p), mc.ecce_pvalue(y, p)

        rows.append(
            ("MCGrad ecce + ecce_sigma + ecce_pvalue", best_of(mcgrad_all, args.repeat))
        )
        rows.append(
            ("MCGrad ecce_pvalue alone", best_of(lambda: mc.ecce_pvalue(y, p), args.repeat))
        )
    except ImportError:
        print("MCGrad is not installed (pip install --no-deps mcgrad)")
    try:
        from mapie.metrics import calibration as mp

        def mapie_both():
            mp.kolmogorov_smirnov_p_value(y, p), mp.kuiper_p_value(y, p)

        rows.append(("MAPIE ks_p_value + kuiper_p_value", best_of(mapie_both, args.repeat)))
    except ImportError:
        print("MAPIE is not installed (pip install mapie)")

    for name, t in rows:
        print(f"{name:42s} {t:8.3f} s  {t / t_sort:5.2f} x argsort")
    ratio = rows[1][1] / t_sort
    print(
        f"target: cumulative_calibration <= 3 x argsort: {'met' if ratio <= 3 else 'NOT met'}"
    )

    m = args.mce_n
    seg = {
        "a": rng.integers(0, 3, m),
        "b": rng.integers(0, 4, m),
        "c": rng.integers(0, 2, m),
    }
    pm, ym = p[:m], y[:m]
    t_ours = best_of(
        lambda: multicalibration_error(ym, pm, segments=seg, max_depth=2), args.repeat
    )
    print(f"\nmulticalibration_error, n = {m:.0e}, 3 columns, depth 2: {t_ours:8.3f} s")
    try:
        import pandas as pd
        from mcgrad import metrics as mc

        df = pd.DataFrame({**seg, "y": ym, "p": pm})
        for dtype in ("float64", "float32"):

            def peer(dtype=dtype):
                return mc.MulticalibrationError(
                    df,
                    "y",
                    "p",
                    categorical_segment_columns=["a", "b", "c"],
                    max_depth=2,
                    max_values_per_segment_feature=10,
                    precision_dtype=dtype,
                ).mce_sigma

            t_peer = best_of(peer, args.repeat)
            print(f"MCGrad MulticalibrationError ({dtype}):           {t_peer:8.3f} s")
    except ImportError:
        pass


if __name__ == "__main__":
    main()
