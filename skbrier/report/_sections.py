"""The decomposition and net-benefit sections of the calibration report
(in memory, Dask and Spark alike: ``compute`` computes a section another way,
e.g. from merged states).  Warnings raised on the way become the report's
notes (``notes``: :class:`._numbers._Notes`)."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ._options import Options
from ._text import DECOMPOSITION_TERMS

__all__: list[str] = []


def _decomposition(
    y,
    p,
    w,
    opts: Options,
    notes: Any,
    corp_kwds: dict | None = None,
    compute: Any = None,
) -> dict | None:
    """The CORP and binned decompositions (``corp_kwds``: e.g. the resolution
    of dask input; ``compute(func, kwds)``: ``func``'s result computed
    another way)."""
    from ..metrics.decomposition import corp_decomposition, murphy_decomposition

    out = {}
    murphy_kwds: dict[str, Any] = {"n_bins": opts.n_bins, "strategy": opts.strategy}
    for key, func, extra in (
        ("corp", corp_decomposition, corp_kwds or {}),
        ("murphy", murphy_decomposition, murphy_kwds),
    ):
        try:
            with notes.catching(func.__name__):
                res = (
                    func(y, p, sample_weight=w, **extra)
                    if compute is None
                    else compute(func, extra)
                )
        except ValueError as exc:
            notes.add(f"{func.__name__} not available: {exc}")
            continue
        terms = {}
        for field_name in DECOMPOSITION_TERMS[key]:
            v = getattr(res, field_name, None)
            if v is not None:
                terms[field_name] = float(v)
        out[key] = terms
        del res  # its per-forecast arrays are not kept while the next one runs
    return out or None


def _net_benefit(y, p, w, opts: Options, notes: Any, compute: Any = None) -> list | None:
    """One :func:`decision_curve` call for every threshold (``compute()``: its
    result computed another way)."""
    from ..metrics.net_benefit import decision_curve

    if opts.thresholds is None:
        return None
    with notes.catching("Net benefit"):
        res = (
            decision_curve(
                y,
                p,
                thresholds=opts.thresholds,
                sample_weight=w,
                prevalence=opts.prevalence,
            )
            if compute is None
            else compute()
        )
    # one model (p is an array): the per-model curves are arrays, not dicts
    net_benefit = cast(np.ndarray, res.net_benefit)
    standardized = cast(np.ndarray, res.standardized_net_benefit)
    avoided = cast(np.ndarray, res.net_interventions_avoided)
    rows = []
    for j, t in enumerate(opts.thresholds):
        rows.append(
            {
                "threshold": t,
                "model": float(net_benefit[j]),
                "treat_all": float(res.treat_all[j]),
                "treat_none": 0.0,
                # Kerr et al.'s standardized net benefit, Vickers et al.'s net
                # interventions avoided per 100 patients
                "standardized": float(standardized[j]),
                "interventions_avoided_per_100": float(avoided[j]),
            }
        )
    return rows
