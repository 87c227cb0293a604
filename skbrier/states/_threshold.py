"""Threshold-grid weights: net benefit and decision curves."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.kernels.net_benefit import (
    ClassShares,
    _below_and_above,
    net_benefit_from_weights,
    shares_from_weights,
)
from .._core.validation import _as_array, check_probabilities
from ..metrics._decision_curve import check_events, check_nonevents
from ._base import BinaryState

__all__ = ["ThresholdState"]


class ThresholdState(BinaryState):
    r"""Mergeable weights below and at or above a grid of thresholds.

    Keeps, per label of ``y_true`` and per model, the weight (or count) of the
    rows with :math:`p < p_t` and with :math:`p \ge p_t` for every threshold
    :math:`p_t`; in :meth:`shares` the positive label's sums are the false
    negatives and true positives, the other label's the true negatives and
    false positives, turned into shares of the population by the in-memory
    formula (:func:`~skbrier._core.kernels.net_benefit.shares_from_weights`),
    so that

    .. math::

        \mathrm{NB}(p_t) = \frac{TP}{W} - \frac{FP}{W}\,\frac{p_t}{1 - p_t}.

    Parameters
    ----------
    thresholds : ndarray of shape (n_thresholds,)
        Validated thresholds in [0, 1).
    models : sequence of str, default=("model",)
        Model names: the first model's probabilities are ``y_proba`` of
        :meth:`update`, the others keyword columns of the same names.
    single : bool, default=True
        Whether the probabilities were given as one array (errors name
        ``y_proba``) or a dict (errors name ``y_proba['name']``).
    pos_label : int, float, bool or str, default=None
        The label of events.

    References
    ----------
    .. [1] A. J. Vickers and E. B. Elkin, "Decision curve analysis: a novel
       method for evaluating prediction models", Medical Decision Making 26,
       565-574, 2006.

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.states import ThresholdState
    >>> t = np.array([0.05, 0.5])
    >>> a = ThresholdState(t).update([1, 0, 0], [0.9, 0.6, 0.1])
    >>> b = ThresholdState(t).update([1, 0], [0.4, 0.02])
    >>> a.merge(b).net_benefit(0).round(4)
    array([0.3789, 0.    ])
    """

    def __init__(
        self,
        thresholds: Any,
        *,
        models: tuple[str, ...] | list[str] = ("model",),
        single: bool = True,
        pos_label: Any = None,
    ) -> None:
        super().__init__(pos_label=pos_label)
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        self.models = tuple(models)
        self.single = single
        self.proba_name = self._name(self.models[0])

    def _name(self, model: str) -> str:
        return "y_proba" if self.single else f"y_proba[{model!r}]"

    def _extra(self, n: int, **columns: Any) -> dict:
        out = {}
        for name in self.models[1:]:
            pname = self._name(name)
            p = check_probabilities(_as_array(columns[name], pname), name=pname)
            if p.ndim != 1 or p.shape[0] != n:
                raise ValueError(
                    f"{pname} has shape {p.shape} but y_true has {n} samples; "
                    "every model needs one probability per sample."
                )
            out[name] = p
        return out

    def _chunk(self, p, w, extra):
        out = np.empty((len(self.models), 2, self.thresholds.shape[0]))
        for j, name in enumerate(self.models):
            q = p if j == 0 else extra[name]
            out[j, 0], out[j, 1] = _below_and_above(q, w, self.thresholds)
        return out

    def _weight_of(self, sums: Any) -> float:
        return float(sums[0, 0, 0] + sums[0, 1, 0])

    def _class_sums(self) -> tuple[np.ndarray, np.ndarray]:
        """``(events, non-events)``: arrays (n_models, 2, T) of weight below /
        at or above each threshold; checks that there are events."""
        zero = np.zeros((len(self.models), 2, self.thresholds.shape[0]))
        ev, ne = zero, zero
        for y01, s in self.encoded():
            if y01 == 1.0:
                ev = s
            else:
                ne = s
        w = 1.0 if self.weighted else None
        check_events(self._weight_of(ev), w)
        return ev, ne

    def _checked(self, prevalence: float | None) -> tuple[np.ndarray, np.ndarray]:
        ev, ne = self._class_sums()
        # with a prevalence the false positive rate needs non-events
        check_nonevents(np.array([0.0]), np.array([self._weight_of(ne)]), prevalence)
        return ev, ne

    def shares(self, model: int = 0, prevalence: float | None = None) -> ClassShares:
        """True/false positives and negatives per patient at every threshold."""
        ev, ne = self._checked(prevalence)
        return shares_from_weights(
            ev[model, 0], ev[model, 1], ne[model, 0], ne[model, 1], prevalence
        )

    def net_benefit(self, model: int = 0, prevalence: float | None = None) -> np.ndarray:
        """Net benefit of a model at every threshold (no harm)."""
        ev, ne = self._checked(prevalence)
        w1, w0 = self._weight_of(ev), self._weight_of(ne)
        return np.array(
            [
                net_benefit_from_weights(
                    ev[model, 1, k], ne[model, 1, k], w1, w0, t, prevalence
                )
                for k, t in enumerate(self.thresholds)
            ]
        )

    def prevalence(self) -> float:
        """The (weighted) sample event rate."""
        ev, ne = self._class_sums()
        w1, w0 = self._weight_of(ev), self._weight_of(ne)
        return float(w1 / (w1 + w0))
