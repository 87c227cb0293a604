"""The layout of the command line and model-selection modules."""

from pathlib import Path

import skbrier

ROOT = Path(skbrier.__file__).parent


def test_cli_and_model_selection_modules_stay_small():
    long = {
        p.relative_to(ROOT).as_posix(): n
        for folder in ("cli", "model_selection")
        for p in sorted((ROOT / folder).glob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700
    }
    assert not long, f"split these modules by responsibility: {long}"


def _subparsers():
    import argparse

    from skbrier.cli import _build_parser

    parser = _build_parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def test_every_command_is_built_from_its_module():
    import importlib

    from skbrier.cli import _COMMANDS

    commands = _subparsers()
    assert list(commands) == list(_COMMANDS)
    for name, parser in commands.items():
        module = importlib.import_module(f"skbrier.cli._{name}")
        assert parser.description == module.DESCRIPTION
        assert parser.get_default("func") is not None


def test_shared_options_parse_alike_in_every_command():
    from skbrier.cli._common import _SHARED_OPTIONS

    seen = set()
    for name, parser in _subparsers().items():
        for action in parser._actions:
            flag = action.option_strings[-1] if action.option_strings else None
            if flag not in _SHARED_OPTIONS:
                continue
            seen.add(flag)
            # the type of the value (--random-state: a non-negative integer)
            assert action.type is _SHARED_OPTIONS[flag].get("type"), (name, flag)
    assert seen == set(_SHARED_OPTIONS)


def _run(capsys, *argv):
    from skbrier.cli import main

    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def test_na_error_names_the_first_row_with_a_gap(tmp_path, capsys):
    path = tmp_path / "board.csv"
    rows = ["f,q,y,p"] + [f"m{i % 2},q{i // 2},{(i // 2) % 2},0.{i + 1}" for i in range(8)]
    rows[3] = "m0,q1,,0.3"
    path.write_text("\n".join(rows) + "\n")
    columns = [
        "--forecaster-col",
        "f",
        "--question-col",
        "q",
        "--y-col",
        "y",
        "--p-col",
        "p",
    ]
    code, err = _run(capsys, "leaderboard", path, *columns, "--na", "error")
    assert code == 2
    assert (
        f"{path}: row 4 has a missing value (--na error; the default --na drop "
        "leaves such rows out)." in err
    )


def test_rows_without_a_group_are_counted_in_a_warning(tmp_path, capsys):
    path = tmp_path / "audit.csv"
    rows = ["y,p,g"] + [
        f"{i % 2},0.{i % 9 + 1},{'ab'[i % 4 // 2] if i else ''}" for i in range(40)
    ]
    path.write_text("\n".join(rows) + "\n")
    code, err = _run(
        capsys, "report", path, "--y-col", "y", "--p-col", "p", "--group-col", "g"
    )
    assert code == 0
    assert "1 rows with a missing value in column 'g' are left out." in err


def test_integer_options_name_the_bad_value(capsys):
    code, err = _run(capsys, "llm", "x.jsonl", "--n-resamples", "many")
    assert code == 2 and "'many' is not an integer" in err
    code, err = _run(capsys, "demo", "--random-state", "1.5")
    assert code == 2 and "'1.5' is not an integer" in err


def test_every_table_reader_says_the_note_of_the_encoding(tmp_path, capsys):
    path = tmp_path / "board.csv"
    rows = ["f,q,y,p"] + [
        f"m{'é' * (i % 2)},q{i // 2},{(i // 2) % 2},0.{i + 1}" for i in range(8)
    ]
    path.write_bytes(("\n".join(rows) + "\n").encode("cp1252"))
    columns = ["--forecaster-col", "f", "--question-col", "q", "--y-col", "y"]
    code, err = _run(capsys, "leaderboard", path, *columns, "--p-col", "p")
    assert code == 0 and "skbrier: note:" in err and "cp1252" in err
    # also when the run then stops on a column read
    code, err = _run(capsys, "leaderboard", path, *columns, "--p-col", "f")
    assert code == 2 and "skbrier: note:" in err


def test_reader_keywords():
    import argparse

    from skbrier.cli._common import reader_keywords

    args = argparse.Namespace(sep=None, decimal=",", encoding="auto")
    assert reader_keywords(args) == {
        "sep": None,
        "decimal": ",",
        "encoding": None,
        "comment": None,
    }


def test_dask_refuses_the_text_reader_options_like_the_other_engines(tmp_path, capsys):
    import pytest

    pytest.importorskip("dask.dataframe")
    path = tmp_path / "audit.csv"
    path.write_text("y,p\n" + "".join(f"{i % 2},0.{i % 9 + 1}\n" for i in range(20)))
    base = ["report", path, "--y-col", "y", "--p-col", "p", "--engine", "dask"]
    code, err = _run(capsys, *base, "--sep", ";")
    assert code == 2 and "--sep is not available with --engine dask." in err
    code, err = _run(capsys, *base, "--decimal", ",")
    assert (
        code == 2 and "--decimal and --encoding are not available with --engine dask" in err
    )
