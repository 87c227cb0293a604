"""Project rules that code review would otherwise have to remember."""

import re
from pathlib import Path

import skbrier

PKG = Path(skbrier.__file__).parent
PRIVATE_SKLEARN = re.compile(r"^\s*(from|import)\s+sklearn(\.\w+)*\._\w+", re.M)


def test_no_private_sklearn_imports_outside_the_registry():
    offenders = []
    for path in PKG.rglob("*.py"):
        if "regist" in path.name:
            continue
        for m in PRIVATE_SKLEARN.finditer(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(PKG)}: {m.group(0).strip()}")
    assert not offenders, offenders


def test_optional_dependencies_are_imported_lazily():
    # matplotlib, pandas, optuna and dask may only be imported inside functions
    top_level = re.compile(r"^(from|import)\s+(matplotlib|pandas|optuna|dask)\b", re.M)
    offenders = [
        str(p.relative_to(PKG))
        for p in PKG.rglob("*.py")
        if top_level.search(p.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders
