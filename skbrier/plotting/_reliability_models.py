"""What a reliability diagram of data shows: its curves, one forecaster or several.

* :func:`display_data`: the arguments of
  :class:`~skbrier.plotting.reliability.ReliabilityDisplay` for one
  forecaster, from the CORP decomposition or from scikit-learn's bins
  (:mod:`._reliability_bins`), its forecasts validated once.
* :func:`model_forecasts`: ``y_proba`` given as ``{name: probabilities}`` or a
  pandas DataFrame (one column per model) becomes a dict; one array stays
  one forecaster; a *list* of 1-D arrays is refused (it reads like a 2-D
  probability matrix, so the intent is ambiguous: pass a dict).
* :func:`model_estimators`: ``{name: estimator}`` or a list of estimators
  (named by their class, deduplicated) becomes a dict.
* :func:`models_display_kwargs`: one curve per model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from .._core.params import (
    check_confidence_level,
    check_n_jobs,
    check_n_resamples,
    check_option,
    check_random_state,
    validate_random_state,
)
from .._core.validation import check_forecast
from .._decomposition_options import resolve_method
from ..metrics._decomposition_core import binary_columns
from ..metrics._decomposition_results import (
    CORPDecomposition,
    MulticlassDecomposition,
    MurphyDecomposition,
)
from ..metrics.decomposition import corp_decomposition
from ._reliability_bins import INTERVALS, binned_reliability, check_binning
from ._reliability_data import display_kwargs, forecast_histogram

__all__ = [
    "auto_resamples",
    "display_data",
    "models_data",
    "model_estimators",
    "model_forecasts",
    "models_display_kwargs",
]


def _is_dataframe(value: Any) -> bool:
    return (
        hasattr(value, "columns")
        and hasattr(value, "iloc")
        and getattr(value, "ndim", None) == 2
    )


def _check_names(names: Sequence[Any], what: str) -> list[str]:
    out = []
    for k in names:
        if not isinstance(k, str):
            raise TypeError(f"{what} names must be strings, got {k!r}.")
        out.append(k)
    if not out:
        raise ValueError(f"{what} is empty: give at least one model.")
    return out


def model_forecasts(y_true: Any, y_proba: Any) -> dict[str, Any] | None:
    """``{name: forecasts}`` for several models, or None for one forecaster.

    Raises
    ------
    TypeError
        For a list or tuple of 1-D arrays as long as ``y_true`` (ambiguous:
        several models or a probability matrix?), and for names that are
        not strings.
    """
    if isinstance(y_proba, Mapping):
        names = _check_names(list(y_proba), "y_proba")
        return {k: y_proba[k] for k in names}
    if _is_dataframe(y_proba):
        names = [str(c) for c in y_proba.columns]
        if len(set(names)) != len(names):
            raise ValueError("y_proba has duplicate column names.")
        return {n: y_proba.iloc[:, j].to_numpy() for j, n in enumerate(names)}
    if isinstance(y_proba, (list, tuple)) and len(y_proba) > 0:
        n = len(y_true) if hasattr(y_true, "__len__") else None
        first = y_proba[0]
        if (
            np.ndim(first) == 1
            and n is not None
            and len(y_proba) != n
            and all(np.ndim(a) == 1 and len(a) == n for a in y_proba)
        ):
            raise TypeError(
                f"y_proba is a list of {len(y_proba)} arrays of length {n}: several "
                "models or a probability matrix? To draw several models pass a dict "
                "{'name': probabilities, ...} (or a pandas DataFrame with one column "
                "per model); for predict_proba output pass a 2-D array of shape "
                "(n_samples, n_classes)."
            )
    return None


def model_estimators(estimator: Any) -> dict[str, Any] | None:
    """``{name: estimator}`` for several estimators, or None for one.

    A list's estimators are named by their class; repeated class names get
    `` (2)``, `` (3)``, ... appended.
    """
    if isinstance(estimator, Mapping):
        names = _check_names(list(estimator), "estimator")
        return {k: estimator[k] for k in names}
    if isinstance(estimator, (list, tuple)):
        if not estimator:
            raise ValueError("estimator is an empty list: give at least one model.")
        out: dict[str, Any] = {}
        for est in estimator:
            base = type(est).__name__
            name, k = base, 1
            while name in out:
                k += 1
                name = f"{base} ({k})"
            out[name] = est
        return out
    return None


def models_display_kwargs(results: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments of ``ReliabilityDisplay`` with one curve per model, from
    ``{name: binary CORP or Murphy decomposition}`` (all of one method).

    Raises
    ------
    ValueError
        For a multiclass forecast among several models.
    """
    per_model = {}
    for name, res in results.items():
        if not isinstance(res, (CORPDecomposition, MurphyDecomposition)):
            raise ValueError(
                f"model {name!r} has multiclass forecasts; several models can be "
                "drawn on one diagram for binary forecasts only."
            )
        per_model[name] = display_kwargs(res)
    return merge_models(per_model)


def merge_models(per_model: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """One display's arguments from each model's (one curve each)."""
    kws = list(per_model.values())
    first = kws[0]

    def each(key: str) -> list | None:
        values = [kw[key] for kw in kws]
        return None if any(v is None for v in values) else values

    edges = [kw["hist_edges"] for kw in kws]
    same_edges = all(np.array_equal(e, edges[0]) for e in edges)
    bands = each("band_lower") is not None and each("band_upper") is not None
    return {
        "forecast": each("forecast"),
        "observed": each("observed"),
        "band_forecast": each("band_forecast") if bands else None,
        "band_lower": each("band_lower") if bands else None,
        "band_upper": each("band_upper") if bands else None,
        "band_kind": first["band_kind"],
        "confidence_level": first["confidence_level"],
        "decomposition_method": first["decomposition_method"],
        "hist_edges": edges[0] if same_edges else edges,
        "hist_weights": each("hist_weights"),
        "components": {
            k: np.array([kw["components"].get(k, np.nan) for kw in kws])
            for k in first["components"]
        },
        "curve_labels": list(per_model),
        "curve_kind": "model",
    }


def _binned(y_true, y_proba, *, n_bins, strategy, interval, common) -> dict[str, Any]:
    """The binned diagram in scikit-learn's bins, the forecasts checked once."""
    fc = check_forecast(
        y_true,
        y_proba,
        sample_weight=common["sample_weight"],
        labels=common["labels"],
        pos_label=common["pos_label"],
    )
    pairs, classes = binary_columns(fc, common["pos_label"])
    w = fc.sample_weight
    level = common["confidence_level"]
    per_class = tuple(
        replace(binned_reliability(y01, p, w, n_bins, strategy), confidence_level=level)
        for y01, p in pairs
    )
    result = (
        per_class[0]
        if classes is None
        else MulticlassDecomposition(
            decomposition_method="murphy", classes=classes, per_class=per_class
        )
    )
    kwargs = display_kwargs(result, interval)
    # the forecasts themselves under the diagram (scikit-learn's quantile bins
    # may have no width)
    hists = [forecast_histogram(p, w) for _, p in pairs]
    kwargs["hist_edges"] = hists[0][0]
    kwargs["hist_weights"] = hists[0][1] if classes is None else [h for _, h in hists]
    return kwargs


def display_data(
    y_true,
    y_proba,
    *,
    decomposition_method,
    n_bins,
    strategy,
    interval,
    n_resamples,
    **common,
) -> dict[str, Any]:
    """The arguments of ``ReliabilityDisplay`` showing one forecaster:
    the CORP curve (and consistency band) or the binned curve in
    scikit-learn's bins (and per-bin intervals)."""
    method = resolve_method(decomposition_method)
    n_bins, strategy = check_binning(n_bins, strategy)
    check_confidence_level(common["confidence_level"])
    if interval is not None:
        check_option(interval, "interval", INTERVALS)
    if method == "corp":
        return display_kwargs(
            corp_decomposition(y_true, y_proba, n_resamples=n_resamples, **common)
        )
    # per-bin intervals, no resampling (the options are still checked)
    check_n_resamples(n_resamples, allow_zero=True)
    validate_random_state(common.pop("random_state"))
    check_n_jobs(common.pop("n_jobs"))
    return _binned(
        y_true, y_proba, n_bins=n_bins, strategy=strategy, interval=interval, common=common
    )


def models_data(y_true, forecasts: Mapping[str, Any], *, random_state, **options):
    """:func:`display_data` per model, merged: one curve per model; model
    ``k`` resamples with the ``k``-th generator spawned from ``random_state``.

    Raises
    ------
    ValueError
        For a multiclass forecast among several models.
    """
    validate_random_state(random_state)
    rngs = check_random_state(random_state).spawn(len(forecasts))
    per_model = {}
    for (name, proba), rng in zip(forecasts.items(), rngs):
        kw = display_data(y_true, proba, random_state=rng, **options)
        if kw["curve_labels"] is not None:  # one curve per class
            raise ValueError(
                f"model {name!r} has multiclass forecasts; several models can be "
                "drawn on one diagram for binary forecasts only."
            )
        per_model[name] = kw
    return merge_models(per_model)


#: largest sample for which ``n_resamples="auto"`` draws a consistency band
_AUTO_BAND_MAX_SAMPLES = 20_000


def auto_resamples(n_resamples: Any, data: Any) -> Any:
    """200 resamples for up to 20,000 rows, none above; numbers pass through."""
    if isinstance(n_resamples, str):
        if n_resamples != "auto":
            raise ValueError(
                f"n_resamples must be an integer or 'auto', got {n_resamples!r}."
            )
        n = data.shape[0] if hasattr(data, "shape") else len(data)
        return 200 if n <= _AUTO_BAND_MAX_SAMPLES else 0
    return n_resamples
