"""Packaging metadata: SPDX license, LICENSE file, single-sourced version, sdist contents.

The sdist itself was checked with ``python -m build --sdist`` and the tests run
from the unpacked archive; here the declarations that make that work are pinned.
"""

from __future__ import annotations

import pathlib
import sys

import pytest

import skbrier

ROOT = pathlib.Path(__file__).resolve().parents[1]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")


@pytest.fixture(scope="module")
def project():
    path = ROOT / "pyproject.toml"
    if not path.exists():
        pytest.skip("not a source checkout")
    return tomllib.loads(path.read_text())


def test_spdx_license_and_license_file(project):
    assert project["project"]["license"] == "BSD-3-Clause"
    assert project["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")
    assert "Neither the name of the copyright holder" in text


def test_version_is_single_sourced(project):
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "skbrier._version.__version__"
    }
    from skbrier._version import __version__

    assert skbrier.__version__ == __version__
    assert isinstance(skbrier.__version__, str) and skbrier.__version__


def test_urls_typed_and_extras(project):
    urls = project["project"]["urls"]
    assert {"Homepage", "Source", "Issues"} <= set(urls)
    assert (ROOT / "skbrier" / "py.typed").exists()
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["skbrier"]
    assert "dask" in project["project"]["optional-dependencies"]


def test_sdist_manifest_carries_the_tests():
    manifest = (ROOT / "MANIFEST.in").read_text()
    assert "conftest.py" in manifest
    assert "recursive-include tests *.py *.json *.csv *.R" in manifest


def test_version_answers_without_importing_the_library():
    # `skbrier --version` is the console script's fast path: no scikit-learn, no metrics
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys; sys.argv = ['skbrier', '--version']; import _skbrier_cli; "
        "rc = _skbrier_cli.main(); "
        "assert 'skbrier' not in sys.modules and 'sklearn' not in sys.modules, sorted(sys.modules); "
        "raise SystemExit(rc)"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("skbrier ")
