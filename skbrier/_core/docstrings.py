"""Shared pieces of the numpydoc docstrings: each parameter described once.

A docstring names a piece on a line of its own, ``{{binary_inputs}}``, at the
indentation where it belongs; :func:`shared_doc` replaces the line by the
piece, indented the same way.  The pieces are the descriptions that many
public functions share word for word (the forecast inputs, the weights, the
plotting axes); a function whose parameter means something else describes it
itself.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = ["PIECES", "shared_doc", "with_pieces"]

_T = TypeVar("_T", bound=Callable[..., object] | type)

_BINARY_FORECAST = """\
y_true : array-like of shape (n_samples,)
    Binary outcomes.
y_proba : array-like of shape (n_samples,) or (n_samples, 2)
    Predicted probabilities of ``pos_label`` (or two-column
    ``predict_proba`` output)."""
_SAMPLE_WEIGHT = """\
sample_weight : array-like of shape (n_samples,), default=None
    Non-negative frequency weights."""
_POS_LABEL = """\
pos_label : int, float, bool or str, default=None
    The positive class."""

PIECES: dict[str, str] = {
    "binary_forecast": _BINARY_FORECAST,
    "binary_inputs": "\n".join((_BINARY_FORECAST, _SAMPLE_WEIGHT, _POS_LABEL)),
    "resolution": """\
resolution : float, "auto" or None, default=None
    Round the forecasts to multiples of ``resolution`` first (None: exact).
    ``"auto"``: exact while the events and the non-events each have at
    most ``2**20`` distinct forecasts, rounded to multiples of ``1e-6``
    beyond.  This bounds the memory of the distributed (dask) table of
    distinct forecasts for continuous forecasts with billions of
    distinct values; rounding never reverses two forecasts, it only ties
    those closer than the step.""",
    "sample_weight": _SAMPLE_WEIGHT,
    "pos_label": _POS_LABEL,
    "correctness_inputs": """\
y_correct : array-like of shape (n_samples,)
    1 (or True) where the answer is right, 0 where it is wrong.
confidence : array-like of shape (n_samples,)
    The confidence of each answer, in [0, 1].""",
    "brier_index_reference": """\
.. [1] S. Kučinskas, H. Bastani and M. Reynolds, "Making forecasting
   scores easier to interpret: introducing the Brier Index",
   ForecastBench, 2025.""",
    "spiegelhalter_reference": """\
.. [1] D. J. Spiegelhalter, "Probabilistic prediction in patient
   management and clinical trials", Statistics in Medicine 5, 421-433, 1986.""",
    "vickers_reference": """\
.. [1] Vickers AJ, Elkin EB. Decision curve analysis: a novel method for
   evaluating prediction models. Med Decis Making 2006;26:565-574.""",
    "ax": """\
ax : matplotlib Axes, default=None
    Axes to draw on; a new figure if None.""",
    "confidence_level": """\
confidence_level : float, default=0.95
    The confidence level, in (0, 1).""",
    "decomposed_inputs": """\
y_true : array-like of shape (n_samples,)
    True labels.
y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
    Predicted probabilities: of ``pos_label`` if 1-D, one column per
    sorted class if 2-D.""",
}

_TOKEN = re.compile(r"^(?P<indent>[ \t]*)\{\{(?P<name>[a-z_]+)\}\}[ \t]*$", re.MULTILINE)


def with_pieces(pieces: Mapping[str, str]) -> Callable[[_T], _T]:
    """A decorator replacing each ``{{name}}`` line of a docstring by
    ``pieces[name]`` (or the package's :data:`PIECES`), indented as the line."""

    def piece(match: re.Match[str]) -> str:
        name = match["name"]
        text = pieces.get(name, PIECES.get(name))
        if text is None:
            raise KeyError(f"unknown docstring piece {{{{{name}}}}}")
        return textwrap.indent(text, match["indent"])

    def deco(obj: _T) -> _T:
        if obj.__doc__:
            obj.__doc__ = _TOKEN.sub(piece, obj.__doc__)
        return obj

    return deco


#: Replace each ``{{name}}`` line of ``obj.__doc__`` by its shared piece.
shared_doc = with_pieces({})
