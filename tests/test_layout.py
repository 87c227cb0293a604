"""Project rules that code review would otherwise have to remember.

(Private scikit-learn imports are checked in tests/test_sklearn_registration.py.)
"""

import re
from pathlib import Path

import skbrier

PKG = Path(skbrier.__file__).parent


def test_optional_dependencies_are_imported_lazily():
    # matplotlib, pandas, optuna and dask may only be imported inside functions
    top_level = re.compile(r"^(from|import)\s+(matplotlib|pandas|optuna|dask)\b", re.MULTILINE)
    offenders = [
        str(p.relative_to(PKG))
        for p in PKG.rglob("*.py")
        if top_level.search(p.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders
