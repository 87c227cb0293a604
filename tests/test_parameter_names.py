"""One meaning per parameter name, one default per option family (issue 25, move 7).

Every public callable of skbrier (the ``__all__`` of each public package or
module, the public methods of its classes and the fields of its results) is
read with :func:`inspect.signature`:

* a name listed in :data:`VALUES` means one thing everywhere: a string default,
  and the ``{...}`` set of its numpydoc entry, lie in that meaning's values;
* ``horizon`` and ``times`` are survival time points (only in
  :mod:`skbrier.survival`); ``lead_time`` is the forecast lead time of
  :func:`skbrier.compare_brier`;
* the option families of :data:`FAMILIES` take their default from the
  constants of :mod:`skbrier._core.params`, in the API and in the CLI.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import skbrier
from skbrier._core import params as P

ROOT = Path(__file__).resolve().parents[1]

#: name -> (its one meaning, the values it accepts)
VALUES: dict[str, tuple[str, frozenset[str]]] = {
    "method": (
        "the interval method of confidence_interval",
        frozenset({"percentile", "basic", "bca", "wald", "rubin"}),
    ),
    "decomposition_method": (
        "which decomposition of the Brier score (and reliability curve)",
        frozenset({"corp", "murphy"}),
    ),
    "censoring_method": (
        "how the observed risk of a bin is estimated under censoring "
        "(riskRegression's cens.method)",
        frozenset({"km", "pseudo"}),
    ),
    "censoring": (
        "the censoring model of the inverse-probability-of-censoring weights",
        frozenset({"km"}),
    ),
    "kind": (
        "the calibration-error family (which probabilities are binned)",
        frozenset({"top_label", "binary", "classwise"}),
    ),
    "curve": (
        "what a curve display shows (decision curve, risk-coverage curve)",
        frozenset({"net_benefit", "net_intervention_avoided", "risk", "accuracy"}),
    ),
    "expectation_method": (
        "how a sample-size calculation computes its expectations",
        frozenset({"quadrature", "simulation"}),
    ),
    "tau2_method": (
        "the estimator of the between-study variance of a meta-analysis",
        frozenset({"REML", "ML", "DL"}),
    ),
}

#: names of the time points of a survival outcome (scikit-survival's and
#: riskRegression's ``times``; ``horizon`` is one of them)
SURVIVAL_TIMES = ("horizon", "times")

#: option family -> the defaults it may have: the constant, plus the
#: sentinels whose meaning is the same wherever they appear
FAMILIES: dict[str, set[Any]] = {
    # "cube_root"/"quantile": the reliability diagram's binned curve shows the
    # points of scikit-learn's calibration_curve with CalibrationDisplay's
    # defaults of scikit-learn 1.12 (see SENTINEL_HOMES)
    "n_bins": {P.DEFAULT_N_BINS, "cube_root"},
    "strategy": {P.DEFAULT_STRATEGY, "quantile"},
    # None: the level stored in the result (or first input) it works on
    "confidence_level": {P.DEFAULT_CONFIDENCE_LEVEL, None},
    # 0: resampling is optional and off; "auto"/None: chosen from the data size
    # (ReliabilityDisplay / calibration_report); else the one number of replicates
    "n_resamples": {P.DEFAULT_N_RESAMPLES, 0, "auto", None},
}

#: where a sentinel of FAMILIES may appear (qualified-name prefixes)
SENTINEL_HOMES: dict[tuple[str, Any], tuple[str, ...]] = {
    ("n_bins", "cube_root"): ("skbrier.plotting.reliability.ReliabilityDisplay.",),
    ("strategy", "quantile"): (
        "skbrier.plotting.reliability.ReliabilityDisplay.",
        # the grouped points of a clinical calibration figure are deciles of the
        # forecasts (rms::val.prob, CalibrationCurves::val.prob.ci.2 g = 10)
        "skbrier.plotting.flexible_calibration.CalibrationCurveDisplay.",
    ),
    ("n_resamples", "auto"): ("skbrier.plotting.reliability.ReliabilityDisplay.",),
    ("n_resamples", None): ("skbrier.report.",),
}


def _public_modules() -> list[Any]:
    names = ["skbrier"] + sorted(
        f"skbrier.{m.name}"
        for m in pkgutil.iter_modules(skbrier.__path__)
        if not m.name.startswith("_")
    )
    return [importlib.import_module(n) for n in names]


def _members(klass: type) -> Iterator[tuple[str, Any]]:
    """Public methods (and ``__init__``) of a class and of its skbrier bases."""
    seen: set[str] = set()
    for base in klass.__mro__:
        if not base.__module__.startswith("skbrier"):
            continue
        for attr, value in vars(base).items():
            if attr in seen or (attr.startswith("_") and attr != "__init__"):
                continue
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if inspect.isfunction(value):
                seen.add(attr)
                yield attr, value


def public_callables() -> list[tuple[str, Any, str]]:
    """``(qualified name, callable, docstring)`` of every public callable, once each."""
    out: dict[str, tuple[str, Any, str]] = {}
    for mod in _public_modules():
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if not callable(obj) or not getattr(obj, "__module__", "").startswith(
                "skbrier"
            ):
                continue
            home = f"{obj.__module__}.{getattr(obj, '__qualname__', name)}"
            out.setdefault(home, (home, obj, inspect.getdoc(obj) or ""))
            if inspect.isclass(obj):
                for attr, fn in _members(obj):
                    doc = inspect.getdoc(fn) or ""
                    if attr == "__init__":
                        doc = (inspect.getdoc(obj) or "") + "\n" + doc
                    out.setdefault(f"{home}.{attr}", (f"{home}.{attr}", fn, doc))
    return sorted(out.values(), key=lambda t: t[0])


CALLABLES = public_callables()


def _parameters(fn: Any) -> dict[str, inspect.Parameter]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return {}
    return {
        n: p
        for n, p in sig.parameters.items()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and n != "self"
    }


def uses(name: str) -> list[tuple[str, inspect.Parameter, str]]:
    return [
        (qn, params[name], doc)
        for qn, fn, doc in CALLABLES
        if name in (params := _parameters(fn))
    ]


def documented_values(doc: str, name: str) -> list[set[str]]:
    """The ``{"a", "b"}`` sets of the numpydoc entries of ``name``."""
    sets = []
    for line in doc.splitlines():
        m = re.match(r"^\s*([\w, \\]+?)\s*:\s*(.*)$", line)
        if not m or name not in [s.strip() for s in m.group(1).split(",")]:
            continue
        braces = re.search(r"\{([^}]*)\}", m.group(2))
        if braces:
            sets.append(set(re.findall(r"[\"']([^\"']+)[\"']", braces.group(1))))
    return sets


def test_the_walk_finds_the_public_api():
    names = {qn.rsplit(".", 1)[-1] for qn, _, _ in CALLABLES}
    for expected in (
        "confidence_interval",
        "compare_brier",
        "calibration_at_horizon",
        "BrierDecomposition",
        "plot",
        "calibration_error",
    ):
        assert expected in names


@pytest.mark.parametrize("name", sorted(VALUES))
def test_one_meaning_per_name(name):
    meaning, allowed = VALUES[name]
    found = uses(name)
    assert found, f"no public callable takes {name!r}"
    bad = []
    for qn, par, doc in found:
        if isinstance(par.default, str) and par.default not in allowed:
            bad.append(f"{qn}: default {par.default!r}")
        for values in documented_values(doc, name):
            if not values <= allowed:
                bad.append(f"{qn}: documented {sorted(values - allowed)}")
    assert not bad, (
        f"{name!r} means {meaning}, with values {sorted(allowed)}; " + "; ".join(bad)
    )


@pytest.mark.parametrize("name", SURVIVAL_TIMES)
def test_horizon_and_times_are_survival_time_points(name):
    found = uses(name)
    assert found
    outside = [qn for qn, _, _ in found if not qn.startswith("skbrier.survival.")]
    assert not outside, f"{name!r} is a survival time point, used in {outside}"
    for qn, par, _ in found:
        assert par.default in (None, inspect.Parameter.empty), qn


def test_lead_time_is_the_forecast_lead_time():
    # compare_brier's forecast horizon h (R's dm.test) and ForecastBench's
    # horizon of a question (days from the due date to the resolution)
    found = {qn: param for qn, param, _ in uses("lead_time")}
    assert sorted(found) == [
        "skbrier.leaderboards._forecastbench.forecastbench_rows",
        "skbrier.leaderboards._forecastbench.question_key",
        "skbrier.stats.compare.compare_brier",
    ]
    assert found["skbrier.stats.compare.compare_brier"].default == 1


@pytest.mark.parametrize(
    "retired, replacement",
    [
        ("horizon", "lead_time"),  # compare_brier
    ],
)
def test_compare_brier_takes_lead_time(retired, replacement):
    rng = np.random.default_rng(0)
    p = rng.uniform(size=60)
    y = (rng.uniform(size=60) < p).astype(int)
    q = np.clip(p + rng.normal(0, 0.1, 60), 0.01, 0.99)
    two = skbrier.compare_brier(y, p, q, small_sample_correction=True, **{replacement: 2})
    one = skbrier.compare_brier(y, p, q, small_sample_correction=True)
    # HLN factor sqrt((T + 1 - 2h + h(h - 1)/T) / T) with T = 60
    t = 60.0
    ratio = np.sqrt((t + 1 - 4 + 2 / t) / t) / np.sqrt((t + 1 - 2) / t)
    assert two.statistic == pytest.approx(one.statistic * ratio, rel=1e-12)
    with pytest.raises(TypeError, match=retired):
        skbrier.compare_brier(y, p, q, **{retired: 2})
    with pytest.raises(ValueError, match="lead_time"):
        skbrier.compare_brier(y, p, q, lead_time=0)


def test_decision_curve_display_takes_curve():
    import matplotlib

    matplotlib.use("Agg")
    res = skbrier.decision_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.6])
    disp = skbrier.DecisionCurveDisplay.from_result(res, curve="net_intervention_avoided")
    assert disp.curve_ == "net_intervention_avoided"
    with pytest.raises(TypeError, match="kind"):
        disp.plot(kind="net_benefit")
    with pytest.raises(ValueError, match="curve"):
        disp.plot(curve="calibration")


def test_decomposition_method_names_corp_or_murphy():
    dec = skbrier.BrierDecomposition(decomposition_method="murphy", n_bins=2)
    assert dec.get_params()["decomposition_method"] == "murphy"
    assert "method" not in dec.get_params()
    with pytest.raises(ValueError, match="decomposition_method"):
        skbrier.BrierDecomposition(decomposition_method="percentile").fit(
            [0, 1, 0, 1], [0.2, 0.7, 0.4, 0.9]
        )


def test_censoring_method_of_the_survival_calibration():
    from skbrier.survival import calibration_at_horizon

    args = ([1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6], [0.6, 0.9, 0.4, 0.5, 0.8, 0.3], 3.5)
    res = calibration_at_horizon(*args, n_bins=2, censoring_method="pseudo")
    assert res.censoring_method == "pseudo"
    with pytest.raises(TypeError, match="method"):
        calibration_at_horizon(*args, n_bins=2, method="pseudo")
    with pytest.raises(ValueError, match="censoring_method"):
        calibration_at_horizon(*args, n_bins=2, censoring_method="percentile")


_RETIRED = [
    (
        re.compile(r"\bmethod\s*=\s*[\"'](corp|murphy|km|pseudo)[\"']"),
        "method= of a decomposition or a survival calibration",
    ),
    (re.compile(r"\bkind\s*=\s*[\"']net_"), "kind= of a decision curve"),
    (
        re.compile(r"compare_brier\((?:[^()]|\([^()]*\))*?\bhorizon\s*=", re.DOTALL),
        "horizon= of compare_brier (a lead time)",
    ),
    (re.compile(r"\.delta\b"), "the survival comparison's .delta (now .difference)"),
]


def _texts() -> Iterator[Path]:
    yield ROOT / "README.md"
    yield ROOT / "docs" / "api.rst"
    yield from sorted((ROOT / "docs" / "guide").glob("*.rst"))
    yield from sorted((ROOT / "examples").glob("*.py"))
    yield from sorted((ROOT / "benchmarks").glob("*.py"))
    yield from sorted((ROOT / "skbrier").rglob("*.py"))


def test_docs_and_docstrings_use_the_new_names():
    bad = []
    for path in _texts():
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        for pattern, what in _RETIRED:
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{path.relative_to(ROOT)}:{line}: {what}: {m.group(0)!r}")
    assert not bad, "\n".join(bad)


# --------------------------------------------------------------- defaults


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_one_default_per_option_family(family):
    allowed = FAMILIES[family]
    bad = []
    for qn, par, _ in uses(family):
        d = par.default
        if d is inspect.Parameter.empty:
            continue
        if d not in allowed or isinstance(d, bool):
            bad.append(f"{qn}={d!r}")
            continue
        homes = SENTINEL_HOMES.get((family, d))
        if homes is not None and not qn.startswith(homes):
            bad.append(f"{qn}={d!r} (only {homes})")
    assert not bad, f"{family} defaults must be one of {allowed}: {bad}"


def test_the_constants():
    assert P.DEFAULT_N_BINS == 10
    assert P.DEFAULT_STRATEGY == "uniform"
    assert P.DEFAULT_CONFIDENCE_LEVEL == 0.95
    # (B + 1)(1 - level) / 2 is a whole number: the percentile bounds are order statistics
    assert ((P.DEFAULT_N_RESAMPLES + 1) * (1 - P.DEFAULT_CONFIDENCE_LEVEL) / 2) % 1 == (
        pytest.approx(0.0, abs=1e-9)
    )


def _cli_defaults() -> dict[str, dict[str, Any]]:
    import argparse

    from skbrier.cli import _build_parser

    parser = _build_parser()
    out: dict[str, dict[str, Any]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for cmd, sub in action.choices.items():
                out[cmd] = {a.dest: a.default for a in sub._actions}
    return out


@pytest.mark.parametrize(
    "family", ["n_bins", "confidence_level", "n_resamples", "strategy"]
)
def test_cli_defaults_follow_the_api(family):
    found = {cmd: opts[family] for cmd, opts in _cli_defaults().items() if family in opts}
    if family != "strategy":
        assert found, family
    for cmd, default in found.items():
        if family == "n_resamples" and default is None:
            # chosen from the data size, as calibration_report
            assert cmd in ("report", "demo")
            continue
        assert default in FAMILIES[family] and default != 0, (cmd, default)


def test_hidden_option_defaults_are_the_public_ones():
    # calibration_error_interval's **options default as calibration_error does
    rng = np.random.default_rng(0)
    p = rng.dirichlet([1, 1, 1], size=300)
    y = np.array([rng.choice(3, p=row) for row in p])
    res = skbrier.calibration_error_interval(y, p, n_resamples=9, random_state=0)
    assert res.estimate == pytest.approx(skbrier.calibration_error(y, p), rel=1e-12)


# ------------------------------------------------- survival comparison sign


def test_compare_brier_survival_difference_is_a_minus_b():
    from skbrier.survival import compare_brier_survival

    rng = np.random.default_rng(1)
    n = 200
    time = rng.exponential(2.0, size=n)
    event = np.ones(n, dtype=int)  # no censoring: the IPCW weights are 1
    t = np.array([1.0, 2.0])
    rate = 0.5 * np.exp(rng.normal(0, 0.3, size=n))  # survival curves: decreasing in t
    sa = np.exp(-rate[:, None] * t[None, :])
    sb = np.full((n, 2), 0.5)
    res = compare_brier_survival(event, time, sa, sb, t)
    np.testing.assert_allclose(res.difference, res.brier_a - res.brier_b, rtol=0, atol=0)
    assert not hasattr(res, "delta")
    # the same sign and number as compare_brier on the binary outcome at each time
    for k, tk in enumerate(t):
        y = (time <= tk).astype(int)
        ref = skbrier.compare_brier(y, 1.0 - sa[:, k], 1.0 - sb[:, k])
        assert res.difference[k] == pytest.approx(ref.difference, rel=1e-12)
    assert res.difference[0] < 0  # a is the better model
    low, high = res.confidence_interval(metric="brier_score")
    assert np.all(low < res.difference) and np.all(res.difference < high)
