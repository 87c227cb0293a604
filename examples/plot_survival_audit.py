"""
======================================================
Auditing survival predictions: Brier, IPA, calibration
======================================================

A Cox-type model predicts the risk of an event by a horizon; follow-up is
censored.  This example simulates such data with numpy alone, fits two
models in closed form (a correct one with the biomarker and a
"clinical-only" one without it), and audits their predicted survival on a
held-out set with :mod:`skbrier.survival`:

* the IPCW Brier score, the integrated Brier score and the index of
  prediction accuracy (IPA) with influence-function intervals at several
  horizons (R riskRegression's ``Score`` conventions);
* the paired difference of the two models' Brier scores;
* the calibration at one horizon, observed (Kaplan--Meier within bins of
  predicted risk, and jackknife pseudo-observations) against predicted risk;
* the decision curve at that horizon (dcurves' ``dca(..., time=)``).
"""

import matplotlib.pyplot as plt
import numpy as np

from skbrier.plotting.decision_curve import DecisionCurveDisplay
from skbrier.survival import (
    SurvivalCalibrationDisplay,
    compare_brier_survival,
    decision_curve_survival,
    index_of_prediction_accuracy,
    integrated_brier_score,
)

# %%
# Simulated censored data
# -----------------------
# Exponential event times with hazard :math:`0.1 \exp(0.6 x_1 + 0.9 x_2)`,
# independent exponential censoring and administrative censoring at 10.

rng = np.random.default_rng(0)
n = 4000
x1 = rng.normal(size=n)  # clinical score
x2 = rng.normal(size=n)  # biomarker
hazard = 0.1 * np.exp(0.6 * x1 + 0.9 * x2)
t_event = rng.exponential(1.0 / hazard)
t_cens = np.minimum(rng.exponential(12.0, n), 10.0)
time = np.minimum(t_event, t_cens)
event = (t_event <= t_cens).astype(int)
train, test = np.arange(n) < n // 2, np.arange(n) >= n // 2
print(f"events: {event.mean():.0%}, censored: {1 - event.mean():.0%}")

# %%
# Two exponential proportional-hazards models
# -------------------------------------------
# The "full" model uses the true linear predictor; the "clinical" model keeps
# only :math:`x_1`.  Each baseline rate is the maximum-likelihood estimate
# (events / total exposure, weighted by the linear predictor) on the
# training half.


def fit_rate(lp):
    return event[train].sum() / (time[train] * np.exp(lp[train])).sum()


lp_full = 0.6 * x1 + 0.9 * x2
lp_clin = 0.6 * x1
rate_full, rate_clin = fit_rate(lp_full), fit_rate(lp_clin)
times = np.array([1.0, 2.0, 3.0, 5.0, 7.0])


def survival(rate, lp, t):
    return np.exp(-rate * np.exp(lp[test])[:, None] * np.atleast_1d(t)[None, :])


surv_full = survival(rate_full, lp_full, times)
surv_clin = survival(rate_clin, lp_clin, times)
ev, tt = event[test], time[test]

# %%
# Brier score, IPA and integrated Brier score
# --------------------------------------------
# ``index_of_prediction_accuracy`` returns the Brier score of the model and
# of the null model (the marginal Kaplan--Meier curve), the IPA and their
# influence-function standard errors.

for name, surv in [("full", surv_full), ("clinical", surv_clin)]:
    res = index_of_prediction_accuracy(ev, tt, surv, times)
    bs_ci = res.confidence_interval(0.95, metric="brier_score")
    ipa_ci = res.confidence_interval(0.95, metric="ipa")
    ibs = integrated_brier_score(ev, tt, surv, times)
    print(f"\n{name} model (IBS over [1, 7]: {ibs:.4f})")
    print(f"{'t':>4}{'Brier':>9}{'95% CI':>20}{'IPA':>8}{'95% CI':>20}")
    for k, t in enumerate(times):
        print(
            f"{t:>4g}{res.brier[k]:>9.4f}   [{bs_ci.low[k]:.4f}, {bs_ci.high[k]:.4f}]"
            f"{res.ipa[k]:>8.3f}   [{ipa_ci.low[k]:.3f}, {ipa_ci.high[k]:.3f}]"
        )

# %%
# Paired comparison: ``difference`` is clinical minus full (first minus second,
# as in ``compare_brier``), so a positive difference favours the full model.

cmp = compare_brier_survival(ev, tt, surv_clin, surv_full, times)
lo, hi = cmp.confidence_interval(0.95)
print(f"{'t':>4}{'diff.':>9}{'95% CI':>22}{'p':>10}")
for k, t in enumerate(times):
    print(
        f"{t:>4g}{cmp.difference[k]:>9.4f}   [{lo[k]:.4f}, {hi[k]:.4f}]"
        f"{cmp.p_value[k]:>10.2g}"
    )

# %%
# Calibration at 5 years
# ----------------------
# Observed risk by Kaplan--Meier within deciles of predicted risk (left) and
# by mean jackknife pseudo-observations (right), with 95 % limits.  The
# clinical model cannot reach the high risks that the biomarker reveals.

horizon = 5.0
k = int(np.flatnonzero(times == horizon)[0])
models = {"full": surv_full[:, k], "clinical": surv_clin[:, k]}
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
deciles = {"n_bins": 10, "strategy": "quantile"}
SurvivalCalibrationDisplay.from_predictions(ev, tt, models, horizon, **deciles, ax=axes[0])
axes[0].set_title("Kaplan-Meier within bins")
SurvivalCalibrationDisplay.from_predictions(
    ev, tt, models, horizon, **deciles, censoring_method="pseudo", ax=axes[1]
)
axes[1].set_title("Pseudo-observations")
fig.tight_layout()

# %%
# Decision curve at 5 years
# -------------------------

dc = decision_curve_survival(ev, tt, models, horizon, thresholds=np.arange(0.02, 0.8, 0.01))
DecisionCurveDisplay.from_result(dc)
plt.show()
