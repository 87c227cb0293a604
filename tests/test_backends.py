"""The one backend dispatch: declarations on the public functions, refusals, the table."""

from __future__ import annotations

import numpy as np
import pytest

from skbrier._core import dispatch as _backends
from skbrier._core.dispatch import BODY, HOST, Refused, backend_of, backends


@backends(dask=Refused("it needs all rows in memory"), array_api=BODY)
def _toy(y_true, y_proba, *, sample_weight=None):
    return "numpy body"


def test_numpy_and_sequences_run_the_body():
    assert _toy([0, 1], [0.1, 0.9]) == "numpy body"
    assert _toy(np.array([0, 1]), np.array([0.1, 0.9]), sample_weight=None) == "numpy body"
    assert backend_of([np.ones(2), None], np.ones(2)) == "numpy"


def test_refused_backend_names_the_reason():
    da = pytest.importorskip("dask.array")
    y = da.from_array(np.array([0, 1]))
    with pytest.raises(
        TypeError, match="^y_proba: _toy does not accept Dask input: it needs all rows"
    ):
        _toy(y, y)
    # a dask weight alone is enough to choose dask
    with pytest.raises(TypeError, match="Dask"):
        _toy([0, 1], [0.1, 0.9], sample_weight=da.ones(2))


def test_declared_functions_keep_their_signature_and_docs():
    import inspect

    from skbrier import brier_score

    assert "sample_weight" in inspect.signature(brier_score).parameters
    assert brier_score.__doc__.startswith("Brier score")
    assert brier_score.__skbrier_backends__.adapters["dask"].startswith(
        "skbrier._backends._dask"
    )


def test_support_table_is_generated_from_the_declarations():
    table = _backends.support_table()
    assert ":func:`~skbrier.brier_score`" in table
    row = table.split(":func:`~skbrier.brier_score`")[1].split("* -")[0]
    assert row.split() == ["-", "yes", "-", "yes", "-", "yes"]


def test_every_declared_adapter_imports():
    import importlib

    _backends.support_table()  # imports skbrier: every public function declares itself
    for name, decl in _backends.declarations().items():
        for kind, target in decl.adapters.items():
            if isinstance(target, str) and target not in (BODY, HOST):
                module, _, attr = target.partition(":")
                if kind == "dask":
                    pytest.importorskip("dask")
                assert callable(getattr(importlib.import_module(module), attr)), (
                    name,
                    kind,
                )


def test_host_declaration_copies_array_api_input(monkeypatch):
    xp = pytest.importorskip("array_api_strict")
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    sklearn = pytest.importorskip("sklearn")
    from skbrier import c_statistic

    y, p = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    with sklearn.config_context(array_api_dispatch=True):
        got = c_statistic(xp.asarray(y), xp.asarray(p))
    assert got == c_statistic(y, p) == 0.75


def test_refusal_reason_is_one_sentence_before_the_advice():
    # a reason without a full stop ran into the advice ("... .compute() Pass numpy")
    da = pytest.importorskip("dask.array")
    from skbrier.metrics.calibration_error import smooth_calibration_error

    y = da.from_array(np.array([0, 1, 1]))
    p = da.from_array(np.array([0.2, 0.7, 0.6]))
    with pytest.raises(TypeError) as err:
        smooth_calibration_error(y, p)
    assert ".compute(). Pass numpy arrays" in str(err.value)
    with pytest.raises(TypeError, match=r"in memory\. Pass numpy arrays"):
        _toy(y, y)
