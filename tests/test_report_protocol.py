"""CalibrationReport as a result object, and calibration_report's options:
checked up front (before the data are touched), each error naming its
parameter; the report validates the data once and calls the public functions."""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np
import pytest

from skbrier.datasets import load_forecasts
from skbrier.metrics.calibration import calibration_intercept_slope
from skbrier.report import CalibrationReport, calibration_report, reports_table
from skbrier.stats import brier_inference


@pytest.fixture(scope="module")
def data():
    d = load_forecasts()
    return d["y"], d["model_b"]


@pytest.fixture(scope="module")
def report(data):
    y, p = data
    return calibration_report(
        y, p, thresholds=[0.1, 0.2], name="model_b", confidence_level=0.9
    )


# -- the result protocol ------------------------------------------------------


def test_repr_is_short_and_names_the_headline(report):
    text = repr(report)
    assert text.startswith("CalibrationReport(name=model_b")
    assert "brier_score=" in text and "calibration_slope=" in text
    assert "array" not in text and "\n" not in text
    assert len(text) < 400


def test_report_is_frozen(report):
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.brier_score = 0.0  # type: ignore[misc]


def test_to_dict_is_json_and_to_frame_one_row(report):
    d = report.to_dict()
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    pd = pytest.importorskip("pandas")
    frame = report.to_frame()
    assert isinstance(frame, pd.DataFrame) and frame.shape[0] == 1
    assert frame.loc[0, "brier_score"] == report.brier_score
    assert frame.loc[0, "calibration_slope"] == report.calibration_slope
    assert frame.loc[0, "name"] == "model_b"


def test_repr_html_is_the_summary_table(report):
    page = report._repr_html_()
    assert "<table>" in page and "Calibration slope" in page
    # no figures in a notebook cell
    assert "data:image/png" not in page and "<svg" not in page


def test_confidence_interval_at_the_report_level_and_any_other(report, data):
    y, p = data
    inf = brier_inference(y, p)
    for metric in ("brier_score", "brier_index", "brier_skill_score"):
        ci = report.confidence_interval(report.confidence_level, metric=metric)
        assert ci == report.intervals[metric]
        # the default level is 0.95, as on every result
        assert report.confidence_interval(metric=metric) == report.confidence_interval(
            0.95, metric=metric
        )
        lo, hi = inf.confidence_interval(metric=metric, confidence_level=0.9)
        assert ci == pytest.approx((lo, hi), rel=1e-12)
        lo95, hi95 = inf.confidence_interval(metric=metric, confidence_level=0.95)
        assert report.confidence_interval(0.95, metric=metric) == pytest.approx(
            (lo95, hi95), rel=1e-12
        )
    lg = calibration_intercept_slope(y, p)
    lo, hi = lg.confidence_interval(metric="calibration_slope", confidence_level=0.95)
    assert report.confidence_interval(0.95, metric="calibration_slope") == pytest.approx(
        (lo, hi), rel=1e-12
    )
    ci90 = report.confidence_interval(0.9, metric="calibration_slope")
    assert lo < ci90.low < ci90.high < hi


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"metric": "auc"}, ValueError, "^metric"),
        ({"metric": 3}, TypeError, "^metric"),
        ({"confidence_level": 1.5}, ValueError, "^confidence_level"),
        ({"confidence_level": True}, TypeError, "^confidence_level"),
        ({"metric": "brier_score", "method": "basic"}, ValueError, "^method"),
        ({"metric": "calibration_slope", "method": "basic"}, ValueError, "^method"),
    ],
)
def test_confidence_interval_bad_options(report, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        report.confidence_interval(**kwargs)


def test_bootstrap_interval_at_another_level_and_method(data):
    y, p = data
    kw = {
        "cov_type": "bootstrap",
        "random_state": 5,
        "inference_kwds": {"n_resamples": 199},
    }
    rep = calibration_report(y, p, **kw)
    inf = brier_inference(y, p, cov_type="bootstrap", random_state=5, n_resamples=199)
    ci = inf.confidence_interval(metric="brier_index", confidence_level=0.95)
    assert rep.confidence_interval(metric="brier_index") == pytest.approx(tuple(ci))
    basic = inf.confidence_interval(
        metric="brier_index", confidence_level=0.8, method="basic"
    )
    assert rep.confidence_interval(0.8, metric="brier_index", method="basic") == (
        pytest.approx(tuple(basic))
    )


# -- options: checked up front, errors name the parameter ---------------------


BAD_OPTIONS = [
    ({"name": 3}, TypeError, "^name"),
    ({"name": ["a"]}, TypeError, "^name"),
    ({"random_state": -1, "cov_type": "bootstrap"}, ValueError, "^random_state"),
    ({"random_state": "seed"}, TypeError, "^random_state"),
    ({"random_state": 1.5}, TypeError, "^random_state"),
    ({"n_bins": 10**6}, ValueError, "^n_bins"),
    ({"n_bins": 10.0}, TypeError, "^n_bins"),
    ({"n_bins": True}, TypeError, "^n_bins"),
    ({"cov_type": 1}, TypeError, "^cov_type"),
    ({"strategy": None}, TypeError, "^strategy"),
    ({"thresholds": [[0.1, 0.2]]}, ValueError, "^thresholds"),
    ({"thresholds": np.nan}, ValueError, "^thresholds"),
    ({"prevalence": 0.0}, ValueError, "^prevalence"),
    ({"prevalence": "0.1"}, TypeError, "^prevalence"),
    ({"confidence_level": np.nan}, ValueError, "^confidence_level"),
    (
        {"inference_kwds": {"n_resamples": 1}, "cov_type": "bootstrap"},
        ValueError,
        "^inference_kwds",
    ),
    (
        {"inference_kwds": {"n_resamples": 9.5}, "cov_type": "bootstrap"},
        TypeError,
        "^inference_kwds",
    ),
    (
        {"inference_kwds": {"n_jobs": 0}, "cov_type": "bootstrap"},
        ValueError,
        "^inference_kwds",
    ),
    (
        {"inference_kwds": {"bootstrap": "blocks"}, "cov_type": "bootstrap"},
        ValueError,
        "^inference_kwds",
    ),
    (
        {"inference_kwds": {"method": "bca?"}, "cov_type": "bootstrap"},
        ValueError,
        "^inference_kwds",
    ),
    (
        {"inference_kwds": {"block_length": 0}, "cov_type": "bootstrap"},
        ValueError,
        "^inference_kwds",
    ),
    (
        {"inference_kwds": {"block_length": "long"}, "cov_type": "bootstrap"},
        ValueError,
        "^inference_kwds",
    ),
    ({"inference_kwds": {"hac_kwds": 3}, "cov_type": "hac"}, TypeError, "^inference_kwds"),
    ({"inference_kwds": {"n_resamples": 99}}, ValueError, "^inference_kwds"),
    (
        {"inference_kwds": {"hac_kwds": {}}, "cov_type": "iid"},
        ValueError,
        "^inference_kwds",
    ),
    ({"inference_kwds": {"nresamples": 99}}, TypeError, "^inference_kwds"),
    ({"inference_kwds": {"random_state": 0}}, TypeError, "^inference_kwds"),
    ({"inference_kwds": {"sample_weight": None}}, TypeError, "^inference_kwds"),
    ({"inference_kwds": "n_resamples=9"}, TypeError, "^inference_kwds"),
]


@pytest.mark.parametrize("kwargs, exc, match", BAD_OPTIONS)
def test_bad_options_raise_before_the_data_are_read(kwargs, exc, match, monkeypatch):
    import skbrier.report._compute as compute

    def untouched(*args, **kwargs):
        raise AssertionError("the data were read before the options were checked")

    monkeypatch.setattr(compute, "binary_forecast", untouched)
    with pytest.raises(exc, match=match):
        calibration_report([0, 1, 1, 0], [0.2, 0.7, 0.6, 0.3], **kwargs)


@pytest.mark.parametrize(
    "inference_kwds",
    [
        {"hac_kwds": {"kernel": "nope"}},
        {"hac_kwds": {"bandwidth": -1.0}},
        {"hac_kwds": {"colour": 1}},
    ],
)
def test_bad_hac_options_raise_not_noted(data, inference_kwds):
    # these reach brier_inference: its error is raised, not turned into a note
    y, p = data
    with pytest.raises((ValueError, TypeError), match="^inference_kwds"):
        calibration_report(y, p, cov_type="hac", inference_kwds=inference_kwds)


def test_every_interval_none_only_with_a_note():
    # 2 samples: intervals are undefined for the data, and the notes say why
    rep = calibration_report([0, 1], [0.3, 0.6])
    assert all(v is None for v in rep.intervals.values())
    assert any("interval" in n.lower() for n in rep.notes)


def test_numpy_string_name_is_accepted(data):
    y, p = data
    rep = calibration_report(y[:50], p[:50], name=np.str_("m"))
    assert rep.name == "m" and type(rep.name) is str


def test_constructor_refuses_a_non_string_name(report):
    fields = {
        f.name: getattr(report, f.name)
        for f in dataclasses.fields(report)
        if f.init and not f.name.startswith("_")
    }
    fields["name"] = 3
    with pytest.raises(TypeError, match="^name"):
        CalibrationReport(**fields)


def test_reports_table_refuses_non_reports(report):
    with pytest.raises(TypeError, match="reports"):
        reports_table({"a": 3})
    with pytest.raises(TypeError, match="reports"):
        reports_table([report])


# -- validation once ----------------------------------------------------------


def _count_validations(monkeypatch, func):
    import skbrier._core.validation as validation

    calls = {"n": 0}
    real = validation.check_probabilities

    def counting(*args, **kwargs):
        calls["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(validation, "check_probabilities", counting)
    func()
    return calls["n"]


def test_validations_do_not_grow_with_the_thresholds(data, monkeypatch):
    y, p = data
    one = _count_validations(
        monkeypatch, lambda: calibration_report(y, p, thresholds=[0.2])
    )
    many = _count_validations(
        monkeypatch,
        lambda: calibration_report(y, p, thresholds=np.linspace(0.05, 0.95, 19)),
    )
    assert many == one
    assert one <= 12  # once at the edge + one cheap check per public function


def test_report_does_not_warn_and_keeps_warnings_as_notes():
    # a forecast with values exactly 0 and 1 and a perfect separation
    y = [0, 0, 0, 1, 1, 1]
    p = [0.0, 0.2, 0.3, 0.6, 0.7, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rep = calibration_report(y, p, thresholds=[0.5])
    assert any("exactly 0 or 1" in n for n in rep.notes)
    assert any("separate" in n for n in rep.notes)
