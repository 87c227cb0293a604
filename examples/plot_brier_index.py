"""
=========================================
Brier score and Brier Index, side by side
=========================================

The Brier Index, :math:`100 (1 - \\sqrt{BS})`, puts the Brier score on a
0--100 scale where higher is better and 50 is the forecaster who always says
50 %.  This example scores a few forecasters of the bundled data and draws the
transform.
"""

import matplotlib.pyplot as plt
import numpy as np

from skbrier import brier_index, brier_score, brier_skill_score
from skbrier.datasets import load_forecasts

data = load_forecasts()
y = data["y"]
forecasters = {
    "calibrated model": data["model_a"],
    "over-predicting model": data["model_b"],
    "always 50 %": np.full(y.shape, 0.5),
    "base rate": np.full(y.shape, y.mean()),
}
print(f"{'forecaster':<24}{'BS':>8}{'BI':>8}{'BSS':>8}")
for name, p in forecasters.items():
    print(
        f"{name:<24}{brier_score(y, p):>8.4f}{brier_index(y, p):>8.1f}"
        f"{brier_skill_score(y, p):>8.3f}"
    )

# %%
# The transform is monotone, so rankings never change; it is convex, so equal
# Brier-score gains are worth more near perfection.
bs = np.linspace(0, 1, 201)
fig, ax = plt.subplots(figsize=(5, 3.5))
ax.plot(bs, 100 * (1 - np.sqrt(bs)))
ax.axhline(50, color="grey", lw=0.8, ls="--")
ax.set_xlabel("Brier score")
ax.set_ylabel("Brier Index")
ax.set_title("Brier Index = 100 (1 - sqrt(BS))")
fig.tight_layout()
