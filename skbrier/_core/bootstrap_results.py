"""The results holding bootstrap replicates: intervals, bands and ``to_dict`` from them."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from .params import DEFAULT_CONFIDENCE_LEVEL
from .resampling import interval_from_replicates
from .results import ConfidenceInterval, _IntervalResult, to_builtin

__all__: list[str] = []


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class _BootstrapResult(_IntervalResult):
    """Mixin of the results holding bootstrap replicates of their numbers.

    It declares, once for every subclass, the keyword-only fields
    ``n_resamples`` (0: no bootstrap), ``confidence_level`` (the level of
    :attr:`bands` and of the intervals of ``to_dict``) and
    ``bootstrap_replicates`` (a dict of metric name to replicates, None
    without a bootstrap); being keyword-only they follow the subclass's own
    fields in the constructor (and in ``to_dict``).  A subclass names the function that builds it in
    ``_builder`` (for the error without a bootstrap), the metric of its
    pointwise band in ``_band_metric`` (``bands``), and the keys of
    ``to_dict`` that replace the replicates in ``_dict_intervals``
    (key -> metric).

    Examples
    --------
    >>> from skbrier.metrics.selective import risk_coverage_curve
    >>> res = risk_coverage_curve([1, 0, 1, 1], [0.9, 0.8, 0.7, 0.6])
    >>> res.bands is None, res.to_dict()["aurc_interval"] is None
    (True, True)
    """

    _: dataclasses.KW_ONLY
    n_resamples: int = 0
    confidence_level: float = DEFAULT_CONFIDENCE_LEVEL
    bootstrap_replicates: dict[str, np.ndarray] | None = None
    #: the public function that builds the result
    _builder: ClassVar[str] = ""
    #: the metric of :attr:`bands`
    _band_metric: ClassVar[str] = ""

    def _estimate(self, metric: str) -> Any:
        return getattr(self, metric)

    def _dict_intervals(self) -> dict[str, str]:
        raise NotImplementedError

    def _interval(self, metric: str, level: float, method: str) -> ConfidenceInterval:
        if self.bootstrap_replicates is None:
            raise ValueError(f"no bootstrap: call {self._builder} with n_resamples > 0.")
        return interval_from_replicates(
            self.bootstrap_replicates[metric],
            level,
            method=method,
            estimate=self._estimate(metric),
        )

    @property
    def bands(self) -> ConfidenceInterval | None:
        """Pointwise bootstrap band at ``confidence_level`` (None without a bootstrap)."""
        if self.bootstrap_replicates is None:
            return None
        return self.confidence_interval(self.confidence_level, metric=self._band_metric)

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready values, the bootstrap replicates replaced by
        their intervals at ``confidence_level`` (None without a bootstrap)."""
        out = {k: to_builtin(getattr(self, k)) for k in self._fields()}
        del out["bootstrap_replicates"]
        for key, metric in self._dict_intervals().items():
            out[key] = (
                None
                if self.bootstrap_replicates is None
                else to_builtin(
                    self.confidence_interval(self.confidence_level, metric=metric)
                )
            )
        return out
