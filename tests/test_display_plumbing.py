"""What every Display shares is said and done once: the docstring pieces of
the ``from_*`` constructors' plumbing parameters (``ax``, ``name``,
``pos_label`` of an estimator, the ``ax_``/``figure_`` attributes) and the
drawing of one model's line with its ``line_kwargs``."""

import inspect

import numpy as np
import pytest

from skbrier._core.docstrings import PIECES
from skbrier.plotting import (
    CalibrationCurveDisplay,
    DecisionCurveDisplay,
    ReliabilityDisplay,
    RiskCoverageDisplay,
)
from skbrier.plotting._common import _PIECES, model_line
from skbrier.plotting._multiclass_reliability import MulticlassReliabilityDisplay
from skbrier.survival import SurvivalCalibrationDisplay, calibration_at_horizon

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DISPLAYS = [
    CalibrationCurveDisplay,
    DecisionCurveDisplay,
    MulticlassReliabilityDisplay,
    ReliabilityDisplay,
    RiskCoverageDisplay,
    SurvivalCalibrationDisplay,
]


def _indented(piece: str, doc: str) -> bool:
    """``piece`` stands in ``doc`` at one indentation."""
    lines = [" ".join(line.split()) for line in doc.splitlines()]
    want = [" ".join(line.split()) for line in piece.splitlines()]
    return any(lines[i : i + len(want)] == want for i in range(len(lines)))


def _docs(display):
    yield display.__name__, inspect.getdoc(display) or ""
    for name, member in vars(display).items():
        func = getattr(member, "__func__", member)
        if callable(func) and func.__doc__:
            yield f"{display.__name__}.{name}", func.__doc__


@pytest.mark.parametrize("display", DISPLAYS, ids=lambda d: d.__name__)
def test_every_piece_of_every_display_docstring_is_replaced(display):
    for where, doc in _docs(display):
        assert "{{" not in doc, where


def test_the_plumbing_parameters_are_described_once():
    # the ax of the from_* constructors is the package's one ax piece
    assert _PIECES["ax_plot_kwargs"].startswith(PIECES["ax"])
    assert _PIECES["ax_forwarded_kwargs"].startswith(PIECES["ax"])
    for display in DISPLAYS:
        for where, doc in _docs(display):
            if "\n    ax : matplotlib Axes, default=None" in "\n" + doc:
                assert _indented(PIECES["ax"], doc), where


@pytest.mark.parametrize(
    "display",
    [
        CalibrationCurveDisplay,
        DecisionCurveDisplay,
        ReliabilityDisplay,
        RiskCoverageDisplay,
    ],
    ids=lambda d: d.__name__,
)
def test_from_estimator_names_its_estimator_with_the_shared_pieces(display):
    doc = display.from_estimator.__doc__
    assert _indented(_PIECES["name_estimator"], doc)
    if "pos_label" in inspect.signature(display.from_estimator).parameters:
        assert _indented(_PIECES["pos_label_estimator"], doc)


@pytest.mark.parametrize(
    "method",
    [
        DecisionCurveDisplay.from_predictions,
        RiskCoverageDisplay.from_predictions,
        RiskCoverageDisplay.from_result,
    ],
    ids=lambda m: m.__qualname__,
)
def test_the_legend_name_of_one_model_is_the_shared_piece(method):
    assert _indented(_PIECES["name_model"], method.__doc__)


@pytest.mark.parametrize(
    "display",
    [
        DecisionCurveDisplay,
        ReliabilityDisplay,
        RiskCoverageDisplay,
        SurvivalCalibrationDisplay,
    ],
    ids=lambda d: d.__name__,
)
def test_axes_attributes_are_the_shared_piece(display):
    assert _indented(_PIECES["axes_attributes"], inspect.getdoc(display))


@pytest.mark.parametrize(
    "display",
    [CalibrationCurveDisplay, DecisionCurveDisplay, SurvivalCalibrationDisplay],
    ids=lambda d: d.__name__,
)
def test_line_kwargs_of_model_line_is_the_shared_piece(display):
    assert _indented(_PIECES["line_kwargs"], display.plot.__doc__)


def test_model_line_puts_the_models_line_kwargs_over_the_defaults():
    fig, ax = plt.subplots()
    kwargs = {"a": {"color": "red", "linewidth": 3.0}}
    line = model_line(ax, [0, 1], [0, 1], "a", kwargs, color="blue", marker="o")
    assert line.get_label() == "a" and line.get_color() == "red"
    assert line.get_linewidth() == 3.0 and line.get_marker() == "o"
    other = model_line(ax, [0, 1], [1, 0], "b", kwargs, color="blue")
    assert other.get_label() == "b" and other.get_color() == "blue"
    relabelled = model_line(ax, [0, 1], [1, 0], "c", {"c": {"label": "C"}})
    assert relabelled.get_label() == "C"
    plt.close(fig)


def test_displays_draw_their_model_lines_with_the_shared_precedence():
    y = np.r_[np.ones(20), np.zeros(80)]
    p = np.linspace(0.05, 0.95, 100)
    kw = {"m": {"color": "red", "label": "M"}}
    disp = DecisionCurveDisplay.from_predictions(y, {"m": p}, line_kwargs=kw)
    assert disp.lines_["m"].get_color() == "red" and disp.lines_["m"].get_label() == "M"
    res = calibration_at_horizon(
        [1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6], [0.6, 0.9, 0.4, 0.5, 0.8, 0.3], 3.5,
        n_bins=2,
    )  # fmt: skip
    surv = SurvivalCalibrationDisplay.from_result(res, name="m", line_kwargs=kw)
    line = surv.lines_["m"]
    assert line.get_color() == "red" and line.get_label() == "M"
    assert line.get_marker() == "o"
    plt.close("all")
