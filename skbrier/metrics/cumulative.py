"""Binning-free calibration tests: cumulative differences and multicalibration.

* :func:`cumulative_calibration` -- the cumulative difference curve of
  Arrieta-Ibarra, Gujral, Tannen, Tygert and Xu (2022), its
  Kolmogorov--Smirnov and Kuiper ranges with asymptotic p-values, overall
  and per group (Holm-adjusted across groups);
* :func:`multicalibration_error` -- the worst normalised ECCE over the
  segments that columns (and their intersections) define, as MCGrad
  computes its multicalibration error.

The formulas live in :mod:`skbrier._core.kernels.cumulative`, the result
objects in :mod:`skbrier.metrics._cumulative_results` (re-exported here).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.arrays import as_array
from .._core.dispatch import HOST, Refused, backends
from .._core.docstrings import shared_doc
from .._core.kernels import cumulative as _k
from .._core.labels import check_groups
from .._core.params import (
    MIN_SAMPLES,
    check_int,
    check_min_samples,
    check_option,
    check_real,
)
from .._core.validation import binary_forecast, scale_free_exponent
from ._cumulative_results import (
    _STATISTICS,
    CumulativeCalibrationResult,
    MulticalibrationResult,
)

__all__ = [
    "CumulativeCalibrationResult",
    "MulticalibrationResult",
    "cumulative_calibration",
    "multicalibration_error",
]

Convention = Literal["paper", "mcgrad", "mapie"]
_CONVENTIONS: tuple[Convention, ...] = ("paper", "mcgrad", "mapie")
_SORTS_ALL_ROWS = Refused(
    "the curve sorts all rows at once; compute it on the collected rows "
    "(e.g. ddf.compute()) or on a uniform subsample"
)


def _positive_rows(
    y: np.ndarray, p: np.ndarray, w: np.ndarray | None, *codes: np.ndarray
) -> tuple[Any, ...]:
    """The rows of positive weight (a zero-weight row is an absent row)."""
    if w is None or w.min() > 0.0:
        return (y, p, w, *codes)
    keep = w > 0.0
    return (y[keep], p[keep], w[keep], *(c[keep] for c in codes))


def _compact(labels: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Labels and codes of the groups that still have rows."""
    present = np.bincount(codes, minlength=len(labels)) > 0
    if present.all():
        return labels, codes
    return labels[present], (np.cumsum(present) - 1)[codes]


def _python(value: Any) -> Any:
    """A numpy scalar as the Python one (labels in results and messages)."""
    return value.item() if isinstance(value, np.generic) else value


def _weight_counts(w: np.ndarray | None, convention: str) -> bool:
    """Whether the number of observations is the total weight (else the rows).

    Frequency weights count repeated rows; MCGrad's weights scale single
    observations, so there the rows count.
    """
    return w is not None and convention != "mcgrad"


def _check_observations(
    n: int, w: np.ndarray | None, total: float, convention: str, purpose: str
) -> None:
    """At least 3 observations: rows, or the total of frequency weights."""
    check_min_samples(n, total if _weight_counts(w, convention) else None, purpose=purpose)


def _sigma(
    p: np.ndarray, w: np.ndarray | None, codes: np.ndarray | None, k: int, convention: str
) -> np.ndarray:
    """``sigma`` of each part: MCGrad's weights scale observations, the others count them."""
    return _k.variance_sums(
        p, w, codes, k, weights="sampling" if convention == "mcgrad" else "frequency"
    )


def _ranges(lo: Any, hi: Any, convention: str) -> tuple[np.ndarray, np.ndarray]:
    """``(ks, kuiper)`` of curves with minimum ``lo`` and maximum ``hi``."""
    ks, kuiper, without_origin = _k.ranges(lo, hi)
    return np.atleast_1d(ks), np.atleast_1d(
        without_origin if convention == "mapie" else kuiper
    )


def _normalised(stat: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """``stat / sigma``; infinite where ``sigma`` is 0 and the curve is not flat, 0 where flat."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = stat / sigma
    flat = sigma == 0.0
    out[flat] = np.where(stat[flat] > 0.0, np.inf, 0.0)
    return out


def _tests(stats: dict[str, np.ndarray], enough: np.ndarray) -> dict[str, np.ndarray]:
    """The normalised statistics and their p-values (NaN without ``enough`` observations)."""
    ks_stat = _normalised(stats["ks"], stats["sigma"])
    ku_stat = _normalised(stats["kuiper"], stats["sigma"])
    return {
        **stats,
        "ks_statistic": ks_stat,
        "kuiper_statistic": ku_stat,
        "ks_pvalue": np.where(enough, _k.brownian_max_abs_sf(ks_stat), np.nan),
        "kuiper_pvalue": np.where(enough, _k.brownian_range_sf(ku_stat), np.nan),
    }


def _part_tests(
    ps: np.ndarray,
    ds: np.ndarray,
    ws: np.ndarray | None,
    codes: np.ndarray | None,
    k: int,
    convention: str,
    perm: np.ndarray | None = None,
    exponent: int = 0,
) -> dict[str, np.ndarray]:
    """The tests of each part's own curve.

    ``ps``, ``ds`` (``w (y - p)``, of the weights times ``2**exponent``:
    the curves are ratios) and ``ws`` are sorted by forecast and
    ``codes`` (in ``0..k-1``, no part empty; None: one part) are the parts
    of those rows; a stable sort of the codes groups the parts
    (:func:`order_by_part`; ``perm`` when the caller has it).  A part with
    fewer than 3 observations gets NaN p-values.
    """
    # distinct forecasts (no ties within any part): no need to move them
    tied = bool(np.any(ps[1:] == ps[:-1]))
    if codes is None:
        rows = np.array([ps.shape[0]])
        weight = rows.astype(np.float64) if ws is None else np.array([ws.sum()])
        lo, hi = _k.part_extremes(ps if tied else None, ds, np.zeros(1, dtype=np.intp))
    else:
        rows = np.bincount(codes, minlength=k)
        weight = (
            rows.astype(np.float64) if ws is None else np.bincount(codes, ws, minlength=k)
        )
        perm = _k.order_by_part(codes, k) if perm is None else perm
        starts = np.zeros(k, dtype=np.intp)
        np.cumsum(rows[:-1], out=starts[1:])
        lo, hi = _k.part_extremes(ps[perm] if tied else None, ds[perm], starts)
    scaled = weight if exponent == 0 else np.ldexp(weight, exponent)
    # a part of zero-weight rows only (MCGrad's rows): a flat curve at 0
    scaled = np.where(scaled > 0.0, scaled, 1.0)
    ks, kuiper = _ranges(lo / scaled, hi / scaled, convention)
    stats = {"n": rows, "weight": weight, "ks": ks, "kuiper": kuiper}
    sigma = _sigma(ps, ws, codes, k, convention)
    stats["sigma"] = sigma if ws is None else np.where(weight > 0.0, sigma, 0.0)
    counted = weight if _weight_counts(ws, convention) else rows
    return _tests(stats, counted >= MIN_SAMPLES)


@shared_doc
@backends(
    arrays=("y_true", "y_proba", "sample_weight", "groups"),
    dask=_SORTS_ALL_ROWS,
    array_api=HOST,
)
def cumulative_calibration(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    groups: ArrayLike | None = None,
    convention: Convention = "paper",
) -> CumulativeCalibrationResult:
    r"""Cumulative calibration tests (Kolmogorov--Smirnov and Kuiper), binning-free.

    With the rows sorted by forecast and :math:`W = \sum_j w_j`, the
    cumulative difference between outcomes and forecasts (Arrieta-Ibarra
    et al. 2022)

    .. math::

        C_0 = 0, \qquad C_k = \frac{1}{W} \sum_{j \le k} w_j (y_j - p_j)

    is flat on average where the forecasts are calibrated, and its slope is
    the miscalibration where they are not.  Its ranges

    .. math::

        \mathrm{KS} = \max_k |C_k|, \qquad
        \mathrm{Kuiper} = \max_k C_k - \min_k C_k

    (Kuiper's is MCGrad's ECCE), divided by the standard deviation of the
    endpoint under calibration :math:`\sigma = \sqrt{\sum_j w_j p_j (1 -
    p_j)} / W`, are asymptotically the maximum of :math:`|B|` and the range
    of a standard Brownian motion :math:`B` on [0, 1], which give the
    p-values.

    Parameters
    ----------
    {{binary_inputs}}
    groups : array-like of shape (n_samples,), default=None
        A group per sample (subgroups, centres): the statistics and p-values
        of each group's own curve, with Holm-adjusted p-values across the
        groups and the worst group.
    convention : {"paper", "mcgrad", "mapie"}, default="paper"
        ``"paper"``: as above, ``sample_weight`` being frequency weights
        (integer weights equal repeated rows); without weights this equals
        MCGrad and the paper.  ``"mcgrad"``: a weight scales one
        observation, :math:`\sigma = \sqrt{\sum_j w_j^2 p_j (1 - p_j)} / W`
        (MCGrad's ``ecce_sigma`` and Tygert's weighted-sampling code).
        ``"mapie"``: Kuiper's range over the points after the origin only
        (MAPIE's ``kuiper_statistic``).

    Returns
    -------
    CumulativeCalibrationResult
        The statistics, the curve (``forecast``, ``share``,
        ``cumulative_difference``), ``to_frame()`` and ``plot()``.

    Raises
    ------
    ValueError
        Fewer than 3 observations (rows, or a total frequency weight of 3),
        or the usual input errors.

    See Also
    --------
    multicalibration_error : The worst normalised ECCE over segments.
    skbrier.metrics.spiegelhalter_z : Another test of calibration without bins.

    Notes
    -----
    *Ties.*  The curve is read only after the last row of each run of equal
    forecasts, so the result does not depend on the order of tied rows.
    MCGrad and MAPIE read it after every row in the order their sort leaves
    tied rows (MAPIE first adds a relative jitter of 1e-8 with a fixed
    seed), so with tied forecasts their values depend on that order; with
    distinct forecasts the three agree (MAPIE to about 1e-8, its jitter).

    *Weights.*  MAPIE has none; MCGrad's ``sigma`` reads them as scaling
    single observations (``convention="mcgrad"``).

    *p-values.*  Where the p-value is below about 1e-15, MAPIE's ``1 - cdf``
    rounds to 0 and MCGrad returns machine epsilon; here the upper tails are
    summed directly, so tiny p-values stay accurate.

    Groups with fewer than 3 observations get NaN p-values and are left out
    of the Holm adjustment.

    References
    ----------
    .. [1] I. Arrieta-Ibarra, P. Gujral, J. Tannen, M. Tygert and C. Xu,
       "Metrics of calibration for probabilistic predictions", JMLR 23(351),
       1-54, 2022.
    .. [2] M. Tygert, "Calibration of P-values for calibration and for
       deviation of a subpopulation from the full population", arXiv
       2202.00100, 2022.
    .. [3] S. Holm, "A simple sequentially rejective multiple test
       procedure", Scand J Statist 6, 65-70, 1979.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics import cumulative_calibration
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0.05, 0.95, 5000)
    >>> y = rng.uniform(size=5000) < p
    >>> res = cumulative_calibration(y, p)
    >>> bool(res.kuiper_pvalue > 0.05)
    True
    >>> res = cumulative_calibration(y, np.clip(p + 0.05, 0, 1), groups=p > 0.5)
    >>> res.by_group["kuiper_pvalue_holm"].round(4)
    array([0., 0.])
    """
    convention = check_option(convention, "convention", _CONVENTIONS)
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    labels = codes = None
    if groups is not None:
        labels, codes = check_groups(groups, y.shape[0])
    return _cumulative(y, p, w, labels, codes, convention)


def _cumulative(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    labels: np.ndarray | None,
    codes: np.ndarray | None,
    convention: str,
    part_order: np.ndarray | None = None,
) -> CumulativeCalibrationResult:
    """:func:`cumulative_calibration` of validated rows, ``labels`` and
    ``codes`` from :func:`check_groups` (None: no groups).

    ``part_order``: :func:`~skbrier._core.kernels.cumulative.order_by_part`
    of ``codes`` when the caller has it (used only when the rows are already
    sorted by forecast and none has zero weight: then it is the order the
    per-group tests need, not computed again)."""
    if codes is None or labels is None:
        y, p, w = _positive_rows(y, p, w)
    else:
        given = p
        y, p, w, codes = _positive_rows(y, p, w, codes)
        labels, codes = _compact(labels, codes)  # renumbers in order: same order
        if p is not given:
            part_order = None
    n = y.shape[0]
    total = float(n if w is None else w.sum())
    _check_observations(n, w, total, convention, "the cumulative calibration test")
    # the curves on the weights times 2**e (exact: weights of 5e-324 rounded
    # every w (y - p)); sigma and the parts' weights on the weights themselves
    e = 0 if w is None else scale_free_exponent(w)
    we = w if w is None or e == 0 else np.ldexp(w, e)
    if codes is None:
        ps, d, ws = _k.sort_rows(y, p, we)
    else:
        ps, ys, ws, codes = _k.by_forecast(p, y, we, codes)
        d = ys - ps if ws is None else ws * (ys - ps)
        if ps is not p:  # sorted here: another order of the parts
            part_order = None
    curve = _k.cumulative_curve(ps, d, ws, total if e == 0 else math.ldexp(total, e))
    if ws is not None and e != 0:
        ws = np.ldexp(ws, -e)
    ks, kuiper = _ranges(curve.difference.min(), curve.difference.max(), convention)
    overall = _tests(
        {"ks": ks, "kuiper": kuiper, "sigma": _sigma(p, w, None, 1, convention)},
        np.array([True]),
    )
    by_group = worst = None
    if codes is not None and labels is not None:
        by_group = _part_tests(ps, d, ws, codes, len(labels), convention, part_order, e)
        by_group["ks_pvalue_holm"] = _k.holm(by_group["ks_pvalue"])
        by_group["kuiper_pvalue_holm"] = _k.holm(by_group["kuiper_pvalue"])
        ok = np.flatnonzero(np.isfinite(by_group["kuiper_pvalue"]))
        if ok.size:
            worst = _python(labels[ok[np.argmax(by_group["kuiper_statistic"][ok])]])
    return CumulativeCalibrationResult(
        **{k: float(overall[k][0]) for k in _STATISTICS},
        n=int(n),
        total_weight=total,
        convention=convention,
        forecast=curve.forecast,
        share=curve.share,
        cumulative_difference=curve.difference,
        groups=labels,
        by_group=by_group,
        worst_group=worst,
    )


# --------------------------------------------------------------------------- segments
#: the defaults of :func:`multicalibration_error` (the report's too)
MAX_DEPTH = 1
MIN_SEGMENT_SAMPLES = 10.0


def _segment_columns(segments: Any, n: int) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """``(name, labels, codes)`` of each segmenting column (one ``check_groups`` each)."""
    if hasattr(segments, "columns") and hasattr(segments, "iloc"):  # a DataFrame
        names = [str(c) for c in segments.columns]
        cols = [segments.iloc[:, j] for j in range(len(names))]
    elif isinstance(segments, Mapping):  # {name: column}
        names, cols = [str(c) for c in segments], list(segments.values())
    else:
        arr = as_array(segments, "segments")
        if arr.ndim == 1:
            name = getattr(segments, "name", None)
            names, cols = [str(name) if name is not None else "x0"], [arr]
        elif arr.ndim == 2:
            names = [f"x{j}" for j in range(arr.shape[1])]
            cols = [arr[:, j] for j in range(arr.shape[1])]
        else:
            raise ValueError(
                "segments must be 1-D (one segmenting column) or 2-D (one column per "
                f"segmenting variable), got shape {arr.shape}."
            )
    if not names:
        raise ValueError("segments has no column: give at least one segmenting column.")
    return [
        (nm, *check_groups(c, n, name=f"segments[{nm!r}]")) for nm, c in zip(names, cols)
    ]


def _intersect(codes: Sequence[np.ndarray]) -> tuple[np.ndarray, int, list[np.ndarray]]:
    """The parts that several columns cut together: ``(codes, k, part codes)``.

    ``part codes[j][i]`` is column ``j``'s code of part ``i`` (the part's
    label in that column); only non-empty parts are numbered, in the order
    of the columns' codes.
    """
    levels = [int(c.max()) + 1 for c in codes]
    if math.prod(levels) <= max(4 * codes[0].shape[0], 1 << 20):  # O(n): a bincount
        combined = np.ravel_multi_index(tuple(codes), levels)
        present = np.flatnonzero(np.bincount(combined, minlength=math.prod(levels)))
        if present.shape[0] == math.prod(levels):  # every combination: no renumbering
            return combined, present.shape[0], list(np.unravel_index(present, levels))
        lookup = np.empty(math.prod(levels), dtype=np.intp)
        lookup[present] = np.arange(present.shape[0])
        return lookup[combined], present.shape[0], list(np.unravel_index(present, levels))
    combined = np.zeros(codes[0].shape[0], dtype=np.int64)
    for c, k in zip(codes, levels):
        combined *= k
        combined += c
        if combined.max() > 2**40:  # keep the product of the levels in range
            combined = np.unique(combined, return_inverse=True)[1].reshape(-1)
    _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    return inverse.reshape(-1), first.shape[0], [c[first] for c in codes]


def _relative(mce: float, events: float, non_events: float) -> float:
    """``mce`` in percent of the rarer outcome's rate (NaN for a single class),
    from both outcomes' totals: ``1 - base_rate`` rounded to 0 (NaN) when the
    non-events weigh below 1e-16 of the total."""
    rare = min(events, non_events) / (events + non_events)
    return 100.0 * mce / rare if rare > 0.0 else float("nan")


@shared_doc
@backends(
    arrays=("y_true", "y_proba", "sample_weight", "segments"),
    dask=_SORTS_ALL_ROWS,
    array_api=HOST,
)
def multicalibration_error(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    segments: Any,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    max_depth: int = MAX_DEPTH,
    min_samples: float = MIN_SEGMENT_SAMPLES,
    convention: Literal["paper", "mcgrad"] = "paper",
) -> MulticalibrationResult:
    r"""The multicalibration error: the worst normalised ECCE over segments.

    Each value of each segmenting column is a segment (and with
    ``max_depth`` of 2 or more, each combination of values of up to
    ``max_depth`` columns); the whole sample is the segment of depth 0.  In
    each segment :math:`s` with at least ``min_samples`` observations, the
    ECCE is Kuiper's range of the segment's own cumulative difference curve
    (:func:`cumulative_calibration`), normalised by its standard deviation
    under calibration, and

    .. math::

        \mathrm{MCE}_\sigma = \max_s \frac{\mathrm{ECCE}_s}{\sigma_s},

    the multicalibration error of Guy et al. (2025) as MCGrad computes it
    (``MulticalibrationError.mce_sigma``).

    Parameters
    ----------
    {{binary_inputs}}
    segments : array-like of shape (n_samples,) or (n_samples, n_columns), DataFrame or dict
        The segmenting columns (categories: each distinct value is a
        segment).  A DataFrame's column names (a dict's keys) name the
        segments; an array's columns are ``x0``, ``x1``, ...  Bin numerical
        columns first.
    max_depth : int, default=1
        The most columns whose values are combined into one segment (0: the
        whole sample only).
    min_samples : float, default=10
        Segments with fewer observations are left out: rows, or with
        ``convention="paper"`` and weights the total frequency weight
        (with ``"mcgrad"`` rows of weight 0 count, as MCGrad's).
    convention : {"paper", "mcgrad"}, default="paper"
        How ``sigma`` reads ``sample_weight`` (see
        :func:`cumulative_calibration`); ``"mcgrad"`` also counts rows for
        ``min_samples``.  Without weights the two agree.

    Returns
    -------
    MulticalibrationResult
        ``mce_sigma`` and its p-value, MCGrad's absolute and relative
        scales, the worst segment, and every segment's statistics
        (``to_frame()``).

    Raises
    ------
    ValueError
        Fewer observations than ``min_samples`` (or 3) in the whole sample,
        a segmenting column with missing values, or the usual input errors.

    See Also
    --------
    cumulative_calibration : The curve and its tests, per group.

    Notes
    -----
    Equal to ``mcgrad.metrics.MulticalibrationError(df, label_column,
    score_column, weight_column, categorical_segment_columns=...,
    max_depth=..., min_samples_per_segment=...,
    max_values_per_segment_feature=<at least the number of values>,
    precision_dtype="float64")`` for distinct forecasts (ties: see
    :func:`cumulative_calibration`).  MCGrad computes in float32 by default
    (differences near 1e-6), collapses all but the most frequent values of
    a column with more than ``max_values_per_segment_feature`` (default 3)
    values into one, bins numerical columns into quantiles, makes missing
    values a value of their own, and stops after 1000 segments; here every
    value is a segment, missing values are refused (fill them with a label
    of their own), and every segment is tested.  The p-value is not
    adjusted for the number of segments (as MCGrad's, which argues that
    overlapping segments make the tests highly correlated); ``by_segment``
    has Holm-adjusted ones too.

    References
    ----------
    .. [1] I. Guy, D. Haimovich, F. Linder, N. Okati, L. Perini, N. Tax and
       M. Tygert, "Measuring multi-calibration", arXiv 2506.11251, 2025.
    .. [2] I. Arrieta-Ibarra et al., JMLR 23(351), 1-54, 2022.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.metrics import multicalibration_error
    >>> rng = np.random.default_rng(0)
    >>> region = rng.choice(["north", "south"], 4000)
    >>> p = rng.uniform(0.1, 0.9, 4000)
    >>> y = rng.uniform(size=4000) < np.where(region == "south", p**1.5, p)
    >>> res = multicalibration_error(y, p, segments={"region": region})
    >>> res.worst_segment, bool(res.pvalue < 0.01)
    ({'region': 'south'}, True)
    """
    convention = check_option(convention, "convention", ("paper", "mcgrad"))
    max_depth = check_int(max_depth, "max_depth", minimum=0)
    min_samples = check_real(min_samples, "min_samples", low=0.0)
    y, p, w = binary_forecast(
        y_true, y_proba, sample_weight=sample_weight, pos_label=pos_label
    )
    return _multicalibration(y, p, w, segments, max_depth, min_samples, convention)


def _multicalibration(
    y: np.ndarray,
    p: np.ndarray,
    w: np.ndarray | None,
    segments: Any,
    max_depth: int = MAX_DEPTH,
    min_samples: float = MIN_SEGMENT_SAMPLES,
    convention: str = "paper",
    known: tuple[Any, CumulativeCalibrationResult] | None = None,
) -> MulticalibrationResult:
    """:func:`multicalibration_error` of validated rows and checked options.

    ``known``: ``(column, result)`` where ``result`` is
    :func:`cumulative_calibration` of these rows (convention ``"paper"``)
    with ``groups=column``, ``column`` being one of the values of a dict
    ``segments`` (the same object): the segments of that column take its
    per-group tests, and with rows already sorted by forecast the whole
    sample its tests (the same numbers), instead of computing them again.
    """
    columns = _segment_columns(segments, y.shape[0])
    shared = None
    if known is not None and convention != "paper":
        known = None
    if known is not None and isinstance(segments, Mapping):
        values = list(segments.values())
        shared = next((j for j, v in enumerate(values) if v is known[0]), None)
    if convention != "mcgrad":  # MCGrad counts the rows of weight 0 as rows
        y, p, w, *kept = _positive_rows(y, p, w, *(c for _, _, c in columns))
        columns = [(nm, *_compact(lab, c)) for (nm, lab, _), c in zip(columns, kept)]
    n = y.shape[0]
    total = float(n if w is None else w.sum())
    _check_observations(n, w, total, convention, "the multicalibration error")
    counted_total = total if _weight_counts(w, convention) else n
    if counted_total < min_samples:
        raise ValueError(
            f"min_samples={min_samples:.4g} but the sample has {counted_total:.4g} "
            "observations (rows, or the total of sample_weight): no segment can be tested."
        )
    # everything in forecast order: each part's rows are then read in memory order
    # the curves on the weights times 2**e, as cumulative_calibration's
    e = 0 if w is None else scale_free_exponent(w)
    we = w if w is None or e == 0 else np.ldexp(w, e)
    ps, ys, ws, *sorted_codes = _k.by_forecast(p, y, we, *(c for _, _, c in columns))
    ds = ys - ps if ws is None else ws * (ys - ps)
    if ws is not None and e != 0:
        ws = np.ldexp(ws, -e)
    columns = [(nm, lab, c) for (nm, lab, _), c in zip(columns, sorted_codes)]
    found: list[dict] = [{}]
    if known is not None and ps is p:  # the same rows in the same order
        whole = known[1]
        parts = [
            {
                "n": np.array([whole.n]),
                "weight": np.array([whole.total_weight]),
                **{key: np.array([getattr(whole, key)]) for key in _STATISTICS},
            }
        ]
    else:
        parts = [_part_tests(ps, ds, ws, None, 1, convention, exponent=e)]
    for depth in range(1, min(max_depth, len(columns)) + 1):
        for combo in itertools.combinations(columns, depth):
            k = len(combo[0][1])  # the column's values (depth 1)
            if (
                known is not None
                and shared is not None
                and len(combo) == 1
                and combo[0] is columns[shared]
                and known[1].by_group is not None
                and known[1].by_group["n"].shape[0] == k
            ):
                first = [np.arange(k)]
                parts.append(known[1].by_group)
            else:
                codes, k, first = _intersect([c for _, _, c in combo])
                parts.append(_part_tests(ps, ds, ws, codes, k, convention, exponent=e))
            found += [
                {nm: _python(lab[f[i]]) for (nm, lab, _), f in zip(combo, first)}
                for i in range(k)
            ]
    table = {key: np.concatenate([t[key] for t in parts]) for key in parts[0]}
    counted = table["weight"] if _weight_counts(w, convention) else table["n"]
    keep = np.flatnonzero(counted >= min_samples)
    by_segment = {
        "n": table["n"][keep],
        "weight": table["weight"][keep],
        "ecce": table["kuiper"][keep],
        "sigma": table["sigma"][keep],
        "ecce_sigma": table["kuiper_statistic"][keep],
        "pvalue": table["kuiper_pvalue"][keep],
    }
    by_segment["pvalue_holm"] = _k.holm(by_segment["pvalue"])
    worst = int(np.argmax(by_segment["ecce_sigma"]))
    mce_sigma = float(by_segment["ecce_sigma"][worst])
    sigma = float(table["sigma"][0])
    events = float(np.sum(y) if w is None else np.dot(w, y))
    non_events = float(np.sum(1.0 - y) if w is None else np.dot(w, 1.0 - y))
    return MulticalibrationResult(
        mce_sigma=mce_sigma,
        pvalue=float(_k.brownian_range_sf(mce_sigma)),
        mce=mce_sigma * sigma,
        mce_relative=_relative(mce_sigma * sigma, events, non_events),
        mde=5.0 * sigma,
        global_ecce=float(table["kuiper"][0]),
        global_ecce_sigma=float(table["kuiper_statistic"][0]),
        global_pvalue=float(table["kuiper_pvalue"][0]),
        worst_segment=found[keep[worst]],
        n_segments=int(keep.shape[0]),
        segments=[found[i] for i in keep],
        by_segment=by_segment,
        max_depth=max_depth,
        min_samples=min_samples,
        convention=convention,
    )
