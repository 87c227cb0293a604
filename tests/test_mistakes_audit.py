"""Common mistakes found by an audit with new inputs (issue 24 items 7, 8, 13).

Several models in one report that cannot be tested pair by pair (identical
forecasts, too few positive weights for an interval) say why instead of
raising; Spiegelhalter's z of forecasts that are all 0, 1/2 or 1 is shown as
n/a with a note; ``compare_forecasts`` names the model at fault and keeps the
table of a model of hard 0/1 forecasts (its logistic calibration is n/a, as in
the report).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from skbrier import brier_score, calibration_report, compare_forecasts
from skbrier.cli import main
from skbrier.exceptions import HardForecastWarning
from skbrier.report import _text, reports_to_html
from skbrier.report._compare import paired_comparison
from skbrier.stats import compare_brier

pd = pytest.importorskip("pandas")


def _data(n=80, seed=11):
    """Outcomes, a calibrated forecast and a noisy one."""
    rng = np.random.default_rng(seed)
    p, u, e = rng.uniform(0.05, 0.95, n), rng.uniform(size=n), rng.normal(0, 0.1, n)
    return (u < p).astype(int), p, np.clip(p + e, 0.01, 0.99)


# --------------------------------------------------------------------------
# the paired comparison of a report: never a stray exception
# --------------------------------------------------------------------------
def test_identical_forecasts_in_a_report_say_why_not(tmp_path, capsys):
    y, p, q = _data()
    reps = {
        "a": calibration_report(y, p, random_state=0),
        "b": calibration_report(y, p.copy(), random_state=0),
        "c": calibration_report(y, q, random_state=0),
    }
    comp = paired_comparison(reps)
    assert comp is not None
    assert [(pc.first, pc.second) for pc in comp.pairs] == [("a", "c"), ("b", "c")]
    assert "a and b" in (comp.reason or "") and "identical" in (comp.reason or "")
    text = _text.comparison_text(reps)
    assert "a and b" in text and "identical" in text
    assert "a and b" in reports_to_html(reps)
    # the command line: two columns with the same forecasts
    f = tmp_path / "dup.csv"
    pd.DataFrame({"y": y, "pa": p, "pc": p}).to_csv(f, index=False)
    args = ["report", str(f), "--y-col", "y", "--p-col", "pa", "--p-col", "pc"]
    assert main([*args, "--random-state", "0"]) == 0
    assert "pa and pc" in capsys.readouterr().out
    assert main([*args, "--random-state", "0", "--json"]) == 0
    comp_json = json.loads(capsys.readouterr().out)["comparison"]
    assert comp_json["pairs"] == [] and "identical" in comp_json["reason"]


@pytest.mark.parametrize("cov", ["iid", "hac"])
def test_too_few_positive_weights_for_the_pair_test_say_why_not(tmp_path, capsys, cov):
    y, p, q = _data(8)
    y[:2] = [0, 1]
    w = np.zeros(8)
    w[:2] = 1.0  # two observations: no interval, no test
    reps = {
        name: calibration_report(y, f, sample_weight=w, cov_type=cov, random_state=0)
        for name, f in (("a", p), ("b", q))
    }
    comp = paired_comparison(reps)
    assert comp is not None and comp.pairs == []
    assert "a and b" in (comp.reason or "") and "sample_weight" in (comp.reason or "")
    f = tmp_path / "tiny.csv"
    pd.DataFrame({"y": y, "pa": p, "pb": q, "w": w}).to_csv(f, index=False)
    args = ["report", str(f), "--y-col", "y", "--p-col", "pa", "--p-col", "pb"]
    assert main([*args, "--weight-col", "w", "--cov", cov]) == 0
    assert "No paired comparison: pa and pb" in capsys.readouterr().out


def test_a_pair_that_cannot_be_tested_beside_one_that_can():
    y, p, q = _data()
    reps = {
        "a": calibration_report(y, p, random_state=0),
        "b": calibration_report(y, q, random_state=0),
        "c": calibration_report(y, q.copy(), random_state=0),
    }
    comp = paired_comparison(reps)
    assert comp is not None and len(comp.pairs) == 2
    direct = compare_brier(y, p, q)
    assert comp.pairs[0].difference == pytest.approx(direct.difference, rel=1e-12)
    assert comp.reason is not None and comp.reason.startswith("1 of 3 pairs")
    assert "b and c" in comp.reason


# --------------------------------------------------------------------------
# Spiegelhalter's z with zero variance: n/a and a note, not "nan"
# --------------------------------------------------------------------------
@pytest.mark.parametrize("values", [(0.0, 1.0), (0.0, 0.5, 1.0)])
def test_spiegelhalter_undefined_is_na_with_a_note(values, tmp_path, capsys):
    rng = np.random.default_rng(4)
    p = rng.choice(values, 50)
    y = (rng.uniform(size=50) < np.clip(p, 0.2, 0.8)).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HardForecastWarning)
        rep = calibration_report(y, p, random_state=0)
    text = str(rep)
    line = next(ln for ln in text.splitlines() if "Spiegelhalter z" in ln)
    assert "nan" not in line and "n/a" in line
    assert any("Spiegelhalter" in n for n in rep.notes)
    f = tmp_path / "h.csv"
    pd.DataFrame({"y": y, "p": p, "q": np.clip(p, 0.1, 0.9)}).to_csv(f, index=False)
    assert main(["report", str(f), "--y-col", "y", "--p-col", "p", "--p-col", "q"]) == 0
    out = capsys.readouterr().out
    assert "nan" not in out and "Note (p): Spiegelhalter z not available" in out


# --------------------------------------------------------------------------
# compare_forecasts: the model at fault is named; hard forecasts are scored
# --------------------------------------------------------------------------
def test_compare_forecasts_names_the_model_in_errors():
    y, p, q = _data()
    bad = p.copy()
    bad[4] = np.nan
    with pytest.raises(ValueError, match=r"y_proba\['b'\] contains NaN: 1 of 80 .* 4\)"):
        compare_forecasts(y, {"a": q, "b": bad})
    frame = pd.DataFrame({"id": np.arange(80) + 100, "a": p, "b": q})
    with pytest.raises(ValueError, match=r"y_proba\['id'\] must contain probabilities"):
        compare_forecasts(y, frame)
    with pytest.raises(ValueError, match=r"y_proba\['a'\] must contain .* percentages"):
        compare_forecasts(y, {"a": p * 100, "b": q})


def test_compare_forecasts_scores_hard_forecasts_with_calibration_na():
    y, p, q = _data()
    hard = (p > 0.5).astype(float)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = compare_forecasts(y, {"hard": hard, "soft": q})
    msgs = [str(w.message) for w in caught]
    assert any("y_proba['hard']: every forecast is exactly 0 or 1" in m for m in msgs)
    v = res.values["hard"]
    assert v["brier_score"] == pytest.approx(np.mean((hard - y) ** 2), rel=1e-12)
    assert np.isnan(v["calibration_slope"]) and np.isnan(v["calibration_intercept"])
    alone = compare_forecasts(y, {"soft": q}).values["soft"]
    assert res.values["soft"] == pytest.approx(alone, nan_ok=True)


# --------------------------------------------------------------------------
# a missing subgroup label: the first position in the rows as given
# --------------------------------------------------------------------------
@pytest.mark.parametrize("as_segments", [False, True])
def test_missing_subgroup_label_names_the_row_as_given(as_segments):
    y, p, _ = _data(100, seed=5)
    g = np.where(np.arange(100) < 5, np.nan, 1.0)  # rows 0-4 (not the smallest p)
    g[50:] = 2.0
    kwargs = {"segments": {"g": g}} if as_segments else {"groups": g}
    name = r"segments\['g'\]" if as_segments else "groups"
    with pytest.raises(
        ValueError, match=name + r" .* 5 of 100 values \(the first at index 0\)"
    ):
        calibration_report(y, p, **kwargs)
    labels = np.array(["a"] * 100, dtype=object)
    labels[37] = None
    with pytest.raises(ValueError, match=r"1 of 100 .*the first at index 37\)"):
        calibration_report(y, p, groups=labels)


# --------------------------------------------------------------------------
# the command line names the column, not the Python parameter
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "frame, extra, expected",
    [
        ({"y": [1, 1, 1], "p": [0.2, 0.5, 0.7]}, [], "column 'y' (--y-col) contains"),
        (
            {"y": [1, 0, 1], "p": [0.2, 0.5, 0.7], "w": [0.0, 0.0, 0.0]},
            ["--weight-col", "w"],
            "column 'w' (--weight-col) sums to zero",
        ),
    ],
)
def test_cli_errors_name_the_column(tmp_path, capsys, frame, extra, expected):
    f = tmp_path / "f.csv"
    pd.DataFrame(frame).to_csv(f, index=False)
    assert main(["report", str(f), "--y-col", "y", "--p-col", "p", *extra]) != 0
    err = capsys.readouterr().err
    assert expected in err and "y_true" not in err and "sample_weight" not in err


def test_dask_dataframe_with_extra_columns_names_them():
    dd = pytest.importorskip("dask.dataframe")
    y, p, _ = _data(200)
    frame = pd.DataFrame({"y": y, "p": p, "site": np.where(y == 1, "a", "b")})
    ddf = dd.from_pandas(frame, npartitions=2)
    with pytest.raises(ValueError, match=r"columns \['p', 'site'\].*y_proba\['p'\]"):
        calibration_report(ddf["y"], ddf[["p", "site"]])


# --------------------------------------------------------------------------
# HAC on a short series with the default options: not an error of hac_kwds
# --------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4])
def test_hac_on_a_short_series_does_not_blame_hac_kwds(n):
    from skbrier.stats import brier_inference

    y, p, q = _data(n + 20, seed=8)
    y, p, q = y[:n], p[:n], q[:n]
    y[:2] = [0, 1]
    for call in (
        lambda: compare_brier(y, p, q, cov_type="hac"),
        lambda: brier_inference(y, p, cov_type="hac"),
    ):
        with pytest.raises(ValueError) as info:
            call()
        msg = str(info.value)
        assert not msg.startswith("hac_kwds"), msg
        assert f"{n} observations" in msg and "cov_type='iid'" in msg
    # an option the user gave is still named as such
    with pytest.raises(ValueError, match=r"^hac_kwds: prewhite=3"):
        compare_brier(y, p, q, cov_type="hac", hac_kwds={"prewhite": 3})


def test_cli_percentages_as_text_say_what_to_do(tmp_path, capsys):
    f = tmp_path / "pct.csv"
    f.write_text("y,p\n1,61.3%\n0,12%\n1,80.5%\n")
    assert main(["report", str(f), "--y-col", "y", "--p-col", "p"]) != 0
    err = capsys.readouterr().err
    assert "'61.3%'" in err and "strip the '%'" in err and "--percent" in err


# --------------------------------------------------------------------------
# frequency weights that sum below 3: no interval anywhere in the report
# --------------------------------------------------------------------------
@pytest.mark.parametrize("scale", [1e-200, 1e-3])
def test_report_with_too_little_frequency_weight_has_no_intervals(scale):
    y, p, _ = _data(120, seed=21)
    w = np.random.default_rng(2).integers(1, 4, 120) * scale
    rep = calibration_report(y, p, sample_weight=w, random_state=0)
    full = calibration_report(y, p, sample_weight=w / scale, random_state=0)
    text = str(rep)
    assert "[" not in text.split("\nDecomposition")[0]  # no interval at all
    assert "[" in str(full).split("\nDecomposition")[0]
    assert rep.calibration_slope == pytest.approx(full.calibration_slope, rel=1e-9)
    assert any("at least 3 observations" in n for n in rep.notes)


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_frame_with_a_text_column_names_it(library):
    lib = pytest.importorskip(library)
    y, p, _ = _data(50)
    frame = lib.DataFrame({"p": p, "site": np.where(y == 1, "a", "b")})
    with pytest.raises(TypeError, match=r"\['site'\] is not numeric.*y_proba\['p'\]"):
        calibration_report(y, frame)


def test_missing_value_in_a_frame_names_row_and_column():
    frame = pd.DataFrame(
        {"a": [0.2, 0.4, 0.6], "b": pd.Series([0.8, 0.6, None], dtype="Float64")}
    )
    with pytest.raises(
        ValueError, match=r"1 of 6 values \(the first at row 2, column 'b'\)"
    ):
        calibration_report([0, 1, 1], frame)


def test_tripod_report_of_hard_forecasts(tmp_path, capsys):
    y, p, q = _data(120)
    f = tmp_path / "hard.csv"
    pd.DataFrame({"y": y, "h": (p > 0.5).astype(float), "q": q}).to_csv(f, index=False)
    html = tmp_path / "t.html"
    args = ["report", str(f), "--y-col", "y", "--tripod", "--html", str(html)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HardForecastWarning)
        assert main([*args, "--p-col", "h", "--p-col", "q"]) == 0, capsys.readouterr().err
    page = html.read_text(encoding="utf-8")
    assert (
        "logistic calibration" in page.split('id="sample-size"')[1].split("</section>")[0]
    )


def test_reports_of_the_same_rows_in_another_order_say_so():
    y, p, q = _data(150)
    order = np.random.default_rng(1).permutation(150)
    reps = {
        "a": calibration_report(y, p, random_state=0),
        "b": calibration_report(y[order], q[order], random_state=0),
    }
    comp = paired_comparison(reps)
    assert comp is not None and comp.pairs == []
    assert "in different orders" in (comp.reason or "")
    assert "forecast different outcomes" not in (comp.reason or "")


def test_dask_engine_reports_say_why_their_rows_are_not_paired(tmp_path, capsys):
    pytest.importorskip("dask.dataframe")
    y, p, q = _data(150)
    f = tmp_path / "d.parquet"
    pd.DataFrame({"y": y, "a": p, "b": q}).to_parquet(f)
    args = ["report", str(f), "--y-col", "y", "--p-col", "a", "--p-col", "b"]
    assert main([*args, "--engine", "dask", "--random-state", "0"]) == 0
    out = capsys.readouterr().out
    assert "forecast different outcomes" not in out and "in different orders" in out


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_engines_name_the_column_of_hard_forecasts(tmp_path, capsys, engine):
    pytest.importorskip(engine)
    y, p, q = _data(150)
    f = tmp_path / "h.parquet"
    pd.DataFrame({"y": y, "h": (p > 0.5).astype(float), "q": q}).to_parquet(f)
    args = ["report", str(f), "--y-col", "y", "--p-col", "q", "--p-col", "h"]
    assert main([*args, "--engine", engine]) == 0
    err = capsys.readouterr().err
    assert err.count("every forecast is exactly 0 or 1") == 1
    assert "'h': every forecast is exactly 0 or 1" in err


def test_thresholds_in_percent_say_divide_by_100():
    y, p, _ = _data()
    with pytest.raises(ValueError, match=r"thresholds .* got 10 .*divide by 100"):
        calibration_report(y, p, thresholds=[10, 20])
    with pytest.raises(ValueError, match=r"thresholds .* got 0\.$"):
        calibration_report(y, p, thresholds=[0.2, 0.0])


def test_frame_of_a_forecast_and_a_flag_names_the_columns():
    y, p, _ = _data(100)
    frame = pd.DataFrame({"p": p, "flag": np.random.default_rng(0).integers(0, 2, 100)})
    with pytest.warns(UserWarning, match=r"columns \['p', 'flag'\].*y_proba\['p'\]"):
        brier_score(y, frame)


def test_cli_infinite_weight_is_called_infinite(tmp_path, capsys):
    f = tmp_path / "w.csv"
    f.write_text("y,p,w\n1,0.7,inf\n0,0.2,1\n1,0.6,1\n")
    assert (
        main(["report", str(f), "--y-col", "y", "--p-col", "p", "--weight-col", "w"]) != 0
    )
    err = capsys.readouterr().err
    assert "finite" in err and "row 2 has inf" in err


def test_compare_forecasts_two_column_forecasts_named_and_equal_to_1d():
    y, p, q = _data(100)
    labels = np.where(y == 1, "s", "f")
    two = compare_forecasts(labels, {"a": np.c_[1 - p, p], "b": q}, pos_label="s")
    one = compare_forecasts(y, {"a": p, "b": q})
    for name in ("a", "b"):
        assert two.values[name] == pytest.approx(one.values[name], rel=1e-12, nan_ok=True)
    with pytest.raises(ValueError, match=r"y_proba\['b'\] must contain .*percentages"):
        compare_forecasts(y, {"a": np.c_[1 - p, p], "b": q * 100})


def test_prevalence_in_percent_says_divide_by_100():
    y, p, _ = _data()
    for call in (
        lambda: calibration_report(y, p, prevalence=15),
        lambda: calibration_report(y, p, thresholds=0.2, prevalence=15),
    ):
        with pytest.raises(ValueError, match=r"prevalence .* got 15 \(a percentage\?"):
            call()


def test_hac_report_on_a_short_series_gives_notes_not_an_error(tmp_path, capsys):
    f = tmp_path / "short.csv"
    f.write_text("y,p,q\n1,0.7,0.6\n0,0.2,0.3\n1,0.6,0.5\n0,0.4,0.45\n")
    args = ["report", str(f), "--y-col", "y", "--p-col", "p", "--p-col", "q"]
    assert main([*args, "--cov", "hac"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "Confidence intervals not available: y_true has 4 observations" in out
    assert "No paired comparison: p and q" in out
