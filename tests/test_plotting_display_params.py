"""The Displays that only store their parameters keep their public constructor.

``ReliabilityDisplay`` and ``MulticlassReliabilityDisplay`` say each parameter
once (a dataclass); their signature, their stored attributes, their repr and
their identity equality are those of a hand-written ``__init__``.
"""

import inspect

import numpy as np
import pytest

from skbrier.plotting._multiclass_reliability import MulticlassReliabilityDisplay
from skbrier.plotting.reliability import ReliabilityDisplay

P, K = "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"
EMPTY = inspect.Parameter.empty

SIGNATURES = {
    ReliabilityDisplay: [
        ("forecast", P, EMPTY, "ArrayLike | Sequence[ArrayLike]"),
        ("observed", P, EMPTY, "ArrayLike | Sequence[ArrayLike]"),
        ("band_forecast", K, None, "ArrayLike | Sequence[ArrayLike] | None"),
        ("band_lower", K, None, "ArrayLike | Sequence[ArrayLike] | None"),
        ("band_upper", K, None, "ArrayLike | Sequence[ArrayLike] | None"),
        ("band_kind", K, "consistency", "str"),
        ("confidence_level", K, 0.95, "float"),
        ("decomposition_method", K, "corp", "str"),
        ("hist_edges", K, None, "ArrayLike | None"),
        ("hist_weights", K, None, "ArrayLike | Sequence[ArrayLike] | None"),
        ("components", K, None, "dict | None"),
        ("curve_labels", K, None, "Sequence[str] | None"),
        ("estimator_name", K, None, "str | None"),
        ("pos_label", K, None, "Any"),
        ("curve_kind", K, "class", "str"),
    ],
    MulticlassReliabilityDisplay: [
        ("confidence", P, EMPTY, "np.ndarray"),
        ("accuracy", P, EMPTY, "np.ndarray"),
        ("weight", P, EMPTY, "np.ndarray"),
        ("ece", P, EMPTY, "float"),
        ("kind", P, EMPTY, "str"),
        ("name", P, None, "str | None"),
    ],
}


@pytest.mark.parametrize("display", list(SIGNATURES), ids=lambda c: c.__name__)
def test_constructor_signature_is_unchanged(display):
    sig = inspect.signature(display)
    got = [(p.name, p.kind.name, p.default, p.annotation) for p in sig.parameters.values()]
    assert got == SIGNATURES[display]
    assert sig.return_annotation in ("None", None)


@pytest.mark.parametrize("display", list(SIGNATURES), ids=lambda c: c.__name__)
def test_stores_every_parameter_as_given_with_default_repr_and_identity(display):
    values = {name: object() for name, *_ in SIGNATURES[display]}
    disp = display(**values)
    for name, value in values.items():
        assert getattr(disp, name) is value
    assert repr(disp).startswith(f"<{display.__module__}.{display.__name__} object at ")
    assert disp != display(**values)
    assert disp == disp
    assert isinstance(hash(disp), int)


def test_positional_and_keyword_only_calls():
    disp = ReliabilityDisplay([0.1, 0.9], [0.2, 0.8], band_kind="wilson")
    assert disp.band_kind == "wilson" and disp.curve_kind == "class"
    with pytest.raises(TypeError):
        ReliabilityDisplay([0.1], [0.2], None)  # band_forecast is keyword-only
    multi = MulticlassReliabilityDisplay(np.ones(2), np.ones(2), np.ones(2), 0.0, "binary")
    assert multi.name is None and multi.kind == "binary"


# ----------------------------------------------------------- shared drawing rules
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def _forecasts(n=300, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, n)
    return (rng.uniform(size=n) < p).astype(int), p


def test_calibration_panels_share_the_unit_square():
    import matplotlib.pyplot as plt

    from skbrier.metrics import flexible_calibration_curve
    from skbrier.plotting import CalibrationCurveDisplay

    y, p = _forecasts()
    disp = CalibrationCurveDisplay.from_predictions(y, p)
    ax = flexible_calibration_curve(y, p).plot(histogram=False)
    for axk in (disp.ax_, ax):
        assert axk.get_xlim() == (-0.02, 1.02)
        assert axk.get_ylim()[1] == 1.02
        assert axk.get_xlabel() == "Predicted probability"
        assert axk.get_ylabel() == "Observed frequency"
    assert ax.get_ylim()[0] == -0.02
    np.testing.assert_allclose(disp.ax_.get_yticks(), np.linspace(0.0, 1.0, 6))
    plt.close("all")


@pytest.mark.parametrize(
    ("display", "kind"),
    [
        ("DecisionCurveDisplay", "DecisionCurveResult"),
        ("RiskCoverageDisplay", "RiskCoverageResult"),
    ],
)
def test_from_result_names_the_result_it_needs(display, kind):
    import skbrier.plotting as plotting

    with pytest.raises(TypeError, match=rf"^result must be a {kind}, got dict\.$"):
        getattr(plotting, display).from_result({})


@pytest.mark.parametrize("curve", ["net_benefit", "net_intervention_avoided"])
def test_decision_curve_ylim_rule_is_one_for_both_curves(curve):
    import matplotlib.pyplot as plt

    from skbrier.plotting import DecisionCurveDisplay

    y, p = _forecasts()
    disp = DecisionCurveDisplay.from_predictions(y, {"m": p}, curve=curve)
    auto = disp.ax_.get_ylim()
    assert auto[0] < 0.0 < auto[1]
    _, ax = plt.subplots()
    disp.plot(ax=ax, curve=curve, ylim=(-0.3, 0.7))
    assert ax.get_ylim() == (-0.3, 0.7)
    _, ax = plt.subplots()
    ax.set_ylim(-5.0, 5.0)
    ax.set_autoscaley_on(False)
    disp.plot(ax=ax, curve=curve, ylim=None)  # None keeps the axes' limits
    assert ax.get_ylim() == (-5.0, 5.0)
    plt.close("all")
