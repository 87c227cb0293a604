"""The subgroup speed-up (issue 26) keeps every number: the lowess knots
exactly, the per-group fits to 1e-10 (fixtures made by the code it replaced,
``tests/fixtures/make_subgroup_speed_fixtures.py``)."""

from __future__ import annotations

import importlib.util
import json
import pathlib

import numpy as np
import pytest

from skbrier._core.kernels.lowess import lowess_knots
from skbrier.metrics import calibration_by_group

HERE = pathlib.Path(__file__).parent / "fixtures"
FIXTURES = json.loads((HERE / "subgroup_speed_fixtures.json").read_text())


def _data_sets() -> dict:
    spec = importlib.util.spec_from_file_location(
        "make_subgroup_speed_fixtures", HERE / "make_subgroup_speed_fixtures.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.data_sets()


DATA = _data_sets()


def _floats(values: list[str]) -> np.ndarray:
    return np.array([float.fromhex(v) for v in values])


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_lowess_knots_are_unchanged(name):
    y, p, g, _ = DATA[name]
    for j, label in enumerate(np.unique(g)):
        m = g == label
        kx, ky = lowess_knots(p[m], y[m])
        want = FIXTURES[name]["knots"][str(j)]
        np.testing.assert_array_equal(kx, _floats(want["x"]))
        np.testing.assert_array_equal(ky, _floats(want["y"]))


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_calibration_by_group_is_unchanged(name):
    y, p, g, w = DATA[name]
    res = calibration_by_group(y, p, groups=g, sample_weight=w)
    want = FIXTURES[name]
    for part in ("estimates", "variances", "pvalues"):
        got = getattr(res, part)
        assert sorted(got) == sorted(want[part])
        for key, values in want[part].items():
            np.testing.assert_allclose(
                got[key], _floats(values), rtol=1e-10, atol=0, err_msg=f"{part} {key}"
            )
    ici = _floats(want["estimates"]["ici"])
    np.testing.assert_array_equal(res.estimates["ici"], ici)


def test_the_section_runs_the_cumulative_test_once(monkeypatch):
    """The subgroup section takes the whole sample's cumulative tests from
    calibration_by_group's own call (one sort and one curve, not two)."""
    import skbrier.metrics
    import skbrier.metrics.subgroups as sg
    from skbrier.report._compute import _Notes
    from skbrier.report._subgroups import subgroup_section

    calls = []
    real = sg._cumulative

    def counting(*args, **kwargs):
        calls.append(args[4] is not None)  # with the groups' codes
        return real(*args, **kwargs)

    def public(*args, **kwargs):
        calls.append("public")
        return skbrier.metrics.cumulative.cumulative_calibration(*args, **kwargs)

    monkeypatch.setattr(sg, "_cumulative", counting)
    monkeypatch.setattr(skbrier.metrics, "cumulative_calibration", public)
    y, p, g, _ = DATA["small"]
    sec = subgroup_section(y, p, None, g, None, 0.95, _Notes())
    assert calls == [True]
    whole = skbrier.metrics.cumulative_calibration(y, p)
    assert sec.cumulative is sec.by_group.cumulative
    for key in ("ks", "kuiper", "ks_pvalue", "kuiper_pvalue"):
        assert getattr(sec.cumulative, key) == pytest.approx(getattr(whole, key), rel=1e-12)


def test_the_joint_fit_starts_from_calibration_in_the_large(monkeypatch):
    """With moderate log-odds the joint logistic fit starts from the
    calibration-in-the-large fit: fewer passes over the rows than from the
    base rate (the start beyond |logit p| = 30), the same fit to 1e-10."""
    from skbrier._core.kernels import logistic
    from skbrier.metrics.calibration import _logistic_calibration

    passes = []
    real = logistic.newton_rows

    def counting(*args):
        passes.append(1)
        return real(*args)

    monkeypatch.setattr(logistic, "newton_rows", counting)
    y, p, g, _ = DATA["distinct"]
    warm = logistic._WARM_START_MAX_LOGIT
    for label in range(7):
        m = g == label
        counts, fits = [], []
        for limit in (warm, -1.0):
            monkeypatch.setattr(logistic, "_WARM_START_MAX_LOGIT", limit)
            passes.clear()
            fits.append(_logistic_calibration(y[m], p[m], None))
            counts.append(len(passes))
        assert counts[0] < counts[1]
        assert fits[0].slope == pytest.approx(fits[1].slope, rel=1e-10)
        assert fits[0].intercept == pytest.approx(fits[1].intercept, rel=1e-10)
        assert fits[0].slope_stderr == pytest.approx(fits[1].slope_stderr, rel=1e-10)
