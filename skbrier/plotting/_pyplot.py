"""What every Display of skbrier needs from matplotlib: pyplot itself, or the
one ImportError, and the checked ``line_kwargs`` of a multi-model plot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._core.optional import import_optional

__all__ = ["check_line_kwargs", "check_line_properties", "import_pyplot"]


def import_pyplot(display: str) -> Any:
    """``matplotlib.pyplot``, or the ImportError naming the Display ``display``."""
    return import_optional("matplotlib.pyplot", needed_for=display)


def check_line_kwargs(line_kwargs: Any, names: Any = None) -> dict[str, Any]:
    """A copy of ``line_kwargs`` (model name -> keyword dict of line
    properties, :func:`check_line_properties`; None: empty); with ``names``
    (the models drawn), a key naming none of them is refused."""
    if line_kwargs is not None and not isinstance(line_kwargs, Mapping):
        raise TypeError(
            f"line_kwargs must be a dict of model name to dict, got {line_kwargs!r}."
        )
    out = dict(line_kwargs or {})
    for name, kw in out.items():
        if not isinstance(kw, Mapping):
            raise TypeError(
                f"line_kwargs[{name!r}] must be a dict of line properties, got {kw!r}."
            )
        check_line_properties(kw, f"line_kwargs[{name!r}]")
    if names is not None:
        known = list(names)
        unknown = [k for k in out if k not in known]
        if unknown:
            raise ValueError(
                f"line_kwargs names unknown models {unknown}; models: {known}."
            )
    return out


#: keywords of ``Axes.plot`` that are not properties of the line it draws
_PLOT_KEYWORDS = ("scalex", "scaley", "data")


def check_line_properties(kwargs: Mapping[str, Any], display: str) -> None:
    """A TypeError naming a keyword of ``display``'s curves (``**kwargs`` or
    one model's ``line_kwargs``, passed to ``Axes.plot``) that is no property
    of a matplotlib line, before anything is drawn (matplotlib raises an
    AttributeError while drawing)."""
    # checked before the Display imports pyplot: the first import of matplotlib
    Line2D = import_optional("matplotlib.lines", needed_for=display).Line2D

    props = {k: v for k, v in kwargs.items() if k not in _PLOT_KEYWORDS}
    try:
        Line2D([], []).set(**props)
    except AttributeError as exc:
        raise TypeError(
            f"{display}: {exc}; these keywords go to matplotlib's Axes.plot "
            "(line properties such as color, linestyle, linewidth)."
        ) from None
