"""What the Displays of skbrier share: new axes, the stored axes, the
diagonal, a filled band, one model's line with its ``line_kwargs``, the
checked legend name and ``from_result`` input, the binary classifiers of
``from_estimator`` and the docstring pieces of the Displays' plumbing
(``ax``, ``name``, ``pos_label``, the forwarded keywords, ``ax_``/``figure_``).

matplotlib is imported only when something is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import numpy as np

from .._core.docstrings import PIECES, with_pieces
from ._pyplot import import_pyplot

__all__ = [
    "binary_estimator_forecasts",
    "check_axes",
    "check_name",
    "check_result",
    "display_doc",
    "draw_diagonal",
    "fill_band",
    "model_line",
    "new_axes",
    "store_axes",
]

_D = TypeVar("_D")
_T = TypeVar("_T", bound=Callable[..., object] | type)

_AX = PIECES["ax"]

#: docstring pieces of the ``from_*`` constructors of every Display
_PIECES = {
    "ax_plot_kwargs": _AX
    + """
**plot_kwargs
    Passed to :meth:`plot`.""",
    # from_estimator computes the forecasts and forwards the rest
    "ax_forwarded_kwargs": _AX
    + """
**kwargs
    Every other keyword argument of :meth:`from_predictions` (options
    of the statistic and of the drawing).""",
    "bootstrap_band": """\
n_resamples : int, default=0
    Bootstrap resamples for the pointwise bands (0: none).
confidence_level : float, default=0.95
    Level of the bands.
random_state : None, int, Generator or RandomState, default=None
    Seed of the bootstrap.""",
    "doctest_classifier": """\
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from sklearn.datasets import make_classification
>>> from sklearn.linear_model import LogisticRegression
>>> X, y = make_classification(n_samples=400, random_state=0)
>>> clf = LogisticRegression().fit(X[:200], y[:200])""",
    "doctest_forecasts": """\
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from skbrier.datasets import load_forecasts
>>> d = load_forecasts()""",
    "estimator_binary": """\
estimator : fitted classifier or dict of str to fitted classifier
    Classifier(s) with ``predict_proba`` and two ``classes_``.
X : array-like of shape (n_samples, n_features)
    Input data.
y : array-like of shape (n_samples,)
    Binary outcomes.""",
    "name_model": """\
name : str, default=None
    Legend label of a single model (default ``"model"``).""",
    "name_estimator": """\
name : str, default=None
    Legend label of a single estimator (default: its class name).""",
    "pos_label_estimator": """\
pos_label : int, float, bool or str, default=None
    The positive class of a binary classifier (default: its ``classes_[1]``).""",
    "ax_ref_line_kwargs": _AX
    + """
ref_line : bool, default=True
    Draw the diagonal.
**kwargs : dict
    Passed to :meth:`plot`.""",
    # the style of each model's curve (model_line), a plot option
    "line_kwargs": """\
line_kwargs : dict of str to dict, default=None
    Extra ``Axes.plot`` keywords of each model's curve, by model name.""",
    "axes_attributes": """\
ax_ : matplotlib Axes
    The axes drawn on.
figure_ : matplotlib Figure
    The figure of ``ax_``.""",
}

_with_display_pieces = with_pieces(_PIECES)


def display_doc(obj: _T) -> _T:
    """Replace each ``{{name}}`` line of a Display's docstrings by its piece
    (these, or the package's :data:`~skbrier._core.docstrings.PIECES`): of
    a function, or of a class and every method it defines."""
    if isinstance(obj, type):
        for member in vars(obj).values():
            func = getattr(member, "__func__", member)  # classmethod, staticmethod
            if callable(func):
                _with_display_pieces(func)
    return _with_display_pieces(obj)


def new_axes(ax: Any, display: str, **subplots_kw: Any) -> Any:
    """``ax``, or the axes of a new figure (``plt.subplots(**subplots_kw)``)."""
    plt = import_pyplot(display)
    if ax is None:
        _, ax = plt.subplots(**subplots_kw)
    return check_axes(ax)


def check_axes(ax: Any, name: str = "ax") -> Any:
    """``ax`` when it is None or a matplotlib Axes, else a TypeError naming
    ``name`` (not an AttributeError while drawing)."""
    if ax is not None and not (hasattr(ax, "plot") and hasattr(ax, "figure")):
        raise TypeError(
            f"{name} must be a matplotlib Axes (e.g. from plt.subplots()) or None, "
            f"got {type(ax).__name__}."
        )
    return ax


def store_axes(disp: _D, ax: Any) -> _D:
    """``disp`` with ``ax_`` and ``figure_`` set (sklearn's Display attributes)."""
    disp.ax_ = ax  # type: ignore[attr-defined]
    disp.figure_ = ax.figure  # type: ignore[attr-defined]
    return disp


def draw_diagonal(ax: Any, label: str, **kwargs: Any) -> Any:
    """The dashed grey diagonal of perfect calibration on ``ax`` (a Line2D)."""
    style = {"linestyle": "--", "color": "0.5", "linewidth": 1.0, "label": label}
    (line,) = ax.plot([0.0, 1.0], [0.0, 1.0], **{**style, **kwargs})
    return line


def fill_band(ax: Any, x: Any, low: Any, high: Any, color: Any, alpha: float) -> Any:
    """A pointwise band as a filled region without edge (a PolyCollection)."""
    return ax.fill_between(
        np.asarray(x),
        np.asarray(low),
        np.asarray(high),
        color=color,
        alpha=alpha,
        linewidth=0,
    )


def model_line(
    ax: Any, x: Any, y: Any, name: str, line_kwargs: Mapping[str, Any], **style: Any
) -> Any:
    """One model's curve on ``ax`` (a Line2D), labelled ``name``: the
    Display's ``style``, then the caller's ``line_kwargs[name]`` over it."""
    (line,) = ax.plot(x, y, **{**style, "label": name, **line_kwargs.get(name, {})})
    return line


def check_name(name: Any) -> str | None:
    """A legend name: None or a string."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a string, got {name!r}.")
    return name


def check_result(result: Any, kind: type) -> None:
    """The ``result`` of a ``from_result`` constructor: a ``kind`` instance."""
    if not isinstance(result, kind):
        raise TypeError(f"result must be a {kind.__name__}, got {type(result).__name__}.")


def binary_estimator_forecasts(
    estimator: Any, X: Any, pos_label: Any, name: str | None
) -> tuple[dict[str, np.ndarray], Any]:
    """``({name: probability of the positive class}, pos_label)`` of one fitted
    binary classifier or a dict of them (a single one is named ``name`` or
    its class name)."""
    from sklearn.utils.validation import check_is_fitted

    from .._response import forecasts_from_estimator

    if isinstance(estimator, Mapping):
        estimators = dict(estimator)
        if not estimators:
            raise ValueError("estimator is an empty dict: give at least one classifier.")
    else:
        estimators = {name or type(estimator).__name__: estimator}
    probas, pos = {}, pos_label
    for key, est in estimators.items():
        if not hasattr(est, "predict_proba"):
            raise ValueError(
                f"estimator {key!r} has no predict_proba: a probabilistic "
                "classifier is required."
            )
        check_is_fitted(est)
        if len(est.classes_) != 2:
            raise ValueError(
                f"estimator {key!r} has {len(est.classes_)} classes; a binary "
                "classifier is required."
            )
        probas[key], _, pos = forecasts_from_estimator(est, X, pos_label=pos_label)
    return probas, pos
