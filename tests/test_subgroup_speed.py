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
