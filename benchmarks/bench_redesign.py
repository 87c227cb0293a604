"""The structural numbers of the one-kernel redesign (issue 25), in one run.

    python benchmarks/bench_redesign.py [--duplicates PATH]

Prints:

1. repeated code: the pairs of places over ``skbrier/`` sharing six or more
   lines (identical or of the same shape), as the ``duplicates`` tool lists
   them (run when it is on ``PATH``), each pair classed by what its lines are:
   a public *signature* (decorators and parameter lists), *docstring* text
   (doctest openings, parameter descriptions), *declarations* (imports,
   ``__all__``, dataclass fields, class-level settings) or *code* (statements
   of a body: the repetition that matters);
2. backend branches in the public layer (``is_dask_input(``,
   ``array_api_forecast(``, ``dispatch_namespace(`` outside ``_core`` and the
   backend adapters), ``FutureWarning``/``DeprecationWarning`` raised from
   ``skbrier/``, and the ``# fmt: skip`` lines (hand-packed code, which the
   repeated-code count cannot see; one aligned table of numbers remains);
3. validation: the checks of each input column in one ``calibration_report``
   call and in one ``skbrier report`` run of two forecast columns.

The speed figures of the issue are printed by ``bench_brier.py``,
``bench_dask.py``, ``bench_decomposition.py``, ``bench_calibration_error.py``,
``bench_report.py`` and ``bench_array_api.py`` (``gpu_checks.sh`` on a GPU).
"""

from __future__ import annotations

import argparse
import ast
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "skbrier"
ROW = re.compile(r"^D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)")


def line_kinds(path: Path) -> dict[int, str]:
    """Each line of a module: signature, docstring, declaration or code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds: dict[int, str] = {}

    def mark(first: int, last: int, kind: str) -> None:
        for i in range(first, last + 1):
            kinds.setdefault(i, kind)

    def docstring(node: ast.AST) -> None:
        body = getattr(node, "body", [])
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            if isinstance(body[0].value.value, str):
                mark(body[0].lineno, body[0].end_lineno or body[0].lineno, "docstring")

    docstring(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            docstring(node)
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            mark(first, node.body[0].lineno - 1, "signature")
        if isinstance(node, ast.Import | ast.ImportFrom):
            mark(node.lineno, node.end_lineno or node.lineno, "declaration")
        if isinstance(node, ast.ClassDef | ast.Module):
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign | ast.Assign):
                    mark(stmt.lineno, stmt.end_lineno or stmt.lineno, "declaration")
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # docstring pieces and docstrings given to decorators
            if (node.end_lineno or node.lineno) - node.lineno >= 2:
                mark(node.lineno, node.end_lineno or node.lineno, "docstring")
    return kinds


def repeated_code(tool: str) -> None:
    out = subprocess.run(
        [tool, "--most", "200", "--seconds", "300"],
        cwd=PKG,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    rows = [m for m in map(ROW.match, out.splitlines()) if m]
    print(out.splitlines()[0] if out else "duplicates printed nothing")
    cache: dict[str, dict[int, str]] = {}
    classes: collections.Counter = collections.Counter()
    code_rows = []
    for m in rows:
        sides = [(m.group(1), int(m.group(2)), int(m.group(3)))]
        sides.append((m.group(4), int(m.group(5)), int(m.group(6))))
        seen: collections.Counter = collections.Counter()
        for name, a, b in sides:
            kinds = cache.setdefault(name, line_kinds(PKG / name))
            seen.update(kinds.get(i, "code") for i in range(a, b + 1))
        kind = seen.most_common(1)[0][0]
        classes[kind] += 1
        if kind == "code":
            code_rows.append(m.group(0))
    print("repeated code by what the shared lines are:")
    for kind in ("code", "signature", "docstring", "declaration"):
        print(f"  {kind:<12} {classes[kind]:4d} pairs")
    for row in code_rows:
        print("   code:", row)


def public_layer() -> None:
    branch = re.compile(r"is_dask_input\(|array_api_forecast\(|dispatch_namespace\(")
    warn = re.compile(r"\b(FutureWarning|DeprecationWarning)\b")
    branches = warnings_ = skips = 0
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG).as_posix()
        text = path.read_text(encoding="utf-8")
        if not rel.startswith(("_core/", "_backends/")):
            branches += len(branch.findall(text))
        warnings_ += len(warn.findall(text))
        skips += text.count("# fmt: skip")
    print(f"backend branches in the public layer: {branches}")
    print(f"FutureWarning/DeprecationWarning named in skbrier/: {warnings_}")
    # code packed by hand is hidden from the repeated-code count: keep it 0
    # but for aligned tables of numbers
    print(f"'# fmt: skip' in skbrier/ (hand-packed lines): {skips}")


def validation_checks() -> None:
    import numpy as np

    sys.path.insert(0, str(ROOT))
    from skbrier._core import arrays
    from skbrier.cli import main
    from skbrier.report import calibration_report

    counts: collections.Counter = collections.Counter()
    arrays.checked = lambda what: counts.update([what])  # type: ignore[assignment]
    rng = np.random.default_rng(0)
    a = rng.uniform(0.02, 0.98, 2000)
    b = np.clip(a + rng.normal(0, 0.1, a.size), 0.01, 0.99)
    y = (rng.uniform(size=a.size) < a).astype(int)
    w = rng.uniform(0.5, 2.0, a.size)
    g = rng.integers(0, 3, a.size)
    calibration_report(y, a, sample_weight=w, thresholds=[0.2, 0.5])
    print(f"checks per column, calibration_report: {dict(counts)}")
    counts.clear()
    calibration_report(y, a, sample_weight=w, groups=g, segments={"g": g})
    print(f"checks per column, calibration_report with subgroups: {dict(counts)}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.csv"
        rows = ["y,a,b,w,g"] + [
            f"{r},{s!r},{t!r},{u!r},{v}"
            for r, s, t, u, v in zip(
                y.tolist(), a.tolist(), b.tolist(), w.tolist(), g.tolist()
            )
        ]
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        args = ["report", str(path), "--y-col", "y", "--p-col", "a", "--p-col", "b"]
        args += ["--weight-col", "w", "--threshold", "0.2"]
        import contextlib
        import io

        for what, extra in (
            ("", ["--json"]),
            (
                ", --subgroup-col and --html",
                ["--subgroup-col", "g", "--html", f"{tmp}/r.html"],
            ),
        ):
            counts.clear()
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                main(args + extra)
            print(
                f"checks per column, skbrier report (two forecast columns{what}): {dict(counts)}"
            )


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duplicates", default=shutil.which("duplicates"))
    args = parser.parse_args()
    if args.duplicates:
        repeated_code(args.duplicates)
    else:
        print("repeated code: the duplicates tool is not on PATH (skipped)")
    public_layer()
    validation_checks()


if __name__ == "__main__":
    main_()
