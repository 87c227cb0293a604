"""The one ImportError of a missing optional dependency.

skbrier needs numpy, scipy, scikit-learn and joblib; everything else
(pandas, matplotlib, optuna, dask, polars, duckdb, pyspark, pyarrow,
openpyxl, statsmodels) is imported when a function needs it, through
:func:`import_optional`, so that a missing package always reads the same::

    CalibrationReport.to_frame() requires pandas: pip install pandas.
    CalibrationDisplay requires matplotlib: pip install matplotlib
    (or pip install "skbrier[plot]").

A place that works without the package (a probe that falls back to
something else) keeps its own ``try: import ... except ImportError``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["EXTRAS", "PIP_NAMES", "import_optional", "missing_message"]

#: the extra of skbrier (``[project.optional-dependencies]`` of
#: pyproject.toml) that installs each package (pandas has none of its own)
EXTRAS = {
    "matplotlib": "plot",
    "optuna": "optuna",
    "optuna_integration": "optuna",
    "dask": "dask",
    "polars": "polars",
    "duckdb": "duckdb",
    "openpyxl": "excel",
    "pyspark": "spark",
}

#: what to ``pip install`` for a module whose distribution is named otherwise
#: (the longest listed prefix of the module's dotted name; else its package)
PIP_NAMES = {
    "dask.dataframe": '"dask[dataframe]"',
    "optuna_integration": "optuna-integration",
}


def missing_message(module_name: str, *, needed_for: str, extra: str | None = None) -> str:
    """The message of a missing ``module_name``: ``"<needed_for> requires
    <package>: pip install <pip name>"``, then ``(or pip install
    "skbrier[<extra>]")`` when an extra of skbrier brings it (``extra``, else
    :data:`EXTRAS`)."""
    package = module_name.partition(".")[0]
    parts = module_name.split(".")
    prefixes = (".".join(parts[:k]) for k in range(len(parts), 0, -1))
    pip = next((PIP_NAMES[p] for p in prefixes if p in PIP_NAMES), package)
    extra = extra or EXTRAS.get(package)
    also = f' (or pip install "skbrier[{extra}]")' if extra else ""
    return f"{needed_for} requires {package}: pip install {pip}{also}."


def import_optional(
    module_name: str, *, needed_for: str, extra: str | None = None
) -> ModuleType:
    """The module ``module_name`` (``"pandas"``, ``"matplotlib.pyplot"``),
    imported now.

    Parameters
    ----------
    module_name : str
        The dotted name of the module.
    needed_for : str
        What needs it, the start of the message (``"CalibrationDisplay"``,
        ``"CalibrationReport.to_frame()"``).
    extra : str or None, default=None
        The extra of skbrier to name (default: the one of :data:`EXTRAS`).

    Returns
    -------
    module
        The imported module.

    Raises
    ------
    ImportError
        When it cannot be imported: :func:`missing_message`, chained to the
        original error.
    """
    try:
        # the import statement's hook (as ``import x`` would call it), so that
        # whatever hides or replaces an import sees this one too
        __import__(module_name)
    except ImportError as exc:
        raise ImportError(
            missing_message(module_name, needed_for=needed_for, extra=extra),
            name=module_name,
        ) from exc
    return importlib.import_module(module_name)
