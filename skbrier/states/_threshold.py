"""Threshold-grid weights: net benefit and decision curves."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.kernels.net_benefit import (
    ClassShares,
    ThresholdSums,
    net_benefit_finish,
    threshold_reduce,
    threshold_shares,
)
from .._core.params import check_bool
from ..metrics._decision_curve import check_events, check_nonevents, check_prevalence
from ..metrics.net_benefit import _check_curve_thresholds
from ._base import BinaryState
from ._chunks import check_names, forecast_columns

__all__ = ["ThresholdState"]


class ThresholdState(BinaryState):
    r"""Mergeable weights below and at or above a grid of thresholds.

    Keeps, per label of ``y_true`` and per model, the sufficient statistics
    of the one net-benefit kernel
    (:func:`~skbrier._core.kernels.net_benefit.threshold_reduce` in its
    hypotheses form: the weight of the rows with :math:`p < p_t` and with
    :math:`p \ge p_t` for every threshold :math:`p_t`); the positive label's
    sums are the false negatives and true positives, the other label's the
    true negatives and false positives, finished by the in-memory functions
    (:func:`~skbrier._core.kernels.net_benefit.net_benefit_finish`), so that

    .. math::

        \mathrm{NB}(p_t) = \frac{TP}{W} - \frac{FP}{W}\,\frac{p_t}{1 - p_t}.

    Parameters
    ----------
    thresholds : array-like of shape (n_thresholds,)
        Thresholds in [0, 1) (checked as :func:`~skbrier.metrics.net_benefit.decision_curve`
        checks them).
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
        self.thresholds = _check_curve_thresholds(thresholds)
        self.models = check_names(models, "models", empty=False)
        self.single = check_bool(single, "single")
        self.proba_name = self._name(self.models[0])

    # decision_curve and net_benefit take 0/1 forecasts (a binary test) silently
    warns_hard = False

    def _name(self, model: str) -> str:
        return "y_proba" if self.single else f"y_proba[{model!r}]"

    def _shown(self, key: Any) -> str:
        return self._name(key)

    columns_option = "models"

    def _column_names(self) -> tuple[str, ...]:
        return self.models[1:]

    def _extra(self, n: int, **columns: Any) -> dict:
        return forecast_columns(columns, self.models[1:], n, self._name)

    def _chunk(self, p, w, extra):
        # the kernel's hypotheses form of each model: weight below / at or above
        return tuple(
            threshold_reduce(np, None, p if j == 0 else extra[name], w, self.thresholds)
            for j, name in enumerate(self.models)
        )

    def _add(self, a: Any, b: Any) -> Any:
        return tuple(x + y for x, y in zip(a, b))

    def _weight_of(self, sums: Any) -> float:
        return float(sums[0].fn[0] + sums[0].tp[0])

    def sums(self, model: int | str = 0) -> ThresholdSums:
        """The merged :class:`~skbrier._core.kernels.net_benefit.ThresholdSums`
        of a model, each label's with its 0/1 outcome; checks that there are
        events."""
        model = self._model(model)
        total = None
        for y01, s in self.encoded():
            part = s[model].given(y01)
            total = part if total is None else total + part
        assert total is not None  # encoded() raises when there are no rows
        check_events(total.events, 1.0 if self.weighted else None)
        return total

    def _model(self, model: Any) -> int:
        """The position of ``model``: its index in ``models`` or its name."""
        names = self.models
        if isinstance(model, (int, np.integer)) and not isinstance(model, bool):
            if 0 <= model < len(names):
                return int(model)
        elif model in names:
            return names.index(model)
        raise ValueError(
            f"model must be the index (0 to {len(names) - 1}) or the name of one of "
            f"the models {', '.join(map(repr, names))}; got {model!r}."
        )

    def _checked(self, model: Any, prevalence: Any) -> tuple[ThresholdSums, float | None]:
        """The sums of ``model`` and the ``prevalence``, checked as
        ``net_benefit`` checks them."""
        prevalence = check_prevalence(prevalence)
        s = self.sums(model)
        # with a prevalence the false positive rate needs non-events
        check_nonevents(np.array([0.0]), np.array([s.nonevents]), prevalence)
        return s, prevalence

    def shares(self, model: int | str = 0, prevalence: float | None = None) -> ClassShares:
        """True/false positives and negatives per patient at every threshold."""
        return threshold_shares(*self._checked(model, prevalence))

    def net_benefit(
        self, model: int | str = 0, prevalence: float | None = None
    ) -> np.ndarray:
        """Net benefit of a model (its index or name) at every threshold (no harm)."""
        s, prevalence = self._checked(model, prevalence)
        return net_benefit_finish(s, self.thresholds, prevalence)

    def prevalence(self) -> float:
        """The (weighted) sample event rate."""
        s = self.sums()
        return float(s.events / (s.events + s.nonevents))
