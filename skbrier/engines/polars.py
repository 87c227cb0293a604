"""skbrier's statistics on Polars Series, DataFrames and LazyFrames.

Every function takes the frame and the names of its columns, computes the
statistic's sufficient statistics with Polars aggregations (per label of
``y``, per bin or threshold, per group of ``group_by``; one query, run by
Polars' engine on all cores), and finishes them with the same kernel finish
functions as numpy input: the numbers equal the in-memory functions' on the
same rows (to rounding), and bad input raises the in-memory error.  The
``*_expr`` functions return Polars expressions of 0/1 outcomes, for
``select``, ``group_by(...).agg(...)`` and ``over(...)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._core.params import DEFAULT_N_BINS
from . import _common, _statistics
from ._common import BIN, LABEL, with_pieces
from ._polars_expr import (
    WINDOW,
    _column,
    _pl,
    brier_index_expr,
    brier_score_expr,
    brier_skill_score_expr,
    calibration_error_expr,
    group_mean,
    net_benefit_expr,
    render,
    render_aggs,
)

__all__ = [
    "brier_index",
    "brier_index_expr",
    "brier_inference",
    "brier_score",
    "brier_score_expr",
    "brier_skill_score",
    "brier_skill_score_expr",
    "calibration_bins",
    "calibration_error",
    "calibration_error_expr",
    "calibration_report",
    "decision_curve",
    "murphy_decomposition",
    "net_benefit",
    "net_benefit_expr",
]

_ENGINE = "Polars"
_PREFIX = "__skbrier_"

_PIECES = {
    "inputs": """\
data : polars.DataFrame, polars.LazyFrame or None
    The rows (a LazyFrame is collected once, reading only the columns used);
    None when ``y`` and ``p`` (and ``weight``) are Series of the same length.
y : str, polars.Expr or polars.Series, default="y"
    The outcome column: two labels (0/1, booleans, strings with
    ``pos_label``), as ``y_true`` of the in-memory functions.
p : str, polars.Expr or polars.Series, default="p"
    The probability of the positive class, as ``y_proba``.
weight : str, polars.Expr, polars.Series or None, default=None
    Non-negative frequency weights, as ``sample_weight``.""",
    "group_by": """\
group_by : str, list of str or None, default=None
    Columns of ``data``: one result per group, returned as a dict keyed by
    the group's value (a tuple for several columns).
pos_label : int, float, bool or str, default=None
    The positive class (scikit-learn's rule over each group's labels).""",
}
_doc = with_pieces(_PIECES)


# ----------------------------------------------------------------- the source
class _Source:
    """The Polars input of a call: one LazyFrame of the group columns and the
    logical columns (``y``, ``p``, ``w``, extras) under reserved names."""

    def __init__(
        self,
        data: Any,
        y: Any,
        p: Any,
        weight: Any,
        group_by: Any,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        pl = _pl()
        inputs = {"y": y, "p": p, "w": weight, **(extra or {})}
        inputs = {k: v for k, v in inputs.items() if v is not None}
        if data is None:
            series = {k: v for k, v in inputs.items() if isinstance(v, pl.Series)}
            if len(series) != len(inputs):
                raise TypeError(
                    "data is None: y, p and weight must then be polars Series; pass a "
                    "DataFrame or LazyFrame as data to name its columns."
                )
            lengths = {len(s) for s in series.values()}
            if len(lengths) > 1:
                raise ValueError(
                    f"the Series have different lengths {sorted(lengths)}; all inputs "
                    "must have the same number of samples."
                )
            data = pl.DataFrame({_PREFIX + k: s for k, s in series.items()}).lazy()
            inputs = {k: pl.col(_PREFIX + k) for k in series}
        elif isinstance(data, pl.DataFrame):
            data = data.lazy()
        elif not isinstance(data, pl.LazyFrame):
            raise TypeError(
                "data must be a polars DataFrame or LazyFrame (or None with Series), "
                f"got {type(data).__name__}."
            )
        names = data.collect_schema().names()
        params = {"y": "y", "p": "p", "w": "weight", "r": "reference"}
        exprs = {
            k: _column(v, params.get(k, "p"), names).alias(_PREFIX + k)
            for k, v in inputs.items()
        }
        self.keys = _common.check_group_by(group_by, names)
        floats = {k: e.cast(pl.Float64) for k, e in exprs.items() if k != "y"}
        self.lf = data.select(*[pl.col(k) for k in self.keys], exprs["y"], *floats.values())
        ydtype = self.lf.collect_schema()[_PREFIX + "y"]
        self.numeric_labels = ydtype.is_numeric() or ydtype == pl.Boolean
        self.cols = {k: pl.col(_PREFIX + k) for k in inputs}
        self.cols["y"] = self.cols["y"].cast(pl.Float64)
        self.weighted = "w" in inputs

    def run(self, aggs: list, *, by_label: bool, bins: Any) -> list[dict]:
        pl = _pl()
        keys = [pl.col(k) for k in self.keys]
        if by_label:
            keys.append(pl.col(_PREFIX + "y").alias(LABEL))
        if bins is not None:
            keys.append(render(bins, self.cols).alias(BIN))
        windows: list = []
        exprs = render_aggs(aggs, self.cols, windows)
        lf = self.lf
        if windows:  # the groups' means first, as window columns (two passes)
            part = [pl.col(k) for k in self.keys]
            if by_label:
                part.append(pl.col(_PREFIX + "y"))
            means = [group_mean(x, w, self.cols) for x, w in windows]
            if part:
                means = [m.over(part) for m in means]
            lf = lf.with_columns(m.alias(f"{WINDOW}{i}") for i, m in enumerate(means))
        if keys:
            out = lf.group_by(keys).agg(exprs).collect()
        else:
            out = lf.select(exprs).collect()
        return out.to_dicts()

    def _rows(self, key: tuple) -> Any:
        pl = _pl()
        lf = self.lf
        for k, v in zip(self.keys, key):
            lf = lf.filter(pl.col(k).eq_missing(v))
        return lf.collect()

    def fetch(self, key: tuple) -> dict[str, Any]:
        df = self._rows(key)
        return {
            c[len(_PREFIX) :]: df[c].to_numpy() for c in df.columns if c.startswith(_PREFIX)
        }

    def note(self, key: tuple) -> str:
        if not self.keys:
            return ""
        shown = key[0] if len(key) == 1 else key
        return (
            f"(Positions and counts are within the group {self.keys}={shown!r} of "
            f"the {_ENGINE} input.)"
        )


def _run(
    name: str,
    data: Any,
    y: Any,
    p: Any,
    weight: Any,
    group_by: Any,
    pos_label: Any,
    **options: Any,
) -> Any:
    """Statistic ``name`` of the Polars input (:func:`skbrier.engines._statistics.plan`)."""
    planned = _statistics.plan(
        name, p, weighted=weight is not None, pos_label=pos_label, engine=_ENGINE, **options
    )
    extra = dict(planned.columns)
    src = _Source(data, y, extra.pop("p"), weight, group_by, extra)
    return _common.compute(src, planned.stat, planned.given)


# ----------------------------------------------------------------- the Brier family
@_doc
def brier_score(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier score of the rows of a Polars frame (per group with ``group_by``).

    :math:`\mathrm{BS} = \sum_i w_i (p_i - y_i)^2 / \sum_i w_i`, from the sums
    of :func:`skbrier._core.kernels.brier.brier_reduce` computed by Polars
    (one pass; 0/1 outcomes take a fast path without grouping by label).

    Parameters
    ----------
    {{inputs}}
    {{group_by}}

    Returns
    -------
    float or dict
        The Brier score of :func:`skbrier.brier_score` on the same rows; a
        dict ``{group: score}`` with ``group_by``.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"g": [1, 1, 2], "y": [0, 1, 1], "p": [0.2, 0.7, 0.9]})
    >>> round(sbp.brier_score(df), 4)
    0.0467
    >>> {k: round(v, 4) for k, v in sorted(sbp.brier_score(df, group_by="g").items())}
    {1: 0.065, 2: 0.01}
    """
    return _run("brier_score", data, y, p, weight, group_by, pos_label)


@_doc
def brier_index(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier Index :math:`100 (1 - \sqrt{\mathrm{BS}})` of a Polars frame.

    Parameters
    ----------
    {{inputs}}
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.brier_index` of the rows (a dict with ``group_by``).

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1], "p": [0.2, 0.7, 0.9]})
    >>> round(sbp.brier_index(df), 2)
    78.4
    """
    return _run("brier_index", data, y, p, weight, group_by, pos_label)


@_doc
def brier_skill_score(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    reference: Any = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Brier skill score :math:`1 - \mathrm{BS} / \mathrm{BS}_\mathrm{ref}` of a Polars frame.

    Parameters
    ----------
    {{inputs}}
    reference : str, polars.Expr, float or None, default=None
        None: climatology (each group's event rate); a float: the constant
        forecast of that rate; a column: reference forecasts.
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.brier_skill_score` of the rows (NaN with an
        ``UndefinedMetricWarning`` when the reference scores 0).

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> round(sbp.brier_skill_score(df), 4)
    0.7
    """
    return _run(
        "brier_skill_score", data, y, p, weight, group_by, pos_label, reference=reference
    )


# ----------------------------------------------------------------- bins
@_doc
def calibration_error(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    n_bins: int = DEFAULT_N_BINS,
    norm: str = "l1",
    right: bool = True,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Binned calibration error of a Polars frame on ``n_bins`` uniform bins.

    ``norm="l1"`` is the ECE :math:`\sum_k \frac{W_k}{W} |\bar p_k - \bar y_k|`
    (``"l2"``: the root of the weighted squares, ``"max"``: the MCE), from the
    per-bin sums that Polars groups by label and bin.

    Parameters
    ----------
    {{inputs}}
    n_bins : int, default=10
        Number of equal-width bins on [0, 1].
    norm : {"l1", "l2", "max"}, default="l1"
        The norm of the bin gaps.
    right : bool, default=True
        A forecast on an inner edge goes to the lower bin (True) or the upper.
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.calibration_error` (``kind="binary"``) of the rows.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> round(sbp.calibration_error(df, n_bins=2), 4)
    0.25
    """
    opts = {"n_bins": n_bins, "norm": norm, "right": right}
    return _run("calibration_error", data, y, p, weight, group_by, pos_label, **opts)


@_doc
def calibration_bins(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    n_bins: int = 10,
    strategy: Any = "uniform",
    right: bool = True,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    """Per-bin sums of a Polars frame: the calibration bins (reliability diagram).

    Parameters
    ----------
    {{inputs}}
    {{uniform_bins}}
    {{group_by}}

    Returns
    -------
    BinStatistics or dict
        Counts and the sums of :math:`w`, :math:`wp`, :math:`wy`,
        :math:`wp^2`, :math:`wpy`, :math:`w^2` per bin
        (``binned_statistics`` of the rows);
        ``to_frame()`` gives the table.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> sbp.calibration_bins(df, n_bins=2).sum_wy
    array([0., 2.])
    """
    opts = {"n_bins": n_bins, "strategy": strategy, "right": right}
    return _run("calibration_bins", data, y, p, weight, group_by, pos_label, **opts)


@_doc
def murphy_decomposition(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    n_bins: int = 10,
    strategy: Any = "uniform",
    right: bool = True,
    bias_correction: bool = False,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Binned (Murphy) decomposition of the Brier score of a Polars frame.

    :math:`\mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC} +
    \mathrm{WBV} - \mathrm{WBC}` from the per-bin sums.

    Parameters
    ----------
    {{inputs}}
    {{uniform_bins}}
    bias_correction : bool, default=False
        Ferro and Fricker's finite-sample correction.
    {{group_by}}

    Returns
    -------
    MurphyDecomposition or dict
        :func:`skbrier.murphy_decomposition` of the rows.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> round(sbp.murphy_decomposition(df, n_bins=2).reliability, 4)
    0.065
    """
    opts = {"n_bins": n_bins, "strategy": strategy, "right": right}
    opts["bias_correction"] = bias_correction
    return _run("murphy_decomposition", data, y, p, weight, group_by, pos_label, **opts)


# ----------------------------------------------------------------- decisions
@_doc
def net_benefit(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    threshold: float,
    prevalence: float | None = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    r"""Net benefit :math:`TP/W - FP/W \cdot p_t / (1 - p_t)` of a Polars frame.

    Parameters
    ----------
    {{inputs}}
    threshold : float
        The threshold probability :math:`p_t`, in (0, 1).
    prevalence : float or None, default=None
        The prevalence of a case-control sample (None: the sample's).
    {{group_by}}

    Returns
    -------
    float or dict
        :func:`skbrier.net_benefit` of the rows.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> round(sbp.net_benefit(df, threshold=0.3), 4)
    0.3929
    """
    opts = {"threshold": threshold, "prevalence": prevalence}
    return _run("net_benefit", data, y, p, weight, group_by, pos_label, **opts)


@_doc
def decision_curve(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    thresholds: Any = None,
    prevalence: float | None = None,
    harm: Any = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    """Decision curve (net benefit at a grid of thresholds) of a Polars frame.

    Parameters
    ----------
    {{inputs}}
        A list of columns, or a dict ``{model name: column}``, gives several
        models.
    thresholds : array-like or None, default=None
        Thresholds in [0, 1) (None: :func:`skbrier.decision_curve`'s grid).
    prevalence : float or None, default=None
        The prevalence of a case-control sample (None: the sample's).
    harm : float, dict or None, default=None
        Harm of each model, in units of net benefit.
    {{group_by}}

    Returns
    -------
    DecisionCurveResult or dict
        :func:`skbrier.decision_curve` of the rows.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.9, 0.4]})
    >>> res = sbp.decision_curve(df, thresholds=[0.3, 0.5])
    >>> res.net_benefit.round(4)
    array([0.3929, 0.5   ])
    """
    opts = {"thresholds": thresholds, "prevalence": prevalence, "harm": harm}
    return _run("decision_curve", data, y, p, weight, group_by, pos_label, **opts)


# ----------------------------------------------------------------- inference, report
@_doc
def brier_inference(
    data: Any = None,
    y: Any = "y",
    p: Any = "p",
    weight: Any = None,
    *,
    reference: Any = None,
    group_by: Any = None,
    pos_label: Any = None,
) -> Any:
    """iid inference on the Brier score, skill score and Brier Index of a Polars frame.

    The centred moments of the squared errors (two passes inside Polars:
    the group's means, then the cross-products) finished as
    :func:`skbrier.brier_inference` with ``cov_type="iid"``.

    Parameters
    ----------
    {{inputs}}
    reference : str, polars.Expr, float or None, default=None
        None: climatology; a float: a constant forecast; a column: reference
        forecasts.
    {{group_by}}

    Returns
    -------
    BrierInferenceResult or dict
        Estimates, their covariance and ``confidence_interval()``.

    Examples
    --------
    >>> import polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.2, 0.7, 0.9, 0.4, 0.6]})
    >>> res = sbp.brier_inference(df)
    >>> round(res.brier_score, 4), round(res.standard_error(), 4)
    (0.092, 0.0306)
    """
    return _run(
        "brier_inference", data, y, p, weight, group_by, pos_label, reference=reference
    )


def calibration_report(
    data: Any = None, y: Any = "y", p: Any = "p", weight: Any = None, **kwargs: Any
) -> Any:
    """:func:`skbrier.calibration_report` of a Polars frame, reading only its columns.

    A LazyFrame is collected once with only ``y``, ``p`` and ``weight``
    selected (Polars pushes the projection into the scan: a Parquet file's
    other columns are not read), the columns go to numpy without a copy
    where their type allows, and the in-memory report computes every
    section exactly.

    Parameters
    ----------
    data : polars.DataFrame, polars.LazyFrame or None
        The rows (None when ``y``, ``p`` and ``weight`` are Series).
    y, p, weight : str, polars.Expr or polars.Series
        The outcome, probability and weight columns (see :func:`brier_score`).
    **kwargs
        The options of :func:`skbrier.calibration_report` (``thresholds``,
        ``cov_type``, ``n_bins``, ``pos_label``, ``name``, ...).

    Returns
    -------
    CalibrationReport

    Examples
    --------
    >>> import numpy as np, polars as pl
    >>> from skbrier.engines import polars as sbp
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0.05, 0.95, 500)
    >>> lf = pl.LazyFrame({"y": rng.uniform(size=500) < p, "p": p, "other": p})
    >>> report = sbp.calibration_report(lf, n_bins=5)
    >>> report.n_samples
    500
    """
    from ..report import calibration_report as report

    src = _Source(data, y, p, weight, None)
    cols = src.fetch(())
    return report(cols["y"], cols["p"], sample_weight=cols.get("w"), **kwargs)
