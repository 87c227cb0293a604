"""calibration_report / CalibrationReport: numbers against the metric functions and
rms::val.prob fixtures, exports (dict, JSON, HTML), graceful degradation."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from skbrier.datasets import load_forecasts
from skbrier.metrics.brier import brier_index, brier_score, brier_skill_score
from skbrier.metrics.calibration import (
    calibration_intercept_slope,
    spiegelhalter_z,
)
from skbrier.metrics.calibration_error import calibration_error
from skbrier.report import (
    CalibrationReport,
    calibration_report,
    reports_table,
    reports_to_html,
)

FIXTURES = json.loads(
    (Path(__file__).parent / "fixtures" / "valprob_fixtures.json").read_text()
)["cases"]


def _has(modname: str) -> bool:
    import importlib

    try:
        importlib.import_module(modname)
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def data():
    d = load_forecasts()
    return d["y"], d["model_b"]


@pytest.fixture(scope="module")
def report(data):
    y, p = data
    return calibration_report(y, p, thresholds=[0.05, 0.1, 0.2], name="model_b")


@pytest.mark.parametrize(
    "case", [c for c in FIXTURES if c.get("w") is None], ids=lambda c: c["name"]
)
def test_report_matches_val_prob(case):
    y = np.asarray(case["y"])
    p = np.asarray(case["p"])
    v = case["valprob"]
    rep = calibration_report(y, p)
    tol = 1e-6
    assert rep.brier_score == pytest.approx(v["Brier"], abs=tol)
    assert rep.calibration_intercept == pytest.approx(v["Intercept"], abs=tol)
    assert rep.calibration_slope == pytest.approx(v["Slope"], abs=tol)
    assert rep.spiegelhalter_z == pytest.approx(v["S:z"], abs=tol)
    assert rep.spiegelhalter_p == pytest.approx(v["S:p"], abs=tol)
    assert rep.emax == pytest.approx(v["Emax"], abs=tol)
    assert rep.e90 == pytest.approx(v["E90"], abs=tol)
    assert rep.eavg == pytest.approx(v["Eavg"], abs=tol)
    assert rep.calibration_in_the_large == pytest.approx(case["glm"]["citl"], abs=tol)
    assert rep.c_statistic == pytest.approx(case["somers2_C"], abs=1e-12)
    assert rep.logistic.unreliability_index == pytest.approx(v["U"], abs=tol)
    assert rep.logistic.r2 == pytest.approx(v["R2"], abs=tol)


def test_report_agrees_with_public_functions(data, report):
    y, p = data
    assert report.brier_score == pytest.approx(brier_score(y, p), rel=1e-12)
    assert report.brier_index == pytest.approx(brier_index(y, p), rel=1e-12)
    assert report.brier_skill_score == pytest.approx(brier_skill_score(y, p), rel=1e-12)
    a, b = calibration_intercept_slope(y, p)
    assert (report.calibration_intercept, report.calibration_slope) == (a, b)
    assert (report.spiegelhalter_z, report.spiegelhalter_p) == tuple(spiegelhalter_z(y, p))
    assert report.ece == calibration_error(y, p, kind="binary", n_bins=10)
    assert report.c_statistic == pytest.approx(roc_auc_score(y, p))
    assert report.n_samples == len(y)
    assert report.prevalence == pytest.approx(np.mean(y))
    assert report.n_events == float(np.sum(y))
    assert report.mean_forecast == pytest.approx(np.mean(p))
    assert isinstance(report, CalibrationReport)


def test_weighted_report(data):
    y, p = data
    w = np.random.default_rng(0).integers(1, 4, size=len(y)).astype(float)
    rep = calibration_report(y, p, sample_weight=w)
    assert rep.brier_score == pytest.approx(brier_score(y, p, sample_weight=w))
    rr = calibration_report(np.repeat(y, w.astype(int)), np.repeat(p, w.astype(int)))
    assert rep.calibration_slope == pytest.approx(rr.calibration_slope, abs=1e-9)
    assert rep.spiegelhalter_z == pytest.approx(rr.spiegelhalter_z, abs=1e-9)
    # integer weights: the lowess measures of the repeated rows
    assert rep.emax == pytest.approx(rr.emax, rel=1e-12)
    assert rep.eavg == pytest.approx(rr.eavg, rel=1e-12)
    assert rep.to_dict()["lowess"] == rr.to_dict()["lowess"]


def test_string_labels_and_pos_label(data):
    y, p = data
    lab = np.where(y == 1, "event", "none")
    a = calibration_report(lab, p, pos_label="event")
    b = calibration_report(y, p)
    assert a.brier_score == b.brier_score
    assert a.calibration_slope == b.calibration_slope


def test_two_column_input(data):
    y, p = data
    a = calibration_report(y, np.column_stack([1 - p, p]))
    b = calibration_report(y, p)
    assert a.to_dict() == b.to_dict()


def test_summary_text(report):
    text = report.summary()
    assert text.startswith("Calibration report: model_b")
    for label in (
        "Brier score",
        "Brier Index",
        "Brier skill score",
        "Calibration in the large",
        "Calibration intercept",
        "Calibration slope",
        "Spiegelhalter z",
        "ECE",
        "C statistic",
    ):
        assert label in text
    assert f"{report.calibration_slope:.4f}" in text
    assert str(report) == text


def test_to_dict_and_json(report):
    d = report.to_dict()
    assert d["name"] == "model_b"
    assert d["brier_score"]["estimate"] == report.brier_score
    assert d["calibration_slope"]["estimate"] == report.calibration_slope
    lo, hi = report.confidence_interval(metric="calibration_slope")
    assert d["calibration_slope"]["ci_low"] == lo
    assert d["calibration_slope"]["ci_high"] == hi
    assert lo < report.calibration_slope < hi
    assert d["spiegelhalter"]["z"] == report.spiegelhalter_z
    assert d["ece"]["n_bins"] == 10
    assert d["val_prob"]["U"] == report.logistic.unreliability_index
    text = report.to_json()
    back = json.loads(text)  # strict JSON: no NaN
    assert back == json.loads(json.dumps(d))
    assert "NaN" not in text


def test_json_has_no_nan_for_undefined_values():
    # constant forecast 0.5: Spiegelhalter z is 0/0 -> None in JSON
    rep = calibration_report([0, 1, 0, 1, 1], [0.5] * 5)
    d = json.loads(rep.to_json())
    assert d["spiegelhalter"]["z"] is None
    assert d["calibration_slope"]["estimate"] == 0.0  # val.prob's convention


def test_logistic_intervals_are_wald(report):
    lg = report.logistic
    lo, hi = report.confidence_interval(metric="calibration_intercept")
    z = 1.959963984540054
    assert lo == pytest.approx(lg.intercept - z * lg.intercept_stderr)
    assert hi == pytest.approx(lg.intercept + z * lg.intercept_stderr)
    with pytest.raises(ValueError, match="metric"):
        report.confidence_interval(metric="auc")


def test_html_is_self_contained(report, tmp_path):
    out = tmp_path / "r.html"
    text = report.to_html(out)
    assert out.read_text(encoding="utf-8") == text
    assert text.startswith("<!DOCTYPE html>")
    assert "Calibration slope" in text
    assert "<script" not in text and "http" not in text.replace("http-equiv", "")
    if _has("matplotlib"):  # figures inline as SVG (tests/test_report_html.py)
        assert text.count("<svg") == 2
    assert report.to_html() == text


def test_html_and_table_for_several_reports(data):
    d = load_forecasts()
    reps = {m: calibration_report(d["y"], d[m], name=m) for m in ("model_a", "model_b")}
    table = reports_table(reps)
    lines = table.splitlines()
    assert lines[0].split()[:4] == ["group", "n", "prev", "Brier"]
    assert lines[1].startswith("model_a") and lines[2].startswith("model_b")
    assert f"{reps['model_b'].calibration_slope:.3f}" in lines[2]
    page = reports_to_html(reps)
    assert page.count("<section><h2>") == 2  # one section per model
    with pytest.raises(ValueError, match="empty"):
        reports_table({})


def test_figures_without_matplotlib(monkeypatch, report):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    assert report.figures() == {}
    text = report.to_html()
    assert "data:image/png" not in text and "<svg" not in text
    assert "Figures need matplotlib" in text


def test_optional_sections_degrade_or_work(report, data):
    y, p = data
    import skbrier.stats

    if hasattr(skbrier.stats, "brier_inference"):
        ci = report.confidence_interval(metric="brier_score")
        assert ci is not None and ci[0] < report.brier_score < ci[1]
        bi = report.confidence_interval(metric="brier_index")
        assert bi[0] < report.brier_index < bi[1]
    else:
        assert report.confidence_interval(metric="brier_score") is None
        assert any("brier_inference" in n for n in report.notes)
    if _has("skbrier.metrics.net_benefit"):
        from skbrier.metrics.net_benefit import net_benefit

        assert [r["threshold"] for r in report.net_benefit] == [0.05, 0.1, 0.2]
        for r in report.net_benefit:
            assert r["model"] == pytest.approx(net_benefit(y, p, threshold=r["threshold"]))
            t = r["threshold"]
            prev = np.mean(y)
            assert r["treat_all"] == pytest.approx(prev - (1 - prev) * t / (1 - t))
    else:
        assert report.net_benefit is None
        assert any("Net benefit" in n for n in report.notes)
    if _has("skbrier.metrics.decomposition"):
        assert report.decomposition
    else:
        assert report.decomposition is None


def test_no_thresholds_no_net_benefit(data):
    y, p = data
    rep = calibration_report(y, p)
    assert rep.net_benefit is None
    assert not any("Net benefit" in n for n in rep.notes)


def test_extreme_probabilities_noted():
    case = next(c for c in FIXTURES if c["name"] == "extremes")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the report itself does not warn
        rep = calibration_report(case["y"], case["p"])
    assert rep.logistic.n_excluded == 5
    assert any("5 forecasts of exactly 0 or 1" in n for n in rep.notes)


def test_only_zero_one_forecasts_still_report():
    rep = calibration_report([0, 1, 1, 0], [0.0, 1.0, 1.0, 1.0])
    assert rep.logistic is None
    assert rep.calibration_slope is None
    assert rep.brier_score == 0.25
    assert "n/a" in rep.summary()
    assert rep.to_dict()["calibration_slope"]["estimate"] is None


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"cov_type": "robust"}, ValueError, "cov_type"),
        ({"thresholds": [0.1, 1.0]}, ValueError, "thresholds"),
        ({"thresholds": 0.0}, ValueError, "thresholds"),
        ({"thresholds": ["a"]}, TypeError, "thresholds"),
        ({"thresholds": []}, ValueError, "thresholds"),
        ({"confidence_level": 1.0}, ValueError, "confidence_level"),
        ({"confidence_level": "x"}, TypeError, "confidence_level"),
        ({"n_bins": 0}, ValueError, "n_bins"),
        ({"strategy": "kmeans"}, ValueError, "strategy"),
        ({"sample_weight": [1, 1, -1, 1]}, ValueError, "sample_weight"),
        ({"prevalence": 1.5}, ValueError, "prevalence"),
        ({"inference_kwds": [1]}, TypeError, "inference_kwds"),
    ],
)
def test_bad_options(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        calibration_report([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.3], **kwargs)


@pytest.mark.parametrize(
    "y, p, match",
    [
        ([0, 1, 1], [0.2, np.nan, 0.3], "y_proba contains NaN"),
        ([0, 1, 1], [0.2, 1.3, 0.3], "y_proba must contain probabilities"),
        ([0, 1], [0.2, 0.3, 0.4], "y_true has 2 samples"),
        ([0, 1, 2], [0.2, 0.3, 0.4], "more than two classes"),
        ([1, 1, 1], [0.2, 0.3, 0.4], "single class"),
        ([0, 1, 2], [[0.2, 0.7, 0.1], [0.3, 0.6, 0.1], [0.3, 0.6, 0.1]], "two columns"),
        ([], [], "empty"),
    ],
)
def test_bad_input(y, p, match):
    with pytest.raises(ValueError, match=match):
        calibration_report(y, p)


def test_hac_and_confidence_level_are_recorded(data):
    y, p = data
    rep = calibration_report(y, p, cov_type="hac", confidence_level=0.9)
    assert rep.cov_type == "hac" and rep.confidence_level == 0.9
    assert "90% CI" in rep.summary() and "HAC Wald" in rep.summary()
    lo, hi = rep.confidence_interval(metric="calibration_slope")
    lo95, hi95 = calibration_report(y, p).confidence_interval(metric="calibration_slope")
    assert lo95 < lo < hi < hi95
    assert math.isfinite(rep.brier_index)


def test_separated_forecasts_are_reported_not_hidden():
    y = [0, 0, 0, 1, 1, 1]
    p = [0.1, 0.2, 0.3, 0.6, 0.7, 0.8]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rep = calibration_report(y, p)
    assert rep.calibration_slope == math.inf
    assert any("separate" in n for n in rep.notes)
    d = json.loads(rep.to_json())
    assert d["calibration_slope"]["estimate"] is None
    assert "inf" in rep.summary()


def test_wired_sections_equal_their_functions(data):
    """When the optional modules are installed, the report shows exactly their numbers."""
    y, p = data
    rep = calibration_report(
        y, p, thresholds=[0.1, 0.3], cov_type="hac", confidence_level=0.9
    )
    if _has("skbrier.stats.inference"):
        from skbrier.stats import brier_inference

        inf = brier_inference(y, p, cov_type="hac")
        for metric in ("brier_score", "brier_index", "brier_skill_score"):
            lo, hi = inf.confidence_interval(metric=metric, confidence_level=0.9)
            assert rep.confidence_interval(0.9, metric=metric) == pytest.approx((lo, hi))
    if _has("skbrier.metrics.decomposition"):
        from skbrier.metrics.decomposition import corp_decomposition, murphy_decomposition

        corp = corp_decomposition(y, p)
        assert rep.decomposition["corp"]["miscalibration"] == pytest.approx(
            corp.miscalibration
        )
        assert rep.decomposition["corp"]["discrimination"] == pytest.approx(
            corp.discrimination
        )
        mur = murphy_decomposition(y, p, n_bins=10)
        assert rep.decomposition["murphy"]["reliability"] == pytest.approx(mur.reliability)
        assert "Miscalibration (MCB)" in rep.summary()
    if _has("skbrier.metrics.net_benefit"):
        prev = float(np.mean(y))
        for r in rep.net_benefit:
            t = r["threshold"]
            assert r["standardized"] == pytest.approx(r["model"] / prev)
            assert r["interventions_avoided_per_100"] == pytest.approx(
                (r["model"] - r["treat_all"]) / (t / (1 - t)) * 100
            )
        # case-control prevalence is passed on
        rep2 = calibration_report(y, p, thresholds=[0.1], prevalence=0.1)
        from skbrier.metrics.net_benefit import net_benefit

        assert rep2.net_benefit[0]["model"] == pytest.approx(
            net_benefit(y, p, threshold=0.1, prevalence=0.1)
        )
    if _has("matplotlib") and _has("skbrier.plotting.decision_curve"):
        assert set(rep.figures()) == {"reliability", "decision_curve"}


def test_bootstrap_intervals_are_reproducible(data):
    if not _has("skbrier.stats.inference"):
        pytest.skip("skbrier.stats.brier_inference is not installed")
    y, p = data
    kw = {
        "cov_type": "bootstrap",
        "random_state": 3,
        "inference_kwds": {"n_resamples": 199},
    }
    a = calibration_report(y, p, **kw)
    b = calibration_report(y, p, **kw)
    assert a.intervals == b.intervals
    assert a.confidence_interval(metric="brier_score") is not None


def test_a_list_of_reports_says_how_to_name_them():
    """reports_table([a, b]) and reports_to_html([a, b]): the error names
    the dict to pass, keyed by each report's name."""
    rng = np.random.default_rng(12)
    p = rng.uniform(0.05, 0.95, 40)
    y = (rng.uniform(size=40) < p).astype(int)
    a = calibration_report(y, p, name="a")
    b = calibration_report(y, np.clip(p + 0.1, 0, 1), name="b")
    for render in (reports_table, reports_to_html):
        with pytest.raises(TypeError, match=r"\{r\.name: r for r in reports\}"):
            render([a, b])
    with pytest.raises(TypeError, match="got tuple"):
        reports_table((a, b))


def test_reports_table_labels_each_interval_with_its_own_options():
    # reports with different confidence levels / cov_types were all listed
    # under the first report's "95% confidence intervals (iid)" header (the
    # text table) or "BI 95% CI (iid)" (the HTML overview)
    rng = np.random.default_rng(31)
    p = rng.uniform(0.05, 0.95, 60)
    y = (rng.uniform(size=60) < p).astype(int)
    reps = {
        "a": calibration_report(y, p),
        "b": calibration_report(y, p, cov_type="hac", confidence_level=0.9),
    }
    text = reports_table(reps)
    assert "95% confidence intervals (iid)" not in text
    line_b = next(line for line in text.splitlines() if line.startswith("  b: Brier Index"))
    ci = reps["b"].confidence_interval(0.9, metric="brier_index")
    assert "90%" in line_b and "hac" in line_b
    assert f"[{ci[0]:.2f}, {ci[1]:.2f}]" in line_b
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = reports_to_html(reps)
    assert "BI 95% CI (iid)" not in page
    row = next(r for r in page.split("<tr>") if r.startswith("<td>b</td>"))
    assert f"{ci[0]:.2f}" in row and f"{ci[1]:.2f}] (90%, hac)" in row
    same = {"a": reps["a"], "c": calibration_report(y, p[::-1])}
    assert "95% confidence intervals (iid):" in reports_table(same)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert "BI 95% CI (iid)" in reports_to_html(same)


@pytest.mark.parametrize("kw", [{}, {"cov_type": "bootstrap", "random_state": 0}])
def test_two_rows_give_no_interval_with_or_without_unit_weights(kw):
    # two unweighted rows kept the O/E and calibration-in-the-large intervals
    # (the note said none were available; unit weights gave none): below 3
    # observations no interval, as the Brier rows and the tests
    from skbrier.report._result import ALL_INTERVAL_METRICS

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = calibration_report([0, 1], [0.3, 0.6], **kw)
        unit = calibration_report([0, 1], [0.3, 0.6], sample_weight=[1.0, 1.0], **kw)
    for rep in (plain, unit):
        for m in ALL_INTERVAL_METRICS:
            assert rep.confidence_interval(rep.confidence_level, metric=m) is None, m
    assert plain.observed_expected == unit.observed_expected


def test_huge_weights_print_numbers_in_scientific_notation():
    # weights x1e200 scale z and the chi-squares by 1e100 / 1e200: the text
    # and the table printed them with every digit (a 200-character number)
    rng = np.random.default_rng(5)
    p = rng.uniform(0.05, 0.95, 50)
    y = (rng.uniform(size=50) < p).astype(int)
    w = rng.integers(1, 4, 50).astype(float) * 1e200
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = calibration_report(y, p, sample_weight=w)
    for text in (str(rep), reports_table({"a": rep})):
        assert max(len(line) for line in text.splitlines()) < 200
    assert f"{rep.spiegelhalter_z:.4g}" in str(rep)


def test_lowess_measures_with_integer_weights_are_the_repeated_rows():
    # Emax/E90/Eavg were left out with any sample_weight; integer (frequency)
    # weights now give those of the repeated rows (rms::val.prob's lowess on
    # them), other weights still a note
    import warnings

    rng = np.random.default_rng(3)
    n = 800
    p = rng.uniform(0.02, 0.98, n)
    y = (rng.uniform(size=n) < p**1.2).astype(int)
    w = rng.integers(0, 4, n).astype(float)
    r = np.repeat(np.arange(n), w.astype(int))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = calibration_report(y, p, sample_weight=w)
        b = calibration_report(y[r], p[r])
        c = calibration_report(y, p, sample_weight=w + 0.5)
    for k in ("emax", "e90", "eavg"):
        assert getattr(a, k) == pytest.approx(getattr(b, k), rel=1e-12, abs=0)
        assert getattr(c, k) is None
    assert any("integer sample_weight" in note for note in c.notes)
