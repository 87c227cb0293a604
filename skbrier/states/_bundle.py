"""Several states of the same rows, updated in one pass (validation once)."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from ._base import BinaryState

__all__ = ["StateBundle"]


class StateBundle(BinaryState):
    r"""Several mergeable states of the same rows, updated together.

    :meth:`update` validates a chunk once (probabilities, weights, labels)
    and hands the same rows of each label to every member, so a bundle of
    ``m`` statistics reads and checks the data once instead of ``m`` times;
    :meth:`merge` merges member by member, and :meth:`state` returns one
    member as the state it would be had it been updated alone (equal, sums
    and all).  This is how ``calibration_report`` computes all of its
    mergeable sections of dask input in a single pass.

    Each member keeps its own sums, so the bundle's result is the members'
    results: for a member :math:`s`,

    .. math::

        \mathrm{bundle}(X_1 \cup X_2).\mathrm{state}(s)
        = s(X_1).\mathrm{merge}(s(X_2)).

    Parameters
    ----------
    states : dict of str to BinaryState
        Fresh (not updated) states, all with the same ``pos_label``.
    pos_label : int, float, bool or str, default=None
        The positive class (must equal the members').

    References
    ----------
    .. [1] J. Dean and S. Ghemawat, "MapReduce: simplified data processing
       on large clusters", Communications of the ACM 51, 107-113, 2008.

    Examples
    --------
    >>> from skbrier.states import BrierState, ForecastTable, StateBundle
    >>> make = lambda: StateBundle({"bs": BrierState(), "table": ForecastTable()})
    >>> a = make().update([0, 1, 1], [0.2, 0.7, 0.6])
    >>> b = make().update([0, 1], [0.3, 0.9])
    >>> s = a.merge(b)
    >>> round(s.state("bs").finalize(), 4), s.state("table").c_statistic()
    (0.078, 1.0)
    """

    def __init__(self, states: dict[str, BinaryState], *, pos_label: Any = None) -> None:
        super().__init__(pos_label=pos_label)
        if not isinstance(states, dict) or not states:
            raise TypeError("states must be a non-empty dict of name -> state.")
        for name, s in states.items():
            if not isinstance(s, BinaryState) or isinstance(s, StateBundle):
                raise TypeError(
                    f"states[{name!r}] must be a mergeable state (not a bundle), "
                    f"got {type(s).__name__}."
                )
            if s.n_samples:
                raise ValueError(f"states[{name!r}] has already been updated.")
            if s.pos_label != pos_label:
                raise ValueError(
                    f"states[{name!r}] has pos_label={s.pos_label!r} but the bundle "
                    f"has pos_label={pos_label!r}."
                )
        self.states = dict(states)

    def _column_names(self) -> tuple[str, ...]:
        names = (k for s in self.states.values() for k in s._column_names())
        return tuple(dict.fromkeys(names))

    def _extra(self, n: int, **columns: Any) -> dict:
        out = {}
        for name, s in self.states.items():
            for key, v in s._extra(n, **columns).items():
                out[(name, key)] = v
        return out

    def _shown(self, key: Any) -> str:
        return str(key[1])  # (member, column)

    def _chunk(self, p: np.ndarray, w: np.ndarray | None, extra: dict) -> Any:
        return tuple(
            s._chunk(p, w, {k: v for (m, k), v in extra.items() if m == name})
            for name, s in self.states.items()
        )

    def _add(self, a: Any, b: Any) -> Any:
        return tuple(s._add(x, y) for s, x, y in zip(self.states.values(), a, b))

    def _weight_of(self, sums: Any) -> float:
        first = next(iter(self.states.values()))
        return first._weight_of(sums[0])

    def state(self, name: str) -> BinaryState:
        """The member ``name`` with the rows seen by the bundle."""
        names = list(self.states)
        if name not in names:
            raise ValueError(
                f"name must be a member of the bundle ({', '.join(map(repr, names))}), "
                f"got {name!r}."
            )
        j = names.index(name)
        out = copy.copy(self.states[name])
        out.n_samples = self.n_samples
        out.total_weight = self.total_weight
        out.weighted = self.weighted
        out._label_dtype = self._label_dtype
        out._sums = {label: parts[j] for label, parts in self._sums.items()}
        out._rows = dict(self._rows)
        shown = (out.proba_name, *out._column_names())
        out._hard = {k: v for k, v in self._hard.items() if k in shown}
        return out

    def finalize(self) -> dict[str, BinaryState]:
        """Every member (:meth:`state`), by name."""
        return {name: self.state(name) for name in self.states}
