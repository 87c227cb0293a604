"""Held-out reproducers of the calibration audit and the validation study
(issues 13, 26, 27 and 24): inputs the issues did not show, each of which gave a
silent wrong number, a stray exception or an unclear message before its fix."""

from __future__ import annotations

import io
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from skbrier.metrics import calibration_by_group
from skbrier.report import calibration_report
from skbrier.stats import pool_rubin


def _data(n=80, seed=1):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    g = rng.choice(["a", "b", "c"], n)
    return y, p, g


# --------------------------------------------------------------------------
# groups given as an object column with NaN (pandas' missing value of a
# string column): the message counts them and says what to do, as for None
# --------------------------------------------------------------------------


@pytest.mark.parametrize("missing", [np.nan, float("nan")])
def test_object_groups_with_nan_say_how_many_and_where(missing):
    y, p, g = _data()
    groups = g.astype(object)
    groups[[3, 7]] = missing
    with pytest.raises(ValueError) as exc:
        calibration_by_group(y, p, groups=groups)
    msg = str(exc.value)
    assert msg.startswith("groups contains NaN")
    assert "2 of 80" in msg and "index 3" in msg and "Drop those rows" in msg


def test_report_groups_and_segments_with_nan_say_how_many():
    y, p, g = _data()
    col = pd.Series(g).where(np.arange(80) != 5)  # object column, NaN at row 5
    with pytest.raises(ValueError, match=r"groups contains NaN: 1 of 80 .*index 5"):
        calibration_report(y, p, groups=col.to_numpy())
    with pytest.raises(ValueError, match=r"segments\['s'\] contains NaN: 1 of 80"):
        calibration_report(y, p, segments=pd.DataFrame({"s": col}))


# --------------------------------------------------------------------------
# pool_rubin: dfcom = inf is mice's default (pool.scalar's n = Inf), and a
# numpy integer is a number
# --------------------------------------------------------------------------


def test_pool_rubin_infinite_dfcom_is_the_large_sample_rule():
    q, u = [0.5, 0.6, 0.5], [0.01, 0.01, 0.02]
    ref = pool_rubin(q, u)
    res = pool_rubin(q, u, dfcom=np.inf)
    assert res.df == ref.df
    assert res.confidence_interval() == ref.confidence_interval()
    assert np.isfinite(res.confidence_interval().low)


def test_pool_rubin_numpy_number_dfcom():
    q, u = [0.5, 0.6, 0.5], [0.01, 0.01, 0.02]
    ref = pool_rubin(q, u, dfcom=10)
    for dfcom in (np.int64(10), np.float32(10.0)):
        assert pool_rubin(q, u, dfcom=dfcom).df == pytest.approx(ref.df, rel=1e-12)
    for bad in (True, "10"):
        with pytest.raises(TypeError, match="dfcom"):
            pool_rubin(q, u, dfcom=bad)
    for bad in (0, -3, np.nan):
        with pytest.raises(ValueError, match="dfcom"):
            pool_rubin(q, u, dfcom=bad)


# --------------------------------------------------------------------------
# the report's subgroup section below 3 observations (or below the 10 the
# multicalibration error needs): a note, as every other section of the
# report, not an error that loses the whole report
# --------------------------------------------------------------------------


def test_report_subgroups_of_two_rows_is_a_note():
    rep = calibration_report([0, 1], [0.2, 0.7], groups=["a", "b"])
    plain = calibration_report([0, 1], [0.2, 0.7])
    assert rep.subgroups is None
    assert any(n.startswith("Subgroups not available") for n in rep.notes)
    assert rep.brier_score == plain.brier_score
    rep.summary(), rep.to_json(), rep.to_frame()


def test_report_subgroups_with_tiny_frequency_weights_is_a_note():
    y, p, g = _data()
    w = np.full(80, 1e-300)
    rep = calibration_report(y, p, groups=g, sample_weight=w)
    plain = calibration_report(y, p, sample_weight=w)
    assert rep.subgroups is None
    assert any("Subgroups not available" in n and "8e-299" in n for n in rep.notes)
    assert rep.brier_score == plain.brier_score


def test_report_bad_groups_still_fail_on_a_small_sample():
    with pytest.raises(ValueError, match="groups has 1 labels"):
        calibration_report([0, 1], [0.2, 0.7], groups=["a"])


def test_report_multicalibration_of_a_small_sample_is_a_note():
    y = [0, 1, 1, 0, 1]
    p = [0.2, 0.7, 0.4, 0.5, 0.9]
    rep = calibration_report(
        y, p, groups=["a", "a", "b", "b", "b"], segments={"s": [0, 1, 0, 1, 0]}
    )
    assert rep.subgroups is not None and rep.subgroups.multicalibration is None
    assert any("multicalibration error not available" in n for n in rep.notes)
    rep.summary(), rep.to_json(), rep.to_frame()


# --------------------------------------------------------------------------
# the command line
# --------------------------------------------------------------------------


@pytest.fixture
def run_main(capsys, monkeypatch):
    from skbrier.cli import main

    def _run(*args: str):
        capsys.readouterr()
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err

    return _run


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(7)
    n = 200
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    g = rng.choice(["a", "b", "c"], n)
    w = rng.integers(1, 4, n)
    w[g == "a"] = 0
    d = pd.DataFrame({"y": y, "p": p, "g": g, "w": w})
    path = tmp_path / "t.csv"
    d.to_csv(path, index=False)
    d.head(3).to_csv(tmp_path / "three.csv", index=False)
    return path, d


def test_cli_group_of_zero_weight_is_left_out_as_a_single_class_group(run_main, table):
    path, d = table
    code, out, err = run_main(
        "report",
        str(path),
        "--y-col",
        "y",
        "--p-col",
        "p",
        "--group-col",
        "g",
        "--weight-col",
        "w",
        "--json",
        "--quiet",
    )
    assert code == 0, err
    assert "left out" in err and "(a)" in err and "positive weight" in err
    import json

    names = [r["name"] for r in json.loads(out)["reports"]]
    assert sorted(names) == ["b", "c"]


def test_cli_negative_group_weights_are_still_refused(run_main, table, tmp_path):
    path, d = table
    d = d.assign(w=np.where(d.g == "a", -1, d.w))
    d.to_csv(tmp_path / "neg.csv", index=False)
    code, out, err = run_main(
        "report",
        str(tmp_path / "neg.csv"),
        "--y-col",
        "y",
        "--p-col",
        "p",
        "--group-col",
        "g",
        "--weight-col",
        "w",
        "--quiet",
    )
    assert code == 2 and "non-negative" in err


def test_cli_subgroups_of_three_rows(run_main, table, tmp_path):
    code, out, err = run_main(
        "report",
        str(tmp_path / "three.csv"),
        "--y-col",
        "y",
        "--p-col",
        "p",
        "--subgroup-col",
        "g",
    )
    assert code == 0, err
    assert "Traceback" not in err


# --------------------------------------------------------------------------
# flexible curves: the advice of an error names only what the smoother offers
# --------------------------------------------------------------------------


def test_lowess_curve_without_band_advises_only_the_bootstrap():
    from skbrier.metrics import flexible_calibration_curve

    y, p, _ = _data(200)
    curve = flexible_calibration_curve(y, p, smoother="lowess", band=None)
    with pytest.raises(ValueError) as exc:
        curve.confidence_interval(metric="calibration_curve")
    assert "band='bootstrap'" in str(exc.value) and "analytic" not in str(exc.value)
    loess = flexible_calibration_curve(y, p, band=None)
    with pytest.raises(ValueError, match="band='bootstrap' or band='analytic'"):
        loess.confidence_interval(metric="calibration_curve")


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("20", "got 20 (a percentage? divide by 100)"),
        ("0", "strictly between 0 and 1, got 0."),
        ("nan", "--threshold must be finite"),
    ],
)
def test_cli_threshold_errors_are_the_apis(run_main, table, value, fragment):
    path, _ = table
    code, out, err = run_main(
        "report", str(path), "--y-col", "y", "--p-col", "p", "--threshold", value
    )
    assert code == 2 and fragment in err, err
    assert "Traceback" not in err


def test_cli_thresholds_still_read(run_main, table):
    path, _ = table
    code, out, err = run_main(
        "report",
        str(path),
        "--y-col",
        "y",
        "--p-col",
        "p",
        "--threshold",
        "0.1,0.3",
        "--threshold",
        "0.2",
        "--json",
        "--quiet",
    )
    import json

    assert code == 0, err
    assert [r["threshold"] for r in json.loads(out)["net_benefit"]] == [0.1, 0.2, 0.3]


@pytest.mark.parametrize("transform", ["logit", None])
def test_gam_curve_does_not_depend_on_the_order_of_the_rows(transform):
    # the UBRE score can be flat in the smoothing parameter: sums in another
    # order of the rows moved the chosen one and the curve by up to 2e-4
    from skbrier.metrics import flexible_calibration_curve

    rng = np.random.default_rng(11)
    p = rng.uniform(0.02, 0.98, 500)
    y = (rng.uniform(size=500) < p**1.3).astype(int)
    perm = rng.permutation(500)
    a = flexible_calibration_curve(y, p, smoother="gam", transform=transform)
    b = flexible_calibration_curve(y[perm], p[perm], smoother="gam", transform=transform)
    for field in ("grid", "estimate", "lower", "upper", "standard_error"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    # the ICI and the errors are means over the rows in their order (to 1 ulp)
    assert (a.ici, a.e90, a.emax) == pytest.approx((b.ici, b.e90, b.emax), rel=1e-14)
