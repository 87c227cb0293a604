"""validation_sample_size: equal to pmvalsampsize, and exact by quadrature.

References: tests/fixtures/pmvalsampsize_reference.json (the Python port,
make_pmvalsampsize_fixtures.py) and pmvalsampsize_r_reference.json (R's
package, make_pmvalsampsize_r_fixtures.R).
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats

import skbrier
from skbrier.validation import validation_sample_size
from skbrier.validation._criteria import (
    c_statistic_sample_size,
    standardized_net_benefit_variance,
)
from skbrier.validation._sample_size import _calibration_terms, _simulated_lp

FIXTURES = Path(__file__).parent / "fixtures"
PORT = json.loads((FIXTURES / "pmvalsampsize_reference.json").read_text())["cases"]
R = json.loads((FIXTURES / "pmvalsampsize_r_reference.json").read_text())["cases"]
NAMES = (
    "observed_expected",
    "calibration_slope",
    "c_statistic",
    "standardized_net_benefit",
)
Z = float(stats.norm.ppf(0.975))


def _kwargs(inputs: dict, simulation: bool = True) -> dict:
    kw = {"prevalence": inputs["prevalence"], "c_statistic": inputs["cstatistic"]}
    if "lpnormal" in inputs:
        kw["lp_distribution"] = ("normal", *inputs["lpnormal"])
    elif "lpbeta" in inputs:
        kw["lp_distribution"] = ("beta", *inputs["lpbeta"])
    else:
        kw["lp_distribution"] = ("cstat", inputs["lpcstat"])
    names = {
        "oe": "oe",
        "oeciwidth": "oe_ci_width",
        "csciwidth": "slope_ci_width",
        "cstatciwidth": "c_ci_width",
        "threshold": "threshold",
        "sensitivity": "sensitivity",
        "specificity": "specificity",
    }
    if simulation:
        names.update({"simobs": "n_simulations", "seed": "seed"})
    kw.update({ours: inputs[theirs] for theirs, ours in names.items() if theirs in inputs})
    return kw


def _ids(cases):
    return [
        "-".join(f"{k}={v}" for k, v in c["inputs"].items() if k != "cstatistic")
        for c in cases
    ]


# --------------------------------------------------------------------------- simulation
@pytest.mark.parametrize("case", PORT, ids=_ids(PORT))
def test_simulation_equals_the_python_port_to_the_integer(case):
    res = validation_sample_size(expectation_method="simulation", **_kwargs(case["inputs"]))
    assert list(res.sample_sizes.values()) == case["criteria"]
    assert res.sample_size == case["sample_size"]
    assert res.events == math.ceil(case["events"])
    assert res.standard_errors["observed_expected"] == pytest.approx(
        case["se_oe"], rel=1e-12
    )
    assert res.standard_errors["calibration_slope"] == pytest.approx(
        case["se_cslope"], rel=1e-12
    )
    assert res.standard_errors["c_statistic"] == pytest.approx(case["se_cstat"], rel=1e-12)
    if "se_st_nb" in case:
        assert res.standard_errors["standardized_net_benefit"] == case["se_st_nb"]
        assert res.sensitivity == pytest.approx(case["sensitivity"], abs=1e-12)
        assert res.specificity == pytest.approx(case["specificity"], abs=1e-12)


@pytest.mark.parametrize("case", R, ids=_ids(R))
def test_criteria_without_simulation_equal_r(case):
    # O/E and C (and net benefit with given sensitivity and specificity) draw
    # nothing: R's numbers exactly
    res = validation_sample_size(expectation_method="simulation", **_kwargs(case["inputs"]))
    assert res.sample_sizes["observed_expected"] == case["criteria"][0]
    assert res.sample_sizes["c_statistic"] == case["criteria"][2]
    if "sensitivity" in case["inputs"]:
        assert res.sample_sizes["standardized_net_benefit"] == case["criteria"][3]


def test_simulation_with_a_frozen_distribution_draws_the_same():
    kw = {
        "prevalence": 0.018,
        "c_statistic": 0.8,
        "oe_ci_width": 1,
        "expectation_method": "simulation",
    }
    a = validation_sample_size(lp_distribution=("normal", -5, 2.5), **kw)
    b = validation_sample_size(lp_distribution=stats.norm(-5, 2.5), **kw)
    assert a.sample_sizes == b.sample_sizes
    assert a.fisher_information == b.fisher_information


# --------------------------------------------------------------------------- quadrature
def _mc_error_of_slope_n(kw: dict, size: int = 1_000_000, seed: int = 123456) -> float:
    """Monte-Carlo standard deviation of pmvalsampsize's slope n (delta method)."""
    from skbrier.validation._lp import check_lp_distribution

    kind, params, frozen = check_lp_distribution(kw["lp_distribution"])
    rs = np.random.RandomState(seed)
    lp = _simulated_lp(kind, params, frozen, kw["c_statistic"], kw["prevalence"], size, rs)
    terms = _calibration_terms(lp, 1.0)
    m = terms.mean(axis=1)
    cov = np.cov(terms) / size
    det = m[0] * m[2] - m[1] ** 2
    grad = np.array(
        [-(m[1] ** 2) / det**2, 2 * m[0] * m[1] / det**2, -(m[0] ** 2) / det**2]
    )
    s = kw.get("slope_ci_width", 0.2) / (2 * 1.96)
    return float(np.sqrt(grad @ cov @ grad)) / s**2


@pytest.mark.parametrize(
    "case",
    [c for c in PORT if "lpcstat" not in c["inputs"]],
    ids=lambda c: str(c["inputs"]),
)
def test_quadrature_slope_within_monte_carlo_error(case):
    kw = _kwargs(case["inputs"], simulation=False)
    quad = validation_sample_size(**kw)
    sim = case["criteria"][1]
    sd = _mc_error_of_slope_n(kw)
    # z = 1.959964 against 1.96 moves n by 0.004 %
    assert abs(quad.sample_sizes["calibration_slope"] - sim) < 4 * sd + 1e-4 * sim + 1
    # R draws with its own generator: the same expectation
    r = next(c for c in R if c["inputs"] == case["inputs"])
    assert (
        abs(quad.sample_sizes["calibration_slope"] - r["criteria"][1])
        < 4 * sd + 1e-4 * sim + 1
    )


@pytest.mark.parametrize(
    "case", [c for c in PORT if "threshold" in c["inputs"]], ids=lambda c: str(c["inputs"])
)
def test_quadrature_accuracy_within_monte_carlo_error(case):
    kw = _kwargs(case["inputs"], simulation=False)
    quad = validation_sample_size(**kw)
    n_events = case["inputs"]["prevalence"] * 1e6  # the simulation's rough event count
    for name in ("sensitivity", "specificity"):
        v = getattr(quad, name)
        sd = math.sqrt(v * (1 - v) / min(n_events, 1e6 - n_events))
        # the port rounds to 3 decimals
        assert abs(v - case[name]) < 0.0005 + 4 * sd


def test_quadrature_cstat_distribution_is_solved():
    res = validation_sample_size(
        prevalence=0.018, c_statistic=0.8, lp_distribution=("cstat", -4.7), oe_ci_width=1
    )
    assert res.mean_risk == pytest.approx(0.018, rel=1e-9)
    # the simulation (10,000 patients in R's example) is far noisier than the quadrature:
    # the three agree within its Monte-Carlo error, which is large
    port = next(c for c in PORT if "lpcstat" in c["inputs"])
    r = next(c for c in R if "lpcstat" in c["inputs"])
    for other in (port["criteria"][1], r["criteria"][1]):
        assert abs(res.sample_sizes["calibration_slope"] - other) / other < 0.12
    big = validation_sample_size(
        prevalence=0.018,
        c_statistic=0.8,
        lp_distribution=("cstat", -4.7),
        oe_ci_width=1,
        expectation_method="simulation",
    )
    q, s = res.sample_sizes["calibration_slope"], big.sample_sizes["calibration_slope"]
    assert abs(q - s) / q < 0.03  # a million patients, and the search's grid of 0.1


def _beta_information(a: float, b: float) -> tuple[float, float, float]:
    """Closed forms of E[LP^k P (1 - P)] for P ~ Beta(a, b), LP = logit P."""
    ratio = math.exp(special.betaln(a + 1, b + 1) - special.betaln(a, b))
    mean = special.digamma(a + 1) - special.digamma(b + 1)
    var = special.polygamma(1, a + 1) + special.polygamma(1, b + 1)
    return ratio, ratio * mean, ratio * (var + mean**2)


@pytest.mark.parametrize(
    "a, b", [(1.33, 1.75), (0.5, 0.5), (0.2, 3.0), (8.0, 1.5), (40.0, 0.3)]
)
def test_quadrature_information_equals_closed_form_for_beta_risks(a, b):
    res = validation_sample_size(
        prevalence=a / (a + b),
        c_statistic=0.8,
        lp_distribution=("beta", a, b),
        threshold=0.3,
    )
    exact = _beta_information(a, b)
    np.testing.assert_allclose(res.fisher_information, exact, rtol=1e-10, atol=1e-14)
    assert res.mean_risk == pytest.approx(a / (a + b), rel=1e-11)
    # sensitivity and specificity of a calibrated model with Beta(a, b) risks
    assert res.sensitivity == pytest.approx(stats.beta.sf(0.3, a + 1, b), rel=1e-10)
    assert res.specificity == pytest.approx(stats.beta.cdf(0.3, a, b + 1), rel=1e-10)
    i00, i01, i11 = exact
    s = 0.2 / (2 * Z)
    assert res.sample_sizes["calibration_slope"] == math.ceil(
        i00 / (s * s * (i00 * i11 - i01**2))
    )


def _normal_expectations(mean: float, sd: float, slope: float) -> np.ndarray:
    """The information by QUADPACK over the LP axis (an independent quadrature)."""
    from scipy import integrate

    lo, hi = mean - 40 * sd, mean + 40 * sd
    return np.array(
        [
            integrate.quad(
                lambda x, k=k: (
                    _calibration_terms(np.array([x]), slope)[k, 0]
                    * stats.norm.pdf(x, mean, sd)
                ),
                lo,
                hi,
                points=[mean, 0.0] if lo < 0 < hi else [mean],
                epsabs=1e-15,
                epsrel=1e-12,
                limit=500,
            )[0]
            for k in range(3)
        ]
    )


@pytest.mark.parametrize("mean, sd", [(-5.0, 2.5), (-1.6, 1.0), (0.3, 0.05), (2.0, 4.0)])
def test_quadrature_information_equals_quadpack_for_normal_lp(mean, sd):
    res = validation_sample_size(
        prevalence=0.2, c_statistic=0.75, lp_distribution=("normal", mean, sd)
    )
    exact = _normal_expectations(mean, sd, 1.0)
    np.testing.assert_allclose(res.fisher_information, exact, rtol=1e-9, atol=1e-15)


def test_frozen_distribution_equals_the_tuple_and_takes_any_shape():
    kw = {"prevalence": 0.1, "c_statistic": 0.8}
    a = validation_sample_size(lp_distribution=("normal", -2.5, 1.2), **kw)
    b = validation_sample_size(lp_distribution=stats.norm(-2.5, 1.2), **kw)
    np.testing.assert_allclose(a.fisher_information, b.fisher_information, rtol=1e-12)
    t = validation_sample_size(lp_distribution=stats.t(4, -2.5, 1.0), **kw)
    assert "t" in t.lp_distribution and t.sample_size > 0


def test_the_anticipated_slope_enters_the_information():
    kw = {"prevalence": 0.2, "c_statistic": 0.75, "lp_distribution": ("normal", -1.6, 1.0)}
    one = validation_sample_size(**kw)
    lower = validation_sample_size(calibration_slope=0.8, **kw)
    exact = _normal_expectations(-1.6, 1.0, 0.8)
    np.testing.assert_allclose(lower.fisher_information, exact, rtol=1e-9)
    assert lower.sample_sizes["calibration_slope"] != one.sample_sizes["calibration_slope"]
    assert lower.anticipated["calibration_slope"] == 0.8


# --------------------------------------------------------------------------- closed forms
@pytest.mark.parametrize(
    "prev, oe, width", [(0.018, 1.0, 1.0), (0.43, 1.0, 0.2), (0.2, 0.9, 0.3)]
)
def test_observed_expected_criterion_is_the_closed_form_and_minimal(prev, oe, width):
    res = validation_sample_size(
        prevalence=prev,
        c_statistic=0.8,
        oe=oe,
        oe_ci_width=width,
        lp_distribution=("normal", -1, 1),
    )
    s = math.asinh(width / (2 * oe)) / Z
    n = res.sample_sizes["observed_expected"]
    assert n == math.ceil((1 - prev) / (prev * s * s))

    def achieved(m):  # the O/E interval of observed_expected with O = prev * m
        se = math.sqrt((1 - prev) / (prev * m))
        return oe * (math.exp(Z * se) - math.exp(-Z * se))

    assert achieved(n) <= width < achieved(n - 1)
    # pmvalsampsize's grid of 1e-4 gives an n whose interval is a little too wide
    sim = validation_sample_size(
        prevalence=prev,
        c_statistic=0.8,
        oe=oe,
        oe_ci_width=width,
        lp_distribution=("normal", -1, 1),
        expectation_method="simulation",
        n_simulations=10,
    )
    assert sim.sample_sizes["observed_expected"] <= n


@pytest.mark.parametrize(
    "c, prev, width", [(0.8, 0.018, 0.1), (0.75, 0.2, 0.08), (0.6, 0.5, 0.02)]
)
def test_c_statistic_criterion_is_the_smallest_n(c, prev, width):
    n, se = c_statistic_sample_size(c, prev, width, Z)

    def w(m):
        h = m / 2 - 1
        v = c * (1 - c) * (1 + h * (1 - c) / (2 - c) + h * c / (1 + c))
        return 2 * Z * math.sqrt(v / (m * m * prev * (1 - prev)))

    assert w(n) <= width < w(n - 1)
    assert se == pytest.approx(w(n) / (2 * Z), rel=1e-12)


def test_net_benefit_criterion_given_sensitivity_and_specificity():
    res = validation_sample_size(
        prevalence=0.018,
        c_statistic=0.8,
        lp_distribution=("normal", -5, 2.5),
        threshold=0.08,
        sensitivity=0.8,
        specificity=0.88,
    )
    v = standardized_net_benefit_variance(0.8, 0.88, 0.018, 0.08)
    assert res.sample_sizes["standardized_net_benefit"] == math.ceil(
        v / (0.2 / (2 * Z)) ** 2
    )
    nb = 0.8 * 0.018 - 0.12 * 0.982 * 0.08 / 0.92
    assert res.net_benefit == pytest.approx(nb, rel=1e-12)
    assert res.anticipated["standardized_net_benefit"] == pytest.approx(nb / 0.018)


# --------------------------------------------------------------------------- the result
def test_result_table_events_and_binding():
    res = skbrier.validation_sample_size(
        prevalence=0.018,
        c_statistic=0.8,
        lp_distribution=("normal", -5, 2.5),
        oe_ci_width=1,
        threshold=0.08,
    )
    assert tuple(res.sample_sizes) == NAMES
    assert res.sample_size == max(res.sample_sizes.values())
    assert res.sample_sizes[res.binding] == res.sample_size
    assert res.events == math.ceil(res.sample_size * 0.018)
    frame = res.to_frame()
    assert list(frame["criterion"]) == list(NAMES)
    assert list(frame["sample_size"]) == list(res.sample_sizes.values())
    text = res.summary()
    assert "set by the standardized net benefit" in text
    json.dumps(res.to_dict())
    assert repr(res).startswith("ValidationSampleSizeResult(sample_size=")


def test_quadrature_is_interactive():
    start = time.perf_counter()
    for case in PORT:
        validation_sample_size(**_kwargs(case["inputs"], simulation=False))
    assert (time.perf_counter() - start) / len(PORT) < 1.0


# --------------------------------------------------------------------------- errors
BASE = {"prevalence": 0.1, "c_statistic": 0.8, "lp_distribution": ("normal", -2, 1)}


@pytest.mark.parametrize(
    "change, error, match",
    [
        ({"prevalence": 0.0}, ValueError, "prevalence"),
        ({"prevalence": 1.5}, ValueError, "prevalence"),
        ({"prevalence": "0.1"}, TypeError, "prevalence"),
        ({"c_statistic": 1.0}, ValueError, "c_statistic"),
        ({"oe": 0.0}, ValueError, "oe"),
        ({"oe_ci_width": -0.2}, ValueError, "oe_ci_width"),
        ({"slope_ci_width": 0}, ValueError, "slope_ci_width"),
        ({"c_ci_width": float("nan")}, ValueError, "c_ci_width"),
        ({"threshold": 1.0}, ValueError, "threshold"),
        ({"threshold": 0.1, "nb_ci_width": 0.0}, ValueError, "nb_ci_width"),
        ({"threshold": 0.1, "sensitivity": 0.8}, ValueError, "sensitivity and specificity"),
        ({"sensitivity": 0.8, "specificity": 0.7}, ValueError, "threshold"),
        (
            {"threshold": 0.1, "sensitivity": 1.2, "specificity": 0.7},
            ValueError,
            "sensitivity",
        ),
        ({"calibration_slope": float("inf")}, ValueError, "calibration_slope"),
        ({"expectation_method": "bootstrap"}, ValueError, "expectation_method"),
        (
            {"expectation_method": "simulation", "confidence_level": 0.9},
            ValueError,
            "confidence_level",
        ),
        (
            {"expectation_method": "simulation", "n_simulations": 1},
            ValueError,
            "n_simulations",
        ),
        (
            {"expectation_method": "simulation", "n_simulations": 1e6},
            TypeError,
            "n_simulations",
        ),
        ({"expectation_method": "simulation", "seed": -1}, ValueError, "seed"),
        ({"confidence_level": 1.0}, ValueError, "confidence_level"),
        ({"lp_distribution": "normal"}, TypeError, "lp_distribution"),
        ({"lp_distribution": ("gamma", 1, 2)}, ValueError, "lp_distribution"),
        ({"lp_distribution": ("normal", -2)}, ValueError, "lp_distribution"),
        ({"lp_distribution": ("normal", -2, 0)}, ValueError, "lp_distribution sd"),
        ({"lp_distribution": ("beta", 1, -1)}, ValueError, "lp_distribution b"),
        ({"lp_distribution": ("normal", -2, 1e-9)}, ValueError, "no spread"),
    ],
)
def test_errors_name_the_parameter(change, error, match):
    with pytest.raises(error, match=match):
        validation_sample_size(**{**BASE, **change})


def test_arguments_are_keyword_only():
    with pytest.raises(TypeError):
        validation_sample_size(0.1, 0.8, ("normal", -2, 1))  # type: ignore[misc]
