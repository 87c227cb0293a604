"""Faults found by fuzzing the domain packages' boundaries (survival,
leaderboards, io, plotting, report, cli): each input gives a correct number
or a clear error, never a stray exception or a silent wrong number."""

from __future__ import annotations

import numpy as np
import pytest

from skbrier.cli import main


def _one_error(capsys, *args: str) -> str:
    """The one line of ``skbrier *args``'s error (exit status 2, no traceback)."""
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("skbrier: error:"), err
    return lines[0]


@pytest.fixture()
def csv_files(tmp_path):
    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, 60)
    y = (rng.uniform(size=60) < p).astype(int)
    rows = [f"{a},{b:.4f}" for a, b in zip(y, p)]
    (tmp_path / "comma.csv").write_text("y,p\n" + "\n".join(rows) + "\n")
    (tmp_path / "semi.csv").write_text(
        "y;p\n" + "\n".join(r.replace(",", ";") for r in rows) + "\n"
    )
    return tmp_path


@pytest.mark.parametrize(
    ("engine", "file", "y_col", "expected"),
    [
        *[
            (
                engine,
                "comma.csv",
                "Y",
                ["no column 'Y' (columns: y, p) (did you mean 'y'?)"],
            )
            for engine in ("polars", "duckdb", "dask")
        ],
        *[
            (engine, "semi.csv", "y", ["(columns: y;p)", "--engine memory --sep ';'"])
            for engine in ("polars", "dask")
        ],
    ],
)
def test_engine_missing_column_lists_the_columns(
    csv_files, capsys, engine, file, y_col, expected
):
    """--engine polars/duckdb/dask said "no column named 'Y'." without the
    file's columns (--engine memory lists them and suggests a close name);
    a ';'-separated file read by an engine that reads ','-separated text has
    a header of one column: the message says which separator it has and
    how to read it (--engine memory --sep ';')."""
    pytest.importorskip("dask" if engine == "dask" else engine)
    line = _one_error(
        capsys, "report", str(csv_files / file), "--y-col", y_col, "--p-col", "p",
        "--engine", engine,
    )  # fmt: skip
    for text in expected:
        assert text in line


@pytest.fixture()
def board_csv(tmp_path):
    rng = np.random.default_rng(1)
    outcome = {f"q{i}": int(rng.integers(0, 2)) for i in range(10)}
    rows = [
        f"{f},{q},{y},{'' if (f, q) == ('a', 'q0') else round(rng.uniform(0.1, 0.9), 3)}"
        for f in "abc"
        for q, y in outcome.items()
    ]
    path = tmp_path / "board.csv"
    path.write_text("forecaster,question,y,p\n" + "\n".join(rows) + "\n")
    return path


_BOARD = ("--forecaster-col", "forecaster", "--question-col", "question", "--y-col", "y")


@pytest.mark.parametrize("pct", ["nan", "-1", "101"])
def test_leaderboard_max_imputed_pct_is_a_percentage(board_csv, capsys, pct):
    """--max-imputed-pct nan kept every forecaster (no share is > NaN) and -1
    left none ("no rows left to score"), without naming the option."""
    line = _one_error(
        capsys, "leaderboard", str(board_csv), *_BOARD, "--p-col", "p", "--na", "impute",
        "--n-resamples", "0", f"--max-imputed-pct={pct}",
    )  # fmt: skip
    assert "--max-imputed-pct must be a percentage in [0, 100]" in line


def test_leaderboard_reference_date_alone_is_refused(board_csv, capsys):
    """--reference-date (and forecastbench_rows' reference_date) without the
    inactivity rule it is the 'now' of was silently ignored, whatever its value."""
    from skbrier.leaderboards import forecastbench_rows

    line = _one_error(
        capsys, "leaderboard", str(board_csv), *_BOARD, "--p-col", "p",
        "--n-resamples", "0", "--reference-date", "not a date",
    )  # fmt: skip
    assert "--reference-date needs --hide-inactive-days" in line
    with pytest.raises(ValueError, match="reference_date .* needs max_inactive_days"):
        forecastbench_rows(["a", "b"], reference_date="2024-01-01")


def test_leaderboard_cull_errors_name_the_options(board_csv, capsys):
    """forecastbench_rows' errors named its parameters (max_lead_time) only,
    not the command's options (--max-horizon)."""
    line = _one_error(
        capsys, "leaderboard", str(board_csv), *_BOARD, "--p-col", "p",
        "--n-resamples", "0", "--horizon-col", "y", "--max-horizon", "nan",
    )  # fmt: skip
    assert "max_lead_time (--max-horizon) must be finite" in line


@pytest.fixture()
def history_csv(tmp_path):
    (tmp_path / "up.csv").write_text(
        "forecaster,question,timestamp,probability\n"
        "ann,q1,2024-01-01,0.6\nbob,q1,2024-01-02,0.3\nann,q2,2024-01-02,0.2\n"
        "bob,q2,2024-01-03,0.4\nann,q3,2024-01-02,0.7\nbob,q3,2024-01-02,0.9\n"
    )
    (tmp_path / "qs.csv").write_text(
        "question,open_time,close_time,resolve_time,outcome\n"
        + "".join(f"q{i},2024-01-01,2024-01-06,2024-01-06,{i % 2}\n" for i in (1, 2, 3))
    )
    return tmp_path


@pytest.mark.parametrize(
    ("extra", "option"),
    [
        (("--step", "1"), "--step"),
        (("--score", "brier-at", "--lead-time", "2"), "--lead-time"),
    ],
)
def test_history_unitless_duration_names_the_option(history_csv, capsys, extra, option):
    """A length of time without a unit for dated histories: the message said
    "step must be a timedelta (e.g. numpy.timedelta64(1, 'D'))", a Python
    remedy under the API's name, not the command's option and its 1d/24h."""
    line = _one_error(
        capsys, "history", str(history_csv / "up.csv"), "--questions",
        str(history_csv / "qs.csv"), "--n-resamples", "0", *extra,
    )  # fmt: skip
    assert f"{option} must be a length of time with a unit (1d, 24h)" in line
    assert "numpy" not in line


def test_llm_option_error_names_the_flag(capsys):
    """--confidence stated without --confidence-field: the message named the
    reader's parameter confidence_field, not the command's flag."""
    from pathlib import Path

    log = Path(__file__).parent / "fixtures" / "llm" / "inspect_hle.json"
    assert main(["llm", str(log), "--n-resamples", "0", "--confidence", "stated"]) == 2
    err = capsys.readouterr().err
    assert "needs --confidence-field" in err and "confidence_field" not in err


@pytest.fixture()
def forecasts():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    rng = np.random.default_rng(0)
    p = rng.uniform(0.02, 0.98, 120)
    return (rng.uniform(size=120) < p).astype(int), p


@pytest.mark.parametrize("display", ["CalibrationCurveDisplay", "ReliabilityDisplay"])
@pytest.mark.parametrize("ax", ["x", [3]])
def test_display_refuses_a_non_axes_ax(forecasts, display, ax):
    """ax='x' gave AttributeError: 'str' object has no attribute 'figure'
    (CalibrationCurveDisplay, ReliabilityDisplay); the other Displays say
    what ax must be."""
    import matplotlib.pyplot as plt

    import skbrier.plotting as plotting

    y, p = forecasts
    with pytest.raises(TypeError, match="^ax must be a matplotlib Axes"):
        getattr(plotting, display).from_predictions(y, p, ax=ax)
    plt.close("all")


def test_reliability_plot_refuses_a_non_axes_components_ax(forecasts):
    import matplotlib.pyplot as plt

    from skbrier.plotting import ReliabilityDisplay

    y, p = forecasts
    disp = ReliabilityDisplay.from_predictions(y, p)
    with pytest.raises(TypeError, match="^components_ax must be a matplotlib Axes"):
        disp.plot(components_ax="x")
    plt.close("all")


@pytest.mark.parametrize("display", ["ReliabilityDisplay", "RiskCoverageDisplay"])
def test_display_unknown_line_keyword_is_a_type_error(forecasts, display):
    """A keyword that is no line property (a typo, or pos_label given to
    RiskCoverageDisplay.from_estimator) leaked matplotlib's AttributeError
    "Line2D.set() got an unexpected keyword argument"; now a TypeError that
    names the Display, before anything is drawn."""
    import matplotlib.pyplot as plt

    import skbrier.plotting as plotting

    y, p = forecasts
    cls = getattr(plotting, display)
    with pytest.raises(TypeError, match=f"^{display}: .*'colour'"):
        cls.from_predictions(y, p, colour="red")
    assert cls.from_predictions(y, p, color="red").line_.get_color() == "red"
    if display == "RiskCoverageDisplay":
        from sklearn.linear_model import LogisticRegression

        X = p[:, None]
        est = LogisticRegression().fit(X, y)
        with pytest.raises(TypeError, match="pos_label"):
            cls.from_estimator(est, X, y, pos_label=1)
    plt.close("all")


@pytest.fixture(scope="module")
def report():
    from skbrier.report import calibration_report

    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, 80)
    return calibration_report((rng.uniform(size=80) < p).astype(int), p, random_state=0)


@pytest.mark.parametrize("segments", [3, "abc", np.zeros((4, 2, 2))])
def test_report_segments_of_a_wrong_shape(segments):
    """calibration_report(..., segments=3) gave IndexError: too many indices
    for array (the first segment taken of a 0-d array)."""
    from skbrier.report import calibration_report

    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.95, 40)
    y = (rng.uniform(size=40) < p).astype(int)
    with pytest.raises(ValueError, match=r"^segments must be 1-D .* got shape"):
        calibration_report(y, p, segments=segments)


@pytest.mark.parametrize("writer", ["reports_to_html", "to_html", "tripod"])
def test_report_writers_name_the_path(report, tmp_path, writer):
    """A path in a missing directory raised FileNotFoundError naming the
    temporary file ('/missing/.out.html.8_2ru0ur.tmp'), a directory
    IsADirectoryError likewise, and path=3 pathlib's TypeError."""
    from skbrier.report import reports_to_html, tripod_report

    write = {
        "reports_to_html": lambda path: reports_to_html({"a": report}, path),
        "to_html": report.to_html,
        "tripod": tripod_report(report).to_html,
    }[writer]
    missing = tmp_path / "missing" / "out.html"
    with pytest.raises(
        FileNotFoundError, match="out.html: the directory .*missing does not"
    ):
        write(missing)
    with pytest.raises(IsADirectoryError, match="is a directory, not a file to write"):
        write(tmp_path)
    with pytest.raises(TypeError, match="^path must be a str or path-like"):
        write(3)
    assert not list(tmp_path.iterdir())  # no temporary file left behind
    write(tmp_path / "ok.html")
    assert (tmp_path / "ok.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_survival_decision_curve_interval_hint():
    """decision_curve_survival(...).confidence_interval() said "call
    decision_curve with n_resamples > 0", an option the survival curve
    does not have."""
    from skbrier.survival import decision_curve_survival

    rng = np.random.default_rng(0)
    time = rng.exponential(5.0, 60) + 0.1
    event = rng.integers(0, 2, 60)
    risk = rng.uniform(0.05, 0.6, 60)
    res = decision_curve_survival(event, time, 1.0 - risk, 3.0)
    with pytest.raises(ValueError, match="decision_curve_survival has none"):
        res.confidence_interval()


@pytest.mark.parametrize("due", [None, "", float("nan"), "not a date"])
def test_question_key_needs_a_due_date(due):
    """question_key(None, 'acled', 'x') was 'None_acled_x' (and '' gave
    '_acled_x'): a key that matches no question, silently."""
    from skbrier.leaderboards import question_key

    with pytest.raises(ValueError, match="forecast_due_date"):
        question_key(due, "acled", "x")


@pytest.mark.parametrize("lead_time", [True, -7])
def test_question_key_lead_time_is_a_count_of_days(lead_time):
    """lead_time=True gave the key '..._1' and -7 the key '..._-7'."""
    from skbrier.leaderboards import question_key

    with pytest.raises(ValueError, match="^lead_time must be a whole number of days"):
        question_key("2025-03-02", "acled", "x", lead_time)


@pytest.mark.parametrize("reader", ["read_forecast_set", "read_resolution_set"])
@pytest.mark.parametrize("market", ["manifold", 3, [3]])
def test_forecastbench_market_sources_must_be_names(reader, market):
    """market_sources='manifold' was read as its letters (no source matched,
    so market questions silently kept a horizon in their key) and
    market_sources=3 raised "'int' object is not iterable"."""
    from pathlib import Path

    import skbrier.leaderboards as lb

    fixtures = Path(__file__).parent / "fixtures" / "forecastbench"
    path = {
        "read_forecast_set": fixtures / "2025-03-02.model-a.json",
        "read_resolution_set": fixtures / "2025-03-02_resolution_set.json",
    }[reader]
    with pytest.raises(TypeError, match="^market_sources must"):
        getattr(lb, reader)(path, market_sources=market)


@pytest.mark.parametrize("bad", [np.inf, -np.inf])
def test_parity_date_refuses_an_infinite_score(bad):
    """An infinite Brier Index was dropped from the frontier silently (as a
    NaN, a forecaster without an index), moving the parity date."""
    from skbrier.leaderboards import parity_date

    dates = ["2024-01-01", "2024-07-01", "2025-01-01", "2025-06-01"]
    with pytest.raises(ValueError, match="^scores must be Brier Index values"):
        parity_date(dates, [60.0, 63.0, 66.0, bad], 70.0)
    assert parity_date(dates, [60.0, 63.0, 66.0, np.nan], 70.0).crossed  # NaN: no index


def test_history_outcome_messages_name_the_history_options(history_csv, capsys):
    """Outcomes 0/1/2 or probabilities in the --questions table: the message
    said "skbrier report scores binary outcomes" and "Are --y-col and --p-col
    swapped?", options skbrier history does not have."""
    questions = history_csv / "qs.csv"
    lines = questions.read_text().splitlines()
    lines[1:] = [
        ln[: ln.rindex(",")] + f",{v}" for ln, v in zip(lines[1:], (0.2, 0.5, 0.7))
    ]
    questions.write_text("\n".join(lines) + "\n")
    line = _one_error(
        capsys, "history", str(history_csv / "up.csv"), "--questions", str(questions),
        "--n-resamples", "0",
    )  # fmt: skip
    assert "--outcome-col names the outcomes" in line
    assert "--y-col" not in line and "skbrier report" not in line


@pytest.mark.parametrize(
    "option", [("--sep", ";"), ("--decimal", ","), ("--encoding", "latin-1")]
)
def test_text_options_on_a_parquet_file(tmp_path, capsys, option):
    """--sep ';' (--decimal ',', --encoding) on a Parquet file were ignored
    silently: the options of text files are refused there."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    path = tmp_path / "f.parquet"
    pd.DataFrame({"y": [0, 1, 0, 1], "p": [0.2, 0.7, 0.4, 0.6]}).to_parquet(path)
    line = _one_error(capsys, "report", str(path), "--y-col", "y", "--p-col", "p", *option)
    assert f"is a Parquet file (typed columns): the text-file options {option[0]}" in line


@pytest.mark.parametrize(
    "display", ["CalibrationCurveDisplay", "DecisionCurveDisplay", "survival"]
)
def test_line_kwargs_of_no_line_property(forecasts, display):
    """line_kwargs={'model': {'colour': 'r'}} leaked matplotlib's
    AttributeError while drawing, and {'model': 3} a TypeError from the
    ** unpacking; both are TypeErrors naming line_kwargs[model] now."""
    import matplotlib.pyplot as plt

    import skbrier.plotting as plotting
    from skbrier.survival import SurvivalCalibrationDisplay

    y, p = forecasts
    if display == "survival":
        time = np.linspace(0.5, 10.0, y.shape[0])
        disp = SurvivalCalibrationDisplay.from_predictions(y, time, 1.0 - p, 3.0)
    else:
        disp = getattr(plotting, display).from_predictions(y, p, name="m")
    name = next(iter(disp.results)) if display == "survival" else "m"
    with pytest.raises(TypeError, match=rf"^line_kwargs\['{name}'\]: .*'colour'"):
        disp.plot(line_kwargs={name: {"colour": "red"}})
    with pytest.raises(TypeError, match=rf"^line_kwargs\['{name}'\] must be a dict"):
        disp.plot(line_kwargs={name: 3})
    disp.plot(line_kwargs={name: {"color": "red"}})
    plt.close("all")


def test_llm_length_normalize_on_another_format(capsys):
    """--length-normalize on a judged log was ignored silently; the other
    format-specific flags (--target-delimiter, --scorer) are refused there."""
    from pathlib import Path

    log = Path(__file__).parent / "fixtures" / "llm" / "judged_hle_o1-mini.json"
    assert main(["llm", str(log), "--n-resamples", "0", "--length-normalize"]) == 2
    assert "--length-normalize applies to lm-eval logs" in capsys.readouterr().err


def test_report_n_resamples_without_a_bootstrap():
    """calibration_report(y, p, n_resamples=50) (cov_type='iid' or 'hac')
    ignored n_resamples silently, while inference_kwds={'n_resamples': 50}
    is refused there."""
    from skbrier.report import calibration_report

    y, p = [0, 1, 0, 1, 1, 0], [0.2, 0.7, 0.4, 0.6, 0.8, 0.3]
    for cov_type in ("iid", "hac"):
        with pytest.raises(
            ValueError, match="^n_resamples applies to cov_type='bootstrap'"
        ):
            calibration_report(y, p, cov_type=cov_type, n_resamples=50)


@pytest.mark.parametrize("command", ["report", "demo"])
def test_cli_n_resamples_without_a_bootstrap(csv_files, capsys, command):
    """--n-resamples 50 with --cov iid was ignored silently by skbrier
    report, and skbrier demo's error path read args.y_col, which demo does
    not have (AttributeError)."""
    import argparse

    from skbrier.cli._report import _in_columns

    args = ["report", str(csv_files / "comma.csv"), "--y-col", "y", "--p-col", "p"]
    args = args if command == "report" else ["demo"]
    line = _one_error(capsys, *args, "--n-resamples", "50")
    assert "--n-resamples applies to --cov bootstrap only, not to --cov iid" in line
    assert _in_columns("y_true is bad", argparse.Namespace()) == "y_true is bad"


def test_leaderboard_no_rows_left_says_why(board_csv, capsys):
    """--na impute leaving every forecaster out (over --max-imputed-pct
    imputed) said only "no rows left to score": the note saying why was
    printed after the error, that is never."""
    lines = board_csv.read_text().splitlines()
    lines[1:] = [ln[: ln.rindex(",") + 1] if ",q0," in ln else ln for ln in lines[1:]]
    board_csv.write_text("\n".join(lines) + "\n")  # every forecaster misses q0
    line = _one_error(
        capsys, "leaderboard", str(board_csv), *_BOARD, "--p-col", "p", "--na", "impute",
        "--n-resamples", "0",
    )  # fmt: skip
    assert "no rows left to score (3 forecaster(s) with over 5% imputed" in line


def test_leaderboard_impute_col_needs_na_impute(board_csv, capsys):
    """--impute-col with --na drop (the default) was ignored silently."""
    line = _one_error(
        capsys, "leaderboard", str(board_csv), *_BOARD, "--p-col", "p",
        "--n-resamples", "0", "--impute-col", "y",
    )  # fmt: skip
    assert "--impute-col is the value of --na impute" in line


def test_leaderboard_parity_and_cull_errors_name_the_options(board_csv, capsys):
    """--parity-target 'zz' said "target: unknown forecaster", and a
    forecaster without a --release-date-col date "release_date: ..." (a
    parameter followed by ':' was not matched to its option)."""
    text = board_csv.read_text().splitlines()
    dates = {"a": "2024-01-01", "b": "2024-06-01", "c": ""}
    rows = [ln + "," + dates[ln[0]] + ",Org" for ln in text[1:]]
    board_csv.write_text("\n".join([text[0] + ",rel,org", *rows]) + "\n")
    common = [str(board_csv), *_BOARD, "--p-col", "p", "--n-resamples", "0", "--quiet"]
    line = _one_error(
        capsys, "leaderboard", *common, "--release-date-col", "rel", "--parity-target", "zz"
    )
    assert line.startswith(
        "skbrier: error: target (--parity-target 'zz'): unknown forecaster"
    )
    line = _one_error(
        capsys, "leaderboard", *common, "--release-date-col", "rel", "--organization-col",
        "org", "--latest-per-org", "1",
    )  # fmt: skip
    assert "release_date (--release-date-col): forecaster 'c' has no release date" in line


def test_absurd_n_resamples_is_refused_by_the_domain_functions():
    """leaderboard(..., n_resamples=10**12) raised a bare MemoryError (the
    list of chunk sizes); _core.params' MAX_RESAMPLES (from integ) covers the
    leaderboards and the survival scores too."""
    from skbrier.leaderboards import leaderboard
    from skbrier.survival import index_of_prediction_accuracy

    fc = np.repeat(["a", "b", "c"], 5)
    qu = np.tile([f"q{i}" for i in range(5)], 3)
    y = np.tile([0, 1, 0, 1, 1], 3)
    p = np.linspace(0.1, 0.9, 15)
    with pytest.raises(ValueError, match="^n_resamples must be at most"):
        leaderboard(y, p, forecaster=fc, question=qu, n_resamples=10**12)
    time = np.arange(1.0, 16.0)
    surv = np.linspace(0.9, 0.2, 15)[:, None]
    with pytest.raises(ValueError, match="^n_resamples must be at most"):
        index_of_prediction_accuracy(y, time, surv, [5.0], n_resamples=10**12)
