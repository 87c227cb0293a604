"""Every public function that takes arrays declares its backends (issue 25, point 2).

The backend is chosen once, at the edge, by ``@backends`` (skbrier._core.dispatch):
a Dask collection reaches a declared adapter or the declaration's refusal (one
TypeError naming the parameter and the reason, nothing computed), an Array API
array a declared adapter or the documented host copy.  A public function with
an array parameter and no declaration loaded Dask input into memory without a
word (or reached another function's adapter and its unrelated error:
``compare_net_benefit`` said "n_resamples must be 0"), and gave a CUDA tensor a
stray torch error.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import numpy as np
import pytest

import skbrier
from skbrier._core import dispatch
from skbrier._core.dispatch import BODY, HOST, Refused

#: the parameters that may hold an array of rows (or of studies, imputed sets ...)
ARRAY_PARAMETER = re.compile(
    r"^(y|X|y_.*|.*_proba(_.*)?|sample_weight|confidence|surv_.*|groups|estimates"
    r"|variances|.*_correct|train_event|train_time|forecaster|question|strata"
    r"|scores|release_dates|replicates|data|x)$"
)

#: public modules whose functions are not dispatched by a declaration
ALLOWED_MODULES = {
    # the DuckDB, Polars and Spark engines are backends themselves: they take a
    # table (or a Spark DataFrame) and column names, and compute in that engine
    "skbrier.engines": "the engines compute in their own engine on a table and column names",
}

#: public functions with an array-like parameter name that need no declaration
ALLOWED = {
    "skbrier.io.read_inspect_log": "reads a log file; confidence is the name of a field",
    "skbrier.forecast_history": "takes tables and the names of their columns",
    "skbrier.leaderboards.forecastbench_rows": "forecaster is a table of ForecastBench rows",
    "skbrier.combine_leaderboards": "takes leaderboard results, not arrays",
    "skbrier.validation_sample_size": "takes the anticipated performance, no data",
    "skbrier.block_bootstrap": (
        "scipy.stats.bootstrap's form: data is a tuple of samples handed to the "
        "caller's statistic, which decides what it accepts"
    ),
    "skbrier.long_run_covariance": "a time series statistic of one series held in memory",
    "skbrier.optimal_block_length": "a time series statistic of one series held in memory",
}


def _public_modules():
    yield skbrier
    for info in pkgutil.walk_packages(skbrier.__path__, "skbrier."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        if any(info.name.startswith(m) for m in ALLOWED_MODULES):
            continue
        yield importlib.import_module(info.name)


def _public_functions():
    """``{documented name: function}`` of every function in a public ``__all__``
    (the first, shortest home of each)."""
    found: dict[int, tuple[str, object]] = {}
    for mod in _public_modules():
        for short in getattr(mod, "__all__", ()):
            func = getattr(mod, short, None)
            if inspect.isfunction(func) and id(func) not in found:
                found[id(func)] = (f"{mod.__name__}.{short}", func)
    return dict(found.values())


def _array_parameters(func) -> list[str]:
    return [p for p in inspect.signature(func).parameters if ARRAY_PARAMETER.match(p)]


def test_every_public_array_function_declares_its_backends():
    undeclared = sorted(
        name
        for name, func in _public_functions().items()
        if _array_parameters(func)
        and not hasattr(func, "__skbrier_backends__")
        and name not in ALLOWED
    )
    assert not undeclared, (
        "public functions with array parameters but no @backends declaration "
        f"(declare them, or allow them in ALLOWED with the reason): {undeclared}"
    )


def test_the_allowlist_holds_only_undeclared_public_functions():
    functions = _public_functions()
    for name in ALLOWED:
        assert name in functions, f"{name} is no public function (stale entry)"
        assert not hasattr(functions[name], "__skbrier_backends__"), (
            f"{name} is declared now: remove it from ALLOWED"
        )


def test_declarations_list_every_array_parameter():
    # a parameter left out of arrays= is not looked at: a dask sample_weight
    # beside numpy forecasts would be loaded into memory by the body
    missing = {}
    for name, func in _public_functions().items():
        decl = getattr(func, "__skbrier_backends__", None)
        if decl is None:
            continue
        left = [
            p
            for p in _array_parameters(func)
            if p not in decl.arrays and p not in _OPTION_ARRAYS
        ]
        if left:
            missing[name] = left
    assert not missing, missing


#: array-like parameter names that are options, not rows, where they occur
_OPTION_ARRAYS = {"scores"}  # history_leaderboard's scores is a result object


def test_every_declaration_says_what_each_backend_does():
    # a backend left out is refused without a reason: each declared function
    # says why (Refused), or how it serves the input (adapter, BODY, HOST)
    dispatch.support_table()
    for name, decl in dispatch.declarations().items():
        if not name.startswith("skbrier."):
            continue
        for kind in dispatch.BACKENDS:
            target = decl.adapters.get(kind)
            assert target is not None, f"{name} says nothing of {kind} input"
            if isinstance(target, Refused):
                assert "; " in target.reason and "comput" in target.reason, (
                    f"{name}'s refusal of {kind} input gives no advice: {target.reason!r}"
                )


# --------------------------------------------------------------------------- data
def _binary(n=200, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(np.int64)
    q = np.clip(p + rng.normal(0, 0.1, n), 0.01, 0.99)
    return y, p, q


def _survival(n=40, seed=0):
    rng = np.random.default_rng(seed)
    time = rng.exponential(5.0, n).round(3) + 0.01
    event = (rng.uniform(size=n) < 0.7).astype(np.int64)
    surv = np.exp(-np.outer(rng.uniform(0.05, 0.3, n), [1.0, 2.0, 3.0]))
    return event, time, surv


def _cases():
    """``(function, arrays by name, options)`` of a sample of the newly declared
    functions: the first array is the one the error names."""
    from skbrier import (
        achieved_precision,
        binary_test_probabilities,
        compare_forecasts,
        compare_net_benefit,
        cross_val_brier,
        leaderboard,
        lowess_calibration_error,
    )
    from skbrier.metrics import platt_calibration_error
    from skbrier.metrics.decomposition import bin_edges
    from skbrier.model_selection.pooled import brier_sum
    from skbrier.stats import (
        clustered_validation,
        pool_rubin,
        prediction_powered_accuracy,
        random_effects_meta,
    )
    from skbrier.survival import brier_score_survival, calibration_at_horizon

    y, p, q = _binary()
    event, time, surv = _survival()
    groups = np.repeat(np.arange(4), 50)
    human = np.where(np.arange(200) < 80, y, np.nan)
    return {
        "compare_forecasts": (
            compare_forecasts,
            {"y_true": y, "y_proba": {"a": p, "b": q}},
            {},
        ),
        "compare_net_benefit": (
            compare_net_benefit,
            {"y_true": y, "y_proba": {"a": p, "b": q}},
            {"n_resamples": 20, "random_state": 0},
        ),
        "achieved_precision": (
            achieved_precision,
            {"y_true": y, "y_proba": p},
            {"n_resamples": 20, "random_state": 0},
        ),
        "lowess_calibration_error": (
            lowess_calibration_error,
            {"y_true": y, "y_proba": p},
            {},
        ),
        "platt_calibration_error": (
            platt_calibration_error,
            {"y_true": y, "y_proba": p},
            {},
        ),
        "binary_test_probabilities": (
            binary_test_probabilities,
            {"y_true": y, "y_test": (p > 0.5).astype(np.int64)},
            {},
        ),
        "bin_edges": (bin_edges, {"y_proba": p}, {"strategy": "quantile"}),
        "clustered_validation": (
            clustered_validation,
            {"y_true": y, "y_proba": p, "groups": groups},
            {},
        ),
        "random_effects_meta": (
            random_effects_meta,
            {
                "estimates": np.array([0.9, 1.1, 1.3, 0.8]),
                "variances": np.array([0.01, 0.02, 0.015, 0.012]),
            },
            {},
        ),
        "pool_rubin": (
            pool_rubin,
            {
                "estimates": np.array([0.71, 0.74, 0.72]),
                "variances": np.array([4e-4, 4.4e-4, 3.6e-4]),
            },
            {},
        ),
        "prediction_powered_accuracy": (
            prediction_powered_accuracy,
            {"judge_correct": (p > 0.4).astype(np.int64), "human_correct": human},
            {"lam": 1.0},
        ),
        "brier_score_survival": (
            brier_score_survival,
            {"surv_proba": surv, "y_event": event, "y_time": time},
            {"times": [1.0, 2.0, 3.0]},
        ),
        "calibration_at_horizon": (
            calibration_at_horizon,
            {"surv_proba": surv[:, 1], "y_event": event, "y_time": time},
            {"horizon": 2.0, "n_bins": 4},
        ),
        "leaderboard": (
            leaderboard,
            {
                "y_proba": p[:120],
                "y_true": np.tile(y[:40], 3),
                "forecaster": np.repeat(["a", "b", "c"], 40),
                "question": np.tile(np.arange(40), 3),
            },
            {"n_resamples": 0},
        ),
        "brier_sum": (brier_sum, {"y_true": y, "y_proba": p}, {}),
        "cross_val_brier": (
            cross_val_brier,
            {"X": p[:, None], "y": y},
            {"cv": 3},
        ),
    }


def _call(func, arrays, options):
    if func.__name__ == "cross_val_brier":
        from sklearn.linear_model import LogisticRegression

        return func(LogisticRegression(), **arrays, **options)
    return func(**arrays, **options)


# --------------------------------------------------------------------------- dask
def _refusing_scheduler(*args, **kwargs):
    raise AssertionError("a refused Dask input was computed")


def _dask_refused():
    """The cases whose declaration refuses Dask (the others have adapters)."""
    return sorted(
        k
        for k, (func, _, _) in _cases().items()
        if isinstance(func.__skbrier_backends__.adapters.get("dask"), Refused)
    )


@pytest.mark.parametrize("case", _dask_refused())
def test_dask_input_gets_the_declared_refusal_and_nothing_is_computed(case):
    da = pytest.importorskip("dask.array")
    dask = pytest.importorskip("dask")
    func, arrays, options = _cases()[case]
    named = func.__skbrier_backends__.namespace_of  # the forecasts
    lazy = {}
    for k, v in arrays.items():
        if isinstance(v, dict):
            lazy[k] = {m: da.from_array(a, chunks=50) for m, a in v.items()}
        else:
            lazy[k] = da.from_array(v, chunks=50) if v.dtype.kind != "U" else v
    reason = func.__skbrier_backends__.adapters["dask"]
    assert isinstance(reason, Refused)
    with dask.config.set(scheduler=_refusing_scheduler):
        with pytest.raises(TypeError) as err:
            _call(func, lazy, options)
    msg = str(err.value)
    assert msg.startswith(f"{named}: {func.__name__} does not accept Dask input: "), msg
    assert reason.reason.rstrip(". ") in msg


def test_a_dask_weight_beside_numpy_forecasts_is_refused_by_its_name():
    da = pytest.importorskip("dask.array")
    from skbrier.survival import integrated_brier_score

    event, time, surv = _survival()
    with pytest.raises(TypeError, match="^sample_weight: integrated_brier_score does not"):
        integrated_brier_score(
            event, time, surv, [1.0, 2.0, 3.0], sample_weight=da.ones(event.shape[0])
        )


def test_a_list_of_dask_arrays_is_refused():
    # pooled_validation takes one forecast per imputed data set
    da = pytest.importorskip("dask.array")
    from skbrier.stats import pooled_validation

    y, p, q = _binary()
    with pytest.raises(TypeError, match="^y_proba: pooled_validation does not accept Dask"):
        pooled_validation(y, [da.from_array(p), da.from_array(q)])


# --------------------------------------------------------------------------- Array API
def _same(a, b):
    if isinstance(a, float) or isinstance(a, np.floating):
        assert a == b or (np.isnan(a) and np.isnan(b))
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    else:
        assert type(a) is type(b)
        assert repr(a) == repr(b)


def _namespace(kind):
    """``asarray`` of CPU torch, or of array-api-strict on its simulated second
    device (an array numpy cannot read: no silent ``np.asarray`` of it)."""
    if kind == "torch":
        return pytest.importorskip("torch").asarray
    xps = pytest.importorskip("array_api_strict")
    return lambda a: xps.asarray(a, device=xps.Device("device1"))


@pytest.mark.parametrize("kind", ["torch", "strict-device1"])
@pytest.mark.parametrize("case", sorted(_cases()))
def test_array_api_input_gives_the_numpy_result_through_the_host_copy(
    case, kind, monkeypatch
):
    asarray = _namespace(kind)
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    import sklearn

    func, arrays, options = _cases()[case]
    assert func.__skbrier_backends__.adapters["array_api"] == HOST
    want = _call(func, arrays, options)

    def tensor(v):
        return asarray(v) if v.dtype.kind in "fiub" else v

    on_torch = {
        k: {m: tensor(a) for m, a in v.items()} if isinstance(v, dict) else tensor(v)
        for k, v in arrays.items()
    }
    with sklearn.config_context(array_api_dispatch=True):
        got = _call(func, on_torch, options)
    _same(got, want)


def test_a_list_of_tensors_is_copied_to_the_host(monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    import sklearn

    from skbrier.stats import pooled_validation

    y, p, q = _binary()
    want = pooled_validation(y, [p, q])
    with sklearn.config_context(array_api_dispatch=True):
        got = pooled_validation(torch.asarray(y), [torch.asarray(p), torch.asarray(q)])
    assert repr(got) == repr(want)


def test_ranked_order_passes_device_outcomes_through(monkeypatch):
    # the Array API adapters of the ranked statistics read the order of device
    # outcomes with it: the rows stay where they are (BODY, not HOST)
    torch = pytest.importorskip("torch")
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    import sklearn

    from skbrier.metrics.ranked import ranked_order

    assert ranked_order.__skbrier_backends__.adapters["array_api"] == BODY
    y = torch.asarray([0, 2, 1])
    with sklearn.config_context(array_api_dispatch=True):
        out, order, perm = ranked_order(y, [2, 1, 0])
    assert out is y
    np.testing.assert_array_equal(order, [2, 1, 0])
    np.testing.assert_array_equal(perm, [2, 1, 0])


# --------------------------------------------------------------------------- docs
def test_support_table_links_each_function_where_a_public_module_exports_it():
    table = dispatch.support_table()
    names = re.findall(r":func:`~([\w.]+)`", table)
    for name in names:
        module, _, attr = name.rpartition(".")
        if "." in attr or module.endswith("Decomposition"):
            continue  # a method
        mod = importlib.import_module(module)
        assert attr in mod.__all__, name
    # a function of a private module is listed under the public module that
    # exports it, not under a name that does not exist
    assert ":func:`~skbrier.metrics.decomposition.bin_edges`" in table
    assert ":func:`~skbrier.model_selection.pooled.brier_sum`" in table
    # the top level first
    assert ":func:`~skbrier.brier_skill_score`" in table
    assert ":func:`~skbrier.compare_forecasts`" in table
    row = table.split(":func:`~skbrier.survival.brier_score_survival`")[1].split("* -")[0]
    assert "no: the Kaplan-Meier censoring weights" in row
    assert "copied to the host" in row


def test_the_unordered_categories_warning_names_the_callers_line():
    # ranked_order's warning had a fixed stacklevel: called by a ranked
    # statistic (through its declaration) it named a line of skbrier
    import warnings

    pd = pytest.importorskip("pandas")
    from skbrier import ranked_probability_score
    from skbrier.metrics.ranked import ranked_order

    y = pd.Series(pd.Categorical(["lo", "hi", "mid", "lo"], categories=["lo", "mid", "hi"]))
    p = np.full((4, 3), 1 / 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ranked_probability_score(y, p)
        ranked_order(y, None)
    files = [w.filename for w in caught if "unordered pandas categorical" in str(w.message)]
    assert files == [__file__, __file__]
