"""The JSON of several reports has the paired comparison the text and HTML
show (report/_json.comparison_to_dict)."""

from __future__ import annotations

import json

import numpy as np

from skbrier.report import calibration_report
from skbrier.report._compare import paired_comparison
from skbrier.report._json import comparison_to_dict
from skbrier.stats import compare_brier


def test_comparison_section_holds_the_compare_brier_numbers():
    rng = np.random.default_rng(1)
    a = rng.uniform(0.05, 0.95, 300)
    b = np.clip(a + rng.normal(0, 0.1, 300), 0.01, 0.99)
    y = (rng.uniform(size=300) < a).astype(float)
    reps = {
        "a": calibration_report(y, a, thresholds=[0.2, 0.5]),
        "b": calibration_report(y, b, thresholds=[0.2, 0.5]),
    }
    out = comparison_to_dict(paired_comparison(reps))
    text = json.dumps(out, allow_nan=False)  # valid JSON
    assert json.loads(text) == out
    (pair,) = out["pairs"]
    ref = compare_brier(y, a, b)
    assert (pair["first"], pair["second"]) == ("a", "b")
    assert pair["brier_score_difference"]["estimate"] == float(ref.difference)
    assert pair["pvalue"] == float(ref.pvalue)
    lo, hi = pair["brier_score_difference"]["ci"]
    assert lo < pair["brier_score_difference"]["estimate"] < hi
    nb = {r["threshold"]: r["difference"] for r in out["net_benefit"]}
    for t in (0.2, 0.5):
        rows = {n: {r["threshold"]: r["model"] for r in reps[n].net_benefit} for n in reps}
        assert nb[t] == rows["a"][t] - rows["b"][t]
    assert out["reason"] is None
    assert comparison_to_dict(paired_comparison({"a": reps["a"]})) is None
