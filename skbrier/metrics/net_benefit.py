"""Net benefit, decision curves and binary tests as probabilities.

Net benefit (Vickers & Elkin, 2006) weighs true positives against false
positives at the exchange rate implied by a threshold probability
:math:`p_t`: treating a patient whose risk is at least :math:`p_t` is worth
it when a missed event is :math:`(1 - p_t) / p_t` times worse than an
unnecessary treatment.  A decision curve plots net benefit against
:math:`p_t`, next to the default strategies "treat all" and "treat none".
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validation import (
    binary_target,
    check_probabilities,
    check_sample_weight,
    check_scalar_probability,
)
from ._net_benefit_math import net_benefit_at

__all__ = ["net_benefit"]


# --------------------------------------------------------------------------- checks
def _check_binary_forecast(
    y_true: Any,
    y_proba: Any,
    sample_weight: Any,
    pos_label: Any,
    *,
    proba_name: str = "y_proba",
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validate one binary forecast; require at least one event."""
    p = check_probabilities(y_proba, name=proba_name)
    if p.ndim != 1:
        raise ValueError(
            f"{proba_name} must be 1-D (the probability of the positive class); got "
            f"shape {p.shape}. For predict_proba output pass predict_proba(X)[:, 1]."
        )
    n = p.shape[0]
    y = binary_target(y_true, pos_label, n)
    w = check_sample_weight(sample_weight, n)
    events = float(np.count_nonzero(y)) if w is None else float(w @ y)
    if not events > 0.0:
        raise ValueError(
            "y_true contains no events (no sample of the positive class"
            + ("" if w is None else " with a positive sample_weight")
            + "): net benefit is undefined."
        )
    return y, p, w


def _check_prevalence(prevalence: Any) -> float | None:
    if prevalence is None:
        return None
    return check_scalar_probability(prevalence, name="prevalence", open_interval=True)


# --------------------------------------------------------------------------- public
def net_benefit(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    threshold: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    prevalence: float | None = None,
) -> float:
    r"""Net benefit of treating the samples whose probability is >= ``threshold``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary outcomes.
    y_proba : array-like of shape (n_samples,)
        Predicted probability of ``pos_label``.  A binary test can be passed
        as 0/1 (positive test = 1) or as
        :func:`binary_test_probabilities`; both give the same net benefit.
    threshold : float
        Threshold probability :math:`p_t`, strictly between 0 and 1.  A
        sample is classified positive ("treat") when
        ``y_proba >= threshold``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The label of events.  If None: 1 for labels in {0, 1} or {-1, 1},
        else the larger numeric label; string labels need it.
    prevalence : float, default=None
        Prevalence of events in the target population, strictly between 0
        and 1, for case-control samples where the sample event rate is set
        by design.  If None, the (weighted) sample event rate is used.

    Returns
    -------
    float
        The net benefit, in "true positives per patient" units: at most the
        prevalence (perfect classification), 0 for treating nobody.

    Raises
    ------
    ValueError
        If ``threshold`` or ``prevalence`` is not strictly between 0 and 1,
        ``y_proba`` holds NaN, infinity or values outside [0, 1],
        ``y_true`` is not binary or contains no events, or the inputs have
        different lengths.

    See Also
    --------
    decision_curve : Net benefit at many thresholds at once.
    skbrier.plotting.decision_curve.DecisionCurveDisplay : Plot decision curves.

    Notes
    -----
    With weights :math:`w_i`, :math:`W = \sum_i w_i`, true positives
    :math:`TP = \sum_i w_i y_i [p_i \ge p_t]` and false positives
    :math:`FP = \sum_i w_i (1 - y_i) [p_i \ge p_t]`,

    .. math::

        \mathrm{NB}(p_t) = \frac{TP}{W} - \frac{FP}{W} \, \frac{p_t}{1 - p_t}.

    With a given prevalence :math:`\pi` the sensitivity and false positive
    rate are reweighted: :math:`\mathrm{NB} = \pi \, \mathrm{TPR} - (1 - \pi)
    \, \mathrm{FPR} \, p_t / (1 - p_t)` (identical to the first formula when
    :math:`\pi` is the sample event rate).  This is the estimator of
    ``dcurves.dca`` (Python) and ``dcurves::dca`` (R).

    References
    ----------
    .. [1] Vickers AJ, Elkin EB. Decision curve analysis: a novel method for
       evaluating prediction models. Med Decis Making 2006;26:565-574.
    .. [2] Assel M, Sjoberg DD, Vickers AJ. The Brier score does not evaluate
       the clinical utility of diagnostic tests or prediction models. Diagn
       Progn Res 2017;1:19.

    Examples
    --------
    A test with sensitivity 95 % and specificity 50 % at prevalence 20 %:

    >>> import numpy as np
    >>> from skbrier.metrics.net_benefit import net_benefit
    >>> y = np.r_[np.ones(20), np.zeros(80)]
    >>> test = np.r_[np.ones(19), np.zeros(1), np.ones(40), np.zeros(40)]
    >>> round(net_benefit(y, test, threshold=0.05), 4)
    0.1689
    """
    t = check_scalar_probability(threshold, name="threshold", open_interval=True)
    prev = _check_prevalence(prevalence)
    y, p, w = _check_binary_forecast(y_true, y_proba, sample_weight, pos_label)
    if prev is not None and (y.shape[0] == np.count_nonzero(y) if w is None
                             else not float(w @ (1.0 - y)) > 0.0):
        raise ValueError(
            "y_true contains no non-events: with prevalence given, the false "
            "positive rate is undefined."
        )
    return float(net_benefit_at(y, p, w, t, prev))
