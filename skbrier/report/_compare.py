"""The paired comparison of several calibration reports (numbers only; the text
and HTML renderers show it).

Two reports are compared pair by pair only when they score the same rows:
the same outcomes and weights, row by row, and (when the caller knows where
the rows come from, as the command line does) the same rows of the input.
Otherwise the comparison says why not, in words: the renderers never drop it
silently.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = ["Comparison", "PairComparison", "paired_comparison", "row_sets", "same_rows"]


@dataclass(frozen=True)
class PairComparison:
    """The Diebold-Mariano comparison of two reports scored on the same rows
    (:func:`skbrier.compare_brier`; difference = first minus second)."""

    first: str
    second: str
    difference: float
    ci: tuple[float, float] | None
    brier_index_difference: float
    brier_index_ci: tuple[float, float] | None
    pvalue: float
    cov_type: str
    confidence_level: float


@dataclass(frozen=True)
class Comparison:
    """Every pair of reports scored on the same rows, the net benefit
    differences of those pairs at the thresholds they share (``{threshold:
    {(first, second): difference}}``), and ``reason``: why some pairs (or all)
    are not compared (None when every pair is)."""

    pairs: list[PairComparison]
    net_benefit: dict[float, dict[tuple[str, str], float]] = field(default_factory=dict)
    reason: str | None = None
    confidence_level: float = 0.95


def _why_not(name_a: str, ra: Any, name_b: str, rb: Any) -> str | None:
    """None when ``ra`` and ``rb`` score the same rows, else a short reason."""
    if ra._data is None or rb._data is None:
        return f"{name_a} or {name_b} has no data attached"
    ka, kb = ra._rows_key, rb._rows_key
    ya, _, wa = ra._data
    yb, _, wb = rb._data
    if (ka is not None and kb is not None and ka != kb) or ya.shape != yb.shape:
        return (
            f"{name_a} and {name_b} are scored on different rows "
            f"({ra.n_samples} and {rb.n_samples} rows)"
        )
    if ra.n_samples != ya.shape[0] or rb.n_samples != yb.shape[0]:
        return (
            f"{name_a} and {name_b} keep only a subsample of their rows (dask "
            "input), which is not the rows they are scored on"
        )
    if (wa is None) != (wb is None):
        return f"{name_a} and {name_b} have different sample weights"
    if ya is not yb and not np.array_equal(ya, yb):
        if np.array_equal(np.sort(ya), np.sort(yb)) and (
            wa is None or np.array_equal(np.sort(wa), np.sort(wb))
        ):
            return (
                f"{name_a} and {name_b} hold their rows in different orders (the "
                "rows of dask or Spark input are kept in a random order), so they "
                "cannot be paired"
            )
        return f"{name_a} and {name_b} forecast different outcomes"
    if wa is not None and wa is not wb and not np.array_equal(wa, wb):
        return f"{name_a} and {name_b} have different sample weights"
    return None


def same_rows(reports: Mapping[str, CalibrationReport]) -> bool:
    """Whether every report scores the same rows (outcomes, weights and, when
    known, the rows of the input)."""
    items = list(reports.items())
    if any(r._data is None for _, r in items):
        return False
    a, ra = items[0]
    return all(_why_not(a, ra, b, rb) is None for b, rb in items[1:])


def row_sets(reports: Mapping[str, CalibrationReport]) -> list[list[str]]:
    """The names of the reports grouped by the rows they score (in order of
    first appearance): one group when every model is scored on the same rows."""
    groups: list[list[str]] = []
    for name, rep in reports.items():
        for g in groups:
            if _why_not(g[0], reports[g[0]], name, rep) is None:
                g.append(name)
                break
        else:
            groups.append([name])
    return groups


def _interval(res: Any, metric: str, level: float) -> tuple[float, float] | None:
    try:
        ci = res.confidence_interval(level, metric=metric)
    except (TypeError, ValueError):
        return None
    lo, hi = float(ci[0]), float(ci[1])
    return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None


def _untestable(name_a: str, name_b: str, exc: ValueError) -> str:
    """Why the pair ``name_a``, ``name_b`` (scored on the same rows) has no
    test: the reason :func:`skbrier.compare_brier` gave, in the pair's names."""
    msg = str(exc)
    if msg.startswith("y_proba_b: "):
        msg = msg[len("y_proba_b: ") :]
    msg = msg.replace("y_proba_a", name_a).replace("y_proba_b", name_b).rstrip(".")
    return f"{name_a} and {name_b} are scored on the same rows but cannot be tested: {msg}"


def _pair(name_a: str, name_b: str, ra: Any, rb: Any) -> PairComparison | str:
    """The comparison of a pair scored on the same rows, or why it has none."""
    from .._core.arrays import validated
    from ..stats.compare import compare_brier

    ya, pa, w = ra._data
    _, pb, _ = rb._data
    if pa is pb or np.array_equal(pa, pb):
        return (
            f"{name_a} and {name_b} are identical forecasts (the difference is 0; "
            "no test is possible)"
        )
    cov = "hac" if ra.cov_type == "hac" else "iid"
    # the reports' arrays were validated by calibration_report: not checked again
    try:
        with warnings.catch_warnings(), validated(ya, pa, pb, w):
            warnings.simplefilter("ignore")
            res = compare_brier(ya, pa, pb, sample_weight=w, cov_type=cov)  # type: ignore[arg-type]
    except ValueError as exc:  # too few observations, a constant differential
        return _untestable(name_a, name_b, exc)
    level = ra.confidence_level
    bi_diff = float(res.brier_index_difference)
    d, p = float(res.difference), float(res.pvalue)
    return PairComparison(
        first=name_a,
        second=name_b,
        difference=d,
        ci=_interval(res, "brier_score", level),
        brier_index_difference=bi_diff,
        brier_index_ci=_interval(res, "brier_index", level),
        pvalue=p,
        cov_type=cov,
        confidence_level=level,
    )


def _net_benefit(reports: Mapping[str, Any], pairs: list[PairComparison]) -> dict:
    tables = {
        n: {r["threshold"]: r["model"] for r in (rep.net_benefit or [])}
        for n, rep in reports.items()
    }
    out: dict[float, dict[tuple[str, str], float]] = {}
    for pc in pairs:
        a, b = pc.first, pc.second
        for t in sorted(set(tables[a]) & set(tables[b])):
            out.setdefault(t, {})[(a, b)] = tables[a][t] - tables[b][t]
    return dict(sorted(out.items()))


def paired_comparison(reports: Mapping[str, CalibrationReport]) -> Comparison | None:
    """The paired comparison of ``reports`` (None for fewer than two).

    Every pair of reports scored on the same rows gets the Diebold-Mariano
    test of :func:`skbrier.compare_brier` (the reports' HAC variance under
    ``cov_type="hac"``, else iid) at the first report's confidence level;
    the other pairs are left out and :attr:`Comparison.reason` says why.
    """
    if len(reports) < 2:
        return None
    pairs: list[PairComparison] = []
    refused: list[str] = []  # scored on different rows
    untested: list[str] = []  # the same rows, but no test is possible
    for a, b in itertools.combinations(reports, 2):
        why = _why_not(a, reports[a], b, reports[b])
        if why is not None:
            refused.append(why)
            continue
        pair = _pair(a, b, reports[a], reports[b])
        if isinstance(pair, str):
            untested.append(pair)
        else:
            pairs.append(pair)
    reasons = []
    if refused and not pairs and not untested:
        reasons.append(
            f"No paired comparison: {refused[0]}; comparing two models pair by pair "
            "needs both scored on the same rows (the same outcomes and weights)."
        )
    elif refused:
        total = len(refused) + len(untested) + len(pairs)
        reasons.append(
            f"{len(refused)} of {total} pairs are not compared: "
            f"they are scored on different rows (e.g. {refused[0]})."
        )
    if untested:
        lead = "No paired comparison: " if not pairs and not refused else ""
        if pairs or refused:
            total = len(refused) + len(untested) + len(pairs)
            lead = f"{len(untested)} of {total} pairs are not tested: "
        reasons.append(lead + "; ".join(untested) + ".")
    reason = " ".join(reasons) or None
    first = next(iter(reports.values()))
    return Comparison(
        pairs=pairs,
        net_benefit=_net_benefit(reports, pairs),
        reason=reason,
        confidence_level=first.confidence_level,
    )
