"""Gallery examples of the Python API: they run, and their figures show what they say."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def plt():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_dcurves_migration_example(plt, capsys):
    pytest.importorskip("pandas")
    ns = runpy.run_path(str(EXAMPLES / "plot_dcurves_migration.py"))
    res = ns["res_plot"]
    fig = plt.gcf()
    ax_nb, ax_nia = fig.axes[:2]
    # left: net benefit of a, b and the two references
    lines = {ln.get_label(): ln for ln in ax_nb.get_lines()}
    assert {"a", "b", "Treat all", "Treat none"} <= set(lines)
    np.testing.assert_allclose(lines["a"].get_ydata(), res.net_benefit["a"])
    # right: net interventions avoided on dcurves' per-patient scale
    lines = {ln.get_label(): ln for ln in ax_nia.get_lines()}
    frame = res.to_frame()
    for m in ("a", "b"):
        col = frame.loc[frame["model"] == m, "net_intervention_avoided"].to_numpy()
        np.testing.assert_allclose(lines[m].get_ydata(), col)
        np.testing.assert_allclose(
            lines[m].get_ydata(), res.net_interventions_avoided[m] / 100
        )
    assert "per patient" in ax_nia.get_ylabel()
    out = capsys.readouterr().out
    if "dcurves is not installed" not in out:
        assert out.count("largest difference") == 8


def test_pooled_model_selection_example(plt):
    pytest.importorskip("pandas")
    ns = runpy.run_path(str(EXAMPLES / "plot_pooled_vs_mean_cv.py"))
    scores, by_pool, by_mean = ns["scores"], ns["by_pool"], ns["by_mean"]
    # pooled_best_score is the pooled index of the candidate the refit chose
    best = int(np.argmax(scores.brier_index))
    assert by_pool.best_index_ == best
    assert ns["pooled_best_score"](by_pool) == pytest.approx(scores.brier_index[best])
    assert not hasattr(by_pool, "best_score_")
    # the table names the candidates
    assert ns["table"]["param_clf__C"].tolist() == ns["grid"]["clf__C"]
    # the example's point: the two rules choose differently here
    assert by_mean.best_params_ != by_pool.best_params_
    # the right panel draws the mean-of-folds and pooled curves it describes
    ax = ns["ax"]
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    np.testing.assert_allclose(
        lines["mean of site indices"].get_ydata(), scores.mean_fold_brier_index
    )
    np.testing.assert_allclose(lines["pooled index"].get_ydata(), scores.brier_index)
    assert np.all(scores.mean_fold_brier_index >= scores.brier_index)
