"""The shared docstring pieces (skbrier._core.docstrings): every public
docstring is complete, with no ``{{piece}}`` line left unreplaced."""

from __future__ import annotations

import importlib
import inspect

import pytest

from skbrier._core.docstrings import PIECES, shared_doc

PACKAGES = [
    "skbrier",
    "skbrier.metrics",
    "skbrier.stats",
    "skbrier.scorers",
    "skbrier.plotting",
    "skbrier.survival",
    "skbrier.leaderboards",
    "skbrier.model_selection",
    "skbrier.report",
    "skbrier.results",
    "skbrier.states",
    "skbrier.io",
]


def _public_objects():
    for name in PACKAGES:
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr)
            yield f"{name}.{attr}", obj
            if inspect.isclass(obj):
                for meth_name, meth in vars(obj).items():
                    if not meth_name.startswith("_") and callable(meth):
                        yield f"{name}.{attr}.{meth_name}", meth


def test_no_public_docstring_keeps_a_placeholder():
    left = [name for name, obj in _public_objects() if "{{" in (inspect.getdoc(obj) or "")]
    assert not left


def test_piece_is_indented_where_it_stands():
    def f():
        """Summary.

        Parameters
        ----------
        {{sample_weight}}
        """

    shared_doc(f)
    lines = inspect.getdoc(f).splitlines()
    assert lines[4] == "sample_weight : array-like of shape (n_samples,), default=None"
    assert lines[5] == "    " + PIECES["sample_weight"].splitlines()[1].strip()


def test_unknown_piece_is_an_error():
    def f():
        """{{no_such_piece}}"""

    with pytest.raises(KeyError, match="no_such_piece"):
        shared_doc(f)
