"""Boundary cases of the result protocol found by fuzzing every result class.

Each test failed before its fix: a bad argument gave a bare exception or a
wrong number instead of a clear error naming the parameter.
"""

import warnings

import numpy as np
import pytest

from skbrier import brier_inference, calibration_report
from skbrier._core.params import check_confidence_level

from test_result_protocol import _build


@pytest.fixture(scope="module")
def multiclass():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _build("MulticlassDecomposition")