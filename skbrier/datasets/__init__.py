"""Small bundled datasets for examples, the demo and the tests."""

from ._loaders import load_forecasts, make_logistic_cohort

__all__ = ["load_forecasts", "make_logistic_cohort"]
