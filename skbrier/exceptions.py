"""Warning classes of skbrier.

Errors are plain :class:`ValueError` and :class:`TypeError` whose messages
start with the offending parameter; warnings that a caller may want to filter
by kind have their own class here.
"""

from __future__ import annotations

__all__ = ["HardForecastWarning"]


class HardForecastWarning(UserWarning):
    """Every forecast is exactly 0 or 1: class predictions, not probabilities.

    Raised (once per public call) by every function that reads probability
    forecasts when all of them are exactly 0 or 1, the typical result of
    passing ``model.predict(X)`` where ``model.predict_proba(X)`` was meant.
    The scores are still computed: the Brier score of such forecasts is the
    error rate.  Silence it where hard forecasts are intended::

        import warnings
        from skbrier.exceptions import HardForecastWarning

        warnings.simplefilter("ignore", HardForecastWarning)

    Examples
    --------
    >>> import warnings
    >>> from skbrier import brier_score
    >>> from skbrier.exceptions import HardForecastWarning
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     score = brier_score([0, 1, 1, 0], [0, 1, 0, 0])
    >>> score, caught[0].category is HardForecastWarning
    (0.25, True)
    """
