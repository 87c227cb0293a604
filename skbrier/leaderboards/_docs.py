"""Docstring pieces of the leaderboards (:mod:`skbrier._core.docstrings`): each written once."""

from __future__ import annotations

from .._core.docstrings import with_pieces

__all__ = ["leaderboard_doc"]

#: ``{{name}}`` lines of the leaderboards' docstrings (besides the package's pieces)
PIECES = {
    "references_forecastbench": """\
References
----------
.. [1] Karger, E. et al. (2025). ForecastBench: A dynamic benchmark of AI
   forecasting capabilities. ICLR 2025.""",
    "history": """\
history : ForecastHistory
    From :func:`skbrier.forecast_history`.""",
    "metaculus_at": """\
at : None, {"midpoint", "close"}, lead time or times, default=None
    None: time-averaged; otherwise the spot time, as in
    :func:`skbrier.brier_at` (Metaculus uses the time its community
    prediction is revealed: give those times).""",
}

#: Replace each ``{{name}}`` line of a leaderboard docstring by its piece.
leaderboard_doc = with_pieces(PIECES)
