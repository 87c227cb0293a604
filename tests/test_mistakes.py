"""The commonest mistakes at the boundary, and what skbrier says about them.

Hard 0/1 forecasts (``predict`` for ``predict_proba``) warn once per call;
the Python API diagnoses bad probabilities, labels and weights as the command
line does (one home: :mod:`skbrier._core.diagnose`); HAC intervals need enough
positive weights; explicit bin edges must cover the forecasts; a one-column
DataFrame, ``n_resamples=0``, frequency weights and empty survival horizons
are handled; Excel files are read or refused with a useful message.
"""

from __future__ import annotations

import io
import re
import sys
import warnings
import zipfile

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss

import skbrier
from skbrier import (
    brier_index,
    brier_score,
    calibration_error,
    calibration_report,
    compare_forecasts,
    difficulty_adjusted_brier,
    leaderboard,
    murphy_decomposition,
)
from skbrier.cli import main
from skbrier.exceptions import HardForecastWarning
from skbrier.metrics.decomposition import binned_statistics
from skbrier.stats import brier_inference, compare_brier

pd = pytest.importorskip("pandas")


def _data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    y = (rng.uniform(size=n) < p).astype(int)
    return y, p


def _hard_warnings(func, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = func(*args, **kwargs)
    return out, [w for w in caught if issubclass(w.category, HardForecastWarning)]


def _error(func, *args, exc=ValueError, **kwargs) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc) as info:
            func(*args, **kwargs)
    return str(info.value)


def _long_numbers(msg: str) -> list[str]:
    """Numbers written with more than 4 significant digits."""
    out = []
    for tok in re.findall(r"-?\d+\.\d+(?:e[-+]?\d+)?", msg):
        mant = tok.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
        if len(mant) > 4:
            out.append(tok)
    return out


# --------------------------------------------------------------------------
# item 7: hard 0/1 forecasts
# --------------------------------------------------------------------------
def test_hard_forecasts_warn_naming_predict_proba():
    y, p = _data()
    hard = (p > 0.5).astype(int)
    value, got = _hard_warnings(brier_index, y, hard)
    assert len(got) == 1
    msg = str(got[0].message)
    assert msg.startswith("y_proba") and "predict_proba" in msg and "0 or 1" in msg
    assert got[0].filename == __file__
    # the number is unchanged: scikit-learn's brier_score_loss on the same input
    score, _ = _hard_warnings(brier_score, y, hard)
    assert score == pytest.approx(brier_score_loss(y, hard))
    assert value == pytest.approx(100 * (1 - np.sqrt(brier_score_loss(y, hard))))


@pytest.mark.parametrize(
    "hard",
    [
        lambda p: (p > 0.5).astype(bool),
        lambda p: (p > 0.5).astype(np.int8),
        lambda p: (p > 0.5).astype(np.float32),
        lambda p: pd.Series((p > 0.5).astype(float)),
        lambda p: np.column_stack([p <= 0.5, p > 0.5]).astype(float),  # one-hot
    ],
)
def test_every_representation_of_hard_forecasts_warns(hard):
    y, p = _data()
    _, got = _hard_warnings(brier_score, y, hard(p))
    assert len(got) == 1


def test_no_warning_for_probabilities_or_a_single_forecast():
    y, p = _data()
    q = (p > 0.5).astype(float)
    q[-1] = 0.5  # one forecast that is not 0 or 1
    for args in ((y, p), (y, q), ([1], [1.0])):
        _, got = _hard_warnings(brier_score, *args)
        assert not got


@pytest.mark.parametrize(
    "call",
    [
        lambda y, h: calibration_report(y, h),
        lambda y, h: compare_brier(y, h, np.where(h > 0, 0.8, 0.3)),
        lambda y, h: compare_brier(y, h, h[::-1].copy()),  # both hard: still one
        lambda y, h: brier_inference(y, h, reference=h[::-1].copy()),
        lambda y, h: skbrier.brier_skill_score(y, h, reference=h[::-1].copy()),
        lambda y, h: murphy_decomposition(y, h, n_resamples=20, random_state=0),
    ],
)
def test_composite_calls_warn_once(call):
    y, p = _data()
    _, got = _hard_warnings(call, y, (p > 0.5).astype(float))
    assert len(got) == 1, [str(w.message) for w in got]
    assert got[0].filename == __file__


def test_leaderboard_and_cross_validation_warn_once():
    from sklearn.model_selection import cross_val_score
    from sklearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(0)
    f = np.repeat(["a", "b", "c"], 20)
    q = np.tile(np.arange(20), 3)
    y = (rng.random(20) < 0.5)[q].astype(int)
    h = np.where(rng.random(60) < 0.8, y, 1 - y).astype(float)
    _, got = _hard_warnings(leaderboard, y, h, forecaster=f, question=q, n_resamples=9)
    assert len(got) == 1
    X = rng.normal(size=(60, 2))
    _, got = _hard_warnings(skbrier.cross_val_brier, DecisionTreeClassifier(), X, y, cv=3)
    assert len(got) == 1  # a fully grown tree's predict_proba is 0/1
    # a scorer is called by scikit-learn once per fold: one warning per call
    scorer = skbrier.make_brier_score_scorer()
    _, got = _hard_warnings(
        cross_val_score, DecisionTreeClassifier(), X, y, cv=3, scoring=scorer
    )
    assert len(got) == 3


def test_hard_forecasts_on_dask_warn_once():
    da = pytest.importorskip("dask.array")
    y, p = _data(400)
    h = (p > 0.5).astype(float)
    dy, dh = da.from_array(y, chunks=100), da.from_array(h, chunks=100)
    import dask

    with dask.config.set(scheduler="sync"):
        value, got = _hard_warnings(brier_score, dy, dh)
    assert len(got) == 1
    assert value == pytest.approx(brier_score_loss(y, h))


@pytest.fixture
def cli(capsys):
    def run(*args):
        capsys.readouterr()
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def test_cli_warns_of_hard_forecasts_naming_the_column(cli, tmp_path):
    y, p = _data(60)
    f = tmp_path / "hard.csv"
    pd.DataFrame({"y": y, "hard": (p > 0.5).astype(int), "soft": p}).to_csv(f, index=False)
    code, _, err = cli(
        "report", str(f), "--y-col", "y", "--p-col", "hard", "--p-col", "soft"
    )
    assert code == 0
    warns = [ln for ln in err.splitlines() if ln.startswith("skbrier: warning:")]
    hard = [ln for ln in warns if "0 or 1" in ln]
    assert len(hard) == 1 and "'hard'" in hard[0] and "predict_proba" in hard[0]


# --------------------------------------------------------------------------
# item 11: HAC intervals need enough positive weights
# --------------------------------------------------------------------------
def test_hac_refuses_two_positive_weights():
    y, p = _data()
    q = np.clip(p + np.random.default_rng(1).normal(0, 0.1, 200), 0, 1)
    w = np.zeros(200)
    w[:2] = 1.0
    msg = _error(compare_brier, y, p, q, cov_type="hac", sample_weight=w)
    assert msg.startswith("sample_weight") and "2 of 200" in msg
    assert "cov_type='iid'" in msg and "effective number" in msg
    msg = _error(brier_inference, y, p, cov_type="hac", sample_weight=w)
    assert msg.startswith("sample_weight")
    # one huge weight among many tiny ones is one observation, too
    w = np.full(200, 1e-9)
    w[0] = 1.0
    assert "effective" in _error(compare_brier, y, p, q, cov_type="hac", sample_weight=w)
    # enough positive weights: an interval
    w = np.zeros(200)
    w[:50] = 1.0
    res = compare_brier(y, p, q, cov_type="hac", sample_weight=w)
    assert np.isfinite(res.difference_standard_error)
    # block bootstraps read weights the same way
    w = np.zeros(200)
    w[:2] = 1.0
    msg = _error(
        compare_brier, y, p, q, cov_type="bootstrap", bootstrap="moving_block",
        block_length=5, sample_weight=w, n_resamples=99,
    )  # fmt: skip
    assert msg.startswith("sample_weight")


# --------------------------------------------------------------------------
# item 12
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda y, p, e: murphy_decomposition(y, p, strategy=e),
        lambda y, p, e: calibration_error(y, p, binning=e),
        lambda y, p, e: binned_statistics(y.astype(float), p, None, e),
    ],
)
def test_bin_edges_must_cover_the_forecasts(call):
    y, p = _data()
    msg = _error(call, y, p, np.array([0.2, 0.5, 0.8]))
    assert "must cover the forecasts" in msg and "start at 0 and end at 1" in msg
    assert not _long_numbers(msg), msg
    call(y, p, np.array([0.0, 0.5, 1.0]))  # edges over [0, 1]: fine
    inside = np.clip(p, 0.2, 0.8)
    call(y, inside, np.array([0.2, 0.5, 0.8]))  # forecasts inside the edges: fine


def test_calibration_error_edges_equal_whatever_covers():
    y, p = _data()
    a = calibration_error(y, p, binning=np.array([0.0, 0.25, 0.5, 0.75, 1.0]))
    b = calibration_error(y, p, binning=np.array([-1.0, 0.25, 0.5, 0.75, 2.0]))
    assert a == pytest.approx(b)


def test_one_column_dataframes_in_compare_brier():
    y, p = _data()
    q = np.clip(p + 0.05, 0, 1)
    ref = compare_brier(y, p, q)
    res = compare_brier(y, pd.DataFrame({"m": p}), pd.DataFrame({"n": q}))
    assert res.difference == pytest.approx(ref.difference)
    assert res.pvalue == pytest.approx(ref.pvalue)
    res = compare_brier(y, pd.DataFrame({"m": p}), q)
    assert res.difference == pytest.approx(ref.difference)
    msg = _error(compare_brier, y, pd.DataFrame({"m": p}))
    assert (
        msg.startswith("y_proba_a")
        and "y_proba_b" in msg
        and "dict" not in msg.split(".")[0]
    )
    # a two-column frame alone still holds the two forecasts
    two = compare_brier(y, pd.DataFrame({"m": p, "n": q}))
    assert two.names == ("m", "n") and two.difference == pytest.approx(ref.difference)


def _panel():
    rng = np.random.default_rng(0)
    f = np.repeat(["a", "b", "c"], 40)
    q = np.tile(np.arange(40), 3)
    y = (rng.random(40) < 0.5)[q]
    skill = np.array([0.3, 0.1, 0.0])[np.repeat([0, 1, 2], 40)]
    p = np.clip(np.where(y, 0.5 + skill, 0.5 - skill) + rng.normal(0, 0.1, 120), 0, 1)
    return y, p, f, q


def test_leaderboard_without_resamples():
    y, p, f, q = _panel()
    res = leaderboard(y, p, forecaster=f, question=q, n_resamples=0, reference="c")
    point = difficulty_adjusted_brier(y, p, forecaster=f, question=q)
    np.testing.assert_allclose(res.brier_index, point.brier_index)
    assert res.rank.tolist() == [1.0, 2.0, 3.0] and res.n_resamples == 0
    assert np.isnan(res.brier_index_low).all() and np.isnan(res.p_value).all()
    assert "no bootstrap" in res.to_html()
    res.summary()
    res.to_frame()
    with pytest.raises(ValueError, match="n_resamples > 0"):
        res.confidence_interval()
    with pytest.raises(ValueError, match="n_resamples"):
        leaderboard(y, p, forecaster=f, question=q, n_resamples=1)


def test_cli_leaderboard_without_resamples(cli, tmp_path):
    y, p, f, q = _panel()
    path = tmp_path / "board.csv"
    pd.DataFrame({"f": f, "q": q, "y": y.astype(int), "p": p}).to_csv(path, index=False)
    args = ["leaderboard", str(path), "--forecaster-col", "f", "--question-col", "q"]
    code, out, err = cli(*args, "--y-col", "y", "--p-col", "p", "--n-resamples", "0")
    assert code == 0, err
    assert "75.16" in out


def test_compare_forecasts_n_is_the_total_frequency_weight():
    y, p = _data(100)
    w = np.random.default_rng(2).integers(0, 4, 100).astype(float)
    p = np.clip(p, 0.01, 0.9)
    models = {"a": p, "b": p + 0.05}
    res = compare_forecasts(y, models, sample_weight=w)
    assert res.n == w.sum() and res.n_rows == int((w > 0).sum())
    rep = np.repeat(np.arange(100), w.astype(int))
    again = compare_forecasts(y[rep], {k: v[rep] for k, v in models.items()})
    assert again.n == res.n and again.n_rows == again.n
    assert res.values["a"]["brier_score"] == pytest.approx(again.values["a"]["brier_score"])
    assert f"n = {int(w.sum())} ({res.n_rows} rows)" in res.summary()
    assert res.to_dict()["n"] == w.sum()


@pytest.mark.parametrize(
    "times, kwargs",
    [([], {}), ([], {"metric": "brier_score"}), ([1.0], {}), ([2.0, 1.0], {}), ("a", {})],
)
def test_survival_scorer_checks_the_horizons_when_made(times, kwargs):
    from skbrier.survival import make_survival_scorer

    with pytest.raises((ValueError, TypeError), match="^times"):
        make_survival_scorer(times, **kwargs)


def test_survival_scorer_one_horizon_brier_score_is_fine():
    from skbrier.survival import make_survival_scorer

    make_survival_scorer(1.0, metric="brier_score")
    make_survival_scorer([1.0, 2.0])


# --------------------------------------------------------------------------
# item 13: the Python API's messages
# --------------------------------------------------------------------------
def test_swapped_arguments():
    y, p = _data()
    msg = _error(brier_score, p, y)
    assert msg.startswith("y_true") and "swapped" in msg
    assert "multiclass" not in msg
    # predict_proba output given as y_true
    msg = _error(brier_score, np.column_stack([1 - p, p]), y)
    assert msg.startswith("y_true") and "swapped" in msg and "predict_proba" in msg
    # text labels given as y_proba
    msg = _error(brier_score, p, np.where(y == 1, "yes", "no"), exc=TypeError)
    assert msg.startswith("y_proba") and "swapped" in msg


def test_percentages_logits_and_decision_function():
    y, p = _data()
    msg = _error(brier_score, y, 100 * p)
    assert msg.startswith("y_proba") and "divide by 100" in msg
    logits = np.log(p / (1 - p))
    msg = _error(brier_score, y, logits)
    assert "predict_proba" in msg and "expit" in msg
    from sklearn.svm import LinearSVC

    X = np.column_stack([p, np.random.default_rng(3).normal(size=200)])
    scores = LinearSVC().fit(X, y).decision_function(X)
    msg = _error(calibration_report, y, scores)
    assert "decision_function" in msg and "predict_proba" in msg
    for m in (msg, _error(brier_score, y, 100 * p)):
        assert not _long_numbers(m), m
    # a rounding excess
    q = p.copy()
    q[7] = 1 + 1e-9
    assert "clip" in _error(brier_score, y, q)


def test_nan_inf_and_empty():
    y, p = _data()
    q = p.copy()
    q[[5, 9, 40]] = np.nan
    msg = _error(brier_score, y, q)
    assert msg.startswith("y_proba contains NaN") and "3 of 200" in msg
    assert "index 5" in msg
    q = p.copy()
    q[4] = np.inf
    msg = _error(brier_score, y, q)
    assert msg.startswith("y_proba contains infinity") and "index 4" in msg
    assert _error(brier_score, [], []).startswith("y_proba is empty")
    yy = y.astype(float)
    yy[11] = np.nan
    msg = _error(brier_score, yy, p)
    assert msg.startswith("y_true contains NaN") and "index 11" in msg


def test_dataframe_with_extra_columns_names_them():
    y, p = _data()
    frame = pd.DataFrame({"p": p, "patient_id": np.arange(200)})
    msg = _error(brier_score, y, frame)
    assert msg.startswith("y_proba") and "'patient_id'" in msg and "y_proba['p']" in msg
    frame = pd.DataFrame({"p": p, "site": ["x"] * 200})
    msg = _error(brier_score, y, frame, exc=TypeError)
    assert "'site'" in msg and "not numeric" in msg


def test_stray_label_lists_the_labels():
    y, p = _data()
    y = y.copy()
    y[3] = 2
    msg = _error(brier_score, y, p)
    assert msg.startswith("y_true has more than two classes")
    counts = np.bincount(y)
    assert f"0 ({counts[0]} rows)" in msg and f"1 ({counts[1]} rows)" in msg
    assert "2 (1 row: index 3)" in msg and "rare" in msg
    # string labels too
    s = np.where(y == 1, "yes", "no").astype(object)
    s[3] = "Yes"
    msg = _error(brier_score, s, p, pos_label="yes")
    assert "'Yes' (1 row: index 3)" in msg


def test_a_genuinely_multiclass_target_gets_the_multiclass_hint():
    y = np.repeat([0, 1, 2], 50)
    p = np.full(150, 0.3)
    msg = _error(brier_score, y, p)
    assert "2-D y_proba" in msg and "rare" not in msg


def test_weights_negative_nan_inf():
    y, p = _data()
    w = np.ones(200)
    w[[6, 8]] = -0.123456789
    msg = _error(brier_score, y, p, sample_weight=w)
    assert msg.startswith("sample_weight must be non-negative")
    assert "-0.1235" in msg and "2 of 200" in msg and "index 6" in msg
    w[[6, 8]] = np.nan
    msg = _error(brier_score, y, p, sample_weight=w)
    assert msg.startswith("sample_weight contains NaN") and "index 6" in msg
    w[[6, 8]] = np.inf
    assert "index 6" in _error(brier_score, y, p, sample_weight=w)


def test_text_numbers_and_dicts():
    y, p = _data(10)
    msg = _error(brier_score, y, p.astype(str), exc=TypeError)
    assert "dtype=float" in msg
    msg = _error(calibration_report, y, {"a": p, "b": p}, exc=TypeError)
    assert msg.startswith("y_proba") and "compare_forecasts" in msg


def test_bool_labels_are_read_as_outcomes():
    y, p = _data()
    assert brier_score(y.astype(bool), p) == pytest.approx(brier_score(y, p))


def test_numbers_in_messages_have_four_significant_digits():
    y, p = _data()
    msgs = [
        _error(brier_score, y, p * 100),
        _error(brier_score, y, p - 0.5),
        _error(skbrier.brier_skill_score, y, p, reference=1.23456789),
        _error(murphy_decomposition, y, p, strategy=[0.123456, 0.5, 0.876543]),
    ]
    for m in msgs:
        assert not _long_numbers(m), m


def test_compare_brier_verdict_without_significance():
    y, p = _data()
    q = np.clip(p + np.random.default_rng(5).normal(0, 0.01, 200), 0, 1)
    res = compare_brier(y, p, q)
    assert res.pvalue >= 0.05
    assert "has the lower Brier score" in res.verdict
    assert "better" not in res.summary()
    sig = compare_brier(y, p, np.full(200, 0.5))
    assert sig.pvalue < 0.05 and "is better than" in sig.verdict


# --------------------------------------------------------------------------
# the command line says the same thing
# --------------------------------------------------------------------------
def _cli_error(cli, tmp_path, frame, *extra):
    f = tmp_path / "data.csv"
    frame.to_csv(f, index=False)
    code, _, err = cli("report", str(f), "--y-col", "y", "--p-col", "p", *extra)
    assert code == 2
    return err.strip().removeprefix("skbrier: error: ")


def test_cli_and_api_give_the_same_diagnosis(cli, tmp_path):
    y, p = _data(50)
    for bad, same in (
        (100 * p, "They look like percentages"),
        (np.log(p / (1 - p)), "expit"),
    ):
        api = _error(brier_score, y, bad)
        text = _cli_error(cli, tmp_path, pd.DataFrame({"y": y, "p": bad}))
        assert same in api and same in text
        # everything after the subject and the position is the same sentence
        after_api = api.split(" has ", 1)[1].replace("divide by 100", "use --percent")
        assert after_api == text.split(" has ", 1)[1]
    text = _cli_error(cli, tmp_path, pd.DataFrame({"y": p, "p": y}))
    assert "swapped" in text and "--y-col" in text
    yy = y.copy()
    yy[4] = 2
    text = _cli_error(cli, tmp_path, pd.DataFrame({"y": yy, "p": p}))
    assert "2 (1 row: row 6)" in text and "rare" in text


def test_outcome_codes_as_forecasts_are_not_called_percentages(cli, tmp_path):
    """Outcomes coded 1/2 (R's coding) or -1/1 given as the forecasts: the hint
    'they look like percentages' (1 and 2 lie in [0, 100]) led to --percent and
    a report of forecasts 0.01 and 0.02; -1/1 were called log-odds."""
    y, p = _data(40)
    for codes in (y + 1, 2 * y - 1):
        api = _error(brier_score, y, codes.astype(float))
        assert "look like class labels" in api and "percentages" not in api, api
        assert "expit" not in api
        text = _cli_error(cli, tmp_path, pd.DataFrame({"y": y, "p": codes}))
        assert "look like class labels" in text and "--percent" not in text, text


def test_dataframe_columns_named_by_the_classes_in_another_order():
    """A DataFrame of probabilities whose columns are the classes, not in the
    sorted order the columns are taken to follow: the report scored the
    column 'no' as the probability of 'yes' (mean forecast, O/E, slope all
    of the other class)."""
    y, p = _data(60)
    labels = np.where(y == 1, "yes", "no")
    frame = pd.DataFrame({"yes": p, "no": 1 - p})
    msg = _error(calibration_report, labels, frame, pos_label="yes")
    assert "['yes', 'no']" in msg and "['no', 'yes']" in msg, msg
    y3 = np.array(["a", "b", "c"])[np.arange(30) % 3]
    probs = np.random.default_rng(2).dirichlet(np.ones(3), 30)
    msg = _error(brier_score, y3, pd.DataFrame(probs, columns=["c", "a", "b"]))
    assert "y_proba[['a', 'b', 'c']]" in msg, msg
    # columns in the sorted order, or named otherwise: read as before
    ok = calibration_report(labels, frame[["no", "yes"]], pos_label="yes")
    assert ok.mean_forecast == pytest.approx(p.mean())
    renamed = pd.DataFrame(probs, columns=["p0", "p1", "p2"])
    assert brier_score(y3, renamed) == brier_score(y3, probs)


def test_excel_file_is_read(cli, tmp_path):
    pytest.importorskip("openpyxl")
    y, p = _data(60)
    frame = pd.DataFrame({"y": y, "p": p})
    xlsx, csv = tmp_path / "d.xlsx", tmp_path / "d.csv"
    frame.to_excel(xlsx, index=False)
    frame.to_csv(csv, index=False)
    a = cli("report", str(xlsx), "--y-col", "y", "--p-col", "p", "--json")
    b = cli("report", str(csv), "--y-col", "y", "--p-col", "p", "--json")
    assert a[0] == 0 and b[0] == 0, a[2]
    ja, jb = (__import__("json").loads(r[1]) for r in (a, b))
    assert ja["brier_score"] == pytest.approx(jb["brier_score"])


def test_excel_without_the_reader_says_save_as_csv(cli, tmp_path, monkeypatch):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:  # the layout of an .xlsx workbook
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/workbook.xml", "<workbook/>")
        zf.writestr("xl/worksheets/sheet1.xml", "<worksheet/>")
    f = tmp_path / "d.xlsx"
    f.write_bytes(buf.getvalue())
    monkeypatch.setitem(sys.modules, "openpyxl", None)  # as if not installed
    code, _, err = cli("report", str(f), "--y-col", "y", "--p-col", "p")
    assert code == 2
    assert "save it as CSV" in err and "zip" not in err and "skbrier[excel]" in err
    # a legacy .xls is refused the same way
    f.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512)
    code, _, err = cli("report", str(f), "--y-col", "y", "--p-col", "p")
    assert code == 2 and "save it as CSV" in err


def test_binary_tests_in_net_benefit_do_not_warn():
    y, p = _data()
    test = (p > 0.5).astype(int)
    for call in (
        lambda: skbrier.net_benefit(y, test, threshold=0.2),
        lambda: skbrier.decision_curve(y, test),
        lambda: skbrier.binary_test_probabilities(y, test),
    ):
        _, got = _hard_warnings(call)
        assert not got
    # the Brier score of the test itself warns, and names the way out
    _, got = _hard_warnings(brier_score, y, test)
    assert "binary_test_probabilities" in str(got[0].message)


def test_missing_values_in_object_input():
    y = np.array([0, 1, 1, 0])
    for p in ([0.2, None, 0.6, 0.3], pd.Series([0.2, pd.NA, 0.6, 0.3], dtype="Float64")):
        msg = _error(brier_score, y, p)
        assert msg.startswith("y_proba contains") and "index 1" in msg
    msg = _error(brier_score, [0, None, 1, 0], [0.2, 0.7, 0.6, 0.3])
    assert msg.startswith("y_true contains missing") and "index 1" in msg


def test_numbers_and_percentages_as_text():
    y = np.array([0, 1, 1, 0])
    msg = _error(brier_score, np.array(["0", "1", "1", "0"]), [0.2, 0.7, 0.6, 0.3])
    assert "astype(int)" in msg and "pos_label='1'" in msg
    msg = _error(brier_score, y, ["20%", "70%", "60%", "30%"], exc=TypeError)
    assert "divide by 100" in msg


def test_dask_messages_say_positions_are_within_a_partition():
    da = pytest.importorskip("dask.array")
    import dask

    y = np.zeros(400, dtype=int)
    y[::2] = 1
    p = np.full(400, 0.4)
    p[305] = np.nan
    with dask.config.set(scheduler="sync"):
        msg = _error(
            brier_score, da.from_array(y, chunks=100), da.from_array(p, chunks=100)
        )
    assert msg.startswith("y_proba contains NaN") and "partition" in msg
