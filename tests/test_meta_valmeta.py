"""Random-effects pooling of O/E and C equal to metamisc's ``valmeta``
(fixtures made by tests/fixtures/make_valmeta_fixtures.R from the centres
of two simulated data sets, 10 and 3 centres)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pandas as pd
import pytest

from skbrier.stats import clustered_validation, random_effects_meta

HERE = pathlib.Path(__file__).parent / "fixtures" / "valmeta"
REF = json.loads((HERE / "valmeta_reference.json").read_text())
CASES = [(name, i) for name, s in REF["sets"].items() for i in range(len(s["cases"]))]
TRANSFORM = {"normal/log": "log", "normal/logit": "logit", "normal/identity": "identity"}
TOL = {"rel": 1e-7, "abs": 1e-10}


def _inputs(per: dict, measure: str) -> tuple[np.ndarray, np.ndarray]:
    """valmeta's per-centre estimates and variances on the natural scale:
    O/E with O (1 - O/N) / E^2 (metamisc's oecalc), C with its squared SE."""
    n, o, e = (np.asarray(per[x], dtype=float) for x in ("N", "O", "E"))
    if measure == "OE":
        return o / e, o * (1 - o / n) / e**2
    return np.asarray(per["cstat"]), np.asarray(per["cstat.se"]) ** 2


@pytest.mark.parametrize(("name", "case"), CASES)
def test_equals_valmeta(name, case):
    s = REF["sets"][name]
    c = s["cases"][case]
    q, v = _inputs(s["per_centre"], c["measure"])
    r = random_effects_meta(
        q, v, tau2_method=c["method"], transform=TRANSFORM[c["model"]], test=c["test"],
        confidence_level=c["level"],
    )  # fmt: skip
    assert r.k == c["k"]
    assert r.tau2 == pytest.approx(c["tau2"], **TOL)
    assert r.standard_error == pytest.approx(c["se"], **TOL)
    assert r.estimate == pytest.approx(c["est"], **TOL)
    assert r.confidence_interval(c["level"]) == pytest.approx(tuple(c["ci"]), **TOL)
    # valmeta's prediction interval: t(k-2) with the (Knapp-Hartung) SE
    assert r.prediction_interval(c["level"], distribution="t") == pytest.approx(
        tuple(c["pi"]), **TOL
    )


@pytest.mark.parametrize("name", list(REF["sets"]))
def test_clustered_validation_equals_valmeta_default(name):
    """From the patients: skbrier's per-centre O/E and C (DeLong) are those
    valmeta is given, and its default pooling is valmeta's default."""
    s = REF["sets"][name]
    data = pd.read_csv(HERE / f"{name}.csv")
    res = clustered_validation(data["y"], data["p"], groups=data["centre"], test="knha")
    per = s["per_centre"]
    assert res.clusters.tolist() == per["centre"]
    for measure, key in (("OE", "observed_expected"), ("cstat", "c_statistic")):
        q, v = _inputs(per, measure)
        np.testing.assert_allclose(res.per_cluster[key], q, rtol=1e-12)
        np.testing.assert_allclose(res.per_cluster_variance[key], v, rtol=1e-9)
        c = next(
            c for c in s["cases"]
            if c["measure"] == measure and c["method"] == "REML" and c["test"] == "knha"
            and c["model"] in ("normal/log", "normal/logit") and c["level"] == 0.95
        )  # fmt: skip
        pooled = res.pooled[key]
        assert pooled.estimate == pytest.approx(c["est"], **TOL)
        assert res.confidence_interval(metric=key) == pytest.approx(tuple(c["ci"]), **TOL)
        assert pooled.prediction_interval(distribution="t") == pytest.approx(
            tuple(c["pi"]), **TOL
        )
