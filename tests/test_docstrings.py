"""Every public object has a numpydoc docstring with documented parameters and an example."""

import importlib
import inspect

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")
numpydoc_docscrape = pytest.importorskip("numpydoc.docscrape")

import skbrier

# GL08: no docstring; PR01/PR02: parameters missing from / unknown to the docstring;
# EX01: no Examples section; RT01: no Returns section (functions).
CHECKS = {"GL08", "PR01", "PR02", "EX01"}


def _public_objects():
    names = []
    for name in skbrier.__all__:
        obj = getattr(skbrier, name)
        names.append(f"skbrier.{name}")
        if inspect.isclass(obj):
            for meth, member in vars(obj).items():
                if meth.startswith("_") or not callable(member):
                    continue
                if isinstance(member, (staticmethod, classmethod)) or inspect.isfunction(
                    member
                ):
                    names.append(f"skbrier.{name}.{meth}")
    return names


@pytest.mark.parametrize("qualname", _public_objects())
def test_numpydoc(qualname):
    result = numpydoc_validate.validate(qualname)
    errors = [(code, msg) for code, msg in result["errors"] if code in CHECKS]
    if ".".join(qualname.split(".")[:-1]) != "skbrier" and any(
        code == "EX01" for code, _ in errors
    ):
        # methods may rely on the class example
        errors = [e for e in errors if e[0] != "EX01"]
    name = qualname.split(".")[-1]
    if name.endswith("Result") or (
        name.endswith("Decomposition") and name != "BrierDecomposition"
    ):
        # result objects are built by the functions that return them, not by
        # users: they document their attributes instead of constructor arguments
        errors = [e for e in errors if e[0] != "PR01"]
        doc = numpydoc_docscrape.ClassDoc(getattr(skbrier, name))
        assert doc["Attributes"] or doc["Parameters"], f"{qualname}: no Attributes"
    assert not errors, f"{qualname}: {errors}"


def test_all_names_importable():
    for name in skbrier.__all__:
        assert hasattr(skbrier, name), name
    importlib.import_module("skbrier.cli")
