"""val.prob's further statistics and the intervals of the non-Brier rows.

Every interval of the report carries its own method (:data:`METHOD_LABELS`):

* the Brier metrics: :func:`skbrier.stats.brier_inference` with the report's
  ``cov_type``;
* calibration in the large, intercept and slope: iid Wald (R's
  ``confint.default(glm)``), a HAC sandwich (``cov_type="hac"``: scores of the
  logistic fit, one long-run covariance of :mod:`skbrier.stats`) or the
  bootstrap (``cov_type="bootstrap"``: refits on the resamples of the one
  engine: in memory the very resamples of the Brier metrics, drawn once,
  with each row's frequency weight in the resample);
* the O/E ratio: Wald on the log scale with the binomial variance (iid), the
  HAC variance of the observed events (hac) or the bootstrap;
* the C statistic: DeLong's variance (iid under every ``cov_type``: the label
  says so).

An interval is kept as a small description (:class:`IntervalSpec`) so that
:meth:`CalibrationReport.confidence_interval` gives it at any level.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from scipy import special, stats

from .._core.resampling import Scratch
from .._core.results import ConfidenceInterval

__all__ = [
    "IntervalSpec",
    "adaptive_n_resamples",
    "counts_refits",
    "interval_at",
    "valprob_extras",
]

#: resamples of the adaptive default: the budget of resampled rows
#: ``n_resamples * n`` is at most this (between MIN and MAX resamples)
RESAMPLE_BUDGET = 2e8
MIN_RESAMPLES = 200
MAX_RESAMPLES = 9999


def adaptive_n_resamples(n: int) -> int:
    """The default number of bootstrap resamples for ``n`` rows.

    ``clip(2e8 / n, 200, 9999)``: 9999 up to 20,000 rows, 2000 at 100,000,
    200 from 1,000,000 rows on.
    """
    return int(min(MAX_RESAMPLES, max(MIN_RESAMPLES, RESAMPLE_BUDGET // max(n, 1))))


class IntervalSpec(NamedTuple):
    """How to compute an interval at any level.

    ``kind``: ``"normal"`` (``estimate +- z scale``, clipped to ``bounds``),
    ``"lognormal"`` (``estimate * exp(+- z scale)``) or ``"replicates"``
    (percentile interval of ``replicates``).
    """

    kind: str
    estimate: float
    scale: float
    method: str
    replicates: Any = None
    bounds: tuple[float, float] = (-math.inf, math.inf)


def interval_at(spec: IntervalSpec | None, level: float) -> ConfidenceInterval | None:
    """The interval of ``spec`` at ``level`` (None when undefined)."""
    if spec is None:
        return None
    if spec.kind == "replicates":
        from .._core.resampling import interval_from_replicates

        ci = interval_from_replicates(spec.replicates, level)
        lo, hi = float(ci[0]), float(ci[1])
    else:
        if not (math.isfinite(spec.estimate) and math.isfinite(spec.scale)):
            return None
        z = float(stats.norm.ppf(0.5 + level / 2.0))
        if spec.kind == "lognormal":
            with np.errstate(over="ignore"):
                lo = spec.estimate * float(np.exp(-z * spec.scale))
                hi = spec.estimate * float(np.exp(z * spec.scale))
        else:
            lo = max(spec.estimate - z * spec.scale, spec.bounds[0])
            hi = min(spec.estimate + z * spec.scale, spec.bounds[1])
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return None
    return ConfidenceInterval(lo, hi)


def _wald(estimate: float, se: float, method: str) -> IntervalSpec | None:
    if not (math.isfinite(estimate) and math.isfinite(se)):
        return None
    return IntervalSpec("normal", float(estimate), float(se), method)


# --------------------------------------------------------------------------
# logistic rows
# --------------------------------------------------------------------------

_LOGISTIC = ("calibration_in_the_large", "calibration_intercept", "calibration_slope")


def _fit_rows(y, p, w):
    """Rows of the logistic fits (0 < p < 1, positive weight), normalised weights."""
    from .._core.kernels.calibration import normalise_weights

    keep = (p > 0.0) & (p < 1.0)
    if w is not None:
        keep &= w > 0.0
    wk = None if w is None else normalise_weights(w[keep])[0]
    return keep, y[keep], special.logit(p[keep]), wk


def _iid_logistic(lg_res) -> dict:
    return {
        "calibration_in_the_large": _wald(
            lg_res.calibration_in_the_large,
            lg_res.calibration_in_the_large_stderr,
            "iid Wald",
        ),
        "calibration_intercept": _wald(
            lg_res.intercept, lg_res.intercept_stderr, "iid Wald"
        ),
        "calibration_slope": _wald(lg_res.slope, lg_res.slope_stderr, "iid Wald"),
    }


def _sandwich_se(y, X, offset, w, beta, hac_kwds: dict) -> np.ndarray:
    """HAC standard errors ``sqrt(diag(B (T^2 lrvar(scores)) B))`` with ``B`` the
    inverse information (``sandwich::kernHAC`` on the glm, with equal bandwidth
    weights for every column)."""
    from .._core.kernels.calibration import logistic_scores
    from ..stats import long_run_covariance

    psi, info = logistic_scores(y, X, offset, w, beta)
    t = psi.shape[0]
    meat = np.atleast_2d(long_run_covariance(psi, **hac_kwds)) * float(t) ** 2
    bread = np.linalg.inv(info)
    cov = bread @ meat @ bread
    return np.sqrt(np.diag(cov))


def _hac_logistic(y, p, w, lg_res, hac_kwds: dict, notes) -> dict:
    _, yk, lg, wk = _fit_rows(y, p, w)
    out: dict = dict.fromkeys(_LOGISTIC)
    label = "HAC sandwich"
    n = yk.shape[0]
    try:
        (se_citl,) = _sandwich_se(
            yk,
            np.ones((n, 1)),
            lg,
            wk,
            np.array([lg_res.calibration_in_the_large]),
            hac_kwds,
        )
        out["calibration_in_the_large"] = _wald(
            lg_res.calibration_in_the_large, se_citl, label
        )
        if lg_res.unreliability_df == 1:  # constant forecast: intercept-only model
            (se_a,) = _sandwich_se(
                yk, np.ones((n, 1)), None, wk, np.array([lg_res.intercept]), hac_kwds
            )
            out["calibration_intercept"] = _wald(lg_res.intercept, se_a, label)
        elif math.isfinite(lg_res.slope) and lg_res.converged:
            X = np.column_stack([np.ones(n), lg])
            se_a, se_b = _sandwich_se(
                yk, X, None, wk, np.array([lg_res.intercept, lg_res.slope]), hac_kwds
            )
            out["calibration_intercept"] = _wald(lg_res.intercept, se_a, label)
            out["calibration_slope"] = _wald(lg_res.slope, se_b, label)
    except (ValueError, np.linalg.LinAlgError) as exc:
        notes.add(f"HAC intervals of the logistic calibration not available: {exc}")
    return out


#: rows at each end of each class kept for the cheap test of separation
_SEPARATION_ROWS = 32


def _overlap_witness(yk: np.ndarray, lg: np.ndarray):
    """``overlaps(wb)``: True when the resample with weights ``wb`` holds an
    event below a non-event and an event above a non-event (in ``lg``), so
    that its classes are not separated; looks only at the
    :data:`_SEPARATION_ROWS` lowest and highest ``lg`` of each class (False:
    unknown, test all rows)."""
    k = _SEPARATION_ROWS
    ends = []
    for cls in (1.0, 0.0):
        rows = np.flatnonzero(yk == cls)
        if rows.shape[0] <= 2 * k:
            return lambda wb: False
        lo = rows[np.argpartition(lg[rows], k)[:k]]
        hi = rows[np.argpartition(-lg[rows], k)[:k]]
        ends.append((lo, hi))
    (lo1, hi1), (lo0, hi0) = ends

    def extreme(idx, wb, fn):
        present = idx[wb[idx] > 0.0]
        return fn(lg[present]) if present.shape[0] else math.nan

    def overlaps(wb: np.ndarray) -> bool:
        # NaN (no such row in the resample) compares False: unknown
        return bool(
            extreme(lo1, wb, np.min) < extreme(hi0, wb, np.max)
            and extreme(hi1, wb, np.max) > extreme(lo0, wb, np.min)
        )

    return overlaps


def _rows_refit(yk, lg, keep, start, joint: bool):
    """``refit(counts)``: the fits refitted on the rows of one resample
    (:func:`refit_calibration`), for data too small for the binned refits."""
    from .._core.kernels.calibration import refit_calibration

    all_kept = bool(keep.all())
    overlaps = _overlap_witness(yk, lg) if joint else None

    def refit(counts: np.ndarray) -> tuple[float, float, float]:
        wb = counts if all_kept else counts[keep]
        return refit_calibration(
            yk,
            lg,
            wb,
            start,
            joint=joint,
            check_separation=overlaps is None or not overlaps(wb),
        )

    return refit


#: counts of resampled rows held at once (the binned refits take a batch of resamples)
_BATCH_ELEMENTS = 1 << 23


def counts_refits(y, p, lg_res, p_order=None, integral: bool = True):
    """``refits(weights)``: (CITL, intercept, slope, O/E) of resamples given by
    the frequency weight of each row in each resample (``weights`` of shape
    ``(size, n)``, a row per resample, integer counts where ``integral``;
    returns ``(size, 4)``).

    The logistic fits are refitted with those weights, on the binned
    sufficient statistics of
    :class:`~skbrier._core.kernels.logistic_refit.BinnedRefits` (the numbers
    of a refit on the rows, to 1e-12) or, for small data, on the rows.
    ``p_order``: a stable order of the rows by ``p`` (the report's sort), or None.
    """
    from .._core.kernels.logistic_refit import BinnedRefits

    n = y.shape[0]
    keep, yk, lg, _ = _fit_rows(y, p, None)
    start = (
        lg_res.calibration_in_the_large,
        lg_res.intercept,
        lg_res.slope if math.isfinite(lg_res.slope) else 0.0,
    )
    joint = lg_res.unreliability_df == 2 and math.isfinite(lg_res.slope)
    by_logit = None
    if p_order is not None:  # logit increases with p: p's order restricted to the fit rows
        by_logit = p_order if keep.all() else (np.cumsum(keep) - 1)[p_order[keep[p_order]]]
    binned = BinnedRefits.build(yk, lg, None, start, joint, by_logit)
    del by_logit

    if binned is None:
        refit = _rows_refit(yk, lg, keep, start, joint)

        def rows_refits(counts: np.ndarray) -> np.ndarray:
            out = np.full((counts.shape[0], 4), np.nan)
            for s, c in enumerate(counts.astype(np.float64, copy=False)):
                out[s, 3] = _ratio(float(np.dot(c, y)), float(np.dot(c, p)))
                out[s, :3] = refit(c)
            return out

        return rows_refits
    # every row in one order: the fit rows as the binned refits sort them,
    # then the rows left out of the fits (for the O/E ratio)
    perm = np.concatenate([np.flatnonzero(keep)[binned.order], np.flatnonzero(~keep)])
    oe_cols = np.column_stack([y[perm], p[perm]])
    n_fit = binned.order.shape[0]

    scratch = Scratch()

    def binned_refits(counts: np.ndarray) -> np.ndarray:
        m = counts.shape[0]
        out = np.full((m, 4), np.nan)
        cb = scratch.rows(m, n)
        for s in range(m):
            # the counts in the binned order, gathered from 2 bytes per row
            c = counts[s]
            small = integral and c.max() <= 0xFFFF
            cb[s] = np.take(c.astype(np.uint16) if small else c, perm)
        o, e = (cb @ oe_cols).T
        for s in range(m):
            out[s, 3] = _ratio(float(o[s]), float(e[s]))
        out[:, :3] = binned.refit(cb[:, :n_fit])
        return out

    return binned_refits


def _bootstrap_task(y, p, w, lg_res, scheme: str, block_length: float, p_order=None):
    """``task(size, rng)`` of :func:`run_replicates`: (CITL, intercept, slope, O/E)
    of resamples drawn as the Brier metrics' bootstrap draws them (see
    :func:`counts_refits`): the iid bootstrap of frequency weights
    (:func:`~skbrier._core.resampling.frequency_resampler`; the total weight
    is the sample size), or blocks of rows with their weights, in batches of
    at most ``_BATCH_ELEMENTS`` counts."""
    from .._core.resampling import frequency_resampler, resample_multiplicities

    n = y.shape[0]
    if scheme == "iid":
        draw = frequency_resampler(w, n)
    else:

        def draw(rng: np.random.Generator) -> np.ndarray:
            counts = resample_multiplicities(rng, n, scheme, block_length)
            return counts if w is None else counts * w

    integral = w is None or scheme == "iid"
    refits = counts_refits(y, p, lg_res, p_order, integral)
    batch = max(1, _BATCH_ELEMENTS // max(n, 1))

    def task(size: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty((size, 4))
        for lo in range(0, size, batch):
            m = min(batch, size - lo)
            out[lo : lo + m] = refits(np.stack([draw(rng) for _ in range(m)]))
        return out

    return task


def _ratio(o: float, e: float) -> float:
    """The O/E ratio of a resample (NaN without expected events)."""
    return o / e if e > 0.0 else math.nan


def _bootstrap_intervals(
    y, p, w, lg_res, opts, inference, oe: float, notes, p_order=None
) -> dict:
    from .._core.resampling import run_replicates

    scheme = opts.inference_kwds.get("bootstrap", "iid")
    boot = getattr(inference, "_boot", None) or {}
    if "companion" in boot:  # refitted on the Brier score's resamples
        reps = boot["companion"].T
    else:
        bl = getattr(inference, "block_length", None) or 1.0
        try:
            task = _bootstrap_task(y, p, w, lg_res, scheme, float(bl), p_order)
        except ValueError as exc:  # too few observations to draw
            notes.add(f"No bootstrap interval of the logistic calibration: {exc}")
            return dict.fromkeys(_LOGISTIC + ("observed_expected",))
        reps = run_replicates(
            task,
            opts.n_resamples,
            random_state=opts.rng,
            n_jobs=opts.n_jobs,
            chunk_size=8,
            desc="bootstrap (logistic calibration)",
        )
    label = "bootstrap percentile" if scheme == "iid" else f"{scheme} bootstrap percentile"
    out: dict[str, IntervalSpec | None] = {}
    for j, (metric, est) in enumerate(
        (
            ("calibration_in_the_large", lg_res.calibration_in_the_large),
            ("calibration_intercept", lg_res.intercept),
            ("calibration_slope", lg_res.slope),
            ("observed_expected", oe),
        )
    ):
        r = reps[:, j]
        ok = np.isfinite(r)
        if ok.sum() < max(10, r.shape[0] // 2):
            out[metric] = None
            if metric != "calibration_slope" or lg_res.unreliability_df == 2:
                notes.add(
                    f"No bootstrap interval for {metric}: too few resamples with a fit."
                )
            continue
        if not ok.all():
            notes.add(
                f"{int((~ok).sum())} bootstrap resamples without a fit were left out of "
                f"the interval of {metric}."
            )
        out[metric] = IntervalSpec("replicates", float(est), math.nan, label, r[ok])
    return out


# --------------------------------------------------------------------------
# the extras
# --------------------------------------------------------------------------


def _oe_hac(y, w, oe: float, hac_kwds: dict, notes) -> IntervalSpec | None:
    """``log(O/E)`` with the HAC variance of ``O`` (``E`` fixed)."""
    from ..stats import long_run_covariance

    yw = y if w is None else w * y
    o = float(yw.sum())
    try:
        var_mean = float(np.asarray(long_run_covariance(yw, **hac_kwds)).ravel()[0])
    except ValueError as exc:
        notes.add(f"HAC interval of the O/E ratio not available: {exc}")
        return None
    se_log = math.sqrt(var_mean) * yw.shape[0] / o
    return IntervalSpec("lognormal", oe, se_log, "HAC log Wald")


def valprob_extras(
    y, p, w, lg_res, opts, inference, notes, sorted_yp=None, p_order=None, counts=None
) -> dict:
    """val.prob's Dxy, C (with DeLong's interval), D:p and the O/E ratio, and
    the interval specifications of every non-Brier row (``sorted_yp``: ``(y,
    p)`` sorted by ``p``, ``p_order`` that stable order, when the caller has
    them; ``counts``: ``(rows, total weight or None)`` of the whole data when
    ``y, p, w`` are a subsample of it, for the check of the sample size).

    Returns a dict with ``c_statistic``, ``dxy``, ``discrimination_pvalue``,
    ``observed_expected``, ``specs`` (``{metric: IntervalSpec or None}``) and
    ``enough_samples`` (False: too few observations for any interval).
    """
    from .._core.kernels.calibration import auc_delong, chi2_pvalue, observed_expected
    from .._core.params import check_min_samples
    from ..stats.inference import check_weighted_samples

    keep = slice(None) if w is None else w > 0.0
    yy, pp = y[keep], p[keep]
    ww = None if w is None else w[keep]
    c, var_c = auc_delong(yy, pp, ww, sorted_yp=sorted_yp if w is None else None)
    oe, _, _ = observed_expected(y, p, w, opts.confidence_level)
    specs: dict = {
        "c_statistic": None
        if not math.isfinite(var_c)
        else IntervalSpec("normal", c, math.sqrt(var_c), "DeLong (iid)", None, (0.0, 1.0)),
    }
    o = float(np.dot(y, w) if w is not None else y.sum())
    n_tot = float(w.sum() if w is not None else y.shape[0])
    se_log = math.sqrt(max(1.0 - o / n_tot, 0.0) / o) if o > 0 else math.nan
    specs["observed_expected"] = (
        IntervalSpec("lognormal", oe, se_log, "iid log Wald")
        if math.isfinite(oe) and math.isfinite(se_log)
        else None
    )
    enough = True
    if opts.cov_type != "hac":
        # rows, or with frequency weights their total, are the sample size
        # (the one check of brier_inference; HAC checks its own): too few
        # leave no interval, weighted or not (and nothing to resample)
        try:
            if counts is None:
                check_weighted_samples(int(yy.shape[0]), ww, True)
            else:
                check_min_samples(*counts)
        except ValueError as exc:
            notes.add(f"Confidence intervals not available: {exc}")
            enough = False
    specs.update(dict.fromkeys(_LOGISTIC))
    if lg_res is not None and enough:
        specs.update(_iid_logistic(lg_res))
        if opts.cov_type == "hac":
            specs.update(
                _hac_logistic(
                    y, p, w, lg_res, opts.inference_kwds.get("hac_kwds") or {}, notes
                )
            )
            specs["observed_expected"] = _oe_hac(
                y, w, oe, opts.inference_kwds.get("hac_kwds") or {}, notes
            )
        elif opts.cov_type == "bootstrap":
            specs.update(
                _bootstrap_intervals(y, p, w, lg_res, opts, inference, oe, notes, p_order)
            )
    if not enough:
        specs = dict.fromkeys(specs)
    d_p = None
    if lg_res is not None and math.isfinite(lg_res.lr_chi2):
        d_p = chi2_pvalue(lg_res.lr_chi2, 1, lg_res.weight_used)
    return {
        "c_statistic": float(c),
        "dxy": float(2.0 * c - 1.0),
        "discrimination_pvalue": d_p,
        "observed_expected": float(oe),
        "specs": specs,
        "enough_samples": enough,
    }
