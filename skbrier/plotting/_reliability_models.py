"""Several forecasters on one reliability diagram: their input and their curves.

* :func:`model_forecasts`: ``y_proba`` given as ``{name: probabilities}`` or a
  pandas DataFrame (one column per model) becomes a dict; one array stays
  one forecaster; a *list* of 1-D arrays is refused (it reads like a 2-D
  probability matrix, so the intent is ambiguous: pass a dict).
* :func:`model_estimators`: ``{name: estimator}`` or a list of estimators
  (named by their class, deduplicated) becomes a dict.
* :func:`models_display_kwargs`: the decompositions of the models become the
  arguments of :class:`~skbrier.plotting.reliability.ReliabilityDisplay`
  (one curve per model).

No array is validated here: the decompositions do that, once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._core.params import (
    check_n_bins,
    check_n_jobs,
    check_n_resamples,
    check_random_state,
    validate_random_state,
)
from .._decomposition_options import resolve_method
from ..metrics._decomposition_results import CORPDecomposition, MurphyDecomposition
from ..metrics.decomposition import corp_decomposition, murphy_decomposition
from ._reliability_data import display_kwargs

__all__ = [
    "auto_resamples",
    "decompose",
    "decompose_models",
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
    """Arguments of ``ReliabilityDisplay`` with one curve per model.

    Every result must be a binary CORP or Murphy decomposition of the same
    method.

    Raises
    ------
    ValueError
        For a multiclass forecast among several models.
    """
    per_model = []
    for name, res in results.items():
        if not isinstance(res, (CORPDecomposition, MurphyDecomposition)):
            raise ValueError(
                f"model {name!r} has multiclass forecasts; several models can be "
                "drawn on one diagram for binary forecasts only."
            )
        per_model.append(display_kwargs(res))
    first = per_model[0]

    def each(key: str) -> list | None:
        values = [kw[key] for kw in per_model]
        return None if any(v is None for v in values) else values

    edges = [kw["hist_edges"] for kw in per_model]
    same_edges = all(np.array_equal(e, edges[0]) for e in edges)
    comps = {
        k: np.array([kw["components"].get(k, np.nan) for kw in per_model])
        for k in first["components"]
    }
    bands = each("band_lower") is not None and each("band_upper") is not None
    return {
        "forecast": each("forecast"),
        "observed": each("observed"),
        "band_forecast": each("band_forecast") if bands else None,
        "band_lower": each("band_lower") if bands else None,
        "band_upper": each("band_upper") if bands else None,
        "band_kind": first["band_kind"],
        "confidence_level": first["confidence_level"],
        "method": first["method"],
        "hist_edges": edges[0] if same_edges else edges,
        "hist_weights": each("hist_weights"),
        "components": comps,
        "curve_labels": list(results),
        "curve_kind": "model",
    }


def decompose(y_true, y_proba, *, method, n_bins, strategy, n_resamples, **common):
    """The decomposition a display draws, by the public metric function."""
    method = resolve_method(method)
    n_bins = check_n_bins(n_bins)
    if method == "corp":
        return corp_decomposition(y_true, y_proba, n_resamples=n_resamples, **common)
    # the Murphy diagram shows Wilson intervals: no resampling (options checked)
    check_n_resamples(n_resamples, allow_zero=True)
    validate_random_state(common.pop("random_state"))
    check_n_jobs(common.pop("n_jobs"))
    return murphy_decomposition(y_true, y_proba, n_bins=n_bins, strategy=strategy, **common)


def decompose_models(y_true, forecasts: Mapping[str, Any], *, random_state, **options):
    """``{name: decomposition}``: :func:`decompose` per model; model ``k``
    resamples with the ``k``-th generator spawned from ``random_state``."""
    validate_random_state(random_state)
    rngs = check_random_state(random_state).spawn(len(forecasts))
    return {
        name: decompose(y_true, proba, random_state=rng, **options)
        for (name, proba), rng in zip(forecasts.items(), rngs)
    }


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
