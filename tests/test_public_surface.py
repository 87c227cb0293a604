"""One meaning per public name (move 7 of the redesign): no redundant aliases,
no adapters or shadowing helpers at the top level."""

import inspect
import re
from pathlib import Path

import pytest

import skbrier
import skbrier.metrics
import skbrier.scorers

API = Path(__file__).resolve().parents[1] / "docs" / "api.rst"


@pytest.mark.parametrize("module", [skbrier, skbrier.metrics])
def test_expected_calibration_error_is_gone(module):
    # calibration_error(kind="binary", n_bins=10) is the one name for it
    assert not hasattr(module, "expected_calibration_error")
    assert "expected_calibration_error" not in module.__all__
    assert "expected_calibration_error" not in API.read_text(encoding="utf-8")


def test_scorer_adapters_are_private():
    public = [n for n in skbrier.scorers.__all__ if n.endswith("_for_scorer")]
    assert not public
    assert not [n for n in dir(skbrier.scorers) if re.match(r"^[a-z].*_for_scorer$", n)]
    assert "_for_scorer" not in API.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["get_scorer", "get_scorer_names"])
def test_get_scorer_lives_in_scorers_only(name):
    # skbrier.get_scorer would shadow sklearn.metrics.get_scorer
    assert not hasattr(skbrier, name)
    assert name not in skbrier.__all__
    assert name in skbrier.scorers.__all__


def test_scoring_name_matches_the_function():
    # the scorer of calibration_error is neg_calibration_error (sklearn's neg_<metric>)
    assert "neg_calibration_error" in skbrier.scorers.SCORER_NAMES
    assert "neg_expected_calibration_error" not in skbrier.scorers.SCORER_NAMES
    assert skbrier.scorers.get_scorer("neg_calibration_error") is not None


def test_docs_recommend_scorers_get_scorer():
    from skbrier import _sklearn_registration as R

    text = inspect.getsource(R) + inspect.getsource(skbrier.scorers)
    assert "skbrier.get_scorer(" not in text
    assert "skbrier.get_scorer_names(" not in text
