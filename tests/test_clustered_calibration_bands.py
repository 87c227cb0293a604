"""ClusteredCalibrationCurve.plot draws its two bands from one table (the
prediction band under the confidence band); what it draws is unchanged."""

import numpy as np
import pytest

from skbrier.stats import clustered_calibration_curve


def test_the_two_bands_keep_their_order_colours_and_labels():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_rgba

    rng = np.random.default_rng(1)
    p = rng.beta(2.0, 3.0, 900)
    res = clustered_calibration_curve(rng.binomial(1, p), p, groups=np.arange(900) % 3)
    ax = res.plot()
    bands = ax.collections[:2]
    assert [b.get_label() for b in bands] == ["95% prediction band", "95% confidence band"]
    assert [tuple(b.get_facecolor()[0]) for b in bands] == [
        to_rgba("#F5C542", 0.35),
        to_rgba("#D4A017", 0.5),
    ]
    assert all(b.get_linewidth()[0] == 0 for b in bands)
    for band, (low, high) in zip(
        bands,
        [(res.prediction_lower, res.prediction_upper), (res.lower, res.upper)],
    ):
        path = band.get_paths()[0].vertices
        assert path[:, 1].min() == pytest.approx(min(low.min(), high.min()))
        assert path[:, 1].max() == pytest.approx(max(low.max(), high.max()))
