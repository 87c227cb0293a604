"""A missing optional dependency gives one message everywhere.

``"<what> requires <package>: pip install <package>"``, then the extra of
skbrier that brings it (``(or pip install "skbrier[plot]")``), chained to the
original ImportError: :func:`skbrier._core.optional.import_optional`.  Each
test hides a package with ``sys.modules[name] = None`` (``import name`` then
raises ImportError); monkeypatch puts the modules back afterwards.
"""

import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from test_result_protocol import RESULT_NAMES, _build

import skbrier.results
from skbrier._core.optional import EXTRAS, import_optional, missing_message


def _hide(monkeypatch, package: str) -> None:
    """Make ``import package`` (and its submodules) fail, as if not installed."""
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, package, None)


def _install(package: str, pip: str | None = None) -> str:
    """The regex of the end of the message: how to install ``package``."""
    how = re.escape(f"pip install {pip or package}")
    extra = EXTRAS.get(package)
    if extra:
        how += re.escape(f' (or pip install "skbrier[{extra}]")')
    return f" requires {package}: {how}\\.$"


def _check(excinfo, what: str, package: str) -> None:
    assert re.search(re.escape(what) + _install(package), str(excinfo.value)), str(
        excinfo.value
    )
    # the original error stays attached
    assert isinstance(excinfo.value.__cause__, ImportError)


# ------------------------------------------------------------------ the helper
def test_import_optional_returns_the_module():
    import json.decoder

    assert import_optional("json.decoder", needed_for="x") is json.decoder


def test_the_message_names_the_package_and_how_to_install_it(monkeypatch):
    _hide(monkeypatch, "pandas")
    with pytest.raises(ImportError) as excinfo:
        import_optional("pandas", needed_for="Thing.to_frame()")
    assert str(excinfo.value) == "Thing.to_frame() requires pandas: pip install pandas."
    assert excinfo.value.name == "pandas"
    assert isinstance(excinfo.value.__cause__, ImportError)


def test_the_message_names_the_extra_of_skbrier():
    assert missing_message("matplotlib.pyplot", needed_for="ReliabilityDisplay") == (
        'ReliabilityDisplay requires matplotlib: pip install matplotlib (or pip install "skbrier[plot]").'
    )
    assert missing_message("pandas", needed_for="x", extra="excel") == (
        'x requires pandas: pip install pandas (or pip install "skbrier[excel]").'
    )
    # a distribution named otherwise
    assert 'pip install "dask[dataframe]" (or pip install "skbrier[dask]")' in (
        missing_message("dask.dataframe", needed_for="x")
    )
    assert "pip install optuna-integration" in missing_message(
        "optuna_integration.sklearn", needed_for="x"
    )


def test_a_module_that_is_not_installed():
    with pytest.raises(
        ImportError, match=r"^x requires no_such_pkg_: pip install no_such_pkg_\.$"
    ):
        import_optional("no_such_pkg_.sub", needed_for="x")


def test_the_extras_are_those_of_pyproject():
    tomllib = pytest.importorskip("tomllib")
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    if not pyproject.exists():  # pragma: no cover - an installed copy of the tests
        pytest.skip("no pyproject.toml")
    extras = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    for module, extra in EXTRAS.items():
        wanted = module.replace("_", "-")
        names = [re.split(r"[\[<>=!~ ;]", r)[0].lower() for r in extras[extra]]
        assert wanted in names, (module, extra, extras[extra])


# -------------------------------------------------------------- pandas: to_frame
_WITH_FRAME = [n for n in RESULT_NAMES if hasattr(getattr(skbrier.results, n), "to_frame")]


def test_every_result_class_has_a_to_frame():
    assert len(_WITH_FRAME) == len(RESULT_NAMES)


def _quietly(make):
    """``make()`` (a result built on small data: its warnings are not the test's)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return make()


@pytest.mark.parametrize("name", _WITH_FRAME)
def test_to_frame_without_pandas(name, monkeypatch):
    result = _quietly(lambda: _build(name))
    assert type(result).__name__ == name
    _hide(monkeypatch, "pandas")
    with pytest.raises(ImportError) as excinfo:
        result.to_frame()
    _check(excinfo, f"{name}.to_frame()", "pandas")


@pytest.mark.parametrize(
    "make, call, what",
    [
        (
            lambda: skbrier.BrierDecomposition().fit([0, 0, 1, 1], [0.2, 0.4, 0.3, 0.9]),
            lambda est: est.to_frame(),
            "BrierDecomposition.to_frame()",
        ),
        (
            lambda: skbrier.BrierDecomposition().fit([0, 0, 1, 1], [0.2, 0.4, 0.3, 0.9]),
            lambda est: est.to_frame("table"),
            "BrierDecomposition.to_frame()",
        ),
        (
            lambda: _build("HistoryScoreResult"),
            lambda res: res.pairs_frame(),
            "HistoryScoreResult.pairs_frame()",
        ),
        (
            lambda: _build("HistoryLeaderboardResult"),
            lambda res: res.pairwise_frame(),
            "HistoryLeaderboardResult.pairwise_frame()",
        ),
    ],
)
def test_other_tables_without_pandas(make, call, what, monkeypatch):
    obj = _quietly(make)
    _hide(monkeypatch, "pandas")
    with pytest.raises(ImportError) as excinfo:
        call(obj)
    _check(excinfo, what, "pandas")


# ----------------------------------------------------------- matplotlib: Displays
def _data(n=80):
    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, n)
    return (rng.uniform(size=n) < p).astype(int), p


@pytest.mark.parametrize("name", skbrier.plotting.__all__)
def test_displays_without_matplotlib(name, monkeypatch):
    display = getattr(skbrier.plotting, name)
    y, p = _data()
    _hide(monkeypatch, "matplotlib")
    with pytest.raises(ImportError) as excinfo:
        display.from_predictions(y, p)
    _check(excinfo, name, "matplotlib")


def test_line_kwargs_without_matplotlib(monkeypatch):
    # the keywords are checked (with matplotlib's Line2D) before anything is drawn
    y, p = _data()
    _hide(monkeypatch, "matplotlib")
    with pytest.raises(ImportError) as excinfo:
        skbrier.plotting.RiskCoverageDisplay.from_predictions(y, p, color="red")
    _check(excinfo, "RiskCoverageDisplay", "matplotlib")


def test_survival_display_without_matplotlib(monkeypatch):
    from skbrier.survival import SurvivalCalibrationDisplay

    res = _build("SurvivalCalibrationResult")
    _hide(monkeypatch, "matplotlib")
    with pytest.raises(ImportError) as excinfo:
        SurvivalCalibrationDisplay.from_result(res)
    _check(excinfo, "SurvivalCalibrationDisplay", "matplotlib")


# ------------------------------------------------------------ optuna, the engines
def test_create_study_without_optuna(monkeypatch):
    from skbrier.model_selection import create_study

    _hide(monkeypatch, "optuna")
    with pytest.raises(ImportError) as excinfo:
        create_study("brier_score")
    _check(excinfo, "create_study", "optuna")


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_engines_without_their_package(engine, monkeypatch):
    import importlib

    module = importlib.import_module(f"skbrier.engines.{engine}")
    _hide(monkeypatch, engine)
    with pytest.raises(ImportError) as excinfo:
        module.brier_score({"y": [0, 1], "p": [0.2, 0.8]}, y="y", p="p")
    _check(excinfo, f"skbrier.engines.{engine}", engine)


def test_spark_evaluators_without_pyspark(monkeypatch):
    from skbrier.engines import _spark_ml

    monkeypatch.setattr(_spark_ml, "_CLASSES", {})
    _hide(monkeypatch, "pyspark")
    with pytest.raises(ImportError) as excinfo:
        _spark_ml.BrierScoreEvaluator  # noqa: B018 - built on first access
    _check(excinfo, "The Spark ML evaluators of skbrier.engines.spark", "pyspark")


def test_decision_curve_smoothing_without_statsmodels(monkeypatch):
    from skbrier.plotting.decision_curve import smooth_curve

    _hide(monkeypatch, "statsmodels")
    with pytest.raises(ImportError) as excinfo:
        smooth_curve(np.linspace(0, 1, 5), np.linspace(0.1, 0.5, 5), 0.5)
    _check(excinfo, "smooth_frac > 0 (the lowess smoothing of dcurves)", "statsmodels")


def test_the_packages_come_back():
    # monkeypatch restored sys.modules: the later tests import them as usual
    import pandas

    assert sys.modules["pandas"] is pandas


# --------------------------------------------------- every import goes through it
#: the optional packages (and psutil, which the command line uses when present)
_OPTIONAL = {
    "dask",
    "duckdb",
    "matplotlib",
    "openpyxl",
    "optuna",
    "optuna_integration",
    "pandas",
    "polars",
    "psutil",
    "pyarrow",
    "pyspark",
    "statsmodels",
}

#: modules whose plain imports of an optional package run only once it is known
#: to be there (the input is one of its objects, or a check ran first)
_AFTER_A_CHECK = {
    "_backends/_dask/_fits.py": "dask input",
    "_backends/_dask/_graph.py": "dask input (dask.dataframe brings pandas)",
    "_backends/_dask/_select.py": "dask input",
    "_core/progress.py": "dask_tasks runs inside a dask computation",
    "cli/_dask_input.py": "after _read's import_for_cli",
    "cli/_engines.py": "after engine_reports' import_for_cli",
    "cli/_llm_output.py": "after _figures.has_matplotlib()",
    "cli/_table.py": "the readers _engines() found",
    "engines/_spark_ml.py": "after _classes' import_optional (pyspark.ml)",
    "engines/_spark_native.py": "a Spark DataFrame (_check_frame)",
    "engines/_spark_reduce.py": "a Spark DataFrame (_check_frame)",
    "engines/_spark_report.py": "a Spark DataFrame (_check_frame)",
    "leaderboards/_history.py": "a timezone-aware pandas column",
    "plotting/_calibration_parts.py": "a figure drawn",
    "plotting/_multiclass_reliability.py": "after new_axes (import_pyplot)",
    "plotting/_reliability_draw.py": "axes drawn on",
    "plotting/decision_curve.py": "after new_axes (import_pyplot)",
    "plotting/flexible_calibration.py": "after import_pyplot",
    "report/_figures.py": "after has_matplotlib()",
}


def _plain_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of the imports of an optional package in ``path``
    that neither tolerate its absence (``except ImportError``) nor are for
    type checkers only."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}

    def excused(node: ast.AST) -> bool:
        while node in parents:
            node = parents[node]
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                return True
            if isinstance(node, ast.Try) and any(
                h.type is not None and "ImportError" in ast.unparse(h.type)
                for h in node.handlers
            ):
                return True
        return False

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            if name.split(".")[0] in _OPTIONAL and not excused(node):
                out.append((node.lineno, name))
    return out


def test_optional_packages_are_imported_through_import_optional():
    pkg = Path(skbrier.__file__).parent
    offenders = {
        f"{rel}:{line}": name
        for path in sorted(pkg.rglob("*.py"))
        if (rel := path.relative_to(pkg).as_posix()) not in _AFTER_A_CHECK
        for line, name in _plain_imports(path)
    }
    assert not offenders, offenders
    # and the list names no module that has none left
    stale = [rel for rel in _AFTER_A_CHECK if not _plain_imports(pkg / rel)]
    assert not stale, stale
