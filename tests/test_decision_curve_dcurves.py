"""decision_curve().to_frame() against dcurves.dca on the bundled forecasts, and the plot.

Fixtures made by tests/fixtures/decision_curve/make_dcurves_fixtures.py (dcurves 1.1.7).
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

from skbrier.datasets import load_forecasts
from skbrier.metrics.net_benefit import decision_curve

pd = pytest.importorskip("pandas")
FIX = pathlib.Path(__file__).parent / "fixtures" / "decision_curve"
DCURVES_COLUMNS = [
    "model",
    "threshold",
    "n",
    "prevalence",
    "harm",
    "test_pos_rate",
    "tp_rate",
    "fp_rate",
    "net_benefit",
    "net_intervention_avoided",
]


@pytest.fixture(scope="module")
def bundled():
    d = load_forecasts()
    return np.asarray(d["y"]), {
        "a": np.asarray(d["model_a"]),
        "b": np.asarray(d["model_b"]),
    }


def _thresholds(ref):
    """The thresholds dcurves used (read back bit for bit from the CSV)."""
    return ref.loc[ref.model == "a", "threshold"].to_numpy()


def _compare(ours, ref):
    assert list(ours.columns[: len(DCURVES_COLUMNS)]) == DCURVES_COLUMNS
    assert list(ours["model"]) == list(ref["model"])
    np.testing.assert_array_equal(ours["threshold"], ref["threshold"])
    np.testing.assert_array_equal(ours["n"], ref["n"])
    for col in ["prevalence", "harm", "tp_rate", "fp_rate", "net_benefit"]:
        np.testing.assert_allclose(ours[col], ref[col], rtol=1e-12, atol=1e-15, err_msg=col)
    col = "net_intervention_avoided"
    np.testing.assert_allclose(ours[col], ref[col], rtol=1e-9, atol=1e-12, err_msg=col)
    np.testing.assert_allclose(
        ours["net_interventions_avoided_per_100"], 100 * ref[col], rtol=1e-9, atol=1e-10
    )


def test_matches_dcurves_from_threshold_zero(bundled):
    y, models = bundled
    ref = pd.read_csv(FIX / "dcurves_bundled.csv")
    plain = ref[ref.case == "plain"].drop(columns="case").reset_index(drop=True)
    res = decision_curve(y, models, thresholds=_thresholds(plain))
    ours = res.to_frame()
    _compare(ours, plain)
    # no prevalence: the treated share is the sample's, as in dcurves
    np.testing.assert_allclose(ours["test_pos_rate"], plain["test_pos_rate"], rtol=1e-12)
    # threshold 0: everyone treated, net benefit = prevalence, NIA undefined
    at0 = ours[ours.threshold == 0]
    np.testing.assert_allclose(at0.loc[at0.model != "none", "net_benefit"], y.mean())
    assert at0.loc[at0.model == "all", "net_intervention_avoided"].isna().all()


def test_matches_dcurves_with_harm(bundled):
    y, models = bundled
    ref = pd.read_csv(FIX / "dcurves_bundled.csv")
    harm = ref[ref.case == "harm"].drop(columns="case").reset_index(drop=True)
    res = decision_curve(
        y, models, thresholds=_thresholds(harm), harm={"a": 0.01, "b": 0.02}
    )
    _compare(res.to_frame(), harm)


def test_matches_dcurves_case_control_except_test_pos_rate(bundled):
    y, models = bundled
    ref = pd.read_csv(FIX / "dcurves_casecontrol.csv")
    res = decision_curve(y, models, thresholds=_thresholds(ref), prevalence=0.1)
    ours = res.to_frame()
    _compare(ours, ref)
    # documented difference: ours is the treated share of the population
    np.testing.assert_allclose(ours["test_pos_rate"], ours["tp_rate"] + ours["fp_rate"])


def test_weighted_n_is_total_weight():
    res = decision_curve([0, 1, 1, 0], [0.2, 0.7, 0.4, 0.5], sample_weight=[1, 2, 3, 0.5])
    assert res.n == 6.5
    assert (res.to_frame()["n"] == 6.5).all()


def test_threshold_one_is_refused():
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        decision_curve([0, 1], [0.2, 0.8], thresholds=[0.5, 1.0])


# --------------------------------------------------------------------------- plots
def test_auto_ylim_shows_model_b_dip(bundled):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from skbrier.plotting.decision_curve import DecisionCurveDisplay

    y, models = bundled
    disp = DecisionCurveDisplay.from_predictions(y, models)
    low, high = disp.ax_.get_ylim()
    nb_b = disp.lines_["b"].get_ydata()
    # dcurves: model b's net benefit dips to -0.0427 at threshold 0.48
    ref = pd.read_csv(FIX / "dcurves_bundled.csv")
    dip = ref[(ref.case == "plain") & (ref.model == "b")].net_benefit.min()
    assert nb_b.min() == pytest.approx(dip, rel=1e-12)
    assert dip < -0.042
    for line in disp.lines_.values():
        data = line.get_ydata()
        assert low < data.min() and data.max() < high
    # treat-all is still cut a little below zero, not drawn to -inf
    assert low > -0.1
    plt.close("all")


def test_plot_net_intervention_avoided(bundled):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from skbrier.plotting.decision_curve import DecisionCurveDisplay

    y, models = bundled
    thr = np.arange(5, 60) / 100
    res = decision_curve(y, models, thresholds=thr)
    disp = DecisionCurveDisplay.from_result(res, curve="net_intervention_avoided")
    assert sorted(disp.lines_) == ["a", "b"]
    assert disp.treat_all_line_ is None and disp.treat_none_line_ is None
    assert disp.ax_.get_ylabel() == "Net interventions avoided per 100 patients"
    np.testing.assert_allclose(
        disp.lines_["a"].get_ydata(), res.net_interventions_avoided["a"], rtol=1e-12
    )
    per_patient = DecisionCurveDisplay.from_result(
        res, curve="net_intervention_avoided", per=1
    )
    frame = res.to_frame()
    np.testing.assert_allclose(
        per_patient.lines_["b"].get_ydata(),
        frame.loc[frame.model == "b", "net_intervention_avoided"],
        rtol=1e-12,
    )
    assert per_patient.ax_.get_ylabel() == "Net interventions avoided per patient"
    low, high = per_patient.ax_.get_ylim()
    for line in per_patient.lines_.values():
        assert low < np.nanmin(line.get_ydata()) and np.nanmax(line.get_ydata()) < high
    # a display built by hand (no result) computes the same curves
    from skbrier.plotting.decision_curve import DecisionCurveDisplay as D

    bare = D(
        thresholds=res.thresholds,
        net_benefit=res.curves(),
        treat_all=res.treat_all,
        prevalence=res.prevalence,
    ).plot(curve="net_intervention_avoided")
    np.testing.assert_allclose(
        bare.lines_["a"].get_ydata(), res.net_interventions_avoided["a"], rtol=1e-9
    )
    with pytest.raises(ValueError, match="curve"):
        disp.plot(curve="nia")
    with pytest.raises(ValueError, match="per"):
        disp.plot(curve="net_intervention_avoided", per=0)
    plt.close("all")


def test_clear_import_error_without_matplotlib(monkeypatch):
    from skbrier.plotting.decision_curve import DecisionCurveDisplay

    for mod in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(
        ImportError,
        match=r"DecisionCurveDisplay requires matplotlib: pip install matplotlib",
    ):
        DecisionCurveDisplay.from_predictions([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.3])
