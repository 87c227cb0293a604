"""
================================================================
Why is the Brier score what it is? Reliability diagrams and CORP
================================================================

A Brier score mixes three things: how **miscalibrated** the forecasts are
(MCB), how well they **discriminate** events from non-events (DSC), and how
**uncertain** the outcome is in the first place (UNC):

.. math::

    \\mathrm{BS} = \\mathrm{MCB} - \\mathrm{DSC} + \\mathrm{UNC}.

:class:`~skbrier.decomposition.BrierDecomposition` computes the split with the
CORP method of Dimitriadis, Gneiting and Jordan (2021): the forecasts are
recalibrated by isotonic regression (no bins to choose), MCB is what the
recalibration gains, DSC what the recalibrated forecasts gain over the base
rate.  Its :meth:`~skbrier.decomposition.BrierDecomposition.plot` draws the
CORP reliability diagram with a consistency band: where the curve leaves the
band, the miscalibration is more than sampling noise.

We compare three classifiers on the same data, then show the binned
(Murphy) decomposition computed chunk by chunk on a million forecasts.
"""

# %%
# Three classifiers, one test set
# -------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from skbrier.decomposition import BrierDecomposition

X, y = make_classification(
    n_samples=6000,
    n_features=20,
    n_informative=4,
    n_redundant=8,
    class_sep=0.7,
    random_state=0,
)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
models = {
    "logistic regression": LogisticRegression(max_iter=1000),
    "naive Bayes": GaussianNB(),
    "random forest": RandomForestClassifier(
        n_estimators=100, min_samples_leaf=5, n_jobs=1, random_state=0
    ),
}
decompositions = {}
for name, model in models.items():
    model.fit(X_train, y_train)
    decompositions[name] = BrierDecomposition.from_estimator(
        model, X_test, y_test, n_resamples=200, random_state=0
    )
    print(name)
    print(decompositions[name].summary())
    print()

# %%
# The three models show the three ways a Brier score can be what it is.  The
# logistic regression is calibrated (MCB close to 0, calibration test
# p-value large) but discriminates poorly on these non-linear data.  Naive
# Bayes discriminates better but is over-confident: its forecasts are pushed
# towards 0 and 1 (the feature-independence assumption double counts the
# redundant features), which MCB charges for.  The random forest
# discriminates best; its forecasts are slightly under-confident (the
# recalibrated curve is steeper than the diagonal), a small but significant
# MCB.  UNC is the same for all three: it only depends on the outcomes.

# %%
# CORP reliability diagrams
# -------------------------
# Each panel shows the isotonic recalibration curve, the 95 % consistency
# band around the diagonal and, in a strip under the diagram, the histogram
# of the forecasts.  Nothing is drawn over the data: on a given ``ax`` the
# components are left out (``plot()`` without ``ax`` puts them in a panel
# beside the diagram, or pass ``components_ax=``).
fig, axes = plt.subplots(1, 3, figsize=(15, 5.2), layout="constrained")
for ax, (name, dec) in zip(axes, decompositions.items()):
    dec.plot(ax=ax, name=name)
    ax.set_title(f"{name}: BS {dec.brier_score_:.4f}, Brier Index {dec.brier_index_:.1f}")

# %%
# scikit-learn's calibration curve, with intervals
# -------------------------------------------------
# The binned diagram (``decomposition_method="murphy"``) shows the points of
# :func:`sklearn.calibration.calibration_curve` to the last bit, by default
# with the binning scikit-learn 1.12 adopts (``n_bins="cube_root"``,
# ``strategy="quantile"``: 15 bins of 200 forecasts here), and adds what
# :class:`~sklearn.calibration.CalibrationDisplay` lacks: several models on
# one diagram, per-bin Wilson or Clopper-Pearson intervals, and sample weights.
from sklearn.calibration import calibration_curve

from skbrier.plotting.reliability import ReliabilityDisplay

forecasts = {name: m.predict_proba(X_test)[:, 1] for name, m in models.items()}
disp = ReliabilityDisplay.from_predictions(
    y_test, forecasts, decomposition_method="murphy", interval="clopper_pearson"
)
prob_true, prob_pred = calibration_curve(
    y_test, forecasts["naive Bayes"], n_bins=15, strategy="quantile"
)
print("same points as scikit-learn:", bool((disp.lines_[1].get_ydata() == prob_true).all()))

# %%
# The components as a table
# -------------------------
# ``to_frame()`` gives the components with their bootstrap intervals (pandas).
import pandas as pd

table = pd.concat(
    {name: dec.to_frame() for name, dec in decompositions.items()}, names=["model"]
).droplevel(1)
print(
    table[
        [
            "brier_score",
            "miscalibration",
            "miscalibration_low",
            "miscalibration_high",
            "discrimination",
            "uncertainty",
        ]
    ].round(4)
)

# %%
# A million forecasts, chunk by chunk
# -----------------------------------
# The binned decomposition only needs per-bin sums, so chunks can be
# processed one at a time (or on different dask workers, see the Notes of
# :class:`~skbrier.decomposition.BrierDecomposition`) and merged exactly.
# With the within-bin terms of Stephenson, Coelho and Jolliffe (2008) it is
# exact too: REL - RES + UNC + WBV - WBC is the Brier score.
rng = np.random.default_rng(1)
n = 1_000_000
p_all = rng.beta(2, 5, size=n)
y_all = (rng.uniform(size=n) < np.clip(1.25 * p_all - 0.02, 0, 1)).astype(np.int8)

chunked = BrierDecomposition("murphy", n_bins=20)
for start in range(0, n, 200_000):
    stop = start + 200_000
    chunked.partial_fit(y_all[start:stop], p_all[start:stop])
one_shot = BrierDecomposition("murphy", n_bins=20).fit(y_all, p_all)
print(chunked.summary())
print(
    "largest difference to the one-shot fit:",
    max(
        abs(getattr(chunked, a) - getattr(one_shot, a))
        for a in (
            "brier_score_",
            "miscalibration_",
            "discrimination_",
            "uncertainty_",
            "within_bin_variance_",
            "within_bin_covariance_",
        )
    ),
)

chunked.plot(name="1e6 forecasts, 5 chunks")
plt.show()
