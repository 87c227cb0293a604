"""The calibration audit: one object with everything ``rms::val.prob`` reports and more.

:func:`calibration_report` computes, for binary probability forecasts, the
Brier score, Brier Index and Brier skill score with confidence intervals,
logistic recalibration (calibration in the large, intercept and slope),
Spiegelhalter's test, lowess and binned calibration errors, the C statistic,
the Brier score decomposition and net benefit at chosen thresholds.
:class:`CalibrationReport` holds the numbers and renders them as a text
table, a dict, JSON or a self-contained HTML page with figures.

Sections undefined for the data are reported as ``None`` with a note
explaining why.
"""

from ._compute import calibration_report
from ._html import reports_to_html
from ._result import CalibrationReport
from ._text import reports_table
from ._tripod import TripodReport, tripod_report

__all__ = [
    "CalibrationReport",
    "TripodReport",
    "calibration_report",
    "reports_table",
    "reports_to_html",
    "tripod_report",
]
