"""The subgroup speed-up (issue 26) keeps every number: the lowess knots
to 1e-12 (exactly on the CPU that made them), the per-group fits to 1e-10 (fixtures made by the code it replaced,
``tests/fixtures/make_subgroup_speed_fixtures.py``)."""

from __future__ import annotations

import importlib.util
import json
import pathlib

import numpy as np
import pytest

from skbrier._core.kernels.lowess import lowess_knots
from skbrier.metrics import calibration_by_group

HERE = pathlib.Path(__file__).parent / "fixtures"
FIXTURES = json.loads((HERE / "subgroup_speed_fixtures.json").read_text())


def _data_sets() -> dict:
    spec = importlib.util.spec_from_file_location(
        "make_subgroup_speed_fixtures", HERE / "make_subgroup_speed_fixtures.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.data_sets()


DATA = _data_sets()


def _floats(values: list[str]) -> np.ndarray:
    return np.array([float.fromhex(v) for v in values])


def _counting(monkeypatch, module, name, *also, record=lambda *a, **k: 1):
    """Replace ``module.name`` (and the same name in ``also``) by a wrapper
    that appends ``record(*args, **kwargs)`` to the returned list per call."""
    calls: list = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(record(*args, **kwargs))
        return real(*args, **kwargs)

    for where in (module, *also):
        monkeypatch.setattr(where, name, wrapper)
    return calls


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_lowess_knots_are_unchanged(name):
    y, p, g, _ = DATA[name]
    for j, label in enumerate(np.unique(g)):
        m = g == label
        kx, ky = lowess_knots(p[m], y[m])
        want = FIXTURES[name]["knots"][str(j)]
        # to the last digits: the fixtures were made on another CPU, and
        # numpy's SIMD sums round in another order on another instruction set
        np.testing.assert_allclose(kx, _floats(want["x"]), rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(ky, _floats(want["y"]), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_calibration_by_group_is_unchanged(name):
    y, p, g, w = DATA[name]
    res = calibration_by_group(y, p, groups=g, sample_weight=w)
    want = FIXTURES[name]
    for part in ("estimates", "variances", "pvalues"):
        got = getattr(res, part)
        assert sorted(got) == sorted(want[part])
        for key, values in want[part].items():
            if w is not None and key == "ici":
                # the fixtures hold the old NaN; integer weights now give the
                # ici of the repeated rows
                r = np.repeat(np.arange(len(y)), w.astype(int))
                rep = calibration_by_group(y[r], p[r], groups=g[r])
                np.testing.assert_allclose(got[key], rep.estimates["ici"], rtol=1e-10)
                continue
            np.testing.assert_allclose(
                got[key], _floats(values), rtol=1e-10, atol=0, err_msg=f"{part} {key}"
            )
    if w is None:
        ici = _floats(want["estimates"]["ici"])
        np.testing.assert_allclose(res.estimates["ici"], ici, rtol=1e-12, atol=1e-15)


def test_the_section_runs_the_cumulative_test_once(monkeypatch):
    """The subgroup section takes the whole sample's cumulative tests from
    calibration_by_group's own call (one sort and one curve, not two)."""
    import skbrier.metrics
    import skbrier.metrics.subgroups as sg
    from skbrier.report._numbers import _Notes
    from skbrier.report._subgroups import subgroup_section

    # with the groups' codes
    calls = _counting(monkeypatch, sg, "_cumulative", record=lambda *a: a[4] is not None)

    def public(*args, **kwargs):
        calls.append("public")
        return skbrier.metrics.cumulative.cumulative_calibration(*args, **kwargs)

    monkeypatch.setattr(skbrier.metrics, "cumulative_calibration", public)
    y, p, g, _ = DATA["small"]
    sec = subgroup_section(y, p, None, g, None, 0.95, _Notes())
    assert calls == [True]
    whole = skbrier.metrics.cumulative_calibration(y, p)
    assert sec.cumulative is sec.by_group.cumulative
    for key in ("ks", "kuiper", "ks_pvalue", "kuiper_pvalue"):
        assert getattr(sec.cumulative, key) == pytest.approx(getattr(whole, key), rel=1e-12)


def test_the_joint_fit_starts_from_calibration_in_the_large(monkeypatch):
    """With moderate log-odds the joint logistic fit starts from the
    calibration-in-the-large fit: fewer passes over the rows than from the
    base rate (the start beyond |logit p| = 30), the same fit to 1e-10."""
    from skbrier._core.kernels import logistic
    from skbrier.metrics.calibration import _logistic_calibration

    passes = _counting(monkeypatch, logistic, "newton_rows")
    y, p, g, _ = DATA["distinct"]
    warm = logistic._WARM_START_MAX_LOGIT
    for label in range(7):
        m = g == label
        counts, fits = [], []
        for limit in (warm, -1.0):
            monkeypatch.setattr(logistic, "_WARM_START_MAX_LOGIT", limit)
            passes.clear()
            fits.append(_logistic_calibration(y[m], p[m], None))
            counts.append(len(passes))
        assert counts[0] < counts[1]
        assert fits[0].slope == pytest.approx(fits[1].slope, rel=1e-10)
        assert fits[0].intercept == pytest.approx(fits[1].intercept, rel=1e-10)
        assert fits[0].slope_stderr == pytest.approx(fits[1].slope_stderr, rel=1e-10)


# -- the second round (issue 26: the grouped report within 2x the ungrouped) --


def test_group_brier_is_brier_inference_without_its_design(monkeypatch):
    """The per-group (per-centre) Brier score and its variance are
    brier_inference's (to 1e-12), its errors too, without running it (its
    two-column design cost ~2 ms a group, a hundred times the arithmetic)."""
    import skbrier.stats._validation_measures as vm
    import skbrier.stats.inference as inference

    def boom(*args, **kwargs):
        raise AssertionError("brier_inference runs per group")

    y, p, g, w = DATA["weighted"]
    want = {}
    for label in range(3):
        m = g == label
        bs = inference.brier_inference(y[m], p[m], sample_weight=w[m])
        want[label] = (bs.brier_score, bs.standard_error() ** 2)
    monkeypatch.setattr(inference, "brier_inference", boom)
    monkeypatch.setattr(vm, "brier_inference", boom, raising=False)
    res = calibration_by_group(y, p, groups=g, sample_weight=w)
    for label, (bs, var) in want.items():
        assert res.estimates["brier_score"][label] == pytest.approx(bs, rel=1e-12)
        assert res.variances["brier_score"][label] == pytest.approx(var, rel=1e-12)


@pytest.mark.parametrize(
    "y, p, w",
    [
        ([0.0, 1.0], [0.2, 0.7], None),  # fewer than 3 observations
        ([0.0, 1.0, 1.0], [0.2, 0.7, 0.4], [1.0, 0.5, 0.5]),  # a total weight of 2
        ([1.0, 1.0, 1.0], [0.2, 0.7, 0.4], None),  # a single class
    ],
)
def test_group_brier_raises_what_brier_inference_raises(y, p, w):
    from skbrier.stats._validation_measures import _brier
    from skbrier.stats.inference import brier_inference

    y, p = np.array(y), np.array(p)
    w = None if w is None else np.array(w)
    with pytest.raises(ValueError) as want:
        brier_inference(y, p, sample_weight=w)
    with pytest.raises(ValueError) as got:
        _brier(y, p, w)
    assert str(got.value) == str(want.value)


def test_group_brier_of_constant_losses_has_variance_zero():
    # brier_inference refuses constant losses (no interval); a part of the
    # per-group and per-centre measures gets the variance 0 instead and is
    # left out of the pooling (not poolable), as its C statistic
    from skbrier.stats._validation_measures import _brier
    from skbrier.stats.inference import brier_inference

    y, p = np.array([0.0, 1.0, 0.0, 1.0]), np.full(4, 0.5)
    with pytest.raises(ValueError, match="losses are constant"):
        brier_inference(y, p)
    assert _brier(y, p, None) == (0.25, 0.0)


def test_sorted_rows_are_not_sorted_again():
    """Rows already sorted by forecast (as the report passes them) are
    neither sorted nor moved by the cumulative tests; the numbers equal
    those of the shuffled rows."""
    from skbrier._core.kernels.cumulative import by_forecast
    from skbrier.metrics import cumulative_calibration, multicalibration_error

    y, p, g, _ = DATA["distinct_sorted"]
    ps, ys, ws, gs = by_forecast(p, y, None, g)
    assert ps is p and ys is y and ws is None and gs is g
    shuffled = np.random.default_rng(1).permutation(p.shape[0])
    for res in (
        cumulative_calibration(y, p, groups=g),
        cumulative_calibration(y[shuffled], p[shuffled], groups=g[shuffled]),
    ):
        np.testing.assert_allclose(
            res.by_group["kuiper"],
            cumulative_calibration(y, p, groups=g).by_group["kuiper"],
            rtol=1e-12,
        )
    a = multicalibration_error(y, p, segments={"g": g, "h": g % 2})
    b = multicalibration_error(
        y[shuffled], p[shuffled], segments={"g": g[shuffled], "h": g[shuffled] % 2}
    )
    np.testing.assert_allclose(a.by_segment["ecce"], b.by_segment["ecce"], rtol=1e-12)


@pytest.mark.parametrize("name", ["distinct", "tied"])
def test_part_extremes_of_distinct_forecasts_read_every_row(name):
    """``ps=None`` (no ties) gives the extremes of the curves read after
    each run of ties, bit for bit; a tie check decides which is used."""
    from skbrier._core.kernels.cumulative import order_by_part, part_extremes

    y, p, g, _ = DATA[name]
    o = np.argsort(p, kind="stable")
    ps, d = p[o], (y - p)[o]
    codes = np.unique(g, return_inverse=True)[1].reshape(-1)[o]
    k = int(codes.max()) + 1
    perm = order_by_part(codes, k)
    starts = np.r_[0, np.cumsum(np.bincount(codes, minlength=k))[:-1]]
    lo, hi = part_extremes(ps[perm], d[perm], starts)
    if name == "distinct":
        lo2, hi2 = part_extremes(None, d[perm], starts)
        np.testing.assert_array_equal(lo, lo2)
        np.testing.assert_array_equal(hi, hi2)
    for j in range(k):  # each part alone: its own curve, read after its ties
        m = perm[starts[j] : starts[j + 1] if j + 1 < k else None]
        cs = np.cumsum(d[m])
        last = np.r_[ps[m][1:] != ps[m][:-1], True]
        assert lo[j] == pytest.approx(cs[last].min(), rel=1e-9, abs=1e-9)
        assert hi[j] == pytest.approx(cs[last].max(), rel=1e-9, abs=1e-9)


def test_the_groups_are_sorted_once(monkeypatch):
    """calibration_by_group on rows sorted by forecast sorts the group codes
    once: the cumulative tests per group take its order."""
    import skbrier._core.kernels.cumulative as kc
    import skbrier.metrics.subgroups as sg

    calls = _counting(monkeypatch, kc, "order_by_part", sg)
    y, p, g, _ = DATA["distinct_sorted"]
    res = calibration_by_group(y, p, groups=g)
    assert len(calls) == 1
    alone = skbrier_cumulative(y, p, g)
    np.testing.assert_array_equal(res.pvalues["cumulative"], alone)


def skbrier_cumulative(y, p, g):
    from skbrier.metrics import cumulative_calibration

    return cumulative_calibration(y, p, groups=g).by_group["kuiper_pvalue"]


def test_the_report_sorts_and_moves_the_rows_once(monkeypatch):
    """The report with groups hands the rows sorted by forecast to the
    subgroup section and to the lowess curve and C statistic alike."""
    import skbrier.report._compute as compute
    import skbrier.report._subgroups as subgroups

    seen = {}
    real_section, real_numbers = subgroups.subgroup_section, compute._calibration_numbers

    def section(*args, **kwargs):
        seen["section"] = args[8]
        return real_section(*args, **kwargs)

    def numbers(*args, **kwargs):
        seen["numbers"] = args[8]
        return real_numbers(*args, **kwargs)

    monkeypatch.setattr(subgroups, "subgroup_section", section)
    monkeypatch.setattr(compute, "_calibration_numbers", numbers)
    y, p, g, _ = DATA["small"]
    compute.calibration_report(y, p, groups=g)
    assert seen["section"] is seen["numbers"]
    assert np.all(np.diff(seen["section"][1]) >= 0)


def test_one_block_of_logistic_sums_for_a_group(monkeypatch):
    """A group's rows (up to 32,768) are summed in one block: the sums of
    the blocks of 8,192 to rounding."""
    from skbrier._core.kernels import logistic_sums as logistic

    y, p, _, _ = DATA["distinct"]
    y, lg = y[:20_000], np.log(p[:20_000] / (1 - p[:20_000]))
    one = logistic.logistic_sums(y, lg, None, 0.1, 1.2, 0.3, flag=True)
    monkeypatch.setattr(logistic, "_ONE_BLOCK", 0)
    blocks = logistic.logistic_sums(y, lg, None, 0.1, 1.2, 0.3, flag=True)
    np.testing.assert_allclose(one, blocks, rtol=1e-12, atol=1e-9)


def test_tricube_weights_without_the_absolute_value():
    """The tricube weights of lowess are (1 - |eps|^3)^3 computed as the C
    code does, bit for bit (signed zero and tiny distances included)."""
    from skbrier._core.kernels import lowess

    rng = np.random.default_rng(3)
    x = np.sort(np.r_[rng.uniform(0, 1, 2000), 0.5, 0.5 + 1e-300, 0.5 - 1e-300])
    d = lowess._Sorted(x, memoryview(x), np.zeros_like(x), None)
    for xs, h in ((0.5, 0.3), (0.1, 0.25), (0.9, 0.05), (0.5, 1e-3)):
        win = lowess._window(xs, h)
        eps, w, _ = lowess._tricube(d, 0, x.shape[0], win)
        e = (x - xs) / h
        a = np.abs(e)
        want = 1.0 - a * a * a
        want = want * want * want
        want[np.abs(x - xs) <= win.h1] = 1.0
        want[(x - xs < -win.h9) | (x - xs > win.h9)] = 0.0
        np.testing.assert_array_equal(eps, e)
        np.testing.assert_array_equal(w, want)


def test_the_section_multicalibration_reuses_the_group_tests(monkeypatch):
    """A segmenting column that is the groups takes the per-group cumulative
    tests of calibration_by_group, the whole sample its overall tests (not
    computed again); the result equals multicalibration_error's."""
    import skbrier.metrics.cumulative as cumulative
    from skbrier.metrics import multicalibration_error
    from skbrier.report._numbers import _Notes
    from skbrier.report._subgroups import subgroup_section

    # True: the whole sample
    calls = _counting(
        monkeypatch, cumulative, "_part_tests", record=lambda *a, **k: a[3] is None
    )
    y, p, g, _ = DATA["distinct"]
    segments = {"g": g, "h": g % 2}
    sec = subgroup_section(y, p, None, g, segments, 0.95, _Notes())
    # the groups (cumulative_calibration) and h: not g or the whole sample again
    assert calls == [False, False]
    want = multicalibration_error(y, p, segments=segments)
    got = sec.multicalibration
    assert got.segments == want.segments and got.worst_segment == want.worst_segment
    for key, values in want.by_segment.items():
        np.testing.assert_allclose(got.by_segment[key], values, rtol=1e-12, err_msg=key)
    assert got.mce_sigma == pytest.approx(want.mce_sigma, rel=1e-12)
    # on the rows the section sees (sorted by forecast) bit for bit
    o = np.argsort(p, kind="stable")
    alone = multicalibration_error(y[o], p[o], segments={"g": g[o], "h": g[o] % 2})
    for key, values in alone.by_segment.items():
        np.testing.assert_array_equal(got.by_segment[key], values, err_msg=key)


def test_class_extremes_of_the_moment_pass():
    """The extremes of logit(p) overall and per class (the separation check
    and the brackets of the fits), -inf/+inf for an absent class."""
    from skbrier._core.kernels.logistic import _max_or_ninf, _min_or_inf, moment_rows

    rng = np.random.default_rng(4)
    lg = rng.normal(size=500)
    for y in (rng.uniform(size=500) < 0.3, np.ones(500, bool), np.zeros(500, bool)):
        y = y.astype(float)
        _, m = moment_rows(y, lg, None)
        want = []
        for part in (lg, lg[y == 1], lg[y == 0]):
            want += [part.max(), -part.min()] if part.size else [-np.inf, -np.inf]
        np.testing.assert_array_equal(m, want)
    assert _max_or_ninf(np.empty(0)) == -np.inf and _min_or_inf(np.empty(0)) == np.inf


def test_the_group_fits_skip_the_likelihood_ratio_pass(monkeypatch):
    """The per-group (per-centre) measures need the fits, not val.prob's
    likelihood-ratio statistics: a pass over the rows fewer, the same fits."""
    from skbrier._core.kernels import logistic
    from skbrier.metrics.calibration import _logistic_calibration

    passes = _counting(monkeypatch, logistic, "logistic_sums")
    y, p, g, _ = DATA["distinct"]
    m = g == 2
    full = _logistic_calibration(y[m], p[m], None)
    n_full = len(passes)
    fits = _logistic_calibration(y[m], p[m], None, lr=False)
    assert len(passes) - n_full == n_full - 1
    for name in ("intercept", "slope", "intercept_stderr", "slope_stderr"):
        assert getattr(fits, name) == getattr(full, name)
    assert fits.calibration_in_the_large == full.calibration_in_the_large
    assert np.isnan(fits.lr_chi2) and np.isnan(fits.unreliability_chi2)
