"""
=================================
Coming from dcurves: the same DCA
=================================

`dcurves <https://github.com/ddsjoberg/dcurves>`_ (Python port of the R
package ``dcurves`` by Sjoberg, Vickers and colleagues) computes decision
curves from a DataFrame: ``dca(data=df, outcome="y", modelnames=[...])``.
:func:`skbrier.decision_curve` takes the outcome and the forecasts as arrays
(a dict or a DataFrame of forecasts for several models), in scikit-learn's
``(y_true, y_proba)`` order, and :meth:`~skbrier.results.DecisionCurveResult.to_frame`
returns dcurves' columns with dcurves' names and scales, then skbrier's own.

This example runs both on the bundled forecasts, checks that every shared
column agrees, and draws the net-interventions-avoided curve on dcurves'
per-patient scale.  The net benefit of a model treating those with
:math:`p_i \\ge p_t` is

.. math::

    \\mathrm{NB}(p_t) = \\frac{\\mathrm{TP}}{n} - \\frac{\\mathrm{FP}}{n}
    \\frac{p_t}{1 - p_t},

and the net interventions avoided per patient compared with treating
everyone are :math:`(\\mathrm{NB} - \\mathrm{NB}_\\text{all})(1 - p_t)/p_t`.
"""

# %%
# The data: two models' forecasts of a binary outcome
# ---------------------------------------------------
import numpy as np
import pandas as pd

from skbrier import DecisionCurveDisplay, decision_curve
from skbrier.datasets import load_forecasts

data = load_forecasts()
df = pd.DataFrame({"y": data["y"], "a": data["model_a"], "b": data["model_b"]})
thresholds = np.arange(0, 100) / 100  # from 0, as dcurves allows

# %%
# dcurves and skbrier, side by side
# ---------------------------------
# dcurves::
#
#     dcurves.dca(data=df, outcome="y", modelnames=["a", "b"],
#                 thresholds=thresholds, harm={"a": 0.0, "b": 0.01})
#
# skbrier (the forecasts as a DataFrame or a dict; harm per model by name):
res = decision_curve(
    df["y"], df[["a", "b"]], thresholds=thresholds, harm={"a": 0.0, "b": 0.01}
)
ours = res.to_frame()
print(ours.columns.tolist())

# %%
# The same numbers
# ----------------
# Where dcurves is installed, compare every column the two tables share.
# (dcurves moves forecasts of exactly 0 to a tiny negative number, so at
# threshold 0 it leaves them untreated; there are none here.)
shared = [
    "n",
    "prevalence",
    "harm",
    "test_pos_rate",
    "tp_rate",
    "fp_rate",
    "net_benefit",
    "net_intervention_avoided",
]
try:
    import warnings

    import dcurves
except ImportError:
    print("dcurves is not installed: skipping the comparison")
else:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dcurves' pandas FutureWarnings
        theirs = dcurves.dca(
            data=df,
            outcome="y",
            modelnames=["a", "b"],
            thresholds=thresholds,
            harm={"a": 0.0, "b": 0.01},
        )
    theirs = theirs[theirs["model"].isin(["a", "b"])].reset_index(drop=True)
    ours_ab = ours[ours["model"].isin(["a", "b"])].reset_index(drop=True)
    for col in shared:
        a, b = ours_ab[col].to_numpy(float), theirs[col].to_numpy(float)
        # at threshold 0 both give an undefined net_intervention_avoided
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True)
        finite = np.isfinite(a) & np.isfinite(b)
        diff = np.abs(a[finite] - b[finite]).max()
        print(f"{col:>25}: largest difference {diff:.1e}")

# %%
# The other options (``prevalence`` for case-control data, ``nper``, the
# plots) are in the migration table of the user guide,
# :ref:`dcurves-migration`.

# %%
# Net interventions avoided
# -------------------------
# ``per=1`` gives dcurves' per-patient scale (the default, ``per=100``, counts
# per 100 patients).  Thresholds below 5 % are left out: the curve divides by
# :math:`p_t` and is dominated by noise there.
import matplotlib.pyplot as plt

keep = thresholds >= 0.05
res_plot = decision_curve(
    df["y"], df[["a", "b"]], thresholds=thresholds[keep], harm={"a": 0.0, "b": 0.01}
)
fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(10, 4))
DecisionCurveDisplay.from_result(res_plot, ax=ax0)
ax0.set_title("Net benefit")
disp = DecisionCurveDisplay.from_result(
    res_plot, ax=ax1, curve="net_intervention_avoided", per=1
)
ax1.set_title("Net interventions avoided per patient")
fig.tight_layout()

plt.show()
