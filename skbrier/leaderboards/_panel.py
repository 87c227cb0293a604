"""Validation of a long-format forecasting panel (the public edge of the leaderboard)."""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._core.params import check_option, check_real
from .._core.results import to_builtin
from .._core.validation import (
    binary_target,
    check_probabilities,
    check_sample_weight,
    scale_free_weights,
)
from ._fit import Panel

__all__ = [
    "LabelledPanel",
    "check_anchor",
    "check_name",
    "check_one_row_per_question",
    "check_panel",
    "score_panel",
]

SINGLETONS = ("keep", "drop")


@dataclasses.dataclass
class LabelledPanel:
    """A :class:`Panel` with the names behind its codes and per-question labels."""

    panel: Panel
    forecasters: np.ndarray  # names, sorted
    questions: np.ndarray  # names, sorted
    strata: np.ndarray | None  # stratum code per question
    parts: np.ndarray | None  # combine-group code per question
    part_names: np.ndarray | None
    raw: np.ndarray  # raw (weighted) Brier per forecaster
    n_questions: np.ndarray  # questions answered per forecaster


def _labels(values: Any, name: str, n: int) -> np.ndarray:
    if isinstance(values, (str, bytes)) or values is None:
        raise TypeError(f"{name} must be an array of labels (one per row), got {values!r}.")
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per row), got shape {arr.shape}.")
    if arr.shape[0] != n:
        raise ValueError(
            f"{name} has {arr.shape[0]} rows but y_proba has {n}; "
            "all inputs must have the same number of rows."
        )
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN (a missing label).")
    if arr.dtype == object:
        for v in arr:
            if v is None or (isinstance(v, float) and v != v):
                raise ValueError(f"{name} contains a missing label ({v!r}).")
    return arr


def _codes(arr: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    try:
        uniq, inv = np.unique(arr, return_inverse=True)
    except TypeError:
        raise TypeError(
            f"{name} mixes label types that cannot be sorted; use one type (e.g. str)."
        ) from None
    return uniq, inv.ravel().astype(np.intp)


def check_one_row_per_question(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted names and row codes of a questions table (ValueError: one listed twice)."""
    names, code = _codes(ids, "question")
    if names.shape[0] != ids.shape[0]:
        order = np.argsort(code, kind="stable")
        dup = np.flatnonzero(code[order][1:] == code[order][:-1])[0]
        rows = sorted((int(order[dup]), int(order[dup + 1])))
        raise ValueError(
            f"question: question {to_builtin(ids[rows[0]])!r} appears in rows {rows[0]} "
            f"and {rows[1]} of questions; give one row per question."
        )
    return names, code


def _per_question(
    values: np.ndarray,
    q: np.ndarray,
    qnames: np.ndarray,
    name: str,
    rows: np.ndarray,
    advice: str,
    *,
    codes: np.ndarray | None = None,
    shown: np.ndarray | None = None,
) -> np.ndarray:
    """Codes of a row label that must be constant within each question.

    ``rows``: the user's row number of each entry (zero-weight rows are gone);
    ``advice``: what to do, ending the error that names how many questions
    differ and the first of them (that of the earliest row); ``codes``: the
    values' integer codes when known (else from their sorted uniques);
    ``shown``: the labels the message shows, by user row number (default:
    ``values``).
    """
    if codes is None:
        _, codes = _codes(values, name)
    first = np.full(qnames.shape[0], -1, dtype=np.intp)
    first[q[::-1]] = codes[::-1]
    bad = np.flatnonzero(first[q] != codes)
    if bad.size:
        r = bad[np.argmin(rows[bad])]
        o = np.flatnonzero((q == q[r]) & (codes == first[q[r]]))[0]  # its first row

        def show(k: int) -> Any:
            return to_builtin(values[k] if shown is None else shown[rows[k]])

        n_bad = np.unique(q[bad]).shape[0]
        raise ValueError(
            f"{name} must be the same on every row of a question: {n_bad} "
            f"question{' has' if n_bad == 1 else 's have'} rows that differ (the first: "
            f"question {to_builtin(qnames[q[r]])!r}, {name} {show(o)!r} "
            f"in row {int(rows[o])}, {show(r)!r} in row {int(rows[r])}); {advice}"
        )
    return first


def _same_label(a: Any, b: Any) -> bool:
    """Equal labels: text only equals text, a bool only a bool."""
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def check_name(value: Any, names: np.ndarray, name: str) -> int:
    """Code of the forecaster named ``value`` (ValueError naming the parameter if absent).

    Compared as Python values: never through the names' numpy dtype, which
    truncates text ("Aardvark" as "A") and numbers (1.7 as 1).
    """
    v = to_builtin(value)
    hit = [k for k, n in enumerate(names.tolist()) if _same_label(n, v)]
    if len(hit) != 1:
        shown = ", ".join(map(repr, names[:10].tolist())) + (
            ", ..." if names.shape[0] > 10 else ""
        )
        raise ValueError(f"{name}: unknown forecaster {v!r} (forecasters: {shown}).")
    return hit[0]


def check_anchor(anchor: Any, names: np.ndarray) -> tuple[int, float] | None:
    """``anchor=(name, value)`` as ``(code, value)``."""
    if anchor is None:
        return None
    if not isinstance(anchor, (tuple, list)) or len(anchor) != 2:
        raise TypeError(f"anchor must be a (forecaster, value) pair, got {anchor!r}.")
    code = check_name(anchor[0], names, "anchor")
    return code, check_real(anchor[1], "anchor value")


def check_panel(
    y_true: Any, y_proba: Any, *, pos_label: Any = None, **options: Any
) -> LabelledPanel:
    """Validate a panel of Brier scores ``(p - y)^2`` once (``options``: of :func:`score_panel`)."""
    p = check_probabilities(y_proba, allow_2d=False)
    y = binary_target(y_true, pos_label, p.shape[0])
    # the user's labels in the message when they are a plain column
    given = np.asarray(y_true)
    return score_panel(
        (p - y) ** 2,
        y_true=y,
        y_labels=given if given.shape == y.shape else None,
        **options,
    )


def _fitted(fit_forecasters: Any, fnames: np.ndarray) -> np.ndarray:
    """Per forecaster: whether ``fit_forecasters`` (None: all) names it."""
    fitted = np.ones(fnames.shape[0], dtype=bool)
    if fit_forecasters is None:
        return fitted
    if isinstance(fit_forecasters, (str, bytes)) or not isinstance(
        fit_forecasters, Iterable
    ):
        raise TypeError(
            f"fit_forecasters must be a list of forecaster names, got {fit_forecasters!r}."
        )
    fitted[:] = False
    for v in fit_forecasters:
        fitted[check_name(v, fnames, "fit_forecasters")] = True
    if not fitted.any():
        raise ValueError("fit_forecasters must name at least one forecaster.")
    return fitted


#: the per-row labels of a panel (forecaster and question are required; the
#: others, where given, must be constant within a question)
ROW_LABELS = ("forecaster", "question", "y_true", "strata", "combine")


def score_panel(
    b: np.ndarray,
    *,
    sample_weight: Any = None,
    fit_forecasters: Any = None,
    singletons: str = "keep",
    row_numbers: np.ndarray | None = None,
    y_labels: np.ndarray | None = None,
    **labels: Any,
) -> LabelledPanel:
    """A panel of any per-row scores ``b`` (lower is better); drop zero-weight rows.

    ``labels``: the arrays of :data:`ROW_LABELS` (``strata`` and ``combine``
    optional), one value per row, and ``y_true``, the 0/1 outcome of each
    row (one per question); ``row_numbers``: the user's row number of each
    (default ``0 .. n - 1``) and ``y_labels``: the user's outcome labels by
    row number, for the messages.
    """
    unknown = sorted(set(labels) - set(ROW_LABELS))
    if unknown:  # an internal caller's mistake, not a user's
        raise TypeError(f"score_panel: unknown labels {unknown} (known: {ROW_LABELS}).")
    n = b.shape[0]
    rows = {
        k: _labels(labels[k], k, n)
        for k in ROW_LABELS
        if k in ("forecaster", "question") or labels.get(k) is not None
    }
    # the fits depend on the ratios of the weights: scaled by 2**e (weights of
    # 5e-324 made the normal equations singular, LinAlgError)
    w = scale_free_weights(check_sample_weight(sample_weight, n))
    singletons = check_option(singletons, "singletons", SINGLETONS)
    keep = np.ones(n, dtype=bool) if w is None else w > 0
    wv = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
    b, wv = b[keep], wv[keep]
    kept = (np.arange(n) if row_numbers is None else np.asarray(row_numbers))[keep]
    rows = {k: v[keep] for k, v in rows.items()}
    fnames, f = _codes(rows["forecaster"], "forecaster")
    qnames, q = _codes(rows["question"], "question")
    n_f, n_q = fnames.shape[0], qnames.shape[0]
    pair = f.astype(np.int64) * n_q + q
    order = np.argsort(pair, kind="stable")
    dup = np.flatnonzero(pair[order][1:] == pair[order][:-1])
    if dup.size:
        r = int(order[dup[0] + 1])
        first, second = sorted((int(kept[order[dup[0]]]), int(kept[r])))
        raise ValueError(
            f"forecaster {to_builtin(fnames[f[r]])!r} answers question "
            f"{to_builtin(qnames[q[r]])!r} more than once (rows {first} and {second}): "
            "give one row per (forecaster, question) pair (average or pick one)."
        )
    if "y_true" in rows:  # a question has one outcome (a bad join gives a row its own)
        _per_question(
            rows["y_true"],
            q,
            qnames,
            "y_true",
            kept,
            "one outcome per question; check the join of outcomes to forecasts.",
            codes=(rows["y_true"] == 1).astype(np.intp),
            shown=y_labels,
        )
    fitted = _fitted(fit_forecasters, fnames)
    nfit_q = np.bincount(q[fitted[f]], minlength=n_q)
    if (nfit_q == 0).any():
        bad = qnames[nfit_q == 0]
        shown = ", ".join(map(repr, bad[:5].tolist())) + (", ..." if bad.size > 5 else "")
        raise ValueError(
            f"fit_forecasters: {bad.size} question(s) are answered by no fitted "
            f"forecaster ({shown}); their difficulty cannot be estimated. Fit a "
            "forecaster that answered them or remove those rows."
        )
    if singletons == "drop" and (nfit_q == 1).any():
        left = ~(nfit_q == 1)[q]
        if not left.any():
            raise ValueError(
                "singletons='drop' removes every question (each has one fitted forecaster)."
            )
        names = set(rows["forecaster"][left].tolist())
        return score_panel(
            b[left],
            sample_weight=wv[left],
            fit_forecasters=[v for v in fnames[fitted] if v in names],
            row_numbers=kept[left],
            **{k: v[left] for k, v in rows.items()},
        )
    panel = Panel(f, q, b, wv, n_f, n_q, fitted)
    stc = cbc = cbn = None
    if "strata" in rows:
        stc = _per_question(
            rows["strata"], q, qnames, "strata", kept, "give each question one stratum."
        )
    if "combine" in rows:
        cbn, _ = _codes(rows["combine"], "combine")
        cbc = _per_question(
            rows["combine"], q, qnames, "combine", kept, "give each question one type."
        )
    wf = np.bincount(f, weights=wv, minlength=n_f)
    raw = np.bincount(f, weights=wv * b, minlength=n_f) / wf
    nq = np.bincount(f, minlength=n_f)
    return LabelledPanel(panel, fnames, qnames, stc, cbc, cbn, raw, nq)


def is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
