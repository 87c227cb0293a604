"""skbrier on Spark DataFrames: every mergeable statistic of a DataFrame's
columns, exactly, in one Spark job, optionally per group.

Each function takes a Spark DataFrame and the names of its columns (``y``
the outcome, ``p`` the probability of the positive class, ``weight``
optional frequency weights) and returns what skbrier's function of the same
name returns for the same rows (a float or a result object of
:mod:`skbrier.results`); with ``group_by`` (a column name or a list of them)
a dict ``{group: result}`` sorted by group, whose key is the group's value
(a tuple of values for several columns).

How: every partition reduces its rows to the statistic's mergeable state
(``skbrier.states``: the kernel's reduce, with the in-memory checks) in a
``mapInArrow`` -- one Spark job -- the states are merged on the executors
(in a tree, in partition order: the driver receives one merged state) and
finished on the driver with the kernel's finish, so the numbers equal the
numpy path's (to rounding: the sums are added in another order) and bad
input in any partition raises the in-memory error, with a note naming the
columns.  The Brier score, Brier Index and skill score of 0/1 outcomes are
summed by Spark's own aggregations (no Python worker), with one more
aggregate showing every row valid; any other input takes the general way.

Not mergeable, so not here: equal-mass (quantile) bins, bootstrap intervals,
HAC intervals (the rows have no order in Spark); :func:`calibration_report`
computes those on a uniform subsample drawn in the same job, as on Dask.

Needs ``pyspark`` (``pip install 'skbrier[spark]'``) and a Java runtime;
skbrier must be importable by the Python workers (installed on every
executor, e.g. with ``--py-files`` or the cluster's environment).
"""

from __future__ import annotations

from typing import Any

from ._spark_bins import (
    c_statistic,
    calibration_bins,
    calibration_error,
    corp_decomposition,
    murphy_decomposition,
    spiegelhalter_z,
)
from ._spark_brier import brier_index, brier_score, brier_skill_score, score
from ._spark_ml import EVALUATORS
from ._spark_report import calibration_report
from ._spark_stats import brier_inference, compare_brier, decision_curve, net_benefit

__all__ = [
    *EVALUATORS,
    "brier_index",
    "brier_inference",
    "brier_score",
    "brier_skill_score",
    "c_statistic",
    "calibration_bins",
    "calibration_error",
    "calibration_report",
    "compare_brier",
    "corp_decomposition",
    "decision_curve",
    "murphy_decomposition",
    "net_benefit",
    "score",
    "spiegelhalter_z",
]


def __getattr__(name: str) -> Any:
    """The evaluators of :mod:`._spark_ml` (built, with pyspark, on first use)."""
    if name in EVALUATORS:
        from . import _spark_ml

        return getattr(_spark_ml, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
