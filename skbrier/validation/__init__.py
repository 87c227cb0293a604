"""The validation study of a clinical prediction model (binary outcome).

* :func:`validation_sample_size`: the minimum size of an external validation
  sample (Riley et al. 2021; pmvalsampsize), by quadrature or by
  pmvalsampsize's simulation.
* :func:`achieved_precision`: the interval widths an audit achieved against
  those targets, with a sentence for the report.
* :func:`compare_net_benefit`: two or more models on the same patients for
  decisions: the paired net-benefit difference at every threshold, the
  probability that each model is useful, and the expected value of perfect
  information for validation (predtools' ``evpi_val``).
"""

from ._decision_value import NetBenefitComparisonResult, compare_net_benefit
from ._precision import AchievedPrecisionResult, achieved_precision
from ._sample_size import ValidationSampleSizeResult, validation_sample_size

__all__ = [
    "AchievedPrecisionResult",
    "NetBenefitComparisonResult",
    "ValidationSampleSizeResult",
    "achieved_precision",
    "compare_net_benefit",
    "validation_sample_size",
]
