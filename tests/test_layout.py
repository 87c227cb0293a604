"""Project rules that code review would otherwise have to remember.

(Private scikit-learn imports are checked in tests/test_sklearn_registration.py.)
"""

import re
from pathlib import Path

import skbrier

PKG = Path(skbrier.__file__).parent


def test_optional_dependencies_are_imported_lazily():
    # matplotlib, pandas, optuna and dask may only be imported inside functions
    top_level = re.compile(
        r"^(from|import)\s+(matplotlib|pandas|optuna|dask)\b", re.MULTILINE
    )
    offenders = [
        str(p.relative_to(PKG))
        for p in PKG.rglob("*.py")
        if top_level.search(p.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders


# --------------------------------------------------------------------------
# the house: static __all__, no cycles, no god files, typed, no build words
# --------------------------------------------------------------------------
def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _top_level_imports(path: Path) -> set[str]:
    """skbrier modules imported anywhere in the module (a lazy import is still an arrow)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    # imports for type checkers only are not arrows
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if not mod.startswith("skbrier"):
                continue
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                out.add(
                    sub
                    if (PKG.parent / (sub.replace(".", "/") + ".py")).exists()
                    or (PKG.parent / sub.replace(".", "/")).is_dir()
                    else mod
                )
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("skbrier"))
    out.discard(me)
    return out


def test_no_import_cycles():
    # every import counts: function-level ones and imports of an ancestor package
    # (``from .. import x`` runs the ancestor's __init__, which may import back)
    graph = {_module_name(p): _top_level_imports(p) for p in PKG.rglob("*.py")}
    seen: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        seen[m] = 1
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if seen.get(d) == 1:
                cycles.append(stack[stack.index(d) :] + [d])
            elif d not in seen:
                visit(d)
        stack.pop()
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m)
    assert not cycles, cycles


def test_static_all_and_typed_package():
    import ast

    tree = ast.parse((PKG / "__init__.py").read_text(encoding="utf-8"))
    assigned = [
        n
        for n in tree.body
        if isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)
    ]
    assert len(assigned) == 1 and isinstance(assigned[0].value, ast.List)
    assert all(isinstance(e, ast.Constant) for e in assigned[0].value.elts)
    assert sorted(skbrier.__all__) == skbrier.__all__
    for name in skbrier.__all__:
        assert hasattr(skbrier, name), name
    assert (PKG / "py.typed").exists()


def test_no_god_files():
    big = {
        str(p.relative_to(PKG)): n
        for p in PKG.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 750
    }
    assert not big, big


def test_no_words_of_the_build_process():
    words = re.compile(r"(?<!make_)seed ?00\d|reference\.md", re.IGNORECASE)
    roots = [PKG, PKG.parent / "docs", PKG.parent / "examples"]
    offenders = [
        str(p)
        for root in roots
        if root.exists()
        for p in root.rglob("*")
        if p.suffix in (".py", ".rst", ".md")
        and "_build" not in p.parts
        and "auto_examples" not in p.parts
        and words.search(p.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders


def _all_imports() -> dict[str, set[str]]:
    return {_module_name(p): _top_level_imports(p) for p in PKG.rglob("*.py")}


def test_the_engine_imports_nothing_above_it():
    # skbrier._core is the bottom layer: it may import itself, the package's
    # warnings (skbrier.exceptions) and the version, nothing public
    leaves = {"skbrier.exceptions", "skbrier._version"}
    offenders = {
        (mod, dep)
        for mod, deps in _all_imports().items()
        if mod.startswith("skbrier._core")
        for dep in deps
        if not dep.startswith("skbrier._core") and dep not in leaves
    }
    assert not offenders, sorted(offenders)


def test_backend_adapters_are_reached_only_through_the_declarations():
    # nothing imports skbrier._backends: the dispatch loads the adapters a public
    # function names in its @backends declaration
    offenders = {
        (mod, dep)
        for mod, deps in _all_imports().items()
        if not mod.startswith("skbrier._backends")
        for dep in deps
        if dep.startswith("skbrier._backends")
    }
    assert not offenders, sorted(offenders)


def test_no_backend_branch_in_the_public_layer():
    # the backend is chosen once, at the edge, by the declaration
    pattern = re.compile(r"is_dask_input\(|array_api_forecast\(|dispatch_namespace\(")
    offenders = [
        str(p.relative_to(PKG))
        for p in PKG.rglob("*.py")
        if not str(p.relative_to(PKG)).startswith(("_core", "_backends"))
        and pattern.search(p.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders
