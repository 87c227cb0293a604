"""The counts of the logistic calibration fits, as a mergeable state."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._base import BinaryState

__all__ = ["FitState", "fit_rows"]


def fit_rows(y: Any, p: Any, w: Any, pos: Any, scale: float) -> tuple:
    """The rows of the logistic calibration fits, ``(y01, logit p, w / scale)``
    (``w``: None for unit weights), over the rows the fits keep (``0 < p <
    1``, positive weight) of one chunk; ``pos`` the positive label,
    ``scale`` the largest weight kept (:meth:`FitState.finalize`).

    Examples
    --------
    >>> y01, lg, w = fit_rows([0, 1, 1], [0.5, 1.0, 0.5], None, 1, 1.0)
    >>> y01.tolist(), lg.tolist(), w
    ([0.0, 1.0], [0.0, 0.0], None)
    """
    from scipy import special

    y, p = np.asarray(y), np.asarray(p, dtype=np.float64)
    if y.ndim == 2:  # a single column (the chunk's validation checked it)
        y = y[:, 0]
    if p.ndim == 2:
        p = p[:, 0]
    keep = (p > 0.0) & (p < 1.0)
    if w is not None:
        w = np.asarray(w, dtype=np.float64)
        keep &= w > 0
    y01 = (y[keep] == pos).astype(np.float64)
    return y01, special.logit(p[keep]), None if w is None else w[keep] / scale


class FitState(BinaryState):
    """Per label: ``[rows kept, rows left out (p of 0 or 1), max weight kept]``:
    the counts of the logistic calibration fits (its errors, its weight
    scale), reduced with the other states of a report."""

    def _chunk(self, p, w, extra):
        keep = (p > 0.0) & (p < 1.0)
        if w is None:
            n_excl = p.shape[0] - np.count_nonzero(keep)
            wmax = 1.0 if keep.any() else -math.inf
        else:
            n_excl = np.count_nonzero(~keep & (w != 0))
            keep &= w > 0
            wmax = float(w[keep].max()) if keep.any() else -math.inf
        return np.array([float(np.count_nonzero(keep)), float(n_excl), wmax])

    def _add(self, a, b):
        return np.array([a[0] + b[0], a[1] + b[1], max(a[2], b[2])])

    def finalize(self) -> tuple[Any, int, int, float, bool]:
        """``(positive label, n_used, n_excluded, weight scale, single class)``."""
        pos, used, excl, scale = None, [0.0, 0.0], 0.0, -math.inf
        for y01, (label, s) in zip(
            (v for v, _ in self.encoded()), self._sums.items(), strict=True
        ):
            if y01 == 1.0:
                pos = label
            used[int(y01)] += s[0]
            excl += s[1]
            scale = max(scale, s[2])
        single = (used[0] == 0.0) != (used[1] == 0.0)
        return pos, int(sum(used)), int(excl), scale, single
